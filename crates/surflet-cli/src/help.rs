//! `surflet help [TOPIC]`: the material that several subcommands share,
//! written once. A subcommand's own `--help` points here rather than
//! repeating it.

use clap::Args;

/// Arguments of `surflet help`.
#[derive(Args, Debug, Clone)]
pub struct HelpArgs {
    /// A topic (coordinates, stacks, graphs, config) or a subcommand (sample,
    /// render, gallery); without one, the overview.
    #[arg(value_name = "TOPIC")]
    pub topic: Option<String>,
}

/// The topics, each with a one-line summary and its text.
pub const TOPICS: [(&str, &str, &str); 4] = [
    (
        "coordinates",
        "world units, --frequency, --scale, --origin: where pixels sample",
        COORDINATES,
    ),
    (
        "stacks",
        "noise stacks: fractals and domain warps, their keys and flags",
        STACKS,
    ),
    (
        "graphs",
        "noise graphs: --expr, its functions, [graph] in configs",
        GRAPHS,
    ),
    (
        "config",
        "config files: --config, --save-config, versions and every key",
        CONFIG,
    ),
];

const GRAPHS: &str = "\
GRAPHS

--expr EXPR (sample, render, analyze, bench) evaluates a noise graph: noises,
fractals and warps combined by the functions below. Every node carries its
exact gradient (render --mode normal works on any graph) and a range derived
from its inputs, which render maps to pixels without --auto-range.

  select(fbm(simplex(seed=1), octaves=6), ridged(perlin(seed=2), octaves=4),
         control=perlin(seed=3, frequency=0.25), threshold=0, falloff=0.1)
    * 0.8 + 0.1

Grammar: calls with positional and named arguments, numbers, + - * /, unary
minus, parentheses, lists [a, b] and names or \"strings\" as values.

Leaves (a noise stack each):
{leaves}
                      seed=, frequency=, period=[..], offset=[..],
                      antialias=true, footprint=;
                      cellular: distance=, return=\"f2-f1\", jitter=
  fbm(N) ridged(N) billow(N) turbulence(N) hybrid(N)
                      {fractal_args}
  warp(S)             amplitude=, kind=progressive, noise=, seed=,
                      frequency=, fractal=fbm, octaves=...
Combinators:
  a + b, a - b, a * b, a / b, -a (also add(a, b), sub, mul, div and neg(a))
  a number (also const(v)), min(a, b), max(a, b), abs(a), pow(a, e)
  clamp(a, min, max)  scale_bias(a, scale, bias)  remap(a, from=[..], to=[..])
  terrace(a, points=[..], smooth=true)  curve(a, points=[[x, y], ..])
  smoothstep(edge0, edge1, a)
  select(a, b, control=c, threshold=0, falloff=0)  blend(a, b, control=c)
  translate(a, by=[..])  scale(a, by=[..] or s)  rotate(a, angle=radians)
  rotate(a, matrix=[[..], ..])  displace(a, by=[f0, f1, ..])
  distort(a, power=1, frequency=1, roughness=3, seed=0)

A graph replaces the stack flags (--octaves, --seed... are errors with it).
--save-config writes it as a [graph] table (a table with `op` is a function
with every argument named; one without is a stack in the stack format); a
bad expression is reported with a caret under the fault, exit code 2. Graphs
are at most 64 nodes deep.
";

/// The list of topics for the overview and for errors.
pub fn topic_list() -> String {
    let mut s = String::from("HELP TOPICS (surflet help TOPIC)\n");
    for (name, summary, _) in TOPICS {
        s += &format!("  {name:<12} {summary}\n");
    }
    s
}

const COORDINATES: &str = "\
COORDINATES

Every subcommand places the noise in one plane of world coordinates.

  --frequency F   lattice cells per world unit: the noise (octave 0 of a
                  stack) is evaluated at the world point times F. The same
                  in sample, render and config files (the key `frequency`).
                  Default 1, where a stack without a fractal is bit for bit
                  the plain noise. A decimal or a fraction such as 1/64.

