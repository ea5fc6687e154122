//! libFuzzer's entry point for the `sample` target; the body and its invariants
//! are in `fuzz/targets/sample.rs`, which the CLI's tests also run on the corpus.
#![no_main]

#[path = "../targets/sample.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    body::run(data);
});
