//! `surflet bench`: how fast this machine evaluates a noise or stack, in
//! millions of samples a second, through the library's grid and point-array
//! calls.

use std::io::Write;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use serde::Serialize;
use surflet::dynamic::{DynField, GradientOut, Points, Region};
use surflet::{Float, Grid, Isa, NoiseKind};

use crate::CliError;
use crate::names::NoiseName;
use crate::stack_args::{self, Resolved, StackArgs, agreed_dims, one_noise};
use crate::units::{parse_extent, short};

/// Long description, shown by `surflet bench --help`.
pub const LONG_ABOUT: &str = "\
Measure how fast this machine evaluates a noise or noise stack, in millions
of samples a second (Msamples/s), through the library's batch calls: `grid`
(a uniform grid, x fastest) and `points` (the same points as coordinate
arrays). Every combination of the list options is one row of the table.

The workload is a grid of --size points per axis, --scale world units
apart, starting just off the lattice. Each row is run once to warm up, then
repeated for at least --seconds; the table shows the mean rate.

  surflet bench simplex --dims 3 --size 128
  surflet bench perlin --octaves 3 --frequency 1/64 --scale 1 --threads 1,2
  surflet bench --config terrain.toml --precision f32,f64 --gradient --json";

/// A batch call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Call {
    /// The grid call.
    Grid,
    /// The point-array call.
    Points,
    /// On the GPU: the dispatch alone, without the read-back.
    Dispatch,
}

/// A precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    /// Single precision.
    F32,
    /// Double precision.
    F64,
}

/// Where the noise is evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Device {
    /// This machine's CPU cores, through the library.
    Cpu,
    /// The first GPU adapter wgpu finds, through the stack compiled to WGSL
    /// (builds with the `gpu` feature; 2D to 4D stacks and graphs, f32).
    Gpu,
}

/// An instruction set, as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum IsaName {
    /// Portable scalar code.
    Scalar,
    /// AVX2.
    Avx2,
    /// AVX-512.
    Avx512,
}

impl IsaName {
    fn isa(self) -> Isa {
        match self {
            IsaName::Scalar => Isa::Scalar,
            IsaName::Avx2 => Isa::Avx2,
            IsaName::Avx512 => Isa::Avx512,
        }
    }
}

/// Command line of `surflet bench`.
#[derive(Args, Debug)]
#[command(allow_negative_numbers = true)]
pub struct BenchArgs {
    /// The noise kind, the same as -n KIND [default: simplex, or the
    /// config's].
    #[arg(value_name = "KIND", value_parser = stack_args::noise_kind())]
    pub kind: Option<NoiseKind>,

    // Boxed so that `Command` stays small (the group is large).
    #[command(flatten)]
    pub stack: Box<StackArgs>,

    /// Dimension of the noise, 1 to 4 [default: 2, or what --size or a
    /// per-axis key (--period, --domain-offset, the config's) gives].
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u8).range(1..=4))]
    pub dims: Option<u8>,

    /// Points per axis, as N for every axis or WxH[xD] one per axis
    /// [default: 2^20 in 1D, 1024 in 2D, 128 in 3D, 32 in 4D].
    #[arg(long, value_name = "N|WxH[xD]", value_parser = parse_sides)]
    pub size: Option<Sides>,

    /// World units per sample, a decimal or a fraction [default: 0.03].
    #[arg(long, value_name = "S", allow_hyphen_values = true, value_parser = parse_scale)]
    pub scale: Option<f64>,

    /// The calls to time: grid, points [default: grid,points].
    #[arg(long, value_name = "CALL,...", value_delimiter = ',')]
    pub call: Vec<Call>,

    /// The precisions to time: f32, f64 [default: f32].
    #[arg(long, value_name = "P,...", value_delimiter = ',')]
    pub precision: Vec<Precision>,

    /// Also compute the gradient.
    #[arg(long)]
    pub gradient: bool,

    /// Thread counts to time [default: 1 and the number of cores].
    #[arg(long, value_name = "N,...", value_delimiter = ',', value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Vec<u16>,

    /// Instruction sets to time: scalar, avx2, avx512 [default: the widest
    /// this CPU has]. avx512 needs a build with the avx512 feature.
    #[arg(long, value_name = "ISA,...", value_delimiter = ',')]
    pub isa: Vec<IsaName>,

    /// Where to run: cpu, or gpu (a build with the gpu feature).
    ///
    /// On the GPU the rows are the dispatch alone (call `dispatch`) and the
    /// grid call with its read-back (call `grid`), in f32.
    #[arg(long, value_enum, default_value = "cpu", hide_possible_values = true)]
    pub device: Device,

    /// Minimum measuring time per row, in seconds [default: 0.5].
    #[arg(long, value_name = "T", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub seconds: Option<f64>,

    /// Print JSON instead of a table (key `msamples_per_s` in each row).
    #[arg(long)]
    pub json: bool,
}

