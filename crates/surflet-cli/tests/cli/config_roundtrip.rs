//! Configs round-trip exactly: for property-generated sets of flags, `render
//! --config` of a `--save-config` file draws the same bytes, in TOML and in
//! JSON, and saving again from the config writes the same file.

use std::fs;
use std::path::Path;

use crate::common::*;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use tempfile::TempDir;

/// A generated command line: the flags, and the output extension.
#[derive(Clone, Debug)]
struct Case {
    flags: Vec<String>,
    ext: &'static str,
}

fn pick<T: Clone + std::fmt::Debug + 'static>(items: &[T]) -> impl Strategy<Value = T> + use<T> {
    proptest::sample::select(items.to_vec())
}

/// Optional flags, each present or not, with values drawn from ranges that
/// include negatives, fractions and both axis forms.
fn case() -> impl Strategy<Value = Case> {
    let noise = proptest::option::of(pick(&["value", "perlin", "simplex", "simplex-value"]));
    let seed = proptest::option::of(any::<i64>());
    let frequency = proptest::option::of(pick(&["1/2", "0.75", "3", "1/3", "2"]));
    let fractal = proptest::option::of((
        pick(&["fbm", "ridged", "billow", "turbulence", "hybrid"]),
        1u32..6,
    ));
    let warp = proptest::option::of(pick(&["0.5", "2", "0.125"]));
    let scale = proptest::option::of(pick(&["1/16", "0.05", "1/7,1/9", "3/64", "1"]));
    let origin = proptest::option::of((-40i32..40, -40i32..40));
    let z = proptest::option::of(-20i32..20);
    let mode = pick(&[
        "", "gray", "ramp", "terrain", "stops", "normal", "normal+s", "directx",
    ]);
    let range = pick(&["", "auto", "fixed"]);
    let period = proptest::option::of(pick(&["4,4", "2,6", "8,8,8"]));
    let frames = proptest::option::of((2u32..4, any::<bool>(), pick(&["", "1/8"])));
    let ext = pick(&["png", "raw", "tif", "gif"]);
    (
        (noise, seed, frequency, fractal, warp, scale),
        (origin, z, mode, range, period, frames, ext),
    )
        .prop_map(
            |(
                (noise, seed, frequency, fractal, warp, scale),
                (origin, z, mode, range, period, frames, ext),
            )| {
                let mut f: Vec<String> = Vec::new();
                fn add(f: &mut Vec<String>, flag: &str, value: String) {
                    f.push(flag.to_string());
                    if !value.is_empty() {
                        f.push(value);
                    }
                }
                if let Some(n) = noise {
                    add(&mut f, "--noise", n.into());
                }
                if let Some(s) = seed {
                    add(&mut f, "--seed", s.to_string());
                }
                if let Some(q) = frequency {
                    add(&mut f, "--frequency", q.into());
                }
                if let Some((kind, octaves)) = fractal {
                    add(&mut f, "--fractal", kind.into());
                    add(&mut f, "--octaves", octaves.to_string());
                }
                if let Some(a) = warp {
                    add(&mut f, "--warp-amplitude", a.into());
                }
                if let Some(s) = scale {
                    add(&mut f, "--scale", s.into());
                }
                if let Some((x, y)) = origin {
                    add(
                        &mut f,
                        "--origin",
                        format!("{},{}", f64::from(x) / 4.0, f64::from(y) / 3.0),
                    );
                }
                if let Some(z) = z {
                    add(&mut f, "--z", (f64::from(z) * 0.37).to_string());
                }
                let float = ext == "raw" || ext == "tif";
                match mode {
                    "gray" => add(&mut f, "--mode", "gray".into()),
                    "ramp" if !float => add(&mut f, "--mode", "ramp".into()),
                    "terrain" if !float => add(&mut f, "--ramp", "terrain".into()),
                    "stops" if !float => add(&mut f, "--ramp", "0:#102030,0.4:#fff,1:#a0b".into()),
                    "normal" if !float => add(&mut f, "--mode", "normal".into()),
                    "normal+s" if !float => add(&mut f, "--normal-strength", "-3.5".into()),
                    "directx" if !float => add(&mut f, "--normal-format", "directx".into()),
                    _ => {}
                }
                let normal = f.iter().any(|a| a == "normal" || a.starts_with("--normal"));
                match range {
                    "auto" if !normal => add(&mut f, "--auto-range", String::new()),
                    "fixed" if !normal => add(&mut f, "--range", "-0.5,0.75".into()),
                    _ => {}
                }
                if let Some(p) = period {
                    add(&mut f, "--period", p.into());
                }
                if let Some((n, looped, step)) = frames {
                    add(&mut f, "--frames", n.to_string());
                    if looped && !step.is_empty() {
                        // frames*step must be whole cells: n/8 rarely is.
                        add(&mut f, "--step", format!("{}/{n}", 1));
                        add(&mut f, "--loop", String::new());
                    } else if looped {
                        add(&mut f, "--loop", String::new());
                    } else if !step.is_empty() {
                        add(&mut f, "--step", step.into());
                    }
                }
                Case { flags: f, ext }
            },
        )
}

