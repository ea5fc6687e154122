//! Simplex noise and simplex value noise, 1D–4D.
//!
//! Each corner of the simplex containing the point contributes a *surflet*: a
//! radial falloff `(r² − |d|²)³` times either a gradient ramp `g · d` (simplex
//! noise) or a lattice value (simplex value noise), where `d` is the offset
//! from the corner. With `r² = 1/2` (`1` in 1D) the falloff reaches zero
//! exactly at the opposite face of every simplex — the vertex-to-facet height
//! is `√(1/2)` in 2D, 3D and 4D — so the noise is continuous with continuous
//! first and second derivatives everywhere. (Gustavson's Java uses 0.6 in 3D
//! and 4D, which leaks across faces and leaves seams.)
//!
//! Lattices:
//! * 1D: the integer lattice.
//! * 2D: the classic skewed equilateral lattice (skew `(√3 − 1)/2`). Periodic
//!   2D noise uses the hexagonal lattice of psrdnoise instead (see
//!   [`simplex2_hex`]), because no equilateral lattice has both axis vectors
//!   as lattice vectors.
//! * 3D: the body-centred cubic lattice aligned with the axes, as in
//!   psrdnoise. Its tetrahedra are congruent to the classic skewed ones (a
//!   180° turn about the main diagonal), but here every axis vector is a
//!   lattice vector, so any integer period is a plain wrap of the hash, and
//!   every short edge points along a cube diagonal — a direction in Catlike's
//!   gradient set, so the full range is reached.
//! * 4D: the classic skewed lattice (skew `(√5 − 1)/4`), Gustavson's rank
//!   ordering.

use super::{
    LaneParams, MARGIN, PRIMES, dot, lattice_value, lowbias32, poison, skew_split, split,
    split_periodic,
};
use crate::simd::Simd;

/// Simplex noise scale per dimension: the reciprocal of the exact maximum of
/// `Σ |d| (r² − |d|²)³` over the simplex, reached at the midpoint of a short
/// edge (2D: at the centre of a triangle). 1D 64/27; 2D 2916√2/125; 3D
/// 8192√3/375; 4D 500√5/27. See `docs/RANGES.md`.
pub(crate) const SIMPLEX_SCALE: [f64; 4] = [
    64.0 / 27.0,
    32.99077398303956,
    37.837227241611316,
    41.4086662499961,
];

/// Simplex value noise scale: the falloff peaks at a lattice point, where it
/// is `1` (1D) or `(1/2)³ = 1/8`, and no other corner reaches that point.
pub(crate) const SIMPLEX_VALUE_SCALE: [f64; 4] = [1.0, 8.0, 8.0, 8.0];

/// Accumulated value and gradient.
pub(crate) type Acc<S, const D: usize> = (<S as Simd>::F, [<S as Simd>::F; D]);

/// Adds the surflet of one corner with finished hash `h` at offset `d`.
#[inline(always)]
fn surflet<S: Simd, const D: usize, const VALUE: bool>(
    s: S,
    h: S::U,
    d: [S::F; D],
    r2: f64,
    acc: &mut Acc<S, D>,
) {
    surflet_data::<S, D, VALUE>(s, corner_data::<S, D, VALUE>(s, h), d, r2, acc);
}

/// What a corner with finished hash `h` contributes besides its offset:
/// its gradient, or (`VALUE`) its lattice value in entry 0.
#[inline(always)]
fn corner_data<S: Simd, const D: usize, const VALUE: bool>(s: S, h: S::U) -> [S::F; D] {
    if VALUE {
        let mut v = [s.zero(); D];
        v[0] = lattice_value(s, h);
        v
    } else {
        gradient::<S, D>(s, h)
    }
}

/// Adds the surflet of one corner with [`corner_data`] `data` at offset `d`.
#[inline(always)]
fn surflet_data<S: Simd, const D: usize, const VALUE: bool>(
    s: S,
    data: [S::F; D],
    d: [S::F; D],
    r2: f64,
    acc: &mut Acc<S, D>,
) {
    // max(t, 0) in one instruction; a NaN t gives 0 here, and the final
    // `poison` still turns the result into NaN.
    let t = s.max(s.sub(s.c(r2), dot(s, &d, &d)), s.zero());
    let t2 = s.mul(t, t);
    let t3 = s.mul(t2, t);
    let minus6t2 = s.mul(t2, s.c(-6.0));
    if VALUE {
        let v = data[0];
        acc.0 = s.add(acc.0, s.mul(v, t3));
        let k = s.mul(v, minus6t2);
        for a in 0..D {
            acc.1[a] = s.add(acc.1[a], s.mul(k, d[a]));
        }
    } else {
        let g = data;
        let gd = dot(s, &g, &d);
        acc.0 = s.add(acc.0, s.mul(t3, gd));
        let k = s.mul(gd, minus6t2);
        for a in 0..D {
            acc.1[a] = s.add(acc.1[a], s.add(s.mul(t3, g[a]), s.mul(k, d[a])));
        }
    }
}

