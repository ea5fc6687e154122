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
#[cfg(feature = "serve")]
use serde_json::json;
use surflet::stack::keys::{self, KeyType};
use surflet::{
    CellularDistance, CellularReturn, Error, FractalKind, Graph, NoiseKind, Stack, WarpKind,
};

use crate::document::Document;
use crate::imaging::output::{Staged, check_target};
use crate::names::NoiseName;
use crate::units::{parse_period, parse_seed};

/// A value a stack flag gives, as its parser made it: a value of the
/// library's key, or a reference port, which `--noise` names in `sample`
/// and `analyze` as their NAME does, but no stack can hold.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A value of the key.
    Key(keys::Value),
    /// A reference port.
    Port(NoiseName),
}

impl Value {
    /// How many axes a per-axis value (periods, an offset) gives, one
    /// entry each; `None` for every other value.
    pub fn axes(&self) -> Option<usize> {
        match self {
            Value::Key(keys::Value::Periods(p)) => Some(p.len()),
            Value::Key(keys::Value::Offsets(o)) => Some(o.len()),
            _ => None,
        }
    }

    /// The value as the flag takes it on a command line; `None` for a
    /// switch.
    #[cfg(feature = "serve")]
    pub fn text(&self) -> Option<String> {
        let joined = |v: Vec<String>| v.join(",");
        Some(match self {
            Value::Port(n) => n.name().to_string(),
            Value::Key(v) => match v {
                keys::Value::Noise(k) => k.name().to_string(),
                keys::Value::Seed(s) => s.to_string(),
                keys::Value::Number(x) => x.to_string(),
                keys::Value::Count(n) => n.to_string(),
                keys::Value::Periods(p) => joined(p.iter().map(u32::to_string).collect()),
                keys::Value::Offsets(o) => joined(o.iter().map(f64::to_string).collect()),
                keys::Value::Fractal(k) => k.name().to_string(),
                keys::Value::Warp(k) => k.name().to_string(),
                keys::Value::Distance(d) => d.name().to_string(),
                keys::Value::Return(r) => r.name().to_string(),
                keys::Value::Bool(_) => return None,
            },
        })
    }
}

/// How a flag's text becomes a [`Value`]: by its key's type, but for
/// `--noise`, which takes a reference port too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parse {
    /// A noise kind's or a reference port's name.
    Name,
    /// A decimal or a fraction ([`parse_frequency`]): a positive number.
    Frequency,
    /// A value of this type, as its text reads.
    Typed(KeyType),
    /// No value: the flag alone sets a switch.
    Switch(bool),
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
    /// The control's starting value, where the key's default is another
    /// key's (the library's default otherwise).
    pub start: Option<f64>,
}

impl Control {
    /// A control choosing among the key's names.
    const fn choice(label: &'static str) -> Control {
        Control::range(label, 0.0, 0.0)
    }

    /// A control over `min..=max`.
    const fn range(label: &'static str, min: f64, max: f64) -> Control {
        Control {
            label,
            min,
            max,
            log: false,
            when: None,
            start: None,
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

    /// The control starting at `v`.
    const fn start(self, v: f64) -> Control {
        Control {
            start: Some(v),
            ..self
        }
    }
}

/// A stack key's flag: its spelling and where the help shows it. What the
/// key is (its type, range, default, documentation, how it is read and
/// written) is the library's row ([`surflet::stack::keys`]).
// `control` (the page) serves `surflet serve` only.
#[cfg_attr(not(feature = "serve"), allow(dead_code))]
pub struct Key {
    /// The flag, with its dashes (`--octaves`).
    pub flag: &'static str,
    /// Its short form, if it has one.
    pub short: Option<char>,
    /// The key in a config (`fractal.octaves`): the library's row.
    pub key: &'static str,
    /// The value's name in the help; empty for a switch.
    pub value_name: &'static str,
    /// The one-line help (`-h`), where the flag says more than its key's
    /// documentation (`{path}, {doc} [default: {default}].`); `{kinds}`
    /// stands for the library's list of noise kinds.
    pub help: Option<&'static str>,
    /// The help of `--help`, where it says more than `help`.
    pub long_help: Option<&'static str>,
    /// Whether `-h` shows the flag.
    pub brief: bool,
    /// For a switch of a true-or-false key, the value it sets.
    pub switch: Option<bool>,
    /// The page's control for the key, if it has one.
    pub control: Option<Control>,
}

impl Key {
    /// The flag without its dashes: its clap id and long name.
    pub fn long(&self) -> &'static str {
        &self.flag[2..]
    }

    /// The library's row of the key.
    pub fn row(&self) -> &'static keys::Key {
        keys::find(self.key).expect("every flag's key is a library key")
    }

