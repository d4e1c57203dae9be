//! The literal's tokens as text, with a map from byte ranges back to token spans.

use std::ops::Range;

use proc_macro2::{Delimiter, Ident, Spacing, Span, TokenStream, TokenTree};

/// What kind of token the text so far ends with: two tokens that Rust kept apart must not run
/// together into one token of the shape grammar.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ending {
    /// An identifier or literal: a following word needs a space (`f32 x` is not `f32x`).
    Word,
    /// A punctuation character not joined to the next one in the Rust source: a following
    /// punctuation character needs a space (`< =` is not `<=`, `/ /` is not a comment).
    AlonePunct,
    /// Anything else (a delimiter, a joined punctuation character, the start).
    Other,
}

/// The text of the literal and where each token of it came from.
pub(crate) struct Source {
    text: String,
    spans: Vec<(Range<usize>, Span)>,
    ending: Ending,
}

impl Source {
    pub(crate) fn new(tokens: &[TokenTree]) -> Source {
        let mut s = Source {
            text: String::new(),
            spans: Vec::new(),
            ending: Ending::Other,
        };
        for t in tokens {
            s.push(t.clone());
        }
        s
    }

    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    fn piece(&mut self, text: &str, span: Span, ending: Ending) {
        if ending != Ending::Other && ending == self.ending {
            self.text.push(' ');
        }
        let start = self.text.len();
        self.text.push_str(text);
        self.spans.push((start..self.text.len(), span));
        self.ending = ending;
    }

    fn push(&mut self, t: TokenTree) {
        match t {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{", "}"),
                    // An invisible group (from a `macro_rules!` fragment) adds no text.
                    Delimiter::None => {
                        g.stream().into_iter().for_each(|t| self.push(t));
                        return;
                    }
                };
                self.piece(open, g.span_open(), Ending::Other);
                g.stream().into_iter().for_each(|t| self.push(t));
                self.piece(close, g.span_close(), Ending::Other);
            }
            TokenTree::Ident(i) => self.piece(&i.to_string(), i.span(), Ending::Word),
            TokenTree::Literal(l) => self.piece(&l.to_string(), l.span(), Ending::Word),
            TokenTree::Punct(p) => {
                let ending = match p.spacing() {
                    Spacing::Alone => Ending::AlonePunct,
                    Spacing::Joint => Ending::Other,
                };
                self.piece(&p.as_char().to_string(), p.span(), ending);
            }
        }
    }

    /// The spans of the first and last tokens that overlap `range` (for an empty range at
    /// the end of the text, the last token).
    pub(crate) fn spans_of(&self, range: Range<usize>) -> (Span, Span) {
        let overlapping: Vec<Span> = self
            .spans
            .iter()
            .filter(|(r, _)| !r.is_empty())
            .filter(|(r, _)| {
                if range.is_empty() {
                    r.start <= range.start && range.start < r.end
                } else {
                    r.start < range.end && range.start < r.end
                }
            })
            .map(|(_, s)| *s)
            .collect();
        match (overlapping.first(), overlapping.last()) {
            (Some(&a), Some(&b)) => (a, b),
            _ => {
                let last = self
                    .spans
                    .iter()
                    .rev()
                    .find(|(r, _)| !r.is_empty() && r.start <= range.start)
                    .or(self.spans.last())
                    .map_or_else(Span::call_site, |(_, s)| *s);
                (last, last)
            }
        }
    }

    /// A compile error covering the tokens of a layout-core error.
    pub(crate) fn error(&self, e: &xla_layout_core::Error) -> syn::Error {
        let (first, last) = match e.span() {
            Some(r) => self.spans_of(r),
            None => self.spans_of(0..self.text.len()),
        };
        spanned(first, last, without_byte_offsets(e.message()))
    }
}

/// An error spanning from the `first` to the `last` token (on stable Rust, rustc underlines
/// from the start of the first to the end of the last).
pub(crate) fn spanned(first: Span, last: Span, message: impl std::fmt::Display) -> syn::Error {
    let tokens: TokenStream = [
        TokenTree::Ident(Ident::new("first", first)),
        TokenTree::Ident(Ident::new("last", last)),
    ]
    .into_iter()
    .collect();
    syn::Error::new_spanned(tokens, message)
}

/// A layout-core message without its references to byte offsets in the text the macro made
/// of the tokens (" (first at byte 13)"), which mean nothing in the user's source; the error's
/// span shows where the problem is.
fn without_byte_offsets(message: &str) -> String {
    const MARK: &str = " (first at byte ";
    match message.find(MARK) {
        Some(start) => match message[start..].find(')') {
            Some(len) => format!("{}{}", &message[..start], &message[start + len + 1..]),
            None => message.to_owned(),
        },
        None => message.to_owned(),
    }
}
