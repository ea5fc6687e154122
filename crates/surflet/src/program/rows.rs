// Lane code walks per-axis arrays in step; index loops read best there.
#![allow(clippy::needless_range_loop)]

use super::lanes::program_lanes;
use super::octaves::{Cached, Oct, Octs, octave_overflow};
use super::spec::{LayerSpec, OctaveSpec, Program};
use crate::batch::{self, Lanes};
use crate::fractal_kind::{FractalKind, LayerAcc, add_octave, end_layer};
use crate::kernel::band::{BAND_MAX, OctaveMap, OctaveSink, RowCache, Sums};
use crate::kernel::select::{HypercubeK, Kernel};
use crate::noise::NoiseKind;
use crate::noise::RowCall;
use crate::prelude_internal::*;
use crate::simd::Element;
use crate::simd::{Call, Simd};

pub(super) struct ProgLanes<'a, S: Simd, const D: usize, const GRAD: bool> {
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
    pub(super) fn new(prog: &'a Program<D>, octs: Cached<S, D>) -> Self {
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
/// [`layer_lanes`](super::lanes::layer_lanes) (the same bits either way).
/// `KP` is `K` for a periodic noise: the row loops take the period at run
/// time (`OctaveMap::periodic`), but a miss runs the point kernel, which
/// takes it as a type.
struct AccSink<'a, S: Simd, K, KP, const D: usize, const GRAD: bool, const FBM: bool> {
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
    kernel: core::marker::PhantomData<fn() -> (K, KP)>,
}

impl<S: Simd, K: Kernel<D>, KP: Kernel<D>, const D: usize, const GRAD: bool, const FBM: bool>
    OctaveSink<S, D> for AccSink<'_, S, K, KP, D, GRAD, FBM>
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
        let weight = self.layer.kind.weighted();
        let mut a = self.acc.get::<GRAD>(s, i, weight);
        let gn = if GRAD { gn } else { [s.zero(); D] };
        add_octave(
            s,
            (self.layer.kind, self.layer.offset, self.layer.weight),
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
        let (n, gn) = if *self.period != [0; 4] {
            s.outline(RowCall::<S, KP, D, false> {
                field: &o.field,
                period: self.period,
                p: xi,
                cache: None,
                kernel: core::marker::PhantomData,
            })
        } else {
            s.outline(RowCall::<S, K, D, false> {
                field: &o.field,
                period: self.period,
                p: xi,
                cache: None,
                kernel: core::marker::PhantomData,
            })
        };
        self.put(s, k, n, gn);
    }
}

/// One octave of a program over a piece of grid rows (`ys`, each the
/// stretch `xs` along x, the coordinates on the axes after y `rest`'s),
/// adding each point's noise to its sums in `acc`, exactly as
/// [`layer_lanes`](super::lanes::layer_lanes) adds it for one vector.
struct OctaveRows<'a, 'c, S: Simd, K, KP, const D: usize, const GRAD: bool> {
    o: &'a Oct<S>,
    spec: &'a OctaveSpec<D>,
    layer: &'a LayerSpec,
    j: usize,
    xs: &'a [S::E],
    ys: &'a [S::E],
    rest: [S::E; D],
    cache: &'c mut RowCache<S, D>,
    acc: &'c mut AccRows<S, D>,
    kernel: core::marker::PhantomData<fn() -> (K, KP)>,
}

impl<S: Simd, K: Kernel<D>, KP: Kernel<D>, const D: usize, const GRAD: bool> Call<S>
    for OctaveRows<'_, '_, S, K, KP, D, GRAD>
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
            periodic: period != [0; 4],
        };
        macro_rules! pass {
            ($fbm:literal) => {{
                let mut sink = AccSink::<S, K, KP, D, GRAD, $fbm> {
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
                let run = batch::Rows {
                    xs: self.xs,
                    ys: self.ys,
                    rest: self.rest,
                };
                let done =
                    K::octave_rows::<S, GRAD, _>(s, &o.field, run, &map, self.cache, &mut sink);
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
    fn run_rows(&self, s: S, run: batch::Rows<'_, S::E, D>, dest: batch::Dest<'_, '_, S>) -> bool {
        let batch::Rows {
            xs: xs_all,
            ys,
            rest,
        } = run;
        let batch::Dest {
            outs,
            at,
            bounds: (lo, hi),
        } = dest;
        if !self.by_octave || D < 2 {
            return false;
        }
        let Some(caches) = &self.octs.rows else {
            return false;
        };
        let mut caches = caches.borrow_mut();
        let layer = &self.prog.layers[0];
        let weight = layer.kind.weighted();
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
                        ($k:ty, $kp:ty) => {{
                            // Out of line, once per piece: inlined, these
                            // four kernels made the program's entry points
                            // (which already hold every kernel) big enough
                            // to double the release build's time.
                            s.outline(OctaveRows::<S, $k, $kp, D, GRAD> {
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
                    // The period is the pass's to read at run time.
                    if spec.noise.kind() == NoiseKind::Perlin {
                        pass!(HypercubeK<true, false>, HypercubeK<true, true>)
                    } else {
                        pass!(HypercubeK<false, false>, HypercubeK<false, true>)
                    }
                }
                let whole = xs.len() == nx && nx % l == 0;
                if !GRAD && whole {
                    // The piece's rows are one stretch of the output and
                    // of the sums: one loop, the same operations per
                    // vector as the per-row loop below.
                    let at = at + pi * per * nx;
                    let value = &mut outs[0][at..at + piece.len() * nx];
                    let scale = s.c(layer.scale);
                    let sums = &acc.v[..piece.len() * nv];
                    (vlo, vhi) = batch::scale_store(s, sums, scale, value, (vlo, vhi));
                    continue;
                }
                for r in 0..piece.len() {
                    let at = at + (pi * per + r) * nx + x0;
                    let sums = r * nv;
                    let full = xs.len() / l;
                    if !GRAD {
                        // `end_layer` without the gradient.
                        let value = &mut outs[0][at..at + full * l];
                        let scale = s.c(layer.scale);
                        let sums = &acc.v[sums..sums + full];
                        (vlo, vhi) = batch::scale_store(s, sums, scale, value, (vlo, vhi));
                    }
                    let from = if GRAD { 0 } else { full };
                    for k in from..nv {
                        let i = k * l;
                        let r = end_layer(s, layer.scale, acc.get::<GRAD>(s, sums + k, weight));
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
    fn row(&self, s: S, xs: &[S::E], dest: batch::Dest<'_, '_, S>) -> bool {
        let rest = self.rest.get();
        if D < 2 || rest[1..].iter().any(|v| v.is_nan()) {
            return false;
        }
        let run = batch::Rows {
            xs,
            ys: &rest[1..2],
            rest,
        };
        self.run_rows(s, run, dest)
    }
    #[inline(always)]
    fn rows(&self, s: S, run: batch::Rows<'_, S::E, D>, dest: batch::Dest<'_, '_, S>) -> bool {
        // A NaN row is the per-vector path's.
        if D < 2 || run.rest[2..].iter().any(|v| v.is_nan()) || run.ys.iter().any(|v| v.is_nan()) {
            return false;
        }
        self.run_rows(s, run, dest)
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
