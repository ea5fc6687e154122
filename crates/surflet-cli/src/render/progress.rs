//! The progress bar: shown on stderr once a render has run for a second,
//! and only when stderr is a terminal, so quick renders, pipes, logs and
//! tests see nothing.

use std::io::IsTerminal;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a render runs before the bar appears.
const DELAY: Duration = Duration::from_secs(1);

/// Counts rendered rows; safe to update from every rayon thread.
pub struct Progress {
    bar: ProgressBar,
    /// Dropping the sender tells the watcher the render is over.
    done: Option<mpsc::Sender<()>>,
    watcher: Option<JoinHandle<()>>,
}

impl Progress {
    /// A bar over `total` rows; hidden for good if `quiet` or stderr is not a
    /// terminal.
    pub fn new(total: u64, quiet: bool) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        if let Ok(style) =
            ProgressStyle::with_template("{msg:9} [{wide_bar}] {percent:>3}% eta {eta}")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message("rendering");
        if quiet || !std::io::stderr().is_terminal() {
            return Progress {
                bar,
                done: None,
                watcher: None,
            };
        }
        // A watcher thread rather than a check per row, so a slow encode
        // after a quick render also gets its bar.
        let (tx, rx) = mpsc::channel::<()>();
        let shown = bar.clone();
        let watcher = std::thread::spawn(move || {
            if let Err(RecvTimeoutError::Timeout) = rx.recv_timeout(DELAY) {
                shown.set_draw_target(ProgressDrawTarget::stderr());
                shown.enable_steady_tick(Duration::from_millis(200));
            }
        });
        Progress {
            bar,
            done: Some(tx),
            watcher: Some(watcher),
        }
    }

    /// `rows` more rows rendered.
    pub fn inc(&self, rows: u64) {
        self.bar.inc(rows);
    }

    /// A frame is being rendered.
    pub fn rendering(&self) {
        self.bar.set_message("rendering");
    }

    /// Rendering of a frame is done and it is being encoded.
    pub fn encoding(&self) {
        self.bar.set_message("encoding");
    }

    /// Removes the bar, if it was shown.
    pub fn finish(mut self) {
        drop(self.done.take());
        if let Some(w) = self.watcher.take() {
            let _ = w.join();
        }
        self.bar.finish_and_clear();
    }
}
