//! Alias-free fractals ([`Stack::antialias`]): the documented fade weights,
//! the gradient still the derivative of the value, one set of bits on every
//! path, the range kept, and the keys checked.

use surflet::{Field, FractalDesc, FractalKind, Grid, NoiseKind, Stack, WarpDesc, WarpKind};

/// The documented weight, written out independently of the library's.
fn weight(t: f64) -> f64 {
    let u = ((t - 0.2) / 0.55).clamp(0.0, 1.0);
    1.0 - u * u * (3.0 - 2.0 * u)
}

fn fbm(noise: NoiseKind, kind: FractalKind, octaves: u32) -> Stack {
    Stack {
        noise,
        seed: 11,
        frequency: 0.75,
        fractal: Some(FractalDesc {
            kind,
            octaves,
            ..FractalDesc::default()
        }),
        ..Stack::default()
    }
}

fn faded(s: &Stack, footprint: f64) -> Stack {
    Stack {
        antialias: true,
        footprint: Some(footprint),
        ..s.clone()
    }
}

/// fBm's value is `scale · Σ wᵢ aᵢ nᵢ(fᵢ x + oᵢ)`: each octave's own noise,
/// weighted as documented, against the faded stack.
#[test]
fn fbm_is_the_sum_of_the_weighted_octaves() {
    for noise in [NoiseKind::Perlin, NoiseKind::Simplex, NoiseKind::Value] {
        let plain = fbm(noise, FractalKind::Fbm, 8);
        for footprint in [0.05, 0.11, 0.3, 0.9] {
            let field = faded(&plain, footprint).build::<2>().unwrap();
            let fractal = field.fractal();
            for k in 0..50 {
                let p = [k as f64 * 0.731 - 9.0, k as f64 * -0.377 + 3.0];
                let mut sum = 0.0;
                for o in fractal.octaves() {
                    let q = [
                        p[0] * o.frequency + o.offset[0],
                        p[1] * o.frequency + o.offset[1],
                    ];
                    sum += weight(o.frequency * footprint) * o.amplitude * o.noise.get(q);
                }
                let want = sum * fractal.normalization();
                let got = field.get(p);
                assert!(
                    (got - want).abs() <= 1e-12,
                    "{noise} footprint {footprint} at {p:?}: {got} vs {want}"
                );
            }
        }
    }
}

/// A footprint under 0.2 cells in every octave fades nothing: the plain
/// stack's bits. One past 0.75 cells in octave 0 fades everything to 0,
/// and the range stays the plain one.
#[test]
fn the_ends_of_the_fade() {
    let plain = fbm(NoiseKind::Perlin, FractalKind::Ridged, 6);
    let a = plain.build::<3>().unwrap();
    // Octave 5 has 0.75 · 2⁵ = 24 cells per unit; 0.2 / 24 ≈ 0.0083.
    let fine = faded(&plain, 0.008).build::<3>().unwrap();
    let coarse = faded(&plain, 1.01).build::<3>().unwrap();
    assert_eq!(fine.range(), a.range());
    assert_eq!(coarse.range(), a.range());
    for k in 0..200 {
        let p = [k as f64 * 0.13, 1.0 - k as f64 * 0.07, 0.25];
        assert_eq!(fine.get(p).to_bits(), a.get(p).to_bits());
        let s = coarse.sample(p);
        assert_eq!(s.value, 0.0);
        assert_eq!(s.gradient, [0.0; 3]);
    }
}

fn kinds() -> Vec<Stack> {
    let mut v: Vec<Stack> = FractalKind::ALL
        .iter()
        .flat_map(|&k| {
            [NoiseKind::Perlin, NoiseKind::Simplex, NoiseKind::Cellular].map(|n| fbm(n, k, 7))
        })
        .collect();
    let mut warped = fbm(NoiseKind::Value, FractalKind::Fbm, 5);
    warped.warp = Some(WarpDesc {
        kind: WarpKind::Progressive,
        amplitude: 0.4,
        fractal: Some(FractalDesc {
            octaves: 4,
            ..FractalDesc::default()
        }),
        ..WarpDesc::default()
    });
    let mut turned = fbm(NoiseKind::OpenSimplex2, FractalKind::Billow, 6);
    if let Some(f) = &mut turned.fractal {
        f.rotation = 0.5;
    }
    v.push(warped);
    v.push(turned);
    v
}

