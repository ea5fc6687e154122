//! The one description behind the three spellings: a tree of function calls
//! with positional and named arguments. The expression parser and the
//! TOML/JSON reader produce it; [`to_graph`] checks it against each
//! function's parameters (so both spellings give the same messages), and
//! [`from_graph`] turns a graph back into it for the printers.

// Without `expr` or `serde` part of this is unused.
#![cfg_attr(not(all(feature = "expr", feature = "serde")), allow(dead_code))]

use crate::prelude_internal::*;

use super::{Graph, MAX_DEPTH, Rotation};
use crate::cellular::{CellularDistance, CellularReturn};
use crate::error::Error;
use crate::fractal::FractalKind;
use crate::noise::NoiseKind;
use crate::stack::{FractalDesc, Stack, WarpDesc};
use crate::warp::WarpKind;

/// Where a piece of a description is: a byte span of an expression, or the
/// key path of a config.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum At {
    Span(usize, usize),
    Key(String),
}

/// A value: a number (with its source text, so that seeds stay exact), a
/// word or string, a list, or a call.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Val {
    Num(f64, String),
    Word(String),
    List(Vec<Item>),
    Call(Call),
    /// A stack table of a config (a node without `op`), already read.
    Stack(Box<Stack>),
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Item {
    pub val: Val,
    pub at: At,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Call {
    pub name: String,
    pub args: Vec<Arg>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Arg {
    pub name: Option<String>,
    pub item: Item,
    /// The whole argument, `name=value` (errors about the name point here).
    pub at: At,
}

impl Arg {
    pub(crate) fn new(name: Option<String>, item: Item) -> Arg {
        let at = item.at.clone();
        Arg { name, item, at }
    }
}

/// A description error and where it is.
#[derive(Clone, Debug)]
pub(crate) struct Bad {
    pub at: At,
    pub msg: String,
}

fn bad(at: &At, msg: impl Into<String>) -> Bad {
    Bad {
        at: at.clone(),
        msg: msg.into(),
    }
}

impl Item {
    pub(crate) fn num(v: f64) -> Item {
        Item {
            val: Val::Num(v, format!("{v:?}")),
            at: At::Key(String::new()),
        }
    }
    fn word(w: &str) -> Item {
        Item {
            val: Val::Word(w.to_string()),
            at: At::Key(String::new()),
        }
    }
    fn list(v: Vec<Item>) -> Item {
        Item {
            val: Val::List(v),
            at: At::Key(String::new()),
        }
    }
    fn call(name: &str, args: Vec<Arg>) -> Item {
        Item {
            val: Val::Call(Call {
                name: name.to_string(),
                args,
            }),
            at: At::Key(String::new()),
        }
    }
    fn what(&self) -> &'static str {
        match self.val {
            Val::Num(..) => "a number",
            Val::Word(_) => "a word",
            Val::List(_) => "a list",
            Val::Call(_) => "a call",
            Val::Stack(_) => "a stack",
        }
    }
}

/// The noise functions: every [`NoiseKind`], with `_` for `-`.
fn noise_fn(name: &str) -> Option<NoiseKind> {
    NoiseKind::ALL
        .into_iter()
        .find(|k| k.name().replace('-', "_") == name)
}

const NOISE_PARAMS: &[&str] = &[
    "seed",
    "frequency",
    "period",
    "distance",
    "return",
    "jitter",
];
const FRACTAL_PARAMS: &[&str] = &[
    "input",
    "octaves",
    "lacunarity",
    "gain",
    "amplitude",
    "normalize",
    "offset",
    "weight",
];
const WARP_PARAMS: &[&str] = &[
    "input",
    "amplitude",
    "kind",
    "noise",
    "seed",
    "frequency",
    "fractal",
    "octaves",
    "lacunarity",
    "gain",
    "fractal_amplitude",
    "normalize",
    "offset",
    "weight",
];

/// The combinators: name, parameters (in positional order), and how many
/// the printer writes positionally.
const COMBINATORS: &[(&str, &[&str], usize)] = &[
    ("add", &["a", "b"], 2),
    ("sub", &["a", "b"], 2),
    ("mul", &["a", "b"], 2),
    ("div", &["a", "b"], 2),
    ("min", &["a", "b"], 2),
    ("max", &["a", "b"], 2),
    ("neg", &["input"], 1),
    ("abs", &["input"], 1),
    ("const", &["value"], 1),
    ("pow", &["input", "exponent"], 2),
    ("clamp", &["input", "min", "max"], 3),
    ("scale_bias", &["input", "scale", "bias"], 3),
    ("remap", &["input", "from", "to"], 1),
    ("terrace", &["input", "points", "smooth"], 1),
    ("curve", &["input", "points"], 1),
    ("select", &["a", "b", "control", "threshold", "falloff"], 2),
    ("blend", &["a", "b", "control"], 2),
    ("translate", &["input", "by"], 1),
    ("scale", &["input", "by"], 1),
    ("rotate", &["input", "angle", "matrix"], 1),
    ("displace", &["input", "by"], 1),
    (
        "distort",
        &["input", "power", "frequency", "roughness", "seed"],
        1,
    ),
];

/// Every function name, for "unknown function" messages.
pub(crate) fn function_names() -> String {
    let mut v: Vec<String> = NoiseKind::ALL
        .iter()
        .map(|k| k.name().replace('-', "_"))
        .collect();
    v.extend(FractalKind::ALL.iter().map(|k| k.name().to_string()));
    v.push("warp".into());
    v.extend(COMBINATORS.iter().map(|c| c.0.to_string()));
    v.join(", ")
}

fn params_of(name: &str) -> Option<&'static [&'static str]> {
    if noise_fn(name).is_some() {
        Some(NOISE_PARAMS)
    } else if FractalKind::from_name(name).is_ok() {
        Some(FRACTAL_PARAMS)
    } else if name == "warp" {
        Some(WARP_PARAMS)
    } else {
        COMBINATORS.iter().find(|c| c.0 == name).map(|c| c.1)
    }
}

