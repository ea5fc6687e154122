//! Static kernel selection: one zero-sized type per (noise, periodic) pair, so
//! a batch loop is monomorphised for exactly one kernel.

use super::band::{OctaveMap, OctaveSink, RowCache, grid_row, grid_rows, octave_rows};
use super::cellular::CellCache;
use super::hypercube::hypercube;
use super::opensimplex::opensimplex;
use super::simplex::{simplex1, simplex2, simplex2_hex, simplex3, simplex4};
use super::{LaneParams, resize};
use crate::batch::{Dest, Rows};
use crate::simd::Simd;

/// A noise kernel in `D` dimensions.
pub(crate) trait Kernel<const D: usize>: Copy {
    /// Whether [`row`](Self::row), [`rows`](Self::rows) and
    /// [`octave_rows`](Self::octave_rows) have a path: where not, the batch
    /// loop does not ask for one.
    const ROWS: bool = false;
    /// Whether [`row`](Self::row) has a path (every kernel with
    /// [`ROWS`](Self::ROWS), and some without the others).
    const ROW: bool = Self::ROWS;
    /// Whether a program's octaves call the kernel out of line
    /// ([`Noise::eval_lanes_row`](crate::noise::Noise::eval_lanes_row)):
    /// the slow kernels, whose work per vector (cubic value noise's 4^D
    /// lattice values, OpenSimplex2S's dozens of surflets in 3D and 4D)
    /// dwarfs a call. Inlined, each made every program entry point larger,
    /// and the optimiser's time grows faster than a function's size. The
    /// fast kernels stay inline: out of line, 3D simplex octaves ran 30 %
    /// slower, and 2D OpenSimplex2S 13 %.
    const OUTLINE: bool = false;
    /// What a batch keeps between vectors (see [`eval_cached`](Self::eval_cached)).
    type Cache<S: Simd>;
    /// A cache for a batch; `grid` says whether its lanes are rows of a
    /// grid (where sharing pays).
    fn new_cache<S: Simd>(s: S, grid: bool) -> Self::Cache<S>;
    /// See [`Lanes::start_row`](crate::batch::Lanes::start_row).
    #[inline(always)]
    fn start_row<S: Simd>(cache: &mut Self::Cache<S>, rest: [S::E; D]) {
        let _ = (cache, rest);
    }
    /// See [`Lanes::row`](crate::batch::Lanes::row).
    #[inline(always)]
    fn row<S: Simd, const GRAD: bool>(
        s: S,
        field: &LaneParams<S>,
        period: &[u32; 4],
        xs: &[S::E],
        dest: Dest<'_, '_, S>,
        cache: &mut Self::Cache<S>,
    ) -> bool {
        let _ = (s, field, period, xs, dest, cache);
        false
    }
    /// See [`Lanes::rows`](crate::batch::Lanes::rows).
    #[inline(always)]
    fn rows<S: Simd, const GRAD: bool>(
        s: S,
        field: &LaneParams<S>,
        period: &[u32; 4],
        run: Rows<'_, S::E, D>,
        dest: Dest<'_, '_, S>,
        cache: &mut Self::Cache<S>,
    ) -> bool {
        let _ = (s, field, period, run, dest, cache);
        false
    }
    /// One octave over whole grid rows into `sink` (see
    /// [`octave_rows`](super::band::octave_rows)); `false`, having
    /// sent nothing, where the kernel has no such path.
    #[inline(always)]
    fn octave_rows<S: Simd, const GRAD: bool, Sk: OctaveSink<S, D>>(
        s: S,
        field: &LaneParams<S>,
        run: Rows<'_, S::E, D>,
        map: &OctaveMap<S, D>,
        cache: &mut RowCache<S, D>,
        sink: &mut Sk,
    ) -> bool {
        let _ = (s, field, run, map, cache, sink);
        false
    }
    fn eval<S: Simd>(s: S, field: &LaneParams<S>, p: [S::F; D]) -> (S::F, [S::F; D]);
    /// [`eval`](Self::eval) with lattice work shared between the lanes and
    /// vectors of a batch through `cache` where the kernel can (the same
    /// bits). `period` holds the noise's periods (0 if none).
    #[inline(always)]
    fn eval_cached<S: Simd>(
        s: S,
        field: &LaneParams<S>,
        period: &[u32; 4],
        p: [S::F; D],
        cache: &mut Self::Cache<S>,
    ) -> (S::F, [S::F; D]) {
        let _ = (period, cache);
        Self::eval(s, field, p)
    }
    /// [`eval`](Self::eval) for the octaves of a program, told the grid row
    /// the points lie on (`row`) where there is one (the per-lane path of
    /// an octave pass; no kernel needs it there). `ROWS` is false where
    /// `row` is always `None` (single points, point batches), so that what
    /// only a row uses is not compiled there.
    #[inline(always)]
    fn eval_row<S: Simd, const ROWS: bool>(
        s: S,
        field: &LaneParams<S>,
        _period: &[u32; 4],
        p: [S::F; D],
        _row: Option<&mut RowCache<S, D>>,
    ) -> (S::F, [S::F; D]) {
        Self::eval(s, field, p)
    }
}

