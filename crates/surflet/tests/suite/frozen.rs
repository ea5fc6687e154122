//! Frozen outputs: the bits of every family noise, N-D noise, cellular
//! combination, fractal, warp, curl and graph node kind, in `f64` and `f32`,
//! values and gradients, at 64 points per case, compared to files under
//! `tests/frozen/` (its README has the format).
//!
//! Outputs are frozen until 1.0: a user's saved seed, config or expression
//! must draw the same picture in every release. The files are the cases: the
//! check reads each case's description from its file, evaluates it on every
//! instruction set the CPU has and through the single-point call, and
//! compares every number to the bit. The list the files were made from is
//! here too ([`cases`]), and it must name the same cases, so a case added
//! here without its golden fails as well.
//!
//! The files change only through the explicit command
//!
//! ```sh
//! SURFLET_BLESS=1 cargo test -p surflet --test suite frozen::
//! ```
//!
//! which prints, case by case, what changed (points, largest difference in
//! units in the last place) before it writes them, and refuses to run under
//! CI (`CI=true`).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use surflet::nd::{NdKind, NoiseNd};
use surflet::{
    Cellular, CellularDistance, CellularReturn, Curl, Field, Float, Fractal, FractalKind,
    FractalParams, Isa, Noise, NoiseKind,
};

/// Points per case.
const POINTS: usize = 64;
/// Coordinates per point in `points.txt`: a case in D dimensions uses the
/// first D.
const WIDTH: usize = 8;

/// A golden file and the list of the cases it holds.
type File = (&'static str, fn() -> Vec<String>);

/// The golden files, each with the cases it holds.
const FILES: [File; 5] = [
    ("family.txt", family_cases),
    ("cellular.txt", cellular_cases),
    ("nd.txt", nd_cases),
    ("composite.txt", composite_cases),
    ("graph.txt", graph_cases),
];

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/frozen")
}

// ---------------------------------------------------------------------------
// The cases.

const SEEDS: [u64; 3] = [0, 0x2a, u64::MAX];

/// A period for `d` dimensions that every periodic kind accepts (2D simplex
/// needs an even y period).
fn period(d: usize) -> &'static str {
    ["5", "6,4", "4,6,8", "4,2,6,8"][d - 1]
}

/// Every family kind in 1D–4D at three seeds, and every periodic form.
fn family_cases() -> Vec<String> {
    let mut c = Vec::new();
    for kind in NoiseKind::ALL {
        for d in 1..=4 {
            for seed in SEEDS {
                c.push(format!("noise {kind} {d} seed={seed:#x}"));
            }
            if kind.periodic_dims().contains(&d) {
                c.push(format!("noise {kind} {d} seed=0x7 period={}", period(d)));
            }
        }
    }
    c
}

/// Every distance × return value in 1D–4D (at jitter 1, a seed per case),
/// and jitters 0, ¼ and ½.
fn cellular_cases() -> Vec<String> {
    let mut c = Vec::new();
    let mut seed = 100u64;
    for d in 1..=4 {
        for distance in CellularDistance::ALL {
            for ret in CellularReturn::ALL {
                seed += 1;
                c.push(format!(
                    "cellular {d} seed={seed:#x} distance={} return={} jitter=1",
                    distance.name(),
                    ret.name()
                ));
            }
        }
        for (jitter, distance, ret) in [
            ("0", "euclidean", "f1"),
            ("0.25", "euclidean", "f2-f1"),
            ("0.5", "manhattan", "f2"),
            ("0.5", "chebyshev", "cell-value"),
        ] {
            c.push(format!(
                "cellular {d} seed=0x9 distance={distance} return={ret} jitter={jitter}"
            ));
        }
    }
    c
}

/// N-D value, Perlin and simplex noise in 1D–8D at two seeds.
fn nd_cases() -> Vec<String> {
    let mut c = Vec::new();
    for kind in NdKind::ALL {
        for d in 1..=8 {
            for seed in [0x3u64, u64::MAX - 4] {
                c.push(format!("nd {} {d} seed={seed:#x}", kind.name()));
            }
        }
    }
    c
}

