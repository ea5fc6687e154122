//! Curl noise is divergence-free: the central-difference divergence of the
//! curl field stays below 1e-6 (f64) in 2D and 3D, for every noise kind, for
//! fBm potentials and for tiled potentials; and the curl is exactly the
//! documented combination of the potentials' analytic gradients.
//!
//! The noises are C² (their falloffs and fades have continuous second
//! derivatives), so the curl is C¹ and its third derivatives jump across
//! lattice cell faces and simplex falloff spheres. A central difference whose
//! stencil straddles such a surface is off by O(h · jump) instead of O(h²),
//! so points whose central differences have not converged — the estimates
//! with steps h and h/2 disagree by more than a quarter of the tolerance —
//! are skipped and counted. A genuinely nonzero divergence would give the same
//! estimate at both steps and could not be skipped this way.

use crate::fractal_common::{moved, points};
use surflet::Field;
use surflet::{Curl, Fractal, FractalKind, FractalParams, Noise, NoiseKind};

const H: f64 = 1e-6;
const TOL: f64 = 1e-6;
const POINTS: usize = 2500;

fn divergence<const D: usize>(c: &Curl<D>, p: [f64; D], h: f64) -> f64 {
    let mut div = 0.0;
    for a in 0..D {
        let hi = moved(p, a, h);
        let lo = moved(p, a, -h);
        div += (c.get(hi)[a] - c.get(lo)[a]) / (hi[a] - lo[a]);
    }
    div
}

fn check<const D: usize>(what: &str, c: &Curl<D>, seed: u64) -> (usize, usize) {
    let mut worst = 0.0f64;
    let mut skipped = 0;
    let mut worst_skipped = 0.0f64;
    for p in points::<D>(seed, POINTS, 5.0) {
        let d = divergence(c, p, H);
        let d2 = divergence(c, p, H / 2.0);
        if (d - d2).abs() > TOL / 4.0 {
            skipped += 1;
            worst_skipped = worst_skipped.max(d.abs()).max(d2.abs());
            continue;
        }
        worst = worst.max(d.abs());
        assert!(d.abs() < TOL, "{what} {D}D at {p:?}: divergence {d:e}");
    }
    println!(
        "{what:>28} {D}D: {} points, {skipped} skipped (not converged), worst |div| {worst:.2e} (skipped: {worst_skipped:.2e})",
        POINTS - skipped
    );
    (POINTS - skipped, skipped)
}

fn fbm(octaves: u32) -> FractalParams {
    FractalParams {
        octaves,
        ..FractalParams::new(FractalKind::Fbm)
    }
}

fn all<const D: usize>(period: [u32; D]) {
    let (mut checked, mut skipped) = (0, 0);
    let mut tally = |r: (usize, usize)| {
        checked += r.0;
        skipped += r.1;
    };
    for (k, kind) in NoiseKind::ALL.into_iter().enumerate() {
        let seed = 40 + k as u64;
        let plain = Curl::new(Fractal::new(Noise::<D>::new(kind, seed), fbm(1)).unwrap());
        tally(check(&format!("{kind} noise"), &plain, seed));
        let fractal = Curl::new(Fractal::new(Noise::<D>::new(kind, seed), fbm(4)).unwrap());
        tally(check(&format!("{kind} fbm"), &fractal, seed + 100));
        // Faded octaves (an antialiased stack's): weights 0.98, 0.43, 0, 0.
        let faded = fractal.with_footprint(0.25);
        assert_ne!(faded, fractal);
        tally(check(&format!("{kind} faded fbm"), &faded, seed + 300));
        if let Ok(n) = Noise::<D>::new(kind, seed).with_period(period) {
            let tiled = Curl::new(Fractal::new(n, fbm(3)).unwrap());
            tally(check(&format!("tiled {kind} fbm"), &tiled, seed + 200));
        }
    }
    println!("{D}D total: {checked} points checked, {skipped} skipped");
    assert!(
        skipped * 200 <= checked,
        "{D}D: {skipped} of {checked} skipped"
    );
}

#[test]
fn curl_2d_is_divergence_free() {
    all::<2>([4, 6]);
}

#[test]
fn curl_3d_is_divergence_free() {
    all::<3>([3, 4, 5]);
}

#[test]
fn curl_is_the_documented_combination_of_potential_gradients() {
    let psi = Fractal::new(Noise::<2>::new(NoiseKind::Perlin, 1), fbm(3)).unwrap();
    let c2 = Curl::new(psi.clone());
    assert_eq!(c2.potentials(), &[psi]);
    for p in points::<2>(1, 200, 10.0) {
        let g = c2.potentials()[0].sample(p).gradient;
        assert_eq!(c2.get(p), [g[1], -g[0]]);
    }
    let psi = Fractal::new(Noise::<3>::new(NoiseKind::Simplex, 1), fbm(3)).unwrap();
    let c3 = Curl::new(psi.clone());
    let seeds: Vec<u64> = c3.potentials().iter().map(|f| f.noise().seed()).collect();
    assert!(seeds[0] != seeds[1] && seeds[1] != seeds[2] && seeds[0] != seeds[2]);
    assert!(!seeds.contains(&1));
    for p in points::<3>(2, 200, 10.0) {
        let g: Vec<[f64; 3]> = c3
            .potentials()
            .iter()
            .map(|f| f.sample(p).gradient)
            .collect();
        let want = [g[2][1] - g[1][2], g[0][2] - g[2][0], g[1][0] - g[0][1]];
        assert_eq!(c3.get(p), want);
    }
    let same = Curl::<3>::from_potentials([
        c3.potentials()[0].clone(),
        c3.potentials()[1].clone(),
        c3.potentials()[2].clone(),
    ]);
    assert_eq!(same, c3);
}
