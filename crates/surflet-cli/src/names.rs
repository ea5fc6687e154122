//! The noise names the command line accepts, and what each one takes.
//!
//! These names are a public contract: scripts pass them to `surflet sample`
//! (and later to `render` and `gallery`), so a name, once published, never
//! changes meaning.

use std::fmt::Write as _;
use std::ops::RangeInclusive;

use clap::ValueEnum;
use surflet::NoiseKind;

/// A noise that can be named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, ValueEnum)]
pub enum NoiseName {
    /// `reference::perlin2002::noise`.
    #[value(name = "perlin2002-java")]
    Perlin2002Java,
    /// `reference::simplex2012::noise2..4`.
    #[value(name = "simplex2012-java")]
    Simplex2012Java,
    /// `reference::simplex2005::noise2..4`.
    #[value(name = "simplex2005-java")]
    Simplex2005Java,
    /// `reference::classic2005::noise3`.
    #[value(name = "classic2005-java")]
    Classic2005Java,
    /// `reference::noise1234::noise1..4`.
    #[value(name = "noise1234")]
    Noise1234,
    /// `reference::noise1234::pnoise1..4`.
    #[value(name = "pnoise1234")]
    Pnoise1234,
    /// `reference::simplexnoise1234::snoise1..4`.
    #[value(name = "snoise1234")]
    Snoise1234,
    /// `reference::sdnoise1234::sdnoise1..4`.
    #[value(name = "sdnoise1234")]
    Sdnoise1234,
    /// `reference::srdnoise23::srdnoise2..3`.
    #[value(name = "srdnoise23")]
    Srdnoise23,
    /// `reference::opensimplex2::noise2..noise4_*`, chosen by `--variant`.
    #[value(name = "opensimplex2-java")]
    OpenSimplex2Java,
    /// `reference::opensimplex2s::noise2..noise4_*`, chosen by `--variant`.
    #[value(name = "opensimplex2s-java")]
    OpenSimplex2SJava,
    /// The family's value noise.
    #[value(name = "value")]
    Value,
    /// The family's Perlin noise.
    #[value(name = "perlin")]
    Perlin,
    /// The family's simplex noise.
    #[value(name = "simplex")]
    Simplex,
    /// The family's simplex value noise.
    #[value(name = "simplex-value")]
    SimplexValue,
    /// The family's OpenSimplex2.
    #[value(name = "opensimplex2")]
    OpenSimplex2,
    /// The family's OpenSimplex2S.
    #[value(name = "opensimplex2s")]
    OpenSimplex2S,
    /// The family's cellular (Worley) noise.
    #[value(name = "cellular")]
    Cellular,
}

/// Columns a line carries after the `D` coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extra {
    /// Coordinates only.
    None,
    /// `D` integer periods, one per axis (`pnoise1234`).
    Periods,
    /// One rotation angle `t` (`srdnoise23`).
    Angle,
}

/// The floating-point type a noise reads its coordinates in and computes in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// `f32`.
    F32,
    /// `f64`.
    F64,
}

impl NoiseName {
    /// Every name, in the order `--help` lists them.
    pub const ALL: [NoiseName; 18] = [
        NoiseName::Perlin2002Java,
        NoiseName::Simplex2012Java,
        NoiseName::Simplex2005Java,
        NoiseName::Classic2005Java,
        NoiseName::Noise1234,
        NoiseName::Pnoise1234,
        NoiseName::Snoise1234,
        NoiseName::Sdnoise1234,
        NoiseName::Srdnoise23,
        NoiseName::OpenSimplex2Java,
        NoiseName::OpenSimplex2SJava,
        NoiseName::Value,
        NoiseName::Perlin,
        NoiseName::Simplex,
        NoiseName::SimplexValue,
        NoiseName::OpenSimplex2,
        NoiseName::OpenSimplex2S,
        NoiseName::Cellular,
    ];

