//! WGSL text for numbers, vectors and errors, shared by the module writer
//! and the kernels' call writers.

use crate::error::Error;
use crate::prelude_internal::*;

/// The error of a stack or a name the WGSL writer cannot take.
pub(crate) fn bad(reason: impl Into<String>) -> Error {
    Error::Parameter {
        name: "wgsl".into(),
        reason: reason.into(),
    }
}

/// An `f32` as an exact WGSL literal: an integer significand times a power
/// of two, in hexadecimal (`0xb504f3p-24f`), so that no parser rounds it.
pub(crate) fn lit(x: f32) -> String {
    if x == 0.0 {
        return if x.is_sign_negative() {
            "-0.0f"
        } else {
            "0.0f"
        }
        .into();
    }
    let bits = x.to_bits();
    let sign = if bits >> 31 == 1 { "-" } else { "" };
    let exp = ((bits >> 23) & 0xff) as i32;
    let frac = bits & 0x7f_ffff;
    let (mut m, mut e) = if exp == 0 {
        (frac, -149)
    } else {
        (frac | 0x80_0000, exp - 150)
    };
    while m & 1 == 0 {
        m >>= 1;
        e += 1;
    }
    format!("{sign}0x{m:x}p{e}f")
}

/// `f64` constant `c` as the kernels take it (`Simd::c` rounds to `f32`).
pub(crate) fn c(x: f64) -> String {
    lit(x as f32)
}

/// `vecN<f32>` of the given components.
pub(crate) fn vec(parts: &[String]) -> String {
    format!("vec{}<f32>({})", parts.len(), parts.join(", "))
}
