//! Stacks and graphs compiled to WGSL (`Evaluator::wgsl`,
//! `GraphField::wgsl`) and run on the GPU, against the same fields' CPU
//! grid calls, value and gradient, bit for bit: every WGSL kernel in 2D and
//! 3D and 4D, every fractal kind, warps, periods, every graph node kind, and
//! coordinates up to 2^20 (and integer coordinates past 2^30), through
//! the value-and-gradient kernel and the value-only one.
//!
//! Without a GPU adapter the tests print why and pass, except where `CI` is
//! `true` (CI installs lavapipe), where they fail.

// Each point is compared across several output arrays by index.
#![allow(clippy::needless_range_loop)]

use surflet::{Field, Graph, Grid, Stack};
use surflet_gpu::{GpuContext, GridKernel};

mod common;
use common::{context, graphs};

/// The stacks: each WGSL kernel alone, then fractals, warps and periods.
const STACKS: &[&str] = &[
    "noise = \"value\"",
    "noise = \"perlin\"",
    "noise = \"simplex\"",
    "noise = \"simplex-value\"",
    "noise = \"value-cubic\"",
    "noise = \"opensimplex2\"",
    "noise = \"cellular\"\ndistance = \"hybrid\"\nreturn = \"f1/f2\"\njitter = 0.8",
    "noise = \"opensimplex2s\"\nseed = 3\n[fractal]\noctaves = 3",
    "noise = \"value-cubic\"\nseed = 11\n[fractal]\nkind = \"ridged\"\noctaves = 3",
    "noise = \"simplex\"\nseed = 77\nfrequency = 0.37\n[fractal]\noctaves = 6",
    "noise = \"perlin\"\n[fractal]\nkind = \"ridged\"\noctaves = 5",
    "noise = \"value\"\n[fractal]\nkind = \"billow\"\noctaves = 4",
    // Where a simplex octave is 0 (integer coordinates past 2^24), billow's
    // sign is 0 and its product with a negative derivative is -0.
    "noise = \"simplex\"\n[fractal]\nkind = \"billow\"\noctaves = 2",
    "noise = \"simplex-value\"\n[fractal]\nkind = \"turbulence\"\noctaves = 3",
    "noise = \"simplex\"\n[fractal]\nkind = \"hybrid\"\noctaves = 4",
    "noise = \"perlin\"\nseed = 5\n[fractal]\noctaves = 3\n[warp]\namplitude = 0.7",
    "noise = \"simplex\"\n[warp]\nkind = \"progressive\"\nnoise = \"value\"\namplitude = 0.4\n[warp.fractal]\noctaves = 2",
    // Turned octaves, in the field and in a warp.
    "noise = \"perlin\"\n[fractal]\noctaves = 5\nrotation = 0.7",
    "noise = \"value\"\n[fractal]\nkind = \"ridged\"\noctaves = 3\nrotation = -2.1\n[warp]\namplitude = 0.6\n[warp.fractal]\noctaves = 3\nrotation = 1.3",
    // Alias-free fractals: faded amplitudes, the last octaves left out, in
    // the field and in a warp.
    "noise = \"perlin\"\nantialias = true\nfootprint = 0.07\n[fractal]\noctaves = 8\n[warp]\namplitude = 0.5\n[warp.fractal]\noctaves = 4",
    "noise = \"simplex\"\nantialias = true\nfootprint = 0.3\n[fractal]\nkind = \"hybrid\"\noctaves = 6",
];

/// 4D stacks beside each kernel alone (`common::wgsl_noises`): cellular's
/// options, fractals, a warp, turned octaves and periods.
const STACKS_4D: &[&str] = &[
    "noise = \"cellular\"\ndistance = \"hybrid\"\nreturn = \"f1/f2\"\njitter = 0.8",
    "noise = \"cellular\"\ndistance = \"chebyshev\"\nreturn = \"cell-value\"\nperiod = [3, 2, 4, 3]",
    "noise = \"cellular\"\ndistance = \"manhattan\"\nreturn = \"f2-f1\"\njitter = 0.5",
    "noise = \"value-cubic\"\nperiod = [3, 1, 2, 5]\n[fractal]\noctaves = 2",
    "noise = \"opensimplex2s\"\nseed = 3\n[fractal]\noctaves = 3",
    "noise = \"perlin\"\nseed = 5\n[fractal]\noctaves = 3\n[warp]\namplitude = 0.7",
    "noise = \"simplex\"\nseed = 9\n[fractal]\nkind = \"ridged\"\noctaves = 3\nrotation = 0.7",
    "noise = \"simplex-value\"\n[fractal]\nkind = \"hybrid\"\noctaves = 3",
    "noise = \"value\"\nperiod = [3, 4, 5, 2]\n[fractal]\nkind = \"billow\"\noctaves = 2",
    "noise = \"perlin\"\nperiod = [2, 3, 1, 4]",
];

