//! `translate(x, by=[...])`: `x` evaluated at `p + by`.

use super::by_axes;
use super::moved;
use super::prelude::*;

/// The translate kind.
pub(in crate::graph) struct Translate;

/// A compiled translation.
#[derive(Clone)]
pub(in crate::graph) struct Translated<const D: usize> {
    by: [f64; D],
    input: Box<Node<D>>,
}

impl Kind for Translate {
    const NAME: &'static str = "translate";
    const PARAMS: &'static [&'static str] = &["input", "by"];
    const POSITIONAL: usize = 1;
    type Op<const D: usize> = Translated<D>;

    field_inputs!(Graph::Translate { input, .. } => [input]);

    fn read(a: &Args<'_>) -> Result<Graph, Bad> {
        let by = by_axes(a)?;
        Ok(Graph::Translate {
            input: a.field("input")?,
            by,
        })
    }

    fn write(g: &Graph, w: Writer) -> Result<Item, Error> {
        parts!(g, Graph::Translate { input, by });
        Ok(w.call::<Self>(vec![("input", w.graph(input)?), ("by", nums(by))]))
    }

    fn compile<const D: usize>(g: &Graph, cx: &Cx<'_>) -> Result<(Translated<D>, Range), Error> {
        parts!(g, Graph::Translate { input, by });
        let by = cx.axes("translate", by)?;
        let input = cx.sub(input, "input")?;
        let range = input.range;
        Ok((Translated { by, input }, range))
    }
}

impl<const D: usize> Eval<D> for Translated<D> {
    // The Jacobian is the frame's: a translation's is the identity.
    fn eval<F: Float>(&self, p: Pass, f: &Frame<'_, F, D>) -> Result<Buf<F, D>, Error> {
        let q: [Vec<F>; D] = core::array::from_fn(|a| {
            let t = F::from_f64(self.by[a]);
            f.q[a].iter().map(|&v| v + t).collect()
        });
        moved(&self.input, p, &q, f.jac)
    }
    fn reads_points(&self) -> bool {
        true
    }
    #[cfg(feature = "wgsl")]
    fn wgsl(&self, w: &mut Out<D>, jac: bool) -> Result<String, Error> {
        let input = self.input.wgsl(w, jac)?;
        let body = format!("    return {input}(q + {}, j);\n", kvec(&self.by));
        Ok(w.node_fn("translate", &body))
    }
}
