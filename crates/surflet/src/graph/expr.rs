//! The expression language's parser (feature `expr`), written with `pest`.
//!
//! ```text
//! expr   = term (("+" | "-") term)*
//! term   = unary (("*" | "/") unary)*
//! unary  = "-"* atom
//! atom   = number | call | list | string | word | "(" expr ")"
//! call   = name "(" [arg ("," arg)* [","]] ")"
//! arg    = [name "="] expr
//! list   = "[" [expr ("," expr)* [","]] "]"
//! ```
//!
//! A minus sign directly before a number is part of the number (`-1` is the
//! constant −1; `-(1)` negates the constant 1), which is what lets the
//! printer's output parse back to the same graph.

use crate::prelude_internal::*;
use pest::Parser as _;
use pest::iterators::Pair;

use super::ast::{Graph, MAX_DEPTH};
use super::call::{Arg, At, Bad, Call, Item, Val};
use super::registry::to_graph;
use crate::error::Error;

#[derive(pest_derive::Parser)]
#[grammar_inline = r#"
WHITESPACE = _{ " " | "\t" | "\r" | "\n" }
main   = { SOI ~ expr ~ EOI }
expr   = { term ~ (add_op ~ term)* }
term   = { unary ~ (mul_op ~ unary)* }
unary  = { neg* ~ atom }
neg    = { "-" }
add_op = { "+" | "-" }
mul_op = { "*" | "/" }
atom   = { number | call | list | string | word | "(" ~ expr ~ ")" }
call   = { name ~ "(" ~ (arg ~ ("," ~ arg)* ~ ","?)? ~ ")" }
arg    = { (name ~ "=")? ~ expr }
list   = { "[" ~ (expr ~ ("," ~ expr)* ~ ","?)? ~ "]" }
number = @{ (ASCII_DIGIT+ ~ ("." ~ ASCII_DIGIT*)? | "." ~ ASCII_DIGIT+) ~ (^"e" ~ ("+" | "-")? ~ ASCII_DIGIT+)? }
name   = @{ (ASCII_ALPHA | "_") ~ (ASCII_ALPHANUMERIC | "_")* }
word   = { name }
string = ${ "\"" ~ text ~ "\"" }
text   = @{ (!"\"" ~ ANY)* }
"#]
struct ExprParser;

/// Brackets may nest this deep (a graph of [`MAX_DEPTH`] nodes needs fewer);
/// checked before parsing, so that no input can exhaust the stack.
const MAX_NESTING: usize = 2 * MAX_DEPTH;

impl Graph {
    /// Parses an expression.
    ///
    /// The grammar: calls with positional and named arguments
    /// (`fbm(simplex(seed=1), octaves=6)`), numbers, `+ - * /`, unary minus,
    /// parentheses, lists `[1, 2]` and words or strings for names
    /// (`distance=manhattan`, `return="f2-f1"`). The functions are the
    /// noises (`value`, `perlin`, `simplex`, `simplex_value`, `opensimplex2`,
    /// `opensimplex2s`, `cellular`: arguments `seed`, `frequency`, `period`,
    /// `offset`, and for cellular `distance`, `return`, `jitter`), the
    /// fractals
    /// (`fbm`, `ridged`, `billow`, `turbulence`, `hybrid` of a noise:
    /// `octaves`, `lacunarity`, `gain`, `amplitude`, `normalize`, `offset`,
    /// `weight`), `warp` (of a noise or fractal: `amplitude`, `kind`,
    /// `noise`, `seed`, `frequency`, and its own `fractal` with `octaves`...)
    /// and every combinator of [`Graph`].
    ///
    /// Errors ([`Error::Expression`]) give the column and a caret under the
    /// fault:
    ///
    /// ```
    /// use surflet::graph::Graph;
    /// let e = Graph::parse("fbm(simplx(seed=1))").unwrap_err();
    /// assert!(e.to_string().starts_with("unknown function `simplx`"));
    /// assert!(e.to_string().ends_with("fbm(simplx(seed=1))\n    ^^^^^^^^^^^^^^"));
    /// ```
    pub fn parse(text: &str) -> Result<Graph, Error> {
        let item = parse_item(text).map_err(|b| expression_error(text, b))?;
        to_graph(&item).map_err(|b| expression_error(text, b))
    }
}

/// Parses `text` into the description tree.
pub(crate) fn parse_item(text: &str) -> Result<Item, Bad> {
    check_nesting(text)?;
    let mut pairs = ExprParser::parse(Rule::main, text).map_err(|e| syntax(e, text))?;
    let main = pairs.next().expect("main");
    let expr = main.into_inner().next().expect("expr");
    Ok(expr_item(expr)?.0)
}

