//! The measurements of `surflet analyze` (and of the explorer's analysis
//! and the gallery's spectra): moments, histogram, the windowed 2D power
//! spectrum, its radial average and the anisotropy index. Pure functions of
//! a square slice of values, so that they can be checked on fields whose
//! answer is known.

use rayon::prelude::*;
use rustfft::FftPlanner;
use rustfft::num_complex::Complex;

#[cfg(feature = "plots")]
use super::color::{self, Mapping};
#[cfg(feature = "plots")]
use super::image::Image;

/// Angular sectors of the anisotropy index over the half-plane of
/// directions: 10° each, centred on the axes so that an axis-aligned
/// artefact lands in one sector rather than being split between two.
pub const SECTORS: usize = 18;

/// The share of the spectral energy (DC excluded) below the inner and the
/// outer radius of the annulus the anisotropy is measured over. The outer
/// edge goes out to 99.9% because lattice artefacts live in the weak side
/// lobes beyond the main band (a 90% edge hid most of value noise's); it
/// stops there so that the nearly empty bins far above, which hold only
/// rounding and window leakage, have no say.
pub const ANNULUS: (f64, f64) = (0.1, 0.999);

/// The Hann window's equivalent noise bandwidth in 2D, in bins: the
/// number of neighbouring bins one independent sample is spread over.
const HANN_BINS: f64 = 2.25;

/// Minimum, maximum, mean and (population) standard deviation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moments {
    pub min: f64,
    pub max: f64,
    pub mean: f64,
    pub std: f64,
}

/// The moments of `v`; the variance is the mean squared deviation from the
/// mean, computed in a second pass so it does not cancel catastrophically.
///
/// The sums are taken over fixed chunks and the chunks' sums added in
/// order, so they have the same bits however rayon splits the work: a
/// parallel fold and reduce groups the additions as work stealing falls.
/// The server's load test saw 3 of 438 answers to the same analysis
/// request differ under load; these were the only parallel reductions in
/// an analysis.
pub fn moments(v: &[f64]) -> Moments {
    const CHUNK: usize = 4096;
    let n = v.len() as f64;
    let parts: Vec<(f64, f64, f64)> = v
        .par_chunks(CHUNK)
        .map(|c| {
            c.iter().fold(
                (f64::INFINITY, f64::NEG_INFINITY, 0.0),
                |(lo, hi, s), &x| (lo.min(x), hi.max(x), s + x),
            )
        })
        .collect();
    let (min, max, sum) = parts
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY, 0.0), |a, b| {
            (a.0.min(b.0), a.1.max(b.1), a.2 + b.2)
        });
    let mean = sum / n;
    let squares: Vec<f64> = v
        .par_chunks(CHUNK)
        .map(|c| c.iter().map(|&x| (x - mean) * (x - mean)).sum::<f64>())
        .collect();
    let var = squares.iter().sum::<f64>() / n;
    // The sum's rounding can put the mean of a constant field a hair
    // outside [min, max]; clamping keeps min <= mean <= max true.
    Moments {
        min,
        max,
        mean: mean.clamp(min, max),
        std: var.sqrt(),
    }
}

/// A histogram of `bins` equal bins from `min` to `max` (the last bin
/// includes `max`); a constant field puts everything in one bin of width 0.
pub fn histogram(v: &[f64], m: &Moments, bins: usize) -> (Vec<f64>, Vec<u64>) {
    let width = (m.max - m.min) / bins as f64;
    let edges: Vec<f64> = (0..=bins)
        .map(|k| {
            if k == bins {
                m.max
            } else {
                m.min + width * k as f64
            }
        })
        .collect();
    let mut counts = vec![0u64; bins];
    for &x in v {
        let k = if width > 0.0 {
            (((x - m.min) / width) as usize).min(bins - 1)
        } else {
            0
        };
        counts[k] += 1;
    }
    (edges, counts)
}

/// The periodic Hann window of length `n`, `0.5 - 0.5 cos(2πi/n)`.
fn hann(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| 0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / n as f64).cos())
        .collect()
}

