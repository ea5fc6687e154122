//! Prototype inner loops for "Speed I": which arithmetic the kernels should
//! freeze. Each prototype computes a real noise (quintic fade, surflet's
//! gradient sets and lattice values, a real hash), written straight in AVX2
//! intrinsics, so that its time and instruction count are those of the inner
//! loop and nothing else. The outputs are summed and printed so that nothing
//! is optimised away; the prototypes are not bit-compatible with surflet.
//!
//! ```sh
//! cargo run --release                       # times, best of 15, one thread
//! P=target/release/surflet-proto
//! valgrind --tool=callgrind --toggle-collect='*proto_*' $P value2-ylast-fma
//! ```
//!
//! With a name, one prototype runs 3 times on its workload, for callgrind
//! (instructions per sample = collected instructions / 3 / samples).
//!
//! The workloads are surflet's benchmark's: 2D 1024² and 3D 128³ grids,
//! spacing 0.03 (plain) or 1/64 (the fBm workloads' first octave).
#![allow(clippy::missing_safety_doc, unsafe_op_in_unsafe_fn)]

use std::arch::x86_64::*;
use std::hint::black_box;
use std::time::Instant;

const P0: u32 = 0x9E37_79B1;
const P1: u32 = 0x85EB_CA77;
const P2: u32 = 0xC2B2_AE3D;
const KEY: u32 = 0x3C6E_F372;

// ---------------------------------------------------------------------------
// Lane helpers (AVX2, 8 × f32)

#[inline(always)]
unsafe fn splat(v: f32) -> __m256 {
    _mm256_set1_ps(v)
}
#[inline(always)]
unsafe fn usplat(v: u32) -> __m256i {
    _mm256_set1_epi32(v as i32)
}
/// `a·b + c`, fused or as a multiply then an add.
#[inline(always)]
unsafe fn madd<const FMA: bool>(a: __m256, b: __m256, c: __m256) -> __m256 {
    if FMA {
        _mm256_fmadd_ps(a, b, c)
    } else {
        _mm256_add_ps(_mm256_mul_ps(a, b), c)
    }
}
/// `a + u·(b − a)`.
#[inline(always)]
unsafe fn lerp<const FMA: bool>(u: __m256, a: __m256, b: __m256) -> __m256 {
    madd::<FMA>(u, _mm256_sub_ps(b, a), a)
}
#[inline(always)]
unsafe fn xorshr<const N: i32>(h: __m256i) -> __m256i {
    _mm256_xor_si256(h, _mm256_srli_epi32::<N>(h))
}
/// The corner-hash finaliser: today's `lowbias32` (two multiplies, three
/// xor-shifts) or the candidate (one multiply, one xor-shift).
#[inline(always)]
unsafe fn finish<const CHEAP: bool>(h: __m256i) -> __m256i {
    if CHEAP {
        xorshr::<16>(_mm256_mullo_epi32(h, usplat(0x846C_A68B)))
    } else {
        let h = xorshr::<16>(h);
        let h = _mm256_mullo_epi32(h, usplat(0x7FEB_352D));
        let h = xorshr::<15>(h);
        let h = _mm256_mullo_epi32(h, usplat(0x846C_A68B));
        xorshr::<16>(h)
    }
}
/// surflet's lattice value: the top 24 bits, odd multiples of 2⁻²⁴.
#[inline(always)]
unsafe fn value(h: __m256i) -> __m256 {
    let k = _mm256_slli_epi32::<1>(_mm256_srli_epi32::<8>(h));
    let odd = _mm256_sub_epi32(k, usplat((1 << 24) - 1));
    _mm256_mul_ps(_mm256_cvtepi32_ps(odd), splat(1.0 / 16_777_216.0))
}
/// Negates `v` where bit `B` of `h` is set.
#[inline(always)]
unsafe fn flip<const B: i32>(h: __m256i, v: __m256) -> __m256 {
    let sign = _mm256_and_si256(
        _mm256_sll_epi32(h, _mm_cvtsi32_si128(31 - B)),
        usplat(0x8000_0000),
    );
    _mm256_xor_ps(v, _mm256_castsi256_ps(sign))
}
#[inline(always)]
unsafe fn bitmask<const B: i32>(h: __m256i) -> __m256 {
    _mm256_castsi256_ps(_mm256_srai_epi32::<31>(_mm256_sll_epi32(
        h,
        _mm_cvtsi32_si128(31 - B),
    )))
}
/// surflet's 2D gradient set (8 directions) with selects and sign bits.
#[inline(always)]
unsafe fn grad2(h: __m256i) -> (__m256, __m256) {
    let diagonal = bitmask::<31>(h);
    let b29 = bitmask::<29>(h);
    let one = splat(1.0);
    let d = splat(std::f32::consts::FRAC_1_SQRT_2);
    let gx = _mm256_blendv_ps(
        flip::<30>(h, _mm256_andnot_ps(b29, one)),
        flip::<29>(h, d),
        diagonal,
    );
    let gy = flip::<30>(h, _mm256_blendv_ps(_mm256_and_ps(b29, one), d, diagonal));
    (gx, gy)
}
/// Perlin's 12 edge gradients in 3D, chosen by `floor(3·top24/2²⁴)`.
#[inline(always)]
unsafe fn grad3(h: __m256i) -> (__m256, __m256, __m256) {
    let top = _mm256_srli_epi32::<8>(h);
    let zero = _mm256_srli_epi32::<24>(_mm256_add_epi32(_mm256_add_epi32(top, top), top));
    let one = splat(1.0);
    let is = |k: u32| _mm256_castsi256_ps(_mm256_cmpeq_epi32(zero, usplat(k)));
    (
        flip::<8>(h, _mm256_andnot_ps(is(0), one)),
        flip::<9>(h, _mm256_andnot_ps(is(1), one)),
        flip::<10>(h, _mm256_andnot_ps(is(2), one)),
    )
}

