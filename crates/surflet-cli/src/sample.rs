//! `surflet sample`: evaluate a noise at points read from standard input.

use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::ops::RangeInclusive;

use clap::builder::PossibleValue;
use clap::{Args, ValueEnum};
use surflet::FractalDesc;

use crate::CliError;
use crate::document::Document;
use crate::eval::{Eval, FamilyOptions, NoiseFn};
use crate::names::{self, Extra, NoiseName, Precision, Variant};
use crate::stack_args::{Resolved, StackArgs, StagedConfig, kinds, one_noise};

/// The most columns any noise takes (`pnoise1234` in 4D; value, perlin and
/// simplex in 8D).
const MAX_COLUMNS: usize = 8;

/// Description of `surflet sample` for `--help`, above the options.
pub const LONG_ABOUT: &str = "\
Evaluate a noise at points read from standard input, one point per line, and
print one line per point: the value and, with --gradient, its derivatives.";

const DETAILS: &str = "\
INPUT
  One point per line, its numbers separated by commas and/or whitespace:
  \"1,2,3\", \"1 2 3\", \"1, 2, 3\" and tab-separated lines all work. Blank lines
  (empty or whitespace only) are skipped and produce no output line, and so
  is a CSV header: a first line whose fields all start with a letter and
  are not numbers, such as \"x,y,z\".

  The first point line fixes the number of columns; every later line must
  have the same number. The columns give the dimension D: D = columns, except
    pnoise1234   D coordinates, then D integer periods (D = columns / 2)
    srdnoise23   D coordinates, then the rotation angle t (D = columns - 1)
  With --period, D is the number of periods.

  Numbers are decimal (1, -2.5, .5, 1e-9, inf, NaN). f32 noises (the C ports,
  and the family with --f32) parse them directly as f32, correctly rounded;
  the others as f64. pnoise1234 periods are non-zero integers in i32 range.

N-D NOISE
  value, perlin and simplex also take 5 to 8 columns: D = 5 to 8, computed
  by the library's N-D noise (surflet::nd::NoiseNd), with --seed, --f32 and
  --gradient as in 1D-4D and the same output format. In 1D-4D value and
  perlin are exactly the N-D noise too; N-D simplex noise is a different
  noise (the skewed lattice and one gradient set in every dimension), so
  1-4 columns keep the family's simplex (with 5-8 columns, simplex says so
  in a note on standard error). From 6D N-D simplex noise is 0 in
  the lattice's deep holes (1.8%, 18% and 41% of space in 6D, 7D and 8D).
  5-8 columns take no --period (periods fix D at 1 to 4) and no noise stack
  options (stacks are 1D-4D); simplex-value is 1D-4D.

OUTPUT
  One line per point: the value, then with --gradient the partial
  derivatives, comma-separated: \"v\", or \"v,dx,dy\" in 2D. Each number is the
  shortest decimal that parses back to the exact result as a double (an f32
  result is printed as its exact f64 widening), or NaN, inf, -inf. The
  OpenSimplex2 ports print their f32 result as the shortest decimal that
  parses back to it as an f32 (as Java prints a float).

  Output is streamed: memory use does not grow with the input, and answers
  are flushed whenever no more input is waiting, so an interactive producer
  gets each answer as soon as it has sent its line.

NOISE STACKS IN SAMPLE
  -n KIND is the same as NAME KIND. With --config, --frequency or any option
  under \"Noise stack\", a family NAME
  ({kinds})
  becomes the stack's noise, and each line gets the stack's value, and with
  --gradient its analytic derivatives, in f64 or with --f32 in f32. With
  --config, NAME may be left out: the stack's noise is then the config's.
  --seed, --period and --frequency
  set the stack's seed, period and frequency; the input coordinates are
  world coordinates, multiplied by the frequency. A period fixes D, as for
  plain noise. The reference ports take no stack options. A config written
  by `render --save-config` works here too (its [view], [pixels] and
  [animation] tables do not apply). Stacks: `surflet help stacks`; config
  files: `surflet help config`.

