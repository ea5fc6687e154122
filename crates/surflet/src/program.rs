//! The compiled form shared by fractals, domain warps, curl noise and noise
//! stacks, and its one per-lane evaluator.
//!
//! A [`Program`] is a flat list of octaves (each a seeded, possibly periodic
//! [`Noise`] with a frequency and an amplitude) and a list of layers (each a
//! fractal over a run of those octaves). The first `steps · D` layers are warp
//! layers, `D` per warp step (one per axis); the last layer is the warped
//! field. Single-point calls and every SIMD backend run the same generic
//! function, [`program_lanes`], so they return the same bits.
//!
//! Everything on the lane path is `#[inline(always)]`: it must inline into the
//! `#[target_feature]` entry points of [`crate::simd`]. Each batch operation
//! has exactly one call site of the octave noise ([`Octs::eval`], from the
//! octave loop of [`layer_lanes`], reached from one loop over layers), which
//! keeps the number of kernel copies — and the compile time — the same as a
//! plain noise fill.

// Lane code walks per-axis arrays in step; index loops read best there (and
// iterator adaptors are avoided in hot code, see kernel/mod.rs).
#![allow(clippy::needless_range_loop)]

use crate::batch::{self, Lanes, Source, Work};
use crate::error::Error;
use crate::float::Float;
use crate::fractal_kind::FractalKind;
use crate::grid::{Bounds, Grid};
use crate::kernel::Field;
use crate::kernel::hypercube::{BAND_MAX, OctaveMap, OctaveSink, RowCache, Sums};
use crate::kernel::select::{HypercubeK, Kernel};
use crate::noise::{Noise, NoiseKind, Sample};
use crate::noise::{RowCall, batch_outs};
use crate::prelude_internal::*;
use crate::simd::Element;
use crate::simd::scalar::{Round, Scalar};
use crate::simd::{self, Call, Isa, Simd};

/// One octave: its noise (seed, kind, period), the factor applied to the
/// layer's input coordinates, the offset added after it, and its amplitude.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct OctaveSpec<const D: usize> {
    pub noise: Noise<D>,
    pub freq: f64,
    pub offset: [f64; D],
    pub amp: f64,
}

/// One fractal over `octaves[first..first + count]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LayerSpec {
    pub kind: FractalKind,
    pub first: usize,
    pub count: usize,
    /// Ridged and hybrid offset.
    pub offset: f64,
    /// Ridged weight gain.
    pub weight: f64,
    /// Final factor: normalisation, times the warp amplitude for warp layers.
    pub scale: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Program<const D: usize> {
    pub octaves: Vec<OctaveSpec<D>>,
    pub layers: Vec<LayerSpec>,
    /// Number of warp steps; `layers[..steps * D]` are their per-axis layers.
    pub steps: usize,
}

impl<const D: usize> Program<D> {
    /// Appends `layer` over a copy of `octaves`, re-basing its octave index.
    pub(crate) fn push_layer(&mut self, octaves: &[OctaveSpec<D>], mut layer: LayerSpec) {
        layer.first = self.octaves.len();
        self.octaves.extend_from_slice(octaves);
        self.layers.push(layer);
    }

    /// The value at `p` (single point, [`simd::one_lane`]).
    #[inline]
    pub(crate) fn get<F: Float>(&self, p: [F; D]) -> F {
        simd::one_lane(Point::<F, D, false> { prog: self, p }).0
    }

    /// The value and gradient at `p` (single point, [`simd::one_lane`]).
    #[inline]
    pub(crate) fn sample<F: Float>(&self, p: [F; D]) -> Sample<F, D> {
        let (value, gradient) = simd::one_lane(Point::<F, D, true> { prog: self, p });
        Sample { value, gradient }
    }

    /// Value and gradient of layer `k` alone, without any warp (curl
    /// potentials).
    #[inline]
    pub(crate) fn sample_layer<F: Float>(&self, k: usize, p: [F; D]) -> Sample<F, D> {
        let s = Scalar::<F>::new();
        let octs = Lazy {
            s,
            specs: &self.octaves,
        };
        let (value, gradient) = layer_lanes(s, &self.octaves, &octs, &self.layers[k], p);
        Sample { value, gradient }
    }

    /// Batch evaluation on `isa`, values to `out` and, if asked, the gradient.
    pub(crate) fn fill_on<F: Float>(
        &self,
        isa: Isa,
        coords: [&[F]; D],
        out: &mut [F],
        gradient: Option<[&mut [F]; D]>,
    ) -> Result<(), Error> {
        let n = out.len();
        let grad = gradient.is_some();
        let outs = batch_outs(out, gradient);
        batch::check(isa, n, &outs, true)?;
        batch::check_coords(&coords, n)?;
        batch::drive(self, isa, grad, Work::Points(coords), outs);
        Ok(())
    }