fn check_nesting(text: &str) -> Result<(), Bad> {
    let mut depth = 0usize;
    let mut quoted = false;
    for (k, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '(' | '[' if !quoted => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(Bad {
                        at: At::Span(k, k + 1),
                        msg: format!("brackets nested deeper than {MAX_NESTING}"),
                    });
                }
            }
            ')' | ']' if !quoted => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

fn rule_name(r: &Rule) -> &'static str {
    match r {
        Rule::expr | Rule::term | Rule::unary | Rule::atom | Rule::arg => {
            "a number, a call, a list or `(`"
        }
        Rule::add_op => "`+` or `-`",
        Rule::mul_op => "`*` or `/`",
        Rule::neg => "`-`",
        Rule::call => "a call",
        Rule::list => "a list",
        Rule::number => "a number",
        Rule::name | Rule::word => "a name",
        Rule::string | Rule::text => "a string",
        Rule::EOI => "the end of the expression",
        _ => "something else",
    }
}

/// The bracket still open at byte `pos` of `text`, innermost first: its
/// position and what closes it there (pest names only rules in its
/// expectations, never the literal `,`, `)` or `]` that would also do).
fn open_bracket(text: &str, pos: usize) -> Option<(usize, &'static str)> {
    let mut open = Vec::new();
    let mut quoted = false;
    for (k, c) in text[..pos.min(text.len())].char_indices() {
        match c {
            '"' => quoted = !quoted,
            '(' | '[' if !quoted => open.push(k),
            ')' | ']' if !quoted => {
                open.pop();
            }
            _ => {}
        }
    }
    let k = *open.last()?;
    let call = text[..k]
        .trim_end()
        .ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
    let closer = match (&text[k..=k], call) {
        ("[", _) => "`,` or `]`",
        (_, true) => "`,` or `)`",
        _ => "`)`",
    };
    Some((k, closer))
}

fn syntax(e: pest::error::Error<Rule>, text: &str) -> Bad {
    let pos = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let msg = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<&str> = positives.iter().map(rule_name).collect();
            names.dedup();
            let mut seen = Vec::new();
            names.retain(|n| {
                let new = !seen.contains(n);
                seen.push(*n);
                new
            });
            // A bracket left open: the literal that closes it is expected
            // too, and said first when the text ends there.
            let close = open_bracket(text, pos).map(|(k, closer)| {
                let column = text[..k].chars().count() + 1;
                format!(
                    "{closer} to close the `{}` at column {column}",
                    &text[k..=k]
                )
            });
            match (names.is_empty(), close) {
                (true, None) => "syntax error".to_string(),
                (true, Some(close)) => format!("expected {close}"),
                (false, Some(close)) if pos >= text.trim_end().len() => {
                    format!("expected {close}, or {}", names.join(", or "))
                }
                (false, Some(close)) => format!("expected {}, or {close}", names.join(", or ")),
                (false, None) => format!("expected {}", names.join(", or ")),
            }
        }
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    Bad {
        at: At::Span(pos, pos + 1),
        msg,
    }
}

fn span(p: &Pair<'_, Rule>) -> At {
    let s = p.as_span();
    At::Span(s.start(), s.end())
}

fn too_deep(at: At) -> Bad {
    Bad {
        at,
        msg: format!("the graph is deeper than {MAX_DEPTH} nodes"),
    }
}

/// An item and its depth in nodes.
type Made = (Item, usize);

fn join(at: &At, a: &At) -> At {
    match (at, a) {
        (At::Span(s, _), At::Span(_, e)) => At::Span(*s, *e),
        _ => at.clone(),
    }
}

fn binary(name: &str, a: Made, b: Made) -> Result<Made, Bad> {
    let at = join(&a.0.at, &b.0.at);
    let depth = 1 + a.1.max(b.1);
    if depth > MAX_DEPTH {
        return Err(too_deep(at));
    }
    let args = vec![Arg::new(None, a.0), Arg::new(None, b.0)];
    Ok((
        Item {
            val: Val::Call(Call {
                name: name.to_string(),
                args,
            }),
            at,
        },
        depth,
    ))
}

fn expr_item(p: Pair<'_, Rule>) -> Result<Made, Bad> {
    // expr and term: left-associative chains.
    let mut inner = p.into_inner();
    let first = inner.next().expect("operand");
    let mut acc = operand(first)?;
    while let Some(op) = inner.next() {
        let rhs = operand(inner.next().expect("operand"))?;
        let name = match op.as_str() {
            "+" => "add",
            "-" => "sub",
            "*" => "mul",
            _ => "div",
        };
        acc = binary(name, acc, rhs)?;
    }
    Ok(acc)
}

