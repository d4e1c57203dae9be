//! Renders an [`Error`] against its source text the way rustc does.

use alloc::format;
use alloc::string::String;

use crate::model::{Error, Errors};

/// Renders `error` like a rustc diagnostic: the message, the location (`origin:line:column`),
/// the source line, and a caret underline under the error's byte range. An error without a
/// span renders as its message alone.
///
/// ```
/// let text = "f32[2,3]{1,1}";
/// let errs = xla_layout::parse(text).unwrap_err();
/// let out = xla_layout::render(text, "<stdin>", &errs[0]);
/// assert_eq!(out, "\
/// error: minor_to_major has 1 twice; expected a permutation of 0..2 (missing: 0)
///  --> <stdin>:1:12
///   |
/// 1 | f32[2,3]{1,1}
///   |            ^
/// ");
/// ```
pub fn render(source: &str, origin: &str, error: &Error) -> String {
    let mut out = format!("error: {}\n", error.message());
    let Some(span) = error.span() else {
        return out;
    };
    let start = floor_char_boundary(source, span.start.min(source.len()));
    let end = floor_char_boundary(source, span.end.clamp(start, source.len()));
    let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = source[start..]
        .find('\n')
        .map_or(source.len(), |i| start + i);
    let line_no = source[..start].matches('\n').count() + 1;
    let line = source[line_start..line_end].trim_end_matches('\r');
    let col = source[line_start..start].chars().count();
    let width = source[start..end.min(line_end).max(start)]
        .chars()
        .count()
        .max(1);
    let gutter = format!("{line_no}").len();
    let pad = " ".repeat(gutter);
    out.push_str(&format!("{pad}--> {origin}:{line_no}:{}\n", col + 1));
    out.push_str(&format!("{pad} |\n{line_no} | {line}\n"));
    out.push_str(&format!(
        "{pad} | {}{}\n",
        " ".repeat(col),
        "^".repeat(width)
    ));
    out
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

impl Errors {
    /// Renders every error like rustc does, against the text they were found in.
    /// See [`render`](crate::render).
    ///
    /// ```
    /// let text = "f32[2,3]{0,0}";
    /// let out = xla_layout::parse(text).unwrap_err().render(text, "<input>");
    /// assert!(out.contains("^"));
    /// ```
    pub fn render(&self, source: &str, origin: &str) -> String {
        let mut out = String::new();
        for e in self {
            out.push_str(&render(source, origin, e));
        }
        out
    }
}