// ---------------------------------------------------------------------------
// Per-axis tables: the cell, the fraction and the fade of every sample.

struct Axis {
    cell: Vec<i32>,
    frac: Vec<f32>,
    fade: Vec<f32>,
}

fn axis(n: usize, step: f64) -> Axis {
    let mut a = Axis {
        cell: vec![],
        frac: vec![],
        fade: vec![],
    };
    for i in 0..n {
        let x = (0.01 + i as f64 * step) as f32;
        let c = x.floor();
        let t = x - c;
        a.cell.push(c as i32);
        a.frac.push(t);
        a.fade.push(t * t * t * (t * (t * 6.0 - 15.0) + 10.0));
    }
    a
}

/// The runs of equal cells: (cell, first sample, end).
fn runs(a: &Axis) -> Vec<(i32, usize, usize)> {
    let mut r: Vec<(i32, usize, usize)> = vec![];
    for (i, &c) in a.cell.iter().enumerate() {
        match r.last_mut() {
            Some(last) if last.0 == c => last.2 = i + 1,
            _ => r.push((c, i, i + 1)),
        }
    }
    r
}

// ---------------------------------------------------------------------------
// 2D value and Perlin grids, x last: today's column form. Per row, the
// corners at each x lattice position are blended along y into a column;
// every sample then picks its two columns (a permute each from a window of
// 8) and blends along x.

#[target_feature(enable = "avx2,fma")]
unsafe fn proto_value2_xlast<const FMA: bool, const CHEAP: bool>(
    x: &Axis,
    y: &Axis,
    out: &mut [f32],
) {
    let w = x.cell.len();
    let c0 = x.cell[0];
    let ncol = (x.cell[w - 1] - c0 + 2) as usize;
    let mut col = vec![0f32; ncol.div_ceil(8) * 8 + 8];
    let iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    let key = usplat(KEY);
    for j in 0..y.cell.len() {
        let yl = usplat(y.cell[j] as u32 * P1);
        let yh = usplat((y.cell[j] + 1) as u32 * P1);
        let uy = splat(y.fade[j]);
        let mut k = 0;
        while k < ncol {
            let cx = _mm256_add_epi32(usplat((c0 + k as i32) as u32), iota);
            let hx = _mm256_xor_si256(_mm256_mullo_epi32(cx, usplat(P0)), key);
            let v0 = value(finish::<CHEAP>(_mm256_xor_si256(hx, yl)));
            let v1 = value(finish::<CHEAP>(_mm256_xor_si256(hx, yh)));
            _mm256_storeu_ps(col.as_mut_ptr().add(k), lerp::<FMA>(uy, v0, v1));
            k += 8;
        }
        let row = &mut out[j * w..(j + 1) * w];
        let mut i = 0;
        while i < w {
            let base = x.cell[i] - c0;
            let local = _mm256_sub_epi32(
                _mm256_loadu_si256(x.cell.as_ptr().add(i) as *const _),
                usplat((base + c0) as u32),
            );
            let win = _mm256_loadu_ps(col.as_ptr().add(base as usize));
            let a0 = _mm256_permutevar8x32_ps(win, local);
            let a1 = _mm256_permutevar8x32_ps(win, _mm256_add_epi32(local, usplat(1)));
            let ux = _mm256_loadu_ps(x.fade.as_ptr().add(i));
            _mm256_storeu_ps(row.as_mut_ptr().add(i), lerp::<FMA>(ux, a0, a1));
            i += 8;
        }
    }
}

#[target_feature(enable = "avx2,fma")]
unsafe fn proto_perlin2_xlast<const FMA: bool, const CHEAP: bool>(
    x: &Axis,
    y: &Axis,
    out: &mut [f32],
) {
    let w = x.cell.len();
    let c0 = x.cell[0];
    let ncol = (x.cell[w - 1] - c0 + 2) as usize;
    let mut ca = vec![0f32; ncol.div_ceil(8) * 8 + 8];
    let mut cb = ca.clone();
    let iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    let key = usplat(KEY);
    let one = splat(1.0);
    let scale = splat(std::f32::consts::SQRT_2);
    for j in 0..y.cell.len() {
        let yl = usplat(y.cell[j] as u32 * P1);
        let yh = usplat((y.cell[j] + 1) as u32 * P1);
        let uy = splat(y.fade[j]);
        let fy = splat(y.frac[j]);
        let fy1 = _mm256_sub_ps(fy, one);
        let mut k = 0;
        while k < ncol {
            let cx = _mm256_add_epi32(usplat((c0 + k as i32) as u32), iota);
            let hx = _mm256_xor_si256(_mm256_mullo_epi32(cx, usplat(P0)), key);
            let (gx0, gy0) = grad2(finish::<CHEAP>(_mm256_xor_si256(hx, yl)));
            let (gx1, gy1) = grad2(finish::<CHEAP>(_mm256_xor_si256(hx, yh)));
            let a = lerp::<FMA>(uy, _mm256_mul_ps(gy0, fy), _mm256_mul_ps(gy1, fy1));
            let b = lerp::<FMA>(uy, gx0, gx1);
            _mm256_storeu_ps(ca.as_mut_ptr().add(k), a);
            _mm256_storeu_ps(cb.as_mut_ptr().add(k), b);
            k += 8;
        }
        let row = &mut out[j * w..(j + 1) * w];
        let mut i = 0;
        while i < w {
            let base = x.cell[i] - c0;
            let local = _mm256_sub_epi32(
                _mm256_loadu_si256(x.cell.as_ptr().add(i) as *const _),
                usplat((base + c0) as u32),
            );
            let next = _mm256_add_epi32(local, usplat(1));
            let wa = _mm256_loadu_ps(ca.as_ptr().add(base as usize));
            let wb = _mm256_loadu_ps(cb.as_ptr().add(base as usize));
            let fx = _mm256_loadu_ps(x.frac.as_ptr().add(i));
            let ux = _mm256_loadu_ps(x.fade.as_ptr().add(i));
            let t0 = madd::<FMA>(
                _mm256_permutevar8x32_ps(wb, local),
                fx,
                _mm256_permutevar8x32_ps(wa, local),
            );
            let t1 = madd::<FMA>(
                _mm256_permutevar8x32_ps(wb, next),
                _mm256_sub_ps(fx, one),
                _mm256_permutevar8x32_ps(wa, next),
            );
            _mm256_storeu_ps(
                row.as_mut_ptr().add(i),
                _mm256_mul_ps(lerp::<FMA>(ux, t0, t1), scale),
            );
            i += 8;
        }
    }
}

