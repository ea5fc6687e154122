//! `remap(x, from=[a, b], to=[c, d])`: the affine map taking `a` to `c` and
//! `b` to `d`, computed as `(x − a) · k + c` with `k = (d − c)/(b − a)`.

use super::prelude::*;

/// The remap kind.
pub(in crate::graph) struct Remap;

/// A compiled remap: `(x − a)·k + c`.
#[derive(Clone)]
pub(in crate::graph) struct RemapMap(f64, f64, f64);

impl Kind for Remap {
    const NAME: &'static str = "remap";
    const PARAMS: &'static [&'static str] = &["input", "from", "to"];
    const POSITIONAL: usize = 1;
    type Op<const D: usize> = Mapped<RemapMap, D>;

    field_inputs!(Graph::Remap { input, .. } => [input]);

    fn read(a: &Args<'_>) -> Result<Graph, Bad> {
        let two = |p: &str| -> Result<[f64; 2], Bad> {
            let v = a
                .numbers(p)?
                .ok_or_else(|| bad(a.at, format!("remap needs `{p}`")))?;
            v.try_into().map_err(|_| {
                bad(
                    a.need(p).map(|i| &i.at).unwrap_or(a.at),
                    format!("remap's `{p}` is two numbers [lo, hi]"),
                )
            })
        };
        Ok(Graph::Remap {
            input: a.field("input")?,
            from: two("from")?,
            to: two("to")?,
        })
    }

    fn write(g: &Graph, w: Writer) -> Result<Item, Error> {
        parts!(g, Graph::Remap { input, from, to });
        Ok(w.call::<Self>(vec![
            ("input", w.graph(input)?),
            ("from", nums(from)),
            ("to", nums(to)),
        ]))
    }

    fn compile<const D: usize>(
        g: &Graph,
        cx: &Cx<'_>,
    ) -> Result<(Mapped<RemapMap, D>, Range), Error> {
        parts!(g, Graph::Remap { input, from, to });
        for v in from.iter().chain(to) {
            cx.finite("remap's bounds", *v)?;
        }
        if from[0] == from[1] {
            return Err(cx.bad("from's two values must differ"));
        }
        let k = (to[1] - to[0]) / (from[1] - from[0]);
        let m = RemapMap(from[0], cx.finite("the slope", k)?, to[0]);
        cx.map(m, input)
    }
}

impl Pointwise for RemapMap {
    #[cfg(feature = "wgsl")]
    fn wgsl(&self) -> Result<String, Error> {
        let (a, kk, b) = (k(self.0), k(self.1), k(self.2));
        Ok(format!(
            "    return vec2<f32>(surflet_p((x - {a}) * {kk}) + {b}, {kk});\n"
        ))
    }
    #[inline(always)]
    fn apply<F: Float>(&self, x: F) -> (F, F) {
        let c = F::from_f64;
        let (a, k, b) = (c(self.0), c(self.1), c(self.2));
        ((x - a) * k + b, k)
    }
    fn image(&self, (lo, hi): Range) -> Range {
        let RemapMap(a, k, b) = *self;
        let (x, y) = ((lo - a) * k + b, (hi - a) * k + b);
        (x.min(y), x.max(y))
    }
}
