//! `terrace(x, points=[...], smooth=false)`: between control points
//! `pᵢ < pᵢ₊₁` the value is `pᵢ + (pᵢ₊₁ − pᵢ)·f(t)` with `t` the position in
//! the segment; hard terraces use libnoise's `f(t) = t²`, smoothed ones the
//! quintic fade. Outside the points, the nearest end point with gradient 0.

use super::prelude::*;
use super::{at_clamped, segment};

/// The terrace kind.
pub(in crate::graph) struct Terrace;

/// A compiled terrace: its control points and whether it is smoothed.
#[derive(Clone)]
pub(in crate::graph) struct TerraceMap(Vec<f64>, bool);

impl Kind for Terrace {
    const NAME: &'static str = "terrace";
    const PARAMS: &'static [&'static str] = &["input", "points", "smooth"];
    const POSITIONAL: usize = 1;
    type Op<const D: usize> = Mapped<TerraceMap, D>;

    field_inputs!(Graph::Terrace { input, .. } => [input]);

    fn read(a: &Args<'_>) -> Result<Graph, Bad> {
        Ok(Graph::Terrace {
            input: a.field("input")?,
            points: a
                .numbers("points")?
                .ok_or_else(|| bad(a.at, "terrace needs `points`"))?,
            smooth: a.flag("smooth")?.unwrap_or(false),
        })
    }

    fn write(g: &Graph, w: Writer) -> Result<Item, Error> {
        parts!(
            g,
            Graph::Terrace {
                input,
                points,
                smooth
            }
        );
        let mut args = vec![("input", w.graph(input)?), ("points", nums(points))];
        if *smooth {
            args.push(("smooth", Item::word("true")));
        }
        Ok(w.call::<Self>(args))
    }

    fn compile<const D: usize>(
        g: &Graph,
        cx: &Cx<'_>,
    ) -> Result<(Mapped<TerraceMap, D>, Range), Error> {
        parts!(
            g,
            Graph::Terrace {
                input,
                points,
                smooth
            }
        );
        if points.len() < 2 {
            return Err(cx.bad("terrace needs at least two points"));
        }
        for w in points.windows(2) {
            if cx.finite("a point", w[0])? >= cx.finite("a point", w[1])? {
                return Err(cx.bad("terrace points must be strictly increasing"));
            }
        }
        cx.map(TerraceMap(points.clone(), *smooth), input)
    }
}

impl Pointwise for TerraceMap {
    #[cfg(feature = "wgsl")]
    fn wgsl(&self) -> Result<String, Error> {
        let p = &self.0;
        let n = p.len();
        let mut s = crate::graph::wgsl::piecewise(&[("xs", p)], (p[0], p[n - 1]));
        s += "    let p0 = xs[k - 1u];\n    let p1 = xs[k];\n    let t = surflet_div(x - p0, p1 - p0);\n";
        s += if self.1 {
            // The value is the kernels' fade, the same operations.
            "    let f = surflet_fade(t).x;\n    \
             let df = (t * t) * (surflet_p(t * (surflet_p(t * 30.0f) - 60.0f)) + 30.0f);\n"
        } else {
            "    let f = t * t;\n    let df = t + t;\n"
        };
        s += "    return vec2<f32>(p0 + surflet_p((p1 - p0) * f), df);\n";
        Ok(s)
    }
    #[inline(always)]
    fn apply<F: Float>(&self, x: F) -> (F, F) {
        let c = F::from_f64;
        let p = &self.0;
        if x.is_nan() {
            return (x, x);
        }
        let Some(k) = segment(p, x) else {
            let end = if x < c(p[0]) { p[0] } else { p[p.len() - 1] };
            return (c(end), F::ZERO);
        };
        let (p0, p1) = (c(p[k]), c(p[k + 1]));
        let t = (x - p0) / (p1 - p0);
        let (f, df) = if self.1 {
            let f = t * t * t * (t * (t * c(6.0) - c(15.0)) + c(10.0));
            let df = t * t * (t * (t * c(30.0) - c(60.0)) + c(30.0));
            (f, df)
        } else {
            (t * t, t + t)
        };
        (p0 + (p1 - p0) * f, df)
    }

    // Non-decreasing, so the extremes are at the ends.
    fn image(&self, (lo, hi): Range) -> Range {
        (at_clamped(self, lo, &self.0), at_clamped(self, hi, &self.0))
    }
}
