//! `surflet analyze DIR [NAME]`: measure a noise or stack on a square 2D
//! slice (moments, histogram, windowed power spectrum, anisotropy) and
//! write `summary.json` and plots into DIR.
//!
//! The slice is laid over the plane as render lays pixels ([`slice`]), the
//! measurements are pure functions of the values
//! ([`crate::imaging::spectrum`]), and the files are staged beside their
//! targets and renamed into place together at the end
//! ([`crate::imaging::staged::StagedFiles`], as the gallery's are).

mod args;
mod slice;

use std::path::Path;

use serde_json::json;

use crate::CliError;
use crate::imaging::color::{self, Mapping};
use crate::imaging::image::Image;
use crate::imaging::output;
use crate::imaging::plot::{PALETTE, Plot, Series};
use crate::imaging::spectrum;
use crate::imaging::staged::StagedFiles;
use crate::names::Variant;
use crate::units::Ratio;
pub use args::{AnalyzeArgs, DETAILS, LONG_ABOUT};
use slice::Slice;

/// Every file analyze writes, in the order staged and committed.
pub const FILES: [&str; 5] = [
    "slice.png",
    "histogram.png",
    "spectrum.png",
    "spectrum2d.png",
    "summary.json",
];

/// Runs `surflet analyze`.
pub fn run(args: &AnalyzeArgs) -> Result<(), CliError> {
    let slice = Slice::new(args).map_err(CliError::Usage)?;
    let n = slice.n as usize;
    check_memory(n).map_err(CliError::Runtime)?;
    prepare(&args.dir, !args.no_clobber).map_err(CliError::Runtime)?;
    output::install_interrupt_handler().map_err(CliError::Runtime)?;

    let values = slice.evaluate().map_err(CliError::Runtime)?;
    if let Some(k) = values.iter().position(|v| !v.is_finite()) {
        return Err(CliError::Runtime(format!(
            "the noise is {} at sample ({}, {}); nothing was written",
            values[k],
            k % n,
            k / n
        )));
    }
    if output::interrupted() {
        return Err(CliError::Interrupted);
    }
    let m = spectrum::moments(&values);
    let bins = args.bins.unwrap_or(64) as usize;
    let (edges, counts) = spectrum::histogram(&values, &m, bins);
    let power = spectrum::power_spectrum(&values, n, m.mean);
    let [sx, sy] = slice.scale.map(Ratio::value);
    let a = spectrum::analyse(&power, n, sx, sy);
    let above = (slice.oversample > 1).then(|| {
        let f = slice.nyquist();
        let (outside, total) = spectrum::power_outside(&power, n, sx, sy, f);
        let share = if total > 0.0 { outside / total } else { 0.0 };
        json!({"frequency": f, "power": outside, "share": share})
    });
    if output::interrupted() {
        return Err(CliError::Interrupted);
    }

    let summary = json!({
        "noise": slice.label(),
        "dims": slice.dims,
        "size": n,
        "scale": [sx, sy],
        "oversample": slice.oversample,
        "above_nyquist": above,
        "origin": slice.origin[..slice.dims],
        "plane": {"u": slice.plane.u[..slice.dims], "v": slice.plane.v[..slice.dims]},
        "samples": n * n,
        "min": m.min,
        "max": m.max,
        "mean": m.mean,
        "std": m.std,
        "histogram": {"edges": edges, "counts": counts},
        "spectrum": {
            "unit": "cycles per world unit",
            "cells_per_unit": slice.frequency,
            "frequency": a.frequency,
            "power": a.power,
            "centroid": a.centroid,
            "peak": a.peak,
        },
        "anisotropy": a.anisotropy,
        "anisotropy_detail": {
            "sectors": a.sectors,
            "sector_bins": a.sector_bins,
            "floor": a.floor,
            "annulus": [a.annulus.0, a.annulus.1],
        },
        "stack": slice.stack_json(),
        "variant": slice.variant().map(Variant::name),
    });

    let mut w = StagedFiles::new(&args.dir, &FILES);
    let fail = |e: String| CliError::Runtime(e);
    w.png("slice.png", &slice_image(&values, n, &m))?;
    let plot_size = (960, 600);
    w.png(
        "histogram.png",
        &histogram_plot(&slice, &edges, &counts)
            .png(plot_size)
            .map_err(fail)?,
    )?;
    w.png(
        "spectrum.png",
        &spectrum_plot(&slice, &a).png(plot_size).map_err(fail)?,
    )?;
    w.png("spectrum2d.png", &spectrum::power_spectrum_image(&power, n))?;
    let mut text = serde_json::to_string_pretty(&summary)
        .map_err(|e| CliError::Runtime(format!("writing summary.json: {e}")))?;
    text.push('\n');
    w.text("summary.json", &text)?;
    w.commit(!args.no_clobber)
}

