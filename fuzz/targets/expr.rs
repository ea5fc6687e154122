//! The expression language (`--expr`, `Graph::parse`): arbitrary text.
//!
//! A fuzz target's body, shared by `fuzz/fuzz_targets/expr.rs` (libFuzzer)
//! and the CLI's test `fuzz_corpus`, which replays the committed corpus.
//!
//! Invariants: no panic (bad text is an `Error::Expression` whose caret
//! points inside the text); an accepted graph round-trips through the
//! expression, JSON and TOML bit for bit, print → parse → print is a fixed
//! point, and the graph read back evaluates to the same bits in 1D–3D.
//! Hangs and unbounded allocation are libFuzzer's `-timeout` and
//! `-rss_limit_mb` (see `fuzz/run.sh`).
// Each graph target has its own copy of the shared checks, so that each
// builds alone as a libFuzzer binary; the CLI's tests compile all three.
#[allow(clippy::duplicate_mod)]
#[path = "graphs.rs"]
mod graphs;

use surflet::{Error, Graph};

/// One fuzz input: panics when an invariant fails. Returns whether it was
/// accepted (read as valid input), which the corpus replay counts.
pub fn run(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    match Graph::parse(text) {
        Ok(g) => {
            graphs::round_trips(&g);
            true
        }
        Err(Error::Expression {
            column, snippet, ..
        }) => {
            // The caret sits under a column of the text, or one past its end.
            assert!(column >= 1, "column {column}");
            assert!(snippet.contains('^'), "no caret: {snippet}");
            false
        }
        Err(e) => panic!("a bad expression gave another error: {e:?}"),
    }
}
