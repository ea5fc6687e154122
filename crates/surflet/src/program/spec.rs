//! A program's data: its octaves and its layers.

use crate::fractal_kind::FractalKind;
use crate::noise::Noise;
use crate::prelude_internal::*;

/// One octave: its noise (seed, kind, period), the turn and the factor
/// applied to the layer's input coordinates, the offset added after them,
/// and its amplitude.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct OctaveSpec<const D: usize> {
    pub noise: Noise<D>,
    pub freq: f64,
    /// The octave's turn `R` (`x` is read at `R·x`), if it has one
    /// ([rotation](crate::fractal#octave-rotation)).
    pub rot: Option<[[f64; D]; D]>,
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
}
