//! Single points in a loop, surflet's `get` beside fastnoise-lite's
//! OpenSimplex2 `get_noise_2d/3d`, for the timings and callgrind counts of
//! docs/PERF-HISTORY.md, "Single points on one lane" (not a benchmark:
//! best of N wall-clock runs, or a fixed amount of work for callgrind).
//!
//! ```sh
//! cargo build --release --example get_loop      # the portable build
//! B=target/release/examples/get_loop
//! $B 30                                          # ns a point, best of 30
//! valgrind --tool=callgrind $B 1 3 simplex       # then with 3 repetitions;
//! valgrind --tool=callgrind $B 3 3 simplex       # (difference) / 2 / 262144
//! valgrind --tool=callgrind $B 1 2 fnl           # fastnoise-lite, 2D
//! valgrind --tool=callgrind $B 1 3 grid          # the AVX2 3D simplex grid
//! valgrind --tool=callgrind $B 1 2 nd            # 5D simplex fill, 65,536
//! ```                                            # points (0 value, 1 Perlin)
//!
//! The points are a 512² (2D) or 64³ (3D) grid at spacing 0.03, computed
//! on the fly as `index · spacing` (fastnoise-lite gets the indices and
//! frequency 0.03, as its API expects).
use fastnoise_lite::{FastNoiseLite, NoiseType};
use std::time::Instant;
use surflet::Field;
use surflet::{Noise, NoiseKind};

#[inline(always)]
fn each<const D: usize>(side: usize, scale: f32, mut f: impl FnMut(usize, [f32; D])) {
    let n = side.pow(D as u32);
    let mut idx = [0usize; D];
    for i in 0..n {
        f(i, core::array::from_fn(|a| idx[a] as f32 * scale));
        for v in idx.iter_mut() {
            *v += 1;
            if *v < side {
                break;
            }
            *v = 0;
        }
    }
}

fn best(reps: usize, mut f: impl FnMut()) -> f64 {
    let mut b = f64::MAX;
    for _ in 0..reps {
        let t = Instant::now();
        f();
        b = b.min(t.elapsed().as_secs_f64());
    }
    b
}

fn run<const D: usize>(side: usize, kind: NoiseKind, what: &str, reps: usize) {
    let n = side.pow(D as u32);
    let mut o = vec![0f32; n];
    let s = 0.03f32;
    let nz = Noise::<D>::new(kind, 1);
    let mut fnl = FastNoiseLite::with_seed(1);
    fnl.set_noise_type(Some(NoiseType::OpenSimplex2));
    fnl.set_frequency(Some(s));
    let t_s = best(reps, || each::<D>(side, s, |i, p| o[i] = nz.get(p)));
    let c = o[n / 3];
    let t_f = best(reps, || {
        each::<D>(side, 1.0, |i, p| {
            o[i] = match D {
                2 => fnl.get_noise_2d(p[0], p[1]),
                _ => fnl.get_noise_3d(p[0], p[1], p[2]),
            }
        })
    });
    println!(
        "{what} {D}D: surflet get {:.2} ns  fastnoise-lite {:.2} ns  ({c} {})",
        t_s / n as f64 * 1e9,
        t_f / n as f64 * 1e9,
        o[n / 3]
    );
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let reps: usize = a.get(1).map(|x| x.parse().unwrap()).unwrap_or(20);
    if a.len() > 2 {
        let d: usize = a[2].parse().unwrap();
        let mut sum = 0.0;
        let kind = if a[3] == "perlin" {
            NoiseKind::Perlin
        } else {
            NoiseKind::Simplex
        };
        if a[3] == "grid" {
            let isa = surflet::Isa::available()
                .into_iter()
                .find(|i| i.name() == "avx2")
                .unwrap();
            for _ in 0..reps {
                if d == 2 {
                    let g =
                        surflet::Grid::<f32, 2>::uniform([0.01; 2], [0.03; 2], [512; 2]).unwrap();
                    let mut out = vec![0f32; g.len()];
                    let nz = Noise::<2>::new(NoiseKind::Simplex, 1);
                    nz.grid_on(isa, &g, &mut out, None).unwrap();
                    sum += out[7] as f64 as f32;
                } else {
                    let g =
                        surflet::Grid::<f32, 3>::uniform([0.01; 3], [0.03; 3], [64; 3]).unwrap();
                    let mut out = vec![0f32; g.len()];
                    let nz = Noise::<3>::new(NoiseKind::Simplex, 1);
                    nz.grid_on(isa, &g, &mut out, None).unwrap();
                    sum += out[7];
                }
            }
            println!("{sum}");
            return;
        }
        if a[3] == "nd" {
            use surflet::nd::{NdKind, NoiseNd};
            let isa = surflet::Isa::available()
                .into_iter()
                .find(|i| i.name() == "avx2")
                .unwrap();
            let n = 65536;
            let coords: Vec<Vec<f32>> = (0..5)
                .map(|k| {
                    (0..n)
                        .map(|i| (i as f32 * 0.037 + k as f32 * 1.3) % 17.0)
                        .collect()
                })
                .collect();
            let c: [&[f32]; 5] = core::array::from_fn(|k| coords[k].as_slice());
            let mut out = vec![0f32; n];
            let kind = match d {
                0 => NdKind::Value,
                1 => NdKind::Perlin,
                _ => NdKind::Simplex,
            };
            let nz = NoiseNd::<5>::new(kind, 1);
            for _ in 0..reps {
                nz.fill_on(isa, c, &mut out, None).unwrap();
                sum += out[7];
            }
            println!("{sum}");
            return;
        }
        if a[3] == "fnl" {
            let mut fnl = FastNoiseLite::with_seed(1);
            fnl.set_noise_type(Some(NoiseType::OpenSimplex2));
            fnl.set_frequency(Some(0.03));
            for _ in 0..reps {
                if d == 2 {
                    each::<2>(512, 1.0, |_, p| sum += fnl2(&fnl, p));
                } else {
                    each::<3>(64, 1.0, |_, p| sum += fnl3(&fnl, p));
                }
            }
            println!("{sum}");
            return;
        }
        for _ in 0..reps {
            if d == 2 {
                let nz = Noise::<2>::new(kind, 1);
                each::<2>(512, 0.03, |_, p| sum += get2(&nz, p));
            } else {
                let nz = Noise::<3>::new(kind, 1);
                each::<3>(64, 0.03, |_, p| sum += get3(&nz, p));
            }
        }
        println!("{sum}");
        return;
    }
    run::<2>(512, NoiseKind::Simplex, "simplex", reps);
    run::<3>(64, NoiseKind::Simplex, "simplex", reps);
    run::<2>(512, NoiseKind::Perlin, "perlin", reps);
    run::<3>(64, NoiseKind::Perlin, "perlin", reps);
}

#[inline(never)]
pub fn get3(n: &Noise<3>, p: [f32; 3]) -> f32 {
    n.get(p)
}
#[inline(never)]
pub fn get2(n: &Noise<2>, p: [f32; 2]) -> f32 {
    n.get(p)
}

#[inline(never)]
pub fn fnl2(n: &FastNoiseLite, p: [f32; 2]) -> f32 {
    n.get_noise_2d(p[0], p[1])
}
#[inline(never)]
pub fn fnl3(n: &FastNoiseLite, p: [f32; 3]) -> f32 {
    n.get_noise_3d(p[0], p[1], p[2])
}
