//! Cellular (Worley) noise, 1D–4D: distances to the nearest feature points.
//!
//! **Feature points.** Cell `c` (an integer vector) holds one point,
//! `c + ½ + j·(u − ½)`, with `j` the jitter in `[0, 1]` and `u ∈ [0, 1)ᴰ`
//! read from the cell's hash (the family's hash: key xor primed cell, then
//! `lowbias32`) 16 bits per axis: axes 0 and 1 from the hash, axes 2 and 3
//! from a second `lowbias32` round of it. So the point lies in the half-open
//! box `B_c = c + ½ + [−j/2, j/2)ᴰ`, inside its cell. No tables, only
//! integer and float lane arithmetic, so SIMD needs no gathers.
//!
//! **Distances.** All five ([`CellularDistance`]) are `Σ t(|dₐ|)`
//! (euclidean-squared `t(x) = x²`, manhattan `x`, hybrid `x² + x`) or
//! `max t(|dₐ|)` (chebyshev, `t(x) = x`), with `t` increasing; euclidean is
//! the square root of euclidean-squared, which is what the search compares.
//! Every one is therefore non-decreasing in each `|dₐ|`: that monotonicity is
//! all the search below needs.
//!
//! **Search, and why it cannot miss a point.** Write the point as cell `q`
//! plus fraction `f ∈ [0, 1)ᴰ`; cell `q + k` has offset `d = b + w` with
//! `b = k + ½ − f` and `|w| ≤ j/2` per axis, so `|dₐ| ≥ Lₐ = max(0, |bₐ| −
//! j/2)` and the distance to its point is at least `dist(L)`: a lower bound
//! from `f` alone, before hashing. The search is branch-and-bound over `k`:
//! axes nested outermost (`D − 1`) to innermost (0), each visiting `kₐ = 0,
//! 1, −1, 2, −2, …`; the partial bound of the axes fixed so far (the sum or
//! max of their `t(Lₐ)`, a lower bound for every cell below, as the other
//! terms are ≥ 0) is compared with the current second-smallest distance
//! `F2` of each lane, and when every lane's bound is ≥ its `F2` that value of
//! `kₐ` is skipped, and so is the rest of that side (`Lₐ` grows with `|kₐ|`
//! on each side, `kₐ = 0` has the smallest, and `F2` only falls). A skipped
//! cell is at least `F2` away and could change neither `F1` nor `F2`, so the
//! result is that of the full infinite lattice: exact for every jitter,
//! with no fixed window at all. (FastNoiseLite's 3ᴰ window is not: at jitter
//! 1 a point near a cell corner can have all 3ᴰ − 1 neighbours' points
//! farther than a point two cells away, which it misses.)
//!
//! The returns that read the nearest point only (`f1`, the cell value) keep
//! only `F1` and compare the bound with `F1` instead of `F2`, which skips
//! more cells. A cell skipped for a lane is at least its `F1` away, so it
//! could not become the nearest (an update needs a strictly smaller
//! distance), and the nearest point of the whole lattice (the first, in
//! visiting order, of those at the smallest distance) is never skipped:
//! skipping it would take an earlier visited point no farther away, which
//! would then be the nearest instead. So `F1`, its offset and its cell are
//! the same bits under either bound.
//!
//! The search ends because `F2` is finite after two cells and at most
//! `max(V, C)` (see `docs/RANGES.md`), while `Lₐ ≥ |kₐ| − 1` at any jitter;
//! the per-axis cap `D + 2` is therefore never reached (manhattan, the
//! worst, has `F2 < D ≤ L` once `|kₐ| ≥ D + 1`); it only guards the loop.
//! `tests/suite/cellular.rs` compares the result with a brute-force 9ᴰ (1D–3D) /
//! 7⁴ window at jitter 1 for every distance and return.
//!
//! **The same bits on every backend.** Which cells a vector visits depends on
//! its other lanes, so the bound must never exclude a cell that would have
//! changed a lane: (1) `Lₐ` is computed with `j/2 + 2⁻¹²`, and the rounding
//! error of `dₐ = bₐ + j(uₐ − ½)` is below 2⁻¹⁸ for `|kₐ| ≤ 8`, so the
//! computed `|dₐ|` is ≥ the computed `Lₐ`; (2) the bound applies `t` and the
//! sum or max to the `Lₐ` in the same order as the distance applies them to
//! the `|dₐ|` (outermost axis first), and rounding is monotonic, so the
//! computed bound is ≤ the computed distance; (3) an update needs a distance
//! strictly below `F2` (`F1` under the `F1` bound). A lane's state after
//! any visiting order that only adds cells the bound would skip is
//! therefore the same, bit for bit.
//!
//! **Gradient.** `∇f1 = −∂dist(d₁)` for the nearest point's offset `d₁`:
//! euclidean `(p − F)/|p − F|`, euclidean-squared `−2d`, manhattan
//! `−sign(d)`, chebyshev `−sign(d_m)·e_m` on the axis `m` of the largest
//! `|d|` (the first such axis on ties), hybrid `−2d − sign(d)`; `f2` alike
//! with `d₂`; the combinations by the chain rule; the cell value has gradient
//! 0. Not differentiable there (the one-sided value is returned): where two
//! feature points tie for `f1` or `f2` (the Voronoi borders, where `f1`,
//! `f2` and the combinations are continuous but creased, and the cell value
//! jumps), at a feature point itself for euclidean (gradient 0 returned),
//! and where some `dₐ = 0` (manhattan, hybrid: sign 0 returned) or two
//! `|dₐ|` tie (chebyshev).
//!
//! **Scaling.** Each (dimension, distance, return, jitter) has the range
//! `[lo, hi]` of `crate::cellular::range`; the value is mapped affinely onto
//! `[-1, 1]` (times [`MARGIN`]) and the gradient by the same factor. The
//! cell value is already in `(-1, 1)` and is left as it is.