/// Fractals of every kind and every noise, their keys, stack keys, warps
/// and curl, in 2D and 3D (expressions, through `Graph`), and the direct
/// `Curl` type.
fn composite_cases() -> Vec<String> {
    let mut exprs: Vec<String> = Vec::new();
    for kind in FractalKind::ALL {
        exprs.push(format!("{kind}(perlin(seed=3), octaves=4)"));
        exprs.push(format!(
            "{kind}(simplex(seed=4), octaves=3, lacunarity=2.5, gain=0.4)"
        ));
    }
    for noise in NoiseKind::ALL {
        let noise = noise.name().replace('-', "_");
        exprs.push(format!("fbm({noise}(seed=5), octaves=3)"));
    }
    exprs.extend(
        [
            "fbm(value(seed=6), octaves=5, lacunarity=1.75, gain=0.6, amplitude=0.8, normalize=false)",
            "ridged(perlin(seed=7), octaves=4, offset=0.8, gain=0.6, weight=1.5)",
            "hybrid(simplex(seed=8), octaves=4, offset=0.7, gain=0.45)",
            "billow(cellular(seed=9, distance=manhattan, return=\"f2-f1\"), octaves=3)",
            "turbulence(opensimplex2s(seed=10), octaves=3, lacunarity=3)",
            "perlin(seed=11, frequency=0.37)",
            "simplex(seed=12, frequency=2.5, offset=[0.25, -1.5, 3.75])",
            "fbm(perlin(seed=13, period=[4, 8, 2]), octaves=3)",
            "fbm(simplex_value(seed=14, frequency=0.5), octaves=2, gain=0.3)",
            "warp(fbm(perlin(seed=15), octaves=3), amplitude=0.5)",
            "warp(fbm(simplex(seed=16), octaves=2), amplitude=1.5, kind=progressive)",
            "warp(fbm(value(seed=17), octaves=2), amplitude=0.75, noise=opensimplex2, seed=99, frequency=2)",
            "warp(ridged(perlin(seed=18), octaves=3), amplitude=0.25, kind=progressive, fractal=fbm, octaves=3, lacunarity=2.25, gain=0.45)",
            "warp(perlin(seed=19), amplitude=2, noise=cellular, fractal=billow, octaves=2)",
        ]
        .map(String::from),
    );
    let mut c = Vec::new();
    for d in [2, 3] {
        for e in &exprs {
            c.push(format!("graph {d} {}", fit_offsets(e, d)));
        }
        for kind in [NoiseKind::Perlin, NoiseKind::Simplex, NoiseKind::Value] {
            c.push(format!("curl {d} {kind} seed=0x15"));
        }
    }
    c
}

/// Every graph node kind, in 1D–3D: the list that `tests/suite/graph.rs`
/// walks, written out here so that a change there cannot move a golden.
fn graph_cases() -> Vec<String> {
    let common = [
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
        "0.5 + 0 * perlin(seed=1)",
        "translate(perlin(seed=1), by=[0.5, -1.25, 3])",
        "scale(perlin(seed=1), by=[0.5, -1.25, 3])",
        "translate(perlin(seed=1), by=[0.5, -1.25, 3]) + value(seed=3)",
        "displace(perlin(seed=1), by=[simplex(seed=2) * 0.5, value(seed=3) * perlin(seed=9), simplex(seed=4)])",
    ];
    let planar = [
        "rotate(perlin(seed=1), angle=0.7)",
        "rotate(translate(scale(simplex(seed=1), by=1.5), by=[1, 2, 3]), angle=-2)",
        "rotate(displace(perlin(seed=1), by=[simplex(seed=2), simplex(seed=3), simplex(seed=4)]), matrix=[[0.8, -0.3, -0.6], [0.3, 0.8, -0.3], [0.6, 0.3, 0.8]])",
    ];
    let mut c = Vec::new();
    for d in 1..=3 {
        for e in common.iter().chain(if d >= 2 { &planar[..] } else { &[] }) {
            c.push(format!("graph {d} {}", fit_offsets(e, d)));
        }
    }
    c
}

