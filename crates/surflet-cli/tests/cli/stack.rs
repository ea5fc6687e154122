//! End-to-end tests of noise stacks on the command line: the fractal and
//! warp flags, `--config` and `--save-config`, curl noise, stacks in
//! `render`, and the errors a bad config gives. Every value is checked bit
//! for bit against the library, built independently of the CLI's code.

use std::fs;
use std::path::Path;
use surflet::Field;

use crate::common::*;
use surflet::{
    Curl, Fractal, FractalKind, FractalParams, Noise, NoiseKind, Stack, Warp, WarpKind, WarpParams,
};
use tempfile::TempDir;

/// Deterministic points of several magnitudes, as decimal texts.
fn points(dims: usize, count: usize, mut state: u64) -> Vec<Vec<String>> {
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    };
    (0..count)
        .map(|i| {
            (0..dims)
                .map(|_| {
                    let scale = [3.0, 40.0, 700.0][i % 3];
                    format!("{:?}", scale * (2.0 * next() - 1.0))
                })
                .collect()
        })
        .collect()
}

fn input_of(points: &[Vec<String>]) -> String {
    points.iter().map(|r| r.join(",") + "\n").collect()
}

/// A field the library evaluates, at a dimension fixed by the test.
trait Lib<const D: usize> {
    fn value64(&self, p: [f64; D]) -> f64;
    fn value32(&self, p: [f32; D]) -> f32;
    fn sample64(&self, p: [f64; D]) -> (f64, [f64; D]);
    fn sample32(&self, p: [f32; D]) -> (f32, [f32; D]);
}

macro_rules! lib_field {
    ($t:ident) => {
        impl<const D: usize> Lib<D> for $t<D> {
            fn value64(&self, p: [f64; D]) -> f64 {
                self.get(p)
            }
            fn value32(&self, p: [f32; D]) -> f32 {
                self.get(p)
            }
            fn sample64(&self, p: [f64; D]) -> (f64, [f64; D]) {
                let s = self.sample(p);
                (s.value, s.gradient)
            }
            fn sample32(&self, p: [f32; D]) -> (f32, [f32; D]) {
                let s = self.sample(p);
                (s.value, s.gradient)
            }
        }
    };
}
lib_field!(Fractal);
lib_field!(Warp);

/// What the CLI must print for `points` with `f32` and `gradient` as given:
/// the coordinates parsed as the CLI parses them, the value, then the
/// gradient.
fn expected<const D: usize>(
    field: &impl Lib<D>,
    points: &[Vec<String>],
    f32: bool,
    gradient: bool,
) -> Vec<Vec<f64>> {
    points
        .iter()
        .map(|row| {
            if f32 {
                let p: [f32; D] = std::array::from_fn(|a| row[a].parse().unwrap());
                if gradient {
                    let (v, g) = field.sample32(p);
                    std::iter::once(v).chain(g).map(f64::from).collect()
                } else {
                    vec![f64::from(field.value32(p))]
                }
            } else {
                let p: [f64; D] = std::array::from_fn(|a| row[a].parse().unwrap());
                if gradient {
                    let (v, g) = field.sample64(p);
                    std::iter::once(v).chain(g).collect()
                } else {
                    vec![field.value64(p)]
                }
            }
        })
        .collect()
}

/// Runs `surflet sample ARGS` in every combination of --f32 and --gradient
/// and compares with the library.
fn check_against<const D: usize>(args: &[&str], field: &impl Lib<D>) {
    let pts = points(D, 30, 0x5EED + D as u64);
    let input = input_of(&pts);
    for f32 in [false, true] {
        for gradient in [false, true] {
            let mut a = args.to_vec();
            if f32 {
                a.push("--f32");
            }
            if gradient {
                a.push("--gradient");
            }
            let got = parse_output(&sample_ok(&a, &input));
            let want = expected::<D>(field, &pts, f32, gradient);
            assert_rows_bits(&format!("sample {a:?}"), &got, &want);
        }
    }
}

fn fractal<const D: usize>(kind: NoiseKind, seed: u64, params: FractalParams) -> Fractal<D> {
    Fractal::new(Noise::new(kind, seed), params).unwrap()
}

// ---------------------------------------------------------------------------
// Flags against the library.

#[test]
fn issue_example_equals_the_library_fbm() {
    // The exact command line of the issue.
    let args = [
        "simplex",
        "--fractal",
        "fbm",
        "--octaves",
        "6",
        "--lacunarity",
        "2",
        "--gain",
        "0.5",
    ];
    let params = FractalParams {
        octaves: 6,
        lacunarity: 2.0,
        gain: 0.5,
        ..FractalParams::new(FractalKind::Fbm)
    };
    check_against::<2>(&args, &fractal::<2>(NoiseKind::Simplex, 0, params));
    check_against::<3>(&args, &fractal::<3>(NoiseKind::Simplex, 0, params));
}

