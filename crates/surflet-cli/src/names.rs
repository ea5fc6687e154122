//! The noise names the command line accepts, and what each one takes.
//!
//! These names are a public contract: scripts pass them to `surflet sample`
//! (and later to `render` and `gallery`), so a name, once published, never
//! changes meaning.

use std::fmt::Write as _;
use std::ops::RangeInclusive;

use clap::ValueEnum;
use surflet::NoiseKind;

/// A noise that can be named on the command line: a kind of the surflet
/// family (the library's [`NoiseKind`], whose names and summaries are its
/// own) or a reference port.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoiseName {
    /// A family noise.
    Family(NoiseKind),
    /// A reference port.
    Port(Port),
}

/// A reference port: the original code of a published noise, bit for bit
/// (`surflet::reference`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, ValueEnum)]
pub enum Port {
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

impl Port {
    /// Every port, in the order `--help` lists them.
    pub const ALL: [Port; 11] = [
        Port::Perlin2002Java,
        Port::Simplex2012Java,
        Port::Simplex2005Java,
        Port::Classic2005Java,
        Port::Noise1234,
        Port::Pnoise1234,
        Port::Snoise1234,
        Port::Sdnoise1234,
        Port::Srdnoise23,
        Port::OpenSimplex2Java,
        Port::OpenSimplex2SJava,
    ];

    /// The name as written on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Port::Perlin2002Java => "perlin2002-java",
            Port::Simplex2012Java => "simplex2012-java",
            Port::Simplex2005Java => "simplex2005-java",
            Port::Classic2005Java => "classic2005-java",
            Port::Noise1234 => "noise1234",
            Port::Pnoise1234 => "pnoise1234",
            Port::Snoise1234 => "snoise1234",
            Port::Sdnoise1234 => "sdnoise1234",
            Port::Srdnoise23 => "srdnoise23",
            Port::OpenSimplex2Java => "opensimplex2-java",
            Port::OpenSimplex2SJava => "opensimplex2s-java",
        }
    }

    /// The dimensions the original has.
    fn dims(self) -> RangeInclusive<usize> {
        match self {
            Port::Perlin2002Java | Port::Classic2005Java => 3..=3,
            Port::Simplex2012Java
            | Port::Simplex2005Java
            | Port::OpenSimplex2Java
            | Port::OpenSimplex2SJava => 2..=4,
            Port::Srdnoise23 => 2..=3,
            Port::Noise1234 | Port::Pnoise1234 | Port::Snoise1234 | Port::Sdnoise1234 => 1..=4,
        }
    }

    /// The precision of the original: the OpenSimplex2 ports read `double`
    /// coordinates and return a `float`.
    fn precision(self) -> Precision {
        match self {
            Port::Perlin2002Java
            | Port::Simplex2012Java
            | Port::Simplex2005Java
            | Port::Classic2005Java
            | Port::OpenSimplex2Java
            | Port::OpenSimplex2SJava => Precision::F64,
            Port::Noise1234
            | Port::Pnoise1234
            | Port::Snoise1234
            | Port::Sdnoise1234
            | Port::Srdnoise23 => Precision::F32,
        }
    }

    /// One-line description for `--help`.
    fn summary(self) -> &'static str {
        match self {
            Port::Perlin2002Java => "Ken Perlin's ImprovedNoise.java (2002)",
            Port::Simplex2012Java => "Gustavson's SimplexNoise.java (2012)",
            Port::Simplex2005Java => "SimplexNoise listing, \"Simplex noise demystified\" (2005)",
            Port::Classic2005Java => "ClassicNoise listing, same paper (2005)",
            Port::Noise1234 => "Gustavson's noise1234.c noise1..4",
            Port::Pnoise1234 => "noise1234.c pnoise1..4 (periodic)",
            Port::Snoise1234 => "Gustavson's simplexnoise1234.c snoise1..4",
            Port::Sdnoise1234 => "Gustavson's sdnoise1234.c, with derivatives",
            Port::Srdnoise23 => "Gustavson's srdnoise23.c, rotating gradients",
            Port::OpenSimplex2Java => "K.jpg's OpenSimplex2.java (\"faster\")",
            Port::OpenSimplex2SJava => "K.jpg's OpenSimplex2S.java (\"smooth\")",
        }
    }
}

