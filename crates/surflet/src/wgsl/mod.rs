//! Noise stacks as WGSL source, for GPU pipelines (feature `wgsl`).
//!
//! [`Evaluator::wgsl`] turns a compiled 2D or 3D stack into one WGSL module
//! that defines, for a chosen name `N`:
//!
//! - `fn N(p: vec2<f32>) -> f32` (`vec3<f32>` in 3D): the value;
//! - `fn N_gradient(p: vec2<f32>) -> vec3<f32>` (`vec4<f32>` in 3D): the
//!   value and its gradient, `(value, ∂x, ∂y[, ∂z])`.
//!
//! The module is built from one WGSL source per kernel (`common.wgsl`,
//! `hypercube.wgsl`, `simplex.wgsl`, `cubic.wgsl`, `opensimplex.wgsl`,
//! `cellular.wgsl` beside this file), each mirroring its
//! Rust kernel operation for operation in `f32`, and from the stack's
//! octaves and layers written out as straight-line code with their
//! constants (frequencies, offsets, amplitudes, seeds' keys) as exact
//! hexadecimal literals. So a driver that rounds every operation as IEEE
//! 754 says computes the CPU's bits. Four things in the sources keep
//! drivers from computing something else (`docs/GPU.md` has what was
//! measured on each): products pass through `surflet_p` before they are
//! added, so they cannot be fused into multiply-adds (that needs the entry
//! point to set the module's private `surflet_zero` from a uniform holding
//! 0; see the function's comment), and so do sums that are then scaled by
//! a constant (a driver may distribute the product and fuse it); division
//! and square root go through `surflet_div` and `surflet_sqrt`, IEEE
//! 754's correctly rounded results computed in integers (Vulkan lets a
//! driver's be a few ulps off); `min` and `max` are selects with the
//! CPU's operand order; and no constant is written in decimal.
//!
//! In 4D, where WGSL has no `vec5`, `N_gradient` returns the module's
//! `struct SurfletSample4d { value: f32, gradient: vec4<f32> }`.
//!
//! Supported: every noise of the family (value, cubic value, Perlin,
//! simplex, simplex value, OpenSimplex2, OpenSimplex2S and cellular) in 2D,
//! 3D and 4D, periodic or not where the noise has a periodic form (periodic
//! 2D simplex on its hexagonal lattice), every fractal kind, and domain
//! warps; and graphs of them
//! ([`GraphField::wgsl`](crate::GraphField::wgsl)). Other dimensions are
//! refused with an error.
//!
//! ```
//! use surflet::Stack;
//! let stack = Stack::from_toml_str("noise = \"simplex\"\n[fractal]\noctaves = 4")?;
//! let wgsl = stack.build::<2>()?.wgsl("terrain")?;
//! assert!(wgsl.contains("fn terrain(p: vec2<f32>) -> f32"));
//! assert!(wgsl.contains("fn terrain_gradient(p: vec2<f32>) -> vec3<f32>"));
//! # Ok::<(), surflet::Error>(())
//! ```

// The writers walk per-axis component names and matrix entries in step;
// index loops read best there (as in the kernels).
#![allow(clippy::needless_range_loop)]

use core::fmt::Write;

use crate::error::Error;
use crate::fractal_kind::FractalKind;
use crate::kernel::opensimplex::{A3, B3, OCTANT, P3, Q3, ROOT3_INV, S4_CANDIDATES};
use crate::kernel::simplex::{F2, F4, G2, G4, HEX_SX, HEX_SY};
use crate::noise::{Noise, NoiseKind};
use crate::prelude_internal::*;
use crate::program::{LayerSpec, OctaveSpec, Program};
use crate::stack::Evaluator;

mod kernels;
#[cfg(feature = "langs")]
mod langs;
mod lit;
use kernels::WgslKernel;
#[cfg(feature = "langs")]
pub use langs::{Lang, Shader, translate};
pub(crate) use lit::{bad, c, lit, vec};

const COMMON: &str = include_str!("common.wgsl");

