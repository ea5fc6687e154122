//! surflet against its peers, side by side, in one criterion run.
//!
//! Every group is one workload: the same points (a uniform grid at frequency
//! 0.02), the same dimension, the same noise kind. Each row is one library's
//! documented way of doing that workload:
//!
//! * batch APIs (surflet `fill`, FastNoise2 `GenUniformGrid`/`GenPositionArray`,
//!   simdnoise's `NoiseBuilder`) are called once for the whole grid;
//! * libraries without a batch API are called once per point in a loop that
//!   writes into a preallocated buffer, exactly as a user would;
//! * surflet's single-point `get` is measured the same way, for reference.
//!
//! Benchmark ids are `library/method/precision/isa`; `run.sh` turns them into
//! the table in BENCHMARKS.md. Criterion is told the number of points, so its
//! own report shows points/s too.
//!
//! Output buffers are allocated once, outside the timed loop, except for
//! simdnoise, whose API returns a fresh `Vec` (that allocation is part of its
//! documented path and is timed).

use std::ffi::{CStr, c_void};
use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkGroup, Criterion, SamplingMode, Throughput, measurement::WallTime};
use fastnoise_lite::{FastNoiseLite, NoiseType};
use libnoise::Generator as _;
use noise::NoiseFn;
use surflet::{Isa, Noise, NoiseKind};

/// Grid frequency for every workload: lattice cells per grid step.
const FREQ: f64 = 0.02;
/// Seed for every library (each maps it to its own lattice; only speed matters).
const SEED: u32 = 1337;

// ---------------------------------------------------------------------------
// The points

/// The points of a `side^D` grid, x fastest (the order every grid API here
/// writes), already multiplied by the frequency, in f32 and f64.
struct Grid<const D: usize> {
    side: usize,
    f32: [Vec<f32>; D],
    f64: [Vec<f64>; D],
}

impl<const D: usize> Grid<D> {
    fn new(side: usize) -> Self {
        let n = side.pow(D as u32);
        // f32 coordinates are computed as FastNoise2's grid does: index * freq in f32.
        let f32 = core::array::from_fn(|a| {
            (0..n)
                .map(|i| ((i / side.pow(a as u32)) % side) as f32 * FREQ as f32)
                .collect()
        });
        let f64 = core::array::from_fn(|a| {
            (0..n)
                .map(|i| ((i / side.pow(a as u32)) % side) as f64 * FREQ)
                .collect()
        });
        Grid { side, f32, f64 }
    }
    fn len(&self) -> usize {
        self.f32[0].len()
    }
    fn refs32(&self) -> [&[f32]; D] {
        core::array::from_fn(|a| &self.f32[a][..])
    }
    fn refs64(&self) -> [&[f64]; D] {
        core::array::from_fn(|a| &self.f64[a][..])
    }
}

/// Runs `f(index, point)` over every grid point in order, computing the point
/// (grid index times `scale`) on the fly: the per-point loop a user of a
/// scalar library writes.
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
fn for_each_point64<const D: usize>(side: usize, mut f: impl FnMut(usize, [f64; D])) {
    let n = side.pow(D as u32);
    let mut idx = [0usize; D];
    for i in 0..n {
        f(i, core::array::from_fn(|a| idx[a] as f64 * FREQ));
        for k in idx.iter_mut() {
            *k += 1;
            if *k < side {
                break;
            }
            *k = 0;
        }
    }
}

/// Guards against benchmarking a no-op: the output must vary and be finite.
/// (Only "varies": simdnoise returns unscaled simplex sums, about ±0.02 in 2D.)
fn check<T: Copy + Into<f64>>(what: &str, out: &[T]) {
    let (lo, hi) = out
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| {
            let v = v.into();
            (l.min(v), h.max(v))
        });
    assert!(
        out.iter().all(|&v| v.into().is_finite()) && hi - lo > 1e-3,
        "{what}: output looks wrong (min {lo}, max {hi})"
    );
}

/// One benchmark row: `f` computes the whole workload into `out`. It is run
/// and checked once first (so a filtered run still checks what it measures),
/// then timed.
fn row<T: Copy + Default + Into<f64>>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    id: &str,
    out: &mut [T],
    mut f: impl FnMut(&mut [T]),
) {
    out.fill(T::default());
    f(out);
    check(id, out);
    g.bench_function(id, |b| b.iter(|| f(black_box(&mut *out))));
}

// ---------------------------------------------------------------------------
// FastNoise2 (C++), through fastnoise2-sys, so the SIMD level can be capped.

