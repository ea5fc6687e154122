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
/// fails; returns how many ran.
fn replay(target: &str, body: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    for path in &files {
        let data = std::fs::read(path).unwrap();
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| body(&data))) {
            eprintln!("fuzz corpus: {target} fails on {}", path.display());
            resume_unwind(panic);
        }
    }
    files.len()
}

/// A corpus that went missing or was emptied would make these tests pass
/// while checking nothing.
const AT_LEAST: usize = 50;

#[test]
fn config_corpus() {
    assert!(replay("config", config::run) >= AT_LEAST);
}

#[test]
fn kernels_corpus() {
    assert!(replay("kernels", kernels::run) >= AT_LEAST);
}

#[test]
fn sample_corpus() {
    assert!(replay("sample", sample::run) >= AT_LEAST);
}

#[test]
fn expr_corpus() {
    assert!(replay("expr", expr::run) >= AT_LEAST);
}

#[test]
fn graph_corpus() {
    assert!(replay("graph", graph::run) >= AT_LEAST);
}

#[test]
fn document_corpus() {
    assert!(replay("document", document::run) >= AT_LEAST);
}