/// A function's parameters (empty for an unknown name).
pub(crate) fn params_for(name: &str) -> &'static [&'static str] {
    params_of(name).unwrap_or(&[])
}

/// A call's arguments bound to its parameters.
struct Args<'a> {
    name: &'a str,
    at: &'a At,
    params: &'static [&'static str],
    bound: Vec<Option<&'a Item>>,
}

impl<'a> Args<'a> {
    fn bind(call: &'a Call, at: &'a At) -> Result<Args<'a>, Bad> {
        let name = call.name.as_str();
        let params = params_of(name).ok_or_else(|| {
            bad(
                at,
                format!(
                    "unknown function `{name}` (expected one of: {})",
                    function_names()
                ),
            )
        })?;
        let mut bound: Vec<Option<&Item>> = vec![None; params.len()];
        let mut next = 0;
        for arg in &call.args {
            let k = match &arg.name {
                None => {
                    if next >= params.len() {
                        return Err(bad(
                            &arg.at,
                            match params.len() {
                                0 => format!("{name} takes no arguments"),
                                1 => format!("{name} takes at most 1 argument"),
                                n => format!("{name} takes at most {n} arguments"),
                            },
                        ));
                    }
                    next += 1;
                    next - 1
                }
                Some(n) => params.iter().position(|p| p == n).ok_or_else(|| {
                    bad(
                        &arg.at,
                        format!(
                            "{name} has no argument `{n}` (its arguments: {})",
                            params.join(", ")
                        ),
                    )
                })?,
            };
            if bound[k].is_some() {
                return Err(bad(
                    &arg.at,
                    format!("{name}'s argument `{}` is given twice", params[k]),
                ));
            }
            bound[k] = Some(&arg.item);
        }
        Ok(Args {
            name,
            at,
            params,
            bound,
        })
    }

    fn get(&self, p: &str) -> Option<&'a Item> {
        let k = self
            .params
            .iter()
            .position(|q| *q == p)
            .expect("known parameter");
        self.bound[k]
    }

    fn need(&self, p: &str) -> Result<&'a Item, Bad> {
        self.get(p)
            .ok_or_else(|| bad(self.at, format!("{} needs the argument `{p}`", self.name)))
    }

    fn field(&self, p: &str, depth: usize) -> Result<Graph, Bad> {
        to_graph_at(self.need(p)?, depth + 1)
    }

    fn num(&self, p: &str) -> Result<Option<f64>, Bad> {
        self.get(p).map(|i| number(i, self.name, p)).transpose()
    }

    fn num_or(&self, p: &str, d: f64) -> Result<f64, Bad> {
        Ok(self.num(p)?.unwrap_or(d))
    }

    fn word(&self, p: &str) -> Result<Option<(&'a str, &'a At)>, Bad> {
        self.get(p)
            .map(|i| match &i.val {
                Val::Word(w) => Ok((w.as_str(), &i.at)),
                _ => Err(bad(
                    &i.at,
                    format!("{}'s `{p}` is a name, not {}", self.name, i.what()),
                )),
            })
            .transpose()
    }

    fn flag(&self, p: &str) -> Result<Option<bool>, Bad> {
        match self.word(p)? {
            None => Ok(None),
            Some(("true", _)) => Ok(Some(true)),
            Some(("false", _)) => Ok(Some(false)),
            Some((w, at)) => Err(bad(
                at,
                format!("{}'s `{p}` is true or false, not `{w}`", self.name),
            )),
        }
    }

    fn list(&self, p: &str) -> Result<Option<(&'a [Item], &'a At)>, Bad> {
        self.get(p)
            .map(|i| match &i.val {
                Val::List(v) => Ok((&v[..], &i.at)),
                _ => Err(bad(
                    &i.at,
                    format!("{}'s `{p}` is a list [...], not {}", self.name, i.what()),
                )),
            })
            .transpose()
    }

    fn numbers(&self, p: &str) -> Result<Option<Vec<f64>>, Bad> {
        self.list(p)?
            .map(|(v, _)| v.iter().map(|i| number(i, self.name, p)).collect())
            .transpose()
    }

    fn whole(&self, p: &str) -> Result<Option<u64>, Bad> {
        self.get(p).map(|i| whole(i, self.name, p)).transpose()
    }
}

