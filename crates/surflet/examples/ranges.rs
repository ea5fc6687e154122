//! Measures the range of every noise in every dimension: the largest |value|
//! over 10^7 uniform random points, then a local maximisation (gradient
//! ascent on |value| with the analytic gradient) from the 64 best of them.
//!
//! `cargo run --release --example ranges` prints the table in docs/RANGES.md.

use surflet::{Noise, NoiseKind};

/// SplitMix64, so the measurement is reproducible without dependencies.
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

/// Climbs |value| from `p` by gradient ascent with step halving.
fn climb<const D: usize>(noise: &Noise<D>, mut p: [f64; D]) -> f64 {
    let mut best = noise.get(p).abs();
    let mut step = 1e-2;
    for _ in 0..20_000 {
        let s = noise.sample(p);
        let sign = s.value.signum();
        let norm = s.gradient.iter().map(|g| g * g).sum::<f64>().sqrt();
        if norm == 0.0 {
            break;
        }
        let q: [f64; D] = core::array::from_fn(|a| p[a] + step * sign * s.gradient[a] / norm);
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
    best
}

fn measure<const D: usize>(kind: NoiseKind, n: usize, seed: u64) -> (f64, f64) {
    let noise = Noise::<D>::new(kind, seed);
    let mut rng = Rng(0xDE05E + D as u64);
    let chunk = 1 << 16;
    let mut best: Vec<(f64, [f64; D])> = Vec::new();
    let mut coords = vec![vec![0.0f64; chunk]; D];
    let mut out = vec![0.0f64; chunk];
    let mut done = 0;
    let mut max = 0.0f64;
    while done < n {
        let m = chunk.min(n - done);
        for c in coords.iter_mut() {
            for v in c[..m].iter_mut() {
                *v = -1000.0 + 2000.0 * rng.next();
            }
        }
        let refs: [&[f64]; D] = core::array::from_fn(|a| &coords[a][..m]);
        noise.fill(refs, &mut out[..m]).unwrap();
        for i in 0..m {
            let v = out[i].abs();
            max = max.max(v);
            if best.len() < 64 || v > best[best.len() - 1].0 {
                best.push((v, core::array::from_fn(|a| coords[a][i])));
                best.sort_by(|a, b| b.0.total_cmp(&a.0));
                best.truncate(64);
            }
        }
        done += m;
    }
    let climbed = best
        .iter()
        .map(|(_, p)| climb(&noise, *p))
        .fold(max, f64::max);
    (max, climbed)
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000_000);
    println!("| noise | D | max over {n} points | after local maximisation |");
    println!("|---|---|---|---|");
    for kind in NoiseKind::ALL {
        let rows = [
            measure::<1>(kind, n, 1),
            measure::<2>(kind, n, 1),
            measure::<3>(kind, n, 1),
            measure::<4>(kind, n, 1),
        ];
        for (d, (m, c)) in rows.iter().enumerate() {
            println!(
                "| {} | {} | {:.7} | {:.7} | {:?} |",
                kind.name(),
                d + 1,
                m,
                c,
                c
            );
        }
    }
}
