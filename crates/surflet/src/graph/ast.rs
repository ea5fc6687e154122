//! The graph's public form: [`Graph`] and the types its variants hold.

use crate::prelude_internal::*;
use alloc::sync::Arc;

use crate::float::DynField;
use crate::stack::Stack;

/// The deepest a graph may be, counting every node from the root to the
/// deepest leaf (a stack or constant is one node).
pub const MAX_DEPTH: usize = 64;

/// A noise graph: stacks and constants combined by the operations below.
///
/// The variants are the functions of the [expression
/// language](Graph::parse), under the same names (`ScaleBias` is
/// `scale_bias`); each has a constructor method of that name, which the
/// examples use.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Graph {
    /// A noise stack: noise, seed, frequency, period, fractal and warp.
    /// Written `simplex(seed=1, frequency=0.5)`, `fbm(perlin(), octaves=5)`,
    /// `warp(fbm(value()), amplitude=2)`, or in configs as a stack table.
    Stack(Box<Stack>),
    /// A constant; its gradient is 0.
    Const(f64),
    /// `-x`.
    Neg(Box<Graph>),
    /// `abs(x)`; the gradient at 0 is 0.
    Abs(Box<Graph>),
    /// `a + b`.
    Add(Box<Graph>, Box<Graph>),
    /// `a - b`.
    Sub(Box<Graph>, Box<Graph>),
    /// `a * b`.
    Mul(Box<Graph>, Box<Graph>),
    /// `a / b`, IEEE division: where `b` is 0 the value is ±∞ or NaN, and a
    /// divisor whose range contains 0 makes the range unbounded.
    Div(Box<Graph>, Box<Graph>),
    /// `min(a, b)`; on a tie, `a` and its gradient.
    Min(Box<Graph>, Box<Graph>),
    /// `max(a, b)`; on a tie, `a` and its gradient.
    Max(Box<Graph>, Box<Graph>),
    /// `pow(x, exponent)` with a constant exponent. Whole exponents (up to
    /// ±64) are exact repeated products defined for every `x`; other
    /// exponents need `x ≥ 0` over the input's range, and a negative one
    /// needs 0 outside it (checked when built); in `f32` they are computed
    /// in double-`f32` arithmetic that shaders repeat, within a unit of
    /// `f64::powf` rounded.
    Pow {
        /// The base.
        input: Box<Graph>,
        /// The constant exponent.
        exponent: f64,
    },
    /// `clamp(x, min, max)`; the gradient is 0 at and beyond the bounds.
    Clamp {
        /// The clamped field.
        input: Box<Graph>,
        /// Lower bound.
        min: f64,
        /// Upper bound (≥ `min`).
        max: f64,
    },
    /// `scale_bias(x, scale, bias)`: `x · scale + bias`.
    ScaleBias {
        /// The input.
        input: Box<Graph>,
        /// The factor.
        scale: f64,
        /// The offset added after it.
        bias: f64,
    },
    /// `remap(x, from=[a, b], to=[c, d])`: the affine map taking `a` to `c`
    /// and `b` to `d`, computed as `(x − a) · k + c` with `k = (d − c)/(b − a)`.
    Remap {
        /// The input.
        input: Box<Graph>,
        /// Two distinct input values.
        from: [f64; 2],
        /// Where they go.
        to: [f64; 2],
    },
    /// `terrace(x, points=[...], smooth=false)`: between control points
    /// `pᵢ < pᵢ₊₁` the value is `pᵢ + (pᵢ₊₁ − pᵢ)·f(t)` with `t` the position
    /// in the segment; hard terraces use libnoise's `f(t) = t²` (flat below
    /// each step, a crease at its top), smoothed ones the quintic fade
    /// `6t⁵ − 15t⁴ + 10t³` (flat at both ends, no crease). Outside the points
    /// the value is the nearest end point's, with gradient 0.
    Terrace {
        /// The input.
        input: Box<Graph>,
        /// At least two control points, strictly increasing.
        points: Vec<f64>,
        /// Whether to use the quintic fade.
        smooth: bool,
    },
    /// `curve(x, points=[[x0, y0], [x1, y1], ...])`: the monotone cubic
    /// (Fritsch–Carlson) through the control points: it never overshoots
    /// them, so its range is their `y` hull. Outside the points the value
    /// is the nearest end point's, with gradient 0.
    Curve {
        /// The input.
        input: Box<Graph>,
        /// At least two points with strictly increasing `x`.
        points: Vec<[f64; 2]>,
    },
    /// `smoothstep(edge0, edge1, x)`, as in GLSL and WGSL: 0 up to `edge0`,
    /// 1 from `edge1`, and between them `3t² − 2t³` with `t = (x − edge0) /
    /// (edge1 − edge0)`, so the slope is 0 at both edges. Edges in
    /// decreasing order step down; equal edges are refused when built.
    Smoothstep {
        /// Where the step starts (the value 0).
        edge0: f64,
        /// Where it ends (the value 1).
        edge1: f64,
        /// The input.
        input: Box<Graph>,
    },
    /// `select(a, b, control=c, threshold=t, falloff=f)`: `a` where
    /// `c < t − f`, `b` where `c ≥ t + f`, and between them a blend by the
    /// cubic smoothstep of `(c − t + f) / 2f` (libnoise's falloff). With
    /// `falloff = 0` it switches at `c = t` (`c < t` is `a`).
    Select {
        /// Taken below the threshold.
        a: Box<Graph>,
        /// Taken above it.
        b: Box<Graph>,
        /// The control field.
        control: Box<Graph>,
        /// The switch point.
        threshold: f64,
        /// Half the width of the blend (≥ 0).
        falloff: f64,
    },
    /// `blend(a, b, control=c)`: `a + (b − a)·t` with `t = (c + 1)/2`, so
    /// `c = −1` gives `a` and `c = 1` gives `b` (libnoise's blend).
    Blend {
        /// At `c = −1`.
        a: Box<Graph>,
        /// At `c = 1`.
        b: Box<Graph>,
        /// The control field.
        control: Box<Graph>,
    },
    /// `translate(x, by=[...])`: `x` evaluated at `p + by`.
    Translate {
        /// The moved field.
        input: Box<Graph>,
        /// One offset per axis.
        by: Vec<f64>,
    },
    /// `scale(x, by=[...])`: `x` evaluated at `p · by` (per axis). A single
    /// number scales every axis.
    Scale {
        /// The scaled field.
        input: Box<Graph>,
        /// One factor per axis, or one for all.
        by: Vec<f64>,
    },
    /// `rotate(x, angle=θ)`: `x` evaluated at `p` turned by `θ` radians in
    /// the xy plane (other axes unchanged); `rotate(x, matrix=[[...], ...])`:
    /// at `M·p` for any `D × D` matrix (a rotation when orthonormal).
    Rotate {
        /// The turned field.
        input: Box<Graph>,
        /// The map.
        by: Rotation,
    },
    /// `displace(x, by=[f₀, f₁, ...])`: `x` evaluated at `p + (f₀(p), f₁(p),
    /// ...)`, one field per axis: the general domain warp, with the full
    /// Jacobian in the gradient.
    Displace {
        /// The displaced field.
        input: Box<Graph>,
        /// One displacement field per axis.
        by: Vec<Graph>,
    },
    /// `distort(x, power=1, frequency=1, roughness=3, seed=0)`: libnoise's
    /// and noise-rs's *turbulence* (named `distort` here because
    /// `turbulence` is the fractal): a displacement of every axis by
    /// `power · fbm(perlin(seed = seed + axis, frequency), octaves =
    /// roughness)`.
    Distort {
        /// The distorted field.
        input: Box<Graph>,
        /// Largest displacement, in input units.
        power: f64,
        /// Frequency of the displacing noise.
        frequency: f64,
        /// Octaves of the displacing noise (1..=32).
        roughness: u32,
        /// Seed of the first axis's noise.
        seed: u64,
    },
    /// A field of your own ([`Graph::custom`]). It evaluates and combines
    /// like any node, but has no expression or config form.
    Custom(Custom),
}