/// The points per axis `--size` gives: one number for every axis, or one
/// per axis.
#[derive(Clone, Debug)]
pub struct Sides(Vec<u32>);

fn parse_sides(s: &str) -> Result<Sides, String> {
    parse_extent(s).map(Sides)
}

fn parse_scale(s: &str) -> Result<f64, String> {
    crate::units::parse_ratio(s).map(|r| r.value())
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && (0.0..=600.0).contains(&x) => Ok(x),
        _ => Err(format!("{:?} is not a time in 0..=600 seconds", s.trim())),
    }
}

/// One measured row.
#[derive(Debug, Serialize)]
struct Row {
    call: Call,
    precision: Precision,
    gradient: bool,
    isa: &'static str,
    /// CPU threads (null on the GPU).
    threads: Option<u16>,
    msamples_per_s: f64,
    ns_per_sample: f64,
    repetitions: u64,
}

/// The whole report, as `--json` prints it.
#[derive(Debug, Serialize)]
struct Report {
    noise: String,
    /// The GPU adapter, with --device gpu.
    #[serde(skip_serializing_if = "Option::is_none")]
    device: Option<String>,
    dims: usize,
    shape: Vec<usize>,
    samples: usize,
    spacing: f64,
    rows: Vec<Row>,
}

/// Runs `surflet bench`.
pub fn run(args: &BenchArgs, out: impl Write) -> Result<(), CliError> {
    let usage = CliError::Usage;
    if args.stack.save_config.is_some() {
        return Err(usage("--save-config does not apply to bench".into()));
    }
    let noise = family_noise(args)?;
    let resolved = args.stack.resolve(noise).map_err(usage)?;
    let dims = dims_of(args, &resolved)?;
    let (shape, samples) = shape_of(args, dims)?;
    let spacing = args.scale.unwrap_or(0.03);
    if args.device == Device::Gpu {
        return gpu(args, &resolved, dims, (shape, samples), spacing, out);
    }
    if args.call.contains(&Call::Dispatch) {
        return Err(usage(
            "--call dispatch times a GPU dispatch: it needs --device gpu".into(),
        ));
    }
    let calls = or_default(&args.call, &[Call::Grid, Call::Points]);
    let precisions = or_default(&args.precision, &[Precision::F32]);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u16;
    let mut threads = or_default(&args.threads, &[1, cores]);
    threads.dedup();
    let isas = isas_of(args)?;
    let seconds = Duration::from_secs_f64(args.seconds.unwrap_or(0.5));

    let label = match &resolved.graph {
        Some(g) => format!("{g} {dims}D"),
        None => describe(&resolved.stack, dims),
    };
    let graph = resolved
        .graph
        .clone()
        .unwrap_or_else(|| surflet::Graph::stack(resolved.stack.clone()));
    let mut rows = Vec::new();
    for &precision in &precisions {
        for &call in &calls {
            for &isa in &isas {
                for &t in &threads {
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(usize::from(t))
                        .build()
                        .map_err(|e| CliError::Runtime(format!("starting {t} threads: {e}")))?;
                    let job = Job {
                        call,
                        isa,
                        gradient: args.gradient,
                        shape: &shape,
                        spacing,
                        seconds,
                    };
                    let (reps, elapsed) = pool
                        .install(|| job.measure(&graph, dims, precision))
                        .map_err(|e| CliError::Usage(e.to_string()))?;
                    let total = reps as f64 * samples as f64;
                    rows.push(Row {
                        call,
                        precision,
                        gradient: args.gradient,
                        isa: isa.name(),
                        threads: Some(t),
                        msamples_per_s: total / elapsed.as_secs_f64() / 1e6,
                        ns_per_sample: elapsed.as_secs_f64() * 1e9 / total,
                        repetitions: reps,
                    });
                }
            }
        }
    }
    let report = Report {
        noise: label,
        device: None,
        dims,
        shape,
        samples,
        spacing,
        rows,
    };
    print(&report, args.json, out).map_err(CliError::Write)
}

