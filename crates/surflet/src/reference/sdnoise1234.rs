//! Stefan Gustavson's `sdnoise1234.c`: simplex noise in `f32`, 1D to 4D,
//! with its analytic derivative (`sdnoise1..4`).
//!
//! Ported from `stegu/perlin-noise`, `src/sdnoise1234.c` (public domain), at
//! commit `a624f5a18395c0ebc04738191efddf1dbd2cad9d`, operation for
//! operation; bit-identical to the C compiled for x86-64 SSE with
//! `-ffp-contract=off`. Each function returns the noise value and the
//! partial derivatives the C writes through its pointer arguments: the
//! analytic gradient of the returned value (the C computes them only when
//! all pointers are non-null, which changes nothing in the value).
//!
//! Quirks kept on purpose:
//!
//! * **Not the same noise as `simplexnoise1234`.** The file's comment says it
//!   looks "exactly the same" as `snoise`, but the 2D/3D/4D gradients come
//!   from explicit tables that differ from `snoise`'s bit-twiddled ones: 2D
//!   uses (±1, 0), (0, ±1), (±1, ±1) (so it peaks near ±0.570, not ±0.884),
//!   3D/4D assign the edge vectors to hash values differently. So `sdnoise2..4` are
//!   *different functions* from
//!   [`snoise2..4`](super::simplexnoise1234); only `sdnoise1` agrees with
//!   `snoise1` (to within 1.2e-7: it multiplies in another order).
//! * **`float` skew constants** (`.366025403f` etc.), unlike
//!   `simplexnoise1234.c`'s `double` ones, so everything here is `f32`.
//! * **Radius² 0.5 in every dimension**, output scales 0.25 / 40 / 72 / 62
//!   (applied to the derivatives too). Observed maxima of |value|: about
//!   0.633, 0.570, 0.937, 0.988; derivative components reach about 2.0, 3.7,
//!   6.4 and 5.7.
//! * **Period 256 in the skewed lattice, not along the axes.** Cell indices
//!   are wrapped with `& 255`, but in 2D–4D the cells are those of the skewed
//!   simplex grid, which is not axis-aligned: shifting one coordinate by 256
//!   does *not* reproduce the noise (it moves the point by a non-integer
//!   number of skewed cells). The noise repeats, up to `f32` rounding, under
//!   translations by 256 lattice steps such as ≈ 256·(1 − G₂, −G₂) in 2D. Only
//!   the 1D function has period 256 in x.
//!
//! The floor (`(int)x <= x ? (int)x : (int)x - 1`) is exact for values that
//! fit an `int`. Beyond that the C's float→int cast is undefined; this port
//! saturates as Rust's `as` does (NaN → 0) and wraps integer overflow, so no
//! input panics or indexes out of bounds.

#![allow(clippy::excessive_precision)] // the C's 9-digit literals, kept verbatim

/// Perlin's permutation stored twice, as in the C, so the nested lookups
/// `perm[i + 1 + perm[j + 1]]` with `i, j ≤ 255` stay in range.
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

/// The C `grad2lut`: eight directions (±1, 0), (0, ±1), (±1, ±1).
#[rustfmt::skip] // the C table's layout, row for row
const GRAD2: [[f32; 2]; 8] = [
    [-1.0, -1.0], [1.0, 0.0], [-1.0, 0.0], [1.0, 1.0],
    [-1.0, 1.0], [0.0, -1.0], [0.0, 1.0], [1.0, -1.0],
];

/// The C `grad3lut`: the twelve cube edges plus four repeats.
#[rustfmt::skip] // the C table's layout, row for row
const GRAD3: [[f32; 3]; 16] = [
    [1.0, 0.0, 1.0], [0.0, 1.0, 1.0], // 12 cube edges
    [-1.0, 0.0, 1.0], [0.0, -1.0, 1.0],
    [1.0, 0.0, -1.0], [0.0, 1.0, -1.0],
    [-1.0, 0.0, -1.0], [0.0, -1.0, -1.0],
    [1.0, -1.0, 0.0], [1.0, 1.0, 0.0],
    [-1.0, 1.0, 0.0], [-1.0, -1.0, 0.0],
    [1.0, 0.0, 1.0], [-1.0, 0.0, 1.0], // 4 repeats to make 16
    [0.0, 1.0, -1.0], [0.0, -1.0, -1.0],
];

