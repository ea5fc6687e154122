//! Figures after Raouf's "Perlin Noise: A Procedural Generation
//! Algorithm": 1D noise and its octave sums, and fBm heightmaps.

use super::*;

/// Lattice units across the heightmaps, and fBm octaves.
pub(super) const TERRAIN_FREQUENCY: f64 = 4.0;
pub(super) const TERRAIN_OCTAVES: u32 = 8;
/// Raouf's 1D plots run over x in [0, 3].
pub(super) const LINE_X: f64 = 3.0;
/// The octave counts summed in `perlin-1d-octaves`: one octave (Figure 10,
/// in grey), then Figures 12, 13 and 14. `gallery --help` and the README
/// name them too (tests check both).
pub(super) const OCTAVE_SUMS: [u32; 4] = [1, 2, 3, 8];

/// [`OCTAVE_SUMS`] in words: "1, 2, 3 and 8".
pub(super) fn octave_sums_text() -> String {
    let (last, rest) = OCTAVE_SUMS.split_last().unwrap();
    let rest: Vec<String> = rest.iter().map(u32::to_string).collect();
    format!("{} and {last}", rest.join(", "))
}

/// "Perlin Noise: A Procedural Generation Algorithm": 1D octaves and the
/// heightmaps of Figures 8 and 9.
pub(super) fn raouf(w: &mut StagedFiles, n: u32, seed: u64) -> Result<Section, CliError> {
    let eight = line(seed, 8)?;
    let figures = vec![
        frequencies(w, n, seed, &eight)?,
        octave_sums(w, n, seed, &eight)?,
        terrain_fbm(w, n, seed)?,
        terrain_plain(w, n, seed)?,
    ];
    Ok(Section {
        title: "Perlin Noise: A Procedural Generation Algorithm".into(),
        source: "Raouf's Blog (<code>perlin-noise-procedural-generation.txt</code>), the \
                 section <i>Fractal brownian motion (FBM)</i>: Figures 8 to 14."
            .into(),
        figures,
    })
}

/// Raouf's FBM: amplitude 1 halving, frequency doubling, plain sum.
fn params(octaves: u32) -> FractalParams {
    FractalParams {
        octaves,
        normalize: false,
        ..FractalParams::new(FractalKind::Fbm)
    }
}

/// Raouf's FBM of 1D Perlin noise.
fn line(seed: u64, octaves: u32) -> Result<Fractal<1>, CliError> {
    Fractal::new(Noise::<1>::new(NoiseKind::Perlin, seed), params(octaves))
        .map_err(|e| runtime(e.to_string()))
}

/// The 1D fBm as code, for the figures' parameters.
fn fbm_code(seed: u64, k: u32) -> String {
    format!(
        "fbm of <code>Noise::&lt;1&gt;::new(NoiseKind::Perlin, {seed})</code>, {k} octaves, \
         frequency 1, lacunarity 2, gain 0.5, amplitude 1, not normalised"
    )
}