// ---------------------------------------------------------------------------
// 2D value and Perlin grids, y last (quick-noise's association). A block of
// B vectors along x keeps, for the current y cell, the corners blended
// along x on its two lattice rows, in registers; each sample of the cell's
// rows is then one step along y.

const B: usize = 4;

#[target_feature(enable = "avx2,fma")]
unsafe fn proto_value2_ylast<const FMA: bool, const CHEAP: bool>(
    x: &Axis,
    y: &Axis,
    out: &mut [f32],
) {
    let w = x.cell.len();
    let key = usplat(KEY);
    let yruns = runs(y);
    let mut i = 0;
    while i < w {
        let mut hx0 = [_mm256_setzero_si256(); B];
        let mut hx1 = hx0;
        let mut ux = [_mm256_setzero_ps(); B];
        for b in 0..B {
            let cx = _mm256_loadu_si256(x.cell.as_ptr().add(i + 8 * b) as *const _);
            hx0[b] = _mm256_xor_si256(_mm256_mullo_epi32(cx, usplat(P0)), key);
            hx1[b] = _mm256_xor_si256(
                _mm256_mullo_epi32(_mm256_add_epi32(cx, usplat(1)), usplat(P0)),
                key,
            );
            ux[b] = _mm256_loadu_ps(x.fade.as_ptr().add(i + 8 * b));
        }
        let row_x = |hy: __m256i, b: usize| {
            let v0 = value(finish::<CHEAP>(_mm256_xor_si256(hx0[b], hy)));
            let v1 = value(finish::<CHEAP>(_mm256_xor_si256(hx1[b], hy)));
            lerp::<FMA>(ux[b], v0, v1)
        };
        let mut lo = [_mm256_setzero_ps(); B];
        let mut prev_cell = i32::MIN;
        for &(cy, start, end) in &yruns {
            let hl = usplat(cy as u32 * P1);
            let hh = usplat((cy + 1) as u32 * P1);
            let mut d = [_mm256_setzero_ps(); B];
            let mut hi = [_mm256_setzero_ps(); B];
            for b in 0..B {
                if cy != prev_cell.wrapping_add(1) {
                    lo[b] = row_x(hl, b);
                }
                hi[b] = row_x(hh, b);
                d[b] = _mm256_sub_ps(hi[b], lo[b]);
            }
            for r in start..end {
                let uy = splat(y.fade[r]);
                let dst = out.as_mut_ptr().add(r * w + i);
                for b in 0..B {
                    _mm256_storeu_ps(dst.add(8 * b), madd::<FMA>(uy, d[b], lo[b]));
                }
            }
            lo = hi; // the upper row is the next cell's lower row
            prev_cell = cy;
        }
        i += 8 * B;
    }
}

