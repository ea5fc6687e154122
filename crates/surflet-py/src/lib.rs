//! `surflet._surflet`: the compiled half of the Python module `surflet`.
//!
//! Two classes, [`Noise`] (one family noise) and [`Stack`] (a noise stack
//! from a config), each with `sample` (points in, values out) and `grid`
//! (a uniform grid, x as the last axis like an image). Both take numpy
//! arrays of `float32` or `float64` and return the same dtype; the work runs
//! with the GIL released, on rayon threads, through the same library calls
//! as the `surflet` command line, so the bits are the same.
//!
//! Data flow: the Python object is read into Rust buffers while the GIL is
//! held (cheap views, no copies of the caller's arrays); then, with the GIL
//! released, the points are transposed into one coordinate list per axis,
//! the library fills the values and gradient, and the gradient is
//! interleaved into the `(..., D)` layout numpy users expect.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use numpy::ndarray::{ArrayD, ArrayViewD, IxDyn};
use numpy::{
    Element, IntoPyArray, PyArrayDescr, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods,
    PyReadonlyArrayDyn, PyReadwriteArrayDyn, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use surflet::document::Document;
use surflet::dynamic::{DynField, GradientOut, Points, Region};
use surflet::stack::keys::{KEYS, Key, Value, has_table};
use surflet::{Float, NoiseKind};

/// Something that compiles to a field in a dimension chosen at run time
/// (the library's [`DynField`]).
trait Desc: Sync {
    fn build(&self, dims: usize) -> PyResult<DynField>;
}

fn value_error(e: impl ToString) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The library's error as a Python exception: `MemoryError` for memory that
/// could not be had, `ValueError` for the rest.
fn library_error(e: surflet::Error) -> PyErr {
    match e {
        surflet::Error::Memory { .. } => PyMemoryError::new_err(e.to_string()),
        e => value_error(e),
    }
}

// ---------------------------------------------------------------------------
// Arguments shared by both classes.

/// A seed as the command line takes it: any integer from -2^63 to 2^64-1,
/// a negative `n` meaning `2^64 + n` (the same two's-complement bits).
fn seed_from(seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    if seed.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err("the seed must be an int, not a bool"));
    }
    let index = seed.py().import("operator")?.getattr("index")?;
    let as_int = index.call1((seed,)).map_err(|_| {
        PyTypeError::new_err(format!("the seed must be an int, not {}", type_name(seed)))
    })?;
    let range = || {
        value_error(format!(
            "the seed {as_int} is out of range: seeds are integers from -2^63 to 2^64-1"
        ))
    };
    let v: i128 = as_int.extract().map_err(|_| range())?;
    if !(-(1i128 << 63)..1i128 << 64).contains(&v) {
        return Err(range());
    }
    Ok(v as u64)
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// A thread count: `None` is rayon's global pool (one thread per core).
///
/// Pools are kept per count and per calling thread, so a `threads=` call
/// costs no thread start-up after the first, and two Python threads that
/// each ask for one thread get one each rather than queueing on a shared
/// one.
fn pool(threads: Option<isize>) -> PyResult<Option<Arc<rayon::ThreadPool>>> {
    thread_local! {
        static POOLS: RefCell<HashMap<usize, Arc<rayon::ThreadPool>>> = RefCell::new(HashMap::new());
    }
    let Some(n) = threads else { return Ok(None) };
    if !(1..=1024).contains(&n) {
        return Err(value_error(format!("threads must be in 1..=1024, got {n}")));
    }
    let n = n as usize;
    POOLS.with_borrow_mut(|pools| {
        if let Some(p) = pools.get(&n) {
            return Ok(Some(p.clone()));
        }
        let p = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("surflet-{i}"))
            .build()
            .map_err(|e| value_error(format!("cannot start {n} threads: {e}")))?;
        let p = Arc::new(p);
        pools.insert(n, p.clone());
        Ok(Some(p))
    })
}

fn run_in<T: Send>(pool: &Option<Arc<rayon::ThreadPool>>, f: impl FnOnce() -> T + Send) -> T {
    match pool {
        Some(p) => p.install(f),
        None => f(),
    }
}

/// The floating-point types the module computes in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Precision {
    F32,
    F64,
}

fn precision_of(dtype: &Bound<'_, PyArrayDescr>) -> Option<Precision> {
    let py = dtype.py();
    if dtype.is_equiv_to(&numpy::dtype::<f32>(py)) {
        Some(Precision::F32)
    } else if dtype.is_equiv_to(&numpy::dtype::<f64>(py)) {
        Some(Precision::F64)
    } else {
        None
    }
}

/// The points as a numpy array of `float32` or `float64`: those two pass
/// through as they are (any strides, read-only included); integer arrays and
/// other real floats are converted to `float64`; anything else is a
/// `TypeError`.
fn points_array<'py>(
    points: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyUntypedArray>, Precision)> {
    let py = points.py();
    let np = py.import("numpy")?;
    let arr = match points.cast::<PyUntypedArray>() {
        Ok(a) => a.clone(),
        Err(_) => np
            .getattr("asarray")?
            .call1((points,))?
            .cast_into::<PyUntypedArray>()?,
    };
    if let Some(p) = precision_of(&arr.dtype()) {
        return Ok((arr, p));
    }
    let kind = arr.dtype().kind();
    if matches!(kind, b'i' | b'u' | b'f') {
        let converted = np
            .getattr("asarray")?
            .call1((arr, numpy::dtype::<f64>(py)))?
            .cast_into::<PyUntypedArray>()?;
        return Ok((converted, Precision::F64));
    }
    Err(PyTypeError::new_err(format!(
        "points must be real numbers (a float or integer array), not dtype {}",
        arr.dtype()
    )))
}

