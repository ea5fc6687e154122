//! Batch calls reject bad arguments before writing anything (docs/BAD-INPUT.md,
//! "Library: parameters"): slices of different lengths give `Error::Length`
//! naming the slice, and an instruction set the CPU lacks gives
//! `Error::Parameter { name: "isa" }`. Every output slice is left untouched.
//!
//! The instruction-set error needs a CPU that lacks one of the instruction
//! sets. Where the CPU has them all (AVX-512 machines), the test runs itself
//! once more under valgrind, whose emulated CPU has AVX2 but no AVX-512: the
//! library's own runtime detection then reports AVX-512 missing and the error
//! path runs for real.

use surflet::Field;
use surflet::{
    Curl, Error, Fractal, FractalDesc, FractalKind, FractalParams, Isa, Noise, NoiseKind, Stack,
    WarpDesc,
};

/// A value no evaluation writes: outputs must still hold it after an error.
const UNTOUCHED: f64 = 12345.0;

/// Every instruction set the library knows (`Isa` is non-exhaustive: a new
/// variant must be added here).
const EVERY_ISA: [Isa; 3] = [Isa::Scalar, Isa::Avx2, Isa::Avx512];

fn is_length(e: &Error, what: &str, expected: usize, found: usize) -> bool {
    matches!(e, Error::Length { what: w, expected: x, found: f } if w == what && *x == expected && *f == found)
}

fn untouched(slices: &[&[f64]]) -> bool {
    slices.iter().all(|s| s.iter().all(|&v| v == UNTOUCHED))
}

/// The evaluation entry point shared by `Noise`, `Fractal`, `Warp` and
/// `Evaluator` (each has an inherent `fill_on` with this signature).
type FillOn<'a> =
    &'a dyn Fn(Isa, [&[f64]; 3], &mut [f64], Option<[&mut [f64]; 3]>) -> Result<(), Error>;

/// Mismatched coordinate, output and gradient slices, each on its own, with
/// the name the error must give it (`grad_name(a)` for gradient axis `a`).
fn check_lengths(name: &str, fill_on: FillOn, grad_name: &dyn Fn(usize) -> String) {
    let isa = Isa::detect();
    let n = 37;
    let xs = vec![0.25f64; n];
    let short = vec![0.5f64; n - 1];
    // A short coordinate slice on each axis, with and without a gradient.
    for axis in 0..3 {
        let coords: [&[f64]; 3] = core::array::from_fn(|a| {
            if a == axis {
                short.as_slice()
            } else {
                xs.as_slice()
            }
        });
        let mut out = vec![UNTOUCHED; n];
        let e = fill_on(isa, coords, &mut out, None).unwrap_err();
        let what = format!("coordinate slice {axis}");
        assert!(is_length(&e, &what, n, n - 1), "{name}: {e:?}");
        assert!(untouched(&[&out]), "{name}: output written despite {e}");

        let mut g = [vec![UNTOUCHED; n], vec![UNTOUCHED; n], vec![UNTOUCHED; n]];
        let [g0, g1, g2] = &mut g;
        let e = fill_on(isa, coords, &mut out, Some([g0, g1, g2])).unwrap_err();
        assert!(is_length(&e, &what, n, n - 1), "{name}: {e:?}");
        assert!(untouched(&[&out, &g[0], &g[1], &g[2]]), "{name}: {e}");
    }
    // The output shorter than the coordinates: named as the first coordinate
    // slice that disagrees with it (the output's length is the reference).
    let mut out = vec![UNTOUCHED; n - 1];
    let e = fill_on(isa, [&xs, &xs, &xs], &mut out, None).unwrap_err();
    assert!(
        is_length(&e, "coordinate slice 0", n - 1, n),
        "{name}: {e:?}"
    );
    assert!(untouched(&[&out]));
    // A gradient slice of the wrong length, short or long, on each axis.
    for axis in 0..3 {
        for len in [n - 1, n + 1, 0] {
            let mut out = vec![UNTOUCHED; n];
            let mut g: [Vec<f64>; 3] =
                core::array::from_fn(|a| vec![UNTOUCHED; if a == axis { len } else { n }]);
            let [g0, g1, g2] = &mut g;
            let e = fill_on(isa, [&xs, &xs, &xs], &mut out, Some([g0, g1, g2])).unwrap_err();
            assert!(is_length(&e, &grad_name(axis), n, len), "{name}: {e:?}");
            assert!(untouched(&[&out, &g[0], &g[1], &g[2]]), "{name}: {e}");
        }
    }
    // And the same call with matching lengths succeeds and writes.
    let mut out = vec![UNTOUCHED; n];
    fill_on(isa, [&xs, &xs, &xs], &mut out, None).unwrap();
    assert!(
        out.iter().all(|&v| v != UNTOUCHED && v.abs() <= 1e3),
        "{name}"
    );
}

