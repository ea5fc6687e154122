//! Golden tests for the ports of K.jpg's OpenSimplex2 Java reference
//! (`reference::{opensimplex2, opensimplex2s}`).
//!
//! The CSVs in `tests/golden/opensimplex2/` were produced by running
//! `OpenSimplex2.java` and `OpenSimplex2S.java` (see §7 of
//! `tests/golden/README.md`). Each row gives a Java `long` seed, the
//! `double` coordinates, and the returned `float` with its bit pattern; every
//! row, special and lattice rows included, must be reproduced bit for bit.
//! The seed is read as an integer (not through `f64`, which cannot hold
//! 2^63 − 1) and compared against the `bits` column, so -0.0 and 0.0 differ.

use std::path::PathBuf;

use surflet::reference::{opensimplex2 as os2, opensimplex2s as os2s};

/// One golden row.
struct Row {
    seed: i64,
    coords: Vec<f64>,
    bits: u32,
}

/// Loads `tests/golden/opensimplex2/<file>` and checks its header.
fn load(file: &str, dims: usize) -> Vec<Row> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/opensimplex2")
        .join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<&str> = lines.next().expect("empty file").split(',').collect();
    let axes = &["x", "y", "z", "w"][..dims];
    let want: Vec<&str> = [&["seed"][..], axes, &["value", "bits"]].concat();
    assert_eq!(header, want, "{file}: header");
    let rows: Vec<Row> = lines
        .enumerate()
        .map(|(i, l)| {
            let f: Vec<&str> = l.split(',').map(str::trim).collect();
            assert_eq!(f.len(), dims + 3, "{file} row {i}: column count");
            let bits = u32::from_str_radix(f[dims + 2], 16)
                .unwrap_or_else(|e| panic!("{file} row {i}: bits {:?}: {e}", f[dims + 2]));
            // The two value columns must agree with each other.
            let value: f32 = f[dims + 1].parse().unwrap();
            assert_eq!(
                value.to_bits(),
                bits,
                "{file} row {i}: value and bits disagree"
            );
            Row {
                seed: f[0].parse().unwrap(),
                coords: f[1..=dims].iter().map(|c| c.parse().unwrap()).collect(),
                bits,
            }
        })
        .collect();
    // The shared rows of §7 (so that a truncated copy fails loudly).
    let expected = [0, 0, 1264, 1300, 1336][dims];
    assert_eq!(rows.len(), expected, "{file}: row count");
    rows
}

/// A port's function, taking the seed and the row's coordinates.
type Func = fn(i64, &[f64]) -> f32;

/// Every ported function: its golden file (without `.csv`), its dimension
/// and the function.
const FUNCS: [(&str, usize, Func); 20] = [
    ("opensimplex2_noise2", 2, |s, c| os2::noise2(s, c[0], c[1])),
    ("opensimplex2_noise2_improvex", 2, |s, c| {
        os2::noise2_improve_x(s, c[0], c[1])
    }),
    ("opensimplex2_noise3_improvexy", 3, |s, c| {
        os2::noise3_improve_xy(s, c[0], c[1], c[2])
    }),
    ("opensimplex2_noise3_improvexz", 3, |s, c| {
        os2::noise3_improve_xz(s, c[0], c[1], c[2])
    }),
    ("opensimplex2_noise3_fallback", 3, |s, c| {
        os2::noise3_fallback(s, c[0], c[1], c[2])
    }),
    ("opensimplex2_noise4_improvexyz_improvexy", 4, |s, c| {
        os2::noise4_improve_xyz_improve_xy(s, c[0], c[1], c[2], c[3])
    }),
    ("opensimplex2_noise4_improvexyz_improvexz", 4, |s, c| {
        os2::noise4_improve_xyz_improve_xz(s, c[0], c[1], c[2], c[3])
    }),
    ("opensimplex2_noise4_improvexyz", 4, |s, c| {
        os2::noise4_improve_xyz(s, c[0], c[1], c[2], c[3])
    }),
    ("opensimplex2_noise4_improvexy_improvezw", 4, |s, c| {
        os2::noise4_improve_xy_improve_zw(s, c[0], c[1], c[2], c[3])
    }),
    ("opensimplex2_noise4_fallback", 4, |s, c| {
        os2::noise4_fallback(s, c[0], c[1], c[2], c[3])
    }),
    ("opensimplex2s_noise2", 2, |s, c| {
        os2s::noise2(s, c[0], c[1])
    }),
    ("opensimplex2s_noise2_improvex", 2, |s, c| {
        os2s::noise2_improve_x(s, c[0], c[1])
    }),
    ("opensimplex2s_noise3_improvexy", 3, |s, c| {
        os2s::noise3_improve_xy(s, c[0], c[1], c[2])
    }),
    ("opensimplex2s_noise3_improvexz", 3, |s, c| {
        os2s::noise3_improve_xz(s, c[0], c[1], c[2])
    }),
    ("opensimplex2s_noise3_fallback", 3, |s, c| {
        os2s::noise3_fallback(s, c[0], c[1], c[2])
    }),
    ("opensimplex2s_noise4_improvexyz_improvexy", 4, |s, c| {
        os2s::noise4_improve_xyz_improve_xy(s, c[0], c[1], c[2], c[3])
    }),
    ("opensimplex2s_noise4_improvexyz_improvexz", 4, |s, c| {
        os2s::noise4_improve_xyz_improve_xz(s, c[0], c[1], c[2], c[3])
    }),
    ("opensimplex2s_noise4_improvexyz", 4, |s, c| {
        os2s::noise4_improve_xyz(s, c[0], c[1], c[2], c[3])
    }),
    ("opensimplex2s_noise4_improvexy_improvezw", 4, |s, c| {
        os2s::noise4_improve_xy_improve_zw(s, c[0], c[1], c[2], c[3])
    }),
    ("opensimplex2s_noise4_fallback", 4, |s, c| {
        os2s::noise4_fallback(s, c[0], c[1], c[2], c[3])
    }),
];

