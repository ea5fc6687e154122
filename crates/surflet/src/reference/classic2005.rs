//! `ClassicNoise` from "Simplex noise demystified" (2005). PORT IN PROGRESS.

/// Classic noise at `(x, y, z)`.
pub fn noise3(x: f64, y: f64, z: f64) -> f64 { let _ = (x, y, z); unimplemented!("port in progress") }
