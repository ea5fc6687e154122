//! Value and Perlin noise: the hypercube lattice family, 1D–4D, in one kernel.
//!
//! Each of the 2^D cell corners gets either a value (value noise) or a
//! gradient ramp `g · (p − corner)` (Perlin noise); the corners are blended
//! with the quintic fade over the axes after x first, into a [`Column`] per
//! x side, and along x last ([`finish`]), so that a grid row can share the
//! columns. The gradient is carried through the blend exactly: blending
//! `lo` and `hi` with weight `u(t)` contributes `lerp(u, ∇lo, ∇hi)` plus
//! `u'(t) (hi − lo)` along the blended axis.

use super::{Field, MARGIN, PRIMES, fade, lattice_value, lowbias32, poison, split, split_periodic};
use crate::batch::{load_row, store_row, widen};
use crate::prelude_internal::*;
use crate::simd::Element;
use crate::simd::{Call, Simd};

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

/// Splits each coordinate and fades it.
#[inline(always)]
pub(crate) fn axes<S: Simd, const D: usize, const PERIODIC: bool>(
    s: S,
    field: &Field<S>,
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
        let (fl, fr) = if PERIODIC {
            split_periodic(s, p[a], field.period_f[a], field.period_inv[a])
        } else {
            split(s, p[a])
        };
        ax.floor[a] = fl;
        ax.frac[a] = fr;
        let c = s.cell(fl);
        ax.cell[a] = c;
        let prime = s.u_splat(PRIMES[a]);
        ax.lo[a] = s.u_mul(c, prime);
        ax.hi[a] = if PERIODIC {
            // The cell after the last one of the period is cell 0.
            let next = s.u_add(c, s.u_splat(1));
            let at_end = s.u_eq(next, field.period[a]);
            s.u_mul(s.u_blend(at_end, s.u_splat(0), next), prime)
        } else {
            s.u_add(ax.lo[a], prime)
        };
        (ax.u[a], ax.du[a]) = fade(s, fr);
    }
    ax
}

/// The quantities of one x lattice position that every point of a cell
/// row shares: the corners at that x position blended over the other axes.
///
/// A corner's ramp is `g · (p − corner) = g₀·d₀ + r` with `r` the sum over
/// axes 1 to D − 1 and `d₀` the x offset. Blending over those axes first,
/// and keeping the `r` part (`a`) apart from the `g₀` part (`b`), leaves
/// the noise as `lerp(u₀, a₀ + b₀·d₀, a₁ + b₁·d₁)`: everything but the
/// last step depends only on the x position and the point's other
/// coordinates. Points and grids both compute the noise in this form, so a
/// grid row computes [`Column`]s once per x position and the bits stay
/// those of the point kernel.
#[derive(Clone, Copy)]
pub(crate) struct Column<S: Simd, const D: usize> {
    /// The blended `r` (Perlin) or the blended lattice value.
    pub a: S::F,
    /// The blended x gradient component (Perlin only).
    pub b: S::F,
    /// ∂a/∂axis for axes 1 to D − 1 (entry 0 unused).
    pub da: [S::F; D],
    /// ∂b/∂axis for axes 1 to D − 1 (entry 0 unused; Perlin only).
    pub db: [S::F; D],
}

/// The [`Column`] at the primed x lattice position `xp`, for the other
/// axes of `ax`.
#[inline(always)]
pub(crate) fn column<S: Simd, const D: usize, const PERLIN: bool>(
    s: S,
    key: S::U,
    xp: S::U,
    ax: &Axes<S, D>,
) -> Column<S, D> {
    // Blending forms the same nodes breadth first (over an array of the
    // corners) or depth first (over a stack of partial nodes), with the same
    // bits; each is the faster where it is used (callgrind, AVX2: 4D value
    // noise 60 instructions a sample wide, 189 deep; 4D Perlin 846 wide,
    // 285 deep).
    if D <= 3 || !PERLIN {
        column_wide::<S, D, PERLIN>(s, key, xp, ax)
    } else {
        column_deep::<S, D, PERLIN>(s, key, xp, ax)
    }
}

