//! x86-64 backends, one file each: AVX2 (`avx2.rs`), AVX-512 (`avx512.rs`,
//! with the `avx512` feature),
//! and SSE4.1's rounding for the one-lane backend (`sse41.rs`). Here: the
//! tokens, the run-time detection, and the macros the backends share.
//!
//! Every token type here has a private field, so the only way to obtain one
//! is its `new()`, which checks the CPU at run time. That is the invariant
//! all the `unsafe` blocks of these files rely on: holding a token proves
//! the intrinsics it calls are supported. Methods are `#[inline(always)]` so
//! that they inline into the `#[target_feature]` entry points of
//! `crate::batch`, where the intrinsics compile to single instructions.

use core::arch::x86_64::*;

macro_rules! arch {
    ($e:expr) => {
        // SAFETY: a token of this module exists only if `new()` detected the
        // target features these intrinsics need (see the module docs); all
        // loads and stores go through slices whose length was checked.
        unsafe { $e }
    };
}

/// The `u32` lane operations on eight lanes in an AVX register, shared by
/// the AVX2 `f32` backend and the AVX-512 `f64` backend (whose eight hash
/// lanes live in a 256-bit register).
macro_rules! u32x8_ops {
    () => {
        #[inline(always)]
        fn u_splat(self, v: u32) -> __m256i {
            arch!(_mm256_set1_epi32(v as i32))
        }
        #[inline(always)]
        fn u_add(self, a: __m256i, b: __m256i) -> __m256i {
            arch!(_mm256_add_epi32(a, b))
        }
        #[inline(always)]
        fn u_sub(self, a: __m256i, b: __m256i) -> __m256i {
            arch!(_mm256_sub_epi32(a, b))
        }
        #[inline(always)]
        fn u_mul(self, a: __m256i, b: __m256i) -> __m256i {
            arch!(_mm256_mullo_epi32(a, b))
        }
        #[inline(always)]
        fn u_xor(self, a: __m256i, b: __m256i) -> __m256i {
            arch!(_mm256_xor_si256(a, b))
        }
        #[inline(always)]
        fn u_and(self, a: __m256i, b: __m256i) -> __m256i {
            arch!(_mm256_and_si256(a, b))
        }
        #[inline(always)]
        fn u_or(self, a: __m256i, b: __m256i) -> __m256i {
            arch!(_mm256_or_si256(a, b))
        }
        #[inline(always)]
        fn u_shr<const N: i32>(self, a: __m256i) -> __m256i {
            arch!(_mm256_srli_epi32::<N>(a))
        }
        #[inline(always)]
        fn u_shl<const N: i32>(self, a: __m256i) -> __m256i {
            arch!(_mm256_slli_epi32::<N>(a))
        }
        #[inline(always)]
        fn u_eq(self, a: __m256i, b: __m256i) -> __m256i {
            arch!(_mm256_cmpeq_epi32(a, b))
        }
        #[inline(always)]
        fn u_gt_signed(self, a: __m256i, b: __m256i) -> __m256i {
            arch!(_mm256_cmpgt_epi32(a, b))
        }
        #[inline(always)]
        fn u_first(self, a: __m256i) -> u32 {
            arch!(_mm256_cvtsi256_si32(a)) as u32
        }
        #[inline(always)]
        fn u_iota(self) -> __m256i {
            arch!(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))
        }
        #[inline(always)]
        fn u_broadcast_first(self, a: __m256i) -> __m256i {
            arch!(_mm256_broadcastd_epi32(_mm256_castsi256_si128(a)))
        }
        #[inline(always)]
        fn u_lookup(self, table: __m256i, idx: __m256i) -> __m256i {
            arch!(_mm256_permutevar8x32_epi32(table, idx))
        }
    };
}

/// AVX2, 8 `f32` lanes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2F32(());
/// AVX2, 4 `f64` lanes (with 4 `u32` hash lanes in an SSE register).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2F64(());
/// AVX-512 F+VL, 16 `f32` lanes.
#[cfg(feature = "avx512")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512F32(());
/// AVX-512 F+VL, 8 `f64` lanes (with 8 `u32` hash lanes in an AVX register).
#[cfg(feature = "avx512")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512F64(());

#[cfg(feature = "std")]
fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}
#[cfg(all(feature = "std", feature = "avx512"))]
fn has_avx512() -> bool {
    has_avx2()
        && std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vl")
}
// `no_std`: the features the build enables (`-C target-feature=+avx2`,
// `-C target-cpu=...`), known at compile time.
#[cfg(not(feature = "std"))]
fn has_avx2() -> bool {
    cfg!(target_feature = "avx2")
}
#[cfg(all(not(feature = "std"), feature = "avx512"))]
fn has_avx512() -> bool {
    cfg!(all(
        target_feature = "avx2",
        target_feature = "avx512f",
        target_feature = "avx512vl"
    ))
}

impl Avx2F32 {
    pub(crate) fn new() -> Option<Self> {
        has_avx2().then_some(Avx2F32(()))
    }
}
impl Avx2F64 {
    pub(crate) fn new() -> Option<Self> {
        has_avx2().then_some(Avx2F64(()))
    }
}
#[cfg(feature = "avx512")]
impl Avx512F32 {
    pub(crate) fn new() -> Option<Self> {
        has_avx512().then_some(Avx512F32(()))
    }
}
#[cfg(feature = "avx512")]
impl Avx512F64 {
    pub(crate) fn new() -> Option<Self> {
        has_avx512().then_some(Avx512F64(()))
    }
}

/// SSE4.1's rounding for floor: `_MM_FROUND_TO_NEG_INF` without exceptions.
const FLOOR: i32 = _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC;

mod avx2;
#[cfg(feature = "avx512")]
mod avx512;
mod sse41;
pub(crate) use sse41::Sse41;
