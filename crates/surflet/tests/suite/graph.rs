//! Noise graphs: every combinator's gradient against central differences,
//! its derived range against measured values (and tightness for the
//! arithmetic ones), bit-identity across instruction sets and between the
//! point, batch, grid and threaded calls, the three spellings' round trips,
//! old stack files, and bad input.

use proptest::prelude::*;
use rand::rngs::SmallRng as StdRng;
use rand::{RngExt, SeedableRng};
use surflet::graph::{Graph, MAX_DEPTH};
use surflet::{Error, Field, Float, Grid, Isa, NoiseKind, Stack};

/// One graph per combinator (and a few compositions), for dimension `d`.
fn cases(d: usize) -> Vec<String> {
    let v = |xs: &[&str]| xs[..d].join(", ");
    let mut c: Vec<String> = [
        "perlin(seed=1) + simplex(seed=2)",
        "perlin(seed=1) - simplex(seed=2)",
        "perlin(seed=1) * simplex(seed=2)",
        "perlin(seed=1) / (simplex(seed=2) * 0.25 + 2)",
        "min(perlin(seed=1), simplex(seed=2))",
        "max(perlin(seed=1), simplex(seed=2))",
        "-perlin(seed=1)",
        "abs(perlin(seed=1))",
        "pow(perlin(seed=1), 3)",
        "pow(perlin(seed=1), -2) * 0.01",
        "pow(perlin(seed=1) * 0.5 + 1, 1.5)",
        "clamp(perlin(seed=1) * 2, -0.3, 0.4)",
        "scale_bias(perlin(seed=1), 2.5, -0.5)",
        "remap(perlin(seed=1), from=[-1, 1], to=[0, 255])",
        "terrace(perlin(seed=1), points=[-1, -0.2, 0.3, 1])",
        "terrace(perlin(seed=1), points=[-1, -0.2, 0.3, 1], smooth=true)",
        "curve(perlin(seed=1), points=[[-1, -1], [-0.5, 0.2], [0.2, 0.3], [1, 1]])",
        "smoothstep(-0.5, 0.5, perlin(seed=1))",
        "smoothstep(0.3, -0.2, perlin(seed=1) + simplex(seed=2) * 0.5)",
        "select(perlin(seed=1), simplex(seed=2), control=value(seed=3), threshold=0.1, falloff=0.2)",
        "select(perlin(seed=1), simplex(seed=2), control=value(seed=3))",
        "blend(perlin(seed=1), simplex(seed=2), control=value(seed=3))",
        "scale(perlin(seed=1), by=2.5)",
        "distort(perlin(seed=1), power=0.3, frequency=2, roughness=2, seed=5)",
        "fbm(simplex(seed=1), octaves=3) * 0.5 + 0.25",
        "warp(fbm(perlin(seed=4), octaves=2), amplitude=0.5) - 0.1",
        "ridged(cellular(seed=3), octaves=2) + 0",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    c.push(format!(
        "translate(perlin(seed=1), by=[{}])",
        v(&["0.5", "-1.25", "3", "7"])
    ));
    c.push(format!(
        "scale(perlin(seed=1), by=[{}])",
        v(&["0.5", "-1.25", "3", "0.75"])
    ));
    // A grid's leaves take the grid path beside a node that reads the
    // points (the grid's coordinates are then written out as well).
    c.push(format!(
        "translate(perlin(seed=1), by=[{}]) + value(seed=3)",
        v(&["0.5", "-1.25", "3", "7"])
    ));
    c.push(format!(
        "displace(perlin(seed=1), by=[{}])",
        v(&[
            "simplex(seed=2) * 0.5",
            "value(seed=3) * perlin(seed=9)",
            "simplex(seed=4)",
            "0.5"
        ])
    ));
    if d >= 2 {
        c.push("rotate(perlin(seed=1), angle=0.7)".into());
        c.push(
            "rotate(translate(scale(simplex(seed=1), by=1.5), by=[".to_string()
                + &v(&["1", "2", "3", "4"])
                + "]), angle=-2)",
        );
        let m: Vec<String> = (0..d)
            .map(|r| {
                let row: Vec<String> = (0..d)
                    .map(|c| {
                        format!(
                            "{}",
                            if r == c {
                                0.8
                            } else {
                                0.3 * (r as f64 - c as f64)
                            }
                        )
                    })
                    .collect();
                format!("[{}]", row.join(", "))
            })
            .collect();
        c.push(format!(
            "rotate(displace(perlin(seed=1), by=[{}]), matrix=[{}])",
            v(&[
                "simplex(seed=2)",
                "simplex(seed=3)",
                "simplex(seed=4)",
                "simplex(seed=5)"
            ]),
            m.join(", ")
        ));
    }
    c
}

fn points<const D: usize>(n: usize, seed: u64, spread: f64) -> Vec<[f64; D]> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|_| core::array::from_fn(|_| rng.random_range(-spread..spread)))
        .collect()
}

/// The family's gradient tolerance (`properties::gradient_is_the_derivative`,
/// `nd::gradient`): 1e-6, relative to the gradient where it passes 1.
const GRADIENT_TOLERANCE: f64 = 1e-6;
/// The largest of the central differences' steps. The smallest, `H / 4`,
/// keeps rounding near 1e-16·|f| / 2.5e-5 ≈ 4e-12·|f|; the Richardson
/// extrapolation removes the h² term, leaving h⁴·f⁽⁵⁾ (1e-16·f⁽⁵⁾), and
/// confines the C² joins of Perlin's fade and the surflets' falloff, whose
/// third derivative jumps, to an error of order h² times that jump.
const H: f64 = 1e-4;

/// The central difference of `f` along axis `a` at `p`, step `h`.
fn central<const D: usize>(f: &impl Field<D>, p: [f64; D], a: usize, h: f64) -> f64 {
    let at = |dx: f64| {
        let mut q = p;
        q[a] += dx;
        f.get(q)
    };
    (at(h) - at(-h)) / (2.0 * h)
}

/// Richardson's extrapolation of the central difference from steps `h` and
/// `h/2`: `(4 D(h/2) − D(h)) / 3`, exact to O(h⁴) where `f` is smooth.
fn richardson<const D: usize>(f: &impl Field<D>, p: [f64; D], a: usize, h: f64) -> f64 {
    (4.0 * central(f, p, a, h / 2.0) - central(f, p, a, h)) / 3.0
}

/// The gradient by extrapolated differences, or None where the stencil
/// straddles a kink: there the extrapolations from steps `H` and `H/2`,
/// which agree to O(h⁴) where the field is smooth, differ by a fraction of
/// the jump in the derivative.
fn extrapolated<const D: usize>(f: &impl Field<D>, p: [f64; D]) -> Option<[f64; D]> {
    let mut out = [0.0; D];
    for (a, o) in out.iter_mut().enumerate() {
        let (coarse, fine) = (richardson(f, p, a, H), richardson(f, p, a, H / 2.0));
        if (coarse - fine).abs() > 0.25 * GRADIENT_TOLERANCE * (1.0 + fine.abs()) {
            return None;
        }
        *o = fine;
    }
    Some(out)
}

