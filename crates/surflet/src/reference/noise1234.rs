//! Stefan Gustavson's `noise1234.c`: classic Perlin ("improved") noise in
//! `f32`, 1D to 4D, plain (`noise1..4`) and periodic (`pnoise1..4`).
//!
//! Ported from `stegu/perlin-noise`, `src/noise1234.c` (public domain), at
//! commit `a624f5a18395c0ebc04738191efddf1dbd2cad9d`, operation for operation,
//! so the results are bit-identical to the C compiled for x86-64 SSE with
//! `-ffp-contract=off`. Quirks kept on purpose, because matching existing
//! content is the point of this module:
//!
//! * **Period 256.** Lattice indices are wrapped with `& 255` before the
//!   permutation lookup, so `noiseN` repeats every 256 units on every axis.
//! * **Inexact floor.** The C `FASTFLOOR` macro is
//!   `((int)x < x) ? (int)x : (int)x - 1`, which maps *every* exact integer
//!   `n` (positive ones too) into the cell below, with a fractional part of
//!   1.0 instead of 0.0. The value is mathematically the same but can differ
//!   by a few ulp (≤ 1.2e-7 observed) from a true-floor implementation.
//! * **Ad-hoc output scales.** The raw sums are multiplied by 0.188 (1D),
//!   0.507 (2D), 0.936 (3D) and 0.87 (4D), chosen by the author to match
//!   RenderMan's noise statistically, not to normalise. The output is *not*
//!   bounded by exactly ±1: the largest magnitudes found (reference README
//!   §6, hill-climbed) are about 0.752, 0.766, 0.940 and **1.047**.
//! * **Gradients.** 1D uses the integers ±1..±8, 2D the eight vectors
//!   (±1, ±2)/(±2, ±1), 3D Perlin's twelve cube edges (16 entries), 4D the
//!   32 tesseract edges.
//! * **Hash nesting.** Corners hash as `perm[x + perm[y + perm[z]]]` (the last
//!   coordinate looked up first), the reverse of Perlin's Java code, so
//!   `noise3` is *not* 0.936 × [`super::perlin2002::noise`].
//! * **`double` arithmetic in `grad2`.** The C writes `2.0*v` with a `double`
//!   literal, so the 2D gradient dot product is summed in `f64` and rounded
//!   to `f32`; this port does the same (for ordinary magnitudes this rounds
//!   exactly like an `f32` sum, but nothing is gained by relying on it).
//!
//! Where the C has undefined behaviour this port defines it instead (see each
//! function): float→int conversions of NaN, ±∞ or values beyond ±2³¹
//! saturate as Rust's `as` does (NaN → 0), integer overflow wraps, and a zero
//! period returns NaN instead of dividing by zero. No input can panic or
//! index out of bounds.

/// The C library's 512-entry table: Ken Perlin's permutation stored twice, so
/// that `perm[i + perm[j]]` with `i, j ≤ 255` never needs a second wrap.
const PERM: [u8; 512] = {
    let mut p = [0u8; 512];
    let mut i = 0;
    while i < 512 {
        p[i] = super::PERLIN_PERMUTATION[i & 255];
        i += 1;
    }
    p
};

/// `perm[i]` for an index the caller has already bounded by 511.
#[inline(always)]
fn perm(i: usize) -> usize {
    usize::from(PERM[i])
}

/// The C `FASTFLOOR` of this file: `((int)x < x) ? (int)x : (int)x - 1`.
///
/// It returns `n - 1` for every exact integer `n` (the comparison is strict);
/// keeping that is what makes lattice points bit-identical to the C. Older
/// revisions of the file used `(x > 0) ? (int)x : (int)x - 1` instead (true
/// floor for positive integers); the reference data of revision `a624f5a`
/// match only the strict form, on 5 to 27 rows per file. The C cast is
/// undefined for NaN and out-of-range values; Rust's `as` saturates
/// (NaN → 0), and the `- 1` wraps so `i32::MIN` cannot panic in debug builds.
#[inline(always)]
fn fast_floor(x: f32) -> i32 {
    let xi = x as i32;
    // C compares int with float by converting the int to float.
    if (xi as f32) < x {
        xi
    } else {
        xi.wrapping_sub(1)
    }
}

