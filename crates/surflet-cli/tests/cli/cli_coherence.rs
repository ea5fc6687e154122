//! One model and one meaning per flag across the subcommands: configs that
//! reproduce a render, old configs read with their old meaning, negative
//! numbers, the same short flags everywhere, repeatable commands, help that
//! fits a screen.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use surflet::Field;

use crate::common::*;
use surflet::Stack;
use tempfile::TempDir;

/// The subcommands with options, in this build (analyze and gallery need
/// the `plots` feature).
fn subcommands() -> Vec<&'static str> {
    let mut subs = vec!["sample", "render", "bench", "shader"];
    if cfg!(feature = "plots") {
        subs.extend(["gallery", "analyze"]);
    }
    subs
}

fn run_ok(dir: &Path, args: &[&str]) {
    let o = surflet().current_dir(dir).args(args).output().unwrap();
    assert!(
        o.status.success(),
        "surflet {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The commands of the issue that reported the round trip broken: each
/// saved look renders again to the same bytes.
#[test]
fn saved_looks_render_again_bit_for_bit() {
    let dir = TempDir::new().unwrap();
    for flags in [
        &["--fractal", "ridged", "--octaves", "6"][..],
        &["--seed", "7"],
        &["--fractal", "fbm", "--warp-amplitude", "0.5"],
        &[
            "--ramp",
            "terrain",
            "--octaves",
            "8",
            "--seed",
            "7",
            "--frequency",
            "1/2",
        ],
    ] {
        let mut first = vec!["render", "a.png", "--size", "96x64"];
        first.extend_from_slice(flags);
        first.extend(["--save-config", "a.toml"]);
        run_ok(dir.path(), &first);
        run_ok(dir.path(), &["render", "b.png", "--config", "a.toml"]);
        assert_eq!(
            fs::read(dir.path().join("a.png")).unwrap(),
            fs::read(dir.path().join("b.png")).unwrap(),
            "{flags:?}"
        );
    }
}

/// Files without a version, as the first releases wrote them (the
/// library's fixtures), keep their meaning: with a period one tile spans
/// the image, and without one render samples them at one world unit per
/// pixel. The same stack marked version 2 gets the default 1/64.
#[test]
fn version_1_configs_keep_their_meaning() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../surflet/tests/data");
    let dir = TempDir::new().unwrap();
    // Version 1's one unit per pixel comes with a warning that names
    // `version = 2`; a tile or a version 2 file renders silently.
    let check = |path: &str, stack: &Stack, scale: [f64; 2], what: &str| {
        let field = stack.build::<2>().unwrap();
        let d = TempDir::new().unwrap();
        let (out, stderr) = render_stderr(d.path(), "v.raw", &["--config", path, "--size", "6x5"]);
        let version1_scale = !path.ends_with("v2.toml") && stack.period.is_none();
        if version1_scale {
            assert!(
                stderr.starts_with("warning:") && stderr.contains("`version = 2`"),
                "{what}: {stderr}"
            );
        } else {
            assert!(stderr.is_empty(), "{what}: {stderr}");
        }
        let got = read_f32(&out);
        for j in 0..5u32 {
            for i in 0..6u32 {
                let x = (f64::from(i) * scale[0]) / 6.0;
                let y = (f64::from(j) * scale[1]) / 5.0;
                let want = field.get([x, y]) as f32;
                let k = (j * 6 + i) as usize;
                assert_eq!(got[k].to_bits(), want.to_bits(), "{what} {i},{j}");
            }
        }
    };
    for name in ["stack.toml", "stack.json", "stack_commented.toml"] {
        let path = format!("{data}/{name}");
        let text = fs::read_to_string(&path).unwrap();
        let stack = if name.ends_with(".json") {
            Stack::from_json_str(&text).unwrap()
        } else {
            Stack::from_toml_str(&text).unwrap()
        };
        // With a period, one tile (period/frequency world units) spans the
        // image; without one, a world unit per pixel.
        let span = match stack.period.as_deref() {
            Some(p) => [f64::from(p[0]), f64::from(p[1])].map(|p| p / stack.frequency),
            None => [6.0, 5.0],
        };
        check(&path, &stack, span, name);

        let mut plain = stack.clone();
        plain.period = None;
        let v1 = dir.path().join("v1.toml");
        fs::write(&v1, plain.to_toml_string().unwrap()).unwrap();
        check(v1.to_str().unwrap(), &plain, [6.0, 5.0], "v1");
        let v2 = dir.path().join("v2.toml");
        fs::write(
            &v2,
            format!("version = 2\n{}", plain.to_toml_string().unwrap()),
        )
        .unwrap();
        check(v2.to_str().unwrap(), &plain, [6.0 / 64.0, 5.0 / 64.0], "v2");
    }
    // Tables of the new format need the version.
    let bad = dir.path().join("bad.toml");
    fs::write(&bad, "seed = 1\n[view]\ndims = 3\n").unwrap();
    let (_, err) = fails(
        &["render", "x.png", "--config", bad.to_str().unwrap()],
        "",
        2,
    );
    assert!(err.contains("version = 2"), "{err}");
    fs::write(&bad, "version = 9\n").unwrap();
    let (_, err) = fails(
        &["render", "x.png", "--config", bad.to_str().unwrap()],
        "",
        2,
    );
    assert!(err.contains("version"), "{err}");
}

/// `--frequency` is the stack's frequency in both subcommands: a rendered
/// pixel is the sampled value at its world point.
#[test]
fn frequency_means_the_same_in_sample_and_render() {
    let (_d, out) = render_ok(
        "f.raw",
        &[
            "--size",
            "5x4",
            "--frequency",
            "3/7",
            "--scale",
            "1/3",
            "--origin",
            "-2,-1.5",
            "--noise",
            "perlin",
            "--octaves",
            "3",
        ],
    );
    let got = read_f32(&out);
    let mut input = String::new();
    for j in 0..4 {
        for i in 0..5 {
            input += &format!(
                "{},{}\n",
                -2.0 + f64::from(i) / 3.0,
                -1.5 + f64::from(j) / 3.0
            );
        }
    }
    let out = sample_ok(&["perlin", "--frequency", "3/7", "--octaves", "3"], &input);
    let want: Vec<f32> = out
        .lines()
        .map(|l| l.parse::<f64>().unwrap() as f32)
        .collect();
    assert_eq!(got, want);
}

/// Negative numbers are values, not flags: seeds map to u64 by two's
/// complement, and origins, z, offsets and strengths take a sign.
#[test]
fn negative_numbers_work_everywhere() {
    let raw = |args: &[&str]| {
        let (_d, out) = render_ok("n.raw", args);
        fs::read(out).unwrap()
    };
    let base = ["--size", "7x5", "--octaves", "2"];
    let neg = raw(&[&base[..], &["--seed", "-5"]].concat());
    assert_eq!(neg, raw(&[&base[..], &["--seed=-5"]].concat()));
    assert_eq!(neg, raw(&[&base[..], &["-s", "-5"]].concat()));
    assert_eq!(
        neg,
        raw(&[&base[..], &["--seed", "18446744073709551611"]].concat())
    );
    assert_ne!(neg, raw(&[&base[..], &["--seed", "5"]].concat()));
    raw(&[
        &base[..],
        &[
            "--origin",
            "-1,-2",
            "--z",
            "-3",
            "--warp-seed",
            "-1",
            "--fractal",
            "ridged",
            "--offset",
            "-0.5",
        ],
    ]
    .concat());

    let input = "0.5,0.25\n";
    let a = sample_ok(&["simplex", "--seed", "-1"], input);
    assert_eq!(a, sample_ok(&["simplex", "-s", "-1"], input));
    assert_eq!(
        a,
        sample_ok(&["simplex", "--seed=18446744073709551615"], input)
    );
    let (_, err) = fails(&["sample", "simplex", "--frequency", "-1"], input, 2);
    assert!(err.contains("frequency: must be positive"), "{err}");
    assert!(!err.contains("tip"), "{err}");
}

/// The short flags of every subcommand, parsed from its --help.
fn short_flags(sub: &str) -> BTreeMap<char, String> {
    let o = surflet().args([sub, "--help"]).output().unwrap();
    let help = String::from_utf8(o.stdout).unwrap();
    let mut map = BTreeMap::new();
    for line in help.lines() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix('-')
            && let Some((short, long)) = rest.split_once(", --")
            && short.len() == 1
        {
            let long = long.split([' ', '=']).next().unwrap().to_string();
            map.insert(short.chars().next().unwrap(), long);
        }
    }
    map
}