/// The dtype of a grid: `dtype=` if given, else that of `out=`, else
/// `float64`.
fn grid_precision(
    py: Python<'_>,
    dtype: Option<&Bound<'_, PyAny>>,
    out: Option<&Bound<'_, PyAny>>,
) -> PyResult<Precision> {
    let descr = match (dtype, out) {
        (Some(d), _) => {
            let np = py.import("numpy")?;
            np.getattr("dtype")?
                .call1((d,))?
                .cast_into::<PyArrayDescr>()?
        }
        (None, Some(o)) => match o.cast::<PyUntypedArray>() {
            Ok(a) => a.dtype(),
            Err(_) => return Err(out_type_error(o)),
        },
        (None, None) => return Ok(Precision::F64),
    };
    precision_of(&descr).ok_or_else(|| {
        PyTypeError::new_err(format!(
            "surflet computes in float32 or float64, not {descr}"
        ))
    })
}

fn out_type_error(o: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!("out must be a numpy array, not {}", type_name(o)))
}

/// A caller's output array: the right type, shape and dtype, writable and
/// C-contiguous (so it is filled in place, without a copy). The borrow is
/// checked by numpy's borrow tracking, so an `out=` that overlaps the points
/// is an error rather than undefined behaviour.
fn out_array<'py, F: Element>(
    out: &Bound<'py, PyAny>,
    what: &str,
    shape: &[usize],
) -> PyResult<PyReadwriteArrayDyn<'py, F>> {
    let Ok(untyped) = out.cast::<PyUntypedArray>() else {
        return Err(out_type_error(out));
    };
    let want = numpy::dtype::<F>(out.py());
    if !untyped.dtype().is_equiv_to(&want) {
        return Err(PyTypeError::new_err(format!(
            "{what} has dtype {}, expected {want}",
            untyped.dtype()
        )));
    }
    if untyped.shape() != shape {
        return Err(value_error(format!(
            "{what} has shape {}, expected {}",
            shape_str(untyped.shape()),
            shape_str(shape)
        )));
    }
    if !untyped.is_c_contiguous() {
        return Err(value_error(format!("{what} must be C-contiguous")));
    }
    untyped
        .cast::<PyArrayDyn<F>>()?
        .try_readwrite()
        .map_err(|e| value_error(format!("{what} cannot be written: {e}")))
}

/// Where results go: fresh buffers, or the caller's arrays.
struct Outs<'py, F: Element> {
    values: Option<PyReadwriteArrayDyn<'py, F>>,
    gradient: Option<PyReadwriteArrayDyn<'py, F>>,
}

impl<'py, F: Element> Outs<'py, F> {
    fn new(
        out: Option<&Bound<'py, PyAny>>,
        gradient: bool,
        value_shape: &[usize],
        gradient_shape: &[usize],
    ) -> PyResult<Self> {
        let Some(out) = out.filter(|o| !o.is_none()) else {
            return Ok(Outs {
                values: None,
                gradient: None,
            });
        };
        if gradient {
            let pair = out
                .cast::<PyTuple>()
                .ok()
                .filter(|t| t.len() == 2)
                .ok_or_else(|| {
                    PyTypeError::new_err(
                        "with gradient=True, out must be a pair (values, gradient) of numpy arrays",
                    )
                })?;
            let values = out_array::<F>(&pair.get_item(0)?, "out[0]", value_shape)?;
            let gradient = out_array::<F>(&pair.get_item(1)?, "out[1]", gradient_shape)?;
            Ok(Outs {
                values: Some(values),
                gradient: Some(gradient),
            })
        } else {
            Ok(Outs {
                values: Some(out_array::<F>(out, "out", value_shape)?),
                gradient: None,
            })
        }
    }
}

impl<F: Element + Copy + Default> Outs<'_, F> {
    /// The buffers to fill: the caller's arrays, or fresh vectors of `n`
    /// values and, with `gradient`, `grad_len()` gradient entries.
    fn buffers(
        &mut self,
        gradient: bool,
        n: usize,
        grad_len: impl FnOnce() -> PyResult<usize>,
    ) -> PyResult<(Buf<'_, F>, Option<Buf<'_, F>>)> {
        let values = match &mut self.values {
            Some(a) => theirs(a)?,
            None => Buf::Ours(new_buf(n)?),
        };
        let grad = match (&mut self.gradient, gradient) {
            (Some(a), _) => Some(theirs(a)?),
            (None, true) => Some(Buf::Ours(new_buf(grad_len()?)?)),
            (None, false) => None,
        };
        Ok((values, grad))
    }
}

/// A buffer to fill: the caller's array, or a fresh vector.
enum Buf<'a, F> {
    Theirs(&'a mut [F]),
    Ours(Vec<F>),
}