fn fractal() -> Fractal<3> {
    let params = FractalParams {
        octaves: 3,
        ..FractalParams::new(FractalKind::Ridged)
    };
    Fractal::new(Noise::new(NoiseKind::Simplex, 5), params).unwrap()
}

fn evaluator() -> surflet::Evaluator<3> {
    let stack = Stack {
        noise: NoiseKind::Perlin,
        seed: 3,
        fractal: Some(FractalDesc {
            octaves: 4,
            ..FractalDesc::default()
        }),
        warp: Some(WarpDesc {
            amplitude: 0.5,
            ..WarpDesc::default()
        }),
        ..Stack::default()
    };
    stack.build::<3>().unwrap()
}

#[test]
fn mismatched_lengths_are_length_errors() {
    let noise = Noise::<3>::new(NoiseKind::Perlin, 9);
    let noise_grad = |a: usize| format!("gradient slice {a}");
    check_lengths(
        "noise",
        &|isa, c, o, g| noise.fill_on(isa, c, o, g),
        &noise_grad,
    );
    // Every field names its gradient slices the same way.
    let layer_grad = noise_grad;
    let f = fractal();
    check_lengths(
        "fractal",
        &|isa, c, o, g| f.fill_on(isa, c, o, g),
        &layer_grad,
    );
    let e = evaluator();
    assert!(e.warp().is_some());
    check_lengths(
        "stack evaluator",
        &|isa, c, o, g| e.fill_on(isa, c, o, g),
        &layer_grad,
    );
    let w = e.warp().unwrap().clone();
    check_lengths("warp", &|isa, c, o, g| w.fill_on(isa, c, o, g), &layer_grad);

    // The default-ISA entry points run the same checks.
    let xs = [0.5f64; 8];
    let mut out = [UNTOUCHED; 7];
    let err = noise.fill([&xs, &xs, &xs], &mut out).unwrap_err();
    assert!(is_length(&err, "coordinate slice 0", 7, 8), "{err:?}");
    let err = f.fill([&xs, &xs, &xs[..3]], &mut out).unwrap_err();
    assert!(is_length(&err, "coordinate slice 0", 7, 8), "{err:?}");
    let mut out = [UNTOUCHED; 8];
    let mut g = [vec![UNTOUCHED; 8], vec![UNTOUCHED; 8], vec![UNTOUCHED; 9]];
    let [g0, g1, g2] = &mut g;
    let err = e
        .fill_gradient([&xs, &xs, &xs], &mut out, [g0, g1, g2])
        .unwrap_err();
    assert!(is_length(&err, "gradient slice 2", 8, 9), "{err:?}");
    assert!(untouched(&[&out, &g[0], &g[1], &g[2]]));
    assert_eq!(
        err.to_string(),
        "gradient slice 2 has length 9, expected 8",
        "the message names the slice"
    );

    // Curl noise: three output slices.
    let curl = Curl::<3>::new(f.clone());
    let mut o: [Vec<f64>; 3] =
        core::array::from_fn(|a| vec![UNTOUCHED; if a == 2 { 7 } else { 8 }]);
    let [o0, o1, o2] = &mut o;
    let err = curl.fill([&xs, &xs, &xs], [o0, o1, o2]).unwrap_err();
    assert!(is_length(&err, "output slice 2", 8, 7), "{err:?}");
    assert!(untouched(&[&o[0], &o[1], &o[2]]));
}

