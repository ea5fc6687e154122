//! Marble by displacement: the zero crossings of a slow Perlin noise become
//! thin veins (`pow(1 − |n|, 12)`), and two fBm fields displace the plane
//! before it is sampled, so the veins swirl.
//!
//! `cargo run --release --example marble [OUT.png]`

mod common;

use surflet::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let veins = Graph::parse("pow(1 - abs(perlin(seed=1, frequency=0.9)), 16)")?;
    let swirl = |seed: u64| {
        Graph::parse(&format!(
            "fbm(simplex(seed={seed}, frequency=0.7), octaves=5) * 0.45"
        ))
    };
    let marble = veins.displace(vec![swirl(2)?, swirl(3)?]);
    println!("{marble}");
    let field = marble.build::<2>()?;
    let (lo, hi) = field.range();
    println!("derived range: [{lo:.4}, {hi:.4}]");

    let (w, h) = (512, 384);
    let grid = Grid::uniform([0.0f64; 2], [1.0 / 96.0; 2], [w, h])?;
    let mut v = vec![0.0; grid.len()];
    field.grid(&grid, &mut v)?;
    let stops = [
        (0.0, [0.93, 0.91, 0.86]),
        (0.35, [0.85, 0.83, 0.80]),
        (0.75, [0.45, 0.45, 0.50]),
        (1.0, [0.15, 0.15, 0.20]),
    ];
    let rgb: Vec<u8> = v
        .iter()
        .flat_map(|&x| common::bytes(common::ramp(&stops, (x - lo) / (hi - lo))))
        .collect();
    common::write_png(&common::out_path("marble.png"), w, h, &rgb)
}
