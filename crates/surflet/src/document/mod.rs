//! The config document: one file for everything that decides a picture
//! except its file format. Every front end reads and writes it: the
//! command line (`--config`, `--save-config`), the Python module
//! (`surflet.Stack.from_toml`, `surflet.Graph.from_toml`) and the explorer
//! (`surflet serve`).
//!
//! ```toml
//! version = 2                # what this library writes
//! noise = "simplex"          # the noise stack's keys (see `stack`) ...
//! seed = 7
//! frequency = 0.5
//! [fractal]
//! octaves = 6
//! # ... or a [graph] table instead of them (see `graph`)
//!
//! [view]                     # optional: which part of the plane
//! size = [512, 512]          # pixels, across and down
//! origin = [0.0, 0.0]        # world coordinates of the top-left pixel
//! scale = "1/64"             # world units per pixel (a fraction stays exact)
//! dims = 2                   # 2, 3 or 4
//! z = 0.0
//! w = 0.0
//!
//! [pixels]                   # optional: how values become pixels
//! mode = "ramp"              # gray | ramp | normal
//! ramp = "terrain"           # terrain | gray | "POS:#RRGGBB,..."
//! range = "documented"       # documented | auto | [LO, HI]
//! normal-strength = 1.0
//! normal-format = "opengl"   # opengl | directx
//!
//! [animation]                # optional
//! frames = 48
//! axis = "z"                 # z | w
//! step = "1/48"              # world units per frame
//! loop = true
//! fps = 24.0
//! ```
//!
//! **Versions.** The document carries a version so that files keep their
//! meaning:
//!
//! - version 1 (no `version` key, as the first releases wrote): a bare
//!   noise stack, drawn at one world unit per pixel. Reading one is not an
//!   error, but it is rarely what a new file means (at one unit per pixel
//!   noise looks like static), so front ends warn about it.
//! - version 2 (`version = 2`): a stack or a graph, plus the optional
//!   `[view]`, `[pixels]` and `[animation]` tables. A missing `[view] scale`
//!   means 1/64 world unit per pixel.
//!
//! Every table is checked when the document is read (unknown keys, bad
//! names, ranges and ramps are errors that name the key), and written back
//! unchanged: `from_toml(to_toml(d)) == d`, and the same for JSON.
//!
//! ```
//! use surflet::document::{Document, PixelMode};
//! let doc = Document::from_toml(r#"
//!     version = 2
//!     noise = "perlin"
//!     seed = 3
//!     [pixels]
//!     mode = "ramp"
//!     ramp = "terrain"
//! "#).unwrap();
//! assert_eq!(doc.stack.seed, 3);
//! assert_eq!(doc.pixels.mode, Some(PixelMode::Ramp));
//! assert_eq!(Document::from_toml(&doc.to_toml().unwrap()).unwrap(), doc);
//! assert_eq!(Document::from_json(&doc.to_json().unwrap()).unwrap(), doc);
//!
//! let err = Document::from_toml("version = 2\n[pixels]\nmode = \"sepia\"").unwrap_err();
//! assert!(err.to_string().starts_with("pixels: "));
//! ```

use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::graph::Graph;
use crate::prelude_internal::*;
use crate::stack::Stack;

mod ramp;
mod ratio;

pub use ramp::{Ramp, Stop};
pub use ratio::Ratio;

/// The version this library writes.
pub const VERSION: u32 = 2;

/// The tables a version 2 document may hold besides the stack's keys.
const TABLES: [&str; 3] = ["view", "pixels", "animation"];

/// A config document: a noise stack or graph, and how to draw it.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// The version the document was read as: 1 for a bare stack (no
    /// `version` key), 2 for the current format. Documents are always
    /// written as version [`VERSION`].
    pub version: u32,
    /// The noise stack (the default stack when [`graph`](Self::graph) is
    /// set).
    pub stack: Stack,
    /// The `[graph]` table: a noise graph, which replaces the stack (a
    /// document has one or the other).
    pub graph: Option<Graph>,
    /// The `[view]` table.
    pub view: View,
    /// The `[pixels]` table.
    pub pixels: Pixels,
    /// The `[animation]` table.
    pub animation: Animation,
}