#[target_feature(enable = "avx2,fma")]
unsafe fn proto_perlin2_ylast<const FMA: bool, const CHEAP: bool>(
    x: &Axis,
    y: &Axis,
    out: &mut [f32],
) {
    let w = x.cell.len();
    let key = usplat(KEY);
    let one = splat(1.0);
    let scale = splat(std::f32::consts::SQRT_2);
    let yruns = runs(y);
    let mut i = 0;
    while i < w {
        let mut hx0 = [_mm256_setzero_si256(); B];
        let mut hx1 = hx0;
        let mut ux = [_mm256_setzero_ps(); B];
        let mut fx = ux;
        for b in 0..B {
            let cx = _mm256_loadu_si256(x.cell.as_ptr().add(i + 8 * b) as *const _);
            hx0[b] = _mm256_xor_si256(_mm256_mullo_epi32(cx, usplat(P0)), key);
            hx1[b] = _mm256_xor_si256(
                _mm256_mullo_epi32(_mm256_add_epi32(cx, usplat(1)), usplat(P0)),
                key,
            );
            ux[b] = _mm256_loadu_ps(x.fade.as_ptr().add(i + 8 * b));
            fx[b] = _mm256_loadu_ps(x.frac.as_ptr().add(i + 8 * b));
        }
        // A lattice row's corners blended along x: `A + B·dy`.
        let row_x = |hy: __m256i, b: usize| {
            let (gx0, gy0) = grad2(finish::<CHEAP>(_mm256_xor_si256(hx0[b], hy)));
            let (gx1, gy1) = grad2(finish::<CHEAP>(_mm256_xor_si256(hx1[b], hy)));
            let a = lerp::<FMA>(
                ux[b],
                _mm256_mul_ps(gx0, fx[b]),
                _mm256_mul_ps(gx1, _mm256_sub_ps(fx[b], one)),
            );
            (a, lerp::<FMA>(ux[b], gy0, gy1))
        };
        let mut lo = [(_mm256_setzero_ps(), _mm256_setzero_ps()); B];
        let mut hi = lo;
        let mut prev_cell = i32::MIN;
        for &(cy, start, end) in &yruns {
            let hl = usplat(cy as u32 * P1);
            let hh = usplat((cy + 1) as u32 * P1);
            for b in 0..B {
                lo[b] = if cy == prev_cell.wrapping_add(1) {
                    hi[b]
                } else {
                    row_x(hl, b)
                };
                hi[b] = row_x(hh, b);
            }
            prev_cell = cy;
            for r in start..end {
                let uy = splat(y.fade[r]);
                let fy = splat(y.frac[r]);
                let fy1 = splat(y.frac[r] - 1.0);
                let dst = out.as_mut_ptr().add(r * w + i);
                for b in 0..B {
                    let t0 = madd::<FMA>(lo[b].1, fy, lo[b].0);
                    let t1 = madd::<FMA>(hi[b].1, fy1, hi[b].0);
                    _mm256_storeu_ps(
                        dst.add(8 * b),
                        _mm256_mul_ps(lerp::<FMA>(uy, t0, t1), scale),
                    );
                }
            }
        }
        i += 8 * B;
    }
}

// The same y-last rows in band order: one y cell's rows across the whole
// width at a time (a band of about 33 or 64 rows of 4 KB, which stays in
// the L2 cache while it is written), each x vector's upper lattice row kept
// in a buffer for the next band.

#[target_feature(enable = "avx2,fma")]
unsafe fn proto_value2_band<const FMA: bool, const CHEAP: bool>(
    x: &Axis,
    y: &Axis,
    out: &mut [f32],
) {
    let w = x.cell.len();
    let key = usplat(KEY);
    let mut keep = vec![_mm256_setzero_ps(); w / 8];
    let mut lo = keep.clone();
    let mut d = keep.clone();
    let mut prev_cell = i32::MIN;
    for &(cy, start, end) in &runs(y) {
        let hl = usplat(cy as u32 * P1);
        let hh = usplat((cy + 1) as u32 * P1);
        let reuse = cy == prev_cell.wrapping_add(1);
        for v in 0..w / 8 {
            let i = 8 * v;
            let cx = _mm256_loadu_si256(x.cell.as_ptr().add(i) as *const _);
            let hx0 = _mm256_xor_si256(_mm256_mullo_epi32(cx, usplat(P0)), key);
            let hx1 = _mm256_xor_si256(
                _mm256_mullo_epi32(_mm256_add_epi32(cx, usplat(1)), usplat(P0)),
                key,
            );
            let ux = _mm256_loadu_ps(x.fade.as_ptr().add(i));
            let row_x = |hy: __m256i| {
                let v0 = value(finish::<CHEAP>(_mm256_xor_si256(hx0, hy)));
                let v1 = value(finish::<CHEAP>(_mm256_xor_si256(hx1, hy)));
                lerp::<FMA>(ux, v0, v1)
            };
            lo[v] = if reuse { keep[v] } else { row_x(hl) };
            let hi = row_x(hh);
            keep[v] = hi;
            d[v] = _mm256_sub_ps(hi, lo[v]);
        }
        for r in start..end {
            let uy = splat(y.fade[r]);
            let dst = out.as_mut_ptr().add(r * w);
            for v in 0..w / 8 {
                _mm256_storeu_ps(dst.add(8 * v), madd::<FMA>(uy, d[v], lo[v]));
            }
        }
        prev_cell = cy;
    }
}

#[target_feature(enable = "avx2,fma")]
unsafe fn proto_perlin2_band<const FMA: bool, const CHEAP: bool>(
    x: &Axis,
    y: &Axis,
    out: &mut [f32],
) {
    let w = x.cell.len();
    let key = usplat(KEY);
    let one = splat(1.0);
    let scale = splat(std::f32::consts::SQRT_2);
    let zero = (_mm256_setzero_ps(), _mm256_setzero_ps());
    let mut keep = vec![zero; w / 8];
    let mut lo = keep.clone();
    let mut prev_cell = i32::MIN;
    for &(cy, start, end) in &runs(y) {
        let hl = usplat(cy as u32 * P1);
        let hh = usplat((cy + 1) as u32 * P1);
        let reuse = cy == prev_cell.wrapping_add(1);
        for v in 0..w / 8 {
            let i = 8 * v;
            let cx = _mm256_loadu_si256(x.cell.as_ptr().add(i) as *const _);
            let hx0 = _mm256_xor_si256(_mm256_mullo_epi32(cx, usplat(P0)), key);
            let hx1 = _mm256_xor_si256(
                _mm256_mullo_epi32(_mm256_add_epi32(cx, usplat(1)), usplat(P0)),
                key,
            );
            let ux = _mm256_loadu_ps(x.fade.as_ptr().add(i));
            let fx = _mm256_loadu_ps(x.frac.as_ptr().add(i));
            let row_x = |hy: __m256i| {
                let (gx0, gy0) = grad2(finish::<CHEAP>(_mm256_xor_si256(hx0, hy)));
                let (gx1, gy1) = grad2(finish::<CHEAP>(_mm256_xor_si256(hx1, hy)));
                let a = lerp::<FMA>(
                    ux,
                    _mm256_mul_ps(gx0, fx),
                    _mm256_mul_ps(gx1, _mm256_sub_ps(fx, one)),
                );
                (a, lerp::<FMA>(ux, gy0, gy1))
            };
            lo[v] = if reuse { keep[v] } else { row_x(hl) };
            keep[v] = row_x(hh);
        }
        for r in start..end {
            let fy = splat(y.frac[r]);
            let fy1 = splat(y.frac[r] - 1.0);
            let uy = splat(y.fade[r]);
            let dst = out.as_mut_ptr().add(r * w);
            for v in 0..w / 8 {
                let (lo, hi) = (lo[v], keep[v]);
                let t0 = madd::<FMA>(lo.1, fy, lo.0);
                let t1 = madd::<FMA>(hi.1, fy1, hi.0);
                _mm256_storeu_ps(
                    dst.add(8 * v),
                    _mm256_mul_ps(lerp::<FMA>(uy, t0, t1), scale),
                );
            }
        }
        prev_cell = cy;
    }
}

