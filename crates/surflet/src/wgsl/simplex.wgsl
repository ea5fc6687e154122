// surflet: simplex noise and simplex value noise in 2D and 3D,
// kernel/simplex.rs operation for operation.
//
// Each corner of the simplex that holds the point adds a surflet: the
// falloff (1/2 - |d|^2)^3 times a gradient ramp g.d (simplex noise) or a
// lattice value (simplex value noise), d the offset from the corner.

// Value and gradient, summed over the corners (x the value, yzw the
// gradient).
fn surflet_corner(acc: vec4<f32>, data: vec3<f32>, d: vec3<f32>, value: bool, dims: u32) -> vec4<f32> {
    var dd = surflet_p(d.x * d.x) + surflet_p(d.y * d.y);
    if (dims == 3u) {
        dd = dd + surflet_p(d.z * d.z);
    }
    let t = surflet_max(0.5f - dd, 0.0f);
    let t2 = t * t;
    let t3 = t2 * t;
    let minus6t2 = t2 * -6.0f;
    var out = acc;
    if (value) {
        let v = data.x;
        out.x = acc.x + surflet_p(v * t3);
        let k = v * minus6t2;
        for (var a = 0u; a < dims; a++) {
            out[a + 1u] = acc[a + 1u] + surflet_p(k * d[a]);
        }
    } else {
        var gd = surflet_p(data.x * d.x) + surflet_p(data.y * d.y);
        if (dims == 3u) {
            gd = gd + surflet_p(data.z * d.z);
        }
        out.x = acc.x + surflet_p(t3 * gd);
        let k = gd * minus6t2;
        for (var a = 0u; a < dims; a++) {
            out[a + 1u] = acc[a + 1u] + (surflet_p(t3 * data[a]) + surflet_p(k * d[a]));
        }
    }
    return out;
}

fn surflet_corner_data(h: u32, value: bool, dims: u32) -> vec3<f32> {
    if (value) {
        return vec3<f32>(surflet_lattice_value(h), 0.0f, 0.0f);
    }
    if (dims == 2u) {
        return vec3<f32>(surflet_grad2(h), 0.0f);
    }
    return surflet_grad3_catlike(h);
}

// Scales the sum and adds NaN for non-finite input.
fn surflet_finish_sum(acc: vec4<f32>, nan: f32, scale: f32, dims: u32) -> vec4<f32> {
    var out = vec4<f32>(0.0f);
    out.x = surflet_p(acc.x * scale) + nan;
    for (var a = 0u; a < dims; a++) {
        out[a + 1u] = surflet_p(acc[a + 1u] * scale) + nan;
    }
    return out;
}

// The triangle of the classic lattice that holds p (kernel/simplex.rs
// locate2 and hash_corners2): its corners' offsets and finished hashes, the
// primed cell of corner 0, and whether it is the lower triangle.
struct SurfletTri2 {
    d0: vec2<f32>,
    d1: vec2<f32>,
    d2: vec2<f32>,
    h: vec3<u32>,
    ci: u32,
    cj: u32,
    x_first: bool,
}

