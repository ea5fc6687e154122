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
use crate::prelude_internal::*;
use crate::simd::Element;
use crate::simd::{Isa, Op, Simd};

/// Something evaluated per lane with up to `W` outputs: a value and its
/// derivatives (`W = 5` covers 1D–4D; N-D noise takes 9), or a curl
/// vector.
pub(crate) trait Lanes<S: Simd, const D: usize, const W: usize = 5> {
    /// Writes outputs `0..outputs()` of each lane to `r`.
    fn eval(&self, s: S, p: [S::F; D], r: &mut [S::F; W]);
    /// How many outputs [`eval`](Self::eval) writes: a constant of the
    /// implementation, so that the store loop unrolls.
    fn outputs(&self) -> usize;
    /// Says that the vectors evaluated until the next call all lie on the
    /// grid row whose coordinates on axes 1.. are `rest`'s (entry 0
    /// unused), so that a kernel sharing work along rows can skip checking
    /// it per vector.
    #[inline(always)]
    fn start_row(&self, rest: [S::E; D]) {
        let _ = rest;
    }
    /// Evaluates a whole stretch of the row announced by
    /// [`start_row`](Self::start_row) at x coordinates `xs`, as [`exec`]
    /// would vector by vector (the same bits). `xs` is a stretch of the
    /// grid's axis 0, unchanged while the lanes live, so work that depends
    /// on x alone may be kept by its address and length. Writes output `k` to
    /// `outs[k][at..at + xs.len()]` and widens `lo`/`hi` by the values
    /// (−0 as +0). Returns `false`, having done nothing, where it has no
    /// such path.
    #[inline(always)]
    fn row(&self, s: S, xs: &[S::E], dest: Dest<'_, '_, S>) -> bool {
        let _ = (s, xs, dest);
        false
    }
    /// Evaluates whole grid rows: the rows at y coordinates `ys`, each at
    /// x coordinates `xs` (the grid's whole axis 0), with the coordinates
    /// on the axes after y `rest`'s (entries 0 and 1 unused), as [`exec`]
    /// would vector by vector (the same bits). Row `r` goes to
    /// `outs[k][at + r·xs.len()..]`; `lo`/`hi` are widened by the values
    /// (−0 as +0). Returns `false`, having done nothing, where it has no
    /// such path.
    #[inline(always)]
    fn rows(&self, s: S, run: Rows<'_, S::E, D>, dest: Dest<'_, '_, S>) -> bool {
        let _ = (s, run, dest);
        false
    }
}

/// A run of whole grid rows (see [`Lanes::rows`]): each row at x
/// coordinates `xs` (the grid's whole axis 0), one row per y coordinate in
/// `ys`, the coordinates on the axes after y `rest`'s (entries 0 and 1
/// unused).
#[derive(Clone, Copy)]
pub(crate) struct Rows<'a, E, const D: usize> {
    pub(crate) xs: &'a [E],
    pub(crate) ys: &'a [E],
    pub(crate) rest: [E; D],
}

/// Where a stretch of results goes: output `k` of its point `i` to
/// `outs[k][at + i]`, with `bounds` (the smallest and largest value so
/// far, lane by lane) widened by output 0, −0 counted as +0.
pub(crate) struct Dest<'a, 'o, S: Simd> {
    pub(crate) outs: &'a mut [&'o mut [S::E]],
    pub(crate) at: usize,
    pub(crate) bounds: (&'a mut S::F, &'a mut S::F),
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
    /// Runs `work`, writing output `k` of each point to `outs[k]`; for a
    /// grid, returns the smallest and largest value of output 0 (see
    /// [`exec`]).
    fn run<S: Simd<E = E>>(
        &self,
        s: S,
        grad: bool,
        work: Work<'_, E, D>,
        outs: &mut [&mut [E]],
    ) -> (E, E);
}

