//! End-to-end tests of `surflet render`, running the real binary and reading
//! its files back with independent decoders (the `image` crate for PNG, APNG
//! and GIF, the `tiff` crate for TIFF, plain byte reading for raw f32).

use std::fs;
use std::io::{BufReader, Cursor};
use std::path::Path;
use std::process::{Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;
use image::{AnimationDecoder, ColorType, DynamicImage, ImageDecoder};
use surflet::{Noise, NoiseKind};
use tempfile::TempDir;

fn decode(path: &Path) -> DynamicImage {
    image::ImageReader::open(path)
        .unwrap()
        .with_guessed_format()
        .unwrap()
        .decode()
        .unwrap()
}

/// The documented default mapping of a value to 8 and 16 bits.
fn gray8(v: f64) -> u8 {
    (((v + 1.0) / 2.0).clamp(0.0, 1.0) * 255.0).round() as u8
}
fn gray16(v: f64) -> u16 {
    (((v + 1.0) / 2.0).clamp(0.0, 1.0) * 65535.0).round() as u16
}

#[test]
fn default_is_512_square_8bit_gray_simplex() {
    let (_dir, out) = render_ok("noise.png", &[]);
    let img = decode(&out);
    assert_eq!((img.width(), img.height()), (512, 512));
    assert_eq!(img.color(), ColorType::L8);
    let img = img.into_luma8();
    let noise = Noise::<2>::new(NoiseKind::Simplex, 0);
    for (i, j) in [(0, 0), (1, 0), (17, 300), (511, 511), (256, 3)] {
        let v = noise.get([at(0.0, i, 1.0, 64.0), at(0.0, j, 1.0, 64.0)]);
        assert_eq!(img.get_pixel(i, j)[0], gray8(v), "pixel {i},{j}");
    }
    // Not a flat image: the default has structure across the full range.
    let (lo, hi) = img
        .pixels()
        .fold((255, 0), |(lo, hi), p| (lo.min(p[0]), hi.max(p[0])));
    assert!(lo < 60 && hi > 195, "range {lo}..{hi}");
}

#[test]
fn gray16_png_equals_mapped_library_values() {
    let (_dir, out) = render_ok(
        "h.png",
        &[
            "--bit-depth",
            "16",
            "--size",
            "64x48",
            "--noise",
            "perlin",
            "--seed",
            "3",
            "--origin",
            "-2.5,1.25",
            "--scale",
            "0.07",
        ],
    );
    let img = decode(&out);
    assert_eq!(img.color(), ColorType::L16);
    let img = img.into_luma16();
    assert_eq!(img.dimensions(), (64, 48));
    let noise = Noise::<2>::new(NoiseKind::Perlin, 3);
    for (i, j, p) in img.enumerate_pixels() {
        let v = noise.get([at(-2.5, i, 0.07, 1.0), at(1.25, j, 0.07, 1.0)]);
        assert_eq!(p[0], gray16(v), "pixel {i},{j}");
    }
}

#[test]
fn raw_f32_equals_library_values_in_3d() {
    let (_dir, out) = render_ok(
        "h.raw",
        &[
            "--size", "37x23", "--z", "0.7", "--noise", "value", "--seed", "99", "--scale", "1/9",
        ],
    );
    let data = read_f32(&out);
    assert_eq!(data.len(), 37 * 23);
    let noise = Noise::<3>::new(NoiseKind::Value, 99);
    for j in 0..23 {
        for i in 0..37 {
            let v = noise.get([at(0.0, i, 1.0, 9.0), at(0.0, j, 1.0, 9.0), 0.7]);
            assert_eq!(
                data[(j * 37 + i) as usize].to_bits(),
                (v as f32).to_bits(),
                "pixel {i},{j}"
            );
        }
    }
}

#[test]
fn tiff_is_32bit_float_gray_equal_to_raw() {
    let args = ["--size", "40x30", "--noise", "simplex-value", "--dims", "4"];
    let (_d1, tif) = render_ok("h.tif", &args);
    let (_d2, raw) = render_ok("h.f32", &args);
    let mut dec =
        tiff::decoder::Decoder::new(BufReader::new(fs::File::open(&tif).unwrap())).unwrap();
    assert_eq!(dec.dimensions().unwrap(), (40, 30));
    assert_eq!(dec.colortype().unwrap(), tiff::ColorType::Gray(32));
    let tiff::decoder::DecodingResult::F32(data) = dec.read_image().unwrap() else {
        panic!("TIFF samples are not f32");
    };
    assert_eq!(data, read_f32(&raw));
    assert!(!dec.more_images());

    // An animation is one page per frame, in order.
    let args = ["--size", "12x10", "--frames", "3"];
    let (_d1, tif) = render_ok("a.tiff", &args);
    let (_d2, raw) = render_ok("a.raw", &args);
    let raw = read_f32(&raw);
    let mut dec =
        tiff::decoder::Decoder::new(BufReader::new(fs::File::open(&tif).unwrap())).unwrap();
    for k in 0..3 {
        if k > 0 {
            assert!(dec.more_images());
            dec.next_image().unwrap();
        }
        assert_eq!(dec.dimensions().unwrap(), (12, 10));
        let tiff::decoder::DecodingResult::F32(page) = dec.read_image().unwrap() else {
            panic!("TIFF samples are not f32");
        };
        assert_eq!(page, raw[k * 120..(k + 1) * 120], "page {k}");
    }
    assert!(!dec.more_images());
}

#[test]
fn ramp_png_is_rgb_with_the_documented_colours() {
    let (_dir, out) = render_ok(
        "r.png",
        &[
            "--size",
            "50x20",
            "--ramp",
            "0:#000000,1:#ff0000",
            "--seed",
            "5",
        ],
    );
    let img = decode(&out);
    assert_eq!(img.color(), ColorType::Rgb8);
    let img = img.into_rgb8();
    let noise = Noise::<2>::new(NoiseKind::Simplex, 5);
    for (i, j, p) in img.enumerate_pixels() {
        let v = noise.get([at(0.0, i, 1.0, 64.0), at(0.0, j, 1.0, 64.0)]);
        let t = ((v + 1.0) / 2.0).clamp(0.0, 1.0);
        assert_eq!(p.0, [(t * 255.0).round() as u8, 0, 0], "pixel {i},{j}");
    }

    let (_dir, out) = render_ok("t.png", &["--ramp", "terrain", "--size", "128"]);
    let img = decode(&out).into_rgb8();
    let mut colours: Vec<[u8; 3]> = img.pixels().map(|p| p.0).collect();
    colours.sort();
    colours.dedup();
    assert!(colours.len() > 50, "terrain has {} colours", colours.len());

    let (_dir, out) = render_ok(
        "t16.png",
        &["--ramp", "gray", "--bit-depth", "16", "--size", "8"],
    );
    assert_eq!(decode(&out).color(), ColorType::Rgb16);
}

/// The unit normal of z = s*h(u, v) from central differences of the noise,
/// in the OpenGL convention (+Y up, v down the image).
fn normal_by_differences(noise: &Noise<2>, x: f64, y: f64, f: f64, s: f64) -> [f64; 3] {
    let e = 1e-5;
    let du = (noise.get([x + e, y]) - noise.get([x - e, y])) / (2.0 * e) * f;
    let dv = (noise.get([x, y + e]) - noise.get([x, y - e])) / (2.0 * e) * f;
    let n = [-s * du, s * dv, 1.0];
    let len = (n[0] * n[0] + n[1] * n[1] + 1.0).sqrt();
    n.map(|c| c / len)
}

#[test]
fn normal_maps_agree_with_central_differences() {
    for (kind, name) in [
        (NoiseKind::Simplex, "simplex"),
        (NoiseKind::Perlin, "perlin"),
    ] {
        let (_dir, out) = render_ok(
            "n.png",
            &[
                "--mode", "normal", "--size", "48x40", "--noise", name, "--seed", "11", "--scale",
                "1/16",
            ],
        );
        let img = decode(&out);
        assert_eq!(img.color(), ColorType::Rgb8);
        let img = img.into_rgb8();
        let noise = Noise::<2>::new(kind, 11);
        let f = 1.0 / 16.0;
        // The documented default strength.
        let s = 0.25 / f;
        let mut tilted = 0;
        for (i, j, p) in img.enumerate_pixels() {
            let n =
                normal_by_differences(&noise, at(0.0, i, 1.0, 16.0), at(0.0, j, 1.0, 16.0), f, s);
            for c in 0..3 {
                let want = (n[c] * 0.5 + 0.5) * 255.0;
                assert!(
                    (f64::from(p[c]) - want).abs() <= 1.0,
                    "{name} pixel {i},{j} channel {c}: {} vs {want}",
                    p[c]
                );
            }
            tilted += usize::from(n[2] < 0.9);
        }
        // The test means something only if the surface is not flat.
        assert!(tilted > 100, "{name}: only {tilted} tilted normals");
    }

    // DirectX flips green and nothing else; 16 bits work too.
    let args = [
        "--mode",
        "normal",
        "--size",
        "16",
        "--normal-strength",
        "40",
    ];
    let (_d1, gl) = render_ok("gl.png", &args);
    let (_d2, dx) = render_ok(
        "dx.png",
        &[&args[..], &["--normal-format", "directx"]].concat(),
    );
    let (gl, dx) = (decode(&gl).into_rgb8(), decode(&dx).into_rgb8());
    for (a, b) in gl.pixels().zip(dx.pixels()) {
        assert_eq!(a[0], b[0]);
        assert!((i32::from(a[1]) + i32::from(b[1]) - 255).abs() <= 1);
        assert_eq!(a[2], b[2]);
    }
    let (_d, n16) = render_ok("n16.png", &[&args[..], &["--bit-depth", "16"]].concat());
    assert_eq!(decode(&n16).color(), ColorType::Rgb16);
}

#[test]
fn tiles_are_seamless() {
    // One period spans 48x40 pixels; the 49x41 render at the same spacing
    // has the wrap-around column and row, which must equal the first ones
    // bit for bit.
    for (noise, period) in [
        ("simplex", "3,4"),
        ("perlin", "5,3"),
        ("value", "2,2"),
        ("simplex-value", "3,2"),
    ] {
        let (_d1, tile) = render_ok(
            "t.raw",
            &["--size", "48x40", "--noise", noise, "--period", period],
        );
        let (px, py) = period.split_once(',').unwrap();
        let freq = format!("{px}/48,{py}/40");
        let (_d2, wide) = render_ok(
            "w.raw",
            &[
                "--size", "49x41", "--noise", noise, "--period", period, "--scale", &freq,
            ],
        );
        let (tile, wide) = (read_f32(&tile), read_f32(&wide));
        let t = |i: usize, j: usize| tile[j * 48 + i].to_bits();
        let w = |i: usize, j: usize| wide[j * 49 + i].to_bits();
        for j in 0..41 {
            for i in 0..49 {
                assert_eq!(w(i, j), t(i % 48, j % 40), "{noise} pixel {i},{j}");
            }
        }
        // Not trivially constant.
        assert!(tile.iter().any(|&v| v != tile[0]));
    }

    // The same holds in 3D, where z keeps the largest period.
    let (_d1, tile) = render_ok(
        "t.raw",
        &["--size", "30x20", "--period", "3,2", "--z", "1.5"],
    );
    let (_d2, wide) = render_ok(
        "w.raw",
        &[
            "--size",
            "31x21",
            "--period",
            "3,2",
            "--z",
            "1.5",
            "--scale",
            "3/30,2/20",
        ],
    );
    let (tile, wide) = (read_f32(&tile), read_f32(&wide));
    for j in 0..21 {
        assert_eq!(wide[j * 31 + 30].to_bits(), tile[(j % 20) * 30].to_bits());
    }
}

#[test]
fn looped_animations_wrap_around() {
    // Eight frames of step 1/4 loop with period 2 along z; a ninth frame at
    // the same spacing, with that period given directly, equals the first.
    let (_d1, looped) = render_ok(
        "l.raw",
        &[
            "--size", "16x12", "--frames", "8", "--step", "1/4", "--loop",
        ],
    );
    let (_d2, nine) = render_ok(
        "n.raw",
        &[
            "--size",
            "16x12",
            "--frames",
            "9",
            "--step",
            "1/4",
            "--period",
            "65536,65536,2",
            "--scale",
            "1/64",
        ],
    );
    let (looped, nine) = (read_f32(&looped), read_f32(&nine));
    let frame = 16 * 12;
    assert_eq!(looped.len(), 8 * frame);
    assert_eq!(&nine[..8 * frame], &looped[..]);
    assert_eq!(&nine[8 * frame..], &looped[..frame]);
    assert_ne!(&looped[frame..2 * frame], &looped[..frame]);

    // Without --step, --loop picks a whole-cell period for any frame count:
    // 40 frames make one cell, so the step is 1/40.
    let (_d1, looped) = render_ok("l.raw", &["--size", "8x6", "--frames", "40", "--loop"]);
    let (_d2, plain) = render_ok(
        "p.raw",
        &[
            "--size",
            "8x6",
            "--frames",
            "41",
            "--step",
            "1/40",
            "--period",
            "65536,65536,1",
            "--scale",
            "1/64",
        ],
    );
    let (looped, plain) = (read_f32(&looped), read_f32(&plain));
    assert_eq!(&plain[..40 * 48], &looped[..]);
    assert_eq!(&plain[40 * 48..], &looped[..48]);
}

#[test]
fn gif_animation_has_every_frame_with_gray_levels() {
    let (_dir, out) = render_ok(
        "a.gif",
        &["--size", "32x24", "--frames", "5", "--fps", "20"],
    );
    let dec =
        image::codecs::gif::GifDecoder::new(BufReader::new(fs::File::open(&out).unwrap())).unwrap();
    let frames = dec.into_frames().collect_frames().unwrap();
    assert_eq!(frames.len(), 5);
    let noise = Noise::<3>::new(NoiseKind::Simplex, 0);
    for (k, f) in frames.iter().enumerate() {
        let buf = f.buffer();
        assert_eq!(buf.dimensions(), (32, 24));
        assert_eq!(f.delay().numer_denom_ms(), (50, 1));
        for (i, j, p) in buf.enumerate_pixels() {
            let v = noise.get([
                at(0.0, i, 1.0, 64.0),
                at(0.0, j, 1.0, 64.0),
                at(0.0, k as u32, 1.0, 32.0),
            ]);
            let g = gray8(v);
            assert_eq!(p.0, [g, g, g, 255], "frame {k} pixel {i},{j}");
        }
    }

    // Ramps and normal maps make GIFs too.
    for args in [&["--ramp", "terrain"][..], &["--mode", "normal"]] {
        let (_dir, out) = render_ok(
            "c.gif",
            &[&["--size", "20", "--frames", "2"][..], args].concat(),
        );
        let dec =
            image::codecs::gif::GifDecoder::new(BufReader::new(fs::File::open(&out).unwrap()))
                .unwrap();
        assert_eq!(dec.into_frames().collect_frames().unwrap().len(), 2);
    }
}

#[test]
fn apng_has_every_frame() {
    for (name, frames) in [("a.png", "4"), ("b.apng", "3")] {
        let (_dir, out) = render_ok(
            name,
            &[
                "--size",
                "20x10",
                "--frames",
                frames,
                "--animate",
                "w",
                "--ramp",
                "terrain",
            ],
        );
        let bytes = fs::read(&out).unwrap();
        let dec = image::codecs::png::PngDecoder::new(Cursor::new(&bytes)).unwrap();
        assert!(dec.is_apng().unwrap());
        assert_eq!(dec.color_type(), ColorType::Rgb8);
        let frames_read = dec.apng().unwrap().into_frames().collect_frames().unwrap();
        assert_eq!(frames_read.len(), frames.parse::<usize>().unwrap());
        for f in &frames_read {
            assert_eq!(f.buffer().dimensions(), (20, 10));
        }
        assert_ne!(frames_read[0].buffer(), frames_read[1].buffer());
    }
}

#[test]
fn auto_range_stretches_to_full_scale() {
    let (_dir, out) = render_ok("a.png", &["--auto-range", "--size", "64"]);
    let img = decode(&out).into_luma8();
    let lo = img.pixels().map(|p| p[0]).min().unwrap();
    let hi = img.pixels().map(|p| p[0]).max().unwrap();
    assert_eq!((lo, hi), (0, 255));

    // Floats are mapped but not clamped: exactly 0 and 1 at the extremes.
    let (_dir, out) = render_ok("a.raw", &["--auto-range", "--size", "64", "--frames", "3"]);
    let data = read_f32(&out);
    let lo = data.iter().copied().fold(f32::INFINITY, f32::min);
    let hi = data.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    assert_eq!((lo, hi), (0.0, 1.0));

    // Explicit range: [-0.5, 0.5] saturates where |v| > 0.5.
    let (_dir, out) = render_ok(
        "r.png",
        &["--range=-0.5,0.5", "--size", "64", "--scale", "1/16"],
    );
    let img = decode(&out).into_luma8();
    let noise = Noise::<2>::new(NoiseKind::Simplex, 0);
    for (i, j, p) in img.enumerate_pixels() {
        let v = noise.get([at(0.0, i, 1.0, 16.0), at(0.0, j, 1.0, 16.0)]);
        assert_eq!(p[0], ((v + 0.5).clamp(0.0, 1.0) * 255.0).round() as u8);
    }
}

#[test]
fn interrupted_render_leaves_no_file() {
    // Ctrl-C is SIGINT; a scheduler or `timeout` sends SIGTERM. Both stop
    // the render with status 130 and remove the temporary file.
    for signal in ["INT", "TERM"] {
        let dir = TempDir::new().unwrap();
        let out = dir.path().join("big.png");
        // Long enough (thousands of 4D frames) that the signal lands
        // mid-render.
        let mut child = StdCommand::new(BIN)
            .arg("render")
            .arg(&out)
            .args([
                "--size",
                "1024",
                "--frames",
                "5000",
                "--animate",
                "w",
                "--noise",
                "perlin",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The temporary file appears once the handler is installed and the
        // render is under way.
        let start = Instant::now();
        while entries(dir.path()).is_empty() {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "no temporary file appeared"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        std::thread::sleep(Duration::from_millis(200));
        let killed = StdCommand::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        let mut stderr = String::new();
        std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
        assert_eq!(status.code(), Some(130), "SIG{signal}: stderr: {stderr}");
        assert!(stderr.contains("interrupted"), "SIG{signal}: {stderr}");
        assert_eq!(entries(dir.path()), Vec::<String>::new(), "SIG{signal}");
    }
}

#[test]
fn oversized_requests_fail_before_allocating() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("huge.png");
    let out = out.to_str().unwrap();
    let start = Instant::now();
    let msg = render_err(&[out, "--size", "1000000x1000000"], 1);
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "took {:?}",
        start.elapsed()
    );
    assert!(
        msg.contains("1000000x1000000") && msg.contains("memory"),
        "{msg}"
    );
    let msg = render_err(&[out, "--size", "2000000000x2000000000"], 1);
    assert!(msg.contains("2000000000x2000000000"), "{msg}");
    // Format limits are usage errors.
    let gif = dir.path().join("wide.gif");
    let msg = render_err(&[gif.to_str().unwrap(), "--size", "70000x1"], 2);
    assert!(msg.contains("70000x1") && msg.contains("GIF"), "{msg}");
    let msg = render_err(&[out, "--size", "5000000000x1"], 2);
    assert!(msg.contains("too large"), "{msg}");
    // Each frame fits in memory, but 4 million of them (a petabyte) fit on
    // no disk: refused before the first frame.
    let raw = dir.path().join("long.raw");
    let start = Instant::now();
    let msg = render_err(
        &[
            raw.to_str().unwrap(),
            "--size",
            "4096",
            "--frames",
            "4000000",
        ],
        1,
    );
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "took {:?}",
        start.elapsed()
    );
    assert!(
        msg.contains("4000000 frames") && msg.contains("free"),
        "{msg}"
    );
    assert_eq!(entries(dir.path()), Vec::<String>::new());
}

#[test]
fn a_repeated_command_replaces_its_output_and_no_clobber_refuses() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("x.png");
    fs::write(&out, b"precious").unwrap();
    let msg = render_err(&[out.to_str().unwrap(), "--size", "8", "--no-clobber"], 1);
    assert!(
        msg.contains("already exists") && msg.contains("--no-clobber"),
        "{msg}"
    );
    assert_eq!(fs::read(&out).unwrap(), b"precious");
    // Twice, as a user tweaking a look runs it: both succeed.
    for size in ["8", "9"] {
        surflet()
            .arg("render")
            .arg(&out)
            .args(["--size", size])
            .assert()
            .success();
    }
    assert_eq!(decode(&out).width(), 9);
    // Old scripts that say --overwrite keep working.
    surflet()
        .arg("render")
        .arg(&out)
        .args(["--size", "7", "--overwrite"])
        .assert()
        .success();
    assert_eq!(decode(&out).width(), 7);
    assert_eq!(entries(dir.path()), vec!["x.png".to_string()]);
}

