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
//! **Grids.** A cell's point depends on the cell alone, so a grid's rows
//! (2D and 3D, periodic or not, every return but the cell value; the noise's
//! own grids and each octave of a fractal's, which keeps its own) read
//! them from tables ([`CellCache`]): per offset of the outer axes, the cells
//! along x, each entry made by the very operations a lane's visit would
//! run, and kept while the rows stay in the same outer cells. A visit is
//! then two loads and two register permutes instead of two or three
//! multiplies of hashing and the jitter's; the search, its order and its
//! bounds are the same, so are the bits (`tests/suite/grid.rs`).
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
//! therefore the same, bit for bit. That is also why the innermost axis's
//! `k₀ = 0, 1, −1` are visited without the test: cheaper than its branch.
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
use crate::batch::{Dest, load_row, store_row};
use crate::cellular::{CellularDistance, CellularReturn};
use crate::prelude_internal::*;
use crate::simd::{Call, Element, Simd};

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

/// `sign(x)`: −1, 0 or 1 (a function, not a closure: the kernels must not
/// hold a call, which CI checks in the release wheel).
#[inline(always)]
fn sign<S: Simd>(s: S, x: S::F) -> S::F {
    let zero = s.zero();
    let one = s.c(1.0);
    let pos = s.keep(s.gt(x, zero), one);
    s.sub(pos, s.keep(s.lt(x, zero), one))
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
                g[a] = s.neg(sign(s, d[a]));
            }
        }
        CellularDistance::Hybrid => {
            for a in 0..D {
                g[a] = s.neg(s.add(s.mul(d[a], s.c(2.0)), sign(s, d[a])));
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
                g[a] = s.keep(pick[a], s.neg(sign(s, d[a])));
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
    let at = locate::<S, D, PERIODIC>(s, field, &p);
    let (near, _) = search::<S, D, PERIODIC, _>(s, field, &at, Hashed::new(s));
    finish(s, field, &p, near)
}

/// The grid row that `cache` was told of (see [`CellCache::start_row`]) at
/// x coordinates `xs`, as [`cellular`] would give it vector by vector (the
/// same bits: a table entry is the hash path's value for its cell), into
/// `dest`. `false`, having done nothing, where the row cannot use tables.
#[inline(always)]
pub(crate) fn grid_row<S: Simd, const D: usize, const PERIODIC: bool, const GRAD: bool>(
    s: S,
    field: &LaneParams<S>,
    xs: &[S::E],
    dest: Dest<'_, '_, S>,
    cache: &mut CellCache<S, D>,
) -> bool {
    let Some(rest) = cache.row else {
        return false;
    };
    // Constant per instance: no tables for 1D or 4D (see `CellCache`).
    if !(2..=3).contains(&D) || !cache.grid || field.cell.ret == CellularReturn::CellValue {
        return false;
    }
    let Dest {
        outs,
        at,
        bounds: (lo, hi),
    } = dest;
    let mut p = [s.zero(); D];
    for a in 1..D {
        p[a] = s.splat(rest[a]);
    }
    let (mut vlo, mut vhi) = (*lo, *hi);
    for i in (0..xs.len()).step_by(S::LANES) {
        p[0] = load_row(s, xs, i);
        let r = tabled::<S, D, PERIODIC>(s, field, p, cache);
        let len = (xs.len() - i).min(S::LANES);
        store_row::<S, D, GRAD>(s, r, outs, at + i, len, (&mut vlo, &mut vhi));
    }
    (*lo, *hi) = (vlo, vhi);
    true
}

/// [`cellular`], out of line: one copy per lane type, dimension and period
/// flag, which every program's octaves share. A program inlines every
/// kind's [`eval_row`](super::select::Kernel::eval_row); inlined there, the
/// searches of this and [`tabled_out`] were built again into each stack
/// and graph entry point: the CLI's release build took 365 s, against 224
/// out of line (docs/BUILD.md). The call costs a program's points about a
/// tenth of their rate (the caller's vectors are saved around it); a plain
/// noise's batch and grid loops keep theirs inlined, where a call per
/// vector cost a 2D grid a fifth.
#[inline(always)]
pub(crate) fn cellular_out<S: Simd, const D: usize, const PERIODIC: bool>(
    s: S,
    field: &LaneParams<S>,
    p: [S::F; D],
) -> (S::F, [S::F; D]) {
    s.outline(HashedCall::<S, D, PERIODIC> { field, p })
}

/// [`cellular`] as a [`Call`].
struct HashedCall<'a, S: Simd, const D: usize, const PERIODIC: bool> {
    field: &'a LaneParams<S>,
    p: [S::F; D],
}

