//! Value, Perlin and simplex noise in any dimension from 1 to 8, each written
//! once over the dimension `D` (behind [`NoiseNd`](crate::nd::NoiseNd)).
//!
//! * Value and Perlin noise: the 2^D corners of the cell, blended over the
//!   axes after y, then x, and along y last with the quintic fade, as in
//!   [`hypercube`](super::hypercube) — the same hash, corner quantities and
//!   blend formulas ([`Column`]), so in 1D–4D the bits are those of
//!   `Noise<D>`. The blend runs as a binary counter over the corners (a stack
//!   of one partial result per axis) instead of an array of all 2^D corners,
//!   so 8D needs 9 partial results rather than 256.
//! * Simplex noise: Gustavson's skewed lattice generalised to D dimensions
//!   (skew `F = (√(D+1) − 1)/D`, unskew `G = (1 − 1/√(D+1))/D`), the simplex
//!   found by ranking the in-cell fractions with D(D−1)/2 comparisons, D + 1
//!   corners, each a surflet `(½ − |d|²)³ (g·d)`.

use super::hypercube::{Column, finish, from_y_first, y_first};
use super::{MARGIN, PRIMES, dot, fade, lattice_value, lowbias32, poison, skew_split, split};
use crate::simd::Simd;

/// The largest dimension.
pub(crate) const MAX_D: usize = 8;

/// Per-axis hash multipliers: the family's four ([`PRIMES`], xxHash32's
/// PRIME32_1..4) then xxHash32's PRIME32_5, MurmurHash3's c1 and c2 and its
/// finaliser's first multiplier. Odd, so each is a bijection on `u32`; no
/// closed form, they are published constants with good bit spread.
pub(crate) const PRIMES_ND: [u32; MAX_D] = [
    PRIMES[0],
    PRIMES[1],
    PRIMES[2],
    PRIMES[3],
    0x1656_67B1,
    0xCC9E_2D51,
    0x1B87_3593,
    0x85EB_CA6B,
];

/// Skew `F = (√(D+1) − 1)/D` and unskew `G = (1 − 1/√(D+1))/D` (index
/// D − 1), rounded to the nearest `f64`; a unit test recomputes them.
pub(crate) const SKEW: [(f64, f64); MAX_D] = [
    (0.41421356237309515, 0.29289321881345254),
    (0.3660254037844386, 0.21132486540518708),
    (0.3333333333333333, 0.16666666666666666),
    (0.30901699437494745, 0.13819660112501053),
    (0.2898979485566356, 0.11835034190722737),
    (0.2742918851774318, 0.10367258783179546),
    (0.2612038749637415, 0.09234951562953232),
    (0.25, 0.08333333333333334),
];

/// 1 / sup |Perlin| (index D − 1). 1D–4D are the family's
/// ([`PERLIN_SCALE`](super::hypercube::PERLIN_SCALE)); 5D–8D are for the
/// N-D edge set (one zero, the other components ±1), whose best gradient
/// for an offset `d` gives `‖d‖₁ − min |dₐ|`: the supremum over gradient
/// assignments is the maximum over the cell of
/// `Σ_c w_c(p) (‖d_c‖₁ − min_a |d_c,a|)`. See `docs/RANGES.md`.
pub(crate) const PERLIN_SCALE_ND: [f64; MAX_D] = [
    super::hypercube::PERLIN_SCALE[0],
    super::hypercube::PERLIN_SCALE[1],
    super::hypercube::PERLIN_SCALE[2],
    super::hypercube::PERLIN_SCALE[3],
    PERLIN_SUP_5_TO_8[0].recip(),
    PERLIN_SUP_5_TO_8[1].recip(),
    PERLIN_SUP_5_TO_8[2].recip(),
    PERLIN_SUP_5_TO_8[3].recip(),
];

/// sup |Perlin| over gradient assignments, 5D–8D (see [`PERLIN_SCALE_ND`]).
pub(crate) const PERLIN_SUP_5_TO_8: [f64; 4] = [
    2.036_634_959_498_475_6,
    2.536_647_591_468_566_4,
    3.036_650_686_167_672_3,
    3.536_651_452_061_349_7,
];

