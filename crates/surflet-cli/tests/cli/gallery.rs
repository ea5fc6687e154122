//! End-to-end tests of `surflet gallery`, running the real binary and
//! reading its files back with an independent PNG decoder (the `image`
//! crate).

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use crate::common::*;
use image::RgbImage;
use tempfile::TempDir;

/// The panel side the tests use: small, so a gallery takes a fraction of a
/// second.
const N: u32 = 64;

/// Every file of a gallery, with its pixel size at `--size 64` (none for
/// SVG and HTML). A 64-pixel sheet has 4-pixel gaps and 21-pixel label
/// strips; plots are at least 480 pixels wide.
const FILES: [(&str, Option<(u32, u32)>); 20] = [
    ("classic-vs-simplex-2d.png", Some((140, 89))),
    ("classic-vs-simplex-2d-surflet.png", Some((140, 89))),
    ("classic-vs-simplex-3d.png", Some((140, 89))),
    ("classic-vs-simplex-3d-surflet.png", Some((140, 89))),
    ("classic-vs-simplex-4d.png", Some((140, 89))),
    ("classic-vs-simplex-4d-surflet.png", Some((140, 89))),
    ("falloff.png", Some((480, 300))),
    ("falloff.svg", None),
    ("value-vs-simplex-value.png", Some((208, 178))),
    ("curl-flow.png", Some((N, N))),
    ("perlin-1d-frequencies.png", Some((480, 300))),
    ("perlin-1d-frequencies.svg", None),
    ("perlin-1d-octaves.png", Some((480, 300))),
    ("perlin-1d-octaves.svg", None),
    ("terrain-fbm.png", Some((N, N))),
    ("terrain-plain.png", Some((N, N))),
    ("opensimplex2-vs-simplex.png", Some((208, 178))),
    ("cellular-returns.png", Some((276, 178))),
    ("spectra.png", Some((208, 178))),
    ("index.html", None),
];

/// Runs `surflet gallery DIR --size 64 ARGS`, requiring silent success.
fn gallery_ok(dir: &Path, args: &[&str]) {
    let o = surflet()
        .arg("gallery")
        .arg(dir)
        .args(["--size", &N.to_string()])
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "surflet gallery {args:?} failed: {}\nstderr: {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        o.stdout.is_empty() && o.stderr.is_empty(),
        "unexpected output"
    );
}

/// Runs `surflet gallery ARGS`, requires failure with `code`, returns stderr.
fn gallery_err(args: &[&str], code: i32) -> String {
    fails(&[&["gallery"], args].concat(), "", code).1
}

/// The names of every gallery file, sorted as [`entries`] sorts.
fn expected_names() -> Vec<String> {
    let mut v: Vec<String> = FILES.iter().map(|f| f.0.to_string()).collect();
    v.sort();
    v
}

