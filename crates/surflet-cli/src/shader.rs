//! `surflet shader`: a noise stack as shader source, for users' own GPU
//! pipelines.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use surflet::{Graph, NoiseKind, Stack};

use crate::CliError;
use crate::imaging::output::Staged;
use crate::names::NoiseName;
use crate::stack_args::{self, Resolved, StackArgs, agreed_dims, one_noise};

/// Long description, shown by `surflet shader --help`.
pub const LONG_ABOUT: &str = "\
Print a noise or noise stack as shader source, for your own GPU pipeline
(Bevy's materials, a wgpu compute pass). The module defines

  fn NAME(p: vec2<f32>) -> f32               the value (vec3<f32> with --dims 3)
  fn NAME_gradient(p: vec2<f32>) -> vec3<f32>  (value, d/dx, d/dy[, d/dz])

and with --dims 4, where WGSL has no vec5, NAME_gradient(p: vec4<f32>)
returns the module's struct SurfletSample4d, whose fields are value (f32)
and gradient (vec4<f32>).

computed operation for operation as the CPU computes it in f32, so a
driver that rounds as IEEE 754 says gives the CPU's bits. For that, set
the module's `surflet_zero` (a private u32) from a uniform holding 0 at the
start of your entry point: it stops the driver from fusing products into
multiply-adds (docs/GPU.md has what each tested driver does).

Covered: every noise of the family (value, value-cubic, perlin, simplex,
simplex-value, opensimplex2, opensimplex2s, cellular) in 2D, 3D and 4D,
with every fractal and domain warp, periodic or not, and graphs (--expr or a
config's [graph]) of every node kind but a custom Rust field.

--lang glsl, hlsl, msl or spirv writes the module in another language,
translated from the WGSL by naga (wgpu's translator; a build with the
`langs` feature): every function and global, the opaque zero included,
without an entry point (SPIR-V, which needs one, gets an empty compute
`surflet_stub_main`). naga renames parameters and locals, not the module's
functions (a --name the language reserves, as HLSL does `noise`, is
refused). In MSL the opaque zero is each function's last parameter. The
GLSL, compiled by glslang, gives the CPU's bits on lavapipe; HLSL and MSL
are validated, not run (docs/GPU.md).

--import-path writes the `#define_import_path` line that Bevy's shader
imports (naga_oil) expect, so that a Bevy shader can `#import` the module.

  surflet shader simplex --octaves 5 > noise.wgsl
  surflet shader --config terrain.toml --dims 3 --name terrain --output terrain.wgsl
  surflet shader perlin --octaves 4 --import-path my_game::noise > noise.wgsl
  surflet shader perlin --octaves 4 --lang glsl > noise.glsl";

/// A shading language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Lang {
    /// WGSL (WebGPU, wgpu, Bevy).
    Wgsl,
    /// GLSL 4.50 (Vulkan, OpenGL; Godot, three.js).
    Glsl,
    /// HLSL, shader model 5.1 (Direct3D; Unity, Unreal).
    Hlsl,
    /// Metal Shading Language 2.0.
    Msl,
    /// SPIR-V words (binary; needs --output).
    Spirv,
}

/// Command line of `surflet shader`.
#[derive(Args, Debug)]
#[command(allow_negative_numbers = true)]
pub struct ShaderArgs {
    /// The noise kind, the same as -n KIND [default: simplex, or the
    /// config's].
    #[arg(value_name = "KIND", value_parser = stack_args::noise_kind())]
    pub kind: Option<NoiseKind>,

    // Boxed so that `Command` stays small (the group is large).
    #[command(flatten)]
    pub stack: Box<StackArgs>,

    /// The shading language.
    #[arg(long, value_enum, default_value = "wgsl")]
    pub lang: Lang,

    /// Dimension of the noise, 2, 3 or 4 [default: 2, or what a per-axis
    /// key (--period, --domain-offset, the config's) gives].
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u8).range(2..=4))]
    pub dims: Option<u8>,

    /// The function's name (a WGSL identifier not starting with surflet_).
    #[arg(long, value_name = "NAME", default_value = "noise")]
    pub name: String,

    /// Start the WGSL with `#define_import_path PATH` (Bevy's shader
    /// imports), a path like `my_game::noise`.
    #[arg(long, value_name = "PATH")]
    pub import_path: Option<String>,

    /// Write the source to FILE instead of standard output (replaced only
    /// when complete).
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// The WGSL module of `graph`, or of `stack` where there is no graph, in
/// `dims` (2 to 4) dimensions, defining `name` and `name_gradient`.
pub fn wgsl(
    stack: &Stack,
    graph: Option<&Graph>,
    dims: usize,
    name: &str,
) -> Result<String, surflet::Error> {
    match (graph, dims) {
        (Some(g), 2) => g.build::<2>().and_then(|f| f.wgsl(name)),
        (Some(g), 3) => g.build::<3>().and_then(|f| f.wgsl(name)),
        (Some(g), _) => g.build::<4>().and_then(|f| f.wgsl(name)),
        (None, 2) => stack.build::<2>().and_then(|e| e.wgsl(name)),
        (None, 3) => stack.build::<3>().and_then(|e| e.wgsl(name)),
        (None, _) => stack.build::<4>().and_then(|e| e.wgsl(name)),
    }
}

