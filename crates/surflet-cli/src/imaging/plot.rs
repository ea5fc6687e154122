//! Text and line plots for `gallery` and `analyze`, drawn with plotters.
//!
//! plotters' default `ttf` feature finds fonts through fontconfig and
//! freetype, which a fresh machine may lack; the `ab_glyph` feature
//! rasterises a font we embed instead, in pure Rust, so every image comes
//! out the same on every machine. The font is DejaVu Sans, as bytes from
//! the `dejavu` crate (the crate's code is MIT/Apache-2.0; the font is under
//! the Bitstream Vera licence, DejaVu's changes are in the public domain).
//! That licence asks for its notice to travel with every copy of the font,
//! and the binary is one: `LICENSE-DejaVu-font.txt` beside this crate's
//! manifest is the font's licence file, verbatim.

use std::ops::Range;
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::image::Image;

/// The family name the embedded font is registered under; plotters' own
/// `FontFamily::SansSerif` resolves to it, and SVG viewers fall back to
/// their sans-serif font.
const FAMILY: &str = "sans-serif";

/// Registers the embedded font once; every function drawing text calls it
/// first, because plotters' ab_glyph backend knows no fonts otherwise.
fn font() -> Result<(), String> {
    static REGISTERED: OnceLock<Result<(), String>> = OnceLock::new();
    REGISTERED
        .get_or_init(|| {
            plotters::style::register_font(FAMILY, FontStyle::Normal, dejavu::sans::regular())
                .map_err(|_| "the embedded DejaVu Sans font could not be parsed".to_string())
        })
        .clone()
}

fn draw_err(e: impl std::fmt::Display) -> String {
    format!("drawing a plot: {e}")
}

/// Dark grey for text on white: pure grey keeps grey sheets grey.
const INK: RGBColor = RGBColor(34, 34, 34);

/// Writes centred one-line labels onto an RGB image.
pub fn label(image: &mut Image, labels: &[(i32, i32, String)], size: f64) -> Result<(), String> {
    font()?;
    debug_assert!(image.rgb);
    let (w, h) = (image.width, image.height);
    let root = BitMapBackend::with_buffer(&mut image.data, (w, h)).into_drawing_area();
    let style = TextStyle::from((FAMILY, size).into_font())
        .color(&INK)
        .pos(Pos::new(HPos::Center, VPos::Center));
    for (x, y, text) in labels {
        root.draw_text(text, &style, (*x, *y)).map_err(draw_err)?;
    }
    root.present().map_err(draw_err)
}

/// One curve of a plot.
pub struct Series {
    /// The legend entry.
    pub label: String,
    /// The points, in order along the curve.
    pub points: Vec<(f64, f64)>,
    /// Line colour.
    pub color: RGBColor,
    /// Line width relative to the plot's standard width.
    pub weight: f64,
}

/// A line plot with axes, tick labels, axis titles and a legend.
pub struct Plot {
    /// Shown above the plot area.
    pub title: String,
    /// The x-axis title.
    pub x_desc: String,
    /// The y-axis title.
    pub y_desc: String,
    /// The x range shown.
    pub x: Range<f64>,
    /// The y range shown.
    pub y: Range<f64>,
    /// The curves, drawn in order (later on top).
    pub series: Vec<Series>,
    /// Where the legend goes: upper right, or lower left where the upper
    /// right would hide the curves.
    pub legend_lower_left: bool,
}

/// Okabe and Ito's colour-blind-safe palette: blue, vermillion, bluish
/// green, reddish purple.
pub const PALETTE: [RGBColor; 4] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
];

/// A light grey for context curves.
pub const CONTEXT: RGBColor = RGBColor(170, 170, 170);

/// The pixel size of a plot for a gallery of panel side `n`: twice as wide
/// as a panel, but never so small that the labels crowd out the curves, nor
/// larger than any screen needs (the SVG is there for zooming).
pub fn plot_size(n: u32) -> (u32, u32) {
    let w = (2 * n).clamp(480, 1600);
    (w, w * 5 / 8)
}

