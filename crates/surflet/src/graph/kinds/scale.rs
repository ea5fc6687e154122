//! `scale(x, by=[...])`: `x` evaluated at `p · by` (per axis); a single
//! number scales every axis.

use super::prelude::*;
use super::{by_axes, moved};

/// The scale kind.
pub(in crate::graph) struct Scale;

/// A compiled scaling.
#[derive(Clone)]
pub(in crate::graph) struct Scaled<const D: usize> {
    by: [f64; D],
    input: Box<Node<D>>,
}

impl Kind for Scale {
    const NAME: &'static str = "scale";
    const PARAMS: &'static [&'static str] = &["input", "by"];
    const POSITIONAL: usize = 1;
    type Op<const D: usize> = Scaled<D>;

    field_inputs!(Graph::Scale { input, .. } => [input]);

    fn read(a: &Args<'_>) -> Result<Graph, Bad> {
        let by = by_axes(a)?;
        Ok(Graph::Scale {
            input: a.field("input")?,
            by,
        })
    }

    fn write(g: &Graph, w: Writer) -> Result<Item, Error> {
        parts!(g, Graph::Scale { input, by });
        Ok(w.call::<Self>(vec![("input", w.graph(input)?), ("by", nums(by))]))
    }

    fn compile<const D: usize>(g: &Graph, cx: &Cx<'_>) -> Result<(Scaled<D>, Range), Error> {
        parts!(g, Graph::Scale { input, by });
        let by = if by.len() == 1 {
            [cx.finite("scale", by[0])?; D]
        } else {
            cx.axes("scale", by)?
        };
        let input = cx.sub(input, "input")?;
        let range = input.range;
        Ok((Scaled { by, input }, range))
    }
}

impl<const D: usize> Eval<D> for Scaled<D> {
    fn eval<F: Float>(&self, p: Pass, f: &Frame<'_, F, D>) -> Result<Buf<F, D>, Error> {
        let s: [F; D] = array_of(|a| F::from_f64(self.by[a]));
        let q: [Vec<F>; D] = core::array::from_fn(|a| f.q[a].iter().map(|&v| v * s[a]).collect());
        // The new Jacobian: `diag(s) · J`.
        let jac: Option<[[Vec<F>; D]; D]> = p.grad.then(|| {
            core::array::from_fn(|a| {
                core::array::from_fn(|b| match f.jac {
                    None => vec![if a == b { s[a] } else { F::ZERO }; p.n],
                    Some(j) => j[a][b].iter().map(|&v| v * s[a]).collect(),
                })
            })
        });
        moved(&self.input, p, &q, jac.as_ref())
    }
    fn reads_points(&self) -> bool {
        true
    }
    #[cfg(feature = "wgsl")]
    fn wgsl(&self, w: &mut Out<D>, jac: bool) -> Result<String, Error> {
        let input = self.input.wgsl(w, true)?;
        let s = kvec(&self.by);
        // `diag(s) · J`: row a of J times s[a].
        let j2 = if jac {
            let rows: Vec<String> = (0..D).map(|a| format!("j[{a}] * s[{a}]")).collect();
            format!("{}({})", w.mt(), rows.join(", "))
        } else {
            kmat(&array_of::<[f64; D], D, _>(|a| {
                array_of(|b| if a == b { self.by[a] } else { 0.0 })
            }))
        };
        let body = format!("    let s = {s};\n    return {input}(q * s, {j2});\n");
        Ok(w.node_fn("scale", &body))
    }
}