/// Runs `surflet render ARGS`; `None` if it refused the options (exit 2),
/// which a generated combination may deserve.
fn render(args: &[String]) -> Option<()> {
    let o = surflet().arg("render").args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    match o.status.code() {
        Some(0) => Some(()),
        Some(2) => None,
        other => panic!("surflet render {args:?}: exit {other:?}: {stderr}"),
    }
}

fn check(case: &Case, dir: &Path) -> Result<bool, TestCaseError> {
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let out = |name: &str| s(&dir.join(format!("{name}.{}", case.ext)));
    let (toml, json, again) = (
        s(&dir.join("a.toml")),
        s(&dir.join("a.json")),
        s(&dir.join("again.toml")),
    );
    let mut first = vec![out("a"), "--size".into(), "13x9".into()];
    first.extend(case.flags.iter().cloned());
    first.extend(["--save-config".into(), toml.clone()]);
    if render(&first).is_none() {
        return Ok(false);
    }
    let mut with_json = first.clone();
    *with_json.last_mut().unwrap() = json.clone();
    with_json[0] = out("j");
    prop_assert!(render(&with_json).is_some(), "{with_json:?}");

    // No --size: the config's own size is the default.
    let b = vec![out("b"), "--config".into(), toml.clone()];
    prop_assert!(render(&b).is_some(), "{b:?}");
    let c = vec![out("c"), "--config".into(), json];
    prop_assert!(render(&c).is_some(), "{c:?}");
    let d = vec![
        out("d"),
        "--config".into(),
        toml.clone(),
        "--save-config".into(),
        again.clone(),
    ];
    prop_assert!(render(&d).is_some(), "{d:?}");

    let a = fs::read(out("a")).unwrap();
    for other in ["j", "b", "c", "d"] {
        prop_assert!(
            fs::read(out(other)).unwrap() == a,
            "{other} differs from a for {:?}\n{}",
            case.flags,
            fs::read_to_string(&toml).unwrap()
        );
    }
    prop_assert_eq!(
        fs::read_to_string(&toml).unwrap(),
        fs::read_to_string(&again).unwrap()
    );
    Ok(true)
}

#[test]
fn render_config_reproduces_the_saved_render_for_generated_flags() {
    let mut runner = TestRunner::new(Config {
        cases: 64,
        failure_persistence: None,
        ..Config::default()
    });
    let accepted = std::cell::Cell::new(0);
    runner
        .run(&case(), |case| {
            let dir = TempDir::new().unwrap();
            if check(&case, dir.path())? {
                accepted.set(accepted.get() + 1);
            }
            Ok(())
        })
        .unwrap();
    // Refused combinations must stay the exception, or the test tests
    // nothing.
    assert!(
        accepted.get() >= 40,
        "only {} of 64 cases rendered",
        accepted.get()
    );
}

#[test]
fn sample_config_reproduces_the_sample() {
    let dir = TempDir::new().unwrap();
    let toml = dir.path().join("s.toml");
    let toml = toml.to_str().unwrap();
    let input = "0.5,0.25\n-3.75,100.125\n1e3,-7\n";
    for flags in [
        &["simplex", "--seed", "-9", "--frequency", "1/3"][..],
        &[
            "perlin",
            "--fractal",
            "ridged",
            "--octaves",
            "5",
            "--warp-amplitude",
            "0.5",
        ],
        &[
            "value",
            "--period",
            "4,8",
            "--frequency",
            "0.5",
            "-s",
            "18446744073709551615",
        ],
    ] {
        let mut args = flags.to_vec();
        args.extend(["--gradient", "--save-config", toml]);
        let first = sample_ok(&args, input);
        let again = sample_ok(&["--config", toml, "--gradient"], input);
        assert_eq!(first, again, "{flags:?}");
    }
}

/// A render's config, loaded by `sample`, gives the values the render drew.
#[test]
fn sample_reads_the_stack_of_a_render_config() {
    let dir = TempDir::new().unwrap();
    let cfg = dir.path().join("r.toml");
    let cfg = cfg.to_str().unwrap();
    let (_d, raw) = render_ok(
        "r.raw",
        &[
            "--size",
            "4x3",
            "--octaves",
            "3",
            "--seed",
            "-2",
            "--scale",
            "1/8",
            "--origin",
            "-1,2",
            "--save-config",
            cfg,
        ],
    );
    let bytes = fs::read(raw).unwrap();
    let mut input = String::new();
    for j in 0..3 {
        for i in 0..4 {
            input += &format!(
                "{},{}\n",
                -1.0 + f64::from(i) / 8.0,
                2.0 + f64::from(j) / 8.0
            );
        }
    }
    let out = sample_ok(&["--config", cfg], &input);
    for (k, line) in out.lines().enumerate() {
        let v: f64 = line.parse().unwrap();
        let px = f32::from_le_bytes(bytes[4 * k..4 * k + 4].try_into().unwrap());
        assert_eq!(v as f32, px, "point {k}");
    }
}