impl<const D: usize> Evaluator<D> {
    /// The stack as a WGSL module defining `fn name(p) -> f32` and
    /// `fn name_gradient(p)` (see the [module documentation](crate::wgsl)).
    ///
    /// Fails for a dimension other than 2, 3 or 4, or a name that is not a WGSL identifier or that starts
    /// with `surflet_` (the module's own prefix).
    pub fn wgsl(&self, name: &str) -> Result<String, Error> {
        module(self.program(), name)
    }
}

/// The high and low parts of `c` that the simplex skew multiplies by
/// (`kernel::lattice::mul_split`, `f32`: 12 bits in the high part).
fn split_const(cst: f64) -> (f32, f32) {
    let hi_bits = 12;
    let e = libm::floor(libm::log2(cst)) as i32;
    let scale = libm::pow(2.0, (hi_bits - 1 - e) as f64);
    let hi = libm::round(cst * scale) / scale;
    (hi as f32, (cst - hi) as f32)
}

/// The constants the kernel sources read, computed as the Rust kernels
/// compute them.
fn constants() -> String {
    let (f2_hi, f2_lo) = split_const(F2);
    let (g2_hi, g2_lo) = split_const(G2);
    let (r3_hi, r3_lo) = split_const(ROOT3_INV);
    let (f4_hi, f4_lo) = split_const(F4);
    let rows = [
        ("SURFLET_FRAC_1_SQRT_2", c(core::f64::consts::FRAC_1_SQRT_2)),
        ("SURFLET_FRAC_1_SQRT_3", c(0.577_350_269_189_625_7)),
        ("SURFLET_F2", c(F2)),
        ("SURFLET_F2_HI", lit(f2_hi)),
        ("SURFLET_F2_LO", lit(f2_lo)),
        ("SURFLET_G2", c(G2)),
        ("SURFLET_G2_2_MINUS_1", c(2.0 * G2 - 1.0)),
        ("SURFLET_HEX_SX", c(HEX_SX)),
        ("SURFLET_HEX_SY", c(HEX_SY)),
        ("SURFLET_OS_C0", c(OCTANT[0].0)),
        ("SURFLET_OS_C1", c(OCTANT[1].0)),
        ("SURFLET_OS_C2", c(OCTANT[2].0)),
        ("SURFLET_OS_S0", c(OCTANT[0].1)),
        ("SURFLET_OS_S1", c(OCTANT[1].1)),
        ("SURFLET_OS_S2", c(OCTANT[2].1)),
        // kernel/opensimplex.rs BEYOND_LOWER's offsets, (ox + oy)·G2.
        ("SURFLET_OS_BEYOND0", c(-G2)),
        ("SURFLET_OS_BEYOND1", c(3.0 * G2)),
        ("SURFLET_OS_BEYOND2", c(G2)),
        ("SURFLET_OS_A3", c(A3)),
        ("SURFLET_OS_B3", c(B3)),
        ("SURFLET_OS_P3", c(P3)),
        ("SURFLET_OS_Q3", c(Q3)),
        ("SURFLET_OS_R3", c(ROOT3_INV)),
        ("SURFLET_OS_R3_HI", lit(r3_hi)),
        ("SURFLET_OS_R3_LO", lit(r3_lo)),
        ("SURFLET_G2_HI", lit(g2_hi)),
        ("SURFLET_G2_LO", lit(g2_lo)),
        ("SURFLET_F4", c(F4)),
        ("SURFLET_F4_HI", lit(f4_hi)),
        ("SURFLET_F4_LO", lit(f4_lo)),
        ("SURFLET_G4", c(G4)),
        // kernel/simplex.rs corner4's k·G4, k = 1..4.
        ("SURFLET_G4_1", c(G4)),
        ("SURFLET_G4_2", c(2.0 * G4)),
        ("SURFLET_G4_3", c(3.0 * G4)),
        ("SURFLET_G4_4", c(4.0 * G4)),
    ];
    let mut s = String::from("// Constants, rounded from the kernels' f64 values.\n");
    for (n, v) in rows {
        let _ = writeln!(s, "const {n}: f32 = {v};");
    }
    // OpenSimplex2S's 4D candidates and each one's shift (Σ steps)·G4.
    let cands: Vec<String> = S4_CANDIDATES
        .iter()
        .map(|c| {
            let e: Vec<String> = c.iter().map(|v| format!("{v}i")).collect();
            format!("vec4<i32>({})", e.join(", "))
        })
        .collect();
    let shifts: Vec<String> = S4_CANDIDATES
        .iter()
        .map(|cand| c(f64::from(cand.iter().map(|&v| i32::from(v)).sum::<i32>()) * G4))
        .collect();
    let _ = writeln!(
        s,
        "const SURFLET_S4_CANDIDATES = array<vec4<i32>, {}>({});",
        cands.len(),
        cands.join(", ")
    );
    let _ = writeln!(
        s,
        "const SURFLET_S4_SHIFTS = array<f32, {}>({});",
        shifts.len(),
        shifts.join(", ")
    );
    for (n, v) in [
        ("SURFLET_CELL_SALT_UV", crate::kernel::cellular::SALT_UV),
        (
            "SURFLET_CELL_SALT_VALUE",
            crate::kernel::cellular::SALT_VALUE,
        ),
    ] {
        let _ = writeln!(s, "const {n}: u32 = {v:#x}u;");
    }
    s
}

