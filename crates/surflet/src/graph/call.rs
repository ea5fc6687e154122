//! The one description behind the three spellings: a tree of function calls
//! with positional and named arguments. The expression parser and the
//! TOML/JSON reader produce it; [`to_graph`] checks it against each
//! function's parameters (so both spellings give the same messages), and a
//! [`Writer`] turns a graph back into it for the printers. What each
//! function reads and writes is its kind's unit's: the kinds reach this
//! module through a [`Registry`] of their table's functions
//! (`registry.rs`), so that it imports nothing of theirs.

// Without `expr` or `serde` part of this is unused.
#![cfg_attr(not(all(feature = "expr", feature = "serde")), allow(dead_code))]

use crate::prelude_internal::*;

use super::ast::{Graph, MAX_DEPTH};
use crate::error::Error;
use crate::stack::Stack;

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

pub(super) fn bad(at: &At, msg: impl Into<String>) -> Bad {
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
    pub(crate) fn word(w: &str) -> Item {
        Item {
            val: Val::Word(w.to_string()),
            at: At::Key(String::new()),
        }
    }
    pub(crate) fn list(v: Vec<Item>) -> Item {
        Item {
            val: Val::List(v),
            at: At::Key(String::new()),
        }
    }
    pub(crate) fn call(name: &str, args: Vec<Arg>) -> Item {
        Item {
            val: Val::Call(Call {
                name: name.to_string(),
                args,
            }),
            at: At::Key(String::new()),
        }
    }
    pub(crate) fn what(&self) -> &'static str {
        match self.val {
            Val::Num(..) => "a number",
            Val::Word(_) => "a word",
            Val::List(_) => "a list",
            Val::Call(_) => "a call",
            Val::Stack(_) => "a stack",
        }
    }
}

/// The node kinds' table, as reading and writing calls needs it: each
/// function's parameters, reading a bound call or a config's stack table
/// into a graph, and writing a graph. The kinds read their field arguments
/// through [`Args`], so the reader and the kinds call each other; holding
/// the kinds' side as function pointers keeps the recursion out of the
/// imports.
pub(crate) struct Registry {
    /// The parameters of the function `name`, if there is one.
    pub params_of: fn(&str) -> Option<Vec<&'static str>>,
    /// Every function name, for "unknown function" messages.
    pub function_names: fn() -> String,
    /// The graph of a bound call.
    pub read: fn(&Args<'_>) -> Result<Graph, Bad>,
    /// The graph of a config's stack table.
    pub check_table: fn(&Stack, &At) -> Result<Graph, Bad>,
    /// A graph as a description.
    pub write: fn(&Graph, Writer) -> Result<Item, Error>,
}

/// A function's name and parameters, as a [`Writer`] prints its calls.
pub(crate) trait Signature {
    /// Its name (`op`).
    const NAME: &'static str;
    /// Its parameters, in positional order.
    const PARAMS: &'static [&'static str];
    /// How many leading parameters are printed positionally.
    const POSITIONAL: usize;
}

/// A call's arguments bound to its parameters.
pub(crate) struct Args<'a> {
    /// The function's name.
    pub name: &'a str,
    /// Where the call is.
    pub at: &'a At,
    params: Vec<&'static str>,
    bound: Vec<Option<&'a Item>>,
    depth: usize,
    kinds: &'static Registry,
}

impl<'a> Args<'a> {
    pub(crate) fn bind(
        call: &'a Call,
        at: &'a At,
        depth: usize,
        kinds: &'static Registry,
    ) -> Result<Args<'a>, Bad> {
        let name = call.name.as_str();
        let params = (kinds.params_of)(name).ok_or_else(|| {
            bad(
                at,
                format!(
                    "unknown function `{name}` (expected one of: {})",
                    (kinds.function_names)()
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
            depth,
            kinds,
        })
    }

    /// The kinds' table the call was bound by.
    pub fn kinds(&self) -> &'static Registry {
        self.kinds
    }

