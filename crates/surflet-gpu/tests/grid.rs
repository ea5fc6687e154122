//! The GPU grid against surflet's CPU `Grid::window`, bit for bit, with
//! probe functions that return their coordinates.
//!
//! Without a GPU adapter the tests print why and pass, except where `CI` is
//! `true` (CI installs lavapipe), where they fail.

use surflet::Grid;
use surflet_gpu::{GpuError, GridKernel};

mod common;
use common::context;

const PROBE2: &str = "
fn probe(p: vec2<f32>) -> f32 { return p.x; }
fn probe_gradient(p: vec2<f32>) -> vec3<f32> { return vec3<f32>(p.x, p.y, 0.0); }
fn probe_y(p: vec2<f32>) -> f32 { return p.y; }
";

const PROBE3: &str = "
fn probe(p: vec3<f32>) -> f32 { return p.x; }
fn probe_gradient(p: vec3<f32>) -> vec4<f32> { return vec4<f32>(p.x, p.y, p.z, 0.0); }
";

const PROBE4: &str = "
struct SurfletSample4d { value: f32, gradient: vec4<f32> }
fn probe(p: vec4<f32>) -> f32 { return p.x; }
fn probe_gradient(p: vec4<f32>) -> SurfletSample4d { return SurfletSample4d(p.x, p.yzwx); }
";

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// Origin, step, start and size of a window.
type Window = ([f32; 3], [f32; 3], [u64; 3], [usize; 3]);

/// The windows the 2D and 3D tests take: odd origins and steps, starts
/// from 0 past 2^24.
fn windows() -> Vec<Window> {
    vec![
        (
            [0.1, -3.7, 0.37],
            [0.37, 1.0 / 3.0, 0.1],
            [0, 0, 0],
            [37, 23, 5],
        ),
        (
            [-3.7, 0.1, 1.0 / 3.0],
            [1.0 / 3.0, 0.37, -3.7],
            [5, 7, 11],
            [64, 9, 4],
        ),
        (
            [1.0 / 3.0, 0.37, -3.7],
            [0.1, -3.7, 1.0 / 3.0],
            [1 << 20, (1 << 20) + 3, 999],
            [70, 6, 3],
        ),
        (
            [0.37, 1.0 / 3.0, 0.1],
            [-3.7, 0.1, 0.37],
            [(1 << 24) + 1, (1 << 24) - 3, (1 << 25) + 7],
            [33, 9, 4],
        ),
        (
            [-3.7, 0.1, 0.37],
            [0.37, 1.0 / 3.0, 0.1],
            [(1 << 30) + 12345, 3_000_000_007, 1 << 26],
            [17, 5, 3],
        ),
    ]
}

#[test]
fn probe_2d_matches_cpu_grid_bits() {
    let Some(ctx) = context() else { return };
    let value = GridKernel::new(&ctx, PROBE2, "probe", 2, false).unwrap();
    let value_y = GridKernel::new(&ctx, PROBE2, "probe_y", 2, false).unwrap();
    let grad = GridKernel::new(&ctx, PROBE2, "probe", 2, true).unwrap();
    for (o, s, st, n) in windows() {
        let (o, s, st, n) = ([o[0], o[1]], [s[0], s[1]], [st[0], st[1]], [n[0], n[1]]);
        let cpu = Grid::window(o, s, st.map(|x| x as usize), n).unwrap();
        let x = cpu.axis(0);
        let y = cpu.axis(1);
        let want_x: Vec<f32> = (0..cpu.len()).map(|i| x[i % n[0]]).collect();
        let want_y: Vec<f32> = (0..cpu.len()).map(|i| y[i / n[0]]).collect();

        let out = value.grid(&ctx, &o, &s, &st, &n).unwrap();
        assert_eq!(bits(&out.values), bits(&want_x), "x, window {st:?}");
        assert!(out.gradient.is_none());
        let out_y = value_y.grid(&ctx, &o, &s, &st, &n).unwrap();
        assert_eq!(bits(&out_y.values), bits(&want_y), "y, window {st:?}");

        let g = grad.grid(&ctx, &o, &s, &st, &n).unwrap();
        assert_eq!(bits(&g.values), bits(&want_x));
        let gv = g.gradient.unwrap();
        assert_eq!(gv.len(), 2);
        assert_eq!(bits(&gv[0]), bits(&want_y), "gradient x = p.y");
        assert!(gv[1].iter().all(|v| v.to_bits() == 0), "gradient y = 0");

        let lo = want_x.iter().copied().fold(f32::INFINITY, f32::min);
        let hi = want_x.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        assert_eq!(out.bounds, (lo + 0.0, hi + 0.0));
    }
}

