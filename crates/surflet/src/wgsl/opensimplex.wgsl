// surflet: OpenSimplex2 and OpenSimplex2S, kernel/opensimplex.rs operation
// for operation: quartic surflets (r^2 - |d|^2)^4 (g . d) over K.jpg's
// gradient sets, on the triangles of surflet_tri2 (simplex.wgsl).

// 2D: the 24 directions at 7.5 + 15k degrees.
fn surflet_grad2_os(h: u32) -> vec2<f32> {
    let k = surflet_three_way(h);
    let c = select(select(SURFLET_OS_C2, SURFLET_OS_C1, k == 1u), SURFLET_OS_C0, k == 0u);
    let sn = select(select(SURFLET_OS_S2, SURFLET_OS_S1, k == 1u), SURFLET_OS_S0, k == 0u);
    let swap = (h & 1u) == 1u;
    return vec2<f32>(surflet_flip(h, 1u, select(c, sn, swap)), surflet_flip(h, 2u, select(sn, c, swap)));
}

// Adds the surflet of gradient g at offset d (radius^2 r2) to acc: t^4 (g . d)
// and its gradient t^4 g - 8 t^3 (g . d) d, t = max(r2 - |d|^2, 0).
fn surflet_surflet4(acc: vec4<f32>, g: vec3<f32>, d: vec3<f32>, r2: f32, dims: u32) -> vec4<f32> {
    var dd = surflet_p(d.x * d.x) + surflet_p(d.y * d.y);
    var gd = surflet_p(g.x * d.x) + surflet_p(g.y * d.y);
    if (dims == 3u) {
        dd = dd + surflet_p(d.z * d.z);
        gd = gd + surflet_p(g.z * d.z);
    }
    let t = surflet_max(r2 - dd, 0.0f);
    let t2 = t * t;
    let t4 = t2 * t2;
    let minus8t3 = (t2 * t) * -8.0f;
    var out = acc;
    out.x = acc.x + surflet_p(t4 * gd);
    let k = gd * minus8t3;
    for (var a = 0u; a < dims; a++) {
        out[a + 1u] = acc[a + 1u] + (surflet_p(t4 * g[a]) + surflet_p(k * d[a]));
    }
    return out;
}

// A corner beyond an edge of the triangle, a skewed step (ox, oy) from
// corner 0, mirrored for the upper triangle: (a, b, offset).
fn surflet_os_beyond(tri: SurfletTri2, ox: f32, oy: f32, g: f32) -> vec4<f32> {
    let a = select(oy, ox, tri.x_first);
    let b = select(ox, oy, tri.x_first);
    return vec4<f32>(a, b, (tri.d0.x - a) + g, (tri.d0.y - b) + g);
}

// The raw 2D sum: the triangle's corners and, for OpenSimplex2S (s), the
// nearest corner beyond its edges.
fn surflet_os2(key: u32, p: vec2<f32>, s: bool, r2: f32, scale: f32) -> vec3<f32> {
    let tri = surflet_tri2(key, p);
    var acc = vec4<f32>(0.0f);
    acc = surflet_surflet4(acc, vec3<f32>(surflet_grad2_os(tri.h.x), 0.0f), vec3<f32>(tri.d0, 0.0f), r2, 2u);
    acc = surflet_surflet4(acc, vec3<f32>(surflet_grad2_os(tri.h.y), 0.0f), vec3<f32>(tri.d1, 0.0f), r2, 2u);
    acc = surflet_surflet4(acc, vec3<f32>(surflet_grad2_os(tri.h.z), 0.0f), vec3<f32>(tri.d2, 0.0f), r2, 2u);
    if (s) {
        var best = surflet_os_beyond(tri, 0.0f, -1.0f, SURFLET_OS_BEYOND0);
        var d2 = surflet_p(best.z * best.z) + surflet_p(best.w * best.w);
        let c1 = surflet_os_beyond(tri, 2.0f, 1.0f, SURFLET_OS_BEYOND1);
        let e1 = surflet_p(c1.z * c1.z) + surflet_p(c1.w * c1.w);
        if (e1 < d2) {
            best = c1;
            d2 = e1;
        }
        let c2 = surflet_os_beyond(tri, 0.0f, 1.0f, SURFLET_OS_BEYOND2);
        let e2 = surflet_p(c2.z * c2.z) + surflet_p(c2.w * c2.w);
        if (e2 < d2) {
            best = c2;
        }
        let ha = tri.ci + bitcast<u32>(i32(best.x)) * SURFLET_PRIME_X;
        let hb = tri.cj + bitcast<u32>(i32(best.y)) * SURFLET_PRIME_Y;
        let h = surflet_lowbias32(key ^ (ha ^ hb));
        acc = surflet_surflet4(acc, vec3<f32>(surflet_grad2_os(h), 0.0f), vec3<f32>(best.zw, 0.0f), r2, 2u);
    }
    let nan = surflet_poison2(p);
    return vec3<f32>(surflet_p(acc.x * scale) + nan, surflet_p(acc.y * scale) + nan, surflet_p(acc.z * scale) + nan);
}

