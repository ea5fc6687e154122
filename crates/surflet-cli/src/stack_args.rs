//! The noise-stack options that `sample`, `render`, `analyze` and `bench`
//! share, from one table.
//!
//! Each flag sets one key of a [`Stack`]. [`KEYS`] holds, for every such
//! key, its flag, its config key, its help and how it reads, writes and
//! describes the key; the clap arguments ([`StackArgs`]'s `Args`), the
//! application of flags over a config ([`StackArgs::resolve`]), the command
//! line that reproduces a stack ([`command_line`]) and the server's
//! parameter catalogue ([`catalogue`]) are all made from it, so a key added
//! or renamed there is added or renamed everywhere.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser, ValueParser};
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use serde_json::json;
use surflet::{
    Cellular, CellularDistance, CellularReturn, Error, FractalDesc, FractalKind, Graph, NoiseKind,
    Stack, WarpDesc, WarpKind,
};

use crate::imaging::output::{Staged, check_target};
use crate::look::Document;
use crate::names::NoiseName;
use crate::units::{parse_period, parse_seed};

/// A value a stack flag gives, as its parser made it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A noise kind.
    Noise(NoiseKind),
    /// A reference port, which `--noise` names in `sample` and `analyze`
    /// as their NAME does, but no stack can hold.
    Port(NoiseName),
    /// A seed.
    Seed(u64),
    /// A real number (frequencies included).
    Number(f64),
    /// A whole number.
    Count(u32),
    /// Periods, one per axis.
    Period(Vec<u32>),
    /// A domain offset, in lattice cells, one per axis.
    Offset(Vec<f64>),
    /// A fractal kind.
    Fractal(FractalKind),
    /// A warp kind.
    Warp(WarpKind),
    /// A cellular distance.
    Distance(CellularDistance),
    /// A cellular return.
    Return(CellularReturn),
    /// A flag without a value, given.
    Switch,
}

impl Value {
    /// How many axes a per-axis value (periods, an offset) gives, one
    /// entry each; `None` for every other value.
    pub fn axes(&self) -> Option<usize> {
        match self {
            Value::Period(p) => Some(p.len()),
            Value::Offset(o) => Some(o.len()),
            _ => None,
        }
    }

    /// The value as the flag takes it on a command line; `None` for a
    /// switch.
    #[cfg(feature = "serve")]
    pub fn text(&self) -> Option<String> {
        Some(match self {
            Value::Noise(k) => k.name().to_string(),
            Value::Port(n) => n.name().to_string(),
            Value::Seed(s) => s.to_string(),
            Value::Number(x) => x.to_string(),
            Value::Count(n) => n.to_string(),
            Value::Period(p) => p.iter().map(u32::to_string).collect::<Vec<_>>().join(","),
            Value::Offset(o) => o.iter().map(f64::to_string).collect::<Vec<_>>().join(","),
            Value::Fractal(k) => k.name().to_string(),
            Value::Warp(k) => k.name().to_string(),
            Value::Distance(d) => d.name().to_string(),
            Value::Return(r) => r.name().to_string(),
            Value::Switch => return None,
        })
    }
}

/// `Value`'s accessors, one per variant that holds a `Copy` value.
///
/// The table pairs each setter with the parser that makes its type, so a
/// mismatch is a bug in the table, which the tests over every entry would
/// hit.
macro_rules! accessors {
    ($($name:ident: $variant:ident -> $t:ty),* $(,)?) => {
        impl Value {
            $(
                fn $name(&self) -> $t {
                    match self {
                        Value::$variant(v) => *v,
                        v => unreachable!("{} key given {v:?}", stringify!($name)),
                    }
                }
            )*
        }
    };
}

accessors! {
    number: Number -> f64,
    count: Count -> u32,
    seed: Seed -> u64,
    noise: Noise -> NoiseKind,
    fractal: Fractal -> FractalKind,
    warp: Warp -> WarpKind,
    distance: Distance -> CellularDistance,
    ret: Return -> CellularReturn,
}

/// How a flag's text becomes a [`Value`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parse {
    /// A noise kind's name.
    Noise,
    /// A noise kind's or a reference port's name.
    Name,
    /// A seed ([`parse_seed`]).
    Seed,
    /// A decimal or a fraction ([`parse_frequency`]).
    Frequency,
    /// A decimal.
    Number,
    /// A whole number.
    Count,
    /// Comma-separated periods.
    Period,
    /// Comma-separated decimals.
    Offset,
    /// A fractal kind's name.
    Fractal,
    /// A warp kind's name.
    Warp,
    /// A cellular distance's name.
    Distance,
    /// A cellular return's name.
    Return,
    /// No value: the flag alone.
    Switch,
}