#[test]
fn every_fractal_kind_equals_the_library() {
    for kind in FractalKind::ALL {
        for (noise, dims) in [
            (NoiseKind::Perlin, 1),
            (NoiseKind::Value, 2),
            (NoiseKind::SimplexValue, 3),
            (NoiseKind::Simplex, 4),
        ] {
            let args = [
                noise.name(),
                "--fractal",
                kind.name(),
                "--octaves",
                "5",
                "--lacunarity",
                "2.5",
                "--gain",
                "0.6",
                "--seed",
                "1234567",
                "--frequency",
                "0.375",
            ];
            let params = FractalParams {
                octaves: 5,
                frequency: 0.375,
                lacunarity: 2.5,
                gain: 0.6,
                ..FractalParams::new(kind)
            };
            match dims {
                1 => check_against::<1>(&args, &fractal::<1>(noise, 1234567, params)),
                2 => check_against::<2>(&args, &fractal::<2>(noise, 1234567, params)),
                3 => check_against::<3>(&args, &fractal::<3>(noise, 1234567, params)),
                _ => check_against::<4>(&args, &fractal::<4>(noise, 1234567, params)),
            }
        }
    }
}

#[test]
fn every_fractal_parameter_reaches_the_library() {
    // Ridged uses all of them; turning normalisation off shows the raw sum.
    let args = [
        "perlin",
        "--fractal",
        "ridged",
        "--octaves",
        "3",
        "--amplitude",
        "-1.5",
        "--offset",
        "0.8",
        "--weight",
        "1.5",
        "--gain",
        "-0.4",
        "--no-normalize",
    ];
    let params = FractalParams {
        octaves: 3,
        amplitude: -1.5,
        offset: 0.8,
        weight: 1.5,
        gain: -0.4,
        normalize: false,
        ..FractalParams::new(FractalKind::Ridged)
    };
    check_against::<2>(&args, &fractal::<2>(NoiseKind::Perlin, 0, params));
    // --normalize after --no-normalize wins.
    let mut again = args.to_vec();
    again.push("--normalize");
    let params = FractalParams {
        normalize: true,
        ..params
    };
    check_against::<2>(&again, &fractal::<2>(NoiseKind::Perlin, 0, params));
}

#[test]
fn warps_equal_the_library() {
    // Single step: warp noise, seed, frequency and fractal all given.
    let field = fractal::<2>(
        NoiseKind::Simplex,
        9,
        FractalParams {
            octaves: 4,
            frequency: 0.5,
            ..FractalParams::new(FractalKind::Fbm)
        },
    );
    let params = WarpParams {
        kind: WarpKind::Single,
        amplitude: 0.75,
        fractal: FractalParams {
            octaves: 2,
            frequency: 0.25,
            gain: 0.4,
            ..FractalParams::new(FractalKind::Billow)
        },
    };
    let warp = Warp::new(field.clone(), Noise::new(NoiseKind::Perlin, 77), params).unwrap();
    check_against::<2>(
        &[
            "simplex",
            "--seed",
            "9",
            "--frequency",
            "0.5",
            "--fractal",
            "fbm",
            "--warp",
            "single",
            "--warp-amplitude",
            "0.75",
            "--warp-noise",
            "perlin",
            "--warp-seed",
            "77",
            "--warp-frequency",
            "0.25",
            "--warp-fractal",
            "billow",
            "--warp-octaves",
            "2",
            "--warp-gain",
            "0.4",
        ],
        &warp,
    );

    // The defaults: the stack's noise, seed and frequency, one octave, 1.
    let field = fractal::<3>(
        NoiseKind::Value,
        5,
        FractalParams {
            octaves: 1,
            ..FractalParams::new(FractalKind::Fbm)
        },
    );
    let mut params = WarpParams::new(WarpKind::Single);
    params.fractal.frequency = 1.0;
    let warp = Warp::new(field, Noise::new(NoiseKind::Value, 5), params).unwrap();
    check_against::<3>(&["value", "--seed", "5", "--warp", "single"], &warp);

    // Progressive.
    let field = fractal::<2>(
        NoiseKind::Perlin,
        0,
        FractalParams::new(FractalKind::Ridged),
    );
    let mut params = WarpParams::new(WarpKind::Progressive);
    params.amplitude = 0.3;
    params.fractal.octaves = 3;
    params.fractal.lacunarity = 3.0;
    let warp = Warp::new(field, Noise::new(NoiseKind::Perlin, 0), params).unwrap();
    check_against::<2>(
        &[
            "perlin",
            "--fractal",
            "ridged",
            "--warp",
            "progressive",
            "--warp-amplitude",
            "0.3",
            "--warp-octaves",
            "3",
            "--warp-lacunarity",
            "3",
        ],
        &warp,
    );
}

#[test]
fn a_plain_stack_is_the_plain_noise() {
    // One octave at frequency 1 is the base noise bit for bit, so turning a
    // plain run into a stack run changes nothing.
    let input = input_of(&points(3, 20, 3));
    for args in [
        &["perlin", "--seed", "4"][..],
        &["perlin", "--seed", "4", "--f32"],
    ] {
        let plain = sample_ok(args, &input);
        let mut stacked = args.to_vec();
        stacked.extend(["--frequency", "1", "--gradient"]);
        let mut plain_grad = args.to_vec();
        plain_grad.push("--gradient");
        assert_eq!(sample_ok(&stacked, &input), sample_ok(&plain_grad, &input));
        stacked.truncate(args.len() + 2);
        assert_eq!(sample_ok(&stacked, &input), plain);
    }
}

