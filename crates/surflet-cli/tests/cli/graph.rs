//! `--expr` and `[graph]` configs: the same bits as the library, configs
//! that reproduce a render, and bad expressions answered with a caret and
//! exit code 2.

use std::fs;

use crate::common::*;
use surflet::{Field, Graph};
use tempfile::TempDir;

const EXPR: &str = "select(fbm(simplex(seed=1), octaves=6), ridged(perlin(seed=2), octaves=4), \
                    control=perlin(seed=3, frequency=0.25), threshold=0, falloff=0.1) * 0.8 + 0.1";

#[test]
fn sample_gives_the_library_bits() {
    let f = Graph::parse(EXPR).unwrap().build::<2>().unwrap();
    let pts: Vec<[f64; 2]> = (0..40)
        .map(|i| [i as f64 * 0.37 - 5.0, i as f64 * -0.61 + 2.0])
        .collect();
    let input: String = pts.iter().map(|p| format!("{},{}\n", p[0], p[1])).collect();
    let got = parse_output(&sample_ok(&["--expr", EXPR, "--gradient"], &input));
    for (row, p) in got.iter().zip(&pts) {
        let s = f.sample(*p);
        assert!(
            same_bits(row[0], s.value),
            "{p:?}: {} vs {}",
            row[0],
            s.value
        );
        assert!(
            same_bits(row[1], s.gradient[0]) && same_bits(row[2], s.gradient[1]),
            "{p:?}"
        );
    }
    let got = parse_output(&sample_ok(&["--expr", EXPR, "--f32"], &input));
    for (row, p) in got.iter().zip(&pts) {
        let v = f.get(p.map(|x| x as f32));
        assert!(same_bits(row[0], f64::from(v)), "{p:?}");
    }
}

#[test]
fn a_saved_graph_renders_again_bit_for_bit() {
    let dir = TempDir::new().unwrap();
    for name in ["a.toml", "a.json"] {
        let cfg = dir.path().join(name);
        let cfg = cfg.to_str().unwrap();
        let first = render_in(
            dir.path(),
            "a.png",
            &[
                "--expr",
                EXPR,
                "--size",
                "96x64",
                "--save-config",
                cfg,
                "--ramp",
                "terrain",
            ],
        );
        let text = fs::read_to_string(cfg).unwrap();
        assert!(text.contains("graph"), "{text}");
        let second = render_in(dir.path(), "b.png", &["--config", cfg]);
        assert_eq!(
            fs::read(first).unwrap(),
            fs::read(second).unwrap(),
            "{cfg}: {text}"
        );
    }
}

#[test]
#[cfg_attr(not(feature = "plots"), ignore = "analyze needs the plots feature")]
fn analyze_and_bench_take_expressions() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("a.json");
    let o = surflet()
        .args([
            "analyze",
            out.to_str().unwrap(),
            "--expr",
            "abs(perlin(seed=2)) * 2 - 1",
            "--size",
            "32",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = surflet()
        .args([
            "bench",
            "--expr",
            "perlin(seed=2) + simplex()",
            "--size",
            "16",
            "--seconds",
            "0",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("msamples_per_s"));
}

#[test]
fn bad_expressions_exit_2_with_a_caret() {
    for cmd in ["sample", "render"] {
        let mut args = vec![cmd];
        if cmd == "render" {
            args.push("x.png");
        }
        let mut a = args.clone();
        a.extend(["--expr", "fbm(simplx(seed=1))"]);
        let (_, err) = fails(&a, "", 2);
        assert!(err.contains("unknown function `simplx`"), "{err}");
        assert!(
            err.contains("fbm(simplx(seed=1))\n    ^^^^^^^^^^^^^^"),
            "{err}"
        );
        let mut a = args.clone();
        a.extend(["--expr", "abs(perlin()"]);
        let (_, err) = fails(&a, "", 2);
        assert!(err.contains("column 13"), "{err}");
        let mut a = args.clone();
        a.extend(["--expr", "perlin()", "--octaves", "3"]);
        let (_, err) = fails(&a, "", 2);
        assert!(
            err.contains("--octaves does not apply with --expr"),
            "{err}"
        );
    }
}

/// An expression with no finite value has no range to stretch: --auto-range
/// refuses it (and leaves no file) instead of drawing ±∞ as black and white.
#[test]
fn auto_range_refuses_an_image_with_no_finite_value() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("x.png");
    let out = out.to_str().unwrap();
    let (_, err) = fails(
        &[
            "render",
            out,
            "--expr",
            "simplex() / 0",
            "--auto-range",
            "--size",
            "16",
        ],
        "",
        1,
    );
    assert!(err.contains("no value of the image is finite"), "{err}");
    assert!(entries(dir.path()).is_empty());
}
