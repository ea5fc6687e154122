//! The band engine of value and Perlin noise on grids: the rows of a grid
//! that share a y cell and their other coordinates (a band) share the
//! [`Column`]s of the point kernel (`hypercube.rs`), made once per band by
//! a [`RowCache`] and finished along y per point ([`grid_rows`] for one
//! noise, [`octave_rows`] for a fractal's octaves). Every value is the bits
//! of [`hypercube`](super::hypercube::hypercube) at the same point.

use super::cellular::CellCache;
use super::hypercube::{Column, SCALE, axes, axis, column, finish, from_y_first, hypercube};
use super::{LaneParams, poison};
use crate::batch::{Dest, Rows, load_row, store_row, widen};
use crate::prelude_internal::*;
use crate::simd::Element;
use crate::simd::{Call, Simd};

/// Points of a row whose columns a [`RowCache`] keeps at once (a longer
/// row is done a stretch at a time, and its rows then share nothing).
pub(crate) const BAND_MAX: usize = 4096;

/// What a [`RowCache`]'s columns were made for: the rows of one band (the
/// same y cell and the same coordinates on the axes after y) over one
/// stretch of x coordinates, mapped the same way.
#[derive(Clone, Copy, PartialEq)]
struct BandKey {
    /// The x stretch's address and length (a stretch of the grid's axis 0,
    /// unchanged while the cache lives: see
    /// [`Lanes::row`](crate::batch::Lanes::row)).
    xs: (usize, usize),
    /// An octave's map of x (`freq`, `offset`) as bits; 0 for none.
    map: (u64, u64),
    /// y's primed near and far lattice positions.
    y: (u32, u32),
    /// The row's coordinates on the axes after y, as bits.
    rest: [u64; 4],
}

/// One x vector's two columns as the rows read them: value noise keeps
/// the near column's value and the far one's minus it (the operands of
/// the blend along y, so each row does one multiply and one add), Perlin
/// noise each column's `a` and `b`.
type Hot<S> = [<S as Simd>::F; 4];

/// The band engine's memory, per block of a grid call: the row announced
/// by [`start_row`](Self::start_row) and the [`Column`]s of its band.
///
/// Value and Perlin noise blend along y last, so every row of a band (the
/// rows in one y cell, with the same z and w) has the same two columns at
/// each x: they are made once per band, for every vector of the row, and
/// each row then only [`finish`]es, one step along y, which is exactly the
/// point kernel's last step. So the bits are the point kernel's.
pub(crate) struct RowCache<S: Simd, const D: usize> {
    /// The coordinates on axes 1.. (entry 0 unused) of the row every
    /// vector lies on until the next [`start_row`](Self::start_row).
    row: Option<[S::E; D]>,
    /// Whether those coordinates are finite: the row then adds nothing to
    /// a point's [`poison`].
    row_finite: bool,
    key: Option<BandKey>,
    /// Whether `cols` holds the band's whole columns (made for gradients;
    /// the values need only `hot`).
    full: bool,
    /// Per vector of the stretch: its x coordinates (mapped), whether the
    /// kernel may take them as they are (else the caller's per-lane path,
    /// which saturates coordinates beyond the float range), and its
    /// columns at the near and far y side.
    x: Vec<S::F>,
    ok: Vec<bool>,
    hot: Vec<Hot<S>>,
    cols: Vec<[Column<S, D>; 2]>,
    /// Whether every lane of `x` is finite: the points' poison is then +0
    /// on a finite row, and the rows' loop adds a constant.
    finite: bool,
    /// The announced row's y fraction, fraction − 1, fade and fade
    /// derivative.
    y: (S::F, S::F, S::F, S::F),
    /// Cellular noise's tables, where the octave is cellular.
    pub(crate) cell: CellCache<S, D>,
}

impl<S: Simd, const D: usize> RowCache<S, D> {
    #[inline(always)]
    pub(crate) fn new(s: S) -> Self {
        let z = s.zero();
        RowCache {
            row: None,
            row_finite: false,
            key: None,
            full: false,
            x: Vec::new(),
            ok: Vec::new(),
            hot: Vec::new(),
            cols: Vec::new(),
            finite: false,
            y: (z, z, z, z),
            cell: CellCache::new(true),
        }
    }

    /// The vectors until the next call lie on the row whose coordinates on
    /// axes 1.. are `rest`'s; a NaN row is not announced (the per-vector
    /// path takes it).
    #[inline(always)]
    pub(crate) fn start_row(&mut self, rest: [S::E; D]) {
        let mut nan = false;
        let mut finite = true;
        for v in &rest[1..] {
            nan |= v.is_nan();
            finite &= v.is_finite();
        }
        self.row = if nan { None } else { Some(rest) };
        self.row_finite = finite;
    }
}

