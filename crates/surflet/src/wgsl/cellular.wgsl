// surflet: cellular (Worley) noise in 2D, 3D and 4D, kernel/cellular.rs
// operation for operation, with the CPU's exact branch-and-bound search run
// per invocation. Its result does not depend on which extra cells a search
// visits (the proof in kernel/cellular.rs), so one invocation's own search
// gives the bits of the CPU's vector search.
//
// Distances (dist): 0 euclidean, 1 euclidean squared, 2 manhattan,
// 3 chebyshev, 4 hybrid. Returns (ret): 0 f1, 1 f2, 2 f2 - f1, 3 f1 + f2,
// 4 f1 * f2, 5 f1 / f2, 6 the cell value.

// An infinity the compiler cannot fold.
fn surflet_inf() -> f32 {
    return bitcast<f32>(0x7f800000u ^ surflet_zero);
}

// The per-axis term of a distance, on x = |d| >= 0.
fn surflet_cell_term(dist: u32, x: f32) -> f32 {
    if (dist <= 1u) {
        return surflet_p(x * x);
    }
    if (dist == 4u) {
        return surflet_p(x * x) + x;
    }
    return x;
}

// A term added to a partial distance.
fn surflet_cell_combine(dist: u32, acc: f32, t: f32) -> f32 {
    if (dist == 3u) {
        return surflet_max(acc, t);
    }
    return acc + t;
}

// The visit order on an axis: 0, 1, -1, 2, -2, ...
fn surflet_cell_offset(i: i32) -> i32 {
    if ((i & 1) == 1) {
        return (i + 1) / 2;
    }
    return -(i / 2);
}

// An integer-valued c reduced into [0, P).
fn surflet_cell_wrap(c: f32, p: f32, inv: f32) -> f32 {
    let q = floor(c * inv);
    var m = c - surflet_p(q * p);
    m = select(m, m + p, m < 0.0f);
    return select(m, m - p, m >= p);
}

fn surflet_sign(x: f32) -> f32 {
    return select(0.0f, 1.0f, x > 0.0f) - select(0.0f, 1.0f, x < 0.0f);
}

// -d dist/dd at offset d (the gradient with respect to the point).
fn surflet_cell_gradient(dist: u32, d: vec4<f32>, value: f32, dims: u32) -> vec4<f32> {
    var g = vec4<f32>(0.0f);
    if (dist == 0u) {
        let safe = value > 0.0f;
        let inv = surflet_div(1.0f, select(1.0f, value, safe));
        for (var a = 0u; a < dims; a++) {
            g[a] = select(0.0f, -(d[a] * inv), safe);
        }
    } else if (dist == 1u) {
        for (var a = 0u; a < dims; a++) {
            g[a] = d[a] * -2.0f;
        }
    } else if (dist == 2u) {
        for (var a = 0u; a < dims; a++) {
            g[a] = -surflet_sign(d[a]);
        }
    } else if (dist == 4u) {
        for (var a = 0u; a < dims; a++) {
            g[a] = -(surflet_p(d[a] * 2.0f) + surflet_sign(d[a]));
        }
    } else {
        // The first axis of the largest |d|.
        var best = abs(d.x);
        var pick = vec4<bool>(true, false, false, false);
        for (var a = 1u; a < dims; a++) {
            let x = abs(d[a]);
            let gt = x > best;
            for (var b = 0u; b < a; b++) {
                pick[b] = pick[b] && !gt;
            }
            pick[a] = gt;
            best = surflet_max(x, best);
        }
        for (var a = 0u; a < dims; a++) {
            g[a] = select(0.0f, -surflet_sign(d[a]), pick[a]);
        }
    }
    return g;
}

