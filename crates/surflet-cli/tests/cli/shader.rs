//! `surflet shader`: the stack or graph as WGSL, the same text as the
//! library's `Evaluator::wgsl` and `GraphField::wgsl` whether it comes from
//! flags, an expression or a config, and
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

/// A graph, from `--expr` or a config's `[graph]`, gives the library's
/// `GraphField::wgsl` module.
#[test]
fn graphs_give_the_librarys_module() {
    let expr =
        "blend(simplex(seed=1), ridged(perlin(seed=2), octaves=3), control=value(seed=3)) * 0.5";
    let g = surflet::Graph::parse(expr).unwrap();
    let want2 = g.build::<2>().unwrap().wgsl("noise").unwrap();
    let want3 = g.build::<3>().unwrap().wgsl("terrain").unwrap();
    assert!(want2.contains("fn noise_gradient(p: vec2<f32>) -> vec3<f32>"));
    assert_eq!(shader(&["--expr", expr]), want2);
    assert_eq!(
        shader(&["--expr", expr, "--dims", "3", "--name", "terrain"]),
        want3
    );
    // The config that render saves for it.
    let dir = TempDir::new().unwrap();
    let config = dir.path().join("g.toml");
    let png = dir.path().join("g.png");
    let out = surflet()
        .args([
            "render",
            png.to_str().unwrap(),
            "--size",
            "8",
            "-q",
            "--expr",
            expr,
        ])
        .args(["--save-config", config.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(fs::read_to_string(&config).unwrap().contains("[graph"));
    assert_eq!(shader(&["--config", config.to_str().unwrap()]), want2);
    // Every language takes a graph's module (naga validates each).
    for (lang, sig) in [
        ("glsl", "float terrain(vec3 "),
        ("hlsl", "float terrain(float3 "),
        ("msl", "float terrain("),
    ] {
        let text = shader(&[
            "--expr", expr, "--dims", "3", "--name", "terrain", "--lang", lang,
        ]);
        assert!(text.contains(sig), "{lang}");
    }
}

#[test]
fn what_has_no_shader_is_refused() {
    let cases: [(&[&str], &str); 3] = [
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
    let (_, e) = fails(&["shader", "--dims", "5"], "", 2);
    assert!(e.contains("5"), "{e}");
    let (_, e) = fails(&["shader", "value", "--period", "2,2,2,2,2"], "", 2);
    assert!(e.contains("got 5"), "{e}");
}

/// 4D: the value-and-gradient struct, for stacks and graphs, in every
/// language (naga validates each).
#[test]
fn four_d_has_a_struct_in_every_language() {
    let wgsl = shader(&["cellular", "--dims", "4", "--octaves", "2"]);
    assert!(wgsl.contains("fn noise(p: vec4<f32>) -> f32"), "{wgsl}");
    assert!(wgsl.contains("fn noise_gradient(p: vec4<f32>) -> SurfletSample4d"));
    let expr = "blend(opensimplex2s(), value_cubic(seed=2), control=perlin(seed=3))";
    for (lang, sig) in [
        ("wgsl", "-> SurfletSample4d"),
        ("glsl", "SurfletSample4d terrain_gradient(vec4 "),
        ("hlsl", "SurfletSample4d terrain_gradient(float4 "),
        ("msl", "SurfletSample4d terrain_gradient("),
    ] {
        let text = shader(&[
            "--expr", expr, "--dims", "4", "--name", "terrain", "--lang", lang,
        ]);
        assert!(text.contains(sig), "{lang}: {text}");
    }
}

#[test]
fn an_unwritable_output_leaves_nothing() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("missing").join("n.wgsl");
    let (_, e) = fails(&["shader", "--output", out.to_str().unwrap()], "", 1);
    assert!(e.contains("cannot create a file in"), "{e}");
    assert!(!dir.path().join("missing").exists());
}

/// `--import-path` writes Bevy's `#define_import_path` first, and the
/// library's module after it; a path that is not one, or another language,
/// is refused.
#[test]
fn import_path_heads_the_wgsl() {
    let wgsl = shader(&["perlin", "--octaves", "3"]);
    let with = shader(&[
        "perlin",
        "--octaves",
        "3",
        "--import-path",
        "my_game::noise",
    ]);
    assert_eq!(
        with,
        format!("#define_import_path my_game::noise\n\n{wgsl}")
    );
    for (args, message) in [
        (
            &["--import-path", "my game"][..],
            "not a path of identifiers",
        ),
        (&["--import-path", "a::"][..], "not a path of identifiers"),
        (&["--import-path", "a::b", "--lang", "glsl"][..], "WGSL's"),
    ] {
        let mut all = vec!["shader", "perlin"];
        all.extend_from_slice(args);
        let (out, e) = fails(&all, "", 2);
        assert!(out.is_empty() && e.contains(message), "{args:?}: {e}");
    }
}

/// `--lang`: naga's GLSL, HLSL and MSL keep the module's two functions, the
/// GLSL is a function library (no `#version`, no `main`) that glslang
/// compiles once a shader around it gives them, and SPIR-V is binary, so it
/// needs --output. Whether the GLSL computes the CPU's bits is
/// crates/surflet-gpu/tests/agreement.rs.
#[cfg(feature = "langs")]
#[test]
fn other_languages_keep_the_functions() {
    let glsl = shader(&[
        "simplex",
        "--octaves",
        "3",
        "--lang",
        "glsl",
        "--name",
        "terrain",
    ]);
    assert!(glsl.contains("float terrain(vec2 ") && glsl.contains("vec3 terrain_gradient(vec2 "));
    assert!(
        !glsl.contains("#version") && !glsl.contains("void main"),
        "{glsl}"
    );
    let hlsl = shader(&[
        "simplex", "--lang", "hlsl", "--dims", "3", "--name", "terrain",
    ]);
    assert!(
        hlsl.contains("float terrain(float3 ") && hlsl.contains("asfloat("),
        "{hlsl}"
    );
    // HLSL reserves `noise`, which naga would rename: refused.
    let (out, e) = fails(&["shader", "simplex", "--lang", "hlsl"], "", 2);
    assert!(
        out.is_empty() && e.contains("hlsl reserves the name `noise`"),
        "{e}"
    );
    let msl = shader(&["simplex", "--lang", "msl"]);
    assert!(
        msl.contains("float noise(") && msl.contains("metal::float2"),
        "{msl}"
    );
    let (out, e) = fails(&["shader", "simplex", "--lang", "spirv"], "", 2);
    assert!(out.is_empty() && e.contains("--output"), "{e}");
    let dir = TempDir::new().unwrap();
    let spv = dir.path().join("noise.spv");
    shader(&[
        "simplex",
        "--lang",
        "spirv",
        "--output",
        spv.to_str().unwrap(),
    ]);
    let bytes = fs::read(&spv).unwrap();
    assert_eq!(
        bytes[..4],
        0x0723_0203u32.to_le_bytes(),
        "SPIR-V's magic number"
    );
    // glslang, an independent compiler, takes the library in a shader.
    let ci = std::env::var("CI").as_deref() == Ok("true");
    let comp = dir.path().join("use.comp");
    let body = "void main() { vec3 g = terrain_gradient(vec2(0.5, 0.25)); }\n";
    fs::write(
        &comp,
        format!("#version 450\nlayout(local_size_x = 1) in;\n{glsl}{body}"),
    )
    .unwrap();
    match std::process::Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.1", "-o"])
        .arg(dir.path().join("use.spv"))
        .arg(&comp)
        .output()
    {
        Ok(out) => assert!(
            out.status.success(),
            "glslang: {}",
            String::from_utf8_lossy(&out.stdout)
        ),
        Err(e) => assert!(!ci, "CI=true and no glslangValidator: {e}"),
    }
}