/// The tail rule of every batch loop: a tail shorter than a vector is
/// padded with its first point, a real point, so the pad lanes compute
/// nothing that could disturb the bounds (or raise a NaN where there is
/// none). `buf` gets `tail` followed by copies of `tail[0]`.
#[inline(always)]
pub(crate) fn pad_tail<E: Copy>(tail: &[E], buf: &mut [E; 16]) {
    buf[..tail.len()].copy_from_slice(tail);
    let first = tail[0];
    for v in &mut buf[tail.len()..] {
        *v = first;
    }
}

/// The vector of `xs[i..]`: a full load, or for the tail the rest padded
/// by [`pad_tail`].
#[inline(always)]
pub(crate) fn load_row<S: Simd>(s: S, xs: &[S::E], i: usize) -> S::F {
    if i + S::LANES <= xs.len() {
        return s.load(&xs[i..]);
    }
    let mut buf = [S::E::ZERO; 16];
    pad_tail(&xs[i..], &mut buf);
    s.load(&buf)
}

/// Writes the value `v` and, if `GRAD`, the gradient `g` of the `len`
/// points at `outs[k][at..at + len]` (`len` at most a vector), and widens
/// `lo`/`hi` by the value (−0 as +0; NaN falls through min and max).
#[inline(always)]
pub(crate) fn store_row<S: Simd, const D: usize, const GRAD: bool>(
    s: S,
    (v, g): (S::F, [S::F; D]),
    outs: &mut [&mut [S::E]],
    at: usize,
    len: usize,
    (lo, hi): (&mut S::F, &mut S::F),
) {
    if len == S::LANES {
        s.store(v, &mut outs[0][at..]);
        if GRAD {
            for a in 0..D {
                s.store(g[a], &mut outs[1 + a][at..]);
            }
        }
    } else {
        let mut tmp = [S::E::ZERO; 16];
        s.store(v, &mut tmp);
        outs[0][at..at + len].copy_from_slice(&tmp[..len]);
        if GRAD {
            for a in 0..D {
                s.store(g[a], &mut tmp);
                outs[1 + a][at..at + len].copy_from_slice(&tmp[..len]);
            }
        }
    }
    widen(s, v, (lo, hi));
}

/// Widens `lo`/`hi` by the values `v` (−0 as +0; NaN falls through min and
/// max).
#[inline(always)]
pub(crate) fn widen<S: Simd>(s: S, v: S::F, (lo, hi): (&mut S::F, &mut S::F)) {
    let v = s.add(v, s.zero());
    *lo = s.min(v, *lo);
    *hi = s.max(v, *hi);
}

/// Stores each vector of `sums` times `scale` into `value` (one vector
/// after another) and returns `bounds` widened by them as [`widen`] would.
///
/// The loop widens a pair of its own, started at (+∞, −∞), and joins it to
/// `bounds` once at the end. The bits are the same: the values are never
/// NaN in an accumulator (NaN falls through) and never −0 (`+ 0`), and min
/// and max of such values do not depend on their order. Why: inside a
/// program's entry point, which holds every kernel, the register allocator
/// kept a pair that lives across the whole function on the stack, a store
/// and a load per vector in this store-bound loop (half of a one-octave
/// grid's time); which builds it did so in changed with link-time
/// optimisation and with where the loop sat. A pair that lives only in the
/// loop stays in registers in both.
#[inline(always)]
pub(crate) fn scale_store<S: Simd>(
    s: S,
    sums: &[S::F],
    scale: S::F,
    value: &mut [S::E],
    (lo, hi): (S::F, S::F),
) -> (S::F, S::F) {
    // An index loop: without link-time optimisation `Zip::next` over
    // `chunks_exact_mut` stayed a call, which costs the pair its registers.
    let l = S::LANES;
    let n = sums.len().min(value.len() / l);
    let (sums, value) = (&sums[..n], &mut value[..n * l]);
    let (mut a, mut b) = (s.splat(S::E::INFINITY), s.splat(S::E::NEG_INFINITY));
    for k in 0..n {
        let v = s.mul(sums[k], scale);
        s.store(v, &mut value[k * l..k * l + l]);
        widen(s, v, (&mut a, &mut b));
    }
    (s.min(a, lo), s.max(b, hi))
}

