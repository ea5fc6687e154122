//! `surflet sample`'s input parser and evaluators: the first byte picks a
//! command line, the rest is standard input.
//!
//! A fuzz target's body, shared by `fuzz/fuzz_targets/sample.rs` (libFuzzer)
//! and the CLI's test `fuzz_corpus`, which replays the committed corpus.
//!
//! Invariants: no panic; bad input is an `Input` error (never `Usage`, since
//! every command line here is valid); on success there is at most one output
//! line per input line and every field of it reads back as an `f64`.
use surflet_cli::{CliError, sample_bytes};

const COMMANDS: &[&[&str]] = &[
    &["perlin2002-java"],
    &["simplex2012-java"],
    &["simplex2005-java"],
    &["classic2005-java"],
    &["noise1234"],
    &["pnoise1234"],
    &["snoise1234"],
    &["sdnoise1234", "--gradient"],
    &["srdnoise23", "--gradient"],
    &["opensimplex2-java", "--seed", "-1"],
    &["opensimplex2s-java", "--variant", "fallback"],
    &["value", "--seed", "7"],
    &["perlin", "--gradient", "--f32"],
    &["simplex", "--gradient"],
    &["simplex-value", "--f32"],
    &["simplex", "--period", "4,6", "--gradient"],
    &[
        "perlin",
        "--fractal",
        "ridged",
        "--octaves",
        "5",
        "--gradient",
    ],
    &["simplex", "--warp", "progressive", "--gradient", "--f32"],
    &["curl2"],
    &["curl3", "--f32"],
];

/// One fuzz input: panics when an invariant fails. Returns whether it was
/// accepted (read as valid input), which the corpus replay counts.
pub fn run(data: &[u8]) -> bool {
    let Some((&pick, input)) = data.split_first() else {
        return false;
    };
    let args = COMMANDS[pick as usize % COMMANDS.len()];
    match sample_bytes(args, input) {
        Ok(out) => {
            let text = std::str::from_utf8(&out).expect("output is UTF-8");
            let lines_in = input.split(|&b| b == b'\n').count();
            assert!(
                text.lines().count() <= lines_in,
                "{args:?}: more lines out than in"
            );
            for line in text.lines() {
                for field in line.split(',') {
                    field
                        .parse::<f64>()
                        .unwrap_or_else(|_| panic!("{args:?}: unparsable output {field:?}"));
                }
            }
            true
        }
        Err(CliError::Input(_) | CliError::Read(_)) => false,
        Err(e) => panic!("{args:?}: unexpected error {e:?}"),
    }
}
