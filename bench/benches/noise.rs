//! surflet against its peers, side by side, in one criterion run (the
//! workloads of issue 11, and those of issue 13's new noises: OpenSimplex2,
//! OpenSimplex2S and cellular noise; see "The new noises" below).
//!
//! Every group is one workload: the same number of samples on the same
//! uniform grid, the same lattice step (lattice cells between neighbouring
//! samples), the same noise kind and dimension, the same fBm octaves, gain
//! (0.5) and lacunarity (2). Every row is one library's documented way of
//! computing that workload, f32, **on one thread** unless its id says
//! otherwise:
//!
//! * surflet: the point-array call (`Noise::fill` / `Fractal::fill`) and the
//!   grid call (`Noise::grid` / `Fractal::grid` on a `surflet::Grid::uniform`),
//!   both on the default dispatch (the widest instruction set of the CPU); the
//!   grid call again on a 2-thread rayon pool; both in f64; and, in 2D/3D
//!   simplex, the single-point `get` in a loop. surflet's batch calls run on
//!   the *current* rayon pool, so `main` makes the global pool one thread
//!   wide and the threaded row installs its own 2-thread pool;
//! * FastNoise2 (C++): `GenUniformGrid` and `GenPositionArray`, best SIMD
//!   level (what the `fastnoise2` crate's `SafeNode` picks);
//! * quick-noise 0.3, 2D and 3D: its batch path (`BatchNoise`), fed from
//!   coordinate slices and from its own grid iterators (`Grid::x_iter()`),
//!   and, for Perlin and value noise and 2D cellular noise, its
//!   uniform-grid path (`Grid::builder`), all through its documented runtime
//!   dispatch (`#[dispatch_simd]`: AVX-512 > AVX2 > SSE4.2 > scalar);
//! * simdnoise (simplex and cellular, its grid builder; AVX2 is its widest
//!   path);
//! * in the plain-noise groups only, the scalar Rust peers (fastnoise-lite,
//!   noise-rs, libnoise, opensimplex2), called once per point in a loop
//!   that writes into a preallocated buffer, exactly as a user would.
//!
//! # Coordinates and frequency, library by library
//!
//! A workload has a spacing `s` (world units between samples) and a
//! frequency `f` (the fractal's frequency, 1 for plain noise); the lattice
//! step is `s·f`. The plain workloads and "fBm 3D simplex ×5" use `s = 0.03,
//! f = 1`; the "freq 1/64" workloads use `s = 1, f = 1/64`.
//!
//! * surflet: world coordinates `i·s` (computed by `Grid::uniform`, origin 0;
//!   the point arrays hold exactly the grid's points), `FractalParams::frequency
//!   = f` for fBm (a plain `Noise` has no frequency and `f = 1`);
//! * FastNoise2: `GenUniformGrid` with `frequency = s·f`; `GenPositionArray`
//!   (which has no frequency) with lattice coordinates `i·(s·f)`;
//! * quick-noise: sample indices `i` with `.frequency(s·f)`, on both paths
//!   (its grid path samples at integer positions times the frequency; its
//!   octave seeds depend on the frequency, so giving the batch path the same
//!   inputs makes the two paths compute the same field, in 2D; checked);
//! * simdnoise and fastnoise-lite: integer grid positions with their
//!   frequency set to `s·f`;
//! * noise-rs, libnoise, opensimplex2 (no frequency): `i·(s·f)` in f64
//!   (noise-rs's `OpenSimplex` alone is scaled further, see below).
//!
//! # The new noises (issue 13)
//!
//! Six plain workloads, spacing 0.03: OpenSimplex2 and OpenSimplex2S in 2D
//! (1024²) and 3D (128³), and cellular noise in 2D (1024²) and 3D (128³),
//! euclidean distance, `f1` (distance to the nearest feature point), jitter
//! 1 (`surflet::Cellular::new(Euclidean, F1, 1.0)`, surflet's defaults).
//! Their group ids start with `opensimplex2` or `cellular`, so
//! `'^(opensimplex2|cellular)'` selects them and nothing else. What each
//! peer row computes, and where it is not exactly surflet's function (only
//! speed is compared; the roughness check holds each to the same field
//! scale):
//!
//! * OpenSimplex2 / OpenSimplex2S. surflet: K.jpg's lattices; 2D the
//!   standard orientation (Java `noise2`), 3D the BCC lattice turned so z is
//!   the main diagonal (Java `ImproveXY`); radius² ½ for OpenSimplex2 in 2D
//!   and 3D (the Java: 0.5 and 0.6), ⅔ and ¾ for OpenSimplex2S. FastNoise2:
//!   its `OpenSimplex2` and `OpenSimplex2S` nodes, same lattice scale; in 3D
//!   its own fixed orientation (the Java `Fallback` rotation, no option) and,
//!   for OpenSimplex2, radius² 0.6, as fastnoise-lite and the Java (so in
//!   3D all three are smoother than surflet: measured roughness 0.86–0.90×
//!   surflet's).
//!   fastnoise-lite: `NoiseType::OpenSimplex2` /
//!   `OpenSimplex2S`, in 3D with `RotationType3D::ImproveXYPlanes` (surflet's
//!   orientation). opensimplex2 (the Java's port): `fast::noise2` /
//!   `fast::noise3_ImproveXY` and `smooth::noise2` / `smooth::noise3_ImproveXY`.
//!   noise-rs has no OpenSimplex2: in the OpenSimplex2S groups it runs
//!   `SuperSimplex` (K.jpg's 2019 SuperSimplex, OpenSimplex2S's direct
//!   predecessor, on the same lattices at the same scale, in its own
//!   orientation); in the OpenSimplex2 groups it runs `OpenSimplex`, the
//!   original 2014 OpenSimplex, a different noise on a coarser lattice (a
//!   third of OpenSimplex2's lattice points per unit area in 2D, a quarter
//!   per unit volume in 3D), given coordinates scaled by √3 (2D) and ∛4
//!   (3D) so that the lattice-point densities match (measured roughness
//!   0.9× and 0.7× surflet's); it is the nearest thing noise-rs has, not
//!   the same noise. quick-noise 0.3 has no OpenSimplex2 or
//!   OpenSimplex2S (its `Simplex` is classic simplex noise), simdnoise and
//!   libnoise neither, so they have no rows here.
//! * Cellular. Every library here puts one feature point in each unit cell
//!   (cell size 1 in its frequency-scaled coordinates), so the frequency
//!   mapping above gives the same feature-point density everywhere and no
//!   further scaling is needed. They differ in where the point may lie in
//!   its cell, in how many cells they search, and in output scale:
//!   - surflet: anywhere in the cell (jitter 1, uniform), an exact search;
//!     f1 mapped affinely from [0, √D] onto [−1, 1].
//!   - FastNoise2 (`CellularDistance`: distance function `Euclidean`, return
//!     type `Index0` = nearest distance, jitter modifier 1): the point lies on
//!     a circle (2D) / sphere (3D) of radius 0.437 / 0.396 round the cell
//!     centre (its jitter 1 is that radius: `kJitter2D`, `kJitter3D`), 3ᴰ
//!     cells searched; returns f1 unscaled.
//!   - fastnoise-lite (`Cellular`, `CellularDistanceFunction::Euclidean`,
//!     `CellularReturnType::Distance`, jitter 1): the same circle/sphere
//!     placement and 3ᴰ search as FastNoise2; returns f1 − 1.
//!   - quick-noise (`Cellular`, its only cellular: euclidean f1): anywhere in
//!     the cell (uniform, like surflet's jitter 1); 2ᴰ cells, widened when a
//!     point may be nearer elsewhere; returns f1 (through `Fbm` with one
//!     octave, as its other rows). Batch path in 2D and 3D, grid path in 2D
//!     only (it has no 3D cellular grid).
//!   - simdnoise (`NoiseBuilder::cellular_2d`/`_3d`, `Euclidean`,
//!     `CellReturnType::Distance`): the point on a circle/sphere of radius
//!     `jitter` round the cell centre, given FastNoise Lite's radii (0.437 /
//!     0.396) so that its placement matches FastNoise2's and
//!     fastnoise-lite's jitter 1; returns **f1²** (it omits the square root);
//!     and its 3D search is broken in simdnoise 3.1.6 (its z loop steps from
//!     the y cell, `zcf = ycf + 1` and `zc = yc + Z_PRIME`, so after the
//!     first z layer it visits cells other than the 3×3×3 round the point):
//!     its 3D output is not a Worley field (roughness 0.74× surflet's),
//!     though it does the work of one (27 cells per point).
//!   - noise-rs (`Worley`, `distance_functions::euclidean`,
//!     `ReturnType::Distance`, frequency 1): one point per lattice vertex,
//!     within 0.5 of it along one of 8 (2D) / 18 (3D) directions, only the
//!     2ᴰ nearest vertices searched (approximate); returns 2·f1 − 1; the
//!     distance function is a boxed closure (`Rc<dyn Fn>`).
//!   - libnoise (`Source::worley`): anywhere in the cell (uniform), 3ᴰ cells
//!     searched; returns 2·min(f1, 1) − 1.
//!
//! # Checks
//!
//! Each row runs once before it is timed (only rows that the criterion filter
//! selects), and its output is checked: the right length, finite, varying,
//! and as rough as surflet's (mean difference of x-neighbours over mean
//! deviation, within 0.5–2× surflet's: a frequency mapped wrongly by a factor
//! of 2 or more fails). surflet's f32 rows (fill, grid, threaded grid, `get`)
//! must agree bit for bit, as must its two f64 rows; FastNoise2's grid and
//! position-array outputs must agree; quick-noise's two batch rows must agree
//! bit for bit, and its grid output with them in 2D (same seeds through
//! `seed_with_grid`; its 3D grid path computes a different field). Set `BENCH_VERBOSE=1` to print each row's roughness
//! ratio.
//!
//! # Build
//!
//! The harness crate is built with one codegen unit (Cargo.toml): every
//! library's generic code is instantiated here, and with 16 units a generic
//! helper can land in another unit than its caller and not be inlined
//! (measured: quick-noise's batch path 5-7× slower, surflet's `fill` 1.4×).
//!
//! Benchmark ids are `library/call/precision/isa`; `run.sh` and `table.py`
//! turn them into the tables of BENCHMARKS.md. Criterion is told the number
//! of samples, so its own report shows samples/s too. Output buffers are
//! allocated once, outside the timed loop, except for simdnoise, whose API
//! returns a fresh `Vec` (that allocation is part of its documented path and
//! is timed), and quick-noise's grid path, which allocates its scratch space
//! per call (also its documented path).
//!
//! Criterion settings (`main`): 10 samples, 0.5 s warm-up, 1.5 s of
//! measuring per row, flat sampling (criterion's defaults are 100 samples,
//! 3 s and 5 s), so that one build's 163 rows of issue 11's groups measure in
//! about 6.5 minutes on a quiet 2-core machine (the three f64 scalar peers in
//! 4D simplex, about 1 s an iteration, take 45 s of that), and the 67 rows of
//! the new-noise groups in about 3 more; command-line flags (`--sample-size`,
//! `--warm-up-time`, `--measurement-time`) override them.

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::hint::black_box;
use std::sync::OnceLock;
use std::time::Duration;

