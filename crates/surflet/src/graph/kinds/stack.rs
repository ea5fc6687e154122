//! A stack leaf: `noise(...)`, `fractal(noise(...), ...)`, `warp(...)`, or
//! a stack table of a config. It runs as the stack's own [`Evaluator`],
//! through its SIMD point and grid paths.

use crate::prelude_internal::*;

use super::{Cx, Kind, Range, parts};
use crate::cellular::{CellularDistance, CellularReturn};
use crate::error::Error;
use crate::field::Field;
use crate::float::Float;
use crate::fractal::FractalKind;
use crate::graph::Graph;
use crate::graph::call::{Arg, Args, At, Bad, Item, Val, Writer, bad, int, named, nums, whole};
use crate::graph::node::{Buf, Eval, Frame, Pass, fill_leaf};
use crate::noise::NoiseKind;
use crate::stack::{Evaluator, FractalDesc, Stack, WarpDesc};
use crate::warp::WarpKind;

/// The stack leaf kind.
pub(in crate::graph) struct StackKind;

/// A compiled stack.
#[derive(Clone)]
pub(in crate::graph) struct Leaf<const D: usize>(pub Box<Evaluator<D>>);

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
    "offset",
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
/// The fractal's parameters as a warp writes them (`fractal` names its
/// kind; its amplitude is `fractal_amplitude`, the warp's own `amplitude`).
const WARP_FRACTAL_PARAMS: &[&str] = &[
    "fractal",
    "octaves",
    "lacunarity",
    "gain",
    "fractal_amplitude",
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

/// Where each stack key of a leaf was written, so that the stack's own
/// check can put its message on the argument it is about.
type Keys = Vec<(String, At)>;

impl Kind for StackKind {
    const NAME: &'static str = "stack";
    const PARAMS: &'static [&'static str] = &[];
    const POSITIONAL: usize = 0;
    type Op<const D: usize> = Leaf<D>;

    fn params(name: &str) -> Option<&'static [&'static str]> {
        if noise_fn(name).is_some() {
            Some(NOISE_PARAMS)
        } else if FractalKind::from_name(name).is_ok() {
            Some(FRACTAL_PARAMS)
        } else if name == "warp" {
            Some(WARP_PARAMS)
        } else {
            None
        }
    }

    fn names(out: &mut Vec<String>) {
        out.extend(NoiseKind::ALL.iter().map(|k| k.name().replace('-', "_")));
        out.extend(FractalKind::ALL.iter().map(|k| k.name().to_string()));
        out.push("warp".into());
    }

    fn name_of(g: &Graph) -> &'static str {
        parts!(g, Graph::Stack(s));
        if s.warp.is_some() {
            "warp"
        } else if let Some(f) = &s.fractal {
            f.kind.name()
        } else {
            "stack"
        }
    }

    fn inputs(_g: &Graph) -> Vec<&Graph> {
        vec![]
    }

    fn read(a: &Args<'_>) -> Result<Graph, Bad> {
        let mut keys = Keys::new();
        let stack = leaf(a, &mut keys)?;
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
                .unwrap_or(a.at);
            let msg = if key.is_empty() {
                msg
            } else {
                format!("{key}: {msg}")
            };
            return Err(bad(place, msg));
        }
        Ok(Graph::stack(stack))
    }

    fn write(g: &Graph, w: Writer) -> Result<Item, Error> {
        parts!(g, Graph::Stack(s));
        Ok(if w.tables {
            Item {
                val: Val::Stack(s.clone()),
                at: At::Key(String::new()),
            }
        } else {
            stack_item(s)
        })
    }

    fn compile<const D: usize>(g: &Graph, cx: &Cx<'_>) -> Result<(Leaf<D>, Range), Error> {
        parts!(g, Graph::Stack(s));
        let e = s.build::<D>().map_err(|e| match e {
            Error::Config { key, message } => Error::Config {
                key: if key.is_empty() {
                    cx.path.to_string()
                } else {
                    format!("{}.{key}", cx.path)
                },
                message,
            },
            other => cx.bad(other.to_string()),
        })?;
        let range = e.range();
        Ok((Leaf(Box::new(e)), range))
    }
}

impl<const D: usize> Eval<D> for Leaf<D> {
    fn eval<F: Float>(&self, p: Pass, f: &Frame<'_, F, D>) -> Result<Buf<F, D>, Error> {
        let e = &self.0;
        match f.grid {
            Some((grid, start)) => fill_leaf(f, p, |_, v, g| {
                e.grid_part_on(p.isa, grid, start, v, g).map(|_| ())
            }),
            None => fill_leaf(f, p, |q, v, g| e.fill_on(p.isa, q, v, g)),
        }
    }
    fn reads_points(&self) -> bool {
        false
    }
}

/// A stack table of a config as a graph leaf. It gets the checks a stack
/// call gets, so that a config and an expression refuse the same stacks (a
/// fractal whose normalisation divides by 0 was read from a config, and
/// its expression was then refused).
pub(in crate::graph) fn check_table(s: &Stack, at: &At) -> Result<Graph, Bad> {
    match (s.check(), at) {
        (Ok(()), _) => Ok(Graph::Stack(Box::new(s.clone()))),
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
    }
}