    /// Grid evaluation on `isa`, values to `out` and, if asked, the gradient.
    pub(crate) fn grid_on<F: Float>(
        &self,
        isa: Isa,
        grid: &Grid<F, D>,
        out: &mut [F],
        gradient: Option<[&mut [F]; D]>,
    ) -> Result<Bounds<F>, Error> {
        let outs = batch_outs(out, gradient);
        batch::check(isa, grid.len(), &outs, true)?;
        Ok(self.grid_part(isa, grid, 0, outs))
    }

    /// [`grid_on`](Self::grid_on) for the grid's points
    /// `start..start + out.len()` alone (a graph's block of the grid).
    pub(crate) fn grid_part_on<F: Float>(
        &self,
        isa: Isa,
        grid: &Grid<F, D>,
        start: usize,
        out: &mut [F],
        gradient: Option<[&mut [F]; D]>,
    ) -> Result<Bounds<F>, Error> {
        let outs = batch_outs(out, gradient);
        let n = outs[0].len();
        batch::check(isa, n, &outs, true)?;
        if start.checked_add(n).is_none_or(|end| end > grid.len()) {
            return Err(Error::Length {
                what: "grid part".into(),
                expected: grid.len().saturating_sub(start),
                found: n,
            });
        }
        Ok(self.grid_part(isa, grid, start, outs))
    }

    fn grid_part<F: Float>(
        &self,
        isa: Isa,
        grid: &Grid<F, D>,
        start: usize,
        outs: Vec<&mut [F]>,
    ) -> Bounds<F> {
        let grad = outs.len() > 1;
        let work = Work::Grid {
            axes: grid.axes(),
            start,
        };
        batch::grid_bounds(batch::drive(self, isa, grad, work, outs))
    }
}

/// One octave's parameters in lanes.
#[derive(Clone, Copy)]
pub(crate) struct Oct<S: Simd> {
    field: Field<S>,
    freq: S::F,
    offset: [S::F; 4],
    amp: S::F,
}

impl<S: Simd> Oct<S> {
    #[inline(always)]
    fn new<const D: usize>(s: S, o: &OctaveSpec<D>) -> Self {
        Oct {
            field: o.noise.field(s),
            freq: s.c(o.freq),
            offset: {
                // A loop, not `array::from_fn`: a closure would be compiled
                // without the backend's target features.
                let mut off = [s.zero(); 4];
                for a in 0..D {
                    off[a] = s.c(o.offset[a]);
                }
                off
            },
            amp: s.c(o.amp),
        }
    }
}

/// Where the per-lane code gets octave `i`'s lane parameters: computed on
/// demand for single points (most are never needed twice), cached once per
/// call for batches. Both produce the same values. Batches over grid rows
/// also keep a [`RowCache`] per octave: the row each octave's coordinates
/// One point of a program on one lane; the gradient only if `GRAD`.
struct Point<'a, F, const D: usize, const GRAD: bool> {
    prog: &'a Program<D>,
    p: [F; D],
}

impl<F: Float, const D: usize, const GRAD: bool> simd::OneOp<F> for Point<'_, F, D, GRAD> {
    type Output = (F, [F; D]);
    #[inline(always)]
    fn run<R: Round>(self, s: Scalar<F, R>) -> (F, [F; D]) {
        let octs = Lazy {
            s,
            specs: &self.prog.octaves,
        };
        program_lanes::<_, D, _, GRAD>(s, self.prog, &octs, self.p)
    }
}

/// lie on.
pub(crate) trait Octs<S: Simd, const D: usize> {
    /// Octave `i`'s lane parameters: a reference where they are cached.
    /// `Oct` holds a whole [`Field`] (periods, cellular options: hundreds of
    /// bytes), which must not be copied per octave and vector: by value,
    /// that `memcpy` costs as much as a quarter of a one-octave fractal.
    type Oct<'a>: core::ops::Deref<Target = Oct<S>>
    where
        Self: 'a;
    fn oct(&self, i: usize) -> Self::Oct<'_>;
    /// Evaluates octave `i`'s noise at `p`. `on_row` is false where the
    /// octave's coordinates were saturated (see [`octave_overflow`]): they
    /// are then not the row's that [`Lanes::start_row`] announced.
    fn eval(
        &self,
        s: S,
        i: usize,
        noise: &Noise<D>,
        field: &Field<S>,
        p: [S::F; D],
        on_row: bool,
    ) -> (S::F, [S::F; D]);
}

pub(crate) struct Lazy<'a, S: Simd, const D: usize> {
    pub s: S,
    pub specs: &'a [OctaveSpec<D>],
}

/// An octave's lane parameters made on demand (single points), owned.
pub(crate) struct Made<S: Simd>(Oct<S>);

