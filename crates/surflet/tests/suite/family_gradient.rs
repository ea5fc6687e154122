//! The analytic gradient of every noise is the true derivative of the value it
//! returns: it agrees with central differences to 1e-6 absolute at 10^4
//! random points, for every kind and dimension, with and without a period.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use surflet::{Noise, NoiseKind};

/// Step of the central difference. Truncation error is about h²·f'''/6 and
/// rounding about 1e-16/h; both are near 1e-10 here, far below the tolerance.
const H: f64 = 1e-6;
const TOLERANCE: f64 = 1e-6;
const POINTS: usize = 10_000;

fn check<const D: usize>(noise: Noise<D>, seed: u64, range: f64) -> f64 {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut worst = 0.0f64;
    for _ in 0..POINTS {
        let p: [f64; D] = core::array::from_fn(|_| rng.random_range(-range..range));
        let s = noise.sample(p);
        for a in 0..D {
            let mut hi = p;
            let mut lo = p;
            hi[a] += H;
            lo[a] -= H;
            let fd = (noise.get(hi) - noise.get(lo)) / (hi[a] - lo[a]);
            let err = (fd - s.gradient[a]).abs();
            worst = worst.max(err);
            assert!(
                err <= TOLERANCE,
                "{} {D}D period {:?}: at {p:?} axis {a}: analytic {} vs central difference {fd} (|err| {err:e})",
                noise.kind(),
                noise.period(),
                s.gradient[a]
            );
        }
    }
    worst
}

fn all<const D: usize>(period: [u32; D]) {
    // Cellular noise is not differentiable on its Voronoi borders, so a
    // central difference that straddles one disagrees; tests/suite/cellular.rs
    // checks its gradient away from them.
    for kind in NoiseKind::ALL
        .into_iter()
        .filter(|&k| k != NoiseKind::Cellular)
    {
        let n = Noise::<D>::new(kind, 0x5EED);
        let w = check(n, 1, 100.0);
        println!("{kind} {D}D: worst |analytic - central difference| = {w:.2e}");
        if let Ok(p) = n.with_period(period) {
            let w = check(p, 2, 3.0 * period[0] as f64);
            println!("{kind} {D}D period {period:?}: worst = {w:.2e}");
        }
    }
}

#[test]
fn gradients_1d() {
    all::<1>([5]);
}

#[test]
fn gradients_2d() {
    all::<2>([5, 6]);
}

#[test]
fn gradients_3d() {
    all::<3>([5, 3, 7]);
}

#[test]
fn gradients_4d() {
    all::<4>([5, 3, 2, 4]);
}
