//! Fractals, warps, compiled stacks and curl noise return the same bits from
//! single-point calls and from batches on every available instruction set,
//! for every fractal kind, noise kind, dimension and precision, on ordinary,
//! huge and non-finite inputs.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use surflet::{
    Curl, Field, Float, Fractal, FractalDesc, FractalKind, FractalParams, Isa, Noise, NoiseKind,
    Sample, Stack, Warp, WarpDesc, WarpKind, WarpParams,
};

const N: usize = 333; // not a multiple of any lane count: the padded tail is covered

fn points<F: Float>(rng: &mut SmallRng, n: usize) -> Vec<F> {
    let special = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        255.5,
        1e-9,
        65536.0,
        2147483647.5,
        -2147483649.0,
        4294967296.25,
        1e10,
        -1e15,
        1e19,
        1e300,
        f64::NAN,
        f64::INFINITY,
    ];
    (0..n)
        .map(|i| {
            let v = match i % 10 {
                0 => special[(i / 10) % special.len()],
                1 => rng.random_range(-1e5..1e5),
                _ => rng.random_range(-30.0..30.0),
            };
            F::from_f64(v)
        })
        .collect()
}

fn same<F: Float>(a: F, b: F) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_f64().to_bits() == b.to_f64().to_bits()
}

fn check<F: Float, const D: usize>(what: &str, field: &impl Field<D>, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let coords: Vec<Vec<F>> = (0..D).map(|_| points(&mut rng, N)).collect();
    let refs: [&[F]; D] = core::array::from_fn(|a| coords[a].as_slice());
    let singles: Vec<Sample<F, D>> = (0..N)
        .map(|i| field.sample(core::array::from_fn(|a| coords[a][i])))
        .collect();
    for (i, s) in singles.iter().enumerate() {
        let p: [F; D] = core::array::from_fn(|a| coords[a][i]);
        assert!(
            same(s.value, field.get(p)),
            "{what}: get != sample at {p:?}"
        );
    }
    for isa in Isa::available() {
        let mut out = vec![F::ZERO; N];
        let mut grad: Vec<Vec<F>> = vec![vec![F::ZERO; N]; D];
        {
            let mut it = grad.iter_mut();
            let g: [&mut [F]; D] = core::array::from_fn(|_| it.next().unwrap().as_mut_slice());
            field.fill_on(isa, refs, &mut out, Some(g)).unwrap();
        }
        let mut plain = vec![F::ZERO; N];
        field.fill_on(isa, refs, &mut plain, None).unwrap();
        for (i, s) in singles.iter().enumerate() {
            let ok = same(s.value, out[i])
                && same(s.value, plain[i])
                && (0..D).all(|a| same(s.gradient[a], grad[a][i]));
            assert!(
                ok,
                "{what} {}D {} on {}: point {:?}: single {:?} {:?} vs batch {:?} / {:?}, {:?}",
                D,
                F::NAME,
                isa.name(),
                (0..D).map(|a| coords[a][i]).collect::<Vec<_>>(),
                s.value,
                s.gradient,
                out[i],
                plain[i],
                (0..D).map(|a| grad[a][i]).collect::<Vec<_>>()
            );
        }
    }
}

fn fractals<const D: usize>(period: [u32; D]) -> Vec<(String, Fractal<D>)> {
    let mut v = Vec::new();
    for (k, noise) in NoiseKind::ALL.into_iter().enumerate() {
        for (j, kind) in FractalKind::ALL.into_iter().enumerate() {
            let params = FractalParams {
                octaves: 2 + ((k + j) % 4) as u32,
                lacunarity: if j % 2 == 0 { 2.0 } else { 3.0 },
                gain: 0.55,
                frequency: 0.75,
                normalize: j % 3 != 1,
                ..FractalParams::new(kind)
            };
            let n = Noise::<D>::new(noise, 1000 + k as u64);
            v.push((format!("{kind} {noise}"), Fractal::new(n, params).unwrap()));
            if let Ok(p) = n.with_period(period) {
                let tiled = FractalParams {
                    octaves: 3,
                    frequency: 1.0,
                    ..params
                };
                v.push((
                    format!("tiled {kind} {noise}"),
                    Fractal::new(p, tiled).unwrap(),
                ));
            }
        }
    }
    v
}

