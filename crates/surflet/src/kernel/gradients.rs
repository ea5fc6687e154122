//! Gradient sets, each built from a finished corner hash with selects and
//! sign flips (no table lookups), so that they vectorise and every entry of
//! a set is equally likely: power-of-two sets use independent bits; sets
//! with a factor of three use [`three_way`]. On one lane (single points)
//! the two sets of the 2D and 3D simplex kernels read a table instead,
//! which holds exactly what the selects give.

use super::hash::{lattice_value, three_way};
use crate::simd::{Element, Simd};

/// 1D: uniform over (-1, 1), the most evenly spread 1D set.
#[inline(always)]
pub(crate) fn grad1<S: Simd>(s: S, h: S::U) -> [S::F; 1] {
    [lattice_value(s, h)]
}

/// 2D: the 8 unit vectors at multiples of 45°: the article's 4 diagonals
/// plus the 4 axes.
#[inline(always)]
pub(crate) fn grad2<S: Simd>(s: S, h: S::U) -> [S::F; 2] {
    if S::LANES == 1 {
        return from_table(s, &GRAD2, s.u_first(h) >> 29);
    }
    grad2_selects(s, h)
}

#[inline(always)]
fn grad2_selects<S: Simd>(s: S, h: S::U) -> [S::F; 2] {
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
    if S::LANES == 1 {
        return from_table(s, &GRAD3_CATLIKE, s.u_first(h) >> 27);
    }
    grad3_catlike_selects(s, h)
}

#[inline(always)]
fn grad3_catlike_selects<S: Simd>(s: S, h: S::U) -> [S::F; 3] {
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

/// A gradient set as a table, in both precisions, indexed by the hash bits
/// the set reads.
struct Table<const N: usize, const LEN: usize> {
    f32: [[f32; N]; LEN],
    f64: [[f64; N]; LEN],
}

impl<const N: usize, const LEN: usize> Table<N, LEN> {
    /// The table of `f64`, rounded to `f32` for the `f32` lanes as
    /// [`Simd::c`] rounds the selects' constants (a sign flip commutes with
    /// rounding).
    const fn new(f64: [[f64; N]; LEN]) -> Self {
        let mut t = Table {
            f32: [[0.0; N]; LEN],
            f64,
        };
        let mut i = 0;
        while i < LEN {
            let mut k = 0;
            while k < N {
                t.f32[i][k] = t.f64[i][k] as f32;
                k += 1;
            }
            i += 1;
        }
        t
    }
}

/// Entry `i` of `t` on one lane.
#[inline(always)]
fn from_table<S: Simd, const N: usize, const LEN: usize>(
    s: S,
    t: &Table<N, LEN>,
    i: u32,
) -> [S::F; N] {
    let i = i as usize;
    let mut g = [s.zero(); N];
    for k in 0..N {
        let v = if S::E::PRECISION == 24 {
            t.f32[i][k] as f64
        } else {
            t.f64[i][k]
        };
        g[k] = s.splat(Element::from_f64(v));
    }
    g
}

/// `x`, negated if `bit` is 1 (zero becomes −0.0, as [`Simd::flip_bit`]).
const fn flip(x: f64, bit: usize) -> f64 {
    if bit & 1 == 1 { -x } else { x }
}

/// [`grad2`] by `h >> 29`: bit 2 (hash bit 31) diagonal, bit 0 (29) and
/// bit 1 (30) as there.
const GRAD2: Table<2, 8> = Table::new({
    let mut t = [[0.0; 2]; 8];
    let mut i = 0;
    while i < 8 {
        let (b29, b30) = (i & 1, (i >> 1) & 1);
        t[i] = if i >> 2 == 1 {
            let d = core::f64::consts::FRAC_1_SQRT_2;
            [flip(d, b29), flip(d, b30)]
        } else {
            [flip((1 - b29) as f64, b30), flip(b29 as f64, b30)]
        };
        i += 1;
    }
    t
});

/// [`grad3_catlike`] by `h >> 27`: the kind in bits 3–4 (hash bits 30–31),
/// the signs of x, y, z in bits 0–2 (27–29).
const GRAD3_CATLIKE: Table<3, 32> = Table::new({
    let mut t = [[0.0; 3]; 32];
    let mut i = 0;
    while i < 32 {
        let kind = i >> 3;
        let mag = if kind == 3 {
            0.577_350_269_189_625_7
        } else {
            core::f64::consts::FRAC_1_SQRT_2
        };
        let mut a = 0;
        while a < 3 {
            t[i][a] = flip(if kind == a { 0.0 } else { mag }, i >> a);
            a += 1;
        }
        i += 1;
    }
    t
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::scalar::Scalar;

    /// Every entry, in both precisions, against the selects, bit for bit
    /// (signed zeros included), with the bits the sets do not read set at
    /// random.
    #[test]
    fn one_lane_tables_are_the_selects() {
        fn check<E: Element>(s: Scalar<E>) {
            let mut x = 0x9e37_79b9u32;
            for i in 0..32u32 {
                for _ in 0..8 {
                    x = x.wrapping_mul(0x2c1b_3c6d).wrapping_add(0x297a_2d39);
                    let h2 = (i << 29) | (x >> 3);
                    let h3 = (i << 27) | (x >> 5);
                    let bits = |g: &[E]| g.iter().map(|v| format!("{v:?}")).collect::<Vec<_>>();
                    if i < 8 {
                        assert_eq!(bits(&grad2(s, h2)), bits(&grad2_selects(s, h2)), "{h2:#x}");
                    }
                    assert_eq!(
                        bits(&grad3_catlike(s, h3)),
                        bits(&grad3_catlike_selects(s, h3)),
                        "{h3:#x}"
                    );
                }
            }
        }
        check(Scalar::<f32>::new());
        check(Scalar::<f64>::new());
    }
}
