//! Value and Perlin noise: the hypercube lattice family, 1D–4D, in one kernel.
//!
//! Each of the 2^D cell corners gets either a value (value noise) or a
//! gradient ramp `g · (p − corner)` (Perlin noise); the corners are blended
//! axis by axis with the quintic fade. The gradient is carried through the
//! blend exactly: blending `lo` and `hi` with weight `u(t)` contributes
//! `lerp(u, ∇lo, ∇hi)` plus `u'(t) (hi − lo)` along the blended axis.

use super::{Field, MARGIN, PRIMES, fade, lattice_value, lowbias32, poison, split, split_periodic};
use crate::simd::Element;
use crate::simd::Simd;
use crate::simd::scalar::Scalar;

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

/// What corner `c` (bit a set = far side on axis a) carries: its gradient
/// (Perlin) or its value in entry 0 (value noise).
#[inline(always)]
pub(crate) fn corner<S: Simd, const D: usize, const PERLIN: bool>(
    s: S,
    key: S::U,
    lo: &[S::U; D],
    hi: &[S::U; D],
    c: usize,
) -> [S::F; D] {
    let mut h = key;
    for a in 0..D {
        h = s.u_xor(h, if c >> a & 1 == 1 { hi[a] } else { lo[a] });
    }
    let h = lowbias32(s, h);
    if PERLIN {
        gradient::<S, D>(s, h)
    } else {
        let mut q = [s.zero(); D];
        q[0] = lattice_value(s, h);
        q
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
    let mut q = [[s.zero(); D]; 16];
    for c in 0..(1usize << D) {
        q[c] = corner::<S, D, PERLIN>(s, field.key, &ax.lo, &ax.hi, c);
    }
    blend::<S, D, PERLIN>(s, &ax, &q, p)
}

/// Corner quantities shared between the lanes of consecutive vectors on one
/// row of a grid: for the lane-0 cells `key`, the corners at the x lattice
/// positions X, next(X) and next(next(X)) (X the x cell of lane 0), for each
/// corner of the other axes.
pub(crate) struct RowCache<S: Simd, const D: usize> {
    /// Off for point arrays, whose lanes rarely share cells: they skip the
    /// test.
    pub enabled: bool,
    key: Option<[u32; D]>,
    q: [[[S::F; D]; 8]; 3],
}

impl<S: Simd, const D: usize> RowCache<S, D> {
    #[inline(always)]
    pub(crate) fn new(s: S) -> Self {
        RowCache {
            enabled: false,
            key: None,
            q: [[[s.zero(); D]; 8]; 3],
        }
    }
}

/// The lattice position after cell `c` on axis `a`: `c + 1` modulo 2^32, or
/// modulo the period.
#[inline(always)]
fn next_cell<const PERIODIC: bool>(c: u32, period: u32) -> u32 {
    let n = c.wrapping_add(1);
    if PERIODIC && n == period { 0 } else { n }
}

/// [`hypercube`], sharing the corner hashes and gradients between lanes:
/// when every lane of the vector lies in the same y, z, w cells and in x
/// cell X or X + 1 (X lane 0's), as along a row of a grid, the corner
/// quantities come from `cache`, made once per cell for all the lanes and
/// vectors in it; otherwise they are computed per lane. Both compute each
/// corner quantity with the same code from the same hash, so the result has
/// the same bits as [`hypercube`] either way.
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
    let ax = axes::<S, D, PERIODIC>(s, field, p);
    let mut q = [[s.zero(); D]; 16];
    let shared = match cache {
        Some(c) if c.enabled => share::<S, D, PERLIN, PERIODIC>(s, field, period, &ax, c),
        _ => None,
    };
    match shared {
        Some((near, cache)) => {
            for c in 0..(1usize << D) {
                let k = c >> 1;
                let (a, b) = if c & 1 == 0 { (0, 1) } else { (1, 2) };
                let comps = if PERLIN { D } else { 1 };
                for i in 0..comps {
                    q[c][i] = s.select(near, cache.q[a][k][i], cache.q[b][k][i]);
                }
            }
        }
        None => {
            for c in 0..(1usize << D) {
                q[c] = corner::<S, D, PERLIN>(s, field.key, &ax.lo, &ax.hi, c);
            }
        }
    }
    blend::<S, D, PERLIN>(s, &ax, &q, p)
}