use criterion::{BenchmarkGroup, Criterion, SamplingMode, Throughput, measurement::WallTime};
use fastnoise_lite::{FastNoiseLite, NoiseType, RotationType3D};
use libnoise::Generator as _;
use noise::NoiseFn;
use quick_noise::simd::{SimdSliceIterExt, dispatch_simd};
use quick_noise::{BatchGenerator, BatchNoise, Fbm, GridGenerator};
use surflet::Field as _;
use surflet::{
    Bounds, Cellular, CellularDistance, CellularReturn, Float, Fractal, FractalKind, FractalParams,
    Grid, Isa, Noise, NoiseKind,
};

/// Seed for every library (each maps it to its own lattice; only speed matters).
const SEED: u32 = 1337;
/// quick-noise's two seeds (grid and noise), the same on both of its paths.
const QN_GRID_SEED: i64 = 1337;
const QN_NOISE_SEED: i64 = 7;
/// fBm parameters for every library.
const GAIN: f64 = 0.5;
const LACUNARITY: f64 = 2.0;
/// Threads of the threaded surflet row.
const THREADS: usize = 2;
/// Spacing of the plain workloads (world units between samples).
const SPACING: f64 = 0.03;
/// Cellular noise's jitter for every library: surflet's 1 (the feature point
/// anywhere in its cell), FastNoise2's and fastnoise-lite's jitter modifier 1.
const JITTER: f64 = 1.0;
/// The radii that FastNoise Lite and FastNoise2 scale their unit jitter
/// vectors by (`0.43701595` and `0.39614353` in FastNoiseLite,
/// `kJitter2D`/`kJitter3D` in FastNoise2): simdnoise's jitter is that radius
/// itself, so it is given these to place its points as they do.
const FNL_JITTER_2D: f32 = 0.437_015_95;
const FNL_JITTER_3D: f32 = 0.396_143_53;

// ---------------------------------------------------------------------------
// Workloads

/// One workload: one criterion group.
#[derive(Clone, Copy)]
struct Work {
    /// The criterion group id (`table.py` maps it to a label).
    name: &'static str,
    kind: NoiseKind,
    /// Samples per axis.
    side: usize,
    /// fBm octaves; 0 for the plain noise (no fractal).
    octaves: u32,
    /// World units between neighbouring samples.
    spacing: f64,
    /// The fractal's frequency (1 for plain noise).
    freq: f64,
}

impl Work {
    const fn plain(name: &'static str, kind: NoiseKind, side: usize) -> Work {
        Work {
            name,
            kind,
            side,
            octaves: 0,
            spacing: SPACING,
            freq: 1.0,
        }
    }
    const fn fbm(
        name: &'static str,
        kind: NoiseKind,
        side: usize,
        octaves: u32,
        spacing: f64,
        freq: f64,
    ) -> Work {
        Work {
            name,
            kind,
            side,
            octaves,
            spacing,
            freq,
        }
    }
    /// Lattice cells between neighbouring samples.
    fn step(&self) -> f64 {
        self.spacing * self.freq
    }
    fn is_fbm(&self) -> bool {
        self.octaves > 0
    }
}