/// FastSIMD level flags (FastNoise2 0.10 `FastSIMD::eLevel`).
const FN2_LEVELS: [(u32, &str); 3] = [(1 << 2, "sse2"), (1 << 8, "avx2"), (1 << 9, "avx512")];

struct Fn2 {
    node: *mut c_void,
}

impl Fn2 {
    /// A FastNoise2 generator node by metadata name ("Simplex", "Perlin",
    /// "Value"), with its SIMD level capped at `level` (0: the best the CPU has,
    /// which is what the `fastnoise2` crate's `SafeNode` uses).
    fn new(name: &str, level: u32) -> Fn2 {
        // SAFETY: metadata ids are 0..count; names are static C strings.
        unsafe {
            let id = (0..fastnoise2_sys::fnGetMetadataCount())
                .find(|&id| {
                    CStr::from_ptr(fastnoise2_sys::fnGetMetadataName(id))
                        .to_str()
                        .is_ok_and(|n| n.eq_ignore_ascii_case(name))
                })
                .unwrap_or_else(|| panic!("FastNoise2 has no node {name}"));
            let node = fastnoise2_sys::fnNewFromMetadata(id, level);
            assert!(!node.is_null());
            Fn2 { node }
        }
    }
    fn level(&self) -> u32 {
        // SAFETY: a live node.
        unsafe { fastnoise2_sys::fnGetSIMDLevel(self.node) }
    }
    fn level_name(&self) -> &'static str {
        let l = self.level();
        FN2_LEVELS
            .iter()
            .find(|x| x.0 == l)
            .map_or("other", |x| x.1)
    }
    fn grid<const D: usize>(&self, out: &mut [f32], side: usize) {
        let s = side as i32;
        let f = FREQ as f32;
        let seed = SEED as i32;
        let mut mm = [0f32; 2];
        assert_eq!(out.len(), side.pow(D as u32));
        let o = out.as_mut_ptr();
        let mm = mm.as_mut_ptr();
        // SAFETY: `out` holds side^D floats, as the call writes.
        unsafe {
            match D {
                2 => fastnoise2_sys::fnGenUniformGrid2D(self.node, o, 0, 0, s, s, f, seed, mm),
                3 => {
                    fastnoise2_sys::fnGenUniformGrid3D(self.node, o, 0, 0, 0, s, s, s, f, seed, mm)
                }
                4 => fastnoise2_sys::fnGenUniformGrid4D(
                    self.node, o, 0, 0, 0, 0, s, s, s, s, f, seed, mm,
                ),
                _ => unreachable!(),
            }
        }
    }
    fn positions<const D: usize>(&self, out: &mut [f32], p: [&[f32]; D]) {
        let n = out.len();
        assert!(p.iter().all(|a| a.len() == n));
        let o = out.as_mut_ptr();
        let c = n as i32;
        let seed = SEED as i32;
        let mut mm = [0f32; 2];
        let mm = mm.as_mut_ptr();
        // SAFETY: every array holds `n` floats.
        unsafe {
            match D {
                2 => fastnoise2_sys::fnGenPositionArray2D(
                    self.node,
                    o,
                    c,
                    p[0].as_ptr(),
                    p[1].as_ptr(),
                    0.0,
                    0.0,
                    seed,
                    mm,
                ),
                3 => fastnoise2_sys::fnGenPositionArray3D(
                    self.node,
                    o,
                    c,
                    p[0].as_ptr(),
                    p[1].as_ptr(),
                    p[2].as_ptr(),
                    0.0,
                    0.0,
                    0.0,
                    seed,
                    mm,
                ),
                4 => fastnoise2_sys::fnGenPositionArray4D(
                    self.node,
                    o,
                    c,
                    p[0].as_ptr(),
                    p[1].as_ptr(),
                    p[2].as_ptr(),
                    p[3].as_ptr(),
                    0.0,
                    0.0,
                    0.0,
                    0.0,
                    seed,
                    mm,
                ),
                _ => unreachable!(),
            }
        }
    }
}

impl Drop for Fn2 {
    fn drop(&mut self) {
        // SAFETY: the node was created by fnNewFromMetadata and is dropped once.
        unsafe { fastnoise2_sys::fnDeleteNodeRef(self.node) }
    }
}