/// `e` with each bracketed list of three axis entries cut to `d` entries
/// (rows of a matrix included), so one expression serves 1D–3D.
fn fit_offsets(e: &str, d: usize) -> String {
    if d == 3 {
        return e.to_string();
    }
    let e = e
        .replace("[4, 8, 2]", ["[4]", "[4, 8]"][d - 1])
        .replace("[0.25, -1.5, 3.75]", ["[0.25]", "[0.25, -1.5]"][d - 1])
        .replace("[0.5, -1.25, 3]", ["[0.5]", "[0.5, -1.25]"][d - 1])
        .replace("[1, 2, 3]", ["[1]", "[1, 2]"][d - 1])
        .replace(
            "[simplex(seed=2) * 0.5, value(seed=3) * perlin(seed=9), simplex(seed=4)]",
            [
                "[simplex(seed=2) * 0.5]",
                "[simplex(seed=2) * 0.5, value(seed=3) * perlin(seed=9)]",
            ][d - 1],
        )
        .replace(
            "[simplex(seed=2), simplex(seed=3), simplex(seed=4)]",
            ["[simplex(seed=2)]", "[simplex(seed=2), simplex(seed=3)]"][d - 1],
        );
    e.replace(
        "[[0.8, -0.3, -0.6], [0.3, 0.8, -0.3], [0.6, 0.3, 0.8]]",
        "[[0.8, -0.3], [0.3, 0.8]]",
    )
}

// ---------------------------------------------------------------------------
// Evaluation.

/// One case's numbers: per point, its `f64` outputs and its `f32` outputs
/// (the value then the gradient, or a curl's components).
struct Outputs {
    f64s: Vec<Vec<f64>>,
    f32s: Vec<Vec<f32>>,
}

/// The outputs of `field` at `points` in precision `F`, the same on every
/// instruction set and through `sample` (checked here), as rows.
fn rows<F: Float, const D: usize>(field: &impl Field<D>, points: &[[f64; WIDTH]]) -> Vec<Vec<F>> {
    let coords: [Vec<F>; D] =
        core::array::from_fn(|a| points.iter().map(|p| F::from_f64(p[a])).collect());
    let refs: [&[F]; D] = core::array::from_fn(|a| coords[a].as_slice());
    let mut first: Option<Vec<Vec<F>>> = None;
    for isa in Isa::available() {
        let mut out = vec![F::ZERO; points.len()];
        let mut grad: [Vec<F>; D] = core::array::from_fn(|_| vec![F::ZERO; points.len()]);
        {
            let g: [&mut [F]; D] = grad.each_mut().map(|v| v.as_mut_slice());
            field.fill_on(isa, refs, &mut out, Some(g)).unwrap();
        }
        let got: Vec<Vec<F>> = (0..points.len())
            .map(|i| {
                let mut r = vec![out[i]];
                r.extend(grad.iter().map(|g| g[i]));
                r
            })
            .collect();
        match &first {
            None => first = Some(got),
            Some(f) => assert!(
                same_bits(f, &got),
                "{} differs from the first backend",
                isa.name()
            ),
        }
    }
    let first = first.unwrap();
    for (i, row) in first.iter().enumerate() {
        let s = field.sample(core::array::from_fn(|a| refs[a][i]));
        let mut r = vec![s.value];
        r.extend(s.gradient);
        assert!(
            same_bits(std::slice::from_ref(row), &[r]),
            "sample differs at point {i}"
        );
    }
    first
}