/// Brings `cache` up to date for the vector with axes `ax` if its lanes can
/// share it (the same y, z, w cells, x cell X or X + 1 with X lane 0's), and
/// returns the mask of the lanes in cell X with the cache; `None` if they
/// cannot.
#[inline(always)]
fn share<'c, S: Simd, const D: usize, const PERLIN: bool, const PERIODIC: bool>(
    s: S,
    field: &Field<S>,
    period: &[u32; 4],
    ax: &Axes<S, D>,
    cache: &'c mut RowCache<S, D>,
) -> Option<(S::M, &'c RowCache<S, D>)> {
    let one_lane = Scalar::<S::E>::new();
    let mut cells = [0u32; D];
    let mut buf = [S::E::ZERO; 16];
    for a in 0..D {
        s.store(ax.floor[a], &mut buf);
        cells[a] = one_lane.cell(buf[0]);
    }
    let c0 = cells[0];
    let m0 = s.u_eq(ax.cell[0], s.u_splat(c0));
    let mut ok = s.u_or(m0, s.u_eq(ax.cell[0], s.u_splat(c0.wrapping_add(1))));
    for a in 1..D {
        ok = s.u_and(ok, s.u_eq(ax.cell[a], s.u_splat(cells[a])));
    }
    if s.any(s.m_andnot(s.splat_true(), s.u_to_m(ok))) {
        return None;
    }
    if cache.key != Some(cells) {
        // The other axes' near and far lattice positions, primed.
        let mut lo = [s.u_splat(0); D];
        let mut hi = [s.u_splat(0); D];
        for a in 1..D {
            let next = next_cell::<PERIODIC>(cells[a], period[a]);
            lo[a] = s.u_splat(cells[a].wrapping_mul(PRIMES[a]));
            hi[a] = s.u_splat(next.wrapping_mul(PRIMES[a]));
        }
        let x1 = next_cell::<PERIODIC>(c0, period[0]);
        let x2 = next_cell::<PERIODIC>(x1, period[0]);
        let xs = [c0, x1, x2];
        // Moving on by one cell along the row keeps two of the three.
        let first = match cache.key {
            Some(old)
                if old[1..] == cells[1..] && next_cell::<PERIODIC>(old[0], period[0]) == c0 =>
            {
                cache.q[0] = cache.q[1];
                cache.q[1] = cache.q[2];
                2
            }
            _ => 0,
        };
        for e in first..3 {
            let xp = s.u_splat(xs[e].wrapping_mul(PRIMES[0]));
            lo[0] = xp;
            hi[0] = xp;
            for k in 0..(1usize << (D - 1)) {
                cache.q[e][k] = corner::<S, D, PERLIN>(s, field.key, &lo, &hi, k << 1);
            }
        }
        cache.key = Some(cells);
    }
    Some((s.u_to_m(m0), cache))
}

/// The noise from its axes and corner quantities: the gradient ramps
/// (Perlin), then the blend axis by axis, scaled, with NaN for non-finite
/// input.
#[inline(always)]
pub(crate) fn blend<S: Simd, const D: usize, const PERLIN: bool>(
    s: S,
    ax: &Axes<S, D>,
    q: &[[S::F; D]; 16],
    p: [S::F; D],
) -> (S::F, [S::F; D]) {
    let zero = s.zero();
    let one = s.c(1.0);
    let (frac, u, du) = (&ax.frac, &ax.u, &ax.du);
    // Corner quantities, indexed by corner bits (bit a set = far side on axis a).
    let mut val = [zero; 16];
    let mut grad = [[zero; D]; 16];
    for c in 0..(1usize << D) {
        match PERLIN {
            false => val[c] = q[c][0],
            true => {
                let g = q[c];
                let mut acc = zero;
                for a in 0..D {
                    let d = if c >> a & 1 == 1 {
                        s.sub(frac[a], one)
                    } else {
                        frac[a]
                    };
                    acc = if a == 0 {
                        s.mul(g[a], d)
                    } else {
                        s.add(acc, s.mul(g[a], d))
                    };
                }
                val[c] = acc;
                grad[c] = g;
            }
        }
    }

    // Blend axis by axis; after blending axis a the remaining corners are
    // re-indexed by their bits above a.
    let mut n = 1usize << D;
    for a in 0..D {
        n /= 2;
        for k in 0..n {
            let (l, h) = (val[2 * k], val[2 * k + 1]);
            let diff = s.sub(h, l);
            val[k] = s.add(l, s.mul(u[a], diff));
            for b in 0..D {
                // Value-noise corners have zero gradient: axes not yet
                // blended contribute nothing, so skip them at compile time.
                if !PERLIN && b > a {
                    continue;
                }
                let (gl, gh) = (grad[2 * k][b], grad[2 * k + 1][b]);
                let mut g = if !PERLIN && b == a {
                    zero
                } else {
                    s.add(gl, s.mul(u[a], s.sub(gh, gl)))
                };
                if b == a {
                    g = if !PERLIN {
                        s.mul(du[a], diff)
                    } else {
                        s.add(g, s.mul(du[a], diff))
                    };
                }
                grad[k][b] = g;
            }
        }
    }

    let nan = poison(s, &p);
    let mut g = [zero; D];
    if PERLIN {
        let k = s.c(PERLIN_SCALE[D - 1] * MARGIN);
        for a in 0..D {
            g[a] = s.add(s.mul(grad[0][a], k), nan);
        }
        (s.add(s.mul(val[0], k), nan), g)
    } else {
        for a in 0..D {
            g[a] = s.add(grad[0][a], nan);
        }
        (s.add(val[0], nan), g)
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
