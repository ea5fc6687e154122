//! A small [wgpu] compute backend for surflet: runs a WGSL noise function
//! over a uniform grid, at exactly the points of surflet's CPU
//! [`Grid::window`](surflet::Grid::window).
//!
//! The WGSL source defines, for a name `N` and a dimension `D` (2, 3 or
//! 4), `fn N(p: vecD<f32>) -> f32` and `fn N_gradient(p: vecD<f32>)`: the
//! value then the derivative along each axis, as a `vec3<f32>` (`D = 2`),
//! a `vec4<f32>` (`D = 3`), or in 4D a struct with the fields `value: f32`
//! and `gradient: vec4<f32>` (surflet's `SurfletSample4d`). It may define helpers and constants
//! prefixed `surflet_`, and declares no bindings: [`GridKernel::new`]
//! appends the entry point `surflet_gpu_main` and its bindings (group 0,
//! names prefixed `surflet_gpu_`).
//!
//! The source may read `surflet_gpu_params.zero`, a `u32` that is always 0
//! but that the compiler cannot prove is: `bitcast<f32>(bitcast<u32>(a * b)
//! ^ surflet_gpu_params.zero) + c` keeps a driver from fusing the product
//! and the sum into one fma (WGSL needs no forward declaration).
//!
//! The grid's coordinates are not computed on the GPU: the host computes
//! each axis's list with [`surflet::Grid::window`] (a list per axis, so the
//! sum of the sizes, not their product) and the kernel reads point
//! `(x[i], y[j], z[k], w[m])` from them. So the coordinates are the CPU grid's
//! bits whatever the driver does with `a * b + c` (no fused multiply-add,
//! no different integer-to-float rounding).
//!
//! ```no_run
//! use surflet_gpu::{GpuContext, GridKernel};
//! let ctx = GpuContext::new()?;
//! println!("{}", ctx.adapter_info());
//! let src = "fn probe(p: vec2<f32>) -> f32 { return p.x; }";
//! let kernel = GridKernel::new(&ctx, src, "probe", 2, false)?;
//! let out = kernel.grid(&ctx, &[0.1, -3.7], &[0.37, 1.0 / 3.0], &[0, 0], &[256, 128])?;
//! assert_eq!(out.values.len(), 256 * 128);
//! # Ok::<(), surflet_gpu::GpuError>(())
//! ```

use std::fmt;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Points per pass unless the device's limits ask for fewer: 2^24 points,
/// 64 MiB of values.
const DEFAULT_PASS_POINTS: usize = 1 << 24;

/// Invocations per workgroup of the entry point.
const WORKGROUP: u32 = 64;

/// What went wrong, with what to do about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GpuError {
    /// wgpu found no adapter (no GPU, or no driver for one).
    NoAdapter(String),
    /// The adapter did not give a device with the limits asked for.
    Device(String),
    /// The WGSL source (with the appended entry point) did not compile.
    Shader(String),
    /// The arguments of a call are invalid (lengths, non-finite origin or
    /// step, empty or overflowing sizes).
    Input(String),
    /// The output does not fit in host memory, or the grid does not fit in
    /// the device's buffers.
    Memory(String),
    /// The GPU failed while running or reading back a grid.
    Dispatch(String),
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::NoAdapter(m) => write!(
                f,
                "no GPU adapter found ({m}); install a GPU driver, or on Linux without a GPU \
                 install Mesa's lavapipe software Vulkan driver \
                 (`apt install mesa-vulkan-drivers`)"
            ),
            GpuError::Device(m) => write!(f, "could not open the GPU device: {m}"),
            GpuError::Shader(m) => write!(f, "the WGSL source does not compile: {m}"),
            GpuError::Input(m) => write!(f, "invalid grid call: {m}"),
            GpuError::Memory(m) => write!(f, "out of memory: {m}; ask for a smaller grid"),
            GpuError::Dispatch(m) => write!(f, "the GPU failed to run the grid: {m}"),
        }
    }
}

impl std::error::Error for GpuError {}

/// A headless GPU device and its queue: the adapter wgpu prefers for high
/// performance, without a surface.
pub struct GpuContext {
    adapter: wgpu::Adapter,
    device: wgpu::Device,
    queue: wgpu::Queue,
    uncaptured: Arc<Mutex<Vec<String>>>,
}