fn same_bits<F: Float>(a: &[Vec<F>], b: &[Vec<F>]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|(u, v)| u.to_f64().to_bits() == v.to_f64().to_bits())
        })
}

fn both<const D: usize>(field: &impl Field<D>, points: &[[f64; WIDTH]]) -> Outputs {
    Outputs {
        f64s: rows::<f64, D>(field, points),
        f32s: rows::<f32, D>(field, points),
    }
}

/// The `key=value` words of a case description.
fn keys<'a>(words: &[&'a str]) -> BTreeMap<&'a str, &'a str> {
    words
        .iter()
        .map(|w| {
            w.split_once('=')
                .unwrap_or_else(|| panic!("not key=value: {w}"))
        })
        .collect()
}

fn seed(k: &BTreeMap<&str, &str>) -> u64 {
    u64::from_str_radix(k["seed"].trim_start_matches("0x"), 16).unwrap()
}

/// Calls `$body` with `$d` bound to the const generic for `$n`: 1..=4, or
/// 1..=8 after `nd`.
macro_rules! with_dim {
    ($n:expr, $d:ident => $body:expr) => {
        with_dim!(@ $n, $d => $body; 1 2 3 4)
    };
    (nd $n:expr, $d:ident => $body:expr) => {
        with_dim!(@ $n, $d => $body; 1 2 3 4 5 6 7 8)
    };
    (@ $n:expr, $d:ident => $body:expr; $($k:literal)*) => {
        match $n {
            $($k => {
                const $d: usize = $k;
                $body
            })*
            n => panic!("no dimension {n}"),
        }
    };
}

/// Evaluates one case from its description, or `None` for a graph case in a
/// build without the expression language.
fn evaluate(case: &str, points: &[[f64; WIDTH]]) -> Option<Outputs> {
    let words: Vec<&str> = case.split(' ').collect();
    let d: usize = words[1 + usize::from(words[0] == "noise" || words[0] == "nd")]
        .parse()
        .unwrap_or_else(|_| panic!("no dimension in {case:?}"));
    Some(match words[0] {
        "noise" => {
            let kind = NoiseKind::from_name(words[1]).unwrap();
            let k = keys(&words[3..]);
            with_dim!(d, D => {
                let mut n = Noise::<D>::new(kind, seed(&k));
                if let Some(p) = k.get("period") {
                    let p: Vec<u32> = p.split(',').map(|x| x.parse().unwrap()).collect();
                    n = n.with_period(p.try_into().unwrap()).unwrap();
                }
                both(&n, points)
            })
        }
        "cellular" => {
            let k = keys(&words[2..]);
            let options = Cellular::new(
                CellularDistance::from_name(k["distance"]).unwrap(),
                CellularReturn::from_name(k["return"]).unwrap(),
                k["jitter"].parse().unwrap(),
            )
            .unwrap();
            with_dim!(d, D => {
                let n = Noise::<D>::new(NoiseKind::Cellular, seed(&keys(&words[2..])))
                    .with_cellular(options)
                    .unwrap();
                both(&n, points)
            })
        }
        "nd" => {
            let kind = NdKind::from_name(words[1]).unwrap();
            let k = keys(&words[3..]);
            with_dim!(nd d, D => both(&NoiseNd::<D>::new(kind, seed(&k)), points))
        }
        "curl" => {
            let kind = NoiseKind::from_name(words[2]).unwrap();
            let k = keys(&words[3..]);
            match d {
                2 => curl::<2>(kind, seed(&k), points),
                3 => curl::<3>(kind, seed(&k), points),
                _ => panic!("curl is 2D or 3D: {case}"),
            }
        }
        "graph" => return graph(d, &words[2..].join(" "), points),
        _ => panic!("unknown case {case:?}"),
    })
}

#[cfg(feature = "expr")]
fn graph(d: usize, expr: &str, points: &[[f64; WIDTH]]) -> Option<Outputs> {
    let g = surflet::graph::Graph::parse(expr).unwrap_or_else(|e| panic!("{expr}: {e}"));
    Some(with_dim!(d, D => both(&g.build::<D>().unwrap_or_else(|e| panic!("{expr}: {e}")), points)))
}

