//! The node kinds: one unit per kind, each holding its argument parsing,
//! printing, checking, range, compiling and evaluation (and, with the
//! feature `wgsl`, its WGSL function beside the evaluation), and one table
//! ([`kinds!`]) that the rest of the graph module dispatches through.
//!
//! Adding a node kind is a [`Graph`] variant (the public form, with its
//! constructor method), a unit here implementing [`Kind`] (and [`Eval`] for
//! what it compiles to, or [`Pointwise`] / [`Binary`] for the common
//! shapes), and one row of the table. The row also puts its name in
//! [`Graph::functions`], which the CLI's tests hold its help to.

// Per-axis arrays are walked in step; index loops read best there.
#![allow(clippy::needless_range_loop)]

use crate::prelude_internal::*;

use super::ast::Graph;
use super::call::{Args, Bad, Item, Signature, Writer};
use super::eval::{Buf, Eval, Frame, Pass, each, zip};
use crate::error::Error;
use crate::float::Float;
#[cfg(feature = "wgsl")]
use crate::graph::wgsl::Out;

mod abs;
mod arith;
mod blend;
mod clamp;
mod constant;
mod curve;
mod custom;
mod displace;
mod distort;
mod neg;
mod pow;
mod remap;
mod rotate;
mod scale;
mod scale_bias;
mod select;
mod smoothstep;
pub(in crate::graph) mod stack;
mod terrace;
mod translate;

/// What every unit uses.
mod prelude {
    #[cfg(feature = "wgsl")]
    pub(super) use super::mix_wgsl;
    pub(super) use super::{
        Cx, Kind, Mapped, Node, Pointwise, Range, Zipped, field_inputs, hull, parts, widen,
    };
    pub(super) use crate::error::Error;
    pub(super) use crate::float::Float;
    pub(super) use crate::graph::ast::Graph;
    pub(super) use crate::graph::call::{Args, Bad, Item, Writer, bad, nums};
    pub(super) use crate::graph::eval::{Buf, Eval, Frame, Pass};
    #[cfg(feature = "wgsl")]
    pub(super) use crate::graph::wgsl::{Out, k, kmat, kvec};
    pub(super) use crate::prelude_internal::*;
}

/// A compiled node: its operation and its derived range.
#[derive(Clone)]
pub(in crate::graph) struct Node<const D: usize> {
    pub op: Op<D>,
    pub range: (f64, f64),
}

impl<const D: usize> Node<D> {
    pub(in crate::graph) fn eval<F: Float>(
        &self,
        p: Pass,
        f: &Frame<'_, F, D>,
    ) -> Result<Buf<F, D>, Error> {
        self.op.eval(p, f)
    }
    pub(in crate::graph) fn reads_points(&self) -> bool {
        self.op.reads_points()
    }
    /// The node as a WGSL function (`graph::wgsl`): its name.
    #[cfg(feature = "wgsl")]
    pub(in crate::graph) fn wgsl(&self, w: &mut Out<D>, jac: bool) -> Result<String, Error> {
        self.op.wgsl(w, jac)
    }
}

