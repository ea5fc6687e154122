//! From options and a config to a [`Plan`]: every decision of a render,
//! validated, with nothing allocated.
//!
//! One model maps pixels to the plane, for every option source: pixel
//! `(i, j)` lies at world point `(X + (i*A)/B, Y + (j*C)/D)` (origin `X,Y`,
//! scale `A/B, C/D` world units per pixel), and the noise stack sees the
//! world point times its frequency. The resolved choices are kept as a
//! [`Document`], which `--save-config` writes and `--config` reads back.

use std::path::PathBuf;

use surflet::{MAX_PERIOD, Stack};

use super::args::{Mode, RenderArgs, TimeAxis};
use crate::any_field::FieldCalls;
use crate::document::{Animation, Document, PixelSpec, RangeSpec, View};
use crate::imaging::color::{Mapping, NormalEncoder, NormalFormat, Ramp};
use crate::imaging::encode::{Format, Timing};
use crate::stack_args::Resolved;
use crate::units::{Ratio, Size, short};
use surflet::dynamic::DynField;

/// Beyond 2^52 cells every f64 coordinate is a whole number: the samples all
/// lie on lattice points and the image carries no detail.
const MAX_CELLS: f64 = 4_503_599_627_370_496.0;

/// How values become `t` before quantisation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Range {
    /// The field's documented range; float outputs keep the raw value.
    Documented,
    /// Measured over everything rendered.
    Auto,
    /// Given.
    Fixed(Mapping),
}

/// What each pixel holds.
#[derive(Clone, Debug)]
pub(super) enum Content {
    Gray,
    Ramp(Ramp),
    Normal(NormalEncoder),
    Float,
}

/// Pixel index to world coordinate along one image axis:
/// `origin + ((start + i)*step.num)/step.den`, where `start` is the first
/// pixel of a tile (0 for a whole image).
#[derive(Clone, Copy, Debug)]
pub(super) struct Axis {
    pub origin: f64,
    pub step: Ratio,
    /// The index, in the whole image, of pixel 0 of what is rendered: the
    /// tile's offset is added to the index and never folded into the
    /// origin, which would round differently from the whole image.
    pub start: u64,
}

impl Axis {
    #[inline]
    pub fn at(&self, i: u64) -> f64 {
        self.origin + ((self.start + i) as f64 * self.step.num) / self.step.den
    }
}

/// The window of the whole image that `--tile I,J --tiles N,M` renders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Window {
    /// The first column and row.
    pub start: [u64; 2],
    /// Its width and height.
    pub size: Size,
}

/// The part `[floor(i*n/count), floor((i+1)*n/count))` of `0..n`: parts
/// that differ by at most one and are never empty when `count <= n`.
fn split(n: u32, count: u32, i: u32) -> (u64, u32) {
    let edge = |k: u32| u64::from(k) * u64::from(n) / u64::from(count);
    let (a, b) = (edge(i), edge(i + 1));
    // b - a <= ceil(n/count) <= n, a u32.
    (a, (b - a) as u32)
}

/// The window of `--tile`/`--tiles`, checked against the image's size and
/// against what a tile cannot know: the whole image's measured range, and
/// the palette a GIF normal map quantises to from the whole image.
fn tile_window(
    args: &RenderArgs,
    size: Size,
    range: Range,
    format: Format,
    mode: Mode,
) -> Result<Option<Window>, String> {
    let (tile, tiles) = match (&args.tile, &args.tiles) {
        (None, None) => return Ok(None),
        (Some(t), Some(n)) => (t, n),
        // clap's `requires` makes each need the other.
        _ => return Err("--tile and --tiles go together".into()),
    };
    let &[i, j] = tile.as_slice() else {
        return Err(format!(
            "--tile takes two values I,J (column, row), got {}",
            tile.len()
        ));
    };
    let &[n, m] = tiles.as_slice() else {
        return Err(format!(
            "--tiles takes two values N,M (columns, rows), got {}",
            tiles.len()
        ));
    };
    if n == 0 || m == 0 {
        return Err("--tiles needs at least one column and one row".into());
    }
    if i >= n || j >= m {
        return Err(format!(
            "--tile {i},{j} is outside --tiles {n},{m}: columns run from 0 to {}, rows from 0 \
             to {}",
            n - 1,
            m - 1
        ));
    }
    let Size { width, height } = size;
    if n > width || m > height {
        return Err(format!(
            "--tiles {n},{m} splits a {width}x{height} image into tiles of no pixels; give at \
             most {width} columns and {height} rows"
        ));
    }
    if range == Range::Auto {
        return Err(
            "--auto-range stretches the range measured over the whole image, which one tile \
             cannot know, so its tiles would not join; give --range LO,HI, or leave both out \
             for the documented range"
                .into(),
        );
    }
    if format == Format::Gif && mode == Mode::Normal {
        return Err(
            "a GIF normal map's palette is chosen from the colours of the whole image, which \
             one tile cannot know; write PNG tiles"
                .into(),
        );
    }
    let (x0, w) = split(width, n, i);
    let (y0, h) = split(height, m, j);
    Ok(Some(Window {
        start: [x0, y0],
        size: Size {
            width: w,
            height: h,
        },
    }))
}

