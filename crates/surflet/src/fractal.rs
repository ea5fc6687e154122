//! Fractal sums of octaves: fBm, ridged and hybrid multifractals, billow and
//! turbulence, with analytic gradients.
//!
//! # Octaves
//!
//! Octave `i` (from 0) evaluates the base noise `nᵢ` at `p · fᵢ + oᵢ` with
//!
//! * frequency `fᵢ = frequency · lacunarityⁱ` and amplitude
//!   `aᵢ = amplitude · gainⁱ`, both computed in `f64` by repeated
//!   multiplication and rounded once to the working precision;
//! * its own seed `sᵢ`: octave 0 keeps the base noise's seed, octave `i ≥ 1`
//!   gets `sᵢ = splitmix64(seed ^ i·0x9E3779B97F4A7C15)`, so the octaves are
//!   independent fields;
//! * its own offset `oᵢ`, a fraction of a cell per axis: octave 0 has none,
//!   octave `i ≥ 1` gets `oᵢ[a] = (splitmix64(sᵢ ^ 0x4F46465345545321 ^
//!   a·0x9E3779B97F4A7C15) >> 48) / 2^16` (the salt is ASCII "OFFSETS!").
//!   Seeds alone would not do: gradient noise is zero at every lattice point
//!   whatever its seed, and with a whole-number lacunarity every lattice point
//!   of octave 0 is also one of octave `i`'s, so without offsets every octave
//!   would vanish at once on octave 0's lattice (and ridged noise would peak
//!   there).
//!
//! Octave 0 being the base noise unmoved, a one-octave fBm with amplitude 1
//! and frequency 1 returns exactly the base noise's bits. The seed and offset
//! derivations are frozen by golden tests.
//!
//! # Formulas
//!
//! With `nᵢ` the octave value, the fractal value `v` is, before the final
//! normalisation factor:
//!
//! | kind | `v` | derived bound `B` on \|v\| |
//! |---|---|---|
//! | [`Fbm`](FractalKind::Fbm) | `Σ aᵢ nᵢ` | `Σ \|aᵢ\|` |
//! | [`Billow`](FractalKind::Billow) | `Σ aᵢ (2\|nᵢ\| − 1)` | `Σ \|aᵢ\|` |
//! | [`Turbulence`](FractalKind::Turbulence) | `Σ aᵢ \|nᵢ\|` | `Σ \|aᵢ\|` |
//! | [`Ridged`](FractalKind::Ridged) | `Σ aᵢ sᵢ`, `sᵢ = (offset − \|nᵢ\|)² wᵢ`, `w₀ = 1`, `wᵢ₊₁ = clamp(sᵢ · weight, 0, 1)` | `M Σ \|aᵢ\|`, `M = max(offset², (offset − 1)²)` |
//! | [`Hybrid`](FractalKind::Hybrid) | `s₀ + Σᵢ≥₁ min(wᵢ, 1) sᵢ`, `sᵢ = (nᵢ + offset) aᵢ`, `w₁ = s₀`, `wᵢ₊₁ = min(wᵢ, 1) sᵢ` | `c₀ + Σᵢ≥₁ max(1, Wᵢ) cᵢ`, `cᵢ = (1 + \|offset\|)\|aᵢ\|`, `W₁ = c₀`, `Wᵢ₊₁ = max(1, Wᵢ) cᵢ` |
//!
//! Ridged is Musgrave's ridged multifractal as in libnoise (`offset` 1 and
//! `weight` 2 by default); hybrid is Musgrave's hybrid multifractal from
//! *Texturing and Modeling* (`offset` 0.7 by default). The bounds follow from
//! `|nᵢ| ≤ 1`: in ridged, `|offset − |n|| ≤ max(|offset|, |offset − 1|)` and
//! the weights stay in `[0, 1]`; in hybrid, `|min(w, 1)| ≤ max(1, |w|)`.
//!
//! With [`normalize`](FractalParams::normalize) (the default) the sum is
//! multiplied by `1/B`, so every fractal lies in `[-1, 1]` (turbulence and,
//! for a positive amplitude, ridged in `[0, 1]`). For fBm this is exact: the
//! family's noises keep a relative margin of 3.8·10⁻⁶ below 1, more than the
//! at most 34 roundings of the `f32` sum can add (2·10⁻⁶), so normalised fBm
//! never leaves `[-1, 1]` in either precision; the test suite checks it on
//! 10⁶ random points per dimension.
//!
//! # Measured ranges
//!
//! Default parameters (4 octaves, lacunarity 2, gain 0.5, normalised, so the
//! derived bound is 1 for every kind), 2.5·10⁵ uniform points in
//! `[-1000, 1000]^D` per cell, 10⁶ per row, `f64`. The test
//! `tests/suite/fractal_ranges.rs` measures and prints this table and checks every
//! value against the bound (and turbulence and ridged against 0).
//!
//! | kind | dim | value | Perlin | simplex | simplex value |
//! |---|---|---|---|---|---|
//! | fbm | 1D | [-0.884, 0.874] | [-0.654, 0.686] | [-0.742, 0.698] | [-0.835, 0.859] |
//! | fbm | 2D | [-0.872, 0.871] | [-0.666, 0.743] | [-0.900, 0.902] | [-0.784, 0.804] |
//! | fbm | 3D | [-0.854, 0.847] | [-0.585, 0.599] | [-0.757, 0.744] | [-0.675, 0.731] |
//! | fbm | 4D | [-0.785, 0.865] | [-0.447, 0.464] | [-0.681, 0.701] | [-0.649, 0.611] |
//! | ridged | 1D | [0.000, 0.965] | [0.001, 0.991] | [0.002, 0.992] | [0.000, 0.975] |
//! | ridged | 2D | [0.000, 0.971] | [0.000, 0.988] | [0.000, 0.976] | [0.000, 0.983] |
//! | ridged | 3D | [0.000, 0.986] | [0.004, 0.987] | [0.000, 0.985] | [0.000, 0.989] |
//! | ridged | 4D | [0.000, 0.984] | [0.123, 0.988] | [0.004, 0.991] | [0.000, 0.996] |
//! | billow | 1D | [-0.964, 0.887] | [-0.991, 0.372] | [-0.992, 0.597] | [-0.975, 0.863] |
//! | billow | 2D | [-0.969, 0.856] | [-0.988, 0.487] | [-0.974, 0.815] | [-0.983, 0.666] |
//! | billow | 3D | [-0.986, 0.830] | [-0.987, 0.275] | [-0.985, 0.621] | [-0.989, 0.510] |
//! | billow | 4D | [-0.983, 0.731] | [-0.988, -0.042] | [-0.991, 0.450] | [-0.996, 0.360] |
//! | turbulence | 1D | [0.018, 0.943] | [0.004, 0.686] | [0.004, 0.799] | [0.013, 0.932] |
//! | turbulence | 2D | [0.015, 0.928] | [0.006, 0.743] | [0.013, 0.907] | [0.008, 0.833] |
//! | turbulence | 3D | [0.007, 0.915] | [0.007, 0.637] | [0.008, 0.811] | [0.005, 0.755] |
//! | turbulence | 4D | [0.008, 0.865] | [0.006, 0.479] | [0.005, 0.725] | [0.002, 0.680] |
//! | hybrid | 1D | [-0.143, 0.710] | [-0.102, 0.594] | [-0.093, 0.618] | [-0.150, 0.695] |
//! | hybrid | 2D | [-0.154, 0.697] | [-0.103, 0.642] | [-0.145, 0.709] | [-0.131, 0.664] |
//! | hybrid | 3D | [-0.146, 0.696] | [-0.068, 0.565] | [-0.113, 0.638] | [-0.097, 0.625] |
//! | hybrid | 4D | [-0.133, 0.695] | [0.007, 0.503] | [-0.085, 0.620] | [-0.099, 0.574] |
//!
//! Random points rarely come near the bound: it needs every octave at its
//! extreme at one point. Normalised fBm with one octave is the base noise
//! and does reach its range (the test measures ±0.9998 in 1D); ridged reaches
//! 0 wherever octave 0 reaches ±1, which zeroes every later octave's weight;
//! hybrid is bounded by the product of the weights, far from its bound when
//! `offset < 1`.
//!
//! # Gradients
//!
//! The gradient is the chain rule through every octave: `∇nᵢ(p·fᵢ) = fᵢ ·
//! (∇nᵢ)(p·fᵢ)`, `∇|n| = sign(n) ∇n`, and so on through the ridged and hybrid
//! weights. Where `n` is exactly 0, `|n|` has no derivative and the gradient
//! uses 0 for `sign(0)`; where a clamp (`min`, `max`) is saturated — or
//! exactly at its threshold — it passes no derivative. Away from those
//! measure-zero sets the gradient is the exact derivative (the test suite
//! compares it with central differences at 10⁴ points per fractal and
//! dimension).
//!
//! # Extreme input
//!
//! NaN or ±∞ in any coordinate gives NaN. A finite coordinate always gives a
//! finite value and gradient: when a high octave's frequency carries `p·fᵢ`
//! past the float range (1e300 · 2³¹ at the 32nd octave), that coordinate is
//! saturated to ±MAX, a far lattice point like every coordinate past the
//! precision limit, instead of overflowing to ∞ and poisoning the sum.
//!
//! # Octave rotation
//!
//! With a nonzero [`rotation`](FractalParams::rotation) `θ` (radians), octave
//! `i` evaluates its noise at `Rᵢ·p · fᵢ + oᵢ` with `Rᵢ = Tⁱ`: octave 0 is not
//! turned, and each octave is turned by `T` from the one before. The
//! octaves' lattices then no longer share their axes, the standard cure for
//! the axis-aligned streaks of fBm over a lattice noise. In 2D, `T` is the
//! turn by `θ`; in `D` dimensions it turns every pair of neighbouring axes in
//! turn, `T = G(D−2, D−1) ⋯ G(1, 2)·G(0, 1)`, with `G(a, b)` the turn by `θ`
//! from axis `a` towards axis `b`. One axis has no plane to turn, and is left
//! alone. `T` and its powers are computed once, in `f64` (`libm`'s sine and
//! cosine, the same on every platform), and rounded once to the working
//! precision.
//!
//! A rotation keeps the formulas and the derived bounds above: it only
//! moves where each octave is read (the measured ranges are of unturned
//! fractals). A turned fractal's grid is evaluated one vector of points at a
//! time, without the octave-by-octave rows that value and Perlin fractals
//! use on grids. The gradient follows by the chain rule,
//! `∇ₚ nᵢ(fᵢ Rᵢ p) = fᵢ Rᵢᵀ (∇nᵢ)(fᵢ Rᵢ p)`. A turned lattice does not tile,
//! so a rotation with a [period](#tiling) is refused (in every dimension, for
//! one rule). A stack's [offset](crate::Stack::offset) moves the point before
//! it is turned.
//!
//! ```
//! use surflet::Field;
//! use surflet::{Fractal, FractalKind, FractalParams, Noise, NoiseKind};
//! let base = Noise::<2>::new(NoiseKind::Perlin, 7);
//! let turned = FractalParams { rotation: 0.5, ..FractalParams::new(FractalKind::Fbm) };
//! let f = Fractal::new(base, turned)?;
//! let s = f.sample([0.3f64, 0.7]);
//! let h = 1e-6;
//! let dy = (f.get([0.3, 0.7 + h]) - f.get([0.3, 0.7 - h])) / (2.0 * h);
//! assert!((dy - s.gradient[1]).abs() < 1e-6);
//! // Octave 1 is turned by 0.5 radians.
//! let r = f.octaves().nth(1).unwrap().rotation.unwrap();
//! assert!((r[0][0] - 0.5f64.cos()).abs() < 1e-15 && (r[1][0] - 0.5f64.sin()).abs() < 1e-15);
//! // Not with a period.
//! assert!(Fractal::new(base.with_period([4, 4])?, turned).is_err());
//! # Ok::<(), surflet::Error>(())
//! ```
//!
//! # Tiling
//!
//! If the base noise has a period `P` (see [`Noise::with_period`]) the
//! lacunarity must be a whole number `L ≥ 1`, and octave `i` gets the period
//! `P · Lⁱ` (which must stay within 65536 on every axis). The fractal then
//! repeats every `T = P / frequency` in input units: `f(p + k·T) = f(p)`. The
//! equality is bit-exact wherever the octave coordinates are exact, that is,
//! where `p · fᵢ + oᵢ` and `(p + k·T) · fᵢ + oᵢ` are computed without
//! rounding — for example when the frequency is a power of two, the
//! lacunarity a whole number, and `p` has a short binary expansion (the
//! offsets are multiples of 2^-16).

