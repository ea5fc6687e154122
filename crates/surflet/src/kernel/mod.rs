//! The noise kernels, each written once over the lane type [`Simd`].
//!
//! Data flow for one batch of lanes: coordinates → exact (cell, fraction) pairs, the cell
//! reduced modulo the period if there is one → lattice cell and in-cell offset → per-corner hash → per-corner gradient or
//! value → falloff-weighted sum (simplex family) or fade-weighted
//! interpolation (hypercube family) → value and analytic gradient, scaled to
//! the documented range.

// Kernels walk several fixed-size per-axis arrays in step; indexing by axis
// reads better there than zipped iterators.
#![allow(clippy::needless_range_loop)]

pub(crate) mod cellular;
pub(crate) mod hypercube;
pub(crate) mod nd;
pub(crate) mod opensimplex;
pub(crate) mod select;
pub(crate) mod simplex;

// Only `no_std` builds need it: their float maths (`floor`, `round`, ...) comes
// from `libm` through `Math`.
#[cfg(not(feature = "std"))]
use crate::prelude_internal::*;
use crate::simd::Simd;

/// Per-axis multipliers that spread lattice coordinates over the 32-bit hash
/// (odd, so each is a bijection on `u32`).
pub(crate) const PRIMES: [u32; 4] = [0x9E37_79B1, 0x85EB_CA77, 0xC2B2_AE3D, 0x27D4_EB2F];
/// Multipliers of the corner-hash finaliser (Chris Wellons' `lowbias32`).
// Integers with no closed form: the multipliers that Wellons' hash-prospector
// search found for the xor-shift-multiply shape of `finish` (shifts 16, 15,
// 16), as published with `lowbias32`. Changing them changes every noise, which
// the golden tests would catch.
const MIX1: u32 = 0x7FEB_352D;
const MIX2: u32 = 0x846C_A68B;

/// Every normalised gradient noise is scaled by `1 / sup · MARGIN`. At the
/// supremum, float rounding can land a few ulps above 1 (measured: 4e-16 in
/// `f64`, 3.6e-7 in `f32`, at simplex 4D's maximum); this relative margin of
/// 3.8e-6 keeps every result inside [-1, 1] without clamping.
pub(crate) const MARGIN: f64 = 1.0 - 1.0 / 262_144.0;

/// Parameters of one noise field, splatted to lanes once per batch.
#[derive(Clone, Copy)]
pub(crate) struct Field<S: Simd> {
    pub key: S::U,
    /// Periods per axis (integer lanes); meaningful only for periodic kernels.
    pub period: [S::U; 4],
    /// Half of an even period, for the hexagonal lattice's row shift.
    pub half_period: [S::U; 4],
    /// Twice the period, for lattices stored at half-integer resolution.
    pub double_period: [S::U; 4],
    pub period_f: [S::F; 4],
    pub period_inv: [S::F; 4],
    /// Cellular noise's options (unused by the other kernels).
    pub cell: cellular::CellLanes<S>,
}

impl<S: Simd> Field<S> {
    #[inline(always)]
    pub(crate) fn new(s: S, key: u32, period: [u32; 4]) -> Self {
        use crate::float::Float;
        let zu = s.u_splat(0);
        let one = s.splat(S::E::ONE);
        let mut f = Field {
            key: s.u_splat(key),
            period: [zu; 4],
            half_period: [zu; 4],
            double_period: [zu; 4],
            period_f: [one; 4],
            period_inv: [one; 4],
            cell: cellular::CellLanes::unused(s),
        };
        // Single-point calls build a field each time: skip the divisions for
        // axes without a period.
        for a in 0..4 {
            let p = period[a];
            if p != 0 {
                f.period[a] = s.u_splat(p);
                f.half_period[a] = s.u_splat(p / 2);
                f.double_period[a] = s.u_splat(p.wrapping_mul(2));
                let pf = S::E::from_f64(p as f64);
                f.period_f[a] = s.splat(pf);
                f.period_inv[a] = s.splat(S::E::ONE / pf);
            }
        }
        f
    }
}