#[test]
fn short_flags_mean_the_same_in_every_subcommand() {
    let subs = subcommands();
    let mut meaning: BTreeMap<char, (String, &str)> = BTreeMap::new();
    for &sub in &subs {
        for (short, long) in short_flags(sub) {
            if let Some((seen, other)) = meaning.get(&short) {
                assert_eq!(
                    &long, seen,
                    "-{short} is --{seen} in {other} but --{long} in {sub}"
                );
            }
            meaning.insert(short, (long, sub));
        }
    }
    // And each long flag that several subcommands share has its short in
    // each of them.
    for sub in subs {
        let flags = short_flags(sub);
        let o = surflet().args([sub, "--help"]).output().unwrap();
        let help = String::from_utf8(o.stdout).unwrap();
        for (short, (long, _)) in &meaning {
            let has_long = help.contains(&format!("    --{long} "))
                || help.contains(&format!("    --{long}\n"));
            if has_long {
                assert!(
                    flags.get(short) == Some(long),
                    "{sub} has --{long} without -{short}"
                );
            }
        }
    }
    assert_eq!(meaning.get(&'s').map(|m| m.0.as_str()), Some("seed"));
}

#[test]
fn help_fits_a_screen_and_says_shared_things_once() {
    for sub in subcommands() {
        let o = surflet().args([sub, "-h"]).output().unwrap();
        let short = String::from_utf8(o.stdout).unwrap();
        assert!(
            short.lines().count() <= 45,
            "{sub} -h is {} lines",
            short.lines().count()
        );
        let o = surflet().args([sub, "--help"]).output().unwrap();
        let long = String::from_utf8(o.stdout).unwrap();
        for line in long.lines() {
            assert!(line.chars().count() <= 100, "{sub} --help: {line:?}");
        }
        // No option's entry says its first words twice (a doc comment's
        // short paragraph repeated in the long one).
        let mut entries: Vec<String> = Vec::new();
        for line in long.lines() {
            let t = line.trim_start();
            if t.starts_with('-') || entries.is_empty() {
                entries.push(String::new());
            } else {
                let e = entries.last_mut().unwrap();
                e.push(' ');
                e.push_str(t);
            }
        }
        for e in &entries {
            let flat = e.split_whitespace().collect::<Vec<_>>().join(" ");
            let head: String = flat.chars().take(40).collect();
            if head.chars().count() == 40 {
                assert_eq!(
                    flat.matches(&head).count(),
                    1,
                    "{sub} --help repeats: {flat}"
                );
            }
        }
        // The stack documentation lives in `surflet help stacks` alone.
        assert!(
            !long.contains("NOISE STACKS\n"),
            "{sub} repeats NOISE STACKS"
        );
    }
    for topic in ["coordinates", "stacks", "graphs", "config"] {
        let o = surflet().args(["help", topic]).output().unwrap();
        assert!(o.status.success(), "help {topic}");
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(text.lines().count() > 10, "{topic}");
    }
    // The words people reach for find the topic.
    let graphs = surflet().args(["help", "graphs"]).output().unwrap().stdout;
    // It documents every function of the expression language, which the
    // library's table of node kinds lists: a new node kind fails here until
    // the help names it.
    let text = String::from_utf8(graphs.clone()).unwrap();
    let words: std::collections::HashSet<&str> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .collect();
    for name in surflet::Graph::functions() {
        assert!(
            words.contains(name.as_str()),
            "surflet help graphs does not name {name}"
        );
    }
    let expr = surflet().args(["help", "expr"]).output().unwrap();
    assert!(expr.status.success());
    assert_eq!(expr.stdout, graphs);
    // Every topic is named where topics are listed: in the help command's
    // summary and in the top-level help.
    let top = String::from_utf8(surflet().arg("--help").output().unwrap().stdout).unwrap();
    let help_line = top
        .lines()
        .find(|l| l.trim_start().starts_with("help "))
        .unwrap_or_else(|| panic!("no help line in {top}"));
    for topic in ["coordinates", "stacks", "graphs", "config"] {
        assert!(help_line.contains(topic), "{help_line}");
        assert!(
            top.contains(&format!("\n  {topic} ")),
            "{topic} missing: {top}"
        );
    }
    // The top-level description names every kind of noise.
    let flat = top.split_whitespace().collect::<Vec<_>>().join(" ");
    for kind in ["OpenSimplex2,", "OpenSimplex2S", "cellular"] {
        assert!(flat.contains(kind), "{kind} missing from surflet --help");
    }
    let o = surflet().args(["help", "render"]).output().unwrap();
    assert!(String::from_utf8(o.stdout).unwrap().contains("EXAMPLES"));
    let (_, err) = fails(&["help", "bogus"], "", 2);
    assert!(err.contains("coordinates"), "{err}");
}