fn number(i: &Item, f: &str, p: &str) -> Result<f64, Bad> {
    match &i.val {
        Val::Num(v, _) if v.is_finite() => Ok(*v),
        Val::Num(v, _) => Err(bad(&i.at, format!("{f}'s `{p}` must be finite, not {v}"))),
        _ => Err(bad(
            &i.at,
            format!("{f}'s `{p}` is a number, not {}", i.what()),
        )),
    }
}

/// A whole number from its text: `0..=2⁶⁴−1`, or a negative `i64` taken
/// as its two's complement (the command line's seed convention).
fn whole(i: &Item, f: &str, p: &str) -> Result<u64, Bad> {
    let msg = || bad(&i.at, format!("{f}'s `{p}` must be a whole number"));
    match &i.val {
        Val::Num(_, text) | Val::Word(text) => text
            .parse::<u64>()
            .or_else(|_| text.parse::<i64>().map(|v| v as u64))
            .map_err(|_| msg()),
        _ => Err(msg()),
    }
}

/// Converts a description tree into a graph.
pub(crate) fn to_graph(item: &Item) -> Result<Graph, Bad> {
    to_graph_at(item, 1)
}

fn to_graph_at(item: &Item, depth: usize) -> Result<Graph, Bad> {
    if depth > MAX_DEPTH {
        return Err(bad(
            &item.at,
            format!("the graph is deeper than {MAX_DEPTH} nodes"),
        ));
    }
    let call = match &item.val {
        Val::Num(v, _) => {
            return if v.is_finite() {
                Ok(Graph::Const(*v))
            } else {
                Err(bad(&item.at, format!("a constant must be finite, not {v}")))
            };
        }
        Val::Call(c) => c,
        // A stack table gets the checks a stack call gets below, so that a
        // config and an expression refuse the same stacks (a fractal whose
        // normalisation divides by 0 was read from a config, and its
        // expression was then refused).
        Val::Stack(s) => {
            return match (s.check(), &item.at) {
                (Ok(()), _) => Ok(Graph::Stack(s.clone())),
                // The stack's key under the table's (`a.fractal.normalize`).
                (Err(Error::Config { key, message }), At::Key(table)) => {
                    let key = if table.is_empty() {
                        key
                    } else {
                        format!("{table}.{key}")
                    };
                    Err(bad(&At::Key(key), message))
                }
                (Err(e), at) => Err(bad(at, e.to_string())),
            };
        }
        _ => {
            return Err(bad(
                &item.at,
                format!(
                    "expected a field (a call or a number), found {}",
                    item.what()
                ),
            ));
        }
    };
    let at = &item.at;
    let name = call.name.as_str();
    let a = Args::bind(call, at)?;
    if noise_fn(name).is_some() || FractalKind::from_name(name).is_ok() || name == "warp" {
        let mut keys = Vec::new();
        let stack = leaf(item, &mut keys, depth)?;
        // The stack's own checks, with the message put on the argument the
        // key names (or the whole leaf).
        if let Err(e) = stack.check() {
            let (key, msg) = match e {
                Error::Config { key, message } => (key, message),
                other => (String::new(), other.to_string()),
            };
            let place = keys
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, at)| at)
                .unwrap_or(at);
            let msg = if key.is_empty() {
                msg
            } else {
                format!("{key}: {msg}")
            };
            return Err(bad(place, msg));
        }
        return Ok(Graph::stack(stack));
    }
    let f = |p: &str| a.field(p, depth);
    let bx = |g: Graph| Box::new(g);
    Ok(match name {
        "add" => Graph::Add(bx(f("a")?), bx(f("b")?)),
        "sub" => Graph::Sub(bx(f("a")?), bx(f("b")?)),
        "mul" => Graph::Mul(bx(f("a")?), bx(f("b")?)),
        "div" => Graph::Div(bx(f("a")?), bx(f("b")?)),
        "min" => Graph::Min(bx(f("a")?), bx(f("b")?)),
        "max" => Graph::Max(bx(f("a")?), bx(f("b")?)),
        "neg" => Graph::Neg(bx(f("input")?)),
        "abs" => Graph::Abs(bx(f("input")?)),
        "const" => Graph::Const(number(a.need("value")?, name, "value")?),
        "pow" => Graph::Pow {
            input: bx(f("input")?),
            exponent: number(a.need("exponent")?, name, "exponent")?,
        },
        "clamp" => Graph::Clamp {
            input: bx(f("input")?),
            min: number(a.need("min")?, name, "min")?,
            max: number(a.need("max")?, name, "max")?,
        },
        "scale_bias" => Graph::ScaleBias {
            input: bx(f("input")?),
            scale: a.num_or("scale", 1.0)?,
            bias: a.num_or("bias", 0.0)?,
        },
        "remap" => {
            let two = |p: &str| -> Result<[f64; 2], Bad> {
                let v = a
                    .numbers(p)?
                    .ok_or_else(|| bad(at, format!("remap needs `{p}`")))?;
                v.try_into().map_err(|_| {
                    bad(
                        a.need(p).map(|i| &i.at).unwrap_or(at),
                        format!("remap's `{p}` is two numbers [lo, hi]"),
                    )
                })
            };
            Graph::Remap {
                input: bx(f("input")?),
                from: two("from")?,
                to: two("to")?,
            }
        }
        "terrace" => Graph::Terrace {
            input: bx(f("input")?),
            points: a
                .numbers("points")?
                .ok_or_else(|| bad(at, "terrace needs `points`"))?,
            smooth: a.flag("smooth")?.unwrap_or(false),
        },
        "curve" => {
            let (list, _) = a
                .list("points")?
                .ok_or_else(|| bad(at, "curve needs `points`"))?;
            let mut points = Vec::with_capacity(list.len());
            for i in list {
                let Val::List(xy) = &i.val else {
                    return Err(bad(&i.at, "a curve point is a pair [x, y]"));
                };
                if xy.len() != 2 {
                    return Err(bad(&i.at, "a curve point is a pair [x, y]"));
                }
                points.push([
                    number(&xy[0], name, "points")?,
                    number(&xy[1], name, "points")?,
                ]);
            }
            Graph::Curve {
                input: bx(f("input")?),
                points,
            }
        }
        "select" => Graph::Select {
            a: bx(f("a")?),
            b: bx(f("b")?),
            control: bx(f("control")?),
            threshold: a.num_or("threshold", 0.0)?,
            falloff: a.num_or("falloff", 0.0)?,
        },
        "blend" => Graph::Blend {
            a: bx(f("a")?),
            b: bx(f("b")?),
            control: bx(f("control")?),
        },
        "translate" | "scale" => {
            let by = match a.need("by")? {
                i @ Item {
                    val: Val::Num(..), ..
                } => vec![number(i, name, "by")?],
                _ => a.numbers("by")?.unwrap_or_default(),
            };
            let input = bx(f("input")?);
            if name == "translate" {
                Graph::Translate { input, by }
            } else {
                Graph::Scale { input, by }
            }
        }
        "rotate" => {
            let by = match (a.num("angle")?, a.list("matrix")?) {
                (Some(t), None) => Rotation::Angle(t),
                (None, Some((rows, _))) => {
                    let mut m = Vec::new();
                    for r in rows {
                        let Val::List(row) = &r.val else {
                            return Err(bad(&r.at, "a matrix is a list of rows [[...], ...]"));
                        };
                        m.push(
                            row.iter()
                                .map(|i| number(i, name, "matrix"))
                                .collect::<Result<_, _>>()?,
                        );
                    }
                    Rotation::Matrix(m)
                }
                _ => return Err(bad(at, "rotate needs either `angle` or `matrix`")),
            };
            Graph::Rotate {
                input: bx(f("input")?),
                by,
            }
        }
        "displace" => {
            let (list, _) = a
                .list("by")?
                .ok_or_else(|| bad(at, "displace needs `by`"))?;
            let mut by = Vec::with_capacity(list.len());
            for i in list {
                by.push(to_graph_at(i, depth + 1)?);
            }
            Graph::Displace {
                input: bx(f("input")?),
                by,
            }
        }
        "distort" => {
            let roughness = a.whole("roughness")?.unwrap_or(3);
            Graph::Distort {
                input: bx(f("input")?),
                power: a.num_or("power", 1.0)?,
                frequency: a.num_or("frequency", 1.0)?,
                roughness: u32::try_from(roughness).unwrap_or(u32::MAX),
                seed: a.whole("seed")?.unwrap_or(0),
            }
        }
        _ => unreachable!("every combinator is matched"),
    })
}