    /// The name as written on the command line.
    pub fn name(self) -> &'static str {
        match self {
            NoiseName::Perlin2002Java => "perlin2002-java",
            NoiseName::Simplex2012Java => "simplex2012-java",
            NoiseName::Simplex2005Java => "simplex2005-java",
            NoiseName::Classic2005Java => "classic2005-java",
            NoiseName::Noise1234 => "noise1234",
            NoiseName::Pnoise1234 => "pnoise1234",
            NoiseName::Snoise1234 => "snoise1234",
            NoiseName::Sdnoise1234 => "sdnoise1234",
            NoiseName::Srdnoise23 => "srdnoise23",
            NoiseName::OpenSimplex2Java => "opensimplex2-java",
            NoiseName::OpenSimplex2SJava => "opensimplex2s-java",
            NoiseName::Value => NoiseKind::Value.name(),
            NoiseName::Perlin => NoiseKind::Perlin.name(),
            NoiseName::Simplex => NoiseKind::Simplex.name(),
            NoiseName::SimplexValue => NoiseKind::SimplexValue.name(),
            NoiseName::OpenSimplex2 => NoiseKind::OpenSimplex2.name(),
            NoiseName::OpenSimplex2S => NoiseKind::OpenSimplex2S.name(),
            NoiseName::Cellular => NoiseKind::Cellular.name(),
        }
    }

    /// The family kind, or `None` for a reference port.
    pub fn family(self) -> Option<NoiseKind> {
        match self {
            NoiseName::Value => Some(NoiseKind::Value),
            NoiseName::Perlin => Some(NoiseKind::Perlin),
            NoiseName::Simplex => Some(NoiseKind::Simplex),
            NoiseName::SimplexValue => Some(NoiseKind::SimplexValue),
            NoiseName::OpenSimplex2 => Some(NoiseKind::OpenSimplex2),
            NoiseName::OpenSimplex2S => Some(NoiseKind::OpenSimplex2S),
            NoiseName::Cellular => Some(NoiseKind::Cellular),
            _ => None,
        }
    }

    /// The name of the family kind `kind`.
    pub fn of_kind(kind: NoiseKind) -> NoiseName {
        NoiseName::ALL
            .into_iter()
            .find(|n| n.family() == Some(kind))
            .expect("every family kind has a name")
    }

    /// The dimensions this noise exists in.
    pub fn dims(self) -> RangeInclusive<usize> {
        match self {
            NoiseName::Perlin2002Java | NoiseName::Classic2005Java => 3..=3,
            NoiseName::Simplex2012Java
            | NoiseName::Simplex2005Java
            | NoiseName::OpenSimplex2Java
            | NoiseName::OpenSimplex2SJava => 2..=4,
            NoiseName::Srdnoise23 => 2..=3,
            // 5D-8D through the library's N-D noise (`surflet::nd`).
            NoiseName::Value | NoiseName::Perlin | NoiseName::Simplex => 1..=8,
            _ => 1..=4,
        }
    }

    /// What a line carries after the coordinates.
    pub fn extra(self) -> Extra {
        match self {
            NoiseName::Pnoise1234 => Extra::Periods,
            NoiseName::Srdnoise23 => Extra::Angle,
            _ => Extra::None,
        }
    }

    /// Number of columns on a line for dimension `dims`.
    pub fn columns(self, dims: usize) -> usize {
        match self.extra() {
            Extra::None => dims,
            Extra::Periods => 2 * dims,
            Extra::Angle => dims + 1,
        }
    }

    /// The dimension a line of `columns` columns means, if this noise has it.
    pub fn dims_for_columns(self, columns: usize) -> Option<usize> {
        self.dims().find(|&d| self.columns(d) == columns)
    }

    /// The fixed precision of a reference port; `None` for the family, whose
    /// precision `--f32` chooses.
    pub fn fixed_precision(self) -> Option<Precision> {
        match self {
            // The OpenSimplex2 ports read `double` coordinates and return
            // a `float`.
            NoiseName::Perlin2002Java
            | NoiseName::Simplex2012Java
            | NoiseName::Simplex2005Java
            | NoiseName::Classic2005Java
            | NoiseName::OpenSimplex2Java
            | NoiseName::OpenSimplex2SJava => Some(Precision::F64),
            NoiseName::Noise1234
            | NoiseName::Pnoise1234
            | NoiseName::Snoise1234
            | NoiseName::Sdnoise1234
            | NoiseName::Srdnoise23 => Some(Precision::F32),
            NoiseName::Value
            | NoiseName::Perlin
            | NoiseName::Simplex
            | NoiseName::SimplexValue
            | NoiseName::OpenSimplex2
            | NoiseName::OpenSimplex2S
            | NoiseName::Cellular => None,
        }
    }

    /// Whether this is a port of K.jpg's OpenSimplex2 Java, which takes
    /// `--seed` (as a Java `long`) and `--variant`, and returns an `f32`
    /// from `f64` coordinates.
    pub fn is_opensimplex2(self) -> bool {
        matches!(
            self,
            NoiseName::OpenSimplex2Java | NoiseName::OpenSimplex2SJava
        )
    }

    /// Whether `--gradient` can print derivatives for this noise.
    pub fn has_gradient(self) -> bool {
        self.family().is_some() || matches!(self, NoiseName::Sdnoise1234 | NoiseName::Srdnoise23)
    }

    /// One-line description for `--help`.
    pub fn summary(self) -> &'static str {
        match self {
            NoiseName::Perlin2002Java => "Ken Perlin's ImprovedNoise.java (2002)",
            NoiseName::Simplex2012Java => "Gustavson's SimplexNoise.java (2012)",
            NoiseName::Simplex2005Java => {
                "SimplexNoise listing, \"Simplex noise demystified\" (2005)"
            }
            NoiseName::Classic2005Java => "ClassicNoise listing, same paper (2005)",
            NoiseName::Noise1234 => "Gustavson's noise1234.c noise1..4",
            NoiseName::Pnoise1234 => "noise1234.c pnoise1..4 (periodic)",
            NoiseName::Snoise1234 => "Gustavson's simplexnoise1234.c snoise1..4",
            NoiseName::Sdnoise1234 => "Gustavson's sdnoise1234.c, with derivatives",
            NoiseName::Srdnoise23 => "Gustavson's srdnoise23.c, rotating gradients",
            NoiseName::OpenSimplex2Java => "K.jpg's OpenSimplex2.java (\"faster\")",
            NoiseName::OpenSimplex2SJava => "K.jpg's OpenSimplex2S.java (\"smooth\")",
            NoiseName::Value => "surflet value noise",
            NoiseName::Perlin => "surflet Perlin noise",
            NoiseName::Simplex => "surflet simplex noise",
            NoiseName::SimplexValue => "surflet simplex value noise",
            NoiseName::OpenSimplex2 => "surflet OpenSimplex2 (continuous, seeded by u64)",
            NoiseName::OpenSimplex2S => "surflet OpenSimplex2S (continuous, seeded by u64)",
            NoiseName::Cellular => {
                "surflet cellular (Worley) noise; --distance, --return, --jitter"
            }
        }
    }

    /// How a line is laid out, for `--help`.
    fn columns_help(self) -> String {
        let dims = self.dims();
        match (self.extra(), dims.start() == dims.end()) {
            (Extra::None, true) => ["x", "y", "z", "w"][..*dims.start()].join(","),
            (Extra::None, false) => "D coordinates".to_string(),
            (Extra::Periods, _) => "D coordinates, D periods".to_string(),
            (Extra::Angle, _) => "D coordinates, angle t".to_string(),
        }
    }
}

