//! `x^e` for a constant non-integer `e` in `f32`, computed with `f32`
//! operations alone, so that a shader computes the same bits
//! (`real.wgsl` beside this file is this file's twin, line for line).
//!
//! The logarithm, the product with `e` and the exponential are carried as
//! unevaluated sums of two `f32`s (double-`f32` arithmetic, about 44
//! bits) and rounded once at the end, as is the derivative `e·x^(e−1)`.
//! So the result is `f64::powf` rounded to `f32` (what this node computed
//! before it had a shader twin) except where `x^e` lies within about 2⁻⁴⁴
//! of a halfway point between two `f32`s: none of 2·10⁶ random cases
//! (`matches_f64_rounded`), and a subnormal result may be a unit off (it
//! is rounded twice). Bases a few units below 1 with exponents such as 1.5
//! sit that close by construction (`(1 − 2⁻²⁴)^1.5` is a halfway point
//! plus 2⁻⁴⁹·⁴): one of the frozen outputs' 64·3 points of
//! `pow(perlin(seed=1) * 0.5 + 1, 1.5)` changed by a unit when this came.
//! `f64` keeps `f64::powf`: shaders have no `f64`.
//!
//! Only `+`, `−`, `×`, two divisions, `floor` and bit operations are used;
//! no step may be fused or reassociated (the shader's products go through
//! `surflet_p`, as every kernel's do).

use crate::prelude_internal::array_of;
use crate::simd::Element;

/// An unevaluated sum `hi + lo` with `|lo| ≤ ulp(hi)/2`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Dd {
    hi: f32,
    lo: f32,
}

impl Dd {
    /// The double-`f32` nearest to `x` (an `f64` constant: within 2⁻⁴⁸ of
    /// it relatively).
    pub(super) fn of(x: f64) -> Dd {
        let hi = x as f32;
        Dd {
            hi,
            lo: (x - f64::from(hi)) as f32,
        }
    }

    /// Its two parts (the shader's constants).
    #[cfg(feature = "wgsl")]
    pub(super) fn parts(self) -> (f32, f32) {
        (self.hi, self.lo)
    }
}

/// `a + b` exactly (Knuth's two-sum).
#[inline]
fn two_sum(a: f32, b: f32) -> Dd {
    let s = a + b;
    let bb = s - a;
    Dd {
        hi: s,
        lo: (a - (s - bb)) + (b - bb),
    }
}

/// `a + b` exactly, where `|a| ≥ |b|` (Dekker's fast two-sum).
#[inline]
fn fast_two_sum(a: f32, b: f32) -> Dd {
    let s = a + b;
    Dd {
        hi: s,
        lo: b - (s - a),
    }
}

/// `a` as the sum of two halves of 12 significant bits (Veltkamp).
#[inline]
fn split(a: f32) -> (f32, f32) {
    let t = 4097.0 * a;
    let hi = t - (t - a);
    (hi, a - hi)
}

/// `a · b` exactly (Dekker's two-product, without a fused multiply-add).
#[inline]
fn two_prod(a: f32, b: f32) -> Dd {
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    Dd {
        hi: p,
        lo: (((ah * bh - p) + ah * bl) + al * bh) + al * bl,
    }
}

#[inline]
fn add(a: Dd, b: Dd) -> Dd {
    let s = two_sum(a.hi, b.hi);
    fast_two_sum(s.hi, s.lo + (a.lo + b.lo))
}

#[inline]
fn mul(a: Dd, b: Dd) -> Dd {
    let p = two_prod(a.hi, b.hi);
    fast_two_sum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi))
}

/// 1/(2i+1), i = 0..9: ln((1+t)/(1−t)) = 2t Σ t²ⁱ/(2i+1); |t| ≤ 0.1716
/// leaves the first omitted term under 2⁻⁴⁹.
pub(super) const LOG_TERMS: usize = 9;
/// 1/i!, i = 0..12: eʳ for |r| ≤ ln2/2 leaves the first omitted term
/// under 2⁻⁴⁷.
pub(super) const EXP_TERMS: usize = 12;

