//! The literal's tokens as text, with a map from byte ranges back to token spans.

use std::ops::Range;

use proc_macro2::{Delimiter, Ident, Span, TokenStream, TokenTree};

/// The text of the literal and where each token of it came from.
pub(crate) struct Source {
    text: String,
    spans: Vec<(Range<usize>, Span)>,
    word_ended: bool,
}

impl Source {
    pub(crate) fn new(tokens: Vec<TokenTree>) -> Source {
        let mut s = Source {
            text: String::new(),
            spans: Vec::new(),
            word_ended: false,
        };
        for t in tokens {
            s.push(t);
        }
        s
    }

    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    fn piece(&mut self, text: &str, span: Span, word: bool) {
        // Two words in a row need a space, or they would lex as one (`f32 x` != `f32x`).
        if word && self.word_ended {
            self.text.push(' ');
        }
        let start = self.text.len();
        self.text.push_str(text);
        self.spans.push((start..self.text.len(), span));
        self.word_ended = word;
    }

    fn push(&mut self, t: TokenTree) {
        match t {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::None => ("", ""),
                };
                self.piece(open, g.span_open(), false);
                for inner in g.stream() {
                    self.push(inner);
                }
                self.piece(close, g.span_close(), false);
            }
            TokenTree::Ident(i) => self.piece(&i.to_string(), i.span(), true),
            TokenTree::Literal(l) => self.piece(&l.to_string(), l.span(), true),
            TokenTree::Punct(p) => self.piece(&p.as_char().to_string(), p.span(), false),
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
        spanned(first, last, e.message())
    }

    /// The spans of every token whose text is `text` (to point at, say, each `?`).
    pub(crate) fn tokens_with_text(&self, text: &str) -> Vec<Span> {
        self.spans
            .iter()
            .filter(|(r, _)| &self.text[r.clone()] == text)
            .map(|(_, s)| *s)
            .collect()
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
