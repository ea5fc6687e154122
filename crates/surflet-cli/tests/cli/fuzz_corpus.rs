//! Every fuzz target's committed corpus, replayed as ordinary tests.
//!
//! The target bodies live in `fuzz/targets/` and are compiled here as they
//! are into the libFuzzer binaries, so CI checks their invariants on every
//! input the fuzzers kept (and on every crash they ever found, saved in the
//! corpus as `crash-*`) without installing cargo-fuzz or building with
//! sanitizer coverage. The test profile keeps debug assertions and overflow
//! checks on, as `cargo fuzz run -O -a` does. `fuzz/README.md` says how the
//! corpus is grown.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::path::{Path, PathBuf};

#[path = "../../../../fuzz/targets/config.rs"]
mod config;
#[path = "../../../../fuzz/targets/document.rs"]
mod document;
#[path = "../../../../fuzz/targets/expr.rs"]
mod expr;
#[path = "../../../../fuzz/targets/graph.rs"]
mod graph;
#[path = "../../../../fuzz/targets/kernels.rs"]
mod kernels;
#[path = "../../../../fuzz/targets/sample.rs"]
mod sample;

/// Runs `body` on every file of `fuzz/corpus/TARGET`, naming the file that
/// fails; returns how many ran and how many of them the target accepted
/// (read as a valid stack, expression, document, input...).
fn replay(target: &str, body: fn(&[u8]) -> bool) -> (usize, usize) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    let mut accepted = 0;
    for path in &files {
        let data = std::fs::read(path).unwrap();
        match catch_unwind(AssertUnwindSafe(|| body(&data))) {
            Ok(ok) => accepted += usize::from(ok),
            Err(panic) => {
                eprintln!("fuzz corpus: {target} fails on {}", path.display());
                resume_unwind(panic);
            }
        }
    }
    (files.len(), accepted)
}

/// Replays `target`'s corpus and checks it still exercises the invariants.
/// Counting files is not enough: a stricter reader would turn the accepted
/// inputs into errors and leave only the error branch running, so each
/// target needs a number of inputs it accepts, about half of what the
/// committed corpus had when the minimum was set (the counts are printed).
fn check(target: &str, body: fn(&[u8]) -> bool, min_accepted: usize) {
    let (ran, accepted) = replay(target, body);
    println!("{target}: {ran} inputs, {accepted} accepted");
    assert!(ran >= AT_LEAST, "{target}: only {ran} inputs");
    assert!(
        accepted >= min_accepted,
        "{target}: only {accepted} of {ran} inputs accepted, fewer than {min_accepted}: \
         the invariants of accepted input are barely checked"
    );
}

/// A corpus that went missing or was emptied would make these tests pass
/// while checking nothing.
const AT_LEAST: usize = 50;

// Each target's floor of accepted inputs is about half of what the corpus
// held when it was last merged (2026-11-27: config 247 of 3123, kernels
// 2589 of 2589, sample 615 of 1134, expr 388 of 764, graph 376 of 2227,
// document 199 of 2812): a reader that grew stricter by mistake fails here,
// while a corpus merge that drops a few inputs does not.

#[test]
fn config_corpus() {
    check("config", config::run, 120);
}

#[test]
fn kernels_corpus() {
    check("kernels", kernels::run, 2500);
}

#[test]
fn sample_corpus() {
    check("sample", sample::run, 300);
}

#[test]
fn expr_corpus() {
    check("expr", expr::run, 190);
}

#[test]
fn graph_corpus() {
    check("graph", graph::run, 180);
}

#[test]
fn document_corpus() {
    check("document", document::run, 100);
}
