//! The colours of the output. Whether a stream gets colour is decided once, by `anstream`
//! (`--color`, then `NO_COLOR`, `CLICOLOR_FORCE` and whether the stream is a terminal); text
//! for a stream without colour is written without escape codes at all.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

use anstream::{AutoStream, ColorChoice};
use anstyle::{AnsiColor, Style};

/// `error` and carets under the error's span.
pub(crate) const ERROR: Style = AnsiColor::Red.on_default().bold();
/// The `-->` location arrow and the `|` gutter.
pub(crate) const GUTTER: Style = AnsiColor::Blue.on_default().bold();
/// Section headings of `explain`, and error messages.
pub(crate) const HEADING: Style = Style::new().bold();
/// Canonical shape text.
pub(crate) const SHAPE: Style = AnsiColor::Green.on_default();
/// Warnings (heavy padding).
pub(crate) const WARNING: Style = AnsiColor::Yellow.on_default().bold();
/// Axis labels and elisions (`... N more`).
pub(crate) const DIM: Style = Style::new().dimmed();

static STDOUT_COLOR: AtomicBool = AtomicBool::new(false);
static STDERR_COLOR: AtomicBool = AtomicBool::new(false);

/// Decides, once, whether stdout and stderr get colour.
pub(crate) fn init(choice: ColorChoice) {
    choice.write_global();
    let on = |c: ColorChoice| c != ColorChoice::Never;
    STDOUT_COLOR.store(on(AutoStream::choice(&io::stdout())), Ordering::Relaxed);
    STDERR_COLOR.store(on(AutoStream::choice(&io::stderr())), Ordering::Relaxed);
}

fn paint(on: &AtomicBool, style: Style, text: &str) -> String {
    if on.load(Ordering::Relaxed) {
        format!("{style}{text}{style:#}")
    } else {
        text.to_string()
    }
}

/// `text` in the style, for stdout.
pub(crate) fn out(style: Style, text: &str) -> String {
    paint(&STDOUT_COLOR, style, text)
}

/// `text` in the style, for stderr.
pub(crate) fn err(style: Style, text: &str) -> String {
    paint(&STDERR_COLOR, style, text)
}
