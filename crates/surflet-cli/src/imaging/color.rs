//! How values become pixels: the range mapping, colour ramps and normal
//! encoding. Every rule here is documented in `render --help`, and the tests
//! recompute pixels with exactly these formulas.

pub use surflet::document::{NormalFormat, Ramp};

/// Maps values onto `[0, 1]`: `t = (v - lo) / (hi - lo)`, computed in f64.
///
/// Nothing is clamped here; pixel quantisation clamps, float outputs keep
/// `t` as it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mapping {
    /// The value that maps to 0.
    pub lo: f64,
    /// The value that maps to 1.
    pub hi: f64,
}

impl Mapping {
    /// The mapping of a measured `min..=max`. A constant image maps to 0.5,
    /// the middle grey, rather than dividing by zero.
    pub fn measured(min: f64, max: f64) -> Mapping {
        if min < max {
            Mapping { lo: min, hi: max }
        } else {
            Mapping {
                lo: min - 1.0,
                hi: min + 1.0,
            }
        }
    }

    /// `t` for the value `v`.
    #[inline]
    pub fn apply(&self, v: f64) -> f64 {
        (v - self.lo) / (self.hi - self.lo)
    }
}

/// Quantises `t` to 8 bits: `round(clamp(t, 0, 1) · 255)`. NaN gives 0.
#[inline]
pub fn quantise8(t: f64) -> u8 {
    // `as` saturates and sends NaN to 0, so NaN cannot panic or wrap.
    (t.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// Quantises `t` to 16 bits: `round(clamp(t, 0, 1) · 65535)`. NaN gives 0.
#[inline]
pub fn quantise16(t: f64) -> u16 {
    (t.clamp(0.0, 1.0) * 65535.0).round() as u16
}

/// Turns pixel-space derivatives into unit normals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NormalEncoder {
    /// The surface is `z = strength · h(u, v)`, in pixels.
    pub strength: f64,
    /// The y convention.
    pub format: NormalFormat,
}

impl NormalEncoder {
    /// The unit normal of `z = s·h(u, v)` where `du = ∂h/∂u`, `dv = ∂h/∂v`
    /// and `u` runs right, `v` down the image: `(-s·du, s·dv, 1)` normalised
    /// in OpenGL's +Y-up frame, `(-s·du, -s·dv, 1)` in DirectX's +Y-down one.
    #[inline]
    pub fn normal(&self, du: f64, dv: f64) -> [f64; 3] {
        let s = self.strength;
        let ny = match self.format {
            NormalFormat::OpenGl => s * dv,
            NormalFormat::DirectX => -s * dv,
        };
        let n = [-s * du, ny, 1.0];
        let len = (n[0] * n[0] + n[1] * n[1] + 1.0).sqrt();
        n.map(|c| c / len)
    }

    /// The normal as RGB, each channel `n · 0.5 + 0.5` before quantising.
    #[inline]
    pub fn rgb(&self, du: f64, dv: f64) -> [f64; 3] {
        self.normal(du, dv).map(|c| c * 0.5 + 0.5)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantisation_clamps_and_rounds() {
        assert_eq!(quantise8(-0.5), 0);
        assert_eq!(quantise8(2.0), 255);
        assert_eq!(quantise8(0.5), 128);
        assert_eq!(quantise8(f64::NAN), 0);
        assert_eq!(quantise16(1.0), 65535);
        assert_eq!(quantise16(0.5), 32768);
    }

    #[test]
    fn flat_normal_points_out() {
        let n = NormalEncoder {
            strength: 3.0,
            format: NormalFormat::OpenGl,
        };
        assert_eq!(n.normal(0.0, 0.0), [-0.0, 0.0, 1.0]);
        // Height rising to the right tilts the normal left; rising down the
        // image (v grows downwards) tilts it up in OpenGL's frame.
        let [x, y, _] = n.normal(1.0, 1.0);
        assert!(x < 0.0 && y > 0.0);
    }
}
