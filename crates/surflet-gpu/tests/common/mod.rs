//! What the GPU tests share.

use surflet_gpu::GpuContext;

/// The context, or `None` (after saying why) where there is no adapter and
/// this is not CI, where a missing adapter fails the test.
pub fn context() -> Option<GpuContext> {
    match GpuContext::new() {
        Ok(ctx) => {
            eprintln!("adapter: {}", ctx.adapter_info());
            Some(ctx)
        }
        Err(e) => {
            if std::env::var("CI").as_deref() == Ok("true") {
                panic!("CI=true and no GPU context: {e}");
            }
            eprintln!("skipped, no GPU context: {e}");
            None
        }
    }
}

/// Every noise of the family, by name: each must have a WGSL kernel, so a
/// new kind is in the GPU tests (and fails them until it has one).
pub fn wgsl_noises() -> Vec<&'static str> {
    surflet::NoiseKind::ALL.iter().map(|k| k.name()).collect()
}

/// Graphs that use every node kind, for `d` (2 to 4) dimensions (the
/// domain nodes take one number or field per axis): arithmetic, maps,
/// selections, and domain moves nested so that every kind of move meets a
/// Jacobian from above and pulls a leaf's gradient back through it.
pub fn graphs(d: usize) -> Vec<String> {
    let v = |xs: [&str; 4]| format!("[{}]", xs[..d].join(", "));
    let fields = |scale: &str| {
        let f = [
            "perlin(seed=2)",
            "value(seed=3)",
            "simplex(seed=4)",
            "simplex_value(seed=5)",
        ];
        let f: Vec<String> = f[..d].iter().map(|f| format!("{f} * {scale}")).collect();
        format!("[{}]", f.join(", "))
    };
    vec![
        // The README's kind of terrain.
        "select(fbm(simplex(seed=1), octaves=4), ridged(perlin(seed=2), octaves=3), \
         control=perlin(seed=3, frequency=0.25), threshold=0, falloff=0.1) * 0.8 + 0.1"
            .into(),
        "blend(value(seed=4), simplex(seed=5), control=perlin(seed=6)) \
         - min(perlin(), value(seed=2)) / (2 + abs(simplex(seed=7)))"
            .into(),
        "max(-perlin(seed=1), pow(simplex(seed=2), 3)) + pow(2 + value(), -2) + pow(perlin(), 0) \
         - pow(billow(simplex(seed=9), octaves=2), 5)"
            .into(),
        // Non-integer exponents (double-f32 in both), over bases near 0 and
        // 1, with a negative exponent, and 0 (fbm's clamp) on the special
        // path.
        "pow(abs(simplex(seed=2)), 1.5) + pow(value(seed=3) * 0.5 + 1.25, -2.7) \
         - pow(max(perlin(seed=4), 0) + 0.5, 0.45) * 0.3 + pow(abs(perlin(seed=6)) * 0.5 + 0.01, 7.3) \
         + pow(max(fbm(value(seed=7), octaves=2), 0), 2.5)"
            .into(),
        "clamp(fbm(perlin(seed=9), octaves=3), -0.3, 0.4) + scale_bias(simplex(), 0.5, -0.25) \
         + remap(value(seed=3), from=[-1, 1], to=[0, 2]) + 0"
            .into(),
        "terrace(fbm(simplex(seed=2), octaves=3), points=[-1, -0.2, 0.3, 1], smooth=true) \
         + terrace(perlin(), points=[-0.5, 0, 0.5])"
            .into(),
        "curve(simplex(seed=3), points=[[-1, -1], [-0.2, 0.1], [0.4, 0.2], [1, 1]]) \
         * smoothstep(-0.2, 0.3, perlin(seed=1)) + select(value(), perlin(), control=simplex())"
            .into(),
        format!(
            "translate(scale(rotate(fbm(perlin(seed=1), octaves=3), angle=0.6), by={}), by={})",
            v(["1.5", "0.75", "2", "0.5"]),
            v(["0.25", "-3", "0", "1.75"])
        ),
        format!(
            "displace(simplex(seed=1), by={}) + distort(fbm(value(), octaves=2), power=0.3, \
             frequency=2, roughness=2, seed=5)",
            fields("0.5")
        ),
        // Moves under moves: each meets the Jacobian of those above it.
        format!(
            "scale(rotate(translate(displace(scale(perlin(seed=4), by=1.5) * value(), by={}), \
             by={}), angle=-0.4), by=0.8)",
            fields("0.3"),
            v(["0.5", "0", "-1.25", "2"])
        ),
        format!(
            "rotate(blend(displace(simplex(), by={}), scale(value(seed=8), by=2), \
             control=translate(perlin(), by={})), angle=1.1)",
            fields("0.2"),
            v(["3", "1", "2", "-0.5"])
        ),
    ]
}
