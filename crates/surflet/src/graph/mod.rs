//! Noise graphs: noises, fractals and stacks combined by arithmetic,
//! remapping, selection and domain operations, with the exact gradient
//! carried through every node by the chain rule and an output range derived
//! from the inputs' ranges.
//!
//! A [`Graph`] is a plain value. Build it in code, parse it from an
//! expression ([`Graph::parse`], feature `expr`), or read it from TOML or
//! JSON ([`Graph::from_toml_str`], feature `serde`); print it back to each.
//! [`Graph::build`] checks it and compiles it for a dimension into a
//! [`GraphField`], which implements [`Field`] (single points, point arrays,
//! grids, with or without the gradient).
//!
//! ```
//! use surflet::prelude::*;
//! use surflet::graph::Graph;
//!
//! let g = Graph::parse(
//!     "select(fbm(simplex(seed=1), octaves=6), ridged(perlin(seed=2), octaves=4), \
//!      control=perlin(seed=3, frequency=0.25), threshold=0, falloff=0.1) * 0.8 + 0.1",
//! )?;
//! let field = g.build::<2>()?;
//! let (lo, hi) = field.range();
//! let s = field.sample([0.3f64, 0.7]);
//! assert!(lo <= s.value && s.value <= hi);
//! // The expression prints back and parses to the same graph.
//! assert_eq!(Graph::parse(&g.to_string())?, g);
//! # Ok::<(), surflet::Error>(())
//! ```
//!
//! # Evaluation
//!
//! Batch and grid calls evaluate a graph node by node over blocks of
//! points: each leaf (a stack) fills the whole block through its SIMD path,
//! and each combinator is one loop over the block. So there is no per-point
//! dispatch, every instruction set gives the same bits (the combinators are
//! plain IEEE arithmetic, never fused), and a single-point call is a block of
//! one point: point, batch and grid calls agree to the bit. Blocks run in
//! parallel with the `rayon` feature, with the same bits. A graph that is a
//! single stack runs exactly as that stack.
//!
//! # Gradients and creases
//!
//! Every node returns its value's gradient with respect to the input point.
//! Where a node is only piecewise differentiable, the gradient returned on
//! the crease is one-sided, as each node documents: `abs` gives 0 at 0;
//! `min`/`max` take the first argument's gradient on a tie; `clamp` gives 0
//! at and beyond its bounds; `terrace` and `curve` take the segment to the
//! right of a control point; `select` takes the side the control is on
//! (`control < threshold` is `a`).
//!
//! # Ranges
//!
//! [`GraphField::range`] is derived by interval arithmetic from the leaves'
//! ranges (stacks know theirs: `[-1, 1]` for a normalised fractal), exact for
//! each node given its inputs' intervals, then widened by 2⁻²⁰ of its
//! magnitude per node so that it also holds for `f32` rounding. Division by
//! an interval that contains 0 gives an unbounded range.
//!
//! # Limits
//!
//! A graph is at most [`MAX_DEPTH`] nodes deep, and parsing, reading and
//! building all check it, so that no input can exhaust the stack.

use crate::prelude_internal::*;
use alloc::sync::Arc;

use crate::error::Error;
use crate::field::Field;
use crate::float::DynField;
use crate::stack::Stack;

mod ast;
mod call;
mod eval;
#[cfg(feature = "expr")]
mod expr;
#[cfg(feature = "serde")]
mod form;
mod kinds;
mod node;
mod print;
mod registry;
mod tree;
#[cfg(feature = "wgsl")]
mod wgsl;

pub use ast::{Custom, Graph, MAX_DEPTH, Rotation};
pub use node::GraphField;
pub use tree::{CallTree, Signature};

fn boxed(g: Graph) -> Box<Graph> {
    Box::new(g)
}

