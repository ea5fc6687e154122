//! Cubic value noise, 1D–4D: the lattice values of value noise (the same
//! hash, so the same value at every lattice point for the same seed)
//! interpolated by Catmull-Rom splines over the 4 lattice points around
//! the point on each axis, 4^D in all.
//!
//! Along one axis, with the values `a, b, c, d` at cells `i − 1 … i + 2`
//! and `t` the fraction, the spline is
//! `b + t/2·((c − a) + t·((2a − 5b + 4c − d) + t·(3(b − c) + d − a)))`:
//! it passes through `b` and `c`, with slope `(c − a)/2` at `b` and
//! `(d − b)/2` at `c`, so the noise and its gradient are continuous across
//! cells (C¹; the second derivative jumps). FastNoiseLite's `ValueCubic`
//! interpolates with twice these slopes (its `CubicLerp`), so its pictures
//! have larger overshoots and differ from these.
//!
//! The axes are interpolated one after the other (x first), each step
//! carrying the gradient exactly: along the axis interpolated, the
//! spline's derivative in `t`; along the axes already done, the same
//! spline of their partial derivatives. The weights' absolute sum is at
//! most `1 + t(1 − t) ≤ 5/4` (at `t = ½`), so the noise lies within
//! `(5/4)^D` times the largest lattice value; each of the 4^D lattice
//! values is independent, so the bound is a supremum, and the noise is
//! scaled by `(4/5)^D` (times [`MARGIN`]) onto (−1, 1) (`docs/RANGES.md`).

use super::select::Kernel;
use super::{LaneParams, MARGIN, PRIMES, lattice_value, lowbias32, poison, split, split_periodic};
use crate::simd::Simd;

/// `(4/5)^D` with the margin, index D − 1.
pub(crate) const CUBIC_SCALE: [f64; 4] =
    [0.8 * MARGIN, 0.64 * MARGIN, 0.512 * MARGIN, 0.4096 * MARGIN];

/// A partial interpolation: a value and its derivatives along the axes
/// interpolated so far.
#[derive(Clone, Copy)]
struct Node<S: Simd, const D: usize> {
    v: S::F,
    d: [S::F; D],
}

/// The Catmull-Rom spline through `b` (at 0) and `c` (at 1), with `a` and
/// `d` the values before and after, at `t`.
#[inline(always)]
fn spline<S: Simd>(s: S, t: S::F, [a, b, c, d]: [S::F; 4]) -> S::F {
    let (c2, c3) = coefficients(s, [a, b, c, d]);
    let c1 = s.sub(c, a);
    let inner = s.add(c1, s.mul(t, s.add(c2, s.mul(t, c3))));
    s.add(b, s.mul(s.mul(s.c(0.5), t), inner))
}

/// The derivative in `t` of [`spline`].
#[inline(always)]
fn spline_slope<S: Simd>(s: S, t: S::F, [a, b, c, d]: [S::F; 4]) -> S::F {
    let (c2, c3) = coefficients(s, [a, b, c, d]);
    let c1 = s.sub(c, a);
    let two_c2 = s.add(c2, c2);
    let three_c3 = s.add(s.add(c3, c3), c3);
    let inner = s.add(c1, s.mul(t, s.add(two_c2, s.mul(t, three_c3))));
    s.mul(s.c(0.5), inner)
}

/// The spline's `t²` and `t³` coefficients (times 2): `2a − 5b + 4c − d`
/// and `3(b − c) + d − a`.
#[inline(always)]
fn coefficients<S: Simd>(s: S, [a, b, c, d]: [S::F; 4]) -> (S::F, S::F) {
    let c2 = s.sub(
        s.add(s.sub(s.add(a, a), s.mul(s.c(5.0), b)), s.mul(s.c(4.0), c)),
        d,
    );
    let bc = s.sub(b, c);
    let c3 = s.sub(s.add(s.add(s.add(bc, bc), bc), d), a);
    (c2, c3)
}

/// The 4 primed lattice positions `i − 1 … i + 2` of one axis (reduced
/// into the period where there is one) and the fraction.
#[inline(always)]
fn axis<S: Simd, const P: bool>(
    s: S,
    field: &LaneParams<S>,
    a: usize,
    x: S::F,
) -> ([S::U; 4], S::F) {
    let (fl, fr) = if P {
        split_periodic(s, x, field.period.f[a], field.period.inv[a])
    } else {
        split(s, x)
    };
    let c = s.cell(fl);
    let prime = s.u_splat(PRIMES[a]);
    let one = s.u_splat(1);
    let cells = if P {
        // c is in [0, cells): each neighbour wraps within the tile.
        let n = field.period.cells[a];
        let prev = s.u_blend(s.u_eq(c, s.u_splat(0)), s.u_sub(n, one), s.u_sub(c, one));
        let c1 = next_in(s, c, n);
        [prev, c, c1, next_in(s, c1, n)]
    } else {
        [
            s.u_sub(c, one),
            c,
            s.u_add(c, one),
            s.u_add(c, s.u_splat(2)),
        ]
    };
    let mut primed = cells;
    for p in primed.iter_mut() {
        *p = s.u_mul(*p, prime);
    }
    (primed, fr)
}

