//! Golden tests for the `f32` ports of Gustavson's C libraries
//! (`noise1234`, `simplexnoise1234`, `sdnoise1234`, `srdnoise23`) against the
//! output of the original C (see `tests/golden/README.md`).
//!
//! Every row of every file is checked, the precision probes (|coord| ≥ 1e5)
//! included, with 1e-6 absolute on values and 1e-5 on derivatives; on top of
//! that every output must be bit-identical to the C's, since the ports
//! reproduce its operations, `double` promotions and rounding exactly.

use crate::common::{Golden, Report};
use surflet::reference::{noise1234, sdnoise1234, simplexnoise1234, srdnoise23};

const VALUE_TOL: f64 = 1e-6;
const DERIV_TOL: f64 = 1e-5;
/// Rows with a coordinate at least this large are the README's precision
/// probes (the 2^20 and 2^24 families); reported in their own class.
const PROBE: f64 = 1e5;

/// Checks every row of `file`: `n_in` float inputs, then `n_per` integer
/// periods, then the outputs (value, then derivatives). `f` returns the
/// outputs in file order.
fn check(file: &str, n_in: usize, n_per: usize, f: impl Fn(&[f32], &[i32]) -> Vec<f32>) {
    let g = Golden::load(file);
    let n_out = g.header.len() - n_in - n_per;
    assert!(n_out >= 1, "{file}: no output columns");
    let mut report = Report::new();
    let mut exact = 0;
    let mut exact_probe = (0, 0);
    for (r, row) in g.rows.iter().enumerate() {
        let input: Vec<f32> = row[..n_in]
            .iter()
            .map(|&v| {
                let x = v as f32;
                assert_eq!(f64::from(x), v, "{file} row {r}: input not an f32");
                x
            })
            .collect();
        let periods: Vec<i32> = row[n_in..n_in + n_per]
            .iter()
            .map(|&v| {
                let p = v as i32;
                assert_eq!(f64::from(p), v, "{file} row {r}: period not an int");
                p
            })
            .collect();
        let want = &row[n_in + n_per..];
        let got = f(&input, &periods);
        assert_eq!(got.len(), n_out, "{file}: output count");

        let probe = row[..n_in].iter().any(|v| v.abs() >= PROBE);
        let region = if probe {
            "probe |coord|>=1e5"
        } else {
            "|coord|<1e5"
        };
        let mut all_bits = true;
        for (o, (&gv, &wv)) in got.iter().zip(want).enumerate() {
            let gv = f64::from(gv);
            let (kind, tol) = if o == 0 {
                ("value", VALUE_TOL)
            } else {
                ("deriv", DERIV_TOL)
            };
            report.check(&format!("{kind} {region}"), r, gv, wv, tol);
            all_bits &= gv.to_bits() == wv.to_bits();
        }
        if all_bits {
            exact += 1;
        }
        if probe {
            exact_probe.1 += 1;
            if all_bits {
                exact_probe.0 += 1;
            }
        }
    }
    println!(
        "{file}: {exact}/{} rows bit-identical ({}/{} precision-probe rows)",
        g.rows.len(),
        exact_probe.0,
        exact_probe.1
    );
    report.finish(file);
    assert_eq!(
        exact,
        g.rows.len(),
        "{file}: every row should be bit-identical to the C"
    );
}

macro_rules! golden {
    ($name:ident, $file:literal, $n_in:literal, $n_per:literal, $f:expr) => {
        #[test]
        fn $name() {
            check($file, $n_in, $n_per, $f);
        }
    };
}

golden!(noise1234_1d, "noise1234_1d.csv", 1, 0, |c, _| vec![
    noise1234::noise1(c[0])
]);
golden!(noise1234_2d, "noise1234_2d.csv", 2, 0, |c, _| vec![
    noise1234::noise2(c[0], c[1])
]);
golden!(noise1234_3d, "noise1234_3d.csv", 3, 0, |c, _| vec![
    noise1234::noise3(c[0], c[1], c[2])
]);
golden!(noise1234_4d, "noise1234_4d.csv", 4, 0, |c, _| vec![
    noise1234::noise4(c[0], c[1], c[2], c[3])
]);

