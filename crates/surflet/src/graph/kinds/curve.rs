//! `curve(x, points=[[x0, y0], [x1, y1], ...])`: the monotone cubic
//! (Fritsch–Carlson) through the control points, which never overshoots
//! them. Outside the points, the nearest end point with gradient 0.

use super::prelude::*;
use super::{at_clamped, segment};
use crate::graph::call::{Val, number};

/// The curve kind.
pub(in crate::graph) struct Curve;

/// A compiled curve: control xs, ys and the monotone slopes at them.
#[derive(Clone)]
pub(in crate::graph) struct CurveMap(Vec<f64>, Vec<f64>, Vec<f64>);

impl Kind for Curve {
    const NAME: &'static str = "curve";
    const PARAMS: &'static [&'static str] = &["input", "points"];
    const POSITIONAL: usize = 1;
    type Op<const D: usize> = Mapped<CurveMap, D>;

    field_inputs!(Graph::Curve { input, .. } => [input]);

    fn read(a: &Args<'_>) -> Result<Graph, Bad> {
        let (list, _) = a
            .list("points")?
            .ok_or_else(|| bad(a.at, "curve needs `points`"))?;
        let mut points = Vec::with_capacity(list.len());
        for i in list {
            let pair = match &i.val {
                Val::List(xy) if xy.len() == 2 => xy,
                _ => return Err(bad(&i.at, "a curve point is a pair [x, y]")),
            };
            points.push([
                number(&pair[0], a.name, "points")?,
                number(&pair[1], a.name, "points")?,
            ]);
        }
        Ok(Graph::Curve {
            input: a.field("input")?,
            points,
        })
    }

    fn write(g: &Graph, w: Writer) -> Result<Item, Error> {
        parts!(g, Graph::Curve { input, points });
        let points = Item::list(points.iter().map(|p| nums(p)).collect());
        Ok(w.call::<Self>(vec![("input", w.graph(input)?), ("points", points)]))
    }

    fn compile<const D: usize>(
        g: &Graph,
        cx: &Cx<'_>,
    ) -> Result<(Mapped<CurveMap, D>, Range), Error> {
        parts!(g, Graph::Curve { input, points });
        if points.len() < 2 {
            return Err(cx.bad("curve needs at least two points"));
        }
        for p in points {
            cx.finite("a point", p[0])?;
            cx.finite("a point", p[1])?;
        }
        if points.windows(2).any(|w| w[0][0] >= w[1][0]) {
            return Err(cx.bad("curve points' x must be strictly increasing"));
        }
        let xs: Vec<f64> = points.iter().map(|p| p[0]).collect();
        let ys: Vec<f64> = points.iter().map(|p| p[1]).collect();
        let ms = pchip_slopes(&xs, &ys);
        for &m in &ms {
            cx.finite("a slope", m)?;
        }
        cx.map(CurveMap(xs, ys, ms), input)
    }
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

impl Pointwise for CurveMap {
    #[cfg(feature = "wgsl")]
    fn wgsl(&self) -> Result<String, Error> {
        let CurveMap(xs, ys, ms) = self;
        let arrays: [(&str, &[f64]); 3] = [("xs", xs), ("ys", ys), ("ms", ms)];
        let mut s = crate::graph::wgsl::piecewise(&arrays, (ys[0], ys[ys.len() - 1]));
        s += "    let x0 = xs[k - 1u];\n    let x1 = xs[k];\n    let h = x1 - x0;\n    \
              let t = surflet_div(x - x0, h);\n    let y0 = ys[k - 1u];\n    let y1 = ys[k];\n    \
              let m0 = ms[k - 1u] * h;\n    let m1 = ms[k] * h;\n    let u = 1.0f - t;\n    \
              let h00 = (((1.0f + t) + t) * u) * u;\n    let h10 = (t * u) * u;\n    \
              let h01 = (t * t) * ((3.0f - t) - t);\n    let h11 = (t * t) * (t - 1.0f);\n    \
              let v = ((surflet_p(h00 * y0) + surflet_p(h10 * m0)) + surflet_p(h01 * y1)) + surflet_p(h11 * m1);\n    \
              let six = (6.0f * t) * (t - 1.0f);\n    \
              let d10 = surflet_p((surflet_p(3.0f * t) - 4.0f) * t) + 1.0f;\n    \
              let d11 = (surflet_p(3.0f * t) - 2.0f) * t;\n    \
              let dv = surflet_div(((surflet_p(six * y0) + surflet_p(d10 * m0)) - surflet_p(six * y1)) + surflet_p(d11 * m1), h);\n    \
              return vec2<f32>(v, dv);\n";
        Ok(s)
    }
    #[inline(always)]
    fn apply<F: Float>(&self, x: F) -> (F, F) {
        let c = F::from_f64;
        let CurveMap(xs, ys, ms) = self;
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

    // Monotone by piece between control points, so the extremes are at the
    // ends or at control points.
    fn image(&self, (lo, hi): Range) -> Range {
        let xs = &self.0;
        let mut out = (at_clamped(self, lo, xs), at_clamped(self, hi, xs));
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
