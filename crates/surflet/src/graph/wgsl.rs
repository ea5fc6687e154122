//! Graphs as WGSL (feature `wgsl`): the writer each node kind's unit
//! writes its own function into, beside its CPU evaluation.
//!
//! Every node becomes one function `fn N_nK(q: vecD<f32>, j: matDxD<f32>)
//! -> vec(D+1)<f32>` returning its value and gradient at the (possibly
//! moved) point `q`, where `j` is the Jacobian `j[a][b] = ∂q[a]/∂p[b]` of
//! the moves above it. Whether there is one is known when the module is
//! written (the CPU's `Frame::jac` is `None` exactly where no `scale`,
//! `rotate` or `displace` is above the node), so each function is written
//! for one case: without a Jacobian it never reads `j`, and leaves pull
//! their gradient back through it only where the CPU does. The operations
//! are the CPU's, in its order, with the module's exactness rules (products
//! through `surflet_p`, so no driver fuses them; no constant a driver could
//! fold where IEEE 754 says otherwise).

use core::fmt::Write;

use crate::error::Error;
use crate::prelude_internal::*;
use crate::wgsl::c;

/// What the graph's functions share, after the stacks' preamble.
const HELPERS: &str = "\
// A NaN the compiler cannot fold.
fn surflet_nan() -> f32 {
    return bitcast<f32>(0x7fc00000u ^ surflet_zero);
}

// Whether x is NaN, by its bits (which no fast-math assumption removes).
fn surflet_is_nan(x: f32) -> bool {
    return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u;
}
";

/// The module being written: the public name and the functions so far.
pub(in crate::graph) struct Out<const D: usize> {
    name: String,
    fns: String,
    count: usize,
    /// The noise kinds of the stacks written, for the preamble.
    kinds: Vec<crate::noise::NoiseKind>,
    /// Functions shared by nodes, each once.
    libs: Vec<String>,
}

impl<const D: usize> Out<D> {
    pub fn new(name: &str) -> Self {
        Out {
            name: name.to_string(),
            fns: String::new(),
            count: 0,
            kinds: Vec::new(),
            libs: Vec::new(),
        }
    }

    /// Adds functions that several nodes may call, once.
    pub fn library(&mut self, text: String) {
        if !self.libs.contains(&text) {
            self.libs.push(text);
        }
    }

    /// A name no other function of the module has.
    pub fn fresh(&mut self) -> String {
        self.count += 1;
        format!("{}_n{}", self.name, self.count)
    }

    /// Adds a node function with `body` (which reads `q` and `j`), and
    /// returns its name.
    pub fn node_fn(&mut self, what: &str, body: &str) -> String {
        let f = self.fresh();
        let (vt, rt, mt) = (self.vt(), self.rt(), self.mt());
        let _ = writeln!(
            self.fns,
            "// {what}\nfn {f}(q: {vt}, j: {mt}) -> {rt} {{\n{body}}}\n"
        );
        f
    }

    /// Adds a helper function, whole (`fn NAME(...)` with `NAME` from
    /// [`fresh`](Self::fresh)).
    pub fn helper(&mut self, text: &str) {
        self.fns.push_str(text);
        self.fns.push('\n');
    }

    /// Adds the functions of a stack (`wgsl::stack_fns`), and returns the
    /// name of its `_gradient` function's prefix.
    pub fn stack(&mut self, prog: &crate::program::Program<D>) -> Result<String, Error> {
        let s = self.fresh();
        let text = crate::wgsl::stack_fns(prog, &s)?;
        for kind in crate::wgsl::kinds(prog) {
            if !self.kinds.contains(&kind) {
                self.kinds.push(kind);
            }
        }
        self.fns.push_str(&text);
        Ok(s)
    }

    /// `vecD<f32>`.
    pub fn vt(&self) -> String {
        crate::wgsl::vty(D)
    }
    /// A value and its gradient: `vec(D+1)<f32>`, or `SurfletSample4d` in
    /// 4D (`wgsl::rty`).
    pub fn rt(&self) -> String {
        crate::wgsl::rty(D)
    }
    /// The value-and-gradient of value `v` and the `D` comma-separated
    /// gradient components `grads`.
    pub fn ret(&self, v: &str, grads: &str) -> String {
        format!("{}({v}, {}({grads}))", self.rt(), self.vt())
    }
    /// The value of a value-and-gradient `r`.
    pub fn v(&self, r: &str) -> String {
        crate::wgsl::val(D, r)
    }
    /// `matDxD<f32>`: a Jacobian.
    pub fn mt(&self) -> String {
        format!("mat{D}x{D}<f32>")
    }
    /// The gradient's components of a value-and-gradient `r`.
    pub fn grad(&self, r: &str) -> String {
        crate::wgsl::grad_of(D, r)
    }
    /// Component `a` of the gradient of `r`.
    pub fn g(&self, r: &str, a: usize) -> String {
        crate::wgsl::grad_at(D, r, a)
    }

    /// The whole module: the preamble (with the kernels of the stacks
    /// written), the helpers, the node functions, and the public pair,
    /// whose gradient is `root`'s (called without a Jacobian).
    pub fn finish(self, root: &str) -> String {
        let (vt, rt, mt) = (self.vt(), self.rt(), self.mt());
        let value = self.v(&format!("{}_gradient(p)", self.name));
        let name = &self.name;
        let mut out = crate::wgsl::preamble::<D>(name, &self.kinds);
        out.push_str(HELPERS);
        out.push('\n');
        for lib in &self.libs {
            out.push_str(lib);
            out.push('\n');
        }
        out.push_str(&self.fns);
        let _ = writeln!(
            out,
            "// The value and its gradient.\nfn {name}_gradient(p: {vt}) -> {rt} {{\n    return {root}(p, {mt}());\n}}\n"
        );
        let _ = writeln!(
            out,
            "// The value alone.\nfn {name}(p: {vt}) -> f32 {{\n    return {value};\n}}"
        );
        out
    }
}

