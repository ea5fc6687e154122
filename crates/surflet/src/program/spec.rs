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

/// The weight [`Stack::antialias`](crate::Stack::antialias) gives an
/// octave with `t` lattice cells per sample: `1 − smoothstep(0.2, 0.75, t)`,
/// in `f64`.
fn fade_weight(t: f64) -> f64 {
    const LO: f64 = 0.2;
    const HI: f64 = 0.75;
    if t <= LO {
        1.0
    } else if t >= HI {
        0.0
    } else {
        let u = (t - LO) / (HI - LO);
        1.0 - u * u * (3.0 - 2.0 * u)
    }
}

impl<const D: usize> Program<D> {
    /// Fades each octave by [`fade_weight`] at `footprint` (see
    /// [`Stack::antialias`](crate::Stack::antialias)), and leaves out each
    /// layer's last octaves while their weight is 0 (keeping one, so that
    /// every layer still has an octave to end). Folded into the amplitudes,
    /// like a stack's offset, so every path reads the same constants. Stacks
    /// and curl noise fade their programs with it.
    pub(crate) fn fade(&mut self, footprint: f64) {
        let mut octaves = Vec::with_capacity(self.octaves.len());
        for layer in &mut self.layers {
            let mine = &self.octaves[layer.first..layer.first + layer.count];
            let weights: Vec<f64> = mine
                .iter()
                .map(|o| fade_weight(o.freq * footprint))
                .collect();
            let keep = weights.iter().rposition(|&w| w != 0.0).map_or(1, |i| i + 1);
            layer.first = octaves.len();
            layer.count = keep;
            for (o, w) in mine.iter().zip(&weights).take(keep) {
                octaves.push(OctaveSpec {
                    amp: o.amp * w,
                    ..*o
                });
            }
        }
        self.octaves = octaves;
    }
}