/// Perlin's quintic `6t⁵ - 15t⁴ + 10t³`, in the C macro's evaluation order.
#[inline(always)]
fn fade(t: f32) -> f32 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

/// The C `LERP` macro, `a + t(b - a)` (not `(1-t)a + tb`, which rounds
/// differently).
#[inline(always)]
fn lerp(t: f32, a: f32, b: f32) -> f32 {
    a + t * (b - a)
}

#[inline(always)]
fn grad1(hash: usize, x: f32) -> f32 {
    let h = hash & 15;
    // C: `float grad = 1.0 + (h & 7);` -- a double sum, exact, then rounded.
    let mut grad = (1.0f64 + (h & 7) as f64) as f32;
    if h & 8 != 0 {
        grad = -grad;
    }
    grad * x
}

#[inline(always)]
fn grad2(hash: usize, x: f32, y: f32) -> f32 {
    let h = hash & 7;
    let u = if h < 4 { x } else { y };
    let v = if h < 4 { y } else { x };
    // C: `((h&1)? -u : u) + ((h&2)? -2.0*v : 2.0*v)`: the `double` literal
    // promotes the whole sum to double; it is rounded to float on return.
    // The double sum of two floats is exact for ordinary magnitudes, so this
    // usually rounds like a float sum, but the C's form is kept rather than
    // relying on that.
    let a = f64::from(if h & 1 != 0 { -u } else { u });
    let b = if h & 2 != 0 {
        -2.0 * f64::from(v)
    } else {
        2.0 * f64::from(v)
    };
    (a + b) as f32
}

#[inline(always)]
fn grad3(hash: usize, x: f32, y: f32, z: f32) -> f32 {
    let h = hash & 15;
    let u = if h < 8 { x } else { y };
    let v = if h < 4 {
        y
    } else if h == 12 || h == 14 {
        x
    } else {
        z
    };
    (if h & 1 != 0 { -u } else { u }) + (if h & 2 != 0 { -v } else { v })
}

#[inline(always)]
fn grad4(hash: usize, x: f32, y: f32, z: f32, t: f32) -> f32 {
    let h = hash & 31;
    let u = if h < 24 { x } else { y };
    let v = if h < 16 { y } else { z };
    let w = if h < 8 { z } else { t };
    (if h & 1 != 0 { -u } else { u })
        + (if h & 2 != 0 { -v } else { v })
        + (if h & 4 != 0 { -w } else { w })
}

/// Wraps a cell index to 0..=255 like the C `& 0xff` (two's complement, so
/// negative cells wrap too).
#[inline(always)]
fn wrap(i: i32) -> usize {
    (i & 0xff) as usize
}

/// The C periodic wrap `(i % p) & 0xff`. `%` truncates like C's (negative
/// for negative `i`, hence no periodicity across 0 in general); `wrapping_rem`
/// defines `i32::MIN % -1` (C: undefined, Rust: panic) as 0. The callers
/// handle `p == 0` before getting here.
#[inline(always)]
fn pwrap(i: i32, p: i32) -> usize {
    (i.wrapping_rem(p) & 0xff) as usize
}

// The cores below take the fractional offsets and the already wrapped corner
// indices, so the plain and periodic entry points share one copy of the
// arithmetic, exactly as both C functions spell it out.

fn core1(fx0: f32, ix0: usize, ix1: usize) -> f32 {
    let fx1 = fx0 - 1.0;
    let s = fade(fx0);
    let n0 = grad1(perm(ix0), fx0);
    let n1 = grad1(perm(ix1), fx1);
    0.188 * lerp(s, n0, n1)
}