use super::{LaneParams, MARGIN, PRIMES, lattice_value, lowbias32, poison, split, split_periodic};
use crate::cellular::{CellularDistance, CellularReturn};
use crate::simd::Simd;

/// Second-round salt for the hash bits of axes 2 and 3.
pub(crate) const SALT_UV: u32 = 0x68E3_1DA4;
/// Salt of the cell value's hash.
pub(crate) const SALT_VALUE: u32 = 0xB529_7A4D;
/// Added to `j/2` in the lower bound: far above the rounding error of an
/// offset (see the module docs), far below any distance that matters.
const BOUND_SLACK: f64 = 1.0 / 4096.0;

/// The cellular options of a field, in lanes.
#[derive(Clone, Copy)]
pub(crate) struct CellLanes<S: Simd> {
    pub distance: CellularDistance,
    pub ret: CellularReturn,
    /// Whether `ret` reads the second-nearest point. The others (`f1`, the
    /// cell value) read the nearest only, and their search keeps and
    /// bounds by that one alone.
    pub second: bool,
    pub jitter: S::F,
    /// `j/2 + BOUND_SLACK`.
    pub reach: S::F,
    /// The middle of the range, subtracted before scaling.
    pub mid: S::F,
    /// `2 / (hi − lo) · MARGIN`.
    pub scale: S::F,
}

impl<S: Simd> CellLanes<S> {
    /// Lanes for a field that is not cellular (never read).
    #[inline(always)]
    pub(crate) fn unused(s: S) -> Self {
        let z = s.zero();
        CellLanes {
            distance: CellularDistance::Euclidean,
            ret: CellularReturn::F1,
            second: false,
            jitter: z,
            reach: z,
            mid: z,
            scale: z,
        }
    }

    #[inline(always)]
    pub(crate) fn new(s: S, dims: usize, p: &crate::cellular::Cellular) -> Self {
        let j = p.jitter();
        let (lo, hi) = crate::cellular::range(dims, p.distance, p.ret, j);
        CellLanes {
            distance: p.distance,
            ret: p.ret,
            second: !matches!(p.ret, CellularReturn::F1 | CellularReturn::CellValue),
            jitter: s.c(j),
            reach: s.c(j / 2.0 + BOUND_SLACK),
            mid: s.c((lo + hi) / 2.0),
            scale: s.c(2.0 / (hi - lo) * MARGIN),
        }
    }
}