/// A validated render: everything decided, nothing allocated.
pub(super) struct Plan {
    pub output: PathBuf,
    pub format: Format,
    pub width: u32,
    pub height: u32,
    pub field: Box<DynField>,
    pub x: Axis,
    pub y: Axis,
    /// z and w of frame 0 (unused beyond the field's dimension).
    pub zw: [f64; 2],
    /// The animated coordinate (0 = z, 1 = w) and its per-frame step.
    pub time: Option<(usize, Axis)>,
    pub frames: u32,
    pub content: Content,
    pub sixteen: bool,
    pub range: Range,
    pub timing: Timing,
    pub overwrite: bool,
    pub quiet: bool,
    /// Said on standard error before rendering (even with --quiet, which
    /// silences only the progress bar).
    pub warning: Option<String>,
    /// Where --save-config writes, and what: every resolved choice.
    pub save_config: Option<(PathBuf, Document)>,
    /// How and where the noise is evaluated.
    pub eval: Evaluation,
    /// Every resolved choice, as --save-config would write it (read by
    /// `serve`'s export).
    #[cfg_attr(not(feature = "serve"), allow(dead_code))]
    pub doc: Document,
}

/// How and where a render evaluates its noise.
pub(super) enum Evaluation {
    /// On the CPU in f64 (the default).
    F64,
    /// On the CPU in f32 (--precision f32).
    F32,
    /// On the GPU in f32 (--device gpu).
    #[cfg(feature = "gpu")]
    Gpu(Box<crate::gpu::GpuStack>),
}

impl Plan {
    /// The grid of the first `D` coordinate lists (x fastest), values to
    /// `out` and, if asked, the gradient to the first `D` slices.
    pub(super) fn fill_grid(
        &self,
        axes: [&[f64]; 4],
        out: &mut [f64],
        gradient: Option<[&mut [f64]; 4]>,
    ) -> Result<(), String> {
        match &self.eval {
            Evaluation::F64 => self.field.fill_grid(axes, out, gradient),
            Evaluation::F32 => self.field.fill_grid_f32(axes, out, gradient),
            #[cfg(feature = "gpu")]
            Evaluation::Gpu(g) => return g.fill_grid(axes, out, gradient),
        }
        .map_err(|e| e.to_string())
    }
}

/// --precision and --device: f64 on the CPU unless they say otherwise;
/// the GPU evaluates stacks and graphs in f32.
fn evaluation(
    args: &RenderArgs,
    r: &Resolved,
    built: &Stack,
    dims: usize,
    normal: bool,
) -> Result<Evaluation, String> {
    use crate::bench::{Device, Precision};
    match (args.device, args.precision) {
        (Device::Cpu, None | Some(Precision::F64)) => Ok(Evaluation::F64),
        (Device::Cpu, Some(Precision::F32)) => Ok(Evaluation::F32),
        (Device::Gpu, Some(Precision::F64)) => {
            Err("--device gpu evaluates in f32: drop --precision f64".into())
        }
        (Device::Gpu, _) => gpu_evaluation(r, built, dims, normal),
    }
}