/// A stack leaf: `noise(...)`, `fractal(noise(...), ...)`, `warp(...)`.
/// `keys` collects where each stack key came from.
fn leaf(item: &Item, keys: &mut Vec<(String, At)>, depth: usize) -> Result<Stack, Bad> {
    if depth > MAX_DEPTH {
        return Err(bad(
            &item.at,
            format!("the graph is deeper than {MAX_DEPTH} nodes"),
        ));
    }
    if let Val::Stack(s) = &item.val {
        return Ok((**s).clone());
    }
    let Val::Call(call) = &item.val else {
        return Err(bad(
            &item.at,
            format!(
                "expected a noise such as simplex(...), found {}",
                item.what()
            ),
        ));
    };
    let at = &item.at;
    let name = call.name.as_str();
    let a = Args::bind(call, at)?;
    let mut note = |key: &str, p: &str| {
        if let Some(i) = a.get(p) {
            keys.push((key.to_string(), i.at.clone()));
        }
    };
    if let Some(kind) = noise_fn(name) {
        for p in NOISE_PARAMS {
            note(p, p);
        }
        let word = |p: &str| a.word(p);
        let distance = word("distance")?
            .map(|(w, at)| {
                CellularDistance::from_name(&w.replace('_', "-"))
                    .map_err(|e| bad(at, e.to_string()))
            })
            .transpose()?;
        let ret = word("return")?
            .map(|(w, at)| CellularReturn::from_name(w).map_err(|e| bad(at, e.to_string())))
            .transpose()?;
        let period = match a.list("period")? {
            None => None,
            Some((v, _)) => Some(
                v.iter()
                    .map(|i| {
                        let w = whole(i, name, "period")?;
                        u32::try_from(w).map_err(|_| bad(&i.at, "a period is at most 65536"))
                    })
                    .collect::<Result<Vec<u32>, Bad>>()?,
            ),
        };
        return Ok(Stack {
            noise: kind,
            distance,
            ret,
            jitter: a.num("jitter")?,
            seed: a.whole("seed")?.unwrap_or(0),
            frequency: a.num_or("frequency", 1.0)?,
            period,
            ..Stack::default()
        });
    }
    // Past the noises, a stack leaf is a fractal or a warp; any other call
    // (`fbm(perlin() * 2)`, `fbm(abs(perlin()))`) is not a stack, and its
    // arguments are not a fractal's: asking them for `input` panicked
    // until the `expr` fuzz target found it.
    if FractalKind::from_name(name).is_err() && name != "warp" {
        return Err(bad(
            at,
            format!("expected a noise such as simplex(...), found {name}(...)"),
        ));
    }
    let input = a.need("input")?;
    let mut stack = leaf(input, keys, depth + 1)?;
    let fractal_of = |kind: FractalKind,
                      amp: &str,
                      prefix: &str,
                      keys: &mut Vec<(String, At)>|
     -> Result<FractalDesc, Bad> {
        for p in [
            "octaves",
            "lacunarity",
            "gain",
            "normalize",
            "offset",
            "weight",
        ] {
            if let Some(i) = a.get(p) {
                keys.push((format!("{prefix}{p}"), i.at.clone()));
            }
        }
        let d = FractalDesc::default();
        Ok(FractalDesc {
            kind,
            octaves: a
                .whole("octaves")?
                .map(|v| u32::try_from(v).unwrap_or(u32::MAX))
                .unwrap_or(d.octaves),
            lacunarity: a.num_or("lacunarity", d.lacunarity)?,
            gain: a.num_or("gain", d.gain)?,
            amplitude: a.num_or(amp, d.amplitude)?,
            normalize: a.flag("normalize")?.unwrap_or(d.normalize),
            offset: a.num("offset")?,
            weight: a.num("weight")?,
        })
    };
    if let Ok(kind) = FractalKind::from_name(name) {
        if stack.fractal.is_some() || stack.warp.is_some() {
            return Err(bad(
                &input.at,
                format!(
                    "{name}'s input must be a noise such as simplex(...), without a fractal or warp of its own"
                ),
            ));
        }
        stack.fractal = Some(fractal_of(kind, "amplitude", "fractal.", keys)?);
        return Ok(stack);
    }
    // warp
    if stack.warp.is_some() {
        return Err(bad(
            &input.at,
            "a stack has one warp: warp's input cannot be warped",
        ));
    }
    let fractal_given = [
        "fractal",
        "octaves",
        "lacunarity",
        "gain",
        "fractal_amplitude",
        "normalize",
        "offset",
        "weight",
    ]
    .iter()
    .any(|p| a.get(p).is_some());
    let fractal = if fractal_given {
        let kind = match a.word("fractal")? {
            None => FractalKind::Fbm,
            Some((w, at)) => FractalKind::from_name(w).map_err(|e| bad(at, e.to_string()))?,
        };
        Some(fractal_of(
            kind,
            "fractal_amplitude",
            "warp.fractal.",
            keys,
        )?)
    } else {
        None
    };
    for p in ["amplitude", "noise", "seed", "frequency", "kind"] {
        if let Some(i) = a.get(p) {
            keys.push((format!("warp.{p}"), i.at.clone()));
        }
    }
    stack.warp = Some(WarpDesc {
        kind: match a.word("kind")? {
            None => WarpKind::Single,
            Some((w, at)) => WarpKind::from_name(w).map_err(|e| bad(at, e.to_string()))?,
        },
        noise: a
            .word("noise")?
            .map(|(w, at)| {
                NoiseKind::from_name(&w.replace('_', "-")).map_err(|e| bad(at, e.to_string()))
            })
            .transpose()?,
        seed: a.whole("seed")?,
        frequency: a.num("frequency")?,
        amplitude: a.num_or("amplitude", 1.0)?,
        fractal,
    });
    Ok(stack)
}