// ---------------------------------------------------------------------------
// 3D Perlin grid, y last: per block of x vectors and per z sample, the four
// corners of each lattice row (x and z sides) blended over x and z into
// `A + B·dy`, then one step along y per sample.

#[target_feature(enable = "avx2,fma")]
unsafe fn proto_perlin3_ylast<const FMA: bool, const CHEAP: bool>(
    x: &Axis,
    y: &Axis,
    z: &Axis,
    out: &mut [f32],
) {
    let w = x.cell.len();
    let h = y.cell.len();
    let key = usplat(KEY);
    let one = splat(1.0);
    let scale = splat(0.964_921_4);
    let yruns = runs(y);
    for k in 0..z.cell.len() {
        let hz0 = usplat(z.cell[k] as u32 * P2);
        let hz1 = usplat((z.cell[k] + 1) as u32 * P2);
        let uz = splat(z.fade[k]);
        let fz = splat(z.frac[k]);
        let fz1 = splat(z.frac[k] - 1.0);
        let mut i = 0;
        while i < w {
            let mut hx0 = [_mm256_setzero_si256(); B];
            let mut hx1 = hx0;
            let mut ux = [_mm256_setzero_ps(); B];
            let mut fx = ux;
            for b in 0..B {
                let cx = _mm256_loadu_si256(x.cell.as_ptr().add(i + 8 * b) as *const _);
                hx0[b] = _mm256_xor_si256(_mm256_mullo_epi32(cx, usplat(P0)), key);
                hx1[b] = _mm256_xor_si256(
                    _mm256_mullo_epi32(_mm256_add_epi32(cx, usplat(1)), usplat(P0)),
                    key,
                );
                ux[b] = _mm256_loadu_ps(x.fade.as_ptr().add(i + 8 * b));
                fx[b] = _mm256_loadu_ps(x.frac.as_ptr().add(i + 8 * b));
            }
            let row_xz = |hy: __m256i, b: usize| {
                let corner = |hx: __m256i, hz: __m256i, dx: __m256, dz: __m256| {
                    let (gx, gy, gz) = grad3(finish::<CHEAP>(_mm256_xor_si256(
                        _mm256_xor_si256(hx, hz),
                        hy,
                    )));
                    (madd::<FMA>(gz, dz, _mm256_mul_ps(gx, dx)), gy)
                };
                let fx1 = _mm256_sub_ps(fx[b], one);
                let c00 = corner(hx0[b], hz0, fx[b], fz);
                let c10 = corner(hx1[b], hz0, fx1, fz);
                let c01 = corner(hx0[b], hz1, fx[b], fz1);
                let c11 = corner(hx1[b], hz1, fx1, fz1);
                let a0 = lerp::<FMA>(ux[b], c00.0, c10.0);
                let b0 = lerp::<FMA>(ux[b], c00.1, c10.1);
                let a1 = lerp::<FMA>(ux[b], c01.0, c11.0);
                let b1 = lerp::<FMA>(ux[b], c01.1, c11.1);
                (lerp::<FMA>(uz, a0, a1), lerp::<FMA>(uz, b0, b1))
            };
            let mut lo = [(_mm256_setzero_ps(), _mm256_setzero_ps()); B];
            let mut hi = lo;
            let mut prev_cell = i32::MIN;
            for &(cy, start, end) in &yruns {
                let hl = usplat(cy as u32 * P1);
                let hh = usplat((cy + 1) as u32 * P1);
                for b in 0..B {
                    lo[b] = if cy == prev_cell.wrapping_add(1) {
                        hi[b]
                    } else {
                        row_xz(hl, b)
                    };
                    hi[b] = row_xz(hh, b);
                }
                prev_cell = cy;
                for r in start..end {
                    let uy = splat(y.fade[r]);
                    let fy = splat(y.frac[r]);
                    let fy1 = splat(y.frac[r] - 1.0);
                    let dst = out.as_mut_ptr().add((k * h + r) * w + i);
                    for b in 0..B {
                        let t0 = madd::<FMA>(lo[b].1, fy, lo[b].0);
                        let t1 = madd::<FMA>(hi[b].1, fy1, hi[b].0);
                        _mm256_storeu_ps(
                            dst.add(8 * b),
                            _mm256_mul_ps(lerp::<FMA>(uy, t0, t1), scale),
                        );
                    }
                }
            }
            i += 8 * B;
        }
    }
}

