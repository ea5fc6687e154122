//! The description's types: a [`Stack`] and its tables, with their
//! defaults, and the error helpers its checks share.

use crate::prelude_internal::*;

use crate::cellular::{CellularDistance, CellularReturn};
use crate::error::Error;
use crate::fractal::{FractalKind, FractalParams};
use crate::noise::NoiseKind;
use crate::warp::WarpKind;

/// A noise stack: noise, seed, frequency, optional period, fractal and warp.
///
/// ```
/// use surflet::Field; // the trait with get, sample, fill and grid
/// use surflet::Stack;
/// let stack = Stack::from_toml_str(r#"
///     noise = "perlin"
///     seed = 3
///     frequency = 0.5
///     [fractal]
///     kind = "billow"
///     octaves = 3
/// "#)?;
/// let field = stack.build::<2>()?;
/// assert!(field.get([1.0f64, 2.0]).abs() <= 1.0);
/// // Round trip through JSON.
/// assert_eq!(Stack::from_json_str(&stack.to_json_string()?)?, stack);
///
/// let err = Stack::from_toml_str("[fractal]\noctaves = 0").unwrap_err();
/// assert!(err.to_string().starts_with("fractal.octaves: "));
/// # Ok::<(), surflet::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Stack {
    /// The base noise (default `simplex`).
    pub noise: NoiseKind,
    /// Cellular noise's distance (default euclidean); an error for other
    /// noises.
    pub distance: Option<CellularDistance>,
    /// Cellular noise's return value, key `return` (default `f1`); an error
    /// for other noises.
    pub ret: Option<CellularReturn>,
    /// Cellular noise's jitter, in `[0, 1]` (default 1); an error for other
    /// noises.
    pub jitter: Option<f64>,
    /// The seed (default 0).
    pub seed: u64,
    /// Octave 0's frequency (default 1). Positive and finite.
    pub frequency: f64,
    /// Period per axis in lattice cells at `frequency`, one entry per
    /// dimension, each in 1..=65536 (default: none).
    pub period: Option<Vec<u32>>,
    /// A translation of the domain, in lattice cells at `frequency`, one
    /// finite entry per dimension (default: none). It moves a layer, or a
    /// tile's neighbour, without changing the seed.
    ///
    /// The stack's value at `p` is the value of the same stack without an
    /// offset at `p + offset / frequency`. The move is made once, to the
    /// point, before the fractal's octaves and the warp: octave `i` moves by
    /// `offset · fᵢ / frequency` cells of its own lattice, and the warp's
    /// displacements are read at the moved point too. A translation has the
    /// identity Jacobian, so the gradient is the unmoved stack's gradient at
    /// the moved point.
    ///
    /// Lattice cells rather than input units, so that a whole number of
    /// cells maps the lattice onto itself: with a `period`, an offset of a
    /// whole period gives the same tile back. It costs nothing per point:
    /// [`build`](Self::build) adds each octave's share to the offset every
    /// octave already has (see [fractal](crate::fractal)), so single points,
    /// batches and grids (grid rows included) all compute `x · fᵢ + oᵢ` from
    /// the same constants and return the same bits. The equalities above
    /// hold up to rounding, and bit for bit where the octave coordinates are
    /// exact (a power-of-two frequency, a whole-number lacunarity, points and
    /// offsets with short binary expansions). A zero entry moves nothing:
    /// that axis keeps the bits of the stack without an offset.
    ///
    /// [`check`](Self::check) refuses a non-finite entry, no entry or more
    /// than four, and a move past 2^53 cells in any octave (where no `f64`
    /// coordinate keeps a fraction); [`build`](Self::build) refuses a length
    /// other than `D`. The length is not compared with the period's before
    /// the dimension is known: `surflet render` gives the axes a period
    /// leaves out periods of their own.
    ///
    /// ```
    /// use surflet::Field; // the trait with get, sample, fill and grid
    /// use surflet::Stack;
    /// let plain = Stack::from_toml_str(r#"
    ///     noise = "perlin"
    ///     frequency = 0.5
    ///     [fractal]
    ///     octaves = 3
    /// "#)?;
    /// let moved = Stack { offset: Some(vec![3.0, -1.5]), ..plain.clone() };
    /// let (a, b) = (plain.build::<2>()?, moved.build::<2>()?);
    /// // 3 and -1.5 cells at frequency 0.5 are 6 and -3 input units.
    /// let p = [0.25f64, 0.5];
    /// assert_eq!(b.sample(p), a.sample([0.25 + 6.0, 0.5 - 3.0]));
    ///
    /// // One period along x gives the tile back.
    /// let tiled = Stack { period: Some(vec![4, 4]), ..plain };
    /// let shifted = Stack { offset: Some(vec![4.0, 0.0]), ..tiled.clone() };
    /// assert_eq!(shifted.build::<2>()?.get(p), tiled.build::<2>()?.get(p));
    ///
    /// // In a config; the length must be the dimension.
    /// let s = Stack::from_toml_str("noise = \"value\"\noffset = [10, 20]")?;
    /// assert_eq!(s.offset, Some(vec![10.0, 20.0]));
    /// assert!(s.to_toml_string()?.contains("offset = [10.0, 20.0]"));
    /// let err = s.build::<3>().unwrap_err();
    /// assert!(err.to_string().starts_with("offset: "));
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub offset: Option<Vec<f64>>,
    /// Whether octaves too fine for the sampling fade out (default
    /// false): alias-free fractals, opt-in so that every output without it
    /// keeps its bits.
    ///
    /// Sampled every `s` input units, an octave of frequency `fᵢ` has
    /// `t = fᵢ · s` lattice cells per sample. Past about half a cell per
    /// sample its detail is finer than the samples can hold, and folds back
    /// into static (aliasing). With `antialias`, octave `i`'s amplitude is
    /// multiplied by
    ///
    /// `wᵢ = 1 − smoothstep(0.2, 0.75, fᵢ · s)`
    ///
    /// (`smoothstep(a, b, t) = u²(3 − 2u)`, `u = (t − a)/(b − a)` clamped to
    /// `[0, 1]`; the band of the `filteredsnoise` of Ebert et al.,
    /// *Texturing and Modeling*, computed in `f64`): 1 where the octave is
    /// coarse, 0 from three quarters of a cell per sample on, smooth
    /// between. The weight is a constant per octave, so the gradient
    /// returned is still the exact derivative of the value (`Σ wᵢ aᵢ ∇nᵢ`),
    /// and every path (points, batches, grids, WGSL) reads the same faded
    /// amplitudes. Warp layers fade by the same rule. An octave whose weight
    /// is 0, and every later one whose weight is 0 too, is left out of the
    /// evaluation, so a zoomed-out fractal also costs less.
    ///
    /// The [range](crate::Evaluator::range) and the normalisation stay those of the
    /// unfaded fractal, so the values do not jump as the footprint changes:
    /// a faded fractal is the plain one with its fine detail averaged away,
    /// and lies in a narrower part of the same interval.
    ///
    /// `s` is [`footprint`](Self::footprint) where given. Without one,
    /// `surflet render`, the explorer and `surflet analyze` give it their
    /// pixel's size (the larger of its two sides, in input units; graphs
    /// scale it through `scale` nodes), and [`build`](Self::build) refuses
    /// the stack: a point has no spacing, so the caller states it.
    ///
    /// ```
    /// use surflet::Field; // the trait with get, sample, fill and grid
    /// use surflet::Stack;
    /// let plain = Stack::from_toml_str(r#"
    ///     noise = "perlin"
    ///     [fractal]
    ///     octaves = 8
    /// "#)?;
    /// // Samples 1/8 unit apart: octaves 0 and 1 (an eighth and a quarter of
    /// // a cell per sample) keep all or most of their amplitude, octave 2
    /// // (half a cell) 43 %, and octave 3 (a whole cell) and those above are
    /// // gone.
    /// let aa = Stack { antialias: true, footprint: Some(0.125), ..plain.clone() };
    /// let (a, b) = (plain.build::<2>()?, aa.build::<2>()?);
    /// let p = [0.3f64, 0.7];
    /// assert_ne!(a.get(p), b.get(p));
    /// assert_eq!(a.range(), b.range());
    /// // A footprint so small that no octave reaches 0.2 cells fades nothing.
    /// let fine = Stack { footprint: Some(1e-3), ..aa.clone() };
    /// assert_eq!(fine.build::<2>()?.get(p), a.get(p));
    /// // Without a footprint only a renderer knows the spacing.
    /// let err = Stack { footprint: None, ..aa }.build::<2>().unwrap_err();
    /// assert!(err.to_string().starts_with("antialias: "));
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub antialias: bool,
    /// The distance between samples, in input units, that
    /// [`antialias`](Self::antialias) fades octaves by (default: the
    /// renderer's pixel). Positive and finite; an error without
    /// `antialias`.
    pub footprint: Option<f64>,
    /// The fractal (default: none, a single octave of noise).
    pub fractal: Option<FractalDesc>,
    /// The domain warp (default: none).
    pub warp: Option<WarpDesc>,
}