/// `--device gpu`: the stack or graph compiled to WGSL, its dispatch and its grid
/// call with read-back timed, in f32.
#[cfg(feature = "gpu")]
fn gpu(
    args: &BenchArgs,
    resolved: &stack_args::Resolved,
    dims: usize,
    (shape, samples): (Vec<usize>, usize),
    spacing: f64,
    out: impl Write,
) -> Result<(), CliError> {
    let usage = CliError::Usage;
    let cpu_only = [
        (!args.threads.is_empty(), "--threads"),
        (!args.isa.is_empty(), "--isa"),
        (
            args.precision.iter().any(|p| *p != Precision::F32),
            "--precision f64",
        ),
        (args.call.contains(&Call::Points), "--call points"),
    ];
    if let Some((_, flag)) = cpu_only.iter().find(|(given, _)| *given) {
        return Err(usage(format!(
            "{flag} does not apply to --device gpu (f32 grids; calls dispatch and grid)"
        )));
    }
    let calls = or_default(&args.call, &[Call::Dispatch, Call::Grid]);
    let seconds = Duration::from_secs_f64(args.seconds.unwrap_or(0.5));
    let field = crate::gpu::GpuStack::new(
        &resolved.stack,
        resolved.graph.as_ref(),
        dims,
        args.gradient,
    )?;
    // As on the CPU: just off the lattice.
    let (origin, step) = (0.123f32, spacing as f32);
    let mut rows = Vec::new();
    for call in calls {
        let (reps, elapsed) = match call {
            Call::Dispatch => field.time_dispatch(origin, step, &shape, seconds)?,
            _ => field.time_grid(origin, step, &shape, seconds)?,
        };
        let total = reps as f64 * samples as f64;
        rows.push(Row {
            call,
            precision: Precision::F32,
            gradient: args.gradient,
            isa: "gpu",
            threads: None,
            msamples_per_s: total / elapsed.as_secs_f64() / 1e6,
            ns_per_sample: elapsed.as_secs_f64() * 1e9 / total,
            repetitions: reps,
        });
    }
    let report = Report {
        noise: describe(&resolved.stack, dims),
        device: Some(field.adapter()),
        dims,
        shape,
        samples,
        spacing,
        rows,
    };
    print(&report, args.json, out).map_err(CliError::Write)
}

/// `--device gpu` in a build without the `gpu` feature.
#[cfg(not(feature = "gpu"))]
fn gpu(
    _: &BenchArgs,
    _: &stack_args::Resolved,
    _: usize,
    _: (Vec<usize>, usize),
    _: f64,
    _: impl Write,
) -> Result<(), CliError> {
    Err(CliError::Usage(
        "--device gpu needs a build with the gpu feature: cargo install --path crates/surflet-cli --features gpu"
            .into(),
    ))
}

/// The dimension: 2 unless --dims, a per-axis key (--period,
/// --domain-offset, or the config's) or a --size of several sides fixes
/// it, and those that do must agree.
fn dims_of(args: &BenchArgs, resolved: &Resolved) -> Result<usize, CliError> {
    let usage = CliError::Usage;
    let size = args.size.as_ref().map(|s| &s.0[..]).filter(|s| s.len() > 1);
    let size = size.map(|s| (s.len(), "--size"));
    match agreed_dims(args.dims, resolved, size).map_err(usage)? {
        Some((d, _)) if (1..=4).contains(&d) => Ok(d),
        Some((d, from)) => Err(usage(format!(
            "{from} gives {d} dimensions; bench takes 1 to 4 (one value per axis)"
        ))),
        None => Ok(2),
    }
}