impl Default for Document {
    fn default() -> Document {
        Document {
            version: VERSION,
            stack: Stack::default(),
            graph: None,
            view: View::default(),
            pixels: Pixels::default(),
            animation: Animation::default(),
        }
    }
}

/// Which part of the plane the image shows (`[view]`). Every key is
/// optional; `surflet render` fills in its defaults and `--save-config`
/// writes them all.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct View {
    /// The image size the view was made at, across and down: the default
    /// `--size`, and what `--same-view` scales from.
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
    /// Whether every stack of the description, graph leaves included,
    /// fades the octaves finer than a pixel
    /// ([`Stack::antialias`](crate::Stack::antialias), with the pixel's size
    /// as the footprint wherever a stack states none): `surflet render
    /// --antialias`, and the explorer's preview.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub antialias: Option<bool>,
}

/// How values become pixels (`[pixels]`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Pixels {
    /// gray, ramp or normal.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "named")]
    pub mode: Option<PixelMode>,
    /// A ramp as [`Ramp::parse`] reads it; checked when read.
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

/// A small enum of named choices, with the methods the library's other
/// names have (`ALL`, `name`, `from_name`), so that the command line builds
/// its parsers and help from the same list.
macro_rules! named_enum {
    (@alias) => { None };
    (@alias $alias:literal) => { Some($alias) };
    (
        $(#[$meta:meta])*
        $name:ident, $what:literal {
            $($(#[$vmeta:meta])* $variant:ident = $text:literal $(| $alias:literal)?,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl $name {
            /// All choices, in documentation order.
            pub const ALL: [$name; [$($name::$variant),+].len()] = [$($name::$variant),+];

            /// The name used on the command line and in configs.
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }

            /// The names accepted besides [`name`](Self::name) (a
            /// spelling variant), if any.
            pub const fn alias(self) -> Option<&'static str> {
                match self {
                    $($name::$variant => named_enum!(@alias $($alias)?),)+
                }
            }

            /// Parses a name produced by [`name`](Self::name), or an
            /// [`alias`](Self::alias).
            pub fn from_name(name: &str) -> Result<$name, Error> {
                $name::ALL
                    .into_iter()
                    .find(|k| k.name() == name || k.alias() == Some(name))
                    .ok_or_else(|| Error::UnknownName {
                        what: $what,
                        name: name.to_string(),
                        expected: $name::ALL.map(|k| k.name()).join(", "),
                    })
            }
        }

        impl Named for $name {
            fn all() -> &'static [$name] {
                &$name::ALL
            }
            fn name(self) -> &'static str {
                $name::name(self)
            }
            fn from_name(name: &str) -> Result<$name, Error> {
                $name::from_name(name)
            }
        }
    };
}

/// What the serde helper needs of a named enum.
trait Named: Copy + 'static {
    fn all() -> &'static [Self];
    fn name(self) -> &'static str;
    fn from_name(name: &str) -> Result<Self, Error>;
}

named_enum! {
    /// What the pixels show (`[pixels] mode`, `--mode`).
    PixelMode, "pixel mode" {
        /// Gray levels.
        Gray = "gray" | "grey",
        /// Colours from a [`Ramp`].
        Ramp = "ramp",
        /// A tangent-space normal map from the analytic gradient.
        Normal = "normal",
    }
}

named_enum! {
    /// The axis an animation moves along (`[animation] axis`, `--animate`).
    TimeAxis, "time axis" {
        /// The third coordinate.
        Z = "z",
        /// The fourth coordinate.
        W = "w",
    }
}

named_enum! {
    /// The y-axis convention of a normal map (`[pixels] normal-format`).
    NormalFormat, "normal format" {
        /// Green points up the image (+Y up): OpenGL, Blender, Unity.
        OpenGl = "opengl",
        /// Green points down the image (+Y down): DirectX, Unreal.
        DirectX = "directx",
    }
}

fn ramp<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let s = String::deserialize(d)?;
    Ramp::parse(&s).map_err(de::Error::custom)?;
    Ok(Some(s))
}

/// Named enums by their names.
mod named {
    use super::*;