/// sup over gradient assignments of `Σ_c (½ − |d_c|²)₊³ ‖d_c‖₁`, the
/// unnormalised simplex noise (index D − 1): the best gradient of the set
/// for offset `d` is a corner direction `(±1, …, ±1)`, which gives `‖d‖₁`.
/// The maximum lies on the skewed main diagonal (see `docs/RANGES.md`).
pub(crate) const SIMPLEX_SUP: [f64; MAX_D] = [
    0.03728883416413435,
    0.042766686606638946,
    0.045776367187500014,
    0.04829906831399551,
    0.050647122261684385,
    0.05289298747651,
    0.056204073652133445,
    0.059770000930364796,
];

/// The N-D kind, as a const parameter of the kernels.
pub(crate) const VALUE: u8 = 0;
pub(crate) const PERLIN: u8 = 1;
pub(crate) const SIMPLEX: u8 = 2;

/// Evaluates noise `KIND` at `p` with lattice key `key`: value and gradient.
#[inline(always)]
pub(crate) fn eval<S: Simd, const D: usize, const KIND: u8>(
    s: S,
    key: S::U,
    p: [S::F; D],
) -> (S::F, [S::F; D]) {
    match KIND {
        VALUE => hypercube_nd::<S, D, false>(s, key, p),
        PERLIN => hypercube_nd::<S, D, true>(s, key, p),
        _ => simplex_nd::<S, D>(s, key, p),
    }
}

/// `floor(n · top24 / 2^24)`: an `n`-way choice (n ≤ 9) from the top 24
/// hash bits, each outcome with probability 1/n to within 2^-23, like
/// [`three_way`](super::three_way). The product stays below 2^28.
#[inline(always)]
fn n_way<S: Simd>(s: S, h: S::U, n: u32) -> S::U {
    s.u_shr::<24>(s.u_mul(s.u_shr::<8>(h), s.u_splat(n)))
}

/// The N-D edge set: components ±1 except one zero, the zero's axis chosen
/// `D`-way from the top hash bits and the signs from bits `0..D` (which the
/// choice does not use). This is Perlin's 3D set (and the family's 4D one)
/// generalised; `D·2^(D−1)` vectors, each equally likely.
#[inline(always)]
fn grad_edges<S: Simd, const D: usize>(s: S, h: S::U) -> [S::F; D] {
    let zero_axis = n_way(s, h, D as u32);
    let one = s.c(1.0);
    let mut g = [s.zero(); D];
    for a in 0..D {
        let v = s.keep_not(s.u_is(zero_axis, a as u32), one);
        g[a] = s.flip(s.u_any_bit(h, 1 << a), v);
    }
    g
}

/// The simplex gradient set: the `2^D` corner directions `(±1, …, ±1)` and
/// the `D·2^(D−1)` edge directions (one component zero), a group chosen
/// `(D+1)`-way from the top hash bits (outcome `D`: no zero), so each of the
/// D + 1 groups has probability 1/(D+1). The corner directions
/// include every long diagonal of the skewed lattice; the edge directions
/// vary the look. Unnormalised: the lengths are absorbed into the exact
/// scale, as with Perlin's set. In 1D the family's uniform slope in (−1, 1)
/// ([`grad1`](super::grad1)): ±1 alone would leave four shapes per cell, and
/// two seeds would agree on a quarter of all cells.
#[inline(always)]
fn grad_simplex<S: Simd, const D: usize>(s: S, h: S::U) -> [S::F; D] {
    if D == 1 {
        return super::resize(&super::grad1(s, h), s.zero());
    }
    let one = s.c(1.0);
    let mut g = [s.zero(); D];
    let zero_axis = n_way(s, h, D as u32 + 1);
    for a in 0..D {
        let v = s.keep_not(s.u_is(zero_axis, a as u32), one);
        g[a] = s.flip(s.u_any_bit(h, 1 << a), v);
    }
    g
}