/// The `[fractal]` table of a [`Stack`] (the frequency is the stack's).
#[derive(Clone, Debug, PartialEq)]
pub struct FractalDesc {
    /// The formula (default `fbm`).
    pub kind: FractalKind,
    /// Octaves, 1..=32 (default 4).
    pub octaves: u32,
    /// Frequency ratio between octaves (default 2). Positive and finite.
    pub lacunarity: f64,
    /// Amplitude ratio between octaves (default 0.5). Finite.
    pub gain: f64,
    /// Octave 0's amplitude (default 1). Finite.
    pub amplitude: f64,
    /// Scale into [-1, 1] (default true).
    pub normalize: bool,
    /// Ridged and hybrid offset (default: the kind's,
    /// [`FractalKind::default_offset`]); an error for other kinds.
    pub offset: Option<f64>,
    /// Ridged weight gain (default 2); an error for other kinds.
    pub weight: Option<f64>,
    /// The turn between octaves, in radians (default 0: none); see
    /// [`FractalParams::rotation`](crate::FractalParams::rotation).
    pub rotation: f64,
}

/// The `[warp]` table of a [`Stack`].
#[derive(Clone, Debug, PartialEq)]
pub struct WarpDesc {
    /// Single-step or progressive (default `single`).
    pub kind: WarpKind,
    /// The warp noise (default: the stack's noise).
    pub noise: Option<NoiseKind>,
    /// The warp seed (default: the stack's seed; the per-axis seeds are
    /// salted, so they differ from the field's).
    pub seed: Option<u64>,
    /// The warp frequency (default: the stack's frequency).
    pub frequency: Option<f64>,
    /// The largest displacement per axis, in input units (default 1).
    pub amplitude: f64,
    /// The warp's fractal (default: none, a single octave of noise).
    /// Progressive warps need `fbm`.
    pub fractal: Option<FractalDesc>,
}

