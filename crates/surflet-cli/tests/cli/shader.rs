//! `surflet shader`: the stack as WGSL, the same text as the library's
//! `Evaluator::wgsl` whether the stack comes from flags or a config, and
//! clear errors for what has no shader. (Whether the WGSL computes the
//! CPU's bits is crates/surflet-gpu/tests/agreement.rs.)

use std::fs;

use surflet::Stack;
use tempfile::TempDir;

use crate::common::{fails, surflet};

fn shader(args: &[&str]) -> String {
    let out = surflet().arg("shader").args(args).output().unwrap();
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "shader {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

const TOML: &str = "noise = \"perlin\"\nseed = 9\nfrequency = 0.25\n\n\
                    [fractal]\nkind = \"ridged\"\noctaves = 4\n\n[warp]\namplitude = 0.5\n";

#[test]
fn flags_and_config_give_the_librarys_module() {
    let dir = TempDir::new().unwrap();
    let config = dir.path().join("s.toml");
    fs::write(&config, TOML).unwrap();
    let want2 = Stack::from_toml_str(TOML)
        .unwrap()
        .build::<2>()
        .unwrap()
        .wgsl("noise")
        .unwrap();
    let want3 = Stack::from_toml_str(TOML)
        .unwrap()
        .build::<3>()
        .unwrap()
        .wgsl("hills")
        .unwrap();
    let flags = [
        "perlin",
        "--seed",
        "9",
        "--frequency",
        "0.25",
        "--fractal",
        "ridged",
        "--octaves",
        "4",
        "--warp-amplitude",
        "0.5",
    ];
    assert_eq!(shader(&flags), want2);
    assert_eq!(shader(&["--config", config.to_str().unwrap()]), want2);
    let three = shader(&[
        "--config",
        config.to_str().unwrap(),
        "--dims",
        "3",
        "--name",
        "hills",
    ]);
    assert_eq!(three, want3);
    assert!(three.contains("fn hills(p: vec3<f32>) -> f32"));
    assert!(three.contains("fn hills_gradient(p: vec3<f32>) -> vec4<f32>"));
    // --output writes the same text, replacing an existing file.
    let out = dir.path().join("n.wgsl");
    fs::write(&out, "old").unwrap();
    let mut args = flags.to_vec();
    args.extend(["--output", out.to_str().unwrap()]);
    assert_eq!(shader(&args), "");
    assert_eq!(fs::read_to_string(&out).unwrap(), want2);
}

#[test]
fn a_period_fixes_the_dimension() {
    let text = shader(&["value", "--period", "4,4,6"]);
    assert!(text.contains("fn noise(p: vec3<f32>) -> f32"), "{text}");
    let (_, e) = fails(
        &["shader", "value", "--period", "4,4,6", "--dims", "2"],
        "",
        2,
    );
    assert!(
        e.contains("--period gives 3 dimensions but --dims gives 2"),
        "{e}"
    );
}

#[test]
fn a_configs_per_axis_keys_fix_the_dimension() {
    let dir = TempDir::new().unwrap();
    let cfg = dir.path().join("look.toml");
    fs::write(&cfg, "noise = \"value\"\noffset = [0.5, 1, 2]\n").unwrap();
    let cfg = cfg.to_str().unwrap();
    let text = shader(&["--config", cfg]);
    assert!(text.contains("fn noise(p: vec3<f32>) -> f32"), "{text}");
    let (_, e) = fails(&["shader", "--config", cfg, "--period", "4,4"], "", 2);
    assert!(
        e.contains("the config's offset gives 3 dimensions but --period gives 2"),
        "{e}"
    );
}

#[test]
fn what_has_no_shader_is_refused() {
    let cases: [(&[&str], &str); 6] = [
        (&["cellular"], "cellular noise has no WGSL kernel"),
        (&["opensimplex2"], "no WGSL kernel"),
        (&["--expr", "perlin() + 1"], "graphs"),
        (&["--noise", "noise1234"], "reference port"),
        (
            &["simplex", "--name", "surflet_x"],
            "prefix of the module's own functions",
        ),
        (&["simplex", "--name", "9lives"], "not a WGSL identifier"),
    ];
    for (args, message) in cases {
        let mut all = vec!["shader"];
        all.extend_from_slice(args);
        let (out, e) = fails(&all, "", 2);
        assert!(out.is_empty() && e.contains(message), "{args:?}: {e}");
    }
    let (_, e) = fails(&["shader", "--dims", "4"], "", 2);
    assert!(e.contains("4"), "{e}");
}

#[test]
fn an_unwritable_output_leaves_nothing() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("missing").join("n.wgsl");
    let (_, e) = fails(&["shader", "--output", out.to_str().unwrap()], "", 1);
    assert!(e.contains("cannot create a file in"), "{e}");
    assert!(!dir.path().join("missing").exists());
}