sample reads world points from standard input.

render lays a grid of pixels over the plane. Pixel (i, j), counting columns
rightwards and rows downwards from the top-left pixel (0, 0), samples the
world point
    x = X + (i*A)/B,   y = Y + (j*C)/D
evaluated in f64, where
  --origin X,Y    the world point of the top-left pixel (default 0,0)
  --scale S[,SY]  world units per pixel, S = A/B across and C/D down
                  (default 1/64, so at frequency 1 a lattice cell is 64
                  pixels wide). A fraction keeps A and B apart, so i*A/B is
                  rounded once; a decimal S means A = S, B = 1.
Pixels sample at their top-left corner. The other coordinates are --z and
--w, and an animation moves along z (or w with --animate w) by --step
world units per frame (default 1/32 of a cell, 1/(32*F) units).

So --frequency changes what the noise looks like at every point (feature
size in the world), and --scale only how much of the world the image shows.
Doubling --frequency or doubling --scale both halve the features' size in
pixels, but only --scale moves the image's corner points.

A period P (--period, or the config's `period`) makes the noise repeat every
P/F world units; without --scale, render then picks the scale
(P/F)/WIDTH across and (P/F)/HEIGHT down, so that one period spans the image
and it tiles.

Keeping a view at another size: `render --config FILE --size 1024
--same-view` shows the region the config was saved with, its scale divided
by the change in size (per axis). Without --same-view a larger --size shows
more of the plane at the same scale.

Coordinates too large for the noise are refused: once a sample lies 2^52
cells from the origin every f64 coordinate is a whole number, the samples
all fall on lattice points and the image would be flat.
";

const STACKS: &str = "\
NOISE STACKS

A noise stack is a noise, a seed, a frequency, an optional period, an
optional fractal and an optional domain warp. sample and render build one
from --config and their flags; in render every image is a stack (without a
fractal, one octave of the noise). This file, saved as is, renders one tile
of warped, ridged cellular noise:

  version = 2            # the config format (surflet help config)
  noise = \"cellular\"     # {kinds}
  seed = 42              # see below
  frequency = 0.5        # lattice cells per world unit
  period = [4, 4]        # optional: repeat every period/frequency units
  distance = \"manhattan\" # cellular only: euclidean, euclidean-squared,
                         #   manhattan, chebyshev, hybrid
  return = \"f2-f1\"       # cellular only: f1, f2, f2-f1, f1+f2, f1*f2,
                         #   f1/f2, cell-value
  jitter = 0.8           # cellular only: in [0, 1]
  [fractal]              # optional; also {fractal_also}
  octaves = 5
  [warp]                 # optional; also kind, noise, seed, frequency
  amplitude = 0.5
  [warp.fractal]         # optional; keys as in [fractal]
  octaves = 3

Each flag under \"Noise stack\" in a subcommand's --help sets the key named
in its help, on top of the config (flags win) or of the defaults. A flag of
a table the stack lacks creates that table with its defaults: --octaves 6
alone makes a 6-octave fBm, and --warp-amplitude alone a single-step warp by
one octave. Changing the kind with --fractal drops a config's offset or
weight that the new kind does not use, and changing the noise with
--noise drops a config's distance, return and jitter unless it is
cellular. The result is checked as a whole; an
error names the key (and the flag or file it came from; for TOML syntax,
the line).

Seeds are integers from -2^63 to 2^64-1. A negative seed n is the same seed
as 2^64 + n (the same two's-complement bits), so --seed -1 equals --seed
18446744073709551615, and so does `seed = -1` in a config file. Config
files are written with the unsigned form; seeds past 2^63-1 as decimal
strings, which TOML needs.

The stack's frequency multiplies the coordinates: octave 0 sees
coordinate*frequency. With a period P per axis the stack repeats every
P/frequency units; the lacunarity must then be a whole number. Ranges:
normalised fractals (the default) lie in [-1, 1], turbulence and ridged
(amplitude and gain not negative) in [0, 1]; without normalisation the
bound is the library's derived bound B. render maps that range onto the
pixels unless told otherwise.

An optional `offset = [X, Y, ...]` (--domain-offset X,Y,...) moves the
stack by that many lattice cells at its frequency, one number per axis: the
value at a point is the unmoved stack's at point + offset/frequency, every
octave and the warp moving together, so layers or neighbouring tiles can
differ without another seed. A whole number of periods gives the same
tile. Expressions (--expr) have no offset yet.

`antialias = true` fades the octaves too fine for the sampling, so that a
zoomed-out fractal does not alias into static: octave i's amplitude is
multiplied by 1 - smoothstep(0.2, 0.75, f_i * footprint), f_i its frequency
and `footprint` (a key, in world units) the spacing of the samples; the
value and the gradient fade alike and the range stays the plain one. render
and analyze give a stack without a footprint their pixel's size, and
render --antialias (a config's [view] antialias = true) turns it on for
every stack of the description, graph leaves included; sample, Python and
the C API evaluate points, which have no spacing, so there the footprint is
stated. In an expression: perlin(antialias=true, footprint=0.01).
";

const CONFIG: &str = "\
CONFIG FILES

--save-config FILE writes everything that decides the output except the
file format: the noise stack and, from render, the view (the size
included), the pixel mapping and the animation. --config FILE reads it
back: render --config FILE draws the saved image again bit for bit (at the
saved size unless --size is given). Flags given beside --config override the
file's keys. TOML, or JSON when FILE ends in .json. A repeated command
replaces FILE (atomically); --no-clobber refuses to.

  version = 2
  noise = \"perlin\"         # the stack's keys: surflet help stacks
  seed = 7
  frequency = 1.0
  [fractal]
  octaves = 8
  [view]                   # render only
  size = [512, 512]        # the default --size; what --same-view keeps
  origin = [0.0, 0.0]      # --origin
  scale = \"1/64\"           # --scale: a number, \"A/B\", or [ACROSS, DOWN]
  dims = 2                 # --dims
  z = 0.0                  # --z, 3D and 4D
  w = 0.0                  # --w, 4D
  antialias = true         # --antialias: octaves finer than a pixel fade
  [pixels]                 # render only
  mode = \"ramp\"            # gray, ramp or normal
  ramp = \"terrain\"         # --ramp
  range = \"documented\"     # \"documented\", \"auto\" or [LO, HI]
  normal-strength = 2.0    # --normal-strength (absent: the default rule)
  normal-format = \"opengl\" # --normal-format
  [animation]              # render only
  frames = 64              # --frames
  axis = \"z\"               # --animate
  step = \"1/32\"            # --step, world units per frame
  loop = true              # --loop
  fps = 25.0               # --fps

Every key is optional; a missing one takes the command line's default.
sample reads the stack and ignores the other tables.

Every front end reads and writes this one document: render and sample
(--save-config), the explorer (surflet serve: Export, and the config or
toml of a request) and the Python module (surflet.Stack and surflet.Graph:
from_toml, from_json, to_toml, to_json). Each reads the others' files, and
a file read and written back is the same text.

Versions. A file without `version` is a bare noise stack as the first
releases wrote it. Those files keep their meaning: render draws them at one
world unit per pixel (scale 1), as it then did, where a version 2 file
without a scale gets the default 1/64. The [view], [pixels] and [animation]
tables need `version = 2`. A version this surflet does not know is refused.
";

/// `words` joined by `sep`, in lines of at most 78 columns: the first after
/// `first` columns already written, the others after `indent`.
fn wrap(words: impl IntoIterator<Item = String>, sep: &str, first: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut column = first;
    for (i, word) in words.into_iter().enumerate() {
        if i > 0 {
            let sep = if column + sep.len() + word.len() > 78 {
                out.push_str(sep.trim_end());
                out.push('\n');
                out.push_str(indent);
                column = indent.len();
                ""
            } else {
                sep
            };
            out.push_str(sep);
            column += sep.len();
        }
        out.push_str(&word);
        column += word.len();
    }
    out
}

/// A topic's text with the noise kinds filled in from the library's
/// registry, so that a new kind needs no edit here.
fn fill(text: &str) -> String {
    let kinds = surflet::NoiseKind::ALL;
    // The stacks topic's example: `noise = "cellular"     # ` is 25
    // columns wide.
    let names = wrap(
        kinds.map(|k| k.name().to_string()),
        ", ",
        27,
        "                         #   ",
    );
    // The expression language's leaf functions, as it spells them.
    let leaves = wrap(
        kinds.map(|k| format!("{}()", k.name().replace('-', "_"))),
        " ",
        2,
        "  ",
    );
    // The fractal table's keys, from the library's schema, so that a new
    // key needs no edit here: as named arguments (a flag shows the value
    // that changes it), and in the example config's comment.
    let keys = || {
        surflet::stack::keys::KEYS
            .iter()
            .filter(|k| k.table() == "fractal" && k.path != "fractal.kind")
    };
    let args = wrap(
        keys().map(|k| match k.default {
            Some(surflet::stack::keys::Value::Bool(b)) => format!("{}={}", k.name(), !b),
            _ => format!("{}=", k.name()),
        }),
        ", ",
        22,
        "                      ",
    );
    let mut also: Vec<String> = keys()
        .filter(|k| k.path != "fractal.octaves")
        .map(|k| k.name().to_string())
        .collect();
    if let (Some(last), Some(before)) = (also.pop(), also.pop()) {
        also.push(format!("{before} and {last}"));
    }
    // After `  [fractal]              # optional; also `; the example's
    // next line, `kind = "ridged"`, carries the list's second.
    let pad = format!("{:25}# ", "");
    let mut lines: Vec<String> = wrap(also, ", ", 42, &pad)
        .lines()
        .map(String::from)
        .collect();
    let kind = "  kind = \"ridged\"";
    match lines.get_mut(1) {
        Some(second) => *second = format!("{kind:25}{}", &second[25..]),
        None => lines.push(kind.to_string()),
    }
    let also = lines.join("\n");
    text.replace("{kinds}", &names)
        .replace("{leaves}", &format!("  {leaves}"))
        .replace("{fractal_args}", &args)
        .replace("{fractal_also}", &also)
}

/// The text of `topic`, if it is one.
pub fn topic(name: &str) -> Option<String> {
    // Other words people reach for.
    let name = match name {
        "expr" | "expression" | "expressions" | "graph" => "graphs",
        "stack" => "stacks",
        "coordinate" => "coordinates",
        "configs" => "config",
        other => other,
    };
    TOPICS
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, _, text)| fill(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both topics list every key of the fractal table in the library's
    /// schema.
    #[test]
    fn topics_name_every_fractal_key() {
        let graphs = topic("graphs").unwrap();
        let stacks = topic("stacks").unwrap().replace("\n", " ");
        for k in surflet::stack::keys::KEYS.iter() {
            if k.table() != "fractal" || k.path == "fractal.kind" {
                continue;
            }
            assert!(graphs.contains(&format!(" {}=", k.name())), "{}", k.path);
            if k.path != "fractal.octaves" {
                assert!(stacks.contains(&format!(" {}", k.name())), "{}", k.path);
            }
        }
    }

    /// The kinds in the stacks topic's example are the library's.
    #[test]
    fn stacks_name_every_noise_kind() {
        let text = topic("stacks").unwrap();
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for kind in surflet::NoiseKind::ALL {
            assert!(
                flat.contains(&format!(" {},", kind.name()))
                    || flat.contains(&format!(" {} ", kind.name())),
                "{kind:?}"
            );
        }
        assert!(!text.contains('{'), "a placeholder left:\n{text}");
    }

    #[test]
    fn topic_lines_fit_80_columns() {
        for (name, summary, _) in TOPICS {
            assert!(summary.len() + 15 <= 80, "{name}");
            for line in topic(name).unwrap().lines() {
                assert!(line.chars().count() <= 78, "{name}: {line:?}");
            }
        }
    }
}
