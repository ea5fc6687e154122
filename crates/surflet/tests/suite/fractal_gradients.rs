//! Every fractal's analytic gradient matches central differences (f64, 1e-6
//! absolute) at 10^4 points per fractal kind and dimension, spread over the
//! four noise kinds, and its value matches the formulas written out in plain
//! f64.
//!
//! Where |n| or a clamp has a crease, the derivative does not exist; a point
//! is skipped (and counted) when the crease lies inside its finite-difference
//! stencil, detected exactly: some octave's sign of n or some clamp's state
//! differs between p − h and p + h along an axis.

use crate::fractal_common::{Tally, central, moved, points, reference, smooth_kinds};
use surflet::Field;
use surflet::{Fractal, FractalKind, FractalParams, Noise, NoiseKind};

const H: f64 = 1e-6;
const TOL: f64 = 1e-6;
const POINTS_PER_NOISE: usize = 2500;

/// A few parameter sets per noise kind, so the 10^4 points cover octave
/// counts, lacunarities, gains, normalisation and periods. The highest octave
/// frequency stays at or below 16, which keeps the truncation error of the
/// difference quotient (h² f³ / 6) far below the tolerance.
fn cases<const D: usize>(kind: FractalKind, noise: NoiseKind, k: usize) -> Vec<Fractal<D>> {
    let base = FractalParams::new(kind);
    let sets = [
        FractalParams { octaves: 5, ..base },
        FractalParams {
            octaves: 3,
            lacunarity: 2.5,
            gain: 0.6,
            frequency: 0.8,
            amplitude: 1.7,
            normalize: false,
            ..base
        },
        FractalParams {
            octaves: 1,
            frequency: 1.3,
            ..base
        },
        FractalParams {
            octaves: 4,
            lacunarity: 1.9,
            gain: 0.45,
            offset: if kind == FractalKind::Hybrid {
                0.25
            } else {
                base.offset
            },
            weight: 1.5,
            ..base
        },
        // Turned octaves: the chain rule through each octave's rotation.
        FractalParams {
            octaves: 4,
            lacunarity: 2.2,
            rotation: 0.7,
            ..base
        },
    ];
    let seed = 0xF00D + k as u64 * 17 + D as u64;
    let mut out: Vec<Fractal<D>> = sets
        .iter()
        .map(|p| Fractal::new(Noise::new(noise, seed), *p).unwrap())
        .collect();
    // A tiled fractal too, wherever the noise kind can tile in this
    // dimension: odd periods on x and z, even ones on y and w, because 2D
    // simplex noise tiles only with an even y period (its hexagonal lattice).
    let period: [u32; D] = core::array::from_fn(|a| [3, 4][a % 2]);
    let tiled = Noise::<D>::new(noise, seed ^ 1).with_period(period);
    let can_tile = noise.periodic_dims().contains(&D);
    assert_eq!(
        tiled.is_ok(),
        can_tile,
        "{noise} {D}D {period:?}: {tiled:?}"
    );
    if let Ok(n) = tiled {
        let p = FractalParams { octaves: 4, ..base };
        out.push(Fractal::new(n, p).unwrap());
    }
    out
}

fn check_kind<const D: usize>(kind: FractalKind) {
    let mut total = Tally::default();
    let mut value_err = 0.0f64;
    for (k, noise) in smooth_kinds().into_iter().enumerate() {
        let fractals = cases::<D>(kind, noise, k);
        let pts = points::<D>(0xBEEF + k as u64, POINTS_PER_NOISE, 20.0);
        let mut tally = Tally::default();
        for (i, p) in pts.iter().enumerate() {
            let f = &fractals[i % fractals.len()];
            let s = f.sample(*p);
            assert_eq!(s.value, f.get(*p), "sample and get disagree");
            let r = reference(f, *p);
            value_err = value_err.max((r.value - s.value).abs());
            assert!(
                (r.value - s.value).abs() <= 1e-12,
                "{kind} {noise} {D}D at {p:?}: value {} vs reference {}",
                s.value,
                r.value
            );
            let crease = (0..D).any(|a| {
                let lo = reference(f, moved(*p, a, -H)).state;
                let hi = reference(f, moved(*p, a, H)).state;
                lo != r.state || hi != r.state
            });
            if crease {
                tally.skipped += 1;
                continue;
            }
            for a in 0..D {
                let fd = central(|q| f.get(q), *p, a, H);
                let err = (fd - s.gradient[a]).abs();
                tally.record(err);
                assert!(
                    err <= TOL,
                    "{kind} {noise} {D}D {:?} at {p:?}: d/dx{a} analytic {} vs central {fd} (err {err:e})",
                    f.params(),
                    s.gradient[a]
                );
            }
        }
        println!(
            "{kind:>10} {D}D {noise:>13}: {} points, {} skipped (crease within h), worst |grad - fd| {:.2e}",
            POINTS_PER_NOISE - tally.skipped,
            tally.skipped,
            tally.worst
        );
        total.checked += POINTS_PER_NOISE - tally.skipped;
        total.skipped += tally.skipped;
        total.worst = total.worst.max(tally.worst);
    }
    println!(
        "{kind:>10} {D}D total: {} points checked, {} skipped, worst {:.2e}, worst |value - reference| {:.2e}",
        total.checked, total.skipped, total.worst, value_err
    );
    assert!(total.checked + total.skipped >= 10_000);
    // Creases are measure-zero sets: skipping must stay exceptional.
    assert!(
        total.skipped * 1000 <= total.checked,
        "{kind} {D}D: {} of {} points skipped",
        total.skipped,
        total.checked
    );
}

fn all_dims(kind: FractalKind) {
    check_kind::<1>(kind);
    check_kind::<2>(kind);
    check_kind::<3>(kind);
    check_kind::<4>(kind);
}

#[test]
fn fbm_gradient() {
    all_dims(FractalKind::Fbm);
}

#[test]
fn ridged_gradient() {
    all_dims(FractalKind::Ridged);
}

#[test]
fn billow_gradient() {
    all_dims(FractalKind::Billow);
}

#[test]
fn turbulence_gradient() {
    all_dims(FractalKind::Turbulence);
}

#[test]
fn hybrid_gradient() {
    all_dims(FractalKind::Hybrid);
}

#[test]
fn one_octave_is_the_base_noise() {
    for kind in NoiseKind::ALL {
        let n = Noise::<3>::new(kind, 77);
        let params = FractalParams {
            octaves: 1,
            ..FractalParams::new(FractalKind::Fbm)
        };
        let f = Fractal::new(n, params).unwrap();
        for p in points::<3>(5, 1000, 50.0) {
            let (a, b) = (f.sample(p), n.sample(p));
            assert_eq!(a.value.to_bits(), b.value.to_bits());
            for k in 0..3 {
                assert_eq!(a.gradient[k].to_bits(), b.gradient[k].to_bits());
            }
        }
    }
}
