//! Curl noise: divergence-free vector fields from the analytic gradients of
//! scalar potentials (Bridson, Hourihan & Nordenstam, *Curl-noise for
//! procedural fluid flow*, 2007).
//!
//! * 2D: the perpendicular gradient of one potential ψ,
//!   `(∂ψ/∂y, −∂ψ/∂x)`.
//! * 3D: the curl of a vector potential Ψ = (ψ₁, ψ₂, ψ₃) of three
//!   decorrelated fields, `(∂ψ₃/∂y − ∂ψ₂/∂z, ∂ψ₁/∂z − ∂ψ₃/∂x,
//!   ∂ψ₂/∂x − ∂ψ₁/∂y)`.
//!
//! Both are divergence-free by construction — the divergence is a difference
//! of equal mixed second derivatives — wherever the potentials are twice
//! continuously differentiable: everywhere for noises and fBm, away from the
//! `|n|` creases and clamp thresholds for the other fractal kinds.
//!
//! **Seeds.** [`Curl::<3>::new`] derives the potentials from the given
//! fractal's seed `s`: potential `k` (0, 1, 2) gets
//! `splitmix64(s ^ 0x4355524C4355524C ^ k·0x9E3779B97F4A7C15)` (the salt is
//! ASCII "CURLCURL"), with the same parameters and period. In 2D the one
//! potential is the given fractal itself.

use crate::batch::{self, Lanes, Source, Work};
use crate::error::Error;
use crate::float::Float;
use crate::fractal::Fractal;
use crate::prelude_internal::*;
use crate::program::{Cached, Lazy, Program, layer_lanes};
use crate::seed::{CURL_SALT, derive};
use crate::simd::scalar::Scalar;
use crate::simd::{Isa, Simd};

/// A curl-noise vector field in 2D or 3D.
///
/// ```
/// use surflet::{Curl, Fractal, FractalKind, FractalParams, Noise, NoiseKind};
/// let psi = Fractal::new(Noise::<3>::new(NoiseKind::Simplex, 5), FractalParams::new(FractalKind::Fbm))?;
/// let curl = Curl::<3>::new(psi);
/// let p = [0.1f64, 0.2, 0.3];
/// let v = curl.get(p);
/// assert!(v.iter().all(|c| c.is_finite()));
/// // Divergence-free: the central-difference divergence vanishes.
/// let h = 1e-6;
/// let mut div = 0.0;
/// for a in 0..3 {
///     let (mut lo, mut hi) = (p, p);
///     lo[a] -= h;
///     hi[a] += h;
///     div += (curl.get(hi)[a] - curl.get(lo)[a]) / (hi[a] - lo[a]);
/// }
/// assert!(div.abs() < 1e-6);
/// # Ok::<(), surflet::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Curl<const D: usize> {
    potentials: Vec<Fractal<D>>,
    program: Program<D>,
}

impl<const D: usize> Curl<D> {
    const DIMENSION_OK: () = assert!(D == 2 || D == 3, "curl noise is 2D or 3D");

    /// Curl noise from the potential `psi`: in 2D `psi` itself; in 3D three
    /// potentials with `psi`'s parameters and seeds derived from its seed
    /// (see the [module documentation](crate::curl)).
    pub fn new(psi: Fractal<D>) -> Self {
        let () = Self::DIMENSION_OK;
        let potentials = if D == 2 {
            vec![psi]
        } else {
            let seed = psi.noise().seed();
            (0..3)
                .map(|k| psi.with_seed(derive(seed, CURL_SALT, k)))
                .collect()
        };
        Self::build(potentials)
    }

    fn build(potentials: Vec<Fractal<D>>) -> Self {
        let mut program = Program {
            octaves: Vec::new(),
            layers: Vec::new(),
            steps: 0,
        };
        for p in &potentials {
            let pp = p.program();
            program.push_layer(&pp.octaves, pp.layers[0]);
        }
        Curl {
            potentials,
            program,
        }
    }