/// Runs `work` with `lanes`. For a grid, returns the minimum and maximum of
/// output 0 over its non-NaN values, with −0 counted as +0 (so that the
/// result does not depend on the order of the comparisons): (+∞, −∞) if
/// there is none. Point arrays' callers return no bounds, so none are kept
/// for them, and they get (+∞, −∞).
///
/// Point arrays and grids share one loop with one call of the kernel, so
/// each kernel is inlined once per backend (compile time and code size),
/// not once per kind of call and once more for the padded tail.
#[inline(always)]
pub(crate) fn exec<S: Simd, const D: usize, const W: usize, L: Lanes<S, D, W>>(
    s: S,
    lanes: &L,
    work: Work<'_, S::E, D>,
    outs: &mut [&mut [S::E]],
) -> (S::E, S::E) {
    let n = outs[0].len();
    assert_eq!(outs.len(), lanes.outputs(), "one slice per output");
    let mut lo = s.splat(S::E::INFINITY);
    let mut hi = s.splat(S::E::NEG_INFINITY);
    let keep_bounds = matches!(work, Work::Grid { .. });
    // Made once a block, not once a segment: a grid row can be as short as
    // a few vectors.
    let mut splat = [[S::E::ZERO; 16]; D];
    let mut tail = Tail {
        ins: [[S::E::ZERO; 16]; D],
        outs: [[S::E::ZERO; 16]; W],
    };
    let mut done = 0;
    while done < n {
        // One segment: the rest of the points, or the rest of a grid row.
        // Axes with a slice are read per vector; the others are splatted.
        let mut axes: [&[S::E]; D] = [&[]; D];
        let len = match work {
            Work::Points(coords) => {
                for a in 0..D {
                    axes[a] = &coords[a][done..n];
                }
                n - done
            }
            Work::Grid { axes: grid, start } => {
                let at = GridAt::find(grid, start + done, n - done);
                if let Some(ys) = at.ys
                    && lanes.rows(
                        s,
                        Rows {
                            xs: grid[0],
                            ys,
                            rest: at.rest,
                        },
                        Dest {
                            outs,
                            at: done,
                            bounds: (&mut lo, &mut hi),
                        },
                    )
                {
                    done += ys.len() * grid[0].len();
                    continue;
                }
                lanes.start_row(at.rest);
                let dest = Dest {
                    outs,
                    at: done,
                    bounds: (&mut lo, &mut hi),
                };
                if lanes.row(s, at.xs, dest) {
                    done += at.xs.len();
                    continue;
                }
                axes[0] = at.xs;
                for a in 1..D {
                    splat[a] = [at.rest[a]; 16];
                }
                at.xs.len()
            }
        };
        for a in 0..D {
            if axes[a].is_empty() {
                axes[a] = &splat[a];
            }
        }
        let dest = Dest {
            outs,
            at: done,
            bounds: (&mut lo, &mut hi),
        };
        segment(s, lanes, axes, len, dest, keep_bounds, &mut tail);
        done += len;
    }
    reduce_bounds(s, lo, hi)
}

/// Where a grid's flat index `flat` lies, with `left` points left in the
/// block: the rest of its row, the coordinates on axes 1.. (entry 0
/// unused), and where the row starts a run of whole rows up to the end of
/// the block or of the y axis (after which z or w moves), their y
/// coordinates.
///
/// Generic over the element and the dimension only, not over the lanes:
/// [`exec`] is instantiated per kernel, dimension, lane type and gradient
/// flag, and this bookkeeping, written once in each, was a sixth of the
/// library's LLVM IR before optimisation. Still inlined: out of line, a
/// call per row made 16-point rows of 3D simplex 20–30 % slower.
struct GridAt<'a, E, const D: usize> {
    xs: &'a [E],
    rest: [E; D],
    ys: Option<&'a [E]>,
}

