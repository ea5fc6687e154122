//! The registry of the family's noise kinds: one row per kind, from which
//! [`NoiseKind`] and everything that dispatches on it are generated — its
//! names, summary, periodic dimensions and N-D form, and the kernel types
//! that every call path (`with_kernel!`), the WGSL writer and the front ends
//! use. Adding a kind is a kernel file (its lane function, its `Kernel`
//! type and its WGSL) and a row here; the command line, configs, the
//! expression language, Python, C and the explorer read the rest from
//! [`NoiseKind`].

use crate::error::Error;
use crate::nd::NdKind;
use crate::prelude_internal::*;

/// The largest period on any axis.
pub const MAX_PERIOD: u32 = 65536;

/// Generates [`NoiseKind`] and `with_kernel!` from the table below. `$d` is
/// a `$`, so that the generated macro can have metavariables of its own.
macro_rules! noise_kinds {
    ($d:tt; $(
        $(#[doc = $doc:literal])*
        $variant:ident {
            name: $name:literal,
            summary: $summary:literal,
            periodic: [$($pd:literal),*],
            nd: $nd:expr,
            kernels: ($plain:ty, $periodic:ty $(,)?) $(,)?
        }
    )*) => {
        /// The noises of the surflet family.
        ///
        /// | kind | lattice | corner quantity | range |
        /// |---|---|---|---|
        /// | [`Value`](NoiseKind::Value) | hypercube, quintic blend | value in (-1, 1) | (-1, 1) |
        /// | [`ValueCubic`](NoiseKind::ValueCubic) | hypercube, Catmull-Rom over 4^D points | value in (-1, 1) | (-1, 1) |
        /// | [`Perlin`](NoiseKind::Perlin) | hypercube, quintic blend | gradient ramp | [-1, 1] |
        /// | [`Simplex`](NoiseKind::Simplex) | simplex, radius² ½ | gradient ramp | [-1, 1] |
        /// | [`SimplexValue`](NoiseKind::SimplexValue) | simplex, radius² ½ | value in (-1, 1) | (-1, 1) |
        /// | [`OpenSimplex2`](NoiseKind::OpenSimplex2), [`OpenSimplex2S`](NoiseKind::OpenSimplex2S) | simplex, quartic surflets | gradient ramp | [-1, 1] |
        /// | [`Cellular`](NoiseKind::Cellular) | one feature point per cell | distances ([`Cellular`](crate::Cellular)) | [-1, 1] |
        ///
        /// Every range is exact: the bound is the supremum over all points and all
        /// gradient assignments, derived in `docs/RANGES.md` and measured by the test
        /// suite.
        ///
        /// ```
        /// use surflet::NoiseKind;
        /// assert_eq!(NoiseKind::from_name("simplex-value")?, NoiseKind::SimplexValue);
        /// assert_eq!(NoiseKind::Perlin.name(), "perlin");
        /// # Ok::<(), surflet::Error>(())
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum NoiseKind {
            $($(#[doc = $doc])* $variant,)*
        }

        impl NoiseKind {
            /// All kinds, in documentation order.
            pub const ALL: [NoiseKind; [$(NoiseKind::$variant),*].len()] = [$(NoiseKind::$variant),*];

            /// The name used on the command line and in configs.
            pub const fn name(self) -> &'static str {
                match self {
                    $(NoiseKind::$variant => $name,)*
                }
            }

            /// A one-line description, for help texts and catalogues.
            pub const fn summary(self) -> &'static str {
                match self {
                    $(NoiseKind::$variant => $summary,)*
                }
            }

            /// Dimensions in which this kind can be periodic.
            pub const fn periodic_dims(self) -> &'static [usize] {
                match self {
                    $(NoiseKind::$variant => &[$($pd),*],)*
                }
            }

            /// The same noise in any dimension from 1 to 8
            /// ([`NoiseNd`](crate::nd::NoiseNd)), where the kind has one: in
            /// 1D–4D it gives this kind's bits.
            pub const fn nd(self) -> Option<NdKind> {
                match self {
                    $(NoiseKind::$variant => $nd,)*
                }
            }
        }

        /// Evaluates `$body` with `$k` bound to the kernel type of `$noise`'s
        /// kind and period: the one table from a [`Noise`](crate::Noise) to
        /// its kernel, which every call path uses.
        macro_rules! with_kernel {
            ($d noise:expr, $d k:ident => $d body:expr) => {{
                macro_rules! kernel {
                    ($d t:ty) => {{
                        type $d k = $d t;
                        $d body
                    }};
                }
                let noise = $d noise;
                match (noise.kind(), noise.period().is_some()) {
                    $(
                        ($crate::NoiseKind::$variant, false) => kernel!($plain),
                        ($crate::NoiseKind::$variant, true) => kernel!($periodic),
                    )*
                }
            }};
        }
        pub(crate) use with_kernel;
    };
}

