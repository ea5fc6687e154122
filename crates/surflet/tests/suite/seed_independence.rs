//! Seeds stay independent: related seeds give fields as uncorrelated as
//! unrelated seeds do, and unrelated seeds give uncorrelated fields.
//!
//! Why: a seed's only effect is the 32-bit key xored into every corner hash
//! (`key(seed)`, then the `lowbias32` finaliser), so a cheaper key or
//! finaliser can tie fields together. With the seed itself as the key and a
//! one-multiply finaliser (`h·M`, then `h ^ h >> 16`), seeds 42 and 43 give
//! keys one bit apart, every corner hash of the two fields differs by about
//! the same amount, and the top bits that pick gradients and lattice values
//! agree far more often than chance: measured r = −0.37 in 1D value noise
//! (22σ); and `s ^ 2^k` with `k ≥ 32` gives the very same field. With
//! SplitMix64 keys and that one-multiply finaliser, related seeds are no
//! worse than unrelated ones, but some key pairs still correlate beyond 5σ
//! (about one random pair in 2000 in 1D value noise), and OpenSimplex2,
//! whose gradient choices read low hash bits, correlates for all pairs (σ
//! 1.5–1.6 times that of independent fields); both fail here.
//!
//! The test, for every noise kind in 1D–4D:
//! - 4096 points, the same for every seed: a lattice of spacing 2 cells, each
//!   point jittered uniformly within the cell at its lattice node, so no two
//!   points share a cell or a cell corner, and any two are more than a cell
//!   apart along some axis (so they are in different simplices too).
//! - 256 seeds `s`: 0, 42 and `u64::MAX` (whose `s + 1` wraps to 0), then
//!   random ones; two relations for each: `s` with `s + 1` (wrapping) and `s`
//!   with `s ^ 2^k`, `k` cycling over 0..64 (4 seeds per bit).
//! - `r`, the Pearson correlation of the two fields over the points.
//! - `σ` and `μ`: the standard deviation and mean of `r` over 256 pairs of
//!   unrelated (independently drawn) seeds.
//! - It fails if any related pair has `|r − μ| > 5σ`. For the zero-mean
//!   kinds `μ` is noise (|μ| < σ/8) and this is `|r| > 5σ`. Cellular noise is
//!   not zero-mean at a given spot in its cell (f1 is smaller near the middle
//!   on average), so any two seeds correlate through the points' spots, by
//!   the same `μ` for related and unrelated seeds (1.3σ in 1D); `μ` takes
//!   that out.
//! - It also fails if `σ > 1.25 σ₀`, where `σ₀ = √(Σᵢ vᵢ²)` is the standard
//!   deviation that independent fields would give, `vᵢ` being the mean of
//!   the squared centred, normalised value at point `i` over the unrelated
//!   fields (not `1/√4096`: the field's spread varies with the spot in the
//!   cell, the same for both fields). If unrelated seeds correlated too, `σ`
//!   would grow with them and hide everything: with no finaliser at all
//!   (`key ^ Σ cₐ·Pₐ` as it is), two fields' hashes differ by the same xor at
//!   every corner, `σ` is 0.3–0.8 (17–44 σ₀) and no related pair reaches 5σ.
//!   Today `σ/σ₀` is 0.92–1.13 (its sampling error is 4.4%).
//!
//! 14336 related pairs at 5σ: a sound hash fails by chance with odds below 1
//! in 100 (and the seeds are fixed, so it passes or fails for good).
//! `cargo test -p surflet --test suite seed_independence -- --nocapture`
//! prints the worst pair per kind and dimension.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use surflet::Field;
use surflet::{Noise, NoiseKind};

const POINTS: usize = 4096;
const PAIRS: usize = 256;
/// Spacing of the point lattice, in cells; each point lies in the cell at its
/// node, `[node, node + 1)` on every axis.
const SPACING: f64 = 2.0;
/// The most `|r − μ| / σ` of a related pair.
const LIMIT: f64 = 5.0;
/// The most `σ / σ₀`.
const SIGMA_LIMIT: f64 = 1.25;

/// How the second seed of a pair follows from the first.
#[derive(Clone, Copy, Debug)]
enum Relation {
    /// `s + 1`, wrapping.
    Next,
    /// `s ^ 2^k`.
    Bit(u32),
}

