//! A small run of every backend for Miri (`cargo +nightly miri test --test
//! suite miri_smoke`, with `RUSTFLAGS="-C target-feature=+avx2"` to let Miri execute
//! the AVX2 path): all `unsafe` in surflet is SIMD intrinsics behind detection
//! tokens, and this exercises loads, stores, masks and the padded tail on a
//! handful of points, comparing every backend with the scalar path.

use surflet::Field;
use surflet::{Isa, Noise, NoiseKind};

#[test]
fn every_backend_matches_scalar_on_a_few_points() {
    let xs: Vec<f32> = (0..19).map(|i| i as f32 * 0.37 - 3.0).collect();
    let ys: Vec<f32> = (0..19)
        .map(|i| i as f32 * -0.23 + 1e9 * (i % 2) as f32)
        .collect();
    for kind in NoiseKind::ALL {
        let n = Noise::<2>::new(kind, 5);
        for isa in Isa::available() {
            let mut out = vec![0.0f32; xs.len()];
            let (mut gx, mut gy) = (vec![0.0f32; xs.len()], vec![0.0f32; xs.len()]);
            n.fill_on(isa, [&xs, &ys], &mut out, Some([&mut gx, &mut gy]))
                .unwrap();
            for i in 0..xs.len() {
                let s = n.sample([xs[i], ys[i]]);
                assert_eq!(s.value.to_bits(), out[i].to_bits(), "{kind} {isa:?} {i}");
                assert_eq!(s.gradient[0].to_bits(), gx[i].to_bits());
                assert_eq!(s.gradient[1].to_bits(), gy[i].to_bits());
            }
        }
    }
}