impl std::fmt::Display for NoiseName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The table of names for `surflet sample --help`, built from the same
/// metadata the parser uses so the two cannot drift apart.
pub fn help_table() -> String {
    let mut s = String::new();
    let row = |s: &mut String, n: NoiseName| {
        let d = n.dims();
        let dims = if d.start() == d.end() {
            format!("{}D", d.start())
        } else {
            format!("{}D-{}D", d.start(), d.end())
        };
        let precision = match n.fixed_precision() {
            _ if n.is_opensimplex2() => "f64 in, f32 out, --seed, --variant",
            Some(Precision::F32) => "f32",
            Some(Precision::F64) => "f64",
            None => "f64 (or --f32)",
        };
        let gradient = if n.has_gradient() { ", --gradient" } else { "" };
        let _ = writeln!(
            s,
            "  {:<18} {:<6} {:<25} {precision}{gradient}\n  {:<18} {}",
            n.name(),
            dims,
            n.columns_help(),
            "",
            n.summary()
        );
    };
    s.push_str("NOISES\n");
    s.push_str(
        "  name               dims   columns per line          computes in, derivatives\n\n",
    );
    s.push_str(
        "  Reference ports, bit-exact with the original code (no options apply, but\n  \
         --seed and --variant to the OpenSimplex2 ports):\n",
    );
    for n in NoiseName::ALL.into_iter().filter(|n| n.family().is_none()) {
        row(&mut s, n);
    }
    s.push_str(
        "\n  The surflet family: seeded, seam-free, analytic gradients\n  \
         (--seed, --period, --f32 and --gradient apply; in 5D-8D, see N-D NOISE,\n  \
         no --period):\n",
    );
    for n in NoiseName::ALL.into_iter().filter(|n| n.family().is_some()) {
        row(&mut s, n);
    }
    s.push_str(&variant_help());
    s
}

