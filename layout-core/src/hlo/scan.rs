//! The byte-level scanner of HLO module text: trivia, identifiers, strings, and the skipping
//! of values the reader keeps raw (attribute values, literals), without recursion.

use alloc::format;
use core::ops::Range;

use crate::model::{Error, ErrorKind};

/// Byte classes, one bit each.
const IDENT_START: u8 = 1;
const IDENT: u8 = 2;
const SPACE: u8 = 4;
/// Bytes that end a raw value at depth 0 or change its depth: brackets, `,`, `"`, `/`,
/// whitespace.
const VALUE_STOP: u8 = 8;
/// Bytes that matter inside brackets: brackets, `"`, `/`.
const NESTED_STOP: u8 = 16;

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        let mut k = 0;
        if b.is_ascii_alphabetic() || b == b'_' {
            k |= IDENT_START | IDENT;
        }
        if b.is_ascii_digit() || b == b'.' || b == b'-' {
            k |= IDENT;
        }
        if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            k |= SPACE | VALUE_STOP;
        }
        if matches!(b, b'{' | b'}' | b'(' | b')' | b'[' | b']' | b'"' | b'/') {
            k |= VALUE_STOP | NESTED_STOP;
        }
        if b == b',' {
            k |= VALUE_STOP;
        }
        t[c] = k;
        c += 1;
    }
    t
};

fn class(b: u8) -> u8 {
    CLASS[usize::from(b)]
}

