//! Octave rotation (`fractal.rotation`): each octave is turned by `T` from
//! the one before. The turns are rotations (orthogonal, determinant 1, the
//! powers of one `T`); octave 0 is never turned, so one octave keeps the
//! base noise's bits; a full turn gives the unturned fractal back up to
//! rounding; the key reads, writes and reaches the expression language; a
//! period is refused; huge finite coordinates stay finite. The reference
//! formulas and the gradient (fractal_gradients, warp_gradients) and grid
//! identity (grid) cover turned fractals too.

use crate::fractal_common::points;
use surflet::Field;
use surflet::{Fractal, FractalKind, FractalParams, Noise, NoiseKind, Stack};

fn turned<const D: usize>(noise: NoiseKind, rotation: f64, octaves: u32) -> Fractal<D> {
    let params = FractalParams {
        octaves,
        rotation,
        ..FractalParams::new(FractalKind::Fbm)
    };
    Fractal::new(Noise::new(noise, 31), params).unwrap()
}

fn mul<const D: usize>(a: &[[f64; D]; D], b: &[[f64; D]; D]) -> [[f64; D]; D] {
    core::array::from_fn(|r| core::array::from_fn(|c| (0..D).map(|k| a[r][k] * b[k][c]).sum()))
}

fn det<const D: usize>(m: &[[f64; D]; D]) -> f64 {
    // Gaussian elimination with partial pivoting.
    let mut m = *m;
    let mut d = 1.0;
    for c in 0..D {
        let p = (c..D)
            .max_by(|&i, &j| m[i][c].abs().total_cmp(&m[j][c].abs()))
            .unwrap();
        if p != c {
            m.swap(p, c);
            d = -d;
        }
        d *= m[c][c];
        for r in c + 1..D {
            let f = m[r][c] / m[c][c];
            for k in c..D {
                m[r][k] -= f * m[c][k];
            }
        }
    }
    d
}

fn turns_are_rotations<const D: usize>() {
    for theta in [0.3, -1.7, 2.9] {
        let f = turned::<D>(NoiseKind::Perlin, theta, 8);
        let rots: Vec<_> = f.octaves().map(|o| o.rotation).collect();
        assert_eq!(rots[0], None, "octave 0 is not turned");
        let t = rots[1].expect("octave 1 is turned");
        for (i, r) in rots.iter().enumerate().skip(1) {
            let r = r.unwrap();
            // Rᵀ·R = I and det R = 1: a rotation.
            let rt: [[f64; D]; D] = core::array::from_fn(|a| core::array::from_fn(|b| r[b][a]));
            let id = mul(&rt, &r);
            for a in 0..D {
                for b in 0..D {
                    let want = if a == b { 1.0 } else { 0.0 };
                    assert!(
                        (id[a][b] - want).abs() < 1e-14,
                        "{D}D octave {i}: RᵀR {id:?}"
                    );
                }
            }
            assert!(
                (det(&r) - 1.0).abs() < 1e-14,
                "{D}D octave {i}: det {}",
                det(&r)
            );
            // Rᵢ = T·Rᵢ₋₁.
            if i > 1 {
                let want = mul(&t, &rots[i - 1].unwrap());
                assert_eq!(r, want, "{D}D octave {i}: not T times the octave before");
            }
        }
        if D == 2 {
            // In 2D octave i is the turn by i·θ.
            for (i, r) in rots.iter().enumerate().skip(1) {
                let r = r.unwrap();
                let a = i as f64 * theta;
                let want = [[a.cos(), -a.sin()], [a.sin(), a.cos()]];
                for (x, y) in r.iter().flatten().zip(want.iter().flatten()) {
                    assert!((x - y).abs() < 1e-13, "2D octave {i}: {r:?} vs {want:?}");
                }
            }
        }
    }
}

#[test]
fn turns_are_rotations_and_powers_of_one_turn() {
    turns_are_rotations::<2>();
    turns_are_rotations::<3>();
    turns_are_rotations::<4>();
    // One axis has no plane to turn: nothing is.
    let f = turned::<1>(NoiseKind::Perlin, 0.5, 4);
    assert!(f.octaves().all(|o| o.rotation.is_none()));
    let plain = turned::<1>(NoiseKind::Perlin, 0.0, 4);
    for p in points::<1>(3, 200, 40.0) {
        assert_eq!(f.get(p).to_bits(), plain.get(p).to_bits());
    }
}

fn one_octave_and_full_turn<const D: usize>() {
    for noise in NoiseKind::ALL {
        let one = turned::<D>(noise, 1.1, 1);
        let base = Noise::<D>::new(noise, 31);
        let full = turned::<D>(noise, core::f64::consts::TAU, 4);
        let none = turned::<D>(noise, 0.0, 4);
        let quarter = turned::<D>(noise, 0.25, 4);
        let mut differ = 0;
        for p in points::<D>(7, 300, 30.0) {
            // Octave 0 is not turned: one octave is the base noise, bit for bit.
            let (a, b) = (one.sample(p), base.sample(p));
            assert_eq!(
                a.value.to_bits(),
                b.value.to_bits(),
                "{noise} {D}D at {p:?}"
            );
            assert_eq!(a.gradient.map(f64::to_bits), b.gradient.map(f64::to_bits));
            // A full turn is no turn, up to the rounding of cos and sin.
            let (v, w) = (full.get(p), none.get(p));
            assert!((v - w).abs() < 1e-9, "{noise} {D}D at {p:?}: {v} vs {w}");
            differ += (quarter.get(p) != w) as usize;
        }
        assert!(
            differ > 290,
            "{noise} {D}D: a turn changed only {differ} of 300 values"
        );
    }
}

