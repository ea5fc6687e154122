//! The noise-stack options that `sample` and `render` share: `--config`,
//! the fractal and warp flags, and `--save-config`.
//!
//! Each flag sets one key of a [`Stack`]. The flags for the stack's
//! top-level keys (noise, seed, frequency, period) are the subcommands' own,
//! because `sample` can also name its noise positionally and applies them to
//! the reference ports' options too, so each subcommand passes them in a
//! [`Base`].

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use surflet::{
    CellularDistance, CellularReturn, Error, FractalDesc, FractalKind, Graph, NoiseKind, Stack,
    WarpDesc, WarpKind,
};

use crate::imaging::output::{Staged, check_target};
use crate::look::Look;
use crate::units::parse_seed;

/// Noise-stack flags, flattened into `sample` and `render`.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Noise stack")]
pub struct StackArgs {
    /// Read a config (see `surflet help config`)
    ///
    /// TOML, or JSON if FILE ends in .json. Options given as flags override
    /// its keys (see `surflet help config`).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Save the settings as a config that --config reproduces
    ///
    /// Write everything that decides the output but its size and format to
    /// FILE (TOML, or JSON if it ends in .json); --config FILE reproduces it.
    #[arg(long, value_name = "FILE")]
    pub save_config: Option<PathBuf>,

    /// A config given in memory (by `surflet serve`) instead of --config.
    #[arg(skip)]
    pub doc: Option<Look>,

    /// A noise graph in the expression language, instead of a stack
    ///
    /// For example 'select(fbm(simplex(seed=1), octaves=6),
    /// ridged(perlin(seed=2)), control=perlin(seed=3, frequency=0.25),
    /// falloff=0.1) * 0.8 + 0.1'. Noises, fractals and warps are functions
    /// (simplex(seed=, frequency=, period=[...]), fbm(NOISE, octaves=...),
    /// warp(...)); they combine with + - * /, min, max, abs, pow, clamp,
    /// scale_bias, remap, terrace, curve, select, blend, translate, scale,
    /// rotate, displace and distort. See the library's `graph` module docs.
    /// Replaces every other stack flag.
    #[arg(long, value_name = "EXPR", allow_hyphen_values = true)]
    pub expr: Option<String>,

    /// distance, for cellular noise: euclidean, euclidean-squared,
    /// manhattan, chebyshev or hybrid [default: euclidean].
    #[arg(long, value_name = "D", value_parser = cellular_distance(), hide_possible_values = true)]
    pub distance: Option<CellularDistance>,

    /// return, for cellular noise: f1, f2, f2-f1, f1+f2, f1*f2, f1/f2 or
    /// cell-value [default: f1].
    #[arg(long = "return", value_name = "R", value_parser = cellular_return(), hide_possible_values = true)]
    pub ret: Option<CellularReturn>,

    /// jitter, for cellular noise: how far feature points stray from the
    /// cell centres, in [0, 1] [default: 1].
    #[arg(long, value_name = "J", allow_hyphen_values = true)]
    pub jitter: Option<f64>,

