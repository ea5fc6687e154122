//! Value and Perlin noise: the hypercube lattice family, 1D–4D, in one kernel.
//!
//! Each of the 2^D cell corners gets either a value (value noise) or a
//! gradient ramp `g · (p − corner)` (Perlin noise). The corners are blended
//! with the quintic fade along z and w first, then x, and y last: the
//! blend over every axis but y gives a [`Column`] per y side of the cell,
//! `a + b·d_y` with the y part of the ramps kept apart, and [`finish`]
//! blends the two along y. So the points of a grid that share a y cell and
//! their other coordinates share their columns, and each is left with one
//! step along y (quick-noise's association; measured against the other
//! orders in `docs/PERF-HISTORY.md`, "The arithmetic chosen"): the band
//! engine (`band.rs`: `RowCache`, `grid_rows`, `octave_rows`) makes the
//! columns once per band of rows. 1D noise has only x, which is then the
//! last axis.
//!
//! The code blends in *kernel order*: the axes rotated so that y comes
//! first ([`y_first`]), axis 0 of that order is the last one blended and
//! axes 1.. (z, w, x) are blended in turn. The gradient is carried through
//! the blend exactly: blending `lo` and `hi` with weight `u(t)` contributes
//! `lerp(u, ∇lo, ∇hi)` plus `u'(t) (hi − lo)` along the blended axis.

use super::{
    LaneParams, MARGIN, PRIMES, fade, lattice_value, lowbias32, poison, split, split_periodic,
};
use crate::simd::Simd;

/// 1 / sup |Perlin| for each dimension's gradient set (index D − 1), so that
/// the normalised noise spans [-1, 1] (times [`MARGIN`]). Derived in `docs/RANGES.md`:
/// 1D 1/(1/2); 2D 1/(1/√2) (centre of a cell, diagonals pointing in); 3D and
/// 4D are the maxima over all gradient assignments of Perlin's 12 edge and the
/// 32 edge sets, 1.03635381121180251927 and 1.53658233404681918756.
pub(crate) const PERLIN_SCALE: [f64; 4] = [
    2.0,
    core::f64::consts::SQRT_2,
    0.9649214285521909,
    0.6507949348645383,
];

/// `a` in kernel order: y, z, w, then x (a rotation; 1D is unchanged).
#[inline(always)]
pub(crate) fn y_first<T: Copy, const D: usize>(a: [T; D]) -> [T; D] {
    let mut out = a;
    for i in 0..D {
        out[i] = a[(i + 1) % D];
    }
    out
}

/// The inverse of [`y_first`]: kernel order back to x, y, z, w.
#[inline(always)]
pub(crate) fn from_y_first<T: Copy, const D: usize>(a: [T; D]) -> [T; D] {
    let mut out = a;
    for i in 0..D {
        out[(i + 1) % D] = a[i];
    }
    out
}

/// The per-axis quantities of a batch of points: exact cell and fraction,
/// the primed lattice coordinates of the near and far corner, the fade and
/// its derivative.
#[derive(Clone, Copy)]
pub(crate) struct Axes<S: Simd, const D: usize> {
    /// The cell, an integer-valued float (reduced into the tile if
    /// periodic).
    pub floor: [S::F; D],
    /// The cell modulo 2^32, as the hash sees it.
    pub cell: [S::U; D],
    pub frac: [S::F; D],
    pub u: [S::F; D],
    pub du: [S::F; D],
    pub lo: [S::U; D],
    pub hi: [S::U; D],
}

impl<S: Simd, const D: usize> Axes<S, D> {
    /// Every quantity in kernel order ([`y_first`]).
    #[inline(always)]
    pub(crate) fn y_first(self) -> Self {
        Axes {
            floor: y_first(self.floor),
            cell: y_first(self.cell),
            frac: y_first(self.frac),
            u: y_first(self.u),
            du: y_first(self.du),
            lo: y_first(self.lo),
            hi: y_first(self.hi),
        }
    }
}

