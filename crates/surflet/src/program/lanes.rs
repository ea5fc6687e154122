//! The one per-lane evaluator of a program: a layer's octaves, and the warp
//! steps around the last layer.

// Lane code walks per-axis arrays in step; index loops read best there.
#![allow(clippy::needless_range_loop)]

use super::octaves::{Octs, octave_overflow, turn, turn_back};
use super::spec::{LayerSpec, OctaveSpec, Program};
use crate::fractal_kind::{LayerAcc, add_octave, end_layer};
use crate::simd::Simd;

/// Evaluates one fractal layer at `x` (layer input units): the value and its
/// gradient with respect to `x`, by the chain rule through every octave.
#[inline(always)]
pub(crate) fn layer_lanes<S: Simd, const D: usize, O: Octs<S, D>>(
    s: S,
    specs: &[OctaveSpec<D>],
    octs: &O,
    layer: &LayerSpec,
    x: [S::F; D],
) -> (S::F, [S::F; D]) {
    let zero = s.zero();
    let mut acc = LayerAcc::new(s);
    for j in 0..layer.count {
        let i = layer.first + j;
        let o = octs.oct(i);
        let y = match &o.rot {
            Some(h) => turn(s, h, x),
            None => x,
        };
        let mut xi = [zero; D];
        for a in 0..D {
            xi[a] = s.add(s.mul(y[a], o.freq), o.offset[a]);
        }
        let fixed = octave_overflow(s, &mut xi, y, o.freq, o.offset);
        let (n, mut gn) = octs.eval(s, i, &specs[i].noise, &o.field, xi, !fixed);
        if let Some(h) = &o.rot {
            gn = turn_back(s, h, gn);
        }
        add_octave(
            s,
            (layer.kind, layer.offset, layer.weight),
            j,
            o.freq,
            o.amp,
            n,
            gn,
            &mut acc,
        );
    }
    end_layer(s, layer.scale, acc)
}

/// Evaluates a program at `p`: the warp steps move the point (tracking the
/// Jacobian when `GRAD`), then the last layer is evaluated at the moved point
/// and its gradient is pulled back by the chain rule, ∇ₚ = Jᵀ ∇_q.
#[inline(always)]
pub(crate) fn program_lanes<S: Simd, const D: usize, O: Octs<S, D>, const GRAD: bool>(
    s: S,
    prog: &Program<D>,
    octs: &O,
    p: [S::F; D],
) -> (S::F, [S::F; D]) {
    let zero = s.zero();
    let one = s.c(1.0);
    let mut q = p;
    let mut jac = [[zero; D]; D];
    for (a, row) in jac.iter_mut().enumerate() {
        row[a] = one;
    }
    let mut dq = [zero; D];
    let mut dg = [[zero; D]; D];
    let last = prog.layers.len() - 1;
    // One loop over all layers (warp layers, then the field), so that the
    // kernels are inlined at a single call site.
    let mut k = 0;
    loop {
        let (v, g) = layer_lanes(s, &prog.octaves, octs, &prog.layers[k], q);
        if k == last {
            if !GRAD || prog.steps == 0 {
                return (v, g);
            }
            let mut out = [zero; D];
            for b in 0..D {
                let mut acc = s.mul(g[0], jac[0][b]);
                for a in 1..D {
                    acc = s.add(acc, s.mul(g[a], jac[a][b]));
                }
                out[b] = acc;
            }
            return (v, out);
        }
        let axis = k % D;
        dq[axis] = v;
        dg[axis] = g;
        if axis == D - 1 {
            // Every axis of one step is displaced from the same point.
            for a in 0..D {
                q[a] = s.add(q[a], dq[a]);
            }
            if GRAD {
                // J ← (I + ∂displacement/∂q) · J
                let old = jac;
                for a in 0..D {
                    for b in 0..D {
                        let mut acc = old[a][b];
                        for c in 0..D {
                            acc = s.add(acc, s.mul(dg[a][c], old[c][b]));
                        }
                        jac[a][b] = acc;
                    }
                }
            }
        }
        k += 1;
    }
}
