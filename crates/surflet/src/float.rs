//! The scalar element types surflet computes in: `f32` and `f64`.

use crate::error::Error;
pub use crate::simd::Element;
use crate::simd::Isa;

/// The object-safe form of [`Field`](crate::Field), one method per precision, that
/// graphs hold user fields by ([`Graph::custom`](crate::graph::Graph::custom)).
#[doc(hidden)]
pub trait DynField<const D: usize>: Send + Sync {
    fn range_dyn(&self) -> (f64, f64);
    fn fill_f32(
        &self,
        isa: Isa,
        coords: [&[f32]; D],
        out: &mut [f32],
        gradient: Option<[&mut [f32]; D]>,
    ) -> Result<(), Error>;
    fn fill_f64(
        &self,
        isa: Isa,
        coords: [&[f64]; D],
        out: &mut [f64],
        gradient: Option<[&mut [f64]; D]>,
    ) -> Result<(), Error>;
}

pub(crate) mod sealed {
    #[cfg(feature = "dynamic")]
    use crate::erased::{DynSample, ErasedField, GradientOut, Points, Region};
    use crate::error::Error;
    use crate::float::DynField;
    #[cfg(feature = "dynamic")]
    use crate::sample::Bounds;
    use crate::simd::{Isa, Op};

    /// Seals [`Float`](super::Float) and carries the per-precision backend
    /// dispatch, so generic public functions reach the right SIMD code.
    pub trait Sealed: Sized {
        /// Runs `op` on the backend for `isa` (which the caller has checked
        /// is available).
        fn dispatch<O: Op<Self>>(isa: Isa, op: O) -> O::Output;
        /// Calls the method of a type-erased field for this precision.
        fn fill_dyn<const D: usize>(
            f: &dyn DynField<D>,
            isa: Isa,
            coords: [&[Self]; D],
            out: &mut [Self],
            gradient: Option<[&mut [Self]; D]>,
        ) -> Result<(), Error>;
        /// A [`DynField`](crate::dynamic::DynField)'s calls in this
        /// precision.
        #[cfg(feature = "dynamic")]
        fn dyn_sample(f: &dyn ErasedField, p: &[Self]) -> DynSample<Self>;
        #[cfg(feature = "dynamic")]
        fn dyn_fill(
            f: &dyn ErasedField,
            isa: Isa,
            points: Points<'_, Self>,
            out: &mut [Self],
            gradient: Option<GradientOut<'_, Self>>,
        ) -> Result<(), Error>;
        #[cfg(feature = "dynamic")]
        fn dyn_grid(
            f: &dyn ErasedField,
            isa: Isa,
            region: Region<'_, Self>,
            out: &mut [Self],
            gradient: Option<GradientOut<'_, Self>>,
        ) -> Result<Bounds<Self>, Error>;
    }
    /// `Sealed` for one precision: its backend dispatcher and the
    /// erased fields' methods of that precision.
    macro_rules! sealed {
        ($t:ty, $dispatch:ident, $fill:ident, $sample:ident, $grid:ident) => {
            impl Sealed for $t {
                #[inline]
                fn dispatch<O: Op<$t>>(isa: Isa, op: O) -> O::Output {
                    crate::simd::$dispatch(isa, op)
                }
                fn fill_dyn<const D: usize>(
                    f: &dyn DynField<D>,
                    isa: Isa,
                    coords: [&[$t]; D],
                    out: &mut [$t],
                    gradient: Option<[&mut [$t]; D]>,
                ) -> Result<(), Error> {
                    f.$fill(isa, coords, out, gradient)
                }
                #[cfg(feature = "dynamic")]
                fn dyn_sample(f: &dyn ErasedField, p: &[$t]) -> DynSample<$t> {
                    f.$sample(p)
                }
                #[cfg(feature = "dynamic")]
                fn dyn_fill(
                    f: &dyn ErasedField,
                    isa: Isa,
                    points: Points<'_, $t>,
                    out: &mut [$t],
                    gradient: Option<GradientOut<'_, $t>>,
                ) -> Result<(), Error> {
                    f.$fill(isa, points, out, gradient)
                }
                #[cfg(feature = "dynamic")]
                fn dyn_grid(
                    f: &dyn ErasedField,
                    isa: Isa,
                    region: Region<'_, $t>,
                    out: &mut [$t],
                    gradient: Option<GradientOut<'_, $t>>,
                ) -> Result<Bounds<$t>, Error> {
                    f.$grid(isa, region, out, gradient)
                }
            }
        };
    }
    sealed!(f32, dispatch_f32, fill_f32, sample_f32, grid_f32);
    sealed!(f64, dispatch_f64, fill_f64, sample_f64, grid_f64);
}

/// A floating-point precision surflet can compute in: [`f32`] or [`f64`].
///
/// Every noise is generic over this trait, so the same call works in either
/// precision and the two agree to within the `f32` rounding:
///
/// ```
/// use surflet::{Noise, NoiseKind};
/// let n = Noise::<2>::new(NoiseKind::Simplex, 7);
/// let a: f64 = n.get([0.3, 0.7]);
/// let b: f32 = n.get([0.3, 0.7]);
/// assert!((a - b as f64).abs() < 1e-6);
/// ```
///
/// The trait is sealed: surflet's kernels rely on IEEE semantics that only
/// these two types are known to have.
pub trait Float: sealed::Sealed + Element {}

impl Float for f32 {}
impl Float for f64 {}