#[test]
fn one_octave_is_unturned_and_a_full_turn_is_none() {
    one_octave_and_full_turn::<2>();
    one_octave_and_full_turn::<3>();
    one_octave_and_full_turn::<4>();
}

#[test]
fn stack_offset_moves_the_point_before_the_turn() {
    let toml = "noise = \"simplex\"\nfrequency = 0.5\n[fractal]\noctaves = 4\nrotation = 0.9";
    let plain = Stack::from_toml_str(toml).unwrap();
    let moved = Stack {
        offset: Some(vec![3.0, -1.5, 0.25]),
        ..plain.clone()
    };
    let (a, b) = (plain.build::<3>().unwrap(), moved.build::<3>().unwrap());
    // 3, -1.5 and 0.25 cells at frequency 0.5 are 6, -3 and 0.5 units.
    for p in points::<3>(11, 500, 20.0) {
        let q = [p[0] + 6.0, p[1] - 3.0, p[2] + 0.5];
        let (v, w) = (b.sample(p), a.sample(q));
        assert!((v.value - w.value).abs() < 1e-12, "at {p:?}");
        for k in 0..3 {
            assert!((v.gradient[k] - w.gradient[k]).abs() < 1e-10, "at {p:?}");
        }
    }
}

#[test]
fn a_period_is_refused() {
    let base = Noise::<2>::new(NoiseKind::Perlin, 1)
        .with_period([4, 4])
        .unwrap();
    let p = FractalParams {
        rotation: 0.5,
        ..FractalParams::new(FractalKind::Fbm)
    };
    let e = Fractal::new(base, p).unwrap_err().to_string();
    assert!(e.contains("rotation") && e.contains("tile"), "{e}");
    // Reading a document checks it.
    let e = Stack::from_toml_str("period = [4, 4]\n[fractal]\nrotation = 0.5")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("fractal.rotation: "), "{e}");
    let e = Stack::from_toml_str("[fractal]\nrotation = nan")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("fractal.rotation: "), "{e}");
    let e = Stack::from_toml_str(
        "period = [4, 4]\n[warp]\nfrequency = 2.0\n[warp.fractal]\nrotation = 0.5",
    )
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("warp.fractal.rotation: "), "{e}");
    // One rule in every dimension, though one axis has nothing to turn.
    let one = Noise::<1>::new(NoiseKind::Perlin, 1)
        .with_period([4])
        .unwrap();
    assert!(Fractal::new(one, p).is_err());
}

#[test]
fn the_key_reads_writes_and_is_an_argument() {
    let s = Stack::from_toml_str(
        "noise = \"perlin\"\n[fractal]\noctaves = 3\nrotation = 0.5\n\
         [warp]\namplitude = 0.5\n[warp.fractal]\nrotation = -2.0",
    )
    .unwrap();
    assert_eq!(s.fractal.as_ref().unwrap().rotation, 0.5);
    assert_eq!(
        s.warp.as_ref().unwrap().fractal.as_ref().unwrap().rotation,
        -2.0
    );
    let toml = s.to_toml_string().unwrap();
    assert!(
        toml.contains("rotation = 0.5") && toml.contains("rotation = -2.0"),
        "{toml}"
    );
    assert_eq!(Stack::from_toml_str(&toml).unwrap(), s);
    assert_eq!(
        Stack::from_json_str(&s.to_json_string().unwrap()).unwrap(),
        s
    );
    // Absent at 0: a document without the key is written back as it was.
    let plain = Stack::from_toml_str("[fractal]\noctaves = 3").unwrap();
    assert!(!plain.to_toml_string().unwrap().contains("rotation"));
}

#[cfg(feature = "expr")]
#[test]
fn the_expression_language_takes_the_key() {
    let g = surflet::Graph::parse("fbm(perlin(), octaves=3, rotation=0.5)").unwrap();
    let e = Stack::from_toml_str("noise = \"perlin\"\n[fractal]\noctaves = 3\nrotation = 0.5")
        .unwrap()
        .build::<2>()
        .unwrap();
    let c = g.build::<2>().unwrap();
    for p in points::<2>(5, 100, 10.0) {
        assert_eq!(c.get(p).to_bits(), e.get(p).to_bits(), "at {p:?}");
    }
    // And writes it back.
    assert!(g.to_string().contains("rotation=0.5"), "{g}");
}

#[test]
fn huge_finite_coordinates_stay_finite() {
    for noise in [NoiseKind::Perlin, NoiseKind::Simplex, NoiseKind::Value] {
        let f = turned::<3>(noise, 0.8, 6);
        for x in [f32::MAX, -f32::MAX, 3e38, 1e30] {
            let s = f.sample([x, -x, x]);
            assert!(s.value.is_finite(), "{noise} at {x}: {}", s.value);
            assert!(s.gradient.iter().all(|g| g.is_finite()), "{noise} at {x}");
        }
        let s = f.sample([f64::MAX, -f64::MAX, 1e300]);
        assert!(s.value.is_finite(), "{noise}: {}", s.value);
        assert!(f.get([f32::NAN, 0.0, 0.0]).is_nan());
        assert!(f.get([f32::INFINITY, 0.0, 0.0]).is_nan());
    }
}
