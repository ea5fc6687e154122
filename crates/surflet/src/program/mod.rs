//! The compiled form shared by fractals, domain warps, curl noise and noise
//! stacks, and its one per-lane evaluator.
//!
//! A [`Program`] is a flat list of octaves (each a seeded, possibly periodic
//! [`Noise`] with a frequency and an amplitude) and a list of layers (each a
//! fractal over a run of those octaves). The first `steps · D` layers are warp
//! layers, `D` per warp step (one per axis); the last layer is the warped
//! field. Single-point calls and every SIMD backend run the same generic
//! function, [`program_lanes`], so they return the same bits.
//!
//! Everything on the lane path is `#[inline(always)]`: it must inline into the
//! `#[target_feature]` entry points of [`crate::simd`]. Each batch operation
//! has exactly one call site of the octave noise ([`Octs::eval`], from the
//! octave loop of [`layer_lanes`], reached from one loop over layers), which
//! keeps the number of kernel copies — and the compile time — the same as a
//! plain noise fill.

// Lane code walks per-axis arrays in step; index loops read best there (and
// iterator adaptors are avoided in hot code, see kernel/mod.rs).
#![allow(clippy::needless_range_loop)]

use crate::batch::{self, Source, Work};
use crate::error::Error;
use crate::float::Float;
use crate::fractal_kind::{FractalKind, LayerAcc, add_octave, end_layer};
use crate::grid::{Bounds, Grid};
use crate::noise::{Noise, Sample};
use crate::prelude_internal::*;
use crate::simd::scalar::{Round, Scalar};
use crate::simd::{self, Isa, Simd};

mod octaves;
mod rows;
pub(crate) use octaves::*;
use rows::*;

/// One octave: its noise (seed, kind, period), the turn and the factor
/// applied to the layer's input coordinates, the offset added after them,
/// and its amplitude.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct OctaveSpec<const D: usize> {
    pub noise: Noise<D>,
    pub freq: f64,
    /// The octave's turn `R` (`x` is read at `R·x`), if it has one
    /// ([rotation](crate::fractal#octave-rotation)).
    pub rot: Option<[[f64; D]; D]>,
    pub offset: [f64; D],
    pub amp: f64,
}

/// One fractal over `octaves[first..first + count]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LayerSpec {
    pub kind: FractalKind,
    pub first: usize,
    pub count: usize,
    /// Ridged and hybrid offset.
    pub offset: f64,
    /// Ridged weight gain.
    pub weight: f64,
    /// Final factor: normalisation, times the warp amplitude for warp layers.
    pub scale: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Program<const D: usize> {
    pub octaves: Vec<OctaveSpec<D>>,
    pub layers: Vec<LayerSpec>,
    /// Number of warp steps; `layers[..steps * D]` are their per-axis layers.
    pub steps: usize,
}

impl<const D: usize> Program<D> {
    /// Appends `layer` over a copy of `octaves`, re-basing its octave index.
    pub(crate) fn push_layer(&mut self, octaves: &[OctaveSpec<D>], mut layer: LayerSpec) {
        layer.first = self.octaves.len();
        self.octaves.extend_from_slice(octaves);
        self.layers.push(layer);
    }

    /// The value at `p` (single point, [`simd::one_lane`]).
    #[inline]
    pub(crate) fn get<F: Float>(&self, p: [F; D]) -> F {
        simd::one_lane(Point::<F, D, false> { prog: self, p }).0
    }

    /// The value and gradient at `p` (single point, [`simd::one_lane`]).
    #[inline]
    pub(crate) fn sample<F: Float>(&self, p: [F; D]) -> Sample<F, D> {
        let (value, gradient) = simd::one_lane(Point::<F, D, true> { prog: self, p });
        Sample { value, gradient }
    }

    /// Value and gradient of layer `k` alone, without any warp (curl
    /// potentials).
    #[inline]
    pub(crate) fn sample_layer<F: Float>(&self, k: usize, p: [F; D]) -> Sample<F, D> {
        let s = Scalar::<F>::new();
        let octs = Lazy {
            s,
            specs: &self.octaves,
        };
        let (value, gradient) = layer_lanes(s, &self.octaves, &octs, &self.layers[k], p);
        Sample { value, gradient }
    }

    /// Batch evaluation on `isa`, values to `out` and, if asked, the gradient.
    pub(crate) fn fill_on<F: Float>(
        &self,
        isa: Isa,
        coords: [&[F]; D],
        out: &mut [F],
        gradient: Option<[&mut [F]; D]>,
    ) -> Result<(), Error> {
        batch::fill_points(self, isa, coords, out, gradient)
    }

    /// Grid evaluation on `isa`, values to `out` and, if asked, the gradient.
    pub(crate) fn grid_on<F: Float>(
        &self,
        isa: Isa,
        grid: &Grid<F, D>,
        out: &mut [F],
        gradient: Option<[&mut [F]; D]>,
    ) -> Result<Bounds<F>, Error> {
        let outs = batch::batch_outs(out, gradient);
        batch::check(isa, grid.len(), &outs, true)?;
        Ok(self.grid_part(isa, grid, 0, outs))
    }

    /// [`grid_on`](Self::grid_on) for the grid's points
    /// `start..start + out.len()` alone (a graph's block of the grid).
    pub(crate) fn grid_part_on<F: Float>(
        &self,
        isa: Isa,
        grid: &Grid<F, D>,
        start: usize,
        out: &mut [F],
        gradient: Option<[&mut [F]; D]>,
    ) -> Result<Bounds<F>, Error> {
        let outs = batch::batch_outs(out, gradient);
        let n = outs[0].len();
        batch::check(isa, n, &outs, true)?;
        if start.checked_add(n).is_none_or(|end| end > grid.len()) {
            return Err(Error::Length {
                what: "grid part".into(),
                expected: grid.len().saturating_sub(start),
                found: n,
            });
        }
        Ok(self.grid_part(isa, grid, start, outs))
    }

