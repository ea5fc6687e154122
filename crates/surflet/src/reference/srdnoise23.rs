//! Stefan Gustavson's `srdnoise23.c`: simplex noise with rotating gradients
//! and analytic derivative, 2D and 3D, in `f32` (`srdnoise2`, `srdnoise3`).
//!
//! Ported from `stegu/perlin-noise`, `src/srdnoise23.c` (public domain), at
//! commit `a624f5a18395c0ebc04738191efddf1dbd2cad9d`, operation for
//! operation; bit-identical to the C compiled for x86-64 SSE with
//! `-ffp-contract=off` on every input the C handles (see below). The extra
//! argument `t` rotates every lattice gradient by the angle `t` (radians),
//! which animates the noise as "flow noise" (Perlin & Neyret 2001) without
//! translating it; the derivatives are those of the rotated field.
//!
//! Quirks kept on purpose:
//!
//! * **`double` skew constants and `double` trigonometry.** `F2 G2 F3 G3`
//!   are 9-digit `double` literals as in `simplexnoise1234.c`, so the skew,
//!   unskew and corner offsets are computed in `f64` and rounded to `f32` at
//!   each C assignment; `sin(t)` and `cos(t)` are evaluated in `double` by
//!   the C library and rounded to `float`. Rust's `f64::sin`/`cos` call the
//!   same libm on Linux (glibc), which is what makes the port bit-exact
//!   there; another libm may differ in the last bit of `sin`/`cos`.
//! * **Gradients**: 2D (±1, 0), (0, ±1), (±1, ±1) (as `sdnoise2`) rotated in
//!   the plane; 3D rotates in the plane of two orthogonal vectors per corner
//!   (a cube edge and a (±a, ±a, ±a) diagonal, a = √2/√3 as the `float`
//!   literal `0.81649658f`), so at `t = 0` it matches neither `snoise3` nor
//!   `sdnoise3`.
//! * **Radius² 0.5, scale 40 (2D) and 72 (3D)**; the value stays within
//!   about ±0.570 (2D) and ±0.944 (3D), not ±1.
//! * **Period 256 in the skewed lattice**, which is not axis-aligned:
//!   shifting one coordinate by 256 does not reproduce the noise.
//!
//! **Defined where the C is not.** The C wraps lattice indices with
//! `i % 256`, which is negative for negative cells, and then reads before the
//! start of its permutation table (undefined behaviour; different compiler
//! settings give different results). This port wraps with `& 255`, which
//! agrees with `% 256` for every non-negative cell and wraps negative cells
//! the way the other Gustavson libraries do. Float→int conversions of NaN, ±∞ and
//! values beyond ±2³¹ saturate as Rust's `as` does (NaN → 0) and integer
//! overflow wraps, so no input panics or indexes out of bounds.

#![allow(clippy::excessive_precision)] // the C's 9-digit literals, kept verbatim

// Only `no_std` builds need it: their float maths (`floor`, `round`, ...) comes
// from `libm` through `Math`.
#[cfg(not(feature = "std"))]
use crate::prelude_internal::*;

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

/// The C `grad2`: (±1, 0), (0, ±1), (±1, ±1), before rotation.
#[rustfmt::skip] // the C table's layout, row for row
const GRAD2: [[f32; 2]; 8] = [
    [-1.0, -1.0], [1.0, 0.0], [-1.0, 0.0], [1.0, 1.0],
    [-1.0, 1.0], [0.0, -1.0], [0.0, 1.0], [1.0, -1.0],
];

/// `a = sqrt(2)/sqrt(3)`, written in the C as the float literal `0.81649658f`.
const A: f32 = 0.81649658;

/// The C `grad3u`: first axis of each corner's rotation plane.
#[rustfmt::skip] // the C table's layout, row for row
const GRAD3U: [[f32; 3]; 16] = [
    [1.0, 0.0, 1.0], [0.0, 1.0, 1.0], // 12 cube edges
    [-1.0, 0.0, 1.0], [0.0, -1.0, 1.0],
    [1.0, 0.0, -1.0], [0.0, 1.0, -1.0],
    [-1.0, 0.0, -1.0], [0.0, -1.0, -1.0],
    [A, A, A], [-A, A, -A],
    [-A, -A, A], [A, -A, -A],
    [-A, A, A], [A, -A, A],
    [A, -A, -A], [-A, A, -A],
];