    pub fn serialize<T: Named, S: Serializer>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v.expect("skipped when None").name())
    }

    pub fn deserialize<'de, T: Named, D: Deserializer<'de>>(d: D) -> Result<Option<T>, D::Error> {
        let s = String::deserialize(d)?;
        T::from_name(&s).map(Some).map_err(|_| {
            let names: Vec<String> = T::all().iter().map(|v| format!("{:?}", v.name())).collect();
            de::Error::custom(format!("expected one of {}, got {s:?}", names.join(", ")))
        })
    }
}

/// A ratio as a number, or as a string `"NUM/DEN"` that keeps the two apart
/// so that `i*NUM/DEN` is rounded once, as on the command line.
mod ratio_format {
    use super::*;

    /// The number itself when the denominator is 1, else `"NUM/DEN"`.
    pub fn value(r: Ratio) -> serde_json::Value {
        if r.den == 1.0 {
            serde_json::Value::from(r.num)
        } else {
            serde_json::Value::String(r.to_string())
        }
    }

    pub fn serialize<S: Serializer>(r: &Option<Ratio>, s: S) -> Result<S::Ok, S::Error> {
        value(r.expect("skipped when None")).serialize(s)
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
                Raw::Number(x) => Ratio::parse(&x.to_string()),
                Raw::Text(t) => Ratio::parse(&t),
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
    use super::ratio_format::{Raw, value};
    use super::*;

    pub fn serialize<S: Serializer>(r: &Option<[Ratio; 2]>, s: S) -> Result<S::Ok, S::Error> {
        let [x, y] = r.expect("skipped when None");
        if x == y {
            value(x).serialize(s)
        } else {
            [value(x), value(y)].serialize(s)
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

/// An error at `key` (empty: the document as a whole).
fn at(key: &str, message: impl ToString) -> Error {
    Error::Config {
        key: key.to_string(),
        message: message.to_string().trim_end().to_string(),
    }
}

/// The `graph` table, refusing stack keys beside it (`rest`: the other
/// keys left in the document).
fn graph<'a>(
    v: &serde_json::Value,
    mut rest: impl Iterator<Item = &'a String>,
) -> Result<Graph, Error> {
    if let Some(k) = rest.next() {
        return Err(at(
            k,
            "a document with a [graph] has no stack keys (the graph's stacks hold them)",
        ));
    }
    Graph::from_json_value(v).map_err(|e| match e {
        Error::Config { key, message } if !key.is_empty() => at(&format!("graph.{key}"), message),
        e => at("graph", e),
    })
}

/// The document's version, from its `version` key if it has one.
fn version(v: Option<Result<i64, String>>) -> Result<u32, Error> {
    match v {
        None => Ok(1),
        Some(Ok(v @ (1 | 2))) => Ok(v as u32),
        Some(Ok(v)) => Err(at(
            "version",
            format!(
                "this surflet reads config versions 1 and 2, not {v}; a newer surflet wrote \
                 this file"
            ),
        )),
        Some(Err(v)) => Err(at(
            "version",
            format!("expected the integer 1 or 2, got {v}"),
        )),
    }
}

fn refuse_tables(has: impl Fn(&str) -> bool) -> Result<(), Error> {
    match TABLES.into_iter().find(|k| has(k)) {
        Some(k) => Err(at(
            k,
            format!(
                "the [{k}] table needs `version = {VERSION}` at the top of the file (a file \
                 without a version is a bare noise stack, as the first releases wrote)"
            ),
        )),
        None => Ok(()),
    }
}

/// One format's view of a parsed document: its top-level map, from which
/// the reader takes the version and the tables, then hands the rest to the
/// stack or graph reader.
trait Format: Sized {
    type Value: Serialize;
    fn parse(text: &str) -> Option<BTreeMap<String, Self::Value>>;
    fn integer(v: &Self::Value) -> Option<i64>;
    fn table<T: for<'de> Deserialize<'de>>(v: Self::Value) -> Result<T, String>;
    fn stack(text: &str) -> Result<Stack, Error>;
    fn not_a_document() -> &'static str;
}

use alloc::collections::BTreeMap;

struct Toml;
struct Json;

impl Format for Toml {
    type Value = toml::Value;
    fn parse(text: &str) -> Option<BTreeMap<String, toml::Value>> {
        text.parse::<toml::Table>()
            .ok()
            .map(|t| t.into_iter().collect())
    }
    fn integer(v: &toml::Value) -> Option<i64> {
        v.as_integer()
    }
    fn table<T: for<'de> Deserialize<'de>>(v: toml::Value) -> Result<T, String> {
        v.try_into()
            .map_err(|e: toml::de::Error| e.message().to_string())
    }
    fn stack(text: &str) -> Result<Stack, Error> {
        Stack::from_toml_str(text)
    }
    fn not_a_document() -> &'static str {
        "not a TOML document"
    }
}

impl Format for Json {
    type Value = serde_json::Value;
    fn parse(text: &str) -> Option<BTreeMap<String, serde_json::Value>> {
        serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(text)
            .ok()
            .map(|m| m.into_iter().collect())
    }
    fn integer(v: &serde_json::Value) -> Option<i64> {
        v.as_i64()
    }
    fn table<T: for<'de> Deserialize<'de>>(v: serde_json::Value) -> Result<T, String> {
        serde_json::from_value(v).map_err(|e| e.to_string())
    }
    fn stack(text: &str) -> Result<Stack, Error> {
        Stack::from_json_str(text)
    }
    fn not_a_document() -> &'static str {
        "not a JSON object"
    }
}

impl Document {
    /// Parses a TOML document. Errors name the key at fault (`view`,
    /// `fractal.octaves`, `graph.octaves`), or the line of a syntax error.
    pub fn from_toml(text: &str) -> Result<Document, Error> {
        Document::read_as::<Toml>(text, |rest| {
            let t: toml::Table = rest.into_iter().collect();
            toml::to_string(&t).map_err(|e| at("", e))
        })
    }