/// The workloads, in the order of issue 11's table, then quick-noise's
/// headline (3-octave fBm of Perlin, value and simplex, 2D 1024² and 3D
/// 128³, frequency 1/64; two of them are in the table already), then
/// the plain 3D value noise kept from the earlier harness, then issue 13's
/// new noises (group ids starting `opensimplex2` or `cellular`).
fn workloads(c: &mut Criterion) {
    use NoiseKind::*;
    let f64th = 1.0 / 64.0;
    bench_work::<2>(c, Work::plain("simplex2d 1024x1024", Simplex, 1024));
    bench_work::<3>(c, Work::plain("simplex3d 128x128x128", Simplex, 128));
    bench_work::<3>(c, Work::plain("perlin3d 128x128x128", Perlin, 128));
    bench_work::<4>(c, Work::plain("simplex4d 64x64x64x64", Simplex, 64));
    bench_work::<2>(c, Work::plain("perlin2d 1024x1024", Perlin, 1024));
    bench_work::<3>(
        c,
        Work::fbm("fbm5 simplex3d 64x64x64", Simplex, 64, 5, SPACING, 1.0),
    );
    bench_work::<2>(c, Work::plain("value2d 1024x1024", Value, 1024));
    bench_work::<2>(
        c,
        Work::fbm(
            "fbm3 perlin2d 1024x1024 freq 1/64",
            Perlin,
            1024,
            3,
            1.0,
            f64th,
        ),
    );
    bench_work::<3>(
        c,
        Work::fbm(
            "fbm3 value3d 128x128x128 freq 1/64",
            Value,
            128,
            3,
            1.0,
            f64th,
        ),
    );
    bench_work::<2>(
        c,
        Work::fbm(
            "fbm3 value2d 1024x1024 freq 1/64",
            Value,
            1024,
            3,
            1.0,
            f64th,
        ),
    );
    bench_work::<2>(
        c,
        Work::fbm(
            "fbm3 simplex2d 1024x1024 freq 1/64",
            Simplex,
            1024,
            3,
            1.0,
            f64th,
        ),
    );
    bench_work::<3>(
        c,
        Work::fbm(
            "fbm3 perlin3d 128x128x128 freq 1/64",
            Perlin,
            128,
            3,
            1.0,
            f64th,
        ),
    );
    bench_work::<3>(
        c,
        Work::fbm(
            "fbm3 simplex3d 128x128x128 freq 1/64",
            Simplex,
            128,
            3,
            1.0,
            f64th,
        ),
    );
    bench_work::<3>(c, Work::plain("value3d 128x128x128", Value, 128));
    bench_work::<2>(
        c,
        Work::plain("opensimplex2 2d 1024x1024", OpenSimplex2, 1024),
    );
    bench_work::<3>(
        c,
        Work::plain("opensimplex2 3d 128x128x128", OpenSimplex2, 128),
    );
    bench_work::<2>(
        c,
        Work::plain("opensimplex2s 2d 1024x1024", OpenSimplex2S, 1024),
    );
    bench_work::<3>(
        c,
        Work::plain("opensimplex2s 3d 128x128x128", OpenSimplex2S, 128),
    );
    bench_work::<2>(
        c,
        Work::plain("cellular2d 1024x1024", NoiseKind::Cellular, 1024),
    );
    bench_work::<3>(
        c,
        Work::plain("cellular3d 128x128x128", NoiseKind::Cellular, 128),
    );
}

fn main() {
    // surflet's batch and grid calls run on the current rayon pool: one
    // thread for every row but the threaded one (which installs its own).
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global()
        .expect("the global rayon pool is configured before anything uses it");
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_millis(1500))
        .configure_from_args();
    workloads(&mut c);
    c.final_summary();
}

/// The pool of the threaded surflet row.
fn pool() -> &'static rayon::ThreadPool {
    static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(THREADS)
            .build()
            .unwrap()
    })
}

// ---------------------------------------------------------------------------
// surflet's field: a noise or an fBm of it

enum Field<const D: usize> {
    Noise(Noise<D>),
    Fractal(Fractal<D>),
}

impl<const D: usize> Field<D> {
    fn new(w: &Work) -> Self {
        let mut noise = Noise::<D>::new(w.kind, SEED as u64);
        if w.kind == NoiseKind::Cellular {
            // surflet's defaults, spelled out: euclidean, f1, jitter 1.
            let cell = Cellular::new(CellularDistance::Euclidean, CellularReturn::F1, JITTER);
            noise = noise.with_cellular(cell.unwrap()).unwrap();
        }
        if !w.is_fbm() {
            return Field::Noise(noise);
        }
        let params = FractalParams {
            octaves: w.octaves,
            frequency: w.freq,
            lacunarity: LACUNARITY,
            gain: GAIN,
            ..FractalParams::new(FractalKind::Fbm)
        };
        Field::Fractal(Fractal::new(noise, params).unwrap())
    }
    fn fill<F: Float>(&self, coords: [&[F]; D], out: &mut [F]) {
        match self {
            Field::Noise(n) => n.fill(coords, out),
            Field::Fractal(f) => f.fill(coords, out),
        }
        .unwrap()
    }
    fn grid<F: Float>(&self, grid: &Grid<F, D>, out: &mut [F]) -> Bounds<F> {
        match self {
            Field::Noise(n) => n.grid(grid, out),
            Field::Fractal(f) => f.grid(grid, out),
        }
        .unwrap()
    }
    fn get<F: Float>(&self, p: [F; D]) -> F {
        match self {
            Field::Noise(n) => n.get(p),
            Field::Fractal(f) => f.get(p),
        }
    }
}

// ---------------------------------------------------------------------------
// One workload's data, built on first use (so a filtered run builds only
// what its rows need)

