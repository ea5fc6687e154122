//! The `ClassicNoise` Java listing of Stefan Gustavson's paper "Simplex noise
//! demystified" (2005): classic Perlin noise in 3D, written in the style of
//! the paper's simplex code for comparison. Ported to Rust operation for
//! operation.
//!
//! Java `double` arithmetic is strict IEEE 754 and Rust never contracts
//! `a * b + c` into a fused multiply-add, so evaluating the same expressions
//! in the same order gives the same bits. Java's `(int)` cast saturates and
//! maps NaN to 0 exactly like Rust's `as i32`; the one `int` operation that
//! can overflow (the floor's `- 1` below -2^31) wraps explicitly, as in Java.
//!
//! It is the same kind of function as [`super::perlin2002`] but not the same
//! function: the corner hash nests the other way round
//! (`perm[X + perm[Y + perm[Z]]]`, Z looked up first), the gradient is chosen
//! with `% 12` instead of a 4-bit code, and the interpolation is
//! `(1 - t)a + tb` rather than `a + t(b - a)`.
//!
//! Quirks kept on purpose, since the point is to reproduce existing content:
//!
//! * the lattice repeats every 256 units (`& 255` on the cell index);
//! * `perm % 12` chooses gradients 0..=3 22 times out of 256 and the others
//!   21 times;
//! * the listing's floor returns `n - 1` for 0, -0 and every negative integer
//!   `n`; the in-cell offset is then 1 instead of 0, which gives the same
//!   value up to rounding;
//! * the output is not confined to `[-1, 1]` and has no final scale: a local
//!   search reaches about 1.036;
//! * unlike Perlin's code, it subtracts the *saturated* integer cell from the
//!   coordinate, so beyond ±2^31 the in-cell offset is huge and the value
//!   explodes (about 2.0 at `(2^31 + 0.5, 0.25, 0.5)`, about 5.1e58 at
//!   `(-2^31, 0.25, 0.5)`, whose floor wraps to `i32::MAX`).

use super::PERLIN_PERMUTATION;

/// The permutation stored twice, as the original's `perm[512]`, so that the
/// nested lookups (at most 511) never need wrapping.
const PERM: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut i = 0;
    while i < 512 {
        t[i] = PERLIN_PERMUTATION[i & 255];
        i += 1;
    }
    t
};

fn perm(i: i32) -> i32 {
    // Every index is a masked cell (0..=255) plus at most 1 plus a table
    // entry (0..=255), so it lies in 0..=511; the mask only makes that
    // evident and is a no-op on those values.
    i32::from(PERM[(i & 511) as usize])
}

/// The 12 midpoints of a cube's edges, in the listing's order.
const GRAD3: [[f64; 3]; 12] = [
    [1.0, 1.0, 0.0],
    [-1.0, 1.0, 0.0],
    [1.0, -1.0, 0.0],
    [-1.0, -1.0, 0.0],
    [1.0, 0.0, 1.0],
    [-1.0, 0.0, 1.0],
    [1.0, 0.0, -1.0],
    [-1.0, 0.0, -1.0],
    [0.0, 1.0, 1.0],
    [0.0, -1.0, 1.0],
    [0.0, 1.0, -1.0],
    [0.0, -1.0, -1.0],
];

/// The 2005 floor: truncation, minus one unless `x > 0`. Wrong by one for
/// 0, -0 and every negative integer, which is the listing's behaviour and is
/// kept. For values below -2^31 the saturated cast minus one wraps to
/// `i32::MAX`, as Java's `int` does; NaN gives -1.
fn fastfloor(x: f64) -> i32 {
    if x > 0.0 {
        x as i32
    } else {
        (x as i32).wrapping_sub(1)
    }
}

/// The gradient components are `int` in the original and are promoted to
/// `double` before multiplying, so `0 * inf` is NaN and `0 * -x` is -0 here
/// as there.
fn dot(g: &[f64; 3], x: f64, y: f64, z: f64) -> f64 {
    g[0] * x + g[1] * y + g[2] * z
}

