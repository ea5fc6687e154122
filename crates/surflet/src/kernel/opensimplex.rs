//! OpenSimplex2 and OpenSimplex2S as members of the family: K.jpg's
//! lattices, falloff and gradient sets, with surflet's seeding, exact
//! lattice arithmetic and a radius that makes every variant continuous.
//!
//! Both noises sum surflets `(r² − |d|²)⁴ (g · d)` over lattice points, like
//! K.jpg's Java ([`crate::reference::opensimplex2`]). What the family keeps
//! and what it changes:
//!
//! | | OpenSimplex2 | OpenSimplex2S |
//! |---|---|---|
//! | 2D lattice | the classic equilateral one (Java `noise2`) | the same |
//! | 3D lattice | BCC, rotated so z is the main diagonal (Java `ImproveXY`) | the same |
//! | 4D lattice | the classic skewed 4D lattice (Java: its own orientation, not kept) | the same |
//! | radius² | ½ in 2D–4D (Java: 0.5, 0.6, 0.6) | ⅔, ¾, ⅘ (as the Java) |
//! | points summed | the 3, 4 or 5 corners of the simplex | every point within the radius: 4 (2D), 8 (3D), 30 candidates (4D) |
//! | gradients | Java's 24 (2D) and 48 (3D) directions; 4D: the family's 48 | the same |
//!
//! Why the radius changes for OpenSimplex2: in 3D and 4D the Java sums a
//! fixed set of points chosen by position, and with radius² 0.6 a point can
//! still contribute where the choice changes, so the Java function jumps
//! (by ~4e-3). With radius² ½ the points within reach of any position are
//! exactly the corners of its simplex (each vertex is √½ from the opposite
//! facet, see `simplex.rs`), so the sum is a smooth function of position:
//! continuous with three continuous derivatives. OpenSimplex2S keeps the
//! Java's radii and instead sums every lattice point that can be within
//! reach, proved below per dimension and checked in the tests against a
//! brute-force sum over a wide window.
//!
//! 1D is the 2D noise along the x axis (`y = 0`), so fractals and stacks
//! work in every dimension; it is not a separate design.
//!
//! Normalisation: the sum is scaled by `1 / sup`, where `sup` is the maximum
//! over all positions of `Σ_v w(d_v) · max_g (g · d_v)`: every vertex given
//! its most favourable gradient. It is computed (not fitted) by the ignored
//! test `opensimplex::tests::print_sup`, which maximises that bound over the
//! fundamental simplex, and checked against random sampling in
//! `tests/suite/opensimplex.rs`. See `docs/RANGES.md`.

use super::simplex::{
    Acc, G2, Tri2, bcc_hashes, bcc_tetra, simplex4_corners, simplex4_lattice, tri2, zero_acc,
};
use super::{
    LaneParams, MARGIN, PRIMES, dot, grad4_simplex, lowbias32, poison, skew_split, split, three_way,
};
use crate::simd::Simd;

// ----- gradient sets -----

/// cos and sin of 7.5°, 22.5° and 37.5°: K.jpg's 2D set is the 24 directions
/// at 7.5° + k·15°, three per octant, so it has no direction on an axis or a
/// diagonal.
pub(crate) const OCTANT: [(f64, f64); 3] = [
    (0.991_444_861_373_810_4, 0.130_526_192_220_051_57),
    (0.923_879_532_511_286_7, 0.382_683_432_365_089_8),
    (0.793_353_340_291_235_2, 0.608_761_429_008_720_7),
];

/// 2D: the 24 directions, each equally likely: an octant angle by
/// `three_way`, then a swap of x and y and two signs from bits 0–2.
#[inline(always)]
pub(crate) fn grad2_os<S: Simd>(s: S, h: S::U) -> [S::F; 2] {
    let k = three_way(s, h);
    let (k0, k1) = (s.u_is(k, 0), s.u_is(k, 1));
    let c = s.select(
        k0,
        s.c(OCTANT[0].0),
        s.select(k1, s.c(OCTANT[1].0), s.c(OCTANT[2].0)),
    );
    let sn = s.select(
        k0,
        s.c(OCTANT[0].1),
        s.select(k1, s.c(OCTANT[1].1), s.c(OCTANT[2].1)),
    );
    let swap = s.bit_mask::<0>(h);
    [
        s.flip_bit::<1>(h, s.select(swap, sn, c)),
        s.flip_bit::<2>(h, s.select(swap, c, sn)),
    ]
}

/// K.jpg's 3D set, normalised: 24 vectors `(±a, ±a, ±b)` in every order
/// (`a = 1 + √1.5`, `b = 1`) and 24 vectors `(±p, ±q, 0)` in every order,
/// all of the same length. On the rotated lattice they avoid the
/// directions that make axis-aligned artefacts.
pub(crate) const A3: f64 = 0.673_887_338_679_005;
pub(crate) const B3: f64 = 0.302_905_446_527_882_7;
pub(crate) const P3: f64 = 0.934_846_922_835_048_2;
pub(crate) const Q3: f64 = 0.355_051_025_721_432_5;