fn warps<const D: usize>() -> Vec<(String, Warp<D>)> {
    let mut v = Vec::new();
    for (k, noise) in NoiseKind::ALL.into_iter().enumerate() {
        let field = Fractal::new(
            Noise::<D>::new(NoiseKind::ALL[(k + 1) % 4], 5),
            FractalParams::new(FractalKind::ALL[k % 5]),
        )
        .unwrap();
        for kind in WarpKind::ALL {
            let mut params = WarpParams::new(kind);
            params.amplitude = 0.7;
            params.fractal.octaves = 1 + k as u32;
            params.fractal.frequency = 0.6;
            if kind == WarpKind::Single && k == 3 {
                params.fractal.kind = FractalKind::Ridged;
            }
            let w = Warp::new(field.clone(), Noise::new(noise, 9), params).unwrap();
            v.push((format!("{kind} warp by {noise}"), w));
        }
    }
    v
}

fn all<F: Float, const D: usize>(period: [u32; D]) {
    for (name, f) in fractals::<D>(period) {
        check::<F, D>(&name, &f, 1);
    }
    for (name, w) in warps::<D>() {
        check::<F, D>(&name, &w, 2);
    }
    let stack = Stack {
        noise: NoiseKind::Perlin,
        seed: 12,
        frequency: 0.5,
        fractal: Some(FractalDesc {
            kind: FractalKind::Hybrid,
            octaves: 3,
            ..FractalDesc::default()
        }),
        warp: Some(WarpDesc {
            kind: WarpKind::Progressive,
            noise: Some(NoiseKind::SimplexValue),
            amplitude: 2.0,
            fractal: Some(FractalDesc {
                octaves: 2,
                ..FractalDesc::default()
            }),
            ..WarpDesc::default()
        }),
        ..Stack::default()
    };
    check::<F, D>("stack", &stack.build::<D>().unwrap(), 3);
    // With a domain offset, in the field's octaves and the warp's.
    let offset = [0.625, -1e6, 3.3, 1e-3];
    let moved = Stack {
        offset: Some(offset[..D].to_vec()),
        ..stack
    };
    check::<F, D>("stack moved", &moved.build::<D>().unwrap(), 4);
    let moved = Stack {
        noise: NoiseKind::Cellular,
        warp: None,
        ..moved
    };
    check::<F, D>("cellular stack moved", &moved.build::<D>().unwrap(), 5);
}

fn curl<F: Float, const D: usize>(c: &Curl<D>, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let coords: Vec<Vec<F>> = (0..D).map(|_| points(&mut rng, N)).collect();
    let refs: [&[F]; D] = core::array::from_fn(|a| coords[a].as_slice());
    for isa in Isa::available() {
        let mut out: Vec<Vec<F>> = vec![vec![F::ZERO; N]; D];
        {
            let mut it = out.iter_mut();
            let o: [&mut [F]; D] = core::array::from_fn(|_| it.next().unwrap().as_mut_slice());
            c.fill_on(isa, refs, o).unwrap();
        }
        for i in 0..N {
            let p: [F; D] = core::array::from_fn(|a| coords[a][i]);
            let v = c.get(p);
            assert!(
                (0..D).all(|a| same(v[a], out[a][i])),
                "curl {D}D {} on {}: at {p:?}: {v:?} vs {:?}",
                F::NAME,
                isa.name(),
                (0..D).map(|a| out[a][i]).collect::<Vec<_>>()
            );
        }
    }
}

fn curls<F: Float>() {
    for noise in NoiseKind::ALL {
        let psi2 = Fractal::new(
            Noise::<2>::new(noise, 4),
            FractalParams::new(FractalKind::Fbm),
        )
        .unwrap();
        curl::<F, 2>(&Curl::new(psi2), 4);
        let psi3 = Fractal::new(
            Noise::<3>::new(noise, 4),
            FractalParams::new(FractalKind::Turbulence),
        )
        .unwrap();
        curl::<F, 3>(&Curl::new(psi3), 5);
    }
}

#[test]
fn batches_bit_identical_f32() {
    all::<f32, 1>([5]);
    all::<f32, 2>([3, 4]);
    all::<f32, 3>([2, 3, 5]);
    all::<f32, 4>([2, 2, 3, 1]);
    curls::<f32>();
}

#[test]
fn batches_bit_identical_f64() {
    all::<f64, 1>([5]);
    all::<f64, 2>([3, 4]);
    all::<f64, 3>([2, 3, 5]);
    all::<f64, 4>([2, 2, 3, 1]);
    curls::<f64>();
}

#[test]
fn reports_available_backends() {
    println!("backends tested: {:?}", Isa::available());
    assert!(Isa::available().contains(&Isa::Scalar));
}