/// One kind of graph node.
///
/// The functions taking a `&Graph` are only called with this kind's
/// variant (the table dispatches on it); [`parts!`] unpacks it.
pub(super) trait Kind {
    /// Its function name in expressions and configs (`op`).
    const NAME: &'static str;
    /// Its parameters, in positional order.
    const PARAMS: &'static [&'static str];
    /// How many leading parameters the printer writes positionally.
    const POSITIONAL: usize;
    /// What it compiles to.
    type Op<const D: usize>: Eval<D>;

    /// Which of [`PARAMS`](Self::PARAMS) take fields (`x` of `abs(x)`),
    /// rather than numbers or words.
    const INPUTS: &'static [&'static str] = &["input"];

    /// The parameters of the function `name`, if this kind is called so.
    fn params(name: &str) -> Option<Vec<&'static str>> {
        (name == Self::NAME).then(|| Self::PARAMS.to_vec())
    }
    /// The parameters of the function `name` that take fields.
    fn inputs_of(name: &str) -> Option<Vec<&'static str>> {
        (name == Self::NAME).then(|| Self::INPUTS.to_vec())
    }
    /// Its function names, for "unknown function" messages.
    fn names(out: &mut Vec<String>) {
        out.push(Self::NAME.to_string());
    }
    /// The function name of `g` (for error paths).
    fn name_of(_g: &Graph) -> &'static str {
        Self::NAME
    }
    /// Its field inputs, in order.
    fn inputs(g: &Graph) -> Vec<&Graph>;
    /// The same inputs, to change (a description rewritten in place:
    /// [`Graph::resolve_footprint`]).
    fn inputs_mut(g: &mut Graph) -> Vec<&mut Graph>;
    /// The node a call of it describes.
    fn read(a: &Args<'_>) -> Result<Graph, Bad>;
    /// The node as a description: a call ([`Writer::call`]) or a value.
    fn write(g: &Graph, w: Writer) -> Result<Item, Error>;
    /// Checks the node's parameters, compiles it for `D` and derives its
    /// range (a combining node [`widen`]s it for rounding; a node that only
    /// moves points keeps its input's).
    fn compile<const D: usize>(g: &Graph, cx: &Cx<'_>) -> Result<(Self::Op<D>, Range), Error>;
}

/// An interval of values.
pub(super) type Range = (f64, f64);

/// Unpacks a kind's variant in a [`Kind`] function (which the table only
/// calls with that variant).
macro_rules! parts {
    ($g:expr, $($pat:tt)*) => {
        let $($pat)* = $g else {
            unreachable!("the kind table dispatches on the variant")
        };
    };
}
pub(super) use parts;

/// A kind's [`Kind::inputs`] and [`Kind::inputs_mut`] from one pattern of
/// its variant: the boxed fields listed, in order, then the fields of the
/// list after `then` (a `Vec<Graph>`, as `displace`'s `by`).
macro_rules! field_inputs {
    ($pat:pat => [$($f:ident),*] $(then $v:ident)?) => {
        fn inputs(g: &Graph) -> Vec<&Graph> {
            parts!(g, $pat);
            #[allow(unused_mut, reason = "only a list after `then` extends it")]
            let mut out: Vec<&Graph> = vec![$(&**$f),*];
            $(out.extend($v.iter());)?
            out
        }

        fn inputs_mut(g: &mut Graph) -> Vec<&mut Graph> {
            parts!(g, $pat);
            #[allow(unused_mut, reason = "only a list after `then` extends it")]
            let mut out: Vec<&mut Graph> = vec![$(&mut **$f),*];
            $(out.extend($v.iter_mut());)?
            out
        }
    };
}
pub(super) use field_inputs;

/// Where a node is compiled: its path for errors and its depth.
pub(super) struct Cx<'a> {
    pub path: &'a str,
    pub depth: usize,
}

impl Cx<'_> {
    /// An error about this node.
    pub fn bad(&self, reason: impl Into<String>) -> Error {
        Error::Parameter {
            name: self.path.to_string(),
            reason: reason.into(),
        }
    }

    /// `v`, if finite.
    pub fn finite(&self, what: &str, v: f64) -> Result<f64, Error> {
        if v.is_finite() {
            Ok(v)
        } else {
            Err(self.bad(format!("{what} must be finite, not {v}")))
        }
    }

    /// One finite number per axis.
    pub fn axes<const D: usize>(&self, what: &str, by: &[f64]) -> Result<[f64; D], Error> {
        if by.len() != D {
            return Err(self.bad(format!(
                "{what} needs {D} numbers (one per axis), not {}",
                by.len()
            )));
        }
        for &v in by {
            self.finite(what, v)?;
        }
        Ok(array_of(|a| by[a]))
    }

    /// Compiles the input `name` of this node.
    pub fn sub<const D: usize>(&self, g: &Graph, name: &str) -> Result<Box<Node<D>>, Error> {
        let path = format!("{}.{name}", self.path);
        Ok(Box::new(compile(
            g,
            &Cx {
                path: &path,
                depth: self.depth + 1,
            },
        )?))
    }

    /// A pointwise map of the input `input`, with its range.
    pub fn map<M: Pointwise, const D: usize>(
        &self,
        map: M,
        input: &Graph,
    ) -> Result<(Mapped<M, D>, Range), Error> {
        let input = self.sub(input, "input")?;
        let range = widen(map.image(input.range));
        Ok((Mapped { map, input }, range))
    }
}

/// A function of one value applied at every point, with its derivative (the
/// chain rule does the rest): `neg`, `abs`, `pow`, `clamp`...
pub(super) trait Pointwise: Clone {
    /// The value and its derivative with respect to the input.
    fn apply<F: Float>(&self, x: F) -> (F, F);
    /// The image of the interval `r` (exact, given `r`).
    fn image(&self, r: Range) -> Range;
    /// The body of the WGSL function `(x: f32) -> vec2<f32>` returning
    /// [`apply`](Self::apply)'s pair, operation for operation.
    #[cfg(feature = "wgsl")]
    fn wgsl(&self) -> Result<String, Error>;
    /// Functions the body calls that the module holds once, however many
    /// nodes call them.
    #[cfg(feature = "wgsl")]
    fn wgsl_lib(&self) -> Option<String> {
        None
    }
}