/// Stacks that tile, with a period per dimension.
const PERIODIC: &[(&str, &[u32])] = &[
    (
        "noise = \"perlin\"\nperiod = [8, 6]\n[fractal]\noctaves = 3",
        &[8, 6],
    ),
    ("noise = \"value\"\nperiod = [5, 7, 3]", &[5, 7, 3]),
    (
        "noise = \"simplex\"\nperiod = [4, 6, 8]\n[fractal]\noctaves = 2",
        &[4, 6, 8],
    ),
    // The hexagonal lattice (an even y period).
    (
        "noise = \"simplex\"\nperiod = [5, 6]\n[fractal]\noctaves = 3",
        &[5, 6],
    ),
    ("noise = \"simplex-value\"\nperiod = [3, 4]", &[3, 4]),
    ("noise = \"value-cubic\"\nperiod = [5, 3, 4]", &[5, 3, 4]),
    ("noise = \"value-cubic\"\nperiod = [1, 7]", &[1, 7]),
    (
        "noise = \"cellular\"\nreturn = \"f1*f2\"\nperiod = [3, 4, 2]",
        &[3, 4, 2],
    ),
];

/// (origin, step, start, size) per axis: near the origin, negative, and
/// around 2^20 (a `D`-dimensional test reads the first `D` axes).
type Window = ([f32; 4], [f32; 4], [u64; 4], [usize; 4]);
const WINDOWS: &[Window] = &[
    (
        [0.1, -3.7, 0.37, 2.3],
        [0.37, 1.0 / 3.0, 0.1, 0.7],
        [0, 0, 0, 0],
        [61, 47, 5, 2],
    ),
    (
        [-20.3, -0.05, -7.0, -0.4],
        [0.013, 0.29, 1.7, 0.31],
        [3, 0, 2, 1],
        [53, 41, 6, 2],
    ),
    (
        [1048576.3, -1048575.9, 1048000.0, -1048500.5],
        [0.125, 0.37, 3.1, 0.6],
        [0, 9, 0, 3],
        [47, 37, 4, 2],
    ),
    // The skew's sum past 2^12 (the split multiply's long path).
    (
        [1048576.3, 1048575.9, -1048000.0, 1048200.7],
        [0.37, 0.125, 0.9, 0.45],
        [0, 0, 0, 0],
        [41, 43, 4, 2],
    ),
    // Past f32's integers (2^24) and the sum's exact range (2^26): every
    // coordinate an integer, the cells reduced modulo 2^32.
    (
        [1.5e9, 2.0e9, -1.1e9, 1.9e9],
        [256.0, 512.0, 128.0, 1024.0],
        [0, 0, 0, 0],
        [17, 13, 3, 2],
    ),
];

/// `$body` with the constant `$D` set to the dimension `$d` (2, 3 or 4).
macro_rules! in_dims {
    ($d:expr, |$D:ident| $body:expr) => {
        match $d {
            2 => {
                const $D: usize = 2;
                $body
            }
            3 => {
                const $D: usize = 3;
                $body
            }
            _ => {
                const $D: usize = 4;
                $body
            }
        }
    };
}

/// How a test makes a kernel from a module's WGSL, its function's name,
/// its dimension and whether it computes the gradient.
type Make<'a> = dyn Fn(&str, &str, usize, bool) -> Result<GridKernel, String> + 'a;

/// The kernels as `GridKernel::new` compiles them: WGSL, through wgpu.
fn wgsl_kernel(
    ctx: &GpuContext,
) -> impl Fn(&str, &str, usize, bool) -> Result<GridKernel, String> + '_ {
    move |src, name, d, gradient| {
        GridKernel::new(ctx, src, name, d, gradient).map_err(|e| e.to_string())
    }
}