#[test]
fn tiled_stack_repeats_in_sample() {
    // period 4 at frequency 0.5: the tile is 8 units; offsets and
    // coordinates are short dyadic fractions, so the repeat is exact.
    let a = sample_ok(
        &[
            "value",
            "--fractal",
            "fbm",
            "--period",
            "4,4",
            "--frequency",
            "0.5",
        ],
        "0.25,1.5\n-3.125,7\n",
    );
    let b = sample_ok(
        &[
            "value",
            "--fractal",
            "fbm",
            "--period",
            "4,4",
            "--frequency",
            "0.5",
        ],
        "8.25,-6.5\n4.875,-9\n",
    );
    assert_eq!(a, b);
}

// ---------------------------------------------------------------------------
// Configs.

const LOOK_TOML: &str = r#"
noise = "perlin"
seed = 31
frequency = 0.125

[fractal]
kind = "hybrid"
octaves = 5
lacunarity = 2.0
gain = 0.45
offset = 0.9

[warp]
kind = "single"
amplitude = 1.5
frequency = 0.0625

[warp.fractal]
octaves = 2
"#;

const LOOK_JSON: &str = r#"{
  "noise": "perlin",
  "seed": 31,
  "frequency": 0.125,
  "fractal": { "kind": "hybrid", "octaves": 5, "lacunarity": 2.0, "gain": 0.45, "offset": 0.9 },
  "warp": { "kind": "single", "amplitude": 1.5, "frequency": 0.0625, "fractal": { "octaves": 2 } }
}"#;

const LOOK_FLAGS: [&str; 20] = [
    "--seed",
    "31",
    "--frequency",
    "0.125",
    "--fractal",
    "hybrid",
    "--octaves",
    "5",
    "--gain",
    "0.45",
    "--offset",
    "0.9",
    "--warp",
    "single",
    "--warp-amplitude",
    "1.5",
    "--warp-frequency",
    "0.0625",
    "--warp-octaves",
    "2",
];

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn toml_json_and_flags_agree() {
    let dir = TempDir::new().unwrap();
    let toml = write(dir.path(), "look.toml", LOOK_TOML);
    let json = write(dir.path(), "look.json", LOOK_JSON);
    let input = input_of(&points(2, 25, 11));
    let by_flags = sample_ok(&[&["perlin"][..], &LOOK_FLAGS].concat(), &input);
    // NAME is optional with --config; the config names the noise.
    assert_eq!(sample_ok(&["--config", &toml], &input), by_flags);
    assert_eq!(sample_ok(&["--config", &json], &input), by_flags);
    assert_eq!(sample_ok(&["perlin", "--config", &toml], &input), by_flags);
    // And the library agrees on the config's meaning.
    let field = Stack::from_toml_str(LOOK_TOML)
        .unwrap()
        .build::<2>()
        .unwrap();
    let want: Vec<Vec<f64>> = points(2, 25, 11)
        .iter()
        .map(|r| vec![field.get([r[0].parse::<f64>().unwrap(), r[1].parse().unwrap()])])
        .collect();
    assert_rows_bits("config", &parse_output(&by_flags), &want);
    // Gradients and f32 go through the same stack.
    assert_eq!(
        sample_ok(&["--config", &json, "--gradient", "--f32"], &input),
        sample_ok(
            &[&["perlin", "--gradient", "--f32"][..], &LOOK_FLAGS].concat(),
            &input
        )
    );
}

#[test]
fn flags_override_the_config() {
    let dir = TempDir::new().unwrap();
    let toml = write(dir.path(), "look.toml", LOOK_TOML);
    let input = input_of(&points(3, 20, 12));
    // NAME, --seed, --octaves and --warp-amplitude win over the file.
    let mut flags = LOOK_FLAGS.to_vec();
    flags[1] = "8";
    flags[7] = "3";
    flags[15] = "0.25";
    let want = sample_ok(&[&["simplex-value"][..], &flags].concat(), &input);
    let got = sample_ok(
        &[
            "simplex-value",
            "--config",
            &toml,
            "--seed",
            "8",
            "--octaves",
            "3",
            "--warp-amplitude",
            "0.25",
        ],
        &input,
    );
    assert_eq!(got, want);
    assert_ne!(got, sample_ok(&["--config", &toml], &input));

    // Switching a hybrid config to fbm drops its offset, which fbm lacks.
    let mut flags = LOOK_FLAGS.to_vec();
    flags[5] = "fbm";
    flags.drain(10..12);
    assert_eq!(
        sample_ok(&["--config", &toml, "--fractal", "fbm"], &input),
        sample_ok(&[&["perlin"][..], &flags].concat(), &input)
    );
}

