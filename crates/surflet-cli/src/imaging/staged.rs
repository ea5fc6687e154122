//! The staged output of the commands that write several files into one
//! directory (`analyze`, `gallery`), written once for both.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::encode::{self, Pixels, PngLayout};
use super::image::Image;
use super::output::{Guarded, Staged, interrupted};
use crate::CliError;

/// The files of a command that writes several into one directory
/// (`analyze`, `gallery`): each is staged as a temporary file there, and
/// all are renamed into place together at the end, so that dropping this
/// before [`StagedFiles::commit`] (an error, Ctrl-C) leaves nothing.
pub struct StagedFiles {
    dir: PathBuf,
    /// The names the command may write: its documented list of files.
    names: &'static [&'static str],
    staged: Vec<(&'static str, Staged)>,
}

impl StagedFiles {
    /// Files in `dir`, each one of `names`.
    pub fn new(dir: &Path, names: &'static [&'static str]) -> StagedFiles {
        StagedFiles {
            dir: dir.to_path_buf(),
            names,
            staged: Vec::new(),
        }
    }

    /// Stages the file `name` with what `write` writes.
    pub fn stage(
        &mut self,
        name: &'static str,
        write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> Result<(), CliError> {
        debug_assert!(self.names.contains(&name), "{name} is not in the list");
        if interrupted() {
            return Err(CliError::Interrupted);
        }
        let target = self.dir.join(name);
        let staged = Staged::new(&target).map_err(CliError::Runtime)?;
        let mut w = BufWriter::with_capacity(1 << 20, Guarded(staged.file()));
        let result = write(&mut w).and_then(|()| w.flush());
        drop(w);
        match result {
            Ok(()) => {}
            Err(_) if interrupted() => return Err(CliError::Interrupted),
            Err(e) => {
                return Err(CliError::Runtime(format!(
                    "writing {}: {e}",
                    target.display()
                )));
            }
        }
        self.staged.push((name, staged));
        Ok(())
    }

    /// Stages `image` as an 8-bit PNG.
    pub fn png(&mut self, name: &'static str, image: &Image) -> Result<(), CliError> {
        self.stage(name, |w| {
            let layout = PngLayout {
                rgb: image.rgb,
                sixteen: false,
            };
            // Plots and smooth noise compress well: the balanced setting
            // makes plots a third of the fast setting's size, which matters
            // for the copies kept in docs/.
            let mut sink = encode::png_with(
                w,
                image.width,
                image.height,
                layout,
                None,
                png::Compression::Balanced,
            )?;
            sink.frame(if image.rgb {
                Pixels::Rgb8(&image.data)
            } else {
                Pixels::Gray8(&image.data)
            })?;
            sink.finish()
        })
    }

    /// Stages a text file.
    pub fn text(&mut self, name: &'static str, text: &str) -> Result<(), CliError> {
        self.stage(name, |w| w.write_all(text.as_bytes()))
    }

    /// The names staged so far, in order.
    pub fn names(&self) -> Vec<&'static str> {
        self.staged.iter().map(|s| s.0).collect()
    }

    /// Renames every staged file into place, in the order staged, unless
    /// an interrupt has arrived.
    pub fn commit(self, overwrite: bool) -> Result<(), CliError> {
        if interrupted() {
            return Err(CliError::Interrupted);
        }
        for (_, staged) in self.staged {
            staged.commit(overwrite).map_err(CliError::Runtime)?;
        }
        Ok(())
    }
}