#[inline(always)]
fn gradient<S: Simd, const D: usize>(s: S, h: S::U) -> [S::F; D] {
    let z = s.zero();
    match D {
        1 => super::resize(&super::grad1(s, h), z),
        2 => super::resize(&super::grad2(s, h), z),
        3 => super::resize(&super::grad3_catlike(s, h), z),
        _ => super::resize(&super::grad4_simplex(s, h), z),
    }
}

/// Scales the sum and adds NaN for non-finite inputs.
#[inline(always)]
fn finish_sum<S: Simd, const D: usize, const VALUE: bool>(
    s: S,
    acc: Acc<S, D>,
    p: &[S::F; D],
    chain: [f64; D],
) -> Acc<S, D> {
    let k = MARGIN
        * if VALUE {
            SIMPLEX_VALUE_SCALE[D - 1]
        } else {
            SIMPLEX_SCALE[D - 1]
        };
    let nan = poison(s, p);
    let scale = s.c(k);
    let mut g = acc.1;
    for a in 0..D {
        g[a] = s.add(s.mul(g[a], s.c(k * chain[a])), nan);
    }
    (s.add(s.mul(acc.0, scale), nan), g)
}

#[inline(always)]
pub(crate) fn zero_acc<S: Simd, const D: usize>(s: S) -> Acc<S, D> {
    (s.zero(), [s.zero(); D])
}

/// The cell and fraction of coordinate `a`, reduced by the period if
/// `PERIODIC`.
#[inline(always)]
fn split_axis<S: Simd, const PERIODIC: bool>(
    s: S,
    field: &LaneParams<S>,
    x: S::F,
    a: usize,
) -> (S::F, S::F) {
    if PERIODIC {
        split_periodic(s, x, field.period.f[a], field.period.inv[a])
    } else {
        split(s, x)
    }
}

/// The primed coordinate of the next cell along axis `a`: `c + 1`, wrapping
/// to 0 at the period.
#[inline(always)]
fn next_primed<S: Simd, const PERIODIC: bool>(
    s: S,
    field: &LaneParams<S>,
    c: S::U,
    primed: S::U,
    a: usize,
) -> S::U {
    let prime = s.u_splat(PRIMES[a]);
    if PERIODIC {
        let next = s.u_add(c, s.u_splat(1));
        let at_end = s.u_eq(next, field.period.cells[a]);
        s.u_mul(s.u_blend(at_end, s.u_splat(0), next), prime)
    } else {
        s.u_add(primed, prime)
    }
}

/// 1D: the two ends of the unit interval, falloff `(1 − d²)³`.
#[inline(always)]
pub(crate) fn simplex1<S: Simd, const VALUE: bool, const PERIODIC: bool>(
    s: S,
    field: &LaneParams<S>,
    p: [S::F; 1],
) -> Acc<S, 1> {
    let (fl, f) = split_axis::<S, PERIODIC>(s, field, p[0], 0);
    let c = s.cell(fl);
    let h0 = s.u_mul(c, s.u_splat(PRIMES[0]));
    let h1 = next_primed::<S, PERIODIC>(s, field, c, h0, 0);
    let mut acc = zero_acc::<S, 1>(s);
    surflet::<S, 1, VALUE>(s, lowbias32(s, s.u_xor(field.key, h0)), [f], 1.0, &mut acc);
    let f1 = s.sub(f, s.c(1.0));
    surflet::<S, 1, VALUE>(s, lowbias32(s, s.u_xor(field.key, h1)), [f1], 1.0, &mut acc);
    finish_sum::<S, 1, VALUE>(s, acc, &p, [1.0])
}

pub(crate) const F2: f64 = 0.366_025_403_784_438_65; // (√3 − 1) / 2
pub(crate) const G2: f64 = 0.211_324_865_405_187_1; // (3 − √3) / 6

/// Where a 2D point lies on the classic equilateral lattice (skew
/// `(√3 − 1)/2`): the skewed cell `(i, j)` of its triangle's corner 0
/// (reduced modulo 2^32, not yet primed), the offsets from the three corners
/// `(i, j)`, the step, `(i + 1, j + 1)`, and which step corner 1 takes.
struct Loc2<S: Simd> {
    i: S::U,
    j: S::U,
    d: [[S::F; 2]; 3],
    /// The lower triangle, corner 1 at `(i + 1, j)`; else `(i, j + 1)`.
    x_first: S::M,
}

