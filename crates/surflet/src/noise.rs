//! The surflet noise family: the public [`Noise`] type.

use crate::batch::{self, Dest, Lanes, Rows, Source, Work};
use crate::cellular::Cellular;
use crate::error::Error;
use crate::field::Field;
use crate::float::Float;
use crate::grid::Grid;
use crate::kernel::LaneParams;
use crate::kernel::band::RowCache;
use crate::kernel::cellular::CellLanes;
use crate::kernel::select::Kernel;
use crate::prelude_internal::*;
use crate::sample::{Bounds, Sample};
use crate::simd::Call;
use crate::simd::scalar::{Round, Scalar};
use crate::simd::{self, Isa, Simd};

pub use crate::kind::NoiseKind;

pub use crate::kind::MAX_PERIOD;

/// A seeded noise field in `D` dimensions (1 to 4).
///
/// Cheap to create and copy; evaluate it one point at a time
/// ([`get`](Self::get), [`sample`](Self::sample)) or in SIMD batches
/// through the [`Field`](crate::Field) trait ([`fill`](crate::Field::fill),
/// [`grid`](crate::Field::grid) and their `_gradient` and `_on` forms),
/// which is the one batch surface of every field. Single points and
/// batches return identical bits.
///
/// ```
/// use surflet::{Noise, NoiseKind};
/// let noise = Noise::<3>::new(NoiseKind::Simplex, 42);
/// let s = noise.sample([0.5f64, 1.25, -3.0]);
/// assert!(s.value.abs() <= 1.0);
/// // The gradient is the true derivative of the value.
/// let h = 1e-6;
/// let dx = (noise.get([0.5 + h, 1.25, -3.0]) - noise.get([0.5 - h, 1.25, -3.0])) / (2.0 * h);
/// assert!((dx - s.gradient[0]).abs() < 1e-6);
/// ```
///
/// **Seeds.** The `u64` seed is mapped to a 32-bit lattice key by SplitMix64
/// (`key = splitmix64(seed) >> 32`); corner `c` of the lattice then hashes to
/// `mix(key ^ c.x·P₀ ^ c.y·P₁ ^ …)` with fixed odd multipliers `Pₐ`. This
/// mapping is frozen by golden tests.
///
/// **No repetition.** Lattice cells are taken modulo 2^32 (by exact float
/// arithmetic, so no coordinate can overflow), so without a period no noise
/// repeats within 2^31 cells of any point along any axis.
///
/// **Non-finite input.** NaN or ±∞ in any coordinate gives NaN value and
/// gradient.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Noise<const D: usize> {
    kind: NoiseKind,
    seed: u64,
    key: u32,
    period: Option<[u32; D]>,
    /// Read by cellular noise only; the default for the other kinds.
    cellular: Cellular,
}

impl<const D: usize> Noise<D> {
    const DIMENSION_OK: () = assert!(D >= 1 && D <= 4, "surflet noise has 1 to 4 dimensions");

    /// A noise of the given kind and seed, without a period.
    pub const fn new(kind: NoiseKind, seed: u64) -> Self {
        let () = Self::DIMENSION_OK;
        Noise {
            kind,
            seed,
            key: crate::seed::key(seed),
            period: None,
            cellular: Cellular::DEFAULT,
        }
    }

    /// Sets the options of cellular noise (the defaults are euclidean
    /// distance, `f1`, jitter 1). Fails if the kind is not
    /// [`Cellular`](NoiseKind::Cellular).
    ///
    /// ```
    /// use surflet::{Cellular, CellularDistance, CellularReturn, Noise, NoiseKind};
    /// let params = Cellular::new(CellularDistance::Chebyshev, CellularReturn::F2, 0.8)?;
    /// let n = Noise::<3>::new(NoiseKind::Cellular, 1).with_cellular(params)?;
    /// assert_eq!(n.cellular(), Some(params));
    /// assert!(Noise::<3>::new(NoiseKind::Perlin, 1).with_cellular(params).is_err());
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn with_cellular(self, params: Cellular) -> Result<Self, Error> {
        if self.kind != NoiseKind::Cellular {
            return Err(Error::Parameter {
                name: "cellular options".into(),
                reason: format!("{} noise has none (only cellular noise does)", self.kind),
            });
        }
        Ok(Noise {
            cellular: params,
            ..self
        })
    }

