//! x86-64 backends: AVX2 and AVX-512.
//!
//! Every token type here has a private field, so the only way to obtain one is
//! its `new()`, which checks the CPU at run time. That is the invariant all the
//! `unsafe` blocks below rely on: holding a token proves the intrinsics it
//! calls are supported. Methods are `#[inline(always)]` so that they inline
//! into the `#[target_feature]` entry points of `crate::batch`, where the
//! intrinsics compile to single instructions.

use super::Simd;
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
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512F32(());
/// AVX-512 F+VL, 8 `f64` lanes (with 8 `u32` hash lanes in an AVX register).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512F64(());

#[cfg(feature = "std")]
fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}
#[cfg(feature = "std")]
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
#[cfg(not(feature = "std"))]
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
impl Avx512F32 {
    pub(crate) fn new() -> Option<Self> {
        has_avx512().then_some(Avx512F32(()))
    }
}
impl Avx512F64 {
    pub(crate) fn new() -> Option<Self> {
        has_avx512().then_some(Avx512F64(()))
    }
}

/// The one-lane backend's rounding by SSE4.1's `roundss`/`roundsd`, for
/// single points in an AVX2 entry point (every AVX2 CPU has SSE4.1): one
/// instruction where the portable floor takes about fifteen.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sse41(());

impl Sse41 {
    /// The token if [`Isa::detect`](super::Isa::detect) allows AVX2 (so the
    /// CPU has it), decided on the first call.
    #[inline(always)]
    pub(crate) fn cached() -> Option<Self> {
        use core::sync::atomic::{AtomicU8, Ordering};
        const UNKNOWN: u8 = 0;
        const YES: u8 = 1;
        const NO: u8 = 2;
        static STATE: AtomicU8 = AtomicU8::new(UNKNOWN);
        match STATE.load(Ordering::Relaxed) {
            YES => Some(Sse41(())),
            NO => None,
            _ => {
                let yes = super::Isa::detect() != super::Isa::Scalar && has_avx2();
                STATE.store(if yes { YES } else { NO }, Ordering::Relaxed);
                yes.then_some(Sse41(()))
            }
        }
    }
}

impl super::scalar::Round for Sse41 {
    #[inline(always)]
    fn floor<E: super::Element>(self, x: E) -> E {
        // SAFETY: a token exists only where the CPU has AVX2, hence SSE4.1.
        unsafe { x.floor_sse41() }
    }
}

const FLOOR: i32 = _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC;

impl Simd for Avx2F32 {
    type E = f32;
    type F = __m256;
    type U = __m256i;
    type M = __m256;
    const LANES: usize = 8;

    #[inline(always)]
    fn outline<C: super::Call<Self>>(self, c: C) -> C::Output {
        #[target_feature(enable = "avx2")]
        #[inline(never)]
        fn go<C: super::Call<Avx2F32>>(s: Avx2F32, c: C) -> C::Output {
            c.call(s)
        }
        // SAFETY: a Avx2F32 token exists only where the CPU has these
        // features (see `new`).
        unsafe { go(self, c) }
    }