/// Requires every row of `name`'s file to be reproduced bit for bit.
fn check(name: &str) {
    let &(_, dims, f) = FUNCS.iter().find(|e| e.0 == name).expect("listed");
    let file = format!("{name}.csv");
    let rows = load(&file, dims);
    let bad: Vec<String> = rows
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let got = f(r.seed, &r.coords);
            (got.to_bits() != r.bits).then(|| {
                format!(
                    "row {i} seed {} {:?}: got {got:?} ({:08x}), want {:?} ({:08x})",
                    r.seed,
                    r.coords,
                    got.to_bits(),
                    f32::from_bits(r.bits),
                    r.bits
                )
            })
        })
        .collect();
    assert!(
        bad.is_empty(),
        "{file}: {} of {} rows not bit-identical:\n{}",
        bad.len(),
        rows.len(),
        bad[..bad.len().min(20)].join("\n")
    );
}

macro_rules! golden {
    ($($test:ident),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                check(stringify!($test));
            }
        )*
    };
}

golden!(
    opensimplex2_noise2,
    opensimplex2_noise2_improvex,
    opensimplex2_noise3_improvexy,
    opensimplex2_noise3_improvexz,
    opensimplex2_noise3_fallback,
    opensimplex2_noise4_improvexyz_improvexy,
    opensimplex2_noise4_improvexyz_improvexz,
    opensimplex2_noise4_improvexyz,
    opensimplex2_noise4_improvexy_improvezw,
    opensimplex2_noise4_fallback,
    opensimplex2s_noise2,
    opensimplex2s_noise2_improvex,
    opensimplex2s_noise3_improvexy,
    opensimplex2s_noise3_improvexz,
    opensimplex2s_noise3_fallback,
    opensimplex2s_noise4_improvexyz_improvexy,
    opensimplex2s_noise4_improvexyz_improvexz,
    opensimplex2s_noise4_improvexyz,
    opensimplex2s_noise4_improvexy_improvezw,
    opensimplex2s_noise4_fallback,
);

/// The bit comparison above catches a swapped function only if the files
/// tell the functions apart. They do: on each file, every other function of
/// its dimension (of either port) gets all but a few rows wrong. Those few
/// are points where both return 0, and diagonal points such as
/// (s, s, s, s), where the orientations that differ by exchanging two axes
/// agree.
#[test]
fn every_file_tells_its_function_from_the_others() {
    for &(name, dims, _) in &FUNCS {
        let rows = load(&format!("{name}.csv"), dims);
        for &(other, other_dims, g) in &FUNCS {
            if other == name || other_dims != dims {
                continue;
            }
            let same = rows
                .iter()
                .filter(|r| g(r.seed, &r.coords).to_bits() == r.bits)
                .count();
            assert!(
                same * 20 < rows.len(),
                "{other} reproduces {same} of {} rows of {name}.csv",
                rows.len()
            );
        }
    }
}

