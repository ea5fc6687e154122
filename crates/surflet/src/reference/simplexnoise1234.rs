//! Stefan Gustavson's `simplexnoise1234.c`: Perlin's simplex noise in `f32`,
//! 1D to 4D (`snoise1..4`).
//!
//! Ported from `stegu/perlin-noise`, `src/simplexnoise1234.c` (public domain),
//! at commit `a624f5a18395c0ebc04738191efddf1dbd2cad9d`, operation for
//! operation; bit-identical to the C compiled for x86-64 SSE with
//! `-ffp-contract=off`. Quirks kept on purpose:
//!
//! * **`double` skew constants.** `F2 G2 F3 G3 F4 G4` are 9-digit `double`
//!   literals (`0.366025403`, `0.211324865`, `0.333333333`, `0.166666667`,
//!   `0.309016994`, `0.138196601`), so the skew factor, the unskew of the cell
//!   origin and the corner offsets are computed in `f64` and rounded to `f32`
//!   at each C assignment. The port does the same conversions at the same
//!   places: doing any of them in `f32` instead breaks bit-exactness on part
//!   of the reference data (e.g. 190 of 1263 rows for the 2D last-corner
//!   offset), mostly near |x| ≈ 300 where the in-cell offset cancels.
//! * **4D unskew in `double` from the integer sum**: `(i+j+k+l) * G4`
//!   converts the `int` straight to `double`, whereas 2D and 3D first cast
//!   the sum to `float`.
//! * **Radius² 0.5 in every dimension** and ad-hoc output scales 0.25 (1D),
//!   40 (2D), 72 (3D), 62 (4D). The output is not exactly bounded by ±1: the
//!   largest magnitudes found are about 0.633 (1D, exactly
//!   0.25·8·(3/4)⁴ = 0.6328125), 0.884, 0.937 and 0.988.
//! * **Gradients** as in `noise1234`: ±1..±8 in 1D, (±1, ±2)/(±2, ±1) in 2D,
//!   cube edges in 3D, tesseract edges in 4D; 4D corner order via the
//!   64-entry `simplex` lookup table.
//! * **Period 256 in the skewed lattice, not along the axes.** Cell indices
//!   are wrapped with `& 255`, but in 2D–4D the cells are those of the skewed
//!   simplex grid, which is not axis-aligned: shifting one coordinate by 256
//!   does *not* reproduce the noise (it moves the point by a non-integer
//!   number of skewed cells). The noise repeats, up to `f32` rounding, under
//!   translations by 256 lattice steps such as ≈ 256·(1 − G₂, −G₂) in 2D. Only
//!   the 1D function has period 256 in x.
//!
//! The floor here (`(int)x <= x ? (int)x : (int)x - 1`) is correct for every
//! value that fits an `int`. Float→int conversions of NaN, ±∞ and values
//! beyond ±2³¹ are undefined in C; this port saturates them as Rust's `as`
//! does (NaN → 0) and wraps integer overflow, so no input panics or indexes
//! out of bounds; the results for such inputs are meaningless but defined.

#![allow(clippy::excessive_precision)] // the C's 9-digit literals, kept verbatim

/// The C library's 512-entry table (Perlin's permutation stored twice), so
/// `perm[i + 1 + perm[j + 1]]` with `i, j ≤ 255` stays in range.
const PERM: [u8; 512] = {
    let mut p = [0u8; 512];
    let mut i = 0;
    while i < 512 {
        p[i] = super::PERLIN_PERMUTATION[i & 255];
        i += 1;
    }
    p
};

#[inline(always)]
fn perm(i: usize) -> usize {
    usize::from(PERM[i])
}

/// Ranks of x, y, z, w (3 = largest) indexed by the six pairwise comparison
/// bits; the C `simplex[64][4]`. Only 24 entries are reachable.
#[rustfmt::skip] // the C table's layout, row for row
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

// The C `#define`s are `double` literals: every expression that touches them
// is evaluated in double.
const F2: f64 = 0.366025403; // 0.5*(sqrt(3.0)-1.0)
const G2: f64 = 0.211324865; // (3.0-sqrt(3.0))/6.0
const F3: f64 = 0.333333333;
const G3: f64 = 0.166666667;
const F4: f64 = 0.309016994; // (sqrt(5.0)-1.0)/4.0
const G4: f64 = 0.138196601; // (5.0-sqrt(5.0))/20.0

/// The C `FASTFLOOR`: `((int)x <= x) ? (int)x : (int)x - 1`, a true floor
/// for every value an `int` holds. The C cast is undefined beyond that; `as`
/// saturates (NaN → 0) and the `- 1` wraps so nothing panics.
#[inline(always)]
fn fast_floor(x: f32) -> i32 {
    let xi = x as i32;
    if (xi as f32) <= x {
        xi
    } else {
        xi.wrapping_sub(1)
    }
}