#[inline(always)]
fn locate2<S: Simd>(s: S, p: [S::F; 2]) -> Loc2<S> {
    // Skew on exact (cell, fraction) pairs: xs = x + (x + y)·F2 with the
    // integer parts of the skew split off exactly (see `mul_split`).
    let (xi, xf) = split(s, p[0]);
    let (yi, yf) = split(s, p[1]);
    let mut ints = [xi, yi];
    let (si, sf) = skew_split(s, &mut ints, F2);
    let [xi, yi] = ints;
    let small = s.add(sf, s.mul(s.add(xf, yf), s.c(F2)));
    let (rx, ry) = (s.add(xf, small), s.add(yf, small));
    let (ix, fx) = split(s, rx);
    let (iy, fy) = split(s, ry);
    let i = s.add(s.add(xi, si), ix);
    let j = s.add(s.add(yi, si), iy);
    // Offsets are formed from the in-cell fractions, which are exact, so the
    // corners stay mutually consistent however large the input.
    let t = s.mul(s.add(fx, fy), s.c(G2));
    let (x0, y0) = (s.sub(fx, t), s.sub(fy, t));
    let x_first = s.gt(fx, fy);
    let one = s.c(1.0);
    let g2 = s.c(G2);
    let x1 = s.add(s.sub(x0, s.keep(x_first, one)), g2);
    let y1 = s.add(s.sub(y0, s.keep_not(x_first, one)), g2);
    let g22 = s.c(2.0 * G2 - 1.0);
    let (x2, y2) = (s.add(x0, g22), s.add(y0, g22));
    Loc2 {
        i: s.cell(i),
        j: s.cell(j),
        d: [[x0, y0], [x1, y1], [x2, y2]],
        x_first,
    }
}

/// The triangle of the classic equilateral lattice that holds a 2D point:
/// its three corners' finished hashes and offsets, and what
/// OpenSimplex2S needs to find the corners beyond its edges.
pub(crate) struct Tri2<S: Simd> {
    pub(crate) h: [S::U; 3],
    pub(crate) d: [[S::F; 2]; 3],
    /// The primed skewed cell of corner 0.
    pub(crate) ci: S::U,
    pub(crate) cj: S::U,
    /// The lower triangle, `(0,0), (1,0), (1,1)`; else the upper one.
    pub(crate) x_first: S::M,
}

/// Locates `p` on the classic equilateral lattice and hashes its corners.
#[inline(always)]
pub(crate) fn tri2<S: Simd>(s: S, field: &LaneParams<S>, p: [S::F; 2]) -> Tri2<S> {
    let loc = locate2(s, p);
    let (h, ci, cj) = hash_corners2(s, field, &loc);
    Tri2 {
        h,
        d: loc.d,
        ci,
        cj,
        x_first: loc.x_first,
    }
}

/// The finished hashes of a triangle's three corners, and the primed cell
/// of corner 0.
#[inline(always)]
fn hash_corners2<S: Simd>(s: S, field: &LaneParams<S>, loc: &Loc2<S>) -> ([S::U; 3], S::U, S::U) {
    let (px, py) = (s.u_splat(PRIMES[0]), s.u_splat(PRIMES[1]));
    let ci = s.u_mul(loc.i, px);
    let cj = s.u_mul(loc.j, py);
    let step = s.m_to_u(loc.x_first);
    let h0 = s.u_xor(field.key, s.u_xor(ci, cj));
    let h1 = s.u_xor(
        field.key,
        s.u_xor(
            s.u_add(ci, s.u_and(step, px)),
            s.u_add(cj, s.u_and(s.u_xor(step, s.u_splat(u32::MAX)), py)),
        ),
    );
    let h2 = s.u_xor(field.key, s.u_xor(s.u_add(ci, px), s.u_add(cj, py)));
    (
        [lowbias32(s, h0), lowbias32(s, h1), lowbias32(s, h2)],
        ci,
        cj,
    )
}

/// The width of [`simplex2`]'s corner table: `TABLE_W` cells along x by
/// `LANES / TABLE_W` along y, entry `a + TABLE_W·b` holding the cell
/// `(i₀ + a, j₀ + b)`. Used on 8 and 16 lanes; narrower vectors hash.
const TABLE_W: u32 = 4;

/// `x > limit` per lane, comparing as unsigned integers (so a lane left of
/// or below lane 0, whose difference wrapped, is also over).
#[inline(always)]
fn u_over<S: Simd>(s: S, x: S::U, limit: u32) -> S::U {
    let bias = s.u_splat(0x8000_0000);
    s.u_gt_signed(s.u_xor(x, bias), s.u_splat(limit ^ 0x8000_0000))
}

