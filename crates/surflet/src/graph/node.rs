//! A graph compiled for one dimension: checked parameters in the form the
//! evaluator uses, each node's derived range, and the block evaluator.

// Per-axis arrays are walked in step; index loops read best there.
#![allow(clippy::needless_range_loop)]

use crate::prelude_internal::*;
use alloc::sync::Arc;

use super::{Graph, MAX_DEPTH, Rotation};
use crate::error::Error;
use crate::field::{Field, run_blocks};
use crate::float::DynField;
use crate::float::Float;
use crate::fractal::FractalKind;
use crate::grid::{Bounds, Grid};
use crate::noise::{NoiseKind, Sample};
use crate::simd::Isa;
use crate::stack::{Evaluator, FractalDesc, Stack};

/// A [`Graph`] checked and compiled for dimension `D`: a [`Field`].
///
/// ```
/// use surflet::prelude::*;
/// use surflet::graph::Graph;
/// let g = Graph::parse("abs(perlin(seed=4)) * 2 - 1")?;
/// let f = g.build::<3>()?;
/// let (lo, hi) = f.range();
/// assert!(lo <= -1.0 && hi >= 1.0 && hi < 1.0001);
/// let mut out = vec![0.0f32; 3];
/// f.fill([&[0.1, 0.2, 0.3], &[0.0; 3], &[5.0; 3]], &mut out)?;
/// assert_eq!(out[1], f.get([0.2f32, 0.0, 5.0]));
/// # Ok::<(), surflet::Error>(())
/// ```
#[derive(Clone)]
pub struct GraphField<const D: usize> {
    graph: Graph,
    root: Node<D>,
}

impl<const D: usize> core::fmt::Debug for GraphField<D> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GraphField")
            .field("graph", &self.graph)
            .field("range", &self.root.range)
            .finish()
    }
}

#[derive(Clone)]
struct Node<const D: usize> {
    op: Op<D>,
    range: (f64, f64),
}

#[derive(Clone)]
enum Op<const D: usize> {
    Leaf(Box<Evaluator<D>>),
    Custom(Arc<dyn DynField<D>>),
    Const(f64),
    Map(Map, Box<Node<D>>),
    Bin(Bin, Box<Node<D>>, Box<Node<D>>),
    Select {
        a: Box<Node<D>>,
        b: Box<Node<D>>,
        c: Box<Node<D>>,
        threshold: f64,
        falloff: f64,
    },
    Blend {
        a: Box<Node<D>>,
        b: Box<Node<D>>,
        c: Box<Node<D>>,
    },
    Domain(Domain<D>, Box<Node<D>>),
    Displace(Box<Node<D>>, Vec<Node<D>>),
}

#[derive(Clone, Copy)]
enum Bin {
    Add,
    Sub,
    Mul,
    Div,
    Min,
    Max,
}

#[derive(Clone)]
enum Map {
    Neg,
    Abs,
    PowInt(i32),
    PowF(f64),
    Clamp(f64, f64),
    ScaleBias(f64, f64),
    /// `(x − a)·k + c`.
    Remap(f64, f64, f64),
    Terrace(Vec<f64>, bool),
    /// Control xs, ys and the monotone slopes at them.
    Curve(Vec<f64>, Vec<f64>, Vec<f64>),
}

#[derive(Clone)]
enum Domain<const D: usize> {
    Translate([f64; D]),
    Scale([f64; D]),
    Linear([[f64; D]; D]),
}

fn bad(path: &str, reason: impl Into<String>) -> Error {
    Error::Parameter {
        name: path.to_string(),
        reason: reason.into(),
    }
}

fn finite(path: &str, what: &str, v: f64) -> Result<f64, Error> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(bad(path, format!("{what} must be finite, not {v}")))
    }
}

