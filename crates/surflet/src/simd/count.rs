//! A test backend that counts the vector operations a kernel performs: eight
//! lanes held in arrays, each lane computed by the scalar backend (so the
//! bits are the scalar path's), and one tick per operation on the vector.
//!
//! It is the performance model of `BENCHMARKS.md`: AVX2 runs each of these
//! operations on 8 `f32` lanes as one instruction, so a call's ticks per
//! sample are the instructions per sample that the algorithm as written
//! needs. Constants are free (`splat`, `u_splat`, `u_iota` do not tick),
//! as they would be with registers to spare; what the machine pays beyond
//! the model (constants reloaded, spills, loop bookkeeping, multi-instruction
//! operations) is the gap callgrind shows.

use super::scalar::Scalar;
use super::{Call, Element, Simd};
use crate::prelude_internal::array_of;
use core::cell::Cell;

std::thread_local! {
    static TICKS: Cell<u64> = const { Cell::new(0) };
}

/// The operations counted on this thread so far.
pub(crate) fn ticks() -> u64 {
    TICKS.with(Cell::get)
}

fn tick() {
    TICKS.with(|t| t.set(t.get() + 1));
}

const N: usize = 8;

/// Eight lanes of `E`, counted.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Count<E>(Scalar<E>);

impl<E: Element> Count<E> {
    pub(crate) const fn new() -> Self {
        Count(Scalar::new())
    }
}

macro_rules! lanes {
    // f(a, b) lane by lane, one tick.
    ($self:ident, $f:ident, $($a:ident),*) => {{
        tick();
        array_of(|k| $self.0.$f($($a[k]),*))
    }};
}

impl<E: Element> Simd for Count<E> {
    type E = E;
    type F = [E; N];
    type U = [u32; N];
    type M = [bool; N];
    const LANES: usize = N;

