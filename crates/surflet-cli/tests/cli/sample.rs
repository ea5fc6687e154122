//! End-to-end tests of `surflet sample`, running the real binary.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command as StdCommand, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::common::*;
use predicates::prelude::*;
use surflet::{Noise, NoiseKind};

/// How many rows of each golden file are fed through the binary.
const GOLDEN_ROWS: usize = 20;

// ---------------------------------------------------------------------------
// Reference ports against the golden CSVs.

/// A golden file: its header and raw text rows.
struct Golden {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

fn golden(file: &str) -> Golden {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../surflet/tests/golden")
        .join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let split = |l: &str| {
        l.split(',')
            .map(|s| s.trim().to_string())
            .collect::<Vec<_>>()
    };
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header = split(lines.next().expect("empty golden file"));
    let rows = lines.take(GOLDEN_ROWS).map(split).collect();
    Golden { header, rows }
}

/// Feeds the input columns (everything before `value`) of the first rows of
/// `file` to `surflet sample NAME`, and checks the output against `value`
/// (and, with `--gradient`, the derivative columns after it) bit for bit.
fn check_golden(name: &str, file: &str, gradient: bool) {
    let g = golden(file);
    let value = g
        .header
        .iter()
        .position(|h| h == "value")
        .unwrap_or_else(|| panic!("{file}: no value column"));
    let input: String = g.rows.iter().map(|r| r[..value].join(",") + "\n").collect();
    let want: Vec<Vec<f64>> = g
        .rows
        .iter()
        .map(|r| {
            let outputs = if gradient {
                &r[value..]
            } else {
                &r[value..=value]
            };
            outputs.iter().map(|s| s.parse::<f64>().unwrap()).collect()
        })
        .collect();
    let args: &[&str] = if gradient {
        &[name, "--gradient"]
    } else {
        &[name]
    };
    let out = sample_ok(args, &input);
    let context = format!("surflet sample {} < {file}", args.join(" "));
    assert_rows_bits(&context, &parse_output(&out), &want);
}

#[test]
fn perlin2002_anchor_value() {
    surflet()
        .args(["sample", "perlin2002-java"])
        .write_stdin("3.14,42,7\n")
        .assert()
        .success()
        .stdout("0.13691995878400012\n")
        .stderr("");
}

#[test]
fn golden_perlin2002_java() {
    check_golden("perlin2002-java", "improved_perlin_3d.csv", false);
}

#[test]
fn golden_classic2005_java() {
    check_golden("classic2005-java", "gustavson_classic_3d.csv", false);
}

#[test]
fn golden_simplex2012_java() {
    for d in 2..=4 {
        check_golden(
            "simplex2012-java",
            &format!("gustavson_simplex_{d}d.csv"),
            false,
        );
    }
}

#[test]
fn golden_simplex2005_java() {
    for d in 2..=4 {
        check_golden(
            "simplex2005-java",
            &format!("gustavson_simplex2005_{d}d.csv"),
            false,
        );
    }
}

#[test]
fn golden_noise1234() {
    for d in 1..=4 {
        check_golden("noise1234", &format!("noise1234_{d}d.csv"), false);
    }
}

#[test]
fn golden_pnoise1234() {
    for d in 1..=4 {
        check_golden("pnoise1234", &format!("pnoise1234_{d}d_period.csv"), false);
    }
}

#[test]
fn golden_snoise1234() {
    for d in 1..=4 {
        check_golden("snoise1234", &format!("snoise1234_{d}d.csv"), false);
    }
}

#[test]
fn golden_sdnoise1234() {
    for d in 1..=4 {
        let file = format!("sdnoise_{d}d.csv");
        check_golden("sdnoise1234", &file, false);
        check_golden("sdnoise1234", &file, true);
    }
}

#[test]
fn golden_srdnoise23() {
    for d in 2..=3 {
        let file = format!("srdnoise_{d}d.csv");
        check_golden("srdnoise23", &file, false);
        check_golden("srdnoise23", &file, true);
    }
}

/// The whole Java file, special rows included: exercises Java's number
/// formatting (`1.0000000000000000e-09`, `-0.0000000000000000`) and huge
/// coordinates on the way in.
#[test]
fn golden_perlin2002_java_every_row() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../surflet/tests/golden/improved_perlin_3d.csv");
    let text = std::fs::read_to_string(path).unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let input: String = rows.iter().map(|r| r[..3].join(",") + "\n").collect();
    let want: Vec<Vec<f64>> = rows.iter().map(|r| vec![r[3].parse().unwrap()]).collect();
    let out = sample_ok(&["perlin2002-java"], &input);
    assert_rows_bits("improved_perlin_3d.csv", &parse_output(&out), &want);
}

// ---------------------------------------------------------------------------
// The OpenSimplex2 ports against the golden CSVs.