/// One axis's quantities at coordinates `x` on axis `a`: the cell, the
/// cell modulo 2^32, the fraction, the primed near and far corner, the
/// fade and its derivative.
#[inline(always)]
#[allow(clippy::type_complexity, reason = "the fields of one axis of `Axes`")]
pub(super) fn axis<S: Simd, const PERIODIC: bool>(
    s: S,
    field: &LaneParams<S>,
    a: usize,
    x: S::F,
) -> (S::F, S::U, S::F, S::U, S::U, S::F, S::F) {
    let (fl, fr) = if PERIODIC {
        split_periodic(s, x, field.period.f[a], field.period.inv[a])
    } else {
        split(s, x)
    };
    let c = s.cell(fl);
    let prime = s.u_splat(PRIMES[a]);
    let lo = s.u_mul(c, prime);
    let hi = if PERIODIC {
        // The cell after the last one of the period is cell 0.
        let next = s.u_add(c, s.u_splat(1));
        let at_end = s.u_eq(next, field.period.cells[a]);
        s.u_mul(s.u_blend(at_end, s.u_splat(0), next), prime)
    } else {
        s.u_add(lo, prime)
    };
    let (u, du) = fade(s, fr);
    (fl, c, fr, lo, hi, u, du)
}

/// Splits each coordinate and fades it (in axis order).
#[inline(always)]
pub(crate) fn axes<S: Simd, const D: usize, const PERIODIC: bool>(
    s: S,
    field: &LaneParams<S>,
    p: [S::F; D],
) -> Axes<S, D> {
    let zero = s.zero();
    let mut ax = Axes {
        floor: [zero; D],
        cell: [s.u_splat(0); D],
        frac: [zero; D],
        u: [zero; D],
        du: [zero; D],
        lo: [s.u_splat(0); D],
        hi: [s.u_splat(0); D],
    };
    for a in 0..D {
        (
            ax.floor[a],
            ax.cell[a],
            ax.frac[a],
            ax.lo[a],
            ax.hi[a],
            ax.u[a],
            ax.du[a],
        ) = axis::<S, PERIODIC>(s, field, a, p[a]);
    }
    ax
}

/// The corners on one side of the cell along the last axis (y), blended
/// over the other axes (z, w, then x): what every point with the same
/// cell and the same coordinates on those axes shares.
///
/// A corner's ramp is `g · (p − corner) = g_y·d_y + r`, with `r` the sum
/// over the other axes. Blending over those axes, and keeping the `r` part
/// (`a`) apart from the `g_y` part (`b`), leaves the noise as
/// `lerp(u_y, a₀ + b₀·d_y, a₁ + b₁·(d_y − 1))`. Fields are in kernel order
/// ([`y_first`]): index 0 is y.
#[derive(Clone, Copy)]
pub(crate) struct Column<S: Simd, const D: usize> {
    /// The blended `r` (Perlin) or the blended lattice value.
    pub a: S::F,
    /// The blended y gradient component (Perlin only).
    pub b: S::F,
    /// ∂a/∂axis for kernel axes 1 to D − 1 (entry 0 unused).
    pub da: [S::F; D],
    /// ∂b/∂axis for kernel axes 1 to D − 1 (entry 0 unused; Perlin only).
    pub db: [S::F; D],
}

/// The [`Column`] at the primed lattice position `yp` of kernel axis 0
/// (y), for the other axes of `ax` (in kernel order).
#[inline(always)]
pub(crate) fn column<S: Simd, const D: usize, const PERLIN: bool>(
    s: S,
    key: S::U,
    yp: S::U,
    ax: &Axes<S, D>,
) -> Column<S, D> {
    // Blending forms the same nodes breadth first (over an array of the
    // corners) or depth first (over a stack of partial nodes), with the same
    // bits; each is the faster where it is used (callgrind, AVX2: 4D value
    // noise 60 instructions a sample wide, 189 deep; 4D Perlin 846 wide,
    // 285 deep).
    if D <= 3 || !PERLIN {
        column_wide::<S, D, PERLIN>(s, key, yp, ax)
    } else {
        column_deep::<S, D, PERLIN>(s, key, yp, ax)
    }
}

/// Corner `k`'s node at this y position (bit a − 1 of `k` set = far side
/// on kernel axis a).
#[inline(always)]
fn corner_node<S: Simd, const D: usize, const PERLIN: bool>(
    s: S,
    base: S::U,
    ax: &Axes<S, D>,
    k: usize,
) -> Column<S, D> {
    let mut h = base;
    for a in 1..D {
        let far = k >> (a - 1) & 1 == 1;
        h = s.u_xor(h, if far { ax.hi[a] } else { ax.lo[a] });
    }
    let h = lowbias32(s, h);
    if PERLIN {
        Column::ramp(s, y_first(gradient::<S, D>(s, h)), &ax.frac, k)
    } else {
        Column::value(s, lattice_value(s, h))
    }
}