/// `fill_on` on each instruction set succeeds exactly when the CPU has it and
/// otherwise returns `Error::Parameter { name: "isa" }` without writing.
#[test]
fn isa_errors_match_availability() {
    let noise = Noise::<3>::new(NoiseKind::Simplex, 1);
    let f = fractal();
    let e = evaluator();
    let curl = Curl::<3>::new(f.clone());
    let xs = [0.3f64; 21];
    let xs32 = [0.3f32; 21];
    let mut missing = Vec::new();
    assert_eq!(
        Isa::available(),
        EVERY_ISA
            .into_iter()
            .filter(|i| i.is_available())
            .collect::<Vec<_>>()
    );
    assert!(Isa::Scalar.is_available(), "scalar code runs everywhere");
    for isa in EVERY_ISA {
        let mut results: Vec<(&str, Result<(), Error>, bool)> = Vec::new();
        let c: [&[f64]; 3] = [&xs, &xs, &xs];
        let mut out = [UNTOUCHED; 21];
        let r = noise.fill_on(isa, c, &mut out, None);
        results.push(("noise", r, untouched(&[&out])));
        let mut out32 = [UNTOUCHED as f32; 21];
        let r = noise.fill_on(isa, [&xs32, &xs32, &xs32], &mut out32, None);
        results.push(("noise f32", r, out32.iter().all(|&v| v == UNTOUCHED as f32)));
        let mut out = [UNTOUCHED; 21];
        let mut g = [[UNTOUCHED; 21]; 3];
        let [g0, g1, g2] = &mut g;
        let r = f.fill_on(isa, c, &mut out, Some([g0, g1, g2]));
        results.push(("fractal", r, untouched(&[&out, &g[0], &g[1], &g[2]])));
        let mut out = [UNTOUCHED; 21];
        let r = e.fill_on(isa, c, &mut out, None);
        results.push(("stack evaluator", r, untouched(&[&out])));
        let mut o = [[UNTOUCHED; 21]; 3];
        let [o0, o1, o2] = &mut o;
        let r = curl.fill_on(isa, c, [o0, o1, o2]);
        results.push(("curl", r, untouched(&[&o[0], &o[1], &o[2]])));
        for (name, r, untouched) in results {
            if isa.is_available() {
                assert!(r.is_ok(), "{name} on {isa:?}: {r:?}");
                assert!(!untouched, "{name} on {isa:?} wrote nothing");
            } else {
                let err = r.expect_err("an unavailable instruction set must be an error");
                assert!(
                    matches!(&err, Error::Parameter { name, .. } if name == "isa"),
                    "{name} on {isa:?}: {err:?}"
                );
                let why = if isa.is_built() {
                    "is not supported by this CPU".to_string()
                } else {
                    format!(
                        "is not in this build of surflet (its `{}` cargo feature)",
                        isa.name()
                    )
                };
                assert_eq!(
                    err.to_string(),
                    format!("invalid isa: {} {why}", isa.name())
                );
                assert!(untouched, "{name} on {isa:?} wrote despite the error");
            }
        }
        if !isa.is_available() {
            missing.push(isa.name());
        }
    }
    // The marker the valgrind run below looks for.
    println!("instruction sets missing on this CPU: {missing:?}");
    if std::env::var_os(UNDER_VALGRIND).is_some() {
        assert!(
            missing.contains(&"avx512"),
            "valgrind's CPU was expected to lack AVX-512; missing: {missing:?}"
        );
    } else if missing.is_empty() {
        println!(
            "note: this CPU has every instruction set, so the error path is \
             exercised by isa_error_on_a_cpu_without_avx512 (under valgrind)"
        );
    }
}

const UNDER_VALGRIND: &str = "SURFLET_TEST_UNDER_VALGRIND";

