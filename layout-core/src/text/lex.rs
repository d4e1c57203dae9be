//! The lexer: XLA's `hlo_lexer.cc` rules for the tokens of a shape.

use core::ops::Range;

use crate::model::{Error, ErrorKind};

/// A token kind. Integers carry their value, or `None` when it overflowed `i64`
/// (the lexer reports that and the parser goes on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tok<'a> {
    Ident(&'a str),
    Int(Option<i64>),
    /// Digits run together with letters, `_` or `.` (`4.0`, `1e5`, `0x10`, `2x3`): a number
    /// XLA does not read as an integer. Never valid; the parser reports it where it stands.
    BadNumber(&'a str),
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    LParen,
    RParen,
    Comma,
    Colon,
    Star,
    Hash,
    Plus,
    Tilde,
    Question,
    Le,
    /// A character that starts no shape token, met while lexing a shape embedded in larger
    /// text (an HLO module), where it belongs to the surrounding text: `%`, `=`, `"`...
    Foreign(&'a str),
    Eof,
}

impl Tok<'_> {
    /// How the token is named in messages.
    pub(crate) fn describe(self) -> alloc::string::String {
        use alloc::format;
        match self {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Int(Some(v)) => format!("integer `{v}`"),
            Tok::Int(None) => "an integer".into(),
            Tok::BadNumber(s) => format!("`{s}`, which is not a whole decimal integer"),
            Tok::LBracket => "`[`".into(),
            Tok::RBracket => "`]`".into(),
            Tok::LBrace => "`{`".into(),
            Tok::RBrace => "`}`".into(),
            Tok::LParen => "`(`".into(),
            Tok::RParen => "`)`".into(),
            Tok::Comma => "`,`".into(),
            Tok::Colon => "`:`".into(),
            Tok::Star => "`*`".into(),
            Tok::Hash => "`#`".into(),
            Tok::Plus => "`+`".into(),
            Tok::Tilde => "`~`".into(),
            Tok::Question => "`?`".into(),
            Tok::Le => "`<=`".into(),
            Tok::Foreign(s) => format!("`{s}`"),
            Tok::Eof => "the end of the input".into(),
        }
    }
}

/// A token and its byte range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token<'a> {
    pub(crate) tok: Tok<'a>,
    pub(crate) span: Range<usize>,
}

/// Splits text into tokens, skipping whitespace and `/* */`, `//` comments.
pub(crate) struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    /// Lexing a shape inside larger text: a character that starts no token is a
    /// [`Tok::Foreign`] token rather than an error, since the text around the shape has
    /// tokens of its own.
    embedded: bool,
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(src: &'a str) -> Self {
        Lexer {
            src,
            pos: 0,
            embedded: false,
        }
    }

    /// A lexer for a shape embedded in `src` at byte `pos`; spans stay absolute in `src`.
    pub(crate) fn embedded(src: &'a str, pos: usize) -> Self {
        Lexer {
            src,
            pos,
            embedded: true,
        }
    }

    fn bytes(&self) -> &'a [u8] {
        self.src.as_bytes()
    }

    fn skip_trivia(&mut self) -> Result<(), Error> {
        let b = self.bytes();
        loop {
            match b.get(self.pos..self.pos + 2) {
                Some(b"/*") => {
                    let start = self.pos;
                    match self.src[self.pos + 2..].find("*/") {
                        Some(end) => self.pos += 2 + end + 2,
                        None => {
                            return Err(Error::new(
                                ErrorKind::UnterminatedComment,
                                Some(start..start + 2),
                                "this `/*` comment is never closed; end it with `*/`",
                            ));
                        }
                    }
                    continue;
                }
                Some(b"//") => {
                    self.pos = self.src[self.pos..]
                        .find('\n')
                        .map_or(self.src.len(), |n| self.pos + n);
                    continue;
                }
                _ => {}
            }
            match b.get(self.pos) {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.pos += 1,
                _ => return Ok(()),
            }
        }
    }

    /// The next token, or an error (fatal for the lexer, except integer overflow which is
    /// reported through `overflow`).
    pub(crate) fn next_token(
        &mut self,
        overflow: &mut alloc::vec::Vec<Error>,
    ) -> Result<Token<'a>, Error> {
        self.skip_trivia()?;
        let b = self.bytes();
        let start = self.pos;
        let Some(&c) = b.get(start) else {
            return Ok(Token {
                tok: Tok::Eof,
                span: start..start,
            });
        };
        let single = |tok| Some((tok, 1));
        let punct = match c {
            b'[' => single(Tok::LBracket),
            b']' => single(Tok::RBracket),
            b'{' => single(Tok::LBrace),
            b'}' => single(Tok::RBrace),
            b'(' => single(Tok::LParen),
            b')' => single(Tok::RParen),
            b',' => single(Tok::Comma),
            b':' => single(Tok::Colon),
            b'*' => single(Tok::Star),
            b'#' => single(Tok::Hash),
            b'+' => single(Tok::Plus),
            b'~' => single(Tok::Tilde),
            b'?' => single(Tok::Question),
            b'<' if b.get(start + 1) == Some(&b'=') => Some((Tok::Le, 2)),
            _ => None,
        };
        if let Some((tok, len)) = punct {
            self.pos += len;
            return Ok(Token {
                tok,
                span: start..self.pos,
            });
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let len = b[start..]
                .iter()
                .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-')))
                .unwrap_or(b.len() - start);
            self.pos += len;
            return Ok(Token {
                tok: Tok::Ident(&self.src[start..self.pos]),
                span: start..self.pos,
            });
        }
        let negative = c == b'-';
        let digits_start = start + usize::from(negative);
        let ndigits = b[digits_start..]
            .iter()
            .position(|c| !c.is_ascii_digit())
            .unwrap_or(b.len() - digits_start);
        if ndigits > 0 {
            self.pos = digits_start + ndigits;
            let rest = b[self.pos..]
                .iter()
                .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.')))
                .unwrap_or(b.len() - self.pos);
            if rest > 0 {
                self.pos += rest;
                return Ok(Token {
                    tok: Tok::BadNumber(&self.src[start..self.pos]),
                    span: start..self.pos,
                });
            }
            let text = &self.src[start..self.pos];
            let value = text.parse::<i64>().ok();
            if value.is_none() {
                overflow.push(Error::new(
                    ErrorKind::IntegerOverflow,
                    Some(start..self.pos),
                    alloc::format!(
                        "integer {text} does not fit in a signed 64-bit integer; \
                         XLA's values range over {}..={}",
                        i64::MIN,
                        i64::MAX
                    ),
                ));
            }
            return Ok(Token {
                tok: Tok::Int(value),
                span: start..self.pos,
            });
        }
        let ch = self.src[start..].chars().next().unwrap_or('\u{fffd}');
        let end = start + ch.len_utf8();
        if self.embedded {
            self.pos = end;
            return Ok(Token {
                tok: Tok::Foreign(&self.src[start..end]),
                span: start..end,
            });
        }
        let hint = match c {
            b'<' => "; a bounded dimension is written `<=N`",
            b'-' => "; `-` must be followed by digits",
            b'.' => "; shape text has only whole numbers",
            _ => "",
        };
        Err(Error::new(
            ErrorKind::InvalidCharacter,
            Some(start..end),
            alloc::format!(
                "unexpected character `{}` in shape text{hint}",
                ch.escape_debug()
            ),
        ))
    }
}
