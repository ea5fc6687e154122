//! The frame pipeline: rows of samples in parallel, values to pixels, and
//! pixels to the encoder.

use std::io::{BufWriter, Write};

use rayon::prelude::*;

use super::Stop;
use super::plan::{Content, Plan, Range};
use super::progress::Progress;
use crate::imaging::color::{self, Mapping};
use crate::imaging::encode::{self, Format, Pixels, PngLayout, Sink};
use crate::imaging::output::{self, Guarded};

/// Pixels per band: the unit of progress and of Ctrl-C checks. The library
/// spreads each band over the threads.
const BAND_PIXELS: usize = 1 << 16;

/// Renders frame `k` into `frame` (row-major, [`Plan::channels`] samples per
/// pixel), a band of rows at a time.
fn render_frame(
    plan: &Plan,
    xs: &[f64],
    k: u32,
    frame: &mut [f64],
    progress: &Progress,
    stop: &dyn Fn() -> bool,
) -> Result<(), Stop> {
    let width = plan.width as usize;
    let channels = plan.channels();
    let mut zw = plan.zw;
    if let Some((axis, t)) = plan.time {
        zw[axis] = t.at(u64::from(k));
    }
    let normal = matches!(plan.content, Content::Normal(_));
    let (sx, sy) = (plan.x.step.value(), plan.y.step.value());
    let band_rows = (BAND_PIXELS / width).max(1);
    let mut values = Vec::new();
    let mut gradient: [Vec<f64>; 4] = Default::default();
    for (b, band) in frame.chunks_mut(band_rows * width * channels).enumerate() {
        if stop() {
            return Err(Stop::Interrupted);
        }
        let rows = band.len() / (width * channels);
        let j0 = (b * band_rows) as u64;
        let ys: Vec<f64> = (j0..j0 + rows as u64).map(|j| plan.y.at(j)).collect();
        let axes = [xs, &ys[..], &zw[..1], &zw[1..]];
        if normal {
            let n = rows * width;
            resize(&mut values, n)?;
            for g in &mut gradient {
                resize(g, n)?;
            }
            let [g0, g1, g2, g3] = &mut gradient;
            plan.fill_grid(axes, &mut values, Some([g0, g1, g2, g3]))?;
            // Chain rule: pixel-space slope = noise-space slope times the
            // noise distance between neighbouring pixels.
            band.par_chunks_mut(2 * width)
                .zip(gradient[0].par_chunks(width))
                .zip(gradient[1].par_chunks(width))
                .for_each(|((out, gx), gy)| {
                    for ((o, gx), gy) in out.chunks_exact_mut(2).zip(gx).zip(gy) {
                        o[0] = gx * sx;
                        o[1] = gy * sy;
                    }
                });
        } else {
            plan.fill_grid(axes, band, None)?;
        }
        progress.inc(rows as u64);
    }
    Ok(())
}

/// The smallest and largest finite value of a frame, merged into `acc`.
fn measure(frame: &[f64], acc: Option<(f64, f64)>) -> Option<(f64, f64)> {
    let (lo, hi) = frame
        .par_iter()
        .copied()
        .filter(|v| v.is_finite())
        .fold(
            || (f64::INFINITY, f64::NEG_INFINITY),
            |(lo, hi), v| (lo.min(v), hi.max(v)),
        )
        .reduce(
            || (f64::INFINITY, f64::NEG_INFINITY),
            |a, b| (a.0.min(b.0), a.1.max(b.1)),
        );
    let frame = (lo <= hi).then_some((lo, hi));
    match (acc, frame) {
        (Some(a), Some(b)) => Some((a.0.min(b.0), a.1.max(b.1))),
        (a, b) => a.or(b),
    }
}

/// Reusable buffers for finished pixels.
#[derive(Default)]
struct Finished {
    bytes: Vec<u8>,
    floats: Vec<f32>,
}

