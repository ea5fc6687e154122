//! Parameters of cellular (Worley) noise: [`Cellular`], [`CellularDistance`],
//! [`CellularReturn`]. The kernel, its search-window proof and its ranges
//! live in `kernel/cellular.rs` and `docs/RANGES.md`.

use crate::error::Error;
use crate::prelude_internal::*;

/// How cellular noise measures the distance from a point to a feature point
/// (`d` is their difference).
///
/// ```
/// use surflet::CellularDistance;
/// assert_eq!(CellularDistance::from_name("euclidean-squared")?, CellularDistance::EuclideanSquared);
/// assert_eq!(CellularDistance::Hybrid.name(), "hybrid");
/// # Ok::<(), surflet::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CellularDistance {
    /// `|d|`, the straight-line distance.
    #[default]
    Euclidean,
    /// `|d|²`.
    EuclideanSquared,
    /// `Σ |dₐ|`.
    Manhattan,
    /// `max |dₐ|`.
    Chebyshev,
    /// `|d|² + Σ |dₐ|`: euclidean-squared plus manhattan, as FastNoiseLite
    /// defines its hybrid distance.
    Hybrid,
}

impl CellularDistance {
    /// All distances, in documentation order.
    pub const ALL: [CellularDistance; 5] = [
        CellularDistance::Euclidean,
        CellularDistance::EuclideanSquared,
        CellularDistance::Manhattan,
        CellularDistance::Chebyshev,
        CellularDistance::Hybrid,
    ];

    /// The name used on the command line and in configs.
    ///
    /// ```
    /// assert_eq!(surflet::CellularDistance::Manhattan.name(), "manhattan");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            CellularDistance::Euclidean => "euclidean",
            CellularDistance::EuclideanSquared => "euclidean-squared",
            CellularDistance::Manhattan => "manhattan",
            CellularDistance::Chebyshev => "chebyshev",
            CellularDistance::Hybrid => "hybrid",
        }
    }

    /// Parses a name produced by [`name`](Self::name).
    ///
    /// ```
    /// assert!(surflet::CellularDistance::from_name("taxicab").is_err());
    /// ```
    pub fn from_name(name: &str) -> Result<Self, Error> {
        Self::ALL
            .into_iter()
            .find(|d| d.name() == name)
            .ok_or_else(|| Error::UnknownName {
                what: "cellular distance",
                name: name.to_string(),
                expected: Self::ALL.map(|d| d.name()).join(", "),
            })
    }

    /// The distance of a single-axis offset `x ≥ 0` (every distance here
    /// agrees with this on vectors with one non-zero component).
    pub(crate) fn axis(self, x: f64) -> f64 {
        match self {
            CellularDistance::Euclidean | CellularDistance::Manhattan => x,
            CellularDistance::Chebyshev => x,
            CellularDistance::EuclideanSquared => x * x,
            CellularDistance::Hybrid => x * x + x,
        }
    }

    /// The distance of the non-negative vector `v`.
    pub(crate) fn of(self, v: &[f64]) -> f64 {
        let sq: f64 = v.iter().map(|x| x * x).sum();
        let l1: f64 = v.iter().sum();
        match self {
            CellularDistance::Euclidean => sq.sqrt(),
            CellularDistance::EuclideanSquared => sq,
            CellularDistance::Manhattan => l1,
            CellularDistance::Chebyshev => v.iter().fold(0.0, |m, &x| f64::max(m, x)),
            CellularDistance::Hybrid => sq + l1,
        }
    }
}

impl core::fmt::Display for CellularDistance {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// What cellular noise returns, from the distances `f1 ≤ f2` to the nearest
/// and second-nearest feature points.
///
/// ```
/// use surflet::CellularReturn;
/// assert_eq!(CellularReturn::from_name("f2-f1")?, CellularReturn::F2MinusF1);
/// assert_eq!(CellularReturn::CellValue.name(), "cell-value");
/// # Ok::<(), surflet::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CellularReturn {
    /// `f1`, the distance to the nearest feature point.
    #[default]
    F1,
    /// `f2`, the distance to the second-nearest feature point.
    F2,
    /// `f2 − f1`: zero on the cell borders.
    F2MinusF1,
    /// `f1 + f2`.
    F1PlusF2,
    /// `f1 · f2`.
    F1TimesF2,
    /// `f1 / f2`, in `[0, 1]`.
    F1OverF2,
    /// A random value in `(-1, 1)` per cell, hashed from the cell that holds
    /// the nearest feature point: flat Voronoi cells.
    CellValue,
}

impl CellularReturn {
    /// All return values, in documentation order.
    pub const ALL: [CellularReturn; 7] = [
        CellularReturn::F1,
        CellularReturn::F2,
        CellularReturn::F2MinusF1,
        CellularReturn::F1PlusF2,
        CellularReturn::F1TimesF2,
        CellularReturn::F1OverF2,
        CellularReturn::CellValue,
    ];

    /// The name used on the command line and in configs.
    ///
    /// ```
    /// assert_eq!(surflet::CellularReturn::F1TimesF2.name(), "f1*f2");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            CellularReturn::F1 => "f1",
            CellularReturn::F2 => "f2",
            CellularReturn::F2MinusF1 => "f2-f1",
            CellularReturn::F1PlusF2 => "f1+f2",
            CellularReturn::F1TimesF2 => "f1*f2",
            CellularReturn::F1OverF2 => "f1/f2",
            CellularReturn::CellValue => "cell-value",
        }
    }

    /// Parses a name produced by [`name`](Self::name).
    ///
    /// ```
    /// assert!(surflet::CellularReturn::from_name("f3").is_err());
    /// ```
    pub fn from_name(name: &str) -> Result<Self, Error> {
        Self::ALL
            .into_iter()
            .find(|r| r.name() == name)
            .ok_or_else(|| Error::UnknownName {
                what: "cellular return",
                name: name.to_string(),
                expected: Self::ALL.map(|r| r.name()).join(", "),
            })
    }
}