CURL NOISE
  NAME curl2 (2 columns) and curl3 (3 columns) print a divergence-free
  vector per line, \"vx,vy\" or \"vx,vy,vz\", in the number format above. It
  is the curl of a potential: the noise stack given by --config and the
  options, whose noise is --noise, the config's, or simplex, and whose
  fractal, when neither the config nor an option gives one, is fBm with the
  library's defaults (4 octaves, lacunarity 2, gain 0.5). In 2D the vector is
  (dp/dy, -dp/dx) of the one potential p. In 3D it is the curl of three
  potentials with the stack's parameters and three decorrelated seeds derived
  from its seed (splitmix64 of the seed, a salt and the index), so the one
  seed still names the field. Derivatives are analytic. A potential has no
  domain warp, and --gradient does not apply; a domain offset moves the
  points, as in a stack.
";

const EXIT_STATUS: &str = "\
EXIT STATUS
  0  success, also when the output's reader goes away early (`| head`)
  1  bad input: a line with the wrong number of columns, a field that is not
     a number, a dimension the noise (or its --variant) lacks. The message
     names the line (1-based, blank lines counted). Lines before it have
     already been answered on standard output.
     --save-config failing to write its file also exits 1.
  2  usage error: unknown NAME, a bad option, an option NAME does not take,
     or a bad --config file: unreadable, malformed, an unknown key or a bad
     value. The message names the key and the flag or file that set it, and
     for TOML syntax errors the line. Nothing has been written.
";

/// Everything `--help` shows below the options: formats, names, exit codes.
/// The names table is generated from the metadata the parser uses, so the two
/// cannot drift apart.
pub fn long_help() -> String {
    format!(
        "{}\n{}\n{EXIT_STATUS}",
        DETAILS.replace("{kinds}", &kinds()),
        names::help_table()
    )
}

/// What `-h` shows below the options.
pub fn short_help() -> String {
    let names: Vec<String> = NoiseName::ALL
        .iter()
        .map(|n| {
            let d = n.dims();
            if d.start() == d.end() {
                format!("{n} ({}D)", d.start())
            } else {
                format!("{n} ({}-{}D)", d.start(), d.end())
            }
        })
        .collect();
    format!(
        "NAME is one of: {}, curl2 (2D vectors), curl3 (3D vectors).\n\nPoints are read one \
         per line (blank lines skipped); see --help for the formats, noise stacks and exit \
         codes.",
        names.join(", ")
    )
}

/// What NAME names: a noise, or curl noise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A reference port or a family noise.
    Noise(NoiseName),
    /// 2D curl noise.
    Curl2,
    /// 3D curl noise.
    Curl3,
}

/// Every NAME, in the order errors list them.
const TARGETS: [Target; NoiseName::ALL.len() + 2] = {
    let mut t = [Target::Curl3; NoiseName::ALL.len() + 2];
    let mut i = 0;
    while i < NoiseName::ALL.len() {
        t[i] = Target::Noise(NoiseName::ALL[i]);
        i += 1;
    }
    t[i] = Target::Curl2;
    t
};

impl Target {
    fn name(self) -> &'static str {
        match self {
            Target::Noise(n) => n.name(),
            Target::Curl2 => "curl2",
            Target::Curl3 => "curl3",
        }
    }
}

impl ValueEnum for Target {
    fn value_variants<'a>() -> &'a [Self] {
        &TARGETS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()))
    }
}