/// A lattice orientation of the OpenSimplex2 ports: which Java function
/// `opensimplex2-java` and `opensimplex2s-java` call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, ValueEnum)]
pub enum Variant {
    /// 2D `noise2`.
    #[value(name = "standard")]
    Standard,
    /// 2D `noise2_ImproveX`.
    #[value(name = "improve-x")]
    ImproveX,
    /// 3D `noise3_ImproveXY`.
    #[value(name = "improve-xy")]
    ImproveXy,
    /// 3D `noise3_ImproveXZ`.
    #[value(name = "improve-xz")]
    ImproveXz,
    /// 3D `noise3_Fallback` or 4D `noise4_Fallback`.
    #[value(name = "fallback")]
    Fallback,
    /// 4D `noise4_ImproveXYZ_ImproveXY`.
    #[value(name = "improve-xyz-improve-xy")]
    ImproveXyzImproveXy,
    /// 4D `noise4_ImproveXYZ_ImproveXZ`.
    #[value(name = "improve-xyz-improve-xz")]
    ImproveXyzImproveXz,
    /// 4D `noise4_ImproveXYZ`.
    #[value(name = "improve-xyz")]
    ImproveXyz,
    /// 4D `noise4_ImproveXY_ImproveZW`.
    #[value(name = "improve-xy-improve-zw")]
    ImproveXyImproveZw,
}

