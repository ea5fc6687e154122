//! Fields whose dimension is known only at run time.
//!
//! The library fixes a field's dimension at compile time (`Field<D>`); a
//! command line learns it from an input's columns, a C caller passes it as a
//! number, a numpy array carries it in its shape. [`DynField`] is any field
//! with its dimension erased, once, behind calls on slices of run-time
//! length: single points, point arrays (one interleaved array of `n × D`
//! numbers, or one array per axis), and grids (coordinate lists per axis,
//! or a window of a uniform grid), with the gradient in either layout, in
//! `f32` or `f64`. The constructors for the library's own fields (a family
//! noise in 1D–8D, a [`Stack`](crate::Stack), a
//! [`Graph`](crate::graph::Graph)) are compiled here, once, so that front
//! ends (the command line, the C API, Python) share one erasure and one
//! interleaver, and compile none of the kernels themselves.
//!
//! ```
//! use surflet::dynamic::{DynField, Points};
//! use surflet::{Noise, NoiseKind};
//!
//! // A 3D simplex noise, its dimension chosen at run time.
//! let f = DynField::noise(NoiseKind::Simplex, 7, None, None, 3)?;
//! let points = [0.1f64, 0.2, 0.3, 1.5, -2.0, 7.25];
//! let (mut values, mut gradient) = ([0.0f64; 2], [0.0f64; 6]);
//! f.fill(Points::Interleaved(&points), &mut values, Some((&mut gradient[..]).into()))?;
//! let n = Noise::<3>::new(NoiseKind::Simplex, 7);
//! assert_eq!(values[1], n.get([1.5f64, -2.0, 7.25]));
//! assert_eq!(gradient[3..], n.sample([1.5f64, -2.0, 7.25]).gradient);
//! # Ok::<(), surflet::Error>(())
//! ```

use crate::prelude_internal::*;
use alloc::sync::Arc;
use core::marker::PhantomData;

use crate::cellular::Cellular;
use crate::error::Error;
use crate::field::Field;
use crate::float::Float;
use crate::grid::Grid;
use crate::nd::NoiseNd;
use crate::noise::{Noise, NoiseKind};
use crate::sample::Bounds;
use crate::simd::Isa;

pub use crate::erased::{DynSample, ErasedField, GradientOut, MAX_DIMS, Points, Region};

/// Any [`Field`] with its dimension chosen at run time (1 to
/// [`MAX_DIMS`]). Cheap to clone (shared), and callable from any number of
/// threads at once. Every call gives the bits of the typed field's call at
/// the same points (the `Field` methods it forwards to).
#[derive(Clone)]
pub struct DynField(Arc<dyn ErasedField>);

impl core::fmt::Debug for DynField {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "DynField({}D)", self.0.dims())
    }
}

/// A field with its dimension erased; `P` computes its single points.
struct Dim<T, const D: usize, P = Own>(T, PhantomData<P>);

/// How an erased field computes a single point.
trait PointPath: Send + Sync + 'static {
    fn sample<F: Float, T: Field<D>, const D: usize>(f: &T, p: [F; D]) -> crate::Sample<F, D>;
}

/// The field's own single-point kernel.
struct Own;

impl PointPath for Own {
    fn sample<F: Float, T: Field<D>, const D: usize>(f: &T, p: [F; D]) -> crate::Sample<F, D> {
        f.sample(p)
    }
}

/// The field's batch call on one point: for a stack behind
/// [`DynField::stack`] without the `dynamic-noise` feature, the engine its
/// grids compile anyway, rather than a second, single-point copy of every
/// kernel in every dimension and precision (the same bits; about 5 % of
/// the CPU time of the command line's first build, docs/BUILD.md).
#[cfg(any(test, not(feature = "dynamic-noise")))]
struct OneBatch;

#[cfg(any(test, not(feature = "dynamic-noise")))]
impl PointPath for OneBatch {
    fn sample<F: Float, T: Field<D>, const D: usize>(f: &T, p: [F; D]) -> crate::Sample<F, D> {
        crate::field::sample_by_fill(p, |coords, v, g| f.fill_on(Isa::Scalar, coords, v, g))
    }
}