/// The C `grad4lut`: the 32 tesseract edges.
#[rustfmt::skip] // the C table's layout, row for row
const GRAD4: [[f32; 4]; 32] = [
    [0.0, 1.0, 1.0, 1.0], [0.0, 1.0, 1.0, -1.0], [0.0, 1.0, -1.0, 1.0], [0.0, 1.0, -1.0, -1.0],
    [0.0, -1.0, 1.0, 1.0], [0.0, -1.0, 1.0, -1.0], [0.0, -1.0, -1.0, 1.0], [0.0, -1.0, -1.0, -1.0],
    [1.0, 0.0, 1.0, 1.0], [1.0, 0.0, 1.0, -1.0], [1.0, 0.0, -1.0, 1.0], [1.0, 0.0, -1.0, -1.0],
    [-1.0, 0.0, 1.0, 1.0], [-1.0, 0.0, 1.0, -1.0], [-1.0, 0.0, -1.0, 1.0], [-1.0, 0.0, -1.0, -1.0],
    [1.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, -1.0], [1.0, -1.0, 0.0, 1.0], [1.0, -1.0, 0.0, -1.0],
    [-1.0, 1.0, 0.0, 1.0], [-1.0, 1.0, 0.0, -1.0], [-1.0, -1.0, 0.0, 1.0], [-1.0, -1.0, 0.0, -1.0],
    [1.0, 1.0, 1.0, 0.0], [1.0, 1.0, -1.0, 0.0], [1.0, -1.0, 1.0, 0.0], [1.0, -1.0, -1.0, 0.0],
    [-1.0, 1.0, 1.0, 0.0], [-1.0, 1.0, -1.0, 0.0], [-1.0, -1.0, 1.0, 0.0], [-1.0, -1.0, -1.0, 0.0],
];

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

// `float` literals in this file (`.366025403f`), unlike simplexnoise1234.c.
const F2: f32 = 0.366025403;
const G2: f32 = 0.211324865;
const F3: f32 = 0.333333333;
const G3: f32 = 0.166666667;
const F4: f32 = 0.309016994;
const G4: f32 = 0.138196601;

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

/// The per-corner quantities the C keeps in `tN`, `t2N`, `t4N`, `gN` and
/// `nN`. Outside radius² 0.5 the C zeroes all of them (`t0 = t20 = ... =
/// 0.0f`), which is what [`Corner::ZERO`] holds.
#[derive(Clone, Copy)]
struct Corner<const D: usize> {
    t: f32,
    t2: f32,
    t4: f32,
    g: [f32; D],
    n: f32,
}

impl<const D: usize> Corner<D> {
    const ZERO: Self = Corner {
        t: 0.0,
        t2: 0.0,
        t4: 0.0,
        g: [0.0; D],
        n: 0.0,
    };

    /// `t = 0.5 - |p|²` has been computed by the caller in the C's order. The
    /// C tests `t < 0`, so NaN goes on to the lookup and stays NaN.
    #[inline(always)]
    fn new(t: f32, p: [f32; D], g: impl FnOnce() -> [f32; D]) -> Self {
        if t < 0.0 {
            return Self::ZERO;
        }
        let g = g();
        let t2 = t * t;
        let t4 = t2 * t2;
        Corner {
            t,
            t2,
            t4,
            g,
            n: t4 * dot(g, p),
        }
    }
}

/// `gx*x + gy*y + ...`, summed left to right like the C.
#[inline(always)]
fn dot<const D: usize>(g: [f32; D], p: [f32; D]) -> f32 {
    let mut s = g[0] * p[0];
    for (ga, pa) in g.iter().zip(p.iter()).skip(1) {
        s += ga * pa;
    }
    s
}

/// The C's derivative block, shared by 2D..4D:
///
/// ```text
/// temp_n = t2n * tn * (g_n · p_n);  d  = Σ temp_n * p_n   (corner order)
/// d *= -8;  d += Σ t4n * g_n;  d *= scale
/// ```
#[inline(always)]
fn derivative<const D: usize>(corners: &[(Corner<D>, [f32; D])], scale: f32) -> [f32; D] {
    let mut d = [0.0f32; D];
    for (n, (c, p)) in corners.iter().enumerate() {
        let temp = c.t2 * c.t * dot(c.g, *p);
        for (da, pa) in d.iter_mut().zip(p.iter()) {
            // The first corner assigns (`*dnoise_dx = temp0 * x0`); adding
            // to 0.0 instead would turn a -0.0 into +0.0.
            *da = if n == 0 { temp * pa } else { *da + temp * pa };
        }
    }
    for (a, da) in d.iter_mut().enumerate() {
        *da *= -8.0;
        let mut s = corners[0].0.t4 * corners[0].0.g[a];
        for (c, _) in &corners[1..] {
            s += c.t4 * c.g[a];
        }
        *da += s;
        *da *= scale;
    }
    d
}