#[test]
fn save_config_round_trips() {
    let dir = TempDir::new().unwrap();
    let input = input_of(&points(2, 20, 13));
    for name in ["saved.toml", "saved.json"] {
        let path = dir.path().join(name);
        let path = path.to_str().unwrap();
        let args = [
            &[
                "value",
                "--save-config",
                path,
                "--seed",
                "18446744073709551615",
            ][..],
            &LOOK_FLAGS[2..],
        ]
        .concat();
        let first = sample_ok(&args, &input);
        let text = fs::read_to_string(path).unwrap();
        // The extension picks the format.
        if name.ends_with(".json") {
            assert!(text.trim_start().starts_with('{'), "{text}");
        } else {
            assert!(text.contains("[fractal]"), "{text}");
        }
        assert_eq!(sample_ok(&["--config", path], &input), first);

        // An existing file is kept with --no-clobber: exit 1, no output.
        let (stdout, stderr) = fails(
            &[
                &["sample"][..],
                &args,
                &["--lacunarity", "3", "--no-clobber"],
            ]
            .concat(),
            &input,
            1,
        );
        assert!(stdout.is_empty());
        assert!(stderr.contains("--no-clobber"), "{stderr}");
        assert_eq!(fs::read_to_string(path).unwrap(), text);
        // Without it, the file is replaced.
        let second = sample_ok(&[&args[..], &["--lacunarity", "3"]].concat(), &input);
        assert_ne!(second, first);
        assert_eq!(sample_ok(&["--config", path], &input), second);
    }
    // No temporary files are left behind.
    assert_eq!(entries(dir.path()), ["saved.json", "saved.toml"]);

    // Saving works on empty input, to write a look without sampling.
    let path = dir.path().join("empty.toml");
    surflet()
        .args(["sample", "simplex", "--fractal", "billow", "--save-config"])
        .arg(&path)
        .write_stdin("")
        .assert()
        .success()
        .stdout("");
    assert!(
        fs::read_to_string(&path)
            .unwrap()
            .contains("kind = \"billow\"")
    );
}

// ---------------------------------------------------------------------------
// Curl noise.

fn curl_expected<const D: usize>(curl: &Curl<D>, pts: &[Vec<String>], f32: bool) -> Vec<Vec<f64>> {
    pts.iter()
        .map(|r| {
            if f32 {
                let p: [f32; D] = std::array::from_fn(|a| r[a].parse().unwrap());
                curl.get(p).iter().map(|&c| f64::from(c)).collect()
            } else {
                let p: [f64; D] = std::array::from_fn(|a| r[a].parse().unwrap());
                curl.get(p).to_vec()
            }
        })
        .collect()
}

#[test]
fn curl_equals_the_library() {
    // The default potential: simplex fBm with the library's defaults.
    let pts = points(2, 25, 21);
    let curl = Curl::new(fractal::<2>(
        NoiseKind::Simplex,
        0,
        FractalParams::new(FractalKind::Fbm),
    ));
    for f32 in [false, true] {
        let args: &[&str] = if f32 { &["curl2", "--f32"] } else { &["curl2"] };
        let got = parse_output(&sample_ok(args, &input_of(&pts)));
        assert!(got.iter().all(|r| r.len() == 2));
        assert_rows_bits("curl2", &got, &curl_expected(&curl, &pts, f32));
    }

    // 3D, with the potential given by flags; the three potentials derive
    // from the one seed inside the library.
    let pts = points(3, 25, 22);
    let curl = Curl::new(fractal::<3>(
        NoiseKind::Perlin,
        99,
        FractalParams {
            octaves: 3,
            frequency: 0.5,
            ..FractalParams::new(FractalKind::Fbm)
        },
    ));
    let args = [
        "curl3",
        "--noise",
        "perlin",
        "--seed",
        "99",
        "--octaves",
        "3",
        "--frequency",
        "0.5",
    ];
    for f32 in [false, true] {
        let mut a = args.to_vec();
        if f32 {
            a.push("--f32");
        }
        let got = parse_output(&sample_ok(&a, &input_of(&pts)));
        assert!(got.iter().all(|r| r.len() == 3));
        assert_rows_bits("curl3", &got, &curl_expected(&curl, &pts, f32));
    }

    // A config without a fractal gets the default fBm, like no config.
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "c.toml", "noise = \"perlin\"\nseed = 99\n");
    assert_eq!(
        sample_ok(&["curl3", "--config", &config], "0.1,0.2,0.3\n"),
        sample_ok(
            &["curl3", "--noise", "perlin", "--seed", "99"],
            "0.1,0.2,0.3\n"
        )
    );
}

#[test]
fn curl_output_is_divergence_free() {
    let h = 1e-6;
    for (name, dims) in [("curl2", 2usize), ("curl3", 3)] {
        let centres: Vec<Vec<f64>> = points(dims, 6, 31 + dims as u64)
            .iter()
            .map(|r| r.iter().map(|v| v.parse::<f64>().unwrap() / 10.0).collect())
            .collect();
        // For each centre, the points p ± h along every axis; the quotient
        // uses the step as rounded, not 2h.
        let mut input = String::new();
        let mut steps = Vec::new();
        for c in &centres {
            for a in 0..dims {
                let (mut lo, mut hi) = (c.clone(), c.clone());
                lo[a] -= h;
                hi[a] += h;
                steps.push(hi[a] - lo[a]);
                for p in [lo, hi] {
                    let text: Vec<String> = p.iter().map(|v| format!("{v:?}")).collect();
                    input += &(text.join(",") + "\n");
                }
            }
        }
        let out = parse_output(&sample_ok(&[name, "--seed", "3"], &input));
        for (k, c) in centres.iter().enumerate() {
            let mut div = 0.0;
            for a in 0..dims {
                let lo = &out[k * 2 * dims + 2 * a];
                let hi = &out[k * 2 * dims + 2 * a + 1];
                div += (hi[a] - lo[a]) / steps[k * dims + a];
            }
            assert!(div.abs() < 1e-6, "{name} at {c:?}: divergence {div}");
        }
    }
}

// ---------------------------------------------------------------------------
// Render.

