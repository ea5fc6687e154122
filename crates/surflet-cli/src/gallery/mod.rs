//! `surflet gallery DIR`: reproduce the figures of the three seed documents
//! (Gustavson's "Simplex noise demystified", Catlike Coding's "Simplex
//! Noise, keeping it simple" and Raouf's "Perlin Noise: A Procedural
//! Generation Algorithm") and write an `index.html` that shows them.
//!
//! Everything goes through render's machinery: its value mapping, quantiser
//! and terrain ramp ([`crate::imaging::color`]), its PNG encoder
//! ([`crate::imaging::encode`]) and its atomic, interrupt-safe file writing
//! and memory check ([`crate::imaging::output`]).

mod flow;
mod html;
mod plot;
mod raster;

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use surflet::reference::{noise1234, simplexnoise1234};
use surflet::{Fractal, FractalKind, FractalParams, Noise, NoiseKind};

use crate::CliError;
use crate::imaging::color::Ramp;
use crate::imaging::encode::{self, Pixels, PngLayout};
use crate::imaging::output::{self, Guarded, Staged};
use html::{Figure, Img, Section};
use plot::{CONTEXT, PALETTE, Plot, Series};
pub use raster::Image;
use raster::Layout;

/// Description of `surflet gallery` for `--help`, above the options.
pub const LONG_ABOUT: &str = "\
Reproduce the figures of the three seed documents (Gustavson's \"Simplex
noise demystified\", Catlike Coding's \"Simplex Noise, keeping it simple\",
Raouf's \"Perlin Noise: A Procedural Generation Algorithm\") as PNG (and SVG
for the plots) in DIR, with an index.html that shows them with captions,
the document and figure each reproduces, and the exact parameters.";

/// Everything `--help` shows below the options.
pub const DETAILS: &str = "\
FIGURES
  classic-vs-simplex-{2d,3d,4d}.png
      classic against simplex noise in 2D, in a 3D slice and in a 4D slice,
      by Gustavson's own C code (bit-exact ports, unseeded)
  classic-vs-simplex-{2d,3d,4d}-surflet.png
      the same with surflet's Perlin and simplex noise (seeded)
  falloff.png, .svg        the falloff curves (1 - x^2)^n for n = 1..3
  value-vs-simplex-value.png
      value against simplex value noise at frequency 2, 4 and 8
  perlin-1d-frequencies.png, .svg
      1D Perlin noise at frequency 1 and 2 over x in [0, 3]
  perlin-1d-octaves.png, .svg
      sums of 1, 2, 3 and 8 octaves
  terrain-fbm.png, terrain-plain.png
      a terrain-coloured heightmap with and without fBm
  curl-flow.png            particles advected through simplex curl noise
  index.html               the page showing them all

SIZES
  Noise panels are SIZE x SIZE pixels (the heightmaps and the flow picture
  are one panel); comparison sheets put labelled panels side by side. Plots
  are 2*SIZE pixels wide, but 480 at least and 1600 at most, and 5/8 as
  high.

FILES
  DIR is created if missing (its parent must exist). Files in DIR that the
  gallery does not write are left alone; the gallery's own files are
  replaced, so running the command again redraws the gallery. With
  --no-clobber an existing gallery file stops the command before it writes
  anything.
  Every file is written to a temporary file beside it, and all are renamed
  into place only once every one is complete, index.html last: Ctrl-C or
  an error while drawing leaves the files in DIR as they were. The same
  surflet binary and options always give the same bytes.

EXIT STATUS
  0    success
  1    runtime error: a gallery file exists (with --no-clobber), DIR
       cannot be created (or its parent is missing) or written, not enough
       memory
  2    usage error: a bad option
  130  interrupted (Ctrl-C or SIGTERM); nothing was written
";

/// Command line of `surflet gallery`.
#[derive(Args, Debug)]
#[command(allow_negative_numbers = true)]
pub struct GalleryArgs {
    /// The directory to write the gallery into; created if missing.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,

    /// Side of each noise panel in pixels (64 to 4096).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 512,
        value_parser = clap::value_parser!(u32).range(64..=4096)
    )]
    pub size: u32,

    /// Seed of the surflet-family figures; Gustavson's reference code has
    /// no seed.
    #[arg(long, short = 's', value_name = "S", default_value_t = 0, value_parser = crate::units::parse_seed)]
    pub seed: u64,

    /// Refuse to replace the files of an earlier gallery in DIR.
    #[arg(long)]
    pub no_clobber: bool,

    /// Accepted for old scripts: replacing is the default.
    #[arg(long, hide = true)]
    pub overwrite: bool,
}

