//! The batch engine: one driver for every batch call (point arrays and
//! grids, every noise and compiled program), split into blocks that run in
//! parallel when the `rayon` feature is on.
//!
//! A block is a contiguous run of output indices. Every output element is
//! computed by the same per-lane function of its own coordinates, whatever
//! block or lane it lands in, so the split never changes a bit: serial,
//! parallel, point and grid calls agree (the test suite checks it).

// Lane code walks per-axis arrays in step; index loops read best there.
#![allow(clippy::needless_range_loop)]

use crate::error::Error;
use crate::float::Float;
use crate::simd::{Isa, Op, Simd};

/// Something evaluated per lane with up to five outputs (a value and four
/// derivatives, or a curl vector).
pub(crate) trait Lanes<S: Simd, const D: usize> {
    fn eval(&self, s: S, p: [S::F; D], r: &mut [S::F; 5]);
}

/// What a block evaluates at: a slice of a point array, or a stretch of a
/// grid starting at flat index `start`.
#[derive(Clone, Copy)]
pub(crate) enum Work<'a, E, const D: usize> {
    Points([&'a [E]; D]),
    Grid { axes: [&'a [E]; D], start: usize },
}

/// A field that can evaluate a block on lane type `S`: it builds its lane
/// parameters once per block and calls [`exec`].
pub(crate) trait Source<E: Float, const D: usize>: Sync {
    /// Runs `work`, writing output `k` of each point to `outs[k]`; returns
    /// the smallest and largest value of output 0 (see [`exec`]).
    fn run<S: Simd<E = E>>(
        &self,
        s: S,
        grad: bool,
        work: Work<'_, E, D>,
        outs: &mut [&mut [E]],
    ) -> (E, E);
}

/// Runs `work` with `lanes`. Returns the minimum and maximum of output 0
/// over its non-NaN values, with −0 counted as +0 (so that the result does
/// not depend on the order of the comparisons): (+∞, −∞) if there is none.
#[inline(always)]
pub(crate) fn exec<S: Simd, const D: usize, L: Lanes<S, D>>(
    s: S,
    lanes: &L,
    work: Work<'_, S::E, D>,
    outs: &mut [&mut [S::E]],
) -> (S::E, S::E) {
    match work {
        Work::Points(coords) => {
            points(s, lanes, coords, outs);
            (S::E::INFINITY, S::E::NEG_INFINITY)
        }
        Work::Grid { axes, start } => grid(s, lanes, axes, start, outs),
    }
}

/// The point-array loop: full vectors, then the tail padded with zeros into
/// one more vector, so every point goes through the same code.
#[inline(always)]
fn points<S: Simd, const D: usize, L: Lanes<S, D>>(
    s: S,
    lanes: &L,
    coords: [&[S::E]; D],
    outs: &mut [&mut [S::E]],
) {
    let n = outs[0].len();
    let l = S::LANES;
    let mut r = [s.zero(); 5];
    let mut i = 0;
    while i + l <= n {
        let mut p = [s.zero(); D];
        for a in 0..D {
            p[a] = s.load(&coords[a][i..]);
        }
        lanes.eval(s, p, &mut r);
        for (k, o) in outs.iter_mut().enumerate() {
            s.store(r[k], &mut o[i..]);
        }
        i += l;
    }
    if i < n {
        let rest = n - i;
        let mut buf = [[S::E::ZERO; 16]; D];
        for a in 0..D {
            buf[a][..rest].copy_from_slice(&coords[a][i..]);
        }
        let mut p = [s.zero(); D];
        for a in 0..D {
            p[a] = s.load(&buf[a]);
        }
        lanes.eval(s, p, &mut r);
        let mut tmp = [S::E::ZERO; 16];
        for (k, o) in outs.iter_mut().enumerate() {
            s.store(r[k], &mut tmp);
            o[i..].copy_from_slice(&tmp[..rest]);
        }
    }
}

/// The grid loop: row by row (x fastest), the row's other coordinates
/// splatted once, x loaded a vector at a time (the tail padded).
#[inline(always)]
fn grid<S: Simd, const D: usize, L: Lanes<S, D>>(
    s: S,
    lanes: &L,
    axes: [&[S::E]; D],
    start: usize,
    outs: &mut [&mut [S::E]],
) -> (S::E, S::E) {
    let n = outs[0].len();
    let l = S::LANES;
    let nx = axes[0].len();
    let zero = s.zero();
    let mut lo = s.splat(S::E::INFINITY);
    let mut hi = s.splat(S::E::NEG_INFINITY);
    let mut r = [zero; 5];
    let mut done = 0;
    while done < n {
        let flat = start + done;
        let x0 = flat % nx;
        let mut row = flat / nx;
        let len = (nx - x0).min(n - done);
        let mut p = [zero; D];
        for a in 1..D {
            let m = axes[a].len();
            p[a] = s.splat(axes[a][row % m]);
            row /= m;
        }
        let xs = &axes[0][x0..x0 + len];
        let mut i = 0;
        while i + l <= len {
            p[0] = s.load(&xs[i..]);
            lanes.eval(s, p, &mut r);
            for (k, o) in outs.iter_mut().enumerate() {
                s.store(r[k], &mut o[done + i..]);
            }
            // `+ 0` turns −0 into +0; NaN falls through min and max.
            let v = s.add(r[0], zero);
            lo = s.min(v, lo);
            hi = s.max(v, hi);
            i += l;
        }
        if i < len {
            let rest = len - i;
            let mut buf = [S::E::ZERO; 16];
            buf[..rest].copy_from_slice(&xs[i..]);
            p[0] = s.load(&buf);
            lanes.eval(s, p, &mut r);
            let mut tmp = [S::E::ZERO; 16];
            for (k, o) in outs.iter_mut().enumerate() {
                s.store(r[k], &mut tmp);
                o[done + i..done + len].copy_from_slice(&tmp[..rest]);
                if k == 0 {
                    // Only the real lanes count; pad lanes repeat lane 0.
                    let first = tmp[0];
                    for t in &mut tmp[rest..] {
                        *t = first;
                    }
                    let v = s.add(s.load(&tmp), zero);
                    lo = s.min(v, lo);
                    hi = s.max(v, hi);
                }
            }
        }
        done += len;
    }
    let mut a = [S::E::ZERO; 16];
    let mut b = [S::E::ZERO; 16];
    s.store(lo, &mut a);
    s.store(hi, &mut b);
    let (mut min, mut max) = (S::E::INFINITY, S::E::NEG_INFINITY);
    for k in 0..l {
        min = if a[k] < min { a[k] } else { min };
        max = if b[k] > max { b[k] } else { max };
    }
    (min, max)
}

/// One block on one backend.
struct BlockOp<'a, 'w, 'b, 'o, Src, E, const D: usize> {
    src: &'a Src,
    grad: bool,
    work: Work<'w, E, D>,
    outs: &'b mut [&'o mut [E]],
}

impl<E: Float, Src: Source<E, D>, const D: usize> Op<E> for BlockOp<'_, '_, '_, '_, Src, E, D> {
    type Output = (E, E);

    #[inline(always)]
    fn run<S: Simd<E = E>>(self, s: S) -> (E, E) {
        self.src.run(s, self.grad, self.work, self.outs)
    }
}

/// The grid calls' [`Bounds`](crate::Bounds) from [`drive`]'s pair.
pub(crate) fn grid_bounds<E>((min, max): (E, E)) -> crate::grid::Bounds<E> {
    crate::grid::Bounds { min, max }
}

/// Below this many points a call runs on the calling thread alone.
#[cfg(feature = "rayon")]
const PARALLEL_MIN: usize = 1 << 14;

/// Checks `isa` and the output lengths (every output as long as `n`).
pub(crate) fn check<E>(isa: Isa, n: usize, outs: &[&mut [E]]) -> Result<(), Error> {
    if !isa.is_available() {
        return Err(Error::Parameter {
            name: "isa".into(),
            reason: format!("{} is not supported by this CPU", isa.name()),
        });
    }
    for (k, o) in outs.iter().enumerate() {
        if o.len() != n {
            return Err(Error::Length {
                what: if k == 0 {
                    "output slice".to_string()
                } else {
                    format!("output slice {k}")
                },
                expected: n,
                found: o.len(),
            });
        }
    }
    Ok(())
}

/// Checks that every coordinate slice has `n` entries.
pub(crate) fn check_coords<E, const D: usize>(coords: &[&[E]; D], n: usize) -> Result<(), Error> {
    for (a, c) in coords.iter().enumerate() {
        if c.len() != n {
            return Err(Error::Length {
                what: format!("coordinate slice {a}"),
                expected: n,
                found: c.len(),
            });
        }
    }
    Ok(())
}

/// Evaluates `src` over `work` into `outs` (already checked), in blocks on
/// the current rayon pool when the `rayon` feature is on and the call is
/// large; returns the merged (min, max) of output 0.
pub(crate) fn drive<E: Float, Src: Source<E, D>, const D: usize>(
    src: &Src,
    isa: Isa,
    grad: bool,
    work: Work<'_, E, D>,
    mut outs: Vec<&mut [E]>,
) -> (E, E) {
    let n = outs[0].len();
    #[cfg(feature = "rayon")]
    {
        let threads = rayon::current_num_threads();
        if threads > 1 && n >= PARALLEL_MIN {
            return drive_parallel(src, isa, grad, work, outs, threads);
        }
    }
    let _ = n;
    E::dispatch(
        isa,
        BlockOp {
            src,
            grad,
            work,
            outs: &mut outs,
        },
    )
}

#[cfg(feature = "rayon")]
fn drive_parallel<E: Float, Src: Source<E, D>, const D: usize>(
    src: &Src,
    isa: Isa,
    grad: bool,
    work: Work<'_, E, D>,
    outs: Vec<&mut [E]>,
    threads: usize,
) -> (E, E) {
    use rayon::prelude::*;
    let n = outs[0].len();
    // About eight blocks a thread for balance, each a whole number of the
    // widest vectors and at least 4096 points so that the per-block set-up
    // (lane parameters, dispatch) stays negligible.
    let block = n.div_ceil(threads * 8).max(4096).next_multiple_of(64);
    let count = n.div_ceil(block);
    let mut blocks: Vec<(usize, Vec<&mut [E]>)> =
        (0..count).map(|b| (b * block, Vec::new())).collect();
    for o in outs {
        for (b, chunk) in o.chunks_mut(block).enumerate() {
            blocks[b].1.push(chunk);
        }
    }
    blocks
        .into_par_iter()
        .map(|(start, mut outs)| {
            let len = outs[0].len();
            let work = match work {
                Work::Points(coords) => {
                    Work::Points(core::array::from_fn(|a| &coords[a][start..start + len]))
                }
                Work::Grid { axes, start: s0 } => Work::Grid {
                    axes,
                    start: s0 + start,
                },
            };
            E::dispatch(
                isa,
                BlockOp {
                    src,
                    grad,
                    work,
                    outs: &mut outs,
                },
            )
        })
        .reduce(
            || (E::INFINITY, E::NEG_INFINITY),
            |a, b| {
                (
                    if b.0 < a.0 { b.0 } else { a.0 },
                    if b.1 > a.1 { b.1 } else { a.1 },
                )
            },
        )
}
