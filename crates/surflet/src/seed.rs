//! How a `u64` seed becomes the 32-bit key that the lattice hash mixes in.
//!
//! This mapping is frozen: golden tests pin noise values for several seeds so
//! that it can never change silently between versions.

/// SplitMix64's output function (Steele, Lea & Flood 2014): a bijection on
/// `u64` with full avalanche, so nearby seeds give unrelated keys.
#[inline]
pub(crate) const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The lattice key of a seed: the high 32 bits of `splitmix64(seed)`.
///
/// Seeds that differ anywhere give keys that differ in about half their bits;
/// two seeds share a key (and so a field) with probability 2^-32.
#[inline]
pub(crate) const fn key(seed: u64) -> u32 {
    (splitmix64(seed) >> 32) as u32
}