/// The kink test sees kinks: Perlin noise is 0 at every lattice point with
/// a gradient that is not, so `abs` and `min` of it have a crease there,
/// and `clamp` where it crosses its bounds; stencils centred within H/8 of
/// one are excluded, and the same points of the smooth `perlin * 2` are not.
#[test]
fn the_kink_test_sees_kinks() {
    let mut rng = StdRng::seed_from_u64(3);
    for expr in [
        "abs(perlin(seed=1))",
        "min(perlin(seed=1), -perlin(seed=1))",
        "perlin(seed=1) * 2",
    ] {
        let f = Graph::parse(expr).unwrap().build::<1>().unwrap();
        let kinked = (0..100)
            .filter(|_| {
                let x = rng.random_range(-50..50) as f64 + rng.random_range(-H / 8.0..H / 8.0);
                extrapolated(&f, [x]).is_none()
            })
            .count();
        let want = if expr.starts_with("perlin") { 0 } else { 100 };
        assert_eq!(kinked, want, "{expr}");
    }
}

/// Whether the expression has a node whose value or gradient is not
/// smooth: a kink (clamp, abs, min, max, terrace, curve, select, and the
/// fractals built on |n|), a Voronoi border (cellular), or a pole (pow with
/// a negative exponent, division).
fn has_kinks(expr: &str) -> bool {
    [
        "clamp(",
        "abs(",
        "min(",
        "max(",
        "terrace(",
        "curve(",
        "select(",
        "ridged(",
        "billow(",
        "turbulence(",
        "cellular(",
        "pow(",
        " / ",
    ]
    .iter()
    .any(|k| expr.contains(k))
}

/// The analytic gradient against Richardson-extrapolated central
/// differences at the family's tolerance, and the `f32` gradient against
/// the `f64` one.
///
/// A stencil that straddles a kink is excluded and counted
/// (`extrapolated`). It is found from the values alone, never from the
/// analytic gradient under test. Expressions with no kink node
/// (`has_kinks`) must exclude none, so the exclusion cannot hide a wrong
/// gradient of a smooth node; the others must keep 80 % of their points.
fn gradient_check<const D: usize>() {
    let mut report = Vec::new();
    for expr in cases(D) {
        let f = Graph::parse(&expr).unwrap().build::<D>().unwrap();
        let (mut excluded, mut checked, mut worst) = (0, 0, 0.0f64);
        let pts = points::<D>(300, 7, 6.0);
        for &p in &pts {
            let s = f.sample(p);
            let Some(estimates) = extrapolated(&f, p) else {
                excluded += 1;
                continue;
            };
            checked += 1;
            for a in 0..D {
                let (g, fd) = (s.gradient[a], estimates[a]);
                let err = (g - fd).abs() / g.abs().max(1.0);
                worst = worst.max(err);
                assert!(
                    err <= GRADIENT_TOLERANCE,
                    "{expr} ({D}D) at {p:?}: d/dx{a} analytic {g}, extrapolated difference {fd}"
                );
            }
            // The f32 gradient at the same point (rounded to f32) agrees
            // with the f64 one, which the differences check.
            let p32 = p.map(|x| x as f32);
            let s32 = f.sample(p32);
            let s64 = f.sample(p32.map(f64::from));
            for a in 0..D {
                let (g32, g64) = (f64::from(s32.gradient[a]), s64.gradient[a]);
                // Near a pole (`pow(x, -2)` or a division as x → 0) f32's
                // absolute error in x becomes a large relative one: there the
                // precisions cannot agree, and the comparison says nothing.
                if g64.abs() > 1e3 || s64.value.abs() > 1e3 {
                    continue;
                }
                assert!(
                    (g32 - g64).abs() <= 1e-3 * (1.0 + g64.abs()),
                    "{expr} ({D}D) at {p32:?}: d/dx{a} in f32 {g32}, in f64 {g64}"
                );
            }
        }
        report.push(format!(
            "{D}D {expr}: {checked} checked (worst {worst:.1e}), {excluded} excluded"
        ));
        if has_kinks(&expr) {
            assert!(
                checked * 10 >= pts.len() * 8,
                "{expr} ({D}D): only {checked} of {} stencils away from kinks",
                pts.len()
            );
        } else {
            assert_eq!(
                excluded, 0,
                "{expr} ({D}D) has no kink, yet {excluded} stencils were excluded"
            );
        }
    }
    // `--nocapture` shows what each expression checked and excluded.
    println!("{}", report.join("\n"));
}

#[test]
fn gradients_match_central_differences() {
    gradient_check::<1>();
    gradient_check::<2>();
    gradient_check::<3>();
    gradient_check::<4>();
}

/// Every value, in both precisions, lies in the derived range.
fn range_check<const D: usize>() {
    for expr in cases(D) {
        let f = Graph::parse(&expr).unwrap().build::<D>().unwrap();
        let (lo, hi) = f.range();
        for p in points::<D>(4000, 11, 40.0) {
            let v = f.get(p);
            let w = f.get(p.map(|x| x as f32)) as f64;
            assert!(
                lo <= v && v <= hi,
                "{expr} ({D}D): f64 value {v} outside [{lo}, {hi}]"
            );
            assert!(
                lo <= w && w <= hi,
                "{expr} ({D}D): f32 value {w} outside [{lo}, {hi}]"
            );
        }
    }
}

#[test]
fn values_lie_in_the_derived_range() {
    range_check::<1>();
    range_check::<2>();
    range_check::<3>();
    range_check::<4>();
}

/// For the arithmetic combinators the derived range is reached: inputs
/// clamped so that they saturate at their bounds make every corner of the
/// interval arithmetic happen.
#[test]
fn arithmetic_ranges_are_tight() {
    let a = "clamp(perlin(seed=1) * 4, -1, 1)";
    let b = "clamp(simplex(seed=2) * 4, -0.5, 2)";
    let cases = [
        format!("{a} + {b}"),
        format!("{a} - {b}"),
        format!("{a} * {b}"),
        format!("min({a}, {b})"),
        format!("max({a}, {b})"),
        format!("-{b}"),
        format!("abs({b})"),
        format!("scale_bias({b}, -3, 0.5)"),
        format!("remap({b}, from=[-0.5, 2], to=[10, 20])"),
        format!("pow({a}, 2)"),
    ];
    for expr in cases {
        let f = Graph::parse(&expr).unwrap().build::<2>().unwrap();
        let (lo, hi) = f.range();
        let grid = Grid::uniform([0.0f64; 2], [0.173; 2], [400, 400]).unwrap();
        let mut out = vec![0.0; grid.len()];
        let b = f.grid(&grid, &mut out).unwrap();
        let slack = 1e-5 * (1.0 + lo.abs().max(hi.abs()));
        assert!(
            (b.min - lo).abs() <= slack && (b.max - hi).abs() <= slack,
            "{expr}: measured [{}, {}], derived [{lo}, {hi}]",
            b.min,
            b.max
        );
    }
}

