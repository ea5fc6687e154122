//! Cost of `NoiseNd` against the dimension: Msamples/s of `fill` (values
//! only, one thread's worth of points, the detected instruction set) for
//! every kind and D = 1..8, in f32 and f64.
//!
//! `cd bench && cargo run --release --example nd_cost [POINTS]` (default
//! 2^16). Here, in the benchmark harness, rather than among the library's
//! examples: `cargo test` builds every example, and this one instantiates
//! every N-D kernel again (70 s of the test build on 2 cores).
//! Prints one tab-separated line per (kind, D, precision).

use std::time::Instant;
use surflet::Field;
use surflet::Float;
use surflet::nd::{NdKind, NoiseNd};

fn time<F: Float, const D: usize>(kind: NdKind, n: usize) {
    let noise = NoiseNd::<D>::new(kind, 1);
    let coords: Vec<Vec<F>> = (0..D)
        .map(|a| {
            (0..n)
                .map(|i| F::from_f64(((i * (2 * a + 3)) % 4099) as f64 * 0.173 - 300.0))
                .collect()
        })
        .collect();
    let refs: [&[F]; D] = core::array::from_fn(|a| coords[a].as_slice());
    let mut out = vec![F::ZERO; n];
    noise.fill(refs, &mut out).expect("lengths match");
    // Repeat until at least 0.2 s has passed, so that short runs are timed
    // with a usable resolution.
    let start = Instant::now();
    let mut reps = 0u32;
    while start.elapsed().as_secs_f64() < 0.2 {
        noise.fill(refs, &mut out).expect("lengths match");
        reps += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    let rate = n as f64 * f64::from(reps) / secs / 1e6;
    println!("{kind}\t{D}\t{}\t{rate:.2} Msamples/s", F::NAME);
}

fn each<F: Float>(kind: NdKind, n: usize) {
    time::<F, 1>(kind, n);
    time::<F, 2>(kind, n);
    time::<F, 3>(kind, n);
    time::<F, 4>(kind, n);
    time::<F, 5>(kind, n);
    time::<F, 6>(kind, n);
    time::<F, 7>(kind, n);
    time::<F, 8>(kind, n);
}

fn main() {
    let n = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1 << 16);
    println!(
        "# kind\tD\tprecision\trate ({})",
        surflet::Isa::detect().name()
    );
    for kind in NdKind::ALL {
        each::<f32>(kind, n);
        each::<f64>(kind, n);
    }
}