/// [`column`] breadth first: all corners, then each axis's pairs.
#[inline(always)]
fn column_wide<S: Simd, const D: usize, const PERLIN: bool>(
    s: S,
    key: S::U,
    yp: S::U,
    ax: &Axes<S, D>,
) -> Column<S, D> {
    let base = s.u_xor(key, yp);
    let mut node = [Column::zero(s); 8];
    for k in 0..(1usize << (D - 1)) {
        node[k] = corner_node::<S, D, PERLIN>(s, base, ax, k);
    }
    // After each axis the remaining nodes are re-indexed by their bits
    // above it.
    let mut n = 1usize << (D - 1);
    for a in 1..D {
        n /= 2;
        for m in 0..n {
            node[m] =
                Column::blend::<PERLIN>(s, a, &node[2 * m], &node[2 * m + 1], ax.u[a], ax.du[a]);
        }
    }
    node[0]
}

/// [`column`] depth first: stack[t] is the node over axes 1..=t + 1 on the
/// near side of axis t + 2, waiting for its far sibling. Only one node per
/// axis is live, where breadth first holds every corner (for 4D Perlin
/// noise, 8 corners of 10 vectors, zeroed per call).
#[inline(always)]
fn column_deep<S: Simd, const D: usize, const PERLIN: bool>(
    s: S,
    key: S::U,
    yp: S::U,
    ax: &Axes<S, D>,
) -> Column<S, D> {
    let base = s.u_xor(key, yp);
    let mut stack = [Column::zero(s); 4];
    for k in 0..(1usize << (D - 1)) {
        let mut node = corner_node::<S, D, PERLIN>(s, base, ax, k);
        let mut t = 0;
        while t + 1 < D && k >> t & 1 == 1 {
            node = Column::blend::<PERLIN>(s, t + 1, &stack[t], &node, ax.u[t + 1], ax.du[t + 1]);
            t += 1;
        }
        // The last corner completes every pair: its node lands in
        // stack[D − 1].
        stack[t] = node;
    }
    stack[D - 1]
}

impl<S: Simd, const D: usize> Column<S, D> {
    #[inline(always)]
    pub(crate) fn zero(s: S) -> Self {
        let z = s.zero();
        Column {
            a: z,
            b: z,
            da: [z; D],
            db: [z; D],
        }
    }

    /// A value-noise corner.
    #[inline(always)]
    pub(crate) fn value(s: S, v: S::F) -> Self {
        Column {
            a: v,
            ..Self::zero(s)
        }
    }

    /// A Perlin corner with gradient `g` (kernel order) on the sides `k`
    /// (bit a − 1 set = far side on kernel axis a) of the axes after y: `a`
    /// is the ramp over those axes, summed in kernel order.
    #[inline(always)]
    pub(crate) fn ramp(s: S, g: [S::F; D], frac: &[S::F; D], k: usize) -> Self {
        let mut r = s.zero();
        for a in 1..D {
            let d = if k >> (a - 1) & 1 == 1 {
                s.sub(frac[a], s.c(1.0))
            } else {
                frac[a]
            };
            let t = s.mul(g[a], d);
            r = if a == 1 { t } else { s.add(r, t) };
        }
        Column {
            a: r,
            b: g[0],
            da: g,
            db: [s.zero(); D],
        }
    }

    /// Blends the near node `l` and far node `h` along axis `a` (≥ 1) with
    /// fade `u` and its derivative `du`: `l + u (h − l)`, whose derivative
    /// is `lerp(u, ∇l, ∇h)` plus `u′ (h − l)` along `a`. Nodes over axes
    /// below `a` have zero derivative along the axes above it where their
    /// corners do (value noise; Perlin's `b`), so those stay zero, skipped
    /// at compile time.
    #[inline(always)]
    pub(crate) fn blend<const PERLIN: bool>(
        s: S,
        a: usize,
        l: &Self,
        h: &Self,
        u: S::F,
        du: S::F,
    ) -> Self {
        let z = s.zero();
        let diff = s.sub(h.a, l.a);
        let mut da = [z; D];
        for b in 1..D {
            if !PERLIN && b > a {
                continue;
            }
            da[b] = if !PERLIN && b == a {
                s.mul(du, diff)
            } else {
                let g = s.add(l.da[b], s.mul(u, s.sub(h.da[b], l.da[b])));
                if b == a { s.add(g, s.mul(du, diff)) } else { g }
            };
        }
        let mut db = [z; D];
        let mut bv = z;
        if PERLIN {
            let bdiff = s.sub(h.b, l.b);
            for b in 1..a {
                db[b] = s.add(l.db[b], s.mul(u, s.sub(h.db[b], l.db[b])));
            }
            // The corners' b are constants: along this axis only the
            // fade's derivative moves it.
            db[a] = s.mul(du, bdiff);
            bv = s.add(l.b, s.mul(u, bdiff));
        }
        Column {
            a: s.add(l.a, s.mul(u, diff)),
            b: bv,
            da,
            db,
        }
    }
}

