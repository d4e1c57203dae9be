//! A progress bar on stderr for long work on large inputs, drawn only when stderr is a
//! terminal (never in pipes, files or tests).

use std::io::{self, IsTerminal};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// Work over at least this many bytes gets a progress bar.
const PROGRESS_BYTES: u64 = 8 << 20;

/// True when work over `bytes` should show progress: large, and stderr is a terminal.
pub(crate) fn wanted(bytes: u64) -> bool {
    bytes >= PROGRESS_BYTES && io::stderr().is_terminal()
}

/// A bar or spinner on stderr, or nothing (every method then does nothing).
pub(crate) struct Progress(Option<ProgressBar>);

impl Progress {
    /// A bar over `len` bytes labelled `message`, if `show`.
    pub(crate) fn bytes(show: bool, len: u64, message: &'static str) -> Progress {
        Progress::bar(
            show,
            len,
            message,
            "{msg} [{bar:30}] {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec}",
        )
    }

    /// A bar over `len` steps of some work, shown as a percentage, if `show`.
    pub(crate) fn steps(show: bool, len: u64, message: &'static str) -> Progress {
        Progress::bar(show, len, message, "{msg} [{bar:30}] {percent}% {elapsed}")
    }

    /// A spinner labelled `message` while work of unknown length runs, if `show`.
    pub(crate) fn spinner(show: bool, message: &'static str) -> Progress {
        if !show {
            return Progress(None);
        }
        let bar = ProgressBar::new_spinner().with_message(message);
        bar.enable_steady_tick(Duration::from_millis(100));
        Progress(Some(bar))
    }

    fn bar(show: bool, len: u64, message: &'static str, template: &str) -> Progress {
        if !show {
            return Progress(None);
        }
        let bar = ProgressBar::new(len).with_message(message);
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress(Some(bar))
    }

    /// Moves the bar `n` bytes or steps on.
    pub(crate) fn advance(&self, n: u64) {
        if let Some(bar) = &self.0 {
            bar.inc(n);
        }
    }

    /// Relabels the bar.
    pub(crate) fn message(&self, message: &'static str) {
        if let Some(bar) = &self.0 {
            bar.set_message(message);
        }
    }

    /// Removes the bar from the terminal.
    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
