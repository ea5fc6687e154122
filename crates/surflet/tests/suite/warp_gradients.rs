//! Domain-warped fields carry the gradient through the warp by the chain rule:
//! the analytic gradient matches central differences (f64, 1e-6 absolute) for
//! single-step and progressive warps, by noises and by fractals, tiled and
//! not, in 1D–4D; and the value is exactly the field at the documented warped
//! point.
//!
//! Billow fields have creases where an octave's noise crosses zero; a point
//! is skipped (and counted) when such a crease of the field, at the warped
//! point, lies inside the finite-difference stencil.

use crate::fractal_common::{Tally, central, moved, points, reference, smooth_kinds};
use surflet::Field;
use surflet::{Fractal, FractalKind, FractalParams, Noise, NoiseKind, Warp, WarpKind, WarpParams};

const H: f64 = 1e-6;
const TOL: f64 = 1e-6;
const POINTS: usize = 1000;

fn warps<const D: usize>(kind: WarpKind) -> Vec<(String, Warp<D>)> {
    let mut out = Vec::new();
    for (k, noise) in smooth_kinds().into_iter().enumerate() {
        let field_kind = if k % 2 == 0 {
            FractalKind::Fbm
        } else {
            FractalKind::Billow
        };
        let field = Fractal::new(
            Noise::<D>::new(NoiseKind::ALL[(k + 2) % 4], 3 + k as u64),
            FractalParams {
                octaves: 3,
                ..FractalParams::new(field_kind)
            },
        )
        .unwrap();
        for octaves in [1, 3] {
            let mut params = WarpParams::new(kind);
            params.amplitude = 0.6;
            params.fractal.octaves = octaves;
            params.fractal.frequency = 0.9;
            // Normalised, so every displacement stays within the amplitude.
            // (Much stronger warps fold space so tightly that the third
            // derivative reaches 10^7 in places, and the truncation error of
            // the difference quotient, not the gradient, exceeds 1e-6.)
            params.fractal.normalize = true;
            // Turned warp octaves, in the 3-octave warps.
            params.fractal.rotation = if octaves == 3 { -1.3 } else { 0.0 };
            let w = Warp::new(field.clone(), Noise::new(noise, 11 + k as u64), params).unwrap();
            out.push((
                format!("{kind} {octaves}-octave {noise} warp of {field_kind}"),
                w,
            ));
        }
        // Tiled: field and warp noise periodic with the same tile (periods
        // 3 and 4 at frequency 1; even on y for 2D simplex noise), wherever
        // both noise kinds tile in this dimension (in 4D: a value-noise warp
        // of a Perlin field).
        let period: [u32; D] = core::array::from_fn(|a| [3, 4][a % 2]);
        let (Ok(field_noise), Ok(warp_noise)) = (
            Noise::<D>::new(NoiseKind::ALL[(k + 1) % 4], 5 + k as u64).with_period(period),
            Noise::<D>::new(noise, 13 + k as u64).with_period(period),
        ) else {
            continue;
        };
        let field = Fractal::new(
            field_noise,
            FractalParams {
                octaves: 3,
                ..FractalParams::new(field_kind)
            },
        )
        .unwrap();
        let mut params = WarpParams::new(kind);
        params.amplitude = 0.6;
        params.fractal.octaves = 2;
        params.fractal.normalize = true;
        let w = Warp::new(field.clone(), warp_noise, params).unwrap();
        assert_eq!(field.tile(), Some(period.map(f64::from)));
        assert!(w.components().iter().all(|c| c.tile() == field.tile()));
        out.push((
            format!("tiled {kind} 2-octave {noise} warp of {field_kind}"),
            w,
        ));
    }
    out
}