/// 2D on the classic equilateral lattice.
///
/// The lanes of a grid row, or of any points close together, mostly lie in
/// a few neighbouring cells. Where every lane's triangle has its corners
/// within the `TABLE_W × LANES/TABLE_W` cells from lane 0's cell,
/// those cells are hashed and decoded once, as one vector, and each lane
/// takes its corners from it by register permutes: one hashing and decoding
/// for the vector in place of three. The table holds exactly the hashes
/// the corners would have had, so the bits are the same either way.
#[inline(always)]
pub(crate) fn simplex2<S: Simd, const VALUE: bool>(
    s: S,
    field: &LaneParams<S>,
    p: [S::F; 2],
) -> Acc<S, 2> {
    let loc = locate2(s, p);
    let mut acc = zero_acc::<S, 2>(s);
    if S::LANES >= 8 {
        let w = TABLE_W;
        let rows = S::LANES as u32 / w;
        let (i0, j0) = (s.u_broadcast_first(loc.i), s.u_broadcast_first(loc.j));
        let (di, dj) = (s.u_sub(loc.i, i0), s.u_sub(loc.j, j0));
        let outside = s.u_or(u_over(s, di, w - 2), u_over(s, dj, rows - 2));
        if !s.any(s.u_to_m(outside)) {
            let iota = s.u_iota();
            let a = s.u_and(iota, s.u_splat(w - 1));
            let b = s.u_shr::<{ TABLE_W.trailing_zeros() as i32 }>(iota);
            let (px, py) = (s.u_splat(PRIMES[0]), s.u_splat(PRIMES[1]));
            let ci = s.u_add(s.u_mul(i0, px), s.u_mul(a, px));
            let cj = s.u_add(s.u_mul(j0, py), s.u_mul(b, py));
            let table =
                corner_data::<S, 2, VALUE>(s, lowbias32(s, s.u_xor(field.key, s.u_xor(ci, cj))));
            let idx0 = s.u_add(di, s.u_shl::<{ TABLE_W.trailing_zeros() as i32 }>(dj));
            let step1 = s.u_blend(s.m_to_u(loc.x_first), s.u_splat(1), s.u_splat(w));
            let idx = [idx0, s.u_add(idx0, step1), s.u_add(idx0, s.u_splat(w + 1))];
            for k in 0..3 {
                let second = if VALUE {
                    s.zero()
                } else {
                    s.lookup(table[1], idx[k])
                };
                let data = [s.lookup(table[0], idx[k]), second];
                surflet_data::<S, 2, VALUE>(s, data, loc.d[k], 0.5, &mut acc);
            }
            return finish_sum::<S, 2, VALUE>(s, acc, &p, [1.0, 1.0]);
        }
    }
    let (h, _, _) = hash_corners2(s, field, &loc);
    for k in 0..3 {
        surflet::<S, 2, VALUE>(s, h[k], loc.d[k], 0.5, &mut acc);
    }
    finish_sum::<S, 2, VALUE>(s, acc, &p, [1.0, 1.0])
}

/// √(2/3): the edge length of the classic 2D lattice, used as the horizontal
/// edge of the hexagonal lattice.
pub(crate) const HEX_SX: f64 = 0.816_496_580_927_726;
/// √(1/2) = √(2/3)·√3/2: the row height of that equilateral lattice.
pub(crate) const HEX_SY: f64 = core::f64::consts::FRAC_1_SQRT_2;

/// The finished hash of hexagonal-lattice vertex `(ci + ou, cj + ov)`,
/// wrapped to its representative in the tile: rows wrap by the (even) y
/// period, shifting u by half of it; then 2X = 2u − v wraps by twice the x
/// period.
#[inline(always)]
fn hex_vertex<S: Simd>(
    s: S,
    field: &LaneParams<S>,
    ci: S::U,
    cj: S::U,
    ou: S::U,
    ov: S::U,
) -> S::U {
    let one = s.u_splat(1);
    let mut u = s.u_add(ci, ou);
    let mut v = s.u_add(cj, ov);
    let row_wraps = s.u_eq(v, field.period.cells[1]);
    v = s.u_blend(row_wraps, s.u_splat(0), v);
    u = s.u_blend(row_wraps, s.u_sub(u, field.period.half[1]), u);
    let mut x2 = s.u_sub(s.u_add(u, u), v);
    let neg = s.u_gt_signed(s.u_splat(0), x2);
    x2 = s.u_blend(neg, s.u_add(x2, field.period.double[0]), x2);
    let high = s.u_gt_signed(x2, s.u_sub(field.period.double[0], one));
    x2 = s.u_blend(high, s.u_sub(x2, field.period.double[0]), x2);
    let u = s.u_shr::<1>(s.u_add(x2, v));
    let h = s.u_xor(
        s.u_mul(u, s.u_splat(PRIMES[0])),
        s.u_mul(v, s.u_splat(PRIMES[1])),
    );
    lowbias32(s, s.u_xor(field.key, h))
}