// 3D: the 48 directions of K.jpg's set, normalised.
fn surflet_grad3_os(h: u32) -> vec3<f32> {
    let axis = surflet_three_way(h);
    let group_b = (h & 1u) == 1u;
    let swap = ((h >> 1u) & 1u) == 1u;
    let first = select(SURFLET_OS_P3, SURFLET_OS_Q3, swap);
    let second = select(SURFLET_OS_Q3, SURFLET_OS_P3, swap);
    var g = vec3<f32>(0.0f);
    for (var i = 0u; i < 3u; i++) {
        let special = axis == i;
        // Axis i follows the special axis when special = i - 1 (mod 3).
        let next = axis == ((i + 2u) % 3u);
        let in_a = select(SURFLET_OS_A3, SURFLET_OS_B3, special);
        let in_b = select(select(second, first, next), 0.0f, special);
        g[i] = select(in_a, in_b, group_b);
    }
    return vec3<f32>(surflet_flip(h, 2u, g.x), surflet_flip(h, 3u, g.y), surflet_flip(h, 4u, g.z));
}

// kernel/lattice.rs skew_split of the cells a and b (reduced modulo 2^32
// where their sum is past exactness) by c = hi + lo: (integer, fraction).
fn surflet_skew_split2(a: f32, b: f32, hi: f32, lo: f32) -> vec2<f32> {
    var xa = a;
    var xb = b;
    var k = xa + xb;
    if (!(abs(k) < 0x1p26f)) {
        xa = surflet_wrap32(xa, true);
        xb = surflet_wrap32(xb, true);
        k = xa + xb;
    }
    return surflet_mul_split(k, hi, lo);
}

fn surflet_skew_split1(a: f32, hi: f32, lo: f32) -> vec2<f32> {
    var k = a;
    if (!(abs(k) < 0x1p26f)) {
        k = surflet_wrap32(k, true);
    }
    return surflet_mul_split(k, hi, lo);
}

// (whole + the cell of frac, the fraction of frac): a (cell, fraction) pair.
fn surflet_os_pair(whole: f32, frac: f32) -> vec2<f32> {
    let ci = floor(frac);
    return vec2<f32>(whole + ci, frac - ci);
}

// The Java's ImproveXY orientation on exact (cell, fraction) pairs
// (kernel/opensimplex.rs improve_xy): the rotated point's pairs, x, y, z.
fn surflet_improve_xy(p: vec3<f32>) -> array<vec2<f32>, 3> {
    let xi = floor(p.x);
    let xf = p.x - xi;
    let yi = floor(p.y);
    let yf = p.y - yi;
    let zi = floor(p.z);
    let zf = p.z - zi;
    let g = surflet_skew_split2(xi, yi, SURFLET_G2_HI, SURFLET_G2_LO);
    let r = surflet_skew_split2(xi, yi, SURFLET_OS_R3_HI, SURFLET_OS_R3_LO);
    let zr = surflet_skew_split1(zi, SURFLET_OS_R3_HI, SURFLET_OS_R3_LO);
    let sxy = xf + yf;
    let zsmall = zr.y + surflet_p(zf * SURFLET_OS_R3);
    let rest = zsmall - (g.y + surflet_p(sxy * SURFLET_G2));
    let int_xy = zr.x - g.x;
    return array<vec2<f32>, 3>(
        surflet_os_pair(xi + int_xy, xf + rest),
        surflet_os_pair(yi + int_xy, yf + rest),
        surflet_os_pair(zr.x - r.x, zsmall - (r.y + surflet_p(sxy * SURFLET_OS_R3))),
    );
}