#[test]
fn unwritable_outputs_give_clear_messages() {
    let msg = render_err(&["/proc/forbidden/x.png", "--size", "8"], 1);
    assert!(msg.contains("/proc/forbidden"), "{msg}");
    // /proc reports no disk space at all; the message is about creating
    // the file, not "only 0 bytes is free".
    let msg = render_err(&["/proc/x.png", "--size", "8"], 1);
    assert!(msg.contains("/proc"), "{msg}");
    assert!(!msg.contains("free"), "{msg}");

    let dir = TempDir::new().unwrap();
    let file = dir.path().join("file");
    fs::write(&file, b"").unwrap();
    let msg = render_err(&[file.join("x.png").to_str().unwrap(), "--size", "8"], 1);
    assert!(msg.contains("not a directory"), "{msg}");
    let sub = dir.path().join("sub.png");
    fs::create_dir(&sub).unwrap();
    let msg = render_err(&[sub.to_str().unwrap(), "--size", "8"], 1);
    assert!(msg.contains("is a directory"), "{msg}");
    // Without an extension too: "is a directory", not "cannot tell the
    // format".
    let msg = render_err(&[dir.path().to_str().unwrap(), "--size", "8"], 1);
    assert!(msg.contains("is a directory"), "{msg}");
    assert!(!msg.contains("format"), "{msg}");
    assert_eq!(
        entries(dir.path()),
        vec!["file".to_string(), "sub.png".to_string()]
    );
}

