//! The WGSL modules in other shading languages (feature `langs`), translated
//! by naga, wgpu's own translator, rather than written a second time: GLSL,
//! HLSL, MSL and SPIR-V.
//!
//! The translation keeps what the WGSL does for the CPU's bits: the opaque
//! zero that keeps each product out of a fused multiply-add is a bit
//! operation in every language (`uintBitsToFloat(floatBitsToUint(x) ^
//! surflet_zero)` in GLSL, `asfloat(asuint(x) ^ ...)` in HLSL), and the
//! literals stay exact. What was run and what was only validated is in
//! docs/GPU.md: the GLSL is compiled by glslang and run on lavapipe in the
//! agreement tests; HLSL and MSL are checked by naga's validator and writers
//! only.
//!
//! ```
//! use surflet::Stack;
//! use surflet::wgsl::{Lang, Shader, translate};
//! let wgsl = Stack::from_toml_str("noise = \"perlin\"\n[fractal]\noctaves = 3")?
//!     .build::<2>()?
//!     .wgsl("terrain")?;
//! let Shader::Text(glsl) = translate(&wgsl, Lang::Glsl)? else { unreachable!() };
//! // naga renames parameters and locals, not the module's functions.
//! assert!(glsl.contains("float terrain(vec2 ") && glsl.contains("vec3 terrain_gradient(vec2 "));
//! assert!(!glsl.contains("#version") && !glsl.contains("void main"));
//! let Shader::SpirV(words) = translate(&wgsl, Lang::SpirV)? else { unreachable!() };
//! assert_eq!(words[0], 0x0723_0203); // SPIR-V's magic number
//! # Ok::<(), surflet::Error>(())
//! ```

use crate::prelude_internal::*;

use super::lit::bad;
use crate::error::Error;
use naga::back::{glsl, hlsl, msl, spv};

/// A shading language naga writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// GLSL 4.50 (Vulkan and desktop OpenGL; Godot's and three.js's
    /// shaders are GLSL too).
    Glsl,
    /// HLSL, shader model 5.1 (Direct3D, Unity, Unreal).
    Hlsl,
    /// Metal Shading Language 2.0 (Apple).
    Msl,
    /// SPIR-V 1.0 words (Vulkan).
    SpirV,
}

impl Lang {
    /// Every language, in the order the command line lists them.
    pub const ALL: [Lang; 4] = [Lang::Glsl, Lang::Hlsl, Lang::Msl, Lang::SpirV];

    /// Its name on the command line (`glsl`, `hlsl`, `msl`, `spirv`).
    pub fn name(self) -> &'static str {
        match self {
            Lang::Glsl => "glsl",
            Lang::Hlsl => "hlsl",
            Lang::Msl => "msl",
            Lang::SpirV => "spirv",
        }
    }
}

/// A translated module: source text, or SPIR-V's 32-bit words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shader {
    /// GLSL, HLSL or MSL source.
    Text(String),
    /// A SPIR-V module.
    SpirV(Vec<u32>),
}

/// Where a module without an entry point gets one for the writers that
/// need it (GLSL and SPIR-V): an empty compute shader, removed again from
/// the GLSL, so that the functions can be pasted into any stage.
const STUB: &str = "surflet_stub_main";