macro_rules! binary {
    ($($name:ident $variant:ident $doc:literal $op:literal;)*) => {$(
        #[doc = $doc]
        #[doc = ""]
        #[doc = "```"]
        #[doc = "use surflet::prelude::*;"]
        #[doc = "let (a, b) = (Graph::parse(\"perlin(seed=1)\")?, Graph::parse(\"simplex(seed=2)\")?);"]
        #[doc = "let (fa, fb) = (a.clone().build::<2>()?, b.clone().build::<2>()?);"]
        #[doc = concat!("let g = a.", stringify!($name), "(b).build::<2>()?;")]
        #[doc = "let p = [0.3f64, 0.8];"]
        #[doc = "let (x, y) = (fa.get(p), fb.get(p));"]
        #[doc = concat!("assert_eq!(g.get(p), ", $op, ");")]
        #[doc = "# Ok::<(), surflet::Error>(())"]
        #[doc = "```"]
        #[allow(clippy::should_implement_trait)]
        pub fn $name(self, other: impl Into<Graph>) -> Graph {
            Graph::$variant(boxed(self), boxed(other.into()))
        }
    )*};
}

impl Graph {
    /// A stack as a graph leaf.
    ///
    /// ```
    /// use surflet::{Stack, NoiseKind, graph::Graph};
    /// let g = Graph::stack(Stack { noise: NoiseKind::Perlin, seed: 3, ..Stack::default() });
    /// assert_eq!(g.to_string(), "perlin(seed=3)");
    /// ```
    pub fn stack(stack: Stack) -> Graph {
        Graph::Stack(Box::new(stack))
    }