impl fmt::Debug for GpuContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GpuContext")
            .field("adapter", &self.adapter_info())
            .finish_non_exhaustive()
    }
}

impl GpuContext {
    /// Opens the preferred adapter (default backends, high-performance
    /// preference) and a device on it whose storage buffers may be as large
    /// as the adapter allows.
    ///
    /// Fails with [`GpuError::NoAdapter`] where there is none: on Linux
    /// without a GPU, Mesa's lavapipe (`apt install mesa-vulkan-drivers`)
    /// provides a software Vulkan one.
    pub fn new() -> Result<GpuContext, GpuError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle());
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: false,
            compatible_surface: None,
            apply_limit_buckets: false,
        }))
        .map_err(|e| GpuError::NoAdapter(e.to_string()))?;
        let have = adapter.limits();
        let limits = wgpu::Limits {
            max_storage_buffer_binding_size: have.max_storage_buffer_binding_size,
            max_buffer_size: have.max_buffer_size,
            ..wgpu::Limits::downlevel_defaults()
        };
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("surflet-gpu"),
            required_features: wgpu::Features::empty(),
            required_limits: limits,
            experimental_features: wgpu::ExperimentalFeatures::disabled(),
            memory_hints: wgpu::MemoryHints::Performance,
            trace: wgpu::Trace::Off,
        }))
        .map_err(|e| GpuError::Device(format!("{e} (adapter {})", info_string(&adapter))))?;
        // Every call runs in error scopes; anything that escapes them is
        // kept here and reported by the next call instead of panicking.
        let uncaptured = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&uncaptured);
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            if let Ok(mut v) = sink.lock() {
                v.push(e.to_string());
            }
        }));
        Ok(GpuContext {
            adapter,
            device,
            queue,
            uncaptured,
        })
    }

    /// The adapter: name, backend, driver and driver info, for example
    /// `llvmpipe (LLVM 15.0.6, 256 bits) (Vulkan; llvmpipe; Mesa 22.3.6 (LLVM 15.0.6))`
    /// (Mesa's lavapipe).
    pub fn adapter_info(&self) -> String {
        info_string(&self.adapter)
    }

    /// Runs `f` in error scopes for validation, out-of-memory and internal
    /// errors; the first error caught (or left uncaptured) becomes `wrap`'s.
    fn scoped<T>(
        &self,
        wrap: fn(String) -> GpuError,
        f: impl FnOnce() -> T,
    ) -> Result<T, GpuError> {
        let internal = self.device.push_error_scope(wgpu::ErrorFilter::Internal);
        let memory = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let out = f();
        let errors = [
            pollster::block_on(validation.pop()),
            pollster::block_on(memory.pop()),
            pollster::block_on(internal.pop()),
        ];
        let mut messages: Vec<String> = errors
            .into_iter()
            .flatten()
            .map(|e| match e {
                wgpu::Error::OutOfMemory { .. } => format!("GPU out of memory: {}", error_text(&e)),
                e => error_text(&e),
            })
            .collect();
        if let Ok(mut v) = self.uncaptured.lock() {
            messages.append(&mut v);
        }
        if messages.is_empty() {
            Ok(out)
        } else {
            Err(wrap(messages.join("\n")))
        }
    }

    fn wait(&self) -> Result<(), GpuError> {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map(|_| ())
            .map_err(|e| GpuError::Dispatch(e.to_string()))
    }
}

fn info_string(adapter: &wgpu::Adapter) -> String {
    let i = adapter.get_info();
    format!(
        "{} ({:?}; {}; {})",
        i.name, i.backend, i.driver, i.driver_info
    )
}

/// An error's message with its sources.
fn error_text(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut src = e.source();
    while let Some(cause) = src {
        let c = cause.to_string();
        if !s.contains(&c) {
            s.push_str(": ");
            s.push_str(&c);
        }
        src = cause.source();
    }
    s
}

/// A compiled compute pipeline that evaluates one WGSL noise function (or
/// its gradient) over uniform grids.
#[derive(Debug)]
pub struct GridKernel {
    pipeline: wgpu::ComputePipeline,
    dims: usize,
    gradient: bool,
    pass_points: usize,
}