/// Finishes a corner hash: `h` already holds the key xor the primed
/// coordinates. This is `lowbias32` (Wellons), a full-avalanche permutation of
/// `u32`: two multiplies with xor-shifts in between.
///
/// A single multiply is not enough. Flipping bit `j` of the key changes the
/// product by about `±2^j·M`, so the top bits of two seeds' hashes differ by a
/// nearly constant offset and their gradient choices correlate (measured: a
/// 0.048 correlation between seeds 42 and 43 in 4D Perlin noise, 15 standard
/// deviations). After the second round the top bits are unrelated.
#[inline(always)]
pub(crate) fn finish<S: Simd>(s: S, h: S::U) -> S::U {
    let h = s.u_xor(h, s.u_shr::<16>(h));
    let h = s.u_mul(h, s.u_splat(MIX1));
    let h = s.u_xor(h, s.u_shr::<15>(h));
    let h = s.u_mul(h, s.u_splat(MIX2));
    s.u_xor(h, s.u_shr::<16>(h))
}

/// A lattice value uniform over the odd multiples of 2^-24 in (-1, 1): the
/// top 24 hash bits, symmetric about zero, exact in `f32` and `f64`.
#[inline(always)]
pub(crate) fn lattice_value<S: Simd>(s: S, h: S::U) -> S::F {
    let k = s.u_shl::<1>(s.u_shr::<8>(h)); // even, in [0, 2^25)
    let odd = s.u_sub(s.u_add(k, s.u_splat(1)), s.u_splat(1 << 24)); // odd, in (-2^24, 2^24)
    s.mul(s.i_to_f(odd), s.c(1.0 / 16777216.0))
}

/// A three-way choice from the top 24 hash bits: `floor(3 * bits / 2^24)`.
/// Each outcome has probability 1/3 to within 2^-23 (unlike `perm % 12`).
#[inline(always)]
pub(crate) fn three_way<S: Simd>(s: S, h: S::U) -> S::U {
    let top = s.u_shr::<8>(h);
    s.u_shr::<24>(s.u_add(s.u_add(top, top), top))
}

/// Perlin's quintic fade 6t⁵ − 15t⁴ + 10t³ and its derivative 30t²(t − 1)².
#[inline(always)]
pub(crate) fn fade<S: Simd>(s: S, t: S::F) -> (S::F, S::F) {
    let t2 = s.mul(t, t);
    let t3 = s.mul(t2, t);
    let poly = s.add(s.mul(t, s.sub(s.mul(t, s.c(6.0)), s.c(15.0))), s.c(10.0));
    let tm1 = s.sub(t, s.c(1.0));
    let d = s.mul(s.mul(t2, s.c(30.0)), s.mul(tm1, tm1));
    (s.mul(t3, poly), d)
}

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
    use crate::float::Float;
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
    use crate::float::Float;
    // S = 12, c_hi with 12 bits (f32); S = 26, c_hi with 27 bits (f64): every
    // product below then fits the significand for |k| < 2^24 / 2^44.
    let split = (S::E::PRECISION / 2) as i32;
    let hi_bits = S::E::PRECISION as i32 - split;
    let e = Float::floor(c.log2()) as i32;
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

// ----- gradient sets -----
//
// Each takes a finished corner hash and returns a gradient vector. They are
// built from hash bits with selects and sign flips (no table lookups), so they
// vectorise and every entry of a set is equally likely: power-of-two sets use
// independent bits; sets with a factor of three use `three_way`.

/// 1D: uniform over (-1, 1), the most evenly spread 1D set.
#[inline(always)]
pub(crate) fn grad1<S: Simd>(s: S, h: S::U) -> [S::F; 1] {
    [lattice_value(s, h)]
}