/// Corner `k`'s node at this x position (bit a − 1 of `k` set = far side
/// on axis a).
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
        Column::ramp(s, gradient::<S, D>(s, h), &ax.frac, k)
    } else {
        Column::value(s, lattice_value(s, h))
    }
}

/// [`column`] breadth first: all corners, then each axis's pairs.
#[inline(always)]
fn column_wide<S: Simd, const D: usize, const PERLIN: bool>(
    s: S,
    key: S::U,
    xp: S::U,
    ax: &Axes<S, D>,
) -> Column<S, D> {
    let base = s.u_xor(key, xp);
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
/// near side of axis t + 2, waiting for its far sibling. For 4D Perlin
/// noise the breadth-first array of 8 corners of 10 vectors was zeroed by
/// a memset on every call.
#[inline(always)]
fn column_deep<S: Simd, const D: usize, const PERLIN: bool>(
    s: S,
    key: S::U,
    xp: S::U,
    ax: &Axes<S, D>,
) -> Column<S, D> {
    let base = s.u_xor(key, xp);
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

    /// A Perlin corner with gradient `g` on the sides `k` (bit a − 1 set =
    /// far side on axis a) of the axes after x: `a` is the ramp over those
    /// axes, summed in axis order.
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
/// x positions and the x fraction, fade and fade derivative: the value and
/// its gradient, Perlin's scaled by `scale`, with NaN for non-finite input
/// (`nan`).
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
    field: &Field<S>,
    p: [S::F; D],
) -> (S::F, [S::F; D]) {
    let ax = axes::<S, D, PERIODIC>(s, field, p);
    let c0 = column::<S, D, PERLIN>(s, field.key, ax.lo[0], &ax);
    let c1 = column::<S, D, PERLIN>(s, field.key, ax.hi[0], &ax);
    finish::<S, D, PERLIN>(
        s,
        &c0,
        &c1,
        (ax.frac[0], ax.u[0], ax.du[0]),
        poison(s, &p),
        SCALE[D - 1],
    )
}

/// [`PERLIN_SCALE`] with the margin, as [`finish`] takes it.
const SCALE: [f64; 4] = [
    PERLIN_SCALE[0] * MARGIN,
    PERLIN_SCALE[1] * MARGIN,
    PERLIN_SCALE[2] * MARGIN,
    PERLIN_SCALE[3] * MARGIN,
];

/// How many x lattice positions a [`RowCache`] holds at once.
const WINDOW: usize = 16;

/// [`Column`]s shared between the vectors of one row of a grid: for the
/// points' coordinates on axes 1 to D − 1, the columns of [`WINDOW`]
/// consecutive x lattice positions, stored per quantity.
pub(crate) struct RowCache<S: Simd, const D: usize> {
    /// Off for point arrays, whose lanes rarely share a row: they skip the
    /// test.
    pub enabled: bool,
    /// The coordinates on axes 1.. (entry 0 unused) and the first x cell
    /// the window was made for.
    key: Option<([S::E; D], u32)>,
    /// The row every vector lies on until the next [`start_row`]
    /// (`RowCache::start_row`), when the caller knows it.
    row: Option<[S::E; D]>,
    /// Per quantity (a, b, da[1..], db[1..] as 0, 1, 1 + i, D + i), per
    /// window position.
    cols: [[S::E; WINDOW]; 8],
    /// [`grid_row`]'s x-only work.
    plan: RowPlan<S::E>,
}

/// Points per [`RowPlan`]: a longer row is planned a stretch at a time, so
/// that the plan stays in the first-level cache and a 1D grid (one long
/// row, nothing to share) does not grow its memory with its length.
const PLAN_MAX: usize = 2048;

/// Vectors per vector of points in [`RowPlan::x`].
const X_WORK: usize = 5;

/// What the points of a grid row need from their x coordinates alone: the
/// same on every row of the grid, so made once per block and read by every
/// row, which is left with its columns and the last blend along x.
struct RowPlan<E> {
    /// The address and length of the x coordinates it was made for: a
    /// stretch of the grid's axis 0, which does not change during the call
    /// that owns the cache (see [`Lanes::row`](crate::batch::Lanes::row)).
    key: Option<(usize, usize)>,
    /// Per vector of points, [`X_WORK`] vectors: 1 where the point lies in
    /// the cell after that of the vector's lane 0 (else 0), `x − x`
    /// ([`poison`]'s first term), the offset in the cell, its fade and the
    /// fade's derivative. (One array, so that the row loop walks one
    /// pointer.)
    x: Vec<E>,
    /// Per vector: where lane 0's cell is in `pos` (its next two positions
    /// follow it), or `u32::MAX` for a vector whose lanes do not all lie in
    /// that cell or the next (the per-lane path).
    at: Vec<u32>,
    /// The x lattice positions whose columns the rows need, padded to
    /// whole vectors.
    pos: Vec<u32>,
    /// The current row's columns at `pos`: quantity `q` (numbered as in
    /// [`RowCache`]) of position `i` at `8 · i + q`, so that a vector's
    /// three positions are one slice.
    cols: Vec<E>,
    /// Whether `cols` are the announced row's (reset by
    /// [`RowCache::start_row`] and by a new plan).
    ready: bool,
}

impl<E> RowPlan<E> {
    const fn new() -> Self {
        RowPlan {
            key: None,
            x: Vec::new(),
            at: Vec::new(),
            pos: Vec::new(),
            cols: Vec::new(),
            ready: false,
        }
    }
}

impl<S: Simd, const D: usize> RowCache<S, D> {
    #[inline(always)]
    pub(crate) fn new(_: S) -> Self {
        RowCache {
            enabled: false,
            key: None,
            row: None,
            cols: [[S::E::ZERO; WINDOW]; 8],
            plan: RowPlan::new(),
        }
    }

    /// Whether a row is announced (see [`start_row`](Self::start_row)).
    #[inline(always)]
    pub(crate) fn on_row(&self) -> bool {
        self.row.is_some()
    }

    /// The vectors until the next call lie on the row whose coordinates on
    /// axes 1.. are `rest`'s. A NaN row is left to the per-vector test
    /// (which sends it down the per-lane path).
    #[inline(always)]
    pub(crate) fn start_row(&mut self, rest: [S::E; D]) {
        let mut nan = false;
        for v in &rest[1..] {
            nan |= v.is_nan();
        }
        self.row = if nan { None } else { Some(rest) };
        self.plan.ready = false;
    }
}

/// The lattice position after cell `c` on axis `a`: `c + 1` modulo 2^32, or
/// modulo the period.
#[inline(always)]
fn next_cell<const PERIODIC: bool>(c: u32, period: u32) -> u32 {
    let n = c.wrapping_add(1);
    if PERIODIC && n == period { 0 } else { n }
}

/// [`hypercube`], sharing the [`Column`]s between lanes and vectors: when
/// every lane of the vector has lane 0's coordinates on axes 1.. and lies
/// in x cell X or the next one (X lane 0's), as along a row of a grid, the
/// columns come from `cache`, made once per x position for the whole row;
/// otherwise they are computed per lane. Both compute each column with the
/// same code from the same inputs, so the result has the same bits as
/// [`hypercube`] either way.
#[inline(always)]
pub(crate) fn hypercube_cached<
    S: Simd,
    const D: usize,
    const PERLIN: bool,
    const PERIODIC: bool,
>(
    s: S,
    field: &Field<S>,
    period: &[u32; 4],
    p: [S::F; D],
    cache: Option<&mut RowCache<S, D>>,
) -> (S::F, [S::F; D]) {
    if let Some(c) = cache
        && c.enabled
        && let Some(r) = row::<S, D, PERLIN, PERIODIC>(s, field, period, p, c)
    {
        return r;
    }
    hypercube::<S, D, PERLIN, PERIODIC>(s, field, p)
}

/// A stretch of a grid row, `xs` along x on the row that
/// [`RowCache::start_row`] announced: writes each point's value to
/// `outs[0][at..]` and, if `GRAD`, its gradient to `outs[1..=D][at..]`,
/// and widens `lo`/`hi` by the values (−0 counted as +0). Returns `false`,
/// having done nothing, when no row was announced (a NaN row, or point
/// arrays), for the caller's general loop.
///
/// Per vector this is [`hypercube_cached`] on the shared path, so the bits
/// are the same. What it saves: the general batch loop's bookkeeping
/// (loading every axis, choosing a tail, looping over a run-time number of
/// outputs), which cost a plain value-noise grid more than its arithmetic;
/// and the work that depends on x alone (cells, fades, which columns each
/// vector reads), the same on every row, which a [`RowPlan`] keeps. Each
/// row then computes its columns and blends them along x.
#[inline(always)]
#[allow(clippy::too_many_arguments, reason = "one row's whole context")]
pub(crate) fn grid_row<
    S: Simd,
    const D: usize,
    const PERLIN: bool,
    const PERIODIC: bool,
    const GRAD: bool,
>(
    s: S,
    field: &Field<S>,
    period: &[u32; 4],
    xs: &[S::E],
    outs: &mut [&mut [S::E]],
    at: usize,
    (lo, hi): (&mut S::F, &mut S::F),
    cache: &mut RowCache<S, D>,
) -> bool {
    let Some(rest) = cache.row else {
        return false;
    };
    let l = S::LANES;
    let zero = s.zero();
    let mut p = [zero; D];
    for a in 1..D {
        p[a] = s.splat(rest[a]);
    }
    // The bounds in locals, not behind the pointers: through them, each
    // vector's min and max went to memory and back.
    let (mut vlo, mut vhi) = (*lo, *hi);
    let mut done = 0;
    while done < xs.len() {
        let part = &xs[done..xs.len().min(done + PLAN_MAX)];
        s.outline(ReadyPlan::<S, D, PERLIN, PERIODIC> {
            field,
            period,
            xs: part,
            map: None,
            rest,
            cache,
        });
        let n = part.len();
        let plan = &cache.plan;
        // First the vectors whose lanes share two columns, in a loop that
        // holds nothing else, with bounds of its own (with the per-lane
        // kernel inlined in the same loop, the bounds and the plan's
        // pointers lived on the stack); then the others. The bounds do not
        // depend on the order.
        let (mut llo, mut lhi) = (s.splat(S::E::INFINITY), s.splat(S::E::NEG_INFINITY));
        let full = n / l;
        {
            // The value output as whole vectors, checked once here rather
            // than per store (with `store_row` the checks and the reloads
            // of the output slices were a third of the loop).
            let (value, grads) = outs.split_at_mut(1);
            let value = &mut value[0][at + done..at + done + n];
            for (k, ((&j, x), o)) in plan
                .at
                .iter()
                .zip(plan.x.chunks_exact(X_WORK * l))
                .zip(value.chunks_exact_mut(l))
                .enumerate()
            {
                if j == u32::MAX {
                    continue;
                }
                let j = 8 * j as usize;
                let (v, g) = blend_planned::<S, D, PERLIN>(s, &plan.cols[j..j + 24], x, &p);
                s.store(v, o);
                if GRAD {
                    for a in 0..D {
                        s.store(g[a], &mut grads[a][at + done + k * l..]);
                    }
                }
                widen(s, v, (&mut llo, &mut lhi));
            }
        }
        // A last vector that is not whole.
        if let Some(&j) = plan.at.get(full)
            && j != u32::MAX
        {
            let (j, i) = (8 * j as usize, full * l);
            let x = &plan.x[X_WORK * i..X_WORK * (i + l)];
            let r = blend_planned::<S, D, PERLIN>(s, &plan.cols[j..j + 24], x, &p);
            store_row::<S, D, GRAD>(s, r, outs, at + done + i, n - i, (&mut llo, &mut lhi));
        }
        vlo = s.min(llo, vlo);
        vhi = s.max(lhi, vhi);
        for (k, &j) in plan.at.iter().enumerate() {
            if j != u32::MAX {
                continue;
            }
            let i = k * l;
            p[0] = load_row(s, part, i);
            let r = s.outline(PerLane::<S, D, PERLIN, PERIODIC> { field, p });
            store_row::<S, D, GRAD>(
                s,
                r,
                outs,
                at + done + i,
                (n - i).min(l),
                (&mut vlo, &mut vhi),
            );
        }
        done += n;
    }
    (*lo, *hi) = (vlo, vhi);
    true
}

/// Makes `plan` for the grid row stretch at `xs`: per point, what [`row`]
/// computes from x alone, by the same functions (so the same bits); per
/// vector, where its columns are in the plan's positions.
#[inline(always)]
fn make_plan<S: Simd, const PERIODIC: bool>(
    s: S,
    field: &Field<S>,
    period: &[u32; 4],
    xs: &[S::E],
    map: Option<(S::F, S::F)>,
    plan: &mut RowPlan<S::E>,
) {
    let l = S::LANES;
    let nv = xs.len().div_ceil(l);
    let max = s.splat(S::E::MAX);
    plan.x.clear();
    plan.x.resize(nv * X_WORK * l, S::E::ZERO);
    plan.at.clear();
    plan.pos.clear();
    let (zero, one) = (s.zero(), s.c(1.0));
    for k in 0..nv {
        let i = k * l;
        let mut x = load_row(s, xs, i);
        if let Some((freq, offset)) = map {
            // An octave's coordinate, as the program maps it; a vector
            // with a lane past the float range (or NaN) takes the
            // program's per-lane path, which saturates it.
            x = s.add(s.mul(x, freq), offset);
            if s.any(s.m_andnot(s.splat_true(), s.le(s.abs(x), max))) {
                plan.at.push(u32::MAX);
                continue;
            }
        }
        let (fl, frac) = if PERIODIC {
            split_periodic(s, x, field.period_f[0], field.period_inv[0])
        } else {
            split(s, x)
        };
        let (u, du) = fade(s, frac);
        let cell = s.cell(fl);
        let x0 = s.u_first(cell);
        let x1 = next_cell::<PERIODIC>(x0, period[0]);
        let near = s.u_eq(cell, s.u_splat(x0));
        let far = s.select(s.u_to_m(near), zero, one);
        let out = &mut plan.x[X_WORK * i..];
        for (m, v) in [far, s.sub(x, x), frac, u, du].into_iter().enumerate() {
            s.store(v, &mut out[m * l..]);
        }
        let ok = s.u_or(near, s.u_eq(cell, s.u_splat(x1)));
        if s.any(s.m_andnot(s.splat_true(), s.u_to_m(ok))) {
            plan.at.push(u32::MAX);
            continue;
        }
        // The vector's three positions, sharing the longest run at the
        // end of `pos` that starts them (along a row, the last vector's).
        let want = [x0, x1, next_cell::<PERIODIC>(x1, period[0])];
        let n = plan.pos.len();
        // Compared element by element: a slice `==` calls `memcmp`, which
        // for these one to three numbers cost more than the comparison.
        let back = (1..=n.min(3))
            .rev()
            .find(|&b| {
                plan.pos[n - b..]
                    .iter()
                    .zip(&want[..b])
                    .all(|(p, w)| p == w)
            })
            .unwrap_or(0);
        plan.pos.extend_from_slice(&want[back..]);
        plan.at.push((n - back) as u32);
    }
    let last = plan.pos.last().copied().unwrap_or(0);
    plan.pos.resize(plan.pos.len().next_multiple_of(l), last);
}

/// One vector of a planned row: its columns `w` (three positions,
/// position-major) blended along x with its x work `x` (see
/// [`RowPlan::x`]), for the point whose coordinates on axes 1.. are `p`'s:
/// what [`row`] computes, by the same operations.
#[inline(always)]
fn blend_planned<S: Simd, const D: usize, const PERLIN: bool>(
    s: S,
    w: &[S::E],
    x: &[S::E],
    p: &[S::F; D],
) -> (S::F, [S::F; D]) {
    let l = S::LANES;
    let near = s.le(s.load(&x[..l]), s.zero());
    let [c0, c1] = sides::<S, D, PERLIN>(s, near, w, (1, 8));
    // `poison`'s sum, its x term from the plan.
    let mut nan = s.load(&x[l..]);
    for a in 1..D {
        nan = s.add(nan, s.sub(p[a], p[a]));
    }
    let xw = (
        s.load(&x[2 * l..]),
        s.load(&x[3 * l..]),
        s.load(&x[4 * l..]),
    );
    finish::<S, D, PERLIN>(s, &c0, &c1, xw, nan, SCALE[D - 1])
}

/// Readies `cache`'s plan for the announced row, at the x coordinates
/// `xs · freq + offset` with `(freq, offset)` = `map` (an octave's, the
/// same for every call on this cache): returns whether [`row_planned`]
/// may be asked. `xs` is as in [`Lanes::row`](crate::batch::Lanes::row).
#[inline(always)]
pub(crate) fn plan_row<S: Simd, const D: usize, const PERLIN: bool, const PERIODIC: bool>(
    s: S,
    field: &Field<S>,
    period: &[u32; 4],
    xs: &[S::E],
    map: (S::F, S::F),
    cache: &mut RowCache<S, D>,
) -> bool {
    let Some(rest) = cache.row else {
        return false;
    };
    if xs.len() > PLAN_MAX {
        return false;
    }
    ready_plan::<S, D, PERLIN, PERIODIC>(s, field, period, xs, Some(map), rest, cache);
    true
}

/// [`ready_plan`] as a [`Call`], for [`grid_row`], which runs it once per
/// row: out of line there, one copy per backend, dimension and kernel
/// rather than one per gradient flag. [`plan_row`] inlines it: an octave
/// pass asks once per chunk, and the call cost its loop up to 7
/// instructions a sample (callgrind, 3D Perlin fBm).
struct ReadyPlan<'a, 'c, S: Simd, const D: usize, const PERLIN: bool, const PERIODIC: bool> {
    field: &'a Field<S>,
    period: &'a [u32; 4],
    xs: &'a [S::E],
    map: Option<(S::F, S::F)>,
    rest: [S::E; D],
    cache: &'c mut RowCache<S, D>,
}

impl<S: Simd, const D: usize, const PERLIN: bool, const PERIODIC: bool> Call<S>
    for ReadyPlan<'_, '_, S, D, PERLIN, PERIODIC>
{
    type Output = ();
    #[inline(always)]
    fn call(self, s: S) {
        ready_plan::<S, D, PERLIN, PERIODIC>(
            s,
            self.field,
            self.period,
            self.xs,
            self.map,
            self.rest,
            self.cache,
        );
    }
}

/// [`hypercube`] as a [`Call`]: the per-lane path of a planned row, out of
/// line for the same reason as [`ReadyPlan`] (a call costs little beside
/// the per-lane kernel it runs).
struct PerLane<'a, S: Simd, const D: usize, const PERLIN: bool, const PERIODIC: bool> {
    field: &'a Field<S>,
    p: [S::F; D],
}

