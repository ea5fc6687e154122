//! Grid calls return exactly what single-point calls return at the grid's
//! points, and parallel calls exactly what one thread returns: every noise,
//! fractal, warp and stack, every dimension and precision, on odd sizes,
//! negative and large origins and steps that are not powers of two.

// surflet's own `Field` trait is the grid entry point of every field type.
use surflet::{
    Bounds, Cellular, CellularDistance, CellularReturn, Error, Field, Float, Fractal, FractalDesc,
    FractalKind, FractalParams, Grid, Isa, Noise, NoiseKind, Sample, Stack, Warp, WarpDesc,
    WarpKind, WarpParams,
};

fn same<F: Float>(a: F, b: F) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_f64().to_bits() == b.to_f64().to_bits()
}

/// Runs a grid call, returning values, gradient and bounds.
fn run<F: Float, const D: usize>(
    field: &impl Field<D>,
    isa: Isa,
    grid: &Grid<F, D>,
    gradient: bool,
) -> (Vec<F>, Vec<Vec<F>>, Bounds<F>) {
    let n = grid.len();
    let mut out = vec![F::ZERO; n];
    let mut grad: Vec<Vec<F>> = vec![vec![F::ZERO; if gradient { n } else { 0 }]; D];
    let b = if gradient {
        let mut it = grad.iter_mut();
        let g: [&mut [F]; D] = core::array::from_fn(|_| it.next().unwrap().as_mut_slice());
        field.grid_on(isa, grid, &mut out, Some(g)).unwrap()
    } else {
        field.grid_on(isa, grid, &mut out, None).unwrap()
    };
    (out, grad, b)
}