// ---------------------------------------------------------------------------
// 2D simplex point kernel over point arrays: classic skew, three corners,
// surflet's 8 gradients, radius² ½ with the (r² − d²)³ falloff, scaled.

#[target_feature(enable = "avx2,fma")]
// `SHARED` bounds what sharing corner data along a row could save: each
// corner's hash finaliser and gradient decoding (18 operations) become two
// register permutes of an 8-entry table, as if a row's corners had been
// hashed once and every lane only looked its corner up. Building the tables
// and finding each lane's entry are left out, so no real shared-corner path
// can be faster than this.
unsafe fn proto_simplex2<const FMA: bool, const CHEAP: bool, const SHARED: bool>(
    xs: &[f32],
    ys: &[f32],
    out: &mut [f32],
) {
    let f2 = splat(0.366_025_42);
    let g2 = splat(0.211_324_87);
    let key = usplat(KEY);
    let half = splat(0.5);
    let zero = _mm256_setzero_ps();
    let one = splat(1.0);
    let scale = splat(99.204_334);
    let corner = |h: __m256i, dx: __m256, dy: __m256| {
        let t = _mm256_sub_ps(half, madd::<FMA>(dx, dx, _mm256_mul_ps(dy, dy)));
        let t = _mm256_max_ps(t, zero);
        let t3 = _mm256_mul_ps(_mm256_mul_ps(t, t), t);
        let (gx, gy) = if SHARED {
            let tx = _mm256_setr_ps(1.0, -1.0, 0.0, 0.0, 0.707, -0.707, 0.707, -0.707);
            let ty = _mm256_setr_ps(0.0, 0.0, 1.0, -1.0, 0.707, 0.707, -0.707, -0.707);
            (
                _mm256_permutevar8x32_ps(tx, h),
                _mm256_permutevar8x32_ps(ty, h),
            )
        } else {
            grad2(finish::<CHEAP>(h))
        };
        _mm256_mul_ps(t3, madd::<FMA>(gx, dx, _mm256_mul_ps(gy, dy)))
    };
    let mut i = 0;
    while i + 8 <= xs.len() {
        let x = _mm256_loadu_ps(xs.as_ptr().add(i));
        let y = _mm256_loadu_ps(ys.as_ptr().add(i));
        let s = _mm256_mul_ps(_mm256_add_ps(x, y), f2);
        let cx = _mm256_floor_ps(_mm256_add_ps(x, s));
        let cy = _mm256_floor_ps(_mm256_add_ps(y, s));
        let t = _mm256_mul_ps(_mm256_add_ps(cx, cy), g2);
        let x0 = _mm256_sub_ps(x, _mm256_sub_ps(cx, t));
        let y0 = _mm256_sub_ps(y, _mm256_sub_ps(cy, t));
        let upper = _mm256_cmp_ps::<_CMP_GT_OQ>(x0, y0); // the lower triangle steps in x
        let i1 = _mm256_and_ps(upper, one);
        let j1 = _mm256_andnot_ps(upper, one);
        let x1 = _mm256_add_ps(_mm256_sub_ps(x0, i1), g2);
        let y1 = _mm256_add_ps(_mm256_sub_ps(y0, j1), g2);
        let x2 = _mm256_add_ps(_mm256_sub_ps(x0, one), _mm256_add_ps(g2, g2));
        let y2 = _mm256_add_ps(_mm256_sub_ps(y0, one), _mm256_add_ps(g2, g2));
        let hx = _mm256_xor_si256(_mm256_mullo_epi32(_mm256_cvtps_epi32(cx), usplat(P0)), key);
        let hy = _mm256_mullo_epi32(_mm256_cvtps_epi32(cy), usplat(P1));
        let ui = _mm256_castps_si256(upper);
        let h0 = _mm256_xor_si256(hx, hy);
        let h1 = _mm256_xor_si256(
            _mm256_add_epi32(hx, _mm256_and_si256(ui, usplat(P0))),
            _mm256_add_epi32(hy, _mm256_andnot_si256(ui, usplat(P1))),
        );
        let h2 = _mm256_xor_si256(
            _mm256_add_epi32(hx, usplat(P0)),
            _mm256_add_epi32(hy, usplat(P1)),
        );
        let n = _mm256_add_ps(
            _mm256_add_ps(corner(h0, x0, y0), corner(h1, x1, y1)),
            corner(h2, x2, y2),
        );
        _mm256_storeu_ps(out.as_mut_ptr().add(i), _mm256_mul_ps(n, scale));
        i += 8;
    }
}

// ---------------------------------------------------------------------------
// The harness.

type Run = Box<dyn Fn(&mut [f32])>;