fn check_name(name: &str) -> Result<(), Error> {
    let mut chars = name.chars();
    let ident = matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name != "_"
        && !name.starts_with("__");
    if !ident {
        return Err(bad(format!(
            "function name {name:?} is not a WGSL identifier (letters, digits and _, not starting with a digit or __)"
        )));
    }
    if name.starts_with("surflet_") || name.starts_with("SURFLET_") {
        return Err(bad(format!(
            "function name {name:?} starts with surflet_, the prefix of the module's own functions"
        )));
    }
    Ok(())
}

/// The WGSL module for `prog` (see [`Evaluator::wgsl`]).
pub(crate) fn module<const D: usize>(prog: &Program<D>, name: &str) -> Result<String, Error> {
    // First: it refuses the dimensions the writers cannot take.
    check::<D>(name)?;
    let body = stack_fns(prog, name)?;
    Ok(preamble::<D>(name, &kinds(prog)) + &body)
}

/// Refuses a dimension other than 2, 3 or 4, and a `name` that is not a WGSL
/// identifier or that has the module's own prefix.
pub(crate) fn check<const D: usize>(name: &str) -> Result<(), Error> {
    if !(2..=4).contains(&D) {
        return Err(bad(format!(
            "WGSL is generated for 2D, 3D and 4D stacks, not {D}D"
        )));
    }
    check_name(name)
}

/// The noise kinds `prog`'s octaves use, warps' included.
pub(crate) fn kinds<const D: usize>(prog: &Program<D>) -> Vec<NoiseKind> {
    let mut out: Vec<NoiseKind> = Vec::new();
    for o in &prog.octaves {
        if !out.contains(&o.noise.kind()) {
            out.push(o.noise.kind());
        }
    }
    out
}

/// What every module starts with: its header, the shared helpers, the
/// constants and the sources of the kernels of the kinds `used`, for `D`
/// and the public function `name` (both [`check`]ed).
pub(crate) fn preamble<const D: usize>(name: &str, used: &[NoiseKind]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Generated by surflet {}: `{name}` and `{name}_gradient`.\n",
        env!("CARGO_PKG_VERSION")
    );
    out.push_str(COMMON);
    out.push('\n');
    out.push_str(&constants());
    out.push('\n');
    for source in kernels::sources::<D>(used) {
        out.push_str(source);
        out.push('\n');
    }
    out
}

/// The functions of one stack: its layers, then `name_gradient(p)` and
/// `name(p)` (the preamble must come first in the module).
pub(crate) fn stack_fns<const D: usize>(prog: &Program<D>, name: &str) -> Result<String, Error> {
    let mut body = String::new();
    for (k, layer) in prog.layers.iter().enumerate() {
        body.push_str(&layer_fn::<D>(name, k, layer, &prog.octaves)?);
    }
    body.push_str(&program_fn::<D>(name, prog));
    Ok(body)
}

