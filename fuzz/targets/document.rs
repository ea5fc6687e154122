//! Version 2 config files (`surflet render --config`, `--save-config`,
//! `surflet::document::Document`): arbitrary text as TOML and as JSON.
//!
//! A fuzz target's body, shared by `fuzz/fuzz_targets/document.rs`
//! (libFuzzer) and the CLI's test `fuzz_corpus`, which replays the
//! committed corpus.
//!
//! Invariants: no panic; an accepted document (as `--save-config` writes
//! it: upgraded to version 2) writes TOML and JSON, each reads back to the
//! same document bit for bit (`Debug` text, which tells −0.0 from 0.0),
//! each print → parse → print is a fixed point, TOML and JSON agree, and a
//! `[graph]` read back evaluates to the same bits and round-trips as the
//! `graph` target's graphs do.
// Each graph target has its own copy of the shared checks, so that each
// builds alone as a libFuzzer binary; the CLI's tests compile all three.
#[allow(clippy::duplicate_mod)]
#[path = "graphs.rs"]
mod graphs;

use surflet::document::Document;

fn check(doc: Document) {
    let doc = doc.upgraded();
    let want = format!("{doc:?}");
    let toml = doc.to_toml().expect("an accepted document writes TOML");
    let back = Document::from_toml(&toml).unwrap_or_else(|e| panic!("{toml}\n{e}"));
    assert_eq!(format!("{back:?}"), want, "TOML:\n{toml}");
    assert_eq!(back.to_toml().unwrap(), toml, "TOML fixed point");
    let json = doc.to_json().expect("an accepted document writes JSON");
    let back = Document::from_json(&json).unwrap_or_else(|e| panic!("{json}\n{e}"));
    assert_eq!(format!("{back:?}"), want, "JSON:\n{json}");
    assert_eq!(back.to_json().unwrap(), json, "JSON fixed point");
    if let (Some(a), Some(b)) = (&doc.graph, &back.graph) {
        graphs::evaluate_alike(a, b);
        graphs::round_trips(a);
    }
}

/// One fuzz input: panics when an invariant fails. Returns whether it was
/// accepted (read as valid input), which the corpus replay counts.
pub fn run(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    let mut accepted = false;
    if let Ok(doc) = Document::from_toml(text) {
        check(doc);
        accepted = true;
    }
    if let Ok(doc) = Document::from_json(text) {
        check(doc);
        accepted = true;
    }
    accepted
}