/// A [`Pointwise`] map of a node, compiled.
#[derive(Clone)]
pub(super) struct Mapped<M, const D: usize> {
    map: M,
    input: Box<Node<D>>,
}

impl<M: Pointwise, const D: usize> Eval<D> for Mapped<M, D> {
    fn eval<F: Float>(&self, p: Pass, f: &Frame<'_, F, D>) -> Result<Buf<F, D>, Error> {
        let mut x = self.input.eval(p, f)?;
        each(&mut x, |v| self.map.apply(v));
        Ok(x)
    }
    fn reads_points(&self) -> bool {
        self.input.reads_points()
    }
    #[cfg(feature = "wgsl")]
    fn wgsl(&self, w: &mut Out<D>, jac: bool) -> Result<String, Error> {
        let input = self.input.wgsl(w, jac)?;
        if let Some(lib) = self.map.wgsl_lib() {
            w.library(lib);
        }
        let m = w.fresh();
        w.helper(&format!(
            "fn {m}(x: f32) -> vec2<f32> {{\n{}}}\n",
            self.map.wgsl()?
        ));
        // The chain rule's product is rounded on its own: a parent adds it
        // to something, and a driver may fuse the two (lavapipe did, in
        // `(pow(a, 1.5) + pow(b, -2.7)) - c`'s gradient).
        let body = format!(
            "    let r = {input}(q, j);\n    let m = {m}({});\n    return {}(m.x, surflet_p{D}({} * m.y));\n",
            w.v("r"),
            w.rt(),
            w.grad("r")
        );
        Ok(w.node_fn("a pointwise map", &body))
    }
}

/// A function of two values at every point: `add`, `mul`, `min`...
pub(super) trait Binary: Clone {
    /// The value, and the partial derivative along one axis given the
    /// inputs' partials `gp`, `gq` (for the value alone it is called with
    /// zero partials, and the second result is ignored).
    fn apply<F: Float>(p: F, q: F, gp: F, gq: F) -> (F, F);
    /// The image of the intervals (exact, given them).
    fn image(p: Range, q: Range) -> Range;
    /// The body of the WGSL function `(p: f32, q: f32, gp: f32, gq: f32)
    /// -> vec2<f32>` returning [`apply`](Self::apply)'s pair.
    #[cfg(feature = "wgsl")]
    const WGSL: &'static str;
}

/// A [`Binary`] function of two nodes, compiled.
#[derive(Clone)]
pub(super) struct Zipped<B, const D: usize> {
    a: Box<Node<D>>,
    b: Box<Node<D>>,
    op: core::marker::PhantomData<B>,
}

impl Cx<'_> {
    /// A binary function `B` of the inputs `a` and `b`, with its range.
    pub fn zip<B: Binary, const D: usize>(
        &self,
        a: &Graph,
        b: &Graph,
    ) -> Result<(Zipped<B, D>, Range), Error> {
        let (a, b) = (self.sub(a, "a")?, self.sub(b, "b")?);
        let range = widen(B::image(a.range, b.range));
        let op = core::marker::PhantomData;
        Ok((Zipped { a, b, op }, range))
    }
}

impl<B: Binary, const D: usize> Eval<D> for Zipped<B, D> {
    fn eval<F: Float>(&self, p: Pass, f: &Frame<'_, F, D>) -> Result<Buf<F, D>, Error> {
        let mut x = self.a.eval(p, f)?;
        let y = self.b.eval(p, f)?;
        zip(&mut x, &y, B::apply::<F>);
        Ok(x)
    }
    fn reads_points(&self) -> bool {
        self.a.reads_points() || self.b.reads_points()
    }
    #[cfg(feature = "wgsl")]
    fn wgsl(&self, w: &mut Out<D>, jac: bool) -> Result<String, Error> {
        let (a, b) = (self.a.wgsl(w, jac)?, self.b.wgsl(w, jac)?);
        let f = w.fresh();
        w.helper(&format!(
            "fn {f}(p: f32, q: f32, gp: f32, gq: f32) -> vec2<f32> {{\n{}}}\n",
            B::WGSL
        ));
        // The value with zero partials, then each partial (`eval::zip`).
        let (x, y) = (w.v("x"), w.v("y"));
        let value = format!("{f}({x}, {y}, 0.0f, 0.0f).x");
        let parts: Vec<String> = (0..D)
            .map(|i| format!("{f}({x}, {y}, {}, {}).y", w.g("x", i), w.g("y", i)))
            .collect();
        let body = format!(
            "    let x = {a}(q, j);\n    let y = {b}(q, j);\n    return {};\n",
            w.ret(&value, &parts.join(", "))
        );
        Ok(w.node_fn("a binary function", &body))
    }
}