impl core::fmt::Display for CellularReturn {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// The options of cellular noise: distance, return value and jitter.
///
/// Each lattice cell `c` holds one feature point,
/// `c + ½ + jitter · (u − ½)` with `u ∈ [0, 1)ᴰ` hashed from the cell, so a
/// jitter of 0 gives a regular grid of points at the cell centres and 1 (the
/// default) lets each point go anywhere in its cell.
///
/// `Eq` and `Hash` compare the jitter by its bits; [`new`](Self::new) turns
/// `-0.0` into `0.0` so that equal jitters have equal bits.
///
/// ```
/// use surflet::{Cellular, CellularDistance, CellularReturn, Noise, NoiseKind};
/// let params = Cellular::new(CellularDistance::Manhattan, CellularReturn::F2MinusF1, 0.5)?;
/// let n = Noise::<2>::new(NoiseKind::Cellular, 7).with_cellular(params)?;
/// assert!(n.get([0.3f64, 4.2]).abs() <= 1.0);
/// assert!(Cellular::new(CellularDistance::Euclidean, CellularReturn::F1, 2.0).is_err());
/// assert_eq!(Cellular::default().jitter(), 1.0);
/// # Ok::<(), surflet::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Cellular {
    /// How distances are measured.
    pub distance: CellularDistance,
    /// What is returned.
    pub ret: CellularReturn,
    jitter: f64,
}

impl Cellular {
    /// The defaults: euclidean distance, `f1`, jitter 1.
    pub const DEFAULT: Cellular = Cellular {
        distance: CellularDistance::Euclidean,
        ret: CellularReturn::F1,
        jitter: 1.0,
    };

    /// Options with the given distance, return value and jitter; fails unless
    /// `jitter` is in `[0, 1]` (NaN included).
    pub fn new(
        distance: CellularDistance,
        ret: CellularReturn,
        jitter: f64,
    ) -> Result<Self, Error> {
        Ok(Cellular {
            distance,
            ret,
            jitter: check_jitter(jitter)?,
        })
    }

    /// The same options with another jitter; fails unless it is in `[0, 1]`.
    ///
    /// ```
    /// let p = surflet::Cellular::default().with_jitter(0.25)?;
    /// assert_eq!(p.jitter(), 0.25);
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn with_jitter(self, jitter: f64) -> Result<Self, Error> {
        Cellular::new(self.distance, self.ret, jitter)
    }

    /// The jitter, in `[0, 1]`.
    pub const fn jitter(&self) -> f64 {
        self.jitter
    }
}

fn check_jitter(j: f64) -> Result<f64, Error> {
    if (0.0..=1.0).contains(&j) {
        // -0.0 + 0.0 is +0.0: one bit pattern per value, for Eq and Hash.
        Ok(j + 0.0)
    } else {
        Err(Error::Parameter {
            name: "jitter".into(),
            reason: format!("{j} is not in [0, 1]"),
        })
    }
}

impl Default for Cellular {
    fn default() -> Self {
        Cellular::DEFAULT
    }
}

impl PartialEq for Cellular {
    fn eq(&self, other: &Self) -> bool {
        self.distance == other.distance
            && self.ret == other.ret
            && self.jitter.to_bits() == other.jitter.to_bits()
    }
}

impl Eq for Cellular {}

impl core::hash::Hash for Cellular {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.distance.hash(state);
        self.ret.hash(state);
        self.jitter.to_bits().hash(state);
    }
}

/// The exact range `[lo, hi]` of `ret` under `distance` in `D` dimensions
/// at `jitter` (derived in `docs/RANGES.md` and the kernel's module docs).
///
/// With `a = (1 + j)/2` and `b = (1 − j)/2`: `V = dist(a, …, a)` (a lattice
/// vertex whose 2ᴰ cells put their points in their far corners), `C =
/// dist(1 + j/2, j/2, …, j/2)` (a cell centre whose face neighbours do), `G =
/// dist(b, 0, …)` (half the gap between two neighbouring cells' points).
pub(crate) fn range(
    dims: usize,
    distance: CellularDistance,
    ret: CellularReturn,
    j: f64,
) -> (f64, f64) {
    let a = (1.0 + j) / 2.0;
    let v = distance.of(&[a; 4][..dims]);
    let mut cv = [j / 2.0; 4];
    cv[0] = 1.0 + j / 2.0;
    let c = distance.of(&cv[..dims]);
    let g = distance.axis((1.0 - j) / 2.0);
    let f2 = v.max(c);
    match ret {
        CellularReturn::F1 => (0.0, v),
        CellularReturn::F2 => (g, f2),
        CellularReturn::F2MinusF1 => (0.0, f2),
        CellularReturn::F1PlusF2 => (2.0 * g, v + f2),
        CellularReturn::F1TimesF2 => (0.0, v * f2),
        CellularReturn::F1OverF2 => (0.0, 1.0),
        CellularReturn::CellValue => (-1.0, 1.0),
    }
}
