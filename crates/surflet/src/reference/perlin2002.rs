//! Ken Perlin's `ImprovedNoise.java` (2002). PORT IN PROGRESS.

/// Improved noise at `(x, y, z)`.
pub fn noise(x: f64, y: f64, z: f64) -> f64 { let _ = (x, y, z); unimplemented!("port in progress") }