    #[inline(always)]
    fn splat(self, v: f32) -> __m256 {
        arch!(_mm256_set1_ps(v))
    }
    #[inline(always)]
    fn load(self, src: &[f32]) -> __m256 {
        let src = &src[..8];
        arch!(_mm256_loadu_ps(src.as_ptr()))
    }
    #[inline(always)]
    fn store(self, v: __m256, dst: &mut [f32]) {
        let dst = &mut dst[..8];
        arch!(_mm256_storeu_ps(dst.as_mut_ptr(), v))
    }
    #[inline(always)]
    unsafe fn load_ptr(self, src: *const f32) -> __m256 {
        // SAFETY: the token proves the features (module docs); the caller
        // guarantees 8 readable elements at `src`.
        unsafe { _mm256_loadu_ps(src) }
    }
    #[inline(always)]
    unsafe fn store_ptr(self, v: __m256, dst: *mut f32) {
        // SAFETY: as `load_ptr`, for 8 writable elements at `dst`.
        unsafe { _mm256_storeu_ps(dst, v) }
    }
    #[inline(always)]
    fn add(self, a: __m256, b: __m256) -> __m256 {
        arch!(_mm256_add_ps(a, b))
    }
    #[inline(always)]
    fn sub(self, a: __m256, b: __m256) -> __m256 {
        arch!(_mm256_sub_ps(a, b))
    }
    #[inline(always)]
    fn mul(self, a: __m256, b: __m256) -> __m256 {
        arch!(_mm256_mul_ps(a, b))
    }
    #[inline(always)]
    fn div(self, a: __m256, b: __m256) -> __m256 {
        arch!(_mm256_div_ps(a, b))
    }
    #[inline(always)]
    fn min(self, a: __m256, b: __m256) -> __m256 {
        arch!(_mm256_min_ps(a, b))
    }
    #[inline(always)]
    fn max(self, a: __m256, b: __m256) -> __m256 {
        arch!(_mm256_max_ps(a, b))
    }
    #[inline(always)]
    fn floor(self, a: __m256) -> __m256 {
        arch!(_mm256_round_ps::<FLOOR>(a))
    }
    #[inline(always)]
    fn neg(self, a: __m256) -> __m256 {
        arch!(_mm256_xor_ps(a, _mm256_set1_ps(-0.0)))
    }
    #[inline(always)]
    fn abs(self, a: __m256) -> __m256 {
        arch!(_mm256_andnot_ps(_mm256_set1_ps(-0.0), a))
    }
    #[inline(always)]
    fn sqrt(self, a: __m256) -> __m256 {
        arch!(_mm256_sqrt_ps(a))
    }
    #[inline(always)]
    fn lt(self, a: __m256, b: __m256) -> __m256 {
        arch!(_mm256_cmp_ps::<_CMP_LT_OQ>(a, b))
    }
    #[inline(always)]
    fn le(self, a: __m256, b: __m256) -> __m256 {
        arch!(_mm256_cmp_ps::<_CMP_LE_OQ>(a, b))
    }
    #[inline(always)]
    fn gt(self, a: __m256, b: __m256) -> __m256 {
        arch!(_mm256_cmp_ps::<_CMP_GT_OQ>(a, b))
    }
    #[inline(always)]
    fn ge(self, a: __m256, b: __m256) -> __m256 {
        arch!(_mm256_cmp_ps::<_CMP_GE_OQ>(a, b))
    }
    #[inline(always)]
    fn m_and(self, a: __m256, b: __m256) -> __m256 {
        arch!(_mm256_and_ps(a, b))
    }
    #[inline(always)]
    fn m_or(self, a: __m256, b: __m256) -> __m256 {
        arch!(_mm256_or_ps(a, b))
    }
    #[inline(always)]
    fn m_andnot(self, a: __m256, b: __m256) -> __m256 {
        arch!(_mm256_andnot_ps(b, a))
    }
    #[inline(always)]
    fn select(self, m: __m256, t: __m256, f: __m256) -> __m256 {
        arch!(_mm256_blendv_ps(f, t, m))
    }
    #[inline(always)]
    fn flip(self, m: __m256, v: __m256) -> __m256 {
        arch!(_mm256_xor_ps(v, _mm256_and_ps(m, _mm256_set1_ps(-0.0))))
    }
    #[inline(always)]
    fn any(self, m: __m256) -> bool {
        arch!(_mm256_movemask_ps(m)) != 0
    }
    #[inline(always)]
    fn keep(self, m: __m256, v: __m256) -> __m256 {
        arch!(_mm256_and_ps(m, v))
    }
    #[inline(always)]
    fn keep_not(self, m: __m256, v: __m256) -> __m256 {
        arch!(_mm256_andnot_ps(m, v))
    }
    #[inline(always)]
    fn bit_mask<const BIT: i32>(self, h: __m256i) -> __m256 {
        // Move the bit to the sign, then smear the sign over the lane.
        arch!(_mm256_castsi256_ps(_mm256_srai_epi32::<31>(
            _mm256_sll_epi32(h, _mm_cvtsi32_si128(31 - BIT))
        )))
    }
    #[inline(always)]
    fn flip_bit<const BIT: i32>(self, h: __m256i, v: __m256) -> __m256 {
        arch!({
            let sign = _mm256_sll_epi32(h, _mm_cvtsi32_si128(31 - BIT));
            let sign = _mm256_and_si256(sign, _mm256_set1_epi32(i32::MIN));
            _mm256_xor_ps(v, _mm256_castsi256_ps(sign))
        })
    }
    u32x8_ops!();
    #[inline(always)]
    fn u_to_m(self, a: __m256i) -> __m256 {
        arch!(_mm256_castsi256_ps(a))
    }
    #[inline(always)]
    fn m_to_u(self, m: __m256) -> __m256i {
        arch!(_mm256_castps_si256(m))
    }
    #[inline(always)]
    fn i_to_f(self, a: __m256i) -> __m256 {
        arch!(_mm256_cvtepi32_ps(a))
    }
    #[inline(always)]
    fn f_to_i(self, a: __m256) -> __m256i {
        arch!(_mm256_cvttps_epi32(a))
    }
    #[inline(always)]
    fn lookup(self, table: __m256, idx: __m256i) -> __m256 {
        arch!(_mm256_permutevar8x32_ps(table, idx))
    }
}

