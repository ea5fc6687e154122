//! Each kernel type's WGSL: the source that defines its functions and the
//! call of them for one noise, beside the Rust kernel it mirrors. The
//! writer reaches a noise's impl through the kind registry
//! (`kind::with_kernel!`), so a kind without WGSL is refused with its name.

use super::lit::{bad, c, lit, vec};
use crate::error::Error;
use crate::kernel::MARGIN;
use crate::kernel::cubic::{CUBIC_SCALE, ValueCubicK};
use crate::kernel::hypercube::PERLIN_SCALE;
use crate::kernel::opensimplex::{OS2_SCALE, OS2S_SCALE, R2_S2, R2_S4};
use crate::kernel::select::{CellularK, HypercubeK, OpenSimplexK, SimplexK, SimplexValueK};
use crate::kernel::simplex::{HEX_SX, HEX_SY, SIMPLEX_SCALE, SIMPLEX_VALUE_SCALE};
use crate::noise::{Noise, NoiseKind};
use crate::prelude_internal::*;
use crate::simd::scalar::Scalar;

/// A kernel's WGSL.
pub(super) trait WgslKernel<const D: usize> {
    /// The source of its WGSL functions, if it has any.
    const SOURCE: Option<&'static str> = None;
    /// The other sources whose functions its source calls.
    const REQUIRES: &'static [&'static str] = &[];

    /// The call of its function for `noise` at the WGSL expression `p`,
    /// returning `vecN<f32>(value, gradient)`.
    fn call(noise: &Noise<D>, p: &str) -> Result<String, Error> {
        let _ = p;
        Err(bad(format!(
            "{} noise has no WGSL kernel yet",
            noise.kind().name()
        )))
    }
}

/// The sources that the kinds `used` need, each once, in the registry's
/// order (a module carries only the kernels it calls).
pub(super) fn sources<const D: usize>(used: &[NoiseKind]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for kind in NoiseKind::ALL.into_iter().filter(|k| used.contains(k)) {
        let noise = Noise::<D>::new(kind, 0);
        let (source, requires) = crate::kind::with_kernel!(&noise, K => (
            <K as WgslKernel<D>>::SOURCE,
            <K as WgslKernel<D>>::REQUIRES,
        ));
        for s in requires.iter().copied().chain(source) {
            if !out.iter().any(|o| core::ptr::eq(*o, s)) {
                out.push(s);
            }
        }
    }
    out
}

/// The period constants of `noise` as WGSL vectors: per-axis periods, their
/// reciprocals, and a `vecD<u32>` of `cells`.
struct Periods {
    per: String,
    inv: String,
}

fn periods<const D: usize>(noise: &Noise<D>) -> (crate::kernel::LaneParams<Scalar<f32>>, Periods) {
    let field = noise.field(Scalar::<f32>::new());
    let per = vec(&(0..D).map(|a| lit(field.period.f[a])).collect::<Vec<_>>());
    let inv = vec(&(0..D).map(|a| lit(field.period.inv[a])).collect::<Vec<_>>());
    (field, Periods { per, inv })
}

fn uvec<const D: usize>(v: &[u32; 4]) -> String {
    let parts: Vec<String> = (0..D).map(|a| format!("{}u", v[a])).collect();
    format!("vec{D}<u32>({})", parts.join(", "))
}

const HYPERCUBE: &str = include_str!("hypercube.wgsl");
const SIMPLEX: &str = include_str!("simplex.wgsl");

impl<const D: usize, const PERLIN: bool, const P: bool> WgslKernel<D> for HypercubeK<PERLIN, P> {
    const SOURCE: Option<&'static str> = Some(HYPERCUBE);

    fn call(noise: &Noise<D>, p: &str) -> Result<String, Error> {
        let (field, Periods { per, inv }) = periods(noise);
        Ok(format!(
            "surflet_hypercube{D}({:#x}u, {p}, {PERLIN}, {P}, {per}, {inv}, {}, {})",
            field.key,
            uvec::<D>(&field.period.cells),
            c(PERLIN_SCALE[D - 1] * MARGIN),
        ))
    }
}

/// Simplex (`VALUE = false`) and simplex value noise: the three WGSL
/// lattices of `simplex.rs` (2D, 2D hexagonal when periodic, 3D).
fn simplex_call<const D: usize, const VALUE: bool, const P: bool>(
    noise: &Noise<D>,
    p: &str,
) -> String {
    let (field, Periods { per, inv }) = periods(noise);
    let key = format!("{:#x}u", field.key);
    let scale = MARGIN
        * if VALUE {
            SIMPLEX_VALUE_SCALE[D - 1]
        } else {
            SIMPLEX_SCALE[D - 1]
        };
    if D == 2 && P {
        let s = [c(scale), c(scale * HEX_SX), c(scale * HEX_SY)];
        format!(
            "surflet_simplex2_hex({key}, {p}, {VALUE}, {per}, {inv}, {}u, {}u, {}u, {})",
            field.period.cells[1],
            field.period.half[1],
            field.period.double[0],
            vec(&s)
        )
    } else if D == 2 {
        format!("surflet_simplex2({key}, {p}, {VALUE}, {})", c(scale))
    } else if D == 4 {
        // 4D has no periodic form (refused when the noise is made).
        format!("surflet_simplex4({key}, {p}, {VALUE}, {})", c(scale))
    } else {
        format!(
            "surflet_simplex3({key}, {p}, {VALUE}, {P}, {per}, {inv}, {}, {})",
            uvec::<D>(&field.period.double),
            c(scale)
        )
    }
}

