//! Alias-free fractals from the command line: `render --antialias` fades by
//! the pixel, its saved config renders the same pixels, a stack's own
//! `antialias` key and a graph's leaves agree with it, tiles assemble to
//! the whole image, and `analyze --oversample` measures less power above
//! the Nyquist frequency.

use std::fs;
use std::path::Path;

use crate::common::*;
use tempfile::TempDir;

/// An 8-octave fBm, zoomed out so that its last octaves are far finer than
/// a pixel (octave 7: 128 cells a unit, 16 cells a pixel at 1/8).
const FBM: [&str; 6] = ["--noise", "perlin", "--octaves", "8", "--scale", "1/8"];

/// The raw f32 values of a 64×48 render.
fn raw(dir: &Path, args: &[&str]) -> Vec<f32> {
    let mut all = vec!["--size", "64x48"];
    all.extend_from_slice(args);
    read_f32(&render_in(dir, "v.f32", &all))
}

/// Writes `text` as a config in `dir` and returns its path.
fn config(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// How much neighbouring pixels differ: fine detail.
fn roughness(v: &[f32]) -> f64 {
    v.windows(2).map(|w| f64::from(w[1] - w[0]).powi(2)).sum()
}

#[test]
fn antialias_fades_by_the_pixel_and_its_config_renders_the_same_pixels() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let plain = raw(d, &FBM);
    let mut args = FBM.to_vec();
    args.push("--antialias");
    let faded = raw(d, &args);
    // Octaves 3-7 (a cell a pixel and finer) gone, octave 2 at 43 %: the
    // neighbours' squared differences fall to 0.70 of the plain ones.
    assert!(
        roughness(&faded) < 0.8 * roughness(&plain),
        "{} vs {}",
        roughness(&faded),
        roughness(&plain)
    );

    // The saved config says so, and renders the same bytes.
    let cfg = d.join("aa.toml");
    let mut save = args.clone();
    save.extend(["--size", "64x48", "--save-config", cfg.to_str().unwrap()]);
    let first = fs::read(render_in(d, "a.png", &save)).unwrap();
    let text = fs::read_to_string(&cfg).unwrap();
    assert!(text.contains("antialias = true"), "{text}");
    let again = render_in(d, "b.png", &["--config", cfg.to_str().unwrap()]);
    assert_eq!(first, fs::read(again).unwrap());

    // A stack's own key, without a footprint, takes the same pixel.
    let own = config(
        d,
        "own.toml",
        "version = 2\nnoise = \"perlin\"\nantialias = true\n[fractal]\noctaves = 8\n",
    );
    assert_eq!(raw(d, &["--config", &own, "--scale", "1/8"]), faded);
    // A stated footprint is kept: a tenth of the pixel fades less.
    let stated = config(
        d,
        "stated.toml",
        "version = 2\nnoise = \"perlin\"\nantialias = true\nfootprint = 0.0125\n\
         [fractal]\noctaves = 8\n",
    );
    let less = raw(d, &["--config", &stated, "--scale", "1/8"]);
    assert!(roughness(&less) > roughness(&faded) && roughness(&less) < roughness(&plain));
}

/// A graph's leaves fade by the pixel, scaled through `scale` nodes: the
/// stack at frequency 4 and the same stack under `scale(.., by=4)` are one
/// field, antialiased alike.
#[test]
fn graphs_fade_their_leaves_through_scale_nodes() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let direct = raw(
        d,
        &[
            "--expr",
            "fbm(perlin(frequency=4), octaves=6)",
            "--scale",
            "1/32",
            "--antialias",
        ],
    );
    let scaled = raw(
        d,
        &[
            "--expr",
            "scale(fbm(perlin(), octaves=6), by=4)",
            "--scale",
            "1/32",
            "--antialias",
        ],
    );
    let plain = raw(
        d,
        &[
            "--expr",
            "scale(fbm(perlin(), octaves=6), by=4)",
            "--scale",
            "1/32",
        ],
    );
    assert_ne!(scaled, plain);
    for (i, (a, b)) in direct.iter().zip(&scaled).enumerate() {
        assert!((a - b).abs() < 1e-5, "pixel {i}: {a} vs {b}");
    }
}