/// Turns a frame of samples into finished pixels, rows in parallel.
fn finish_frame<'a>(
    plan: &Plan,
    mapping: Option<Mapping>,
    frame: &[f64],
    out: &'a mut Finished,
) -> Result<Pixels<'a>, String> {
    let width = plan.width as usize;
    let px = frame.len() / plan.channels();
    let bytes_per = plan.pixel_bytes() as usize;
    let map = |v: f64| mapping.map_or(v, |m| m.apply(v));
    if let Content::Float = plan.content {
        resize(&mut out.floats, px)?;
        out.floats
            .par_chunks_mut(width)
            .zip(frame.par_chunks(width))
            .for_each(|(o, f)| {
                for (o, &v) in o.iter_mut().zip(f) {
                    *o = map(v) as f32;
                }
            });
        return Ok(Pixels::F32(&out.floats));
    }
    resize(&mut out.bytes, px * bytes_per)?;
    let rows = out
        .bytes
        .par_chunks_mut(width * bytes_per)
        .zip(frame.par_chunks(width * plan.channels()));
    let sixteen = plan.sixteen;
    match &plan.content {
        Content::Gray => rows.for_each(|(o, f)| {
            if sixteen {
                for (o, &v) in o.chunks_exact_mut(2).zip(f) {
                    o.copy_from_slice(&color::quantise16(map(v)).to_be_bytes());
                }
            } else {
                for (o, &v) in o.iter_mut().zip(f) {
                    *o = color::quantise8(map(v));
                }
            }
        }),
        // A GIF ramp stores the palette index; the palette holds the ramp.
        Content::Ramp(_) if plan.format == Format::Gif => rows.for_each(|(o, f)| {
            for (o, &v) in o.iter_mut().zip(f) {
                *o = color::quantise8(map(v));
            }
        }),
        Content::Ramp(ramp) => rows.for_each(|(o, f)| {
            if sixteen {
                for (o, &v) in o.chunks_exact_mut(6).zip(f) {
                    for (o, c) in o.chunks_exact_mut(2).zip(ramp.rgb16(map(v))) {
                        o.copy_from_slice(&c.to_be_bytes());
                    }
                }
            } else {
                for (o, &v) in o.chunks_exact_mut(3).zip(f) {
                    o.copy_from_slice(&ramp.rgb8(map(v)));
                }
            }
        }),
        Content::Normal(enc) => rows.for_each(|(o, f)| {
            let per = if sixteen { 6 } else { 3 };
            for (o, d) in o.chunks_exact_mut(per).zip(f.chunks_exact(2)) {
                let rgb = enc.rgb(d[0], d[1]);
                if sixteen {
                    for (o, c) in o.chunks_exact_mut(2).zip(rgb) {
                        o.copy_from_slice(&color::quantise16(c).to_be_bytes());
                    }
                } else {
                    for (o, c) in o.iter_mut().zip(rgb) {
                        *o = color::quantise8(c);
                    }
                }
            }
        }),
        Content::Float => unreachable!("handled above"),
    }
    let data = &out.bytes[..];
    Ok(match (&plan.content, plan.format) {
        (Content::Gray, _) | (Content::Ramp(_), Format::Gif) if !sixteen => Pixels::Gray8(data),
        (Content::Gray, _) => Pixels::Gray16(data),
        _ if sixteen => Pixels::Rgb16(data),
        _ => Pixels::Rgb8(data),
    })
}

/// Resizes a buffer, reporting failure to allocate instead of aborting.
fn resize<T: Clone + Default>(v: &mut Vec<T>, len: usize) -> Result<(), String> {
    if v.len() < len {
        v.try_reserve_exact(len - v.len())
            .map_err(|_| format!("out of memory allocating {len} pixels"))?;
    }
    v.resize(len, T::default());
    Ok(())
}

