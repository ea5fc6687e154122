//! Domain warping: evaluating a fractal at coordinates displaced by other
//! noise, FastNoiseLite-style, with the gradient carried through the warp.
//!
//! # Single-step
//!
//! `f(p')` with `p' = p + w(p)`, where each component `w_a` is its own
//! fractal (a one-octave fractal is a plain noise) with frequency `f_w`,
//! multiplied by the warp [`amplitude`](WarpParams::amplitude) `A` (with
//! normalisation, every component is within `[-A, A]`).
//!
//! # Progressive
//!
//! Octave by octave, each octave's displacement is evaluated at the point the
//! previous octaves have already moved: `q₀ = p`, `qᵢ₊₁ = qᵢ + A aᵢ wᵢ(qᵢ fᵢ)`
//! (with `aᵢ` divided by `Σ|aᵢ|` when normalised), then `f(q_n)`. The octave
//! noises, frequencies and amplitudes are exactly those of the single-step
//! fBm warp with the same parameters.
//!
//! # Seeds
//!
//! The warp noise's seed `s_w` gives component `a` (0 = x) the seed
//! `splitmix64(s_w ^ 0x5741525057415250 ^ a·0x9E3779B97F4A7C15)` (the salt is
//! ASCII "WARPWARP"); each component's octaves then derive from it as in any
//! [fractal](crate::fractal). The salt keeps the components decorrelated from
//! a field that uses the same seed.
//!
//! # Gradient
//!
//! `∇ₚ f(p') = Jᵀ (∇f)(p')` with the Jacobian `J = ∂p'/∂p`: for one step
//! `J = I + ∂w/∂p` (the analytic gradients of the components, which include
//! `A` and `f_w`); progressive warps multiply the steps' Jacobians,
//! `J ← (I + ∂wᵢ/∂q) J`.
//!
//! # Tiling
//!
//! If the field and the warp noise are periodic with the same tile in input
//! units, the warped field is periodic too, but only up to rounding: `p + T +
//! w(p)` and `p + w(p)` round differently, so `f(p + T)` and `f(p)` differ in
//! the last bits.

use crate::prelude_internal::*;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::fractal::{Fractal, FractalKind, FractalParams};
use crate::noise::Noise;
use crate::program::{LayerSpec, Program};
use crate::seed::{WARP_SALT, derive};

/// How the warp displacements are applied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum WarpKind {
    /// One displacement by one fractal per axis, all evaluated at `p`.
    #[default]
    Single,
    /// One displacement per octave, each evaluated at the point the previous
    /// octaves moved to.
    Progressive,
}

impl WarpKind {
    /// All kinds.
    pub const ALL: [WarpKind; 2] = [WarpKind::Single, WarpKind::Progressive];

    /// The name used on the command line and in configs.
    pub const fn name(self) -> &'static str {
        match self {
            WarpKind::Single => "single",
            WarpKind::Progressive => "progressive",
        }
    }

    /// Parses a name produced by [`name`](Self::name).
    pub fn from_name(name: &str) -> Result<WarpKind, Error> {
        WarpKind::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| Error::UnknownName {
                what: "warp",
                name: name.to_string(),
                expected: WarpKind::ALL.map(|k| k.name()).join(", "),
            })
    }
}

impl core::fmt::Display for WarpKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// The parameters of a domain warp.
///
/// ```
/// use surflet::{WarpKind, WarpParams};
/// let mut w = WarpParams::new(WarpKind::Progressive);
/// w.amplitude = 0.5;
/// w.fractal.octaves = 3;
/// w.fractal.frequency = 2.0;
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WarpParams {
    /// Single-step or progressive.
    pub kind: WarpKind,
    /// Largest displacement per axis, in input units, when
    /// [`fractal.normalize`](FractalParams::normalize) is set (otherwise the
    /// factor on the components). Finite.
    pub amplitude: f64,
    /// The warp's fractal: its frequency is the warp frequency `f_w`; one
    /// octave warps by a plain noise. Progressive warps need
    /// [`FractalKind::Fbm`].
    pub fractal: FractalParams,
}

impl WarpParams {
    /// Amplitude 1, warping by one octave of noise at frequency 1.
    pub const fn new(kind: WarpKind) -> Self {
        let mut fractal = FractalParams::new(FractalKind::Fbm);
        fractal.octaves = 1;
        WarpParams {
            kind,
            amplitude: 1.0,
            fractal,
        }
    }
}