/// The y axis of the row at `y`: its primed near and far lattice
/// positions (which name its band) and its fraction, fraction − 1, fade
/// and fade derivative, as the point kernel computes them.
#[inline(always)]
#[allow(
    clippy::type_complexity,
    reason = "a band's name and a row's y quantities"
)]
fn y_axis<S: Simd>(
    s: S,
    field: &LaneParams<S>,
    y: S::E,
    periodic: bool,
) -> ((u32, u32), (S::F, S::F, S::F, S::F)) {
    let (_, _, frac, lo, hi, u, du) = axis_at(s, field, 1, s.splat(y), periodic);
    let d1 = s.sub(frac, s.c(1.0));
    ((s.u_first(lo), s.u_first(hi)), (frac, d1, u, du))
}

/// [`axis`] with the period known at run time. Where the caller knows it
/// at compile time the branch folds away; the band code that is once per
/// band (not per point) takes it at run time, so that it is compiled once
/// per kernel, not once for the periodic noises and again for the rest.
#[inline(always)]
#[allow(clippy::type_complexity, reason = "the fields of one axis of `Axes`")]
fn axis_at<S: Simd>(
    s: S,
    field: &LaneParams<S>,
    a: usize,
    x: S::F,
    periodic: bool,
) -> (S::F, S::U, S::F, S::U, S::U, S::F, S::F) {
    if periodic {
        axis::<S, true>(s, field, a, x)
    } else {
        axis::<S, false>(s, field, a, x)
    }
}

/// Lane 0 of `v`, as bits.
#[inline(always)]
fn first_bits<S: Simd>(s: S, v: S::F) -> u64 {
    let mut t = [S::E::ZERO; 16];
    s.store(v, &mut t);
    t[0].to_f64().to_bits()
}

/// Readies `cache` for the announced row at the x coordinates `xs`
/// (mapped to `xs · freq + offset` if `map` is given, as an octave maps
/// them): the row's y quantities, and every vector's columns unless they
/// are already this band's (with the whole columns if `grad`). Returns
/// `false`, for the caller's per-vector path, where there is no row, no y
/// axis or too long a stretch.
#[inline(always)]
fn ready_band<S: Simd, const D: usize, const PERLIN: bool>(
    s: S,
    band: ReadyBand<'_, '_, S, D, PERLIN>,
) -> bool {
    let ReadyBand {
        field,
        xs,
        map,
        grad,
        periodic,
        cache,
    } = band;
    let Some(rest) = cache.row else {
        return false;
    };
    if D < 2 || xs.len() > BAND_MAX {
        return false;
    }
    let zero = s.zero();
    let mut p = [zero; D];
    for a in 1..D {
        p[a] = s.splat(rest[a]);
    }
    let (y, q) = y_axis(s, field, rest[1], periodic);
    cache.y = q;
    let mut rest_bits = [0u64; 4];
    for a in 2..D {
        rest_bits[a] = rest[a].to_f64().to_bits();
    }
    let key = BandKey {
        xs: (xs.as_ptr() as usize, xs.len()),
        map: map.map_or((0, 0), |(f, o)| (first_bits(s, f), first_bits(s, o))),
        y,
        rest: rest_bits,
    };
    if cache.key == Some(key) && (cache.full || !grad) {
        return true;
    }
    cache.key = None;
    cache.x.clear();
    cache.ok.clear();
    cache.hot.clear();
    cache.cols.clear();
    cache.finite = true;
    let max = s.splat(S::E::MAX);
    let l = S::LANES;
    // The row's axes once; each vector then splits only its x.
    let row_axes = if periodic {
        axes::<S, D, true>(s, field, p)
    } else {
        axes::<S, D, false>(s, field, p)
    };
    for i in (0..xs.len()).step_by(l) {
        let mut x = load_row(s, xs, i);
        if let Some((freq, offset)) = map {
            x = s.add(s.mul(x, freq), offset);
        }
        // NaN lanes fail `<=` too.
        let fine = !s.any(s.m_andnot(s.splat_true(), s.le(s.abs(x), max)));
        cache.finite &= fine;
        let mut ax = row_axes;
        (
            ax.floor[0],
            ax.cell[0],
            ax.frac[0],
            ax.lo[0],
            ax.hi[0],
            ax.u[0],
            ax.du[0],
        ) = axis_at(s, field, 0, x, periodic);
        let ax = ax.y_first();
        // Two copies of the column code: without the gradient, the
        // derivatives that `hot` does not hold are never computed.
        let (c0, c1) = if grad {
            let c0 = column::<S, D, PERLIN>(s, field.key, ax.lo[0], &ax);
            let c1 = column::<S, D, PERLIN>(s, field.key, ax.hi[0], &ax);
            cache.cols.push([c0, c1]);
            (c0, c1)
        } else {
            (
                column::<S, D, PERLIN>(s, field.key, ax.lo[0], &ax),
                column::<S, D, PERLIN>(s, field.key, ax.hi[0], &ax),
            )
        };
        cache.x.push(x);
        // A mapped coordinate past the float range takes the caller's
        // per-lane path, which saturates it.
        cache.ok.push(fine || map.is_none());
        cache.hot.push(if PERLIN {
            [c0.a, c0.b, c1.a, c1.b]
        } else {
            [c0.a, s.sub(c1.a, c0.a), zero, zero]
        });
    }
    cache.full = grad;
    cache.key = Some(key);
    true
}

