//! libFuzzer's entry point for the `document` target; the body and its invariants
//! are in `fuzz/targets/document.rs`, which the CLI's tests also run on the corpus.
#![no_main]

#[path = "../targets/document.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    body::run(data);
});