pub(crate) fn vty(d: usize) -> String {
    format!("vec{d}<f32>")
}

/// The type of a value and its gradient in `d` dimensions: `vec(d+1)<f32>`
/// (value first), or in 4D, where WGSL has no `vec5`, the preamble's
/// `SurfletSample4d { value, gradient }`.
pub(crate) fn rty(d: usize) -> String {
    if d == 4 {
        "SurfletSample4d".into()
    } else {
        format!("vec{}<f32>", d + 1)
    }
}

/// The value of the value-and-gradient expression `r` ([`rty`]).
pub(crate) fn val(d: usize, r: &str) -> String {
    if d == 4 {
        format!("{r}.value")
    } else {
        format!("{r}.x")
    }
}

/// Gradient component `a` of the value-and-gradient expression `r`.
pub(crate) fn grad_at(d: usize, r: &str, a: usize) -> String {
    if d == 4 {
        format!("{r}.gradient.{}", AXES[a])
    } else {
        format!("{r}.{}", ["y", "z", "w"][a])
    }
}

/// The gradient of the value-and-gradient expression `r`, a `vecD<f32>`.
pub(crate) fn grad_of(d: usize, r: &str) -> String {
    if d == 4 {
        format!("{r}.gradient")
    } else {
        format!("{r}.{}", &"yzw"[..d])
    }
}

pub(crate) const AXES: [&str; 4] = ["x", "y", "z", "w"];

/// The kernel call for `noise` at WGSL expression `p`, returning
/// `vec(D + 1)` (value, gradient): its kernel type's (`kernels.rs`).
fn kernel_call<const D: usize>(noise: &Noise<D>, p: &str) -> Result<String, Error> {
    crate::kind::with_kernel!(noise, K => <K as WgslKernel<D>>::call(noise, p))
}

/// `+k`, `-k` or 0 by the sign of `n` (`fractal_kind::sign`). The zero is
/// opaque: where `n` is 0 a driver would otherwise fold the `0 · dn` that
/// follows to `+0`, where the CPU's is `-0` for a negative `dn`.
fn sign(n: &str, k: f64) -> String {
    format!(
        "select(select(surflet_p(0.0f), {}, {n} < 0.0f), {}, {n} > 0.0f)",
        c(-k),
        c(k)
    )
}