    fn grid_part<F: Float>(
        &self,
        isa: Isa,
        grid: &Grid<F, D>,
        start: usize,
        outs: Vec<&mut [F]>,
    ) -> Bounds<F> {
        let grad = outs.len() > 1;
        let work = Work::Grid {
            axes: grid.axes(),
            start,
        };
        batch::grid_bounds(batch::drive(self, isa, grad, work, outs))
    }
}

/// One point of a program on one lane; the gradient only if `GRAD`.
struct Point<'a, F, const D: usize, const GRAD: bool> {
    prog: &'a Program<D>,
    p: [F; D],
}

impl<F: Float, const D: usize, const GRAD: bool> simd::OneOp<F> for Point<'_, F, D, GRAD> {
    type Output = (F, [F; D]);
    #[inline(always)]
    fn run<R: Round>(self, s: Scalar<F, R>) -> (F, [F; D]) {
        let octs = Lazy {
            s,
            specs: &self.prog.octaves,
        };
        program_lanes::<_, D, _, GRAD>(s, self.prog, &octs, self.p)
    }
}

/// Evaluates one fractal layer at `x` (layer input units): the value and its
/// gradient with respect to `x`, by the chain rule through every octave.
#[inline(always)]
pub(crate) fn layer_lanes<S: Simd, const D: usize, O: Octs<S, D>>(
    s: S,
    specs: &[OctaveSpec<D>],
    octs: &O,
    layer: &LayerSpec,
    x: [S::F; D],
) -> (S::F, [S::F; D]) {
    let zero = s.zero();
    let mut acc = LayerAcc::new(s);
    for j in 0..layer.count {
        let i = layer.first + j;
        let o = octs.oct(i);
        let y = match &o.rot {
            Some(h) => turn(s, h, x),
            None => x,
        };
        let mut xi = [zero; D];
        for a in 0..D {
            xi[a] = s.add(s.mul(y[a], o.freq), o.offset[a]);
        }
        let fixed = octave_overflow(s, &mut xi, y, o.freq, o.offset);
        let (n, mut gn) = octs.eval(s, i, &specs[i].noise, &o.field, xi, !fixed);
        if let Some(h) = &o.rot {
            gn = turn_back(s, h, gn);
        }
        add_octave(
            s,
            (layer.kind, layer.offset, layer.weight),
            j,
            o.freq,
            o.amp,
            n,
            gn,
            &mut acc,
        );
    }
    end_layer(s, layer.scale, acc)
}

/// Evaluates a program at `p`: the warp steps move the point (tracking the
/// Jacobian when `GRAD`), then the last layer is evaluated at the moved point
/// and its gradient is pulled back by the chain rule, ∇ₚ = Jᵀ ∇_q.
#[inline(always)]
pub(crate) fn program_lanes<S: Simd, const D: usize, O: Octs<S, D>, const GRAD: bool>(
    s: S,
    prog: &Program<D>,
    octs: &O,
    p: [S::F; D],
) -> (S::F, [S::F; D]) {
    let zero = s.zero();
    let one = s.c(1.0);
    let mut q = p;
    let mut jac = [[zero; D]; D];
    for (a, row) in jac.iter_mut().enumerate() {
        row[a] = one;
    }
    let mut dq = [zero; D];
    let mut dg = [[zero; D]; D];
    let last = prog.layers.len() - 1;
    // One loop over all layers (warp layers, then the field), so that the
    // kernels are inlined at a single call site.
    let mut k = 0;
    loop {
        let (v, g) = layer_lanes(s, &prog.octaves, octs, &prog.layers[k], q);
        if k == last {
            if !GRAD || prog.steps == 0 {
                return (v, g);
            }
            let mut out = [zero; D];
            for b in 0..D {
                let mut acc = s.mul(g[0], jac[0][b]);
                for a in 1..D {
                    acc = s.add(acc, s.mul(g[a], jac[a][b]));
                }
                out[b] = acc;
            }
            return (v, out);
        }
        let axis = k % D;
        dq[axis] = v;
        dg[axis] = g;
        if axis == D - 1 {
            // Every axis of one step is displaced from the same point.
            for a in 0..D {
                q[a] = s.add(q[a], dq[a]);
            }
            if GRAD {
                // J ← (I + ∂displacement/∂q) · J
                let old = jac;
                for a in 0..D {
                    for b in 0..D {
                        let mut acc = old[a][b];
                        for c in 0..D {
                            acc = s.add(acc, s.mul(dg[a][c], old[c][b]));
                        }
                        jac[a][b] = acc;
                    }
                }
            }
        }
        k += 1;
    }
}

impl<F: Float, const D: usize> Source<F, D> for Program<D> {
    #[inline(always)]
    fn run<S: Simd<E = F>>(
        &self,
        s: S,
        grad: bool,
        work: Work<'_, F, D>,
        outs: &mut [&mut [F]],
    ) -> (F, F) {
        // Grid rows go octave by octave along the row's axis, which a
        // turned octave does not keep: those points go one vector at a time.
        let rows = matches!(work, Work::Grid { .. })
            && self.steps == 0
            && self.octaves.iter().all(|o| o.rot.is_none());
        let octs = Cached::new(s, &self.octaves, rows);
        if grad {
            let l = ProgLanes::<S, D, true>::new(self, octs);
            batch::exec(s, &l, work, outs)
        } else {
            let l = ProgLanes::<S, D, false>::new(self, octs);
            batch::exec(s, &l, work, outs)
        }
    }
}