/// `--same-view` shows the saved region at a new size: at twice the size,
/// every other pixel is the saved image's.
#[test]
fn same_view_keeps_the_region_at_a_new_size() {
    let dir = TempDir::new().unwrap();
    run_ok(
        dir.path(),
        &[
            "render",
            "a.raw",
            "--size",
            "8x6",
            "--origin",
            "-0.5,0.25",
            "--octaves",
            "3",
            "--save-config",
            "a.toml",
        ],
    );
    run_ok(
        dir.path(),
        &[
            "render",
            "b.raw",
            "--config",
            "a.toml",
            "--size",
            "16x12",
            "--same-view",
        ],
    );
    let a = read_f32(&dir.path().join("a.raw"));
    let b = read_f32(&dir.path().join("b.raw"));
    for j in 0..6 {
        for i in 0..8 {
            assert_eq!(
                a[j * 8 + i].to_bits(),
                b[(2 * j) * 16 + 2 * i].to_bits(),
                "{i},{j}"
            );
        }
    }
    // Without --same-view the larger image shows more of the plane at the
    // same scale: its top-left quarter is the saved image.
    run_ok(
        dir.path(),
        &["render", "c.raw", "--config", "a.toml", "--size", "16x12"],
    );
    let c = read_f32(&dir.path().join("c.raw"));
    for j in 0..6 {
        for i in 0..8 {
            assert_eq!(a[j * 8 + i].to_bits(), c[j * 16 + i].to_bits(), "{i},{j}");
        }
    }
}