    /// How the flag's text reads.
    pub fn parse(&self) -> Parse {
        match (self.switch, self.row().ty) {
            (Some(v), _) => Parse::Switch(v),
            (None, KeyType::Noise) if self.key == "noise" => Parse::Name,
            (None, KeyType::Positive) => Parse::Frequency,
            (None, ty) => Parse::Typed(ty),
        }
    }

    /// The value a command line gives to reproduce `stack`'s key, or
    /// `None` where the flag can be left out: the key is absent or at its
    /// default. A table's kind is given whenever the table is there (it
    /// makes the table), a switch when the key has its value.
    #[cfg(feature = "serve")]
    pub fn get(&self, stack: &Stack) -> Option<Value> {
        let row = self.row();
        let v = if row.name() == "kind" {
            (row.get)(stack)
        } else {
            row.given(stack)
        }?;
        match self.switch {
            Some(on) => (v == keys::Value::Bool(on)).then_some(Value::Key(v)),
            None => Some(Value::Key(v)),
        }
    }

    /// Sets the key on a stack from a config, as a command line overrides
    /// it: a noise other than cellular drops a config's cellular keys, and
    /// a fractal kind the offset or weight it does not use (which the user
    /// cannot remove from there; a flag for them, given too, sets them
    /// again, as the table puts them after the kind).
    pub fn set(&self, stack: &mut Stack, v: &Value) {
        let Value::Key(v) = v else {
            unreachable!("a stack key is given a reference port");
        };
        let row = self.row();
        (row.set)(stack, v.clone());
        if let keys::Value::Noise(k) = v
            && self.key == "noise"
            && *k != NoiseKind::Cellular
        {
            stack.distance = None;
            stack.ret = None;
            stack.jitter = None;
        }
        if let keys::Value::Fractal(kind) = v {
            let f = match row.table() {
                "fractal" => stack.fractal.as_mut(),
                _ => stack.warp.as_mut().and_then(|w| w.fractal.as_mut()),
            };
            if let Some(f) = f {
                if !kind.uses_offset() {
                    f.offset = None;
                }
                if !kind.uses_weight() {
                    f.weight = None;
                }
            }
        }
    }

    /// The one-line help.
    fn help(&self) -> String {
        match self.help {
            Some(h) => fill(h),
            None => {
                let row = self.row();
                let range = match row.ty {
                    KeyType::Octaves => format!(", 1..={}", surflet::MAX_OCTAVES),
                    _ => String::new(),
                };
                format!(
                    "{}, {}{range}{} [default: {}].",
                    row.path,
                    row.doc,
                    choices(row.ty).map_or(String::new(), |c| format!(": {c}")),
                    row.default_text
                )
            }
        }
    }

