//! Value, Perlin and simplex noise in any dimension from 1 to 8: [`NoiseNd`].
//!
//! One kernel per kind, written once over the dimension, with analytic
//! gradients, in `f32` and `f64`, seeded like [`Noise`](crate::Noise), and
//! evaluated one point at a time or in SIMD batches that give the same bits
//! on every instruction set.
//!
//! | kind | lattice | corners | range |
//! |---|---|---|---|
//! | [`Value`](NdKind::Value) | hypercube, quintic blend | 2^D | (-1, 1) |
//! | [`Perlin`](NdKind::Perlin) | hypercube, quintic blend | 2^D | [-1, 1] |
//! | [`Simplex`](NdKind::Simplex) | skewed simplex, radius² ½ | D + 1 | [-1, 1] |
//!
//! A point costs O(D·2^D) for value and Perlin noise and O(D²) for simplex
//! noise (the rank ordering).
//!
//! **Relation to [`Noise<D>`](crate::Noise).** Value and Perlin noise in
//! 1D–4D are the same functions as `Noise<D>`'s (the same hash, gradient sets
//! and normalisation): `NoiseNd::<D>::new(NdKind::Perlin, s)` returns exactly
//! the bits of `Noise::<D>::new(NoiseKind::Perlin, s)`. Simplex noise is
//! *not* the family's in any dimension: `NoiseNd` uses the classic skewed
//! lattice for every D (in 1D that is the integer line scaled by 1/√2, where
//! `Noise<1>` uses the unit line with radius² 1; in 3D `Noise<3>` uses the
//! body-centred cubic lattice) and one gradient set for every D (the corner
//! directions (±1, …, ±1) and the edge directions with one zero, where the
//! family uses Catlike's and its own unit sets), so the two differ.
//!
//! **Simplex dead zones from 6D.** Radius² ½ keeps simplex noise seam-free
//! (C²) in every D, but from 6D the lattice's deep holes are farther than √½
//! from every corner, and the noise is exactly 0 there: on 1.75%, 18.4% and
//! 41.4% of space in 6D, 7D and 8D (`docs/RANGES.md`). Up to 5D every point
//! is covered.
//!
//! **Ranges** are exact suprema over gradient assignments, derived in
//! `docs/RANGES.md` and measured by the tests; nothing is clamped.
//!
//! **No periods**: `NoiseNd` does not tile; use [`Noise`](crate::Noise) for
//! periodic noise in 1D–4D.
//!
//! ```
//! use surflet::nd::{NdKind, NoiseNd};
//! let n = NoiseNd::<6>::new(NdKind::Simplex, 42);
//! let s = n.sample([0.1f64, 0.2, 0.3, 0.4, 0.5, 0.6]);
//! assert!(s.value.abs() <= 1.0);
//! assert_eq!(s.gradient.len(), 6);
//! ```

use crate::batch::{self, Lanes, Source, Work};
use crate::error::Error;
use crate::field::Field;
use crate::float::Float;
use crate::kernel::nd::{self as k, MAX_D};
use crate::prelude_internal::*;
use crate::sample::Sample;
use crate::simd::scalar::Scalar;
use crate::simd::{Isa, Simd};

/// The noises [`NoiseNd`] computes.
///
/// ```
/// use surflet::nd::NdKind;
/// assert_eq!(NdKind::from_name("perlin")?, NdKind::Perlin);
/// assert_eq!(NdKind::Simplex.name(), "simplex");
/// # Ok::<(), surflet::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NdKind {
    /// Value noise: a random value in (-1, 1) at each lattice point, blended
    /// with the quintic fade.
    Value,
    /// Perlin noise: gradient ramps at the 2^D cell corners, blended with the
    /// quintic fade, normalised to [-1, 1].
    Perlin,
    /// Simplex noise: gradient surflets at the D + 1 corners of the skewed
    /// simplex, normalised to [-1, 1]. A different function from
    /// [`NoiseKind::Simplex`](crate::NoiseKind::Simplex) in every dimension
    /// (the classic skewed lattice and one gradient set for every D; see
    /// the module docs), which is why `surflet sample simplex` says so on
    /// standard error when 5 to 8 columns select this one.
    Simplex,
}

impl NdKind {
    /// All kinds.
    ///
    /// ```
    /// assert_eq!(surflet::nd::NdKind::ALL.len(), 3);
    /// ```
    pub const ALL: [NdKind; 3] = [NdKind::Value, NdKind::Perlin, NdKind::Simplex];