/// 2D: the 8 unit vectors at multiples of 45°: the article's 4 diagonals
/// plus the 4 axes.
#[inline(always)]
pub(crate) fn grad2<S: Simd>(s: S, h: S::U) -> [S::F; 2] {
    // Bit 31 picks diagonal or axis. Diagonals: bits 29 and 30 are the signs.
    // Axes: bit 29 picks the axis, bit 30 the sign.
    let diagonal = s.bit_mask::<31>(h);
    let b29 = s.bit_mask::<29>(h);
    let one = s.c(1.0);
    let d = s.c(core::f64::consts::FRAC_1_SQRT_2);
    let gx = s.select(
        diagonal,
        s.flip_bit::<29>(h, d),
        s.flip_bit::<30>(h, s.keep_not(b29, one)),
    );
    let gy = s.flip_bit::<30>(h, s.select(diagonal, d, s.keep(b29, one)));
    [gx, gy]
}

/// 3D Perlin: the 12 cube-edge midpoints (±1, ±1, 0) and permutations,
/// Perlin's own set, each with probability 1/12 (to within 2^-22).
#[inline(always)]
pub(crate) fn grad3_edges<S: Simd>(s: S, h: S::U) -> [S::F; 3] {
    let zero_axis = three_way(s, h);
    let one = s.c(1.0);
    [
        s.flip_bit::<8>(h, s.keep_not(s.u_is(zero_axis, 0), one)),
        s.flip_bit::<9>(h, s.keep_not(s.u_is(zero_axis, 1), one)),
        s.flip_bit::<10>(h, s.keep_not(s.u_is(zero_axis, 2), one)),
    ]
}

/// 4D Perlin: the 32 hypercube-edge midpoints (0, ±1, ±1, ±1) and
/// permutations.
#[inline(always)]
pub(crate) fn grad4_edges<S: Simd>(s: S, h: S::U) -> [S::F; 4] {
    let zero_axis = s.u_shr::<30>(h);
    let one = s.c(1.0);
    [
        s.flip_bit::<26>(h, s.keep_not(s.u_is(zero_axis, 0), one)),
        s.flip_bit::<27>(h, s.keep_not(s.u_is(zero_axis, 1), one)),
        s.flip_bit::<28>(h, s.keep_not(s.u_is(zero_axis, 2), one)),
        s.flip_bit::<29>(h, s.keep_not(s.u_is(zero_axis, 3), one)),
    ]
}

/// 3D simplex: Catlike Coding's 32 unit vectors — the 12 edge directions
/// twice and the 8 corner directions once. The corner directions lie along
/// every short edge of the BCC tetrahedra, which is what lets the noise reach
/// ±1.
#[inline(always)]
pub(crate) fn grad3_catlike<S: Simd>(s: S, h: S::U) -> [S::F; 3] {
    let kind = s.u_shr::<30>(h); // 0, 1, 2: edge with that axis zero; 3: corner
    let mag = s.select(
        s.u_is(kind, 3),
        s.c(0.577_350_269_189_625_7),
        s.c(core::f64::consts::FRAC_1_SQRT_2),
    );
    [
        s.flip_bit::<27>(h, s.keep_not(s.u_is(kind, 0), mag)),
        s.flip_bit::<28>(h, s.keep_not(s.u_is(kind, 1), mag)),
        s.flip_bit::<29>(h, s.keep_not(s.u_is(kind, 2), mag)),
    ]
}

/// 4D simplex: 48 unit vectors — the 32 edge directions (0, ±1, ±1, ±1)/√3
/// and the 16 corner directions (±1, ±1, ±1, ±1)/2, each equally likely. The
/// corners include the main diagonal, along which the maximum lies.
#[inline(always)]
pub(crate) fn grad4_simplex<S: Simd>(s: S, h: S::U) -> [S::F; 4] {
    let group = three_way(s, h); // 0, 1: edges; 2: corners
    let low = s.u_and(s.u_shr::<8>(h), s.u_splat(1));
    // For edges the zero axis is 2*group + low; corners get 4 or 5 (none).
    let zero_axis = s.u_add(s.u_add(group, group), low);
    let mag = s.select(s.u_is(group, 2), s.c(0.5), s.c(0.577_350_269_189_625_7));
    [
        s.flip_bit::<9>(h, s.keep_not(s.u_is(zero_axis, 0), mag)),
        s.flip_bit::<10>(h, s.keep_not(s.u_is(zero_axis, 1), mag)),
        s.flip_bit::<11>(h, s.keep_not(s.u_is(zero_axis, 2), mag)),
        s.flip_bit::<12>(h, s.keep_not(s.u_is(zero_axis, 3), mag)),
    ]
}

