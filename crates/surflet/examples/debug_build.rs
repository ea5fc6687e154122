//! Every kind of batch call on every noise kind, on grids large enough to
//! run on rayon's worker threads (2 MiB stacks). CI runs it from an
//! unoptimised build, `CARGO_PROFILE_DEV_OPT_LEVEL=0 cargo run -p surflet
//! --example debug_build`, because that is how a user's debug build compiles
//! surflet's generic kernels: without optimisation a frame that inlines
//! every kind's kernel at once once reached 5 MB and overflowed the stack
//! (see `Simd::outline`).

use surflet::nd::{NdKind, NoiseNd};
use surflet::{
    Curl, Field, Fractal, FractalKind, FractalParams, Grid, Noise, NoiseKind, Warp, WarpKind,
    WarpParams,
};

fn main() -> Result<(), surflet::Error> {
    let grid = Grid::uniform([0.0f32; 3], [0.03; 3], [32, 32, 32])?;
    let n = grid.len();
    let mut out = vec![0.0f32; n];
    let mut g = [vec![0.0f32; n], vec![0.0f32; n], vec![0.0f32; n]];
    let xs: Vec<f32> = (0..n).map(|i| i as f32 * 0.01).collect();
    for kind in NoiseKind::ALL {
        let noise = Noise::<3>::new(kind, 1);
        noise.grid(&grid, &mut out)?;
        let [a, b, c] = &mut g;
        noise.grid_gradient(&grid, &mut out, [a, b, c])?;
        noise.fill([&xs, &xs, &xs], &mut out)?;
        for fk in FractalKind::ALL {
            let f = Fractal::new(noise, FractalParams::new(fk))?;
            f.grid(&grid, &mut out)?;
            let [a, b, c] = &mut g;
            f.grid_gradient(&grid, &mut out, [a, b, c])?;
        }
        let fbm = Fractal::new(noise, FractalParams::new(FractalKind::Fbm))?;
        let warp = Warp::new(
            fbm.clone(),
            Noise::new(NoiseKind::Simplex, 2),
            WarpParams::new(WarpKind::Single),
        )?;
        warp.grid(&grid, &mut out)?;
        let [a, b, c] = &mut g;
        Curl::new(fbm).fill([&xs, &xs, &xs], [a, b, c])?;
        println!("{kind}: ok");
    }
    // A graph at the depth limit, with the gradient: its node-by-node
    // evaluation recurses once per node on the worker's stack.
    let mut graph =
        surflet::Graph::parse("displace(perlin(seed=1), by=[simplex(), value(), perlin()])")?;
    for _ in 1..surflet::graph::MAX_DEPTH - 2 {
        graph = graph.abs();
    }
    let field = graph.build::<3>()?;
    let [a, b, c] = &mut g;
    field.grid_gradient(&grid, &mut out, [a, b, c])?;
    println!("graph of depth {}: ok", graph.depth());
    for kind in [NdKind::Value, NdKind::Perlin, NdKind::Simplex] {
        let c = &xs[..];
        NoiseNd::<8>::new(kind, 1).fill([c; 8], &mut out)?;
        println!("{kind} 8D: ok");
    }
    Ok(())
}
