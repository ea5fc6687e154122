//! Ranges are measured, not assumed.
//!
//! For every noise and dimension: the largest |value| over 10^7 uniform random
//! points, then a local maximisation (gradient ascent on |value|, using the
//! analytic gradient) from the 64 best points, then a probe of the `f32`
//! neighbourhood of the best maximum. Every result must be ≤ 1, and all
//! three must equal this kind's figures in the table of `docs/RANGES.md`
//! to within `MARGIN`, either way, so a change that shrinks or grows a range
//! fails, and so does a document that no longer says what is measured. The measurement is deterministic (fixed seeds,
//! and every backend returns the same bits), so the margin covers only the
//! six-digit rounding of the table and last-bit changes of the arithmetic.
//!
//! `cargo test -p surflet --test suite family_range:: -- --nocapture` prints the table that
//! `docs/RANGES.md` quotes.

use surflet::Field;
use surflet::{Noise, NoiseKind};

const POINTS: usize = 10_000_000;

/// The table of `docs/RANGES.md` ("Measured"): per kind and dimension, the
/// largest |value| over the 10⁷ points, the local maximum and the `f32`
/// maximum near it. The test measures each again and asserts all three
/// within `MARGIN` of the document's figures, either way, so the document
/// is what is tested. Cellular noise's ranges depend on its options; they
/// are derived and measured per option in tests/suite/cellular.rs.
///
/// 4D Perlin noise is normalised by its exact supremum, 1.53658 over all
/// assignments of the 32 edge gradients. Reaching it needs all 16 corners of a
/// cell to point near the optimum (odds near 8^-16), so over 10^7 cells the
/// maximum found is about 0.82 of it. Normalising by a smaller number would
/// let rare cells exceed 1, which a documented range must not allow. The 1D
/// noises reach 0.979 because both end gradients must be near ±1.
fn measured(kind: NoiseKind, d: usize) -> [f64; 3] {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/RANGES.md");
    let doc = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let table = &doc[doc
        .find("| noise | D | 10⁷ points | local max | f32 near max |")
        .expect("the table")..];
    let row = table
        .lines()
        .map(|l| l.split('|').map(str::trim).collect::<Vec<_>>())
        .find(|c| c.len() == 7 && c[1] == kind.name() && c[2] == d.to_string())
        .unwrap_or_else(|| panic!("docs/RANGES.md has no row for {kind} {d}D"));
    core::array::from_fn(|i| row[3 + i].parse().unwrap())
}

/// How far from its documented figure a maximum may be: the printed
/// rounding (5e-7) plus room for last-bit changes, far below any change of
/// scale or gradient set (the margin of `kernel::MARGIN` alone is 3.8e-6 of
/// the value; a lost factor like √2 or a gradient set that cannot reach the
/// bound costs 10^-3 or more).
const MARGIN: f64 = 1e-5;

/// SplitMix64, so the measurement is reproducible.
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

/// Climbs |value| from `p` by normalised gradient ascent with an adaptive
/// step; returns the best point.
fn climb<const D: usize>(noise: &Noise<D>, mut p: [f64; D]) -> [f64; D] {
    let mut best = noise.get(p).abs();
    let mut step = 1e-2;
    for _ in 0..20_000 {
        let s = noise.sample(p);
        let norm = s.gradient.iter().map(|g| g * g).sum::<f64>().sqrt();
        if norm == 0.0 {
            break;
        }
        let q: [f64; D] =
            core::array::from_fn(|a| p[a] + step * s.value.signum() * s.gradient[a] / norm);
        let v = noise.get(q).abs();
        if v > best {
            best = v;
            p = q;
            step *= 1.5;
        } else {
            step *= 0.5;
            if step < 1e-15 {
                break;
            }
        }
    }
    p
}

struct Measured {
    sampled: f64,
    climbed: f64,
    f32_near_max: f64,
}

fn measure<const D: usize>(kind: NoiseKind) -> Measured {
    let noise = Noise::<D>::new(kind, 1);
    let mut rng = Rng(0xDE05E + D as u64);
    let chunk = 1 << 16;
    let mut coords = vec![vec![0.0f64; chunk]; D];
    let mut out = vec![0.0f64; chunk];
    let mut best: Vec<(f64, [f64; D])> = Vec::new();
    let mut sampled = 0.0f64;
    let mut done = 0;
    while done < POINTS {
        let m = chunk.min(POINTS - done);
        for c in coords.iter_mut() {
            for v in c[..m].iter_mut() {
                *v = -1000.0 + 2000.0 * rng.next();
            }
        }
        let refs: [&[f64]; D] = core::array::from_fn(|a| &coords[a][..m]);
        noise.fill(refs, &mut out[..m]).unwrap();
        for (i, v) in out[..m].iter().enumerate() {
            let v = v.abs();
            sampled = sampled.max(v);
            if best.len() < 64 || v > best[best.len() - 1].0 {
                best.push((v, core::array::from_fn(|a| coords[a][i])));
                best.sort_by(|a, b| b.0.total_cmp(&a.0));
                best.truncate(64);
            }
        }
        done += m;
    }
    let mut climbed = sampled;
    let mut argmax = best[0].1;
    for (_, p) in &best {
        let q = climb(&noise, *p);
        let v = noise.get(q).abs();
        if v > climbed {
            climbed = v;
            argmax = q;
        }
    }
    // f32 rounds differently: probe the f32 grid around the maximum.
    let centre = argmax.map(|v| v as f32);
    let mut f32_near_max = 0.0f64;
    for _ in 0..20_000 {
        let q: [f32; D] = core::array::from_fn(|a| {
            let k = (rng.next() * 400.0) as i32 - 200;
            f32::from_bits((centre[a].to_bits() as i32 + k) as u32)
        });
        f32_near_max = f32_near_max.max(noise.get(q).abs() as f64);
    }
    Measured {
        sampled,
        climbed,
        f32_near_max,
    }
}

fn check<const D: usize>(kind: NoiseKind) {
    let m = measure::<D>(kind);
    println!(
        "| {kind} | {D} | {:.6} | {:.6} | {:.7} |",
        m.sampled, m.climbed, m.f32_near_max
    );
    for (what, v) in [
        ("sampled", m.sampled),
        ("climbed", m.climbed),
        ("f32", m.f32_near_max),
    ] {
        assert!(v <= 1.0, "{kind} {D}D: {what} max |value| {v:?} exceeds 1");
    }
    let doc = measured(kind, D);
    for (what, v, want) in [
        ("max |value| of the 10^7 points", m.sampled, doc[0]),
        ("local max |value|", m.climbed, doc[1]),
        ("f32 max |value|", m.f32_near_max, doc[2]),
    ] {
        assert!(
            (v - want).abs() <= MARGIN,
            "{kind} {D}D: {what} {v} is not docs/RANGES.md's {want} (within {MARGIN})"
        );
    }
}

fn all(kind: NoiseKind) {
    check::<1>(kind);
    check::<2>(kind);
    check::<3>(kind);
    check::<4>(kind);
}

#[test]
fn range_value() {
    all(NoiseKind::Value);
}

#[test]
fn range_perlin() {
    all(NoiseKind::Perlin);
}

#[test]
fn range_simplex() {
    all(NoiseKind::Simplex);
}

#[test]
fn range_simplex_value() {
    all(NoiseKind::SimplexValue);
}

#[test]
fn range_opensimplex2() {
    all(NoiseKind::OpenSimplex2);
}

#[test]
fn range_opensimplex2s() {
    all(NoiseKind::OpenSimplex2S);
}

#[test]
fn range_value_cubic() {
    all(NoiseKind::ValueCubic);
}
