//! `neg(x)`, written `-x`.

use super::prelude::*;

/// The negation kind, and its map.
#[derive(Clone)]
pub(in crate::graph) struct Neg;

impl Kind for Neg {
    const NAME: &'static str = "neg";
    const PARAMS: &'static [&'static str] = &["input"];
    const POSITIONAL: usize = 1;
    type Op<const D: usize> = Mapped<Neg, D>;

    field_inputs!(Graph::Neg(x) => [x]);

    fn read(a: &Args<'_>) -> Result<Graph, Bad> {
        Ok(Graph::Neg(a.field("input")?))
    }

    fn write(g: &Graph, w: Writer) -> Result<Item, Error> {
        parts!(g, Graph::Neg(x));
        Ok(w.call::<Self>(vec![("input", w.graph(x)?)]))
    }

    fn compile<const D: usize>(g: &Graph, cx: &Cx<'_>) -> Result<(Mapped<Neg, D>, Range), Error> {
        parts!(g, Graph::Neg(x));
        cx.map(Neg, x)
    }
}

impl Pointwise for Neg {
    #[cfg(feature = "wgsl")]
    fn wgsl(&self) -> Result<String, Error> {
        Ok("    return vec2<f32>(-x, -1.0f);\n".into())
    }
    #[inline(always)]
    fn apply<F: Float>(&self, x: F) -> (F, F) {
        (-x, -F::ONE)
    }
    fn image(&self, (lo, hi): Range) -> Range {
        (-hi, -lo)
    }
}
