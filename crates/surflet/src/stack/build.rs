//! Compiling a checked [`Stack`] into an [`Evaluator`] in `D` dimensions.

use crate::prelude_internal::*;

use super::desc::{Stack, at, rekey};
use crate::error::Error;
use crate::float::Float;
use crate::fractal::Fractal;
use crate::grid::Grid;
use crate::noise::{Noise, NoiseKind};
use crate::program::Program;
use crate::sample::Bounds;
use crate::simd::Isa;
use crate::warp::Warp;

impl Stack {
    /// Compiles the stack for `D` dimensions.
    ///
    /// Fails (naming the key) on anything [`check`](Self::check) rejects, a
    /// period or offset whose length is not `D`, a periodic noise kind that
    /// cannot tile in `D` dimensions, or an octave period past 65536.
    pub fn build<const D: usize>(&self) -> Result<Evaluator<D>, Error> {
        let plan = self.plan()?;
        let cellular = self.cellular()?;
        let mut noise = Noise::<D>::new(self.noise, self.seed);
        if let Some(c) = cellular {
            noise = noise.with_cellular(c)?;
        }
        if let Some(p) = &self.period {
            noise = noise
                .with_period(to_array(p, "period")?)
                .map_err(|e| at("period", e))?;
        }
        let fractal = Fractal::new(noise, plan.field)
            .map_err(|e| rekey(e, "fractal", "frequency", "period"))?;
        let (warp, mut program) = match plan.warp {
            None => (None, fractal.program().clone()),
            Some(w) => {
                let mut wn = Noise::<D>::new(w.noise, w.seed);
                // A cellular warp takes the stack's cellular options (the
                // defaults if the stack's noise is another).
                if w.noise == NoiseKind::Cellular {
                    wn = wn.with_cellular(cellular.unwrap_or_default())?;
                }
                if let Some(p) = &w.period {
                    wn = wn
                        .with_period(to_array(p, "period")?)
                        .map_err(|e| at("warp.frequency", e))?;
                }
                let warp = Warp::new(fractal.clone(), wn, w.params)
                    .map_err(|e| rekey(e, "warp", "warp.frequency", "warp.frequency"))?;
                let program = warp.program().clone();
                (Some(warp), program)
            }
        };
        if let Some(cells) = &self.offset {
            translate(&mut program, to_array(cells, "offset")?, self.frequency);
        }
        if self.antialias {
            let footprint = self.footprint.ok_or_else(|| {
                at(
                    "antialias",
                    "needs the spacing between samples: surflet render, the explorer and \
                     surflet analyze give their pixel's, and other callers state it as \
                     footprint (in input units)",
                )
            })?;
            program.fade(footprint);
        }
        Ok(Evaluator {
            stack: self.clone(),
            fractal,
            warp,
            program,
        })
    }
}

fn to_array<T: Copy, const D: usize>(p: &[T], key: &str) -> Result<[T; D], Error> {
    p.try_into().map_err(|_| {
        at(
            key,
            format!("has {} entries, but the stack is built in {D}D", p.len()),
        )
    })
}

/// Moves the domain of `program` by `cells` of octave 0's lattice (the
/// stack's [offset](Stack::offset)): octave `i` of every layer, warp layers
/// included, by `cells · fᵢ / frequency` of its own cells. Folded into the
/// octaves' own offsets, the move costs nothing per point, and every path
/// that evaluates the program (single points, batches, grid rows) reads the
/// same constants, so they keep returning the same bits.
fn translate<const D: usize>(program: &mut Program<D>, cells: [f64; D], frequency: f64) {
    for o in &mut program.octaves {
        let ratio = o.freq / frequency;
        // A turned octave reads `R·p`, so the point moved by `c` is read at
        // `R·p + R·c`.
        let moved = match &o.rot {
            Some(r) => array_of(|a| {
                let mut acc = r[a][0] * cells[0];
                for b in 1..D {
                    acc += r[a][b] * cells[b];
                }
                acc
            }),
            None => cells,
        };
        for (offset, &c) in o.offset.iter_mut().zip(&moved) {
            // Skipping zeros keeps octave 0's −0.0, which adds exactly
            // nothing, so an axis without a move keeps its bits.
            if c != 0.0 {
                *offset += c * ratio;
            }
        }
    }
}