#[test]
fn probe_3d_matches_cpu_grid_bits() {
    let Some(ctx) = context() else { return };
    let value = GridKernel::new(&ctx, PROBE3, "probe", 3, false).unwrap();
    let grad = GridKernel::new(&ctx, PROBE3, "probe", 3, true).unwrap();
    for (o, s, st, n) in windows() {
        let cpu = Grid::window(o, s, st.map(|x| x as usize), n).unwrap();
        let axes = [cpu.axis(0), cpu.axis(1), cpu.axis(2)];
        let want: Vec<Vec<f32>> = (0..3)
            .map(|a| (0..cpu.len()).map(|i| cpu.point(i)[a]).collect())
            .collect();
        assert_eq!(want[0][1], axes[0][1]);

        let out = value.grid(&ctx, &o, &s, &st, &n).unwrap();
        assert_eq!(bits(&out.values), bits(&want[0]), "x, window {st:?}");
        let g = grad.grid(&ctx, &o, &s, &st, &n).unwrap();
        assert_eq!(bits(&g.values), bits(&want[0]));
        let gv = g.gradient.unwrap();
        assert_eq!(gv.len(), 3);
        assert_eq!(bits(&gv[0]), bits(&want[1]), "y, window {st:?}");
        assert_eq!(bits(&gv[1]), bits(&want[2]), "z, window {st:?}");
        assert!(gv[2].iter().all(|v| v.to_bits() == 0));
    }
}

#[test]
fn many_passes_give_the_bits_of_one() {
    let Some(ctx) = context() else { return };
    let (o, s, st, n) = (
        [0.1f32, -3.7, 1.0 / 3.0],
        [0.37f32, 1.0 / 3.0, 0.1],
        [3u64, 1 << 20, 7],
        [37usize, 19, 11],
    );
    let one = GridKernel::new(&ctx, PROBE3, "probe", 3, true).unwrap();
    let whole = one.grid(&ctx, &o, &s, &st, &n).unwrap();
    // Pass sizes that cut rows and slices in the middle, and one point.
    for pass in [1000, 37 * 19, 64, 63, 1] {
        let mut k = GridKernel::new(&ctx, PROBE3, "probe", 3, true).unwrap();
        k.set_pass_points(pass);
        let out = k.grid(&ctx, &o, &s, &st, &n).unwrap();
        assert_eq!(bits(&out.values), bits(&whole.values), "pass {pass}");
        let (a, b) = (
            out.gradient.unwrap(),
            whole.gradient.as_ref().unwrap().clone(),
        );
        for d in 0..3 {
            assert_eq!(bits(&a[d]), bits(&b[d]), "pass {pass}, axis {d}");
        }
        assert_eq!(out.bounds, whole.bounds);
    }
    let cpu = Grid::window(o, s, st.map(|x| x as usize), n).unwrap();
    let want: Vec<f32> = (0..cpu.len()).map(|i| cpu.point(i)[0]).collect();
    assert_eq!(bits(&whole.values), bits(&want));
}