/// Widens a derived interval by 2⁻²⁰ of its magnitude at each end, which
/// covers the few roundings of one node in `f32`.
fn widen((lo, hi): (f64, f64)) -> (f64, f64) {
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
fn mul_range(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    let p = [a.0 * b.0, a.0 * b.1, a.1 * b.0, a.1 * b.1].map(|v| if v.is_nan() { 0.0 } else { v });
    (
        p.iter().copied().fold(f64::INFINITY, f64::min),
        p.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    )
}

fn hull(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    (a.0.min(b.0), a.1.max(b.1))
}

/// `x^n` by repeated squaring in a fixed order: exact definition, the same
/// bits everywhere.
#[inline]
fn powi<F: Float>(x: F, n: i32) -> F {
    let mut b = n.unsigned_abs();
    let mut a = x;
    let mut r = F::ONE;
    while b > 0 {
        if b & 1 == 1 {
            r = r * a;
        }
        b >>= 1;
        if b > 0 {
            a = a * a;
        }
    }
    if n < 0 { F::ONE / r } else { r }
}

/// The monotone (Fritsch–Butland, as PCHIP) slopes through `xs`, `ys`.
fn pchip_slopes(xs: &[f64], ys: &[f64]) -> Vec<f64> {
    let n = xs.len();
    let h: Vec<f64> = (0..n - 1).map(|k| xs[k + 1] - xs[k]).collect();
    let d: Vec<f64> = (0..n - 1).map(|k| (ys[k + 1] - ys[k]) / h[k]).collect();
    let mut m = vec![0.0; n];
    m[0] = d[0];
    m[n - 1] = d[n - 2];
    for k in 1..n - 1 {
        if d[k - 1] * d[k] > 0.0 {
            let w1 = 2.0 * h[k] + h[k - 1];
            let w2 = h[k] + 2.0 * h[k - 1];
            m[k] = (w1 + w2) / (w1 / d[k - 1] + w2 / d[k]);
        }
    }
    m
}

/// Segment `k` of sorted `xs` holding `x` (`xs[k] ≤ x < xs[k+1]`), or
/// `None` outside `[xs[0], xs[last])`.
#[inline]
fn segment<F: Float>(xs: &[f64], x: F) -> Option<usize> {
    let k = xs.partition_point(|&p| F::from_f64(p) <= x);
    (k >= 1 && k < xs.len()).then(|| k - 1)
}

impl Map {
    /// The value and its derivative with respect to the input.
    #[inline]
    fn apply<F: Float>(&self, x: F) -> (F, F) {
        let c = F::from_f64;
        match self {
            Map::Neg => (-x, -F::ONE),
            Map::Abs => {
                let d = if x > F::ZERO {
                    F::ONE
                } else if x < F::ZERO {
                    -F::ONE
                } else {
                    F::ZERO
                };
                (x.abs(), d)
            }
            Map::PowInt(n) => {
                if *n == 0 {
                    (F::ONE, F::ZERO)
                } else {
                    (powi(x, *n), c(*n as f64) * powi(x, n - 1))
                }
            }
            Map::PowF(e) => {
                let v = x.to_f64();
                (c(v.powf(*e)), c(*e * v.powf(*e - 1.0)))
            }
            Map::Clamp(lo, hi) => {
                let (lo, hi) = (c(*lo), c(*hi));
                if x < lo {
                    (lo, F::ZERO)
                } else if x > hi {
                    (hi, F::ZERO)
                } else if x > lo && x < hi {
                    (x, F::ONE)
                } else {
                    // On a bound, or NaN.
                    (x, F::ZERO)
                }
            }
            Map::ScaleBias(s, b) => (x * c(*s) + c(*b), c(*s)),
            Map::Remap(a, k, b) => ((x - c(*a)) * c(*k) + c(*b), c(*k)),
            Map::Terrace(p, smooth) => {
                if x.is_nan() {
                    return (x, x);
                }
                let Some(k) = segment(p, x) else {
                    let end = if x < c(p[0]) { p[0] } else { p[p.len() - 1] };
                    return (c(end), F::ZERO);
                };
                let (p0, p1) = (c(p[k]), c(p[k + 1]));
                let t = (x - p0) / (p1 - p0);
                let (f, df) = if *smooth {
                    let f = t * t * t * (t * (t * c(6.0) - c(15.0)) + c(10.0));
                    let df = t * t * (t * (t * c(30.0) - c(60.0)) + c(30.0));
                    (f, df)
                } else {
                    (t * t, t + t)
                };
                (p0 + (p1 - p0) * f, df)
            }
            Map::Curve(xs, ys, ms) => {
                if x.is_nan() {
                    return (x, x);
                }
                let Some(k) = segment(xs, x) else {
                    let end = if x < c(xs[0]) {
                        ys[0]
                    } else {
                        ys[ys.len() - 1]
                    };
                    return (c(end), F::ZERO);
                };
                let (x0, x1) = (c(xs[k]), c(xs[k + 1]));
                let h = x1 - x0;
                let t = (x - x0) / h;
                let (y0, y1) = (c(ys[k]), c(ys[k + 1]));
                let (m0, m1) = (c(ms[k]) * h, c(ms[k + 1]) * h);
                let one = F::ONE;
                let u = one - t;
                let h00 = (one + t + t) * u * u;
                let h10 = t * u * u;
                let h01 = t * t * (c(3.0) - t - t);
                let h11 = t * t * (t - one);
                let v = h00 * y0 + h10 * m0 + h01 * y1 + h11 * m1;
                let six = c(6.0) * t * (t - one);
                let d10 = (c(3.0) * t - c(4.0)) * t + one;
                let d11 = (c(3.0) * t - c(2.0)) * t;
                let dv = (six * y0 + d10 * m0 - six * y1 + d11 * m1) / h;
                (v, dv)
            }
        }
    }

    /// The image of `r` (exact for these monotone-by-piece maps).
    fn range(&self, r: (f64, f64)) -> (f64, f64) {
        let (lo, hi) = r;
        match self {
            Map::Neg => (-hi, -lo),
            Map::Abs => {
                if lo >= 0.0 {
                    (lo, hi)
                } else if hi <= 0.0 {
                    (-hi, -lo)
                } else {
                    (0.0, hi.max(-lo))
                }
            }
            Map::PowInt(n) => {
                let (a, b) = (powi(lo, *n), powi(hi, *n));
                if *n == 0 {
                    (1.0, 1.0)
                } else if n % 2 == 0 && lo < 0.0 && hi > 0.0 {
                    if *n > 0 {
                        (0.0, a.max(b))
                    } else {
                        (0.0, f64::INFINITY)
                    }
                } else {
                    (a.min(b), a.max(b))
                }
            }
            Map::PowF(e) => {
                let (a, b) = (lo.powf(*e), hi.powf(*e));
                (a.min(b), a.max(b))
            }
            Map::Clamp(a, b) => (lo.max(*a).min(*b), hi.min(*b).max(*a)),
            Map::ScaleBias(s, b) => {
                let (x, y) = (lo * s + b, hi * s + b);
                (x.min(y), x.max(y))
            }
            Map::Remap(a, k, b) => {
                let (x, y) = ((lo - a) * k + b, (hi - a) * k + b);
                (x.min(y), x.max(y))
            }
            // Both are non-decreasing or monotone by piece between control
            // points, so the extremes are at the ends or at control points.
            Map::Terrace(p, _) => (self.at(lo, p), self.at(hi, p)),
            Map::Curve(xs, _, _) => {
                let mut out = (self.at(lo, xs), self.at(hi, xs));
                out = hull(out, (out.1, out.0));
                for &x in xs {
                    if x > lo && x < hi {
                        let v = self.apply(x).0;
                        out = (out.0.min(v), out.1.max(v));
                    }
                }
                (out.0.min(out.1), out.0.max(out.1))
            }
        }
    }

    /// The value at `x` in `f64`, with infinite ends mapped to the end
    /// points.
    fn at(&self, x: f64, xs: &[f64]) -> f64 {
        let x = x.clamp(xs[0], xs[xs.len() - 1]);
        self.apply(x).0
    }
}

/// Builds a node, checking its parameters; `path` names it in errors.
fn compile<const D: usize>(g: &Graph, path: &str, depth: usize) -> Result<Node<D>, Error> {
    if depth > MAX_DEPTH {
        return Err(bad(
            path,
            format!("the graph is deeper than {MAX_DEPTH} nodes"),
        ));
    }
    let sub = |g: &Graph, name: &str| -> Result<Box<Node<D>>, Error> {
        Ok(Box::new(compile(g, &format!("{path}.{name}"), depth + 1)?))
    };
    let map = |m: Map, input: &Graph, name: &str| -> Result<Node<D>, Error> {
        let x = sub(input, name)?;
        let range = widen(m.range(x.range));
        Ok(Node {
            op: Op::Map(m, x),
            range,
        })
    };
    let bin = |b: Bin, x: &Graph, y: &Graph| -> Result<Node<D>, Error> {
        let (x, y) = (sub(x, "a")?, sub(y, "b")?);
        let (p, q) = (x.range, y.range);
        let r = match b {
            Bin::Add => (p.0 + q.0, p.1 + q.1),
            Bin::Sub => (p.0 - q.1, p.1 - q.0),
            Bin::Mul => mul_range(p, q),
            Bin::Div => {
                if q.0 <= 0.0 && q.1 >= 0.0 {
                    (f64::NEG_INFINITY, f64::INFINITY)
                } else {
                    mul_range(p, (1.0 / q.1, 1.0 / q.0))
                }
            }
            Bin::Min => (p.0.min(q.0), p.1.min(q.1)),
            Bin::Max => (p.0.max(q.0), p.1.max(q.1)),
        };
        Ok(Node {
            op: Op::Bin(b, x, y),
            range: widen(r),
        })
    };
    let axes = |what: &str, by: &[f64]| -> Result<[f64; D], Error> {
        if by.len() != D {
            return Err(bad(
                path,
                format!("{what} needs {D} numbers (one per axis), not {}", by.len()),
            ));
        }
        for &v in by {
            finite(path, what, v)?;
        }
        Ok(core::array::from_fn(|a| by[a]))
    };
    Ok(match g {
        Graph::Stack(s) => {
            let e = s.build::<D>().map_err(|e| match e {
                Error::Config { key, message } => Error::Config {
                    key: if key.is_empty() {
                        path.to_string()
                    } else {
                        format!("{path}.{key}")
                    },
                    message,
                },
                other => bad(path, other.to_string()),
            })?;
            let range = e.range();
            Node {
                op: Op::Leaf(Box::new(e)),
                range,
            }
        }
        Graph::Custom(c) => {
            let f = c.field::<D>().ok_or_else(|| {
                bad(
                    path,
                    format!(
                        "the custom field {:?} is {}D, and the graph is built in {D}D",
                        c.name(),
                        c.dims()
                    ),
                )
            })?;
            let range = f.range_dyn();
            Node {
                op: Op::Custom(f),
                range,
            }
        }
        Graph::Const(v) => Node {
            op: Op::Const(finite(path, "a constant", *v)?),
            range: widen((*v, *v)),
        },
        Graph::Neg(x) => map(Map::Neg, x, "input")?,
        Graph::Abs(x) => map(Map::Abs, x, "input")?,
        Graph::Add(x, y) => bin(Bin::Add, x, y)?,
        Graph::Sub(x, y) => bin(Bin::Sub, x, y)?,
        Graph::Mul(x, y) => bin(Bin::Mul, x, y)?,
        Graph::Div(x, y) => bin(Bin::Div, x, y)?,
        Graph::Min(x, y) => bin(Bin::Min, x, y)?,
        Graph::Max(x, y) => bin(Bin::Max, x, y)?,
        Graph::Pow { input, exponent } => {
            let e = finite(path, "the exponent", *exponent)?;
            if e.abs() <= 64.0 && e == (e as i32) as f64 {
                map(Map::PowInt(e as i32), input, "input")?
            } else {
                let x = sub(input, "input")?;
                let (lo, _) = x.range;
                if lo < 0.0 || (e < 0.0 && lo <= 0.0) {
                    return Err(bad(
                        path,
                        format!(
                            "a non-integer exponent ({e}) needs a base that is {} over its \
                             range, and the base's range starts at {lo}; take abs() or \
                             clamp() of it first",
                            if e < 0.0 { "positive" } else { "non-negative" }
                        ),
                    ));
                }
                let m = Map::PowF(e);
                let range = widen(m.range(x.range));
                Node {
                    op: Op::Map(m, x),
                    range,
                }
            }
        }
        Graph::Clamp { input, min, max } => {
            let (lo, hi) = (finite(path, "min", *min)?, finite(path, "max", *max)?);
            if lo > hi {
                return Err(bad(path, format!("min ({lo}) is above max ({hi})")));
            }
            map(Map::Clamp(lo, hi), input, "input")?
        }
        Graph::ScaleBias { input, scale, bias } => map(
            Map::ScaleBias(finite(path, "scale", *scale)?, finite(path, "bias", *bias)?),
            input,
            "input",
        )?,
        Graph::Remap { input, from, to } => {
            for v in from.iter().chain(to) {
                finite(path, "remap's bounds", *v)?;
            }
            if from[0] == from[1] {
                return Err(bad(path, "from's two values must differ"));
            }
            let k = (to[1] - to[0]) / (from[1] - from[0]);
            map(
                Map::Remap(from[0], finite(path, "the slope", k)?, to[0]),
                input,
                "input",
            )?
        }
        Graph::Terrace {
            input,
            points,
            smooth,
        } => {
            if points.len() < 2 {
                return Err(bad(path, "terrace needs at least two points"));
            }
            for w in points.windows(2) {
                if finite(path, "a point", w[0])? >= finite(path, "a point", w[1])? {
                    return Err(bad(path, "terrace points must be strictly increasing"));
                }
            }
            map(Map::Terrace(points.clone(), *smooth), input, "input")?
        }
        Graph::Curve { input, points } => {
            if points.len() < 2 {
                return Err(bad(path, "curve needs at least two points"));
            }
            for p in points {
                finite(path, "a point", p[0])?;
                finite(path, "a point", p[1])?;
            }
            for w in points.windows(2) {
                if w[0][0] >= w[1][0] {
                    return Err(bad(path, "curve points' x must be strictly increasing"));
                }
            }
            let xs: Vec<f64> = points.iter().map(|p| p[0]).collect();
            let ys: Vec<f64> = points.iter().map(|p| p[1]).collect();
            let ms = pchip_slopes(&xs, &ys);
            for &m in &ms {
                finite(path, "a slope", m)?;
            }
            map(Map::Curve(xs, ys, ms), input, "input")?
        }
        Graph::Select {
            a,
            b,
            control,
            threshold,
            falloff,
        } => {
            let t = finite(path, "threshold", *threshold)?;
            let f = finite(path, "falloff", *falloff)?;
            if f < 0.0 {
                return Err(bad(path, format!("falloff must be ≥ 0, not {f}")));
            }
            let (a, b, c) = (sub(a, "a")?, sub(b, "b")?, sub(control, "control")?);
            let range = widen(hull(a.range, b.range));
            Node {
                op: Op::Select {
                    a,
                    b,
                    c,
                    threshold: t,
                    falloff: f,
                },
                range,
            }
        }
        Graph::Blend { a, b, control } => {
            let (a, b, c) = (sub(a, "a")?, sub(b, "b")?, sub(control, "control")?);
            let t = ((c.range.0 + 1.0) * 0.5, (c.range.1 + 1.0) * 0.5);
            let r = if t.0 >= 0.0 && t.1 <= 1.0 {
                hull(a.range, b.range)
            } else {
                let diff = (b.range.0 - a.range.1, b.range.1 - a.range.0);
                let m = mul_range(diff, t);
                (a.range.0 + m.0, a.range.1 + m.1)
            };
            Node {
                op: Op::Blend { a, b, c },
                range: widen(r),
            }
        }
        Graph::Translate { input, by } => {
            let t = axes("translate", by)?;
            let x = sub(input, "input")?;
            Node {
                range: x.range,
                op: Op::Domain(Domain::Translate(t), x),
            }
        }
        Graph::Scale { input, by } => {
            let s = if by.len() == 1 {
                [finite(path, "scale", by[0])?; D]
            } else {
                axes("scale", by)?
            };
            let x = sub(input, "input")?;
            Node {
                range: x.range,
                op: Op::Domain(Domain::Scale(s), x),
            }
        }
        Graph::Rotate { input, by } => {
            let m = match by {
                Rotation::Angle(t) => {
                    let t = finite(path, "angle", *t)?;
                    if D < 2 {
                        return Err(bad(
                            path,
                            "an angle turns the xy plane: it needs 2+ dimensions",
                        ));
                    }
                    let (s, c) = (t.sin(), t.cos());
                    let mut m = [[0.0; D]; D];
                    for a in 0..D {
                        m[a][a] = 1.0;
                    }
                    m[0][0] = c;
                    m[0][1] = -s;
                    m[1][0] = s;
                    m[1][1] = c;
                    m
                }
                Rotation::Matrix(rows) => {
                    if rows.len() != D || rows.iter().any(|r| r.len() != D) {
                        return Err(bad(path, format!("the matrix must be {D} × {D}")));
                    }
                    let mut m = [[0.0; D]; D];
                    for a in 0..D {
                        for b in 0..D {
                            m[a][b] = finite(path, "a matrix entry", rows[a][b])?;
                        }
                    }
                    m
                }
            };
            let x = sub(input, "input")?;
            Node {
                range: x.range,
                op: Op::Domain(Domain::Linear(m), x),
            }
        }
        Graph::Displace { input, by } => {
            if by.len() != D {
                return Err(bad(
                    path,
                    format!("displace needs {D} fields (one per axis), not {}", by.len()),
                ));
            }
            let x = sub(input, "input")?;
            let mut d = Vec::with_capacity(D);
            for (a, f) in by.iter().enumerate() {
                d.push(*sub(f, &format!("by[{a}]"))?);
            }
            Node {
                range: x.range,
                op: Op::Displace(x, d),
            }
        }
        Graph::Distort {
            input,
            power,
            frequency,
            roughness,
            seed,
        } => {
            let by = distortion(*power, *frequency, *roughness, *seed, D);
            let g = Graph::Displace {
                input: input.clone(),
                by,
            };
            compile(&g, path, depth)?
        }
    })
}

/// `distort`'s displacement fields: one Perlin fBm per axis, seeds
/// `seed + axis`, times `power`.
pub(super) fn distortion(
    power: f64,
    frequency: f64,
    roughness: u32,
    seed: u64,
    dims: usize,
) -> Vec<Graph> {
    (0..dims)
        .map(|a| {
            Graph::stack(Stack {
                noise: NoiseKind::Perlin,
                seed: seed.wrapping_add(a as u64),
                frequency,
                fractal: Some(FractalDesc {
                    kind: FractalKind::Fbm,
                    octaves: roughness,
                    ..FractalDesc::default()
                }),
                ..Stack::default()
            })
            .scale_bias(power, 0.0)
        })
        .collect()
}

/// Where a node is evaluated: the (possibly transformed) coordinates `q`
/// and, when gradients are asked for, the Jacobian `∂q[a]/∂p[b]` with
/// respect to the input point (`None`: the identity).
struct Frame<'a, F, const D: usize> {
    q: [&'a [F]; D],
    jac: Option<&'a [[Vec<F>; D]; D]>,
    /// Set where the points are a grid's `start..start + n`, untransformed:
    /// leaves then take their stack's grid path (the same bits as its
    /// points, several times faster), and `q` is empty unless a node reads
    /// it (see [`Node::reads_points`]).
    grid: Option<(&'a Grid<F, D>, usize)>,
}

/// A node's values over a block and, if asked, their gradient with respect
/// to the input point.
struct Buf<F, const D: usize> {
    v: Vec<F>,
    g: Option<[Vec<F>; D]>,
}

/// `∇ₚ = Jᵀ ∇_q`, summed in axis order as the stacks' warps do.
fn pull_back<F: Float, const D: usize>(
    gq: [Vec<F>; D],
    jac: Option<&[[Vec<F>; D]; D]>,
) -> [Vec<F>; D] {
    let Some(j) = jac else { return gq };
    let n = gq[0].len();
    core::array::from_fn(|b| {
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let mut acc = gq[0][i] * j[0][b][i];
            for a in 1..D {
                acc = acc + gq[a][i] * j[a][b][i];
            }
            out.push(acc);
        }
        out
    })
}

/// A leaf over a block: `fill` writes the values and, if asked, the
/// gradient with respect to the frame's coordinates, which is then pulled
/// back to the input point.
fn leaf<F: Float, const D: usize>(
    f: &Frame<'_, F, D>,
    n: usize,
    grad: bool,
    fill: impl FnOnce([&[F]; D], &mut [F], Option<[&mut [F]; D]>) -> Result<(), Error>,
) -> Result<Buf<F, D>, Error> {
    let mut v = vec![F::ZERO; n];
    if !grad {
        fill(f.q, &mut v, None)?;
        return Ok(Buf { v, g: None });
    }
    let mut gq = zeros::<F, D>(n);
    {
        let mut it = gq.iter_mut();
        let refs: [&mut [F]; D] = core::array::from_fn(|_| &mut it.next().expect("D slices")[..]);
        fill(f.q, &mut v, Some(refs))?;
    }
    Ok(Buf {
        v,
        g: Some(pull_back(gq, f.jac)),
    })
}

/// Applies `f` (value → value and derivative) to every value, and the
/// chain rule to the gradient.
#[inline(always)]
fn each<F: Float, const D: usize>(x: &mut Buf<F, D>, f: impl Fn(F) -> (F, F)) {
    match &mut x.g {
        None => {
            for v in &mut x.v {
                *v = f(*v).0;
            }
        }
        Some(g) => {
            for i in 0..x.v.len() {
                let (v, d) = f(x.v[i]);
                x.v[i] = v;
                for ga in g.iter_mut() {
                    ga[i] = ga[i] * d;
                }
            }
        }
    }
}

/// Combines `x` and `y` point by point into `x` with `f(x, y, ∂x, ∂y)`,
/// which returns the value and the partial derivative along one axis (for
/// the value alone it is called with zero derivatives, and the second
/// result is ignored).
#[inline(always)]
fn zip<F: Float, const D: usize>(
    x: &mut Buf<F, D>,
    y: &Buf<F, D>,
    f: impl Fn(F, F, F, F) -> (F, F),
) {
    let n = x.v.len();
    match (&mut x.g, &y.g) {
        (Some(gx), Some(gy)) => {
            for i in 0..n {
                let (p, q) = (x.v[i], y.v[i]);
                for a in 0..D {
                    gx[a][i] = f(p, q, gx[a][i], gy[a][i]).1;
                }
                x.v[i] = f(p, q, F::ZERO, F::ZERO).0;
            }
        }
        _ => {
            for i in 0..n {
                x.v[i] = f(x.v[i], y.v[i], F::ZERO, F::ZERO).0;
            }
        }
    }
}

fn zeros<F: Float, const D: usize>(n: usize) -> [Vec<F>; D] {
    core::array::from_fn(|_| vec![F::ZERO; n])
}

impl<const D: usize> Node<D> {
    /// Whether evaluating it over a grid frame reads the frame's
    /// coordinates: domain transforms and displacements move them, and a
    /// user's field is called with them. Leaves use the grid itself.
    fn reads_points(&self) -> bool {
        match &self.op {
            Op::Leaf(_) | Op::Const(_) => false,
            Op::Custom(_) | Op::Domain(..) | Op::Displace(..) => true,
            Op::Map(_, x) => x.reads_points(),
            Op::Bin(_, x, y) => x.reads_points() || y.reads_points(),
            Op::Select { a, b, c, .. } | Op::Blend { a, b, c } => {
                a.reads_points() || b.reads_points() || c.reads_points()
            }
        }
    }

    fn eval<F: Float>(
        &self,
        isa: Isa,
        f: &Frame<'_, F, D>,
        n: usize,
        grad: bool,
    ) -> Result<Buf<F, D>, Error> {
        let c = F::from_f64;
        Ok(match &self.op {
            Op::Leaf(e) => match f.grid {
                Some((grid, start)) => leaf(f, n, grad, |_, v, g| {
                    e.grid_part_on(isa, grid, start, v, g).map(|_| ())
                })?,
                None => leaf(f, n, grad, |q, v, g| e.fill_on(isa, q, v, g))?,
            },
            Op::Custom(field) => leaf(f, n, grad, |q, v, g| F::fill_dyn(&**field, isa, q, v, g))?,
            Op::Const(k) => Buf {
                v: vec![c(*k); n],
                g: grad.then(|| zeros::<F, D>(n)),
            },
            Op::Map(m, x) => {
                let mut x = x.eval(isa, f, n, grad)?;
                // One loop per kind of map, so that the match is not in it.
                match m {
                    Map::Neg => each(&mut x, |v| (-v, -F::ONE)),
                    Map::ScaleBias(s, b) => {
                        let (s, b) = (c(*s), c(*b));
                        each(&mut x, |v| (v * s + b, s));
                    }
                    Map::Remap(a, k, b) => {
                        let (a, k, b) = (c(*a), c(*k), c(*b));
                        each(&mut x, |v| ((v - a) * k + b, k));
                    }
                    _ => each(&mut x, |v| m.apply(v)),
                }
                x
            }
            Op::Bin(b, x, y) => {
                let mut x = x.eval(isa, f, n, grad)?;
                let y = y.eval(isa, f, n, grad)?;
                match b {
                    Bin::Add => zip(&mut x, &y, |p, q, gp, gq| (p + q, gp + gq)),
                    Bin::Sub => zip(&mut x, &y, |p, q, gp, gq| (p - q, gp - gq)),
                    Bin::Mul => zip(&mut x, &y, |p, q, gp, gq| (p * q, gp * q + p * gq)),
                    Bin::Div => zip(&mut x, &y, |p, q, gp, gq| {
                        (p / q, (gp * q - p * gq) / (q * q))
                    }),
                    Bin::Min => zip(&mut x, &y, |p, q, gp, gq| {
                        if p <= q {
                            (p, gp)
                        } else if q < p {
                            (q, gq)
                        } else {
                            (p + q, F::NAN)
                        }
                    }),
                    Bin::Max => zip(&mut x, &y, |p, q, gp, gq| {
                        if p >= q {
                            (p, gp)
                        } else if q > p {
                            (q, gq)
                        } else {
                            (p + q, F::NAN)
                        }
                    }),
                }
                x
            }
            Op::Select {
                a,
                b,
                c: ctl,
                threshold,
                falloff,
            } => {
                let mut x = a.eval(isa, f, n, grad)?;
                let y = b.eval(isa, f, n, grad)?;
                let k = ctl.eval(isa, f, n, grad)?;
                let (lo, hi) = (c(threshold - falloff), c(threshold + falloff));
                let width = c(2.0 * falloff);
                for i in 0..n {
                    let (p, q, t) = (x.v[i], y.v[i], k.v[i]);
                    if t.is_nan() {
                        x.v[i] = t;
                        if let Some(g) = &mut x.g {
                            for a in 0..D {
                                g[a][i] = t;
                            }
                        }
                    } else if t < lo {
                        // `a`: already in place.
                    } else if t >= hi {
                        x.v[i] = q;
                        if let (Some(gx), Some(gy)) = (&mut x.g, &y.g) {
                            for a in 0..D {
                                gx[a][i] = gy[a][i];
                            }
                        }
                    } else {
                        let u = (t - lo) / width;
                        let s = u * u * (c(3.0) - u - u);
                        let ds = c(6.0) * u * (F::ONE - u) / width;
                        let diff = q - p;
                        x.v[i] = p + diff * s;
                        if let (Some(gx), Some(gy), Some(gk)) = (&mut x.g, &y.g, &k.g) {
                            for a in 0..D {
                                gx[a][i] =
                                    gx[a][i] + (gy[a][i] - gx[a][i]) * s + diff * ds * gk[a][i];
                            }
                        }
                    }
                }
                x
            }
            Op::Blend { a, b, c: ctl } => {
                let mut x = a.eval(isa, f, n, grad)?;
                let y = b.eval(isa, f, n, grad)?;
                let k = ctl.eval(isa, f, n, grad)?;
                let half = c(0.5);
                for i in 0..n {
                    let (p, q) = (x.v[i], y.v[i]);
                    let t = (k.v[i] + F::ONE) * half;
                    let diff = q - p;
                    x.v[i] = p + diff * t;
                    if let (Some(gx), Some(gy), Some(gk)) = (&mut x.g, &y.g, &k.g) {
                        for a in 0..D {
                            gx[a][i] =
                                gx[a][i] + (gy[a][i] - gx[a][i]) * t + diff * half * gk[a][i];
                        }
                    }
                }
                x
            }
            Op::Domain(d, x) => {
                let mut q: [Vec<F>; D] = core::array::from_fn(|_| Vec::with_capacity(n));
                match d {
                    Domain::Translate(t) => {
                        for a in 0..D {
                            let t = c(t[a]);
                            q[a].extend(f.q[a].iter().map(|&v| v + t));
                        }
                    }
                    Domain::Scale(s) => {
                        for a in 0..D {
                            let s = c(s[a]);
                            q[a].extend(f.q[a].iter().map(|&v| v * s));
                        }
                    }
                    Domain::Linear(m) => {
                        for r in 0..D {
                            for i in 0..n {
                                let mut acc = c(m[r][0]) * f.q[0][i];
                                for k in 1..D {
                                    acc = acc + c(m[r][k]) * f.q[k][i];
                                }
                                q[r].push(acc);
                            }
                        }
                    }
                }
                // The new Jacobian: `∂q'/∂q · J`.
                let jac: Option<[[Vec<F>; D]; D]> = if !grad {
                    None
                } else {
                    match d {
                        Domain::Translate(_) => None,
                        Domain::Scale(s) => Some(core::array::from_fn(|a| {
                            let s = c(s[a]);
                            core::array::from_fn(|b| match f.jac {
                                None => vec![if a == b { s } else { F::ZERO }; n],
                                Some(j) => j[a][b].iter().map(|&v| v * s).collect(),
                            })
                        })),
                        Domain::Linear(m) => Some(core::array::from_fn(|r| {
                            core::array::from_fn(|b| match f.jac {
                                None => vec![c(m[r][b]); n],
                                Some(j) => (0..n)
                                    .map(|i| {
                                        let mut acc = c(m[r][0]) * j[0][b][i];
                                        for k in 1..D {
                                            acc = acc + c(m[r][k]) * j[k][b][i];
                                        }
                                        acc
                                    })
                                    .collect(),
                            })
                        })),
                    }
                };
                let jac_ref = match (&jac, d) {
                    (None, Domain::Translate(_)) => f.jac,
                    (j, _) => j.as_ref(),
                };
                let inner = Frame {
                    q: core::array::from_fn(|a| &q[a][..]),
                    jac: jac_ref,
                    grid: None,
                };
                x.eval(isa, &inner, n, grad)?
            }
            Op::Displace(x, by) => {
                let mut q: [Vec<F>; D] = core::array::from_fn(|a| f.q[a].to_vec());
                let mut jac: Option<[[Vec<F>; D]; D]> = grad.then(|| {
                    core::array::from_fn(|a| {
                        core::array::from_fn(|b| match f.jac {
                            Some(j) => j[a][b].clone(),
                            None => vec![if a == b { F::ONE } else { F::ZERO }; n],
                        })
                    })
                });
                for (a, d) in by.iter().enumerate() {
                    let d = d.eval(isa, f, n, grad)?;
                    for i in 0..n {
                        q[a][i] = q[a][i] + d.v[i];
                    }
                    if let (Some(j), Some(g)) = (&mut jac, &d.g) {
                        for b in 0..D {
                            for i in 0..n {
                                j[a][b][i] = j[a][b][i] + g[b][i];
                            }
                        }
                    }
                }
                let inner = Frame {
                    q: core::array::from_fn(|a| &q[a][..]),
                    jac: jac.as_ref(),
                    grid: None,
                };
                x.eval(isa, &inner, n, grad)?
            }
        })
    }
}

impl<const D: usize> GraphField<D> {
    pub(super) fn new(graph: &Graph) -> Result<Self, Error> {
        let root = compile::<D>(graph, graph_name(graph), 1)?;
        Ok(GraphField {
            graph: graph.clone(),
            root,
        })
    }

    /// The graph it was compiled from.
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// The stack, if the graph is a single stack (which then runs exactly
    /// as that stack's [`Evaluator`]).
    pub fn as_stack(&self) -> Option<&Evaluator<D>> {
        match &self.root.op {
            Op::Leaf(e) => Some(e),
            _ => None,
        }
    }

    /// The tile, if the graph is a single tiling stack.
    pub fn tile(&self) -> Option<[f64; D]> {
        self.as_stack().and_then(|e| e.tile())
    }

    /// One block: values (and gradient) at `coords`, which are the grid
    /// points `start..` of `grid` where that is given.
    fn block<F: Float>(
        &self,
        isa: Isa,
        coords: [&[F]; D],
        grid: Option<(&Grid<F, D>, usize)>,
        out: &mut [F],
        gradient: Option<[&mut [F]; D]>,
    ) -> Result<(), Error> {
        let n = out.len();
        let frame = Frame {
            q: coords,
            jac: None,
            grid,
        };
        let buf = self.root.eval(isa, &frame, n, gradient.is_some())?;
        out.copy_from_slice(&buf.v);
        if let (Some(g), Some(bg)) = (gradient, buf.g) {
            for a in 0..D {
                g[a].copy_from_slice(&bg[a]);
            }
        }
        Ok(())
    }
}

/// The root's name in error paths: its function name.
fn graph_name(g: &Graph) -> &'static str {
    super::call::name_of(g)
}

