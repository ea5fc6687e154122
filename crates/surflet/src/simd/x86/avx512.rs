//! AVX-512 F and VL: 16 `f32` or 8 `f64` lanes.

use super::{Avx512F32, Avx512F64, FLOOR};
use crate::simd::Simd;
use core::arch::x86_64::*;

impl Simd for Avx512F32 {
    type E = f32;
    type F = __m512;
    type U = __m512i;
    type M = __mmask16;
    const LANES: usize = 16;

    #[inline(always)]
    fn outline<C: crate::simd::Call<Self>>(self, c: C) -> C::Output {
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        #[inline(never)]
        fn go<C: crate::simd::Call<Avx512F32>>(s: Avx512F32, c: C) -> C::Output {
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
    fn outline<C: crate::simd::Call<Self>>(self, c: C) -> C::Output {
        #[target_feature(enable = "avx2,avx512f,avx512vl")]
        #[inline(never)]
        fn go<C: crate::simd::Call<Avx512F64>>(s: Avx512F64, c: C) -> C::Output {
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
