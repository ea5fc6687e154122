// pow with a non-integer exponent in f32: graph/kinds/pow/real.rs's twin,
// operation for operation (the series' constants and 2/ln 2, ln 2 are
// written after this by the module writer, as exact literals). Every
// product, and every sum an error-free transformation depends on, passes
// through surflet_p, so that no driver fuses or simplifies them (Mesa
// rewrites (a + b) - a to b where it can see the sum: two_sum would lose
// its error term).

// a + b = s + err exactly (Knuth).
fn surflet_dd_two_sum(a: f32, b: f32) -> vec2<f32> {
    let s = surflet_p(a + b);
    let bb = surflet_p(s - a);
    return vec2<f32>(s, (a - surflet_p(s - bb)) + (b - bb));
}

// a + b = s + err exactly, |a| >= |b| (Dekker).
fn surflet_dd_fast_two_sum(a: f32, b: f32) -> vec2<f32> {
    let s = surflet_p(a + b);
    return vec2<f32>(s, b - surflet_p(s - a));
}

// a as two halves of 12 significant bits (Veltkamp).
fn surflet_dd_split(a: f32) -> vec2<f32> {
    let t = surflet_p(surflet_p(0x1001p0f) * a);
    let hi = surflet_p(t - surflet_p(t - a));
    return vec2<f32>(hi, a - hi);
}

// a * b = p + err exactly (Dekker).
fn surflet_dd_two_prod(a: f32, b: f32) -> vec2<f32> {
    let p = surflet_p(a * b);
    let sa = surflet_dd_split(a);
    let sb = surflet_dd_split(b);
    let e = (((surflet_p(sa.x * sb.x) - p) + surflet_p(sa.x * sb.y)) + surflet_p(sa.y * sb.x))
        + surflet_p(sa.y * sb.y);
    return vec2<f32>(p, e);
}

fn surflet_dd_add(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> {
    let s = surflet_dd_two_sum(a.x, b.x);
    return surflet_dd_fast_two_sum(s.x, s.y + surflet_p(a.y + b.y));
}

fn surflet_dd_mul(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> {
    let p = surflet_dd_two_prod(a.x, b.x);
    return surflet_dd_fast_two_sum(p.x, p.y + (surflet_p(a.x * b.y) + surflet_p(a.y * b.x)));
}

// log2 x for finite x > 0, a double-f32 (once per sample).
fn surflet_pow_log2(x: f32) -> vec2<f32> {
    let tiny = x < 0x1p-126f;
    let xs = select(x, surflet_p(x * 0x1p24f), tiny);
    let bits = bitcast<u32>(xs);
    var k = i32((bits >> 23u) & 0xffu) - select(127, 151, tiny);
    var m = bitcast<f32>((bits & 0x7fffffu) | 0x3f800000u);
    if (m > 0xb504f3p-23f) {
        m = surflet_p(m * 0x1p-1f);
        k = k + 1;
    }
    let one = surflet_p(0x1p0f);
    let num = m - one;
    let den = surflet_dd_two_sum(m, one);
    let q1 = surflet_div(num, den.x);
    let p = surflet_dd_two_prod(q1, den.x);
    let r = surflet_p(surflet_p(num - p.x) - p.y) - surflet_p(q1 * den.y);
    let t = surflet_dd_fast_two_sum(q1, surflet_div(r, den.x));
    let s = surflet_dd_mul(t, t);
    let l = surflet_dd_mul(surflet_dd_mul(t, surflet_pow_log(s)), surflet_pow_two_over_ln2());
    return surflet_dd_add(vec2<f32>(f32(k), surflet_p(0.0f)), l);
}

// 2^(e log2 x): the significand (a double-f32) and the power of two.
fn surflet_pow_exp2(log2: vec2<f32>, e: vec2<f32>) -> vec3<f32> {
    let y = surflet_dd_mul(e, log2);
    var yh = y.x;
    yh = select(yh, -250.0f, yh < -250.0f);
    yh = select(yh, 250.0f, yh > 250.0f);
    let n = floor(yh + surflet_p(0x1p-1f));
    let f = surflet_dd_fast_two_sum(yh - n, select(surflet_p(0.0f), y.y, yh == y.x));
    let z = surflet_pow_exp(surflet_dd_mul(f, surflet_pow_ln2()));
    return vec3<f32>(z.x, z.y, n);
}

fn surflet_dd_pow2(k: i32) -> f32 {
    return bitcast<f32>(u32(k + 127) << 23u);
}

// v * 2^n, |n| <= 252, in two exact steps.
fn surflet_pow_scale(v: f32, n: i32) -> f32 {
    let a = n >> 1u;
    return surflet_p(surflet_p(v * surflet_dd_pow2(a)) * surflet_dd_pow2(n - a));
}

// x^e for x = ±0, ±inf, negative or NaN, e not an integer, by x's bits.
fn surflet_pow_special(x: f32, positive: bool) -> f32 {
    let u = bitcast<u32>(x);
    let a = u & 0x7fffffffu;
    let nan = a > 0x7f800000u || (u > 0x80000000u && u < 0xff800000u);
    let inf = bitcast<f32>(0x7f800000u ^ surflet_zero);
    return select(select(inf, surflet_p(0.0f), (a == 0u) == positive), surflet_nan(), nan);
}
