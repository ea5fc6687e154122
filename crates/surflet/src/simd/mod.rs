//! The lane type every noise kernel is written over, and its backends.
//!
//! A kernel is one generic function `fn k<S: Simd>(s: S, ...)` written with the
//! operations below. It is instantiated once per backend — scalar, AVX2,
//! AVX-512 — and the batch entry points pick the widest backend the CPU has,
//! once per call (see [`Isa`]).
//!
//! **Bit-identical across instruction sets.** Every operation here is an exact
//! IEEE operation (add, sub, mul, div, floor, compare, select) or an exact
//! integer operation; there is no fused multiply-add, no approximate
//! reciprocal, no reassociation. So the one-lane path (used for single points)
//! and every SIMD path return the same bits for the same input, which the test
//! suite checks. `min`/`max` have the x86 semantics (`a < b ? a : b`) on every
//! backend, including how NaN falls through.

#[cfg(all(test, feature = "std"))]
pub(crate) mod count;
mod element;
pub(crate) mod scalar;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

pub use element::Element;

/// A vector of lanes of one precision, plus the matching `u32` lanes and masks.
///
/// Methods take `self` so that a backend token proves the CPU supports it;
/// tokens are only created after runtime detection.
pub trait Simd: Copy + Send + Sync + 'static {
    /// Element type.
    type E: Element;
    /// Float lanes.
    type F: Copy;
    /// `u32` lanes (same count as the float lanes).
    type U: Copy;
    /// Per-lane boolean for float selects.
    type M: Copy;
    /// Number of lanes.
    const LANES: usize;
    /// Whether this backend is only the fallback of a build that also has
    /// SIMD ones: the portable lane on x86-64, which serves CPUs without
    /// AVX2 and `Isa::Scalar`. A program's batch engine calls every kernel
    /// out of line on it ([`Simd::outline`]), which made the library's
    /// release build 13 % cheaper in CPU time and this fallback 0–17 %
    /// slower (docs/BUILD.md). Where it is the only backend (other
    /// architectures) it keeps its kernels inline.
    const FALLBACK: bool = false;

    /// Runs `c` in a function of its own that keeps this backend's target
    /// features and is never inlined. Builds with debug assertions use it
    /// for each noise kernel: without optimisation every inlined kernel
    /// keeps its own stack slots, and a frame holding all of them (a
    /// fractal's per-octave match over every kind) reached 5 MB, past a
    /// rayon worker's 2 MiB stack.
    fn outline<C: Call<Self>>(self, c: C) -> C::Output;

    fn splat(self, v: Self::E) -> Self::F;
    fn load(self, src: &[Self::E]) -> Self::F;
    fn store(self, v: Self::F, dst: &mut [Self::E]);
    /// [`load`](Self::load) through a pointer, for loops that check their
    /// bounds once rather than per vector.
    ///
    /// # Safety
    /// `src` must be valid for reading `LANES` elements.
    unsafe fn load_ptr(self, src: *const Self::E) -> Self::F;
    /// [`store`](Self::store) through a pointer.
    ///
    /// # Safety
    /// `dst` must be valid for writing `LANES` elements.
    unsafe fn store_ptr(self, v: Self::F, dst: *mut Self::E);

    fn add(self, a: Self::F, b: Self::F) -> Self::F;
    fn sub(self, a: Self::F, b: Self::F) -> Self::F;
    fn mul(self, a: Self::F, b: Self::F) -> Self::F;
    fn div(self, a: Self::F, b: Self::F) -> Self::F;
    /// `a < b ? a : b` (so a NaN in either operand yields `b`).
    fn min(self, a: Self::F, b: Self::F) -> Self::F;
    /// `a > b ? a : b` (so a NaN in either operand yields `b`).
    fn max(self, a: Self::F, b: Self::F) -> Self::F;
    fn floor(self, a: Self::F) -> Self::F;
    fn neg(self, a: Self::F) -> Self::F;
    fn abs(self, a: Self::F) -> Self::F;
    /// Correctly rounded square root (exact IEEE, like the arithmetic).
    fn sqrt(self, a: Self::F) -> Self::F;

    fn lt(self, a: Self::F, b: Self::F) -> Self::M;
    fn le(self, a: Self::F, b: Self::F) -> Self::M;
    fn gt(self, a: Self::F, b: Self::F) -> Self::M;
    fn ge(self, a: Self::F, b: Self::F) -> Self::M;
    fn m_and(self, a: Self::M, b: Self::M) -> Self::M;
    fn m_or(self, a: Self::M, b: Self::M) -> Self::M;
    /// `a && !b`.
    fn m_andnot(self, a: Self::M, b: Self::M) -> Self::M;
    /// `m ? t : f` per lane.
    fn select(self, m: Self::M, t: Self::F, f: Self::F) -> Self::F;
    /// Negates the lanes where `m` holds (a sign-bit flip, exact).
    fn flip(self, m: Self::M, v: Self::F) -> Self::F;
    fn any(self, m: Self::M) -> bool;
    /// `m ? v : 0`.
    fn keep(self, m: Self::M, v: Self::F) -> Self::F;
    /// `m ? 0 : v`.
    fn keep_not(self, m: Self::M, v: Self::F) -> Self::F;
    /// Float mask of the lanes whose hash has bit `BIT` set.
    fn bit_mask<const BIT: i32>(self, h: Self::U) -> Self::M;
    /// Negates the lanes whose hash has bit `BIT` set: the bit is moved into
    /// the float sign, so this costs a shift, an and and a xor.
    fn flip_bit<const BIT: i32>(self, h: Self::U, v: Self::F) -> Self::F;

    fn u_splat(self, v: u32) -> Self::U;
    fn u_add(self, a: Self::U, b: Self::U) -> Self::U;
    fn u_sub(self, a: Self::U, b: Self::U) -> Self::U;
    /// Wrapping multiply, low 32 bits.
    fn u_mul(self, a: Self::U, b: Self::U) -> Self::U;
    fn u_xor(self, a: Self::U, b: Self::U) -> Self::U;
    fn u_and(self, a: Self::U, b: Self::U) -> Self::U;
    fn u_or(self, a: Self::U, b: Self::U) -> Self::U;
    fn u_shr<const N: i32>(self, a: Self::U) -> Self::U;
    fn u_shl<const N: i32>(self, a: Self::U) -> Self::U;
    /// All-ones where `a == b`, else zero.
    fn u_eq(self, a: Self::U, b: Self::U) -> Self::U;
    /// All-ones where `a > b` as signed integers, else zero.
    fn u_gt_signed(self, a: Self::U, b: Self::U) -> Self::U;
    /// Float-select mask from an all-ones/zero integer mask.
    fn u_to_m(self, a: Self::U) -> Self::M;
    /// All-ones/zero integer mask from a float-select mask.
    fn m_to_u(self, m: Self::M) -> Self::U;
    /// Exact conversion of lanes holding integers in `[-2^24, 2^24]`.
    fn i_to_f(self, a: Self::U) -> Self::F;
    /// Truncating conversion of lanes holding integer-valued floats in
    /// `(-2^31, 2^31)`; two's-complement bits.
    fn f_to_i(self, a: Self::F) -> Self::U;
    /// Lane 0 (one move, where storing the vector and reading it back
    /// costs a round trip through memory).
    fn u_first(self, a: Self::U) -> u32;
    /// The lane indices `0, 1, …, LANES − 1`.
    fn u_iota(self) -> Self::U;
    /// Lane 0 of `a` in every lane (one broadcast).
    fn u_broadcast_first(self, a: Self::U) -> Self::U;
    /// `table[idx[k]]` in lane `k`, for indices below `LANES`: one register
    /// permute (`vpermd`), so a few values made once per vector can be
    /// handed to every lane that needs them.
    fn u_lookup(self, table: Self::U, idx: Self::U) -> Self::U;
    /// The float form of [`u_lookup`](Self::u_lookup) (`vpermps`,
    /// `vpermpd`): exact, it moves bits.
    fn lookup(self, table: Self::F, idx: Self::U) -> Self::F;

    // ----- derived operations, shared by every backend -----

    #[inline(always)]
    fn zero(self) -> Self::F {
        self.splat(Self::E::ZERO)
    }
    #[inline(always)]
    fn c(self, v: f64) -> Self::F {
        self.splat(Self::E::from_f64(v))
    }
    /// `m ? t : f` on integer lanes, with an all-ones/zero integer mask.
    #[inline(always)]
    fn u_blend(self, m: Self::U, t: Self::U, f: Self::U) -> Self::U {
        self.u_or(
            self.u_and(m, t),
            self.u_and(self.u_xor(m, self.u_splat(u32::MAX)), f),
        )
    }
    /// Float mask of the lanes where `a & bits != 0`.
    #[inline(always)]
    fn u_any_bit(self, a: Self::U, bits: u32) -> Self::M {
        let zero = self.u_splat(0);
        let is_zero = self.u_eq(self.u_and(a, self.u_splat(bits)), zero);
        self.u_to_m(self.u_xor(is_zero, self.u_splat(u32::MAX)))
    }
    /// Float mask of the lanes where `a == v`.
    #[inline(always)]
    fn u_is(self, a: Self::U, v: u32) -> Self::M {
        self.u_to_m(self.u_eq(a, self.u_splat(v)))
    }

    /// The lattice cell of an integer-valued float (the result of `floor`),
    /// reduced modulo 2^32.
    ///
    /// The reduction is exact float arithmetic, so it never overflows and
    /// gives the same bits on every backend however large the input (`1e300`
    /// included); the lattice therefore repeats every 2^32 cells. NaN and ±inf
    /// lanes map to cell 0 (their noise value is NaN anyway).
    #[inline(always)]
    fn cell(self, fl: Self::F) -> Self::U {
        let limit = self.c(2147483648.0);
        let in_range = self.lt(self.abs(fl), limit);
        // Fast path: every lane already fits an i32 (the overwhelmingly
        // common case); the full reduction below gives the same bits.
        if !self.any(self.m_andnot(self.splat_true(), in_range)) {
            return self.f_to_i(fl);
        }
        // For |fl| >= 2^31 both `fl` and `q * 2^32` are multiples of ulp(fl)
        // >= 2^8 (f32) and `r` is below 2^32, so `r` is exact. (For small
        // negative cells it would not be — 2^32 - 144 has no f32 — which is
        // why in-range lanes keep the direct conversion.)
        let two32 = self.c(4294967296.0);
        let q = self.floor(self.mul(fl, self.c(1.0 / 4294967296.0)));
        let r = self.sub(fl, self.mul(q, two32)); // in [0, 2^32)
        let r = self.select(self.ge(r, limit), self.sub(r, two32), r); // [-2^31, 2^31)
        let finite = self.le(self.abs(r), limit);
        let reduced = self.f_to_i(self.keep(finite, r));
        let direct = self.f_to_i(self.keep(in_range, fl));
        self.u_blend(self.m_to_u(in_range), direct, reduced)
    }

    /// A mask with every lane set.
    #[inline(always)]
    fn splat_true(self) -> Self::M {
        let z = self.zero();
        self.le(z, z)
    }
}