/// Perlin gradient of a finished corner hash: the family's sets in 1D–4D
/// (so the bits match `Noise<D>`), the N-D edge set above.
#[inline(always)]
fn perlin_gradient<S: Simd, const D: usize>(s: S, h: S::U) -> [S::F; D] {
    let z = s.zero();
    match D {
        1 => super::resize(&super::grad1(s, h), z),
        2 => super::resize(&super::grad2(s, h), z),
        3 => super::resize(&super::grad3_edges(s, h), z),
        4 => super::resize(&super::grad4_edges(s, h), z),
        _ => grad_edges::<S, D>(s, h),
    }
}

/// Value (`PERLIN = false`) or Perlin noise in `D` dimensions.
///
/// The operations, and their order, are those of
/// [`hypercube`](super::hypercube::hypercube) with no period: per axis
/// `split`, `cell`, primed near and far corner, `fade`; then in kernel
/// order ([`y_first`]: y, the axes after it, x), per corner the hash
/// `lowbias32(key ^ Σ primed)`, the value or the ramp over the axes after
/// y; the [`Column`] blends over those axes and the y step of [`finish`].
/// Only the order in which nodes are formed differs (depth first here),
/// which no bit depends on.
#[inline(always)]
fn hypercube_nd<S: Simd, const D: usize, const PERLIN_: bool>(
    s: S,
    key: S::U,
    p: [S::F; D],
) -> (S::F, [S::F; D]) {
    let zero = s.zero();
    let zu = s.u_splat(0);
    let mut frac = [zero; D];
    let mut u = [zero; D];
    let mut du = [zero; D];
    let mut lo = [zu; D];
    let mut hi = [zu; D];
    for a in 0..D {
        let (fl, fr) = split(s, p[a]);
        frac[a] = fr;
        let prime = s.u_splat(PRIMES_ND[a]);
        lo[a] = s.u_mul(s.cell(fl), prime);
        hi[a] = s.u_add(lo[a], prime);
        (u[a], du[a]) = fade(s, fr);
    }
    let (frac, u, du) = (y_first(frac), y_first(u), y_first(du));
    let (lo, hi) = (y_first(lo), y_first(hi));

    // In kernel order. Corner c has bit a − 1 for axis a ≥ 1 and bit D − 1
    // for y, so the y sides come last. stack[t]: the node over the axes up to t + 1 whose
    // corners are on the near side of axis t + 2, waiting for its sibling.
    let mut stack = [Column::<S, D>::zero(s); MAX_D + 1];
    let mut far_y = Column::zero(s);
    for c in 0..(1usize << D) {
        let y_far = c >> (D - 1) & 1 == 1;
        let mut h = s.u_xor(key, if y_far { hi[0] } else { lo[0] });
        for a in 1..D {
            h = s.u_xor(h, if c >> (a - 1) & 1 == 1 { hi[a] } else { lo[a] });
        }
        let h = lowbias32(s, h);
        let mut node = if PERLIN_ {
            Column::ramp(s, y_first(perlin_gradient::<S, D>(s, h)), &frac, c)
        } else {
            Column::value(s, lattice_value(s, h))
        };
        // Each trailing one bit below y's completes a pair along its axis.
        let mut t = 0;
        while t + 1 < D && c >> t & 1 == 1 {
            node = Column::blend::<PERLIN_>(s, t + 1, &stack[t], &node, u[t + 1], du[t + 1]);
            t += 1;
        }
        if t + 1 == D && y_far {
            far_y = node;
        } else {
            stack[t] = node;
        }
    }
    let (v, g) = finish::<S, D, PERLIN_>(
        s,
        &stack[D - 1],
        &far_y,
        (frac[0], u[0], du[0]),
        poison(s, &p),
        PERLIN_SCALE_ND[D - 1] * MARGIN,
    );
    (v, from_y_first(g))
}

/// A partial sum: a value and its gradient.
type Node<S, const D: usize> = (<S as Simd>::F, [<S as Simd>::F; D]);

