//! Graphs in TOML and JSON (feature `serde`).
//!
//! A node is a table. A table with an `op` key is a function of the
//! expression language with every argument named (`a`, `b`, `input`,
//! `control`, `threshold`...); a table without one is a noise stack in the
//! [stack](crate::stack) format, so every stack file is a graph of one
//! node; a bare number is a constant.
//!
//! ```toml
//! op = "select"
//! threshold = 0.0
//! falloff = 0.1
//! control = { noise = "perlin", seed = 3, frequency = 0.25 }
//!
//! [a]                     # a stack
//! noise = "simplex"
//! seed = 1
//! fractal = { kind = "fbm", octaves = 6 }
//!
//! [b]                     # a function
//! op = "mul"
//! a = { noise = "perlin", seed = 2 }
//! b = 0.5
//! ```

use crate::prelude_internal::*;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::ast::Graph;
use super::call::{Arg, At, Bad, Call, Item, Val};
use super::registry::{params_for, to_graph, writer};
use crate::error::Error;
use crate::stack::Stack;

/// How deep a config's tables may nest (a graph of `MAX_DEPTH` nodes needs
/// fewer levels).
const MAX_NESTING: usize = 4 * super::MAX_DEPTH;

fn key(path: &str, k: &str) -> String {
    if path.is_empty() {
        k.to_string()
    } else {
        format!("{path}.{k}")
    }
}

fn bad(path: &str, msg: impl Into<String>) -> Bad {
    Bad {
        at: At::Key(path.to_string()),
        msg: msg.into(),
    }
}

/// A config value as a description item; `path` is its key.
fn item(v: &Value, path: &str, depth: usize) -> Result<Item, Bad> {
    if depth > MAX_NESTING {
        return Err(bad(
            path,
            format!("tables nested deeper than {MAX_NESTING}"),
        ));
    }
    let at = At::Key(path.to_string());
    let val = match v {
        Value::Null => return Err(bad(path, "null is not a value")),
        Value::Bool(b) => Val::Word(if *b { "true" } else { "false" }.into()),
        Value::Number(n) => Val::Num(n.as_f64().unwrap_or(f64::NAN), n.to_string()),
        Value::String(s) => Val::Word(s.clone()),
        Value::Array(a) => Val::List(
            a.iter()
                .enumerate()
                .map(|(k, v)| item(v, &format!("{path}[{k}]"), depth + 1))
                .collect::<Result<_, _>>()?,
        ),
        Value::Object(m) => match m.get("op") {
            None => {
                if m.is_empty() {
                    return Err(bad(
                        path,
                        "an empty table is not a node (write a stack or an `op`)",
                    ));
                }
                let stack: Stack = serde_path_to_error::deserialize(Value::Object(m.clone()))
                    .map_err(|e| {
                        let k = e.path().to_string();
                        let k = if k == "." {
                            path.to_string()
                        } else {
                            key(path, &k)
                        };
                        bad(&k, e.into_inner().to_string())
                    })?;
                Val::Stack(Box::new(stack))
            }
            Some(Value::String(op)) => {
                let mut args = Vec::new();
                for (k, v) in m {
                    if k != "op" {
                        args.push(Arg::new(
                            Some(k.clone()),
                            item(v, &key(path, k), depth + 1)?,
                        ));
                    }
                }
                Val::Call(Call {
                    name: op.clone(),
                    args,
                })
            }
            Some(_) => return Err(bad(&key(path, "op"), "op is a function name")),
        },
    };
    Ok(Item { val, at })
}