/// [`ready_band`] as a [`Call`]: out of line, once per band and stretch,
/// and one copy per kernel rather than one per row loop (the period is
/// `periodic`'s, at run time, so periodic noises share the copy).
struct ReadyBand<'a, 'c, S: Simd, const D: usize, const PERLIN: bool> {
    field: &'a LaneParams<S>,
    xs: &'a [S::E],
    map: Option<(S::F, S::F)>,
    grad: bool,
    periodic: bool,
    cache: &'c mut RowCache<S, D>,
}

impl<S: Simd, const D: usize, const PERLIN: bool> Call<S> for ReadyBand<'_, '_, S, D, PERLIN> {
    type Output = bool;
    #[inline(always)]
    fn call(self, s: S) -> bool {
        ready_band::<S, D, PERLIN>(s, self)
    }
}

/// The value from a vector's [`Hot`] columns and the row's y quantities:
/// [`finish`]'s value, the same operations on the same operands.
#[inline(always)]
fn finish_hot<S: Simd, const PERLIN: bool>(
    s: S,
    h: &Hot<S>,
    (frac, d1, u): (S::F, S::F, S::F),
    nan: S::F,
    scale: S::F,
) -> S::F {
    if PERLIN {
        let v0 = s.add(h[0], s.mul(h[1], frac));
        let v1 = s.add(h[2], s.mul(h[3], d1));
        let val = s.add(v0, s.mul(u, s.sub(v1, v0)));
        s.add(s.mul(val, scale), nan)
    } else {
        s.add(s.add(h[0], s.mul(u, h[1])), nan)
    }
}

/// The noise at vector `k` of the readied stretch, on the row whose
/// coordinates on axes 1.. are `p`'s (entry 0 is overwritten): the point
/// kernel's last step, with the gradient if `GRAD`.
#[inline(always)]
fn band_point<S: Simd, const D: usize, const PERLIN: bool, const GRAD: bool>(
    s: S,
    cache: &RowCache<S, D>,
    k: usize,
    p: &mut [S::F; D],
) -> (S::F, [S::F; D]) {
    p[0] = cache.x[k];
    let nan = poison(s, p);
    let (frac, d1, u, du) = cache.y;
    if GRAD {
        let [c0, c1] = &cache.cols[k];
        let (v, g) = finish::<S, D, PERLIN>(s, c0, c1, (frac, u, du), nan, SCALE[D - 1]);
        (v, from_y_first(g))
    } else {
        let v = finish_hot::<S, PERLIN>(s, &cache.hot[k], (frac, d1, u), nan, s.c(SCALE[D - 1]));
        (v, [s.zero(); D])
    }
}

/// The announced row over the stretch that `cache` holds ready (`n`
/// points): writes each point's value to `outs[0][at..]` and, if `GRAD`,
/// its gradient to `outs[1..=D][at..]`, and widens `lo`/`hi` by the values
/// (−0 counted as +0). `p` holds the row's coordinates on axes 1...
#[inline(always)]
fn band_row<S: Simd, const D: usize, const PERLIN: bool, const GRAD: bool>(
    s: S,
    cache: &RowCache<S, D>,
    p: &[S::F; D],
    outs: &mut [&mut [S::E]],
    at: usize,
    n: usize,
    (vlo, vhi): (&mut S::F, &mut S::F),
) {
    let l = S::LANES;
    let full = n / l;
    let mut p = *p;
    {
        // The whole vectors in a loop that holds nothing else, the value
        // output as slices checked once here rather than per store.
        let (value, grads) = outs.split_at_mut(1);
        let value = &mut value[0][at..at + full * l];
        if !GRAD && cache.finite && cache.row_finite {
            // Every point's poison is +0, and its value is never −0 (the
            // value adds the poison), so the bounds need no `+ 0`.
            let (frac, d1, u, _) = cache.y;
            let hot = &cache.hot[..full];
            let (lo, hi) =
                row_group::<S, D, PERLIN, 1>(s, hot, [(frac, d1, u)], [value], ([*vlo], [*vhi]));
            (*vlo, *vhi) = (lo[0], hi[0]);
        } else {
            for (k, o) in value.chunks_exact_mut(l).enumerate() {
                let (v, g) = band_point::<S, D, PERLIN, GRAD>(s, cache, k, &mut p);
                s.store(v, o);
                if GRAD {
                    for a in 0..D {
                        s.store(g[a], &mut grads[a][at + k * l..]);
                    }
                }
                widen(s, v, (&mut *vlo, &mut *vhi));
            }
        }
    }
    if full * l < n {
        let r = band_point::<S, D, PERLIN, GRAD>(s, cache, full, &mut p);
        store_row::<S, D, GRAD>(s, r, outs, at + full * l, n - full * l, (vlo, vhi));
    }
}