/// 2D periodic, on psrdnoise's hexagonal lattice.
///
/// Lattice points sit at `(u − v/2, v)` for integers `u, v`: rows one unit
/// apart, each shifted by half a cell. Every vector `(P, 0)` and `(0, 2Q)` is
/// a lattice vector, so the noise tiles with any integer x period and any even
/// y period. The surflets are evaluated in the equilateral frame obtained by
/// scaling x by √(2/3) and y by √(1/2): the triangles become exactly those of
/// [`simplex2`], so the falloff radius, gradient set and normalisation carry
/// over unchanged. The price is an anisotropy of √3/2 between the axes
/// (features are 13% taller than wide), the same one psrdnoise has.
#[inline(always)]
pub(crate) fn simplex2_hex<S: Simd, const VALUE: bool>(
    s: S,
    field: &LaneParams<S>,
    p: [S::F; 2],
) -> Acc<S, 2> {
    let (xi, xf) = split_periodic(s, p[0], field.period.f[0], field.period.inv[0]);
    let (j, fb) = split_periodic(s, p[1], field.period.f[1], field.period.inv[1]);
    let half = s.c(0.5);
    // a = x + y/2 on (cell, fraction) pairs; y/2 of an integer row is an
    // integer or a half.
    let (hi, hf) = split(s, s.mul(j, half));
    let ar = s.add(s.add(xf, hf), s.mul(fb, half));
    let (ai, fa) = split(s, ar);
    let i = s.add(s.add(xi, hi), ai);
    let right_first = s.gt(fa, fb);
    // Real-space offsets from the three vertices.
    let dx0 = s.sub(fa, s.mul(fb, half));
    let dy0 = fb;
    let one = s.c(1.0);
    let dx1 = s.sub(dx0, s.select(right_first, one, s.c(-0.5)));
    let dy1 = s.sub(dy0, s.select(right_first, s.zero(), one));
    let dx2 = s.sub(dx0, half);
    let dy2 = s.sub(dy0, one);
    let (kx, ky) = (s.c(HEX_SX), s.c(HEX_SY));

    let (ci, cj) = (s.cell(i), s.cell(j));
    let u1 = s.u_splat(1);
    let step_u = s.u_and(s.m_to_u(right_first), u1);
    let step_v = s.u_xor(step_u, u1);
    let z = s.u_splat(0);
    let mut acc = zero_acc::<S, 2>(s);
    let h0 = hex_vertex(s, field, ci, cj, z, z);
    let q0 = [s.mul(dx0, kx), s.mul(dy0, ky)];
    surflet::<S, 2, VALUE>(s, h0, q0, 0.5, &mut acc);
    let h1 = hex_vertex(s, field, ci, cj, step_u, step_v);
    let q1 = [s.mul(dx1, kx), s.mul(dy1, ky)];
    surflet::<S, 2, VALUE>(s, h1, q1, 0.5, &mut acc);
    let h2 = hex_vertex(s, field, ci, cj, u1, u1);
    let q2 = [s.mul(dx2, kx), s.mul(dy2, ky)];
    surflet::<S, 2, VALUE>(s, h2, q2, 0.5, &mut acc);
    finish_sum::<S, 2, VALUE>(s, acc, &p, [HEX_SX, HEX_SY])
}

/// The finished hash of the corner that steps along the axes where `o` holds,
/// from the primed base cell.
#[inline(always)]
fn bcc_step_hash<S: Simd>(
    s: S,
    key: S::U,
    base: &[S::U; 3],
    prime: &[S::U; 3],
    o: &[S::M; 3],
) -> S::U {
    let mut h = key;
    for a in 0..3 {
        h = s.u_xor(h, s.u_add(base[a], s.u_and(s.m_to_u(o[a]), prime[a])));
    }
    lowbias32(s, h)
}

/// The sum of two coordinates as an exact (cell, fraction) pair.
#[inline(always)]
pub(crate) fn pair_sum<S: Simd>(s: S, a: (S::F, S::F), b: (S::F, S::F)) -> (S::F, S::F) {
    let (ci, cf) = split(s, s.add(a.1, b.1));
    (s.add(s.add(a.0, b.0), ci), cf)
}

/// The finished hash of the BCC corner at uvw cell `cells + o`, wrapped into
/// the tile.
#[inline(always)]
fn bcc_hash_periodic<S: Simd>(
    s: S,
    field: &LaneParams<S>,
    cells: &[S::U; 3],
    o: [S::U; 3],
) -> S::U {
    let n = wrap_bcc(
        s,
        field,
        [
            s.u_add(cells[0], o[0]),
            s.u_add(cells[1], o[1]),
            s.u_add(cells[2], o[2]),
        ],
    );
    let mut h = field.key;
    for a in 0..3 {
        h = s.u_xor(h, s.u_mul(n[a], s.u_splat(PRIMES[a])));
    }
    lowbias32(s, h)
}

/// The tetrahedron of the axis-aligned body-centred cubic lattice that holds
/// a point given as exact (cell, fraction) pairs per axis: its uvw base cell,
/// the offsets of its four corners, and the steps to corners 1 and 2.
pub(crate) struct BccTetra<S: Simd> {
    pub(crate) cells: [S::U; 3],
    pub(crate) d: [[S::F; 3]; 4],
    pub(crate) o1: [S::M; 3],
    pub(crate) o2: [S::M; 3],
}

