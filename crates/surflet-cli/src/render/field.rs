//! What `surflet render` draws: anything that fills a row of points with
//! values and, for normal maps, the x and y derivatives.
//!
//! The renderer only talks to [`Field`], so a noise stack (fractal sums,
//! warps, loaded with `--config`) plugs in by implementing it for the
//! stack's evaluator; nothing else in the renderer has to change.

use surflet::{Noise, NoiseKind};

/// A scalar field over 2D, 3D or 4D space, evaluated a row at a time.
///
/// Implementations must be deterministic: the tiling and normal-map
/// guarantees of `render` rest on the field returning the same bits for the
/// same point.
pub trait Field: Sync {
    /// The dimension of the space: 2, 3 or 4.
    fn dims(&self) -> usize;

    /// The interval the values are documented to lie in. The default mapping
    /// stretches it onto the full pixel range.
    fn range(&self) -> (f64, f64);

    /// Evaluates at `(coords[0][i], coords[1][i], ...)` for each `i`,
    /// writing values to `out`. Only the first [`dims`](Self::dims)
    /// coordinate slices are read. With `gradient`, also writes the partial
    /// derivatives; entries 0 and 1 (x and y) are the ones the renderer uses,
    /// the others are scratch space of the same length.
    fn fill_row(
        &self,
        coords: [&[f64]; 4],
        out: &mut [f64],
        gradient: Option<[&mut [f64]; 4]>,
    ) -> Result<(), String>;
}

/// A surflet family noise in 2, 3 or 4 dimensions.
#[derive(Clone, Copy, Debug)]
pub enum NoiseField {
    /// 2D.
    D2(Noise<2>),
    /// 3D.
    D3(Noise<3>),
    /// 4D.
    D4(Noise<4>),
}

impl NoiseField {
    /// Builds the noise. `period` holds one period per axis (`dims` of them)
    /// or is `None`; the library's message explains a rejected period.
    pub fn new(
        kind: NoiseKind,
        seed: u64,
        dims: usize,
        period: Option<&[u32]>,
    ) -> Result<NoiseField, String> {
        fn build<const D: usize>(
            kind: NoiseKind,
            seed: u64,
            period: Option<&[u32]>,
        ) -> Result<Noise<D>, String> {
            let noise = Noise::<D>::new(kind, seed);
            match period {
                None => Ok(noise),
                Some(p) => {
                    let p: [u32; D] = p
                        .try_into()
                        .map_err(|_| format!("{} periods given for {D}D noise", p.len()))?;
                    noise.with_period(p).map_err(|e| e.to_string())
                }
            }
        }
        Ok(match dims {
            2 => NoiseField::D2(build(kind, seed, period)?),
            3 => NoiseField::D3(build(kind, seed, period)?),
            4 => NoiseField::D4(build(kind, seed, period)?),
            _ => return Err(format!("render draws 2D to 4D noise, not {dims}D")),
        })
    }
}

impl Field for NoiseField {
    fn dims(&self) -> usize {
        match self {
            NoiseField::D2(_) => 2,
            NoiseField::D3(_) => 3,
            NoiseField::D4(_) => 4,
        }
    }

    fn range(&self) -> (f64, f64) {
        // Value noise lies in the open interval (-1, 1) and the others in the
        // closed one; either way [-1, 1] is the documented bound.
        (-1.0, 1.0)
    }

    fn fill_row(
        &self,
        coords: [&[f64]; 4],
        out: &mut [f64],
        gradient: Option<[&mut [f64]; 4]>,
    ) -> Result<(), String> {
        fn go<const D: usize>(
            noise: &Noise<D>,
            coords: [&[f64]; 4],
            out: &mut [f64],
            gradient: Option<[&mut [f64]; 4]>,
        ) -> Result<(), String> {
            let c: [&[f64]; D] = std::array::from_fn(|a| coords[a]);
            let result = match gradient {
                None => noise.fill(c, out),
                Some(g) => {
                    let mut g = g.into_iter();
                    let g: [&mut [f64]; D] =
                        std::array::from_fn(|_| g.next().expect("four gradient slices"));
                    noise.fill_gradient(c, out, g)
                }
            };
            result.map_err(|e| e.to_string())
        }
        match self {
            NoiseField::D2(n) => go(n, coords, out, gradient),
            NoiseField::D3(n) => go(n, coords, out, gradient),
            NoiseField::D4(n) => go(n, coords, out, gradient),
        }
    }
}

impl Field for crate::stack_field::StackField {
    fn dims(&self) -> usize {
        crate::stack_field::StackField::dims(self)
    }

    fn range(&self) -> (f64, f64) {
        crate::stack_field::StackField::range(self)
    }

    fn fill_row(
        &self,
        coords: [&[f64]; 4],
        out: &mut [f64],
        gradient: Option<[&mut [f64]; 4]>,
    ) -> Result<(), String> {
        crate::stack_field::StackField::fill_row(self, coords, out, gradient)
            .map_err(|e| e.to_string())
    }
}