impl<'a, E: Element, const D: usize> GridAt<'a, E, D> {
    #[inline(always)]
    fn find(grid: [&'a [E]; D], flat: usize, left: usize) -> Self {
        let nx = grid[0].len();
        let x0 = flat % nx;
        let mut row = flat / nx;
        let mut rest = [E::ZERO; D];
        for a in 1..D {
            let m = grid[a].len();
            rest[a] = grid[a][row % m];
            row /= m;
        }
        let ys = if D >= 2 && x0 == 0 && left >= nx {
            let ny = grid[1].len();
            let y0 = flat / nx % ny;
            let count = (left / nx).min(ny - y0);
            Some(&grid[1][y0..y0 + count])
        } else {
            None
        };
        GridAt {
            xs: &grid[0][x0..x0 + (nx - x0).min(left)],
            rest,
            ys,
        }
    }
}

/// A padded tail's points and outputs (see [`segment`]).
struct Tail<E, const D: usize, const W: usize> {
    ins: [[E; 16]; D],
    outs: [[E; 16]; W],
}

/// Evaluates the `len` points of one segment, axis `a` read from
/// `axes[a]` (a slice of `len` coordinates, or of 16 copies of one, which
/// the loop reads in place with a step of 0), into `outs[k][at..at + len]`,
/// widening `lo`/`hi` by output 0 if `keep_bounds`.
///
/// The whole vectors are read and written in place through pointers, the
/// bounds checked once ([`Passes::new`]); the padded tail goes once more
/// through the same loop from scratch buffers, so the kernel is inlined
/// once.
#[inline(always)]
fn segment<S: Simd, const D: usize, const W: usize, L: Lanes<S, D, W>>(
    s: S,
    lanes: &L,
    axes: [&[S::E]; D],
    len: usize,
    dest: Dest<'_, '_, S>,
    keep_bounds: bool,
    scratch: &mut Tail<S::E, D, W>,
) {
    let Dest {
        outs,
        at,
        bounds: (lo, hi),
    } = dest;
    let m = lanes.outputs();
    let passes = Passes::new(S::LANES, axes, len, outs, at, scratch);
    let mut r = [s.zero(); W];
    let (mut vlo, mut vhi) = (*lo, *hi);
    for pass in &passes.passes[..passes.count] {
        let (mut src, mut dst) = (pass.src, pass.dst);
        for _ in 0..pass.vectors {
            let mut p = [s.zero(); D];
            for a in 0..D {
                // SAFETY: `Passes::new` checked that `pass.vectors` steps
                // of `pass.src_step` and `pass.dst_step` stay within the
                // slices (or the scratch buffers) the pointers point into.
                p[a] = unsafe { s.load_ptr(src[a]) };
            }
            lanes.eval(s, p, &mut r);
            for k in 0..m {
                // SAFETY: as above.
                unsafe { s.store_ptr(r[k], dst[k]) };
            }
            // `+ 0` turns −0 into +0; NaN falls through min and max.
            // A branch taken the same way every time, where the min and
            // max are three vector operations a vector.
            if keep_bounds {
                let v = s.add(r[0], s.zero());
                vlo = s.min(v, vlo);
                vhi = s.max(v, vhi);
            }
            for a in 0..D {
                src[a] = src[a].wrapping_add(pass.src_step[a]);
            }
            for k in 0..m {
                dst[k] = dst[k].wrapping_add(pass.dst_step);
            }
        }
    }
    passes.finish(outs, at, scratch);
    (*lo, *hi) = (vlo, vhi);
}

/// One pass of [`segment`]'s loop: `vectors` vectors read from `src` and
/// written to `dst`, the pointers moved by the steps after each.
#[derive(Clone, Copy)]
struct Pass<E, const D: usize, const W: usize> {
    vectors: usize,
    src: [*const E; D],
    dst: [*mut E; W],
    src_step: [usize; D],
    dst_step: usize,
}

/// [`segment`]'s passes: the whole vectors in place, then the padded tail
/// (if any) in the scratch buffers.
///
/// Generic over the element, dimension and outputs only: `segment` is
/// instantiated per kernel, dimension, lane type and gradient flag, and
/// this set-up, written once in each, was a fifth of the library's LLVM
/// IR before optimisation. Still inlined (see [`GridAt`]); it runs once
/// per segment (a block of points, or a grid row).
struct Passes<E, const D: usize, const W: usize> {
    passes: [Pass<E, D, W>; 2],
    count: usize,
    /// Where the tail's outputs go, and how many there are.
    whole: usize,
    tail: usize,
}

impl<E: Element, const D: usize, const W: usize> Passes<E, D, W> {
    /// Checks the slices, pads the tail into `scratch` and points the
    /// passes at them, for vectors of `l` lanes.
    #[inline(always)]
    fn new(
        l: usize,
        axes: [&[E]; D],
        len: usize,
        outs: &mut [&mut [E]],
        at: usize,
        scratch: &mut Tail<E, D, W>,
    ) -> Self {
        let whole = len / l;
        let tail = len % l;
        let mut step = [0; D];
        for a in 0..D {
            if axes[a].len() == len {
                step[a] = l;
            }
            // A read axis has `len` coordinates; a splatted one a vector's.
            assert!(step[a] == l || axes[a].len() >= l);
        }
        assert!(outs.len() <= W);
        for o in outs.iter() {
            assert!(o.len() >= at + len);
        }
        let mut main = Pass {
            vectors: whole,
            src: [core::ptr::null(); D],
            dst: [core::ptr::null_mut(); W],
            src_step: step,
            dst_step: l,
        };
        for a in 0..D {
            main.src[a] = axes[a].as_ptr();
        }
        for (k, o) in outs.iter_mut().enumerate() {
            main.dst[k] = o[at..].as_mut_ptr();
        }
        // The padded tail's points (by `pad_tail`), read and written in
        // place, one vector of the 16-element buffers.
        let mut rest = Pass {
            vectors: 1,
            src: [core::ptr::null(); D],
            dst: [core::ptr::null_mut(); W],
            src_step: [0; D],
            dst_step: 0,
        };
        if tail > 0 {
            for a in 0..D {
                let src = if step[a] == 0 {
                    &axes[a][..tail]
                } else {
                    &axes[a][whole * l..len]
                };
                pad_tail(src, &mut scratch.ins[a]);
                rest.src[a] = scratch.ins[a].as_ptr();
            }
            for k in 0..W {
                rest.dst[k] = scratch.outs[k].as_mut_ptr();
            }
        }
        Passes {
            passes: [main, rest],
            count: if tail > 0 { 2 } else { 1 },
            whole: whole * l,
            tail,
        }
    }

