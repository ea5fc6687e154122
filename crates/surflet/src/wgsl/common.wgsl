// surflet: what every kernel shares (kernel/hash.rs, kernel/lattice.rs,
// kernel/gradients.rs and the fade of kernel/mod.rs), operation for
// operation in f32.
//
// Exactness rules followed throughout:
// - every product that feeds an addition goes through surflet_p, so that
//   no driver can fuse the two into a multiply-add (one rounding where the
//   CPU has two);
// - min and max are written as selects with the CPU's operand order, so a
//   NaN operand gives the CPU's answer (WGSL leaves min/max of NaN open);
// - constants are hexadecimal float literals, exact;
// - division and square root go through surflet_div and surflet_sqrt:
//   Vulkan lets a driver's f32 division be 2.5 ulp off and its square root
//   inherit the error of 1/inverseSqrt (NVIDIA's are), where the CPU's are
//   correctly rounded.

// The opaque zero: the entry point sets it from a uniform that holds 0, so
// no compiler can fold it away. A pipeline that never sets it still runs
// correctly, but its driver may then fuse products into multiply-adds.
var<private> surflet_zero: u32;

// A product, rounded on its own before it is added to anything.
fn surflet_p(x: f32) -> f32 {
    return bitcast<f32>(bitcast<u32>(x) ^ surflet_zero);
}

fn surflet_min(a: f32, b: f32) -> f32 {
    return select(b, a, a < b);
}

fn surflet_max(a: f32, b: f32) -> f32 {
    return select(b, a, a > b);
}

const SURFLET_PRIME_X: u32 = 0x9E3779B1u;
const SURFLET_PRIME_Y: u32 = 0x85EBCA77u;
const SURFLET_PRIME_Z: u32 = 0xC2B2AE3Du;
const SURFLET_PRIME_W: u32 = 0x27D4EB2Fu;

// A 4D value and its gradient: what 4D functions return, where 2D and 3D
// ones return vec3 and vec4 (value, gradient); WGSL has no vec5. Its name
// ends in a letter: naga's translations append _ to a name that ends in a
// digit, and this one is public.
struct SurfletSample4d {
    value: f32,
    gradient: vec4<f32>,
}

// Chris Wellons' lowbias32, the corner-hash finaliser.
fn surflet_lowbias32(h0: u32) -> u32 {
    var h = h0 ^ (h0 >> 16u);
    h = h * 0x7FEB352Du;
    h = h ^ (h >> 15u);
    h = h * 0x846CA68Bu;
    return h ^ (h >> 16u);
}

// A lattice value: the top 24 hash bits as an odd multiple of 2^-24.
fn surflet_lattice_value(h: u32) -> f32 {
    let k = (h >> 8u) << 1u;
    let odd = (k + 1u) - (1u << 24u);
    return f32(bitcast<i32>(odd)) * 0x1p-24f;
}

// floor(3 * top 24 bits / 2^24).
fn surflet_three_way(h: u32) -> u32 {
    let top = h >> 8u;
    return ((top + top) + top) >> 24u;
}

// v with its sign flipped where bit `b` of h is set (an exact flip; zero
// becomes -0.0).
fn surflet_flip(h: u32, b: u32, v: f32) -> f32 {
    return bitcast<f32>(bitcast<u32>(v) ^ (((h >> b) & 1u) << 31u));
}

// The lattice cell of an integer-valued float, modulo 2^32; NaN and
// infinities give 0.
fn surflet_cell(fl: f32) -> u32 {
    let limit = 0x1p31f;
    if (abs(fl) < limit) {
        return bitcast<u32>(i32(fl));
    }
    let two32 = 0x1p32f;
    let q = floor(fl * 0x1p-32f);
    var r = fl - surflet_p(q * two32);
    r = select(r, r - two32, r >= limit);
    let finite = abs(r) <= limit;
    return bitcast<u32>(i32(select(0.0f, r, finite)));
}