/// The bounds a grid call must report for `values`.
fn expected_bounds<F: Float>(values: &[F]) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values {
        let v = v.to_f64();
        if !v.is_nan() {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    (lo, hi)
}

fn check<F: Float, const D: usize>(what: &str, field: &impl Field<D>, grid: &Grid<F, D>) {
    let singles: Vec<Sample<F, D>> = (0..grid.len())
        .map(|i| field.sample(grid.point(i)))
        .collect();
    for isa in Isa::available() {
        let (out, grad, b) = run(field, isa, grid, true);
        let (plain, _, b2) = run(field, isa, grid, false);
        for (i, s) in singles.iter().enumerate() {
            let ok = same(s.value, out[i])
                && same(s.value, plain[i])
                && (0..D).all(|a| same(s.gradient[a], grad[a][i]));
            assert!(
                ok,
                "{what} {D}D {} on {}: grid point {i} {:?}: single {:?} {:?} vs grid {:?} / {:?}, {:?}",
                F::NAME,
                isa.name(),
                grid.point(i),
                s.value,
                s.gradient,
                out[i],
                plain[i],
                (0..D).map(|a| grad[a][i]).collect::<Vec<_>>()
            );
        }
        let (lo, hi) = expected_bounds(&out);
        assert_eq!((b.min.to_f64(), b.max.to_f64()), (lo, hi), "{what}: bounds");
        assert_eq!(b, b2, "{what}: bounds with and without the gradient");
        assert!(
            b.min.to_f64().to_bits() != (-0.0f64).to_bits(),
            "{what}: −0 min"
        );
    }
}

/// Small grids with odd sizes, negative and large origins and steps that
/// are not powers of two.
fn grids<F: Float, const D: usize>() -> Vec<Grid<F, D>> {
    let sizes: [usize; 4] = match D {
        1 => [301, 1, 1, 1],
        2 => [37, 9, 1, 1],
        3 => [13, 7, 5, 1],
        _ => [7, 5, 4, 3],
    };
    let size: [usize; D] = core::array::from_fn(|a| sizes[a]);
    let big = if F::PRECISION > 24 { 1e10 } else { 3e5 };
    let setups: [([f64; 4], [f64; 4]); 4] = [
        ([0.0; 4], [0.0371, 0.1, 1.0 / 3.0, 0.29]),
        ([-17.3, -0.61, -3.0, -1e-3], [0.7, -0.45, 0.13, 0.5]),
        ([big, -big, big * 0.5, 1.5], [0.0625, 0.33, -0.21, 0.17]),
        (
            [2147483640.3, -2147483641.7, 4294967290.0, 7.0],
            [1.1, 0.9, 0.77, 0.5],
        ),
    ];
    setups.iter().map(|&(o, st)| uniform(o, st, size)).collect()
}

fn noises<const D: usize>() -> Vec<(String, Noise<D>)> {
    let mut v = Vec::new();
    for (k, kind) in NoiseKind::ALL.into_iter().enumerate() {
        let n = Noise::<D>::new(kind, 77 + k as u64);
        v.push((kind.to_string(), n));
        let period = core::array::from_fn(|a| [6, 4, 8, 2][a]);
        if let Ok(p) = n.with_period(period) {
            v.push((format!("periodic {kind}"), p));
        }
    }
    v
}

type Named<T> = Vec<(String, T)>;

fn composites<const D: usize>() -> (Named<Fractal<D>>, Named<Warp<D>>) {
    let mut fractals = Vec::new();
    let mut warps = Vec::new();
    for (k, noise) in NoiseKind::ALL.into_iter().enumerate() {
        let kind = FractalKind::ALL[k % FractalKind::ALL.len()];
        let params = FractalParams {
            octaves: 3,
            frequency: 0.75,
            ..FractalParams::new(kind)
        };
        let n = Noise::<D>::new(noise, 500 + k as u64);
        let f = Fractal::new(n, params).unwrap();
        fractals.push((format!("{kind} {noise}"), f.clone()));
        let mut wp = WarpParams::new(WarpKind::ALL[k % WarpKind::ALL.len()]);
        wp.amplitude = 0.6;
        wp.fractal.octaves = 2;
        let w = Warp::new(f, Noise::new(NoiseKind::ALL[(k + 1) % 4], 9), wp).unwrap();
        warps.push((format!("warped {kind} {noise}"), w));
    }
    (fractals, warps)
}

fn all<F: Float, const D: usize>() {
    let grids = grids::<F, D>();
    for (name, n) in noises::<D>() {
        for g in &grids {
            check(&name, &n, g);
        }
    }
    let (fractals, warps) = composites::<D>();
    // Small steps (grid 0: lanes share cells) and large ones (grid 1).
    for (name, f) in &fractals {
        check(name, f, &grids[0]);
        check(name, f, &grids[1]);
    }
    for (name, w) in &warps {
        check(name, w, &grids[0]);
    }
    let stack = Stack {
        noise: NoiseKind::Simplex,
        seed: 3,
        frequency: 0.4,
        fractal: Some(FractalDesc {
            kind: FractalKind::Ridged,
            octaves: 4,
            ..FractalDesc::default()
        }),
        warp: Some(WarpDesc {
            amplitude: 1.5,
            ..WarpDesc::default()
        }),
        ..Stack::default()
    };
    check("stack", &stack.build::<D>().unwrap(), &grids[2]);
    // A domain offset moves every octave's own offset: the same program
    // shape, so the same paths (value and Perlin fractals go octave by
    // octave along grid rows) and the same bits, from small offsets to ones
    // that carry the coordinates past f32's fractions.
    let offsets = [[0.37, -2.5, 0.0, 11.0], [1e6 + 0.3, -3.5e5, 7.25, -0.0]];
    for (k, noise) in NoiseKind::ALL.into_iter().enumerate() {
        let o = offsets[k % 2];
        let moved = Stack {
            noise,
            seed: 21,
            frequency: 0.6,
            offset: Some(o[..D].to_vec()),
            fractal: Some(FractalDesc {
                kind: FractalKind::ALL[k % FractalKind::ALL.len()],
                octaves: 3,
                ..FractalDesc::default()
            }),
            warp: (k % 3 == 2).then(|| WarpDesc {
                kind: WarpKind::ALL[k % 2],
                amplitude: 0.9,
                ..WarpDesc::default()
            }),
            ..Stack::default()
        };
        let e = moved.build::<D>().unwrap();
        check(&format!("stack {noise} moved"), &e, &grids[0]);
        check(&format!("stack {noise} moved"), &e, &grids[1]);
    }
    // Turned octaves (the field's and a warp's) read each octave at R·p,
    // which leaves no grid row to follow: one vector at a time, and the
    // same bits, at large coordinates too.
    let rows = [
        NoiseKind::Value,
        NoiseKind::Perlin,
        NoiseKind::Simplex,
        NoiseKind::Cellular,
    ];
    for (k, noise) in rows.into_iter().enumerate() {
        let turned = Stack {
            noise,
            seed: 40 + k as u64,
            frequency: 0.6,
            offset: (k % 2 == 1).then(|| offsets[0][..D].to_vec()),
            fractal: Some(FractalDesc {
                kind: FractalKind::ALL[k],
                octaves: 3,
                rotation: 0.6 + k as f64,
                ..FractalDesc::default()
            }),
            warp: (k == 2).then(|| WarpDesc {
                amplitude: 0.9,
                fractal: Some(FractalDesc {
                    octaves: 2,
                    rotation: -1.1,
                    ..FractalDesc::default()
                }),
                ..WarpDesc::default()
            }),
            ..Stack::default()
        };
        let e = turned.build::<D>().unwrap();
        check(&format!("stack {noise} turned"), &e, &grids[0]);
        check(&format!("stack {noise} turned"), &e, &grids[2]);
    }
    let tiled = Stack {
        noise: NoiseKind::Perlin,
        frequency: 0.75,
        period: Some(vec![6; D]),
        offset: Some(offsets[0][..D].to_vec()),
        fractal: Some(FractalDesc::default()),
        ..Stack::default()
    };
    check(
        "tiled Perlin stack moved",
        &tiled.build::<D>().unwrap(),
        &grids[3],
    );
}

#[test]
fn grid_equals_point_1d() {
    all::<f32, 1>();
    all::<f64, 1>();
}

#[test]
fn grid_equals_point_2d() {
    all::<f32, 2>();
    all::<f64, 2>();
}

#[test]
fn grid_equals_point_3d() {
    all::<f32, 3>();
    all::<f64, 3>();
}

#[test]
fn grid_equals_point_4d() {
    all::<f32, 4>();
    all::<f64, 4>();
}

/// The uniform grid at `origin` with `step` (the first `D` of each) and
/// `size` points per axis.
fn uniform<F: Float, const D: usize, const N: usize>(
    origin: [f64; N],
    step: [f64; N],
    size: [usize; D],
) -> Grid<F, D> {
    Grid::uniform(
        core::array::from_fn(|a| F::from_f64(origin[a])),
        core::array::from_fn(|a| F::from_f64(step[a])),
        size,
    )
    .unwrap()
}

/// Rows long enough that value and Perlin noise share one row's columns
/// across several windows of x lattice positions, forwards and backwards,
/// with periods smaller and larger than a window, and in fractals, whose
/// octaves each keep their own row.
#[test]
fn long_rows_equal_points() {
    fn rows<F: Float, const D: usize>() {
        let size: [usize; D] = core::array::from_fn(|a| if a == 0 { 611 } else { 2 });
        let grids = [
            ([-20.3, 0.4, -1.1, 2.0], [0.0517, 0.25, 0.7, 0.3]),
            ([9.7, -3.2, 0.0, 1.0], [-0.0397, 0.5, 0.25, 1.0]),
            ([4294967000.0, 0.0, 0.0, 0.0], [0.3, 1.0, 1.0, 1.0]),
        ]
        .map(|(o, st)| uniform::<F, D, 4>(o, st, size));
        for kind in [NoiseKind::Value, NoiseKind::Perlin] {
            let n = Noise::<D>::new(kind, 5);
            let fields = [
                n,
                n.with_period(core::array::from_fn(|a| [5, 4, 8, 2][a]))
                    .unwrap(),
                n.with_period(core::array::from_fn(|a| [40, 6, 4, 2][a]))
                    .unwrap(),
            ];
            for (i, f) in fields.iter().enumerate() {
                for g in &grids {
                    check(&format!("long rows {kind} #{i}"), f, g);
                }
            }
            let params = FractalParams {
                octaves: 3,
                frequency: 0.9,
                ..FractalParams::new(FractalKind::Fbm)
            };
            let fr = Fractal::new(n, params).unwrap();
            for g in &grids {
                check(&format!("long rows fBm {kind}"), &fr, g);
            }
            // Longer than the stretch whose columns one band keeps (4096
            // points), ending partway through a vector, with a step whose
            // vectors sometimes span three cells.
            let size: [usize; D] = core::array::from_fn(|a| if a == 0 { 4203 } else { 2 });
            let origin = core::array::from_fn(|a| F::from_f64([-7.1, 0.3, 2.2, -0.6][a]));
            for step in [0.0113, 0.29] {
                let steps = core::array::from_fn(|a| F::from_f64([step, 0.5, 0.25, 1.0][a]));
                let g = Grid::<F, D>::uniform(origin, steps, size).unwrap();
                check(&format!("longer rows {kind} {step}"), &fields[0], &g);
                check(&format!("longer rows {kind} {step}, tiled"), &fields[2], &g);
            }
        }
    }
    rows::<f32, 1>();
    rows::<f64, 1>();
    rows::<f32, 2>();
    rows::<f64, 2>();
    rows::<f32, 3>();
    rows::<f64, 3>();
    rows::<f32, 4>();
}

/// 3D value and Perlin grids whose slices share z cells and whose rows
/// share y cells (the band engine's reuse, and any memo of corners a
/// later engine keeps across slices): many y cells, rows longer than 64
/// vectors, periods, a fractal's octaves (each its own cache), in both
/// precisions.
#[test]
fn bands_of_one_z_cell_equal_points() {
    fn slices<F: Float>() {
        let grid = |o: [f64; 3], st: [f64; 3], size: [usize; 3]| {
            Grid::<F, 3>::uniform(o.map(F::from_f64), st.map(F::from_f64), size).unwrap()
        };
        let grids = [
            // 9 slices in one or two z cells, rows of several vectors.
            grid([-3.3, 0.71, -0.2], [0.0371, 0.043, 0.09], [37, 23, 9]),
            // More y cells (25) than a z cell keeps (16).
            grid([0.4, -5.05, 1.3], [0.31, 0.21, 0.07], [9, 120, 3]),
            // A row longer than the kept stretch (64 vectors).
            grid([1.7, 0.2, -4.1], [0.013, 0.3, 0.2], [1100, 3, 3]),
        ];
        for kind in [NoiseKind::Value, NoiseKind::Perlin] {
            let n = Noise::<3>::new(kind, 21);
            let periodic = n.with_period([5, 3, 2]).unwrap();
            let fbm = Fractal::new(
                n,
                FractalParams {
                    octaves: 3,
                    frequency: 0.7,
                    ..FractalParams::new(FractalKind::Fbm)
                },
            )
            .unwrap();
            for g in &grids {
                check(&format!("z cell {kind}"), &n, g);
                check(&format!("z cell periodic {kind}"), &periodic, g);
                check(&format!("z cell fBm {kind}"), &fbm, g);
            }
        }
    }
    slices::<f32>();
    slices::<f64>();
}

/// Cellular grids read the cells' points from tables shared along and
/// across rows (2D and 3D), and so do a fractal's octaves: every
/// distance, return and jitter, with and without periods, rows
/// longer than a table's first stretch, rows whose vectors span more
/// cells than lanes (hashed per lane instead), rows crossing cell
/// boundaries on the outer axes, large and negative origins, and the
/// searches that widen past the first ring (jitter 1, F2).
#[test]
fn cellular_rows_equal_points() {
    fn rows<F: Float, const D: usize>() {
        let size: [usize; D] = core::array::from_fn(|a| [203, 7, 3][a]);
        let grids = [
            ([-20.3, 0.4, -1.1], [0.0517, 0.31, 0.7]),
            ([9.7, -3.2, 0.0], [0.0113, 0.125, 0.25]),
            ([4294967000.0, -2147483000.0, 3e5], [0.2, 1.0, 0.5]),
            ([0.5, 0.5, 0.5], [1.3, 0.9, 1.1]),
        ]
        .map(|(o, st)| uniform::<F, D, 3>(o, st, size));
        for (i, distance) in CellularDistance::ALL.into_iter().enumerate() {
            for (k, ret) in CellularReturn::ALL.into_iter().enumerate() {
                let jitter = [1.0, 0.45, 0.0][(i + k) % 3];
                let n = Noise::<D>::new(NoiseKind::Cellular, 3 + k as u64)
                    .with_cellular(Cellular::new(distance, ret, jitter).unwrap())
                    .unwrap();
                for g in &grids[(i + k) % 2..] {
                    check(&format!("cellular rows {distance} {ret} {jitter}"), &n, g);
                }
                // A fractal's octaves keep tables of their own, and the
                // higher octaves' vectors span too many cells for them.
                let params = FractalParams {
                    octaves: 3,
                    frequency: 0.8,
                    ..FractalParams::new(FractalKind::ALL[(i + k) % FractalKind::ALL.len()])
                };
                let fr = Fractal::new(n, params).unwrap();
                check(
                    &format!("cellular rows fractal {distance} {ret}"),
                    &fr,
                    &grids[1],
                );
                // Periodic cells wrap inside a row (a vector across the
                // seam hashes) and the tables hold the wrapped cells.
                let period = [[5, 4, 3], [40, 6, 4]][(i + k) % 2];
                let tiled = n.with_period(core::array::from_fn(|a| period[a])).unwrap();
                for g in &grids[..2] {
                    check(&format!("cellular rows tiled {distance} {ret}"), &tiled, g);
                }
                let fr = Fractal::new(tiled, params).unwrap();
                check(
                    &format!("cellular rows tiled fractal {distance} {ret}"),
                    &fr,
                    &grids[0],
                );
            }
        }
    }
    rows::<f32, 2>();
    rows::<f64, 2>();
    rows::<f32, 3>();
    rows::<f64, 3>();
}

/// Fractals of value and Perlin noise go octave by octave along grid rows
/// (every octave over a chunk of the row, then each point's sum): every
/// fractal kind, with and without periods, rows longer than a chunk, and
/// rows where a high octave's coordinates overflow on some lanes and not
/// others (those lanes are saturated, and their vectors take the per-lane
/// path).
#[test]
fn fractal_rows_equal_points() {
    fn rows<F: Float, const D: usize>() {
        let size: [usize; D] = core::array::from_fn(|a| if a == 0 { 523 } else { 2 });
        let grid = |o: [f64; 4], st: [f64; 4]| uniform::<F, D, 4>(o, st, size);
        let plain = grid([-7.3, 0.4, -1.1, 2.0], [0.0517, 0.25, 0.7, 0.3]);
        for kind in [NoiseKind::Value, NoiseKind::Perlin] {
            let n = Noise::<D>::new(kind, 11);
            let periodic = n
                .with_period(core::array::from_fn(|a| [8, 4, 6, 2][a]))
                .unwrap();
            for fk in FractalKind::ALL {
                for (what, noise) in [("", n), ("periodic ", periodic)] {
                    let params = FractalParams {
                        octaves: 4,
                        frequency: 0.9,
                        ..FractalParams::new(fk)
                    };
                    let f = Fractal::new(noise, params).unwrap();
                    check(&format!("{what}{fk} {kind} rows"), &f, &plain);
                }
            }
            // x · frequency passes the float range partway along the row
            // (and further in higher octaves).
            let max = if F::PRECISION > 24 { 1.7e308 } else { 3.4e38 };
            let freq = max / 300.0;
            let over = grid([1.0, 0.5, 0.25, 0.125], [0.6, 1.0, 1.0, 1.0]);
            let params = FractalParams {
                octaves: 3,
                frequency: freq,
                ..FractalParams::new(FractalKind::Fbm)
            };
            let f = Fractal::new(n, params).unwrap();
            check(&format!("overflowing {kind} rows"), &f, &over);
        }
    }
    rows::<f32, 1>();
    rows::<f64, 1>();
    rows::<f32, 2>();
    rows::<f64, 2>();
    rows::<f32, 3>();
    rows::<f64, 3>();
    rows::<f32, 4>();
}

/// Runs `f` on a rayon pool of `threads` threads.
fn on_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

fn parallel<F: Float, const D: usize>(field: &impl Field<D>, grid: &Grid<F, D>) {
    let one = on_threads(1, || run(field, Isa::detect(), grid, true));
    for threads in [2, 3] {
        let many = on_threads(threads, || run(field, Isa::detect(), grid, true));
        assert!(
            one.0.iter().zip(&many.0).all(|(a, b)| same(*a, *b)),
            "{threads} threads: values differ from one thread"
        );
        for a in 0..D {
            assert!(
                one.1[a].iter().zip(&many.1[a]).all(|(x, y)| same(*x, *y)),
                "{threads} threads: gradient {a} differs from one thread"
            );
        }
        assert_eq!(one.2, many.2, "{threads} threads: bounds");
    }
    // Point arrays too: the grid's points, filled in parallel.
    let n = grid.len();
    let pts: Vec<Vec<F>> = (0..D)
        .map(|a| (0..n).map(|i| grid.point(i)[a]).collect())
        .collect();
    let coords: [&[F]; D] = core::array::from_fn(|a| pts[a].as_slice());
    let fill = |threads| {
        on_threads(threads, || {
            let mut out = vec![F::ZERO; n];
            field
                .fill_on(Isa::detect(), coords, &mut out, None)
                .unwrap();
            out
        })
    };
    let (a, b) = (fill(1), fill(2));
    assert!(a.iter().zip(&b).all(|(x, y)| same(*x, *y)));
    assert!(
        a.iter().zip(&one.0).all(|(x, y)| same(*x, *y)),
        "fill differs from grid"
    );
}

#[test]
fn parallel_equals_serial() {
    // Big enough to be split into blocks, with rows that do not divide the
    // block size.
    let g2 = Grid::<f32, 2>::uniform([-3.3, 1e4], [0.0173, 0.31], [333, 211]).unwrap();
    let g3 = Grid::<f64, 3>::uniform([0.5, -7.0, 2.0], [0.1, 0.07, 0.3], [41, 37, 29]).unwrap();
    let g4 = Grid::<f64, 4>::uniform([0.0; 4], [0.3, 0.2, 0.1, 0.7], [17, 15, 13, 11]).unwrap();
    for kind in NoiseKind::ALL {
        parallel(&Noise::<2>::new(kind, 1), &g2);
        parallel(&Noise::<3>::new(kind, 2), &g3);
        parallel(&Noise::<4>::new(kind, 3), &g4);
    }
    let (fractals, warps) = composites::<2>();
    parallel(&fractals[0].1, &g2);
    parallel(&warps[1].1, &g2);
}

#[test]
fn uniform_grid_points_are_documented_arithmetic() {
    let g = Grid::<f32, 2>::uniform([0.1, -2.5], [0.3, 1.0 / 3.0], [5, 4]).unwrap();
    assert_eq!(g.shape(), [5, 4]);
    assert_eq!(g.len(), 20);
    for j in 0..4 {
        for i in 0..5 {
            let p = g.point(i + 5 * j);
            assert_eq!(p[0].to_bits(), (0.1f32 + i as f32 * 0.3f32).to_bits());
            assert_eq!(
                p[1].to_bits(),
                (-2.5f32 + j as f32 * (1.0f32 / 3.0)).to_bits()
            );
        }
    }
}

#[test]
fn bad_grid_calls_are_errors() {
    let n = Noise::<2>::new(NoiseKind::Perlin, 1);
    let g = Grid::<f64, 2>::uniform([0.0; 2], [0.5; 2], [4, 3]).unwrap();
    let mut short = vec![0.0; 11];
    assert!(matches!(
        n.grid(&g, &mut short),
        Err(Error::Length {
            expected: 12,
            found: 11,
            ..
        })
    ));
    let mut out = vec![0.0; 12];
    let mut gx = vec![0.0; 12];
    let mut gy = vec![0.0; 13];
    assert!(matches!(
        n.grid_gradient(&g, &mut out, [&mut gx, &mut gy]),
        Err(Error::Length { found: 13, .. })
    ));
    let huge = Grid::<f32, 3>::uniform([0.0; 3], [1.0; 3], [1 << 40, 1 << 40, 0]);
    assert!(matches!(huge, Err(Error::Parameter { .. })), "{huge:?}");
    let empty = Grid::<f32, 2>::uniform([0.0; 2], [1.0; 2], [0, 7]).unwrap();
    let b = n.grid(&empty, &mut []).unwrap();
    assert_eq!((b.min, b.max), (f32::INFINITY, f32::NEG_INFINITY));
    // NaN points give NaN values and do not enter the bounds.
    let g = Grid::from_axes([vec![0.25f64, f64::NAN, 0.5], vec![0.75]]).unwrap();
    let mut out = vec![0.0; 3];
    let b = n.grid(&g, &mut out).unwrap();
    assert!(out[1].is_nan());
    assert_eq!(b.min, out[0].min(out[2]));
    assert_eq!(b.max, out[0].max(out[2]));
}

/// Value and Perlin grids, plain and fractal, go a run of whole rows at a
/// time, the rows of one band after its first with no call: rows whose y,
/// z or w is NaN, infinite or past the precision limit (which take the
/// point kernel or the per-lane path) between and among ordinary rows,
/// many rows to a band, and non-finite x coordinates in the rows.
#[test]
fn rows_with_odd_coordinates_equal_points() {
    fn rows<F: Float, const D: usize>() {
        let f = |v: f64| F::from_f64(v);
        let odd = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 3e38, -1e30];
        // y: runs of rows in one cell, then odd values, then more runs.
        let mut ys: Vec<F> = (0..12).map(|i| f(0.1 + 0.07 * i as f64)).collect();
        ys.splice(5..5, odd.iter().map(|&v| f(v)));
        ys.extend((0..6).map(|i| f(-2.3 + 0.11 * i as f64)));
        let xs_plain: Vec<F> = (0..45).map(|i| f(-1.7 + 0.093 * i as f64)).collect();
        let mut xs_odd = xs_plain.clone();
        xs_odd[3] = f(f64::NAN);
        xs_odd[20] = f(f64::INFINITY);
        xs_odd[33] = f(1e37);
        for xs in [xs_plain, xs_odd] {
            for zs in [
                vec![f(0.25), f(0.5)],
                vec![f(0.3), f(f64::NAN), f(f64::INFINITY)],
            ] {
                let axes: [Vec<F>; D] = core::array::from_fn(|a| match a {
                    0 => xs.clone(),
                    1 => ys.clone(),
                    2 => zs.clone(),
                    _ => vec![f(0.7)],
                });
                let g = Grid::from_axes(axes).unwrap();
                for kind in [NoiseKind::Value, NoiseKind::Perlin] {
                    let n = Noise::<D>::new(kind, 21);
                    check(&format!("odd rows {kind}"), &n, &g);
                    let p = n
                        .with_period(core::array::from_fn(|a| [8, 4, 6, 2][a]))
                        .unwrap();
                    check(&format!("odd rows periodic {kind}"), &p, &g);
                    for fk in [FractalKind::Fbm, FractalKind::Ridged] {
                        let params = FractalParams {
                            octaves: 3,
                            frequency: 1.3,
                            ..FractalParams::new(fk)
                        };
                        let fr = Fractal::new(n, params).unwrap();
                        check(&format!("odd rows {fk} {kind}"), &fr, &g);
                    }
                }
            }
        }
    }
    rows::<f32, 2>();
    rows::<f64, 2>();
    rows::<f32, 3>();
    rows::<f64, 3>();
    rows::<f32, 4>();
}