fn check<const D: usize>(kind: WarpKind) {
    let (mut checked, mut skipped) = (0, 0);
    for (i, (name, w)) in warps::<D>(kind).into_iter().enumerate() {
        let mut tally = Tally::default();
        for p in points::<D>(i as u64, POINTS, 10.0) {
            let s = w.sample(p);
            let q = w.warp_point(p);
            assert_eq!(
                s.value,
                w.field().get(q),
                "{name}: value is not field(warp(p))"
            );
            let state = reference(w.field(), q).state;
            let crease = (0..D).any(|a| {
                [-H, H]
                    .iter()
                    .any(|&t| reference(w.field(), w.warp_point(moved(p, a, t))).state != state)
            });
            if crease {
                tally.skipped += 1;
                continue;
            }
            for a in 0..D {
                // Richardson's extrapolation of two central differences:
                // the warps of OpenSimplex2's steep quartic surflets have
                // third derivatives near 10^7, so a plain quotient's H²
                // truncation error alone reaches 1.8e-6 (it shrinks exactly
                // as H² there); this one's is O(H⁴).
                let fd = (4.0 * central(|x| w.get(x), p, a, H / 2.0)
                    - central(|x| w.get(x), p, a, H))
                    / 3.0;
                let err = (fd - s.gradient[a]).abs();
                tally.record(err);
                assert!(
                    err <= TOL,
                    "{name} {D}D at {p:?}: d/dx{a} analytic {} vs central {fd}",
                    s.gradient[a]
                );
            }
        }
        println!(
            "{name:>52} {D}D: {} points, {} skipped, worst {:.2e}",
            POINTS - tally.skipped,
            tally.skipped,
            tally.worst
        );
        checked += POINTS - tally.skipped;
        skipped += tally.skipped;
    }
    assert!(skipped * 1000 <= checked, "{skipped} of {checked} skipped");
}

#[test]
fn single_warp_gradient() {
    check::<1>(WarpKind::Single);
    check::<2>(WarpKind::Single);
    check::<3>(WarpKind::Single);
    check::<4>(WarpKind::Single);
}

#[test]
fn progressive_warp_gradient() {
    check::<1>(WarpKind::Progressive);
    check::<2>(WarpKind::Progressive);
    check::<3>(WarpKind::Progressive);
    check::<4>(WarpKind::Progressive);
}

#[test]
fn progressive_uses_the_single_warp_octaves_in_sequence() {
    // A one-octave progressive warp is the single-step warp.
    let field = Fractal::new(
        Noise::<2>::new(NoiseKind::Simplex, 1),
        FractalParams::new(FractalKind::Fbm),
    )
    .unwrap();
    let single = Warp::new(
        field.clone(),
        Noise::new(NoiseKind::Perlin, 2),
        WarpParams::new(WarpKind::Single),
    )
    .unwrap();
    let progressive = Warp::new(
        field.clone(),
        Noise::new(NoiseKind::Perlin, 2),
        WarpParams::new(WarpKind::Progressive),
    )
    .unwrap();
    for p in points::<2>(3, 100, 10.0) {
        assert_eq!(single.sample(p), progressive.sample(p));
    }
    // With three octaves, each step displaces by one octave of each
    // component, evaluated where the previous steps left the point.
    let mut params = WarpParams::new(WarpKind::Progressive);
    params.fractal.octaves = 3;
    params.amplitude = 0.5;
    let w = Warp::new(field, Noise::new(NoiseKind::Value, 2), params).unwrap();
    let comps = w.components();
    let norm = comps[0].normalization();
    for p in points::<2>(4, 100, 10.0) {
        let mut q = p;
        for i in 0..3 {
            let d: Vec<f64> = comps
                .iter()
                .map(|c| {
                    let o = c.octaves().nth(i).unwrap();
                    let x = [
                        q[0] * o.frequency + o.offset[0],
                        q[1] * o.frequency + o.offset[1],
                    ];
                    o.noise.get(x) * (0.5 * norm * o.amplitude)
                })
                .collect();
            q = [q[0] + d[0], q[1] + d[1]];
        }
        assert_eq!(w.warp_point(p), q);
    }
}

#[test]
fn warp_errors() {
    let field = Fractal::new(
        Noise::<2>::new(NoiseKind::Simplex, 1),
        FractalParams::new(FractalKind::Fbm),
    )
    .unwrap();
    let mut params = WarpParams::new(WarpKind::Progressive);
    params.fractal.kind = FractalKind::Ridged;
    let e = Warp::new(field.clone(), Noise::new(NoiseKind::Value, 2), params).unwrap_err();
    assert!(matches!(e, surflet::Error::Parameter { ref name, .. } if name == "fractal.kind"));
    let mut params = WarpParams::new(WarpKind::Single);
    params.amplitude = f64::NAN;
    let e = Warp::new(field, Noise::new(NoiseKind::Value, 2), params).unwrap_err();
    assert!(matches!(e, surflet::Error::Parameter { ref name, .. } if name == "amplitude"));
}
