//! Large and non-finite coordinates: no panic (these tests run with overflow
//! checks on), values in range, continuity where the precision allows it, NaN
//! for non-finite input, and the documented `f32` precision limit.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use surflet::{Float, Noise, NoiseKind};

fn each_noise<const D: usize>(mut f: impl FnMut(Noise<D>)) {
    for kind in NoiseKind::ALL {
        f(Noise::<D>::new(kind, 3));
    }
}

/// f64 stays correct up to |x| = 2^40: in range, and the analytic gradient
/// still matches a difference quotient taken at the local precision (ulp(2^40)
/// = 2^-12, so steps of 2^-9).
fn at_2_40<const D: usize>() {
    let mut rng = SmallRng::seed_from_u64(40);
    each_noise::<D>(|noise| {
        let mut worst = 0.0f64;
        for _ in 0..2000 {
            let p: [f64; D] = core::array::from_fn(|_| {
                let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
                sign * (2f64.powi(40) + rng.random_range(0.0..1000.0))
            });
            let s = noise.sample(p);
            assert!(
                s.value.abs() <= 1.0,
                "{} at {p:?}: {}",
                noise.kind(),
                s.value
            );
            let h = 2f64.powi(-9);
            for a in 0..D {
                let (mut lo, mut hi) = (p, p);
                lo[a] -= h;
                hi[a] += h;
                let fd = (noise.get(hi) - noise.get(lo)) / (2.0 * h);
                worst = worst.max((fd - s.gradient[a]).abs());
            }
        }
        println!(
            "{} {D}D at 2^40: worst |gradient - difference quotient| {worst:.2e}",
            noise.kind()
        );
        // Truncation error of a 2^-9 step, not a discontinuity (a jump of
        // even 1e-3 would show as 0.25 here).
        assert!(worst < 2e-3, "{} {D}D: {worst}", noise.kind());
    });
}

#[test]
fn f64_correct_up_to_2_pow_40() {
    at_2_40::<1>();
    at_2_40::<2>();
    at_2_40::<3>();
    at_2_40::<4>();
}

fn extremes<F: Float, const D: usize>(values: &[f64]) {
    each_noise::<D>(|noise| {
        for &v in values {
            // One huge axis, and every axis huge with both sign patterns:
            // the simplex skew sums the axes, and x + x or x + x − x − x must
            // not overflow a finite input into ∞ or NaN.
            let mut points = Vec::new();
            for axis in 0..D {
                let mut p = [F::from_f64(0.37); D];
                p[axis] = F::from_f64(v);
                points.push(p);
            }
            points.push([F::from_f64(v); D]);
            points.push(core::array::from_fn(|a| {
                F::from_f64(if a < D / 2 { v } else { -v })
            }));
            for &p in &points {
                let s = noise.sample(p);
                let finite_in = p.iter().all(|x| x.is_finite());
                if finite_in {
                    assert!(
                        s.value.to_f64().abs() <= 1.0 && s.gradient.iter().all(|g| g.is_finite()),
                        "{} {D}D {} at {p:?}: {s:?}",
                        noise.kind(),
                        F::NAME
                    );
                } else {
                    assert!(
                        s.value.is_nan() && s.gradient.iter().all(|g| g.is_nan()),
                        "{} {D}D {}: non-finite {p:?} gave {s:?}",
                        noise.kind(),
                        F::NAME
                    );
                }
                // And the batch path, on every backend, gives the same bits.
                let coords: Vec<Vec<F>> = (0..D).map(|a| vec![p[a]; 37]).collect();
                let refs: [&[F]; D] = core::array::from_fn(|a| coords[a].as_slice());
                for isa in surflet::Isa::available() {
                    let mut out = vec![F::ZERO; 37];
                    noise.fill_on(isa, refs, &mut out, None).unwrap();
                    for o in &out {
                        assert!(
                            o.to_f64().to_bits() == s.value.to_f64().to_bits()
                                || (o.is_nan() && s.value.is_nan()),
                            "{} {D}D {} {isa:?} at {p:?}: batch {o:?}, single {:?}",
                            noise.kind(),
                            F::NAME,
                            s.value
                        );
                    }
                }
            }
        }
    });
}

const EXTREMES: &[f64] = &[
    1e300,
    -1e300,
    f64::MAX,
    f64::MIN,
    f64::MIN_POSITIVE,
    -5e-324,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    2147483647.5,
    -2147483648.5,
    4294967296.0,
    1.07e9,
    9007199254740993.0,
    1e19,
    -1e30,
    3.4e38,
];

#[test]
fn extreme_inputs_never_panic_f64() {
    extremes::<f64, 1>(EXTREMES);
    extremes::<f64, 2>(EXTREMES);
    extremes::<f64, 3>(EXTREMES);
    extremes::<f64, 4>(EXTREMES);
}

#[test]
fn extreme_inputs_never_panic_f32() {
    // f64 values beyond f32 become ±inf when converted, which must give NaN.
    extremes::<f32, 1>(EXTREMES);
    extremes::<f32, 2>(EXTREMES);
    extremes::<f32, 3>(EXTREMES);
    extremes::<f32, 4>(EXTREMES);
}

/// The f32 precision curve that docs/RANGES.md states: the largest |f32 − f64|
/// at the same input, by magnitude. The in-cell fraction of an f32 near 2^k
/// has 23 − k bits, so the error grows with |x| until, at 2^24, f32 no longer
/// resolves the lattice at all (every f32 there is an even integer).
#[test]
fn f32_precision_by_magnitude() {
    let mut rng = SmallRng::seed_from_u64(24);
    for k in [10, 12, 14, 16, 18, 20, 22] {
        let mut worst = 0.0f64;
        for kind in NoiseKind::ALL {
            let n = Noise::<3>::new(kind, 5);
            for _ in 0..3000 {
                let p32: [f32; 3] =
                    core::array::from_fn(|_| (2f64.powi(k) * rng.random_range(0.5..1.0)) as f32);
                let a = n.get(p32) as f64;
                let b = n.get(p32.map(f64::from));
                worst = worst.max((a - b).abs());
            }
        }
        println!("|x| ~ 2^{k}: worst |f32 - f64| = {worst:.2e}");
        // At 2^12 (4096) and below, f32 agrees with f64 far inside 1e-4;
        // beyond, the error stays below what one ulp of the input itself
        // moves the value (|gradient| <= 10 times ulp = 2^(k-23)).
        let bound = if k <= 12 {
            1e-4
        } else {
            10.0 * 2f64.powi(k - 23)
        };
        assert!(worst <= bound, "2^{k}: {worst} > {bound}");
    }
}