impl Plot {
    /// Draws the plot as an RGB image of `size`.
    ///
    /// plotters draws lines without antialiasing and places glyphs on whole
    /// pixels, so the plot is drawn at twice the size and averaged down.
    pub fn png(&self, size: (u32, u32)) -> Result<Image, String> {
        let big = (2 * size.0, 2 * size.1);
        let mut image = Image::rgb(big.0, big.1, [255; 3]);
        {
            let root = BitMapBackend::with_buffer(&mut image.data, big).into_drawing_area();
            self.draw(&root, big)?;
            root.present().map_err(draw_err)?;
        }
        Ok(halve(&image))
    }

    /// Draws the plot as an SVG document of `size` (its text stays text, so
    /// it is crisp at any zoom).
    pub fn svg(&self, size: (u32, u32)) -> Result<String, String> {
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
            self.draw(&root, size)?;
            root.present().map_err(draw_err)?;
        }
        Ok(out)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        (w, _h): (u32, u32),
    ) -> Result<(), String> {
        font()?;
        let unit = f64::from(w) / 480.0;
        let text = (13.0 * unit).round();
        let stroke = (2.0 * unit).round().max(1.0);
        let thin = (unit.round() as u32).max(1);
        root.fill(&WHITE).map_err(draw_err)?;
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, (FAMILY, text * 1.25).into_font().color(&INK))
            .margin((12.0 * unit) as u32)
            .x_label_area_size((2.8 * text) as u32)
            .y_label_area_size((4.0 * text) as u32)
            .build_cartesian_2d(self.x.clone(), self.y.clone())
            .map_err(draw_err)?;
        let label_style = (FAMILY, text).into_font().color(&INK);
        chart
            .configure_mesh()
            .x_desc(&self.x_desc)
            .y_desc(&self.y_desc)
            .label_style(label_style.clone())
            .axis_desc_style(label_style.clone())
            .axis_style(ShapeStyle::from(&INK).stroke_width(thin))
            .bold_line_style(RGBColor(215, 215, 215).stroke_width(thin))
            .light_line_style(RGBColor(240, 240, 240).stroke_width(thin))
            .x_labels(8)
            .y_labels(7)
            .y_label_formatter(&|v| trim_float(*v))
            .x_label_formatter(&|v| trim_float(*v))
            .draw()
            .map_err(draw_err)?;
        for s in &self.series {
            let style = s
                .color
                .stroke_width(((stroke * s.weight).round() as u32).max(1));
            chart
                .draw_series(LineSeries::new(s.points.iter().copied(), style))
                .map_err(draw_err)?
                .label(&s.label)
                .legend(move |(x, y)| {
                    let len = (22.0 * unit) as i32;
                    PathElement::new(vec![(x, y), (x + len, y)], style)
                });
        }
        chart
            .configure_series_labels()
            .position(if self.legend_lower_left {
                SeriesLabelPosition::LowerLeft
            } else {
                SeriesLabelPosition::UpperRight
            })
            .margin((8.0 * unit) as u32)
            .legend_area_size((28.0 * unit) as u32)
            .label_font(label_style)
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(200, 200, 200))
            .draw()
            .map_err(draw_err)?;
        Ok(())
    }
}

/// Averages each 2×2 block of an RGB image into one pixel.
fn halve(image: &Image) -> Image {
    let (w, h) = (image.width as usize / 2, image.height as usize / 2);
    let stride = image.width as usize * 3;
    let mut out = Image::rgb(w as u32, h as u32, [0; 3]);
    for y in 0..h {
        for x in 0..w {
            for c in 0..3 {
                let at = |dx: usize, dy: usize| {
                    u32::from(image.data[(2 * y + dy) * stride + (2 * x + dx) * 3 + c])
                };
                let sum = at(0, 0) + at(1, 0) + at(0, 1) + at(1, 1);
                out.data[(y * w + x) * 3 + c] = ((sum + 2) / 4) as u8;
            }
        }
    }
    out
}

/// Tick labels without float noise: 0.30000000000000004 → 0.3, 1.0 → 1.
fn trim_float(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels() {
        assert_eq!(trim_float(0.30000000000000004), "0.3");
        assert_eq!(trim_float(1.0), "1");
        assert_eq!(trim_float(-0.0), "0");
        assert_eq!(trim_float(-1.25), "-1.25");
    }

    #[test]
    fn the_font_loads_and_draws() {
        let mut image = Image::rgb(120, 40, [255; 3]);
        label(&mut image, &[(60, 20, "surflet".into())], 20.0).unwrap();
        assert!(image.data.iter().any(|&b| b < 100), "no text drawn");
    }
}
