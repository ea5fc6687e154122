//! Noise stacks: a declarative description of a noise, its fractal and its
//! domain warp, read from and written to TOML or JSON, and compiled into an
//! [`Evaluator`].
//!
//! ```toml
//! noise = "simplex"          # value | perlin | simplex | simplex-value | cellular
//! seed = 42                  # u64; above 2^63 - 1 write it as a string
//! frequency = 0.01           # octave 0's frequency
//! period = [4, 4]            # optional: tile every period / frequency units
//! offset = [0.5, -2]         # optional: move the domain by these lattice cells
//! distance = "euclidean"     # cellular only: euclidean | euclidean-squared |
//!                            #   manhattan | chebyshev | hybrid
//! return = "f1"              # cellular only: f1 | f2 | f2-f1 | f1+f2 | f1*f2 |
//!                            #   f1/f2 | cell-value
//! jitter = 1.0               # cellular only: in [0, 1]
//!
//! [fractal]                  # optional: without it, one octave of noise
//! kind = "ridged"            # fbm | ridged | billow | turbulence | hybrid
//! octaves = 5                # 1..=32
//! lacunarity = 2.0           # a whole number when tiling
//! gain = 0.5
//! amplitude = 1.0
//! normalize = true
//! offset = 1.0               # ridged and hybrid only
//! weight = 2.0               # ridged only
//! rotation = 0.5             # turn each octave by 0.5 radians more (default 0)
//!
//! [warp]                     # optional
//! kind = "progressive"       # single | progressive
//! noise = "perlin"           # default: the stack's noise
//! seed = 7                   # default: the stack's seed (decorrelated by a salt)
//! frequency = 0.02           # default: the stack's frequency
//! amplitude = 30.0           # largest displacement, in input units
//!
//! [warp.fractal]             # optional: without it, one octave of noise
//! octaves = 3
//! ```
//!
//! Omitted keys take the defaults shown in [`Stack::default`],
//! [`FractalDesc::default`] and [`WarpDesc::default`]. Unknown keys and bad
//! values are errors ([`Error::Config`](crate::Error::Config)) that name
//! the key; TOML errors also give the line and column.
//!
//! **Tiling.** With `period = [P₀, P₁, …]` (one entry per dimension) the
//! stack repeats every `Pₐ / frequency` input units. The fractal's lacunarity
//! must then be a whole number (see [tiling](crate::fractal#tiling)). A warp
//! is made periodic with the same tile: its noise gets the period
//! `Pₐ · warp.frequency / frequency`, which must be a whole number; warped
//! stacks repeat up to rounding (see [`crate::warp`]).
//!
//! The module is split by job: the description's types (`desc.rs`),
//! [checking](Stack::check) (`check.rs`), building an [`Evaluator`]
//! (`build.rs`), the key table ([`keys`]) and the TOML and JSON forms
//! (`form.rs`, feature `serde`).

mod build;
mod check;
mod desc;
#[cfg(feature = "serde")]
mod form;
pub mod keys;

pub use build::Evaluator;
pub use desc::{FractalDesc, Stack, WarpDesc};