/// How a row's output must agree with the other rows under the same key.
#[derive(Clone, Copy)]
enum Pair {
    None,
    /// Bit for bit.
    Exact(&'static str),
    /// Within an absolute difference.
    Near(&'static str, f64),
}

struct Ctx<const D: usize> {
    w: Work,
    n: usize,
    field: Field<D>,
    grid32: OnceCell<Grid<f32, D>>,
    grid64: OnceCell<Grid<f64, D>>,
    world32: OnceCell<[Vec<f32>; D]>,
    world64: OnceCell<[Vec<f64>; D]>,
    lattice32: OnceCell<[Vec<f32>; D]>,
    index32: OnceCell<[Vec<f32>; D]>,
    /// Roughness of surflet's f32 output.
    reference: OnceCell<f64>,
    /// The first output seen under each pair key, and its row id.
    firsts: RefCell<HashMap<&'static str, (String, Vec<f64>)>>,
}

/// The flat arrays (x fastest) of the points whose coordinate along every
/// axis is `axis(i)`, `i < side`.
fn expand<F: Copy, const D: usize>(side: usize, axis: impl Fn(usize) -> F) -> [Vec<F>; D] {
    let n = side.pow(D as u32);
    let vals: Vec<F> = (0..side).map(axis).collect();
    core::array::from_fn(|a| {
        let stride = side.pow(a as u32);
        (0..n).map(|i| vals[(i / stride) % side]).collect()
    })
}

fn refs<F, const D: usize>(v: &[Vec<F>; D]) -> [&[F]; D] {
    core::array::from_fn(|a| &v[a][..])
}

impl<const D: usize> Ctx<D> {
    fn new(w: Work) -> Self {
        Ctx {
            w,
            n: w.side.pow(D as u32),
            field: Field::new(&w),
            grid32: OnceCell::new(),
            grid64: OnceCell::new(),
            world32: OnceCell::new(),
            world64: OnceCell::new(),
            lattice32: OnceCell::new(),
            index32: OnceCell::new(),
            reference: OnceCell::new(),
            firsts: RefCell::new(HashMap::new()),
        }
    }
    /// surflet's grid: world coordinates `0 + i·spacing`.
    fn grid32(&self) -> &Grid<f32, D> {
        self.grid32.get_or_init(|| {
            let s = self.w.spacing as f32;
            Grid::uniform([0.0; D], [s; D], [self.w.side; D]).unwrap()
        })
    }
    fn grid64(&self) -> &Grid<f64, D> {
        self.grid64
            .get_or_init(|| Grid::uniform([0.0; D], [self.w.spacing; D], [self.w.side; D]).unwrap())
    }
    /// The grid's points as coordinate arrays (surflet's point-array calls).
    fn world32(&self) -> &[Vec<f32>; D] {
        self.world32.get_or_init(|| {
            let g = self.grid32();
            expand(self.w.side, |i| g.axis(0)[i])
        })
    }
    fn world64(&self) -> &[Vec<f64>; D] {
        self.world64.get_or_init(|| {
            let g = self.grid64();
            expand(self.w.side, |i| g.axis(0)[i])
        })
    }
    /// Lattice coordinates `i·(spacing·freq)` (FastNoise2's position arrays).
    fn lattice32(&self) -> &[Vec<f32>; D] {
        if self.w.freq == 1.0 {
            return self.world32();
        }
        self.lattice32.get_or_init(|| {
            let step = self.w.step() as f32;
            expand(self.w.side, |i| i as f32 * step)
        })
    }
    /// Sample indices `i` (quick-noise's batch path, frequency spacing·freq).
    fn index32(&self) -> &[Vec<f32>; D] {
        if self.w.spacing == 1.0 {
            return self.world32();
        }
        self.index32
            .get_or_init(|| expand(self.w.side, |i| i as f32))
    }
    fn reference(&self) -> f64 {
        *self.reference.get_or_init(|| {
            let mut out = vec![0f32; self.n];
            self.field.fill(refs(self.world32()), &mut out);
            roughness(&out, self.w.side)
        })
    }

    /// Checks one row's first output (see the module documentation).
    fn check<T: Copy + Into<f64>>(&self, id: &str, out: &[T], pair: Pair) {
        assert_eq!(out.len(), self.n, "{id}: wrong number of samples");
        let (lo, hi) = out
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| {
                let v = v.into();
                (l.min(v), h.max(v))
            });
        // Only "varies": simdnoise returns unscaled simplex sums (about ±0.02 in 2D).
        assert!(
            out.iter().all(|&v| v.into().is_finite()) && hi - lo > 1e-3,
            "{id}: output looks wrong (min {lo}, max {hi})"
        );
        let ratio = roughness(out, self.w.side) / self.reference();
        if std::env::var_os("BENCH_VERBOSE").is_some() {
            eprintln!(
                "check {}/{id}: range [{lo:.3}, {hi:.3}], roughness {ratio:.2}× surflet's",
                self.w.name
            );
        }
        assert!(
            (0.5..=2.0).contains(&ratio),
            "{id}: output is {ratio:.2}× as rough as surflet's: not the same frequency?"
        );
        let (key, tol) = match pair {
            Pair::None => return,
            Pair::Exact(k) => (k, 0.0),
            Pair::Near(k, t) => (k, t),
        };
        let mut firsts = self.firsts.borrow_mut();
        match firsts.get(key) {
            None => {
                let v = out.iter().map(|&x| x.into()).collect();
                firsts.insert(key, (id.to_string(), v));
            }
            Some((other, v)) => {
                let diff = out
                    .iter()
                    .zip(v)
                    .map(|(&a, &b)| (a.into() - b).abs())
                    .fold(0f64, f64::max);
                assert!(
                    diff <= tol,
                    "{id} and {other} differ by up to {diff} (allowed {tol})"
                );
            }
        }
    }
}

/// Mean absolute difference of x-neighbours over the mean absolute
/// deviation: proportional to the lattice step at these frequencies, and
/// independent of a library's amplitude scaling.
fn roughness<T: Copy + Into<f64>>(out: &[T], side: usize) -> f64 {
    let n = out.len() as f64;
    let mean = out.iter().map(|&v| v.into()).sum::<f64>() / n;
    let dev = out.iter().map(|&v| (v.into() - mean).abs()).sum::<f64>() / n;
    let (mut sum, mut count) = (0f64, 0usize);
    for row in out.chunks_exact(side) {
        for w in row.windows(2) {
            sum += (w[1].into() - w[0].into()).abs();
            count += 1;
        }
    }
    sum / count as f64 / dev
}

/// One benchmark row: `f` computes the whole workload into its output.
/// The first time criterion runs the row, `f` is run once and its output
/// checked; then it is timed.
fn row<const D: usize, T: Copy + Default + Into<f64>>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    ctx: &Ctx<D>,
    id: &str,
    pair: Pair,
    mut f: impl FnMut(&Ctx<D>, &mut [T]),
) {
    let mut out: Option<Vec<T>> = None;
    g.bench_function(id, |b| {
        let o = out.get_or_insert_with(|| {
            let mut o = vec![T::default(); ctx.n];
            f(ctx, &mut o);
            ctx.check(id, &o, pair);
            o
        });
        b.iter(|| f(ctx, black_box(&mut o[..])))
    });
}

// ---------------------------------------------------------------------------
// The rows

fn bench_work<const D: usize>(c: &mut Criterion, w: Work) {
    let ctx = Ctx::<D>::new(w);
    let mut g = c.benchmark_group(w.name);
    g.throughput(Throughput::Elements(ctx.n as u64));
    // Iterations take 0.05-1000 ms; flat sampling keeps slow rows within budget.
    g.sampling_mode(SamplingMode::Flat);
    surflet_rows(&mut g, &ctx);
    fastnoise2_rows(&mut g, &ctx);
    if D == 2 || D == 3 {
        match w.kind {
            NoiseKind::Simplex => quick_noise_batch_rows::<D, quick_noise::Simplex>(&mut g, &ctx),
            NoiseKind::Perlin => {
                quick_noise_batch_rows::<D, quick_noise::Perlin>(&mut g, &ctx);
                quick_noise_grid_row::<D, quick_noise::Perlin>(&mut g, &ctx);
            }
            NoiseKind::Value => {
                quick_noise_batch_rows::<D, quick_noise::Value>(&mut g, &ctx);
                quick_noise_grid_row::<D, quick_noise::Value>(&mut g, &ctx);
            }
            NoiseKind::Cellular => {
                quick_noise_batch_rows::<D, quick_noise::Cellular>(&mut g, &ctx);
                // quick-noise has a cellular grid path in 2D only.
                if D == 2 {
                    quick_noise_grid_row_with(&mut g, &ctx, |side, o, oct, f| {
                        qn_grid_2d::<quick_noise::Cellular>(side, o, oct, f)
                    });
                }
            }
            // quick-noise has no OpenSimplex2 or OpenSimplex2S.
            NoiseKind::OpenSimplex2 | NoiseKind::OpenSimplex2S => {}
            // No workload measures these (no peer has them).
            NoiseKind::SimplexValue | NoiseKind::ValueCubic => unreachable!(),
        }
    }
    let simd_kind = matches!(w.kind, NoiseKind::Simplex | NoiseKind::Cellular);
    if simd_kind && !(w.is_fbm() && D == 4) {
        simdnoise_row(&mut g, &ctx);
    }
    if !w.is_fbm() {
        scalar_peer_rows(&mut g, &ctx);
    }
    g.finish();
}