/// Every file the gallery writes, `index.html` last.
pub const FILES: [&str; 17] = [
    "classic-vs-simplex-2d.png",
    "classic-vs-simplex-2d-surflet.png",
    "classic-vs-simplex-3d.png",
    "classic-vs-simplex-3d-surflet.png",
    "classic-vs-simplex-4d.png",
    "classic-vs-simplex-4d-surflet.png",
    "falloff.png",
    "falloff.svg",
    "value-vs-simplex-value.png",
    "curl-flow.png",
    "perlin-1d-frequencies.png",
    "perlin-1d-frequencies.svg",
    "perlin-1d-octaves.png",
    "perlin-1d-octaves.svg",
    "terrain-fbm.png",
    "terrain-plain.png",
    "index.html",
];

/// Lattice units across each classic-vs-simplex panel.
const CLASSIC_FREQUENCY: f64 = 8.0;
/// Where the 3D and 4D panels cut their noise: off the lattice, so the
/// classic slice is not the special all-zero-at-the-corners one.
const SLICE_Z: f64 = 0.35;
const SLICE_W: f64 = 0.65;
/// Catlike Coding's 2D value-noise frequencies.
const VALUE_FREQUENCIES: [f64; 3] = [2.0, 4.0, 8.0];
/// Lattice units across the heightmaps, and fBm octaves.
const TERRAIN_FREQUENCY: f64 = 4.0;
const TERRAIN_OCTAVES: u32 = 8;
/// Raouf's 1D plots run over x in [0, 3].
const LINE_X: f64 = 3.0;
const LINE_SAMPLES: usize = 1200;

/// Writes files as temporary files in DIR and renames them all into place
/// at the end.
struct Writer {
    dir: PathBuf,
    staged: Vec<(&'static str, Staged)>,
}

impl Writer {
    fn stage(
        &mut self,
        name: &'static str,
        write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
    ) -> Result<(), CliError> {
        debug_assert!(FILES.contains(&name), "{name} is missing from FILES");
        if output::interrupted() {
            return Err(CliError::Interrupted);
        }
        let target = self.dir.join(name);
        let staged = Staged::new(&target).map_err(CliError::Runtime)?;
        let mut w = BufWriter::with_capacity(1 << 20, Guarded(staged.file()));
        let result = write(&mut w).and_then(|()| w.flush());
        drop(w);
        match result {
            Ok(()) => {}
            Err(_) if output::interrupted() => return Err(CliError::Interrupted),
            Err(e) => {
                return Err(CliError::Runtime(format!(
                    "writing {}: {e}",
                    target.display()
                )));
            }
        }
        self.staged.push((name, staged));
        Ok(())
    }

    /// Stages `image` as a PNG and returns it as a page image.
    fn png(&mut self, name: &'static str, image: &Image, alt: &str) -> Result<Img, CliError> {
        self.stage(name, |w| {
            let layout = PngLayout {
                rgb: image.rgb,
                sixteen: false,
            };
            // Plots and smooth noise compress well: the balanced setting
            // makes plots a third of the fast setting's size, which matters
            // for the copies kept in docs/.
            let mut sink = encode::png_with(
                w,
                image.width,
                image.height,
                layout,
                None,
                png::Compression::Balanced,
            )?;
            sink.frame(if image.rgb {
                Pixels::Rgb8(&image.data)
            } else {
                Pixels::Gray8(&image.data)
            })?;
            sink.finish()
        })?;
        Ok(Img {
            file: name.into(),
            width: image.width,
            height: image.height,
            alt: alt.into(),
        })
    }

    fn text(&mut self, name: &'static str, text: &str) -> Result<(), CliError> {
        self.stage(name, |w| w.write_all(text.as_bytes()))
    }

