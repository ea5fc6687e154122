//! The one-lane backend: plain `f32`/`f64` and `u32`. It is the reference the
//! SIMD backends must match bit for bit, and what single-point calls use.

use super::Element;
use super::Simd;
use core::fmt::Debug;
use core::marker::PhantomData;

/// How the one-lane backend rounds down. Every way gives the same bits;
/// they differ in speed only.
pub(crate) trait Round: Copy + Debug + Send + Sync + 'static {
    /// Largest integer not greater than `x`, exactly as [`Element::floor`].
    fn floor<E: Element>(self, x: E) -> E;
    /// [`Simd::FALLBACK`] for a lane that rounds this way.
    const FALLBACK: bool;
}

/// [`Element::floor`]: portable code, an exact conversion with branches.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Portable;

impl Round for Portable {
    // On x86-64 the batch calls have AVX2 (and single points its SSE4.1
    // rounding); this lane is their fallback.
    const FALLBACK: bool = cfg!(target_arch = "x86_64");
    #[inline(always)]
    fn floor<E: Element>(self, x: E) -> E {
        x.floor()
    }
}

/// One lane of `E`, rounding down with `R`: [`Portable`] by default; single
/// points on an AVX2 CPU use SSE4.1's one instruction
/// ([`super::one_lane`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Scalar<E, R = Portable>(PhantomData<E>, R);

impl<E: Element> Scalar<E> {
    pub(crate) const fn new() -> Self {
        Scalar(PhantomData, Portable)
    }
}

impl<E: Element, R: Round> Scalar<E, R> {
    /// One lane that rounds with `round`.
    pub(crate) const fn with(round: R) -> Self {
        Scalar(PhantomData, round)
    }
}

impl<E: Element, R: Round> Simd for Scalar<E, R> {
    type E = E;
    type F = E;
    type U = u32;
    type M = bool;
    const LANES: usize = 1;
    const FALLBACK: bool = R::FALLBACK;

    #[inline(always)]
    fn outline<C: super::Call<Self>>(self, c: C) -> C::Output {
        #[inline(never)]
        fn go<E: Element, R: Round, C: super::Call<Scalar<E, R>>>(
            s: Scalar<E, R>,
            c: C,
        ) -> C::Output {
            c.call(s)
        }
        go(self, c)
    }