/// The result of [`GridKernel::grid`].
#[derive(Clone, Debug, PartialEq)]
pub struct GridOutput {
    /// The values, axis 0 varying fastest (the order of surflet's grids).
    pub values: Vec<f32>,
    /// With a gradient kernel, the derivative along each axis (one `Vec` per
    /// axis, in the order of `values`).
    pub gradient: Option<Vec<Vec<f32>>>,
    /// The smallest and largest value that is not NaN, −0 counted as +0, as
    /// surflet's `Bounds`: `(+∞, −∞)` when every value is NaN.
    pub bounds: (f32, f32),
}

/// Per-pass parameters, the WGSL struct `surflet_gpu_Params`.
#[derive(Clone, Copy, Debug, Default)]
struct Params {
    count: u32,
    base: [u32; 4],
    size: [u32; 4],
    /// Where the y, z and w coordinates start in the axes' list.
    offsets: [u32; 3],
    zero: u32,
}

impl Params {
    const BYTES: usize = 16 * 4;

    fn bytes(&self) -> Vec<u8> {
        let mut words = vec![self.count];
        words.extend(self.base);
        words.extend(self.size);
        words.extend(self.offsets);
        words.extend([self.zero, 0, 0, 0]);
        debug_assert_eq!(words.len() * 4, Self::BYTES);
        words.iter().flat_map(|w| w.to_ne_bytes()).collect()
    }
}

/// The entry point and bindings appended to the caller's source.
fn entry_point(name: &str, dims: usize, gradient: bool, opaque_zero: bool) -> String {
    // Multi-index i, j, k, m of the point (axes x, y, z, w), from the
    // flat index l of the pass.
    let (index, coord) = (["i", "j", "k", "m"], ["x", "y", "z", "w"]);
    let mut split = String::new();
    for a in 1..dims {
        let (lo, hi, c, lc) = (index[a - 1], index[a], coord[a], coord[a - 1]);
        split.push_str(&format!(
            "    var surflet_gpu_{hi} = surflet_gpu_p.base_{c} + surflet_gpu_{lo} / surflet_gpu_p.size_{lc};\n    \
             surflet_gpu_{lo} = surflet_gpu_{lo} % surflet_gpu_p.size_{lc};\n"
        ));
    }
    let parts: Vec<String> = (0..dims)
        .map(|a| {
            let off = if a == 0 {
                String::new()
            } else {
                format!("surflet_gpu_p.offset_{} + ", coord[a])
            };
            format!("surflet_gpu_axes[{off}surflet_gpu_{}]", index[a])
        })
        .collect();
    let point = format!("vec{dims}<f32>({})", parts.join(", "));
    let store = if gradient {
        // 2D and 3D return vec3/vec4 (value, gradient); 4D a struct.
        let (value, grad) = if dims == 4 {
            ("surflet_gpu_g.value", "surflet_gpu_g.gradient[")
        } else {
            ("surflet_gpu_g[0]", "surflet_gpu_g[1 + ")
        };
        let mut s = format!(
            "    let surflet_gpu_g = {name}_gradient(surflet_gpu_point);\n    surflet_gpu_out[surflet_gpu_l] = {value};\n"
        );
        for a in 0..dims {
            s.push_str(&format!(
                "    surflet_gpu_out[{}u * surflet_gpu_p.count + surflet_gpu_l] = {grad}{a}];\n",
                a + 1
            ));
        }
        s
    } else {
        format!("    surflet_gpu_out[surflet_gpu_l] = {name}(surflet_gpu_point);\n")
    };
    // surflet's generated modules (`Evaluator::wgsl`) read their opaque
    // zero from a private variable that the entry point sets.
    let zero = if opaque_zero {
        "    surflet_zero = surflet_gpu_p.zero;\n"
    } else {
        ""
    };
    format!(
        r#"

// ---- appended by surflet-gpu ----

// One pass: `count` points from the multi-index `base_*` of the grid, whose
// axes are `size_*` long and lie one after the other in `surflet_gpu_axes`
// (y from `offset_y`, z from `offset_z`, w from `offset_w`). `zero` is
// always 0: a value the compiler cannot prove is 0, for making a product
// opaque to fma contraction
// (`bitcast<f32>(bitcast<u32>(a * b) ^ surflet_gpu_params.zero)`).
struct surflet_gpu_Params {{
    count: u32,
    base_x: u32,
    base_y: u32,
    base_z: u32,
    base_w: u32,
    size_x: u32,
    size_y: u32,
    size_z: u32,
    size_w: u32,
    offset_y: u32,
    offset_z: u32,
    offset_w: u32,
    zero: u32,
    surflet_gpu_pad0: u32,
    surflet_gpu_pad1: u32,
    surflet_gpu_pad2: u32,
}}

@group(0) @binding(0) var<uniform> surflet_gpu_params: surflet_gpu_Params;
@group(0) @binding(1) var<storage, read> surflet_gpu_axes: array<f32>;
@group(0) @binding(2) var<storage, read_write> surflet_gpu_out: array<f32>;

@compute @workgroup_size({WORKGROUP})
fn surflet_gpu_main(
    @builtin(workgroup_id) surflet_gpu_wid: vec3<u32>,
    @builtin(num_workgroups) surflet_gpu_nwg: vec3<u32>,
    @builtin(local_invocation_index) surflet_gpu_lid: u32,
) {{
    let surflet_gpu_p = surflet_gpu_params;
{zero}    let surflet_gpu_l = (surflet_gpu_wid.y * surflet_gpu_nwg.x + surflet_gpu_wid.x) * {WORKGROUP}u + surflet_gpu_lid;
    if (surflet_gpu_l >= surflet_gpu_p.count) {{
        return;
    }}
    var surflet_gpu_i = surflet_gpu_p.base_x + surflet_gpu_l;
{split}    let surflet_gpu_point = {point};
{store}}}
"#
    )
}