    /// Parses a JSON document, with the same keys and checks as TOML.
    pub fn from_json(text: &str) -> Result<Document, Error> {
        Document::read_as::<Json>(text, |rest| {
            let m: serde_json::Map<String, serde_json::Value> = rest.into_iter().collect();
            serde_json::to_string(&m).map_err(|e| at("", e))
        })
    }

    fn read_as<F: Format>(
        text: &str,
        print: impl FnOnce(BTreeMap<String, F::Value>) -> Result<String, Error>,
    ) -> Result<Document, Error> {
        let Some(mut map) = F::parse(text) else {
            // The stack's reader names the line of a syntax error.
            return Err(F::stack(text).map_or_else(|e| e, |_| at("", F::not_a_document())));
        };
        let version =
            version(map.remove("version").map(|v| {
                F::integer(&v).ok_or_else(|| serde_json::to_string(&v).unwrap_or_default())
            }))?;
        let mut doc = Document {
            version,
            ..Document::default()
        };
        if version == 1 {
            refuse_tables(|k| map.contains_key(k))?;
            // Exactly the first releases' reader, line numbers and all.
            doc.stack = F::stack(text)?;
            return Ok(doc);
        }
        fn take<F: Format, T: for<'de> Deserialize<'de> + Default>(
            map: &mut BTreeMap<String, F::Value>,
            key: &str,
        ) -> Result<T, Error> {
            map.remove(key)
                .map_or(Ok(T::default()), |v| F::table(v).map_err(|e| at(key, e)))
        }
        doc.view = take::<F, _>(&mut map, "view")?;
        doc.pixels = take::<F, _>(&mut map, "pixels")?;
        doc.animation = take::<F, _>(&mut map, "animation")?;
        if let Some(g) = map.remove("graph") {
            let v = serde_json::to_value(g).map_err(|e| at("graph", e))?;
            doc.graph = Some(graph(&v, map.keys())?);
        } else if !map.is_empty() {
            doc.stack = F::stack(&print(map)?)?;
        }
        Ok(doc)
    }

