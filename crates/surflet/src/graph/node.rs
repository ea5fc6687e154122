//! A graph compiled for one dimension: the tree of compiled nodes with
//! their derived ranges, the block evaluator they share, and the
//! [`Field`] implementation. What each kind of node does is its unit's, in
//! [`kinds`](super::kinds).

// Per-axis arrays are walked in step; index loops read best there.
#![allow(clippy::needless_range_loop)]

use crate::prelude_internal::*;

use super::Graph;
use super::kinds::{self, Cx, Op};
use crate::error::Error;
use crate::field::{Field, run_blocks};
use crate::float::Float;
use crate::grid::{Bounds, Grid};
use crate::noise::Sample;
use crate::simd::Isa;
use crate::stack::Evaluator;

/// A [`Graph`] checked and compiled for dimension `D`: a [`Field`].
///
/// ```
/// use surflet::prelude::*;
/// use surflet::graph::Graph;
/// let g = Graph::parse("abs(perlin(seed=4)) * 2 - 1")?;
/// let f = g.build::<3>()?;
/// let (lo, hi) = f.range();
/// assert!(lo <= -1.0 && hi >= 1.0 && hi < 1.0001);
/// let mut out = vec![0.0f32; 3];
/// f.fill([&[0.1, 0.2, 0.3], &[0.0; 3], &[5.0; 3]], &mut out)?;
/// assert_eq!(out[1], f.get([0.2f32, 0.0, 5.0]));
/// # Ok::<(), surflet::Error>(())
/// ```
#[derive(Clone)]
pub struct GraphField<const D: usize> {
    graph: Graph,
    root: Node<D>,
}

impl<const D: usize> core::fmt::Debug for GraphField<D> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GraphField")
            .field("graph", &self.graph)
            .field("range", &self.root.range)
            .finish()
    }
}

/// A compiled node: its operation and its derived range.
#[derive(Clone)]
pub(super) struct Node<const D: usize> {
    pub op: Op<D>,
    pub range: (f64, f64),
}