/// The double-`f32` constants the computation reads: the series'
/// coefficients, 2/ln 2 and ln 2.
#[derive(Clone, Debug)]
pub(super) struct Consts {
    pub(super) log: [Dd; LOG_TERMS],
    pub(super) exp: [Dd; EXP_TERMS],
    pub(super) two_over_ln2: Dd,
    pub(super) ln2: Dd,
}

impl Consts {
    pub(super) fn new() -> Consts {
        let mut fact = 1.0f64;
        let exp = array_of(|i| {
            if i > 0 {
                fact *= i as f64;
            }
            Dd::of(1.0 / fact)
        });
        Consts {
            log: array_of(|i| Dd::of(1.0 / (2 * i + 1) as f64)),
            exp,
            two_over_ln2: Dd::of(2.0 / core::f64::consts::LN_2),
            ln2: Dd::of(core::f64::consts::LN_2),
        }
    }
}

/// `log2 x` for finite `x > 0` as a double-`f32`: computed once per
/// sample, for the value's exponent and the derivative's.
#[inline]
fn log2_dd(c: &Consts, x: f32) -> Dd {
    // x = m·2^k with m in [√½, √2); a subnormal x is scaled up first.
    let tiny = x < f32::MIN_POSITIVE;
    let xs = if tiny { x * 16_777_216.0 } else { x };
    let bits = xs.to_bits();
    let mut k = ((bits >> 23) & 0xff) as i32 - if tiny { 151 } else { 127 };
    let mut m = f32::from_bits((bits & 0x7f_ffff) | 0x3f80_0000);
    if m > core::f32::consts::SQRT_2 {
        m *= 0.5;
        k += 1;
    }
    // t = (m − 1)/(m + 1) as a double-f32 (m − 1 is exact).
    let num = m - 1.0;
    let den = two_sum(m, 1.0);
    let q1 = num / den.hi;
    let p = two_prod(q1, den.hi);
    let r = ((num - p.hi) - p.lo) - q1 * den.lo;
    let t = fast_two_sum(q1, r / den.hi);
    // log2 x = k + (2/ln2)·t·Σ s^i/(2i+1), s = t².
    let s = mul(t, t);
    let mut poly = c.log[LOG_TERMS - 1];
    for i in (0..LOG_TERMS - 1).rev() {
        poly = add(mul(poly, s), c.log[i]);
    }
    add(
        Dd {
            hi: k as f32,
            lo: 0.0,
        },
        mul(mul(t, poly), c.two_over_ln2),
    )
}

/// `2^(e·log2)` as a double-`f32` significand in [√½, √2] and a power of
/// two: `x^e` from [`log2_dd`]`(x)`.
#[inline]
fn exp2_parts(c: &Consts, log2: Dd, e: Dd) -> (Dd, i32) {
    // y = e·log2 x = n + f, |f| ≤ 1/2; past ±250 the result is 0 or ∞
    // whatever f is.
    let y = mul(e, log2);
    let yh = y.hi.clamp(-250.0, 250.0);
    let n = Element::floor(yh + 0.5);
    let f = fast_two_sum(yh - n, if yh == y.hi { y.lo } else { 0.0 });
    // 2^f = e^(f·ln2), Horner's rule.
    let r = mul(f, c.ln2);
    let mut z = c.exp[EXP_TERMS - 1];
    for i in (0..EXP_TERMS - 1).rev() {
        z = add(mul(z, r), c.exp[i]);
    }
    (z, n as i32)
}

/// `v · 2^n` for |n| ≤ 252, in two exact steps (each power of two is a
/// normal `f32`), so only the last can round (into the subnormals).
#[inline]
fn scale(v: f32, n: i32) -> f32 {
    let a = n >> 1;
    let b = n - a;
    (v * pow2(a)) * pow2(b)
}

