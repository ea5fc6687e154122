//! The performance model of `BENCHMARKS.md`: the vector operations each
//! batch call performs per sample, counted on the eight-lane counting
//! backend ([`Count`]), which is what AVX2 would execute for `f32` if every
//! operation were one instruction and every constant stayed in a register.
//! The workloads are `bench/examples/instructions.rs`'s, so that the
//! table sits beside its callgrind counts:
//!
//! ```sh
//! cargo test -p surflet --lib model -- --nocapture
//! ```
//!
//! The counting backend computes every lane with the scalar path, so the
//! tests also check that an eight-lane backend, with the kernels' lane
//! sharing (2D simplex's corner table) taken, gives the scalar bits.

use crate::batch::{Source, Work};
use crate::prelude_internal::array_of;
use crate::simd::count::{Count, ticks};
use crate::{Fractal, FractalKind, FractalParams, Noise, NoiseKind};
use alloc::vec;
use alloc::vec::Vec;

/// Instructions' workloads: a grid of `side^D` points spaced `step` from
/// 0.01 on every axis, as one coordinate list per axis (x fastest).
fn axes<const D: usize>(side: usize, step: f32) -> [Vec<f32>; D] {
    core::array::from_fn(|_| (0..side).map(|i| 0.01 + step * i as f32).collect())
}

/// The same points as a point array.
fn points<const D: usize>(axes: &[Vec<f32>; D]) -> [Vec<f32>; D] {
    let side = axes[0].len();
    let n = side.pow(D as u32);
    core::array::from_fn(|a| {
        (0..n)
            .map(|i| axes[a][i / side.pow(a as u32) % side])
            .collect()
    })
}

/// Ticks a sample of `src`'s call on `work`, and its values.
fn run<const D: usize>(
    src: &impl Source<f32, D>,
    work: Work<'_, f32, D>,
    n: usize,
) -> (f64, Vec<f32>) {
    let mut out = vec![0f32; n];
    let before = ticks();
    src.run(Count::<f32>::new(), false, work, &mut [&mut out[..]]);
    ((ticks() - before) as f64 / n as f64, out)
}

/// A noise as a batch source on any backend.
struct NoiseSource<const D: usize>(Noise<D>);

impl<const D: usize> Source<f32, D> for NoiseSource<D> {
    fn run<S: crate::simd::Simd<E = f32>>(
        &self,
        s: S,
        grad: bool,
        work: Work<'_, f32, D>,
        outs: &mut [&mut [f32]],
    ) -> (f32, f32) {
        self.0.run_on(s, grad, work, outs)
    }
}

/// The model of one kind and dimension: (points, grid, 3-octave fBm grid)
/// ticks a sample; checks every value against the scalar path.
fn model<const D: usize>(kind: NoiseKind, side: usize, fbm_side: usize) -> [f64; 3] {
    let noise = Noise::<D>::new(kind, 1);
    let ax = axes::<D>(side, 0.03);
    let pts = points(&ax);
    let n = pts[0].len();
    let src = NoiseSource(noise);
    let (on_points, v) = run(&src, Work::Points(array_of(|a| &pts[a][..])), n);
    let grid = Work::Grid {
        axes: array_of(|a| &ax[a][..]),
        start: 0,
    };
    let (on_grid, g) = run(&src, grid, n);
    for i in 0..n {
        let want = noise.get(array_of(|a| pts[a][i]));
        assert_eq!(v[i].to_bits(), want.to_bits(), "{kind:?} {D}D point {i}");
        assert_eq!(g[i].to_bits(), want.to_bits(), "{kind:?} {D}D grid {i}");
    }
    // quick-noise's headline: 3 octaves at frequency 1/64, spacing 1.
    let params = FractalParams {
        octaves: 3,
        frequency: 1.0 / 64.0,
        ..FractalParams::new(FractalKind::Fbm)
    };
    let fbm = Fractal::new(noise, params).unwrap();
    let fax = axes::<D>(fbm_side, 1.0);
    let work = Work::Grid {
        axes: array_of(|a| &fax[a][..]),
        start: 0,
    };
    let (on_fbm, _) = run(fbm.program(), work, fbm_side.pow(D as u32));
    [on_points, on_grid, on_fbm]
}

#[test]
fn the_model() {
    let mut rows = Vec::new();
    for kind in [
        NoiseKind::Value,
        NoiseKind::Perlin,
        NoiseKind::Simplex,
        NoiseKind::OpenSimplex2,
        NoiseKind::OpenSimplex2S,
    ] {
        rows.push((kind, 2, model::<2>(kind, 512, 512)));
        rows.push((kind, 3, model::<3>(kind, 64, 64)));
    }
    std::println!("| noise | points | grid | 3-octave fBm grid |");
    std::println!("|---|--:|--:|--:|");
    for (kind, d, [p, g, f]) in &rows {
        std::println!("| {} {d}D | {p:.2} | {g:.2} | {f:.2} |", kind.name());
        // The band engine shares each band's columns between its rows, so
        // a value or Perlin grid needs fewer operations than its points.
        if matches!(kind, NoiseKind::Value | NoiseKind::Perlin) {
            assert!(g < p, "{kind:?} {d}D: grid {g} against points {p}");
        }
    }
    // 2D simplex points in a row share their corners: one hashing and one
    // decoding a vector, not three. The same points in an order that puts
    // each vector's lanes far apart (about 7.7 units in y) hash every
    // corner, and cost more.
    let noise = Noise::<2>::new(NoiseKind::Simplex, 1);
    let pts = points(&axes::<2>(512, 0.03));
    let n = pts[0].len();
    let far: [Vec<f32>; 2] =
        core::array::from_fn(|a| (0..n).map(|i| pts[a][i * 131_071 % n]).collect());
    let src = NoiseSource(noise);
    let (scattered, v) = run(&src, Work::Points(array_of(|a| &far[a][..])), n);
    for i in 0..n {
        let want = noise.get([far[0][i], far[1][i]]);
        assert_eq!(
            v[i].to_bits(),
            want.to_bits(),
            "simplex 2D scattered point {i}"
        );
    }
    let clustered = rows[4].2[0];
    std::println!("2D simplex points far apart: {scattered:.2} a sample");
    assert!(
        scattered > clustered + 2.0,
        "the corner table saves {} operations a sample",
        scattered - clustered
    );
}