/// A whole row of a grid, `xs` along x on the row that
/// [`RowCache::start_row`] announced, a stretch of at most [`BAND_MAX`]
/// points at a time: see [`band_row`]. Returns `false`, having done
/// nothing, where there is no announced row or no y axis, for the caller's
/// general loop.
#[inline(always)]
pub(crate) fn grid_row<
    S: Simd,
    const D: usize,
    const PERLIN: bool,
    const PERIODIC: bool,
    const GRAD: bool,
>(
    s: S,
    field: &LaneParams<S>,
    xs: &[S::E],
    dest: Dest<'_, '_, S>,
    cache: &mut RowCache<S, D>,
) -> bool {
    let Dest {
        outs,
        at,
        bounds: (lo, hi),
    } = dest;
    let Some(rest) = cache.row else {
        return false;
    };
    if D < 2 {
        return false;
    }
    let mut p = [s.zero(); D];
    for a in 1..D {
        p[a] = s.splat(rest[a]);
    }
    // The bounds in locals, not behind the pointers.
    let (mut vlo, mut vhi) = (*lo, *hi);
    let mut done = 0;
    while done < xs.len() {
        let part = &xs[done..xs.len().min(done + BAND_MAX)];
        let ready = s.outline(ReadyBand::<S, D, PERLIN> {
            field,
            xs: part,
            map: None,
            grad: GRAD,
            periodic: PERIODIC,
            cache,
        });
        debug_assert!(ready);
        band_row::<S, D, PERLIN, GRAD>(
            s,
            cache,
            &p,
            outs,
            at + done,
            part.len(),
            (&mut vlo, &mut vhi),
        );
        done += part.len();
    }
    *lo = vlo;
    *hi = vhi;
    true
}

/// The whole rows at y coordinates `ys` (consecutive in the output, each
/// `xs` along x, the coordinates on the axes after y `rest`'s): each row
/// as [`grid_row`] does it, a NaN row by the point kernel. The rows of one
/// y cell share their band's columns.
#[inline(always)]
pub(crate) fn grid_rows<
    S: Simd,
    const D: usize,
    const PERLIN: bool,
    const PERIODIC: bool,
    const GRAD: bool,
>(
    s: S,
    field: &LaneParams<S>,
    Rows { xs, ys, rest }: Rows<'_, S::E, D>,
    dest: Dest<'_, '_, S>,
    cache: &mut RowCache<S, D>,
) -> bool {
    let Dest {
        outs,
        at,
        bounds: (lo, hi),
    } = dest;
    if D < 2 {
        return false;
    }
    let (mut vlo, mut vhi) = (*lo, *hi);
    let n = xs.len();
    let l = S::LANES;
    let mut r = 0;
    while r < ys.len() {
        let mut row = rest;
        row[1] = ys[r];
        cache.start_row(row);
        let at_r = at + r * n;
        r += 1;
        let dest = Dest {
            outs: &mut *outs,
            at: at_r,
            bounds: (&mut vlo, &mut vhi),
        };
        if grid_row::<S, D, PERLIN, PERIODIC, GRAD>(s, field, xs, dest, cache) {
            // The next rows of the same band need only their own y
            // quantities: no call, no key.
            if let Some(band) = cache.key.map(|k| k.y)
                && !GRAD
                && n <= BAND_MAX
                && cache.finite
                && cache.row_finite
            {
                let rows = Band { ys, r, band, at, n };
                r = band_rows::<S, D, PERLIN, PERIODIC>(
                    s,
                    field,
                    cache,
                    rows,
                    outs,
                    (&mut vlo, &mut vhi),
                );
            }
            continue;
        }
        let at = at_r;
        // A NaN row: the point kernel, as the general loop would run it.
        let mut p = [s.zero(); D];
        for a in 1..D {
            p[a] = s.splat(row[a]);
        }
        for i in (0..n).step_by(l) {
            p[0] = load_row(s, xs, i);
            let v = hypercube::<S, D, PERLIN, PERIODIC>(s, field, p);
            store_row::<S, D, GRAD>(s, v, outs, at + i, (n - i).min(l), (&mut vlo, &mut vhi));
        }
    }
    *lo = vlo;
    *hi = vhi;
    true
}

