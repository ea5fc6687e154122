//! Cellular noise on the command line: `--distance`, `--return` and
//! `--jitter` in `sample` and `render`, the config keys, and the errors.
//! Values are checked bit for bit against the library.

use std::fs;

use crate::common::*;
use surflet::{Cellular, CellularDistance, CellularReturn, Noise, NoiseKind, Stack};
use tempfile::TempDir;

fn cellular<const D: usize>(seed: u64, d: CellularDistance, r: CellularReturn, j: f64) -> Noise<D> {
    Noise::new(NoiseKind::Cellular, seed)
        .with_cellular(Cellular::new(d, r, j).unwrap())
        .unwrap()
}

fn points(dims: usize, n: usize) -> Vec<Vec<f64>> {
    (0..n)
        .map(|i| {
            (0..dims)
                .map(|a| ((i * 7919 + a * 104_729) % 1000) as f64 / 37.0 - 13.0)
                .collect()
        })
        .collect()
}

fn input_of(points: &[Vec<f64>]) -> String {
    points
        .iter()
        .map(|p| {
            p.iter()
                .map(|v| format!("{v:?}"))
                .collect::<Vec<_>>()
                .join(",")
                + "\n"
        })
        .collect()
}

#[test]
fn sample_takes_the_cellular_flags() {
    let pts = points(2, 40);
    let got = sample_ok(
        &[
            "cellular",
            "--distance",
            "manhattan",
            "--return",
            "f2-f1",
            "--jitter",
            "0.5",
            "--seed",
            "3",
        ],
        &input_of(&pts),
    );
    let n = cellular::<2>(
        3,
        CellularDistance::Manhattan,
        CellularReturn::F2MinusF1,
        0.5,
    );
    let want: Vec<Vec<f64>> = pts.iter().map(|p| vec![n.get([p[0], p[1]])]).collect();
    assert_rows_bits("manhattan f2-f1", &parse_output(&got), &want);

    // 3D with gradients, every distance and return by name.
    let pts = points(3, 15);
    for d in CellularDistance::ALL {
        for r in CellularReturn::ALL {
            let got = sample_ok(
                &[
                    "cellular",
                    "--distance",
                    d.name(),
                    "--return",
                    r.name(),
                    "--gradient",
                ],
                &input_of(&pts),
            );
            let n = cellular::<3>(0, d, r, 1.0);
            let want: Vec<Vec<f64>> = pts
                .iter()
                .map(|p| {
                    let s = n.sample([p[0], p[1], p[2]]);
                    vec![s.value, s.gradient[0], s.gradient[1], s.gradient[2]]
                })
                .collect();
            assert_rows_bits(&format!("{d} {r}"), &parse_output(&got), &want);
        }
    }
}

#[test]
fn sample_cellular_defaults_in_every_dimension() {
    for dims in 1..=4 {
        let pts = points(dims, 20);
        let got = parse_output(&sample_ok(&["cellular", "--seed", "9"], &input_of(&pts)));
        for (row, p) in got.iter().zip(&pts) {
            let n = Noise::<4>::new(NoiseKind::Cellular, 9);
            let want = match dims {
                1 => Noise::<1>::new(NoiseKind::Cellular, 9).get([p[0]]),
                2 => Noise::<2>::new(NoiseKind::Cellular, 9).get([p[0], p[1]]),
                3 => Noise::<3>::new(NoiseKind::Cellular, 9).get([p[0], p[1], p[2]]),
                _ => n.get([p[0], p[1], p[2], p[3]]),
            };
            assert!(
                same_bits(row[0], want),
                "{dims}D at {p:?}: {} vs {want}",
                row[0]
            );
        }
    }
}

#[test]
fn render_takes_the_cellular_flags() {
    let (_dir, out) = render_ok(
        "c.raw",
        &[
            "--noise",
            "cellular",
            "--distance",
            "chebyshev",
            "--return",
            "f1*f2",
            "--jitter",
            "0.75",
            "--size",
            "21x13",
            "--scale",
            "1/8",
            "--seed",
            "5",
        ],
    );
    let data = read_f32(&out);
    assert_eq!(data.len(), 21 * 13);
    let n = cellular::<2>(
        5,
        CellularDistance::Chebyshev,
        CellularReturn::F1TimesF2,
        0.75,
    );
    for j in 0..13 {
        for i in 0..21 {
            let v = n.get([at(0.0, i, 1.0, 8.0), at(0.0, j, 1.0, 8.0)]);
            assert_eq!(
                data[(j * 21 + i) as usize].to_bits(),
                (v as f32).to_bits(),
                "pixel {i},{j}"
            );
        }
    }
}

