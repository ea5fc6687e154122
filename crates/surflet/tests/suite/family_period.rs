//! Tiling is exact: `f(p + P·k) == f(p)` bit for bit (value and gradient) for
//! every exactly representable shift, in `f32` and `f64`, for every noise and
//! dimension that supports a period, including the largest period 65536.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use surflet::{Error, Float, Noise, NoiseKind};

fn same<F: Float>(a: F, b: F) -> bool {
    a.to_f64().to_bits() == b.to_f64().to_bits()
}

fn check<F: Float, const D: usize>(kind: NoiseKind, period: [u32; D], seed: u64) {
    let noise = Noise::<D>::new(kind, seed).with_period(period).unwrap();
    let mut rng = SmallRng::seed_from_u64(seed);
    for _ in 0..3000 {
        // |p + P·k| < 6·65536 < 2^19, so multiples of 2^-5 (f32) or 2^-10
        // (f64) keep p and p + P·k exactly representable.
        let steps = if F::PRECISION == 24 { 32 } else { 1024 };
        let p: [F; D] = core::array::from_fn(|a| {
            let range = 3 * period[a] as i64 * steps;
            F::from_f64(rng.random_range(-range..range) as f64 / steps as f64)
        });
        let k: [i64; D] = core::array::from_fn(|_| rng.random_range(-3..=3));
        let q: [F; D] =
            core::array::from_fn(|a| F::from_f64(p[a].to_f64() + (k[a] * period[a] as i64) as f64));
        for i in 0..D {
            let shift = q[i].to_f64() - p[i].to_f64();
            assert_eq!(shift, (k[i] * period[i] as i64) as f64, "shift not exact");
        }
        let (a, b) = (noise.sample(p), noise.sample(q));
        let ok = same(a.value, b.value) && (0..D).all(|i| same(a.gradient[i], b.gradient[i]));
        assert!(
            ok,
            "{kind} {D}D {} period {period:?}: f({p:?}) = {:?} but f({q:?}) = {:?}",
            F::NAME,
            a,
            b
        );
    }
}

/// The kinds that tile (OpenSimplex2 and 2S do not: `opensimplex.rs`).
fn tiling() -> impl Iterator<Item = NoiseKind> {
    NoiseKind::ALL
        .into_iter()
        .filter(|k| !k.periodic_dims().is_empty())
}

fn all<F: Float>() {
    for kind in tiling() {
        for seed in [1, 2] {
            check::<F, 1>(kind, [7], seed);
            check::<F, 1>(kind, [1], seed);
            check::<F, 2>(kind, [3, 4], seed);
            check::<F, 2>(kind, [65536, 2], seed);
            check::<F, 3>(kind, [5, 1, 6], seed);
            check::<F, 3>(kind, [2, 65536, 3], seed);
            if kind.periodic_dims().contains(&4) {
                check::<F, 4>(kind, [3, 5, 2, 7], seed);
            }
        }
    }
}

#[test]
fn periods_are_exact_f64() {
    all::<f64>();
}

#[test]
fn periods_are_exact_f32() {
    all::<f32>();
}

/// A period only wraps the lattice: inside the first tile, away from its far
/// edge, periodic noise is the plain noise, bit for bit. (For simplex 3D this
/// is what the axis-aligned BCC lattice buys; 2D simplex tiles on a different,
/// hexagonal lattice, so it is excluded.)
#[test]
fn periodic_noise_is_plain_noise_inside_the_tile() {
    let mut rng = SmallRng::seed_from_u64(9);
    for kind in tiling() {
        let plain = Noise::<3>::new(kind, 77);
        let tiled = plain.with_period([16, 16, 16]).unwrap();
        for _ in 0..2000 {
            let p: [f64; 3] = core::array::from_fn(|_| rng.random_range(1.5..13.5));
            assert_eq!(plain.sample(p), tiled.sample(p), "{kind} at {p:?}");
        }
    }
}

#[test]
fn invalid_periods_are_typed_errors() {
    let n = Noise::<2>::new(NoiseKind::Perlin, 0);
    assert!(matches!(
        n.with_period([0, 4]),
        Err(Error::Period { axis: 0, .. })
    ));
    assert!(matches!(
        n.with_period([4, 65537]),
        Err(Error::Period { axis: 1, .. })
    ));
    let s = Noise::<2>::new(NoiseKind::Simplex, 0);
    assert!(matches!(
        s.with_period([4, 5]),
        Err(Error::Period { axis: 1, .. })
    ));
    assert!(s.with_period([5, 4]).is_ok());
    let s4 = Noise::<4>::new(NoiseKind::SimplexValue, 0);
    assert!(matches!(
        s4.with_period([4; 4]),
        Err(Error::PeriodUnsupported { .. })
    ));
    assert!(
        Noise::<4>::new(NoiseKind::Value, 0)
            .with_period([65536; 4])
            .is_ok()
    );
}
