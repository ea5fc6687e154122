//! `distort(x, power=1, frequency=1, roughness=3, seed=0)`: libnoise's and
//! noise-rs's *turbulence* (named `distort` because `turbulence` is the
//! fractal): a displacement of every axis by `power · fbm(perlin(seed =
//! seed + axis, frequency), octaves = roughness)`.

use super::displace::{Displaced, displaced};
use super::prelude::*;
use crate::fractal::FractalKind;
use crate::graph::call::int;
use crate::noise::NoiseKind;
use crate::stack::{FractalDesc, Stack};

/// The distort kind.
pub(in crate::graph) struct Distort;

impl Kind for Distort {
    const NAME: &'static str = "distort";
    const PARAMS: &'static [&'static str] = &["input", "power", "frequency", "roughness", "seed"];
    const POSITIONAL: usize = 1;
    type Op<const D: usize> = Displaced<D>;

    field_inputs!(Graph::Distort { input, .. } => [input]);

    fn read(a: &Args<'_>) -> Result<Graph, Bad> {
        let roughness = a.whole("roughness")?.unwrap_or(3);
        Ok(Graph::Distort {
            input: a.field("input")?,
            power: a.num_or("power", 1.0)?,
            frequency: a.num_or("frequency", 1.0)?,
            roughness: u32::try_from(roughness).unwrap_or(u32::MAX),
            seed: a.whole("seed")?.unwrap_or(0),
        })
    }

    fn write(g: &Graph, w: Writer) -> Result<Item, Error> {
        parts!(
            g,
            Graph::Distort {
                input,
                power,
                frequency,
                roughness,
                seed,
            }
        );
        Ok(w.call::<Self>(vec![
            ("input", w.graph(input)?),
            ("power", Item::num(*power)),
            ("frequency", Item::num(*frequency)),
            ("roughness", int(u64::from(*roughness))),
            ("seed", int(*seed)),
        ]))
    }

    fn compile<const D: usize>(g: &Graph, cx: &Cx<'_>) -> Result<(Displaced<D>, Range), Error> {
        parts!(
            g,
            Graph::Distort {
                input,
                power,
                frequency,
                roughness,
                seed,
            }
        );
        let by = distortion(*power, *frequency, *roughness, *seed, D);
        displaced(input, &by, cx)
    }
}

/// The displacement fields: one Perlin fBm per axis, seeds `seed + axis`,
/// times `power`.
fn distortion(power: f64, frequency: f64, roughness: u32, seed: u64, dims: usize) -> Vec<Graph> {
    (0..dims)
        .map(|a| {
            Graph::stack(Stack {
                noise: NoiseKind::Perlin,
                seed: seed.wrapping_add(a as u64),
                frequency,
                fractal: Some(FractalDesc {
                    kind: FractalKind::Fbm,
                    octaves: roughness,
                    ..FractalDesc::default()
                }),
                ..Stack::default()
            })
            .scale_bias(power, 0.0)
        })
        .collect()
}
