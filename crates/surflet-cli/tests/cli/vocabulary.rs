//! One vocabulary across render, sample, analyze and bench: `-n/--noise`
//! and a positional NAME mean the same, `--size` takes N or WxH, `--scale`
//! is world units per sample, help lists the library's kinds, and every
//! stack flag is one key of one table that the config, the help and the
//! server's export all follow.

use std::fs;
use std::path::Path;

use serde_json::{Value, json};
use surflet::NoiseKind;
use tempfile::TempDir;

use crate::common::*;
use crate::serve::{Server, shell_words};

/// Runs `surflet ARGS`, requires success, returns stdout.
fn ok(args: &[&str]) -> String {
    let o = surflet().args(args).output().unwrap();
    assert!(
        o.status.success(),
        "surflet {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// `surflet analyze` into `dir`, returning its summary.json.
fn analyze(dir: &Path, args: &[&str]) -> Value {
    let mut all = vec!["analyze", dir.to_str().unwrap()];
    all.extend_from_slice(args);
    ok(&all);
    serde_json::from_slice(&fs::read(dir.join("summary.json")).unwrap()).unwrap()
}

/// `surflet bench ARGS` as JSON, as briefly as a measurement can be.
fn bench(args: &[&str]) -> Value {
    let mut all = vec!["bench", "--json", "--seconds", "0", "--threads", "1"];
    all.extend_from_slice(args);
    serde_json::from_str(&ok(&all)).unwrap()
}

fn render_bytes(args: &[&str]) -> Vec<u8> {
    let (_d, out) = render_ok("v.raw", args);
    fs::read(out).unwrap()
}

#[test]
fn noise_flag_and_name_mean_the_same_in_every_subcommand() {
    // sample: NAME, -n and --noise, and both when they agree.
    let input = "0.3,0.7\n-1.5,2.25\n";
    let named = sample_ok(&["perlin", "--seed", "3"], input);
    for args in [
        &["-n", "perlin", "--seed", "3"][..],
        &["--noise", "perlin", "--seed", "3"],
        &["perlin", "-n", "perlin", "--seed", "3"],
    ] {
        assert_eq!(sample_ok(args, input), named, "sample {args:?}");
    }
    assert_ne!(sample_ok(&["simplex", "--seed", "3"], input), named);
    // A reference port too, as NAME takes it.
    let points = "1,2,3\n0.5,0.25,0.125\n";
    assert_eq!(
        sample_ok(&["-n", "perlin2002-java"], points),
        sample_ok(&["perlin2002-java"], points)
    );
    // And as a stack's noise, with a fractal.
    assert_eq!(
        sample_ok(&["-n", "value", "--octaves", "3"], input),
        sample_ok(&["value", "--octaves", "3"], input)
    );

    // analyze: NAME or -n.
    let dir = TempDir::new().unwrap();
    let a = analyze(&dir.path().join("a"), &["perlin", "--size", "32"]);
    let b = analyze(&dir.path().join("b"), &["-n", "perlin", "--size", "32"]);
    let c = analyze(&dir.path().join("c"), &["--size", "32"]);
    assert_eq!(a["noise"], b["noise"]);
    assert_eq!(a["spectrum"], b["spectrum"]);
    assert_ne!(a["spectrum"], c["spectrum"], "-n was ignored");
    let a = analyze(&dir.path().join("d"), &["classic2005-java", "--size", "16"]);
    let b = analyze(
        &dir.path().join("e"),
        &["-n", "classic2005-java", "--size", "16"],
    );
    assert_eq!(a["noise"], b["noise"]);
    assert_eq!(a["spectrum"], b["spectrum"]);

    // bench: KIND or -n.
    let a = bench(&["perlin", "--size", "8"]);
    assert_eq!(a["noise"], "perlin 2D");
    assert_eq!(
        bench(&["-n", "perlin", "--size", "8"])["noise"],
        "perlin 2D"
    );
    assert_eq!(
        bench(&["--noise", "perlin", "perlin", "--size", "8"])["noise"],
        "perlin 2D"
    );

    // render: -n and --noise.
    let short = render_bytes(&["--size", "8x6", "-n", "perlin"]);
    assert_eq!(short, render_bytes(&["--size", "8x6", "--noise", "perlin"]));
    assert_ne!(short, render_bytes(&["--size", "8x6"]));

    // Both, naming different noises, is a usage error in each.
    for args in [
        &["sample", "perlin", "-n", "simplex"][..],
        &["analyze", "out", "perlin", "-n", "simplex"],
        &["bench", "perlin", "-n", "simplex"],
    ] {
        let (_, err) = fails(args, input, 2);
        assert!(err.contains("different noises"), "{args:?}: {err}");
    }
    // render and bench draw stacks, which a reference port is not.
    for args in [
        &["render", "x.png", "-n", "perlin2002-java"][..],
        &["bench", "-n", "perlin2002-java"],
    ] {
        let (_, err) = fails(args, "", 2);
        assert!(err.contains("reference port"), "{args:?}: {err}");
    }
}

#[test]
fn sizes_take_one_number_or_width_by_height() {
    // render: N is N x N.
    assert_eq!(
        render_bytes(&["--size", "16"]),
        render_bytes(&["--size", "16x16"])
    );
    // analyze: the slice is square.
    let dir = TempDir::new().unwrap();
    let a = analyze(&dir.path().join("a"), &["--size", "32"]);
    let b = analyze(&dir.path().join("b"), &["--size", "32x32"]);
    assert_eq!(a["size"], 32);
    assert_eq!(a["spectrum"], b["spectrum"]);
    let (_, err) = fails(&["analyze", "out", "--size", "32x16"], "", 2);
    assert!(err.contains("square"), "{err}");
    // bench: N points per axis, or one number per axis, which fixes D.
    let a = bench(&["value", "--size", "16"]);
    assert_eq!(a["shape"], json!([16, 16]));
    assert_eq!(bench(&["value", "--size", "16x16"])["shape"], a["shape"]);
    let v = bench(&["value", "--size", "8x4x2"]);
    assert_eq!(
        (v["dims"].clone(), v["shape"].clone()),
        (json!(3), json!([8, 4, 2]))
    );
    let (_, err) = fails(&["bench", "value", "--dims", "2", "--size", "8x4x2"], "", 2);
    assert!(err.contains("--size") && err.contains("--dims"), "{err}");
    let (_, err) = fails(&["render", "x.png", "--size", "8x4x2"], "", 2);
    assert!(err.contains("--size"), "{err}");
}

#[test]
fn bench_takes_scale_and_refuses_spacing_naming_scale() {
    let v = bench(&["value", "--size", "8", "--scale", "1/4"]);
    assert_eq!(v["spacing"], 0.25);
    assert_eq!(bench(&["value", "--size", "8"])["spacing"], 0.03);
    for args in [
        &["bench", "value", "--spacing", "0.5"][..],
        &["bench", "value", "--spacing=0.5"],
    ] {
        let (_, err) = fails(args, "", 2);
        assert!(
            err.starts_with("error: --spacing is now --scale: write --scale"),
            "{args:?}: {err}"
        );
    }
    let (_, err) = fails(&["bench", "value", "--scale", "-0.5"], "", 2);
    assert!(err.contains("positive"), "{err}");
}

#[test]
fn every_help_lists_every_noise_kind() {
    for args in [
        &["render", "--help"][..],
        &["sample", "--help"],
        &["analyze", "--help"],
        &["bench", "--help"],
        &["help", "stacks"],
    ] {
        let help = ok(args);
        let words: Vec<&str> = help
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .collect();
        for kind in NoiseKind::ALL {
            assert!(
                words.contains(&kind.name()),
                "{args:?} does not name {}",
                kind.name()
            );
        }
    }
}

/// The long flags `render --help` lists under `heading`: the lines that
/// start with a dash after at most six spaces (help text is indented
/// further), up to the next heading.
fn flags_under(help: &str, heading: &str) -> Vec<String> {
    help.split(&format!("\n{heading}:\n"))
        .nth(1)
        .unwrap_or_else(|| panic!("no {heading} in {help}"))
        .lines()
        .take_while(|line| line.is_empty() || line.starts_with(' '))
        .filter(|line| {
            let t = line.trim_start();
            t.starts_with('-') && line.len() - t.len() <= 6
        })
        .map(|line| {
            let t = line.trim_start();
            let t = t.split_once(", ").map_or(t, |(_, long)| long);
            t.split(' ').next().unwrap().to_string()
        })
        .collect()
}

/// The value at `path` (dotted) in a TOML document.
fn toml_at<'a>(doc: &'a toml::Value, path: &str) -> Option<&'a toml::Value> {
    path.split('.').try_fold(doc, |v, k| v.get(k))
}