/// Value (`PERLIN = false`) and Perlin (`PERLIN = true`) noise: the
/// lattice hypercube's corners blended by the quintic fade, with row and
/// octave paths for grids.
#[derive(Clone, Copy)]
pub(crate) struct HypercubeK<const PERLIN: bool, const P: bool>;
#[derive(Clone, Copy)]
pub(crate) struct SimplexK<const P: bool>;
#[derive(Clone, Copy)]
pub(crate) struct SimplexValueK<const P: bool>;

impl<const D: usize, const PERLIN: bool, const P: bool> Kernel<D> for HypercubeK<PERLIN, P> {
    const ROWS: bool = true;
    type Cache<S: Simd> = RowCache<S, D>;
    #[inline(always)]
    fn new_cache<S: Simd>(s: S, _: bool) -> RowCache<S, D> {
        RowCache::new(s)
    }
    #[inline(always)]
    fn start_row<S: Simd>(cache: &mut RowCache<S, D>, rest: [S::E; D]) {
        cache.start_row(rest);
    }
    #[inline(always)]
    fn row<S: Simd, const GRAD: bool>(
        s: S,
        field: &LaneParams<S>,
        _: &[u32; 4],
        xs: &[S::E],
        dest: Dest<'_, '_, S>,
        cache: &mut RowCache<S, D>,
    ) -> bool {
        grid_row::<S, D, PERLIN, P, GRAD>(s, field, xs, dest, cache)
    }
    #[inline(always)]
    fn rows<S: Simd, const GRAD: bool>(
        s: S,
        field: &LaneParams<S>,
        _: &[u32; 4],
        run: Rows<'_, S::E, D>,
        dest: Dest<'_, '_, S>,
        cache: &mut RowCache<S, D>,
    ) -> bool {
        grid_rows::<S, D, PERLIN, P, GRAD>(s, field, run, dest, cache)
    }
    #[inline(always)]
    fn octave_rows<S: Simd, const GRAD: bool, Sk: OctaveSink<S, D>>(
        s: S,
        field: &LaneParams<S>,
        run: Rows<'_, S::E, D>,
        map: &OctaveMap<S, D>,
        cache: &mut RowCache<S, D>,
        sink: &mut Sk,
    ) -> bool {
        // The period is `map`'s, at run time: a program's octave passes
        // take the plain kernel type for periodic noises too (one copy of
        // the row loops, not two).
        debug_assert!(map.periodic || !P);
        octave_rows::<S, D, PERLIN, GRAD, Sk>(s, field, run, map, cache, sink);
        true
    }
    #[inline(always)]
    fn eval<S: Simd>(s: S, field: &LaneParams<S>, p: [S::F; D]) -> (S::F, [S::F; D]) {
        hypercube::<S, D, PERLIN, P>(s, field, p)
    }
}

#[inline(always)]
fn simplex_family<S: Simd, const D: usize, const VALUE: bool, const P: bool>(
    s: S,
    field: &LaneParams<S>,
    p: [S::F; D],
) -> (S::F, [S::F; D]) {
    let z = s.zero();
    match D {
        1 => {
            let (v, d) = simplex1::<S, VALUE, P>(s, field, resize(&p, z));
            (v, resize(&d, z))
        }
        2 => {
            let (v, d) = if P {
                simplex2_hex::<S, VALUE>(s, field, resize(&p, z))
            } else {
                simplex2::<S, VALUE>(s, field, resize(&p, z))
            };
            (v, resize(&d, z))
        }
        3 => {
            let (v, d) = simplex3::<S, VALUE, P>(s, field, resize(&p, z));
            (v, resize(&d, z))
        }
        // Periodic 4D is rejected when the noise is configured.
        _ => {
            let (v, d) = simplex4::<S, VALUE>(s, field, resize(&p, z));
            (v, resize(&d, z))
        }
    }
}

