//! The noise kernels, each written once over the lane type [`Simd`].
//!
//! Data flow for one batch of lanes: coordinates → exact (cell, fraction) pairs, the cell
//! reduced modulo the period if there is one → lattice cell and in-cell offset → per-corner hash → per-corner gradient or
//! value → falloff-weighted sum (simplex family) or fade-weighted
//! interpolation (hypercube family) → value and analytic gradient, scaled to
//! the documented range.
//!
//! Where each noise lives: value noise *and Perlin noise* in `hypercube.rs`
//! (one kernel: a lattice value or a gradient ramp at each cube corner);
//! simplex and simplex value noise in `simplex.rs`; OpenSimplex2 and
//! OpenSimplex2S in `opensimplex.rs`; cellular noise in `cellular.rs`; the
//! 1D–8D versions in `nd.rs`. What they share: corner hashing in `hash.rs`,
//! gradient sets in `gradients.rs`, exact (cell, fraction) splitting and the
//! simplex skew in `lattice.rs`, and the per-field lane parameters
//! ([`LaneParams`]), the fade and the margin here.

// Kernels walk several fixed-size per-axis arrays in step; indexing by axis
// reads better there than zipped iterators.
#![allow(clippy::needless_range_loop)]

pub(crate) mod band;
pub(crate) mod cellular;
pub(crate) mod cubic;
mod gradients;
mod hash;
pub(crate) mod hypercube;
mod lattice;
pub(crate) mod nd;
pub(crate) mod opensimplex;
pub(crate) mod select;
pub(crate) mod simplex;

use crate::simd::Element;
use crate::simd::Simd;

pub(crate) use gradients::*;
pub(crate) use hash::*;
pub(crate) use lattice::*;

/// Every normalised gradient noise is scaled by `1 / sup · MARGIN`. At the
/// supremum, float rounding can land a few ulps above 1 (measured: 4e-16 in
/// `f64`, 3.6e-7 in `f32`, at simplex 4D's maximum); this relative margin of
/// 3.8e-6 keeps every result inside [-1, 1] without clamping.
pub(crate) const MARGIN: f64 = 1.0 - 1.0 / 262_144.0;

/// A kernel's parameters in lanes, made once per batch (or per single
/// point): the seed's key, the periods, and cellular noise's options.
/// Each kernel reads the parts it needs.
#[derive(Clone, Copy)]
pub(crate) struct LaneParams<S: Simd> {
    pub key: S::U,
    /// The periods, read by the periodic kernels only.
    pub period: Periods<S>,
    /// Cellular noise's options, read by the cellular kernel only.
    pub cell: cellular::CellLanes<S>,
}

/// Periods per axis in lanes (an axis without a period holds 0, and 1 in
/// the float forms).
#[derive(Clone, Copy)]
pub(crate) struct Periods<S: Simd> {
    /// The period in cells.
    pub cells: [S::U; 4],
    /// Half of an even period, for the hexagonal lattice's row shift.
    pub half: [S::U; 4],
    /// Twice the period, for lattices stored at half-integer resolution.
    pub double: [S::U; 4],
    /// The period as a float.
    pub f: [S::F; 4],
    /// Its reciprocal.
    pub inv: [S::F; 4],
}

impl<S: Simd> LaneParams<S> {
    #[inline(always)]
    pub(crate) fn new(s: S, key: u32, period: [u32; 4]) -> Self {
        let zu = s.u_splat(0);
        let one = s.splat(S::E::ONE);
        let mut f = LaneParams {
            key: s.u_splat(key),
            period: Periods {
                cells: [zu; 4],
                half: [zu; 4],
                double: [zu; 4],
                f: [one; 4],
                inv: [one; 4],
            },
            cell: cellular::CellLanes::unused(s),
        };
        // Single-point calls build a field each time: skip the divisions for
        // axes without a period.
        for a in 0..4 {
            let p = period[a];
            if p != 0 {
                f.period.cells[a] = s.u_splat(p);
                f.period.half[a] = s.u_splat(p / 2);
                f.period.double[a] = s.u_splat(p.wrapping_mul(2));
                let pf = S::E::from_f64(p as f64);
                f.period.f[a] = s.splat(pf);
                f.period.inv[a] = s.splat(S::E::ONE / pf);
            }
        }
        f
    }
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
    /// them (key xor primed coordinates, then `lowbias32`).
    fn hashes() -> impl Iterator<Item = u32> {
        let s = Scalar::<f64>::new();
        let key = crate::seed::key(12345);
        (0..N as u32).map(move |i| {
            let (x, y, z) = (i % 97, (i / 97) % 101, i / 9797);
            let h = key
                ^ x.wrapping_mul(PRIMES[0])
                ^ y.wrapping_mul(PRIMES[1])
                ^ z.wrapping_mul(PRIMES[2]);
            lowbias32(s, h)
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