/// A call on one backend, for [`Simd::outline`].
pub trait Call<S: Simd> {
    /// What the call returns.
    type Output;
    /// Makes the call (inlined into the outlined function).
    fn call(self, s: S) -> Self::Output;
}

/// Work that runs on one backend, chosen at run time. Implementors write
/// `run` once, generically; it is instantiated per backend and inlined into
/// that backend's `#[target_feature]` entry point.
pub trait Op<E> {
    /// What the work returns.
    type Output;
    /// Does the work with lane type `S`.
    fn run<S: Simd<E = E>>(self, s: S) -> Self::Output;
}

macro_rules! dispatcher {
    ($name:ident, $e:ty, $avx2:ident, $avx512:ident) => {
        /// Runs `op` on the backend for `isa`, falling back to scalar code if
        /// the CPU lacks it.
        #[inline]
        pub(crate) fn $name<O: Op<$e>>(isa: Isa, op: O) -> O::Output {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx2")]
                fn avx2<O: Op<$e>>(s: x86::$avx2, op: O) -> O::Output {
                    op.run(s)
                }
                #[cfg(feature = "avx512")]
                #[target_feature(enable = "avx2,avx512f,avx512vl")]
                fn avx512<O: Op<$e>>(s: x86::$avx512, op: O) -> O::Output {
                    op.run(s)
                }
                match isa {
                    #[cfg(feature = "avx512")]
                    Isa::Avx512 => {
                        if let Some(t) = x86::$avx512::new() {
                            // SAFETY: the token proves the CPU has the
                            // features the entry point enables.
                            return unsafe { avx512(t, op) };
                        }
                    }
                    Isa::Avx2 => {
                        if let Some(t) = x86::$avx2::new() {
                            // SAFETY: as above.
                            return unsafe { avx2(t, op) };
                        }
                    }
                    // Scalar, or AVX-512 in a build without it (which
                    // `Isa::is_available` never reports, so callers have
                    // refused it already).
                    _ => {}
                }
            }
            let _ = isa;
            op.run(scalar::Scalar::<$e>::new())
        }
    };
}
dispatcher!(dispatch_f32, f32, Avx2F32, Avx512F32);
dispatcher!(dispatch_f64, f64, Avx2F64, Avx512F64);