/// Adds the surflet `(½ − |d|²)₊³ (g·d)` of the corner with finished hash
/// `h` at offset `d`, and its gradient `t³ g − 6 t² (g·d) d`.
#[inline(always)]
fn surflet<S: Simd, const D: usize>(s: S, h: S::U, d: [S::F; D], acc: &mut Node<S, D>) {
    // A NaN t gives 0 here; `poison` still turns the result into NaN.
    let t = s.max(s.sub(s.c(0.5), dot(s, &d, &d)), s.zero());
    let t2 = s.mul(t, t);
    let t3 = s.mul(t2, t);
    let g = grad_simplex::<S, D>(s, h);
    let gd = dot(s, &g, &d);
    acc.0 = s.add(acc.0, s.mul(t3, gd));
    let k = s.mul(gd, s.mul(t2, s.c(-6.0)));
    for a in 0..D {
        acc.1[a] = s.add(acc.1[a], s.add(s.mul(t3, g[a]), s.mul(k, d[a])));
    }
}

/// Simplex noise on the skewed lattice in `D` dimensions.
///
/// Every vertex of a simplex of this lattice is exactly √½ from the
/// hyperplane of its opposite facet (for every D; `docs/RANGES.md`), and
/// every other lattice point is at least that far from the simplex, so with
/// radius² ½ the surflets of the D + 1 corners are the only ones that reach
/// the point, and each vanishes with two derivatives on the faces it does
/// not touch: the noise is C² everywhere.
#[inline(always)]
fn simplex_nd<S: Simd, const D: usize>(s: S, key: S::U, p: [S::F; D]) -> (S::F, [S::F; D]) {
    let (f_skew, g_unskew) = SKEW[D - 1];
    let zero = s.zero();
    let mut int = [zero; D];
    let mut fr = [zero; D];
    for a in 0..D {
        (int[a], fr[a]) = split(s, p[a]);
    }
    // Skew on exact (cell, fraction) pairs, as in the family's 2D and 4D
    // kernels: the integer part of (Σ cells)·F is split off exactly.
    let mut fsum = fr[0];
    for a in 1..D {
        fsum = s.add(fsum, fr[a]);
    }
    let (si, sf) = skew_split(s, &mut int, f_skew);
    let small = s.add(sf, s.mul(fsum, s.c(f_skew)));
    let mut cell = [zero; D];
    let mut f = [zero; D];
    for a in 0..D {
        let (ri, rf) = split(s, s.add(fr[a], small));
        cell[a] = s.add(s.add(int[a], si), ri);
        f[a] = rf;
    }
    let mut sum = f[0];
    for a in 1..D {
        sum = s.add(sum, f[a]);
    }
    let t = s.mul(sum, s.c(g_unskew));
    let mut d0 = [zero; D];
    for a in 0..D {
        d0[a] = s.sub(f[a], t);
    }

    // Ranks 0..D−1 of the fractions by pairwise comparison; a tie goes to
    // the higher axis, so the ranks are a permutation. On a tie the point is
    // on the face two candidate simplices share, where both give the same
    // value.
    let ones = s.u_splat(1);
    let zu = s.u_splat(0);
    let mut rank = [zu; D];
    for a in 0..D {
        for b in (a + 1)..D {
            let a_wins = s.u_and(s.m_to_u(s.gt(f[a], f[b])), ones);
            rank[a] = s.u_add(rank[a], a_wins);
            rank[b] = s.u_add(rank[b], s.u_xor(a_wins, ones));
        }
    }
    let mut base = [zu; D];
    let mut prime = [zu; D];
    let mut h0 = key;
    for a in 0..D {
        prime[a] = s.u_splat(PRIMES_ND[a]);
        base[a] = s.u_mul(s.cell(cell[a]), prime[a]);
        h0 = s.u_xor(h0, base[a]);
    }
    let mut acc: Node<S, D> = (zero, [zero; D]);
    surflet::<S, D>(s, lowbias32(s, h0), d0, &mut acc);
    // Corner k (1..=D) steps along the k axes of highest rank: those with
    // rank > D − 1 − k (signed, so k = D takes them all).
    let one = s.c(1.0);
    for k in 1..=D {
        let threshold = s.u_splat((D as u32).wrapping_sub(1 + k as u32));
        let kg = s.c(k as f64 * g_unskew);
        let mut h = key;
        let mut d = d0;
        for a in 0..D {
            let o = s.u_gt_signed(rank[a], threshold);
            h = s.u_xor(h, s.u_add(base[a], s.u_and(o, prime[a])));
            d[a] = s.add(s.sub(d0[a], s.keep(s.u_to_m(o), one)), kg);
        }
        surflet::<S, D>(s, lowbias32(s, h), d, &mut acc);
    }

    let k = SIMPLEX_SUP[D - 1].recip() * MARGIN;
    let nan = poison(s, &p);
    let scale = s.c(k);
    let mut g = [zero; D];
    for a in 0..D {
        g[a] = s.add(s.mul(acc.1[a], scale), nan);
    }
    (s.add(s.mul(acc.0, scale), nan), g)
}

