//! Prints the frozen seed goldens in the form `tests/suite/family_seed.rs` pins.
use surflet::{Noise, NoiseKind};
const SEEDS: [u64; 5] = [0, 1, 42, 0xDEAD_BEEF, u64::MAX];
const P: [f64; 4] = [0.3141, -1.7182, 2.9979, 11.2358];
fn main() {
    for kind in NoiseKind::ALL {
        for seed in SEEDS {
            let v = [
                Noise::<1>::new(kind, seed).get([P[0]]),
                Noise::<2>::new(kind, seed).get([P[0], P[1]]),
                Noise::<3>::new(kind, seed).get([P[0], P[1], P[2]]),
                Noise::<4>::new(kind, seed).get(P),
            ];
            println!(
                "    ({:?}, {seed:#x}, [{:?}, {:?}, {:?}, {:?}]),",
                kind, v[0], v[1], v[2], v[3]
            );
        }
    }
}
