//! # surflet
//!
//! Gradient noise — Perlin, simplex and their family — done exactly.
//!
//! The crate has two halves:
//!
//! * [`reference`](mod@crate::reference): faithful, bit-exact ports of the published reference
//!   implementations (Ken Perlin's Java, Stefan Gustavson's Java and C,
//!   K.jpg's OpenSimplex2 and OpenSimplex2S Java), flaws included. Use them to reproduce existing content to the last bit.
//! * The surflet noise family (value, Perlin, simplex, simplex-value noise in
//!   1D–4D), which fixes those flaws: seeded, seam-free, exactly normalised,
//!   with analytic gradients, in `f32` and `f64`, and fast in SIMD batches.
//!
//! Built on the family, in every dimension each noise supports and with the
//! same analytic gradients and bit-identical batches:
//!
//! * [`fractal`]: fBm, ridged and hybrid multifractals, billow and turbulence,
//!   tileable when the base noise is periodic;
//! * [`warp`]: single-step and progressive domain warping;
//! * [`curl`]: divergence-free curl noise in 2D and 3D;
//! * [`nd`]: value, Perlin and simplex noise in 1 to 8 dimensions;
//! * [`graph`]: noises and stacks combined (arithmetic, remapping, select
//!   and blend, domain transforms and displacement) with exact gradients
//!   and derived ranges, written as expressions, TOML or JSON;
//! * [`stack`]: declarative noise stacks (noise, seed, frequency, fractal,
//!   warp) read from and written to TOML and JSON;
//! * [`document`]: the config file every front end reads and writes: a
//!   stack or graph with its view, pixel mapping and animation.
//!
//! # Cargo features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `std` | on | run-time instruction-set detection (and the `SURFLET_ISA` cap), [`Stack::from_file`] |
//! | `rayon` | on | batch and grid calls split over the current rayon pool (same bits as one thread); implies `std` |
//! | `serde` | on | [`Stack`], [`Graph`] and [`document::Document`] read from and written to TOML and JSON; implies `std` |
//! | `expr` | on | [`Graph::parse`], the expression language (works without `std`) |
//! | `avx512` | on | the AVX-512 backend on x86-64 ([`Isa::Avx512`]); without it AVX-512 CPUs run AVX2, the same bits |
//! | `dynamic` | off | `dynamic::DynField`, any field with its dimension chosen at run time (what the CLI, the C API and Python call); it compiles the batch and grid calls of stacks and graphs in 1D–4D, both precisions, every instruction set, into this crate, so a program that names its fields' types leaves it off; family noises behind it are evaluated point by point (the same bits) |
//! | `dynamic-noise` | off | `dynamic`, with each family noise's own batch and grid engine behind `DynField::noise` (1D–8D; what the C API and Python use) |
//! | `wgsl` | off | `wgsl`: stacks as WGSL source for GPU pipelines (`surflet-gpu` runs them) |
//!
//! With `default-features = false` the crate is `no_std` (it needs
//! `alloc`): every noise, fractal, warp, curl and stack builds and gives the
//! same bits, on the instruction sets the build enables
//! (`-C target-feature` / `-C target-cpu`; AVX-512 with the `avx512`
//! feature too), and the dependency tree is
//! `libm` and `thiserror`. [`prelude`] imports the common types at once.
//!
//! Bad input never panics: NaN or ±∞ coordinates give NaN, finite ones of any
//! size give a finite result, and bad parameters give a typed [`Error`]. The
//! full table, library and command line, is in `docs/BAD-INPUT.md`.
//!
//! ```
//! // Ken Perlin's ImprovedNoise, reproduced to the last bit.
//! let v = surflet::reference::perlin2002::noise(3.14, 42.0, 7.0);
//! assert_eq!(v, 0.13691995878400012);
//! ```
#![cfg_attr(not(test), warn(missing_docs))]
// docs.rs (Cargo.toml's `package.metadata.docs.rs`) marks each item with the
// features it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
// Without the `std` feature the crate needs only `core` and `alloc`.
#![cfg_attr(not(feature = "std"), no_std)]

extern crate alloc;

#[cfg(not(feature = "std"))]
mod math;
#[cfg(all(test, feature = "std"))]
mod model;
/// What every module may need from `alloc` (the `std` prelude has it; a
/// `no_std` build does not), and the scalar maths that `core` lacks.
mod prelude_internal;

mod batch;
pub mod cellular;
pub mod curl;
#[cfg(feature = "serde")]
pub mod document;
#[cfg(feature = "dynamic")]
#[cfg_attr(docsrs, doc(cfg(feature = "dynamic")))]
pub mod dynamic;
#[cfg(feature = "dynamic")]
mod erased;
mod error;
mod field;
mod float;
pub mod fractal;
mod fractal_kind;
pub mod graph;
mod grid;
mod kernel;
mod kind;
pub mod nd;
mod noise;
pub mod prelude;
mod program;
pub mod reference;
mod sample;
mod seed;
pub(crate) mod simd;
pub mod stack;
pub mod warp;
#[cfg(feature = "wgsl")]
#[cfg_attr(docsrs, doc(cfg(feature = "wgsl")))]
pub mod wgsl;

// The README's Rust examples run as doctests. crates/surflet/README.md is
// a link to the repository's README, which `cargo package` copies into the
// crate, so the packaged crate has them too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub use cellular::{Cellular, CellularDistance, CellularReturn};
pub use error::Error;
pub use field::Field;
pub use float::{Element, Float};
pub use grid::Grid;
pub use kind::MAX_PERIOD;
pub use noise::{Noise, NoiseKind};
pub use sample::{Bounds, Sample};
pub use simd::Isa;

pub use curl::Curl;
pub use fractal::{Fractal, FractalKind, FractalParams, MAX_OCTAVES, Octave};
pub use graph::{Graph, GraphField};
pub use stack::{Evaluator, FractalDesc, Stack, WarpDesc};
pub use warp::{Warp, WarpKind, WarpParams};