    /// A user field, named for messages. It is evaluated through its own
    /// [`Field`] calls (its batch calls, if it overrides them).
    ///
    /// ```
    /// use surflet::prelude::*;
    /// use surflet::graph::Graph;
    /// // A user field can be any Field, surflet's own included.
    /// let mine = Graph::custom("mine", Noise::<2>::new(NoiseKind::Value, 9));
    /// let g = mine.add(Graph::parse("simplex(seed=1)")?);
    /// let f = g.build::<2>()?;
    /// assert_eq!(f.range(), (-2.0000019073486328, 2.0000019073486328));
    /// // It has no expression form, and the wrong dimension is an error.
    /// assert!(g.to_expr().is_err());
    /// assert!(g.build::<3>().is_err());
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn custom<const D: usize, T: Field<D> + 'static>(name: &str, field: T) -> Graph {
        let erased: Arc<dyn DynField<D>> = Arc::new(field);
        Graph::Custom(Custom {
            name: name.to_string(),
            dims: D,
            field: Arc::new(erased),
        })
    }

    binary! {
        add Add "`self + other`." "x + y";
        sub Sub "`self - other`." "x - y";
        mul Mul "`self * other`." "x * y";
        div Div "`self / other` (see [`Graph::Div`])." "x / y";
        min Min "`min(self, other)`; on a tie, `self`." "x.min(y)";
        max Max "`max(self, other)`; on a tie, `self`." "x.max(y)";
    }

    /// `-self`.
    ///
    /// ```
    /// use surflet::prelude::*;
    /// let n = Graph::parse("perlin(seed=1)")?;
    /// let f = n.clone().build::<2>()?;
    /// let p = [0.3f64, 0.8];
    /// let g = n.neg().build::<2>()?;
    /// assert_eq!(g.get(p), -f.get(p));
    /// assert_eq!(g.sample(p).gradient, f.sample(p).gradient.map(|d| -d));
    /// # Ok::<(), surflet::Error>(())
    /// ```
    #[allow(clippy::should_implement_trait)]
    pub fn neg(self) -> Graph {
        Graph::Neg(boxed(self))
    }

    /// `abs(self)`; the gradient at 0 is 0.
    ///
    /// ```
    /// use surflet::prelude::*;
    /// let n = Graph::parse("perlin(seed=1)")?;
    /// let f = n.clone().build::<2>()?;
    /// let p = [0.3f64, 0.8];
    /// let g = n.abs().build::<2>()?;
    /// assert_eq!(g.get(p), f.get(p).abs());
    /// assert_eq!(g.range().0, 0.0);
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn abs(self) -> Graph {
        Graph::Abs(boxed(self))
    }

    /// `pow(self, exponent)` (see [`Graph::Pow`]).
    ///
    /// ```
    /// use surflet::prelude::*;
    /// let n = Graph::parse("perlin(seed=1)")?;
    /// let f = n.clone().build::<2>()?;
    /// let p = [0.3f64, 0.8];
    /// let cube = n.clone().pow(3.0).build::<2>()?;
    /// let v = f.get(p);
    /// assert_eq!(cube.get(p), v * v * v);
    /// // A fractional power of a field that can be negative is refused.
    /// assert!(n.pow(0.5).build::<2>().is_err());
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn pow(self, exponent: f64) -> Graph {
        Graph::Pow {
            input: boxed(self),
            exponent,
        }
    }

    /// `clamp(self, min, max)`.
    ///
    /// ```
    /// use surflet::prelude::*;
    /// let n = Graph::parse("perlin(seed=1)")?;
    /// let f = n.clone().build::<2>()?;
    /// let p = [0.3f64, 0.8];
    /// let g = n.clamp(-0.1, 0.1).build::<2>()?;
    /// assert_eq!(g.get(p), f.get(p).clamp(-0.1, 0.1));
    /// assert!(g.range().1 < 0.1001);
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn clamp(self, min: f64, max: f64) -> Graph {
        Graph::Clamp {
            input: boxed(self),
            min,
            max,
        }
    }

    /// `scale_bias(self, scale, bias)`: `self · scale + bias`.
    ///
    /// ```
    /// use surflet::prelude::*;
    /// let n = Graph::parse("perlin(seed=1)")?;
    /// let f = n.clone().build::<2>()?;
    /// let p = [0.3f64, 0.8];
    /// let g = n.scale_bias(0.5, 0.5).build::<2>()?;
    /// assert_eq!(g.get(p), f.get(p) * 0.5 + 0.5);
    /// let (lo, hi) = g.range();
    /// assert!(lo.abs() < 1e-6 && (hi - 1.0).abs() < 1e-6);
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn scale_bias(self, scale: f64, bias: f64) -> Graph {
        Graph::ScaleBias {
            input: boxed(self),
            scale,
            bias,
        }
    }

    /// `remap(self, from, to)`.
    ///
    /// ```
    /// use surflet::prelude::*;
    /// let n = Graph::parse("perlin(seed=1)")?;
    /// let f = n.clone().build::<2>()?;
    /// let p = [0.3f64, 0.8];
    /// let g = n.remap([-1.0, 1.0], [0.0, 255.0]).build::<2>()?;
    /// assert_eq!(g.get(p), (f.get(p) + 1.0) * 127.5);
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn remap(self, from: [f64; 2], to: [f64; 2]) -> Graph {
        Graph::Remap {
            input: boxed(self),
            from,
            to,
        }
    }

    /// `terrace(self, points, smooth)` (see [`Graph::Terrace`]).
    ///
    /// ```
    /// use surflet::prelude::*;
    /// let n = Graph::parse("perlin(seed=1)")?;
    /// let f = n.clone().build::<2>()?;
    /// let p = [0.3f64, 0.8];
    /// let g = n.terrace(&[-1.0, 0.0, 1.0], false).build::<2>()?;
    /// let v = f.get(p);
    /// let (a, b) = if v < 0.0 { (-1.0, 0.0) } else { (0.0, 1.0) };
    /// let t = (v - a) / (b - a);
    /// assert_eq!(g.get(p), a + (b - a) * (t * t));
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn terrace(self, points: &[f64], smooth: bool) -> Graph {
        Graph::Terrace {
            input: boxed(self),
            points: points.to_vec(),
            smooth,
        }
    }

    /// `curve(self, points)`: the monotone cubic through them (see [`Graph::Curve`]).
    ///
    /// ```
    /// use surflet::prelude::*;
    /// let n = Graph::parse("perlin(seed=1)")?;
    /// let f = n.clone().build::<2>()?;
    /// let p = [0.3f64, 0.8];
    /// let points = [[-1.0, 0.0], [0.0, 0.1], [1.0, 1.0]];
    /// let g = n.curve(&points).build::<2>()?;
    /// // Monotone: no overshoot, so the values stay in the points' hull.
    /// let (lo, hi) = g.range();
    /// assert!(lo > -1e-6 && hi < 1.0 + 1e-6);
    /// assert!((0.0..=1.0).contains(&g.get(p)));
    /// // It passes through its points.
    /// let at_zero = Graph::Const(0.0).curve(&points).build::<2>()?;
    /// assert_eq!(at_zero.get(p), 0.1);
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn curve(self, points: &[[f64; 2]]) -> Graph {
        Graph::Curve {
            input: boxed(self),
            points: points.to_vec(),
        }
    }

    /// `smoothstep(edge0, edge1, self)` (see [`Graph::Smoothstep`]).
    ///
    /// ```
    /// use surflet::prelude::*;
    /// let n = Graph::parse("perlin(seed=1)")?;
    /// let f = n.clone().build::<2>()?;
    /// let p = [0.3f64, 0.8];
    /// let step = n.smoothstep(-0.5, 0.5);
    /// let g = step.build::<2>()?;
    /// let t = ((f.get(p) + 0.5) / 1.0).clamp(0.0, 1.0);
    /// assert_eq!(g.get(p), t * t * (3.0 - t - t));
    /// assert_eq!(g.range(), (0.0, 1.0000009536743164));
    /// // It prints as GLSL writes it.
    /// assert_eq!(step.to_string(), "smoothstep(-0.5, 0.5, perlin(seed=1))");
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn smoothstep(self, edge0: f64, edge1: f64) -> Graph {
        Graph::Smoothstep {
            edge0,
            edge1,
            input: boxed(self),
        }
    }

    /// `select(self, b, control, threshold, falloff)`: `self` below the
    /// threshold, `b` above (see [`Graph::Select`]).
    ///
    /// ```
    /// use surflet::prelude::*;
    /// let n = Graph::parse("perlin(seed=1)")?;
    /// let f = n.clone().build::<2>()?;
    /// let p = [0.3f64, 0.8];
    /// let b = Graph::Const(5.0);
    /// let c = Graph::parse("value(seed=3)")?;
    /// let cf = c.clone().build::<2>()?;
    /// let g = n.select(b, c, 0.0, 0.0).build::<2>()?;
    /// let want = if cf.get(p) < 0.0 { f.get(p) } else { 5.0 };
    /// assert_eq!(g.get(p), want);
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn select(self, b: Graph, control: Graph, threshold: f64, falloff: f64) -> Graph {
        Graph::Select {
            a: boxed(self),
            b: boxed(b),
            control: boxed(control),
            threshold,
            falloff,
        }
    }

    /// `blend(self, b, control)`: `self` at control −1, `b` at +1.
    ///
    /// ```
    /// use surflet::prelude::*;
    /// let n = Graph::parse("perlin(seed=1)")?;
    /// let f = n.clone().build::<2>()?;
    /// let p = [0.3f64, 0.8];
    /// let g = n.blend(Graph::Const(1.0), Graph::Const(0.0)).build::<2>()?;
    /// // Control 0 is halfway.
    /// assert_eq!(g.get(p), f.get(p) + (1.0 - f.get(p)) * 0.5);
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn blend(self, b: Graph, control: Graph) -> Graph {
        Graph::Blend {
            a: boxed(self),
            b: boxed(b),
            control: boxed(control),
        }
    }

    /// `translate(self, by)`: `self` at `p + by`.
    ///
    /// ```
    /// use surflet::prelude::*;
    /// let n = Graph::parse("perlin(seed=1)")?;
    /// let f = n.clone().build::<2>()?;
    /// let p = [0.3f64, 0.8];
    /// let g = n.translate(&[10.0, -2.0]).build::<2>()?;
    /// assert_eq!(g.get(p), f.get([p[0] + 10.0, p[1] - 2.0]));
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn translate(self, by: &[f64]) -> Graph {
        Graph::Translate {
            input: boxed(self),
            by: by.to_vec(),
        }
    }

    /// `scale(self, by)`: `self` at `p · by` (one factor, or one per axis).
    ///
    /// ```
    /// use surflet::prelude::*;
    /// let n = Graph::parse("perlin(seed=1)")?;
    /// let f = n.clone().build::<2>()?;
    /// let p = [0.3f64, 0.8];
    /// let g = n.scale(&[4.0]).build::<2>()?;
    /// assert_eq!(g.get(p), f.get([p[0] * 4.0, p[1] * 4.0]));
    /// // The gradient follows the chain rule.
    /// assert_eq!(g.sample(p).gradient[0], f.sample([p[0] * 4.0, p[1] * 4.0]).gradient[0] * 4.0);
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn scale(self, by: &[f64]) -> Graph {
        Graph::Scale {
            input: boxed(self),
            by: by.to_vec(),
        }
    }

    /// `rotate(self, angle)`: a turn in the xy plane, in radians.
    ///
    /// ```
    /// use surflet::prelude::*;
    /// let n = Graph::parse("perlin(seed=1)")?;
    /// let f = n.clone().build::<2>()?;
    /// let p = [0.3f64, 0.8];
    /// let g = n.rotate(core::f64::consts::FRAC_PI_2).build::<2>()?;
    /// // A quarter turn: (x, y) is sampled at (x·cos − y·sin, x·sin + y·cos).
    /// let (c, s) = (core::f64::consts::FRAC_PI_2.cos(), 1.0);
    /// assert_eq!(g.get(p), f.get([c * p[0] + -s * p[1], s * p[0] + c * p[1]]));
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn rotate(self, angle: f64) -> Graph {
        Graph::Rotate {
            input: boxed(self),
            by: Rotation::Angle(angle),
        }
    }

    /// `displace(self, by)`: one displacement field per axis.
    ///
    /// ```
    /// use surflet::prelude::*;
    /// let n = Graph::parse("perlin(seed=1)")?;
    /// let f = n.clone().build::<2>()?;
    /// let p = [0.3f64, 0.8];
    /// let g = n.displace(vec![Graph::Const(0.5), Graph::Const(-1.0)]).build::<2>()?;
    /// assert_eq!(g.get(p), f.get([p[0] + 0.5, p[1] + -1.0]));
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn displace(self, by: Vec<Graph>) -> Graph {
        Graph::Displace {
            input: boxed(self),
            by,
        }
    }

    /// `distort(self, power, frequency, roughness, seed)` (see [`Graph::Distort`]).
    ///
    /// ```
    /// use surflet::prelude::*;
    /// let n = Graph::parse("perlin(seed=1)")?;
    /// let f = n.clone().build::<2>()?;
    /// let p = [0.3f64, 0.8];
    /// let g = n.distort(0.25, 2.0, 3, 7).build::<2>()?;
    /// // It moves points by at most `power` per axis, so values stay in range.
    /// assert_eq!(g.range(), f.range());
    /// assert!(g.get(p).abs() <= 1.0);
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn distort(self, power: f64, frequency: f64, roughness: u32, seed: u64) -> Graph {
        Graph::Distort {
            input: boxed(self),
            power,
            frequency,
            roughness,
            seed,
        }
    }

    /// The expression language's function names, from the table of node
    /// kinds: the noises, fractals and `warp` that make a stack, then the
    /// combinators (the operators' own names, such as `add` for `+`,
    /// included). Every name here parses as a call in
    /// [`parse`](Graph::parse).
    ///
    /// ```
    /// use surflet::Graph;
    /// let names = Graph::functions();
    /// assert!(names.iter().any(|n| n == "smoothstep"));
    /// for name in ["simplex", "fbm", "warp", "select"] {
    ///     assert!(names.iter().any(|n| n == name), "{name}");
    /// }
    /// ```
    pub fn functions() -> Vec<String> {
        kinds::function_list()
    }

    /// The graph's inputs, in order.
    pub fn children(&self) -> Vec<&Graph> {
        kinds::inputs(self)
    }

    /// Gives every [antialiased](Stack::antialias) stack without a
    /// footprint the size of a pixel `pixel` input units wide, as seen
    /// from the stack: `scale` multiplies it by its largest factor (the
    /// coarsest axis), and the other nodes pass it on (a warp's or
    /// displacement's stretching is not followed). What `surflet render`
    /// does with its pixel's size before it builds a graph.
    ///
    /// ```
    /// use surflet::Graph;
    /// let mut g = Graph::parse("scale(fbm(perlin(antialias=true), octaves=6), by=4) + 0.5")?;
    /// g.resolve_footprint(0.01);
    /// assert_eq!(g.to_expr()?, "scale(fbm(perlin(antialias=true, footprint=0.04), octaves=6), by=[4.0]) + 0.5");
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn resolve_footprint(&mut self, pixel: f64) {
        match self {
            Graph::Stack(s) => s.resolve_footprint(pixel),
            Graph::Scale { input, by } => {
                let k = by.iter().fold(0.0f64, |m, b| m.max(b.abs()));
                input.resolve_footprint(pixel * k);
            }
            g => {
                for c in kinds::inputs_mut(g) {
                    c.resolve_footprint(pixel);
                }
            }
        }
    }

    /// Turns [`antialias`](Stack::antialias) on in every stack of the
    /// graph (a view's `antialias`, before
    /// [`resolve_footprint`](Self::resolve_footprint) gives them the pixel).
    pub fn antialias_all(&mut self) {
        match self {
            Graph::Stack(s) => s.antialias = true,
            g => {
                for c in kinds::inputs_mut(g) {
                    c.antialias_all();
                }
            }
        }
    }

    /// The number of nodes from the root to the deepest leaf, counting
    /// only as far as `MAX_DEPTH + 1` (so that it is cheap on any graph).
    pub fn depth(&self) -> usize {
        fn go(g: &Graph, d: usize) -> usize {
            if d > MAX_DEPTH {
                return d;
            }
            g.children()
                .into_iter()
                .map(|c| go(c, d + 1))
                .max()
                .unwrap_or(d)
        }
        go(self, 1)
    }

    /// Checks the graph and compiles it for dimension `D` (1 to 4).
    ///
    /// Fails, naming the node, on a bad parameter (a stack's keys, terrace
    /// points out of order, a `translate` with the wrong number of axes, a
    /// non-integer power of a possibly negative base...), on a custom
    /// field of another dimension, or on a graph deeper than [`MAX_DEPTH`].
    pub fn build<const D: usize>(&self) -> Result<GraphField<D>, Error> {
        if self.depth() > MAX_DEPTH {
            return Err(Error::Parameter {
                name: "graph".into(),
                reason: format!("deeper than {MAX_DEPTH} nodes"),
            });
        }
        GraphField::new(self)
    }
}

impl From<f64> for Graph {
    fn from(v: f64) -> Graph {
        Graph::Const(v)
    }
}

impl From<Stack> for Graph {
    fn from(s: Stack) -> Graph {
        Graph::stack(s)
    }
}

macro_rules! operator {
    ($tr:ident $f:ident $variant:ident) => {
        impl<T: Into<Graph>> core::ops::$tr<T> for Graph {
            type Output = Graph;
            fn $f(self, rhs: T) -> Graph {
                Graph::$variant(boxed(self), boxed(rhs.into()))
            }
        }
    };
}
operator!(Add add Add);
operator!(Sub sub Sub);
operator!(Mul mul Mul);
operator!(Div div Div);

impl core::ops::Neg for Graph {
    type Output = Graph;
    fn neg(self) -> Graph {
        Graph::Neg(boxed(self))
    }
}