    /// The name, as on the command line: `value`, `perlin`, `simplex`.
    ///
    /// ```
    /// assert_eq!(surflet::nd::NdKind::Value.name(), "value");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            NdKind::Value => "value",
            NdKind::Perlin => "perlin",
            NdKind::Simplex => "simplex",
        }
    }

    /// Parses a name produced by [`name`](Self::name).
    ///
    /// ```
    /// use surflet::nd::NdKind;
    /// assert!(NdKind::from_name("simplex-value").is_err());
    /// ```
    pub fn from_name(name: &str) -> Result<NdKind, Error> {
        NdKind::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| Error::UnknownName {
                what: "N-D noise",
                name: name.to_string(),
                expected: NdKind::ALL.map(|k| k.name()).join(", "),
            })
    }
}

impl core::fmt::Display for NdKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// A seeded value, Perlin or simplex noise in `D` dimensions, 1 ≤ D ≤ 8
/// (checked at compile time).
///
/// **Seeds** map to the lattice key exactly as for [`Noise`](crate::Noise)
/// (SplitMix64, frozen). Corner hashes use the family's per-axis
/// multipliers on the first four axes and four more odd constants after.
///
/// **Large and non-finite input.** Lattice cells are taken modulo 2^32 by
/// exact float arithmetic, so finite coordinates of any size give a finite
/// result; NaN or ±∞ in any coordinate gives NaN value and gradient.
///
/// ```
/// use surflet::nd::{NdKind, NoiseNd};
/// let n = NoiseNd::<5>::new(NdKind::Perlin, 7);
/// let p = [0.3f64, 1.7, -2.2, 4.9, 0.05];
/// let s = n.sample(p);
/// // The gradient is the derivative of the value.
/// let h = 1e-6;
/// let mut q = p;
/// q[3] += h;
/// let mut r = p;
/// r[3] -= h;
/// assert!(((n.get(q) - n.get(r)) / (2.0 * h) - s.gradient[3]).abs() < 1e-6);
/// assert!(n.get([f64::NAN, 0.0, 0.0, 0.0, 0.0]).is_nan());
/// ```
///
/// A dimension outside 1..=8 does not compile:
///
/// ```compile_fail
/// let n = surflet::nd::NoiseNd::<9>::new(surflet::nd::NdKind::Value, 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NoiseNd<const D: usize> {
    kind: NdKind,
    seed: u64,
    key: u32,
}

impl<const D: usize> NoiseNd<D> {
    const DIMENSION_OK: () = assert!(
        D >= 1 && D <= MAX_D,
        "surflet N-D noise has 1 to 8 dimensions"
    );

    /// A noise of the given kind and seed.
    ///
    /// ```
    /// use surflet::nd::{NdKind, NoiseNd};
    /// let n = NoiseNd::<8>::new(NdKind::Simplex, 1);
    /// assert_eq!(n.kind(), NdKind::Simplex);
    /// ```
    pub const fn new(kind: NdKind, seed: u64) -> Self {
        let () = Self::DIMENSION_OK;
        NoiseNd {
            kind,
            seed,
            key: crate::seed::key(seed),
        }
    }

    /// The noise kind.
    ///
    /// ```
    /// use surflet::nd::{NdKind, NoiseNd};
    /// assert_eq!(NoiseNd::<2>::new(NdKind::Value, 0).kind(), NdKind::Value);
    /// ```
    pub const fn kind(&self) -> NdKind {
        self.kind
    }

    /// The seed.
    ///
    /// ```
    /// use surflet::nd::{NdKind, NoiseNd};
    /// assert_eq!(NoiseNd::<2>::new(NdKind::Value, 9).seed(), 9);
    /// ```
    pub const fn seed(&self) -> u64 {
        self.seed
    }

    /// The value at `p`.
    ///
    /// ```
    /// use surflet::nd::{NdKind, NoiseNd};
    /// let n = NoiseNd::<7>::new(NdKind::Value, 3);
    /// let v: f32 = n.get([0.5; 7]);
    /// assert!(v.abs() < 1.0);
    /// ```
    #[inline]
    pub fn get<F: Float>(&self, p: [F; D]) -> F {
        self.sample(p).value
    }