/// The WGSL shared by `blend` and `select`: the lines that evaluate the
/// inputs `a`, `b` and `c` at `q` into `x`, `y` and `kk`, and the
/// gradient of `x + (y − x)·t` for a `t` whose derivative is `dt`·∇`kk`
/// (`t` and `dt` WGSL expressions; `diff` is `y − x`), in the CPU's order,
/// as its `D` components (for [`Out::ret`]).
#[cfg(feature = "wgsl")]
pub(super) fn mix_wgsl<const D: usize>(
    w: &mut Out<D>,
    jac: bool,
    inputs: [&Node<D>; 3],
    t: &str,
    dt: &str,
) -> Result<(String, String), Error> {
    let [a, b, c] = inputs;
    let (a, b, c) = (a.wgsl(w, jac)?, b.wgsl(w, jac)?, c.wgsl(w, jac)?);
    let grad: Vec<String> = (0..D)
        .map(|i| {
            let (gx, gy, gk) = (w.g("x", i), w.g("y", i), w.g("kk", i));
            format!("({gx} + surflet_p(({gy} - {gx}) * {t})) + surflet_p((diff * {dt}) * {gk})")
        })
        .collect();
    Ok((
        format!("    let x = {a}(q, j);\n    let y = {b}(q, j);\n    let kk = {c}(q, j);\n"),
        grad.join(", "),
    ))
}

/// Widens a derived interval by 2⁻²⁰ of its magnitude at each end, which
/// covers the few roundings of one node in `f32`.
pub(super) fn widen((lo, hi): Range) -> Range {
    const E: f64 = 1.0 / (1u64 << 20) as f64;
    let w = |v: f64, dir: f64| {
        if v.is_finite() {
            v + dir * v.abs() * E
        } else {
            v
        }
    };
    (w(lo, -1.0), w(hi, 1.0))
}

/// Interval product, with `0 · ∞` counted as 0.
pub(super) fn mul_range(a: Range, b: Range) -> Range {
    let p = [a.0 * b.0, a.0 * b.1, a.1 * b.0, a.1 * b.1].map(|v| if v.is_nan() { 0.0 } else { v });
    (
        p.iter().copied().fold(f64::INFINITY, f64::min),
        p.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    )
}

/// The smallest interval holding both.
pub(super) fn hull(a: Range, b: Range) -> Range {
    (a.0.min(b.0), a.1.max(b.1))
}

/// Segment `k` of sorted `xs` holding `x` (`xs[k] ≤ x < xs[k+1]`), or
/// `None` outside `[xs[0], xs[last])`.
#[inline]
pub(super) fn segment<F: Float>(xs: &[f64], x: F) -> Option<usize> {
    let k = xs.partition_point(|&p| F::from_f64(p) <= x);
    (k >= 1 && k < xs.len()).then(|| k - 1)
}

/// `m` at `x` in `f64`, with `x` clamped to the control points `xs` (so
/// that infinite ends map to the end points).
pub(super) fn at_clamped<M: Pointwise>(m: &M, x: f64, xs: &[f64]) -> f64 {
    m.apply(x.clamp(xs[0], xs[xs.len() - 1])).0
}

/// `input` evaluated at the moved points `q`, whose Jacobian with respect
/// to the input point is `jac` (`None`: the identity).
pub(super) fn moved<F: Float, const D: usize>(
    input: &Node<D>,
    p: Pass,
    q: &[Vec<F>; D],
    jac: Option<&[[Vec<F>; D]; D]>,
) -> Result<Buf<F, D>, Error> {
    let inner = Frame {
        q: array_of(|a| &q[a][..]),
        jac,
        grid: None,
    };
    input.eval(p, &inner)
}

/// The argument `by` of `translate` and `scale`: one number, or a list.
pub(super) fn by_axes(a: &Args<'_>) -> Result<Vec<f64>, Bad> {
    Ok(match a.need("by")? {
        i @ Item {
            val: super::call::Val::Num(..),
            ..
        } => vec![super::call::number(i, a.name, "by")?],
        _ => a.numbers("by")?.unwrap_or_default(),
    })
}

