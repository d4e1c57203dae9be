//! Renders an [`Error`] against its source text the way rustc does, in time and memory
//! proportional to the text and the number of errors shown, however long its lines.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::model::{Error, Errors};

/// The most source characters shown for one error: a longer line is shown as a window around
/// the error, cut with `...`.
const LINE_WINDOW: usize = 120;

/// How many characters of context the window shows before the error.
const CONTEXT_BEFORE: usize = 40;

/// The most errors [`Errors::render`] shows; the rest are counted in a final line.
///
/// ```
/// let text = format!("({}f32[])", "f32[-1],".repeat(150)); // 150 negative dimensions
/// let errors = xla_layout::parse(&text).unwrap_err();
/// assert_eq!(errors.len(), 150);
/// let out = errors.render(&text, "<input>");
/// assert_eq!(out.matches("error:").count(), xla_layout::MAX_RENDERED_ERRORS);
/// assert!(out.ends_with("... and 50 more errors\n"));
/// ```
pub const MAX_RENDERED_ERRORS: usize = 100;

/// Renders `error` like a rustc diagnostic: the message, the location (`origin:line:column`),
/// the source line, and a caret underline under the error's byte range. An error without a
/// span renders as its message alone. A line longer than 120 characters is shown as a window
/// around the error, so the output stays short however long the line.
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
    let mut out = String::new();
    Renderer::new(source).push(&mut out, origin, error);
    out
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Walks the source forward through errors sorted by position, so that finding the line and
/// column of every error costs one pass over the text in total.
struct Renderer<'a> {
    source: &'a str,
    /// Byte position the cursor has reached, its 1-based line, the start of that line and
    /// the character column of the position in it.
    pos: usize,
    line_no: usize,
    line_start: usize,
    col: usize,
}

impl<'a> Renderer<'a> {
    fn new(source: &'a str) -> Self {
        Renderer {
            source,
            pos: 0,
            line_no: 1,
            line_start: 0,
            col: 0,
        }
    }

    /// Moves the cursor to byte `to` (a char boundary), forward or, rarely, back to 0 first.
    fn seek(&mut self, to: usize) {
        if to < self.pos {
            *self = Renderer::new(self.source);
        }
        for (i, c) in self.source[self.pos..to].char_indices() {
            if c == '\n' {
                self.line_no += 1;
                self.line_start = self.pos + i + 1;
                self.col = 0;
            } else {
                self.col += 1;
            }
        }
        self.pos = to;
    }

    fn push(&mut self, out: &mut String, origin: &str, error: &Error) {
        out.push_str(&format!("error: {}\n", error.message()));
        let Some(span) = error.span() else {
            return;
        };
        let source = self.source;
        let start = floor_char_boundary(source, span.start.min(source.len()));
        let end = floor_char_boundary(source, span.end.clamp(start, source.len()));
        self.seek(start);
        let (line_no, line_start, col) = (self.line_no, self.line_start, self.col);
        let line_end = source[start..]
            .find('\n')
            .map_or(source.len(), |i| start + i);
        let line = source[line_start..line_end].trim_end_matches('\r');
        let line_end = line_start + line.len();
        // The window of the line shown: all of it when short, else from a little before the
        // error on, at most LINE_WINDOW characters.
        let (shown_from, skipped) = if col > CONTEXT_BEFORE && line.len() > LINE_WINDOW {
            let mut from = start;
            for _ in 0..CONTEXT_BEFORE {
                from = floor_char_boundary(source, from - 1);
            }
            (from, true)
        } else {
            (line_start, false)
        };
        let shown_to = source[shown_from..line_end]
            .char_indices()
            .take(LINE_WINDOW)
            .last()
            .map_or(shown_from, |(i, c)| shown_from + i + c.len_utf8());
        let cut = shown_to < line_end;
        let caret_col = if skipped { CONTEXT_BEFORE + 3 } else { col };
        let width = source[start..end.min(shown_to).max(start)]
            .chars()
            .count()
            .max(1);
        let gutter = format!("{line_no}").len();
        let pad = " ".repeat(gutter);
        out.push_str(&format!("{pad}--> {origin}:{line_no}:{}\n", col + 1));
        out.push_str(&format!(
            "{pad} |\n{line_no} | {}{}{}\n",
            if skipped { "..." } else { "" },
            &source[shown_from..shown_to],
            if cut { "..." } else { "" }
        ));
        out.push_str(&format!(
            "{pad} | {}{}\n",
            " ".repeat(caret_col),
            "^".repeat(width)
        ));
    }
}

impl Errors {
    /// Renders the errors like rustc does, against the text they were found in (see
    /// [`render`](crate::render)): the first [`MAX_RENDERED_ERRORS`], then a line saying how
    /// many more there are. One pass over the text, however many errors and however long
    /// the lines.
    ///
    /// ```
    /// let text = "f32[2,3]{0,0}";
    /// let out = xla_layout::parse(text).unwrap_err().render(text, "<input>");
    /// assert!(out.contains("^"));
    /// ```
    pub fn render(&self, source: &str, origin: &str) -> String {
        let mut out = String::new();
        let mut renderer = Renderer::new(source);
        let shown: Vec<&Error> = self.iter().take(MAX_RENDERED_ERRORS).collect();
        for e in &shown {
            renderer.push(&mut out, origin, e);
        }
        let more = self.len() - shown.len();
        if more > 0 {
            let s = if more == 1 { "" } else { "s" };
            out.push_str(&format!("... and {more} more error{s}\n"));
        }
        out
    }
}