#[cfg(not(feature = "expr"))]
fn graph(_: usize, _: &str, _: &[[f64; WIDTH]]) -> Option<Outputs> {
    None
}

/// Curl noise of a 3-octave fBm of `kind`: its D components, on every
/// instruction set and through `get`.
fn curl<const D: usize>(kind: NoiseKind, seed: u64, points: &[[f64; WIDTH]]) -> Outputs {
    let psi = Fractal::new(
        Noise::<D>::new(kind, seed),
        FractalParams {
            octaves: 3,
            ..FractalParams::new(FractalKind::Fbm)
        },
    )
    .unwrap();
    let c = Curl::<D>::new(psi);
    fn go<F: Float, const D: usize>(c: &Curl<D>, points: &[[f64; WIDTH]]) -> Vec<Vec<F>> {
        let coords: [Vec<F>; D] =
            core::array::from_fn(|a| points.iter().map(|p| F::from_f64(p[a])).collect());
        let refs: [&[F]; D] = core::array::from_fn(|a| coords[a].as_slice());
        let mut first: Option<Vec<Vec<F>>> = None;
        for isa in Isa::available() {
            let mut out: [Vec<F>; D] = core::array::from_fn(|_| vec![F::ZERO; points.len()]);
            c.fill_on(isa, refs, out.each_mut().map(|v| v.as_mut_slice()))
                .unwrap();
            let got: Vec<Vec<F>> = (0..points.len())
                .map(|i| out.iter().map(|o| o[i]).collect())
                .collect();
            match &first {
                None => first = Some(got),
                Some(f) => assert!(same_bits(f, &got), "curl: {} differs", isa.name()),
            }
        }
        let first = first.unwrap();
        for (i, row) in first.iter().enumerate() {
            let v = c.get(core::array::from_fn(|a| refs[a][i]));
            assert!(
                same_bits(std::slice::from_ref(row), &[v.to_vec()]),
                "curl get at {i}"
            );
        }
        first
    }
    Outputs {
        f64s: go::<f64, D>(&c, points),
        f32s: go::<f32, D>(&c, points),
    }
}

// ---------------------------------------------------------------------------
// The files.

/// The 64 points, 8 coordinates each: 24 spread over [-4, 4) (many cells,
/// both signs), 8 on and next to lattice planes (integers, ±2⁻²⁰ from them,
/// halves, ±0), 8 negatives in [-1000, -10), 8 of magnitude 10⁴–10⁶, 4 of
/// magnitude 2²⁴–2³¹ (where `f32` holds only integers), 12 in [-100, 100).
/// Every coordinate of the near-lattice group is exact in `f32`, so both
/// precisions see the same point there. Made once from SplitMix64 and kept
/// in `points.txt`; the check reads the file.
fn make_points() -> Vec<[f64; WIDTH]> {
    let mut state = 0x5EED_F00Du64;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut unit = || (next() >> 11) as f64 / (1u64 << 53) as f64;
    let mut points = Vec::new();
    for i in 0..POINTS {
        let p: [f64; WIDTH] = core::array::from_fn(|_| {
            let u = unit();
            let sign = if unit() < 0.5 { -1.0 } else { 1.0 };
            match i {
                0..24 => -4.0 + 8.0 * u,
                24..32 => {
                    let n = (u * 11.0).floor() - 5.0;
                    let near = [0.0, 1.0 / 1048576.0, -1.0 / 1048576.0, 0.5, -0.5];
                    let v = n + near[(unit() * 5.0) as usize % 5];
                    if v == 0.0 && sign < 0.0 { -0.0 } else { v }
                }
                32..40 => -1000.0 + 990.0 * u,
                40..48 => sign * 10f64.powf(4.0 + 2.0 * u),
                48..52 => sign * 2f64.powf(24.0 + 7.0 * u),
                _ => -100.0 + 200.0 * u,
            }
        });
        points.push(p);
    }
    points
}

