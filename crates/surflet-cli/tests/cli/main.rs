//! The CLI's tests, as one test binary: they run the real `surflet` binary
//! (through `common`), and some compare it with the library, which one
//! binary instantiates once rather than once per file.

mod common;

// The subcommands behind features (Cargo.toml) are tested in the builds that
// have them: CI's `cargo test --workspace --all-features` has all.
mod absent;
#[cfg(feature = "plots")]
mod analyze;
mod antialias;
mod bad_input_doc;
mod bench;
mod cellular;
mod cli_coherence;
mod config_roundtrip;
mod fuzz_corpus;
#[cfg(feature = "plots")]
mod gallery;
#[cfg(feature = "gpu")]
mod gpu;
mod graph;
#[cfg(feature = "serve")]
mod load;
mod readme;
mod render;
mod sample;
#[cfg(feature = "serve")]
mod serve;
mod shader;
mod stack;
mod tile;
// Compares every subcommand, analyze and the server's export included.
#[cfg(all(feature = "serve", feature = "plots"))]
mod vocabulary;