/// The `fastnoise2` crate's safe node for a generator kind (best SIMD level).
fn fn2_safe(kind: NoiseKind) -> fastnoise2::SafeNode {
    use fastnoise2::generator::{Generator, prelude::*};
    match kind {
        NoiseKind::Simplex => simplex().build().0,
        NoiseKind::Perlin => perlin().build().0,
        NoiseKind::Value => value().build().0,
        NoiseKind::SimplexValue => unreachable!("FastNoise2 has no simplex value noise"),
    }
}

fn fn2_name(kind: NoiseKind) -> &'static str {
    match kind {
        NoiseKind::Simplex => "Simplex",
        NoiseKind::Perlin => "Perlin",
        NoiseKind::Value => "Value",
        NoiseKind::SimplexValue => unreachable!(),
    }
}

// ---------------------------------------------------------------------------
// The groups

fn group<'a>(c: &'a mut Criterion, name: &str, points: usize) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(points as u64));
    // Iterations take 0.1-30 ms; flat sampling keeps slow rows within budget.
    g.sampling_mode(SamplingMode::Flat);
    g.sample_size(20);
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(2));
    g
}

/// surflet rows shared by every workload: `fill` on each instruction set and
/// on the default dispatch, f64, per-row batches, `fill_gradient`, and the
/// single-point `get` loop.
fn surflet_rows<const D: usize>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    kind: NoiseKind,
    grid: &Grid<D>,
    f64_per_isa: bool,
) {
    let noise = Noise::<D>::new(kind, SEED as u64);
    let n = grid.len();
    let out = &mut vec![0f32; n][..];
    let out64 = &mut vec![0f64; n][..];
    let (c32, c64) = (grid.refs32(), grid.refs64());

    for isa in Isa::available() {
        row(g, &format!("surflet/fill/f32/{}", isa.name()), out, |o| {
            noise.fill_on(isa, c32, o, None).unwrap()
        });
    }
    let auto = format!("auto={}", Isa::detect().name());
    row(g, &format!("surflet/fill/f32/{auto}"), out, |o| {
        noise.fill(c32, o).unwrap()
    });

    // A grid the way a user without precomputed coordinate arrays fills it:
    // one call per x-row, the constant y/z/w rows rebuilt each time. Same work
    // as a uniform-grid generator, coordinate generation included.
    let side = grid.side;
    let xs: Vec<f32> = (0..side).map(|i| i as f32 * FREQ as f32).collect();
    let mut rows: Vec<Vec<f32>> = vec![vec![0f32; side]; D - 1];
    let id = format!("surflet/fill per x-row ({side} pts, coords built)/f32/{auto}");
    row(g, &id, out, |o| {
        for (r, chunk) in o.chunks_exact_mut(side).enumerate() {
            let mut rest = r;
            for row in rows.iter_mut() {
                row.fill((rest % side) as f32 * FREQ as f32);
                rest /= side;
            }
            let coords: [&[f32]; D] =
                core::array::from_fn(|a| if a == 0 { &xs[..] } else { &rows[a - 1][..] });
            noise.fill(coords, chunk).unwrap();
        }
    });

    let mut grads: Vec<Vec<f32>> = vec![vec![0f32; n]; D];
    let id = format!("surflet/fill_gradient (value + {D} partials)/f32/{auto}");
    row(g, &id, out, |o| {
        let mut it = grads.iter_mut();
        let gr: [&mut [f32]; D] = core::array::from_fn(|_| &mut it.next().unwrap()[..]);
        noise.fill_gradient(c32, o, gr).unwrap()
    });

    if f64_per_isa {
        for isa in Isa::available() {
            row(g, &format!("surflet/fill/f64/{}", isa.name()), out64, |o| {
                noise.fill_on(isa, c64, o, None).unwrap()
            });
        }
    } else {
        row(g, &format!("surflet/fill/f64/{auto}"), out64, |o| {
            noise.fill(c64, o).unwrap()
        });
    }

    row(g, "surflet/get loop (single point)/f32/scalar", out, |o| {
        for_each_point::<D>(side, FREQ as f32, |i, p| o[i] = noise.get(p))
    });
    row(
        g,
        "surflet/get loop (single point)/f64/scalar",
        out64,
        |o| for_each_point64::<D>(side, |i, p| o[i] = noise.get(p)),
    );
}