impl<S: Simd> core::ops::Deref for Made<S> {
    type Target = Oct<S>;
    #[inline(always)]
    fn deref(&self) -> &Oct<S> {
        &self.0
    }
}

impl<S: Simd, const D: usize> Octs<S, D> for Lazy<'_, S, D> {
    type Oct<'a>
        = Made<S>
    where
        Self: 'a;
    #[inline(always)]
    fn oct(&self, i: usize) -> Made<S> {
        Made(Oct::new(self.s, &self.specs[i]))
    }
    #[inline(always)]
    fn eval(
        &self,
        s: S,
        _: usize,
        noise: &Noise<D>,
        field: &Field<S>,
        p: [S::F; D],
        _: bool,
    ) -> (S::F, [S::F; D]) {
        noise.eval_lanes_row(s, field, p, None)
    }
}

pub(crate) struct Cached<S: Simd, const D: usize> {
    octs: Vec<Oct<S>>,
    rows: Option<core::cell::RefCell<Vec<RowCache<S, D>>>>,
}

impl<S: Simd, const D: usize> Cached<S, D> {
    /// The octaves' lane parameters, with row caches if `rows` (grid rows
    /// whose points are not warped).
    #[inline(always)]
    pub(crate) fn new(s: S, specs: &[OctaveSpec<D>], rows: bool) -> Self {
        let mut v = Vec::with_capacity(specs.len());
        for o in specs {
            v.push(Oct::new(s, o));
        }
        let rows = rows
            .then(|| core::cell::RefCell::new(specs.iter().map(|_| RowCache::new(s)).collect()));
        Cached { octs: v, rows }
    }
}

impl<S: Simd, const D: usize> Octs<S, D> for Cached<S, D> {
    type Oct<'a>
        = &'a Oct<S>
    where
        Self: 'a;
    #[inline(always)]
    fn oct(&self, i: usize) -> &Oct<S> {
        &self.octs[i]
    }
    #[inline(always)]
    fn eval(
        &self,
        s: S,
        i: usize,
        noise: &Noise<D>,
        field: &Field<S>,
        p: [S::F; D],
        on_row: bool,
    ) -> (S::F, [S::F; D]) {
        // One call site: each inlines every kind's kernel, and a second
        // (with and without the cache) doubled the program entry points,
        // most of the release build's time.
        let mut rows = match &self.rows {
            Some(rows) if on_row => Some(rows.borrow_mut()),
            _ => None,
        };
        let cache = rows.as_mut().map(|r| &mut r[i]);
        noise.eval_lanes_row(s, field, p, cache)
    }
}

/// `+k` where `n > 0`, `-k` where `n < 0`, 0 where `n` is zero (where |n| has
/// no derivative; see the fractal documentation) or NaN.
#[inline(always)]
fn sign<S: Simd>(s: S, n: S::F, k: f64) -> S::F {
    let zero = s.zero();
    s.select(
        s.gt(n, zero),
        s.c(k),
        s.select(s.lt(n, zero), s.c(-k), zero),
    )
}

/// An octave's coordinate `x·f + offset` past the float range: a finite `x`
/// scaled by a high octave's frequency (1e300 · 2³¹ at the 32nd octave) gives
/// ±∞, and the noise would be NaN for a finite input. Such a lane is
/// saturated to ±MAX instead, a lattice point far out like every
/// coordinate past the precision limit, so the octave is finite and
/// deterministic. A non-finite `x` stays NaN (`x · 0` is NaN for ±∞). The
/// check is one comparison per axis; the fix-up runs only when needed, and
/// the result says whether it did.
#[inline(always)]
fn octave_overflow<S: Simd, const D: usize>(
    s: S,
    xi: &mut [S::F; D],
    x: [S::F; D],
    freq: S::F,
    offset: [S::F; 4],
) -> bool {
    let max = s.splat(S::E::MAX);
    let mut ok = s.le(s.abs(xi[0]), max);
    for v in &xi[1..] {
        ok = s.m_and(ok, s.le(s.abs(*v), max));
    }
    // NaN lanes fail `<=` and take the fix-up, which keeps them NaN.
    if !s.any(s.m_andnot(s.splat_true(), ok)) {
        return false;
    }
    let zero = s.zero();
    for a in 0..D {
        let scaled = s.min(max, s.max(s.neg(max), s.mul(x[a], freq)));
        xi[a] = s.add(s.add(scaled, offset[a]), s.mul(x[a], zero));
    }
    true
}

/// What a fractal layer carries from one octave to the next: the sum and
/// its gradient, and the ridged and hybrid multifractals' weight and its
/// gradient.
pub(crate) struct LayerAcc<S: Simd, const D: usize> {
    v: S::F,
    g: [S::F; D],
    w: S::F,
    gw: [S::F; D],
}