/// 2^k for a normal exponent k.
#[inline]
fn pow2(k: i32) -> f32 {
    f32::from_bits(((k + 127) as u32) << 23)
}

/// `x^e` where `x` is ±0, ±∞, negative or NaN, as `powf` gives it for an
/// `e` that is not an integer (positive or not).
#[inline]
fn special(x: f32, positive: bool) -> f32 {
    if x.is_nan() || (x < 0.0 && x > f32::NEG_INFINITY) {
        f32::NAN
    } else if (x == 0.0) == positive {
        0.0
    } else {
        f32::INFINITY
    }
}

/// A compiled non-integer power: the exponent and `e − 1` (as `f64`
/// computes it, which is what the derivative's `f64` form reads), as
/// double-`f32`s, and the series' constants.
#[derive(Clone, Debug)]
pub(in crate::graph) struct RealPow {
    pub(super) e: f64,
    pub(super) e1: f64,
    pub(super) ed: Dd,
    pub(super) e1d: Dd,
    pub(super) c: Consts,
}

impl RealPow {
    pub(super) fn new(e: f64) -> RealPow {
        let e1 = e - 1.0;
        RealPow {
            e,
            e1,
            ed: Dd::of(e),
            e1d: Dd::of(e1),
            c: Consts::new(),
        }
    }

    /// `(x^e, e·x^(e−1))` in `f32`.
    pub(super) fn apply_f32(&self, x: f32) -> (f32, f32) {
        let (c, ed) = (&self.c, self.ed);
        if !(x > 0.0 && x < f32::INFINITY) {
            return (special(x, self.e > 0.0), ed.hi * special(x, self.e1 > 0.0));
        }
        let log2 = log2_dd(c, x);
        let (z, n) = exp2_parts(c, log2, ed);
        let (z1, n1) = exp2_parts(c, log2, self.e1d);
        let d = mul(ed, z1);
        (scale(z.hi + z.lo, n), scale(d.hi + d.lo, n1))
    }
}

/// The module's shared functions and one node's body (`fn (x: f32) ->
/// vec2<f32>`), as `real.wgsl` and exact literals.
#[cfg(feature = "wgsl")]
impl RealPow {
    /// What every non-integer power of a module calls: `real.wgsl`, then
    /// the series by Horner's rule and the two constants, straight-line.
    pub(super) fn wgsl_lib() -> String {
        let c = Consts::new();
        let mut s = String::from(include_str!("real.wgsl"));
        s.push_str(&horner("surflet_pow_log", "s", &c.log));
        s.push_str(&horner("surflet_pow_exp", "r", &c.exp));
        for (name, d) in [
            ("surflet_pow_two_over_ln2", c.two_over_ln2),
            ("surflet_pow_ln2", c.ln2),
        ] {
            s.push_str(&format!(
                "\nfn {name}() -> vec2<f32> {{\n    return {};\n}}\n",
                dd_lit(d)
            ));
        }
        s
    }

    /// [`apply_f32`](Self::apply_f32) of `x`.
    pub(super) fn wgsl_body(&self) -> String {
        let (e, e1) = (dd_lit(self.ed), dd_lit(self.e1d));
        let eh = crate::graph::wgsl::k(f64::from(self.ed.hi));
        format!(
            "    let u = bitcast<u32>(x);
    let e = {e};
    if (u == 0u || u >= 0x7f800000u) {{
        return vec2<f32>(surflet_pow_special(x, {}), surflet_p({eh} * surflet_pow_special(x, {})));
    }}
    let l = surflet_pow_log2(x);
    let a = surflet_pow_exp2(l, e);
    let b = surflet_pow_exp2(l, {e1});
    let d = surflet_dd_mul(e, b.xy);
    return vec2<f32>(surflet_pow_scale(a.x + a.y, i32(a.z)), surflet_pow_scale(d.x + d.y, i32(b.z)));
",
            self.e > 0.0,
            self.e1 > 0.0
        )
    }
}