/// One layer: a fractal over its octaves, at layer input `x`, returning
/// (value, gradient), as `program::layer_lanes` and
/// `fractal_kind::{add_octave, end_layer}` compute it.
fn layer_fn<const D: usize>(
    name: &str,
    k: usize,
    layer: &LayerSpec,
    octaves: &[OctaveSpec<D>],
) -> Result<String, Error> {
    let vt = vty(D);
    let rt = rty(D);
    let mut s = String::new();
    let _ = writeln!(s, "fn {name}_layer_{k}(x: {vt}) -> {rt} {{");
    let _ = writeln!(
        s,
        "    var v = 0.0f;\n    var g = {vt}(0.0f);\n    var w = 1.0f;\n    var gw = {vt}(0.0f);"
    );
    let max = lit(f32::MAX);
    for j in 0..layer.count {
        let o = &octaves[layer.first + j];
        // A turned octave reads `H·x` at twice the frequency, `H = R/2`
        // (program::Oct, program::turn).
        let half = o.rot.map(|r| r.map(|row| row.map(|v| c(v * 0.5))));
        let freq = c(if half.is_some() { o.freq * 2.0 } else { o.freq });
        let amp = c(o.amp);
        let off = vec(&(0..D).map(|a| c(o.offset[a])).collect::<Vec<_>>());
        let _ = writeln!(s, "    // octave {j}\n    {{");
        let _ = writeln!(s, "        let freq = {freq};\n        let amp = {amp};");
        let _ = writeln!(s, "        let off = {off};");
        let y = match &half {
            Some(h) => {
                let rows: Vec<String> = (0..D)
                    .map(|a| products((0..D).map(|b| (&h[a][b], AXES[b])), "x"))
                    .collect();
                let _ = writeln!(s, "        let y = {};", vec(&rows));
                "y"
            }
            None => "x",
        };
        // y·f + offset, saturated where it overflows (program::octave_overflow).
        let _ = writeln!(s, "        var xi = surflet_p{D}({y} * freq) + off;");
        let all_ok = (0..D)
            .map(|a| format!("abs(xi.{}) <= {max}", AXES[a]))
            .collect::<Vec<_>>()
            .join(" && ");
        let _ = writeln!(s, "        if (!({all_ok})) {{");
        let _ = writeln!(s, "            for (var a = 0u; a < {D}u; a++) {{");
        let _ = writeln!(
            s,
            "                let scaled = surflet_min({max}, surflet_max(-{max}, {y}[a] * freq));"
        );
        let _ = writeln!(
            s,
            "                xi[a] = (scaled + off[a]) + surflet_p({y}[a] * 0.0f);\n            }}\n        }}"
        );
        let _ = writeln!(s, "        let r = {};", kernel_call(&o.noise, "xi")?);
        let _ = writeln!(s, "        let n = {};", val(D, "r"));
        let grad = grad_of(D, "r");
        match &half {
            // Hᵀ·gradient (program::turn_back), then the doubled frequency.
            Some(h) => {
                let _ = writeln!(s, "        let gn = {vt}({grad});");
                let cols: Vec<String> = (0..D)
                    .map(|b| products((0..D).map(|a| (&h[a][b], AXES[a])), "gn"))
                    .collect();
                let _ = writeln!(s, "        let dn = {} * freq;", vec(&cols));
            }
            None => {
                let _ = writeln!(s, "        let dn = {vt}({grad}) * freq;");
            }
        }
        s.push_str(&octave_body::<D>(layer, j));
        s.push_str("    }\n");
    }
    let scale = c(layer.scale);
    let _ = writeln!(
        s,
        "    return {rt}(surflet_p(v) * {scale}, surflet_p{D}(g) * {scale});\n}}\n"
    );
    Ok(s)
}

/// `k₀·v.a₀ + k₁·v.a₁ + …`, summed from the first term, each product kept
/// unfused.
fn products<'a>(terms: impl Iterator<Item = (&'a String, &'a str)>, v: &str) -> String {
    terms
        .map(|(k, a)| format!("surflet_p({k} * {v}.{a})"))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// `fractal_kind::add_octave` for octave `j` of `layer`: its contribution
/// `c`, `dc`, then the sum (the first octave assigned, not added to zero).
fn octave_body<const D: usize>(layer: &LayerSpec, j: usize) -> String {
    let vt = vty(D);
    let mut s = String::new();
    let offset = c(layer.offset);
    let wgain = c(layer.weight);
    let body = match layer.kind {
        FractalKind::Fbm => "        let cv = amp * n;\n        let dc = amp * dn;\n".to_string(),
        FractalKind::Billow => format!(
            "        let k = amp * {};\n        let dc = k * dn;\n        let cv = amp * surflet_p(surflet_p(abs(n) * 2.0f) - 1.0f);\n",
            sign("n", 2.0)
        ),
        FractalKind::Turbulence => format!(
            "        let k = amp * {};\n        let dc = k * dn;\n        let cv = amp * abs(n);\n",
            sign("n", 1.0)
        ),
        FractalKind::Ridged => format!(
            "        let r0 = surflet_p({offset} - abs(n));\n\
             \x20       let rr = r0 * r0;\n\
             \x20       let sig = rr * w;\n\
             \x20       let k = ((r0 + r0) * w) * {};\n\
             \x20       let dsig = surflet_p{D}(k * dn) + surflet_p{D}(rr * gw);\n\
             \x20       let dc = amp * dsig;\n\
             \x20       let ws = sig * {wgain};\n\
             \x20       let inside = ws > 0.0f && ws < 1.0f;\n\
             \x20       w = surflet_max(surflet_min(ws, 1.0f), 0.0f);\n\
             \x20       gw = select({vt}(0.0f), {wgain} * dsig, inside);\n\
             \x20       let cv = amp * sig;\n",
            sign("n", -1.0)
        ),
        FractalKind::Hybrid => {
            let mut b = format!(
                "        let sig = surflet_p(n + {offset}) * amp;\n        let dsig = dn * amp;\n"
            );
            if j == 0 {
                b.push_str("        let cv = sig;\n        let dc = dsig;\n");
            } else {
                b.push_str(&format!(
                    "        let wt = surflet_min(w, 1.0f);\n\
                     \x20       let gwt = select({vt}(0.0f), gw, w < 1.0f);\n\
                     \x20       let dc = surflet_p{D}(gwt * sig) + surflet_p{D}(wt * dsig);\n\
                     \x20       let cv = wt * sig;\n"
                ));
            }
            b.push_str("        w = cv;\n        gw = dc;\n");
            b
        }
    };
    s.push_str(&body);
    if j == 0 {
        // Opaque like the later terms: NVIDIA's driver fused the first
        // octave's `r · freq` (amp 1) into the second octave's sum.
        let _ = writeln!(
            s,
            "        v = surflet_p(cv);\n        g = surflet_p{D}(dc);"
        );
    } else {
        let _ = writeln!(
            s,
            "        v = v + surflet_p(cv);\n        g = g + surflet_p{D}(dc);"
        );
    }
    s
}

