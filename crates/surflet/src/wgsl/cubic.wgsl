// surflet: cubic value noise in 2D, 3D and 4D, kernel/cubic.rs operation
// for operation: Catmull-Rom splines through value noise's lattice values,
// x interpolated first, then y, then z, then w, each step carrying the
// gradient.
// Uses surflet_split of hypercube.wgsl.
//
// Every step of the splines is opaque (surflet_p), sums too, not only
// products: lavapipe reorders chains of sums here (it rewrote (c - a) + p,
// p the opaque product term, into another order of the three operands,
// which rounds differently: about a quarter of the values were 1 to 5 ulps
// off, the difference that kept the first port out), and with only c - a
// opaque it still did so in the gradient's splines.

// The spline's t^2 and t^3 coefficients (times 2): 2a - 5b + 4c - d and
// 3(b - c) + d - a.
fn surflet_cubic_coefficients(w: vec4<f32>) -> vec2<f32> {
    let c2 = surflet_p(surflet_p(surflet_p((w.x + w.x) - surflet_p(5.0f * w.y)) + surflet_p(4.0f * w.z)) - w.w);
    let bc = surflet_p(w.y - w.z);
    let c3 = surflet_p(surflet_p(surflet_p((bc + bc) + bc) + w.w) - w.x);
    return vec2<f32>(c2, c3);
}

// The Catmull-Rom spline through w.y (at 0) and w.z (at 1) at t.
fn surflet_spline(t: f32, w: vec4<f32>) -> f32 {
    let k = surflet_cubic_coefficients(w);
    let c1 = surflet_p(w.z - w.x);
    let inner = surflet_p(c1 + surflet_p(t * surflet_p(k.x + surflet_p(t * k.y))));
    return w.y + surflet_p((0.5f * t) * inner);
}

// Its derivative in t.
fn surflet_spline_slope(t: f32, w: vec4<f32>) -> f32 {
    let k = surflet_cubic_coefficients(w);
    let c1 = surflet_p(w.z - w.x);
    let two_c2 = surflet_p(k.x + k.x);
    let three_c3 = surflet_p((k.y + k.y) + k.y);
    let inner = surflet_p(c1 + surflet_p(t * surflet_p(two_c2 + surflet_p(t * three_c3))));
    return surflet_p(0.5f * inner);
}

// The four primed lattice positions i - 1 ... i + 2 of one axis (wrapped
// into the tile where periodic), and the fraction.
struct SurfletCubicAxis {
    pos: vec4<u32>,
    t: f32,
}

fn surflet_cubic_next(c: u32, n: u32) -> u32 {
    let y = c + 1u;
    return select(y, 0u, y == n);
}

fn surflet_cubic_axis(x: f32, prime: u32, periodic: bool, p: f32, inv: f32, n: u32) -> SurfletCubicAxis {
    let s = surflet_split(x, periodic, p, inv);
    let c = surflet_cell(s.x);
    var cells = vec4<u32>(c - 1u, c, c + 1u, c + 2u);
    if (periodic) {
        let c1 = surflet_cubic_next(c, n);
        cells = vec4<u32>(select(c - 1u, n - 1u, c == 0u), c, c1, surflet_cubic_next(c1, n));
    }
    return SurfletCubicAxis(cells * prime, s.y);
}

fn surflet_cubic_value(key: u32, h: u32) -> f32 {
    return surflet_lattice_value(surflet_lowbias32(key ^ h));
}

// The spline along x through the 4 lattice values of a row (the other
// axes' primed positions xored into `row`), and its slope.
fn surflet_cubic_row(key: u32, ax: SurfletCubicAxis, row: u32) -> vec2<f32> {
    let w = vec4<f32>(
        surflet_cubic_value(key, ax.pos[0] ^ row),
        surflet_cubic_value(key, ax.pos[1] ^ row),
        surflet_cubic_value(key, ax.pos[2] ^ row),
        surflet_cubic_value(key, ax.pos[3] ^ row),
    );
    return vec2<f32>(surflet_spline(ax.t, w), surflet_spline_slope(ax.t, w));
}

// 2D: (value, d/dx, d/dy).
fn surflet_cubic2(key: u32, p: vec2<f32>, periodic: bool, per: vec2<f32>, inv: vec2<f32>, cells: vec2<u32>, scale: f32) -> vec3<f32> {
    let ax = surflet_cubic_axis(p.x, SURFLET_PRIME_X, periodic, per.x, inv.x, cells.x);
    let ay = surflet_cubic_axis(p.y, SURFLET_PRIME_Y, periodic, per.y, inv.y, cells.y);
    var v: array<f32, 4>;
    var dx: array<f32, 4>;
    for (var j = 0u; j < 4u; j++) {
        let row = ay.pos[j];
        let r = surflet_cubic_row(key, ax, row);
        v[j] = r.x;
        dx[j] = r.y;
    }
    let wv = vec4<f32>(v[0], v[1], v[2], v[3]);
    let wx = vec4<f32>(dx[0], dx[1], dx[2], dx[3]);
    let val = surflet_spline(ay.t, wv);
    let gx = surflet_spline(ay.t, wx);
    let gy = surflet_spline_slope(ay.t, wv);
    return vec3<f32>(surflet_p(val * scale) + surflet_poison2(p), gx * scale, gy * scale);
}