/// A graph node's function name.
pub(crate) fn name_of(g: &Graph) -> &'static str {
    match g {
        Graph::Stack(s) => {
            if s.warp.is_some() {
                "warp"
            } else if let Some(f) = &s.fractal {
                f.kind.name()
            } else {
                "stack"
            }
        }
        Graph::Const(_) => "const",
        Graph::Neg(_) => "neg",
        Graph::Abs(_) => "abs",
        Graph::Add(..) => "add",
        Graph::Sub(..) => "sub",
        Graph::Mul(..) => "mul",
        Graph::Div(..) => "div",
        Graph::Min(..) => "min",
        Graph::Max(..) => "max",
        Graph::Pow { .. } => "pow",
        Graph::Clamp { .. } => "clamp",
        Graph::ScaleBias { .. } => "scale_bias",
        Graph::Remap { .. } => "remap",
        Graph::Terrace { .. } => "terrace",
        Graph::Curve { .. } => "curve",
        Graph::Select { .. } => "select",
        Graph::Blend { .. } => "blend",
        Graph::Translate { .. } => "translate",
        Graph::Scale { .. } => "scale",
        Graph::Rotate { .. } => "rotate",
        Graph::Displace { .. } => "displace",
        Graph::Distort { .. } => "distort",
        Graph::Custom(_) => "custom",
    }
}