#[cfg(test)]
mod tests {
    //! The constants above: the skew factors, and the suprema, which are
    //! maxima of explicit functions over one simplex or cell (the sum with
    //! each corner's best gradient): recomputed here by local search, and
    //! checked to bound random points.
    use super::*;

    fn rng(state: &mut u64) -> f64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        (*state >> 11) as f64 / (1u64 << 53) as f64
    }

    /// `Σ_k (½ − |d_k|²)₊³ ‖d_k‖₁` at skewed in-cell fractions `f` (any
    /// order: sorted here, which picks the simplex by symmetry).
    fn simplex_sum(f: &[f64]) -> f64 {
        let n = f.len();
        let g = SKEW[n - 1].1;
        let mut f: Vec<f64> = f.iter().map(|x| x.clamp(0.0, 1.0)).collect();
        f.sort_by(|a, b| b.total_cmp(a));
        let s: f64 = f.iter().sum();
        (0..=n)
            .map(|k| {
                let d: Vec<f64> = (0..n)
                    .map(|a| f[a] - g * s - if a < k { 1.0 } else { 0.0 } + k as f64 * g)
                    .collect();
                let t = (0.5 - d.iter().map(|x| x * x).sum::<f64>()).max(0.0);
                t * t * t * d.iter().map(|x| x.abs()).sum::<f64>()
            })
            .sum()
    }

    fn fade1(t: f64) -> f64 {
        t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
    }

    /// `Σ_c w_c(p) (‖d_c‖₁ − min_a |d_c,a|)` over the cell's corners.
    fn perlin_sum(p: &[f64]) -> f64 {
        let n = p.len();
        (0..1usize << n)
            .map(|c| {
                let (mut w, mut l1, mut min) = (1.0, 0.0, f64::INFINITY);
                for (a, &x) in p.iter().enumerate() {
                    let t = x.clamp(0.0, 1.0);
                    let far = c >> a & 1 == 1;
                    let d: f64 = if far { t - 1.0 } else { t };
                    w *= if far { fade1(t) } else { 1.0 - fade1(t) };
                    l1 += d.abs();
                    min = min.min(d.abs());
                }
                w * (l1 - min)
            })
            .sum()
    }

    /// Pattern search from `x`: the local maximum of `f`.
    fn climb(f: &dyn Fn(&[f64]) -> f64, mut x: Vec<f64>) -> f64 {
        let mut v = f(&x);
        let mut step = 0.05;
        while step > 1e-12 {
            let mut better = false;
            for a in 0..x.len() {
                for s in [-step, step] {
                    let mut y = x.clone();
                    y[a] = (y[a] + s).clamp(0.0, 1.0);
                    let w = f(&y);
                    if w > v {
                        (v, x, better) = (w, y, true);
                    }
                }
            }
            if !better {
                step *= 0.5;
            }
        }
        v
    }

    #[test]
    fn skew_factors() {
        for n in 1..=MAX_D {
            let r = ((n + 1) as f64).sqrt();
            assert_eq!(SKEW[n - 1].0, (r - 1.0) / n as f64);
            assert_eq!(SKEW[n - 1].1, (1.0 - 1.0 / r) / n as f64);
        }
    }

    #[test]
    fn simplex_suprema() {
        let mut st = 0x5EED;
        for n in 1..=MAX_D {
            let sup = SIMPLEX_SUP[n - 1];
            // The maximum lies on the skewed main diagonal: climb along it.
            let diag = |u: &[f64]| simplex_sum(&vec![u[0]; n]);
            let best = (1..10)
                .map(|i| climb(&diag, vec![i as f64 / 10.0]))
                .fold(0.0, f64::max);
            assert!((best - sup).abs() < 1e-15, "{n}D: {best} vs {sup}");
            // Nowhere in the simplex above it, nor by local search off it.
            for i in 0..2000 {
                let f: Vec<f64> = (0..n).map(|_| rng(&mut st)).collect();
                let v = if i < 20 {
                    climb(&simplex_sum, f)
                } else {
                    simplex_sum(&f)
                };
                assert!(v <= sup * (1.0 + 1e-12), "{n}D: {v} > {sup}");
            }
        }
    }

    #[test]
    fn perlin_suprema() {
        let mut st = 0xC0FFEE;
        for n in 5..=MAX_D {
            let sup = PERLIN_SUP_5_TO_8[n - 5];
            assert_eq!(PERLIN_SCALE_ND[n - 1], 1.0 / sup);
            // The maximiser has one coordinate near 0.357 and the others
            // near ½ (found by a multi-start search over the whole cell).
            let mut x = vec![0.5; n];
            x[0] = 0.357;
            let best = climb(&perlin_sum, x);
            assert!((best - sup).abs() < 1e-12, "{n}D: {best} vs {sup}");
            for i in 0..300 {
                let p: Vec<f64> = (0..n).map(|_| rng(&mut st)).collect();
                let v = if i < 3 {
                    climb(&perlin_sum, p)
                } else {
                    perlin_sum(&p)
                };
                assert!(v <= sup * (1.0 + 1e-12), "{n}D: {v} > {sup}");
            }
        }
        // The same function gives the family's 3D and 4D constants.
        for (n, sup) in [(3, 1.036_353_811_211_802_5), (4, 1.536_582_334_046_819_2)] {
            let mut x = vec![0.5; n];
            x[0] = 0.357;
            assert!((climb(&perlin_sum, x) - sup).abs() < 1e-12);
        }
    }

    /// Chi-square of the N-D gradient sets over a million corner hashes:
    /// every member turns up, each group with its intended probability
    /// (edges: 1/D per zero axis, uniform signs; simplex: 1/(D+1) per group).
    fn chi_square<const D: usize>(simplex: bool) {
        use crate::simd::scalar::Scalar;
        use std::collections::HashMap;
        let s = Scalar::<f64>::new();
        let n = 1_000_000u32;
        let mut counts: HashMap<[i8; D], u32> = HashMap::new();
        for i in 0..n {
            let h = lowbias32(s, i.wrapping_mul(0x9E37_79B9) ^ 0x1234_5678);
            let g = if simplex {
                grad_simplex::<Scalar<f64>, D>(s, h)
            } else {
                grad_edges::<Scalar<f64>, D>(s, h)
            };
            *counts.entry(g.map(|v| v as i8)).or_insert(0) += 1;
        }
        let edges = D << (D - 1);
        let corners = 1usize << D;
        let size = if simplex { edges + corners } else { edges };
        assert_eq!(counts.len(), size, "{D}D simplex={simplex}");
        let mut chi = 0.0;
        for (g, &o) in &counts {
            let zeros = g.iter().filter(|&&v| v == 0).count();
            assert!(zeros <= 1 && g.iter().all(|v| v.abs() <= 1));
            let p = match (simplex, zeros) {
                (false, _) => 1.0 / edges as f64,
                (true, 1) => 1.0 / (D + 1) as f64 / (1usize << (D - 1)) as f64,
                (true, _) => 1.0 / (D + 1) as f64 / corners as f64,
            };
            let e = p * f64::from(n);
            chi += (f64::from(o) - e).powi(2) / e;
        }
        let df = (size - 1) as f64;
        assert!(
            chi < df + 6.0 * (2.0 * df).sqrt(),
            "{D}D simplex={simplex}: {chi}"
        );
    }

    #[test]
    fn gradient_sets_are_uniform() {
        chi_square::<5>(false);
        chi_square::<6>(false);
        chi_square::<7>(false);
        chi_square::<8>(false);
        chi_square::<2>(true);
        chi_square::<3>(true);
        chi_square::<5>(true);
        chi_square::<8>(true);
    }
}