golden!(
    pnoise1234_1d,
    "pnoise1234_1d_period.csv",
    1,
    1,
    |c, p| vec![noise1234::pnoise1(c[0], p[0])]
);
golden!(
    pnoise1234_2d,
    "pnoise1234_2d_period.csv",
    2,
    2,
    |c, p| vec![noise1234::pnoise2(c[0], c[1], p[0], p[1])]
);
golden!(
    pnoise1234_3d,
    "pnoise1234_3d_period.csv",
    3,
    3,
    |c, p| vec![noise1234::pnoise3(c[0], c[1], c[2], p[0], p[1], p[2])]
);
golden!(
    pnoise1234_4d,
    "pnoise1234_4d_period.csv",
    4,
    4,
    |c, p| vec![noise1234::pnoise4(
        c[0], c[1], c[2], c[3], p[0], p[1], p[2], p[3]
    )]
);

golden!(snoise1234_1d, "snoise1234_1d.csv", 1, 0, |c, _| vec![
    simplexnoise1234::snoise1(c[0])
]);
golden!(snoise1234_2d, "snoise1234_2d.csv", 2, 0, |c, _| vec![
    simplexnoise1234::snoise2(c[0], c[1])
]);
golden!(snoise1234_3d, "snoise1234_3d.csv", 3, 0, |c, _| vec![
    simplexnoise1234::snoise3(c[0], c[1], c[2])
]);
golden!(snoise1234_4d, "snoise1234_4d.csv", 4, 0, |c, _| vec![
    simplexnoise1234::snoise4(c[0], c[1], c[2], c[3])
]);

/// `(value, [derivatives])` flattened in file column order.
fn flat<const D: usize>((v, d): (f32, [f32; D])) -> Vec<f32> {
    std::iter::once(v).chain(d).collect()
}

golden!(sdnoise_1d, "sdnoise_1d.csv", 1, 0, |c, _| flat(
    sdnoise1234::sdnoise1(c[0])
));
golden!(sdnoise_2d, "sdnoise_2d.csv", 2, 0, |c, _| flat(
    sdnoise1234::sdnoise2(c[0], c[1])
));
golden!(sdnoise_3d, "sdnoise_3d.csv", 3, 0, |c, _| flat(
    sdnoise1234::sdnoise3(c[0], c[1], c[2])
));
golden!(sdnoise_4d, "sdnoise_4d.csv", 4, 0, |c, _| flat(
    sdnoise1234::sdnoise4(c[0], c[1], c[2], c[3])
));

golden!(srdnoise_2d, "srdnoise_2d.csv", 3, 0, |c, _| flat(
    srdnoise23::srdnoise2(c[0], c[1], c[2])
));
golden!(srdnoise_3d, "srdnoise_3d.csv", 4, 0, |c, _| flat(
    srdnoise23::srdnoise3(c[0], c[1], c[2], c[3])
));

/// Inputs where the C is undefined (NaN, ±∞, float→int overflow, int
/// overflow, negative `% 256`) or merely unusual. None may panic (this test
/// runs with overflow checks on) or index out of bounds.
const NASTY: [f32; 17] = [
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    1e30,
    -1e30,
    f32::MAX,
    f32::MIN,
    2147483648.0,  // 2^31: saturates to i32::MAX, then the "+1" wraps
    -2147483648.0, // -2^31: the floor's "-1" wraps
    2147483520.0,  // largest f32 below 2^31
    16777218.0,    // 2^24 + 2: cell index not representable in f32
    -16777217.0,
    -0.0,
    1e-40, // subnormal
    -1.5,
    -300.7,
    255.999,
];

/// A smaller set for the 4D sweeps so they stay fast.
const NASTY4: [f32; 9] = [
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    -1e30,
    2147483648.0,
    -2147483648.0,
    16777218.0,
    -0.0,
    -1.5,
];

const PERIODS: [i32; 9] = [0, 1, -1, 7, 256, -256, 1000, i32::MAX, i32::MIN];