// x - x, summed over the axes: +0 for finite input, NaN otherwise. Opaque,
// because a driver that folds x - x to 0 then folds g + 0 to g, which
// turns the CPU's -0 + 0 = +0 into -0 (lavapipe does: the gradient of
// value noise at an integer coordinate came out -0).
fn surflet_poison2(p: vec2<f32>) -> f32 {
    return surflet_p((p.x - p.x) + (p.y - p.y));
}

fn surflet_poison3(p: vec3<f32>) -> f32 {
    return surflet_p(((p.x - p.x) + (p.y - p.y)) + (p.z - p.z));
}

fn surflet_poison4(p: vec4<f32>) -> f32 {
    return surflet_p((((p.x - p.x) + (p.y - p.y)) + (p.z - p.z)) + (p.w - p.w));
}

// Perlin's quintic fade 6t^5 - 15t^4 + 10t^3 and its derivative
// 30t^2(t - 1)^2.
fn surflet_fade(t: f32) -> vec2<f32> {
    let t2 = t * t;
    let t3 = t2 * t;
    let poly = surflet_p(t * (surflet_p(t * 6.0f) - 15.0f)) + 10.0f;
    let tm1 = t - 1.0f;
    let d = (t2 * 30.0f) * (tm1 * tm1);
    return vec2<f32>(t3 * poly, d);
}

// 2D gradients: the 8 unit vectors at multiples of 45 degrees.
fn surflet_grad2(h: u32) -> vec2<f32> {
    let diagonal = ((h >> 31u) & 1u) == 1u;
    let b29 = ((h >> 29u) & 1u) == 1u;
    let d = SURFLET_FRAC_1_SQRT_2;
    let gx = select(surflet_flip(h, 30u, select(1.0f, 0.0f, b29)), surflet_flip(h, 29u, d), diagonal);
    let gy = surflet_flip(h, 30u, select(select(0.0f, 1.0f, b29), d, diagonal));
    return vec2<f32>(gx, gy);
}

// 3D Perlin gradients: the 12 cube-edge midpoints.
fn surflet_grad3_edges(h: u32) -> vec3<f32> {
    let zero_axis = surflet_three_way(h);
    return vec3<f32>(
        surflet_flip(h, 8u, select(1.0f, 0.0f, zero_axis == 0u)),
        surflet_flip(h, 9u, select(1.0f, 0.0f, zero_axis == 1u)),
        surflet_flip(h, 10u, select(1.0f, 0.0f, zero_axis == 2u)),
    );
}

// 4D Perlin gradients: the 32 hypercube-edge midpoints.
fn surflet_grad4_edges(h: u32) -> vec4<f32> {
    let zero_axis = h >> 30u;
    return vec4<f32>(
        surflet_flip(h, 26u, select(1.0f, 0.0f, zero_axis == 0u)),
        surflet_flip(h, 27u, select(1.0f, 0.0f, zero_axis == 1u)),
        surflet_flip(h, 28u, select(1.0f, 0.0f, zero_axis == 2u)),
        surflet_flip(h, 29u, select(1.0f, 0.0f, zero_axis == 3u)),
    );
}

// 3D simplex gradients: Catlike Coding's 32 (12 edges twice, 8 corners).
fn surflet_grad3_catlike(h: u32) -> vec3<f32> {
    let kind = h >> 30u;
    let mag = select(SURFLET_FRAC_1_SQRT_2, SURFLET_FRAC_1_SQRT_3, kind == 3u);
    return vec3<f32>(
        surflet_flip(h, 27u, select(mag, 0.0f, kind == 0u)),
        surflet_flip(h, 28u, select(mag, 0.0f, kind == 1u)),
        surflet_flip(h, 29u, select(mag, 0.0f, kind == 2u)),
    );
}

