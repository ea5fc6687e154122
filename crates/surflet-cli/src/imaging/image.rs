//! The 8-bit image that the plots, the spectra, `analyze` and `gallery`
//! draw into and [`super::staged::StagedFiles`] writes as PNG.

/// An 8-bit image, grey or RGB, row-major.
pub struct Image {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Three bytes per pixel rather than one.
    pub rgb: bool,
    /// The pixels.
    pub data: Vec<u8>,
}

impl Image {
    /// An RGB image filled with one colour.
    pub fn rgb(width: u32, height: u32, fill: [u8; 3]) -> Image {
        let px = width as usize * height as usize;
        Image {
            width,
            height,
            rgb: true,
            data: fill.repeat(px),
        }
    }

    /// The same image in one byte per pixel if every pixel is a grey, which
    /// makes the file a third of the size.
    pub fn compact(self) -> Image {
        if !self.rgb
            || !self
                .data
                .chunks_exact(3)
                .all(|p| p[0] == p[1] && p[1] == p[2])
        {
            return self;
        }
        Image {
            data: self.data.chunks_exact(3).map(|p| p[0]).collect(),
            rgb: false,
            ..self
        }
    }
}
