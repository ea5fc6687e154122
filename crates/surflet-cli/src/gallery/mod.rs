//! `surflet gallery DIR`: reproduce the figures of the three seed documents
//! (Gustavson's "Simplex noise demystified", Catlike Coding's "Simplex
//! Noise, keeping it simple" and Raouf's "Perlin Noise: A Procedural
//! Generation Algorithm") and write an `index.html` that shows them.
//!
//! One file per document draws its figures ([`gustavson`], [`catlike`],
//! [`raouf`]); this one holds the options, the staged writer and the page.
//! Images go through the machinery `render` uses: the value mapping,
//! quantiser and terrain ramp ([`crate::imaging::color`]), the PNG encoder
//! ([`crate::imaging::encode`]) and the atomic, interrupt-safe file writing
//! and memory check ([`crate::imaging::output`]).

mod catlike;
mod flow;
mod gustavson;
mod html;
mod more;
mod raouf;
mod raster;

use std::path::{Path, PathBuf};

use clap::Args;
use surflet::reference::{noise1234, simplexnoise1234};
use surflet::{Field, Fractal, FractalKind, FractalParams, Noise, NoiseKind};

use crate::CliError;
use crate::imaging::color::Ramp;
use crate::imaging::image::Image;
use crate::imaging::output;
use crate::imaging::plot::{self, CONTEXT, PALETTE, Plot, Series};
use crate::imaging::staged::StagedFiles;
use html::{Figure, Img, Section};
use raster::Layout;

/// Description of `surflet gallery` for `--help`, above the options.
pub const LONG_ABOUT: &str = "\
Reproduce the figures of the three seed documents (Gustavson's \"Simplex
noise demystified\", Catlike Coding's \"Simplex Noise, keeping it simple\",
Raouf's \"Perlin Noise: A Procedural Generation Algorithm\") as PNG (and SVG
for the plots) in DIR, with an index.html that shows them with captions,
the document and figure each reproduces, and the exact parameters; then
figures of the noises surflet adds (OpenSimplex2, cellular, spectra).";

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
  opensimplex2-vs-simplex.png
      simplex, OpenSimplex2 and OpenSimplex2S in 2D and on a 3D slice
  cellular-returns.png     cellular noise with each return value
  spectra.png              2D power spectra and anisotropy of six noises
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
pub const FILES: [&str; 20] = [
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
    "opensimplex2-vs-simplex.png",
    "cellular-returns.png",
    "spectra.png",
    "index.html",
];

/// Stages `image` as a PNG and returns it as a page image.
fn png(w: &mut StagedFiles, name: &'static str, image: &Image, alt: &str) -> Result<Img, CliError> {
    w.png(name, image)?;
    Ok(Img {
        file: name.into(),
        width: image.width,
        height: image.height,
        alt: alt.into(),
    })
}

/// Creates DIR and checks, before any work, that no gallery file is in the
/// way.
fn prepare(dir: &Path, overwrite: bool) -> Result<(), String> {
    // Only DIR itself: a typo in a parent should not grow a tree.
    if !dir.is_dir() {
        if dir.exists() {
            return Err(format!(
                "cannot create {}: it exists and is not a directory",
                dir.display()
            ));
        }
        let parent = match dir.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if !parent.is_dir() {
            let why = if parent.exists() {
                "is not a directory"
            } else {
                "does not exist"
            };
            return Err(format!(
                "cannot create {}: its parent directory {} {why}",
                dir.display(),
                parent.display()
            ));
        }
        match std::fs::create_dir(dir) {
            Ok(()) => {}
            // Made by someone else meanwhile: as good as ours.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir() => {}
            Err(e) => return Err(format!("cannot create {}: {e}", dir.display())),
        }
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
    let mut w = StagedFiles::new(&args.dir, &FILES);
    let (n, seed) = (args.size, args.seed);
    let sections = vec![
        gustavson::gustavson(&mut w, n, seed)?,
        catlike::catlike(&mut w, n, seed)?,
        raouf::raouf(&mut w, n, seed)?,
        more::more(&mut w, n, seed)?,
    ];
    let page = html::page(
        "surflet gallery",
        &intro(n, seed),
        &sections,
        &footer(n, seed),
    );
    w.text("index.html", &page)?;
    debug_assert_eq!(w.names(), FILES.to_vec());
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
         the others use the surflet family with seed {seed}. A last section shows the \
         noises surflet adds to the documents': OpenSimplex2, cellular noise and their \
         spectra.</p>\n\
         <p>Pixel <i>(i, j)</i> of an <i>N</i>&times;<i>N</i> noise panel with <i>F</i> \
         lattice units across samples <i>x = (i&middot;F)/N</i>, <i>y = (j&middot;F)/N</i> \
         (its top-left corner), exactly as <code>surflet render --scale F/N</code> does, \
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

/// Points per curve in the plots.
const LINE_SAMPLES: usize = 1200;

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
    w: &mut StagedFiles,
    plot: &Plot,
    n: u32,
    png: &'static str,
    svg: &'static str,
    alt: &str,
) -> Result<(Img, (String, String)), CliError> {
    let size = plot::plot_size(n);
    let img = self::png(w, png, &plot.png(size).map_err(runtime)?, alt)?;
    w.text(svg, &plot.svg(size).map_err(runtime)?)?;
    Ok((img, (svg.to_string(), format!("SVG version ({svg})"))))
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
