//! The few scalar maths functions that `core` lacks, for `no_std` builds
//! (feature `std` off), from `libm`. With `std` the inherent methods of
//! `f32`/`f64` are used and this trait is not in scope.
//!
//! `floor` and `sqrt` are exact (correctly rounded) in both, and `powi` is
//! the same repeated squaring that `std` compiles to, so no noise changes a
//! bit. `sin` and `cos` (Gustavson's `srdnoise23` port, for its rotating
//! gradients, and graphs' `rotate`) and `powf` (graphs' fractional `pow`)
//! come from `libm` rather than the C library, and may differ from it in
//! the last bit.

pub(crate) trait Math: Sized {
    fn floor(self) -> Self;
    fn sqrt(self) -> Self;
    fn round(self) -> Self;
    fn log2(self) -> Self;
    fn sin(self) -> Self;
    fn cos(self) -> Self;
    fn fract(self) -> Self;
    fn powi(self, n: i32) -> Self;
    fn powf(self, e: Self) -> Self;
}

macro_rules! impl_math {
    ($t:ty, $floor:ident, $sqrt:ident, $round:ident, $log2:ident, $sin:ident, $cos:ident, $trunc:ident, $pow:ident) => {
        impl Math for $t {
            #[inline]
            fn floor(self) -> Self {
                libm::$floor(self)
            }
            #[inline]
            fn sqrt(self) -> Self {
                libm::$sqrt(self)
            }
            #[inline]
            fn round(self) -> Self {
                libm::$round(self)
            }
            #[inline]
            fn log2(self) -> Self {
                libm::$log2(self)
            }
            #[inline]
            fn sin(self) -> Self {
                libm::$sin(self)
            }
            #[inline]
            fn cos(self) -> Self {
                libm::$cos(self)
            }
            #[inline]
            fn powf(self, e: Self) -> Self {
                libm::$pow(self, e)
            }
            #[inline]
            fn fract(self) -> Self {
                self - libm::$trunc(self)
            }
            /// compiler-rt's `__powidf2`/`__powisf2`, which `std`'s `powi`
            /// lowers to.
            #[inline]
            fn powi(self, n: i32) -> Self {
                let recip = n < 0;
                let mut b = n.unsigned_abs();
                let mut a = self;
                let mut r: $t = 1.0;
                loop {
                    if b & 1 != 0 {
                        r *= a;
                    }
                    b /= 2;
                    if b == 0 {
                        break;
                    }
                    a *= a;
                }
                if recip { 1.0 / r } else { r }
            }
        }
    };
}

impl_math!(f64, floor, sqrt, round, log2, sin, cos, trunc, pow);
impl_math!(f32, floorf, sqrtf, roundf, log2f, sinf, cosf, truncf, powf);
