//! The noise-stack loader: arbitrary text as TOML and as JSON.
//!
//! A fuzz target's body, shared by `fuzz/fuzz_targets/config.rs` (libFuzzer)
//! and the CLI's test `fuzz_corpus`, which replays the committed corpus.
//!
//! Invariants: no panic; an accepted stack serialises and reads back in
//! both formats as the same stack, bit for bit (its `Debug` text, which
//! tells -0.0 from 0.0, and the value and gradient bits it evaluates to in
//! f64 and f32 at points in 1D–4D, or the same build error); it builds in
//! 1D–4D (or fails with an error, for a period of the wrong length) and
//! evaluates at NaN and 1e300 without panicking.
use surflet::Stack;
use surflet::dynamic::DynField;

/// Points where read-back stacks must agree with the original: ordinary
/// ones, a lattice point, a large coordinate and a negative zero.
const POINTS: [[f64; 4]; 4] = [
    [0.3, -1.7, 2.25, -0.6],
    [3.0, 0.0, -1.0, 7.0],
    [1234.567, -98.76, 0.5, 1e4],
    [-0.0, 0.125, -3.5, 0.75],
];

/// The value and gradient bits of `stack` built in `dims` dimensions at
/// [`POINTS`], in f64 then f32, or the build error's text. Through
/// [`DynField`], whose kernels the library compiles once for every front
/// end, so that this test compiles none of its own.
fn bits(stack: &Stack, dims: usize) -> Result<Vec<u64>, String> {
    let e = DynField::stack(stack, dims).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for p in POINTS {
        let s = e.sample::<f64>(&p[..dims]);
        out.push(s.value.to_bits());
        out.extend(s.gradient[..dims].iter().map(|g| g.to_bits()));
        let p32 = p.map(|c| c as f32);
        let s = e.sample::<f32>(&p32[..dims]);
        out.push(u64::from(s.value.to_bits()));
        out.extend(s.gradient[..dims].iter().map(|g| u64::from(g.to_bits())));
    }
    Ok(out)
}

/// `back`, read from `text`, is `stack` bit for bit.
fn same(stack: &Stack, back: &Stack, text: &str) {
    assert_eq!(
        format!("{back:?}"),
        format!("{stack:?}"),
        "round trip through:\n{text}"
    );
    assert_eq!(bits(back, 1), bits(stack, 1), "1D after:\n{text}");
    assert_eq!(bits(back, 2), bits(stack, 2), "2D after:\n{text}");
    assert_eq!(bits(back, 3), bits(stack, 3), "3D after:\n{text}");
    assert_eq!(bits(back, 4), bits(stack, 4), "4D after:\n{text}");
}

fn check(stack: Stack) {
    let toml = stack
        .to_toml_string()
        .expect("an accepted stack serialises to TOML");
    let back = Stack::from_toml_str(&toml)
        .unwrap_or_else(|e| panic!("its TOML does not read back: {e}\n{toml}"));
    same(&stack, &back, &toml);
    let json = stack
        .to_json_string()
        .expect("an accepted stack serialises to JSON");
    let back = Stack::from_json_str(&json)
        .unwrap_or_else(|e| panic!("its JSON does not read back: {e}\n{json}"));
    same(&stack, &back, &json);
    if let Ok(e) = DynField::stack(&stack, 2) {
        let _ = e.sample(&[1e300f64, f64::NAN]);
        let _ = e.sample(&[2.5f32, -0.5]);
    }
}

/// One fuzz input: panics when an invariant fails. Returns whether either
/// reader accepted it (the corpus replay counts those).
pub fn run(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    let mut accepted = false;
    if let Ok(stack) = Stack::from_toml_str(text) {
        check(stack);
        accepted = true;
    }
    if let Ok(stack) = Stack::from_json_str(text) {
        check(stack);
        accepted = true;
    }
    accepted
}
