// Lane code walks per-axis arrays in step; index loops read best there.
#![allow(clippy::needless_range_loop)]

use super::spec::OctaveSpec;
use crate::kernel::LaneParams;
use crate::kernel::band::RowCache;
use crate::noise::Noise;
use crate::prelude_internal::*;
use crate::simd::Element;
use crate::simd::Simd;

/// One octave's parameters in lanes.
#[derive(Clone, Copy)]
pub(crate) struct Oct<S: Simd> {
    pub(super) field: LaneParams<S>,
    /// The frequency; twice it for a turned octave, whose turn is halved.
    pub(super) freq: S::F,
    /// Half the octave's turn, `R/2`, if it has one. Halved so that `R/2 · x`
    /// cannot overflow for a finite `x` (each row of `R` has length 1, so
    /// `|R/2 · x| ≤ √D/2 · max|x|`, within range up to 4D); the frequency is
    /// doubled to match, and scaling by two is exact, so `(R/2·x)·2f` has the
    /// bits of `(R·x)·f` wherever that is finite.
    pub(super) rot: Option<[[S::F; 4]; 4]>,
    pub(super) offset: [S::F; 4],
    pub(super) amp: S::F,
}

impl<S: Simd> Oct<S> {
    #[inline(always)]
    fn new<const D: usize>(s: S, o: &OctaveSpec<D>) -> Self {
        let rot = o.rot.map(|r| {
            let mut h = [[s.zero(); 4]; 4];
            for a in 0..D {
                for b in 0..D {
                    h[a][b] = s.c(r[a][b] * 0.5);
                }
            }
            h
        });
        Oct {
            field: o.noise.field(s),
            freq: s.c(if rot.is_some() { o.freq * 2.0 } else { o.freq }),
            rot,
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
/// lie on.
pub(crate) trait Octs<S: Simd, const D: usize> {
    /// Octave `i`'s lane parameters: a reference where they are cached.
    /// `Oct` holds a whole [`LaneParams`] (periods, cellular options: hundreds of
    /// bytes), which must not be copied per octave and vector: by value,
    /// that `memcpy` costs as much as a quarter of a one-octave fractal.
    type Oct<'a>: core::ops::Deref<Target = Oct<S>>
    where
        Self: 'a;
    fn oct(&self, i: usize) -> Self::Oct<'_>;
    /// Evaluates octave `i`'s noise at `p`. `on_row` is false where the
    /// octave's coordinates were saturated (see [`octave_overflow`]): they
    /// are then not the row's that
    /// [`Lanes::start_row`](crate::batch::Lanes::start_row) announced.
    fn eval(
        &self,
        s: S,
        i: usize,
        noise: &Noise<D>,
        field: &LaneParams<S>,
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
        field: &LaneParams<S>,
        p: [S::F; D],
        _: bool,
    ) -> (S::F, [S::F; D]) {
        noise.eval_lanes_row::<S, false>(s, field, p, None)
    }
}

pub(crate) struct Cached<S: Simd, const D: usize> {
    octs: Vec<Oct<S>>,
    pub(super) rows: Option<core::cell::RefCell<Vec<RowCache<S, D>>>>,
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
        field: &LaneParams<S>,
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
        noise.eval_lanes_row::<S, true>(s, field, p, cache)
    }
}

/// `H·x` for a turned octave's `H = R/2`, each row summed from its first
/// term (the WGSL twin sums in the same order).
#[inline(always)]
pub(super) fn turn<S: Simd, const D: usize>(s: S, h: &[[S::F; 4]; 4], x: [S::F; D]) -> [S::F; D] {
    let mut y = x;
    for a in 0..D {
        let mut acc = s.mul(h[a][0], x[0]);
        for b in 1..D {
            acc = s.add(acc, s.mul(h[a][b], x[b]));
        }
        y[a] = acc;
    }
    y
}

/// `Hᵀ·g`: the octave's gradient pulled back through its turn, halved, as
/// the doubled frequency that [`add_octave`](crate::fractal_kind::add_octave)
/// multiplies it by restores.
#[inline(always)]
pub(super) fn turn_back<S: Simd, const D: usize>(
    s: S,
    h: &[[S::F; 4]; 4],
    g: [S::F; D],
) -> [S::F; D] {
    let mut out = g;
    for b in 0..D {
        let mut acc = s.mul(h[0][b], g[0]);
        for a in 1..D {
            acc = s.add(acc, s.mul(h[a][b], g[a]));
        }
        out[b] = acc;
    }
    out
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
pub(super) fn octave_overflow<S: Simd, const D: usize>(
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
