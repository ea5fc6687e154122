//! FastNoise2's instructions per sample, for callgrind beside
//! `instructions.rs` (not a benchmark): its `GenUniformGrid` (its best
//! call) over the same 0.03-spaced grid, 512² or 64³, f32. Under valgrind
//! FastSIMD sees no AVX-512 and runs its AVX2 level (printed).
//!
//! ```sh
//! cargo build --release --example fn2_instructions
//! B=target/release/examples/fn2_instructions
//! valgrind --tool=callgrind $B opensimplex2 3 1   # then with 3 repetitions
//! ```
//!
//! Arguments: `simplex|opensimplex2|opensimplex2s|perlin|value`, the
//! dimension (2 or 3), repetitions.
use fastnoise2::generator::{Generator, prelude::*};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let node = match a[1].as_str() {
        "simplex" => simplex().build().0,
        "opensimplex2" => opensimplex2().build().0,
        "opensimplex2s" => opensimplex2s().build().0,
        "perlin" => perlin().build().0,
        _ => value().build().0,
    };
    let d: usize = a[2].parse().unwrap();
    let reps: usize = a[3].parse().unwrap();
    eprintln!("FastSIMD level {:#x}", node.get_simd_level());
    let side: usize = if d == 2 { 512 } else { 64 };
    let mut out = vec![0f32; side.pow(d as u32)];
    let mut sum = 0f32;
    for _ in 0..reps {
        let s = side as i32;
        if d == 2 {
            node.gen_uniform_grid_2d(&mut out, 0, 0, s, s, 0.03, 1);
        } else {
            node.gen_uniform_grid_3d(&mut out, 0, 0, 0, s, s, s, 0.03, 1);
        }
        sum += out[out.len() / 3];
    }
    println!("{} {sum}", out.len());
}