/// FastNoise2 rows: uniform grid and position arrays at the best level and
/// capped at AVX2 (and SSE2, where `full`), and the single-point call in a
/// loop.
fn fastnoise2_rows<const D: usize>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    kind: NoiseKind,
    grid: &Grid<D>,
    full: bool,
) {
    let out = &mut vec![0f32; grid.len()][..];
    let side = grid.side as i32;
    let (f, seed) = (FREQ as f32, SEED as i32);
    let p = grid.refs32();

    // The fastnoise2 crate's safe API, best SIMD level (as a user gets it).
    let safe = fn2_safe(kind);
    let best = Fn2::new(fn2_name(kind), 0).level_name();
    row(
        g,
        &format!("FastNoise2/GenUniformGrid{D}D/f32/auto={best}"),
        out,
        |o| match D {
            2 => drop(safe.gen_uniform_grid_2d(o, 0, 0, side, side, f, seed)),
            3 => drop(safe.gen_uniform_grid_3d(o, 0, 0, 0, side, side, side, f, seed)),
            4 => drop(safe.gen_uniform_grid_4d(o, 0, 0, 0, 0, side, side, side, side, f, seed)),
            _ => unreachable!(),
        },
    );
    let grid_out = out.to_vec();
    row(
        g,
        &format!("FastNoise2/GenPositionArray{D}D/f32/auto={best}"),
        out,
        |o| match D {
            2 => drop(safe.gen_position_array_2d(o, p[0], p[1], 0.0, 0.0, seed)),
            3 => drop(safe.gen_position_array_3d(o, p[0], p[1], p[2], 0.0, 0.0, 0.0, seed)),
            4 => drop(
                safe.gen_position_array_4d(o, p[0], p[1], p[2], p[3], 0.0, 0.0, 0.0, 0.0, seed),
            ),
            _ => unreachable!(),
        },
    );
    // Same points both ways: the position arrays really are the grid.
    let diff = out
        .iter()
        .zip(&grid_out)
        .map(|(a, b)| (a - b).abs())
        .fold(0f32, f32::max);
    assert!(
        diff < 1e-3,
        "FastNoise2 grid and position array differ by {diff}"
    );

    let levels: &[(u32, &str)] = if full {
        &FN2_LEVELS[..2]
    } else {
        &FN2_LEVELS[1..2]
    };
    for &(level, _) in levels {
        let node = Fn2::new(fn2_name(kind), level);
        let lname = node.level_name();
        if lname == best {
            continue;
        }
        row(
            g,
            &format!("FastNoise2/GenUniformGrid{D}D/f32/{lname}"),
            out,
            |o| node.grid::<D>(o, grid.side),
        );
        row(
            g,
            &format!("FastNoise2/GenPositionArray{D}D/f32/{lname}"),
            out,
            |o| node.positions::<D>(o, p),
        );
    }

    let id = format!("FastNoise2/GenSingle{D}D loop (single point)/f32/auto={best}");
    row(g, &id, out, |o| {
        for_each_point::<D>(grid.side, FREQ as f32, |i, p| {
            o[i] = match D {
                2 => safe.gen_single_2d(p[0], p[1], seed),
                3 => safe.gen_single_3d(p[0], p[1], p[2], seed),
                4 => safe.gen_single_4d(p[0], p[1], p[2], p[3], seed),
                _ => unreachable!(),
            }
        })
    });
}