fn bits<F: Float>(v: &[F]) -> Vec<u64> {
    v.iter().map(|x| x.to_f64().to_bits()).collect()
}

/// Point, batch (every instruction set), grid and threaded calls agree to
/// the bit, values and gradients.
fn identity_check<F: Float, const D: usize>() {
    let pool1 = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let pool2 = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    for expr in cases(D) {
        let f = Graph::parse(&expr).unwrap().build::<D>().unwrap();
        // An odd-sized grid with a negative origin and a step that is not a
        // power of two, large enough to be split into several blocks.
        let size: [usize; D] = core::array::from_fn(|a| [97, 71, 3, 2][a]);
        let size = if D == 1 { [9000; D] } else { size };
        let origin: [F; D] = core::array::from_fn(|a| F::from_f64(-3.7 + a as f64));
        let step: [F; D] = [F::from_f64(0.0913); D];
        let grid = Grid::uniform(origin, step, size).unwrap();
        let n = grid.len();
        let pts: Vec<[F; D]> = (0..n).map(|i| grid.point(i)).collect();
        let coords: [Vec<F>; D] = core::array::from_fn(|a| pts.iter().map(|p| p[a]).collect());
        let c: [&[F]; D] = core::array::from_fn(|a| &coords[a][..]);
        let mut want_v = Vec::with_capacity(n);
        let mut want_g: [Vec<F>; D] = core::array::from_fn(|_| Vec::with_capacity(n));
        for p in &pts {
            let s = f.sample(*p);
            assert_eq!(
                s.value.to_f64().to_bits(),
                f.get(*p).to_f64().to_bits(),
                "{expr}: get vs sample"
            );
            want_v.push(s.value);
            for a in 0..D {
                want_g[a].push(s.gradient[a]);
            }
        }
        for isa in Isa::available() {
            for (pool, threads) in [(&pool1, 1), (&pool2, 2)] {
                pool.install(|| {
                    let mut v = vec![F::ZERO; n];
                    let mut g: [Vec<F>; D] = core::array::from_fn(|_| vec![F::ZERO; n]);
                    {
                        let mut it = g.iter_mut();
                        let refs: [&mut [F]; D] =
                            core::array::from_fn(|_| &mut it.next().unwrap()[..]);
                        f.fill_on(isa, c, &mut v, Some(refs)).unwrap();
                    }
                    assert_eq!(
                        bits(&v),
                        bits(&want_v),
                        "{expr} {D}D {}: fill_on({isa:?}), {threads} threads",
                        F::NAME
                    );
                    for a in 0..D {
                        assert_eq!(
                            bits(&g[a]),
                            bits(&want_g[a]),
                            "{expr}: gradient {a}, {isa:?}"
                        );
                    }
                    let mut v2 = vec![F::ZERO; n];
                    f.fill_on(isa, c, &mut v2, None).unwrap();
                    assert_eq!(
                        bits(&v2),
                        bits(&want_v),
                        "{expr}: values-only fill, {isa:?}"
                    );
                    let mut gv = vec![F::ZERO; n];
                    let mut gg: [Vec<F>; D] = core::array::from_fn(|_| vec![F::ZERO; n]);
                    let b = {
                        let mut it = gg.iter_mut();
                        let refs: [&mut [F]; D] =
                            core::array::from_fn(|_| &mut it.next().unwrap()[..]);
                        f.grid_on(isa, &grid, &mut gv, Some(refs)).unwrap()
                    };
                    assert_eq!(
                        bits(&gv),
                        bits(&want_v),
                        "{expr}: grid_on({isa:?}), {threads} threads"
                    );
                    for a in 0..D {
                        assert_eq!(bits(&gg[a]), bits(&want_g[a]), "{expr}: grid gradient {a}");
                    }
                    let finite: Vec<f64> = want_v
                        .iter()
                        .map(|x| x.to_f64())
                        .filter(|x| !x.is_nan())
                        .collect();
                    let lo = finite.iter().copied().fold(f64::INFINITY, f64::min);
                    let hi = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    assert_eq!(
                        (b.min.to_f64(), b.max.to_f64()),
                        (lo, hi),
                        "{expr}: grid bounds"
                    );
                });
            }
        }
    }
}

#[test]
fn point_batch_grid_and_threads_agree_bit_for_bit() {
    identity_check::<f32, 1>();
    identity_check::<f64, 1>();
    identity_check::<f32, 2>();
    identity_check::<f64, 2>();
    identity_check::<f32, 3>();
    identity_check::<f64, 3>();
    identity_check::<f32, 4>();
    identity_check::<f64, 4>();
}

/// A graph that is one stack runs as that stack, to the bit.
#[test]
fn a_single_stack_graph_is_the_stack() {
    let g = Graph::parse("warp(ridged(perlin(seed=7, frequency=0.3), octaves=3), amplitude=2)")
        .unwrap();
    let Graph::Stack(s) = &g else {
        panic!("a stack leaf")
    };
    let e = s.build::<2>().unwrap();
    let f = g.build::<2>().unwrap();
    for p in points::<2>(200, 3, 30.0) {
        assert_eq!(f.get(p).to_bits(), e.get(p).to_bits());
        assert_eq!(f.sample(p), e.sample(p));
    }
    assert_eq!(f.range(), e.range());
}

#[test]
fn nan_and_huge_coordinates() {
    for expr in cases(2) {
        let f = Graph::parse(&expr).unwrap().build::<2>().unwrap();
        assert!(f.get([f64::NAN, 0.5]).is_nan(), "{expr}: NaN in, NaN out");
        assert!(
            f.get([f32::INFINITY, 0.5]).is_nan(),
            "{expr}: ∞ in, NaN out"
        );
        let v = f.get([1e300f64, -3e299]);
        let (lo, hi) = f.range();
        assert!(
            v.is_finite() || expr.contains('/') || expr.contains("pow"),
            "{expr}: huge coordinates give {v}"
        );
        if v.is_finite() {
            assert!(lo <= v && v <= hi);
        }
    }
}

/// A user field combines with surflet's: its gradient flows through the
/// chain rule, and its range through the interval arithmetic.
#[test]
fn custom_fields_combine() {
    struct Plane;
    impl Field<2> for Plane {
        fn sample<F: Float>(&self, p: [F; 2]) -> surflet::Sample<F, 2> {
            let k = F::from_f64(0.1);
            surflet::Sample {
                value: p[0] * k - p[1] * k,
                gradient: [k, -k],
            }
        }
        fn range(&self) -> (f64, f64) {
            (-10.0, 10.0)
        }
    }
    let g = Graph::custom("plane", Plane) * Graph::parse("perlin(seed=2)").unwrap();
    let f = g.build::<2>().unwrap();
    let n = surflet::Noise::<2>::new(NoiseKind::Perlin, 2);
    for p in points::<2>(100, 5, 20.0) {
        let s = f.sample(p);
        let ns = n.sample(p);
        let plane = p[0] * 0.1 - p[1] * 0.1;
        assert_eq!(s.value, plane * ns.value);
        assert_eq!(s.gradient[0], 0.1 * ns.value + plane * ns.gradient[0]);
    }
    let (lo, hi) = f.range();
    assert!(lo <= -10.0 && (10.0..10.001).contains(&hi));
    let e = g.build::<3>().unwrap_err();
    assert!(e.to_string().contains("2D"), "{e}");
    assert!(g.to_expr().is_err());
}