/// Differences between the GPU's and the CPU's values and gradients:
/// (samples whose bits differ, largest absolute difference, total).
fn compare<const D: usize>(
    ctx: &GpuContext,
    ev: &impl Field<D>,
    src: &str,
    what: &str,
    make: &Make<'_>,
) -> (usize, f32, usize) {
    let src = src.to_string();
    let kernel = make(&src, "field", D, true).unwrap_or_else(|e| panic!("{what}: {e}"));
    let values = make(&src, "field", D, false).unwrap_or_else(|e| panic!("{what}: {e}"));
    let (mut diff, mut worst, mut total) = (0, 0f32, 0);
    for (origin, step, start, size) in WINDOWS {
        let o: [f32; D] = core::array::from_fn(|a| origin[a]);
        let st: [f32; D] = core::array::from_fn(|a| step[a]);
        let sa: [usize; D] = core::array::from_fn(|a| start[a] as usize);
        let sz: [usize; D] = core::array::from_fn(|a| size[a]);
        let grid = Grid::window(o, st, sa, sz).unwrap();
        let n = grid.len();
        let mut v = vec![0f32; n];
        let mut g: Vec<Vec<f32>> = (0..D).map(|_| vec![0f32; n]).collect();
        {
            let mut it = g.iter_mut();
            let gr: [&mut [f32]; D] = core::array::from_fn(|_| &mut it.next().unwrap()[..]);
            ev.grid_gradient(&grid, &mut v, gr).unwrap();
        }
        let out = kernel
            .grid(ctx, &o, &st, &start[..D], &sz)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        let gpu_g = out.gradient.unwrap();
        // The value-only kernel: the CPU's value-only grid call.
        let mut cpu_v = vec![0f32; n];
        let cpu_bounds = ev.grid(&grid, &mut cpu_v).unwrap();
        let only = values
            .grid(ctx, &o, &st, &start[..D], &sz)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        for i in 0..n {
            if cpu_v[i].to_bits() != only.values[i].to_bits() {
                if diff < 3 {
                    eprintln!(
                        "{what}: point {:?} value-only: CPU {:e} GPU {:e}",
                        grid.point(i),
                        cpu_v[i],
                        only.values[i]
                    );
                }
                diff += 1;
                worst = worst.max((cpu_v[i] - only.values[i]).abs());
            }
        }
        for b in [out.bounds, only.bounds] {
            assert_eq!(
                (b.0.to_bits(), b.1.to_bits()),
                (cpu_bounds.min.to_bits(), cpu_bounds.max.to_bits()),
                "{what}: bounds"
            );
        }
        for i in 0..n {
            let mut pairs = vec![(v[i], out.values[i])];
            for a in 0..D {
                pairs.push((g[a][i], gpu_g[a][i]));
            }
            let mut differs = false;
            for (k, (c, w)) in pairs.into_iter().enumerate() {
                if c.to_bits() != w.to_bits() {
                    if diff < 3 && !differs {
                        eprintln!(
                            "{what}: point {:?} output {k}: CPU {c:e} GPU {w:e}",
                            grid.point(i)
                        );
                    }
                    differs = true;
                    worst = worst.max((c - w).abs());
                }
            }
            diff += usize::from(differs);
            total += 1;
        }
    }
    (diff, worst, total)
}

fn check(ctx: &GpuContext, toml: &str, dims: &[usize]) {
    check_with(ctx, toml, dims, &wgsl_kernel(ctx));
}

fn check_with(ctx: &GpuContext, toml: &str, dims: &[usize], make: &Make<'_>) {
    let stack = Stack::from_toml_str(toml).unwrap();
    for &d in dims {
        let what = format!("{d}D {}", toml.replace('\n', "; "));
        let (diff, worst, total) = in_dims!(d, |D| {
            let ev = stack.build::<D>().unwrap();
            compare(ctx, &ev, &ev.wgsl("field").unwrap(), &what, make)
        });
        eprintln!("{what}: {diff} of {total} samples differ, worst {worst:e}");
        assert_eq!(
            diff, 0,
            "{what}: {diff} of {total} samples differ, worst {worst:e}"
        );
    }
}

