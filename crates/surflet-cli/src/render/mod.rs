//! `surflet render`: draw a noise over a 2D slice of 2D, 3D or 4D space into
//! an image file.
//!
//! The pipeline is: options → [`Plan`] (all validation, no allocation) →
//! memory check → temporary file → per frame: render rows in parallel
//! ([`field::Field`]), turn values into pixels ([`color`]), encode
//! ([`encode`]) → rename into place ([`output`]).

mod field;
mod progress;

use std::io::{BufWriter, Write};
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use rayon::prelude::*;
use surflet::{MAX_PERIOD, NoiseKind, Stack};

use crate::CliError;
use crate::imaging::{color, encode, output};
use crate::stack_args::{self, Base, Resolved, StackArgs, StagedConfig, stack_help};
use crate::stack_field::StackField;
use color::{Mapping, NormalEncoder, NormalFormat, Ramp};
use encode::{Format, Pixels, PngLayout, Sink, Timing};
use field::{Field, NoiseField};
use output::{Guarded, Staged};
use progress::Progress;

/// Description of `surflet render` for `--help`, above the options.
pub const LONG_ABOUT: &str = "\
Render a noise over a 2D slice of 2D, 3D or 4D space into an image: 8- or
16-bit grey or colour-ramped PNG, normal maps, f32 heightmaps (TIFF or raw),
seamless tiles, and animations (APNG, GIF). With nothing but an output name
it writes 512x512 simplex noise as an 8-bit grey PNG.";

/// Everything `--help` shows below the options.
pub const DETAILS: &str = concat!(
    "\
EXAMPLES
  surflet render noise.png
      512x512 2D simplex noise, seed 0, 8 features across, 8-bit grey
  surflet render terrain.png --ramp terrain --seed 7 --size 1024x768
  surflet render height.png --bit-depth 16 --noise perlin --frequency 1/128
  surflet render normals.png --mode normal
  surflet render tile.png --period 8,8 --size 256x256
      a seamless tile: exactly 8x8 lattice cells span the image
  surflet render height.tif --size 2048 --auto-range
      an f32 heightmap, stretched to [0, 1]
  surflet render clouds.gif --frames 64 --loop --size 256
      an animation along z that loops seamlessly
  surflet render warp.png --frames 48 --animate w --z 3.5
      an APNG sliding through 4D noise along w

SAMPLING
  Pixel (i, j), counting columns rightwards and rows downwards from the
  top-left pixel (0, 0), samples the noise at
      x = X + (i*A)/B,   y = Y + (j*A)/B
  evaluated in f64, where X,Y is --origin and A/B is --frequency (lattice
  cells per pixel). A decimal frequency F means A = F, B = 1; a fraction such
  as 1/3 keeps A and B apart, so i*A/B is rounded once. Pixels sample at their
  top-left corner, not their centre. The other coordinates are --z and --w.

TILING
  --period PX,PY makes the noise periodic, in lattice cells, and unless
  --frequency is given sets the frequencies to PX/W and PY/H: exactly one
  period spans the image. Column i samples x = X + (i*PX)/W, so a column W
  would sample X + PX and equal column 0 bit for bit, and the image tiles
  seamlessly in both directions. Axes beyond x and y get the period 65536
  unless given (--period PX,PY,PZ[,PW]). 2D simplex and simplex-value need an
  even PY and have no periodic 4D form.

VALUES TO PIXELS
  Each value v becomes t = (v - LO)/(HI - LO), where [LO, HI] is
    by default       [-1, 1], the documented range of every noise kind
    --auto-range     the minimum and maximum of all values rendered (over
                     every frame of an animation)
    --range LO,HI    given
  and only then is clamped to [0, 1] and quantised:
    gray    round(t*255), or round(t*65535) with --bit-depth 16
    ramp    the ramp's colour at t, each sRGB channel c interpolated
            linearly between stops, then round(c) or round(c/255*65535)
  TIFF and raw outputs hold the value itself as f32 (the f64 value rounded
  once), or t unclamped with --auto-range or --range.

NORMAL MAPS (--mode normal)
  Computed from the analytic gradient, not finite differences. With h the
  noise value and u, v the pixel coordinates (v runs down the image),
  dh/du = dh/dx * A/B by the chain rule, and the surface z = S*h(u, v) has
  the unit normal
    opengl  (+Y up, the default)  normalize(-S*dh/du,  S*dh/dv, 1)
    directx (+Y down)             normalize(-S*dh/du, -S*dh/dv, 1)
  stored as RGB = round((n*0.5 + 0.5)*255) (or *65535 in 16 bits). S is
  --normal-strength, in pixels of height per unit of noise value; its
  default 0.25/F (F the geometric mean of the two frequencies) gives slopes
  of a quarter of the noise's own, whatever the resolution.

ANIMATION
  --frames N renders N slices along --animate (z by default, w for 4D noise):
  frame k lies at Z + (k*A)/B for a --step of A/B (default 1/32). --loop
  makes that axis periodic with period N*A/B, which must be a whole number
  of cells, so frame N would equal frame 0 and the animation loops without
  a seam; without --step it takes the step T/N, with T = max(1, round(N/32))
  cells the whole number nearest the default speed. PNG output becomes an APNG and GIF an animated GIF, both repeating
  forever at --fps; TIFF gets one page per frame and raw the frames one
  after another.

FORMATS (from OUTPUT's extension, or --format)
  .png          8/16-bit grey, 8/16-bit RGB (ramp, normal); APNG if animated
  .apng         animated PNG, even with one frame
  .gif          8-bit: grey and ramps use one exact 256-entry palette;
                normal maps are quantised per frame (NeuQuant)
  .tif, .tiff   32-bit float greyscale TIFF (BigTIFF past 4 GiB)
  .raw, .f32    raw little-endian f32, row-major, no header

SAFETY
  OUTPUT is written to a hidden temporary file beside it and renamed into
  place only when complete: after Ctrl-C or any error neither OUTPUT nor the
  temporary file is left. An existing OUTPUT is replaced only with
  --overwrite. Requests needing more memory than is available are refused
  before anything is allocated, and outputs that cannot fit on the disk
  (raw and TIFF by size, PNG and GIF even at 4:1 compression) before
  anything is written. A progress bar appears on stderr when a
  render takes over a second and stderr is a terminal (never with --quiet).

",
    stack_help!(),
    "
STACKS IN RENDER
  --config, --noise-frequency or any option under \"Noise stack\" renders a
  noise stack instead of a plain noise; --noise, --seed and --period then
  set the stack's noise, seed and period. Coordinates are world units: pixel
  (i, j) samples x = X + (i*A)/B as above, A/B = --frequency being world
  units per pixel, and the stack multiplies them by its own frequency (the
  config's, or --noise-frequency; default 1). --frequency defaults to 1/64,
  or to 1 (one world unit per pixel) with --config or --noise-frequency, so
  that a stack with frequency = 0.01 has features about 100 pixels across.
  --z, --w and --step are world units too; the default step is 1/32 of a
  cell, 1/(32*frequency) units.
    surflet render ridges.png --fractal ridged --octaves 6
    surflet render look.png --config look.toml --size 1024
    surflet render look.png --fractal fbm --warp-amplitude 0.5 --save-config look.toml

  With a period P (--period, or the config's) the stack repeats every
  P/frequency units, and unless --frequency is given the pixel spacing is
  (P/frequency)/W across and (P/frequency)/H down: one tile spans the image.
  The wrap-around column then equals column 0 bit for bit when the
  frequency and (P/frequency)/W are dyadic rationals (like 4 and 3/64);
  otherwise to within rounding, and a warped stack always only to within
  rounding. Axes past the period's entries get the largest power-of-two
  period the stack accepts. --loop gives the time axis the period
  frames*step*frequency cells, which must be a whole number.

  The default mapping stretches the stack's range (see above) onto the
  pixels. Normal maps use the stack's analytic gradient; the default
  --normal-strength is 0.25/F with F = frequency*A/B, lattice cells per
  pixel. --save-config writes the stack as given, before render adds periods
  for the extra axes or --loop; --overwrite lets it replace an existing file
  as it does OUTPUT. A saved stack holds no pixel spacing: --config renders
  it at one unit per pixel, so a look made at the default 1/64 is best made
  with --noise-frequency 1/64 (or given --frequency 1/64 again).

EXIT STATUS
  0    success
  1    runtime error: OUTPUT (or the --save-config file) exists, its
       directory is missing or not writable, not enough memory, writing
       failed
  2    usage error: a bad option or combination of options, or a bad
       --config file (the message names the key, or the line)
  130  interrupted (Ctrl-C or SIGTERM); nothing was written
"
);

/// The noise kinds `render` draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RenderNoise {
    /// Value noise.
    #[value(name = "value")]
    Value,
    /// Improved Perlin noise.
    #[value(name = "perlin")]
    Perlin,
    /// Simplex noise.
    #[value(name = "simplex")]
    Simplex,
    /// Simplex value noise.
    #[value(name = "simplex-value")]
    SimplexValue,
}

impl RenderNoise {
    fn kind(self) -> NoiseKind {
        match self {
            RenderNoise::Value => NoiseKind::Value,
            RenderNoise::Perlin => NoiseKind::Perlin,
            RenderNoise::Simplex => NoiseKind::Simplex,
            RenderNoise::SimplexValue => NoiseKind::SimplexValue,
        }
    }
}

/// What the pixels show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// Grey levels.
    #[value(name = "gray", alias = "grey")]
    Gray,
    /// Colours from --ramp.
    #[value(name = "ramp")]
    Ramp,
    /// A tangent-space normal map.
    #[value(name = "normal")]
    Normal,
}

/// The axis an animation moves along.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TimeAxis {
    /// The third coordinate.
    #[value(name = "z")]
    Z,
    /// The fourth coordinate.
    #[value(name = "w")]
    W,
}