/// 1D simplex noise and its derivative: `sdnoise1` of Gustavson's
/// `sdnoise1234.c`.
///
/// Returns `(value, [d/dx])`. Kernel (1 − x²)⁴, gradients ±1..±8, scale
/// 0.25: the value stays within ±0.6328125 (not ±1), the derivative within
/// about ±2. Agrees with
/// [`snoise1`](super::simplexnoise1234::snoise1) to within 1.2e-7.
/// Period 256.
///
/// ```
/// use surflet::reference::sdnoise1234::sdnoise1;
/// let (v, [dx]) = sdnoise1(-292.51571655273438);
/// assert_eq!((v, dx), (-0.55711889266967773, 0.16960525512695312)); // C output
/// // The derivative is the slope of the value.
/// let h = 1e-3;
/// let slope = (sdnoise1(0.3 + h).0 - sdnoise1(0.3 - h).0) / (2.0 * h);
/// assert!((slope - sdnoise1(0.3).1[0]).abs() < 1e-3);
/// ```
pub fn sdnoise1(x: f32) -> (f32, [f32; 1]) {
    let i0 = fast_floor(x);
    let i1 = i0.wrapping_add(1);
    let x0 = x - i0 as f32;
    let x1 = x0 - 1.0;

    let x20 = x0 * x0;
    let t0 = 1.0 - x20;
    let t20 = t0 * t0;
    let t40 = t20 * t20;
    let gx0 = grad1(perm((i0 & 0xff) as usize));
    let n0 = t40 * gx0 * x0;

    let x21 = x1 * x1;
    let t1 = 1.0 - x21;
    let t21 = t1 * t1;
    let t41 = t21 * t21;
    let gx1 = grad1(perm((i1 & 0xff) as usize));
    let n1 = t41 * gx1 * x1;

    let mut d = t20 * t0 * gx0 * x20;
    d += t21 * t1 * gx1 * x21;
    d *= -8.0;
    d += t40 * gx0 + t41 * gx1;
    d *= 0.25;

    (0.25 * (n0 + n1), [d])
}

#[inline(always)]
fn grad1(hash: usize) -> f32 {
    let h = hash & 15;
    let g = 1.0f32 + (h & 7) as f32;
    if h & 8 != 0 { -g } else { g }
}

/// 2D simplex noise and its gradient: `sdnoise2` of `sdnoise1234.c`.
///
/// Returns `(value, [d/dx, d/dy])`. Gradients (±1, 0), (0, ±1), (±1, ±1),
/// radius² 0.5, scale 40: the value peaks near ±0.570 (not ±1), derivative
/// components near ±3.7. **A different function from
/// [`snoise2`](super::simplexnoise1234::snoise2)**, which uses
/// (±1, ±2)/(±2, ±1) gradients and `double` skew constants. Hashed with
/// period 256 in the skewed lattice (not along the axes).
///
/// ```
/// use surflet::reference::sdnoise1234::sdnoise2;
/// use surflet::reference::simplexnoise1234::snoise2;
/// // A row of the C library's output, reproduced bit for bit...
/// let (v, [dx, dy]) = sdnoise2(0.0, -0.70710676908493042);
/// assert_eq!(v, -0.20774690806865692);
/// assert_eq!((dx, dy), (0.74795842170715332, 1.9251132011413574));
/// // ...which is not what snoise2 gives at the same point.
/// assert_eq!(snoise2(0.0, -0.70710676908493042), 0.10401564836502075);
/// ```
pub fn sdnoise2(x: f32, y: f32) -> (f32, [f32; 2]) {
    let s = (x + y) * F2;
    let xs = x + s;
    let ys = y + s;
    let i = fast_floor(xs);
    let j = fast_floor(ys);

    let t = i.wrapping_add(j) as f32 * G2;
    let cx = i as f32 - t; // unskewed cell origin (C: X0, Y0)
    let cy = j as f32 - t;
    let x0 = x - cx;
    let y0 = y - cy;

    let (i1, j1) = if x0 > y0 { (1, 0) } else { (0, 1) };

    let x1 = x0 - i1 as f32 + G2;
    let y1 = y0 - j1 as f32 + G2;
    let x2 = x0 - 1.0 + 2.0 * G2;
    let y2 = y0 - 1.0 + 2.0 * G2;

    let ii = (i & 0xff) as usize;
    let jj = (j & 0xff) as usize;
    let g = |a: usize, b: usize| GRAD2[perm(ii + a + perm(jj + b)) & 7];

    let c0 = Corner::new(0.5 - x0 * x0 - y0 * y0, [x0, y0], || g(0, 0));
    let c1 = Corner::new(0.5 - x1 * x1 - y1 * y1, [x1, y1], || g(i1, j1));
    let c2 = Corner::new(0.5 - x2 * x2 - y2 * y2, [x2, y2], || g(1, 1));

    let noise = 40.0 * (c0.n + c1.n + c2.n);
    let d = derivative(&[(c0, [x0, y0]), (c1, [x1, y1]), (c2, [x2, y2])], 40.0);
    (noise, d)
}

