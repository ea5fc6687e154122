// surflet: value and Perlin noise in 2D, 3D and 4D, kernel/hypercube.rs
// operation for operation.
//
// Corners are blended in kernel order: the axes rotated so that y comes
// first (2D: y, x; 3D: y, z, x; 4D: y, z, w, x). Every axis but y is blended into a column
// per y side of the cell, a + b*d_y with the y part of the ramps (b) kept
// apart, and the two columns are blended along y last. The gradient is
// carried through each blend exactly.

// A node of the blend. da and db hold the derivatives along kernel axes 1
// to 3 in their y, z and w components (x is unused).
struct SurfletNode {
    a: f32,
    b: f32,
    da: vec4<f32>,
    db: vec4<f32>,
}

// One axis: x.x the exact fraction, x.y the fade, x.z its derivative; the
// primed near and far lattice coordinates come back in lo/hi.
struct SurfletAxis {
    frac: f32,
    u: f32,
    du: f32,
    lo: u32,
    hi: u32,
}

// The cell and exact fraction of x (kernel/lattice.rs split and
// split_periodic): with a period, the cell is reduced into [0, P).
fn surflet_split(x: f32, periodic: bool, p: f32, inv: f32) -> vec2<f32> {
    let c = floor(x);
    let f = x - c;
    if (!periodic) {
        return vec2<f32>(c, f);
    }
    let q = floor(c * inv);
    var m = c - surflet_p(q * p);
    m = select(m, m + p, m < 0.0f);
    m = select(m, m - p, m >= p);
    let last = p - 1.0f;
    return vec2<f32>(surflet_min(last, surflet_max(0.0f, m)), f);
}

fn surflet_axis(x: f32, prime: u32, periodic: bool, p: f32, inv: f32, cells: u32) -> SurfletAxis {
    let s = surflet_split(x, periodic, p, inv);
    let c = surflet_cell(s.x);
    let lo = c * prime;
    var hi = lo + prime;
    if (periodic) {
        let next = c + 1u;
        hi = select(next, 0u, next == cells) * prime;
    }
    let fd = surflet_fade(s.y);
    return SurfletAxis(s.y, fd.x, fd.y, lo, hi);
}

// A Perlin corner's node: gradient g in kernel order, on the sides `k` of
// kernel axes 1.. (bit a - 1 set: far side of kernel axis a).
fn surflet_ramp(g: vec4<f32>, frac: vec4<f32>, k: u32, dims: u32) -> SurfletNode {
    var r = 0.0f;
    for (var a = 1u; a < dims; a++) {
        let d = select(frac[a], frac[a] - 1.0f, ((k >> (a - 1u)) & 1u) == 1u);
        let t = g[a] * d;
        r = select(r + surflet_p(t), t, a == 1u);
    }
    return SurfletNode(r, g.x, g, vec4<f32>(0.0f));
}

// Blends the near node l and far node h along kernel axis a (>= 1).
fn surflet_blend(a: u32, l: SurfletNode, h: SurfletNode, u: f32, du: f32, perlin: bool, dims: u32) -> SurfletNode {
    let diff = h.a - l.a;
    var da = vec4<f32>(0.0f);
    for (var b = 1u; b < dims; b++) {
        if (!perlin && b > a) {
            continue;
        }
        if (!perlin && b == a) {
            da[b] = du * diff;
        } else {
            let g = l.da[b] + surflet_p(u * (h.da[b] - l.da[b]));
            da[b] = select(g, g + surflet_p(du * diff), b == a);
        }
    }
    var db = vec4<f32>(0.0f);
    var bv = 0.0f;
    if (perlin) {
        let bdiff = h.b - l.b;
        for (var b = 1u; b < a; b++) {
            db[b] = l.db[b] + surflet_p(u * (h.db[b] - l.db[b]));
        }
        db[a] = du * bdiff;
        bv = l.b + surflet_p(u * bdiff);
    }
    return SurfletNode(l.a + surflet_p(u * diff), bv, da, db);
}