/// What a compiled node does over a block of points.
pub(super) trait Eval<const D: usize>: Clone {
    /// The node's values over the block at `f` and, if `p.grad`, their
    /// gradient with respect to the input point.
    fn eval<F: Float>(&self, p: Pass, f: &Frame<'_, F, D>) -> Result<Buf<F, D>, Error>;
    /// Whether evaluating it over a grid frame reads the frame's
    /// coordinates: domain transforms and displacements move them, and a
    /// user's field is called with them. Leaves use the grid itself.
    fn reads_points(&self) -> bool;
}

/// How a block is evaluated: the instruction set, the number of points,
/// and whether the gradient is asked for.
#[derive(Clone, Copy)]
pub(super) struct Pass {
    pub isa: Isa,
    pub n: usize,
    pub grad: bool,
}

/// Where a node is evaluated: the (possibly transformed) coordinates `q`
/// and, when gradients are asked for, the Jacobian `∂q[a]/∂p[b]` with
/// respect to the input point (`None`: the identity).
pub(super) struct Frame<'a, F, const D: usize> {
    pub q: [&'a [F]; D],
    pub jac: Option<&'a [[Vec<F>; D]; D]>,
    /// Set where the points are a grid's `start..start + n`, untransformed:
    /// leaves then take their stack's grid path (the same bits as its
    /// points, several times faster), and `q` is empty unless a node reads
    /// it (see [`Eval::reads_points`]).
    pub grid: Option<(&'a Grid<F, D>, usize)>,
}

/// A node's values over a block and, if asked, their gradient with respect
/// to the input point.
pub(super) struct Buf<F, const D: usize> {
    pub v: Vec<F>,
    pub g: Option<[Vec<F>; D]>,
}

/// `∇ₚ = Jᵀ ∇_q`, summed in axis order as the stacks' warps do.
pub(super) fn pull_back<F: Float, const D: usize>(
    gq: [Vec<F>; D],
    jac: Option<&[[Vec<F>; D]; D]>,
) -> [Vec<F>; D] {
    let Some(j) = jac else { return gq };
    let n = gq[0].len();
    core::array::from_fn(|b| {
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let mut acc = gq[0][i] * j[0][b][i];
            for a in 1..D {
                acc = acc + gq[a][i] * j[a][b][i];
            }
            out.push(acc);
        }
        out
    })
}

/// A leaf over a block: `fill` writes the values and, if asked, the
/// gradient with respect to the frame's coordinates, which is then pulled
/// back to the input point.
pub(super) fn fill_leaf<F: Float, const D: usize>(
    f: &Frame<'_, F, D>,
    p: Pass,
    fill: impl FnOnce([&[F]; D], &mut [F], Option<[&mut [F]; D]>) -> Result<(), Error>,
) -> Result<Buf<F, D>, Error> {
    let mut v = vec![F::ZERO; p.n];
    if !p.grad {
        fill(f.q, &mut v, None)?;
        return Ok(Buf { v, g: None });
    }
    let mut gq = zeros::<F, D>(p.n);
    {
        let mut it = gq.iter_mut();
        let refs: [&mut [F]; D] = core::array::from_fn(|_| &mut it.next().expect("D slices")[..]);
        fill(f.q, &mut v, Some(refs))?;
    }
    Ok(Buf {
        v,
        g: Some(pull_back(gq, f.jac)),
    })
}

/// Applies `f` (value → value and derivative) to every value, and the
/// chain rule to the gradient.
#[inline(always)]
pub(super) fn each<F: Float, const D: usize>(x: &mut Buf<F, D>, f: impl Fn(F) -> (F, F)) {
    match &mut x.g {
        None => {
            for v in &mut x.v {
                *v = f(*v).0;
            }
        }
        Some(g) => {
            for i in 0..x.v.len() {
                let (v, d) = f(x.v[i]);
                x.v[i] = v;
                for ga in g.iter_mut() {
                    ga[i] = ga[i] * d;
                }
            }
        }
    }
}

/// Combines `x` and `y` point by point into `x` with `f(x, y, ∂x, ∂y)`,
/// which returns the value and the partial derivative along one axis (for
/// the value alone it is called with zero derivatives, and the second
/// result is ignored).
#[inline(always)]
pub(super) fn zip<F: Float, const D: usize>(
    x: &mut Buf<F, D>,
    y: &Buf<F, D>,
    f: impl Fn(F, F, F, F) -> (F, F),
) {
    let n = x.v.len();
    match (&mut x.g, &y.g) {
        (Some(gx), Some(gy)) => {
            for i in 0..n {
                let (p, q) = (x.v[i], y.v[i]);
                for a in 0..D {
                    gx[a][i] = f(p, q, gx[a][i], gy[a][i]).1;
                }
                x.v[i] = f(p, q, F::ZERO, F::ZERO).0;
            }
        }
        _ => {
            for i in 0..n {
                x.v[i] = f(x.v[i], y.v[i], F::ZERO, F::ZERO).0;
            }
        }
    }
}

pub(super) fn zeros<F: Float, const D: usize>(n: usize) -> [Vec<F>; D] {
    core::array::from_fn(|_| vec![F::ZERO; n])
}

impl<const D: usize> Node<D> {
    pub(super) fn eval<F: Float>(&self, p: Pass, f: &Frame<'_, F, D>) -> Result<Buf<F, D>, Error> {
        self.op.eval(p, f)
    }
    pub(super) fn reads_points(&self) -> bool {
        self.op.reads_points()
    }
}

impl<const D: usize> GraphField<D> {
    pub(super) fn new(graph: &Graph) -> Result<Self, Error> {
        let root = kinds::compile::<D>(
            graph,
            &Cx {
                path: kinds::name_of(graph),
                depth: 1,
            },
        )?;
        Ok(GraphField {
            graph: graph.clone(),
            root,
        })
    }

    /// The graph it was compiled from.
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// The stack, if the graph is a single stack (which then runs exactly
    /// as that stack's [`Evaluator`]).
    pub fn as_stack(&self) -> Option<&Evaluator<D>> {
        match &self.root.op {
            Op::Stack(e) => Some(&e.0),
            _ => None,
        }
    }