/// The C `grad3v`: second axis of each corner's rotation plane, orthogonal
/// to the matching `GRAD3U` entry.
#[rustfmt::skip] // the C table's layout, row for row
const GRAD3V: [[f32; 3]; 16] = [
    [-A, A, A], [-A, -A, A],
    [A, -A, A], [A, A, A],
    [-A, -A, -A], [A, -A, -A],
    [A, A, -A], [-A, A, -A],
    [1.0, -1.0, 0.0], [1.0, 1.0, 0.0],
    [-1.0, 1.0, 0.0], [-1.0, -1.0, 0.0],
    [1.0, 0.0, 1.0], [-1.0, 0.0, 1.0], // 4 repeats to make 16
    [0.0, 1.0, -1.0], [0.0, -1.0, -1.0],
];

// `double` literals in the C: every expression using them is evaluated in
// double.
const F2: f64 = 0.366025403;
const G2: f64 = 0.211324865;
const F3: f64 = 0.333333333;
const G3: f64 = 0.166666667;

/// Squared kernel radius of the 3D corners. Earlier revisions of the C used
/// 0.6 here with a scale of 28; the reference data of revision `a624f5a`
/// match only 0.5 with 72 (every 3D row differs otherwise).
const R3: f32 = 0.5;
/// Output scale of `srdnoise3` (see [`R3`]).
const S3: f32 = 72.0;

/// The C `FASTFLOOR`: `((int)x <= x) ? (int)x : (int)x - 1`, a true floor
/// for every value an `int` holds. (Earlier revisions of the file used
/// `(x > 0) ? ...` or a strict `<`; the reference data match only `<=`.)
/// The C cast is undefined beyond that; `as` saturates (NaN → 0) and the
/// `- 1` wraps so nothing panics.
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

/// The C wraps with `i % 256`, which reads out of bounds for negative
/// cells; `& 255` is identical for `i >= 0` and stays in bounds otherwise.
#[inline(always)]
fn wrap(i: i32) -> usize {
    (i & 0xff) as usize
}

/// `gx*x + gy*y + ...`, summed left to right like the C `graddotp2/3`.
#[inline(always)]
fn dot<const D: usize>(g: [f32; D], p: [f32; D]) -> f32 {
    let mut s = g[0] * p[0];
    for (ga, pa) in g.iter().zip(p.iter()).skip(1) {
        s += ga * pa;
    }
    s
}

/// The per-corner quantities the C keeps in `tN`, `t2N`, `t4N`, `gN` and
/// `nN`; outside the kernel radius the C zeroes all of them, which is what
/// [`Corner::ZERO`] holds.
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

    /// The C tests `t < 0`, so NaN goes on to the lookup and stays NaN.
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

/// The C's derivative block for both dimensions:
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

/// 2D simplex noise with rotating gradients, and its gradient: `srdnoise2`
/// of Gustavson's `srdnoise23.c`.
///
/// Returns `(value, [d/dx, d/dy])`. Each lattice gradient (one of (±1, 0),
/// (0, ±1), (±1, ±1)) is rotated by the angle `t` (radians) before use, so
/// `t` animates the pattern in place; at `t = 0` this equals
/// [`sdnoise2`](super::sdnoise1234::sdnoise2) up to rounding of the `double`
/// skew constants (≤ 1e-4 apart over [-256, 256]², where the offset
/// arithmetic cancels). Radius² 0.5, scale 40: the value stays within about
/// ±0.570. Hashed with period 256 in the skewed lattice (not along the
/// axes); period 2π in `t` up to the rounding of `sin`/`cos`.
///
/// For negative cells the C reads outside its permutation table; this port
/// wraps them with `& 255` instead (see the [module docs](self)).
///
/// ```
/// use surflet::reference::srdnoise23::srdnoise2;
/// // A row of the C library's output, reproduced bit for bit.
/// let (v, [dx, dy]) = srdnoise2(28.755924224853516, 178.663818359375, 0.81673663854598999);
/// assert_eq!(v, -0.11842451989650726);
/// assert_eq!((dx, dy), (-0.25959059596061707, 1.0251858234405518));
/// // Rotating the gradients changes the value in place.
/// assert_ne!(srdnoise2(0.25, 1.5, 0.0).0, srdnoise2(0.25, 1.5, 1.0).0);
/// ```
pub fn srdnoise2(x: f32, y: f32, t: f32) -> (f32, [f32; 2]) {
    // sin/cos of a float argument: promoted to double, rounded back.
    let sin_t = f64::from(t).sin() as f32;
    let cos_t = f64::from(t).cos() as f32;

    let s = (f64::from(x + y) * F2) as f32;
    let xs = x + s;
    let ys = y + s;
    let i = fast_floor(xs);
    let j = fast_floor(ys);

    let tt = (f64::from(i.wrapping_add(j) as f32) * G2) as f32;
    let x0 = x - (i as f32 - tt);
    let y0 = y - (j as f32 - tt);

    let (i1, j1) = if x0 > y0 { (1, 0) } else { (0, 1) };

    let p0 = [x0, y0];
    let p1 = [add_d(x0 - i1 as f32, G2), add_d(y0 - j1 as f32, G2)];
    let p2 = [add_d(x0 - 1.0, 2.0 * G2), add_d(y0 - 1.0, 2.0 * G2)];

    let ii = wrap(i);
    let jj = wrap(j);
    let g = |a: usize, b: usize| {
        let [gx, gy] = GRAD2[perm(ii + a + perm(jj + b)) & 7];
        [cos_t * gx - sin_t * gy, sin_t * gx + cos_t * gy]
    };
    let r2 = |p: [f32; 2]| 0.5 - p[0] * p[0] - p[1] * p[1];

    let c0 = Corner::new(r2(p0), p0, || g(0, 0));
    let c1 = Corner::new(r2(p1), p1, || g(i1, j1));
    let c2 = Corner::new(r2(p2), p2, || g(1, 1));

    let noise = 40.0 * (c0.n + c1.n + c2.n);
    let d = derivative(&[(c0, p0), (c1, p1), (c2, p2)], 40.0);
    (noise, d)
}