/// On a CPU with every instruction set, `isa_errors_match_availability` only
/// checks the success path. This runs it again under valgrind, whose emulated
/// CPU (valgrind 3.x) advertises AVX2 but not AVX-512, so the library's own
/// CPU detection finds AVX-512 missing and the error path runs for real.
/// Skipped, with a note, where there is nothing to gain (some instruction set
/// is already missing, so the test above covers the error) or no valgrind.
#[test]
fn isa_error_on_a_cpu_without_avx512() {
    if std::env::var_os(UNDER_VALGRIND).is_some() {
        return; // already the child
    }
    if Isa::available().len() < EVERY_ISA.len() {
        println!("note: an instruction set is missing here; the direct test covers the error");
        return;
    }
    if !cfg!(target_arch = "x86_64") {
        return;
    }
    let exe = std::env::current_exe().unwrap();
    let run = std::process::Command::new("valgrind")
        .args(["--tool=none", "-q"])
        .arg(&exe)
        .args([
            "--exact",
            "batch_errors::isa_errors_match_availability",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(UNDER_VALGRIND, "1")
        .output();
    let run = match run {
        Ok(r) => r,
        // CI installs valgrind (.ci/run), so there its absence is a failure,
        // not a quiet pass.
        Err(e) if in_ci() => panic!("CI=true: valgrind is needed here and not runnable: {e}"),
        Err(e) => {
            println!("note: valgrind not runnable ({e}): AVX-512's absence not exercised");
            return;
        }
    };
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        run.status.success(),
        "under valgrind: {}\n{stdout}\n{stderr}",
        run.status
    );
    let missing = stdout.lines().find(|l| l.contains("missing on this CPU"));
    assert!(
        stdout.contains("1 passed") && missing.is_some_and(|l| l.contains("avx512")),
        "under valgrind the test must run and find AVX-512 missing:\n{stdout}\n{stderr}"
    );
    println!("under valgrind: {}", missing.unwrap());
}

fn in_ci() -> bool {
    std::env::var("CI").as_deref() == Ok("true")
}

/// The instruction sets this CPU has, read from `/proc/cpuinfo` rather than
/// through the library's own detection (which this checks): scalar, AVX2
/// where it has `avx2`, AVX-512 where it also has `avx512f` and `avx512vl`
/// and the build has the backend (the `avx512` feature).
/// `None` where the file cannot be read (not Linux).
fn cpu_instruction_sets() -> Option<Vec<Isa>> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let flags: Vec<&str> = info
        .lines()
        .find(|l| l.starts_with("flags"))?
        .split_whitespace()
        .collect();
    let has = |f: &str| flags.contains(&f);
    let mut isas = vec![Isa::Scalar];
    if cfg!(target_arch = "x86_64") && has("avx2") {
        isas.push(Isa::Avx2);
        if has("avx512f") && has("avx512vl") && cfg!(feature = "avx512") {
            isas.push(Isa::Avx512);
        }
    }
    Some(isas)
}

/// Every identity test (the frozen goldens, `family_bitexact`,
/// `fractal_bitexact`, `grid`, `graph`, `nd`, `properties`, ...) runs each
/// instruction set of `Isa::available()`, so that list must hold every
/// instruction set the CPU has, or one of them is never tested while the
/// run passes. With CI=true a difference fails. A build without `std` has
/// no run-time detection: it uses what the build targets (the CI's lean
/// step builds for x86-64-v3, AVX2), which the test command's run covers
/// for AVX-512.
#[test]
fn every_instruction_set_of_this_cpu_is_tested() {
    let available = Isa::available();
    let cpu = if cfg!(feature = "std") {
        cpu_instruction_sets()
    } else {
        let mut isas = vec![Isa::Scalar];
        if cfg!(target_feature = "avx2") {
            isas.push(Isa::Avx2);
            if cfg!(all(
                target_feature = "avx512f",
                target_feature = "avx512vl",
                feature = "avx512"
            )) {
                isas.push(Isa::Avx512);
            }
        }
        Some(isas)
    };
    println!("available: {available:?}; this CPU (or build): {cpu:?}");
    match cpu {
        Some(cpu) if in_ci() => assert_eq!(
            available, cpu,
            "CI=true: the library's instruction sets differ from the CPU's; an instruction set would go untested"
        ),
        Some(cpu) if cpu != available => println!("note: they differ"),
        None if in_ci() => {
            panic!("CI=true: cannot read /proc/cpuinfo to check the instruction sets")
        }
        _ => {}
    }
}
