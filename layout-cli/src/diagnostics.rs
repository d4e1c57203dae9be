//! Errors as rustc-style text (with colour) or JSON objects, at their line in the stream: the
//! snippets layout-core finds (`Snippets`, what its own `render` draws), coloured and with
//! line numbers counted from the input's line in the stream.
//!
//! The cost is linear in the input plus a bounded amount per error: the errors are located in
//! order of position, in one pass over the text, and each shows a window of at most 120
//! characters of its line, so a megabyte line with thousands of errors renders quickly.

use std::fmt::Write as _;

use serde_json::{Value, json};
use xla_layout_core::{Errors, Snippet, Snippets};

use crate::input::Input;
use crate::style::{self, ERROR, GUTTER, HEADING};

/// The snippet of every error that has a span, found in order of position.
fn locate<'a>(input: &'a Input, errors: &Errors) -> Vec<Option<Snippet<'a>>> {
    let mut order: Vec<(usize, usize)> = errors
        .iter()
        .enumerate()
        .filter_map(|(i, e)| e.span().map(|s| (s.start, i)))
        .collect();
    order.sort_unstable();
    let mut found = vec![None; errors.len()];
    let mut snippets = Snippets::new(&input.text);
    for (_, i) in order {
        found[i] = snippets.of(&errors[i]);
    }
    found
}

/// The line in the stream of a snippet's line in the input.
fn stream_line(input: &Input, s: &Snippet<'_>) -> usize {
    input.line + s.line - 1
}

/// Every error rendered like rustc, against the input's line in its stream.
pub(crate) fn render(input: &Input, errors: &Errors) -> String {
    let mut out = String::new();
    for (e, snippet) in errors.iter().zip(locate(input, errors)) {
        let _ = writeln!(
            out,
            "{}{}",
            style::err(ERROR, "error"),
            style::err(HEADING, &format!(": {}", e.message()))
        );
        let Some(s) = snippet else { continue };
        let line_no = stream_line(input, &s).to_string();
        let pad = " ".repeat(line_no.len());
        let bar = style::err(GUTTER, "|");
        let _ = writeln!(
            out,
            "{pad}{} {}:{line_no}:{}",
            style::err(GUTTER, "-->"),
            input.origin,
            s.column
        );
        let _ = writeln!(out, "{pad} {bar}");
        let (lead, trail) = (
            if s.cut_before { "..." } else { "" },
            if s.cut_after { "..." } else { "" },
        );
        let _ = writeln!(
            out,
            "{} {bar} {lead}{}{trail}",
            style::err(GUTTER, &line_no),
            s.shown
        );
        let _ = writeln!(
            out,
            "{pad} {bar} {}{}",
            " ".repeat(lead.len() + s.caret),
            style::err(ERROR, &"^".repeat(s.width))
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
        .map(|(e, snippet)| match snippet {
            Some(s) => json!({
                "start": s.start, "end": s.end, "message": e.message(),
                "line": stream_line(input, &s), "column": s.column,
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
            assert!(line.chars().count() < 120 + 20, "{line}");
        }
        assert!(out.contains("..."), "{out}");
    }
}