impl<const D: usize> Field<D> for GraphField<D> {
    fn sample<F: Float>(&self, p: [F; D]) -> Sample<F, D> {
        let mut v = [F::ZERO];
        let mut g = [[F::ZERO]; D];
        let coords: [[F; 1]; D] = core::array::from_fn(|a| [p[a]]);
        let res = {
            let mut it = g.iter_mut();
            let refs: [&mut [F]; D] = core::array::from_fn(|_| &mut it.next().expect("D")[..]);
            self.block(
                Isa::Scalar,
                core::array::from_fn(|a| &coords[a][..]),
                None,
                &mut v,
                Some(refs),
            )
        };
        match res {
            Ok(()) => Sample {
                value: v[0],
                gradient: core::array::from_fn(|a| g[a][0]),
            },
            // Only a user field's own error can get here.
            Err(_) => Sample {
                value: F::NAN,
                gradient: [F::NAN; D],
            },
        }
    }

    fn get<F: Float>(&self, p: [F; D]) -> F {
        let mut v = [F::ZERO];
        let coords: [[F; 1]; D] = core::array::from_fn(|a| [p[a]]);
        match self.block(
            Isa::Scalar,
            core::array::from_fn(|a| &coords[a][..]),
            None,
            &mut v,
            None,
        ) {
            Ok(()) => v[0],
            Err(_) => F::NAN,
        }
    }