/// Where the page of `surflet serve` offers a key, and how.
// The page's controls are read by `surflet serve` only; the table
// describes them in every build, so that a key has one entry.
#[cfg_attr(not(feature = "serve"), allow(dead_code))]
#[derive(Clone, Copy, Debug)]
pub struct Control {
    /// The control's label.
    pub label: &'static str,
    /// The smallest value the control offers.
    pub min: f64,
    /// The largest value the control offers.
    pub max: f64,
    /// Whether the control is logarithmic.
    pub log: bool,
    /// The key and the values of it for which the control applies.
    pub when: Option<(&'static str, &'static [&'static str])>,
    /// The control's starting value, the library's default.
    pub default: fn() -> serde_json::Value,
}

impl Control {
    /// A control choosing among the key's names.
    const fn choice(label: &'static str, default: fn() -> serde_json::Value) -> Control {
        Control::range(label, 0.0, 0.0, default)
    }

    /// A control over `min..=max`.
    const fn range(
        label: &'static str,
        min: f64,
        max: f64,
        default: fn() -> serde_json::Value,
    ) -> Control {
        Control {
            label,
            min,
            max,
            log: false,
            when: None,
            default,
        }
    }

    /// The control on a logarithmic scale.
    const fn log(self) -> Control {
        Control { log: true, ..self }
    }

    /// The control applying only while `key` is one of `values`.
    const fn when(self, key: &'static str, values: &'static [&'static str]) -> Control {
        Control {
            when: Some((key, values)),
            ..self
        }
    }
}

/// One stack key and its flag.
// `get` (the export's command line) and `control` (the page) serve
// `surflet serve` only.
#[cfg_attr(not(feature = "serve"), allow(dead_code))]
pub struct Key {
    /// The flag, with its dashes (`--octaves`).
    pub flag: &'static str,
    /// Its short form, if it has one.
    pub short: Option<char>,
    /// The key in a config (`fractal.octaves`).
    pub key: &'static str,
    /// The value's name in the help; empty for a switch.
    pub value_name: &'static str,
    /// The one-line help (`-h`); `{kinds}`, `{fractals}`, `{warps}`,
    /// `{distances}` and `{returns}` stand for the library's lists of names.
    pub help: &'static str,
    /// The help of `--help`, where it says more than `help`.
    pub long_help: Option<&'static str>,
    /// Whether `-h` shows the flag.
    pub brief: bool,
    /// How the flag's text is read.
    pub parse: Parse,
    /// The value a command line gives to reproduce `stack`'s key, or
    /// `None` where the flag can be left out (the key is absent, or has
    /// the default that the flags before it give).
    pub get: fn(&Stack) -> Option<Value>,
    /// Sets the key (creating its table).
    pub set: fn(&mut Stack, &Value),
    /// The page's control for the key, if it has one.
    pub control: Option<Control>,
}

impl Key {
    /// The flag without its dashes: its clap id and long name.
    pub fn long(&self) -> &'static str {
        &self.flag[2..]
    }

    /// The config table the key is in, and so the page's group: `noise`
    /// for the stack's top-level keys.
    #[cfg(feature = "serve")]
    pub fn group(&self) -> &'static str {
        match self.key.split_once('.') {
            Some((table, _)) => table,
            None => "noise",
        }
    }

    /// The key's help heading: the top-level keys every noise has, or the
    /// stack's other keys.
    fn heading(&self) -> &'static str {
        match self.key {
            "noise" | "seed" | "frequency" | "period" | "offset" => "Noise",
            _ => "Noise stack",
        }
    }
}

fn fractal(s: &mut Stack) -> &mut FractalDesc {
    s.fractal.get_or_insert_with(FractalDesc::default)
}

fn warp(s: &mut Stack) -> &mut WarpDesc {
    s.warp.get_or_insert_with(WarpDesc::default)
}

fn warp_fractal(s: &mut Stack) -> &mut FractalDesc {
    warp(s).fractal.get_or_insert_with(FractalDesc::default)
}

/// `v` where it differs from `default`: keys a command line leaves at the
/// default need no flag.
fn unless(v: f64, default: f64) -> Option<Value> {
    (v != default).then_some(Value::Number(v))
}

/// The key `kind` switches to: a config's offset or weight that the new
/// kind does not use is dropped, since the command line cannot remove it.
/// A flag for the key given too sets it again afterwards (the table puts
/// `--offset` and `--weight` after `--fractal`).
fn set_fractal_kind(f: &mut FractalDesc, kind: FractalKind) {
    if !kind.uses_offset() {
        f.offset = None;
    }
    if !kind.uses_weight() {
        f.weight = None;
    }
    f.kind = kind;
}

/// The largest integer a page's number control holds exactly (2^53 - 1).
const PAGE_INT_MAX: f64 = 9_007_199_254_740_991.0;