#[test]
fn configs_round_trip_and_flags_win() {
    let dir = TempDir::new().unwrap();
    let input = input_of(&points(2, 12));
    for name in ["c.toml", "c.json"] {
        let path = dir.path().join(name);
        let path = path.to_str().unwrap();
        let args = [
            "cellular",
            "--distance",
            "hybrid",
            "--return",
            "f1/f2",
            "--jitter",
            "0.25",
            "--save-config",
            path,
        ];
        let first = sample_ok(&args, &input);
        let text = fs::read_to_string(path).unwrap();
        for needle in ["hybrid", "f1/f2", "0.25", "jitter", "return", "distance"] {
            assert!(
                text.contains(needle),
                "{name}: {needle} missing from {text}"
            );
        }
        assert_eq!(sample_ok(&["--config", path], &input), first);
        // Flags override the config's keys.
        assert_eq!(
            sample_ok(&["--config", path, "--distance", "manhattan"], &input),
            sample_ok(
                &[
                    "cellular",
                    "--distance",
                    "manhattan",
                    "--return",
                    "f1/f2",
                    "--jitter",
                    "0.25"
                ],
                &input
            )
        );
        // Another noise on the command line drops the cellular keys.
        assert_eq!(
            sample_ok(&["--config", path, "--noise", "perlin"], &input),
            sample_ok(&["perlin", "--frequency", "1"], &input)
        );
    }
    // The library reads and writes the keys unchanged.
    let stack = Stack::from_toml_str(
        "noise = \"cellular\"\ndistance = \"euclidean-squared\"\nreturn = \"cell-value\"\njitter = 0.5\n",
    )
    .unwrap();
    assert_eq!(stack.distance, Some(CellularDistance::EuclideanSquared));
    assert_eq!(stack.ret, Some(CellularReturn::CellValue));
    assert_eq!(
        Stack::from_toml_str(&stack.to_toml_string().unwrap()).unwrap(),
        stack
    );
    assert_eq!(
        Stack::from_json_str(&stack.to_json_string().unwrap()).unwrap(),
        stack
    );
}

#[test]
fn bad_cellular_options_are_usage_errors() {
    for (args, needle) in [
        (
            &["cellular", "--jitter", "2"][..],
            "jitter: must be in [0, 1], got 2",
        ),
        (&["cellular", "--jitter", "-0.5"], "jitter"),
        (&["cellular", "--jitter", "nan"], "jitter"),
        (&["cellular", "--distance", "foo"], "euclidean-squared"),
        (&["cellular", "--return", "f3"], "cell-value"),
        (
            &["perlin", "--distance", "manhattan"],
            "distance: only cellular noise has a distance, and the noise is perlin (set by --distance)",
        ),
        (
            &["simplex", "--jitter", "0.5"],
            "only cellular noise has a jitter",
        ),
        (
            &["noise1234", "--return", "f2"],
            "--return applies only to the surflet family",
        ),
    ] {
        let (stdout, stderr) = fails(&[&["sample"][..], args].concat(), "0.5,0.5\n", 2);
        assert!(stdout.is_empty());
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
    let stderr = render_err(&["x.png", "--noise", "value", "--return", "f2"], 2);
    assert!(
        stderr.contains("only cellular noise has a return"),
        "{stderr}"
    );
    let stderr = render_err(&["x.png", "--noise", "cellular", "--jitter", "1.5"], 2);
    assert!(stderr.contains("jitter"), "{stderr}");

    // A config with a cellular key under another noise names the key and file.
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("bad.toml");
    fs::write(&path, "noise = \"value\"\ndistance = \"manhattan\"\n").unwrap();
    let (_, stderr) = fails(&["sample", "--config", path.to_str().unwrap()], "0.5\n", 2);
    assert!(
        stderr.contains("bad.toml") && stderr.contains("distance"),
        "{stderr}"
    );
    fs::write(&path, "noise = \"cellular\"\njitter = 3\n").unwrap();
    let (_, stderr) = fails(&["sample", "--config", path.to_str().unwrap()], "0.5\n", 2);
    assert!(stderr.contains("jitter"), "{stderr}");
}
