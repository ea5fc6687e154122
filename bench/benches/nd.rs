//! The cost of N-dimensional noise against the dimension (issue 13,
//! `docs/QUALITY.md`): ns per sample of `surflet::nd::NoiseNd::<D>::fill`
//! for simplex, Perlin and value noise, D = 1..8, f32, one thread, the
//! default dispatch (the widest instruction set of the CPU).
//!
//! `cargo bench --bench nd` (from `bench/`); `python3 nd_fit.py` then
//! prints the table and the fits of docs/QUALITY.md from criterion's
//! results.
//!
//! The points are the same in every dimension: 2^14 of them, coordinate
//! `a` of point `i` at `((i·(2a + 3)) mod 4099)·0.173 − 300`, spread over
//! many cells so that no lattice data stays in a register by luck.

use criterion::{BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use surflet::Field;
use surflet::nd::{NdKind, NoiseNd};

const POINTS: usize = 1 << 14;

fn coords(d: usize) -> Vec<Vec<f32>> {
    (0..d)
        .map(|a| {
            (0..POINTS)
                .map(|i| ((i * (2 * a + 3)) % 4099) as f32 * 0.173 - 300.0)
                .collect()
        })
        .collect()
}

fn one<const D: usize>(c: &mut Criterion, kind: NdKind) {
    let noise = NoiseNd::<D>::new(kind, 1);
    let xs = coords(D);
    let refs: [&[f32]; D] = core::array::from_fn(|a| xs[a].as_slice());
    let mut out = vec![0.0f32; POINTS];
    let mut g = c.benchmark_group(format!("nd {kind}"));
    g.throughput(Throughput::Elements(POINTS as u64));
    g.bench_function(BenchmarkId::from_parameter(D), |b| {
        b.iter(|| {
            noise
                .fill(black_box(refs), &mut out)
                .expect("lengths match");
            black_box(&out);
        })
    });
    g.finish();
}

fn each(c: &mut Criterion, kind: NdKind) {
    one::<1>(c, kind);
    one::<2>(c, kind);
    one::<3>(c, kind);
    one::<4>(c, kind);
    one::<5>(c, kind);
    one::<6>(c, kind);
    one::<7>(c, kind);
    one::<8>(c, kind);
}

fn main() {
    // surflet's batch calls run on the current rayon pool: one thread.
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global()
        .expect("the global pool is built once");
    let mut c = Criterion::default()
        .configure_from_args()
        .warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_secs(1));
    for kind in [NdKind::Simplex, NdKind::Perlin, NdKind::Value] {
        each(&mut c, kind);
    }
    c.final_summary();
}