/// An image size in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
}

fn parse_size(s: &str) -> Result<Size, String> {
    let s = s.trim();
    let (w, h) = match s.split_once(['x', 'X', '×']) {
        Some((w, h)) => (w.trim(), h.trim()),
        None => (s, s),
    };
    let side = |v: &str, what: &str| -> Result<u32, String> {
        match v.parse::<u64>() {
            Ok(0) => Err(format!("the {what} must be at least 1 pixel")),
            Ok(n) => u32::try_from(n)
                .map_err(|_| format!("the {what} {n} is too large (at most {} pixels)", u32::MAX)),
            Err(_) => Err(format!(
                "{s:?} is not a size: expected WIDTHxHEIGHT (like 512x256) or one number"
            )),
        }
    };
    Ok(Size {
        width: side(w, "width")?,
        height: side(h, "height")?,
    })
}

/// A positive step or frequency `num/den`, kept as a fraction so that
/// `i*num/den` rounds once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ratio {
    /// Numerator.
    pub num: f64,
    /// Denominator (1 for a decimal).
    pub den: f64,
}

impl Ratio {
    /// The value `num/den`.
    pub fn value(self) -> f64 {
        self.num / self.den
    }
}

fn parse_ratio(s: &str) -> Result<Ratio, String> {
    let s = s.trim();
    let number = |v: &str| -> Result<f64, String> {
        match v.trim().parse::<f64>() {
            Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
            Ok(_) => Err(format!("{s:?} must be positive and finite")),
            Err(_) => Err(format!("{s:?} is not a number or a fraction like 1/64")),
        }
    };
    let r = match s.split_once('/') {
        Some((n, d)) => Ratio {
            num: number(n)?,
            den: number(d)?,
        },
        None => Ratio {
            num: number(s)?,
            den: 1.0,
        },
    };
    if r.value().is_finite() && r.value() > 0.0 {
        Ok(r)
    } else {
        Err(format!("{s:?} is out of range"))
    }
}

/// A number for messages, without float noise: 0.30000000000000004 → 0.3.
fn short(v: f64) -> String {
    let s = format!("{v:.9}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn parse_finite(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        Ok(_) => Err(format!("{:?} is not finite", s.trim())),
        Err(_) => Err(format!("{:?} is not a number", s.trim())),
    }
}

fn parse_period(s: &str) -> Result<u32, String> {
    s.trim()
        .parse::<u32>()
        .map_err(|_| format!("{:?} is not a period (a positive integer)", s.trim()))
}

fn parse_ramp(s: &str) -> Result<Ramp, String> {
    Ramp::parse(s)
}

/// Arguments of `surflet render`.
#[derive(Args, Debug, Clone)]
pub struct RenderArgs {
    /// The file to write; its extension picks the format.
    #[arg(value_name = "OUTPUT")]
    pub output: PathBuf,

    /// The output format, overriding OUTPUT's extension.
    #[arg(long, short = 'f', value_name = "FORMAT")]
    pub format: Option<Format>,

    /// Replace OUTPUT if it exists.
    #[arg(long)]
    pub overwrite: bool,

    /// Never show a progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,