impl Default for Stack {
    /// Simplex noise, seed 0, frequency 1, no period, offset, antialiasing,
    /// fractal or warp.
    fn default() -> Self {
        Stack {
            noise: default_noise(),
            distance: None,
            ret: None,
            jitter: None,
            seed: 0,
            frequency: 1.0,
            period: None,
            offset: None,
            antialias: false,
            footprint: None,
            fractal: None,
            warp: None,
        }
    }
}

impl Default for FractalDesc {
    /// fBm, 4 octaves, lacunarity 2, gain 0.5, amplitude 1, normalised.
    fn default() -> Self {
        FractalDesc {
            kind: FractalKind::Fbm,
            octaves: default_octaves(),
            lacunarity: 2.0,
            gain: 0.5,
            amplitude: 1.0,
            normalize: true,
            offset: None,
            weight: None,
            rotation: 0.0,
        }
    }
}

impl FractalDesc {
    /// The [`FractalParams`] this table describes, with the stack's (or
    /// the warp's) `frequency`: an absent offset or weight is the kind's
    /// default. The one place a key of the table meets its parameter, so a
    /// new key adds its field here and its row to the key schema. Not
    /// checked: [`Stack::check`] rejects what [`FractalParams::validate`]
    /// would, and an offset or weight the kind does not use.
    ///
    /// ```
    /// use surflet::{FractalDesc, FractalKind};
    /// let d = FractalDesc { kind: FractalKind::Ridged, octaves: 6, ..FractalDesc::default() };
    /// let p = d.params(0.5);
    /// assert_eq!((p.octaves, p.frequency), (6, 0.5));
    /// assert_eq!(p.offset, FractalKind::Ridged.default_offset());
    /// ```
    pub fn params(&self, frequency: f64) -> FractalParams {
        FractalParams {
            kind: self.kind,
            octaves: self.octaves,
            frequency,
            lacunarity: self.lacunarity,
            gain: self.gain,
            amplitude: self.amplitude,
            offset: self.offset.unwrap_or(self.kind.default_offset()),
            weight: self.weight.unwrap_or(self.kind.default_weight()),
            normalize: self.normalize,
            rotation: self.rotation,
        }
    }
}

impl Default for WarpDesc {
    /// Single-step, the stack's noise, seed and frequency, amplitude 1, one
    /// octave.
    fn default() -> Self {
        WarpDesc {
            kind: WarpKind::Single,
            noise: None,
            seed: None,
            frequency: None,
            amplitude: 1.0,
            fractal: None,
        }
    }
}

fn default_noise() -> NoiseKind {
    NoiseKind::Simplex
}
fn default_octaves() -> u32 {
    4
}
/// An error at `key` (a dotted path).
pub(super) fn at(key: impl Into<String>, e: impl core::fmt::Display) -> Error {
    Error::Config {
        key: key.into(),
        message: e.to_string(),
    }
}

/// Re-keys an error from [`FractalParams::validate`] or [`Fractal::new`]:
/// parameters live under `prefix`, except the frequency (`freq_key`); period
/// problems belong to `period_key`.
pub(super) fn rekey(e: Error, prefix: &str, freq_key: &str, period_key: &str) -> Error {
    match e {
        Error::Parameter { name, reason } => {
            let key = if name == "frequency" {
                freq_key.to_string()
            } else {
                format!("{prefix}.{name}")
            };
            Error::Config {
                key,
                message: reason,
            }
        }
        Error::Config { .. } => e,
        other => at(period_key, other),
    }
}
