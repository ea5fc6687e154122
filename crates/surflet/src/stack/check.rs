//! Checking a [`Stack`] without a dimension: value ranges, keys that the
//! chosen kinds do not use, and the tiling rules.

use crate::prelude_internal::*;

use super::desc::{FractalDesc, Stack, WarpDesc, at, rekey};
use crate::cellular::Cellular;
use crate::error::Error;
use crate::fractal::{Fractal, FractalKind, FractalParams, ROTATION_TILES};
use crate::noise::{MAX_PERIOD, Noise, NoiseKind};
use crate::warp::{WarpKind, WarpParams};

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
    let p = d.params(frequency);
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
    if period.is_some() && params.rotation != 0.0 {
        return Err(at(format!("{prefix}.rotation"), ROTATION_TILES));
    }
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

/// The largest move [`Stack::offset`] may make in any octave, in that
/// octave's cells: past 2^53 no `f64` coordinate keeps a fraction, and every
/// point would sit on a lattice point. Bounding it also keeps the moved
/// octave offsets far inside the `f32` range, so that a finite point still
/// gives a finite value.
const MAX_SHIFT: f64 = 9_007_199_254_740_992.0;

/// The largest ratio `fᵢ / frequency` over a fractal's octaves, with `fᵢ`
/// computed as [`Fractal::new`] computes it, for the octave where an
/// offset moves furthest.
fn top_ratio(params: &FractalParams, frequency: f64) -> f64 {
    let mut freq = params.frequency;
    let mut top = 0.0f64;
    for _ in 0..params.octaves {
        top = top.max(freq / frequency);
        freq *= params.lacunarity;
    }
    top
}

/// Everything [`Stack::build`] needs, checked without a dimension.
pub(super) struct Plan {
    pub(super) field: FractalParams,
    pub(super) warp: Option<WarpPlan>,
}

pub(super) struct WarpPlan {
    pub(super) noise: NoiseKind,
    pub(super) seed: u64,
    pub(super) params: WarpParams,
    /// The warp noise's period, when the stack tiles.
    pub(super) period: Option<Vec<u32>>,
}

impl Stack {
    /// Checks everything that does not depend on the dimension: value
    /// ranges, keys that the chosen kinds do not use, and the tiling rules.
    /// [`build`](Self::build) checks the rest (that the period's and the
    /// offset's length is the dimension built, octave periods past 65536).
    pub fn check(&self) -> Result<(), Error> {
        self.plan().map(|_| ())
    }

    /// The cellular options, for a cellular stack; an error naming the key
    /// if another noise has one.
    pub(super) fn cellular(&self) -> Result<Option<Cellular>, Error> {
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

    pub(super) fn plan(&self) -> Result<Plan, Error> {
        self.cellular()?;
        if let Some(f) = self.footprint {
            if !self.antialias {
                return Err(at(
                    "footprint",
                    "is the spacing that antialias fades octaves by, and antialias is off: \
                     add antialias = true, or drop the footprint",
                ));
            }
            if !(f.is_finite() && f > 0.0) {
                return Err(at(
                    "footprint",
                    format!("must be positive and finite, got {f}"),
                ));
            }
        }
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
            // The period's length is the dimension the stack tiles in.
            self.noise.check_period(p).map_err(|e| at("period", e))?;
        }
        if let Some(o) = &self.offset {
            if o.is_empty() || o.len() > 4 {
                return Err(at(
                    "offset",
                    format!(
                        "must have one entry per dimension (1 to 4), got {}",
                        o.len()
                    ),
                ));
            }
            if let Some((a, bad)) = o.iter().enumerate().find(|(_, v)| !v.is_finite()) {
                return Err(at(
                    format!("offset[{a}]"),
                    format!("offsets must be finite, got {bad}"),
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
        if let Some(o) = &self.offset {
            let layers = [
                ("fractal", Some(top_ratio(&field, self.frequency))),
                (
                    "warp",
                    warp.as_ref()
                        .map(|w| top_ratio(&w.params.fractal, self.frequency)),
                ),
            ];
            for (a, &v) in o.iter().enumerate() {
                for (layer, ratio) in layers {
                    let cells = ratio.map_or(0.0, |r| (v * r).abs());
                    if cells > MAX_SHIFT {
                        return Err(at(
                            format!("offset[{a}]"),
                            format!(
                                "{v} cells move an octave of the {layer} by {cells} of its \
                                 cells, past 2^53, where no coordinate keeps a fraction; use a \
                                 smaller offset"
                            ),
                        ));
                    }
                }
            }
        }
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
        let noise = w.noise.unwrap_or(self.noise);
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
                // The warp noise tiles with the stack, in as many
                // dimensions.
                noise.check_period(&out).map_err(|e| at("warp.noise", e))?;
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
            noise,
            seed: w.seed.unwrap_or(self.seed),
            params: WarpParams {
                kind: w.kind,
                amplitude: w.amplitude,
                fractal,
            },
            period,
        })
    }
}