    /// The noise kind [default: simplex, or the config's].
    #[arg(long, short = 'n', value_name = "KIND", help_heading = "Noise")]
    pub noise: Option<RenderNoise>,

    /// The seed [default: 0, or the config's].
    #[arg(long, short = 's', value_name = "N", help_heading = "Noise")]
    pub seed: Option<u64>,

    /// Make the noise periodic, in lattice cells (1..=65536); without
    /// --frequency one period then spans the image, which tiles seamlessly.
    #[arg(
        long,
        value_name = "PX,PY[,PZ[,PW]]",
        value_delimiter = ',',
        value_parser = parse_period,
        help_heading = "Noise"
    )]
    pub period: Option<Vec<u32>>,

    /// Lattice cells per pixel (world units per pixel with a noise stack),
    /// as a decimal or a fraction, for both axes or as FX,FY [default: 1/64;
    /// 1 with --config or --noise-frequency; one period per image with
    /// --period].
    #[arg(
        long,
        value_name = "F[,FY]",
        value_delimiter = ',',
        value_parser = parse_ratio,
        help_heading = "Noise"
    )]
    pub frequency: Option<Vec<Ratio>>,

    /// Dimension of the noise: 2, 3 or 4 [default: 2, or what --z, --w,
    /// --animate and --period need].
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u8).range(2..=4), help_heading = "Slice")]
    pub dims: Option<u8>,

    /// Image size in pixels, WIDTHxHEIGHT or one number for a square.
    #[arg(
        long,
        value_name = "WxH",
        default_value = "512x512",
        value_parser = parse_size,
        help_heading = "Slice"
    )]
    pub size: Size,

    /// Noise coordinates of the top-left pixel [default: 0,0].
    #[arg(
        long,
        value_name = "X,Y",
        value_delimiter = ',',
        allow_hyphen_values = true,
        value_parser = parse_finite,
        help_heading = "Slice"
    )]
    pub origin: Option<Vec<f64>>,

    /// The z coordinate of the slice (implies 3D) [default: 0].
    #[arg(long, value_name = "Z", allow_hyphen_values = true, value_parser = parse_finite, help_heading = "Slice")]
    pub z: Option<f64>,

    /// The w coordinate of the slice (implies 4D) [default: 0].
    #[arg(long, value_name = "W", allow_hyphen_values = true, value_parser = parse_finite, help_heading = "Slice")]
    pub w: Option<f64>,

    /// What the pixels show [default: gray, or ramp with --ramp, normal
    /// with --normal-*].
    #[arg(long, value_name = "MODE", help_heading = "Pixels")]
    pub mode: Option<Mode>,

    /// Bits per channel of PNG output: 8 or 16 [default: 8].
    #[arg(long, value_name = "BITS", value_parser = ["8", "16"], help_heading = "Pixels")]
    pub bit_depth: Option<String>,

    /// Colour ramp (implies --mode ramp): terrain, gray, or stops like
    /// 0:#1a3c6e,0.45:#2a6fb0,0.5:#d8c38a,1:#ffffff.
    #[arg(long, value_name = "RAMP", value_parser = parse_ramp, help_heading = "Pixels")]
    pub ramp: Option<Ramp>,

    /// Map the measured minimum..maximum of the rendered values onto the full
    /// pixel range, instead of the documented range [-1, 1].
    #[arg(long, conflicts_with = "range", help_heading = "Pixels")]
    pub auto_range: bool,

    /// Map LO..HI onto the full pixel range, instead of [-1, 1].
    #[arg(
        long,
        value_name = "LO,HI",
        value_delimiter = ',',
        allow_hyphen_values = true,
        value_parser = parse_finite,
        help_heading = "Pixels"
    )]
    pub range: Option<Vec<f64>>,

    /// Height of the normal map's surface, in pixels per unit of noise value
    /// [default: 0.25/frequency].
    #[arg(long, value_name = "S", allow_hyphen_values = true, value_parser = parse_finite, help_heading = "Pixels")]
    pub normal_strength: Option<f64>,

    /// The normal map's y convention [default: opengl].
    #[arg(long, value_name = "CONVENTION", help_heading = "Pixels")]
    pub normal_format: Option<NormalFormat>,

    /// Number of frames; more than one makes an animation.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        help_heading = "Animation"
    )]
    pub frames: u32,

    /// The axis the animation moves along [default: z].
    #[arg(long, value_name = "AXIS", help_heading = "Animation")]
    pub animate: Option<TimeAxis>,

    /// How far each frame moves, in lattice cells, as a decimal or a
    /// fraction [default: 1/32; with --loop, about that, making a whole
    /// number of cells in all].
    #[arg(long, value_name = "STEP", value_parser = parse_ratio, help_heading = "Animation")]
    pub step: Option<Ratio>,

    /// Make the animation loop seamlessly: the time axis gets the period
    /// frames*step, which must be a whole number.
    #[arg(long = "loop", help_heading = "Animation")]
    pub looped: bool,

    /// Frames per second of APNG and GIF animations [default: 25].
    #[arg(long, value_name = "FPS", value_parser = parse_fps, help_heading = "Animation")]
    pub fps: Option<f64>,

    /// frequency: the stack multiplies world coordinates by it, a decimal
    /// or a fraction (implies a noise stack) [default: 1, or the config's].
    #[arg(
        long,
        value_name = "F",
        allow_hyphen_values = true,
        value_parser = stack_args::parse_frequency,
        help_heading = "Noise stack"
    )]
    pub noise_frequency: Option<f64>,

    #[command(flatten)]
    pub stack: StackArgs,
}

fn parse_fps(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(f) if f > 0.0 && f <= 1000.0 => Ok(f),
        Ok(_) => Err("frames per second must be in (0, 1000]".into()),
        Err(_) => Err(format!("{:?} is not a number", s.trim())),
    }
}

/// How values become `t` before quantisation.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Range {
    /// The field's documented range; float outputs keep the raw value.
    Documented,
    /// Measured over everything rendered.
    Auto,
    /// Given.
    Fixed(Mapping),
}

/// What each pixel holds.
#[derive(Clone, Debug)]
enum Content {
    Gray,
    Ramp(Ramp),
    Normal(NormalEncoder),
    Float,
}

/// Pixel index to noise coordinate along one image axis:
/// `origin + (i*step.num)/step.den`.
#[derive(Clone, Copy, Debug)]
struct Axis {
    origin: f64,
    step: Ratio,
}

impl Axis {
    #[inline]
    fn at(&self, i: u64) -> f64 {
        self.origin + (i as f64 * self.step.num) / self.step.den
    }
}