impl<S: Simd, const D: usize> LayerAcc<S, D> {
    #[inline(always)]
    pub(crate) fn new(s: S) -> Self {
        LayerAcc {
            v: s.zero(),
            g: [s.zero(); D],
            w: s.c(1.0),
            gw: [s.zero(); D],
        }
    }
}

/// Adds octave `j` of `layer` to `acc`: its noise `n` and gradient `gn` at
/// the octave's coordinates, which are the layer's times `freq` (so
/// ∇ₓ n = freq · gn), weighted by `amp` as the fractal kind says.
#[inline(always)]
#[allow(clippy::too_many_arguments, reason = "one octave's whole context")]
pub(crate) fn add_octave<S: Simd, const D: usize>(
    s: S,
    layer: &LayerSpec,
    j: usize,
    freq: S::F,
    amp: S::F,
    n: S::F,
    gn: [S::F; D],
    acc: &mut LayerAcc<S, D>,
) {
    let zero = s.zero();
    let one = s.c(1.0);
    let offset = s.c(layer.offset);
    let wgain = s.c(layer.weight);
    let LayerAcc { v, g, w, gw } = acc;
    let mut dn = [zero; D];
    for a in 0..D {
        dn[a] = s.mul(gn[a], freq);
    }
    let (c, dc) = match layer.kind {
        FractalKind::Fbm => {
            let mut dc = [zero; D];
            for a in 0..D {
                dc[a] = s.mul(amp, dn[a]);
            }
            (s.mul(amp, n), dc)
        }
        FractalKind::Billow => {
            let k = s.mul(amp, sign(s, n, 2.0));
            let mut dc = [zero; D];
            for a in 0..D {
                dc[a] = s.mul(k, dn[a]);
            }
            (s.mul(amp, s.sub(s.mul(s.abs(n), s.c(2.0)), one)), dc)
        }
        FractalKind::Turbulence => {
            let k = s.mul(amp, sign(s, n, 1.0));
            let mut dc = [zero; D];
            for a in 0..D {
                dc[a] = s.mul(k, dn[a]);
            }
            (s.mul(amp, s.abs(n)), dc)
        }
        FractalKind::Ridged => {
            // signal = (offset − |n|)² · w; next w = clamp(signal·G, 0, 1).
            let r = s.sub(offset, s.abs(n));
            let rr = s.mul(r, r);
            let sig = s.mul(rr, *w);
            // ∂signal = 2r·(−sign n)·∂n·w + r²·∂w
            let k = s.mul(s.mul(s.add(r, r), *w), sign(s, n, -1.0));
            let mut dsig = [zero; D];
            for a in 0..D {
                dsig[a] = s.add(s.mul(k, dn[a]), s.mul(rr, gw[a]));
            }
            let mut dc = [zero; D];
            for a in 0..D {
                dc[a] = s.mul(amp, dsig[a]);
            }
            let ws = s.mul(sig, wgain);
            // Saturated clamps pass no derivative.
            let inside = s.m_and(s.gt(ws, zero), s.lt(ws, one));
            *w = s.max(s.min(ws, one), zero);
            for a in 0..D {
                gw[a] = s.keep(inside, s.mul(wgain, dsig[a]));
            }
            (s.mul(amp, sig), dc)
        }
        FractalKind::Hybrid => {
            // signal = (n + offset)·a; octave 0 is the first value and
            // weight; then value += min(w, 1)·signal, w = min(w, 1)·signal.
            let sig = s.mul(s.add(n, offset), amp);
            let mut dsig = [zero; D];
            for a in 0..D {
                dsig[a] = s.mul(dn[a], amp);
            }
            let (c, dc) = if j == 0 {
                (sig, dsig)
            } else {
                let below = s.lt(*w, one);
                let wt = s.min(*w, one);
                let mut dc = [zero; D];
                for a in 0..D {
                    let gwt = s.keep(below, gw[a]);
                    dc[a] = s.add(s.mul(gwt, sig), s.mul(wt, dsig[a]));
                }
                (s.mul(wt, sig), dc)
            };
            *w = c;
            *gw = dc;
            (c, dc)
        }
    };
    // The first octave is assigned, not added to zero, so that a
    // one-octave fBm returns its noise's bits exactly (−0 included).
    if j == 0 {
        *v = c;
        *g = dc;
    } else {
        *v = s.add(*v, c);
        for a in 0..D {
            g[a] = s.add(g[a], dc[a]);
        }
    }
}

/// A layer's value and gradient from its octaves' sum.
#[inline(always)]
pub(crate) fn end_layer<S: Simd, const D: usize>(
    s: S,
    layer: &LayerSpec,
    acc: LayerAcc<S, D>,
) -> (S::F, [S::F; D]) {
    let scale = s.c(layer.scale);
    let mut g = acc.g;
    for a in 0..D {
        g[a] = s.mul(g[a], scale);
    }
    (s.mul(acc.v, scale), g)
}