/// FastNoise Lite (Rust port, f32): per point; it applies the frequency
/// itself, so it is given the integer grid coordinates.
fn fastnoise_lite_rows<const D: usize>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    ty: NoiseType,
    label: &str,
    grid: &Grid<D>,
) {
    let mut fnl = FastNoiseLite::with_seed(SEED as i32);
    fnl.set_noise_type(Some(ty));
    fnl.set_frequency(Some(FREQ as f32));
    let out = &mut vec![0f32; grid.len()][..];
    let id = format!("fastnoise-lite/{label} get_noise_{D}d loop/f32/scalar");
    row(g, &id, out, |o| {
        for_each_point::<D>(grid.side, 1.0, |i, p| {
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
    id: &str,
    grid: &Grid<D>,
    f: impl Fn([f64; D]) -> f64,
) {
    let out = &mut vec![0f64; grid.len()][..];
    row(g, id, out, |o| {
        for_each_point64::<D>(grid.side, |i, p| o[i] = f(p))
    });
}

/// simdnoise: its grid builder (returns a new Vec and the min/max; AVX2 is
/// its widest path).
fn simdnoise_row<const D: usize>(g: &mut BenchmarkGroup<'_, WallTime>, grid: &Grid<D>) {
    use simdnoise::NoiseBuilder;
    let s = grid.side;
    let (f, seed) = (FREQ as f32, SEED as i32);
    let run = || match D {
        2 => NoiseBuilder::gradient_2d(s, s)
            .with_freq(f)
            .with_seed(seed)
            .generate(),
        3 => NoiseBuilder::gradient_3d(s, s, s)
            .with_freq(f)
            .with_seed(seed)
            .generate(),
        4 => NoiseBuilder::gradient_4d(s, s, s, s)
            .with_freq(f)
            .with_seed(seed)
            .generate(),
        _ => unreachable!(),
    };
    check("simdnoise", &run().0);
    let isa = if std::is_x86_feature_detected!("avx2") {
        "auto=avx2"
    } else {
        "auto"
    };
    let id = format!("simdnoise/NoiseBuilder::gradient_{D}d (grid, allocates)/f32/{isa}");
    g.bench_function(id, |b| b.iter(|| black_box(run())));
}

fn simplex(c: &mut Criterion) {
    // 2D: 512 x 512.
    let grid = Grid::<2>::new(512);
    let mut g = group(c, "simplex2d 512x512", grid.len());
    surflet_rows(&mut g, NoiseKind::Simplex, &grid, true);
    fastnoise2_rows(&mut g, NoiseKind::Simplex, &grid, true);
    simdnoise_row(&mut g, &grid);
    fastnoise_lite_rows(&mut g, NoiseType::OpenSimplex2, "OpenSimplex2", &grid);
    let nr = noise::Simplex::new(SEED);
    loop64_row(&mut g, "noise-rs/Simplex get loop/f64/scalar", &grid, |p| {
        nr.get(p)
    });
    let ln = libnoise::Source::<2>::simplex(SEED as u64);
    loop64_row(
        &mut g,
        "libnoise/Simplex sample loop/f64/scalar",
        &grid,
        |p| ln.sample(p),
    );
    loop64_row(
        &mut g,
        "opensimplex2/fast::noise2 loop/f64 in, f32 out/scalar",
        &grid,
        |p| opensimplex2::fast::noise2(SEED as i64, p[0], p[1]) as f64,
    );
    g.finish();

    // 3D: 64^3.
    let grid = Grid::<3>::new(64);
    let mut g = group(c, "simplex3d 64x64x64", grid.len());
    surflet_rows(&mut g, NoiseKind::Simplex, &grid, true);
    fastnoise2_rows(&mut g, NoiseKind::Simplex, &grid, true);
    simdnoise_row(&mut g, &grid);
    fastnoise_lite_rows(&mut g, NoiseType::OpenSimplex2, "OpenSimplex2", &grid);
    let nr = noise::Simplex::new(SEED);
    loop64_row(&mut g, "noise-rs/Simplex get loop/f64/scalar", &grid, |p| {
        nr.get(p)
    });
    let ln = libnoise::Source::<3>::simplex(SEED as u64);
    loop64_row(
        &mut g,
        "libnoise/Simplex sample loop/f64/scalar",
        &grid,
        |p| ln.sample(p),
    );
    loop64_row(
        &mut g,
        "opensimplex2/fast::noise3_Fallback loop/f64 in, f32 out/scalar",
        &grid,
        |p| opensimplex2::fast::noise3_Fallback(SEED as i64, p[0], p[1], p[2]) as f64,
    );
    g.finish();

    // 4D: 16^4.
    let grid = Grid::<4>::new(16);
    let mut g = group(c, "simplex4d 16x16x16x16", grid.len());
    surflet_rows(&mut g, NoiseKind::Simplex, &grid, false);
    fastnoise2_rows(&mut g, NoiseKind::Simplex, &grid, false);
    simdnoise_row(&mut g, &grid);
    let nr = noise::Simplex::new(SEED);
    loop64_row(&mut g, "noise-rs/Simplex get loop/f64/scalar", &grid, |p| {
        nr.get(p)
    });
    let ln = libnoise::Source::<4>::simplex(SEED as u64);
    loop64_row(
        &mut g,
        "libnoise/Simplex sample loop/f64/scalar",
        &grid,
        |p| ln.sample(p),
    );
    loop64_row(
        &mut g,
        "opensimplex2/fast::noise4_Fallback loop/f64 in, f32 out/scalar",
        &grid,
        |p| opensimplex2::fast::noise4_Fallback(SEED as i64, p[0], p[1], p[2], p[3]) as f64,
    );
    g.finish();
}

fn perlin(c: &mut Criterion) {
    let grid = Grid::<2>::new(512);
    let mut g = group(c, "perlin2d 512x512", grid.len());
    surflet_rows(&mut g, NoiseKind::Perlin, &grid, false);
    fastnoise2_rows(&mut g, NoiseKind::Perlin, &grid, false);
    fastnoise_lite_rows(&mut g, NoiseType::Perlin, "Perlin", &grid);
    let nr = noise::Perlin::new(SEED);
    loop64_row(&mut g, "noise-rs/Perlin get loop/f64/scalar", &grid, |p| {
        nr.get(p)
    });
    let ln = libnoise::Source::<2>::improved_perlin(SEED as u64);
    loop64_row(
        &mut g,
        "libnoise/ImprovedPerlin sample loop/f64/scalar",
        &grid,
        |p| ln.sample(p),
    );
    g.finish();

    let grid = Grid::<3>::new(64);
    let mut g = group(c, "perlin3d 64x64x64", grid.len());
    surflet_rows(&mut g, NoiseKind::Perlin, &grid, false);
    fastnoise2_rows(&mut g, NoiseKind::Perlin, &grid, false);
    fastnoise_lite_rows(&mut g, NoiseType::Perlin, "Perlin", &grid);
    let nr = noise::Perlin::new(SEED);
    loop64_row(&mut g, "noise-rs/Perlin get loop/f64/scalar", &grid, |p| {
        nr.get(p)
    });
    let ln = libnoise::Source::<3>::improved_perlin(SEED as u64);
    loop64_row(
        &mut g,
        "libnoise/ImprovedPerlin sample loop/f64/scalar",
        &grid,
        |p| ln.sample(p),
    );
    g.finish();
}

fn value(c: &mut Criterion) {
    let grid = Grid::<2>::new(512);
    let mut g = group(c, "value2d 512x512", grid.len());
    surflet_rows(&mut g, NoiseKind::Value, &grid, false);
    fastnoise2_rows(&mut g, NoiseKind::Value, &grid, false);
    fastnoise_lite_rows(&mut g, NoiseType::Value, "Value", &grid);
    let nr = noise::Value::new(SEED);
    loop64_row(&mut g, "noise-rs/Value get loop/f64/scalar", &grid, |p| {
        nr.get(p)
    });
    let ln = libnoise::Source::<2>::value(SEED as u64);
    loop64_row(
        &mut g,
        "libnoise/Value sample loop/f64/scalar",
        &grid,
        |p| ln.sample(p),
    );
    g.finish();

    let grid = Grid::<3>::new(64);
    let mut g = group(c, "value3d 64x64x64", grid.len());
    surflet_rows(&mut g, NoiseKind::Value, &grid, false);
    fastnoise2_rows(&mut g, NoiseKind::Value, &grid, false);
    fastnoise_lite_rows(&mut g, NoiseType::Value, "Value", &grid);
    let nr = noise::Value::new(SEED);
    loop64_row(&mut g, "noise-rs/Value get loop/f64/scalar", &grid, |p| {
        nr.get(p)
    });
    let ln = libnoise::Source::<3>::value(SEED as u64);
    loop64_row(
        &mut g,
        "libnoise/Value sample loop/f64/scalar",
        &grid,
        |p| ln.sample(p),
    );
    g.finish();
}

// ---------------------------------------------------------------------------
// FRACTALS (fBm): TO BE ADDED.
//
// surflet's fractal API is being written on another branch. When it lands,
// add a group here per workload (e.g. "fbm simplex2d 512x512, 4 octaves,
// lacunarity 2, gain 0.5") with, like for like:
//   * surflet's fBm batch call on each ISA and the default dispatch;
//   * FastNoise2: `simplex().fbm(gain, weighted_strength = 0.0, octaves, lacunarity)`
//     (fastnoise2::generator) through GenUniformGrid / GenPositionArray;
//   * simdnoise: `NoiseBuilder::fbm_2d(..).with_octaves(..).with_gain(..).with_lacunarity(..)`;
//   * fastnoise-lite: `set_fractal_type(Some(FractalType::FBm))` + octaves/gain/lacunarity;
//   * noise-rs: `noise::Fbm::<Simplex>` with `set_octaves`; libnoise: `.fbm(octaves, freq, lacunarity, persistence)`.
// Check that each peer's octave count, gain and lacunarity match (FastNoise2
// and FastNoise Lite also rescale by the fractal bounding; note it), and add the
// group to `criterion_group!` below; run.sh picks new groups up by itself.
// ---------------------------------------------------------------------------

criterion::criterion_group!(benches, simplex, perlin, value);
criterion::criterion_main!(benches);