/// A validated render: everything decided, nothing allocated.
struct Plan {
    output: PathBuf,
    format: Format,
    width: u32,
    height: u32,
    field: Box<dyn Field>,
    x: Axis,
    y: Axis,
    /// z and w of frame 0 (unused beyond the field's dimension).
    zw: [f64; 2],
    /// The animated coordinate (0 = z, 1 = w) and its per-frame step.
    time: Option<(usize, Axis)>,
    frames: u32,
    content: Content,
    sixteen: bool,
    range: Range,
    timing: Timing,
    overwrite: bool,
    quiet: bool,
    /// Where --save-config writes, and what.
    save_config: Option<(PathBuf, Stack)>,
}

/// Why rendering stopped early.
enum Stop {
    Interrupted,
    Failed(String),
}

impl From<String> for Stop {
    fn from(e: String) -> Stop {
        Stop::Failed(e)
    }
}

impl Plan {
    /// Validates the options; every error is a usage error.
    fn new(args: &RenderArgs) -> Result<Plan, String> {
        let format = match args.format {
            Some(f) => f,
            None => {
                let ext = args
                    .output
                    .extension()
                    .map(|e| e.to_string_lossy().into_owned());
                match ext.as_deref().and_then(Format::from_extension) {
                    Some(f) => f,
                    None => {
                        return Err(format!(
                            "cannot tell the format of {} from its extension: use .png, .apng, \
                             .gif, .tif/.tiff or .raw/.f32, or give --format",
                            args.output.display()
                        ));
                    }
                }
            }
        };
        let Size { width, height } = args.size;

        // What the pixels show, and that the format can hold it.
        let mode = match (args.mode, &args.ramp) {
            (Some(m), _) => m,
            (None, Some(_)) => Mode::Ramp,
            (None, None) if args.normal_strength.is_some() || args.normal_format.is_some() => {
                Mode::Normal
            }
            (None, None) => Mode::Gray,
        };
        if args.ramp.is_some() && mode != Mode::Ramp {
            return Err("--ramp applies to --mode ramp".into());
        }
        if mode != Mode::Normal {
            if args.normal_strength.is_some() {
                return Err("--normal-strength applies to --mode normal".into());
            }
            if args.normal_format.is_some() {
                return Err("--normal-format applies to --mode normal".into());
            }
        } else if args.auto_range || args.range.is_some() {
            return Err(
                "normal maps come from the gradient, which no range maps; --auto-range and \
                 --range apply to --mode gray and ramp"
                    .into(),
            );
        }
        let sixteen = match args.bit_depth.as_deref() {
            Some("16") => true,
            Some(_) | None => false,
        };
        if format.is_float() {
            if mode != Mode::Gray {
                return Err(format!(
                    "{} output holds the noise values as f32; --mode {} needs PNG or GIF",
                    format.name(),
                    match mode {
                        Mode::Ramp => "ramp",
                        _ => "normal",
                    }
                ));
            }
            if args.bit_depth.is_some() {
                return Err(format!(
                    "{} output is 32-bit float; --bit-depth applies to PNG",
                    format.name()
                ));
            }
        }
        if format == Format::Gif && sixteen {
            return Err("GIF holds 8 bits per channel; use PNG for --bit-depth 16".into());
        }

        let range = match (&args.range, args.auto_range) {
            (Some(r), _) => match *r.as_slice() {
                [lo, hi] if lo != hi => Range::Fixed(Mapping { lo, hi }),
                [_, _] => return Err("--range needs two different values LO,HI".into()),
                _ => return Err(format!("--range takes two values LO,HI, got {}", r.len())),
            },
            (None, true) => Range::Auto,
            (None, false) => Range::Documented,
        };

        // Frames and the time axis.
        if args.frames == 0 {
            return Err("--frames must be at least 1".into());
        }
        let animated = args.frames > 1;
        if !animated {
            let flag = [
                (args.animate.is_some(), "--animate"),
                (args.step.is_some(), "--step"),
                (args.looped, "--loop"),
            ]
            .into_iter()
            .find_map(|(given, flag)| given.then_some(flag));
            if let Some(flag) = flag {
                return Err(format!("{flag} applies to animations (--frames 2 or more)"));
            }
        }
        if args.fps.is_some() && !(animated || format == Format::Apng) {
            return Err("--fps applies to animations (--frames 2 or more)".into());
        }
        if args.fps.is_some() && matches!(format, Format::Tiff | Format::Raw) {
            return Err(format!(
                "{} output has no frame timing; --fps applies to PNG and GIF",
                format.name()
            ));
        }
        let time_axis = animated.then(|| args.animate.unwrap_or(TimeAxis::Z));

        // A noise stack, if any option asks for one.
        let stack = if args.stack.first_given().is_some() || args.noise_frequency.is_some() {
            let base = Base {
                noise: args.noise.map(|n| (n.kind(), "--noise")),
                seed: args.seed,
                frequency: args.noise_frequency.map(|f| (f, "--noise-frequency")),
                period: args.period.as_deref(),
            };
            Some(args.stack.resolve(&base)?)
        } else {
            None
        };
        if let Some(path) = &args.stack.save_config
            && *path == args.output
        {
            return Err("--save-config names OUTPUT; give the stack a file of its own".into());
        }
        // A stack's period may come from its config.
        let given_period = match &stack {
            Some(r) => r.stack.period.as_deref(),
            None => args.period.as_deref(),
        };
        // Lattice cells per world unit: pixel spacings, steps and the
        // tiling rules are in world units, which a stack scales.
        let cells = stack.as_ref().map_or(1.0, |r| r.stack.frequency);

        // The dimension: the largest any option needs, or --dims if enough.
        let period_len = given_period.map_or(0, <[u32]>::len);
        let needs = [
            (2, ""),
            (if args.z.is_some() { 3 } else { 0 }, "--z"),
            (if args.w.is_some() { 4 } else { 0 }, "--w"),
            (
                match time_axis {
                    Some(TimeAxis::Z) => 3,
                    Some(TimeAxis::W) => 4,
                    None => 0,
                },
                "an animation along that axis",
            ),
            (period_len, "that many --period values"),
        ];
        let (needed, why) = needs.into_iter().max_by_key(|n| n.0).unwrap_or((2, ""));
        let dims = match args.dims {
            Some(d) if usize::from(d) < needed => {
                return Err(format!("--dims {d} is too few: {why} needs {needed}D"));
            }
            Some(d) => usize::from(d),
            None => needed,
        };
        if let Some(p) = given_period
            && p.len() < 2
        {
            return Err(match &stack {
                Some(r) if r.period_source() != "--period" => format!(
                    "{} has {} entry, but render needs 2 to {dims} (x and y first)",
                    r.period_source(),
                    p.len()
                ),
                _ => format!(
                    "--period takes 2 to {dims} values (PX,PY first), got {}",
                    p.len()
                ),
            });
        }

        // Periods: the given ones, the loop's, and 65536 for the rest.
        // Without --step a loop takes the whole number of cells nearest the
        // default speed, so `--loop` works with any frame count.
        let step = match args.step {
            Some(s) => s,
            None if args.looped => Ratio {
                num: (f64::from(args.frames) / 32.0).round().max(1.0),
                den: f64::from(args.frames) * cells,
            },
            None => Ratio {
                num: 1.0,
                den: 32.0 * cells,
            },
        };
        let mut loop_period = None;
        if args.looped {
            let axis = match time_axis {
                Some(TimeAxis::Z) => 2,
                _ => 3,
            };
            if period_len > axis {
                return Err(format!(
                    "--loop sets the period along {}; leave it out of --period",
                    ["x", "y", "z", "w"][axis]
                ));
            }
            let total = f64::from(args.frames) * step.num / step.den * cells;
            let whole = total.round();
            if (total - whole).abs() > 1e-9 * total.max(1.0) || whole < 1.0 {
                return Err(format!(
                    "--loop needs frames*step to be a whole number of cells, but {} frames \
                     of {} make {}; try --step {}/{}",
                    args.frames,
                    short(step.value()),
                    short(total),
                    whole.max(1.0),
                    short(f64::from(args.frames) * cells)
                ));
            }
            if whole > f64::from(MAX_PERIOD) {
                return Err(format!(
                    "--loop: frames*step = {whole} cells, more than the largest period, {MAX_PERIOD}"
                ));
            }
            loop_period = Some((axis, whole as u32));
        }
        let loop_hint = |e: String| {
            if args.looped && given_period.is_none() {
                format!(
                    "{e}; --loop makes the noise periodic, so animate along z or use value or perlin noise"
                )
            } else {
                e
            }
        };
        let field: Box<dyn Field> = match &stack {
            Some(r) => Box::new(stack_field(r, dims, loop_period).map_err(loop_hint)?),
            None => {
                let periods = if args.period.is_some() || loop_period.is_some() {
                    let mut p = vec![MAX_PERIOD; dims];
                    if let Some(given) = &args.period {
                        p[..given.len()].copy_from_slice(given);
                    }
                    if let Some((axis, period)) = loop_period {
                        p[axis] = period;
                    }
                    Some(p)
                } else {
                    None
                };
                let kind = args.noise.unwrap_or(RenderNoise::Simplex).kind();
                Box::new(
                    NoiseField::new(kind, args.seed.unwrap_or(0), dims, periods.as_deref())
                        .map_err(loop_hint)?,
                )
            }
        };

        // Pixel spacing: given, one period per image, or the default.
        let freq = match (args.frequency.as_deref(), given_period) {
            (Some(&[f]), _) => [f, f],
            (Some(&[fx, fy]), _) => [fx, fy],
            (Some(f), _) => {
                return Err(format!(
                    "--frequency takes one value or two (FX,FY), got {}",
                    f.len()
                ));
            }
            // One tile, P/cells world units, across the image.
            (None, Some(p)) => [
                Ratio {
                    num: f64::from(p[0]) / cells,
                    den: f64::from(width),
                },
                Ratio {
                    num: f64::from(p[1]) / cells,
                    den: f64::from(height),
                },
            ],
            // A config's frequency is meant per world unit, so a world unit
            // per pixel makes frequency = 0.01 features about 100 pixels.
            (None, None) if stack.as_ref().is_some_and(Resolved::states_frequency) => {
                [Ratio { num: 1.0, den: 1.0 }; 2]
            }
            (None, None) => {
                [Ratio {
                    num: 1.0,
                    den: 64.0,
                }; 2]
            }
        };
        let origin = match args.origin.as_deref() {
            None => [0.0, 0.0],
            Some(&[x, y]) => [x, y],
            Some(o) => return Err(format!("--origin takes two values X,Y, got {}", o.len())),
        };
        let x = Axis {
            origin: origin[0],
            step: freq[0],
        };
        let y = Axis {
            origin: origin[1],
            step: freq[1],
        };
        let zw = [args.z.unwrap_or(0.0), args.w.unwrap_or(0.0)];
        let time = time_axis.map(|a| {
            let k = match a {
                TimeAxis::Z => 0,
                TimeAxis::W => 1,
            };
            (
                k,
                Axis {
                    origin: zw[k],
                    step,
                },
            )
        });
        // The last coordinates must stay finite, or the noise turns to NaN.
        let corners = [
            x.at(u64::from(width)),
            y.at(u64::from(height)),
            time.map_or(0.0, |(_, t)| t.at(u64::from(args.frames))),
        ];
        if corners.iter().any(|c| !c.is_finite()) {
            return Err(
                "the sampled coordinates overflow; use a smaller --origin, --frequency or --step"
                    .into(),
            );
        }

        let content = if format.is_float() {
            Content::Float
        } else {
            match mode {
                Mode::Gray => Content::Gray,
                Mode::Ramp => Content::Ramp(args.ramp.clone().unwrap_or_else(Ramp::terrain)),
                Mode::Normal => {
                    // Lattice cells per pixel, so that the default keeps the
                    // same look whatever the stack's frequency.
                    let f = (freq[0].value() * freq[1].value()).sqrt() * cells;
                    let strength = args.normal_strength.unwrap_or(0.25 / f);
                    if !strength.is_finite() {
                        return Err("--normal-strength is too large".into());
                    }
                    Content::Normal(NormalEncoder {
                        strength,
                        format: args.normal_format.unwrap_or(NormalFormat::OpenGl),
                    })
                }
            }
        };

        let max = format.max_side();
        if u64::from(width) > max || u64::from(height) > max {
            return Err(format!(
                "{width}x{height} is too large for {}, which holds at most {max} pixels per side",
                format.name()
            ));
        }

        Ok(Plan {
            output: args.output.clone(),
            format,
            width,
            height,
            field,
            x,
            y,
            zw,
            time,
            frames: args.frames,
            content,
            sixteen,
            range,
            timing: Timing {
                fps: args.fps.unwrap_or(25.0),
            },
            overwrite: args.overwrite,
            quiet: args.quiet,
            save_config: args.stack.save_config.clone().zip(stack.map(|r| r.stack)),
        })
    }