// The gradient back in space: R^T g.
fn surflet_improve_xy_back(g: vec3<f32>) -> vec3<f32> {
    let z3 = surflet_p(g.z * SURFLET_OS_R3);
    let gxy = surflet_p((g.x + g.y) * SURFLET_G2);
    // The z product opaque too: the caller scales it by another constant,
    // and lavapipe folds (x * a) * b into x * (a * b).
    return vec3<f32>((g.x - gxy) - z3, (g.y - gxy) - z3, surflet_p(((g.x + g.y) + g.z) * SURFLET_OS_R3));
}

// The finished hash of the BCC point c + shift (1/2, 1/2, 1/2), through its
// uvw coordinates.
fn surflet_bcc_point_hash(key: u32, c: vec3<u32>, shift: u32) -> u32 {
    let u = (c.y + c.z) + shift;
    let v = (c.x + c.z) + shift;
    let w = (c.x + c.y) + shift;
    let h = (u * SURFLET_PRIME_X) ^ ((v * SURFLET_PRIME_Y) ^ (w * SURFLET_PRIME_Z));
    return surflet_lowbias32(key ^ h);
}

// The four corners of one cubic sublattice that can be within radius^2
// 3/4 of a point at fraction f of cube `cell` (kernel/opensimplex.rs
// sublattice_s): of each pair of opposite corners, the nearer.
fn surflet_sublattice_s(acc0: vec4<f32>, key: u32, cell: vec3<u32>, f: vec3<f32>, shift: u32) -> vec4<f32> {
    var acc = acc0;
    let sum = (f.x + f.y) + f.z;
    let far = vec4<bool>(
        sum > 1.5f,
        ((f.y + f.z) - f.x) > 0.5f,
        ((f.x + f.z) - f.y) > 0.5f,
        ((f.x + f.y) - f.z) > 0.5f,
    );
    for (var k = 0u; k < 4u; k++) {
        var c = cell;
        var d = f;
        for (var a = 0u; a < 3u; a++) {
            // Corner k (1..3) has a one on axis k - 1; far flips it.
            let bit = (k == a + 1u) != far[k];
            c[a] = cell[a] + select(0u, 1u, bit);
            d[a] = f[a] - select(0.0f, 1.0f, bit);
        }
        let h = surflet_bcc_point_hash(key, c, shift);
        acc = surflet_surflet4(acc, surflet_grad3_os(h), d, 0.75f, 3u);
    }
    return acc;
}

// The raw 3D sum on the rotated BCC lattice, scaled: OpenSimplex2 (the
// tetrahedron's corners, radius^2 1/2) or OpenSimplex2S (s: both cubic
// sublattices' candidates, radius^2 3/4).
fn surflet_os3(key: u32, p: vec3<f32>, s: bool, scale: f32) -> vec4<f32> {
    let q = surflet_improve_xy(p);
    var acc = vec4<f32>(0.0f);
    if (s) {
        let cell = vec3<u32>(surflet_cell(q[0].x), surflet_cell(q[1].x), surflet_cell(q[2].x));
        let f = vec3<f32>(q[0].y, q[1].y, q[2].y);
        acc = surflet_sublattice_s(acc, key, cell, f, 0u);
        // The other sublattice sits at +1/2: its cube holds f - 1/2, stepped
        // back a cell where that is negative.
        var hcell = cell;
        var hf = f;
        for (var a = 0u; a < 3u; a++) {
            let g = f[a] - 0.5f;
            let neg = g < 0.0f;
            hf[a] = select(g, f[a] + 0.5f, neg);
            hcell[a] = cell[a] + select(0u, 0xFFFFFFFFu, neg);
        }
        acc = surflet_sublattice_s(acc, key, hcell, hf, 1u);
    } else {
        let t = surflet_bcc_tetra(q[0], q[1], q[2]);
        let h = surflet_bcc_hashes(key, t);
        acc = surflet_surflet4(acc, surflet_grad3_os(h.x), t.d0, 0.5f, 3u);
        acc = surflet_surflet4(acc, surflet_grad3_os(h.y), t.d1, 0.5f, 3u);
        acc = surflet_surflet4(acc, surflet_grad3_os(h.z), t.d2, 0.5f, 3u);
        acc = surflet_surflet4(acc, surflet_grad3_os(h.w), t.d3, 0.5f, 3u);
    }
    let g = surflet_improve_xy_back(acc.yzw);
    let nan = surflet_poison3(p);
    return vec4<f32>(surflet_p(acc.x * scale) + nan, surflet_p3(g * scale) + vec3<f32>(nan));
}