/// Every stack key with a flag, in the order the help lists them and the
/// flags are applied (a kind before the keys that depend on it).
pub static KEYS: &[Key] = &[
    Key {
        flag: "--noise",
        short: Some('n'),
        key: "noise",
        value_name: "KIND",
        help: "The noise kind [default: simplex]",
        long_help: Some(
            "The noise kind [default: simplex]\n\n{kinds} [default: simplex, or the config's]; in \
             sample and analyze also a reference port (see `surflet sample --help`). Where the \
             subcommand takes a NAME, -n NAME is the same as NAME.",
        ),
        brief: true,
        parse: Parse::Name,
        get: |s| Some(Value::Noise(s.noise)),
        set: |s, v| {
            let noise = v.noise();
            // Otherwise switching a cellular config to another noise on the
            // command line would fail on keys the user cannot remove there.
            if noise != NoiseKind::Cellular {
                s.distance = None;
                s.ret = None;
                s.jitter = None;
            }
            s.noise = noise;
        },
        control: Some(Control::choice("noise", || {
            json!(Stack::default().noise.name())
        })),
    },
    Key {
        flag: "--seed",
        short: Some('s'),
        key: "seed",
        value_name: "N",
        help: "The seed [default: 0]",
        long_help: Some(
            "The seed [default: 0]\n\nAny integer from -2^63 to 2^64-1; a negative seed -k is the \
             seed 2^64-k (see `surflet help stacks`). Also the Java long seed of \
             opensimplex2-java and opensimplex2s-java [default: 0, or the config's].",
        ),
        brief: true,
        parse: Parse::Seed,
        get: |s| Some(Value::Seed(s.seed)),
        set: |s, v| s.seed = v.seed(),
        control: Some(Control::range("seed", 0.0, PAGE_INT_MAX, || {
            json!(Stack::default().seed)
        })),
    },
    Key {
        flag: "--frequency",
        short: None,
        key: "frequency",
        value_name: "F",
        help: "Lattice cells per world unit [default: 1]",
        long_help: Some(
            "Lattice cells per world unit [default: 1]\n\nA decimal or a fraction: the noise \
             sees world coordinates times F, reference ports included (see `surflet help \
             coordinates`) [default: 1, or the config's].",
        ),
        brief: true,
        parse: Parse::Frequency,
        get: |s| unless(s.frequency, Stack::default().frequency),
        set: |s, v| s.frequency = v.number(),
        control: Some(
            Control::range("frequency", 0.0625, 16.0, || {
                json!(Stack::default().frequency)
            })
            .log(),
        ),
    },
    Key {
        flag: "--period",
        short: None,
        key: "period",
        value_name: "P,P,...",
        help: "Make the noise tile, with these periods in lattice cells",
        long_help: Some(
            "Make the noise tile, with these periods in lattice cells\n\nPeriods in lattice \
             cells (1..=65536), one per axis; their number fixes D. A stack repeats every \
             period/frequency world units; render, unless --scale is given, makes one period \
             span the image, which then tiles seamlessly.",
        ),
        brief: true,
        parse: Parse::Period,
        get: |s| s.period.clone().map(Value::Period),
        set: |s, v| match v {
            Value::Period(p) => s.period = Some(p.clone()),
            v => unreachable!("a period key given {v:?}"),
        },
        control: Some(Control::range(
            "period (cells, x and y)",
            1.0,
            surflet::MAX_PERIOD as f64,
            || serde_json::Value::Null,
        )),
    },
    Key {
        // `--offset` is the ridged and hybrid fractal's offset.
        flag: "--domain-offset",
        short: None,
        key: "offset",
        value_name: "X,Y,...",
        help: "Move the noise by these lattice cells, one per axis",
        long_help: Some(
            "Move the noise by these lattice cells, one per axis\n\nThe config's `offset`: \
             decimals, one per axis of the stack. The noise at a world point is the unmoved \
             noise at point + offset/frequency, fractal octaves and warp included; a whole \
             number of periods gives the same tile. Moves layers or tiles without changing \
             the seed.",
        ),
        brief: false,
        parse: Parse::Offset,
        get: |s| s.offset.clone().map(Value::Offset),
        set: |s, v| match v {
            Value::Offset(o) => s.offset = Some(o.clone()),
            v => unreachable!("an offset key given {v:?}"),
        },
        // No control on the page, which drops the offset of a config it
        // loads, as it drops every key it has no control for.
        control: None,
    },
    Key {
        flag: "--distance",
        short: None,
        key: "distance",
        value_name: "D",
        help: "distance, for cellular noise: {distances} [default: euclidean].",
        long_help: None,
        brief: true,
        parse: Parse::Distance,
        get: |s| s.distance.map(Value::Distance),
        set: |s, v| s.distance = Some(v.distance()),
        control: Some(
            Control::choice("distance", || json!(Cellular::DEFAULT.distance.name()))
                .when("noise", &["cellular"]),
        ),
    },
    Key {
        flag: "--return",
        short: None,
        key: "return",
        value_name: "R",
        help: "return, for cellular noise: {returns} [default: f1].",
        long_help: None,
        brief: true,
        parse: Parse::Return,
        get: |s| s.ret.map(Value::Return),
        set: |s, v| s.ret = Some(v.ret()),
        control: Some(
            Control::choice("return", || json!(Cellular::DEFAULT.ret.name()))
                .when("noise", &["cellular"]),
        ),
    },
    Key {
        flag: "--jitter",
        short: None,
        key: "jitter",
        value_name: "J",
        help: "jitter, for cellular noise: how far feature points stray from the cell centres, \
               in [0, 1] [default: 1].",
        long_help: None,
        brief: true,
        parse: Parse::Number,
        get: |s| s.jitter.map(Value::Number),
        set: |s, v| s.jitter = Some(v.number()),
        control: Some(
            Control::range("jitter", 0.0, 1.0, || json!(Cellular::DEFAULT.jitter()))
                .when("noise", &["cellular"]),
        ),
    },
    Key {
        flag: "--fractal",
        short: None,
        key: "fractal.kind",
        value_name: "KIND",
        help: "fractal.kind: {fractals}",
        long_help: Some("fractal.kind: {fractals} [default: fbm]."),
        brief: true,
        parse: Parse::Fractal,
        get: |s| s.fractal.as_ref().map(|f| Value::Fractal(f.kind)),
        set: |s, v| set_fractal_kind(fractal(s), v.fractal()),
        control: Some(Control::choice("fractal", || {
            json!(FractalDesc::default().kind.name())
        })),
    },
    Key {
        flag: "--octaves",
        short: None,
        key: "fractal.octaves",
        value_name: "N",
        help: "fractal.octaves, 1..=32 [default: 4].",
        long_help: None,
        brief: true,
        parse: Parse::Count,
        get: |s| s.fractal.as_ref().map(|f| Value::Count(f.octaves)),
        set: |s, v| fractal(s).octaves = v.count(),
        control: Some(Control::range("octaves", 1.0, 32.0, || {
            json!(FractalDesc::default().octaves)
        })),
    },
    Key {
        flag: "--lacunarity",
        short: None,
        key: "fractal.lacunarity",
        value_name: "L",
        help: "fractal.lacunarity, the frequency ratio between octaves; a whole number when \
               tiling [default: 2].",
        long_help: None,
        brief: false,
        parse: Parse::Number,
        get: |s| {
            let f = s.fractal.as_ref()?;
            unless(f.lacunarity, FractalDesc::default().lacunarity)
        },
        set: |s, v| fractal(s).lacunarity = v.number(),
        control: Some(Control::range("lacunarity", 1.0, 4.0, || {
            json!(FractalDesc::default().lacunarity)
        })),
    },
    Key {
        flag: "--gain",
        short: None,
        key: "fractal.gain",
        value_name: "G",
        help: "fractal.gain, the amplitude ratio between octaves [default: 0.5].",
        long_help: None,
        brief: false,
        parse: Parse::Number,
        get: |s| unless(s.fractal.as_ref()?.gain, FractalDesc::default().gain),
        set: |s, v| fractal(s).gain = v.number(),
        control: Some(Control::range("gain", 0.0, 1.0, || {
            json!(FractalDesc::default().gain)
        })),
    },
    Key {
        flag: "--amplitude",
        short: None,
        key: "fractal.amplitude",
        value_name: "A",
        help: "fractal.amplitude, octave 0's amplitude [default: 1].",
        long_help: None,
        brief: false,
        parse: Parse::Number,
        get: |s| {
            let f = s.fractal.as_ref()?;
            unless(f.amplitude, FractalDesc::default().amplitude)
        },
        set: |s, v| fractal(s).amplitude = v.number(),
        control: None,
    },
    Key {
        flag: "--offset",
        short: None,
        key: "fractal.offset",
        value_name: "O",
        help: "fractal.offset, for ridged and hybrid [default: 1 ridged, 0.7 hybrid].",
        long_help: None,
        brief: false,
        parse: Parse::Number,
        get: |s| s.fractal.as_ref()?.offset.map(Value::Number),
        set: |s, v| fractal(s).offset = Some(v.number()),
        control: Some(
            Control::range("offset", 0.0, 2.0, || {
                json!(FractalKind::Ridged.default_offset())
            })
            .when("fractal.kind", &["ridged", "hybrid"]),
        ),
    },
    Key {
        flag: "--weight",
        short: None,
        key: "fractal.weight",
        value_name: "W",
        help: "fractal.weight, for ridged [default: 2].",
        long_help: None,
        brief: false,
        parse: Parse::Number,
        get: |s| s.fractal.as_ref()?.weight.map(Value::Number),
        set: |s, v| fractal(s).weight = Some(v.number()),
        control: Some(
            Control::range("weight", 0.0, 4.0, || {
                json!(FractalKind::Ridged.default_weight())
            })
            .when("fractal.kind", &["ridged"]),
        ),
    },
    Key {
        flag: "--normalize",
        short: None,
        key: "fractal.normalize",
        value_name: "",
        help: "fractal.normalize = true: scale into [-1, 1] (the default).",
        long_help: None,
        brief: false,
        parse: Parse::Switch,
        // The default, which --fractal gives: never needed.
        get: |_| None,
        set: |s, _| fractal(s).normalize = true,
        control: None,
    },
    Key {
        flag: "--no-normalize",
        short: None,
        key: "fractal.normalize",
        value_name: "",
        help: "fractal.normalize = false: keep the raw sum.",
        long_help: None,
        brief: false,
        parse: Parse::Switch,
        get: |s| (!s.fractal.as_ref()?.normalize).then_some(Value::Switch),
        set: |s, _| fractal(s).normalize = false,
        control: None,
    },
    Key {
        flag: "--warp",
        short: None,
        key: "warp.kind",
        value_name: "KIND",
        help: "warp.kind: {warps} [default: single].",
        long_help: None,
        brief: false,
        parse: Parse::Warp,
        get: |s| s.warp.as_ref().map(|w| Value::Warp(w.kind)),
        set: |s, v| warp(s).kind = v.warp(),
        control: Some(Control::choice("warp", || {
            json!(WarpDesc::default().kind.name())
        })),
    },
    Key {
        flag: "--warp-amplitude",
        short: None,
        key: "warp.amplitude",
        value_name: "A",
        help: "warp.amplitude, the largest displacement, in world units",
        long_help: Some("warp.amplitude, the largest displacement, in world units [default: 1]."),
        brief: true,
        parse: Parse::Number,
        get: |s| unless(s.warp.as_ref()?.amplitude, WarpDesc::default().amplitude),
        set: |s, v| warp(s).amplitude = v.number(),
        control: Some(Control::range("warp amplitude", 0.0, 4.0, || {
            json!(WarpDesc::default().amplitude)
        })),
    },
    Key {
        flag: "--warp-frequency",
        short: None,
        key: "warp.frequency",
        value_name: "F",
        help: "warp.frequency, a decimal or a fraction [default: the stack's frequency].",
        long_help: None,
        brief: false,
        parse: Parse::Frequency,
        get: |s| s.warp.as_ref()?.frequency.map(Value::Number),
        set: |s, v| warp(s).frequency = Some(v.number()),
        control: Some(Control::range("warp frequency", 0.0625, 16.0, || json!(1.0)).log()),
    },
    Key {
        flag: "--warp-noise",
        short: None,
        key: "warp.noise",
        value_name: "KIND",
        help: "warp.noise [default: the stack's noise].",
        long_help: None,
        brief: false,
        parse: Parse::Noise,
        get: |s| s.warp.as_ref()?.noise.map(Value::Noise),
        set: |s, v| warp(s).noise = Some(v.noise()),
        control: None,
    },
    Key {
        flag: "--warp-seed",
        short: None,
        key: "warp.seed",
        value_name: "N",
        help: "warp.seed [default: the stack's seed, salted].",
        long_help: None,
        brief: false,
        parse: Parse::Seed,
        get: |s| s.warp.as_ref()?.seed.map(Value::Seed),
        set: |s, v| warp(s).seed = Some(v.seed()),
        control: Some(Control::range("warp seed", 0.0, PAGE_INT_MAX, || json!(1))),
    },
    Key {
        flag: "--warp-fractal",
        short: None,
        key: "warp.fractal.kind",
        value_name: "KIND",
        help: "warp.fractal.kind [default: fbm, one octave].",
        long_help: None,
        brief: false,
        parse: Parse::Fractal,
        get: |s| {
            let f = s.warp.as_ref()?.fractal.as_ref()?;
            Some(Value::Fractal(f.kind))
        },
        set: |s, v| set_fractal_kind(warp_fractal(s), v.fractal()),
        control: None,
    },
    Key {
        flag: "--warp-octaves",
        short: None,
        key: "warp.fractal.octaves",
        value_name: "N",
        help: "warp.fractal.octaves [default: 1 without [warp.fractal], else 4].",
        long_help: None,
        brief: false,
        parse: Parse::Count,
        get: |s| {
            let f = s.warp.as_ref()?.fractal.as_ref()?;
            Some(Value::Count(f.octaves))
        },
        set: |s, v| warp_fractal(s).octaves = v.count(),
        control: None,
    },
    Key {
        flag: "--warp-lacunarity",
        short: None,
        key: "warp.fractal.lacunarity",
        value_name: "L",
        help: "warp.fractal.lacunarity [default: 2].",
        long_help: None,
        brief: false,
        parse: Parse::Number,
        get: |s| {
            let f = s.warp.as_ref()?.fractal.as_ref()?;
            unless(f.lacunarity, FractalDesc::default().lacunarity)
        },
        set: |s, v| warp_fractal(s).lacunarity = v.number(),
        control: None,
    },
    Key {
        flag: "--warp-gain",
        short: None,
        key: "warp.fractal.gain",
        value_name: "G",
        help: "warp.fractal.gain [default: 0.5].",
        long_help: None,
        brief: false,
        parse: Parse::Number,
        get: |s| {
            let f = s.warp.as_ref()?.fractal.as_ref()?;
            unless(f.gain, FractalDesc::default().gain)
        },
        set: |s, v| warp_fractal(s).gain = v.number(),
        control: None,
    },
];