/// 4D: the points of the CPU's grid, whole and in passes that cut it
/// anywhere; the gradient read from the 4D struct.
#[test]
fn probe_4d_matches_cpu_grid_bits() {
    let Some(ctx) = context() else { return };
    for (k, (o, s, st, n)) in windows().into_iter().enumerate() {
        let (o, s) = ([o[0], o[1], o[2], s[0]], [s[0], s[1], s[2], o[1]]);
        let (st, n) = (
            [st[0], st[1], st[2], st[0] + 5],
            [n[0], n[1], n[2], 2 + k % 2],
        );
        let cpu = Grid::window(o, s, st.map(|x| x as usize), n).unwrap();
        let want: Vec<Vec<f32>> = (0..4)
            .map(|a| (0..cpu.len()).map(|i| cpu.point(i)[a]).collect())
            .collect();
        let value = GridKernel::new(&ctx, PROBE4, "probe", 4, false).unwrap();
        let out = value.grid(&ctx, &o, &s, &st, &n).unwrap();
        assert_eq!(bits(&out.values), bits(&want[0]), "x, window {st:?}");
        for pass in [usize::MAX, n[0] * n[1] * n[2], 63] {
            let mut grad = GridKernel::new(&ctx, PROBE4, "probe", 4, true).unwrap();
            grad.set_pass_points(pass);
            let g = grad.grid(&ctx, &o, &s, &st, &n).unwrap();
            assert_eq!(bits(&g.values), bits(&want[0]));
            let gv = g.gradient.unwrap();
            // The probe's gradient is (y, z, w, x).
            for (a, got) in gv.iter().enumerate() {
                let axis = (a + 1) % 4;
                assert_eq!(
                    bits(got),
                    bits(&want[axis]),
                    "axis {axis}, window {st:?}, pass {pass}"
                );
            }
        }
    }
}

/// More than 2^24 points: two passes at the default pass size.
#[test]
fn default_passes_over_2_pow_24_points() {
    let Some(ctx) = context() else { return };
    let k = GridKernel::new(&ctx, PROBE2, "probe", 2, true).unwrap();
    let (o, s, st, n) = (
        [-3.7f32, 0.1],
        [1.0f32 / 3.0, 0.37],
        [1u64 << 24, 5],
        [4099usize, 4097],
    );
    let out = k.grid(&ctx, &o, &s, &st, &n).unwrap();
    let cpu = Grid::window(o, s, st.map(|x| x as usize), n).unwrap();
    let (x, y) = (cpu.axis(0), cpu.axis(1));
    let g = out.gradient.unwrap();
    assert_eq!(out.values.len(), n[0] * n[1]);
    for (i, (v, gy)) in out.values.iter().zip(&g[0]).enumerate() {
        assert_eq!(v.to_bits(), x[i % n[0]].to_bits(), "point {i}");
        assert_eq!(gy.to_bits(), y[i / n[0]].to_bits(), "point {i}");
    }
    assert_eq!(out.bounds, (x[0], x[n[0] - 1]));
}

#[test]
fn bad_input_is_refused() {
    let Some(ctx) = context() else { return };
    let k = GridKernel::new(&ctx, PROBE2, "probe", 2, false).unwrap();
    let ok = |r: Result<_, GpuError>| r.map(|_| ());
    for (o, s) in [
        ([f32::NAN, 0.0], [1.0, 1.0]),
        ([0.0, f32::INFINITY], [1.0, 1.0]),
        ([0.0, 0.0], [f32::NEG_INFINITY, 1.0]),
        ([0.0, 0.0], [1.0, f32::NAN]),
    ] {
        let e = ok(k.grid(&ctx, &o, &s, &[0, 0], &[4, 4])).unwrap_err();
        assert!(matches!(e, GpuError::Input(_)), "{e}");
        assert!(e.to_string().contains("non-finite"), "{e}");
        let e = k.time_dispatch(&ctx, &o, &s, &[4, 4], 1).unwrap_err();
        assert!(matches!(e, GpuError::Input(_)), "{e}");
    }
    for size in [[0usize, 4], [4, 0]] {
        let e = ok(k.grid(&ctx, &[0.0; 2], &[1.0; 2], &[0, 0], &size)).unwrap_err();
        assert!(e.to_string().contains("empty"), "{e}");
    }
    let e = ok(k.grid(&ctx, &[0.0; 2], &[1.0; 2], &[0, 0], &[usize::MAX, 2])).unwrap_err();
    assert!(e.to_string().contains("overflow"), "{e}");
    let e = ok(k.grid(&ctx, &[0.0; 2], &[1.0; 2], &[u64::MAX, 0], &[2, 2])).unwrap_err();
    assert!(e.to_string().contains("overflow"), "{e}");
    let e = ok(k.grid(&ctx, &[0.0; 3], &[1.0; 2], &[0, 0], &[2, 2])).unwrap_err();
    assert!(matches!(e, GpuError::Input(_)), "{e}");
    // Too large for host memory (or the device): refused, not aborted.
    let e = ok(k.grid(&ctx, &[0.0; 2], &[1.0; 2], &[0, 0], &[1 << 31, 1 << 31])).unwrap_err();
    assert!(matches!(e, GpuError::Memory(_)), "{e}");
    assert!(
        k.time_dispatch(&ctx, &[0.0; 2], &[1.0; 2], &[4, 4], 0)
            .is_err()
    );
}