impl<T: Field<D>, P: PointPath, const D: usize> ErasedField for Dim<T, D, P> {
    fn dims(&self) -> usize {
        D
    }
    fn range(&self) -> (f64, f64) {
        self.0.range()
    }
    fn sample_f32(&self, p: &[f32]) -> DynSample<f32> {
        sample_in::<f32, T, P, D>(&self.0, p)
    }
    fn sample_f64(&self, p: &[f64]) -> DynSample<f64> {
        sample_in::<f64, T, P, D>(&self.0, p)
    }
    fn fill_f32(
        &self,
        isa: Isa,
        points: Points<'_, f32>,
        out: &mut [f32],
        gradient: Option<GradientOut<'_, f32>>,
    ) -> Result<(), Error> {
        fill_in::<f32, T, D>(&self.0, isa, points, out, gradient)
    }
    fn fill_f64(
        &self,
        isa: Isa,
        points: Points<'_, f64>,
        out: &mut [f64],
        gradient: Option<GradientOut<'_, f64>>,
    ) -> Result<(), Error> {
        fill_in::<f64, T, D>(&self.0, isa, points, out, gradient)
    }
    fn grid_f32(
        &self,
        isa: Isa,
        region: Region<'_, f32>,
        out: &mut [f32],
        gradient: Option<GradientOut<'_, f32>>,
    ) -> Result<Bounds<f32>, Error> {
        grid_in::<f32, T, D>(&self.0, isa, region, out, gradient)
    }
    fn grid_f64(
        &self,
        isa: Isa,
        region: Region<'_, f64>,
        out: &mut [f64],
        gradient: Option<GradientOut<'_, f64>>,
    ) -> Result<Bounds<f64>, Error> {
        grid_in::<f64, T, D>(&self.0, isa, region, out, gradient)
    }
}

/// A family noise behind [`DynField::noise`]: with its own batch engine
/// where the `dynamic-noise` feature asks for it, point by point otherwise
/// (the command line evaluates family noises only at single points, and
/// its first build is most of all the library's kernels).
fn erase<T: Field<D> + 'static, const D: usize>(field: T) -> DynField {
    // Attributes, not `cfg!`: with both arms compiled the engine would be
    // instantiated whichever one runs.
    #[cfg(feature = "dynamic-noise")]
    return DynField::new(field);
    #[cfg(not(feature = "dynamic-noise"))]
    return DynField::points(field);
}

/// A field whose batch calls go point by point (see [`DynField::points`]),
/// values included: `get` is the trait's default, `sample`'s value, so one
/// single-point kernel is compiled instead of two.
struct ByPoint<T>(T);

impl<T: Field<D>, const D: usize> Field<D> for ByPoint<T> {
    fn sample<F: Float>(&self, p: [F; D]) -> crate::Sample<F, D> {
        self.0.sample(p)
    }
    fn range(&self) -> (f64, f64) {
        self.0.range()
    }
}

/// A stack behind [`DynField::stack`]: with its single-point kernels where
/// the `dynamic-noise` feature asks for them (C and Python callers sample
/// single points), through its batch engine otherwise ([`OneBatch`]).
fn erase_stack<const D: usize>(e: crate::stack::Evaluator<D>) -> DynField {
    #[cfg(feature = "dynamic-noise")]
    return DynField::new(e);
    #[cfg(not(feature = "dynamic-noise"))]
    return DynField(Arc::new(Dim::<_, D, OneBatch>(e, PhantomData)));
}

fn dims_error(what: &str, found: usize, d: usize) -> Error {
    Error::Parameter {
        name: "dimension".into(),
        reason: format!("{what} has {found} entries, but the field is {d}D"),
    }
}

fn sample_in<F: Float, T: Field<D>, P: PointPath, const D: usize>(f: &T, p: &[F]) -> DynSample<F> {
    let s = P::sample::<F, T, D>(f, array_of(|a| p[a]));
    let mut gradient = [F::ZERO; MAX_DIMS];
    gradient[..D].copy_from_slice(&s.gradient);
    DynSample {
        value: s.value,
        gradient,
    }
}