/// Evaluates one fractal layer at `x` (layer input units): the value and its
/// gradient with respect to `x`, by the chain rule through every octave.
#[inline(always)]
pub(crate) fn layer_lanes<S: Simd, const D: usize, O: Octs<S, D>>(
    s: S,
    specs: &[OctaveSpec<D>],
    octs: &O,
    layer: &LayerSpec,
    x: [S::F; D],
) -> (S::F, [S::F; D]) {
    let zero = s.zero();
    let mut acc = LayerAcc::new(s);
    for j in 0..layer.count {
        let i = layer.first + j;
        let o = octs.oct(i);
        let mut xi = [zero; D];
        for a in 0..D {
            xi[a] = s.add(s.mul(x[a], o.freq), o.offset[a]);
        }
        let fixed = octave_overflow(s, &mut xi, x, o.freq, o.offset);
        let (n, gn) = octs.eval(s, i, &specs[i].noise, &o.field, xi, !fixed);
        add_octave(s, layer, j, o.freq, o.amp, n, gn, &mut acc);
    }
    end_layer(s, layer, acc)
}

/// Evaluates a program at `p`: the warp steps move the point (tracking the
/// Jacobian when `GRAD`), then the last layer is evaluated at the moved point
/// and its gradient is pulled back by the chain rule, ∇ₚ = Jᵀ ∇_q.
#[inline(always)]
pub(crate) fn program_lanes<S: Simd, const D: usize, O: Octs<S, D>, const GRAD: bool>(
    s: S,
    prog: &Program<D>,
    octs: &O,
    p: [S::F; D],
) -> (S::F, [S::F; D]) {
    let zero = s.zero();
    let one = s.c(1.0);
    let mut q = p;
    let mut jac = [[zero; D]; D];
    for (a, row) in jac.iter_mut().enumerate() {
        row[a] = one;
    }
    let mut dq = [zero; D];
    let mut dg = [[zero; D]; D];
    let last = prog.layers.len() - 1;
    // One loop over all layers (warp layers, then the field), so that the
    // kernels are inlined at a single call site.
    let mut k = 0;
    loop {
        let (v, g) = layer_lanes(s, &prog.octaves, octs, &prog.layers[k], q);
        if k == last {
            if !GRAD || prog.steps == 0 {
                return (v, g);
            }
            let mut out = [zero; D];
            for b in 0..D {
                let mut acc = s.mul(g[0], jac[0][b]);
                for a in 1..D {
                    acc = s.add(acc, s.mul(g[a], jac[a][b]));
                }
                out[b] = acc;
            }
            return (v, out);
        }
        let axis = k % D;
        dq[axis] = v;
        dg[axis] = g;
        if axis == D - 1 {
            // Every axis of one step is displaced from the same point.
            for a in 0..D {
                q[a] = s.add(q[a], dq[a]);
            }
            if GRAD {
                // J ← (I + ∂displacement/∂q) · J
                let old = jac;
                for a in 0..D {
                    for b in 0..D {
                        let mut acc = old[a][b];
                        for c in 0..D {
                            acc = s.add(acc, s.mul(dg[a][c], old[c][b]));
                        }
                        jac[a][b] = acc;
                    }
                }
            }
        }
        k += 1;
    }
}

struct ProgLanes<'a, S: Simd, const D: usize, const GRAD: bool> {
    prog: &'a Program<D>,
    octs: Cached<S, D>,
    /// Whether grid rows may go octave by octave ([`Lanes::rows`]): one
    /// layer (no warps) of value and Perlin octaves.
    by_octave: bool,
    /// The announced row's coordinates on axes 1...
    rest: core::cell::Cell<[S::E; D]>,
    /// The sums of a piece of rows, kept from piece to piece.
    acc: core::cell::RefCell<AccRows<S, D>>,
}

impl<'a, S: Simd, const D: usize, const GRAD: bool> ProgLanes<'a, S, D, GRAD> {
    #[inline(always)]
    fn new(prog: &'a Program<D>, octs: Cached<S, D>) -> Self {
        let mut by_octave = octs.rows.is_some() && prog.layers.len() == 1;
        for o in &prog.octaves {
            by_octave &= crate::noise::with_kernel!(&o.noise, K => <K as Kernel<D>>::ROWS);
        }
        ProgLanes {
            prog,
            octs,
            by_octave,
            rest: core::cell::Cell::new([S::E::ZERO; D]),
            acc: core::cell::RefCell::new(AccRows::default()),
        }
    }
}

/// Points of a piece of rows whose sums are kept at once: each octave
/// passes over the piece, so its sums stay in the first- or second-level
/// cache between octaves.
const PIECE: usize = 8192;