/// Arguments of `surflet sample`.
#[derive(Args, Debug, Clone)]
#[command(allow_negative_numbers = true)]
pub struct SampleArgs {
    /// The noise to evaluate, or curl2/curl3 for curl noise; optional with
    /// -n KIND, --config or --expr.
    #[arg(
        value_name = "NAME",
        hide_possible_values = true,
        required_unless_present_any = ["noise", "config", "expr"]
    )]
    pub name: Option<Target>,

    // Boxed so that `Command` stays small (the group is large).
    #[command(flatten)]
    pub stack: Box<StackArgs>,

    /// Also print the partial derivatives (family noises, sdnoise1234,
    /// srdnoise23).
    #[arg(long)]
    pub gradient: bool,

    /// The lattice orientation of opensimplex2-java and opensimplex2s-java
    ///
    /// Which Java function they call: standard or improve-x in 2D;
    /// improve-xy, improve-xz or fallback in 3D; improve-xyz,
    /// improve-xyz-improve-xy, improve-xyz-improve-xz, improve-xy-improve-zw
    /// or fallback in 4D. The dimension comes from the input [default:
    /// standard, improve-xy or improve-xyz] (see OPENSIMPLEX2 VARIANTS).
    #[arg(long, value_name = "V", hide_possible_values = true)]
    pub variant: Option<Variant>,

    /// Compute a family noise in f32 (the default is f64).
    #[arg(long = "f32")]
    pub f32: bool,

    /// Refuse to replace an existing --save-config file (by default it is
    /// replaced, atomically).
    #[arg(long, hide_short_help = true, help_heading = "Noise stack")]
    pub no_clobber: bool,

    /// Accepted for old scripts: replacing is the default.
    #[arg(long, hide = true)]
    pub overwrite: bool,
}