/// Every graph of `common::graphs` in `dims`, through `make`; or, to
/// look into a difference, the `;`-separated expressions of
/// `SURFLET_GRAPHS`.
fn check_graphs(ctx: &GpuContext, dims: &[usize], make: &Make<'_>) {
    for &d in dims {
        let list = match std::env::var("SURFLET_GRAPHS") {
            Ok(l) => l.split(';').map(String::from).collect(),
            Err(_) => graphs(d),
        };
        for text in list {
            let what = format!("{d}D {text}");
            let g = Graph::parse(&text).unwrap_or_else(|e| panic!("{what}: {e}"));
            let (diff, worst, total) = in_dims!(d, |D| {
                let f = g.build::<D>().unwrap();
                compare(ctx, &f, &f.wgsl("field").unwrap(), &what, make)
            });
            eprintln!("{what}: {diff} of {total} samples differ, worst {worst:e}");
            assert_eq!(diff, 0, "{what}: {diff} of {total} samples differ");
        }
    }
}

/// Graphs (`GraphField::wgsl`): every node kind, with the Jacobians of
/// nested moves, values and gradients.
#[test]
fn graphs_agree_bit_for_bit() {
    let Some(ctx) = context() else { return };
    check_graphs(&ctx, &[2, 3], &wgsl_kernel(&ctx));
}

/// 4D: each kernel alone (every kind of the registry), the stacks of
/// [`STACKS_4D`] and every graph.
#[test]
fn four_d_agrees_bit_for_bit() {
    let Some(ctx) = context() else { return };
    for noise in common::wgsl_noises() {
        check(&ctx, &format!("noise = \"{noise}\""), &[4]);
    }
    for toml in STACKS_4D {
        check(&ctx, toml, &[4]);
    }
    check_graphs(&ctx, &[4], &wgsl_kernel(&ctx));
}

#[test]
fn stacks_agree_bit_for_bit() {
    let Some(ctx) = context() else { return };
    for toml in STACKS {
        check(&ctx, toml, &[2, 3]);
    }
}

/// Cellular noise: every distance with every return value, at jitters 1
/// and below, in 2D and 3D, each distance in 4D, and periodic; the exact search runs per
/// invocation on the GPU.
#[test]
fn cellular_agrees_bit_for_bit() {
    let Some(ctx) = context() else { return };
    let distances = [
        "euclidean",
        "euclidean-squared",
        "manhattan",
        "chebyshev",
        "hybrid",
    ];
    let returns = ["f1", "f2", "f2-f1", "f1+f2", "f1*f2", "f1/f2", "cell-value"];
    for (i, distance) in distances.iter().enumerate() {
        for (k, ret) in returns.iter().enumerate() {
            let jitter = [1.0, 0.75, 0.3][(i + k) % 3];
            let toml = format!(
                "noise = \"cellular\"\nseed = {k}\ndistance = \"{distance}\"\n\
                 return = \"{ret}\"\njitter = {jitter}"
            );
            check(&ctx, &toml, &[2, 3]);
        }
    }
    // 4D: each distance once, each with another return (all seven met
    // with STACKS_4D's).
    for (i, distance) in distances.iter().enumerate() {
        let ret = ["f1*f2", "f1+f2", "f2", "f1", "f2"][i];
        let toml = format!(
            "noise = \"cellular\"\nseed = 9\ndistance = \"{distance}\"\nreturn = \"{ret}\""
        );
        check(&ctx, &toml, &[4]);
    }
    let fractal = "noise = \"cellular\"\nreturn = \"f2-f1\"\n[fractal]\noctaves = 3";
    check(&ctx, fractal, &[2, 3]);
    check(&ctx, "noise = \"cellular\"\nperiod = [5, 3]", &[2]);
    check(
        &ctx,
        "noise = \"cellular\"\ndistance = \"manhattan\"\nperiod = [4, 1, 6]",
        &[3],
    );
}

