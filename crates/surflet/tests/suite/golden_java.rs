//! Golden tests for the ports of the Java reference implementations
//! (`reference::{perlin2002, simplex2012, simplex2005, classic2005}`).
//!
//! The CSVs were produced by running the original Java code (see
//! `tests/golden/README.md`). Every row is compared, special and lattice rows
//! included, with the README §4 tolerances; on top of that every row must be
//! bit-identical, because the ports evaluate the same IEEE operations in the
//! same order as the Java.

use crate::common::{Golden, Report};
use surflet::reference::{classic2005, perlin2002, simplex2005, simplex2012};

/// README §4 tolerance class of a row, from its coordinates.
fn class_of(coords: &[f64]) -> (&'static str, f64) {
    if coords.iter().all(|c| c.abs() <= 300.0) {
        ("all |coord| <= 300", 1e-12)
    } else if coords.iter().all(|c| c.abs() < 1e5) {
        ("all |coord| < 1e5", 1e-11)
    } else {
        ("2^20 / 2^24 family", 1e-7)
    }
}

/// Compares `f` with every row of `file` (coordinates in the first `dims`
/// columns, the result in `value`), reports the worst error per class and the
/// number of bit-identical rows, and requires every row to be bit-identical.
fn check(file: &str, dims: usize, f: impl Fn(&[f64]) -> f64) {
    let golden = Golden::load(file);
    let value = golden.col("value");
    assert_eq!(value, dims, "{file}: expected {dims} coordinate columns");
    let mut report = Report::new();
    let mut bit_exact = 0;
    let mut not_bit_exact = Vec::new();
    for (row, data) in golden.rows.iter().enumerate() {
        let coords = &data[..dims];
        let want = data[value];
        let got = f(coords);
        let (class, tol) = class_of(coords);
        report.check(class, row, got, want, tol);
        if got.to_bits() == want.to_bits() {
            bit_exact += 1;
        } else {
            not_bit_exact.push(format!("row {row} {coords:?}: got {got:?}, want {want:?}"));
        }
    }
    let rows = golden.rows.len();
    println!("{file}: {bit_exact} of {rows} rows bit-identical");
    report.finish(file);
    assert!(
        not_bit_exact.is_empty(),
        "{file}: {} of {rows} rows not bit-identical:\n{}",
        not_bit_exact.len(),
        not_bit_exact
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn improved_perlin_3d() {
    check("improved_perlin_3d.csv", 3, |c| {
        perlin2002::noise(c[0], c[1], c[2])
    });
}

#[test]
fn gustavson_classic_3d() {
    check("gustavson_classic_3d.csv", 3, |c| {
        classic2005::noise3(c[0], c[1], c[2])
    });
}

#[test]
fn gustavson_simplex_2d() {
    check("gustavson_simplex_2d.csv", 2, |c| {
        simplex2012::noise2(c[0], c[1])
    });
}

#[test]
fn gustavson_simplex_3d() {
    check("gustavson_simplex_3d.csv", 3, |c| {
        simplex2012::noise3(c[0], c[1], c[2])
    });
}

#[test]
fn gustavson_simplex_4d() {
    check("gustavson_simplex_4d.csv", 4, |c| {
        simplex2012::noise4(c[0], c[1], c[2], c[3])
    });
}

#[test]
fn gustavson_simplex2005_2d() {
    check("gustavson_simplex2005_2d.csv", 2, |c| {
        simplex2005::noise2(c[0], c[1])
    });
}

#[test]
fn gustavson_simplex2005_3d() {
    check("gustavson_simplex2005_3d.csv", 3, |c| {
        simplex2005::noise3(c[0], c[1], c[2])
    });
}

#[test]
fn gustavson_simplex2005_4d() {
    check("gustavson_simplex2005_4d.csv", 4, |c| {
        simplex2005::noise4(c[0], c[1], c[2], c[3])
    });
}

#[test]
#[allow(
    clippy::approx_constant,
    reason = "3.14 is the customary anchor input, not an approximation of pi"
)]
fn perlin_sanity_anchor() {
    // The value usually quoted for Perlin's reference code.
    assert_eq!(perlin2002::noise(3.14, 42.0, 7.0), 0.13691995878400012);
}

/// The 2005 floor only differs from the 2012 one at exact integers ≤ 0, and
/// with the discontinuous 3D kernel that is visible: both versions must
/// reproduce their own file there, so the two files must differ on exactly
/// those rows (README §5: 9 rows in 3D, none in 2D and 4D).
#[test]
fn simplex_2005_and_2012_differ_only_where_the_files_do() {
    let count = |a: &str, b: &str| {
        let (a, b) = (Golden::load(a), Golden::load(b));
        let v = a.col("value");
        a.rows
            .iter()
            .zip(&b.rows)
            .filter(|(ra, rb)| {
                assert_eq!(ra[..v], rb[..v], "files list different points");
                ra[v].to_bits() != rb[v].to_bits()
            })
            .count()
    };
    assert_eq!(
        count("gustavson_simplex_2d.csv", "gustavson_simplex2005_2d.csv"),
        0
    );
    assert_eq!(
        count("gustavson_simplex_3d.csv", "gustavson_simplex2005_3d.csv"),
        9
    );
    assert_eq!(
        count("gustavson_simplex_4d.csv", "gustavson_simplex2005_4d.csv"),
        0
    );
}