/// Checks the option combinations clap cannot express for a named noise:
/// options that only some noises take. `stack_flag` is the first stack
/// option given, which no reference port takes.
fn check_options(
    args: &SampleArgs,
    name: NoiseName,
    stack_flag: Option<&'static str>,
) -> Result<FamilyOptions, CliError> {
    if args.variant.is_some() && !name.is_opensimplex2() {
        return Err(CliError::Usage(format!(
            "--variant applies only to opensimplex2-java and opensimplex2s-java; {name} has \
             no variants"
        )));
    }
    if name.family().is_none() {
        if args.stack.seed().is_some() && !name.is_opensimplex2() {
            return Err(CliError::Usage(format!(
                "--seed applies only to the surflet family ({}) and to opensimplex2-java and \
                 opensimplex2s-java; {name} is a reference port with fixed behaviour",
                kinds()
            )));
        }
        let flag = [
            (args.stack.period().is_some(), "--period"),
            (args.f32, "--f32"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
        .or(stack_flag);
        if let Some(flag) = flag {
            return Err(CliError::Usage(format!(
                "{flag} applies only to the surflet family ({}); {name} is a reference port \
                 with fixed behaviour",
                kinds()
            )));
        }
    }
    if args.gradient && !name.has_gradient() {
        return Err(CliError::Usage(format!(
            "{name} has no derivatives; --gradient works with sdnoise1234, srdnoise23 \
             and the family noises ({})",
            kinds()
        )));
    }
    check_period_len(args)?;
    Ok(FamilyOptions {
        seed: args.stack.seed().unwrap_or(0),
        period: args.stack.period().map(<[u32]>::to_vec),
        f32: args.f32,
        variant: args.variant,
    })
}

fn check_period_len(args: &SampleArgs) -> Result<(), CliError> {
    match args.stack.period() {
        Some(p) if !(1..=4).contains(&p.len()) => Err(CliError::Usage(format!(
            "--period takes 1 to 4 values (one per axis), got {}",
            p.len()
        ))),
        _ => Ok(()),
    }
}

/// What a run evaluates, decided from NAME and the options before any input
/// is read.
enum Job {
    /// A named noise with its plain options (no stack option given).
    Named {
        name: NoiseName,
        options: FamilyOptions,
    },
    /// A noise stack; `label` names it in messages.
    Stack {
        resolved: Resolved,
        label: &'static str,
        f32: bool,
        gradient: bool,
    },
    /// Curl noise in `dims` (2 or 3) dimensions.
    Curl {
        resolved: Resolved,
        dims: usize,
        f32: bool,
    },
}

impl Job {
    /// Decides the job, checking every option combination; all errors are
    /// usage errors.
    fn new(args: &SampleArgs) -> Result<Job, CliError> {
        let usage = CliError::Usage;
        // --seed and --period apply to a plain family noise too; any other
        // stack option makes NAME a stack's noise.
        let stack_flag = args
            .stack
            .first_given(&["noise", "seed", "period"])
            .or(args.no_clobber.then_some("--no-clobber"));
        let (noise, label, curl) = match args.name {
            Some(t @ (Target::Curl2 | Target::Curl3)) => {
                let dims = if t == Target::Curl2 { 2 } else { 3 };
                if args.variant.is_some() {
                    return Err(usage(format!(
                        "--variant applies only to opensimplex2-java and opensimplex2s-java, \
                         not {}",
                        t.name()
                    )));
                }
                if args.gradient {
                    return Err(usage(format!(
                        "{} prints the curl vector, itself made of derivatives; --gradient \
                         does not apply",
                        t.name()
                    )));
                }
                // --noise is the potential's noise, which the stack's --noise sets.
                (None, t.name(), Some(dims))
            }
            name => {
                let name = name.map(|t| match t {
                    Target::Noise(n) => n,
                    Target::Curl2 | Target::Curl3 => unreachable!("matched above"),
                });
                let named = one_noise("NAME", name, args.stack.noise()).map_err(usage)?;
                match named {
                    Some((name, from)) => {
                        let options = check_options(args, name, stack_flag)?;
                        let Some(kind) = name.family().filter(|_| stack_flag.is_some()) else {
                            return Ok(Job::Named { name, options });
                        };
                        (Some((kind, from)), name.name(), None)
                    }
                    None => {
                        if args.variant.is_some() {
                            return Err(usage(
                                "--variant applies only to opensimplex2-java and \
                                 opensimplex2s-java, not to a noise stack"
                                    .into(),
                            ));
                        }
                        (None, "the noise stack", None)
                    }
                }
            }
        };
        if args.no_clobber && args.stack.save_config.is_none() {
            return Err(usage("--no-clobber applies to --save-config".into()));
        }
        check_period_len(args)?;
        let mut resolved = args.stack.resolve(noise).map_err(usage)?;
        Ok(match curl {
            Some(dims) => {
                if resolved.graph.is_some() {
                    return Err(usage(format!(
                        "{label} takes the curl of a stack's fractal; a graph has no curl form"
                    )));
                }
                if resolved.stack.warp.is_some() {
                    return Err(usage(format!(
                        "{label} takes the curl of the stack's fractal, which has no place for \
                         a domain warp; leave out the --warp options and the config's [warp]"
                    )));
                }
                // One octave of noise makes a plain flow; the documented
                // default potential is the library's default fBm.
                resolved
                    .stack
                    .fractal
                    .get_or_insert_with(FractalDesc::default);
                Job::Curl {
                    resolved,
                    dims,
                    f32: args.f32,
                }
            }
            None => Job::Stack {
                resolved,
                label,
                f32: args.f32,
                gradient: args.gradient,
            },
        })
    }

    /// The noise's name in messages.
    fn label(&self) -> &'static str {
        match self {
            Job::Named { name, .. } => name.name(),
            Job::Stack { label, .. } => label,
            Job::Curl { dims: 2, .. } => "curl2",
            Job::Curl { .. } => "curl3",
        }
    }

    /// The dimensions the job exists in.
    fn dims(&self) -> RangeInclusive<usize> {
        match self {
            Job::Named { name, .. } => name.dims(),
            Job::Stack { .. } => 1..=4,
            Job::Curl { dims, .. } => *dims..=*dims,
        }
    }

    fn extra(&self) -> Extra {
        match self {
            Job::Named { name, .. } => name.extra(),
            _ => Extra::None,
        }
    }

    /// Why the job lacks dimensions that its noise has elsewhere, for
    /// messages.
    fn dims_note(&self) -> &'static str {
        match self {
            Job::Stack { .. } => {
                "; noise stacks are 1D-4D, plain value, perlin and simplex take up to 8 \
                 columns"
            }
            _ => "",
        }
    }

    /// Number of columns on a line for dimension `dims`.
    fn columns(&self, dims: usize) -> usize {
        match self {
            Job::Named { name, .. } => name.columns(dims),
            _ => dims,
        }
    }

    /// The dimension a line of `columns` columns means, if the job has it.
    fn dims_for_columns(&self, columns: usize) -> Option<usize> {
        match self {
            Job::Named { name, .. } => name.dims_for_columns(columns),
            _ => self.dims().find(|&d| d == columns),
        }
    }

    /// The precision the coordinates are parsed in.
    fn precision(&self) -> Precision {
        match self {
            Job::Named { name, options } => NoiseFn::precision(*name, options),
            Job::Stack { f32, .. } | Job::Curl { f32, .. } => {
                if *f32 {
                    Precision::F32
                } else {
                    Precision::F64
                }
            }
        }
    }

    /// The dimension, when it is known before any input, and why.
    fn fixed_dims(&self) -> Option<(usize, String)> {
        match self {
            Job::Named { options, .. } => options
                .period
                .as_ref()
                .map(|p| (p.len(), "one per --period value".to_string())),
            // The first per-axis key; one that disagrees with it is the
            // stack's error when it is built.
            Job::Stack { resolved, .. } => {
                let key = *resolved.axis_keys().first()?;
                Some((key.len, key.one_per()))
            }
            Job::Curl { dims, .. } => Some((*dims, format!("{} is {dims}D", self.label()))),
        }
    }

    /// What to tell the user about running in `dims` dimensions: `simplex`
    /// at 5 to 8 columns is the N-D simplex noise, a different function
    /// from the family's 1D-4D simplex. The name keeps working (scripts
    /// rely on it); the note says what it computes.
    fn note(&self, dims: usize) -> Option<String> {
        match self {
            Job::Named {
                name: NoiseName::Family(surflet::NoiseKind::Simplex),
                ..
            } if dims > 4 => Some(format!(
                "note: {dims} columns: simplex in 5D-8D is the N-D simplex noise \
                 (surflet::nd::NdKind::Simplex), a different function from simplex in 1D-4D \
                 (see N-D NOISE in --help)"
            )),
            _ => None,
        }
    }

    /// The evaluator for `dims` dimensions.
    fn evaluator(&self, dims: usize) -> Result<NoiseFn, String> {
        match self {
            Job::Named { name, options } => NoiseFn::new(*name, dims, options),
            Job::Stack {
                resolved,
                f32,
                gradient,
                ..
            } => Ok(NoiseFn::Stack {
                field: Box::new(crate::stack_field::resolved(resolved, dims)?),
                f32: *f32,
                gradient: *gradient,
            }),
            Job::Curl { resolved, f32, .. } => Ok(NoiseFn::Curl {
                field: Box::new(
                    surflet::dynamic::DynCurl::stack(&resolved.stack, dims)
                        .map_err(|e| resolved.explain(&e))?,
                ),
                f32: *f32,
            }),
        }
    }

    /// The config to write with --save-config: the stack as used, and the
    /// tables of a config read with --config as they were.
    fn doc(&self) -> Option<Document> {
        match self {
            Job::Named { .. } => None,
            Job::Stack { resolved, .. } | Job::Curl { resolved, .. } => Some(Document {
                version: crate::document::VERSION,
                stack: resolved.stack.clone(),
                graph: resolved.graph.clone(),
                ..resolved.doc.clone().unwrap_or_default()
            }),
        }
    }
}