impl<F: Copy + Default> Buf<'_, F> {
    fn slice(&mut self) -> &mut [F] {
        match self {
            Buf::Theirs(s) => s,
            Buf::Ours(v) => v,
        }
    }
}

fn theirs<'a, F: Element>(arr: &'a mut PyReadwriteArrayDyn<'_, F>) -> PyResult<Buf<'a, F>> {
    arr.as_slice_mut().map(Buf::Theirs).map_err(value_error)
}

fn new_buf<F: Copy + Default>(n: usize) -> PyResult<Vec<F>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| PyMemoryError::new_err(format!("cannot allocate {n} values")))?;
    v.resize(n, F::default());
    Ok(v)
}

/// Hands results back to Python: the caller's arrays, or new ones of the
/// given shapes made from our buffers without a copy.
fn finish<'py, F: Element>(
    py: Python<'py>,
    outs: Outs<'py, F>,
    values: Option<Vec<F>>,
    gradient: Option<Vec<F>>,
    value_shape: &[usize],
    gradient_shape: &[usize],
) -> PyResult<Py<PyAny>> {
    let wrap = |v: Vec<F>, shape: &[usize]| -> PyResult<Py<PyAny>> {
        let a = ArrayD::from_shape_vec(IxDyn(shape), v).map_err(value_error)?;
        Ok(a.into_pyarray(py).into_any().unbind())
    };
    let v = match (outs.values, values) {
        (Some(a), _) => a.as_any().clone().unbind(),
        (None, v) => wrap(v.unwrap_or_default(), value_shape)?,
    };
    let g = match (outs.gradient, gradient) {
        (Some(a), _) => Some(a.as_any().clone().unbind()),
        (None, Some(g)) => Some(wrap(g, gradient_shape)?),
        (None, None) => None,
    };
    match g {
        Some(g) => Ok(PyTuple::new(py, [v, g])?.into_any().unbind()),
        None => Ok(v),
    }
}

// ---------------------------------------------------------------------------
// sample: points in, values out.

fn sample<T: Desc>(
    desc: &T,
    points: &Bound<'_, PyAny>,
    gradient: bool,
    out: Option<&Bound<'_, PyAny>>,
    threads: Option<isize>,
) -> PyResult<Py<PyAny>> {
    let (arr, precision) = points_array(points)?;
    let shape = arr.shape().to_vec();
    let d = shape.last().copied().unwrap_or(0);
    if !(1..=4).contains(&d) {
        return Err(value_error(format!(
            "points must have shape (..., D) with D from 1 to 4 (one coordinate per axis), \
             got shape {}",
            shape_str(&shape)
        )));
    }
    let pool = pool(threads)?;
    let field = desc.build(d)?;
    match precision {
        Precision::F32 => {
            let a = arr.cast::<PyArrayDyn<f32>>()?.readonly();
            sample_typed::<f32>(&field, &a, gradient, out, &pool)
        }
        Precision::F64 => {
            let a = arr.cast::<PyArrayDyn<f64>>()?.readonly();
            sample_typed::<f64>(&field, &a, gradient, out, &pool)
        }
    }
}

