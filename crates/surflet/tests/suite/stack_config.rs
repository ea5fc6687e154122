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
            fractal: Some(FractalDesc {
                kind: FractalKind::Hybrid,
                octaves: 6,
                lacunarity: 3.0,
                gain: 0.5,
                amplitude: 1.0,
                normalize: true,
                offset: None,
                weight: None,
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
    };
    for i in 0..500 {
        let mut fractal = desc(&mut rng);
        if fractal.kind.uses_offset() && rng.random() {
            fractal.offset = Some(rng.random_range(-2.0..2.0));
        }
        if fractal.kind.uses_weight() && rng.random() {
            fractal.weight = Some(rng.random_range(0.0..4.0));
        }
        let s = Stack {
            noise: NoiseKind::ALL[i % 4],
            distance: None,
            ret: None,
            jitter: None,
            seed: rng.random(),
            frequency: rng.random_range(1e-4..10.0),
            period: None,
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
        round_trip(&s);
    }
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
    let p = Stack::from_toml_str("period = [4, 4, 4, 4]").unwrap();
    assert_eq!(key(&p, 4), "period"); // simplex has no periodic 4D form
    let p = Stack::from_toml_str("period = [4, 5]").unwrap();
    assert_eq!(key(&p, 2), "period"); // 2D simplex needs an even y period
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
