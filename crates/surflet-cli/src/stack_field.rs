//! Noise stacks, graphs and curl noise in the dimension the command line
//! learned at run time (the library's `surflet::dynamic` erases it), with
//! the command line's messages.

use surflet::dynamic::{DynCurl, DynField};
use surflet::{Error, Stack};

use crate::sampled::{Eval, MAX_DIMS};

/// The resolved stack or graph in `dims` dimensions, with messages that say
/// which flag or config key is at fault.
pub fn resolved(r: &crate::stack_args::Resolved, dims: usize) -> Result<DynField, String> {
    match &r.graph {
        Some(g) => DynField::graph(g, dims).map_err(|e| e.to_string()),
        None => stack(&r.stack, dims).map_err(|e| r.explain(&e)),
    }
}

/// `stack` compiled in `dims` dimensions as the one-node graph it is, so
/// that a stack and the same stack written as an expression draw the same
/// pixels (a graph's range is its nodes' ranges, widened for `f32`).
pub fn stack(stack: &Stack, dims: usize) -> Result<DynField, Error> {
    DynField::graph(&surflet::Graph::stack(stack.clone()), dims)
}

/// The curl vector of `curl` at the first `D` numbers of `x` (parsed as
/// `f32` when `f32` is set, so narrowing is exact), in the `gradient` slots
/// of the result (its `value` is unused).
pub fn curl_eval(curl: &DynCurl, x: &[f64], f32: bool) -> Eval {
    let d = curl.dims();
    let mut g = [0.0; MAX_DIMS];
    if f32 {
        let p: Vec<f32> = x[..d].iter().map(|&v| v as f32).collect();
        for (o, v) in g.iter_mut().zip(curl.get_f32(&p)).take(d) {
            *o = f64::from(v);
        }
    } else {
        g[..d].copy_from_slice(&curl.get_f64(&x[..d])[..d]);
    }
    Eval {
        value: 0.0,
        gradient: g,
    }
}
