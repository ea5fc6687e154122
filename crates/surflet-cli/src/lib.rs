//! The `surflet` command-line tool, as a library so that the binary, the
//! tests and the fuzzers (`fuzz/`) share one code path.
//!
//! This is not a stable API: the command line is the interface. Each
//! subcommand lives in its own module with a clap `Args` struct and a `run`
//! function returning [`CliError`]; [`main`] maps errors to exit codes.

// `absent` stands in for the subcommands a build leaves out (see the
// features in Cargo.toml); its tests run in every build.
#[cfg(any(test, not(all(feature = "serve", feature = "plots"))))]
mod absent;
#[cfg(feature = "plots")]
mod analyze;
mod any_field;
mod bench;
mod document;
mod error;
mod eval;
#[cfg(feature = "plots")]
mod gallery;
#[cfg(feature = "gpu")]
mod gpu;
mod help;
mod imaging;
mod names;
mod render;
mod sample;
mod sampled;
#[cfg(feature = "serve")]
mod serve;
mod shader;
mod stack_args;
mod stack_field;
mod units;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

pub use error::CliError;

/// Top-level description, shown by `surflet --help`.
const LONG_ABOUT: &str = "\
Gradient noise from the command line: bit-exact ports of the reference
implementations (Perlin's and Gustavson's Java and C code, K.jpg's
OpenSimplex2 and OpenSimplex2S Java) and the surflet family (seeded,
seam-free value, Perlin, simplex, simplex value, OpenSimplex2, OpenSimplex2S
and cellular noise in 1D-4D with analytic gradients), alone, as fractals and
warps, or combined in expressions.

Run `surflet sample --help` for the input and output format and the list of
noise names, `surflet render --help` for images, and `surflet help TOPIC`
for what they share.";

const EXIT_HELP: &str = "\
EXIT STATUS
  0    success (also when the reader of the output goes away early)
  1    runtime error, such as bad input data or an unwritable output
  2    usage error: unknown subcommand or noise name, bad or inapplicable options,
       or a bad --config file (the message names the key, or the line)
  130  interrupted by Ctrl-C (render leaves no partial output)";

/// Command line of `surflet`.
#[derive(Parser, Debug)]
#[command(
    name = "surflet",
    version,
    about = "Gradient noise: exact reference ports and the surflet family",
    long_about = LONG_ABOUT,
    after_long_help = EXIT_HELP,
    disable_help_subcommand = true,
    max_term_width = 100,
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
enum Command {
    /// Evaluate a noise at points read from standard input.
    #[command(long_about = sample::LONG_ABOUT)]
    Sample(sample::SampleArgs),
    /// Render a noise into an image: PNG, GIF, TIFF, raw f32, animations.
    #[command(long_about = render::help::LONG_ABOUT, after_long_help = render::help::DETAILS)]
    Render(Box<render::RenderArgs>),
    /// Reproduce the figures of the seed documents into a directory, with
    /// an index.html.
    #[cfg(feature = "plots")]
    #[command(long_about = gallery::LONG_ABOUT, after_long_help = gallery::DETAILS)]
    Gallery(gallery::GalleryArgs),
    /// Reproduce the figures of the seed documents (not in this build: it
    /// needs the `plots` feature).
    #[cfg(not(feature = "plots"))]
    Gallery(absent::AbsentArgs),
    /// Measure how fast this machine evaluates a noise or stack
    /// (Msamples/s).
    #[command(long_about = bench::LONG_ABOUT)]
    Bench(bench::BenchArgs),
    /// Measure a noise or stack on a 2D slice: statistics, histogram,
    /// power spectrum and anisotropy, into a directory.
    #[cfg(feature = "plots")]
    #[command(long_about = analyze::LONG_ABOUT, after_long_help = analyze::DETAILS)]
    Analyze(analyze::AnalyzeArgs),
    /// Measure a noise or stack on a 2D slice (not in this build: it needs
    /// the `plots` feature).
    #[cfg(not(feature = "plots"))]
    Analyze(absent::AbsentArgs),
    /// Start a noise explorer in the browser: a local web server with a
    /// page and a JSON API.
    #[cfg(feature = "serve")]
    #[command(long_about = serve::LONG_ABOUT, after_long_help = serve::DETAILS)]
    Serve(serve::ServeArgs),
    /// Start a noise explorer in the browser (not in this build: it needs
    /// the `serve` feature).
    #[cfg(not(feature = "serve"))]
    Serve(absent::AbsentArgs),
    /// Print a noise or stack as shader source (WGSL) for your own GPU
    /// pipeline.
    #[command(long_about = shader::LONG_ABOUT)]
    Shader(Box<shader::ShaderArgs>),
    /// Explain a topic (coordinates, stacks, graphs, config) or a
    /// subcommand.
    Help(help::HelpArgs),
}

/// Spellings that once meant something and mean nothing now, with what to
/// write instead: a script that still uses one gets that, not a puzzle.
/// Each is the old spelling, the new one, whether the meaning moved with
/// the name (a rename) or was dropped, and a hint.
const RENAMED: &[(&str, &str, bool, &str)] = &[
    (
        "-o",
        "--octaves",
        false,
        "; an output file is render's first argument: surflet render out.png",
    ),
    (
        "--spacing",
        "--scale",
        true,
        ", world units per sample, as in render and analyze",
    ),
];

/// The message for an unknown argument that is an old spelling.
fn renamed(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    // `--spacing=1` names the flag before its `=`.
    let arg = arg.split('=').next().unwrap_or(arg);
    RENAMED
        .iter()
        .find(|(old, ..)| arg == *old)
        .map(|(old, new, moved, more)| {
            if *moved {
                format!("{old} is now {new}: write {new}{more}")
            } else {
                format!("{old} no longer means {new}: write {new}{more}")
            }
        })
}