impl<S: Simd, const D: usize, const PERLIN: bool, const PERIODIC: bool> Call<S>
    for PerLane<'_, S, D, PERLIN, PERIODIC>
{
    type Output = (S::F, [S::F; D]);
    #[inline(always)]
    fn call(self, s: S) -> Self::Output {
        hypercube::<S, D, PERLIN, PERIODIC>(s, self.field, self.p)
    }
}

/// Makes `cache`'s plan for `xs` (at most [`PLAN_MAX`] points, mapped by
/// `map` as in [`make_plan`]) unless it has it, and its columns for the
/// row `rest` unless they are that row's.
#[inline(always)]
fn ready_plan<S: Simd, const D: usize, const PERLIN: bool, const PERIODIC: bool>(
    s: S,
    field: &Field<S>,
    period: &[u32; 4],
    xs: &[S::E],
    map: Option<(S::F, S::F)>,
    rest: [S::E; D],
    cache: &mut RowCache<S, D>,
) {
    let key = (xs.as_ptr() as usize, xs.len());
    let plan = &mut cache.plan;
    if plan.key != Some(key) {
        make_plan::<S, PERIODIC>(s, field, period, xs, map, plan);
        plan.key = Some(key);
        plan.ready = false;
    }
    if !plan.ready {
        let np = plan.pos.len();
        plan.cols.resize(8 * np, S::E::ZERO);
        fill_columns::<S, D, PERLIN, PERIODIC>(s, field, rest, &plan.pos, &mut plan.cols, (1, 8));
        plan.ready = true;
    }
}