/// Figures 10 and 11: the first two octaves of `eight` on their own.
fn frequencies(
    w: &mut StagedFiles,
    n: u32,
    seed: u64,
    eight: &Fractal<1>,
) -> Result<Figure, CliError> {
    let octaves: Vec<_> = eight.octaves().collect();
    let octave = |k: usize| {
        let o = octaves[k];
        move |x: f64| o.noise.get([x * o.frequency + o.offset[0]])
    };
    let frequencies = Plot {
        title: "1D Perlin noise, x from 0 to 3".into(),
        x_desc: "x".into(),
        y_desc: "noise value".into(),
        x: 0.0..LINE_X,
        y: -1.0..1.0,
        series: vec![
            Series {
                label: "frequency 1 (Figure 10)".into(),
                points: curve(0.0, LINE_X, octave(0)),
                color: PALETTE[0],
                weight: 1.0,
            },
            Series {
                label: "frequency 2 (Figure 11)".into(),
                points: curve(0.0, LINE_X, octave(1)),
                color: PALETTE[1],
                weight: 1.0,
            },
        ],
        legend_lower_left: false,
    };
    let (freq_img, freq_svg) = plot_files(
        w,
        &frequencies,
        n,
        "perlin-1d-frequencies.png",
        "perlin-1d-frequencies.svg",
        "Plot of 1D Perlin noise at frequency 1 and 2 over x from 0 to 3",
    )?;
    let octave_note = "Raouf adds the <em>same</em> noise at doubled frequencies; surflet's \
                       fBm gives each octave its own seed and a fraction-of-a-cell offset, so \
                       the octaves do not all vanish together at the integers. Octave 0 is the \
                       base noise itself.";
    Ok(Figure {
        id: "perlin-1d-frequencies",
        title: "1D Perlin noise at frequency 1 and 2".into(),
        images: vec![freq_img],
        links: vec![freq_svg],
        half: false,
        caption: format!(
            "Figures 10 and 11: 1D Perlin noise for x from 0 to 3 at frequency 1 \
             (blue) and 2 (vermillion). At frequency 2 the curve crosses twice as many \
             lattice cells over the same x range, so it is twice as bumpy. {octave_note}"
        ),
        params: format!(
            "Octaves 0 and 1 of the {}, each at amplitude 1; {LINE_SAMPLES} segments per \
             curve, drawn with plotters.",
            fbm_code(seed, 8)
        ),
    })
}

/// Figures 12, 13 and 14: the sums of [`OCTAVE_SUMS`] octaves, the last
/// of them `eight`.
fn octave_sums(
    w: &mut StagedFiles,
    n: u32,
    seed: u64,
    eight: &Fractal<1>,
) -> Result<Figure, CliError> {
    let mut sums = Vec::new();
    let mut peak: f64 = 0.0;
    let styles = [
        (None, CONTEXT, 0.75),
        (Some(12), PALETTE[0], 1.0),
        (Some(13), PALETTE[2], 1.0),
        (Some(14), PALETTE[1], 1.0),
    ];
    for (k, (fig, colour, weight)) in OCTAVE_SUMS.into_iter().zip(styles) {
        let f = if k == 8 {
            eight.clone()
        } else {
            line(seed, k)?
        };
        let points = curve(0.0, LINE_X, |x| f.get([x]));
        peak = points.iter().fold(peak, |m, p| m.max(p.1.abs()));
        let label = match fig {
            Some(fig) => format!("{k} octaves (Figure {fig})"),
            None => "1 octave (Figure 10)".into(),
        };
        sums.push(Series {
            label,
            points,
            color: colour,
            weight,
        });
    }
    // Room above the curves for the legend.
    let top = (peak * 4.0).ceil() / 4.0;
    let octave_plot = Plot {
        title: "Sums of octaves of 1D Perlin noise".into(),
        x_desc: "x".into(),
        y_desc: "sum".into(),
        x: 0.0..LINE_X,
        y: -top..top + 0.75,
        series: sums,
        legend_lower_left: false,
    };
    let (oct_img, oct_svg) = plot_files(
        w,
        &octave_plot,
        n,
        "perlin-1d-octaves.png",
        "perlin-1d-octaves.svg",
        &format!(
            "Plot of the sums of {} octaves of 1D Perlin noise over x from 0 to 3",
            octave_sums_text()
        ),
    )?;
    Ok(Figure {
        id: "perlin-1d-octaves",
        title: "Sums of 2, 3 and 8 octaves".into(),
        images: vec![oct_img],
        links: vec![oct_svg],
        half: false,
        caption: "Figures 12, 13 and 14: each octave doubles the frequency and halves the \
                  amplitude of the one before; 2 octaves add bumps to the smooth curve of \
                  Figure 10 (grey), 3 add smaller ones, and 8 give the detailed \
                  &ldquo;chain of mountains&rdquo; the article describes, while keeping its \
                  overall shape."
            .into(),
        params: format!(
            "The {} for {} octaves (the sums share their octaves, so each curve adds \
             detail to the previous one); {LINE_SAMPLES} segments per curve, drawn with \
             plotters.",
            fbm_code(seed, 8).replace(", 8 octaves", ""),
            octave_sums_text()
        ),
    })
}