fn hex64(v: f64) -> String {
    format!("{:016x}", v.to_bits())
}

fn hex32(v: f32) -> String {
    format!("{:08x}", v.to_bits())
}

fn read_points() -> Vec<[f64; WIDTH]> {
    let path = dir().join("points.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let points: Vec<[f64; WIDTH]> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let v: Vec<f64> = l
                .split_whitespace()
                .map(|h| f64::from_bits(u64::from_str_radix(h, 16).unwrap()))
                .collect();
            v.try_into().expect("8 coordinates a point")
        })
        .collect();
    assert_eq!(points.len(), POINTS, "{}", path.display());
    points
}

fn write_points(points: &[[f64; WIDTH]]) -> String {
    let mut s = String::from(
        "# The points of every frozen case: 64 points of 8 coordinates, as the hex bits of\n\
         # f64 values; a case in D dimensions uses the first D, and f32 cases round them.\n",
    );
    for p in points {
        let line: Vec<String> = p.iter().map(|&v| hex64(v)).collect();
        s += &line.join(" ");
        s.push('\n');
    }
    s
}

/// One point's line: the `f64` outputs, ` : `, the `f32` outputs.
fn line(o: &Outputs, i: usize) -> String {
    let a: Vec<String> = o.f64s[i].iter().map(|&v| hex64(v)).collect();
    let b: Vec<String> = o.f32s[i].iter().map(|&v| hex32(v)).collect();
    format!("{} : {}", a.join(" "), b.join(" "))
}

/// A golden file's cases in order: (description, point lines).
fn read_cases(text: &str) -> Vec<(String, Vec<String>)> {
    let mut cases: Vec<(String, Vec<String>)> = Vec::new();
    for l in text.lines() {
        if l.starts_with('#') || l.trim().is_empty() {
            continue;
        }
        if let Some(case) = l.strip_prefix("case ") {
            cases.push((case.to_string(), Vec::new()));
        } else {
            cases
                .last_mut()
                .expect("a point line before any case")
                .1
                .push(l.to_string());
        }
    }
    cases
}

fn header(file: &str) -> String {
    format!(
        "# surflet frozen outputs: {file}. Each case is a description line, then one line per\n\
         # point of points.txt: the value and gradient (curl: its components) as the hex bits of\n\
         # the f64 results, ` : `, the same for f32. Regenerated only by\n\
         # SURFLET_BLESS=1 cargo test -p surflet --test suite frozen::  (tests/frozen/README.md)\n"
    )
}

/// The numbers of a point line: the `f64`s, then the `f32`s.
fn parse_line(l: &str) -> (Vec<f64>, Vec<f32>) {
    let (a, b) = l.split_once(" : ").expect("` : ` between the precisions");
    let a = a
        .split(' ')
        .map(|h| f64::from_bits(u64::from_str_radix(h, 16).unwrap()))
        .collect();
    let b = b
        .split(' ')
        .map(|h| f32::from_bits(u32::from_str_radix(h, 16).unwrap()))
        .collect();
    (a, b)
}

/// The distance from `a` to `b` in units in the last place, on the
/// integer line of ordered floats.
fn ulps(a: f64, b: f64, single: bool) -> u64 {
    let key = |v: f64| -> i64 {
        if single {
            let i = (v as f32).to_bits() as i32;
            i64::from(if i < 0 { i32::MIN - i } else { i })
        } else {
            let i = v.to_bits() as i64;
            if i < 0 { i64::MIN - i } else { i }
        }
    };
    key(a).abs_diff(key(b))
}