/// Every row's seed is one of the eight of §7, in turn.
#[test]
fn rows_cycle_through_the_eight_seeds() {
    const SEEDS: [i64; 8] = [
        0,
        1,
        -1,
        42,
        i64::MAX,
        i64::MIN,
        1234567890123456789,
        -7046029254386353131,
    ];
    for &(name, dims, _) in &FUNCS {
        for (i, r) in load(&format!("{name}.csv"), dims).iter().enumerate() {
            assert_eq!(r.seed, SEEDS[i % 8], "{name} row {i}");
        }
    }
}

/// Inputs where the `int` cells saturate or the arithmetic is not finite.
/// None may panic, not even with overflow checks on (the test profile keeps
/// them). The values there are as meaningless as the Java's (infinite, for
/// instance, once the saturated cell leaves a huge offset).
#[test]
fn hostile_inputs_do_not_panic() {
    const HOSTILE: [f64; 14] = [
        2147483648.5,
        -2147483649.5,
        1.07e9,
        -1.07e9,
        1e300,
        -1e300,
        f64::MAX,
        f64::MIN,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        -0.0,
        5e-324,
        0.5,
    ];
    let seeds = [0, -1, i64::MIN, i64::MAX];
    let mut evaluations = 0u64;
    for &(_, dims, f) in &FUNCS {
        for &seed in &seeds {
            for (i, &a) in HOSTILE.iter().enumerate() {
                for &b in &HOSTILE {
                    // Vary which axis gets which value.
                    let mut c = [0.25, -1.5, 3.0, 0.75];
                    c[i % dims] = a;
                    c[(i + 1) % dims] = b;
                    std::hint::black_box(f(seed, &c[..dims]));
                    evaluations += 1;
                }
            }
        }
    }
    assert!(evaluations > 10_000);
}

/// The Java's discontinuities, kept: pairs of points 1e-10 apart (found by
/// scanning random segments with seed 7) where the value jumps, with the
/// bits `OpenSimplex2.java` / `OpenSimplex2S.java` return on each side.
/// OpenSimplex2 is discontinuous in 3D and 4D (radius² 0.6), and even the
/// smooth OpenSimplex2S is in 3D.
#[test]
fn the_java_discontinuities_are_kept() {
    /// The function, the two points (coordinate bits) and the Java's bits.
    type Jump = (&'static str, [&'static [u64]; 2], [u32; 2]);
    let cases: [Jump; 4] = [
        (
            "opensimplex2_noise3_improvexy",
            [
                &[0x3fa04d0e117df0ec, 0x400f7c0e8b20e0a5, 0xbfd01b1f60d7582b],
                &[0x3fa04d0e110ff2e5, 0x400f7c0e8b20aa4d, 0xbfd01b1f60bf9a59],
            ],
            [0xbebad11b, 0xbebcbe7c],
        ),
        (
            "opensimplex2_noise4_fallback",
            [
                &[
                    0xc00c9493a96fa064,
                    0x40075419f68a0da6,
                    0xc0107905c48d3447,
                    0x3ff6d6d8ae4755c8,
                ],
                &[
                    0xc00c9493a96dcefc,
                    0x40075419f68b146e,
                    0xc0107905c48e42c5,
                    0x3ff6d6d8ae43e1b8,
                ],
            ],
            [0x3bf00dbf, 0x3b96cc9b],
        ),
        (
            "opensimplex2s_noise3_improvexy",
            [
                &[0x4003a294d5d0f431, 0x4013a54871282472, 0xbfefb298a084697b],
                &[0x4003a294d5ce88da, 0x4013a54871274f3a, 0xbfefb298a08b8afe],
            ],
            [0x3d363a66, 0x3d333f4c],
        ),
        (
            "opensimplex2s_noise3_fallback",
            [
                &[0x3fcf619cd1a2753f, 0x400e4648ebdf2a48, 0xc00995491d2de67f],
                &[0x3fcf619cd1c09f0c, 0x400e4648ebdcdfb9, 0xc00995491d2c2aef],
            ],
            [0x3f1ec807, 0x3f1e5a14],
        ),
    ];
    for (name, points, bits) in cases {
        let &(_, _, f) = FUNCS.iter().find(|e| e.0 == name).expect("listed");
        let [a, b] = points.map(|p| p.iter().map(|&c| f64::from_bits(c)).collect::<Vec<_>>());
        let distance = a
            .iter()
            .zip(&b)
            .map(|(x, y)| (x - y) * (x - y))
            .sum::<f64>()
            .sqrt();
        assert!(distance < 2e-10, "{name}: {distance:e} apart");
        let (va, vb) = (f(7, &a), f(7, &b));
        assert_eq!([va.to_bits(), vb.to_bits()], bits, "{name}");
        assert!((va - vb).abs() > 2e-4, "{name}: {va} vs {vb}");
    }
}