/// 3D simplex noise and its gradient: `sdnoise3` of `sdnoise1234.c`.
///
/// Returns `(value, [d/dx, d/dy, d/dz])`. Cube-edge gradients from the C's
/// lookup table, radius² 0.5, scale 72: the value peaks near ±0.937,
/// derivative components near ±6.4. **A different function from
/// [`snoise3`](super::simplexnoise1234::snoise3)** (other gradient order,
/// `float` rather than `double` skew constants). Hashed with period 256 in
/// the skewed lattice (not along the axes).
///
/// ```
/// use surflet::reference::sdnoise1234::sdnoise3;
/// // A row of the C library's output, reproduced bit for bit.
/// let (v, d) = sdnoise3(0.0, -0.70710676908493042, 1.1447298526763916);
/// assert_eq!(v, 0.25525170564651489);
/// assert_eq!(d, [0.10868927091360092, 0.14865607023239136, -2.3697118759155273]);
/// ```
pub fn sdnoise3(x: f32, y: f32, z: f32) -> (f32, [f32; 3]) {
    let s = (x + y + z) * F3;
    let xs = x + s;
    let ys = y + s;
    let zs = z + s;
    let i = fast_floor(xs);
    let j = fast_floor(ys);
    let k = fast_floor(zs);

    let t = i.wrapping_add(j).wrapping_add(k) as f32 * G3;
    let cx = i as f32 - t;
    let cy = j as f32 - t;
    let cz = k as f32 - t;
    let x0 = x - cx;
    let y0 = y - cy;
    let z0 = z - cz;

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

    let p1 = [
        x0 - i1 as f32 + G3,
        y0 - j1 as f32 + G3,
        z0 - k1 as f32 + G3,
    ];
    let p2 = [
        x0 - i2 as f32 + 2.0 * G3,
        y0 - j2 as f32 + 2.0 * G3,
        z0 - k2 as f32 + 2.0 * G3,
    ];
    let p3 = [
        x0 - 1.0 + 3.0 * G3,
        y0 - 1.0 + 3.0 * G3,
        z0 - 1.0 + 3.0 * G3,
    ];
    let p0 = [x0, y0, z0];

    let ii = (i & 0xff) as usize;
    let jj = (j & 0xff) as usize;
    let kk = (k & 0xff) as usize;
    let g = |a: usize, b: usize, c: usize| GRAD3[perm(ii + a + perm(jj + b + perm(kk + c))) & 15];
    let r2 = |p: [f32; 3]| 0.5 - p[0] * p[0] - p[1] * p[1] - p[2] * p[2];

    let c0 = Corner::new(r2(p0), p0, || g(0, 0, 0));
    let c1 = Corner::new(r2(p1), p1, || g(i1, j1, k1));
    let c2 = Corner::new(r2(p2), p2, || g(i2, j2, k2));
    let c3 = Corner::new(r2(p3), p3, || g(1, 1, 1));

    let noise = 72.0 * (c0.n + c1.n + c2.n + c3.n);
    let d = derivative(&[(c0, p0), (c1, p1), (c2, p2), (c3, p3)], 72.0);
    (noise, d)
}