/// Refuses a dimension the entry point does not take.
fn check_dims(dims: usize) -> Result<(), GpuError> {
    if !(2..=4).contains(&dims) {
        return Err(GpuError::Input(format!(
            "dimension {dims}: only 2, 3 and 4 are supported"
        )));
    }
    Ok(())
}

/// The WGSL program a [`GridKernel`] runs: `source` and, appended, the
/// entry point `surflet_gpu_main` that evaluates the function `name` of
/// `dims` (2, 3 or 4) dimensions, or with `gradient` `name_gradient`, over a
/// grid, with its three bindings (group 0: the uniform parameters, the
/// axes' coordinates, the output). For translating the whole program into
/// another language (see [`GridKernel::from_spirv`]).
pub fn program(source: &str, name: &str, dims: usize, gradient: bool) -> Result<String, GpuError> {
    check_dims(dims)?;
    if !is_identifier(name) {
        return Err(GpuError::Input(format!(
            "function name {name:?} is not a WGSL identifier"
        )));
    }
    let opaque_zero = source.contains("var<private> surflet_zero: u32;");
    Ok(format!(
        "{source}{}",
        entry_point(name, dims, gradient, opaque_zero)
    ))
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name != "_"
        && !name.starts_with("__")
}

/// A grid's checked geometry and the buffers of one call.
struct Plan {
    n: usize,
    shape: [usize; 4],
    /// The coordinates of every axis, one after the other.
    axes: Vec<f32>,
    /// Where the y, z and w coordinates start in `axes`.
    offsets: [u32; 3],
    /// Points per pass.
    chunk: usize,
}

impl GridKernel {
    /// Compiles `source` with the entry point for the function `name` of
    /// `dims` (2, 3 or 4) dimensions: `name` itself, or with `gradient`,
    /// `name_gradient` (whose first component is then the value).
    ///
    /// WGSL errors (a syntax error, a missing function) are returned as
    /// [`GpuError::Shader`] with the compiler's message.
    pub fn new(
        ctx: &GpuContext,
        source: &str,
        name: &str,
        dims: usize,
        gradient: bool,
    ) -> Result<GridKernel, GpuError> {
        let code = program(source, name, dims, gradient)?;
        GridKernel::from_source(
            ctx,
            wgpu::ShaderSource::Wgsl(code.into()),
            name,
            dims,
            gradient,
        )
    }

    /// A kernel from SPIR-V words: a [`program`] in another language,
    /// compiled by another compiler (the agreement test's GLSL, by
    /// glslang). Its entry point must be `surflet_gpu_main`, with
    /// [`program`]'s bindings. wgpu reads the words with naga's SPIR-V
    /// front end.
    #[cfg(feature = "spirv")]
    pub fn from_spirv(
        ctx: &GpuContext,
        words: &[u32],
        dims: usize,
        gradient: bool,
    ) -> Result<GridKernel, GpuError> {
        check_dims(dims)?;
        let source = wgpu::ShaderSource::SpirV(words.to_vec().into());
        GridKernel::from_source(ctx, source, "spirv", dims, gradient)
    }