/// Locates a point on the BCC lattice.
///
/// `uvw = (y + z, x + z, x + y)` maps the lattice to the integers; the point's
/// tetrahedron is found by ranking the fractional parts of `uvw`, and offsets
/// map back with the inverse `½[[-1,1,1],[1,-1,1],[1,1,-1]]`.
#[inline(always)]
pub(crate) fn bcc_tetra<S: Simd>(
    s: S,
    px: (S::F, S::F),
    py: (S::F, S::F),
    pz: (S::F, S::F),
) -> BccTetra<S> {
    // uvw = (y + z, x + z, x + y), summed as exact (cell, fraction) pairs.
    let (ui, fu) = pair_sum(s, py, pz);
    let (vi, fv) = pair_sum(s, px, pz);
    let (wi, fw) = pair_sum(s, px, py);
    // Back to space with Mi = ½J − I (J all ones): Mi·f = ½(fu+fv+fw) − f.
    let half = s.c(0.5);
    let mid = s.mul(s.add(s.add(fu, fv), fw), half);
    let d0 = [s.sub(mid, fu), s.sub(mid, fv), s.sub(mid, fw)];

    // Rank the fractions (a tie goes to the earlier of u, v, w: the tests
    // are `>=`): the first step goes along the largest, the second along the
    // two largest.
    let uv = s.ge(fu, fv);
    let uw = s.ge(fu, fw);
    let vw = s.ge(fv, fw);
    let t = s.splat_true();
    let (nuv, nuw, nvw) = (s.m_andnot(t, uv), s.m_andnot(t, uw), s.m_andnot(t, vw));
    let o1 = [s.m_and(uv, uw), s.m_and(nuv, vw), s.m_and(nuw, nvw)];
    let o2 = [s.m_or(uv, uw), s.m_or(nuv, vw), s.m_or(nuw, nvw)];
    // A one-step corner o has Mi·o = ½ − o, a two-step one 1 − o, the far
    // corner ½: so d1 = (d0 − ½) + o1, d2 = (d0 − 1) + o2, d3 = d0 − ½.
    let one = s.c(1.0);
    let mut d1 = [s.zero(); 3];
    let mut d2 = [s.zero(); 3];
    let mut d3 = [s.zero(); 3];
    for a in 0..3 {
        d3[a] = s.sub(d0[a], half);
        d1[a] = s.add(d3[a], s.keep(o1[a], one));
        d2[a] = s.add(s.sub(d0[a], one), s.keep(o2[a], one));
    }
    BccTetra {
        cells: [s.cell(ui), s.cell(vi), s.cell(wi)],
        d: [d0, d1, d2, d3],
        o1,
        o2,
    }
}

/// The finished hashes of the four corners of a tetrahedron, without a
/// period.
#[inline(always)]
pub(crate) fn bcc_hashes<S: Simd>(s: S, key: S::U, t: &BccTetra<S>) -> [S::U; 4] {
    // Prime each cell coordinate once; a corner adds the prime where it
    // steps (cheaper than multiplying per corner).
    let mut base = [s.u_splat(0); 3];
    let mut prime = [s.u_splat(0); 3];
    for a in 0..3 {
        prime[a] = s.u_splat(PRIMES[a]);
        base[a] = s.u_mul(t.cells[a], prime[a]);
    }
    let h0 = s.u_xor(key, s.u_xor(s.u_xor(base[0], base[1]), base[2]));
    let h1 = bcc_step_hash(s, key, &base, &prime, &t.o1);
    let h2 = bcc_step_hash(s, key, &base, &prime, &t.o2);
    let mut h3 = key;
    for a in 0..3 {
        h3 = s.u_xor(h3, s.u_add(base[a], prime[a]));
    }
    [lowbias32(s, h0), h1, h2, lowbias32(s, h3)]
}

/// 3D on the axis-aligned body-centred cubic lattice ([`bcc_tetra`]).
#[inline(always)]
pub(crate) fn simplex3<S: Simd, const VALUE: bool, const PERIODIC: bool>(
    s: S,
    field: &LaneParams<S>,
    p: [S::F; 3],
) -> Acc<S, 3> {
    let px = split_axis::<S, PERIODIC>(s, field, p[0], 0);
    let py = split_axis::<S, PERIODIC>(s, field, p[1], 1);
    let pz = split_axis::<S, PERIODIC>(s, field, p[2], 2);
    let tet = bcc_tetra(s, px, py, pz);
    let mut acc = zero_acc::<S, 3>(s);
    let h = if PERIODIC {
        // Wrapping needs the lattice coordinates themselves.
        let ones = s.u_splat(1);
        let zu = s.u_splat(0);
        let mut o1u = [zu; 3];
        let mut o2u = [zu; 3];
        for a in 0..3 {
            o1u[a] = s.u_and(s.m_to_u(tet.o1[a]), ones);
            o2u[a] = s.u_and(s.m_to_u(tet.o2[a]), ones);
        }
        [
            bcc_hash_periodic(s, field, &tet.cells, [zu, zu, zu]),
            bcc_hash_periodic(s, field, &tet.cells, o1u),
            bcc_hash_periodic(s, field, &tet.cells, o2u),
            bcc_hash_periodic(s, field, &tet.cells, [ones, ones, ones]),
        ]
    } else {
        bcc_hashes(s, field.key, &tet)
    };
    for k in 0..4 {
        surflet::<S, 3, VALUE>(s, h[k], tet.d[k], 0.5, &mut acc);
    }
    finish_sum::<S, 3, VALUE>(s, acc, &p, [1.0; 3])
}

