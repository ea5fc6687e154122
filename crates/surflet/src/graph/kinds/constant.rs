//! A constant: `0.5`, or `const(0.5)`. Its gradient is 0.

use super::prelude::*;
use crate::graph::eval::zeros;

/// The constant kind.
pub(in crate::graph) struct Const;

/// A compiled constant.
#[derive(Clone)]
pub(in crate::graph) struct Constant(f64);

impl Kind for Const {
    const NAME: &'static str = "const";
    const PARAMS: &'static [&'static str] = &["value"];
    const INPUTS: &'static [&'static str] = &[];
    const POSITIONAL: usize = 1;
    type Op<const D: usize> = Constant;

    fn inputs(_g: &Graph) -> Vec<&Graph> {
        vec![]
    }

    fn inputs_mut(_g: &mut Graph) -> Vec<&mut Graph> {
        vec![]
    }

    fn read(a: &Args<'_>) -> Result<Graph, Bad> {
        Ok(Graph::Const(a.number("value")?))
    }

    // A bare number, which reads back as this constant.
    fn write(g: &Graph, _w: Writer) -> Result<Item, Error> {
        parts!(g, Graph::Const(v));
        Ok(Item::num(*v))
    }

    fn compile<const D: usize>(g: &Graph, cx: &Cx<'_>) -> Result<(Constant, Range), Error> {
        parts!(g, Graph::Const(v));
        Ok((Constant(cx.finite("a constant", *v)?), widen((*v, *v))))
    }
}

impl<const D: usize> Eval<D> for Constant {
    fn eval<F: Float>(&self, p: Pass, _f: &Frame<'_, F, D>) -> Result<Buf<F, D>, Error> {
        Ok(Buf {
            v: vec![F::from_f64(self.0); p.n],
            g: p.grad.then(|| zeros::<F, D>(p.n)),
        })
    }
    fn reads_points(&self) -> bool {
        false
    }
    #[cfg(feature = "wgsl")]
    fn wgsl(&self, w: &mut Out<D>, _jac: bool) -> Result<String, Error> {
        let body = format!(
            "    return {}({}, {});\n",
            w.rt(),
            k(self.0),
            w.vt() + "(surflet_p(0.0f))"
        );
        Ok(w.node_fn("a constant", &body))
    }
}
