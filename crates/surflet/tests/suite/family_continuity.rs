//! Continuity across cell and simplex boundaries.
//!
//! The test re-derives, independently of the library, which cell or simplex a
//! point lies in. It bisects random segments to a boundary crossing (to
//! 1e-13) and compares the noise at points 1e-9 either side: they must differ
//! by less than 1e-6. The same procedure applied to Gustavson's 2012 Java
//! simplex noise (radius² 0.6) finds its seams, which shows the test can fail
//! and that surflet's radius² 0.5 removed them.
//!
//! The gradient is continuous too (the noises are C², `docs/RANGES.md`): each
//! surflet vanishes with its first two derivatives on the opposite facet, and
//! the quintic fade of value and Perlin noise has zero first and second
//! derivatives at the cell faces. So the analytic gradient on the two sides of
//! every crossing must agree to within what the curvature moves it over the
//! 2·10⁻⁹ step.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use surflet::reference::{classic2005, perlin2002, simplex2012};
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
/// largest jump across them, `jump(before, after)` for the points `EPS` either
/// side, and how many crossings were tested.
fn worst_jump<const D: usize>(
    jump: impl Fn([f64; D], [f64; D]) -> f64,
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
        worst = worst.max(jump(at(lo - EPS), at(hi + EPS)));
        found += 1;
    }
    assert!(found >= crossings / 2, "only {found} crossings found");
    (worst, found)
}

/// The piece of the piecewise definition that `kind` (with or without a
/// period) uses at a point.
fn piece<const D: usize>(kind: NoiseKind, periodic: bool) -> impl Fn(&[f64]) -> Id {
    let simplex = matches!(kind, NoiseKind::Simplex | NoiseKind::SimplexValue);
    let open = matches!(kind, NoiseKind::OpenSimplex2 | NoiseKind::OpenSimplex2S);
    let f2 = (3f64.sqrt() - 1.0) / 2.0;
    let f4 = (5f64.sqrt() - 1.0) / 4.0;
    move |p: &[f64]| -> Id {
        if open {
            // 1D is the x axis of 2D; 3D is the BCC lattice turned by the
            // `ImproveXY` rotation.
            return match D {
                1 => skewed_id(&[p[0], 0.0], f2),
                2 => skewed_id(p, f2),
                3 => {
                    let (g, r) = ((3.0 - 3f64.sqrt()) / 6.0, 1.0 / 3f64.sqrt());
                    let xy = p[0] + p[1];
                    let q = [
                        p[0] - g * xy + r * p[2],
                        p[1] - g * xy + r * p[2],
                        (p[2] - xy) * r,
                    ];
                    bcc_id(&q)
                }
                _ => skewed_id(p, f4),
            };
        }
        match (simplex, D, periodic) {
            (false, _, _) | (true, 1, _) => hypercube_id(p),
            (true, 2, false) => skewed_id(p, f2),
            (true, 2, true) => hex_id(p),
            (true, 3, _) => bcc_id(p),
            _ => skewed_id(p, f4),
        }
    }
}

/// Whether `kind` tiles in `D` dimensions (the periodic checks skip the
/// kinds that do not).
fn tiles<const D: usize>(kind: NoiseKind, period: Option<[u32; D]>) -> bool {
    period.is_none() || kind.periodic_dims().contains(&D)
}

fn noise<const D: usize>(kind: NoiseKind, period: Option<[u32; D]>) -> Noise<D> {
    let noise = Noise::<D>::new(kind, 11);
    match period {
        Some(p) => noise.with_period(p).unwrap(),
        None => noise,
    }
}

fn check<const D: usize>(kind: NoiseKind, period: Option<[u32; D]>) {
    if !tiles(kind, period) {
        return;
    }
    let noise = noise(kind, period);
    let id = piece::<D>(kind, period.is_some());
    let (worst, n) = worst_jump::<D>(|a, b| (noise.get(a) - noise.get(b)).abs(), id, 3, 2000);
    println!("{kind} {D}D period {period:?}: {n} crossings, largest jump {worst:.2e}");
    assert!(
        worst < 1e-6,
        "{kind} {D}D: jump {worst:e} across a boundary"
    );
}

/// The largest change of any gradient component across a crossing. Away from
/// boundaries it moves by |Hessian| · 2·10⁻⁹; a C¹ break would move it by the
/// size of the gradient itself (order 1 to 10).
fn check_gradient<const D: usize>(kind: NoiseKind, period: Option<[u32; D]>) -> f64 {
    if !tiles(kind, period) {
        return 0.0;
    }
    let noise = noise(kind, period);
    let id = piece::<D>(kind, period.is_some());
    let jump = |a: [f64; D], b: [f64; D]| {
        let (ga, gb) = (noise.sample(a).gradient, noise.sample(b).gradient);
        (0..D).map(|k| (ga[k] - gb[k]).abs()).fold(0.0, f64::max)
    };
    let (worst, n) = worst_jump::<D>(jump, id, 4, 2000);
    println!("{kind} {D}D period {period:?}: {n} crossings, largest gradient jump {worst:.2e}");
    assert!(
        worst < GRADIENT_JUMP,
        "{kind} {D}D period {period:?}: gradient jumps by {worst:e} across a boundary"
    );
    worst
}

/// Measured: at most 6.3e-8 (2D simplex noise; the curvature over the
/// 2·10⁻⁹ step), 2e-8 typical; a broken first derivative jumps by far more.
const GRADIENT_JUMP: f64 = 5e-7;