fn core2(fx0: f32, fy0: f32, ix: [usize; 2], iy: [usize; 2]) -> f32 {
    let fx1 = fx0 - 1.0;
    let fy1 = fy0 - 1.0;
    let t = fade(fy0);
    let s = fade(fx0);
    let h = |i: usize, j: usize| perm(i + perm(j));

    let nx0 = grad2(h(ix[0], iy[0]), fx0, fy0);
    let nx1 = grad2(h(ix[0], iy[1]), fx0, fy1);
    let n0 = lerp(t, nx0, nx1);

    let nx0 = grad2(h(ix[1], iy[0]), fx1, fy0);
    let nx1 = grad2(h(ix[1], iy[1]), fx1, fy1);
    let n1 = lerp(t, nx0, nx1);

    0.507 * lerp(s, n0, n1)
}

fn core3(f0: [f32; 3], ix: [usize; 2], iy: [usize; 2], iz: [usize; 2]) -> f32 {
    let [fx0, fy0, fz0] = f0;
    let (fx1, fy1, fz1) = (fx0 - 1.0, fy0 - 1.0, fz0 - 1.0);
    let r = fade(fz0);
    let t = fade(fy0);
    let s = fade(fx0);
    let h = |i: usize, j: usize, k: usize| perm(i + perm(j + perm(k)));

    let nxy0 = grad3(h(ix[0], iy[0], iz[0]), fx0, fy0, fz0);
    let nxy1 = grad3(h(ix[0], iy[0], iz[1]), fx0, fy0, fz1);
    let nx0 = lerp(r, nxy0, nxy1);

    let nxy0 = grad3(h(ix[0], iy[1], iz[0]), fx0, fy1, fz0);
    let nxy1 = grad3(h(ix[0], iy[1], iz[1]), fx0, fy1, fz1);
    let nx1 = lerp(r, nxy0, nxy1);

    let n0 = lerp(t, nx0, nx1);

    let nxy0 = grad3(h(ix[1], iy[0], iz[0]), fx1, fy0, fz0);
    let nxy1 = grad3(h(ix[1], iy[0], iz[1]), fx1, fy0, fz1);
    let nx0 = lerp(r, nxy0, nxy1);

    let nxy0 = grad3(h(ix[1], iy[1], iz[0]), fx1, fy1, fz0);
    let nxy1 = grad3(h(ix[1], iy[1], iz[1]), fx1, fy1, fz1);
    let nx1 = lerp(r, nxy0, nxy1);

    let n1 = lerp(t, nx0, nx1);

    0.936 * lerp(s, n0, n1)
}

fn core4(f0: [f32; 4], ix: [usize; 2], iy: [usize; 2], iz: [usize; 2], iw: [usize; 2]) -> f32 {
    let [fx0, fy0, fz0, fw0] = f0;
    let fx = [fx0, fx0 - 1.0];
    let fy = [fy0, fy0 - 1.0];
    let fz = [fz0, fz0 - 1.0];
    let fw = [fw0, fw0 - 1.0];
    let q = fade(fw0);
    let r = fade(fz0);
    let t = fade(fy0);
    let s = fade(fx0);
    // One corner: hash perm[x + perm[y + perm[z + perm[w]]]] and gradient.
    let g = |a: usize, b: usize, c: usize, d: usize| {
        let hash = perm(ix[a] + perm(iy[b] + perm(iz[c] + perm(iw[d]))));
        grad4(hash, fx[a], fy[b], fz[c], fw[d])
    };
    // The C nests the sixteen corners as w innermost, then z, y, x; the
    // lerps happen in exactly this order.
    let zw = |a: usize, b: usize| {
        let nxy0 = lerp(q, g(a, b, 0, 0), g(a, b, 0, 1));
        let nxy1 = lerp(q, g(a, b, 1, 0), g(a, b, 1, 1));
        lerp(r, nxy0, nxy1)
    };
    let n0 = lerp(t, zw(0, 0), zw(0, 1));
    let n1 = lerp(t, zw(1, 0), zw(1, 1));

    0.87 * lerp(s, n0, n1)
}