    /// The cellular options, for cellular noise (`None` for other kinds).
    ///
    /// ```
    /// use surflet::{Cellular, Noise, NoiseKind};
    /// assert_eq!(Noise::<2>::new(NoiseKind::Cellular, 1).cellular(), Some(Cellular::default()));
    /// assert_eq!(Noise::<2>::new(NoiseKind::Simplex, 1).cellular(), None);
    /// ```
    pub fn cellular(&self) -> Option<Cellular> {
        (self.kind == NoiseKind::Cellular).then_some(self.cellular)
    }

    /// The same noise (kind and options) with another seed and no period:
    /// what fractal octaves and warp components start from.
    pub(crate) fn reseeded(&self, seed: u64) -> Self {
        Noise {
            seed,
            key: crate::seed::key(seed),
            period: None,
            ..*self
        }
    }

    /// The noise's lane parameters.
    #[inline(always)]
    pub(crate) fn field<S: Simd>(&self, s: S) -> LaneParams<S> {
        let mut f = LaneParams::new(s, self.key, self.period4());
        if self.kind == NoiseKind::Cellular {
            f.cell = CellLanes::new(s, D, &self.cellular);
        }
        f
    }

    /// Makes the noise tile: `f(p + P·k) = f(p)` exactly for every integer
    /// vector `k`, where `P` holds one period per axis, in lattice cells.
    ///
    /// Periods must be in `1..=65536`. Value and Perlin noise tile in every
    /// dimension. Simplex and simplex value noise tile in 1D–3D: in 3D on the
    /// same lattice as without a period; in 2D on a hexagonal lattice whose
    /// rows are offset by half a cell, so the y period must be even (see
    /// `ARCHITECTURE.md`).
    ///
    /// ```
    /// use surflet::{Noise, NoiseKind};
    /// let n = Noise::<2>::new(NoiseKind::Perlin, 3).with_period([16, 8])?;
    /// // Exact wherever p + P·k is representable, as here:
    /// assert_eq!(n.get([0.375f64, 0.75]), n.get([16.375, -7.25]));
    /// assert!(Noise::<2>::new(NoiseKind::Simplex, 3).with_period([16, 7]).is_err());
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn with_period(self, period: [u32; D]) -> Result<Self, Error> {
        self.kind.check_period(&period)?;
        Ok(Noise {
            period: Some(period),
            ..self
        })
    }

    /// The noise kind.
    pub const fn kind(&self) -> NoiseKind {
        self.kind
    }
    /// The seed.
    pub const fn seed(&self) -> u64 {
        self.seed
    }
    /// The period, if any.
    pub const fn period(&self) -> Option<[u32; D]> {
        self.period
    }

    /// The value at `p`.
    #[inline]
    pub fn get<F: Float>(&self, p: [F; D]) -> F {
        simd::one_lane(Point::<F, D, false> { noise: self, p }).0
    }

    /// The value and its analytic gradient at `p`.
    #[inline]
    pub fn sample<F: Float>(&self, p: [F; D]) -> Sample<F, D> {
        let (value, gradient) = simd::one_lane(Point::<F, D, true> { noise: self, p });
        Sample { value, gradient }
    }

    pub(crate) fn period4(&self) -> [u32; 4] {
        let mut p = [0u32; 4];
        if let Some(per) = self.period {
            p[..D].copy_from_slice(&per);
        }
        p
    }

    /// Evaluates on lanes, dispatching on the kind at run time (a predictable
    /// branch; batch loops hoist it instead). For the octaves of a program,
    /// `cache` is the grid row the points lie on, if any (see
    /// [`Kernel::eval_row`]). The slow kernels ([`Kernel::OUTLINE`]), every
    /// kernel on a fallback backend ([`Simd::FALLBACK`]) and with debug
    /// assertions every kernel are called through [`Simd::outline`]: a
    /// program's entry point inlines every other kind's kernel, and an
    /// unoptimised build's frame would hold them all at once.
    #[inline(always)]
    pub(crate) fn eval_lanes_row<S: Simd, const ROWS: bool>(
        &self,
        s: S,
        field: &LaneParams<S>,
        p: [S::F; D],
        cache: Option<&mut RowCache<S, D>>,
    ) -> (S::F, [S::F; D]) {
        let period = self.period4();
        macro_rules! row {
            ($k:ty) => {{
                if cfg!(debug_assertions) || S::FALLBACK || <$k as Kernel<D>>::OUTLINE {
                    s.outline(RowCall::<S, $k, D, ROWS> {
                        field,
                        period: &period,
                        p,
                        cache,
                        kernel: core::marker::PhantomData,
                    })
                } else {
                    <$k as Kernel<D>>::eval_row::<S, ROWS>(s, field, &period, p, cache)
                }
            }};
        }
        with_kernel!(self, K => row!(K))
    }
}