/// The noise named by KIND or --noise, and which of them named it; only
/// the surflet family is measured, not the reference ports.
fn family_noise(args: &BenchArgs) -> Result<Option<(NoiseKind, &'static str)>, CliError> {
    let usage = CliError::Usage;
    let noise = one_noise(
        "KIND",
        args.kind.map(NoiseName::of_kind),
        args.stack.noise(),
    )
    .map_err(usage)?;
    match noise {
        Some((name, from)) => match name.family() {
            Some(kind) => Ok(Some((kind, from))),
            None => Err(usage(format!(
                "bench measures the surflet family ({}); {name} is a reference port",
                stack_args::kinds()
            ))),
        },
        None => Ok(None),
    }
}

/// The points per axis (--size, or a default of about a million samples)
/// and their product, both checked against what one call can hold.
fn shape_of(args: &BenchArgs, dims: usize) -> Result<(Vec<usize>, usize), CliError> {
    let usage = CliError::Usage;
    let shape: Vec<usize> = match args.size.as_ref().map(|s| &s.0[..]) {
        Some([n]) => vec![*n as usize; dims],
        Some(s) => s.iter().map(|&n| n as usize).collect(),
        None => vec![[1 << 20, 1024, 128, 32][dims - 1]; dims],
    };
    let size_text = || {
        shape
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join("x")
    };
    if shape.iter().any(|&n| n > 1 << 24) {
        return Err(usage(format!(
            "--size {} has a side over 2^24 points; choose a smaller --size",
            size_text()
        )));
    }
    let samples = shape
        .iter()
        .try_fold(1usize, |n, &s| n.checked_mul(s))
        .filter(|&n| n <= 1 << 28)
        .ok_or_else(|| {
            usage(format!(
                "--size {} in {dims}D is more than 2^28 samples; choose a smaller --size",
                size_text()
            ))
        })?;
    Ok((shape, samples))
}