/// The power spectrum of an `n`×`n` field (row-major, x fastest) after
/// removing its mean and applying a separable 2D Hann window, in FFT order:
/// entry `l·n + k` is x-frequency index `k`, y-frequency index `l` (indices
/// above n/2 are negative frequencies). Normalised so that the entries sum
/// to the window-weighted variance of the field: `|F|² / (n² Σw²)`.
pub fn power_spectrum(v: &[f64], n: usize, mean: f64) -> Vec<f64> {
    let w = hann(n);
    let mut buf: Vec<Complex<f64>> = v
        .par_iter()
        .enumerate()
        .map(|(idx, &x)| Complex::new((x - mean) * w[idx % n] * w[idx / n], 0.0))
        .collect();
    let fft = FftPlanner::<f64>::new().plan_fft_forward(n);
    let rows = |buf: &mut [Complex<f64>]| {
        // Sixteen rows a task: enough work to outweigh the scratch buffer.
        buf.par_chunks_mut(n * 16).for_each(|chunk| {
            let mut scratch = vec![Complex::new(0.0, 0.0); fft.get_inplace_scratch_len()];
            fft.process_with_scratch(chunk, &mut scratch);
        });
    };
    rows(&mut buf);
    let mut t = transpose(&buf, n);
    rows(&mut t);
    let buf = transpose(&t, n);
    let w2: f64 = w.iter().map(|a| a * a).sum::<f64>().powi(2);
    let norm = (n * n) as f64 * w2;
    buf.par_iter().map(|c| c.norm_sqr() / norm).collect()
}

fn transpose(a: &[Complex<f64>], n: usize) -> Vec<Complex<f64>> {
    let mut t = vec![Complex::new(0.0, 0.0); n * n];
    t.par_chunks_mut(n).enumerate().for_each(|(j, row)| {
        for (i, x) in row.iter_mut().enumerate() {
            *x = a[i * n + j];
        }
    });
    t
}

/// The signed frequency index of FFT index `k` of `n`.
#[inline]
fn signed(k: usize, n: usize) -> f64 {
    if k <= n / 2 {
        k as f64
    } else {
        k as f64 - n as f64
    }
}

/// The power of the non-DC bins of `p` (an `n`×`n` spectrum of samples
/// `sx` and `sy` world units apart) outside the square `|fx|, |fy| < f`,
/// and the sum of all its non-DC bins: what sampling at `1/(2f)` would fold
/// back (alias), and the whole.
pub fn power_outside(p: &[f64], n: usize, sx: f64, sy: f64, f: f64) -> (f64, f64) {
    let (fx_step, fy_step) = (1.0 / (n as f64 * sx), 1.0 / (n as f64 * sy));
    let (mut outside, mut total) = (0.0, 0.0);
    for l in 0..n {
        let fy = signed(l, n) * fy_step;
        for k in 0..n {
            if k == 0 && l == 0 {
                continue;
            }
            let fx = signed(k, n) * fx_step;
            let q = p[l * n + k];
            total += q;
            if fx.abs() >= f || fy.abs() >= f {
                outside += q;
            }
        }
    }
    (outside, total)
}

/// The radial average, centroid, peak and anisotropy of a power spectrum.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The centre of each radial bin, in cycles per world unit.
    pub frequency: Vec<f64>,
    /// The mean power of the bins whose radius rounds to each centre.
    pub power: Vec<f64>,
    /// Power-weighted mean radius, in cycles per world unit.
    pub centroid: f64,
    /// The radial bin of greatest mean power, in cycles per world unit.
    pub peak: f64,
    /// The anisotropy index (see the module docs of `analyze`).
    pub anisotropy: f64,
    /// The anisotropy that sampling alone gives an isotropic field with
    /// the same bins: a reading near it is no evidence of anisotropy.
    pub floor: f64,
    /// The inner and outer radius of the annulus it was measured over.
    pub annulus: (f64, f64),
    /// Each sector's mean relative power (mean 1 over the sectors), the
    /// first centred on the x direction of the slice, counterclockwise.
    pub sectors: Vec<f64>,
    /// The bins of the annulus in each sector.
    pub sector_bins: Vec<u64>,
}