/// A buffer of `n` numbers, or the error of not having the memory.
fn buffer<F: Float>(n: usize) -> Result<Vec<F>, Error> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| Error::Memory {
        what: "working memory",
        count: n,
    })?;
    v.resize(n, F::ZERO);
    Ok(v)
}

/// Points per block when (de)interleaving in parallel.
#[cfg(feature = "rayon")]
const BLOCK: usize = 1 << 14;

/// Per-axis lists written into the interleaved `(n, D)` layout (on the
/// current rayon pool, with the feature).
fn interleave<F: Float, const D: usize>(axes: &[Vec<F>; D], out: &mut [F]) {
    #[cfg(feature = "rayon")]
    {
        use rayon::prelude::*;
        out.par_chunks_mut(BLOCK * D)
            .enumerate()
            .for_each(|(b, out)| {
                let base = b * BLOCK;
                for (k, p) in out.chunks_exact_mut(D).enumerate() {
                    for a in 0..D {
                        p[a] = axes[a][base + k];
                    }
                }
            });
    }
    #[cfg(not(feature = "rayon"))]
    for (i, p) in out.chunks_exact_mut(D).enumerate() {
        for a in 0..D {
            p[a] = axes[a][i];
        }
    }
}

/// The interleaved `(n, D)` points split into one list per axis (on the
/// current rayon pool, with the feature).
fn deinterleave<F: Float, const D: usize>(src: &[F], dst: &mut [Vec<F>; D]) {
    #[cfg(feature = "rayon")]
    {
        use rayon::prelude::*;
        let mut columns = dst.each_mut().map(|v| v.chunks_mut(BLOCK));
        let blocks = src.len().div_ceil(BLOCK * D);
        let parts: Vec<[&mut [F]; D]> = (0..blocks)
            .map(|_| {
                columns
                    .each_mut()
                    .map(|c| c.next().expect("one chunk per block"))
            })
            .collect();
        parts.into_par_iter().enumerate().for_each(|(b, cols)| {
            let src = &src[b * BLOCK * D..];
            for k in 0..cols[0].len() {
                for a in 0..D {
                    cols[a][k] = src[k * D + a];
                }
            }
        });
    }
    #[cfg(not(feature = "rayon"))]
    for (a, c) in dst.iter_mut().enumerate() {
        for (i, v) in c.iter_mut().enumerate() {
            *v = src[i * D + a];
        }
    }
}

/// Calls `run` with `gradient` as `D` per-axis slices: the caller's own,
/// or scratch lists interleaved into the caller's array afterwards.
fn with_axes<F: Float, R, const D: usize>(
    n: usize,
    gradient: Option<GradientOut<'_, F>>,
    run: impl FnOnce(Option<[&mut [F]; D]>) -> Result<R, Error>,
) -> Result<R, Error> {
    match gradient {
        None => run(None),
        Some(GradientOut::Axes(axes)) => {
            if axes.len() != D {
                return Err(dims_error("the gradient", axes.len(), D));
            }
            let mut it = axes.into_iter();
            run(Some(core::array::from_fn(|_| it.next().expect("D axes"))))
        }
        Some(GradientOut::Interleaved(out)) => {
            if out.len() != n * D {
                return Err(Error::Length {
                    what: "gradient".into(),
                    expected: n * D,
                    found: out.len(),
                });
            }
            let mut axes: [Vec<F>; D] = core::array::from_fn(|_| Vec::new());
            for a in axes.iter_mut() {
                *a = buffer(n)?;
            }
            let r = {
                let mut it = axes.iter_mut();
                run(Some(core::array::from_fn(|_| {
                    &mut it.next().expect("D lists")[..]
                })))?
            };
            interleave(&axes, out);
            Ok(r)
        }
    }
}

