//! Figures after Gustavson's "Simplex noise demystified": classic against
//! simplex noise in 2D, 3D and 4D, by his own C code and by surflet.

use super::*;

/// Lattice units across each classic-vs-simplex panel.
pub(super) const CLASSIC_FREQUENCY: f64 = 8.0;
/// Where the 3D and 4D panels cut their noise: off the lattice, so the
/// classic slice is not the special all-zero-at-the-corners one.
pub(super) const SLICE_Z: f64 = 0.35;
pub(super) const SLICE_W: f64 = 0.65;

/// Grey panels of 2D, 3D-slice or 4D-slice noise, labelled, side by side.
fn pair(
    n: u32,
    left: (String, &(dyn Fn(f64, f64) -> f64 + Sync)),
    right: (String, &(dyn Fn(f64, f64) -> f64 + Sync)),
) -> Result<Image, CliError> {
    let f = CLASSIC_FREQUENCY;
    raster::sheet(
        Layout::new(n),
        2,
        vec![
            (left.0, raster::gray(n, f, left.1)),
            (right.0, raster::gray(n, f, right.1)),
        ],
    )
    .map_err(runtime)
}

/// A surflet-family noise of dimension `d` as a function of the panel's
/// x and y, cut at z = [`SLICE_Z`], w = [`SLICE_W`]. The dimension is the
/// library's to resolve (`surflet::dynamic`); a sample's value is the bits
/// of `Noise::<D>::get` at the same point.
fn family(
    kind: NoiseKind,
    d: usize,
    seed: u64,
) -> Result<Box<dyn Fn(f64, f64) -> f64 + Sync>, CliError> {
    let field = surflet::dynamic::DynField::noise(kind, seed, None, None, d)
        .map_err(|e| runtime(e.to_string()))?;
    Ok(Box::new(move |x, y| {
        field.sample(&[x, y, SLICE_Z, SLICE_W][..d]).value
    }))
}

/// Draws and stages the two comparison images of dimension `d` (2, 3 or
/// 4): Gustavson's C code, then the surflet family.
fn comparison(w: &mut StagedFiles, d: usize, n: u32, seed: u64) -> Result<Vec<Img>, CliError> {
    let (z, ww) = (SLICE_Z, SLICE_W);
    let (zf, wf) = (z as f32, ww as f32);
    let (names, args) = match d {
        2 => (
            [
                "classic-vs-simplex-2d.png",
                "classic-vs-simplex-2d-surflet.png",
            ],
            "x, y".to_string(),
        ),
        3 => (
            [
                "classic-vs-simplex-3d.png",
                "classic-vs-simplex-3d-surflet.png",
            ],
            format!("x, y, {z}"),
        ),
        _ => (
            [
                "classic-vs-simplex-4d.png",
                "classic-vs-simplex-4d-surflet.png",
            ],
            format!("x, y, {z}, {ww}"),
        ),
    };
    // The C functions take floats; converting the pixel coordinate once is
    // what a C caller would do.
    let classic = |x: f64, y: f64| {
        let (x, y) = (x as f32, y as f32);
        f64::from(match d {
            2 => noise1234::noise2(x, y),
            3 => noise1234::noise3(x, y, zf),
            _ => noise1234::noise4(x, y, zf, wf),
        })
    };
    let simplex = |x: f64, y: f64| {
        let (x, y) = (x as f32, y as f32);
        f64::from(match d {
            2 => simplexnoise1234::snoise2(x, y),
            3 => simplexnoise1234::snoise3(x, y, zf),
            _ => simplexnoise1234::snoise4(x, y, zf, wf),
        })
    };
    let reference = pair(
        n,
        (format!("classic: noise{d}({args})"), &classic),
        (format!("simplex: snoise{d}({args})"), &simplex),
    )?;
    let mut imgs = vec![png(
        w,
        names[0],
        &reference,
        &format!("{d}D classic (left) and simplex (right) noise, Gustavson's C code"),
    )?];
    drop(reference);
    let (perlin, simplex) = (
        family(NoiseKind::Perlin, d, seed)?,
        family(NoiseKind::Simplex, d, seed)?,
    );
    let surflet = pair(
        n,
        (format!("surflet perlin {d}D"), &*perlin),
        (format!("surflet simplex {d}D"), &*simplex),
    )?;
    imgs.push(png(
        w,
        names[1],
        &surflet,
        &format!("{d}D Perlin (left) and simplex (right) noise, surflet family"),
    )?);
    Ok(imgs)
}