    /// The config table the key is in, and so the page's group: `noise`
    /// for the stack's top-level keys.
    #[cfg(feature = "serve")]
    pub fn group(&self) -> &'static str {
        match self.row().table() {
            "" => "noise",
            t => t.split('.').next().unwrap_or(t),
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
        help: Some("The noise kind [default: simplex]"),
        long_help: Some(
            "The noise kind [default: simplex]\n\n{kinds} [default: simplex, or the config's]; in \
             sample and analyze also a reference port (see `surflet sample --help`). Where the \
             subcommand takes a NAME, -n NAME is the same as NAME.",
        ),
        brief: true,
        switch: None,
        control: Some(Control::choice("noise")),
    },
    Key {
        flag: "--seed",
        short: Some('s'),
        key: "seed",
        value_name: "N",
        help: Some("The seed [default: 0]"),
        long_help: Some(
            "The seed [default: 0]\n\nAny integer from -2^63 to 2^64-1; a negative seed -k is the \
             seed 2^64-k (see `surflet help stacks`). Also the Java long seed of \
             opensimplex2-java and opensimplex2s-java [default: 0, or the config's].",
        ),
        brief: true,
        switch: None,
        control: Some(Control::range("seed", 0.0, PAGE_INT_MAX)),
    },
    Key {
        flag: "--frequency",
        short: None,
        key: "frequency",
        value_name: "F",
        help: Some("Lattice cells per world unit [default: 1]"),
        long_help: Some(
            "Lattice cells per world unit [default: 1]\n\nA decimal or a fraction: the noise \
             sees world coordinates times F, reference ports included (see `surflet help \
             coordinates`) [default: 1, or the config's].",
        ),
        brief: true,
        switch: None,
        control: Some(Control::range("frequency", 0.0625, 16.0).log()),
    },
    Key {
        flag: "--period",
        short: None,
        key: "period",
        value_name: "P,P,...",
        help: Some("Make the noise tile, with these periods in lattice cells"),
        long_help: Some(
            "Make the noise tile, with these periods in lattice cells\n\nPeriods in lattice \
             cells (1..=65536), one per axis; their number fixes D. A stack repeats every \
             period/frequency world units; render, unless --scale is given, makes one period \
             span the image, which then tiles seamlessly.",
        ),
        brief: true,
        switch: None,
        control: Some(Control::range(
            "period (cells, x and y)",
            1.0,
            surflet::MAX_PERIOD as f64,
        )),
    },
    Key {
        // `--offset` is the ridged and hybrid fractal's offset.
        flag: "--domain-offset",
        short: None,
        key: "offset",
        value_name: "X,Y,...",
        help: Some("Move the noise by these lattice cells, one per axis"),
        long_help: Some(
            "Move the noise by these lattice cells, one per axis\n\nThe config's `offset`: \
             decimals, one per axis of the stack. The noise at a world point is the unmoved \
             noise at point + offset/frequency, fractal octaves and warp included; a whole \
             number of periods gives the same tile. Moves layers or tiles without changing \
             the seed.",
        ),
        brief: false,
        switch: None,
        // No control on the page, which drops the offset of a config it
        // loads, as it drops every key it has no control for.
        control: None,
    },
    flag(
        "--distance",
        "distance",
        "D",
        Some(Control::choice("distance").when("noise", &["cellular"])),
    ),
    flag(
        "--return",
        "return",
        "R",
        Some(Control::choice("return").when("noise", &["cellular"])),
    ),
    flag(
        "--jitter",
        "jitter",
        "J",
        Some(Control::range("jitter", 0.0, 1.0).when("noise", &["cellular"])),
    ),
    flag(
        "--fractal",
        "fractal.kind",
        "KIND",
        Some(Control::choice("fractal")),
    ),
    flag(
        "--octaves",
        "fractal.octaves",
        "N",
        Some(Control::range("octaves", 1.0, 32.0)),
    ),
    flag(
        "--lacunarity",
        "fractal.lacunarity",
        "L",
        Some(Control::range("lacunarity", 1.0, 4.0)),
    ),
    flag(
        "--gain",
        "fractal.gain",
        "G",
        Some(Control::range("gain", 0.0, 1.0)),
    ),
    flag("--amplitude", "fractal.amplitude", "A", None),
    flag(
        "--offset",
        "fractal.offset",
        "O",
        Some(
            Control::range("offset", 0.0, 2.0)
                .when("fractal.kind", &["ridged", "hybrid"])
                .start(1.0),
        ),
    ),
    flag(
        "--weight",
        "fractal.weight",
        "W",
        Some(
            Control::range("weight", 0.0, 4.0)
                .when("fractal.kind", &["ridged"])
                .start(2.0),
        ),
    ),
    flag(
        "--rotation",
        "fractal.rotation",
        "RAD",
        Some(Control::range("rotation", 0.0, core::f64::consts::PI)),
    ),
    switch(
        "--normalize",
        "fractal.normalize",
        true,
        "fractal.normalize = true: scale into [-1, 1] (the default).",
    ),
    switch(
        "--no-normalize",
        "fractal.normalize",
        false,
        "fractal.normalize = false: keep the raw sum.",
    ),
    flag("--warp", "warp.kind", "KIND", Some(Control::choice("warp"))),
    flag(
        "--warp-amplitude",
        "warp.amplitude",
        "A",
        Some(Control::range("warp amplitude", 0.0, 4.0)),
    ),
    flag(
        "--warp-frequency",
        "warp.frequency",
        "F",
        Some(
            Control::range("warp frequency", 0.0625, 16.0)
                .log()
                .start(1.0),
        ),
    ),
    flag("--warp-noise", "warp.noise", "KIND", None),
    flag(
        "--warp-seed",
        "warp.seed",
        "N",
        Some(Control::range("warp seed", 0.0, PAGE_INT_MAX).start(1.0)),
    ),
    flag("--warp-fractal", "warp.fractal.kind", "KIND", None),
    flag("--warp-octaves", "warp.fractal.octaves", "N", None),
    flag("--warp-lacunarity", "warp.fractal.lacunarity", "L", None),
    flag("--warp-gain", "warp.fractal.gain", "G", None),
    flag("--warp-rotation", "warp.fractal.rotation", "RAD", None),
];