/// Returns `f32::NAN` from a periodic function if any period is zero, where
/// the C divides by zero (undefined behaviour; a trap on x86).
macro_rules! zero_period_is_nan {
    ($($p:ident),+) => {
        if $($p == 0)||+ {
            return f32::NAN;
        }
    };
}

/// 1D classic Perlin noise: `noise1` of Gustavson's `noise1234.c`, the
/// equivalent of RenderMan SL `noise()` (signed).
///
/// The gradients are the integers ±1..±8 and the sum is scaled by 0.188, so
/// the output stays within about ±0.752 rather than ±1. Period 256. Exact
/// integers take the C floor quirk (they are evaluated as the right end of
/// the cell below, fractional part 1.0): the result there is always +0.0,
/// where a true floor could give -0.0. NaN propagates; ±∞ and |x| ≥ 2³¹
/// saturate the cell index where the C is undefined, and give NaN or finite
/// but meaningless values.
///
/// ```
/// use surflet::reference::noise1234::noise1;
/// // A row of the C library's output, reproduced bit for bit.
/// assert_eq!(noise1(-292.51571655273438), -0.6593635082244873);
/// // Zero on the lattice, and 256-periodic.
/// assert_eq!(noise1(3.0).to_bits(), 0.0f32.to_bits());
/// assert_eq!(noise1(0.25), noise1(256.25));
/// ```
pub fn noise1(x: f32) -> f32 {
    let ix0 = fast_floor(x);
    let fx0 = x - ix0 as f32;
    core1(fx0, wrap(ix0), wrap(ix0.wrapping_add(1)))
}

/// 2D classic Perlin noise: `noise2` of `noise1234.c`.
///
/// Gradients (±1, ±2) and (±2, ±1), dotted in `double` as in the C; output
/// scaled by 0.507, reaching about ±0.766 at most (not ±1). Period 256 on
/// both axes. Exact integer coordinates take the C floor quirk (cell below,
/// fractional part 1.0): same value as a true floor up to a few ulp.
/// Non-finite or huge inputs behave as described in the [module docs](self).
///
/// ```
/// use surflet::reference::noise1234::noise2;
/// // A row of the C library's output, reproduced bit for bit.
/// assert_eq!(noise2(0.0, -0.70710676908493042), -0.36159417033195496);
/// assert_eq!(noise2(0.5, 1.5), noise2(256.5, 257.5)); // period 256
/// assert_eq!(noise2(7.0, -3.0), 0.0); // every lattice point is a zero
/// ```
pub fn noise2(x: f32, y: f32) -> f32 {
    let ix0 = fast_floor(x);
    let iy0 = fast_floor(y);
    let fx0 = x - ix0 as f32;
    let fy0 = y - iy0 as f32;
    let ix = [wrap(ix0), wrap(ix0.wrapping_add(1))];
    let iy = [wrap(iy0), wrap(iy0.wrapping_add(1))];
    core2(fx0, fy0, ix, iy)
}

/// 3D classic Perlin noise: `noise3` of `noise1234.c`.
///
/// Perlin's 2002 "improved noise" gradients (cube edges) and quintic fade,
/// scaled by 0.936, reaching about ±0.940 at most (not ±1). It is **not**
/// `0.936 *`
/// [`perlin2002::noise`](super::perlin2002::noise): the corner hash nests
/// `perm[x + perm[y + perm[z]]]`, the other way round from Perlin's Java.
/// Period 256. Exact integers take the C floor quirk.
///
/// In `f32`, coordinates beyond 2²⁴ lose the fractional part entirely and the
/// cell index may not round-trip through `f32`; the C (and this port) then
/// return values far outside [-1, 1], e.g. about 51244 at
/// (2²⁴+2, 2²⁴+2, 2²⁴+2).
///
/// ```
/// use surflet::reference::noise1234::noise3;
/// let v = noise3(0.5, 1.25, -2.75);
/// assert!(v.abs() < 1.0);
/// assert_eq!(v, noise3(256.5, 1.25, 253.25)); // period 256
/// // The C's own precision-probe output, matched exactly.
/// assert_eq!(noise3(16777218.0, 16777218.0, 16777218.0), 51244.12890625);
/// ```
pub fn noise3(x: f32, y: f32, z: f32) -> f32 {
    let ix0 = fast_floor(x);
    let iy0 = fast_floor(y);
    let iz0 = fast_floor(z);
    let f0 = [x - ix0 as f32, y - iy0 as f32, z - iz0 as f32];
    let ix = [wrap(ix0), wrap(ix0.wrapping_add(1))];
    let iy = [wrap(iy0), wrap(iy0.wrapping_add(1))];
    let iz = [wrap(iz0), wrap(iz0.wrapping_add(1))];
    core3(f0, ix, iy, iz)
}

