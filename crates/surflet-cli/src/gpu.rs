//! `--device gpu` (feature `gpu`): stacks and graphs compiled to WGSL
//! ([`surflet::Evaluator::wgsl`], [`surflet::GraphField::wgsl`]) and run by `surflet-gpu` on the first
//! GPU adapter wgpu finds.

use std::time::{Duration, Instant};

use surflet::{Graph, Stack};
use surflet_gpu::{GpuContext, GridKernel};

use crate::CliError;
use crate::any_field::widen;

/// The name the generated function gets.
const NAME: &str = "field";

/// A stack or graph compiled for the GPU in `dims` (2 to 4) dimensions.
pub struct GpuStack {
    ctx: GpuContext,
    kernel: GridKernel,
    dims: usize,
}

impl GpuStack {
    /// Compiles `graph`, or `stack` where there is none; errors say what is
    /// not supported or that there is no adapter.
    pub fn new(
        stack: &Stack,
        graph: Option<&Graph>,
        dims: usize,
        gradient: bool,
    ) -> Result<GpuStack, CliError> {
        let usage = |e: surflet::Error| CliError::Usage(format!("--device gpu: {e}"));
        if !(2..=4).contains(&dims) {
            return Err(CliError::Usage(format!(
                "--device gpu evaluates 2D, 3D and 4D fields, not {dims}D"
            )));
        }
        let source = crate::shader::wgsl(stack, graph, dims, NAME).map_err(usage)?;
        let ctx = GpuContext::new().map_err(|e| CliError::Runtime(e.to_string()))?;
        let kernel = GridKernel::new(&ctx, &source, NAME, dims, gradient)
            .map_err(|e| CliError::Runtime(e.to_string()))?;
        Ok(GpuStack { ctx, kernel, dims })
    }

    /// The adapter, as wgpu describes it.
    pub fn adapter(&self) -> String {
        self.ctx.adapter_info()
    }

    /// The dispatch alone (no read-back), the mean over repetitions for at
    /// least `seconds`: (repetitions, total time).
    pub fn time_dispatch(
        &self,
        origin: f32,
        step: f32,
        shape: &[usize],
        seconds: Duration,
    ) -> Result<(u64, Duration), CliError> {
        let o = vec![origin; self.dims];
        let s = vec![step; self.dims];
        let run = |reps| self.kernel.time_dispatch(&self.ctx, &o, &s, shape, reps);
        let once = run(1).map_err(|e| CliError::Runtime(e.to_string()))?;
        // Enough repetitions for the time asked, from one timed dispatch.
        let reps = (seconds.as_secs_f64() / once.as_secs_f64().max(1e-9)).ceil();
        let reps = reps.clamp(1.0, 1e6) as u32;
        let mean = run(reps).map_err(|e| CliError::Runtime(e.to_string()))?;
        Ok((u64::from(reps), mean * reps))
    }

    /// Dispatch and read-back of the whole grid, repeated for at least
    /// `seconds`: (repetitions, total time).
    pub fn time_grid(
        &self,
        origin: f32,
        step: f32,
        shape: &[usize],
        seconds: Duration,
    ) -> Result<(u64, Duration), CliError> {
        let o = vec![origin; self.dims];
        let s = vec![step; self.dims];
        let start = vec![0u64; self.dims];
        let once = || {
            self.kernel
                .grid(&self.ctx, &o, &s, &start, shape)
                .map(drop)
                .map_err(|e| CliError::Runtime(e.to_string()))
        };
        once()?;
        let t = Instant::now();
        let mut reps = 0;
        loop {
            once()?;
            reps += 1;
            if t.elapsed() >= seconds {
                return Ok((reps, t.elapsed()));
            }
        }
    }

    /// The grid of the first `dims` coordinate lists (x fastest), narrowed
    /// to `f32`, evaluated on the GPU: values to `out` and, if asked, the
    /// gradient to the first `dims` slices (widened to `f64`, exactly).
    pub fn fill_grid(
        &self,
        axes: [&[f64]; 4],
        out: &mut [f64],
        gradient: Option<[&mut [f64]; 4]>,
    ) -> Result<(), String> {
        let lists: Vec<Vec<f32>> = axes[..self.dims]
            .iter()
            .map(|a| a.iter().map(|&v| v as f32).collect())
            .collect();
        let refs: Vec<&[f32]> = lists.iter().map(|a| &a[..]).collect();
        let r = self
            .kernel
            .grid_axes(&self.ctx, &refs)
            .map_err(|e| e.to_string())?;
        widen(out, &r.values);
        if let (Some(g), Some(rg)) = (gradient, r.gradient) {
            for (o, s) in g.into_iter().zip(&rg) {
                widen(o, s);
            }
        }
        Ok(())
    }
}
