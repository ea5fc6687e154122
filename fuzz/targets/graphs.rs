//! What the graph targets (`expr`, `graph`, `document`) check of every graph
//! they accept: each spelling prints, reads back to the same graph number
//! for number, prints again to the same text, and evaluates to the same
//! bits.
use surflet::{Field, Graph};

/// The graph as text that tells every number apart by its bits: `Debug`
/// writes each `f64` as the shortest decimal that reads back to the same
/// bits, `-0.0` included (the readers accept no NaN), so two keys are equal
/// exactly when the graphs are, bit for bit; the derived `PartialEq` calls
/// `-0.0` and `0.0` equal.
pub fn key(g: &Graph) -> String {
    format!("{g:?}")
}

/// `a` and `b` built in 1D–3D: the same value and gradient bits at a few
/// points (an ordinary one, a huge one, NaN), or the same build error.
pub fn evaluate_alike(a: &Graph, b: &Graph) {
    fn dims<const D: usize>(a: &Graph, b: &Graph) {
        match (a.build::<D>(), b.build::<D>()) {
            (Ok(fa), Ok(fb)) => {
                for p in [0.37f64, -1.25e7, f64::NAN] {
                    let p: [f64; D] = core::array::from_fn(|k| p + k as f64 * 0.71);
                    let (sa, sb) = (fa.sample(p), fb.sample(p));
                    assert_eq!(
                        sa.value.to_bits(),
                        sb.value.to_bits(),
                        "{D}D value at {p:?}"
                    );
                    for k in 0..D {
                        assert_eq!(
                            sa.gradient[k].to_bits(),
                            sb.gradient[k].to_bits(),
                            "{D}D gradient {k} at {p:?}"
                        );
                    }
                }
                let q: [f32; D] = core::array::from_fn(|k| 2.5 - k as f32);
                assert_eq!(fa.get(q).to_bits(), fb.get(q).to_bits(), "{D}D f32");
            }
            (Err(ea), Err(eb)) => assert_eq!(ea.to_string(), eb.to_string(), "{D}D errors"),
            (ra, rb) => panic!(
                "{D}D: one builds, the other does not: {:?} / {:?}",
                ra.err().map(|e| e.to_string()),
                rb.err().map(|e| e.to_string())
            ),
        }
    }
    dims::<1>(a, b);
    dims::<2>(a, b);
    dims::<3>(a, b);
}

/// Every spelling of an accepted graph round-trips: the expression, JSON
/// and TOML (a constant has no TOML form) each read back to the same graph,
/// bit for bit, print again to the same text (print → parse → print is a
/// fixed point), and evaluate to the same bits.
pub fn round_trips(g: &Graph) {
    let want = key(g);
    let text = g.to_expr().expect("a graph read from text prints");
    let back = Graph::parse(&text).unwrap_or_else(|e| panic!("{text}\n{e}"));
    assert_eq!(key(&back), want, "expression: {text}");
    assert_eq!(back.to_expr().unwrap(), text, "expression fixed point");
    evaluate_alike(g, &back);
    let json = g
        .to_json_string()
        .expect("a graph read from text writes JSON");
    let back = Graph::from_json_str(&json).unwrap_or_else(|e| panic!("{json}\n{e}"));
    assert_eq!(key(&back), want, "JSON: {json}");
    assert_eq!(back.to_json_string().unwrap(), json, "JSON fixed point");
    if !matches!(g, Graph::Const(_)) {
        let toml = g
            .to_toml_string()
            .expect("a graph read from text writes TOML");
        let back = Graph::from_toml_str(&toml).unwrap_or_else(|e| panic!("{toml}\n{e}"));
        assert_eq!(key(&back), want, "TOML: {toml}");
        assert_eq!(back.to_toml_string().unwrap(), toml, "TOML fixed point");
    }
}