/// A flag for `key` whose help is the key's documentation.
const fn flag(
    flag: &'static str,
    key: &'static str,
    value_name: &'static str,
    control: Option<Control>,
) -> Key {
    Key {
        flag,
        short: None,
        key,
        value_name,
        help: None,
        long_help: None,
        brief: false,
        switch: None,
        control,
    }
}

/// A flag that sets the true-or-false `key` to `on`.
const fn switch(flag: &'static str, key: &'static str, on: bool, help: &'static str) -> Key {
    Key {
        flag,
        short: None,
        key,
        value_name: "",
        help: Some(help),
        long_help: None,
        brief: false,
        switch: Some(on),
        control: None,
    }
}

/// `a, b, c or d`.
fn listing(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The library's noise kinds, as help lists them: `value, perlin, ... or
/// cellular`.
pub fn kinds() -> String {
    listing(&NoiseKind::ALL.map(NoiseKind::name))
}

/// The names a key of type `ty` takes, as help lists them.
fn choices(ty: KeyType) -> Option<String> {
    Some(match ty {
        KeyType::Noise => kinds(),
        KeyType::Fractal => listing(&FractalKind::ALL.map(FractalKind::name)),
        KeyType::Warp => listing(&WarpKind::ALL.map(WarpKind::name)),
        KeyType::Distance => listing(&CellularDistance::ALL.map(CellularDistance::name)),
        KeyType::Return => listing(&CellularReturn::ALL.map(CellularReturn::name)),
        _ => return None,
    })
}

/// The names `ty` takes, for a parser and the page.
fn names(ty: KeyType) -> Vec<&'static str> {
    match ty {
        KeyType::Noise => NoiseKind::ALL.map(NoiseKind::name).to_vec(),
        KeyType::Fractal => FractalKind::ALL.map(FractalKind::name).to_vec(),
        KeyType::Warp => WarpKind::ALL.map(WarpKind::name).to_vec(),
        KeyType::Distance => CellularDistance::ALL.map(CellularDistance::name).to_vec(),
        KeyType::Return => CellularReturn::ALL.map(CellularReturn::name).to_vec(),
        _ => Vec::new(),
    }
}

/// `text` with the list of noise kinds filled in from the library.
fn fill(text: &str) -> String {
    text.replace("{kinds}", &kinds())
}

/// The value of a name of `ty` (which the parser has checked is listed).
fn named(ty: KeyType, s: &str) -> keys::Value {
    const LISTED: &str = "clap accepted only listed names";
    match ty {
        KeyType::Noise => keys::Value::Noise(NoiseKind::from_name(s).expect(LISTED)),
        KeyType::Fractal => keys::Value::Fractal(FractalKind::from_name(s).expect(LISTED)),
        KeyType::Warp => keys::Value::Warp(WarpKind::from_name(s).expect(LISTED)),
        KeyType::Distance => keys::Value::Distance(CellularDistance::from_name(s).expect(LISTED)),
        _ => keys::Value::Return(CellularReturn::from_name(s).expect(LISTED)),
    }
}