/// Every tile fades by the whole image's pixel, so the tiles are the
/// whole image's pixels.
#[test]
fn antialiased_tiles_are_the_whole_images_pixels() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let mut whole_args = FBM.to_vec();
    whole_args.extend(["--antialias", "--size", "40x30"]);
    let whole = read_f32(&render_in(d, "w.f32", &whole_args));
    let mut tiles = Vec::new();
    for i in 0..2 {
        let at = format!("{i},0");
        let mut a = whole_args.clone();
        a.extend(["--tile", &at, "--tiles", "2,1"]);
        tiles.push(read_f32(&render_in(d, &format!("t{i}.f32"), &a)));
    }
    for y in 0..30 {
        for x in 0..40 {
            let (t, tx) = if x < 20 { (0, x) } else { (1, x - 20) };
            assert_eq!(
                tiles[t][y * 20 + tx].to_bits(),
                whole[y * 40 + x].to_bits(),
                "pixel {x},{y}"
            );
        }
    }
}

/// `analyze --oversample 4` sees past the Nyquist frequency of the sample:
/// the antialiased fBm has far less power there than the plain one, at
/// every zoom.
#[cfg(feature = "plots")]
#[test]
fn analyze_measures_less_power_above_nyquist() {
    let dir = TempDir::new().unwrap();
    let above = |extra: &[&str]| -> (f64, f64) {
        let out = dir.path().join("out");
        let mut args = vec![
            "analyze".to_string(),
            out.to_str().unwrap().into(),
            "perlin".into(),
            "--octaves".into(),
            "8".into(),
            "--size".into(),
            "64".into(),
            "--oversample".into(),
            "4".into(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        let o = surflet().args(&args).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = fs::read_to_string(out.join("summary.json")).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["size"], 256);
        assert_eq!(v["oversample"], 4);
        let a = &v["above_nyquist"];
        (
            a["power"].as_f64().unwrap(),
            a["frequency"].as_f64().unwrap(),
        )
    };
    for scale in ["1/16", "1/4"] {
        let (plain, f) = above(&["--scale", scale]);
        let (faded, f2) = above(&["--scale", scale, "--antialias"]);
        assert_eq!(f, f2);
        assert!(
            faded < 0.25 * plain,
            "--scale {scale}: {faded} above Nyquist antialiased vs {plain} plain"
        );
    }
}

/// Bad input is refused with the key or flag named: an oversampled slice
/// past 4096 samples a side, a stack antialiased without a footprint where
/// no pixel gives one (`sample` evaluates points), a footprint without
/// `antialias`.
#[cfg(feature = "plots")]
#[test]
fn antialias_and_oversample_bad_input() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("out");
    let (_, e) = fails(
        &[
            "analyze",
            out.to_str().unwrap(),
            "perlin",
            "--oversample",
            "16",
        ],
        "",
        2,
    );
    assert!(e.contains("8192 samples a side; the most is 4096"), "{e}");
    assert!(!out.exists(), "a refused analysis made its directory");
    let d = dir.path();
    let unstated = config(
        d,
        "u.toml",
        "version = 2\nnoise = \"perlin\"\nantialias = true\n[fractal]\noctaves = 4\n",
    );
    // sample builds the stack at its first line, in the line's dimension:
    // a runtime error there, naming the line and the key.
    let (_, e) = fails(&["sample", "--config", &unstated], "0.5 0.5\n", 1);
    assert!(e.contains("antialias: needs the spacing"), "{e}");
    let stray = config(
        d,
        "s.toml",
        "version = 2\nnoise = \"perlin\"\nfootprint = 0.5\n",
    );
    let png = d.join("x.png");
    let e = render_err(&[png.to_str().unwrap(), "--config", &stray], 2);
    assert!(
        e.contains("footprint: is the spacing that antialias fades"),
        "{e}"
    );
}

/// `sample curl2` of an antialiased stack curls the faded potential: the
/// library's `Curl::with_footprint`, bit for bit, and not the plain curl.
#[test]
fn curl_noise_fades_its_potential() {
    use surflet::{Curl, Stack};
    let dir = TempDir::new().unwrap();
    let text = "version = 2\nnoise = \"perlin\"\nantialias = true\nfootprint = 0.1\n\
                [fractal]\noctaves = 8\n";
    let faded = config(dir.path(), "f.toml", text);
    let pts = [[0.5, 0.25], [-3.75, 1.125], [10.0, -0.5]];
    let input: String = pts.iter().map(|p| format!("{} {}\n", p[0], p[1])).collect();
    let got = parse_output(&sample_ok(&["curl2", "--config", &faded], &input));
    let stack = Stack::from_toml_str(&text.replace("version = 2\n", "")).unwrap();
    let plain = Curl::<2>::new(stack.build::<2>().unwrap().fractal().clone());
    let curl = plain.with_footprint(0.1);
    let want: Vec<Vec<f64>> = pts.iter().map(|&p| curl.get(p).to_vec()).collect();
    assert_rows_bits("faded curl2", &got, &want);
    assert!(pts.iter().any(|&p| plain.get(p) != curl.get(p)));
}
