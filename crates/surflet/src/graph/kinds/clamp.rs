//! `clamp(x, min, max)`; the gradient is 0 at and beyond the bounds.

use super::prelude::*;

/// The clamp kind.
pub(in crate::graph) struct Clamp;

/// A compiled clamp: its bounds.
#[derive(Clone)]
pub(in crate::graph) struct ClampMap(f64, f64);

impl Kind for Clamp {
    const NAME: &'static str = "clamp";
    const PARAMS: &'static [&'static str] = &["input", "min", "max"];
    const POSITIONAL: usize = 3;
    type Op<const D: usize> = Mapped<ClampMap, D>;

    field_inputs!(Graph::Clamp { input, .. } => [input]);

    fn read(a: &Args<'_>) -> Result<Graph, Bad> {
        Ok(Graph::Clamp {
            input: a.field("input")?,
            min: a.number("min")?,
            max: a.number("max")?,
        })
    }

    fn write(g: &Graph, w: Writer) -> Result<Item, Error> {
        parts!(g, Graph::Clamp { input, min, max });
        Ok(w.call::<Self>(vec![
            ("input", w.graph(input)?),
            ("min", Item::num(*min)),
            ("max", Item::num(*max)),
        ]))
    }

    fn compile<const D: usize>(
        g: &Graph,
        cx: &Cx<'_>,
    ) -> Result<(Mapped<ClampMap, D>, Range), Error> {
        parts!(g, Graph::Clamp { input, min, max });
        let (lo, hi) = (cx.finite("min", *min)?, cx.finite("max", *max)?);
        if lo > hi {
            return Err(cx.bad(format!("min ({lo}) is above max ({hi})")));
        }
        cx.map(ClampMap(lo, hi), input)
    }
}

impl Pointwise for ClampMap {
    #[cfg(feature = "wgsl")]
    fn wgsl(&self) -> Result<String, Error> {
        let (lo, hi) = (k(self.0), k(self.1));
        Ok(format!(
            "    let lo = {lo};\n    let hi = {hi};\n\
             \x20   if (x < lo) {{\n        return vec2<f32>(lo, surflet_p(0.0f));\n    }}\n\
             \x20   if (x > hi) {{\n        return vec2<f32>(hi, surflet_p(0.0f));\n    }}\n\
             \x20   if (x > lo && x < hi) {{\n        return vec2<f32>(x, 1.0f);\n    }}\n\
             \x20   return vec2<f32>(x, surflet_p(0.0f));\n"
        ))
    }
    #[inline(always)]
    fn apply<F: Float>(&self, x: F) -> (F, F) {
        let (lo, hi) = (F::from_f64(self.0), F::from_f64(self.1));
        if x < lo {
            (lo, F::ZERO)
        } else if x > hi {
            (hi, F::ZERO)
        } else if x > lo && x < hi {
            (x, F::ONE)
        } else {
            // On a bound, or NaN.
            (x, F::ZERO)
        }
    }
    fn image(&self, (lo, hi): Range) -> Range {
        let ClampMap(a, b) = *self;
        (lo.max(a).min(b), hi.min(b).max(a))
    }
}
