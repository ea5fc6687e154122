//! surflet's integration tests, as one test binary.
//!
//! Each module was once its own file under `tests/`, which made each its own
//! crate: every crate instantiated the generic kernels (every noise kind,
//! dimension, float type and instruction set) again at opt-level 3, and the
//! test build passed 30 minutes on 2 cores. One binary instantiates them once.
//! Run one module with `cargo test -p surflet --test suite family_range::`.

mod common;
mod fractal_common;

mod antialias;
mod bad_params;
mod batch_errors;
#[allow(clippy::needless_range_loop)]
mod cellular;
mod curl_divergence;
#[cfg(feature = "dynamic")]
mod dynamic_points;
mod family_bitexact;
mod family_continuity;
mod family_gradient;
mod family_large;
mod family_period;
mod family_precision;
mod family_range;
mod family_seed;
mod fractal_bitexact;
mod fractal_extremes;
mod fractal_golden;
mod fractal_gradients;
mod fractal_ranges;
#[cfg(feature = "serde")]
#[allow(clippy::needless_range_loop)]
mod fractal_rotation;
mod fractal_tiling;
mod frozen;
mod golden_c;
mod golden_java;
mod golden_opensimplex2;
#[cfg(all(feature = "serde", feature = "expr"))]
#[allow(clippy::needless_range_loop)]
mod graph;
mod grid;
mod miri_smoke;
#[allow(clippy::needless_range_loop)]
mod nd;
mod opensimplex;
mod properties;
mod seed_independence;
#[cfg(feature = "serde")]
mod stack_config;
mod warp_gradients;