/// Copies the first `N` lanes of `src` into an `N`-array (for the kernels'
/// `D`-generic code, `N == D` wherever it runs). A loop, not
/// `copy_from_slice` or `array::from_fn`, which compile to out-of-line calls.
#[inline(always)]
pub(crate) fn resize<T: Copy, const M: usize, const N: usize>(src: &[T; M], fill: T) -> [T; N] {
    let mut out = [fill; N];
    let mut i = 0;
    while i < N && i < M {
        out[i] = src[i];
        i += 1;
    }
    out
}

#[inline(always)]
pub(crate) fn dot<S: Simd, const D: usize>(s: S, g: &[S::F; D], d: &[S::F; D]) -> S::F {
    let mut acc = s.mul(g[0], d[0]);
    for a in 1..D {
        acc = s.add(acc, s.mul(g[a], d[a]));
    }
    acc
}

#[cfg(test)]
mod tests {
    //! The gradient sets and lattice values are unbiased: over a million real
    //! corner hashes every entry turns up with its intended probability
    //! (chi-square, far beyond six standard deviations would fail).
    use super::*;
    use crate::simd::scalar::Scalar;
    use std::collections::HashMap;

    const N: usize = 1_000_000;

    /// Corner hashes of a million cells of a 3D lattice, as the kernels form
    /// them (key xor primed coordinates, then `finish`).
    fn hashes() -> impl Iterator<Item = u32> {
        let s = Scalar::<f64>::new();
        let key = crate::seed::key(12345);
        (0..N as u32).map(move |i| {
            let (x, y, z) = (i % 97, (i / 97) % 101, i / 9797);
            let h = key
                ^ x.wrapping_mul(PRIMES[0])
                ^ y.wrapping_mul(PRIMES[1])
                ^ z.wrapping_mul(PRIMES[2]);
            finish(s, h)
        })
    }

    /// Chi-square of observed counts against expected probabilities; fails
    /// beyond df + 6·sqrt(2·df).
    fn chi_square(name: &str, counts: &HashMap<Vec<i64>, usize>, expected: &[(Vec<i64>, f64)]) {
        assert_eq!(
            counts.len(),
            expected.len(),
            "{name}: set size {:?}",
            counts.keys()
        );
        let mut chi = 0.0;
        for (v, p) in expected {
            let e = p * N as f64;
            let o = *counts
                .get(v)
                .unwrap_or_else(|| panic!("{name}: {v:?} never chosen")) as f64;
            chi += (o - e) * (o - e) / e;
        }
        let df = (expected.len() - 1) as f64;
        let limit = df + 6.0 * (2.0 * df).sqrt();
        assert!(chi < limit, "{name}: chi-square {chi} over {limit}");
    }

    fn tally<const D: usize>(f: impl Fn(u32) -> [f64; D]) -> HashMap<Vec<i64>, usize> {
        let mut m = HashMap::new();
        for h in hashes() {
            let g = f(h);
            // Scale so that every component of every set is an integer key.
            let key: Vec<i64> = g.iter().map(|v| (v * 1e6).round() as i64).collect();
            *m.entry(key).or_insert(0) += 1;
        }
        m
    }

    fn uniform(set: Vec<Vec<f64>>) -> Vec<(Vec<i64>, f64)> {
        let p = 1.0 / set.len() as f64;
        set.into_iter()
            .map(|g| (g.iter().map(|v| (v * 1e6).round() as i64).collect(), p))
            .collect()
    }

    fn signed(v: &[f64]) -> Vec<Vec<f64>> {
        // Every sign combination of the non-zero components.
        let mut out = vec![vec![]];
        for &c in v {
            out = out
                .into_iter()
                .flat_map(|p: Vec<f64>| {
                    if c == 0.0 {
                        vec![[p.clone(), vec![0.0]].concat()]
                    } else {
                        vec![[p.clone(), vec![c]].concat(), [p, vec![-c]].concat()]
                    }
                })
                .collect();
        }
        out
    }