fn surflet_tri2(key: u32, p: vec2<f32>) -> SurfletTri2 {
    let xi0 = floor(p.x);
    let xf = p.x - xi0;
    let yi0 = floor(p.y);
    let yf = p.y - yi0;
    // The cells' sum, reduced modulo 2^32 where it is past exactness.
    var xi = xi0;
    var yi = yi0;
    var k = xi + yi;
    if (!(abs(k) < 0x1p26f)) {
        xi = surflet_wrap32(xi, true);
        yi = surflet_wrap32(yi, true);
        k = xi + yi;
    }
    let sk = surflet_mul_split(k, SURFLET_F2_HI, SURFLET_F2_LO);
    let small = sk.y + surflet_p((xf + yf) * SURFLET_F2);
    let rx = xf + small;
    let ry = yf + small;
    let ix = floor(rx);
    let fx = rx - ix;
    let iy = floor(ry);
    let fy = ry - iy;
    let i = surflet_cell((xi + sk.x) + ix);
    let j = surflet_cell((yi + sk.x) + iy);
    let t = (fx + fy) * SURFLET_G2;
    let x0 = fx - surflet_p(t);
    let y0 = fy - surflet_p(t);
    let x_first = fx > fy;
    let x1 = (x0 - select(0.0f, 1.0f, x_first)) + SURFLET_G2;
    let y1 = (y0 - select(1.0f, 0.0f, x_first)) + SURFLET_G2;
    let x2 = x0 + SURFLET_G2_2_MINUS_1;
    let y2 = y0 + SURFLET_G2_2_MINUS_1;

    let ci = i * SURFLET_PRIME_X;
    let cj = j * SURFLET_PRIME_Y;
    let step = select(0u, 0xFFFFFFFFu, x_first);
    let h0 = surflet_lowbias32(key ^ (ci ^ cj));
    let h1 = surflet_lowbias32(key ^ ((ci + (step & SURFLET_PRIME_X)) ^ (cj + ((step ^ 0xFFFFFFFFu) & SURFLET_PRIME_Y))));
    let h2 = surflet_lowbias32(key ^ ((ci + SURFLET_PRIME_X) ^ (cj + SURFLET_PRIME_Y)));
    return SurfletTri2(vec2<f32>(x0, y0), vec2<f32>(x1, y1), vec2<f32>(x2, y2), vec3<u32>(h0, h1, h2), ci, cj, x_first);
}

// 2D on the classic equilateral lattice (skew (sqrt(3) - 1)/2), the skew
// computed on exact (cell, fraction) pairs: (value, d/dx, d/dy).
fn surflet_simplex2(key: u32, p: vec2<f32>, value: bool, scale: f32) -> vec3<f32> {
    let tri = surflet_tri2(key, p);
    var acc = vec4<f32>(0.0f);
    acc = surflet_corner(acc, surflet_corner_data(tri.h.x, value, 2u), vec3<f32>(tri.d0, 0.0f), value, 2u);
    acc = surflet_corner(acc, surflet_corner_data(tri.h.y, value, 2u), vec3<f32>(tri.d1, 0.0f), value, 2u);
    acc = surflet_corner(acc, surflet_corner_data(tri.h.z, value, 2u), vec3<f32>(tri.d2, 0.0f), value, 2u);
    return surflet_finish_sum(acc, surflet_poison2(p), scale, 2u).xyz;
}

// A BCC vertex wrapped into the tile [0, P)^3, in uvw coordinates
// (double: twice the period per axis).
fn surflet_wrap_bcc(n: vec3<u32>, double: vec3<u32>) -> vec3<u32> {
    var x2 = vec3<u32>((n.y + n.z) - n.x, (n.x + n.z) - n.y, (n.x + n.y) - n.z);
    for (var a = 0u; a < 3u; a++) {
        let p2 = double[a];
        x2[a] = select(x2[a], x2[a] + p2, 0 > bitcast<i32>(x2[a]));
        x2[a] = select(x2[a], x2[a] - p2, bitcast<i32>(x2[a]) > bitcast<i32>(p2 - 1u));
    }
    return vec3<u32>((x2.y + x2.z) >> 1u, (x2.x + x2.z) >> 1u, (x2.x + x2.y) >> 1u);
}

fn surflet_bcc_hash(key: u32, n: vec3<u32>) -> u32 {
    return surflet_lowbias32(((key ^ (n.x * SURFLET_PRIME_X)) ^ (n.y * SURFLET_PRIME_Y)) ^ (n.z * SURFLET_PRIME_Z));
}

// The tetrahedron of the axis-aligned BCC lattice that holds a point given
// as exact (cell, fraction) pairs per axis (kernel/simplex.rs bcc_tetra):
// its uvw base cell, its corners' offsets, and the steps to corners 1 and 2.
struct SurfletBcc {
    d0: vec3<f32>,
    d1: vec3<f32>,
    d2: vec3<f32>,
    d3: vec3<f32>,
    cells: vec3<u32>,
    o1: vec3<bool>,
    o2: vec3<bool>,
}