/// `k` of the `i`-th visit on an axis: 0, 1, −1, 2, −2, …
#[inline(always)]
fn offset(i: i32) -> i32 {
    if i & 1 == 1 { (i + 1) / 2 } else { -(i / 2) }
}

/// The per-axis term of a distance, on `x = |dₐ| ≥ 0`.
#[inline(always)]
fn term<S: Simd>(s: S, dist: CellularDistance, x: S::F) -> S::F {
    match dist {
        CellularDistance::Euclidean | CellularDistance::EuclideanSquared => s.mul(x, x),
        CellularDistance::Manhattan | CellularDistance::Chebyshev => x,
        CellularDistance::Hybrid => s.add(s.mul(x, x), x),
    }
}

/// Adds a term to a partial distance.
#[inline(always)]
fn combine<S: Simd>(s: S, dist: CellularDistance, acc: S::F, t: S::F) -> S::F {
    match dist {
        // Both ≥ 0 and not NaN, so the operand order does not matter.
        CellularDistance::Chebyshev => s.max(acc, t),
        _ => s.add(acc, t),
    }
}

/// `−∂dist/∂d` at offset `d` (the gradient with respect to the point).
#[inline(always)]
fn distance_gradient<S: Simd, const D: usize>(
    s: S,
    dist: CellularDistance,
    d: &[S::F; D],
    value: S::F,
) -> [S::F; D] {
    let zero = s.zero();
    let one = s.c(1.0);
    let sign = |x: S::F| {
        let pos = s.keep(s.gt(x, zero), one);
        s.sub(pos, s.keep(s.lt(x, zero), one))
    };
    let mut g = [zero; D];
    match dist {
        CellularDistance::Euclidean => {
            // value = |d|; 0 at a feature point (not differentiable there).
            let safe = s.gt(value, zero);
            let inv = s.div(s.c(1.0), s.select(safe, value, one));
            for a in 0..D {
                g[a] = s.keep(safe, s.neg(s.mul(d[a], inv)));
            }
        }
        CellularDistance::EuclideanSquared => {
            for a in 0..D {
                g[a] = s.mul(d[a], s.c(-2.0));
            }
        }
        CellularDistance::Manhattan => {
            for a in 0..D {
                g[a] = s.neg(sign(d[a]));
            }
        }
        CellularDistance::Hybrid => {
            for a in 0..D {
                g[a] = s.neg(s.add(s.mul(d[a], s.c(2.0)), sign(d[a])));
            }
        }
        CellularDistance::Chebyshev => {
            // The first axis of the largest |d|.
            let mut best = s.abs(d[0]);
            let mut pick = [s.splat_true(); D];
            for a in 1..D {
                let x = s.abs(d[a]);
                let gt = s.gt(x, best);
                for b in 0..a {
                    pick[b] = s.m_andnot(pick[b], gt);
                }
                pick[a] = gt;
                best = s.max(x, best);
            }
            for a in 0..D {
                g[a] = s.keep(pick[a], s.neg(sign(d[a])));
            }
        }
    }
    g
}