/// Runs `surflet sample`, reading points from `input` and writing results to
/// `output`.
pub fn run(args: &SampleArgs, input: impl Read, output: impl Write) -> Result<(), CliError> {
    let job = Job::new(args)?;

    // With a dimension known before any input (a period, curl noise), errors
    // in building the noise are reported as the usage errors they are, even
    // on empty input.
    let mut sampler = match job.fixed_dims() {
        Some((dims, why)) => Some(Sampler::new(&job, dims, Some(why)).map_err(CliError::Usage)?),
        None => None,
    };

    // The stack is checked, so the file describes a working picture whatever
    // the input turns out to be.
    if let (Some(path), Some(doc)) = (&args.stack.save_config, job.doc()) {
        StagedConfig::new(path, &doc, !args.no_clobber)
            .and_then(StagedConfig::commit)
            .map_err(CliError::Runtime)?;
    }

    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut out = BufWriter::with_capacity(1 << 16, output);
    let mut line = String::new();
    let mut line_no: u64 = 0;
    // The line that fixed the column count, for messages.
    let mut first_line: u64 = 0;
    // Whether a non-blank line has been read.
    let mut seen_line = false;
    let mut numbers = [0.0f64; MAX_COLUMNS];
    let result = loop {
        // Flush before a read that may block, so a producer that waits for
        // each answer before sending more input gets it.
        if reader.buffer().is_empty()
            && let Err(e) = out.flush()
        {
            break Err(CliError::Write(e));
        }
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) => break Ok(()),
            Ok(_) => line_no += 1,
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                break Err(CliError::Input(format!(
                    "line {}: not valid UTF-8",
                    line_no + 1
                )));
            }
            Err(e) => break Err(CliError::Read(e)),
        }
        let mut fields = [""; MAX_COLUMNS];
        let count = split_fields(&line, &mut fields);
        if count == 0 {
            continue;
        }
        // A CSV header names the columns; only the first line can be one.
        let first = !seen_line;
        seen_line = true;
        // (A line of more fields than any noise takes is no header: it is
        // refused below, with its count.)
        if first && count <= MAX_COLUMNS && is_header(&fields[..count]) {
            continue;
        }
        let s = match &sampler {
            Some(s) => s,
            None => {
                first_line = line_no;
                let Some(dims) = job.dims_for_columns(count) else {
                    break Err(CliError::Input(format!(
                        "line {line_no}: {} takes {}, found {count}{}",
                        job.label(),
                        columns_wanted(&job),
                        job.dims_note()
                    )));
                };
                if let Some(note) = job.note(dims) {
                    eprintln!("{note}");
                }
                match Sampler::new(&job, dims, None) {
                    Ok(s) => sampler.insert(s),
                    Err(e) => break Err(CliError::Input(format!("line {line_no}: {e}"))),
                }
            }
        };
        if count != s.columns {
            let why = match &s.fixed {
                Some(why) => why.clone(),
                None => format!("as on line {first_line}"),
            };
            let expected = match s.columns {
                1 => "1 column".to_string(),
                n => format!("{n} columns"),
            };
            break Err(CliError::Input(format!(
                "line {line_no}: expected {expected} ({why}), found {count}"
            )));
        }
        if let Err(e) = s.parse(&fields[..count], &mut numbers[..count]) {
            break Err(CliError::Input(format!("line {line_no}: {e}")));
        }
        let e = s.evaluator.eval(&numbers[..count]);
        let written = if s.vector {
            write_vector(&mut out, &e.gradient[..s.dims])
        } else if s.f32_value {
            write_f32_value(&mut out, e.value)
        } else {
            write_eval(&mut out, &e, s.dims, args.gradient)
        };
        if let Err(e) = written {
            break Err(CliError::Write(e));
        }
    };
    // Answers to the lines before a bad one are still worth delivering.
    let flushed = out.flush();
    result?;
    flushed.map_err(CliError::Write)
}

