//! `f32` and `f64` evaluate the same function: for coordinates below 1000 in
//! magnitude, values agree to `VALUE` and gradients to `GRADIENT` (absolute),
//! just above the figures docs/RANGES.md documents.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use surflet::{Noise, NoiseKind};

/// Measured (seed 99, 10^5 points per noise, kind, dimension and period): at
/// most 1.72e-6 (4D value noise) in value and 5.18e-6 (2D simplex noise) in
/// gradient; docs/RANGES.md quotes 1.7e-6 and 5.2e-6.
const VALUE: f64 = 2e-6;
const GRADIENT: f64 = 6e-6;
/// OpenSimplex2's quartic surflets are scaled by about 100, and its 3D
/// lattice is turned, so its gradients round more: measured at most 1.01e-5
/// (3D OpenSimplex2; 6.3e-6 in 2D, 4.6e-6 in 4D). Values stay under `VALUE`.
const GRADIENT_OPENSIMPLEX: f64 = 1.2e-5;

fn check<const D: usize>(noise: Noise<D>, range: f64) -> (f64, f64) {
    let mut rng = SmallRng::seed_from_u64(7);
    let (mut wv, mut wg) = (0.0f64, 0.0f64);
    for _ in 0..100_000 {
        // The same point in both precisions: draw an f32, widen it exactly.
        let p32: [f32; D] = core::array::from_fn(|_| rng.random_range(-range..range) as f32);
        let p64 = p32.map(f64::from);
        let a = noise.sample(p32);
        let b = noise.sample(p64);
        wv = wv.max((a.value as f64 - b.value).abs());
        for k in 0..D {
            wg = wg.max((a.gradient[k] as f64 - b.gradient[k]).abs());
        }
    }
    (wv, wg)
}

fn all<const D: usize>(period: [u32; D]) {
    // Cellular noise's gradient jumps on its Voronoi borders and turns
    // fast near its feature points, so f32 and f64 can disagree there by
    // more than rounding; tests/suite/cellular.rs covers its bits and gradients.
    for kind in NoiseKind::ALL
        .into_iter()
        .filter(|&k| k != NoiseKind::Cellular)
    {
        let n = Noise::<D>::new(kind, 99);
        let mut cases = vec![(n, 1000.0)];
        if let Ok(p) = n.with_period(period) {
            cases.push((p, 1000.0));
        }
        for (noise, range) in cases {
            let (wv, wg) = check(noise, range);
            println!(
                "{} {}D periodic={}: worst |f32 - f64| value {wv:.2e}, gradient {wg:.2e}",
                kind,
                D,
                noise.period().is_some()
            );
            let open = matches!(kind, NoiseKind::OpenSimplex2 | NoiseKind::OpenSimplex2S);
            let gradient = if open { GRADIENT_OPENSIMPLEX } else { GRADIENT };
            assert!(
                wv <= VALUE && wg <= gradient,
                "{kind} {D}D: value {wv:e}, gradient {wg:e}"
            );
        }
    }
}

#[test]
fn f32_matches_f64_1d() {
    all::<1>([65536]);
}
#[test]
fn f32_matches_f64_2d() {
    all::<2>([4096, 65536]);
}
#[test]
fn f32_matches_f64_3d() {
    all::<3>([3, 1000, 65536]);
}
#[test]
fn f32_matches_f64_4d() {
    all::<4>([1000, 7, 2000, 65536]);
}
