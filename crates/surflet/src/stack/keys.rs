//! The stack's keys: one row each, with its dotted path, the type and
//! range of its value, its documentation and default, and how it is read
//! from and written to a [`Stack`].
//!
//! Everything that reads or writes a stack key goes through [`KEYS`]: the
//! TOML and JSON forms (feature `serde`: one reader and one writer that
//! walk the rows, and refuse an unknown key or a value out of its range
//! with the key's name), the expression language's arguments (`seed=` of a
//! noise call, `octaves=` of a fractal call, `fractal_amplitude=` of a
//! warp), and the front ends: the command line's flags and help, the
//! explorer's catalogue and Python's keyword arguments read the rows too.
//! A new key is its semantics, its field, and a row here.
//!
//! ```
//! use surflet::stack::keys::{self, Value};
//! use surflet::Stack;
//! let mut s = Stack::default();
//! let octaves = keys::find("fractal.octaves").unwrap();
//! assert_eq!((octaves.get)(&s), None); // no [fractal] table yet
//! (octaves.set)(&mut s, Value::Count(6));
//! assert_eq!(s.fractal.as_ref().map(|f| f.octaves), Some(6));
//! assert!(octaves.check(&Value::Count(40)).is_err()); // 1..=32
//! ```

use crate::prelude_internal::*;

use super::desc::{FractalDesc, Stack, WarpDesc};
use crate::cellular::{Cellular, CellularDistance, CellularReturn};
use crate::fractal::{FractalKind, MAX_OCTAVES};
use crate::noise::{MAX_PERIOD, NoiseKind};
use crate::warp::WarpKind;

/// What a key's value is, and the range it must lie in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyType {
    /// A family noise's name ([`NoiseKind`]).
    Noise,
    /// A seed: an integer from -2⁶³ to 2⁶⁴ − 1, a negative `n` meaning
    /// 2⁶⁴ + n.
    Seed,
    /// A positive, finite number.
    Positive,
    /// A finite number.
    Finite,
    /// A number in `[0, 1]`.
    Unit,
    /// A whole number of octaves, 1 to [`MAX_OCTAVES`].
    Octaves,
    /// One whole number per axis (1 to 4 of them), each a period in
    /// `1..=MAX_PERIOD`.
    Periods,
    /// One finite number per axis (1 to 4 of them).
    Offsets,
    /// A fractal kind's name.
    Fractal,
    /// A warp kind's name.
    Warp,
    /// A cellular distance's name.
    Distance,
    /// A cellular return value's name.
    Return,
    /// `true` or `false`.
    Bool,
}

/// A key's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A noise kind.
    Noise(NoiseKind),
    /// A seed.
    Seed(u64),
    /// A real number.
    Number(f64),
    /// A whole number.
    Count(u32),
    /// Periods, one per axis.
    Periods(Vec<u32>),
    /// Offsets, one per axis.
    Offsets(Vec<f64>),
    /// A fractal kind.
    Fractal(FractalKind),
    /// A warp kind.
    Warp(WarpKind),
    /// A cellular distance.
    Distance(CellularDistance),
    /// A cellular return value.
    Return(CellularReturn),
    /// A switch.
    Bool(bool),
}

/// The tables of a stack document, which hold the keys whose path starts
/// with their name and a dot.
pub const TABLES: [&str; 3] = ["fractal", "warp", "warp.fractal"];