impl Parse {
    /// The clap parser of the flag's value.
    fn parser(self) -> ValueParser {
        let number = |s: &str| {
            s.parse::<f64>()
                .map(|x| Value::Key(keys::Value::Number(x)))
                .map_err(|e| e.to_string())
        };
        match self {
            Parse::Name => ValueParser::new(
                PossibleValuesParser::new(NoiseName::ALL.map(NoiseName::name)).map(|s| {
                    let name = NoiseName::ALL
                        .into_iter()
                        .find(|n| n.name() == s)
                        .expect("clap accepted only listed names");
                    match name.family() {
                        Some(k) => Value::Key(keys::Value::Noise(k)),
                        None => Value::Port(name),
                    }
                }),
            ),
            Parse::Frequency => ValueParser::new(|s: &str| {
                parse_frequency(s).map(|x| Value::Key(keys::Value::Number(x)))
            }),
            Parse::Typed(
                ty @ (KeyType::Noise
                | KeyType::Fractal
                | KeyType::Warp
                | KeyType::Distance
                | KeyType::Return),
            ) => ValueParser::new(
                PossibleValuesParser::new(names(ty)).map(move |s| Value::Key(named(ty, &s))),
            ),
            Parse::Typed(KeyType::Seed) => {
                ValueParser::new(|s: &str| parse_seed(s).map(|v| Value::Key(keys::Value::Seed(v))))
            }
            Parse::Typed(KeyType::Octaves) => ValueParser::new(
                clap::value_parser!(u32).map(|n| Value::Key(keys::Value::Count(n))),
            ),
            Parse::Typed(KeyType::Periods) => ValueParser::new(parse_period),
            Parse::Typed(KeyType::Offsets) => ValueParser::new(|s: &str| {
                s.trim().parse::<f64>().map_err(|_| {
                    format!("{s:?} is not a number (--domain-offset takes X,Y,... in cells)")
                })
            }),
            Parse::Typed(_) => ValueParser::new(number),
            Parse::Switch(_) => ValueParser::bool(),
        }
    }
}

impl Key {
    /// The clap argument.
    fn arg(&self) -> Arg {
        let help = self.help();
        let mut arg = Arg::new(self.long())
            .long(self.long())
            .long_help(self.long_help.map_or_else(|| help.clone(), fill))
            .help(help)
            .help_heading(self.heading())
            .hide_short_help(!self.brief);
        if let Some(c) = self.short {
            arg = arg.short(c);
        }
        if let Parse::Switch(_) = self.parse() {
            // --normalize and --no-normalize: the last one given wins.
            let others: Vec<&str> = KEYS
                .iter()
                .filter(|k| k.key == self.key && k.flag != self.flag)
                .map(|k| k.long())
                .collect();
            return arg.action(ArgAction::SetTrue).overrides_with_all(others);
        }
        arg = arg
            .value_name(self.value_name)
            .value_parser(self.parse().parser())
            .hide_possible_values(true);
        match self.parse() {
            Parse::Typed(KeyType::Periods) => arg.value_delimiter(','),
            Parse::Typed(KeyType::Offsets) => arg.value_delimiter(',').allow_hyphen_values(true),
            Parse::Frequency | Parse::Typed(KeyType::Seed | KeyType::Finite | KeyType::Unit) => {
                arg.allow_hyphen_values(true)
            }
            _ => arg,
        }
    }