    fn from_source(
        ctx: &GpuContext,
        source: wgpu::ShaderSource<'_>,
        name: &str,
        dims: usize,
        gradient: bool,
    ) -> Result<GridKernel, GpuError> {
        let pipeline = ctx.scoped(GpuError::Shader, || {
            let module = ctx
                .device
                .create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: Some(name),
                    source,
                });
            ctx.device
                .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(name),
                    layout: None,
                    module: &module,
                    entry_point: Some("surflet_gpu_main"),
                    compilation_options: Default::default(),
                    cache: None,
                })
        })?;
        Ok(GridKernel {
            pipeline,
            dims,
            gradient,
            pass_points: DEFAULT_PASS_POINTS,
        })
    }

    /// The largest number of points one dispatch covers (before the device's
    /// limits lower it); for tests of the multi-pass path.
    #[doc(hidden)]
    pub fn set_pass_points(&mut self, points: usize) {
        self.pass_points = points.max(1);
    }

    /// Outputs per point: the value, then the gradient.
    fn outputs(&self) -> usize {
        if self.gradient { 1 + self.dims } else { 1 }
    }

    /// The values (and gradient) over the window of a uniform grid: point
    /// `i` of axis `a` at `origin[a] + (start[a] + i)·step[a]`, exactly the
    /// `f32` coordinates of surflet's `Grid::window(origin, step, start,
    /// size)` (axis 0 varying fastest).
    ///
    /// The coordinate slices have one entry per dimension. Non-finite
    /// origins or steps, empty or overflowing sizes and outputs too large
    /// for host memory are refused before anything runs. A grid larger than
    /// one pass runs in several; the results are the same. Timing the call
    /// measures dispatch plus read-back; [`time_dispatch`](Self::time_dispatch)
    /// measures the dispatch alone.
    pub fn grid(
        &self,
        ctx: &GpuContext,
        origin: &[f32],
        step: &[f32],
        start: &[u64],
        size: &[usize],
    ) -> Result<GridOutput, GpuError> {
        let plan = self.plan(ctx, origin, step, start, size)?;
        self.run(ctx, &plan)
    }

    /// The values (and gradient) over the grid of the given coordinate
    /// lists, one per dimension (axis 0 varying fastest): what surflet's
    /// `Grid::from_axes` and a grid call compute on the CPU. For grids that
    /// are not uniform in `f32`, such as a picture's pixel centres computed
    /// in `f64` and rounded. Non-finite coordinates and empty axes are
    /// refused before anything runs.
    pub fn grid_axes(&self, ctx: &GpuContext, axes: &[&[f32]]) -> Result<GridOutput, GpuError> {
        let d = self.dims;
        if axes.len() != d {
            return Err(GpuError::Input(format!(
                "{} coordinate lists given, the kernel is {d}-dimensional",
                axes.len()
            )));
        }
        for (a, list) in axes.iter().enumerate() {
            if let Some(x) = list.iter().find(|x| !x.is_finite()) {
                return Err(GpuError::Input(format!(
                    "axis {a} has the non-finite coordinate {x}; give finite values"
                )));
            }
        }
        let size: Vec<usize> = axes.iter().map(|a| a.len()).collect();
        let n = self.check_size(ctx, &size)?;
        let plan = self.plan_axes(ctx, axes, &size, n)?;
        self.run(ctx, &plan)
    }

    /// Runs every pass of `plan` and reads the results back.
    fn run(&self, ctx: &GpuContext, plan: &Plan) -> Result<GridOutput, GpuError> {
        let n = plan.n;
        let outs = self.outputs();
        let mut values = host_vec(n)?;
        let mut gradient = Vec::new();
        if self.gradient {
            for _ in 0..self.dims {
                gradient.push(host_vec(n)?);
            }
        }
        let bufs = self.buffers(ctx, plan, true)?;
        let staging = bufs.staging.as_ref().expect("read-back buffer");
        let mut base = 0usize;
        for params_buf in &bufs.params {
            let count = plan.chunk.min(n - base);
            let bytes = (outs * count * 4) as u64;
            ctx.scoped(GpuError::Dispatch, || {
                let mut enc = ctx
                    .device
                    .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                        label: Some("surflet-gpu grid"),
                    });
                self.encode_pass(ctx, &mut enc, params_buf, count);
                enc.copy_buffer_to_buffer(&bufs.out, 0, staging, 0, bytes);
                ctx.queue.submit([enc.finish()]);
            })?;
            let (tx, rx) = mpsc::channel();
            ctx.scoped(GpuError::Dispatch, || {
                staging.map_async(wgpu::MapMode::Read, 0..bytes, move |r| {
                    let _ = tx.send(r);
                });
            })?;
            ctx.wait()?;
            rx.recv()
                .map_err(|e| GpuError::Dispatch(format!("read-back never completed: {e}")))?
                .map_err(|e| GpuError::Dispatch(format!("read-back failed: {e}")))?;
            {
                let view = staging
                    .get_mapped_range(0..bytes)
                    .map_err(|e| GpuError::Dispatch(format!("read-back failed: {e}")))?;
                let mut words = view
                    .chunks_exact(4)
                    .map(|b| f32::from_ne_bytes([b[0], b[1], b[2], b[3]]));
                values.extend(words.by_ref().take(count));
                for g in &mut gradient {
                    g.extend(words.by_ref().take(count));
                }
            }
            staging.unmap();
            base += count;
        }
        let bounds = bounds(&values);
        Ok(GridOutput {
            values,
            gradient: self.gradient.then_some(gradient),
            bounds,
        })
    }

    /// The mean time of `reps` dispatches of the whole grid
    /// `Grid::uniform(origin, step, size)` (every pass, submitted and waited
    /// for with `device.poll`), without read-back or the upload of the
    /// coordinates; after one untimed warm-up dispatch.
    pub fn time_dispatch(
        &self,
        ctx: &GpuContext,
        origin: &[f32],
        step: &[f32],
        size: &[usize],
        reps: u32,
    ) -> Result<Duration, GpuError> {
        if reps == 0 {
            return Err(GpuError::Input("reps must be at least 1".into()));
        }
        let start = vec![0u64; size.len()];
        let plan = self.plan(ctx, origin, step, &start, size)?;
        let bufs = self.buffers(ctx, &plan, false)?;
        let run = || -> Result<(), GpuError> {
            ctx.scoped(GpuError::Dispatch, || {
                let mut enc = ctx
                    .device
                    .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                        label: Some("surflet-gpu timing"),
                    });
                let mut base = 0usize;
                for params_buf in &bufs.params {
                    let count = plan.chunk.min(plan.n - base);
                    self.encode_pass(ctx, &mut enc, params_buf, count);
                    base += count;
                }
                ctx.queue.submit([enc.finish()]);
            })?;
            ctx.wait()
        };
        run()?;
        let t = Instant::now();
        for _ in 0..reps {
            run()?;
        }
        Ok(t.elapsed() / reps)
    }

    /// Checks the arguments, computes the axes on the host and sizes the
    /// passes.
    fn plan(
        &self,
        ctx: &GpuContext,
        origin: &[f32],
        step: &[f32],
        start: &[u64],
        size: &[usize],
    ) -> Result<Plan, GpuError> {
        let d = self.dims;
        for (what, len) in [
            ("origin", origin.len()),
            ("step", step.len()),
            ("start", start.len()),
            ("size", size.len()),
        ] {
            if len != d {
                return Err(GpuError::Input(format!(
                    "{what} has {len} coordinates, the kernel is {d}-dimensional"
                )));
            }
        }
        for (what, v) in [("origin", origin), ("step", step)] {
            if let Some(x) = v.iter().find(|x| !x.is_finite()) {
                return Err(GpuError::Input(format!(
                    "{what} {v:?} has the non-finite coordinate {x}; give finite values"
                )));
            }
        }
        let mut st = [0usize; 4];
        for a in 0..d {
            st[a] = usize::try_from(start[a]).map_err(|_| {
                GpuError::Input(format!("start {} does not fit in usize", start[a]))
            })?;
        }
        // Checked before the axes are made, which allocates them.
        let n = self.check_size(ctx, size)?;
        let axes = match d {
            2 => window_axes::<2>(origin, step, &st, size)?,
            3 => window_axes::<3>(origin, step, &st, size)?,
            _ => window_axes::<4>(origin, step, &st, size)?,
        };
        let axes: Vec<&[f32]> = axes.iter().map(|a| &a[..]).collect();
        self.plan_axes(ctx, &axes, size, n)
    }

    /// The number of points of `size`, if it is not empty and its output
    /// and coordinate lists fit the host and the device.
    fn check_size(&self, ctx: &GpuContext, size: &[usize]) -> Result<usize, GpuError> {
        if size.contains(&0) {
            return Err(GpuError::Input(format!(
                "size {size:?} is empty; every axis needs at least one point"
            )));
        }
        let n = size
            .iter()
            .try_fold(1usize, |n, &s| n.checked_mul(s))
            .ok_or_else(|| {
                GpuError::Input(format!("size {size:?}: the number of points overflows"))
            })?;
        let out_bytes = n
            .checked_mul(self.outputs() * 4)
            .filter(|&b| b <= isize::MAX as usize);
        if out_bytes.is_none() {
            return Err(GpuError::Memory(format!(
                "the output of size {size:?} ({n} points, {} floats each) does not fit in \
                 host memory",
                self.outputs()
            )));
        }
        let total: usize = size.iter().sum();
        let limits = ctx.device.limits();
        let max_binding = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        if (total as u64).saturating_mul(4) > max_binding || total > u32::MAX as usize / 2 {
            return Err(GpuError::Memory(format!(
                "the coordinate lists of size {size:?} ({total} floats) exceed the device's \
                 largest storage buffer ({max_binding} bytes)"
            )));
        }
        Ok(n)
    }

    /// The passes over the grid of `axes` (`size` their lengths, `n` the
    /// points, as [`check_size`](Self::check_size) found them).
    fn plan_axes(
        &self,
        ctx: &GpuContext,
        axes: &[&[f32]],
        size: &[usize],
        n: usize,
    ) -> Result<Plan, GpuError> {
        let d = self.dims;
        let total: usize = size.iter().sum();
        let limits = ctx.device.limits();
        let max_binding = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        let mut flat = host_vec(total)?;
        for a in axes {
            flat.extend_from_slice(a);
        }
        let per_point = (self.outputs() * 4) as u64;
        let by_limit = usize::try_from(max_binding / per_point).unwrap_or(usize::MAX);
        let by_dispatch = (limits.max_compute_workgroups_per_dimension as usize)
            .saturating_mul(limits.max_compute_workgroups_per_dimension as usize)
            .saturating_mul(WORKGROUP as usize);
        let chunk = self
            .pass_points
            .min(by_limit)
            .min(by_dispatch)
            .min(1 << 30)
            .min(n);
        if chunk == 0 {
            return Err(GpuError::Memory(
                "the device's storage buffers cannot hold one point".into(),
            ));
        }
        let mut shape = [1usize; 4];
        shape[..d].copy_from_slice(size);
        let mut offsets = [0u32; 3];
        let mut at = 0;
        for a in 1..4 {
            at += size.get(a - 1).copied().unwrap_or(0);
            offsets[a - 1] = at as u32;
        }
        Ok(Plan {
            n,
            shape,
            axes: flat,
            offsets,
            chunk,
        })
    }

    /// Uploads the axes and creates the output buffer, one parameter buffer
    /// and bind group per pass and, for read-back, the staging buffer.
    fn buffers(&self, ctx: &GpuContext, plan: &Plan, read_back: bool) -> Result<Buffers, GpuError> {
        let out_bytes = (self.outputs() * plan.chunk * 4) as u64;
        let passes = plan.n.div_ceil(plan.chunk);
        let [nx, ny, nz, _] = plan.shape;
        ctx.scoped(GpuError::Memory, || {
            let dev = &ctx.device;
            let axes = dev.create_buffer(&wgpu::BufferDescriptor {
                label: Some("surflet-gpu axes"),
                size: (plan.axes.len() * 4) as u64,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            let bytes: Vec<u8> = plan.axes.iter().flat_map(|x| x.to_ne_bytes()).collect();
            ctx.queue.write_buffer(&axes, 0, &bytes);
            let out = dev.create_buffer(&wgpu::BufferDescriptor {
                label: Some("surflet-gpu output"),
                size: out_bytes,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            });
            let staging = read_back.then(|| {
                dev.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("surflet-gpu read-back"),
                    size: out_bytes,
                    usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                })
            });
            let layout = self.pipeline.get_bind_group_layout(0);
            let mut params = Vec::with_capacity(passes);
            for pass in 0..passes {
                let base = pass * plan.chunk;
                let count = plan.chunk.min(plan.n - base);
                let p = Params {
                    count: count as u32,
                    base: [
                        (base % nx) as u32,
                        ((base / nx) % ny) as u32,
                        ((base / nx / ny) % nz) as u32,
                        (base / nx / ny / nz) as u32,
                    ],
                    size: plan.shape.map(|s| s as u32),
                    offsets: plan.offsets,
                    zero: 0,
                };
                let buf = dev.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("surflet-gpu params"),
                    size: Params::BYTES as u64,
                    usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                });
                ctx.queue.write_buffer(&buf, 0, &p.bytes());
                let group = dev.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("surflet-gpu bindings"),
                    layout: &layout,
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: 0,
                            resource: buf.as_entire_binding(),
                        },
                        wgpu::BindGroupEntry {
                            binding: 1,
                            resource: axes.as_entire_binding(),
                        },
                        wgpu::BindGroupEntry {
                            binding: 2,
                            resource: out.as_entire_binding(),
                        },
                    ],
                });
                params.push((buf, group));
            }
            Buffers {
                _axes: axes,
                out,
                staging,
                params,
            }
        })
    }

    fn encode_pass(
        &self,
        ctx: &GpuContext,
        enc: &mut wgpu::CommandEncoder,
        (_, group): &(wgpu::Buffer, wgpu::BindGroup),
        count: usize,
    ) {
        let groups = (count as u32).div_ceil(WORKGROUP);
        let max = ctx.device.limits().max_compute_workgroups_per_dimension;
        let x = groups.min(max);
        let y = groups.div_ceil(x);
        let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("surflet-gpu pass"),
            timestamp_writes: None,
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.dispatch_workgroups(x, y, 1);
    }
}