impl Simd for Avx2F64 {
    type E = f64;
    type F = __m256d;
    type U = __m128i;
    type M = __m256d;
    const LANES: usize = 4;

    #[inline(always)]
    fn outline<C: super::Call<Self>>(self, c: C) -> C::Output {
        #[target_feature(enable = "avx2")]
        #[inline(never)]
        fn go<C: super::Call<Avx2F64>>(s: Avx2F64, c: C) -> C::Output {
            c.call(s)
        }
        // SAFETY: a Avx2F64 token exists only where the CPU has these
        // features (see `new`).
        unsafe { go(self, c) }
    }

    #[inline(always)]
    fn splat(self, v: f64) -> __m256d {
        arch!(_mm256_set1_pd(v))
    }
    #[inline(always)]
    fn load(self, src: &[f64]) -> __m256d {
        let src = &src[..4];
        arch!(_mm256_loadu_pd(src.as_ptr()))
    }
    #[inline(always)]
    fn store(self, v: __m256d, dst: &mut [f64]) {
        let dst = &mut dst[..4];
        arch!(_mm256_storeu_pd(dst.as_mut_ptr(), v))
    }
    #[inline(always)]
    unsafe fn load_ptr(self, src: *const f64) -> __m256d {
        // SAFETY: the token proves the features (module docs); the caller
        // guarantees 4 readable elements at `src`.
        unsafe { _mm256_loadu_pd(src) }
    }
    #[inline(always)]
    unsafe fn store_ptr(self, v: __m256d, dst: *mut f64) {
        // SAFETY: as `load_ptr`, for 4 writable elements at `dst`.
        unsafe { _mm256_storeu_pd(dst, v) }
    }
    #[inline(always)]
    fn add(self, a: __m256d, b: __m256d) -> __m256d {
        arch!(_mm256_add_pd(a, b))
    }
    #[inline(always)]
    fn sub(self, a: __m256d, b: __m256d) -> __m256d {
        arch!(_mm256_sub_pd(a, b))
    }
    #[inline(always)]
    fn mul(self, a: __m256d, b: __m256d) -> __m256d {
        arch!(_mm256_mul_pd(a, b))
    }
    #[inline(always)]
    fn div(self, a: __m256d, b: __m256d) -> __m256d {
        arch!(_mm256_div_pd(a, b))
    }
    #[inline(always)]
    fn min(self, a: __m256d, b: __m256d) -> __m256d {
        arch!(_mm256_min_pd(a, b))
    }
    #[inline(always)]
    fn max(self, a: __m256d, b: __m256d) -> __m256d {
        arch!(_mm256_max_pd(a, b))
    }
    #[inline(always)]
    fn floor(self, a: __m256d) -> __m256d {
        arch!(_mm256_round_pd::<FLOOR>(a))
    }
    #[inline(always)]
    fn neg(self, a: __m256d) -> __m256d {
        arch!(_mm256_xor_pd(a, _mm256_set1_pd(-0.0)))
    }
    #[inline(always)]
    fn abs(self, a: __m256d) -> __m256d {
        arch!(_mm256_andnot_pd(_mm256_set1_pd(-0.0), a))
    }
    #[inline(always)]
    fn sqrt(self, a: __m256d) -> __m256d {
        arch!(_mm256_sqrt_pd(a))
    }
    #[inline(always)]
    fn lt(self, a: __m256d, b: __m256d) -> __m256d {
        arch!(_mm256_cmp_pd::<_CMP_LT_OQ>(a, b))
    }
    #[inline(always)]
    fn le(self, a: __m256d, b: __m256d) -> __m256d {
        arch!(_mm256_cmp_pd::<_CMP_LE_OQ>(a, b))
    }
    #[inline(always)]
    fn gt(self, a: __m256d, b: __m256d) -> __m256d {
        arch!(_mm256_cmp_pd::<_CMP_GT_OQ>(a, b))
    }
    #[inline(always)]
    fn ge(self, a: __m256d, b: __m256d) -> __m256d {
        arch!(_mm256_cmp_pd::<_CMP_GE_OQ>(a, b))
    }
    #[inline(always)]
    fn m_and(self, a: __m256d, b: __m256d) -> __m256d {
        arch!(_mm256_and_pd(a, b))
    }
    #[inline(always)]
    fn m_or(self, a: __m256d, b: __m256d) -> __m256d {
        arch!(_mm256_or_pd(a, b))
    }
    #[inline(always)]
    fn m_andnot(self, a: __m256d, b: __m256d) -> __m256d {
        arch!(_mm256_andnot_pd(b, a))
    }
    #[inline(always)]
    fn select(self, m: __m256d, t: __m256d, f: __m256d) -> __m256d {
        arch!(_mm256_blendv_pd(f, t, m))
    }
    #[inline(always)]
    fn flip(self, m: __m256d, v: __m256d) -> __m256d {
        arch!(_mm256_xor_pd(v, _mm256_and_pd(m, _mm256_set1_pd(-0.0))))
    }
    #[inline(always)]
    fn any(self, m: __m256d) -> bool {
        arch!(_mm256_movemask_pd(m)) != 0
    }
    #[inline(always)]
    fn keep(self, m: __m256d, v: __m256d) -> __m256d {
        arch!(_mm256_and_pd(m, v))
    }
    #[inline(always)]
    fn keep_not(self, m: __m256d, v: __m256d) -> __m256d {
        arch!(_mm256_andnot_pd(m, v))
    }
    #[inline(always)]
    fn bit_mask<const BIT: i32>(self, h: __m128i) -> __m256d {
        arch!(_mm256_castsi256_pd(_mm256_cvtepi32_epi64(
            _mm_srai_epi32::<31>(_mm_sll_epi32(h, _mm_cvtsi32_si128(31 - BIT)))
        )))
    }
    #[inline(always)]
    fn flip_bit<const BIT: i32>(self, h: __m128i, v: __m256d) -> __m256d {
        arch!({
            let wide = _mm256_cvtepu32_epi64(h);
            let sign = _mm256_sll_epi64(wide, _mm_cvtsi32_si128(63 - BIT));
            let sign = _mm256_and_si256(sign, _mm256_set1_epi64x(i64::MIN));
            _mm256_xor_pd(v, _mm256_castsi256_pd(sign))
        })
    }
    #[inline(always)]
    fn u_splat(self, v: u32) -> __m128i {
        arch!(_mm_set1_epi32(v as i32))
    }
    #[inline(always)]
    fn u_add(self, a: __m128i, b: __m128i) -> __m128i {
        arch!(_mm_add_epi32(a, b))
    }
    #[inline(always)]
    fn u_sub(self, a: __m128i, b: __m128i) -> __m128i {
        arch!(_mm_sub_epi32(a, b))
    }
    #[inline(always)]
    fn u_mul(self, a: __m128i, b: __m128i) -> __m128i {
        arch!(_mm_mullo_epi32(a, b))
    }
    #[inline(always)]
    fn u_xor(self, a: __m128i, b: __m128i) -> __m128i {
        arch!(_mm_xor_si128(a, b))
    }
    #[inline(always)]
    fn u_and(self, a: __m128i, b: __m128i) -> __m128i {
        arch!(_mm_and_si128(a, b))
    }
    #[inline(always)]
    fn u_or(self, a: __m128i, b: __m128i) -> __m128i {
        arch!(_mm_or_si128(a, b))
    }
    #[inline(always)]
    fn u_shr<const N: i32>(self, a: __m128i) -> __m128i {
        arch!(_mm_srli_epi32::<N>(a))
    }
    #[inline(always)]
    fn u_shl<const N: i32>(self, a: __m128i) -> __m128i {
        arch!(_mm_slli_epi32::<N>(a))
    }
    #[inline(always)]
    fn u_eq(self, a: __m128i, b: __m128i) -> __m128i {
        arch!(_mm_cmpeq_epi32(a, b))
    }
    #[inline(always)]
    fn u_gt_signed(self, a: __m128i, b: __m128i) -> __m128i {
        arch!(_mm_cmpgt_epi32(a, b))
    }
    #[inline(always)]
    fn u_to_m(self, a: __m128i) -> __m256d {
        // Sign-extending each 32-bit all-ones/zero lane gives the 64-bit mask.
        arch!(_mm256_castsi256_pd(_mm256_cvtepi32_epi64(a)))
    }
    #[inline(always)]
    fn m_to_u(self, m: __m256d) -> __m128i {
        arch!({
            let v = _mm256_castpd_si256(m);
            let low_halves =
                _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6));
            _mm256_castsi256_si128(low_halves)
        })
    }
    #[inline(always)]
    fn i_to_f(self, a: __m128i) -> __m256d {
        arch!(_mm256_cvtepi32_pd(a))
    }
    #[inline(always)]
    fn f_to_i(self, a: __m256d) -> __m128i {
        arch!(_mm256_cvttpd_epi32(a))
    }
    #[inline(always)]
    fn u_first(self, a: __m128i) -> u32 {
        arch!(_mm_cvtsi128_si32(a)) as u32
    }
    #[inline(always)]
    fn u_iota(self) -> __m128i {
        arch!(_mm_setr_epi32(0, 1, 2, 3))
    }
    #[inline(always)]
    fn u_broadcast_first(self, a: __m128i) -> __m128i {
        arch!(_mm_broadcastd_epi32(a))
    }
    #[inline(always)]
    fn u_lookup(self, table: __m128i, idx: __m128i) -> __m128i {
        arch!(_mm_castps_si128(_mm_permutevar_ps(
            _mm_castsi128_ps(table),
            idx
        )))
    }
    #[inline(always)]
    fn lookup(self, table: __m256d, idx: __m128i) -> __m256d {
        // Lane k takes the two halves 2·idx[k] and 2·idx[k] + 1 of the
        // table seen as eight f32 lanes.
        arch!({
            let lo = _mm256_slli_epi64::<1>(_mm256_cvtepu32_epi64(idx));
            let hi = _mm256_slli_epi64::<32>(_mm256_add_epi64(lo, _mm256_set1_epi64x(1)));
            let pairs = _mm256_or_si256(lo, hi);
            _mm256_castps_pd(_mm256_permutevar8x32_ps(_mm256_castpd_ps(table), pairs))
        })
    }
}