    /// The same picture as a version 2 document: a version 1 document is
    /// drawn at one world unit per pixel (unless its stack tiles, when the
    /// image is one tile in both versions), so that scale is written into
    /// `[view]`. Front ends that write back what they read (the Python
    /// module) upgrade first, so that a file keeps its pixels.
    ///
    /// ```
    /// use surflet::document::{Document, Ratio};
    /// let old = Document::from_toml("noise = \"perlin\"").unwrap();
    /// assert_eq!((old.version, old.view.scale), (1, None));
    /// let new = old.upgraded();
    /// assert_eq!((new.version, new.view.scale), (2, Some([Ratio::ONE; 2])));
    /// assert!(new.to_toml().unwrap().contains("[view]\nscale = 1.0"));
    /// ```
    pub fn upgraded(mut self) -> Document {
        if self.version == 1 && self.view.scale.is_none() && self.stack.period.is_none() {
            self.view.scale = Some([Ratio::ONE; 2]);
        }
        self.version = VERSION;
        self
    }

    /// Reads a file: JSON if its name ends in `.json`, TOML otherwise. The
    /// message names the file.
    pub fn read(path: impl AsRef<std::path::Path>) -> Result<Document, Error> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| {
            at(
                "",
                format!("cannot read the config file {}: {e}", path.display()),
            )
        })?;
        let parsed = if is_json(path) {
            Document::from_json(&text)
        } else {
            Document::from_toml(&text)
        };
        parsed.map_err(|e| at("", format!("{}: {e}", path.display())))
    }

    /// The document as TOML: `version` first, then the stack's keys or the
    /// `[graph]` table, then the tables that are not empty.
    pub fn to_toml(&self) -> Result<String, Error> {
        let mut text = format!("version = {VERSION}\n");
        match &self.graph {
            None => text += &self.stack.to_toml_string()?,
            Some(g) => {
                let mut t = toml::Table::new();
                t.insert(
                    "graph".into(),
                    toml::Value::try_from(g.to_json_value()?).map_err(|e| at("graph", e))?,
                );
                text += "\n";
                text += &toml::to_string(&t).map_err(|e| at("graph", e))?;
            }
        }
        for (name, table) in self.tables() {
            let table = toml::Table::try_from(table?).map_err(|e| at(name, e))?;
            if !table.is_empty() {
                let mut t = toml::Table::new();
                t.insert(name.into(), toml::Value::Table(table));
                text += "\n";
                text += &toml::to_string(&t).map_err(|e| at(name, e))?;
            }
        }
        Ok(text)
    }

    /// The document as pretty-printed JSON, with the same keys as TOML.
    pub fn to_json(&self) -> Result<String, Error> {
        let mut map = serde_json::Map::new();
        map.insert("version".into(), VERSION.into());
        match &self.graph {
            None => {
                let stack: serde_json::Value =
                    serde_json::from_str(&self.stack.to_json_string()?).map_err(|e| at("", e))?;
                if let serde_json::Value::Object(m) = stack {
                    map.extend(m);
                }
            }
            Some(g) => {
                map.insert("graph".into(), g.to_json_value()?);
            }
        }
        for (name, table) in self.tables() {
            let table = table?;
            if table.as_object().is_some_and(|o| !o.is_empty()) {
                map.insert(name.into(), table);
            }
        }
        serde_json::to_string_pretty(&map)
            .map(|t| t + "\n")
            .map_err(|e| at("", e))
    }

    /// The three tables by name, as JSON values.
    fn tables(&self) -> [(&'static str, Result<serde_json::Value, Error>); 3] {
        let value =
            |name, v: serde_json::Result<serde_json::Value>| (name, v.map_err(|e| at(name, e)));
        [
            value("view", serde_json::to_value(&self.view)),
            value("pixels", serde_json::to_value(&self.pixels)),
            value("animation", serde_json::to_value(&self.animation)),
        ]
    }

    /// The document in the format `path`'s extension names: JSON for
    /// `.json`, TOML otherwise.
    pub fn to_text_for(&self, path: impl AsRef<std::path::Path>) -> Result<String, Error> {
        if is_json(path.as_ref()) {
            self.to_json()
        } else {
            self.to_toml()
        }
    }
}