impl Variant {
    /// The variants of dimension `dims` (2 to 4), the default first.
    pub fn of_dims(dims: usize) -> &'static [Variant] {
        match dims {
            2 => &[Variant::Standard, Variant::ImproveX],
            3 => &[Variant::ImproveXy, Variant::ImproveXz, Variant::Fallback],
            4 => &[
                Variant::ImproveXyz,
                Variant::ImproveXyzImproveXy,
                Variant::ImproveXyzImproveXz,
                Variant::ImproveXyImproveZw,
                Variant::Fallback,
            ],
            _ => &[],
        }
    }

    /// The variant used in `dims` dimensions when `--variant` is not given.
    pub fn default_for(dims: usize) -> Option<Variant> {
        Variant::of_dims(dims).first().copied()
    }

    /// The name as written on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::ImproveX => "improve-x",
            Variant::ImproveXy => "improve-xy",
            Variant::ImproveXz => "improve-xz",
            Variant::Fallback => "fallback",
            Variant::ImproveXyzImproveXy => "improve-xyz-improve-xy",
            Variant::ImproveXyzImproveXz => "improve-xyz-improve-xz",
            Variant::ImproveXyz => "improve-xyz",
            Variant::ImproveXyImproveZw => "improve-xy-improve-zw",
        }
    }

    /// The Java method it calls in `dims` dimensions, if it exists there.
    pub fn java_method(self, dims: usize) -> Option<&'static str> {
        Some(match (self, dims) {
            (Variant::Standard, 2) => "noise2",
            (Variant::ImproveX, 2) => "noise2_ImproveX",
            (Variant::ImproveXy, 3) => "noise3_ImproveXY",
            (Variant::ImproveXz, 3) => "noise3_ImproveXZ",
            (Variant::Fallback, 3) => "noise3_Fallback",
            (Variant::ImproveXyzImproveXy, 4) => "noise4_ImproveXYZ_ImproveXY",
            (Variant::ImproveXyzImproveXz, 4) => "noise4_ImproveXYZ_ImproveXZ",
            (Variant::ImproveXyz, 4) => "noise4_ImproveXYZ",
            (Variant::ImproveXyImproveZw, 4) => "noise4_ImproveXY_ImproveZW",
            (Variant::Fallback, 4) => "noise4_Fallback",
            _ => return None,
        })
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The `--variant` table for `surflet sample --help`, from the same
/// metadata the evaluator uses.
fn variant_help() -> String {
    let mut s = String::from(
        "\nOPENSIMPLEX2 VARIANTS\n  \
         --variant V picks the lattice orientation, the Java method called; the\n  \
         first of each dimension is the default. --seed is the Java long seed:\n  \
         the integer modulo 2^64, so -1 and 18446744073709551615 are the same.\n",
    );
    for dims in 2..=4 {
        for (i, v) in Variant::of_dims(dims).iter().enumerate() {
            let method = v.java_method(dims).unwrap_or_default();
            let default = if i == 0 { " (default)" } else { "" };
            let _ = writeln!(s, "  {dims}D  {:<24} {method}{default}", v.name());
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_clap() {
        for n in NoiseName::ALL {
            assert_eq!(NoiseName::from_str(n.name(), false), Ok(n));
        }
        assert_eq!(NoiseName::value_variants().len(), NoiseName::ALL.len());
    }

    #[test]
    fn family_names_match_the_library() {
        for n in NoiseName::ALL {
            if let Some(k) = n.family() {
                assert_eq!(NoiseKind::from_name(n.name()), Ok(k));
                assert_eq!(NoiseName::of_kind(k), n);
            }
        }
        assert_eq!(
            NoiseName::ALL
                .iter()
                .filter(|n| n.family().is_some())
                .count(),
            NoiseKind::ALL.len()
        );
    }

    #[test]
    fn column_layouts() {
        assert_eq!(NoiseName::Perlin2002Java.dims_for_columns(3), Some(3));
        assert_eq!(NoiseName::Perlin2002Java.dims_for_columns(2), None);
        assert_eq!(NoiseName::Pnoise1234.dims_for_columns(8), Some(4));
        assert_eq!(NoiseName::Pnoise1234.dims_for_columns(5), None);
        assert_eq!(NoiseName::Srdnoise23.dims_for_columns(3), Some(2));
        assert_eq!(NoiseName::Srdnoise23.dims_for_columns(2), None);
        // value, perlin and simplex go to 8D (N-D noise); simplex-value not.
        assert_eq!(NoiseName::Value.dims_for_columns(5), Some(5));
        assert_eq!(NoiseName::Simplex.dims_for_columns(8), Some(8));
        assert_eq!(NoiseName::Perlin.dims_for_columns(9), None);
        assert_eq!(NoiseName::SimplexValue.dims_for_columns(5), None);
        assert_eq!(NoiseName::OpenSimplex2Java.dims_for_columns(4), Some(4));
        assert_eq!(NoiseName::OpenSimplex2SJava.dims_for_columns(1), None);
    }

    #[test]
    fn variants_cover_every_java_method_once() {
        let mut methods = Vec::new();
        for dims in 2..=4 {
            for v in Variant::of_dims(dims) {
                methods.push(v.java_method(dims).expect("listed variant exists"));
            }
        }
        assert_eq!(methods.len(), 10);
        let mut unique = methods.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), 10, "{methods:?}");
        for v in Variant::value_variants() {
            assert_eq!(Variant::from_str(v.name(), false), Ok(*v));
            assert!((2..=4).any(|d| v.java_method(d).is_some()), "{v}");
        }
        assert_eq!(Variant::default_for(2), Some(Variant::Standard));
        assert_eq!(Variant::default_for(3), Some(Variant::ImproveXy));
        assert_eq!(Variant::default_for(4), Some(Variant::ImproveXyz));
    }
}
