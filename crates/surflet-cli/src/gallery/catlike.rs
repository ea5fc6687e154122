//! Figures after Catlike Coding's "Simplex Noise, keeping it simple": the
//! falloff curves, value against simplex value noise, and curl-noise flow.

use super::*;

/// Catlike Coding's 2D value-noise frequencies.
pub(super) const VALUE_FREQUENCIES: [f64; 3] = [2.0, 4.0, 8.0];

/// "Simplex Noise, keeping it simple": falloff curves, value noise against
/// simplex value noise, and the curl-noise particles of its opening picture.
pub(super) fn catlike(w: &mut StagedFiles, n: u32, seed: u64) -> Result<Section, CliError> {
    let sup = ["\u{b9}", "\u{b2}", "\u{b3}"];
    let falloff = Plot {
        title: "(1 \u{2212} x\u{b2})\u{207f} for n = 1, 2, 3".into(),
        x_desc: "x (distance from the lattice point)".into(),
        y_desc: "falloff".into(),
        x: 0.0..1.0,
        y: 0.0..1.0,
        series: (1..=3)
            .map(|k: i32| Series {
                label: format!("n = {k}: (1 \u{2212} x\u{b2}){}", sup[k as usize - 1]),
                points: curve(0.0, 1.0, |x| (1.0 - x * x).powi(k)),
                color: PALETTE[k as usize - 1],
                weight: 1.0,
            })
            .collect(),
        legend_lower_left: true,
    };
    let (falloff_img, falloff_svg) = plot_files(
        w,
        &falloff,
        n,
        "falloff.png",
        "falloff.svg",
        "Plot of (1 - x^2)^n for n = 1, 2, 3 over x from 0 to 1",
    )?;

    let layout = Layout::new(n);
    let mut panels = Vec::new();
    for kind in [NoiseKind::Value, NoiseKind::SimplexValue] {
        let noise = Noise::<2>::new(kind, seed);
        for f in VALUE_FREQUENCIES {
            panels.push((
                format!("{kind}, frequency {f}"),
                raster::gray(n, f, |x, y| noise.get([x, y])),
            ));
        }
    }
    let values = raster::sheet(layout, 3, panels).map_err(runtime)?;
    let values = png(
        w,
        "value-vs-simplex-value.png",
        &values,
        "Value noise (top) and simplex value noise (bottom) at frequency 2, 4 and 8",
    )?;

    let setup = flow::Setup::new(n);
    let flow_img = flow::render(n, seed, setup).map_err(runtime)?;
    let flow_img = png(
        w,
        "curl-flow.png",
        &flow_img,
        "Coloured particle trails swirling through simplex curl noise",
    )?;

    let freqs = VALUE_FREQUENCIES.map(|f| f.to_string()).join(", ");
    let figures = vec![
        Figure {
            id: "falloff",
            title: "Falloff curves".into(),
            images: vec![falloff_img],
            links: vec![falloff_svg],
            half: false,
            caption: "The article's plot <i>(1 &minus; x&sup2;)<sup>n</sup> with n from 1 to \
                      3</i>: the candidate radial falloffs that replace interpolation on a \
                      simplex grid. All three reach 0 at x = 1, but only the cube has both its \
                      first derivative, &minus;6x(1 &minus; x&sup2;)&sup2;, and its second \
                      vanish there, so contributions fade in and out smoothly; the article \
                      picks n = 3."
                .into(),
            params: format!(
                "Exact curves, {LINE_SAMPLES} segments each, drawn with plotters; x from 0 to 1."
            ),
        },
        Figure {
            id: "value-vs-simplex-value",
            title: "Value noise against simplex value noise".into(),
            images: vec![values],
            links: vec![],
            half: false,
            caption: "The article's <i>2D Simplex Value noise vs. Value noise, frequency 2, \
                      4, and 8</i>: value noise interpolates random lattice values across \
                      squares (top row); simplex value noise sums radial falloffs of the values \
                      at the corners of triangles (bottom row), so it looks like blobs on a \
                      triangular grid, skewed along the diagonal, and shows more bands."
                .into(),
            params: format!(
                "surflet family, <code>Noise::&lt;2&gt;::new(NoiseKind::Value | \
                 NoiseKind::SimplexValue, {seed})</code>; frequency {freqs} = lattice units \
                 across each {n}&times;{n} panel; grey = round(255&middot;(v + 1)/2)."
            ),
        },
        Figure {
            id: "curl-flow",
            title: "Particles pushed around by simplex curl noise".into(),
            images: vec![flow_img],
            links: vec![],
            half: false,
            caption: "The article's opening picture, <i>Pushing particles around with Simplex \
                      curl noise</i>, as a still: particles advected through the 2D curl \
                      (&part;&psi;/&part;y, &minus;&part;&psi;/&part;x) of a simplex fBm \
                      potential &psi;, their trails accumulated as light. The field is \
                      divergence-free, so the particles neither bunch up nor thin out; they \
                      swirl along the contour lines of &psi;, and each trail is coloured by \
                      the &psi; it follows (blue low, amber and pink high)."
                .into(),
            params: format!(
                "<code>Curl::&lt;2&gt;::new(Fractal::new(Noise::&lt;2&gt;::new(NoiseKind::\
                 Simplex, {seed}), fbm, {oct} octaves))</code>, {fr} lattice units across; \
                 {p} particles on a jittered {g}&times;{g} grid (seeded with {seed}), each \
                 advected {st} classic RK4 steps with the time step that moves a particle at \
                 the field's RMS speed {h} pixel per step; trails drawn in half-pixel \
                 bilinear splats, faded in and out along their length, summed and tone-mapped \
                 with 1 &minus; e<sup>&minus;light</sup>.",
                oct = flow::OCTAVES,
                fr = flow::FREQUENCY,
                p = setup.grid * setup.grid,
                g = setup.grid,
                st = setup.steps,
                h = setup.step_px,
            ),
        },
    ];
    Ok(Section {
        title: "Simplex Noise, keeping it simple".into(),
        source: "Catlike Coding (<code>simplex-noise-keeping-it-simple.txt</code>): the falloff \
                 plot of <i>Falloff instead of Interpolation</i>, the 2D comparison of \
                 <i>Simplex Value</i> noise, and the title picture."
            .into(),
        figures,
    })
}