/// Whether the CPU has AVX-512 (F and VL), whether or not this build does.
fn cpu_has_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vl");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The instruction sets measured: --isa, each of which this CPU must
/// have, or the one the library picks.
fn isas_of(args: &BenchArgs) -> Result<Vec<Isa>, CliError> {
    if args.isa.is_empty() {
        if !Isa::Avx512.is_built() && cpu_has_avx512() {
            eprintln!(
                "note: this CPU has AVX-512, which this build leaves out; \
                 a build with `--features avx512` (or `full`) uses it"
            );
        }
        return Ok(vec![Isa::detect()]);
    }
    let mut v = Vec::new();
    for name in &args.isa {
        let isa = name.isa();
        if !isa.is_built() {
            return Err(CliError::Runtime(format!(
                "this build has no {} backend: build surflet with `--features {}` (or `full`)",
                isa.name(),
                isa.name()
            )));
        }
        if !isa.is_available() {
            return Err(CliError::Runtime(format!(
                "this CPU does not support {}; it has {}",
                isa.name(),
                Isa::available()
                    .iter()
                    .map(|i| i.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        v.push(isa);
    }
    Ok(v)
}

fn or_default<T: Clone>(given: &[T], default: &[T]) -> Vec<T> {
    if given.is_empty() { default } else { given }.to_vec()
}

/// One line naming what is measured: noise, fractal, warp, frequency.
fn describe(stack: &surflet::Stack, dims: usize) -> String {
    let mut s = format!("{} {dims}D", stack.noise);
    if let Some(f) = &stack.fractal {
        s += &format!(", {} x{}", f.kind, f.octaves);
    }
    if stack.warp.is_some() {
        s += ", warped";
    }
    if stack.frequency != 1.0 {
        s += &format!(", frequency {}", short(stack.frequency));
    }
    if let Some(p) = &stack.period {
        s += &format!(", period {p:?}");
    }
    s
}

/// One row's measurement.
struct Job<'a> {
    call: Call,
    isa: Isa,
    gradient: bool,
    shape: &'a [usize],
    spacing: f64,
    seconds: Duration,
}

impl Job<'_> {
    /// Times the graph's call through [`DynField`], the erasure every front
    /// end calls, so that the CLI compiles no kernel of its own. The erasure
    /// adds per call, not per sample: one virtual call, and for a grid the
    /// window's coordinate lists (the sum of its sides, not their product).
    fn measure(
        &self,
        graph: &surflet::Graph,
        dims: usize,
        precision: Precision,
    ) -> Result<(u64, Duration), surflet::Error> {
        let field = DynField::graph(graph, dims)?;
        match precision {
            Precision::F32 => self.run::<f32>(&field),
            Precision::F64 => self.run::<f64>(&field),
        }
    }

    fn run<F: Float>(&self, field: &DynField) -> Result<(u64, Duration), surflet::Error> {
        let d = field.dims();
        // Just off the lattice, so no row starts on lattice points.
        let origin = vec![F::from_f64(0.123); d];
        let step = vec![F::from_f64(self.spacing); d];
        let first = vec![0; d];
        let shape = &self.shape[..d];
        let n: usize = shape.iter().product();
        let mut out = vec![F::ZERO; n];
        // Per-axis gradient lists, so that no interleaving pass is timed.
        let mut grad: Vec<Vec<F>> = vec![vec![F::ZERO; if self.gradient { n } else { 0 }]; d];
        // The grid's points, one array per axis, x fastest: each axis's
        // coordinates as the grid call computes them (a 1D `Grid`).
        let points: Vec<Vec<F>> = match self.call {
            Call::Grid | Call::Dispatch => Vec::new(),
            Call::Points => (0..d)
                .map(|a| {
                    let line = Grid::uniform([origin[a]], [step[a]], [shape[a]])?;
                    let inner: usize = shape[..a].iter().product();
                    Ok((0..n)
                        .map(|i| line.axis(0)[(i / inner) % shape[a]])
                        .collect())
                })
                .collect::<Result<_, surflet::Error>>()?,
        };
        let axes: Vec<&[F]> = points.iter().map(|v| &v[..]).collect();
        let mut once = || -> Result<(), surflet::Error> {
            let g = self
                .gradient
                .then(|| GradientOut::Axes(grad.iter_mut().map(|v| &mut v[..]).collect()));
            match self.call {
                Call::Grid | Call::Dispatch => {
                    let region = Region::Window {
                        origin: &origin,
                        step: &step,
                        start: &first,
                        shape,
                    };
                    field.grid_on(self.isa, region, &mut out, g).map(drop)
                }
                Call::Points => field.fill_on(self.isa, Points::Axes(&axes), &mut out, g),
            }
        };
        once()?;
        let start = Instant::now();
        let mut reps = 0;
        loop {
            once()?;
            reps += 1;
            let elapsed = start.elapsed();
            if elapsed >= self.seconds {
                return Ok((reps, elapsed));
            }
        }
    }
}

fn print(report: &Report, json: bool, mut out: impl Write) -> std::io::Result<()> {
    if json {
        serde_json::to_writer_pretty(&mut out, report).map_err(std::io::Error::other)?;
        writeln!(out)?;
        return out.flush();
    }
    let shape: Vec<String> = report.shape.iter().map(|s| s.to_string()).collect();
    writeln!(
        out,
        "{}: {} = {} samples, spacing {}",
        report.noise,
        shape.join("x"),
        report.samples,
        short(report.spacing)
    )?;
    if let Some(device) = &report.device {
        writeln!(out, "device: {device}")?;
    }
    writeln!(
        out,
        "{:<7} {:<9} {:<8} {:<7} {:>7} {:>11} {:>10}",
        "call", "precision", "gradient", "isa", "threads", "Msamples/s", "ns/sample"
    )?;
    for r in &report.rows {
        writeln!(
            out,
            "{:<7} {:<9} {:<8} {:<7} {:>7} {:>11.1} {:>10.3}",
            format!("{:?}", r.call).to_lowercase(),
            format!("{:?}", r.precision).to_lowercase(),
            if r.gradient { "yes" } else { "no" },
            r.isa,
            r.threads.map_or("-".to_string(), |t| t.to_string()),
            r.msamples_per_s,
            r.ns_per_sample
        )?;
    }
    out.flush()
}
