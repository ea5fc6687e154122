//! Noise stacks and curl noise with their dimension chosen at run time: the
//! library fixes it at compile time, the command line learns it from the
//! input's columns or the image's slice.

use surflet::{Curl, Error, Graph, Stack};

use crate::any_field::AnyField;

use crate::sampled::{Eval, MAX_DIMS};

impl AnyField {
    /// Compiles `stack` in `dims` dimensions; the library's error names the
    /// key at fault.
    pub fn new_stack(stack: &Stack, dims: usize) -> Result<AnyField, Error> {
        Self::graph(&Graph::stack(stack.clone()), dims)
    }

    /// Compiles `graph` in `dims` dimensions.
    pub fn graph(graph: &Graph, dims: usize) -> Result<AnyField, Error> {
        Ok(match dims {
            1 => AnyField::new::<_, 1>(graph.build::<1>()?),
            2 => AnyField::new::<_, 2>(graph.build::<2>()?),
            3 => AnyField::new::<_, 3>(graph.build::<3>()?),
            4 => AnyField::new::<_, 4>(graph.build::<4>()?),
            _ => {
                return Err(Error::Parameter {
                    name: "dimension".into(),
                    reason: format!("noise stacks have 1 to 4 dimensions, not {dims}"),
                });
            }
        })
    }

    /// The resolved stack or graph in `dims` dimensions, with messages that
    /// say which flag or config key is at fault.
    pub fn resolved(r: &crate::stack_args::Resolved, dims: usize) -> Result<AnyField, String> {
        match &r.graph {
            Some(g) => Self::graph(g, dims).map_err(|e| e.to_string()),
            None => Self::new_stack(&r.stack, dims).map_err(|e| r.explain(&e)),
        }
    }
}

/// Curl noise of a stack's fractal, in 2D or 3D, with the stack's domain
/// offset in input units (`offset / frequency`, zero without one).
#[derive(Clone, Debug)]
pub enum CurlField {
    /// 2D: the perpendicular gradient of one potential.
    D2(Curl<2>, [f64; 2]),
    /// 3D: the curl of three potentials with seeds derived from the stack's.
    D3(Curl<3>, [f64; 3]),
}

impl CurlField {
    /// Curl noise whose potential is `stack`'s fractal (its noise, seed,
    /// frequency, period and fractal; the caller rejects a warp, which curl
    /// noise has no place for), moved by the stack's offset.
    pub fn new(stack: &Stack, dims: usize) -> Result<CurlField, Error> {
        fn build<const D: usize>(stack: &Stack) -> Result<(Curl<D>, [f64; D]), Error> {
            // The evaluator's fractal is unmoved (the offset lives in the
            // evaluator's octaves), so the points are moved instead.
            let e = stack.build::<D>()?;
            let shift = std::array::from_fn(|a| {
                stack
                    .offset
                    .as_ref()
                    .map_or(0.0, |o| o[a] / stack.frequency)
            });
            Ok((Curl::new(e.fractal().clone()), shift))
        }
        Ok(match dims {
            2 => {
                let (c, shift) = build(stack)?;
                CurlField::D2(c, shift)
            }
            3 => {
                let (c, shift) = build(stack)?;
                CurlField::D3(c, shift)
            }
            _ => {
                return Err(Error::Parameter {
                    name: "dimension".into(),
                    reason: format!("curl noise is 2D or 3D, not {dims}D"),
                });
            }
        })
    }

    /// The curl vector at the first `D` numbers of `x`, in the `gradient`
    /// slots of the result (its `value` is unused).
    pub fn eval(&self, x: &[f64], f32: bool) -> Eval {
        fn go<const D: usize>(c: &Curl<D>, shift: &[f64; D], x: &[f64], f32: bool) -> Eval {
            // Zero shifts are skipped: x + 0.0 would turn −0.0 into 0.0.
            let p: [f64; D] = std::array::from_fn(|a| {
                if shift[a] == 0.0 {
                    x[a]
                } else {
                    x[a] + shift[a]
                }
            });
            let mut g = [0.0; MAX_DIMS];
            if f32 {
                for (o, v) in g.iter_mut().zip(c.get(p.map(|v| v as f32))) {
                    *o = f64::from(v);
                }
            } else {
                g[..D].copy_from_slice(&c.get(p));
            }
            Eval {
                value: 0.0,
                gradient: g,
            }
        }
        match self {
            CurlField::D2(c, shift) => go(c, shift, x, f32),
            CurlField::D3(c, shift) => go(c, shift, x, f32),
        }
    }
}