impl Simd for Avx512F32 {
    type E = f32;
    type F = __m512;
    type U = __m512i;
    type M = __mmask16;
    const LANES: usize = 16;

    #[inline(always)]
    fn outline<C: super::Call<Self>>(self, c: C) -> C::Output {
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        #[inline(never)]
        fn go<C: super::Call<Avx512F32>>(s: Avx512F32, c: C) -> C::Output {
            c.call(s)
        }
        // SAFETY: a Avx512F32 token exists only where the CPU has these
        // features (see `new`).
        unsafe { go(self, c) }
    }

    #[inline(always)]
    fn splat(self, v: f32) -> __m512 {
        arch!(_mm512_set1_ps(v))
    }
    #[inline(always)]
    fn load(self, src: &[f32]) -> __m512 {
        let src = &src[..16];
        arch!(_mm512_loadu_ps(src.as_ptr()))
    }
    #[inline(always)]
    fn store(self, v: __m512, dst: &mut [f32]) {
        let dst = &mut dst[..16];
        arch!(_mm512_storeu_ps(dst.as_mut_ptr(), v))
    }
    #[inline(always)]
    unsafe fn load_ptr(self, src: *const f32) -> __m512 {
        // SAFETY: the token proves the features (module docs); the caller
        // guarantees 16 readable elements at `src`.
        unsafe { _mm512_loadu_ps(src) }
    }
    #[inline(always)]
    unsafe fn store_ptr(self, v: __m512, dst: *mut f32) {
        // SAFETY: as `load_ptr`, for 16 writable elements at `dst`.
        unsafe { _mm512_storeu_ps(dst, v) }
    }
    #[inline(always)]
    fn add(self, a: __m512, b: __m512) -> __m512 {
        arch!(_mm512_add_ps(a, b))
    }
    #[inline(always)]
    fn sub(self, a: __m512, b: __m512) -> __m512 {
        arch!(_mm512_sub_ps(a, b))
    }
    #[inline(always)]
    fn mul(self, a: __m512, b: __m512) -> __m512 {
        arch!(_mm512_mul_ps(a, b))
    }
    #[inline(always)]
    fn div(self, a: __m512, b: __m512) -> __m512 {
        arch!(_mm512_div_ps(a, b))
    }
    #[inline(always)]
    fn min(self, a: __m512, b: __m512) -> __m512 {
        arch!(_mm512_min_ps(a, b))
    }
    #[inline(always)]
    fn max(self, a: __m512, b: __m512) -> __m512 {
        arch!(_mm512_max_ps(a, b))
    }
    #[inline(always)]
    fn floor(self, a: __m512) -> __m512 {
        arch!(_mm512_roundscale_ps::<FLOOR>(a))
    }
    #[inline(always)]
    fn neg(self, a: __m512) -> __m512 {
        arch!(_mm512_castsi512_ps(_mm512_xor_si512(
            _mm512_castps_si512(a),
            _mm512_set1_epi32(i32::MIN)
        )))
    }
    #[inline(always)]
    fn abs(self, a: __m512) -> __m512 {
        arch!(_mm512_abs_ps(a))
    }
    #[inline(always)]
    fn sqrt(self, a: __m512) -> __m512 {
        arch!(_mm512_sqrt_ps(a))
    }
    #[inline(always)]
    fn lt(self, a: __m512, b: __m512) -> __mmask16 {
        arch!(_mm512_cmp_ps_mask::<_CMP_LT_OQ>(a, b))
    }
    #[inline(always)]
    fn le(self, a: __m512, b: __m512) -> __mmask16 {
        arch!(_mm512_cmp_ps_mask::<_CMP_LE_OQ>(a, b))
    }
    #[inline(always)]
    fn gt(self, a: __m512, b: __m512) -> __mmask16 {
        arch!(_mm512_cmp_ps_mask::<_CMP_GT_OQ>(a, b))
    }
    #[inline(always)]
    fn ge(self, a: __m512, b: __m512) -> __mmask16 {
        arch!(_mm512_cmp_ps_mask::<_CMP_GE_OQ>(a, b))
    }
    #[inline(always)]
    fn m_and(self, a: __mmask16, b: __mmask16) -> __mmask16 {
        a & b
    }
    #[inline(always)]
    fn m_or(self, a: __mmask16, b: __mmask16) -> __mmask16 {
        a | b
    }
    #[inline(always)]
    fn m_andnot(self, a: __mmask16, b: __mmask16) -> __mmask16 {
        a & !b
    }
    #[inline(always)]
    fn select(self, m: __mmask16, t: __m512, f: __m512) -> __m512 {
        arch!(_mm512_mask_blend_ps(m, f, t))
    }
    #[inline(always)]
    fn flip(self, m: __mmask16, v: __m512) -> __m512 {
        arch!(_mm512_castsi512_ps(_mm512_mask_xor_epi32(
            _mm512_castps_si512(v),
            m,
            _mm512_castps_si512(v),
            _mm512_set1_epi32(i32::MIN)
        )))
    }
    #[inline(always)]
    fn any(self, m: __mmask16) -> bool {
        m != 0
    }
    #[inline(always)]
    fn keep(self, m: __mmask16, v: __m512) -> __m512 {
        arch!(_mm512_maskz_mov_ps(m, v))
    }
    #[inline(always)]
    fn keep_not(self, m: __mmask16, v: __m512) -> __m512 {
        arch!(_mm512_maskz_mov_ps(!m, v))
    }
    #[inline(always)]
    fn bit_mask<const BIT: i32>(self, h: __m512i) -> __mmask16 {
        arch!(_mm512_test_epi32_mask(h, _mm512_set1_epi32(1 << BIT)))
    }
    #[inline(always)]
    fn flip_bit<const BIT: i32>(self, h: __m512i, v: __m512) -> __m512 {
        arch!({
            let sign = _mm512_sll_epi32(h, _mm_cvtsi32_si128(31 - BIT));
            let sign = _mm512_and_si512(sign, _mm512_set1_epi32(i32::MIN));
            _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(v), sign))
        })
    }
    #[inline(always)]
    fn u_splat(self, v: u32) -> __m512i {
        arch!(_mm512_set1_epi32(v as i32))
    }
    #[inline(always)]
    fn u_add(self, a: __m512i, b: __m512i) -> __m512i {
        arch!(_mm512_add_epi32(a, b))
    }
    #[inline(always)]
    fn u_sub(self, a: __m512i, b: __m512i) -> __m512i {
        arch!(_mm512_sub_epi32(a, b))
    }
    #[inline(always)]
    fn u_mul(self, a: __m512i, b: __m512i) -> __m512i {
        arch!(_mm512_mullo_epi32(a, b))
    }
    #[inline(always)]
    fn u_xor(self, a: __m512i, b: __m512i) -> __m512i {
        arch!(_mm512_xor_si512(a, b))
    }
    #[inline(always)]
    fn u_and(self, a: __m512i, b: __m512i) -> __m512i {
        arch!(_mm512_and_si512(a, b))
    }
    #[inline(always)]
    fn u_or(self, a: __m512i, b: __m512i) -> __m512i {
        arch!(_mm512_or_si512(a, b))
    }
    #[inline(always)]
    fn u_shr<const N: i32>(self, a: __m512i) -> __m512i {
        arch!(_mm512_srl_epi32(a, _mm_cvtsi32_si128(N)))
    }
    #[inline(always)]
    fn u_shl<const N: i32>(self, a: __m512i) -> __m512i {
        arch!(_mm512_sll_epi32(a, _mm_cvtsi32_si128(N)))
    }
    #[inline(always)]
    fn u_eq(self, a: __m512i, b: __m512i) -> __m512i {
        arch!(_mm512_movm_epi32_f(_mm512_cmpeq_epi32_mask(a, b)))
    }
    #[inline(always)]
    fn u_gt_signed(self, a: __m512i, b: __m512i) -> __m512i {
        arch!(_mm512_movm_epi32_f(_mm512_cmpgt_epi32_mask(a, b)))
    }
    #[inline(always)]
    fn u_to_m(self, a: __m512i) -> __mmask16 {
        arch!(_mm512_test_epi32_mask(a, a))
    }
    #[inline(always)]
    fn m_to_u(self, m: __mmask16) -> __m512i {
        arch!(_mm512_movm_epi32_f(m))
    }
    #[inline(always)]
    fn i_to_f(self, a: __m512i) -> __m512 {
        arch!(_mm512_cvtepi32_ps(a))
    }
    #[inline(always)]
    fn f_to_i(self, a: __m512) -> __m512i {
        arch!(_mm512_cvttps_epi32(a))
    }
    #[inline(always)]
    fn u_first(self, a: __m512i) -> u32 {
        arch!(_mm_cvtsi128_si32(_mm512_castsi512_si128(a))) as u32
    }
    #[inline(always)]
    fn u_iota(self) -> __m512i {
        arch!(_mm512_setr_epi32(
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        ))
    }
    #[inline(always)]
    fn u_broadcast_first(self, a: __m512i) -> __m512i {
        arch!(_mm512_broadcastd_epi32(_mm512_castsi512_si128(a)))
    }
    #[inline(always)]
    fn u_lookup(self, table: __m512i, idx: __m512i) -> __m512i {
        arch!(_mm512_permutexvar_epi32(idx, table))
    }
    #[inline(always)]
    fn lookup(self, table: __m512, idx: __m512i) -> __m512 {
        arch!(_mm512_permutexvar_ps(idx, table))
    }
    // Masks are native here, so compare-to-mask beats the generic path.
    #[inline(always)]
    fn u_is(self, a: __m512i, v: u32) -> __mmask16 {
        arch!(_mm512_cmpeq_epi32_mask(a, _mm512_set1_epi32(v as i32)))
    }
    #[inline(always)]
    fn u_any_bit(self, a: __m512i, bits: u32) -> __mmask16 {
        arch!(_mm512_test_epi32_mask(a, _mm512_set1_epi32(bits as i32)))
    }
}