// k * c for an integer-valued k, as an integer part (x) and a fraction in
// [0, 4) (y), both factors split so that every partial product is exact
// (kernel/lattice.rs mul_split; c = c_hi + c_lo, c_hi with 12 bits).
fn surflet_mul_split(k: f32, c_hi: f32, c_lo: f32) -> vec2<f32> {
    let limit = 0x1p12f;
    if (!(abs(k) >= limit)) {
        let kh = surflet_p(k * c_hi);
        let ki = floor(kh);
        return vec2<f32>(ki, (kh - ki) + surflet_p(k * c_lo));
    }
    let q = k * 0x1p-12f;
    let t = select(floor(q), -floor(-q), q < 0.0f);
    let k_hi = surflet_p(t * limit);
    let k_lo = k - k_hi;
    let a = surflet_p(k_hi * c_hi);
    let b = surflet_p(k_lo * c_hi);
    let cc = surflet_p(k_hi * c_lo);
    let d = surflet_p(k_lo * c_lo);
    let fa = floor(a);
    let fb = floor(b);
    let fc = floor(cc);
    let int = (fa + fb) + fc;
    let frac = (((a - fa) + (b - fb)) + (cc - fc)) + d;
    return vec2<f32>(int, frac);
}

// A cell reduced modulo 2^32 where the cells' sum has left the range in
// which it is exact (kernel/lattice.rs skew_split).
fn surflet_wrap32(v: f32, over: bool) -> f32 {
    let q = floor(v * 0x1p-32f);
    let r = v - surflet_p(q * 0x1p32f);
    return select(v, r, over && abs(v) >= 0x1p24f);
}

fn surflet_p2(x: vec2<f32>) -> vec2<f32> {
    return bitcast<vec2<f32>>(bitcast<vec2<u32>>(x) ^ vec2<u32>(surflet_zero));
}

fn surflet_p3(x: vec3<f32>) -> vec3<f32> {
    return bitcast<vec3<f32>>(bitcast<vec3<u32>>(x) ^ vec3<u32>(surflet_zero));
}

fn surflet_p4(x: vec4<f32>) -> vec4<f32> {
    return bitcast<vec4<f32>>(bitcast<vec4<u32>>(x) ^ vec4<u32>(surflet_zero));
}

// A quotient or root's 25-bit significand q (the leading bit at 2^24, the
// last one the first bit past the f32's 24), the biased exponent e of the
// leading bit, and whether anything nonzero lies below q (sticky), rounded
// to nearest with ties to even into an f32 with sign bit `sign`, subnormal
// or infinite where e says so: IEEE 754's rounding, in integers.
fn surflet_round_pack(sign: u32, e: i32, q: u32, sticky: bool) -> f32 {
    if (e >= 255) {
        return bitcast<f32>(sign | 0x7f800000u);
    }
    // Bits of q below the result's last: 1, or more for a subnormal.
    let drop = u32(clamp(select(1, 2 - e, e < 1), 1, 26));
    let kept = q >> drop;
    let rest = q & ((1u << drop) - 1u);
    let half = 1u << (drop - 1u);
    let up = rest > half || (rest == half && (sticky || (kept & 1u) == 1u));
    let m = kept + select(0u, 1u, up);
    // A normal m holds the leading bit, which adds 1 to e - 1; rounding up
    // past 2^24 carries into the exponent, up to infinity.
    return bitcast<f32>(sign | select(m, (u32(e - 1) << 23u) + m, e >= 1));
}

// A finite nonzero f32's significand, normalised into [2^23, 2^24), and
// the biased exponent that goes with it (below 1 for a subnormal).
fn surflet_unpack(u: u32) -> vec2<i32> {
    let ex = (u >> 23u) & 0xffu;
    let f = u & 0x7fffffu;
    if (ex == 0u) {
        // The top bit of f by halving: countLeadingZeros's GLSL form
        // (findMSB) reaches naga's SPIR-V reader as a signed and unsigned
        // mix that it refuses.
        var v = f;
        var top = 0u;
        for (var w = 16u; w > 0u; w = w >> 1u) {
            if (v >= (1u << w)) {
                v = v >> w;
                top = top + w;
            }
        }
        let s = 23u - top;
        return vec2<i32>(i32(f << s), 1 - i32(s));
    }
    return vec2<i32>(i32(f | 0x800000u), i32(ex));
}

