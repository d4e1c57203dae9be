//! Errors as rustc-style text (with colour) or JSON objects, at their line in the stream.
//!
//! The cost is linear in the input plus a bounded amount per error: positions are found in
//! one sweep over the text, and each error shows a window of at most [`SHOWN`] characters of
//! its line, so a megabyte line with thousands of errors renders quickly.

use std::fmt::Write as _;

use serde_json::{Value, json};
use xla_layout_core::Errors;

use crate::input::Input;
use crate::style::{self, ERROR, GUTTER, HEADING};

/// Characters of context shown before an error's start on a long line.
const BEFORE: usize = 40;
/// Characters of a line shown at most per error.
const SHOWN: usize = 100;

/// Where one error starts, in the whole stream.
struct Location {
    /// Byte range in the input's text (clamped to char boundaries).
    start: usize,
    end: usize,
    /// The 1-based line in the stream.
    line: usize,
    /// The 0-based column in characters.
    column: usize,
    /// Byte range of the error's line in the input's text.
    line_start: usize,
    line_end: usize,
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The location of every error that has a span, in one pass over the text.
fn locate(input: &Input, errors: &Errors) -> Vec<Option<Location>> {
    let text = input.text.as_str();
    let mut order: Vec<(usize, usize)> = errors
        .iter()
        .enumerate()
        .filter_map(|(i, e)| e.span().map(|s| (floor_char_boundary(text, s.start), i)))
        .collect();
    order.sort_unstable();
    let mut found: Vec<Option<Location>> = (0..errors.len()).map(|_| None).collect();
    let (mut pos, mut line, mut line_start, mut column) = (0, 0, 0, 0);
    let mut line_end = None;
    for (start, i) in order {
        for (k, c) in text[pos..start].char_indices() {
            if c == '\n' {
                line += 1;
                line_start = pos + k + 1;
                column = 0;
                line_end = None;
            } else {
                column += 1;
            }
        }
        pos = start;
        let end_of_line = *line_end
            .get_or_insert_with(|| text[start..].find('\n').map_or(text.len(), |k| start + k));
        let span_end = errors[i].span().map_or(start, |s| s.end);
        found[i] = Some(Location {
            start,
            end: floor_char_boundary(text, span_end.max(start)),
            line: input.line + line,
            column,
            line_start,
            line_end: end_of_line,
        });
    }
    found
}

/// Every error rendered like rustc, against the input's line in its stream.
pub(crate) fn render(input: &Input, errors: &Errors) -> String {
    let text = input.text.as_str();
    let mut out = String::new();
    for (e, loc) in errors.iter().zip(locate(input, errors)) {
        let _ = writeln!(
            out,
            "{}{}",
            style::err(ERROR, "error"),
            style::err(HEADING, &format!(": {}", e.message()))
        );
        let Some(loc) = loc else { continue };
        // A window of the line around the error.
        let (shown_start, lead) = if loc.column > BEFORE {
            let back = text[loc.line_start..loc.start]
                .char_indices()
                .rev()
                .nth(BEFORE - 1)
                .map_or(loc.line_start, |(k, _)| loc.line_start + k);
            (back, "...")
        } else {
            (loc.line_start, "")
        };
        let (shown_end, trail) = match text[shown_start..loc.line_end].char_indices().nth(SHOWN) {
            Some((k, _)) => (shown_start + k, "..."),
            None => (loc.line_end, ""),
        };
        let caret_column = lead.len() + text[shown_start..loc.start].chars().count();
        let width = text[loc.start..loc.end.min(shown_end).max(loc.start)]
            .chars()
            .count()
            .max(1);
        let line_no = loc.line.to_string();
        let pad = " ".repeat(line_no.len());
        let bar = style::err(GUTTER, "|");
        let _ = writeln!(
            out,
            "{pad}{} {}:{}:{}",
            style::err(GUTTER, "-->"),
            input.origin,
            loc.line,
            loc.column + 1
        );
        let _ = writeln!(out, "{pad} {bar}");
        let shown = text[shown_start..shown_end].trim_end_matches('\r');
        let _ = writeln!(
            out,
            "{} {bar} {lead}{shown}{trail}",
            style::err(GUTTER, &line_no)
        );
        let _ = writeln!(
            out,
            "{pad} {bar} {}{}",
            " ".repeat(caret_column),
            style::err(ERROR, &"^".repeat(width))
        );
    }
    out
}

/// The errors as JSON objects: byte range in the input, message, and the 1-based line and
/// column (in characters) in the stream.
pub(crate) fn json_errors(input: &Input, errors: &Errors) -> Vec<Value> {
    errors
        .iter()
        .zip(locate(input, errors))
        .map(|(e, loc)| match loc {
            Some(l) => json!({
                "start": l.start, "end": l.end, "message": e.message(),
                "line": l.line, "column": l.column + 1,
            }),
            None => json!({
                "start": 0, "end": input.text.len(), "message": e.message(),
                "line": input.line, "column": 1,
            }),
        })
        .collect()
}

/// The JSON line of an invalid input: `{"input", "ok": false, "errors": [...]}`, with the
/// input's `line` when it came from a stream.
pub(crate) fn json_invalid(input: &Input, errors: &Errors) -> Value {
    let mut v = json!({"input": input.text, "ok": false, "errors": json_errors(input, errors)});
    if input.is_from_stream() {
        v["line"] = json!(input.line);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::STDIN;

    fn stdin_line(text: &str, line: usize) -> Input {
        Input {
            text: text.to_string(),
            origin: STDIN,
            line,
        }
    }

    #[test]
    fn errors_on_the_nth_line_say_line_n() {
        let input = stdin_line("f32[2,3]{1,1}", 7);
        let errors = xla_layout_core::parse(&input.text).unwrap_err();
        let text = render(&input, &errors);
        assert!(text.contains(" --> <stdin>:7:12\n"), "{text}");
        assert!(text.contains("7 | f32[2,3]{1,1}\n"), "{text}");
        let json = json_errors(&input, &errors);
        assert_eq!(json[0]["line"], 7);
        assert_eq!(json[0]["column"], 12);
    }

    #[test]
    fn long_lines_show_a_window_with_the_caret_under_the_error() {
        let text = format!("f32[{}]{{0,0}}", "1,".repeat(500) + "1");
        let input = stdin_line(&text, 1);
        let errors = xla_layout_core::parse(&input.text).unwrap_err();
        let out = render(&input, &errors);
        for line in out.lines().filter(|l| l.contains(" | ")) {
            assert!(line.chars().count() < SHOWN + 20, "{line}");
        }
        assert!(out.contains("..."), "{out}");
    }
}