/// The rows of a grid block after row `r` that may lie in the band
/// `band` (y's primed near and far lattice positions): `ys` are the
/// block's rows' y coordinates, row `i` of them starting at output
/// position `at + i·n`.
struct Band<'a, E> {
    ys: &'a [E],
    r: usize,
    band: (u32, u32),
    at: usize,
    n: usize,
}

/// The y quantities of a vector of rows at (mapped) y coordinates `y`,
/// lane by lane as [`y_axis`] gives them for one row: fraction,
/// fraction − 1, fade, fade derivative, and 1 where the row lies in band
/// `band` (its primed near and far lattice positions), else 0.
#[inline(always)]
fn rows_y<S: Simd>(
    s: S,
    field: &LaneParams<S>,
    y: S::F,
    band: (u32, u32),
    periodic: bool,
) -> [[S::E; 16]; 5] {
    let mut q = [[S::E::ZERO; 16]; 5];
    let (_, _, fr, lo, hi, fu, fdu) = axis_at(s, field, 1, y, periodic);
    let in_band = s.m_and(
        s.u_to_m(s.u_eq(lo, s.u_splat(band.0))),
        s.u_to_m(s.u_eq(hi, s.u_splat(band.1))),
    );
    s.store(fr, &mut q[0]);
    s.store(s.sub(fr, s.c(1.0)), &mut q[1]);
    s.store(fu, &mut q[2]);
    s.store(fdu, &mut q[3]);
    s.store(s.select(in_band, s.c(1.0), s.zero()), &mut q[4]);
    q
}

/// Finishes the rows from `rows.r` on while they lie in the band that
/// `cache` holds ready, whose vectors and row are finite (no gradient):
/// returns the first row not done. The rows' y quantities are computed a
/// vector of rows at a time (the same lanes as [`y_axis`]), and then
/// [`band_block`] runs them together.
#[inline(always)]
fn band_rows<S: Simd, const D: usize, const PERLIN: bool, const PERIODIC: bool>(
    s: S,
    field: &LaneParams<S>,
    cache: &mut RowCache<S, D>,
    Band {
        ys,
        mut r,
        band,
        at,
        n,
    }: Band<'_, S::E>,
    outs: &mut [&mut [S::E]],
    bounds: (&mut S::F, &mut S::F),
) -> usize {
    let l = S::LANES;
    let mut q = [[S::E::ZERO; 3]; 16];
    let (vlo, vhi) = bounds;
    while r < ys.len() {
        let m = (ys.len() - r).min(l);
        let [frac, d1, u, du, same] = rows_y(s, field, load_row(s, ys, r), band, PERIODIC);
        let mut k = 0;
        while k < m && ys[r + k].is_finite() && same[k] == S::E::ONE {
            q[k] = [frac[k], d1[k], u[k]];
            k += 1;
        }
        if k > 0 {
            band_block::<S, D, PERLIN>(
                s,
                cache,
                &q[..k],
                outs,
                at + r * n,
                n,
                (&mut *vlo, &mut *vhi),
            );
            // The cache as the last row leaves it.
            if let Some(row) = &mut cache.row {
                row[1] = ys[r + k - 1];
            }
            let e = k - 1;
            cache.y = (
                s.splat(frac[e]),
                s.splat(d1[e]),
                s.splat(u[e]),
                s.splat(du[e]),
            );
            r += k;
        }
        if k < m {
            break;
        }
    }
    r
}

/// The rows whose y quantities (fraction, fraction − 1, fade) are `q`'s,
/// consecutive from `outs[0][at..]`, `n` points each, over the stretch that
/// `cache` holds ready (finite vectors on a finite row, no gradient):
/// [`band_row`]'s fast path, `R` rows at a time, so that each vector's
/// columns are loaded once for `R` rows and a row costs no call or
/// bookkeeping of its own. The same operations on the same operands, so the
/// same bits; the bounds are kept per row of a group (`min` and `max` do not
/// depend on the order: no NaN or −0 reaches them here).
#[inline(always)]
fn band_block<S: Simd, const D: usize, const PERLIN: bool>(
    s: S,
    cache: &RowCache<S, D>,
    q: &[[S::E; 3]],
    outs: &mut [&mut [S::E]],
    at: usize,
    n: usize,
    bounds: (&mut S::F, &mut S::F),
) {
    // Groups only where the register file holds them (AVX-512's 32
    // vectors; value noise keeps one y quantity a row, Perlin noise
    // three): with 16, a group's fades and bounds spill.
    if S::LANES < 16 {
        band_groups::<S, D, PERLIN, 1>(s, cache, q, outs, at, n, bounds);
    } else if PERLIN {
        band_groups::<S, D, PERLIN, 2>(s, cache, q, outs, at, n, bounds);
    } else {
        band_groups::<S, D, PERLIN, 4>(s, cache, q, outs, at, n, bounds);
    }
}