/// Work on one lane, for single points ([`one_lane`]): the lane is the
/// element itself, rounding down with `R`.
pub(crate) trait OneOp<E: Element> {
    /// What the work returns.
    type Output;
    /// Does the work.
    fn run<R: scalar::Round>(self, s: scalar::Scalar<E, R>) -> Self::Output;
}

/// Runs `op` on one lane, for single points. Where [`Isa::detect`] allows
/// AVX2, the lane lives in an AVX2 entry point and rounds down with SSE4.1's
/// one instruction; otherwise (and in `no_std` builds without AVX2) it is
/// portable code. Both give the same bits. The choice is made on the first
/// call and kept in one byte, so later calls pay a load and a branch.
#[inline]
pub(crate) fn one_lane<E: Element, O: OneOp<E>>(op: O) -> O::Output {
    #[inline(never)]
    fn portable<E: Element, O: OneOp<E>>(op: O) -> O::Output {
        op.run(scalar::Scalar::<E>::new())
    }
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2")]
        #[inline(never)]
        fn avx2<E: Element, O: OneOp<E>>(s: scalar::Scalar<E, x86::Sse41>, op: O) -> O::Output {
            op.run(s)
        }
        if let Some(t) = x86::Sse41::cached() {
            // SAFETY: the token proves the CPU has AVX2.
            return unsafe { avx2(scalar::Scalar::with(t), op) };
        }
    }
    portable(op)
}