    /// fractal.kind: fbm, ridged, billow, turbulence or hybrid [default:
    /// fbm]. (`-h` shows it without the default: one line.)
    #[arg(
        long,
        value_name = "KIND",
        value_parser = fractal_kind(),
        hide_possible_values = true,
        help = "fractal.kind: fbm, ridged, billow, turbulence or hybrid",
        long_help = "fractal.kind: fbm, ridged, billow, turbulence or hybrid [default: fbm]."
    )]
    pub fractal: Option<FractalKind>,

    /// fractal.octaves, 1..=32 [default: 4].
    #[arg(long, value_name = "N")]
    pub octaves: Option<u32>,

    /// fractal.lacunarity, the frequency ratio between octaves; a whole
    /// number when tiling [default: 2].
    #[arg(
        long,
        value_name = "L",
        allow_hyphen_values = true,
        hide_short_help = true
    )]
    pub lacunarity: Option<f64>,

    /// fractal.gain, the amplitude ratio between octaves [default: 0.5].
    #[arg(
        long,
        value_name = "G",
        allow_hyphen_values = true,
        hide_short_help = true
    )]
    pub gain: Option<f64>,

    /// fractal.amplitude, octave 0's amplitude [default: 1].
    #[arg(
        long,
        value_name = "A",
        allow_hyphen_values = true,
        hide_short_help = true
    )]
    pub amplitude: Option<f64>,

    /// fractal.offset, for ridged and hybrid [default: 1 ridged, 0.7
    /// hybrid].
    #[arg(
        long,
        value_name = "O",
        allow_hyphen_values = true,
        hide_short_help = true
    )]
    pub offset: Option<f64>,

    /// fractal.weight, for ridged [default: 2].
    #[arg(
        long,
        value_name = "W",
        allow_hyphen_values = true,
        hide_short_help = true
    )]
    pub weight: Option<f64>,

    /// fractal.normalize = true: scale into [-1, 1] (the default).
    #[arg(long, overrides_with = "no_normalize", hide_short_help = true)]
    pub normalize: bool,

    /// fractal.normalize = false: keep the raw sum.
    #[arg(long, overrides_with = "normalize", hide_short_help = true)]
    pub no_normalize: bool,

    /// warp.kind: single or progressive [default: single].
    #[arg(long, value_name = "KIND", value_parser = warp_kind(), hide_short_help = true)]
    pub warp: Option<WarpKind>,

    /// warp.amplitude, the largest displacement, in world units [default:
    /// 1]. (`-h` shows it without the default: one line.)
    #[arg(
        long,
        value_name = "A",
        allow_hyphen_values = true,
        help = "warp.amplitude, the largest displacement, in world units",
        long_help = "warp.amplitude, the largest displacement, in world units [default: 1]."
    )]
    pub warp_amplitude: Option<f64>,

    /// warp.frequency, a decimal or a fraction [default: the stack's
    /// frequency].
    #[arg(long, value_name = "F", allow_hyphen_values = true, value_parser = parse_frequency, hide_short_help = true)]
    pub warp_frequency: Option<f64>,

    /// warp.noise [default: the stack's noise].
    #[arg(long, value_name = "KIND", value_parser = noise_kind(), hide_short_help = true)]
    pub warp_noise: Option<NoiseKind>,

    /// warp.seed [default: the stack's seed, salted].
    #[arg(long, value_name = "N", value_parser = parse_seed, hide_short_help = true)]
    pub warp_seed: Option<u64>,

    /// warp.fractal.kind [default: fbm, one octave].
    #[arg(long, value_name = "KIND", value_parser = fractal_kind(), hide_possible_values = true, hide_short_help = true)]
    pub warp_fractal: Option<FractalKind>,

    /// warp.fractal.octaves [default: 1 without [warp.fractal], else 4].
    #[arg(long, value_name = "N", hide_short_help = true)]
    pub warp_octaves: Option<u32>,

    /// warp.fractal.lacunarity [default: 2].
    #[arg(
        long,
        value_name = "L",
        allow_hyphen_values = true,
        hide_short_help = true
    )]
    pub warp_lacunarity: Option<f64>,

    /// warp.fractal.gain [default: 0.5].
    #[arg(
        long,
        value_name = "G",
        allow_hyphen_values = true,
        hide_short_help = true
    )]
    pub warp_gain: Option<f64>,
}

/// A clap parser for one of the library's names, listing them in errors.
fn named<T: Clone + Send + Sync + 'static>(
    names: impl IntoIterator<Item = &'static str>,
    from_name: fn(&str) -> Result<T, Error>,
) -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(names)
        .map(move |s| from_name(&s).expect("clap accepted only listed names"))
}

fn fractal_kind() -> impl TypedValueParser<Value = FractalKind> {
    named(
        FractalKind::ALL.map(FractalKind::name),
        FractalKind::from_name,
    )
}

fn cellular_distance() -> impl TypedValueParser<Value = CellularDistance> {
    named(
        CellularDistance::ALL.map(CellularDistance::name),
        CellularDistance::from_name,
    )
}

fn cellular_return() -> impl TypedValueParser<Value = CellularReturn> {
    named(
        CellularReturn::ALL.map(CellularReturn::name),
        CellularReturn::from_name,
    )
}

fn warp_kind() -> impl TypedValueParser<Value = WarpKind> {
    named(WarpKind::ALL.map(WarpKind::name), WarpKind::from_name)
}

/// Parses a frequency as a decimal or a fraction like `1/64` (rounded once),
/// as `render --frequency` takes it. Range checks are left to the library,
/// whose message names the key.
pub fn parse_frequency(s: &str) -> Result<f64, String> {
    let s = s.trim();
    let number = |v: &str| {
        v.trim()
            .parse::<f64>()
            .map_err(|_| format!("{s:?} is not a number or a fraction like 1/64"))
    };
    match s.split_once('/') {
        Some((n, d)) => Ok(number(n)? / number(d)?),
        None => number(s),
    }
}