fn surflet_bcc_tetra(px: vec2<f32>, py: vec2<f32>, pz: vec2<f32>) -> SurfletBcc {
    // uvw = (y + z, x + z, x + y) as exact (cell, fraction) pairs.
    let su = py.y + pz.y;
    let cu = floor(su);
    let ui = (py.x + pz.x) + cu;
    let fu = su - cu;
    let sv = px.y + pz.y;
    let cv = floor(sv);
    let vi = (px.x + pz.x) + cv;
    let fv = sv - cv;
    let sw = px.y + py.y;
    let cw = floor(sw);
    let wi = (px.x + py.x) + cw;
    let fw = sw - cw;
    let mid = surflet_p(((fu + fv) + fw) * 0.5f);
    let d0 = vec3<f32>(mid - fu, mid - fv, mid - fw);
    let uv = fu >= fv;
    let uw = fu >= fw;
    let vw = fv >= fw;
    let o1 = vec3<bool>(uv && uw, !uv && vw, !uw && !vw);
    let o2 = vec3<bool>(uv || uw, !uv || vw, !uw || !vw);
    let d3 = d0 - vec3<f32>(0.5f);
    let d1 = d3 + select(vec3<f32>(0.0f), vec3<f32>(1.0f), o1);
    let d2 = (d0 - vec3<f32>(1.0f)) + select(vec3<f32>(0.0f), vec3<f32>(1.0f), o2);
    let cells = vec3<u32>(surflet_cell(ui), surflet_cell(vi), surflet_cell(wi));
    return SurfletBcc(d0, d1, d2, d3, cells, o1, o2);
}

// The finished hashes of a tetrahedron's corners, without a period
// (kernel/simplex.rs bcc_hashes).
fn surflet_bcc_hashes(key: u32, t: SurfletBcc) -> vec4<u32> {
    let prime = vec3<u32>(SURFLET_PRIME_X, SURFLET_PRIME_Y, SURFLET_PRIME_Z);
    let base = t.cells * prime;
    let s1 = base + (select(vec3<u32>(0u), vec3<u32>(0xFFFFFFFFu), t.o1) & prime);
    let s2 = base + (select(vec3<u32>(0u), vec3<u32>(0xFFFFFFFFu), t.o2) & prime);
    let s3 = base + prime;
    return vec4<u32>(
        surflet_lowbias32(key ^ ((base.x ^ base.y) ^ base.z)),
        surflet_lowbias32(((key ^ s1.x) ^ s1.y) ^ s1.z),
        surflet_lowbias32(((key ^ s2.x) ^ s2.y) ^ s2.z),
        surflet_lowbias32(((key ^ s3.x) ^ s3.y) ^ s3.z),
    );
}

// 3D on the axis-aligned body-centred cubic lattice: (value, d/dx, d/dy,
// d/dz).
fn surflet_simplex3(key: u32, p: vec3<f32>, value: bool, periodic: bool, per: vec3<f32>, inv: vec3<f32>, double: vec3<u32>, scale: f32) -> vec4<f32> {
    let px = surflet_split(p.x, periodic, per.x, inv.x);
    let py = surflet_split(p.y, periodic, per.y, inv.y);
    let pz = surflet_split(p.z, periodic, per.z, inv.z);
    let t = surflet_bcc_tetra(px, py, pz);
    var h = vec4<u32>(0u);
    if (periodic) {
        let o1u = select(vec3<u32>(0u), vec3<u32>(1u), t.o1);
        let o2u = select(vec3<u32>(0u), vec3<u32>(1u), t.o2);
        h.x = surflet_bcc_hash(key, surflet_wrap_bcc(t.cells, double));
        h.y = surflet_bcc_hash(key, surflet_wrap_bcc(t.cells + o1u, double));
        h.z = surflet_bcc_hash(key, surflet_wrap_bcc(t.cells + o2u, double));
        h.w = surflet_bcc_hash(key, surflet_wrap_bcc(t.cells + vec3<u32>(1u), double));
    } else {
        h = surflet_bcc_hashes(key, t);
    }
    var acc = vec4<f32>(0.0f);
    acc = surflet_corner(acc, surflet_corner_data(h.x, value, 3u), t.d0, value, 3u);
    acc = surflet_corner(acc, surflet_corner_data(h.y, value, 3u), t.d1, value, 3u);
    acc = surflet_corner(acc, surflet_corner_data(h.z, value, 3u), t.d2, value, 3u);
    acc = surflet_corner(acc, surflet_corner_data(h.w, value, 3u), t.d3, value, 3u);
    return surflet_finish_sum(acc, surflet_poison3(p), scale, 3u);
}

