//! Fractal ranges: normalised fBm stays within [-1, 1] on 10^6 random points
//! per dimension, in f32 and in f64; every other normalised fractal stays
//! within its derived bound (and turbulence and ridged within [0, 1]) on 10^6
//! points per dimension. Prints the measured ranges (the table in the
//! `fractal` module documentation).

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use surflet::Field;
use surflet::{Float, Fractal, FractalKind, FractalParams, Noise, NoiseKind};

const POINTS: usize = 1_000_000;

/// Smallest and largest value of `f` over `n` uniform points in
/// `[-r, r]^D`, checking each against `[lo, hi]`.
fn measure<F: Float, const D: usize>(
    f: &Fractal<D>,
    n: usize,
    r: f64,
    seed: u64,
    (lo, hi): (f64, f64),
) -> (f64, f64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut min, mut max) = (f64::INFINITY, f64::NEG_INFINITY);
    for _ in 0..n {
        let p: [F; D] = core::array::from_fn(|_| F::from_f64(rng.random_range(-r..r)));
        let v = f.get(p).to_f64();
        assert!(
            v >= lo && v <= hi,
            "{:?} {D}D {}: value {v} at {p:?} outside [{lo}, {hi}]",
            f.params().kind,
            F::NAME
        );
        min = min.min(v);
        max = max.max(v);
    }
    (min, max)
}

fn fbm_within_unit<F: Float, const D: usize>() {
    // Spread over the noise kinds and over octave counts (1 octave reaches
    // the base noise's own extremes; more octaves sum more roundings).
    let per = POINTS / 8;
    let (mut min, mut max) = (0.0f64, 0.0f64);
    for (k, kind) in NoiseKind::ALL.into_iter().enumerate() {
        for octaves in [1, 8] {
            let params = FractalParams {
                octaves,
                gain: 0.7,
                ..FractalParams::new(FractalKind::Fbm)
            };
            let f = Fractal::new(Noise::<D>::new(kind, k as u64), params).unwrap();
            let (a, b) =
                measure::<F, D>(&f, per, 1000.0, octaves as u64 * 10 + k as u64, (-1.0, 1.0));
            min = min.min(a);
            max = max.max(b);
        }
    }
    println!(
        "normalised fbm {D}D {}: {POINTS} points in [{min:.6}, {max:.6}]",
        F::NAME
    );
}

#[test]
fn normalised_fbm_within_unit_f32() {
    fbm_within_unit::<f32, 1>();
    fbm_within_unit::<f32, 2>();
    fbm_within_unit::<f32, 3>();
    fbm_within_unit::<f32, 4>();
}

#[test]
fn normalised_fbm_within_unit_f64() {
    fbm_within_unit::<f64, 1>();
    fbm_within_unit::<f64, 2>();
    fbm_within_unit::<f64, 3>();
    fbm_within_unit::<f64, 4>();
}

/// One row of the range table: each noise kind's [min, max] over a quarter of
/// the points, for the default parameters.
fn row<const D: usize>(kind: FractalKind) -> String {
    let lo = match kind {
        FractalKind::Turbulence | FractalKind::Ridged => 0.0,
        _ => -1.0,
    };
    let mut cells = Vec::new();
    for (k, noise) in NoiseKind::ALL.into_iter().enumerate() {
        let f = Fractal::new(
            Noise::<D>::new(noise, 7 + k as u64),
            FractalParams::new(kind),
        )
        .unwrap();
        assert_eq!(f.bound(), 1.0);
        let (a, b) = measure::<f64, D>(&f, POINTS / 4, 1000.0, k as u64, (lo, 1.0));
        cells.push(format!("[{a:.3}, {b:.3}]"));
    }
    format!("| {kind} | {D}D | {} |", cells.join(" | "))
}

fn table(kind: FractalKind) {
    let rows = [
        row::<1>(kind),
        row::<2>(kind),
        row::<3>(kind),
        row::<4>(kind),
    ];
    println!("{}", rows.join("\n"));
}

#[test]
fn fbm_range() {
    table(FractalKind::Fbm);
}
#[test]
fn ridged_range() {
    table(FractalKind::Ridged);
}
#[test]
fn billow_range() {
    table(FractalKind::Billow);
}
#[test]
fn turbulence_range() {
    table(FractalKind::Turbulence);
}
#[test]
fn hybrid_range() {
    table(FractalKind::Hybrid);
}

#[test]
fn unnormalised_bounds_are_the_formulas() {
    let n = Noise::<2>::new(NoiseKind::Perlin, 1);
    let raw = |kind, offset| {
        Fractal::new(
            n,
            FractalParams {
                octaves: 3,
                amplitude: 2.0,
                gain: 0.5,
                offset,
                normalize: false,
                ..FractalParams::new(kind)
            },
        )
        .unwrap()
        .bound()
    };
    // Σ|aᵢ| = 2 + 1 + 0.5.
    assert_eq!(raw(FractalKind::Fbm, 0.0), 3.5);
    assert_eq!(raw(FractalKind::Billow, 0.0), 3.5);
    assert_eq!(raw(FractalKind::Turbulence, 0.0), 3.5);
    // M = max(offset², (offset − 1)²) = 2.25 for offset 1.5.
    assert_eq!(raw(FractalKind::Ridged, 1.5), 2.25 * 3.5);
    // c = (1 + 0.5)·(2, 1, 0.5) = (3, 1.5, 0.75); W₁ = 3, T₁ = 3·1.5 = 4.5,
    // T₂ = 4.5·0.75 = 3.375.
    assert_eq!(raw(FractalKind::Hybrid, 0.5), 3.0 + 4.5 + 3.375);
}