fn surflet_rows<const D: usize>(g: &mut BenchmarkGroup<'_, WallTime>, ctx: &Ctx<D>) {
    let auto = format!("auto={}", Isa::detect().name());
    let same32 = Pair::Exact("surflet f32");
    let same64 = Pair::Exact("surflet f64");
    row(
        g,
        ctx,
        &format!("surflet/fill/f32/{auto}"),
        same32,
        |c, o: &mut [f32]| c.field.fill(refs(c.world32()), o),
    );
    row(
        g,
        ctx,
        &format!("surflet/grid/f32/{auto}"),
        same32,
        |c, o: &mut [f32]| {
            black_box(c.field.grid(c.grid32(), o));
        },
    );
    let id = format!("surflet/grid, {THREADS} threads/f32/{auto}");
    row(g, ctx, &id, same32, |c, o: &mut [f32]| {
        let (field, grid) = (&c.field, c.grid32());
        black_box(pool().install(|| field.grid(grid, o)));
    });
    row(
        g,
        ctx,
        &format!("surflet/fill/f64/{auto}"),
        same64,
        |c, o: &mut [f64]| c.field.fill(refs(c.world64()), o),
    );
    row(
        g,
        ctx,
        &format!("surflet/grid/f64/{auto}"),
        same64,
        |c, o: &mut [f64]| {
            black_box(c.field.grid(c.grid64(), o));
        },
    );
    // Single points (issue 11's target: no slower than fastnoise-lite's
    // per-point call in 2D and 3D simplex). Points computed on the fly, as
    // `i as f32 * spacing`: exactly the grid's points.
    if ctx.w.kind == NoiseKind::Simplex && !ctx.w.is_fbm() && D <= 3 {
        let s = ctx.w.spacing as f32;
        row(
            g,
            ctx,
            "surflet/get loop (single point)/f32/scalar",
            same32,
            |c, o: &mut [f32]| for_each_point::<D>(c.w.side, s, |i, p| o[i] = c.field.get(p)),
        );
    }
}

/// Runs `f(index, point)` over every grid point in order (x fastest),
/// computing the point (grid index times `scale`) on the fly: the per-point
/// loop a user of a scalar library writes.
#[inline(always)]
fn for_each_point<const D: usize>(side: usize, scale: f32, mut f: impl FnMut(usize, [f32; D])) {
    let n = side.pow(D as u32);
    let mut idx = [0usize; D];
    for i in 0..n {
        f(i, core::array::from_fn(|a| idx[a] as f32 * scale));
        for k in idx.iter_mut() {
            *k += 1;
            if *k < side {
                break;
            }
            *k = 0;
        }
    }
}

/// Same, in f64 (for the f64 libraries: noise-rs, libnoise, opensimplex2).
#[inline(always)]
fn for_each_point64<const D: usize>(side: usize, scale: f64, mut f: impl FnMut(usize, [f64; D])) {
    let n = side.pow(D as u32);
    let mut idx = [0usize; D];
    for i in 0..n {
        f(i, core::array::from_fn(|a| idx[a] as f64 * scale));
        for k in idx.iter_mut() {
            *k += 1;
            if *k < side {
                break;
            }
            *k = 0;
        }
    }
}

// ---------------------------------------------------------------------------
// FastNoise2 (C++), through the `fastnoise2` crate's safe node

/// FastSIMD level flags (FastNoise2 0.10 `FastSIMD::eLevel`).
const FN2_LEVELS: [(u32, &str); 3] = [(1 << 2, "sse2"), (1 << 8, "avx2"), (1 << 9, "avx512")];

/// The node: the generator, or its FractalFBm (gain, weighted strength 0,
/// octaves, lacunarity; normalised by its fractal bounding, like surflet's
/// and quick-noise's fBm).
fn fn2_node(kind: NoiseKind, octaves: u32) -> fastnoise2::SafeNode {
    use fastnoise2::generator::{Generator, prelude::*};
    macro_rules! node {
        ($g:expr) => {
            if octaves == 0 {
                $g.build().0
            } else {
                $g.fbm(GAIN as f32, 0.0f32, octaves as i32, LACUNARITY as f32)
                    .build()
                    .0
            }
        };
    }
    match kind {
        NoiseKind::Simplex => node!(simplex()),
        NoiseKind::Perlin => node!(perlin()),
        NoiseKind::Value => node!(value()),
        NoiseKind::OpenSimplex2 => node!(opensimplex2()),
        NoiseKind::OpenSimplex2S => node!(opensimplex2s()),
        // `CellularDistance`: jitter modifier 1, euclidean distance, return
        // type Index0 (the distance of the nearest point, index 0; index 1
        // is unused by Index0).
        NoiseKind::Cellular => node!(cellular_distance(
            JITTER as f32,
            fastnoise2::generator::DistanceFunction::Euclidean,
            0,
            1,
            fastnoise2::generator::cellular::CellularDistanceReturnType::Index0,
        )),
        NoiseKind::SimplexValue | NoiseKind::ValueCubic => {
            unreachable!("no workload measures simplex value or cubic value noise")
        }
    }
}

fn fastnoise2_rows<const D: usize>(g: &mut BenchmarkGroup<'_, WallTime>, ctx: &Ctx<D>) {
    let node = fn2_node(ctx.w.kind, ctx.w.octaves);
    let level = node.get_simd_level();
    let best = FN2_LEVELS
        .iter()
        .find(|x| x.0 == level)
        .map_or("other", |x| x.1);
    let s = ctx.w.side as i32;
    let (f, seed) = (ctx.w.step() as f32, SEED as i32);
    // Same points both ways: the grid and the position arrays must agree.
    let same = Pair::Near("FastNoise2", 1e-3);
    let id = format!("FastNoise2/GenUniformGrid{D}D/f32/auto={best}");
    row(g, ctx, &id, same, |_, o: &mut [f32]| match D {
        2 => drop(node.gen_uniform_grid_2d(o, 0, 0, s, s, f, seed)),
        3 => drop(node.gen_uniform_grid_3d(o, 0, 0, 0, s, s, s, f, seed)),
        4 => drop(node.gen_uniform_grid_4d(o, 0, 0, 0, 0, s, s, s, s, f, seed)),
        _ => unreachable!(),
    });
    let id = format!("FastNoise2/GenPositionArray{D}D/f32/auto={best}");
    row(g, ctx, &id, same, |c, o: &mut [f32]| {
        let p = refs(c.lattice32());
        match D {
            2 => drop(node.gen_position_array_2d(o, p[0], p[1], 0.0, 0.0, seed)),
            3 => drop(node.gen_position_array_3d(o, p[0], p[1], p[2], 0.0, 0.0, 0.0, seed)),
            4 => drop(
                node.gen_position_array_4d(o, p[0], p[1], p[2], p[3], 0.0, 0.0, 0.0, 0.0, seed),
            ),
            _ => unreachable!(),
        }
    });
}

// ---------------------------------------------------------------------------
// quick-noise, through its documented runtime dispatch: `#[dispatch_simd(A)]`
// compiles the body for AVX-512+FMA, AVX2+FMA, SSE4.2 and scalar and picks
// the best the CPU has, once per call (README, "Dynamic Dispatch" and
// "Loading Simd"). Its fBm (`Fbm` combiner) with 1 octave is the plain noise;
// normalisation is on (its default).