impl<const D: usize, const P: bool> WgslKernel<D> for SimplexK<P> {
    const SOURCE: Option<&'static str> = Some(SIMPLEX);
    const REQUIRES: &'static [&'static str] = &[HYPERCUBE];

    fn call(noise: &Noise<D>, p: &str) -> Result<String, Error> {
        Ok(simplex_call::<D, false, P>(noise, p))
    }
}

impl<const D: usize, const P: bool> WgslKernel<D> for SimplexValueK<P> {
    const SOURCE: Option<&'static str> = Some(SIMPLEX);
    const REQUIRES: &'static [&'static str] = &[HYPERCUBE];

    fn call(noise: &Noise<D>, p: &str) -> Result<String, Error> {
        Ok(simplex_call::<D, true, P>(noise, p))
    }
}

const OPENSIMPLEX: &str = include_str!("opensimplex.wgsl");

impl<const D: usize, const SUPER: bool> WgslKernel<D> for OpenSimplexK<SUPER> {
    const SOURCE: Option<&'static str> = Some(OPENSIMPLEX);
    const REQUIRES: &'static [&'static str] = &[HYPERCUBE, SIMPLEX];

    fn call(noise: &Noise<D>, p: &str) -> Result<String, Error> {
        let (field, _) = periods(noise);
        let key = format!("{:#x}u", field.key);
        let scale = if SUPER { OS2S_SCALE } else { OS2_SCALE };
        Ok(match D {
            2 => {
                let r2 = if SUPER { R2_S2 } else { 0.5 };
                format!(
                    "surflet_os2({key}, {p}, {SUPER}, {}, {})",
                    c(r2),
                    c(scale[0] * MARGIN)
                )
            }
            3 => format!("surflet_os3({key}, {p}, {SUPER}, {})", c(scale[1] * MARGIN)),
            _ => {
                let r2 = if SUPER { R2_S4 } else { 0.5 };
                format!(
                    "surflet_os4({key}, {p}, {SUPER}, {}, {})",
                    c(r2),
                    c(scale[2] * MARGIN)
                )
            }
        })
    }
}

const CELLULAR: &str = include_str!("cellular.wgsl");

impl<const D: usize, const P: bool> WgslKernel<D> for CellularK<P> {
    const SOURCE: Option<&'static str> = Some(CELLULAR);
    const REQUIRES: &'static [&'static str] = &[HYPERCUBE];

    fn call(noise: &Noise<D>, p: &str) -> Result<String, Error> {
        use crate::cellular::{CellularDistance as Di, CellularReturn as Re};
        let (field, _) = periods(noise);
        let cl = &field.cell;
        let dist = match cl.distance {
            Di::Euclidean => 0,
            Di::EuclideanSquared => 1,
            Di::Manhattan => 2,
            Di::Chebyshev => 3,
            Di::Hybrid => 4,
        };
        let ret = match cl.ret {
            Re::F1 => 0,
            Re::F2 => 1,
            Re::F2MinusF1 => 2,
            Re::F1PlusF2 => 3,
            Re::F1TimesF2 => 4,
            Re::F1OverF2 => 5,
            Re::CellValue => 6,
        };
        // Four components whatever D (an unused axis: 0, period 1).
        let axis = |v: &[f32; 4], unused: f32| {
            let parts: Vec<String> = (0..4)
                .map(|a| lit(if a < D { v[a] } else { unused }))
                .collect();
            vec(&parts)
        };
        let zeros = vec!["0.0f"; 4 - D].join(", ");
        let q = if D == 4 {
            p.to_string()
        } else {
            format!("vec4<f32>({p}, {zeros})")
        };
        let call = format!(
            "surflet_cellular({:#x}u, {q}, {D}u, {P}, {}, {}, {dist}u, {ret}u, {}, {}, {}, {})",
            field.key,
            axis(&field.period.f, 1.0),
            axis(&field.period.inv, 1.0),
            lit(cl.jitter),
            lit(cl.reach),
            lit(cl.mid),
            lit(cl.scale),
        );
        Ok(match D {
            2 => format!("surflet_cellular_vg2({call})"),
            3 => format!("surflet_cellular_vg3({call})"),
            _ => call,
        })
    }
}

const CUBIC: &str = include_str!("cubic.wgsl");

impl<const D: usize, const P: bool> WgslKernel<D> for ValueCubicK<P> {
    const SOURCE: Option<&'static str> = Some(CUBIC);
    const REQUIRES: &'static [&'static str] = &[HYPERCUBE];

    fn call(noise: &Noise<D>, p: &str) -> Result<String, Error> {
        let (field, Periods { per, inv }) = periods(noise);
        Ok(format!(
            "surflet_cubic{D}({:#x}u, {p}, {P}, {per}, {inv}, {}, {})",
            field.key,
            uvec::<D>(&field.period.cells),
            c(CUBIC_SCALE[D - 1]),
        ))
    }
}