    fn range(&self) -> (f64, f64) {
        self.root.range
    }

    fn fill_on<F: Float>(
        &self,
        isa: Isa,
        coords: [&[F]; D],
        out: &mut [F],
        gradient: Option<[&mut [F]; D]>,
    ) -> Result<(), Error> {
        if let Op::Leaf(e) = &self.root.op {
            return e.fill_on(isa, coords, out, gradient);
        }
        crate::field::check_lengths(&coords, out.len(), gradient.as_ref())?;
        if !isa.is_available() {
            return Err(Error::Parameter {
                name: "isa".into(),
                reason: format!("{} is not supported by this CPU", isa.name()),
            });
        }
        run_blocks(out, gradient, |start, out, g| {
            let len = out.len();
            self.block(
                isa,
                core::array::from_fn(|a| &coords[a][start..start + len]),
                None,
                out,
                g,
            )
        })
    }

    fn grid_on<F: Float>(
        &self,
        isa: Isa,
        grid: &Grid<F, D>,
        out: &mut [F],
        gradient: Option<[&mut [F]; D]>,
    ) -> Result<Bounds<F>, Error> {
        if let Op::Leaf(e) = &self.root.op {
            return e.grid_on(isa, grid, out, gradient);
        }
        if !isa.is_available() {
            return Err(Error::Parameter {
                name: "isa".into(),
                reason: format!("{} is not supported by this CPU", isa.name()),
            });
        }
        // Leaves take their stack's grid path block by block; the grid's
        // coordinates are written out only for nodes that read them.
        let points = self.root.reads_points();
        crate::field::grid_by_points(grid, out, gradient, points, |start, coords, out, g| {
            self.block(isa, coords, Some((grid, start)), out, g)
        })
    }
}
