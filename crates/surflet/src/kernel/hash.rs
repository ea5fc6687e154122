//! Corner hashing: the key xor the primed lattice coordinates, finished by
//! `lowbias32`, and the values and choices read from a finished hash.

use crate::simd::Simd;

/// Per-axis multipliers that spread lattice coordinates over the 32-bit hash
/// (odd, so each is a bijection on `u32`).
pub(crate) const PRIMES: [u32; 4] = [0x9E37_79B1, 0x85EB_CA77, 0xC2B2_AE3D, 0x27D4_EB2F];
/// Multipliers of the corner-hash finaliser (Chris Wellons' `lowbias32`).
// Integers with no closed form: the multipliers that Wellons' hash-prospector
// search found for the xor-shift-multiply shape of `lowbias32` (shifts 16, 15,
// 16), as published with `lowbias32`. Changing them changes every noise, which
// the golden tests would catch.
const MIX1: u32 = 0x7FEB_352D;
const MIX2: u32 = 0x846C_A68B;

/// Finishes a corner hash: `h` already holds the key xor the primed
/// coordinates. This is `lowbias32` (Wellons), a full-avalanche permutation of
/// `u32`: two multiplies with xor-shifts in between.
///
/// A single multiply is not enough. Flipping bit `j` of the key changes the
/// product by about `±2^j·M`, so the top bits of two seeds' hashes differ by a
/// nearly constant offset and their gradient choices correlate (measured: a
/// 0.048 correlation between seeds 42 and 43 in 4D Perlin noise, 15 standard
/// deviations). After the second round the top bits are unrelated.
#[inline(always)]
pub(crate) fn lowbias32<S: Simd>(s: S, h: S::U) -> S::U {
    let h = s.u_xor(h, s.u_shr::<16>(h));
    let h = s.u_mul(h, s.u_splat(MIX1));
    let h = s.u_xor(h, s.u_shr::<15>(h));
    let h = s.u_mul(h, s.u_splat(MIX2));
    s.u_xor(h, s.u_shr::<16>(h))
}

/// A lattice value uniform over the odd multiples of 2^-24 in (-1, 1): the
/// top 24 hash bits, symmetric about zero, exact in `f32` and `f64`.
#[inline(always)]
pub(crate) fn lattice_value<S: Simd>(s: S, h: S::U) -> S::F {
    let k = s.u_shl::<1>(s.u_shr::<8>(h)); // even, in [0, 2^25)
    let odd = s.u_sub(s.u_add(k, s.u_splat(1)), s.u_splat(1 << 24)); // odd, in (-2^24, 2^24)
    s.mul(s.i_to_f(odd), s.c(1.0 / 16777216.0))
}

/// A three-way choice from the top 24 hash bits: `floor(3 * bits / 2^24)`.
/// Each outcome has probability 1/3 to within 2^-23 (unlike `perm % 12`).
#[inline(always)]
pub(crate) fn three_way<S: Simd>(s: S, h: S::U) -> S::U {
    let top = s.u_shr::<8>(h);
    s.u_shr::<24>(s.u_add(s.u_add(top, top), top))
}
