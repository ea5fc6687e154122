//! Getting bytes safely onto disk: a temporary file beside the output that
//! is renamed into place only when complete, Ctrl-C handling, and the
//! memory check that runs before anything large is allocated.

use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use tempfile::NamedTempFile;

/// Set by the Ctrl-C (and SIGTERM) handler; checked between rows, frames
/// and writes.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether an interrupt has arrived.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Installs the handler that turns Ctrl-C and SIGTERM into a flag, so the
/// render stops at the next row and cleans up instead of dying with a
/// temporary file on disk.
pub fn install_interrupt_handler() -> Result<(), String> {
    ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::Relaxed))
        .map_err(|e| format!("cannot install the Ctrl-C handler: {e}"))
}

/// A temporary file in the output's directory, so the final rename stays
/// on one filesystem and is atomic. Dropping it deletes it.
pub struct Staged {
    file: NamedTempFile,
    target: PathBuf,
}

impl Staged {
    /// Creates the temporary file next to `target`.
    pub fn new(target: &Path) -> Result<Staged, String> {
        let dir = parent_dir(target);
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        // NamedTempFile defaults to 0600; an image should get the same
        // permissions as any new file (0666 less the umask).
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let file = builder.tempfile_in(&dir).map_err(|e| {
            // tempfile's message names the random file; the OS error
            // alone is what the user needs.
            let e = e.raw_os_error().map_or(e, io::Error::from_raw_os_error);
            format!("cannot create a file in {}: {e}", dir.display())
        })?;
        Ok(Staged {
            file,
            target: target.to_path_buf(),
        })
    }

    /// The open temporary file.
    pub fn file(&self) -> &File {
        self.file.as_file()
    }

    /// Syncs the data to disk and renames the file onto the target, replacing
    /// an existing file only if `overwrite`. On error the temporary file is
    /// deleted.
    pub fn commit(self, overwrite: bool) -> Result<(), String> {
        let target = self.target;
        self.file
            .as_file()
            .sync_all()
            .map_err(|e| format!("writing {}: {e}", target.display()))?;
        let result = if overwrite {
            self.file.persist(&target)
        } else {
            self.file.persist_noclobber(&target)
        };
        match result {
            Ok(_) => Ok(()),
            Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => Err(format!(
                "{} appeared while rendering; not replacing it (--no-clobber)",
                target.display()
            )),
            Err(e) => Err(format!("cannot create {}: {}", target.display(), e.error)),
        }
    }
}

/// The directory a path's file lives in ("." for a bare name).
pub fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Checks, before rendering, that `target` can be created: its directory
/// exists and it is not a directory or, without `overwrite`, an existing
/// file.
pub fn check_target(target: &Path, overwrite: bool) -> Result<(), String> {
    let dir = parent_dir(target);
    match std::fs::metadata(&dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            return Err(format!(
                "cannot write {}: {} is not a directory",
                target.display(),
                dir.display()
            ));
        }
        Err(e) => {
            return Err(format!(
                "cannot write {}: directory {}: {e}",
                target.display(),
                dir.display()
            ));
        }
    }
    match std::fs::symlink_metadata(target) {
        Ok(m) if m.is_dir() => Err(format!("{} is a directory", target.display())),
        Ok(_) if !overwrite => Err(format!(
            "{} already exists (--no-clobber refuses to replace it)",
            target.display()
        )),
        _ => Ok(()),
    }
}

/// A writer that fails as soon as an interrupt arrives, so a long encode
/// stops promptly.
pub struct Guarded<W>(pub W);

/// The error a [`Guarded`] writer returns after an interrupt.
fn interrupted_error() -> io::Error {
    // Not ErrorKind::Interrupted: write_all would retry that forever.
    io::Error::other("interrupted")
}

impl<W: Write> Write for Guarded<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if interrupted() {
            return Err(interrupted_error());
        }
        self.0.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        if interrupted() {
            return Err(interrupted_error());
        }
        self.0.flush()
    }
}

impl<W: Seek> Seek for Guarded<W> {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.0.seek(pos)
    }
}

/// Memory this machine can give the render without swapping, in bytes.
///
/// Linux reports it as `MemAvailable`; elsewhere a conservative 4 GiB is
/// assumed, so oversized requests are still refused before they allocate.
pub fn available_memory() -> u64 {
    const FALLBACK: u64 = 4 << 30;
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| {
            s.lines().find_map(|l| {
                let kb = l.strip_prefix("MemAvailable:")?.trim().strip_suffix("kB")?;
                kb.trim().parse::<u64>().ok()
            })
        })
        .map_or(FALLBACK, |kb| kb.saturating_mul(1024))
}

/// Formats a byte count for messages: "1.5 GiB".
pub fn human_bytes(bytes: u128) -> String {
    const UNITS: [&str; 6] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = bytes as f64;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{v:.1} {}", UNITS[unit])
    }
}
