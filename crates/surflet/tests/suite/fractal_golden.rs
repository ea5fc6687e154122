//! Frozen seed and offset derivations for fractal octaves, warp components
//! and curl potentials, and frozen values, so that none of them can change
//! silently. The derivations are also recomputed here from their documented
//! formulas.

use surflet::Field;
use surflet::{
    Curl, Fractal, FractalKind, FractalParams, Noise, NoiseKind, Warp, WarpKind, WarpParams,
};

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// (seed, octave seeds, warp axis seeds, curl potential seeds)
type SeedCase = (u64, [u64; 4], [u64; 3], [u64; 3]);
/// (seed, point, fbm, ridged (Perlin), single warp of the fbm by Perlin,
/// curl of the fbm)
type ValueCase = (u64, [f64; 3], f64, f64, f64, [f64; 3]);

fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn fbm(seed: u64) -> Fractal<3> {
    Fractal::new(
        Noise::<3>::new(NoiseKind::Simplex, seed),
        FractalParams::new(FractalKind::Fbm),
    )
    .unwrap()
}

#[test]
fn derivations_follow_the_documented_formulas() {
    for seed in [0u64, 1, 42, 0xDEAD_BEEF, u64::MAX] {
        let f = Fractal::new(
            Noise::<3>::new(NoiseKind::Perlin, seed),
            FractalParams {
                octaves: 32,
                ..FractalParams::new(FractalKind::Fbm)
            },
        )
        .unwrap();
        let mut all = Vec::new();
        for (i, o) in f.octaves().enumerate() {
            let s = if i == 0 {
                seed
            } else {
                splitmix64(seed ^ (i as u64).wrapping_mul(GOLDEN))
            };
            assert_eq!(o.noise.seed(), s, "octave {i}");
            for a in 0..3 {
                let want = if i == 0 {
                    -0.0
                } else {
                    (splitmix64(s ^ 0x4F46_4653_4554_5321 ^ (a as u64).wrapping_mul(GOLDEN)) >> 48)
                        as f64
                        / 65536.0
                };
                assert_eq!(o.offset[a].to_bits(), want.to_bits(), "octave {i} axis {a}");
            }
            all.push(s);
        }
        let w = Warp::new(
            f.clone(),
            Noise::new(NoiseKind::Value, seed),
            WarpParams::new(WarpKind::Single),
        )
        .unwrap();
        for (a, c) in w.components().iter().enumerate() {
            let s = splitmix64(seed ^ 0x5741_5250_5741_5250 ^ (a as u64).wrapping_mul(GOLDEN));
            assert_eq!(c.noise().seed(), s, "warp axis {a}");
            all.push(s);
        }
        let c = Curl::<3>::new(f);
        for (k, p) in c.potentials().iter().enumerate() {
            let s = splitmix64(seed ^ 0x4355_524C_4355_524C ^ (k as u64).wrapping_mul(GOLDEN));
            assert_eq!(p.noise().seed(), s, "curl potential {k}");
            all.push(s);
        }
        // Octaves, warp axes and curl potentials all get distinct seeds.
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n, "seed collision for seed {seed}");
    }
}

#[test]
fn frozen_seeds() {
    let cases: [SeedCase; 3] = [
        (
            0,
            [
                0x0,
                0x6e789e6aa1b965f4,
                0x6c45d188009454f,
                0xf88bb8a8724c81ec,
            ],
            [0xef4aa088a65f4e63, 0xef55815e4903c1b, 0x99dfd2d1cff5d7cc],
            [0x8920303e517e2757, 0x9ce5c25d08161b86, 0x86cfef94b813e60],
        ),
        (
            42,
            [
                0x2a,
                0x28efe333b266f103,
                0x5fd30d2fcbef75e3,
                0x6545d3b48b05c974,
            ],
            [0x7dc138f1c17fe35c, 0x56df06ada3875285, 0xcc0d94e4f42ccf3f],
            [0xd462bc6bd7068193, 0xbfe132b3a2d98a28, 0x9a623efb03cebe4e],
        ),
        (
            u64::MAX,
            [
                0xffffffffffffffff,
                0xb4d055fcf2cbbd7b,
                0xde0a564cbcd060c4,
                0x738b10af171367ff,
            ],
            [0x9ca3eb84fb95f51c, 0x63c871501991dbf4, 0x53dd936e5d32a2f1],
            [0x22581c432ba9a46d, 0x1b0c861daa9d69a3, 0x7bbc0dc4d0b8cb9e],
        ),
    ];
    for (seed, octaves, warp, curl) in cases {
        let f = fbm(seed);
        let got: Vec<u64> = f.octaves().map(|o| o.noise.seed()).collect();
        assert_eq!(got, octaves);
        let w = Warp::new(
            f.clone(),
            Noise::new(NoiseKind::Perlin, seed),
            WarpParams::new(WarpKind::Single),
        )
        .unwrap();
        let got: Vec<u64> = w.components().iter().map(|c| c.noise().seed()).collect();
        assert_eq!(got, warp);
        let c = Curl::<3>::new(f);
        let got: Vec<u64> = c.potentials().iter().map(|p| p.noise().seed()).collect();
        assert_eq!(got, curl);
    }
    let offsets: Vec<[f64; 3]> = fbm(42).octaves().map(|o| o.offset).collect();
    assert_eq!(
        offsets[1..],
        [
            [0.6135711669921875, 0.229888916015625, 0.5192108154296875],
            [0.4134063720703125, 0.9083251953125, 0.622772216796875],
            [0.7454376220703125, 0.1758880615234375, 0.309783935546875],
        ]
    );
}

#[test]
fn frozen_values() {
    let cases: [ValueCase; 4] = [
        (
            0,
            [0.5, 1.25, -3.0],
            -0.015520069600733865,
            0.5601464378149181,
            -0.03452873615296391,
            [
                -0.17563908782486504,
                -0.7464130604550292,
                -2.169398127381914,
            ],
        ),
        (
            0,
            [10.1, -20.2, 30.3],
            0.22089188665104936,
            0.8679442027649308,
            0.08975765046246745,
            [
                -0.4830276785575077,
                -0.18074984127696864,
                -1.666818314792444,
            ],
        ),
        (
            42,
            [0.5, 1.25, -3.0],
            0.013632208721882288,
            0.23419676003576012,
            -0.3553127565562839,
            [1.2886470799245113, -1.9013616025988784, -2.667326211057544],
        ),
        (
            42,
            [10.1, -20.2, 30.3],
            -0.1169514145147099,
            0.548747845236052,
            0.5529789816543569,
            [0.07793468312121132, -5.185039429441677, -0.7363889835660743],
        ),
    ];
    for (seed, p, want_fbm, want_ridged, want_warp, want_curl) in cases {
        let f = fbm(seed);
        let ridged = Fractal::new(
            Noise::<3>::new(NoiseKind::Perlin, seed),
            FractalParams::new(FractalKind::Ridged),
        )
        .unwrap();
        let w = Warp::new(
            f.clone(),
            Noise::new(NoiseKind::Perlin, seed),
            WarpParams::new(WarpKind::Single),
        )
        .unwrap();
        let c = Curl::<3>::new(f.clone());
        assert_eq!(f.get(p), want_fbm, "fbm seed {seed} at {p:?}");
        assert_eq!(ridged.get(p), want_ridged, "ridged seed {seed} at {p:?}");
        assert_eq!(w.get(p), want_warp, "warp seed {seed} at {p:?}");
        assert_eq!(c.get(p), want_curl, "curl seed {seed} at {p:?}");
    }
}
