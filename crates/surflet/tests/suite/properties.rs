//! Property tests (proptest): for arbitrary noise, seed, period and point,
//! including huge and tiny coordinates, the library keeps its promises.

use proptest::prelude::*;
use surflet::Field;
use surflet::{Isa, Noise, NoiseKind};

fn kind() -> impl Strategy<Value = NoiseKind> {
    prop::sample::select(NoiseKind::ALL.to_vec())
}

/// The kinds whose gradient is continuous (`fractal_common::smooth_kinds`):
/// the derivative properties hold for these everywhere, for cellular noise
/// only off its creases (checked in `cellular.rs`).
fn smooth_kind() -> impl Strategy<Value = NoiseKind> {
    prop::sample::select(crate::fractal_common::smooth_kinds())
}

/// The kinds that tile in 3D.
fn tiling_kind() -> impl Strategy<Value = NoiseKind> {
    prop::sample::select(
        NoiseKind::ALL
            .into_iter()
            .filter(|k| k.periodic_dims().contains(&3))
            .collect::<Vec<_>>(),
    )
}

/// Ordinary coordinates, with occasional huge and tiny magnitudes.
fn coord() -> impl Strategy<Value = f64> {
    prop_oneof![
        8 => -1000.0f64..1000.0,
        1 => -1e12f64..1e12,
        1 => -1e-6f64..1e-6,
    ]
}

fn point<const D: usize>() -> impl Strategy<Value = [f64; D]> {
    prop::array::uniform(coord())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Same input, same bits: repeated calls, and the batch path on every
    /// backend, agree with the single-point path.
    #[test]
    fn deterministic(kind in kind(), seed in any::<u64>(), p in point::<3>()) {
        let n = Noise::<3>::new(kind, seed);
        let a = n.sample(p);
        prop_assert_eq!(a, n.sample(p));
        for isa in Isa::available() {
            let mut out = [0.0f64; 1];
            n.fill_on(isa, [&[p[0]], &[p[1]], &[p[2]]], &mut out, None).unwrap();
            prop_assert_eq!(out[0].to_bits(), a.value.to_bits());
        }
    }

    /// In range, whatever the point.
    #[test]
    fn in_range(kind in kind(), seed in any::<u64>(), p in point::<4>()) {
        let v = Noise::<4>::new(kind, seed).get(p);
        prop_assert!(v.abs() <= 1.0, "{} at {:?}: {}", kind, p, v);
    }

    /// Continuity: a step of 1e-7 changes the value by no more than the
    /// gradient predicts (plus second-order slack). Restricted to moderate
    /// coordinates, where 1e-7 is representable.
    #[test]
    fn continuous(
        kind in smooth_kind(),
        seed in any::<u64>(),
        p in prop::array::uniform2(-1000.0f64..1000.0),
        dir in prop::array::uniform2(-1.0f64..1.0),
    ) {
        let n = Noise::<2>::new(kind, seed);
        let h = 1e-7;
        let q = [p[0] + h * dir[0], p[1] + h * dir[1]];
        let (a, b) = (n.sample(p), n.sample(q));
        let predicted = a.gradient[0] * (q[0] - p[0]) + a.gradient[1] * (q[1] - p[1]);
        prop_assert!((b.value - a.value - predicted).abs() < 1e-9);
    }

    /// Periodic noise repeats exactly under any whole number of periods.
    #[test]
    fn periodic(
        kind in tiling_kind(),
        seed in any::<u64>(),
        px in 1u32..=64, py_half in 1u32..=32, pz in 1u32..=64,
        cells in prop::array::uniform3(-100_000i64..100_000),
        k in prop::array::uniform3(-5i64..=5),
    ) {
        let period = [px, 2 * py_half, pz];
        let n = Noise::<3>::new(kind, seed).with_period(period).unwrap();
        // Multiples of 1/64 below 2^22: exact, and so is every shift.
        let p: [f64; 3] = core::array::from_fn(|a| cells[a] as f64 / 64.0);
        let q: [f64; 3] = core::array::from_fn(|a| p[a] + (k[a] * period[a] as i64) as f64);
        prop_assert_eq!(n.sample(p), n.sample(q));
    }

    /// The gradient is the derivative of the value.
    #[test]
    fn gradient_is_the_derivative(kind in smooth_kind(), seed in any::<u64>(), p in prop::array::uniform3(-500.0f64..500.0)) {
        let n = Noise::<3>::new(kind, seed);
        let s = n.sample(p);
        for a in 0..3 {
            let (mut lo, mut hi) = (p, p);
            lo[a] -= 1e-6;
            hi[a] += 1e-6;
            let fd = (n.get(hi) - n.get(lo)) / (hi[a] - lo[a]);
            prop_assert!((fd - s.gradient[a]).abs() < 1e-6, "axis {}: {} vs {}", a, s.gradient[a], fd);
        }
    }

    /// f32 follows f64 at moderate coordinates, to within the bounds that
    /// `family_precision` asserts (twice what 10^8 points reach; why there).
    #[test]
    fn f32_follows_f64(kind in smooth_kind(), seed in any::<u64>(), p in prop::array::uniform2(-1000.0f32..1000.0)) {
        let n = Noise::<2>::new(kind, seed);
        let a = n.sample(p);
        let b = n.sample(p.map(f64::from));
        let (value, gradient) = (crate::family_precision::VALUE, crate::family_precision::gradient_bound(kind));
        prop_assert!((a.value as f64 - b.value).abs() <= value, "value {} vs {}", a.value, b.value);
        for k in 0..2 {
            let (ga, gb) = (a.gradient[k] as f64, b.gradient[k]);
            prop_assert!((ga - gb).abs() <= gradient, "gradient {} vs {}", ga, gb);
        }
    }
}
