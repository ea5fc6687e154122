//! `surflet analyze`'s command line.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::names::{NoiseName, Variant};
use crate::stack_args::StackArgs;
use crate::units::{Ratio, parse_finite, parse_ratio};

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
  above_nyquist         with --oversample K > 1: {frequency: 1/(2S), the
                        Nyquist frequency of the --scale S sample (the
                        larger side); power: the power of the bins outside
                        the square |fx|, |fy| < 1/(2S), what sampling at
                        --scale aliases; share: that power over all
                        non-DC power}; else null
  and noise, dims, size (samples a side, times K), scale (of the samples
  evaluated, --scale/K), oversample, origin, plane {u, v}, samples; stack: for
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

    /// Fade the octaves finer than a sample, as render --antialias does
    ///
    /// Every stack of the description, graph leaves included, fades by the
    /// --scale sample (the larger side) where it states no footprint; see
    /// `surflet render --help`.
    #[arg(long, help_heading = "Slice")]
    pub antialias: bool,

    /// Evaluate K x K points per sample, K = 1 to 16 [default: 1]
    ///
    /// The slice is drawn at --scale/K with --size*K samples a side (at
    /// most 4096) over the same square, so that its spectrum reaches past
    /// the Nyquist frequency of --scale: summary.json's above_nyquist is
    /// the power that sampling at --scale folds back as aliasing. An
    /// antialiased stack without a footprint fades by the --scale sample.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=16), help_heading = "Slice")]
    pub oversample: Option<u32>,

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