use crate::prelude_internal::*;

use crate::error::Error;
pub use crate::fractal_kind::FractalKind;
use crate::noise::{MAX_PERIOD, Noise};
use crate::program::{LayerSpec, OctaveSpec, Program};
use crate::seed::{octave_offset, octave_seed};

/// Why a rotation and a period are refused together.
pub(crate) const ROTATION_TILES: &str = "a turned octave's lattice is not aligned with the \
     tile, so a tiled fractal cannot be rotated; use rotation 0 or no period";

/// The most octaves a fractal may have.
pub const MAX_OCTAVES: u32 = 32;

/// The parameters of a fractal.
///
/// Start from [`FractalParams::new`] and change fields with struct update
/// syntax:
///
/// ```
/// use surflet::{FractalKind, FractalParams};
/// let p = FractalParams { octaves: 6, gain: 0.6, ..FractalParams::new(FractalKind::Ridged) };
/// assert_eq!(p.offset, 1.0);
/// assert!(p.validate().is_ok());
/// assert!(FractalParams { octaves: 0, ..p }.validate().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FractalParams {
    /// The formula.
    pub kind: FractalKind,
    /// Number of octaves, 1 to [`MAX_OCTAVES`].
    pub octaves: u32,
    /// Frequency of octave 0: input coordinates are multiplied by it.
    /// Positive and finite.
    pub frequency: f64,
    /// Frequency ratio between successive octaves. Positive and finite; a
    /// whole number for tiling.
    pub lacunarity: f64,
    /// Amplitude ratio between successive octaves (persistence). Finite.
    pub gain: f64,
    /// Amplitude of octave 0. Finite.
    pub amplitude: f64,
    /// Ridged and hybrid offset; ignored by the other kinds. Finite.
    pub offset: f64,
    /// Ridged weight gain (how strongly one octave's signal weights the next);
    /// ignored by the other kinds. Finite.
    pub weight: f64,
    /// Multiply by 1/bound, so that the result lies within [-1, 1].
    pub normalize: bool,
    /// The turn between successive octaves, in radians (default 0: none).
    /// Finite. Octave `i` sees the domain turned by `Rⁱ` (see
    /// [rotation](crate::fractal#octave-rotation)); not with a period.
    pub rotation: f64,
}