#[test]
fn render_with_config_equals_the_stack_evaluator() {
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "look.toml", LOOK_TOML);
    // A config without a version (LOOK_TOML) keeps the first releases'
    // meaning: one world unit per pixel unless --scale says otherwise, and
    // says so.
    let (out, stderr) = render_stderr(
        dir.path(),
        "h.raw",
        &[
            "--config",
            &config,
            "--size",
            "37x23",
            "--origin",
            "-3.5,2.25",
        ],
    );
    assert!(stderr.contains("no `version` line"), "{stderr}");
    let data = read_f32(&out);
    assert_eq!(data.len(), 37 * 23);
    let field = Stack::from_toml_str(LOOK_TOML)
        .unwrap()
        .build::<2>()
        .unwrap();
    for j in 0..23 {
        for i in 0..37 {
            let v = field.get([at(-3.5, i, 1.0, 1.0), at(2.25, j, 1.0, 1.0)]);
            assert_eq!(
                data[(j * 37 + i) as usize].to_bits(),
                (v as f32).to_bits(),
                "pixel {i},{j}"
            );
        }
    }

    // 3D, with --scale, and flags over the config.
    let out = render_in(
        dir.path(),
        "z.raw",
        &[
            "--config", &config, "--size", "20x10", "--z", "4.5", "--scale", "1/3", "--seed", "5",
            "--noise", "simplex",
        ],
    );
    let data = read_f32(&out);
    let mut stack = Stack::from_toml_str(LOOK_TOML).unwrap();
    stack.seed = 5;
    stack.noise = NoiseKind::Simplex;
    let field = stack.build::<3>().unwrap();
    for j in 0..10 {
        for i in 0..20 {
            let v = field.get([at(0.0, i, 1.0, 3.0), at(0.0, j, 1.0, 3.0), 4.5]);
            assert_eq!(data[(j * 20 + i) as usize].to_bits(), (v as f32).to_bits());
        }
    }

    // Stack flags without a config keep the default spacing, 1/64.
    let out = render_in(
        dir.path(),
        "f.raw",
        &["--fractal", "billow", "--octaves", "3", "--size", "16x8"],
    );
    let data = read_f32(&out);
    let field = fractal::<2>(
        NoiseKind::Simplex,
        0,
        FractalParams {
            octaves: 3,
            ..FractalParams::new(FractalKind::Billow)
        },
    );
    for j in 0..8 {
        for i in 0..16 {
            let v = field.get([at(0.0, i, 1.0, 64.0), at(0.0, j, 1.0, 64.0)]);
            assert_eq!(data[(j * 16 + i) as usize].to_bits(), (v as f32).to_bits());
        }
    }
}

#[test]
fn render_maps_the_stack_range() {
    // Turbulence lies in [0, 1], which the default mapping stretches over
    // the grey levels.
    let dir = TempDir::new().unwrap();
    let out = render_in(
        dir.path(),
        "t.png",
        &[
            "--fractal",
            "turbulence",
            "--size",
            "24x16",
            "--frequency",
            "0.125",
            "--scale",
            "1",
        ],
    );
    let img = image::open(&out).unwrap().into_luma8();
    let field = fractal::<2>(
        NoiseKind::Simplex,
        0,
        FractalParams {
            frequency: 0.125,
            ..FractalParams::new(FractalKind::Turbulence)
        },
    );
    for (i, j, p) in img.enumerate_pixels() {
        // --scale 1: one world unit per pixel.
        let v = field.get([f64::from(i), f64::from(j)]);
        assert_eq!(p[0], (v.clamp(0.0, 1.0) * 255.0).round() as u8, "{i},{j}");
    }
}

#[test]
fn tiled_stack_renders_are_seamless() {
    // period 4 at frequency 0.5: a tile is 8 world units, so the 32x16 image
    // has pixel spacings 1/4 and 1/2, dyadic like every octave's frequency
    // and offset: the wrap-around column and row equal the first bit for bit.
    let dir = TempDir::new().unwrap();
    for (extra, name) in [(&[][..], "2d"), (&["--z", "0.75"][..], "3d")] {
        let base = [
            &[
                "--noise",
                "perlin",
                "--fractal",
                "ridged",
                "--octaves",
                "3",
                "--period",
                "4,4",
                "--frequency",
                "0.5",
            ][..],
            extra,
        ]
        .concat();
        let tile = read_f32(&render_in(
            dir.path(),
            &format!("{name}t.raw"),
            &[&base[..], &["--size", "32x16"]].concat(),
        ));
        let wide = read_f32(&render_in(
            dir.path(),
            &format!("{name}w.raw"),
            &[&base[..], &["--size", "33x17", "--scale", "8/32,8/16"]].concat(),
        ));
        for j in 0..17 {
            for i in 0..33 {
                assert_eq!(
                    wide[j * 33 + i].to_bits(),
                    tile[(j % 16) * 32 + i % 32].to_bits(),
                    "{name} pixel {i},{j}"
                );
            }
        }
        assert!(tile.iter().any(|&v| v != tile[0]));
    }
    // The tile equals the library's tiled stack at the pixel coordinates.
    let tile = read_f32(&dir.path().join("2dt.raw"));
    let stack = Stack::from_toml_str(
        "noise = \"perlin\"\nfrequency = 0.5\nperiod = [4, 4]\n[fractal]\nkind = \"ridged\"\noctaves = 3\n",
    )
    .unwrap();
    let field = stack.build::<2>().unwrap();
    assert_eq!(field.tile(), Some([8.0, 8.0]));
    for j in 0..16 {
        for i in 0..32 {
            let v = field.get([at(0.0, i, 8.0, 32.0), at(0.0, j, 8.0, 16.0)]);
            assert_eq!(tile[(j * 32 + i) as usize].to_bits(), (v as f32).to_bits());
        }
    }
}

