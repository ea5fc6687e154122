//! Noise stacks: a declarative description of a noise, its fractal and its
//! domain warp, read from and written to TOML or JSON, and compiled into an
//! [`Evaluator`].
//!
//! ```toml
//! noise = "simplex"          # value | perlin | simplex | simplex-value | cellular
//! seed = 42                  # u64; above 2^63 - 1 write it as a string
//! frequency = 0.01           # octave 0's frequency
//! period = [4, 4]            # optional: tile every period / frequency units
//! distance = "euclidean"     # cellular only: euclidean | euclidean-squared |
//!                            #   manhattan | chebyshev | hybrid
//! return = "f1"              # cellular only: f1 | f2 | f2-f1 | f1+f2 | f1*f2 |
//!                            #   f1/f2 | cell-value
//! jitter = 1.0               # cellular only: in [0, 1]
//!
//! [fractal]                  # optional: without it, one octave of noise
//! kind = "ridged"            # fbm | ridged | billow | turbulence | hybrid
//! octaves = 5                # 1..=32
//! lacunarity = 2.0           # a whole number when tiling
//! gain = 0.5
//! amplitude = 1.0
//! normalize = true
//! offset = 1.0               # ridged and hybrid only
//! weight = 2.0               # ridged only
//!
//! [warp]                     # optional
//! kind = "progressive"       # single | progressive
//! noise = "perlin"           # default: the stack's noise
//! seed = 7                   # default: the stack's seed (decorrelated by a salt)
//! frequency = 0.02           # default: the stack's frequency
//! amplitude = 30.0           # largest displacement, in input units
//!
//! [warp.fractal]             # optional: without it, one octave of noise
//! octaves = 3
//! ```
//!
//! Omitted keys take the defaults shown in [`Stack::default`],
//! [`FractalDesc::default`] and [`WarpDesc::default`]. Unknown keys and bad
//! values are errors ([`Error::Config`]) that name the key; TOML errors also
//! give the line and column.
//!
//! **Tiling.** With `period = [P₀, P₁, …]` (one entry per dimension) the
//! stack repeats every `Pₐ / frequency` input units. The fractal's lacunarity
//! must then be a whole number (see [tiling](crate::fractal#tiling)). A warp
//! is made periodic with the same tile: its noise gets the period
//! `Pₐ · warp.frequency / frequency`, which must be a whole number; warped
//! stacks repeat up to rounding (see [`crate::warp`]).

use crate::prelude_internal::*;
#[cfg(feature = "serde")]
use serde::de::{self, Deserializer, Visitor};
#[cfg(feature = "serde")]
use serde::ser::Serializer;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use crate::cellular::{Cellular, CellularDistance, CellularReturn};
use crate::error::Error;
use crate::fractal::{Fractal, FractalKind, FractalParams};
use crate::noise::{MAX_PERIOD, Noise, NoiseKind};
use crate::program::{Program, field_methods};
use crate::warp::{Warp, WarpKind, WarpParams};

#[cfg(feature = "serde")]
impl Serialize for NoiseKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl Serialize for CellularDistance {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for CellularDistance {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        CellularDistance::from_name(&name).map_err(de::Error::custom)
    }
}

#[cfg(feature = "serde")]
impl Serialize for CellularReturn {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for CellularReturn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        CellularReturn::from_name(&name).map_err(de::Error::custom)
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for NoiseKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        NoiseKind::from_name(&name).map_err(de::Error::custom)
    }
}

/// A noise stack: noise, seed, frequency, optional period, fractal and warp.
///
/// ```
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
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Stack {
    /// The base noise (default `simplex`).
    #[cfg_attr(feature = "serde", serde(default = "default_noise"))]
    pub noise: NoiseKind,
    /// Cellular noise's distance (default euclidean); an error for other
    /// noises.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub distance: Option<CellularDistance>,
    /// Cellular noise's return value, key `return` (default `f1`); an error
    /// for other noises.
    #[cfg_attr(
        feature = "serde",
        serde(rename = "return", default, skip_serializing_if = "Option::is_none")
    )]
    pub ret: Option<CellularReturn>,
    /// Cellular noise's jitter, in `[0, 1]` (default 1); an error for other
    /// noises.
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "some_jitter"
        )
    )]
    pub jitter: Option<f64>,
    /// The seed (default 0).
    #[cfg_attr(feature = "serde", serde(default, with = "seed_format"))]
    pub seed: u64,
    /// Octave 0's frequency (default 1). Positive and finite.
    #[cfg_attr(
        feature = "serde",
        serde(default = "one", deserialize_with = "positive")
    )]
    pub frequency: f64,
    /// Period per axis in lattice cells at `frequency`, one entry per
    /// dimension, each in 1..=65536 (default: none).
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "period"
        )
    )]
    pub period: Option<Vec<u32>>,
    /// The fractal (default: none, a single octave of noise).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub fractal: Option<FractalDesc>,
    /// The domain warp (default: none).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub warp: Option<WarpDesc>,
}

