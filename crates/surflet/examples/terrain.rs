//! A terrain with selected mountains: ridged mountains where a slow mask is
//! high, rolling fBm lowlands elsewhere, blended over a smooth falloff, then
//! lit by its analytic normals (no finite differences).
//!
//! `cargo run --release --example terrain [OUT.png]`

mod common;

use surflet::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let graph = Graph::parse(
        "select(fbm(simplex(seed=1, frequency=1.5), octaves=6) * 0.25 - 0.25, \
                ridged(perlin(seed=2, frequency=2), octaves=6) * 0.9, \
                control=fbm(perlin(seed=3, frequency=0.4), octaves=3), \
                threshold=0.05, falloff=0.25)",
    )?;
    println!("{graph}");
    let field = graph.build::<2>()?;
    let (lo, hi) = field.range();
    println!("derived range: [{lo:.4}, {hi:.4}]");

    let (w, h) = (512, 512);
    let grid = Grid::uniform([0.0f32; 2], [1.0 / 128.0; 2], [w, h])?;
    let mut height = vec![0.0f32; grid.len()];
    let (mut dx, mut dy) = (vec![0.0f32; grid.len()], vec![0.0f32; grid.len()]);
    let b = field.grid_gradient(&grid, &mut height, [&mut dx, &mut dy])?;
    println!("measured range: [{:.4}, {:.4}]", b.min, b.max);

    let stops = [
        (0.0, [0.10, 0.22, 0.45]),
        (0.42, [0.20, 0.45, 0.65]),
        (0.45, [0.85, 0.80, 0.55]),
        (0.50, [0.30, 0.55, 0.25]),
        (0.70, [0.45, 0.40, 0.32]),
        (0.85, [0.92, 0.92, 0.95]),
        (1.0, [1.0, 1.0, 1.0]),
    ];
    // Light from the north-west; heights exaggerated 0.4× for the normals.
    let light = {
        let l = [-1.0f64, -1.0, 1.5];
        let n = (l[0] * l[0] + l[1] * l[1] + l[2] * l[2]).sqrt();
        l.map(|v| v / n)
    };
    let mut rgb = Vec::with_capacity(w * h * 3);
    for i in 0..grid.len() {
        let t = (f64::from(height[i]) - lo) / (hi - lo);
        let (gx, gy) = (0.4 * f64::from(dx[i]), 0.4 * f64::from(dy[i]));
        let n = (gx * gx + gy * gy + 1.0).sqrt();
        let shade = ((-gx * light[0] - gy * light[1] + light[2]) / n).max(0.0);
        let c = common::ramp(&stops, t).map(|v| v * (0.35 + 0.65 * shade));
        rgb.extend(common::bytes(c));
    }
    common::write_png(&common::out_path("terrain.png"), w, h, &rgb)
}