/// An instruction set a batch call can run on.
///
/// Batch calls pick the widest one the CPU supports, once per call; single
/// point calls run on one lane, inside an AVX2 function where [`Isa::detect`]
/// allows AVX2 and as portable code under [`Isa::Scalar`]. All of them return the
/// same bits (see the module documentation), so the choice only affects
/// speed.
///
/// ```
/// let isa = surflet::Isa::detect();
/// assert!(surflet::Isa::available().contains(&isa));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Isa {
    /// Portable scalar code, one lane.
    Scalar,
    /// x86-64 AVX2: 8 `f32` or 4 `f64` lanes.
    Avx2,
    /// x86-64 AVX-512 (F and VL): 16 `f32` or 8 `f64` lanes. Only in builds
    /// with the `avx512` feature (a default one): without it, CPUs that
    /// have AVX-512 run the AVX2 backend, with the same bits.
    Avx512,
}

impl Isa {
    /// The widest instruction set this CPU supports (cached after the first
    /// call). Setting the environment variable `SURFLET_ISA` to `scalar`,
    /// `avx2` or `avx512` caps it, which is how the CLI and benchmarks compare
    /// backends.
    pub fn detect() -> Isa {
        #[cfg(feature = "std")]
        {
            use std::sync::OnceLock;
            static DETECTED: OnceLock<Isa> = OnceLock::new();
            *DETECTED.get_or_init(|| {
                let best = Isa::widest();
                match std::env::var("SURFLET_ISA").ok().as_deref() {
                    Some("scalar") => Isa::Scalar,
                    Some("avx2") if best != Isa::Scalar => Isa::Avx2,
                    _ => best,
                }
            })
        }
        #[cfg(not(feature = "std"))]
        Isa::widest()
    }

