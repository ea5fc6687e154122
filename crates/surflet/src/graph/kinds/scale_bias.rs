//! `scale_bias(x, scale, bias)`: `x · scale + bias`.

use super::prelude::*;

/// The scale-and-bias kind.
pub(in crate::graph) struct ScaleBias;

/// A compiled scale and bias.
#[derive(Clone)]
pub(in crate::graph) struct ScaleBiasMap(f64, f64);

impl Kind for ScaleBias {
    const NAME: &'static str = "scale_bias";
    const PARAMS: &'static [&'static str] = &["input", "scale", "bias"];
    const POSITIONAL: usize = 3;
    type Op<const D: usize> = Mapped<ScaleBiasMap, D>;

    field_inputs!(Graph::ScaleBias { input, .. } => [input]);

    fn read(a: &Args<'_>) -> Result<Graph, Bad> {
        Ok(Graph::ScaleBias {
            input: a.field("input")?,
            scale: a.num_or("scale", 1.0)?,
            bias: a.num_or("bias", 0.0)?,
        })
    }

    fn write(g: &Graph, w: Writer) -> Result<Item, Error> {
        parts!(g, Graph::ScaleBias { input, scale, bias });
        Ok(w.call::<Self>(vec![
            ("input", w.graph(input)?),
            ("scale", Item::num(*scale)),
            ("bias", Item::num(*bias)),
        ]))
    }

    fn compile<const D: usize>(
        g: &Graph,
        cx: &Cx<'_>,
    ) -> Result<(Mapped<ScaleBiasMap, D>, Range), Error> {
        parts!(g, Graph::ScaleBias { input, scale, bias });
        let m = ScaleBiasMap(cx.finite("scale", *scale)?, cx.finite("bias", *bias)?);
        cx.map(m, input)
    }
}

impl Pointwise for ScaleBiasMap {
    #[cfg(feature = "wgsl")]
    fn wgsl(&self) -> Result<String, Error> {
        let (s, b) = (k(self.0), k(self.1));
        Ok(format!(
            "    return vec2<f32>(surflet_p(x * {s}) + {b}, {s});\n"
        ))
    }
    #[inline(always)]
    fn apply<F: Float>(&self, x: F) -> (F, F) {
        let (s, b) = (F::from_f64(self.0), F::from_f64(self.1));
        (x * s + b, s)
    }
    fn image(&self, (lo, hi): Range) -> Range {
        let ScaleBiasMap(s, b) = *self;
        let (x, y) = (lo * s + b, hi * s + b);
        (x.min(y), x.max(y))
    }
}
