//! The options of `surflet render`, and their types.

use crate::bench::{Device, Precision};
use std::path::PathBuf;

use clap::Args;
use clap::builder::TypedValueParser;

use crate::imaging::color::{NormalFormat, Ramp};
use crate::imaging::encode::Format;
use crate::stack_args::{StackArgs, listed};
use crate::units::{Ratio, Size, parse_finite, parse_ratio, parse_size};

pub use surflet::document::{PixelMode as Mode, TimeAxis};

fn mode() -> impl TypedValueParser<Value = Mode> {
    listed(&Mode::ALL, Mode::name, Mode::alias, Mode::from_name)
}

fn time_axis() -> impl TypedValueParser<Value = TimeAxis> {
    listed(
        &TimeAxis::ALL,
        TimeAxis::name,
        TimeAxis::alias,
        TimeAxis::from_name,
    )
}

fn normal_format() -> impl TypedValueParser<Value = NormalFormat> {
    listed(
        &NormalFormat::ALL,
        NormalFormat::name,
        NormalFormat::alias,
        NormalFormat::from_name,
    )
}

fn parse_ramp(s: &str) -> Result<String, String> {
    Ramp::parse(s)
        .map(|_| s.trim().to_string())
        .map_err(|e| e.to_string())
}

fn parse_fps(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(f) if f > 0.0 && f <= 1000.0 => Ok(f),
        Ok(_) => Err("frames per second must be in (0, 1000]".into()),
        Err(_) => Err(format!("{:?} is not a number", s.trim())),
    }
}

/// Arguments of `surflet render`.
#[derive(Args, Debug, Clone)]
#[command(allow_negative_numbers = true)]
pub struct RenderArgs {
    /// The file to write; its extension picks the format.
    #[arg(value_name = "OUTPUT")]
    pub output: PathBuf,

    /// The output format, overriding OUTPUT's extension.
    #[arg(long, short = 'f', value_name = "FORMAT", hide_short_help = true)]
    pub format: Option<Format>,

    /// Refuse to replace an existing OUTPUT (or --save-config file); by
    /// default a repeated command replaces its output, atomically.
    #[arg(long, hide_short_help = true)]
    pub no_clobber: bool,

    /// Accepted for old scripts: replacing is the default.
    #[arg(long, hide = true)]
    pub overwrite: bool,

    /// Never show a progress bar.
    #[arg(long, short = 'q', hide_short_help = true)]
    pub quiet: bool,

    /// Evaluate the noise in f64 (the default) or f32.
    #[arg(long, value_enum, value_name = "P", hide_short_help = true)]
    pub precision: Option<Precision>,

