//! The TOML and JSON forms of a [`Stack`] (feature `serde`): one reader and
//! one writer that walk the key table ([`super::keys`]), each key's value
//! read by its type and checked against its range while the document is
//! read, so that an error names its key (and, in TOML, its line).

use crate::prelude_internal::*;
use serde::de::{self, Deserializer, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use super::desc::{Stack, at};
use super::keys::{self, KEYS, KeyType, TABLES, Value};
use crate::cellular::{CellularDistance, CellularReturn};
use crate::error::Error;
use crate::fractal::FractalKind;
use crate::noise::NoiseKind;
use crate::warp::WarpKind;

impl Serialize for NoiseKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl Serialize for CellularDistance {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for CellularDistance {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        CellularDistance::from_name(&name).map_err(de::Error::custom)
    }
}

impl Serialize for CellularReturn {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for CellularReturn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        CellularReturn::from_name(&name).map_err(de::Error::custom)
    }
}

impl<'de> Deserialize<'de> for NoiseKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        NoiseKind::from_name(&name).map_err(de::Error::custom)
    }
}

/// Seeds: TOML integers stop at 2^63 − 1, so larger seeds are written as
/// decimal strings; either form (and `"0x…"` hex strings) is read back.
mod seed_format {
    use super::*;

    pub fn serialize<S: Serializer>(seed: &u64, s: S) -> Result<S::Ok, S::Error> {
        match i64::try_from(*seed) {
            Ok(v) => s.serialize_i64(v),
            Err(_) => s.serialize_str(&seed.to_string()),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        d.deserialize_any(SeedVisitor)
    }

    struct SeedVisitor;

    impl Visitor<'_> for SeedVisitor {
        type Value = u64;

        fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.write_str("a seed: an integer in -9223372036854775808..=18446744073709551615, or one in a string")
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
            Ok(v)
        }

        /// A negative seed n is the seed 2^64 + n (the same two's-complement
        /// bits), as on the command line and in `Noise(seed=-1)`.
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
            Ok(v as u64)
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<u64, E> {
            let t = v.trim();
            let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                Some(hex) => u64::from_str_radix(hex, 16),
                None if t.starts_with('-') => t.parse::<i64>().map(|n| n as u64),
                None => t.parse::<u64>(),
            };
            parsed.map_err(|_| E::custom(format!("not a seed: {v:?}")))
        }
    }
}

/// An empty document: almost always a wrong or truncated file, so it is
/// refused rather than read as "all defaults" (which `Stack::default()`
/// spells out explicitly, with at least `noise`, `seed` and `frequency`).
fn empty_stack() -> Error {
    at(
        "",
        "empty noise stack: the document has no keys (write at least `noise = \"simplex\"`)",
    )
}

impl Stack {
    /// Parses a TOML description and [checks](Self::check) it. An empty
    /// document is an error, not a default stack:
    ///
    /// ```
    /// use surflet::Stack;
    /// let err = Stack::from_toml_str("# nothing here\n").unwrap_err();
    /// assert!(err.to_string().starts_with("empty noise stack"));
    /// assert!(Stack::from_json_str("{}").is_err());
    /// ```
    pub fn from_toml_str(text: &str) -> Result<Stack, Error> {
        let table: toml::Table = text.parse().map_err(|e| at("", e))?;
        if table.is_empty() {
            return Err(empty_stack());
        }
        let de = toml::Deserializer::parse(text).map_err(|e| at("", e))?;
        let stack: Stack = serde_path_to_error::deserialize(de).map_err(path_error)?;
        stack.check()?;
        Ok(stack)
    }

    /// Parses a JSON description and [checks](Self::check) it. Like TOML, an
    /// empty document (`{}`) is an error.
    pub fn from_json_str(text: &str) -> Result<Stack, Error> {
        if serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(text)
            .is_ok_and(|m| m.is_empty())
        {
            return Err(empty_stack());
        }
        let mut de = serde_json::Deserializer::from_str(text);
        let stack: Stack = serde_path_to_error::deserialize(&mut de).map_err(path_error)?;
        de.end().map_err(|e| at("", e))?;
        stack.check()?;
        Ok(stack)
    }

