//! A graph compiled for one dimension: the tree of compiled nodes with
//! their derived ranges, the block evaluator they share, and the
//! [`Field`] implementation. What each kind of node does is its unit's, in
//! [`kinds`](super::kinds).

// Per-axis arrays are walked in step; index loops read best there.
#![allow(clippy::needless_range_loop)]

use super::ast::Graph;
use super::eval::{Frame, Pass};
use super::kinds::{self, Cx, Node, Op};
use crate::error::Error;
use crate::field::{Field, run_blocks, sample_by_fill};
use crate::float::Float;
use crate::grid::Grid;
use crate::prelude_internal::array_of;
use crate::sample::{Bounds, Sample};
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

    /// The graph as a WGSL module defining `fn name(p) -> f32` and
    /// `fn name_gradient(p)`, as [`Evaluator::wgsl`] does for a stack (its
    /// [module documentation](crate::wgsl) has the rules that make a
    /// driver compute the CPU's bits). Each node is written by its kind's
    /// unit, beside its CPU evaluation, with the same operations in the
    /// same order; a graph that is a single stack gives that stack's module.
    ///
    /// Fails where [`Evaluator::wgsl`] does (dimension, noise, name), and
    /// on the one node that has no WGSL form: a custom field (Rust code).
    /// A power with a non-integer exponent is computed in double-`f32`
    /// arithmetic in `f32` on both sides (so its `f32` results are within
    /// a unit of `f64::powf`'s, rounded).
    ///
    /// ```
    /// use surflet::Graph;
    /// let g = Graph::parse("select(simplex(), perlin(seed=2), control=value(seed=3), falloff=0.1)")?;
    /// let wgsl = g.build::<2>()?.wgsl("terrain")?;
    /// assert!(wgsl.contains("fn terrain(p: vec2<f32>) -> f32"));
    /// assert!(wgsl.contains("fn terrain_gradient(p: vec2<f32>) -> vec3<f32>"));
    /// # Ok::<(), surflet::Error>(())
    /// ```
    #[cfg(feature = "wgsl")]
    pub fn wgsl(&self, name: &str) -> Result<String, Error> {
        if let Some(e) = self.as_stack() {
            return e.wgsl(name);
        }
        crate::wgsl::check::<D>(name)?;
        let mut w = super::wgsl::Out::<D>::new(name);
        let root = self.root.wgsl(&mut w, false)?;
        Ok(w.finish(&root))
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
        // Only a user field's own error can fail the call (NaN then).
        sample_by_fill(p, |coords, v, g| {
            self.block(Isa::Scalar, coords, None, v, g)
        })
    }

    fn get<F: Float>(&self, p: [F; D]) -> F {
        let mut v = [F::ZERO];
        let coords: [[F; 1]; D] = array_of(|a| [p[a]]);
        match self.block(
            Isa::Scalar,
            array_of(|a| &coords[a][..]),
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
            return Err(isa.unavailable());
        }
        run_blocks(out, gradient, |start, out, g| {
            let len = out.len();
            self.block(
                isa,
                array_of(|a| &coords[a][start..start + len]),
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
            return Err(isa.unavailable());
        }
        // Leaves take their stack's grid path block by block; the grid's
        // coordinates are written out only for nodes that read them.
        let points = self.root.reads_points();
        crate::field::grid_by_points(grid, out, gradient, points, |start, coords, out, g| {
            self.block(isa, coords, Some((grid, start)), out, g)
        })
    }
}
