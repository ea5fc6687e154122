//! The types most programs need, in one import.
//!
//! ```
//! use surflet::prelude::*;
//!
//! let noise = Noise::<2>::new(NoiseKind::Simplex, 7);
//! let params = FractalParams { octaves: 5, ..FractalParams::new(FractalKind::Fbm) };
//! let fbm = Fractal::new(noise, params)?;
//! let grid = Grid::uniform([0.0f32; 2], [1.0 / 64.0; 2], [64, 64])?;
//! let mut img = vec![0.0f32; grid.len()];
//! let Bounds { min, max } = fbm.grid(&grid, &mut img)?;
//! assert!(-1.0 <= min && max <= 1.0);
//! # Ok::<(), Error>(())
//! ```

pub use crate::cellular::{Cellular, CellularDistance, CellularReturn};
pub use crate::curl::Curl;
pub use crate::error::Error;
pub use crate::field::Field;
pub use crate::float::{Element, Float};
pub use crate::fractal::{Fractal, FractalKind, FractalParams};
pub use crate::graph::{Graph, GraphField};
pub use crate::grid::Grid;
pub use crate::nd::{NdKind, NoiseNd};
pub use crate::noise::{Noise, NoiseKind};
pub use crate::sample::{Bounds, Sample};
pub use crate::simd::Isa;
pub use crate::stack::{Evaluator, Stack};
pub use crate::warp::{Warp, WarpKind, WarpParams};