impl<S: Simd, const D: usize, const PERIODIC: bool> Call<S> for HashedCall<'_, S, D, PERIODIC> {
    type Output = (S::F, [S::F; D]);
    #[inline(always)]
    fn call(self, s: S) -> Self::Output {
        cellular::<S, D, PERIODIC>(s, self.field, self.p)
    }
}

/// [`tabled`], out of line, for programs (see [`cellular_out`]).
#[inline(always)]
pub(crate) fn tabled_out<S: Simd, const D: usize, const PERIODIC: bool>(
    s: S,
    field: &LaneParams<S>,
    p: [S::F; D],
    cache: &mut CellCache<S, D>,
) -> (S::F, [S::F; D]) {
    s.outline(TabledCall::<S, D, PERIODIC> { field, p, cache })
}

/// [`tabled`] as a [`Call`].
struct TabledCall<'a, S: Simd, const D: usize, const PERIODIC: bool> {
    field: &'a LaneParams<S>,
    p: [S::F; D],
    cache: &'a mut CellCache<S, D>,
}

impl<S: Simd, const D: usize, const PERIODIC: bool> Call<S> for TabledCall<'_, S, D, PERIODIC> {
    type Output = (S::F, [S::F; D]);
    #[inline(always)]
    fn call(self, s: S) -> Self::Output {
        tabled::<S, D, PERIODIC>(s, self.field, self.p, self.cache)
    }
}

/// [`cellular`] for a vector of a grid row, reading the cells' points from
/// `cache`'s tables where the vector allows.
#[inline(always)]
fn tabled<S: Simd, const D: usize, const PERIODIC: bool>(
    s: S,
    field: &LaneParams<S>,
    p: [S::F; D],
    cache: &mut CellCache<S, D>,
) -> (S::F, [S::F; D]) {
    let at = locate::<S, D, PERIODIC>(s, field, &p);
    if let Some((col, idx)) = Tabled::prepare::<PERIODIC>(s, field, &at, cache) {
        loop {
            let t = Tabled {
                cache: &*cache,
                col,
                idx,
                k: [0; D],
                missing: None,
            };
            let (near, cells) = search::<S, D, PERIODIC, _>(s, field, &at, t);
            let Some((which, need)) = cells.missing else {
                return finish(s, field, &p, near);
            };
            // A table the search reached is short: make it (outside the
            // search, whose loop must not hold a call that spills its
            // registers) and search again. Once per table and stretch.
            let outer = outer_primed::<S, D, PERIODIC>(s, field, &at, which);
            let base = cache.base;
            extend::<S, D, PERIODIC>(s, field, &mut cache.tables[which], base, outer, need);
        }
    }
    let (near, _) = search::<S, D, PERIODIC, _>(s, field, &at, Hashed::new(s));
    finish(s, field, &p, near)
}