fn decode(path: &Path) -> RgbImage {
    image::open(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_rgb8()
}

/// The values of every `attr="..."` in `html`.
fn attributes(html: &str, attr: &str) -> Vec<String> {
    let key = format!("{attr}=\"");
    html.match_indices(&key)
        .map(|(i, _)| {
            let rest = &html[i + key.len()..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect()
}

/// Width and height attributes of each `<img>`, by file.
fn img_sizes(html: &str) -> Vec<(String, u32, u32)> {
    html.match_indices("<img ")
        .map(|(i, _)| {
            let tag = &html[i..i + html[i..].find('>').unwrap()];
            let get = |a| attributes(tag, a).pop().unwrap();
            (
                get("src"),
                get("width").parse().unwrap(),
                get("height").parse().unwrap(),
            )
        })
        .collect()
}

fn luma(p: &image::Rgb<u8>) -> f64 {
    0.2126 * f64::from(p[0]) + 0.7152 * f64::from(p[1]) + 0.0722 * f64::from(p[2])
}

#[test]
fn gallery_writes_every_figure_and_an_index_linking_them() {
    let tmp = TempDir::new().unwrap();
    // DIR is created; its parent must exist.
    fs::create_dir(tmp.path().join("a")).unwrap();
    let dir = tmp.path().join("a/gallery");
    gallery_ok(&dir, &["--seed", "5"]);
    assert_eq!(entries(&dir), expected_names(), "missing or stray files");

    for (name, size) in FILES {
        let path = dir.join(name);
        let Some((w, h)) = size else { continue };
        let img = decode(&path);
        assert_eq!(img.dimensions(), (w, h), "{name}");
        // Not blank: plenty of levels, and both dark and light pixels.
        let colours: BTreeSet<[u8; 3]> = img.pixels().map(|p| p.0).collect();
        assert!(
            colours.len() >= 16,
            "{name}: only {} colours",
            colours.len()
        );
        // The flow picture's strands are faint where they do not overlap,
        // and at 64 pixels few do.
        let bright = if name == "curl-flow.png" { 90.0 } else { 150.0 };
        let dark = img.pixels().filter(|p| luma(p) < 60.0).count();
        let light = img.pixels().filter(|p| luma(p) > bright).count();
        let top = img.pixels().map(luma).fold(0.0, f64::max);
        assert!(
            dark > 0 && light > 0,
            "{name}: dark {dark}, light {light}, max {top}"
        );
    }

    // Plots: white paper, dark axes and text, and coloured curves.
    for name in [
        "falloff.png",
        "perlin-1d-frequencies.png",
        "perlin-1d-octaves.png",
    ] {
        let img = decode(&dir.join(name));
        let white = img.pixels().filter(|p| p.0 == [255; 3]).count();
        assert!(white * 2 > img.pixels().len(), "{name}: not mostly white");
        let blue = img.pixels().any(|p| p[2] > 150 && p[0] < 60);
        let orange = img.pixels().any(|p| p[0] > 190 && p[1] < 120 && p[2] < 60);
        assert!(blue && orange, "{name}: curve colours missing");
    }
    // The heightmaps are coloured by the terrain ramp: water and land.
    for name in ["terrain-fbm.png", "terrain-plain.png"] {
        let img = decode(&dir.join(name));
        let c = |p: &image::Rgb<u8>| p.0.map(i32::from);
        let water = img.pixels().map(c).filter(|p| p[2] > p[0] + 40).count();
        let grass = img
            .pixels()
            .map(c)
            .filter(|p| p[1] > p[0] + 30 && p[1] > p[2])
            .count();
        assert!(
            water > 0 && grass > 0,
            "{name}: water {water}, grass {grass}"
        );
    }
    // The flow picture: bright strands on a dark background.
    let flow = decode(&dir.join("curl-flow.png"));
    let dark = flow.pixels().filter(|p| luma(p) < 40.0).count();
    assert!(
        dark * 5 > flow.pixels().len(),
        "curl-flow.png is not mostly dark"
    );

    for name in FILES.iter().map(|f| f.0).filter(|f| f.ends_with(".svg")) {
        let svg = fs::read_to_string(dir.join(name)).unwrap();
        assert!(
            svg.contains("<svg") && svg.trim_end().ends_with("</svg>"),
            "{name}"
        );
        assert!(svg.contains("<text") && svg.contains("<polyline"), "{name}");
    }

    let html = fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(!html.contains("<script"));
    let referenced: BTreeSet<String> = attributes(&html, "src")
        .into_iter()
        .chain(attributes(&html, "href"))
        .collect();
    for r in &referenced {
        assert!(
            !r.contains('/') && !r.contains(':'),
            "non-relative link {r}"
        );
        assert!(dir.join(r).is_file(), "index.html links a missing {r}");
    }
    let mut files = expected_names();
    files.retain(|f| f != "index.html");
    assert_eq!(
        referenced.into_iter().collect::<Vec<_>>(),
        files,
        "files not linked from index.html"
    );
    // The page lays the images out at their true size.
    let sizes = img_sizes(&html);
    assert_eq!(sizes.len(), FILES.iter().filter(|f| f.1.is_some()).count());
    for (src, w, h) in sizes {
        assert_eq!(decode(&dir.join(&src)).dimensions(), (w, h), "{src}");
    }
    // Captions name the documents, the figures and the parameters.
    for needle in [
        "Simplex noise demystified",
        "Simplex Noise, keeping it simple",
        "Perlin Noise: A Procedural Generation Algorithm",
        "noise1234",
        "simplexnoise1234",
        "Figure 8",
        "Figure 9",
        "Figures 10 and 11",
        "Figures 12, 13 and 14",
        "frequency 2, 4, and 8",
        "--seed 5",
        "--size 64",
        "octaves",
    ] {
        assert!(html.contains(needle), "index.html lacks {needle:?}");
    }
}

#[test]
fn a_repeated_gallery_replaces_its_files_and_no_clobber_refuses() {
    let tmp = TempDir::new().unwrap();
    let dir = tmp.path();

    // One stale gallery file and --no-clobber: the command stops before
    // writing anything.
    fs::write(dir.join("falloff.png"), b"old").unwrap();
    let err = gallery_err(&[dir.to_str().unwrap(), "--size", "64", "--no-clobber"], 1);
    assert!(
        err.contains("falloff.png") && err.contains("--no-clobber"),
        "{err}"
    );
    assert_eq!(entries(dir), ["falloff.png"]);
    assert_eq!(fs::read(dir.join("falloff.png")).unwrap(), b"old");

    // By default it is replaced, and files that are not the gallery's stay.
    fs::write(dir.join("notes.txt"), b"mine").unwrap();
    gallery_ok(dir, &[]);
    let mut names = expected_names();
    names.push("notes.txt".into());
    names.sort();
    assert_eq!(entries(dir), names);
    assert_eq!(fs::read(dir.join("notes.txt")).unwrap(), b"mine");
    decode(&dir.join("falloff.png"));

    // Running it again redraws the gallery in place: a seeded figure
    // changes with the seed, and the old scripts' --overwrite is a no-op.
    let seed0 = fs::read(dir.join("terrain-fbm.png")).unwrap();
    gallery_ok(dir, &["--seed", "9"]);
    let seed9 = fs::read(dir.join("terrain-fbm.png")).unwrap();
    assert_ne!(seed9, seed0, "the second run did not replace the files");
    gallery_ok(dir, &["--seed", "0", "--overwrite"]);
    assert_eq!(fs::read(dir.join("terrain-fbm.png")).unwrap(), seed0);
    assert_eq!(entries(dir), names);

    // A complete gallery is kept, byte for byte, with --no-clobber.
    let read_all = || -> Vec<Vec<u8>> {
        names
            .iter()
            .map(|f| fs::read(dir.join(f)).unwrap())
            .collect()
    };
    let before = read_all();
    let err = gallery_err(
        &[
            dir.to_str().unwrap(),
            "--size",
            "64",
            "--seed",
            "3",
            "--no-clobber",
        ],
        1,
    );
    assert!(err.contains("19 more gallery files"), "{err}");
    assert!(err.contains("--no-clobber"), "{err}");
    assert_eq!(read_all(), before);
    assert_eq!(entries(dir), names);
}

#[test]
fn a_missing_parent_is_an_error_not_a_new_tree() {
    let tmp = TempDir::new().unwrap();
    let deep = tmp.path().join("no").join("such").join("dir");
    let err = gallery_err(&[deep.to_str().unwrap(), "--size", "64"], 1);
    assert_eq!(
        err,
        format!(
            "error: cannot create {}: its parent directory {} does not exist\n",
            deep.display(),
            tmp.path().join("no").join("such").display()
        )
    );
    assert!(
        entries(tmp.path()).is_empty(),
        "created {:?}",
        entries(tmp.path())
    );
    // A parent that is a file.
    fs::write(tmp.path().join("f"), b"x").unwrap();
    let under_file = tmp.path().join("f").join("dir");
    let err = gallery_err(&[under_file.to_str().unwrap(), "--size", "64"], 1);
    assert!(err.contains("is not a directory"), "{err}");
    assert_eq!(entries(tmp.path()), ["f"]);
    fs::remove_file(tmp.path().join("f")).unwrap();
    // DIR itself is still created when its parent exists.
    let one = tmp.path().join("new");
    gallery_ok(&one, &[]);
    assert_eq!(entries(&one), expected_names());
}

/// The octave counts `perlin-1d-octaves` sums: a copy of `OCTAVE_SUMS` in
/// `src/gallery/raouf.rs` (the binary does not export it). The test below
/// also reads them from the figure's legend, so the copy cannot go stale.
const OCTAVE_SUMS: [u32; 4] = [1, 2, 3, 8];

/// The README's gallery table and `gallery --help` name the octave counts
/// the 1D figure really draws.
#[test]
fn readme_and_help_agree_on_the_octave_figure() {
    let tmp = TempDir::new().unwrap();
    gallery_ok(tmp.path(), &[]);
    let svg = fs::read_to_string(tmp.path().join("perlin-1d-octaves.svg")).unwrap();
    let drawn: Vec<u32> = (1..=16)
        .filter(|k| {
            let label = if *k == 1 {
                "1 octave ("
            } else {
                &format!("{k} octaves (")
            };
            svg.contains(label)
        })
        .collect();
    assert_eq!(drawn, OCTAVE_SUMS, "the figure's legend");

    let (last, rest) = OCTAVE_SUMS.split_last().unwrap();
    let rest: Vec<String> = rest.iter().map(u32::to_string).collect();
    let counts = format!("{} and {last} octaves", rest.join(", "));
    let readme =
        fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let row = readme
        .lines()
        .skip_while(|l| !l.contains("docs/gallery/perlin-1d-octaves.png"))
        .take(2)
        .collect::<Vec<_>>()
        .join("\n");
    // The image's alt text and its caption on the next row.
    assert_eq!(
        row.matches(&format!("Sums of {counts}")).count(),
        2,
        "README: {row}"
    );
    let o = surflet().args(["gallery", "--help"]).output().unwrap();
    let help = String::from_utf8(o.stdout).unwrap();
    assert!(
        help.contains(&format!("sums of {counts}")),
        "gallery --help: {help}"
    );
}

/// Gallery's short flags are the project's: `-s` is `--seed`, and no other
/// short flag is taken (`-q`, `-n`, `-o`, `-f` mean --quiet, --noise,
/// --octaves and --format elsewhere, which gallery does not have).
#[test]
fn gallery_short_flags_are_the_projects() {
    let o = surflet().args(["gallery", "--help"]).output().unwrap();
    let help = String::from_utf8(o.stdout).unwrap();
    let shorts: Vec<&str> = help
        .lines()
        .map(str::trim_start)
        .filter(|l| l.len() > 2 && l.starts_with('-') && !l.starts_with("--"))
        .collect();
    assert_eq!(shorts.len(), 2, "{shorts:?}");
    assert!(shorts[0].starts_with("-s, --seed "), "{shorts:?}");
    assert!(shorts[1].starts_with("-h, --help"), "{shorts:?}");
    let tmp = TempDir::new().unwrap();
    gallery_ok(&tmp.path().join("a"), &["-s", "4"]);
    gallery_ok(&tmp.path().join("b"), &["--seed", "4"]);
    assert_eq!(
        fs::read(tmp.path().join("a/index.html")).unwrap(),
        fs::read(tmp.path().join("b/index.html")).unwrap()
    );
    for flag in ["-q", "-n", "-o", "-f", "-S", "-d"] {
        gallery_err(&[tmp.path().to_str().unwrap(), flag, "1"], 2);
    }
}

#[test]
fn same_options_same_bytes_and_the_seed_moves_only_seeded_figures() {
    let tmp = TempDir::new().unwrap();
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    gallery_ok(&a, &["--seed", "11"]);
    gallery_ok(&b, &["--seed", "11"]);
    gallery_ok(&c, &["--seed", "12"]);
    for (name, _) in FILES {
        assert_eq!(
            fs::read(a.join(name)).unwrap(),
            fs::read(b.join(name)).unwrap(),
            "{name} differs between identical runs"
        );
    }
    let same = |name: &str| fs::read(a.join(name)).unwrap() == fs::read(c.join(name)).unwrap();
    // Gustavson's reference code and the exact falloff curves have no seed.
    for name in [
        "classic-vs-simplex-2d.png",
        "classic-vs-simplex-4d.png",
        "falloff.png",
    ] {
        assert!(same(name), "{name} changed with the seed");
    }
    for name in [
        "classic-vs-simplex-2d-surflet.png",
        "value-vs-simplex-value.png",
        "curl-flow.png",
        "perlin-1d-octaves.png",
        "terrain-fbm.png",
    ] {
        assert!(!same(name), "{name} ignores the seed");
    }
}

#[test]
fn the_heightmap_without_fbm_is_what_render_draws() {
    let tmp = TempDir::new().unwrap();
    let dir = tmp.path().join("g");
    gallery_ok(&dir, &["--seed", "7"]);
    let out = tmp.path().join("r.png");
    let o = surflet()
        .arg("render")
        .arg(&out)
        .args(["--noise", "perlin", "--seed", "7", "--size", "64"])
        .args(["--scale", "4/64", "--ramp", "terrain"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(decode(&dir.join("terrain-plain.png")), decode(&out));
}

#[test]
fn bad_options_and_paths() {
    let tmp = TempDir::new().unwrap();
    let d = tmp.path().to_str().unwrap();
    gallery_err(&[d, "--size", "8"], 2);
    gallery_err(&[d, "--size", "big"], 2);
    gallery_err(&[], 2);
    // DIR is a file.
    let file = tmp.path().join("f");
    fs::write(&file, b"x").unwrap();
    let err = gallery_err(&[file.to_str().unwrap(), "--size", "64"], 1);
    assert!(
        err.contains("cannot create") && err.contains("exists and is not a directory"),
        "{err}"
    );
    assert_eq!(fs::read(&file).unwrap(), b"x");
}