/// A [`LayerAcc`] per vector of a piece of rows, each part kept only where
/// the fractal kind or the gradient needs it.
struct AccRows<S: Simd, const D: usize> {
    v: Vec<S::F>,
    w: Vec<S::F>,
    g: Vec<[S::F; D]>,
    gw: Vec<[S::F; D]>,
}

impl<S: Simd, const D: usize> Default for AccRows<S, D> {
    fn default() -> Self {
        AccRows {
            v: Vec::new(),
            w: Vec::new(),
            g: Vec::new(),
            gw: Vec::new(),
        }
    }
}

/// Whether a fractal kind carries a weight from octave to octave.
fn weighted(kind: FractalKind) -> bool {
    matches!(kind, FractalKind::Ridged | FractalKind::Hybrid)
}

impl<S: Simd, const D: usize> AccRows<S, D> {
    /// `n` vectors of fresh sums ([`LayerAcc::new`]'s). The first octave
    /// assigns the value and its gradient, so only the weight and its
    /// gradient are set here.
    #[inline(always)]
    fn reset(&mut self, s: S, n: usize, grad: bool, weight: bool) {
        let (zero, one) = (s.zero(), s.c(1.0));
        if self.v.len() < n {
            self.v.resize(n, zero);
        }
        if grad && self.g.len() < n {
            self.g.resize(n, [zero; D]);
        }
        if weight {
            self.w.clear();
            self.w.resize(n, one);
            if grad {
                self.gw.clear();
                self.gw.resize(n, [zero; D]);
            }
        }
    }

    /// Vector `k`'s sums.
    #[inline(always)]
    fn get<const GRAD: bool>(&self, s: S, k: usize, weight: bool) -> LayerAcc<S, D> {
        let mut a = LayerAcc::new(s);
        a.v = self.v[k];
        if weight {
            a.w = self.w[k];
        }
        if GRAD {
            a.g = self.g[k];
            if weight {
                a.gw = self.gw[k];
            }
        }
        a
    }

    #[inline(always)]
    fn set<const GRAD: bool>(&mut self, k: usize, a: &LayerAcc<S, D>, weight: bool) {
        self.v[k] = a.v;
        if weight {
            self.w[k] = a.w;
        }
        if GRAD {
            self.g[k] = a.g;
            if weight {
                self.gw[k] = a.gw;
            }
        }
    }
}

/// Adds one octave's row to a row of sums: the kernel's points go
/// through [`add_octave`], and its misses through the per-lane path of
/// [`layer_lanes`] (the same bits either way).
struct AccSink<'a, S: Simd, K, const D: usize, const GRAD: bool, const FBM: bool> {
    o: &'a Oct<S>,
    period: &'a [u32; 4],
    layer: &'a LayerSpec,
    j: usize,
    xs: &'a [S::E],
    /// The row's coordinates on axes 1.., unmapped.
    row: [S::F; D],
    acc: &'a mut AccRows<S, D>,
    /// Vectors per row, and the row's first vector in `acc`.
    nv: usize,
    base: usize,
    kernel: core::marker::PhantomData<fn() -> K>,
}

impl<S: Simd, K: Kernel<D>, const D: usize, const GRAD: bool, const FBM: bool> OctaveSink<S, D>
    for AccSink<'_, S, K, D, GRAD, FBM>
{
    #[inline(always)]
    fn start_row(&mut self, r: usize, row: [S::F; D]) {
        self.base = r * self.nv;
        self.row = row;
    }
    #[inline(always)]
    fn put(&mut self, s: S, k: usize, n: S::F, gn: [S::F; D]) {
        let i = self.base + k;
        if FBM && !GRAD {
            // `add_octave` for fBm without the gradient.
            let c = s.mul(self.o.amp, n);
            let v = &mut self.acc.v[i];
            *v = if self.j == 0 { c } else { s.add(*v, c) };
            return;
        }
        let weight = weighted(self.layer.kind);
        let mut a = self.acc.get::<GRAD>(s, i, weight);
        let gn = if GRAD { gn } else { [s.zero(); D] };
        add_octave(
            s,
            self.layer,
            self.j,
            self.o.freq,
            self.o.amp,
            n,
            gn,
            &mut a,
        );
        self.acc.set::<GRAD>(i, &a, weight);
    }
    #[inline(always)]
    fn sums(&mut self) -> Option<Sums<'_, S>> {
        if FBM && !GRAD {
            Some((&mut self.acc.v[self.base..], self.o.amp, self.j == 0))
        } else {
            None
        }
    }
    #[inline(always)]
    fn miss(&mut self, s: S, k: usize) {
        let o = self.o;
        let zero = s.zero();
        let mut x = self.row;
        x[0] = batch::load_row(s, self.xs, k * S::LANES);
        let mut xi = [zero; D];
        for a in 0..D {
            xi[a] = s.add(s.mul(x[a], o.freq), o.offset[a]);
        }
        octave_overflow(s, &mut xi, x, o.freq, o.offset);
        // Out of line: rare on a grid (overflow, long rows), and one copy
        // per kernel rather than one per sink.
        let (n, gn) = s.outline(RowCall::<S, K, D> {
            field: &o.field,
            period: self.period,
            p: xi,
            cache: None,
            kernel: core::marker::PhantomData,
        });
        self.put(s, k, n, gn);
    }
}