/// 3D simplex noise with rotating gradients, and its gradient: `srdnoise3`
/// of `srdnoise23.c`.
///
/// Returns `(value, [d/dx, d/dy, d/dz])`. Each corner's gradient is
/// `cos(t)·u + sin(t)·v` for two orthogonal vectors `u`, `v` from the C's
/// tables, so the gradients turn in different planes (the C's comments call
/// this "a hack": they do not stay uncorrelated, but it looks right). Radius² 0.5,
/// scale 72: the value stays within about ±0.944. Hashed with period 256 in
/// the skewed lattice (not along the axes).
///
/// For negative cells the C reads outside its permutation table; this port
/// wraps them with `& 255` instead (see the [module docs](self)).
///
/// ```
/// use surflet::reference::srdnoise23::srdnoise3;
/// // A row of the C library's output, reproduced bit for bit.
/// let (v, d) = srdnoise3(0.0, 0.70710676908493042, 1.1447298526763916, -0.044878136366605759);
/// assert_eq!(v, 0.055073235183954239);
/// assert_eq!(d, [0.26920923590660095, -1.9989947080612183, -0.15971893072128296]);
/// ```
pub fn srdnoise3(x: f32, y: f32, z: f32, t: f32) -> (f32, [f32; 3]) {
    let sin_t = f64::from(t).sin() as f32;
    let cos_t = f64::from(t).cos() as f32;

    let s = (f64::from(x + y + z) * F3) as f32;
    let xs = x + s;
    let ys = y + s;
    let zs = z + s;
    let i = fast_floor(xs);
    let j = fast_floor(ys);
    let k = fast_floor(zs);

    let tt = (f64::from(i.wrapping_add(j).wrapping_add(k) as f32) * G3) as f32;
    let x0 = x - (i as f32 - tt);
    let y0 = y - (j as f32 - tt);
    let z0 = z - (k as f32 - tt);

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

    let p0 = [x0, y0, z0];
    let p1 = [
        add_d(x0 - i1 as f32, G3),
        add_d(y0 - j1 as f32, G3),
        add_d(z0 - k1 as f32, G3),
    ];
    let p2 = [
        add_d(x0 - i2 as f32, 2.0 * G3),
        add_d(y0 - j2 as f32, 2.0 * G3),
        add_d(z0 - k2 as f32, 2.0 * G3),
    ];
    let p3 = [
        add_d(x0 - 1.0, 3.0 * G3),
        add_d(y0 - 1.0, 3.0 * G3),
        add_d(z0 - 1.0, 3.0 * G3),
    ];

    let ii = wrap(i);
    let jj = wrap(j);
    let kk = wrap(k);
    let g = |a: usize, b: usize, c: usize| {
        let h = perm(ii + a + perm(jj + b + perm(kk + c))) & 15;
        let (u, v) = (GRAD3U[h], GRAD3V[h]);
        [
            cos_t * u[0] + sin_t * v[0],
            cos_t * u[1] + sin_t * v[1],
            cos_t * u[2] + sin_t * v[2],
        ]
    };
    let r2 = |p: [f32; 3]| R3 - p[0] * p[0] - p[1] * p[1] - p[2] * p[2];

    let c0 = Corner::new(r2(p0), p0, || g(0, 0, 0));
    let c1 = Corner::new(r2(p1), p1, || g(i1, j1, k1));
    let c2 = Corner::new(r2(p2), p2, || g(i2, j2, k2));
    let c3 = Corner::new(r2(p3), p3, || g(1, 1, 1));

    let noise = S3 * (c0.n + c1.n + c2.n + c3.n);
    let d = derivative(&[(c0, p0), (c1, p1), (c2, p2), (c3, p3)], S3);
    (noise, d)
}
