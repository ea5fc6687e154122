//! [`Field`]: the one trait every scalar field implements — noises,
//! fractals, warps, stacks, noise graphs and your own types — so that
//! generic code and [graphs](crate::graph) can take any of them.

use crate::batch;
use crate::error::Error;
use crate::float::{DynField, Float};
use crate::grid::Grid;
use crate::prelude_internal::*;
use crate::sample::{Bounds, Sample};
use crate::simd::Isa;

/// A scalar field over `D`-dimensional space with an analytic gradient: a
/// value at every point, the interval the values lie in, and batch and grid
/// calls.
///
/// Only [`sample`](Field::sample) and [`range`](Field::range) are required;
/// the batch and grid calls default to a loop over
/// [`sample`](Field::sample)/[`get`](Field::get). surflet's own types
/// override them with their SIMD paths, which give the same bits as the
/// single-point calls on every instruction set and thread count.
///
/// A field of your own combines with surflet's through
/// [`Graph::custom`](crate::graph::Graph::custom):
///
/// ```
/// use surflet::prelude::*;
///
/// /// A ramp along x: x / 10, clamped to [-1, 1].
/// struct Ramp;
/// impl Field<2> for Ramp {
///     fn sample<F: Float>(&self, p: [F; 2]) -> Sample<F, 2> {
///         let ten = F::from_f64(10.0);
///         let v = p[0] / ten;
///         let inside = v > -F::ONE && v < F::ONE;
///         let clamped = if v < -F::ONE { -F::ONE } else if v > F::ONE { F::ONE } else { v };
///         let dx = if inside { F::ONE / ten } else { F::ZERO };
///         Sample { value: clamped, gradient: [dx, F::ZERO] }
///     }
///     fn range(&self) -> (f64, f64) {
///         (-1.0, 1.0)
///     }
/// }
///
/// fn mean<Fd: Field<2>>(f: &Fd) -> f64 {
///     let grid = Grid::uniform([0.0f64; 2], [0.25; 2], [16, 16]).unwrap();
///     let mut out = vec![0.0; grid.len()];
///     f.grid(&grid, &mut out).unwrap();
///     out.iter().sum::<f64>() / out.len() as f64
/// }
/// assert!(mean(&Ramp) > 0.0);
/// assert!(mean(&Noise::<2>::new(NoiseKind::Simplex, 1)).abs() < 1.0);
/// ```
pub trait Field<const D: usize>: Send + Sync {
    /// The value and its gradient (the partial derivatives) at `p`.
    fn sample<F: Float>(&self, p: [F; D]) -> Sample<F, D>;

    /// The interval `(min, max)` that every value lies in (NaN aside: a NaN
    /// or infinite coordinate gives NaN). surflet's fields derive it from
    /// their parameters; it need not be tight, but it must hold.
    fn range(&self) -> (f64, f64);

    /// The value at `p`.
    #[inline]
    fn get<F: Float>(&self, p: [F; D]) -> F {
        self.sample(p).value
    }

    /// Evaluates at `coords[0][i], coords[1][i], ...` for every `i` on
    /// `isa`, writing the values to `out` and, if asked, the partial
    /// derivatives to `gradient[axis]`. Every slice must have the length of
    /// `out` ([`Error::Length`]). The default loops over
    /// [`get`](Field::get) or [`sample`](Field::sample) and ignores `isa`.
    fn fill_on<F: Float>(
        &self,
        isa: Isa,
        coords: [&[F]; D],
        out: &mut [F],
        gradient: Option<[&mut [F]; D]>,
    ) -> Result<(), Error> {
        let _ = isa;
        check_lengths(&coords, out.len(), gradient.as_ref())?;
        match gradient {
            None => {
                for (i, o) in out.iter_mut().enumerate() {
                    *o = self.get(array_of(|a| coords[a][i]));
                }
            }
            Some(mut g) => {
                for (i, o) in out.iter_mut().enumerate() {
                    let s = self.sample(array_of(|a| coords[a][i]));
                    *o = s.value;
                    for (ga, v) in g.iter_mut().zip(s.gradient) {
                        ga[i] = v;
                    }
                }
            }
        }
        Ok(())
    }

    /// [`fill_on`](Field::fill_on) on the widest instruction set available,
    /// values only.
    fn fill<F: Float>(&self, coords: [&[F]; D], out: &mut [F]) -> Result<(), Error> {
        self.fill_on(Isa::detect(), coords, out, None)
    }