/// `(float)(x + c)` for a float `x` and a double `c`, the pattern of the
/// C's `x0 - i1 + G2`.
#[inline(always)]
fn add_d(x: f32, c: f64) -> f32 {
    (f64::from(x) + c) as f32
}

#[inline(always)]
fn grad1(hash: usize, x: f32) -> f32 {
    let h = hash & 15;
    let mut grad = 1.0f32 + (h & 7) as f32;
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
    // Unlike noise1234.c, this file writes `2.0f`: the sum stays in float.
    (if h & 1 != 0 { -u } else { u }) + (if h & 2 != 0 { -2.0 * v } else { 2.0 * v })
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

/// One corner's kernel `(t²)² · g`, or 0 outside radius² 0.5. The C tests
/// `t < 0`, so NaN goes on to the gradient and stays NaN.
#[inline(always)]
fn corner(t: f32, g: impl FnOnce() -> f32) -> f32 {
    if t < 0.0 {
        0.0
    } else {
        let t = t * t;
        t * t * g()
    }
}

/// 1D simplex noise: `snoise1` of Gustavson's `simplexnoise1234.c`.
///
/// Two corners with the kernel (1 − x²)⁴ and gradients ±1..±8, scaled by
/// 0.25 to resemble PRMan's 1D noise, so the range is ±0.6328125 (=
/// 0.25·8·(3/4)⁴), not ±1. Period 256 (in 1D there is no skew). Agrees
/// with [`sdnoise1`](super::sdnoise1234::sdnoise1) to within 1.2e-7: the
/// same function, multiplied out in another order.
///
/// ```
/// use surflet::reference::simplexnoise1234::snoise1;
/// assert_eq!(snoise1(-292.51571655273438), -0.55711889266967773); // C output
/// assert_eq!(snoise1(2.0), 0.0);
/// assert_eq!(snoise1(-0.0).to_bits(), (-0.0f32).to_bits());
/// ```
pub fn snoise1(x: f32) -> f32 {
    let i0 = fast_floor(x);
    let i1 = i0.wrapping_add(1);
    let x0 = x - i0 as f32;
    let x1 = x0 - 1.0;

    let mut t0 = 1.0 - x0 * x0;
    t0 *= t0;
    let n0 = t0 * t0 * grad1(perm((i0 & 0xff) as usize), x0);

    let mut t1 = 1.0 - x1 * x1;
    t1 *= t1;
    let n1 = t1 * t1 * grad1(perm((i1 & 0xff) as usize), x1);

    0.25 * (n0 + n1)
}

/// 2D simplex noise: `snoise2` of `simplexnoise1234.c`.
///
/// Gradients (±1, ±2)/(±2, ±1), radius² 0.5, scale 40: the output reaches
/// about ±0.884, not ±1. Skewing uses the C's `double` constants (see the
/// [module docs](self)); hashed with period 256 in the skewed lattice, so
/// *not* 256-periodic in x or y. A different function from
/// [`sdnoise2`](super::sdnoise1234::sdnoise2), which uses another gradient
/// set.
///
/// ```
/// use surflet::reference::simplexnoise1234::snoise2;
/// // A row of the C library's output, reproduced bit for bit.
/// assert_eq!(snoise2(0.0, -0.70710676908493042), 0.10401564836502075);
/// // Skewed-lattice period: a shift of 256 along one axis is not a period.
/// assert_ne!(snoise2(0.25, -1.5), snoise2(256.25, -1.5));
/// ```
pub fn snoise2(x: f32, y: f32) -> f32 {
    // float s = (x+y)*F2;  -- float sum, double product, rounded to float.
    let s = (f64::from(x + y) * F2) as f32;
    let xs = x + s;
    let ys = y + s;
    let i = fast_floor(xs);
    let j = fast_floor(ys);

    // (float)(i+j)*G2: the int sum is rounded to float before the double
    // product (snoise4 skips that rounding).
    let t = (f64::from(i.wrapping_add(j) as f32) * G2) as f32;
    let cx = i as f32 - t; // unskewed cell origin (C: X0, Y0)
    let cy = j as f32 - t;
    let x0 = x - cx;
    let y0 = y - cy;

    let (i1, j1) = if x0 > y0 { (1, 0) } else { (0, 1) };

    let x1 = add_d(x0 - i1 as f32, G2);
    let y1 = add_d(y0 - j1 as f32, G2);
    // x0 - 1.0f + 2.0f * G2: (x0 - 1) in float, 2*G2 in double.
    let x2 = add_d(x0 - 1.0, 2.0 * G2);
    let y2 = add_d(y0 - 1.0, 2.0 * G2);

    let ii = (i & 0xff) as usize;
    let jj = (j & 0xff) as usize;
    let (i1, j1) = (i1 as usize, j1 as usize);

    let n0 = corner(0.5 - x0 * x0 - y0 * y0, || {
        grad2(perm(ii + perm(jj)), x0, y0)
    });
    let n1 = corner(0.5 - x1 * x1 - y1 * y1, || {
        grad2(perm(ii + i1 + perm(jj + j1)), x1, y1)
    });
    let n2 = corner(0.5 - x2 * x2 - y2 * y2, || {
        grad2(perm(ii + 1 + perm(jj + 1)), x2, y2)
    });

    40.0 * (n0 + n1 + n2)
}

/// 3D simplex noise: `snoise3` of `simplexnoise1234.c`.
///
/// Perlin's 3D simplex noise with the twelve cube-edge gradients, radius²
/// 0.5 (not 0.6 as in Gustavson's Java) and scale 72: the output reaches
/// about ±0.937. Skewing uses the C's `double` constants. Hashed with
/// period 256 in the skewed lattice (not along the axes). A
/// different function from [`sdnoise3`](super::sdnoise1234::sdnoise3),
/// whose lookup table assigns the edge directions to hash values
/// differently.
///
/// ```
/// use surflet::reference::simplexnoise1234::snoise3;
/// // A row of the C library's output, reproduced bit for bit.
/// let v = snoise3(0.0, -0.70710676908493042, 1.1447298526763916);
/// assert_eq!(v, 0.50565320253372192);
/// ```
pub fn snoise3(x: f32, y: f32, z: f32) -> f32 {
    let s = (f64::from(x + y + z) * F3) as f32;
    let xs = x + s;
    let ys = y + s;
    let zs = z + s;
    let i = fast_floor(xs);
    let j = fast_floor(ys);
    let k = fast_floor(zs);

    let t = (f64::from(i.wrapping_add(j).wrapping_add(k) as f32) * G3) as f32;
    let cx = i as f32 - t;
    let cy = j as f32 - t;
    let cz = k as f32 - t;
    let x0 = x - cx;
    let y0 = y - cy;
    let z0 = z - cz;

    // Offsets of the second and third corners, in the C's branch order.
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

    let x1 = add_d(x0 - i1 as f32, G3);
    let y1 = add_d(y0 - j1 as f32, G3);
    let z1 = add_d(z0 - k1 as f32, G3);
    let x2 = add_d(x0 - i2 as f32, 2.0 * G3);
    let y2 = add_d(y0 - j2 as f32, 2.0 * G3);
    let z2 = add_d(z0 - k2 as f32, 2.0 * G3);
    let x3 = add_d(x0 - 1.0, 3.0 * G3);
    let y3 = add_d(y0 - 1.0, 3.0 * G3);
    let z3 = add_d(z0 - 1.0, 3.0 * G3);

    let ii = (i & 0xff) as usize;
    let jj = (j & 0xff) as usize;
    let kk = (k & 0xff) as usize;
    let h = |a: usize, b: usize, c: usize| perm(ii + a + perm(jj + b + perm(kk + c)));

    let n0 = corner(0.5 - x0 * x0 - y0 * y0 - z0 * z0, || {
        grad3(h(0, 0, 0), x0, y0, z0)
    });
    let n1 = corner(0.5 - x1 * x1 - y1 * y1 - z1 * z1, || {
        grad3(h(i1, j1, k1), x1, y1, z1)
    });
    let n2 = corner(0.5 - x2 * x2 - y2 * y2 - z2 * z2, || {
        grad3(h(i2, j2, k2), x2, y2, z2)
    });
    let n3 = corner(0.5 - x3 * x3 - y3 * y3 - z3 * z3, || {
        grad3(h(1, 1, 1), x3, y3, z3)
    });

    72.0 * (n0 + n1 + n2 + n3)
}

/// 4D simplex noise: `snoise4` of `simplexnoise1234.c`.
///
/// 32 tesseract-edge gradients, radius² 0.5, scale 62: the output reaches
/// about ±0.988. The corner traversal order comes from the C's 64-entry
/// lookup table; the unskew factor is computed in `double` from the integer
/// sum `i+j+k+l` (2D/3D round that sum to `float` first). Hashed with
/// period 256 in the skewed lattice (not along the axes). A
/// different function from [`sdnoise4`](super::sdnoise1234::sdnoise4).
///
/// ```
/// use surflet::reference::simplexnoise1234::snoise4;
/// // A row of the C library's output, reproduced bit for bit.
/// let v = snoise4(0.0, -0.70710676908493042, 1.1447298526763916, -1.9318516254425049);
/// assert_eq!(v, -0.65468734502792358);
/// ```
pub fn snoise4(x: f32, y: f32, z: f32, w: f32) -> f32 {
    let s = (f64::from(x + y + z + w) * F4) as f32;
    let xs = x + s;
    let ys = y + s;
    let zs = z + s;
    let ws = w + s;
    let i = fast_floor(xs);
    let j = fast_floor(ys);
    let k = fast_floor(zs);
    let l = fast_floor(ws);

    // float t = (i + j + k + l) * G4;  -- int converted straight to double.
    let sum = i.wrapping_add(j).wrapping_add(k).wrapping_add(l);
    let t = (f64::from(sum) * G4) as f32;
    let cx = i as f32 - t;
    let cy = j as f32 - t;
    let cz = k as f32 - t;
    let cw = l as f32 - t;
    let x0 = x - cx;
    let y0 = y - cy;
    let z0 = z - cz;
    let w0 = w - cw;

    let c1 = if x0 > y0 { 32 } else { 0 };
    let c2 = if x0 > z0 { 16 } else { 0 };
    let c3 = if y0 > z0 { 8 } else { 0 };
    let c4 = if x0 > w0 { 4 } else { 0 };
    let c5 = if y0 > w0 { 2 } else { 0 };
    let c6 = if z0 > w0 { 1 } else { 0 };
    let sc = SIMPLEX[c1 + c2 + c3 + c4 + c5 + c6];
    // Corner n (1..=3) steps along every axis whose rank is >= 4 - n.
    let off = |rank: u8| sc.map(|r| usize::from(r >= rank));
    let [i1, j1, k1, l1] = off(3);
    let [i2, j2, k2, l2] = off(2);
    let [i3, j3, k3, l3] = off(1);

    let x1 = add_d(x0 - i1 as f32, G4);
    let y1 = add_d(y0 - j1 as f32, G4);
    let z1 = add_d(z0 - k1 as f32, G4);
    let w1 = add_d(w0 - l1 as f32, G4);
    let x2 = add_d(x0 - i2 as f32, 2.0 * G4);
    let y2 = add_d(y0 - j2 as f32, 2.0 * G4);
    let z2 = add_d(z0 - k2 as f32, 2.0 * G4);
    let w2 = add_d(w0 - l2 as f32, 2.0 * G4);
    let x3 = add_d(x0 - i3 as f32, 3.0 * G4);
    let y3 = add_d(y0 - j3 as f32, 3.0 * G4);
    let z3 = add_d(z0 - k3 as f32, 3.0 * G4);
    let w3 = add_d(w0 - l3 as f32, 3.0 * G4);
    let x4 = add_d(x0 - 1.0, 4.0 * G4);
    let y4 = add_d(y0 - 1.0, 4.0 * G4);
    let z4 = add_d(z0 - 1.0, 4.0 * G4);
    let w4 = add_d(w0 - 1.0, 4.0 * G4);

    let ii = (i & 0xff) as usize;
    let jj = (j & 0xff) as usize;
    let kk = (k & 0xff) as usize;
    let ll = (l & 0xff) as usize;
    let h = |a: usize, b: usize, c: usize, d: usize| {
        perm(ii + a + perm(jj + b + perm(kk + c + perm(ll + d))))
    };

    let n0 = corner(0.5 - x0 * x0 - y0 * y0 - z0 * z0 - w0 * w0, || {
        grad4(h(0, 0, 0, 0), x0, y0, z0, w0)
    });
    let n1 = corner(0.5 - x1 * x1 - y1 * y1 - z1 * z1 - w1 * w1, || {
        grad4(h(i1, j1, k1, l1), x1, y1, z1, w1)
    });
    let n2 = corner(0.5 - x2 * x2 - y2 * y2 - z2 * z2 - w2 * w2, || {
        grad4(h(i2, j2, k2, l2), x2, y2, z2, w2)
    });
    let n3 = corner(0.5 - x3 * x3 - y3 * y3 - z3 * z3 - w3 * w3, || {
        grad4(h(i3, j3, k3, l3), x3, y3, z3, w3)
    });
    let n4 = corner(0.5 - x4 * x4 - y4 * y4 - z4 * z4 - w4 * w4, || {
        grad4(h(1, 1, 1, 1), x4, y4, z4, w4)
    });

    62.0 * (n0 + n1 + n2 + n3 + n4)
}