/// The GPU's evaluation of the graph, or of `built`, the stack as the CPU
/// field was built (with the periods render adds to tile an image or loop
/// an animation).
#[cfg(feature = "gpu")]
fn gpu_evaluation(
    r: &Resolved,
    built: &Stack,
    dims: usize,
    normal: bool,
) -> Result<Evaluation, String> {
    match crate::gpu::GpuStack::new(built, r.graph.as_ref(), dims, normal) {
        Ok(g) => Ok(Evaluation::Gpu(Box::new(g))),
        Err(crate::CliError::Usage(m) | crate::CliError::Runtime(m)) => Err(m),
        Err(e) => Err(format!("{e:?}")),
    }
}

#[cfg(not(feature = "gpu"))]
fn gpu_evaluation(_: &Resolved, _: &Stack, _: usize, _: bool) -> Result<Evaluation, String> {
    Err("--device gpu needs a build with the gpu feature: cargo install --path crates/surflet-cli --features gpu".into())
}

/// The first of several options that was given, for messages.
fn first(flags: &[(bool, &'static str)]) -> Option<&'static str> {
    flags
        .iter()
        .find_map(|&(given, flag)| given.then_some(flag))
}

/// The output format: `--format`, or OUTPUT's extension.
fn format_of(args: &RenderArgs) -> Result<Format, String> {
    if let Some(f) = args.format {
        return Ok(f);
    }
    let ext = args
        .output
        .extension()
        .map(|e| e.to_string_lossy().into_owned());
    ext.as_deref()
        .and_then(Format::from_extension)
        .ok_or_else(|| {
            format!(
                "cannot tell the format of {} from its extension: use .png, .apng, .gif, \
             .tif/.tiff or .raw/.f32, or give --format",
                args.output.display()
            )
        })
}

/// Said when a config without a `version` line is drawn at version 1's
/// scale.
const VERSION1_WARNING: &str = "warning: the config has no `version` line, so it is read as a \
     version 1 file, drawn at one world unit per pixel as the first releases drew it (at \
     frequency 1 that is one lattice cell per pixel: static). Put `version = 2` at its top for \
     1/64 unit per pixel, or give --scale";

impl Plan {
    /// Validates the options and the config; every error is a usage error.
    pub fn new(args: &RenderArgs) -> Result<Plan, String> {
        let format = format_of(args)?;
        let r = args.stack.resolve(None)?;
        if let Some(path) = &args.stack.save_config
            && *path == args.output
        {
            return Err("--save-config names OUTPUT; give the config a file of its own".into());
        }
        let doc = r.doc.clone().unwrap_or_default();
        let (view, pixels, anim) = (&doc.view, &doc.pixels, &doc.animation);
        let cells = r.stack.frequency;

        // Size: given, the config's, or 512 square.
        let size = match (args.size, view.size) {
            (Some(s), _) => s,
            (None, Some([width, height])) => Size { width, height },
            (None, None) => Size {
                width: 512,
                height: 512,
            },
        };
        let pc = pixel_choice(args, pixels, format)?;
        let window = tile_window(args, size, pc.range, format, pc.mode)?;
        // The pixels rendered: the tile's, or the whole image's.
        let Size { width, height } = window.map_or(size, |w| w.size);
        let start = window.map_or([0, 0], |w| w.start);

        let choice = frames_choice(args, anim, format)?;
        let Frames {
            frames,
            time_axis,
            looped,
            fps,
        } = choice;

        let period = r.stack.period.as_deref();
        let period_len = period.map_or(0, <[u32]>::len);
        let z = args.z.or(view.z);
        let w = args.w.or(view.w);
        let dims = dims_choice(args, view, &r, time_axis)?;

        let (step, loop_period) = time_step(args, anim, &choice, cells, period_len)?;
        let (scale, version1_scale) = pixel_scale(args, &doc, period, cells, size)?;
        // What is built and evaluated: the description with the pixel's
        // size as the footprint of antialiased stacks that state none. The
        // saved config keeps `r`'s, which a render at another size resolves
        // at its own pixel.
        let antialias = args.antialias || view.antialias == Some(true);
        let aa = r.at_pixel(scale, antialias);
        let (field, built) = stack_field(&aa, dims, loop_period).map_err(|e| {
            if looped && period.is_none() {
                format!(
                    "{e}; --loop makes the noise periodic, so animate along z or use value or \
                     perlin noise"
                )
            } else {
                e
            }
        })?;

        let (origin, x, y) = image_axes(args, view, scale, start)?;
        let zw = [z.unwrap_or(0.0), w.unwrap_or(0.0)];
        let time = time_axis.map(|a| {
            let k = usize::from(a == TimeAxis::W);
            (
                k,
                Axis {
                    origin: zw[k],
                    step,
                    start: 0,
                },
            )
        });
        let corners = [
            x.origin,
            x.at(u64::from(width)),
            y.origin,
            y.at(u64::from(height)),
            if dims >= 3 { zw[0] } else { 0.0 },
            if dims >= 4 { zw[1] } else { 0.0 },
            time.map_or(0.0, |(_, t)| t.at(u64::from(frames))),
        ];
        check_reach(&corners, cells)?;

        let normal_format = args
            .normal_format
            .or(pixels.normal_format)
            .unwrap_or(NormalFormat::OpenGl);
        let normal_strength = args.normal_strength.or(pixels.normal_strength);
        let content = content_of(format, &pc, normal_format, normal_strength, scale, cells)?;
        check_side(format, width, height)?;
        let normal = matches!(content, Content::Normal(_));
        let eval = evaluation(args, &aa, &built, dims, normal)?;

        // Everything above, as a config that reproduces it.
        let saved = Document {
            version: crate::document::VERSION,
            stack: r.stack.clone(),
            graph: r.graph.clone(),
            view: View {
                // The whole image's, which a tile's config describes.
                size: Some([size.width, size.height]),
                origin: Some(origin),
                scale: Some(scale),
                dims: Some(dims as u8),
                z: (dims >= 3).then_some(zw[0]),
                w: (dims >= 4).then_some(zw[1]),
                antialias: antialias.then_some(true),
            },
            pixels: pixel_spec(&pc, normal_strength, normal_format),
            animation: animation_spec(&choice, step),
        };

        let plan = Plan {
            output: args.output.clone(),
            format,
            width,
            height,
            field: Box::new(field),
            x,
            y,
            zw,
            time,
            frames,
            content,
            sixteen: pc.sixteen,
            range: pc.range,
            timing: Timing { fps },
            overwrite: !args.no_clobber,
            quiet: args.quiet,
            warning: version1_scale.then(|| VERSION1_WARNING.to_string()),
            save_config: args.stack.save_config.clone().map(|p| (p, saved.clone())),
            eval,
            doc: saved,
        };
        plan.check_documented_range()?;
        Ok(plan)
    }

    /// A documented range maps onto pixels only if it is finite (float
    /// outputs keep the raw values and need no mapping).
    fn check_documented_range(&self) -> Result<(), String> {
        if matches!(self.range, Range::Documented) && !matches!(self.content, Content::Float) {
            let (lo, hi) = self.field.range();
            if !(lo.is_finite() && hi.is_finite()) {
                return Err(format!(
                    "the graph's derived range is [{lo}, {hi}] (a division by a field that can be \
                     0, or a negative power of one), so it has no pixel mapping; give --range \
                     LO,HI or --auto-range"
                ));
            }
        }
        Ok(())
    }

    pub fn pixels(&self) -> u128 {
        u128::from(self.width) * u128::from(self.height)
    }

    /// f64 samples per pixel in the frame buffer: the value, or the two
    /// pixel-space derivatives of a normal map.
    pub fn channels(&self) -> usize {
        match self.content {
            Content::Normal(_) => 2,
            _ => 1,
        }
    }

    /// Bytes per pixel of a finished frame.
    pub fn pixel_bytes(&self) -> u128 {
        let channel = if self.sixteen { 2 } else { 1 };
        match (&self.content, self.format) {
            (Content::Float, _) => 4,
            (Content::Gray, _) => channel,
            (Content::Ramp(_), Format::Gif) => 1,
            (Content::Ramp(_) | Content::Normal(_), _) => 3 * channel,
        }
    }

    pub fn mapping(&self, measured: Option<(f64, f64)>) -> Option<Mapping> {
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

/// What the pixels show, from the flags over the config's `[pixels]`.
struct PixelChoice {
    mode: Mode,
    ramp: Option<String>,
    range_spec: RangeSpec,
    range: Range,
    sixteen: bool,
}

/// Decides what the pixels show, and checks that the format can hold it.
fn pixel_choice(
    args: &RenderArgs,
    pixels: &PixelSpec,
    format: Format,
) -> Result<PixelChoice, String> {
    let ramp = args.ramp.clone().or_else(|| pixels.ramp.clone());
    let normal_flag = first(&[
        (args.normal_strength.is_some(), "--normal-strength"),
        (args.normal_format.is_some(), "--normal-format"),
    ]);
    let mode = match (args.mode, &args.ramp, normal_flag) {
        (Some(m), _, _) => m,
        (None, Some(_), _) => Mode::Ramp,
        (None, None, Some(_)) => Mode::Normal,
        (None, None, None) => pixels.mode.unwrap_or(Mode::Gray),
    };
    if args.ramp.is_some() && mode != Mode::Ramp {
        return Err("--ramp applies to --mode ramp".into());
    }
    if mode != Mode::Normal
        && let Some(flag) = normal_flag
    {
        return Err(format!("{flag} applies to --mode normal"));
    }
    let range_flag = first(&[
        (args.auto_range, "--auto-range"),
        (args.range.is_some(), "--range"),
    ]);
    if mode == Mode::Normal
        && let Some(flag) = range_flag
    {
        return Err(format!(
            "normal maps come from the gradient, which no range maps; {flag} applies to \
             --mode gray and ramp"
        ));
    }
    let sixteen = args.bit_depth.as_deref() == Some("16");
    if format.is_float() {
        if mode != Mode::Gray {
            return Err(format!(
                "{} output holds the noise values as f32; --mode {} needs PNG or GIF",
                format.name(),
                if mode == Mode::Ramp { "ramp" } else { "normal" }
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
    let range_spec = match (&args.range, args.auto_range) {
        (Some(r), _) => match *r.as_slice() {
            [lo, hi] if lo != hi => RangeSpec::Fixed(lo, hi),
            [_, _] => return Err("--range needs two different values LO,HI".into()),
            _ => return Err(format!("--range takes two values LO,HI, got {}", r.len())),
        },
        (None, true) => RangeSpec::Auto,
        (None, false) if mode == Mode::Normal => RangeSpec::Documented,
        (None, false) => pixels.range.unwrap_or(RangeSpec::Documented),
    };
    let range = match range_spec {
        RangeSpec::Documented => Range::Documented,
        RangeSpec::Auto => Range::Auto,
        RangeSpec::Fixed(lo, hi) => Range::Fixed(Mapping { lo, hi }),
    };

    Ok(PixelChoice {
        mode,
        ramp,
        range_spec,
        range,
        sixteen,
    })
}

/// What each pixel holds. A normal map's default strength scales with the
/// lattice cells per pixel, so that it keeps the same look whatever the
/// scale and frequency.
fn content_of(
    format: Format,
    pc: &PixelChoice,
    normal_format: NormalFormat,
    normal_strength: Option<f64>,
    scale: [Ratio; 2],
    cells: f64,
) -> Result<Content, String> {
    if format.is_float() {
        return Ok(Content::Float);
    }
    Ok(match pc.mode {
        Mode::Gray => Content::Gray,
        Mode::Ramp => Content::Ramp(match &pc.ramp {
            Some(spec) => Ramp::parse(spec).map_err(|e| e.to_string())?,
            None => Ramp::terrain(),
        }),
        Mode::Normal => {
            let f = (scale[0].value() * scale[1].value()).sqrt() * cells;
            let strength = normal_strength.unwrap_or(0.25 / f);
            if !strength.is_finite() {
                return Err("--normal-strength is too large".into());
            }
            Content::Normal(NormalEncoder {
                strength,
                format: normal_format,
            })
        }
    })
}

/// The config's `[pixels]` for a choice: only the settings its mode reads.
fn pixel_spec(
    pc: &PixelChoice,
    normal_strength: Option<f64>,
    normal_format: NormalFormat,
) -> PixelSpec {
    let mode = pc.mode;
    PixelSpec {
        mode: Some(mode),
        ramp: if mode == Mode::Ramp {
            pc.ramp.clone()
        } else {
            None
        },
        range: (mode != Mode::Normal).then_some(pc.range_spec),
        normal_strength: if mode == Mode::Normal {
            normal_strength
        } else {
            None
        },
        normal_format: (mode == Mode::Normal).then_some(normal_format),
    }
}

/// The frames and the time axis, from the flags over the config's
/// `[animation]`.
#[derive(Clone, Copy)]
struct Frames {
    frames: u32,
    time_axis: Option<TimeAxis>,
    looped: bool,
    fps: f64,
}

/// Decides the frames. Animation options from the config apply only to
/// animations; given as flags to a still image, they are an error.
fn frames_choice(args: &RenderArgs, anim: &Animation, format: Format) -> Result<Frames, String> {
    let frames = args.frames.or(anim.frames).unwrap_or(1);
    if frames == 0 {
        return Err("--frames must be at least 1".into());
    }
    let animated = frames > 1;
    if !animated
        && let Some(flag) = first(&[
            (args.animate.is_some(), "--animate"),
            (args.step.is_some(), "--step"),
            (args.looped, "--loop"),
        ])
    {
        return Err(format!("{flag} applies to animations (--frames 2 or more)"));
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
    let time_axis = animated.then(|| args.animate.or(anim.axis).unwrap_or(TimeAxis::Z));
    let looped = animated && (args.looped || anim.looped == Some(true));
    let fps = args.fps.or(anim.fps).unwrap_or(25.0);

    Ok(Frames {
        frames,
        time_axis,
        looped,
        fps,
    })
}

/// The config's `[animation]` for the frames: empty for a still image.
fn animation_spec(f: &Frames, step: Ratio) -> Animation {
    if f.frames > 1 {
        Animation {
            frames: Some(f.frames),
            axis: f.time_axis,
            step: Some(step),
            looped: Some(f.looped),
            fps: Some(f.fps),
        }
    } else {
        Animation::default()
    }
}

/// The dimension: --dims, else the config's, else the largest any option
/// needs; and the period must give x and y.
fn dims_choice(
    args: &RenderArgs,
    view: &View,
    r: &Resolved,
    time_axis: Option<TimeAxis>,
) -> Result<usize, String> {
    let needs = [
        (2, String::new()),
        (if args.z.is_some() { 3 } else { 0 }, "--z".into()),
        (if args.w.is_some() { 4 } else { 0 }, "--w".into()),
        (
            match time_axis {
                Some(TimeAxis::Z) => 3,
                Some(TimeAxis::W) => 4,
                None => 0,
            },
            "an animation along that axis".into(),
        ),
    ];
    // A per-axis key's entries are a least dimension here, not the
    // dimension: render gives the axes a period leaves out periods of its
    // own (`stack_field`).
    let keys = r.axis_keys();
    let key_needs = keys.iter().map(|k| {
        let why = format!("{} ({} entries)", k.source(), k.len);
        (k.len, why)
    });
    let (needed, why) = needs
        .into_iter()
        .chain(key_needs)
        .max_by_key(|n| n.0)
        .unwrap_or((2, String::new()));
    let dims = match args.dims.or(view.dims) {
        Some(d) if usize::from(d) < needed => {
            return Err(format!("--dims {d} is too few: {why} needs {needed}D"));
        }
        Some(d) => usize::from(d),
        None => needed,
    };
    let period = keys.iter().find(|k| k.key == "period");
    if let Some(p) = period
        && p.len < 2
    {
        return Err(match p.flag {
            Some(flag) => format!(
                "{flag} takes 2 to {dims} values (PX,PY first), got {}",
                p.len
            ),
            None => format!(
                "{} has {} entry, but render needs 2 to {dims} (x and y first)",
                p.source(),
                p.len
            ),
        });
    }
    Ok(dims)
}

/// The per-frame step, in world units, and the period a loop gives the time
/// axis. Without a step a loop takes the whole number of cells nearest the
/// default speed, 1/32 cell a frame.
fn time_step(
    args: &RenderArgs,
    anim: &Animation,
    f: &Frames,
    cells: f64,
    period_len: usize,
) -> Result<(Ratio, Option<(usize, u32)>), String> {
    let (frames, looped, time_axis) = (f.frames, f.looped, f.time_axis);
    let step = match args.step.or(anim.step) {
        Some(s) => s,
        None if looped => Ratio {
            num: (f64::from(frames) / 32.0).round().max(1.0),
            den: f64::from(frames) * cells,
        },
        None => Ratio {
            num: 1.0,
            den: 32.0 * cells,
        },
    };
    let mut loop_period = None;
    if looped {
        let axis = if time_axis == Some(TimeAxis::Z) { 2 } else { 3 };
        if period_len > axis {
            return Err(format!(
                "--loop sets the period along {}; leave it out of --period",
                ["x", "y", "z", "w"][axis]
            ));
        }
        let total = f64::from(frames) * step.num / step.den * cells;
        let whole = total.round();
        if (total - whole).abs() > 1e-9 * total.max(1.0) || whole < 1.0 {
            return Err(format!(
                "--loop needs frames*step to be a whole number of cells, but {frames} frames \
                 of {} make {}; try --step {}/{}",
                short(step.value()),
                short(total),
                whole.max(1.0),
                short(f64::from(frames) * cells)
            ));
        }
        if whole > f64::from(MAX_PERIOD) {
            return Err(format!(
                "--loop: frames*step = {whole} cells, more than the largest period, {MAX_PERIOD}"
            ));
        }
        loop_period = Some((axis, whole as u32));
    }
    Ok((step, loop_period))
}

/// The image's x and y axes from the origin (given or the config's), the
/// scale and the first pixel rendered; and the origin, for the config.
fn image_axes(
    args: &RenderArgs,
    view: &View,
    scale: [Ratio; 2],
    start: [u64; 2],
) -> Result<([f64; 2], Axis, Axis), String> {
    let origin = match args.origin.as_deref() {
        None => view.origin.unwrap_or([0.0, 0.0]),
        Some(&[x, y]) => [x, y],
        Some(o) => return Err(format!("--origin takes two values X,Y, got {}", o.len())),
    };
    let x = Axis {
        origin: origin[0],
        step: scale[0],
        start: start[0],
    };
    let y = Axis {
        origin: origin[1],
        step: scale[1],
        start: start[1],
    };
    Ok((origin, x, y))
}

/// Checks that the format can hold an image of this size.
fn check_side(format: Format, width: u32, height: u32) -> Result<(), String> {
    let max = format.max_side();
    if u64::from(width) > max || u64::from(height) > max {
        return Err(format!(
            "{width}x{height} is too large for {}, which holds at most {max} pixels per side",
            format.name()
        ));
    }
    Ok(())
}

/// World units per pixel: given, the config's (scaled by --same-view), one
/// tile per image, or the default of the config's version; and whether that
/// default was version 1's one unit per pixel.
fn pixel_scale(
    args: &RenderArgs,
    doc: &Document,
    period: Option<&[u32]>,
    cells: f64,
    size: Size,
) -> Result<([Ratio; 2], bool), String> {
    let mut version1 = false;
    let mut fallback = |version: u32| {
        version1 = version == 1;
        default_scale(version)
    };
    let view = &doc.view;
    let Size { width, height } = size;
    let tile = |size: Size| {
        period.map(|p| {
            [
                Ratio {
                    num: f64::from(p[0]) / cells,
                    den: f64::from(size.width),
                },
                Ratio {
                    num: f64::from(p[1]) / cells,
                    den: f64::from(size.height),
                },
            ]
        })
    };
    let scale = match crate::units::scale_pair(args.scale.as_deref())? {
        Some(pair) => pair,
        None if args.same_view => {
            let Some([w0, h0]) = view.size else {
                return Err(
                    "--same-view needs a config that records its size ([view] size)".into(),
                );
            };
            let saved = Size {
                width: w0,
                height: h0,
            };
            let [sx, sy] = view
                .scale
                .or_else(|| tile(saved))
                .unwrap_or_else(|| fallback(doc.version));
            [
                sx.divided(f64::from(width) / f64::from(w0)),
                sy.divided(f64::from(height) / f64::from(h0)),
            ]
        }
        None => view
            .scale
            .or_else(|| tile(size))
            .unwrap_or_else(|| fallback(doc.version)),
    };
    if args.same_view && args.scale.is_some() {
        return Err("--same-view keeps the config's scale; leave out --scale".into());
    }
    Ok((scale, version1))
}

/// Checks that the coordinates at the far corners and ends stay finite, and
/// in noise space below 2^52 cells, where samples still fall between
/// lattice points.
fn check_reach(corners: &[f64], cells: f64) -> Result<(), String> {
    if corners.iter().any(|c| !c.is_finite()) {
        return Err(
            "the sampled coordinates overflow; use a smaller --origin, --scale or --step".into(),
        );
    }
    let far = corners.iter().fold(0.0f64, |m, c| m.max(c.abs())) * cells;
    if far.is_nan() || far >= MAX_CELLS {
        return Err(format!(
            "the image reaches {} lattice cells from the origin (coordinates up to {} times \
             the frequency {}); past 2^52 cells every sample lies on a lattice point and \
             the image would be flat. Use a smaller --frequency, --scale or --origin",
            if far.is_finite() {
                format!("{far:e}")
            } else {
                "infinitely many".into()
            },
            short(far / cells),
            if cells >= 1e6 {
                format!("{cells:e}")
            } else {
                short(cells)
            }
        ));
    }
    Ok(())
}

/// World units per pixel when nothing says otherwise: 1/64 (features about
/// 64 pixels across at frequency 1), or for a version 1 config the one unit
/// per pixel that the first releases rendered it at.
fn default_scale(version: u32) -> [Ratio; 2] {
    if version == 1 {
        [Ratio::ONE; 2]
    } else {
        [Ratio {
            num: 1.0,
            den: 64.0,
        }; 2]
    }
}

/// Compiles a stack for `dims` dimensions with its periods: the given ones,
/// the loop's, and for the other axes the largest power of two the stack
/// accepts (65536 rarely is: octave `i` needs the period times
/// lacunarity^i). Returns the stack as built, with those periods.
fn stack_field(
    r: &Resolved,
    dims: usize,
    loop_period: Option<(usize, u32)>,
) -> Result<(DynField, Stack), String> {
    if let Some(g) = &r.graph {
        if loop_period.is_some() {
            return Err("a looping animation tiles its stack's time axis; a graph cannot be tiled (use a stack)".into());
        }
        let field = DynField::graph(g, dims).map_err(|e| e.to_string())?;
        return Ok((field, r.stack.clone()));
    }
    let mut stack = r.stack.clone();
    let given = stack.period.clone().unwrap_or_default();
    if given.is_empty() && loop_period.is_none() {
        let field = crate::stack_field::stack(&stack, dims).map_err(|e| r.explain(&e))?;
        return Ok((field, stack));
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
        match crate::stack_field::stack(&stack, dims) {
            Ok(field) => return Ok((field, stack)),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::parse_ratio;

    #[test]
    fn ratios_round_once() {
        let x = Axis {
            origin: 0.0,
            step: parse_ratio("1/3").unwrap(),
            start: 0,
        };
        // i*1/3 rounded once hits 1 exactly at i = 3, where 3*(1/3) would
        // also happen to; 49*(1/49) is the classic case that does not.
        assert_eq!(x.at(3), 1.0);
        let y = Axis {
            origin: 0.0,
            step: parse_ratio("1/49").unwrap(),
            start: 0,
        };
        assert_eq!(y.at(49), 1.0);
        assert_ne!(49.0 * (1.0f64 / 49.0), 1.0);
    }

    #[test]
    fn tiles_cover_the_image_once_and_differ_by_at_most_one() {
        for n in [1u32, 2, 7, 64, 1000, u32::MAX] {
            for count in [1u32, 2, 3, 7, 64, 1000].into_iter().filter(|&c| c <= n) {
                let mut next = 0;
                let (mut least, mut most) = (u32::MAX, 0);
                for i in 0..count {
                    let (start, len) = split(n, count, i);
                    assert_eq!(start, next, "{n} in {count}: part {i} leaves a gap");
                    assert!(len > 0, "{n} in {count}: part {i} is empty");
                    next = start + u64::from(len);
                    least = least.min(len);
                    most = most.max(len);
                }
                assert_eq!(next, u64::from(n), "{n} in {count}: not covered");
                assert!(most - least <= 1, "{n} in {count}: {least}..{most}");
            }
        }
    }
}