    /// Copies the tail's outputs from the scratch buffers.
    #[inline(always)]
    fn finish(&self, outs: &mut [&mut [E]], at: usize, scratch: &Tail<E, D, W>) {
        if self.tail > 0 {
            let at = at + self.whole;
            for (k, o) in outs.iter_mut().enumerate() {
                o[at..at + self.tail].copy_from_slice(&scratch.outs[k][..self.tail]);
            }
        }
    }
}

/// The smallest lane of `lo` and the largest of `hi`.
#[inline(always)]
fn reduce_bounds<S: Simd>(s: S, lo: S::F, hi: S::F) -> (S::E, S::E) {
    let mut a = [S::E::ZERO; 16];
    let mut b = [S::E::ZERO; 16];
    s.store(lo, &mut a);
    s.store(hi, &mut b);
    let (mut min, mut max) = (S::E::INFINITY, S::E::NEG_INFINITY);
    for k in 0..S::LANES {
        min = if a[k] < min { a[k] } else { min };
        max = if b[k] > max { b[k] } else { max };
    }
    (min, max)
}

/// The bounds of a slice, as [`exec`] keeps them.
struct BoundsOp<'a, E>(&'a [E]);

impl<E: Float> Op<E> for BoundsOp<'_, E> {
    type Output = (E, E);

    #[inline(always)]
    fn run<S: Simd<E = E>>(self, s: S) -> (E, E) {
        let v = self.0;
        let mut lo = s.splat(E::INFINITY);
        let mut hi = s.splat(E::NEG_INFINITY);
        let mut i = 0;
        while i < v.len() {
            widen(s, load_row(s, v, i), (&mut lo, &mut hi));
            i += S::LANES;
        }
        reduce_bounds(s, lo, hi)
    }
}