/// A fractal evaluated at domain-warped coordinates, in `D` dimensions.
///
/// Evaluate it like a [`Noise`]; single points and batches return identical
/// bits. See the [module documentation](crate::warp) for the formulas.
///
/// ```
/// use surflet::Field; // the trait with get, sample, fill and grid
/// use surflet::{Fractal, FractalKind, FractalParams, Noise, NoiseKind, Warp, WarpKind, WarpParams};
/// let field = Fractal::new(Noise::<2>::new(NoiseKind::Perlin, 1), FractalParams::new(FractalKind::Fbm))?;
/// let mut params = WarpParams::new(WarpKind::Single);
/// params.amplitude = 0.4;
/// let warped = Warp::new(field, Noise::new(NoiseKind::Simplex, 2), params)?;
/// let s = warped.sample([0.3f64, 0.7]);
/// let h = 1e-6;
/// let dy = (warped.get([0.3, 0.7 + h]) - warped.get([0.3, 0.7 - h])) / (2.0 * h);
/// assert!((dy - s.gradient[1]).abs() < 1e-6);
/// # Ok::<(), surflet::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Warp<const D: usize> {
    field: Fractal<D>,
    noise: Noise<D>,
    params: WarpParams,
    components: Vec<Fractal<D>>,
    program: Program<D>,
}

impl<const D: usize> Warp<D> {
    /// Warps `field` by displacements built from `noise` (its kind, its seed
    /// from which the per-axis seeds derive, and its period, if any) with
    /// `params`.
    ///
    /// Fails if the warp fractal's parameters are invalid (see
    /// [`Fractal::new`]), the amplitude is not finite, or a progressive warp
    /// asks for a fractal kind other than fBm.
    pub fn new(field: Fractal<D>, noise: Noise<D>, params: WarpParams) -> Result<Self, Error> {
        if !params.amplitude.is_finite() {
            return Err(Error::Parameter {
                name: "amplitude".into(),
                reason: format!("must be finite, got {}", params.amplitude),
            });
        }
        if params.kind == WarpKind::Progressive && params.fractal.kind != FractalKind::Fbm {
            return Err(Error::Parameter {
                name: "fractal.kind".into(),
                reason: format!(
                    "a progressive warp adds one octave's displacement at a time, which is \
                     fBm; {} is only available for single-step warps",
                    params.fractal.kind
                ),
            });
        }
        let mut components = Vec::with_capacity(D);
        for a in 0..D {
            let mut n = noise.reseeded(derive(noise.seed(), WARP_SALT, a as u64));
            if let Some(p) = noise.period() {
                n = n.with_period(p)?;
            }
            components.push(Fractal::new(n, params.fractal)?);
        }
        let mut program = Program {
            octaves: Vec::new(),
            layers: Vec::new(),
            steps: 0,
        };
        match params.kind {
            WarpKind::Single => {
                for c in &components {
                    let cp = c.program();
                    let mut layer = cp.layers[0];
                    layer.scale *= params.amplitude;
                    program.push_layer(&cp.octaves, layer);
                }
                program.steps = 1;
            }
            WarpKind::Progressive => {
                let octaves = params.fractal.octaves as usize;
                for i in 0..octaves {
                    for c in &components {
                        let cp = c.program();
                        let mut o = cp.octaves[i];
                        let layer = LayerSpec {
                            kind: FractalKind::Fbm,
                            first: 0,
                            count: 1,
                            offset: 0.0,
                            weight: 0.0,
                            scale: params.amplitude * cp.layers[0].scale * o.amp,
                        };
                        o.amp = 1.0;
                        program.push_layer(&[o], layer);
                    }
                }
                program.steps = octaves;
            }
        }
        let fp = field.program();
        program.push_layer(&fp.octaves, fp.layers[0]);
        Ok(Warp {
            field,
            noise,
            params,
            components,
            program,
        })
    }

    /// The warped field.
    pub fn field(&self) -> &Fractal<D> {
        &self.field
    }

    /// The warp noise as given (kind, seed, period).
    pub fn noise(&self) -> Noise<D> {
        self.noise
    }

    /// The parameters.
    pub fn params(&self) -> &WarpParams {
        &self.params
    }

    /// The per-axis displacement fractals (before the amplitude), `D` of
    /// them. For a progressive warp, octave `i` of component `a` is the noise
    /// of step `i` on axis `a`.
    pub fn components(&self) -> &[Fractal<D>] {
        &self.components
    }

    pub(crate) fn program(&self) -> &Program<D> {
        &self.program
    }

    /// The displaced point `p'` that the field is evaluated at, computed in
    /// `f64` exactly as [`get`](crate::Field::get) computes it, so that
    /// `warp.get(p) == warp.field().get(warp.warp_point(p))` bit for bit.
    pub fn warp_point(&self, p: [f64; D]) -> [f64; D] {
        let mut q = p;
        let per_step = D;
        for step in 0..self.program.steps {
            let mut d = [0.0; D];
            for (a, da) in d.iter_mut().enumerate() {
                *da = self.program.sample_layer(step * per_step + a, q).value;
            }
            for a in 0..D {
                q[a] += d[a];
            }
        }
        q
    }
}

crate::field::program_field!(Warp, |w| w.field().range());