fn qn_arch() -> &'static str {
    use quick_noise::simd::{Architecture, DETECTED_ARCH};
    match *DETECTED_ARCH {
        Architecture::Avx512 => "avx512",
        Architecture::Avx2 => "avx2",
        Architecture::Sse => "sse4.2",
        Architecture::Scalar128 => "scalar",
    }
}

#[dispatch_simd(A)]
fn qn_batch_2d<G: BatchGenerator<2>>(x: &[f32], y: &[f32], out: &mut [f32], oct: usize, f: f32) {
    BatchNoise::<2, Fbm, G>::builder(x.simd_iter::<A>(), y.simd_iter::<A>())
        .seed_with_grid(QN_GRID_SEED, QN_NOISE_SEED)
        .octaves(oct)
        .frequency(f)
        .lacunarity(LACUNARITY as f32)
        .persistence(GAIN as f32)
        .fill(out);
}

#[dispatch_simd(A)]
fn qn_batch_3d<G: BatchGenerator<3>>(
    x: &[f32],
    y: &[f32],
    z: &[f32],
    out: &mut [f32],
    oct: usize,
    f: f32,
) {
    BatchNoise::<3, Fbm, G>::builder(x.simd_iter::<A>(), y.simd_iter::<A>(), z.simd_iter::<A>())
        .seed_with_grid(QN_GRID_SEED, QN_NOISE_SEED)
        .octaves(oct)
        .frequency(f)
        .lacunarity(LACUNARITY as f32)
        .persistence(GAIN as f32)
        .fill(out);
}

/// The batch path fed by quick-noise's own grid iterators (`Grid::x_iter()`
/// etc.: the sample indices, made in registers; its README's dispatch
/// example), instead of coordinate slices.
#[dispatch_simd(A)]
fn qn_batch_iter_2d<G: BatchGenerator<2>>(side: usize, out: &mut [f32], oct: usize, f: f32) {
    let grid = quick_noise::Grid::<2, A>::new(side, side);
    BatchNoise::<2, Fbm, G>::builder(grid.x_iter(), grid.y_iter())
        .seed_with_grid(QN_GRID_SEED, QN_NOISE_SEED)
        .octaves(oct)
        .frequency(f)
        .lacunarity(LACUNARITY as f32)
        .persistence(GAIN as f32)
        .fill(out);
}

#[dispatch_simd(A)]
fn qn_batch_iter_3d<G: BatchGenerator<3>>(side: usize, out: &mut [f32], oct: usize, f: f32) {
    let grid = quick_noise::Grid::<3, A>::new(side, side, side);
    BatchNoise::<3, Fbm, G>::builder(grid.x_iter(), grid.y_iter(), grid.z_iter())
        .seed_with_grid(QN_GRID_SEED, QN_NOISE_SEED)
        .octaves(oct)
        .frequency(f)
        .lacunarity(LACUNARITY as f32)
        .persistence(GAIN as f32)
        .fill(out);
}

#[dispatch_simd(A)]
fn qn_grid_2d<G: GridGenerator<2>>(side: usize, out: &mut [f32], oct: usize, f: f32) {
    quick_noise::Grid::<2, A>::new(side, side)
        .seed(QN_GRID_SEED)
        .builder::<Fbm, G>()
        .seed(QN_NOISE_SEED)
        .octaves(oct)
        .frequency(f)
        .lacunarity(LACUNARITY as f32)
        .persistence(GAIN as f32)
        .fill(out);
}

#[dispatch_simd(A)]
fn qn_grid_3d<G: GridGenerator<3>>(side: usize, out: &mut [f32], oct: usize, f: f32) {
    quick_noise::Grid::<3, A>::new(side, side, side)
        .seed(QN_GRID_SEED)
        .builder::<Fbm, G>()
        .seed(QN_NOISE_SEED)
        .octaves(oct)
        .frequency(f)
        .lacunarity(LACUNARITY as f32)
        .persistence(GAIN as f32)
        .fill(out);
}

/// quick-noise's batch rows (slices and its grid iterators give the same
/// inputs) must agree bit for bit. Its grid path computes the same field as
/// its batch path in 2D (up to rounding), given the same seeds
/// (`seed_with_grid`) and inputs; its 3D grid path computes another field
/// (differences up to 0.2 in value and 1.0 in Perlin noise, also with its
/// own `Grid::x_iter()` coordinates), so in 3D only the roughness check
/// applies to it.
const QN_BATCH: Pair = Pair::Exact("quick-noise");
fn qn_grid_pair<const D: usize>() -> Pair {
    if D == 2 {
        Pair::Near("quick-noise", 1e-3)
    } else {
        Pair::None
    }
}

/// quick-noise's batch path, twice: fed from coordinate slices (point
/// arrays, like surflet's `fill` and FastNoise2's `GenPositionArray`;
/// README, "Loading Simd") and from its grid iterators.
fn quick_noise_batch_rows<const D: usize, G: BatchGenerator<2> + BatchGenerator<3>>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    ctx: &Ctx<D>,
) {
    let (oct, f, side) = (
        ctx.w.octaves.max(1) as usize,
        ctx.w.step() as f32,
        ctx.w.side,
    );
    let id = format!(
        "quick-noise/BatchNoise (point arrays)/f32/auto={}",
        qn_arch()
    );
    row(g, ctx, &id, QN_BATCH, |c, o: &mut [f32]| {
        let p = refs(c.index32());
        match D {
            2 => qn_batch_2d::<G>(p[0], p[1], o, oct, f),
            3 => qn_batch_3d::<G>(p[0], p[1], p[2], o, oct, f),
            _ => unreachable!(),
        }
    });
    let id = format!(
        "quick-noise/BatchNoise (Grid::x_iter coordinates)/f32/auto={}",
        qn_arch()
    );
    row(g, ctx, &id, QN_BATCH, |_, o: &mut [f32]| match D {
        2 => qn_batch_iter_2d::<G>(side, o, oct, f),
        3 => qn_batch_iter_3d::<G>(side, o, oct, f),
        _ => unreachable!(),
    });
}

fn quick_noise_grid_row<const D: usize, G: GridGenerator<2> + GridGenerator<3>>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    ctx: &Ctx<D>,
) {
    quick_noise_grid_row_with(g, ctx, |side, o, oct, f| match D {
        2 => qn_grid_2d::<G>(side, o, oct, f),
        3 => qn_grid_3d::<G>(side, o, oct, f),
        _ => unreachable!(),
    });
}

/// quick-noise's grid row, given its dispatched fill (`qn_grid_2d` or
/// `qn_grid_3d`; `(side, out, octaves, frequency)`).
fn quick_noise_grid_row_with<const D: usize>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    ctx: &Ctx<D>,
    fill: impl Fn(usize, &mut [f32], usize, f32),
) {
    let (oct, f, side) = (
        ctx.w.octaves.max(1) as usize,
        ctx.w.step() as f32,
        ctx.w.side,
    );
    let id = format!(
        "quick-noise/Grid builder (uniform grid)/f32/auto={}",
        qn_arch()
    );
    row(g, ctx, &id, qn_grid_pair::<D>(), |_, o: &mut [f32]| {
        fill(side, o, oct, f)
    });
}

// ---------------------------------------------------------------------------
// simdnoise: its grid builder (returns a new Vec and the min/max; AVX2 is its
// widest path). Simplex ("gradient"; its fBm is of simplex noise) and, plain,
// cellular noise (see the module documentation: it returns f1², and its 3D
// search is broken).