impl FractalParams {
    /// The defaults for `kind`: 4 octaves, frequency 1, lacunarity 2, gain
    /// 0.5, amplitude 1, the kind's [offset](FractalKind::default_offset) and
    /// [weight](FractalKind::default_weight), normalised, no rotation.
    pub const fn new(kind: FractalKind) -> Self {
        FractalParams {
            kind,
            octaves: 4,
            frequency: 1.0,
            lacunarity: 2.0,
            gain: 0.5,
            amplitude: 1.0,
            offset: kind.default_offset(),
            weight: kind.default_weight(),
            normalize: true,
            rotation: 0.0,
        }
    }

    /// Checks every parameter on its own; the error names the parameter.
    pub fn validate(&self) -> Result<(), Error> {
        let bad = |name: &str, reason: String| {
            Err(Error::Parameter {
                name: name.to_string(),
                reason,
            })
        };
        if self.octaves == 0 || self.octaves > MAX_OCTAVES {
            return bad(
                "octaves",
                format!("must be in 1..={MAX_OCTAVES}, got {}", self.octaves),
            );
        }
        for (name, v) in [
            ("frequency", self.frequency),
            ("lacunarity", self.lacunarity),
        ] {
            if !(v.is_finite() && v > 0.0) {
                return bad(name, format!("must be positive and finite, got {v}"));
            }
        }
        for (name, v) in [
            ("gain", self.gain),
            ("amplitude", self.amplitude),
            ("offset", self.offset),
            ("weight", self.weight),
            ("rotation", self.rotation),
        ] {
            if !v.is_finite() {
                return bad(name, format!("must be finite, got {v}"));
            }
        }
        Ok(())
    }

