//! Lattice splitting: exact (cell, fraction) pairs, their reduction
//! modulo a period, and the error-free simplex skew.

#[cfg(not(feature = "std"))]
use crate::prelude_internal::*;
use crate::simd::{Element, Simd};

/// Splits `x` into its cell (an integer-valued float) and its exact in-cell
/// fraction in `[0, 1)`.
///
/// All lattice arithmetic below works on such pairs rather than on `x`, so
/// that the fraction keeps its full precision whatever the size of `x` —
/// forming `x + something` directly would round at `ulp(x)`.
#[inline(always)]
pub(crate) fn split<S: Simd>(s: S, x: S::F) -> (S::F, S::F) {
    let c = s.floor(x);
    (c, s.sub(x, c))
}

/// [`split`], with the cell reduced to its canonical representative in
/// `[0, P)` modulo the period `P`. The reduction is exact integer arithmetic
/// in floats while the cell is below 2^24 (`f32`) or 2^53 (`f64`), so
/// `f(x + kP)` computes exactly what `f(x)` computes: periodicity is bit-exact
/// wherever `x + kP` is representable. Past that limit the cell is clamped
/// into the tile; NaN stays NaN.
#[inline(always)]
pub(crate) fn split_periodic<S: Simd>(s: S, x: S::F, p: S::F, inv: S::F) -> (S::F, S::F) {
    let (c, f) = split(s, x);
    let zero = s.zero();
    let q = s.floor(s.mul(c, inv));
    let m = s.sub(c, s.mul(q, p));
    let m = s.select(s.lt(m, zero), s.add(m, p), m);
    let m = s.select(s.ge(m, p), s.sub(m, p), m);
    let last = s.sub(p, s.c(1.0));
    // Operand order lets NaN fall through (see `Simd::max`).
    (s.min(last, s.max(zero, m)), f)
}

/// The simplex skew of the cells `ints`: [`mul_split`] of their sum `k` by
/// `c`.
///
/// Past the precision limit (|cell| ≥ 2^24 in `f32`, 2^53 in `f64`) every
/// coordinate is an integer, so the field there is a deterministic pick of
/// lattice points rather than a resolved noise. The one thing that must not
/// happen is the sum overflowing to ±∞ (or to NaN, as in `x + x − x − x`)
/// and turning a finite input into NaN. So a lane whose sum leaves
/// |k| < 2^(precision + 2) — only possible with a cell past the limit — has
/// those cells reduced modulo 2^32 first (exactly; that is the lattice's own
/// period in the hash) and its sum recomputed. The test is per lane, so a
/// point gives the same bits alone and in any batch.
#[inline(always)]
pub(crate) fn skew_split<S: Simd, const D: usize>(
    s: S,
    ints: &mut [S::F; D],
    c: f64,
) -> (S::F, S::F) {
    let mut k = cell_sum(s, ints);
    // NaN lanes (NaN input, or ∞ − ∞ from an overflow) fail the comparison
    // and so take the careful path too.
    let split = s.c(2f64.powi((S::E::PRECISION / 2) as i32));
    if s.any(s.m_andnot(s.splat_true(), s.lt(s.abs(k), split))) {
        let huge = s.c(2f64.powi(S::E::PRECISION as i32 + 2));
        let over = s.m_andnot(s.splat_true(), s.lt(s.abs(k), huge));
        if s.any(over) {
            let big = s.c(2f64.powi(S::E::PRECISION as i32));
            let two32 = s.c(4294967296.0);
            for v in ints.iter_mut() {
                // Exact: the remainder of an integer-valued float by a power
                // of two is representable. ±∞ becomes NaN, as it should.
                let q = s.floor(s.mul(*v, s.c(1.0 / 4294967296.0)));
                let r = s.sub(*v, s.mul(q, two32));
                *v = s.select(s.m_and(over, s.ge(s.abs(*v), big)), r, *v);
            }
            k = cell_sum(s, ints);
        }
    }
    mul_split(s, k, c)
}

/// `Σ ints`, pairwise in 4D (the order the 4D kernel has always used, which
/// matters for the bits once the sum passes 2^53).
#[inline(always)]
fn cell_sum<S: Simd, const D: usize>(s: S, ints: &[S::F; D]) -> S::F {
    if D == 4 {
        return s.add(s.add(ints[0], ints[1]), s.add(ints[2], ints[3]));
    }
    let mut k = ints[0];
    for v in &ints[1..] {
        k = s.add(k, *v);
    }
    k
}