/// Cellular noise at `p`: the value scaled to `[-1, 1]` and its gradient.
#[inline(always)]
pub(crate) fn cellular<S: Simd, const D: usize, const PERIODIC: bool>(
    s: S,
    field: &LaneParams<S>,
    p: [S::F; D],
) -> (S::F, [S::F; D]) {
    let cl = &field.cell;
    let zero = s.zero();
    let at = locate::<S, D, PERIODIC>(s, field, &p);
    let mut near = search::<S, D, PERIODIC>(s, field, &at);
    if cl.distance == CellularDistance::Euclidean {
        near.f1 = s.sqrt(near.f1);
        near.f2 = s.sqrt(near.f2);
    }
    let nan = poison(s, &p);
    if cl.ret == CellularReturn::CellValue {
        let h = lowbias32(s, s.u_xor(near.h1, s.u_splat(SALT_VALUE)));
        let v = lattice_value(s, h);
        let mut g = [zero; D];
        for a in 0..D {
            g[a] = s.add(zero, nan);
        }
        return (s.add(v, nan), g);
    }
    let (v, g) = distance_return(s, cl, &near);
    let mut out_g = [zero; D];
    for a in 0..D {
        out_g[a] = s.add(s.mul(g[a], cl.scale), nan);
    }
    // No clamp: the range is a supremum and the margin covers rounding,
    // which the range tests check at 10^6 points per option.
    let v = s.mul(s.sub(v, cl.mid), cl.scale);
    (s.add(v, nan), out_g)
}

/// Where a point lies on the lattice, per axis.
struct Located<S: Simd, const D: usize> {
    /// `½ − f`, so that the cell `k` away has `b = k + (½ − f)`.
    h_f: [S::F; D],
    /// The cell as the hash sees it (not periodic).
    cell_u: [S::U; D],
    /// The cell as a float, to wrap (periodic).
    cell_f: [S::F; D],
}

/// Splits `p` into cell and fraction on every axis.
#[inline(always)]
fn locate<S: Simd, const D: usize, const PERIODIC: bool>(
    s: S,
    field: &LaneParams<S>,
    p: &[S::F; D],
) -> Located<S, D> {
    let zero = s.zero();
    let half = s.c(0.5);
    let mut at = Located {
        h_f: [zero; D],
        cell_u: [s.u_splat(0); D],
        cell_f: [zero; D],
    };
    for a in 0..D {
        let (c, f) = if PERIODIC {
            split_periodic(s, p[a], field.period.f[a], field.period.inv[a])
        } else {
            split(s, p[a])
        };
        // NaN (from NaN or ±∞ input) would never satisfy the bound and
        // would keep the search going: search at f = 0, c = 0 instead, and
        // poison the result at the end.
        let f = s.max(f, zero);
        at.h_f[a] = s.sub(half, f);
        if PERIODIC {
            at.cell_f[a] = s.max(c, zero);
        } else {
            at.cell_u[a] = s.cell(c);
        }
    }
    at
}

/// The two nearest feature points of each lane, as far as the search has
/// gone.
struct Nearest<S: Simd, const D: usize> {
    /// The smallest distance (squared for euclidean until the end).
    f1: S::F,
    /// The second smallest.
    f2: S::F,
    /// The offset of the nearest point.
    d1: [S::F; D],
    /// The offset of the second nearest.
    d2: [S::F; D],
    /// The hash of the nearest point's cell.
    h1: S::U,
}

/// The branch-and-bound search of the module docs, over the whole lattice.
#[inline(always)]
fn search<S: Simd, const D: usize, const PERIODIC: bool>(
    s: S,
    field: &LaneParams<S>,
    at: &Located<S, D>,
) -> Nearest<S, D> {
    let zero = s.zero();
    let inf = s.c(f64::INFINITY);
    let mut sw = Sweep {
        field,
        at,
        b: [zero; D],
        primed: [s.u_splat(0); D],
        near: Nearest {
            f1: inf,
            f2: inf,
            d1: [zero; D],
            d2: [zero; D],
            h1: s.u_splat(0),
        },
    };
    // One function per axis, each calling the one below, so that the
    // fixed cells and the bounds are locals the compiler can keep in
    // registers (a loop over a runtime level kept them on the stack, and
    // its bookkeeping was most of the search's time).
    match D {
        1 => axis0::<S, D, PERIODIC>(s, &mut sw, zero),
        2 => axis1::<S, D, PERIODIC>(s, &mut sw, zero),
        3 => axis2::<S, D, PERIODIC>(s, &mut sw, zero),
        _ => axis3::<S, D, PERIODIC>(s, &mut sw, zero),
    }
    sw.near
}