/// One stack key.
pub struct Key {
    /// The dotted path, as a config writes it (`fractal.octaves` is
    /// `octaves` in the `[fractal]` table).
    pub path: &'static str,
    /// Its place among the parameters of its call in the expression
    /// language (`perlin(7)` is seed 7: `seed` is 0 there), after the
    /// call's input. A key added takes the next place.
    pub pos: u8,
    /// Whether the stack holds the key as an option: written wherever it is
    /// given, even at its default (a cellular stack's `distance` absent is
    /// euclidean, and stays absent).
    pub optional: bool,
    /// The value's type and range.
    pub ty: KeyType,
    /// What the key means, in a phrase (`the frequency ratio between
    /// octaves`).
    pub doc: &'static str,
    /// The default, in words (`2`, `the stack's noise`).
    pub default_text: &'static str,
    /// The default value, where it is one value (not another key's).
    pub default: Option<Value>,
    /// The key's value in a stack, or `None` where the stack does not have
    /// it (an optional key left out, or its table absent).
    pub get: fn(&Stack) -> Option<Value>,
    /// Sets the key (creating its table), and nothing else: a stack whose
    /// keys disagree (an offset for a kind that has none) is
    /// [checked](Stack::check) as a whole. The value must be of the key's
    /// type; [`check`](Key::check) it first.
    pub set: fn(&mut Stack, Value),
}

impl core::fmt::Debug for Key {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Key({})", self.path)
    }
}

impl Key {
    /// The table the key is in (`warp.fractal`), or `""` for the top level.
    pub fn table(&self) -> &'static str {
        self.path.rsplit_once('.').map_or("", |(t, _)| t)
    }

    /// The key's name within its table (`octaves`).
    pub fn name(&self) -> &'static str {
        self.path.rsplit_once('.').map_or(self.path, |(_, n)| n)
    }

    /// Checks `v` against the key's type and range; the message says what
    /// the value must be.
    pub fn check(&self, v: &Value) -> Result<(), String> {
        check(self.ty, v)
    }

    /// The key's value in `stack` where it is not its default (or, for an
    /// optional key, where it is given): what a command line or an
    /// expression must give to reproduce it.
    pub fn given(&self, stack: &Stack) -> Option<Value> {
        let v = (self.get)(stack)?;
        (self.optional || self.default.as_ref() != Some(&v)).then_some(v)
    }
}

/// The row of `path`.
pub fn find(path: &str) -> Option<&'static Key> {
    KEYS.iter().find(|k| k.path == path)
}

fn check(ty: KeyType, v: &Value) -> Result<(), String> {
    let bad_type = || Err(format!("{v:?} is not a value of this key"));
    match (ty, v) {
        (KeyType::Noise, Value::Noise(_))
        | (KeyType::Seed, Value::Seed(_))
        | (KeyType::Fractal, Value::Fractal(_))
        | (KeyType::Warp, Value::Warp(_))
        | (KeyType::Distance, Value::Distance(_))
        | (KeyType::Return, Value::Return(_))
        | (KeyType::Bool, Value::Bool(_)) => Ok(()),
        (KeyType::Positive, Value::Number(x)) => {
            if x.is_finite() && *x > 0.0 {
                Ok(())
            } else {
                Err(format!("must be positive and finite, got {x}"))
            }
        }
        (KeyType::Finite, Value::Number(x)) => {
            if x.is_finite() {
                Ok(())
            } else {
                Err(format!("must be finite, got {x}"))
            }
        }
        (KeyType::Unit, Value::Number(x)) => {
            if (0.0..=1.0).contains(x) {
                Ok(())
            } else {
                Err(format!("must be in [0, 1], got {x}"))
            }
        }
        (KeyType::Octaves, Value::Count(n)) => {
            if (1..=MAX_OCTAVES).contains(n) {
                Ok(())
            } else {
                Err(format!("octaves must be in 1..={MAX_OCTAVES}, got {n}"))
            }
        }
        (KeyType::Periods, Value::Periods(p)) => {
            axes(p.len())?;
            match p.iter().find(|&&v| v == 0 || v > MAX_PERIOD) {
                Some(bad) => Err(format!("periods must be in 1..={MAX_PERIOD}, got {bad}")),
                None => Ok(()),
            }
        }
        (KeyType::Offsets, Value::Offsets(o)) => {
            axes(o.len())?;
            match o.iter().find(|x| !x.is_finite()) {
                Some(bad) => Err(format!("offsets must be finite, got {bad}")),
                None => Ok(()),
            }
        }
        _ => bad_type(),
    }
}