/// What differs between two point lines' numbers: how many, and the most
/// units in the last place.
fn compare(want: &str, got: &str) -> (usize, u64) {
    let (wa, wb) = parse_line(want);
    let (ga, gb) = parse_line(got);
    let mut n = 0;
    let mut worst = 0;
    for (w, g) in wa.iter().zip(&ga) {
        if w.to_bits() != g.to_bits() {
            n += 1;
            worst = worst.max(ulps(*w, *g, false));
        }
    }
    for (w, g) in wb.iter().zip(&gb) {
        if w.to_bits() != g.to_bits() {
            n += 1;
            worst = worst.max(ulps(f64::from(*w), f64::from(*g), true));
        }
    }
    if wa.len() != ga.len() || wb.len() != gb.len() {
        n += 1;
        worst = u64::MAX;
    }
    (n, worst)
}

/// A report of how `got` differs from the file's `want`, one line per
/// changed case; empty when they agree.
fn differences(
    want: &[(String, Vec<String>)],
    got: &[(String, Option<Vec<String>>)],
) -> Vec<String> {
    let mut report = Vec::new();
    let wanted: BTreeMap<&str, &Vec<String>> = want.iter().map(|(c, l)| (c.as_str(), l)).collect();
    let made: BTreeMap<&str, ()> = got.iter().map(|(c, _)| (c.as_str(), ())).collect();
    for (case, lines) in got {
        let Some(lines) = lines else { continue };
        match wanted.get(case.as_str()) {
            None => report.push(format!("added: {case}")),
            Some(w) => {
                let mut points = 0;
                let mut numbers = 0;
                let mut worst = 0;
                for (a, b) in w.iter().zip(lines) {
                    let (n, u) = compare(a, b);
                    if n > 0 {
                        points += 1;
                        numbers += n;
                        worst = worst.max(u);
                    }
                }
                if w.len() != lines.len() {
                    report.push(format!(
                        "{case}: {} point lines, {} made",
                        w.len(),
                        lines.len()
                    ));
                } else if points > 0 {
                    report.push(format!(
                        "changed: {case}: {points} of {POINTS} points, {numbers} numbers, up to {worst} ulp"
                    ));
                }
            }
        }
    }
    for (case, _) in want {
        if !made.contains_key(case.as_str()) {
            report.push(format!("removed: {case}"));
        }
    }
    report
}

/// Every case of `file`'s list, evaluated, as its point lines.
fn make(cases: &[String], points: &[[f64; WIDTH]]) -> Vec<(String, Option<Vec<String>>)> {
    cases
        .iter()
        .map(|c| {
            let lines = evaluate(c, points).map(|o| (0..POINTS).map(|i| line(&o, i)).collect());
            (c.clone(), lines)
        })
        .collect()
}

fn blessing() -> bool {
    std::env::var("SURFLET_BLESS").is_ok_and(|v| v == "1")
}