/// [`band_block`] in groups of `R` rows, then the rest one at a time.
#[inline(always)]
fn band_groups<S: Simd, const D: usize, const PERLIN: bool, const R: usize>(
    s: S,
    cache: &RowCache<S, D>,
    q: &[[S::E; 3]],
    outs: &mut [&mut [S::E]],
    at: usize,
    n: usize,
    (vlo, vhi): (&mut S::F, &mut S::F),
) {
    let l = S::LANES;
    let full = n / l;
    let hot = &cache.hot[..full];
    let (lo, hi) = (*vlo, *vhi);
    // The bounds of the groups' rows, and of the rest's.
    let (mut group_lo, mut group_hi) = ([lo; R], [hi; R]);
    let (mut rest_lo, mut rest_hi) = ([lo], [hi]);
    let splat = |[frac, d1, u]: [S::E; 3]| (s.splat(frac), s.splat(d1), s.splat(u));
    let value = &mut outs[0][at..at + q.len() * n];
    let mut groups = value.chunks_exact_mut(R * n);
    let mut qs = q.chunks_exact(R);
    for (g, qg) in (&mut groups).zip(&mut qs) {
        let mut rows = g.chunks_exact_mut(n);
        let rows = core::array::from_fn(|_| rows.next().unwrap_or_default());
        let y = array_of(|i| splat(qg[i]));
        (group_lo, group_hi) = row_group::<S, D, PERLIN, R>(s, hot, y, rows, (group_lo, group_hi));
    }
    for (row, &qr) in groups
        .into_remainder()
        .chunks_exact_mut(n)
        .zip(qs.remainder())
    {
        let y = [splat(qr)];
        (rest_lo, rest_hi) = row_group::<S, D, PERLIN, 1>(s, hot, y, [row], (rest_lo, rest_hi));
    }
    let (mut lo, mut hi) = (rest_lo[0], rest_hi[0]);
    for i in 0..R {
        lo = s.min(group_lo[i], lo);
        hi = s.max(group_hi[i], hi);
    }
    (*vlo, *vhi) = (lo, hi);
    if full * l < n {
        let (zero, scale) = (s.zero(), s.c(SCALE[D - 1]));
        for (j, &qr) in q.iter().enumerate() {
            let v = finish_hot::<S, PERLIN>(s, &cache.hot[full], splat(qr), zero, scale);
            let at = at + j * n + full * l;
            store_row::<S, D, false>(
                s,
                (v, [zero; D]),
                outs,
                at,
                n - full * l,
                (&mut *vlo, &mut *vhi),
            );
        }
    }
}

/// The whole vectors of `R` rows (`rows`, their y quantities `y`: fraction,
/// fraction − 1, fade) whose points are finite and whose poison is +0
/// (`hot` holds one entry per whole vector): each vector's columns loaded
/// once for all of them, the bounds per row. A value is never −0 here (it
/// adds the poison), so the bounds need no `+ 0`.
#[inline(always)]
fn row_group<S: Simd, const D: usize, const PERLIN: bool, const R: usize>(
    s: S,
    hot: &[Hot<S>],
    y: [(S::F, S::F, S::F); R],
    rows: [&mut [S::E]; R],
    (mut lo, mut hi): ([S::F; R], [S::F; R]),
) -> ([S::F; R], [S::F; R]) {
    let l = S::LANES;
    let (zero, scale) = (s.zero(), s.c(SCALE[D - 1]));
    let mut outs = rows.map(|r| r.chunks_exact_mut(l));
    for h in hot {
        for i in 0..R {
            let v = finish_hot::<S, PERLIN>(s, h, y[i], zero, scale);
            if let Some(o) = outs[i].next() {
                s.store(v, o);
            }
            lo[i] = s.min(v, lo[i]);
            hi[i] = s.max(v, hi[i]);
        }
    }
    (lo, hi)
}

/// A row of fBm sums, an octave's amplitude, and whether it is the first
/// octave (see [`OctaveSink::sums`]).
pub(crate) type Sums<'a, S> = (&'a mut [<S as Simd>::F], <S as Simd>::F, bool);