/// Whether a line is a header like `x,y,z`: every field starts with a letter
/// or `_` and none is a number (`nan` and `inf` are numbers).
fn is_header(fields: &[&str]) -> bool {
    fields.iter().all(|f| {
        f.starts_with(|c: char| c.is_alphabetic() || c == '_') && f.parse::<f64>().is_err()
    })
}

/// Describes the column counts `job` accepts, for messages.
fn columns_wanted(job: &Job) -> String {
    let counts: Vec<String> = job.dims().map(|d| job.columns(d).to_string()).collect();
    let list = match counts.as_slice() {
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
        [] => String::new(),
    };
    let layout = match job.extra() {
        Extra::None => "",
        Extra::Periods => ": D coordinates then D periods",
        Extra::Angle => ": D coordinates then the angle t",
    };
    let d = job.dims();
    let dims = if d.start() == d.end() {
        format!("{}D only", d.start())
    } else {
        format!("{}D to {}D", d.start(), d.end())
    };
    format!("{list} columns ({dims}{layout})")
}

/// How one column is parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Column {
    F32,
    F64,
    Period,
}

/// An evaluator with its line layout.
struct Sampler {
    evaluator: NoiseFn,
    dims: usize,
    columns: usize,
    kinds: [Column; MAX_COLUMNS],
    /// Print the curl vector rather than a value.
    vector: bool,
    /// Print the value as the `f32` it is (the OpenSimplex2 ports).
    f32_value: bool,
    /// Why the column count was fixed before any input, if it was.
    fixed: Option<String>,
}

