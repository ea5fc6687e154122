//! The expression printer: a graph as the expression language writes it,
//! which [`Graph::parse`](super::Graph::parse) reads back to the same graph.

use crate::prelude_internal::*;
use core::fmt::Write;

use super::ast::Graph;
use super::call::{Item, Val};
use super::registry::from_graph;
use crate::error::Error;

/// Binding strength: sums 1, products 2, unary minus 3, atoms 4.
fn level(i: &Item) -> u8 {
    match &i.val {
        Val::Call(c) => match c.name.as_str() {
            "add" | "sub" if positional(c) => 1,
            "mul" | "div" if positional(c) => 2,
            "neg" if positional(c) => 3,
            _ => 4,
        },
        Val::Num(v, _) if v.is_sign_negative() => 3,
        _ => 4,
    }
}

fn positional(c: &super::call::Call) -> bool {
    c.args.iter().all(|a| a.name.is_none())
}

fn is_ident(w: &str) -> bool {
    let mut ch = w.chars();
    ch.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && ch.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn write_item(out: &mut String, i: &Item) {
    match &i.val {
        Val::Num(_, text) => out.push_str(text),
        Val::Word(w) => {
            if is_ident(w) {
                out.push_str(w);
            } else {
                let _ = write!(out, "\"{w}\"");
            }
        }
        Val::List(v) => {
            out.push('[');
            for (k, x) in v.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                write_item(out, x);
            }
            out.push(']');
        }
        Val::Stack(s) => write_item(out, &super::kinds::stack::stack_item(s)),
        Val::Call(c) => {
            let infix = match c.name.as_str() {
                "add" => Some(("+", 1)),
                "sub" => Some(("-", 1)),
                "mul" => Some(("*", 2)),
                "div" => Some(("/", 2)),
                _ => None,
            };
            if let (Some((op, lv)), true) = (infix, positional(c) && c.args.len() == 2) {
                // Left-associative: the right operand needs parentheses at
                // the same level (`a - (b - c)`).
                let (a, b) = (&c.args[0].item, &c.args[1].item);
                paren(out, a, level(a) < lv);
                let _ = write!(out, " {op} ");
                paren(out, b, level(b) <= lv);
                return;
            }
            if c.name == "neg" && positional(c) && c.args.len() == 1 {
                let x = &c.args[0].item;
                out.push('-');
                // `-(1.0)` is a negation node, `-1.0` a negative constant.
                paren(out, x, level(x) < 4 || matches!(x.val, Val::Num(..)));
                return;
            }
            out.push_str(&c.name);
            out.push('(');
            for (k, a) in c.args.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                if let Some(n) = &a.name {
                    out.push_str(n);
                    out.push('=');
                }
                write_item(out, &a.item);
            }
            out.push(')');
        }
    }
}

fn paren(out: &mut String, i: &Item, wrap: bool) {
    if wrap {
        out.push('(');
        write_item(out, i);
        out.push(')');
    } else {
        write_item(out, i);
    }
}

impl Graph {
    /// The graph in the expression language. Fails only for a graph with a
    /// [custom](Graph::custom) field, which has no written form; the
    /// [`Display`](core::fmt::Display) impl writes `custom("name")` there
    /// instead.
    ///
    /// ```
    /// use surflet::graph::Graph;
    /// let g = Graph::parse("(perlin(seed=2) + 1) * 0.5")?;
    /// assert_eq!(g.to_expr()?, "(perlin(seed=2) + 1.0) * 0.5");
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn to_expr(&self) -> Result<String, Error> {
        let item = from_graph(self)?;
        let mut s = String::new();
        write_item(&mut s, &item);
        Ok(s)
    }
}

impl core::fmt::Display for Graph {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.to_expr() {
            Ok(s) => f.write_str(&s),
            Err(_) => f.write_str("custom(...)"),
        }
    }
}
