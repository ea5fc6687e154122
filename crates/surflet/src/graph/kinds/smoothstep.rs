//! `smoothstep(edge0, edge1, x)`, as in GLSL and WGSL: 0 up to `edge0`, 1
//! from `edge1`, and between them the cubic `3t² − 2t³` of `t = (x −
//! edge0) / (edge1 − edge0)`, whose slope is 0 at both ends. Edges in
//! decreasing order give the step down.

use super::prelude::*;

/// The smoothstep kind.
pub(in crate::graph) struct Smoothstep;

/// A compiled smoothstep: `edge0` and `edge1 − edge0`.
#[derive(Clone)]
pub(in crate::graph) struct SmoothstepMap(f64, f64);

impl Kind for Smoothstep {
    const NAME: &'static str = "smoothstep";
    const PARAMS: &'static [&'static str] = &["edge0", "edge1", "input"];
    const POSITIONAL: usize = 3;
    type Op<const D: usize> = Mapped<SmoothstepMap, D>;

    field_inputs!(Graph::Smoothstep { input, .. } => [input]);

    fn read(a: &Args<'_>) -> Result<Graph, Bad> {
        Ok(Graph::Smoothstep {
            edge0: a.number("edge0")?,
            edge1: a.number("edge1")?,
            input: a.field("input")?,
        })
    }

    fn write(g: &Graph, w: Writer) -> Result<Item, Error> {
        parts!(
            g,
            Graph::Smoothstep {
                edge0,
                edge1,
                input
            }
        );
        Ok(w.call::<Self>(vec![
            ("edge0", Item::num(*edge0)),
            ("edge1", Item::num(*edge1)),
            ("input", w.graph(input)?),
        ]))
    }

    fn compile<const D: usize>(
        g: &Graph,
        cx: &Cx<'_>,
    ) -> Result<(Mapped<SmoothstepMap, D>, Range), Error> {
        parts!(
            g,
            Graph::Smoothstep {
                edge0,
                edge1,
                input
            }
        );
        let (e0, e1) = (cx.finite("edge0", *edge0)?, cx.finite("edge1", *edge1)?);
        let width = cx.finite("edge1 − edge0", e1 - e0)?;
        if width == 0.0 {
            return Err(cx.bad(format!("edge0 and edge1 must differ (both are {e0})")));
        }
        cx.map(SmoothstepMap(e0, width), input)
    }
}

impl Pointwise for SmoothstepMap {
    #[cfg(feature = "wgsl")]
    fn wgsl(&self) -> Result<String, Error> {
        let (e0, w) = (k(self.0), k(self.1));
        Ok(format!(
            "    let w = {w};\n    let t = surflet_div(x - {e0}, w);\n\
             \x20   if (surflet_is_nan(t)) {{\n        return vec2<f32>(t, t);\n    }}\n\
             \x20   if (t <= 0.0f) {{\n        return vec2<f32>(surflet_p(0.0f), surflet_p(0.0f));\n    }}\n\
             \x20   if (t >= 1.0f) {{\n        return vec2<f32>(1.0f, surflet_p(0.0f));\n    }}\n\
             \x20   return vec2<f32>((t * t) * ((3.0f - t) - t), surflet_div((6.0f * t) * (1.0f - t), w));\n"
        ))
    }
    #[inline(always)]
    fn apply<F: Float>(&self, x: F) -> (F, F) {
        let c = F::from_f64;
        let w = c(self.1);
        let t = (x - c(self.0)) / w;
        if t.is_nan() {
            (t, t)
        } else if t <= F::ZERO {
            (F::ZERO, F::ZERO)
        } else if t >= F::ONE {
            (F::ONE, F::ZERO)
        } else {
            (t * t * (c(3.0) - t - t), c(6.0) * t * (F::ONE - t) / w)
        }
    }

    // Monotone, so the extremes are at the ends.
    fn image(&self, (lo, hi): Range) -> Range {
        let (a, b) = (self.apply(lo).0, self.apply(hi).0);
        (a.min(b), a.max(b))
    }
}
