//! `surflet analyze DIR [NAME]`: measure a noise or stack on a square 2D
//! slice (moments, histogram, windowed power spectrum, anisotropy) and
//! write `summary.json` and plots into DIR.
//!
//! The slice is laid over the plane as render lays pixels ([`slice`]), the
//! measurements are pure functions of the values
//! ([`crate::imaging::spectrum`]), and the files are staged beside their
//! targets and renamed into place together at the end
//! ([`crate::imaging::staged::StagedFiles`], as the gallery's are).

mod slice;

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use serde_json::json;

use crate::CliError;
use crate::imaging::color::{self, Mapping};
use crate::imaging::image::Image;
use crate::imaging::output;
use crate::imaging::plot::{PALETTE, Plot, Series};
use crate::imaging::spectrum;
use crate::imaging::staged::StagedFiles;
use crate::names::{NoiseName, Variant};
use crate::stack_args::StackArgs;
use crate::units::{Ratio, parse_finite, parse_ratio};
use slice::{Plane, Slice};

/// The largest --size: 2^24 samples, whose f64 values, complex spectrum
/// and power take about 0.5 GiB.
pub const MAX_SIZE: u32 = 4096;

/// Description of `surflet analyze` for `--help`, above the options.
pub const LONG_ABOUT: &str = "\
Measure a noise or noise stack on a square 2D slice and write into DIR:
summary.json (min, max, mean, std, histogram, radially averaged power
spectrum, anisotropy index) and PNG plots of the histogram, the radial
spectrum and the 2D power spectrum.

NAME is any noise `surflet sample` knows except pnoise1234: a family noise
(then the stack flags and --config apply, as in render) or a reference port,
evaluated point by point. -n KIND is the same as NAME KIND. Without either
the stack's noise is measured.

  surflet analyze out/simplex simplex --frequency 4
  surflet analyze out/diag simplex --dims 3 --plane diagonal
  surflet analyze out/classic classic2005-java --frequency 4
  surflet analyze out/terrain --config terrain.toml --size 1024";

/// Everything `--help` shows below the options.
pub const DETAILS: &str = "\
THE SLICE
  Pixel (i, j) of the --size N x N slice samples the world point
      origin + ((i*A)/B) u + ((j*C)/D) v
  for a --scale of A/B, C/D world units per pixel, with u and v the plane's
  unit directions: x and y for --plane xy, which makes pixel (i, j) the
  same point as render's; for --plane diagonal, in 2D u = (1,1)/sqrt2 and
  v = (-1,1)/sqrt2, in 3D the plane through the origin perpendicular to
  (1,1,1): u = (1,-1,0)/sqrt2, v = (1,1,-2)/sqrt6, and in 4D u =
  (1,-1,1,-1)/2, v = (1,1,-1,-1)/2; or --plane-u and --plane-v, normalised.
  The noise sees the world point times --frequency (reference ports too).
  Values are computed in f64, through the library's grid call for the xy
  plane of the family and its point-array call otherwise.