fn simdnoise_row<const D: usize>(g: &mut BenchmarkGroup<'_, WallTime>, ctx: &Ctx<D>) {
    use simdnoise::{CellDistanceFunction, CellReturnType, NoiseBuilder};
    let (s, f, seed) = (ctx.w.side, ctx.w.step() as f32, SEED as i32);
    let (oct, gain, lac) = (ctx.w.octaves as u8, GAIN as f32, LACUNARITY as f32);
    let cellular = ctx.w.kind == NoiseKind::Cellular;
    assert!(
        !(cellular && ctx.w.is_fbm()),
        "no simdnoise row for fBm of cellular noise"
    );
    let run = || match (D, ctx.w.is_fbm()) {
        (2, false) if cellular => NoiseBuilder::cellular_2d(s, s)
            .with_freq(f)
            .with_seed(seed)
            .with_distance_function(CellDistanceFunction::Euclidean)
            .with_return_type(CellReturnType::Distance)
            .with_jitter(FNL_JITTER_2D * JITTER as f32)
            .generate(),
        (3, false) if cellular => NoiseBuilder::cellular_3d(s, s, s)
            .with_freq(f)
            .with_seed(seed)
            .with_distance_function(CellDistanceFunction::Euclidean)
            .with_return_type(CellReturnType::Distance)
            .with_jitter(FNL_JITTER_3D * JITTER as f32)
            .generate(),
        (2, false) => NoiseBuilder::gradient_2d(s, s)
            .with_freq(f)
            .with_seed(seed)
            .generate(),
        (3, false) => NoiseBuilder::gradient_3d(s, s, s)
            .with_freq(f)
            .with_seed(seed)
            .generate(),
        (4, false) => NoiseBuilder::gradient_4d(s, s, s, s)
            .with_freq(f)
            .with_seed(seed)
            .generate(),
        (2, true) => NoiseBuilder::fbm_2d(s, s)
            .with_freq(f)
            .with_seed(seed)
            .with_octaves(oct)
            .with_gain(gain)
            .with_lacunarity(lac)
            .generate(),
        (3, true) => NoiseBuilder::fbm_3d(s, s, s)
            .with_freq(f)
            .with_seed(seed)
            .with_octaves(oct)
            .with_gain(gain)
            .with_lacunarity(lac)
            .generate(),
        _ => unreachable!(),
    };
    let isa = if std::is_x86_feature_detected!("avx2") {
        "auto=avx2"
    } else {
        "auto"
    };
    let call = match (cellular, ctx.w.is_fbm()) {
        (true, _) => "cellular",
        (false, true) => "fbm",
        (false, false) => "gradient",
    };
    let id = format!("simdnoise/NoiseBuilder::{call}_{D}d (grid, allocates)/f32/{isa}");
    let mut checked = false;
    g.bench_function(&id, |b| {
        if !checked {
            ctx.check(&id, &run().0, Pair::None);
            checked = true;
        }
        b.iter(|| black_box(run()))
    });
}

// ---------------------------------------------------------------------------
// The scalar Rust peers (plain noise only, as in the earlier harness)

/// FastNoise Lite (Rust port, f32): per point; it applies the frequency
/// itself, so it is given the integer grid coordinates. `setup` sets the
/// options of the noise type (3D rotation, cellular settings).
fn fastnoise_lite_row<const D: usize>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    ctx: &Ctx<D>,
    ty: NoiseType,
    label: &str,
    setup: impl FnOnce(&mut FastNoiseLite),
) {
    let mut fnl = FastNoiseLite::with_seed(SEED as i32);
    fnl.set_noise_type(Some(ty));
    fnl.set_frequency(Some(ctx.w.step() as f32));
    setup(&mut fnl);
    let id = format!("fastnoise-lite/{label} get_noise_{D}d loop/f32/scalar");
    row(g, ctx, &id, Pair::None, |c, o: &mut [f32]| {
        for_each_point::<D>(c.w.side, 1.0, |i, p| {
            o[i] = match D {
                2 => fnl.get_noise_2d(p[0], p[1]),
                3 => fnl.get_noise_3d(p[0], p[1], p[2]),
                _ => unreachable!(),
            }
        })
    });
}

/// A per-point f64 library (noise-rs, libnoise, opensimplex2).
fn loop64_row<const D: usize>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    ctx: &Ctx<D>,
    id: &str,
    f: impl Fn([f64; D]) -> f64,
) {
    loop64_row_scaled(g, ctx, id, 1.0, f)
}

/// Same, the coordinates `i·(s·f)` multiplied by `scale` (a library whose
/// lattice is `scale` times coarser).
fn loop64_row_scaled<const D: usize>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    ctx: &Ctx<D>,
    id: &str,
    scale: f64,
    f: impl Fn([f64; D]) -> f64,
) {
    let step = ctx.w.step() * scale;
    row(g, ctx, id, Pair::None, |c, o: &mut [f64]| {
        for_each_point64::<D>(c.w.side, step, |i, p| o[i] = f(p))
    });
}

/// `p` as a fixed-size array (the f64 peers implement each dimension
/// separately).
#[inline(always)]
fn pt<const N: usize>(p: &[f64]) -> [f64; N] {
    core::array::from_fn(|i| p[i])
}

/// The noise-rs row (`noise::$nr`) and the libnoise row
/// (`libnoise::Source::$ln`) of a noise, one generator type per dimension.
macro_rules! f64_peers {
    ($g:expr, $ctx:expr, $nr:ident, $nr_id:literal, $ln:ident, $ln_id:literal) => {{
        let seed = SEED;
        let nr = noise::$nr::new(seed);
        match D {
            2 => loop64_row($g, $ctx, $nr_id, |p| nr.get(pt::<2>(&p))),
            3 => loop64_row($g, $ctx, $nr_id, |p| nr.get(pt::<3>(&p))),
            4 => loop64_row($g, $ctx, $nr_id, |p| nr.get(pt::<4>(&p))),
            _ => unreachable!(),
        }
        match D {
            2 => {
                let ln = libnoise::Source::<2>::$ln(seed as u64);
                loop64_row($g, $ctx, $ln_id, |p| ln.sample(pt::<2>(&p)))
            }
            3 => {
                let ln = libnoise::Source::<3>::$ln(seed as u64);
                loop64_row($g, $ctx, $ln_id, |p| ln.sample(pt::<3>(&p)))
            }
            4 => {
                let ln = libnoise::Source::<4>::$ln(seed as u64);
                loop64_row($g, $ctx, $ln_id, |p| ln.sample(pt::<4>(&p)))
            }
            _ => unreachable!(),
        }
    }};
}

/// The scalar peers' rows for `ctx`'s noise, fastnoise-lite first.
fn scalar_peer_rows<const D: usize>(g: &mut BenchmarkGroup<'_, WallTime>, ctx: &Ctx<D>) {
    match ctx.w.kind {
        NoiseKind::Simplex => simplex_peer_rows(g, ctx),
        NoiseKind::Perlin => {
            fastnoise_lite_row(g, ctx, NoiseType::Perlin, "Perlin", |_| {});
            f64_peers!(
                g,
                ctx,
                Perlin,
                "noise-rs/Perlin get loop/f64/scalar",
                improved_perlin,
                "libnoise/ImprovedPerlin sample loop/f64/scalar"
            );
        }
        NoiseKind::Value => {
            fastnoise_lite_row(g, ctx, NoiseType::Value, "Value", |_| {});
            f64_peers!(
                g,
                ctx,
                Value,
                "noise-rs/Value get loop/f64/scalar",
                value,
                "libnoise/Value sample loop/f64/scalar"
            );
        }
        NoiseKind::OpenSimplex2 | NoiseKind::OpenSimplex2S => opensimplex2_peer_rows(g, ctx),
        NoiseKind::Cellular => cellular_peer_rows(g, ctx),
        NoiseKind::SimplexValue | NoiseKind::ValueCubic => unreachable!(),
    }
}