/// N-D noise is a `Field` too: its grid call (through its point call)
/// gives the point call's bits.
#[test]
fn nd_noise_is_a_field() {
    use surflet::nd::{NdKind, NoiseNd};
    let n = NoiseNd::<6>::new(NdKind::Simplex, 9);
    let grid = Grid::uniform([-0.7f64; 6], [0.31; 6], [5, 4, 3, 3, 2, 2]).unwrap();
    let mut out = vec![0.0; grid.len()];
    let b = Field::grid(&n, &grid, &mut out).unwrap();
    for (i, v) in out.iter().enumerate() {
        assert_eq!(v.to_bits(), n.get(grid.point(i)).to_bits());
    }
    assert!(-1.0 <= b.min && b.max <= 1.0);
    assert_eq!(Field::range(&n), (-1.0, 1.0));
}

// ---------------------------------------------------------------------
// Spellings

/// A fractal table with every key drawn; offset and weight only where the
/// kind uses them, so that most draws pass [`Stack::check`].
fn fractal_desc() -> impl Strategy<Value = surflet::FractalDesc> {
    (
        0..5usize,
        1u32..6,
        prop_oneof![Just(2.0), Just(3.0), 1.25f64..3.5],
        finite(),
        prop_oneof![Just(1.0), Just(-0.0), finite()],
        any::<bool>(),
        proptest::option::of(finite()),
        proptest::option::of(finite()),
        prop_oneof![Just(0.0), -4.0f64..4.0],
    )
        .prop_map(
            |(kind, octaves, lacunarity, gain, amplitude, normalize, offset, weight, rotation)| {
                let kind = surflet::FractalKind::ALL[kind];
                surflet::FractalDesc {
                    kind,
                    octaves,
                    lacunarity,
                    gain,
                    amplitude,
                    normalize,
                    offset: offset.filter(|_| kind.uses_offset()),
                    weight: weight.filter(|_| kind.uses_weight()),
                    rotation,
                }
            },
        )
}

/// A stack of `d` dimensions with every key drawn: all seven noises, the
/// cellular options, periods, the fractal's and the warp's every key
/// (the warp's fractal included). Draws that [`Stack::check`] refuses are
/// dropped: the round trip is of valid stacks.
fn stack(d: usize) -> impl Strategy<Value = Stack> {
    let cellular = (
        proptest::option::of(0..5usize),
        proptest::option::of(0..7usize),
        proptest::option::of(prop_oneof![Just(0.0), Just(1.0), 0.0f64..=1.0]),
    );
    let warp = (
        any::<bool>(),
        proptest::option::of(0..7usize),
        proptest::option::of(any::<u64>()),
        // Powers of two times the stack's frequency keep a tiled warp's
        // period whole; the other draws exercise untiled warps.
        proptest::option::of(prop_oneof![Just(-1.0), Just(-2.0), 0.05f64..20.0]),
        prop_oneof![Just(1.0), Just(-0.0), finite()],
        proptest::option::of(fractal_desc()),
    );
    (
        0..7usize,
        any::<u64>(),
        prop_oneof![Just(1.0), 0.01f64..10.0, Just(1e-300)],
        proptest::option::weighted(
            0.3,
            proptest::collection::vec(prop_oneof![Just(2u32), Just(4), 2u32..9], d),
        ),
        cellular,
        proptest::option::of(fractal_desc()),
        proptest::option::of(warp),
    )
        .prop_map(
            move |(noise, seed, frequency, period, (distance, ret, jitter), fractal, warp)| {
                let noise = NoiseKind::ALL[noise];
                let cellular = noise == NoiseKind::Cellular;
                // Periods only where the noise (and a warp's) tiles in d
                // dimensions, 2D simplex's y period even: most stacks then
                // build, and their values are compared.
                let tiles = |k: NoiseKind| k.periodic_dims().contains(&d);
                let warp_tiles = warp
                    .as_ref()
                    .is_none_or(|w| w.1.is_none_or(|k| tiles(NoiseKind::ALL[k])));
                let period = period.filter(|_| tiles(noise) && warp_tiles).map(|mut p| {
                    if d == 2 {
                        p[1] += p[1] % 2;
                    }
                    p
                });
                let warp = warp.map(|(progressive, wn, ws, wf, amplitude, wfr)| {
                    surflet::WarpDesc {
                        kind: if progressive {
                            surflet::WarpKind::Progressive
                        } else {
                            surflet::WarpKind::Single
                        },
                        noise: wn.map(|k| NoiseKind::ALL[k]),
                        seed: ws,
                        // A negative draw means "this power of two times
                        // the stack's frequency".
                        frequency: wf.map(|f| if f < 0.0 { -f * frequency } else { f }),
                        amplitude,
                        fractal: wfr,
                    }
                });
                Stack {
                    noise,
                    distance: distance
                        .filter(|_| cellular)
                        .map(|k| surflet::CellularDistance::ALL[k]),
                    ret: ret
                        .filter(|_| cellular)
                        .map(|k| surflet::CellularReturn::ALL[k]),
                    jitter: jitter.filter(|_| cellular),
                    seed,
                    frequency,
                    period,
                    offset: None,
                    antialias: false,
                    footprint: None,
                    fractal,
                    warp,
                }
            },
        )
        .prop_flat_map(move |s| {
            let offset = proptest::option::weighted(
                0.3,
                proptest::collection::vec(
                    prop_oneof![Just(0.0), Just(-0.0), Just(0.5), -1e3f64..1e3],
                    d,
                ),
            );
            (Just(s), offset)
        })
        .prop_map(|(s, offset)| Stack { offset, ..s })
        .prop_filter("a valid stack", |s| s.check().is_ok())
}

fn finite() -> impl Strategy<Value = f64> {
    prop_oneof![
        -1e6f64..1e6,
        Just(0.0),
        Just(-0.0),
        Just(1e-300),
        Just(-7.0),
        Just(0.1)
    ]
}

