//! Instructions per sample of a plain noise's point-array and grid calls
//! on the AVX2 path, for callgrind (not a benchmark):
//!
//! ```sh
//! cargo build --release --example instructions
//! B=target/release/examples/instructions
//! valgrind --tool=callgrind $B perlin 3 1    # then with 3 repetitions;
//! valgrind --tool=callgrind $B perlin 3 3    # (difference) / 2 / samples
//! valgrind --tool=callgrind $B perlin 3 3 grid
//! ```
//!
//! Arguments: a family noise's name (`value`, `perlin`, `simplex`,
//! `opensimplex2`, ...), the dimension (2–4), repetitions,
//! and `grid` for the grid call, `fbm` for the grid call of a 3-octave fBm
//! at frequency 1/64 (spaced 1, quick-noise's headline workload), or `get`
//! for single points in a loop. The points are a 0.03-spaced grid: 512²,
//! 64³ or 16⁴.
use surflet::{Field, Fractal, FractalKind, FractalParams, Grid, Isa, Noise, NoiseKind};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let kind = NoiseKind::ALL
        .into_iter()
        .find(|k| k.name() == a[1])
        .expect("a family noise's name");
    let d: usize = a[2].parse().unwrap();
    let reps: usize = a[3].parse().unwrap();
    let grid = a.get(4).is_some_and(|m| m == "grid");
    let get = a.get(4).is_some_and(|m| m == "get");
    let fbm = a.get(4).is_some_and(|m| m == "fbm");
    let spacing = if fbm { 1.0 } else { 0.03 };
    let isa = Isa::available()
        .into_iter()
        .find(|i| i.name() == "avx2")
        .unwrap();
    let mut sum = 0f32;
    macro_rules! go {
        ($d:literal, $side:expr) => {{
            let g = Grid::<f32, $d>::uniform([0.01; $d], [spacing; $d], [$side; $d]).unwrap();
            let n = g.len();
            let pts: Vec<Vec<f32>> = (0..$d)
                .map(|k| (0..n).map(|i| g.point(i)[k]).collect())
                .collect();
            let c: [&[f32]; $d] = core::array::from_fn(|k| pts[k].as_slice());
            let nz = Noise::<$d>::new(kind, 1);
            let mut out = vec![0f32; n];
            for _ in 0..reps {
                if fbm {
                    let params = FractalParams {
                        octaves: 3,
                        frequency: 1.0 / 64.0,
                        ..FractalParams::new(FractalKind::Fbm)
                    };
                    let f = Fractal::new(nz.clone(), params).unwrap();
                    f.grid_on(isa, &g, &mut out, None).unwrap();
                } else if get {
                    for (i, o) in out.iter_mut().enumerate() {
                        *o = get_one(&nz, core::array::from_fn(|k| c[k][i]));
                    }
                } else if grid {
                    nz.grid_on(isa, &g, &mut out, None).unwrap();
                } else {
                    nz.fill_on(isa, c, &mut out, None).unwrap();
                }
                sum += out[n / 3];
            }
            n
        }};
    }
    let n = match d {
        2 => go!(2, 512),
        3 => go!(3, 64),
        _ => go!(4, 16),
    };
    println!("{n} {sum}");
}

/// One `get`, out of line so that its code can be read with `objdump`.
#[inline(never)]
fn get_one<const D: usize>(n: &Noise<D>, p: [f32; D]) -> f32 {
    n.get(p)
}