SUMMARY.JSON
  min, max, mean, std   over all N*N values (std: population, divisor N*N)
  histogram             {edges: bins+1 numbers, min to max; counts: bins
                        numbers summing to N*N; the last bin includes max}
  spectrum              {unit: \"cycles per world unit\", frequency: bin
                        centres k/(N*S), k = 1..N/2, for S the larger scale;
                        power: the mean power of the 2D bins whose radius
                        rounds to each; centroid: power-weighted mean radius
                        of every non-DC bin inside the Nyquist disc; peak:
                        the centre of the bin of greatest power;
                        cells_per_unit: the stack's frequency, by which to
                        divide for cycles per lattice cell}
  anisotropy            the index defined below (a number)
  anisotropy_detail     {sectors: each sector's relative power, mean 1;
                        sector_bins; annulus: [inner, outer] radius;
                        floor: the sampling floor, see ANISOTROPY}
  and noise, dims, size, scale, origin, plane {u, v}, samples; stack: for
  the family the stack as a config would hold it (else null); variant: the
  OpenSimplex2 ports' lattice orientation (else null).
  The power spectrum is that of the values less their mean, times a 2D
  Hann window (0.5 - 0.5 cos(2 pi i/N) along each axis, which keeps the
  slice's edges from leaking power onto the axes), normalised so that its
  bins sum to the window-weighted variance: |FFT|^2 / (N^2 (sum w^2)^2).

ANISOTROPY
  How unevenly the spectral power is spread over directions. Over the
  annulus of radii from where 10% to where 99.9% of the power (DC
  excluded) lies inside, each bin's power is divided by the radial mean at
  its radius; the directions 0..180 degrees are cut into 18 sectors of 10
  degrees, centred on the axes (sector 0 on u); the index is the
  coefficient of variation (std / mean over the sectors) of the sectors'
  mean relative power. 0 for an isotropic spectrum; energy along the axes,
  the mark of lattice artefacts, raises it. A finite slice reads above 0
  from sampling alone: anisotropy_detail.floor estimates that reading
  (the spread of each sector's bins over their number, times 2.25 for the
  Hann window's bandwidth), and a reading near it is no evidence of
  anisotropy. With the defaults (4 samples a cell, 128 cells across):
  simplex 2D 0.02, value 0.27, perlin 0.23, simplex 3D on the xy plane 0.08
  and on the diagonal plane 0.03; floors 0.02-0.04.
  See docs/analyze.md.

FILES
  summary.json, histogram.png, spectrum.png (log10 power against
  frequency), spectrum2d.png (N x N, log10 power over 6 decades, DC at the
  centre pixel (N/2, N/2), x frequency rightwards, y frequency downwards)
  and slice.png (the values, min to max as black to white). DIR and its
  parents are created if missing. Every file is staged beside its
  target and all are renamed into place at the end: an error or Ctrl-C
  leaves DIR as it was.

EXIT STATUS
  0    success
  1    runtime error: DIR cannot be created or written, an existing file
       (with --no-clobber), not enough memory, a noise value that is not
       finite
  2    usage error: a bad option or combination (--size outside 16..=4096,
       NaN or infinite numbers, options NAME does not take), a bad --config
  130  interrupted (Ctrl-C or SIGTERM); nothing was written";

/// The slice's orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PlaneName {
    /// The x and y axes.
    #[value(name = "xy")]
    Xy,
    /// The plane perpendicular to the main diagonal.
    #[value(name = "diagonal")]
    Diagonal,
}

/// Command line of `surflet analyze`.
#[derive(Args, Debug)]
#[command(allow_negative_numbers = true)]
pub struct AnalyzeArgs {
    /// The directory to write into; created if missing.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,

    /// The noise: a name of `surflet sample`, or -n KIND [default: the
    /// stack's noise].
    #[arg(value_name = "NAME", hide_possible_values = true)]
    pub name: Option<NoiseName>,

    // Boxed so that `Command` stays small (the group is large).
    #[command(flatten)]
    pub stack: Box<StackArgs>,

    /// The lattice orientation of opensimplex2-java and opensimplex2s-java
    /// (see `surflet sample --help`).
    #[arg(
        long,
        value_name = "V",
        hide_possible_values = true,
        hide_short_help = true,
        help_heading = "Noise"
    )]
    pub variant: Option<Variant>,

    /// Side of the square slice in samples, 16 to 4096, as N or NxN
    /// [default: 512].
    #[arg(long, value_name = "N|NxN", value_parser = parse_side, help_heading = "Slice")]
    pub size: Option<u32>,

    /// World units per sample [default: 1/4]
    ///
    /// A decimal or a fraction, for both axes or as SX,SY [default: 1/4, or
    /// the config's: 4 samples per lattice cell at frequency 1, 128 cells
    /// across at --size 512, enough cells for steady statistics].
    #[arg(
        long,
        value_name = "S[,SY]",
        value_delimiter = ',',
        allow_hyphen_values = true,
        value_parser = parse_ratio,
        help_heading = "Slice"
    )]
    pub scale: Option<Vec<Ratio>>,

    /// World point of sample (0, 0), 2 to D coordinates [default: 0].
    #[arg(
        long,
        value_name = "X,Y[,Z[,W]]",
        value_delimiter = ',',
        allow_hyphen_values = true,
        value_parser = parse_finite,
        help_heading = "Slice"
    )]
    pub origin: Option<Vec<f64>>,

    /// Dimension of the noise, 2 to 4 [default: 2, or what NAME, --origin
    /// or a per-axis key (--period, --domain-offset, the config's) need].
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u8).range(2..=4), help_heading = "Slice")]
    pub dims: Option<u8>,

    /// The slice's orientation: xy or diagonal [default: xy].
    #[arg(long, value_name = "PLANE", hide_possible_values = true, conflicts_with_all = ["plane_u", "plane_v"], help_heading = "Slice")]
    pub plane: Option<PlaneName>,

    /// The slice's first direction, D numbers (normalised).
    #[arg(long, value_name = "U,...", value_delimiter = ',', allow_hyphen_values = true, value_parser = parse_finite, requires = "plane_v", hide_short_help = true, help_heading = "Slice")]
    pub plane_u: Option<Vec<f64>>,

    /// The slice's second direction, D numbers, perpendicular to the
    /// first (normalised).
    #[arg(long, value_name = "V,...", value_delimiter = ',', allow_hyphen_values = true, value_parser = parse_finite, requires = "plane_u", hide_short_help = true, help_heading = "Slice")]
    pub plane_v: Option<Vec<f64>>,

    /// Histogram bins, 1 to 4096 [default: 64].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=4096), hide_short_help = true)]
    pub bins: Option<u32>,

    /// Refuse to replace the files of an earlier analysis in DIR.
    #[arg(long, hide_short_help = true)]
    pub no_clobber: bool,
}