// The splines along y and z at one position on w (w, the w axis's primed
// position, xored into every row; 0 in 3D): (value, d/dx, d/dy, d/dz).
fn surflet_cubic_block(key: u32, ax: SurfletCubicAxis, ay: SurfletCubicAxis, az: SurfletCubicAxis, w: u32) -> vec4<f32> {
    var pv: array<f32, 4>;
    var px: array<f32, 4>;
    var py: array<f32, 4>;
    for (var k = 0u; k < 4u; k++) {
        var v: array<f32, 4>;
        var dx: array<f32, 4>;
        for (var j = 0u; j < 4u; j++) {
            let r = surflet_cubic_row(key, ax, (ay.pos[j] ^ az.pos[k]) ^ w);
            v[j] = r.x;
            dx[j] = r.y;
        }
        let wv = vec4<f32>(v[0], v[1], v[2], v[3]);
        pv[k] = surflet_spline(ay.t, wv);
        px[k] = surflet_spline(ay.t, vec4<f32>(dx[0], dx[1], dx[2], dx[3]));
        py[k] = surflet_spline_slope(ay.t, wv);
    }
    let wv = vec4<f32>(pv[0], pv[1], pv[2], pv[3]);
    return vec4<f32>(
        surflet_spline(az.t, wv),
        surflet_spline(az.t, vec4<f32>(px[0], px[1], px[2], px[3])),
        surflet_spline(az.t, vec4<f32>(py[0], py[1], py[2], py[3])),
        surflet_spline_slope(az.t, wv),
    );
}

// 3D: (value, d/dx, d/dy, d/dz).
fn surflet_cubic3(key: u32, p: vec3<f32>, periodic: bool, per: vec3<f32>, inv: vec3<f32>, cells: vec3<u32>, scale: f32) -> vec4<f32> {
    let ax = surflet_cubic_axis(p.x, SURFLET_PRIME_X, periodic, per.x, inv.x, cells.x);
    let ay = surflet_cubic_axis(p.y, SURFLET_PRIME_Y, periodic, per.y, inv.y, cells.y);
    let az = surflet_cubic_axis(p.z, SURFLET_PRIME_Z, periodic, per.z, inv.z, cells.z);
    // No w axis: nothing to xor into the rows.
    let r = surflet_cubic_block(key, ax, ay, az, 0u);
    return vec4<f32>(surflet_p(r.x * scale) + surflet_poison3(p), r.yzw * scale);
}

// 4D: the value and its gradient.
fn surflet_cubic4(key: u32, p: vec4<f32>, periodic: bool, per: vec4<f32>, inv: vec4<f32>, cells: vec4<u32>, scale: f32) -> SurfletSample4d {
    let ax = surflet_cubic_axis(p.x, SURFLET_PRIME_X, periodic, per.x, inv.x, cells.x);
    let ay = surflet_cubic_axis(p.y, SURFLET_PRIME_Y, periodic, per.y, inv.y, cells.y);
    let az = surflet_cubic_axis(p.z, SURFLET_PRIME_Z, periodic, per.z, inv.z, cells.z);
    let aw = surflet_cubic_axis(p.w, SURFLET_PRIME_W, periodic, per.w, inv.w, cells.w);
    var b: array<vec4<f32>, 4>;
    for (var l = 0u; l < 4u; l++) {
        b[l] = surflet_cubic_block(key, ax, ay, az, aw.pos[l]);
    }
    let wv = vec4<f32>(b[0].x, b[1].x, b[2].x, b[3].x);
    let val = surflet_spline(aw.t, wv);
    let gx = surflet_spline(aw.t, vec4<f32>(b[0].y, b[1].y, b[2].y, b[3].y));
    let gy = surflet_spline(aw.t, vec4<f32>(b[0].z, b[1].z, b[2].z, b[3].z));
    let gz = surflet_spline(aw.t, vec4<f32>(b[0].w, b[1].w, b[2].w, b[3].w));
    let gw = surflet_spline_slope(aw.t, wv);
    return SurfletSample4d(surflet_p(val * scale) + surflet_poison4(p), vec4<f32>(gx, gy, gz, gw) * scale);
}
