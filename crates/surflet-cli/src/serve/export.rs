//! A resolved config as everything the page exports: TOML, JSON, the
//! expression, and a `surflet render` command line.
//!
//! The command is checked before it is offered: it is parsed as the binary
//! would parse it and resolved again, and must give the same config. A
//! render is a function of its config, size and format, so the command
//! then renders the same pixels.

use serde_json::{Value, json};
use surflet::Graph;
use surflet::graph::CallTree;

use crate::document::{Document, RangeSpec};
use crate::imaging::color::NormalFormat;
use crate::render::{self, Mode};
use crate::stack_args;

/// What `POST /api/export` answers.
pub fn all(doc: &Document) -> Result<Value, String> {
    let graph = doc
        .graph
        .clone()
        .unwrap_or_else(|| Graph::stack(doc.stack.clone()));
    let expr = graph.to_expr().ok();
    let tree = graph.call_tree().ok().map(|t| tree_json(&t));
    let json_text = doc.to_json().map_err(|e| e.to_string())?;
    let (command, note) = match command(doc) {
        Ok(c) => (Some(c), None),
        Err(e) => (None, Some(e)),
    };
    Ok(json!({
        "toml": doc.to_toml().map_err(|e| e.to_string())?,
        "json": json_text,
        "config": serde_json::from_str::<Value>(&json_text).map_err(|e| e.to_string())?,
        "expr": expr,
        "tree": tree,
        "command": command,
        "command_note": note,
    }))
}

/// A graph's calls as the node editor reads them: `{"call": name, "args":
/// [[name or null, value], ...]}`, `{"num": value, "text": digits}`,
/// `{"word": w}`, `{"list": [...]}`.
fn tree_json(t: &CallTree) -> Value {
    match t {
        CallTree::Call { name, args } => json!({
            "call": name,
            "args": args.iter().map(|(n, v)| json!([n, tree_json(v)])).collect::<Vec<_>>(),
        }),
        CallTree::Number(v, text) => json!({"num": v, "text": text}),
        CallTree::Word(w) => json!({ "word": w }),
        CallTree::List(items) => json!({ "list": items.iter().map(tree_json).collect::<Vec<_>>() }),
    }
}

/// The output file the command writes.
const OUTPUT: &str = "noise.png";

/// A `surflet render` command that reproduces `doc`, checked.
pub fn command(doc: &Document) -> Result<String, String> {
    let args = arguments(doc)?;
    let strs: Vec<&str> = std::iter::once(OUTPUT)
        .chain(args.iter().map(String::as_str))
        .collect();
    let parsed = crate::parse_render(&strs)?;
    let again = render::resolve(&parsed)?;
    if again != *doc {
        return Err(
            "this config has keys that no flag sets; render it with --config and the TOML above"
                .into(),
        );
    }
    Ok(std::iter::once("surflet render".to_string())
        .chain(strs.iter().map(|s| quote(s)))
        .collect::<Vec<_>>()
        .join(" "))
}

/// `s` quoted for a POSIX shell where it needs it.
fn quote(s: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./,:=+#".contains(c);
    if !s.is_empty() && s.chars().all(plain) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The flags for `doc` (without OUTPUT).
fn arguments(doc: &Document) -> Result<Vec<String>, String> {
    let mut a: Vec<String> = Vec::new();
    if let Some(g) = &doc.graph {
        flag(&mut a, "--expr", g.to_expr().map_err(|e| e.to_string())?);
    } else {
        // The warp fractal's amplitude, offset, weight and normalisation
        // have no flags: a config that sets them gets no command (the check
        // in `command` finds the difference).
        a.extend(stack_args::command_line(&doc.stack));
    }
    let v = &doc.view;
    if let Some([w, h]) = v.size {
        flag(&mut a, "--size", format!("{w}x{h}"));
    }
    if let Some([x, y]) = v.origin
        && [x, y] != [0.0, 0.0]
    {
        flag(&mut a, "--origin", format!("{x},{y}"));
    }
    if let Some([sx, sy]) = v.scale {
        flag(&mut a, "--scale", format!("{sx},{sy}"));
    }
    if let Some(d) = v.dims
        && d != 2
    {
        flag(&mut a, "--dims", d.to_string());
    }
    if let Some(z) = v.z {
        flag(&mut a, "--z", z.to_string());
    }
    if let Some(w) = v.w {
        flag(&mut a, "--w", w.to_string());
    }
    if v.antialias == Some(true) {
        a.push("--antialias".into());
    }
    let p = &doc.pixels;
    if let Some(mode) = p.mode
        && mode != Mode::Gray
    {
        flag(&mut a, "--mode", mode.name().to_string());
    }
    if let Some(r) = &p.ramp {
        flag(&mut a, "--ramp", r.clone());
    }
    match p.range {
        Some(RangeSpec::Fixed(lo, hi)) => flag(&mut a, "--range", format!("{lo},{hi}")),
        Some(RangeSpec::Auto) => a.push("--auto-range".into()),
        Some(RangeSpec::Documented) | None => {}
    }
    if let Some(s) = p.normal_strength {
        flag(&mut a, "--normal-strength", s.to_string());
    }
    if let Some(f) = p.normal_format
        && f != NormalFormat::OpenGl
    {
        flag(&mut a, "--normal-format", f.name().to_string());
    }
    if doc.animation.frames.is_some_and(|n| n > 1) {
        return Err("the command line for animations is not generated here".into());
    }
    Ok(a)
}

fn flag(a: &mut Vec<String>, name: &str, value: String) {
    a.push(name.to_string());
    a.push(value);
}