/// Every stack flag that render lists round-trips: render with it,
/// --save-config, the config holds its key with the value, and the
/// server's export command gives the flag back with the value.
#[test]
fn every_stack_flag_round_trips_through_config_and_export() {
    // flag, value, what else it needs, its config key, the TOML value.
    let cases: &[(&str, &str, &[&str], &str, &str)] = &[
        ("--noise", "perlin", &[], "noise", "\"perlin\""),
        ("--seed", "7", &[], "seed", "7"),
        ("--frequency", "0.5", &[], "frequency", "0.5"),
        ("--period", "4,4", &[], "period", "[4, 4]"),
        ("--domain-offset", "10,-2.5", &[], "offset", "[10.0, -2.5]"),
        (
            "--distance",
            "manhattan",
            &["-n", "cellular"],
            "distance",
            "\"manhattan\"",
        ),
        ("--return", "f2", &["-n", "cellular"], "return", "\"f2\""),
        ("--jitter", "0.5", &["-n", "cellular"], "jitter", "0.5"),
        ("--fractal", "billow", &[], "fractal.kind", "\"billow\""),
        ("--octaves", "3", &[], "fractal.octaves", "3"),
        ("--lacunarity", "3", &[], "fractal.lacunarity", "3.0"),
        ("--gain", "0.25", &[], "fractal.gain", "0.25"),
        ("--amplitude", "0.5", &[], "fractal.amplitude", "0.5"),
        (
            "--offset",
            "0.5",
            &["--fractal", "ridged"],
            "fractal.offset",
            "0.5",
        ),
        (
            "--weight",
            "1.5",
            &["--fractal", "ridged"],
            "fractal.weight",
            "1.5",
        ),
        (
            "--normalize",
            "",
            &["--no-normalize"],
            "fractal.normalize",
            "true",
        ),
        ("--no-normalize", "", &[], "fractal.normalize", "false"),
        ("--rotation", "0.5", &[], "fractal.rotation", "0.5"),
        ("--warp", "progressive", &[], "warp.kind", "\"progressive\""),
        ("--warp-amplitude", "0.5", &[], "warp.amplitude", "0.5"),
        ("--warp-frequency", "0.25", &[], "warp.frequency", "0.25"),
        ("--warp-noise", "value", &[], "warp.noise", "\"value\""),
        ("--warp-seed", "5", &[], "warp.seed", "5"),
        (
            "--warp-fractal",
            "ridged",
            &[],
            "warp.fractal.kind",
            "\"ridged\"",
        ),
        ("--warp-octaves", "2", &[], "warp.fractal.octaves", "2"),
        (
            "--warp-lacunarity",
            "3",
            &[],
            "warp.fractal.lacunarity",
            "3.0",
        ),
        ("--warp-gain", "0.25", &[], "warp.fractal.gain", "0.25"),
        (
            "--warp-rotation",
            "-1.5",
            &[],
            "warp.fractal.rotation",
            "-1.5",
        ),
    ];
    // The list is the table: render --help shows exactly these flags
    // under its noise headings (besides the config and graph flags).
    let help = ok(&["render", "--help"]);
    let mut listed = flags_under(&help, "Noise");
    listed.extend(flags_under(&help, "Noise stack"));
    listed.retain(|f| !["--config", "--save-config", "--expr"].contains(&f.as_str()));
    let mut ours: Vec<String> = cases.iter().map(|c| c.0.to_string()).collect();
    listed.sort();
    ours.sort();
    assert_eq!(
        listed, ours,
        "render --help's stack flags and this list differ"
    );

    let server = Server::start(&[]);
    let dir = TempDir::new().unwrap();
    for &(flag, value, context, key, want) in cases {
        let config = dir.path().join("c.toml");
        let mut args = vec!["--size", "8x8", "--save-config", config.to_str().unwrap()];
        args.extend_from_slice(context);
        args.push(flag);
        if !value.is_empty() {
            args.push(value);
        }
        render_in(dir.path(), "x.png", &args);
        let text = fs::read_to_string(dir.path().join("c.toml")).unwrap();
        let doc: toml::Value = toml::from_str(&text).unwrap();
        let want: toml::Value =
            toml::from_str::<toml::Value>(&format!("v = {want}")).unwrap()["v"].clone();
        assert_eq!(toml_at(&doc, key), Some(&want), "{flag}: {text}");

        let e = server.json("/api/export", &json!({ "toml": text }));
        // Every stack key has an expression form, which reads back to the
        // same stack.
        let expr = e["expr"].as_str().unwrap_or_else(|| panic!("{flag}: {e}"));
        let doc = surflet::document::Document::from_toml(&text).unwrap();
        let graph = doc
            .graph
            .clone()
            .unwrap_or_else(|| surflet::Graph::stack(doc.stack.clone()));
        assert_eq!(
            surflet::Graph::parse(expr).unwrap(),
            graph,
            "{flag}: {expr}"
        );
        let command = e["command"]
            .as_str()
            .unwrap_or_else(|| panic!("{flag}: {e}"));
        let words = shell_words(command);
        if flag == "--normalize" {
            // The default, which the command line states by leaving out
            // --no-normalize.
            assert!(!words.iter().any(|w| w == "--no-normalize"), "{command}");
            continue;
        }
        let at = words
            .iter()
            .position(|w| w == flag)
            .unwrap_or_else(|| panic!("{flag} is not in {command}"));
        if !value.is_empty() {
            assert_eq!(words[at + 1], value, "{command}");
        }
    }
}
