//! `surflet shader`: a noise stack as shader source, for users' own GPU
//! pipelines.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use surflet::NoiseKind;

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

computed operation for operation as the CPU computes it in f32, so a
driver that rounds as IEEE 754 says gives the CPU's bits. For that, set
the module's `surflet_zero` (a private u32) from a uniform holding 0 at the
start of your entry point: it stops the driver from fusing products into
multiply-adds (docs/GPU.md has what each tested driver does).

Covered: value, perlin, simplex and simplex-value noise in 2D and 3D, with
every fractal and domain warp, periodic or not.

  surflet shader simplex --octaves 5 > noise.wgsl
  surflet shader --config terrain.toml --dims 3 --name terrain --output terrain.wgsl";

/// A shading language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Lang {
    /// WGSL (WebGPU, wgpu, Bevy; naga translates it to GLSL, HLSL, MSL and
    /// SPIR-V).
    Wgsl,
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

    /// Dimension of the noise, 2 or 3 [default: 2, or what a per-axis key
    /// (--period, --domain-offset, the config's) gives].
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u8).range(2..=3))]
    pub dims: Option<u8>,

    /// The function's name (a WGSL identifier not starting with surflet_).
    #[arg(long, value_name = "NAME", default_value = "noise")]
    pub name: String,

    /// Write the source to FILE instead of standard output (replaced only
    /// when complete).
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
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
    if resolved.graph.is_some() {
        return Err(usage(
            "shader writes noise stacks; graphs (--expr, a config's [graph]) have no shader yet"
                .into(),
        ));
    }
    let dims = dims_of(args, &resolved)?;
    let Lang::Wgsl = args.lang;
    let stack = &resolved.stack;
    let source = match dims {
        2 => stack.build::<2>().and_then(|e| e.wgsl(&args.name)),
        _ => stack.build::<3>().and_then(|e| e.wgsl(&args.name)),
    }
    .map_err(|e| usage(resolved.explain(&e)))?;
    match &args.output {
        None => out.write_all(source.as_bytes()).map_err(CliError::Write),
        Some(path) => {
            let staged = Staged::new(path).map_err(CliError::Runtime)?;
            staged
                .file()
                .write_all(source.as_bytes())
                .map_err(|e| CliError::Runtime(format!("writing {}: {e}", path.display())))?;
            staged.commit(true).map_err(CliError::Runtime)
        }
    }
}

/// 2 unless --dims or a per-axis key (--period, --domain-offset, or the
/// config's) fixes it; those that do must agree.
fn dims_of(args: &ShaderArgs, resolved: &Resolved) -> Result<usize, CliError> {
    let usage = CliError::Usage;
    match agreed_dims(args.dims, resolved, None).map_err(usage)? {
        Some((d, _)) if (2..=3).contains(&d) => Ok(d),
        Some((d, from)) => Err(usage(format!(
            "{from} gives {d} dimensions; shader writes 2D and 3D noise"
        ))),
        None => Ok(2),
    }
}
