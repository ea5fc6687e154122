//! How compiled nodes evaluate: the [`Eval`] trait, the block being
//! evaluated ([`Pass`], [`Frame`]) and what a node returns ([`Buf`]), with
//! the helpers every kind shares.

use crate::prelude_internal::*;

use crate::error::Error;
use crate::float::Float;
use crate::grid::Grid;
use crate::simd::Isa;

#[cfg(feature = "wgsl")]
use super::wgsl::Out;

/// What a compiled node does over a block of points.
pub(in crate::graph) trait Eval<const D: usize>: Clone {
    /// The node's values over the block at `f` and, if `p.grad`, their
    /// gradient with respect to the input point.
    fn eval<F: Float>(&self, p: Pass, f: &Frame<'_, F, D>) -> Result<Buf<F, D>, Error>;
    /// Whether evaluating it over a grid frame reads the frame's
    /// coordinates: domain transforms and displacements move them, and a
    /// user's field is called with them. Leaves use the grid itself.
    fn reads_points(&self) -> bool;
    /// The node as a WGSL function (`graph::wgsl`), written for a frame
    /// with a Jacobian if `jac`: its name.
    #[cfg(feature = "wgsl")]
    fn wgsl(&self, w: &mut Out<D>, jac: bool) -> Result<String, Error>;
}

/// How a block is evaluated: the instruction set, the number of points,
/// and whether the gradient is asked for.
#[derive(Clone, Copy)]
pub(in crate::graph) struct Pass {
    pub isa: Isa,
    pub n: usize,
    pub grad: bool,
}

/// Where a node is evaluated: the (possibly transformed) coordinates `q`
/// and, when gradients are asked for, the Jacobian `∂q[a]/∂p[b]` with
/// respect to the input point (`None`: the identity).
pub(in crate::graph) struct Frame<'a, F, const D: usize> {
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
pub(in crate::graph) struct Buf<F, const D: usize> {
    pub v: Vec<F>,
    pub g: Option<[Vec<F>; D]>,
}

/// `∇ₚ = Jᵀ ∇_q`, summed in axis order as the stacks' warps do.
pub(in crate::graph) fn pull_back<F: Float, const D: usize>(
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
pub(in crate::graph) fn fill_leaf<F: Float, const D: usize>(
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
pub(in crate::graph) fn each<F: Float, const D: usize>(x: &mut Buf<F, D>, f: impl Fn(F) -> (F, F)) {
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
pub(in crate::graph) fn zip<F: Float, const D: usize>(
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

pub(in crate::graph) fn zeros<F: Float, const D: usize>(n: usize) -> [Vec<F>; D] {
    core::array::from_fn(|_| vec![F::ZERO; n])
}