#[test]
fn frozen_outputs_match_their_goldens() {
    if blessing() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "SURFLET_BLESS is refused under CI: goldens change only by a developer's command"
        );
        bless();
        return;
    }
    let points = read_points();
    let mut failures = Vec::new();
    let mut checked = 0;
    for (file, list) in FILES {
        let path = dir().join(file);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let want = read_cases(&text);
        let listed = list();
        let in_file: Vec<&str> = want.iter().map(|(c, _)| c.as_str()).collect();
        assert_eq!(
            in_file,
            listed.iter().map(String::as_str).collect::<Vec<_>>(),
            "{file}: the cases in the file and in frozen.rs differ; run the bless command"
        );
        let got = make(&listed, &points);
        checked += got.iter().filter(|(_, l)| l.is_some()).count();
        failures.extend(
            differences(&want, &got)
                .into_iter()
                .map(|r| format!("{file}: {r}")),
        );
    }
    println!("{checked} frozen cases of {POINTS} points each agree to the bit");
    assert!(
        failures.is_empty(),
        "frozen outputs changed ({} cases):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Rewrites every file from the lists, printing what changed.
fn bless() {
    let path = dir().join("points.txt");
    let points = if path.exists() {
        read_points()
    } else {
        let p = make_points();
        std::fs::create_dir_all(dir()).unwrap();
        std::fs::write(&path, write_points(&p)).unwrap();
        println!("wrote {}", path.display());
        p
    };
    for (file, list) in FILES {
        let path = dir().join(file);
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        let got = make(&list(), &points);
        assert!(
            got.iter().all(|(_, l)| l.is_some()),
            "bless with the expression language built (the default features)"
        );
        let report = differences(&read_cases(&old), &got);
        let mut text = header(file);
        for (case, lines) in &got {
            let _ = writeln!(text, "case {case}");
            for l in lines.as_ref().unwrap() {
                text += l;
                text.push('\n');
            }
        }
        if text != old {
            std::fs::write(&path, text).unwrap();
        }
        println!("{file}: {} cases, {} changed", got.len(), report.len());
        for r in report {
            println!("  {r}");
        }
    }
}

/// The files cover every kind: a case list that lost one fails here even
/// after a bless.
#[test]
fn frozen_cases_cover_every_kind() {
    let all: Vec<String> = FILES.iter().flat_map(|(_, list)| list()).collect();
    let has = |prefix: &str| all.iter().any(|c| c.starts_with(prefix));
    for kind in NoiseKind::ALL {
        for d in 1..=4 {
            assert!(has(&format!("noise {kind} {d} ")), "{kind} {d}D");
            if kind.periodic_dims().contains(&d) {
                let periodic = format!("noise {kind} {d} seed=0x7 period=");
                assert!(has(&periodic), "periodic {kind} {d}D");
            }
        }
    }
    for d in 1..=4 {
        for distance in CellularDistance::ALL {
            for ret in CellularReturn::ALL {
                let want = format!("distance={} return={} ", distance.name(), ret.name());
                assert!(
                    all.iter()
                        .any(|c| c.starts_with(&format!("cellular {d} ")) && c.contains(&want)),
                    "cellular {d}D {want}"
                );
            }
        }
    }
    for kind in NdKind::ALL {
        for d in 1..=8 {
            assert!(has(&format!("nd {} {d} ", kind.name())), "nd {kind:?} {d}D");
        }
    }
    for kind in FractalKind::ALL {
        assert!(
            all.iter().any(|c| c.contains(&format!(" {kind}("))),
            "fractal {kind}"
        );
    }
    for kind in ["single", "progressive"] {
        let found = all.iter().any(|c| {
            c.contains("warp(") && (c.contains(&format!("kind={kind}")) == (kind == "progressive"))
        });
        assert!(found, "warp {kind}");
    }
    #[cfg(feature = "expr")]
    graph_functions_are_covered(&all);
}

/// Every function of the expression language is called by some case, or
/// (the operators `a + b`, `-a`, constants) its node appears in one.
#[cfg(feature = "expr")]
fn graph_functions_are_covered(all: &[String]) {
    use surflet::graph::Graph;
    fn walk(g: &Graph, out: &mut std::collections::BTreeSet<String>) {
        let name: String = format!("{g:?}")
            .chars()
            .take_while(|c| c.is_alphanumeric())
            .collect();
        out.insert(name);
        for c in g.children() {
            walk(c, out);
        }
    }
    let mut nodes = std::collections::BTreeSet::new();
    let graphs = all.iter().filter_map(|c| c.strip_prefix("graph "));
    for e in graphs.clone() {
        walk(&Graph::parse(&e[2..]).unwrap(), &mut nodes);
    }
    for f in Graph::functions() {
        let node: String = f
            .split('_')
            .map(|w| w[..1].to_uppercase() + &w[1..])
            .collect();
        let called = graphs.clone().any(|e| e.contains(&format!("{f}(")));
        assert!(
            called || nodes.contains(&node),
            "graph function {f} is in no frozen case (nodes seen: {nodes:?})"
        );
    }
}