/// The noise from the [`Column`]s of the cell's near (`c0`) and far (`c1`)
/// y positions and the y fraction, fade and fade derivative: the value and
/// its gradient in kernel order, Perlin's scaled by `scale`, with NaN for
/// non-finite input (`nan`).
#[inline(always)]
pub(crate) fn finish<S: Simd, const D: usize, const PERLIN: bool>(
    s: S,
    c0: &Column<S, D>,
    c1: &Column<S, D>,
    (frac, u, du): (S::F, S::F, S::F),
    nan: S::F,
    scale: f64,
) -> (S::F, [S::F; D]) {
    let zero = s.zero();
    let d1 = s.sub(frac, s.c(1.0));
    let (v0, v1) = match (PERLIN, D) {
        (false, _) => (c0.a, c1.a),
        (true, 1) => (s.mul(c0.b, frac), s.mul(c1.b, d1)),
        (true, _) => (s.add(c0.a, s.mul(c0.b, frac)), s.add(c1.a, s.mul(c1.b, d1))),
    };
    let diff = s.sub(v1, v0);
    let val = s.add(v0, s.mul(u, diff));
    let mut g = [zero; D];
    g[0] = if PERLIN {
        s.add(s.add(c0.b, s.mul(u, s.sub(c1.b, c0.b))), s.mul(du, diff))
    } else {
        s.mul(du, diff)
    };
    for bi in 1..D {
        let (w0, w1) = if PERLIN {
            (
                s.add(c0.da[bi], s.mul(c0.db[bi], frac)),
                s.add(c1.da[bi], s.mul(c1.db[bi], d1)),
            )
        } else {
            (c0.da[bi], c1.da[bi])
        };
        g[bi] = s.add(w0, s.mul(u, s.sub(w1, w0)));
    }
    if PERLIN {
        let k = s.c(scale);
        for bi in 0..D {
            g[bi] = s.add(s.mul(g[bi], k), nan);
        }
        (s.add(s.mul(val, k), nan), g)
    } else {
        for bi in 0..D {
            g[bi] = s.add(g[bi], nan);
        }
        (s.add(val, nan), g)
    }
}

/// Evaluates value noise (`PERLIN = false`) or Perlin noise at `p`: returns
/// the value and its gradient.
#[inline(always)]
pub(crate) fn hypercube<S: Simd, const D: usize, const PERLIN: bool, const PERIODIC: bool>(
    s: S,
    field: &LaneParams<S>,
    p: [S::F; D],
) -> (S::F, [S::F; D]) {
    let ax = axes::<S, D, PERIODIC>(s, field, p).y_first();
    let c0 = column::<S, D, PERLIN>(s, field.key, ax.lo[0], &ax);
    let c1 = column::<S, D, PERLIN>(s, field.key, ax.hi[0], &ax);
    let (v, g) = finish::<S, D, PERLIN>(
        s,
        &c0,
        &c1,
        (ax.frac[0], ax.u[0], ax.du[0]),
        poison(s, &p),
        SCALE[D - 1],
    );
    (v, from_y_first(g))
}

/// [`PERLIN_SCALE`] with the margin, as [`finish`] takes it.
pub(super) const SCALE: [f64; 4] = [
    PERLIN_SCALE[0] * MARGIN,
    PERLIN_SCALE[1] * MARGIN,
    PERLIN_SCALE[2] * MARGIN,
    PERLIN_SCALE[3] * MARGIN,
];

#[inline(always)]
fn gradient<S: Simd, const D: usize>(s: S, h: S::U) -> [S::F; D] {
    let z = s.zero();
    match D {
        1 => super::resize(&super::grad1(s, h), z),
        2 => super::resize(&super::grad2(s, h), z),
        3 => super::resize(&super::grad3_edges(s, h), z),
        _ => super::resize(&super::grad4_edges(s, h), z),
    }
}