    /// Renames every staged file into place, in the order staged.
    fn commit(self, overwrite: bool) -> Result<(), CliError> {
        for (_, staged) in self.staged {
            staged.commit(overwrite).map_err(CliError::Runtime)?;
        }
        Ok(())
    }
}

/// Creates DIR and checks, before any work, that no gallery file is in the
/// way.
fn prepare(dir: &Path, overwrite: bool) -> Result<(), String> {
    // Only DIR itself: a typo in a parent should not grow a tree.
    if !dir.is_dir() {
        let parent = match dir.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if !parent.is_dir() {
            return Err(format!(
                "cannot create {}: its parent directory {} does not exist",
                dir.display(),
                parent.display()
            ));
        }
        std::fs::create_dir(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let mut existing = Vec::new();
    for name in FILES {
        let target = dir.join(name);
        match std::fs::symlink_metadata(&target) {
            Ok(m) if m.is_dir() => return Err(format!("{} is a directory", target.display())),
            Ok(_) => existing.push(name),
            Err(_) => {}
        }
    }
    if !overwrite && !existing.is_empty() {
        let more = match existing.len() {
            1 => String::new(),
            k => format!(
                " and {} more gallery file{}",
                k - 1,
                if k > 2 { "s" } else { "" }
            ),
        };
        return Err(format!(
            "{}{more} already exist{} (--no-clobber refuses to replace the gallery's files)",
            dir.join(existing[0]).display(),
            if existing.len() == 1 { "s" } else { "" }
        ));
    }
    Ok(())
}

/// Refuses a size whose biggest image would not fit in memory.
fn check_memory(n: u32) -> Result<(), String> {
    let layout = Layout::new(n);
    let (w, h) = layout.size(3, 2);
    let sheet = u128::from(w) * u128::from(h) * 3;
    let side = u128::from(n) * u128::from(n);
    let setup = flow::Setup::new(n);
    let flow = side * (12 + 3) + 1024 * (setup.steps as u128 + 1) * 16;
    // A sheet exists as RGB, grey and PNG bytes at once.
    let needed = (sheet * 2).max(flow) + (64 << 20);
    let available = output::available_memory();
    if needed > u128::from(available) {
        return Err(format!(
            "a gallery with --size {n} needs about {} of memory, but only {} is available; \
             use a smaller --size",
            output::human_bytes(needed),
            output::human_bytes(available.into())
        ));
    }
    Ok(())
}

/// Runs `surflet gallery`.
pub fn run(args: &GalleryArgs) -> Result<(), CliError> {
    check_memory(args.size).map_err(CliError::Runtime)?;
    prepare(&args.dir, !args.no_clobber).map_err(CliError::Runtime)?;
    output::install_interrupt_handler().map_err(CliError::Runtime)?;
    let mut w = Writer {
        dir: args.dir.clone(),
        staged: Vec::new(),
    };
    let (n, seed) = (args.size, args.seed);
    let sections = vec![
        gustavson(&mut w, n, seed)?,
        catlike(&mut w, n, seed)?,
        raouf(&mut w, n, seed)?,
    ];
    let page = html::page(
        "surflet gallery",
        &intro(n, seed),
        &sections,
        &footer(n, seed),
    );
    w.text("index.html", &page)?;
    debug_assert_eq!(
        w.staged.iter().map(|s| s.0).collect::<Vec<_>>(),
        FILES.to_vec()
    );
    if output::interrupted() {
        return Err(CliError::Interrupted);
    }
    w.commit(!args.no_clobber)
}

fn runtime(e: String) -> CliError {
    CliError::Runtime(e)
}

fn intro(n: u32, seed: u64) -> String {
    format!(
        "<p>The figures of three seed documents on noise, reproduced by \
         <code>surflet gallery --size {n} --seed {seed}</code> (surflet {}). The documents' \
         own images are not part of their text; each figure here is drawn from what the \
         document's caption and text describe, and its caption names the figure, the \
         implementation that made every image, and the parameters. Images made by \
         Gustavson's reference code use the bit-exact ports in <code>surflet::reference</code>; \
         the others use the surflet family with seed {seed}.</p>\n\
         <p>Pixel <i>(i, j)</i> of an <i>N</i>&times;<i>N</i> noise panel with <i>F</i> \
         lattice units across samples <i>x = (i&middot;F)/N</i>, <i>y = (j&middot;F)/N</i> \
         (its top-left corner), exactly as <code>surflet render --frequency F/N</code> does, \
         and values map from [&minus;1, 1] to black&hellip;white (or along the terrain ramp), \
         clamped.</p>",
        env!("CARGO_PKG_VERSION")
    )
}

fn footer(n: u32, seed: u64) -> String {
    format!(
        "<p class=\"source\">Made with <code>surflet gallery DIR --size {n} --seed {seed}</code>; \
         the same options give the same files. Plot text is set in DejaVu Sans (Bitstream Vera \
         licence, DejaVu changes in the public domain), embedded in surflet.</p>"
    )
}

/// Grey panels of 2D, 3D-slice or 4D-slice noise, labelled, side by side.
fn pair(
    n: u32,
    left: (String, &(dyn Fn(f64, f64) -> f64 + Sync)),
    right: (String, &(dyn Fn(f64, f64) -> f64 + Sync)),
) -> Result<Image, CliError> {
    let f = CLASSIC_FREQUENCY;
    raster::sheet(
        Layout::new(n),
        2,
        vec![
            (left.0, raster::gray(n, f, left.1)),
            (right.0, raster::gray(n, f, right.1)),
        ],
    )
    .map_err(runtime)
}

/// A surflet-family noise of dimension `d` as a function of the panel's
/// x and y, cut at z = [`SLICE_Z`], w = [`SLICE_W`].
fn family(kind: NoiseKind, d: usize, seed: u64) -> Box<dyn Fn(f64, f64) -> f64 + Sync> {
    let (z, w) = (SLICE_Z, SLICE_W);
    match d {
        2 => {
            let noise = Noise::<2>::new(kind, seed);
            Box::new(move |x, y| noise.get([x, y]))
        }
        3 => {
            let noise = Noise::<3>::new(kind, seed);
            Box::new(move |x, y| noise.get([x, y, z]))
        }
        _ => {
            let noise = Noise::<4>::new(kind, seed);
            Box::new(move |x, y| noise.get([x, y, z, w]))
        }
    }
}

/// Draws and stages the two comparison images of dimension `d` (2, 3 or
/// 4): Gustavson's C code, then the surflet family.
fn comparison(w: &mut Writer, d: usize, n: u32, seed: u64) -> Result<Vec<Img>, CliError> {
    let (z, ww) = (SLICE_Z, SLICE_W);
    let (zf, wf) = (z as f32, ww as f32);
    let (names, args) = match d {
        2 => (
            [
                "classic-vs-simplex-2d.png",
                "classic-vs-simplex-2d-surflet.png",
            ],
            "x, y".to_string(),
        ),
        3 => (
            [
                "classic-vs-simplex-3d.png",
                "classic-vs-simplex-3d-surflet.png",
            ],
            format!("x, y, {z}"),
        ),
        _ => (
            [
                "classic-vs-simplex-4d.png",
                "classic-vs-simplex-4d-surflet.png",
            ],
            format!("x, y, {z}, {ww}"),
        ),
    };
    // The C functions take floats; converting the pixel coordinate once is
    // what a C caller would do.
    let classic = |x: f64, y: f64| {
        let (x, y) = (x as f32, y as f32);
        f64::from(match d {
            2 => noise1234::noise2(x, y),
            3 => noise1234::noise3(x, y, zf),
            _ => noise1234::noise4(x, y, zf, wf),
        })
    };
    let simplex = |x: f64, y: f64| {
        let (x, y) = (x as f32, y as f32);
        f64::from(match d {
            2 => simplexnoise1234::snoise2(x, y),
            3 => simplexnoise1234::snoise3(x, y, zf),
            _ => simplexnoise1234::snoise4(x, y, zf, wf),
        })
    };
    let reference = pair(
        n,
        (format!("classic: noise{d}({args})"), &classic),
        (format!("simplex: snoise{d}({args})"), &simplex),
    )?;
    let mut imgs = vec![w.png(
        names[0],
        &reference,
        &format!("{d}D classic (left) and simplex (right) noise, Gustavson's C code"),
    )?];
    drop(reference);
    let (perlin, simplex) = (
        family(NoiseKind::Perlin, d, seed),
        family(NoiseKind::Simplex, d, seed),
    );
    let surflet = pair(
        n,
        (format!("surflet perlin {d}D"), &*perlin),
        (format!("surflet simplex {d}D"), &*simplex),
    )?;
    imgs.push(w.png(
        names[1],
        &surflet,
        &format!("{d}D Perlin (left) and simplex (right) noise, surflet family"),
    )?);
    Ok(imgs)
}

/// "Simplex noise demystified": the visual comparison table.
fn gustavson(w: &mut Writer, n: u32, seed: u64) -> Result<Section, CliError> {
    let (z, ww) = (SLICE_Z, SLICE_W);
    let f = CLASSIC_FREQUENCY;
    let params = |what: &str| {
        format!(
            "{what}; {f} lattice units across each {n}&times;{n} panel; grey = \
             round(255&middot;(v + 1)/2), clamped. Top image: <code>surflet::reference::\
             noise1234</code> and <code>simplexnoise1234</code>, bit-exact ports of \
             Gustavson's <code>noise1234.c</code> and <code>simplexnoise1234.c</code> \
             (unseeded: Perlin's fixed permutation). Bottom image: the surflet family, \
             <code>Noise::&lt;D&gt;::new(NoiseKind::Perlin | NoiseKind::Simplex, {seed})</code>."
        )
    };
    let figures = vec![
        Figure {
            id: "classic-vs-simplex-2d",
            title: "Classic against simplex noise in 2D".into(),
            images: comparison(w, 2, n, seed)?,
            links: vec![],
            half: false,
            caption: "Row &ldquo;2D&rdquo; of the paper's table <i>Visual comparison between \
                      classic and simplex noise</i>: classic Perlin noise (left) and simplex \
                      noise (right), both true 2D functions. Both panels sample the same \
                      coordinates, as in the paper, so the simplex features look a little \
                      smaller: its lattice has &radic;3 &asymp; 1.73 vertices per unit area \
                      against the square grid's 1 &mdash; the difference in &ldquo;precise \
                      feature size&rdquo; the paper warns about. The square grid shows as \
                      axis-aligned streaks in classic noise; simplex noise has none."
                .into(),
            params: params("<code>noise2(x, y)</code> against <code>snoise2(x, y)</code>"),
        },
        Figure {
            id: "classic-vs-simplex-3d",
            title: "Classic against simplex noise, a slice of 3D".into(),
            images: comparison(w, 3, n, seed)?,
            links: vec![],
            half: false,
            caption: format!(
                "Row &ldquo;3D&rdquo; of the same table: the plane z = {z} through 3D \
                 classic noise (left) and 3D simplex noise (right). The simplex lattice has \
                 2 vertices per unit volume."
            ),
            params: params(&format!(
                "<code>noise3(x, y, {z})</code> against <code>snoise3(x, y, {z})</code>"
            )),
        },
        Figure {
            id: "classic-vs-simplex-4d",
            title: "Classic against simplex noise, a slice of 4D".into(),
            images: comparison(w, 4, n, seed)?,
            links: vec![],
            half: false,
            caption: format!(
                "Row &ldquo;4D&rdquo;: the plane z = {z}, w = {ww} through 4D classic and \
                 simplex noise. As the paper notes, a section of 4D simplex noise looks \
                 different from 3D simplex noise: each point sums five corner surflets \
                 instead of four, and the features are smaller still (&radic;5 &asymp; 2.24 \
                 vertices per unit hypervolume)."
            ),
            params: params(&format!(
                "<code>noise4(x, y, {z}, {ww})</code> against <code>snoise4(x, y, {z}, {ww})</code>"
            )),
        },
    ];
    Ok(Section {
        title: "Simplex noise demystified".into(),
        source: "Stefan Gustavson, Link&ouml;ping University, 2005 \
                 (<code>simplex-noise-demystified.txt</code>), the closing section \
                 <i>Visual comparison between classic and simplex noise</i>."
            .into(),
        figures,
    })
}

/// Samples `f` over `[x0, x1]`.
fn curve(x0: f64, x1: f64, f: impl Fn(f64) -> f64) -> Vec<(f64, f64)> {
    (0..=LINE_SAMPLES)
        .map(|k| {
            let x = x0 + (x1 - x0) * k as f64 / LINE_SAMPLES as f64;
            (x, f(x))
        })
        .collect()
}

/// Stages a plot as PNG and SVG and returns its page image and link.
fn plot_files(
    w: &mut Writer,
    plot: &Plot,
    n: u32,
    png: &'static str,
    svg: &'static str,
    alt: &str,
) -> Result<(Img, (String, String)), CliError> {
    let size = plot::plot_size(n);
    let img = w.png(png, &plot.png(size).map_err(runtime)?, alt)?;
    w.text(svg, &plot.svg(size).map_err(runtime)?)?;
    Ok((img, (svg.to_string(), format!("SVG version ({svg})"))))
}

/// "Simplex Noise, keeping it simple": falloff curves, value noise against
/// simplex value noise, and the curl-noise particles of its opening picture.
fn catlike(w: &mut Writer, n: u32, seed: u64) -> Result<Section, CliError> {
    let sup = ["\u{b9}", "\u{b2}", "\u{b3}"];
    let falloff = Plot {
        title: "(1 \u{2212} x\u{b2})\u{207f} for n = 1, 2, 3".into(),
        x_desc: "x (distance from the lattice point)".into(),
        y_desc: "falloff".into(),
        x: 0.0..1.0,
        y: 0.0..1.0,
        series: (1..=3)
            .map(|k: i32| Series {
                label: format!("n = {k}: (1 \u{2212} x\u{b2}){}", sup[k as usize - 1]),
                points: curve(0.0, 1.0, |x| (1.0 - x * x).powi(k)),
                color: PALETTE[k as usize - 1],
                weight: 1.0,
            })
            .collect(),
        legend_lower_left: true,
    };
    let (falloff_img, falloff_svg) = plot_files(
        w,
        &falloff,
        n,
        "falloff.png",
        "falloff.svg",
        "Plot of (1 - x^2)^n for n = 1, 2, 3 over x from 0 to 1",
    )?;

    let layout = Layout::new(n);
    let mut panels = Vec::new();
    for kind in [NoiseKind::Value, NoiseKind::SimplexValue] {
        let noise = Noise::<2>::new(kind, seed);
        for f in VALUE_FREQUENCIES {
            panels.push((
                format!("{kind}, frequency {f}"),
                raster::gray(n, f, |x, y| noise.get([x, y])),
            ));
        }
    }
    let values = raster::sheet(layout, 3, panels).map_err(runtime)?;
    let values = w.png(
        "value-vs-simplex-value.png",
        &values,
        "Value noise (top) and simplex value noise (bottom) at frequency 2, 4 and 8",
    )?;

    let setup = flow::Setup::new(n);
    let flow_img = flow::render(n, seed, setup).map_err(runtime)?;
    let flow_img = w.png(
        "curl-flow.png",
        &flow_img,
        "Coloured particle trails swirling through simplex curl noise",
    )?;

    let freqs = VALUE_FREQUENCIES.map(|f| f.to_string()).join(", ");
    let figures = vec![
        Figure {
            id: "falloff",
            title: "Falloff curves".into(),
            images: vec![falloff_img],
            links: vec![falloff_svg],
            half: false,
            caption: "The article's plot <i>(1 &minus; x&sup2;)<sup>n</sup> with n from 1 to \
                      3</i>: the candidate radial falloffs that replace interpolation on a \
                      simplex grid. All three reach 0 at x = 1, but only the cube has both its \
                      first derivative, &minus;6x(1 &minus; x&sup2;)&sup2;, and its second \
                      vanish there, so contributions fade in and out smoothly; the article \
                      picks n = 3."
                .into(),
            params: format!(
                "Exact curves, {LINE_SAMPLES} segments each, drawn with plotters; x from 0 to 1."
            ),
        },
        Figure {
            id: "value-vs-simplex-value",
            title: "Value noise against simplex value noise".into(),
            images: vec![values],
            links: vec![],
            half: false,
            caption: "The article's <i>2D Simplex Value noise vs. Value noise, frequency 2, \
                      4, and 8</i>: value noise interpolates random lattice values across \
                      squares (top row); simplex value noise sums radial falloffs of the values \
                      at the corners of triangles (bottom row), so it looks like blobs on a \
                      triangular grid, skewed along the diagonal, and shows more bands."
                .into(),
            params: format!(
                "surflet family, <code>Noise::&lt;2&gt;::new(NoiseKind::Value | \
                 NoiseKind::SimplexValue, {seed})</code>; frequency {freqs} = lattice units \
                 across each {n}&times;{n} panel; grey = round(255&middot;(v + 1)/2)."
            ),
        },
        Figure {
            id: "curl-flow",
            title: "Particles pushed around by simplex curl noise".into(),
            images: vec![flow_img],
            links: vec![],
            half: false,
            caption: "The article's opening picture, <i>Pushing particles around with Simplex \
                      curl noise</i>, as a still: particles advected through the 2D curl \
                      (&part;&psi;/&part;y, &minus;&part;&psi;/&part;x) of a simplex fBm \
                      potential &psi;, their trails accumulated as light. The field is \
                      divergence-free, so the particles neither bunch up nor thin out; they \
                      swirl along the contour lines of &psi;, and each trail is coloured by \
                      the &psi; it follows (blue low, amber and pink high)."
                .into(),
            params: format!(
                "<code>Curl::&lt;2&gt;::new(Fractal::new(Noise::&lt;2&gt;::new(NoiseKind::\
                 Simplex, {seed}), fbm, {oct} octaves))</code>, {fr} lattice units across; \
                 {p} particles on a jittered {g}&times;{g} grid (seeded with {seed}), each \
                 advected {st} classic RK4 steps with the time step that moves a particle at \
                 the field's RMS speed {h} pixel per step; trails drawn in half-pixel \
                 bilinear splats, faded in and out along their length, summed and tone-mapped \
                 with 1 &minus; e<sup>&minus;light</sup>.",
                oct = flow::OCTAVES,
                fr = flow::FREQUENCY,
                p = setup.grid * setup.grid,
                g = setup.grid,
                st = setup.steps,
                h = setup.step_px,
            ),
        },
    ];
    Ok(Section {
        title: "Simplex Noise, keeping it simple".into(),
        source: "Catlike Coding (<code>simplex-noise-keeping-it-simple.txt</code>): the falloff \
                 plot of <i>Falloff instead of Interpolation</i>, the 2D comparison of \
                 <i>Simplex Value</i> noise, and the title picture."
            .into(),
        figures,
    })
}

/// "Perlin Noise: A Procedural Generation Algorithm": 1D octaves and the
/// heightmaps of Figures 8 and 9.
fn raouf(w: &mut Writer, n: u32, seed: u64) -> Result<Section, CliError> {
    // Raouf's FBM: amplitude 1 halving, frequency doubling, plain sum.
    let params = |octaves: u32| FractalParams {
        octaves,
        normalize: false,
        ..FractalParams::new(FractalKind::Fbm)
    };
    let line = |octaves: u32| {
        Fractal::new(Noise::<1>::new(NoiseKind::Perlin, seed), params(octaves))
            .map_err(|e| runtime(e.to_string()))
    };
    let eight = line(8)?;
    let octaves: Vec<_> = eight.octaves().collect();
    let octave = |k: usize| {
        let o = octaves[k];
        move |x: f64| o.noise.get([x * o.frequency + o.offset[0]])
    };
    let frequencies = Plot {
        title: "1D Perlin noise, x from 0 to 3".into(),
        x_desc: "x".into(),
        y_desc: "noise value".into(),
        x: 0.0..LINE_X,
        y: -1.0..1.0,
        series: vec![
            Series {
                label: "frequency 1 (Figure 10)".into(),
                points: curve(0.0, LINE_X, octave(0)),
                color: PALETTE[0],
                weight: 1.0,
            },
            Series {
                label: "frequency 2 (Figure 11)".into(),
                points: curve(0.0, LINE_X, octave(1)),
                color: PALETTE[1],
                weight: 1.0,
            },
        ],
        legend_lower_left: false,
    };
    let (freq_img, freq_svg) = plot_files(
        w,
        &frequencies,
        n,
        "perlin-1d-frequencies.png",
        "perlin-1d-frequencies.svg",
        "Plot of 1D Perlin noise at frequency 1 and 2 over x from 0 to 3",
    )?;

    let mut sums = Vec::new();
    let mut peak: f64 = 0.0;
    for (k, fig, colour, weight) in [
        (1, None, CONTEXT, 0.75),
        (2, Some(12), PALETTE[0], 1.0),
        (3, Some(13), PALETTE[2], 1.0),
        (8, Some(14), PALETTE[1], 1.0),
    ] {
        let f = if k == 8 { eight.clone() } else { line(k)? };
        let points = curve(0.0, LINE_X, |x| f.get([x]));
        peak = points.iter().fold(peak, |m, p| m.max(p.1.abs()));
        let label = match fig {
            Some(fig) => format!("{k} octaves (Figure {fig})"),
            None => "1 octave (Figure 10)".into(),
        };
        sums.push(Series {
            label,
            points,
            color: colour,
            weight,
        });
    }
    // Room above the curves for the legend.
    let top = (peak * 4.0).ceil() / 4.0;
    let octave_plot = Plot {
        title: "Sums of octaves of 1D Perlin noise".into(),
        x_desc: "x".into(),
        y_desc: "sum".into(),
        x: 0.0..LINE_X,
        y: -top..top + 0.75,
        series: sums,
        legend_lower_left: false,
    };
    let (oct_img, oct_svg) = plot_files(
        w,
        &octave_plot,
        n,
        "perlin-1d-octaves.png",
        "perlin-1d-octaves.svg",
        "Plot of the sums of 1, 2, 3 and 8 octaves of 1D Perlin noise over x from 0 to 3",
    )?;

    let base = Noise::<2>::new(NoiseKind::Perlin, seed);
    let terrain =
        Fractal::new(base, params(TERRAIN_OCTAVES)).map_err(|e| runtime(e.to_string()))?;
    let ramp = Ramp::terrain();
    let tf = TERRAIN_FREQUENCY;
    let fbm_img = raster::ramped(n, tf, &ramp, |x, y| terrain.get([x, y]));
    let plain_img = raster::ramped(n, tf, &ramp, |x, y| base.get([x, y]));
    let fbm_img = w.png(
        "terrain-fbm.png",
        &fbm_img,
        "Terrain-coloured heightmap of 8-octave fBm of Perlin noise",
    )?;
    let plain_img = w.png(
        "terrain-plain.png",
        &plain_img,
        "Terrain-coloured heightmap of plain Perlin noise",
    )?;

    let fbm_code = |k: u32| {
        format!(
            "fbm of <code>Noise::&lt;1&gt;::new(NoiseKind::Perlin, {seed})</code>, {k} octaves, \
             frequency 1, lacunarity 2, gain 0.5, amplitude 1, not normalised"
        )
    };
    let octave_note = "Raouf adds the <em>same</em> noise at doubled frequencies; surflet's \
                       fBm gives each octave its own seed and a fraction-of-a-cell offset, so \
                       the octaves do not all vanish together at the integers. Octave 0 is the \
                       base noise itself.";
    let figures = vec![
        Figure {
            id: "perlin-1d-frequencies",
            title: "1D Perlin noise at frequency 1 and 2".into(),
            images: vec![freq_img],
            links: vec![freq_svg],
            half: false,
            caption: format!(
                "Figures 10 and 11: 1D Perlin noise for x from 0 to 3 at frequency 1 \
                 (blue) and 2 (vermillion). At frequency 2 the curve crosses twice as many \
                 lattice cells over the same x range, so it is twice as bumpy. {octave_note}"
            ),
            params: format!(
                "Octaves 0 and 1 of the {}, each at amplitude 1; {LINE_SAMPLES} segments per \
                 curve, drawn with plotters.",
                fbm_code(8)
            ),
        },
        Figure {
            id: "perlin-1d-octaves",
            title: "Sums of 2, 3 and 8 octaves".into(),
            images: vec![oct_img],
            links: vec![oct_svg],
            half: false,
            caption: "Figures 12, 13 and 14: each octave doubles the frequency and halves the \
                      amplitude of the one before; 2 octaves add bumps to the smooth curve of \
                      Figure 10 (grey), 3 add smaller ones, and 8 give the detailed \
                      &ldquo;chain of mountains&rdquo; the article describes, while keeping its \
                      overall shape."
                .into(),
            params: format!(
                "The {} for 1, 2, 3 and 8 octaves (the sums share their octaves, so each curve \
                 adds detail to the previous one); {LINE_SAMPLES} segments per curve, drawn \
                 with plotters.",
                fbm_code(8).replace(", 8 octaves", "")
            ),
        },
        Figure {
            id: "terrain-fbm",
            title: "Coloured heightmap with fBm".into(),
            images: vec![fbm_img],
            links: vec![],
            half: true,
            caption: "Figure 8: <i>a colored heightmap generated with Perlin noise with fractal \
                      brownian motion</i>: coastlines, valleys and snowy ridges at every scale."
                .into(),
            params: format!(
                "fbm of <code>Noise::&lt;2&gt;::new(NoiseKind::Perlin, {seed})</code>, \
                 {TERRAIN_OCTAVES} octaves, frequency 1, lacunarity 2, gain 0.5, amplitude 1, \
                 not normalised; {tf} lattice units across {n}&times;{n} pixels; render's \
                 built-in <code>terrain</code> ramp over [&minus;1, 1], clamped."
            ),
        },
        Figure {
            id: "terrain-plain",
            title: "Coloured heightmap without fBm".into(),
            images: vec![plain_img],
            links: vec![],
            half: true,
            caption: "Figure 9: <i>a colored &ldquo;heightmap&rdquo; generated with Perlin \
                      noise without fractal brownian motion</i> &mdash; the same Perlin noise \
                      alone, which is the first octave of Figure 8. It is &ldquo;way too \
                      smooth&rdquo;, as the article says. The coastline is the level 0, and \
                      Perlin noise is 0 at every lattice point, so the coast runs through all \
                      of them, crossing itself where a lattice point is a saddle; fBm's later \
                      octaves, offset from the lattice, hide this."
                .into(),
            params: format!(
                "<code>Noise::&lt;2&gt;::new(NoiseKind::Perlin, {seed})</code>, {tf} lattice \
                 units across; the same image as <code>surflet render terrain.png --noise \
                 perlin --seed {seed} --size {n} --frequency {tf}/{n} --ramp terrain</code>."
            ),
        },
    ];
    Ok(Section {
        title: "Perlin Noise: A Procedural Generation Algorithm".into(),
        source: "Raouf's Blog (<code>perlin-noise-procedural-generation.txt</code>), the \
                 section <i>Fractal brownian motion (FBM)</i>: Figures 8 to 14."
            .into(),
        figures,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octave_sums_share_their_octaves() {
        // The captions promise that Figure 12 is Figure 10 plus half of
        // Figure 11, and that Figure 9 is the first octave of Figure 8.
        let params = |octaves| FractalParams {
            octaves,
            normalize: false,
            ..FractalParams::new(FractalKind::Fbm)
        };
        let base = Noise::<1>::new(NoiseKind::Perlin, 3);
        let two = Fractal::new(base, params(2)).unwrap();
        let eight = Fractal::new(base, params(8)).unwrap();
        let o: Vec<_> = eight.octaves().collect();
        assert_eq!(
            (o[0].noise, o[0].frequency, o[0].amplitude),
            (base, 1.0, 1.0)
        );
        assert_eq!((o[1].frequency, o[1].amplitude), (2.0, 0.5));
        for x in [0.1, 0.77, 2.5] {
            let f11 = o[1].noise.get([x * o[1].frequency + o[1].offset[0]]);
            let by_hand = base.get([x]) + 0.5 * f11;
            assert!((two.get([x]) - by_hand).abs() < 1e-12);
        }
    }

    #[test]
    fn file_names_are_unique_and_the_index_comes_last() {
        let mut names = FILES.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), FILES.len());
        assert_eq!(FILES.last(), Some(&"index.html"));
    }
}
