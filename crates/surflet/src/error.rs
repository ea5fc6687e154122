//! The library's error type.

use crate::prelude_internal::*;

/// Everything that can go wrong when configuring or calling a noise.
///
/// Errors are returned, never panicked: every constructor and batch call
/// validates its input first.
///
/// ```
/// use surflet::{Error, Noise, NoiseKind};
/// let err = Noise::<2>::new(NoiseKind::Perlin, 1).with_period([0, 8]).unwrap_err();
/// assert!(matches!(err, Error::Period { axis: 0, .. }));
/// assert_eq!(err.to_string(), "period on axis 0 is 0: periods must be in 1..=65536");
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A period that the noise cannot tile with.
    #[error("period on axis {axis} is {period}: {reason}")]
    Period {
        /// Axis index (0 = x).
        axis: usize,
        /// The rejected period.
        period: u64,
        /// Why it was rejected.
        reason: String,
    },
    /// A noise that has no periodic form in this dimension.
    #[error("{kind} noise has no periodic form in {dims}D (periods are supported in {supported})")]
    PeriodUnsupported {
        /// Noise name.
        kind: &'static str,
        /// Dimension asked for.
        dims: usize,
        /// Dimensions that do support periods.
        supported: &'static str,
    },
    /// Slices passed to a batch call whose lengths disagree.
    #[error("{what} has length {found}, expected {expected}")]
    Length {
        /// Which argument.
        what: String,
        /// Length of the first coordinate slice.
        expected: usize,
        /// Length found.
        found: usize,
    },
    /// Memory that could not be allocated: a call's working buffers, or a
    /// grid's coordinates.
    #[error("cannot allocate {count} numbers of {what}")]
    Memory {
        /// What the memory was for.
        what: &'static str,
        /// How many numbers were asked for.
        count: usize,
    },
    /// A parameter outside its valid range.
    #[error("invalid {name}: {reason}")]
    Parameter {
        /// Parameter name.
        name: String,
        /// Why it was rejected.
        reason: String,
    },
    /// An unknown name (of a noise, fractal, ...).
    #[error("unknown {what} {name:?} (expected one of: {expected})")]
    UnknownName {
        /// What kind of name.
        what: &'static str,
        /// The name given.
        name: String,
        /// The valid names.
        expected: String,
    },
    /// A noise-stack description that could not be read, parsed or compiled.
    /// `key` is the path of the offending key (`fractal.octaves`,
    /// `warp.frequency`, `period[1]`), empty when the document as a whole is
    /// at fault (a syntax error).
    #[error("{}", config_message(key, message))]
    Config {
        /// Dotted path of the key at fault, or empty.
        key: String,
        /// What is wrong (for TOML, with the line and column).
        message: String,
    },
    /// An expression ([`Graph::parse`](crate::graph::Graph::parse)) that
    /// could not be parsed or does not describe a valid graph. Its message
    /// ends with the expression's line and a caret under the fault.
    #[error("{message}, at column {column}:\n{snippet}")]
    Expression {
        /// Column of the fault (1-based, in characters).
        column: usize,
        /// What is wrong.
        message: String,
        /// The expression's line and a line of carets under the fault.
        snippet: String,
    },
}

fn config_message(key: &str, message: &str) -> String {
    if key.is_empty() {
        message.to_string()
    } else {
        format!("{key}: {message}")
    }
}