/// Wraps a BCC vertex given in uvw coordinates to its representative in the
/// tile `[0, P)³` and returns it in uvw coordinates again. In space the
/// vertex is `Mi·n`; twice that, `(−u+v+w, u−v+w, u+v−w)`, is integer, and
/// wraps by twice the period. Vertices of a point already in the tile are at
/// most one unit outside it, so one conditional step per axis suffices.
#[inline(always)]
fn wrap_bcc<S: Simd>(s: S, field: &LaneParams<S>, n: [S::U; 3]) -> [S::U; 3] {
    let [u, v, w] = n;
    let mut x2 = [
        s.u_sub(s.u_add(v, w), u),
        s.u_sub(s.u_add(u, w), v),
        s.u_sub(s.u_add(u, v), w),
    ];
    let zero = s.u_splat(0);
    let one = s.u_splat(1);
    for a in 0..3 {
        let p2 = field.period.double[a];
        let neg = s.u_gt_signed(zero, x2[a]);
        x2[a] = s.u_blend(neg, s.u_add(x2[a], p2), x2[a]);
        let high = s.u_gt_signed(x2[a], s.u_sub(p2, one));
        x2[a] = s.u_blend(high, s.u_sub(x2[a], p2), x2[a]);
    }
    // n = M·(x2/2) with M = [[0,1,1],[1,0,1],[1,1,0]]; the sums are even.
    [
        s.u_shr::<1>(s.u_add(x2[1], x2[2])),
        s.u_shr::<1>(s.u_add(x2[0], x2[2])),
        s.u_shr::<1>(s.u_add(x2[0], x2[1])),
    ]
}

pub(crate) const F4: f64 = 0.309_016_994_374_947_45; // (√5 − 1) / 4
pub(crate) const G4: f64 = 0.138_196_601_125_010_5; // (5 − √5) / 20

/// One corner of the 4D simplex: steps `o` (all-ones integer masks) from the
/// base cell, `k` unit steps in all.
#[inline(always)]
fn corner4<S: Simd>(
    s: S,
    field: &LaneParams<S>,
    base: &[S::U; 4],
    d0: &[S::F; 4],
    o: [S::U; 4],
    k: f64,
) -> (S::U, [S::F; 4]) {
    let one = s.c(1.0);
    let kg = s.c(k * G4);
    let mut h = field.key;
    let mut d = *d0;
    for a in 0..4 {
        let prime = s.u_splat(PRIMES[a]);
        h = s.u_xor(h, s.u_add(base[a], s.u_and(o[a], prime)));
        let off = s.keep(s.u_to_m(o[a]), one);
        d[a] = s.add(s.sub(d0[a], off), kg);
    }
    (lowbias32(s, h), d)
}

/// The skewed hypercube cell of a 4D point: its primed base cell, the
/// offset from the base corner, and the rank of each axis's fraction
/// (0 smallest .. 3 largest).
pub(crate) struct Simp4<S: Simd> {
    pub(crate) base: [S::U; 4],
    pub(crate) d0: [S::F; 4],
    pub(crate) rank: [S::U; 4],
}

/// Locates `p` on the classic skewed 4D lattice.
#[inline(always)]
pub(crate) fn simplex4_lattice<S: Simd>(s: S, p: [S::F; 4]) -> Simp4<S> {
    let mut int = [s.zero(); 4];
    let mut fr = [s.zero(); 4];
    for a in 0..4 {
        (int[a], fr[a]) = split(s, p[a]);
    }
    let g = s.add(s.add(fr[0], fr[1]), s.add(fr[2], fr[3]));
    let (si, sf) = skew_split(s, &mut int, F4);
    let small = s.add(sf, s.mul(g, s.c(F4)));
    let mut fl = [s.zero(); 4];
    let mut f = [s.zero(); 4];
    for a in 0..4 {
        let (ri, rf) = split(s, s.add(fr[a], small));
        fl[a] = s.add(s.add(int[a], si), ri);
        f[a] = rf;
    }
    let t = s.mul(s.add(s.add(f[0], f[1]), s.add(f[2], f[3])), s.c(G4));
    let mut d0 = [s.zero(); 4];
    for a in 0..4 {
        d0[a] = s.sub(f[a], t);
    }

    // Ranks 0..=3 of the fractions: for each pair a < b the larger gets a
    // point, and a tie goes to the higher axis b (axis a wins only with
    // f[a] > f[b] strictly), giving a permutation. On a tie the point lies
    // on the face the two candidate simplices share, so either choice gives
    // the same value there.
    let ones = s.u_splat(1);
    let zu = s.u_splat(0);
    let mut rank = [zu; 4];
    for a in 0..4 {
        for b in (a + 1)..4 {
            let a_wins = s.u_and(s.m_to_u(s.gt(f[a], f[b])), ones);
            rank[a] = s.u_add(rank[a], a_wins);
            rank[b] = s.u_add(rank[b], s.u_xor(a_wins, ones));
        }
    }
    let mut base = [zu; 4];
    for a in 0..4 {
        base[a] = s.u_mul(s.cell(fl[a]), s.u_splat(PRIMES[a]));
    }
    Simp4 { base, d0, rank }
}