// a / b correctly rounded, as the CPU divides: the significands divided in
// integers, a byte of the quotient at a time.
fn surflet_div(a: f32, b: f32) -> f32 {
    let ua = bitcast<u32>(a);
    let ub = bitcast<u32>(b);
    let sign = (ua ^ ub) & 0x80000000u;
    let a_inf = (ua & 0x7fffffffu) >= 0x7f800000u;
    let b_inf = (ub & 0x7fffffffu) >= 0x7f800000u;
    let a_zero = (ua & 0x7fffffffu) == 0u;
    let b_zero = (ub & 0x7fffffffu) == 0u;
    if (a_inf || b_inf || a_zero || b_zero) {
        let a_nan = (ua & 0x7fffffffu) > 0x7f800000u;
        let b_nan = (ub & 0x7fffffffu) > 0x7f800000u;
        if (a_nan || b_nan || (a_zero && b_zero) || (a_inf && b_inf)) {
            // NaN, as the hardware makes it.
            return a / b;
        }
        if (a_inf || b_zero) {
            return bitcast<f32>(sign | 0x7f800000u);
        }
        return bitcast<f32>(sign);
    }
    let na = surflet_unpack(ua);
    let nb = surflet_unpack(ub);
    var ma = u32(na.x);
    let mb = u32(nb.x);
    var e = na.y - nb.y + 127;
    if (ma < mb) {
        ma = ma << 1u;
        e = e - 1;
    }
    // ma / mb in [1, 2): its leading 1, then 24 more bits.
    var r = ma - mb;
    var q = 1u;
    for (var k = 0u; k < 3u; k++) {
        r = r << 8u;
        q = (q << 8u) | (r / mb);
        r = r % mb;
    }
    return surflet_round_pack(sign, e, q, r != 0u);
}

fn surflet_div4(a: vec4<f32>, b: f32) -> vec4<f32> {
    return vec4<f32>(surflet_div(a.x, b), surflet_div(a.y, b), surflet_div(a.z, b), surflet_div(a.w, b));
}

// The square root correctly rounded, as the CPU takes it: the integer
// square root of the significand, two bits at a time.
fn surflet_sqrt(x: f32) -> f32 {
    let u = bitcast<u32>(x);
    if ((u & 0x7fffffffu) == 0u || u == 0x7f800000u) {
        // Zeros keep their sign, and the root of infinity is infinity.
        return x;
    }
    if ((u & 0x7fffffffu) > 0x7f800000u) {
        // NaN stays NaN.
        return x + x;
    }
    if (u > 0x7f800000u) {
        // Negative: the default NaN, which x86's square root returns. Not
        // the hardware's root: a driver that flushes subnormals takes the
        // root of a negative subnormal as that of -0.
        return bitcast<f32>(0xffc00000u);
    }
    let n = surflet_unpack(u);
    // x = m 2^k, with k odd and m in [2^23, 2^25).
    var m = u32(n.x);
    var k = n.y - 150;
    if ((k & 1) == 0) {
        m = m << 1u;
        k = k - 1;
    }
    // N = m 2^25, 50 bits in hi:lo; sqrt(x) = sqrt(N) 2^((k - 25) / 2).
    let hi = m >> 7u;
    let lo = m << 25u;
    var root = 0u;
    var rem = 0u;
    for (var i = 0u; i < 25u; i++) {
        let at = 48u - 2u * i;
        var pair = 0u;
        if (at >= 32u) {
            pair = (hi >> (at - 32u)) & 3u;
        } else {
            pair = (lo >> at) & 3u;
        }
        rem = (rem << 2u) | pair;
        let trial = (root << 2u) | 1u;
        let fits = rem >= trial;
        rem = select(rem, rem - trial, fits);
        root = (root << 1u) | select(0u, 1u, fits);
    }
    // root = floor(sqrt(N)), in [2^24, 2^25).
    return surflet_round_pack(0u, (k - 25) / 2 + 151, root, rem != 0u);
}