/// Inputs where Java's `int` casts saturate, its `int` sums wrap, or the
/// arithmetic is not finite (README §5). None may panic, not even in a debug
/// build with overflow checks.
const HOSTILE: [f64; 18] = [
    2147483648.5,  // 2^31 + 0.5
    -2147483648.0, // -2^31
    -2147483649.5,
    2147483647.0,
    1.07e9,
    -1.07e9,
    1e300,
    -1e300,
    f64::MAX,
    f64::MIN,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    0.0,
    -0.0,
    -1.0,
    f64::MIN_POSITIVE,
    5e-324,
];

#[test]
fn hostile_inputs_do_not_panic() {
    let mut sink = 0usize;
    let mut use_value = |v: f64| sink += usize::from(v.is_nan());
    for &x in &HOSTILE {
        for &y in &HOSTILE {
            use_value(simplex2012::noise2(x, y));
            use_value(simplex2005::noise2(x, y));
            for &z in &HOSTILE {
                use_value(perlin2002::noise(x, y, z));
                use_value(classic2005::noise3(x, y, z));
                use_value(simplex2012::noise3(x, y, z));
                use_value(simplex2005::noise3(x, y, z));
                for &w in &HOSTILE {
                    use_value(simplex2012::noise4(x, y, z, w));
                    use_value(simplex2005::noise4(x, y, z, w));
                }
            }
        }
    }
    assert!(sink > 0, "NaN inputs should give some NaN outputs");
}

#[test]
fn nan_in_nan_out() {
    let n = f64::NAN;
    assert!(perlin2002::noise(n, 0.5, 0.5).is_nan());
    assert!(classic2005::noise3(0.5, n, 0.5).is_nan());
    assert!(simplex2012::noise2(n, 0.5).is_nan());
    assert!(simplex2012::noise3(0.5, 0.5, n).is_nan());
    assert!(simplex2012::noise4(0.5, 0.5, 0.5, n).is_nan());
    assert!(simplex2005::noise2(n, 0.5).is_nan());
    assert!(simplex2005::noise3(0.5, 0.5, n).is_nan());
    assert!(simplex2005::noise4(0.5, 0.5, 0.5, n).is_nan());
}

/// README §5: past the saturation of the cell index, the simplex functions
/// have every corner out of reach and return exactly 0, Perlin's noise stays
/// bounded, and `ClassicNoise` (which subtracts the saturated cell) explodes.
#[test]
fn huge_coordinates_behave_like_java() {
    for &h in &[2147483648.5, -2147483648.0, -2147483649.5, 1e300, -1e300] {
        for f in [simplex2012::noise2, simplex2005::noise2] {
            assert_eq!(f(h, 0.25), 0.0, "2D at {h}");
            assert_eq!(f(h, h), 0.0, "2D at {h}");
        }
        for f in [simplex2012::noise3, simplex2005::noise3] {
            assert_eq!(f(h, 0.25, 0.5), 0.0, "3D at {h}");
            assert_eq!(f(h, h, h), 0.0, "3D at {h}");
        }
        for f in [simplex2012::noise4, simplex2005::noise4] {
            assert_eq!(f(h, 0.25, 0.5, 0.75), 0.0, "4D at {h}");
            assert_eq!(f(h, h, h, h), 0.0, "4D at {h}");
        }
        assert!(
            perlin2002::noise(h, 0.25, 0.5).abs() <= 1.1,
            "Perlin at {h}"
        );
    }
    // Once the cell-index sum wraps, the unskewed origin is off by 2^32 G.
    assert_eq!(simplex2012::noise3(1.07e9, 1.07e9, 1.07e9), 0.0);
    assert_eq!(simplex2005::noise3(1.07e9, 1.07e9, 1.07e9), 0.0);
    assert_eq!(simplex2012::noise4(3e8, 3e8 + 0.5, 3e8, 3e8 + 0.7), 0.0);
    assert_eq!(simplex2005::noise4(3e8, 3e8 + 0.5, 3e8, 3e8 + 0.7), 0.0);
    assert!(classic2005::noise3(2147483648.5, 0.25, 0.5).abs() > 1.1);
    assert!(classic2005::noise3(-2147483648.0, 0.25, 0.5).abs() > 1e50);
    for f in [perlin2002::noise, classic2005::noise3] {
        assert!(f(f64::INFINITY, 0.25, 0.5).is_nan());
    }
    assert_eq!(simplex2012::noise3(f64::INFINITY, 0.25, 0.5), 0.0);
    assert_eq!(simplex2005::noise4(0.1, f64::NEG_INFINITY, 0.25, 0.5), 0.0);
}