/// The `k`-th vector of the row that [`plan_row`] readied, for the point
/// whose coordinates on axes 1.. are `p`'s; `None` where it takes the
/// per-lane path.
#[inline(always)]
pub(crate) fn row_planned<S: Simd, const D: usize, const PERLIN: bool>(
    s: S,
    cache: &RowCache<S, D>,
    k: usize,
    p: &[S::F; D],
) -> Option<(S::F, [S::F; D])> {
    let plan = &cache.plan;
    let j = *plan.at.get(k)?;
    if j == u32::MAX {
        return None;
    }
    let (j, x) = (8 * j as usize, X_WORK * S::LANES * k);
    let w = &plan.cols[j..j + 24];
    Some(blend_planned::<S, D, PERLIN>(
        s,
        w,
        &plan.x[x..x + X_WORK * S::LANES],
        p,
    ))
}

/// The two [`Column`]s of each lane, from the columns of three
/// consecutive positions (quantity `q` of the `t`-th at `w[q · qs + t · ps]`):
/// those at the first two where `near` holds, else those at the last two.
#[inline(always)]
fn sides<S: Simd, const D: usize, const PERLIN: bool>(
    s: S,
    near: S::M,
    w: &[S::E],
    (qs, ps): (usize, usize),
) -> [Column<S, D>; 2] {
    // Plain loops, not closures: a closure would not inherit the backend's
    // target features and its intrinsics would be called out of line.
    let mut side = [[s.zero(); 8]; 2];
    for q in 0..2 * D {
        if !PERLIN && (q == 1 || q > D) {
            continue;
        }
        let e = [
            s.splat(w[q * qs]),
            s.splat(w[q * qs + ps]),
            s.splat(w[q * qs + 2 * ps]),
        ];
        side[0][q] = s.select(near, e[0], e[1]);
        side[1][q] = s.select(near, e[1], e[2]);
    }
    let mut c = [Column::zero(s); 2];
    for k in 0..2 {
        c[k].a = side[k][0];
        c[k].b = side[k][1];
        for a in 1..D {
            c[k].da[a] = side[k][1 + a];
            c[k].db[a] = side[k][D + a];
        }
    }
    c
}