impl<const D: usize, const P: bool> Kernel<D> for SimplexK<P> {
    type Cache<S: Simd> = ();
    #[inline(always)]
    fn new_cache<S: Simd>(_: S, _: bool) {}
    #[inline(always)]
    fn eval<S: Simd>(s: S, field: &LaneParams<S>, p: [S::F; D]) -> (S::F, [S::F; D]) {
        simplex_family::<S, D, false, P>(s, field, p)
    }
}

impl<const D: usize, const P: bool> Kernel<D> for SimplexValueK<P> {
    type Cache<S: Simd> = ();
    #[inline(always)]
    fn new_cache<S: Simd>(_: S, _: bool) {}
    #[inline(always)]
    fn eval<S: Simd>(s: S, field: &LaneParams<S>, p: [S::F; D]) -> (S::F, [S::F; D]) {
        simplex_family::<S, D, true, P>(s, field, p)
    }
}

/// OpenSimplex2 (`SUPER = false`) and OpenSimplex2S (`SUPER = true`), which
/// have no period.
#[derive(Clone, Copy)]
pub(crate) struct OpenSimplexK<const SUPER: bool>;

impl<const D: usize, const SUPER: bool> Kernel<D> for OpenSimplexK<SUPER> {
    const OUTLINE: bool = SUPER && D >= 3;
    type Cache<S: Simd> = ();
    #[inline(always)]
    fn new_cache<S: Simd>(_: S, _: bool) {}
    #[inline(always)]
    fn eval<S: Simd>(s: S, field: &LaneParams<S>, p: [S::F; D]) -> (S::F, [S::F; D]) {
        opensimplex::<S, D, SUPER>(s, field, p)
    }
}

#[derive(Clone, Copy)]
pub(crate) struct CellularK<const P: bool>;

impl<const D: usize, const P: bool> Kernel<D> for CellularK<P> {
    const ROW: bool = true;
    type Cache<S: Simd> = CellCache<S, D>;
    #[inline(always)]
    fn new_cache<S: Simd>(_: S, grid: bool) -> CellCache<S, D> {
        // The tables are for lanes along x with the other axes fixed.
        CellCache::new(grid)
    }
    #[inline(always)]
    fn start_row<S: Simd>(cache: &mut CellCache<S, D>, rest: [S::E; D]) {
        cache.start_row(rest);
    }
    #[inline(always)]
    fn row<S: Simd, const GRAD: bool>(
        s: S,
        field: &LaneParams<S>,
        _: &[u32; 4],
        xs: &[S::E],
        dest: Dest<'_, '_, S>,
        cache: &mut CellCache<S, D>,
    ) -> bool {
        super::cellular::grid_row::<S, D, P, GRAD>(s, field, xs, dest, cache)
    }
    #[inline(always)]
    fn eval<S: Simd>(s: S, field: &LaneParams<S>, p: [S::F; D]) -> (S::F, [S::F; D]) {
        super::cellular::cellular::<S, D, P>(s, field, p)
    }
    #[inline(always)]
    fn eval_row<S: Simd, const ROWS: bool>(
        s: S,
        field: &LaneParams<S>,
        _: &[u32; 4],
        p: [S::F; D],
        row: Option<&mut RowCache<S, D>>,
    ) -> (S::F, [S::F; D]) {
        // A fractal's octave on a grid row: its own tables. Under a constant
        // `if`, so that single points do not compile the table search (a
        // fortieth of the library's code in the command line's build).
        // Kept apart: the mono-item collector skips a branch on a constant alone.
        #[allow(clippy::collapsible_if)]
        if ROWS {
            if let Some(row) = row {
                return super::cellular::tabled_out::<S, D, P>(s, field, p, &mut row.cell);
            }
        }
        // Out of line too: a program inlines every kind's `eval_row`, and
        // the search is the largest of them.
        super::cellular::cellular_out::<S, D, P>(s, field, p)
    }
}