    /// The tile, if the graph is a single tiling stack.
    pub fn tile(&self) -> Option<[f64; D]> {
        self.as_stack().and_then(|e| e.tile())
    }

    /// One block: values (and gradient) at `coords`, which are the grid
    /// points `start..` of `grid` where that is given.
    fn block<F: Float>(
        &self,
        isa: Isa,
        coords: [&[F]; D],
        grid: Option<(&Grid<F, D>, usize)>,
        out: &mut [F],
        gradient: Option<[&mut [F]; D]>,
    ) -> Result<(), Error> {
        let n = out.len();
        let frame = Frame {
            q: coords,
            jac: None,
            grid,
        };
        let pass = Pass {
            isa,
            n,
            grad: gradient.is_some(),
        };
        let buf = self.root.eval(pass, &frame)?;
        out.copy_from_slice(&buf.v);
        if let (Some(g), Some(bg)) = (gradient, buf.g) {
            for a in 0..D {
                g[a].copy_from_slice(&bg[a]);
            }
        }
        Ok(())
    }
}

impl<const D: usize> Field<D> for GraphField<D> {
    fn sample<F: Float>(&self, p: [F; D]) -> Sample<F, D> {
        let mut v = [F::ZERO];
        let mut g = [[F::ZERO]; D];
        let coords: [[F; 1]; D] = core::array::from_fn(|a| [p[a]]);
        let res = {
            let mut it = g.iter_mut();
            let refs: [&mut [F]; D] = core::array::from_fn(|_| &mut it.next().expect("D")[..]);
            self.block(
                Isa::Scalar,
                core::array::from_fn(|a| &coords[a][..]),
                None,
                &mut v,
                Some(refs),
            )
        };
        match res {
            Ok(()) => Sample {
                value: v[0],
                gradient: core::array::from_fn(|a| g[a][0]),
            },
            // Only a user field's own error can get here.
            Err(_) => Sample {
                value: F::NAN,
                gradient: [F::NAN; D],
            },
        }
    }

    fn get<F: Float>(&self, p: [F; D]) -> F {
        let mut v = [F::ZERO];
        let coords: [[F; 1]; D] = core::array::from_fn(|a| [p[a]]);
        match self.block(
            Isa::Scalar,
            core::array::from_fn(|a| &coords[a][..]),
            None,
            &mut v,
            None,
        ) {
            Ok(()) => v[0],
            Err(_) => F::NAN,
        }
    }

    fn range(&self) -> (f64, f64) {
        self.root.range
    }

    fn fill_on<F: Float>(
        &self,
        isa: Isa,
        coords: [&[F]; D],
        out: &mut [F],
        gradient: Option<[&mut [F]; D]>,
    ) -> Result<(), Error> {
        if let Some(e) = self.as_stack() {
            return e.fill_on(isa, coords, out, gradient);
        }
        crate::field::check_lengths(&coords, out.len(), gradient.as_ref())?;
        if !isa.is_available() {
            return Err(Error::Parameter {
                name: "isa".into(),
                reason: format!("{} is not supported by this CPU", isa.name()),
            });
        }
        run_blocks(out, gradient, |start, out, g| {
            let len = out.len();
            self.block(
                isa,
                core::array::from_fn(|a| &coords[a][start..start + len]),
                None,
                out,
                g,
            )
        })
    }

    fn grid_on<F: Float>(
        &self,
        isa: Isa,
        grid: &Grid<F, D>,
        out: &mut [F],
        gradient: Option<[&mut [F]; D]>,
    ) -> Result<Bounds<F>, Error> {
        if let Some(e) = self.as_stack() {
            return e.grid_on(isa, grid, out, gradient);
        }
        if !isa.is_available() {
            return Err(Error::Parameter {
                name: "isa".into(),
                reason: format!("{} is not supported by this CPU", isa.name()),
            });
        }
        // Leaves take their stack's grid path block by block; the grid's
        // coordinates are written out only for nodes that read them.
        let points = self.root.reads_points();
        crate::field::grid_by_points(grid, out, gradient, points, |start, coords, out, g| {
            self.block(isa, coords, Some((grid, start)), out, g)
        })
    }
}