/// Analyses the power spectrum `p` of an `n`×`n` slice whose pixels are
/// `sx` and `sy` world units apart.
pub fn analyse(p: &[f64], n: usize, sx: f64, sy: f64) -> Analysis {
    // Radial bins as wide as the coarser axis's frequency step, up to the
    // lower of the two Nyquist frequencies: every bin then holds samples.
    let (fx_step, fy_step) = (1.0 / (n as f64 * sx), 1.0 / (n as f64 * sy));
    let df = fx_step.max(fy_step);
    let nyquist = (0.5 / sx).min(0.5 / sy);
    let bins = (nyquist / df + 1e-9).floor() as usize;

    // Every non-DC frequency inside the Nyquist disc, of the half-plane
    // (the spectrum of a real field is symmetric, so the other half only
    // repeats it): (radius, angle in [0, π), bin, power).
    let mut points = Vec::with_capacity(n * n / 2);
    for l in 0..n {
        let fy = signed(l, n) * fy_step;
        for k in 0..n {
            let fx = signed(k, n) * fx_step;
            let upper = fy > 0.0 || (fy == 0.0 && fx > 0.0);
            if !upper {
                continue;
            }
            let r = fx.hypot(fy);
            let b = (r / df).round() as usize;
            if b == 0 || b > bins {
                continue;
            }
            let theta = fy.atan2(fx).rem_euclid(std::f64::consts::PI);
            points.push((r, theta, b, p[l * n + k]));
        }
    }

    let mut sum = vec![0.0; bins + 1];
    let mut count = vec![0u64; bins + 1];
    for &(_, _, b, q) in &points {
        sum[b] += q;
        count[b] += 1;
    }
    let radial: Vec<f64> = (0..=bins)
        .map(|b| {
            if count[b] > 0 {
                sum[b] / count[b] as f64
            } else {
                0.0
            }
        })
        .collect();
    let total: f64 = points.iter().map(|pt| pt.3).sum();
    let centroid = if total > 0.0 {
        points.iter().map(|pt| pt.0 * pt.3).sum::<f64>() / total
    } else {
        0.0
    };
    let peak_bin = (1..=bins)
        .max_by(|&a, &b| radial[a].total_cmp(&radial[b]))
        .unwrap_or(1);

    // The annulus: the radii between which the middle of the energy lies.
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut lo, mut hi) = (0.0, 0.0);
    let mut acc = 0.0;
    for pt in &points {
        let before = acc;
        acc += pt.3;
        if before < ANNULUS.0 * total && acc >= ANNULUS.0 * total {
            lo = pt.0;
        }
        if before < ANNULUS.1 * total && acc >= ANNULUS.1 * total {
            hi = pt.0;
        }
    }
    // Each bin's power relative to the radial mean at its radius, so that
    // the spectrum's fall with frequency weighs every sector the same.
    let width = std::f64::consts::PI / SECTORS as f64;
    let mut s_sum = [0.0; SECTORS];
    let mut s_sq = [0.0; SECTORS];
    let mut s_count = vec![0u64; SECTORS];
    for &(r, theta, b, q) in &points {
        if r < lo || r > hi || radial[b] <= 0.0 {
            continue;
        }
        let s = ((theta / width + 0.5).floor() as usize) % SECTORS;
        s_sum[s] += q / radial[b];
        s_sq[s] += (q / radial[b]).powi(2);
        s_count[s] += 1;
    }
    let means: Vec<f64> = s_sum
        .iter()
        .zip(&s_count)
        .map(|(&s, &c)| if c > 0 { s / c as f64 } else { 0.0 })
        .collect();
    let m = means.iter().sum::<f64>() / SECTORS as f64;
    let (anisotropy, sectors, floor) = if m > 0.0 {
        let var = means.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / SECTORS as f64;
        // The variance a sector's mean has from sampling alone: the spread
        // of its bins over their number, which the Hann window's equivalent
        // noise bandwidth (1.5 bins an axis, 2.25 in 2D) divides into
        // fewer independent samples.
        let sampling = (0..SECTORS)
            .filter(|&s| s_count[s] > 1)
            .map(|s| {
                let c = s_count[s] as f64;
                let within = (s_sq[s] / c - means[s] * means[s]).max(0.0);
                HANN_BINS * within / c
            })
            .sum::<f64>()
            / SECTORS as f64;
        (
            var.sqrt() / m,
            means.iter().map(|x| x / m).collect(),
            sampling.sqrt() / m,
        )
    } else {
        (0.0, vec![0.0; SECTORS], 0.0)
    };

    Analysis {
        frequency: (1..=bins).map(|b| b as f64 * df).collect(),
        power: radial[1..].to_vec(),
        centroid,
        peak: peak_bin as f64 * df,
        anisotropy,
        floor,
        annulus: (lo, hi),
        sectors,
        sector_bins: s_count,
    }
}

/// Decades of the 2D power spectrum image below its largest non-DC bin.
#[cfg(feature = "plots")]
const DECADES: f64 = 6.0;