/// Turned octaves moved by a stack offset (an offset has one entry per
/// dimension).
#[test]
fn turned_and_moved_stacks_agree_bit_for_bit() {
    let Some(ctx) = context() else { return };
    let turned = "noise = \"simplex\"\n[fractal]\noctaves = 4\nrotation = 0.45";
    check(&ctx, &format!("offset = [0.5, -1.25]\n{turned}"), &[2]);
    check(&ctx, &format!("offset = [0.5, -1.25, 3.0]\n{turned}"), &[3]);
}

#[test]
fn periodic_stacks_agree_bit_for_bit() {
    let Some(ctx) = context() else { return };
    for (toml, period) in PERIODIC {
        check(&ctx, toml, &[period.len()]);
    }
}

/// `grid_axes`: coordinate lists that are no uniform `f32` grid (a
/// picture's pixel centres computed in `f64`, then rounded), against the
/// CPU's grid over the same lists; non-finite coordinates refused.
#[test]
fn arbitrary_axes_agree() {
    let Some(ctx) = context() else { return };
    let ev = Stack::from_toml_str("noise = \"simplex\"\n[fractal]\noctaves = 3")
        .unwrap()
        .build::<2>()
        .unwrap();
    let xs: Vec<f32> = (0..97)
        .map(|i| (-3.1 + f64::from(i) * 7.0 / 97.0) as f32)
        .collect();
    let ys: Vec<f32> = (0..61).map(|j| (1e5 + f64::from(j) / 3.0) as f32).collect();
    let kernel = GridKernel::new(&ctx, &ev.wgsl("field").unwrap(), "field", 2, true).unwrap();
    let out = kernel.grid_axes(&ctx, &[&xs, &ys]).unwrap();
    let grid = Grid::from_axes([xs.clone(), ys.clone()]).unwrap();
    let n = grid.len();
    let (mut v, mut gx, mut gy) = (vec![0f32; n], vec![0f32; n], vec![0f32; n]);
    ev.grid_gradient(&grid, &mut v, [&mut gx, &mut gy]).unwrap();
    let g = out.gradient.unwrap();
    for i in 0..n {
        assert_eq!(
            v[i].to_bits(),
            out.values[i].to_bits(),
            "value at {:?}",
            grid.point(i)
        );
        assert_eq!(
            gx[i].to_bits(),
            g[0][i].to_bits(),
            "d/dx at {:?}",
            grid.point(i)
        );
        assert_eq!(
            gy[i].to_bits(),
            g[1][i].to_bits(),
            "d/dy at {:?}",
            grid.point(i)
        );
    }
    let bad = [0.0, f32::NAN];
    let e = kernel
        .grid_axes(&ctx, &[&bad, &ys])
        .unwrap_err()
        .to_string();
    assert!(e.contains("non-finite"), "{e}");
    let e = kernel.grid_axes(&ctx, &[&xs]).unwrap_err().to_string();
    assert!(e.contains("2-dimensional"), "{e}");
}