/// Rectilinear grids whose axes are not the sorted, evenly spaced ones a
/// uniform grid makes: shuffled (the band engine must not assume that the
/// next x lies to the right), repeated (the same coordinate several times,
/// so a cached column is reused or recomputed the same), far apart (1e6 and
/// more between neighbours, every coordinate in its own cell and window),
/// and all three at once, with cell faces and negative zero among them.
/// Every noise (periodic too), fractal and warp gives each point the bits
/// of the single-point call, on every instruction set, with and without
/// the gradient.
fn irregular_grids<F: Float, const D: usize>() -> Vec<Grid<F, D>> {
    let big = if F::PRECISION > 24 { 1e9 } else { 1e5 };
    let shuffled = [
        3.7, -1.2, 0.0, 12.9, 3.6, -0.0, 1.0, -7.25, 2.5, 0.3, 9.0, -3.3, 5.5,
    ];
    let repeated = [0.5, 0.5, 0.5, 2.0, 0.5, -1.5, -1.5, 2.0, 2.0, 0.5];
    let far = [-big, 0.25, big, -3.0 * big, 7.5, 2.0 * big + 0.5, -0.75];
    let mixed = [big, 0.5, -big, 0.5, 17.0, big, -4.0, 0.0, 17.0, -big, 3.25];
    let lengths: [usize; 4] = match D {
        1 => [usize::MAX; 4],
        2 => [usize::MAX, 7, 1, 1],
        3 => [usize::MAX, 5, 4, 1],
        _ => [usize::MAX, 4, 3, 3],
    };
    let lists = [&shuffled[..], &repeated, &far, &mixed];
    (0..lists.len())
        .map(|k| {
            // Axis a takes list k + a, so that every kind of irregularity
            // meets every axis.
            let axes: [Vec<F>; D] = core::array::from_fn(|a| {
                lists[(k + a) % lists.len()]
                    .iter()
                    .take(lengths[a])
                    .map(|&v| F::from_f64(v + a as f64 * 0.125))
                    .collect()
            });
            Grid::from_axes(axes).unwrap()
        })
        .collect()
}

fn irregular<F: Float, const D: usize>() {
    let grids = irregular_grids::<F, D>();
    for (name, n) in noises::<D>() {
        for g in &grids {
            check(&name, &n, g);
        }
    }
    let (fractals, warps) = composites::<D>();
    for (name, f) in &fractals {
        for g in &grids {
            check(name, f, g);
        }
    }
    for (name, w) in &warps {
        check(name, w, &grids[3]);
    }
}

#[test]
fn shuffled_repeated_and_far_apart_axes_equal_points() {
    irregular::<f32, 1>();
    irregular::<f64, 1>();
    irregular::<f32, 2>();
    irregular::<f64, 2>();
    irregular::<f32, 3>();
    irregular::<f64, 3>();
    irregular::<f32, 4>();
    irregular::<f64, 4>();
}
