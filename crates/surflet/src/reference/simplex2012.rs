//! Gustavson's `SimplexNoise.java` (2012-03-09). PORT IN PROGRESS.

/// 2D.
pub fn noise2(x: f64, y: f64) -> f64 { let _ = (x, y); unimplemented!("port in progress") }
/// 3D.
pub fn noise3(x: f64, y: f64, z: f64) -> f64 { let _ = (x, y, z); unimplemented!("port in progress") }
/// 4D.
pub fn noise4(x: f64, y: f64, z: f64, w: f64) -> f64 { let _ = (x, y, z, w); unimplemented!("port in progress") }