/// The program: warp steps move the point (the Jacobian tracked), then the
/// last layer is evaluated there and its gradient pulled back
/// (`program::program_lanes`).
fn program_fn<const D: usize>(name: &str, prog: &Program<D>) -> String {
    let vt = vty(D);
    let rt = rty(D);
    let last = prog.layers.len() - 1;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// The value and its gradient (x the value).\nfn {name}_gradient(p: {vt}) -> {rt} {{"
    );
    if prog.steps == 0 {
        let _ = writeln!(s, "    return {name}_layer_{last}(p);\n}}\n");
    } else {
        let _ = writeln!(s, "    var q = p;\n    var jac = mat{D}x{D}<f32>();");
        for a in 0..D {
            let _ = writeln!(s, "    jac[{a}][{a}] = 1.0f;");
        }
        // jac[a][b]: row a (displaced axis), column b.
        for step in 0..prog.steps {
            let _ = writeln!(s, "    // warp step {step}");
            let _ = writeln!(s, "    {{");
            for a in 0..D {
                let _ = writeln!(s, "        let l{a} = {name}_layer_{}(q);", step * D + a);
            }
            for a in 0..D {
                let _ = writeln!(
                    s,
                    "        q.{0} = q.{0} + surflet_p({1});",
                    AXES[a],
                    val(D, &format!("l{a}"))
                );
            }
            let _ = writeln!(s, "        let old = jac;");
            for a in 0..D {
                for b in 0..D {
                    let mut acc = format!("old[{a}][{b}]");
                    for cc in 0..D {
                        let l = grad_at(D, &format!("l{a}"), cc);
                        acc = format!("({acc} + surflet_p({l} * old[{cc}][{b}]))");
                    }
                    let _ = writeln!(s, "        jac[{a}][{b}] = {acc};");
                }
            }
            let _ = writeln!(s, "    }}");
        }
        let _ = writeln!(s, "    let r = {name}_layer_{last}(q);");
        let g = |a| grad_at(D, "r", a);
        let mut parts = Vec::new();
        for b in 0..D {
            let mut acc = format!("surflet_p({} * jac[0][{b}])", g(0));
            for a in 1..D {
                acc = format!("({acc} + surflet_p({} * jac[{a}][{b}]))", g(a));
            }
            parts.push(acc);
        }
        let _ = writeln!(
            s,
            "    return {rt}({}, {vt}({}));\n}}\n",
            val(D, "r"),
            parts.join(", ")
        );
    }
    let _ = writeln!(
        s,
        "// The value alone.\nfn {name}(p: {vt}) -> f32 {{\n    return {};\n}}",
        val(D, &format!("{name}_gradient(p)"))
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Stack;

    /// Reads a literal of [`lit`] back: `±0x{m}p{e}f`.
    fn parse(s: &str) -> f32 {
        if let Some(z) = s.strip_suffix(".0f") {
            return if z == "-0" { -0.0 } else { 0.0 };
        }
        let (neg, s) = s.strip_prefix('-').map_or((false, s), |r| (true, r));
        let s = s.strip_prefix("0x").unwrap().strip_suffix('f').unwrap();
        let (m, e) = s.split_once('p').unwrap();
        let v = u64::from_str_radix(m, 16).unwrap() as f64 * 2f64.powi(e.parse().unwrap());
        if neg { -v as f32 } else { v as f32 }
    }

    #[test]
    fn literals_are_exact() {
        let mut x = 0x1234_5678u32;
        let specials = [
            0.0f32,
            -0.0,
            1.0,
            -1.5,
            f32::MAX,
            f32::MIN_POSITIVE,
            1e-45,
            0.1,
            1.0 / 3.0,
        ];
        for v in specials {
            assert_eq!(parse(&lit(v)).to_bits(), v.to_bits(), "{v:e} as {}", lit(v));
        }
        for _ in 0..100_000 {
            x = x.wrapping_mul(0x2c1b_3c6d).wrapping_add(0x297a_2d39);
            let v = f32::from_bits(x);
            if v.is_finite() {
                assert_eq!(parse(&lit(v)).to_bits(), v.to_bits(), "{v:e} as {}", lit(v));
            }
        }
    }

    #[test]
    fn names_and_kinds_are_checked() {
        let ev = |toml: &str| Stack::from_toml_str(toml).unwrap().build::<2>().unwrap();
        let simplex = ev("noise = \"simplex\"");
        for bad_name in ["", "1a", "a-b", "__x", "surflet_x", "_"] {
            let e = simplex.wgsl(bad_name).unwrap_err().to_string();
            assert!(e.contains("wgsl"), "{bad_name}: {e}");
        }
        assert!(simplex.wgsl("_ok1").is_ok());
        for kind in crate::NoiseKind::ALL {
            let stack = Stack {
                noise: kind,
                ..Stack::default()
            };
            assert!(stack.build::<2>().unwrap().wgsl("n").is_ok(), "{kind:?}");
        }
        assert!(ev("noise = \"opensimplex2s\"").wgsl("n").is_ok());
        let four = |noise: &str| {
            Stack::from_toml_str(&format!("noise = \"{noise}\""))
                .unwrap()
                .build::<4>()
                .unwrap()
                .wgsl("n")
        };
        for kind in crate::NoiseKind::ALL {
            let src = four(kind.name()).unwrap();
            assert!(src.contains("fn n_gradient(p: vec4<f32>) -> SurfletSample4d"));
        }
        let one = Stack::default().build::<1>().unwrap();
        assert!(one.wgsl("n").unwrap_err().to_string().contains("not 1D"));
    }

    /// Writes modules for a few stacks where `SURFLET_WGSL_DUMP` names a
    /// directory (for validating them with naga by hand).
    #[test]
    fn dump() {
        let Ok(dir) = std::env::var("SURFLET_WGSL_DUMP") else {
            return;
        };
        let stacks = [
            ("value2", "noise = \"value\"", 2),
            (
                "perlin3",
                "noise = \"perlin\"\nperiod = [4, 4, 8]\n[fractal]\nkind = \"ridged\"",
                3,
            ),
            (
                "simplex2",
                "noise = \"simplex\"\n[fractal]\nkind = \"hybrid\"\n[warp]\namplitude = 0.5",
                2,
            ),
            (
                "simplex3",
                "noise = \"simplex-value\"\n[warp]\nkind = \"progressive\"",
                3,
            ),
        ];
        for (name, toml, d) in stacks {
            let s = Stack::from_toml_str(toml).unwrap();
            let src = if d == 2 {
                s.build::<2>().unwrap().wgsl(name).unwrap()
            } else {
                s.build::<3>().unwrap().wgsl(name).unwrap()
            };
            std::fs::write(format!("{dir}/{name}.wgsl"), src).unwrap();
        }
    }
}
