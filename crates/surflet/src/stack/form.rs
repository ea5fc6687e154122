//! The TOML and JSON forms of a [`Stack`] (feature `serde`): the parsers
//! and printers, and the per-key checks that run while a document is read,
//! so that an error names its key.

use crate::prelude_internal::*;
use serde::de::{self, Deserializer, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use super::{Stack, at};
use crate::cellular::{Cellular, CellularDistance, CellularReturn};
use crate::error::Error;
use crate::noise::{MAX_PERIOD, NoiseKind};

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

pub(super) fn one() -> f64 {
    1.0
}
pub(super) fn two() -> f64 {
    2.0
}
pub(super) fn half() -> f64 {
    0.5
}
pub(super) fn yes() -> bool {
    true
}

pub(super) fn octaves<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let v = u32::deserialize(d)?;
    if v == 0 || v > crate::fractal::MAX_OCTAVES {
        return Err(de::Error::custom(format!(
            "octaves must be in 1..={}, got {v}",
            crate::fractal::MAX_OCTAVES
        )));
    }
    Ok(v)
}

pub(super) fn positive<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let v = f64::deserialize(d)?;
    if !(v.is_finite() && v > 0.0) {
        return Err(de::Error::custom(format!(
            "must be positive and finite, got {v}"
        )));
    }
    Ok(v)
}

pub(super) fn finite<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let v = f64::deserialize(d)?;
    if !v.is_finite() {
        return Err(de::Error::custom(format!("must be finite, got {v}")));
    }
    Ok(v)
}

pub(super) fn some_jitter<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    let v = f64::deserialize(d)?;
    Cellular::default()
        .with_jitter(v)
        .map_err(|_| de::Error::custom(format!("must be in [0, 1], got {v}")))?;
    Ok(Some(v))
}

pub(super) fn some_positive<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    positive(d).map(Some)
}

pub(super) fn some_finite<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    finite(d).map(Some)
}

pub(super) fn period<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u32>>, D::Error> {
    let v = Vec::<u32>::deserialize(d)?;
    if v.is_empty() || v.len() > 4 {
        return Err(de::Error::custom(format!(
            "must have one entry per dimension (1 to 4), got {}",
            v.len()
        )));
    }
    if let Some(bad) = v.iter().find(|&&p| p == 0 || p > MAX_PERIOD) {
        return Err(de::Error::custom(format!(
            "periods must be in 1..={MAX_PERIOD}, got {bad}"
        )));
    }
    Ok(Some(v))
}

/// The domain offset, refused while reading as `period` is (a `null`
/// included, which would otherwise read as no offset).
pub(super) fn offset<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<f64>>, D::Error> {
    let v = Vec::<f64>::deserialize(d)?;
    if v.is_empty() || v.len() > 4 {
        return Err(de::Error::custom(format!(
            "must have one entry per dimension (1 to 4), got {}",
            v.len()
        )));
    }
    if let Some(bad) = v.iter().find(|x| !x.is_finite()) {
        return Err(de::Error::custom(format!(
            "offsets must be finite, got {bad}"
        )));
    }
    Ok(Some(v))
}

/// Seeds: TOML integers stop at 2^63 − 1, so larger seeds are written as
/// decimal strings; either form (and `"0x…"` hex strings) is read back.
pub(super) mod seed_format {
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

/// [`seed_format`] for an optional seed (only called when the key is
/// present).
pub(super) mod opt_seed {
    use super::*;

    pub fn serialize<S: Serializer>(seed: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        match seed {
            Some(v) => seed_format::serialize(v, s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        seed_format::deserialize(d).map(Some)
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