// The finished hash of hexagonal-lattice vertex (ci + ou, cj + ov), wrapped
// to its representative in the tile: rows wrap by the (even) y period,
// shifting u by half of it; then 2X = 2u - v wraps by twice the x period.
fn surflet_hex_vertex(key: u32, ci: u32, cj: u32, ou: u32, ov: u32, cells_y: u32, half_y: u32, double_x: u32) -> u32 {
    var u = ci + ou;
    var v = cj + ov;
    let row_wraps = v == cells_y;
    v = select(v, 0u, row_wraps);
    u = select(u, u - half_y, row_wraps);
    var x2 = (u + u) - v;
    x2 = select(x2, x2 + double_x, 0 > bitcast<i32>(x2));
    x2 = select(x2, x2 - double_x, bitcast<i32>(x2) > bitcast<i32>(double_x - 1u));
    let w = (x2 + v) >> 1u;
    return surflet_lowbias32(key ^ ((w * SURFLET_PRIME_X) ^ (v * SURFLET_PRIME_Y)));
}

// 2D periodic, on psrdnoise's hexagonal lattice: vertices at (u - v/2, v),
// evaluated in the frame scaled by (sqrt(2/3), sqrt(1/2)), where the
// triangles are those of surflet_simplex2. scale.x is the value's scale,
// scale.y and scale.z the gradient's along x and y.
fn surflet_simplex2_hex(key: u32, p: vec2<f32>, value: bool, per: vec2<f32>, inv: vec2<f32>, cells_y: u32, half_y: u32, double_x: u32, scale: vec3<f32>) -> vec3<f32> {
    let sx = surflet_split(p.x, true, per.x, inv.x);
    let sy = surflet_split(p.y, true, per.y, inv.y);
    let xi = sx.x;
    let xf = sx.y;
    let j = sy.x;
    let fb = sy.y;
    let jh = surflet_p(j * 0.5f);
    let hi = floor(jh);
    let hf = jh - hi;
    let ar = (xf + hf) + surflet_p(fb * 0.5f);
    let ai = floor(ar);
    let fa = ar - ai;
    let i = (xi + hi) + ai;
    let right_first = fa > fb;
    let dx0 = fa - surflet_p(fb * 0.5f);
    let dy0 = fb;
    let dx1 = dx0 - select(-0.5f, 1.0f, right_first);
    let dy1 = dy0 - select(1.0f, 0.0f, right_first);
    let dx2 = dx0 - 0.5f;
    let dy2 = dy0 - 1.0f;
    // The offsets opaque before they are scaled: a driver may distribute
    // (d - c) * k into d * k - c * k and fuse that (NVIDIA's did).
    let kx = SURFLET_HEX_SX;
    let ky = SURFLET_HEX_SY;
    let ci = surflet_cell(i);
    let cj = surflet_cell(j);
    let step_u = select(0u, 1u, right_first);
    let step_v = step_u ^ 1u;
    var acc = vec4<f32>(0.0f);
    let h0 = surflet_hex_vertex(key, ci, cj, 0u, 0u, cells_y, half_y, double_x);
    acc = surflet_corner(acc, surflet_corner_data(h0, value, 2u), vec3<f32>(surflet_p(dx0) * kx, surflet_p(dy0) * ky, 0.0f), value, 2u);
    let h1 = surflet_hex_vertex(key, ci, cj, step_u, step_v, cells_y, half_y, double_x);
    acc = surflet_corner(acc, surflet_corner_data(h1, value, 2u), vec3<f32>(surflet_p(dx1) * kx, surflet_p(dy1) * ky, 0.0f), value, 2u);
    let h2 = surflet_hex_vertex(key, ci, cj, 1u, 1u, cells_y, half_y, double_x);
    acc = surflet_corner(acc, surflet_corner_data(h2, value, 2u), vec3<f32>(surflet_p(dx2) * kx, surflet_p(dy2) * ky, 0.0f), value, 2u);
    let nan = surflet_poison2(p);
    return vec3<f32>(
        surflet_p(acc.x * scale.x) + nan,
        surflet_p(acc.y * scale.y) + nan,
        surflet_p(acc.z * scale.z) + nan,
    );
}

