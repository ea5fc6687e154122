//! `--device gpu` (the gpu feature): renders that are the `--precision f32`
//! renders byte for byte where the driver computes the CPU's bits (lavapipe
//! in CI), bench rows, and the errors. Without a GPU adapter the tests say
//! so and pass, except where `CI` is `true` (CI installs lavapipe).

use std::fs;

use tempfile::TempDir;

use crate::common::{fails, render_in, surflet};

/// Whether the GPU tests can run: false (after saying why) where the
/// binary finds no adapter and this is not CI.
fn gpu_available() -> bool {
    let out = surflet()
        .args([
            "bench",
            "value",
            "--device",
            "gpu",
            "--size",
            "4",
            "--seconds",
            "0",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() && stderr.contains("no GPU adapter") {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true: {stderr}"
        );
        eprintln!("skipped: {stderr}");
        return false;
    }
    true
}

/// Renders on the GPU (its stderr may carry the Vulkan loader's
/// complaints, so only success is required).
fn render_gpu(dir: &std::path::Path, name: &str, args: &[&str]) -> Vec<u8> {
    let out = dir.join(name);
    let o = surflet()
        .arg("render")
        .arg(&out)
        .args(args)
        .args(["--device", "gpu", "-q"])
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    fs::read(out).unwrap()
}

#[test]
fn gpu_renders_are_the_f32_renders() {
    if !gpu_available() {
        return;
    }
    let dir = TempDir::new().unwrap();
    let cases: [(&str, &[&str]); 10] = [
        (
            "a.png",
            &["-n", "simplex", "--octaves", "5", "--size", "96x64"],
        ),
        (
            "b.png",
            &[
                "-n",
                "perlin",
                "--dims",
                "3",
                "--z",
                "0.5",
                "--fractal",
                "ridged",
                "--warp-amplitude",
                "0.3",
                "--mode",
                "normal",
                "--size",
                "64",
            ],
        ),
        (
            "c.tif",
            &[
                "-n",
                "value",
                "--period",
                "4,4",
                "--octaves",
                "3",
                "--size",
                "48",
            ],
        ),
        (
            "d.gif",
            &[
                "-n",
                "simplex-value",
                "--dims",
                "3",
                "--frames",
                "3",
                "--size",
                "32",
            ],
        ),
        (
            "e.png",
            &[
                "-n",
                "simplex",
                "--period",
                "4,6",
                "--frequency",
                "1/16",
                "--size",
                "40x30",
            ],
        ),
        // The README's graph.
        (
            "g.png",
            &[
                "--size",
                "64x48",
                "--ramp",
                "terrain",
                "--expr",
                "select(fbm(simplex(seed=1), octaves=6) * 0.6 - 0.2, \
                 ridged(perlin(seed=2, frequency=2), octaves=5) * 0.9 - 0.1, \
                 control=fbm(perlin(seed=3, frequency=0.5), octaves=2), threshold=0.1, \
                 falloff=0.15)",
            ],
        ),
        // A graph's normals in 3D: moves whose Jacobians reach the leaves.
        (
            "h.png",
            &[
                "--dims",
                "3",
                "--z",
                "0.25",
                "--mode",
                "normal",
                "--size",
                "40",
                "--expr",
                "terrace(displace(rotate(simplex(), angle=0.5), by=[perlin(seed=2) * 0.4, \
                 value(seed=3) * 0.4, perlin(seed=4) * 0.4]), points=[-1, 0, 0.4, 1], smooth=true)",
            ],
        ),
        // Cellular noise's exact search, and OpenSimplex2S in 3D.
        (
            "i.png",
            &[
                "-n",
                "cellular",
                "--distance",
                "manhattan",
                "--return",
                "f2-f1",
                "--octaves",
                "2",
                "--size",
                "48",
            ],
        ),
        (
            "j.png",
            &[
                "-n",
                "opensimplex2s",
                "--dims",
                "3",
                "--z",
                "0.5",
                "--mode",
                "normal",
                "--size",
                "40",
            ],
        ),
        // A loop: render makes the stack periodic along time.
        (
            "f.gif",
            &[
                "-n", "perlin", "--dims", "3", "--frames", "4", "--loop", "--size", "24",
            ],
        ),
    ];
    same_as_f32(dir.path(), &cases);
}

/// 4D: a slice at (z, w), and a loop in 4D.
#[test]
fn gpu_renders_in_4d_are_the_f32_renders() {
    if !gpu_available() {
        return;
    }
    let dir = TempDir::new().unwrap();
    let cases: [(&str, &[&str]); 2] = [
        (
            "k.png",
            &[
                "-n",
                "simplex",
                "--dims",
                "4",
                "--z",
                "0.3",
                "--w",
                "1.7",
                "--octaves",
                "3",
                "--mode",
                "normal",
                "--size",
                "40",
            ],
        ),
        (
            "l.gif",
            &[
                "-n",
                "value-cubic",
                "--dims",
                "4",
                "--frames",
                "3",
                "--loop",
                "--size",
                "20",
            ],
        ),
    ];
    same_as_f32(dir.path(), &cases);
}

/// A power with a non-integer exponent (its double-f32 twin in the
/// shader), with its gradient in a normal map, is the f32 render.
#[test]
fn gpu_renders_of_real_powers_are_the_f32_renders() {
    if !gpu_available() {
        return;
    }
    let dir = TempDir::new().unwrap();
    let cases: [(&str, &[&str]); 1] = [(
        "p.png",
        &[
            "--mode",
            "normal",
            "--size",
            "40",
            "--expr",
            "pow(abs(fbm(simplex(), octaves=3)), 0.45) - pow(perlin(seed=2) * 0.5 + 1, -2.7)",
        ],
    )];
    same_as_f32(dir.path(), &cases);
}

/// Each case rendered with --device gpu is the file --precision f32
/// writes.
fn same_as_f32(dir: &std::path::Path, cases: &[(&str, &[&str])]) {
    for &(name, args) in cases {
        let gpu = render_gpu(dir, name, args);
        let mut cpu_args = args.to_vec();
        cpu_args.extend(["--precision", "f32"]);
        let cpu = fs::read(render_in(dir, &format!("cpu-{name}"), &cpu_args)).unwrap();
        assert!(
            gpu == cpu,
            "{name} {args:?}: the GPU file differs from --precision f32's"
        );
    }
}

#[test]
fn gpu_errors_say_what_to_do() {
    let cases: [(&[&str], &str); 2] = [
        (&["--precision", "f64"], "--device gpu evaluates in f32"),
        (&["--noise", "noise1234"], "reference port"),
    ];
    let dir = TempDir::new().unwrap();
    for (args, message) in cases {
        let out = dir.path().join("x.gif");
        let mut all = vec!["render", out.to_str().unwrap(), "--device", "gpu"];
        all.extend_from_slice(args);
        let (_, e) = fails(&all, "", 2);
        assert!(e.contains(message), "{args:?}: {e}");
        assert!(
            fs::read_dir(dir.path()).unwrap().next().is_none(),
            "{args:?} left a file"
        );
    }
}

/// `bench --device gpu` (the gpu feature): the dispatch and grid rows, the
/// adapter named. Skips without an adapter, except in CI.
#[test]
fn bench_runs_on_the_gpu() {
    if !gpu_available() {
        return;
    }
    let out = surflet()
        .args([
            "bench",
            "simplex",
            "--device",
            "gpu",
            "--size",
            "64",
            "--json",
            "--seconds",
            "0",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["device"].as_str().is_some_and(|d| !d.is_empty()), "{v}");
    let calls: Vec<&str> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["call"].as_str().unwrap())
        .collect();
    assert_eq!(calls, ["dispatch", "grid"]);
    for r in v["rows"].as_array().unwrap() {
        assert!(r["msamples_per_s"].as_f64().unwrap() > 0.0, "{r}");
        assert!(r["threads"].is_null(), "{r}");
    }
    let (_, e) = fails(
        &["bench", "simplex", "--device", "gpu", "--precision", "f64"],
        "",
        2,
    );
    assert!(
        e.contains("--precision f64 does not apply to --device gpu"),
        "{e}"
    );
}
