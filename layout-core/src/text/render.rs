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
    push(&mut out, origin, error, Snippets::new(source).of(error));
    out
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Where an error lies in its source text, and the window of its line that a diagnostic
/// shows: what [`render`] draws, for renderers of their own (with colour, or with line
/// numbers counted from elsewhere in a stream). Made by [`Snippets`].
///
/// ```
/// use xla_layout::Snippets;
/// let text = "f32[2,3]{1,1}";
/// let errors = xla_layout::parse(text).unwrap_err();
/// let s = Snippets::new(text).of(&errors[0]).unwrap();
/// assert_eq!((s.line, s.column, s.start, s.end), (1, 12, 11, 12));
/// assert_eq!((s.shown, s.caret, s.width), ("f32[2,3]{1,1}", 11, 1));
/// assert!(!s.cut_before && !s.cut_after);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snippet<'a> {
    /// The error's byte range in the source, on character boundaries.
    pub start: usize,
    /// See [`start`](Self::start).
    pub end: usize,
    /// The 1-based line of the error's start.
    pub line: usize,
    /// The 1-based column of the error's start, in characters.
    pub column: usize,
    /// The part of the line shown: all of it, or for a line longer than 120 characters a
    /// window of at most 120 from a little before the error.
    pub shown: &'a str,
    /// Whether the line goes on before `shown` (drawn as `...`).
    pub cut_before: bool,
    /// Whether the line goes on after `shown` (drawn as `...`).
    pub cut_after: bool,
    /// Characters of `shown` before the error.
    pub caret: usize,
    /// Characters of the error in `shown`, at least 1: the carets drawn.
    pub width: usize,
}

/// Finds the [`Snippet`] of each error of one source text, walking the text forward: errors
/// taken in order of position cost one pass over the text in total, however many there are
/// and however long the lines (an error before the last one restarts the walk).
///
/// ```
/// use xla_layout::Snippets;
/// let text = "(f32[-1],\n f32[2]{1})";
/// let errors = xla_layout::parse(text).unwrap_err();
/// let mut snippets = Snippets::new(text);
/// let lines: Vec<usize> = errors.iter().map(|e| snippets.of(e).unwrap().line).collect();
/// assert_eq!(lines, [1, 2]);
/// ```
#[derive(Clone, Debug)]
pub struct Snippets<'a> {
    source: &'a str,
    /// Byte position the walk has reached, its 1-based line, the start of that line and
    /// the character column of the position in it.
    pos: usize,
    line_no: usize,
    line_start: usize,
    col: usize,
}

impl<'a> Snippets<'a> {
    /// A walk over `source` from its start.
    ///
    /// ```
    /// let text = "f32[2]{1}";
    /// let errors = xla_layout::parse(text).unwrap_err();
    /// assert!(xla_layout::Snippets::new(text).of(&errors[0]).is_some());
    /// ```
    pub fn new(source: &'a str) -> Self {
        Snippets {
            source,
            pos: 0,
            line_no: 1,
            line_start: 0,
            col: 0,
        }
    }

    /// Moves the walk to byte `to` (a char boundary), forward or, rarely, back to 0 first.
    fn seek(&mut self, to: usize) {
        if to < self.pos {
            *self = Snippets::new(self.source);
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

    /// The snippet of `error`, or `None` for an error without a span.
    ///
    /// ```
    /// let text = format!("f32[{}]{{0,0}}", "1,".repeat(500) + "1"); // a long line
    /// let errors = xla_layout::parse(&text).unwrap_err();
    /// let s = xla_layout::Snippets::new(&text).of(&errors[0]).unwrap();
    /// assert!(s.cut_before && s.shown.chars().count() <= 120);
    /// assert_eq!(&s.shown[s.caret..s.caret + s.width], "{0,0}"); // ASCII: characters are bytes
    /// ```
    pub fn of(&mut self, error: &Error) -> Option<Snippet<'a>> {
        let span = error.span()?;
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
        // All of the line when short, else from a little before the error on, at most
        // LINE_WINDOW characters.
        let (shown_from, cut_before) = if col > CONTEXT_BEFORE && line.len() > LINE_WINDOW {
            let mut from = start;
            for _ in 0..CONTEXT_BEFORE {
                from = floor_char_boundary(source, from - 1);
            }
            (from, true)
        } else {
            (line_start, false)
        };
        let shown_to = source[shown_from..line_end.max(shown_from)]
            .char_indices()
            .take(LINE_WINDOW)
            .last()
            .map_or(shown_from, |(i, c)| shown_from + i + c.len_utf8());
        let caret = if cut_before { CONTEXT_BEFORE } else { col };
        let width = source[start.min(shown_to)..end.min(shown_to).max(start.min(shown_to))]
            .chars()
            .count()
            .max(1);
        Some(Snippet {
            start,
            end,
            line: line_no,
            column: col + 1,
            shown: &source[shown_from..shown_to],
            cut_before,
            cut_after: shown_to < line_end,
            caret,
            width,
        })
    }
}

/// Appends `error` drawn like rustc, with its snippet if it has one.
fn push(out: &mut String, origin: &str, error: &Error, snippet: Option<Snippet<'_>>) {
    out.push_str(&format!("error: {}\n", error.message()));
    let Some(s) = snippet else {
        return;
    };
    let pad = " ".repeat(format!("{}", s.line).len());
    out.push_str(&format!("{pad}--> {origin}:{}:{}\n", s.line, s.column));
    out.push_str(&format!(
        "{pad} |\n{} | {}{}{}\n",
        s.line,
        if s.cut_before { "..." } else { "" },
        s.shown,
        if s.cut_after { "..." } else { "" }
    ));
    let caret = s.caret + if s.cut_before { 3 } else { 0 };
    out.push_str(&format!(
        "{pad} | {}{}\n",
        " ".repeat(caret),
        "^".repeat(s.width)
    ));
}

impl Errors {
    /// Renders the errors like rustc does, against the text they were found in (see
    /// [`render`]): the first [`MAX_RENDERED_ERRORS`], then a line saying how
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
        let mut snippets = Snippets::new(source);
        let shown: Vec<&Error> = self.iter().take(MAX_RENDERED_ERRORS).collect();
        for e in &shown {
            push(&mut out, origin, e, snippets.of(e));
        }
        let more = self.len() - shown.len();
        if more > 0 {
            let s = if more == 1 { "" } else { "s" };
            out.push_str(&format!("... and {more} more error{s}\n"));
        }
        out
    }
}