fn named(name: &str, item: Item) -> Arg {
    Arg::new(Some(name.to_string()), item)
}

fn nums(v: &[f64]) -> Item {
    Item::list(v.iter().map(|&x| Item::num(x)).collect())
}

/// A whole number as an item (its text exact).
fn int(v: u64) -> Item {
    Item {
        val: Val::Num(v as f64, v.to_string()),
        at: At::Key(String::new()),
    }
}

/// The description tree of `g`, with arguments named except the leading
/// ones that each function prints positionally. Fails on a custom field.
pub(crate) fn from_graph(g: &Graph) -> Result<Item, Error> {
    let f = |g: &Graph| from_graph(g);
    let call = |name: &str, args: Vec<(&str, Item)>| -> Item {
        let positional = COMBINATORS.iter().find(|c| c.0 == name).map_or(0, |c| c.2);
        let args = args
            .into_iter()
            .enumerate()
            .map(|(k, (p, item))| {
                let params = params_of(name).expect("known function");
                // Positional only while the parameters are in order.
                let in_order = params.get(k) == Some(&p);
                Arg::new(
                    if k < positional && in_order {
                        None
                    } else {
                        Some(p.to_string())
                    },
                    item,
                )
            })
            .collect();
        Item::call(name, args)
    };
    let bin = |name: &str, a: &Graph, b: &Graph| -> Result<Item, Error> {
        Ok(call(name, vec![("a", f(a)?), ("b", f(b)?)]))
    };
    Ok(match g {
        Graph::Stack(s) => stack_item(s),
        Graph::Const(v) => Item::num(*v),
        Graph::Neg(x) => call("neg", vec![("input", f(x)?)]),
        Graph::Abs(x) => call("abs", vec![("input", f(x)?)]),
        Graph::Add(a, b) => bin("add", a, b)?,
        Graph::Sub(a, b) => bin("sub", a, b)?,
        Graph::Mul(a, b) => bin("mul", a, b)?,
        Graph::Div(a, b) => bin("div", a, b)?,
        Graph::Min(a, b) => bin("min", a, b)?,
        Graph::Max(a, b) => bin("max", a, b)?,
        Graph::Pow { input, exponent } => call(
            "pow",
            vec![("input", f(input)?), ("exponent", Item::num(*exponent))],
        ),
        Graph::Clamp { input, min, max } => call(
            "clamp",
            vec![
                ("input", f(input)?),
                ("min", Item::num(*min)),
                ("max", Item::num(*max)),
            ],
        ),
        Graph::ScaleBias { input, scale, bias } => call(
            "scale_bias",
            vec![
                ("input", f(input)?),
                ("scale", Item::num(*scale)),
                ("bias", Item::num(*bias)),
            ],
        ),
        Graph::Remap { input, from, to } => call(
            "remap",
            vec![("input", f(input)?), ("from", nums(from)), ("to", nums(to))],
        ),
        Graph::Terrace {
            input,
            points,
            smooth,
        } => {
            let mut args = vec![("input", f(input)?), ("points", nums(points))];
            if *smooth {
                args.push(("smooth", Item::word("true")));
            }
            call("terrace", args)
        }
        Graph::Curve { input, points } => call(
            "curve",
            vec![
                ("input", f(input)?),
                (
                    "points",
                    Item::list(points.iter().map(|p| nums(p)).collect()),
                ),
            ],
        ),
        Graph::Select {
            a,
            b,
            control,
            threshold,
            falloff,
        } => call(
            "select",
            vec![
                ("a", f(a)?),
                ("b", f(b)?),
                ("control", f(control)?),
                ("threshold", Item::num(*threshold)),
                ("falloff", Item::num(*falloff)),
            ],
        ),
        Graph::Blend { a, b, control } => call(
            "blend",
            vec![("a", f(a)?), ("b", f(b)?), ("control", f(control)?)],
        ),
        Graph::Translate { input, by } => {
            call("translate", vec![("input", f(input)?), ("by", nums(by))])
        }
        Graph::Scale { input, by } => call("scale", vec![("input", f(input)?), ("by", nums(by))]),
        Graph::Rotate { input, by } => {
            let arg = match by {
                Rotation::Angle(t) => ("angle", Item::num(*t)),
                Rotation::Matrix(m) => ("matrix", Item::list(m.iter().map(|r| nums(r)).collect())),
            };
            call("rotate", vec![("input", f(input)?), arg])
        }
        Graph::Displace { input, by } => call(
            "displace",
            vec![
                ("input", f(input)?),
                (
                    "by",
                    Item::list(by.iter().map(f).collect::<Result<_, _>>()?),
                ),
            ],
        ),
        Graph::Distort {
            input,
            power,
            frequency,
            roughness,
            seed,
        } => call(
            "distort",
            vec![
                ("input", f(input)?),
                ("power", Item::num(*power)),
                ("frequency", Item::num(*frequency)),
                ("roughness", int(u64::from(*roughness))),
                ("seed", int(*seed)),
            ],
        ),
        Graph::Custom(c) => {
            return Err(Error::Parameter {
                name: "graph".into(),
                reason: format!(
                    "the custom field {:?} exists only in code: it has no expression or config form",
                    c.name()
                ),
            });
        }
    })
}