noise_kinds! { $;
    /// Value noise: a random value at each lattice point, blended with the
    /// quintic fade.
    Value {
        name: "value",
        summary: "surflet value noise",
        periodic: [1, 2, 3, 4],
        nd: Some(NdKind::Value),
        kernels: (
            crate::kernel::select::HypercubeK<false, false>,
            crate::kernel::select::HypercubeK<false, true>,
        ),
    }
    /// Cubic value noise: value noise's lattice values (the same at each
    /// lattice point, for the same seed) joined by Catmull-Rom splines over
    /// the 4 lattice points around the point on each axis, so the gradient
    /// is continuous too; FastNoiseLite's `ValueCubic` with the spline's
    /// own slopes (its are twice these).
    ValueCubic {
        name: "value-cubic",
        summary: "surflet cubic value noise (Catmull-Rom)",
        periodic: [1, 2, 3, 4],
        nd: None,
        kernels: (
            crate::kernel::cubic::ValueCubicK<false>,
            crate::kernel::cubic::ValueCubicK<true>,
        ),
    }
    /// Improved Perlin noise: gradient ramps at the cube corners, blended with
    /// the quintic fade.
    Perlin {
        name: "perlin",
        summary: "surflet Perlin noise",
        periodic: [1, 2, 3, 4],
        nd: Some(NdKind::Perlin),
        kernels: (
            crate::kernel::select::HypercubeK<true, false>,
            crate::kernel::select::HypercubeK<true, true>,
        ),
    }
    /// Simplex noise: gradient surflets summed over the simplex corners.
    Simplex {
        name: "simplex",
        summary: "surflet simplex noise",
        periodic: [1, 2, 3],
        nd: Some(NdKind::Simplex),
        kernels: (
            crate::kernel::select::SimplexK<false>,
            crate::kernel::select::SimplexK<true>,
        ),
    }
    /// Simplex value noise: value surflets summed over the simplex corners.
    SimplexValue {
        name: "simplex-value",
        summary: "surflet simplex value noise",
        periodic: [1, 2, 3],
        nd: None,
        kernels: (
            crate::kernel::select::SimplexValueK<false>,
            crate::kernel::select::SimplexValueK<true>,
        ),
    }
    /// OpenSimplex2 (K.jpg): quartic surflets with radius² ½ on the simplex
    /// lattices, the 3D one turned so that xy slices show no diagonal bias;
    /// K.jpg's gradient sets. See the notes in
    /// `ARCHITECTURE.md` and `docs/RANGES.md`. No periodic form: its 3D
    /// lattice is turned by an irrational rotation, and in 2D and 4D periods
    /// would need lattices of their own.
    OpenSimplex2 {
        name: "opensimplex2",
        summary: "surflet OpenSimplex2 (continuous, seeded by u64)",
        periodic: [],
        nd: None,
        kernels: (
            crate::kernel::select::OpenSimplexK<false>,
            crate::kernel::select::OpenSimplexK<false>,
        ),
    }
    /// OpenSimplex2S (K.jpg's "SuperSimplex"): the same lattices with the
    /// larger radii ⅔, ¾, ⅘, summing every lattice point within reach;
    /// smoother and slower than [`OpenSimplex2`](Self::OpenSimplex2).
    OpenSimplex2S {
        name: "opensimplex2s",
        summary: "surflet OpenSimplex2S (continuous, seeded by u64)",
        periodic: [],
        nd: None,
        kernels: (
            crate::kernel::select::OpenSimplexK<true>,
            crate::kernel::select::OpenSimplexK<true>,
        ),
    }
    /// Cellular (Worley) noise: distances to the nearest feature points,
    /// one per cell; options in [`Cellular`](crate::Cellular)
    /// ([`Noise::with_cellular`](crate::Noise::with_cellular)).
    Cellular {
        name: "cellular",
        summary: "surflet cellular (Worley) noise; --distance, --return, --jitter",
        periodic: [1, 2, 3, 4],
        nd: None,
        kernels: (
            crate::kernel::select::CellularK<false>,
            crate::kernel::select::CellularK<true>,
        ),
    }
}

impl NoiseKind {
    /// Parses a name produced by [`name`](Self::name).
    pub fn from_name(name: &str) -> Result<NoiseKind, Error> {
        NoiseKind::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| Error::UnknownName {
                what: "noise",
                name: name.to_string(),
                expected: NoiseKind::ALL.map(|k| k.name()).join(", "),
            })
    }

    /// Checks `period` (one entry per axis, so its length is the dimension)
    /// for this kind: [`Error::PeriodUnsupported`] if the kind has no
    /// periodic form in that dimension, [`Error::Period`] for a period
    /// outside `1..=MAX_PERIOD` or an odd y period of 2D simplex noise
    /// (whose periodic lattice is hexagonal). [`Noise::with_period`](crate::Noise::with_period)
    /// and stack checks both use it.
    ///
    /// ```
    /// use surflet::NoiseKind;
    /// assert!(NoiseKind::Perlin.check_period(&[4, 8, 2]).is_ok());
    /// assert!(NoiseKind::OpenSimplex2.check_period(&[4, 4]).is_err());
    /// assert!(NoiseKind::Simplex.check_period(&[4, 5]).is_err());
    /// ```
    pub fn check_period(self, period: &[u32]) -> Result<(), Error> {
        let dims = period.len();
        if !self.periodic_dims().contains(&dims) {
            return Err(Error::PeriodUnsupported {
                kind: self.name(),
                dims,
                supported: match self.periodic_dims() {
                    [] => "no dimension",
                    [1, 2, 3] => "1D, 2D and 3D",
                    _ => "1D to 4D",
                },
            });
        }
        for (axis, &p) in period.iter().enumerate() {
            if p == 0 || p > MAX_PERIOD {
                return Err(Error::Period {
                    axis,
                    period: p as u64,
                    reason: format!("periods must be in 1..={MAX_PERIOD}"),
                });
            }
        }
        let simplex = matches!(self, NoiseKind::Simplex | NoiseKind::SimplexValue);
        if simplex && dims == 2 && period[1] % 2 == 1 {
            return Err(Error::Period {
                axis: 1,
                period: period[1] as u64,
                reason: "periodic 2D simplex noise lives on a hexagonal lattice whose rows \
                         alternate, so the y period must be even"
                    .to_string(),
            });
        }
        Ok(())
    }
}

impl core::fmt::Display for NoiseKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