fn fill_in<F: Float, T: Field<D>, const D: usize>(
    f: &T,
    isa: Isa,
    points: Points<'_, F>,
    out: &mut [F],
    gradient: Option<GradientOut<'_, F>>,
) -> Result<(), Error> {
    let n = out.len();
    match points {
        Points::Axes(axes) => {
            if axes.len() != D {
                return Err(dims_error("the points", axes.len(), D));
            }
            let coords: [&[F]; D] = array_of(|a| axes[a]);
            with_axes::<F, (), D>(n, gradient, |g| f.fill_on(isa, coords, out, g))
        }
        Points::Interleaved(p) => {
            if p.len() != n * D {
                return Err(Error::Length {
                    what: "points".into(),
                    expected: n * D,
                    found: p.len(),
                });
            }
            let mut coords: [Vec<F>; D] = core::array::from_fn(|_| Vec::new());
            for c in coords.iter_mut() {
                *c = buffer(n)?;
            }
            deinterleave(p, &mut coords);
            let coords: [&[F]; D] = array_of(|a| &coords[a][..]);
            with_axes::<F, (), D>(n, gradient, |g| f.fill_on(isa, coords, out, g))
        }
    }
}

fn grid_in<F: Float, T: Field<D>, const D: usize>(
    f: &T,
    isa: Isa,
    region: Region<'_, F>,
    out: &mut [F],
    gradient: Option<GradientOut<'_, F>>,
) -> Result<Bounds<F>, Error> {
    let grid = match region {
        Region::Axes(axes) => {
            if axes.len() != D {
                return Err(dims_error("the grid's axes", axes.len(), D));
            }
            Grid::from_axes(core::array::from_fn(|a| axes[a].to_vec()))?
        }
        Region::Window {
            origin,
            step,
            start,
            shape,
        } => {
            for (what, len) in [
                ("origin", origin.len()),
                ("step", step.len()),
                ("start", start.len()),
                ("shape", shape.len()),
            ] {
                if len != D {
                    return Err(dims_error(what, len, D));
                }
            }
            Grid::window(
                array_of(|a| origin[a]),
                array_of(|a| step[a]),
                array_of(|a| start[a]),
                array_of(|a| shape[a]),
            )?
        }
    };
    let n = out.len();
    with_axes::<F, Bounds<F>, D>(n, gradient, |g| f.grid_on(isa, &grid, out, g))
}