/// 3D: the 48 directions, each equally likely: `three_way` picks the axis
/// that holds `b` (or 0), bit 0 the group, bit 1 the order of `p` and `q`,
/// bits 2–4 the signs.
#[inline(always)]
pub(crate) fn grad3_os<S: Simd>(s: S, h: S::U) -> [S::F; 3] {
    let axis = three_way(s, h);
    let group_b = s.bit_mask::<0>(h);
    let swap = s.bit_mask::<1>(h);
    let (a, b, p, q) = (s.c(A3), s.c(B3), s.c(P3), s.c(Q3));
    let first = s.select(swap, q, p);
    let second = s.select(swap, p, q);
    let mut g = [s.zero(); 3];
    for (i, gi) in g.iter_mut().enumerate() {
        let special = s.u_is(axis, i as u32);
        // Axis i follows the special axis when special = i − 1 (mod 3).
        let next = s.u_is(axis, ((i + 2) % 3) as u32);
        let in_a = s.select(special, b, a);
        let in_b = s.keep_not(special, s.select(next, first, second));
        *gi = s.select(group_b, in_b, in_a);
    }
    [
        s.flip_bit::<2>(h, g[0]),
        s.flip_bit::<3>(h, g[1]),
        s.flip_bit::<4>(h, g[2]),
    ]
}

// ----- surflets and normalisation -----

/// Adds `(r² − |d|²)⁴ (g · d)` and its gradient
/// `t⁴ g − 8 t³ (g · d) d` (with `t = r² − |d|²`, clamped at 0).
#[inline(always)]
fn surflet4<S: Simd, const D: usize>(
    s: S,
    g: [S::F; D],
    d: [S::F; D],
    r2: f64,
    acc: &mut Acc<S, D>,
) {
    // max(t, 0) in one instruction; a NaN t gives 0 here, and the final
    // `poison` still turns the result into NaN.
    let t = s.max(s.sub(s.c(r2), dot(s, &d, &d)), s.zero());
    let t2 = s.mul(t, t);
    let t4 = s.mul(t2, t2);
    let minus8t3 = s.mul(s.mul(t2, t), s.c(-8.0));
    let gd = dot(s, &g, &d);
    acc.0 = s.add(acc.0, s.mul(t4, gd));
    let k = s.mul(gd, minus8t3);
    for a in 0..D {
        acc.1[a] = s.add(acc.1[a], s.add(s.mul(t4, g[a]), s.mul(k, d[a])));
    }
}

/// `1 / sup` of each noise per dimension (2D, 3D, 4D), from
/// `tests::print_sup`. Where the family and the Java share lattice, radius
/// and gradients (2D for both noises, OpenSimplex2S in 3D) `sup` equals
/// K.jpg's normaliser (`NORMALIZER_2D` 0.01001634121365712 and
/// 0.05481866495625118; `NORMALIZER_3D` 0.2781926117527186 over the raw
/// gradient length 3.30136), to 13 digits: his constants are this bound too.
#[allow(clippy::excessive_precision)]
pub(crate) const OS2_SCALE: [f64; 3] = [
    9.98368544630364312e1,
    1.08291264306620263e2,
    1.08567826464028997e2,
];
#[allow(clippy::excessive_precision)]
pub(crate) const OS2S_SCALE: [f64; 3] = [
    1.82419619448606447e1,
    1.18671744262711059e1,
    8.62680546874918441e0,
];

/// Scales the sum and gradient, and poisons non-finite input.
#[inline(always)]
fn finish_os<S: Simd, const D: usize>(s: S, acc: Acc<S, D>, p: &[S::F; D], k: f64) -> Acc<S, D> {
    let nan = poison(s, p);
    let scale = s.c(k * MARGIN);
    let mut g = acc.1;
    for ga in g.iter_mut() {
        *ga = s.add(s.mul(*ga, scale), nan);
    }
    (s.add(s.mul(acc.0, scale), nan), g)
}

// ----- 2D -----

/// Radius² of OpenSimplex2S in 2D, as in the Java.
pub(crate) const R2_S2: f64 = 2.0 / 3.0;

/// The corners beyond the three edges of the lower triangle
/// `(0,0), (1,0), (1,1)`, in skewed steps; the upper triangle's are the same
/// with x and y swapped.
const BEYOND_LOWER: [(f64, f64); 3] = [(0.0, -1.0), (2.0, 1.0), (0.0, 1.0)];

/// A corner beyond an edge of the triangle, a skewed step `(ox, oy)` from
/// corner 0 (mirrored for the upper triangle): its step and its offset
/// `d0 − (a, b) + (a + b)·G2`.
///
/// A function, not a closure: a closure is compiled with the target
/// features of the function it is written in, not of the SIMD entry point
/// it inlines into, so its intrinsics became out-of-line calls in the
/// portable build (OpenSimplex2S 2D ran at 144 Msamples/s there against 309
/// in a `-C target-cpu=native` build).
#[inline(always)]
fn beyond_candidate<S: Simd>(s: S, tri: &Tri2<S>, (ox, oy): (f64, f64)) -> (S::F, S::F, [S::F; 2]) {
    let [x0, y0] = tri.d[0];
    let a = s.select(tri.x_first, s.c(ox), s.c(oy));
    let b = s.select(tri.x_first, s.c(oy), s.c(ox));
    let g = s.c((ox + oy) * G2);
    let d = [s.add(s.sub(x0, a), g), s.add(s.sub(y0, b), g)];
    (a, b, d)
}