#[test]
fn render_saves_its_stack() {
    let dir = TempDir::new().unwrap();
    let saved = dir.path().join("look.json");
    let saved = saved.to_str().unwrap();
    let a = render_in(
        dir.path(),
        "a.raw",
        &[
            "--fractal",
            "hybrid",
            "--frequency",
            "0.0625",
            "--seed",
            "4",
            "--size",
            "12x9",
            "--save-config",
            saved,
        ],
    );
    let b = render_in(dir.path(), "b.raw", &["--config", saved, "--size", "12x9"]);
    assert_eq!(fs::read(a).unwrap(), fs::read(b).unwrap());
    // A failed render writes neither file.
    let (_, stderr) = fails(
        &[
            "render",
            dir.path().join("a.raw").to_str().unwrap(),
            "--fractal",
            "fbm",
            "--no-clobber",
            "--save-config",
            dir.path().join("new.toml").to_str().unwrap(),
        ],
        "",
        1,
    );
    assert!(stderr.contains("exists"), "{stderr}");
    assert_eq!(entries(dir.path()), ["a.raw", "b.raw", "look.json"]);
}

// ---------------------------------------------------------------------------
// Errors.

#[test]
fn malformed_configs_name_the_key_or_line() {
    let dir = TempDir::new().unwrap();
    for (file, text, needles) in [
        (
            "unknown.toml",
            "seed = 1\nbogus = 2\n",
            &["unknown.toml", "bogus", "line 2"][..],
        ),
        (
            "nested.toml",
            "[fractal]\nocatves = 3\n",
            &["fractal.ocatves", "line 2"],
        ),
        (
            "octaves.toml",
            "[fractal]\noctaves = 0\n",
            &["fractal.octaves", "line 2", "1..=32"],
        ),
        (
            "noise.toml",
            "noise = \"simplx\"\n",
            &["noise", "simplx", "line 1", "simplex-value"],
        ),
        (
            "syntax.toml",
            "seed = 1\nfrequency = = 2\n",
            &["syntax.toml", "line 2"],
        ),
        (
            "offset.toml",
            "[fractal]\nkind = \"fbm\"\noffset = 1.0\n",
            &["fractal.offset", "fbm"],
        ),
        (
            "unknown.json",
            "{\n  \"warp\": { \"amplitdue\": 1 }\n}",
            &["warp.amplitdue", "line 2"],
        ),
        (
            "octaves.json",
            "{ \"fractal\": { \"octaves\": 0 } }",
            &["fractal.octaves", "1..=32"],
        ),
        (
            "empty.toml",
            "# nothing\n",
            &["empty.toml", "empty noise stack"],
        ),
        ("empty.json", "{}", &["empty.json", "empty noise stack"]),
    ] {
        let path = write(dir.path(), file, text);
        for args in [
            vec!["sample", "--config", &path],
            vec!["sample", "simplex", "--config", &path],
            vec!["sample", "curl2", "--config", &path],
        ] {
            let (stdout, stderr) = fails(&args, "1,2\n", 2);
            assert!(stdout.is_empty(), "{args:?}: partial output {stdout:?}");
            for needle in needles {
                assert!(
                    stderr.contains(needle),
                    "{args:?}: {needle:?} not in {stderr}"
                );
            }
        }
        let out = dir.path().join("out.png");
        let (_, stderr) = fails(&["render", out.to_str().unwrap(), "--config", &path], "", 2);
        for needle in needles {
            assert!(
                stderr.contains(needle),
                "render {file}: {needle:?} not in {stderr}"
            );
        }
        assert!(!out.exists());
    }

    // A missing file is a usage error too, and says so plainly.
    let (_, stderr) = fails(&["sample", "--config", "/nonexistent/look.toml"], "", 2);
    assert!(
        stderr.contains("cannot read the config file /nonexistent/look.toml"),
        "{stderr}"
    );
}

#[test]
fn bad_flag_values_name_the_key_and_flag() {
    for (args, needles) in [
        (
            &["simplex", "--octaves", "0"][..],
            &["fractal.octaves", "--octaves"][..],
        ),
        (
            &["simplex", "--lacunarity", "-2"],
            &["fractal.lacunarity", "--lacunarity"],
        ),
        (
            &["simplex", "--frequency", "0"],
            &["frequency", "--frequency"],
        ),
        (
            &["simplex", "--fractal", "fbm", "--weight", "1"],
            &["fractal.weight", "ridged"],
        ),
        (
            &["simplex", "--warp-amplitude", "inf"],
            &["warp.amplitude", "--warp-amplitude"],
        ),
        (
            &[
                "simplex",
                "--warp",
                "progressive",
                "--warp-fractal",
                "ridged",
            ],
            &["warp.fractal.kind", "fbm"],
        ),
        (
            &[
                "simplex",
                "--fractal",
                "fbm",
                "--lacunarity",
                "2.5",
                "--period",
                "4,4",
            ],
            &["fractal.lacunarity", "whole"],
        ),
        (
            &["simplex", "--fractal", "fbm", "--period", "4,7"],
            &["period", "even"],
        ),
        (
            &["simplex", "--fractal", "fractal"],
            &["fbm", "ridged", "hybrid"],
        ),
        (&["simplex", "--warp", "twice"], &["single", "progressive"]),
    ] {
        let (stdout, stderr) = fails(&[&["sample"][..], args].concat(), "1,2\n", 2);
        assert!(stdout.is_empty());
        for needle in needles {
            assert!(
                stderr.contains(needle),
                "{args:?}: {needle:?} not in {stderr}"
            );
        }
    }
}