    /// The derived bound `B` on |value| before normalisation, for the given
    /// octave amplitudes.
    fn bound(&self, amps: impl Iterator<Item = f64>) -> f64 {
        match self.kind {
            FractalKind::Fbm | FractalKind::Billow | FractalKind::Turbulence => {
                amps.map(f64::abs).sum()
            }
            FractalKind::Ridged => {
                let o = self.offset;
                let m = (o * o).max((o - 1.0) * (o - 1.0));
                m * amps.map(f64::abs).sum::<f64>()
            }
            FractalKind::Hybrid => {
                let k = 1.0 + self.offset.abs();
                let mut total = 0.0f64;
                let mut w = 0.0f64;
                for (i, a) in amps.enumerate() {
                    let c = k * a.abs();
                    let t = if i == 0 { c } else { w.max(1.0) * c };
                    total += t;
                    w = t;
                }
                total
            }
        }
    }
}

/// One octave of a [`Fractal`]: its noise (with the octave's seed and
/// period), frequency, rotation, offset and amplitude. The octave's value at
/// `p` is `noise.get(x)` with `x[a] = q[a] · frequency + offset[a]`, where
/// `q = R·p` for a rotation `R` and `q = p` without one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Octave<const D: usize> {
    /// The octave's noise.
    pub noise: Noise<D>,
    /// The factor applied to the input coordinates.
    pub frequency: f64,
    /// The octave's turn `R = Tⁱ` ([rotation](crate::fractal#octave-rotation)),
    /// `R[a][b]` the weight of input axis `b` in turned axis `a`; `None`
    /// for octave 0 and without a rotation.
    pub rotation: Option<[[f64; D]; D]>,
    /// Added to the scaled coordinates (in the octave's lattice cells).
    /// Octave 0's is −0.0, which adds exactly nothing.
    pub offset: [f64; D],
    /// The octave's amplitude `aᵢ`.
    pub amplitude: f64,
}