    /// The same curl noise with each potential's octaves faded for samples
    /// `footprint` input units apart, as an
    /// [antialiased](crate::Stack::antialias) stack fades its own: octave
    /// `i`'s amplitude times `1 − smoothstep(0.2, 0.75, fᵢ · footprint)`.
    /// The weights are constants, so the field stays the exact curl of the
    /// faded potentials, divergence-free as before.
    /// [`potentials`](Self::potentials) stay the unfaded fractals.
    ///
    /// ```
    /// use surflet::{Curl, Fractal, FractalKind, FractalParams, Noise, NoiseKind};
    /// let psi = Fractal::new(
    ///     Noise::<2>::new(NoiseKind::Perlin, 1),
    ///     FractalParams { octaves: 8, ..FractalParams::new(FractalKind::Fbm) },
    /// )?;
    /// let plain = Curl::<2>::new(psi);
    /// let p = [0.3f64, 0.7];
    /// assert_eq!(plain.with_footprint(1e-4).get(p), plain.get(p)); // nothing fades
    /// assert_ne!(plain.with_footprint(0.1).get(p), plain.get(p));
    /// assert_eq!(plain.with_footprint(1.0).get(p), [0.0; 2]); // everything does
    /// # Ok::<(), surflet::Error>(())
    /// ```
    pub fn with_footprint(&self, footprint: f64) -> Self {
        let mut faded = self.clone();
        faded.program.fade(footprint);
        faded
    }

    /// The potentials: one in 2D, three in 3D.
    pub fn potentials(&self) -> &[Fractal<D>] {
        &self.potentials
    }

    /// The curl vector at `p`.
    #[inline]
    pub fn get<F: Float>(&self, p: [F; D]) -> [F; D] {
        let s = Scalar::<F>::new();
        let octs = Lazy {
            s,
            specs: &self.program.octaves,
        };
        let mut r = [F::ZERO; 5];
        CurlLanes {
            prog: &self.program,
            octs,
        }
        .eval(s, p, &mut r);
        array_of(|a| r[a])
    }

    /// Evaluates at `coords[0][i], coords[1][i], ...` for every `i`, writing
    /// component `a` of the curl to `out[a][i]`, on the widest instruction set
    /// available. Every slice must have the same length. Returns the same
    /// bits as [`get`](Self::get).
    pub fn fill<F: Float>(&self, coords: [&[F]; D], out: [&mut [F]; D]) -> Result<(), Error> {
        self.fill_on(Isa::detect(), coords, out)
    }

    /// [`fill`](Self::fill) on a chosen instruction set (every one gives the
    /// same bits). Fails if the CPU lacks `isa`.
    pub fn fill_on<F: Float>(
        &self,
        isa: Isa,
        coords: [&[F]; D],
        out: [&mut [F]; D],
    ) -> Result<(), Error> {
        let outs: Vec<&mut [F]> = out.into_iter().collect();
        let n = outs[0].len();
        batch::check(isa, n, &outs, false)?;
        batch::check_coords(&coords, n)?;
        batch::drive(self, isa, false, Work::Points(coords), outs);
        Ok(())
    }
}

impl Curl<3> {
    /// Curl noise from three given potentials ψ₁, ψ₂, ψ₃ (which should be
    /// decorrelated: different seeds).
    pub fn from_potentials(psi: [Fractal<3>; 3]) -> Self {
        Self::build(psi.into())
    }
}

struct CurlLanes<'a, const D: usize, O> {
    prog: &'a Program<D>,
    octs: O,
}

impl<S: Simd, const D: usize, O: crate::program::Octs<S, D>> Lanes<S, D> for CurlLanes<'_, D, O> {
    #[inline(always)]
    fn outputs(&self) -> usize {
        D
    }
    #[inline(always)]
    fn eval(&self, s: S, p: [S::F; D], r: &mut [S::F; 5]) {
        let zero = s.zero();
        let mut g = [[zero; D]; 3];
        // One loop over the potentials, so the kernels inline once.
        for (k, layer) in self.prog.layers.iter().enumerate() {
            g[k] = layer_lanes(s, &self.prog.octaves, &self.octs, layer, p).1;
        }
        if D == 2 {
            r[0] = g[0][1];
            r[1] = s.neg(g[0][0]);
        } else {
            r[0] = s.sub(g[2][1], g[1][2]);
            r[1] = s.sub(g[0][2], g[2][0]);
            r[2] = s.sub(g[1][0], g[0][1]);
        }
    }
}

impl<F: Float, const D: usize> Source<F, D> for Curl<D> {
    #[inline(always)]
    fn run<S: Simd<E = F>>(
        &self,
        s: S,
        _grad: bool,
        work: Work<'_, F, D>,
        outs: &mut [&mut [F]],
    ) -> (F, F) {
        let l = CurlLanes {
            prog: &self.program,
            octs: Cached::new(s, &self.program.octaves, false),
        };
        batch::exec(s, &l, work, outs)
    }
}