/// A description item as a config value: every argument named.
fn value(i: &Item) -> Result<Value, Error> {
    Ok(match &i.val {
        Val::Num(v, text) => {
            if let Ok(u) = text.parse::<u64>() {
                if u > i64::MAX as u64 {
                    // TOML integers are i64: larger seeds are strings, as in
                    // stack files.
                    Value::String(text.clone())
                } else {
                    Value::from(u)
                }
            } else {
                serde_json::Number::from_f64(*v)
                    .map(Value::Number)
                    .ok_or_else(|| Error::Config {
                        key: String::new(),
                        message: format!("{v} has no TOML or JSON form"),
                    })?
            }
        }
        Val::Word(w) => match w.as_str() {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => Value::String(w.clone()),
        },
        Val::List(v) => Value::Array(v.iter().map(value).collect::<Result<_, _>>()?),
        Val::Stack(s) => stack_value(s)?,
        Val::Call(c) => {
            let params = params_for(&c.name);
            let mut m = Map::new();
            m.insert("op".into(), Value::String(c.name.clone()));
            for (k, a) in c.args.iter().enumerate() {
                let name = a.name.clone().unwrap_or_else(|| params[k].to_string());
                m.insert(name, value(&a.item)?);
            }
            Value::Object(m)
        }
    })
}

fn stack_value(s: &Stack) -> Result<Value, Error> {
    serde_json::to_value(s).map_err(|e| Error::Config {
        key: String::new(),
        message: e.to_string(),
    })
}

fn config_error(b: Bad) -> Error {
    Error::Config {
        key: match b.at {
            At::Key(k) => k,
            At::Span(..) => String::new(),
        },
        message: b.msg,
    }
}

impl Graph {
    /// Reads a graph from a config value (a parsed TOML or JSON document,
    /// or a table inside one). Errors name the key.
    pub fn from_json_value(v: &Value) -> Result<Graph, Error> {
        let i = item(v, "", 0).map_err(config_error)?;
        let g = to_graph(&i).map_err(config_error)?;
        Ok(g)
    }

    /// The graph as a config value: stacks as stack tables, other nodes as
    /// tables with `op`, constants as numbers. Fails for a custom field.
    pub fn to_json_value(&self) -> Result<Value, Error> {
        match self {
            Graph::Stack(s) => stack_value(s),
            _ => value(&from_graph_config(self)?),
        }
    }

    /// Parses a TOML graph document. A stack file is a graph of one node.
    ///
    /// ```
    /// use surflet::graph::Graph;
    /// let g = Graph::from_toml_str(r#"
    ///     op = "mul"
    ///     b = 0.5
    ///     [a]
    ///     noise = "perlin"
    ///     seed = 2
    /// "#)?;
    /// assert_eq!(g, Graph::parse("perlin(seed=2) * 0.5")?);
    /// assert_eq!(Graph::from_toml_str(&g.to_toml_string()?)?, g);
    /// assert_eq!(Graph::from_json_str(&g.to_json_string()?)?, g);
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn from_toml_str(text: &str) -> Result<Graph, Error> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| Error::Config {
            key: String::new(),
            message: e.to_string(),
        })?;
        let v = serde_json::to_value(table).map_err(|e| Error::Config {
            key: String::new(),
            message: e.to_string(),
        })?;
        Graph::from_json_value(&v)
    }

    /// Parses a JSON graph document.
    pub fn from_json_str(text: &str) -> Result<Graph, Error> {
        let v: Value = serde_json::from_str(text).map_err(|e| Error::Config {
            key: String::new(),
            message: e.to_string(),
        })?;
        Graph::from_json_value(&v)
    }

    /// The graph as a TOML document.
    pub fn to_toml_string(&self) -> Result<String, Error> {
        let v = self.to_json_value()?;
        if !v.is_object() {
            return Err(Error::Config {
                key: String::new(),
                message: "a TOML document is a table: a constant graph has no TOML form".into(),
            });
        }
        toml::to_string(&v).map_err(|e| Error::Config {
            key: String::new(),
            message: e.to_string(),
        })
    }

    /// The graph as pretty-printed JSON.
    pub fn to_json_string(&self) -> Result<String, Error> {
        serde_json::to_string_pretty(&self.to_json_value()?).map_err(|e| Error::Config {
            key: String::new(),
            message: e.to_string(),
        })
    }
}

/// The description tree with stacks kept as stack tables.
fn from_graph_config(g: &Graph) -> Result<Item, Error> {
    writer(true).graph(g)
}

impl Serialize for Graph {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json_value()
            .map_err(serde::ser::Error::custom)?
            .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Graph {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Graph, D::Error> {
        let v = Value::deserialize(d)?;
        Graph::from_json_value(&v).map_err(serde::de::Error::custom)
    }
}