fn parse_side(s: &str) -> Result<u32, String> {
    let sides = crate::units::parse_extent(s)
        .map_err(|e| format!("{e}; the slice is 16 to {MAX_SIZE} samples a side"))?;
    let n = match sides[..] {
        [n] => n,
        [w, h] if w == h => w,
        _ => {
            return Err(format!(
                "the slice is square: give N or NxN, not {:?}",
                s.trim()
            ));
        }
    };
    if (16..=MAX_SIZE).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "the slice is 16 to {MAX_SIZE} samples a side, not {n}"
        ))
    }
}

/// Every file analyze writes, in the order staged and committed.
pub const FILES: [&str; 5] = [
    "slice.png",
    "histogram.png",
    "spectrum.png",
    "spectrum2d.png",
    "summary.json",
];

/// Runs `surflet analyze`.
pub fn run(args: &AnalyzeArgs) -> Result<(), CliError> {
    let slice = Slice::new(args).map_err(CliError::Usage)?;
    let n = slice.n as usize;
    check_memory(n).map_err(CliError::Runtime)?;
    prepare(&args.dir, !args.no_clobber).map_err(CliError::Runtime)?;
    output::install_interrupt_handler().map_err(CliError::Runtime)?;

    let values = slice.evaluate().map_err(CliError::Runtime)?;
    if let Some(k) = values.iter().position(|v| !v.is_finite()) {
        return Err(CliError::Runtime(format!(
            "the noise is {} at sample ({}, {}); nothing was written",
            values[k],
            k % n,
            k / n
        )));
    }
    if output::interrupted() {
        return Err(CliError::Interrupted);
    }
    let m = spectrum::moments(&values);
    let bins = args.bins.unwrap_or(64) as usize;
    let (edges, counts) = spectrum::histogram(&values, &m, bins);
    let power = spectrum::power_spectrum(&values, n, m.mean);
    let [sx, sy] = slice.scale.map(Ratio::value);
    let a = spectrum::analyse(&power, n, sx, sy);
    if output::interrupted() {
        return Err(CliError::Interrupted);
    }

    let summary = json!({
        "noise": slice.label(),
        "dims": slice.dims,
        "size": n,
        "scale": [sx, sy],
        "origin": slice.origin[..slice.dims],
        "plane": {"u": slice.plane.u[..slice.dims], "v": slice.plane.v[..slice.dims]},
        "samples": n * n,
        "min": m.min,
        "max": m.max,
        "mean": m.mean,
        "std": m.std,
        "histogram": {"edges": edges, "counts": counts},
        "spectrum": {
            "unit": "cycles per world unit",
            "cells_per_unit": slice.frequency,
            "frequency": a.frequency,
            "power": a.power,
            "centroid": a.centroid,
            "peak": a.peak,
        },
        "anisotropy": a.anisotropy,
        "anisotropy_detail": {
            "sectors": a.sectors,
            "sector_bins": a.sector_bins,
            "floor": a.floor,
            "annulus": [a.annulus.0, a.annulus.1],
        },
        "stack": slice.stack_json(),
        "variant": slice.variant().map(Variant::name),
    });

    let mut w = StagedFiles::new(&args.dir, &FILES);
    let fail = |e: String| CliError::Runtime(e);
    w.png("slice.png", &slice_image(&values, n, &m))?;
    let plot_size = (960, 600);
    w.png(
        "histogram.png",
        &histogram_plot(&slice, &edges, &counts)
            .png(plot_size)
            .map_err(fail)?,
    )?;
    w.png(
        "spectrum.png",
        &spectrum_plot(&slice, &a).png(plot_size).map_err(fail)?,
    )?;
    w.png("spectrum2d.png", &spectrum::power_spectrum_image(&power, n))?;
    let mut text = serde_json::to_string_pretty(&summary)
        .map_err(|e| CliError::Runtime(format!("writing summary.json: {e}")))?;
    text.push('\n');
    w.text("summary.json", &text)?;
    w.commit(!args.no_clobber)
}