fn operand(p: Pair<'_, Rule>) -> Result<Made, Bad> {
    match p.as_rule() {
        Rule::term => expr_item(p),
        Rule::unary => unary(p),
        r => unreachable!("operand {r:?}"),
    }
}

fn unary(p: Pair<'_, Rule>) -> Result<Made, Bad> {
    let at = span(&p);
    let parts: Vec<Pair<'_, Rule>> = p.into_inner().collect();
    let (negs, atom) = parts.split_at(parts.len() - 1);
    let atom = atom[0].clone();
    let mut negs: Vec<usize> = negs.iter().map(|n| n.as_span().start()).collect();
    // The atom's one child: number, call, list, string, word or expr.
    let child = atom.into_inner().next().expect("atom");
    let mut made = match child.as_rule() {
        Rule::number => {
            let mut text = child.as_str().to_string();
            let mut start = child.as_span().start();
            // A minus directly before a number belongs to it.
            if let Some(s) = negs.pop() {
                text.insert(0, '-');
                start = s;
            }
            let v: f64 = text.parse().map_err(|_| Bad {
                at: span(&child),
                msg: format!("`{text}` is not a number"),
            })?;
            (
                Item {
                    val: Val::Num(v, text),
                    at: At::Span(start, child.as_span().end()),
                },
                1,
            )
        }
        Rule::call => call(child)?,
        Rule::list => list(child)?,
        Rule::string => {
            let text = child.into_inner().next().expect("text");
            (
                Item {
                    val: Val::Word(text.as_str().to_string()),
                    at: span(&text),
                },
                1,
            )
        }
        Rule::word => (
            Item {
                val: Val::Word(child.as_str().to_string()),
                at: span(&child),
            },
            1,
        ),
        Rule::expr => expr_item(child)?,
        r => unreachable!("atom {r:?}"),
    };
    while let Some(s) = negs.pop() {
        let end = match made.0.at {
            At::Span(_, e) => e,
            _ => s + 1,
        };
        made.1 += 1;
        if made.1 > MAX_DEPTH {
            return Err(too_deep(at));
        }
        made.0 = Item {
            val: Val::Call(Call {
                name: "neg".into(),
                args: vec![Arg::new(None, made.0)],
            }),
            at: At::Span(s, end),
        };
    }
    Ok(made)
}

fn call(p: Pair<'_, Rule>) -> Result<Made, Bad> {
    let at = span(&p);
    let mut inner = p.into_inner();
    let name = inner.next().expect("name");
    let mut args = Vec::new();
    let mut depth = 1;
    for arg in inner {
        let whole = span(&arg);
        let mut parts: Vec<Pair<'_, Rule>> = arg.into_inner().collect();
        let value = parts.pop().expect("expr");
        let arg_name = parts.pop().map(|n| n.as_str().to_string());
        let (item, d) = expr_item(value)?;
        depth = depth.max(1 + d);
        args.push(Arg {
            name: arg_name,
            item,
            at: whole,
        });
    }
    if depth > MAX_DEPTH {
        return Err(too_deep(at));
    }
    Ok((
        Item {
            val: Val::Call(Call {
                name: name.as_str().to_string(),
                args,
            }),
            at,
        },
        depth,
    ))
}

fn list(p: Pair<'_, Rule>) -> Result<Made, Bad> {
    let at = span(&p);
    let mut items = Vec::new();
    let mut depth = 1;
    for e in p.into_inner() {
        let (item, d) = expr_item(e)?;
        depth = depth.max(d);
        items.push(item);
    }
    Ok((
        Item {
            val: Val::List(items),
            at,
        },
        depth,
    ))
}

/// An [`Error::Expression`] for `b` in `text`.
pub(crate) fn expression_error(text: &str, b: Bad) -> Error {
    let (start, end) = match b.at {
        At::Span(s, e) => (s.min(text.len()), e.min(text.len())),
        At::Key(_) => (0, text.len()),
    };
    // A span one byte past a fault can end inside a multi-byte character
    // (the `expr` fuzz target found `perlinҚ`): widen it to the character.
    let whole = |mut k: usize| {
        while !text.is_char_boundary(k) {
            k += 1;
        }
        k
    };
    let (start, end) = (whole(start), whole(end));
    // The line holding the fault, and the caret under it (in characters).
    let line_start = text[..start].rfind('\n').map_or(0, |k| k + 1);
    let line_end = text[start..].find('\n').map_or(text.len(), |k| start + k);
    let line = &text[line_start..line_end];
    let column = text[line_start..start].chars().count() + 1;
    let width = text[start..end.max(start).min(line_end)]
        .chars()
        .count()
        .max(1);
    Error::Expression {
        column,
        message: b.msg,
        snippet: format!("{line}\n{}{}", " ".repeat(column - 1), "^".repeat(width)),
    }
}