/// Opens the encoder for `plan` on `w`.
fn open_sink<'w, W: Write + std::io::Seek + 'w>(
    plan: &Plan,
    w: W,
) -> std::io::Result<Box<dyn Sink + 'w>> {
    let animation = plan.frames > 1 || plan.format == Format::Apng;
    match plan.format {
        Format::Png | Format::Apng => encode::png(
            w,
            plan.width,
            plan.height,
            PngLayout {
                rgb: !matches!(plan.content, Content::Gray),
                sixteen: plan.sixteen,
            },
            animation.then_some((plan.frames, plan.timing)),
        ),
        Format::Gif => {
            let palette: Vec<u8> = match &plan.content {
                Content::Ramp(r) => (0..=255)
                    .flat_map(|i| r.rgb8(f64::from(i) / 255.0))
                    .collect(),
                Content::Normal(_) => Vec::new(),
                _ => (0..=255u8).flat_map(|i| [i, i, i]).collect(),
            };
            // The caller checked both sides against Format::max_side.
            let side = |v: u32| u16::try_from(v).unwrap_or(u16::MAX);
            encode::gif(
                w,
                side(plan.width),
                side(plan.height),
                &palette,
                animation.then_some(plan.timing),
            )
        }
        Format::Tiff => {
            // Classic TIFF addresses 4 GiB; leave room for the directories.
            let data = plan.pixels() * 4 * u128::from(plan.frames);
            let big = data > (1u128 << 32) - (64 << 20);
            encode::tiff(w, plan.width, plan.height, big)
        }
        Format::Raw => Ok(encode::raw(w)),
    }
}

/// The x coordinate of each column, and a frame buffer.
fn buffers(plan: &Plan) -> Result<(Vec<f64>, Vec<f64>), Stop> {
    let xs: Vec<f64> = (0..u64::from(plan.width)).map(|i| plan.x.at(i)).collect();
    let mut frame = Vec::new();
    resize(
        &mut frame,
        plan.width as usize * plan.height as usize * plan.channels(),
    )?;
    Ok((xs, frame))
}

/// Renders every frame and encodes it to `file`, stopping at Ctrl-C.
pub(super) fn render(plan: &Plan, file: &std::fs::File, progress: &Progress) -> Result<(), Stop> {
    render_into(plan, Guarded(file), progress, &output::interrupted)
}

/// Renders every frame and encodes it to `out`, checking `stop` between
/// bands of rows and frames.
pub(super) fn render_into<W: Write + std::io::Seek>(
    plan: &Plan,
    out: W,
    progress: &Progress,
    stop: &dyn Fn() -> bool,
) -> Result<(), Stop> {
    let (xs, mut frame) = buffers(plan)?;
    let mut finished = Finished::default();
    let write_err = |e: std::io::Error| {
        if stop() {
            Stop::Interrupted
        } else {
            Stop::Failed(format!("writing {}: {e}", plan.output.display()))
        }
    };

    // An animation is stretched by the range of all its frames, which is
    // known only after rendering them all; rendering twice keeps memory at
    // one frame whatever the frame count.
    let mut measured = None;
    if plan.range == Range::Auto && plan.frames > 1 {
        for k in 0..plan.frames {
            render_frame(plan, &xs, k, &mut frame, progress, stop)?;
            measured = measure(&frame, measured);
        }
    }

    let mut w = BufWriter::with_capacity(1 << 20, out);
    let mut sink = open_sink(plan, &mut w).map_err(write_err)?;
    for k in 0..plan.frames {
        progress.rendering();
        render_frame(plan, &xs, k, &mut frame, progress, stop)?;
        if plan.range == Range::Auto && plan.frames == 1 {
            measured = measure(&frame, None);
        }
        if plan.range == Range::Auto && measured.is_none() {
            // Stretching nothing would draw every ±∞ as black or white.
            return Err(Stop::Failed(
                "--auto-range: no value of the image is finite (a division by zero?), so \
                 there is no range to stretch"
                    .into(),
            ));
        }
        let pixels = finish_frame(plan, plan.mapping(measured), &frame, &mut finished)?;
        progress.encoding();
        sink.frame(pixels).map_err(write_err)?;
        if stop() {
            return Err(Stop::Interrupted);
        }
    }
    sink.finish().map_err(write_err)?;
    w.flush().map_err(write_err)
}

/// The raw values of frame 0 (or its two pixel-space slopes per pixel for
/// a normal map), as the pixels are made from them.
#[cfg(feature = "serve")]
pub(super) fn values(plan: &Plan, stop: &dyn Fn() -> bool) -> Result<Vec<f64>, Stop> {
    let (xs, mut frame) = buffers(plan)?;
    render_frame(plan, &xs, 0, &mut frame, &Progress::new(0, true), stop)?;
    Ok(frame)
}