/// A parser for the family's noise kinds (for `--noise` and `--warp-noise`).
pub fn noise_kind() -> impl TypedValueParser<Value = NoiseKind> {
    named(NoiseKind::ALL.map(NoiseKind::name), NoiseKind::from_name)
}

/// The stack's top-level keys as a subcommand's own flags give them, each
/// with the flag's name for messages.
#[derive(Clone, Debug, Default)]
pub struct Base<'a> {
    /// `noise`.
    pub noise: Option<(NoiseKind, &'static str)>,
    /// `seed` (always `--seed`).
    pub seed: Option<u64>,
    /// `frequency`.
    pub frequency: Option<(f64, &'static str)>,
    /// `period` (always `--period`).
    pub period: Option<&'a [u32]>,
}

/// A stack built from a config and flags, remembering which flag set which
/// key so that errors can point at what the user typed.
#[derive(Clone, Debug)]
pub struct Resolved {
    /// The stack.
    pub stack: Stack,
    /// The config file as read, if there was one: its version and the
    /// tables beside the stack (`[view]`, `[pixels]`, `[animation]`).
    pub doc: Option<Look>,
    /// A noise graph (from --expr or the config's `[graph]`), which
    /// replaces the stack.
    pub graph: Option<Graph>,
    config: Option<PathBuf>,
    set_by: Vec<(&'static str, &'static str)>,
}

impl StackArgs {
    /// The first stack flag given, for "does not apply" messages; `None`
    /// when the command line describes no stack.
    pub fn first_given(&self) -> Option<&'static str> {
        [
            (self.config.is_some(), "--config"),
            (self.save_config.is_some(), "--save-config"),
            (self.expr.is_some(), "--expr"),
            (self.distance.is_some(), "--distance"),
            (self.ret.is_some(), "--return"),
            (self.jitter.is_some(), "--jitter"),
            (self.fractal.is_some(), "--fractal"),
            (self.octaves.is_some(), "--octaves"),
            (self.lacunarity.is_some(), "--lacunarity"),
            (self.gain.is_some(), "--gain"),
            (self.amplitude.is_some(), "--amplitude"),
            (self.offset.is_some(), "--offset"),
            (self.weight.is_some(), "--weight"),
            (self.normalize, "--normalize"),
            (self.no_normalize, "--no-normalize"),
            (self.warp.is_some(), "--warp"),
            (self.warp_amplitude.is_some(), "--warp-amplitude"),
            (self.warp_frequency.is_some(), "--warp-frequency"),
            (self.warp_noise.is_some(), "--warp-noise"),
            (self.warp_seed.is_some(), "--warp-seed"),
            (self.warp_fractal.is_some(), "--warp-fractal"),
            (self.warp_octaves.is_some(), "--warp-octaves"),
            (self.warp_lacunarity.is_some(), "--warp-lacunarity"),
            (self.warp_gain.is_some(), "--warp-gain"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }

    fn normalize_flag(&self) -> Option<bool> {
        // clap keeps only the last of the pair.
        match (self.normalize, self.no_normalize) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        }
    }

    /// The config (or the default stack) with `base` and the flags applied,
    /// checked by the library. Errors are usage errors.
    pub fn resolve(&self, base: &Base<'_>) -> Result<Resolved, String> {
        let doc = match &self.doc {
            Some(doc) => Some(doc.clone()),
            None => self
                .config
                .as_deref()
                .map(|p| Look::read(p).map_err(|e| e.to_string()))
                .transpose()?,
        };
        let mut r = Resolved {
            stack: doc
                .as_ref()
                .map_or_else(Stack::default, |d| d.stack.clone()),
            graph: doc.as_ref().and_then(|d| d.graph.clone()),
            doc,
            config: self.config.clone(),
            set_by: Vec::new(),
        };
        if let Some(text) = &self.expr {
            r.graph = Some(Graph::parse(text).map_err(|e| format!("--expr: {e}"))?);
        }
        if r.graph.is_some() {
            // A graph holds its own stacks: no stack flag has a place.
            let base_flag = [
                (base.noise.is_some(), base.noise.map_or("", |n| n.1)),
                (base.seed.is_some(), "--seed"),
                (base.frequency.is_some(), base.frequency.map_or("", |f| f.1)),
                (base.period.is_some(), "--period"),
            ]
            .into_iter()
            .find_map(|(given, flag)| given.then_some(flag));
            let own = StackArgs {
                config: None,
                save_config: None,
                doc: None,
                expr: None,
                ..self.clone()
            }
            .first_given();
            if let Some(flag) = base_flag.or(own) {
                let from = if self.expr.is_some() {
                    "--expr"
                } else {
                    "the config's [graph]"
                };
                return Err(format!(
                    "{flag} does not apply with {from}: a graph's stacks take their options as arguments, e.g. fbm(simplex(seed=1), octaves=6)"
                ));
            }
            return Ok(r);
        }
        let s = &mut r.stack;
        let set_by = &mut r.set_by;
        let mut note = |key: &'static str, flag: &'static str| set_by.push((key, flag));

        if let Some((noise, flag)) = base.noise {
            // Otherwise switching a cellular config to another noise on the
            // command line would fail on keys the user cannot remove there.
            if noise != NoiseKind::Cellular {
                s.distance = None;
                s.ret = None;
                s.jitter = None;
            }
            s.noise = noise;
            note("noise", flag);
        }
        if let Some(d) = self.distance {
            s.distance = Some(d);
            note("distance", "--distance");
        }
        if let Some(r) = self.ret {
            s.ret = Some(r);
            note("return", "--return");
        }
        if let Some(j) = self.jitter {
            s.jitter = Some(j);
            note("jitter", "--jitter");
        }
        if let Some(seed) = base.seed {
            s.seed = seed;
            note("seed", "--seed");
        }
        if let Some((f, flag)) = base.frequency {
            s.frequency = f;
            note("frequency", flag);
        }
        if let Some(p) = base.period {
            s.period = Some(p.to_vec());
            note("period", "--period");
        }

        let fractal_given = [
            self.fractal.is_some(),
            self.octaves.is_some(),
            self.lacunarity.is_some(),
            self.gain.is_some(),
            self.amplitude.is_some(),
            self.offset.is_some(),
            self.weight.is_some(),
            self.normalize_flag().is_some(),
        ]
        .contains(&true);
        if fractal_given {
            let f = s.fractal.get_or_insert_with(FractalDesc::default);
            if let Some(kind) = self.fractal {
                // Otherwise switching a ridged config to fbm on the command
                // line would fail on a key the user cannot remove there.
                if !kind.uses_offset() && self.offset.is_none() {
                    f.offset = None;
                }
                if !kind.uses_weight() && self.weight.is_none() {
                    f.weight = None;
                }
                f.kind = kind;
                note("fractal.kind", "--fractal");
            }
            set(
                &mut f.octaves,
                self.octaves,
                "fractal.octaves",
                "--octaves",
                &mut note,
            );
            set(
                &mut f.lacunarity,
                self.lacunarity,
                "fractal.lacunarity",
                "--lacunarity",
                &mut note,
            );
            set(&mut f.gain, self.gain, "fractal.gain", "--gain", &mut note);
            set(
                &mut f.amplitude,
                self.amplitude,
                "fractal.amplitude",
                "--amplitude",
                &mut note,
            );
            if let Some(o) = self.offset {
                f.offset = Some(o);
                note("fractal.offset", "--offset");
            }
            if let Some(w) = self.weight {
                f.weight = Some(w);
                note("fractal.weight", "--weight");
            }
            if let Some(n) = self.normalize_flag() {
                f.normalize = n;
                note(
                    "fractal.normalize",
                    if n { "--normalize" } else { "--no-normalize" },
                );
            }
        }

        let warp_fractal_given = [
            self.warp_fractal.is_some(),
            self.warp_octaves.is_some(),
            self.warp_lacunarity.is_some(),
            self.warp_gain.is_some(),
        ]
        .contains(&true);
        let warp_given = warp_fractal_given
            || [
                self.warp.is_some(),
                self.warp_amplitude.is_some(),
                self.warp_frequency.is_some(),
                self.warp_noise.is_some(),
                self.warp_seed.is_some(),
            ]
            .contains(&true);
        if warp_given {
            let w = s.warp.get_or_insert_with(WarpDesc::default);
            set(&mut w.kind, self.warp, "warp.kind", "--warp", &mut note);
            set(
                &mut w.amplitude,
                self.warp_amplitude,
                "warp.amplitude",
                "--warp-amplitude",
                &mut note,
            );
            if let Some(f) = self.warp_frequency {
                w.frequency = Some(f);
                note("warp.frequency", "--warp-frequency");
            }
            if let Some(n) = self.warp_noise {
                w.noise = Some(n);
                note("warp.noise", "--warp-noise");
            }
            if let Some(seed) = self.warp_seed {
                w.seed = Some(seed);
                note("warp.seed", "--warp-seed");
            }
            if warp_fractal_given {
                let f = w.fractal.get_or_insert_with(FractalDesc::default);
                if let Some(kind) = self.warp_fractal {
                    if !kind.uses_offset() {
                        f.offset = None;
                    }
                    if !kind.uses_weight() {
                        f.weight = None;
                    }
                    f.kind = kind;
                    note("warp.fractal.kind", "--warp-fractal");
                }
                set(
                    &mut f.octaves,
                    self.warp_octaves,
                    "warp.fractal.octaves",
                    "--warp-octaves",
                    &mut note,
                );
                set(
                    &mut f.lacunarity,
                    self.warp_lacunarity,
                    "warp.fractal.lacunarity",
                    "--warp-lacunarity",
                    &mut note,
                );
                set(
                    &mut f.gain,
                    self.warp_gain,
                    "warp.fractal.gain",
                    "--warp-gain",
                    &mut note,
                );
            }
        }

        r.stack.check().map_err(|e| r.explain(&e))?;
        Ok(r)
    }
}

/// Sets `slot` to `value` if given, noting which flag set `key`.
fn set<T>(
    slot: &mut T,
    value: Option<T>,
    key: &'static str,
    flag: &'static str,
    note: &mut impl FnMut(&'static str, &'static str),
) {
    if let Some(v) = value {
        *slot = v;
        note(key, flag);
    }
}

impl Resolved {
    /// The library's message, saying where the key at fault came from: the
    /// flag that set it, or else the config file.
    pub fn explain(&self, e: &Error) -> String {
        let message = e.to_string();
        let message = message.trim_end();
        if let Error::Config { key, .. } = e {
            let flag = self.set_by.iter().find_map(|&(k, flag)| {
                let hit = key == k
                    || key
                        .strip_prefix(k)
                        .is_some_and(|rest| rest.starts_with(['[', '.']));
                hit.then_some(flag)
            });
            if let Some(flag) = flag {
                return format!("{message} (set by {flag})");
            }
            if let Some(path) = &self.config {
                return format!("{}: {message}", path.display());
            }
        }
        message.to_string()
    }

    /// Where the stack's period came from, for messages.
    pub fn period_source(&self) -> &'static str {
        if self.set_by.iter().any(|&(k, _)| k == "period") {
            "--period"
        } else {
            "the config's period"
        }
    }
}