#[test]
fn inapplicable_options_are_usage_errors() {
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "c.toml", "seed = 1\n");
    let saved = dir.path().join("s.toml");
    let saved = saved.to_str().unwrap();
    for (args, needles) in [
        (
            &["perlin2002-java", "--octaves", "3"][..],
            &["--octaves", "perlin2002-java"][..],
        ),
        (
            &["noise1234", "--config", &config],
            &["--config", "noise1234"],
        ),
        (
            &["snoise1234", "--frequency", "2"],
            &["--frequency", "snoise1234"],
        ),
        (
            &["srdnoise23", "--warp", "single"],
            &["--warp", "srdnoise23"],
        ),
        (
            &["classic2005-java", "--save-config", saved],
            &["--save-config"],
        ),
        (&["curl2", "--gradient"], &["--gradient", "curl2"]),
        (
            &["curl3", "--gradient", "--octaves", "2"],
            &["--gradient", "curl3"],
        ),
        (&["curl2", "--warp-amplitude", "1"], &["warp"]),
        (
            &["simplex", "--noise", "perlin", "--octaves", "2"],
            &["--noise"],
        ),
        (
            &["simplex", "--octaves", "2", "--no-clobber"],
            &["--save-config"],
        ),
        (
            &["simplex", "--frequency", "2", "--period", "1,2,3,4,5"],
            &["1 to 4"],
        ),
    ] {
        let (stdout, stderr) = fails(&[&["sample"][..], args].concat(), "1,2,3\n", 2);
        assert!(stdout.is_empty());
        for needle in needles {
            assert!(
                stderr.contains(needle),
                "{args:?}: {needle:?} not in {stderr}"
            );
        }
    }
    assert_eq!(entries(dir.path()), ["c.toml"]);

    // Render: --save-config must not name the image.
    let out = dir.path().join("x.png");
    let out = out.to_str().unwrap();
    let (_, stderr) = fails(
        &["render", out, "--fractal", "fbm", "--save-config", out],
        "",
        2,
    );
    assert!(stderr.contains("OUTPUT"), "{stderr}");
}

#[test]
fn input_errors_in_stack_mode_name_the_line() {
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "p.toml", "period = [4, 4]\n");
    // The config's period fixes D = 2.
    let (stdout, stderr) = fails(&["sample", "--config", &config], "1,2\n1,2,3\n", 1);
    assert_eq!(stdout.lines().count(), 1);
    assert!(
        stderr.contains("line 2: expected 2 columns (one per entry of the config's period)"),
        "{stderr}"
    );
    let (_, stderr) = fails(&["sample", "curl3"], "1,2\n", 1);
    assert!(
        stderr.contains("line 1: expected 3 columns (curl3 is 3D)"),
        "{stderr}"
    );
    let (_, stderr) = fails(&["sample", "simplex", "--octaves", "2"], "1,2,3,4,5\n", 1);
    assert!(
        stderr.contains("line 1: simplex takes 1, 2, 3 or 4 columns"),
        "{stderr}"
    );
}

#[test]
fn help_documents_stacks() {
    let out = surflet().args(["sample", "--help"]).output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "surflet help stacks",
        "CURL NOISE",
        "curl2",
        "decorrelated",
        "--config",
        "--save-config",
        "--fractal",
        "--warp-amplitude",
        "--no-normalize",
        "fractal.octaves",
        "bad --config",
    ] {
        assert!(
            help.contains(needle),
            "{needle:?} missing from sample --help"
        );
    }
    let out = surflet().args(["render", "--help"]).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "surflet help stacks",
        "surflet help config",
        "dyadic",
        "one period spans the image",
        "--config",
    ] {
        assert!(
            help.contains(needle),
            "{needle:?} missing from render --help"
        );
    }
    let out = surflet().args(["help", "stacks"]).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    for needle in ["NOISE STACKS", "[warp.fractal]", "--octaves 6", "-2^63"] {
        assert!(help.contains(needle), "{needle:?} missing from help stacks");
    }
}

#[test]
fn looped_stack_animations_wrap_around() {
    // 8 frames of 1/4 world unit at frequency 1/2 make one cell along z.
    // The 9-frame render tiles z with that period directly (x and y get the
    // period the loop gives them: the largest power of two that the
    // 2-octave fBm accepts, 32768), so its last frame is the first again.
    let dir = TempDir::new().unwrap();
    let common = [
        "--fractal",
        "fbm",
        "--octaves",
        "2",
        "--frequency",
        "1/2",
        "--scale",
        "1",
        "--size",
        "8x6",
        "--step",
        "1/4",
    ];
    let looped = read_f32(&render_in(
        dir.path(),
        "l.raw",
        &[&common[..], &["--frames", "8", "--loop"]].concat(),
    ));
    let nine = read_f32(&render_in(
        dir.path(),
        "n.raw",
        &[&common[..], &["--frames", "9", "--period", "32768,32768,1"]].concat(),
    ));
    let frame = 8 * 6;
    assert_eq!(looped.len(), 8 * frame);
    assert_eq!(&nine[..8 * frame], &looped[..]);
    assert_eq!(&nine[8 * frame..], &looped[..frame]);
    assert_ne!(&looped[frame..2 * frame], &looped[..frame]);

    // A step that does not close the loop is a usage error naming the cells.
    let (_, stderr) = fails(
        &[
            "render",
            dir.path().join("x.raw").to_str().unwrap(),
            "--fractal",
            "fbm",
            "--frequency",
            "0.3",
            "--frames",
            "8",
            "--step",
            "1/4",
            "--loop",
        ],
        "",
        2,
    );
    assert!(stderr.contains("whole number"), "{stderr}");
}

