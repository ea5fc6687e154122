//! Figures of the noises surflet adds to the seed documents' (issue 13):
//! OpenSimplex2 and 2S against simplex noise, cellular noise in each of its
//! return modes, and the 2D power spectra that `surflet analyze` measures.

use super::*;
use crate::imaging::spectrum::{power_spectrum_image, spectrum_of};
use surflet::{Cellular, CellularDistance, CellularReturn};

/// Lattice units across each noise panel (as Gustavson's figures).
const FREQUENCY: f64 = 8.0;
/// The z of the 3D slices: off the lattice, as in Gustavson's figures.
const SLICE_Z: f64 = 0.35;
/// Lattice units across each spectrum's field: enough cells for a smooth
/// spectrum, few enough that its peak is well inside the plot.
const SPECTRUM_FREQUENCY: f64 = 32.0;

/// The kinds compared with simplex noise.
const SIMPLEX_FAMILY: [NoiseKind; 3] = [
    NoiseKind::Simplex,
    NoiseKind::OpenSimplex2,
    NoiseKind::OpenSimplex2S,
];

/// The noises whose spectra are drawn, in order.
const SPECTRA: [NoiseKind; 6] = [
    NoiseKind::Value,
    NoiseKind::Perlin,
    NoiseKind::Simplex,
    NoiseKind::OpenSimplex2,
    NoiseKind::OpenSimplex2S,
    NoiseKind::Cellular,
];

/// "Beyond the seed documents": the added noises, side by side.
pub(super) fn more(w: &mut StagedFiles, n: u32, seed: u64) -> Result<Section, CliError> {
    let figures = vec![
        simplex_family(w, n, seed)?,
        cellular_returns(w, n, seed)?,
        spectra(w, n, seed)?,
    ];
    Ok(Section {
        title: "Beyond the seed documents".into(),
        source: "surflet's other noises (not in the three documents): K.jpg's OpenSimplex2 \
                 and OpenSimplex2S, Worley's cellular noise, and the spectra that measure the \
                 documents' claim that simplex noise has fewer directional artefacts."
            .into(),
        figures,
    })
}

/// OpenSimplex2 and 2S beside simplex noise, in 2D and on a 3D slice.
fn simplex_family(w: &mut StagedFiles, n: u32, seed: u64) -> Result<Figure, CliError> {
    let f = FREQUENCY;
    let mut panels = Vec::new();
    for kind in SIMPLEX_FAMILY {
        let noise = Noise::<2>::new(kind, seed);
        panels.push((
            format!("{kind}, 2D"),
            raster::gray(n, f, |x, y| noise.get([x, y])),
        ));
    }
    for kind in SIMPLEX_FAMILY {
        let noise = Noise::<3>::new(kind, seed);
        panels.push((
            format!("{kind}, 3D, z = {SLICE_Z}"),
            raster::gray(n, f, |x, y| noise.get([x, y, SLICE_Z])),
        ));
    }
    let sheet = raster::sheet(Layout::new(n), 3, panels).map_err(runtime)?;
    let os2 = png(
        w,
        "opensimplex2-vs-simplex.png",
        &sheet,
        "Simplex, OpenSimplex2 and OpenSimplex2S noise in 2D (top) and on a 3D slice (bottom)",
    )?;
    Ok(Figure {
        id: "opensimplex2-vs-simplex",
        title: "OpenSimplex2 and OpenSimplex2S against simplex noise".into(),
        images: vec![os2],
        links: vec![],
        half: false,
        caption: "K.jpg's noises beside Gustavson's. In 2D all three share the \
                  triangular lattice; OpenSimplex2 uses the simplex radius (r&sup2; \
                  &frac12;) with 24 gradient directions, OpenSimplex2S a wider radius \
                  (r&sup2; &frac23;) that sums more lattice points, so its features are \
                  rounder and its contrast lower. On the 3D slice (bottom) the \
                  difference is the lattice: simplex noise's skewed cubic lattice \
                  shows its axis-aligned rows in an xy slice, while the OpenSimplex2 \
                  noises use the BCC lattice turned so that xy slices look like 2D \
                  noise (K.jpg's <i>ImproveXY</i> orientation)."
            .into(),
        params: format!(
            "<code>Noise::&lt;D&gt;::new(kind, {seed})</code> for D = 2 and 3 (at z = \
             {SLICE_Z}); {f} lattice units across each {n}&times;{n} panel; grey = \
             round(255&middot;(v + 1)/2)."
        ),
    })
}

