//! The noise kernels on arbitrary bit patterns, including NaN, ±∞,
//! subnormals and coordinates up to f64::MAX.
//!
//! Invariants: no panic (overflow checks are on in this build); NaN or ±∞ in
//! gives NaN out; finite input gives a value in [-1, 1] and a finite
//! gradient; a single point and every instruction set's batch agree bit for
//! bit, in f32 and f64 (NaN payloads excepted: Rust does not specify them).
//!
//! A fuzz target's body, shared by `fuzz/fuzz_targets/kernels.rs` (libFuzzer)
//! and the CLI's test `fuzz_corpus`, which replays the committed corpus.
use arbitrary::{Arbitrary, Unstructured};
use surflet::dynamic::{DynField, GradientOut, Points};
use surflet::{Float, Isa, Noise, NoiseKind};

/// The fuzzer's structured input: a kind and dimension, a seed, an optional
/// period and points as raw bit patterns.
#[derive(Arbitrary, Debug)]
pub struct Input {
    kind: u8,
    seed: u64,
    period: Option<[u16; 4]>,
    points: Vec<[u64; 4]>,
}

/// The same bits, or both NaN.
fn same<F: Float>(a: F, b: F) -> bool {
    let (a, b) = (a.to_f64(), b.to_f64());
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

fn check<F: Float, const D: usize>(noise: &Noise<D>, batch: &DynField, points: &[[F; D]]) {
    let mut batch_in: Vec<Vec<F>> = vec![Vec::new(); D];
    for p in points {
        let s = noise.sample(*p);
        assert!(same(s.value, noise.get(*p)), "{noise:?} at {p:?}");
        if p.iter().all(|c| c.to_f64().is_finite()) {
            assert!(
                s.value.to_f64().abs() <= 1.0,
                "{noise:?} at {p:?}: {:?}",
                s.value
            );
            assert!(
                s.gradient.iter().all(|g| g.to_f64().is_finite()),
                "{noise:?} at {p:?}"
            );
        } else {
            assert!(
                s.value.to_f64().is_nan(),
                "{noise:?} at {p:?}: {:?}",
                s.value
            );
        }
        for a in 0..D {
            batch_in[a].push(p[a]);
        }
    }
    let coords: Vec<&[F]> = batch_in.iter().map(|v| &v[..]).collect();
    for isa in Isa::available() {
        let mut out = vec![F::from_f64(0.0); points.len()];
        let mut grad: Vec<Vec<F>> = vec![vec![F::from_f64(0.0); points.len()]; D];
        let g = GradientOut::Axes(grad.iter_mut().map(|v| &mut v[..]).collect());
        batch
            .fill_on(isa, Points::Axes(&coords), &mut out, Some(g))
            .unwrap();
        for (i, p) in points.iter().enumerate() {
            let s = noise.sample(*p);
            assert!(same(out[i], s.value), "{isa:?} {noise:?} at {p:?}");
            for (g, want) in grad.iter().zip(s.gradient) {
                assert!(same(g[i], want), "{isa:?} {noise:?} at {p:?}");
            }
        }
    }
}

fn run_dim<const D: usize>(input: &Input, kind: NoiseKind) {
    let mut noise = Noise::<D>::new(kind, input.seed);
    let mut period = None;
    if let Some(p) = input.period {
        let p: [u32; D] = std::array::from_fn(|a| u32::from(p[a]));
        // Out-of-range or unsupported periods must be errors, not panics.
        if let Ok(n) = noise.with_period(p) {
            noise = n;
            period = Some(p);
        }
    }
    // The batches through the front ends' erasure of the same noise (the
    // library compiles its kernels once, for every front end: instantiating
    // them here again would double this test's build).
    let batch = DynField::noise(kind, input.seed, period.as_ref().map(|p| &p[..]), None, D)
        .expect("the period the typed noise took");
    let f64s: Vec<[f64; D]> = input
        .points
        .iter()
        .map(|p| std::array::from_fn(|a| f64::from_bits(p[a])))
        .collect();
    check(&noise, &batch, &f64s);
    let f32s: Vec<[f32; D]> = input
        .points
        .iter()
        .map(|p| std::array::from_fn(|a| f32::from_bits(p[a] as u32)))
        .collect();
    check(&noise, &batch, &f32s);
}

/// One fuzz input as libFuzzer's bytes, read the way `fuzz_target!` reads a
/// typed input (too short for `Input`'s size hint, or no `Input` by
/// `arbitrary_take_rest`: skipped, as the fuzzer skips it).
#[allow(dead_code)] // the libFuzzer binary takes `Input` directly
pub fn run(data: &[u8]) -> bool {
    if data.len() < Input::size_hint(0).0 {
        return false;
    }
    match Input::arbitrary_take_rest(Unstructured::new(data)) {
        Ok(input) => {
            check_input(&input);
            true
        }
        Err(_) => false,
    }
}

/// One structured input: panics when an invariant fails.
pub fn check_input(input: &Input) {
    let kind = NoiseKind::ALL[input.kind as usize % NoiseKind::ALL.len()];
    match (input.kind / 8) % 4 {
        0 => run_dim::<1>(input, kind),
        1 => run_dim::<2>(input, kind),
        2 => run_dim::<3>(input, kind),
        _ => run_dim::<4>(input, kind),
    }
}
