//! `f32` and `f64` evaluate the same function: for coordinates below 1000 in
//! magnitude, values agree to `VALUE` and gradients to `gradient_bound`
//! (absolute). docs/RANGES.md gives the measured figures these bounds sit
//! above.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use surflet::{Noise, NoiseKind};

// The worst |f32 − f64| is the tail of a distribution, and the tail grows
// with the sample: over 10^5, 10^7 and 10^8 uniform points, 2D simplex
// noise's gradient reached 5.2e-6, 5.8e-6 and 6.4e-6, and 3D OpenSimplex2's
// 1.0e-5, 1.5e-5 and 1.9e-5 (docs/RANGES.md). The property tests draw fresh
// points on every run, so a bound must sit above what 10^8 points reach, with
// room for the tail: twice that maximum, rounded up. A real precision fault
// (an f32 step that loses the fraction, say) costs 10^-4 or more.

/// In value: 10^8 points reach 2.6e-6 (3D OpenSimplex2), 2.1e-6 (4D value).
pub(crate) const VALUE: f64 = 5e-6;
/// In gradient, but for OpenSimplex2: 10^8 points reach 6.4e-6 (2D simplex),
/// 6.2e-6 (4D value noise, 5·10^7 points).
const GRADIENT: f64 = 1.3e-5;
/// OpenSimplex2's quartic surflets are scaled by about 100, and its 3D
/// lattice is turned, so its gradients round more: 10^8 points reach 1.9e-5
/// (3D), and 2·10^7 points 8.8e-6 (2D).
const GRADIENT_OPENSIMPLEX: f64 = 4e-5;

/// The bound on |f32 − f64| in gradient for `kind` at |x| < 1000.
pub(crate) fn gradient_bound(kind: NoiseKind) -> f64 {
    match kind {
        NoiseKind::OpenSimplex2 | NoiseKind::OpenSimplex2S => GRADIENT_OPENSIMPLEX,
        _ => GRADIENT,
    }
}

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
            let gradient = gradient_bound(kind);
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

/// Cellular noise in f32 and f64 at the same points. Its value (every
/// return but the cell value) is continuous, so it is compared everywhere.
/// Its gradient jumps on Voronoi borders (f1 = f2, and for f2 also where
/// the third point ties) and turns fast at a feature point (f1 = 0), where
/// one rounding can move the point across: the gradient is compared only
/// where f2 − f1 and f1 are at least 1e-3 of the range. The cell value is a
/// hashed constant per cell, so it must agree exactly away from borders.
fn cellular<const D: usize>() -> (f64, f64) {
    use surflet::{Cellular, CellularDistance, CellularReturn};
    let (mut wv, mut wg) = (0.0f64, 0.0f64);
    for d in CellularDistance::ALL {
        let make = |r, j| {
            Noise::<D>::new(NoiseKind::Cellular, 99)
                .with_cellular(Cellular::new(d, r, j).unwrap())
                .unwrap()
        };
        for j in [1.0, 0.5] {
            // Mapped to [−1, 1]: −1 is f2 = f1 (a border) and f1 = 0.
            let border = make(CellularReturn::F2MinusF1, j);
            let near = make(CellularReturn::F1, j);
            for r in CellularReturn::ALL {
                let noise = make(r, j);
                let mut rng = SmallRng::seed_from_u64(7);
                for _ in 0..5_000 {
                    let p32: [f32; D] =
                        core::array::from_fn(|_| rng.random_range(-1000.0..1000.0) as f32);
                    let p64 = p32.map(f64::from);
                    let smooth = border.get(p64) > -1.0 + 2e-3 && near.get(p64) > -1.0 + 2e-3;
                    let (a, b) = (noise.sample(p32), noise.sample(p64));
                    if r == CellularReturn::CellValue {
                        if smooth {
                            assert_eq!(a.value as f64, b.value, "{D}D {d} cell value at {p64:?}");
                        }
                        continue;
                    }
                    let dv = (a.value as f64 - b.value).abs();
                    assert!(
                        dv <= CELLULAR_VALUE,
                        "{D}D {d} {r} j={j} value {dv:e} at {p64:?}"
                    );
                    wv = wv.max(dv);
                    if smooth {
                        for k in 0..D {
                            let dg = (a.gradient[k] as f64 - b.gradient[k]).abs()
                                / b.gradient[k].abs().max(1.0);
                            assert!(
                                dg <= CELLULAR_GRADIENT,
                                "{D}D {d} {r} j={j} gradient {dg:e} at {p64:?}"
                            );
                            wg = wg.max(dg);
                        }
                    }
                }
            }
        }
    }
    println!("cellular {D}D: worst |f32 - f64| value {wv:.2e}, gradient {wg:.2e} (relative)");
    (wv, wg)
}

/// Measured by `cellular` (seed 99, 5 000 points per distance, return,
/// jitter 1 and ½, and dimension): at most 4.1e-7 in value (3D) and 1.15e-6
/// in gradient, relative to the gradient where it passes 1 (3D), as
/// docs/RANGES.md quotes. The distances are computed from exact in-cell
/// offsets, so cellular noise rounds less than the gradient noises.
const CELLULAR_VALUE: f64 = 5e-7;
const CELLULAR_GRADIENT: f64 = 1.5e-6;

#[test]
fn cellular_f32_matches_f64() {
    cellular::<1>();
    cellular::<2>();
    cellular::<3>();
    cellular::<4>();
}