#[test]
fn wgsl_errors_are_errors() {
    let Some(ctx) = context() else { return };
    let e = GridKernel::new(
        &ctx,
        "fn probe(p: vec2<f32>) -> f32 { return p.x }",
        "probe",
        2,
        false,
    )
    .unwrap_err();
    assert!(matches!(e, GpuError::Shader(_)), "{e}");
    eprintln!("syntax error: {e}");
    let e = GridKernel::new(&ctx, PROBE2, "nothing", 2, false).unwrap_err();
    assert!(matches!(e, GpuError::Shader(_)), "{e}");
    assert!(e.to_string().contains("nothing"), "{e}");
    eprintln!("missing function: {e}");
    // The gradient of a source without one; the 3D entry point on 2D functions.
    let src = "fn probe(p: vec2<f32>) -> f32 { return p.x; }";
    assert!(GridKernel::new(&ctx, src, "probe", 2, true).is_err());
    assert!(GridKernel::new(&ctx, src, "probe", 3, false).is_err());
    assert!(GridKernel::new(&ctx, src, "probe", 4, false).is_err());
    for dims in [1, 5] {
        assert!(matches!(
            GridKernel::new(&ctx, src, "probe", dims, false),
            Err(GpuError::Input(_))
        ));
    }
    assert!(matches!(
        GridKernel::new(&ctx, src, "pro be", 2, false),
        Err(GpuError::Input(_))
    ));
    // The context still works after the errors.
    let k = GridKernel::new(&ctx, src, "probe", 2, false).unwrap();
    assert_eq!(
        k.grid(&ctx, &[0.5, 0.0], &[1.0, 1.0], &[0, 0], &[3, 1])
            .unwrap()
            .values,
        [0.5, 1.5, 2.5]
    );
}

#[test]
fn bounds_skip_nan_and_time_dispatch_runs() {
    let Some(ctx) = context() else { return };
    // NaN where x < 0, -0 at x = 0.
    let src = "
fn f(p: vec2<f32>) -> f32 {
    if (p.x < 0.0) { return bitcast<f32>(0x7fc00000u); }
    if (p.x == 0.0) { return -0.0; }
    return -p.x;
}";
    let k = GridKernel::new(&ctx, src, "f", 2, false).unwrap();
    let out = k
        .grid(&ctx, &[-2.0, 0.0], &[1.0, 1.0], &[0, 0], &[5, 2])
        .unwrap();
    assert!(out.values[0].is_nan() && out.values[1].is_nan());
    assert_eq!(out.values[2].to_bits(), (-0.0f32).to_bits());
    assert_eq!(out.bounds.0, -2.0);
    assert_eq!(out.bounds.1.to_bits(), 0, "-0 counts as +0");
    let all_nan = k
        .grid(&ctx, &[-5.0, 0.0], &[1.0, 1.0], &[0, 0], &[3, 2])
        .unwrap();
    assert_eq!(all_nan.bounds, (f32::INFINITY, f32::NEG_INFINITY));
    let t = k
        .time_dispatch(&ctx, &[0.0, 0.0], &[0.01, 0.01], &[512, 512], 3)
        .unwrap();
    eprintln!("512x512 probe dispatch: {t:?}");
}