    pub fn get(&self, p: &str) -> Option<&'a Item> {
        let k = self
            .params
            .iter()
            .position(|q| *q == p)
            .expect("known parameter");
        self.bound[k]
    }

    pub fn need(&self, p: &str) -> Result<&'a Item, Bad> {
        self.get(p)
            .ok_or_else(|| bad(self.at, format!("{} needs the argument `{p}`", self.name)))
    }

    /// The field argument `p`.
    pub fn field(&self, p: &str) -> Result<Box<Graph>, Bad> {
        self.graph(self.need(p)?).map(Box::new)
    }

    /// An item of this call (a list's element) as a field.
    pub fn graph(&self, item: &Item) -> Result<Graph, Bad> {
        to_graph_at(item, self.depth + 1, self.kinds)
    }

    /// The call's depth in the graph.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The number argument `p`, which must be given.
    pub fn number(&self, p: &str) -> Result<f64, Bad> {
        number(self.need(p)?, self.name, p)
    }

    pub fn num(&self, p: &str) -> Result<Option<f64>, Bad> {
        self.get(p).map(|i| number(i, self.name, p)).transpose()
    }

    pub fn num_or(&self, p: &str, d: f64) -> Result<f64, Bad> {
        Ok(self.num(p)?.unwrap_or(d))
    }

    pub fn word(&self, p: &str) -> Result<Option<(&'a str, &'a At)>, Bad> {
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

    pub fn flag(&self, p: &str) -> Result<Option<bool>, Bad> {
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

    pub fn list(&self, p: &str) -> Result<Option<(&'a [Item], &'a At)>, Bad> {
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

    pub fn numbers(&self, p: &str) -> Result<Option<Vec<f64>>, Bad> {
        self.list(p)?
            .map(|(v, _)| v.iter().map(|i| number(i, self.name, p)).collect())
            .transpose()
    }

    pub fn whole(&self, p: &str) -> Result<Option<u64>, Bad> {
        self.get(p).map(|i| whole(i, self.name, p)).transpose()
    }
}

pub(crate) fn number(i: &Item, f: &str, p: &str) -> Result<f64, Bad> {
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
pub(crate) fn whole(i: &Item, f: &str, p: &str) -> Result<u64, Bad> {
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
pub(crate) fn to_graph(item: &Item, kinds: &'static Registry) -> Result<Graph, Bad> {
    to_graph_at(item, 1, kinds)
}

fn to_graph_at(item: &Item, depth: usize, kinds: &'static Registry) -> Result<Graph, Bad> {
    if depth > MAX_DEPTH {
        return Err(bad(
            &item.at,
            format!("the graph is deeper than {MAX_DEPTH} nodes"),
        ));
    }
    match &item.val {
        Val::Num(v, _) => {
            if v.is_finite() {
                Ok(Graph::Const(*v))
            } else {
                Err(bad(&item.at, format!("a constant must be finite, not {v}")))
            }
        }
        Val::Call(c) => (kinds.read)(&Args::bind(c, &item.at, depth, kinds)?),
        Val::Stack(s) => (kinds.check_table)(s, &item.at),
        _ => Err(bad(
            &item.at,
            format!(
                "expected a field (a call or a number), found {}",
                item.what()
            ),
        )),
    }
}

/// How a graph is written as a description.
#[derive(Clone, Copy)]
pub(crate) struct Writer {
    /// Stacks as stack tables (a config's form), not as calls.
    pub tables: bool,
    /// The kinds' table, which writes each node.
    pub kinds: &'static Registry,
}

impl Writer {
    /// A field input as a description.
    pub fn graph(self, g: &Graph) -> Result<Item, Error> {
        (self.kinds.write)(g, self)
    }

    /// A call of `K` with these arguments, named except the leading ones
    /// that `K` prints positionally (while they are in parameter order).
    pub fn call<K: Signature>(self, args: Vec<(&str, Item)>) -> Item {
        let args = args
            .into_iter()
            .enumerate()
            .map(|(k, (p, item))| {
                let positional = k < K::POSITIONAL && K::PARAMS.get(k) == Some(&p);
                Arg::new((!positional).then(|| p.to_string()), item)
            })
            .collect();
        Item::call(K::NAME, args)
    }
}

/// A named argument.
pub(crate) fn named(name: &str, item: Item) -> Arg {
    Arg::new(Some(name.to_string()), item)
}

/// A list of numbers as an item.
pub(crate) fn nums(v: &[f64]) -> Item {
    Item::list(v.iter().map(|&x| Item::num(x)).collect())
}

/// A whole number as an item (its text exact).
pub(crate) fn int(v: u64) -> Item {
    Item {
        val: Val::Num(v as f64, v.to_string()),
        at: At::Key(String::new()),
    }
}