    /// [`fill_on`](Field::fill_on) on the widest instruction set available,
    /// with the gradient.
    fn fill_gradient<F: Float>(
        &self,
        coords: [&[F]; D],
        out: &mut [F],
        gradient: [&mut [F]; D],
    ) -> Result<(), Error> {
        self.fill_on(Isa::detect(), coords, out, Some(gradient))
    }

    /// Fills `out` with the values at the points of `grid` (x fastest) and
    /// returns their [`Bounds`]: the same bits as [`get`](Field::get) at
    /// each [`Grid::point`]. The default evaluates the grid's points in
    /// blocks through [`fill_on`](Field::fill_on).
    fn grid_on<F: Float>(
        &self,
        isa: Isa,
        grid: &Grid<F, D>,
        out: &mut [F],
        gradient: Option<[&mut [F]; D]>,
    ) -> Result<Bounds<F>, Error> {
        grid_by_points(grid, out, gradient, true, |_, coords, out, g| {
            self.fill_on(isa, coords, out, g)
        })
    }

    /// [`grid_on`](Field::grid_on) on the widest instruction set available,
    /// values only.
    fn grid<F: Float>(&self, grid: &Grid<F, D>, out: &mut [F]) -> Result<Bounds<F>, Error> {
        self.grid_on(Isa::detect(), grid, out, None)
    }

    /// [`grid_on`](Field::grid_on) on the widest instruction set available,
    /// with the gradient.
    fn grid_gradient<F: Float>(
        &self,
        grid: &Grid<F, D>,
        out: &mut [F],
        gradient: [&mut [F]; D],
    ) -> Result<Bounds<F>, Error> {
        self.grid_on(Isa::detect(), grid, out, Some(gradient))
    }
}

/// Checks that the coordinate and gradient slices have `n` entries.
pub(crate) fn check_lengths<F, const D: usize>(
    coords: &[&[F]; D],
    n: usize,
    gradient: Option<&[&mut [F]; D]>,
) -> Result<(), Error> {
    crate::batch::check_coords(coords, n)?;
    if let Some(g) = gradient {
        for (a, s) in g.iter().enumerate() {
            if s.len() != n {
                return Err(Error::Length {
                    what: format!("gradient slice {a}"),
                    expected: n,
                    found: s.len(),
                });
            }
        }
    }
    Ok(())
}

/// The value and gradient at `p` from a batch call `fill` on one point
/// (what a batch call gives at a point is what a single-point call gives,
/// so this is the field's `sample`, through code its batch calls compile
/// anyway). A failed call gives NaN.
pub(crate) fn sample_by_fill<F: Float, const D: usize>(
    p: [F; D],
    fill: impl FnOnce([&[F]; D], &mut [F], Option<[&mut [F]; D]>) -> Result<(), Error>,
) -> Sample<F, D> {
    let coords: [[F; 1]; D] = array_of(|a| [p[a]]);
    let (mut v, mut g) = ([F::ZERO], [[F::ZERO]; D]);
    let res = {
        let mut it = g.iter_mut();
        let refs: [&mut [F]; D] = core::array::from_fn(|_| &mut it.next().expect("D")[..]);
        fill(array_of(|a| &coords[a][..]), &mut v, Some(refs))
    };
    match res {
        Ok(()) => Sample {
            value: v[0],
            gradient: array_of(|a| g[a][0]),
        },
        Err(_) => Sample {
            value: F::NAN,
            gradient: [F::NAN; D],
        },
    }
}

/// The smallest and largest non-NaN value of `v`, a zero counted as `+0`
/// (the convention of every grid call).
pub(crate) fn bounds_of<F: Float>(v: &[F]) -> Bounds<F> {
    let (min, max) = crate::batch::bounds(Isa::detect(), v);
    Bounds { min, max }
}

/// Points per block of the block-by-block evaluators (graphs, grids of
/// fields without a grid path of their own).
pub(crate) const BLOCK: usize = 4096;

/// Runs `f(start, out, gradient)` over consecutive blocks of `out` (and the
/// gradient slices), in parallel on the current rayon pool with the `rayon`
/// feature. Each output element is computed from its own point alone, so
/// the split never changes a bit.
pub(crate) fn run_blocks<F: Float, const D: usize>(
    out: &mut [F],
    gradient: Option<[&mut [F]; D]>,
    f: impl Fn(usize, &mut [F], Option<[&mut [F]; D]>) -> Result<(), Error> + Sync,
) -> Result<(), Error> {
    run_blocks_with(out, gradient, (), |start, o, g| f(start, o, g), |_, _| ())
}

