//! Output formats: frames of finished pixels in, file bytes out.
//!
//! Every encoder writes to a borrowed writer and never flushes the file
//! itself; the caller flushes, syncs and renames, so an encoder error can
//! never leave a visible half-written output.

use std::io::{self, Seek, Write};

use clap::ValueEnum;

/// An output file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// PNG; animated (APNG) when there is more than one frame.
    #[value(name = "png")]
    Png,
    /// Animated PNG, even with one frame.
    #[value(name = "apng")]
    Apng,
    /// GIF (8-bit, one 256-colour palette).
    #[value(name = "gif")]
    Gif,
    /// TIFF with one 32-bit float sample per pixel, one page per frame.
    #[value(name = "tiff")]
    Tiff,
    /// Raw little-endian f32, row-major, frames one after another.
    #[value(name = "raw")]
    Raw,
}

impl Format {
    /// The format an output name's extension implies.
    pub fn from_extension(ext: &str) -> Option<Format> {
        Some(match ext.to_ascii_lowercase().as_str() {
            "png" => Format::Png,
            "apng" => Format::Apng,
            "gif" => Format::Gif,
            "tif" | "tiff" => Format::Tiff,
            "raw" | "f32" => Format::Raw,
            _ => return None,
        })
    }

    /// Whether pixels are floats rather than quantised.
    pub fn is_float(self) -> bool {
        matches!(self, Format::Tiff | Format::Raw)
    }

    /// The name for messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::Png => "PNG",
            Format::Apng => "APNG",
            Format::Gif => "GIF",
            Format::Tiff => "TIFF",
            Format::Raw => "raw f32",
        }
    }

    /// The largest width or height the format can store.
    pub fn max_side(self) -> u64 {
        match self {
            // The PNG specification caps each dimension at 2^31 - 1.
            Format::Png | Format::Apng => (1 << 31) - 1,
            Format::Gif => u64::from(u16::MAX),
            Format::Tiff | Format::Raw => u64::from(u32::MAX),
        }
    }
}

/// One frame of finished pixels.
pub enum Pixels<'a> {
    /// One byte per pixel: grey levels, or GIF palette indices.
    Gray8(&'a [u8]),
    /// Big-endian 16-bit grey levels, two bytes per pixel.
    Gray16(&'a [u8]),
    /// RGB, one byte per channel.
    Rgb8(&'a [u8]),
    /// Big-endian 16-bit RGB, six bytes per pixel.
    Rgb16(&'a [u8]),
    /// One float per pixel.
    F32(&'a [f32]),
}

/// Receives the frames of one output file.
pub trait Sink {
    /// Encodes the next frame.
    fn frame(&mut self, pixels: Pixels<'_>) -> io::Result<()>;
    /// Writes whatever follows the last frame.
    fn finish(self: Box<Self>) -> io::Result<()>;
}

fn other(e: impl std::fmt::Display) -> io::Error {
    io::Error::other(e.to_string())
}

/// Timing of an animation.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// Frames per second.
    pub fps: f64,
}

impl Timing {
    /// The APNG frame delay as a fraction of a second: `1/fps` exactly for
    /// whole fps up to 65535, else the nearest millisecond.
    fn apng_delay(self) -> (u16, u16) {
        if self.fps.fract() == 0.0 && self.fps <= 65535.0 {
            (1, self.fps as u16)
        } else {
            ((1000.0 / self.fps).round().clamp(1.0, 65535.0) as u16, 1000)
        }
    }

    /// The GIF frame delay in centiseconds, the unit GIF stores.
    pub fn gif_delay(self) -> u16 {
        (100.0 / self.fps).round().clamp(1.0, 65535.0) as u16
    }
}

/// The kind of pixel a PNG holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PngLayout {
    /// RGB rather than greyscale.
    pub rgb: bool,
    /// 16 bits per channel rather than 8.
    pub sixteen: bool,
}

/// PNG and APNG.
struct PngSink<W: Write> {
    writer: png::Writer<W>,
}

/// Starts a PNG; `animation` makes it an APNG with that many frames, which
/// repeats forever.
pub fn png<'w, W: Write + 'w>(
    w: W,
    width: u32,
    height: u32,
    layout: PngLayout,
    animation: Option<(u32, Timing)>,
) -> io::Result<Box<dyn Sink + 'w>> {
    // Noise barely compresses; the fast setting costs little in size and
    // saves most of the encoding time.
    png_with(w, width, height, layout, animation, png::Compression::Fast)
}

/// [`png`] with a chosen compression level, for images that do compress
/// (plots, and pictures kept in the repository).
pub fn png_with<'w, W: Write + 'w>(
    w: W,
    width: u32,
    height: u32,
    layout: PngLayout,
    animation: Option<(u32, Timing)>,
    compression: png::Compression,
) -> io::Result<Box<dyn Sink + 'w>> {
    let mut enc = png::Encoder::new(w, width, height);
    enc.set_color(if layout.rgb {
        png::ColorType::Rgb
    } else {
        png::ColorType::Grayscale
    });
    enc.set_depth(if layout.sixteen {
        png::BitDepth::Sixteen
    } else {
        png::BitDepth::Eight
    });
    enc.set_compression(compression);
    if let Some((frames, timing)) = animation {
        enc.set_animated(frames, 0).map_err(other)?;
        let (num, den) = timing.apng_delay();
        enc.set_frame_delay(num, den).map_err(other)?;
    }
    let writer = enc.write_header().map_err(other)?;
    Ok(Box::new(PngSink { writer }))
}

impl<W: Write> Sink for PngSink<W> {
    fn frame(&mut self, pixels: Pixels<'_>) -> io::Result<()> {
        let data = match pixels {
            Pixels::Gray8(d) | Pixels::Gray16(d) | Pixels::Rgb8(d) | Pixels::Rgb16(d) => d,
            Pixels::F32(_) => return Err(other("PNG cannot store float pixels")),
        };
        self.writer.write_image_data(data).map_err(other)
    }

    fn finish(self: Box<Self>) -> io::Result<()> {
        self.writer.finish().map_err(other)
    }
}

/// GIF.
struct GifSink<W: Write> {
    encoder: Option<gif::Encoder<W>>,
    width: u16,
    height: u16,
    delay: u16,
}

/// Starts a GIF. Index frames ([`Pixels::Gray8`]) use `palette` (256 RGB
/// entries); RGB frames get their own palette from the gif crate's NeuQuant
/// quantiser.
pub fn gif<'w, W: Write + 'w>(
    w: W,
    width: u16,
    height: u16,
    palette: &[u8],
    animation: Option<Timing>,
) -> io::Result<Box<dyn Sink + 'w>> {
    let mut encoder = gif::Encoder::new(w, width, height, palette).map_err(other)?;
    let delay = match animation {
        Some(t) => {
            encoder.set_repeat(gif::Repeat::Infinite).map_err(other)?;
            t.gif_delay()
        }
        None => 0,
    };
    Ok(Box::new(GifSink {
        encoder: Some(encoder),
        width,
        height,
        delay,
    }))
}