// Cellular noise: the value and its gradient (only the first dims
// components). The point is p (its unused components 0); per, inv: the
// periods and their reciprocals where periodic.
fn surflet_cellular(key: u32, p: vec4<f32>, dims: u32, periodic: bool, per: vec4<f32>, inv: vec4<f32>, dist: u32, ret: u32, jitter: f32, reach: f32, mid: f32, scale: f32) -> SurfletSample4d {
    // Where the point lies: 1/2 - f per axis, and the cell.
    var h_f = vec4<f32>(0.0f);
    var cell_u = vec4<u32>(0u);
    var cell_f = vec4<f32>(0.0f);
    for (var a = 0u; a < dims; a++) {
        let s = surflet_split(p[a], periodic, per[a], inv[a]);
        // NaN (from NaN or infinite input) would keep the search going:
        // search at f = 0, c = 0, and poison the result at the end.
        let f = surflet_max(s.y, 0.0f);
        h_f[a] = 0.5f - f;
        if (periodic) {
            cell_f[a] = surflet_max(s.x, 0.0f);
        } else {
            cell_u[a] = surflet_cell(s.x);
        }
    }
    let primes = vec4<u32>(SURFLET_PRIME_X, SURFLET_PRIME_Y, SURFLET_PRIME_Z, SURFLET_PRIME_W);

    // The two nearest feature points (f1 squared for euclidean until the
    // end), and the hash of the nearest one's cell.
    var f1 = surflet_inf();
    var f2 = surflet_inf();
    var d1 = vec4<f32>(0.0f);
    var d2 = vec4<f32>(0.0f);
    var h1 = 0u;

    // Per axis: the visit, the sides finished, the bound with the axes
    // from it up fixed, and the fixed cell's b and primed coordinate.
    let cap = i32(dims) + 2;
    // f1 and the cell value read the nearest point only: the bound is f1
    // (the CPU's search and its proof, kernel/cellular.rs).
    let nearest_only = ret == 0u || ret == 6u;
    var idx = vec4<i32>(0);
    var done_lo = vec4<bool>(false);
    var done_hi = vec4<bool>(false);
    var bnd = vec4<f32>(0.0f);
    var b = vec4<f32>(0.0f);
    var primed = vec4<u32>(0u);
    var level = dims - 1u;
    loop {
        let i = idx[level];
        if (i > 2 * cap || (done_lo[level] && done_hi[level])) {
            if (level == dims - 1u) {
                break;
            }
            level += 1u;
            idx[level] += 1;
            continue;
        }
        let k = surflet_cell_offset(i);
        let hi_side = k < 0;
        if ((hi_side && done_hi[level]) || (!hi_side && done_lo[level])) {
            idx[level] += 1;
            continue;
        }
        let bk = f32(k) + h_f[level];
        let l = surflet_max(abs(bk) - reach, 0.0f);
        var outer = surflet_p(0.0f);
        if (level != dims - 1u) {
            outer = bnd[level + 1u];
        }
        let lb = surflet_cell_combine(dist, outer, surflet_cell_term(dist, l));
        if (!(lb < select(f2, f1, nearest_only))) {
            if (hi_side) {
                done_hi[level] = true;
            } else {
                done_lo[level] = true;
            }
            if (k == 0) {
                done_hi[level] = true;
            }
            idx[level] += 1;
            continue;
        }
        b[level] = bk;
        bnd[level] = lb;
        if (periodic) {
            let c = surflet_cell_wrap(cell_f[level] + f32(k), per[level], inv[level]);
            primed[level] = bitcast<u32>(i32(c)) * primes[level];
        } else {
            primed[level] = (cell_u[level] + bitcast<u32>(k)) * primes[level];
        }
        if (level > 0u) {
            level -= 1u;
            idx[level] = 0;
            done_lo[level] = false;
            done_hi[level] = false;
            continue;
        }
        idx[0] += 1;

        // Visit the cell: its point's offset d = b + j (u - 1/2), and its
        // distance, the outermost axis first (the bound's order).
        var h = key;
        for (var a = 0u; a < dims; a++) {
            h = h ^ primed[a];
        }
        h = surflet_lowbias32(h);
        var h2 = h;
        if (dims > 2u) {
            h2 = surflet_lowbias32(h ^ SURFLET_CELL_SALT_UV);
        }
        var d = vec4<f32>(0.0f);
        var dk = surflet_p(0.0f);
        for (var r = 0u; r < dims; r++) {
            let a = dims - 1u - r;
            var bits = h >> 16u;
            if (a == 1u) {
                bits = h & 0xFFFFu;
            } else if (a == 2u) {
                bits = h2 >> 16u;
            } else if (a == 3u) {
                bits = h2 & 0xFFFFu;
            }
            let u = surflet_p(f32(bits) * 0x1p-16f);
            d[a] = b[a] + surflet_p(jitter * (u - 0.5f));
            dk = surflet_cell_combine(dist, dk, surflet_cell_term(dist, abs(d[a])));
        }
        let lt1 = dk < f1;
        let lt2 = dk < f2;
        f2 = select(select(f2, dk, lt2), f1, lt1);
        d2 = select(select(d2, d, lt2), d1, lt1);
        d1 = select(d1, d, lt1);
        f1 = select(f1, dk, lt1);
        h1 = select(h1, h, lt1);
    }

    if (dist == 0u) {
        f1 = surflet_sqrt(f1);
        f2 = surflet_sqrt(f2);
    }
    var nan = surflet_poison2(p.xy);
    if (dims == 3u) {
        nan = surflet_poison3(p.xyz);
    } else if (dims == 4u) {
        nan = surflet_poison4(p);
    }
    if (ret == 6u) {
        let v = surflet_lattice_value(surflet_lowbias32(h1 ^ SURFLET_CELL_SALT_VALUE));
        return SurfletSample4d(v + nan, vec4<f32>(surflet_p(0.0f) + nan));
    }
    let g1 = surflet_cell_gradient(dist, d1, f1, dims);
    let g2 = surflet_cell_gradient(dist, d2, f2, dims);
    var v = f1;
    var g = g1;
    if (ret == 1u) {
        v = f2;
        g = g2;
    } else if (ret == 2u) {
        v = surflet_p(f2 - f1);
        g = surflet_p4(g2 - g1);
    } else if (ret == 3u) {
        v = surflet_p(f1 + f2);
        g = surflet_p4(g1 + g2);
    } else if (ret == 4u) {
        v = surflet_p(f1 * f2);
        g = surflet_p4(g1 * f2) + surflet_p4(f1 * g2);
    } else if (ret == 5u) {
        // f2 = 0 only where two points coincide with p: the ratio (a tie)
        // is 1 there.
        let ok = f2 > 0.0f;
        let den = select(1.0f, f2, ok);
        let den2 = den * den;
        let num = surflet_p4(g1 * den) - surflet_p4(f1 * g2);
        v = select(1.0f, surflet_div(f1, den), ok);
        g = select(vec4<f32>(0.0f), surflet_div4(num, den2), ok);
    }
    // v opaque: lavapipe reorders a chain of sums such as (f2 - f1) - mid.
    return SurfletSample4d(surflet_p(surflet_p(v - mid) * scale) + nan, surflet_p4(g * scale) + vec4<f32>(nan));
}

// surflet_cellular's result as 2D and 3D return it.
fn surflet_cellular_vg2(r: SurfletSample4d) -> vec3<f32> {
    return vec3<f32>(r.value, r.gradient.xy);
}

fn surflet_cellular_vg3(r: SurfletSample4d) -> vec4<f32> {
    return vec4<f32>(r.value, r.gradient.xyz);
}