/// The smallest and largest non-NaN value of `v`, −0 counted as +0
/// ((+∞, −∞) if there is none), on `isa` (the same result on each): a
/// running bound per lane, where one running bound is a chain of
/// dependent compares (half the time of a graph's grid call, when it was
/// one).
pub(crate) fn bounds<E: Float>(isa: Isa, v: &[E]) -> (E, E) {
    E::dispatch(isa, BoundsOp(v))
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
pub(crate) fn grid_bounds<E>((min, max): (E, E)) -> crate::sample::Bounds<E> {
    crate::sample::Bounds { min, max }
}

/// Below this many points a call runs on the calling thread alone.
const PARALLEL_MIN: usize = 1 << 14;

/// The output slices of a batch call: the values, then the gradient.
pub(crate) fn batch_outs<'a, F, const D: usize>(
    out: &'a mut [F],
    gradient: Option<[&'a mut [F]; D]>,
) -> Vec<&'a mut [F]> {
    let mut outs = vec![out];
    if let Some(g) = gradient {
        outs.extend(g);
    }
    outs
}

/// A point-array call of `src`: checks the slices, then drives `src` over
/// the points. The body of every field's `fill_on`.
pub(crate) fn fill_points<E: Float, Src: Source<E, D>, const D: usize>(
    src: &Src,
    isa: Isa,
    coords: [&[E]; D],
    out: &mut [E],
    gradient: Option<[&mut [E]; D]>,
) -> Result<(), Error> {
    let n = out.len();
    let grad = gradient.is_some();
    let outs = batch_outs(out, gradient);
    check(isa, n, &outs, true)?;
    check_coords(&coords, n)?;
    drive(src, isa, grad, Work::Points(coords), outs);
    Ok(())
}

