//! Gustavson's `srdnoise23.c`. PORT IN PROGRESS.

/// 2D with rotation angle `t`: value and partial derivatives.
pub fn srdnoise2(x: f32, y: f32, t: f32) -> (f32, [f32; 2]) { let _ = (x, y, t); unimplemented!("port in progress") }
/// 3D with rotation angle `t`: value and partial derivatives.
pub fn srdnoise3(x: f32, y: f32, z: f32, t: f32) -> (f32, [f32; 3]) { let _ = (x, y, z, t); unimplemented!("port in progress") }