    /// Reads a description from a file: JSON if the name ends in `.json`,
    /// TOML otherwise.
    pub fn from_file(path: impl AsRef<std::path::Path>) -> Result<Stack, Error> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|e| at("", format!("cannot read {}: {e}", path.display())))?;
        let json = path
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("json"));
        if json {
            Stack::from_json_str(&text)
        } else {
            Stack::from_toml_str(&text)
        }
    }

    /// The description as TOML; [`from_toml_str`](Self::from_toml_str) reads
    /// it back unchanged.
    pub fn to_toml_string(&self) -> Result<String, Error> {
        toml::to_string(self).map_err(|e| at("", e))
    }

    /// The description as pretty-printed JSON;
    /// [`from_json_str`](Self::from_json_str) reads it back unchanged.
    pub fn to_json_string(&self) -> Result<String, Error> {
        serde_json::to_string_pretty(self).map_err(|e| at("", e))
    }
}

fn path_error<E: core::fmt::Display>(e: serde_path_to_error::Error<E>) -> Error {
    let key = e.path().to_string();
    let key = if key == "." { String::new() } else { key };
    at(key, e.into_inner())
}

/// A key's value as its type writes it.
struct Out<'a>(&'a Value);

impl Serialize for Out<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Noise(k) => s.serialize_str(k.name()),
            Value::Seed(v) => seed_format::serialize(v, s),
            Value::Number(x) => s.serialize_f64(*x),
            Value::Count(n) => s.serialize_u32(*n),
            Value::Periods(p) => p.serialize(s),
            Value::Offsets(o) => o.serialize(s),
            Value::Fractal(k) => s.serialize_str(k.name()),
            Value::Warp(k) => s.serialize_str(k.name()),
            Value::Distance(d) => s.serialize_str(d.name()),
            Value::Return(r) => s.serialize_str(r.name()),
            Value::Bool(b) => s.serialize_bool(*b),
        }
    }
}

/// The keys of `table` that `stack` has, then its sub-tables, as a map.
struct TableOut<'a> {
    stack: &'a Stack,
    table: &'static str,
}

impl Serialize for TableOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        for key in KEYS.iter().filter(|k| k.table() == self.table) {
            if let Some(v) = (key.get)(self.stack) {
                m.serialize_entry(key.name(), &Out(&v))?;
            }
        }
        for sub in TABLES.iter().filter(|t| parent(t) == self.table) {
            if keys::has_table(self.stack, sub) {
                m.serialize_entry(
                    last(sub),
                    &TableOut {
                        stack: self.stack,
                        table: sub,
                    },
                )?;
            }
        }
        m.end()
    }
}

/// The table holding `table` (`""` for a top-level one).
fn parent(table: &str) -> &str {
    table.rsplit_once('.').map_or("", |(p, _)| p)
}

/// The name of `table` within its parent.
fn last(table: &str) -> &str {
    table.rsplit_once('.').map_or(table, |(_, n)| n)
}

impl Serialize for Stack {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        TableOut {
            stack: self,
            table: "",
        }
        .serialize(s)
    }
}