/// The stack a stack function's call describes; `keys` collects where each
/// stack key came from.
fn leaf(a: &Args<'_>, keys: &mut Keys) -> Result<Stack, Bad> {
    if let Some(kind) = noise_fn(a.name) {
        return noise(a, kind, keys);
    }
    let input = a.need("input")?;
    let mut stack = leaf_item(input, keys, a.depth() + 1)?;
    if let Ok(kind) = FractalKind::from_name(a.name) {
        if stack.fractal.is_some() || stack.warp.is_some() {
            return Err(bad(
                &input.at,
                format!(
                    "{}'s input must be a noise such as simplex(...), without a fractal or warp of its own",
                    a.name
                ),
            ));
        }
        stack.fractal = Some(fractal(a, kind, "amplitude", "fractal.", keys)?);
        return Ok(stack);
    }
    if stack.warp.is_some() {
        return Err(bad(
            &input.at,
            "a stack has one warp: warp's input cannot be warped",
        ));
    }
    stack.warp = Some(warp(a, keys)?);
    Ok(stack)
}

/// A fractal's or warp's input: a stack table or a stack function's call.
fn leaf_item(item: &Item, keys: &mut Keys, depth: usize) -> Result<Stack, Bad> {
    if depth > crate::graph::MAX_DEPTH {
        return Err(bad(
            &item.at,
            format!("the graph is deeper than {} nodes", crate::graph::MAX_DEPTH),
        ));
    }
    let call = match &item.val {
        Val::Stack(s) => return Ok((**s).clone()),
        Val::Call(call) => call,
        _ => {
            return Err(bad(
                &item.at,
                format!(
                    "expected a noise such as simplex(...), found {}",
                    item.what()
                ),
            ));
        }
    };
    let a = Args::bind(call, &item.at, depth)?;
    // Any other call (`fbm(perlin() * 2)`, `fbm(abs(perlin()))`) is not a
    // stack, and its arguments are not a fractal's: asking them for
    // `input` panicked until the `expr` fuzz target found it.
    if StackKind::params(a.name).is_none() {
        return Err(bad(
            &item.at,
            format!(
                "expected a noise such as simplex(...), found {}(...)",
                a.name
            ),
        ));
    }
    leaf(&a, keys)
}

/// Notes where each of `params` was written, under `prefix`.
fn note(a: &Args<'_>, params: &[&str], prefix: &str, keys: &mut Keys) {
    for p in params {
        if let Some(i) = a.get(p) {
            keys.push((format!("{prefix}{p}"), i.at.clone()));
        }
    }
}

/// A noise function's call: the stack's base.
fn noise(a: &Args<'_>, kind: NoiseKind, keys: &mut Keys) -> Result<Stack, Bad> {
    note(a, NOISE_PARAMS, "", keys);
    let distance = a
        .word("distance")?
        .map(|(w, at)| {
            CellularDistance::from_name(&w.replace('_', "-")).map_err(|e| bad(at, e.to_string()))
        })
        .transpose()?;
    let ret = a
        .word("return")?
        .map(|(w, at)| CellularReturn::from_name(w).map_err(|e| bad(at, e.to_string())))
        .transpose()?;
    let period = match a.list("period")? {
        None => None,
        Some((v, _)) => Some(
            v.iter()
                .map(|i| {
                    let w = whole(i, a.name, "period")?;
                    u32::try_from(w).map_err(|_| bad(&i.at, "a period is at most 65536"))
                })
                .collect::<Result<Vec<u32>, Bad>>()?,
        ),
    };
    Ok(Stack {
        noise: kind,
        distance,
        ret,
        jitter: a.num("jitter")?,
        seed: a.whole("seed")?.unwrap_or(0),
        frequency: a.num_or("frequency", 1.0)?,
        period,
        offset: a.numbers("offset")?,
        fractal: None,
        warp: None,
    })
}

/// A fractal's keys from a fractal's or a warp's call, whose amplitude is
/// the argument `amp`.
fn fractal(
    a: &Args<'_>,
    kind: FractalKind,
    amp: &str,
    prefix: &str,
    keys: &mut Keys,
) -> Result<FractalDesc, Bad> {
    note(
        a,
        &[
            "octaves",
            "lacunarity",
            "gain",
            "normalize",
            "offset",
            "weight",
        ],
        prefix,
        keys,
    );
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
}

/// A warp's call: its keys and, if any of them is given, its fractal's.
fn warp(a: &Args<'_>, keys: &mut Keys) -> Result<WarpDesc, Bad> {
    let fractal_given = WARP_FRACTAL_PARAMS.iter().any(|p| a.get(p).is_some());
    let fractal = if fractal_given {
        let kind = match a.word("fractal")? {
            None => FractalKind::Fbm,
            Some((w, at)) => FractalKind::from_name(w).map_err(|e| bad(at, e.to_string()))?,
        };
        Some(fractal(
            a,
            kind,
            "fractal_amplitude",
            "warp.fractal.",
            keys,
        )?)
    } else {
        None
    };
    note(
        a,
        &["amplitude", "noise", "seed", "frequency", "kind"],
        "warp.",
        keys,
    );
    Ok(WarpDesc {
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
    })
}

/// A stack as nested calls, writing only what differs from the defaults
/// (a fractal or warp is written whenever present).
pub(in crate::graph) fn stack_item(s: &Stack) -> Item {
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
    if let Some(o) = &s.offset {
        args.push(named("offset", nums(o)));
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
    if let Some(f) = &s.fractal {
        let mut args = vec![Arg::new(None, item)];
        fractal_args(f, "amplitude", &mut args);
        item = Item::call(f.kind.name(), args);
    }
    if let Some(w) = &s.warp {
        item = warp_item(w, item);
    }
    item
}

/// A fractal's keys that differ from the defaults, as arguments.
fn fractal_args(f: &FractalDesc, amp: &str, args: &mut Vec<Arg>) {
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
}

/// `warp(input, ...)`.
fn warp_item(w: &WarpDesc, input: Item) -> Item {
    let mut args = vec![Arg::new(None, input)];
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
    Item::call("warp", args)
}