    fn pixels(&self) -> u128 {
        u128::from(self.width) * u128::from(self.height)
    }

    /// f64 samples per pixel in the frame buffer: the value, or the two
    /// pixel-space derivatives of a normal map.
    fn channels(&self) -> usize {
        match self.content {
            Content::Normal(_) => 2,
            _ => 1,
        }
    }

    /// Bytes per pixel of a finished frame.
    fn pixel_bytes(&self) -> u128 {
        let channel = if self.sixteen { 2 } else { 1 };
        match (&self.content, self.format) {
            (Content::Float, _) => 4,
            (Content::Gray, _) => channel,
            (Content::Ramp(_), Format::Gif) => 1,
            (Content::Ramp(_) | Content::Normal(_), _) => 3 * channel,
        }
    }

    /// An estimate of the peak memory of the render, in bytes: one frame of
    /// f64 samples, one of finished pixels, what the encoder copies, and
    /// each thread's row buffers.
    fn memory_needed(&self) -> u128 {
        let px = self.pixels();
        let samples = px * self.channels() as u128 * 8;
        let finished = px * self.pixel_bytes();
        let encoder = match (self.format, &self.content) {
            // png compresses a whole frame into memory before writing it.
            (Format::Png | Format::Apng, _) => finished + finished / 8,
            // gif copies the frame, to RGBA first when it must quantise.
            (Format::Gif, Content::Normal(_)) => px * 6,
            (Format::Gif, _) => px * 2,
            (Format::Tiff | Format::Raw, _) => 0,
        };
        let threads = rayon::current_num_threads() as u128;
        // Each thread's eight row buffers, and the shared x coordinates.
        let rows = (threads * 8 + 1) * u128::from(self.width) * 8;
        samples + finished + encoder + rows + (16 << 20)
    }