/// The noise name and `--variant` of each OpenSimplex2 golden file, in the
/// order of [`opensimplex2_file`].
const OPENSIMPLEX2_FILES: [(&str, &str); 20] = {
    const VARIANTS: [&str; 10] = [
        "standard",
        "improve-x",
        "improve-xy",
        "improve-xz",
        "fallback",
        "improve-xyz-improve-xy",
        "improve-xyz-improve-xz",
        "improve-xyz",
        "improve-xy-improve-zw",
        "fallback",
    ];
    const NAMES: [&str; 2] = ["opensimplex2-java", "opensimplex2s-java"];
    let mut t = [("", ""); 20];
    let mut i = 0;
    while i < 20 {
        t[i] = (NAMES[i / 10], VARIANTS[i % 10]);
        i += 1;
    }
    t
};

/// The golden file of entry `i` of [`OPENSIMPLEX2_FILES`]: the Java method
/// that `--variant` names.
fn opensimplex2_file(i: usize) -> String {
    const FNS: [&str; 10] = [
        "noise2",
        "noise2_improvex",
        "noise3_improvexy",
        "noise3_improvexz",
        "noise3_fallback",
        "noise4_improvexyz_improvexy",
        "noise4_improvexyz_improvexz",
        "noise4_improvexyz",
        "noise4_improvexy_improvezw",
        "noise4_fallback",
    ];
    let port = ["opensimplex2", "opensimplex2s"][i / 10];
    format!("{port}_{}.csv", FNS[i % 10])
}

/// The rows of an OpenSimplex2 golden file, as text: seed, coordinates,
/// value, bits.
fn opensimplex2_rows(file: &str) -> Vec<Vec<String>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../surflet/tests/golden/opensimplex2")
        .join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(',').map(|f| f.trim().to_string()).collect())
        .collect()
}

/// Every row of every OpenSimplex2 file through the binary, one run per
/// (file, seed): the Java seeds as the file prints them (−2^63 and 2^63 − 1
/// included) and the coordinates as text. Each output line must be the
/// shortest decimal of the Java `float`, and so have its bits.
#[test]
fn golden_opensimplex2_every_row() {
    for (i, &(name, variant)) in OPENSIMPLEX2_FILES.iter().enumerate() {
        let file = opensimplex2_file(i);
        let rows = opensimplex2_rows(&file);
        let mut seeds: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
        seeds.sort_unstable();
        seeds.dedup();
        assert_eq!(seeds.len(), 8, "{file}");
        for seed in seeds {
            let mine: Vec<&Vec<String>> = rows.iter().filter(|r| r[0] == seed).collect();
            let n = mine[0].len();
            let input: String = mine.iter().map(|r| r[1..n - 2].join(",") + "\n").collect();
            let args = [name, "--variant", variant, "--seed", seed];
            let out = sample_ok(&args, &input);
            let lines: Vec<&str> = out.lines().collect();
            assert_eq!(lines.len(), mine.len(), "{file} seed {seed}: line count");
            for (line, row) in lines.iter().zip(&mine) {
                let bits = u32::from_str_radix(&row[n - 1], 16).unwrap();
                let want = f32::from_bits(bits);
                assert_eq!(
                    *line,
                    format!("{want:?}"),
                    "surflet sample {} < {file}, row {row:?}",
                    args.join(" ")
                );
                let got: f32 = line.parse().unwrap();
                assert_eq!(got.to_bits(), bits, "{file} row {row:?}");
            }
        }
    }
}

/// Without --variant, 2D is `standard`, 3D `improve-xy` and 4D
/// `improve-xyz`, as --help says; without --seed the seed is 0.
#[test]
fn opensimplex2_defaults() {
    for name in ["opensimplex2-java", "opensimplex2s-java"] {
        for (input, variant) in [
            ("0.5,0.25\n-3,7.5\n", "standard"),
            ("0.5,0.25,1\n-3,7.5,2\n", "improve-xy"),
            ("0.5,0.25,1,2\n-3,7.5,2,-1\n", "improve-xyz"),
        ] {
            let plain = sample_ok(&[name], input);
            assert_eq!(
                plain,
                sample_ok(&[name, "--variant", variant, "--seed", "0"], input),
                "{name} {variant}"
            );
        }
    }
}

/// `--seed` is taken modulo 2^64 as a Java `long`: each seed and its
/// counterpart 2^64 away, in every spelling, give the same output, and
/// different seeds different output.
#[test]
fn opensimplex2_seed_is_a_java_long() {
    let input = "0.5,0.25\n10.5,-3.25\n";
    for name in ["opensimplex2-java", "opensimplex2s-java"] {
        let run = |seed: &str| sample_ok(&[name, "--seed", seed], input);
        assert_eq!(run("-1"), run("18446744073709551615"));
        assert_eq!(run("-1"), run("0xffffffffffffffff"));
        assert_eq!(
            run("9223372036854775808"),
            run("-9223372036854775808"),
            "2^63 is the Java long -2^63"
        );
        assert_eq!(run("1"), sample_ok(&[name, "-s", "1"], input));
        assert_ne!(run("0"), run("1"));
        assert_ne!(run("9223372036854775807"), run("-9223372036854775808"));
    }
    // Past the range is a usage error, as for the family.
    for seed in ["18446744073709551616", "-9223372036854775809", "1.5"] {
        let (stdout, stderr) = fails(&["sample", "opensimplex2-java", "--seed", seed], "1,2\n", 2);
        assert!(stdout.is_empty());
        assert!(stderr.contains("seed"), "{seed}: {stderr}");
    }
}

