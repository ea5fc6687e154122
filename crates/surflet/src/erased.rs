//! The run-time-dimension calls' plain types, and the object-safe trait
//! behind [`DynField`](crate::dynamic::DynField): what [`crate::dynamic`]
//! and the precisions' dispatch ([`Float`](crate::Float)) share, apart from
//! both (feature `dynamic`).

use crate::prelude_internal::*;

use crate::error::Error;
use crate::sample::Bounds;
use crate::simd::Isa;

/// The largest dimension a [`DynField`](crate::dynamic::DynField) has (that of [`NoiseNd`](crate::nd::NoiseNd)).
pub const MAX_DIMS: usize = 8;

/// Points of a run-time dimension `D`.
#[derive(Clone, Copy, Debug)]
pub enum Points<'a, F> {
    /// `n × D` numbers, point `i` at `[i*D .. i*D + D]` (a C array of
    /// points, a numpy array of shape `(n, D)`).
    Interleaved(&'a [F]),
    /// `D` arrays of `n` numbers, one per axis (x first).
    Axes(&'a [&'a [F]]),
}

/// Where a gradient goes, in either layout of [`Points`].
#[derive(Debug)]
pub enum GradientOut<'a, F> {
    /// `n × D` numbers, point `i`'s partial derivatives at `[i*D .. i*D + D]`.
    Interleaved(&'a mut [F]),
    /// `D` arrays of `n` numbers, one per axis.
    Axes(Vec<&'a mut [F]>),
}

impl<'a, F> From<&'a mut [F]> for GradientOut<'a, F> {
    fn from(s: &'a mut [F]) -> Self {
        GradientOut::Interleaved(s)
    }
}

/// The points of a grid of run-time dimension `D`, x fastest.
#[derive(Clone, Copy, Debug)]
pub enum Region<'a, F> {
    /// One coordinate list per axis ([`Grid::from_axes`](crate::Grid::from_axes)).
    Axes(&'a [&'a [F]]),
    /// A window of the uniform grid `origin + i × step`: `shape[a]` points
    /// along axis `a` from index `start[a]` ([`Grid::window`](crate::Grid::window), which gives a
    /// window exactly the bits of the same points of the whole grid).
    Window {
        /// The coordinates of index 0, one per axis.
        origin: &'a [F],
        /// The spacing, one per axis.
        step: &'a [F],
        /// The window's first index, one per axis.
        start: &'a [usize],
        /// The window's number of points, one per axis.
        shape: &'a [usize],
    },
}

/// The value and gradient at one point; the gradient's first `dims`
/// entries are the partial derivatives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DynSample<F> {
    /// The value.
    pub value: F,
    /// The partial derivatives, x first; entries past the dimension are 0.
    pub gradient: [F; MAX_DIMS],
}

/// The object-safe calls behind [`DynField`](crate::dynamic::DynField), one per precision.
#[doc(hidden)]
pub trait ErasedField: Send + Sync {
    fn dims(&self) -> usize;
    fn range(&self) -> (f64, f64);
    fn sample_f32(&self, p: &[f32]) -> DynSample<f32>;
    fn sample_f64(&self, p: &[f64]) -> DynSample<f64>;
    fn fill_f32(
        &self,
        isa: Isa,
        points: Points<'_, f32>,
        out: &mut [f32],
        gradient: Option<GradientOut<'_, f32>>,
    ) -> Result<(), Error>;
    fn fill_f64(
        &self,
        isa: Isa,
        points: Points<'_, f64>,
        out: &mut [f64],
        gradient: Option<GradientOut<'_, f64>>,
    ) -> Result<(), Error>;
    fn grid_f32(
        &self,
        isa: Isa,
        region: Region<'_, f32>,
        out: &mut [f32],
        gradient: Option<GradientOut<'_, f32>>,
    ) -> Result<Bounds<f32>, Error>;
    fn grid_f64(
        &self,
        isa: Isa,
        region: Region<'_, f64>,
        out: &mut [f64],
        gradient: Option<GradientOut<'_, f64>>,
    ) -> Result<Bounds<f64>, Error>;
}