// surflet_surflet4 in 4D (written apart, as simplex.wgsl's surflet_corner4).
fn surflet_quartic4(acc: SurfletSample4d, g: vec4<f32>, d: vec4<f32>, r2: f32) -> SurfletSample4d {
    let dd = ((surflet_p(d.x * d.x) + surflet_p(d.y * d.y)) + surflet_p(d.z * d.z)) + surflet_p(d.w * d.w);
    let gd = ((surflet_p(g.x * d.x) + surflet_p(g.y * d.y)) + surflet_p(g.z * d.z)) + surflet_p(g.w * d.w);
    let t = surflet_max(r2 - dd, 0.0f);
    let t2 = t * t;
    let t4 = t2 * t2;
    let minus8t3 = (t2 * t) * -8.0f;
    var out = acc;
    out.value = acc.value + surflet_p(t4 * gd);
    let k = gd * minus8t3;
    for (var a = 0u; a < 4u; a++) {
        out.gradient[a] = acc.gradient[a] + (surflet_p(t4 * g[a]) + surflet_p(k * d[a]));
    }
    return out;
}

// 4D on the classic skewed lattice of simplex.wgsl, scaled: OpenSimplex2
// (the simplex's five corners) or OpenSimplex2S (s: the 30 candidates of
// SURFLET_S4_CANDIDATES, mapped from the canonical simplex to the point's
// own by its rank order), radius^2 r2.
fn surflet_os4(key: u32, p: vec4<f32>, s: bool, r2: f32, scale: f32) -> SurfletSample4d {
    let lat = surflet_simplex4_lattice(p);
    var acc = SurfletSample4d(0.0f, vec4<f32>(0.0f));
    if (s) {
        // Copies, for indexing at run time.
        var cands = SURFLET_S4_CANDIDATES;
        var shifts = SURFLET_S4_SHIFTS;
        let prime = vec4<u32>(SURFLET_PRIME_X, SURFLET_PRIME_Y, SURFLET_PRIME_Z, SURFLET_PRIME_W);
        for (var i = 0u; i < 30u; i++) {
            let cand = cands[i];
            // Opaque, as the corners' k * G4 (simplex.wgsl).
            let shift = surflet_p(shifts[i]);
            var h = key;
            var d = lat.d0;
            for (var a = 0u; a < 4u; a++) {
                // The step along axis a: the candidate's entry for a's rank.
                let st = cand[3u - lat.rank[a]];
                h = h ^ (lat.base[a] + bitcast<u32>(st) * prime[a]);
                d[a] = (lat.d0[a] - f32(st)) + shift;
            }
            acc = surflet_quartic4(acc, surflet_grad4_simplex(surflet_lowbias32(h)), d, r2);
        }
    } else {
        for (var k = 0u; k < 5u; k++) {
            let c = surflet_simplex4_corner(key, lat, k);
            acc = surflet_quartic4(acc, surflet_grad4_simplex(c.h), c.d, r2);
        }
    }
    return surflet_finish_sum4(acc, p, scale);
}
