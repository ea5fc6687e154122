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
use crate::graph::ast::Graph;
use crate::graph::call::{
    Arg, Args, At, Bad, Item, Registry, Val, Writer, bad, int, named, nums, whole,
};
use crate::graph::eval::{Buf, Eval, Frame, Pass, fill_leaf};
#[cfg(feature = "wgsl")]
use crate::graph::wgsl::Out;
use crate::noise::NoiseKind;
use crate::stack::keys::{KEYS, Key, KeyType, Value};
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

/// The calls of a stack's written form: the noise, its fractal, its warp.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Call {
    Noise,
    Fractal,
    Warp,
}

/// The call a stack key is an argument of, and its name there: a noise
/// call takes the top-level keys (`seed=`), a fractal call its table's
/// (`octaves=`), a warp call `[warp]`'s and `[warp.fractal]`'s, the latter's
/// kind as `fractal=` and amplitude as `fractal_amplitude=` (the warp's
/// own is `amplitude=`). The noise and the fractal's kind are the calls'
/// names, not arguments.
fn arg_of(key: &Key) -> Option<(Call, &'static str)> {
    match (key.table(), key.name()) {
        ("", "noise") | ("fractal", "kind") => None,
        ("", name) => Some((Call::Noise, name)),
        ("fractal", name) => Some((Call::Fractal, name)),
        ("warp", name) => Some((Call::Warp, name)),
        ("warp.fractal", "kind") => Some((Call::Warp, "fractal")),
        ("warp.fractal", "amplitude") => Some((Call::Warp, "fractal_amplitude")),
        ("warp.fractal", name) => Some((Call::Warp, name)),
        _ => None,
    }
}

/// The keys that are arguments of `call`, with their names there, in the
/// call's parameter order.
fn args_of(call: Call) -> impl Iterator<Item = (&'static Key, &'static str)> {
    let mut args: Vec<(&'static Key, &'static str)> = KEYS
        .iter()
        .filter_map(|k| arg_of(k).filter(|(c, _)| *c == call).map(|(_, n)| (k, n)))
        .collect();
    args.sort_by_key(|(k, _)| k.pos);
    args.into_iter()
}

/// The parameters of a call: the input, then the keys.
fn params_of(call: Call) -> Vec<&'static str> {
    let input = (call != Call::Noise).then_some("input");
    input
        .into_iter()
        .chain(args_of(call).map(|(_, n)| n))
        .collect()
}

/// Where each stack key of a leaf was written, so that the stack's own
/// check can put its message on the argument it is about.
type Keys = Vec<(String, At)>;