/// 4D classic Perlin noise: `noise4` of `noise1234.c`.
///
/// 32 tesseract-edge gradients, scaled by 0.87. This one genuinely leaves
/// [-1, 1]: a local search finds |value| ≈ 1.047. Period 256 on every axis.
/// Exact integers take the C floor quirk.
///
/// ```
/// use surflet::reference::noise1234::noise4;
/// let p = [0.0, -0.70710676908493042, 1.1447298526763916, -1.9318516254425049];
/// assert_eq!(noise4(p[0], p[1], p[2], p[3]), 0.11514034867286682); // C output
/// let v = noise4(0.125, 0.25, 0.375, 0.5);
/// assert_eq!(v, noise4(256.125, 0.25, -255.625, 0.5));
/// ```
pub fn noise4(x: f32, y: f32, z: f32, w: f32) -> f32 {
    let ix0 = fast_floor(x);
    let iy0 = fast_floor(y);
    let iz0 = fast_floor(z);
    let iw0 = fast_floor(w);
    let f0 = [
        x - ix0 as f32,
        y - iy0 as f32,
        z - iz0 as f32,
        w - iw0 as f32,
    ];
    let ix = [wrap(ix0), wrap(ix0.wrapping_add(1))];
    let iy = [wrap(iy0), wrap(iy0.wrapping_add(1))];
    let iz = [wrap(iz0), wrap(iz0.wrapping_add(1))];
    let iw = [wrap(iw0), wrap(iw0.wrapping_add(1))];
    core4(f0, ix, iy, iz, iw)
}

/// Periodic 1D classic Perlin noise: `pnoise1` of `noise1234.c` (SL
/// `pnoise()`).
///
/// Same function as [`noise1`] except that each lattice index is wrapped
/// with the C remainder by `px` and then `& 255`. Because C's `%` (like
/// Rust's on `i32`) is negative for negative cells, the result has period
/// `px` within x ≥ 0 and within x < 0, but is periodic *across* 0 only when
/// `px` is 1 or a multiple of 256. Periods above 256 still hash through the
/// 256-entry table. A negative period acts like its absolute value.
///
/// `px == 0` is a division by zero in the C; this port returns `f32::NAN`.
///
/// ```
/// use surflet::reference::noise1234::pnoise1;
/// assert_eq!(pnoise1(1.375, 5), pnoise1(6.375, 5)); // periodic within x ≥ 0
/// assert_ne!(pnoise1(-0.625, 5), pnoise1(4.375, 5)); // ...but not across 0
/// assert_eq!(pnoise1(-0.625, 256), pnoise1(255.375, 256)); // unless p = 256k
/// assert!(pnoise1(1.375, 0).is_nan());
/// ```
pub fn pnoise1(x: f32, px: i32) -> f32 {
    zero_period_is_nan!(px);
    let ix0 = fast_floor(x);
    let fx0 = x - ix0 as f32;
    core1(fx0, pwrap(ix0, px), pwrap(ix0.wrapping_add(1), px))
}