/// A fractal sum of octaves of one noise kind, in `D` dimensions.
///
/// Evaluate it like a [`Noise`]: one point at a time ([`get`](crate::Field::get),
/// [`sample`](crate::Field::sample)) or in SIMD batches ([`fill`](crate::Field::fill),
/// [`fill_gradient`](crate::Field::fill_gradient); the [`Field`](crate::Field) trait), which return identical bits. See
/// the [module documentation](crate::fractal) for formulas, bounds, seeds and
/// tiling.
///
/// ```
/// use surflet::Field; // the trait with get, sample, fill and grid
/// use surflet::{Fractal, FractalKind, FractalParams, Noise, NoiseKind};
/// let base = Noise::<2>::new(NoiseKind::Simplex, 42);
/// let fbm = Fractal::new(base, FractalParams::new(FractalKind::Fbm))?;
/// let s = fbm.sample([0.3f64, 0.7]);
/// assert!(s.value.abs() <= 1.0);
/// // The gradient is the exact derivative.
/// let h = 1e-6;
/// let dx = (fbm.get([0.3 + h, 0.7]) - fbm.get([0.3 - h, 0.7])) / (2.0 * h);
/// assert!((dx - s.gradient[0]).abs() < 1e-6);
///
/// // Tiling: a periodic base noise and a whole-number lacunarity.
/// let tiled = Fractal::new(base.with_period([4, 4])?, FractalParams::new(FractalKind::Ridged))?;
/// assert_eq!(tiled.get([0.25f64, 1.5]), tiled.get([4.25, -2.5]));
/// # Ok::<(), surflet::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Fractal<const D: usize> {
    noise: Noise<D>,
    params: FractalParams,
    bound: f64,
    program: Program<D>,
}

