//! `surflet sample`: evaluate a noise at points read from standard input.

use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};

use clap::Args;

use crate::CliError;
use crate::eval::{Eval, Evaluator, FamilyOptions};
use crate::names::{self, Extra, NoiseName, Precision};

/// The most columns any noise takes (`pnoise1234` in 4D).
const MAX_COLUMNS: usize = 8;

/// Description of `surflet sample` for `--help`, above the options.
pub const LONG_ABOUT: &str = "\
Evaluate a noise at points read from standard input, one point per line, and
print one line per point: the value and, with --gradient, its derivatives.";

const DETAILS: &str = "\
INPUT
  One point per line, its numbers separated by commas and/or whitespace:
  \"1,2,3\", \"1 2 3\", \"1, 2, 3\" and tab-separated lines all work. Blank lines
  (empty or whitespace only) are skipped and produce no output line.

  The first point line fixes the number of columns; every later line must
  have the same number. The columns give the dimension D: D = columns, except
    pnoise1234   D coordinates, then D integer periods (D = columns / 2)
    srdnoise23   D coordinates, then the rotation angle t (D = columns - 1)
  With --period, D is the number of periods.

  Numbers are decimal (1, -2.5, .5, 1e-9, inf, NaN). f32 noises (the C ports,
  and the family with --f32) parse them directly as f32, correctly rounded;
  the others as f64. pnoise1234 periods are non-zero integers in i32 range.

OUTPUT
  One line per point: the value, then with --gradient the partial
  derivatives, comma-separated: \"v\", or \"v,dx,dy\" in 2D. Each number is the
  shortest decimal that parses back to the exact result as a double (an f32
  result is printed as its exact f64 widening), or NaN, inf, -inf.

  Output is streamed: memory use does not grow with the input, and answers
  are flushed whenever no more input is waiting, so an interactive producer
  gets each answer as soon as it has sent its line.
";

const EXIT_STATUS: &str = "\
EXIT STATUS
  0  success, also when the output's reader goes away early (`| head`)
  1  bad input: a line with the wrong number of columns, a field that is not
     a number, a dimension the noise lacks. The message names the line
     (1-based, blank lines counted). Lines before it have already been
     answered on standard output.
  2  usage error: unknown NAME, a bad option, or an option NAME does not take
";

/// Everything `--help` shows below the options: formats, names, exit codes.
/// The names table is generated from the metadata the parser uses, so the two
/// cannot drift apart.
pub fn long_help() -> String {
    format!("{DETAILS}\n{}\n{EXIT_STATUS}", names::help_table())
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
        "NAME is one of: {}.\n\nPoints are read one per line (blank lines skipped); \
         see --help for the formats and exit codes.",
        names.join(", ")
    )
}

/// Arguments of `surflet sample`.
#[derive(Args, Debug, Clone)]
pub struct SampleArgs {
    /// The noise to evaluate.
    #[arg(value_name = "NAME", hide_possible_values = true)]
    pub name: NoiseName,

    /// Also print the partial derivatives (family noises, sdnoise1234,
    /// srdnoise23).
    #[arg(long)]
    pub gradient: bool,

    /// Seed of a family noise [default: 0].
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// Make a family noise tile, with these periods in lattice cells
    /// (1..=65536), one per axis; their number fixes D. Simplex and
    /// simplex-value tile in 1D-3D only, with an even y period in 2D.
    #[arg(
        long,
        value_name = "P,P,...",
        value_delimiter = ',',
        value_parser = parse_period
    )]
    pub period: Option<Vec<u32>>,

    /// Compute a family noise in f32 (the default is f64).
    #[arg(long = "f32")]
    pub f32: bool,
}

fn parse_period(s: &str) -> Result<u32, String> {
    s.trim()
        .parse::<u32>()
        .map_err(|_| format!("{:?} is not a period (a positive integer)", s.trim()))
}