/// The power spectrum of `value` sampled on an `n`×`n` panel `f` lattice
/// units across (pixel `(i, j)` at `(i·f/n, j·f/n)`, as the gallery's
/// panels), and its anisotropy index: what `analyze` measures, for the
/// gallery's spectra figure.
#[cfg(feature = "plots")]
pub fn spectrum_of(n: usize, f: f64, value: impl Fn(f64, f64) -> f64 + Sync) -> (Vec<f64>, f64) {
    let coord = |i: usize| (i as f64 * f) / n as f64;
    let values: Vec<f64> = (0..n * n)
        .into_par_iter()
        .map(|k| value(coord(k % n), coord(k / n)))
        .collect();
    let m = moments(&values);
    let power = power_spectrum(&values, n, m.mean);
    let step = f / n as f64;
    let a = analyse(&power, n, step, step);
    (power, a.anisotropy)
}

/// The 2D power spectrum `p` of an `n`×`n` slice as grey, log10 power over
/// [max - 6, max], with the DC bin moved to pixel (n/2, n/2): `analyze`'s
/// `spectrum2d.png` and the gallery's spectra.
#[cfg(feature = "plots")]
pub fn power_spectrum_image(p: &[f64], n: usize) -> Image {
    let top = p
        .iter()
        .skip(1)
        .fold(f64::MIN_POSITIVE, |a, &b| a.max(b))
        .log10();
    let map = Mapping {
        lo: top - DECADES,
        hi: top,
    };
    let mut data = vec![0u8; n * n];
    for (j, row) in data.chunks_exact_mut(n).enumerate() {
        let l = (j + n - n / 2) % n;
        for (i, px) in row.iter_mut().enumerate() {
            let k = (i + n - n / 2) % n;
            let q = p[l * n + k];
            *px = if q > 0.0 {
                color::quantise8(map.apply(q.log10()))
            } else {
                0
            };
        }
    }
    Image {
        width: n as u32,
        height: n as u32,
        rgb: false,
        data,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// splitmix64, for a reproducible white-noise field.
    fn white(n: usize, seed: u64) -> Vec<f64> {
        let mut s = seed;
        (0..n * n)
            .map(|_| {
                s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = s;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^= z >> 31;
                (z >> 11) as f64 / (1u64 << 53) as f64 - 0.5
            })
            .collect()
    }

    #[test]
    fn moments_and_histogram() {
        let v = [1.0, 2.0, 3.0, 4.0];
        let m = moments(&v);
        assert_eq!((m.min, m.max, m.mean), (1.0, 4.0, 2.5));
        assert!((m.std - 1.25f64.sqrt()).abs() < 1e-15);
        let (edges, counts) = histogram(&v, &m, 3);
        assert_eq!(edges, [1.0, 2.0, 3.0, 4.0]);
        assert_eq!(counts, [1, 1, 2]);
        let flat = moments(&[0.5; 5]);
        assert_eq!(histogram(&[0.5; 5], &flat, 4).1, [5, 0, 0, 0]);
    }

    #[test]
    fn a_sinusoid_peaks_at_its_frequency_and_is_anisotropic() {
        let n = 128;
        let s = 1.0 / 16.0;
        // 3 cycles per world unit along x: 3/(1/(n s)) = bin 24.
        let v: Vec<f64> = (0..n * n)
            .map(|idx| (2.0 * std::f64::consts::PI * 3.0 * (idx % n) as f64 * s).sin())
            .collect();
        let p = power_spectrum(&v, n, 0.0);
        // The windowed variance of a unit sinusoid is 1/2.
        let total: f64 = p.iter().sum();
        assert!((total - 0.5).abs() < 1e-3, "{total}");
        let a = analyse(&p, n, s, s);
        assert!((a.peak - 3.0).abs() < 1e-12, "{}", a.peak);
        assert!((a.centroid - 3.0).abs() < 0.05, "{}", a.centroid);
        assert!(a.anisotropy > 3.0, "{}", a.anisotropy);
        assert!(a.sectors[0] > 10.0, "{:?}", a.sectors);
    }

    #[test]
    fn white_noise_is_flat_and_isotropic() {
        let n = 256;
        let v = white(n, 7);
        let m = moments(&v);
        let p = power_spectrum(&v, n, m.mean);
        let a = analyse(&p, n, 1.0, 1.0);
        // Flat: the radial mean is the same at low and high frequencies.
        let q = a.power.len() / 4;
        let low: f64 = a.power[q..2 * q].iter().sum();
        let high: f64 = a.power[2 * q..3 * q].iter().sum();
        assert!((low / high - 1.0).abs() < 0.1, "{low} {high}");
        // About 1/sqrt(bins per sector) from sampling alone.
        assert!(a.anisotropy < 0.1, "{}", a.anisotropy);
    }
}
