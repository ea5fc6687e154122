//! Noise images for the gallery: grey and colour-ramped panels, and sheets
//! of labelled panels side by side.
//!
//! Pixels follow `surflet render`'s conventions exactly (pixel `i` samples
//! `x = (i·F)/N` at its top-left corner, values map through `[-1, 1]`,
//! render's quantiser and ramps), so a single panel can be reproduced with
//! `surflet render --frequency F/N`.

use rayon::prelude::*;

use crate::imaging::color::{self, Mapping, Ramp};
use crate::imaging::image::Image;
use crate::imaging::plot;

/// The documented range of every noise, as render maps it by default.
const RANGE: Mapping = Mapping { lo: -1.0, hi: 1.0 };

/// Noise coordinate of pixel `i` with `f` lattice units across `n` pixels,
/// computed as render computes `--frequency f/n`.
#[inline]
pub fn coord(i: usize, f: f64, n: u32) -> f64 {
    (i as f64 * f) / f64::from(n)
}

/// An `n`×`n` panel of `value(x, y)`, `f` lattice units across, as grey.
pub fn gray(n: u32, f: f64, value: impl Fn(f64, f64) -> f64 + Sync) -> Image {
    let w = n as usize;
    let mut data = vec![0u8; w * w];
    data.par_chunks_mut(w).enumerate().for_each(|(j, row)| {
        let y = coord(j, f, n);
        for (i, p) in row.iter_mut().enumerate() {
            *p = color::quantise8(RANGE.apply(value(coord(i, f, n), y)));
        }
    });
    Image {
        width: n,
        height: n,
        rgb: false,
        data,
    }
}

/// An `n`×`n` panel of `value(x, y)` coloured by `ramp`.
pub fn ramped(n: u32, f: f64, ramp: &Ramp, value: impl Fn(f64, f64) -> f64 + Sync) -> Image {
    let w = n as usize;
    let mut data = vec![0u8; w * w * 3];
    data.par_chunks_mut(w * 3).enumerate().for_each(|(j, row)| {
        let y = coord(j, f, n);
        for (i, p) in row.chunks_exact_mut(3).enumerate() {
            p.copy_from_slice(&ramp.rgb8(RANGE.apply(value(coord(i, f, n), y))));
        }
    });
    Image {
        width: n,
        height: n,
        rgb: true,
        data,
    }
}

/// The layout of a sheet of `n`×`n` panels, each with a label above it.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// Panel side.
    pub n: u32,
    /// Space around and between panels.
    pub gap: u32,
    /// Height of the label strip above each panel.
    pub label: u32,
    /// Label font size in pixels.
    pub font: f64,
}

impl Layout {
    /// The layout for panels of side `n`: text that scales with the panels
    /// but stays legible when they are small.
    pub fn new(n: u32) -> Layout {
        let font = (f64::from(n) / 21.0).clamp(11.0, 24.0).round();
        Layout {
            n,
            gap: (n / 32).max(4),
            label: (font * 1.9).round() as u32,
            font,
        }
    }

    /// The size of a sheet with `cols` columns and `rows` rows.
    pub fn size(&self, cols: u32, rows: u32) -> (u32, u32) {
        (
            cols * self.n + (cols + 1) * self.gap,
            rows * (self.label + self.n + self.gap),
        )
    }
}

/// Lays `panels` out in rows of `cols`, each under its label, on white. A
/// sheet of grey panels comes back grey.
pub fn sheet(layout: Layout, cols: u32, panels: Vec<(String, Image)>) -> Result<Image, String> {
    let rows = (panels.len() as u32).div_ceil(cols);
    let (w, h) = layout.size(cols, rows);
    let mut out = Image::rgb(w, h, [255; 3]);
    let n = layout.n as usize;
    let mut labels = Vec::with_capacity(panels.len());
    for (k, (text, panel)) in panels.into_iter().enumerate() {
        debug_assert!(panel.width == layout.n && panel.height == layout.n);
        let (c, r) = (k as u32 % cols, k as u32 / cols);
        let x0 = layout.gap + c * (layout.n + layout.gap);
        let y0 = r * (layout.label + layout.n + layout.gap) + layout.label;
        for j in 0..n {
            let dst = ((y0 as usize + j) * w as usize + x0 as usize) * 3;
            let dst = &mut out.data[dst..dst + n * 3];
            if panel.rgb {
                dst.copy_from_slice(&panel.data[j * n * 3..(j + 1) * n * 3]);
            } else {
                for (d, &g) in dst.chunks_exact_mut(3).zip(&panel.data[j * n..(j + 1) * n]) {
                    d.fill(g);
                }
            }
        }
        let cx = (x0 + layout.n / 2) as i32;
        let cy = (y0 - layout.label / 2) as i32;
        labels.push((cx, cy, text));
    }
    plot::label(&mut out, &labels, layout.font)?;
    Ok(out.compact())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grey_sheets_stay_grey() {
        let layout = Layout::new(64);
        let panel = || gray(64, 2.0, |x, y| (x - y).sin());
        let s = sheet(
            layout,
            2,
            vec![("a".into(), panel()), ("b".into(), panel())],
        )
        .unwrap();
        assert!(!s.rgb);
        assert_eq!((s.width, s.height), layout.size(2, 1));
        assert_eq!(s.data.len(), (s.width * s.height) as usize);
    }

    #[test]
    fn coordinates_match_render() {
        // render's Axis::at with origin 0 and step 5/64.
        assert_eq!(coord(13, 5.0, 64), 0.0 + (13.0 * 5.0) / 64.0);
    }
}
