//! A 3D density field for caves: tunnels run where two independent Perlin
//! noises are both near zero (the intersection of two surfaces is a curve,
//! so the air forms tubes), widened by a third noise. The example fills a
//! 96³ block with one grid call, reports how much of it is air, and draws
//! four horizontal slices.
//!
//! `cargo run --release --example caves [OUT.png]`

mod common;

use surflet::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Below 0 is air.
    let density = Graph::parse(
        "max(abs(perlin(seed=1, frequency=0.06)), abs(perlin(seed=2, frequency=0.06))) \
         - 0.06 - 0.04 * fbm(simplex(seed=3, frequency=0.15), octaves=2)",
    )?;
    println!("{density}");
    let field = density.build::<3>()?;
    let (lo, hi) = field.range();
    println!("derived range: [{lo:.4}, {hi:.4}]");

    let n = 96;
    let grid = Grid::uniform([0.0f32; 3], [1.0; 3], [n, n, n])?;
    let mut d = vec![0.0f32; grid.len()];
    let b = field.grid(&grid, &mut d)?;
    let air = d.iter().filter(|&&v| v < 0.0).count();
    println!(
        "measured range [{:.4}, {:.4}]; air: {air} of {} voxels ({:.1}%)",
        b.min,
        b.max,
        d.len(),
        100.0 * air as f64 / d.len() as f64
    );

    // Four slices side by side: air dark, rock shaded by its density.
    let (w, h) = (4 * n, n);
    let mut rgb = vec![0u8; w * h * 3];
    for (s, z) in [10, 35, 60, 85].into_iter().enumerate() {
        for y in 0..n {
            for x in 0..n {
                let v = f64::from(d[x + n * (y + n * z)]);
                let c = if v < 0.0 {
                    [0.08, 0.06, 0.05]
                } else {
                    let t = (v / hi).sqrt();
                    [0.45 + 0.4 * t, 0.38 + 0.35 * t, 0.30 + 0.3 * t]
                };
                let k = 3 * (s * n + x + w * y);
                rgb[k..k + 3].copy_from_slice(&common::bytes(c));
            }
        }
    }
    common::write_png(&common::out_path("caves.png"), w, h, &rgb)
}