impl<const D: usize> Fractal<D> {
    /// A fractal of `noise` (its kind, its seed, and its period, if any,
    /// which makes the fractal tile).
    ///
    /// Fails if a parameter is out of range ([`FractalParams::validate`]), if
    /// `frequency · lacunarityⁱ` or `amplitude · gainⁱ` overflows or
    /// underflows `f64`, if normalising would divide by a zero bound (zero
    /// amplitude), or, when tiling, if the lacunarity is not a whole number or
    /// an octave's period would exceed 65536.
    pub fn new(noise: Noise<D>, params: FractalParams) -> Result<Self, Error> {
        params.validate()?;
        let period = noise.period();
        let lac = params.lacunarity;
        if period.is_some() && lac.fract() != 0.0 {
            return Err(Error::Parameter {
                name: "lacunarity".into(),
                reason: format!(
                    "a tiled fractal needs a whole-number lacunarity (so that every octave's \
                     period is a whole number of cells), got {lac}"
                ),
            });
        }
        if period.is_some() && params.rotation != 0.0 {
            return Err(Error::Parameter {
                name: "rotation".into(),
                reason: ROTATION_TILES.into(),
            });
        }
        let turn = octave_turn::<D>(params.rotation);
        let mut rot = turn;
        let mut octaves = Vec::with_capacity(params.octaves as usize);
        let (mut freq, mut amp) = (params.frequency, params.amplitude);
        // Lacunarity^i as an integer, for the octave periods.
        let mut mult: u64 = 1;
        for i in 0..params.octaves {
            if !(freq.is_finite() && freq > 0.0) {
                return Err(Error::Parameter {
                    name: "lacunarity".into(),
                    reason: format!(
                        "octave {i}'s frequency, frequency × lacunarity^{i} = {freq}, is not \
                         positive and finite"
                    ),
                });
            }
            if !amp.is_finite() {
                return Err(Error::Parameter {
                    name: "gain".into(),
                    reason: format!(
                        "octave {i}'s amplitude, amplitude × gain^{i}, overflows to {amp}"
                    ),
                });
            }
            let seed = octave_seed(noise.seed(), i);
            let mut n = noise.reseeded(seed);
            if let Some(p) = period {
                let mut per = [0u32; D];
                for a in 0..D {
                    let v = (p[a] as u64).saturating_mul(mult);
                    if v > MAX_PERIOD as u64 {
                        return Err(Error::Period {
                            axis: a,
                            period: v,
                            reason: format!(
                                "octave {i} of a tiled fractal needs the period {} × \
                                 lacunarity^{i}, and periods must be in 1..={MAX_PERIOD}",
                                p[a]
                            ),
                        });
                    }
                    per[a] = v as u32;
                }
                n = n.with_period(per)?;
                mult = mult.saturating_mul(lac as u64);
            }
            octaves.push(OctaveSpec {
                noise: n,
                freq,
                rot: if i == 0 { None } else { rot },
                offset: array_of(|a| octave_offset(seed, i, a)),
                amp,
            });
            if i > 0
                && let (Some(r), Some(t)) = (&mut rot, &turn)
            {
                *r = mat_mul(t, r);
            }
            freq *= lac;
            amp *= params.gain;
        }
        let raw = params.bound(octaves.iter().map(|o| o.amp));
        let scale = if params.normalize {
            if !(raw.is_finite() && raw > 0.0) {
                return Err(Error::Parameter {
                    name: "normalize".into(),
                    reason: format!(
                        "normalising divides by the bound of the sum, which is {raw} for these \
                         amplitudes; use a nonzero amplitude or turn normalisation off"
                    ),
                });
            }
            1.0 / raw
        } else {
            1.0
        };
        let layer = LayerSpec {
            kind: params.kind,
            first: 0,
            count: octaves.len(),
            offset: params.offset,
            weight: params.weight,
            scale,
        };
        Ok(Fractal {
            noise,
            params,
            bound: if params.normalize { 1.0 } else { raw },
            program: Program {
                octaves,
                layers: vec![layer],
                steps: 0,
            },
        })
    }

    /// The base noise (octave 0's kind, seed and period).
    pub fn noise(&self) -> Noise<D> {
        self.noise
    }