/// The `[fractal]` table of a [`Stack`] (the frequency is the stack's).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct FractalDesc {
    /// The formula (default `fbm`).
    #[cfg_attr(feature = "serde", serde(default))]
    pub kind: FractalKind,
    /// Octaves, 1..=32 (default 4).
    #[cfg_attr(
        feature = "serde",
        serde(default = "default_octaves", deserialize_with = "octaves")
    )]
    pub octaves: u32,
    /// Frequency ratio between octaves (default 2). Positive and finite.
    #[cfg_attr(
        feature = "serde",
        serde(default = "two", deserialize_with = "positive")
    )]
    pub lacunarity: f64,
    /// Amplitude ratio between octaves (default 0.5). Finite.
    #[cfg_attr(
        feature = "serde",
        serde(default = "half", deserialize_with = "finite")
    )]
    pub gain: f64,
    /// Octave 0's amplitude (default 1). Finite.
    #[cfg_attr(feature = "serde", serde(default = "one", deserialize_with = "finite"))]
    pub amplitude: f64,
    /// Scale into [-1, 1] (default true).
    #[cfg_attr(feature = "serde", serde(default = "yes"))]
    pub normalize: bool,
    /// Ridged and hybrid offset (default: the kind's,
    /// [`FractalKind::default_offset`]); an error for other kinds.
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "some_finite"
        )
    )]
    pub offset: Option<f64>,
    /// Ridged weight gain (default 2); an error for other kinds.
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "some_finite"
        )
    )]
    pub weight: Option<f64>,
}

/// The `[warp]` table of a [`Stack`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct WarpDesc {
    /// Single-step or progressive (default `single`).
    #[cfg_attr(feature = "serde", serde(default))]
    pub kind: WarpKind,
    /// The warp noise (default: the stack's noise).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub noise: Option<NoiseKind>,
    /// The warp seed (default: the stack's seed; the per-axis seeds are
    /// salted, so they differ from the field's).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none", with = "opt_seed")
    )]
    pub seed: Option<u64>,
    /// The warp frequency (default: the stack's frequency).
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "some_positive"
        )
    )]
    pub frequency: Option<f64>,
    /// The largest displacement per axis, in input units (default 1).
    #[cfg_attr(feature = "serde", serde(default = "one", deserialize_with = "finite"))]
    pub amplitude: f64,
    /// The warp's fractal (default: none, a single octave of noise).
    /// Progressive warps need `fbm`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub fractal: Option<FractalDesc>,
}

impl Default for Stack {
    /// Simplex noise, seed 0, frequency 1, no period, fractal or warp.
    fn default() -> Self {
        Stack {
            noise: default_noise(),
            distance: None,
            ret: None,
            jitter: None,
            seed: 0,
            frequency: 1.0,
            period: None,
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
#[cfg(feature = "serde")]
fn one() -> f64 {
    1.0
}
#[cfg(feature = "serde")]
fn two() -> f64 {
    2.0
}
#[cfg(feature = "serde")]
fn half() -> f64 {
    0.5
}
#[cfg(feature = "serde")]
fn yes() -> bool {
    true
}

#[cfg(feature = "serde")]
fn octaves<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let v = u32::deserialize(d)?;
    if v == 0 || v > crate::fractal::MAX_OCTAVES {
        return Err(de::Error::custom(format!(
            "octaves must be in 1..={}, got {v}",
            crate::fractal::MAX_OCTAVES
        )));
    }
    Ok(v)
}

#[cfg(feature = "serde")]
fn positive<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let v = f64::deserialize(d)?;
    if !(v.is_finite() && v > 0.0) {
        return Err(de::Error::custom(format!(
            "must be positive and finite, got {v}"
        )));
    }
    Ok(v)
}

#[cfg(feature = "serde")]
fn finite<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let v = f64::deserialize(d)?;
    if !v.is_finite() {
        return Err(de::Error::custom(format!("must be finite, got {v}")));
    }
    Ok(v)
}