fn prototypes() -> Vec<(String, usize, Run)> {
    let mut v: Vec<(String, usize, Run)> = vec![];
    // 1024² and 128³ as the benchmark has them (the output, 4 and 8 MB,
    // streams to memory), and 256² and 64²×32 (256 and 512 KB), which stay
    // in the L2 cache, so that the arithmetic shows.
    for (spacing, tag, w2, w3, d3) in [
        (0.03, "0.03", 1024, 128, 128),
        (1.0 / 64.0, "1/64", 1024, 128, 128),
        (0.03, "0.03 L2", 256, 64, 32),
        (1.0 / 64.0, "1/64 L2", 256, 64, 32),
    ] {
        let x = std::rc::Rc::new(axis(w2, spacing));
        let y = std::rc::Rc::new(axis(w2, spacing));
        macro_rules! two {
            ($name:literal, $f:ident, $fma:literal, $cheap:literal) => {{
                let (x, y) = (x.clone(), y.clone());
                v.push((
                    format!("{} {tag}", $name),
                    w2 * w2,
                    Box::new(move |o: &mut [f32]| unsafe { $f::<$fma, $cheap>(&x, &y, o) }),
                ));
            }};
        }
        two!("value2-xlast", proto_value2_xlast, false, false);
        two!("value2-xlast-fma", proto_value2_xlast, true, false);
        two!("value2-ylast", proto_value2_ylast, false, false);
        two!("value2-ylast-fma", proto_value2_ylast, true, false);
        two!("value2-ylast-fma-cheap", proto_value2_ylast, true, true);
        two!("value2-band", proto_value2_band, false, false);
        two!("value2-band-fma", proto_value2_band, true, false);
        two!("value2-band-fma-cheap", proto_value2_band, true, true);
        two!("perlin2-xlast", proto_perlin2_xlast, false, false);
        two!("perlin2-xlast-fma", proto_perlin2_xlast, true, false);
        two!("perlin2-ylast", proto_perlin2_ylast, false, false);
        two!("perlin2-ylast-fma", proto_perlin2_ylast, true, false);
        two!("perlin2-ylast-fma-cheap", proto_perlin2_ylast, true, true);
        two!("perlin2-band", proto_perlin2_band, false, false);
        two!("perlin2-band-fma", proto_perlin2_band, true, false);
        two!("perlin2-band-fma-cheap", proto_perlin2_band, true, true);
        let z = std::rc::Rc::new(axis(d3, spacing));
        let x3 = std::rc::Rc::new(axis(w3, spacing));
        macro_rules! three {
            ($name:literal, $fma:literal, $cheap:literal) => {{
                let (x, z) = (x3.clone(), z.clone());
                v.push((
                    format!("{} {tag}", $name),
                    w3 * w3 * d3,
                    Box::new(move |o: &mut [f32]| unsafe {
                        proto_perlin3_ylast::<$fma, $cheap>(&x, &x, &z, o)
                    }),
                ));
            }};
        }
        three!("perlin3-ylast", false, false);
        three!("perlin3-ylast-fma", true, false);
        three!("perlin3-ylast-fma-cheap", true, true);
    }
    let g = axis(1024, 0.03);
    let xs: std::rc::Rc<Vec<f32>> = std::rc::Rc::new(
        (0..1024 * 1024)
            .map(|i| 0.01 + (i % 1024) as f32 * 0.03)
            .collect(),
    );
    let ys: std::rc::Rc<Vec<f32>> = std::rc::Rc::new(
        (0..1024 * 1024)
            .map(|i| 0.01 + (i / 1024) as f32 * 0.03)
            .collect(),
    );
    drop(g);
    macro_rules! simplex {
        ($name:literal, $fma:literal, $cheap:literal) => {{ simplex!($name, $fma, $cheap, false) }};
        ($name:literal, $fma:literal, $cheap:literal, $shared:literal) => {{
            let (xs, ys) = (xs.clone(), ys.clone());
            v.push((
                format!("{} points", $name),
                1024 * 1024,
                Box::new(move |o: &mut [f32]| unsafe {
                    proto_simplex2::<$fma, $cheap, $shared>(&xs, &ys, o)
                }),
            ));
        }};
    }
    simplex!("simplex2", false, false);
    simplex!("simplex2-fma", true, false);
    simplex!("simplex2-cheap", false, true);
    simplex!("simplex2-fma-cheap", true, true);
    simplex!("simplex2-shared", false, false, true);
    simplex!("simplex2-fma-shared", true, false, true);
    v
}

