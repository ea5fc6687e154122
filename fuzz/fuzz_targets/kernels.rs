//! libFuzzer's entry point for the `kernels` target; the body and its
//! invariants are in `fuzz/targets/kernels.rs`, which the CLI's tests also
//! run on the corpus. The input is typed, so `cargo fuzz fmt` prints it.
#![no_main]

#[path = "../targets/kernels.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|input: body::Input| body::check_input(&input));