/// [`hypercube_cached`]'s shared path; `None` if the lanes do not share a
/// row and two neighbouring cells.
#[inline(always)]
fn row<S: Simd, const D: usize, const PERLIN: bool, const PERIODIC: bool>(
    s: S,
    field: &Field<S>,
    period: &[u32; 4],
    p: [S::F; D],
    cache: &mut RowCache<S, D>,
) -> Option<(S::F, [S::F; D])> {
    let p0 = match cache.row {
        Some(rest) => rest,
        None => {
            let mut buf = [S::E::ZERO; 16];
            let mut p0 = [S::E::ZERO; D];
            let mut same = s.splat_true();
            for a in 1..D {
                s.store(p[a], &mut buf);
                p0[a] = buf[0];
                let v = s.splat(buf[0]);
                // NaN fails both comparisons and takes the per-lane path.
                same = s.m_and(same, s.m_and(s.le(p[a], v), s.ge(p[a], v)));
            }
            if s.any(s.m_andnot(s.splat_true(), same)) {
                return None;
            }
            p0
        }
    };
    let (fl, frac) = if PERIODIC {
        split_periodic(s, p[0], field.period_f[0], field.period_inv[0])
    } else {
        split(s, p[0])
    };
    let cell = s.cell(fl);
    let x = s.u_first(cell);
    let x1 = next_cell::<PERIODIC>(x, period[0]);
    let near = s.u_eq(cell, s.u_splat(x));
    let ok = s.u_or(near, s.u_eq(cell, s.u_splat(x1)));
    if s.any(s.m_andnot(s.splat_true(), s.u_to_m(ok))) {
        return None;
    }
    // x's place in the window, if the window is this row's and holds x's
    // cell and the next two positions.
    let at = match cache.key {
        Some((rest, x0)) if rest[1..] == p0[1..] => {
            let j = if PERIODIC {
                (if x >= x0 { x - x0 } else { x + period[0] - x0 }) as usize
            } else {
                x.wrapping_sub(x0) as usize
            };
            (j + 2 < WINDOW).then_some(j)
        }
        _ => None,
    };
    let j = match at {
        Some(j) => j,
        None => {
            fill_window::<S, D, PERLIN, PERIODIC>(s, field, period, p0, x, cache);
            0
        }
    };
    let near = s.u_to_m(near);
    let [c0, c1] = sides::<S, D, PERLIN>(s, near, &cache.cols.as_flattened()[j..], (WINDOW, 1));
    let (u, du) = fade(s, frac);
    Some(finish::<S, D, PERLIN>(
        s,
        &c0,
        &c1,
        (frac, u, du),
        poison(s, &p),
        SCALE[D - 1],
    ))
}