/// One octave of a program over a piece of grid rows (`ys`, each the
/// stretch `xs` along x, the coordinates on the axes after y `rest`'s),
/// adding each point's noise to its sums in `acc`, exactly as
/// [`layer_lanes`] adds it for one vector.
struct OctaveRows<'a, 'c, S: Simd, K, const D: usize, const GRAD: bool> {
    o: &'a Oct<S>,
    spec: &'a OctaveSpec<D>,
    layer: &'a LayerSpec,
    j: usize,
    xs: &'a [S::E],
    ys: &'a [S::E],
    rest: [S::E; D],
    cache: &'c mut RowCache<S, D>,
    acc: &'c mut AccRows<S, D>,
    kernel: core::marker::PhantomData<fn() -> K>,
}

impl<S: Simd, K: Kernel<D>, const D: usize, const GRAD: bool> Call<S>
    for OctaveRows<'_, '_, S, K, D, GRAD>
{
    type Output = ();
    #[inline(always)]
    fn call(self, s: S) {
        let o = self.o;
        let zero = s.zero();
        let period = self.spec.noise.period4();
        let nv = self.xs.len().div_ceil(S::LANES);
        let mut offset_e = [S::E::ZERO; D];
        for a in 0..D {
            offset_e[a] = S::E::from_f64(self.spec.offset[a]);
        }
        // `layer_lanes`' map, `x · freq + offset`, in the same order and
        // precision.
        let map = OctaveMap {
            freq: o.freq,
            offset: o.offset,
            freq_e: S::E::from_f64(self.spec.freq),
            offset_e,
        };
        macro_rules! pass {
            ($fbm:literal) => {{
                let mut sink = AccSink::<S, K, D, GRAD, $fbm> {
                    o,
                    period: &period,
                    layer: self.layer,
                    j: self.j,
                    xs: self.xs,
                    row: [zero; D],
                    acc: self.acc,
                    nv,
                    base: 0,
                    kernel: core::marker::PhantomData,
                };
                let done = K::octave_rows::<S, GRAD, _>(
                    s, &o.field, &period, self.xs, self.ys, self.rest, &map, self.cache, &mut sink,
                );
                if !done {
                    // No such kernel (`by_octave` admits none): per lane.
                    for (r, &y) in self.ys.iter().enumerate() {
                        let mut row = [zero; D];
                        for a in 1..D {
                            row[a] = s.splat(if a == 1 { y } else { self.rest[a] });
                        }
                        sink.start_row(r, row);
                        for k in 0..nv {
                            sink.miss(s, k);
                        }
                    }
                }
            }};
        }
        if self.layer.kind == FractalKind::Fbm && !GRAD {
            pass!(true)
        } else {
            pass!(false)
        }
    }
}