    /// Refuses a render that would not fit in memory, before allocating.
    fn check_memory(&self) -> Result<(), String> {
        let needed = self.memory_needed();
        let available = output::available_memory();
        if needed > u128::from(available) {
            return Err(format!(
                "a {}x{} render needs about {} of memory, but only {} is available; \
                 use a smaller --size",
                self.width,
                self.height,
                output::human_bytes(needed),
                output::human_bytes(available.into())
            ));
        }
        // usize may be 32 bits; the buffers must be indexable.
        let biggest = self.pixels() * self.channels() as u128 * 8;
        if biggest > isize::MAX as u128 {
            return Err(format!(
                "a {}x{} render is too large for this machine's address space",
                self.width, self.height
            ));
        }
        Ok(())
    }

    /// Refuses a render whose output could not fit on the disk it goes to,
    /// before writing anything: an animation of many large frames can ask
    /// for terabytes. Raw and TIFF are uncompressed, so their size is known;
    /// PNG and GIF compress, but noise compresses poorly, so they are refused
    /// only when even 4:1 compression would not fit. If the space is not
    /// known (the query fails), the render goes ahead: a full disk then fails
    /// the write, and the staged file is removed.
    fn check_disk(&self) -> Result<(), String> {
        let bytes = self.pixels() * self.pixel_bytes() * u128::from(self.frames);
        let ratio = match self.format {
            Format::Raw | Format::Tiff => 1,
            Format::Png | Format::Apng | Format::Gif => 4,
        };
        let dir = output::parent_dir(&self.output);
        let Ok(free) = fs4::available_space(&dir) else {
            return Ok(());
        };
        if bytes / ratio > u128::from(free) {
            let frames = if self.frames > 1 {
                format!(" in {} frames", self.frames)
            } else {
                String::new()
            };
            return Err(format!(
                "{}: a {}x{} image{frames} is about {} of pixel data, but only {} is free \
                 in {}; use a smaller --size or fewer --frames",
                self.output.display(),
                self.width,
                self.height,
                output::human_bytes(bytes),
                output::human_bytes(free.into()),
                dir.display()
            ));
        }
        Ok(())
    }

    fn mapping(&self, measured: Option<(f64, f64)>) -> Option<Mapping> {
        match self.range {
            Range::Documented if matches!(self.content, Content::Float) => None,
            Range::Documented => {
                let (lo, hi) = self.field.range();
                Some(Mapping { lo, hi })
            }
            Range::Fixed(m) => Some(m),
            Range::Auto => measured.map(|(lo, hi)| Mapping::measured(lo, hi)),
        }
    }
}