/// Simplex noise's peers: fastnoise-lite's OpenSimplex2 (up to 3D),
/// noise-rs, libnoise and the opensimplex2 crate.
fn simplex_peer_rows<const D: usize>(g: &mut BenchmarkGroup<'_, WallTime>, ctx: &Ctx<D>) {
    if D <= 3 {
        fastnoise_lite_row(g, ctx, NoiseType::OpenSimplex2, "OpenSimplex2", |_| {});
    }
    f64_peers!(
        g,
        ctx,
        Simplex,
        "noise-rs/Simplex get loop/f64/scalar",
        simplex,
        "libnoise/Simplex sample loop/f64/scalar"
    );
    let s = SEED as i64;
    match D {
        2 => loop64_row(
            g,
            ctx,
            "opensimplex2/fast::noise2 loop/f64 in, f32 out/scalar",
            |p| opensimplex2::fast::noise2(s, p[0], p[1]) as f64,
        ),
        3 => loop64_row(
            g,
            ctx,
            "opensimplex2/fast::noise3_Fallback loop/f64 in, f32 out/scalar",
            |p| opensimplex2::fast::noise3_Fallback(s, p[0], p[1], p[2]) as f64,
        ),
        4 => loop64_row(
            g,
            ctx,
            "opensimplex2/fast::noise4_Fallback loop/f64 in, f32 out/scalar",
            |p| opensimplex2::fast::noise4_Fallback(s, p[0], p[1], p[2], p[3]) as f64,
        ),
        _ => unreachable!(),
    }
}

/// OpenSimplex2 and 2S's peers, in 2D and 3D: fastnoise-lite, the
/// opensimplex2 crate (the Java's port) and noise-rs's nearest relatives.
fn opensimplex2_peer_rows<const D: usize>(g: &mut BenchmarkGroup<'_, WallTime>, ctx: &Ctx<D>) {
    let seed = SEED;
    assert!(D == 2 || D == 3, "the OpenSimplex2 peers run in 2D and 3D");
    let smooth = ctx.w.kind == NoiseKind::OpenSimplex2S;
    // fastnoise-lite in 3D: surflet's orientation (z up the main
    // lattice diagonal, the Java's ImproveXY).
    let (ty, label) = if smooth {
        (NoiseType::OpenSimplex2S, "OpenSimplex2S")
    } else {
        (NoiseType::OpenSimplex2, "OpenSimplex2")
    };
    fastnoise_lite_row(g, ctx, ty, label, |fnl| {
        fnl.set_rotation_type_3d(Some(RotationType3D::ImproveXYPlanes))
    });
    // The Java's port: 2D standard orientation, 3D ImproveXY.
    let s = seed as i64;
    match (D, smooth) {
        (2, false) => loop64_row(
            g,
            ctx,
            "opensimplex2/fast::noise2 loop/f64 in, f32 out/scalar",
            |p| opensimplex2::fast::noise2(s, p[0], p[1]) as f64,
        ),
        (3, false) => loop64_row(
            g,
            ctx,
            "opensimplex2/fast::noise3_ImproveXY loop/f64 in, f32 out/scalar",
            |p| opensimplex2::fast::noise3_ImproveXY(s, p[0], p[1], p[2]) as f64,
        ),
        (2, true) => loop64_row(
            g,
            ctx,
            "opensimplex2/smooth::noise2 loop/f64 in, f32 out/scalar",
            |p| opensimplex2::smooth::noise2(s, p[0], p[1]) as f64,
        ),
        (3, true) => loop64_row(
            g,
            ctx,
            "opensimplex2/smooth::noise3_ImproveXY loop/f64 in, f32 out/scalar",
            |p| opensimplex2::smooth::noise3_ImproveXY(s, p[0], p[1], p[2]) as f64,
        ),
        _ => unreachable!(),
    }
    // noise-rs: SuperSimplex (OpenSimplex2S's predecessor, same
    // lattice scale) for OpenSimplex2S; the original OpenSimplex,
    // its coordinates scaled to the same lattice-point density
    // (√3 in 2D, ∛4 in 3D), for OpenSimplex2.
    if smooth {
        let nr = noise::SuperSimplex::new(seed);
        let id = "noise-rs/SuperSimplex get loop/f64/scalar";
        match D {
            2 => loop64_row(g, ctx, id, |p| nr.get(pt::<2>(&p))),
            3 => loop64_row(g, ctx, id, |p| nr.get(pt::<3>(&p))),
            _ => unreachable!(),
        }
    } else {
        let nr = noise::OpenSimplex::new(seed);
        let id = "noise-rs/OpenSimplex (2014, not OpenSimplex2) get loop/f64/scalar";
        match D {
            2 => loop64_row_scaled(g, ctx, id, 3f64.sqrt(), |p| nr.get(pt::<2>(&p))),
            3 => loop64_row_scaled(g, ctx, id, 4f64.cbrt(), |p| nr.get(pt::<3>(&p))),
            _ => unreachable!(),
        }
    }
}

/// Cellular noise's peers, in 2D and 3D, all returning the euclidean
/// distance to the nearest point: fastnoise-lite, noise-rs and libnoise.
fn cellular_peer_rows<const D: usize>(g: &mut BenchmarkGroup<'_, WallTime>, ctx: &Ctx<D>) {
    use fastnoise_lite::{CellularDistanceFunction, CellularReturnType};
    let seed = SEED;
    assert!(D == 2 || D == 3, "the cellular peers run in 2D and 3D");
    fastnoise_lite_row(g, ctx, NoiseType::Cellular, "Cellular", |fnl| {
        fnl.set_cellular_distance_function(Some(CellularDistanceFunction::Euclidean));
        fnl.set_cellular_return_type(Some(CellularReturnType::Distance));
        fnl.set_cellular_jitter(Some(JITTER as f32));
    });
    // noise-rs: euclidean distance (its default; set for clarity),
    // distance returned (its default is the cell value), frequency 1.
    let nr = noise::Worley::new(seed)
        .set_distance_function(noise::core::worley::distance_functions::euclidean)
        .set_return_type(noise::core::worley::ReturnType::Distance)
        .set_frequency(1.0);
    let id = "noise-rs/Worley get loop/f64/scalar";
    match D {
        2 => loop64_row(g, ctx, id, |p| nr.get(pt::<2>(&p))),
        3 => loop64_row(g, ctx, id, |p| nr.get(pt::<3>(&p))),
        _ => unreachable!(),
    }
    let id = "libnoise/Worley sample loop/f64/scalar";
    match D {
        2 => {
            let ln = libnoise::Source::<2>::worley(seed as u64);
            loop64_row(g, ctx, id, |p| ln.sample(pt::<2>(&p)))
        }
        3 => {
            let ln = libnoise::Source::<3>::worley(seed as u64);
            loop64_row(g, ctx, id, |p| ln.sample(pt::<3>(&p)))
        }
        _ => unreachable!(),
    }
}