/// One kernel's [`Kernel::eval_row`] as a [`Call`], for
/// [`Noise::eval_lanes_row`]'s kernels out of line and for the
/// per-lane path of a fractal's octave pass.
pub(crate) struct RowCall<'a, 'c, S: Simd, K, const D: usize, const ROWS: bool> {
    pub field: &'a LaneParams<S>,
    pub period: &'a [u32; 4],
    pub p: [S::F; D],
    pub cache: Option<&'c mut RowCache<S, D>>,
    pub kernel: core::marker::PhantomData<fn() -> K>,
}

impl<S: Simd, K: Kernel<D>, const D: usize, const ROWS: bool> Call<S>
    for RowCall<'_, '_, S, K, D, ROWS>
{
    type Output = (S::F, [S::F; D]);
    #[inline(always)]
    fn call(self, s: S) -> Self::Output {
        K::eval_row::<S, ROWS>(s, self.field, self.period, self.p, self.cache)
    }
}

/// One kernel's [`Kernel::eval_cached`] as a [`Call`], for the batch
/// loops of builds with debug assertions (see [`Simd::outline`]).
#[cfg(debug_assertions)]
struct CachedCall<'a, 'c, S: Simd, K: Kernel<D>, const D: usize> {
    field: &'a LaneParams<S>,
    period: &'a [u32; 4],
    p: [S::F; D],
    cache: &'c mut K::Cache<S>,
}

#[cfg(debug_assertions)]
impl<S: Simd, K: Kernel<D>, const D: usize> Call<S> for CachedCall<'_, '_, S, K, D> {
    type Output = (S::F, [S::F; D]);
    #[inline(always)]
    fn call(self, s: S) -> Self::Output {
        K::eval_cached(s, self.field, self.period, self.p, self.cache)
    }
}

/// One kernel's [`Kernel::row`] as a [`Call`], run out of line (see
/// [`Simd::outline`]).
struct RowRunCall<'a, 'c, S: Simd, K: Kernel<D>, const D: usize, const GRAD: bool> {
    field: &'a LaneParams<S>,
    period: &'a [u32; 4],
    xs: &'a [S::E],
    dest: Dest<'a, 'c, S>,
    cache: &'a mut K::Cache<S>,
}

impl<S: Simd, K: Kernel<D>, const D: usize, const GRAD: bool> Call<S>
    for RowRunCall<'_, '_, S, K, D, GRAD>
{
    type Output = bool;
    #[inline(always)]
    fn call(self, s: S) -> bool {
        K::row::<S, GRAD>(s, self.field, self.period, self.xs, self.dest, self.cache)
    }
}

/// One kernel's [`Kernel::rows`] as a [`Call`], run out of line (see
/// [`Simd::outline`]).
struct RowsRunCall<'a, 'c, S: Simd, K: Kernel<D>, const D: usize, const GRAD: bool> {
    field: &'a LaneParams<S>,
    period: &'a [u32; 4],
    run: Rows<'a, S::E, D>,
    dest: Dest<'a, 'c, S>,
    cache: &'a mut K::Cache<S>,
}

impl<S: Simd, K: Kernel<D>, const D: usize, const GRAD: bool> Call<S>
    for RowsRunCall<'_, '_, S, K, D, GRAD>
{
    type Output = bool;
    #[inline(always)]
    fn call(self, s: S) -> bool {
        K::rows::<S, GRAD>(s, self.field, self.period, self.run, self.dest, self.cache)
    }
}

/// A noise kernel on lanes, with or without the gradient, keeping the
/// kernel's cache from one vector to the next.
struct NoiseLanes<'a, S: Simd, K: Kernel<D>, const D: usize, const GRAD: bool> {
    field: &'a LaneParams<S>,
    period: [u32; 4],
    cache: core::cell::RefCell<K::Cache<S>>,
}