/// The gradient is the derivative of the value returned: the weights are
/// constants, so the chain rule holds through every kind and warp.
#[test]
fn the_gradient_is_the_derivative_of_the_faded_value() {
    let h = 1e-6;
    for plain in kinds() {
        let field = faded(&plain, 0.2).build::<2>().unwrap();
        for k in 0..40 {
            let p = [k as f64 * 0.291 + 0.013, 2.0 - k as f64 * 0.173];
            let g = field.sample(p).gradient;
            for a in 0..2 {
                let (mut lo, mut hi) = (p, p);
                lo[a] -= h;
                hi[a] += h;
                let fd = (field.get(hi) - field.get(lo)) / (2.0 * h);
                // Ridged and hybrid clamp their weights: where a clamp
                // saturates inside the step the difference quotient is not
                // the derivative, so compare away from kinks only.
                let tol = 1e-4 * (1.0 + g[a].abs());
                if (fd - g[a]).abs() > tol {
                    let (v0, v1) = (field.get(lo), field.get(hi));
                    let mid = field.get(p);
                    let second = (v1 - 2.0 * mid + v0) / (h * h);
                    assert!(
                        second.abs() > 1e3,
                        "{:?} at {p:?} axis {a}: gradient {} vs {fd}",
                        plain.noise,
                        g[a]
                    );
                }
            }
        }
    }
}

/// Points, batches and grids return the same bits, f32 and f64.
#[test]
fn points_batches_and_grids_agree() {
    for plain in kinds() {
        let field = faded(&plain, 0.07).build::<2>().unwrap();
        let xs: Vec<f32> = (0..37).map(|i| -3.0 + i as f32 * 0.0625).collect();
        let ys: Vec<f32> = (0..5).map(|i| 1.5 + i as f32 * 0.0625).collect();
        let grid = Grid::from_axes([xs.clone(), ys.clone()]).unwrap();
        let mut out = vec![0.0f32; grid.len()];
        field.grid(&grid, &mut out).unwrap();
        let (mut px, mut py) = (Vec::new(), Vec::new());
        for y in &ys {
            for x in &xs {
                px.push(*x);
                py.push(*y);
            }
        }
        let mut batch = vec![0.0f32; px.len()];
        field.fill([&px, &py], &mut batch).unwrap();
        for i in 0..out.len() {
            let one = field.get([px[i], py[i]]);
            assert_eq!(
                out[i].to_bits(),
                one.to_bits(),
                "{:?} grid {i}",
                plain.noise
            );
            assert_eq!(
                batch[i].to_bits(),
                one.to_bits(),
                "{:?} batch {i}",
                plain.noise
            );
        }
    }
}

/// The keys are checked, each error naming its key.
#[test]
fn keys_are_checked() {
    let plain = fbm(NoiseKind::Perlin, FractalKind::Fbm, 4);
    let no_footprint = Stack {
        antialias: true,
        ..plain.clone()
    };
    let e = no_footprint.build::<2>().unwrap_err().to_string();
    assert!(e.starts_with("antialias: "), "{e}");
    assert!(no_footprint.check().is_ok());
    let off = Stack {
        footprint: Some(0.5),
        ..plain.clone()
    };
    let e = off.check().unwrap_err().to_string();
    assert!(e.starts_with("footprint: "), "{e}");
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let e = faded(&plain, bad).check().unwrap_err().to_string();
        assert!(e.starts_with("footprint: "), "{bad}: {e}");
    }
}

#[cfg(feature = "serde")]
#[test]
fn the_keys_round_trip_and_are_written_only_when_on() {
    let s = Stack::from_toml_str(
        "noise = \"perlin\"\nantialias = true\nfootprint = 0.015625\n[fractal]\noctaves = 9\n",
    )
    .unwrap();
    assert!(s.antialias);
    assert_eq!(s.footprint, Some(0.015625));
    let toml = s.to_toml_string().unwrap();
    assert!(toml.contains("antialias = true"), "{toml}");
    assert_eq!(Stack::from_toml_str(&toml).unwrap(), s);
    assert_eq!(
        Stack::from_json_str(&s.to_json_string().unwrap()).unwrap(),
        s
    );
    let plain = Stack::default().to_toml_string().unwrap();
    assert!(!plain.contains("antialias"), "{plain}");
    let e = Stack::from_toml_str("noise = \"perlin\"\nfootprint = 0.5\n")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("footprint: "), "{e}");
}