/// 4D simplex noise and its gradient: `sdnoise4` of `sdnoise1234.c`.
///
/// Returns `(value, [d/dx, d/dy, d/dz, d/dw])`. Tesseract-edge gradients,
/// radius² 0.5, scale 62: the value peaks near ±0.988, derivative
/// components near ±5.7. **A different function from
/// [`snoise4`](super::simplexnoise1234::snoise4)** (other gradient order,
/// `float` skew constants). Corner order from the C's 64-entry table.
/// Hashed with period 256 in the skewed lattice (not along the axes).
///
/// ```
/// use surflet::reference::sdnoise1234::sdnoise4;
/// // A row of the C library's output, reproduced bit for bit.
/// let (v, d) = sdnoise4(0.0, -0.70710676908493042, 1.1447298526763916, -1.9318516254425049);
/// assert_eq!(v, -0.49623844027519226);
/// assert_eq!(d[0], -2.0606799125671387);
/// assert_eq!(d[3], -1.3433346748352051);
/// ```
pub fn sdnoise4(x: f32, y: f32, z: f32, w: f32) -> (f32, [f32; 4]) {
    let s = (x + y + z + w) * F4;
    let xs = x + s;
    let ys = y + s;
    let zs = z + s;
    let ws = w + s;
    let i = fast_floor(xs);
    let j = fast_floor(ys);
    let k = fast_floor(zs);
    let l = fast_floor(ws);

    // (i + j + k + l) * G4: int * float converts the int sum to float.
    let t = i.wrapping_add(j).wrapping_add(k).wrapping_add(l) as f32 * G4;
    let x0 = x - (i as f32 - t);
    let y0 = y - (j as f32 - t);
    let z0 = z - (k as f32 - t);
    let w0 = w - (l as f32 - t);

    let c1 = if x0 > y0 { 32 } else { 0 };
    let c2 = if x0 > z0 { 16 } else { 0 };
    let c3 = if y0 > z0 { 8 } else { 0 };
    let c4 = if x0 > w0 { 4 } else { 0 };
    let c5 = if y0 > w0 { 2 } else { 0 };
    let c6 = if z0 > w0 { 1 } else { 0 };
    let sc = SIMPLEX[c1 | c2 | c3 | c4 | c5 | c6];
    // Corner n (1..=3) steps along every axis whose rank is >= 4 - n.
    let off = |rank: u8| sc.map(|r| usize::from(r >= rank));
    let o1 = off(3);
    let o2 = off(2);
    let o3 = off(1);

    let p0 = [x0, y0, z0, w0];
    let p1: [f32; 4] = core::array::from_fn(|a| p0[a] - o1[a] as f32 + G4);
    let p2: [f32; 4] = core::array::from_fn(|a| p0[a] - o2[a] as f32 + 2.0 * G4);
    let p3: [f32; 4] = core::array::from_fn(|a| p0[a] - o3[a] as f32 + 3.0 * G4);
    let p4: [f32; 4] = core::array::from_fn(|a| p0[a] - 1.0 + 4.0 * G4);

    let ii = (i & 0xff) as usize;
    let jj = (j & 0xff) as usize;
    let kk = (k & 0xff) as usize;
    let ll = (l & 0xff) as usize;
    let g = |o: [usize; 4]| {
        GRAD4[perm(ii + o[0] + perm(jj + o[1] + perm(kk + o[2] + perm(ll + o[3])))) & 31]
    };
    let r2 = |p: [f32; 4]| 0.5 - p[0] * p[0] - p[1] * p[1] - p[2] * p[2] - p[3] * p[3];

    let c0 = Corner::new(r2(p0), p0, || g([0; 4]));
    let c1 = Corner::new(r2(p1), p1, || g(o1));
    let c2 = Corner::new(r2(p2), p2, || g(o2));
    let c3 = Corner::new(r2(p3), p3, || g(o3));
    let c4 = Corner::new(r2(p4), p4, || g([1; 4]));

    let noise = 62.0 * (c0.n + c1.n + c2.n + c3.n + c4.n);
    let d = derivative(&[(c0, p0), (c1, p1), (c2, p2), (c3, p3), (c4, p4)], 62.0);
    (noise, d)
}
