//! [`FractalKind`], the fractal formulas by name. It lives below both
//! [`fractal`](crate::fractal) (parameters, bounds, tiling) and the compiled
//! program that evaluates the formulas, so that neither imports the other.

use crate::error::Error;
use crate::prelude_internal::*;
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// The fractal formulas (see the [module documentation](crate::fractal) for
/// each one's formula and bound).
///
/// ```
/// use surflet::FractalKind;
/// assert_eq!(FractalKind::from_name("ridged")?, FractalKind::Ridged);
/// assert_eq!(FractalKind::Hybrid.name(), "hybrid");
/// # Ok::<(), surflet::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum FractalKind {
    /// Fractional Brownian motion: `Σ aᵢ nᵢ`.
    #[default]
    Fbm,
    /// Musgrave's ridged multifractal: squared ridges `(offset − |n|)²`, each
    /// octave weighted by the previous one.
    Ridged,
    /// Billowy fBm: `Σ aᵢ (2|nᵢ| − 1)`.
    Billow,
    /// Perlin's turbulence: `Σ aᵢ |nᵢ|`.
    Turbulence,
    /// Musgrave's hybrid multifractal: smooth valleys, rough peaks.
    Hybrid,
}

impl FractalKind {
    /// All kinds, in documentation order.
    pub const ALL: [FractalKind; 5] = [
        FractalKind::Fbm,
        FractalKind::Ridged,
        FractalKind::Billow,
        FractalKind::Turbulence,
        FractalKind::Hybrid,
    ];

    /// The name used on the command line and in configs.
    pub const fn name(self) -> &'static str {
        match self {
            FractalKind::Fbm => "fbm",
            FractalKind::Ridged => "ridged",
            FractalKind::Billow => "billow",
            FractalKind::Turbulence => "turbulence",
            FractalKind::Hybrid => "hybrid",
        }
    }

    /// Parses a name produced by [`name`](Self::name).
    pub fn from_name(name: &str) -> Result<FractalKind, Error> {
        FractalKind::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| Error::UnknownName {
                what: "fractal",
                name: name.to_string(),
                expected: FractalKind::ALL.map(|k| k.name()).join(", "),
            })
    }

    /// Whether the formula uses [`FractalParams::offset`](crate::FractalParams::offset).
    pub const fn uses_offset(self) -> bool {
        matches!(self, FractalKind::Ridged | FractalKind::Hybrid)
    }

    /// Whether the formula uses [`FractalParams::weight`](crate::FractalParams::weight).
    pub const fn uses_weight(self) -> bool {
        matches!(self, FractalKind::Ridged)
    }

    /// The default offset: 1 for ridged (libnoise), 0.7 for hybrid
    /// (Musgrave), 0 (unused) otherwise.
    pub const fn default_offset(self) -> f64 {
        match self {
            FractalKind::Ridged => 1.0,
            FractalKind::Hybrid => 0.7,
            _ => 0.0,
        }
    }

    /// The default weight: 2 for ridged (libnoise), 0 (unused) otherwise.
    pub const fn default_weight(self) -> f64 {
        match self {
            FractalKind::Ridged => 2.0,
            _ => 0.0,
        }
    }
}

impl core::fmt::Display for FractalKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