    fn widest() -> Isa {
        [Isa::Avx512, Isa::Avx2]
            .into_iter()
            .find(|isa| isa.is_available())
            .unwrap_or(Isa::Scalar)
    }

    /// Every instruction set this CPU supports, narrowest first.
    pub fn available() -> alloc::vec::Vec<Isa> {
        [Isa::Scalar, Isa::Avx2, Isa::Avx512]
            .into_iter()
            .filter(|isa| isa.is_available())
            .collect()
    }

    /// Whether this CPU supports the instruction set (detected once, then a
    /// load: batch calls ask this every time).
    pub fn is_available(self) -> bool {
        #[cfg(feature = "std")]
        let mask = {
            use std::sync::OnceLock;
            static MASK: OnceLock<u8> = OnceLock::new();
            *MASK.get_or_init(Isa::mask)
        };
        // Without `std` there is no run-time detection: the mask is what
        // the build targets, a constant.
        #[cfg(not(feature = "std"))]
        let mask = Isa::mask();
        let bit = match self {
            Isa::Scalar => 1,
            Isa::Avx2 => 2,
            Isa::Avx512 => 4,
        };
        mask & bit != 0
    }

    /// One bit per available instruction set.
    fn mask() -> u8 {
        #[allow(unused_mut)]
        let mut m = 1u8;
        #[cfg(target_arch = "x86_64")]
        {
            if x86::Avx2F32::new().is_some() {
                m |= 2;
            }
            #[cfg(feature = "avx512")]
            if x86::Avx512F32::new().is_some() {
                m |= 4;
            }
        }
        m
    }

    /// Whether this build has the backend at all: scalar always, AVX2 on
    /// x86-64, AVX-512 on x86-64 with the `avx512` feature. A backend that
    /// is built may still be missing from the CPU ([`Isa::is_available`]).
    ///
    /// ```
    /// use surflet::Isa;
    /// assert!(Isa::Scalar.is_built());
    /// assert_eq!(Isa::Avx512.is_built(), cfg!(all(target_arch = "x86_64", feature = "avx512")));
    /// for isa in Isa::available() {
    ///     assert!(isa.is_built());
    /// }
    /// ```
    pub fn is_built(self) -> bool {
        match self {
            Isa::Scalar => true,
            Isa::Avx2 => cfg!(target_arch = "x86_64"),
            Isa::Avx512 => cfg!(all(target_arch = "x86_64", feature = "avx512")),
        }
    }

    /// The error of a batch call asked to run on an instruction set it
    /// cannot use: missing from this build, or from this CPU.
    pub(crate) fn unavailable(self) -> crate::Error {
        let name = self.name();
        let reason = if self.is_built() {
            alloc::format!("{name} is not supported by this CPU")
        } else if cfg!(target_arch = "x86_64") {
            alloc::format!("{name} is not in this build of surflet (its `{name}` cargo feature)")
        } else {
            alloc::format!("{name} is an x86-64 instruction set")
        };
        crate::Error::Parameter {
            name: "isa".into(),
            reason,
        }
    }

