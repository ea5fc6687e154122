//! A user's field ([`Graph::custom`]): evaluated through its own batch
//! calls, with no expression or config form.

use super::prelude::*;
use crate::float::DynField;
use alloc::sync::Arc;

/// The custom field kind.
pub(in crate::graph) struct CustomKind;

/// A user's field, for one dimension.
#[derive(Clone)]
pub(in crate::graph) struct CustomOp<const D: usize>(Arc<dyn DynField<D>>);

impl Kind for CustomKind {
    const NAME: &'static str = "custom";
    const PARAMS: &'static [&'static str] = &[];
    const INPUTS: &'static [&'static str] = &[];
    const POSITIONAL: usize = 0;
    type Op<const D: usize> = CustomOp<D>;

    // No function reads one.
    fn params(_name: &str) -> Option<Vec<&'static str>> {
        None
    }
    fn inputs_of(_name: &str) -> Option<Vec<&'static str>> {
        None
    }

    fn names(_out: &mut Vec<String>) {}

    fn inputs(_g: &Graph) -> Vec<&Graph> {
        vec![]
    }

    fn inputs_mut(_g: &mut Graph) -> Vec<&mut Graph> {
        vec![]
    }

    fn read(a: &Args<'_>) -> Result<Graph, Bad> {
        Err(bad(a.at, "a custom field has no written form"))
    }

    fn write(g: &Graph, _w: Writer) -> Result<Item, Error> {
        parts!(g, Graph::Custom(c));
        Err(Error::Parameter {
            name: "graph".into(),
            reason: format!(
                "the custom field {:?} exists only in code: it has no expression or config form",
                c.name()
            ),
        })
    }

    fn compile<const D: usize>(g: &Graph, cx: &Cx<'_>) -> Result<(CustomOp<D>, Range), Error> {
        parts!(g, Graph::Custom(c));
        let f = c.field::<D>().ok_or_else(|| {
            cx.bad(format!(
                "the custom field {:?} is {}D, and the graph is built in {D}D",
                c.name(),
                c.dims()
            ))
        })?;
        let range = f.range_dyn();
        Ok((CustomOp(f), range))
    }
}

impl<const D: usize> Eval<D> for CustomOp<D> {
    fn eval<F: Float>(&self, p: Pass, f: &Frame<'_, F, D>) -> Result<Buf<F, D>, Error> {
        crate::graph::eval::fill_leaf(f, p, |q, v, g| F::fill_dyn(&*self.0, p.isa, q, v, g))
    }
    fn reads_points(&self) -> bool {
        true
    }
    #[cfg(feature = "wgsl")]
    fn wgsl(&self, _w: &mut Out<D>, _jac: bool) -> Result<String, Error> {
        Err(Error::Parameter {
            name: "wgsl".into(),
            reason: "the graph holds a custom field, which is Rust code that cannot run on a GPU; \
                     write it as graph nodes to get a shader"
                .into(),
        })
    }
}
