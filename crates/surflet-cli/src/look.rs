//! The config file: one document for everything that decides the output
//! except its file format: the noise stack, the view of the plane and the
//! image size (`[view]`), how values become pixels (`[pixels]`) and the animation
//! (`[animation]`).
//!
//! `sample` reads the stack part, `render` all of it. The document carries a
//! version so that files keep their meaning:
//!
//! - version 1 (no `version` key, as the first releases wrote): a bare noise
//!   stack. `render` samples it at one world unit per pixel, as it did then.
//! - version 2 (`version = 2`, what `--save-config` writes): a stack plus the
//!   optional `[view]`, `[pixels]` and `[animation]` tables. A missing
//!   `[view] scale` means 1/64 world unit per pixel, as on the command line.
//!
//! `surflet help config` documents the keys for users.

use std::path::Path;

use clap::ValueEnum;
use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use surflet::{Graph, Stack};

use crate::imaging::color::{NormalFormat, Ramp};
use crate::render::{Mode, TimeAxis};
use crate::units::{Ratio, parse_ratio};

/// The version `--save-config` writes.
pub const VERSION: u32 = 2;

/// The tables a version 2 document may hold besides the stack's keys.
const TABLES: [&str; 3] = ["view", "pixels", "animation"];

/// A config document.
#[derive(Clone, Debug, PartialEq)]
pub struct Look {
    /// 1 for a bare stack (no `version` key), 2 for the current format.
    pub version: u32,
    /// The noise stack.
    pub stack: Stack,
    /// The `[graph]` table: a noise graph, which replaces the stack (a
    /// document has one or the other).
    pub graph: Option<Graph>,
    /// The `[view]` table.
    pub view: View,
    /// The `[pixels]` table.
    pub pixels: PixelSpec,
    /// The `[animation]` table.
    pub animation: Animation,
}

impl Default for Look {
    fn default() -> Look {
        Look {
            version: VERSION,
            stack: Stack::default(),
            graph: None,
            view: View::default(),
            pixels: PixelSpec::default(),
            animation: Animation::default(),
        }
    }
}

/// Which part of the plane the image shows (`[view]`). Every key is
/// optional; `render` fills in its defaults and `--save-config` writes them
/// all.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct View {
    /// The image size the view was made at: the default `--size`, and what
    /// `--same-view` scales from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<[u32; 2]>,
    /// World coordinates of the top-left pixel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<[f64; 2]>,
    /// World units per pixel, across and down.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "scale_format"
    )]
    pub scale: Option<[Ratio; 2]>,
    /// The dimension of the noise, 2 to 4.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dims: Option<u8>,
    /// The z coordinate of the slice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub z: Option<f64>,
    /// The w coordinate of the slice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub w: Option<f64>,
}

/// How values become pixels (`[pixels]`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct PixelSpec {
    /// gray, ramp or normal.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "named")]
    pub mode: Option<Mode>,
    /// A ramp as `--ramp` takes it.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "ramp"
    )]
    pub ramp: Option<String>,
    /// Which values span the pixel range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<RangeSpec>,
    /// The normal map's height scale.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub normal_strength: Option<f64>,
    /// opengl or directx.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "named")]
    pub normal_format: Option<NormalFormat>,
}

/// The `[pixels] range` key: `"documented"`, `"auto"` or `[lo, hi]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RangeSpec {
    /// The field's documented range.
    Documented,
    /// The measured minimum and maximum.
    Auto,
    /// Given.
    Fixed(f64, f64),
}

impl Serialize for RangeSpec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            RangeSpec::Documented => s.serialize_str("documented"),
            RangeSpec::Auto => s.serialize_str("auto"),
            RangeSpec::Fixed(lo, hi) => [lo, hi].serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for RangeSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Name(String),
            Pair(Vec<f64>),
        }
        match Raw::deserialize(d)
            .map_err(|_| de::Error::custom("expected \"documented\", \"auto\" or [LO, HI]"))?
        {
            Raw::Name(n) if n == "documented" => Ok(RangeSpec::Documented),
            Raw::Name(n) if n == "auto" => Ok(RangeSpec::Auto),
            Raw::Name(n) => Err(de::Error::custom(format!(
                "expected \"documented\", \"auto\" or [LO, HI], got {n:?}"
            ))),
            Raw::Pair(p) => match *p.as_slice() {
                [lo, hi] if lo.is_finite() && hi.is_finite() && lo != hi => {
                    Ok(RangeSpec::Fixed(lo, hi))
                }
                _ => Err(de::Error::custom(
                    "expected two different finite numbers [LO, HI]",
                )),
            },
        }
    }
}