/// Reads one key's value by its type, and checks it against the key's
/// range (inside the value, so that the error has the value's place).
struct ValueSeed(&'static keys::Key);

impl<'de> de::DeserializeSeed<'de> for ValueSeed {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        let named = |d: D| String::deserialize(d);
        let v = match self.0.ty {
            KeyType::Noise => {
                Value::Noise(NoiseKind::from_name(&named(d)?).map_err(de::Error::custom)?)
            }
            KeyType::Seed => Value::Seed(seed_format::deserialize(d)?),
            KeyType::Positive | KeyType::Finite | KeyType::Unit => {
                Value::Number(f64::deserialize(d)?)
            }
            KeyType::Octaves => Value::Count(u32::deserialize(d)?),
            KeyType::Periods => Value::Periods(Vec::<u32>::deserialize(d)?),
            KeyType::Offsets => Value::Offsets(Vec::<f64>::deserialize(d)?),
            KeyType::Fractal => {
                Value::Fractal(FractalKind::from_name(&named(d)?).map_err(de::Error::custom)?)
            }
            KeyType::Warp => {
                Value::Warp(WarpKind::from_name(&named(d)?).map_err(de::Error::custom)?)
            }
            KeyType::Distance => {
                Value::Distance(CellularDistance::from_name(&named(d)?).map_err(de::Error::custom)?)
            }
            KeyType::Return => {
                Value::Return(CellularReturn::from_name(&named(d)?).map_err(de::Error::custom)?)
            }
            KeyType::Bool => Value::Bool(bool::deserialize(d)?),
        };
        self.0.check(&v).map_err(de::Error::custom)?;
        Ok(v)
    }
}

/// A key of a table: a key of the table, or one of its sub-tables.
enum Entry {
    Key(&'static keys::Key),
    Table(&'static str),
}

/// Reads a key's name, refusing one the table does not have (inside the
/// key, so that the error has its place and names it).
struct NameSeed(&'static str);

impl<'de> de::DeserializeSeed<'de> for NameSeed {
    type Value = (String, Entry);
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let name = String::deserialize(d)?;
        let path = if self.0.is_empty() {
            name.clone()
        } else {
            format!("{}.{name}", self.0)
        };
        let entry = if let Some(&sub) = TABLES.iter().find(|t| **t == path) {
            Entry::Table(sub)
        } else if let Some(key) = keys::find(&path) {
            Entry::Key(key)
        } else {
            return Err(de::Error::custom(format!(
                "unknown field `{name}`, expected one of {}",
                expected(self.0)
            )));
        };
        Ok((name, entry))
    }
}

/// Reads a table's keys into a stack: each key's value by its row, checked
/// against its range; an unknown or repeated key is an error.
struct TableSeed<'a> {
    stack: &'a mut Stack,
    table: &'static str,
}

impl<'de> de::DeserializeSeed<'de> for TableSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for TableSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.table.is_empty() {
            f.write_str("a noise stack")
        } else {
            write!(f, "the [{}] table", self.table)
        }
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen: Vec<String> = Vec::new();
        while let Some((name, entry)) = map.next_key_seed(NameSeed(self.table))? {
            if seen.contains(&name) {
                return Err(de::Error::custom(format!("duplicate field `{name}`")));
            }
            match entry {
                Entry::Table(sub) => {
                    keys::add_table(self.stack, sub);
                    map.next_value_seed(TableSeed {
                        stack: &mut *self.stack,
                        table: sub,
                    })?;
                }
                Entry::Key(key) => {
                    let v = map.next_value_seed(ValueSeed(key))?;
                    (key.set)(self.stack, v);
                }
            }
            seen.push(name);
        }
        Ok(())
    }
}

/// The keys and tables `table` may hold, as serde lists them.
fn expected(table: &str) -> String {
    let names: Vec<String> = KEYS
        .iter()
        .filter(|k| k.table() == table)
        .map(|k| k.name())
        .chain(
            TABLES
                .iter()
                .filter(|t| parent(t) == table)
                .map(|t| last(t)),
        )
        .map(|n| format!("`{n}`"))
        .collect();
    names.join(", ")
}

impl<'de> Deserialize<'de> for Stack {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Stack, D::Error> {
        let mut stack = Stack::default();
        de::DeserializeSeed::deserialize(
            TableSeed {
                stack: &mut stack,
                table: "",
            },
            d,
        )?;
        Ok(stack)
    }
}
