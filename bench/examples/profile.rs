//! A hot loop for `perf record` (not a benchmark): one workload, repeated.
//!
//! `cargo run --release --example profile -- surflet|fn2|get [simplex2|simplex3] [reps]`
use surflet::Field;
use surflet::{Isa, Noise, NoiseKind};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let who = args.get(1).map_or("surflet", |s| s.as_str());
    let what = args.get(2).map_or("simplex2", |s| s.as_str());
    let reps: usize = args.get(3).map_or(2000, |s| s.parse().unwrap());
    let side: usize = if what.ends_with('2') { 512 } else { 64 };
    let dims = if what.ends_with('2') { 2 } else { 3 };
    let n = side * side * if dims == 3 { side } else { 1 };
    let f = 0.02f32;
    let c: Vec<Vec<f32>> = (0..dims)
        .map(|a| {
            (0..n)
                .map(|i| ((i / side.pow(a as u32)) % side) as f32 * f)
                .collect()
        })
        .collect();
    let mut out = vec![0f32; n];
    let isa = *Isa::available().last().unwrap();
    let fnode =
        fastnoise2::generator::Generator::build(&fastnoise2::generator::prelude::simplex()).0;
    let mut sum = 0f32;
    for _ in 0..reps {
        match (who, dims) {
            ("get", 2) => {
                let nz = Noise::<2>::new(NoiseKind::Simplex, 1);
                for i in 0..n {
                    out[i] = nz.get([c[0][i], c[1][i]]);
                }
            }
            ("surflet", 2) => Noise::<2>::new(NoiseKind::Simplex, 1)
                .fill_on(isa, [&c[0], &c[1]], &mut out, None)
                .unwrap(),
            ("surflet", _) => Noise::<3>::new(NoiseKind::Simplex, 1)
                .fill_on(isa, [&c[0], &c[1], &c[2]], &mut out, None)
                .unwrap(),
            (_, 2) => drop(fnode.gen_position_array_2d(&mut out, &c[0], &c[1], 0.0, 0.0, 1)),
            _ => drop(fnode.gen_position_array_3d(&mut out, &c[0], &c[1], &c[2], 0.0, 0.0, 0.0, 1)),
        }
        sum += out[n / 3];
    }
    println!("{who} {what} on {}: {sum}", isa.name());
}