impl Relation {
    fn apply(self, s: u64) -> u64 {
        match self {
            Relation::Next => s.wrapping_add(1),
            Relation::Bit(k) => s ^ (1 << k),
        }
    }
}

impl core::fmt::Display for Relation {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Relation::Next => f.write_str("s+1"),
            Relation::Bit(k) => write!(f, "s^2^{k}"),
        }
    }
}

/// The seeds: `PAIRS` first seeds `s`, and `PAIRS` unrelated pairs.
struct Seeds {
    s: Vec<u64>,
    unrelated: Vec<(u64, u64)>,
}

fn seeds() -> Seeds {
    let mut rng = SmallRng::seed_from_u64(0x5EED_1DE9);
    let mut s = vec![0, 42, u64::MAX];
    while s.len() < PAIRS {
        s.push(rng.random());
    }
    let unrelated = (0..PAIRS).map(|_| (rng.random(), rng.random())).collect();
    Seeds { s, unrelated }
}

/// The points, one slice per axis: `POINTS^(1/D)` nodes per axis.
fn points<const D: usize>() -> [Vec<f64>; D] {
    let side = (POINTS as f64).powf(1.0 / D as f64).round() as usize;
    assert_eq!(side.pow(D as u32), POINTS);
    let mut rng = SmallRng::seed_from_u64(0x9017 + D as u64);
    let origin: [f64; D] = core::array::from_fn(|_| rng.random_range(-1000..1000) as f64);
    let mut axes: [Vec<f64>; D] = core::array::from_fn(|_| Vec::with_capacity(POINTS));
    for i in 0..POINTS {
        let mut rest = i;
        for (a, axis) in axes.iter_mut().enumerate() {
            let node = (rest % side) as f64;
            rest /= side;
            let jitter: f64 = rng.random();
            axis.push(origin[a] + SPACING * node + jitter);
        }
    }
    axes
}

