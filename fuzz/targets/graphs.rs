//! What the graph targets (`expr`, `graph`, `document`) check of every graph
//! they accept: each spelling prints, reads back to the same graph number
//! for number, prints again to the same text, and evaluates to the same
//! bits.
use surflet::Graph;
use surflet::dynamic::DynField;

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
    // Through `DynField`, whose kernels the library compiles once for every
    // front end, so that this test compiles none of its own.
    for d in 1..=3 {
        match (DynField::graph(a, d), DynField::graph(b, d)) {
            (Ok(fa), Ok(fb)) => {
                for p in [0.37f64, -1.25e7, f64::NAN] {
                    let p: Vec<f64> = (0..d).map(|k| p + k as f64 * 0.71).collect();
                    let (sa, sb) = (fa.sample(&p), fb.sample(&p));
                    assert_eq!(
                        sa.value.to_bits(),
                        sb.value.to_bits(),
                        "{d}D value at {p:?}"
                    );
                    for k in 0..d {
                        assert_eq!(
                            sa.gradient[k].to_bits(),
                            sb.gradient[k].to_bits(),
                            "{d}D gradient {k} at {p:?}"
                        );
                    }
                }
                let q: Vec<f32> = (0..d).map(|k| 2.5 - k as f32).collect();
                let (va, vb) = (fa.sample(&q).value, fb.sample(&q).value);
                assert_eq!(va.to_bits(), vb.to_bits(), "{d}D f32");
            }
            (Err(ea), Err(eb)) => assert_eq!(ea.to_string(), eb.to_string(), "{d}D errors"),
            (ra, rb) => panic!(
                "{d}D: one builds, the other does not: {:?} / {:?}",
                ra.err().map(|e| e.to_string()),
                rb.err().map(|e| e.to_string())
            ),
        }
    }
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