#[test]
fn bad_options_are_usage_errors() {
    let dir = TempDir::new().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let png = p("x.png");
    for (args, needle) in [
        (vec![png.as_str(), "--size", "0x10"], "at least 1"),
        (vec![png.as_str(), "--size", "10x0"], "at least 1"),
        (vec![png.as_str(), "--size", "ten"], "not a size"),
        (vec![&p("x.jpg")], "extension"),
        (vec![&p("noext")], "extension"),
        (vec![png.as_str(), "--format", "bmp"], "bmp"),
        (
            vec![png.as_str(), "--noise", "perlin2002-java"],
            "perlin2002-java",
        ),
        (vec![&p("x.tif"), "--ramp", "terrain"], "TIFF"),
        (vec![&p("x.raw"), "--mode", "normal"], "raw"),
        (vec![&p("x.gif"), "--bit-depth", "16"], "GIF"),
        (vec![png.as_str(), "--bit-depth", "12"], "12"),
        (vec![png.as_str(), "--ramp", "0:#000000"], "two stops"),
        (vec![png.as_str(), "--ramp", "rainbow"], "rainbow"),
        (
            vec![png.as_str(), "--mode", "gray", "--ramp", "terrain"],
            "--ramp",
        ),
        (
            vec![png.as_str(), "--mode", "normal", "--auto-range"],
            "--auto-range",
        ),
        (vec![png.as_str(), "--loop"], "--frames"),
        (vec![png.as_str(), "--step", "0.1"], "--frames"),
        (vec![png.as_str(), "--frames", "0"], "at least 1"),
        (
            vec![png.as_str(), "--scale", "1/64,1/32,1/16"],
            "--scale takes one value or two (SX,SY), got 3",
        ),
        (vec![png.as_str(), "--frequency", "0"], "positive"),
        (vec![png.as_str(), "--frequency", "1/0"], "positive"),
        (
            vec![png.as_str(), "--frequency", "-1"],
            "frequency: must be positive",
        ),
        (
            vec![png.as_str(), "--frequency=-1"],
            "frequency: must be positive",
        ),
        (vec![png.as_str(), "--scale", "0"], "positive"),
        (vec![png.as_str(), "--scale", "-1/64"], "positive"),
        (
            vec![png.as_str(), "--seed", "18446744073709551616"],
            "out of range",
        ),
        (
            vec![png.as_str(), "--seed", "-9223372036854775809"],
            "out of range",
        ),
        (vec![png.as_str(), "--frequency", "1e300"], "2^52"),
        (vec![png.as_str(), "--origin", "1e17,0"], "2^52"),
        (vec![png.as_str(), "--same-view"], "--config"),
        (vec![png.as_str(), "--period", "4,7"], "even"),
        (vec![png.as_str(), "--period", "0,4"], "1..=65536"),
        (vec![png.as_str(), "--period", "4,4", "--dims", "4"], "4D"),
        (vec![png.as_str(), "--dims", "2", "--z", "1"], "--z"),
        (
            vec![png.as_str(), "--frames", "4", "--animate", "w", "--loop"],
            "animate along z",
        ),
        (
            vec![
                png.as_str(),
                "--frames",
                "4",
                "--animate",
                "w",
                "--dims",
                "3",
            ],
            "4D",
        ),
        (vec![png.as_str(), "--dims", "5"], "5"),
        (vec![png.as_str(), "--origin", "1"], "--origin"),
        (vec![png.as_str(), "--range", "1,1"], "--range"),
        (vec![png.as_str(), "--auto-range", "--range=0,1"], "--range"),
        (
            vec![png.as_str(), "--frames", "3", "--loop", "--step", "0.1"],
            "whole number",
        ),
    ] {
        let msg = render_err(&args, 2);
        assert!(msg.contains(needle), "{args:?}: {msg}");
    }
    assert_eq!(entries(dir.path()), Vec::<String>::new());
}

