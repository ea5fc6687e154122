//! The scalar element types surflet computes in: `f32` and `f64`.

use core::fmt::{Debug, Display};
use core::ops::{Add, Div, Mul, Neg, Sub};

pub(crate) mod sealed {
    use crate::error::Error;
    use crate::field::DynField;
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
pub trait Float:
    sealed::Sealed
    + Copy
    + Default
    + Debug
    + Display
    + PartialEq
    + PartialOrd
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// Zero.
    const ZERO: Self;
    /// One.
    const ONE: Self;
    /// Not a number.
    const NAN: Self;
    /// +∞.
    const INFINITY: Self;
    /// −∞.
    const NEG_INFINITY: Self;
    /// The largest finite value.
    const MAX: Self;
    /// Bits of precision in the significand, counting the implicit bit
    /// (24 for `f32`, 53 for `f64`).
    const PRECISION: u32;
    /// Name used in messages: `"f32"` or `"f64"`.
    const NAME: &'static str;

    /// Converts from `f64`, rounding to nearest.
    fn from_f64(v: f64) -> Self;
    /// Converts to `f64` exactly.
    fn to_f64(self) -> f64;
    /// Largest integer not greater than `self`.
    fn floor(self) -> Self;
    /// Absolute value.
    fn abs(self) -> Self;
    /// Square root, correctly rounded (IEEE 754), so every backend agrees.
    fn sqrt(self) -> Self;
    /// True for NaN.
    fn is_nan(self) -> bool;
    /// True unless NaN or infinite.
    fn is_finite(self) -> bool;
    /// Truncating conversion to `i32`; callers keep the value in range.
    fn trunc_i32(self) -> i32;
    /// Conversion from an integer, rounding to nearest (exact within ±2^24).
    fn from_i32(v: i32) -> Self;
}

macro_rules! impl_float {
    ($t:ty, $prec:expr) => {
        impl Float for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const NAN: Self = <$t>::NAN;
            const INFINITY: Self = <$t>::INFINITY;
            const NEG_INFINITY: Self = <$t>::NEG_INFINITY;
            const MAX: Self = <$t>::MAX;
            const PRECISION: u32 = $prec;
            const NAME: &'static str = stringify!($t);
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn floor(self) -> Self {
                // Baseline x86-64 has no rounding instruction, so `<$t>::floor`
                // is a libm call (16% of a single-point evaluation). This is
                // exact and bit-identical to SIMD floor, signed zero included:
                // NaN, ±inf and values ≥ 2^(precision−1) (already integers)
                // come back unchanged, as does every integer (so −0.0 stays
                // −0.0).
                const LIMIT: $t = (1u64 << ($prec - 1)) as $t;
                if self.is_nan() || self.abs() >= LIMIT {
                    return self;
                }
                let t = (self as i64) as $t;
                if t == self {
                    self
                } else if t > self {
                    t - 1.0
                } else {
                    t
                }
            }
            #[inline(always)]
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
            #[inline(always)]
            fn sqrt(self) -> Self {
                #[cfg(feature = "std")]
                return <$t>::sqrt(self);
                #[cfg(not(feature = "std"))]
                return <$t as crate::math::Math>::sqrt(self);
            }
            #[inline(always)]
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            #[inline(always)]
            fn is_finite(self) -> bool {
                <$t>::is_finite(self)
            }
            #[inline(always)]
            fn trunc_i32(self) -> i32 {
                self as i32
            }
            #[inline(always)]
            fn from_i32(v: i32) -> Self {
                v as $t
            }
        }
    };
}
impl_float!(f32, 24);
impl_float!(f64, 53);