/// Runs `surflet shader`, printing to `out` unless --output.
pub fn run(args: &ShaderArgs, mut out: impl Write) -> Result<(), CliError> {
    let usage = CliError::Usage;
    if args.stack.save_config.is_some() {
        return Err(usage("--save-config does not apply to shader".into()));
    }
    let noise = one_noise(
        "KIND",
        args.kind.map(NoiseName::of_kind),
        args.stack.noise(),
    )
    .map_err(usage)?;
    let noise = match noise {
        Some((name, from)) => match name.family() {
            Some(kind) => Some((kind, from)),
            None => {
                return Err(usage(format!(
                    "shader writes the surflet family's noises; {name} is a reference port"
                )));
            }
        },
        None => None,
    };
    let resolved = args.stack.resolve(noise).map_err(usage)?;
    let dims = dims_of(args, &resolved)?;
    if let Some(path) = &args.import_path {
        check_import_path(path, args.lang).map_err(usage)?;
    }
    if args.lang == Lang::Spirv && args.output.is_none() {
        return Err(usage(
            "SPIR-V is binary: give --output FILE (for text, use another --lang)".into(),
        ));
    }
    let source = wgsl(&resolved.stack, resolved.graph.as_ref(), dims, &args.name)
        .map_err(|e| usage(resolved.explain(&e)))?;
    let bytes = match (args.lang, &args.import_path) {
        (Lang::Wgsl, Some(path)) => format!("#define_import_path {path}\n\n{source}").into_bytes(),
        (Lang::Wgsl, None) => source.into_bytes(),
        (lang, _) => translated(&source, lang, &args.name)?,
    };
    match &args.output {
        None => out.write_all(&bytes).map_err(CliError::Write),
        Some(path) => {
            let staged = Staged::new(path).map_err(CliError::Runtime)?;
            staged
                .file()
                .write_all(&bytes)
                .map_err(|e| CliError::Runtime(format!("writing {}: {e}", path.display())))?;
            staged.commit(true).map_err(CliError::Runtime)
        }
    }
}

/// A Bevy import path (`a::b::c`, WGSL identifiers), for WGSL only.
fn check_import_path(path: &str, lang: Lang) -> Result<(), String> {
    if lang != Lang::Wgsl {
        return Err("--import-path is WGSL's (Bevy's shader imports)".into());
    }
    let ident = |s: &str| {
        let mut c = s.chars();
        matches!(c.next(), Some(f) if f.is_ascii_alphabetic() || f == '_')
            && c.all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if path.split("::").all(ident) {
        Ok(())
    } else {
        Err(format!(
            "--import-path {path:?} is not a path of identifiers like my_game::noise"
        ))
    }
}

/// The module in `lang`, by naga; SPIR-V as little-endian words. naga
/// renames a function whose name the language reserves (HLSL's `noise`
/// becomes `noise_`): that is refused, so that the names the user asked for
/// are the names the source has.
#[cfg(feature = "langs")]
fn translated(wgsl: &str, lang: Lang, name: &str) -> Result<Vec<u8>, CliError> {
    use surflet::wgsl::{Lang as L, Shader, translate};
    let to = match lang {
        Lang::Glsl => L::Glsl,
        Lang::Hlsl => L::Hlsl,
        Lang::Msl => L::Msl,
        Lang::Spirv => L::SpirV,
        Lang::Wgsl => unreachable!("WGSL is not translated"),
    };
    match translate(wgsl, to).map_err(|e| CliError::Runtime(e.to_string()))? {
        Shader::Text(t) => {
            let kept = |f: &str| t.lines().any(|l| l.contains(&format!(" {f}(")));
            if !(kept(name) && kept(&format!("{name}_gradient"))) {
                return Err(CliError::Usage(format!(
                    "{} reserves the name `{name}` (naga renames it); choose another --name",
                    to.name()
                )));
            }
            Ok(t.into_bytes())
        }
        Shader::SpirV(words) => Ok(words.iter().flat_map(|w| w.to_le_bytes()).collect()),
    }
}

#[cfg(not(feature = "langs"))]
fn translated(_: &str, lang: Lang, _: &str) -> Result<Vec<u8>, CliError> {
    let name = lang
        .to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_string());
    Err(CliError::Usage(format!(
        "--lang {name} needs a surflet built with the `langs` feature (naga): \
         cargo install --locked --path crates/surflet-cli --features full"
    )))
}

/// 2 unless --dims or a per-axis key (--period, --domain-offset, or the
/// config's) fixes it; those that do must agree.
fn dims_of(args: &ShaderArgs, resolved: &Resolved) -> Result<usize, CliError> {
    let usage = CliError::Usage;
    match agreed_dims(args.dims, resolved, None).map_err(usage)? {
        Some((d, _)) if (2..=4).contains(&d) => Ok(d),
        Some((d, from)) => Err(usage(format!(
            "{from} gives {d} dimensions; shader writes 2D, 3D and 4D noise"
        ))),
        None => Ok(2),
    }
}