#[cfg(feature = "serde")]
fn some_jitter<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    let v = f64::deserialize(d)?;
    Cellular::default()
        .with_jitter(v)
        .map_err(|_| de::Error::custom(format!("must be in [0, 1], got {v}")))?;
    Ok(Some(v))
}

#[cfg(feature = "serde")]
fn some_positive<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    positive(d).map(Some)
}

#[cfg(feature = "serde")]
fn some_finite<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    finite(d).map(Some)
}

#[cfg(feature = "serde")]
fn period<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u32>>, D::Error> {
    let v = Vec::<u32>::deserialize(d)?;
    if v.is_empty() || v.len() > 4 {
        return Err(de::Error::custom(format!(
            "must have one entry per dimension (1 to 4), got {}",
            v.len()
        )));
    }
    if let Some(bad) = v.iter().find(|&&p| p == 0 || p > MAX_PERIOD) {
        return Err(de::Error::custom(format!(
            "periods must be in 1..={MAX_PERIOD}, got {bad}"
        )));
    }
    Ok(Some(v))
}

/// Seeds: TOML integers stop at 2^63 − 1, so larger seeds are written as
/// decimal strings; either form (and `"0x…"` hex strings) is read back.
#[cfg(feature = "serde")]
mod seed_format {
    use super::*;

    pub fn serialize<S: Serializer>(seed: &u64, s: S) -> Result<S::Ok, S::Error> {
        match i64::try_from(*seed) {
            Ok(v) => s.serialize_i64(v),
            Err(_) => s.serialize_str(&seed.to_string()),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        d.deserialize_any(SeedVisitor)
    }

    struct SeedVisitor;

    impl Visitor<'_> for SeedVisitor {
        type Value = u64;

        fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.write_str("a seed: an integer in 0..=18446744073709551615, or one in a string")
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
            Ok(v)
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
            u64::try_from(v).map_err(|_| E::custom(format!("seeds are unsigned, got {v}")))
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<u64, E> {
            let t = v.trim();
            let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => t.parse::<u64>(),
            };
            parsed.map_err(|_| E::custom(format!("not a seed: {v:?}")))
        }
    }
}

/// [`seed_format`] for an optional seed (only called when the key is
/// present).
#[cfg(feature = "serde")]
mod opt_seed {
    use super::*;