    #[inline(always)]
    fn splat(self, v: E) -> E {
        v
    }
    #[inline(always)]
    fn load(self, src: &[E]) -> E {
        src[0]
    }
    #[inline(always)]
    fn store(self, v: E, dst: &mut [E]) {
        dst[0] = v;
    }
    #[inline(always)]
    unsafe fn load_ptr(self, src: *const E) -> E {
        // SAFETY: the caller guarantees one readable element at `src`.
        unsafe { *src }
    }
    #[inline(always)]
    unsafe fn store_ptr(self, v: E, dst: *mut E) {
        // SAFETY: the caller guarantees one writable element at `dst`.
        unsafe { *dst = v }
    }
    #[inline(always)]
    fn add(self, a: E, b: E) -> E {
        a + b
    }
    #[inline(always)]
    fn sub(self, a: E, b: E) -> E {
        a - b
    }
    #[inline(always)]
    fn mul(self, a: E, b: E) -> E {
        a * b
    }
    #[inline(always)]
    fn div(self, a: E, b: E) -> E {
        a / b
    }
    #[inline(always)]
    fn min(self, a: E, b: E) -> E {
        if a < b { a } else { b }
    }
    #[inline(always)]
    fn max(self, a: E, b: E) -> E {
        if a > b { a } else { b }
    }
    #[inline(always)]
    fn floor(self, a: E) -> E {
        self.1.floor(a)
    }
    #[inline(always)]
    fn neg(self, a: E) -> E {
        -a
    }
    #[inline(always)]
    fn abs(self, a: E) -> E {
        a.abs()
    }
    #[inline(always)]
    fn sqrt(self, a: E) -> E {
        a.sqrt()
    }
    #[inline(always)]
    fn lt(self, a: E, b: E) -> bool {
        a < b
    }
    #[inline(always)]
    fn le(self, a: E, b: E) -> bool {
        a <= b
    }
    #[inline(always)]
    fn gt(self, a: E, b: E) -> bool {
        a > b
    }
    #[inline(always)]
    fn ge(self, a: E, b: E) -> bool {
        a >= b
    }
    #[inline(always)]
    fn m_and(self, a: bool, b: bool) -> bool {
        a & b
    }
    #[inline(always)]
    fn m_or(self, a: bool, b: bool) -> bool {
        a | b
    }
    #[inline(always)]
    fn m_andnot(self, a: bool, b: bool) -> bool {
        a & !b
    }
    #[inline(always)]
    fn select(self, m: bool, t: E, f: E) -> E {
        if m { t } else { f }
    }
    #[inline(always)]
    fn flip(self, m: bool, v: E) -> E {
        if m { -v } else { v }
    }
    #[inline(always)]
    fn any(self, m: bool) -> bool {
        m
    }
    #[inline(always)]
    fn keep(self, m: bool, v: E) -> E {
        if m { v } else { E::ZERO }
    }
    #[inline(always)]
    fn keep_not(self, m: bool, v: E) -> E {
        if m { E::ZERO } else { v }
    }
    #[inline(always)]
    fn bit_mask<const BIT: i32>(self, h: u32) -> bool {
        (h >> BIT) & 1 == 1
    }
    #[inline(always)]
    fn flip_bit<const BIT: i32>(self, h: u32, v: E) -> E {
        v.flip_sign((h >> BIT) & 1)
    }
    #[inline(always)]
    fn u_splat(self, v: u32) -> u32 {
        v
    }
    #[inline(always)]
    fn u_add(self, a: u32, b: u32) -> u32 {
        a.wrapping_add(b)
    }
    #[inline(always)]
    fn u_sub(self, a: u32, b: u32) -> u32 {
        a.wrapping_sub(b)
    }
    #[inline(always)]
    fn u_mul(self, a: u32, b: u32) -> u32 {
        a.wrapping_mul(b)
    }
    #[inline(always)]
    fn u_xor(self, a: u32, b: u32) -> u32 {
        a ^ b
    }
    #[inline(always)]
    fn u_and(self, a: u32, b: u32) -> u32 {
        a & b
    }
    #[inline(always)]
    fn u_or(self, a: u32, b: u32) -> u32 {
        a | b
    }
    #[inline(always)]
    fn u_shr<const N: i32>(self, a: u32) -> u32 {
        a >> N
    }
    #[inline(always)]
    fn u_shl<const N: i32>(self, a: u32) -> u32 {
        a << N
    }
    #[inline(always)]
    fn u_eq(self, a: u32, b: u32) -> u32 {
        if a == b { u32::MAX } else { 0 }
    }
    #[inline(always)]
    fn u_gt_signed(self, a: u32, b: u32) -> u32 {
        if (a as i32) > (b as i32) { u32::MAX } else { 0 }
    }
    #[inline(always)]
    fn u_to_m(self, a: u32) -> bool {
        a != 0
    }
    #[inline(always)]
    fn m_to_u(self, m: bool) -> u32 {
        if m { u32::MAX } else { 0 }
    }
    #[inline(always)]
    fn i_to_f(self, a: u32) -> E {
        E::from_i32(a as i32)
    }
    #[inline(always)]
    fn f_to_i(self, a: E) -> u32 {
        a.trunc_i32() as u32
    }
    #[inline(always)]
    fn u_first(self, a: u32) -> u32 {
        a
    }
    #[inline(always)]
    fn u_iota(self) -> u32 {
        0
    }
    #[inline(always)]
    fn u_broadcast_first(self, a: u32) -> u32 {
        a
    }
    #[inline(always)]
    fn u_lookup(self, table: u32, idx: u32) -> u32 {
        debug_assert_eq!(idx, 0);
        table
    }
    #[inline(always)]
    fn lookup(self, table: E, idx: u32) -> E {
        debug_assert_eq!(idx, 0);
        table
    }
}