/// Checks the option combinations clap cannot express: options that only
/// some noises take.
fn check_options(args: &SampleArgs) -> Result<FamilyOptions, CliError> {
    let name = args.name;
    if name.family().is_none() {
        let flag = [
            (args.seed.is_some(), "--seed"),
            (args.period.is_some(), "--period"),
            (args.f32, "--f32"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag));
        if let Some(flag) = flag {
            return Err(CliError::Usage(format!(
                "{flag} applies only to the surflet family (value, perlin, simplex, \
                 simplex-value); {name} is a reference port with fixed behaviour"
            )));
        }
    }
    if args.gradient && !name.has_gradient() {
        return Err(CliError::Usage(format!(
            "{name} has no derivatives; --gradient works with sdnoise1234, srdnoise23 \
             and the family noises (value, perlin, simplex, simplex-value)"
        )));
    }
    if let Some(p) = &args.period
        && !(1..=4).contains(&p.len())
    {
        return Err(CliError::Usage(format!(
            "--period takes 1 to 4 values (one per axis), got {}",
            p.len()
        )));
    }
    Ok(FamilyOptions {
        seed: args.seed.unwrap_or(0),
        period: args.period.clone(),
        f32: args.f32,
    })
}

/// Runs `surflet sample`, reading points from `input` and writing results to
/// `output`.
pub fn run(args: &SampleArgs, input: impl Read, output: impl Write) -> Result<(), CliError> {
    let options = check_options(args)?;
    let name = args.name;
    let precision = Evaluator::precision(name, &options);

    // With --period the dimension is known before any input, so period errors
    // are reported as the usage errors they are, even on empty input.
    let mut sampler = match &options.period {
        Some(p) => Some(Sampler::new(name, p.len(), precision, &options).map_err(CliError::Usage)?),
        None => None,
    };

    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut out = BufWriter::with_capacity(1 << 16, output);
    let mut line = String::new();
    let mut line_no: u64 = 0;
    // The line that fixed the column count, for messages.
    let mut first_line: u64 = 0;
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
        let s = match &sampler {
            Some(s) => s,
            None => {
                first_line = line_no;
                let Some(dims) = name.dims_for_columns(count) else {
                    break Err(CliError::Input(format!(
                        "line {line_no}: {name} takes {}, found {count}",
                        columns_wanted(name)
                    )));
                };
                match Sampler::new(name, dims, precision, &options) {
                    Ok(s) => sampler.insert(s),
                    Err(e) => break Err(CliError::Input(format!("line {line_no}: {e}"))),
                }
            }
        };
        if count != s.columns {
            let why = if first_line == 0 {
                "one per --period value".to_string()
            } else {
                format!("as on line {first_line}")
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
        if let Err(e) = write_eval(&mut out, &e, s.dims, args.gradient) {
            break Err(CliError::Write(e));
        }
    };
    // Answers to the lines before a bad one are still worth delivering.
    let flushed = out.flush();
    result?;
    flushed.map_err(CliError::Write)
}

/// Describes the column counts `name` accepts, for messages.
fn columns_wanted(name: NoiseName) -> String {
    let counts: Vec<String> = name.dims().map(|d| name.columns(d).to_string()).collect();
    let list = match counts.as_slice() {
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
        [] => String::new(),
    };
    let layout = match name.extra() {
        Extra::None => "",
        Extra::Periods => ": D coordinates then D periods",
        Extra::Angle => ": D coordinates then the angle t",
    };
    let d = name.dims();
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
    evaluator: Evaluator,
    dims: usize,
    columns: usize,
    kinds: [Column; MAX_COLUMNS],
}

impl Sampler {
    fn new(
        name: NoiseName,
        dims: usize,
        precision: Precision,
        options: &FamilyOptions,
    ) -> Result<Sampler, String> {
        let evaluator = Evaluator::new(name, dims, options)?;
        let float = match precision {
            Precision::F32 => Column::F32,
            Precision::F64 => Column::F64,
        };
        let mut kinds = [float; MAX_COLUMNS];
        if name.extra() == Extra::Periods {
            kinds[dims..2 * dims].fill(Column::Period);
        }
        Ok(Sampler {
            evaluator,
            dims,
            columns: name.columns(dims),
            kinds,
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
            gradient: [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0],
        };
        write_eval(&mut v, &e, 4, true).unwrap();
        write_eval(&mut v, &e, 4, false).unwrap();
        assert_eq!(
            String::from_utf8(v).unwrap(),
            "0.10000000149011612,NaN,inf,-inf,-0.0\n0.10000000149011612\n"
        );
    }
}