    pub fn serialize<S: Serializer>(seed: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        match seed {
            Some(v) => seed_format::serialize(v, s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        seed_format::deserialize(d).map(Some)
    }
}

/// An error at `key` (a dotted path).
fn at(key: impl Into<String>, e: impl core::fmt::Display) -> Error {
    Error::Config {
        key: key.into(),
        message: e.to_string(),
    }
}

/// An empty document: almost always a wrong or truncated file, so it is
/// refused rather than read as "all defaults" (which `Stack::default()`
/// spells out explicitly, with at least `noise`, `seed` and `frequency`).
#[cfg(feature = "serde")]
fn empty_stack() -> Error {
    at(
        "",
        "empty noise stack: the document has no keys (write at least `noise = \"simplex\"`)",
    )
}

/// Re-keys an error from [`FractalParams::validate`] or [`Fractal::new`]:
/// parameters live under `prefix`, except the frequency (`freq_key`); period
/// problems belong to `period_key`.
fn rekey(e: Error, prefix: &str, freq_key: &str, period_key: &str) -> Error {
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

/// The fractal parameters of a (possibly absent) `[fractal]` table.
fn fractal_params(
    desc: Option<&FractalDesc>,
    frequency: f64,
    prefix: &str,
    freq_key: &str,
) -> Result<FractalParams, Error> {
    let Some(d) = desc else {
        return Ok(FractalParams {
            octaves: 1,
            frequency,
            ..FractalParams::new(FractalKind::Fbm)
        });
    };
    if d.offset.is_some() && !d.kind.uses_offset() {
        return Err(at(
            format!("{prefix}.offset"),
            format!("{} does not use an offset (ridged and hybrid do)", d.kind),
        ));
    }
    if d.weight.is_some() && !d.kind.uses_weight() {
        return Err(at(
            format!("{prefix}.weight"),
            format!("{} does not use a weight (ridged does)", d.kind),
        ));
    }
    let p = FractalParams {
        kind: d.kind,
        octaves: d.octaves,
        frequency,
        lacunarity: d.lacunarity,
        gain: d.gain,
        amplitude: d.amplitude,
        offset: d.offset.unwrap_or(d.kind.default_offset()),
        weight: d.weight.unwrap_or(d.kind.default_weight()),
        normalize: d.normalize,
    };
    p.validate()
        .map_err(|e| rekey(e, prefix, freq_key, "period"))?;
    Ok(p)
}

/// Checks what [`Fractal::new`] would reject for any dimension: octave
/// frequencies or amplitudes that overflow, a zero bound to normalise by, and
/// octave periods (`period[a] · lacunarityⁱ`) past 65536.
fn trial(
    params: &FractalParams,
    period: Option<&[u32]>,
    prefix: &str,
    freq_key: &str,
    period_key: &str,
) -> Result<(), Error> {
    Fractal::<1>::new(Noise::new(NoiseKind::Value, 0), *params)
        .map_err(|e| rekey(e, prefix, freq_key, period_key))?;
    if let Some(p) = period {
        let top = params.lacunarity.powi(params.octaves as i32 - 1);
        for (a, &pa) in p.iter().enumerate() {
            let last = pa as f64 * top;
            if last > MAX_PERIOD as f64 {
                return Err(at(
                    period_key,
                    format!(
                        "octave {} needs the period {pa} × lacunarity^{} = {last} on axis {a}, \
                         and periods must be in 1..={MAX_PERIOD}; use fewer octaves or a smaller \
                         period",
                        params.octaves - 1,
                        params.octaves - 1
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Everything [`Stack::build`] needs, checked without a dimension.
struct Plan {
    field: FractalParams,
    warp: Option<WarpPlan>,
}

struct WarpPlan {
    noise: NoiseKind,
    seed: u64,
    params: WarpParams,
    /// The warp noise's period, when the stack tiles.
    period: Option<Vec<u32>>,
}

impl Stack {
    /// Parses a TOML description and [checks](Self::check) it. An empty
    /// document is an error, not a default stack:
    ///
    /// ```
    /// use surflet::Stack;
    /// let err = Stack::from_toml_str("# nothing here\n").unwrap_err();
    /// assert!(err.to_string().starts_with("empty noise stack"));
    /// assert!(Stack::from_json_str("{}").is_err());
    /// ```
    #[cfg(feature = "serde")]
    pub fn from_toml_str(text: &str) -> Result<Stack, Error> {
        let table: toml::Table = text.parse().map_err(|e| at("", e))?;
        if table.is_empty() {
            return Err(empty_stack());
        }
        let de = toml::Deserializer::parse(text).map_err(|e| at("", e))?;
        let stack: Stack = serde_path_to_error::deserialize(de).map_err(path_error)?;
        stack.check()?;
        Ok(stack)
    }

    /// Parses a JSON description and [checks](Self::check) it. Like TOML, an
    /// empty document (`{}`) is an error.
    #[cfg(feature = "serde")]
    pub fn from_json_str(text: &str) -> Result<Stack, Error> {
        if serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(text)
            .is_ok_and(|m| m.is_empty())
        {
            return Err(empty_stack());
        }
        let mut de = serde_json::Deserializer::from_str(text);
        let stack: Stack = serde_path_to_error::deserialize(&mut de).map_err(path_error)?;
        de.end().map_err(|e| at("", e))?;
        stack.check()?;
        Ok(stack)
    }

    /// Reads a description from a file: JSON if the name ends in `.json`,
    /// TOML otherwise.
    #[cfg(feature = "serde")]
    pub fn from_file(path: impl AsRef<std::path::Path>) -> Result<Stack, Error> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|e| at("", format!("cannot read {}: {e}", path.display())))?;
        let json = path
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("json"));
        if json {
            Stack::from_json_str(&text)
        } else {
            Stack::from_toml_str(&text)
        }
    }

    /// The description as TOML; [`from_toml_str`](Self::from_toml_str) reads
    /// it back unchanged.
    #[cfg(feature = "serde")]
    pub fn to_toml_string(&self) -> Result<String, Error> {
        toml::to_string(self).map_err(|e| at("", e))
    }

    /// The description as pretty-printed JSON;
    /// [`from_json_str`](Self::from_json_str) reads it back unchanged.
    #[cfg(feature = "serde")]
    pub fn to_json_string(&self) -> Result<String, Error> {
        serde_json::to_string_pretty(self).map_err(|e| at("", e))
    }

    /// Checks everything that does not depend on the dimension: value
    /// ranges, keys that the chosen kinds do not use, and the tiling rules.
    /// [`build`](Self::build) checks the rest (the period's length, the
    /// noise's periodic dimensions, octave periods past 65536).
    pub fn check(&self) -> Result<(), Error> {
        self.plan().map(|_| ())
    }

    /// The cellular options, for a cellular stack; an error naming the key
    /// if another noise has one.
    fn cellular(&self) -> Result<Option<Cellular>, Error> {
        if self.noise != NoiseKind::Cellular {
            let given = [
                ("distance", self.distance.is_some()),
                ("return", self.ret.is_some()),
                ("jitter", self.jitter.is_some()),
            ];
            if let Some((key, _)) = given.iter().find(|g| g.1) {
                return Err(at(
                    *key,
                    format!(
                        "only cellular noise has a {key}, and the noise is {}",
                        self.noise
                    ),
                ));
            }
            return Ok(None);
        }
        let d = Cellular::default();
        let jitter = self.jitter.unwrap_or(d.jitter());
        Cellular::new(
            self.distance.unwrap_or(d.distance),
            self.ret.unwrap_or(d.ret),
            jitter,
        )
        .map(Some)
        .map_err(|_| at("jitter", format!("must be in [0, 1], got {jitter}")))
    }

    fn plan(&self) -> Result<Plan, Error> {
        self.cellular()?;
        if !(self.frequency.is_finite() && self.frequency > 0.0) {
            return Err(at(
                "frequency",
                format!("must be positive and finite, got {}", self.frequency),
            ));
        }
        if let Some(p) = &self.period {
            if p.is_empty() || p.len() > 4 {
                return Err(at(
                    "period",
                    format!(
                        "must have one entry per dimension (1 to 4), got {}",
                        p.len()
                    ),
                ));
            }
            if let Some((a, bad)) = p
                .iter()
                .enumerate()
                .find(|&(_, &v)| v == 0 || v > MAX_PERIOD)
            {
                return Err(at(
                    format!("period[{a}]"),
                    format!("periods must be in 1..={MAX_PERIOD}, got {bad}"),
                ));
            }
        }
        let field = fractal_params(
            self.fractal.as_ref(),
            self.frequency,
            "fractal",
            "frequency",
        )?;
        if self.period.is_some() && field.lacunarity.fract() != 0.0 {
            return Err(at(
                "fractal.lacunarity",
                format!(
                    "a tiled stack needs a whole-number lacunarity, got {}",
                    field.lacunarity
                ),
            ));
        }
        trial(
            &field,
            self.period.as_deref(),
            "fractal",
            "frequency",
            "period",
        )?;
        let warp = match &self.warp {
            None => None,
            Some(w) => Some(self.warp_plan(w)?),
        };
        Ok(Plan { field, warp })
    }

    fn warp_plan(&self, w: &WarpDesc) -> Result<WarpPlan, Error> {
        let frequency = w.frequency.unwrap_or(self.frequency);
        if !(frequency.is_finite() && frequency > 0.0) {
            return Err(at(
                "warp.frequency",
                format!("must be positive and finite, got {frequency}"),
            ));
        }
        if !w.amplitude.is_finite() {
            return Err(at(
                "warp.amplitude",
                format!("must be finite, got {}", w.amplitude),
            ));
        }
        let fractal = fractal_params(
            w.fractal.as_ref(),
            frequency,
            "warp.fractal",
            "warp.frequency",
        )?;
        if w.kind == WarpKind::Progressive && fractal.kind != FractalKind::Fbm {
            return Err(at(
                "warp.fractal.kind",
                format!(
                    "a progressive warp adds one octave's displacement at a time, which is \
                     fbm; {} is only available for single-step warps",
                    fractal.kind
                ),
            ));
        }
        let period = match &self.period {
            None => None,
            Some(p) => {
                if fractal.lacunarity.fract() != 0.0 {
                    return Err(at(
                        "warp.fractal.lacunarity",
                        format!(
                            "a tiled stack needs a whole-number lacunarity, got {}",
                            fractal.lacunarity
                        ),
                    ));
                }
                let mut out = Vec::with_capacity(p.len());
                for (a, &pa) in p.iter().enumerate() {
                    // The tile is pa / frequency input units; the warp noise
                    // must repeat a whole number of its cells over it.
                    let cells = pa as f64 * frequency / self.frequency;
                    let r = cells.round();
                    if !(r >= 1.0 && r <= MAX_PERIOD as f64 && (cells - r).abs() <= 1e-9 * r) {
                        return Err(at(
                            "warp.frequency",
                            format!(
                                "a tiled stack repeats every period / frequency = {} units on \
                                 axis {a}, which is {cells} cells of the warp noise; that must \
                                 be a whole number in 1..={MAX_PERIOD}",
                                pa as f64 / self.frequency
                            ),
                        ));
                    }
                    out.push(r as u32);
                }
                Some(out)
            }
        };
        trial(
            &fractal,
            period.as_deref(),
            "warp.fractal",
            "warp.frequency",
            "warp.fractal.octaves",
        )?;
        Ok(WarpPlan {
            noise: w.noise.unwrap_or(self.noise),
            seed: w.seed.unwrap_or(self.seed),
            params: WarpParams {
                kind: w.kind,
                amplitude: w.amplitude,
                fractal,
            },
            period,
        })
    }

    /// Compiles the stack for `D` dimensions.
    ///
    /// Fails (naming the key) on anything [`check`](Self::check) rejects, a
    /// period whose length is not `D`, a periodic noise kind that cannot tile
    /// in `D` dimensions, or an octave period past 65536.
    pub fn build<const D: usize>(&self) -> Result<Evaluator<D>, Error> {
        let plan = self.plan()?;
        let cellular = self.cellular()?;
        let mut noise = Noise::<D>::new(self.noise, self.seed);
        if let Some(c) = cellular {
            noise = noise.with_cellular(c)?;
        }
        if let Some(p) = &self.period {
            noise = noise
                .with_period(to_array::<D>(p, "period")?)
                .map_err(|e| at("period", e))?;
        }
        let fractal = Fractal::new(noise, plan.field)
            .map_err(|e| rekey(e, "fractal", "frequency", "period"))?;
        let (warp, program) = match plan.warp {
            None => (None, fractal.program().clone()),
            Some(w) => {
                let mut wn = Noise::<D>::new(w.noise, w.seed);
                // A cellular warp takes the stack's cellular options (the
                // defaults if the stack's noise is another).
                if w.noise == NoiseKind::Cellular {
                    wn = wn.with_cellular(cellular.unwrap_or_default())?;
                }
                if let Some(p) = &w.period {
                    wn = wn
                        .with_period(to_array::<D>(p, "period")?)
                        .map_err(|e| at("warp.frequency", e))?;
                }
                let warp = Warp::new(fractal.clone(), wn, w.params)
                    .map_err(|e| rekey(e, "warp", "warp.frequency", "warp.frequency"))?;
                let program = warp.program().clone();
                (Some(warp), program)
            }
        };
        Ok(Evaluator {
            stack: self.clone(),
            fractal,
            warp,
            program,
        })
    }
}

fn to_array<const D: usize>(p: &[u32], key: &str) -> Result<[u32; D], Error> {
    p.try_into().map_err(|_| {
        at(
            key,
            format!("has {} entries, but the stack is built in {D}D", p.len()),
        )
    })
}

#[cfg(feature = "serde")]
fn path_error<E: core::fmt::Display>(e: serde_path_to_error::Error<E>) -> Error {
    let key = e.path().to_string();
    let key = if key == "." { String::new() } else { key };
    at(key, e.into_inner())
}

/// A compiled [`Stack`] in `D` dimensions: its fractal, evaluated at warped
/// coordinates if the stack has a warp.
///
/// Evaluate it like a [`Noise`]; single points and batches return identical
/// bits.
///
/// ```
/// use surflet::Stack;
/// let field = Stack::from_json_str(r#"{ "noise": "value", "warp": { "amplitude": 0.5 } }"#)?.build::<3>()?;
/// let s = field.sample([0.5f32, 1.5, 2.5]);
/// assert!(s.value.abs() <= 1.0);
/// # Ok::<(), surflet::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluator<const D: usize> {
    stack: Stack,
    fractal: Fractal<D>,
    warp: Option<Warp<D>>,
    program: Program<D>,
}

impl<const D: usize> Evaluator<D> {
    /// The description it was compiled from.
    pub fn stack(&self) -> &Stack {
        &self.stack
    }

    /// The fractal (a one-octave fBm if the stack has none).
    pub fn fractal(&self) -> &Fractal<D> {
        &self.fractal
    }

    /// The warp, if any.
    pub fn warp(&self) -> Option<&Warp<D>> {
        self.warp.as_ref()
    }

    /// The tile in input units (`period / frequency`), if the stack tiles.
    pub fn tile(&self) -> Option<[f64; D]> {
        self.fractal.tile()
    }
}

field_methods!(Evaluator);
