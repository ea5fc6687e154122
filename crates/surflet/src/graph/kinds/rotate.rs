//! `rotate(x, angle=θ)`: `x` evaluated at `p` turned by `θ` radians in the
//! xy plane; `rotate(x, matrix=[[...], ...])`: at `M·p` for any `D × D`
//! matrix.

use super::moved;
use super::prelude::*;
use crate::graph::ast::Rotation;
use crate::graph::call::{Val, number};

/// The rotate kind.
pub(in crate::graph) struct Rotate;

/// A compiled linear map of the points: `q[r] = Σ m[r][c]·p[c]`.
#[derive(Clone)]
pub(in crate::graph) struct Linear<const D: usize> {
    m: [[f64; D]; D],
    input: Box<Node<D>>,
}

impl Kind for Rotate {
    const NAME: &'static str = "rotate";
    const PARAMS: &'static [&'static str] = &["input", "angle", "matrix"];
    const POSITIONAL: usize = 1;
    type Op<const D: usize> = Linear<D>;

    field_inputs!(Graph::Rotate { input, .. } => [input]);

    fn read(a: &Args<'_>) -> Result<Graph, Bad> {
        let by = match (a.num("angle")?, a.list("matrix")?) {
            (Some(t), None) => Rotation::Angle(t),
            (None, Some((rows, _))) => {
                let mut m = Vec::new();
                for r in rows {
                    let Val::List(row) = &r.val else {
                        return Err(bad(&r.at, "a matrix is a list of rows [[...], ...]"));
                    };
                    m.push(
                        row.iter()
                            .map(|i| number(i, a.name, "matrix"))
                            .collect::<Result<_, _>>()?,
                    );
                }
                Rotation::Matrix(m)
            }
            _ => return Err(bad(a.at, "rotate needs either `angle` or `matrix`")),
        };
        Ok(Graph::Rotate {
            input: a.field("input")?,
            by,
        })
    }

    fn write(g: &Graph, w: Writer) -> Result<Item, Error> {
        parts!(g, Graph::Rotate { input, by });
        let arg = match by {
            Rotation::Angle(t) => ("angle", Item::num(*t)),
            Rotation::Matrix(m) => ("matrix", Item::list(m.iter().map(|r| nums(r)).collect())),
        };
        Ok(w.call::<Self>(vec![("input", w.graph(input)?), arg]))
    }

    fn compile<const D: usize>(g: &Graph, cx: &Cx<'_>) -> Result<(Linear<D>, Range), Error> {
        parts!(g, Graph::Rotate { input, by });
        let m = match by {
            Rotation::Angle(t) => turn(cx, *t)?,
            Rotation::Matrix(rows) => matrix(cx, rows)?,
        };
        let input = cx.sub(input, "input")?;
        let range = input.range;
        Ok((Linear { m, input }, range))
    }
}

/// The turn by `t` radians in the xy plane.
fn turn<const D: usize>(cx: &Cx<'_>, t: f64) -> Result<[[f64; D]; D], Error> {
    let t = cx.finite("angle", t)?;
    if D < 2 {
        return Err(cx.bad("an angle turns the xy plane: it needs 2+ dimensions"));
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
    Ok(m)
}

/// A `D × D` matrix of finite entries.
fn matrix<const D: usize>(cx: &Cx<'_>, rows: &[Vec<f64>]) -> Result<[[f64; D]; D], Error> {
    if rows.len() != D || rows.iter().any(|r| r.len() != D) {
        return Err(cx.bad(format!("the matrix must be {D} × {D}")));
    }
    let mut m = [[0.0; D]; D];
    for a in 0..D {
        for b in 0..D {
            m[a][b] = cx.finite("a matrix entry", rows[a][b])?;
        }
    }
    Ok(m)
}

impl<const D: usize> Eval<D> for Linear<D> {
    fn eval<F: Float>(&self, p: Pass, f: &Frame<'_, F, D>) -> Result<Buf<F, D>, Error> {
        let c = F::from_f64;
        let m = &self.m;
        let q: [Vec<F>; D] = core::array::from_fn(|r| {
            (0..p.n)
                .map(|i| {
                    let mut acc = c(m[r][0]) * f.q[0][i];
                    for k in 1..D {
                        acc = acc + c(m[r][k]) * f.q[k][i];
                    }
                    acc
                })
                .collect()
        });
        // The new Jacobian: `M · J`.
        let jac: Option<[[Vec<F>; D]; D]> = p.grad.then(|| {
            core::array::from_fn(|r| {
                core::array::from_fn(|b| match f.jac {
                    None => vec![c(m[r][b]); p.n],
                    Some(j) => (0..p.n)
                        .map(|i| {
                            let mut acc = c(m[r][0]) * j[0][b][i];
                            for k in 1..D {
                                acc = acc + c(m[r][k]) * j[k][b][i];
                            }
                            acc
                        })
                        .collect(),
                })
            })
        });
        moved(&self.input, p, &q, jac.as_ref())
    }
    fn reads_points(&self) -> bool {
        true
    }
    #[cfg(feature = "wgsl")]
    fn wgsl(&self, w: &mut Out<D>, jac: bool) -> Result<String, Error> {
        let input = self.input.wgsl(w, true)?;
        let m = &self.m;
        // Row r of M times the column vector v(k): Σ m[r][k]·v(k), from k = 0.
        let dot = |r: usize, v: &dyn Fn(usize) -> String| {
            (0..D)
                .map(|kk| format!("surflet_p({} * {})", k(m[r][kk]), v(kk)))
                .collect::<Vec<_>>()
                .join(" + ")
        };
        let q2: Vec<String> = (0..D)
            .map(|r| dot(r, &|kk| format!("q.{}", crate::wgsl::AXES[kk])))
            .collect();
        let vt = w.vt();
        let j2 = if jac {
            // `M · J`, entry by entry.
            let rows: Vec<String> = (0..D)
                .map(|r| {
                    let entries: Vec<String> = (0..D)
                        .map(|b| dot(r, &|kk| format!("j[{kk}][{b}]")))
                        .collect();
                    format!("{vt}({})", entries.join(", "))
                })
                .collect();
            format!("{}({})", w.mt(), rows.join(", "))
        } else {
            kmat(m)
        };
        let body = format!("    return {input}({vt}({}), {j2});\n", q2.join(", "));
        Ok(w.node_fn("rotate", &body))
    }
}
