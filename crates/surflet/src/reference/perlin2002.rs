//! Ken Perlin's "Improved Noise" reference implementation (`ImprovedNoise.java`,
//! 2002), ported to Rust operation for operation.
//!
//! Java `double` arithmetic is strict IEEE 754 and Rust never contracts
//! `a * b + c` into a fused multiply-add, so evaluating the same expressions
//! in the same order gives the same bits; Java's `(int)` cast saturates and
//! maps NaN to 0 exactly like Rust's `as i32`. The port therefore reproduces
//! the original bit for bit, including its known flaws:
//!
//! * the lattice repeats every 256 units on each axis (the cell index is
//!   masked with `& 255`);
//! * of the 16 gradient codes, four repeat the first twelve (`(1,1,0)`,
//!   `(-1,1,0)`, `(0,-1,1)`, `(0,-1,-1)`), so those directions are slightly
//!   more likely than the others;
//! * the output is not confined to `[-1, 1]`: the largest value found by
//!   a local search is about 1.0155, and the largest over the golden test
//!   rows is 0.875.

use super::PERLIN_PERMUTATION;
// Only `no_std` builds need it: their float maths (`floor`, `round`, ...) comes
// from `libm` through `Math`.
#[cfg(not(feature = "std"))]
use crate::prelude_internal::*;

/// The permutation stored twice, as the original's `p[512]`, so that the
/// nested `p[p[X] + Y] + Z` lookups (at most 511) never need wrapping.
const P: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut i = 0;
    while i < 512 {
        t[i] = PERLIN_PERMUTATION[i & 255];
        i += 1;
    }
    t
};

fn p(i: i32) -> i32 {
    // Every index is the sum of a masked cell (0..=255), a table entry
    // (0..=255) and possibly 1, so it lies in 0..=511; the mask is only
    // there to make that evident and is a no-op on those values.
    i32::from(P[(i & 511) as usize])
}

/// Perlin's quintic 6t^5 - 15t^4 + 10t^3 in his Horner-like grouping; the
/// grouping matters for bit-exactness.
fn fade(t: f64) -> f64 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

/// `a + t(b - a)`, not `(1 - t)a + tb`: the two round differently.
fn lerp(t: f64, a: f64, b: f64) -> f64 {
    a + t * (b - a)
}

/// Selects one of 12 cube-edge gradients from the low four bits of `hash`
/// without a table; codes 12..=15 repeat four of the first twelve so that the
/// selection can be done with a 4-bit mask.
fn grad(hash: i32, x: f64, y: f64, z: f64) -> f64 {
    let h = hash & 15;
    let u = if h < 8 { x } else { y };
    let v = if h < 4 {
        y
    } else if h == 12 || h == 14 {
        x
    } else {
        z
    };
    (if h & 1 == 0 { u } else { -u }) + (if h & 2 == 0 { v } else { -v })
}

/// Ken Perlin's improved gradient noise at `(x, y, z)`, bit-identical to
/// `ImprovedNoise.noise(x, y, z)` from his 2002 Java reference implementation.
///
/// Use it to reproduce existing content made with Perlin's reference code;
/// its quirks are kept on purpose:
///
/// * **period 256** on every axis (while coordinates stay within ±2^31), since
///   the cell index is masked with `& 255`;
/// * **biased gradients**: 16 hash codes map onto 12 directions, four of
///   which are picked twice as often;
/// * **range not exactly `[-1, 1]`**: values slightly above 1 in magnitude
///   exist (a local search reaches about 1.0155; 10^6 random samples in
///   `[-256, 256]^3` reach about 0.989);
/// * the value is zero (of either sign) at every integer lattice point.
///
/// Cells are found with a true floor. Non-finite or huge inputs never panic:
/// the cast to `i32` saturates like Java's, and the result is NaN when an
/// input is NaN or infinite.
///
/// # Example
///
/// ```
/// use surflet::reference::perlin2002::noise;
///
/// // The value usually quoted for Perlin's reference code.
/// assert_eq!(noise(3.14, 42.0, 7.0), 0.13691995878400012);
/// // Period 256 on each axis (these offsets are exact in f64).
/// assert_eq!(noise(0.25 - 256.0, 0.5 + 512.0, 0.75), noise(0.25, 0.5, 0.75));
/// // Zero on the integer lattice.
/// assert_eq!(noise(1.0, 2.0, 3.0), 0.0);
/// ```
#[must_use]
pub fn noise(x: f64, y: f64, z: f64) -> f64 {
    let cx = (x.floor() as i32) & 255;
    let cy = (y.floor() as i32) & 255;
    let cz = (z.floor() as i32) & 255;
    let x = x - x.floor();
    let y = y - y.floor();
    let z = z - z.floor();
    let u = fade(x);
    let v = fade(y);
    let w = fade(z);
    // The corner hash looks X up first: p[p[p[X] + Y] + Z].
    let a = p(cx) + cy;
    let aa = p(a) + cz;
    let ab = p(a + 1) + cz;
    let b = p(cx + 1) + cy;
    let ba = p(b) + cz;
    let bb = p(b + 1) + cz;

    lerp(
        w,
        lerp(
            v,
            lerp(u, grad(p(aa), x, y, z), grad(p(ba), x - 1.0, y, z)),
            lerp(
                u,
                grad(p(ab), x, y - 1.0, z),
                grad(p(bb), x - 1.0, y - 1.0, z),
            ),
        ),
        lerp(
            v,
            lerp(
                u,
                grad(p(aa + 1), x, y, z - 1.0),
                grad(p(ba + 1), x - 1.0, y, z - 1.0),
            ),
            lerp(
                u,
                grad(p(ab + 1), x, y - 1.0, z - 1.0),
                grad(p(bb + 1), x - 1.0, y - 1.0, z - 1.0),
            ),
        ),
    )
}
