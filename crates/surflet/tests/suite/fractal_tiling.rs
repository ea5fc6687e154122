//! Tiled fractals are exactly periodic: with a periodic base noise of period
//! P and a whole-number lacunarity L (octave i tiles with P·Lⁱ), the fractal
//! repeats every T = P / frequency, bit for bit (value and gradient) wherever
//! the octave coordinates are exact. Tiled warped stacks repeat up to
//! rounding.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use surflet::Field;
use surflet::{
    Error, Float, Fractal, FractalDesc, FractalKind, FractalParams, Noise, NoiseKind, Stack,
    WarpDesc, WarpKind,
};

fn same<F: Float>(a: F, b: F) -> bool {
    a.to_f64().to_bits() == b.to_f64().to_bits()
}

/// Points with a short binary expansion (multiples of 1/64 in [-r, r]), so
/// that every octave coordinate p·fᵢ + oᵢ is computed exactly.
fn dyadic<F: Float, const D: usize>(rng: &mut SmallRng, r: i64) -> [F; D] {
    core::array::from_fn(|_| F::from_f64(rng.random_range(-64 * r..=64 * r) as f64 / 64.0))
}

fn check<F: Float, const D: usize>(f: &Fractal<D>, r: i64, shifts: &[i64], n: usize) -> usize {
    let tile = f.tile().expect("tiled");
    let mut rng = SmallRng::seed_from_u64(D as u64);
    let mut count = 0;
    for _ in 0..n {
        let p: [F; D] = dyadic(&mut rng, r);
        let s = f.sample(p);
        for &k in shifts {
            for axis in 0..D {
                let mut q = p;
                q[axis] = F::from_f64(p[axis].to_f64() + k as f64 * tile[axis]);
                assert_eq!(q[axis].to_f64(), p[axis].to_f64() + k as f64 * tile[axis]);
                let t = f.sample(q);
                assert!(
                    same(s.value, t.value) && (0..D).all(|a| same(s.gradient[a], t.gradient[a])),
                    "{:?} {D}D {}: f({p:?}) = {:?} but f({q:?}) = {:?}",
                    f.params(),
                    F::NAME,
                    s,
                    t
                );
                count += 1;
            }
            // All axes at once.
            let q: [F; D] =
                core::array::from_fn(|a| F::from_f64(p[a].to_f64() - k as f64 * tile[a]));
            assert!(same(s.value, f.get(q)));
            count += 1;
        }
    }
    count
}

fn all<const D: usize>(period: [u32; D]) {
    let mut count = 0;
    for kind in NoiseKind::ALL {
        let Ok(base) = Noise::<D>::new(kind, 31).with_period(period) else {
            continue;
        };
        for fk in FractalKind::ALL {
            // f64: frequencies 1 and 1/4, lacunarities 2 and 3.
            for (frequency, lacunarity, octaves) in [(1.0, 2.0, 5), (0.25, 3.0, 4), (0.5, 1.0, 3)] {
                let params = FractalParams {
                    octaves,
                    frequency,
                    lacunarity,
                    ..FractalParams::new(fk)
                };
                let f = Fractal::new(base, params).unwrap();
                let expect: [f64; D] = core::array::from_fn(|a| period[a] as f64 / frequency);
                assert_eq!(f.tile(), Some(expect));
                count += check::<f64, D>(&f, 16, &[1, -1, 3, -7], 100);
            }
            // f32: small coordinates keep p·fᵢ + oᵢ within 24 bits.
            let params = FractalParams {
                octaves: 3,
                ..FractalParams::new(fk)
            };
            let f = Fractal::new(base, params).unwrap();
            count += check::<f32, D>(&f, 4, &[1, -1, 2], 100);
        }
    }
    println!("{D}D: {count} periodic comparisons, all bit-exact");
}

#[test]
fn tiled_fractals_are_exactly_periodic() {
    all::<1>([3]);
    all::<2>([3, 4]);
    all::<3>([2, 3, 2]);
    all::<4>([2, 1, 3, 2]);
}

#[test]
fn octave_periods_scale_with_the_lacunarity() {
    let base = Noise::<2>::new(NoiseKind::Perlin, 1)
        .with_period([3, 5])
        .unwrap();
    let params = FractalParams {
        octaves: 4,
        lacunarity: 3.0,
        ..FractalParams::new(FractalKind::Fbm)
    };
    let f = Fractal::new(base, params).unwrap();
    let periods: Vec<[u32; 2]> = f.octaves().map(|o| o.noise.period().unwrap()).collect();
    assert_eq!(periods, [[3, 5], [9, 15], [27, 45], [81, 135]]);
}

#[test]
fn tiling_errors() {
    let base = Noise::<2>::new(NoiseKind::Perlin, 1)
        .with_period([16, 16])
        .unwrap();
    let frac = FractalParams {
        lacunarity: 2.5,
        ..FractalParams::new(FractalKind::Fbm)
    };
    let e = Fractal::new(base, frac).unwrap_err();
    assert!(
        matches!(e, Error::Parameter { ref name, .. } if name == "lacunarity"),
        "{e}"
    );
    // 16 · 2^12 = 65536 is the last period allowed; the 14th octave needs 2^17.
    let ok = FractalParams {
        octaves: 13,
        ..FractalParams::new(FractalKind::Fbm)
    };
    assert!(Fractal::new(base, ok).is_ok());
    let e = Fractal::new(base, FractalParams { octaves: 14, ..ok }).unwrap_err();
    assert!(matches!(e, Error::Period { period: 131072, .. }), "{e}");
    println!("{e}");
}

#[test]
fn tiled_warped_stack_repeats_up_to_rounding() {
    let stack = Stack {
        noise: NoiseKind::Simplex,
        seed: 5,
        frequency: 0.25,
        period: Some(vec![4, 6]),
        fractal: Some(FractalDesc {
            kind: FractalKind::Ridged,
            octaves: 3,
            ..FractalDesc::default()
        }),
        warp: Some(WarpDesc {
            kind: WarpKind::Progressive,
            noise: Some(NoiseKind::Perlin),
            frequency: Some(0.5),
            amplitude: 1.5,
            fractal: Some(FractalDesc {
                octaves: 2,
                ..FractalDesc::default()
            }),
            ..WarpDesc::default()
        }),
        ..Stack::default()
    };
    let f = stack.build::<2>().unwrap();
    let tile = f.tile().unwrap();
    assert_eq!(tile, [16.0, 24.0]);
    let warp = f.warp().unwrap();
    assert_eq!(warp.components()[0].noise().period(), Some([8, 12]));
    let mut rng = SmallRng::seed_from_u64(1);
    let mut worst = 0.0f64;
    for _ in 0..2000 {
        let p: [f64; 2] = [rng.random_range(-40.0..40.0), rng.random_range(-40.0..40.0)];
        let q = [p[0] + tile[0], p[1] - 2.0 * tile[1]];
        worst = worst.max((f.get(p) - f.get(q)).abs());
    }
    println!("tiled warped stack: worst |f(p) - f(p + T)| = {worst:e}");
    assert!(worst < 1e-10);
    // A warp frequency that does not fit a whole number of cells in the tile.
    let mut bad = stack.clone();
    bad.warp.as_mut().unwrap().frequency = Some(0.3);
    let e = bad.build::<2>().unwrap_err();
    assert!(
        matches!(e, Error::Config { ref key, .. } if key == "warp.frequency"),
        "{e}"
    );
}