    /// Where to evaluate: cpu, or gpu (a build with the gpu feature).
    ///
    /// The GPU runs stacks and graphs of every family noise in 2D, 3D and
    /// 4D (any fractal and warp) compiled to WGSL, in f32; where the driver
    /// computes the CPU's bits (docs/GPU.md), the file is the one
    /// `--precision f32` writes.
    #[arg(
        long,
        value_enum,
        default_value = "cpu",
        hide_short_help = true,
        hide_possible_values = true
    )]
    pub device: Device,

    #[command(flatten)]
    pub stack: StackArgs,

    /// Image size in pixels [default: 512x512]
    ///
    /// WIDTHxHEIGHT, or one number N for N x N [default: 512x512, or the
    /// config's].
    #[arg(long, value_name = "N|WxH", allow_hyphen_values = true, value_parser = parse_size, help_heading = "View")]
    pub size: Option<Size>,

    /// Show the config's region of the plane at the new --size: the pixel
    /// spacing is scaled by the config's size over the new one.
    #[arg(
        long,
        requires = "config",
        hide_short_help = true,
        help_heading = "View"
    )]
    pub same_view: bool,

    /// World units per pixel [default: 1/64]
    ///
    /// A decimal or a fraction, for both axes or as SX,SY [default: 1/64, or
    /// the config's; one period per image with --period].
    #[arg(
        long,
        value_name = "S[,SY]",
        value_delimiter = ',',
        allow_hyphen_values = true,
        value_parser = parse_ratio,
        help_heading = "View"
    )]
    pub scale: Option<Vec<Ratio>>,

    /// World coordinates of the top-left pixel [default: 0,0]
    #[arg(
        long,
        value_name = "X,Y",
        value_delimiter = ',',
        allow_hyphen_values = true,
        value_parser = parse_finite,
        help_heading = "View"
    )]
    pub origin: Option<Vec<f64>>,

    /// Render only tile I,J of --tiles: column I and row J, from 0
    ///
    /// Column I and row J of the --tiles grid, counted from 0 at the top
    /// left. The tile holds exactly the whole image's pixels in its window,
    /// so tiles rendered by separate jobs put together make the image bit
    /// for bit; --size (or the config's size) stays that of the whole image,
    /// and --save-config writes the whole image's config.
    #[arg(
        long,
        value_name = "I,J",
        value_delimiter = ',',
        requires = "tiles",
        value_parser = clap::value_parser!(u32),
        hide_short_help = true,
        help_heading = "View"
    )]
    pub tile: Option<Vec<u32>>,

    /// Split the image into N columns and M rows of tiles (with --tile)
    ///
    /// N columns and M rows of tiles, for --tile. Column I spans pixels
    /// floor(I*W/N) to floor((I+1)*W/N) - 1 of a W-pixel-wide image (rows
    /// alike), so tiles differ in size by at most one pixel, and are all
    /// W/N wide when N divides W.
    #[arg(
        long,
        value_name = "N,M",
        value_delimiter = ',',
        requires = "tile",
        value_parser = clap::value_parser!(u32),
        hide_short_help = true,
        help_heading = "View"
    )]
    pub tiles: Option<Vec<u32>>,

    /// Fade the octaves finer than a pixel, so that zoomed-out fractals do
    /// not alias
    ///
    /// Every stack of the description, graph leaves included, gets the
    /// config's `antialias = true` with the pixel's size (the larger side)
    /// as its footprint where it states none: octave i's amplitude is
    /// multiplied by 1 - smoothstep(0.2, 0.75, f_i * pixel). The value and
    /// its gradient fade alike, the documented range stays. Saved as the
    /// config's `[view] antialias = true`, so that the config renders the
    /// same pixels at this size and fades by its own pixel at another.
    #[arg(long, help_heading = "View")]
    pub antialias: bool,

    /// Dimension of the noise: 2, 3 or 4 [default: 2, or what --z, --w,
    /// --animate and the per-axis keys (--period, --domain-offset) need].
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u8).range(2..=4), hide_short_help = true, help_heading = "View")]
    pub dims: Option<u8>,

    /// The z coordinate of the slice, in world units (implies 3D) [default:
    /// 0].
    #[arg(long, value_name = "Z", value_parser = parse_finite, hide_short_help = true, help_heading = "View")]
    pub z: Option<f64>,

    /// The w coordinate of the slice, in world units (implies 4D) [default:
    /// 0].
    #[arg(long, value_name = "W", value_parser = parse_finite, hide_short_help = true, help_heading = "View")]
    pub w: Option<f64>,

    /// What the pixels show: gray, ramp or normal [default: gray]
    ///
    /// gray, ramp or normal [default: gray, or ramp with --ramp, normal with
    /// --normal-*, or the config's].
    #[arg(
        long,
        value_name = "MODE",
        value_parser = mode(),
        hide_possible_values = true,
        help_heading = "Pixels"
    )]
    pub mode: Option<Mode>,

    /// Colour ramp: terrain, gray, or stops (implies --mode ramp)
    ///
    /// terrain, gray, or stops like 0:#1a3c6e,0.45:#2a6fb0,0.5:#d8c38a,1:#fff
    /// (implies --mode ramp).
    #[arg(long, value_name = "RAMP", value_parser = parse_ramp, help_heading = "Pixels")]
    pub ramp: Option<String>,

    /// Bits per channel of PNG output: 8 or 16 [default: 8].
    #[arg(long, value_name = "BITS", value_parser = ["8", "16"], hide_short_help = true, help_heading = "Pixels")]
    pub bit_depth: Option<String>,

    /// Stretch the measured minimum..maximum over the pixel range
    ///
    /// Map the measured minimum..maximum of the rendered values onto the
    /// pixel range, instead of the documented range.
    #[arg(long, conflicts_with = "range", help_heading = "Pixels")]
    pub auto_range: bool,

    /// Map LO..HI onto the pixel range, instead of the documented range.
    #[arg(
        long,
        value_name = "LO,HI",
        value_delimiter = ',',
        allow_hyphen_values = true,
        value_parser = parse_finite,
        hide_short_help = true,
        help_heading = "Pixels"
    )]
    pub range: Option<Vec<f64>>,

    /// Height of the normal map's surface, in pixels per unit of noise
    /// value [default: 0.25 / (cells per pixel)].
    #[arg(long, value_name = "S", value_parser = parse_finite, hide_short_help = true, help_heading = "Pixels")]
    pub normal_strength: Option<f64>,

    /// The normal map's y convention: opengl or directx [default: opengl].
    #[arg(
        long,
        value_name = "CONVENTION",
        value_parser = normal_format(),
        hide_possible_values = true,
        hide_short_help = true,
        help_heading = "Pixels"
    )]
    pub normal_format: Option<NormalFormat>,

    /// Number of frames; more than one makes an animation [default: 1, or
    /// the config's]. (`-h` shows it without the default: one line.)
    #[arg(
        long,
        value_name = "N",
        help_heading = "Animation",
        help = "Number of frames; more than one makes an animation",
        long_help = "Number of frames; more than one makes an animation [default: 1, or the \
                     config's]."
    )]
    pub frames: Option<u32>,

    /// The axis the animation moves along: z or w [default: z].
    #[arg(
        long,
        value_name = "AXIS",
        value_parser = time_axis(),
        hide_possible_values = true,
        hide_short_help = true,
        help_heading = "Animation"
    )]
    pub animate: Option<TimeAxis>,

    /// How far each frame moves, in world units, as a decimal or a
    /// fraction [default: 1/32 of a cell; with --loop, about that, making a
    /// whole number of cells in all].
    #[arg(long, value_name = "STEP", allow_hyphen_values = true, value_parser = parse_ratio, hide_short_help = true, help_heading = "Animation")]
    pub step: Option<Ratio>,

    /// Make the animation loop seamlessly
    ///
    /// The time axis gets the period frames*step*frequency cells, which must
    /// be a whole number.
    #[arg(long = "loop", help_heading = "Animation")]
    pub looped: bool,

    /// Frames per second of APNG and GIF animations [default: 25].
    #[arg(long, value_name = "FPS", value_parser = parse_fps, hide_short_help = true, help_heading = "Animation")]
    pub fps: Option<f64>,
}
