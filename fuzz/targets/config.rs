//! The noise-stack loader: arbitrary text as TOML and as JSON.
//!
//! A fuzz target's body, shared by `fuzz/fuzz_targets/config.rs` (libFuzzer)
//! and the CLI's test `fuzz_corpus`, which replays the committed corpus.
//!
//! Invariants: no panic; an accepted stack serialises and reads back
//! unchanged in both formats, builds in 1D–4D (or fails with an error, for a
//! period of the wrong length), and evaluates to the same bits in f64 twice.
use surflet::{Field, Stack};

fn check(stack: Stack) {
    let toml = stack
        .to_toml_string()
        .expect("an accepted stack serialises to TOML");
    assert_eq!(
        Stack::from_toml_str(&toml).as_ref(),
        Ok(&stack),
        "TOML round trip:\n{toml}"
    );
    let json = stack
        .to_json_string()
        .expect("an accepted stack serialises to JSON");
    assert_eq!(
        Stack::from_json_str(&json).as_ref(),
        Ok(&stack),
        "JSON round trip:\n{json}"
    );
    if let Ok(e) = stack.build::<2>() {
        let p = [0.3f64, -1.7];
        assert_eq!(e.get(p).to_bits(), e.get(p).to_bits());
        let _ = e.sample([1e300f64, f64::NAN]);
        let _ = e.sample([2.5f32, -0.5]);
    }
    if let Ok(e) = stack.build::<3>() {
        let _ = e.sample([0.1f64, 0.2, 0.3]);
    }
    let _ = stack.build::<1>().map(|e| e.get([0.25f64]));
    let _ = stack.build::<4>().map(|e| e.get([0.25f64; 4]));
}

/// One fuzz input: panics when an invariant fails.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(stack) = Stack::from_toml_str(text) {
        check(stack);
    }
    if let Ok(stack) = Stack::from_json_str(text) {
        check(stack);
    }
}
