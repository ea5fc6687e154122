//! Shared helpers for the fractal, warp and curl tests: a plain-`f64`
//! reference implementation of the fractal formulas (built from the public
//! octave list, so it also checks the library's composition), which reports
//! the state of every non-smooth operation so that tests can detect kinks.
#![allow(dead_code)]

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use surflet::{Fractal, FractalKind, NoiseKind};

/// Every noise kind whose gradient is continuous: all but cellular noise,
/// which is creased on its Voronoi borders. Central differences that
/// straddle a crease disagree with either one-sided gradient, so the
/// finite-difference tests of fractals and warps use these kinds and
/// `cellular.rs` checks cellular fractals away from the creases.
pub fn smooth_kinds() -> Vec<NoiseKind> {
    NoiseKind::ALL
        .into_iter()
        .filter(|&k| k != NoiseKind::Cellular)
        .collect()
}

/// A reference evaluation: the value and the "smoothness state": the sign of
/// every octave's noise (where |n| has its crease) and every clamp's state.
/// Between two points with equal states the fractal is as smooth as its
/// noises.
pub struct RefEval {
    pub value: f64,
    pub state: Vec<i8>,
}

fn sign(n: f64) -> i8 {
    if n > 0.0 {
        1
    } else if n < 0.0 {
        -1
    } else {
        0
    }
}

/// The fractal formulas of the module documentation, written out directly.
pub fn reference<const D: usize>(f: &Fractal<D>, p: [f64; D]) -> RefEval {
    let params = f.params();
    let mut v = 0.0;
    let mut w = 1.0f64;
    let mut state = Vec::new();
    for (i, o) in f.octaves().enumerate() {
        // A turned octave reads R·p (summed from the first term).
        let q: [f64; D] = match o.rotation {
            Some(r) => core::array::from_fn(|a| {
                let mut acc = r[a][0] * p[0];
                for b in 1..D {
                    acc += r[a][b] * p[b];
                }
                acc
            }),
            None => p,
        };
        let x: [f64; D] = core::array::from_fn(|a| q[a] * o.frequency + o.offset[a]);
        let n = o.noise.get(x);
        let a = o.amplitude;
        let c = match params.kind {
            FractalKind::Fbm => a * n,
            FractalKind::Billow => {
                state.push(sign(n));
                a * (n.abs() * 2.0 - 1.0)
            }
            FractalKind::Turbulence => {
                state.push(sign(n));
                a * n.abs()
            }
            FractalKind::Ridged => {
                state.push(sign(n));
                let r = params.offset - n.abs();
                let sig = r * r * w;
                let ws = sig * params.weight;
                state.push(if ws <= 0.0 {
                    0
                } else if ws >= 1.0 {
                    2
                } else {
                    1
                });
                w = ws.clamp(0.0, 1.0);
                a * sig
            }
            FractalKind::Hybrid => {
                let sig = (n + params.offset) * a;
                if i == 0 {
                    w = sig;
                    sig
                } else {
                    state.push((w < 1.0) as i8);
                    let wt = w.min(1.0);
                    w = wt * sig;
                    w
                }
            }
        };
        v = if i == 0 { c } else { v + c };
    }
    RefEval {
        value: v * f.normalization(),
        state,
    }
}

/// `n` uniform points in `[-r, r]^D`.
pub fn points<const D: usize>(seed: u64, n: usize, r: f64) -> Vec<[f64; D]> {
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..n)
        .map(|_| core::array::from_fn(|_| rng.random_range(-r..r)))
        .collect()
}

/// `p` moved by `t` along `axis`.
pub fn moved<const D: usize>(p: [f64; D], axis: usize, t: f64) -> [f64; D] {
    let mut q = p;
    q[axis] += t;
    q
}

/// Central difference of `f` along `axis` at `p`, dividing by the step
/// actually taken (`(p + h) − (p − h)` after rounding).
pub fn central<const D: usize>(
    f: impl Fn([f64; D]) -> f64,
    p: [f64; D],
    axis: usize,
    h: f64,
) -> f64 {
    let hi = moved(p, axis, h);
    let lo = moved(p, axis, -h);
    (f(hi) - f(lo)) / (hi[axis] - lo[axis])
}

/// Worst-error bookkeeping for one test case, printed as one line.
#[derive(Default)]
pub struct Tally {
    pub checked: usize,
    pub skipped: usize,
    pub worst: f64,
}

impl Tally {
    pub fn record(&mut self, err: f64) {
        self.checked += 1;
        if err.is_nan() || err > self.worst {
            self.worst = err;
        }
    }
}
