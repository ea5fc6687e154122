//! Any `surflet::Field` with its dimension chosen at run time: the library
//! fixes the dimension at compile time, the command line learns it from the
//! input's columns or the image's slice. One generic wrapper erases it for
//! every field type (noises in 1D–8D, stacks, graphs), so the command line
//! has one per-dimension dispatch, made once when the field is built.

use std::fmt;
use std::sync::Arc;

use surflet::{Error, Field, Float, Grid};

use crate::sampled::{Eval, MAX_DIMS};

/// The calls the command line makes, on slices of run-time length.
trait Erased: Send + Sync {
    fn dims(&self) -> usize;
    fn range(&self) -> (f64, f64);
    fn eval(&self, x: &[f64], f32: bool, gradient: bool) -> Eval;
    fn fill_grid(
        &self,
        axes: [&[f64]; 4],
        out: &mut [f64],
        gradient: Option<[&mut [f64]; 4]>,
    ) -> Result<(), Error>;
    fn fill_grid_f32(
        &self,
        axes: [&[f64]; 4],
        out: &mut [f64],
        gradient: Option<[&mut [f64]; 4]>,
    ) -> Result<(), Error>;
    #[cfg(feature = "serve")]
    fn fill_points(&self, coords: [&[f64]; 4], out: &mut [f64]) -> Result<(), Error>;
}

struct Dim<T, const D: usize>(T);

impl<T: Field<D>, const D: usize> Erased for Dim<T, D> {
    fn dims(&self) -> usize {
        D
    }

    fn range(&self) -> (f64, f64) {
        self.0.range()
    }

    fn eval(&self, x: &[f64], f32: bool, gradient: bool) -> Eval {
        let p: [f64; D] = std::array::from_fn(|a| x[a]);
        let mut g = [0.0; MAX_DIMS];
        let value = match (f32, gradient) {
            (false, false) => self.0.get(p),
            // Exact: the numbers were parsed as f32.
            (true, false) => f64::from(self.0.get(p.map(|v| v as f32))),
            (false, true) => {
                let s = self.0.sample(p);
                g[..D].copy_from_slice(&s.gradient);
                s.value
            }
            (true, true) => {
                let s = self.0.sample(p.map(|v| v as f32));
                for (o, v) in g.iter_mut().zip(s.gradient) {
                    *o = f64::from(v);
                }
                f64::from(s.value)
            }
        };
        Eval { value, gradient: g }
    }

    fn fill_grid(
        &self,
        axes: [&[f64]; 4],
        out: &mut [f64],
        gradient: Option<[&mut [f64]; 4]>,
    ) -> Result<(), Error> {
        grid_in(&self.0, axes, out, gradient.map(first::<D>))
    }

    fn fill_grid_f32(
        &self,
        axes: [&[f64]; 4],
        out: &mut [f64],
        gradient: Option<[&mut [f64]; 4]>,
    ) -> Result<(), Error> {
        // Evaluated into f32 buffers, then widened (exactly).
        let n = out.len();
        let mut v = vec![0f32; n];
        let mut g: [Vec<f32>; D] = std::array::from_fn(|_| Vec::new());
        if gradient.is_some() {
            g = std::array::from_fn(|_| vec![0f32; n]);
        }
        let mut it = g.iter_mut();
        let slices: [&mut [f32]; D] = std::array::from_fn(|_| &mut it.next().expect("D")[..]);
        grid_in(&self.0, axes, &mut v, gradient.is_some().then_some(slices))?;
        widen(out, &v);
        for (o, s) in gradient.into_iter().flatten().zip(&g) {
            widen(o, s);
        }
        Ok(())
    }

    #[cfg(feature = "serve")]
    fn fill_points(&self, coords: [&[f64]; 4], out: &mut [f64]) -> Result<(), Error> {
        if D > 4 {
            return Err(too_many(D));
        }
        self.0.fill(std::array::from_fn(|a| coords[a]), out)
    }
}

/// The grid of the first `D` coordinate lists, evaluated in `F` (the
/// coordinates rounded to `F`): values to `out`, and the gradient if asked.
fn grid_in<F: Float, T: Field<D>, const D: usize>(
    field: &T,
    axes: [&[f64]; 4],
    out: &mut [F],
    gradient: Option<[&mut [F]; D]>,
) -> Result<(), Error> {
    if D > 4 {
        return Err(too_many(D));
    }
    let grid = Grid::from_axes(std::array::from_fn(|a| {
        axes[a].iter().map(|&v| F::from_f64(v)).collect()
    }))?;
    match gradient {
        None => field.grid(&grid, out)?,
        Some(g) => field.grid_gradient(&grid, out, g)?,
    };
    Ok(())
}

/// The first `D` of four slices.
fn first<const D: usize>(four: [&mut [f64]; 4]) -> [&mut [f64]; D] {
    let mut it = four.into_iter();
    std::array::from_fn(|_| it.next().expect("four slices"))
}

/// `from` widened to `f64` into `out` (exact: every `f32` is an `f64`).
pub fn widen(out: &mut [f64], from: &[f32]) {
    for (o, v) in out.iter_mut().zip(from) {
        *o = f64::from(*v);
    }
}

fn too_many(d: usize) -> Error {
    Error::Parameter {
        name: "dimension".into(),
        reason: format!("grids and point arrays here have at most 4 axes, not {d}"),
    }
}

/// A scalar field in the dimension found at run time.
#[derive(Clone)]
pub struct AnyField(Arc<dyn Erased>);

impl fmt::Debug for AnyField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AnyField({}D)", self.0.dims())
    }
}

impl AnyField {
    /// Erases `field`'s dimension.
    pub fn new<T: Field<D> + 'static, const D: usize>(field: T) -> AnyField {
        AnyField(Arc::new(Dim::<T, D>(field)))
    }

    /// The derived interval of the values.
    pub fn range(&self) -> (f64, f64) {
        self.0.range()
    }

    /// Evaluates at the first `D` numbers of `x`, in `f32` if asked (the
    /// numbers were then parsed as `f32`, so narrowing is exact), with the
    /// gradient if asked.
    pub fn eval(&self, x: &[f64], f32: bool, gradient: bool) -> Eval {
        self.0.eval(x, f32, gradient)
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
        self.0.fill_grid(axes, out, gradient)
    }

    /// [`fill_grid`](Self::fill_grid) in `f32`: the coordinates rounded to
    /// `f32`, the results widened (exactly) to `f64`.
    pub fn fill_grid_f32(
        &self,
        axes: [&[f64]; 4],
        out: &mut [f64],
        gradient: Option<[&mut [f64]; 4]>,
    ) -> Result<(), Error> {
        self.0.fill_grid_f32(axes, out, gradient)
    }

    /// Point-array evaluation in `f64`: the value at `(coords[0][i],
    /// coords[1][i], ...)` to `out[i]`; only the first `D` lists are read.
    #[cfg(feature = "serve")]
    pub fn fill_points(&self, coords: [&[f64]; 4], out: &mut [f64]) -> Result<(), Error> {
        self.0.fill_points(coords, out)
    }
}