    /// Lower-case name: `scalar`, `avx2`, `avx512`.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Scalar => "scalar",
            Isa::Avx2 => "avx2",
            Isa::Avx512 => "avx512",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Isa, Op, Simd};
    use crate::simd::Element;

    /// Each lane's value, through an exact integer-to-float conversion.
    fn lanes<S: Simd>(s: S, u: S::U) -> alloc::vec::Vec<f64> {
        let mut out = [S::E::ZERO; 16];
        s.store(s.i_to_f(u), &mut out);
        out[..S::LANES].iter().map(|v| v.to_f64()).collect()
    }

    /// `u_iota`, `u_broadcast_first`, `u_lookup` and `lookup` on one
    /// backend: a reversed and a shifted index over a table of distinct
    /// entries.
    struct Permutes;

    impl<E: Element> Op<E> for Permutes {
        type Output = ();
        fn run<S: Simd<E = E>>(self, s: S) {
            let n = S::LANES;
            let iota = s.u_iota();
            let want: alloc::vec::Vec<f64> = (0..n).map(|k| k as f64).collect();
            assert_eq!(lanes(s, iota), want);
            let table = s.u_add(s.u_mul(iota, s.u_splat(3)), s.u_splat(5));
            assert_eq!(
                lanes(s, s.u_broadcast_first(s.u_add(table, iota))),
                [5.0].repeat(n)
            );
            let last = s.u_splat(n as u32 - 1);
            for idx in [
                s.u_sub(last, iota),
                s.u_and(s.u_add(iota, s.u_splat(1)), last),
            ] {
                let picked = lanes(s, idx);
                let want: alloc::vec::Vec<f64> = picked.iter().map(|&i| 3.0 * i + 5.0).collect();
                assert_eq!(lanes(s, s.u_lookup(table, idx)), want);
                let mut got = [E::ZERO; 16];
                s.store(s.lookup(s.i_to_f(table), idx), &mut got);
                let got: alloc::vec::Vec<f64> = got[..n].iter().map(|v| v.to_f64()).collect();
                assert_eq!(got, want);
            }
        }
    }

    #[test]
    fn permutes_on_every_backend() {
        for isa in Isa::available() {
            super::dispatch_f32(isa, Permutes);
            super::dispatch_f64(isa, Permutes);
        }
    }

    /// The single-point path's SSE4.1 floor gives the portable floor's bits
    /// on the values where a floor can go wrong: signed zeros, halves,
    /// neighbours of integers, the precision limit, infinities and NaN.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn one_lane_floors_agree() {
        use super::scalar::{Portable, Round};
        let Some(hw) = super::x86::Sse41::cached() else {
            return;
        };
        fn check<E: Element>(hw: super::x86::Sse41, v: f64) {
            let x = E::from_f64(v);
            let (a, b) = (Portable.floor(x), hw.floor(x));
            assert!(
                a.to_f64().to_bits() == b.to_f64().to_bits() || a.is_nan() && b.is_nan(),
                "{} floor({x:?}): portable {a:?}, SSE4.1 {b:?}",
                E::NAME
            );
        }
        let mut values = alloc::vec![0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN];
        for base in [
            0.5,
            1.0,
            2.0,
            3.0,
            1e6,
            8388607.0,
            8388608.0,
            16777216.0,
            4503599627370495.0,
            1e300,
        ] {
            for v in [
                base,
                base * (1.0 + f64::EPSILON),
                base * (1.0 - f64::EPSILON / 2.0),
                base + 0.5,
            ] {
                values.extend([v, -v, v + 1e-7, -v - 1e-7]);
            }
        }
        for v in values {
            check::<f32>(hw, v);
            check::<f64>(hw, v);
        }
    }
}
