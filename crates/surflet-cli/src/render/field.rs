//! What `surflet render` draws: anything that fills a row of points with
//! values and, for normal maps, the x and y derivatives.
//!
//! The renderer only talks to [`Field`], so a noise stack (fractal sums,
//! warps, loaded with `--config`) plugs in by implementing it for the
//! stack's evaluator; nothing else in the renderer has to change.

/// A scalar field over 2D, 3D or 4D space, evaluated a grid (a band of rows) at a time.
///
/// Implementations must be deterministic: the tiling and normal-map
/// guarantees of `render` rest on the field returning the same bits for the
/// same point.
pub trait Field: Sync {
    /// The interval the values are documented to lie in. The default mapping
    /// stretches it onto the full pixel range.
    fn range(&self) -> (f64, f64);

    /// Evaluates on the grid of the coordinate lists `axes` (x fastest:
    /// entry `i + nx·j` of `out` is the point `(axes[0][i], axes[1][j],
    /// axes[2][0], axes[3][0])`), writing values to `out`. Only the first
    /// [`dims`](Self::dims) axes are read, and those past y hold one
    /// coordinate. With `gradient`, also writes the partial derivatives;
    /// entries 0 and 1 (x and y) are the ones the renderer uses, the others
    /// are scratch space of the same length.
    fn fill_grid(
        &self,
        axes: [&[f64]; 4],
        out: &mut [f64],
        gradient: Option<[&mut [f64]; 4]>,
    ) -> Result<(), String>;
}

/// A surflet family noise in 2, 3 or 4 dimensions.
impl Field for crate::stack_field::StackField {
    fn range(&self) -> (f64, f64) {
        crate::stack_field::StackField::range(self)
    }

    fn fill_grid(
        &self,
        axes: [&[f64]; 4],
        out: &mut [f64],
        gradient: Option<[&mut [f64]; 4]>,
    ) -> Result<(), String> {
        crate::stack_field::StackField::fill_grid(self, axes, out, gradient)
            .map_err(|e| e.to_string())
    }
}