#[test]
fn nasty_inputs_never_panic() {
    let mut sink = 0.0f32; // keeps the calls from being optimised away
    let mut eat = |v: f32| sink += if v.is_finite() { v } else { 0.0 };

    for &x in &NASTY {
        eat(noise1234::noise1(x));
        eat(simplexnoise1234::snoise1(x));
        eat(sdnoise1234::sdnoise1(x).0);
        for &p in &PERIODS {
            let v = noise1234::pnoise1(x, p);
            if p == 0 {
                assert!(v.is_nan(), "pnoise1({x}, 0) = {v}");
            }
            eat(v);
        }
        for &y in &NASTY {
            eat(noise1234::noise2(x, y));
            eat(simplexnoise1234::snoise2(x, y));
            let (v, d) = sdnoise1234::sdnoise2(x, y);
            eat(v + d[0] + d[1]);
            for &t in &NASTY {
                let (v, d) = srdnoise23::srdnoise2(x, y, t);
                eat(v + d[0] + d[1]);
            }
            for (k, &p) in PERIODS.iter().enumerate() {
                let q = PERIODS[(k + 3) % PERIODS.len()];
                let v = noise1234::pnoise2(x, y, p, q);
                if p == 0 || q == 0 {
                    assert!(v.is_nan(), "pnoise2({x}, {y}, {p}, {q}) = {v}");
                }
                eat(v);
            }
            for &z in &NASTY {
                eat(noise1234::noise3(x, y, z));
                eat(simplexnoise1234::snoise3(x, y, z));
                let (v, d) = sdnoise1234::sdnoise3(x, y, z);
                eat(v + d[0] + d[1] + d[2]);
                for &t in &[0.0, -1.0, f32::NAN, f32::INFINITY, 1e30] {
                    let (v, d) = srdnoise23::srdnoise3(x, y, z, t);
                    eat(v + d[0] + d[1] + d[2]);
                }
                for (k, &p) in PERIODS.iter().enumerate() {
                    let q = PERIODS[(k + 2) % PERIODS.len()];
                    let r = PERIODS[(k + 5) % PERIODS.len()];
                    let v = noise1234::pnoise3(x, y, z, p, q, r);
                    if p == 0 || q == 0 || r == 0 {
                        assert!(v.is_nan(), "pnoise3 with a zero period = {v}");
                    }
                    eat(v);
                }
            }
        }
    }

    for &x in &NASTY4 {
        for &y in &NASTY4 {
            for &z in &NASTY4 {
                for &w in &NASTY4 {
                    eat(noise1234::noise4(x, y, z, w));
                    eat(simplexnoise1234::snoise4(x, y, z, w));
                    let (v, d) = sdnoise1234::sdnoise4(x, y, z, w);
                    eat(v + d.iter().sum::<f32>());
                    for k in 0..PERIODS.len() {
                        let ps = [0, 1, 4, 7].map(|o| PERIODS[(k + o) % PERIODS.len()]);
                        let v = noise1234::pnoise4(x, y, z, w, ps[0], ps[1], ps[2], ps[3]);
                        if ps.contains(&0) {
                            assert!(v.is_nan(), "pnoise4 with periods {ps:?} = {v}");
                        }
                        eat(v);
                    }
                }
            }
        }
    }
    println!("checksum of finite outputs: {sink}");
}

/// Zero periods give NaN even for ordinary coordinates, and only zero
/// periods do.
#[test]
fn zero_period_is_nan() {
    for &p in &PERIODS {
        let nan = p == 0;
        assert_eq!(noise1234::pnoise1(1.25, p).is_nan(), nan, "p = {p}");
        assert_eq!(noise1234::pnoise2(1.25, 0.5, 3, p).is_nan(), nan);
        assert_eq!(noise1234::pnoise3(1.25, 0.5, -2.5, p, 3, 5).is_nan(), nan);
        assert_eq!(
            noise1234::pnoise4(1.25, 0.5, -2.5, 9.75, 2, 3, 5, p).is_nan(),
            nan
        );
    }
}

/// The periodicity the docs promise: within each sign of the cell index,
/// and across 0 only for periods that are 1 or multiples of 256.
#[test]
fn pnoise_periodicity() {
    for p in [1, 2, 3, 5, 7, 17, 100, 255, 256, 257, 300, 512, 1000] {
        for k in 0..40 {
            let x = k as f32 * 0.375 + 0.0625; // dyadic: x + p is exact
            let a = noise1234::pnoise1(x, p);
            assert_eq!(a, noise1234::pnoise1(x + p as f32, p), "p = {p}, x = {x}");
            let xn = -x - 600.0;
            let an = noise1234::pnoise1(xn, p);
            if xn + (p as f32) < 0.0 {
                assert_eq!(an, noise1234::pnoise1(xn + p as f32, p));
            }
        }
        // Across zero: cells -1 and p-1.
        let across = noise1234::pnoise1(-0.625, p) == noise1234::pnoise1(p as f32 - 0.625, p);
        let expect = p == 1 || p % 256 == 0;
        if expect {
            assert!(across, "p = {p} should be periodic across 0");
        }
    }
    // The plain functions have period 256.
    assert_eq!(
        noise1234::noise3(-0.625, 3.5, 7.25),
        noise1234::noise3(255.375, 259.5, -248.75)
    );
}
