//! The library's parameter checks that `docs/BAD-INPUT.md` lists without a
//! test of their own elsewhere: octaves, frequency and lacunarity, the
//! finite-only parameters of fractals and warps, and the sign(0) = 0 rule at
//! the kinks of `|n|`. Each error names the parameter.

use surflet::{
    Error, Field, Fractal, FractalKind, FractalParams, Noise, NoiseKind, Warp, WarpParams,
};

fn fractal(params: FractalParams) -> Result<Fractal<2>, Error> {
    Fractal::new(Noise::<2>::new(NoiseKind::Perlin, 1), params)
}

fn names(e: &Error, name: &str) -> bool {
    matches!(e, Error::Parameter { name: n, .. } if n == name)
}

#[test]
fn octaves_outside_1_to_32_are_refused() {
    for octaves in [0, 33, 1000, u32::MAX] {
        let e = fractal(FractalParams {
            octaves,
            ..FractalParams::new(FractalKind::Fbm)
        })
        .unwrap_err();
        assert!(names(&e, "octaves"), "{octaves}: {e}");
    }
    for octaves in [1, 32] {
        let p = FractalParams {
            octaves,
            ..FractalParams::new(FractalKind::Ridged)
        };
        assert!(fractal(p).is_ok(), "{octaves} octaves");
    }
}

#[test]
fn frequency_and_lacunarity_must_be_positive_and_finite() {
    for bad in [0.0, -0.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let base = FractalParams::new(FractalKind::Fbm);
        let e = fractal(FractalParams {
            frequency: bad,
            ..base
        })
        .unwrap_err();
        assert!(names(&e, "frequency"), "frequency {bad}: {e}");
        let e = fractal(FractalParams {
            lacunarity: bad,
            ..base
        })
        .unwrap_err();
        assert!(names(&e, "lacunarity"), "lacunarity {bad}: {e}");
    }
}

#[test]
fn gain_amplitude_offset_weight_and_warp_amplitude_must_be_finite() {
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let base = FractalParams::new(FractalKind::Ridged);
        for (name, p) in [
            ("gain", FractalParams { gain: bad, ..base }),
            (
                "amplitude",
                FractalParams {
                    amplitude: bad,
                    ..base
                },
            ),
            (
                "offset",
                FractalParams {
                    offset: bad,
                    ..base
                },
            ),
            (
                "weight",
                FractalParams {
                    weight: bad,
                    ..base
                },
            ),
        ] {
            let e = fractal(p).unwrap_err();
            assert!(names(&e, name), "{name} {bad}: {e}");
        }
        let w = Warp::new(
            fractal(base).unwrap(),
            Noise::new(NoiseKind::Simplex, 2),
            WarpParams {
                amplitude: bad,
                ..WarpParams::new(surflet::WarpKind::Single)
            },
        )
        .unwrap_err();
        assert!(names(&w, "amplitude"), "warp amplitude {bad}: {w}");
    }
    // Negative and zero values of these are allowed (a gain of 0 is one
    // octave; a negative amplitude flips the sign).
    for ok in [0.0, -0.5, 2.0] {
        let base = FractalParams::new(FractalKind::Ridged);
        assert!(fractal(FractalParams { gain: ok, ..base }).is_ok());
        assert!(fractal(FractalParams { offset: ok, ..base }).is_ok());
    }
}

/// Perlin noise is 0 at lattice points, where octave 0 of a fractal sits
/// unshifted, so `|n|` is at its kink there: turbulence, billow and ridged
/// take sign(0) = 0, and the first octave adds exactly nothing to the
/// gradient. With one octave the whole gradient is exactly zero (the fBm of
/// the same point has Perlin's non-zero slope, so the test can fail).
#[test]
fn kinks_of_abs_n_take_sign_zero() {
    let p = [3.0f64, -2.0];
    let plain = Fractal::new(
        Noise::<2>::new(NoiseKind::Perlin, 5),
        FractalParams {
            octaves: 1,
            normalize: false,
            ..FractalParams::new(FractalKind::Fbm)
        },
    )
    .unwrap()
    .sample(p);
    assert_eq!(plain.value, 0.0);
    assert!(plain.gradient.iter().any(|&g| g != 0.0), "{plain:?}");
    for kind in [
        FractalKind::Turbulence,
        FractalKind::Billow,
        FractalKind::Ridged,
    ] {
        let f = Fractal::new(
            Noise::<2>::new(NoiseKind::Perlin, 5),
            FractalParams {
                octaves: 1,
                ..FractalParams::new(kind)
            },
        )
        .unwrap();
        let s = f.sample(p);
        assert_eq!(s.gradient, [0.0, 0.0], "{kind}: {s:?}");
        let s = f.sample([3.0f32, -2.0]);
        assert_eq!(s.gradient, [0.0, 0.0], "{kind} f32: {s:?}");
    }
}

/// Division by a field that can be 0 is IEEE division, with an unbounded
/// derived range; a whole negative power of 0 is ∞ (Perlin noise is 0 at
/// lattice points, so both meet a zero there).
#[cfg(feature = "expr")]
#[test]
fn division_by_zero_is_ieee_and_its_range_unbounded() {
    use surflet::graph::Graph;
    let build = |e: &str| Graph::parse(e).unwrap().build::<2>().unwrap();
    let lattice = [3.0f64, 4.0];
    let div = build("1 / perlin(seed=2)");
    assert_eq!(div.range(), (f64::NEG_INFINITY, f64::INFINITY));
    assert!(div.get(lattice).is_infinite(), "{}", div.get(lattice));
    assert!(
        build("perlin(seed=1) / perlin(seed=2)")
            .get(lattice)
            .is_nan()
    );
    let pow = build("pow(perlin(seed=1), -2)");
    assert_eq!(pow.get(lattice), f64::INFINITY);
    // Away from zeros both are ordinary numbers.
    assert!(div.get([3.3f64, 4.6]).is_finite());
    // A divisor bounded away from 0 keeps a finite range.
    let (lo, hi) = build("perlin(seed=1) / (perlin(seed=2) * 0.25 + 2)").range();
    assert!(lo.is_finite() && hi.is_finite(), "{lo} {hi}");
}
