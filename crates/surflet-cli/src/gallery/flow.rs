//! The curl-noise flow picture: particles advected through 2D curl noise,
//! their trails accumulated as light on a dark background.
//!
//! Trajectories are integrated in parallel, but always drawn in particle
//! order on one thread, so the float sums — and the image — are the same on
//! every run.

use rayon::prelude::*;
use surflet::{Curl, Field, Fractal, FractalKind, FractalParams, Noise, NoiseKind};

use crate::imaging::image::Image;

/// Lattice units across the image.
pub const FREQUENCY: f64 = 2.0;
/// fBm octaves of the potential.
pub const OCTAVES: u32 = 2;

/// What a flow picture of side `n` does, for the caption.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    /// Particles per side of the jittered seeding grid.
    pub grid: usize,
    /// RK4 steps per particle.
    pub steps: usize,
    /// Length of one step at the reference speed, in pixels.
    pub step_px: f64,
}

impl Setup {
    /// Scales with the image: trails a fixed fraction of the image long and
    /// a particle count proportional to the side keep the ink per pixel the
    /// same at every size, and the work grows only with the pixel count.
    pub fn new(n: u32) -> Setup {
        let n = f64::from(n);
        Setup {
            grid: (4.0 * n).sqrt().ceil() as usize,
            steps: (0.25 * n).ceil() as usize,
            step_px: 0.5,
        }
    }
}

