//! The `SimplexNoise` Java listing of Stefan Gustavson's paper "Simplex
//! noise demystified" (2005), ported to Rust operation for operation.
//!
//! Java `double` arithmetic is strict IEEE 754 and Rust never contracts
//! `a * b + c` into a fused multiply-add, so evaluating the same expressions
//! in the same order gives the same bits. Java's `(int)` cast saturates and
//! maps NaN to 0 exactly like Rust's `as i32`, and where Java's `int`
//! arithmetic silently wraps (the floor of values below -2^31, and the
//! cell-index sums, which overflow on the diagonal from about 6.2e8 in 2D,
//! 3.6e8 in 3D and 2.4e8 in 4D) the port wraps explicitly, so it never
//! panics, not even in debug builds.
//!
//! The listing as printed does not compile: its 3D code uses `i3`, `j3`,
//! `k3` for the last corner without defining them. The code Gustavson
//! actually ran uses the constant offsets `(1, 1, 1)` there (the last corner
//! of every 3D simplex is the far corner of the skewed cube), and so does
//! this port.
//!
//! The arithmetic is that of [`super::simplex2012`]; only two things are
//! written differently, and only the first changes any result:
//!
//! * **the floor**: `x > 0 ? (int)x : (int)x - 1` returns `n - 1` for 0,
//!   -0 and every negative integer `n`. The cell is then one step too low and
//!   the in-cell offset is 1 instead of 0, so where a skewed coordinate is an
//!   exact integer ≤ 0 the point is attributed to a neighbouring simplex. In
//!   2D that changes the value by rounding only (≤ 1.4e-14), but in 3D and
//!   4D the discontinuous kernel (below) makes it differ from the 2012
//!   version by up to about 1.2e-2 (3D) and 5.4e-3 (4D);
//! * **4D simplex selection** goes through a 64-entry lookup table indexed by
//!   six comparison bits instead of rank counting; both pick the same
//!   simplex for every input without NaN, and with a NaN offset both
//!   return NaN.
//!
//! The original's other quirks are kept on purpose, since the point is to
//! reproduce existing content:
//!
//! * the lattice repeats every 256 cells (`& 255` on the skewed cell index);
//! * 2D and 3D pick one of 12 gradients with `perm % 12`; 256 is not a
//!   multiple of 12, so gradients 0..=3 are chosen 22 times out of 256 and the
//!   others 21 times. 2D uses the `(x, y)` parts of the 3D cube-edge
//!   gradients, so its gradients are not all of the same length;
//! * the kernel radius² is 0.5 in 2D but **0.6 in 3D and 4D**: a corner's
//!   contribution has not decayed to zero where it leaves its simplex, so the
//!   3D and 4D functions are **discontinuous across simplex faces**. The
//!   paper itself later carried a note that 0.6 should have been 0.5;
//! * output scales 70 / 32 / 27 keep the range just inside `[-1, 1]`, but not
//!   exactly on it: the largest magnitudes found are about 0.998 (2D), 0.979
//!   (3D) and 0.992 (4D).

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
    // Every index is a masked cell (0..=255) plus an offset of at most 1 plus
    // a table entry (0..=255), so it lies in 0..=511; the mask only makes
    // that evident and is a no-op on those values.
    i32::from(PERM[(i & 511) as usize])
}

/// `perm[i] % 12`, which the listing writes out at every use.
fn perm_mod12(i: i32) -> usize {
    (perm(i) % 12) as usize
}

/// The 12 midpoints of a cube's edges. 2D uses their first two components.
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