struct Buffers {
    _axes: wgpu::Buffer,
    out: wgpu::Buffer,
    staging: Option<wgpu::Buffer>,
    /// Each pass's parameters and bind group.
    params: Vec<(wgpu::Buffer, wgpu::BindGroup)>,
}

/// The axes' coordinates of `Grid::window(origin, step, start, size)` in
/// `D` dimensions (the slices' first `D` entries).
fn window_axes<const D: usize>(
    origin: &[f32],
    step: &[f32],
    start: &[usize],
    size: &[usize],
) -> Result<Vec<Vec<f32>>, GpuError> {
    let g = surflet::Grid::window(
        core::array::from_fn::<f32, D, _>(|a| origin[a]),
        core::array::from_fn(|a| step[a]),
        core::array::from_fn(|a| start[a]),
        core::array::from_fn(|a| size[a]),
    )
    .map_err(|e| GpuError::Input(e.to_string()))?;
    Ok((0..D).map(|a| g.axis(a).to_vec()).collect())
}

/// An empty vector with room for `n` floats, or [`GpuError::Memory`].
fn host_vec(n: usize) -> Result<Vec<f32>, GpuError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        GpuError::Memory(format!(
            "cannot allocate {n} floats of output in host memory"
        ))
    })?;
    Ok(v)
}

/// surflet's grid bounds: min and max over the values that are not NaN,
/// −0 counted as +0; `(+∞, −∞)` if there is none.
fn bounds(values: &[f32]) -> (f32, f32) {
    values
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &v| {
            let v = v + 0.0;
            (lo.min(v), hi.max(v))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_match_surflet_rule() {
        assert_eq!(bounds(&[]), (f32::INFINITY, f32::NEG_INFINITY));
        assert_eq!(bounds(&[f32::NAN; 3]), (f32::INFINITY, f32::NEG_INFINITY));
        let (lo, hi) = bounds(&[-0.0, f32::NAN, -0.0]);
        assert_eq!((lo.to_bits(), hi.to_bits()), (0, 0));
        assert_eq!(bounds(&[2.0, f32::NAN, -1.5, 0.5]), (-1.5, 2.0));
    }

    #[test]
    fn identifiers() {
        assert!(is_identifier("probe"));
        assert!(is_identifier("_a1"));
        assert!(!is_identifier("1a"));
        assert!(!is_identifier("a b"));
        assert!(!is_identifier("__x"));
        assert!(!is_identifier(""));
    }
}