/// The search's state: what it reads, the cell fixed so far on the axes
/// above (`b` and the primed coordinate per axis), and the nearest points.
struct Sweep<'a, S: Simd, const D: usize> {
    field: &'a LaneParams<S>,
    at: &'a Located<S, D>,
    b: [S::F; D],
    primed: [S::U; D],
    near: Nearest<S, D>,
}

/// `$name` visits axis `$a`'s cells with the axes above it fixed (their
/// partial bound `outer`): `k = 0, 1, −1, 2, −2, …`, each side until no
/// lane's bound is below the distance it must beat (the bound grows with
/// `|k|` on each side, and that distance only falls), running `$below`
/// for each cell it keeps with that cell's bound.
macro_rules! axis {
    ($name:ident, $a:literal, |$s:ident, $sw:ident, $lb:ident| $below:expr) => {
        #[inline(always)]
        fn $name<S: Simd, const D: usize, const PERIODIC: bool>(
            $s: S,
            $sw: &mut Sweep<'_, S, D>,
            outer: S::F,
        ) {
            let cl = &$sw.field.cell;
            let cap = D as i32 + 2;
            let mut open = [true; 2];
            for i in 0..=2 * cap {
                let k = offset(i);
                let side = usize::from(k < 0);
                if !open[side] {
                    continue;
                }
                let bk = $s.add($s.c(k as f64), $sw.at.h_f[$a]);
                let l = $s.max($s.sub($s.abs(bk), cl.reach), $s.zero());
                let $lb = combine($s, cl.distance, outer, term($s, cl.distance, l));
                let beat = if cl.second { $sw.near.f2 } else { $sw.near.f1 };
                if !$s.any($s.lt($lb, beat)) {
                    if k == 0 {
                        return;
                    }
                    open[side] = false;
                    if !open[0] && !open[1] {
                        return;
                    }
                    continue;
                }
                $sw.b[$a] = bk;
                $sw.primed[$a] = primed_cell::<S, D, PERIODIC>($s, $sw.field, $sw.at, $a, k);
                $below;
            }
        }
    };
}
axis!(axis0, 0, |s, sw, lb| visit(
    s,
    sw.field,
    &sw.b,
    &sw.primed,
    &mut sw.near
));
axis!(axis1, 1, |s, sw, lb| axis0::<S, D, PERIODIC>(s, sw, lb));
axis!(axis2, 2, |s, sw, lb| axis1::<S, D, PERIODIC>(s, sw, lb));
axis!(axis3, 3, |s, sw, lb| axis2::<S, D, PERIODIC>(s, sw, lb));

/// The cell `k` away from the point's on axis `a`, times that axis's prime:
/// its share of the cell's hash.
#[inline(always)]
fn primed_cell<S: Simd, const D: usize, const PERIODIC: bool>(
    s: S,
    field: &LaneParams<S>,
    at: &Located<S, D>,
    a: usize,
    k: i32,
) -> S::U {
    if PERIODIC {
        let c = wrap(
            s,
            s.add(at.cell_f[a], s.c(k as f64)),
            field.period.f[a],
            field.period.inv[a],
        );
        s.u_mul(s.f_to_i(c), s.u_splat(PRIMES[a]))
    } else {
        s.u_mul(
            s.u_add(at.cell_u[a], s.u_splat(k as u32)),
            s.u_splat(PRIMES[a]),
        )
    }
}

