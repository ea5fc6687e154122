//! Helpers shared by the CLI tests, which run the real `surflet` binary.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use tempfile::TempDir;

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_surflet");

/// A command running `surflet`, killed after two minutes.
pub fn surflet() -> Command {
    let mut c = Command::new(BIN);
    c.timeout(Duration::from_secs(120));
    c
}

/// Runs `surflet sample ARGS` on `input`, requires silent success, returns
/// stdout.
pub fn sample_ok(args: &[&str], input: &str) -> String {
    let (stdout, stderr) = sample_with_stderr(args, input);
    assert!(stderr.is_empty(), "unexpected stderr: {stderr}");
    stdout
}

/// Runs `surflet sample ARGS` on `input`, requires success, returns stdout
/// and stderr.
pub fn sample_with_stderr(args: &[&str], input: &str) -> (String, String) {
    let out = surflet()
        .arg("sample")
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "surflet sample {args:?} failed: {}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Runs `surflet render DIR/NAME ARGS`, requires silent success, and
/// returns the output path.
pub fn render_in(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let (out, stderr) = render_stderr(dir, name, args);
    assert!(stderr.is_empty(), "unexpected output: {stderr}");
    out
}

/// Runs `surflet render OUT ARGS` in a fresh directory, requires silent
/// success and no stray files (besides saved configs), and returns the
/// directory and the output.
pub fn render_ok(name: &str, args: &[&str]) -> (TempDir, PathBuf) {
    let dir = TempDir::new().unwrap();
    let out = render_in(dir.path(), name, args);
    let stray: Vec<String> = entries(dir.path())
        .into_iter()
        .filter(|e| !e.ends_with(".toml") && !e.ends_with(".json"))
        .collect();
    assert_eq!(stray, vec![name.to_string()], "stray files");
    (dir, out)
}

/// Runs `surflet render DIR/NAME ARGS`, requires success with nothing on
/// stdout, and returns the output path and stderr (warnings).
pub fn render_stderr(dir: &Path, name: &str, args: &[&str]) -> (PathBuf, String) {
    let out = dir.join(name);
    let o = surflet()
        .arg("render")
        .arg(&out)
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8(o.stderr).unwrap();
    assert!(
        o.status.success(),
        "surflet render {name} {args:?} failed: {}\nstderr: {stderr}",
        o.status,
    );
    assert!(o.stdout.is_empty(), "unexpected output");
    (out, stderr)
}

/// Runs `surflet ARGS` (any subcommand) on `input`, requires exit `code`
/// with an `error` message and no panic, and returns (stdout, stderr).
pub fn fails(args: &[&str], input: &str, code: i32) -> (String, String) {
    let out = surflet().args(args).write_stdin(input).output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(code), "surflet {args:?}: {stderr}");
    assert!(stderr.starts_with("error"), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    (String::from_utf8(out.stdout).unwrap(), stderr)
}

/// Runs `surflet render ARGS`, requires failure with `code`, returns stderr.
pub fn render_err(args: &[&str], code: i32) -> String {
    let mut all = vec!["render"];
    all.extend_from_slice(args);
    fails(&all, "", code).1
}

/// The names in `dir`, sorted.
pub fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The little-endian f32 values of a raw file.
pub fn read_f32(path: &Path) -> Vec<f32> {
    fs::read(path)
        .unwrap()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

/// The documented sampling rule: origin + (i*num)/den, in f64.
pub fn at(origin: f64, i: u32, num: f64, den: f64) -> f64 {
    origin + (f64::from(i) * num) / den
}

/// Parses output lines into numbers.
pub fn parse_output(text: &str) -> Vec<Vec<f64>> {
    text.lines()
        .map(|l| {
            l.split(',')
                .map(|f| {
                    f.parse::<f64>()
                        .unwrap_or_else(|e| panic!("output {l:?}: field {f:?}: {e}"))
                })
                .collect()
        })
        .collect()
}

/// Whether two numbers have the same bits (any NaN equals any NaN).
pub fn same_bits(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// Asserts that two tables of numbers agree bit for bit.
pub fn assert_rows_bits(context: &str, got: &[Vec<f64>], want: &[Vec<f64>]) {
    assert_eq!(got.len(), want.len(), "{context}: number of lines");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            g.len() == w.len() && g.iter().zip(w).all(|(&a, &b)| same_bits(a, b)),
            "{context}: line {}: got {g:?}, want {w:?}",
            i + 1
        );
    }
}