    /// The value and its analytic gradient at `p`.
    ///
    /// ```
    /// use surflet::nd::{NdKind, NoiseNd};
    /// let n = NoiseNd::<3>::new(NdKind::Simplex, 3);
    /// let s = n.sample([0.25f64, 0.5, 0.75]);
    /// assert_eq!(s.value, n.get([0.25, 0.5, 0.75]));
    /// ```
    #[inline]
    pub fn sample<F: Float>(&self, p: [F; D]) -> Sample<F, D> {
        let s = Scalar::<F>::new();
        let (value, gradient) = self.eval_lanes(s, s.u_splat(self.key), p);
        Sample { value, gradient }
    }

    #[inline(always)]
    fn eval_lanes<S: Simd>(&self, s: S, key: S::U, p: [S::F; D]) -> (S::F, [S::F; D]) {
        match self.kind {
            NdKind::Value => k::eval::<S, D, { k::VALUE }>(s, key, p),
            NdKind::Perlin => k::eval::<S, D, { k::PERLIN }>(s, key, p),
            NdKind::Simplex => k::eval::<S, D, { k::SIMPLEX }>(s, key, p),
        }
    }
}

/// Value, Perlin and simplex noise in 1 to 8 dimensions, normalised to
/// `[-1, 1]`; its grid calls evaluate the grid's points through its point
/// call (the same bits).
impl<const D: usize> Field<D> for NoiseNd<D> {
    #[inline]
    fn sample<F: Float>(&self, p: [F; D]) -> Sample<F, D> {
        NoiseNd::sample(self, p)
    }
    fn range(&self) -> (f64, f64) {
        (-1.0, 1.0)
    }
    #[inline]
    fn get<F: Float>(&self, p: [F; D]) -> F {
        NoiseNd::get(self, p)
    }
    /// ```
    /// use surflet::Field;
    /// use surflet::nd::{NdKind, NoiseNd};
    /// let n = NoiseNd::<6>::new(NdKind::Perlin, 2);
    /// let c: Vec<f64> = (0..10).map(|i| i as f64 * 0.37).collect();
    /// let mut out = vec![0.0; 10];
    /// let mut g = vec![vec![0.0; 10]; 6];
    /// let [g0, g1, g2, g3, g4, g5] = &mut g[..] else { unreachable!() };
    /// n.fill_gradient([&c; 6], &mut out, [g0, g1, g2, g3, g4, g5])?;
    /// assert_eq!(g[4][3], n.sample([c[3]; 6]).gradient[4]);
    /// assert!(n.fill([&c; 6], &mut vec![0.0; 9]).is_err());
    /// # Ok::<(), surflet::Error>(())
    /// ```
    fn fill_on<F: Float>(
        &self,
        isa: Isa,
        coords: [&[F]; D],
        out: &mut [F],
        gradient: Option<[&mut [F]; D]>,
    ) -> Result<(), Error> {
        batch::fill_points(self, isa, coords, out, gradient)
    }
}

/// Kind `KIND`'s kernel on lanes for the batch loop ([`batch::exec`]),
/// with the gradient if `GRAD`: the same per-lane kernel as the
/// single-point call, so the same bits.
struct NdLanes<S: Simd, const KIND: u8, const GRAD: bool> {
    key: S::U,
}

/// Outputs of N-D lanes: the value and up to [`MAX_D`] derivatives.
const ND_OUTPUTS: usize = MAX_D + 1;

impl<S: Simd, const D: usize, const KIND: u8, const GRAD: bool> Lanes<S, D, ND_OUTPUTS>
    for NdLanes<S, KIND, GRAD>
{
    #[inline(always)]
    fn outputs(&self) -> usize {
        if GRAD { 1 + D } else { 1 }
    }
    #[inline(always)]
    fn eval(&self, s: S, p: [S::F; D], r: &mut [S::F; ND_OUTPUTS]) {
        let (v, g) = k::eval::<S, D, KIND>(s, self.key, p);
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

impl<F: Float, const D: usize> Source<F, D> for NoiseNd<D> {
    #[inline(always)]
    fn run<S: Simd<E = F>>(
        &self,
        s: S,
        grad: bool,
        work: Work<'_, F, D>,
        outs: &mut [&mut [F]],
    ) -> (F, F) {
        let key = s.u_splat(self.key);
        macro_rules! exec {
            ($kind:expr) => {
                if grad {
                    batch::exec(s, &NdLanes::<S, { $kind }, true> { key }, work, outs)
                } else {
                    batch::exec(s, &NdLanes::<S, { $kind }, false> { key }, work, outs)
                }
            };
        }
        match self.kind {
            NdKind::Value => exec!(k::VALUE),
            NdKind::Perlin => exec!(k::PERLIN),
            NdKind::Simplex => exec!(k::SIMPLEX),
        }
    }
}