fn shape_str(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn sample_typed<F: Float + Element>(
    field: &DynField,
    points: &PyReadonlyArrayDyn<'_, F>,
    gradient: bool,
    out: Option<&Bound<'_, PyAny>>,
    pool: &Option<Arc<rayon::ThreadPool>>,
) -> PyResult<Py<PyAny>> {
    let py = points.py();
    let d = field.dims();
    let view: ArrayViewD<'_, F> = points.as_array();
    let gradient_shape = view.shape().to_vec();
    let value_shape = gradient_shape[..gradient_shape.len() - 1].to_vec();
    let n: usize = value_shape.iter().product();
    let mut outs = Outs::<F>::new(out, gradient, &value_shape, &gradient_shape)?;
    let (mut values, mut grad) = outs.buffers(gradient, n, || Ok(n * d))?;
    let result = py.detach(|| {
        run_in(pool, || {
            // Strided and non-native layouts are copied to C order first.
            let standard = view.as_standard_layout();
            let flat = standard.as_slice().expect("standard layout is contiguous");
            let g = grad.as_mut().map(|g| GradientOut::Interleaved(g.slice()));
            field.fill(Points::Interleaved(flat), values.slice(), g)
        })
    });
    result.map_err(library_error)?;
    let (values, grad) = (ours(values), grad.and_then(ours));
    finish(py, outs, values, grad, &value_shape, &gradient_shape)
}

fn ours<F>(b: Buf<'_, F>) -> Option<Vec<F>> {
    match b {
        Buf::Ours(v) => Some(v),
        Buf::Theirs(_) => None,
    }
}

// ---------------------------------------------------------------------------
// grid: a uniform grid, x as the last axis.

struct GridArgs {
    origin: Vec<f64>,
    step: Vec<f64>,
    shape: Vec<usize>,
    start: Vec<usize>,
}

fn grid_args(
    origin: Vec<f64>,
    step: Vec<f64>,
    shape: Vec<i128>,
    start: Option<Vec<i128>>,
) -> PyResult<GridArgs> {
    let d = origin.len();
    if !(1..=4).contains(&d) {
        return Err(value_error(format!(
            "origin has {d} coordinates; a grid has 1 to 4 dimensions"
        )));
    }
    if step.len() != d || shape.len() != d {
        return Err(value_error(format!(
            "origin, step and shape must have the same length, got {}, {} and {}",
            d,
            step.len(),
            shape.len()
        )));
    }
    let start = start.unwrap_or_else(|| vec![0; d]);
    if start.len() != d {
        return Err(value_error(format!(
            "start has {} entries, expected {d}",
            start.len()
        )));
    }
    let counts = |v: Vec<i128>, what: &str| -> PyResult<Vec<usize>> {
        v.into_iter()
            .map(|n| {
                usize::try_from(n).map_err(|_| {
                    value_error(format!(
                        "{what} entries must be non-negative integers that fit in memory \
                         addresses, got {n}"
                    ))
                })
            })
            .collect()
    };
    let (shape, start) = (counts(shape, "shape")?, counts(start, "start")?);
    Ok(GridArgs {
        origin,
        step,
        shape,
        start,
    })
}

fn grid<T: Desc>(
    py: Python<'_>,
    desc: &T,
    args: GridArgs,
    gradient: bool,
    out: Option<&Bound<'_, PyAny>>,
    dtype: Option<&Bound<'_, PyAny>>,
    threads: Option<isize>,
) -> PyResult<Py<PyAny>> {
    let precision = grid_precision(py, dtype, out)?;
    let pool = pool(threads)?;
    let field = desc.build(args.shape.len())?;
    match precision {
        Precision::F32 => grid_typed::<f32>(py, &field, &args, gradient, out, &pool),
        Precision::F64 => grid_typed::<f64>(py, &field, &args, gradient, out, &pool),
    }
}

fn grid_typed<F: Float + Element>(
    py: Python<'_>,
    field: &DynField,
    args: &GridArgs,
    gradient: bool,
    out: Option<&Bound<'_, PyAny>>,
    pool: &Option<Arc<rayon::ThreadPool>>,
) -> PyResult<Py<PyAny>> {
    let d = field.dims();
    // Python's shape is (..., ny, nx): axis 0 of the library is the last.
    let rev = |v: &[usize]| -> Vec<usize> { v.iter().rev().copied().collect() };
    let origin: Vec<F> = args.origin.iter().map(|&v| F::from_f64(v)).collect();
    let step: Vec<F> = args.step.iter().map(|&v| F::from_f64(v)).collect();
    let (start, shape) = (rev(&args.start), rev(&args.shape));
    let value_shape = args.shape.clone();
    let mut gradient_shape = value_shape.clone();
    gradient_shape.push(d);
    // The library's words for a grid past the address space (Grid::new).
    let too_large = || {
        value_error(format!(
            "{:?} points do not fit in memory addresses",
            args.shape
        ))
    };
    let n = shape
        .iter()
        .try_fold(1usize, |n, &s| n.checked_mul(s))
        .ok_or_else(too_large)?;
    let mut outs = Outs::<F>::new(out, gradient, &value_shape, &gradient_shape)?;
    let grad_len = || n.checked_mul(d).ok_or_else(too_large);
    let (mut values, mut grad) = outs.buffers(gradient, n, grad_len)?;
    let result = py.detach(|| {
        run_in(pool, || {
            // The origin and step are x first already, as the library's.
            let region = Region::Window {
                origin: &origin,
                step: &step,
                start: &start,
                shape: &shape,
            };
            let g = grad.as_mut().map(|g| GradientOut::Interleaved(g.slice()));
            field.grid(region, values.slice(), g).map(|_| ())
        })
    });
    result.map_err(library_error)?;
    let (values, grad) = (ours(values), grad.and_then(ours));
    finish(py, outs, values, grad, &value_shape, &gradient_shape)
}

// ---------------------------------------------------------------------------
// The classes.

/// One family noise: a kind, a seed and optionally a period per axis.
///
/// `Noise(name, seed=0, period=None, distance=None, ret=None,
/// jitter=None)`: `name` is one of `NOISES` (the names `surflet sample`
/// accepts); `seed` any integer from -2^63 to 2^64-1 (a negative `n` is the
/// seed `2^64 + n`, as on the command line); `period` one integer in
/// 1..=65536 per axis, in lattice cells, to make the noise tile. The
/// dimension is that of the points it is given. `distance`, `ret` and
/// `jitter` are cellular noise's options (`surflet sample --distance`,
/// `--return`, `--jitter`; defaults "euclidean", "f1", 1.0), an error for
/// other noises.
#[pyclass(module = "surflet", frozen)]
struct Noise {
    kind: NoiseKind,
    seed: u64,
    period: Option<Vec<u32>>,
    /// Cellular noise's options; `None` for the other kinds.
    cellular: Option<surflet::Cellular>,
}

impl Desc for Noise {
    fn build(&self, dims: usize) -> PyResult<DynField> {
        if let Some(p) = self.period.as_ref().filter(|p| p.len() != dims) {
            return Err(value_error(format!(
                "the period has {} entries, but the noise is evaluated in {dims}D",
                p.len()
            )));
        }
        DynField::noise(
            self.kind,
            self.seed,
            self.period.as_deref(),
            self.cellular,
            dims,
        )
        .map_err(library_error)
    }
}

fn period_from(period: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<u32>>> {
    let Some(period) = period.filter(|p| !p.is_none()) else {
        return Ok(None);
    };
    let items: Vec<Bound<'_, PyAny>> = period
        .try_iter()
        .map_err(|_| PyTypeError::new_err("period must be a sequence of ints, one per axis"))?
        .collect::<PyResult<_>>()?;
    if !(1..=4).contains(&items.len()) {
        return Err(value_error(format!(
            "the period takes 1 to 4 values (one per axis), got {}",
            items.len()
        )));
    }
    items
        .iter()
        .enumerate()
        .map(|(axis, item)| {
            let v: i128 = item.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "period[{axis}] must be an int, not {}",
                    type_name(item)
                ))
            })?;
            if !(1..=surflet::MAX_PERIOD as i128).contains(&v) {
                return Err(value_error(format!(
                    "period on axis {axis} is {v}: periods must be in 1..={}",
                    surflet::MAX_PERIOD
                )));
            }
            Ok(v as u32)
        })
        .collect::<PyResult<Vec<u32>>>()
        .map(Some)
}

