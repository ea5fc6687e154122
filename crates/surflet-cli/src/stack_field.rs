//! Noise stacks and curl noise with their dimension chosen at run time: the
//! library fixes it at compile time, the command line learns it from the
//! input's columns or the image's slice.

use surflet::{Curl, Error, Field, Graph, GraphField, Grid, Stack};

use crate::sampled::{Eval, MAX_DIMS};

/// A compiled noise stack or graph in 1 to 4 dimensions. A stack is a
/// graph of one node, which runs exactly as the stack.
#[derive(Clone, Debug)]
pub enum StackField {
    /// 1D.
    D1(GraphField<1>),
    /// 2D.
    D2(GraphField<2>),
    /// 3D.
    D3(GraphField<3>),
    /// 4D.
    D4(GraphField<4>),
}

/// Runs `$body` with `$e` bound to the evaluator, whatever its dimension.
macro_rules! each_dim {
    ($self:expr, $e:ident => $body:expr) => {
        match $self {
            StackField::D1($e) => $body,
            StackField::D2($e) => $body,
            StackField::D3($e) => $body,
            StackField::D4($e) => $body,
        }
    };
}

impl StackField {
    /// Compiles `stack` in `dims` dimensions; the library's error names the
    /// key at fault.
    pub fn new(stack: &Stack, dims: usize) -> Result<StackField, Error> {
        Self::graph(&Graph::stack(stack.clone()), dims)
    }

    /// Compiles `graph` in `dims` dimensions.
    pub fn graph(graph: &Graph, dims: usize) -> Result<StackField, Error> {
        Ok(match dims {
            1 => StackField::D1(graph.build()?),
            2 => StackField::D2(graph.build()?),
            3 => StackField::D3(graph.build()?),
            4 => StackField::D4(graph.build()?),
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
    pub fn resolved(r: &crate::stack_args::Resolved, dims: usize) -> Result<StackField, String> {
        match &r.graph {
            Some(g) => Self::graph(g, dims).map_err(|e| e.to_string()),
            None => Self::new(&r.stack, dims).map_err(|e| r.explain(&e)),
        }
    }

    /// The derived interval of the values: for a stack, `[-B, B]` with `B`
    /// the fractal's bound (1 when normalised), narrowed to `[0, B]` for
    /// ridged and turbulence; for a graph, by interval arithmetic through
    /// its nodes. A warp moves the points, not the values.
    pub fn range(&self) -> (f64, f64) {
        each_dim!(self, e => e.range())
    }

    /// Evaluates at the first `D` numbers of `x`, in `f32` if asked (the
    /// numbers were then parsed as `f32`, so narrowing is exact), with the
    /// gradient if asked.
    pub fn eval(&self, x: &[f64], f32: bool, gradient: bool) -> Eval {
        fn go<const D: usize>(e: &GraphField<D>, x: &[f64], f32: bool, gradient: bool) -> Eval {
            let p: [f64; D] = std::array::from_fn(|a| x[a]);
            let mut g = [0.0; MAX_DIMS];
            let value = match (f32, gradient) {
                (false, false) => e.get(p),
                (true, false) => f64::from(e.get(p.map(|v| v as f32))),
                (false, true) => {
                    let s = e.sample(p);
                    g[..D].copy_from_slice(&s.gradient);
                    s.value
                }
                (true, true) => {
                    let s = e.sample(p.map(|v| v as f32));
                    for (o, v) in g.iter_mut().zip(s.gradient) {
                        *o = f64::from(v);
                    }
                    f64::from(s.value)
                }
            };
            Eval { value, gradient: g }
        }
        each_dim!(self, e => go(e, x, f32, gradient))
    }

    /// Grid evaluation in `f64` for `render`: the grid of the first `D`
    /// coordinate lists (x fastest), values to `out` and, if asked, the
    /// partial derivatives to the first `D` gradient slices.
    pub fn fill_grid(
        &self,
        axes: [&[f64]; 4],
        out: &mut [f64],
        gradient: Option<[&mut [f64]; 4]>,
    ) -> Result<(), Error> {
        fn go<const D: usize>(
            e: &GraphField<D>,
            axes: [&[f64]; 4],
            out: &mut [f64],
            gradient: Option<[&mut [f64]; 4]>,
        ) -> Result<(), Error> {
            let grid = Grid::from_axes(std::array::from_fn(|a| axes[a].to_vec()))?;
            match gradient {
                None => e.grid(&grid, out)?,
                Some(g) => {
                    let mut g = g.into_iter();
                    let g: [&mut [f64]; D] =
                        std::array::from_fn(|_| g.next().expect("four gradient slices"));
                    e.grid_gradient(&grid, out, g)?
                }
            };
            Ok(())
        }
        each_dim!(self, e => go(e, axes, out, gradient))
    }
}

impl StackField {
    /// Point-array evaluation in `f64`: the value at `(coords[0][i],
    /// coords[1][i], ...)` to `out[i]`; only the first `D` lists are read.
    pub fn fill_points(&self, coords: [&[f64]; 4], out: &mut [f64]) -> Result<(), Error> {
        fn go<const D: usize>(
            e: &GraphField<D>,
            coords: [&[f64]; 4],
            out: &mut [f64],
        ) -> Result<(), Error> {
            e.fill(std::array::from_fn(|a| coords[a]), out)
        }
        each_dim!(self, e => go(e, coords, out))
    }
}

/// Curl noise of a stack's fractal, in 2D or 3D.
#[derive(Clone, Debug)]
pub enum CurlField {
    /// 2D: the perpendicular gradient of one potential.
    D2(Curl<2>),
    /// 3D: the curl of three potentials with seeds derived from the stack's.
    D3(Curl<3>),
}

impl CurlField {
    /// Curl noise whose potential is `stack`'s fractal (its noise, seed,
    /// frequency, period and fractal; the caller rejects a warp, which curl
    /// noise has no place for).
    pub fn new(stack: &Stack, dims: usize) -> Result<CurlField, Error> {
        fn build<const D: usize>(stack: &Stack) -> Result<Curl<D>, Error> {
            Ok(Curl::new(stack.build::<D>()?.fractal().clone()))
        }
        Ok(match dims {
            2 => CurlField::D2(build(stack)?),
            3 => CurlField::D3(build(stack)?),
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
        fn go<const D: usize>(c: &Curl<D>, x: &[f64], f32: bool) -> Eval {
            let p: [f64; D] = std::array::from_fn(|a| x[a]);
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
            CurlField::D2(c) => go(c, x, f32),
            CurlField::D3(c) => go(c, x, f32),
        }
    }
}