/// `a, b, c or d`.
fn listing(names: &[&str]) -> String {
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The library's noise kinds, as help lists them: `value, perlin, ... or
/// cellular`.
pub fn kinds() -> String {
    listing(&NoiseKind::ALL.map(NoiseKind::name))
}

/// `text` with the lists of names filled in from the library.
fn fill(text: &str) -> String {
    text.replace("{kinds}", &kinds())
        .replace(
            "{fractals}",
            &listing(&FractalKind::ALL.map(FractalKind::name)),
        )
        .replace("{warps}", &listing(&WarpKind::ALL.map(WarpKind::name)))
        .replace(
            "{distances}",
            &listing(&CellularDistance::ALL.map(CellularDistance::name)),
        )
        .replace(
            "{returns}",
            &listing(&CellularReturn::ALL.map(CellularReturn::name)),
        )
}

/// A parser accepting `names`, listing them in errors, and giving `to` of
/// the name.
fn choice<const N: usize>(names: [&'static str; N], to: fn(&str) -> Value) -> ValueParser {
    ValueParser::new(PossibleValuesParser::new(names).map(move |s| to(&s)))
}

impl Parse {
    /// The clap parser of the flag's value.
    fn parser(self) -> ValueParser {
        // The names come from the library's lists, so from_name accepts
        // every name clap lets through.
        const LISTED: &str = "clap accepted only listed names";
        match self {
            Parse::Noise => choice(NoiseKind::ALL.map(NoiseKind::name), |s| {
                Value::Noise(NoiseKind::from_name(s).expect(LISTED))
            }),
            Parse::Name => choice(NoiseName::ALL.map(NoiseName::name), |s| {
                let name = NoiseName::ALL
                    .into_iter()
                    .find(|n| n.name() == s)
                    .expect(LISTED);
                name.family().map_or(Value::Port(name), Value::Noise)
            }),
            Parse::Fractal => choice(FractalKind::ALL.map(FractalKind::name), |s| {
                Value::Fractal(FractalKind::from_name(s).expect(LISTED))
            }),
            Parse::Warp => choice(WarpKind::ALL.map(WarpKind::name), |s| {
                Value::Warp(WarpKind::from_name(s).expect(LISTED))
            }),
            Parse::Distance => choice(CellularDistance::ALL.map(CellularDistance::name), |s| {
                Value::Distance(CellularDistance::from_name(s).expect(LISTED))
            }),
            Parse::Return => choice(CellularReturn::ALL.map(CellularReturn::name), |s| {
                Value::Return(CellularReturn::from_name(s).expect(LISTED))
            }),
            Parse::Seed => ValueParser::new(|s: &str| parse_seed(s).map(Value::Seed)),
            Parse::Frequency => ValueParser::new(|s: &str| parse_frequency(s).map(Value::Number)),
            Parse::Number => ValueParser::new(|s: &str| {
                s.parse::<f64>()
                    .map(Value::Number)
                    .map_err(|e| e.to_string())
            }),
            Parse::Count => ValueParser::new(clap::value_parser!(u32).map(Value::Count)),
            Parse::Period => ValueParser::new(parse_period),
            Parse::Offset => ValueParser::new(|s: &str| {
                s.trim().parse::<f64>().map_err(|_| {
                    format!("{s:?} is not a number (--domain-offset takes X,Y,... in cells)")
                })
            }),
            Parse::Switch => ValueParser::bool(),
        }
    }
}

impl Key {
    /// The clap argument.
    fn arg(&self) -> Arg {
        let help = fill(self.help);
        let mut arg = Arg::new(self.long())
            .long(self.long())
            .long_help(self.long_help.map_or_else(|| help.clone(), fill))
            .help(help)
            .help_heading(self.heading())
            .hide_short_help(!self.brief);
        if let Some(c) = self.short {
            arg = arg.short(c);
        }
        if self.parse == Parse::Switch {
            // --normalize and --no-normalize: the last one given wins.
            let other = if self.flag == "--normalize" {
                "no-normalize"
            } else {
                "normalize"
            };
            return arg.action(ArgAction::SetTrue).overrides_with(other);
        }
        arg = arg
            .value_name(self.value_name)
            .value_parser(self.parse.parser())
            .hide_possible_values(true);
        match self.parse {
            Parse::Period => arg.value_delimiter(','),
            Parse::Offset => arg.value_delimiter(',').allow_hyphen_values(true),
            Parse::Seed | Parse::Frequency | Parse::Number => arg.allow_hyphen_values(true),
            _ => arg,
        }
    }

    /// The value `matches` holds for the flag, if it was given.
    fn given(&self, matches: &ArgMatches) -> Option<Value> {
        match self.parse {
            Parse::Switch => matches.get_flag(self.long()).then_some(Value::Switch),
            Parse::Period => matches
                .get_many::<u32>(self.long())
                .map(|p| Value::Period(p.copied().collect())),
            Parse::Offset => matches
                .get_many::<f64>(self.long())
                .map(|o| Value::Offset(o.copied().collect())),
            _ => matches.get_one::<Value>(self.long()).cloned(),
        }
    }
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

/// A parser for the family's noise kinds (for a positional KIND).
pub fn noise_kind() -> impl TypedValueParser<Value = NoiseKind> {
    listed(
        &NoiseKind::ALL,
        NoiseKind::name,
        |_| None,
        NoiseKind::from_name,
    )
}

/// A clap parser for one of the library's named choices (its list, aliases
/// included), listing the names in errors.
pub fn listed<T: Copy + Send + Sync + 'static>(
    all: &'static [T],
    name: fn(T) -> &'static str,
    alias: fn(T) -> Option<&'static str>,
    from_name: fn(&str) -> Result<T, Error>,
) -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(
        all.iter()
            .map(|&v| PossibleValue::new(name(v)).aliases(alias(v))),
    )
    .map(move |s| from_name(&s).expect("clap accepted only listed names"))
}

/// The noise a subcommand's positional argument `what` (NAME or KIND) and
/// `-n` give, which mean the same: either, or both where they agree; with
/// the argument to name in messages.
pub fn one_noise<T: PartialEq + std::fmt::Display>(
    what: &'static str,
    positional: Option<T>,
    flag: Option<T>,
) -> Result<Option<(T, &'static str)>, String> {
    match (positional, flag) {
        (Some(a), Some(b)) if a != b => Err(format!(
            "{what} {a} and --noise {b} name different noises; give one of them"
        )),
        (Some(a), _) => Ok(Some((a, what))),
        (None, Some(b)) => Ok(Some((b, "--noise"))),
        (None, None) => Ok(None),
    }
}

/// The flags (and values) that reproduce `stack` on a command line.
#[cfg(feature = "serve")]
pub fn command_line(stack: &Stack) -> Vec<String> {
    let mut words = Vec::new();
    for key in KEYS {
        if let Some(v) = (key.get)(stack) {
            words.push(key.flag.to_string());
            words.extend(v.text());
        }
    }
    words
}

/// The page's controls, as `GET /api/noises` lists them: `path` is where
/// the value goes in the config, `when` which choices make it apply.
#[cfg(feature = "serve")]
pub fn catalogue() -> Vec<serde_json::Value> {
    KEYS.iter()
        .filter_map(|key| {
            let c = key.control?;
            let names = |v: &[&str]| json!(v);
            let (kind, choices) = match key.parse {
                // The page draws stacks: the family alone.
                Parse::Noise | Parse::Name => {
                    ("choice", names(&NoiseKind::ALL.map(NoiseKind::name)))
                }
                Parse::Fractal => ("choice", names(&FractalKind::ALL.map(FractalKind::name))),
                Parse::Warp => ("choice", names(&WarpKind::ALL.map(WarpKind::name))),
                Parse::Distance => (
                    "choice",
                    names(&CellularDistance::ALL.map(CellularDistance::name)),
                ),
                Parse::Return => (
                    "choice",
                    names(&CellularReturn::ALL.map(CellularReturn::name)),
                ),
                Parse::Seed | Parse::Count => ("int", serde_json::Value::Null),
                Parse::Period => ("period", serde_json::Value::Null),
                // No control: `control` is None.
                Parse::Offset => ("offset", serde_json::Value::Null),
                Parse::Frequency | Parse::Number | Parse::Switch => {
                    ("number", serde_json::Value::Null)
                }
            };
            let mut p = json!({
                "path": key.key, "group": key.group(), "label": c.label, "type": kind,
                "default": (c.default)(),
            });
            if kind == "choice" {
                p["choices"] = choices;
            } else if kind == "number" {
                p["min"] = json!(c.min);
                p["max"] = json!(c.max);
            } else {
                // Whole numbers, written as such.
                p["min"] = json!(c.min as u64);
                p["max"] = json!(c.max as u64);
            }
            if c.log {
                p["log"] = json!(true);
            }
            if let Some((key, values)) = c.when {
                p["when"] = json!({ key: values });
            }
            Some(p)
        })
        .collect()
}

/// Noise-stack flags, flattened into `sample`, `render`, `analyze` and
/// `bench`: `--config`, `--save-config`, `--expr` and a flag for each of
/// [`KEYS`].
#[derive(Debug, Clone, Default)]
pub struct StackArgs {
    /// `--config`.
    pub config: Option<PathBuf>,
    /// `--save-config`.
    pub save_config: Option<PathBuf>,
    /// A config given in memory (by `surflet serve`) instead of --config.
    pub doc: Option<Document>,
    /// `--expr`: a noise graph, which replaces the stack.
    pub expr: Option<String>,
    /// The stack keys given, in [`KEYS`]' order.
    pub given: Vec<(&'static Key, Value)>,
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.flag)
    }
}

