//! The README's shell examples, run verbatim in an empty directory as a new
//! user would run them on a fresh clone: every ```sh block, in order, with
//! `surflet` on the PATH (the binary under test) and `cargo run --release --`
//! read as `surflet`.
//!
//! Skipped, because they are not examples of surflet's output: the test
//! command itself, the explorer (it opens a browser and serves until
//! Ctrl-C; `tests/cli/serve.rs` and the browser test cover it) and the
//! Python install (`.ci/python` runs it).

use std::fs;
use std::process::Command;

use crate::common::BIN;
use tempfile::TempDir;

const SKIPPED: [&str; 3] = [
    "cargo test --workspace --all-features",
    "cargo run --release --features serve -- serve --open",
    "pip install -v ./crates/surflet-py",
];

/// The text of every ```sh block.
fn sh_blocks(readme: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in readme.lines() {
        match (&mut current, line.trim_end()) {
            (None, "```sh") => current = Some(String::new()),
            (Some(_), "```") => blocks.push(current.take().unwrap()),
            (Some(block), line) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    assert!(current.is_none(), "an unclosed ```sh block");
    blocks
}

#[test]
#[cfg_attr(
    not(all(feature = "serve", feature = "plots", feature = "langs")),
    ignore = "the README runs analyze, gallery and shader --lang: test with --all-features"
)]
fn readme_shell_examples_run_verbatim() {
    let readme = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("README.md");
    let blocks = sh_blocks(&readme);
    assert!(blocks.len() >= 5, "{} blocks", blocks.len());
    // Every skipped command is still in the README, alone on its line.
    for skip in SKIPPED {
        assert!(
            blocks.iter().any(|b| b.lines().any(|l| l == skip)),
            "{skip:?} is no longer in the README: update SKIPPED"
        );
    }

    // The directory a fresh clone has for the example that writes into it.
    let dir = TempDir::new().unwrap();
    fs::create_dir_all(dir.path().join("docs/examples")).unwrap();
    let bin_dir = std::path::Path::new(BIN).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for block in &blocks {
        let script: String = block
            .lines()
            .filter(|l| !SKIPPED.contains(l))
            .map(|l| l.replace("cargo run --release -- ", "surflet ") + "\n")
            .collect();
        if script.trim().is_empty() {
            continue;
        }
        let out = Command::new("sh")
            .args(["-e", "-c", &script])
            .current_dir(dir.path())
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "README block failed ({}):\n{script}\nstderr: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        // The examples run silently but for what they are asked to print.
        assert!(
            out.stderr.is_empty(),
            "README block printed to stderr:\n{script}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        if script.contains("surflet sample curl2") {
            let stdout = String::from_utf8(out.stdout).unwrap();
            let fields: Vec<f64> = stdout
                .trim()
                .split(',')
                .map(|f| f.parse().unwrap())
                .collect();
            assert_eq!(fields.len(), 2, "{stdout}");
        }
        ran += 1;
    }
    assert_eq!(ran, 5, "blocks run");
    for file in [
        "noise.png",
        "terrain.png",
        "terrain.wgsl",
        "clouds.gif",
        "normals.png",
        "tile.png",
        "height.tif",
        "ridges.png",
        "ridges.toml",
        "big.png",
        "docs/examples/graph.png",
        "out/simplex-3d/summary.json",
    ] {
        assert!(dir.path().join(file).is_file(), "{file} was not written");
    }
}