/// `(1 - t)a + tb`, not `a + t(b - a)`: the two round differently.
fn mix(a: f64, b: f64, t: f64) -> f64 {
    (1.0 - t) * a + t * b
}

/// Quintic 6t^5 - 15t^4 + 10t^3 in the listing's grouping.
fn fade(t: f64) -> f64 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

/// Classic Perlin noise at `(x, y, z)`, bit-identical to
/// `ClassicNoise.noise(x, y, z)` from the listing in Gustavson's 2005 paper
/// "Simplex noise demystified".
///
/// Quirks kept from the original:
///
/// * **period 256** on every axis;
/// * 12 cube-edge gradients chosen by `perm % 12`, a slight bias towards the
///   first four;
/// * the listing's **inexact floor** (`n - 1` for 0 and negative integers),
///   which moves the value at such coordinates by rounding only;
/// * **range not exactly `[-1, 1]`**: no final scale, and values up to about
///   1.036 in magnitude exist (10^6 random samples in `[-256, 256]^3` reach
///   about 1.010);
/// * zero on the integer lattice, up to the sign of zero.
///
/// Never panics, but beyond ±2^31 it subtracts a saturated cell index and
/// returns large garbage (about 2.0 at `(2^31 + 0.5, 0.25, 0.5)`, 5.1e58 at
/// `(-2^31, 0.25, 0.5)`). NaN or an infinite coordinate gives NaN.
///
/// # Example
///
/// ```
/// use surflet::reference::classic2005::noise3;
///
/// assert_eq!(noise3(0.1, 0.2, 0.3), 0.17507614488801282);
/// ```
#[must_use]
pub fn noise3(x: f64, y: f64, z: f64) -> f64 {
    let cx = fastfloor(x);
    let cy = fastfloor(y);
    let cz = fastfloor(z);
    // The offset is taken from the cell *before* masking, so it is the true
    // in-cell offset (or 1 where the floor was one too low).
    let x = x - f64::from(cx);
    let y = y - f64::from(cy);
    let z = z - f64::from(cz);
    let cx = cx & 255;
    let cy = cy & 255;
    let cz = cz & 255;

    // Corner hashes nest Z innermost: perm[X + perm[Y + perm[Z]]].
    let gi000 = (perm(cx + perm(cy + perm(cz))) % 12) as usize;
    let gi001 = (perm(cx + perm(cy + perm(cz + 1))) % 12) as usize;
    let gi010 = (perm(cx + perm(cy + 1 + perm(cz))) % 12) as usize;
    let gi011 = (perm(cx + perm(cy + 1 + perm(cz + 1))) % 12) as usize;
    let gi100 = (perm(cx + 1 + perm(cy + perm(cz))) % 12) as usize;
    let gi101 = (perm(cx + 1 + perm(cy + perm(cz + 1))) % 12) as usize;
    let gi110 = (perm(cx + 1 + perm(cy + 1 + perm(cz))) % 12) as usize;
    let gi111 = (perm(cx + 1 + perm(cy + 1 + perm(cz + 1))) % 12) as usize;

    let n000 = dot(&GRAD3[gi000], x, y, z);
    let n100 = dot(&GRAD3[gi100], x - 1.0, y, z);
    let n010 = dot(&GRAD3[gi010], x, y - 1.0, z);
    let n110 = dot(&GRAD3[gi110], x - 1.0, y - 1.0, z);
    let n001 = dot(&GRAD3[gi001], x, y, z - 1.0);
    let n101 = dot(&GRAD3[gi101], x - 1.0, y, z - 1.0);
    let n011 = dot(&GRAD3[gi011], x, y - 1.0, z - 1.0);
    let n111 = dot(&GRAD3[gi111], x - 1.0, y - 1.0, z - 1.0);

    let u = fade(x);
    let v = fade(y);
    let w = fade(z);

    let nx00 = mix(n000, n100, u);
    let nx01 = mix(n001, n101, u);
    let nx10 = mix(n010, n110, u);
    let nx11 = mix(n011, n111, u);
    let nxy0 = mix(nx00, nx10, v);
    let nxy1 = mix(nx01, nx11, v);
    mix(nxy0, nxy1, w)
}
