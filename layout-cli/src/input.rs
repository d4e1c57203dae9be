//! Where inputs come from: command-line arguments, or `-` for stdin (one input per non-blank
//! line), each remembered with its origin and line so errors point at the right place.

use std::io::{self, BufRead, IsTerminal};

/// The origin of inputs given as arguments.
pub(crate) const ARGUMENT: &str = "<input>";
/// The origin of inputs read from stdin.
pub(crate) const STDIN: &str = "<stdin>";

/// One input: a shape's text and where it came from.
#[derive(Debug)]
pub(crate) struct Input {
    /// The text, without its line ending.
    pub(crate) text: String,
    /// [`ARGUMENT`] or [`STDIN`].
    pub(crate) origin: &'static str,
    /// The 1-based line of the text's first line in its origin.
    pub(crate) line: usize,
}

impl Input {
    /// An input given as a command-line argument.
    pub(crate) fn argument(text: &str) -> Input {
        Input {
            text: text.to_string(),
            origin: ARGUMENT,
            line: 1,
        }
    }

    /// True when the input was read from a stream (its line number means something).
    pub(crate) fn is_from_stream(&self) -> bool {
        self.origin == STDIN
    }
}

/// The non-blank lines of a reader, numbered from 1 (blank lines count but are skipped);
/// invalid UTF-8 is replaced, `\r\n` endings are accepted.
pub(crate) fn lines(reader: impl BufRead, origin: &'static str) -> io::Result<Vec<Input>> {
    let mut inputs = Vec::new();
    for (n, line) in reader.split(b'\n').enumerate() {
        let line = line?;
        let text = String::from_utf8_lossy(&line);
        let text = text.strip_suffix('\r').unwrap_or(&text);
        if !text.trim().is_empty() {
            inputs.push(Input {
                text: text.to_string(),
                origin,
                line: n + 1,
            });
        }
    }
    Ok(inputs)
}

/// The lines of stdin (see [`lines`]).
pub(crate) fn stdin_lines() -> io::Result<Vec<Input>> {
    lines(io::stdin().lock(), STDIN)
}

/// True when stdin is a terminal (nothing was piped in).
pub(crate) fn stdin_is_terminal() -> bool {
    io::stdin().is_terminal()
}

/// The inputs named by arguments in order, `-` standing for the lines of stdin; no
/// arguments at all means stdin.
pub(crate) fn gather(args: &[String]) -> io::Result<Vec<Input>> {
    if args.is_empty() {
        return stdin_lines();
    }
    let mut inputs = Vec::new();
    for a in args {
        if a == "-" {
            inputs.extend(stdin_lines()?);
        } else {
            inputs.push(Input::argument(a));
        }
    }
    Ok(inputs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_numbered_in_the_stream_and_blank_lines_skipped() {
        let got = lines(&b"f32[2]\n\n  \r\ns32[]\r\n"[..], STDIN).unwrap();
        let got: Vec<(&str, usize)> = got.iter().map(|i| (i.text.as_str(), i.line)).collect();
        assert_eq!(got, [("f32[2]", 1), ("s32[]", 4)]);
    }
}