// The two columns blended along y: the value and the gradient in kernel
// order.
fn surflet_finish(c0: SurfletNode, c1: SurfletNode, y: SurfletAxis, nan: f32, scale: f32, perlin: bool, dims: u32) -> SurfletSample4d {
    let frac = y.frac;
    let u = y.u;
    let du = y.du;
    let d1 = frac - 1.0f;
    var v0 = c0.a;
    var v1 = c1.a;
    if (perlin) {
        v0 = c0.a + surflet_p(c0.b * frac);
        v1 = c1.a + surflet_p(c1.b * d1);
    }
    let diff = v1 - v0;
    let val = v0 + surflet_p(u * diff);
    var g = vec4<f32>(0.0f);
    if (perlin) {
        g.x = (c0.b + surflet_p(u * (c1.b - c0.b))) + surflet_p(du * diff);
    } else {
        g.x = du * diff;
    }
    for (var bi = 1u; bi < dims; bi++) {
        var w0 = c0.da[bi];
        var w1 = c1.da[bi];
        if (perlin) {
            w0 = c0.da[bi] + surflet_p(c0.db[bi] * frac);
            w1 = c1.da[bi] + surflet_p(c1.db[bi] * d1);
        }
        g[bi] = w0 + surflet_p(u * (w1 - w0));
    }
    var out = SurfletSample4d(val, g);
    if (perlin) {
        out.value = surflet_p(val * scale);
        for (var bi = 0u; bi < dims; bi++) {
            out.gradient[bi] = surflet_p(g[bi] * scale);
        }
    }
    out.value = out.value + nan;
    for (var bi = 0u; bi < dims; bi++) {
        out.gradient[bi] = out.gradient[bi] + nan;
    }
    return out;
}

// A value-noise corner's node.
fn surflet_value_node(h: u32) -> SurfletNode {
    return SurfletNode(surflet_lattice_value(h), 0.0f, vec4<f32>(0.0f), vec4<f32>(0.0f));
}

// Value (perlin = false) or Perlin noise in 2D: (value, d/dx, d/dy).
fn surflet_hypercube2(key: u32, p: vec2<f32>, perlin: bool, periodic: bool, per: vec2<f32>, inv: vec2<f32>, cells: vec2<u32>, scale: f32) -> vec3<f32> {
    let ax = surflet_axis(p.x, SURFLET_PRIME_X, periodic, per.x, inv.x, cells.x);
    let ay = surflet_axis(p.y, SURFLET_PRIME_Y, periodic, per.y, inv.y, cells.y);
    let frac = vec4<f32>(ay.frac, ax.frac, 0.0f, 0.0f);
    var col: array<SurfletNode, 2>;
    for (var side = 0u; side < 2u; side++) {
        let base = key ^ select(ay.lo, ay.hi, side == 1u);
        var node: array<SurfletNode, 2>;
        for (var k = 0u; k < 2u; k++) {
            let h = surflet_lowbias32(base ^ select(ax.lo, ax.hi, k == 1u));
            if (perlin) {
                let g = surflet_grad2(h);
                node[k] = surflet_ramp(vec4<f32>(g.y, g.x, 0.0f, 0.0f), frac, k, 2u);
            } else {
                node[k] = surflet_value_node(h);
            }
        }
        col[side] = surflet_blend(1u, node[0], node[1], ax.u, ax.du, perlin, 2u);
    }
    let r = surflet_finish(col[0], col[1], ay, surflet_poison2(p), scale, perlin, 2u);
    return vec3<f32>(r.value, r.gradient.y, r.gradient.x);
}

