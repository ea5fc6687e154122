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

// ----- lattice orientation and normalisers -----
//
// No other lattice point is within reach of a lattice point (the nearest
// is √(2/3), √3/2 and √(4/5) away in 2D, 3D and 4D, at or beyond every
// radius), so there the noise is exactly the point's own surflet
// `(r² − |d|²)⁴ (g · d)` at d = 0: value 0, gradient `r⁸ g` times the
// scale. That pins both the lattice (where the zeros are) and the scale
// (the gradient's length, g being a unit vector) from outside the kernel.

/// `1 − 2⁻¹⁸`, the rounding margin every scale carries (docs/RANGES.md).
const MARGIN: f64 = 1.0 - 1.0 / 262_144.0;
/// (3 − √3)/6 and (5 − √5)/20: the 2D and 4D unskew factors.
const G2: f64 = 0.211_324_865_405_187_1;
const G4: f64 = 0.138_196_601_125_010_5;
const ROOT3_INV: f64 = 0.577_350_269_189_625_8;

/// The family's lattice points in space, from integer coordinates: the
/// classic equilateral 2D and skewed 4D lattices, and in 3D the BCC lattice
/// (Z³ and Z³ + ½) in the Java's `ImproveXY` frame `q = R p`, mapped back by
/// `Rᵀ`, under which z is the lattice's main diagonal.
fn lattice_2d(v: [f64; 2]) -> [f64; 2] {
    let t = (v[0] + v[1]) * G2;
    [v[0] - t, v[1] - t]
}
fn lattice_3d(q: [f64; 3]) -> [f64; 3] {
    let t = (q[0] + q[1]) * G2 + q[2] * ROOT3_INV;
    [q[0] - t, q[1] - t, (q[0] + q[1] + q[2]) * ROOT3_INV]
}
fn lattice_4d(v: [f64; 4]) -> [f64; 4] {
    let t = (v[0] + v[1] + v[2] + v[3]) * G4;
    v.map(|x| x - t)
}
/// `R g`: a space gradient in the lattice's frame.
fn improve_xy(g: [f64; 3]) -> [f64; 3] {
    let t = (g[0] + g[1]) * G2 - g[2] * ROOT3_INV;
    [g[0] - t, g[1] - t, (g[2] - g[0] - g[1]) * ROOT3_INV]
}

/// At `n` lattice points: |value| below 1e-12 and the gradient's length
/// `scale · MARGIN · r⁸`, to 1e-12 relative. Returns the unit gradients.
fn at_lattice_points<const D: usize>(
    kind: NoiseKind,
    r2: f64,
    scale: f64,
    point: impl Fn([f64; D]) -> [f64; D],
    half: bool,
) -> Vec<[f64; D]> {
    let noise = Noise::<D>::new(kind, 3);
    let mut rng = Rng(0x1a77 + D as u64);
    let want = scale * MARGIN * r2.powi(4);
    let mut dirs = Vec::new();
    for i in 0..400 {
        let shift = if half && i % 2 == 1 { 0.5 } else { 0.0 };
        let v: [f64; D] = core::array::from_fn(|_| (rng.next() * 200.0 - 100.0).floor() + shift);
        let p = point(v);
        let s = noise.sample(p);
        let len = s.gradient.iter().map(|g| g * g).sum::<f64>().sqrt();
        assert!(
            s.value.abs() < 1e-12,
            "{kind} {D}D: value {} at the lattice point {v:?} = {p:?}",
            s.value
        );
        assert!(
            ((len - want) / want).abs() < 1e-12,
            "{kind} {D}D: |gradient| {len} at the lattice point {v:?}, want {want} (scale {scale})"
        );
        dirs.push(s.gradient.map(|g| g / len));
    }
    dirs
}

/// Sorted absolute components, to compare with a gradient set's shapes.
fn shape<const D: usize>(g: [f64; D]) -> [f64; D] {
    let mut a = g.map(f64::abs);
    a.sort_by(f64::total_cmp);
    a
}

fn close<const D: usize>(a: [f64; D], b: [f64; D]) -> bool {
    a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-12)
}