/// Graphs of `d` dimensions over every node and every stack key. Vectors
/// have the lengths that dimension takes (scale also its single factor), so
/// that most draws build and their values can be compared.
fn graphs(d: usize) -> impl Strategy<Value = Graph> {
    let leaf = prop_oneof![
        3 => stack(d).prop_map(Graph::stack),
        1 => finite().prop_map(Graph::Const),
    ];
    leaf.prop_recursive(5, 40, 3, move |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a + b),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a - b),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a * b),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a / b),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a.min(b)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a.max(b)),
            inner.clone().prop_map(|a| -a),
            inner.clone().prop_map(|a| a.abs()),
            (inner.clone(), finite()).prop_map(|(a, e)| a.pow(e)),
            (inner.clone(), finite(), finite()).prop_map(|(a, x, y)| a.clamp(x, y)),
            (inner.clone(), finite(), finite()).prop_map(|(a, x, y)| a.scale_bias(x, y)),
            (inner.clone(), finite(), finite()).prop_map(|(a, x, y)| a.remap([x, y], [y, x])),
            (
                inner.clone(),
                proptest::collection::vec(finite(), 0..4),
                any::<bool>()
            )
                .prop_map(|(a, p, s)| a.terrace(&p, s)),
            (
                inner.clone(),
                proptest::collection::vec((finite(), finite()), 0..4)
            )
                .prop_map(|(a, p)| a.curve(&p.iter().map(|&(x, y)| [x, y]).collect::<Vec<_>>())),
            (
                inner.clone(),
                inner.clone(),
                inner.clone(),
                finite(),
                finite()
            )
                .prop_map(|(a, b, c, t, f)| a.select(b, c, t, f)),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(a, b, c)| a.blend(b, c)),
            (inner.clone(), finite(), finite()).prop_map(|(a, x, y)| a.smoothstep(x, y)),
            (inner.clone(), proptest::collection::vec(finite(), d))
                .prop_map(|(a, v)| a.translate(&v)),
            (
                inner.clone(),
                prop_oneof![
                    proptest::collection::vec(finite(), d),
                    proptest::collection::vec(finite(), 1)
                ]
            )
                .prop_map(|(a, v)| a.scale(&v)),
            (inner.clone(), finite()).prop_map(|(a, t)| a.rotate(t)),
            (
                inner.clone(),
                proptest::collection::vec(proptest::collection::vec(finite(), d), d)
            )
                .prop_map(|(a, m)| Graph::Rotate {
                    input: Box::new(a),
                    by: surflet::graph::Rotation::Matrix(m),
                }),
            (inner.clone(), proptest::collection::vec(inner.clone(), d))
                .prop_map(|(a, v)| a.displace(v)),
            (inner.clone(), finite(), finite(), 1u32..9, any::<u64>())
                .prop_map(|(a, p, f, r, s)| a.distort(p, f, r, s)),
        ]
    })
}

/// The graph as text in which every number is its bit pattern, so that two
/// graphs are equal here only if they are equal bit for bit (−0.0 ≠ 0.0,
/// unlike the derived `PartialEq`). The stack tables are destructured
/// field by field, so a new key fails to compile here until it is compared
/// too, and a new node panics.
fn bit_key(g: &Graph) -> String {
    let mut out = String::new();
    key::walk(&mut out, g);
    out
}

/// `bit_key`'s writers, one per part of a graph.
mod key {
    use super::{Graph, Stack};

    pub(super) fn num(out: &mut String, x: f64) {
        out.push_str(&format!("{:016x} ", x.to_bits()));
    }
    pub(super) fn nums(out: &mut String, xs: &[f64]) {
        out.push('[');
        for &x in xs {
            num(out, x);
        }
        out.push(']');
    }
    pub(super) fn fractal(out: &mut String, f: &Option<surflet::FractalDesc>) {
        let Some(f) = f else {
            out.push_str("nofractal ");
            return;
        };
        let surflet::FractalDesc {
            kind,
            octaves,
            lacunarity,
            gain,
            amplitude,
            normalize,
            offset,
            weight,
            rotation,
        } = f;
        out.push_str(&format!("fractal {kind} {octaves} {normalize} "));
        nums(out, &[*lacunarity, *gain, *amplitude, *rotation]);
        out.push_str(&format!(
            "{:?} {:?} ",
            offset.map(f64::to_bits),
            weight.map(f64::to_bits)
        ));
    }
    pub(super) fn stack(out: &mut String, s: &Stack) {
        let Stack {
            noise,
            distance,
            ret,
            jitter,
            seed,
            frequency,
            period,
            offset,
            antialias,
            footprint,
            fractal: f,
            warp,
        } = s;
        out.push_str(&format!(
            "stack {noise} {distance:?} {ret:?} {:?} {seed} {period:?} {antialias} {:?} {:?} ",
            jitter.map(f64::to_bits),
            footprint.map(f64::to_bits),
            offset
                .as_ref()
                .map(|o| o.iter().map(|v| v.to_bits()).collect::<Vec<_>>())
        ));
        num(out, *frequency);
        fractal(out, f);
        if let Some(surflet::WarpDesc {
            kind,
            noise,
            seed,
            frequency,
            amplitude,
            fractal: wf,
        }) = warp
        {
            out.push_str(&format!(
                "warp {kind} {noise:?} {seed:?} {:?} ",
                frequency.map(f64::to_bits)
            ));
            num(out, *amplitude);
            fractal(out, wf);
        }
    }
    pub(super) fn walk(out: &mut String, g: &Graph) {
        let mut sub = |name: &str, kids: &[&Graph], xs: &[f64]| {
            out.push_str(name);
            out.push('(');
            nums(out, xs);
            for k in kids {
                walk(out, k);
            }
            out.push(')');
        };
        match g {
            Graph::Stack(s) => stack(out, s),
            Graph::Const(c) => sub("const", &[], &[*c]),
            Graph::Neg(a) => sub("neg", &[&**a], &[]),
            Graph::Abs(a) => sub("abs", &[&**a], &[]),
            Graph::Add(a, b) => sub("add", &[&**a, &**b], &[]),
            Graph::Sub(a, b) => sub("sub", &[&**a, &**b], &[]),
            Graph::Mul(a, b) => sub("mul", &[&**a, &**b], &[]),
            Graph::Div(a, b) => sub("div", &[&**a, &**b], &[]),
            Graph::Min(a, b) => sub("min", &[&**a, &**b], &[]),
            Graph::Max(a, b) => sub("max", &[&**a, &**b], &[]),
            Graph::Pow { input, exponent } => sub("pow", &[&**input], &[*exponent]),
            Graph::Clamp { input, min, max } => sub("clamp", &[&**input], &[*min, *max]),
            Graph::ScaleBias { input, scale, bias } => {
                sub("scale_bias", &[&**input], &[*scale, *bias])
            }
            Graph::Remap { input, from, to } => {
                sub("remap", &[&**input], &[from[0], from[1], to[0], to[1]])
            }
            Graph::Terrace {
                input,
                points,
                smooth,
            } => sub(&format!("terrace{smooth}"), &[&**input], points),
            Graph::Curve { input, points } => sub("curve", &[&**input], &points.concat()),
            Graph::Select {
                a,
                b,
                control,
                threshold,
                falloff,
            } => sub("select", &[&**a, &**b, &**control], &[*threshold, *falloff]),
            Graph::Blend { a, b, control } => sub("blend", &[&**a, &**b, &**control], &[]),
            Graph::Smoothstep {
                edge0,
                edge1,
                input,
            } => sub("smoothstep", &[&**input], &[*edge0, *edge1]),
            Graph::Translate { input, by } => sub("translate", &[&**input], by),
            Graph::Scale { input, by } => sub("scale", &[&**input], by),
            Graph::Rotate { input, by } => match by {
                surflet::graph::Rotation::Angle(t) => sub("angle", &[&**input], &[*t]),
                surflet::graph::Rotation::Matrix(m) => {
                    sub(&format!("matrix{}", m.len()), &[&**input], &m.concat())
                }
            },
            Graph::Displace { input, by } => {
                let kids: Vec<&Graph> = core::iter::once(&**input).chain(by).collect();
                sub("displace", &kids, &[])
            }
            Graph::Distort {
                input,
                power,
                frequency,
                roughness,
                seed,
            } => sub(
                &format!("distort{roughness},{seed}"),
                &[&**input],
                &[*power, *frequency],
            ),
            Graph::Custom(_) => panic!("custom fields have no written form"),
            // `Graph` is non-exhaustive: a node added later must be keyed
            // here before the round trip can compare it.
            other => panic!("bit_key does not know {other:?}"),
        }
    }
}