/// The 32 midpoints of a tesseract's edges, in the original's order.
const GRAD4: [[f64; 4]; 32] = [
    [0.0, 1.0, 1.0, 1.0],
    [0.0, 1.0, 1.0, -1.0],
    [0.0, 1.0, -1.0, 1.0],
    [0.0, 1.0, -1.0, -1.0],
    [0.0, -1.0, 1.0, 1.0],
    [0.0, -1.0, 1.0, -1.0],
    [0.0, -1.0, -1.0, 1.0],
    [0.0, -1.0, -1.0, -1.0],
    [1.0, 0.0, 1.0, 1.0],
    [1.0, 0.0, 1.0, -1.0],
    [1.0, 0.0, -1.0, 1.0],
    [1.0, 0.0, -1.0, -1.0],
    [-1.0, 0.0, 1.0, 1.0],
    [-1.0, 0.0, 1.0, -1.0],
    [-1.0, 0.0, -1.0, 1.0],
    [-1.0, 0.0, -1.0, -1.0],
    [1.0, 1.0, 0.0, 1.0],
    [1.0, 1.0, 0.0, -1.0],
    [1.0, -1.0, 0.0, 1.0],
    [1.0, -1.0, 0.0, -1.0],
    [-1.0, 1.0, 0.0, 1.0],
    [-1.0, 1.0, 0.0, -1.0],
    [-1.0, -1.0, 0.0, 1.0],
    [-1.0, -1.0, 0.0, -1.0],
    [1.0, 1.0, 1.0, 0.0],
    [1.0, 1.0, -1.0, 0.0],
    [1.0, -1.0, 1.0, 0.0],
    [1.0, -1.0, -1.0, 0.0],
    [-1.0, 1.0, 1.0, 0.0],
    [-1.0, 1.0, -1.0, 0.0],
    [-1.0, -1.0, 1.0, 0.0],
    [-1.0, -1.0, -1.0, 0.0],
];

// The listing computes these from `Math.sqrt` inside each method; both
// languages' `sqrt` is correctly rounded, so these literals are the same
// doubles (checked by the unit test below).
/// `0.5 * (sqrt(3) - 1)`.
const F2: f64 = 0.366_025_403_784_438_6;
/// `(3 - sqrt(3)) / 6`.
const G2: f64 = 0.211_324_865_405_187_13;
const F3: f64 = 1.0 / 3.0;
const G3: f64 = 1.0 / 6.0;
/// `(sqrt(5) - 1) / 4`.
const F4: f64 = 0.309_016_994_374_947_45;
/// `(5 - sqrt(5)) / 20`.
const G4: f64 = 0.138_196_601_125_010_5;

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

/// The listing's lookup table for 4D simplex traversal, indexed by six
/// pairwise-comparison bits. Each valid entry holds the rank (0..=3) of
/// x, y, z, w. The 40 inconsistent bit patterns hold zeros; they can only
/// arise from a NaN offset, which makes the result NaN anyway.
// Eight entries per line, as in the listing: line n holds c = 8n..8n+7,
// which keeps the table checkable against the original by eye.
#[rustfmt::skip]
const SIMPLEX: [[u8; 4]; 64] = [
    [0, 1, 2, 3], [0, 1, 3, 2], [0, 0, 0, 0], [0, 2, 3, 1], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [1, 2, 3, 0],
    [0, 2, 1, 3], [0, 0, 0, 0], [0, 3, 1, 2], [0, 3, 2, 1], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [1, 3, 2, 0],
    [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0],
    [1, 2, 0, 3], [0, 0, 0, 0], [1, 3, 0, 2], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [2, 3, 0, 1], [2, 3, 1, 0],
    [1, 0, 2, 3], [1, 0, 3, 2], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [2, 0, 3, 1], [0, 0, 0, 0], [2, 1, 3, 0],
    [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0],
    [2, 0, 1, 3], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [3, 0, 1, 2], [3, 0, 2, 1], [0, 0, 0, 0], [3, 1, 2, 0],
    [2, 1, 0, 3], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [3, 1, 0, 2], [0, 0, 0, 0], [3, 2, 0, 1], [3, 2, 1, 0],
];

fn dot2(g: &[f64; 3], x: f64, y: f64) -> f64 {
    g[0] * x + g[1] * y
}

fn dot3(g: &[f64; 3], x: f64, y: f64, z: f64) -> f64 {
    g[0] * x + g[1] * y + g[2] * z
}

fn dot4(g: &[f64; 4], x: f64, y: f64, z: f64, w: f64) -> f64 {
    g[0] * x + g[1] * y + g[2] * z + g[3] * w
}