#[pymethods]
impl Noise {
    #[new]
    #[pyo3(signature = (name, seed = None, period = None, distance = None, ret = None, jitter = None))]
    fn new(
        name: &str,
        seed: Option<&Bound<'_, PyAny>>,
        period: Option<&Bound<'_, PyAny>>,
        distance: Option<&str>,
        ret: Option<&str>,
        jitter: Option<f64>,
    ) -> PyResult<Self> {
        let kind = NoiseKind::from_name(name).map_err(value_error)?;
        let cellular = if kind == NoiseKind::Cellular {
            let d = surflet::Cellular::default();
            let distance = match distance {
                Some(n) => surflet::CellularDistance::from_name(n).map_err(value_error)?,
                None => d.distance,
            };
            let ret = match ret {
                Some(n) => surflet::CellularReturn::from_name(n).map_err(value_error)?,
                None => d.ret,
            };
            let jitter = jitter.unwrap_or(d.jitter());
            Some(surflet::Cellular::new(distance, ret, jitter).map_err(value_error)?)
        } else {
            let given = [
                ("distance", distance.is_some()),
                ("ret", ret.is_some()),
                ("jitter", jitter.is_some()),
            ];
            if let Some((arg, _)) = given.iter().find(|g| g.1) {
                return Err(value_error(format!(
                    "{arg} is an option of cellular noise only, not of {name} noise"
                )));
            }
            None
        };
        let seed = match seed {
            Some(s) => seed_from(s)?,
            None => 0,
        };
        let period = period_from(period)?;
        if let Some(p) = &period {
            // Checks what does not depend on the points (periodic
            // dimensions, the even y period of 2D simplex) now, not at the
            // first call.
            let probe = Noise {
                kind,
                seed,
                period: Some(p.clone()),
                cellular,
            };
            probe.build(p.len())?;
        }
        Ok(Noise {
            kind,
            seed,
            period,
            cellular,
        })
    }

    /// The noise's name, as `surflet sample` takes it.
    #[getter]
    fn name(&self) -> &'static str {
        self.kind.name()
    }

    /// The seed, as an unsigned 64-bit integer.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The period per axis, or None.
    #[getter]
    fn period(&self) -> Option<Vec<u32>> {
        self.period.clone()
    }

    /// Cellular noise's distance ("euclidean", ...), or None.
    #[getter]
    fn distance(&self) -> Option<&'static str> {
        self.cellular.map(|c| c.distance.name())
    }

    /// Cellular noise's return value ("f1", ...), or None.
    #[getter]
    fn ret(&self) -> Option<&'static str> {
        self.cellular.map(|c| c.ret.name())
    }

    /// Cellular noise's jitter, or None.
    #[getter]
    fn jitter(&self) -> Option<f64> {
        self.cellular.map(|c| c.jitter())
    }

    fn __repr__(&self) -> String {
        let mut s = format!("surflet.Noise({:?}, seed={}", self.kind.name(), self.seed);
        if let Some(p) = &self.period {
            let p: Vec<String> = p.iter().map(|v| v.to_string()).collect();
            s += &format!(
                ", period=({}{})",
                p.join(", "),
                if p.len() == 1 { "," } else { "" }
            );
        }
        if let Some(c) = self.cellular {
            s += &format!(
                ", distance={:?}, ret={:?}, jitter={:?}",
                c.distance.name(),
                c.ret.name(),
                c.jitter()
            );
        }
        s + ")"
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Noise>().is_ok_and(|o| {
            let o = o.get();
            o.kind == self.kind
                && o.seed == self.seed
                && o.period == self.period
                && o.cellular == self.cellular
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.kind, self.seed, &self.period, self.cellular).hash(&mut h);
        h.finish()
    }

    /// Pickling (Dask sends fields to its workers this way).
    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let me = slf.get();
        let c = me.cellular;
        let args = (
            me.kind.name(),
            me.seed,
            me.period.clone(),
            c.map(|c| c.distance.name()),
            c.map(|c| c.ret.name()),
            c.map(|c| c.jitter()),
        );
        Ok((slf.get_type(), args)
            .into_pyobject(py)?
            .into_any()
            .unbind())
    }
}