/// [`run_blocks`] where each block also returns a value, the values of all
/// blocks combined by `reduce` (in any grouping: it must be associative and
/// commutative, as min and max are). Blocks of [`BLOCK`] points, split by
/// the batch engine's one splitter ([`batch::run_blocks`]).
pub(crate) fn run_blocks_with<F: Float, R: Send + Sync + Copy, const D: usize>(
    out: &mut [F],
    gradient: Option<[&mut [F]; D]>,
    identity: R,
    f: impl Fn(usize, &mut [F], Option<[&mut [F]; D]>) -> Result<R, Error> + Sync,
    reduce: impl Fn(R, R) -> R + Sync + Send,
) -> Result<R, Error> {
    let n = out.len();
    let grad = gradient.is_some();
    let outs = crate::batch::batch_outs(out, gradient);
    let block = batch::block_len(n, batch::threads(), BLOCK);
    batch::run_blocks(
        outs,
        block,
        &FieldBlocks::<R, _, _, D> {
            grad,
            identity,
            f,
            reduce,
            dims: core::marker::PhantomData,
        },
    )
}

/// [`run_blocks_with`]'s work for [`batch::run_blocks`].
struct FieldBlocks<R, Fun, Red, const D: usize> {
    grad: bool,
    identity: R,
    f: Fun,
    reduce: Red,
    dims: core::marker::PhantomData<[(); D]>,
}

impl<F: Float, R: Send + Sync + Copy, Fun, Red, const D: usize> batch::Blocks<F>
    for FieldBlocks<R, Fun, Red, D>
where
    Fun: Fn(usize, &mut [F], Option<[&mut [F]; D]>) -> Result<R, Error> + Sync,
    Red: Fn(R, R) -> R + Sync + Send,
{
    type Output = Result<R, Error>;
    fn identity(&self) -> Result<R, Error> {
        Ok(self.identity)
    }
    fn run(&self, start: usize, mut outs: Vec<&mut [F]>) -> Result<R, Error> {
        let rest = outs.split_off(1);
        let out = outs.pop().expect("the value slice");
        let g = self.grad.then(|| {
            let mut it = rest.into_iter();
            core::array::from_fn(|_| it.next().expect("one slice per axis"))
        });
        (self.f)(start, out, g)
    }
    fn reduce(&self, a: Result<R, Error>, b: Result<R, Error>) -> Result<R, Error> {
        Ok((self.reduce)(a?, b?))
    }
}

/// Evaluates `grid` block by block through a point call
/// `fill(start, coords, out, gradient)` for the grid's points
/// `start..start + out.len()`, and returns the bounds of what it wrote.
/// With `points`, the grid's coordinates are written out per block (the
/// same values as [`Grid::point`], so the same bits as single points);
/// without, `coords` are empty, for a `fill` that evaluates the grid's
/// points by their index.
pub(crate) fn grid_by_points<F: Float, const D: usize>(
    grid: &Grid<F, D>,
    out: &mut [F],
    gradient: Option<[&mut [F]; D]>,
    points: bool,
    fill: impl Fn(usize, [&[F]; D], &mut [F], Option<[&mut [F]; D]>) -> Result<(), Error> + Sync,
) -> Result<Bounds<F>, Error> {
    let n = grid.len();
    if out.len() != n {
        return Err(Error::Length {
            what: "output slice".into(),
            expected: n,
            found: out.len(),
        });
    }
    if let Some(g) = &gradient {
        check_lengths(&[&out[..]; D], n, Some(g))?;
    }
    let axes = grid.axes();
    let shape = grid.shape();
    run_blocks_with(
        out,
        gradient,
        Bounds {
            min: F::INFINITY,
            max: F::NEG_INFINITY,
        },
        |start, out, g| {
            let len = out.len();
            // Axis 0 runs through its list (copied a row at a time); every other
            // axis holds each coordinate for `stride` points (filled in runs).
            let coords: [Vec<F>; D] = core::array::from_fn(|a| {
                if !points {
                    return Vec::new();
                }
                let stride: usize = shape[..a].iter().product();
                let mut idx = (start / stride) % shape[a];
                let mut run = start % stride;
                let mut c = Vec::with_capacity(len);
                while c.len() < len {
                    let left = len - c.len();
                    if stride == 1 {
                        let k = (shape[a] - idx).min(left);
                        c.extend_from_slice(&axes[a][idx..idx + k]);
                        idx = (idx + k) % shape[a];
                    } else {
                        let k = (stride - run).min(left);
                        c.resize(c.len() + k, axes[a][idx]);
                        run += k;
                        if run == stride {
                            run = 0;
                            idx = (idx + 1) % shape[a];
                        }
                    }
                }
                c
            });
            fill(start, array_of(|a| &coords[a][..]), out, g)?;
            Ok(bounds_of(out))
        },
        // Bounds per block, then their min and max: the same as the bounds of
        // the whole (a zero already counts as +0 in each).
        |a, b| Bounds {
            min: if b.min < a.min { b.min } else { a.min },
            max: if b.max > a.max { b.max } else { a.max },
        },
    )
}

