//! What a subcommand evaluates: a named noise fixed in its dimension and
//! options, behind one `eval(&[f64]) -> Eval` call.
//!
//! Every input number travels as `f64`. That is lossless for all of them:
//! `f32` coordinates are parsed as `f32` and widened exactly, and integer
//! periods are `i32`, which `f64` holds exactly, so each noise narrows them
//! back without rounding.

use surflet::reference::{
    classic2005, noise1234, opensimplex2, opensimplex2s, perlin2002, sdnoise1234, simplex2005,
    simplex2012, simplexnoise1234, srdnoise23,
};

use crate::any_field::FieldCalls;
use crate::names::{NoiseName, Port, Precision, Variant};
use surflet::dynamic::DynCurl;
use surflet::dynamic::DynField;

pub use crate::sampled::Eval;

/// A reference port as a function of one line's numbers.
pub type ReferenceFn = fn(&[f64]) -> Eval;

/// An OpenSimplex2 port as a function of the Java `long` seed and one
/// line's coordinates.
pub type SeededFn = fn(i64, &[f64]) -> f32;

/// Options of a family noise.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FamilyOptions {
    /// The seed.
    pub seed: u64,
    /// One period per axis, if the noise tiles.
    pub period: Option<Vec<u32>>,
    /// Compute in `f32` rather than `f64`.
    pub f32: bool,
    /// The OpenSimplex2 ports' lattice orientation (`None`: the dimension's
    /// default). The ports also take [`seed`](Self::seed), as a Java `long`.
    pub variant: Option<Variant>,
}

/// A noise ready to evaluate points: a named noise fixed in its dimension and
/// options.
///
/// Every kind of evaluation goes through [`NoiseFn::eval`]: it takes one
/// line's numbers and returns the value and gradient.
#[derive(Clone, Debug)]
pub enum NoiseFn {
    /// A reference port.
    Reference(ReferenceFn),
    /// An OpenSimplex2 port with its seed.
    OpenSimplex2 {
        /// The Java function.
        f: SeededFn,
        /// The Java `long` seed.
        seed: i64,
    },
    /// A surflet family noise, computed in `f32` if the flag is set.
    Family {
        /// The noise.
        noise: DynField,
        /// Compute in `f32`.
        f32: bool,
    },
    /// A noise stack (fractal, warp).
    Stack {
        /// The compiled stack.
        field: Box<DynField>,
        /// Compute in `f32`.
        f32: bool,
        /// Compute the gradient too (otherwise it is left zero).
        gradient: bool,
    },
    /// Curl noise; [`Eval::gradient`] holds the vector.
    Curl {
        /// The curl field.
        field: Box<DynCurl>,
        /// Compute in `f32`.
        f32: bool,
    },
}