    /// The parameters.
    pub fn params(&self) -> &FractalParams {
        &self.params
    }

    /// The derived bound on |value|: 1 when normalised, otherwise the bound
    /// `B` of the [formula](crate::fractal).
    pub fn bound(&self) -> f64 {
        self.bound
    }

    /// The interval the values lie in: `[-B, B]` with `B` the
    /// [bound](Self::bound), narrowed to `[0, B]` for ridged and turbulence
    /// (sums of non-negative terms) when no octave amplitude is negative.
    ///
    /// ```
    /// use surflet::{Fractal, FractalKind, FractalParams, Noise, NoiseKind};
    /// let n = Noise::<2>::new(NoiseKind::Perlin, 1);
    /// let f = Fractal::new(n, FractalParams::new(FractalKind::Turbulence))?;
    /// assert_eq!(f.range(), (0.0, 1.0));
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn range(&self) -> (f64, f64) {
        let p = &self.params;
        let non_negative = matches!(p.kind, FractalKind::Turbulence | FractalKind::Ridged)
            && p.amplitude >= 0.0
            && p.gain >= 0.0;
        if non_negative {
            (0.0, self.bound)
        } else {
            (-self.bound, self.bound)
        }
    }

    /// The factor the sum is multiplied by: `1/B` when normalised, else 1.
    pub fn normalization(&self) -> f64 {
        self.program.layers[0].scale
    }

    /// The period in input units, `P / frequency` per axis, if the base
    /// noise has a period `P`.
    pub fn tile(&self) -> Option<[f64; D]> {
        self.noise
            .period()
            .map(|p| p.map(|v| v as f64 / self.params.frequency))
    }

    /// The octaves, from the lowest frequency.
    pub fn octaves(&self) -> impl ExactSizeIterator<Item = Octave<D>> + '_ {
        self.program.octaves.iter().map(|o| Octave {
            noise: o.noise,
            frequency: o.freq,
            rotation: o.rot,
            offset: o.offset,
            amplitude: o.amp,
        })
    }

    /// The same fractal with another seed (and the octave seeds derived from
    /// it).
    pub fn with_seed(&self, seed: u64) -> Self {
        let mut noise = self.noise.reseeded(seed);
        if let Some(p) = self.noise.period() {
            noise = noise
                .with_period(p)
                .expect("the period was accepted before");
        }
        Fractal::new(noise, self.params).expect("the parameters were accepted before")
    }

    pub(crate) fn program(&self) -> &Program<D> {
        &self.program
    }
}

crate::field::program_field!(Fractal, |f| f.range());

/// The turn `T` between successive octaves: `None` for no turn (an angle of
/// 0, or one axis, which has no plane to turn). The sine and cosine come
/// from `libm`, so the matrix has the same bits on every platform.
fn octave_turn<const D: usize>(angle: f64) -> Option<[[f64; D]; D]> {
    if angle == 0.0 || D < 2 {
        return None;
    }
    let (s, c) = (libm::sin(angle), libm::cos(angle));
    let identity = || {
        let mut m = [[0.0; D]; D];
        for (k, row) in m.iter_mut().enumerate() {
            row[k] = 1.0;
        }
        m
    };
    let mut t = identity();
    // T = G(D−2, D−1) ⋯ G(1, 2) · G(0, 1): every axis pair in turn, so that
    // in 3D and 4D no axis stays aligned with the lattice.
    for a in 0..D - 1 {
        let mut g = identity();
        g[a][a] = c;
        g[a][a + 1] = -s;
        g[a + 1][a] = s;
        g[a + 1][a + 1] = c;
        t = mat_mul(&g, &t);
    }
    Some(t)
}

/// The product `a · b`, each entry summed from its first term.
fn mat_mul<const D: usize>(a: &[[f64; D]; D], b: &[[f64; D]; D]) -> [[f64; D]; D] {
    let mut m = [[0.0; D]; D];
    for r in 0..D {
        for c in 0..D {
            let mut acc = a[r][0] * b[0][c];
            for k in 1..D {
                acc += a[r][k] * b[k][c];
            }
            m[r][c] = acc;
        }
    }
    m
}
