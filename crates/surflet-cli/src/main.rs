//! The `surflet` binary: everything lives in the `surflet_cli` library.

fn main() -> std::process::ExitCode {
    surflet_cli::main()
}
