//! The CLI's tests, as one test binary: they run the real `surflet` binary
//! (through `common`), and some compare it with the library, which one
//! binary instantiates once rather than once per file.

mod common;

mod analyze;
mod bench;
mod cellular;
mod cli_coherence;
mod config_roundtrip;
mod fuzz_corpus;
mod gallery;
mod graph;
mod readme;
mod render;
mod sample;
mod serve;
mod stack;
mod vocabulary;