/// The value and gradient from the search's nearest points.
#[inline(always)]
fn finish<S: Simd, const D: usize>(
    s: S,
    field: &LaneParams<S>,
    p: &[S::F; D],
    mut near: Nearest<S, D>,
) -> (S::F, [S::F; D]) {
    let cl = &field.cell;
    let zero = s.zero();
    if cl.distance == CellularDistance::Euclidean {
        near.f1 = s.sqrt(near.f1);
        near.f2 = s.sqrt(near.f2);
    }
    let nan = poison(s, p);
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
fn search<S: Simd, const D: usize, const PERIODIC: bool, C: Cells<S, D>>(
    s: S,
    field: &LaneParams<S>,
    at: &Located<S, D>,
    cells: C,
) -> (Nearest<S, D>, C) {
    let zero = s.zero();
    let inf = s.c(f64::INFINITY);
    let mut sw = Sweep {
        field,
        at,
        b: [zero; D],
        cells,
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
        1 => axis0::<S, D, PERIODIC, C>(s, &mut sw, zero),
        2 => axis1::<S, D, PERIODIC, C>(s, &mut sw, zero),
        3 => axis2::<S, D, PERIODIC, C>(s, &mut sw, zero),
        _ => axis3::<S, D, PERIODIC, C>(s, &mut sw, zero),
    }
    (sw.near, sw.cells)
}

/// The search's state: what it reads, the cell fixed so far on the axes
/// above (`b` per axis, and in `cells`), and the nearest points.
struct Sweep<'a, S: Simd, const D: usize, C> {
    field: &'a LaneParams<S>,
    at: &'a Located<S, D>,
    b: [S::F; D],
    cells: C,
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
        fn $name<S: Simd, const D: usize, const PERIODIC: bool, C: Cells<S, D>>(
            $s: S,
            $sw: &mut Sweep<'_, S, D, C>,
            outer: S::F,
        ) {
            let cl = &$sw.field.cell;
            let cap = D as i32 + 2;
            let mut open = [true; 2];
            // The innermost axis's three nearest cells are visited without
            // asking, unrolled: a visit there costs less than a
            // mispredicted branch and the loop's bookkeeping, and a cell
            // the bound would skip changes nothing (module docs, (3)).
            let first = if $a == 0 {
                for k in [0, 1, -1] {
                    // What `$below` reads; the innermost axis's visit
                    // reads no bound.
                    #[allow(unused_variables)]
                    let $lb = outer;
                    $sw.b[$a] = $s.add($s.c(k as f64), $sw.at.h_f[$a]);
                    $sw.cells.fix::<PERIODIC>($s, $sw.field, $sw.at, $a, k);
                    $below;
                }
                3
            } else {
                0
            };
            for i in first..=2 * cap {
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
                $sw.cells.fix::<PERIODIC>($s, $sw.field, $sw.at, $a, k);
                $below;
            }
        }
    };
}
axis!(axis0, 0, |s, sw, lb| visit(
    s,
    sw.field,
    &sw.b,
    &mut sw.cells,
    &mut sw.near
));
axis!(axis1, 1, |s, sw, lb| axis0::<S, D, PERIODIC, C>(s, sw, lb));
axis!(axis2, 2, |s, sw, lb| axis1::<S, D, PERIODIC, C>(s, sw, lb));
axis!(axis3, 3, |s, sw, lb| axis2::<S, D, PERIODIC, C>(s, sw, lb));

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
fn visit<S: Simd, const D: usize, C: Cells<S, D>>(
    s: S,
    field: &LaneParams<S>,
    b: &[S::F; D],
    cells: &mut C,
    near: &mut Nearest<S, D>,
) {
    let cl = &field.cell;
    let dist = cl.distance;
    let (h, jc) = cells.point(s, field);
    let mut d = [s.zero(); D];
    let mut key = s.zero();
    // Outermost axis first, the order the bound sums in (module docs, (2)).
    for a in (0..D).rev() {
        d[a] = s.add(b[a], jc[a]);
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
    if C::HASH {
        near.h1 = s.u_blend(s.m_to_u(lt1), h, near.h1);
    }
}

/// The point of the cell whose coordinates, each times its axis's prime,
/// xor to `primed` (with the key): its hash and `j(u − ½)` per axis. The
/// one definition the search's two sources share, so a grid's tables hold
/// the hash path's bits.
#[inline(always)]
fn jittered<S: Simd, const D: usize>(
    s: S,
    field: &LaneParams<S>,
    primed: S::U,
) -> (S::U, [S::F; D]) {
    let h = lowbias32(s, s.u_xor(field.key, primed));
    let h2 = if D > 2 {
        lowbias32(s, s.u_xor(h, s.u_splat(SALT_UV)))
    } else {
        h
    };
    let mut jc = [s.zero(); D];
    for a in 0..D {
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
        jc[a] = s.mul(field.cell.jitter, centred);
    }
    (h, jc)
}

/// Where the search's cells get their points from.
trait Cells<S: Simd, const D: usize> {
    /// Whether [`point`](Self::point)'s hash is the cell's (else 0: the
    /// return then must not read the nearest cell's hash).
    const HASH: bool;
    /// Fixes axis `a` at `k` cells from each lane's own.
    fn fix<const PERIODIC: bool>(
        &mut self,
        s: S,
        field: &LaneParams<S>,
        at: &Located<S, D>,
        a: usize,
        k: i32,
    );
    /// The point of the cell fixed on every axis: see [`jittered`].
    fn point(&mut self, s: S, field: &LaneParams<S>) -> (S::U, [S::F; D]);
}

/// Each lane hashes its own cells.
struct Hashed<S: Simd, const D: usize> {
    /// Per axis, the fixed cell times the axis's prime.
    primed: [S::U; D],
}

impl<S: Simd, const D: usize> Hashed<S, D> {
    #[inline(always)]
    fn new(s: S) -> Self {
        Hashed {
            primed: [s.u_splat(0); D],
        }
    }
}

impl<S: Simd, const D: usize> Cells<S, D> for Hashed<S, D> {
    const HASH: bool = true;
    #[inline(always)]
    fn fix<const PERIODIC: bool>(
        &mut self,
        s: S,
        field: &LaneParams<S>,
        at: &Located<S, D>,
        a: usize,
        k: i32,
    ) {
        self.primed[a] = primed_cell::<S, D, PERIODIC>(s, field, at, a, k);
    }
    #[inline(always)]
    fn point(&mut self, s: S, field: &LaneParams<S>) -> (S::U, [S::F; D]) {
        let mut primed = self.primed[0];
        for a in 1..D {
            primed = s.u_xor(primed, self.primed[a]);
        }
        jittered(s, field, primed)
    }
}

/// The largest offset a search takes on an axis (see the module docs).
const fn cap(d: usize) -> i32 {
    d as i32 + 2
}

/// How many cells the tables span along x: past that, they start again
/// from the vector at hand, which bounds their memory (at most 121 tables
/// of 3 axes in 3D, 12 MiB in f64) and not the grid.
const TABLE_CELLS: u32 = 4096;

/// What the cellular kernel keeps between the vectors of a grid (see
/// [`Kernel::eval_cached`](super::select::Kernel::eval_cached)): the
/// points of the cells along x, one table per offset of the outer axes
/// (y in 2D, y and z in 3D) from the cells the grid's rows lie in, made
/// as the search first asks for them and kept while the rows stay in those
/// cells. A grid's rows hold their coordinates on the outer axes in every
/// lane, so a vector's lanes share their outer cells and differ along x
/// by fewer cells than a vector has lanes (else that vector hashes); each
/// lane's point is then a table read and a register permute instead of
/// two to three multiplies of hashing and the jitter.
pub(crate) struct CellCache<S: Simd, const D: usize> {
    /// Whether the lanes are a grid's rows (of 2 or 3 dimensions).
    grid: bool,
    /// The coordinates on axes 1.. (entry 0 unused) of the row the
    /// vectors lie on, once told.
    row: Option<[S::E; D]>,
    /// The outer axes' cells (entry 0 unused) the tables are for, if any.
    outer: Option<[u32; D]>,
    /// The cell of every table's entry 0 along x.
    base: u32,
    /// Per outer offset (axis 1 fastest, each in `−cap..=cap`), per axis,
    /// `j(u − ½)` of cells `base, base + 1, …`.
    tables: Vec<[Vec<S::E>; D]>,
}

impl<S: Simd, const D: usize> CellCache<S, D> {
    /// A cache for lanes that are a grid's rows (`grid`), or for lanes
    /// that are not (it then keeps nothing). Allocates nothing until a
    /// vector uses it.
    #[inline(always)]
    pub(crate) fn new(grid: bool) -> Self {
        CellCache {
            // 2D and 3D only: 4D would keep 13³ tables.
            grid: grid && (D == 2 || D == 3),
            row: None,
            outer: None,
            base: 0,
            tables: Vec::new(),
        }
    }

    /// Says that the vectors until the next call lie on the grid row at
    /// `rest` (see [`Lanes::start_row`](crate::batch::Lanes::start_row)).
    #[inline(always)]
    pub(crate) fn start_row(&mut self, rest: [S::E; D]) {
        self.row = Some(rest);
    }
}

/// The search's cells read from a [`CellCache`].
#[derive(Clone, Copy)]
struct Tabled<'c, S: Simd, const D: usize> {
    cache: &'c CellCache<S, D>,
    /// Lane 0's cell along x, less the tables' base.
    col: u32,
    /// Each lane's cell along x less lane 0's, `0..LANES`.
    idx: S::U,
    /// The fixed offset per axis.
    k: [i32; D],
    /// The first table the search found too short, and the length it
    /// needs: the search's result is then void.
    missing: Option<(usize, usize)>,
}