/// 2D simplex noise, bit-identical to `SimplexNoise.noise(x, y)` of the Java
/// listing in Gustavson's paper "Simplex noise demystified" (2005).
///
/// The listing's floor is one too low at 0 and the negative integers; in 2D
/// that moves results by rounding only (at most about 1.4e-14 from
/// [`super::simplex2012::noise2`]).
///
/// Quirks kept from the original: period 256 in skewed space; gradients are
/// the `(x, y)` parts of the 12 3D cube-edge gradients chosen by `perm % 12`
/// (a slight bias towards the first four); radius² 0.5, so unlike the 3D
/// and 4D versions this one is continuous. The scale 70 keeps values
/// inside `[-1, 1]` without reaching it: the largest magnitude found is
/// about 0.9979.
///
/// Never panics. NaN in gives NaN out. A skewed coordinate beyond ±2^31
/// saturates its cell index and leaves every corner out of reach, so the
/// result is exactly 0 (for instance when one coordinate is beyond ±2^31 and
/// the others are moderate); an infinite coordinate likewise gives 0. The
/// cell-index sum wraps as Java's `int` does, which also yields 0.
///
/// # Example
///
/// ```
/// use surflet::reference::simplex2005::noise2;
///
/// assert_eq!(noise2(0.1, 0.2), -0.294107569872242);
/// ```
#[must_use]
pub fn noise2(x: f64, y: f64) -> f64 {
    let s = (x + y) * F2;
    let i = fastfloor(x + s);
    let j = fastfloor(y + s);
    let t = f64::from(i.wrapping_add(j)) * G2;
    // The offsets must be formed as coordinate - (cell - t), as in the
    // original, to land in the same simplex at ties.
    let x0_cell = f64::from(i) - t;
    let y0_cell = f64::from(j) - t;
    let x0 = x - x0_cell;
    let y0 = y - y0_cell;
    let (i1, j1) = if x0 > y0 { (1, 0) } else { (0, 1) };
    let x1 = x0 - f64::from(i1) + G2;
    let y1 = y0 - f64::from(j1) + G2;
    let x2 = x0 - 1.0 + 2.0 * G2;
    let y2 = y0 - 1.0 + 2.0 * G2;
    let ii = i & 255;
    let jj = j & 255;
    let gi0 = perm_mod12(ii + perm(jj));
    let gi1 = perm_mod12(ii + i1 + perm(jj + j1));
    let gi2 = perm_mod12(ii + 1 + perm(jj + 1));

    let mut t0 = 0.5 - x0 * x0 - y0 * y0;
    let n0 = if t0 < 0.0 {
        0.0
    } else {
        t0 *= t0;
        t0 * t0 * dot2(&GRAD3[gi0], x0, y0)
    };
    let mut t1 = 0.5 - x1 * x1 - y1 * y1;
    let n1 = if t1 < 0.0 {
        0.0
    } else {
        t1 *= t1;
        t1 * t1 * dot2(&GRAD3[gi1], x1, y1)
    };
    let mut t2 = 0.5 - x2 * x2 - y2 * y2;
    let n2 = if t2 < 0.0 {
        0.0
    } else {
        t2 *= t2;
        t2 * t2 * dot2(&GRAD3[gi2], x2, y2)
    };
    70.0 * (n0 + n1 + n2)
}