// 4D simplex gradients: 32 edge directions / sqrt(3) and 16 corner
// directions / 2 (kernel/gradients.rs grad4_simplex).
fn surflet_grad4_simplex(h: u32) -> vec4<f32> {
    let group = surflet_three_way(h);
    let low = (h >> 8u) & 1u;
    let zero_axis = (group + group) + low;
    let mag = select(SURFLET_FRAC_1_SQRT_3, 0.5f, group == 2u);
    return vec4<f32>(
        surflet_flip(h, 9u, select(mag, 0.0f, zero_axis == 0u)),
        surflet_flip(h, 10u, select(mag, 0.0f, zero_axis == 1u)),
        surflet_flip(h, 11u, select(mag, 0.0f, zero_axis == 2u)),
        surflet_flip(h, 12u, select(mag, 0.0f, zero_axis == 3u)),
    );
}

// One 4D corner's surflet added to acc (surflet_corner in 4D, written
// apart: the 2D and 3D kernels through one 4D body took lavapipe's
// compiler longer).
fn surflet_corner4(acc: SurfletSample4d, h: u32, d: vec4<f32>, value: bool) -> SurfletSample4d {
    let dd = ((surflet_p(d.x * d.x) + surflet_p(d.y * d.y)) + surflet_p(d.z * d.z)) + surflet_p(d.w * d.w);
    let t = surflet_max(0.5f - dd, 0.0f);
    let t2 = t * t;
    let t3 = t2 * t;
    let minus6t2 = t2 * -6.0f;
    var out = acc;
    if (value) {
        let v = surflet_lattice_value(h);
        out.value = acc.value + surflet_p(v * t3);
        let k = v * minus6t2;
        for (var a = 0u; a < 4u; a++) {
            out.gradient[a] = acc.gradient[a] + surflet_p(k * d[a]);
        }
    } else {
        let g = surflet_grad4_simplex(h);
        let gd = ((surflet_p(g.x * d.x) + surflet_p(g.y * d.y)) + surflet_p(g.z * d.z)) + surflet_p(g.w * d.w);
        out.value = acc.value + surflet_p(t3 * gd);
        let k = gd * minus6t2;
        for (var a = 0u; a < 4u; a++) {
            out.gradient[a] = acc.gradient[a] + (surflet_p(t3 * g[a]) + surflet_p(k * d[a]));
        }
    }
    return out;
}

// surflet_finish_sum in 4D: the sum scaled, NaN added for non-finite p
// (simplex4 and OpenSimplex2's 4D sum share it).
fn surflet_finish_sum4(acc: SurfletSample4d, p: vec4<f32>, scale: f32) -> SurfletSample4d {
    let nan = surflet_poison4(p);
    var out = SurfletSample4d(surflet_p(acc.value * scale) + nan, vec4<f32>(0.0f));
    for (var a = 0u; a < 4u; a++) {
        out.gradient[a] = surflet_p(acc.gradient[a] * scale) + nan;
    }
    return out;
}

// The skewed hypercube cell of a 4D point (kernel/simplex.rs Simp4): its
// primed base cell, the offset from the base corner, and the rank of each
// axis's fraction (0 smallest .. 3 largest).
struct SurfletSimp4 {
    base: vec4<u32>,
    d0: vec4<f32>,
    rank: vec4<u32>,
}

