//! OpenSimplex2 and OpenSimplex2S in the family: continuous where the Java
//! is not, and related to the Java as documented.
//!
//! The shared family tests (`family_*`, `grid`, `properties`) cover their
//! range, gradients, seeds, precision and instruction sets with the other
//! kinds; this file holds what is particular to them.

use surflet::reference::{opensimplex2, opensimplex2s};
use surflet::{Noise, NoiseKind};

/// SplitMix64 in [0, 1).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The largest jump of `f` along random segments: each segment is scanned
/// in 4096 steps, the step that departs most from a straight line is
/// bisected 40 times (keeping the half with the larger change), and the
/// change over the final ~1e-13 interval is the jump. A continuous function
/// gives ~0 there; a discontinuity keeps its full height however far the
/// bisection goes.
fn largest_jump<const D: usize>(f: impl Fn([f64; D]) -> f64, seed: u64, segments: usize) -> f64 {
    let mut rng = Rng(seed);
    let mut worst = 0.0f64;
    for _ in 0..segments {
        let a: [f64; D] = core::array::from_fn(|_| (rng.next() - 0.5) * 200.0);
        let dir: [f64; D] = core::array::from_fn(|_| rng.next() - 0.5);
        let at = |t: f64| -> [f64; D] { core::array::from_fn(|i| a[i] + t * dir[i]) };
        let n = 4096;
        let h = 4.0 / n as f64;
        let vals: Vec<f64> = (0..=n).map(|i| f(at(i as f64 * h))).collect();
        let mut best = (0.0, 0usize);
        for i in 1..n {
            // Second difference: large at a kink or a jump, ~h² elsewhere.
            let dev = (vals[i + 1] - 2.0 * vals[i] + vals[i - 1]).abs();
            if dev > best.0 {
                best = (dev, i);
            }
        }
        for start in [best.1 - 1, best.1] {
            let (mut lo, mut hi) = (start as f64 * h, (start + 1) as f64 * h);
            for _ in 0..40 {
                let mid = 0.5 * (lo + hi);
                let (fl, fm, fh) = (f(at(lo)), f(at(mid)), f(at(hi)));
                if (fm - fl).abs() >= (fh - fm).abs() {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            worst = worst.max((f(at(hi)) - f(at(lo))).abs());
        }
    }
    worst
}

#[test]
fn the_scan_finds_the_javas_jumps() {
    // The test below would be empty if the scan could not see a jump: the
    // Java's 3D functions have jumps of about 4e-3 (OpenSimplex2) and 1.7e-3
    // (OpenSimplex2S).
    let j2 = largest_jump(
        |p: [f64; 3]| f64::from(opensimplex2::noise3_improve_xy(3, p[0], p[1], p[2])),
        1,
        400,
    );
    let j2s = largest_jump(
        |p: [f64; 3]| f64::from(opensimplex2s::noise3_improve_xy(3, p[0], p[1], p[2])),
        1,
        400,
    );
    println!("Java jumps: OpenSimplex2 3D {j2:.2e}, OpenSimplex2S 3D {j2s:.2e}");
    assert!(j2 > 1e-3, "{j2}");
    assert!(j2s > 3e-4, "{j2s}");
}

fn family_jump<const D: usize>(kind: NoiseKind) -> f64 {
    let n = Noise::<D>::new(kind, 3);
    largest_jump(|p: [f64; D]| n.get(p), 1, 400)
}

#[test]
fn the_family_versions_are_continuous() {
    for kind in [NoiseKind::OpenSimplex2, NoiseKind::OpenSimplex2S] {
        let jumps = [
            family_jump::<2>(kind),
            family_jump::<3>(kind),
            family_jump::<4>(kind),
        ];
        println!("{kind}: largest jump 2D–4D {jumps:?}");
        for j in jumps {
            // The scan ends on intervals of ~1e-13, where a continuous
            // function with gradient below 100 changes by 1e-11.
            assert!(j < 1e-9, "{kind}: {jumps:?}");
        }
    }
}

#[test]
fn gradients_are_continuous_too() {
    // C¹ (indeed C³): the quartic falloff vanishes with three derivatives at
    // the radius, and the radius never reaches a point that is not summed.
    for kind in [NoiseKind::OpenSimplex2, NoiseKind::OpenSimplex2S] {
        for axis in 0..3 {
            let n = Noise::<3>::new(kind, 9);
            let j = largest_jump(|p: [f64; 3]| n.sample(p).gradient[axis], 5, 200);
            assert!(j < 1e-8, "{kind} ∂/∂{axis}: {j}");
        }
    }
}

#[test]
fn one_d_is_the_x_axis_of_two_d() {
    for kind in [NoiseKind::OpenSimplex2, NoiseKind::OpenSimplex2S] {
        let n1 = Noise::<1>::new(kind, 11);
        let n2 = Noise::<2>::new(kind, 11);
        for i in 0..1000 {
            let x = (i as f64 - 500.0) * 0.0371;
            let a = n1.sample([x]);
            let b = n2.sample([x, 0.0]);
            assert_eq!(a.value, b.value);
            assert_eq!(a.gradient[0], b.gradient[0]);
        }
    }
}

#[test]
fn they_have_no_period() {
    for kind in [NoiseKind::OpenSimplex2, NoiseKind::OpenSimplex2S] {
        let e = Noise::<2>::new(kind, 1).with_period([8, 8]).unwrap_err();
        assert!(e.to_string().contains(kind.name()), "{e}");
    }
}

#[test]
fn the_two_noises_and_simplex_differ() {
    // Same seed, different noises: not the same field by accident.
    let p = [0.3f64, 1.7, -2.2];
    let a = Noise::<3>::new(NoiseKind::OpenSimplex2, 5).get(p);
    let b = Noise::<3>::new(NoiseKind::OpenSimplex2S, 5).get(p);
    let c = Noise::<3>::new(NoiseKind::Simplex, 5).get(p);
    assert!(a != b && b != c && a != c);
}