impl<S: Simd, const D: usize, K: Kernel<D>, const GRAD: bool> Lanes<S, D>
    for NoiseLanes<'_, S, K, D, GRAD>
{
    #[inline(always)]
    fn start_row(&self, rest: [S::E; D]) {
        K::start_row(&mut self.cache.borrow_mut(), rest);
    }
    #[inline(always)]
    fn row(&self, s: S, xs: &[S::E], dest: Dest<'_, '_, S>) -> bool {
        if !K::ROW {
            return false;
        }
        let mut cache = self.cache.borrow_mut();
        // Out of line, once per row: the call costs less than a second
        // inlined copy of the kernel in every entry point costs in build
        // time.
        s.outline(RowRunCall::<S, K, D, GRAD> {
            field: self.field,
            period: &self.period,
            xs,
            dest,
            cache: &mut cache,
        })
    }
    #[inline(always)]
    fn rows(&self, s: S, run: Rows<'_, S::E, D>, dest: Dest<'_, '_, S>) -> bool {
        if !K::ROWS {
            return false;
        }
        let mut cache = self.cache.borrow_mut();
        // Out of line, once per run of rows.
        s.outline(RowsRunCall::<S, K, D, GRAD> {
            field: self.field,
            period: &self.period,
            run,
            dest,
            cache: &mut cache,
        })
    }
    #[inline(always)]
    fn outputs(&self) -> usize {
        if GRAD { 1 + D } else { 1 }
    }
    #[inline(always)]
    fn eval(&self, s: S, p: [S::F; D], r: &mut [S::F; 5]) {
        let mut cache = self.cache.borrow_mut();
        #[cfg(debug_assertions)]
        let (v, g) = s.outline(CachedCall::<S, K, D> {
            field: self.field,
            period: &self.period,
            p,
            cache: &mut cache,
        });
        #[cfg(not(debug_assertions))]
        let (v, g) = K::eval_cached(s, self.field, &self.period, p, &mut cache);
        r[0] = v;
        if GRAD {
            // Not `copy_from_slice`: on vector lanes it compiles to an
            // out-of-line memcpy in the hot loop.
            #[allow(clippy::manual_memcpy)]
            for a in 0..D {
                r[1 + a] = g[a];
            }
        }
    }
}

impl<const D: usize> Field<D> for Noise<D> {
    #[inline]
    fn sample<F: Float>(&self, p: [F; D]) -> Sample<F, D> {
        Noise::sample(self, p)
    }
    /// Every family noise is exactly normalised to `[-1, 1]`.
    fn range(&self) -> (f64, f64) {
        (-1.0, 1.0)
    }
    #[inline]
    fn get<F: Float>(&self, p: [F; D]) -> F {
        Noise::get(self, p)
    }
    /// ```
    /// use surflet::{Field, Noise, NoiseKind};
    /// let n = Noise::<2>::new(NoiseKind::Simplex, 1);
    /// let xs: Vec<f32> = (0..100).map(|i| i as f32 * 0.1).collect();
    /// let ys = vec![0.5f32; 100];
    /// let mut out = vec![0.0f32; 100];
    /// n.fill([&xs, &ys], &mut out)?;
    /// assert_eq!(out[17], n.get([xs[17], 0.5]));
    /// # Ok::<(), surflet::Error>(())
    /// ```
    fn fill_on<F: Float>(
        &self,
        isa: Isa,
        coords: [&[F]; D],
        out: &mut [F],
        gradient: Option<[&mut [F]; D]>,
    ) -> Result<(), Error> {
        by_kind!(self, src => batch::fill_points(src, isa, coords, out, gradient))
    }
    /// ```
    /// use surflet::{Field, Grid, Noise, NoiseKind};
    /// let n = Noise::<3>::new(NoiseKind::Perlin, 5);
    /// let grid = Grid::uniform([0.0f64; 3], [0.1; 3], [40, 30, 20])?;
    /// let mut out = vec![0.0; grid.len()];
    /// let b = n.grid(&grid, &mut out)?;
    /// assert_eq!(out[1234], n.get(grid.point(1234)));
    /// assert!(b.min <= out[1234] && out[1234] <= b.max);
    /// # Ok::<(), surflet::Error>(())
    /// ```
    fn grid_on<F: Float>(
        &self,
        isa: Isa,
        grid: &Grid<F, D>,
        out: &mut [F],
        gradient: Option<[&mut [F]; D]>,
    ) -> Result<Bounds<F>, Error> {
        let grad = gradient.is_some();
        let outs = batch::batch_outs(out, gradient);
        batch::check(isa, grid.len(), &outs, true)?;
        let work = Work::Grid {
            axes: grid.axes(),
            start: 0,
        };
        let bounds = by_kind!(self, src => batch::drive(src, isa, grad, work, outs));
        Ok(batch::grid_bounds(bounds))
    }
}