const CONFIG_HELP: &str = "Read a config (see `surflet help config`)";
const CONFIG_LONG_HELP: &str = "Read a config (see `surflet help config`)\n\nTOML, or JSON if \
     FILE ends in .json. Options given as flags override its keys (see `surflet help config`).";
const SAVE_HELP: &str = "Save the settings as a config that --config reproduces";
const SAVE_LONG_HELP: &str = "Save the settings as a config that --config reproduces\n\nWrite \
     everything that decides the output but its size and format to FILE (TOML, or JSON if it \
     ends in .json); --config FILE reproduces it.";
const EXPR_HELP: &str = "A noise graph in the expression language, instead of a stack";
const EXPR_LONG_HELP: &str = "A noise graph in the expression language, instead of a \
     stack\n\nFor example 'select(fbm(simplex(seed=1), octaves=6), ridged(perlin(seed=2)), \
     control=perlin(seed=3, frequency=0.25), falloff=0.1) * 0.8 + 0.1'. Noises, fractals and \
     warps are functions (simplex(seed=, frequency=, period=[...]), fbm(NOISE, octaves=...), \
     warp(...)); they combine with + - * / and the functions that `surflet help graphs` \
     lists. Replaces every other stack flag.";

impl Args for StackArgs {
    fn augment_args(cmd: Command) -> Command {
        let (top, rest): (Vec<&Key>, Vec<&Key>) = KEYS.iter().partition(|k| k.heading() == "Noise");
        let file =
            |id: &'static str, flag: &'static str, help: &'static str, long: &'static str| {
                Arg::new(id)
                    .long(flag)
                    .value_name("FILE")
                    .value_parser(clap::value_parser!(PathBuf))
                    .help(help)
                    .long_help(long)
                    .help_heading("Noise stack")
            };
        cmd.args(top.iter().map(|k| k.arg()))
            .arg(file("config", "config", CONFIG_HELP, CONFIG_LONG_HELP))
            .arg(file(
                "save_config",
                "save-config",
                SAVE_HELP,
                SAVE_LONG_HELP,
            ))
            .arg(
                Arg::new("expr")
                    .long("expr")
                    .value_name("EXPR")
                    .allow_hyphen_values(true)
                    .help(EXPR_HELP)
                    .long_help(EXPR_LONG_HELP)
                    .help_heading("Noise stack"),
            )
            .args(rest.iter().map(|k| k.arg()))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for StackArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        Ok(StackArgs {
            config: matches.get_one::<PathBuf>("config").cloned(),
            save_config: matches.get_one::<PathBuf>("save_config").cloned(),
            doc: None,
            expr: matches.get_one::<String>("expr").cloned(),
            given: KEYS
                .iter()
                .filter_map(|k| Some((k, k.given(matches)?)))
                .collect(),
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = StackArgs {
            doc: self.doc.take(),
            ..StackArgs::from_arg_matches(matches)?
        };
        Ok(())
    }
}

/// A stack built from a config and flags, remembering which flag set which
/// key so that errors can point at what the user typed.
#[derive(Clone, Debug)]
pub struct Resolved {
    /// The stack.
    pub stack: Stack,
    /// The config file as read, if there was one: its version and the
    /// tables beside the stack (`[view]`, `[pixels]`, `[animation]`).
    pub doc: Option<Document>,
    /// A noise graph (from --expr or the config's `[graph]`), which
    /// replaces the stack.
    pub graph: Option<Graph>,
    config: Option<PathBuf>,
    set_by: Vec<(&'static str, &'static str)>,
}

impl StackArgs {
    /// The value given for the config key `key`, if any.
    pub fn value(&self, key: &str) -> Option<&Value> {
        self.given
            .iter()
            .find_map(|(k, v)| (k.key == key).then_some(v))
    }

    /// `--noise`: a family kind or a reference port.
    pub fn noise(&self) -> Option<NoiseName> {
        match self.value("noise")? {
            Value::Noise(k) => Some(NoiseName::of_kind(*k)),
            Value::Port(n) => Some(*n),
            _ => None,
        }
    }

    /// `--seed`.
    pub fn seed(&self) -> Option<u64> {
        self.value("seed").map(Value::seed)
    }

    /// `--frequency`.
    #[cfg(feature = "plots")]
    pub fn frequency(&self) -> Option<f64> {
        self.value("frequency").map(Value::number)
    }

    /// `--period`.
    pub fn period(&self) -> Option<&[u32]> {
        match self.value("period")? {
            Value::Period(p) => Some(p),
            _ => None,
        }
    }

    /// The first stack flag given but those of the config keys in `except`,
    /// for "does not apply" messages; `None` when the command line
    /// describes no stack beyond them.
    pub fn first_given(&self, except: &[&str]) -> Option<&'static str> {
        [
            (self.config.is_some(), "--config"),
            (self.save_config.is_some(), "--save-config"),
            (self.expr.is_some(), "--expr"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
        .or_else(|| {
            self.given
                .iter()
                .find(|(k, _)| !except.contains(&k.key))
                .map(|(k, _)| k.flag)
        })
    }

    /// The config (or the default stack) with the flags applied, checked
    /// by the library; `name` is the noise a subcommand's NAME argument
    /// gave, with how to call it in messages, which replaces --noise (the
    /// subcommand has checked that they agree). Errors are usage errors.
    pub fn resolve(&self, name: Option<(NoiseKind, &'static str)>) -> Result<Resolved, String> {
        let doc = match &self.doc {
            Some(doc) => Some(doc.clone()),
            None => self
                .config
                .as_deref()
                .map(|p| Document::read(p).map_err(|e| e.to_string()))
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
        if name.is_none()
            && let Some(Value::Port(port)) = self.value("noise")
        {
            return Err(format!(
                "--noise {port} is a reference port, which takes no noise stack; a stack's noise \
                 is one of {} (sample and analyze evaluate {port} as NAME)",
                kinds()
            ));
        }
        let name_key = name.map(|(kind, label)| (&KEYS[0], Value::Noise(kind), label));
        debug_assert_eq!(KEYS[0].key, "noise");
        let flags = name_key.into_iter().chain(
            self.given
                .iter()
                .filter(|(k, _)| name.is_none() || k.key != "noise")
                .map(|(k, v)| (*k, v.clone(), k.flag)),
        );
        if r.graph.is_some() {
            // A graph holds its own stacks: no stack flag has a place.
            if let Some((_, _, flag)) = flags.into_iter().next() {
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
        for (key, value, flag) in flags {
            (key.set)(&mut r.stack, &value);
            r.set_by.push((key.key, flag));
        }
        r.stack.check().map_err(|e| r.explain(&e))?;
        Ok(r)
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

    /// The stack's per-axis keys that are given (`period`, `offset`: every
    /// key of [`KEYS`] whose value has [`axes`](Value::axes)), in the
    /// table's order. Each has one entry per axis, so each fixes the
    /// dimension; this is the one list of them that every subcommand reads.
    pub fn axis_keys(&self) -> Vec<AxisKey> {
        KEYS.iter()
            .filter_map(|k| {
                let len = (k.get)(&self.stack)?.axes()?;
                let flag = self.set_by.iter().any(|&(key, _)| key == k.key);
                Some(AxisKey {
                    len,
                    flag: flag.then_some(k.flag),
                    key: k.key,
                })
            })
            .collect()
    }
}

/// A per-axis stack key that is given: how many axes it gives and where
/// it came from, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AxisKey {
    /// Its number of entries, one per axis.
    pub len: usize,
    /// The flag that set it, or `None` if the config did.
    pub flag: Option<&'static str>,
    /// Its config key (`period`).
    pub key: &'static str,
}

impl AxisKey {
    /// Where it came from: its flag, or `the config's KEY`.
    pub fn source(&self) -> String {
        match self.flag {
            Some(flag) => flag.to_string(),
            None => format!("the config's {}", self.key),
        }
    }

    /// What one of its entries stands for, as column messages say it:
    /// `one per --period value` or `one per entry of the config's period`.
    pub fn one_per(&self) -> String {
        match self.flag {
            Some(flag) => format!("one per {flag} value"),
            None => format!("one per entry of the config's {}", self.key),
        }
    }
}

/// The dimension that `--dims` (`dims`), `resolved`'s per-axis keys and
/// `more` (each a dimension and what gives it) agree on, with the first
/// that gave it; `None` if none does. Two that disagree are an error
/// naming both. For the subcommands whose options fix the dimension
/// exactly (bench, shader).
pub fn agreed_dims(
    dims: Option<u8>,
    resolved: &Resolved,
    more: Option<(usize, &str)>,
) -> Result<Option<(usize, String)>, String> {
    let fixes = dims
        .map(|d| (usize::from(d), "--dims".to_string()))
        .into_iter()
        .chain(
            resolved
                .axis_keys()
                .into_iter()
                .map(|k| (k.len, k.source())),
        )
        .chain(more.map(|(n, from)| (n, from.to_string())));
    let mut agreed: Option<(usize, String)> = None;
    for (n, from) in fixes {
        match &agreed {
            Some((d, first)) if *d != n => {
                return Err(format!("{from} gives {n} dimensions but {first} gives {d}"));
            }
            Some(_) => {}
            None => agreed = Some((n, from)),
        }
    }
    Ok(agreed)
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
    pub fn new(path: &Path, look: &Document, overwrite: bool) -> Result<StagedConfig, String> {
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

    fn parse(args: &[&str]) -> StackArgs {
        let cmd = StackArgs::augment_args(Command::new("t").allow_negative_numbers(true));
        let m = cmd
            .try_get_matches_from(std::iter::once("t").chain(args.iter().copied()))
            .unwrap();
        StackArgs::from_arg_matches(&m).unwrap()
    }

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
        let args = parse(&["--octaves", "0"]);
        assert_eq!(args.first_given(&[]), Some("--octaves"));
        assert_eq!(StackArgs::default().first_given(&[]), None);
        let e = args.resolve(None).unwrap_err();
        assert_eq!(
            e,
            "fractal.octaves: must be in 1..=32, got 0 (set by --octaves)"
        );
        let e = parse(&["--period", "4,0"]).resolve(None).unwrap_err();
        assert!(
            e.starts_with("period[1]: ") && e.ends_with("(set by --period)"),
            "{e}"
        );
        let e = parse(&["--distance", "manhattan"])
            .resolve(Some((NoiseKind::Perlin, "NAME")))
            .unwrap_err();
        assert!(e.contains("(set by --distance)"), "{e}");
    }

    /// Every key of the table is a flag, a config key the flag sets, a
    /// word of the command line that reproduces it, and (where the page
    /// has one) a control of the catalogue.
    #[cfg(feature = "serve")]
    #[test]
    fn the_table_drives_flags_keys_commands_and_controls() {
        let mut flags: Vec<&str> = KEYS.iter().map(|k| k.flag).collect();
        flags.sort_unstable();
        flags.dedup();
        assert_eq!(flags.len(), KEYS.len(), "a flag twice in the table");
        let cmd = StackArgs::augment_args(Command::new("t"));
        let catalogue = catalogue();
        for key in KEYS {
            assert!(
                cmd.get_arguments()
                    .any(|a| a.get_long() == Some(key.long())),
                "{}",
                key.flag
            );
            assert!(!fill(key.help).contains('{'), "{}", key.flag);
            if key.control.is_some() {
                assert!(
                    catalogue.iter().any(|c| c["path"] == key.key),
                    "{} is not in the catalogue",
                    key.key
                );
            }
        }
        // A stack with every key away from its default: each flag that
        // writes a value appears in its command line, and the command line
        // parsed and applied gives the stack back.
        let text = "noise = \"cellular\"\nseed = 9\nfrequency = 0.5\nperiod = [4, 4]\n\
                    offset = [0.1, -2.5]\n\
                    distance = \"manhattan\"\nreturn = \"f2\"\njitter = 0.5\n\
                    [fractal]\nkind = \"ridged\"\noctaves = 3\nlacunarity = 3.0\ngain = 0.25\n\
                    amplitude = 0.5\nnormalize = false\noffset = 0.5\nweight = 1.5\n\
                    [warp]\nkind = \"progressive\"\namplitude = 0.5\nfrequency = 0.25\n\
                    noise = \"perlin\"\nseed = 3\n[warp.fractal]\nkind = \"fbm\"\n\
                    octaves = 2\nlacunarity = 3.0\ngain = 0.25\n";
        let stack = Stack::from_toml_str(text).unwrap();
        let words = command_line(&stack);
        for key in KEYS.iter().filter(|k| k.flag != "--normalize") {
            assert!(words.iter().any(|w| w == key.flag), "{} missing", key.flag);
        }
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        assert_eq!(parse(&words).resolve(None).unwrap().stack, stack);
    }

    #[test]
    fn help_lists_every_noise_kind() {
        let noise = KEYS.iter().find(|k| k.flag == "--noise").unwrap();
        let help = fill(noise.long_help.unwrap());
        for kind in NoiseKind::ALL {
            assert!(help.contains(kind.name()), "{kind:?}");
        }
    }
}