impl<S: Simd, const D: usize> Tabled<'_, S, D> {
    /// Readies `cache` for the vector at `at` and gives lane 0's column
    /// and each lane's offset from it (see the fields), or `None` where
    /// the vector cannot use the tables: not a grid's, a return that reads
    /// the nearest cell's hash, lanes in different outer cells or too far
    /// apart along x.
    #[inline(always)]
    fn prepare<const PERIODIC: bool>(
        s: S,
        field: &LaneParams<S>,
        at: &Located<S, D>,
        cache: &mut CellCache<S, D>,
    ) -> Option<(u32, S::U)> {
        if !cache.grid || field.cell.ret == CellularReturn::CellValue {
            return None;
        }
        // The tables are per outer cell: every lane must be in the same
        // one (so they are, on a grid's row; checked, not assumed).
        // The cells as integers: periodic ones are kept as floats in
        // `0..P`, exact. (A loop, not a closure: see `sign`.)
        let mut cell = at.cell_u;
        if PERIODIC {
            for a in 0..D {
                cell[a] = s.f_to_i(at.cell_f[a]);
            }
        }
        for a in 1..D {
            let c = cell[a];
            let same = s.u_to_m(s.u_eq(c, s.u_broadcast_first(c)));
            if s.any(s.m_andnot(s.splat_true(), same)) {
                return None;
            }
        }
        let x = cell[0];
        let idx = s.u_sub(x, s.u_broadcast_first(x));
        let lanes = S::LANES as u32;
        // A vector spanning more than a quarter as many cells as it has
        // lanes (fewer than about 4 points a cell along x) would read each
        // entry too few times to pay for making it: it hashes. The lookup
        // itself takes any index below `lanes`. Signed: a lane left of
        // lane 0 has a negative index.
        let spread = (lanes / 4).max(1);
        let far = s.u_gt_signed(s.u_splat(0), idx);
        let far = s.u_or(far, s.u_gt_signed(idx, s.u_splat(spread - 1)));
        if s.any(s.u_to_m(far)) {
            return None;
        }
        let mut outer = [0; D];
        for a in 1..D {
            outer[a] = s.u_first(cell[a]);
        }
        let x0 = s.u_first(x);
        let c = cap(D) as u32;
        let col = x0.wrapping_sub(cache.base);
        let fits = col >= c && col <= TABLE_CELLS - c - lanes;
        if cache.tables.is_empty() {
            let side = (2 * cap(D) + 1) as usize;
            let count = side.pow(D as u32 - 1);
            cache.tables = (0..count)
                .map(|_| core::array::from_fn(|_| Vec::new()))
                .collect();
        }
        if cache.outer != Some(outer) || !fits {
            cache.outer = Some(outer);
            cache.base = x0.wrapping_sub(c);
            for t in &mut cache.tables {
                for v in t.iter_mut() {
                    v.clear();
                }
            }
        }
        Some((x0.wrapping_sub(cache.base), idx))
    }

    /// The table of outer offsets `k[1..]`.
    #[inline(always)]
    fn which(&self) -> usize {
        let side = 2 * cap(D) + 1;
        let mut which = 0;
        for a in (1..D).rev() {
            which = which * side + self.k[a] + cap(D);
        }
        which as usize
    }
}