/// Raw 2D sum. OpenSimplex2: the triangle's three corners, radius² ½.
///
/// OpenSimplex2S (`SUPER`), radius² ⅔, the triangle's edge being √⅔: the
/// lattice points within reach of a point of the triangle are its three
/// corners and the three corners beyond its edges (any other point is at
/// least √⅔ away, the triangle's circumradius-free bound checked by
/// `tests::beyond_points_cover_the_radius`). Two corners beyond different
/// edges are 2√⅔ apart, so at most one of them is within reach: the nearest
/// one is summed. Where two tie, both are out of reach, so the choice
/// changes nothing.
#[inline(always)]
fn sum2<S: Simd, const SUPER: bool>(s: S, field: &LaneParams<S>, p: [S::F; 2]) -> Acc<S, 2> {
    let tri = tri2(s, field, p);
    let r2 = if SUPER { R2_S2 } else { 0.5 };
    let mut acc = zero_acc::<S, 2>(s);
    for k in 0..3 {
        surflet4(s, grad2_os(s, tri.h[k]), tri.d[k], r2, &mut acc);
    }
    if SUPER {
        let (mut a, mut b, mut d) = beyond_candidate(s, &tri, BEYOND_LOWER[0]);
        let mut d2 = dot(s, &d, &d);
        for &step in &BEYOND_LOWER[1..] {
            let (ca, cb, cd) = beyond_candidate(s, &tri, step);
            let c2 = dot(s, &cd, &cd);
            let closer = s.lt(c2, d2);
            a = s.select(closer, ca, a);
            b = s.select(closer, cb, b);
            d = [s.select(closer, cd[0], d[0]), s.select(closer, cd[1], d[1])];
            d2 = s.select(closer, c2, d2);
        }
        let ha = s.u_add(tri.ci, s.u_mul(s.f_to_i(a), s.u_splat(PRIMES[0])));
        let hb = s.u_add(tri.cj, s.u_mul(s.f_to_i(b), s.u_splat(PRIMES[1])));
        let h = lowbias32(s, s.u_xor(field.key, s.u_xor(ha, hb)));
        surflet4(s, grad2_os(s, h), d, r2, &mut acc);
    }
    acc
}

// ----- 3D -----

pub(crate) const ROOT3_INV: f64 = 0.577_350_269_189_625_8; // 1/√3

/// The Java's `ImproveXY` orientation, an orthonormal map `q = R p` that
/// points z along the lattice's main diagonal, so that xy slices (what
/// `render` draws) show no diagonal bias:
///
/// `q = (x − G(x+y) + z/√3, y − G(x+y) + z/√3, −(x+y)/√3 + z/√3)`, `G = (3 − √3)/6`.
///
/// Computed on exact (cell, fraction) pairs as the simplex skew is (see
/// `mul_split`): the products of the integer parts with the irrational
/// coefficients are split, so the rotated point keeps the precision of the
/// input rather than `ulp(|p|)`.
#[inline(always)]
fn improve_xy<S: Simd>(s: S, p: [S::F; 3]) -> [(S::F, S::F); 3] {
    let (xi, xf) = split(s, p[0]);
    let (yi, yf) = split(s, p[1]);
    let (zi, zf) = split(s, p[2]);
    // skew_split reduces cells past the precision limit in place; work on
    // copies so that the unrotated cells stay as they are.
    let (gi, gf) = skew_split(s, &mut [xi, yi], G2);
    let (ri, rf) = skew_split(s, &mut [xi, yi], ROOT3_INV);
    let (zri, zrf) = skew_split(s, &mut [zi], ROOT3_INV);
    let sxy = s.add(xf, yf);
    let zsmall = s.add(zrf, s.mul(zf, s.c(ROOT3_INV)));
    // Shared by x and y: −G(x+y) + z/√3 beyond the integer parts.
    let common = s.sub(zsmall, s.add(gf, s.mul(sxy, s.c(G2))));
    let int_xy = s.sub(zri, gi);
    let pair = |int: S::F, frac: S::F| {
        let (ci, cf) = split(s, frac);
        (s.add(int, ci), cf)
    };
    [
        pair(s.add(xi, int_xy), s.add(xf, common)),
        pair(s.add(yi, int_xy), s.add(yf, common)),
        pair(
            s.sub(zri, ri),
            s.sub(zsmall, s.add(rf, s.mul(sxy, s.c(ROOT3_INV)))),
        ),
    ]
}

/// The gradient back in space: `Rᵀ g`.
#[inline(always)]
fn improve_xy_back<S: Simd>(s: S, g: [S::F; 3]) -> [S::F; 3] {
    let (gx, gy, gz) = (g[0], g[1], g[2]);
    let z3 = s.mul(gz, s.c(ROOT3_INV));
    let gxy = s.mul(s.add(gx, gy), s.c(G2));
    [
        s.sub(s.sub(gx, gxy), z3),
        s.sub(s.sub(gy, gxy), z3),
        s.mul(s.add(s.add(gx, gy), gz), s.c(ROOT3_INV)),
    ]
}

