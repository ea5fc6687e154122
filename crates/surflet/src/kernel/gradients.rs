//! Gradient sets, each built from a finished corner hash with selects and
//! sign flips (no table lookups), so that they vectorise and every entry of
//! a set is equally likely: power-of-two sets use independent bits; sets
//! with a factor of three use [`three_way`].

use super::hash::{lattice_value, three_way};
use crate::simd::Simd;

/// 1D: uniform over (-1, 1), the most evenly spread 1D set.
#[inline(always)]
pub(crate) fn grad1<S: Simd>(s: S, h: S::U) -> [S::F; 1] {
    [lattice_value(s, h)]
}

/// 2D: the 8 unit vectors at multiples of 45°: the article's 4 diagonals
/// plus the 4 axes.
#[inline(always)]
pub(crate) fn grad2<S: Simd>(s: S, h: S::U) -> [S::F; 2] {
    // Bit 31 picks diagonal or axis. Diagonals: bits 29 and 30 are the signs.
    // Axes: bit 29 picks the axis, bit 30 the sign.
    let diagonal = s.bit_mask::<31>(h);
    let b29 = s.bit_mask::<29>(h);
    let one = s.c(1.0);
    let d = s.c(core::f64::consts::FRAC_1_SQRT_2);
    let gx = s.select(
        diagonal,
        s.flip_bit::<29>(h, d),
        s.flip_bit::<30>(h, s.keep_not(b29, one)),
    );
    let gy = s.flip_bit::<30>(h, s.select(diagonal, d, s.keep(b29, one)));
    [gx, gy]
}

/// 3D Perlin: the 12 cube-edge midpoints (±1, ±1, 0) and permutations,
/// Perlin's own set, each with probability 1/12 (to within 2^-22).
#[inline(always)]
pub(crate) fn grad3_edges<S: Simd>(s: S, h: S::U) -> [S::F; 3] {
    let zero_axis = three_way(s, h);
    let one = s.c(1.0);
    [
        s.flip_bit::<8>(h, s.keep_not(s.u_is(zero_axis, 0), one)),
        s.flip_bit::<9>(h, s.keep_not(s.u_is(zero_axis, 1), one)),
        s.flip_bit::<10>(h, s.keep_not(s.u_is(zero_axis, 2), one)),
    ]
}

/// 4D Perlin: the 32 hypercube-edge midpoints (0, ±1, ±1, ±1) and
/// permutations.
#[inline(always)]
pub(crate) fn grad4_edges<S: Simd>(s: S, h: S::U) -> [S::F; 4] {
    let zero_axis = s.u_shr::<30>(h);
    let one = s.c(1.0);
    [
        s.flip_bit::<26>(h, s.keep_not(s.u_is(zero_axis, 0), one)),
        s.flip_bit::<27>(h, s.keep_not(s.u_is(zero_axis, 1), one)),
        s.flip_bit::<28>(h, s.keep_not(s.u_is(zero_axis, 2), one)),
        s.flip_bit::<29>(h, s.keep_not(s.u_is(zero_axis, 3), one)),
    ]
}

/// 3D simplex: Catlike Coding's 32 unit vectors — the 12 edge directions
/// twice and the 8 corner directions once. The corner directions lie along
/// every short edge of the BCC tetrahedra, which is what lets the noise reach
/// ±1.
#[inline(always)]
pub(crate) fn grad3_catlike<S: Simd>(s: S, h: S::U) -> [S::F; 3] {
    let kind = s.u_shr::<30>(h); // 0, 1, 2: edge with that axis zero; 3: corner
    let mag = s.select(
        s.u_is(kind, 3),
        s.c(0.577_350_269_189_625_7),
        s.c(core::f64::consts::FRAC_1_SQRT_2),
    );
    [
        s.flip_bit::<27>(h, s.keep_not(s.u_is(kind, 0), mag)),
        s.flip_bit::<28>(h, s.keep_not(s.u_is(kind, 1), mag)),
        s.flip_bit::<29>(h, s.keep_not(s.u_is(kind, 2), mag)),
    ]
}

/// 4D simplex: 48 unit vectors — the 32 edge directions (0, ±1, ±1, ±1)/√3
/// and the 16 corner directions (±1, ±1, ±1, ±1)/2, each equally likely. The
/// corners include the main diagonal, along which the maximum lies.
#[inline(always)]
pub(crate) fn grad4_simplex<S: Simd>(s: S, h: S::U) -> [S::F; 4] {
    let group = three_way(s, h); // 0, 1: edges; 2: corners
    let low = s.u_and(s.u_shr::<8>(h), s.u_splat(1));
    // For edges the zero axis is 2*group + low; corners get 4 or 5 (none).
    let zero_axis = s.u_add(s.u_add(group, group), low);
    let mag = s.select(s.u_is(group, 2), s.c(0.5), s.c(0.577_350_269_189_625_7));
    [
        s.flip_bit::<9>(h, s.keep_not(s.u_is(zero_axis, 0), mag)),
        s.flip_bit::<10>(h, s.keep_not(s.u_is(zero_axis, 1), mag)),
        s.flip_bit::<11>(h, s.keep_not(s.u_is(zero_axis, 2), mag)),
        s.flip_bit::<12>(h, s.keep_not(s.u_is(zero_axis, 3), mag)),
    ]
}
