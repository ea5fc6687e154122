//! Why a subcommand failed, and the exit code and message it becomes.

use std::io;

/// Why a subcommand failed; decides the exit code.
#[derive(Debug)]
pub enum CliError {
    /// Bad options or option combinations (exit 2, like clap's own errors).
    Usage(String),
    /// Bad input data (exit 1); the message names the line.
    Input(String),
    /// Reading the input failed (exit 1).
    Read(io::Error),
    /// Writing the output failed (exit 1, except a broken pipe, which ends
    /// the program quietly).
    Write(io::Error),
    /// A failure at run time, such as an unwritable output or too little
    /// memory (exit 1); the message says what and where.
    Runtime(String),
    /// Ctrl-C or SIGTERM stopped the command after it cleaned up (exit 130,
    /// the shell's code for death by SIGINT).
    Interrupted,
}

impl CliError {
    /// The exit code, the message for standard error and whether to add
    /// the subcommand's help hint; `None` where the command succeeded after
    /// all (a broken pipe: the reader of the output went away, as `| head`
    /// does, and nobody wants the rest).
    pub(crate) fn report(self) -> Option<(u8, String, bool)> {
        Some(match self {
            CliError::Write(e) if e.kind() == io::ErrorKind::BrokenPipe => return None,
            CliError::Usage(m) => (2, m, true),
            CliError::Input(m) => (1, m, false),
            CliError::Read(e) => (1, format!("reading standard input: {e}"), false),
            CliError::Write(e) => (1, format!("writing standard output: {e}"), false),
            CliError::Runtime(m) => (1, m, false),
            CliError::Interrupted => (130, "interrupted; no output was written".to_string(), false),
        })
    }
}