/// SplitMix64, for the jitter: small, seedable, and fixed forever.
fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform number in `[0, 1)` from a seed and a counter.
fn uniform(seed: u64, k: u64) -> f64 {
    // The salt ("GALLERY!") keeps the jitter independent of the noise's own
    // use of the seed.
    let h = splitmix64(seed ^ 0x4741_4C4C_4552_5921 ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    (h >> 11) as f64 / (1u64 << 53) as f64
}

/// The potential ψ whose curl is the flow: simplex fBm.
pub fn potential(seed: u64) -> Result<Fractal<2>, String> {
    let params = FractalParams {
        octaves: OCTAVES,
        ..FractalParams::new(FractalKind::Fbm)
    };
    Fractal::new(Noise::<2>::new(NoiseKind::Simplex, seed), params).map_err(|e| e.to_string())
}

/// Colour of a trail by the potential where it starts: curl flow runs along
/// ψ's contour lines, so each trail keeps one colour and neighbouring
/// streams of equal ψ share it.
fn trail_colour(psi: f64) -> [f64; 3] {
    const STOPS: [(f64, [f64; 3]); 5] = [
        (0.0, [0.28, 0.36, 1.00]),
        (0.3, [0.16, 0.78, 0.95]),
        (0.5, [0.55, 0.95, 0.75]),
        (0.7, [1.00, 0.75, 0.28]),
        (1.0, [1.00, 0.35, 0.45]),
    ];
    let t = (psi * 0.9 + 0.5).clamp(0.0, 1.0);
    let k = STOPS
        .partition_point(|s| s.0 <= t)
        .clamp(1, STOPS.len() - 1);
    let ((a, ca), (b, cb)) = (STOPS[k - 1], STOPS[k]);
    let f = ((t - a) / (b - a)).clamp(0.0, 1.0);
    std::array::from_fn(|c| ca[c] + (cb[c] - ca[c]) * f)
}

/// The background, a deep blue-black.
const BACKGROUND: [f64; 3] = [0.03, 0.035, 0.07];

/// Renders the flow picture, `n`×`n` pixels.
pub fn render(n: u32, seed: u64, setup: Setup) -> Result<Image, String> {
    let curl = Curl::<2>::new(potential(seed)?);
    let psi = potential(seed)?;
    let side = f64::from(n);
    let px = FREQUENCY / side; // lattice units per pixel

    // The RMS speed over the picture sets the time step, so a step moves a
    // typical particle `step_px` pixels whatever the noise's amplitude.
    let probe = 48;
    let mut sum = 0.0;
    for j in 0..probe {
        for i in 0..probe {
            let p = [
                (i as f64 + 0.5) / probe as f64,
                (j as f64 + 0.5) / probe as f64,
            ]
            .map(|v| v * FREQUENCY);
            let v = curl.get(p);
            sum += v[0] * v[0] + v[1] * v[1];
        }
    }
    let rms = (sum / (probe * probe) as f64).sqrt().max(1e-9);
    let dt = setup.step_px * px / rms;

    let w = n as usize;
    let mut acc = vec![[0.0f32; 3]; w * w];
    let g = setup.grid;
    let seeds: Vec<[f64; 2]> = (0..g * g)
        .map(|k| {
            let (ci, cj) = ((k % g) as f64, (k / g) as f64);
            let jx = uniform(seed, 2 * k as u64);
            let jy = uniform(seed, 2 * k as u64 + 1);
            [(ci + jx) / g as f64, (cj + jy) / g as f64].map(|v| v * FREQUENCY)
        })
        .collect();

    // Ink per pixel of trail: faint alone, bright where streams bunch.
    let ink = 0.5;
    for chunk in seeds.chunks(1024) {
        let paths: Vec<Vec<[f64; 2]>> = chunk
            .par_iter()
            .map(|&p0| advect(&curl, p0, dt, setup.steps))
            .collect();
        for path in paths {
            let colour = trail_colour(psi.get(path[0]));
            let steps = path.len() - 1;
            for (k, seg) in path.windows(2).enumerate() {
                // Fade in and out so trails taper instead of ending bluntly.
                let age = (k as f64 + 0.5) / steps as f64;
                let alpha = ink * (std::f64::consts::PI * age).sin();
                let a = seg[0].map(|v| v / px);
                let b = seg[1].map(|v| v / px);
                splat_segment(&mut acc, w, a, b, alpha, colour);
            }
        }
    }

    let mut data = vec![0u8; w * w * 3];
    data.par_chunks_mut(3)
        .zip(acc.par_iter())
        .for_each(|(out, a)| {
            for c in 0..3 {
                // Light adds up and saturates towards white.
                let v = 1.0 - (1.0 - BACKGROUND[c]) * (-f64::from(a[c])).exp();
                out[c] = (v.clamp(0.0, 1.0) * 255.0).round() as u8;
            }
        });
    Ok(Image {
        width: n,
        height: n,
        rgb: true,
        data,
    })
}

/// Integrates `dp/dt = curl(p)` from `p` with classic fourth-order
/// Runge–Kutta, returning the `steps + 1` positions.
fn advect(curl: &Curl<2>, mut p: [f64; 2], dt: f64, steps: usize) -> Vec<[f64; 2]> {
    let at = |p: [f64; 2], k: [f64; 2], h: f64| [p[0] + h * k[0], p[1] + h * k[1]];
    let mut path = Vec::with_capacity(steps + 1);
    path.push(p);
    for _ in 0..steps {
        let k1 = curl.get(p);
        let k2 = curl.get(at(p, k1, dt / 2.0));
        let k3 = curl.get(at(p, k2, dt / 2.0));
        let k4 = curl.get(at(p, k3, dt));
        for a in 0..2 {
            p[a] += dt / 6.0 * (k1[a] + 2.0 * k2[a] + 2.0 * k3[a] + k4[a]);
        }
        path.push(p);
    }
    path
}

/// Deposits `alpha` per pixel of length along the segment `a`–`b` (pixel
/// coordinates), in sub-steps of at most half a pixel, each shared
/// bilinearly among its four nearest pixels.
fn splat_segment(
    acc: &mut [[f32; 3]],
    w: usize,
    a: [f64; 2],
    b: [f64; 2],
    alpha: f64,
    c: [f64; 3],
) {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len = (dx * dx + dy * dy).sqrt();
    let m = (len / 0.5).ceil().max(1.0) as usize;
    let weight = alpha * len / m as f64;
    let limit = w as f64 - 1.0;
    for s in 0..m {
        let t = (s as f64 + 0.5) / m as f64;
        let (x, y) = (a[0] + t * dx, a[1] + t * dy);
        if !(x >= 0.0 && y >= 0.0 && x < limit && y < limit) {
            continue;
        }
        let (x0, y0) = (x.floor(), y.floor());
        let (fx, fy) = (x - x0, y - y0);
        let base = y0 as usize * w + x0 as usize;
        for (idx, f) in [
            (base, (1.0 - fx) * (1.0 - fy)),
            (base + 1, fx * (1.0 - fy)),
            (base + w, (1.0 - fx) * fy),
            (base + w + 1, fx * fy),
        ] {
            for k in 0..3 {
                acc[idx][k] += (weight * f * c[k]) as f32;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jitter_is_uniform_and_fixed() {
        let v: Vec<f64> = (0..1000).map(|k| uniform(7, k)).collect();
        assert!(v.iter().all(|x| (0.0..1.0).contains(x)));
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        assert!((mean - 0.5).abs() < 0.05, "{mean}");
        assert_eq!(uniform(7, 3), uniform(7, 3));
        assert_ne!(uniform(7, 3), uniform(8, 3));
    }

    #[test]
    fn rk4_follows_the_potential_contours() {
        // 2D curl flow is tangent to ψ's level sets, so ψ stays nearly
        // constant along an accurately integrated path.
        let psi = potential(3).unwrap();
        let curl = Curl::<2>::new(psi.clone());
        let path = advect(&curl, [0.4, 1.3], 0.002, 400);
        let p0 = psi.get(path[0]);
        let drift = path
            .iter()
            .map(|&p| (psi.get(p) - p0).abs())
            .fold(0.0, f64::max);
        assert!(drift < 1e-4, "ψ drifted by {drift}");
        assert!(path.windows(2).any(|w| w[0] != w[1]));
    }
}