fn axes(n: usize) -> Result<(), String> {
    if n == 0 || n > 4 {
        return Err(format!(
            "must have one entry per dimension (1 to 4), got {n}"
        ));
    }
    Ok(())
}

fn fractal(s: &mut Stack) -> &mut FractalDesc {
    s.fractal.get_or_insert_with(FractalDesc::default)
}

fn warp(s: &mut Stack) -> &mut WarpDesc {
    s.warp.get_or_insert_with(WarpDesc::default)
}

fn warp_fractal(s: &mut Stack) -> &mut FractalDesc {
    warp(s).fractal.get_or_insert_with(FractalDesc::default)
}

macro_rules! value_of {
    ($v:expr, $variant:ident) => {
        match $v {
            Value::$variant(x) => x,
            v => unreachable!("{v:?} set on a key of another type"),
        }
    };
}

const fn number(x: f64) -> Option<Value> {
    Some(Value::Number(x))
}

/// A fractal table's rotation, where it turns.
fn rotation(f: &FractalDesc) -> Option<Value> {
    (f.rotation != 0.0).then_some(Value::Number(f.rotation))
}

/// Every key of a stack, in the order a config writes them: the top-level
/// keys, then each table's (a kind before the keys that depend on it).
pub static KEYS: &[Key] = &[
    Key {
        path: "noise",
        pos: 0,
        optional: false,
        ty: KeyType::Noise,
        doc: "the noise kind",
        default_text: "simplex",
        default: Some(Value::Noise(NoiseKind::Simplex)),
        get: |s| Some(Value::Noise(s.noise)),
        set: |s, v| s.noise = value_of!(v, Noise),
    },
    Key {
        path: "distance",
        pos: 4,
        optional: true,
        ty: KeyType::Distance,
        doc: "how cellular noise measures distances",
        default_text: "euclidean",
        default: Some(Value::Distance(Cellular::DEFAULT.distance)),
        get: |s| s.distance.map(Value::Distance),
        set: |s, v| s.distance = Some(value_of!(v, Distance)),
    },
    Key {
        path: "return",
        pos: 5,
        optional: true,
        ty: KeyType::Return,
        doc: "what cellular noise returns",
        default_text: "f1",
        default: Some(Value::Return(Cellular::DEFAULT.ret)),
        get: |s| s.ret.map(Value::Return),
        set: |s, v| s.ret = Some(value_of!(v, Return)),
    },
    Key {
        path: "jitter",
        pos: 6,
        optional: true,
        ty: KeyType::Unit,
        doc: "how far cellular noise's feature points stray from the cell centres",
        default_text: "1",
        default: number(1.0),
        get: |s| s.jitter.map(Value::Number),
        set: |s, v| s.jitter = Some(value_of!(v, Number)),
    },
    Key {
        path: "seed",
        pos: 0,
        optional: false,
        ty: KeyType::Seed,
        doc: "the seed",
        default_text: "0",
        default: Some(Value::Seed(0)),
        get: |s| Some(Value::Seed(s.seed)),
        set: |s, v| s.seed = value_of!(v, Seed),
    },
    Key {
        path: "frequency",
        pos: 1,
        optional: false,
        ty: KeyType::Positive,
        doc: "lattice cells per world unit, octave 0's frequency",
        default_text: "1",
        default: number(1.0),
        get: |s| Some(Value::Number(s.frequency)),
        set: |s, v| s.frequency = value_of!(v, Number),
    },
    Key {
        path: "period",
        pos: 2,
        optional: false,
        ty: KeyType::Periods,
        doc: "the periods that make the noise tile, in lattice cells, one per axis",
        default_text: "none",
        default: None,
        get: |s| s.period.clone().map(Value::Periods),
        set: |s, v| s.period = Some(value_of!(v, Periods)),
    },
    Key {
        path: "offset",
        pos: 3,
        optional: false,
        ty: KeyType::Offsets,
        doc: "a move of the domain, in lattice cells, one per axis",
        default_text: "none",
        default: None,
        get: |s| s.offset.clone().map(Value::Offsets),
        set: |s, v| s.offset = Some(value_of!(v, Offsets)),
    },
    Key {
        path: "antialias",
        pos: 7,
        optional: false,
        ty: KeyType::Bool,
        doc: "whether octaves finer than the footprint fade out",
        default_text: "false",
        default: Some(Value::Bool(false)),
        // Written only when on, so that configs without it keep their text.
        get: |s| s.antialias.then_some(Value::Bool(true)),
        set: |s, v| s.antialias = value_of!(v, Bool),
    },
    Key {
        path: "footprint",
        pos: 8,
        optional: true,
        ty: KeyType::Positive,
        doc: "the spacing between samples, in input units, that antialias fades by",
        default_text: "the renderer's pixel",
        default: None,
        get: |s| s.footprint.map(Value::Number),
        set: |s, v| s.footprint = Some(value_of!(v, Number)),
    },
    Key {
        path: "fractal.kind",
        pos: 0,
        optional: false,
        ty: KeyType::Fractal,
        doc: "the fractal formula",
        default_text: "fbm",
        default: Some(Value::Fractal(FractalKind::Fbm)),
        get: |s| s.fractal.as_ref().map(|f| Value::Fractal(f.kind)),
        set: |s, v| fractal(s).kind = value_of!(v, Fractal),
    },
    Key {
        path: "fractal.octaves",
        pos: 0,
        optional: false,
        ty: KeyType::Octaves,
        doc: "the number of octaves",
        default_text: "4",
        default: Some(Value::Count(4)),
        get: |s| s.fractal.as_ref().map(|f| Value::Count(f.octaves)),
        set: |s, v| fractal(s).octaves = value_of!(v, Count),
    },
    Key {
        path: "fractal.lacunarity",
        pos: 1,
        optional: false,
        ty: KeyType::Positive,
        doc: "the frequency ratio between octaves; a whole number when tiling",
        default_text: "2",
        default: number(2.0),
        get: |s| s.fractal.as_ref().map(|f| Value::Number(f.lacunarity)),
        set: |s, v| fractal(s).lacunarity = value_of!(v, Number),
    },
    Key {
        path: "fractal.gain",
        pos: 2,
        optional: false,
        ty: KeyType::Finite,
        doc: "the amplitude ratio between octaves",
        default_text: "0.5",
        default: number(0.5),
        get: |s| s.fractal.as_ref().map(|f| Value::Number(f.gain)),
        set: |s, v| fractal(s).gain = value_of!(v, Number),
    },
    Key {
        path: "fractal.amplitude",
        pos: 3,
        optional: false,
        ty: KeyType::Finite,
        doc: "octave 0's amplitude",
        default_text: "1",
        default: number(1.0),
        get: |s| s.fractal.as_ref().map(|f| Value::Number(f.amplitude)),
        set: |s, v| fractal(s).amplitude = value_of!(v, Number),
    },
    Key {
        path: "fractal.normalize",
        pos: 4,
        optional: false,
        ty: KeyType::Bool,
        doc: "whether the sum is scaled into [-1, 1]",
        default_text: "true",
        default: Some(Value::Bool(true)),
        get: |s| s.fractal.as_ref().map(|f| Value::Bool(f.normalize)),
        set: |s, v| fractal(s).normalize = value_of!(v, Bool),
    },
    Key {
        path: "fractal.offset",
        pos: 5,
        optional: false,
        ty: KeyType::Finite,
        doc: "the ridged and hybrid offset",
        default_text: "1 ridged, 0.7 hybrid",
        default: None,
        get: |s| s.fractal.as_ref()?.offset.map(Value::Number),
        set: |s, v| fractal(s).offset = Some(value_of!(v, Number)),
    },
    Key {
        path: "fractal.weight",
        pos: 6,
        optional: false,
        ty: KeyType::Finite,
        doc: "the ridged weight gain",
        default_text: "2",
        default: None,
        get: |s| s.fractal.as_ref()?.weight.map(Value::Number),
        set: |s, v| fractal(s).weight = Some(value_of!(v, Number)),
    },
    Key {
        path: "fractal.rotation",
        pos: 7,
        optional: false,
        ty: KeyType::Finite,
        doc: "the turn between octaves, in radians",
        default_text: "0",
        default: number(0.0),
        // Absent at 0, so that a document without the key is written back
        // as it was read.
        get: |s| rotation(s.fractal.as_ref()?),
        set: |s, v| fractal(s).rotation = value_of!(v, Number),
    },
    Key {
        path: "warp.kind",
        pos: 1,
        optional: false,
        ty: KeyType::Warp,
        doc: "single-step or progressive",
        default_text: "single",
        default: Some(Value::Warp(WarpKind::Single)),
        get: |s| s.warp.as_ref().map(|w| Value::Warp(w.kind)),
        set: |s, v| warp(s).kind = value_of!(v, Warp),
    },
    Key {
        path: "warp.noise",
        pos: 2,
        optional: false,
        ty: KeyType::Noise,
        doc: "the warp's noise",
        default_text: "the stack's noise",
        default: None,
        get: |s| s.warp.as_ref()?.noise.map(Value::Noise),
        set: |s, v| warp(s).noise = Some(value_of!(v, Noise)),
    },
    Key {
        path: "warp.seed",
        pos: 3,
        optional: false,
        ty: KeyType::Seed,
        doc: "the warp's seed",
        default_text: "the stack's seed, salted",
        default: None,
        get: |s| s.warp.as_ref()?.seed.map(Value::Seed),
        set: |s, v| warp(s).seed = Some(value_of!(v, Seed)),
    },
    Key {
        path: "warp.frequency",
        pos: 4,
        optional: false,
        ty: KeyType::Positive,
        doc: "the warp's frequency",
        default_text: "the stack's frequency",
        default: None,
        get: |s| s.warp.as_ref()?.frequency.map(Value::Number),
        set: |s, v| warp(s).frequency = Some(value_of!(v, Number)),
    },
    Key {
        path: "warp.amplitude",
        pos: 0,
        optional: false,
        ty: KeyType::Finite,
        doc: "the largest displacement, in world units",
        default_text: "1",
        default: number(1.0),
        get: |s| s.warp.as_ref().map(|w| Value::Number(w.amplitude)),
        set: |s, v| warp(s).amplitude = value_of!(v, Number),
    },
    Key {
        path: "warp.fractal.kind",
        pos: 5,
        optional: false,
        ty: KeyType::Fractal,
        doc: "the warp's fractal formula (progressive warps need fbm)",
        default_text: "fbm, one octave",
        default: Some(Value::Fractal(FractalKind::Fbm)),
        get: |s| {
            let f = s.warp.as_ref()?.fractal.as_ref()?;
            Some(Value::Fractal(f.kind))
        },
        set: |s, v| warp_fractal(s).kind = value_of!(v, Fractal),
    },
    Key {
        path: "warp.fractal.octaves",
        pos: 6,
        optional: false,
        ty: KeyType::Octaves,
        doc: "the warp's octaves",
        default_text: "1 without [warp.fractal], else 4",
        default: Some(Value::Count(4)),
        get: |s| {
            let f = s.warp.as_ref()?.fractal.as_ref()?;
            Some(Value::Count(f.octaves))
        },
        set: |s, v| warp_fractal(s).octaves = value_of!(v, Count),
    },
    Key {
        path: "warp.fractal.lacunarity",
        pos: 7,
        optional: false,
        ty: KeyType::Positive,
        doc: "the warp's frequency ratio between octaves",
        default_text: "2",
        default: number(2.0),
        get: |s| {
            let f = s.warp.as_ref()?.fractal.as_ref()?;
            Some(Value::Number(f.lacunarity))
        },
        set: |s, v| warp_fractal(s).lacunarity = value_of!(v, Number),
    },
    Key {
        path: "warp.fractal.gain",
        pos: 8,
        optional: false,
        ty: KeyType::Finite,
        doc: "the warp's amplitude ratio between octaves",
        default_text: "0.5",
        default: number(0.5),
        get: |s| {
            let f = s.warp.as_ref()?.fractal.as_ref()?;
            Some(Value::Number(f.gain))
        },
        set: |s, v| warp_fractal(s).gain = value_of!(v, Number),
    },
    Key {
        path: "warp.fractal.amplitude",
        pos: 9,
        optional: false,
        ty: KeyType::Finite,
        doc: "the warp fractal's octave 0 amplitude",
        default_text: "1",
        default: number(1.0),
        get: |s| {
            let f = s.warp.as_ref()?.fractal.as_ref()?;
            Some(Value::Number(f.amplitude))
        },
        set: |s, v| warp_fractal(s).amplitude = value_of!(v, Number),
    },
    Key {
        path: "warp.fractal.normalize",
        pos: 10,
        optional: false,
        ty: KeyType::Bool,
        doc: "whether the warp fractal's sum is scaled into [-1, 1]",
        default_text: "true",
        default: Some(Value::Bool(true)),
        get: |s| {
            let f = s.warp.as_ref()?.fractal.as_ref()?;
            Some(Value::Bool(f.normalize))
        },
        set: |s, v| warp_fractal(s).normalize = value_of!(v, Bool),
    },
    Key {
        path: "warp.fractal.offset",
        pos: 11,
        optional: false,
        ty: KeyType::Finite,
        doc: "the warp fractal's ridged and hybrid offset",
        default_text: "1 ridged, 0.7 hybrid",
        default: None,
        get: |s| s.warp.as_ref()?.fractal.as_ref()?.offset.map(Value::Number),
        set: |s, v| warp_fractal(s).offset = Some(value_of!(v, Number)),
    },
    Key {
        path: "warp.fractal.weight",
        pos: 12,
        optional: false,
        ty: KeyType::Finite,
        doc: "the warp fractal's ridged weight gain",
        default_text: "2",
        default: None,
        get: |s| s.warp.as_ref()?.fractal.as_ref()?.weight.map(Value::Number),
        set: |s, v| warp_fractal(s).weight = Some(value_of!(v, Number)),
    },
    Key {
        path: "warp.fractal.rotation",
        pos: 13,
        optional: false,
        ty: KeyType::Finite,
        doc: "the turn between the warp fractal's octaves, in radians",
        default_text: "0",
        default: number(0.0),
        get: |s| rotation(s.warp.as_ref()?.fractal.as_ref()?),
        set: |s, v| warp_fractal(s).rotation = value_of!(v, Number),
    },
];

/// Whether `stack` has the table `table` (`""`, the top level, always).
pub fn has_table(stack: &Stack, table: &str) -> bool {
    match table {
        "" => true,
        "fractal" => stack.fractal.is_some(),
        "warp" => stack.warp.is_some(),
        "warp.fractal" => stack.warp.as_ref().is_some_and(|w| w.fractal.is_some()),
        _ => false,
    }
}

/// Adds the table `table` to `stack`, with its defaults, where it has none.
pub fn add_table(stack: &mut Stack, table: &str) {
    match table {
        "fractal" => {
            fractal(stack);
        }
        "warp" => {
            warp(stack);
        }
        "warp.fractal" => {
            warp_fractal(stack);
        }
        _ => {}
    }
}
