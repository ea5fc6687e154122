//! AVX2: 8 `f32` or 4 `f64` lanes.

use super::{Avx2F32, Avx2F64, FLOOR};
use crate::simd::Simd;
use core::arch::x86_64::*;

impl Simd for Avx2F32 {
    type E = f32;
    type F = __m256;
    type U = __m256i;
    type M = __m256;
    const LANES: usize = 8;

    #[inline(always)]
    fn outline<C: crate::simd::Call<Self>>(self, c: C) -> C::Output {
        #[target_feature(enable = "avx2")]
        #[inline(never)]
        fn go<C: crate::simd::Call<Avx2F32>>(s: Avx2F32, c: C) -> C::Output {
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
    fn outline<C: crate::simd::Call<Self>>(self, c: C) -> C::Output {
        #[target_feature(enable = "avx2")]
        #[inline(never)]
        fn go<C: crate::simd::Call<Avx2F64>>(s: Avx2F64, c: C) -> C::Output {
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