// Value (perlin = false) or Perlin noise in 3D: (value, d/dx, d/dy, d/dz).
fn surflet_hypercube3(key: u32, p: vec3<f32>, perlin: bool, periodic: bool, per: vec3<f32>, inv: vec3<f32>, cells: vec3<u32>, scale: f32) -> vec4<f32> {
    let ax = surflet_axis(p.x, SURFLET_PRIME_X, periodic, per.x, inv.x, cells.x);
    let ay = surflet_axis(p.y, SURFLET_PRIME_Y, periodic, per.y, inv.y, cells.y);
    let az = surflet_axis(p.z, SURFLET_PRIME_Z, periodic, per.z, inv.z, cells.z);
    // Kernel order: y, z, x.
    let frac = vec4<f32>(ay.frac, az.frac, ax.frac, 0.0f);
    var col: array<SurfletNode, 2>;
    for (var side = 0u; side < 2u; side++) {
        let base = key ^ select(ay.lo, ay.hi, side == 1u);
        var node: array<SurfletNode, 4>;
        for (var k = 0u; k < 4u; k++) {
            let zs = select(az.lo, az.hi, (k & 1u) == 1u);
            let xs = select(ax.lo, ax.hi, ((k >> 1u) & 1u) == 1u);
            let h = surflet_lowbias32((base ^ zs) ^ xs);
            if (perlin) {
                let g = surflet_grad3_edges(h);
                node[k] = surflet_ramp(vec4<f32>(g.y, g.z, g.x, 0.0f), frac, k, 3u);
            } else {
                node[k] = surflet_value_node(h);
            }
        }
        let n0 = surflet_blend(1u, node[0], node[1], az.u, az.du, perlin, 3u);
        let n1 = surflet_blend(1u, node[2], node[3], az.u, az.du, perlin, 3u);
        col[side] = surflet_blend(2u, n0, n1, ax.u, ax.du, perlin, 3u);
    }
    let r = surflet_finish(col[0], col[1], ay, surflet_poison3(p), scale, perlin, 3u);
    // Kernel order (y, z, x) back to x, y, z.
    return vec4<f32>(r.value, r.gradient.z, r.gradient.x, r.gradient.y);
}

// Value (perlin = false) or Perlin noise in 4D.
fn surflet_hypercube4(key: u32, p: vec4<f32>, perlin: bool, periodic: bool, per: vec4<f32>, inv: vec4<f32>, cells: vec4<u32>, scale: f32) -> SurfletSample4d {
    let ax = surflet_axis(p.x, SURFLET_PRIME_X, periodic, per.x, inv.x, cells.x);
    let ay = surflet_axis(p.y, SURFLET_PRIME_Y, periodic, per.y, inv.y, cells.y);
    let az = surflet_axis(p.z, SURFLET_PRIME_Z, periodic, per.z, inv.z, cells.z);
    let aw = surflet_axis(p.w, SURFLET_PRIME_W, periodic, per.w, inv.w, cells.w);
    // Kernel order: y, z, w, x; corner bits: z, w, x.
    let frac = vec4<f32>(ay.frac, az.frac, aw.frac, ax.frac);
    var col: array<SurfletNode, 2>;
    for (var side = 0u; side < 2u; side++) {
        let base = key ^ select(ay.lo, ay.hi, side == 1u);
        var node: array<SurfletNode, 8>;
        for (var k = 0u; k < 8u; k++) {
            let zs = select(az.lo, az.hi, (k & 1u) == 1u);
            let ws = select(aw.lo, aw.hi, ((k >> 1u) & 1u) == 1u);
            let xs = select(ax.lo, ax.hi, ((k >> 2u) & 1u) == 1u);
            let h = surflet_lowbias32(((base ^ zs) ^ ws) ^ xs);
            if (perlin) {
                let g = surflet_grad4_edges(h);
                node[k] = surflet_ramp(vec4<f32>(g.y, g.z, g.w, g.x), frac, k, 4u);
            } else {
                node[k] = surflet_value_node(h);
            }
        }
        var n1: array<SurfletNode, 4>;
        for (var m = 0u; m < 4u; m++) {
            n1[m] = surflet_blend(1u, node[2u * m], node[2u * m + 1u], az.u, az.du, perlin, 4u);
        }
        let n2a = surflet_blend(2u, n1[0], n1[1], aw.u, aw.du, perlin, 4u);
        let n2b = surflet_blend(2u, n1[2], n1[3], aw.u, aw.du, perlin, 4u);
        col[side] = surflet_blend(3u, n2a, n2b, ax.u, ax.du, perlin, 4u);
    }
    let r = surflet_finish(col[0], col[1], ay, surflet_poison4(p), scale, perlin, 4u);
    // Kernel order (y, z, w, x) back to x, y, z, w.
    return SurfletSample4d(r.value, vec4<f32>(r.gradient.w, r.gradient.x, r.gradient.y, r.gradient.z));
}
