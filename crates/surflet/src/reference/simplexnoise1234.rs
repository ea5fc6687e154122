//! Gustavson's `simplexnoise1234.c`. PORT IN PROGRESS.

/// 1D.
pub fn snoise1(x: f32) -> f32 { let _ = x; unimplemented!("port in progress") }
/// 2D.
pub fn snoise2(x: f32, y: f32) -> f32 { let _ = (x, y); unimplemented!("port in progress") }
/// 3D.
pub fn snoise3(x: f32, y: f32, z: f32) -> f32 { let _ = (x, y, z); unimplemented!("port in progress") }
/// 4D.
pub fn snoise4(x: f32, y: f32, z: f32, w: f32) -> f32 { let _ = (x, y, z, w); unimplemented!("port in progress") }