impl NoiseFn {
    /// The evaluator for `name` in `dims` dimensions. `family` is used only
    /// for family noises. Fails if the noise lacks the dimension or the
    /// options are invalid for it.
    pub fn new(name: NoiseName, dims: usize, family: &FamilyOptions) -> Result<Self, String> {
        let port = match name {
            NoiseName::Family(kind) => {
                let period = family.period.as_deref();
                let noise = DynField::noise(kind, family.seed, period, None, dims)
                    .map_err(|e| e.to_string())?;
                return Ok(NoiseFn::Family {
                    noise,
                    f32: family.f32,
                });
            }
            NoiseName::Port(port) => port,
        };
        if name.is_opensimplex2() {
            let variant = family
                .variant
                .or_else(|| Variant::default_for(dims))
                .ok_or_else(|| format!("{name} has no {dims}D form"))?;
            return match opensimplex2_fn(port, variant, dims) {
                // The seed modulo 2^64, as a Java `long`: the same bits.
                Some(f) => Ok(NoiseFn::OpenSimplex2 {
                    f,
                    seed: family.seed as i64,
                }),
                None => Err(format!(
                    "{name} has no {dims}D variant {variant}; in {dims}D --variant is one of {} \
                     (the first is the default)",
                    Variant::of_dims(dims)
                        .iter()
                        .map(|v| v.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            };
        }
        reference_fn(port, dims)
            .map(NoiseFn::Reference)
            .ok_or_else(|| format!("{name} has no {dims}D form"))
    }

    /// The precision the input coordinates must be parsed in so that
    /// [`eval`](Self::eval) sees exactly the numbers it computes with.
    pub fn precision(name: NoiseName, family: &FamilyOptions) -> Precision {
        name.fixed_precision().unwrap_or(if family.f32 {
            Precision::F32
        } else {
            Precision::F64
        })
    }

    /// Evaluates at one line's numbers: the `D` coordinates, then the noise's
    /// extra columns (`pnoise1234`'s periods, `srdnoise23`'s angle).
    #[inline]
    pub fn eval(&self, input: &[f64]) -> Eval {
        match self {
            NoiseFn::Reference(f) => f(input),
            NoiseFn::OpenSimplex2 { f, seed } => Eval::value(f64::from(f(*seed, input))),
            NoiseFn::Family { noise, f32 } => noise.eval(input, *f32, true),
            NoiseFn::Stack {
                field,
                f32,
                gradient,
            } => field.eval(input, *f32, *gradient),
            NoiseFn::Curl { field, f32 } => crate::stack_field::curl_eval(field, input, *f32),
        }
    }
}

/// Narrows an input number that was parsed as `f32` (exact).
#[inline(always)]
fn f(v: f64) -> f32 {
    v as f32
}

/// Narrows an input number that was parsed as `i32` (exact).
#[inline(always)]
fn i(v: f64) -> i32 {
    let p = v as i32;
    // C's `%` ignores the divisor's sign, so -p gives the same cells as p;
    // normalising avoids `i32::MIN % -1`, which is undefined in C and panics
    // in Rust.
    if p < 0 && p != i32::MIN { -p } else { p }
}

/// The function a reference port computes in `dims` dimensions.
fn reference_fn(name: Port, dims: usize) -> Option<ReferenceFn> {
    use Port as N;
    let func: ReferenceFn = match (name, dims) {
        (N::Perlin2002Java, 3) => |c| Eval::value(perlin2002::noise(c[0], c[1], c[2])),
        (N::Simplex2012Java, 2) => |c| Eval::value(simplex2012::noise2(c[0], c[1])),
        (N::Simplex2012Java, 3) => |c| Eval::value(simplex2012::noise3(c[0], c[1], c[2])),
        (N::Simplex2012Java, 4) => |c| Eval::value(simplex2012::noise4(c[0], c[1], c[2], c[3])),
        (N::Simplex2005Java, 2) => |c| Eval::value(simplex2005::noise2(c[0], c[1])),
        (N::Simplex2005Java, 3) => |c| Eval::value(simplex2005::noise3(c[0], c[1], c[2])),
        (N::Simplex2005Java, 4) => |c| Eval::value(simplex2005::noise4(c[0], c[1], c[2], c[3])),
        (N::Classic2005Java, 3) => |c| Eval::value(classic2005::noise3(c[0], c[1], c[2])),
        (N::Noise1234, 1) => |c| Eval::value(noise1234::noise1(f(c[0])).into()),
        (N::Noise1234, 2) => |c| Eval::value(noise1234::noise2(f(c[0]), f(c[1])).into()),
        (N::Noise1234, 3) => |c| Eval::value(noise1234::noise3(f(c[0]), f(c[1]), f(c[2])).into()),
        (N::Noise1234, 4) => {
            |c| Eval::value(noise1234::noise4(f(c[0]), f(c[1]), f(c[2]), f(c[3])).into())
        }
        (N::Pnoise1234, 1) => |c| Eval::value(noise1234::pnoise1(f(c[0]), i(c[1])).into()),
        (N::Pnoise1234, 2) => {
            |c| Eval::value(noise1234::pnoise2(f(c[0]), f(c[1]), i(c[2]), i(c[3])).into())
        }
        (N::Pnoise1234, 3) => |c| {
            Eval::value(
                noise1234::pnoise3(f(c[0]), f(c[1]), f(c[2]), i(c[3]), i(c[4]), i(c[5])).into(),
            )
        },
        (N::Pnoise1234, 4) => |c| {
            Eval::value(
                noise1234::pnoise4(
                    f(c[0]),
                    f(c[1]),
                    f(c[2]),
                    f(c[3]),
                    i(c[4]),
                    i(c[5]),
                    i(c[6]),
                    i(c[7]),
                )
                .into(),
            )
        },
        (N::Snoise1234, 1) => |c| Eval::value(simplexnoise1234::snoise1(f(c[0])).into()),
        (N::Snoise1234, 2) => |c| Eval::value(simplexnoise1234::snoise2(f(c[0]), f(c[1])).into()),
        (N::Snoise1234, 3) => {
            |c| Eval::value(simplexnoise1234::snoise3(f(c[0]), f(c[1]), f(c[2])).into())
        }
        (N::Snoise1234, 4) => {
            |c| Eval::value(simplexnoise1234::snoise4(f(c[0]), f(c[1]), f(c[2]), f(c[3])).into())
        }
        (N::Sdnoise1234, 1) => |c| Eval::f32_grad(sdnoise1234::sdnoise1(f(c[0]))),
        (N::Sdnoise1234, 2) => |c| Eval::f32_grad(sdnoise1234::sdnoise2(f(c[0]), f(c[1]))),
        (N::Sdnoise1234, 3) => |c| Eval::f32_grad(sdnoise1234::sdnoise3(f(c[0]), f(c[1]), f(c[2]))),
        (N::Sdnoise1234, 4) => {
            |c| Eval::f32_grad(sdnoise1234::sdnoise4(f(c[0]), f(c[1]), f(c[2]), f(c[3])))
        }
        (N::Srdnoise23, 2) => |c| Eval::f32_grad(srdnoise23::srdnoise2(f(c[0]), f(c[1]), f(c[2]))),
        (N::Srdnoise23, 3) => {
            |c| Eval::f32_grad(srdnoise23::srdnoise3(f(c[0]), f(c[1]), f(c[2]), f(c[3])))
        }
        _ => return None,
    };
    Some(func)
}

/// The function an OpenSimplex2 port computes for `variant` in `dims`
/// dimensions, if the variant exists there.
fn opensimplex2_fn(name: Port, variant: Variant, dims: usize) -> Option<SeededFn> {
    use Port as N;
    use Variant as V;
    use opensimplex2 as f;
    use opensimplex2s as s;
    let func: SeededFn = match (name, variant, dims) {
        (N::OpenSimplex2Java, V::Standard, 2) => |k, c| f::noise2(k, c[0], c[1]),
        (N::OpenSimplex2Java, V::ImproveX, 2) => |k, c| f::noise2_improve_x(k, c[0], c[1]),
        (N::OpenSimplex2Java, V::ImproveXy, 3) => |k, c| f::noise3_improve_xy(k, c[0], c[1], c[2]),
        (N::OpenSimplex2Java, V::ImproveXz, 3) => |k, c| f::noise3_improve_xz(k, c[0], c[1], c[2]),
        (N::OpenSimplex2Java, V::Fallback, 3) => |k, c| f::noise3_fallback(k, c[0], c[1], c[2]),
        (N::OpenSimplex2Java, V::ImproveXyzImproveXy, 4) => {
            |k, c| f::noise4_improve_xyz_improve_xy(k, c[0], c[1], c[2], c[3])
        }
        (N::OpenSimplex2Java, V::ImproveXyzImproveXz, 4) => {
            |k, c| f::noise4_improve_xyz_improve_xz(k, c[0], c[1], c[2], c[3])
        }
        (N::OpenSimplex2Java, V::ImproveXyz, 4) => {
            |k, c| f::noise4_improve_xyz(k, c[0], c[1], c[2], c[3])
        }
        (N::OpenSimplex2Java, V::ImproveXyImproveZw, 4) => {
            |k, c| f::noise4_improve_xy_improve_zw(k, c[0], c[1], c[2], c[3])
        }
        (N::OpenSimplex2Java, V::Fallback, 4) => {
            |k, c| f::noise4_fallback(k, c[0], c[1], c[2], c[3])
        }
        (N::OpenSimplex2SJava, V::Standard, 2) => |k, c| s::noise2(k, c[0], c[1]),
        (N::OpenSimplex2SJava, V::ImproveX, 2) => |k, c| s::noise2_improve_x(k, c[0], c[1]),
        (N::OpenSimplex2SJava, V::ImproveXy, 3) => |k, c| s::noise3_improve_xy(k, c[0], c[1], c[2]),
        (N::OpenSimplex2SJava, V::ImproveXz, 3) => |k, c| s::noise3_improve_xz(k, c[0], c[1], c[2]),
        (N::OpenSimplex2SJava, V::Fallback, 3) => |k, c| s::noise3_fallback(k, c[0], c[1], c[2]),
        (N::OpenSimplex2SJava, V::ImproveXyzImproveXy, 4) => {
            |k, c| s::noise4_improve_xyz_improve_xy(k, c[0], c[1], c[2], c[3])
        }
        (N::OpenSimplex2SJava, V::ImproveXyzImproveXz, 4) => {
            |k, c| s::noise4_improve_xyz_improve_xz(k, c[0], c[1], c[2], c[3])
        }
        (N::OpenSimplex2SJava, V::ImproveXyz, 4) => {
            |k, c| s::noise4_improve_xyz(k, c[0], c[1], c[2], c[3])
        }
        (N::OpenSimplex2SJava, V::ImproveXyImproveZw, 4) => {
            |k, c| s::noise4_improve_xy_improve_zw(k, c[0], c[1], c[2], c[3])
        }
        (N::OpenSimplex2SJava, V::Fallback, 4) => {
            |k, c| s::noise4_fallback(k, c[0], c[1], c[2], c[3])
        }
        _ => return None,
    };
    Some(func)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_opensimplex2_variant_has_a_function() {
        for name in [Port::OpenSimplex2Java, Port::OpenSimplex2SJava] {
            for d in 1..=5 {
                for &v in <Variant as clap::ValueEnum>::value_variants() {
                    assert_eq!(
                        opensimplex2_fn(name, v, d).is_some(),
                        v.java_method(d).is_some(),
                        "{} {v} {d}D",
                        name.name()
                    );
                }
            }
        }
    }

    #[test]
    fn opensimplex2_seed_is_taken_modulo_2_pow_64() {
        let at = |seed: u64| {
            let options = FamilyOptions {
                seed,
                ..FamilyOptions::default()
            };
            NoiseFn::new(NoiseName::Port(Port::OpenSimplex2Java), 2, &options)
                .unwrap()
                .eval(&[0.3, 0.7])
                .value
        };
        assert_eq!(at(u64::MAX), f64::from(opensimplex2::noise2(-1, 0.3, 0.7)));
        assert_eq!(
            at(1 << 63),
            f64::from(opensimplex2::noise2(i64::MIN, 0.3, 0.7))
        );
    }

    #[test]
    fn every_reference_dimension_has_a_function() {
        for port in Port::ALL {
            let name = NoiseName::Port(port);
            if name.is_opensimplex2() {
                continue;
            }
            for d in 1..=4 {
                assert_eq!(
                    reference_fn(port, d).is_some(),
                    name.dims().contains(&d),
                    "{name} {d}D"
                );
            }
        }
    }

    #[test]
    fn negative_periods_are_normalised() {
        assert_eq!(i(-1.0), 1);
        assert_eq!(i(7.0), 7);
        assert_eq!(i(f64::from(i32::MIN)), i32::MIN);
        assert_eq!(i(f64::from(i32::MAX)), i32::MAX);
    }

    #[test]
    #[expect(
        clippy::approx_constant,
        reason = "3.14 is the input of the quoted anchor value, not an approximation of pi"
    )]
    fn perlin2002_anchor() {
        let e = NoiseFn::new(
            NoiseName::Port(Port::Perlin2002Java),
            3,
            &FamilyOptions::default(),
        )
        .unwrap();
        assert_eq!(e.eval(&[3.14, 42.0, 7.0]).value, 0.13691995878400012);
    }
}