impl Sampler {
    fn new(job: &Job, dims: usize, fixed: Option<String>) -> Result<Sampler, String> {
        let evaluator = job.evaluator(dims)?;
        let float = match job.precision() {
            Precision::F32 => Column::F32,
            Precision::F64 => Column::F64,
        };
        let mut kinds = [float; MAX_COLUMNS];
        if job.extra() == Extra::Periods {
            kinds[dims..2 * dims].fill(Column::Period);
        }
        Ok(Sampler {
            evaluator,
            dims,
            columns: job.columns(dims),
            kinds,
            vector: matches!(job, Job::Curl { .. }),
            f32_value: matches!(job, Job::Named { name, .. } if name.is_opensimplex2()),
            fixed,
        })
    }

    fn parse(&self, fields: &[&str], numbers: &mut [f64]) -> Result<(), String> {
        for (k, (field, n)) in fields.iter().zip(numbers.iter_mut()).enumerate() {
            let parsed = match self.kinds[k] {
                Column::F64 => field.parse::<f64>().ok(),
                Column::F32 => field.parse::<f32>().ok().map(f64::from),
                Column::Period => {
                    return match field.parse::<i32>() {
                        Ok(0) => Err(format!(
                            "field {} is a period of 0 (periods must be non-zero)",
                            k + 1
                        )),
                        Ok(p) => {
                            *n = f64::from(p);
                            continue;
                        }
                        Err(e) => Err(match e.kind() {
                            std::num::IntErrorKind::PosOverflow
                            | std::num::IntErrorKind::NegOverflow => format!(
                                "field {} ({field:?}) is out of range for a period (i32)",
                                k + 1
                            ),
                            _ => format!("field {} ({field:?}) is not an integer period", k + 1),
                        }),
                    };
                }
            };
            match parsed {
                Some(v) => *n = v,
                None if field.is_empty() => return Err(format!("field {} is empty", k + 1)),
                None => return Err(format!("field {} ({field:?}) is not a number", k + 1)),
            }
        }
        Ok(())
    }
}

/// Writes a curl vector's components, comma-separated, in the same number
/// format as [`write_eval`].
fn write_vector(out: &mut impl Write, v: &[f64]) -> io::Result<()> {
    for (k, c) in v.iter().enumerate() {
        if k > 0 {
            out.write_all(b",")?;
        }
        write!(out, "{c:?}")?;
    }
    out.write_all(b"\n")
}

