//! What the command line asks of a field whose dimension it learned at run
//! time ([`surflet::dynamic::DynField`], the library's one erasure): one
//! line's evaluation as an [`Eval`], grids over `f64` coordinate lists in
//! `f64` or in `f32`, and point arrays.

use surflet::Error;
#[cfg(any(feature = "serve", feature = "plots"))]
use surflet::dynamic::Points;
use surflet::dynamic::{DynField, GradientOut, Region};

use crate::sampled::{Eval, MAX_DIMS};

/// The command line's calls on a [`DynField`].
pub trait FieldCalls {
    /// Evaluates at the first `D` numbers of `x`, in `f32` if asked (the
    /// numbers were then parsed as `f32`, so narrowing is exact), with the
    /// gradient if asked.
    fn eval(&self, x: &[f64], f32: bool, gradient: bool) -> Eval;

    /// Grid evaluation in `f64` for `render`: the grid of the first `D`
    /// coordinate lists (x fastest), values to `out` and, if asked, the
    /// partial derivatives to the first `D` gradient slices.
    fn fill_grid(
        &self,
        axes: [&[f64]; 4],
        out: &mut [f64],
        gradient: Option<[&mut [f64]; 4]>,
    ) -> Result<(), Error>;

    /// [`fill_grid`](Self::fill_grid) in `f32`: the coordinates rounded to
    /// `f32`, the results widened (exactly) to `f64`.
    fn fill_grid_f32(
        &self,
        axes: [&[f64]; 4],
        out: &mut [f64],
        gradient: Option<[&mut [f64]; 4]>,
    ) -> Result<(), Error>;

    /// Point-array evaluation in `f64`: the value at `(coords[0][i],
    /// coords[1][i], ...)` to `out[i]`; only the first `D` lists are read.
    #[cfg(any(feature = "serve", feature = "plots"))]
    fn fill_points(&self, coords: [&[f64]; 4], out: &mut [f64]) -> Result<(), Error>;
}

/// The first `d` of four gradient slices, as the library takes them.
fn first(d: usize, four: [&mut [f64]; 4]) -> GradientOut<'_, f64> {
    GradientOut::Axes(four.into_iter().take(d).collect())
}

fn four_axes(d: usize) -> Result<(), Error> {
    if d > 4 {
        return Err(Error::Parameter {
            name: "dimension".into(),
            reason: format!("grids and point arrays here have at most 4 axes, not {d}"),
        });
    }
    Ok(())
}

impl FieldCalls for DynField {
    fn eval(&self, x: &[f64], f32: bool, gradient: bool) -> Eval {
        let d = self.dims();
        let mut g = [0.0; MAX_DIMS];
        let value = if f32 {
            let p: Vec<f32> = x[..d].iter().map(|&v| v as f32).collect();
            let s = self.sample(&p);
            if gradient {
                for (o, v) in g.iter_mut().zip(s.gradient) {
                    *o = f64::from(v);
                }
            }
            f64::from(s.value)
        } else {
            let s = self.sample(&x[..d]);
            if gradient {
                g = s.gradient;
            }
            s.value
        };
        Eval { value, gradient: g }
    }

    fn fill_grid(
        &self,
        axes: [&[f64]; 4],
        out: &mut [f64],
        gradient: Option<[&mut [f64]; 4]>,
    ) -> Result<(), Error> {
        let d = self.dims();
        four_axes(d)?;
        let g = gradient.map(|g| first(d, g));
        self.grid(Region::Axes(&axes[..d]), out, g).map(|_| ())
    }

    fn fill_grid_f32(
        &self,
        axes: [&[f64]; 4],
        out: &mut [f64],
        gradient: Option<[&mut [f64]; 4]>,
    ) -> Result<(), Error> {
        let d = self.dims();
        four_axes(d)?;
        let axes32: Vec<Vec<f32>> = axes[..d]
            .iter()
            .map(|a| a.iter().map(|&v| v as f32).collect())
            .collect();
        let refs: Vec<&[f32]> = axes32.iter().map(Vec::as_slice).collect();
        let n = out.len();
        let mut v = vec![0f32; n];
        let mut g: Vec<Vec<f32>> = Vec::new();
        if gradient.is_some() {
            g = (0..d).map(|_| vec![0f32; n]).collect();
        }
        let slices = gradient
            .is_some()
            .then(|| GradientOut::Axes(g.iter_mut().map(Vec::as_mut_slice).collect()));
        self.grid(Region::Axes(&refs), &mut v, slices)?;
        widen(out, &v);
        for (o, s) in gradient.into_iter().flatten().zip(&g) {
            widen(o, s);
        }
        Ok(())
    }

    #[cfg(any(feature = "serve", feature = "plots"))]
    fn fill_points(&self, coords: [&[f64]; 4], out: &mut [f64]) -> Result<(), Error> {
        let d = self.dims();
        four_axes(d)?;
        self.fill(Points::Axes(&coords[..d]), out, None)
    }
}

/// `from` widened to `f64` into `out` (exact: every `f32` is an `f64`).
pub fn widen(out: &mut [f64], from: &[f32]) {
    for (o, v) in out.iter_mut().zip(from) {
        *o = f64::from(*v);
    }
}
