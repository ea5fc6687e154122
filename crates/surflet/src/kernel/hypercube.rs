//! Value and Perlin noise: the hypercube lattice family, 1D–4D, in one kernel.
//!
//! Each of the 2^D cell corners gets either a value (value noise) or a
//! gradient ramp `g · (p − corner)` (Perlin noise); the corners are blended
//! axis by axis with the quintic fade. The gradient is carried through the
//! blend exactly: blending `lo` and `hi` with weight `u(t)` contributes
//! `lerp(u, ∇lo, ∇hi)` plus `u'(t) (hi − lo)` along the blended axis.

use super::{Field, MARGIN, PRIMES, fade, finish, lattice_value, poison, split, split_periodic};
use crate::simd::Simd;

/// 1 / sup |Perlin| for each dimension's gradient set (index D − 1), so that
/// the normalised noise spans [-1, 1] (times [`MARGIN`]). Derived in `docs/RANGES.md`:
/// 1D 1/(1/2); 2D 1/(1/√2) (centre of a cell, diagonals pointing in); 3D and
/// 4D are the maxima over all gradient assignments of Perlin's 12 edge and the
/// 32 edge sets, 1.03635381121180251927 and 1.53658233404681918756.
pub(crate) const PERLIN_SCALE: [f64; 4] = [
    2.0,
    core::f64::consts::SQRT_2,
    0.9649214285521909,
    0.6507949348645383,
];

/// Evaluates value noise (`PERLIN = false`) or Perlin noise at `p`: returns
/// the value and its gradient.
#[inline(always)]
pub(crate) fn hypercube<S: Simd, const D: usize, const PERLIN: bool, const PERIODIC: bool>(
    s: S,
    field: &Field<S>,
    p: [S::F; D],
) -> (S::F, [S::F; D]) {
    let zero = s.zero();
    let one = s.c(1.0);
    let mut frac = [zero; D];
    let mut u = [zero; D];
    let mut du = [zero; D];
    let mut lo = [s.u_splat(0); D];
    let mut hi = [s.u_splat(0); D];
    for a in 0..D {
        let (fl, fr) = if PERIODIC {
            split_periodic(s, p[a], field.period_f[a], field.period_inv[a])
        } else {
            split(s, p[a])
        };
        frac[a] = fr;
        let c = s.cell(fl);
        let prime = s.u_splat(PRIMES[a]);
        lo[a] = s.u_mul(c, prime);
        hi[a] = if PERIODIC {
            // The cell after the last one of the period is cell 0.
            let next = s.u_add(c, s.u_splat(1));
            let at_end = s.u_eq(next, field.period[a]);
            s.u_mul(s.u_blend(at_end, s.u_splat(0), next), prime)
        } else {
            s.u_add(lo[a], prime)
        };
        (u[a], du[a]) = fade(s, frac[a]);
    }

    // Corner quantities, indexed by corner bits (bit a set = far side on axis a).
    let mut val = [zero; 16];
    let mut grad = [[zero; D]; 16];
    for c in 0..(1usize << D) {
        let mut h = field.key;
        for a in 0..D {
            h = s.u_xor(h, if c >> a & 1 == 1 { hi[a] } else { lo[a] });
        }
        let h = finish(s, h);
        match PERLIN {
            false => val[c] = lattice_value(s, h),
            true => {
                let g = gradient::<S, D>(s, h);
                let mut acc = zero;
                for a in 0..D {
                    let d = if c >> a & 1 == 1 {
                        s.sub(frac[a], one)
                    } else {
                        frac[a]
                    };
                    acc = if a == 0 {
                        s.mul(g[a], d)
                    } else {
                        s.add(acc, s.mul(g[a], d))
                    };
                }
                val[c] = acc;
                grad[c] = g;
            }
        }
    }

    // Blend axis by axis; after blending axis a the remaining corners are
    // re-indexed by their bits above a.
    let mut n = 1usize << D;
    for a in 0..D {
        n /= 2;
        for k in 0..n {
            let (l, h) = (val[2 * k], val[2 * k + 1]);
            let diff = s.sub(h, l);
            val[k] = s.add(l, s.mul(u[a], diff));
            for b in 0..D {
                // Value-noise corners have zero gradient: axes not yet
                // blended contribute nothing, so skip them at compile time.
                if !PERLIN && b > a {
                    continue;
                }
                let (gl, gh) = (grad[2 * k][b], grad[2 * k + 1][b]);
                let mut g = if !PERLIN && b == a {
                    zero
                } else {
                    s.add(gl, s.mul(u[a], s.sub(gh, gl)))
                };
                if b == a {
                    g = if !PERLIN {
                        s.mul(du[a], diff)
                    } else {
                        s.add(g, s.mul(du[a], diff))
                    };
                }
                grad[k][b] = g;
            }
        }
    }

    let nan = poison(s, &p);
    let mut g = [zero; D];
    if PERLIN {
        let k = s.c(PERLIN_SCALE[D - 1] * MARGIN);
        for a in 0..D {
            g[a] = s.add(s.mul(grad[0][a], k), nan);
        }
        (s.add(s.mul(val[0], k), nan), g)
    } else {
        for a in 0..D {
            g[a] = s.add(grad[0][a], nan);
        }
        (s.add(val[0], nan), g)
    }
}

#[inline(always)]
fn gradient<S: Simd, const D: usize>(s: S, h: S::U) -> [S::F; D] {
    let z = s.zero();
    match D {
        1 => super::resize(&super::grad1(s, h), z),
        2 => super::resize(&super::grad2(s, h), z),
        3 => super::resize(&super::grad3_edges(s, h), z),
        _ => super::resize(&super::grad4_edges(s, h), z),
    }
}