/// How [`Graph::Rotate`] maps points.
#[derive(Clone, Debug, PartialEq)]
pub enum Rotation {
    /// A turn by this many radians in the xy plane.
    Angle(f64),
    /// Any `D × D` matrix, row by row: `q[r] = Σ m[r][c]·p[c]`.
    Matrix(Vec<Vec<f64>>),
}

/// A user field in a graph: a name (for messages) and the field, for one
/// dimension. Two are equal when they are the same object.
#[derive(Clone)]
pub struct Custom {
    pub(super) name: String,
    pub(super) dims: usize,
    // An `Arc<dyn DynField<D>>`, boxed once more so that one graph type holds
    // fields of any dimension; `build::<D>` downcasts it.
    pub(super) field: Arc<dyn core::any::Any + Send + Sync>,
}

impl Custom {
    /// The name given to [`Graph::custom`].
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The field's dimension.
    pub fn dims(&self) -> usize {
        self.dims
    }
    pub(crate) fn field<const D: usize>(&self) -> Option<Arc<dyn DynField<D>>> {
        self.field.downcast_ref::<Arc<dyn DynField<D>>>().cloned()
    }
}

impl PartialEq for Custom {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.field, &other.field)
    }
}

impl core::fmt::Debug for Custom {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Custom({:?}, {}D)", self.name, self.dims)
    }
}