impl DynField {
    /// Erases the dimension of `field`.
    pub fn new<T: Field<D> + 'static, const D: usize>(field: T) -> DynField {
        DynField(Arc::new(Dim::<T, D>(field, PhantomData)))
    }

    /// Erases the dimension of `field`, with its batch and grid calls made
    /// point by point through its [`Field::sample`] (values too: the
    /// `Field` trait's own batch calls, one thread, any `isa`): the same
    /// bits as [`new`](Self::new) for every field of this library, whose
    /// batch and grid calls give the bits of their points, without
    /// compiling the field's batch engine into the program. This is what
    /// [`noise`](Self::noise) does without the `dynamic-noise` feature.
    ///
    /// ```
    /// use surflet::dynamic::{DynField, Points};
    /// use surflet::{Noise, NoiseKind};
    ///
    /// let n = Noise::<2>::new(NoiseKind::Perlin, 3);
    /// let (by_point, batch) = (DynField::points(n), DynField::new(n));
    /// let p = [0.1f32, 0.2, 1.5, -2.0, 7.25, 0.5];
    /// let (mut a, mut b) = ([0.0f32; 3], [0.0f32; 3]);
    /// by_point.fill(Points::Interleaved(&p), &mut a, None)?;
    /// batch.fill(Points::Interleaved(&p), &mut b, None)?;
    /// assert_eq!(a, b);
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn points<T: Field<D> + 'static, const D: usize>(field: T) -> DynField {
        DynField::new(ByPoint(field))
    }

    /// The family noise `kind` with `seed`, in `dims` dimensions: a
    /// [`Noise`] in 1D–4D (with `period`, one entry per axis, and the
    /// `cellular` options, where given), and the kind's
    /// [`NoiseNd`] in 5D–8D, which gives the same bits in 1D–4D. Its batch
    /// and grid calls run the noise's own batch engine with the
    /// `dynamic-noise` feature, and go point by point
    /// ([`points`](Self::points), the same bits) without it.
    pub fn noise(
        kind: NoiseKind,
        seed: u64,
        period: Option<&[u32]>,
        cellular: Option<Cellular>,
        dims: usize,
    ) -> Result<DynField, Error> {
        fn build<const D: usize>(
            kind: NoiseKind,
            seed: u64,
            period: Option<&[u32]>,
            cellular: Option<Cellular>,
        ) -> Result<DynField, Error> {
            let mut n = Noise::<D>::new(kind, seed);
            if let Some(c) = cellular {
                n = n.with_cellular(c)?;
            }
            if let Some(p) = period {
                let p: [u32; D] = p
                    .try_into()
                    .map_err(|_| dims_error("the period", p.len(), D))?;
                n = n.with_period(p)?;
            }
            Ok(erase(n))
        }
        fn nd<const D: usize>(kind: crate::nd::NdKind, seed: u64) -> DynField {
            erase(NoiseNd::<D>::new(kind, seed))
        }
        match dims {
            1 => build::<1>(kind, seed, period, cellular),
            2 => build::<2>(kind, seed, period, cellular),
            3 => build::<3>(kind, seed, period, cellular),
            4 => build::<4>(kind, seed, period, cellular),
            5..=MAX_DIMS => {
                let Some(k) = kind.nd() else {
                    return Err(Error::Parameter {
                        name: "dimension".into(),
                        reason: format!("{kind} noise has 1 to 4 dimensions, not {dims}"),
                    });
                };
                if let Some(p) = period {
                    return Err(Error::Parameter {
                        name: "period".into(),
                        reason: format!(
                            "{} values, but the noise is {dims}D, and {kind} noise tiles in 1D-4D only",
                            p.len()
                        ),
                    });
                }
                if cellular.is_some() {
                    return Err(Error::Parameter {
                        name: "cellular".into(),
                        reason: "only cellular noise has cellular options".into(),
                    });
                }
                Ok(match dims {
                    5 => nd::<5>(k, seed),
                    6 => nd::<6>(k, seed),
                    7 => nd::<7>(k, seed),
                    _ => nd::<8>(k, seed),
                })
            }
            _ => Err(Error::Parameter {
                name: "dimension".into(),
                reason: format!(
                    "{kind} noise has 1 to {} dimensions, not {dims}",
                    if kind.nd().is_some() { MAX_DIMS } else { 4 }
                ),
            }),
        }
    }

    /// `stack` built in `dims` dimensions (1 to 4).
    pub fn stack(stack: &crate::stack::Stack, dims: usize) -> Result<DynField, Error> {
        Ok(match dims {
            1 => erase_stack(stack.build::<1>()?),
            2 => erase_stack(stack.build::<2>()?),
            3 => erase_stack(stack.build::<3>()?),
            4 => erase_stack(stack.build::<4>()?),
            _ => return Err(four(dims)),
        })
    }

    /// `graph` built in `dims` dimensions (1 to 4).
    pub fn graph(graph: &crate::graph::Graph, dims: usize) -> Result<DynField, Error> {
        Ok(match dims {
            1 => DynField::new(graph.build::<1>()?),
            2 => DynField::new(graph.build::<2>()?),
            3 => DynField::new(graph.build::<3>()?),
            4 => DynField::new(graph.build::<4>()?),
            _ => return Err(four(dims)),
        })
    }

    /// The dimension.
    pub fn dims(&self) -> usize {
        self.0.dims()
    }

    /// The interval every value lies in ([`Field::range`]).
    pub fn range(&self) -> (f64, f64) {
        self.0.range()
    }

    /// The value and gradient at the point `p` (its first
    /// [`dims`](Self::dims) numbers).
    ///
    /// # Panics
    /// If `p` has fewer numbers than the dimension.
    pub fn sample<F: Float>(&self, p: &[F]) -> DynSample<F> {
        assert!(p.len() >= self.dims(), "a {}D point", self.dims());
        F::dyn_sample(&*self.0, p)
    }

    /// The values at `points` into `out` (one per point) and, if asked,
    /// the gradients, on the widest instruction set available.
    pub fn fill<F: Float>(
        &self,
        points: Points<'_, F>,
        out: &mut [F],
        gradient: Option<GradientOut<'_, F>>,
    ) -> Result<(), Error> {
        self.fill_on(Isa::detect(), points, out, gradient)
    }

    /// [`fill`](Self::fill) on a chosen instruction set (every one gives
    /// the same bits).
    pub fn fill_on<F: Float>(
        &self,
        isa: Isa,
        points: Points<'_, F>,
        out: &mut [F],
        gradient: Option<GradientOut<'_, F>>,
    ) -> Result<(), Error> {
        F::dyn_fill(&*self.0, isa, points, out, gradient)
    }

    /// The values at the points of `region` (x fastest) into `out` and, if
    /// asked, the gradients; returns the values' [`Bounds`].
    pub fn grid<F: Float>(
        &self,
        region: Region<'_, F>,
        out: &mut [F],
        gradient: Option<GradientOut<'_, F>>,
    ) -> Result<Bounds<F>, Error> {
        self.grid_on(Isa::detect(), region, out, gradient)
    }

    /// [`grid`](Self::grid) on a chosen instruction set.
    pub fn grid_on<F: Float>(
        &self,
        isa: Isa,
        region: Region<'_, F>,
        out: &mut [F],
        gradient: Option<GradientOut<'_, F>>,
    ) -> Result<Bounds<F>, Error> {
        F::dyn_grid(&*self.0, isa, region, out, gradient)
    }
}