/// The animation (`[animation]`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Animation {
    /// Number of frames.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frames: Option<u32>,
    /// z or w.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "named")]
    pub axis: Option<TimeAxis>,
    /// World units per frame.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "ratio_format"
    )]
    pub step: Option<Ratio>,
    /// Whether the time axis is periodic over the frames.
    #[serde(default, rename = "loop", skip_serializing_if = "Option::is_none")]
    pub looped: Option<bool>,
    /// Frames per second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fps: Option<f64>,
}

fn ramp<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let s = String::deserialize(d)?;
    Ramp::parse(&s).map_err(de::Error::custom)?;
    Ok(Some(s))
}

/// Clap value enums by their command-line names.
mod named {
    use super::*;

    pub fn serialize<T: ValueEnum, S: Serializer>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
        let v = v.as_ref().expect("skipped when None");
        let pv = v.to_possible_value().expect("every variant has a name");
        s.serialize_str(pv.get_name())
    }

    pub fn deserialize<'de, T: ValueEnum, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<T>, D::Error> {
        let s = String::deserialize(d)?;
        T::from_str(&s, false).map(Some).map_err(|_| {
            let names: Vec<String> = T::value_variants()
                .iter()
                .filter_map(|v| v.to_possible_value())
                .map(|p| format!("{:?}", p.get_name()))
                .collect();
            de::Error::custom(format!("expected one of {}, got {s:?}", names.join(", ")))
        })
    }
}

/// A ratio as `NUM/DEN`, as configs write a fraction and `--scale` reads it.
#[cfg(feature = "serve")]
pub fn ratio_text(r: Ratio) -> String {
    ratio_format::text(r)
}

/// A ratio as a number, or as a string `"NUM/DEN"` that keeps the two apart
/// so that `i*NUM/DEN` is rounded once, as on the command line.
mod ratio_format {
    use super::*;

    pub fn text(r: Ratio) -> String {
        format!("{}/{}", r.num, r.den)
    }

