//! `select(a, b, control=c, threshold=t, falloff=f)`: `a` where `c < t − f`,
//! `b` where `c ≥ t + f`, and between them a blend by the cubic smoothstep
//! of `(c − t + f) / 2f` (libnoise's falloff).

use super::prelude::*;

/// The select kind.
pub(in crate::graph) struct Select;

/// A compiled select.
#[derive(Clone)]
pub(in crate::graph) struct Selected<const D: usize> {
    a: Box<Node<D>>,
    b: Box<Node<D>>,
    c: Box<Node<D>>,
    threshold: f64,
    falloff: f64,
}

impl Kind for Select {
    const NAME: &'static str = "select";
    const PARAMS: &'static [&'static str] = &["a", "b", "control", "threshold", "falloff"];
    const INPUTS: &'static [&'static str] = &["a", "b", "control"];
    const POSITIONAL: usize = 2;
    type Op<const D: usize> = Selected<D>;

    field_inputs!(Graph::Select { a, b, control, .. } => [a, b, control]);

    fn read(a: &Args<'_>) -> Result<Graph, Bad> {
        Ok(Graph::Select {
            a: a.field("a")?,
            b: a.field("b")?,
            control: a.field("control")?,
            threshold: a.num_or("threshold", 0.0)?,
            falloff: a.num_or("falloff", 0.0)?,
        })
    }

    fn write(g: &Graph, w: Writer) -> Result<Item, Error> {
        parts!(
            g,
            Graph::Select {
                a,
                b,
                control,
                threshold,
                falloff,
            }
        );
        Ok(w.call::<Self>(vec![
            ("a", w.graph(a)?),
            ("b", w.graph(b)?),
            ("control", w.graph(control)?),
            ("threshold", Item::num(*threshold)),
            ("falloff", Item::num(*falloff)),
        ]))
    }

    fn compile<const D: usize>(g: &Graph, cx: &Cx<'_>) -> Result<(Selected<D>, Range), Error> {
        parts!(
            g,
            Graph::Select {
                a,
                b,
                control,
                threshold,
                falloff,
            }
        );
        let threshold = cx.finite("threshold", *threshold)?;
        let falloff = cx.finite("falloff", *falloff)?;
        if falloff < 0.0 {
            return Err(cx.bad(format!("falloff must be ≥ 0, not {falloff}")));
        }
        let (a, b, c) = (
            cx.sub(a, "a")?,
            cx.sub(b, "b")?,
            cx.sub(control, "control")?,
        );
        let range = widen(hull(a.range, b.range));
        let s = Selected {
            a,
            b,
            c,
            threshold,
            falloff,
        };
        Ok((s, range))
    }
}

impl<const D: usize> Eval<D> for Selected<D> {
    fn eval<F: Float>(&self, p: Pass, f: &Frame<'_, F, D>) -> Result<Buf<F, D>, Error> {
        let c = F::from_f64;
        let mut x = self.a.eval(p, f)?;
        let y = self.b.eval(p, f)?;
        let k = self.c.eval(p, f)?;
        let (lo, hi) = (
            c(self.threshold - self.falloff),
            c(self.threshold + self.falloff),
        );
        let width = c(2.0 * self.falloff);
        for i in 0..p.n {
            let (p, q, t) = (x.v[i], y.v[i], k.v[i]);
            if t.is_nan() {
                x.v[i] = t;
                if let Some(g) = &mut x.g {
                    for ga in g.iter_mut() {
                        ga[i] = t;
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
                        gx[a][i] = gx[a][i] + (gy[a][i] - gx[a][i]) * s + diff * ds * gk[a][i];
                    }
                }
            }
        }
        Ok(x)
    }

    fn reads_points(&self) -> bool {
        self.a.reads_points() || self.b.reads_points() || self.c.reads_points()
    }
    #[cfg(feature = "wgsl")]
    fn wgsl(&self, w: &mut Out<D>, jac: bool) -> Result<String, Error> {
        let inputs = [&*self.a, &*self.b, &*self.c];
        let (read, grad) = mix_wgsl(w, jac, inputs, "s", "ds")?;
        let (lo, hi) = (
            k(self.threshold - self.falloff),
            k(self.threshold + self.falloff),
        );
        let width = k(2.0 * self.falloff);
        let (x, y, kk) = (w.v("x"), w.v("y"), w.v("kk"));
        let nan = w.ret("t", &vec!["t"; D].join(", "));
        let mixed = w.ret(&format!("{x} + surflet_p(diff * s)"), &grad);
        let body = format!(
            "{read}    let t = {kk};\n    let lo = {lo};\n    let hi = {hi};\n    let width = {width};\n    \
             if (surflet_is_nan(t)) {{\n        return {nan};\n    }}\n    \
             if (t < lo) {{\n        return x;\n    }}\n    \
             if (t >= hi) {{\n        return y;\n    }}\n    \
             let u = surflet_div(t - lo, width);\n    let s = (u * u) * ((3.0f - u) - u);\n    \
             let ds = surflet_div((6.0f * u) * (1.0f - u), width);\n    let diff = {y} - {x};\n    \
             return {mixed};\n"
        );
        Ok(w.node_fn("select", &body))
    }
}