// Locates p on the classic skewed 4D lattice (skew (sqrt(5) - 1)/4), the
// skew computed on exact (cell, fraction) pairs (simplex4_lattice).
fn surflet_simplex4_lattice(p: vec4<f32>) -> SurfletSimp4 {
    var ints = floor(p);
    let fr = p - ints;
    let g = (fr.x + fr.y) + (fr.z + fr.w);
    // The cells' sum, pairwise, reduced modulo 2^32 where it is past
    // exactness.
    var k = (ints.x + ints.y) + (ints.z + ints.w);
    if (!(abs(k) < 0x1p26f)) {
        for (var a = 0u; a < 4u; a++) {
            ints[a] = surflet_wrap32(ints[a], true);
        }
        k = (ints.x + ints.y) + (ints.z + ints.w);
    }
    let sk = surflet_mul_split(k, SURFLET_F4_HI, SURFLET_F4_LO);
    let small = sk.y + surflet_p(g * SURFLET_F4);
    var f = vec4<f32>(0.0f);
    var base = vec4<u32>(0u);
    let prime = vec4<u32>(SURFLET_PRIME_X, SURFLET_PRIME_Y, SURFLET_PRIME_Z, SURFLET_PRIME_W);
    for (var a = 0u; a < 4u; a++) {
        let r = fr[a] + small;
        let ri = floor(r);
        f[a] = r - ri;
        base[a] = surflet_cell((ints[a] + sk.x) + ri) * prime[a];
    }
    let t = surflet_p(((f.x + f.y) + (f.z + f.w)) * SURFLET_G4);
    // Ranks 0..=3 of the fractions; a tie goes to the higher axis.
    var rank = vec4<u32>(0u);
    for (var a = 0u; a < 4u; a++) {
        for (var b = a + 1u; b < 4u; b++) {
            let a_wins = select(0u, 1u, f[a] > f[b]);
            rank[a] = rank[a] + a_wins;
            rank[b] = rank[b] + (a_wins ^ 1u);
        }
    }
    return SurfletSimp4(base, f - vec4<f32>(t), rank);
}

// A corner's finished hash and offset.
struct SurfletCorner4 {
    h: u32,
    d: vec4<f32>,
}

// Corner k (0..=4) of the simplex that holds the point
// (simplex4_corners): k unit steps from the base cell, along the axes of
// the k largest fractions. k * G4 is opaque: with it constant, lavapipe
// reassociated (d0 - step) + k * G4, and 4D simplex values came out an
// ulp or two off.
fn surflet_simplex4_corner(key: u32, lat: SurfletSimp4, k: u32) -> SurfletCorner4 {
    let b = lat.base;
    if (k == 0u) {
        return SurfletCorner4(surflet_lowbias32((((key ^ b.x) ^ b.y) ^ b.z) ^ b.w), lat.d0);
    }
    // rank > 3 - k.
    let o = (lat.rank + vec4<u32>(k)) > vec4<u32>(3u);
    let kg = surflet_p(select(select(select(SURFLET_G4_4, SURFLET_G4_3, k == 3u), SURFLET_G4_2, k == 2u), SURFLET_G4_1, k == 1u));
    let prime = vec4<u32>(SURFLET_PRIME_X, SURFLET_PRIME_Y, SURFLET_PRIME_Z, SURFLET_PRIME_W);
    let step = b + (select(vec4<u32>(0u), vec4<u32>(0xFFFFFFFFu), o) & prime);
    var d = lat.d0;
    for (var a = 0u; a < 4u; a++) {
        d[a] = (lat.d0[a] - select(0.0f, 1.0f, o[a])) + kg;
    }
    return SurfletCorner4(surflet_lowbias32((((key ^ step.x) ^ step.y) ^ step.z) ^ step.w), d);
}

// 4D on the classic skewed lattice with Gustavson's rank ordering
// (kernel/simplex.rs simplex4).
fn surflet_simplex4(key: u32, p: vec4<f32>, value: bool, scale: f32) -> SurfletSample4d {
    let lat = surflet_simplex4_lattice(p);
    var acc = SurfletSample4d(0.0f, vec4<f32>(0.0f));
    for (var k = 0u; k < 5u; k++) {
        let c = surflet_simplex4_corner(key, lat, k);
        acc = surflet_corner4(acc, c.h, c.d, value);
    }
    return surflet_finish_sum4(acc, p, scale);
}