/// Where an octave pass over rows sends its points (see [`octave_rows`]).
pub(crate) trait OctaveSink<S: Simd, const D: usize> {
    /// The points until the next call lie on row `r` of the pass, whose
    /// coordinates on axes 1.. (before the octave's map) are `row`'s.
    fn start_row(&mut self, r: usize, row: [S::F; D]);
    /// Vector `k` of the row's stretch: its noise and, if the pass was
    /// asked for it, its gradient (in axis order).
    fn put(&mut self, s: S, k: usize, v: S::F, g: [S::F; D]);
    /// Vector `k` takes the caller's per-lane path.
    fn miss(&mut self, s: S, k: usize);
    /// Where the sink only adds `amp · n` to a sum per vector (an fBm
    /// octave without the gradient): the row's sums, `amp`, and whether
    /// this is the first octave (whose term is the sum, not added to it).
    /// The pass then runs that loop itself, with the same operations.
    #[inline(always)]
    fn sums(&mut self) -> Option<Sums<'_, S>> {
        None
    }
}

/// An octave's map of the layer's coordinates, `x · freq + offset`, in
/// lanes and (for announcing rows) in elements.
pub(crate) struct OctaveMap<S: Simd, const D: usize> {
    pub freq: S::F,
    pub offset: [S::F; 4],
    pub freq_e: S::E,
    pub offset_e: [S::E; D],
    /// Whether the noise wraps (on `LaneParams::period`'s lattice). At run
    /// time, so that the row loops are compiled once for periodic noises
    /// and the rest: only the axes' splits read it.
    pub periodic: bool,
}

/// One octave over whole grid rows: the rows at (layer) y coordinates
/// `ys`, each the stretch `xs` along x (at most [`BAND_MAX`] points), the
/// coordinates on the axes after y `rest`'s, all mapped by `m`. Each
/// vector's noise (and gradient if `GRAD`) goes to `sink`, exactly as the
/// point kernel gives it at the mapped coordinates, or a miss where the
/// kernel cannot take them as they are (past the float range, which the
/// caller's per-lane path saturates). The rows of one band share its
/// columns, and the rows after a band's first need no call.
#[inline(always)]
pub(crate) fn octave_rows<
    S: Simd,
    const D: usize,
    const PERLIN: bool,
    const GRAD: bool,
    Sk: OctaveSink<S, D>,
>(
    s: S,
    field: &LaneParams<S>,
    Rows { xs, ys, rest }: Rows<'_, S::E, D>,
    m: &OctaveMap<S, D>,
    cache: &mut RowCache<S, D>,
    sink: &mut Sk,
) {
    let periodic = m.periodic;
    let nv = xs.len().div_ceil(S::LANES);
    let zero = s.zero();
    // The band whose columns `cache` holds for this pass's rows.
    let mut band = None;
    let mut r = 0;
    while r < ys.len() {
        let y = ys[r];
        let mut row = [zero; D];
        let mut p = [zero; D];
        let mut announced = [S::E::ZERO; D];
        let mut rest_ok = true;
        for a in 1..D {
            let v = if a == 1 { y } else { rest[a] };
            row[a] = s.splat(v);
            p[a] = s.add(s.mul(row[a], m.freq), m.offset[a]);
            // The same operations in elements.
            announced[a] = v * m.freq_e + m.offset_e[a];
            rest_ok &= announced[a].abs() <= S::E::MAX;
        }
        sink.start_row(r, row);
        cache.start_row(announced);
        let mut ready = false;
        if rest_ok && D >= 2 {
            if let Some(b) = band {
                let (pos, q) = y_axis(s, field, announced[1], periodic);
                if pos == b {
                    cache.y = q;
                    ready = true;
                }
            }
            if !ready {
                ready = s.outline(ReadyBand::<S, D, PERLIN> {
                    field,
                    xs,
                    map: Some((m.freq, m.offset[0])),
                    grad: GRAD,
                    periodic,
                    cache,
                });
            }
        }
        if !ready {
            band = None;
            for k in 0..nv {
                sink.miss(s, k);
            }
            r += 1;
            continue;
        }
        band = cache.key.map(|k| k.y);
        octave_row::<S, D, PERLIN, GRAD, Sk>(s, cache, &p, nv, sink);
        r += 1;
        let sums = sink.sums().is_some();
        if let Some(b) = band
            && sums
            && !GRAD
            && cache.finite
            && cache.row_finite
        {
            r = band_sums::<S, D, PERLIN, Sk>(s, field, (ys, r, nv), (b, row), m, cache, sink);
        }
    }
}

