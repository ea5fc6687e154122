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

/// The golden-ratio increment of SplitMix64 (2^64 / φ, odd): multiplying an
/// index by it spreads consecutive indices over all 64 bits.
pub(crate) const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// Salt of the per-axis warp components (ASCII "WARPWARP").
pub(crate) const WARP_SALT: u64 = 0x5741_5250_5741_5250;

/// Salt of the three curl potentials (ASCII "CURLCURL").
pub(crate) const CURL_SALT: u64 = 0x4355_524C_4355_524C;

/// A seed derived from `seed` for the `index`-th member of the family named by
/// `salt`: `splitmix64(seed ^ salt ^ index·GOLDEN)`.
///
/// SplitMix64 is a bijection, so for one `seed` and `salt` distinct indices
/// always give distinct seeds; the salts keep families (octaves, warp axes,
/// curl potentials) apart.
#[inline]
pub(crate) const fn derive(seed: u64, salt: u64, index: u64) -> u64 {
    splitmix64(seed ^ salt ^ index.wrapping_mul(GOLDEN))
}

/// The seed of octave `i` of a fractal with seed `seed`: octave 0 keeps
/// `seed` (so a one-octave fractal is exactly its base noise); octave `i ≥ 1`
/// gets `derive(seed, 0, i)`.
#[inline]
pub(crate) const fn octave_seed(seed: u64, i: u32) -> u64 {
    if i == 0 {
        seed
    } else {
        derive(seed, 0, i as u64)
    }
}

/// Salt of the per-octave coordinate offsets (ASCII "OFFSETS!").
pub(crate) const OFFSET_SALT: u64 = 0x4F46_4653_4554_5321;

/// The coordinate offset of octave `i` (seed `octave_seed`) along `axis`: a
/// multiple of 2^-16 in `[0, 1)` cells, the top 16 bits of
/// `derive(octave_seed, OFFSET_SALT, axis)`. Octave 0 gets −0.0, which adds
/// exactly nothing (`x + −0.0 == x` bit for bit, `−0.0` included), so a
/// one-octave fractal is its base noise.
///
/// Seeds alone cannot separate the octaves' lattice zeros: gradient noise is
/// zero at every lattice point whatever its seed, and with a whole-number
/// lacunarity every lattice point of octave 0 is one of octave `i`'s.
#[inline]
pub(crate) fn octave_offset(octave_seed: u64, i: u32, axis: usize) -> f64 {
    if i == 0 {
        -0.0
    } else {
        (derive(octave_seed, OFFSET_SALT, axis as u64) >> 48) as f64 / 65536.0
    }
}