    /// The value `matches` holds for the flag, if it was given.
    fn given(&self, matches: &ArgMatches) -> Option<Value> {
        match self.parse() {
            Parse::Switch(on) => matches
                .get_flag(self.long())
                .then_some(Value::Key(keys::Value::Bool(on))),
            Parse::Typed(KeyType::Periods) => matches
                .get_many::<u32>(self.long())
                .map(|p| Value::Key(keys::Value::Periods(p.copied().collect()))),
            Parse::Typed(KeyType::Offsets) => matches
                .get_many::<f64>(self.long())
                .map(|o| Value::Key(keys::Value::Offsets(o.copied().collect()))),
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
        if let Some(v) = key.get(stack) {
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
            let row = key.row();
            let kind = match row.ty {
                KeyType::Noise
                | KeyType::Fractal
                | KeyType::Warp
                | KeyType::Distance
                | KeyType::Return => "choice",
                KeyType::Seed | KeyType::Octaves => "int",
                KeyType::Periods => "period",
                KeyType::Offsets => "offset",
                KeyType::Positive | KeyType::Finite | KeyType::Unit | KeyType::Bool => "number",
            };
            let default = match (&row.default, c.start) {
                (_, Some(v)) if kind == "int" => json!(v as u64),
                (_, Some(v)) => json!(v),
                (Some(v), None) => json_of(v),
                (None, None) => serde_json::Value::Null,
            };
            let mut p = json!({
                "path": key.key, "group": key.group(), "label": c.label, "type": kind,
                "default": default,
            });
            if kind == "choice" {
                p["choices"] = json!(names(row.ty));
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

/// A key's value as JSON, as a config writes it.
#[cfg(feature = "serve")]
fn json_of(v: &keys::Value) -> serde_json::Value {
    match v {
        keys::Value::Noise(k) => json!(k.name()),
        keys::Value::Seed(s) => json!(s),
        keys::Value::Number(x) => json!(x),
        keys::Value::Count(n) => json!(n),
        keys::Value::Periods(p) => json!(p),
        keys::Value::Offsets(o) => json!(o),
        keys::Value::Fractal(k) => json!(k.name()),
        keys::Value::Warp(k) => json!(k.name()),
        keys::Value::Distance(d) => json!(d.name()),
        keys::Value::Return(r) => json!(r.name()),
        keys::Value::Bool(b) => json!(b),
    }
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
            Value::Key(keys::Value::Noise(k)) => Some(NoiseName::of_kind(*k)),
            Value::Port(n) => Some(*n),
            _ => None,
        }
    }

    /// `--seed`.
    pub fn seed(&self) -> Option<u64> {
        match self.value("seed")? {
            Value::Key(keys::Value::Seed(s)) => Some(*s),
            _ => None,
        }
    }

    /// `--frequency`.
    #[cfg(feature = "plots")]
    pub fn frequency(&self) -> Option<f64> {
        match self.value("frequency")? {
            Value::Key(keys::Value::Number(x)) => Some(*x),
            _ => None,
        }
    }

    /// `--period`.
    pub fn period(&self) -> Option<&[u32]> {
        match self.value("period")? {
            Value::Key(keys::Value::Periods(p)) => Some(p),
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
        let name_key =
            name.map(|(kind, label)| (&KEYS[0], Value::Key(keys::Value::Noise(kind)), label));
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
            key.set(&mut r.stack, &value);
            r.set_by.push((key.key, flag));
        }
        r.stack.check().map_err(|e| r.explain(&e))?;
        Ok(r)
    }
}

impl Resolved {
    /// The description as sampled on pixels `scale` world units apart:
    /// every stack (graph leaves included) antialiased if `antialias`
    /// (`--antialias`, a view's `antialias = true`), and each antialiased
    /// stack that states no footprint given the pixel's larger side.
    pub fn at_pixel(&self, scale: [crate::units::Ratio; 2], antialias: bool) -> Resolved {
        let mut r = self.clone();
        let pixel = scale[0].value().max(scale[1].value());
        if antialias {
            r.stack.antialias = true;
        }
        r.stack.resolve_footprint(pixel);
        if let Some(g) = &mut r.graph {
            if antialias {
                g.antialias_all();
            }
            g.resolve_footprint(pixel);
        }
        r
    }

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
                let len = Value::Key((k.row().get)(&self.stack)?).axes()?;
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
    /// `overwrite`) and writes `doc` beside it. Errors are runtime errors.
    pub fn new(path: &Path, doc: &Document, overwrite: bool) -> Result<StagedConfig, String> {
        check_target(path, overwrite)?;
        let text = doc
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
            assert!(!key.help().contains('{'), "{}", key.flag);
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
        // A turned fractal does not tile, so the rotations go in a second
        // stack, without the period.
        let turned = text
            .replace("period = [4, 4]\n", "")
            .replace("weight = 1.5\n", "weight = 1.5\nrotation = 0.5\n")
            + "rotation = -1.5\n";
        let mut all = Vec::new();
        for text in [text.to_string(), turned] {
            let stack = Stack::from_toml_str(&text).unwrap();
            let words = command_line(&stack);
            all.extend(words.iter().cloned());
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            assert_eq!(parse(&words).resolve(None).unwrap().stack, stack);
        }
        for key in KEYS.iter().filter(|k| k.flag != "--normalize") {
            assert!(all.iter().any(|w| w == key.flag), "{} missing", key.flag);
        }
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
