//! What the graph examples share: writing an RGB picture as PNG, a colour
//! ramp, and the output path (the first argument, or a default name).

// Each example is its own crate and uses only part of this.
#![allow(dead_code)]

use std::fs::File;
use std::io::BufWriter;

/// The output path: the first command-line argument, or `default`.
pub fn out_path(default: &str) -> String {
    std::env::args()
        .nth(1)
        .unwrap_or_else(|| default.to_string())
}

/// Writes `rgb` (`width × height` pixels, 3 bytes each, rows top down).
pub fn write_png(
    path: &str,
    width: usize,
    height: usize,
    rgb: &[u8],
) -> Result<(), Box<dyn std::error::Error>> {
    let file = BufWriter::new(File::create(path)?);
    let mut enc = png::Encoder::new(file, width as u32, height as u32);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header()?.write_image_data(rgb)?;
    println!("wrote {path} ({width}×{height})");
    Ok(())
}

/// Linear interpolation through `(position, [r, g, b])` stops at `t` in
/// [0, 1].
pub fn ramp(stops: &[(f64, [f64; 3])], t: f64) -> [f64; 3] {
    let t = t.clamp(0.0, 1.0);
    for w in stops.windows(2) {
        let ((a, ca), (b, cb)) = (w[0], w[1]);
        if t <= b {
            let u = if b > a { (t - a) / (b - a) } else { 0.0 };
            return std::array::from_fn(|k| ca[k] + (cb[k] - ca[k]) * u);
        }
    }
    stops[stops.len() - 1].1
}

/// A colour in [0, 1] as bytes.
pub fn bytes(c: [f64; 3]) -> [u8; 3] {
    c.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8)
}
