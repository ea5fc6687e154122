//! Every SIMD backend returns exactly the bits of the scalar path, for every
//! noise, dimension, precision and periodicity, on ordinary, huge and
//! non-finite inputs.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use surflet::Field;
use surflet::{Float, Isa, Noise, NoiseKind};

fn points<F: Float>(rng: &mut SmallRng, n: usize) -> Vec<F> {
    let special = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        255.5,
        1e-9,
        -1e-9,
        65536.0,
        2147483647.5,
        2147483648.0,
        -2147483649.0,
        4294967296.25,
        1e10,
        -1e10,
        1e15,
        1e19,
        -1e30,
        1e300,
    ];
    (0..n)
        .map(|i| {
            let v = match i % 10 {
                0 => special[(i / 10) % special.len()],
                1 => rng.random_range(-1e6..1e6),
                _ => rng.random_range(-300.0..300.0),
            };
            F::from_f64(v)
        })
        .collect()
}

fn same<F: Float>(a: F, b: F) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_f64().to_bits() == b.to_f64().to_bits()
}

fn check<F: Float, const D: usize>(noise: Noise<D>, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    // 333 is not a multiple of any lane count, so the padded tail is covered.
    let n = 333;
    let coords: Vec<Vec<F>> = (0..D).map(|_| points(&mut rng, n)).collect();
    agree(noise, &coords);
}

/// Runs of points a small step apart, as grid rows and nearby points are:
/// the lanes of a vector then share cells, which is what kernels that share
/// work between lanes (2D simplex's corner table) look for. Each run starts
/// at an ordinary or a huge origin and walks along x, along y or
/// diagonally, forwards or backwards, with steps from 1e-4 to 1/4 of a cell.
fn clustered<F: Float, const D: usize>(seed: u64) -> Vec<Vec<F>> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let origins = [2147483648.0, -2147483648.0, 4294967296.0, -1e15, 1e6];
    let steps = [1e-4, 1e-3, 0.01, 0.03, 0.0625, 0.1, 0.25];
    let mut coords = vec![Vec::new(); D];
    for run in 0..60 {
        let origin: [f64; D] = core::array::from_fn(|_| match run % 4 {
            0 => origins[rng.random_range(0..origins.len())],
            _ => rng.random_range(-300.0..300.0),
        });
        let step = steps[run % steps.len()] * if run % 2 == 0 { 1.0 } else { -1.0 };
        let direction: [f64; D] = core::array::from_fn(|a| match (run / 2) % 3 {
            0 => f64::from(a == 0),
            1 => f64::from(a == 1),
            _ => 1.0,
        });
        // 40 points: several vectors and a padded tail on every backend.
        for k in 0..40 {
            for a in 0..D {
                coords[a].push(F::from_f64(origin[a] + direction[a] * step * k as f64));
            }
        }
    }
    coords
}

/// Every backend's batch call, with and without the gradient, gives the
/// scalar path's bits at `coords`.
fn agree<F: Float, const D: usize>(noise: Noise<D>, coords: &[Vec<F>]) {
    let n = coords[0].len();
    let refs: [&[F]; D] = core::array::from_fn(|a| coords[a].as_slice());
    for isa in Isa::available() {
        let mut out = vec![F::ZERO; n];
        let mut grad: Vec<Vec<F>> = vec![vec![F::ZERO; n]; D];
        {
            let g: [&mut [F]; D] = {
                let mut it = grad.iter_mut();
                core::array::from_fn(|_| it.next().unwrap().as_mut_slice())
            };
            noise.fill_on(isa, refs, &mut out, Some(g)).unwrap();
        }
        let mut plain = vec![F::ZERO; n];
        noise.fill_on(isa, refs, &mut plain, None).unwrap();
        for i in 0..n {
            let p: [F; D] = core::array::from_fn(|a| coords[a][i]);
            let s = noise.sample(p);
            let ok = same(s.value, out[i])
                && same(s.value, plain[i])
                && same(noise.get(p), plain[i])
                && (0..D).all(|a| same(s.gradient[a], grad[a][i]));
            assert!(
                ok,
                "{:?} {}D {} on {}: point {:?}: scalar {:?} vs batch {:?} / {:?}, grad {:?} vs {:?}",
                noise.kind(),
                D,
                F::NAME,
                isa.name(),
                p,
                s.value,
                out[i],
                plain[i],
                s.gradient,
                (0..D).map(|a| grad[a][i]).collect::<Vec<_>>()
            );
        }
    }
}

fn all_kinds<F: Float, const D: usize>(period: [u32; D]) {
    for kind in NoiseKind::ALL {
        let n = Noise::<D>::new(kind, 0xC0FFEE);
        check::<F, D>(n, 1);
        if let Ok(p) = n.with_period(period) {
            check::<F, D>(p, 2);
        }
    }
}

#[test]
fn backends_bit_identical_f32() {
    all_kinds::<f32, 1>([7]);
    all_kinds::<f32, 2>([5, 6]);
    all_kinds::<f32, 3>([3, 9, 65536]);
    all_kinds::<f32, 4>([1, 2, 3, 4]);
}

#[test]
fn backends_bit_identical_f64() {
    all_kinds::<f64, 1>([7]);
    all_kinds::<f64, 2>([5, 6]);
    all_kinds::<f64, 3>([3, 9, 65536]);
    all_kinds::<f64, 4>([1, 2, 3, 4]);
}

#[test]
fn backends_bit_identical_on_clustered_points() {
    for kind in NoiseKind::ALL {
        agree::<f32, 2>(Noise::new(kind, 0xC0FFEE), &clustered::<f32, 2>(3));
        agree::<f64, 2>(Noise::new(kind, 7), &clustered::<f64, 2>(4));
        agree::<f32, 3>(Noise::new(kind, 0xC0FFEE), &clustered::<f32, 3>(5));
    }
}

#[test]
fn reports_available_backends() {
    // Not an assertion about the machine, but the log shows what was covered.
    println!("backends tested: {:?}", Isa::available());
    assert!(Isa::available().contains(&Isa::Scalar));
}
