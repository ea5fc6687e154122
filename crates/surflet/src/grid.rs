//! Grids of sample points: the product of one coordinate list per axis.
//!
//! Every field type has `grid` calls that fill a [`Grid`] with values (and,
//! if asked, the gradient) and return the [`Bounds`] of what they wrote. A
//! grid call gives exactly the bits that single-point calls give at the
//! grid's points ([`Grid::point`]), on every instruction set and thread
//! count.

use crate::error::Error;
use crate::float::Float;
use crate::prelude_internal::*;

/// The points `(axes[0][i], axes[1][j], ...)` for every index, in one flat
/// array with x (axis 0) varying fastest: the point of flat index
/// `i + nx·(j + ny·(k + nz·l))` is `(x[i], y[j], z[k], w[l])`, like the rows
/// of an image.
///
/// ```
/// use surflet::{Field, Grid, Noise, NoiseKind};
/// // 256 × 128 samples, 1/64 apart, from (-2, 0).
/// let grid = Grid::uniform([-2.0f32, 0.0], [1.0 / 64.0; 2], [256, 128])?;
/// let noise = Noise::<2>::new(NoiseKind::Simplex, 7);
/// let mut img = vec![0.0f32; grid.len()];
/// let bounds = noise.grid(&grid, &mut img)?;
/// // Pixel (i, j) is at (-2 + i/64, j/64), exactly as a single-point call.
/// assert_eq!(img[3 + 256 * 5], noise.get(grid.point(3 + 256 * 5)));
/// assert_eq!(img[3 + 256 * 5], noise.get([-2.0 + 3.0 / 64.0, 5.0 / 64.0]));
/// assert!(-1.0 <= bounds.min && bounds.max <= 1.0);
/// # Ok::<(), surflet::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Grid<F, const D: usize> {
    axes: [Vec<F>; D],
    len: usize,
}

impl<F: Float, const D: usize> Grid<F, D> {
    /// The uniform grid of `size[a]` points per axis, point `i` of axis `a`
    /// at `origin[a] + i·step[a]`, computed in `F` as written: `i` converted
    /// to `F` (exact below 2^24 in `f32`), one rounded multiply, one rounded
    /// add, never fused.
    ///
    /// Fails if the number of points overflows `usize` or the coordinate
    /// lists cannot be allocated. Non-finite origins or steps are allowed;
    /// their points evaluate to NaN like any non-finite coordinate.
    pub fn uniform(origin: [F; D], step: [F; D], size: [usize; D]) -> Result<Self, Error> {
        Self::window(origin, step, [0; D], size)
    }

    /// The part of a [uniform](Self::uniform) grid whose indices along axis
    /// `a` run from `start[a]` to `start[a] + size[a] - 1`: point `i` of axis
    /// `a` at `origin[a] + (start[a] + i)·step[a]`, with the same arithmetic.
    ///
    /// So a large grid can be filled window by window (tiles, chunks of a
    /// distributed array, bands of an image) and the windows have exactly
    /// the bits of the whole. Moving the origin to the window's corner
    /// instead would round differently.
    ///
    /// ```
    /// use surflet::Grid;
    /// let (origin, step) = ([0.1f32, -3.0], [0.37f32, 1.0 / 3.0]);
    /// let whole = Grid::uniform(origin, step, [100, 80])?;
    /// let part = Grid::window(origin, step, [60, 70], [40, 10])?;
    /// assert_eq!(part.point(0), whole.point(60 + 100 * 70));
    /// assert_eq!(part.axis(0), &whole.axis(0)[60..]);
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn window(
        origin: [F; D],
        step: [F; D],
        start: [usize; D],
        size: [usize; D],
    ) -> Result<Self, Error> {
        let len = Self::count(size)?;
        let mut axes: [Vec<F>; D] = core::array::from_fn(|_| Vec::new());
        for a in 0..D {
            let v = &mut axes[a];
            alloc(v, size[a])?;
            let end = start[a]
                .checked_add(size[a])
                .ok_or_else(|| Error::Parameter {
                    name: "grid window".into(),
                    reason: format!("start {} plus size {} overflows", start[a], size[a]),
                })?;
            v.extend((start[a]..end).map(|i| origin[a] + F::from_f64(i as f64) * step[a]));
        }
        Ok(Grid { axes, len })
    }

    /// The grid of the given coordinate lists (any values, in any order):
    /// a rectilinear grid, for example one whose coordinates are computed
    /// in a way of the caller's own.
    ///
    /// ```
    /// use surflet::Grid;
    /// let g = Grid::from_axes([vec![0.0f64, 0.5, 3.0], vec![1.0, -1.0]])?;
    /// assert_eq!(g.shape(), [3, 2]);
    /// assert_eq!(g.point(4), [0.5, -1.0]);
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn from_axes(axes: [Vec<F>; D]) -> Result<Self, Error> {
        let len = Self::count(array_of(|a| axes[a].len()))?;
        Ok(Grid { axes, len })
    }

    fn count(size: [usize; D]) -> Result<usize, Error> {
        size.iter()
            .try_fold(1usize, |n, &s| n.checked_mul(s))
            .ok_or_else(|| Error::Parameter {
                name: "grid size".into(),
                reason: format!("{size:?} points do not fit in memory addresses"),
            })
    }

    /// The coordinates along axis `a`.
    pub fn axis(&self, a: usize) -> &[F] {
        &self.axes[a]
    }

    /// The number of points along each axis.
    pub fn shape(&self) -> [usize; D] {
        array_of(|a| self.axes[a].len())
    }

    /// The number of points.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the grid has no points.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The point at flat index `index` (x fastest). Panics if `index` is
    /// out of range.
    pub fn point(&self, index: usize) -> [F; D] {
        assert!(index < self.len, "grid index {index} out of range");
        let mut rest = index;
        array_of(|a| {
            let n = self.axes[a].len();
            let v = self.axes[a][rest % n];
            rest /= n;
            v
        })
    }

    pub(crate) fn axes(&self) -> [&[F]; D] {
        array_of(|a| &self.axes[a][..])
    }
}

fn alloc<F>(v: &mut Vec<F>, n: usize) -> Result<(), Error> {
    v.try_reserve_exact(n).map_err(|_| Error::Memory {
        what: "grid coordinates",
        count: n,
    })
}