/// The finished hash of the BCC point `(X, Y, Z) + half·(½, ½, ½)` for
/// integer `X, Y, Z`, hashed through its uvw coordinates
/// `(Y + Z, X + Z, X + Y) + half·(1, 1, 1)`, as `simplex3` hashes its
/// corners, so both noises label the lattice alike.
#[inline(always)]
fn bcc_point_hash<S: Simd>(s: S, key: S::U, c: [S::U; 3], half: bool) -> S::U {
    let one = s.u_splat(u32::from(half));
    let u = s.u_add(s.u_add(c[1], c[2]), one);
    let v = s.u_add(s.u_add(c[0], c[2]), one);
    let w = s.u_add(s.u_add(c[0], c[1]), one);
    let h = s.u_xor(
        s.u_mul(u, s.u_splat(PRIMES[0])),
        s.u_xor(
            s.u_mul(v, s.u_splat(PRIMES[1])),
            s.u_mul(w, s.u_splat(PRIMES[2])),
        ),
    );
    lowbias32(s, s.u_xor(key, h))
}

/// The four corners of one cubic sublattice of the BCC lattice that can be
/// within radius² ¾ of a point at fraction `f ∈ [0, 1)³` of cube `cell`.
///
/// Any lattice point off the cube's eight corners is at least 1 away. Of
/// two opposite corners `c` and `1 − c`, `|d_c|² + |d_{1−c}|² =
/// Σ f² + (1 − f)² ≥ 3/2`, so at most one is nearer than ¾: the nearer one,
/// which is `c` exactly when `Σ (1 − 2cᵢ)(2fᵢ − 1) ≤ 0`. Summing that one
/// of each of the four opposite pairs sums every point within reach.
#[inline(always)]
fn sublattice_s<S: Simd>(
    s: S,
    key: S::U,
    cell: [S::U; 3],
    f: [S::F; 3],
    half: bool,
    acc: &mut Acc<S, 3>,
) {
    let one = s.c(1.0);
    let ones = s.u_splat(1);
    // Corners 000, 100, 010, 001 against their opposites.
    let sum = s.add(s.add(f[0], f[1]), f[2]);
    let far = [
        s.gt(sum, s.c(1.5)),
        s.gt(s.sub(s.add(f[1], f[2]), f[0]), s.c(0.5)),
        s.gt(s.sub(s.add(f[0], f[2]), f[1]), s.c(0.5)),
        s.gt(s.sub(s.add(f[0], f[1]), f[2]), s.c(0.5)),
    ];
    for (k, far_k) in far.into_iter().enumerate() {
        let mut c = [cell[0]; 3];
        let mut d = f;
        for a in 0..3 {
            // Base corner bit: corner k (1..=3) has a one on axis k − 1.
            let base = k == a + 1;
            // The chosen corner's bit on axis a: base XOR far.
            let bit = if base {
                s.m_andnot(s.splat_true(), far_k)
            } else {
                far_k
            };
            c[a] = s.u_add(cell[a], s.u_and(s.m_to_u(bit), ones));
            d[a] = s.sub(f[a], s.keep(bit, one));
        }
        let h = bcc_point_hash(s, key, c, half);
        surflet4(s, grad3_os(s, h), d, 0.75, acc);
    }
}

/// Raw 3D sum on the rotated BCC lattice. OpenSimplex2: the tetrahedron's
/// four corners, radius² ½. OpenSimplex2S: radius² ¾, the four candidates
/// of each cubic sublattice ([`sublattice_s`]).
#[inline(always)]
fn sum3<S: Simd, const SUPER: bool>(s: S, field: &LaneParams<S>, p: [S::F; 3]) -> Acc<S, 3> {
    let [px, py, pz] = improve_xy(s, p);
    let mut acc = zero_acc::<S, 3>(s);
    if SUPER {
        let cell = [s.cell(px.0), s.cell(py.0), s.cell(pz.0)];
        let f = [px.1, py.1, pz.1];
        sublattice_s(s, field.key, cell, f, false, &mut acc);
        // The other sublattice sits at +½: its cube holds f − ½, stepped
        // back a cell where that is negative.
        let half = s.c(0.5);
        let mut hcell = cell;
        let mut hf = f;
        for a in 0..3 {
            let g = s.sub(f[a], half);
            let neg = s.lt(g, s.zero());
            hf[a] = s.select(neg, s.add(f[a], half), g);
            hcell[a] = s.u_add(cell[a], s.m_to_u(neg)); // −1 where negative
        }
        sublattice_s(s, field.key, hcell, hf, true, &mut acc);
    } else {
        let tet = bcc_tetra(s, px, py, pz);
        let h = bcc_hashes(s, field.key, &tet);
        for k in 0..4 {
            surflet4(s, grad3_os(s, h[k]), tet.d[k], 0.5, &mut acc);
        }
    }
    let g = improve_xy_back(s, acc.1);
    (acc.0, g)
}

// ----- 4D -----