/// The five corners of the simplex that holds the point: finished hashes
/// and offsets.
#[inline(always)]
pub(crate) fn simplex4_corners<S: Simd>(
    s: S,
    field: &LaneParams<S>,
    lat: &Simp4<S>,
) -> [(S::U, [S::F; 4]); 5] {
    let zu = s.u_splat(0);
    let mut h0 = field.key;
    for b in lat.base {
        h0 = s.u_xor(h0, b);
    }
    let mut out = [(zu, lat.d0); 5];
    out[0].0 = lowbias32(s, h0);
    // Corner k (1..=3) steps along the axes of rank >= 4 − k.
    for k in 1..=3u32 {
        let mut o = [zu; 4];
        for a in 0..4 {
            o[a] = s.u_gt_signed(lat.rank[a], s.u_splat(3 - k));
        }
        out[k as usize] = corner4(s, field, &lat.base, &lat.d0, o, k as f64);
    }
    let all = s.u_splat(u32::MAX);
    out[4] = corner4(s, field, &lat.base, &lat.d0, [all; 4], 4.0);
    out
}

/// 4D on the classic skewed lattice with rank ordering.
#[inline(always)]
pub(crate) fn simplex4<S: Simd, const VALUE: bool>(
    s: S,
    field: &LaneParams<S>,
    p: [S::F; 4],
) -> Acc<S, 4> {
    let lat = simplex4_lattice(s, p);
    let mut acc = zero_acc::<S, 4>(s);
    for (h, d) in simplex4_corners(s, field, &lat) {
        surflet::<S, 4, VALUE>(s, h, d, 0.5, &mut acc);
    }
    finish_sum::<S, 4, VALUE>(s, acc, &p, [1.0; 4])
}

#[cfg(test)]
mod tests {
    //! The geometry that makes radius² ½ seam-free: in every lattice used
    //! here, each vertex of a simplex is exactly √½ from the opposite facet,
    //! so a surflet vanishes (with two derivatives) on that facet.
    use super::*;

    /// Squared distance from `p` to the affine hull of `others`.
    fn dist2_to_hull(p: &[f64], others: &[Vec<f64>]) -> f64 {
        let o = &others[0];
        let mut basis: Vec<Vec<f64>> = Vec::new();
        for q in &others[1..] {
            let mut v: Vec<f64> = q.iter().zip(o).map(|(a, b)| a - b).collect();
            for b in &basis {
                let d: f64 = v.iter().zip(b).map(|(x, y)| x * y).sum();
                v.iter_mut().zip(b).for_each(|(x, y)| *x -= d * y);
            }
            let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
            basis.push(v.into_iter().map(|x| x / n).collect());
        }
        let mut r: Vec<f64> = p.iter().zip(o).map(|(a, b)| a - b).collect();
        for b in &basis {
            let d: f64 = r.iter().zip(b).map(|(x, y)| x * y).sum();
            r.iter_mut().zip(b).for_each(|(x, y)| *x -= d * y);
        }
        r.iter().map(|x| x * x).sum()
    }

    fn heights(vertices: &[Vec<f64>]) -> Vec<f64> {
        (0..vertices.len())
            .map(|k| {
                let others: Vec<Vec<f64>> = (0..vertices.len())
                    .filter(|&j| j != k)
                    .map(|j| vertices[j].clone())
                    .collect();
                dist2_to_hull(&vertices[k], &others)
            })
            .collect()
    }

    fn unskew(steps: &[Vec<f64>], g: f64) -> Vec<Vec<f64>> {
        steps
            .iter()
            .map(|v| {
                let s: f64 = v.iter().sum();
                v.iter().map(|x| x - s * g).collect()
            })
            .collect()
    }

    fn assert_half(name: &str, h: Vec<f64>) {
        for x in h {
            assert!((x - 0.5).abs() < 1e-12, "{name}: height² {x}");
        }
    }

    #[test]
    fn every_simplex_height_is_sqrt_half() {
        let v2 = vec![vec![0.0, 0.0], vec![1.0, 0.0], vec![1.0, 1.0]];
        assert_half("2D classic", heights(&unskew(&v2, G2)));

        let hex: Vec<Vec<f64>> = [[0.0, 0.0], [1.0, 0.0], [0.5, 1.0]]
            .iter()
            .map(|p| vec![p[0] * HEX_SX, p[1] * HEX_SY])
            .collect();
        assert_half("2D hexagonal (equilateral frame)", heights(&hex));

        let mi =
            |u: f64, v: f64, w: f64| vec![(v + w - u) / 2.0, (u + w - v) / 2.0, (u + v - w) / 2.0];
        let bcc = vec![
            mi(0.0, 0.0, 0.0),
            mi(1.0, 0.0, 0.0),
            mi(1.0, 1.0, 0.0),
            mi(1.0, 1.0, 1.0),
        ];
        assert_half("3D body-centred cubic", heights(&bcc));

        let v4 = vec![
            vec![0.0; 4],
            vec![1.0, 0.0, 0.0, 0.0],
            vec![1.0, 1.0, 0.0, 0.0],
            vec![1.0, 1.0, 1.0, 0.0],
            vec![1.0; 4],
        ];
        assert_half("4D classic", heights(&unskew(&v4, G4)));
    }
}