/// A noise stack (a fractal of a noise, optionally domain-warped), as
/// `surflet render --config` and `surflet sample --config` read it.
///
/// Make one with `Stack.from_toml`, `Stack.from_json` or `Stack.from_dict`,
/// from a config file of any front end (`render --save-config`, `sample
/// --save-config`, the explorer's export); `to_toml`, `to_json` and
/// `to_dict` write it back with `version = 2`, keeping its `[view]`,
/// `[pixels]` and `[animation]` tables, so the command line renders the same
/// picture from either file. It evaluates at world coordinates (the stack's
/// `frequency` applies).
#[pyclass(module = "surflet", frozen)]
struct Stack {
    /// The document, upgraded to version 2, without a graph.
    doc: Document,
}

impl Desc for Stack {
    fn build(&self, dims: usize) -> PyResult<DynField> {
        DynField::stack(&self.doc.stack, dims).map_err(library_error)
    }
}

/// A noise graph: noises, stacks, arithmetic, remapping, selection and
/// domain transforms, as `surflet render --expr` and `[graph]` configs
/// describe it.
///
/// Make one with `Graph.parse` (the expression language of `surflet help
/// graphs`) or from a config holding a `[graph]` table
/// (`Graph.from_toml`, `from_json`, `from_dict`); `to_expr`, `to_toml`,
/// `to_json` and `to_dict` give it back. It evaluates at world coordinates,
/// with the same bits as the command line.
#[pyclass(module = "surflet", frozen)]
struct Graph {
    /// The document, upgraded to version 2, with a graph.
    doc: Document,
}

impl Desc for Graph {
    fn build(&self, dims: usize) -> PyResult<DynField> {
        let graph = self.doc.graph.as_ref().expect("a Graph holds a graph");
        DynField::graph(graph, dims).map_err(library_error)
    }
}

fn json_module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    py.import("json")
}

/// What the two config classes share: which documents they hold, and
/// the document's forms.
trait Config: Sized {
    /// Whether the class holds documents with a graph.
    const GRAPH: bool;
    fn new(doc: Document) -> Self;
    fn doc(&self) -> &Document;

    /// The class's object for a parsed document, upgraded (so that written
    /// back it keeps its pixels), or why it belongs to the other class.
    fn read(parsed: Result<Document, surflet::Error>, how: &str) -> PyResult<Self> {
        let doc = parsed.map_err(value_error)?;
        match (doc.graph.is_some(), Self::GRAPH) {
            (true, false) => Err(value_error(format!(
                "this config holds a [graph], not a stack: read it with surflet.Graph.{how}"
            ))),
            (false, true) => Err(value_error(format!(
                "this config holds a noise stack, not a [graph]: read it with \
                 surflet.Stack.{how}"
            ))),
            _ => Ok(Self::new(doc.upgraded())),
        }
    }

    fn from_dict(py: Python<'_>, d: &Bound<'_, PyAny>) -> PyResult<Self> {
        if d.cast::<PyDict>().is_err() {
            return Err(PyTypeError::new_err(format!(
                "from_dict takes a dict, not {}",
                type_name(d)
            )));
        }
        let text: String = json_module(py)?
            .getattr("dumps")?
            .call1((d,))
            .map_err(|e| PyTypeError::new_err(format!("the dict is not a config: {e}")))?
            .extract()?;
        // The JSON text is the module's own, so its line and column would
        // only confuse: the key at fault names the place.
        let parsed = Document::from_json(&text).map_err(|e| match e {
            surflet::Error::Config { key, message } => surflet::Error::Config {
                key,
                message: without_position(&message).to_string(),
            },
            e => e,
        });
        Self::read(parsed, "from_dict")
    }

    fn to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let text = self.doc().to_json().map_err(value_error)?;
        Ok(json_module(py)?.getattr("loads")?.call1((text,))?.unbind())
    }

    /// `table` (`view`, `pixels` or `animation`) as a dict.
    fn table(&self, py: Python<'_>, table: &str) -> PyResult<Py<PyAny>> {
        let all = self.to_dict(py)?;
        let all = all.bind(py);
        match all.get_item(table) {
            Ok(t) => Ok(t.unbind()),
            Err(_) => Ok(PyDict::new(py).into_any().unbind()),
        }
    }
}

impl Config for Stack {
    const GRAPH: bool = false;
    fn new(doc: Document) -> Stack {
        Stack { doc }
    }
    fn doc(&self) -> &Document {
        &self.doc
    }
}

impl Config for Graph {
    const GRAPH: bool = true;
    fn new(doc: Document) -> Graph {
        Graph { doc }
    }
    fn doc(&self) -> &Document {
        &self.doc
    }
}

