//! The arithmetic of two fields: `add`, `sub`, `mul`, `div`, `min`, `max`
//! (`a + b`, `a - b`, `a * b`, `a / b` in expressions). Each kind is its
//! formula with its derivative, and its interval image.

use super::prelude::*;
use super::{Binary, mul_range};

/// The [`Kind`] of a binary function, which differs between them only in
/// name and variant.
macro_rules! binary_kind {
    ($($unit:ident $variant:ident $name:literal;)*) => {$(
        #[doc = concat!("`", $name, "(a, b)`.")]
        #[derive(Clone)]
        pub(in crate::graph) struct $unit;

        impl Kind for $unit {
            const NAME: &'static str = $name;
            const PARAMS: &'static [&'static str] = &["a", "b"];
            const INPUTS: &'static [&'static str] = &["a", "b"];
            const POSITIONAL: usize = 2;
            type Op<const D: usize> = Zipped<$unit, D>;

            field_inputs!(Graph::$variant(a, b) => [a, b]);

            fn read(a: &Args<'_>) -> Result<Graph, Bad> {
                Ok(Graph::$variant(a.field("a")?, a.field("b")?))
            }

            fn write(g: &Graph, w: Writer) -> Result<Item, Error> {
                parts!(g, Graph::$variant(a, b));
                Ok(w.call::<Self>(vec![("a", w.graph(a)?), ("b", w.graph(b)?)]))
            }

            fn compile<const D: usize>(
                g: &Graph,
                cx: &Cx<'_>,
            ) -> Result<(Zipped<$unit, D>, Range), Error> {
                parts!(g, Graph::$variant(a, b));
                cx.zip(a, b)
            }
        }
    )*};
}

binary_kind! {
    Add Add "add";
    Sub Sub "sub";
    Mul Mul "mul";
    Div Div "div";
    Min Min "min";
    Max Max "max";
}

impl Binary for Add {
    #[cfg(feature = "wgsl")]
    const WGSL: &'static str = "    return vec2<f32>(p + q, gp + gq);\n";
    #[inline(always)]
    fn apply<F: Float>(p: F, q: F, gp: F, gq: F) -> (F, F) {
        (p + q, gp + gq)
    }
    fn image(p: Range, q: Range) -> Range {
        (p.0 + q.0, p.1 + q.1)
    }
}

impl Binary for Sub {
    #[cfg(feature = "wgsl")]
    const WGSL: &'static str = "    return vec2<f32>(p - q, gp - gq);\n";
    #[inline(always)]
    fn apply<F: Float>(p: F, q: F, gp: F, gq: F) -> (F, F) {
        (p - q, gp - gq)
    }
    fn image(p: Range, q: Range) -> Range {
        (p.0 - q.1, p.1 - q.0)
    }
}

impl Binary for Mul {
    #[cfg(feature = "wgsl")]
    const WGSL: &'static str =
        "    return vec2<f32>(surflet_p(p * q), surflet_p(gp * q) + surflet_p(p * gq));\n";
    #[inline(always)]
    fn apply<F: Float>(p: F, q: F, gp: F, gq: F) -> (F, F) {
        (p * q, gp * q + p * gq)
    }
    fn image(p: Range, q: Range) -> Range {
        mul_range(p, q)
    }
}

/// IEEE division: where `b` is 0 the value is ±∞ or NaN, and a divisor
/// whose range contains 0 makes the range unbounded.
impl Binary for Div {
    #[cfg(feature = "wgsl")]
    const WGSL: &'static str = "    return vec2<f32>(surflet_div(p, q), surflet_div(surflet_p(gp * q) - surflet_p(p * gq), q * q));\n";
    #[inline(always)]
    fn apply<F: Float>(p: F, q: F, gp: F, gq: F) -> (F, F) {
        (p / q, (gp * q - p * gq) / (q * q))
    }
    fn image(p: Range, q: Range) -> Range {
        if q.0 <= 0.0 && q.1 >= 0.0 {
            (f64::NEG_INFINITY, f64::INFINITY)
        } else {
            mul_range(p, (1.0 / q.1, 1.0 / q.0))
        }
    }
}

/// On a tie, `a` and its gradient; where either is NaN, NaN.
impl Binary for Min {
    #[cfg(feature = "wgsl")]
    const WGSL: &'static str = "    if (p <= q) {\n        return vec2<f32>(p, gp);\n    }\n    if (q < p) {\n        return vec2<f32>(q, gq);\n    }\n    return vec2<f32>(p + q, surflet_nan());\n";
    #[inline(always)]
    fn apply<F: Float>(p: F, q: F, gp: F, gq: F) -> (F, F) {
        if p <= q {
            (p, gp)
        } else if q < p {
            (q, gq)
        } else {
            (p + q, F::NAN)
        }
    }
    fn image(p: Range, q: Range) -> Range {
        (p.0.min(q.0), p.1.min(q.1))
    }
}

/// On a tie, `a` and its gradient; where either is NaN, NaN.
impl Binary for Max {
    #[cfg(feature = "wgsl")]
    const WGSL: &'static str = "    if (p >= q) {\n        return vec2<f32>(p, gp);\n    }\n    if (q > p) {\n        return vec2<f32>(q, gq);\n    }\n    return vec2<f32>(p + q, surflet_nan());\n";
    #[inline(always)]
    fn apply<F: Float>(p: F, q: F, gp: F, gq: F) -> (F, F) {
        if p >= q {
            (p, gp)
        } else if q > p {
            (q, gq)
        } else {
            (p + q, F::NAN)
        }
    }
    fn image(p: Range, q: Range) -> Range {
        (p.0.max(q.0), p.1.max(q.1))
    }
}