/// A stack as nested calls, writing only what differs from the defaults
/// (a fractal or warp is written whenever present).
pub(crate) fn stack_item(s: &Stack) -> Item {
    let mut args = Vec::new();
    if s.seed != 0 {
        args.push(named("seed", int(s.seed)));
    }
    if s.frequency != 1.0 {
        args.push(named("frequency", Item::num(s.frequency)));
    }
    if let Some(p) = &s.period {
        args.push(named(
            "period",
            Item::list(p.iter().map(|&v| int(u64::from(v))).collect()),
        ));
    }
    if let Some(d) = s.distance {
        args.push(named("distance", Item::word(d.name())));
    }
    if let Some(r) = s.ret {
        args.push(named("return", Item::word(r.name())));
    }
    if let Some(j) = s.jitter {
        args.push(named("jitter", Item::num(j)));
    }
    let mut item = Item::call(&s.noise.name().replace('-', "_"), args);
    let fractal_args = |f: &FractalDesc, amp: &str, args: &mut Vec<Arg>| {
        let d = FractalDesc::default();
        if f.octaves != d.octaves {
            args.push(named("octaves", int(u64::from(f.octaves))));
        }
        if f.lacunarity != d.lacunarity {
            args.push(named("lacunarity", Item::num(f.lacunarity)));
        }
        if f.gain != d.gain {
            args.push(named("gain", Item::num(f.gain)));
        }
        if f.amplitude != d.amplitude {
            args.push(named(amp, Item::num(f.amplitude)));
        }
        if f.normalize != d.normalize {
            args.push(named(
                "normalize",
                Item::word(if f.normalize { "true" } else { "false" }),
            ));
        }
        if let Some(o) = f.offset {
            args.push(named("offset", Item::num(o)));
        }
        if let Some(w) = f.weight {
            args.push(named("weight", Item::num(w)));
        }
    };
    if let Some(f) = &s.fractal {
        let mut args = vec![Arg::new(None, item)];
        fractal_args(f, "amplitude", &mut args);
        item = Item::call(f.kind.name(), args);
    }
    if let Some(w) = &s.warp {
        let mut args = vec![Arg::new(None, item)];
        if w.amplitude != 1.0 {
            args.push(named("amplitude", Item::num(w.amplitude)));
        }
        if w.kind != WarpKind::Single {
            args.push(named("kind", Item::word(w.kind.name())));
        }
        if let Some(n) = w.noise {
            args.push(named("noise", Item::word(&n.name().replace('-', "_"))));
        }
        if let Some(seed) = w.seed {
            args.push(named("seed", int(seed)));
        }
        if let Some(fr) = w.frequency {
            args.push(named("frequency", Item::num(fr)));
        }
        if let Some(f) = &w.fractal {
            args.push(named("fractal", Item::word(f.kind.name())));
            fractal_args(f, "fractal_amplitude", &mut args);
        }
        item = Item::call("warp", args);
    }
    item
}