/// surflet's grid and point calls on the same workloads, as the baseline.
fn surflet_rows() -> Vec<(String, usize, Run)> {
    use surflet::{Grid, Noise, NoiseKind};
    let mut v: Vec<(String, usize, Run)> = vec![];
    for (spacing, tag, w2, w3, d3) in [
        (0.03f32, "0.03", 1024, 128, 128),
        (1.0 / 64.0, "1/64", 1024, 128, 128),
        (0.03, "0.03 L2", 256, 64, 32),
        (1.0 / 64.0, "1/64 L2", 256, 64, 32),
    ] {
        for (kind, name) in [(NoiseKind::Value, "value2"), (NoiseKind::Perlin, "perlin2")] {
            let g = Grid::<f32, 2>::uniform([0.01; 2], [spacing; 2], [w2; 2]).unwrap();
            let n = Noise::<2>::new(kind, 1);
            v.push((
                format!("surflet {name} grid {tag}"),
                w2 * w2,
                Box::new(move |o: &mut [f32]| {
                    n.grid(&g, o).unwrap();
                }),
            ));
        }
        let g = Grid::<f32, 2>::uniform([0.01; 2], [spacing; 2], [w2; 2]).unwrap();
        let n = Noise::<2>::new(NoiseKind::Simplex, 1);
        v.push((
            format!("surflet simplex2 grid {tag}"),
            w2 * w2,
            Box::new(move |o: &mut [f32]| {
                n.grid(&g, o).unwrap();
            }),
        ));
        let g = Grid::<f32, 3>::uniform([0.01; 3], [spacing; 3], [w3, w3, d3]).unwrap();
        let n = Noise::<3>::new(NoiseKind::Perlin, 1);
        v.push((
            format!("surflet perlin3 grid {tag}"),
            w3 * w3 * d3,
            Box::new(move |o: &mut [f32]| {
                n.grid(&g, o).unwrap();
            }),
        ));
    }
    // The benchmark's fBm workloads: 3 octaves at frequency 1/64, spacing 1.
    for (kind, name) in [(NoiseKind::Value, "value"), (NoiseKind::Perlin, "perlin")] {
        use surflet::{Field, Fractal, FractalKind, FractalParams};
        let params = FractalParams {
            octaves: 3,
            frequency: 1.0 / 64.0,
            ..FractalParams::new(FractalKind::Fbm)
        };
        let f2 = Fractal::new(Noise::<2>::new(kind, 1), params).unwrap();
        let g2 = Grid::<f32, 2>::uniform([0.01; 2], [1.0; 2], [1024; 2]).unwrap();
        v.push((
            format!("surflet fbm3 {name}2 grid 1/64"),
            1024 * 1024,
            Box::new(move |o: &mut [f32]| {
                f2.grid(&g2, o).unwrap();
            }),
        ));
        let f3 = Fractal::new(Noise::<3>::new(kind, 1), params).unwrap();
        let g3 = Grid::<f32, 3>::uniform([0.01; 3], [1.0; 3], [128; 3]).unwrap();
        v.push((
            format!("surflet fbm3 {name}3 grid 1/64"),
            128 * 128 * 128,
            Box::new(move |o: &mut [f32]| {
                f3.grid(&g3, o).unwrap();
            }),
        ));
    }
    let xs: Vec<f32> = (0..1024 * 1024)
        .map(|i| 0.01 + (i % 1024) as f32 * 0.03)
        .collect();
    let ys: Vec<f32> = (0..1024 * 1024)
        .map(|i| 0.01 + (i / 1024) as f32 * 0.03)
        .collect();
    for (kind, name) in [
        (NoiseKind::Simplex, "simplex2"),
        (NoiseKind::Value, "value2"),
        (NoiseKind::Perlin, "perlin2"),
    ] {
        let n = Noise::<2>::new(kind, 1);
        let (xs, ys) = (xs.clone(), ys.clone());
        v.push((
            format!("surflet {name} fill points"),
            1024 * 1024,
            Box::new(move |o: &mut [f32]| {
                n.fill([&xs, &ys], o).unwrap();
            }),
        ));
    }
    let g = Grid::<f32, 3>::uniform([0.01; 3], [0.03; 3], [128; 3]).unwrap();
    let c: Vec<Vec<f32>> = (0..3)
        .map(|k| (0..g.len()).map(|i| g.point(i)[k]).collect())
        .collect();
    let n = Noise::<3>::new(NoiseKind::Perlin, 1);
    v.push((
        "surflet perlin3 fill points".into(),
        128 * 128 * 128,
        Box::new(move |o: &mut [f32]| {
            n.fill([&c[0], &c[1], &c[2]], o).unwrap();
        }),
    ));
    v
}

fn main() {
    assert!(is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma"));
    rayon_one_thread();
    let only: Option<String> = std::env::args().nth(1);
    let mut all = prototypes();
    all.extend(surflet_rows());
    let mut out = vec![0f32; 2 * 1024 * 1024 + 64];
    if let Some(name) = only {
        let (_, n, f) = all
            .iter()
            .find(|(k, _, _)| k.starts_with(&name))
            .expect("no such prototype");
        for _ in 0..3 {
            f(&mut out[..*n]);
        }
        println!("{name}: {}", out.iter().sum::<f32>());
        return;
    }
    // The two blend orders compute the same noise up to rounding.
    for (a, b) in [
        ("value2-xlast 0.03", "value2-ylast 0.03"),
        ("perlin2-xlast 0.03", "perlin2-ylast 0.03"),
        ("value2-xlast-fma 1/64", "value2-ylast-fma 1/64"),
        ("perlin2-xlast-fma 1/64", "perlin2-ylast-fma 1/64"),
        ("value2-xlast 0.03", "value2-band 0.03"),
        ("perlin2-xlast-fma 0.03", "perlin2-band-fma 0.03"),
    ] {
        let get = |k: &str| all.iter().find(|(n, _, _)| n == k).unwrap();
        let mut o2 = out.clone();
        (get(a).2)(&mut out[..1 << 20]);
        (get(b).2)(&mut o2[..1 << 20]);
        let worst = out
            .iter()
            .zip(&o2)
            .map(|(p, q)| (p - q).abs())
            .fold(0f32, f32::max);
        let spread = out.iter().fold(0f32, |m, v| m.max(v.abs()));
        assert!(
            worst < 1e-5 && spread > 0.5,
            "{a} against {b}: {worst}, max {spread}"
        );
    }
    println!("| prototype | Msamples/s | ns/sample |");
    println!("|---|--:|--:|");
    for (name, n, f) in &all {
        let mut best = f64::INFINITY;
        for _ in 0..(15 * (1 << 21) / n).min(2000) {
            let t = Instant::now();
            f(black_box(&mut out[..*n]));
            best = best.min(t.elapsed().as_secs_f64());
        }
        black_box(out.iter().sum::<f32>());
        println!(
            "| {name} | {:.0} | {:.3} |",
            *n as f64 / best / 1e6,
            best * 1e9 / *n as f64
        );
    }
}

/// surflet's batch calls run on the current rayon pool: one thread, as the
/// prototypes run.
fn rayon_one_thread() {
    // surflet builds no pool of its own; the global pool is sized by this
    // variable when it is first used.
    // SAFETY: single-threaded at this point.
    unsafe { std::env::set_var("RAYON_NUM_THREADS", "1") };
}
