//! Large and non-finite coordinates: no panic (these tests run with overflow
//! checks on), values in range, continuity where the precision allows it, NaN
//! for non-finite input, and the documented `f32` precision limit.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use surflet::Field;
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
            // A 2^-9 step often straddles a crease of cellular noise (a
            // Voronoi border): its value and range are checked, not this.
            let creased = noise.kind() == NoiseKind::Cellular;
            for a in (0..D).filter(|_| !creased) {
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
/// at the same input, by magnitude 2^k, for value and gradient. The in-cell
/// fraction of an f32 near 2^k has 23 − k bits, but cells and fractions are
/// split exactly, so where the lattice is the integer grid of the input
/// (value and Perlin noise, simplex noise in 1D and 3D) only the arithmetic
/// on the fraction rounds, and the agreement stays near 10⁻⁶ up to 2^22.
/// 2D and 4D simplex noise skew by an irrational factor: `mul_split` keeps
/// that skew to about 2^-12 of an ulp of the cell sum, which grows with |x|,
/// so their error grows in proportion to |x| (about 2^(k−35), still far below
/// what one ulp of the input itself moves the value).
fn f32_agreement<const D: usize>(k: i32, rng: &mut SmallRng) -> [(f64, f64); 3] {
    // [lattice-aligned kinds, skewed kinds, OpenSimplex2 and 2S]: (worst
    // value, worst gradient). OpenSimplex2's lattices are skewed or turned
    // in every dimension, and its quartic surflets, scaled by 100 or so,
    // have steeper gradients than simplex noise's.
    let mut worst = [(0.0f64, 0.0f64); 3];
    // Cellular noise's gradient is ill-conditioned near its feature points
    // and creased on its borders; its precision is not this table's.
    for kind in NoiseKind::ALL
        .into_iter()
        .filter(|&k| k != NoiseKind::Cellular)
    {
        let skewed =
            matches!(kind, NoiseKind::Simplex | NoiseKind::SimplexValue) && (D == 2 || D == 4);
        let open = matches!(kind, NoiseKind::OpenSimplex2 | NoiseKind::OpenSimplex2S);
        let n = Noise::<D>::new(kind, 5);
        let w = &mut worst[if open { 2 } else { skewed as usize }];
        for _ in 0..3000 {
            let p32: [f32; D] = core::array::from_fn(|_| {
                let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
                (sign * 2f64.powi(k) * rng.random_range(0.5..1.0)) as f32
            });
            let a = n.sample(p32);
            let b = n.sample(p32.map(f64::from));
            w.0 = w.0.max((a.value as f64 - b.value).abs());
            for i in 0..D {
                w.1 = w.1.max((a.gradient[i] as f64 - b.gradient[i]).abs());
            }
        }
    }
    worst
}

#[test]
fn f32_precision_by_magnitude() {
    let mut rng = SmallRng::seed_from_u64(24);
    for k in [10, 12, 14, 16, 18, 20, 22] {
        let per_dim = [
            f32_agreement::<1>(k, &mut rng),
            f32_agreement::<2>(k, &mut rng),
            f32_agreement::<3>(k, &mut rng),
            f32_agreement::<4>(k, &mut rng),
        ];
        let aligned = per_dim
            .iter()
            .fold((0.0f64, 0.0f64), |w, d| (w.0.max(d[0].0), w.1.max(d[0].1)));
        let (s2, s4) = (per_dim[1][1], per_dim[3][1]);
        let open = per_dim
            .iter()
            .fold((0.0f64, 0.0f64), |w, d| (w.0.max(d[2].0), w.1.max(d[2].1)));
        println!(
            "|x| ~ 2^{k}: OpenSimplex2 and 2S, 1D-4D: {:.2e} / {:.2e}",
            open.0, open.1
        );
        println!(
            "|x| ~ 2^{k}: worst |f32 - f64| value / gradient: value, Perlin, simplex 1D 3D \
             {:.2e} / {:.2e}; simplex 2D {:.2e} / {:.2e}; simplex 4D {:.2e} / {:.2e}",
            aligned.0, aligned.1, s2.0, s2.1, s4.0, s4.1
        );
        // Measured (seed 24, 3000 points per kind, dimension and k): at most
        // 1.3e-6 in value and 4.1e-6 in gradient for the aligned kinds, at
        // every k; for the skewed ones up to 1.0·2^(k−35) in value and
        // 5.6·2^(k−35) in gradient (1.3e-4 and 6.9e-4 at 2^22).
        assert!(aligned.0 <= 2e-6, "2^{k}: value {}", aligned.0);
        assert!(aligned.1 <= 5e-6, "2^{k}: gradient {}", aligned.1);
        let growth = 2f64.powi(k - 35);
        for (d, w) in [(2, s2), (4, s4)] {
            let (bv, bg) = (2e-6 + 2.0 * growth, 5e-6 + 8.0 * growth);
            assert!(w.0 <= bv, "simplex {d}D at 2^{k}: value {} > {bv}", w.0);
            assert!(w.1 <= bg, "simplex {d}D at 2^{k}: gradient {} > {bg}", w.1);
        }
        // OpenSimplex2 and 2S grow like the skewed kinds (measured: 9.9e-7
        // and 6.7e-6 at 2^10; 1.47·2^(k−35) and 8.8·2^(k−35) at 2^22).
        let (bv, bg) = (2e-6 + 2.0 * growth, 1e-5 + 12.0 * growth);
        assert!(
            open.0 <= bv,
            "OpenSimplex2 at 2^{k}: value {} > {bv}",
            open.0
        );
        assert!(
            open.1 <= bg,
            "OpenSimplex2 at 2^{k}: gradient {} > {bg}",
            open.1
        );
    }
}

/// The lattice repeats every 2^32 cells: `Simd::cell` reduces every cell
/// modulo 2^32 by exact float arithmetic (see `Noise`'s "No repetition"), so
/// where the lattice's cells are the input's integer cells, shifting any axis
/// by a multiple of 2^32 gives the same bits, value and gradient, in `f64`.
///
/// That holds for value and Perlin noise in 1D–4D, and for simplex and
/// simplex value noise in 1D (the integer lattice) and 3D (the axis-aligned
/// body-centred cubic lattice, where `(y + z, x + z, x + y)` shifts by whole
/// multiples of 2^32). It is not claimed for 2D and 4D simplex noise: their
/// lattices are skewed by the irrational `(√3 − 1)/2` and `(√5 − 1)/4`, so an
/// axis shift of 2^32 is not a lattice vector there.
fn wraps_at_2_32<const D: usize>(kind: NoiseKind) -> usize {
    let noise = Noise::<D>::new(kind, 0xC311);
    let mut rng = SmallRng::seed_from_u64(32 + D as u64);
    let two32 = 2f64.powi(32);
    let mut differ = [0usize; 2];
    let n = 400;
    for _ in 0..n {
        // Multiples of 2^-18 below 1000: p + k·2^32 (|k| ≤ 3) needs at most
        // 34 + 18 = 52 significant bits, so every shift below is exact.
        let p: [f64; D] = core::array::from_fn(|_| {
            rng.random_range(-(1000i64 << 18)..(1000 << 18)) as f64 / 262144.0
        });
        let s = noise.sample(p);
        let same = |q: [f64; D]| {
            let t = noise.sample(q);
            t.value.to_bits() == s.value.to_bits()
                && (0..D).all(|a| t.gradient[a].to_bits() == s.gradient[a].to_bits())
        };
        for k in [-3i64, -2, -1, 1, 2, 3] {
            for axis in 0..D {
                let mut q = p;
                q[axis] += k as f64 * two32;
                assert_eq!(q[axis] - k as f64 * two32, p[axis], "shift not exact");
                assert!(
                    same(q),
                    "{kind} {D}D: f({p:?}) = {s:?} but f(p + {k}·2^32 e{axis}) = {:?}",
                    noise.sample(q)
                );
            }
            // Every axis at once, in alternating directions.
            let q: [f64; D] =
                core::array::from_fn(|a| p[a] + (if a % 2 == 0 { k } else { -k }) as f64 * two32);
            assert!(
                same(q),
                "{kind} {D}D: all axes shifted by ±{k}·2^32 at {p:?}"
            );
        }
        // Shorter shifts move to unrelated cells: 2^30 for every kind, and
        // 2^31 for all but 3D simplex noise. There an axis shift of 2^31
        // moves two of the BCC cell coordinates (y + z, x + z, x + y) by 2^31
        // each; each primed term changes by exactly 2^31, its top bit, and
        // the two flips cancel in the xor, so 3D simplex noise repeats every
        // 2^31 along each axis.
        let mut q = p;
        q[0] += two32 / 4.0;
        if !same(q) {
            differ[0] += 1;
        }
        let mut q = p;
        q[0] += two32 / 2.0;
        if !same(q) {
            differ[1] += 1;
        }
    }
    let bcc = D == 3 && matches!(kind, NoiseKind::Simplex | NoiseKind::SimplexValue);
    // (Measured: 3D simplex and simplex value noise keep 53 and 44 of 400
    // points at 2^30, where the changes of the two shifted terms happen to
    // cancel in the xor as well; every other case changes all 400.)
    println!(
        "{kind} {D}D: changed by a shift of 2^30: {} of {n}; of 2^31: {}",
        differ[0], differ[1]
    );
    assert!(
        differ[0] * 4 >= n * 3,
        "{kind} {D}D: a shift of 2^30 changed only {} of {n} points",
        differ[0]
    );
    if bcc {
        assert_eq!(differ[1], 0, "{kind} {D}D: the BCC lattice repeats at 2^31");
    } else {
        assert!(
            differ[1] * 10 >= n * 9,
            "{kind} {D}D: a shift of 2^31 changed only {} of {n} points",
            differ[1]
        );
    }
    n
}

#[test]
fn lattice_wraps_modulo_2_pow_32() {
    for kind in [NoiseKind::Value, NoiseKind::Perlin] {
        wraps_at_2_32::<1>(kind);
        wraps_at_2_32::<2>(kind);
        wraps_at_2_32::<3>(kind);
        wraps_at_2_32::<4>(kind);
    }
    for kind in [NoiseKind::Simplex, NoiseKind::SimplexValue] {
        wraps_at_2_32::<1>(kind);
        wraps_at_2_32::<3>(kind);
    }
}