/// One kind's kernel as a batch source. The kind is matched before the
/// backend is chosen ([`by_kind`]), so each backend's `#[target_feature]`
/// entry point holds one kernel. With the match inside, an unoptimised
/// build (a user's debug build instantiates these generics in their crate)
/// would give every kind's inlined kernel its own stack slots in one
/// frame, more than a 2 MiB rayon worker stack holds.
struct KindSource<'a, K, const D: usize> {
    noise: &'a Noise<D>,
    kernel: core::marker::PhantomData<fn() -> K>,
}

impl<'a, K, const D: usize> KindSource<'a, K, D> {
    fn new(noise: &'a Noise<D>) -> Self {
        KindSource {
            noise,
            kernel: core::marker::PhantomData,
        }
    }
}

impl<F: Float, K: Kernel<D>, const D: usize> Source<F, D> for KindSource<'_, K, D> {
    #[inline(always)]
    fn run<S: Simd<E = F>>(
        &self,
        s: S,
        grad: bool,
        work: Work<'_, F, D>,
        outs: &mut [&mut [F]],
    ) -> (F, F) {
        let field = self.noise.field(s);
        let period = self.noise.period4();
        let cache = K::new_cache(s, matches!(work, Work::Grid { .. }));
        if grad {
            let l = NoiseLanes::<S, K, D, true> {
                field: &field,
                period,
                cache: core::cell::RefCell::new(cache),
            };
            batch::exec(s, &l, work, outs)
        } else {
            let l = NoiseLanes::<S, K, D, false> {
                field: &field,
                period,
                cache: core::cell::RefCell::new(cache),
            };
            batch::exec(s, &l, work, outs)
        }
    }
}

pub(crate) use crate::kind::with_kernel;

/// Evaluates `$body` with `$src` bound to the [`KindSource`] of `$noise`'s
/// kind (and whether it is periodic).
macro_rules! by_kind {
    ($noise:expr, $src:ident => $body:expr) => {{
        let noise = $noise;
        macro_rules! arm {
            ($k:ty) => {{
                let $src = &KindSource::<$k, D>::new(noise);
                $body
            }};
        }
        with_kernel!(noise, K => arm!(K))
    }};
}
use by_kind;

#[cfg(all(test, feature = "std"))]
impl<const D: usize> Noise<D> {
    /// A batch call on backend `s`, for the performance model's counting
    /// backend (`crate::model`).
    pub(crate) fn run_on<F: Float, S: Simd<E = F>>(
        &self,
        s: S,
        grad: bool,
        work: Work<'_, F, D>,
        outs: &mut [&mut [F]],
    ) -> (F, F) {
        by_kind!(self, src => src.run(s, grad, work, outs))
    }
}

/// One point on one lane ([`simd::one_lane`]); the gradient only if `GRAD`
/// (else it is left zero and its arithmetic is never emitted).
struct Point<'a, F, const D: usize, const GRAD: bool> {
    noise: &'a Noise<D>,
    p: [F; D],
}

impl<F: Float, const D: usize, const GRAD: bool> simd::OneOp<F> for Point<'_, F, D, GRAD> {
    type Output = (F, [F; D]);
    #[inline(always)]
    fn run<R: Round>(self, s: Scalar<F, R>) -> (F, [F; D]) {
        let field = self.noise.field(s);
        let (value, gradient) = self
            .noise
            .eval_lanes_row::<_, false>(s, &field, self.p, None);
        (value, if GRAD { gradient } else { [F::ZERO; D] })
    }
}
