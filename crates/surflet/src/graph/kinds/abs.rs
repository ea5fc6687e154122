//! `abs(x)`; the gradient at 0 is 0.

use super::prelude::*;

/// The absolute value kind, and its map.
#[derive(Clone)]
pub(in crate::graph) struct Abs;

impl Kind for Abs {
    const NAME: &'static str = "abs";
    const PARAMS: &'static [&'static str] = &["input"];
    const POSITIONAL: usize = 1;
    type Op<const D: usize> = Mapped<Abs, D>;

    field_inputs!(Graph::Abs(x) => [x]);

    fn read(a: &Args<'_>) -> Result<Graph, Bad> {
        Ok(Graph::Abs(a.field("input")?))
    }

    fn write(g: &Graph, w: Writer) -> Result<Item, Error> {
        parts!(g, Graph::Abs(x));
        Ok(w.call::<Self>(vec![("input", w.graph(x)?)]))
    }

    fn compile<const D: usize>(g: &Graph, cx: &Cx<'_>) -> Result<(Mapped<Abs, D>, Range), Error> {
        parts!(g, Graph::Abs(x));
        cx.map(Abs, x)
    }
}

impl Pointwise for Abs {
    #[cfg(feature = "wgsl")]
    fn wgsl(&self) -> Result<String, Error> {
        Ok(
            "    let d = select(select(surflet_p(0.0f), -1.0f, x < 0.0f), 1.0f, x > 0.0f);\n    \
            return vec2<f32>(abs(x), d);\n"
                .into(),
        )
    }
    #[inline(always)]
    fn apply<F: Float>(&self, x: F) -> (F, F) {
        let d = if x > F::ZERO {
            F::ONE
        } else if x < F::ZERO {
            -F::ONE
        } else {
            F::ZERO
        };
        (x.abs(), d)
    }
    fn image(&self, (lo, hi): Range) -> Range {
        if lo >= 0.0 {
            (lo, hi)
        } else if hi <= 0.0 {
            (-hi, -lo)
        } else {
            (0.0, hi.max(-lo))
        }
    }
}
