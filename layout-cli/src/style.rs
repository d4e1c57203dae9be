//! The colours of the output. Text is written with ANSI styles; `anstream` strips them when
//! the stream is not a terminal, `NO_COLOR` is set or `--color never` was given.

use anstyle::{AnsiColor, Style};

/// `error` and carets under the error's span.
pub(crate) const ERROR: Style = AnsiColor::Red.on_default().bold();
/// The `-->` location arrow and the `|` gutter.
pub(crate) const GUTTER: Style = AnsiColor::Blue.on_default().bold();
/// Section headings of `explain`.
pub(crate) const HEADING: Style = Style::new().bold();
/// Canonical shape text.
pub(crate) const SHAPE: Style = AnsiColor::Green.on_default();
/// Warnings (heavy padding).
pub(crate) const WARNING: Style = AnsiColor::Yellow.on_default().bold();
/// Axis labels and elisions (`... N more`).
pub(crate) const DIM: Style = Style::new().dimmed();

/// `text` wrapped in the style's escape codes.
pub(crate) fn paint(style: Style, text: &str) -> String {
    format!("{style}{text}{style:#}")
}
