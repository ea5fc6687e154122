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
use crate::grid::Grid;
use crate::prelude_internal::*;
use crate::sample::{Bounds, Sample};
use crate::simd::scalar::{Round, Scalar};
use crate::simd::{self, Isa, Simd};

mod lanes;
mod octaves;
mod rows;
mod spec;

pub(crate) use lanes::{layer_lanes, program_lanes};
pub(crate) use octaves::{Cached, Lazy, Octs};
use rows::ProgLanes;
pub(crate) use spec::{LayerSpec, OctaveSpec, Program};

impl<const D: usize> Program<D> {
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
        // Each gradient flag out of line: one entry point with both held
        // every kernel twice, and the optimiser's time grows faster than a
        // function's size (a fifth of the library's release build).
        if grad {
            s.outline(Engine::<F, D, true> {
                prog: self,
                rows,
                work,
                outs,
            })
        } else {
            s.outline(Engine::<F, D, false> {
                prog: self,
                rows,
                work,
                outs,
            })
        }
    }
}

/// A program's batch engine on one backend, with or without the gradient.
struct Engine<'a, 'w, 'b, 'o, F, const D: usize, const GRAD: bool> {
    prog: &'a Program<D>,
    rows: bool,
    work: Work<'w, F, D>,
    outs: &'b mut [&'o mut [F]],
}

impl<S: Simd, const D: usize, const GRAD: bool> simd::Call<S>
    for Engine<'_, '_, '_, '_, S::E, D, GRAD>
{
    type Output = (S::E, S::E);
    #[inline(always)]
    fn call(self, s: S) -> (S::E, S::E) {
        let octs = Cached::new(s, &self.prog.octaves, self.rows);
        let l = ProgLanes::<S, D, GRAD>::new(self.prog, octs);
        batch::exec(s, &l, self.work, self.outs)
    }
}