#[test]
fn gradient_continuous_across_cells_and_simplices() {
    for kind in NoiseKind::ALL {
        check_gradient::<1>(kind, None);
        check_gradient::<2>(kind, None);
        check_gradient::<3>(kind, None);
        check_gradient::<4>(kind, None);
        check_gradient::<1>(kind, Some([5]));
        check_gradient::<2>(kind, Some([5, 6]));
        check_gradient::<3>(kind, Some([5, 6, 7]));
    }
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
    let f3 = |p: [f64; 3]| simplex2012::noise3(p[0], p[1], p[2]);
    let (worst3, n3) = worst_jump::<3>(|a, b| (f3(a) - f3(b)).abs(), id3, 5, 2000);
    let id4 = |p: &[f64]| skewed_id(p, (5f64.sqrt() - 1.0) / 4.0);
    let f4 = |p: [f64; 4]| simplex2012::noise4(p[0], p[1], p[2], p[3]);
    let (worst4, n4) = worst_jump::<4>(|a, b| (f4(a) - f4(b)).abs(), id4, 5, 2000);
    println!("simplex2012-java 3D: {n3} crossings, largest jump {worst3:.2e}");
    println!("simplex2012-java 4D: {n4} crossings, largest jump {worst4:.2e}");
    assert!(worst3 > 1e-4 && worst4 > 1e-4);
}

/// Largest jump, across a crossing found as in `worst_jump`, of the
/// directional derivative along the segment: analytic (`Some`, the family) and
/// from one-sided difference quotients that stay on each side (every row; the
/// only way to see the references' gradients, which they do not return).
fn directional_jumps<const D: usize>(
    f: impl Fn([f64; D]) -> f64,
    grad: Option<&dyn Fn([f64; D]) -> [f64; D]>,
    id: impl Fn(&[f64]) -> Id,
) -> (usize, Option<f64>, f64) {
    const DELTA: f64 = 1e-6;
    let mut rng = SmallRng::seed_from_u64(9);
    let (mut found, mut analytic, mut quotient) = (0, 0.0f64, 0.0f64);
    while found < 2000 {
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
        let (t0, t1) = (lo - EPS, hi + EPS);
        // Each quotient steps away from the crossing, so both stay in their
        // own piece unless another face is within DELTA (rare; it could only
        // make a smooth row look rough, never hide a jump).
        let before = (f(at(t0)) - f(at(t0 - DELTA))) / DELTA;
        let after = (f(at(t1 + DELTA)) - f(at(t1))) / DELTA;
        quotient = quotient.max((after - before).abs());
        if let Some(g) = grad {
            let dot = |p: [f64; D]| g(p).iter().zip(&u).map(|(x, y)| x * y).sum::<f64>();
            analytic = analytic.max((dot(at(t1)) - dot(at(t0))).abs());
        }
        found += 1;
    }
    (found, grad.map(|_| analytic), quotient)
}

/// The gradient-continuity table of `docs/QUALITY.md`: every family noise
/// across its cell and simplex faces, and the references with radius² 0.6
/// (Gustavson's 2012 Java simplex noise in 3D and 4D; its 2D uses 0.5) and
/// the classic and improved Perlin noise of the seed documents. Run with
/// `cargo test -p surflet --test suite family_continuity::gradient_jump_table
/// -- --ignored --nocapture` (the test profile is optimised).
#[test]
#[ignore = "prints a table for docs/QUALITY.md"]
fn gradient_jump_table() {
    fn family<const D: usize>(kind: NoiseKind) {
        let n = Noise::<D>::new(kind, 11);
        let g = |p: [f64; D]| n.sample(p).gradient;
        let (found, analytic, quotient) =
            directional_jumps::<D>(|p| n.get(p), Some(&g), piece::<D>(kind, false));
        println!(
            "| {kind} | {D}D | {found} | {:.1e} | {quotient:.1e} |",
            analytic.unwrap()
        );
    }
    fn reference<const D: usize>(
        name: &str,
        f: impl Fn([f64; D]) -> f64,
        id: impl Fn(&[f64]) -> Id,
    ) {
        let (found, _, quotient) = directional_jumps::<D>(f, None, id);
        println!("| {name} | {D}D | {found} | – | {quotient:.1e} |");
    }
    println!("| noise | dim | crossings | analytic gradient | one-sided quotients |");
    println!("|---|---|--:|--:|--:|");
    for kind in NoiseKind::ALL {
        family::<1>(kind);
        family::<2>(kind);
        family::<3>(kind);
        family::<4>(kind);
    }
    let (f2, f4) = ((3f64.sqrt() - 1.0) / 2.0, (5f64.sqrt() - 1.0) / 4.0);
    reference::<2>(
        "simplex2012-java (r² 0.5)",
        |p| simplex2012::noise2(p[0], p[1]),
        |p| skewed_id(p, f2),
    );
    reference::<3>(
        "simplex2012-java (r² 0.6)",
        |p| simplex2012::noise3(p[0], p[1], p[2]),
        |p| skewed_id(p, 1.0 / 3.0),
    );
    reference::<4>(
        "simplex2012-java (r² 0.6)",
        |p| simplex2012::noise4(p[0], p[1], p[2], p[3]),
        |p| skewed_id(p, f4),
    );
    reference::<3>(
        "classic2005-java (fade 3t² − 2t³)",
        |p| classic2005::noise3(p[0], p[1], p[2]),
        hypercube_id,
    );
    reference::<3>(
        "perlin2002-java (improved)",
        |p| perlin2002::noise(p[0], p[1], p[2]),
        hypercube_id,
    );
}