impl<W: Write> Sink for GifSink<W> {
    fn frame(&mut self, pixels: Pixels<'_>) -> io::Result<()> {
        let (w, h) = (self.width, self.height);
        let mut frame = match pixels {
            Pixels::Gray8(d) => gif::Frame::from_indexed_pixels(w, h, d, None),
            Pixels::Rgb8(d) => gif::Frame::from_rgb_speed(w, h, d, 10),
            _ => return Err(other("GIF stores 8-bit indexed pixels only")),
        };
        frame.delay = self.delay;
        let encoder = self.encoder.as_mut().ok_or_else(|| other("GIF finished"))?;
        encoder.write_frame(&frame).map_err(other)
    }

    fn finish(mut self: Box<Self>) -> io::Result<()> {
        let encoder = self.encoder.take().ok_or_else(|| other("GIF finished"))?;
        // into_inner writes the trailer; dropping would too, but silently.
        encoder.into_inner().map_err(other).map(drop)
    }
}

/// TIFF: one Gray32Float page per frame, uncompressed for the widest
/// compatibility.
struct TiffSink<W: Write + Seek, K: tiff::encoder::TiffKind> {
    encoder: tiff::encoder::TiffEncoder<W, K>,
    width: u32,
    height: u32,
}

/// Starts a TIFF. `big` selects BigTIFF, needed past 4 GiB.
pub fn tiff<'w, W: Write + Seek + 'w>(
    w: W,
    width: u32,
    height: u32,
    big: bool,
) -> io::Result<Box<dyn Sink + 'w>> {
    use tiff::encoder::TiffEncoder;
    Ok(if big {
        Box::new(TiffSink {
            encoder: TiffEncoder::new_big(w).map_err(other)?,
            width,
            height,
        })
    } else {
        Box::new(TiffSink {
            encoder: TiffEncoder::new(w).map_err(other)?,
            width,
            height,
        })
    })
}

impl<W: Write + Seek, K: tiff::encoder::TiffKind> Sink for TiffSink<W, K> {
    fn frame(&mut self, pixels: Pixels<'_>) -> io::Result<()> {
        let Pixels::F32(data) = pixels else {
            return Err(other("TIFF output stores float pixels only"));
        };
        self.encoder
            .write_image::<tiff::encoder::colortype::Gray32Float>(self.width, self.height, data)
            .map_err(other)
    }

    fn finish(self: Box<Self>) -> io::Result<()> {
        Ok(())
    }
}

/// Raw little-endian f32.
struct RawSink<W: Write> {
    w: W,
}

/// Starts a raw f32 file: no header, just the samples.
pub fn raw<'w, W: Write + 'w>(w: W) -> Box<dyn Sink + 'w> {
    Box::new(RawSink { w })
}

impl<W: Write> Sink for RawSink<W> {
    fn frame(&mut self, pixels: Pixels<'_>) -> io::Result<()> {
        let Pixels::F32(data) = pixels else {
            return Err(other("raw output stores float pixels only"));
        };
        let mut buf = [0u8; 4096];
        for chunk in data.chunks(buf.len() / 4) {
            for (b, v) in buf.chunks_exact_mut(4).zip(chunk) {
                b.copy_from_slice(&v.to_le_bytes());
            }
            self.w.write_all(&buf[..chunk.len() * 4])?;
        }
        Ok(())
    }

    fn finish(self: Box<Self>) -> io::Result<()> {
        Ok(())
    }
}