/// Figure 8: the terrain-coloured heightmap of 2D fBm.
fn terrain_fbm(w: &mut StagedFiles, n: u32, seed: u64) -> Result<Figure, CliError> {
    let base = Noise::<2>::new(NoiseKind::Perlin, seed);
    let terrain =
        Fractal::new(base, params(TERRAIN_OCTAVES)).map_err(|e| runtime(e.to_string()))?;
    let tf = TERRAIN_FREQUENCY;
    let fbm_img = raster::ramped(n, tf, &Ramp::terrain(), |x, y| terrain.get([x, y]));
    let fbm_img = png(
        w,
        "terrain-fbm.png",
        &fbm_img,
        "Terrain-coloured heightmap of 8-octave fBm of Perlin noise",
    )?;
    Ok(Figure {
        id: "terrain-fbm",
        title: "Coloured heightmap with fBm".into(),
        images: vec![fbm_img],
        links: vec![],
        half: true,
        caption: "Figure 8: <i>a colored heightmap generated with Perlin noise with fractal \
                  brownian motion</i>: coastlines, valleys and snowy ridges at every scale."
            .into(),
        params: format!(
            "fbm of <code>Noise::&lt;2&gt;::new(NoiseKind::Perlin, {seed})</code>, \
             {TERRAIN_OCTAVES} octaves, frequency 1, lacunarity 2, gain 0.5, amplitude 1, \
             not normalised; {tf} lattice units across {n}&times;{n} pixels; render's \
             built-in <code>terrain</code> ramp over [&minus;1, 1], clamped."
        ),
    })
}

/// Figure 9: the same heightmap of plain Perlin noise, fBm's first octave.
fn terrain_plain(w: &mut StagedFiles, n: u32, seed: u64) -> Result<Figure, CliError> {
    let base = Noise::<2>::new(NoiseKind::Perlin, seed);
    let tf = TERRAIN_FREQUENCY;
    let plain_img = raster::ramped(n, tf, &Ramp::terrain(), |x, y| base.get([x, y]));
    let plain_img = png(
        w,
        "terrain-plain.png",
        &plain_img,
        "Terrain-coloured heightmap of plain Perlin noise",
    )?;
    Ok(Figure {
        id: "terrain-plain",
        title: "Coloured heightmap without fBm".into(),
        images: vec![plain_img],
        links: vec![],
        half: true,
        caption: "Figure 9: <i>a colored &ldquo;heightmap&rdquo; generated with Perlin \
                  noise without fractal brownian motion</i> &mdash; the same Perlin noise \
                  alone, which is the first octave of Figure 8. It is &ldquo;way too \
                  smooth&rdquo;, as the article says. The coastline is the level 0, and \
                  Perlin noise is 0 at every lattice point, so the coast runs through all \
                  of them, crossing itself where a lattice point is a saddle; fBm's later \
                  octaves, offset from the lattice, hide this."
            .into(),
        params: format!(
            "<code>Noise::&lt;2&gt;::new(NoiseKind::Perlin, {seed})</code>, {tf} lattice \
             units across; the same image as <code>surflet render terrain.png --noise \
             perlin --seed {seed} --size {n} --scale {tf}/{n} --ramp terrain</code>."
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_names_the_octave_counts_drawn() {
        assert_eq!(octave_sums_text(), "1, 2, 3 and 8");
        let line = format!("sums of {} octaves", octave_sums_text());
        assert!(super::super::DETAILS.contains(&line), "{line}");
    }
}