/// What the adapter does with subnormals (reported, not asserted: WGSL lets
/// an implementation flush them). `p` is (s, s) for a subnormal `s`.
#[test]
fn report_subnormal_behaviour() {
    let Some(ctx) = context() else { return };
    let src = "
fn keep(p: vec2<f32>) -> f32 { return p.x; }
fn add(p: vec2<f32>) -> f32 { return p.x + p.y; }
fn twice(p: vec2<f32>) -> f32 { return p.x * 2.0; }
fn half(p: vec2<f32>) -> f32 { return (p.x + p.y) * 0.25; }
";
    let tiny = f32::from_bits(0x0000_1234);
    for (name, want) in [
        ("keep", tiny),
        ("add", tiny + tiny),
        ("twice", tiny * 2.0),
        ("half", (tiny + tiny) * 0.25),
    ] {
        let k = GridKernel::new(&ctx, src, name, 2, false).unwrap();
        let v = k
            .grid(&ctx, &[tiny, tiny], &[0.0, 0.0], &[0, 0], &[1, 1])
            .unwrap()
            .values[0];
        eprintln!(
            "subnormal {:#010x} through `{name}`: {:#010x}, IEEE {:#010x} ({})",
            tiny.to_bits(),
            v.to_bits(),
            want.to_bits(),
            if v.to_bits() == want.to_bits() {
                "same"
            } else {
                "differs: flushed?"
            }
        );
    }
}

/// The source may read `surflet_gpu_params.zero` (WGSL module-scope names
/// need no forward declaration): XOR-ing a product's bits with it keeps the
/// product from being fused into an fma with the following add.
#[test]
fn opaque_zero_keeps_products_unfused() {
    let Some(ctx) = context() else { return };
    // x = y = 1 + 2^-12: x·y = 1 + 2^-11 + 2^-24 rounds (tie to even) to
    // 1 + 2^-11, so the unfused x·y − (1 + 2^-11) is 0 and the fused 2^-24.
    let src = "
fn surflet_c() -> f32 { return 1.00048828125; }
fn plain(p: vec2<f32>) -> f32 { return p.x * p.y - surflet_c(); }
fn opaque(p: vec2<f32>) -> f32 {
    return bitcast<f32>(bitcast<u32>(p.x * p.y) ^ surflet_gpu_params.zero) - surflet_c();
}";
    let x = 1.0f32 + 1.0 / 4096.0;
    let c = 1.0f32 + 1.0 / 2048.0;
    let unfused = x * x - c;
    assert_eq!(unfused, 0.0);
    assert_eq!(x.mul_add(x, -c), 1.0 / 16_777_216.0);
    let run = |name| {
        let k = GridKernel::new(&ctx, src, name, 2, false).unwrap();
        k.grid(&ctx, &[x, x], &[0.0, 0.0], &[0, 0], &[1, 1])
            .unwrap()
            .values[0]
    };
    let plain = run("plain");
    eprintln!(
        "x*y - c without the opaque zero: {plain:e} ({})",
        if plain == unfused {
            "not fused"
        } else {
            "fused into an fma"
        }
    );
    assert_eq!(run("opaque").to_bits(), unfused.to_bits());
}