/// Compiles a stack for `dims` dimensions with its periods: the given ones,
/// the loop's, and for the other axes the largest power of two the stack
/// accepts (65536 rarely is: octave `i` needs the period times
/// lacunarity^i).
fn stack_field(
    r: &Resolved,
    dims: usize,
    loop_period: Option<(usize, u32)>,
) -> Result<StackField, String> {
    let mut stack = r.stack.clone();
    let given = stack.period.clone().unwrap_or_default();
    if given.is_empty() && loop_period.is_none() {
        return StackField::new(&stack, dims).map_err(|e| r.explain(&e));
    }
    let free = dims - given.len() - usize::from(loop_period.is_some());
    let mut first_error = None;
    for shift in 0..=16 {
        let mut p = vec![MAX_PERIOD >> shift; dims];
        p[..given.len()].copy_from_slice(&given);
        if let Some((axis, period)) = loop_period {
            p[axis] = period;
        }
        stack.period = Some(p);
        match StackField::new(&stack, dims) {
            Ok(field) => return Ok(field),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
        if free == 0 {
            break;
        }
    }
    let e = r.explain(&first_error.expect("at least one attempt"));
    Err(if free > 0 {
        format!(
            "{e} (render tiles the {dims}D stack on every axis, giving the axes without a \
             period the largest power of two that works, and none did)"
        )
    } else {
        e
    })
}

/// Per-thread row buffers.
struct Scratch {
    coords: [Vec<f64>; 3],
    values: Vec<f64>,
    gradient: [Vec<f64>; 4],
}

impl Scratch {
    fn new(width: usize, gradient: bool) -> Scratch {
        let g = if gradient { width } else { 0 };
        Scratch {
            coords: std::array::from_fn(|_| vec![0.0; width]),
            values: vec![0.0; width],
            gradient: std::array::from_fn(|_| vec![0.0; g]),
        }
    }
}

/// Renders frame `k` into `frame` (row-major, [`Plan::channels`] samples per
/// pixel), rows in parallel.
fn render_frame(
    plan: &Plan,
    xs: &[f64],
    k: u32,
    frame: &mut [f64],
    progress: &Progress,
) -> Result<(), Stop> {
    let width = plan.width as usize;
    let channels = plan.channels();
    let mut zw = plan.zw;
    if let Some((axis, t)) = plan.time {
        zw[axis] = t.at(u64::from(k));
    }
    let normal = matches!(plan.content, Content::Normal(_));
    let (sx, sy) = (plan.x.step.value(), plan.y.step.value());
    let field = &*plan.field;
    let dims = field.dims();
    frame
        .par_chunks_mut(width * channels)
        .enumerate()
        .try_for_each_init(
            || Scratch::new(width, normal),
            |s, (j, row)| {
                if output::interrupted() {
                    return Err(Stop::Interrupted);
                }
                let [ys, zs, ws] = &mut s.coords;
                ys.fill(plan.y.at(j as u64));
                // Slices past the field's dimension are never read.
                if dims >= 3 {
                    zs.fill(zw[0]);
                }
                if dims >= 4 {
                    ws.fill(zw[1]);
                }
                let coords = [xs, &ys[..], &zs[..], &ws[..]];
                if normal {
                    let [g0, g1, g2, g3] = &mut s.gradient;
                    field.fill_row(coords, &mut s.values, Some([g0, g1, g2, g3]))?;
                    // Chain rule: pixel-space slope = noise-space slope times
                    // the noise distance between neighbouring pixels.
                    for ((out, gx), gy) in row
                        .chunks_exact_mut(2)
                        .zip(&s.gradient[0])
                        .zip(&s.gradient[1])
                    {
                        out[0] = gx * sx;
                        out[1] = gy * sy;
                    }
                } else {
                    field.fill_row(coords, row, None)?;
                }
                progress.inc();
                Ok(())
            },
        )
}

/// The smallest and largest finite value of a frame, merged into `acc`.
fn measure(frame: &[f64], acc: Option<(f64, f64)>) -> Option<(f64, f64)> {
    let (lo, hi) = frame
        .par_iter()
        .copied()
        .filter(|v| v.is_finite())
        .fold(
            || (f64::INFINITY, f64::NEG_INFINITY),
            |(lo, hi), v| (lo.min(v), hi.max(v)),
        )
        .reduce(
            || (f64::INFINITY, f64::NEG_INFINITY),
            |a, b| (a.0.min(b.0), a.1.max(b.1)),
        );
    let frame = (lo <= hi).then_some((lo, hi));
    match (acc, frame) {
        (Some(a), Some(b)) => Some((a.0.min(b.0), a.1.max(b.1))),
        (a, b) => a.or(b),
    }
}

/// Reusable buffers for finished pixels.
#[derive(Default)]
struct Finished {
    bytes: Vec<u8>,
    floats: Vec<f32>,
}

/// Turns a frame of samples into finished pixels, rows in parallel.
fn finish_frame<'a>(
    plan: &Plan,
    mapping: Option<Mapping>,
    frame: &[f64],
    out: &'a mut Finished,
) -> Result<Pixels<'a>, String> {
    let width = plan.width as usize;
    let px = frame.len() / plan.channels();
    let bytes_per = plan.pixel_bytes() as usize;
    let map = |v: f64| mapping.map_or(v, |m| m.apply(v));
    if let Content::Float = plan.content {
        resize(&mut out.floats, px)?;
        out.floats
            .par_chunks_mut(width)
            .zip(frame.par_chunks(width))
            .for_each(|(o, f)| {
                for (o, &v) in o.iter_mut().zip(f) {
                    *o = map(v) as f32;
                }
            });
        return Ok(Pixels::F32(&out.floats));
    }
    resize(&mut out.bytes, px * bytes_per)?;
    let rows = out
        .bytes
        .par_chunks_mut(width * bytes_per)
        .zip(frame.par_chunks(width * plan.channels()));
    let sixteen = plan.sixteen;
    match &plan.content {
        Content::Gray => rows.for_each(|(o, f)| {
            if sixteen {
                for (o, &v) in o.chunks_exact_mut(2).zip(f) {
                    o.copy_from_slice(&color::quantise16(map(v)).to_be_bytes());
                }
            } else {
                for (o, &v) in o.iter_mut().zip(f) {
                    *o = color::quantise8(map(v));
                }
            }
        }),
        // A GIF ramp stores the palette index; the palette holds the ramp.
        Content::Ramp(_) if plan.format == Format::Gif => rows.for_each(|(o, f)| {
            for (o, &v) in o.iter_mut().zip(f) {
                *o = color::quantise8(map(v));
            }
        }),
        Content::Ramp(ramp) => rows.for_each(|(o, f)| {
            if sixteen {
                for (o, &v) in o.chunks_exact_mut(6).zip(f) {
                    for (o, c) in o.chunks_exact_mut(2).zip(ramp.rgb16(map(v))) {
                        o.copy_from_slice(&c.to_be_bytes());
                    }
                }
            } else {
                for (o, &v) in o.chunks_exact_mut(3).zip(f) {
                    o.copy_from_slice(&ramp.rgb8(map(v)));
                }
            }
        }),
        Content::Normal(enc) => rows.for_each(|(o, f)| {
            let per = if sixteen { 6 } else { 3 };
            for (o, d) in o.chunks_exact_mut(per).zip(f.chunks_exact(2)) {
                let rgb = enc.rgb(d[0], d[1]);
                if sixteen {
                    for (o, c) in o.chunks_exact_mut(2).zip(rgb) {
                        o.copy_from_slice(&color::quantise16(c).to_be_bytes());
                    }
                } else {
                    for (o, c) in o.iter_mut().zip(rgb) {
                        *o = color::quantise8(c);
                    }
                }
            }
        }),
        Content::Float => unreachable!("handled above"),
    }
    let data = &out.bytes[..];
    Ok(match (&plan.content, plan.format) {
        (Content::Gray, _) | (Content::Ramp(_), Format::Gif) if !sixteen => Pixels::Gray8(data),
        (Content::Gray, _) => Pixels::Gray16(data),
        _ if sixteen => Pixels::Rgb16(data),
        _ => Pixels::Rgb8(data),
    })
}

/// Resizes a buffer, reporting failure to allocate instead of aborting.
fn resize<T: Clone + Default>(v: &mut Vec<T>, len: usize) -> Result<(), String> {
    if v.len() < len {
        v.try_reserve_exact(len - v.len())
            .map_err(|_| format!("out of memory allocating {len} pixels"))?;
    }
    v.resize(len, T::default());
    Ok(())
}