/// A variant is a function of one dimension (`fallback` of two): asking
/// for it on a line of another dimension is bad input (exit 1) naming the
/// line and listing the variants that exist there.
#[test]
fn opensimplex2_variant_of_another_dimension_is_an_error() {
    for (name, variant, input, dims, listed) in [
        (
            "opensimplex2-java",
            "improve-x",
            "1,2,3\n",
            3,
            "improve-xy, improve-xz, fallback",
        ),
        (
            "opensimplex2s-java",
            "fallback",
            "\n1,2\n",
            2,
            "standard, improve-x",
        ),
        (
            "opensimplex2s-java",
            "improve-xy",
            "1,2,3,4\n",
            4,
            "improve-xyz, improve-xyz-improve-xy, improve-xyz-improve-xz, \
             improve-xy-improve-zw, fallback",
        ),
        (
            "opensimplex2-java",
            "improve-xyz",
            "1,2\n",
            2,
            "standard, improve-x",
        ),
    ] {
        let (stdout, stderr) = fails(&["sample", name, "--variant", variant], input, 1);
        assert!(stdout.is_empty());
        let line = if input.starts_with('\n') { 2 } else { 1 };
        assert!(
            stderr.starts_with(&format!(
                "error: line {line}: {name} has no {dims}D variant {variant}; in {dims}D \
                 --variant is one of {listed}"
            )),
            "{stderr}"
        );
    }
    // `fallback` exists in 3D and 4D, and is not the same function there as
    // any default.
    let three = sample_ok(&["opensimplex2-java", "--variant", "fallback"], "1,2,3.5\n");
    assert_ne!(three, sample_ok(&["opensimplex2-java"], "1,2,3.5\n"));
    sample_ok(&["opensimplex2-java", "--variant", "fallback"], "1,2,3,4\n");
    // Columns the ports lack at all: the usual message.
    let (_, stderr) = fails(&["sample", "opensimplex2-java"], "1,2,3,4,5\n", 1);
    assert!(
        stderr.contains("line 1: opensimplex2-java takes 2, 3 or 4 columns"),
        "{stderr}"
    );
}

/// Options the OpenSimplex2 ports do not take, and `--variant` where it
/// does not apply, are usage errors that name the flag; nothing is read.
#[test]
fn opensimplex2_option_errors() {
    for (args, needles) in [
        (
            &["opensimplex2-java", "--gradient"][..],
            &["opensimplex2-java has no derivatives", "--gradient"][..],
        ),
        (
            &["opensimplex2s-java", "--gradient", "--variant", "improve-x"],
            &["opensimplex2s-java has no derivatives"],
        ),
        (
            &["opensimplex2-java", "--period", "4,4"],
            &["--period", "opensimplex2-java"],
        ),
        (
            &["opensimplex2s-java", "--f32"],
            &["--f32", "opensimplex2s-java"],
        ),
        (
            &["opensimplex2-java", "--octaves", "3"],
            &["--octaves", "opensimplex2-java"],
        ),
        (
            &["perlin2002-java", "--variant", "fallback"],
            &["--variant", "perlin2002-java", "no variants"],
        ),
        (
            &["simplex", "--variant", "standard"],
            &["--variant", "simplex"],
        ),
        (&["curl2", "--variant", "standard"], &["--variant", "curl2"]),
        (
            &["opensimplex2-java", "--variant", "improve-yz"],
            &["improve-yz", "improve-xy-improve-zw"],
        ),
        (
            &["simplex2012-java", "--seed", "3"],
            &["--seed", "simplex2012-java", "opensimplex2-java"],
        ),
    ] {
        let (stdout, stderr) = fails(&[&["sample"], args].concat(), "1,2\n", 2);
        assert!(stdout.is_empty(), "{args:?}");
        assert!(!stderr.contains("line 1"), "{args:?}: {stderr}");
        for needle in needles {
            assert!(stderr.contains(needle), "{args:?}: {needle:?} in {stderr}");
        }
    }
}

// ---------------------------------------------------------------------------
// The family against the library.