/// The document in `surflet help stacks`, pasted into a file as a user
/// would, renders without an error or a warning.
#[test]
fn the_help_stacks_example_renders_as_pasted() {
    let out = surflet().args(["help", "stacks"]).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let doc: String = help
        .lines()
        .skip_while(|l| !l.starts_with("  version = 2"))
        .take_while(|l| l.starts_with("  "))
        .map(|l| format!("{}\n", &l[2..]))
        .collect();
    assert!(doc.contains("[warp.fractal]"), "{doc}");
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "pasted.toml", &doc);
    render_in(
        dir.path(),
        "pasted.png",
        &["--config", &config, "--size", "64"],
    );
}

/// `--domain-offset X,Y` (the config's `offset`) moves the noise by that
/// many lattice cells: at frequency F it is `--origin` moved by offset/F,
/// bit for bit where the coordinates are exact, in render, sample and
/// curl noise; it round-trips through --save-config and --config, and its
/// errors name the flag.
#[test]
fn domain_offset_moves_the_noise() {
    let raw = |args: &[&str]| {
        let (_d, out) = render_ok("v.raw", args);
        fs::read(out).unwrap()
    };
    let base = [
        "--size",
        "9x7",
        "-n",
        "perlin",
        "--octaves",
        "3",
        "--scale",
        "1/4",
    ];
    let with = |extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend_from_slice(extra);
        raw(&a)
    };
    let moved = with(&["--domain-offset", "2,-1.5"]);
    assert_eq!(moved, with(&["--origin", "2,-1.5"]));
    assert_ne!(moved, with(&[]));
    // Cells, not world units: at frequency 1/2 two cells are four units.
    assert_eq!(
        with(&["--frequency", "1/2", "--domain-offset", "2,-1.5"]),
        with(&["--frequency", "1/2", "--origin", "4,-3"])
    );
    // Three entries make the stack 3D, as three periods do.
    assert_eq!(with(&["--domain-offset", "0,0,2"]), with(&["--z", "2"]));

    // Saved, and read back to the same pixels.
    let dir = TempDir::new().unwrap();
    let config = dir.path().join("c.toml");
    let mut args = base.to_vec();
    args.extend_from_slice(&["--domain-offset", "2,-1.5", "--save-config"]);
    args.push(config.to_str().unwrap());
    let first = fs::read(render_in(dir.path(), "a.raw", &args)).unwrap();
    let text = fs::read_to_string(&config).unwrap();
    assert!(text.contains("\noffset = [2.0, -1.5]\n"), "{text}");
    let again = render_in(dir.path(), "b.raw", &["--config", config.to_str().unwrap()]);
    assert_eq!(fs::read(again).unwrap(), first);

    // sample: a stack and curl noise, at moved points.
    let stack = ["perlin", "--octaves", "2", "--gradient"];
    let mut moved = stack.to_vec();
    moved.extend_from_slice(&["--domain-offset", "0.5,-3"]);
    assert_eq!(
        sample_ok(&moved, "0.25,0.5\n-1,7.125\n"),
        sample_ok(&stack, "0.75,-2.5\n-0.5,4.125\n")
    );
    assert_eq!(
        sample_ok(&["curl2", "--domain-offset", "0.5,-3"], "0.25,0.5\n"),
        sample_ok(&["curl2"], "0.75,-2.5\n")
    );
    assert_ne!(
        sample_ok(&["curl2", "--domain-offset", "0.5,-3"], "0.25,0.5\n"),
        sample_ok(&["curl2"], "0.25,0.5\n")
    );

    // Errors name the flag.
    let (_, err) = fails(&["sample", "perlin", "--domain-offset", "1,nan"], "", 2);
    assert!(
        err.contains("offset[1]: offsets must be finite, got NaN (set by --domain-offset)"),
        "{err}"
    );
    let (_, err) = fails(&["sample", "perlin", "--domain-offset", "1,x"], "", 2);
    assert!(err.contains("not a number"), "{err}");
    let (_, err) = fails(
        &["sample", "perlin", "--domain-offset", "1,2"],
        "1,2,3\n",
        1,
    );
    assert!(
        err.contains("expected 2 columns (one per --domain-offset value), found 3"),
        "{err}"
    );
    let err = render_err(&["x.png", "--domain-offset", "1,2", "--dims", "3"], 2);
    assert!(
        err.contains("offset: has 2 entries, but the stack is built in 3D"),
        "{err}"
    );
    let (_, err) = fails(
        &["sample", "--expr", "perlin()", "--domain-offset", "1"],
        "",
        2,
    );
    assert!(
        err.contains("--domain-offset does not apply with --expr"),
        "{err}"
    );
}
