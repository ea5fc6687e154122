//! [`FractalKind`], the fractal formulas by name, and the formulas
//! themselves on lanes ([`add_octave`], [`end_layer`]). It lives below both
//! [`fractal`](crate::fractal) (parameters, bounds, tiling) and the compiled
//! program that evaluates the formulas, so that neither imports the other.

// Lane code walks per-axis arrays in step; index loops read best there.
#![allow(clippy::needless_range_loop)]

use crate::error::Error;
use crate::prelude_internal::*;
use crate::simd::Simd;
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

impl FractalKind {
    /// Whether the kind carries a weight from octave to octave.
    pub(crate) fn weighted(self) -> bool {
        matches!(self, FractalKind::Ridged | FractalKind::Hybrid)
    }
}

/// `+k` where `n > 0`, `-k` where `n < 0`, 0 where `n` is zero (where |n| has
/// no derivative; see the fractal documentation) or NaN.
#[inline(always)]
fn sign<S: Simd>(s: S, n: S::F, k: f64) -> S::F {
    let zero = s.zero();
    s.select(
        s.gt(n, zero),
        s.c(k),
        s.select(s.lt(n, zero), s.c(-k), zero),
    )
}

/// What a fractal layer carries from one octave to the next: the sum and
/// its gradient, and the ridged and hybrid multifractals' weight and its
/// gradient.
pub(crate) struct LayerAcc<S: Simd, const D: usize> {
    pub v: S::F,
    pub g: [S::F; D],
    pub w: S::F,
    pub gw: [S::F; D],
}

impl<S: Simd, const D: usize> LayerAcc<S, D> {
    #[inline(always)]
    pub(crate) fn new(s: S) -> Self {
        LayerAcc {
            v: s.zero(),
            g: [s.zero(); D],
            w: s.c(1.0),
            gw: [s.zero(); D],
        }
    }
}

/// Adds octave `j` of a layer of fractal `kind` (with its ridged and hybrid
/// `offset` and ridged weight gain `weight`) to `acc`: its noise `n` and
/// gradient `gn` at the octave's coordinates, which are the layer's times
/// `freq` (so ∇ₓ n = freq · gn), weighted by `amp` as the fractal kind
/// says.
#[inline(always)]
#[allow(clippy::too_many_arguments, reason = "one octave's whole context")]
pub(crate) fn add_octave<S: Simd, const D: usize>(
    s: S,
    (kind, offset, weight): (FractalKind, f64, f64),
    j: usize,
    freq: S::F,
    amp: S::F,
    n: S::F,
    gn: [S::F; D],
    acc: &mut LayerAcc<S, D>,
) {
    let zero = s.zero();
    let one = s.c(1.0);
    let offset = s.c(offset);
    let wgain = s.c(weight);
    let LayerAcc { v, g, w, gw } = acc;
    let mut dn = [zero; D];
    for a in 0..D {
        dn[a] = s.mul(gn[a], freq);
    }
    let (c, dc) = match kind {
        FractalKind::Fbm => {
            let mut dc = [zero; D];
            for a in 0..D {
                dc[a] = s.mul(amp, dn[a]);
            }
            (s.mul(amp, n), dc)
        }
        FractalKind::Billow => {
            let k = s.mul(amp, sign(s, n, 2.0));
            let mut dc = [zero; D];
            for a in 0..D {
                dc[a] = s.mul(k, dn[a]);
            }
            (s.mul(amp, s.sub(s.mul(s.abs(n), s.c(2.0)), one)), dc)
        }
        FractalKind::Turbulence => {
            let k = s.mul(amp, sign(s, n, 1.0));
            let mut dc = [zero; D];
            for a in 0..D {
                dc[a] = s.mul(k, dn[a]);
            }
            (s.mul(amp, s.abs(n)), dc)
        }
        FractalKind::Ridged => {
            // signal = (offset − |n|)² · w; next w = clamp(signal·G, 0, 1).
            let r = s.sub(offset, s.abs(n));
            let rr = s.mul(r, r);
            let sig = s.mul(rr, *w);
            // ∂signal = 2r·(−sign n)·∂n·w + r²·∂w
            let k = s.mul(s.mul(s.add(r, r), *w), sign(s, n, -1.0));
            let mut dsig = [zero; D];
            for a in 0..D {
                dsig[a] = s.add(s.mul(k, dn[a]), s.mul(rr, gw[a]));
            }
            let mut dc = [zero; D];
            for a in 0..D {
                dc[a] = s.mul(amp, dsig[a]);
            }
            let ws = s.mul(sig, wgain);
            // Saturated clamps pass no derivative.
            let inside = s.m_and(s.gt(ws, zero), s.lt(ws, one));
            *w = s.max(s.min(ws, one), zero);
            for a in 0..D {
                gw[a] = s.keep(inside, s.mul(wgain, dsig[a]));
            }
            (s.mul(amp, sig), dc)
        }
        FractalKind::Hybrid => {
            // signal = (n + offset)·a; octave 0 is the first value and
            // weight; then value += min(w, 1)·signal, w = min(w, 1)·signal.
            let sig = s.mul(s.add(n, offset), amp);
            let mut dsig = [zero; D];
            for a in 0..D {
                dsig[a] = s.mul(dn[a], amp);
            }
            let (c, dc) = if j == 0 {
                (sig, dsig)
            } else {
                let below = s.lt(*w, one);
                let wt = s.min(*w, one);
                let mut dc = [zero; D];
                for a in 0..D {
                    let gwt = s.keep(below, gw[a]);
                    dc[a] = s.add(s.mul(gwt, sig), s.mul(wt, dsig[a]));
                }
                (s.mul(wt, sig), dc)
            };
            *w = c;
            *gw = dc;
            (c, dc)
        }
    };
    // The first octave is assigned, not added to zero, so that a
    // one-octave fBm returns its noise's bits exactly (−0 included).
    if j == 0 {
        *v = c;
        *g = dc;
    } else {
        *v = s.add(*v, c);
        for a in 0..D {
            g[a] = s.add(g[a], dc[a]);
        }
    }
}

/// A layer's value and gradient from its octaves' sum, times `scale`.
#[inline(always)]
pub(crate) fn end_layer<S: Simd, const D: usize>(
    s: S,
    scale: f64,
    acc: LayerAcc<S, D>,
) -> (S::F, [S::F; D]) {
    let scale = s.c(scale);
    let mut g = acc.g;
    for a in 0..D {
        g[a] = s.mul(g[a], scale);
    }
    (s.mul(acc.v, scale), g)
}