/// Every lattice point within radius² ⅘ of some point of the canonical
/// simplex `f₀ ≥ f₁ ≥ f₂ ≥ f₃` of the skewed unit cell, in skewed steps
/// along the axes sorted by fraction, largest first. Thirty, found by the
/// exact distance from each point of a wide window to that simplex
/// (`tests::s4_candidates_are_exactly_those_within_reach` recomputes them);
/// at most ten are within reach at once.
#[rustfmt::skip]
pub(crate) const S4_CANDIDATES: [[i8; 4]; 30] = [
    [0, -1, -1, -1], [0, -1, 0, 0], [0, 0, -1, -1], [0, 0, -1, 0], [0, 0, 0, -1],
    [0, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0], [0, 1, 0, 0], [0, 1, 1, 0],
    [0, 1, 1, 1], [1, 0, -1, 0], [1, 0, 0, -1], [1, 0, 0, 0], [1, 0, 0, 1],
    [1, 0, 1, 0], [1, 0, 1, 1], [1, 1, 0, -1], [1, 1, 0, 0], [1, 1, 0, 1],
    [1, 1, 1, 0], [1, 1, 1, 1], [1, 1, 2, 1], [1, 2, 1, 0], [1, 2, 1, 1],
    [2, 1, 0, 0], [2, 1, 1, 0], [2, 1, 1, 1], [2, 2, 1, 1], [2, 2, 2, 1],
];

pub(crate) const R2_S4: f64 = 0.8;

/// Raw 4D sum on the classic skewed lattice. OpenSimplex2: the five corners
/// of the simplex, radius² ½. OpenSimplex2S: radius² ⅘ over
/// [`S4_CANDIDATES`], mapped from the canonical simplex to the point's own
/// by its rank order.
#[inline(always)]
fn sum4<S: Simd, const SUPER: bool>(s: S, field: &LaneParams<S>, p: [S::F; 4]) -> Acc<S, 4> {
    let lat = simplex4_lattice(s, p);
    let mut acc = zero_acc::<S, 4>(s);
    if !SUPER {
        for (h, d) in simplex4_corners(s, field, &lat) {
            surflet4(s, grad4_simplex(s, h), d, 0.5, &mut acc);
        }
        return acc;
    }
    // position[a][j]: axis a holds the j-th largest fraction (rank 3 − j).
    let mut position = [[s.splat_true(); 4]; 4];
    for a in 0..4 {
        for (j, pj) in position[a].iter_mut().enumerate() {
            *pj = s.u_to_m(s.u_eq(lat.rank[a], s.u_splat(3 - j as u32)));
        }
    }
    for cand in S4_CANDIDATES {
        let mut h = field.key;
        let mut d = lat.d0;
        let sum: i32 = cand.iter().map(|&v| i32::from(v)).sum();
        let shift = s.c(f64::from(sum) * super::simplex::G4);
        for a in 0..4 {
            // The step along axis a: cand[j] where a ranks j-th.
            let mut step = s.c(f64::from(cand[3]));
            for j in (0..3).rev() {
                step = s.select(position[a][j], s.c(f64::from(cand[j])), step);
            }
            let prime = s.u_splat(PRIMES[a]);
            h = s.u_xor(h, s.u_add(lat.base[a], s.u_mul(s.f_to_i(step), prime)));
            d[a] = s.add(s.sub(lat.d0[a], step), shift);
        }
        surflet4(s, grad4_simplex(s, lowbias32(s, h)), d, R2_S4, &mut acc);
    }
    acc
}

// ----- entry point -----

/// OpenSimplex2 (`SUPER = false`) or OpenSimplex2S (`SUPER = true`) in `D`
/// dimensions, scaled into [-1, 1].
#[inline(always)]
pub(crate) fn opensimplex<S: Simd, const D: usize, const SUPER: bool>(
    s: S,
    field: &LaneParams<S>,
    p: [S::F; D],
) -> Acc<S, D> {
    let z = s.zero();
    let scale = if SUPER { &OS2S_SCALE } else { &OS2_SCALE };
    let (v, g) = match D {
        1 | 2 => {
            let q = [p[0], if D == 2 { p[1] } else { z }];
            let (v, g) = sum2::<S, SUPER>(s, field, q);
            let (v, g) = finish_os(s, (v, g), &q, scale[0]);
            (v, super::resize(&g, z))
        }
        3 => {
            let q = super::resize(&p, z);
            let (v, g) = finish_os(s, sum3::<S, SUPER>(s, field, q), &q, scale[1]);
            (v, super::resize(&g, z))
        }
        _ => {
            let q = super::resize(&p, z);
            let (v, g) = finish_os(s, sum4::<S, SUPER>(s, field, q), &q, scale[2]);
            (v, super::resize(&g, z))
        }
    };
    (v, g)
}

#[cfg(test)]
mod tests {
    use super::super::simplex::{F2 as F2_, F4 as F4_, G4 as G4_};
    use super::*;
    use crate::simd::scalar::Scalar;
    use itertools_free::*;

    mod itertools_free {
        /// Every `N`-vector with entries in `lo..hi`.
        pub(super) fn cube<const N: usize>(lo: i64, hi: i64) -> Vec<[i64; N]> {
            let mut out = vec![[0i64; N]];
            for a in 0..N {
                out = out
                    .into_iter()
                    .flat_map(|v| {
                        (lo..hi).map(move |x| {
                            let mut w = v;
                            w[a] = x;
                            w
                        })
                    })
                    .collect();
            }
            out
        }
    }