/// The field of `seed` at the points, centred and scaled to unit norm, so
/// that the correlation of two fields is their dot product.
fn field<const D: usize>(kind: NoiseKind, seed: u64, points: &[Vec<f64>; D]) -> Vec<f64> {
    let mut v = vec![0.0; POINTS];
    Noise::<D>::new(kind, seed)
        .fill(core::array::from_fn(|a| points[a].as_slice()), &mut v)
        .unwrap();
    let mean = v.iter().sum::<f64>() / POINTS as f64;
    v.iter_mut().for_each(|x| *x -= mean);
    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    // A constant field gives NaN, which fails below.
    v.iter_mut().for_each(|x| *x /= norm);
    v
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// One related pair's result.
struct Pair {
    s: u64,
    relation: Relation,
    r: f64,
}

/// One kind and dimension's results.
struct Outcome {
    kind: NoiseKind,
    dim: usize,
    /// Standard deviation and mean of `r` over the unrelated pairs.
    sigma: f64,
    mu: f64,
    /// The standard deviation that independent fields would give.
    sigma0: f64,
    pairs: Vec<Pair>,
}

impl Outcome {
    fn z(&self, p: &Pair) -> f64 {
        (p.r - self.mu) / self.sigma
    }

    /// The pair with the largest `|z|` (NaN first) among those `keep` keeps.
    fn worst(&self, keep: impl Fn(Relation) -> bool) -> &Pair {
        self.pairs
            .iter()
            .filter(|p| keep(p.relation))
            .max_by(|a, b| {
                let (za, zb) = (self.z(a).abs(), self.z(b).abs());
                za.is_nan().cmp(&zb.is_nan()).then(za.total_cmp(&zb))
            })
            .unwrap()
    }
}

fn measure<const D: usize>(kind: NoiseKind, seeds: &Seeds) -> Outcome {
    let points = points::<D>();
    let unrelated: Vec<(Vec<f64>, Vec<f64>)> = seeds
        .unrelated
        .par_iter()
        .map(|&(a, b)| (field(kind, a, &points), field(kind, b, &points)))
        .collect();
    let r: Vec<f64> = unrelated.iter().map(|(a, b)| dot(a, b)).collect();
    let n = r.len() as f64;
    let mu = r.iter().sum::<f64>() / n;
    let sigma = (r.iter().map(|r| (r - mu).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    // Independent fields a, b (normalised) have Var(a·b) = Σᵢ E[aᵢ²] E[bᵢ²].
    let mut v = vec![0.0; POINTS];
    for (a, b) in &unrelated {
        for (vi, (x, y)) in v.iter_mut().zip(a.iter().zip(b)) {
            *vi += (x * x + y * y) / (2.0 * n);
        }
    }
    let sigma0 = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    // Each `s` with `s + 1` and with `s ^ 2^(i mod 64)`: 4 seeds per bit.
    let pairs = seeds
        .s
        .par_iter()
        .enumerate()
        .flat_map_iter(|(i, &s)| {
            let base = field(kind, s, &points);
            [Relation::Next, Relation::Bit((i % 64) as u32)].map(|relation| Pair {
                s,
                relation,
                r: dot(&base, &field(kind, relation.apply(s), &points)),
            })
        })
        .collect();
    Outcome {
        kind,
        dim: D,
        sigma,
        mu,
        sigma0,
        pairs,
    }
}

#[test]
fn related_seeds_are_as_independent_as_unrelated_ones() {
    let start = std::time::Instant::now();
    let seeds = seeds();
    let jobs: Vec<(NoiseKind, usize)> = NoiseKind::ALL
        .into_iter()
        .flat_map(|k| (1..=4).map(move |d| (k, d)))
        .collect();
    let outcomes: Vec<Outcome> = jobs
        .into_par_iter()
        .map(|(kind, dim)| match dim {
            1 => measure::<1>(kind, &seeds),
            2 => measure::<2>(kind, &seeds),
            3 => measure::<3>(kind, &seeds),
            _ => measure::<4>(kind, &seeds),
        })
        .collect();

    println!(
        "{:<14} {:>2} {:>8} {:>5} {:>5}  {:<27} {:<31} {:>5}",
        "kind",
        "D",
        "sigma",
        "s/s0",
        "mu/s",
        "worst s+1: |r-mu|/sigma, s",
        "worst s^2^k: |r-mu|/sigma, k, s",
        "fails"
    );
    let mut failures = Vec::new();
    let mut sigma_failures = Vec::new();
    for o in &outcomes {
        let next = o.worst(|r| matches!(r, Relation::Next));
        let bit = o.worst(|r| matches!(r, Relation::Bit(_)));
        let Relation::Bit(k) = bit.relation else {
            unreachable!()
        };
        let before = failures.len();
        for p in &o.pairs {
            let z = o.z(p);
            if z.is_nan() || z.abs() > LIMIT {
                failures.push((
                    z.abs(),
                    format!(
                        "{} {}D seeds {:#x} and {:#x} ({}): r = {:+.4}, (r - mu)/sigma = {:+.2} \
                         (sigma = {:.5}, mu = {:+.5} over {PAIRS} unrelated pairs)",
                        o.kind,
                        o.dim,
                        p.s,
                        p.relation.apply(p.s),
                        p.relation,
                        p.r,
                        z,
                        o.sigma,
                        o.mu,
                    ),
                ));
            }
        }
        if o.sigma.is_nan() || o.sigma > SIGMA_LIMIT * o.sigma0 {
            sigma_failures.push(format!(
                "{} {}D: unrelated seeds correlate: sigma = {:.5} over {PAIRS} unrelated pairs, \
                 {:.2} times the {:.5} of independent fields",
                o.kind,
                o.dim,
                o.sigma,
                o.sigma / o.sigma0,
                o.sigma0,
            ));
        }
        println!(
            "{:<14} {:>2} {:>8.5} {:>5.2} {:>+5.2}  {:>6.2}, {:#018x}  {:>6.2}, {:>2}, {:#018x}  {:>5}",
            o.kind.name(),
            o.dim,
            o.sigma,
            o.sigma / o.sigma0,
            o.mu / o.sigma,
            o.z(next).abs(),
            next.s,
            o.z(bit).abs(),
            k,
            bit.s,
            failures.len() - before,
        );
    }
    println!("seed independence: {:.2?}", start.elapsed());
    failures.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut message = String::new();
    if !sigma_failures.is_empty() {
        message += &format!(
            "unrelated seeds correlate in {} of {} kinds and dimensions:\n{}\n",
            sigma_failures.len(),
            outcomes.len(),
            sigma_failures.join("\n")
        );
    }
    if !failures.is_empty() {
        message += &format!(
            "{} related seed pairs correlate beyond {LIMIT} sigma; the worst:\n{}\n",
            failures.len(),
            failures
                .iter()
                .take(20)
                .map(|f| f.1.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    assert!(message.is_empty(), "{message}");
}