/// Writes an `f32` result (held exactly in an `f64`) as the shortest decimal
/// that parses back to that `f32`: `{:?}` on `f32`.
fn write_f32_value(out: &mut impl Write, value: f64) -> io::Result<()> {
    writeln!(out, "{:?}", value as f32)
}

/// Writes one result line. `{:?}` on `f64` is Rust's shortest round-trip
/// form, which the output contract promises.
fn write_eval(out: &mut impl Write, e: &Eval, dims: usize, gradient: bool) -> io::Result<()> {
    write!(out, "{:?}", e.value)?;
    if gradient {
        for g in &e.gradient[..dims] {
            write!(out, ",{g:?}")?;
        }
    }
    out.write_all(b"\n")
}

fn is_space(c: char) -> bool {
    c.is_ascii_whitespace()
}

/// Splits a line into fields separated by a comma and/or whitespace, storing
/// the first `fields.len()` and returning how many there are (0 for a blank
/// line). One comma with any whitespace around it is one separator, so `1,,2`
/// has an empty middle field and `1,` an empty last one.
fn split_fields<'a>(line: &'a str, fields: &mut [&'a str]) -> usize {
    let mut rest = line.trim_matches(is_space);
    if rest.is_empty() {
        return 0;
    }
    let mut count = 0;
    loop {
        let end = rest
            .find(|c: char| c == ',' || is_space(c))
            .unwrap_or(rest.len());
        if let Some(slot) = fields.get_mut(count) {
            *slot = &rest[..end];
        }
        count += 1;
        let tail = rest[end..].trim_start_matches(is_space);
        match tail.strip_prefix(',') {
            Some(after) => rest = after.trim_start_matches(is_space),
            None if tail.is_empty() => return count,
            None => rest = tail,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(line: &str) -> Vec<&str> {
        let mut f = [""; MAX_COLUMNS];
        let n = split_fields(line, &mut f);
        f[..n.min(MAX_COLUMNS)].to_vec()
    }

    #[test]
    fn separators() {
        assert_eq!(split("1,2,3"), ["1", "2", "3"]);
        assert_eq!(split("1 2 3\n"), ["1", "2", "3"]);
        assert_eq!(split("  1, 2 ,\t3\r\n"), ["1", "2", "3"]);
        assert_eq!(split("1\t\t2"), ["1", "2"]);
        assert_eq!(split("1,,2"), ["1", "", "2"]);
        assert_eq!(split("1,"), ["1", ""]);
        assert_eq!(split(",1"), ["", "1"]);
        assert_eq!(split(","), ["", ""]);
        assert_eq!(split(" \t\r\n"), Vec::<&str>::new());
        assert_eq!(split(""), Vec::<&str>::new());
    }

    #[test]
    fn counts_beyond_capacity() {
        let mut f = [""; 2];
        assert_eq!(split_fields("1 2 3 4 5", &mut f), 5);
        assert_eq!(f, ["1", "2"]);
    }

    #[test]
    fn output_format() {
        let mut v = Vec::new();
        let e = Eval {
            value: f64::from(0.1f32),
            gradient: [
                f64::NAN,
                f64::INFINITY,
                f64::NEG_INFINITY,
                -0.0,
                0.0,
                0.0,
                0.0,
                0.0,
            ],
        };
        write_eval(&mut v, &e, 4, true).unwrap();
        write_eval(&mut v, &e, 4, false).unwrap();
        assert_eq!(
            String::from_utf8(v).unwrap(),
            "0.10000000149011612,NaN,inf,-inf,-0.0\n0.10000000149011612\n"
        );
        let mut v = Vec::new();
        for x in [0.1f32, -0.0, f32::NAN, f32::INFINITY, 1e-45, 16777216.0] {
            write_f32_value(&mut v, f64::from(x)).unwrap();
        }
        assert_eq!(
            String::from_utf8(v).unwrap(),
            "0.1\n-0.0\nNaN\ninf\n1e-45\n16777216.0\n"
        );
    }
}
