//! The element types of the lanes, `f32` and `f64`: the IEEE arithmetic
//! and conversions the kernels use. The public [`Float`](crate::Float)
//! builds on this trait and adds the precision dispatch, so that the lane
//! layer does not depend on anything above it.

use core::fmt::{Debug, Display};
use core::ops::{Add, Div, Mul, Neg, Sub};

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// The arithmetic of an element type: constants, conversions and the few
/// scalar functions whose results every backend must match bit for bit.
/// Implemented by `f32` and `f64` only (sealed); every [`Float`](crate::Float)
/// has these methods.
pub trait Element:
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
    /// Negates when `bit` (0 or 1) is 1: an exact sign flip without a
    /// branch, for the one-lane backend's gradient choices.
    #[doc(hidden)]
    fn flip_sign(self, bit: u32) -> Self;
    /// Conversion from an integer, rounding to nearest (exact within ±2^24).
    fn from_i32(v: i32) -> Self;
    /// [`floor`](Self::floor) by SSE4.1's rounding instruction, for the
    /// one-lane backend of single points.
    ///
    /// # Safety
    /// The CPU must have SSE4.1.
    #[doc(hidden)]
    #[cfg(target_arch = "x86_64")]
    unsafe fn floor_sse41(self) -> Self;
}

macro_rules! impl_element {
    ($t:ty, $prec:expr) => {
        impl Element for $t {
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
                // −0.0). The branches beat a branch-free form (measured): in
                // a run of nearby points they go the same way.
                const LIMIT: $t = (1u64 << ($prec - 1)) as $t;
                if self.is_nan() || self.abs() >= LIMIT {
                    return self;
                }
                let t = Bits::cvtt(self) as $t;
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
                Bits::cvtt(self) as i32
            }
            #[inline(always)]
            fn flip_sign(self, bit: u32) -> Self {
                <$t>::from_bits(self.to_bits() ^ ((bit as <$t as Bits>::U) << <$t as Bits>::SIGN))
            }
            #[inline(always)]
            fn from_i32(v: i32) -> Self {
                v as $t
            }
            #[cfg(target_arch = "x86_64")]
            #[inline(always)]
            unsafe fn floor_sse41(self) -> Self {
                // SAFETY: the caller guarantees SSE4.1.
                unsafe { Bits::floor_sse41(self) }
            }
        }
    };
}
impl_element!(f32, 24);
impl_element!(f64, 53);

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::{_mm_cvtsd_f64, _mm_cvtss_f32, _mm_floor_sd, _mm_floor_ss};
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use core::arch::x86_64::{_mm_cvttsd_si64, _mm_cvttss_si64, _mm_set_sd, _mm_set_ss};

/// What the one-lane backend needs below the IEEE arithmetic: the bit
/// pattern's type and sign position, and truncation to `i64`.
///
/// `cvtt` is for values the caller has checked to be below 2^53 in
/// magnitude (so the result is exact and in range). On x86-64 it is the one
/// `cvtt` instruction the SIMD backends use, where `as` would add the
/// saturation checks that Rust requires for out-of-range and NaN inputs.
/// Out of range the instruction gives `i64::MIN`, never undefined behaviour.
trait Bits {
    type U;
    const SIGN: u32;
    fn cvtt(self) -> i64;
    /// `roundss`/`roundsd` towards −∞: the SIMD backends' floor on one lane.
    ///
    /// # Safety
    /// The CPU must have SSE4.1.
    #[cfg(target_arch = "x86_64")]
    unsafe fn floor_sse41(self) -> Self;
}
impl Bits for f32 {
    type U = u32;
    const SIGN: u32 = 31;
    #[inline(always)]
    fn cvtt(self) -> i64 {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        // SAFETY: SSE2 is part of the x86-64 baseline (and checked by the
        // cfg), so the instruction exists on every machine this runs on.
        return unsafe { _mm_cvttss_si64(_mm_set_ss(self)) };
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        return self as i64;
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn floor_sse41(self) -> f32 {
        // SAFETY: the caller guarantees SSE4.1; `_mm_set_ss` is SSE.
        unsafe {
            let v = _mm_set_ss(self);
            _mm_cvtss_f32(_mm_floor_ss(v, v))
        }
    }
}
impl Bits for f64 {
    type U = u64;
    const SIGN: u32 = 63;
    #[inline(always)]
    fn cvtt(self) -> i64 {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        // SAFETY: SSE2 is part of the x86-64 baseline (and checked by the
        // cfg), so the instruction exists on every machine this runs on.
        return unsafe { _mm_cvttsd_si64(_mm_set_sd(self)) };
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        return self as i64;
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn floor_sse41(self) -> f64 {
        // SAFETY: the caller guarantees SSE4.1; `_mm_set_sd` is SSE2.
        unsafe {
            let v = _mm_set_sd(self);
            _mm_cvtsd_f64(_mm_floor_sd(v, v))
        }
    }
}