#[test]
fn help_documents_the_conventions() {
    let o = surflet().args(["render", "--help"]).output().unwrap();
    assert!(o.status.success());
    let help = String::from_utf8(o.stdout).unwrap();
    for needle in [
        "x = X + (i*A)/B",
        "opengl",
        "directx",
        "--auto-range",
        "--no-clobber",
        "surflet help coordinates",
        "surflet help config",
        "EXAMPLES",
        "130",
    ] {
        assert!(help.contains(needle), "help lacks {needle:?}");
    }
}

#[test]
fn readme_main_command_renders_the_default_image() {
    let readme =
        fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let prefix = "cargo run --release -- ";
    let line = readme
        .lines()
        .find(|l| l.starts_with(prefix))
        .expect("README's main command is `cargo run --release -- render ...`");
    let args: Vec<&str> = line[prefix.len()..].split_whitespace().collect();
    assert_eq!(
        args.len(),
        2,
        "the main command takes nothing but an output name: {line}"
    );
    let dir = TempDir::new().unwrap();
    surflet()
        .current_dir(dir.path())
        .args(&args)
        .assert()
        .success();
    let img = decode(&dir.path().join(args[1]));
    assert_eq!(
        (img.width(), img.height(), img.color()),
        (512, 512, ColorType::L8)
    );
}