/// A position in the module text.
#[derive(Clone)]
pub(crate) struct Cursor<'a> {
    pub(crate) src: &'a str,
    bytes: &'a [u8],
    pub(crate) pos: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(src: &'a str) -> Self {
        Cursor {
            src,
            bytes: src.as_bytes(),
            pos: 0,
        }
    }

    pub(crate) fn at(src: &'a str, pos: usize) -> Self {
        Cursor {
            src,
            bytes: src.as_bytes(),
            pos,
        }
    }

    pub(crate) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    pub(crate) fn peek_at(&self, offset: usize) -> Option<u8> {
        self.bytes.get(self.pos + offset).copied()
    }

    /// Skips whitespace and comments.
    #[inline]
    pub(crate) fn skip_trivia(&mut self) -> Result<(), Error> {
        loop {
            while self.pos < self.bytes.len() && class(self.bytes[self.pos]) & SPACE != 0 {
                self.pos += 1;
            }
            if self.peek() != Some(b'/') {
                return Ok(());
            }
            match self.peek_at(1) {
                Some(b'*') => self.skip_block_comment()?,
                Some(b'/') => {
                    self.pos = memchr::memchr(b'\n', &self.bytes[self.pos..])
                        .map_or(self.bytes.len(), |n| self.pos + n);
                }
                _ => return Ok(()),
            }
        }
    }

    /// Skips a `/* ... */` comment that starts at the cursor.
    #[inline(never)]
    fn skip_block_comment(&mut self) -> Result<(), Error> {
        let start = self.pos;
        match memchr::memmem::find(&self.bytes[start + 2..], b"*/") {
            Some(n) => {
                self.pos = start + 2 + n + 2;
                Ok(())
            }
            None => Err(Error::new(
                ErrorKind::UnterminatedComment,
                Some(start..start + 2),
                "this `/*` comment is never closed; end it with `*/`",
            )),
        }
    }

    /// The identifier at the cursor, `[A-Za-z_][A-Za-z0-9_.-]*`, with an optional leading `%`
    /// that is not part of it. `None` (the cursor unmoved) if there is none.
    #[inline(always)]
    pub(crate) fn ident(&mut self) -> Result<Option<(&'a str, Range<usize>)>, Error> {
        let start = self.pos;
        let first = usize::from(self.peek() == Some(b'%'));
        match self.peek_at(first) {
            Some(b) if class(b) & IDENT_START != 0 => {}
            _ if first == 1 => return Err(percent_without_name(start)),
            _ => return Ok(None),
        }
        let name_start = start + first;
        let mut end = name_start + 1;
        while end < self.bytes.len() && class(self.bytes[end]) & IDENT != 0 {
            end += 1;
        }
        self.pos = end;
        Ok(Some((&self.src[name_start..end], start..end)))
    }

    /// Whether an identifier at the cursor is immediately followed by `byte` (without moving).
    pub(crate) fn ident_followed_by(&self, byte: u8) -> bool {
        let mut end = self.pos;
        if self
            .bytes
            .get(end)
            .is_some_and(|&b| class(b) & IDENT_START != 0)
        {
            end += 1;
            while end < self.bytes.len() && class(self.bytes[end]) & IDENT != 0 {
                end += 1;
            }
            self.bytes.get(end) == Some(&byte)
        } else {
            false
        }
    }

    /// Whether a shape starts at the cursor: `(`, an element type followed by `[`, or `b(`
    /// and one.
    pub(crate) fn at_shape(&self) -> bool {
        if self.peek() == Some(b'(') || self.ident_followed_by(b'[') {
            return true;
        }
        // A buffer such as `b(f32[2]{0})`: `b(` and an element type (no opcode is `b`).
        let rest = &self.bytes[self.pos..];
        rest.starts_with(b"b(") && {
            let n = rest[2..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                .count();
            n > 0 && rest.get(2 + n) == Some(&b'[')
        }
    }

    /// Where the shape at the cursor ends, when its bytes alone tell: an element type, `[...]`
    /// and a layout `{...}` written right after it, or a tuple's balanced parentheses.
    /// `None` when unsure (a layout after whitespace or a comment, a string...): the caller
    /// then relies on the shape parser alone.
    pub(crate) fn shape_extent(&self) -> Option<usize> {
        let b = self.bytes;
        let mut i = self.pos;
        if b.get(i) == Some(&b'(') {
            let mut depth = 0usize;
            loop {
                match *b.get(i)? {
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    b'"' => return None,
                    _ => {}
                }
                i += 1;
            }
        }
        while i < b.len() && class(b[i]) & IDENT != 0 {
            i += 1;
        }
        if b.get(i) != Some(&b'[') {
            return None;
        }
        // Short runs: a byte loop beats a call to memchr.
        let find = |from: usize, byte: u8| b[from..].iter().position(|&c| c == byte);
        i += find(i, b']')? + 1;
        if b.get(i) == Some(&b'{') && matches!(b.get(i + 1), Some(b'0'..=b'9' | b':')) {
            // A layout; layouts hold no braces.
            return Some(i + find(i, b'}')? + 1);
        }
        // No layout: the shape parser then looks at the next token, and would read a `{`
        // followed by an integer or `:` (trivia allowed) as a layout.
        let mut j = i;
        while j < b.len() && class(b[j]) & SPACE != 0 {
            j += 1;
        }
        match b.get(j) {
            Some(b'/') => None,
            Some(b'{') => {
                j += 1;
                while j < b.len() && class(b[j]) & SPACE != 0 {
                    j += 1;
                }
                match b.get(j) {
                    Some(b'0'..=b'9' | b':' | b'-' | b'/') => None,
                    _ => Some(i),
                }
            }
            _ => Some(i),
        }
    }

    /// The error for a missing `what` at the cursor.
    #[cold]
    pub(crate) fn expected(&self, what: &str) -> Error {
        let start = self.pos;
        let Some(ch) = self.src[start..].chars().next() else {
            return Error::new(
                ErrorKind::UnexpectedEnd,
                Some(start..start),
                format!("expected {what}, found the end of the module"),
            );
        };
        let end = if class(self.bytes[start]) & IDENT != 0 {
            let mut end = start;
            while end < self.bytes.len() && class(self.bytes[end]) & IDENT != 0 {
                end += 1;
            }
            end
        } else {
            start + ch.len_utf8()
        };
        Error::new(
            ErrorKind::UnexpectedToken,
            Some(start..end),
            format!("expected {what}, found `{}`", &self.src[start..end]),
        )
    }

    /// Consumes `byte` (after trivia) or fails with "expected `what`".
    #[inline]
    pub(crate) fn expect(&mut self, byte: u8, what: &str) -> Result<usize, Error> {
        self.skip_trivia()?;
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(self.pos - 1)
        } else {
            Err(self.expected(what))
        }
    }

    /// Consumes `byte` (after trivia) if it is next.
    #[inline]
    pub(crate) fn eat(&mut self, byte: u8) -> Result<bool, Error> {
        self.skip_trivia()?;
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// Skips the string whose `"` is at the cursor, escapes included.
    pub(crate) fn skip_string(&mut self) -> Result<(), Error> {
        let start = self.pos;
        let mut i = start + 1;
        loop {
            match memchr::memchr2(b'"', b'\\', &self.bytes[i..]) {
                Some(n) if self.bytes[i + n] == b'"' => {
                    self.pos = i + n + 1;
                    return Ok(());
                }
                // A backslash escapes the next byte, whatever it is.
                Some(n) if i + n + 2 <= self.bytes.len() => i += n + 2,
                _ => {
                    return Err(Error::new(
                        ErrorKind::UnterminatedString,
                        Some(start..start + 1),
                        "this string is never closed; end it with `\"`",
                    ));
                }
            }
        }
    }

    /// `attr_name=value` after a `,`: the name, where it starts, and the raw value's range.
    /// `calls=%a, %b` (several computations joined by `, `) is one value.
    pub(crate) fn attribute(&mut self) -> Result<(&'a str, usize, Range<usize>), Error> {
        self.skip_trivia()?;
        if !self.ident_followed_by(b'=') {
            return Err(self.expected("an attribute `name=value` after `,`"));
        }
        let Some((name, span)) = self.ident()? else {
            return Err(self.expected("an attribute name"));
        };
        self.pos += 1;
        self.skip_trivia()?;
        let mut value = self.skip_value()?;
        if value.is_empty() {
            return Err(self.expected(&format!("a value after `{name}=`")));
        }
        if name == "calls" {
            loop {
                let save = self.pos;
                if !self.eat(b',')? {
                    break;
                }
                self.skip_trivia()?;
                if self.ident_followed_by(b'=') || self.peek() != Some(b'%') {
                    self.pos = save;
                    break;
                }
                value.end = self.skip_value()?.end;
            }
        }
        Ok((name, span.start, value))
    }

    /// Skips a value kept raw, such as an attribute value: at depth 0 it ends before
    /// whitespace, `,`, a closing bracket or a comment; brackets of any kind nest, and strings
    /// and comments inside them are skipped. Returns the value's byte range.
    pub(crate) fn skip_value(&mut self) -> Result<Range<usize>, Error> {
        let start = self.pos;
        let mut depth = 0usize;
        let mut outermost = start;
        loop {
            let stop = if depth == 0 { VALUE_STOP } else { NESTED_STOP };
            while self.pos < self.bytes.len() && class(self.bytes[self.pos]) & stop == 0 {
                self.pos += 1;
            }
            let Some(b) = self.peek() else {
                if depth > 0 {
                    return Err(unclosed(outermost, self.bytes[outermost]));
                }
                return Ok(start..self.pos);
            };
            match b {
                b'"' => self.skip_string()?,
                b'/' => match self.peek_at(1) {
                    Some(b'*') if depth > 0 => self.skip_block_comment()?,
                    // A line comment inside brackets runs to the end of the line; the value
                    // goes on after it.
                    Some(b'/') if depth > 0 => {
                        self.pos = memchr::memchr(b'\n', &self.bytes[self.pos..])
                            .map_or(self.bytes.len(), |n| self.pos + n);
                    }
                    Some(b'*' | b'/') => return Ok(start..self.pos),
                    _ => self.pos += 1,
                },
                b'{' | b'(' | b'[' => {
                    if depth == 0 {
                        outermost = self.pos;
                    }
                    depth += 1;
                    self.pos += 1;
                }
                b'}' | b')' | b']' => {
                    if depth == 0 {
                        return Ok(start..self.pos);
                    }
                    depth -= 1;
                    self.pos += 1;
                }
                // `,` and whitespace at depth 0.
                _ => return Ok(start..self.pos),
            }
        }
    }

    /// Skips to the `)` that closes the `(` just consumed (a literal), counting only
    /// parentheses; returns the range between them.
    pub(crate) fn skip_parenthesized(&mut self, open: usize) -> Result<Range<usize>, Error> {
        let start = self.pos;
        let mut depth = 1usize;
        loop {
            let Some(n) = memchr::memchr2(b'(', b')', &self.bytes[self.pos..]) else {
                return Err(unclosed(open, b'('));
            };
            self.pos += n + 1;
            if self.bytes[self.pos - 1] == b'(' {
                depth += 1;
            } else {
                depth -= 1;
                if depth == 0 {
                    return Ok(start..self.pos - 1);
                }
            }
        }
    }
}

#[cold]
fn percent_without_name(at: usize) -> Error {
    Error::new(
        ErrorKind::InvalidCharacter,
        Some(at..at + 1),
        "`%` must be followed by a name such as `%add.1`",
    )
}

#[cold]
fn unclosed(at: usize, open: u8) -> Error {
    let close = match open {
        b'{' => '}',
        b'(' => ')',
        _ => ']',
    };
    Error::new(
        ErrorKind::UnclosedBracket,
        Some(at..at + 1),
        format!(
            "this `{}` is never closed; expected a matching `{close}`",
            open as char
        ),
    )
}