/// One cell of the search: its point's offset `d = b + j(u − ½)` and
/// distance, kept if among the two nearest (the nearest only, unless
/// the return reads the second).
#[inline(always)]
fn visit<S: Simd, const D: usize>(
    s: S,
    field: &LaneParams<S>,
    b: &[S::F; D],
    primed: &[S::U; D],
    near: &mut Nearest<S, D>,
) {
    let cl = &field.cell;
    let dist = cl.distance;
    let zero = s.zero();
    let mut h = field.key;
    for a in 0..D {
        h = s.u_xor(h, primed[a]);
    }
    let h = lowbias32(s, h);
    let h2 = if D > 2 {
        lowbias32(s, s.u_xor(h, s.u_splat(SALT_UV)))
    } else {
        h
    };
    let mut d = [zero; D];
    let mut key = zero;
    // Outermost axis first, the order the bound sums in (module docs, (2)).
    for a in (0..D).rev() {
        let bits = match a {
            0 => s.u_shr::<16>(h),
            1 => s.u_and(h, s.u_splat(0xFFFF)),
            2 => s.u_shr::<16>(h2),
            _ => s.u_and(h2, s.u_splat(0xFFFF)),
        };
        // u − ½ = (bits − 2¹⁵)·2⁻¹⁶, exactly (a 16-bit integer times a
        // power of two), in one operation fewer than u·2⁻¹⁶ − ½.
        let centred = s.mul(
            s.i_to_f(s.u_sub(bits, s.u_splat(1 << 15))),
            s.c(1.0 / 65536.0),
        );
        d[a] = s.add(b[a], s.mul(cl.jitter, centred));
        key = combine(s, dist, key, term(s, dist, s.abs(d[a])));
    }
    let lt1 = s.lt(key, near.f1);
    if cl.second {
        let lt2 = s.lt(key, near.f2);
        near.f2 = s.select(lt1, near.f1, s.select(lt2, key, near.f2));
        for a in 0..D {
            near.d2[a] = s.select(lt1, near.d1[a], s.select(lt2, d[a], near.d2[a]));
        }
    }
    for a in 0..D {
        near.d1[a] = s.select(lt1, d[a], near.d1[a]);
    }
    near.f1 = s.select(lt1, key, near.f1);
    near.h1 = s.u_blend(s.m_to_u(lt1), h, near.h1);
}

/// A return other than the cell value, unscaled, and its gradient, from the
/// two nearest points (euclidean distances already square-rooted).
#[inline(always)]
fn distance_return<S: Simd, const D: usize>(
    s: S,
    cl: &CellLanes<S>,
    near: &Nearest<S, D>,
) -> (S::F, [S::F; D]) {
    let zero = s.zero();
    let (f1, f2) = (near.f1, near.f2);
    let g1 = distance_gradient(s, cl.distance, &near.d1, f1);
    let g2 = distance_gradient(s, cl.distance, &near.d2, f2);
    let mut g = [zero; D];
    let v = match cl.ret {
        CellularReturn::F1 => {
            g = g1;
            f1
        }
        CellularReturn::F2 => {
            g = g2;
            f2
        }
        CellularReturn::F2MinusF1 => {
            for a in 0..D {
                g[a] = s.sub(g2[a], g1[a]);
            }
            s.sub(f2, f1)
        }
        CellularReturn::F1PlusF2 => {
            for a in 0..D {
                g[a] = s.add(g1[a], g2[a]);
            }
            s.add(f1, f2)
        }
        CellularReturn::F1TimesF2 => {
            for a in 0..D {
                g[a] = s.add(s.mul(g1[a], f2), s.mul(f1, g2[a]));
            }
            s.mul(f1, f2)
        }
        _ => {
            // f1/f2; f2 = 0 only if two points coincide with p,
            // where the ratio (a tie) is 1.
            let ok = s.gt(f2, zero);
            let den = s.select(ok, f2, s.c(1.0));
            let r = s.div(f1, den);
            let den2 = s.mul(den, den);
            for a in 0..D {
                let num = s.sub(s.mul(g1[a], den), s.mul(f1, g2[a]));
                g[a] = s.keep(ok, s.div(num, den2));
            }
            s.select(ok, r, s.c(1.0))
        }
    };
    (v, g)
}

/// An integer-valued `c` reduced into `[0, P)`.
#[inline(always)]
fn wrap<S: Simd>(s: S, c: S::F, p: S::F, inv: S::F) -> S::F {
    let zero = s.zero();
    let q = s.floor(s.mul(c, inv));
    let m = s.sub(c, s.mul(q, p));
    let m = s.select(s.lt(m, zero), s.add(m, p), m);
    s.select(s.ge(m, p), s.sub(m, p), m)
}
