//! A field of your own combined with surflet's: a radial island mask,
//! written as a type that implements `Field<2>` with its exact gradient,
//! multiplies an fBm (shifted up so the centre is land). The graph carries
//! the mask's gradient through the product, which the example checks
//! against central differences.
//!
//! `cargo run --release --example custom_field [OUT.png]`

mod common;

use surflet::prelude::*;

/// `1 − (r/R)²` inside radius `R` around the origin, 0 outside.
struct Island {
    radius: f64,
}

impl Field<2> for Island {
    fn sample<F: Float>(&self, p: [F; 2]) -> Sample<F, 2> {
        let r2 = F::from_f64(self.radius * self.radius);
        let d2 = p[0] * p[0] + p[1] * p[1];
        if d2 < r2 {
            let k = F::from_f64(-2.0) / r2;
            Sample {
                value: F::ONE - d2 / r2,
                gradient: [k * p[0], k * p[1]],
            }
        } else {
            Sample {
                value: F::ZERO,
                gradient: [F::ZERO; 2],
            }
        }
    }

    fn range(&self) -> (f64, f64) {
        (0.0, 1.0)
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let land = Graph::parse("fbm(simplex(seed=4, frequency=1.5), octaves=6) * 0.5 + 0.5")?;
    let island = Graph::custom("island", Island { radius: 2.0 }) * land - 0.15;
    let field = island.build::<2>()?;
    let (lo, hi) = field.range();
    println!("island * fbm - 0.15: derived range [{lo:.4}, {hi:.4}]");

    // The gradient through the product, against central differences.
    let (p, h) = ([0.7f64, -0.4], 1e-6);
    let s = field.sample(p);
    let fd = [
        (field.get([p[0] + h, p[1]]) - field.get([p[0] - h, p[1]])) / (2.0 * h),
        (field.get([p[0], p[1] + h]) - field.get([p[0], p[1] - h])) / (2.0 * h),
    ];
    println!(
        "gradient at {p:?}: analytic {:?}, central differences {fd:?}",
        s.gradient
    );

    let (w, hgt) = (384, 384);
    let grid = Grid::uniform([-2.2f32, -2.2], [4.4 / 384.0; 2], [w, hgt])?;
    let mut v = vec![0.0f32; grid.len()];
    field.grid(&grid, &mut v)?;
    let stops = [
        (0.0, [0.08, 0.20, 0.42]),
        (0.18, [0.25, 0.50, 0.70]),
        (0.19, [0.85, 0.80, 0.55]),
        (0.3, [0.30, 0.55, 0.25]),
        (0.6, [0.50, 0.45, 0.35]),
        (1.0, [1.0, 1.0, 1.0]),
    ];
    let rgb: Vec<u8> = v
        .iter()
        .flat_map(|&x| common::bytes(common::ramp(&stops, (f64::from(x) - lo) / (hi - lo))))
        .collect();
    common::write_png(&common::out_path("custom_field.png"), w, hgt, &rgb)
}
