//! Gustavson's `noise1234.c`. PORT IN PROGRESS.

/// 1D.
pub fn noise1(x: f32) -> f32 { let _ = x; unimplemented!("port in progress") }
/// 2D.
pub fn noise2(x: f32, y: f32) -> f32 { let _ = (x, y); unimplemented!("port in progress") }
/// 3D.
pub fn noise3(x: f32, y: f32, z: f32) -> f32 { let _ = (x, y, z); unimplemented!("port in progress") }
/// 4D.
pub fn noise4(x: f32, y: f32, z: f32, w: f32) -> f32 { let _ = (x, y, z, w); unimplemented!("port in progress") }
/// Periodic 1D.
pub fn pnoise1(x: f32, px: i32) -> f32 { let _ = (x, px); unimplemented!("port in progress") }
/// Periodic 2D.
pub fn pnoise2(x: f32, y: f32, px: i32, py: i32) -> f32 { let _ = (x, y, px, py); unimplemented!("port in progress") }
/// Periodic 3D.
pub fn pnoise3(x: f32, y: f32, z: f32, px: i32, py: i32, pz: i32) -> f32 { let _ = (x, y, z, px, py, pz); unimplemented!("port in progress") }
/// Periodic 4D.
#[allow(clippy::too_many_arguments)]
pub fn pnoise4(x: f32, y: f32, z: f32, w: f32, px: i32, py: i32, pz: i32, pw: i32) -> f32 { let _ = (x, y, z, w, px, py, pz, pw); unimplemented!("port in progress") }