/// The cell after `c` in a tile of `n` cells.
#[inline(always)]
fn next_in<S: Simd>(s: S, c: S::U, n: S::U) -> S::U {
    let y = s.u_add(c, s.u_splat(1));
    s.u_blend(s.u_eq(y, n), s.u_splat(0), y)
}

/// Cubic value noise at `p`: the value in (−1, 1) and its gradient.
#[inline(always)]
pub(crate) fn value_cubic<S: Simd, const D: usize, const P: bool>(
    s: S,
    field: &LaneParams<S>,
    p: [S::F; D],
) -> (S::F, [S::F; D]) {
    let zero = s.zero();
    let mut pos = [[s.u_splat(0); 4]; D];
    let mut t = [zero; D];
    for a in 0..D {
        (pos[a], t[a]) = axis::<S, P>(s, field, a, p[a]);
    }
    // Depth first over the 4^D lattice points, x the fastest digit:
    // waiting[a] holds the nodes of axis a's first three points until the
    // fourth completes them, so only 3·D nodes are live.
    let empty: Node<S, D> = Node {
        v: zero,
        d: [zero; D],
    };
    let mut waiting = [[empty; 3]; 4];
    let mut done = empty;
    for k in 0..(1usize << (2 * D)) {
        let mut h = field.key;
        for a in 0..D {
            h = s.u_xor(h, pos[a][k >> (2 * a) & 3]);
        }
        let mut node = Node {
            v: lattice_value(s, lowbias32(s, h)),
            d: [zero; D],
        };
        let mut a = 0;
        loop {
            let digit = k >> (2 * a) & 3;
            if digit < 3 {
                waiting[a][digit] = node;
                break;
            }
            let [n0, n1, n2] = waiting[a];
            let values = [n0.v, n1.v, n2.v, node.v];
            let mut next = Node {
                v: spline(s, t[a], values),
                d: [zero; D],
            };
            next.d[a] = spline_slope(s, t[a], values);
            for b in 0..a {
                next.d[b] = spline(s, t[a], [n0.d[b], n1.d[b], n2.d[b], node.d[b]]);
            }
            node = next;
            a += 1;
            if a == D {
                done = node;
                break;
            }
        }
    }
    let scale = s.c(CUBIC_SCALE[D - 1]);
    let v = s.add(s.mul(done.v, scale), poison(s, &p));
    let mut g = done.d;
    for g in g.iter_mut() {
        *g = s.mul(*g, scale);
    }
    (v, g)
}

/// Cubic value noise: Catmull-Rom splines through the lattice values.
#[derive(Clone, Copy)]
pub(crate) struct ValueCubicK<const P: bool>;

impl<const D: usize, const P: bool> Kernel<D> for ValueCubicK<P> {
    const OUTLINE: bool = D >= 2;
    type Cache<S: Simd> = ();
    #[inline(always)]
    fn new_cache<S: Simd>(_: S, _: bool) {}
    #[inline(always)]
    fn eval<S: Simd>(s: S, field: &LaneParams<S>, p: [S::F; D]) -> (S::F, [S::F; D]) {
        value_cubic::<S, D, P>(s, field, p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::scalar::Scalar;

    /// The derivation's numbers: the spline passes through its middle
    /// values, its slope is the derivative of its value, and the largest
    /// absolute sum of its weights, 5/4 at t = ½, is reached by values of
    /// alternating sign, the pattern the scale (4/5)^D assumes.
    #[test]
    fn the_spline_is_what_docs_ranges_derives() {
        let s = Scalar::<f64>::new();
        let w = [0.3, -0.7, 0.9, 0.2];
        assert_eq!(spline(s, 0.0, w), -0.7);
        // t = 1 is the next cell's t = 0; the limit is c, to rounding.
        assert!((spline(s, 1.0, w) - 0.9).abs() < 1e-15);
        // Slopes (c − a)/2 at 0 and (d − b)/2 at 1: C¹ across cells.
        assert!((spline_slope(s, 0.0, w) - (0.9 - 0.3) / 2.0).abs() < 1e-15);
        assert!((spline_slope(s, 1.0, w) - (0.2 + 0.7) / 2.0).abs() < 1e-13);
        for i in 1..100 {
            let t = i as f64 / 100.0;
            let h = 1e-6;
            let fd = (spline(s, t + h, w) - spline(s, t - h, w)) / (2.0 * h);
            assert!((fd - spline_slope(s, t, w)).abs() < 1e-8, "t = {t}");
            // The absolute sum of the weights, from unit impulses.
            let sum: f64 = (0..4)
                .map(|k| {
                    let mut e = [0.0; 4];
                    e[k] = 1.0;
                    spline(s, t, e).abs()
                })
                .sum();
            assert!((sum - (1.0 + t * (1.0 - t))).abs() < 1e-12, "t = {t}");
        }
        assert_eq!(spline(s, 0.5, [-1.0, 1.0, 1.0, -1.0]), 1.25);
    }
}