/// The table of node kinds: each row is a [`Graph`] variant and its unit.
/// It generates the compiled [`Op`] (one variant per kind) and every
/// dispatch from a variant or a function name to its unit.
macro_rules! kinds {
    ($($variant:ident => $unit:ty,)*) => {
        /// A compiled node's operation: what its kind compiled to.
        #[derive(Clone)]
        pub(super) enum Op<const D: usize> {
            $($variant(<$unit as Kind>::Op<D>),)*
        }

        impl<const D: usize> Op<D> {
            pub(super) fn eval<F: Float>(&self, p: Pass, f: &Frame<'_, F, D>) -> Result<Buf<F, D>, Error> {
                match self {
                    $(Op::$variant(o) => Eval::<D>::eval(o, p, f),)*
                }
            }
            pub(super) fn reads_points(&self) -> bool {
                match self {
                    $(Op::$variant(o) => Eval::<D>::reads_points(o),)*
                }
            }
            #[cfg(feature = "wgsl")]
            pub(super) fn wgsl(&self, w: &mut Out<D>, jac: bool) -> Result<String, Error> {
                match self {
                    $(Op::$variant(o) => Eval::<D>::wgsl(o, w, jac),)*
                }
            }
        }

        /// Compiles `g` at `cx`.
        pub(super) fn compile<const D: usize>(g: &Graph, cx: &Cx<'_>) -> Result<Node<D>, Error> {
            if cx.depth > super::MAX_DEPTH {
                return Err(cx.bad(format!(
                    "the graph is deeper than {} nodes",
                    super::MAX_DEPTH
                )));
            }
            match g {
                $(Graph::$variant { .. } => {
                    let (op, range) = <$unit>::compile::<D>(g, cx)?;
                    Ok(Node { op: Op::$variant(op), range })
                })*
            }
        }

        /// `g`'s field inputs, in order.
        pub(super) fn inputs(g: &Graph) -> Vec<&Graph> {
            match g {
                $(Graph::$variant { .. } => <$unit>::inputs(g),)*
            }
        }

        /// `g`'s field inputs, to change.
        pub(super) fn inputs_mut(g: &mut Graph) -> Vec<&mut Graph> {
            match g {
                $(Graph::$variant { .. } => <$unit>::inputs_mut(g),)*
            }
        }

        /// `g`'s function name.
        pub(super) fn name_of(g: &Graph) -> &'static str {
            match g {
                $(Graph::$variant { .. } => <$unit>::name_of(g),)*
            }
        }

        /// `g` as a description.
        pub(super) fn write(g: &Graph, w: Writer) -> Result<Item, Error> {
            match g {
                $(Graph::$variant { .. } => <$unit>::write(g, w),)*
            }
        }

        /// The parameters of the function `name`, if there is one.
        pub(super) fn params_of(name: &str) -> Option<Vec<&'static str>> {
            None$(.or_else(|| <$unit>::params(name)))*
        }

        /// Which parameters of the function `name` take fields.
        pub(super) fn inputs_of(name: &str) -> Option<Vec<&'static str>> {
            None$(.or_else(|| <$unit>::inputs_of(name)))*
        }

        /// The node a call describes (its name is known: see [`params_of`]).
        pub(super) fn read(a: &Args<'_>) -> Result<Graph, Bad> {
            $(if <$unit>::params(a.name).is_some() {
                return <$unit>::read(a);
            })*
            unreachable!("Args::bind only binds known functions")
        }

        /// Every function name, in the table's order.
        pub(super) fn function_list() -> Vec<String> {
            let mut v = Vec::new();
            $(<$unit>::names(&mut v);)*
            v
        }

        /// Every function name, in the table's order, for messages.
        pub(super) fn function_names() -> String {
            function_list().join(", ")
        }
    };
}

kinds! {
    Stack => stack::StackKind,
    Add => arith::Add,
    Sub => arith::Sub,
    Mul => arith::Mul,
    Div => arith::Div,
    Min => arith::Min,
    Max => arith::Max,
    Neg => neg::Neg,
    Abs => abs::Abs,
    Const => constant::Const,
    Pow => pow::Pow,
    Clamp => clamp::Clamp,
    ScaleBias => scale_bias::ScaleBias,
    Remap => remap::Remap,
    Terrace => terrace::Terrace,
    Curve => curve::Curve,
    Smoothstep => smoothstep::Smoothstep,
    Select => select::Select,
    Blend => blend::Blend,
    Translate => translate::Translate,
    Scale => scale::Scale,
    Rotate => rotate::Rotate,
    Displace => displace::Displace,
    Distort => distort::Distort,
    Custom => custom::CustomKind,
}

/// Every kind prints its calls under its own name and parameters.
impl<K: Kind> Signature for K {
    const NAME: &'static str = <K as Kind>::NAME;
    const PARAMS: &'static [&'static str] = <K as Kind>::PARAMS;
    const POSITIONAL: usize = <K as Kind>::POSITIONAL;
}