/// `surflet_div` and `surflet_sqrt`, the kernels' division and square root
/// (Vulkan lets a driver's be 2.5 ulp off, NVIDIA's are): bit for bit
/// against the CPU's `/` and `sqrt` over every pair of 240 numbers (signed
/// zeros, subnormals, the extremes, quotients that overflow or underflow,
/// and random bit patterns over the whole range), NaN where the CPU's is.
#[test]
fn division_and_square_root_are_correctly_rounded() {
    let Some(ctx) = context() else { return };
    let mut xs: Vec<f32> = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.0,
        3.0,
        0.1,
        -7.5,
        1e-45,
        -1e-45,
        1e-40,
        1.1754942e-38,
        f32::MIN_POSITIVE,
        f32::MAX,
        -f32::MAX,
        1e38,
        1e-38,
        16777215.0,
        0.99999994,
        1.0000001,
    ];
    let mut h = 0x2545_f491_u32;
    while xs.len() < 240 {
        h ^= h << 13;
        h ^= h >> 17;
        h ^= h << 5;
        let x = f32::from_bits(h);
        if x.is_finite() {
            xs.push(x);
        }
    }
    let module = Stack::from_toml_str("noise = \"cellular\"")
        .unwrap()
        .build::<2>()
        .unwrap()
        .wgsl("field")
        .unwrap();
    // The quotient and the two roots, as a value and a "gradient".
    let probe = format!(
        "{module}\nfn probe_gradient(p: vec2<f32>) -> vec3<f32> {{\n    return vec3<f32>(\
         surflet_div(p.x, p.y), surflet_sqrt(p.x), surflet_sqrt(p.y));\n}}\n\
         \nfn probe(p: vec2<f32>) -> f32 {{\n    return probe_gradient(p).x;\n}}\n"
    );
    let kernel = GridKernel::new(&ctx, &probe, "probe", 2, true).unwrap();
    let out = kernel.grid_axes(&ctx, &[&xs, &xs]).unwrap();
    let g = out.gradient.unwrap();
    let same =
        |cpu: f32, gpu: f32| cpu.to_bits() == gpu.to_bits() || (cpu.is_nan() && gpu.is_nan());
    let mut wrong = Vec::new();
    for (j, &y) in xs.iter().enumerate() {
        for (i, &x) in xs.iter().enumerate() {
            let k = j * xs.len() + i;
            if !same(x / y, out.values[k]) {
                wrong.push(format!(
                    "{x:e} / {y:e}: CPU {:e} GPU {:e}",
                    x / y,
                    out.values[k]
                ));
            }
            if !same(x.sqrt(), g[0][k]) || !same(y.sqrt(), g[1][k]) {
                wrong.push(format!(
                    "sqrt({x:e}) or sqrt({y:e}): GPU {:e}, {:e}",
                    g[0][k], g[1][k]
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong, first: {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(5)]
    );
}

/// The coordinates where drivers may part from IEEE 754: signed zeros
/// (`floor(-0.0)`), subnormals (which WGSL lets a driver flush to zero, in
/// the coordinates and in what the kernels compute from them), the smallest
/// normals, the float just below an integer on either side of it, halves
/// and the last integers of `f32`. Every kernel, 2D and 3D, plain and
/// fBm, values and gradients against the CPU's grid over the same lists.
#[test]
fn edge_coordinates_agree() {
    let Some(ctx) = context() else { return };
    check_edges(&ctx, &wgsl_kernel(&ctx), true);
}

/// [`edge_coordinates_agree`] through `make`, with the graphs if `graphs`.
fn check_edges(ctx: &GpuContext, make: &Make<'_>, graphs_too: bool) {
    let below = |x: f32| f32::from_bits(x.to_bits() - 1);
    let mut edges = vec![
        -0.0,
        0.0,
        f32::from_bits(1), // the smallest subnormal
        1e-39,             // a subnormal
        below(f32::MIN_POSITIVE),
        f32::MIN_POSITIVE,
        1e-30,
        below(1.0),
        1.0,
        0.5,
        below(0.5),
        3.0,
        below(3.0),
        8_388_607.5, // 2^23 - 1/2
        16_777_215.0,
    ];
    edges.extend(edges.clone().iter().map(|x| -x));
    let (mut differ, mut worst, mut total, mut tiny) = (0usize, 0f32, 0usize, 0usize);
    for noise in common::wgsl_noises() {
        for fractal in ["", "\n[fractal]\noctaves = 3"] {
            let toml = format!("noise = \"{noise}\"{fractal}");
            let stack = Stack::from_toml_str(&toml).unwrap();
            let (e2, e3) = (stack.build::<2>().unwrap(), stack.build::<3>().unwrap());
            for (d, w, t, s) in [
                edge_diff(ctx, &e2, &e2.wgsl("field").unwrap(), &edges, make),
                edge_diff(ctx, &e3, &e3.wgsl("field").unwrap(), &edges, make),
            ] {
                differ += d;
                worst = worst.max(w);
                total += t;
                tiny += s;
            }
        }
    }
    // 4D over every other edge (15^4 = 50,625 points a stack, where all
    // 30 would give 810,000), both signs of zero among them.
    let edges4: Vec<f32> = edges.iter().copied().step_by(2).collect();
    assert!(edges4.iter().any(|x| x.to_bits() == (-0.0f32).to_bits()));
    for noise in common::wgsl_noises() {
        for fractal in ["", "\n[fractal]\noctaves = 3"] {
            let toml = format!("noise = \"{noise}\"{fractal}");
            let e4 = Stack::from_toml_str(&toml).unwrap().build::<4>().unwrap();
            let (d, w, t, s) = edge_diff(ctx, &e4, &e4.wgsl("field").unwrap(), &edges4, make);
            differ += d;
            worst = worst.max(w);
            total += t;
            tiny += s;
        }
    }
    // Every graph, in 2D (the 3D grid of 30 edges per axis is 27,000
    // points a graph; 2D covers each node's operations at every edge).
    for text in graphs(2).into_iter().filter(|_| graphs_too) {
        let g = Graph::parse(&text).unwrap().build::<2>().unwrap();
        let (d, w, t, s) = edge_diff(ctx, &g, &g.wgsl("field").unwrap(), &edges, make);
        if d > 0 {
            eprintln!("{text}: {d} of {t} edge samples differ");
        }
        differ += d;
        worst = worst.max(w);
        total += t;
        tiny += s;
    }
    eprintln!(
        "edge coordinates: {differ} of {total} samples differ, worst {worst:e}; \
         {tiny} have a subnormal value or derivative on the CPU"
    );
    // A driver that flushed subnormals would differ there.
    assert!(
        tiny > 0,
        "no subnormal results: the test would miss flushing"
    );
    assert_eq!(differ, 0, "worst difference {worst:e}");
}

/// [`edge_coordinates_agree`]'s comparison over the grid of `edges` on
/// every axis: (samples whose value or gradient bits differ, largest
/// absolute difference, total, samples with a subnormal result on the
/// CPU).
fn edge_diff<const D: usize>(
    ctx: &GpuContext,
    ev: &impl Field<D>,
    src: &str,
    edges: &[f32],
    make: &Make<'_>,
) -> (usize, f32, usize, usize) {
    let kernel = make(src, "field", D, true).unwrap();
    let axes: Vec<&[f32]> = vec![edges; D];
    let out = kernel.grid_axes(ctx, &axes).unwrap();
    let grid = Grid::from_axes(std::array::from_fn(|_| edges.to_vec())).unwrap();
    let n = grid.len();
    let mut v = vec![0f32; n];
    let mut g: [Vec<f32>; D] = std::array::from_fn(|_| vec![0f32; n]);
    {
        let mut it = g.iter_mut();
        let slices: [&mut [f32]; D] = std::array::from_fn(|_| &mut it.next().unwrap()[..]);
        ev.grid_gradient(&grid, &mut v, slices).unwrap();
    }
    let gpu_g = out.gradient.unwrap();
    let (mut differ, mut worst, mut tiny) = (0, 0f32, 0);
    for i in 0..n {
        let mut pairs = vec![(v[i], out.values[i])];
        pairs.extend((0..D).map(|a| (g[a][i], gpu_g[a][i])));
        tiny += usize::from(pairs.iter().any(|(c, _)| c.is_subnormal()));
        if pairs.iter().any(|(c, w)| c.to_bits() != w.to_bits()) {
            if differ < 5 {
                eprintln!("differs at {:?}: cpu {pairs:?}", grid.point(i));
            }
            differ += 1;
            for (c, w) in pairs {
                worst = worst.max((c - w).abs());
            }
        }
    }
    (differ, worst, n, tiny)
}

/// The kernels in GLSL: the whole program (module and entry point)
/// translated by naga (`wgsl::translate`), compiled to SPIR-V by glslang, an
/// independent compiler, and run through wgpu's SPIR-V path, against the
/// CPU bit for bit: every stack of the WGSL test, in 2D and 3D (at most 3
/// octaves), the periodic ones, the 4D kernels, every graph in 2D, and every
/// kernel at the edge coordinates. Four tests, so that the test harness's
/// threads share them: most of their time is lavapipe compiling (with a
/// cold shader cache, 149 s in one test on the 2-core machine). Without
/// glslang (`glslangValidator`, Debian's `glslang-tools`) they say so and
/// pass, except where `CI` is `true` (`.ci/lavapipe` installs it), where
/// they fail.
#[cfg(feature = "spirv")]
mod glsl {
    use super::*;

    /// Runs `body` with the context and the GLSL kernel maker, or says why
    /// it cannot.
    fn with_glslang(body: impl FnOnce(&GpuContext, &Make<'_>)) {
        let Some(ctx) = context() else { return };
        if std::process::Command::new("glslangValidator")
            .arg("--version")
            .output()
            .is_err()
        {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI=true and no glslangValidator"
            );
            eprintln!("skipped: no glslangValidator (Debian's glslang-tools)");
            return;
        }
        let make = |src: &str, name: &str, d: usize, gradient: bool| {
            let program =
                surflet_gpu::program(src, name, d, gradient).map_err(|e| e.to_string())?;
            let glsl = match surflet::wgsl::translate(&program, surflet::wgsl::Lang::Glsl) {
                Ok(surflet::wgsl::Shader::Text(t)) => t,
                other => return Err(format!("{other:?}")),
            };
            let words = glslang(&glsl)?;
            GridKernel::from_spirv(&ctx, &words, d, gradient).map_err(|e| e.to_string())
        };
        body(&ctx, &make);
    }

    /// `toml` with at most 3 octaves: a fourth runs no function the first
    /// three do not, and costs lavapipe's compiler seconds a stack.
    fn capped(toml: &str) -> String {
        let lines: Vec<String> = toml
            .lines()
            .map(|l| match l.strip_prefix("octaves = ") {
                Some(n) if n.parse::<u32>().unwrap() > 3 => "octaves = 3".into(),
                _ => l.to_string(),
            })
            .collect();
        lines.join("\n")
    }

    /// Each kernel alone in 2D and 3D; the stacks with fractals and warps
    /// in 2D and 3D by turns (the WGSL test runs each in both, and the
    /// translation treats a fractal's operations alike in either).
    #[test]
    fn glsl_stacks_agree_bit_for_bit() {
        with_glslang(|ctx, make| {
            for (i, toml) in STACKS.iter().enumerate() {
                let dims: &[usize] = if toml.contains('[') {
                    &[[2, 3][i % 2]]
                } else {
                    &[2, 3]
                };
                check_with(ctx, &capped(toml), dims, make);
            }
        });
    }

    /// The periodic stacks, and in 4D the kernels, plain and periodic (the
    /// fractal and warp code is the 2D and 3D stacks', in one more
    /// dimension).
    #[test]
    fn glsl_periods_and_4d_agree_bit_for_bit() {
        with_glslang(|ctx, make| {
            for (toml, period) in PERIODIC {
                check_with(ctx, toml, &[period.len()], make);
            }
            for noise in common::wgsl_noises() {
                check_with(ctx, &format!("noise = \"{noise}\""), &[4], make);
            }
            for toml in STACKS_4D.iter().filter(|t| !t.contains('[')) {
                check_with(ctx, toml, &[4], make);
            }
        });
    }

    /// Graphs in 2D, which has every node kind (3D adds glslang time, not
    /// operations the translation treats differently).
    #[test]
    fn glsl_graphs_agree_bit_for_bit() {
        with_glslang(|ctx, make| check_graphs(ctx, &[2], make));
    }

    /// Every kernel at the edge coordinates (the graphs' nodes are plain
    /// arithmetic there, checked above).
    #[test]
    fn glsl_edge_coordinates_agree() {
        with_glslang(|ctx, make| check_edges(ctx, make, false));
    }
}

/// `glsl` (a compute shader whose entry is `main`) compiled by glslang for
/// Vulkan, its entry point renamed `surflet_gpu_main`.
#[cfg(feature = "spirv")]
fn glslang(glsl: &str) -> Result<Vec<u32>, String> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let base = std::env::temp_dir().join(format!(
        "surflet-glsl-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let (src, spv) = (base.with_extension("comp"), base.with_extension("spv"));
    std::fs::write(&src, glsl).map_err(|e| e.to_string())?;
    let out = std::process::Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.1", "-S", "comp"])
        .args([
            "-e",
            "surflet_gpu_main",
            "--source-entrypoint",
            "main",
            "-o",
        ])
        .arg(&spv)
        .arg(&src)
        .output()
        .map_err(|e| e.to_string())?;
    let bytes = std::fs::read(&spv);
    let _ = std::fs::remove_file(&src);
    let _ = std::fs::remove_file(&spv);
    if !out.status.success() {
        return Err(format!(
            "glslang: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let bytes = bytes.map_err(|e| e.to_string())?;
    Ok(bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect())
}
