//! `pow(x, exponent)` with a constant exponent. Whole exponents (up to ±64)
//! are exact repeated products defined for every `x`; other exponents need
//! `x ≥ 0` over the input's range, and a negative one needs 0 outside it.

use super::prelude::*;

mod real;

use real::RealPow;

/// The power kind.
pub(in crate::graph) struct Pow;

/// A compiled power.
#[derive(Clone)]
pub(in crate::graph) enum PowMap {
    /// By repeated squaring.
    Int(i32),
    /// Through `f64::powf` in `f64`, and in `f32` through the
    /// double-`f32` computation that a shader repeats ([`real`]).
    Real(Box<RealPow>),
}

impl Kind for Pow {
    const NAME: &'static str = "pow";
    const PARAMS: &'static [&'static str] = &["input", "exponent"];
    const POSITIONAL: usize = 2;
    type Op<const D: usize> = Mapped<PowMap, D>;

    field_inputs!(Graph::Pow { input, .. } => [input]);

    fn read(a: &Args<'_>) -> Result<Graph, Bad> {
        Ok(Graph::Pow {
            input: a.field("input")?,
            exponent: a.number("exponent")?,
        })
    }

    fn write(g: &Graph, w: Writer) -> Result<Item, Error> {
        parts!(g, Graph::Pow { input, exponent });
        Ok(w.call::<Self>(vec![
            ("input", w.graph(input)?),
            ("exponent", Item::num(*exponent)),
        ]))
    }

    fn compile<const D: usize>(
        g: &Graph,
        cx: &Cx<'_>,
    ) -> Result<(Mapped<PowMap, D>, Range), Error> {
        parts!(g, Graph::Pow { input, exponent });
        let e = cx.finite("the exponent", *exponent)?;
        if e.abs() <= 64.0 && e == (e as i32) as f64 {
            return cx.map(PowMap::Int(e as i32), input);
        }
        let (m, range) = cx.map(PowMap::Real(Box::new(RealPow::new(e))), input)?;
        let (lo, _) = m.input.range;
        if lo < 0.0 || (e < 0.0 && lo <= 0.0) {
            return Err(cx.bad(format!(
                "a non-integer exponent ({e}) needs a base that is {} over its \
                 range, and the base's range starts at {lo}; take abs() or \
                 clamp() of it first",
                if e < 0.0 { "positive" } else { "non-negative" }
            )));
        }
        Ok((m, range))
    }
}

/// `x^n` by repeated squaring in a fixed order: exact definition, the same
/// bits everywhere.
#[inline]
fn powi<F: Float>(x: F, n: i32) -> F {
    let mut b = n.unsigned_abs();
    let mut a = x;
    let mut r = F::ONE;
    while b > 0 {
        if b & 1 == 1 {
            r = r * a;
        }
        b >>= 1;
        if b > 0 {
            a = a * a;
        }
    }
    if n < 0 { F::ONE / r } else { r }
}

/// [`powi`]'s products for `x^n` as one WGSL expression of `x`, in its
/// order.
#[cfg(feature = "wgsl")]
fn powi_wgsl(n: i32) -> String {
    let mut b = n.unsigned_abs();
    let mut a = "x".to_string();
    let mut r = "1.0f".to_string();
    while b > 0 {
        if b & 1 == 1 {
            r = format!("({r} * {a})");
        }
        b >>= 1;
        if b > 0 {
            a = format!("({a} * {a})");
        }
    }
    if n < 0 {
        format!("surflet_div(1.0f, {r})")
    } else {
        r
    }
}

impl Pointwise for PowMap {
    #[cfg(feature = "wgsl")]
    fn wgsl(&self) -> Result<String, Error> {
        match *self {
            PowMap::Int(0) => {
                Ok("    return vec2<f32>(surflet_p(1.0f), surflet_p(0.0f));\n".into())
            }
            PowMap::Int(n) => Ok(format!(
                "    return vec2<f32>({}, {} * {});\n",
                powi_wgsl(n),
                k(f64::from(n)),
                powi_wgsl(n - 1)
            )),
            PowMap::Real(ref p) => Ok(p.wgsl_body()),
        }
    }
    #[cfg(feature = "wgsl")]
    fn wgsl_lib(&self) -> Option<String> {
        match self {
            PowMap::Real(_) => Some(RealPow::wgsl_lib()),
            PowMap::Int(_) => None,
        }
    }
    #[inline(always)]
    fn apply<F: Float>(&self, x: F) -> (F, F) {
        let c = F::from_f64;
        match *self {
            PowMap::Int(0) => (F::ONE, F::ZERO),
            PowMap::Int(n) => (powi(x, n), c(n as f64) * powi(x, n - 1)),
            PowMap::Real(ref p) if F::PRECISION == 24 => {
                let (v, d) = p.apply_f32(x.to_f64() as f32);
                (c(f64::from(v)), c(f64::from(d)))
            }
            PowMap::Real(ref p) => {
                let (v, e) = (x.to_f64(), p.e);
                (c(v.powf(e)), c(e * v.powf(e - 1.0)))
            }
        }
    }

    fn image(&self, (lo, hi): Range) -> Range {
        match *self {
            PowMap::Int(0) => (1.0, 1.0),
            PowMap::Int(n) => {
                let (a, b) = (powi(lo, n), powi(hi, n));
                if n % 2 == 0 && lo < 0.0 && hi > 0.0 {
                    if n > 0 {
                        (0.0, a.max(b))
                    } else {
                        (0.0, f64::INFINITY)
                    }
                } else {
                    (a.min(b), a.max(b))
                }
            }
            PowMap::Real(ref p) => {
                let (a, b) = (lo.powf(p.e), hi.powf(p.e));
                (a.min(b), a.max(b))
            }
        }
    }
}