/// The outer cells of table `which` from the lanes' own (at `at`, the same
/// in every lane), each times its axis's prime, xored: what the hash path
/// xors in for them.
#[inline(always)]
fn outer_primed<S: Simd, const D: usize, const PERIODIC: bool>(
    s: S,
    field: &LaneParams<S>,
    at: &Located<S, D>,
    which: usize,
) -> u32 {
    let side = (2 * cap(D) + 1) as usize;
    let mut rest = which;
    let mut primed = 0u32;
    for a in 1..D {
        let k = (rest % side) as i32 - cap(D);
        rest /= side;
        primed ^= s.u_first(primed_cell::<S, D, PERIODIC>(s, field, at, a, k));
    }
    primed
}

impl<S: Simd, const D: usize> Cells<S, D> for Tabled<'_, S, D> {
    const HASH: bool = false;
    #[inline(always)]
    fn fix<const PERIODIC: bool>(
        &mut self,
        _: S,
        _: &LaneParams<S>,
        _: &Located<S, D>,
        a: usize,
        k: i32,
    ) {
        self.k[a] = k;
    }
    #[inline(always)]
    fn point(&mut self, s: S, _: &LaneParams<S>) -> (S::U, [S::F; D]) {
        let which = self.which();
        // `col ≥ cap` (see `Tabled::new`), so this is not negative.
        let at = (self.col as i32 + self.k[0]) as usize;
        let table = &self.cache.tables[which];
        let mut jc = [s.zero(); D];
        if table[0].len() < at + S::LANES {
            // Extend by a few vectors at once: the caller searches again.
            self.missing.get_or_insert((which, at + 4 * S::LANES));
            return (s.u_splat(0), jc);
        }
        for a in 0..D {
            jc[a] = s.lookup(s.load(&table[a][at..]), self.idx);
        }
        (s.u_splat(0), jc)
    }
}

