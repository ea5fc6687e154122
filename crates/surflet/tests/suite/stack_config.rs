//! Noise-stack descriptions round-trip through TOML and JSON unchanged; the
//! sample files parse to the expected stacks and serialise back to the same
//! text; unknown keys and bad values are errors that name the key; compiled
//! stacks evaluate what their description says.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use surflet::Field;
use surflet::{
    Error, Fractal, FractalDesc, FractalKind, FractalParams, Noise, NoiseKind, Stack, Warp,
    WarpDesc, WarpKind, WarpParams,
};

fn data(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn sample() -> Stack {
    Stack {
        noise: NoiseKind::SimplexValue,
        distance: None,
        ret: None,
        jitter: None,
        seed: u64::MAX - 5,
        frequency: 0.01,
        period: Some(vec![4, 8]),
        offset: None,
        antialias: false,
        footprint: None,
        fractal: Some(FractalDesc {
            kind: FractalKind::Ridged,
            octaves: 5,
            offset: Some(1.1),
            ..Default::default()
        }),
        warp: Some(WarpDesc {
            kind: WarpKind::Progressive,
            noise: Some(NoiseKind::Perlin),
            seed: Some(7),
            frequency: Some(0.02),
            amplitude: 30.0,
            fractal: Some(FractalDesc {
                octaves: 3,
                ..Default::default()
            }),
        }),
    }
}

fn round_trip(s: &Stack) {
    let toml = s.to_toml_string().unwrap();
    let back = Stack::from_toml_str(&toml).unwrap_or_else(|e| panic!("{e}\n{toml}"));
    assert_eq!(&back, s, "TOML round trip changed the stack:\n{toml}");
    assert_eq!(back.to_toml_string().unwrap(), toml);
    let json = s.to_json_string().unwrap();
    let back = Stack::from_json_str(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_eq!(&back, s, "JSON round trip changed the stack:\n{json}");
    assert_eq!(back.to_json_string().unwrap(), json);
}

#[test]
fn sample_files_round_trip_unchanged() {
    let toml = data("stack.toml");
    let json = data("stack.json");
    let want = sample();
    assert_eq!(Stack::from_toml_str(&toml).unwrap(), want);
    assert_eq!(Stack::from_json_str(&json).unwrap(), want);
    assert_eq!(want.to_toml_string().unwrap(), toml);
    assert_eq!(want.to_json_string().unwrap(), json.trim_end());
    // Across formats too.
    let via = Stack::from_json_str(
        &Stack::from_toml_str(&toml)
            .unwrap()
            .to_json_string()
            .unwrap(),
    );
    assert_eq!(via.unwrap(), want);
    assert!(want.build::<2>().is_ok());
}

#[test]
fn commented_file_gets_the_defaults() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/stack_commented.toml");
    let s = Stack::from_file(&path).unwrap();
    assert_eq!(
        s,
        Stack {
            noise: NoiseKind::Perlin,
            distance: None,
            ret: None,
            jitter: None,
            seed: 0xDEAD_BEEF,
            frequency: 1.0,
            period: None,
            offset: None,
            antialias: false,
            footprint: None,
            fractal: Some(FractalDesc {
                kind: FractalKind::Hybrid,
                octaves: 6,
                lacunarity: 3.0,
                gain: 0.5,
                amplitude: 1.0,
                normalize: true,
                offset: None,
                weight: None,
                rotation: 0.0,
            }),
            warp: Some(WarpDesc {
                amplitude: 0.25,
                ..Default::default()
            }),
        }
    );
    round_trip(&s);
    // An empty document is refused (a wrong or truncated file), but the
    // smallest non-empty one gets every default.
    for empty in ["", "  \n# only a comment\n"] {
        let err = Stack::from_toml_str(empty).unwrap_err();
        assert!(err.to_string().starts_with("empty noise stack"), "{err}");
    }
    assert!(Stack::from_json_str(" {} ").is_err());
    assert_eq!(Stack::from_toml_str("seed = 0").unwrap(), Stack::default());
    assert_eq!(
        Stack::from_json_str(r#"{"seed": 0}"#).unwrap(),
        Stack::default()
    );
}

#[test]
fn random_stacks_round_trip_unchanged() {
    let mut rng = SmallRng::seed_from_u64(9);
    let desc = |rng: &mut SmallRng| FractalDesc {
        kind: FractalKind::ALL[rng.random_range(0..5)],
        octaves: rng.random_range(1..=32),
        lacunarity: rng.random_range(0.5..4.0),
        gain: rng.random_range(-1.0..1.0),
        amplitude: rng.random_range(-10.0..10.0),
        normalize: rng.random(),
        offset: None,
        weight: None,
        rotation: if rng.random() {
            rng.random_range(-4.0..4.0)
        } else {
            0.0
        },
    };
    let mut offsets = 0;
    for i in 0..500 {
        let mut fractal = desc(&mut rng);
        if fractal.kind.uses_offset() && rng.random() {
            fractal.offset = Some(rng.random_range(-2.0..2.0));
        }
        if fractal.kind.uses_weight() && rng.random() {
            fractal.weight = Some(rng.random_range(0.0..4.0));
        }
        let mut s = Stack {
            noise: NoiseKind::ALL[i % 4],
            distance: None,
            ret: None,
            jitter: None,
            seed: rng.random(),
            frequency: rng.random_range(1e-4..10.0),
            period: None,
            offset: (i % 5 < 2).then(|| random_offset(&mut rng)),
            antialias: i % 4 == 1,
            footprint: (i % 4 == 1).then(|| rng.random_range(1e-4..10.0)),
            fractal: (i % 3 != 0).then_some(fractal),
            warp: (i % 2 == 0).then(|| WarpDesc {
                kind: WarpKind::Single,
                noise: rng.random::<bool>().then_some(NoiseKind::ALL[i / 7 % 4]),
                seed: rng.random::<bool>().then(|| rng.random()),
                frequency: rng.random::<bool>().then(|| rng.random_range(1e-3..1.0)),
                amplitude: rng.random_range(-50.0..50.0),
                fractal: rng.random::<bool>().then(|| FractalDesc {
                    kind: FractalKind::Fbm,
                    ..desc(&mut rng)
                }),
            }),
        };
        // Long fractals with a large lacunarity move their top octave too
        // far for some offsets; those stacks are refused, not printed.
        if s.check().is_err() {
            s.offset = None;
        } else if s.offset.is_some() {
            offsets += 1;
        }
        round_trip(&s);
    }
    assert!(offsets > 50, "{offsets} stacks with an offset");
}

/// One to four offsets of every size, signs and zeros (−0.0 included),
/// with long binary expansions.
fn random_offset(rng: &mut SmallRng) -> Vec<f64> {
    let n = rng.random_range(1..=4);
    (0..n)
        .map(|_| match rng.random_range(0..6) {
            0 => 0.0,
            1 => -0.0,
            2 => rng.random_range(-1.0..1.0),
            3 => rng.random_range(-1e6..1e6),
            4 => rng.random_range(-1e-300..1e-300),
            _ => f64::from(rng.random_range(-100i32..100)) / 3.0,
        })
        .collect()
}

/// The error for `text`, checking that it names `key`.
fn toml_error(text: &str, key: &str) -> String {
    let e = Stack::from_toml_str(text).unwrap_err();
    match &e {
        Error::Config { key: k, .. } => assert_eq!(k, key, "{text:?}: {e}"),
        other => panic!("{text:?}: not a config error: {other:?}"),
    }
    let msg = e.to_string();
    assert!(msg.starts_with(&format!("{key}: ")), "{msg}");
    msg
}

fn json_error(text: &str, key: &str) -> String {
    let e = Stack::from_json_str(text).unwrap_err();
    assert!(
        matches!(&e, Error::Config { key: k, .. } if k == key),
        "{text:?}: {e:?}"
    );
    e.to_string()
}

#[test]
fn unknown_keys_are_named() {
    let m = toml_error("colour = 1", "colour");
    assert!(m.contains("unknown field `colour`"), "{m}");
    let m = toml_error("[fractal]\noctavs = 3", "fractal.octavs");
    assert!(m.contains("line 2"), "{m}");
    toml_error("[warp]\nstrength = 3", "warp.strength");
    toml_error("[warp.fractal]\nperiod = [3]", "warp.fractal.period");
    json_error(r#"{"fractal": {"octavs": 3}}"#, "fractal.octavs");
    json_error(r#"{"warp": {"fractal": {"x": 1}}}"#, "warp.fractal.x");
}

/// A negative seed n is the seed 2^64 + n in config files too, as on the
/// command line: as an integer, or as a string.
#[test]
fn negative_seeds_are_twos_complement() {
    for (text, want) in [
        ("seed = -1", u64::MAX),
        ("seed = \"-1\"", u64::MAX),
        ("seed = -9223372036854775808", 1 << 63),
        ("seed = \"-42\"", 0u64.wrapping_sub(42)),
    ] {
        assert_eq!(Stack::from_toml_str(text).unwrap().seed, want, "{text}");
    }
    assert_eq!(
        Stack::from_json_str(r#"{"seed": -7}"#).unwrap().seed,
        0u64.wrapping_sub(7)
    );
    // Written back unsigned, and read back the same.
    let s = Stack::from_toml_str("seed = -1").unwrap();
    let again = Stack::from_toml_str(&s.to_toml_string().unwrap()).unwrap();
    assert_eq!(again, s);
}

#[test]
fn bad_values_are_named() {
    let m = toml_error("[fractal]\noctaves = 0", "fractal.octaves");
    assert!(m.contains("line 2") && m.contains("1..=32"), "{m}");
    toml_error("[fractal]\noctaves = 33", "fractal.octaves");
    let m = toml_error("noise = \"simplx\"", "noise");
    assert!(
        m.contains("\"simplx\"") && m.contains("simplex-value"),
        "{m}"
    );
    toml_error("frequency = 0.0", "frequency");
    toml_error("frequency = -inf", "frequency");
    toml_error("frequency = nan", "frequency");
    toml_error("[fractal]\nlacunarity = 0", "fractal.lacunarity");
    toml_error("[fractal]\ngain = inf", "fractal.gain");
    toml_error("[fractal]\namplitude = \"big\"", "fractal.amplitude");
    toml_error("[fractal]\nkind = \"fbn\"", "fractal.kind");
    toml_error("[fractal]\nnormalize = 1", "fractal.normalize");
    toml_error("[fractal]\noffset = 1.0", "fractal.offset");
    toml_error(
        "[fractal]\nkind = \"billow\"\nweight = 1.0",
        "fractal.weight",
    );
    toml_error(
        "[fractal]\nkind = \"ridged\"\noffset = nan",
        "fractal.offset",
    );
    toml_error("seed = \"-3x\"", "seed");
    toml_error("seed = \"twelve\"", "seed");
    toml_error("period = [0, 3]", "period");
    toml_error("period = []", "period");
    toml_error("period = [65537]", "period");
    // Periodic forms are checked before a build, for the stack's noise and
    // the warp's, in the dimension the period gives.
    let m = toml_error("noise = \"opensimplex2\"\nperiod = [4, 4]", "period");
    assert!(m.contains("no periodic form in 2D"), "{m}");
    toml_error("noise = \"simplex\"\nperiod = [4, 4, 4, 4]", "period");
    let m = toml_error("noise = \"simplex\"\nperiod = [4, 5]", "period");
    assert!(m.contains("must be even"), "{m}");
    let m = toml_error(
        "noise = \"perlin\"\nperiod = [4, 4]\n[warp]\nnoise = \"opensimplex2s\"",
        "warp.noise",
    );
    assert!(
        m.contains("opensimplex2s noise has no periodic form"),
        "{m}"
    );
    toml_error(
        "period = [4]\n[fractal]\nlacunarity = 2.5",
        "fractal.lacunarity",
    );
    toml_error("[warp]\nkind = \"twisted\"", "warp.kind");
    toml_error("[warp]\nnoise = \"worley\"", "warp.noise");
    toml_error("[warp]\nfrequency = -1", "warp.frequency");
    toml_error("[warp]\namplitude = inf", "warp.amplitude");
    toml_error("[warp.fractal]\noctaves = 0", "warp.fractal.octaves");
    toml_error(
        "[warp]\nkind = \"progressive\"\n[warp.fractal]\nkind = \"ridged\"",
        "warp.fractal.kind",
    );
    toml_error(
        "period = [4]\nfrequency = 0.5\n[warp]\nfrequency = 0.3",
        "warp.frequency",
    );
    toml_error("[fractal]\namplitude = 0", "fractal.normalize");
    // 4096 · 2^5 > 65536: the last octave's period is out of range.
    let m = toml_error("period = [4, 4096]\n[fractal]\noctaves = 6", "period");
    assert!(m.contains("axis 1"), "{m}");
    toml_error(
        "[fractal]\nlacunarity = 1e300\noctaves = 3",
        "fractal.lacunarity",
    );
    json_error(r#"{"fractal": {"octaves": 0}}"#, "fractal.octaves");
    json_error(r#"{"noise": "simplx"}"#, "noise");
    json_error(r#"{"seed": "-9223372036854775809"}"#, "seed");
    json_error(r#"{"seed": 1.5}"#, "seed");
    json_error(r#"{"warp": {"frequency": -2.0}}"#, "warp.frequency");
    // Syntax errors have no key but say where.
    let e = Stack::from_toml_str("x = ").unwrap_err();
    assert!(matches!(&e, Error::Config { key, .. } if key.is_empty()));
    assert!(e.to_string().contains("line 1"), "{e}");
    assert!(Stack::from_json_str("{} x").is_err());
}

#[test]
fn build_errors_are_named() {
    let key = |s: &Stack, d: usize| {
        let e = match d {
            2 => s.build::<2>().map(|_| ()),
            3 => s.build::<3>().map(|_| ()),
            _ => s.build::<4>().map(|_| ()),
        }
        .unwrap_err();
        match e {
            Error::Config { key, .. } => key,
            other => panic!("{other:?}"),
        }
    };
    let p = Stack::from_toml_str("period = [4, 4]").unwrap();
    assert_eq!(key(&p, 3), "period");
    // These two are refused by the readers' check (bad_values_are_named);
    // a stack built in Rust meets the same check when it is built.
    let periodic = |period: Vec<u32>| Stack {
        period: Some(period),
        ..Stack::default()
    };
    assert_eq!(key(&periodic(vec![4, 4, 4, 4]), 4), "period"); // simplex has no periodic 4D form
    assert_eq!(key(&periodic(vec![4, 5]), 2), "period"); // 2D simplex needs an even y period
    // Rust-built stacks are checked too.
    let s = Stack {
        frequency: -1.0,
        ..Stack::default()
    };
    assert_eq!(key(&s, 2), "frequency");
}

#[test]
fn compiled_stack_is_its_description() {
    // No fractal: the noise at the frequency.
    let s = Stack::from_toml_str("noise = \"value\"\nseed = 4\nfrequency = 0.5").unwrap();
    let f = s.build::<3>().unwrap();
    let n = Noise::<3>::new(NoiseKind::Value, 4);
    for p in [[1.0f64, 2.0, 3.0], [-7.25, 0.5, 100.0]] {
        assert_eq!(f.get(p), n.get(p.map(|x| x * 0.5)));
    }
    // Fractal and warp: the library types built by hand.
    let s = Stack::from_toml_str(&data("stack.toml")).unwrap();
    let f = s.build::<2>().unwrap();
    let base = Noise::<2>::new(NoiseKind::SimplexValue, u64::MAX - 5)
        .with_period([4, 8])
        .unwrap();
    let fractal = Fractal::new(
        base,
        FractalParams {
            octaves: 5,
            frequency: 0.01,
            offset: 1.1,
            ..FractalParams::new(FractalKind::Ridged)
        },
    )
    .unwrap();
    let mut wp = WarpParams::new(WarpKind::Progressive);
    wp.amplitude = 30.0;
    wp.fractal = FractalParams {
        octaves: 3,
        frequency: 0.02,
        ..FractalParams::new(FractalKind::Fbm)
    };
    let wn = Noise::<2>::new(NoiseKind::Perlin, 7)
        .with_period([8, 16])
        .unwrap();
    let warp = Warp::new(fractal.clone(), wn, wp).unwrap();
    assert_eq!(f.fractal(), &fractal);
    assert_eq!(f.warp(), Some(&warp));
    assert_eq!(f.tile(), Some([400.0, 800.0]));
    for p in [[1.0f64, 2.0], [-70.25, 0.5], [1234.5, -999.0]] {
        assert_eq!(f.sample(p), warp.sample(p));
    }
    // The warp seed defaults to the stack seed, and the noise to the stack's.
    let s = Stack::from_toml_str("noise = \"perlin\"\nseed = 9\n[warp]").unwrap();
    let w = s.build::<2>().unwrap();
    assert_eq!(w.warp().unwrap().noise(), Noise::new(NoiseKind::Perlin, 9));
}

/// The domain offset: written only when present (configs without it print
/// as before), read back exactly from TOML and JSON, and refused with an
/// error naming the key when its length, values or reach are wrong.
#[test]
fn offsets_round_trip_and_are_checked() {
    let plain = sample();
    // (The sample's `[fractal]` has the ridged offset, another key.)
    assert!(!plain.to_toml_string().unwrap().contains("offset = ["));
    assert!(!plain.to_json_string().unwrap().contains("\"offset\": ["));
    let s = Stack {
        offset: Some(vec![0.1, -0.0]),
        ..plain.clone()
    };
    let toml = s.to_toml_string().unwrap();
    assert!(toml.contains("\noffset = [0.1, -0.0]\n"), "{toml}");
    let json = s.to_json_string().unwrap();
    assert!(
        json.contains("\"offset\": [\n    0.1,\n    -0.0\n  ]"),
        "{json}"
    );
    round_trip(&s);
    for o in [
        vec![1.0 / 3.0],
        vec![10.0, 20.0, -30.5, 1e-300],
        vec![-123456.789, 5e-324],
    ] {
        round_trip(&Stack {
            offset: Some(o),
            ..Stack::default()
        });
    }
    // Integers read as numbers of cells.
    let s = Stack::from_toml_str("offset = [10, -2]").unwrap();
    assert_eq!(s.offset, Some(vec![10.0, -2.0]));
    assert_eq!(Stack::from_json_str(r#"{"offset": [10, -2]}"#).unwrap(), s);

    // While reading: length and finiteness, with the key.
    for text in ["offset = []", "offset = [1, 2, 3, 4, 5]", "offset = 3"] {
        toml_error(text, "offset");
    }
    let m = toml_error("offset = [1, nan]", "offset");
    assert!(m.contains("finite") && m.contains("NaN"), "{m}");
    toml_error("offset = [inf]", "offset");
    json_error(r#"{"offset": null}"#, "offset");
    json_error(r#"{"offset": [1, "x"]}"#, "offset[1]");
    // Beside a period, the lengths meet only in `build`, against D.
    let s = Stack::from_toml_str("period = [4, 4]\noffset = [1]").unwrap();
    let e = s.build::<2>().map(|_| ()).unwrap_err();
    assert!(e.to_string().starts_with("offset: has 1 entries"), "{e}");
    // Octave 31 at lacunarity 2 moves 2^31 times as far: 2^22 cells there
    // are 2^53 of its own, the most an octave may move.
    let deep = "[fractal]\noctaves = 32\n";
    assert!(Stack::from_toml_str(&format!("offset = [4194304]\n{deep}")).is_ok());
    let m = toml_error(&format!("offset = [0, 4194305]\n{deep}"), "offset[1]");
    assert!(m.contains("2^53") && m.contains("fractal"), "{m}");
    // The warp's octaves count too.
    let m = toml_error(
        "offset = [1e10]\n[warp]\nfrequency = 1e6\n[warp.fractal]\noctaves = 2",
        "offset[0]",
    );
    assert!(m.contains("warp"), "{m}");

    // Stacks built in Rust: `check` names the entry.
    let key = |s: &Stack| match s.check().unwrap_err() {
        Error::Config { key, .. } => key,
        other => panic!("{other:?}"),
    };
    let bad = |o: Vec<f64>| Stack {
        offset: Some(o),
        ..Stack::default()
    };
    assert_eq!(key(&bad(vec![1.0, f64::NAN])), "offset[1]");
    assert_eq!(key(&bad(vec![f64::NEG_INFINITY])), "offset[0]");
    assert_eq!(key(&bad(vec![])), "offset");
    assert_eq!(key(&bad(vec![0.0; 5])), "offset");
    // The dimension is known when building.
    let s = bad(vec![1.0, 2.0]);
    assert!(s.build::<2>().is_ok());
    for e in [
        s.build::<1>().map(|_| ()).unwrap_err(),
        s.build::<3>().map(|_| ()).unwrap_err(),
    ] {
        assert!(
            matches!(&e, Error::Config { key, .. } if key == "offset"),
            "{e}"
        );
        assert!(e.to_string().contains("has 2 entries"), "{e}");
    }
}

/// The offset translates the domain by `offset / frequency` input units:
/// values and gradients are the unmoved stack's at the moved point, bit for
/// bit where the octave coordinates are exact (power-of-two frequencies,
/// whole lacunarities, short binary points and offsets), for every noise
/// and fractal kind; an offset of a whole period gives the tile back, and a
/// zero offset changes nothing.
#[test]
fn offsets_translate_the_domain() {
    let points = [
        [0.25f64, 0.5, -1.75],
        [3.125, -7.5, 0.0],
        [-0.0, 12.0625, 5.5],
    ];
    let d3 = |s: &Stack| s.build::<3>().unwrap();
    for noise in NoiseKind::ALL {
        for kind in FractalKind::ALL {
            for frequency in [0.5, 1.0, 4.0] {
                let plain = Stack {
                    noise,
                    seed: 5,
                    frequency,
                    fractal: Some(FractalDesc {
                        kind,
                        octaves: 3,
                        ..FractalDesc::default()
                    }),
                    ..Stack::default()
                };
                let cells = [2.5, -0.75, 1.0];
                let moved = Stack {
                    offset: Some(cells.to_vec()),
                    ..plain.clone()
                };
                let (a, b) = (d3(&plain), d3(&moved));
                for p in points {
                    let q: [f64; 3] = core::array::from_fn(|k| p[k] + cells[k] / frequency);
                    assert_eq!(
                        b.sample(p),
                        a.sample(q),
                        "{noise} {kind} {frequency}: {p:?}"
                    );
                    assert_eq!(b.get(p.map(|v| v as f32)), a.get(q.map(|v| v as f32)));
                }
                // Zeros, −0.0 included, are no move at all.
                let zero = Stack {
                    offset: Some(vec![0.0, -0.0, 0.0]),
                    ..plain.clone()
                };
                let z = d3(&zero);
                for p in points {
                    assert_eq!(z.sample(p), a.sample(p));
                }
            }
        }
        // A whole period along each axis gives the same tile.
        let tiled = Stack {
            noise,
            seed: 8,
            frequency: 0.5,
            period: Some(vec![4, 6]),
            fractal: Some(FractalDesc {
                octaves: 3,
                ..FractalDesc::default()
            }),
            ..Stack::default()
        };
        if let Ok(t) = tiled.build::<2>() {
            let whole = Stack {
                offset: Some(vec![-4.0, 12.0]),
                ..tiled.clone()
            };
            let w = whole.build::<2>().unwrap();
            for p in points {
                let p = [p[0], p[1]];
                assert_eq!(w.sample(p), t.sample(p), "{noise} tiled: {p:?}");
            }
        }
    }
    // Through a warp the moved point is displaced and rounded again, so the
    // equality holds up to rounding; the warp and the field move together.
    for kind in WarpKind::ALL {
        let plain = Stack::from_toml_str(&format!(
            "noise = \"simplex\"\nseed = 3\nfrequency = 0.3\n[fractal]\noctaves = 3\n\
             [warp]\nkind = \"{kind}\"\namplitude = 0.8\nfrequency = 0.7\n\
             [warp.fractal]\noctaves = 2"
        ))
        .unwrap();
        let cells = [1.7, -40.3];
        let moved = Stack {
            offset: Some(cells.to_vec()),
            ..plain.clone()
        };
        let (a, b) = (plain.build::<2>().unwrap(), moved.build::<2>().unwrap());
        for p in [[0.1f64, 0.2], [-5.5, 17.25], [100.0, -3.0]] {
            let q = [p[0] + cells[0] / 0.3, p[1] + cells[1] / 0.3];
            let (x, y) = (b.sample(p), a.sample(q));
            let close = |u: f64, v: f64| (u - v).abs() <= 1e-9 * (1.0 + v.abs());
            assert!(close(x.value, y.value), "{kind} {p:?}: {x:?} vs {y:?}");
            assert!(
                (0..2).all(|k| close(x.gradient[k], y.gradient[k])),
                "{kind} {p:?}: {x:?} vs {y:?}"
            );
            // Not the unmoved field: the warp did move.
            assert_ne!(x.value, a.sample(p).value);
        }
    }
}
