//! `docs/BAD-INPUT.md` promises that each row names the test that holds it.
//! This reads every table of the document: each row must name at least one
//! test, and each test named must exist in the workspace's sources (a test
//! function, or a test module), so a renamed or deleted test cannot leave
//! the document citing nothing.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file under `dir`, recursively.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries {
        let path = e.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The files that can hold module `m`: `m.rs` or `m/mod.rs` anywhere in the
/// sources, with everything under `m/`.
fn module_files<'a>(files: &'a [(PathBuf, String)], m: &str) -> Vec<&'a (PathBuf, String)> {
    files
        .iter()
        .filter(|(p, _)| {
            p.file_stem().is_some_and(|s| s == m) || p.components().any(|c| c.as_os_str() == m)
        })
        .collect()
}

/// Whether the text defines a test function `name` (`#[test]` on one of
/// the lines just above it) or a module `name`.
fn defines(text: &str, name: &str) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    lines.iter().enumerate().any(|(i, l)| {
        let l = l.trim_start();
        if l.starts_with(&format!("mod {name} ")) || l.starts_with(&format!("mod {name};")) {
            return true;
        }
        let glob = name.strip_suffix('*');
        let is_fn = ["fn ", "pub fn ", "async fn "].iter().any(|k| match glob {
            Some(prefix) => l.starts_with(&format!("{k}{prefix}")),
            None => l.starts_with(&format!("{k}{name}(")),
        });
        // A test: `#[test]` among the attributes and comments right above.
        is_fn
            && lines[..i]
                .iter()
                .rev()
                .map(|a| a.trim())
                .take_while(|a| a.starts_with("#[") || a.starts_with("//"))
                .any(|a| a == "#[test]")
    })
}

/// Whether the test named `name` (`module::function`, `module`,
/// `module::tests::function`, a bare function, `module::*`, or
/// `module::prefix*` for the tests whose names start so) exists.
fn exists(files: &[(PathBuf, String)], name: &str) -> bool {
    let parts: Vec<&str> = name.split("::").collect();
    let last = *parts.last().unwrap();
    if parts.len() == 1 {
        // A test module (a file) or a test function anywhere.
        return !module_files(files, last).is_empty()
            || files.iter().any(|(_, t)| defines(t, last));
    }
    let candidates = module_files(files, parts[0]);
    if last == "*" {
        // Any test of the module.
        return !candidates.is_empty();
    }
    candidates.iter().any(|(_, t)| defines(t, last))
}

/// The backticked names in a table cell, with the fuzz targets (`fuzz
/// `kernels``) told apart.
fn names(cell: &str) -> Vec<(bool, String)> {
    let mut out = Vec::new();
    let mut rest = cell;
    while let Some(open) = rest.find('`') {
        let Some(close) = rest[open + 1..].find('`') else {
            break;
        };
        let fuzz = rest[..open].trim_end().ends_with("fuzz");
        out.push((fuzz, rest[open + 1..open + 1 + close].to_string()));
        rest = &rest[open + close + 2..];
    }
    out
}

#[test]
fn every_row_names_a_test_that_exists() {
    let root = root();
    let mut paths = Vec::new();
    for dir in ["crates", "fuzz/targets"] {
        sources(&root.join(dir), &mut paths);
    }
    let files: Vec<(PathBuf, String)> = paths
        .into_iter()
        .filter(|p| !p.components().any(|c| c.as_os_str() == "target"))
        .map(|p| {
            let t = std::fs::read_to_string(&p).unwrap();
            (p, t)
        })
        .collect();
    let doc = std::fs::read_to_string(root.join("docs/BAD-INPUT.md")).unwrap();
    let mut rows = 0;
    let mut cited = 0;
    let mut bad = Vec::new();
    let mut column: Option<usize> = None;
    let mut previous: Vec<(bool, String)> = Vec::new();
    for (n, line) in doc.lines().enumerate() {
        if !line.starts_with('|') {
            column = None;
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        if column.is_none() {
            // A header: every table must have a test column.
            let at = cells.iter().position(|c| *c == "test");
            if at.is_none() {
                bad.push(format!("line {}: a table without a test column", n + 1));
            }
            column = at.or(Some(usize::MAX));
            continue;
        }
        if cells
            .iter()
            .all(|c| c.starts_with("---") || c.starts_with("--:"))
        {
            continue;
        }
        let Some(cell) = column.and_then(|c| cells.get(c)) else {
            continue;
        };
        rows += 1;
        let mut found = names(cell);
        if found.is_empty() && cell.starts_with("same") {
            found = previous.clone();
        }
        if found.is_empty() {
            bad.push(format!("line {}: no test named: {line}", n + 1));
        }
        for (fuzz, name) in &found {
            cited += 1;
            let ok = if *fuzz {
                root.join(format!("fuzz/targets/{name}.rs")).is_file()
            } else {
                exists(&files, name)
            };
            if !ok {
                bad.push(format!("line {}: `{name}` names no test", n + 1));
            }
        }
        previous = found;
    }
    println!("docs/BAD-INPUT.md: {rows} rows, {cited} test names");
    assert!(
        rows >= 60,
        "only {rows} rows read: the tables were not found"
    );
    assert!(bad.is_empty(), "docs/BAD-INPUT.md:\n{}", bad.join("\n"));
}

/// The checker above rejects what it should.
#[test]
fn the_checker_finds_missing_tests() {
    let files = vec![(
        PathBuf::from("crates/x/tests/cli/render.rs"),
        "#[test]\nfn draws() {}\nfn helper() {}\nmod tests {}\n".to_string(),
    )];
    assert!(exists(&files, "render::draws"));
    assert!(exists(&files, "render"));
    assert!(exists(&files, "render::*"));
    assert!(exists(&files, "draws"));
    assert!(exists(&files, "render::tests"));
    assert!(exists(&files, "render::dr*"));
    assert!(!exists(&files, "render::he*"), "not a test");
    assert!(!exists(&files, "render::helper"), "not a test");
    assert!(!exists(&files, "render::gone"));
    assert!(!exists(&files, "sample::draws"));
    assert_eq!(
        names("`a::b`, fuzz `kernels`"),
        vec![(false, "a::b".into()), (true, "kernels".into())]
    );
}