/// Fills `table` (see [`CellCache`]) to at least `need` cells, `LANES` at
/// a time, for the outer cells whose primed coordinates xor to `primed`.
/// Inlined (a call would leave the instruction set's context), but
/// reached once per table stretch.
#[inline(always)]
fn extend<S: Simd, const D: usize, const PERIODIC: bool>(
    s: S,
    field: &LaneParams<S>,
    table: &mut [Vec<S::E>; D],
    base: u32,
    primed: u32,
    need: usize,
) {
    let lanes = S::LANES;
    while table[0].len() < need {
        let i = table[0].len();
        let mut x = s.u_add(s.u_splat(base.wrapping_add(i as u32)), s.u_iota());
        if PERIODIC {
            // As `primed_cell` wraps `c + k`: the same integer as a float
            // (both exact, or both rounded alike), then wrapped.
            let c = wrap(s, s.i_to_f(x), field.period.f[0], field.period.inv[0]);
            x = s.f_to_i(c);
        }
        let p = s.u_xor(s.u_splat(primed), s.u_mul(x, s.u_splat(PRIMES[0])));
        let (_, jc) = jittered::<S, D>(s, field, p);
        for a in 0..D {
            table[a].resize(i + lanes, <S::E as Element>::ZERO);
            s.store(jc[a], &mut table[a][i..]);
        }
    }
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
