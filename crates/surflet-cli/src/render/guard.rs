//! Refusing renders that cannot succeed, before anything is allocated or
//! written: too little memory, too little disk.

use super::plan::{Content, Plan};
use crate::imaging::encode::Format;
use crate::imaging::output;

impl Plan {
    /// An estimate of the peak memory of the render, in bytes: one frame of
    /// f64 samples, one of finished pixels, what the encoder copies, and
    /// each thread's row buffers.
    pub fn memory_needed(&self) -> u128 {
        let px = self.pixels();
        let samples = px * self.channels() as u128 * 8;
        let finished = px * self.pixel_bytes();
        let encoder = match (self.format, &self.content) {
            // png compresses a whole frame into memory before writing it.
            (Format::Png | Format::Apng, _) => finished + finished / 8,
            // gif copies the frame, to RGBA first when it must quantise.
            (Format::Gif, Content::Normal(_)) => px * 6,
            (Format::Gif, _) => px * 2,
            (Format::Tiff | Format::Raw, _) => 0,
        };
        let threads = rayon::current_num_threads() as u128;
        // Each thread's eight row buffers, and the shared x coordinates.
        let rows = (threads * 8 + 1) * u128::from(self.width) * 8;
        samples + finished + encoder + rows + (16 << 20)
    }

    /// Refuses a render that would not fit in memory, before allocating.
    pub fn check_memory(&self) -> Result<(), String> {
        let needed = self.memory_needed();
        let available = output::available_memory();
        if needed > u128::from(available) {
            return Err(format!(
                "a {}x{} render needs about {} of memory, but only {} is available; \
                 use a smaller --size",
                self.width,
                self.height,
                output::human_bytes(needed),
                output::human_bytes(available.into())
            ));
        }
        // usize may be 32 bits; the buffers must be indexable.
        let biggest = self.pixels() * self.channels() as u128 * 8;
        if biggest > isize::MAX as u128 {
            return Err(format!(
                "a {}x{} render is too large for this machine's address space",
                self.width, self.height
            ));
        }
        Ok(())
    }

    /// Refuses a render whose output could not fit on the disk it goes to,
    /// before writing anything: an animation of many large frames can ask
    /// for terabytes. Raw and TIFF are uncompressed, so their size is known;
    /// PNG and GIF compress, but noise compresses poorly, so they are refused
    /// only when even 4:1 compression would not fit. If the space is not
    /// known (the query fails), the render goes ahead: a full disk then fails
    /// the write, and the staged file is removed.
    pub fn check_disk(&self) -> Result<(), String> {
        let bytes = self.pixels() * self.pixel_bytes() * u128::from(self.frames);
        let ratio = match self.format {
            Format::Raw | Format::Tiff => 1,
            Format::Png | Format::Apng | Format::Gif => 4,
        };
        let dir = output::parent_dir(&self.output);
        let Ok(free) = fs4::available_space(&dir) else {
            return Ok(());
        };
        // Pseudo file systems (/proc, /sys) report no size at all; whether
        // they take a file is for creating it to tell, with its own error.
        if fs4::total_space(&dir).is_ok_and(|t| t == 0) {
            return Ok(());
        }
        if bytes / ratio > u128::from(free) {
            let frames = if self.frames > 1 {
                format!(" in {} frames", self.frames)
            } else {
                String::new()
            };
            return Err(format!(
                "{}: a {}x{} image{frames} is about {} of pixel data, but only {} is free \
                 in {}; use a smaller --size or fewer --frames",
                self.output.display(),
                self.width,
                self.height,
                output::human_bytes(bytes),
                output::human_bytes(free.into()),
                dir.display()
            ));
        }
        Ok(())
    }
}