/// Runs the command line of the process (`std::env::args`) and returns the
/// exit code; the binary's `main` is this and nothing else.
pub fn main() -> ExitCode {
    let matches = match command().try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            if let Some(message) = renamed(&e) {
                let _ = writeln!(io::stderr().lock(), "error: {message}");
                return ExitCode::from(2);
            }
            e.exit()
        }
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let result = match &cli.command {
        Command::Sample(args) => sample::run(args, io::stdin().lock(), io::stdout().lock()),
        Command::Render(args) => render::run(args),
        #[cfg(feature = "plots")]
        Command::Gallery(args) => gallery::run(args),
        #[cfg(not(feature = "plots"))]
        Command::Gallery(_) => Err(absent::absent("gallery", "plots")),
        Command::Bench(args) => bench::run(args, io::stdout().lock()),
        Command::Shader(args) => shader::run(args, io::stdout().lock()),
        #[cfg(feature = "plots")]
        Command::Analyze(args) => analyze::run(args),
        #[cfg(not(feature = "plots"))]
        Command::Analyze(_) => Err(absent::absent("analyze", "plots")),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run(args),
        #[cfg(not(feature = "serve"))]
        Command::Serve(_) => Err(absent::absent("serve", "serve")),
        Command::Help(args) => run_help(args),
    };
    let Some((code, message, hint)) = result.err().and_then(CliError::report) else {
        return ExitCode::SUCCESS;
    };
    // eprintln! would panic if stderr is gone; there is nobody to tell then.
    let mut stderr = io::stderr().lock();
    let _ = writeln!(stderr, "error: {message}");
    if hint {
        let _ = writeln!(
            stderr,
            "\nFor more information, try '{} --help'.",
            match cli.command {
                Command::Sample(_) => "surflet sample",
                Command::Render(_) => "surflet render",
                Command::Gallery(_) => "surflet gallery",
                Command::Bench(_) => "surflet bench",
                Command::Shader(_) => "surflet shader",
                Command::Analyze(_) => "surflet analyze",
                Command::Serve(_) => "surflet serve",
                Command::Help(_) => "surflet help",
            }
        );
    }
    ExitCode::from(code)
}

/// The command line's definition, with the parts of the help that are
/// generated from the noise metadata attached.
fn command() -> clap::Command {
    let command = Cli::command()
        .mut_subcommand("sample", |c| {
            c.after_help(sample::short_help())
                .after_long_help(sample::long_help())
        })
        // analyze and bench write measurements, not a picture; the flag is
        // refused there, so their help should not offer it.
        .mut_subcommand("bench", |c| c.mut_arg("save_config", |a| a.hide(true)))
        .after_long_help(format!("{}\n{EXIT_HELP}", help::topic_list()));
    #[cfg(feature = "plots")]
    let command = command.mut_subcommand("analyze", |c| c.mut_arg("save_config", |a| a.hide(true)));
    command
}

/// Runs `surflet help [TOPIC]`.
fn run_help(args: &help::HelpArgs) -> Result<(), CliError> {
    let mut command = command();
    let text = match args.topic.as_deref() {
        None => command.render_long_help().to_string(),
        Some(topic) => match help::topic(topic) {
            Some(text) => text,
            None => match command.find_subcommand_mut(topic) {
                Some(sub) if topic != "help" => sub
                    .clone()
                    .bin_name(format!("surflet {topic}"))
                    .render_long_help()
                    .to_string(),
                _ => {
                    return Err(CliError::Usage(format!(
                        "no help topic {topic:?}: the topics are {}, and the subcommands \
                         sample, render, gallery, bench, analyze and serve",
                        help::TOPICS.map(|t| t.0).join(", ")
                    )));
                }
            },
        },
    };
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(CliError::Write)
}

/// Runs `surflet sample` with the arguments `args` (without the program
/// name and the `sample` subcommand) on `input`, and returns what it wrote
/// to standard output, or the error.
///
/// This is the entry point of the `sample` fuzz target: it parses the
/// arguments exactly as the binary does, then streams `input` through the
/// same parser and evaluator, so a fuzzer reaches every line-parsing and
/// noise path without a process per input.
///
/// ```
/// let out = surflet_cli::sample_bytes(&["perlin2002-java"], b"3.14,42,7\n").unwrap();
/// assert_eq!(out, b"0.13691995878400012\n");
/// let err = surflet_cli::sample_bytes(&["simplex"], b"1,x\n").unwrap_err();
/// assert!(matches!(err, CliError::Input(_)), "{err:?}");
/// # use surflet_cli::CliError;
/// ```
pub fn sample_bytes(args: &[&str], input: &[u8]) -> Result<Vec<u8>, CliError> {
    let argv = ["surflet", "sample"].iter().chain(args);
    let cli = Cli::try_parse_from(argv).map_err(|e| CliError::Usage(e.to_string()))?;
    let Command::Sample(sample) = &cli.command else {
        unreachable!("the subcommand is always `sample`")
    };
    let mut out = Vec::new();
    sample::run(sample, input, &mut out)?;
    Ok(out)
}

/// Parses `surflet render` options (without the program name and the
/// subcommand) exactly as the binary does.
#[cfg(feature = "serve")]
pub(crate) fn parse_render(args: &[&str]) -> Result<render::RenderArgs, String> {
    let argv = ["surflet", "render"].iter().chain(args);
    match Cli::try_parse_from(argv)
        .map_err(|e| e.to_string())?
        .command
    {
        Command::Render(r) => Ok(*r),
        _ => unreachable!("the subcommand is always `render`"),
    }
}
