//! Graph configs: arbitrary text as a `[graph]`-style TOML document and as
//! JSON (`Graph::from_toml_str`, `Graph::from_json_str`).
//!
//! A fuzz target's body, shared by `fuzz/fuzz_targets/graph.rs` (libFuzzer)
//! and the CLI's test `fuzz_corpus`, which replays the committed corpus.
//!
//! Invariants: no panic; an accepted graph round-trips through the
//! expression, JSON and TOML bit for bit, each spelling's print → parse →
//! print is a fixed point, and the graph read back evaluates to the same
//! bits in 1D–3D.
// Each graph target has its own copy of the shared checks, so that each
// builds alone as a libFuzzer binary; the CLI's tests compile all three.
#[allow(clippy::duplicate_mod)]
#[path = "graphs.rs"]
mod graphs;

use surflet::Graph;

/// One fuzz input: panics when an invariant fails. Returns whether it was
/// accepted (read as valid input), which the corpus replay counts.
pub fn run(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    let mut accepted = false;
    if let Ok(g) = Graph::from_toml_str(text) {
        graphs::round_trips(&g);
        accepted = true;
    }
    if let Ok(g) = Graph::from_json_str(text) {
        graphs::round_trips(&g);
        accepted = true;
    }
    accepted
}
