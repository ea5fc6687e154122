//! `surflet analyze`: the summary's keys and shapes, its statistics against
//! an independent computation by `surflet sample`, the spectrum's response
//! to frequency, the anisotropy index on artefact-heavy and clean noises,
//! the plots, bad input and atomic output.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::*;
use serde_json::Value;
use tempfile::TempDir;

/// Runs `surflet analyze DIR/out ARGS`, requires silent success, and
/// returns the output directory and its summary.
fn analyze(dir: &Path, args: &[&str]) -> (PathBuf, Value) {
    let out = dir.join("out");
    let o = surflet()
        .arg("analyze")
        .arg(&out)
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "surflet analyze {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        o.stdout.is_empty() && o.stderr.is_empty(),
        "unexpected output"
    );
    let text = fs::read_to_string(out.join("summary.json")).unwrap();
    (out, serde_json::from_str(&text).unwrap())
}

fn num(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is not a number: {v}"))
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

const FILES: [&str; 5] = [
    "histogram.png",
    "slice.png",
    "spectrum.png",
    "spectrum2d.png",
    "summary.json",
];

#[test]
fn the_summary_has_every_key_and_the_plots_decode() {
    let dir = TempDir::new().unwrap();
    let (out, s) = analyze(dir.path(), &["simplex", "--size", "96", "--bins", "20"]);
    assert_eq!(entries(&out), FILES);
    let (min, max, mean, std) = (
        num(&s, "min"),
        num(&s, "max"),
        num(&s, "mean"),
        num(&s, "std"),
    );
    assert!(min <= mean && mean <= max, "{min} {mean} {max}");
    assert!(min < max && std > 0.0 && std < max - min);

    let edges = numbers(&s["histogram"]["edges"]);
    let counts: Vec<u64> = s["histogram"]["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    assert_eq!((edges.len(), counts.len()), (21, 20));
    assert_eq!((edges[0], edges[20]), (min, max));
    assert!(edges.windows(2).all(|e| e[0] < e[1]));
    assert_eq!(counts.iter().sum::<u64>(), 96 * 96);

    let sp = &s["spectrum"];
    assert_eq!(sp["unit"], "cycles per world unit");
    assert_eq!(num(sp, "cells_per_unit"), 1.0);
    let f = numbers(&sp["frequency"]);
    let p = numbers(&sp["power"]);
    assert_eq!((f.len(), p.len()), (48, 48));
    // Bin k is k cycles across the slice: k / (96 samples * 1/4 unit).
    assert!(
        f.iter()
            .enumerate()
            .all(|(k, &x)| (x - (k + 1) as f64 / 24.0).abs() < 1e-12)
    );
    assert!(p.iter().all(|&x| x >= 0.0));
    let (centroid, peak) = (num(sp, "centroid"), num(sp, "peak"));
    assert!(centroid > f[0] && centroid < f[47] && f.contains(&peak));

    let a = num(&s, "anisotropy");
    assert!(a >= 0.0 && a.is_finite());
    let d = &s["anisotropy_detail"];
    let sectors = numbers(&d["sectors"]);
    assert_eq!(sectors.len(), 18);
    assert!((sectors.iter().sum::<f64>() / 18.0 - 1.0).abs() < 1e-9);
    let annulus = numbers(&d["annulus"]);
    assert!(annulus[0] > 0.0 && annulus[0] < annulus[1]);
    assert!(num(d, "floor") > 0.0);
    assert_eq!(s["stack"]["noise"], "simplex");
    assert_eq!((num(&s, "dims"), num(&s, "samples")), (2.0, 9216.0));

    let size = |name: &str| {
        let img = image::open(out.join(name)).unwrap();
        (img.width(), img.height())
    };
    assert_eq!(size("slice.png"), (96, 96));
    assert_eq!(size("spectrum2d.png"), (96, 96));
    assert_eq!(size("histogram.png"), (960, 600));
    assert_eq!(size("spectrum.png"), (960, 600));
}

/// Population statistics of `v`, computed here.
fn stats(v: &[f64]) -> (f64, f64, f64, f64) {
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
    let min = v.iter().copied().fold(f64::INFINITY, f64::min);
    let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (min, max, mean, var.sqrt())
}

fn assert_stats(s: &Value, want: (f64, f64, f64, f64), what: &str) {
    let (min, max, mean, std) = want;
    // Min and max are values of the slice: exact.
    assert_eq!((num(s, "min"), num(s, "max")), (min, max), "{what}");
    // Mean and std differ only by summation order.
    assert!((num(s, "mean") - mean).abs() < 1e-12, "{what}");
    assert!((num(s, "std") - std).abs() < 1e-12, "{what}");
}

#[test]
fn statistics_match_the_samples_at_the_documented_points() {
    let dir = TempDir::new().unwrap();
    let n = 24u32;
    // A stack on the xy plane: pixel (i, j) at origin + (i*1/3, j*1/3).
    let (_, s) = analyze(
        dir.path(),
        &[
            "perlin",
            "--size",
            "24",
            "--scale",
            "1/3",
            "--origin",
            "-2,1.5",
            "--frequency",
            "3/7",
            "--octaves",
            "3",
        ],
    );
    let mut input = String::new();
    for j in 0..n {
        for i in 0..n {
            input += &format!("{},{}\n", at(-2.0, i, 1.0, 3.0), at(1.5, j, 1.0, 3.0));
        }
    }
    let out = sample_ok(&["perlin", "--frequency", "3/7", "--octaves", "3"], &input);
    let v: Vec<f64> = out.lines().map(|l| l.parse().unwrap()).collect();
    assert_stats(&s, stats(&v), "perlin fbm");

    // The seed document's classic Perlin, 3D, on a diagonal plane, at
    // frequency 2: the port sees the world point times 2.
    let (_, s) = analyze(
        dir.path(),
        &[
            "classic2005-java",
            "--size",
            "24",
            "--plane",
            "diagonal",
            "--origin",
            "0.5,0.25,3",
            "--frequency",
            "2",
        ],
    );
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let s6 = 1.0 / 6f64.sqrt();
    let (u, v) = ([h, -h, 0.0], [s6, s6, -2.0 * s6]);
    let o = [0.5, 0.25, 3.0];
    let mut input = String::new();
    for j in 0..n {
        for i in 0..n {
            let (a, b) = (at(0.0, i, 1.0, 4.0), at(0.0, j, 1.0, 4.0));
            let p: Vec<String> = (0..3)
                .map(|k| format!("{:?}", (o[k] + u[k] * a + v[k] * b) * 2.0))
                .collect();
            input += &p.join(",");
            input.push('\n');
        }
    }
    let out = sample_ok(&["classic2005-java"], &input);
    let vals: Vec<f64> = out.lines().map(|l| l.parse().unwrap()).collect();
    assert_stats(&s, stats(&vals), "classic2005-java diagonal");
    assert_eq!(num(&s, "dims"), 3.0);
}

#[test]
fn doubling_the_frequency_doubles_the_spectral_centroid() {
    let dir = TempDir::new().unwrap();
    for noise in ["simplex", "perlin", "classic2005-java"] {
        let centroid = |f: &str| {
            // 16 and 8 samples a cell: the spectrum stays below Nyquist.
            let (_, s) = analyze(
                dir.path(),
                &[noise, "--size", "256", "--scale", "1/16", "--frequency", f],
            );
            num(&s["spectrum"], "centroid")
        };
        let (one, two) = (centroid("1"), centroid("2"));
        let ratio = two / one;
        assert!((1.9..=2.1).contains(&ratio), "{noise}: {one} -> {two}");
    }
}

#[test]
fn lattice_artefacts_read_as_anisotropy() {
    let dir = TempDir::new().unwrap();
    let read = |args: &[&str]| {
        let (_, s) = analyze(dir.path(), args);
        (num(&s, "anisotropy"), num(&s["anisotropy_detail"], "floor"))
    };
    // Measured with the defaults (512 samples a side, 4 a cell): value 0.27, perlin 0.23, classic2005-java
    // 0.23, simplex 2D 0.02, simplex 3D xy 0.08 and diagonal 0.03, floors
    // 0.02 to 0.04.
    let (simplex, floor) = read(&["simplex"]);
    let (diagonal, _) = read(&["simplex", "--dims", "3", "--plane", "diagonal"]);
    let (simplex_xy, _) = read(&["simplex", "--dims", "3"]);
    let (value, _) = read(&["value"]);
    let (perlin, _) = read(&["perlin"]);
    let (classic, _) = read(&["classic2005-java"]);
    // Clean noises read near the sampling floor.
    assert!(simplex < 0.05 && simplex < 2.0 * floor, "{simplex} {floor}");
    assert!(diagonal < 0.05, "{diagonal}");
    // The axis-aligned lattices read several times more.
    for (name, a) in [("value", value), ("perlin", perlin), ("classic", classic)] {
        assert!(a > 0.15 && a > 4.0 * diagonal, "{name} {a} vs {diagonal}");
    }
    // 3D simplex's known artefacts on axis-aligned slices, which a
    // diagonal slice avoids.
    assert!(simplex_xy > 1.8 * diagonal, "{simplex_xy} vs {diagonal}");
}

#[test]
fn bad_input_is_a_usage_error_that_writes_nothing() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    for (args, needle) in [
        (&["--size", "0"][..], "16 to 4096"),
        (&["--size", "8"], "16 to 4096"),
        (&["--size", "100000"], "16 to 4096"),
        (&["--frequency", "nan"], "frequency"),
        (&["--origin", "nan,0"], "not finite"),
        (&["--scale", "0"], "positive"),
        (
            &["--scale", "1,2,3"],
            "--scale takes one value or two (SX,SY), got 3",
        ),
        (&["--origin", "1"], "--origin takes 2 to 2"),
        (&["simplex", "--variant", "standard"], "--variant"),
        (
            &["classic2005-java", "--octaves", "3"],
            "--octaves applies only",
        ),
        (&["classic2005-java", "--dims", "2"], "no 2D form"),
        (&["classic2005-java", "--frequency", "-1"], "positive"),
        (&["pnoise1234"], "period with every point"),
        (&["bogus"], "invalid value"),
        (&["simplex", "--save-config", "x.toml"], "does not apply"),
        (
            &["--dims", "3", "--plane-u", "1,0,0", "--plane-v", "1,1,0"],
            "perpendicular",
        ),
        (
            &["--plane-u", "1,0,0", "--plane-v", "0,1,0"],
            "takes 2 numbers",
        ),
        (
            &["--period", "8,8,8", "--dims", "2"],
            "values but the noise is 2D",
        ),
        (&["--origin", "1e300,0", "--scale", "1e306"], "overflow"),
        (&["--origin", "1e17,0"], "2^52"),
    ] {
        let mut all = vec!["analyze", out];
        all.extend_from_slice(args);
        let (_, err) = fails(&all, "", 2);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(entries(dir.path()).is_empty(), "{args:?} wrote files");
    }
}

#[test]
fn missing_parent_directories_are_created() {
    // The README's `surflet analyze out/simplex-3d ...` on a fresh clone.
    let dir = TempDir::new().unwrap();
    let deep = dir.path().join("out/simplex-3d");
    let o = surflet()
        .args(["analyze", deep.to_str().unwrap(), "simplex", "--size", "16"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(deep.join("summary.json").is_file());
}

#[test]
fn a_failed_run_leaves_no_files() {
    let dir = TempDir::new().unwrap();
    // DIR is a file.
    let file = dir.path().join("file");
    fs::write(&file, "x").unwrap();
    let (_, err) = fails(&["analyze", file.to_str().unwrap(), "--size", "16"], "", 1);
    assert!(err.contains("not a directory"), "{err}");
    // DIR's parent is a file: nothing is created.
    let under_file = file.join("out");
    let (_, err) = fails(
        &["analyze", under_file.to_str().unwrap(), "--size", "16"],
        "",
        1,
    );
    assert!(err.contains("cannot create"), "{err}");
    assert_eq!(entries(dir.path()), ["file"]);
    fs::remove_file(&file).unwrap();
    // One of the outputs is a directory: the others are not written either.
    let out = dir.path().join("out");
    fs::create_dir_all(out.join("spectrum2d.png")).unwrap();
    let (_, err) = fails(&["analyze", out.to_str().unwrap(), "--size", "16"], "", 1);
    assert!(err.contains("is a directory"), "{err}");
    assert_eq!(entries(&out), ["spectrum2d.png"]);
    // --no-clobber refuses an earlier analysis and leaves it as it was.
    fs::remove_dir(out.join("spectrum2d.png")).unwrap();
    let (_, first) = analyze(dir.path(), &["value", "--size", "16"]);
    let (_, err) = fails(
        &[
            "analyze",
            out.to_str().unwrap(),
            "perlin",
            "--size",
            "16",
            "--no-clobber",
        ],
        "",
        1,
    );
    assert!(err.contains("--no-clobber"), "{err}");
    let kept: Value =
        serde_json::from_str(&fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(kept, first);
    assert_eq!(entries(&out), FILES);
}

#[test]
fn help_documents_every_key_the_unit_and_the_index() {
    let o = surflet().args(["analyze", "--help"]).output().unwrap();
    let help = String::from_utf8(o.stdout).unwrap();
    let dir = TempDir::new().unwrap();
    let (_, s) = analyze(dir.path(), &["--size", "16"]);
    for key in s.as_object().unwrap().keys() {
        assert!(help.contains(key.as_str()), "--help does not mention {key}");
    }
    for text in [
        "cycles per world unit",
        "coefficient of variation",
        "Hann",
        "DC",
    ] {
        assert!(help.contains(text), "--help lacks {text:?}");
    }
}