impl Stack {
    /// Gives the stack, if [antialiased](Self::antialias) without a
    /// [`footprint`](Self::footprint), the footprint `pixel`: what a
    /// renderer does with its pixel's size. A `pixel` of 0 (a graph's
    /// `scale` by 0 above the stack: one point, nothing to alias) turns
    /// the fade off, and one past the `f64` range is the largest finite.
    ///
    /// ```
    /// use surflet::Stack;
    /// let mut s = Stack { antialias: true, ..Stack::default() };
    /// assert!(s.build::<2>().is_err());
    /// s.resolve_footprint(1.0 / 64.0);
    /// assert_eq!(s.footprint, Some(0.015625));
    /// s.resolve_footprint(0.5); // a stated footprint stays
    /// assert_eq!(s.footprint, Some(0.015625));
    /// assert!(s.build::<2>().is_ok());
    /// ```
    pub fn resolve_footprint(&mut self, pixel: f64) {
        if !self.antialias || self.footprint.is_some() || pixel.is_nan() {
            return;
        }
        if pixel == 0.0 {
            self.antialias = false;
        } else {
            self.footprint = Some(pixel.abs().min(f64::MAX));
        }
    }
}

/// A compiled [`Stack`] in `D` dimensions: its fractal, evaluated at warped
/// coordinates if the stack has a warp.
///
/// Evaluate it like a [`Noise`]; single points and batches return identical
/// bits.
///
/// ```
/// use surflet::Field; // the trait with get, sample, fill and grid
/// use surflet::Stack;
/// let field = Stack::from_json_str(r#"{ "noise": "value", "warp": { "amplitude": 0.5 } }"#)?.build::<3>()?;
/// let s = field.sample([0.5f32, 1.5, 2.5]);
/// assert!(s.value.abs() <= 1.0);
/// # Ok::<(), surflet::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluator<const D: usize> {
    stack: Stack,
    fractal: Fractal<D>,
    warp: Option<Warp<D>>,
    program: Program<D>,
}

impl<const D: usize> Evaluator<D> {
    /// The description it was compiled from.
    pub fn stack(&self) -> &Stack {
        &self.stack
    }

    /// The fractal (a one-octave fBm if the stack has none), without the
    /// stack's [offset](Stack::offset), which moves only the evaluator's
    /// own copy of the octaves.
    pub fn fractal(&self) -> &Fractal<D> {
        &self.fractal
    }

    /// The warp, if any, without the stack's [offset](Stack::offset) (as
    /// [`fractal`](Self::fractal)).
    pub fn warp(&self) -> Option<&Warp<D>> {
        self.warp.as_ref()
    }

    /// The interval the values lie in: the fractal's
    /// [range](Fractal::range) (a warp moves the points, not the values).
    pub fn range(&self) -> (f64, f64) {
        self.fractal.range()
    }

    /// The tile in input units (`period / frequency`), if the stack tiles.
    pub fn tile(&self) -> Option<[f64; D]> {
        self.fractal.tile()
    }

    /// The compiled program (the WGSL generator writes it out).
    #[cfg(feature = "wgsl")]
    pub(crate) fn program(&self) -> &Program<D> {
        &self.program
    }

    /// Its grid call for the grid's points `start..start + out.len()`
    /// alone: the same bits as the whole grid's (a graph's leaf over one
    /// block of a grid).
    pub(crate) fn grid_part_on<F: Float>(
        &self,
        isa: Isa,
        grid: &Grid<F, D>,
        start: usize,
        out: &mut [F],
        gradient: Option<[&mut [F]; D]>,
    ) -> Result<Bounds<F>, Error> {
        self.program.grid_part_on(isa, grid, start, out, gradient)
    }
}

crate::field::program_field!(Evaluator, |e| e.range());
