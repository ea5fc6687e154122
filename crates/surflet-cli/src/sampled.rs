//! One evaluation's numbers, shared by every kind of evaluator (`eval.rs`
//! for named noises, `stack_field.rs` for stacks, graphs and curl noise),
//! so that neither has to import the other.

/// The most dimensions of any noise (value, Perlin and simplex noise in 8D).
pub use surflet::dynamic::MAX_DIMS;

/// One evaluation: the value and, where the noise has them, the partial
/// derivatives (only the first `D` entries are meaningful).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Eval {
    /// The noise value.
    pub value: f64,
    /// `∂value/∂x, ∂value/∂y, ...`; zero for noises without derivatives.
    /// For curl noise, the vector's components (and `value` is unused).
    pub gradient: [f64; MAX_DIMS],
}

impl Eval {
    pub(crate) fn value(value: f64) -> Eval {
        Eval {
            value,
            gradient: [0.0; MAX_DIMS],
        }
    }

    pub(crate) fn f32_grad<const D: usize>((value, gradient): (f32, [f32; D])) -> Eval {
        let mut g = [0.0; MAX_DIMS];
        for (o, v) in g.iter_mut().zip(gradient) {
            *o = f64::from(v);
        }
        Eval {
            value: f64::from(value),
            gradient: g,
        }
    }
}
