//! Fractals, warps and curl noise on extreme inputs: a finite coordinate
//! always gives a finite value and gradient, however high the octave's
//! frequency (1e300 at the 32nd octave of lacunarity 3 is far past f64's
//! range); NaN or ±∞ gives NaN. Batches agree with single points.

use surflet::Field;
use surflet::{
    Curl, Float, Fractal, FractalKind, FractalParams, Isa, Noise, NoiseKind, Warp, WarpKind,
    WarpParams,
};

const HUGE: &[f64] = &[
    1e300,
    -1e300,
    f64::MAX,
    -f64::MAX,
    3.4e38,
    -3.0e38,
    1e30,
    1e19,
];

fn fractal<const D: usize>(noise: NoiseKind, kind: FractalKind) -> Fractal<D> {
    let params = FractalParams {
        octaves: 32,
        lacunarity: 3.0,
        normalize: kind != FractalKind::Hybrid,
        ..FractalParams::new(kind)
    };
    Fractal::new(Noise::new(noise, 3), params).unwrap()
}

fn points<F: Float, const D: usize>(v: f64) -> Vec<[F; D]> {
    let v = F::from_f64(v);
    let mut p = vec![
        [v; D],
        core::array::from_fn(|a| if a % 2 == 0 { v } else { -v }),
    ];
    p.push(core::array::from_fn(|a| {
        if a == 0 { v } else { F::from_f64(0.3) }
    }));
    p
}

fn finite_everywhere<F: Float, const D: usize>() {
    for noise in NoiseKind::ALL {
        for kind in FractalKind::ALL {
            let f = fractal::<D>(noise, kind);
            for &v in HUGE {
                for p in points::<F, D>(v) {
                    let finite_in = p.iter().all(|c| c.is_finite());
                    let s = f.sample(p);
                    let ok = if finite_in {
                        s.value.is_finite() && s.gradient.iter().all(|g| g.is_finite())
                    } else {
                        s.value.is_nan()
                    };
                    assert!(ok, "{kind} {noise} {D}D {} at {p:?}: {s:?}", F::NAME);
                    for isa in Isa::available() {
                        let coords: Vec<Vec<F>> = (0..D).map(|a| vec![p[a]; 11]).collect();
                        let refs: [&[F]; D] = core::array::from_fn(|a| coords[a].as_slice());
                        let mut out = vec![F::ZERO; 11];
                        f.fill_on(isa, refs, &mut out, None).unwrap();
                        for o in out {
                            assert!(
                                o.to_f64().to_bits() == s.value.to_f64().to_bits()
                                    || (o.is_nan() && s.value.is_nan()),
                                "{kind} {noise} {D}D {isa:?} at {p:?}"
                            );
                        }
                    }
                }
                let nan = f.sample([F::from_f64(f64::INFINITY); D]);
                assert!(nan.value.is_nan(), "{kind} {noise}: ∞ gave {nan:?}");
            }
        }
    }
}

#[test]
fn fractals_finite_on_huge_input_f64() {
    finite_everywhere::<f64, 1>();
    finite_everywhere::<f64, 2>();
    finite_everywhere::<f64, 3>();
    finite_everywhere::<f64, 4>();
}

#[test]
fn fractals_finite_on_huge_input_f32() {
    finite_everywhere::<f32, 1>();
    finite_everywhere::<f32, 2>();
    finite_everywhere::<f32, 3>();
    finite_everywhere::<f32, 4>();
}

#[test]
fn warps_and_curls_finite_on_huge_input() {
    for kind in WarpKind::ALL {
        let mut params = WarpParams::new(kind);
        params.fractal.octaves = 32;
        let w = Warp::new(
            fractal::<3>(NoiseKind::Simplex, FractalKind::Fbm),
            Noise::new(NoiseKind::Perlin, 4),
            params,
        )
        .unwrap();
        for &v in HUGE {
            for p in points::<f64, 3>(v) {
                let s = w.sample(p);
                assert!(
                    s.value.is_finite() && s.gradient.iter().all(|g| g.is_finite()),
                    "{kind} at {p:?}: {s:?}"
                );
            }
        }
        assert!(w.get([f64::NAN, 0.0, 0.0]).is_nan());
    }
    let c2 = Curl::<2>::new(fractal::<2>(NoiseKind::Simplex, FractalKind::Fbm));
    let c3 = Curl::<3>::new(fractal::<3>(NoiseKind::Perlin, FractalKind::Fbm));
    for &v in HUGE {
        for p in points::<f64, 2>(v) {
            assert!(c2.get(p).iter().all(|c| c.is_finite()), "curl2 at {p:?}");
        }
        for p in points::<f64, 3>(v) {
            assert!(c3.get(p).iter().all(|c| c.is_finite()), "curl3 at {p:?}");
        }
    }
    assert!(c3.get([f64::INFINITY, 0.0, 0.0]).iter().all(|c| c.is_nan()));
}