fn four(dims: usize) -> Error {
    Error::Parameter {
        name: "dimension".into(),
        reason: format!("stacks and graphs have 1 to 4 dimensions, not {dims}"),
    }
}

/// Curl noise ([`Curl`](crate::Curl)) of a [`Stack`](crate::Stack)'s
/// fractal in 2D or 3D, chosen at run time: the divergence-free vector
/// field whose potential is the stack's fractal, at the point moved by the
/// stack's [`offset`](crate::Stack::offset) (`offset / frequency` input
/// units). The stack's warp has no place in curl noise and is not used. An
/// [antialiased](crate::Stack::antialias) stack fades its potentials'
/// octaves by its footprint ([`Curl::with_footprint`](crate::Curl::with_footprint)).
///
/// ```
/// use surflet::dynamic::DynCurl;
/// use surflet::Stack;
/// let stack = Stack::from_toml_str("noise = \"perlin\"\n[fractal]\noctaves = 3")?;
/// let curl = DynCurl::stack(&stack, 3)?;
/// let v = curl.get_f64(&[0.5, 0.25, 1.0]);
/// assert!(v.iter().all(|c| c.is_finite()));
/// # Ok::<(), surflet::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct DynCurl(CurlDims);

#[derive(Clone, Debug)]
enum CurlDims {
    D2(crate::curl::Curl<2>, [f64; 2]),
    D3(crate::curl::Curl<3>, [f64; 3]),
}

impl DynCurl {
    /// The curl noise of `stack`'s fractal in `dims` dimensions (2 or 3).
    pub fn stack(stack: &crate::stack::Stack, dims: usize) -> Result<DynCurl, Error> {
        fn build<const D: usize>(
            stack: &crate::stack::Stack,
        ) -> Result<(crate::curl::Curl<D>, [f64; D]), Error> {
            // The evaluator's fractal is unmoved (the offset lives in the
            // evaluator's octaves), so the points are moved instead.
            let e = stack.build::<D>()?;
            let shift = array_of(|a| {
                stack
                    .offset
                    .as_ref()
                    .map_or(0.0, |o| o[a] / stack.frequency)
            });
            let curl = crate::curl::Curl::new(e.fractal().clone());
            // `build` refused an antialiased stack without a footprint.
            let curl = match (stack.antialias, stack.footprint) {
                (true, Some(f)) => curl.with_footprint(f),
                _ => curl,
            };
            Ok((curl, shift))
        }
        Ok(DynCurl(match dims {
            2 => {
                let (c, shift) = build(stack)?;
                CurlDims::D2(c, shift)
            }
            3 => {
                let (c, shift) = build(stack)?;
                CurlDims::D3(c, shift)
            }
            _ => {
                return Err(Error::Parameter {
                    name: "dimension".into(),
                    reason: format!("curl noise is 2D or 3D, not {dims}D"),
                });
            }
        }))
    }