/// The rows of `ys` from `r` on that lie in band `b` (the band whose
/// columns `cache` holds, finite, on a finite row whose coordinates after
/// y are `row`'s), added to the sink's fBm sums: their y quantities a
/// vector of rows at a time (the same lanes as [`y_axis`] on each row's
/// mapped y, computed in elements as [`octave_rows`] announces it), and
/// each row with [`octave_row`]'s sums loop, the same operations. Returns
/// the first row not taken, for the per-row path. This saves each row's
/// call, checks and whole-vector y axis for one lane, which on rows of 8
/// vectors cost about as much as the row's sums (callgrind, AVX2:
/// docs/PERF-HISTORY.md, "fBm octave rows").
#[inline(always)]
fn band_sums<S: Simd, const D: usize, const PERLIN: bool, Sk>(
    s: S,
    field: &LaneParams<S>,
    (ys, mut r, nv): (&[S::E], usize, usize),
    (b, mut row): ((u32, u32), [S::F; D]),
    m: &OctaveMap<S, D>,
    cache: &RowCache<S, D>,
    sink: &mut Sk,
) -> usize
where
    Sk: OctaveSink<S, D>,
{
    let l = S::LANES;
    let mut ye = [S::E::ZERO; 16];
    let (zero, scale) = (s.zero(), s.c(SCALE[D - 1]));
    while r < ys.len() {
        let n = (ys.len() - r).min(l);
        for (k, e) in ye[..n].iter_mut().enumerate() {
            *e = ys[r + k] * m.freq_e + m.offset_e[1];
        }
        let [frac, d1, u, _, same] = rows_y(s, field, s.load(&ye), b, m.periodic);
        let mut k = 0;
        while k < n && ye[k].abs() <= S::E::MAX && same[k] == S::E::ONE {
            row[1] = s.splat(ys[r + k]);
            sink.start_row(r + k, row);
            let Some((sums, amp, first)) = sink.sums() else {
                return r + k;
            };
            let q = (s.splat(frac[k]), s.splat(d1[k]), s.splat(u[k]));
            let sums = &mut sums[..nv];
            if first {
                for k in 0..sums.len().min(cache.hot.len()) {
                    let (h, v) = (&cache.hot[k], &mut sums[k]);
                    *v = s.mul(amp, finish_hot::<S, PERLIN>(s, h, q, zero, scale));
                }
            } else {
                for k in 0..sums.len().min(cache.hot.len()) {
                    let (h, v) = (&cache.hot[k], &mut sums[k]);
                    let n = finish_hot::<S, PERLIN>(s, h, q, zero, scale);
                    *v = s.add(*v, s.mul(amp, n));
                }
            }
            k += 1;
        }
        // The cache's row and y quantities are left as the band's first
        // row set them: the row after these starts over (`start_row`, then
        // `y_axis` or `ready_band`), and so does the next pass.
        r += k;
        if k < n {
            break;
        }
    }
    r
}

/// One readied row of [`octave_rows`]; `p` holds its mapped coordinates
/// on axes 1...
#[inline(always)]
fn octave_row<
    S: Simd,
    const D: usize,
    const PERLIN: bool,
    const GRAD: bool,
    Sk: OctaveSink<S, D>,
>(
    s: S,
    cache: &RowCache<S, D>,
    p: &[S::F; D],
    nv: usize,
    sink: &mut Sk,
) {
    let zero = s.zero();
    if !GRAD && cache.finite && cache.row_finite {
        // Every vector is fine (see `ready_band`), with +0 poison.
        let (frac, d1, u, _) = cache.y;
        let scale = s.c(SCALE[D - 1]);
        if let Some((sums, amp, first)) = sink.sums() {
            let sums = &mut sums[..nv];
            if first {
                for k in 0..sums.len().min(cache.hot.len()) {
                    let (h, v) = (&cache.hot[k], &mut sums[k]);
                    let n = finish_hot::<S, PERLIN>(s, h, (frac, d1, u), zero, scale);
                    *v = s.mul(amp, n);
                }
            } else {
                for k in 0..sums.len().min(cache.hot.len()) {
                    let (h, v) = (&cache.hot[k], &mut sums[k]);
                    let n = finish_hot::<S, PERLIN>(s, h, (frac, d1, u), zero, scale);
                    *v = s.add(*v, s.mul(amp, n));
                }
            }
            return;
        }
        for (k, h) in cache.hot.iter().enumerate() {
            let v = finish_hot::<S, PERLIN>(s, h, (frac, d1, u), zero, scale);
            sink.put(s, k, v, [zero; D]);
        }
        return;
    }
    let mut p = *p;
    for k in 0..nv {
        if cache.ok[k] {
            let (v, g) = band_point::<S, D, PERLIN, GRAD>(s, cache, k, &mut p);
            sink.put(s, k, v, g);
        } else {
            sink.miss(s, k);
        }
    }
}