/// Values and gradients of `a` and `b` (bits) at `points`, or the same
/// build error from both.
fn same_field<const D: usize>(a: &Graph, b: &Graph, points: &[f64]) -> Result<(), String> {
    match (a.build::<D>(), b.build::<D>()) {
        (Ok(fa), Ok(fb)) => {
            for p in points.chunks_exact(D) {
                let p: [f64; D] = p.try_into().unwrap();
                let (sa, sb) = (fa.sample(p), fb.sample(p));
                let key =
                    |s: surflet::Sample<f64, D>| (s.value.to_bits(), s.gradient.map(f64::to_bits));
                if key(sa) != key(sb) {
                    return Err(format!("at {p:?}: {sa:?} against {sb:?}"));
                }
            }
            Ok(())
        }
        (Err(ea), Err(eb)) if ea.to_string() == eb.to_string() => Ok(()),
        (ra, rb) => Err(format!(
            "builds differ: {:?} against {:?}",
            ra.err().map(|e| e.to_string()),
            rb.err().map(|e| e.to_string())
        )),
    }
}

fn dims_graph_points() -> impl Strategy<Value = (usize, Graph, Vec<f64>)> {
    (1..=3usize).prop_flat_map(|d| {
        (
            Just(d),
            graphs(d),
            proptest::collection::vec(prop_oneof![-50.0f64..50.0, Just(0.0), Just(-0.0)], 4 * d),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Every spelling of every graph reads back bit for bit: the expression,
    /// JSON and TOML parse to a graph whose every number has the original's
    /// bits (−0.0 stays −0.0), print again to the same text, and evaluate
    /// to the same value and gradient bits (or fail to build with the same
    /// message). Stacks alone round-trip through their own TOML and JSON.
    #[test]
    fn spellings_round_trip((d, g, points) in dims_graph_points()) {
        let want = bit_key(&g);
        let text = g.to_expr().unwrap();
        let back = Graph::parse(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(&bit_key(&back), &want, "expression: {}", text);
        prop_assert_eq!(back.to_expr().unwrap(), text.clone());
        let json = g.to_json_string().unwrap();
        let from_json = Graph::from_json_str(&json).map_err(|e| TestCaseError::fail(format!("{json}: {e}")))?;
        prop_assert_eq!(&bit_key(&from_json), &want, "JSON: {}", json);
        prop_assert_eq!(from_json.to_json_string().unwrap(), json.clone());
        let mut spellings = vec![("expression", back), ("JSON", from_json)];
        if !matches!(g, Graph::Const(_)) {
            let toml = g.to_toml_string().unwrap();
            let from_toml = Graph::from_toml_str(&toml).map_err(|e| TestCaseError::fail(format!("{toml}: {e}")))?;
            prop_assert_eq!(&bit_key(&from_toml), &want, "TOML: {}", toml);
            prop_assert_eq!(from_toml.to_toml_string().unwrap(), toml.clone());
            spellings.push(("TOML", from_toml));
        }
        if let Graph::Stack(s) = &g {
            let toml = s.to_toml_string().unwrap();
            let t = Stack::from_toml_str(&toml).map_err(|e| TestCaseError::fail(format!("{toml}: {e}")))?;
            prop_assert_eq!(bit_key(&Graph::stack(t)), want.clone(), "stack TOML: {}", toml);
            let json = s.to_json_string().unwrap();
            let j = Stack::from_json_str(&json).map_err(|e| TestCaseError::fail(format!("{json}: {e}")))?;
            prop_assert_eq!(bit_key(&Graph::stack(j)), want.clone(), "stack JSON: {}", json);
        }
        for (name, h) in &spellings {
            let same = match d {
                1 => same_field::<1>(&g, h, &points),
                2 => same_field::<2>(&g, h, &points),
                _ => same_field::<3>(&g, h, &points),
            };
            prop_assert!(same.is_ok(), "{} of {}: {}", name, text, same.unwrap_err());
        }
    }
}

/// The bit key tells −0.0 from 0.0 where `PartialEq` does not, so the
/// round trip above would see a printer that dropped a sign.
#[test]
fn the_bit_key_sees_the_sign_of_zero() {
    let (a, b) = (Graph::Const(0.0), Graph::Const(-0.0));
    assert_eq!(a, b);
    assert_ne!(bit_key(&a), bit_key(&b));
    let s = |amplitude| {
        Graph::stack(Stack {
            fractal: Some(surflet::FractalDesc {
                amplitude,
                normalize: false,
                ..Default::default()
            }),
            ..Stack::default()
        })
    };
    assert_eq!(s(0.0), s(-0.0));
    assert_ne!(bit_key(&s(0.0)), bit_key(&s(-0.0)));
}

/// Stack files load as one-node graphs, with the same values.
#[test]
fn old_stack_files_load_unchanged() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
    for name in ["stack.toml", "stack_commented.toml", "stack.json"] {
        let text = std::fs::read_to_string(format!("{dir}{name}")).unwrap();
        let (g, s) = if name.ends_with("json") {
            (
                Graph::from_json_str(&text).unwrap(),
                Stack::from_json_str(&text).unwrap(),
            )
        } else {
            (
                Graph::from_toml_str(&text).unwrap(),
                Stack::from_toml_str(&text).unwrap(),
            )
        };
        assert_eq!(g, Graph::stack(s.clone()), "{name}");
        let (f, e) = (g.build::<2>().unwrap(), s.build::<2>().unwrap());
        let grid = Grid::uniform([-3.0f32, 1.5], [0.37; 2], [33, 17]).unwrap();
        let (mut a, mut b) = (vec![0.0f32; grid.len()], vec![0.0f32; grid.len()]);
        f.grid(&grid, &mut a).unwrap();
        e.grid(&grid, &mut b).unwrap();
        assert_eq!(bits(&a), bits(&b), "{name}");
    }
}

#[test]
fn the_issue_example_parses_and_prints() {
    let text = "select(fbm(simplex(seed=1), octaves=6), ridged(perlin(seed=2), octaves=4), \
                control=perlin(seed=3, frequency=0.25), threshold=0, falloff=0.1) * 0.8 + 0.1";
    let g = Graph::parse(text).unwrap();
    assert_eq!(
        g.to_expr().unwrap(),
        // Octaves = 4 is the default, so it is not written.
        "select(fbm(simplex(seed=1), octaves=6), ridged(perlin(seed=2)), \
         control=perlin(seed=3, frequency=0.25), threshold=0.0, falloff=0.1) * 0.8 + 0.1"
    );
    let f = g.build::<2>().unwrap();
    let (lo, hi) = f.range();
    // Ridged is [0, 1] and fBm [-1, 1]: the hull is [-1, 1], times 0.8 plus 0.1.
    assert!(
        (lo + 0.7).abs() < 1e-5 && (hi - 0.9).abs() < 1e-5,
        "[{lo}, {hi}]"
    );
}

// ---------------------------------------------------------------------
// Bad input

fn expr_err(text: &str) -> (usize, String) {
    match Graph::parse(text) {
        Err(Error::Expression {
            column,
            message,
            snippet,
        }) => {
            // The caret line points at the column.
            let caret = snippet.lines().nth(1).unwrap();
            assert_eq!(caret.find('^').unwrap() + 1, column, "{text}: {snippet}");
            (column, message)
        }
        other => panic!("{text}: expected an expression error, got {other:?}"),
    }
}

#[test]
fn bad_expressions_point_at_the_fault() {
    let cases: &[(&str, usize, &str)] = &[
        ("fbm(simplx(seed=1))", 5, "unknown function `simplx`"),
        ("perlin(sed=1)", 8, "perlin has no argument `sed`"),
        (
            "select(perlin(), simplex())",
            1,
            "select needs the argument `control`",
        ),
        (
            "abs(perlin()",
            13,
            "expected `,` or `)` to close the `(` at column 4",
        ),
        (
            "fbm(simplex(), octaves=5",
            25,
            "expected `,` or `)` to close the `(` at column 4",
        ),
        ("(1 + perlin()", 14, "`)` to close the `(` at column 1"),
        (
            "remap(perlin(), from=[0, 1",
            27,
            "`,` or `]` to close the `[` at column 22",
        ),
        ("abs(perlin(), 2)", 15, "abs takes at most 1 argument"),
        ("abs(perlin()))", 14, "expected"),
        ("perlin() +", 11, "expected"),
        (
            "clamp(perlin(), 0, 1, 2)",
            23,
            "clamp takes at most 3 arguments",
        ),
        ("clamp(perlin(), min=0, min=1)", 24, "given twice"),
        ("perlin(seed=1.5)", 13, "whole number"),
        ("fbm(simplex(), octaves=0)", 24, "fractal.octaves"),
        ("fbm(fbm(simplex()))", 5, "must be a noise"),
        ("remap(perlin(), from=[0], to=[0, 1])", 22, "two numbers"),
        ("perlin(seed=\"x\")", 14, "whole number"),
        ("terrace(perlin(), points=3)", 26, "is a list"),
        ("nosuch", 1, "expected a field"),
        // A fault at a multi-byte character: the caret covers it (this
        // panicked slicing the text until the `expr` fuzz target found it).
        ("perlin(seed=1) * Қ", 18, "expected"),
        ("perlinҚ", 7, "expected"),
        // A fractal or warp of something that is not a noise (these
        // panicked until the `expr` fuzz target found them).
        (
            "fbm(perlin() * 2, octaves=3)",
            5,
            "expected a noise such as simplex(...), found mul(...)",
        ),
        (
            "warp(fbm(value() / 2), amplitude=0.5)",
            10,
            "expected a noise such as simplex(...), found div(...)",
        ),
        (
            "ridged(abs(perlin()))",
            8,
            "expected a noise such as simplex(...), found abs(...)",
        ),
    ];
    let mut wrong = Vec::new();
    for (text, column, msg) in cases {
        let (c, m) = expr_err(text);
        // A count of one is "1 argument", never "1 arguments".
        if !m.contains(msg) || c != *column || m.contains(" 1 arguments") {
            wrong.push(format!(
                "{text}: column {c} (want {column}), {m:?} (want {msg:?})"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn bombs_are_refused_without_overflowing_the_stack() {
    let n = 100_000;
    let parens = format!("{}1{}", "(".repeat(n), ")".repeat(n));
    assert!(expr_err(&parens).1.contains("nested deeper"));
    let calls = format!("{}perlin(){}", "abs(".repeat(n), ")".repeat(n));
    assert!(expr_err(&calls).1.contains("nested deeper"));
    let negs = format!("{}perlin()", "-".repeat(n));
    assert!(expr_err(&negs).1.contains("deeper than"));
    let chain = format!("perlin(){}", " + 1".repeat(n));
    assert!(expr_err(&chain).1.contains("deeper than"));
    // Just past the limit, with calls.
    let deep = format!(
        "{}perlin(){}",
        "abs(".repeat(MAX_DEPTH),
        ")".repeat(MAX_DEPTH)
    );
    assert!(expr_err(&deep).1.contains("deeper than"));
    let ok = format!(
        "{}perlin(){}",
        "abs(".repeat(MAX_DEPTH - 1),
        ")".repeat(MAX_DEPTH - 1)
    );
    Graph::parse(&ok).unwrap().build::<2>().unwrap();
    // Configs.
    let json = format!("{}1{}", "[".repeat(n), "]".repeat(n));
    assert!(Graph::from_json_str(&json).is_err());
    let json = format!(
        "{}{{\"noise\": \"perlin\"}}{}",
        "{\"op\": \"abs\", \"input\": ".repeat(200),
        "}".repeat(200)
    );
    let e = Graph::from_json_str(&json).unwrap_err();
    assert!(
        e.to_string().contains("deeper") || e.to_string().contains("recursion"),
        "{e}"
    );
    let toml = format!("x = {}1{}", "[".repeat(n), "]".repeat(n));
    assert!(Graph::from_toml_str(&toml).is_err());
    // In code: build refuses, and depth() stays cheap.
    let mut g = Graph::parse("perlin()").unwrap();
    for _ in 0..1000 {
        g = g.abs();
    }
    assert!(g.build::<2>().is_err());
    assert_eq!(g.depth(), MAX_DEPTH + 1);
}

#[test]
fn bad_configs_name_the_key() {
    let cases: &[(&str, &str)] = &[
        ("op = \"nosuch\"", "unknown function `nosuch`"),
        ("op = \"abs\"", "abs needs the argument `input`"),
        (
            "op = \"abs\"\ninput = { noise = \"perlin\", sed = 1 }",
            "input.sed",
        ),
        (
            "op = \"abs\"\nfoo = 1\ninput = 1",
            "abs has no argument `foo`",
        ),
        (
            "op = \"add\"\na = 1\nb = { op = \"neg\", input = \"x\" }",
            "b.input",
        ),
        (
            "op = \"fbm\"\noctaves = 40\ninput = { noise = \"perlin\" }",
            "octaves",
        ),
        // A stack table gets the stack's checks, as a stack call does in an
        // expression: the `document` fuzz target read this one from a
        // config, and its expression was then refused.
        (
            "op = \"add\"\nb = 0\n[a]\nnoise = \"cellular\"\n\
             [a.fractal]\nkind = \"ridged\"\noctaves = 2\namplitude = 0.0",
            "a.fractal.normalize: normalising divides by the bound",
        ),
        (
            "noise = \"perlin\"\ndistance = \"manhattan\"",
            "distance: only cellular noise has a distance",
        ),
    ];
    for (text, msg) in cases {
        let e = Graph::from_toml_str(text).unwrap_err();
        assert!(e.to_string().contains(msg), "{text}: {e}");
    }
}

#[test]
fn bad_parameters_fail_to_build() {
    let cases: &[(&str, &str)] = &[
        ("pow(perlin(), 0.5)", "non-integer exponent"),
        ("pow(abs(perlin()), -0.5)", "positive"),
        ("clamp(perlin(), 1, 0)", "above max"),
        ("terrace(perlin(), points=[0, 0])", "strictly increasing"),
        ("curve(perlin(), points=[[0, 1]])", "at least two"),
        (
            "select(perlin(), value(), control=simplex(), falloff=-1)",
            "falloff",
        ),
        ("translate(perlin(), by=[1])", "needs 2 numbers"),
        ("displace(perlin(), by=[value()])", "needs 2 fields"),
        ("rotate(perlin(), matrix=[[1, 0, 0]])", "2 × 2"),
        ("remap(perlin(), from=[1, 1], to=[0, 1])", "differ"),
        ("smoothstep(0.5, 0.5, perlin())", "must differ"),
        ("smoothstep(-1e308, 1e308, perlin())", "finite"),
        ("distort(perlin(), roughness=0)", "octaves"),
        (
            "perlin(period=[3, 3], frequency=0.5) + fbm(simplex(period=[3]), octaves=2)",
            "period",
        ),
    ];
    for (text, msg) in cases {
        let e = Graph::parse(text).unwrap().build::<2>().unwrap_err();
        assert!(e.to_string().contains(msg), "{text}: {e}");
    }
    let e = Graph::parse("rotate(perlin(), angle=1)")
        .unwrap()
        .build::<1>()
        .unwrap_err();
    assert!(e.to_string().contains("2+ dimensions"), "{e}");
}

#[test]
fn smoothstep_is_glsls() {
    // GLSL: t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2 * t).
    let glsl = |e0: f64, e1: f64, x: f64| {
        let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
        t * t * (3.0 - 2.0 * t)
    };
    for (e0, e1) in [(-0.5, 0.5), (0.25, 2.0), (1.0, -1.0)] {
        for x in [
            -3.0, -1.0, -0.5, -0.2, 0.0, 0.25, 0.3, 0.5, 1.0, 1.7, 2.0, 9.0,
        ] {
            let f = Graph::Const(x).smoothstep(e0, e1).build::<2>().unwrap();
            let s = f.sample([0.4f64, -1.3]);
            assert!(
                (s.value - glsl(e0, e1, x)).abs() < 1e-15,
                "smoothstep({e0}, {e1}, {x}) = {}, GLSL {}",
                s.value,
                glsl(e0, e1, x)
            );
            assert_eq!(s.gradient, [0.0, 0.0]);
        }
    }
    // Flat at both edges: the chain rule gives 0 there, and the slope
    // 6t(1 - t)/(e1 - e0) inside.
    let n = Graph::parse("perlin(seed=5) * 0.5").unwrap();
    let (inner, f) = (
        n.clone().build::<2>().unwrap(),
        n.smoothstep(-0.2, 0.3).build::<2>().unwrap(),
    );
    for p in points::<2>(200, 9, 10.0) {
        let (x, g) = (inner.sample(p), f.sample(p));
        let t = ((x.value + 0.2) / 0.5).clamp(0.0, 1.0);
        let slope = 6.0 * t * (1.0 - t) / 0.5;
        for a in 0..2 {
            assert!((g.gradient[a] - slope * x.gradient[a]).abs() < 1e-12);
        }
    }
    // Its measured range lies in the derived one, which is [0, 1] widened.
    assert_eq!(f.range(), (0.0, 1.0000009536743164));
}

/// A call tree with every argument named (`fbm(input=perlin(seed=2),
/// octaves=5)`): what the explorer's node editor writes.
fn named(t: &surflet::graph::CallTree, sigs: &[surflet::graph::Signature]) -> String {
    use surflet::graph::CallTree;
    match t {
        CallTree::Call { name, args } => {
            let sig = sigs.iter().find(|s| &s.name == name).expect("a signature");
            let args: Vec<String> = args
                .iter()
                .enumerate()
                .map(|(i, (n, v))| {
                    let n = n.clone().unwrap_or_else(|| sig.params[i].to_string());
                    format!("{n}={}", named(v, sigs))
                })
                .collect();
            format!("{name}({})", args.join(", "))
        }
        CallTree::Number(_, text) => text.clone(),
        CallTree::Word(w) => w.clone(),
        CallTree::List(items) => {
            let items: Vec<String> = items.iter().map(|i| named(i, sigs)).collect();
            format!("[{}]", items.join(", "))
        }
    }
}

/// Every case's call tree, written back with every argument named, is the
/// same graph: the node editor's round trip. The field parameters named in
/// the signatures are the ones that hold calls.
#[test]
fn call_trees_name_their_arguments_and_read_back() {
    use surflet::graph::{CallTree, Signature};
    let sigs = Signature::all();
    for s in &sigs {
        assert!(
            s.inputs.iter().all(|i| s.params.contains(i)),
            "{}: inputs {:?} outside {:?}",
            s.name,
            s.inputs,
            s.params
        );
    }
    fn fields_are_inputs(t: &CallTree, sigs: &[Signature]) {
        if let CallTree::Call { name, args } = t {
            let sig = sigs.iter().find(|s| &s.name == name).unwrap();
            for (i, (n, v)) in args.iter().enumerate() {
                let p = n.as_deref().unwrap_or(sig.params[i]);
                let holds_call = match v {
                    CallTree::Call { .. } => true,
                    CallTree::List(items) => {
                        items.iter().any(|x| matches!(x, CallTree::Call { .. }))
                    }
                    _ => false,
                };
                if holds_call {
                    assert!(sig.inputs.contains(&p), "{name}: {p} holds a field");
                }
                fields_are_inputs(v, sigs);
            }
        }
    }
    let mut cases = cases(2);
    cases.push("displace(perlin(), by=[value(seed=1), simplex(seed=2) * 0.5])".into());
    cases.push("fbm(perlin(antialias=true, footprint=0.01), octaves=6) + 0.25".into());
    for text in cases {
        let g = Graph::parse(&text).unwrap();
        let Ok(tree) = g.call_tree() else { continue };
        fields_are_inputs(&tree, &sigs);
        let again = named(&tree, &sigs);
        assert_eq!(Graph::parse(&again).unwrap(), g, "{text}\n -> {again}");
    }
}