/// The config methods, the same on both classes (a second `#[pymethods]`
/// block per class).
macro_rules! config_methods {
    ($ty:ty) => {
        #[pymethods]
        impl $ty {
            /// From a TOML config, as `--save-config` writes it (a file
            /// without `version` is read as version 1 and upgraded).
            #[staticmethod]
            fn from_toml(text: &str) -> PyResult<Self> {
                Self::read(Document::from_toml(text), "from_toml")
            }

            /// From a JSON config.
            #[staticmethod]
            fn from_json(text: &str) -> PyResult<Self> {
                Self::read(Document::from_json(text), "from_json")
            }

            /// From a dict with the keys of a JSON config.
            #[staticmethod]
            #[pyo3(name = "from_dict")]
            fn py_from_dict(py: Python<'_>, d: &Bound<'_, PyAny>) -> PyResult<Self> {
                <Self as Config>::from_dict(py, d)
            }

            /// The config as TOML, `version = 2` first; `from_toml` reads it
            /// back unchanged and `surflet render --config` draws it.
            fn to_toml(&self) -> PyResult<String> {
                self.doc.to_toml().map_err(value_error)
            }

            /// The config as JSON; `from_json` reads it back unchanged.
            fn to_json(&self) -> PyResult<String> {
                self.doc.to_json().map_err(value_error)
            }

            /// The config as a dict; `from_dict` reads it back unchanged.
            #[pyo3(name = "to_dict")]
            fn py_to_dict(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
                <Self as Config>::to_dict(self, py)
            }

            /// The config's `[view]` table as a dict (empty if it has none):
            /// the picture's size, origin and scale, for `surflet render`.
            #[getter]
            fn view(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
                self.table(py, "view")
            }

            /// The config's `[pixels]` table as a dict (empty if it has
            /// none).
            #[getter]
            fn pixels(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
                self.table(py, "pixels")
            }

            /// The config's `[animation]` table as a dict (empty if it has
            /// none).
            #[getter]
            fn animation(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
                self.table(py, "animation")
            }

            fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
                other.cast::<Self>().is_ok_and(|o| o.get().doc == self.doc)
            }

            /// Pickling, through the JSON config (which round-trips
            /// exactly).
            fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
                let py = slf.py();
                let from_json = slf.get_type().getattr("from_json")?;
                let text = slf.get().to_json()?;
                Ok((from_json, (text,)).into_pyobject(py)?.into_any().unbind())
            }
        }
    };
}
config_methods!(Stack);
config_methods!(Graph);

/// A stack key's Python keyword: its dotted path with `_` for `.`
/// (`fractal_octaves`), and `ret` for `return`, a Python keyword (as
/// `Noise` spells it).
fn keyword(key: &Key) -> String {
    match key.path {
        "return" => "ret".to_string(),
        path => path.replace('.', "_"),
    }
}

#[pymethods]
impl Stack {
    /// A stack from its keys as keyword arguments, one per row of the
    /// library's key schema (`Stack.KEYWORDS`): `Stack(noise="simplex",
    /// fractal_octaves=6, warp_kind="single")`. Values are what a JSON
    /// config holds at the key's path, and are checked by the same reader;
    /// keys left out keep their defaults. `Stack(**s.keys())` is `s`'s
    /// stack.
    #[new]
    #[pyo3(signature = (**keys))]
    fn new(py: Python<'_>, keys: Option<&Bound<'_, PyDict>>) -> PyResult<Stack> {
        // The keywords go to their places in a config's dict, and the
        // config reader (the one every front end uses) does the rest: no
        // key is known here but through its row.
        let Some(keys) = keys.filter(|k| !k.is_empty()) else {
            // A config with no key is refused as a likely mistake; a call
            // with none asks for the defaults.
            return Ok(Stack {
                doc: Document::default(),
            });
        };
        // A new stack, not an old file: version 2, with no [view] to keep.
        let doc = PyDict::new(py);
        doc.set_item("version", surflet::document::VERSION)?;
        for (k, v) in keys.iter() {
            let k: String = k.extract()?;
            let Some(key) = KEYS.iter().find(|key| keyword(key) == k) else {
                let all: Vec<String> = KEYS.iter().map(keyword).collect();
                return Err(PyTypeError::new_err(format!(
                    "Stack() got an unexpected keyword argument '{k}'; the keys are {}",
                    all.join(", ")
                )));
            };
            // JSON has no NaN or infinity to carry one to the reader.
            let floats = match v.cast::<pyo3::types::PyList>() {
                Ok(list) => list.iter().collect(),
                Err(_) => vec![v.clone()],
            };
            for x in floats {
                let x = x.cast::<pyo3::types::PyFloat>().map_or(0.0, |x| x.value());
                if !x.is_finite() {
                    return Err(value_error(format!("{k}: must be finite, got {x}")));
                }
            }
            let mut table = doc.clone();
            let mut path = key.path.split('.').peekable();
            while let Some(part) = path.next() {
                if path.peek().is_none() {
                    table.set_item(part, &v)?;
                    break;
                }
                table = match table.get_item(part)? {
                    Some(t) => t.cast_into::<PyDict>()?,
                    None => {
                        let t = PyDict::new(py);
                        table.set_item(part, &t)?;
                        t
                    }
                };
            }
        }
        <Self as Config>::from_dict(py, doc.as_any())
    }

    /// Every key's keyword, in the schema's order.
    #[classattr]
    #[allow(non_snake_case)]
    fn KEYWORDS() -> Vec<String> {
        KEYS.iter().map(keyword).collect()
    }