/// `k · c` for an integer-valued `k` and a constant `0 < c < 1`, as an
/// integer-valued part and a fraction in `[0, 4)`, with the fraction accurate
/// to far below an ulp of the coordinates `k` sums.
///
/// This is the simplex skew. Rounding `k · c` directly would move the
/// evaluated point by up to `ulp(k)`: at |x| ~ 1000 in `f32` that is 1e-3 in
/// value, and the rounding changes from one integer `k` to the next, so at
/// 2^40 in `f64` the noise would jump at every cell boundary. Instead both
/// factors are split (Veltkamp/Dekker style) so that every partial product is
/// exact or negligibly rounded:
///
/// `k = k_hi + k_lo` (`k_hi` a multiple of 2^S, `|k_lo| < 2^S`, split by
/// truncation) and `c = c_hi + c_lo` (`c_hi` with 12 bits for `f32`, 27 for
/// `f64`), S = 12 for `f32` and 26 for `f64`. Then `k_hi·c_hi` and `k_lo·c_hi` are exact, and
/// `k_hi·c_lo` carries an error near 2^-38 (`f64`, |k| < 2^44) or 2^-12·ulp
/// (`f32`, |k| < 2^24) — exact to the precision of the input up to 2^24
/// (`f32`, where f32 stops resolving the lattice) and beyond 2^40 (`f64`).
///
/// When every lane has |k| < 2^S, `k_hi` is ±0 and the full computation
/// reduces, bit for bit, to the short one taken here; so the shortcut changes
/// speed only, never results, whatever the lane grouping.
#[inline(always)]
pub(crate) fn mul_split<S: Simd>(s: S, k: S::F, c: f64) -> (S::F, S::F) {
    // S = 12, c_hi with 12 bits (f32); S = 26, c_hi with 27 bits (f64): every
    // product below then fits the significand for |k| < 2^24 / 2^44.
    let split = (S::E::PRECISION / 2) as i32;
    let hi_bits = S::E::PRECISION as i32 - split;
    let e = Element::floor(c.log2()) as i32;
    let scale = 2f64.powi(hi_bits - 1 - e);
    let c_hi = (c * scale).round() / scale;
    let c_lo = c - c_hi;
    let (ch, cl) = (s.c(c_hi), s.c(c_lo));
    let limit = s.c(2f64.powi(split));
    if !s.any(s.ge(s.abs(k), limit)) {
        let kh = s.mul(k, ch);
        let ki = s.floor(kh);
        return (ki, s.add(s.sub(kh, ki), s.mul(k, cl)));
    }
    // trunc(k / 2^S) · 2^S, so that |k| < 2^S gives k_hi = ±0.
    let q = s.mul(k, s.c(2f64.powi(-split)));
    let t = s.select(s.lt(q, s.zero()), s.neg(s.floor(s.neg(q))), s.floor(q));
    let k_hi = s.mul(t, limit);
    let k_lo = s.sub(k, k_hi);
    let a = s.mul(k_hi, ch);
    let b = s.mul(k_lo, ch);
    let cc = s.mul(k_hi, cl);
    let d = s.mul(k_lo, cl);
    let (fa, fb, fc) = (s.floor(a), s.floor(b), s.floor(cc));
    let int = s.add(s.add(fa, fb), fc);
    let frac = s.add(s.add(s.add(s.sub(a, fa), s.sub(b, fb)), s.sub(cc, fc)), d);
    (int, frac)
}

/// Adds NaN to the lanes whose input is NaN or infinite: `x - x` is `+0` for
/// finite `x` and NaN otherwise. Simplex kernels need it because a NaN offset
/// fails the `t > 0` test and would otherwise read as "no contribution".
#[inline(always)]
pub(crate) fn poison<S: Simd, const D: usize>(s: S, p: &[S::F; D]) -> S::F {
    let mut acc = s.sub(p[0], p[0]);
    for a in 1..D {
        acc = s.add(acc, s.sub(p[a], p[a]));
    }
    acc
}