/// Periodic 2D classic Perlin noise: `pnoise2` of `noise1234.c`.
///
/// [`noise2`] with each lattice index wrapped as `(i % p) & 255` (C
/// truncating remainder): periodic with `(px, py)` within each sign of each
/// coordinate, across 0 only for periods that are 1 or multiples of 256.
/// Any zero period returns `f32::NAN` (C: division by zero).
///
/// ```
/// use surflet::reference::noise1234::pnoise2;
/// assert_eq!(pnoise2(0.375, 2.5, 3, 7), pnoise2(3.375, 9.5, 3, 7));
/// assert!(pnoise2(0.375, 2.5, 3, 0).is_nan());
/// ```
pub fn pnoise2(x: f32, y: f32, px: i32, py: i32) -> f32 {
    zero_period_is_nan!(px, py);
    let ix0 = fast_floor(x);
    let iy0 = fast_floor(y);
    let fx0 = x - ix0 as f32;
    let fy0 = y - iy0 as f32;
    let ix = [pwrap(ix0, px), pwrap(ix0.wrapping_add(1), px)];
    let iy = [pwrap(iy0, py), pwrap(iy0.wrapping_add(1), py)];
    core2(fx0, fy0, ix, iy)
}

/// Periodic 3D classic Perlin noise: `pnoise3` of `noise1234.c`.
///
/// [`noise3`] with each lattice index wrapped as `(i % p) & 255` (C
/// truncating remainder): periodic within each sign of each coordinate,
/// across 0 only for periods that are 1 or multiples of 256. Any zero
/// period returns `f32::NAN` (C: division by zero).
///
/// ```
/// use surflet::reference::noise1234::pnoise3;
/// let v = pnoise3(0.375, 1.5, 2.625, 4, 4, 10);
/// assert_eq!(v, pnoise3(4.375, 5.5, 12.625, 4, 4, 10));
/// ```
pub fn pnoise3(x: f32, y: f32, z: f32, px: i32, py: i32, pz: i32) -> f32 {
    zero_period_is_nan!(px, py, pz);
    let ix0 = fast_floor(x);
    let iy0 = fast_floor(y);
    let iz0 = fast_floor(z);
    let f0 = [x - ix0 as f32, y - iy0 as f32, z - iz0 as f32];
    let ix = [pwrap(ix0, px), pwrap(ix0.wrapping_add(1), px)];
    let iy = [pwrap(iy0, py), pwrap(iy0.wrapping_add(1), py)];
    let iz = [pwrap(iz0, pz), pwrap(iz0.wrapping_add(1), pz)];
    core3(f0, ix, iy, iz)
}

/// Periodic 4D classic Perlin noise: `pnoise4` of `noise1234.c`.
///
/// [`noise4`] with each lattice index wrapped as `(i % p) & 255` (C
/// truncating remainder): periodic within each sign of each coordinate,
/// across 0 only for periods that are 1 or multiples of 256. Any zero
/// period returns `f32::NAN` (C: division by zero).
///
/// ```
/// use surflet::reference::noise1234::pnoise4;
/// let v = pnoise4(0.125, 0.25, 0.375, 0.5, 2, 3, 5, 7);
/// assert_eq!(v, pnoise4(2.125, 3.25, 5.375, 7.5, 2, 3, 5, 7));
/// ```
// Eight arguments because the C signature has them; a port keeps it.
#[allow(clippy::too_many_arguments)]
pub fn pnoise4(x: f32, y: f32, z: f32, w: f32, px: i32, py: i32, pz: i32, pw: i32) -> f32 {
    zero_period_is_nan!(px, py, pz, pw);
    let ix0 = fast_floor(x);
    let iy0 = fast_floor(y);
    let iz0 = fast_floor(z);
    let iw0 = fast_floor(w);
    let f0 = [
        x - ix0 as f32,
        y - iy0 as f32,
        z - iz0 as f32,
        w - iw0 as f32,
    ];
    let ix = [pwrap(ix0, px), pwrap(ix0.wrapping_add(1), px)];
    let iy = [pwrap(iy0, py), pwrap(iy0.wrapping_add(1), py)];
    let iz = [pwrap(iz0, pz), pwrap(iz0.wrapping_add(1), pz)];
    let iw = [pwrap(iw0, pw), pwrap(iw0.wrapping_add(1), pw)];
    core4(f0, ix, iy, iz, iw)
}