/// Refuses a size whose buffers would not fit in memory.
fn check_memory(n: usize) -> Result<(), String> {
    // Values, two complex buffers, power, the analysis's point list and
    // the images: about 80 bytes a sample at the peak.
    let needed = (n * n) as u128 * 80 + (64 << 20);
    let available = output::available_memory();
    if needed > u128::from(available) {
        return Err(format!(
            "analysing a {n}x{n} slice needs about {} of memory, but only {} is available; \
             use a smaller --size",
            output::human_bytes(needed),
            output::human_bytes(available.into())
        ));
    }
    Ok(())
}

/// Creates DIR and its missing parents, and checks that no file of ours is
/// in the way.
fn prepare(dir: &Path, overwrite: bool) -> Result<(), String> {
    if !dir.is_dir() {
        if dir.exists() {
            return Err(format!(
                "cannot create {}: it exists and is not a directory",
                dir.display()
            ));
        }
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    for name in FILES {
        let target = dir.join(name);
        match std::fs::symlink_metadata(&target) {
            Ok(m) if m.is_dir() => return Err(format!("{} is a directory", target.display())),
            Ok(_) if !overwrite => {
                return Err(format!(
                    "{} already exists (--no-clobber refuses to replace it)",
                    target.display()
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// The slice as grey, its minimum black and maximum white.
fn slice_image(values: &[f64], n: usize, m: &spectrum::Moments) -> Image {
    let map = Mapping::measured(m.min, m.max);
    Image {
        width: n as u32,
        height: n as u32,
        rgb: false,
        data: values
            .iter()
            .map(|&v| color::quantise8(map.apply(v)))
            .collect(),
    }
}

fn histogram_plot(slice: &Slice, edges: &[f64], counts: &[u64]) -> Plot {
    let total: u64 = counts.iter().sum();
    // Density, so that histograms of different bin counts compare.
    let width = (edges[edges.len() - 1] - edges[0]) / counts.len() as f64;
    let density = |c: u64| {
        if width > 0.0 {
            c as f64 / (total as f64 * width)
        } else {
            1.0
        }
    };
    let mut points = vec![(edges[0], 0.0)];
    for (k, &c) in counts.iter().enumerate() {
        points.push((edges[k], density(c)));
        points.push((edges[k + 1], density(c)));
    }
    points.push((edges[edges.len() - 1], 0.0));
    let top = points.iter().fold(0.0f64, |a, p| a.max(p.1));
    let (lo, hi) = (edges[0], edges[edges.len() - 1]);
    let pad = if hi > lo { 0.02 * (hi - lo) } else { 0.5 };
    Plot {
        title: format!("Histogram: {}", slice.label()),
        x_desc: "value".into(),
        y_desc: "density".into(),
        x: lo - pad..hi + pad,
        y: 0.0..top * 1.08 + f64::MIN_POSITIVE,
        series: vec![Series {
            label: format!("{} samples", total),
            points,
            color: PALETTE[0],
            weight: 1.0,
        }],
        legend_lower_left: false,
    }
}

fn spectrum_plot(slice: &Slice, a: &spectrum::Analysis) -> Plot {
    let points: Vec<(f64, f64)> = a
        .frequency
        .iter()
        .zip(&a.power)
        .filter(|(_, p)| **p > 0.0)
        .map(|(&f, &p)| (f, p.log10()))
        .collect();
    let (lo, hi) = points.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
        (lo.min(p.1), hi.max(p.1))
    });
    let (lo, hi) = if points.is_empty() {
        (-1.0, 0.0)
    } else {
        (lo.floor(), hi.ceil().max(lo.floor() + 1.0))
    };
    let fmax = a.frequency.last().copied().unwrap_or(1.0);
    let mut series = vec![Series {
        label: format!("centroid {:.3}, anisotropy {:.3}", a.centroid, a.anisotropy),
        points,
        color: PALETTE[0],
        weight: 1.0,
    }];
    if slice.oversample > 1 {
        let f = slice.nyquist();
        series.push(Series {
            label: format!("Nyquist of the {}x coarser sampling", slice.oversample),
            points: vec![(f, lo), (f, hi)],
            color: PALETTE[1],
            weight: 1.0,
        });
    }
    Plot {
        title: format!("Radially averaged power: {}", slice.label()),
        x_desc: "frequency (cycles per world unit)".into(),
        y_desc: "log10 power".into(),
        x: 0.0..fmax,
        y: lo..hi,
        series,
        legend_lower_left: false,
    }
}
