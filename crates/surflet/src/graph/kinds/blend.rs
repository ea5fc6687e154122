//! `blend(a, b, control=c)`: `a + (b − a)·t` with `t = (c + 1)/2`, so
//! `c = −1` gives `a` and `c = 1` gives `b` (libnoise's blend).

use super::mul_range;
use super::prelude::*;

/// The blend kind.
pub(in crate::graph) struct Blend;

/// A compiled blend.
#[derive(Clone)]
pub(in crate::graph) struct Blended<const D: usize> {
    a: Box<Node<D>>,
    b: Box<Node<D>>,
    c: Box<Node<D>>,
}

impl Kind for Blend {
    const NAME: &'static str = "blend";
    const PARAMS: &'static [&'static str] = &["a", "b", "control"];
    const INPUTS: &'static [&'static str] = &["a", "b", "control"];
    const POSITIONAL: usize = 2;
    type Op<const D: usize> = Blended<D>;

    field_inputs!(Graph::Blend { a, b, control } => [a, b, control]);

    fn read(a: &Args<'_>) -> Result<Graph, Bad> {
        Ok(Graph::Blend {
            a: a.field("a")?,
            b: a.field("b")?,
            control: a.field("control")?,
        })
    }

    fn write(g: &Graph, w: Writer) -> Result<Item, Error> {
        parts!(g, Graph::Blend { a, b, control });
        Ok(w.call::<Self>(vec![
            ("a", w.graph(a)?),
            ("b", w.graph(b)?),
            ("control", w.graph(control)?),
        ]))
    }

    fn compile<const D: usize>(g: &Graph, cx: &Cx<'_>) -> Result<(Blended<D>, Range), Error> {
        parts!(g, Graph::Blend { a, b, control });
        let (a, b, c) = (
            cx.sub(a, "a")?,
            cx.sub(b, "b")?,
            cx.sub(control, "control")?,
        );
        let t = ((c.range.0 + 1.0) * 0.5, (c.range.1 + 1.0) * 0.5);
        let r = if t.0 >= 0.0 && t.1 <= 1.0 {
            hull(a.range, b.range)
        } else {
            let diff = (b.range.0 - a.range.1, b.range.1 - a.range.0);
            let m = mul_range(diff, t);
            (a.range.0 + m.0, a.range.1 + m.1)
        };
        Ok((Blended { a, b, c }, widen(r)))
    }
}

impl<const D: usize> Eval<D> for Blended<D> {
    fn eval<F: Float>(&self, p: Pass, f: &Frame<'_, F, D>) -> Result<Buf<F, D>, Error> {
        let mut x = self.a.eval(p, f)?;
        let y = self.b.eval(p, f)?;
        let k = self.c.eval(p, f)?;
        let half = F::from_f64(0.5);
        for i in 0..p.n {
            let (p, q) = (x.v[i], y.v[i]);
            let t = (k.v[i] + F::ONE) * half;
            let diff = q - p;
            x.v[i] = p + diff * t;
            if let (Some(gx), Some(gy), Some(gk)) = (&mut x.g, &y.g, &k.g) {
                for a in 0..D {
                    gx[a][i] = gx[a][i] + (gy[a][i] - gx[a][i]) * t + diff * half * gk[a][i];
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
        let (read, grad) = mix_wgsl(w, jac, inputs, "t", "0.5f")?;
        let (x, y, kk) = (w.v("x"), w.v("y"), w.v("kk"));
        let body = format!(
            "{read}    let t = ({kk} + 1.0f) * 0.5f;\n    let diff = {y} - {x};\n    return {};\n",
            w.ret(&format!("{x} + surflet_p(diff * t)"), &grad)
        );
        Ok(w.node_fn("blend", &body))
    }
}