    pub fn serialize<S: Serializer>(r: &Option<Ratio>, s: S) -> Result<S::Ok, S::Error> {
        let r = r.expect("skipped when None");
        if r.den == 1.0 {
            s.serialize_f64(r.num)
        } else {
            s.serialize_str(&text(r))
        }
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    pub enum Raw {
        Number(f64),
        Text(String),
    }

    impl Raw {
        pub fn ratio<E: de::Error>(self) -> Result<Ratio, E> {
            match self {
                Raw::Number(x) => parse_ratio(&x.to_string()),
                Raw::Text(t) => parse_ratio(&t),
            }
            .map_err(E::custom)
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Ratio>, D::Error> {
        Raw::deserialize(d)
            .map_err(|_| de::Error::custom("expected a number or a fraction like \"1/64\""))?
            .ratio()
            .map(Some)
    }
}

/// A scale: one ratio for both axes, or `[ACROSS, DOWN]`.
mod scale_format {
    use super::ratio_format::{Raw, text};
    use super::*;

    pub fn serialize<S: Serializer>(r: &Option<[Ratio; 2]>, s: S) -> Result<S::Ok, S::Error> {
        let [x, y] = r.expect("skipped when None");
        let one = |r: Ratio| {
            if r.den == 1.0 {
                toml::Value::Float(r.num)
            } else {
                toml::Value::String(text(r))
            }
        };
        if x == y {
            one(x).serialize(s)
        } else {
            [one(x), one(y)].serialize(s)
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<[Ratio; 2]>, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either {
            One(Raw),
            Two(Vec<Raw>),
        }
        let bad = "expected a number, a fraction like \"1/64\", or two of them [ACROSS, DOWN]";
        match Either::deserialize(d).map_err(|_| de::Error::custom(bad))? {
            Either::One(r) => {
                let r = r.ratio()?;
                Ok(Some([r, r]))
            }
            Either::Two(v) if v.len() == 2 => {
                let mut v = v.into_iter();
                let x = v.next().expect("two").ratio()?;
                let y = v.next().expect("two").ratio()?;
                Ok(Some([x, y]))
            }
            Either::Two(_) => Err(de::Error::custom(bad)),
        }
    }
}

fn is_json(path: &Path) -> bool {
    path.extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("json"))
}

/// The library's message for a stack error, without trailing space.
fn stack_error(e: surflet::Error) -> String {
    e.to_string().trim_end().to_string()
}

/// The `graph` table, refusing stack keys beside it (`rest`: the other
/// keys left in the document).
fn graph<'a>(
    v: &serde_json::Value,
    mut rest: impl Iterator<Item = &'a String>,
) -> Result<Graph, String> {
    if let Some(k) = rest.next() {
        return Err(format!(
            "{k}: a document with a [graph] has no stack keys (the graph's stacks hold them)"
        ));
    }
    Graph::from_json_value(v).map_err(|e| {
        let message = e.to_string();
        match e {
            surflet::Error::Config { key, .. } if !key.is_empty() => {
                format!("graph.{}", message.trim_end())
            }
            _ => format!("graph: {}", message.trim_end()),
        }
    })
}

impl Look {
    /// Reads a config file, JSON if its name ends in `.json`, TOML otherwise.
    /// The message names the file, and the key or line at fault.
    pub fn read(path: &Path) -> Result<Look, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the config file {}: {e}", path.display()))?;
        let parsed = if is_json(path) {
            Look::from_json(&text)
        } else {
            Look::from_toml(&text)
        };
        parsed.map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Parses a TOML document.
    pub fn from_toml(text: &str) -> Result<Look, String> {
        let Ok(mut table) = text.parse::<toml::Table>() else {
            // The library's parser names the line of a syntax error.
            return Err(Stack::from_toml_str(text)
                .map_or_else(stack_error, |_| "not a TOML document".to_string()));
        };
        let version = version(table.remove("version").map(|v| match v {
            toml::Value::Integer(i) => Ok(i),
            other => Err(other.to_string()),
        }))?;
        let mut look = Look {
            version,
            ..Look::default()
        };
        if version == 1 {
            refuse_tables(|k| table.contains_key(k))?;
            // Exactly the first releases' reader, line numbers and all.
            look.stack = Stack::from_toml_str(text).map_err(stack_error)?;
            return Ok(look);
        }
        fn take<T: for<'de> Deserialize<'de> + Default>(
            table: &mut toml::Table,
            key: &str,
        ) -> Result<T, String> {
            match table.remove(key) {
                None => Ok(T::default()),
                Some(v) => v
                    .try_into()
                    .map_err(|e: toml::de::Error| format!("{key}: {}", e.message().trim_end())),
            }
        }
        look.view = take(&mut table, "view")?;
        look.pixels = take(&mut table, "pixels")?;
        look.animation = take(&mut table, "animation")?;
        if let Some(g) = table.remove("graph") {
            let v = serde_json::to_value(g).map_err(|e| e.to_string())?;
            look.graph = Some(graph(&v, table.keys())?);
        } else if !table.is_empty() {
            let rest = toml::to_string(&table).map_err(|e| e.to_string())?;
            look.stack = Stack::from_toml_str(&rest).map_err(stack_error)?;
        }
        Ok(look)
    }

    /// Parses a JSON document.
    pub fn from_json(text: &str) -> Result<Look, String> {
        let Ok(mut map) = serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(text)
        else {
            return Err(Stack::from_json_str(text)
                .map_or_else(stack_error, |_| "not a JSON object".to_string()));
        };
        let version = version(
            map.remove("version")
                .map(|v| v.as_i64().ok_or(v.to_string())),
        )?;
        let mut look = Look {
            version,
            ..Look::default()
        };
        if version == 1 {
            refuse_tables(|k| map.contains_key(k))?;
            look.stack = Stack::from_json_str(text).map_err(stack_error)?;
            return Ok(look);
        }
        fn take<T: for<'de> Deserialize<'de> + Default>(
            map: &mut serde_json::Map<String, serde_json::Value>,
            key: &str,
        ) -> Result<T, String> {
            match map.remove(key) {
                None => Ok(T::default()),
                Some(v) => serde_json::from_value(v).map_err(|e| format!("{key}: {e}")),
            }
        }
        look.view = take(&mut map, "view")?;
        look.pixels = take(&mut map, "pixels")?;
        look.animation = take(&mut map, "animation")?;
        if let Some(g) = map.remove("graph") {
            look.graph = Some(graph(&g, map.keys())?);
        } else if !map.is_empty() {
            let rest = serde_json::to_string(&map).map_err(|e| e.to_string())?;
            look.stack = Stack::from_json_str(&rest).map_err(stack_error)?;
        }
        Ok(look)
    }

    /// The document as TOML: `version` first, then the stack's keys, then
    /// the tables that are not empty.
    pub fn to_toml(&self) -> Result<String, String> {
        let mut text = format!("version = {VERSION}\n");
        match &self.graph {
            None => text += &self.stack.to_toml_string().map_err(stack_error)?,
            Some(g) => {
                let v = g.to_json_value().map_err(stack_error)?;
                let mut t = toml::Table::new();
                t.insert(
                    "graph".into(),
                    toml::Value::try_from(v).map_err(|e| e.to_string())?,
                );
                text += "\n";
                text += &toml::to_string(&t).map_err(|e| e.to_string())?;
            }
        }
        let mut table = |name: &str, value: Result<toml::Table, toml::ser::Error>| {
            let value = value.map_err(|e| e.to_string())?;
            if !value.is_empty() {
                let mut t = toml::Table::new();
                t.insert(name.into(), toml::Value::Table(value));
                text += "\n";
                text += &toml::to_string(&t).map_err(|e| e.to_string())?;
            }
            Ok::<_, String>(())
        };
        table("view", toml::Table::try_from(&self.view))?;
        table("pixels", toml::Table::try_from(&self.pixels))?;
        table("animation", toml::Table::try_from(&self.animation))?;
        Ok(text)
    }

    /// The document as pretty-printed JSON.
    pub fn to_json(&self) -> Result<String, String> {
        let mut map = serde_json::Map::new();
        map.insert("version".into(), VERSION.into());
        match &self.graph {
            None => {
                let stack: serde_json::Value =
                    serde_json::from_str(&self.stack.to_json_string().map_err(stack_error)?)
                        .map_err(|e| e.to_string())?;
                if let serde_json::Value::Object(m) = stack {
                    map.extend(m);
                }
            }
            Some(g) => {
                map.insert("graph".into(), g.to_json_value().map_err(stack_error)?);
            }
        }
        let mut table = |name: &str, value: serde_json::Result<serde_json::Value>| {
            let value = value.map_err(|e| e.to_string())?;
            if value.as_object().is_some_and(|o| !o.is_empty()) {
                map.insert(name.into(), value);
            }
            Ok::<_, String>(())
        };
        table("view", serde_json::to_value(&self.view))?;
        table("pixels", serde_json::to_value(&self.pixels))?;
        table("animation", serde_json::to_value(&self.animation))?;
        serde_json::to_string_pretty(&map)
            .map(|t| t + "\n")
            .map_err(|e| e.to_string())
    }

    /// The document in the format `path`'s extension names.
    pub fn to_text_for(&self, path: &Path) -> Result<String, String> {
        if is_json(path) {
            self.to_json()
        } else {
            self.to_toml()
        }
    }
}

fn version(v: Option<Result<i64, String>>) -> Result<u32, String> {
    match v {
        None => Ok(1),
        Some(Ok(v @ (1 | 2))) => Ok(v as u32),
        Some(Ok(v)) => Err(format!(
            "version: this surflet reads config versions 1 and 2, not {v}; a newer \
             surflet wrote this file"
        )),
        Some(Err(v)) => Err(format!("version: expected the integer 1 or 2, got {v}")),
    }
}

fn refuse_tables(has: impl Fn(&str) -> bool) -> Result<(), String> {
    match TABLES.into_iter().find(|k| has(k)) {
        Some(k) => Err(format!(
            "{k}: the [{k}] table needs `version = {VERSION}` at the top of the file (a file \
             without a version is a bare noise stack, as the first releases wrote)"
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graph_documents_round_trip_in_both_formats() {
        let look = Look {
            version: 2,
            graph: Some(
                Graph::parse(
                    "select(fbm(simplex(seed=18446744073709551610), octaves=6), \
                     perlin(seed=2) * 0.5, control=value(seed=3, frequency=0.25), falloff=0.1) + 0.1",
                )
                .unwrap(),
            ),
            view: View {
                size: Some([64, 48]),
                ..View::default()
            },
            ..Look::default()
        };
        let toml = look.to_toml().unwrap();
        assert!(toml.contains("[graph]"), "{toml}");
        assert_eq!(Look::from_toml(&toml).unwrap(), look, "{toml}");
        let json = look.to_json().unwrap();
        assert_eq!(Look::from_json(&json).unwrap(), look, "{json}");
        let e = Look::from_toml("version = 2\nseed = 1\n[graph]\nnoise = \"perlin\"").unwrap_err();
        assert!(
            e.contains("seed: a document with a [graph] has no stack keys"),
            "{e}"
        );
        let e = Look::from_toml("version = 2\n[graph]\nop = \"abs\"").unwrap_err();
        assert!(e.starts_with("graph: abs needs"), "{e}");
    }

    #[test]
    fn full_documents_round_trip_in_both_formats() {
        let look = Look {
            version: 2,
            stack: Stack::from_toml_str(
                "seed = \"18446744073709551610\"\nfrequency = 0.1\n[fractal]\noctaves = 6",
            )
            .unwrap(),
            graph: None,
            view: View {
                size: Some([640, 480]),
                origin: Some([-1.5, 0.1 + 0.2]),
                scale: Some([parse_ratio("1/3").unwrap(), parse_ratio("0.7").unwrap()]),
                dims: Some(3),
                z: Some(-0.0),
                w: None,
            },
            pixels: PixelSpec {
                mode: Some(Mode::Ramp),
                ramp: Some("0:#000,1:#fff".into()),
                range: Some(RangeSpec::Fixed(-0.5, 1e-300)),
                normal_strength: None,
                normal_format: Some(NormalFormat::DirectX),
            },
            animation: Animation {
                frames: Some(7),
                axis: Some(TimeAxis::Z),
                step: Some(parse_ratio("1/49").unwrap()),
                looped: Some(false),
                fps: Some(12.5),
            },
        };
        let toml = look.to_toml().unwrap();
        assert!(toml.starts_with("version = 2\n"), "{toml}");
        assert_eq!(Look::from_toml(&toml).unwrap(), look, "{toml}");
        let json = look.to_json().unwrap();
        assert_eq!(Look::from_json(&json).unwrap(), look, "{json}");
    }

    #[test]
    fn versions() {
        let v1 = Look::from_toml("seed = 3").unwrap();
        assert_eq!((v1.version, v1.stack.seed), (1, 3));
        let e = Look::from_toml("seed = 3\n[view]\ndims = 3").unwrap_err();
        assert!(
            e.starts_with("view: the [view] table needs `version = 2`"),
            "{e}"
        );
        assert!(
            Look::from_toml("version = 3")
                .unwrap_err()
                .contains("versions 1 and 2")
        );
        assert_eq!(
            Look::from_toml("version = 2").unwrap().stack,
            Stack::default()
        );
        let e = Look::from_toml("version = 2\n[view]\nscale = \"-1\"").unwrap_err();
        assert!(e.starts_with("view: "), "{e}");
        let e = Look::from_toml("version = 2\n[pixels]\nrange = \"wide\"").unwrap_err();
        assert!(e.contains("\"documented\""), "{e}");
        let e = Look::from_toml("version = 2\nseed = 1\n[fractal]\noctaves = 0").unwrap_err();
        assert!(e.starts_with("fractal.octaves: "), "{e}");
    }
}