    fn permutations_with_zero(d: usize, mag: f64) -> Vec<Vec<f64>> {
        (0..d)
            .flat_map(|zero| {
                let v: Vec<f64> = (0..d).map(|a| if a == zero { 0.0 } else { mag }).collect();
                signed(&v)
            })
            .collect()
    }

    #[test]
    fn grad2_is_uniform_over_8_directions() {
        let s = Scalar::<f64>::new();
        let r = core::f64::consts::FRAC_1_SQRT_2;
        let mut set = signed(&[1.0, 0.0]);
        set.extend(signed(&[0.0, 1.0]));
        set.extend(signed(&[r, r]));
        chi_square("grad2", &tally(|h| grad2(s, h)), &uniform(set));
    }

    #[test]
    fn grad3_edges_is_uniform_over_12_edges() {
        let s = Scalar::<f64>::new();
        chi_square(
            "grad3_edges",
            &tally(|h| grad3_edges(s, h)),
            &uniform(permutations_with_zero(3, 1.0)),
        );
    }

    #[test]
    fn grad4_edges_is_uniform_over_32_edges() {
        let s = Scalar::<f64>::new();
        chi_square(
            "grad4_edges",
            &tally(|h| grad4_edges(s, h)),
            &uniform(permutations_with_zero(4, 1.0)),
        );
    }

    #[test]
    fn grad3_catlike_weights_edges_twice() {
        let s = Scalar::<f64>::new();
        let r2 = core::f64::consts::FRAC_1_SQRT_2;
        let r3 = 1.0 / 3f64.sqrt();
        let mut exp: Vec<(Vec<i64>, f64)> = uniform(permutations_with_zero(3, r2))
            .into_iter()
            .map(|(g, _)| (g, 2.0 / 32.0))
            .collect();
        exp.extend(
            uniform(signed(&[r3, r3, r3]))
                .into_iter()
                .map(|(g, _)| (g, 1.0 / 32.0)),
        );
        chi_square("grad3_catlike", &tally(|h| grad3_catlike(s, h)), &exp);
    }

    #[test]
    fn grad4_simplex_is_uniform_over_48_directions() {
        let s = Scalar::<f64>::new();
        let mut set = permutations_with_zero(4, 1.0 / 3f64.sqrt());
        set.extend(signed(&[0.5; 4]));
        chi_square(
            "grad4_simplex",
            &tally(|h| grad4_simplex(s, h)),
            &uniform(set),
        );
    }

    #[test]
    fn lattice_values_are_uniform_and_symmetric() {
        let s = Scalar::<f64>::new();
        let mut bins = [0usize; 64];
        let mut sum = 0.0;
        for h in hashes() {
            let v = lattice_value(s, h);
            assert!(v.abs() < 1.0);
            sum += v;
            bins[((v + 1.0) * 32.0) as usize] += 1;
        }
        let e = N as f64 / 64.0;
        let chi: f64 = bins.iter().map(|&o| (o as f64 - e).powi(2) / e).sum();
        assert!(chi < 63.0 + 6.0 * (126f64).sqrt(), "chi-square {chi}");
        // Mean of a million uniform(-1, 1): standard deviation 5.8e-4.
        assert!((sum / N as f64).abs() < 3.5e-3);
    }

    #[test]
    fn three_way_split_is_fair_to_2_pow_minus_22() {
        // Exhaustive over the 2^24 inputs that matter: counts differ by at
        // most one, a relative bias below 2e-7.
        let s = Scalar::<f64>::new();
        let mut c = [0u64; 3];
        for top in 0..(1u32 << 24) {
            c[three_way(s, top << 8) as usize] += 1;
        }
        let (lo, hi) = (*c.iter().min().unwrap(), *c.iter().max().unwrap());
        assert!(hi - lo <= 1, "{c:?}");
    }
}
