//! The graph as a tree of calls, for tools that show it as nodes (the
//! explorer's node editor): each function's signature, and a graph's calls
//! as the expression printer writes them.

use crate::prelude_internal::*;

use super::ast::Graph;
use super::call::{Item, Val};
use super::{kinds, registry};
use crate::error::Error;

/// A function of the expression language: its parameters in order, and
/// which of them take fields (the node's inputs) rather than numbers,
/// lists or words.
///
/// ```
/// use surflet::graph::Signature;
/// let all = Signature::all();
/// let select = all.iter().find(|s| s.name == "select").unwrap();
/// assert_eq!(select.params, ["a", "b", "control", "threshold", "falloff"]);
/// assert_eq!(select.inputs, ["a", "b", "control"]);
/// let fbm = all.iter().find(|s| s.name == "fbm").unwrap();
/// assert_eq!(fbm.inputs, ["input"]);
/// assert!(fbm.params.contains(&"octaves"));
/// let perlin = all.iter().find(|s| s.name == "perlin").unwrap();
/// assert!(perlin.inputs.is_empty() && perlin.params.contains(&"seed"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The function's name.
    pub name: String,
    /// Its parameters, in the order they are given positionally.
    pub params: Vec<&'static str>,
    /// The parameters that take fields (`displace`'s `by`: a list of them).
    pub inputs: Vec<&'static str>,
}

impl Signature {
    /// Every function, in the kinds' table order.
    pub fn all() -> Vec<Signature> {
        kinds::function_list()
            .into_iter()
            .filter_map(|name| {
                Some(Signature {
                    params: kinds::params_of(&name)?,
                    inputs: kinds::inputs_of(&name)?,
                    name,
                })
            })
            .collect()
    }
}

/// A graph as calls: what [`Graph::to_expr`] prints, as a tree.
#[derive(Clone, Debug, PartialEq)]
pub enum CallTree {
    /// `name(args)`; an argument without a name is positional (the
    /// function's first parameters, in order).
    Call {
        /// The function.
        name: String,
        /// Its arguments.
        args: Vec<(Option<String>, CallTree)>,
    },
    /// A number, with its text (a seed past 2^53 keeps its digits).
    Number(f64, String),
    /// A word (`euclidean`) or a boolean (`true`).
    Word(String),
    /// A list.
    List(Vec<CallTree>),
}

impl Graph {
    /// The graph's calls, as [`to_expr`](Self::to_expr) writes them:
    /// `a * b` is `mul(a, b)`, a stack its noise call inside its fractal
    /// and warp calls.
    ///
    /// ```
    /// use surflet::graph::CallTree;
    /// use surflet::Graph;
    /// let g = Graph::parse("fbm(perlin(seed=2), octaves=5) * 0.5")?;
    /// let CallTree::Call { name, args } = g.call_tree()? else { panic!() };
    /// assert_eq!(name, "mul");
    /// let CallTree::Call { name, .. } = &args[0].1 else { panic!() };
    /// assert_eq!(name, "fbm");
    /// assert!(matches!(args[1].1, CallTree::Number(v, _) if v == 0.5));
    /// # Ok::<(), surflet::Error>(())
    /// ```
    ///
    /// Fails on a custom field, which has no call.
    pub fn call_tree(&self) -> Result<CallTree, Error> {
        Ok(tree(&registry::from_graph(self)?))
    }
}

fn tree(i: &Item) -> CallTree {
    match &i.val {
        Val::Num(v, text) => CallTree::Number(*v, text.clone()),
        Val::Word(w) => CallTree::Word(w.clone()),
        Val::List(items) => CallTree::List(items.iter().map(tree).collect()),
        Val::Call(c) => CallTree::Call {
            name: c.name.clone(),
            args: c
                .args
                .iter()
                .map(|a| (a.name.clone(), tree(&a.item)))
                .collect(),
        },
        // The call writer writes stacks as calls, never as tables.
        Val::Stack(_) => unreachable!("a stack table from the call writer"),
    }
}