/// `wgsl` (a module of [`Evaluator::wgsl`](crate::Evaluator::wgsl), or any
/// WGSL) in `lang`.
///
/// A module without an entry point (a function library, as
/// `Evaluator::wgsl` writes) comes out as one in every language: every
/// function and global, without `#version` or `main` in GLSL, and in
/// SPIR-V with an empty compute entry point named `surflet_stub_main`
/// (a SPIR-V module needs one). A module with entry points keeps them
/// (GLSL and SPIR-V write the first).
///
/// Fails with [`Error::Parameter`] (`wgsl`) if naga cannot read, validate
/// or write the module, with naga's message.
pub fn translate(wgsl: &str, lang: Lang) -> Result<Shader, Error> {
    let mut module = naga::front::wgsl::parse_str(wgsl).map_err(|e| bad(e.emit_to_string(wgsl)))?;
    let stub = module.entry_points.is_empty();
    if stub && matches!(lang, Lang::Glsl | Lang::SpirV) {
        module.entry_points.push(naga::EntryPoint {
            name: STUB.into(),
            stage: naga::ShaderStage::Compute,
            early_depth_test: None,
            workgroup_size: [1, 1, 1],
            workgroup_size_overrides: None,
            function: naga::Function::default(),
            mesh_info: None,
            task_payload: None,
            incoming_ray_payload: None,
        });
    }
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .map_err(|e| bad(format!("naga's validator: {}", e.emit_to_string(wgsl))))?;
    let entry = module
        .entry_points
        .first()
        .map(|e| (e.stage, e.name.clone()));
    let failed = |what: &str, e: &dyn core::fmt::Display| bad(format!("naga's {what} writer: {e}"));
    Ok(match lang {
        Lang::Glsl => {
            let (stage, name) = entry.expect("an entry point was added");
            let mut options = glsl::Options {
                version: glsl::Version::Desktop(450),
                writer_flags: glsl::WriterFlags::INCLUDE_UNUSED_ITEMS,
                ..glsl::Options::default()
            };
            // Vulkan-style bindings: group g's binding b at binding b (one
            // group, as the pipelines of surflet-gpu have).
            for (_, var) in module.global_variables.iter() {
                if let Some(rb) = var.binding {
                    let target = u8::try_from(rb.binding)
                        .map_err(|_| bad(format!("binding {} is past GLSL's 255", rb.binding)))?;
                    options.binding_map.insert(rb, target);
                }
            }
            let pipeline = glsl::PipelineOptions {
                shader_stage: stage,
                entry_point: name,
                multiview: None,
            };
            let mut out = String::new();
            glsl::Writer::new(
                &mut out,
                &module,
                &info,
                &options,
                &pipeline,
                naga::proc::BoundsCheckPolicies::default(),
            )
            .and_then(|mut w| w.write())
            .map_err(|e| failed("GLSL", &e))?;
            Shader::Text(if stub { library(&out) } else { out })
        }
        Lang::Hlsl => {
            let options = hlsl::Options {
                shader_model: hlsl::ShaderModel::V5_1,
                ..hlsl::Options::default()
            };
            let pipeline = hlsl::PipelineOptions::default();
            let mut out = String::new();
            hlsl::Writer::new(&mut out, &options, &pipeline)
                .write(&module, &info, None)
                .map_err(|e| failed("HLSL", &e))?;
            Shader::Text(out)
        }
        Lang::Msl => {
            let options = msl::Options {
                lang_version: (2, 0),
                ..msl::Options::default()
            };
            let (out, _) = msl::write_string(&module, &info, &options, &Default::default())
                .map_err(|e| failed("MSL", &e))?;
            Shader::Text(out)
        }
        Lang::SpirV => {
            let options = spv::Options {
                lang_version: (1, 0),
                ..spv::Options::default()
            };
            let words =
                spv::write_vec(&module, &info, &options, None).map_err(|e| failed("SPIR-V", &e))?;
            Shader::SpirV(words)
        }
    })
}

/// GLSL written for the stub entry point, without its `#version` line, its
/// compute-stage lines and its empty `main`: the functions and globals
/// alone, to paste or include in a shader of any stage.
fn library(glsl: &str) -> String {
    let mut out = String::new();
    let mut lines = glsl.lines().peekable();
    while let Some(line) = lines.next() {
        if line.starts_with("#version")
            || line.starts_with("#extension GL_ARB_compute_shader")
            || line.starts_with("layout(local_size_x")
        {
            continue;
        }
        if line.starts_with("void main()") {
            // The empty body, to its closing brace.
            for rest in lines.by_ref() {
                if rest.starts_with('}') {
                    break;
                }
            }
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}
