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
    impl Sealed for f32 {
        #[inline]
        fn dispatch<O: Op<f32>>(isa: Isa, op: O) -> O::Output {
            crate::simd::dispatch_f32(isa, op)
        }
        fn fill_dyn<const D: usize>(
            f: &dyn DynField<D>,
            isa: Isa,
            coords: [&[f32]; D],
            out: &mut [f32],
            gradient: Option<[&mut [f32]; D]>,
        ) -> Result<(), Error> {
            f.fill_f32(isa, coords, out, gradient)
        }
        #[cfg(feature = "dynamic")]
        fn dyn_sample(f: &dyn ErasedField, p: &[f32]) -> DynSample<f32> {
            f.sample_f32(p)
        }
        #[cfg(feature = "dynamic")]
        fn dyn_fill(
            f: &dyn ErasedField,
            isa: Isa,
            points: Points<'_, f32>,
            out: &mut [f32],
            gradient: Option<GradientOut<'_, f32>>,
        ) -> Result<(), Error> {
            f.fill_f32(isa, points, out, gradient)
        }
        #[cfg(feature = "dynamic")]
        fn dyn_grid(
            f: &dyn ErasedField,
            isa: Isa,
            region: Region<'_, f32>,
            out: &mut [f32],
            gradient: Option<GradientOut<'_, f32>>,
        ) -> Result<Bounds<f32>, Error> {
            f.grid_f32(isa, region, out, gradient)
        }
    }
    impl Sealed for f64 {
        #[inline]
        fn dispatch<O: Op<f64>>(isa: Isa, op: O) -> O::Output {
            crate::simd::dispatch_f64(isa, op)
        }
        fn fill_dyn<const D: usize>(
            f: &dyn DynField<D>,
            isa: Isa,
            coords: [&[f64]; D],
            out: &mut [f64],
            gradient: Option<[&mut [f64]; D]>,
        ) -> Result<(), Error> {
            f.fill_f64(isa, coords, out, gradient)
        }
        #[cfg(feature = "dynamic")]
        fn dyn_sample(f: &dyn ErasedField, p: &[f64]) -> DynSample<f64> {
            f.sample_f64(p)
        }
        #[cfg(feature = "dynamic")]
        fn dyn_fill(
            f: &dyn ErasedField,
            isa: Isa,
            points: Points<'_, f64>,
            out: &mut [f64],
            gradient: Option<GradientOut<'_, f64>>,
        ) -> Result<(), Error> {
            f.fill_f64(isa, points, out, gradient)
        }
        #[cfg(feature = "dynamic")]
        fn dyn_grid(
            f: &dyn ErasedField,
            isa: Isa,
            region: Region<'_, f64>,
            out: &mut [f64],
            gradient: Option<GradientOut<'_, f64>>,
        ) -> Result<Bounds<f64>, Error> {
            f.grid_f64(isa, region, out, gradient)
        }
    }
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