    /// The keys the stack gives (those not at their defaults, and the
    /// options it holds), by keyword: `Stack(**s.keys())` makes the same
    /// stack.
    fn keys(&self, py: Python<'_>) -> PyResult<Py<PyDict>> {
        let all = <Self as Config>::to_dict(self, py)?;
        let out = PyDict::new(py);
        let stack = &self.doc.stack;
        // A table's kind is given whenever the table is there: at its
        // default it is still what makes the table (`warp_kind="single"`).
        let given = |k: &&Key| {
            k.given(stack).is_some() || (k.name() == "kind" && has_table(stack, k.table()))
        };
        for key in KEYS.iter().filter(given) {
            // JSON writes a seed past 2^53 as a string; Python has the int.
            if let Some(Value::Seed(seed)) = (key.get)(stack) {
                out.set_item(keyword(key), seed)?;
                continue;
            }
            let mut v = all.bind(py).clone();
            for part in key.path.split('.') {
                v = v.get_item(part)?;
            }
            out.set_item(keyword(key), v)?;
        }
        Ok(out.unbind())
    }

    fn __repr__(&self) -> PyResult<String> {
        let json = serde_json_compact(&self.to_json()?);
        Ok(format!("surflet.Stack.from_json({json:?})"))
    }
}

#[pymethods]
impl Graph {
    /// A graph from an expression, such as `"fbm(simplex(seed=1),
    /// octaves=6) * 0.5 + 0.5"` (see `surflet help graphs`). Errors name the
    /// column.
    #[staticmethod]
    fn parse(expr: &str) -> PyResult<Graph> {
        let graph = surflet::Graph::parse(expr).map_err(value_error)?;
        Ok(Graph {
            doc: Document {
                graph: Some(graph),
                ..Document::default()
            },
        })
    }

    /// The graph as an expression; `Graph.parse` reads it back unchanged.
    fn to_expr(&self) -> PyResult<String> {
        self.doc
            .graph
            .as_ref()
            .expect("a Graph holds a graph")
            .to_expr()
            .map_err(value_error)
    }

    fn __repr__(&self) -> PyResult<String> {
        // An expression carries no tables; with them, the JSON does.
        let bare = self.doc.view == Default::default()
            && self.doc.pixels == Default::default()
            && self.doc.animation == Default::default();
        match self.to_expr() {
            Ok(expr) if bare => Ok(format!("surflet.Graph.parse({expr:?})")),
            _ => {
                let json = serde_json_compact(&self.to_json()?);
                Ok(format!("surflet.Graph.from_json({json:?})"))
            }
        }
    }

    fn __str__(&self) -> PyResult<String> {
        self.to_expr()
    }
}

/// `message` without serde_json's trailing " at line L column C".
fn without_position(message: &str) -> &str {
    match message.rfind(" at line ") {
        Some(i)
            if message[i + 9..]
                .split_once(" column ")
                .is_some_and(|(l, c)| {
                    [l, c]
                        .iter()
                        .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                }) =>
        {
            &message[..i]
        }
        _ => message,
    }
}
/// The JSON text on one line, for `repr`.
fn serde_json_compact(pretty: &str) -> String {
    pretty.lines().map(str::trim).collect::<Vec<_>>().join(" ")
}

/// `sample` and `grid`, the same on both classes (a second `#[pymethods]`
/// block per class, through pyo3's `multiple-pymethods`).
macro_rules! field_methods {
    ($ty:ty) => {
        #[pymethods]
        impl $ty {
            /// Values (and with `gradient=True` the pair `(values,
            /// gradient)`) at `points`, an array of shape `(..., D)`.
            #[pyo3(signature = (points, *, gradient = false, out = None, threads = None))]
            fn sample(
                &self,
                points: &Bound<'_, PyAny>,
                gradient: bool,
                out: Option<&Bound<'_, PyAny>>,
                threads: Option<isize>,
            ) -> PyResult<Py<PyAny>> {
                sample(self, points, gradient, out, threads)
            }

            /// Values on the uniform grid `origin + index * step`, as an
            /// array of `shape` with x as the last axis. The origin and
            /// step are given x first, like points; the shape and start
            /// index the result, so y comes before x there.
            #[pyo3(signature = (origin, step, shape, *, start = None, gradient = false, out = None, dtype = None, threads = None))]
            #[allow(clippy::too_many_arguments)]
            fn grid(
                &self,
                py: Python<'_>,
                origin: Vec<f64>,
                step: Vec<f64>,
                shape: Vec<i128>,
                start: Option<Vec<i128>>,
                gradient: bool,
                out: Option<&Bound<'_, PyAny>>,
                dtype: Option<&Bound<'_, PyAny>>,
                threads: Option<isize>,
            ) -> PyResult<Py<PyAny>> {
                let args = grid_args(origin, step, shape, start)?;
                grid(py, self, args, gradient, out, dtype, threads)
            }
        }
    };
}
field_methods!(Noise);
field_methods!(Stack);
field_methods!(Graph);

/// The compiled module.
#[pymodule]
fn _surflet(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Noise>()?;
    m.add_class::<Stack>()?;
    m.add_class::<Graph>()?;
    m.add("NOISES", NoiseKind::ALL.map(|k| k.name()).to_vec())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