/// A double-`f32` constant, each part opaque.
#[cfg(feature = "wgsl")]
fn dd_lit(d: Dd) -> String {
    let (hi, lo) = d.parts();
    let k = crate::graph::wgsl::k;
    format!("vec2<f32>({}, {})", k(f64::from(hi)), k(f64::from(lo)))
}

/// `fn name(x: vec2<f32>) -> vec2<f32>`: Σ cᵢ xⁱ by Horner's rule in
/// double-`f32`, as [`log2_dd`] and [`exp2_parts`] sum it.
#[cfg(feature = "wgsl")]
fn horner(name: &str, x: &str, c: &[Dd]) -> String {
    let mut s = format!(
        "\nfn {name}({x}: vec2<f32>) -> vec2<f32> {{\n    var p = {};\n",
        dd_lit(c[c.len() - 1])
    );
    for d in c[..c.len() - 1].iter().rev() {
        s.push_str(&format!(
            "    p = surflet_dd_add(surflet_dd_mul(p, {x}), {});\n",
            dd_lit(*d)
        ));
    }
    s.push_str("    return p;\n}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `f64::powf` rounded to `f32`: what the node computed before.
    fn reference(x: f32, e: f64) -> (f32, f32) {
        let v = f64::from(x);
        (v.powf(e) as f32, (e * v.powf(e - 1.0)) as f32)
    }

    /// The exponents and bases of real graphs (and some that are not):
    /// every normal result keeps `f64`'s rounding (but for the rare ones
    /// within about 2⁻⁴⁴ of a halfway point: none in these 2·10⁶), and a
    /// subnormal one is within a unit (it is rounded twice: to 24 bits,
    /// then to the subnormal's fewer).
    #[test]
    fn matches_f64_rounded() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut differ = 0;
        let mut total = 0;
        for e in [1.5, 0.5, -0.5, 2.2, 1.0 / 2.2, 0.1, 7.3, -3.7, 31.9, 1e-3] {
            let p = RealPow::new(e);
            for _ in 0..100_000 {
                let r = next();
                // Bases over many binades, and the [0, 2] that noise gives.
                let x = if r & 1 == 0 {
                    (r >> 40) as f32 / (1u64 << 23) as f32
                } else {
                    f32::from_bits(((r >> 33) as u32 % (0x7f00_0000 - 0x0080_0000)) + 0x0080_0000)
                };
                let got = p.apply_f32(x);
                let want = reference(x, e);
                total += 2;
                for (g, w) in [(got.0, want.0), (got.1, want.1)] {
                    if g.to_bits() == w.to_bits() {
                        continue;
                    }
                    let ulps = (g.to_bits() as i64 - w.to_bits() as i64).abs();
                    if w.abs() < f32::MIN_POSITIVE {
                        assert!(ulps <= 1, "pow({x:e}, {e}): {g:e} against {w:e}");
                    } else {
                        differ += 1;
                        assert!(ulps <= 1, "pow({x:e}, {e}): {g:e} against {w:e}");
                    }
                }
            }
        }
        // One in 10⁵ would mean an error near 2⁻³⁷, not 2⁻⁴⁴.
        assert!(differ * 100_000 < total, "{differ} of {total} differ");
    }

    #[test]
    fn special_bases() {
        let p = RealPow::new(1.5);
        let n = RealPow::new(-0.5);
        for x in [0.0f32, -0.0, f32::INFINITY, -1.0, f32::NAN, -f32::INFINITY] {
            for q in [&p, &n] {
                let got = q.apply_f32(x);
                let want = reference(x, q.e);
                assert!(
                    got.0.to_bits() == want.0.to_bits() || (got.0.is_nan() && want.0.is_nan()),
                    "{x} {}",
                    q.e
                );
                assert!(
                    got.1.to_bits() == want.1.to_bits() || (got.1.is_nan() && want.1.is_nan()),
                    "{x} {}",
                    q.e
                );
            }
        }
    }
}