/// A config written to a hidden temporary file beside its target, renamed into
/// place by [`commit`](Self::commit); dropped uncommitted, it leaves nothing.
pub struct StagedConfig {
    staged: Staged,
    overwrite: bool,
}

impl StagedConfig {
    /// Checks that `path` may be written (an existing file only with
    /// `overwrite`) and writes `look` beside it. Errors are runtime errors.
    pub fn new(path: &Path, look: &Look, overwrite: bool) -> Result<StagedConfig, String> {
        check_target(path, overwrite)?;
        let text = look
            .to_text_for(path)
            .map_err(|e| format!("cannot write the config to {}: {e}", path.display()))?;
        let staged = Staged::new(path)?;
        let mut file = staged.file();
        file.write_all(text.as_bytes())
            .map_err(|e| format!("writing {}: {e}", path.display()))?;
        Ok(StagedConfig { staged, overwrite })
    }

    /// Moves the file into place.
    pub fn commit(self) -> Result<(), String> {
        self.staged.commit(self.overwrite)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frequencies_take_fractions() {
        assert_eq!(parse_frequency("1/64"), Ok(0.015625));
        assert_eq!(parse_frequency(" 0.5 "), Ok(0.5));
        // Out-of-range values pass, for the library to name the key.
        assert_eq!(parse_frequency("-2"), Ok(-2.0));
        assert!(parse_frequency("1/x").is_err());
        assert!(parse_frequency("fast").is_err());
    }

    #[test]
    fn keys_set_by_flags_are_named_in_errors() {
        let args = StackArgs {
            octaves: Some(0),
            ..StackArgs::default()
        };
        assert_eq!(args.first_given(), Some("--octaves"));
        assert_eq!(StackArgs::default().first_given(), None);
        let e = args.resolve(&Base::default()).unwrap_err();
        assert_eq!(
            e,
            "fractal.octaves: must be in 1..=32, got 0 (set by --octaves)"
        );
        let e = StackArgs::default()
            .resolve(&Base {
                period: Some(&[4, 0]),
                ..Base::default()
            })
            .unwrap_err();
        assert!(
            e.starts_with("period[1]: ") && e.ends_with("(set by --period)"),
            "{e}"
        );
    }
}