/// Cellular noise in each return mode, and f2 − f1 with the manhattan
/// distance.
fn cellular_returns(w: &mut StagedFiles, n: u32, seed: u64) -> Result<Figure, CliError> {
    let f = FREQUENCY;
    let mut panels = Vec::new();
    for ret in CellularReturn::ALL {
        let params = Cellular::new(CellularDistance::Euclidean, ret, 1.0)
            .map_err(|e| runtime(e.to_string()))?;
        let noise = Noise::<2>::new(NoiseKind::Cellular, seed)
            .with_cellular(params)
            .map_err(|e| runtime(e.to_string()))?;
        panels.push((
            format!("{ret}"),
            raster::gray(n, f, |x, y| noise.get([x, y])),
        ));
    }
    let params = Cellular::new(CellularDistance::Manhattan, CellularReturn::F2MinusF1, 1.0)
        .map_err(|e| runtime(e.to_string()))?;
    let noise = Noise::<2>::new(NoiseKind::Cellular, seed)
        .with_cellular(params)
        .map_err(|e| runtime(e.to_string()))?;
    panels.push((
        "f2-f1, manhattan".into(),
        raster::gray(n, f, |x, y| noise.get([x, y])),
    ));
    let sheet = raster::sheet(Layout::new(n), 4, panels).map_err(runtime)?;
    let cellular = png(
        w,
        "cellular-returns.png",
        &sheet,
        "Cellular noise with each return value: f1, f2, f2-f1, f1+f2, f1*f2, f1/f2, \
         cell-value, and f2-f1 with the manhattan distance",
    )?;
    Ok(Figure {
        id: "cellular-returns",
        title: "Cellular noise, one panel per return value".into(),
        images: vec![cellular],
        links: vec![],
        half: false,
        caption: "Worley's distances to the nearest feature point (f1) and the second \
                  nearest (f2), and what is made of them: f2 &minus; f1 is zero on the \
                  Voronoi borders (the cracked-mud look), f1/f2 the same borders \
                  normalised, cell-value a flat random grey per cell. Each is mapped \
                  onto [&minus;1, 1] from its exact range (<code>docs/RANGES.md</code>), \
                  a supremum over every placement of the points, so typical values sit \
                  below the top. The last panel uses the manhattan distance, whose \
                  borders run at 0&deg;, 45&deg; and 90&deg;."
            .into(),
        params: format!(
            "<code>Noise::&lt;2&gt;::new(NoiseKind::Cellular, {seed}).with_cellular(\
             Cellular::new(distance, return, 1.0))</code>, jitter 1 (each feature point \
             anywhere in its cell), euclidean unless labelled; {f} cells across each \
             {n}&times;{n} panel."
        ),
    })
}

/// The 2D power spectrum of each noise, with its anisotropy index.
fn spectra(w: &mut StagedFiles, n: u32, seed: u64) -> Result<Figure, CliError> {
    let mut panels = Vec::new();
    let mut indices = Vec::new();
    for kind in SPECTRA {
        let noise = Noise::<2>::new(kind, seed);
        let (power, anisotropy) =
            spectrum_of(n as usize, SPECTRUM_FREQUENCY, |x, y| noise.get([x, y]));
        indices.push(format!("{kind} {anisotropy:.3}"));
        panels.push((
            format!("{kind}, anisotropy {anisotropy:.3}"),
            power_spectrum_image(&power, n as usize),
        ));
    }
    let sheet = raster::sheet(Layout::new(n), 3, panels).map_err(runtime)?;
    let spectra = png(
        w,
        "spectra.png",
        &sheet,
        "The 2D power spectra of value, Perlin, simplex, OpenSimplex2, OpenSimplex2S and \
         cellular noise",
    )?;
    Ok(Figure {
        id: "spectra",
        title: "Power spectra".into(),
        images: vec![spectra],
        links: vec![],
        half: false,
        caption: "The 2D power spectrum of each noise, log<sub>10</sub> over six decades, \
                  zero frequency in the middle, as <code>surflet analyze</code> draws it \
                  (its <code>spectrum2d.png</code>), with its anisotropy index: 0 for \
                  power spread evenly over directions. Value and Perlin noise put \
                  visible power on the axes, where their square lattice lines up; the \
                  simplex family spreads it into rings; cellular noise, whose features \
                  have no preferred direction, is near isotropic despite its square \
                  cells."
            .into(),
        params: format!(
            "Each noise sampled on {n}&times;{n} points, {SPECTRUM_FREQUENCY} lattice \
             units across, seed {seed}; mean removed, 2D Hann window, FFT (rustfft). \
             Anisotropy as documented in <code>surflet analyze --help</code>: {}.",
            indices.join(", ")
        ),
    })
}
