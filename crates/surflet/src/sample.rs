//! What an evaluation returns besides the values: one point's value and
//! gradient ([`Sample`]), and a grid call's extremes ([`Bounds`]). Plain
//! data, imported by every layer that evaluates, and importing nothing.

/// A value and its gradient (the partial derivatives along each axis), from
/// one evaluation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample<F, const D: usize> {
    /// The noise value.
    pub value: F,
    /// `∂value/∂x`, `∂value/∂y`, ...: the analytic derivative of `value`.
    pub gradient: [F; D],
}

/// The smallest and largest value a grid call wrote, over the values that
/// are not NaN; a zero counts as `+0`. An empty or all-NaN grid gives
/// `min = +∞`, `max = −∞`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds<F> {
    /// The smallest value.
    pub min: F,
    /// The largest value.
    pub max: F,
}