/// Refuses a size whose buffers would not fit in memory.
fn check_memory(n: usize) -> Result<(), String> {
    // Values, two complex buffers, power, the analysis's point list and
    // the images: about 80 bytes a sample at the peak.
    let needed = (n * n) as u128 * 80 + (64 << 20);
    let available = output::available_memory();
    if needed > u128::from(available) {
        return Err(format!(
            "analysing a {n}x{n} slice needs about {} of memory, but only {} is available; \
             use a smaller --size",
            output::human_bytes(needed),
            output::human_bytes(available.into())
        ));
    }
    Ok(())
}

/// Creates DIR and its missing parents, and checks that no file of ours is
/// in the way.
fn prepare(dir: &Path, overwrite: bool) -> Result<(), String> {
    if !dir.is_dir() {
        if dir.exists() {
            return Err(format!(
                "cannot create {}: it exists and is not a directory",
                dir.display()
            ));
        }
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    for name in FILES {
        let target = dir.join(name);
        match std::fs::symlink_metadata(&target) {
            Ok(m) if m.is_dir() => return Err(format!("{} is a directory", target.display())),
            Ok(_) if !overwrite => {
                return Err(format!(
                    "{} already exists (--no-clobber refuses to replace it)",
                    target.display()
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// The slice as grey, its minimum black and maximum white.
fn slice_image(values: &[f64], n: usize, m: &spectrum::Moments) -> Image {
    let map = Mapping::measured(m.min, m.max);
    Image {
        width: n as u32,
        height: n as u32,
        rgb: false,
        data: values
            .iter()
            .map(|&v| color::quantise8(map.apply(v)))
            .collect(),
    }
}

fn histogram_plot(slice: &Slice, edges: &[f64], counts: &[u64]) -> Plot {
    let total: u64 = counts.iter().sum();
    // Density, so that histograms of different bin counts compare.
    let width = (edges[edges.len() - 1] - edges[0]) / counts.len() as f64;
    let density = |c: u64| {
        if width > 0.0 {
            c as f64 / (total as f64 * width)
        } else {
            1.0
        }
    };
    let mut points = vec![(edges[0], 0.0)];
    for (k, &c) in counts.iter().enumerate() {
        points.push((edges[k], density(c)));
        points.push((edges[k + 1], density(c)));
    }
    points.push((edges[edges.len() - 1], 0.0));
    let top = points.iter().fold(0.0f64, |a, p| a.max(p.1));
    let (lo, hi) = (edges[0], edges[edges.len() - 1]);
    let pad = if hi > lo { 0.02 * (hi - lo) } else { 0.5 };
    Plot {
        title: format!("Histogram: {}", slice.label()),
        x_desc: "value".into(),
        y_desc: "density".into(),
        x: lo - pad..hi + pad,
        y: 0.0..top * 1.08 + f64::MIN_POSITIVE,
        series: vec![Series {
            label: format!("{} samples", total),
            points,
            color: PALETTE[0],
            weight: 1.0,
        }],
        legend_lower_left: false,
    }
}

fn spectrum_plot(slice: &Slice, a: &spectrum::Analysis) -> Plot {
    let points: Vec<(f64, f64)> = a
        .frequency
        .iter()
        .zip(&a.power)
        .filter(|(_, p)| **p > 0.0)
        .map(|(&f, &p)| (f, p.log10()))
        .collect();
    let (lo, hi) = points.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
        (lo.min(p.1), hi.max(p.1))
    });
    let (lo, hi) = if points.is_empty() {
        (-1.0, 0.0)
    } else {
        (lo.floor(), hi.ceil().max(lo.floor() + 1.0))
    };
    let fmax = a.frequency.last().copied().unwrap_or(1.0);
    Plot {
        title: format!("Radially averaged power: {}", slice.label()),
        x_desc: "frequency (cycles per world unit)".into(),
        y_desc: "log10 power".into(),
        x: 0.0..fmax,
        y: lo..hi,
        series: vec![Series {
            label: format!("centroid {:.3}, anisotropy {:.3}", a.centroid, a.anisotropy),
            points,
            color: PALETTE[0],
            weight: 1.0,
        }],
        legend_lower_left: false,
    }
}

/// The plane's unit directions in `dims` dimensions.
impl PlaneName {
    fn plane(self, dims: usize) -> Plane {
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let s6 = 1.0 / 6f64.sqrt();
        let (u, v) = match (self, dims) {
            (PlaneName::Xy, _) => ([1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]),
            (PlaneName::Diagonal, 2) => ([h, h, 0.0, 0.0], [-h, h, 0.0, 0.0]),
            (PlaneName::Diagonal, 3) => ([h, -h, 0.0, 0.0], [s6, s6, -2.0 * s6, 0.0]),
            (PlaneName::Diagonal, _) => ([0.5, -0.5, 0.5, -0.5], [0.5, 0.5, -0.5, -0.5]),
        };
        Plane { u, v }
    }
}