/// The scales of docs/RANGES.md's table (`1 / sup`) and the gradient sets
/// of `kernel/opensimplex.rs`, seen at the lattice points of the
/// orientation the CHANGELOG states: the 2D and 4D classic lattices, and the
/// 3D BCC lattice turned by `ImproveXY`.
#[test]
fn lattice_points_show_the_orientation_scale_and_gradient_set() {
    use NoiseKind::{OpenSimplex2 as Os2, OpenSimplex2S as Os2s};
    // 2D: 24 directions at 7.5° + k·15°.
    for (kind, r2, scale) in [
        (Os2, 0.5, 99.8368544630364),
        (Os2s, 2.0 / 3.0, 18.2419619448606),
    ] {
        for g in at_lattice_points::<2>(kind, r2, scale, lattice_2d, false) {
            let deg = g[1].atan2(g[0]).to_degrees().rem_euclid(15.0);
            assert!(
                (deg - 7.5).abs() < 1e-9,
                "{kind} 2D: a gradient at {deg}° mod 15°"
            );
        }
    }
    // 3D: (±a, ±a, ±b) and (±p, ±q, 0) in every order, in the turned frame.
    let (a, b) = (1.0 + 1.5f64.sqrt(), 1.0);
    let n = (2.0 * a * a + b * b).sqrt();
    let (p, q) = (0.934_846_922_835_048_2, 0.355_051_025_721_432_5);
    let shapes = [[b / n, a / n, a / n], [0.0, q, p]];
    for (kind, r2, scale) in [(Os2, 0.5, 108.291264306620), (Os2s, 0.75, 11.8671744262711)] {
        for g in at_lattice_points::<3>(kind, r2, scale, lattice_3d, true) {
            let s = shape(improve_xy(g));
            assert!(
                shapes.iter().any(|&t| close(s, t)),
                "{kind} 3D: gradient {g:?} is {s:?} in the ImproveXY frame"
            );
        }
    }
    // 4D: the family's 48, edge directions / √3 and corner directions / 2.
    let e = 1.0 / 3f64.sqrt();
    let shapes = [[0.0, e, e, e], [0.5; 4]];
    for (kind, r2, scale) in [(Os2, 0.5, 108.567826464029), (Os2s, 0.8, 8.62680546874918)] {
        for g in at_lattice_points::<4>(kind, r2, scale, lattice_4d, false) {
            assert!(
                shapes.iter().any(|&t| close(shape(g), t)),
                "{kind} 4D: gradient {g:?}"
            );
        }
    }
}

/// Where the family and the Java share lattice, radius and gradients (2D
/// for both noises, OpenSimplex2S in 3D), the scale is K.jpg's normaliser
/// to 13 digits (1e-12 relative; the 3D one differs in the 14th), as
/// docs/RANGES.md says: `NORMALIZER_2D` directly, and
/// OpenSimplex2S's `NORMALIZER_3D` over the length of his unnormalised
/// gradients `(a, a, 1)`, `a = 1 + √1.5`.
#[test]
fn the_shared_designs_have_k_jpgs_normalisers() {
    let raw3 = (2.0 * (1.0 + 1.5f64.sqrt()).powi(2) + 1.0).sqrt();
    for (kind, r2, scale, point) in [
        (
            NoiseKind::OpenSimplex2,
            0.5f64,
            1.0 / 0.01001634121365712,
            [0.0, 0.0],
        ),
        (
            NoiseKind::OpenSimplex2S,
            2.0 / 3.0,
            1.0 / 0.05481866495625118,
            [0.0, 0.0],
        ),
    ] {
        let g = Noise::<2>::new(kind, 8).sample(point).gradient;
        let len = g.iter().map(|g| g * g).sum::<f64>().sqrt();
        let k = len / (MARGIN * r2.powi(4));
        assert!(
            ((k - scale) / scale).abs() < 1e-12,
            "{kind} 2D: scale {k}, K.jpg's {scale}"
        );
    }
    let g = Noise::<3>::new(NoiseKind::OpenSimplex2S, 8)
        .sample([0.0; 3])
        .gradient;
    let len = g.iter().map(|g| g * g).sum::<f64>().sqrt();
    let (k, scale) = (len / (MARGIN * 0.75f64.powi(4)), raw3 / 0.2781926117527186);
    assert!(
        ((k - scale) / scale).abs() < 1e-12,
        "OpenSimplex2S 3D: scale {k}, K.jpg's {scale}"
    );
}

/// The zeros above are the turned lattice's: on the unturned BCC lattice
/// (the lattice points taken as space points) the noise is not zero, so
/// the orientation test can fail.
#[test]
fn the_unturned_lattice_has_no_zeros() {
    let noise = Noise::<3>::new(NoiseKind::OpenSimplex2, 3);
    let mut rng = Rng(5);
    let nonzero = (0..400)
        .filter(|_| {
            let v: [f64; 3] = core::array::from_fn(|_| (rng.next() * 200.0 - 100.0).floor());
            noise.get(v).abs() > 1e-3
        })
        .count();
    assert!(nonzero > 300, "{nonzero} of 400");
}
