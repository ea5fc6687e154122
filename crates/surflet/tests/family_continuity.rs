//! Continuity across cell and simplex boundaries.
//!
//! The test re-derives, independently of the library, which cell or simplex a
//! point lies in. It bisects random segments to a boundary crossing (to
//! 1e-13) and compares the noise at points 1e-9 either side: they must differ
//! by less than 1e-6. The same procedure applied to Gustavson's 2012 Java
//! simplex noise (radius² 0.6) finds its seams, which shows the test can fail
//! and that surflet's radius² 0.5 removed them.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use surflet::reference::simplex2012;
use surflet::{Noise, NoiseKind};

const EPS: f64 = 1e-9;

/// Identity of the cell or simplex containing a point: equal ids mean the
/// same piece of the piecewise definition.
type Id = Vec<i64>;

fn hypercube_id(p: &[f64]) -> Id {
    p.iter().map(|v| v.floor() as i64).collect()
}

/// Cell of a skewed lattice plus the rank order of the fractions.
fn skewed_id(p: &[f64], skew: f64) -> Id {
    let s: f64 = p.iter().sum::<f64>() * skew;
    let q: Vec<f64> = p.iter().map(|v| v + s).collect();
    ranked(&q)
}

fn ranked(q: &[f64]) -> Id {
    let mut id: Id = q.iter().map(|v| v.floor() as i64).collect();
    let f: Vec<f64> = q.iter().map(|v| v - v.floor()).collect();
    for a in 0..f.len() {
        for b in (a + 1)..f.len() {
            id.push((f[a] > f[b]) as i64);
        }
    }
    id
}

fn bcc_id(p: &[f64]) -> Id {
    ranked(&[p[1] + p[2], p[0] + p[2], p[0] + p[1]])
}

fn hex_id(p: &[f64]) -> Id {
    ranked(&[p[0] + 0.5 * p[1], p[1]])
}

/// Finds boundary crossings along random short segments and returns the
/// largest jump across them, and how many crossings were tested.
fn worst_jump<const D: usize>(
    f: impl Fn([f64; D]) -> f64,
    id: impl Fn(&[f64]) -> Id,
    seed: u64,
    crossings: usize,
) -> (f64, usize) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut worst = 0.0f64;
    let mut found = 0;
    let mut tries = 0;
    while found < crossings && tries < crossings * 20 {
        tries += 1;
        let a: [f64; D] = core::array::from_fn(|_| rng.random_range(-20.0..20.0));
        let dir: [f64; D] = core::array::from_fn(|_| rng.random_range(-1.0..1.0));
        let norm = dir.iter().map(|v| v * v).sum::<f64>().sqrt();
        let u: [f64; D] = core::array::from_fn(|k| dir[k] / norm);
        let at = |t: f64| -> [f64; D] { core::array::from_fn(|k| a[k] + t * u[k]) };
        let (mut lo, mut hi) = (0.0, 0.25);
        let id_lo = id(&at(lo));
        if id(&at(hi)) == id_lo {
            continue;
        }
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if id(&at(mid)) == id_lo {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let jump = (f(at(lo - EPS)) - f(at(hi + EPS))).abs();
        worst = worst.max(jump);
        found += 1;
    }
    assert!(found >= crossings / 2, "only {found} crossings found");
    (worst, found)
}

fn check<const D: usize>(kind: NoiseKind, period: Option<[u32; D]>) {
    let mut noise = Noise::<D>::new(kind, 11);
    if let Some(p) = period {
        noise = noise.with_period(p).unwrap();
    }
    let simplex = matches!(kind, NoiseKind::Simplex | NoiseKind::SimplexValue);
    let id = |p: &[f64]| -> Id {
        match (simplex, D, period.is_some()) {
            (false, _, _) | (true, 1, _) => hypercube_id(p),
            (true, 2, false) => skewed_id(p, (3f64.sqrt() - 1.0) / 2.0),
            (true, 2, true) => hex_id(p),
            (true, 3, _) => bcc_id(p),
            _ => skewed_id(p, (5f64.sqrt() - 1.0) / 4.0),
        }
    };
    let (worst, n) = worst_jump::<D>(|p| noise.get(p), id, 3, 2000);
    println!("{kind} {D}D period {period:?}: {n} crossings, largest jump {worst:.2e}");
    assert!(
        worst < 1e-6,
        "{kind} {D}D: jump {worst:e} across a boundary"
    );
}

#[test]
fn continuous_across_cells_and_simplices() {
    for kind in NoiseKind::ALL {
        check::<1>(kind, None);
        check::<2>(kind, None);
        check::<3>(kind, None);
        check::<4>(kind, None);
        check::<1>(kind, Some([5]));
        check::<2>(kind, Some([5, 6]));
        check::<3>(kind, Some([5, 6, 7]));
    }
}

/// The negative control: the same search finds the seams of the reference
/// Java simplex noise, whose radius² 0.6 reaches past the simplex faces.
#[test]
fn the_search_finds_the_seams_of_radius_0_6() {
    let id3 = |p: &[f64]| skewed_id(p, 1.0 / 3.0);
    let (worst3, n3) = worst_jump::<3>(|p| simplex2012::noise3(p[0], p[1], p[2]), id3, 5, 2000);
    let id4 = |p: &[f64]| skewed_id(p, (5f64.sqrt() - 1.0) / 4.0);
    let (worst4, n4) = worst_jump::<4>(
        |p| simplex2012::noise4(p[0], p[1], p[2], p[3]),
        id4,
        5,
        2000,
    );
    println!("simplex2012-java 3D: {n3} crossings, largest jump {worst3:.2e}");
    println!("simplex2012-java 4D: {n4} crossings, largest jump {worst4:.2e}");
    assert!(worst3 > 1e-4 && worst4 > 1e-4);
}
