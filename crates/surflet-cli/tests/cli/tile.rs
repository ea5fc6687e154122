//! `surflet render --tile I,J --tiles N,M`: one tile of a larger image,
//! rendered on its own (by a batch job), holding exactly the whole image's
//! pixels in its window.

use std::fs;
use std::io::Cursor;
use std::path::Path;

use crate::common::*;
use image::{AnimationDecoder, DynamicImage, RgbaImage};
use tempfile::TempDir;

fn decode(path: &Path) -> DynamicImage {
    image::ImageReader::open(path)
        .unwrap()
        .with_guessed_format()
        .unwrap()
        .decode()
        .unwrap()
}

/// The first pixel of part `i` of `n` split into `count`, as `--tiles`
/// documents it: floor(i*n/count).
fn edge(i: u32, n: u32, count: u32) -> u32 {
    (u64::from(i) * u64::from(n) / u64::from(count)) as u32
}

/// Each tile's window of a `width` x `height` image in `n` x `m` tiles:
/// (i, j, x0, y0, w, h).
fn windows(width: u32, height: u32, n: u32, m: u32) -> Vec<(u32, u32, u32, u32, u32, u32)> {
    let mut v = Vec::new();
    for j in 0..m {
        for i in 0..n {
            let (x0, y0) = (edge(i, width, n), edge(j, height, m));
            let (x1, y1) = (edge(i + 1, width, n), edge(j + 1, height, m));
            v.push((i, j, x0, y0, x1 - x0, y1 - y0));
        }
    }
    v
}

/// Renders the whole image and every tile of it with the same `args`, and
/// hands each tile to `check` with the whole image's path and its window.
fn each_tile(
    name: &str,
    args: &[&str],
    size: (u32, u32),
    tiles: (u32, u32),
    check: impl Fn(&Path, &Path, (u32, u32, u32, u32)),
) {
    let dir = TempDir::new().unwrap();
    let whole = render_in(dir.path(), name, args);
    let count = format!("{},{}", tiles.0, tiles.1);
    for (i, j, x0, y0, w, h) in windows(size.0, size.1, tiles.0, tiles.1) {
        let at = format!("{i},{j}");
        let mut tile_args = args.to_vec();
        tile_args.extend_from_slice(&["--tile", &at, "--tiles", &count]);
        let tile = render_in(dir.path(), &format!("t{i}-{j}-{name}"), &tile_args);
        check(&whole, &tile, (x0, y0, w, h));
    }
}

/// Tiles of encoded images (PNG, 8 and 16 bits, gray, ramp and normal
/// maps) are the whole image's crops, pixel for pixel.
#[test]
fn png_tiles_are_the_whole_images_pixels() {
    // Odd sizes split unevenly, a non-dyadic scale and an origin off zero,
    // so each tile's coordinates round as the whole image's do only if the
    // tile's offset is added to the pixel index, not to the origin.
    let base = [
        "--size",
        "37x23",
        "--origin=-1.3,0.7",
        "--scale",
        "1/3,2/7",
        "--octaves",
        "3",
        "--seed",
        "5",
    ];
    let cases: &[&[&str]] = &[
        &["--bit-depth", "16"],
        &["--ramp", "terrain", "--noise", "perlin"],
        &["--mode", "normal", "--warp", "single", "--bit-depth", "16"],
        &["--range=-0.4,0.4", "--fractal", "ridged", "--dims", "3"],
    ];
    for extra in cases {
        let args: Vec<&str> = base.iter().chain(extra.iter()).copied().collect();
        for tiles in [(3, 4), (1, 2), (37, 1)] {
            each_tile(
                "w.png",
                &args,
                (37, 23),
                tiles,
                |whole, tile, (x, y, w, h)| {
                    let whole = decode(whole);
                    let tile = decode(tile);
                    assert_eq!((tile.width(), tile.height()), (w, h), "{extra:?} {tiles:?}");
                    assert_eq!(tile.color(), whole.color());
                    assert!(
                        tile == whole.crop_imm(x, y, w, h),
                        "{extra:?}: tile at {x},{y} of {tiles:?} differs from the whole image"
                    );
                },
            );
        }
    }
}