/// Deterministic coordinate texts: random decimals of several magnitudes plus
/// special values, as a script might write them.
fn coordinate_texts(dims: usize, count: usize, mut state: u64) -> Vec<Vec<String>> {
    let mut next = move || {
        // SplitMix64.
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let specials = [
        "0", "-0", "1", "-1", "0.5", "2.5", "1e-9", "255.999", "-256", "65536.25", "1e6",
    ];
    let mut rows: Vec<Vec<String>> = (0..count)
        .map(|i| {
            (0..dims)
                .map(|_| {
                    let u = (next() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
                    match i % 4 {
                        0 => format!("{:?}", -300.0 + 600.0 * u),
                        1 => format!("{:?}", -2.0 + 4.0 * u),
                        2 => format!("{:.3}", -50.0 + 100.0 * u),
                        _ => specials[(next() % specials.len() as u64) as usize].to_string(),
                    }
                })
                .collect()
        })
        .collect();
    rows.push(vec!["NaN".to_string(); dims]);
    rows.push(vec!["inf".to_string(); dims]);
    rows
}

/// What the library gives for the points in `texts`, parsed as the CLI
/// must parse them.
fn family_expected<const D: usize>(
    kind: NoiseKind,
    seed: u64,
    period: Option<&[u32]>,
    f32: bool,
    gradient: bool,
    texts: &[Vec<String>],
) -> Vec<Vec<f64>> {
    let mut noise = Noise::<D>::new(kind, seed);
    if let Some(p) = period {
        noise = noise.with_period(p.try_into().unwrap()).unwrap();
    }
    texts
        .iter()
        .map(|row| {
            let (value, grad): (f64, Vec<f64>) = if f32 {
                let p: [f32; D] = std::array::from_fn(|a| row[a].parse::<f32>().unwrap());
                let s = noise.sample(p);
                (
                    s.value.into(),
                    s.gradient.iter().map(|&g| g.into()).collect(),
                )
            } else {
                let p: [f64; D] = std::array::from_fn(|a| row[a].parse::<f64>().unwrap());
                let s = noise.sample(p);
                (s.value, s.gradient.to_vec())
            };
            let mut out = vec![value];
            if gradient {
                out.extend(grad);
            }
            out
        })
        .collect()
}

fn check_family(
    kind: NoiseKind,
    dims: usize,
    seed: Option<u64>,
    period: Option<&[u32]>,
    f32: bool,
    gradient: bool,
) {
    let texts = coordinate_texts(dims, 40, 0xC0FFEE + dims as u64);
    let input: String = texts.iter().map(|r| r.join(",") + "\n").collect();
    let mut args = vec![kind.name().to_string()];
    if let Some(s) = seed {
        args.push("--seed".into());
        args.push(s.to_string());
    }
    if let Some(p) = period {
        args.push(format!(
            "--period={}",
            p.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
        ));
    }
    if f32 {
        args.push("--f32".into());
    }
    if gradient {
        args.push("--gradient".into());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let seed = seed.unwrap_or(0);
    let want = match dims {
        1 => family_expected::<1>(kind, seed, period, f32, gradient, &texts),
        2 => family_expected::<2>(kind, seed, period, f32, gradient, &texts),
        3 => family_expected::<3>(kind, seed, period, f32, gradient, &texts),
        4 => family_expected::<4>(kind, seed, period, f32, gradient, &texts),
        _ => unreachable!(),
    };
    let out = sample_ok(&args, &input);
    assert_rows_bits(
        &format!("surflet sample {}", args.join(" ")),
        &parse_output(&out),
        &want,
    );
}

#[test]
fn family_matches_library() {
    const PERIODS: [u32; 4] = [8, 6, 4, 10];
    for kind in NoiseKind::ALL {
        for dims in 1..=4 {
            for f32 in [false, true] {
                check_family(kind, dims, None, None, f32, false);
                check_family(kind, dims, Some(0xDEAD_BEEF_1234), None, f32, true);
                if kind.periodic_dims().contains(&dims) {
                    check_family(kind, dims, Some(7), Some(&PERIODS[..dims]), f32, true);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// value, perlin and simplex in 5D-8D: the library's N-D noise.

/// `surflet sample KIND` on `dims`-column points against `NoiseNd<D>`, bit
/// for bit, in f64 and with --f32, with and without --gradient.
fn check_nd<const D: usize>(kind: surflet::nd::NdKind) {
    use surflet::nd::NoiseNd;
    let seed = 0xFEED_u64;
    let noise = NoiseNd::<D>::new(kind, seed);
    let points: Vec<[f64; D]> = (0..7)
        .map(|i| core::array::from_fn(|a| (i * 7 + a * 3) as f64 * 0.37 - 5.0))
        .chain([[0.0; D], [1e12; D]])
        .collect();
    let input: String = points
        .iter()
        .map(|p| {
            p.iter()
                .map(|v| format!("{v:?}"))
                .collect::<Vec<_>>()
                .join(",")
                + "\n"
        })
        .collect();
    let seed_arg = seed.to_string();
    for f32 in [false, true] {
        for gradient in [false, true] {
            let mut args = vec![kind.name(), "--seed", &seed_arg];
            if f32 {
                args.push("--f32");
            }
            if gradient {
                args.push("--gradient");
            }
            let want: Vec<Vec<f64>> = points
                .iter()
                .map(|p| {
                    let (v, g): (f64, Vec<f64>) = if f32 {
                        let s = noise.sample(p.map(|x| x as f32));
                        (
                            s.value.into(),
                            s.gradient.iter().map(|&x| x.into()).collect(),
                        )
                    } else {
                        let s = noise.sample(*p);
                        (s.value, s.gradient.to_vec())
                    };
                    let mut row = vec![v];
                    if gradient {
                        row.extend(g);
                    }
                    row
                })
                .collect();
            let (out, stderr) = sample_with_stderr(&args, &input);
            // `simplex` names the N-D simplex noise it switched to; value
            // and Perlin are the family's functions in every D.
            if kind == surflet::nd::NdKind::Simplex {
                assert_eq!(
                    stderr,
                    format!(
                        "note: {D} columns: simplex in 5D-8D is the N-D simplex noise \
                         (surflet::nd::NdKind::Simplex), a different function from simplex in \
                         1D-4D (see N-D NOISE in --help)\n"
                    )
                );
            } else {
                assert_eq!(stderr, "", "{kind} {D}D");
            }
            let got = parse_output(&out);
            assert_rows_bits(&format!("{kind} {D}D f32={f32}"), &got, &want);
            assert!(
                got.iter()
                    .all(|r| r.len() == if gradient { D + 1 } else { 1 })
            );
        }
    }
}

#[test]
fn value_perlin_simplex_take_5_to_8_columns() {
    for kind in surflet::nd::NdKind::ALL {
        check_nd::<5>(kind);
        check_nd::<6>(kind);
        check_nd::<7>(kind);
        check_nd::<8>(kind);
    }
}

#[test]
fn one_to_four_columns_keep_the_family_noise() {
    // N-D simplex noise differs from the family's in 1D-4D; sample must keep
    // the family's (the interface is stable).
    let out = sample_ok(&["simplex", "--seed", "3"], "0.3,0.7,0.1,0.9\n");
    let want = Noise::<4>::new(NoiseKind::Simplex, 3).get([0.3, 0.7, 0.1, 0.9]);
    assert_eq!(out, format!("{want:?}\n"));
}

#[test]
fn n_d_errors() {
    // A period fixes D at 1 to 4.
    let (_, stderr) = fails(&["sample", "perlin", "--period", "4,4"], "1,2,3,4,5\n", 1);
    assert!(
        stderr.contains("line 1: expected 2 columns (one per --period value), found 5"),
        "{stderr}"
    );
    let (_, stderr) = fails(&["sample", "perlin", "--period", "4,4,4,4,4"], "", 2);
    assert!(stderr.contains("--period takes 1 to 4 values"), "{stderr}");
    // Noise stacks are 1D-4D.
    let (stdout, stderr) = fails(&["sample", "simplex", "--octaves", "3"], "1,2,3,4,5,6\n", 1);
    assert!(stdout.is_empty());
    assert!(
        stderr.contains(
            "line 1: simplex takes 1, 2, 3 or 4 columns (1D to 4D), found 6; noise stacks are \
             1D-4D, plain value, perlin and simplex take up to 8 columns"
        ),
        "{stderr}"
    );
    // A later line must keep the first line's count.
    let (stdout, stderr) = fails(&["sample", "value"], "1,2,3,4,5\n1,2,3,4,5,6\n", 1);
    assert_eq!(stdout.lines().count(), 1);
    assert!(
        stderr.contains("line 2: expected 5 columns (as on line 1), found 6"),
        "{stderr}"
    );
    // Non-finite input gives NaN, as in 1D-4D.
    let out = sample_ok(&["value", "--gradient"], "NaN,0,0,0,0,0\n");
    assert_eq!(out, "NaN,NaN,NaN,NaN,NaN,NaN,NaN\n");
    let (stdout, stderr) = sample_with_stderr(&["simplex", "--gradient"], "NaN,0,0,0,0,0\n");
    assert_eq!(stdout, "NaN,NaN,NaN,NaN,NaN,NaN,NaN\n");
    assert!(
        stderr.starts_with("note: 6 columns: simplex in 5D-8D"),
        "{stderr}"
    );
}

#[test]
fn help_documents_n_d_noise() {
    let out = surflet().args(["sample", "--help"]).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "N-D NOISE",
        "5 to 8 columns",
        "value              1D-8D",
        "perlin             1D-8D",
        "simplex            1D-8D",
        "simplex-value      1D-4D",
    ] {
        assert!(
            help.contains(needle),
            "{needle:?} missing from sample --help"
        );
    }
}

#[test]
fn family_default_seed_is_zero() {
    let input = "0.3,0.7\n-1.25,8.5\n";
    assert_eq!(
        sample_ok(&["simplex"], input),
        sample_ok(&["simplex", "--seed", "0"], input)
    );
    assert_ne!(
        sample_ok(&["simplex"], input),
        sample_ok(&["simplex", "--seed", "1"], input)
    );
}

#[test]
fn period_accepts_spaces_and_separate_form() {
    let input = "0.25,0.75\n";
    let a = sample_ok(&["perlin", "--period", "8, 6"], input);
    let b = sample_ok(&["perlin", "--period=8,6"], input);
    assert_eq!(a, b);
    // Tiling is visible in the output (the offsets are exact in f64).
    let c = sample_ok(&["perlin", "--period", "8,6"], "8.25,-5.25\n");
    assert_eq!(a, c);
}

// ---------------------------------------------------------------------------
// Input format.

#[test]
fn separators_are_commas_and_or_whitespace() {
    let want = sample_ok(&["perlin2002-java"], "1.5,2.25,-3.75\n");
    for line in [
        "1.5 2.25 -3.75",
        "1.5, 2.25, -3.75",
        "1.5\t2.25\t-3.75",
        "  1.5 ,2.25\t,  -3.75  ",
        "1.5,2.25,-3.75\r",
        "1.5 \t 2.25,\t-3.75",
    ] {
        assert_eq!(
            sample_ok(&["perlin2002-java"], &format!("{line}\n")),
            want,
            "{line:?}"
        );
    }
    // The last line needs no newline.
    assert_eq!(sample_ok(&["perlin2002-java"], "1.5 2.25 -3.75"), want);
}

#[test]
fn blank_lines_are_skipped() {
    let one = sample_ok(&["perlin2002-java"], "1.5,2.25,-3.75\n");
    let out = sample_ok(
        &["perlin2002-java"],
        "\n   \n1.5,2.25,-3.75\n\n\t\r\n1.5 2.25 -3.75\n\n",
    );
    assert_eq!(out, one.repeat(2));
}

#[test]
fn empty_input_gives_empty_output() {
    for input in ["", "\n\n  \n"] {
        for name in ["perlin2002-java", "pnoise1234", "simplex"] {
            surflet()
                .args(["sample", name])
                .write_stdin(input)
                .assert()
                .success()
                .stdout("")
                .stderr("");
        }
    }
}

#[test]
fn special_values_print_as_nan_and_inf() {
    // Family noises give NaN for non-finite input.
    assert_eq!(
        sample_ok(&["perlin", "--gradient"], "NaN,1\ninf,1\n"),
        "NaN,NaN,NaN\nNaN,NaN,NaN\n"
    );
}

// ---------------------------------------------------------------------------
// Errors.

#[test]
fn wrong_column_count_names_the_line() {
    let (stdout, stderr) = fails(
        &["sample", "perlin2002-java"],
        "1,2,3\n4,5,6\n7,8\n9,10,11\n",
        1,
    );
    assert_eq!(
        stderr,
        "error: line 3: expected 3 columns (as on line 1), found 2\n"
    );
    // Lines before the bad one were answered; none after it.
    assert_eq!(stdout.lines().count(), 2);

    // Blank lines count in line numbers.
    let (_, stderr) = fails(&["sample", "value"], "\n1,2\n\n1,2,3\n", 1);
    assert_eq!(
        stderr,
        "error: line 4: expected 2 columns (as on line 2), found 3\n"
    );

    // Too many columns, beyond the most any noise takes.
    let (_, stderr) = fails(&["sample", "value"], "1\n1 2 3 4 5 6 7 8 9 10\n", 1);
    assert_eq!(
        stderr,
        "error: line 2: expected 1 column (as on line 1), found 10\n"
    );
}

#[test]
fn unparsable_field_names_line_and_field() {
    let (_, stderr) = fails(&["sample", "perlin2002-java"], "1,2,3\n1,abc,3\n", 1);
    assert_eq!(stderr, "error: line 2: field 2 (\"abc\") is not a number\n");

    let (_, stderr) = fails(&["sample", "value"], "1,2\n1,,2\n", 1);
    assert_eq!(
        stderr,
        "error: line 2: expected 2 columns (as on line 1), found 3\n"
    );

    let (_, stderr) = fails(&["sample", "noise1234"], "1,2,\n", 1);
    assert_eq!(stderr, "error: line 1: field 3 is empty\n");

    let (_, stderr) = fails(&["sample", "simplex", "--f32"], "0.5 1e400x\n", 1);
    assert_eq!(
        stderr,
        "error: line 1: field 2 (\"1e400x\") is not a number\n"
    );

    let (_, stderr) = fails(&["sample", "simplex"], "0.5 1\n\u{2212}1 2\n", 1);
    assert!(stderr.starts_with("error: line 2: field 1 ("), "{stderr}");
}

#[test]
fn invalid_utf8_names_the_line() {
    let out = surflet()
        .args(["sample", "simplex"])
        .write_stdin(b"1,2\n\xff,2\n".as_slice())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: line 2: not valid UTF-8\n"
    );
}

#[test]
fn unsupported_dimension_is_an_error() {
    let (stdout, stderr) = fails(&["sample", "perlin2002-java"], "1,2\n", 1);
    assert!(stdout.is_empty());
    assert!(
        stderr.starts_with("error: line 1: perlin2002-java takes 3 columns"),
        "{stderr}"
    );

    let (_, stderr) = fails(&["sample", "simplex2012-java"], "\n0.5\n", 1);
    assert!(
        stderr.starts_with("error: line 2: simplex2012-java takes 2, 3 or 4 columns"),
        "{stderr}"
    );

    let (_, stderr) = fails(&["sample", "srdnoise23"], "1,2\n", 1);
    assert!(
        stderr.contains("line 1: srdnoise23 takes 3 or 4 columns"),
        "{stderr}"
    );

    let (_, stderr) = fails(&["sample", "pnoise1234"], "1,2,3\n", 1);
    assert!(
        stderr.contains("line 1: pnoise1234 takes 2, 4, 6 or 8 columns"),
        "{stderr}"
    );

    let (_, stderr) = fails(&["sample", "simplex-value"], "1,2,3,4,5\n", 1);
    assert!(
        stderr.contains("line 1: simplex-value takes 1, 2, 3 or 4 columns (1D to 4D)"),
        "{stderr}"
    );

    let (_, stderr) = fails(&["sample", "value"], "1,2,3,4,5,6,7,8,9\n", 1);
    assert!(
        stderr.contains("line 1: value takes 1, 2, 3, 4, 5, 6, 7 or 8 columns (1D to 8D)"),
        "{stderr}"
    );
}

#[test]
fn unknown_name_lists_the_names() {
    let (_, stderr) = fails(&["sample", "perlin2002"], "", 2);
    for name in [
        "perlin2002-java",
        "simplex2012-java",
        "simplex2005-java",
        "classic2005-java",
        "noise1234",
        "pnoise1234",
        "snoise1234",
        "sdnoise1234",
        "srdnoise23",
        "opensimplex2-java",
        "opensimplex2s-java",
        "value",
        "perlin",
        "simplex",
        "simplex-value",
    ] {
        assert!(stderr.contains(name), "{name} missing from: {stderr}");
    }
}

#[test]
fn usage_errors_exit_2() {
    surflet().assert().code(2);
    surflet().arg("sample").assert().code(2);
    surflet()
        .args(["sample", "value", "--bogus"])
        .assert()
        .code(2);
    // Negative seeds are seeds now; past -2^63 they are out of range.
    surflet()
        .args(["sample", "value", "--seed", "-9223372036854775809"])
        .assert()
        .code(2);
    surflet()
        .args(["sample", "value", "--period", "4,x"])
        .assert()
        .code(2);
}

#[test]
fn inapplicable_flags_are_usage_errors() {
    for (args, flag) in [
        (&["perlin2002-java", "--seed", "1"][..], "--seed"),
        (&["noise1234", "--seed", "0"][..], "--seed"),
        (&["snoise1234", "--period", "4"][..], "--period"),
        (&["classic2005-java", "--f32"][..], "--f32"),
        (&["noise1234", "--gradient"][..], "--gradient"),
        (&["perlin2002-java", "--gradient"][..], "--gradient"),
        (&["pnoise1234", "--gradient"][..], "--gradient"),
    ] {
        let (stdout, stderr) = fails(&[&["sample"], args].concat(), "1,2,3\n", 2);
        assert!(stdout.is_empty());
        assert!(stderr.starts_with("error: "), "{stderr}");
        assert!(stderr.contains(flag), "{args:?}: {stderr}");
        assert!(stderr.contains(args[0]), "{args:?}: {stderr}");
    }
}

#[test]
fn pnoise1234_periods_must_be_nonzero_integers() {
    // The bad line comes first so that this test does not depend on the port.
    let (stdout, stderr) = fails(&["sample", "pnoise1234"], "\n1.5,0\n", 1);
    assert!(stdout.is_empty());
    assert_eq!(
        stderr,
        "error: line 2: field 2 is a period of 0 (periods must be non-zero)\n"
    );
    let (_, stderr) = fails(&["sample", "pnoise1234"], "1.5,2.5,4,2.5\n", 1);
    assert_eq!(
        stderr,
        "error: line 1: field 4 (\"2.5\") is not an integer period\n"
    );
    let (_, stderr) = fails(&["sample", "pnoise1234"], "1.5,3000000000\n", 1);
    assert_eq!(
        stderr,
        "error: line 1: field 2 (\"3000000000\") is out of range for a period (i32)\n"
    );
}

#[test]
fn pnoise1234_negative_period_is_its_absolute_value() {
    // C's `%` ignores the divisor's sign.
    assert_eq!(
        sample_ok(&["pnoise1234"], "1.5,-7\n-5.5,-1\n"),
        sample_ok(&["pnoise1234"], "1.5,7\n-5.5,1\n")
    );
}

#[test]
fn family_period_errors_surface_the_library_message() {
    let odd_y = Noise::<2>::new(NoiseKind::Simplex, 0)
        .with_period([4, 7])
        .unwrap_err()
        .to_string();
    let (stdout, stderr) = fails(&["sample", "simplex", "--period", "4,7"], "1,2\n", 2);
    assert!(stdout.is_empty());
    assert!(stderr.starts_with(&format!("error: {odd_y}\n")), "{stderr}");

    let zero = Noise::<1>::new(NoiseKind::Perlin, 0)
        .with_period([0])
        .unwrap_err()
        .to_string();
    let (_, stderr) = fails(&["sample", "perlin", "--period", "0"], "", 2);
    assert!(stderr.starts_with(&format!("error: {zero}\n")), "{stderr}");

    let four_d = Noise::<4>::new(NoiseKind::SimplexValue, 0)
        .with_period([4, 4, 4, 4])
        .unwrap_err()
        .to_string();
    let (_, stderr) = fails(&["sample", "simplex-value", "--period", "4,4,4,4"], "", 2);
    assert!(
        stderr.starts_with(&format!("error: {four_d}\n")),
        "{stderr}"
    );

    let (_, stderr) = fails(&["sample", "value", "--period", "4,4,4,4,4"], "", 2);
    assert!(stderr.contains("1 to 4 values"), "{stderr}");

    // The period fixes D; a line of another dimension is bad input.
    let (_, stderr) = fails(&["sample", "value", "--period", "4,4"], "1,2,3\n", 1);
    assert_eq!(
        stderr,
        "error: line 1: expected 2 columns (one per --period value), found 3\n"
    );
}

// ---------------------------------------------------------------------------
// Help.

#[test]
fn help_documents_the_contract() {
    let out = surflet().args(["sample", "--help"]).output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "Blank lines",
        "skipped",
        "--gradient",
        "--seed",
        "--period",
        "--f32",
        "D integer periods",
        "angle t",
        "already been",
        "EXIT STATUS",
        "perlin2002-java    3D",
        "srdnoise23         2D-3D",
        "simplex-value      1D-4D",
        "opensimplex2-java  2D-4D",
        "opensimplex2s-java 2D-4D",
        "--variant",
        "OPENSIMPLEX2 VARIANTS",
        "improve-xyz-improve-xz   noise4_ImproveXYZ_ImproveXZ",
        "noise2 (default)",
        "noise3_ImproveXY (default)",
        "noise4_ImproveXYZ (default)",
        "shortest decimal that\n  parses back to it as an f32",
    ] {
        assert!(
            help.contains(needle),
            "{needle:?} missing from sample --help"
        );
    }
    let out = surflet().arg("--help").output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(
        help.contains("sample") && help.contains("EXIT STATUS"),
        "{help}"
    );
}

// ---------------------------------------------------------------------------
// Streaming and volume.

/// Kills the child if a test fails while it is running.
struct Reaper(Child);

impl Drop for Reaper {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn wait_with_timeout(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(start.elapsed() < limit, "surflet did not exit in {limit:?}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn answers_each_line_while_input_stays_open() {
    let child = StdCommand::new(BIN)
        .args(["sample", "perlin2002-java"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut child = Reaper(child);
    let mut stdin = child.0.stdin.take().unwrap();
    let stdout = child.0.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let timeout = Duration::from_secs(20);
    stdin.write_all(b"3.14,42,7\n").unwrap();
    stdin.flush().unwrap();
    assert_eq!(
        rx.recv_timeout(timeout)
            .expect("no answer while stdin is open"),
        "0.13691995878400012"
    );
    // A second round trip on the same open pipe.
    stdin.write_all(b"1 2 3\n").unwrap();
    stdin.flush().unwrap();
    assert_eq!(rx.recv_timeout(timeout).unwrap(), "0.0");
    drop(stdin);
    let status = wait_with_timeout(&mut child.0, timeout);
    assert!(status.success(), "{status}");
}

#[test]
fn ten_million_lines_stream_in_flat_memory() {
    const LINES: usize = 10_000_000;
    const EARLY: usize = LINES / 10;
    let point = |i: usize| [i as f64 * 0.013, -(i as f64) * 0.007];
    let child = StdCommand::new(BIN)
        .args(["sample", "value", "--seed", "9"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut child = Reaper(child);
    let pid = child.0.id();
    let mut stdin = child.0.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let mut buf = String::with_capacity(1 << 17);
        for i in 0..LINES {
            let [x, y] = point(i);
            buf += &format!("{x},{y}\n");
            if buf.len() > 1 << 16 {
                stdin.write_all(buf.as_bytes()).unwrap();
                buf.clear();
            }
        }
        stdin.write_all(buf.as_bytes()).unwrap();
    });
    let read = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = read.clone();
    let stdout = child.0.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut last = String::new();
        for line in BufReader::new(stdout).lines() {
            last = line.unwrap();
            counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        last
    });
    // The peak resident memory (VmHWM, which only grows) once 10⁶ lines
    // are answered, and the last reading before the process ends.
    let hwm = || -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    let (mut early, mut late) = (None, None);
    while !reader.is_finished() {
        if let Some(kib) = hwm() {
            if early.is_none() && read.load(std::sync::atomic::Ordering::Relaxed) >= EARLY {
                early = Some(kib);
            }
            late = Some(kib);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    writer.join().unwrap();
    let last = reader.join().unwrap();
    let status = wait_with_timeout(&mut child.0, Duration::from_secs(20));
    assert!(status.success(), "{status}");
    assert_eq!(read.load(std::sync::atomic::Ordering::Relaxed), LINES);
    let noise = Noise::<2>::new(NoiseKind::Value, 9);
    assert_eq!(last.parse::<f64>().unwrap(), noise.get(point(LINES - 1)));
    let (early, late) = (early.expect("no reading at 10^6 lines"), late.unwrap());
    println!("peak resident memory: {early} KiB at 10^6 lines, {late} KiB at 10^7");
    assert!(
        late <= early + 8 * 1024,
        "memory grew from {early} KiB at 10^6 lines to {late} KiB at 10^7"
    );
}

#[test]
fn closed_output_pipe_exits_quietly() {
    let child = StdCommand::new(BIN)
        .args(["sample", "value"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut child = Reaper(child);
    let mut stdin = child.0.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // Far more than the pipe buffers hold; fails once surflet exits.
        let line = b"0.25\n".repeat(1000);
        for _ in 0..2000 {
            if stdin.write_all(&line).is_err() {
                break;
            }
        }
    });
    let mut stdout = BufReader::new(child.0.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(!first.is_empty());
    drop(stdout);
    let status = wait_with_timeout(&mut child.0, Duration::from_secs(30));
    writer.join().unwrap();
    let mut stderr = String::new();
    child
        .0
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(stderr.is_empty(), "{stderr}");
    assert!(status.success(), "{status}");
}

#[test]
fn help_exits_zero_and_version_works() {
    surflet()
        .args(["sample", "-h"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "NAME is one of: perlin2002-java (3D)",
        ));
    surflet()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("surflet "));
}