    /// The dimension, 2 or 3.
    pub fn dims(&self) -> usize {
        match self.0 {
            CurlDims::D2(..) => 2,
            CurlDims::D3(..) => 3,
        }
    }

    /// The curl vector at the first [`dims`](Self::dims) numbers of `p`
    /// (its first `dims` entries; a 2D curl's third is 0).
    pub fn get_f64(&self, p: &[f64]) -> [f64; 3] {
        self.get(p)
    }

    /// [`get_f64`](Self::get_f64) in `f32`: the point moved by the offset
    /// in `f64` and rounded once to `f32`, then evaluated in `f32`.
    pub fn get_f32(&self, p: &[f32]) -> [f32; 3] {
        self.get(p)
    }

    fn get<F: Float>(&self, p: &[F]) -> [F; 3] {
        fn go<F: Float, const D: usize>(
            c: &crate::curl::Curl<D>,
            shift: &[f64; D],
            p: &[F],
        ) -> [F; 3] {
            // Zero shifts are skipped: x + 0.0 would turn −0.0 into 0.0.
            let q: [F; D] = array_of(|a| {
                if shift[a] == 0.0 {
                    p[a]
                } else {
                    F::from_f64(p[a].to_f64() + shift[a])
                }
            });
            let v = c.get(q);
            array_of(|a| if a < D { v[a] } else { F::ZERO })
        }
        match &self.0 {
            CurlDims::D2(c, shift) => go(c, shift, p),
            CurlDims::D3(c, shift) => go(c, shift, p),
        }
    }
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::*;
    use crate::stack::{Evaluator, Stack};

    /// `OneBatch`'s single points (a batch call on one point) have the
    /// bits of the stack's single-point kernels, values and gradients.
    fn by_batch_is_sample<F: Float, const D: usize>(e: &Evaluator<D>, what: &str) {
        let erased = DynField(Arc::new(Dim::<_, D, OneBatch>(e.clone(), PhantomData)));
        for i in 0..60 {
            let p: [F; D] =
                array_of(|a| F::from_f64(((i * 7919 + a * 104_729) % 1013) as f64 * 0.0173 - 8.3));
            let (want, got) = (e.sample(p), OneBatch::sample(e, p));
            let bits = |s: &crate::Sample<F, D>| {
                (
                    s.value.to_f64().to_bits(),
                    s.gradient.map(|g| g.to_f64().to_bits()),
                )
            };
            assert_eq!(bits(&got), bits(&want), "{what} at {p:?}");
            let dynamic = erased.sample(&p);
            let dynamic = crate::Sample {
                value: dynamic.value,
                gradient: array_of(|a| dynamic.gradient[a]),
            };
            assert_eq!(bits(&dynamic), bits(&want), "{what} through DynField");
        }
    }

    fn each_dims<const D: usize>(stack: &Stack, what: &str) {
        // A kind that has no D-dimensional form is not built.
        if let Ok(e) = stack.build::<D>() {
            by_batch_is_sample::<f32, D>(&e, &format!("{what} {D}D f32"));
            by_batch_is_sample::<f64, D>(&e, &format!("{what} {D}D f64"));
        }
    }

    #[test]
    fn single_points_through_the_batch_engine_keep_their_bits() {
        for kind in NoiseKind::ALL {
            for extra in ["", "[warp]\namplitude = 0.5\n"] {
                let toml = format!("noise = \"{kind}\"\n[fractal]\noctaves = 3\n{extra}");
                let stack = Stack::from_toml_str(&toml).unwrap();
                each_dims::<1>(&stack, &toml);
                each_dims::<2>(&stack, &toml);
                each_dims::<3>(&stack, &toml);
                each_dims::<4>(&stack, &toml);
            }
        }
    }
}