/// Constant `x` rounded to `f32` as the CPU's `F::from_f64` rounds it,
/// written opaque (through `surflet_p`). A driver may fold what it can see
/// is constant where IEEE 754 says otherwise: `y + 0.0` to `y` (but `-0 +
/// 0 = +0`), `y · 0.0` to `0.0`, and `(y + a) + b` to `y + (a + b)`, which
/// rounds differently (lavapipe does the last, where one node adds a
/// constant to another's constant-plus-something).
pub(in crate::graph) fn k(x: f64) -> String {
    format!("surflet_p({})", c(x))
}

/// `k` of each entry, as a `vecN<f32>`.
pub(in crate::graph) fn kvec(xs: &[f64]) -> String {
    let parts: Vec<String> = xs.iter().map(|&x| k(x)).collect();
    format!("vec{}<f32>({})", parts.len(), parts.join(", "))
}

/// A `D × D` matrix of `k` constants, `m[a][b]` at `[a][b]`.
pub(in crate::graph) fn kmat<const D: usize>(m: &[[f64; D]; D]) -> String {
    let cols: Vec<String> = m.iter().map(|row| kvec(row)).collect();
    format!("mat{D}x{D}<f32>({})", cols.join(", "))
}

/// The start of a piecewise map's WGSL (`terrace`, `curve`, over
/// `kinds::segment`): NaN passes through; the `arrays` (named, the first
/// the control points' x) are declared; `k` is set to the number of
/// control points at or below `x` (their `f32` roundings are sorted, so
/// that is the CPU's partition point); and outside them the map returns
/// `ends.0` below the first point and `ends.1` above the last, flat.
pub(in crate::graph) fn piecewise(arrays: &[(&str, &[f64])], ends: (f64, f64)) -> String {
    let mut s =
        "    if (surflet_is_nan(x)) {\n        return vec2<f32>(x, x);\n    }\n".to_string();
    for (name, xs) in arrays {
        let parts: Vec<String> = xs.iter().map(|&x| k(x)).collect();
        let _ = writeln!(
            s,
            "    var {name} = array<f32, {}>({});",
            xs.len(),
            parts.join(", ")
        );
    }
    let (first, n) = (arrays[0].1[0], arrays[0].1.len());
    let _ = write!(
        s,
        "    var k = 0u;\n    for (var i = 0u; i < {n}u; i++) {{\n        \
         k = k + select(0u, 1u, {}[i] <= x);\n    }}\n    \
         if (k < 1u || k >= {n}u) {{\n        \
         return vec2<f32>(select({}, {}, x < {}), surflet_p(0.0f));\n    }}\n",
        arrays[0].0,
        k(ends.1),
        k(ends.0),
        k(first)
    );
    s
}

#[cfg(test)]
mod tests {
    use crate::graph::Graph;
    use crate::noise::{Noise, NoiseKind};
    use crate::stack::Stack;

    fn leaf(noise: NoiseKind, seed: u64) -> Graph {
        Graph::stack(Stack {
            noise,
            seed,
            ..Stack::default()
        })
    }

    /// What has no WGSL form is refused, saying why; a single stack gives
    /// its own module.
    #[test]
    fn refusals_and_single_stacks() {
        let err = |g: &Graph| g.build::<2>().unwrap().wgsl("f").unwrap_err().to_string();
        let custom = Graph::custom("mine", Noise::<2>::new(NoiseKind::Value, 9));
        let e = err(&custom.add(leaf(NoiseKind::Perlin, 1)));
        assert!(e.contains("custom field") && e.contains("GPU"), "{e}");
        // A non-integer power has one: the library once, whatever the
        // number of powers, and each power's constants.
        let two_powers = leaf(NoiseKind::Perlin, 1)
            .abs()
            .pow(0.5)
            .add(leaf(NoiseKind::Value, 2).abs().pow(2.5).neg());
        let text = two_powers.build::<2>().unwrap().wgsl("f").unwrap();
        assert_eq!(text.matches("fn surflet_pow_log2(").count(), 1);
        assert_eq!(text.matches("surflet_pow_log2(x)").count(), 2);
        // Every family noise has a kernel, cellular included.
        let mixed = leaf(NoiseKind::Cellular, 1).add(leaf(NoiseKind::OpenSimplex2, 1));
        assert!(mixed.build::<3>().unwrap().wgsl("f").is_ok());
        let four = leaf(NoiseKind::Cellular, 1).neg().build::<4>().unwrap();
        assert!(four.wgsl("f").unwrap().contains("-> SurfletSample4d"));
        let two = leaf(NoiseKind::Perlin, 1).neg().build::<2>().unwrap();
        for bad in ["1a", "surflet_x"] {
            assert!(two.wgsl(bad).is_err(), "{bad}");
        }
        // Whole exponents have one.
        assert!(
            leaf(NoiseKind::Perlin, 1)
                .pow(-3.0)
                .build::<3>()
                .unwrap()
                .wgsl("f")
                .is_ok()
        );
        let one = leaf(NoiseKind::Simplex, 4);
        let stack = Stack {
            noise: NoiseKind::Simplex,
            seed: 4,
            ..Stack::default()
        };
        assert_eq!(
            one.build::<2>().unwrap().wgsl("f").unwrap(),
            stack.build::<2>().unwrap().wgsl("f").unwrap()
        );
    }
}
