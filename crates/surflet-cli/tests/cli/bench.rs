//! `surflet bench`: its rows, its JSON and its errors. Only the shape of the
//! report is tested; the rates themselves are measurements, not facts.

use crate::common::{fails, surflet};

fn bench_json(args: &[&str]) -> serde_json::Value {
    let out = surflet()
        .arg("bench")
        .args(args)
        .args(["--json", "--seconds", "0"])
        .output()
        .unwrap();
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "bench {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn every_combination_is_a_row() {
    let v = bench_json(&[
        "perlin",
        "--dims",
        "3",
        "--size",
        "9",
        "--call",
        "grid,points",
        "--precision",
        "f32,f64",
        "--threads",
        "1,2",
        "--isa",
        "scalar",
        "--gradient",
    ]);
    assert_eq!(v["dims"], 3);
    assert_eq!(v["samples"], 729);
    assert_eq!(v["shape"], serde_json::json!([9, 9, 9]));
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 8);
    for r in rows {
        let rate = r["msamples_per_s"].as_f64().unwrap();
        assert!(rate.is_finite() && rate > 0.0, "{r}");
        assert_eq!(r["isa"], "scalar");
        assert_eq!(r["gradient"], true);
        assert!(r["repetitions"].as_u64().unwrap() >= 1);
    }
    let calls: Vec<&str> = rows.iter().map(|r| r["call"].as_str().unwrap()).collect();
    assert_eq!(calls.iter().filter(|c| **c == "grid").count(), 4);
    assert_eq!(calls.iter().filter(|c| **c == "points").count(), 4);
}

#[test]
fn stacks_and_configs_are_measured() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("look.toml");
    std::fs::write(
        &cfg,
        "noise = \"value\"\nfrequency = 0.015625\n[fractal]\nkind = \"ridged\"\noctaves = 3\n",
    )
    .unwrap();
    let v = bench_json(&[
        "--config",
        cfg.to_str().unwrap(),
        "--size",
        "64",
        "--threads",
        "1",
    ]);
    assert_eq!(v["noise"], "value 2D, ridged x3, frequency 0.015625");
    assert_eq!(v["rows"].as_array().unwrap().len(), 2);
    let v = bench_json(&["simplex", "--warp-amplitude", "0.5", "--size", "32"]);
    assert!(v["noise"].as_str().unwrap().contains("warped"), "{v}");
}

#[test]
fn a_configs_per_axis_keys_fix_the_dimension() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("look.toml");
    std::fs::write(&cfg, "noise = \"perlin\"\nperiod = [8, 8, 8]\n").unwrap();
    let cfg = cfg.to_str().unwrap();
    let v = bench_json(&["--config", cfg, "--size", "4", "--threads", "1"]);
    assert_eq!(v["dims"], 3);
    assert_eq!(v["shape"], serde_json::json!([4, 4, 4]));
    let (_, err) = fails(&["bench", "--config", cfg, "--dims", "2"], "", 2);
    assert!(
        err.contains("the config's period gives 3 dimensions but --dims gives 2"),
        "{err}"
    );
    let (_, err) = fails(
        &[
            "bench",
            "perlin",
            "--domain-offset",
            "1,2,3",
            "--size",
            "4x4",
        ],
        "",
        2,
    );
    assert!(
        err.contains("--size gives 2 dimensions but --domain-offset gives 3"),
        "{err}"
    );
}

#[test]
fn the_table_names_its_columns() {
    let out = surflet()
        .args(["bench", "value", "--size", "16", "--seconds", "0"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("value 2D: 16x16 = 256 samples, spacing 0.03\n"),
        "{text}"
    );
    assert!(text.contains("Msamples/s"), "{text}");
    // A header line and at least grid and points rows.
    assert!(text.lines().count() >= 4, "{text}");
}

#[test]
fn bad_requests_are_usage_errors() {
    let (_, err) = fails(&["bench", "simplex", "--size", "0"], "", 2);
    assert!(err.contains("--size"), "{err}");
    let (_, err) = fails(
        &["bench", "simplex", "--dims", "4", "--size", "100000"],
        "",
        2,
    );
    assert!(err.contains("2^28"), "{err}");
    let (_, err) = fails(
        &["bench", "simplex", "--dims", "2", "--period", "4,4,4"],
        "",
        2,
    );
    assert!(err.contains("--period"), "{err}");
    let (_, err) = fails(&["bench", "simplex", "--octaves", "0"], "", 2);
    assert!(err.contains("octaves"), "{err}");
    let (_, err) = fails(&["bench", "nosuch"], "", 2);
    assert!(err.contains("nosuch"), "{err}");
    let (_, err) = fails(&["bench", "simplex", "--seconds", "-1"], "", 2);
    assert!(err.contains("seconds"), "{err}");
    let (_, err) = fails(&["bench", "simplex", "--scale", "-0.5"], "", 2);
    assert!(err.contains("positive"), "{err}");
    assert!(!err.contains("tip"), "{err}");
}

/// The workloads of the scripts under `bench/` (`"label|arguments"` lines)
/// are accepted as they are written: each runs once, on a grid of 16 points
/// a side, so a renamed flag fails here rather than in a measuring run.
#[test]
fn the_bench_scripts_workloads_are_accepted() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "sh") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines() {
            let line = line.trim();
            let Some((_, args)) = line
                .strip_prefix('"')
                .and_then(|l| l.strip_suffix('"'))
                .and_then(|l| l.split_once('|'))
            else {
                continue;
            };
            let mut args: Vec<&str> = args.split_whitespace().collect();
            if let Some(i) = args.iter().position(|a| *a == "--size") {
                args[i + 1] = "16";
            }
            args.extend(["--call", "grid", "--threads", "1"]);
            bench_json(&args);
            checked += 1;
        }
    }
    // surflet-bench.sh, compare.sh and gpu-bench.sh have 30 between them.
    assert!(checked >= 30, "{checked} workloads found");
}