/// "Simplex noise demystified": the visual comparison table.
pub(super) fn gustavson(w: &mut StagedFiles, n: u32, seed: u64) -> Result<Section, CliError> {
    let (z, ww) = (SLICE_Z, SLICE_W);
    let f = CLASSIC_FREQUENCY;
    let params = |what: &str| {
        format!(
            "{what}; {f} lattice units across each {n}&times;{n} panel; grey = \
             round(255&middot;(v + 1)/2), clamped. Top image: <code>surflet::reference::\
             noise1234</code> and <code>simplexnoise1234</code>, bit-exact ports of \
             Gustavson's <code>noise1234.c</code> and <code>simplexnoise1234.c</code> \
             (unseeded: Perlin's fixed permutation). Bottom image: the surflet family, \
             <code>Noise::&lt;D&gt;::new(NoiseKind::Perlin | NoiseKind::Simplex, {seed})</code>."
        )
    };
    let figures = vec![
        Figure {
            id: "classic-vs-simplex-2d",
            title: "Classic against simplex noise in 2D".into(),
            images: comparison(w, 2, n, seed)?,
            links: vec![],
            half: false,
            caption: "Row &ldquo;2D&rdquo; of the paper's table <i>Visual comparison between \
                      classic and simplex noise</i>: classic Perlin noise (left) and simplex \
                      noise (right), both true 2D functions. Both panels sample the same \
                      coordinates, as in the paper, so the simplex features look a little \
                      smaller: its lattice has &radic;3 &asymp; 1.73 vertices per unit area \
                      against the square grid's 1 &mdash; the difference in &ldquo;precise \
                      feature size&rdquo; the paper warns about. The square grid shows as \
                      axis-aligned streaks in classic noise; simplex noise has none."
                .into(),
            params: params("<code>noise2(x, y)</code> against <code>snoise2(x, y)</code>"),
        },
        Figure {
            id: "classic-vs-simplex-3d",
            title: "Classic against simplex noise, a slice of 3D".into(),
            images: comparison(w, 3, n, seed)?,
            links: vec![],
            half: false,
            caption: format!(
                "Row &ldquo;3D&rdquo; of the same table: the plane z = {z} through 3D \
                 classic noise (left) and 3D simplex noise (right). The simplex lattice has \
                 2 vertices per unit volume."
            ),
            params: params(&format!(
                "<code>noise3(x, y, {z})</code> against <code>snoise3(x, y, {z})</code>"
            )),
        },
        Figure {
            id: "classic-vs-simplex-4d",
            title: "Classic against simplex noise, a slice of 4D".into(),
            images: comparison(w, 4, n, seed)?,
            links: vec![],
            half: false,
            caption: format!(
                "Row &ldquo;4D&rdquo;: the plane z = {z}, w = {ww} through 4D classic and \
                 simplex noise. As the paper notes, a section of 4D simplex noise looks \
                 different from 3D simplex noise: each point sums five corner surflets \
                 instead of four, and the features are smaller still (&radic;5 &asymp; 2.24 \
                 vertices per unit hypervolume)."
            ),
            params: params(&format!(
                "<code>noise4(x, y, {z}, {ww})</code> against <code>snoise4(x, y, {z}, {ww})</code>"
            )),
        },
    ];
    Ok(Section {
        title: "Simplex noise demystified".into(),
        source: "Stefan Gustavson, Link&ouml;ping University, 2005 \
                 (<code>simplex-noise-demystified.txt</code>), the closing section \
                 <i>Visual comparison between classic and simplex noise</i>."
            .into(),
        figures,
    })
}
