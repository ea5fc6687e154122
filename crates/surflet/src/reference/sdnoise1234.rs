//! Gustavson's `sdnoise1234.c`. PORT IN PROGRESS.

/// 1D: value and derivative.
pub fn sdnoise1(x: f32) -> (f32, [f32; 1]) { let _ = x; unimplemented!("port in progress") }
/// 2D: value and partial derivatives.
pub fn sdnoise2(x: f32, y: f32) -> (f32, [f32; 2]) { let _ = (x, y); unimplemented!("port in progress") }
/// 3D: value and partial derivatives.
pub fn sdnoise3(x: f32, y: f32, z: f32) -> (f32, [f32; 3]) { let _ = (x, y, z); unimplemented!("port in progress") }
/// 4D: value and partial derivatives.
pub fn sdnoise4(x: f32, y: f32, z: f32, w: f32) -> (f32, [f32; 4]) { let _ = (x, y, z, w); unimplemented!("port in progress") }