/// Makes `cache`'s window start at x cell `x0` on the row whose
/// coordinates on axes 1.. are `p0`'s: the columns of the positions `x0`,
/// next(`x0`), ….
// Inlined: a function of its own would not have the backend's target
// features (see `Simd::outline`).
#[inline(always)]
fn fill_window<S: Simd, const D: usize, const PERLIN: bool, const PERIODIC: bool>(
    s: S,
    field: &Field<S>,
    period: &[u32; 4],
    p0: [S::E; D],
    x0: u32,
    cache: &mut RowCache<S, D>,
) {
    let mut pos = [0u32; WINDOW];
    let mut c = x0;
    for slot in pos.iter_mut() {
        *slot = c;
        c = next_cell::<PERIODIC>(c, period[0]);
    }
    let cols = cache.cols.as_flattened_mut();
    fill_columns::<S, D, PERLIN, PERIODIC>(s, field, p0, &pos, cols, (WINDOW, 1));
    cache.key = Some((p0, x0));
}

/// The columns of the x lattice positions `pos` (a whole number of
/// vectors) on the row whose coordinates on axes 1.. are `p0`'s, into
/// `cols`: quantity `q` (numbered as in [`RowCache`]) of position `i` at
/// `q · qs + i · ps`.
#[inline(always)]
fn fill_columns<S: Simd, const D: usize, const PERLIN: bool, const PERIODIC: bool>(
    s: S,
    field: &Field<S>,
    p0: [S::E; D],
    pos: &[u32],
    cols: &mut [S::E],
    (qs, ps): (usize, usize),
) {
    let mut p = [s.zero(); D];
    for a in 1..D {
        p[a] = s.splat(p0[a]);
    }
    let ax = axes::<S, D, PERIODIC>(s, field, p);
    let mut lane = [S::E::ZERO; 16];
    for (l, e) in lane.iter_mut().enumerate().take(S::LANES) {
        *e = S::E::from_i32(l as i32);
    }
    let index = s.f_to_i(s.load(&lane));
    let mut out = [S::E::ZERO; 16];
    for v in (0..pos.len()).step_by(S::LANES) {
        // Each lane's primed position, picked by its lane index (once per
        // vector of positions, so the compares cost nothing that matters).
        let mut xp = s.u_splat(0);
        for l in 0..S::LANES {
            let hit = s.u_eq(index, s.u_splat(l as u32));
            xp = s.u_blend(hit, s.u_splat(pos[v + l].wrapping_mul(PRIMES[0])), xp);
        }
        let col = column::<S, D, PERLIN>(s, field.key, xp, &ax);
        let mut q = [s.zero(); 8];
        q[0] = col.a;
        q[1] = col.b;
        // Not `copy_from_slice`: on vector lanes it compiles to an
        // out-of-line memcpy.
        #[allow(clippy::manual_memcpy)]
        for a in 1..D {
            q[1 + a] = col.da[a];
            q[D + a] = col.db[a];
        }
        for (k, f) in q.iter().enumerate().take(2 * D) {
            if !PERLIN && (k == 1 || k > D) {
                continue;
            }
            s.store(*f, &mut out);
            for (t, e) in out[..S::LANES].iter().enumerate() {
                cols[k * qs + (v + t) * ps] = *e;
            }
        }
    }
}

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