    fn outline<C: Call<Self>>(self, c: C) -> C::Output {
        c.call(self)
    }
    fn splat(self, v: E) -> [E; N] {
        [v; N]
    }
    fn load(self, src: &[E]) -> [E; N] {
        tick();
        array_of(|k| src[k])
    }
    fn store(self, v: [E; N], dst: &mut [E]) {
        tick();
        dst[..N].copy_from_slice(&v);
    }
    unsafe fn load_ptr(self, src: *const E) -> [E; N] {
        tick();
        // SAFETY: the caller guarantees N readable elements at `src`.
        array_of(|k| unsafe { *src.add(k) })
    }
    unsafe fn store_ptr(self, v: [E; N], dst: *mut E) {
        tick();
        for (k, x) in v.into_iter().enumerate() {
            // SAFETY: the caller guarantees N writable elements at `dst`.
            unsafe { *dst.add(k) = x };
        }
    }
    fn add(self, a: [E; N], b: [E; N]) -> [E; N] {
        lanes!(self, add, a, b)
    }
    fn sub(self, a: [E; N], b: [E; N]) -> [E; N] {
        lanes!(self, sub, a, b)
    }
    fn mul(self, a: [E; N], b: [E; N]) -> [E; N] {
        lanes!(self, mul, a, b)
    }
    fn div(self, a: [E; N], b: [E; N]) -> [E; N] {
        lanes!(self, div, a, b)
    }
    fn min(self, a: [E; N], b: [E; N]) -> [E; N] {
        lanes!(self, min, a, b)
    }
    fn max(self, a: [E; N], b: [E; N]) -> [E; N] {
        lanes!(self, max, a, b)
    }
    fn floor(self, a: [E; N]) -> [E; N] {
        lanes!(self, floor, a)
    }
    fn neg(self, a: [E; N]) -> [E; N] {
        lanes!(self, neg, a)
    }
    fn abs(self, a: [E; N]) -> [E; N] {
        lanes!(self, abs, a)
    }
    fn sqrt(self, a: [E; N]) -> [E; N] {
        lanes!(self, sqrt, a)
    }
    fn lt(self, a: [E; N], b: [E; N]) -> [bool; N] {
        lanes!(self, lt, a, b)
    }
    fn le(self, a: [E; N], b: [E; N]) -> [bool; N] {
        lanes!(self, le, a, b)
    }
    fn gt(self, a: [E; N], b: [E; N]) -> [bool; N] {
        lanes!(self, gt, a, b)
    }
    fn ge(self, a: [E; N], b: [E; N]) -> [bool; N] {
        lanes!(self, ge, a, b)
    }
    fn m_and(self, a: [bool; N], b: [bool; N]) -> [bool; N] {
        lanes!(self, m_and, a, b)
    }
    fn m_or(self, a: [bool; N], b: [bool; N]) -> [bool; N] {
        lanes!(self, m_or, a, b)
    }
    fn m_andnot(self, a: [bool; N], b: [bool; N]) -> [bool; N] {
        lanes!(self, m_andnot, a, b)
    }
    fn select(self, m: [bool; N], t: [E; N], f: [E; N]) -> [E; N] {
        lanes!(self, select, m, t, f)
    }
    fn flip(self, m: [bool; N], v: [E; N]) -> [E; N] {
        lanes!(self, flip, m, v)
    }
    fn any(self, m: [bool; N]) -> bool {
        // A test and a branch.
        tick();
        tick();
        m.iter().any(|&b| b)
    }
    fn keep(self, m: [bool; N], v: [E; N]) -> [E; N] {
        lanes!(self, keep, m, v)
    }
    fn keep_not(self, m: [bool; N], v: [E; N]) -> [E; N] {
        lanes!(self, keep_not, m, v)
    }
    fn bit_mask<const BIT: i32>(self, h: [u32; N]) -> [bool; N] {
        tick();
        array_of(|k| self.0.bit_mask::<BIT>(h[k]))
    }
    fn flip_bit<const BIT: i32>(self, h: [u32; N], v: [E; N]) -> [E; N] {
        // A shift, an and and a xor.
        tick();
        tick();
        tick();
        array_of(|k| self.0.flip_bit::<BIT>(h[k], v[k]))
    }
    fn u_splat(self, v: u32) -> [u32; N] {
        [v; N]
    }
    fn u_add(self, a: [u32; N], b: [u32; N]) -> [u32; N] {
        lanes!(self, u_add, a, b)
    }
    fn u_sub(self, a: [u32; N], b: [u32; N]) -> [u32; N] {
        lanes!(self, u_sub, a, b)
    }
    fn u_mul(self, a: [u32; N], b: [u32; N]) -> [u32; N] {
        lanes!(self, u_mul, a, b)
    }
    fn u_xor(self, a: [u32; N], b: [u32; N]) -> [u32; N] {
        lanes!(self, u_xor, a, b)
    }
    fn u_and(self, a: [u32; N], b: [u32; N]) -> [u32; N] {
        lanes!(self, u_and, a, b)
    }
    fn u_or(self, a: [u32; N], b: [u32; N]) -> [u32; N] {
        lanes!(self, u_or, a, b)
    }
    fn u_shr<const S: i32>(self, a: [u32; N]) -> [u32; N] {
        tick();
        array_of(|k| self.0.u_shr::<S>(a[k]))
    }
    fn u_shl<const S: i32>(self, a: [u32; N]) -> [u32; N] {
        tick();
        array_of(|k| self.0.u_shl::<S>(a[k]))
    }
    fn u_eq(self, a: [u32; N], b: [u32; N]) -> [u32; N] {
        lanes!(self, u_eq, a, b)
    }
    fn u_gt_signed(self, a: [u32; N], b: [u32; N]) -> [u32; N] {
        lanes!(self, u_gt_signed, a, b)
    }
    // Masks and integer lanes share a register on AVX2: no instruction.
    fn u_to_m(self, a: [u32; N]) -> [bool; N] {
        a.map(|x| self.0.u_to_m(x))
    }
    fn m_to_u(self, m: [bool; N]) -> [u32; N] {
        m.map(|x| self.0.m_to_u(x))
    }
    fn i_to_f(self, a: [u32; N]) -> [E; N] {
        lanes!(self, i_to_f, a)
    }
    fn f_to_i(self, a: [E; N]) -> [u32; N] {
        lanes!(self, f_to_i, a)
    }
    fn u_first(self, a: [u32; N]) -> u32 {
        tick();
        a[0]
    }
    fn u_iota(self) -> [u32; N] {
        array_of(|k| k as u32)
    }
    fn u_broadcast_first(self, a: [u32; N]) -> [u32; N] {
        tick();
        [a[0]; N]
    }
    fn u_lookup(self, table: [u32; N], idx: [u32; N]) -> [u32; N] {
        tick();
        idx.map(|i| table[i as usize])
    }
    fn lookup(self, table: [E; N], idx: [u32; N]) -> [E; N] {
        tick();
        idx.map(|i| table[i as usize])
    }
}