/// f32 heightmaps (raw) of a graph, and every frame of an animation.
#[test]
fn float_and_animated_tiles_are_the_whole_images_pixels() {
    let args = [
        "--size",
        "29x31",
        "--scale",
        "0.013",
        "--expr",
        "fbm(simplex(seed=3), octaves=4) * ridged(perlin(seed=4), octaves=2)",
    ];
    // Far from the origin at a high frequency, one ulp of a pixel's world
    // coordinate changes its f32 value: a tile whose coordinates rounded
    // differently from the whole image's (its offset folded into the
    // origin, say) would fail here, where quantised pixels cannot tell.
    let far = [
        "--size",
        "29x31",
        "--origin=1000000.3,-2000000.7",
        "--scale",
        "1/3,2/7",
        "--frequency",
        "1000",
    ];
    for args in [&args[..], &far[..]] {
        each_tile(
            "h.raw",
            args,
            (29, 31),
            (4, 3),
            |whole, tile, (x, y, w, h)| {
                let whole = read_f32(whole);
                let tile = read_f32(tile);
                assert_eq!(tile.len(), (w * h) as usize);
                for r in 0..h {
                    let from = ((y + r) * 29 + x) as usize;
                    let want = &whole[from..from + w as usize];
                    let got = &tile[(r * w) as usize..((r + 1) * w) as usize];
                    // Bits, so that -0.0 and NaN count too.
                    let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(got), bits(want), "row {r} of the tile at {x},{y}");
                }
            },
        );
    }

    let frames = |path: &Path| -> Vec<RgbaImage> {
        let bytes = fs::read(path).unwrap();
        let dec = image::codecs::png::PngDecoder::new(Cursor::new(&bytes)).unwrap();
        dec.apng()
            .unwrap()
            .into_frames()
            .map(|f| f.unwrap().into_buffer())
            .collect()
    };
    let args = ["--size", "21x13", "--frames", "3", "--ramp", "terrain"];
    each_tile(
        "a.png",
        &args,
        (21, 13),
        (2, 2),
        |whole, tile, (x, y, w, h)| {
            let (whole, tile) = (frames(whole), frames(tile));
            assert_eq!((whole.len(), tile.len()), (3, 3));
            for (k, (a, b)) in whole.iter().zip(&tile).enumerate() {
                let crop = image::imageops::crop_imm(a, x, y, w, h).to_image();
                assert!(*b == crop, "frame {k} of the tile at {x},{y}");
            }
        },
    );
}

/// A tile's --save-config describes the whole image, and the tile rendered
/// from that config is the same tile.
#[test]
fn a_tiles_config_is_the_whole_images() {
    let dir = TempDir::new().unwrap();
    let config = dir.path().join("c.toml");
    let config = config.to_str().unwrap();
    let tile = ["--tile", "1,2", "--tiles", "2,3"];
    let mut args = vec!["--size", "40x30", "--octaves", "2", "--save-config", config];
    args.extend_from_slice(&tile);
    let first = render_in(dir.path(), "a.png", &args);
    let text = fs::read_to_string(config).unwrap();
    let doc: toml::Value = toml::from_str(&text).unwrap();
    assert_eq!(
        doc["view"]["size"],
        toml::Value::try_from([40, 30]).unwrap(),
        "{text}"
    );
    assert_eq!((decode(&first).width(), decode(&first).height()), (20, 10));
    let mut again = vec!["--config", config];
    again.extend_from_slice(&tile);
    let second = render_in(dir.path(), "b.png", &again);
    assert_eq!(fs::read(first).unwrap(), fs::read(second).unwrap());
}

/// What a tile cannot know, and windows that do not exist, are usage
/// errors that leave no file.
#[test]
fn bad_tiles_are_refused() {
    let dir = TempDir::new().unwrap();
    let auto = dir.path().join("auto.toml");
    fs::write(&auto, "version = 2\n[pixels]\nrange = \"auto\"\n").unwrap();
    let out = dir.path().join("t.png");
    let out = out.to_str().unwrap();
    let gif = dir.path().join("t.gif");
    let gif = gif.to_str().unwrap();
    let auto = auto.to_str().unwrap();
    let tile = ["--tile", "0,0", "--tiles", "2,2"];
    let with_tile = |args: &[&'static str]| -> Vec<&'static str> {
        let mut v = args.to_vec();
        v.extend_from_slice(&tile);
        v
    };
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (with_tile(&["--auto-range"]), "--auto-range"),
        (
            vec!["--config", auto, "--tile", "0,0", "--tiles", "2,2"],
            "--auto-range",
        ),
        (with_tile(&["--mode", "normal"]), "palette"),
        (vec!["--tile", "2,0", "--tiles", "2,2"], "outside"),
        (vec!["--tile", "0,3", "--tiles", "2,3"], "outside"),
        (
            vec!["--size", "8x4", "--tile", "0,0", "--tiles", "9,1"],
            "no pixels",
        ),
        (
            vec!["--size", "8x4", "--tile", "0,0", "--tiles", "1,5"],
            "no pixels",
        ),
        (vec!["--tile", "0,0", "--tiles", "0,2"], "at least one"),
        (vec!["--tile", "0,0,0", "--tiles", "2,2"], "two values"),
        (vec!["--tile", "0,0", "--tiles", "2"], "two values"),
        (vec!["--tile", "0,0"], "--tiles"),
        (vec!["--tiles", "2,2"], "--tile"),
        (vec!["--tile", "a,0", "--tiles", "2,2"], "invalid"),
        (vec!["--tile=-1,0", "--tiles", "2,2"], "invalid"),
    ];
    for (args, needle) in cases {
        let target = if needle == "palette" { gif } else { out };
        let mut all = vec![target];
        all.extend_from_slice(&args);
        let msg = render_err(&all, 2);
        assert!(msg.contains(needle), "{args:?}: {msg}");
    }
    assert_eq!(entries(dir.path()), vec!["auto.toml".to_string()]);
}