    /// Squared distance from `q` to the convex hull of `vs`: the least over
    /// the faces whose affine projection lands inside them (exact for a
    /// simplex, by the KKT conditions).
    fn dist2_to_simplex(q: &[f64], vs: &[Vec<f64>]) -> f64 {
        let n = vs.len();
        let mut best = f64::INFINITY;
        for mask in 1u32..(1 << n) {
            let sub: Vec<&Vec<f64>> = (0..n)
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| &vs[i])
                .collect();
            // Solve the normal equations for the barycentric weights of the
            // projection onto the affine hull of `sub`.
            let o = sub[0];
            let m = sub.len() - 1;
            let e: Vec<Vec<f64>> = sub[1..]
                .iter()
                .map(|v| v.iter().zip(o).map(|(a, b)| a - b).collect())
                .collect();
            let r: Vec<f64> = q.iter().zip(o).map(|(a, b)| a - b).collect();
            let mut a = vec![vec![0.0; m + 1]; m];
            for i in 0..m {
                for j in 0..m {
                    a[i][j] = e[i].iter().zip(&e[j]).map(|(x, y)| x * y).sum();
                }
                a[i][m] = e[i].iter().zip(&r).map(|(x, y)| x * y).sum();
            }
            // Gaussian elimination (the faces are never degenerate).
            for c in 0..m {
                let piv = a[c][c];
                for i in 0..m {
                    if i != c {
                        let f = a[i][c] / piv;
                        for j in c..=m {
                            a[i][j] -= f * a[c][j];
                        }
                    }
                }
            }
            let lam: Vec<f64> = (0..m).map(|i| a[i][m] / a[i][i]).collect();
            if lam.iter().all(|&l| l >= -1e-12) && lam.iter().sum::<f64>() <= 1.0 + 1e-12 {
                let mut x = o.clone();
                for (l, ei) in lam.iter().zip(&e) {
                    for (xa, ea) in x.iter_mut().zip(ei) {
                        *xa += l * ea;
                    }
                }
                let d2: f64 = x.iter().zip(q).map(|(a, b)| (a - b) * (a - b)).sum();
                best = best.min(d2);
            }
        }
        best
    }

    fn unskew(v: &[i64], g: f64) -> Vec<f64> {
        let sum: i64 = v.iter().sum();
        v.iter().map(|&x| x as f64 - sum as f64 * g).collect()
    }

    #[test]
    fn s4_candidates_are_exactly_those_within_reach() {
        let g4 = super::super::simplex::G4;
        let simplex: Vec<Vec<f64>> = [
            [0, 0, 0, 0],
            [1, 0, 0, 0],
            [1, 1, 0, 0],
            [1, 1, 1, 0],
            [1, 1, 1, 1],
        ]
        .iter()
        .map(|v| unskew(v, g4))
        .collect();
        let mut within: Vec<[i8; 4]> = cube::<4>(-3, 5)
            .into_iter()
            .filter(|c| dist2_to_simplex(&unskew(c, g4), &simplex) < R2_S4 - 1e-12)
            .map(|c| c.map(|x| x as i8))
            .collect();
        within.sort();
        let mut listed = S4_CANDIDATES.to_vec();
        listed.sort();
        assert_eq!(within, listed);
    }

    #[test]
    fn beyond_points_cover_the_radius() {
        // Every lattice point other than the lower triangle's corners and
        // the three beyond its edges is at least √⅔ from the triangle.
        let tri: Vec<Vec<f64>> = [[0, 0], [1, 0], [1, 1]]
            .iter()
            .map(|v| unskew(v, G2))
            .collect();
        let mut six = vec![[0, 0], [1, 0], [1, 1]];
        six.extend(BEYOND_LOWER.iter().map(|&(a, b)| [a as i64, b as i64]));
        for c in cube::<2>(-4, 6) {
            let d2 = dist2_to_simplex(&unskew(&c, G2), &tri);
            if !six.contains(&c) {
                assert!(d2 >= R2_S2 - 1e-12, "{c:?} at {d2}");
            }
        }
    }

    /// The explicit gradient sets, for the bound.
    fn grads(dim: usize) -> Vec<Vec<f64>> {
        let mut out = Vec::new();
        match dim {
            2 => {
                for &(c, sn) in &OCTANT {
                    for (x, y) in [(c, sn), (sn, c)] {
                        for (sx, sy) in [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)] {
                            out.push(vec![sx * x, sy * y]);
                        }
                    }
                }
            }
            3 => {
                for axis in 0..3 {
                    for signs in cube::<3>(0, 2) {
                        let sg: Vec<f64> = signs
                            .iter()
                            .map(|&b| if b == 1 { -1.0 } else { 1.0 })
                            .collect();
                        let a: Vec<f64> = (0..3)
                            .map(|i| sg[i] * if i == axis { B3 } else { A3 })
                            .collect();
                        out.push(a);
                        for (first, second) in [(P3, Q3), (Q3, P3)] {
                            let mut b = vec![0.0; 3];
                            b[(axis + 1) % 3] = sg[(axis + 1) % 3] * first;
                            b[(axis + 2) % 3] = sg[(axis + 2) % 3] * second;
                            out.push(b);
                        }
                    }
                }
            }
            _ => {
                let r3 = 1.0 / 3f64.sqrt();
                for signs in cube::<4>(0, 2) {
                    let sg: Vec<f64> = signs
                        .iter()
                        .map(|&b| if b == 1 { -1.0 } else { 1.0 })
                        .collect();
                    out.push(sg.iter().map(|x| 0.5 * x).collect());
                    for zero in 0..4 {
                        out.push(
                            (0..4)
                                .map(|i| if i == zero { 0.0 } else { sg[i] * r3 })
                                .collect(),
                        );
                    }
                }
            }
        }
        out.sort_by(|a, b| a.partial_cmp(b).unwrap());
        out.dedup();
        out
    }

    /// Lattice points near the unit cell, in space: the skewed lattices
    /// unskewed, the BCC lattice as it is.
    fn points(dim: usize) -> Vec<Vec<f64>> {
        match dim {
            2 => cube::<2>(-2, 4).iter().map(|c| unskew(c, G2)).collect(),
            3 => {
                let mut v: Vec<Vec<f64>> = Vec::new();
                for c in cube::<3>(-1, 3) {
                    v.push(c.iter().map(|&x| x as f64).collect());
                    v.push(c.iter().map(|&x| x as f64 + 0.5).collect());
                }
                v
            }
            // Reach from the canonical simplex spans -1..=2 on every axis
            // (`S4_CANDIDATES`).
            _ => cube::<4>(-1, 3)
                .iter()
                .map(|c| unskew(c, super::super::simplex::G4))
                .collect(),
        }
    }

    /// `Σ_v w(d_v) max_g (g · d_v)` at `p`.
    fn bound(p: &[f64], r2: f64, pts: &[Vec<f64>], gs: &[Vec<f64>]) -> f64 {
        let mut total = 0.0;
        for v in pts {
            let d: Vec<f64> = p.iter().zip(v).map(|(a, b)| a - b).collect();
            let t = r2 - d.iter().map(|x| x * x).sum::<f64>();
            if t <= 0.0 {
                continue;
            }
            let best = gs
                .iter()
                .map(|g| g.iter().zip(&d).map(|(a, b)| a * b).sum::<f64>())
                .fold(f64::NEG_INFINITY, f64::max);
            total += t.powi(4) * best;
        }
        total
    }

    /// The supremum of [`bound`] over the unit cell: a dense scan, then a
    /// pattern search from the best starts down to steps of 1e-13.
    pub(super) fn sup(dim: usize, r2: f64) -> f64 {
        let pts = points(dim);
        let gs = grads(dim);
        let to_space = |f: &[f64]| -> Vec<f64> {
            match dim {
                2 => {
                    let s: f64 = f.iter().sum::<f64>() * G2;
                    f.iter().map(|x| x - s).collect()
                }
                3 => f.to_vec(),
                _ => {
                    let s: f64 = f.iter().sum::<f64>() * super::super::simplex::G4;
                    f.iter().map(|x| x - s).collect()
                }
            }
        };
        // 4D scans only the canonical simplex f₀ ≥ f₁ ≥ f₂ ≥ f₃ (the other
        // 23 are its mirror images, and the gradient set is symmetric).
        let n = match dim {
            2 => 200,
            3 => 40,
            _ => 30,
        };
        let mut starts: Vec<(f64, Vec<f64>)> = Vec::new();
        let mut f = vec![0usize; dim];
        loop {
            let fr: Vec<f64> = f.iter().map(|&i| (i as f64 + 0.5) / n as f64).collect();
            if dim < 4 || fr.windows(2).all(|w| w[0] >= w[1]) {
                let b = bound(&to_space(&fr), r2, &pts, &gs);
                starts.push((b, fr));
            }
            let mut a = 0;
            while a < dim {
                f[a] += 1;
                if f[a] < n {
                    break;
                }
                f[a] = 0;
                a += 1;
            }
            if a == dim {
                break;
            }
        }
        starts.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
        let mut best = 0.0f64;
        // Search directions: the axes and every diagonal, so that the
        // search does not stall on a ridge between two gradient choices.
        let dirs: Vec<Vec<f64>> = cube_dirs(dim);
        for (mut b, mut x) in starts.into_iter().take(64) {
            let mut step = 0.5 / n as f64;
            while step > 1e-13 {
                let mut moved = false;
                for dir in &dirs {
                    {
                        let mut y = x.clone();
                        for (ya, da) in y.iter_mut().zip(dir) {
                            *ya += step * da;
                        }
                        let by = bound(&to_space(&y), r2, &pts, &gs);
                        if by > b {
                            (b, x, moved) = (by, y, true);
                        }
                    }
                }
                if !moved {
                    step *= 0.5;
                }
            }
            best = best.max(b);
        }
        best
    }

    /// SplitMix64 in [0, 1).
    fn rng(state: &mut u64) -> f64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// `(r² − |d|²)⁴ (g · d)` summed over every lattice point of a window
    /// far wider than the radius, hashed as the kernels hash them: what the
    /// kernels must compute if they miss no point and count none twice.
    fn brute(dim: usize, sup: bool, key: u32, p: &[f64]) -> f64 {
        let s = Scalar::<f64>::new();
        let r2 = match (sup, dim) {
            (false, _) => 0.5,
            (true, 2) => R2_S2,
            (true, 3) => 0.75,
            _ => R2_S4,
        };
        let hash = |c: &[i64]| -> u32 {
            let mut h = key;
            for (a, &x) in c.iter().enumerate() {
                h ^= (x as u32).wrapping_mul(PRIMES[a]);
            }
            lowbias32(s, h)
        };
        let mut total = 0.0;
        let mut add = |h: u32, d: &[f64]| {
            let t = r2 - d.iter().map(|x| x * x).sum::<f64>();
            if t > 0.0 {
                let g: Vec<f64> = match dim {
                    2 => grad2_os(s, h).to_vec(),
                    3 => grad3_os(s, h).to_vec(),
                    _ => grad4_simplex(s, h).to_vec(),
                };
                total += t.powi(4) * g.iter().zip(d).map(|(a, b)| a * b).sum::<f64>();
            }
        };
        match dim {
            3 => {
                let g = G2;
                let r = ROOT3_INV;
                let q = [
                    p[0] - g * (p[0] + p[1]) + r * p[2],
                    p[1] - g * (p[0] + p[1]) + r * p[2],
                    -r * (p[0] + p[1]) + r * p[2],
                ];
                let base: Vec<i64> = q.iter().map(|x| x.floor() as i64).collect();
                for o in cube::<3>(-2, 3) {
                    let c: Vec<i64> = (0..3).map(|a| base[a] + o[a]).collect();
                    for half in [0i64, 1] {
                        let d: Vec<f64> = (0..3)
                            .map(|a| q[a] - c[a] as f64 - 0.5 * half as f64)
                            .collect();
                        let uvw = [c[1] + c[2] + half, c[0] + c[2] + half, c[0] + c[1] + half];
                        add(hash(&uvw), &d);
                    }
                }
            }
            _ => {
                let (f, g) = if dim == 2 { (F2_, G2) } else { (F4_, G4_) };
                let sk: f64 = p.iter().sum::<f64>() * f;
                let base: Vec<i64> = p.iter().map(|x| (x + sk).floor() as i64).collect();
                let window = if dim == 2 {
                    cube::<2>(-3, 4)
                        .iter()
                        .map(|c| c.to_vec())
                        .collect::<Vec<_>>()
                } else {
                    cube::<4>(-2, 4).iter().map(|c| c.to_vec()).collect()
                };
                for o in window {
                    let c: Vec<i64> = (0..dim).map(|a| base[a] + o[a]).collect();
                    let cs: i64 = c.iter().sum();
                    let d: Vec<f64> = (0..dim)
                        .map(|a| p[a] - (c[a] as f64 - cs as f64 * g))
                        .collect();
                    add(hash(&c), &d);
                }
            }
        }
        total
    }

    #[test]
    fn kernels_sum_every_point_within_reach() {
        let s = Scalar::<f64>::new();
        let key = crate::seed::key(7);
        let field = LaneParams::new(s, key, [0; 4]);
        let mut st = 1u64;
        for i in 0..400 {
            let mut p = [0.0f64; 4];
            for v in p.iter_mut() {
                *v = (rng(&mut st) - 0.5) * 40.0;
            }
            for sup in [false, true] {
                let (a2, a3, a4) = if sup {
                    (
                        sum2::<_, true>(s, &field, [p[0], p[1]]).0,
                        sum3::<_, true>(s, &field, [p[0], p[1], p[2]]).0,
                        sum4::<_, true>(s, &field, p).0,
                    )
                } else {
                    (
                        sum2::<_, false>(s, &field, [p[0], p[1]]).0,
                        sum3::<_, false>(s, &field, [p[0], p[1], p[2]]).0,
                        sum4::<_, false>(s, &field, p).0,
                    )
                };
                for (dim, got) in [(2, a2), (3, a3), (4, a4)] {
                    if dim == 4 && i >= 100 {
                        continue; // the 4D window is 1296 points
                    }
                    let want = brute(dim, sup, key, &p[..dim]);
                    assert!(
                        (got - want).abs() < 1e-13,
                        "{dim}D super={sup} at {p:?}: {got} vs {want}"
                    );
                }
            }
        }
    }

    #[test]
    fn scales_are_the_bound_in_2d() {
        // The 2D bound is cheap enough to recompute in every test run.
        for (r2, scale) in [(0.5, OS2_SCALE[0]), (R2_S2, OS2S_SCALE[0])] {
            let m = sup(2, r2);
            assert!((m * scale - 1.0).abs() < 1e-12, "{m} {scale}");
        }
    }

    /// Every non-zero vector with entries in {-1, 0, 1}.
    fn cube_dirs(dim: usize) -> Vec<Vec<f64>> {
        let mut out: Vec<Vec<f64>> = vec![vec![]];
        for _ in 0..dim {
            out = out
                .into_iter()
                .flat_map(|v| {
                    [-1.0, 0.0, 1.0].map(|x| {
                        let mut w = v.clone();
                        w.push(x);
                        w
                    })
                })
                .collect();
        }
        out.retain(|v| v.iter().any(|&x| x != 0.0));
        out
    }

    /// Prints the scale constants. `cargo test -p surflet --release --lib
    /// print_sup -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn print_sup() {
        for (name, r2s) in [("OS2", [0.5, 0.5, 0.5]), ("OS2S", [R2_S2, 0.75, R2_S4])] {
            for (dim, r2) in [2, 3, 4].into_iter().zip(r2s) {
                let m = sup(dim, r2);
                println!("{name} {dim}D: sup {m:.17e}, scale {:.17e}", 1.0 / m);
            }
        }
    }
}