/// 3D simplex noise, bit-identical to `SimplexNoise.noise(x, y, z)` of the
/// Java listing in Gustavson's paper "Simplex noise demystified" (2005), with
/// the listing's undefined `i3, j3, k3` read as the constant last-corner
/// offsets `(1, 1, 1)`.
///
/// The listing's floor is one too low at 0 and the negative integers, so
/// where a skewed coordinate is such an integer the point is attributed to a
/// different simplex than in [`super::simplex2012::noise3`], and because of
/// the discontinuity below the two then differ by up to about 1.2e-2.
///
/// **Discontinuous across simplex faces**: the kernel radius² is 0.6, and
/// a radius of √0.6 reaches past the face opposite a corner, so when a point
/// crosses a face the corner that drops out still contributes there and the
/// value jumps (by up to about 6e-3 in a sample of 10^6 face crossings). Only
/// the 2D function, with radius² 0.5, is continuous.
///
/// Other quirks kept from the original: period 256 in skewed space; 12
/// cube-edge gradients chosen by `perm % 12` (a slight bias towards the first
/// four); scale 32, with the largest magnitude found about 0.979, so the
/// range is inside `[-1, 1]` but does not reach it.
///
/// Never panics. NaN in gives NaN out. A skewed coordinate beyond ±2^31
/// saturates its cell index and leaves every corner out of reach, so the
/// result is exactly 0 (for instance when one coordinate is beyond ±2^31 and
/// the others are moderate); an infinite coordinate likewise gives 0. The
/// cell-index sum wraps as Java's `int` does, which also yields 0.
///
/// # Example
///
/// ```
/// use surflet::reference::simplex2005::noise3;
///
/// assert_eq!(noise3(0.1, 0.2, 0.3), 0.6358903679999998);
/// ```
#[must_use]
pub fn noise3(x: f64, y: f64, z: f64) -> f64 {
    let s = (x + y + z) * F3;
    let i = fastfloor(x + s);
    let j = fastfloor(y + s);
    let k = fastfloor(z + s);
    let t = f64::from(i.wrapping_add(j).wrapping_add(k)) * G3;
    // Formed as coordinate - (cell - t), as in the original: with the
    // discontinuous kernel, any other grouping can pick the neighbouring
    // simplex at ties and change the result by up to about 3e-3.
    let x0_cell = f64::from(i) - t;
    let y0_cell = f64::from(j) - t;
    let z0_cell = f64::from(k) - t;
    let x0 = x - x0_cell;
    let y0 = y - y0_cell;
    let z0 = z - z0_cell;
    // The comparison forms (`>=` in one branch, `<` in the other) decide
    // which simplex a tie falls into; keep them as they are.
    let (i1, j1, k1, i2, j2, k2) = if x0 >= y0 {
        if y0 >= z0 {
            (1, 0, 0, 1, 1, 0)
        } else if x0 >= z0 {
            (1, 0, 0, 1, 0, 1)
        } else {
            (0, 0, 1, 1, 0, 1)
        }
    } else if y0 < z0 {
        (0, 0, 1, 0, 1, 1)
    } else if x0 < z0 {
        (0, 1, 0, 0, 1, 1)
    } else {
        (0, 1, 0, 1, 1, 0)
    };
    let x1 = x0 - f64::from(i1) + G3;
    let y1 = y0 - f64::from(j1) + G3;
    let z1 = z0 - f64::from(k1) + G3;
    let x2 = x0 - f64::from(i2) + 2.0 * G3;
    let y2 = y0 - f64::from(j2) + 2.0 * G3;
    let z2 = z0 - f64::from(k2) + 2.0 * G3;
    let x3 = x0 - 1.0 + 3.0 * G3;
    let y3 = y0 - 1.0 + 3.0 * G3;
    let z3 = z0 - 1.0 + 3.0 * G3;
    let ii = i & 255;
    let jj = j & 255;
    let kk = k & 255;
    let gi0 = perm_mod12(ii + perm(jj + perm(kk)));
    let gi1 = perm_mod12(ii + i1 + perm(jj + j1 + perm(kk + k1)));
    let gi2 = perm_mod12(ii + i2 + perm(jj + j2 + perm(kk + k2)));
    let gi3 = perm_mod12(ii + 1 + perm(jj + 1 + perm(kk + 1)));

    let mut t0 = 0.6 - x0 * x0 - y0 * y0 - z0 * z0;
    let n0 = if t0 < 0.0 {
        0.0
    } else {
        t0 *= t0;
        t0 * t0 * dot3(&GRAD3[gi0], x0, y0, z0)
    };
    let mut t1 = 0.6 - x1 * x1 - y1 * y1 - z1 * z1;
    let n1 = if t1 < 0.0 {
        0.0
    } else {
        t1 *= t1;
        t1 * t1 * dot3(&GRAD3[gi1], x1, y1, z1)
    };
    let mut t2 = 0.6 - x2 * x2 - y2 * y2 - z2 * z2;
    let n2 = if t2 < 0.0 {
        0.0
    } else {
        t2 *= t2;
        t2 * t2 * dot3(&GRAD3[gi2], x2, y2, z2)
    };
    let mut t3 = 0.6 - x3 * x3 - y3 * y3 - z3 * z3;
    let n3 = if t3 < 0.0 {
        0.0
    } else {
        t3 *= t3;
        t3 * t3 * dot3(&GRAD3[gi3], x3, y3, z3)
    };
    32.0 * (n0 + n1 + n2 + n3)
}

