//! The subcommands a build leaves out. `serve` needs the `serve` feature,
//! `analyze` and `gallery` the `plots` feature (their dependencies are 50
//! of a first build's 144 crates; docs/BUILD.md); a build without them
//! still accepts the subcommand, whatever follows it, and says how to get a
//! build that has it, rather than calling it unknown.

use std::ffi::OsString;

use clap::Args;

use crate::CliError;

/// Whatever follows a subcommand this build leaves out.
#[derive(Args, Debug, Clone)]
pub struct AbsentArgs {
    /// Not read: the subcommand is not in this build.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        hide = true,
        num_args = 0..
    )]
    pub rest: Vec<OsString>,
}

/// The error for `surflet <command>` in a build without `feature`.
pub fn absent(command: &str, feature: &str) -> CliError {
    CliError::Runtime(format!(
        "surflet {command} is not in this build: it needs the `{feature}` feature. \
         Install it with\n  \
         cargo install --locked --path crates/surflet-cli --features {feature}\n\
         or run it from a clone with\n  \
         cargo run --release --features {feature} -- {command}\n\
         (`--features full` builds every subcommand)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// What follows `surflet <command>`, parsed as the binary parses it.
    #[derive(Parser)]
    #[command(no_binary_name = true)]
    struct Probe {
        #[command(flatten)]
        args: AbsentArgs,
    }

    /// Any arguments reach the message: a user who copied `surflet serve
    /// --open --port 8080` learns that the build lacks serve, not that
    /// `--open` is unknown.
    #[test]
    fn every_argument_is_accepted() {
        for argv in [
            &[][..],
            &["--open", "--port", "8080"],
            &["out", "--size", "64", "-s", "7", "--help"],
        ] {
            let p = Probe::try_parse_from(argv).unwrap_or_else(|e| panic!("{argv:?}: {e}"));
            assert_eq!(p.args.rest.len(), argv.len());
        }
    }

    #[test]
    fn the_message_says_how_to_get_the_subcommand() {
        let CliError::Runtime(m) = absent("serve", "serve") else {
            panic!("not a runtime error");
        };
        assert!(m.starts_with("surflet serve is not in this build"), "{m}");
        assert!(
            m.contains("cargo install --locked --path crates/surflet-cli --features serve"),
            "{m}"
        );
        assert!(
            m.contains("cargo run --release --features serve -- serve"),
            "{m}"
        );
    }
}