/// Where a float product feeds an add or a subtraction directly, a driver
/// may fuse the two into one fma and round once instead of twice (NVIDIA
/// does; lavapipe does not, so `opaque_zero_keeps_products_unfused` passes
/// there either way). This reads the WGSL that surflet generates into
/// naga's IR and fails on any such pair: every product must reach an add
/// through `surflet_p` (the XOR with the opaque zero) or another call, so
/// no driver can fuse it, whatever it does with `a * b + c`. It needs no
/// adapter.
/// The functions of `src` in which a float product feeds an add or a
/// subtraction directly.
fn unprotected_products(src: &str) -> Vec<String> {
    use naga::{BinaryOperator, Expression, ScalarKind, TypeInner};
    let module =
        naga::front::wgsl::parse_str(src).unwrap_or_else(|e| panic!("{}", e.emit_to_string(src)));
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("{e:?}"));
    let mut bad = Vec::new();
    for (handle, fun) in module.functions.iter() {
        let fi = &info[handle];
        let float = |e: naga::Handle<Expression>| {
            let ty = fi[e].ty.inner_with(&module.types);
            matches!(ty, TypeInner::Scalar(s) | TypeInner::Vector { scalar: s, .. }
                if s.kind == ScalarKind::Float)
        };
        for (_, expr) in fun.expressions.iter() {
            let Expression::Binary { op, left, right } = *expr else {
                continue;
            };
            if !matches!(op, BinaryOperator::Add | BinaryOperator::Subtract) {
                continue;
            }
            for operand in [left, right] {
                let product = matches!(
                    fun.expressions[operand],
                    Expression::Binary {
                        op: BinaryOperator::Multiply,
                        ..
                    }
                );
                if product && float(operand) {
                    bad.push(fun.name.clone().unwrap_or_default());
                }
            }
        }
    }
    bad.dedup();
    bad
}

#[test]
fn no_float_product_feeds_an_add_unprotected() {
    // The check sees what it must.
    let sample = "
fn fused(a: f32, b: f32, c: f32) -> f32 { let t = a * b; return t + c; }
fn guarded(a: f32, b: f32, c: f32) -> f32 { return g(a * b) - c; }
fn g(x: f32) -> f32 { return x; }
fn ints(a: u32, b: u32) -> u32 { return a * b + 1u; }";
    assert_eq!(unprotected_products(sample), ["fused"]);
    let mut stacks = Vec::new();
    for noise in common::wgsl_noises() {
        for fractal in ["fbm", "ridged", "billow", "turbulence", "hybrid"] {
            stacks.push(format!(
                "noise = \"{noise}\"\n[fractal]\nkind = \"{fractal}\"\noctaves = 3"
            ));
        }
        // OpenSimplex2 has no periodic form.
        let period = if noise.starts_with("opensimplex") {
            ""
        } else {
            "period = [4, 6]\n"
        };
        stacks.push(format!(
            "noise = \"{noise}\"\n{period}[warp]\nkind = \"progressive\"\namplitude = 0.5"
        ));
        stacks.push(format!("noise = \"{noise}\"\n[warp]\namplitude = 0.5"));
    }
    let mut bad = Vec::new();
    for text in &stacks {
        let stack = surflet::Stack::from_toml_str(text).unwrap();
        let mut sources = vec![stack.build::<2>().unwrap().wgsl("f2").unwrap()];
        if let Ok(e) = stack.build::<3>() {
            sources.push(e.wgsl("f3").unwrap());
        }
        for src in &sources {
            for f in unprotected_products(src) {
                bad.push(format!("{}: in {f}", text.replace('\n', "; ")));
            }
        }
    }
    for noise in common::wgsl_noises() {
        let text = format!(
            "noise = \"{noise}\"\n[fractal]\nkind = \"ridged\"\noctaves = 3\n[warp]\namplitude = 0.5"
        );
        let stack = surflet::Stack::from_toml_str(&text).unwrap();
        for f in unprotected_products(&stack.build::<4>().unwrap().wgsl("f4").unwrap()) {
            bad.push(format!("4D {}: in {f}", text.replace('\n', "; ")));
        }
    }
    for d in [2, 3, 4] {
        for text in common::graphs(d) {
            let g = surflet::Graph::parse(&text).unwrap();
            let src = match d {
                2 => g.build::<2>().unwrap().wgsl("g").unwrap(),
                3 => g.build::<3>().unwrap().wgsl("g").unwrap(),
                _ => g.build::<4>().unwrap().wgsl("g").unwrap(),
            };
            for f in unprotected_products(&src) {
                bad.push(format!("{d}D {text}: in {f}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} unprotected:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