/// 4D simplex noise, bit-identical to `SimplexNoise.noise(x, y, z, w)` of the
/// Java listing in Gustavson's paper "Simplex noise demystified" (2005)
/// (lookup-table simplex selection).
///
/// The listing's floor is one too low at 0 and the negative integers, so
/// where a skewed coordinate is such an integer the point can be attributed
/// to a different simplex than in [`super::simplex2012::noise4`], and because
/// of the discontinuity below the two then differ by up to about 5.4e-3.
///
/// **Discontinuous across simplex faces**: the kernel radius² is 0.6, and
/// a radius of √0.6 reaches past the face opposite a corner, so when a point
/// crosses a face the corner that drops out still contributes there and the
/// value jumps (by up to about 5e-3 in a sample of 10^6 face crossings).
///
/// Other quirks kept from the original: period 256 in skewed space; 32
/// tesseract-edge gradients chosen by `perm % 32` (unbiased, since 32 divides
/// 256); scale 27, with the largest magnitude found about 0.992, so the range
/// is inside `[-1, 1]` but does not reach it.
///
/// Never panics: the cell-index sum `i + j + k + l` overflows `i32` from
/// about 2.4e8 on the diagonal and wraps, as Java's `int` does, which puts
/// every corner out of reach and yields 0. NaN in gives NaN out. A skewed
/// coordinate beyond ±2^31 saturates its cell index, which also yields
/// exactly 0 (for instance when one coordinate is beyond ±2^31 and the
/// others are moderate); an infinite coordinate likewise gives 0.
///
/// # Example
///
/// ```
/// use surflet::reference::simplex2005::noise4;
///
/// assert_eq!(noise4(0.1, 0.2, 0.3, 0.4), 0.22762956106590113);
/// ```
#[must_use]
pub fn noise4(x: f64, y: f64, z: f64, w: f64) -> f64 {
    let s = (x + y + z + w) * F4;
    let i = fastfloor(x + s);
    let j = fastfloor(y + s);
    let k = fastfloor(z + s);
    let l = fastfloor(w + s);
    let t = f64::from(i.wrapping_add(j).wrapping_add(k).wrapping_add(l)) * G4;
    // Formed as coordinate - (cell - t), as in the original (see noise3).
    let x0_cell = f64::from(i) - t;
    let y0_cell = f64::from(j) - t;
    let z0_cell = f64::from(k) - t;
    let w0_cell = f64::from(l) - t;
    let x0 = x - x0_cell;
    let y0 = y - y0_cell;
    let z0 = z - z0_cell;
    let w0 = w - w0_cell;
    // Six comparison bits index the traversal table; the comparisons are
    // strict, so ties go to the later coordinate, which decides the simplex
    // on shared faces.
    let c1 = if x0 > y0 { 32 } else { 0 };
    let c2 = if x0 > z0 { 16 } else { 0 };
    let c3 = if y0 > z0 { 8 } else { 0 };
    let c4 = if x0 > w0 { 4 } else { 0 };
    let c5 = if y0 > w0 { 2 } else { 0 };
    let c6 = if z0 > w0 { 1 } else { 0 };
    let c = c1 + c2 + c3 + c4 + c5 + c6;
    let rank = SIMPLEX[c];
    let step = |axis: usize, threshold: u8| i32::from(rank[axis] >= threshold);
    let (i1, j1, k1, l1) = (step(0, 3), step(1, 3), step(2, 3), step(3, 3));
    let (i2, j2, k2, l2) = (step(0, 2), step(1, 2), step(2, 2), step(3, 2));
    let (i3, j3, k3, l3) = (step(0, 1), step(1, 1), step(2, 1), step(3, 1));
    let x1 = x0 - f64::from(i1) + G4;
    let y1 = y0 - f64::from(j1) + G4;
    let z1 = z0 - f64::from(k1) + G4;
    let w1 = w0 - f64::from(l1) + G4;
    let x2 = x0 - f64::from(i2) + 2.0 * G4;
    let y2 = y0 - f64::from(j2) + 2.0 * G4;
    let z2 = z0 - f64::from(k2) + 2.0 * G4;
    let w2 = w0 - f64::from(l2) + 2.0 * G4;
    let x3 = x0 - f64::from(i3) + 3.0 * G4;
    let y3 = y0 - f64::from(j3) + 3.0 * G4;
    let z3 = z0 - f64::from(k3) + 3.0 * G4;
    let w3 = w0 - f64::from(l3) + 3.0 * G4;
    let x4 = x0 - 1.0 + 4.0 * G4;
    let y4 = y0 - 1.0 + 4.0 * G4;
    let z4 = z0 - 1.0 + 4.0 * G4;
    let w4 = w0 - 1.0 + 4.0 * G4;
    let ii = i & 255;
    let jj = j & 255;
    let kk = k & 255;
    let ll = l & 255;
    let gi0 = (perm(ii + perm(jj + perm(kk + perm(ll)))) % 32) as usize;
    let gi1 = (perm(ii + i1 + perm(jj + j1 + perm(kk + k1 + perm(ll + l1)))) % 32) as usize;
    let gi2 = (perm(ii + i2 + perm(jj + j2 + perm(kk + k2 + perm(ll + l2)))) % 32) as usize;
    let gi3 = (perm(ii + i3 + perm(jj + j3 + perm(kk + k3 + perm(ll + l3)))) % 32) as usize;
    let gi4 = (perm(ii + 1 + perm(jj + 1 + perm(kk + 1 + perm(ll + 1)))) % 32) as usize;

    let mut t0 = 0.6 - x0 * x0 - y0 * y0 - z0 * z0 - w0 * w0;
    let n0 = if t0 < 0.0 {
        0.0
    } else {
        t0 *= t0;
        t0 * t0 * dot4(&GRAD4[gi0], x0, y0, z0, w0)
    };
    let mut t1 = 0.6 - x1 * x1 - y1 * y1 - z1 * z1 - w1 * w1;
    let n1 = if t1 < 0.0 {
        0.0
    } else {
        t1 *= t1;
        t1 * t1 * dot4(&GRAD4[gi1], x1, y1, z1, w1)
    };
    let mut t2 = 0.6 - x2 * x2 - y2 * y2 - z2 * z2 - w2 * w2;
    let n2 = if t2 < 0.0 {
        0.0
    } else {
        t2 *= t2;
        t2 * t2 * dot4(&GRAD4[gi2], x2, y2, z2, w2)
    };
    let mut t3 = 0.6 - x3 * x3 - y3 * y3 - z3 * z3 - w3 * w3;
    let n3 = if t3 < 0.0 {
        0.0
    } else {
        t3 *= t3;
        t3 * t3 * dot4(&GRAD4[gi3], x3, y3, z3, w3)
    };
    let mut t4 = 0.6 - x4 * x4 - y4 * y4 - z4 * z4 - w4 * w4;
    let n4 = if t4 < 0.0 {
        0.0
    } else {
        t4 *= t4;
        t4 * t4 * dot4(&GRAD4[gi4], x4, y4, z4, w4)
    };
    27.0 * (n0 + n1 + n2 + n3 + n4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skew_constants_match_the_java_expressions() {
        assert_eq!(F2.to_bits(), (0.5 * (3.0f64.sqrt() - 1.0)).to_bits());
        assert_eq!(G2.to_bits(), ((3.0 - 3.0f64.sqrt()) / 6.0).to_bits());
        assert_eq!(F4.to_bits(), ((5.0f64.sqrt() - 1.0) / 4.0).to_bits());
        assert_eq!(G4.to_bits(), ((5.0 - 5.0f64.sqrt()) / 20.0).to_bits());
    }
}