impl NoiseName {
    /// Every name, in the order `--help` lists them: the ports, then the
    /// family's kinds.
    pub const ALL: [NoiseName; Port::ALL.len() + NoiseKind::ALL.len()] = {
        let mut all = [NoiseName::Family(NoiseKind::Value); Port::ALL.len() + NoiseKind::ALL.len()];
        let mut i = 0;
        while i < Port::ALL.len() {
            all[i] = NoiseName::Port(Port::ALL[i]);
            i += 1;
        }
        let mut k = 0;
        while k < NoiseKind::ALL.len() {
            all[i + k] = NoiseName::Family(NoiseKind::ALL[k]);
            k += 1;
        }
        all
    };

    /// The name as written on the command line.
    pub fn name(self) -> &'static str {
        match self {
            NoiseName::Family(k) => k.name(),
            NoiseName::Port(p) => p.name(),
        }
    }

    /// The family kind, for the family's names.
    pub fn family(self) -> Option<NoiseKind> {
        match self {
            NoiseName::Family(k) => Some(k),
            NoiseName::Port(_) => None,
        }
    }

    /// The name of the family kind `kind`.
    pub fn of_kind(kind: NoiseKind) -> NoiseName {
        NoiseName::Family(kind)
    }

    /// The dimensions this noise exists in: a family kind with an N-D form
    /// goes to 8D (`surflet::nd`), the others to 4D.
    pub fn dims(self) -> RangeInclusive<usize> {
        match self {
            NoiseName::Family(k) if k.nd().is_some() => 1..=8,
            NoiseName::Family(_) => 1..=4,
            NoiseName::Port(p) => p.dims(),
        }
    }

    /// What a line carries after the coordinates.
    pub fn extra(self) -> Extra {
        match self {
            NoiseName::Port(Port::Pnoise1234) => Extra::Periods,
            NoiseName::Port(Port::Srdnoise23) => Extra::Angle,
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
            NoiseName::Family(_) => None,
            NoiseName::Port(p) => Some(p.precision()),
        }
    }

    /// Whether this is a port of K.jpg's OpenSimplex2 Java, which takes
    /// `--seed` (as a Java `long`) and `--variant`, and returns an `f32`
    /// from `f64` coordinates.
    pub fn is_opensimplex2(self) -> bool {
        matches!(
            self,
            NoiseName::Port(Port::OpenSimplex2Java | Port::OpenSimplex2SJava)
        )
    }

    /// Whether `--gradient` can print derivatives for this noise.
    pub fn has_gradient(self) -> bool {
        matches!(
            self,
            NoiseName::Family(_) | NoiseName::Port(Port::Sdnoise1234 | Port::Srdnoise23)
        )
    }

    /// One-line description for `--help`.
    pub fn summary(self) -> &'static str {
        match self {
            NoiseName::Family(k) => k.summary(),
            NoiseName::Port(p) => p.summary(),
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

impl ValueEnum for NoiseName {
    fn value_variants<'a>() -> &'a [Self] {
        &NoiseName::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()))
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
        use NoiseName::{Family as F, Port as P};
        assert_eq!(P(Port::Perlin2002Java).dims_for_columns(3), Some(3));
        assert_eq!(P(Port::Perlin2002Java).dims_for_columns(2), None);
        assert_eq!(P(Port::Pnoise1234).dims_for_columns(8), Some(4));
        assert_eq!(P(Port::Pnoise1234).dims_for_columns(5), None);
        assert_eq!(P(Port::Srdnoise23).dims_for_columns(3), Some(2));
        assert_eq!(P(Port::Srdnoise23).dims_for_columns(2), None);
        // value, perlin and simplex go to 8D (N-D noise); simplex-value not.
        assert_eq!(F(NoiseKind::Value).dims_for_columns(5), Some(5));
        assert_eq!(F(NoiseKind::Simplex).dims_for_columns(8), Some(8));
        assert_eq!(F(NoiseKind::Perlin).dims_for_columns(9), None);
        assert_eq!(F(NoiseKind::SimplexValue).dims_for_columns(5), None);
        assert_eq!(P(Port::OpenSimplex2Java).dims_for_columns(4), Some(4));
        assert_eq!(P(Port::OpenSimplex2SJava).dims_for_columns(1), None);
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