/// The [`Field`] impl of a type that wraps a compiled program in a field
/// named `program`: every call runs the program's one per-lane evaluator,
/// so all of them give the same bits.
macro_rules! program_field {
    ($ty:ident, $range:expr) => {
        impl<const D: usize> $crate::Field<D> for $crate::$ty<D> {
            #[inline]
            fn sample<F: $crate::Float>(&self, p: [F; D]) -> $crate::Sample<F, D> {
                self.program.sample(p)
            }
            fn range(&self) -> (f64, f64) {
                let f: fn(&$crate::$ty<D>) -> (f64, f64) = $range;
                f(self)
            }
            #[inline]
            fn get<F: $crate::Float>(&self, p: [F; D]) -> F {
                self.program.get(p)
            }
            fn fill_on<F: $crate::Float>(
                &self,
                isa: $crate::Isa,
                coords: [&[F]; D],
                out: &mut [F],
                gradient: Option<[&mut [F]; D]>,
            ) -> Result<(), $crate::Error> {
                self.program.fill_on(isa, coords, out, gradient)
            }
            fn grid_on<F: $crate::Float>(
                &self,
                isa: $crate::Isa,
                grid: &$crate::Grid<F, D>,
                out: &mut [F],
                gradient: Option<[&mut [F]; D]>,
            ) -> Result<$crate::Bounds<F>, $crate::Error> {
                self.program.grid_on(isa, grid, out, gradient)
            }
        }
    };
}
pub(crate) use program_field;

impl<T: Field<D>, const D: usize> DynField<D> for T {
    fn range_dyn(&self) -> (f64, f64) {
        self.range()
    }
    fn fill_f32(
        &self,
        isa: Isa,
        coords: [&[f32]; D],
        out: &mut [f32],
        gradient: Option<[&mut [f32]; D]>,
    ) -> Result<(), Error> {
        self.fill_on(isa, coords, out, gradient)
    }
    fn fill_f64(
        &self,
        isa: Isa,
        coords: [&[f64]; D],
        out: &mut [f64],
        gradient: Option<[&mut [f64]; D]>,
    ) -> Result<(), Error> {
        self.fill_on(isa, coords, out, gradient)
    }
}

#[cfg(test)]
mod tests {
    use super::bounds_of;
    use crate::batch::bounds;
    use crate::simd::Isa;

    /// The bounds kept per lane equal one running bound over every length
    /// around the vector sizes, with NaN, −0 and infinities placed
    /// anywhere, on every instruction set the CPU has.
    #[test]
    fn bounds_of_matches_a_running_bound() {
        let mut state = 0x9E37_79B9u32;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        };
        for n in 0..70 {
            for _ in 0..20 {
                let v: Vec<f32> = (0..n)
                    .map(|_| match next() % 10 {
                        0 => f32::NAN,
                        1 => -0.0,
                        2 => f32::INFINITY,
                        3 => f32::NEG_INFINITY,
                        _ => (next() % 2001) as f32 / 1000.0 - 1.0,
                    })
                    .collect();
                let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
                for &x in &v {
                    let x = if x == 0.0 { 0.0 } else { x };
                    if x < lo {
                        lo = x;
                    }
                    if x > hi {
                        hi = x;
                    }
                }
                for isa in Isa::available() {
                    let (min, max) = bounds(isa, &v);
                    assert_eq!(
                        (min.to_bits(), max.to_bits()),
                        (lo.to_bits(), hi.to_bits()),
                        "{isa:?}: {v:?}"
                    );
                }
            }
        }
        let b = bounds_of(&[-0.0f64, f64::NAN, 0.5]);
        assert_eq!((b.min.to_bits(), b.max), (0.0f64.to_bits(), 0.5));
    }
}
