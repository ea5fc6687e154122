//! `displace(x, by=[f₀, f₁, ...])`: `x` evaluated at `p + (f₀(p), f₁(p),
//! ...)`, one field per axis: the general domain warp, with the full
//! Jacobian in the gradient.

use super::moved;
use super::prelude::*;

/// The displace kind.
pub(in crate::graph) struct Displace;

/// A compiled displacement: the displaced node and one field per axis.
#[derive(Clone)]
pub(in crate::graph) struct Displaced<const D: usize> {
    input: Box<Node<D>>,
    by: Vec<Node<D>>,
}

impl Kind for Displace {
    const NAME: &'static str = "displace";
    const PARAMS: &'static [&'static str] = &["input", "by"];
    /// `by` is a list of fields, one per axis.
    const INPUTS: &'static [&'static str] = &["input", "by"];
    const POSITIONAL: usize = 1;
    type Op<const D: usize> = Displaced<D>;

    field_inputs!(Graph::Displace { input, by } => [input] then by);

    fn read(a: &Args<'_>) -> Result<Graph, Bad> {
        let (list, _) = a
            .list("by")?
            .ok_or_else(|| bad(a.at, "displace needs `by`"))?;
        let by = list.iter().map(|i| a.graph(i)).collect::<Result<_, _>>()?;
        Ok(Graph::Displace {
            input: a.field("input")?,
            by,
        })
    }

    fn write(g: &Graph, w: Writer) -> Result<Item, Error> {
        parts!(g, Graph::Displace { input, by });
        let by = by.iter().map(|g| w.graph(g)).collect::<Result<_, _>>()?;
        Ok(w.call::<Self>(vec![("input", w.graph(input)?), ("by", Item::list(by))]))
    }

    fn compile<const D: usize>(g: &Graph, cx: &Cx<'_>) -> Result<(Displaced<D>, Range), Error> {
        parts!(g, Graph::Displace { input, by });
        displaced(input, by, cx)
    }
}

/// `input` displaced by the fields `by`, compiled at `cx` (shared with
/// `distort`, which is a displacement by noise).
pub(super) fn displaced<const D: usize>(
    input: &Graph,
    by: &[Graph],
    cx: &Cx<'_>,
) -> Result<(Displaced<D>, Range), Error> {
    if by.len() != D {
        return Err(cx.bad(format!(
            "displace needs {D} fields (one per axis), not {}",
            by.len()
        )));
    }
    let input = cx.sub(input, "input")?;
    let mut fields = Vec::with_capacity(D);
    for (a, f) in by.iter().enumerate() {
        fields.push(*cx.sub(f, &format!("by[{a}]"))?);
    }
    let range = input.range;
    Ok((Displaced { input, by: fields }, range))
}

impl<const D: usize> Eval<D> for Displaced<D> {
    fn eval<F: Float>(&self, p: Pass, f: &Frame<'_, F, D>) -> Result<Buf<F, D>, Error> {
        let n = p.n;
        let mut q: [Vec<F>; D] = core::array::from_fn(|a| f.q[a].to_vec());
        let mut jac: Option<[[Vec<F>; D]; D]> = p.grad.then(|| {
            core::array::from_fn(|a| {
                core::array::from_fn(|b| match f.jac {
                    Some(j) => j[a][b].clone(),
                    None => vec![if a == b { F::ONE } else { F::ZERO }; n],
                })
            })
        });
        for (a, d) in self.by.iter().enumerate() {
            let d = d.eval(p, f)?;
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
        moved(&self.input, p, &q, jac.as_ref())
    }
    fn reads_points(&self) -> bool {
        true
    }
    #[cfg(feature = "wgsl")]
    fn wgsl(&self, w: &mut Out<D>, jac: bool) -> Result<String, Error> {
        let by: Vec<String> = self
            .by
            .iter()
            .map(|d| d.wgsl(w, jac))
            .collect::<Result<_, _>>()?;
        let input = self.input.wgsl(w, true)?;
        let start = if jac {
            "j".to_string()
        } else {
            kmat(&array_of::<[f64; D], D, _>(|a| {
                array_of(|b| if a == b { 1.0 } else { 0.0 })
            }))
        };
        let mut body = format!("    var q2 = q;\n    var j2 = {start};\n");
        for (a, f) in by.iter().enumerate() {
            let axis = crate::wgsl::AXES[a];
            let d = w.v(&format!("d{a}"));
            body += &format!("    let d{a} = {f}(q, j);\n    q2.{axis} = q2.{axis} + {d};\n");
            for b in 0..D {
                body += &format!(
                    "    j2[{a}][{b}] = j2[{a}][{b}] + {};\n",
                    w.g(&format!("d{a}"), b)
                );
            }
        }
        body += &format!("    return {input}(q2, j2);\n");
        Ok(w.node_fn("displace", &body))
    }
}