/// A CSV header is skipped; only the first line can be one.
#[test]
fn sample_skips_a_csv_header() {
    let plain = sample_ok(&["simplex"], "1,2\n3,4\n");
    assert_eq!(sample_ok(&["simplex"], "x,y\n1,2\n3,4\n"), plain);
    assert_eq!(sample_ok(&["simplex"], "\n  x , y \n1,2\n3,4\n"), plain);
    // nan and inf are numbers, not a header.
    assert_eq!(sample_ok(&["simplex"], "nan,inf\n").trim(), "NaN");
    let (_, err) = fails(&["sample", "simplex"], "1,2\nx,y\n", 1);
    assert!(err.contains("line 2"), "{err}");
    // More fields than any noise takes, first line: an input error naming
    // the count, not a header and not a crash (found by the fuzzer).
    let (_, err) = fails(&["sample", "perlin2002-java"], ",,,,$,,,,\n", 1);
    assert!(err.contains("line 1"), "{err}");
    let (_, err) = fails(&["sample", "simplex"], "a,b,c,d,e,f,g,h,i\n", 1);
    assert!(err.contains("line 1"), "{err}");
}

/// The README's first command, run twice as a user tweaking a look does.
#[test]
fn the_main_command_runs_twice() {
    let dir = TempDir::new().unwrap();
    run_ok(dir.path(), &["render", "noise.png"]);
    let first = fs::read(dir.path().join("noise.png")).unwrap();
    run_ok(dir.path(), &["render", "noise.png"]);
    assert_eq!(fs::read(dir.path().join("noise.png")).unwrap(), first);
    assert_eq!(entries(dir.path()), vec!["noise.png".to_string()]);
}

/// `-o` was short for --octaves; it now means nothing, and a command line
/// that still uses it is told what to write instead (not that `out.png` is
/// a bad octave count).
#[test]
fn the_old_short_o_names_its_new_spelling() {
    let mut cases = vec![
        &["render", "-o", "out.png"][..],
        &["render", "x.png", "-o", "5"],
        &["sample", "simplex", "-o", "5"],
    ];
    if cfg!(feature = "plots") {
        cases.push(&["analyze", "dir", "-o", "5"]);
    }
    for args in cases {
        let (_, err) = fails(args, "", 2);
        assert!(
            err.starts_with("error: -o no longer means --octaves: write --octaves"),
            "{args:?}: {err}"
        );
    }
}
