//! libFuzzer's entry point for the `expr` target; the body and its invariants
//! are in `fuzz/targets/expr.rs`, which the CLI's tests also run on the corpus.
#![no_main]

#[path = "../targets/expr.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    body::run(data);
});