fn is_json(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "expr")]
    #[test]
    fn graph_documents_round_trip_in_both_formats() {
        let doc = Document {
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
            ..Document::default()
        };
        let toml = doc.to_toml().unwrap();
        assert!(toml.contains("[graph]"), "{toml}");
        assert_eq!(Document::from_toml(&toml).unwrap(), doc, "{toml}");
        let json = doc.to_json().unwrap();
        assert_eq!(Document::from_json(&json).unwrap(), doc, "{json}");
        let e = Document::from_toml("version = 2\nseed = 1\n[graph]\nnoise = \"perlin\"")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("seed: a document with a [graph] has no stack keys"),
            "{e}"
        );
        let e = Document::from_toml("version = 2\n[graph]\nop = \"abs\"")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("graph: abs needs"), "{e}");
    }

    #[test]
    fn full_documents_round_trip_in_both_formats() {
        let doc = Document {
            version: 2,
            stack: Stack::from_toml_str(
                "seed = \"18446744073709551610\"\nfrequency = 0.1\n[fractal]\noctaves = 6",
            )
            .unwrap(),
            graph: None,
            view: View {
                size: Some([640, 480]),
                origin: Some([-1.5, 0.1 + 0.2]),
                scale: Some([Ratio::parse("1/3").unwrap(), Ratio::parse("0.7").unwrap()]),
                dims: Some(3),
                z: Some(-0.0),
                w: None,
                antialias: Some(true),
            },
            pixels: Pixels {
                mode: Some(PixelMode::Ramp),
                ramp: Some("0:#000,1:#fff".into()),
                range: Some(RangeSpec::Fixed(-0.5, 1e-300)),
                normal_strength: None,
                normal_format: Some(NormalFormat::DirectX),
            },
            animation: Animation {
                frames: Some(7),
                axis: Some(TimeAxis::Z),
                step: Some(Ratio::parse("1/49").unwrap()),
                looped: Some(false),
                fps: Some(12.5),
            },
        };
        let toml = doc.to_toml().unwrap();
        assert!(toml.starts_with("version = 2\n"), "{toml}");
        assert_eq!(Document::from_toml(&toml).unwrap(), doc, "{toml}");
        let json = doc.to_json().unwrap();
        assert_eq!(Document::from_json(&json).unwrap(), doc, "{json}");
    }

    #[test]
    fn versions() {
        let v1 = Document::from_toml("seed = 3").unwrap();
        assert_eq!((v1.version, v1.stack.seed), (1, 3));
        let v1 = Document::from_json("{\"seed\": 3}").unwrap();
        assert_eq!((v1.version, v1.stack.seed), (1, 3));
        let e = |text: &str| Document::from_toml(text).unwrap_err().to_string();
        let msg = e("seed = 3\n[view]\ndims = 3");
        assert!(
            msg.starts_with("view: the [view] table needs `version = 2`"),
            "{msg}"
        );
        assert!(e("version = 3").contains("versions 1 and 2"));
        assert!(e("version = \"2\"").contains("expected the integer 1 or 2, got \"2\""));
        assert_eq!(
            Document::from_toml("version = 2").unwrap().stack,
            Stack::default()
        );
        assert!(e("version = 2\n[view]\nscale = \"-1\"").starts_with("view: "));
        assert!(e("version = 2\n[pixels]\nrange = \"wide\"").contains("\"documented\""));
        assert!(
            e("version = 2\nseed = 1\n[fractal]\noctaves = 0").starts_with("fractal.octaves: ")
        );
        assert!(
            e("version = 2\n[pixels]\nmode = \"sepia\"").contains("\"gray\", \"ramp\", \"normal\"")
        );
        assert!(e("version = 2\n[pixels]\nramp = \"rainbow\"").starts_with("pixels: "));
        assert!(e("version = 2\n[animation]\nspeed = 1").starts_with("animation: "));
        // A syntax error keeps the stack reader's line number.
        assert!(e("seed = = 3").contains("line 1"), "{}", e("seed = = 3"));
    }

    #[test]
    fn grey_is_an_alias_and_names_round_trip() {
        assert_eq!(PixelMode::from_name("grey").unwrap(), PixelMode::Gray);
        for m in PixelMode::ALL {
            assert_eq!(PixelMode::from_name(m.name()).unwrap(), m);
        }
        for a in TimeAxis::ALL {
            assert_eq!(TimeAxis::from_name(a.name()).unwrap(), a);
        }
        for f in NormalFormat::ALL {
            assert_eq!(NormalFormat::from_name(f.name()).unwrap(), f);
        }
        assert!(TimeAxis::from_name("t").is_err());
    }
}