/// Checks `isa` and the output lengths (every output as long as `n`).
/// With `gradient`, `outs` are a value and its gradient, named "output
/// slice" and "gradient slice a" in errors; otherwise "output slice k".
pub(crate) fn check<E>(isa: Isa, n: usize, outs: &[&mut [E]], gradient: bool) -> Result<(), Error> {
    if !isa.is_available() {
        return Err(isa.unavailable());
    }
    for (k, o) in outs.iter().enumerate() {
        if o.len() != n {
            return Err(Error::Length {
                what: match (gradient, k) {
                    (true, 0) => "output slice".to_string(),
                    (true, k) => format!("gradient slice {}", k - 1),
                    (false, k) => format!("output slice {k}"),
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
    outs: Vec<&mut [E]>,
) -> (E, E) {
    let n = outs[0].len();
    let threads = threads();
    let block = if threads > 1 && n >= PARALLEL_MIN {
        block_len(n, threads, usize::MAX)
    } else {
        n
    };
    run_blocks(
        outs,
        block,
        &Drive {
            src,
            isa,
            grad,
            work,
        },
    )
}

/// [`drive`]'s blocks: each dispatched to its backend once.
struct Drive<'a, 'w, Src, E, const D: usize> {
    src: &'a Src,
    isa: Isa,
    grad: bool,
    work: Work<'w, E, D>,
}

impl<E: Float, Src: Source<E, D>, const D: usize> Blocks<E> for Drive<'_, '_, Src, E, D> {
    type Output = (E, E);
    fn identity(&self) -> (E, E) {
        (E::INFINITY, E::NEG_INFINITY)
    }
    fn run(&self, start: usize, mut outs: Vec<&mut [E]>) -> (E, E) {
        let len = outs[0].len();
        let work = match self.work {
            Work::Points(coords) => Work::Points(array_of(|a| &coords[a][start..start + len])),
            Work::Grid { axes, start: s0 } => Work::Grid {
                axes,
                start: s0 + start,
            },
        };
        E::dispatch(
            self.isa,
            BlockOp {
                src: self.src,
                grad: self.grad,
                work,
                outs: &mut outs,
            },
        )
    }
    fn reduce(&self, a: (E, E), b: (E, E)) -> (E, E) {
        (
            if b.0 < a.0 { b.0 } else { a.0 },
            if b.1 > a.1 { b.1 } else { a.1 },
        )
    }
}

/// Work that [`run_blocks`] splits into blocks. Methods, not closures:
/// closures here would be compiled as functions of this module, which
/// `.ci/python` refuses (see there).
pub(crate) trait Blocks<E>: Sync {
    /// What a block returns.
    type Output: Send;
    /// The result of no blocks.
    fn identity(&self) -> Self::Output;
    /// Runs the block of points `start..start + outs[0].len()`.
    fn run(&self, start: usize, outs: Vec<&mut [E]>) -> Self::Output;
    /// Combines two blocks' results, in any grouping (associative and
    /// commutative, as min and max are).
    fn reduce(&self, a: Self::Output, b: Self::Output) -> Self::Output;
}

/// Threads of the current rayon pool (1 without the `rayon` feature).
pub(crate) fn threads() -> usize {
    #[cfg(feature = "rayon")]
    return rayon::current_num_threads();
    #[cfg(not(feature = "rayon"))]
    1
}

/// The block rule of every parallel call: about eight blocks a thread for
/// balance, each a whole number of the widest vectors (64 points) and at
/// least 4096 points so that a block's set-up (lane parameters, dispatch)
/// stays negligible, and at most `cap` points (graphs keep a buffer per
/// node a block long, which must stay in cache).
pub(crate) fn block_len(n: usize, threads: usize, cap: usize) -> usize {
    n.div_ceil(threads * 8)
        .max(4096)
        .next_multiple_of(64)
        .min(cap)
        .max(1)
}

/// The one block splitter: runs `work` over consecutive blocks of `block`
/// points of the equally long slices `outs`, in parallel on the current
/// rayon pool when there is more than one block and thread, and combines
/// the results. Each output element is computed from its own point alone,
/// so the split never changes a bit.
///
/// `work` is a trait object, so that rayon's machinery is compiled once per
/// element and output type rather than once per field, kernel, dimension
/// and backend (it was 7 % of the library's LLVM IR before optimisation);
/// the one virtual call a block costs nothing next to a block's 4096 points
/// or more.
pub(crate) fn run_blocks<E: Send, O: Send>(
    outs: Vec<&mut [E]>,
    block: usize,
    work: &dyn Blocks<E, Output = O>,
) -> O {
    let n = outs.first().map_or(0, |o| o.len());
    let count = n.div_ceil(block.max(1)).max(1);
    if count == 1 {
        return work.run(0, outs);
    }
    let mut blocks: Vec<(usize, Vec<&mut [E]>)> =
        (0..count).map(|b| (b * block, Vec::new())).collect();
    for o in outs {
        for (b, chunk) in o.chunks_mut(block).enumerate() {
            blocks[b].1.push(chunk);
        }
    }
    #[cfg(feature = "rayon")]
    if threads() > 1 {
        use rayon::prelude::*;
        return blocks
            .into_par_iter()
            .map(|(start, outs)| work.run(start, outs))
            .reduce(|| work.identity(), |a, b| work.reduce(a, b));
    }
    let mut acc = work.identity();
    for (start, outs) in blocks {
        acc = work.reduce(acc, work.run(start, outs));
    }
    acc
}