impl<S: Simd, const D: usize, const GRAD: bool> ProgLanes<'_, S, D, GRAD> {
    /// Whole rows (see [`Lanes::rows`]), octave by octave over pieces of
    /// rows, then each vector's sums scaled: the same operations on the
    /// same values as [`program_lanes`] per vector, so the same bits, but
    /// each octave's kernel is chosen once per piece, not per vector and
    /// octave, its rows share their bands' columns, and its loop holds
    /// only that octave's work.
    #[inline(always)]
    #[allow(clippy::too_many_arguments, reason = "one run of rows' whole context")]
    fn run_rows(
        &self,
        s: S,
        xs_all: &[S::E],
        ys: &[S::E],
        rest: [S::E; D],
        outs: &mut [&mut [S::E]],
        at: usize,
        (lo, hi): (&mut S::F, &mut S::F),
    ) -> bool {
        if !self.by_octave || D < 2 {
            return false;
        }
        let Some(caches) = &self.octs.rows else {
            return false;
        };
        let mut caches = caches.borrow_mut();
        let layer = &self.prog.layers[0];
        let weight = weighted(layer.kind);
        let l = S::LANES;
        let nx = xs_all.len();
        let mut acc = self.acc.borrow_mut();
        let (mut vlo, mut vhi) = (*lo, *hi);
        let mut x0 = 0;
        while x0 < nx {
            let xs = &xs_all[x0..nx.min(x0 + BAND_MAX)];
            let nv = xs.len().div_ceil(l);
            let per = (PIECE / (nv * l)).max(1);
            for (pi, piece) in ys.chunks(per).enumerate() {
                acc.reset(s, piece.len() * nv, GRAD, weight);
                for j in 0..layer.count {
                    let i = layer.first + j;
                    let spec = &self.prog.octaves[i];
                    macro_rules! pass {
                        ($k:ty) => {{
                            // Out of line, once per piece: inlined, these
                            // four kernels made the program's entry points
                            // (which already hold every kernel) big enough
                            // to double the release build's time.
                            s.outline(OctaveRows::<S, $k, D, GRAD> {
                                o: self.octs.oct(i),
                                spec,
                                layer,
                                j,
                                xs,
                                ys: piece,
                                rest,
                                cache: &mut caches[i],
                                acc: &mut acc,
                                kernel: core::marker::PhantomData,
                            })
                        }};
                    }
                    // `by_octave` admits the kernels with `Kernel::ROWS`:
                    // value and Perlin.
                    let perlin = spec.noise.kind() == NoiseKind::Perlin;
                    match (perlin, spec.noise.period().is_some()) {
                        (false, false) => pass!(HypercubeK<false, false>),
                        (false, true) => pass!(HypercubeK<false, true>),
                        (true, false) => pass!(HypercubeK<true, false>),
                        (true, true) => pass!(HypercubeK<true, true>),
                    }
                }
                for r in 0..piece.len() {
                    let at = at + (pi * per + r) * nx + x0;
                    let sums = r * nv;
                    let full = xs.len() / l;
                    if !GRAD {
                        // `end_layer` without the gradient.
                        let value = &mut outs[0][at..at + full * l];
                        let scale = s.c(layer.scale);
                        for (a, o) in acc.v[sums..sums + full]
                            .iter()
                            .zip(value.chunks_exact_mut(l))
                        {
                            let v = s.mul(*a, scale);
                            s.store(v, o);
                            batch::widen(s, v, (&mut vlo, &mut vhi));
                        }
                    }
                    let from = if GRAD { 0 } else { full };
                    for k in from..nv {
                        let i = k * l;
                        let r = end_layer(s, layer, acc.get::<GRAD>(s, sums + k, weight));
                        let len = (xs.len() - i).min(l);
                        batch::store_row::<S, D, GRAD>(
                            s,
                            r,
                            outs,
                            at + i,
                            len,
                            (&mut vlo, &mut vhi),
                        );
                    }
                }
            }
            x0 += xs.len();
        }
        *lo = vlo;
        *hi = vhi;
        true
    }
}

impl<S: Simd, const D: usize, const GRAD: bool> Lanes<S, D> for ProgLanes<'_, S, D, GRAD> {
    #[inline(always)]
    fn start_row(&self, rest: [S::E; D]) {
        self.rest.set(rest);
    }
    /// One row as [`rows`](Lanes::rows) does it.
    #[inline(always)]
    fn row(
        &self,
        s: S,
        xs: &[S::E],
        outs: &mut [&mut [S::E]],
        at: usize,
        bounds: (&mut S::F, &mut S::F),
    ) -> bool {
        let rest = self.rest.get();
        if D < 2 || rest[1..].iter().any(|v| v.is_nan()) {
            return false;
        }
        self.run_rows(s, xs, &rest[1..2], rest, outs, at, bounds)
    }
    #[inline(always)]
    fn rows(
        &self,
        s: S,
        xs: &[S::E],
        ys: &[S::E],
        rest: [S::E; D],
        outs: &mut [&mut [S::E]],
        at: usize,
        bounds: (&mut S::F, &mut S::F),
    ) -> bool {
        // A NaN row is the per-vector path's.
        if D < 2 || rest[2..].iter().any(|v| v.is_nan()) || ys.iter().any(|v| v.is_nan()) {
            return false;
        }
        self.run_rows(s, xs, ys, rest, outs, at, bounds)
    }
    #[inline(always)]
    fn outputs(&self) -> usize {
        if GRAD { 1 + D } else { 1 }
    }
    #[inline(always)]
    fn eval(&self, s: S, p: [S::F; D], r: &mut [S::F; 5]) {
        let (v, g) = program_lanes::<S, D, _, GRAD>(s, self.prog, &self.octs, p);
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

impl<F: Float, const D: usize> Source<F, D> for Program<D> {
    #[inline(always)]
    fn run<S: Simd<E = F>>(
        &self,
        s: S,
        grad: bool,
        work: Work<'_, F, D>,
        outs: &mut [&mut [F]],
    ) -> (F, F) {
        let rows = matches!(work, Work::Grid { .. }) && self.steps == 0;
        let octs = Cached::new(s, &self.octaves, rows);
        if grad {
            let l = ProgLanes::<S, D, true>::new(self, octs);
            batch::exec(s, &l, work, outs)
        } else {
            let l = ProgLanes::<S, D, false>::new(self, octs);
            batch::exec(s, &l, work, outs)
        }
    }
}