/// Opens the encoder for `plan` on `w`.
fn open_sink<'w, W: Write + std::io::Seek + 'w>(
    plan: &Plan,
    w: W,
) -> std::io::Result<Box<dyn Sink + 'w>> {
    let animation = plan.frames > 1 || plan.format == Format::Apng;
    match plan.format {
        Format::Png | Format::Apng => encode::png(
            w,
            plan.width,
            plan.height,
            PngLayout {
                rgb: !matches!(plan.content, Content::Gray),
                sixteen: plan.sixteen,
            },
            animation.then_some((plan.frames, plan.timing)),
        ),
        Format::Gif => {
            let palette: Vec<u8> = match &plan.content {
                Content::Ramp(r) => (0..=255)
                    .flat_map(|i| r.rgb8(f64::from(i) / 255.0))
                    .collect(),
                Content::Normal(_) => Vec::new(),
                _ => (0..=255u8).flat_map(|i| [i, i, i]).collect(),
            };
            // The caller checked both sides against Format::max_side.
            let side = |v: u32| u16::try_from(v).unwrap_or(u16::MAX);
            encode::gif(
                w,
                side(plan.width),
                side(plan.height),
                &palette,
                animation.then_some(plan.timing),
            )
        }
        Format::Tiff => {
            // Classic TIFF addresses 4 GiB; leave room for the directories.
            let data = plan.pixels() * 4 * u128::from(plan.frames);
            let big = data > (1u128 << 32) - (64 << 20);
            encode::tiff(w, plan.width, plan.height, big)
        }
        Format::Raw => Ok(encode::raw(w)),
    }
}

/// Renders every frame and encodes it to `file`.
fn render(plan: &Plan, file: &std::fs::File, progress: &Progress) -> Result<(), Stop> {
    let width = plan.width as usize;
    let xs: Vec<f64> = (0..u64::from(plan.width)).map(|i| plan.x.at(i)).collect();
    let mut frame = Vec::new();
    resize(&mut frame, width * plan.height as usize * plan.channels())?;
    let mut finished = Finished::default();
    let write_err = |e: std::io::Error| {
        if output::interrupted() {
            Stop::Interrupted
        } else {
            Stop::Failed(format!("writing {}: {e}", plan.output.display()))
        }
    };

    // An animation is stretched by the range of all its frames, which is
    // known only after rendering them all; rendering twice keeps memory at
    // one frame whatever the frame count.
    let mut measured = None;
    if plan.range == Range::Auto && plan.frames > 1 {
        for k in 0..plan.frames {
            render_frame(plan, &xs, k, &mut frame, progress)?;
            measured = measure(&frame, measured);
        }
    }

    let mut w = BufWriter::with_capacity(1 << 20, Guarded(file));
    let mut sink = open_sink(plan, &mut w).map_err(write_err)?;
    for k in 0..plan.frames {
        progress.rendering();
        render_frame(plan, &xs, k, &mut frame, progress)?;
        if plan.range == Range::Auto && plan.frames == 1 {
            measured = measure(&frame, None);
        }
        let pixels = finish_frame(plan, plan.mapping(measured), &frame, &mut finished)?;
        progress.encoding();
        sink.frame(pixels).map_err(write_err)?;
        if output::interrupted() {
            return Err(Stop::Interrupted);
        }
    }
    sink.finish().map_err(write_err)?;
    w.flush().map_err(write_err)
}

/// Runs `surflet render`.
pub fn run(args: &RenderArgs) -> Result<(), CliError> {
    let plan = Plan::new(args).map_err(CliError::Usage)?;
    output::check_target(&plan.output, plan.overwrite).map_err(CliError::Runtime)?;
    plan.check_memory().map_err(CliError::Runtime)?;
    plan.check_disk().map_err(CliError::Runtime)?;
    output::install_interrupt_handler().map_err(CliError::Runtime)?;
    // Staged first and committed after the image, so that a failed or
    // interrupted render leaves neither file.
    let config = match &plan.save_config {
        Some((path, stack)) => {
            Some(StagedConfig::new(path, stack, plan.overwrite).map_err(CliError::Runtime)?)
        }
        None => None,
    };
    let staged = Staged::new(&plan.output).map_err(CliError::Runtime)?;
    let passes = if plan.range == Range::Auto && plan.frames > 1 {
        2
    } else {
        1
    };
    let progress = Progress::new(
        u64::from(plan.height) * u64::from(plan.frames) * passes,
        plan.quiet,
    );
    let result = render(&plan, staged.file(), &progress);
    progress.finish();
    match result {
        // Dropping `staged` deletes the temporary file.
        Err(Stop::Interrupted) => Err(CliError::Interrupted),
        _ if output::interrupted() => Err(CliError::Interrupted),
        Err(Stop::Failed(e)) => Err(CliError::Runtime(e)),
        Ok(()) => {
            staged.commit(plan.overwrite).map_err(CliError::Runtime)?;
            config
                .map_or(Ok(()), StagedConfig::commit)
                .map_err(CliError::Runtime)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        let s = |w, h| Size {
            width: w,
            height: h,
        };
        assert_eq!(parse_size("512x256"), Ok(s(512, 256)));
        assert_eq!(parse_size(" 64 X 32 "), Ok(s(64, 32)));
        assert_eq!(parse_size("100"), Ok(s(100, 100)));
        assert!(parse_size("0x5").unwrap_err().contains("width"));
        assert!(parse_size("5x0").unwrap_err().contains("height"));
        assert!(
            parse_size("5000000000x1")
                .unwrap_err()
                .contains("too large")
        );
        assert!(parse_size("axb").is_err());
        assert!(parse_size("-5x5").is_err());
    }

    #[test]
    fn ratios_round_once() {
        let r = parse_ratio("1/3").unwrap();
        assert_eq!((r.num, r.den), (1.0, 3.0));
        let x = Axis {
            origin: 0.0,
            step: r,
        };
        // i*1/3 rounded once hits 1 exactly at i = 3, where 3*(1/3) would
        // also happen to; 49*(1/49) is the classic case that does not.
        assert_eq!(x.at(3), 1.0);
        let y = Axis {
            origin: 0.0,
            step: parse_ratio("1/49").unwrap(),
        };
        assert_eq!(y.at(49), 1.0);
        assert_ne!(49.0 * (1.0f64 / 49.0), 1.0);
        assert_eq!(parse_ratio("0.25").unwrap().value(), 0.25);
        for bad in ["0", "-1", "1/0", "inf", "x", "1/", "1e308/1e-308"] {
            assert!(parse_ratio(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn short_numbers() {
        assert_eq!(short(0.1 + 0.2), "0.3");
        assert_eq!(short(2.0), "2");
        assert_eq!(short(0.03125), "0.03125");
    }
}
