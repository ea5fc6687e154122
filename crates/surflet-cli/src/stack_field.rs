//! Noise stacks and curl noise with their dimension chosen at run time: the
//! library fixes it at compile time, the command line learns it from the
//! input's columns or the image's slice.

use surflet::{Curl, Error, Evaluator, FractalKind, Grid, Stack};

use crate::eval::Eval;

/// A compiled noise stack in 1 to 4 dimensions.
#[derive(Clone, Debug)]
pub enum StackField {
    /// 1D.
    D1(Evaluator<1>),
    /// 2D.
    D2(Evaluator<2>),
    /// 3D.
    D3(Evaluator<3>),
    /// 4D.
    D4(Evaluator<4>),
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
        Ok(match dims {
            1 => StackField::D1(stack.build()?),
            2 => StackField::D2(stack.build()?),
            3 => StackField::D3(stack.build()?),
            4 => StackField::D4(stack.build()?),
            _ => {
                return Err(Error::Parameter {
                    name: "dimension".into(),
                    reason: format!("noise stacks have 1 to 4 dimensions, not {dims}"),
                });
            }
        })
    }

    /// The documented interval of the values: `[-B, B]` with `B` the
    /// fractal's bound (1 when normalised), narrowed to `[0, B]` for the
    /// kinds that sum non-negative terms when no octave amplitude is
    /// negative. A warp moves the points, not the values, so it changes
    /// nothing here.
    pub fn range(&self) -> (f64, f64) {
        let (bound, p) = each_dim!(self, e => (e.fractal().bound(), *e.fractal().params()));
        let non_negative = matches!(p.kind, FractalKind::Turbulence | FractalKind::Ridged)
            && p.amplitude >= 0.0
            && p.gain >= 0.0;
        if non_negative {
            (0.0, bound)
        } else {
            (-bound, bound)
        }
    }

    /// Evaluates at the first `D` numbers of `x`, in `f32` if asked (the
    /// numbers were then parsed as `f32`, so narrowing is exact), with the
    /// gradient if asked.
    pub fn eval(&self, x: &[f64], f32: bool, gradient: bool) -> Eval {
        fn go<const D: usize>(e: &Evaluator<D>, x: &[f64], f32: bool, gradient: bool) -> Eval {
            let p: [f64; D] = std::array::from_fn(|a| x[a]);
            let mut g = [0.0; crate::eval::MAX_DIMS];
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
            e: &Evaluator<D>,
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
            e: &Evaluator<D>,
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
            let mut g = [0.0; crate::eval::MAX_DIMS];
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