/// All-ones lanes where `k` is set (AVX-512F only; `vpmovm2d` needs DQ).
#[inline(always)]
unsafe fn _mm512_movm_epi32_f(k: __mmask16) -> __m512i {
    // SAFETY: the caller holds an AVX-512 token.
    unsafe { _mm512_maskz_mov_epi32(k, _mm512_set1_epi32(-1)) }
}

impl Simd for Avx512F64 {
    type E = f64;
    type F = __m512d;
    type U = __m256i;
    type M = __mmask8;
    const LANES: usize = 8;

    #[inline(always)]
    fn outline<C: super::Call<Self>>(self, c: C) -> C::Output {
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        #[inline(never)]
        fn go<C: super::Call<Avx512F64>>(s: Avx512F64, c: C) -> C::Output {
            c.call(s)
        }
        // SAFETY: a Avx512F64 token exists only where the CPU has these
        // features (see `new`).
        unsafe { go(self, c) }
    }

    #[inline(always)]
    fn splat(self, v: f64) -> __m512d {
        arch!(_mm512_set1_pd(v))
    }
    #[inline(always)]
    fn load(self, src: &[f64]) -> __m512d {
        let src = &src[..8];
        arch!(_mm512_loadu_pd(src.as_ptr()))
    }
    #[inline(always)]
    fn store(self, v: __m512d, dst: &mut [f64]) {
        let dst = &mut dst[..8];
        arch!(_mm512_storeu_pd(dst.as_mut_ptr(), v))
    }
    #[inline(always)]
    unsafe fn load_ptr(self, src: *const f64) -> __m512d {
        // SAFETY: the token proves the features (module docs); the caller
        // guarantees 8 readable elements at `src`.
        unsafe { _mm512_loadu_pd(src) }
    }
    #[inline(always)]
    unsafe fn store_ptr(self, v: __m512d, dst: *mut f64) {
        // SAFETY: as `load_ptr`, for 8 writable elements at `dst`.
        unsafe { _mm512_storeu_pd(dst, v) }
    }
    #[inline(always)]
    fn add(self, a: __m512d, b: __m512d) -> __m512d {
        arch!(_mm512_add_pd(a, b))
    }
    #[inline(always)]
    fn sub(self, a: __m512d, b: __m512d) -> __m512d {
        arch!(_mm512_sub_pd(a, b))
    }
    #[inline(always)]
    fn mul(self, a: __m512d, b: __m512d) -> __m512d {
        arch!(_mm512_mul_pd(a, b))
    }
    #[inline(always)]
    fn div(self, a: __m512d, b: __m512d) -> __m512d {
        arch!(_mm512_div_pd(a, b))
    }
    #[inline(always)]
    fn min(self, a: __m512d, b: __m512d) -> __m512d {
        arch!(_mm512_min_pd(a, b))
    }
    #[inline(always)]
    fn max(self, a: __m512d, b: __m512d) -> __m512d {
        arch!(_mm512_max_pd(a, b))
    }
    #[inline(always)]
    fn floor(self, a: __m512d) -> __m512d {
        arch!(_mm512_roundscale_pd::<FLOOR>(a))
    }
    #[inline(always)]
    fn neg(self, a: __m512d) -> __m512d {
        arch!(_mm512_castsi512_pd(_mm512_xor_si512(
            _mm512_castpd_si512(a),
            _mm512_set1_epi64(i64::MIN)
        )))
    }
    #[inline(always)]
    fn abs(self, a: __m512d) -> __m512d {
        arch!(_mm512_abs_pd(a))
    }
    #[inline(always)]
    fn sqrt(self, a: __m512d) -> __m512d {
        arch!(_mm512_sqrt_pd(a))
    }
    #[inline(always)]
    fn lt(self, a: __m512d, b: __m512d) -> __mmask8 {
        arch!(_mm512_cmp_pd_mask::<_CMP_LT_OQ>(a, b))
    }
    #[inline(always)]
    fn le(self, a: __m512d, b: __m512d) -> __mmask8 {
        arch!(_mm512_cmp_pd_mask::<_CMP_LE_OQ>(a, b))
    }
    #[inline(always)]
    fn gt(self, a: __m512d, b: __m512d) -> __mmask8 {
        arch!(_mm512_cmp_pd_mask::<_CMP_GT_OQ>(a, b))
    }
    #[inline(always)]
    fn ge(self, a: __m512d, b: __m512d) -> __mmask8 {
        arch!(_mm512_cmp_pd_mask::<_CMP_GE_OQ>(a, b))
    }
    #[inline(always)]
    fn m_and(self, a: __mmask8, b: __mmask8) -> __mmask8 {
        a & b
    }
    #[inline(always)]
    fn m_or(self, a: __mmask8, b: __mmask8) -> __mmask8 {
        a | b
    }
    #[inline(always)]
    fn m_andnot(self, a: __mmask8, b: __mmask8) -> __mmask8 {
        a & !b
    }
    #[inline(always)]
    fn select(self, m: __mmask8, t: __m512d, f: __m512d) -> __m512d {
        arch!(_mm512_mask_blend_pd(m, f, t))
    }
    #[inline(always)]
    fn flip(self, m: __mmask8, v: __m512d) -> __m512d {
        arch!(_mm512_castsi512_pd(_mm512_mask_xor_epi64(
            _mm512_castpd_si512(v),
            m,
            _mm512_castpd_si512(v),
            _mm512_set1_epi64(i64::MIN)
        )))
    }
    #[inline(always)]
    fn any(self, m: __mmask8) -> bool {
        m != 0
    }
    #[inline(always)]
    fn keep(self, m: __mmask8, v: __m512d) -> __m512d {
        arch!(_mm512_maskz_mov_pd(m, v))
    }
    #[inline(always)]
    fn keep_not(self, m: __mmask8, v: __m512d) -> __m512d {
        arch!(_mm512_maskz_mov_pd(!m, v))
    }
    #[inline(always)]
    fn bit_mask<const BIT: i32>(self, h: __m256i) -> __mmask8 {
        arch!(_mm256_test_epi32_mask(h, _mm256_set1_epi32(1 << BIT)))
    }
    #[inline(always)]
    fn flip_bit<const BIT: i32>(self, h: __m256i, v: __m512d) -> __m512d {
        arch!({
            let wide = _mm512_cvtepu32_epi64(h);
            let sign = _mm512_sll_epi64(wide, _mm_cvtsi32_si128(63 - BIT));
            let sign = _mm512_and_si512(sign, _mm512_set1_epi64(i64::MIN));
            _mm512_castsi512_pd(_mm512_xor_si512(_mm512_castpd_si512(v), sign))
        })
    }
    u32x8_ops!();
    #[inline(always)]
    fn u_to_m(self, a: __m256i) -> __mmask8 {
        arch!(_mm256_test_epi32_mask(a, a))
    }
    #[inline(always)]
    fn m_to_u(self, m: __mmask8) -> __m256i {
        arch!(_mm256_maskz_mov_epi32(m, _mm256_set1_epi32(-1)))
    }
    #[inline(always)]
    fn i_to_f(self, a: __m256i) -> __m512d {
        arch!(_mm512_cvtepi32_pd(a))
    }
    #[inline(always)]
    fn f_to_i(self, a: __m512d) -> __m256i {
        arch!(_mm512_cvttpd_epi32(a))
    }
    #[inline(always)]
    fn lookup(self, table: __m512d, idx: __m256i) -> __m512d {
        arch!(_mm512_permutexvar_pd(_mm512_cvtepu32_epi64(idx), table))
    }
    #[inline(always)]
    fn u_is(self, a: __m256i, v: u32) -> __mmask8 {
        arch!(_mm256_cmpeq_epi32_mask(a, _mm256_set1_epi32(v as i32)))
    }
    #[inline(always)]
    fn u_any_bit(self, a: __m256i, bits: u32) -> __mmask8 {
        arch!(_mm256_test_epi32_mask(a, _mm256_set1_epi32(bits as i32)))
    }
}