impl Kind for StackKind {
    const NAME: &'static str = "stack";
    const PARAMS: &'static [&'static str] = &[];
    const POSITIONAL: usize = 0;
    type Op<const D: usize> = Leaf<D>;

    fn params(name: &str) -> Option<Vec<&'static str>> {
        if noise_fn(name).is_some() {
            Some(params_of(Call::Noise))
        } else if FractalKind::from_name(name).is_ok() {
            Some(params_of(Call::Fractal))
        } else if name == "warp" {
            Some(params_of(Call::Warp))
        } else {
            None
        }
    }

    fn inputs_of(name: &str) -> Option<Vec<&'static str>> {
        if noise_fn(name).is_some() {
            Some(Vec::new())
        } else if FractalKind::from_name(name).is_ok() || name == "warp" {
            Some(vec!["input"])
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

    fn inputs_mut(_g: &mut Graph) -> Vec<&mut Graph> {
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
    #[cfg(feature = "wgsl")]
    fn wgsl(&self, w: &mut Out<D>, jac: bool) -> Result<String, Error> {
        let s = w.stack(self.0.program())?;
        if !jac {
            return Ok(w.node_fn("a stack", &format!("    return {s}_gradient(q);\n")));
        }
        // `eval::pull_back`: ∇ₚ[b] = Σₐ ∇_q[a]·j[a][b], from a = 0.
        let parts: Vec<String> = (0..D)
            .map(|b| {
                (0..D)
                    .map(|a| format!("surflet_p({} * j[{a}][{b}])", w.g("r", a)))
                    .collect::<Vec<_>>()
                    .join(" + ")
            })
            .collect();
        let body = format!(
            "    let r = {s}_gradient(q);\n    return {};\n",
            w.ret(&w.v("r"), &parts.join(", "))
        );
        Ok(w.node_fn("a stack, its gradient pulled back", &body))
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
    let mut stack = leaf_item(input, keys, a.depth() + 1, a.kinds())?;
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
        stack.fractal = Some(FractalDesc {
            kind,
            ..FractalDesc::default()
        });
        read_args(a, Call::Fractal, &mut stack, keys)?;
        return Ok(stack);
    }
    if stack.warp.is_some() {
        return Err(bad(
            &input.at,
            "a stack has one warp: warp's input cannot be warped",
        ));
    }
    stack.warp = Some(WarpDesc::default());
    read_args(a, Call::Warp, &mut stack, keys)?;
    Ok(stack)
}

/// A fractal's or warp's input: a stack table or a stack function's call.
fn leaf_item(
    item: &Item,
    keys: &mut Keys,
    depth: usize,
    kinds: &'static Registry,
) -> Result<Stack, Bad> {
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
    let a = Args::bind(call, &item.at, depth, kinds)?;
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

/// Sets every key of `call` that `a` gives, noting where it was written.
fn read_args(a: &Args<'_>, call: Call, stack: &mut Stack, keys: &mut Keys) -> Result<(), Bad> {
    for (key, name) in args_of(call) {
        let Some(item) = a.get(name) else { continue };
        keys.push((key.path.to_string(), item.at.clone()));
        let v = match key.ty {
            KeyType::Noise => Value::Noise(
                NoiseKind::from_name(&word(a, name)?.replace('_', "-"))
                    .map_err(|e| bad(&item.at, e.to_string()))?,
            ),
            KeyType::Seed => Value::Seed(a.whole(name)?.unwrap_or_default()),
            KeyType::Positive | KeyType::Finite | KeyType::Unit => Value::Number(a.number(name)?),
            // Past u32 it is out of range all the same.
            KeyType::Octaves => Value::Count(
                a.whole(name)?
                    .map_or(u32::MAX, |v| u32::try_from(v).unwrap_or(u32::MAX)),
            ),
            KeyType::Periods => {
                let v = a.list(name)?.map_or(&[][..], |(v, _)| v);
                Value::Periods(
                    v.iter()
                        .map(|i| {
                            let w = whole(i, a.name, name)?;
                            u32::try_from(w).map_err(|_| bad(&i.at, "a period is at most 65536"))
                        })
                        .collect::<Result<Vec<u32>, Bad>>()?,
                )
            }
            KeyType::Offsets => Value::Offsets(a.numbers(name)?.unwrap_or_default()),
            KeyType::Fractal => Value::Fractal(
                FractalKind::from_name(word(a, name)?).map_err(|e| bad(&item.at, e.to_string()))?,
            ),
            KeyType::Warp => Value::Warp(
                WarpKind::from_name(word(a, name)?).map_err(|e| bad(&item.at, e.to_string()))?,
            ),
            KeyType::Distance => Value::Distance(
                CellularDistance::from_name(&word(a, name)?.replace('_', "-"))
                    .map_err(|e| bad(&item.at, e.to_string()))?,
            ),
            KeyType::Return => Value::Return(
                CellularReturn::from_name(word(a, name)?)
                    .map_err(|e| bad(&item.at, e.to_string()))?,
            ),
            KeyType::Bool => Value::Bool(a.flag(name)?.unwrap_or_default()),
        };
        // Ranges are the stack's check's (`StackKind::read`), which puts
        // its message on the argument at fault.
        (key.set)(stack, v);
    }
    Ok(())
}

/// The word given as `name` (present: the caller found it).
fn word<'a>(a: &Args<'a>, name: &str) -> Result<&'a str, Bad> {
    Ok(a.word(name)?.map(|(w, _)| w).unwrap_or_default())
}

/// A noise function's call: the stack's base.
fn noise(a: &Args<'_>, kind: NoiseKind, keys: &mut Keys) -> Result<Stack, Bad> {
    let mut stack = Stack {
        noise: kind,
        ..Stack::default()
    };
    read_args(a, Call::Noise, &mut stack, keys)?;
    Ok(stack)
}

/// A stack as nested calls, writing only what differs from the defaults
/// (a fractal or warp is written whenever present, and a warp's fractal by
/// its kind, `fractal=`, whenever present).
pub(in crate::graph) fn stack_item(s: &Stack) -> Item {
    let mut item = Item::call(
        &s.noise.name().replace('-', "_"),
        write_args(s, Call::Noise),
    );
    if let Some(f) = &s.fractal {
        let mut args = vec![Arg::new(None, item)];
        args.extend(write_args(s, Call::Fractal));
        item = Item::call(f.kind.name(), args);
    }
    if s.warp.is_some() {
        let mut args = vec![Arg::new(None, item)];
        args.extend(write_args(s, Call::Warp));
        item = Item::call("warp", args);
    }
    item
}

/// The arguments of `call` for the keys of `s` that are not their
/// defaults; a nested table's kind (`warp.fractal`'s, `fractal=`) whenever
/// the table is present, which it marks.
fn write_args(s: &Stack, call: Call) -> Vec<Arg> {
    let mut args = Vec::new();
    for (key, name) in args_of(call) {
        let v = if key.name() == "kind" && key.table().contains('.') {
            (key.get)(s)
        } else {
            key.given(s)
        };
        let Some(v) = v else { continue };
        let item = match v {
            Value::Noise(k) => Item::word(&k.name().replace('-', "_")),
            Value::Seed(v) => int(v),
            Value::Number(x) => Item::num(x),
            Value::Count(n) => int(u64::from(n)),
            Value::Periods(p) => Item::list(p.iter().map(|&v| int(u64::from(v))).collect()),
            Value::Offsets(o) => nums(&o),
            Value::Fractal(k) => Item::word(k.name()),
            Value::Warp(k) => Item::word(k.name()),
            Value::Distance(d) => Item::word(d.name()),
            Value::Return(r) => Item::word(r.name()),
            Value::Bool(b) => Item::word(if b { "true" } else { "false" }),
        };
        args.push(named(name, item));
    }
    args
}
