//! The parser: XLA's shape grammar (`hlo_parser.cc` `ParseShape`/`ParseLayout`), strict where
//! XLA is lax or aborts.
//!
//! Syntax errors end the parse; value errors (integer overflow, attributes out of order) are
//! collected and parsing goes on, and a shape that parses is then validated, so one call
//! reports every problem it can find.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

use crate::model::spans::{ArraySpans, SourceMap};
use crate::model::validate::validate_shape;
use crate::model::{
    ArrayLayout, ArrayShape, Dim, Error, ErrorKind, Errors, MAX_NESTING, PrimitiveType, Shape,
    SplitConfig, Tile, TileDim,
};
use crate::text::lex::{Lexer, Tok, Token};

/// Parses one shape (array, tuple, buffer, `token[]`, `opaque[]`), fills in missing array
/// layouts with the default, and validates it. Errors carry byte ranges into `text`.
///
/// ```
/// let s = xla_layout::parse("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
/// assert_eq!(s.to_string(), "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}");
///
/// let errs = xla_layout::parse("f32[2,3]{1,1}").unwrap_err();
/// assert_eq!(errs[0].span(), Some(11..12));
/// ```
pub fn parse(text: &str) -> Result<Shape, Errors> {
    parse_with_map(text).map(|(shape, _)| shape)
}

/// Parses an array shape (see [`parse`]); a tuple, buffer, token or opaque is an error.
///
/// ```
/// let a = xla_layout::parse_array("f32[2,3]").unwrap();
/// assert_eq!(a.layout.minor_to_major, vec![1, 0]);
/// assert!(xla_layout::parse_array("token[]").is_err());
/// ```
pub fn parse_array(text: &str) -> Result<ArrayShape, Errors> {
    match parse(text)?.into_array() {
        Ok(a) => Ok(a),
        Err(other) => Err(Errors::new(alloc::vec![Error::new(
            ErrorKind::Unsupported,
            Some(0..text.len()),
            format!(
                "expected an array shape such as `f32[2,3]`, found {}",
                other.kind_name()
            ),
        )])),
    }
}

/// Parses and validates, also returning where every part of every array was written.
pub(crate) fn parse_with_map(text: &str) -> Result<(Shape, SourceMap), Errors> {
    let mut p = Parser::new(Lexer::new(text));
    let shape = match p.parse_top() {
        Ok(shape) => shape,
        Err(fatal) => {
            p.errors.push(fatal);
            return Err(Errors::new(p.errors));
        }
    };
    let overflowed = p
        .errors
        .iter()
        .any(|e| e.kind() == ErrorKind::IntegerOverflow);
    if let (false, Err(errs)) = (overflowed, validate_shape(&shape, Some(&p.map))) {
        p.errors.extend(errs);
    }
    if p.errors.is_empty() {
        Ok((shape, p.map))
    } else {
        Err(Errors::new(p.errors))
    }
}

/// Why a shape embedded in larger text was rejected: every error, and where the shape ended
/// when its syntax was complete (only its values were wrong), so that a caller can go on
/// reading after it.
#[derive(Debug)]
pub(crate) struct EmbeddedShapeError {
    pub(crate) errors: Errors,
    pub(crate) end: Option<usize>,
}

/// Parses and validates the one shape that starts at byte `start` of `text` (a larger text,
/// such as an HLO module) and returns it with the byte offset where it ends. Spans are
/// absolute in `text`; the text after the shape is not looked at beyond the lookahead the
/// shape grammar needs.
pub(crate) fn parse_embedded(
    text: &str,
    start: usize,
) -> Result<(Shape, usize), EmbeddedShapeError> {
    let mut p = Parser::new(Lexer::embedded(text, start));
    let shape = match p.parse_shape(0) {
        Ok(shape) => shape,
        Err(fatal) => {
            p.errors.push(fatal);
            return Err(EmbeddedShapeError {
                errors: Errors::new(p.errors),
                end: None,
            });
        }
    };
    let overflowed = p
        .errors
        .iter()
        .any(|e| e.kind() == ErrorKind::IntegerOverflow);
    if let (false, Err(errs)) = (overflowed, validate_shape(&shape, Some(&p.map))) {
        p.errors.extend(errs);
    }
    if p.errors.is_empty() {
        Ok((shape, p.end))
    } else {
        Err(EmbeddedShapeError {
            errors: Errors::new(p.errors),
            end: Some(p.end),
        })
    }
}

/// The attributes of a layout, in the only order XLA accepts.
const ATTRIBUTE_ORDER: [&str; 7] = ["D", "T", "L", "E", "S", "SC", "M"];

/// A tuple or buffer whose `)` has not been read yet.
enum Frame {
    /// The elements read so far.
    Tuple(Vec<Shape>),
    /// A buffer `b(`, with where its inner shape starts.
    Buffer { inner_start: usize },
}

struct Parser<'a> {
    lexer: Lexer<'a>,
    ahead: Vec<Token<'a>>,
    errors: Vec<Error>,
    map: SourceMap,
    /// Where the last consumed token ends.
    end: usize,
}

fn unexpected(found: &Token<'_>, expected: &str) -> Error {
    let kind = if found.tok == Tok::Eof {
        ErrorKind::UnexpectedEnd
    } else {
        ErrorKind::UnexpectedToken
    };
    Error::new(
        kind,
        Some(found.span.clone()),
        format!("expected {expected}, found {}", found.tok.describe()),
    )
}

impl<'a> Parser<'a> {
    fn new(lexer: Lexer<'a>) -> Self {
        Parser {
            lexer,
            ahead: Vec::new(),
            errors: Vec::new(),
            map: SourceMap::default(),
            end: 0,
        }
    }

    fn fill(&mut self, n: usize) -> Result<(), Error> {
        while self.ahead.len() < n {
            let t = self.lexer.next_token(&mut self.errors)?;
            self.ahead.push(t);
        }
        Ok(())
    }

    fn peek(&mut self) -> Result<&Token<'a>, Error> {
        self.fill(1)?;
        Ok(&self.ahead[0])
    }

    fn peek2(&mut self) -> Result<Tok<'a>, Error> {
        self.fill(2)?;
        Ok(self.ahead[1].tok)
    }

    fn next(&mut self) -> Result<Token<'a>, Error> {
        self.fill(1)?;
        let t = self.ahead.remove(0);
        self.end = t.span.end;
        Ok(t)
    }

    fn eat(&mut self, tok: Tok<'_>) -> Result<Option<Range<usize>>, Error> {
        if self.peek()?.tok == tok {
            Ok(Some(self.next()?.span))
        } else {
            Ok(None)
        }
    }

    fn expect(&mut self, tok: Tok<'_>, expected: &str) -> Result<Range<usize>, Error> {
        match self.eat(tok)? {
            Some(span) => Ok(span),
            None => Err(unexpected(self.peek()?, expected)),
        }
    }

    fn int(&mut self, expected: &str) -> Result<(i64, Range<usize>), Error> {
        let t = self.next()?;
        match t.tok {
            // An overflowed literal was reported by the lexer; 0 stands in for it.
            Tok::Int(v) => Ok((v.unwrap_or(0), t.span)),
            _ => Err(unexpected(&t, expected)),
        }
    }

    fn parse_top(&mut self) -> Result<Shape, Error> {
        let shape = self.parse_shape(0)?;
        if self.peek()?.tok == Tok::LBrace {
            return Err(self.not_a_layout(ErrorKind::TrailingInput)?);
        }
        let t = self.next()?;
        if t.tok != Tok::Eof {
            let msg = match t.tok {
                Tok::Ident("dense" | "sparse") => {
                    "`dense`/`sparse` before a layout is 2017 syntax; write the layout directly, \
                     such as `f32[2,3]{1,0}`"
                        .into()
                }
                other => format!(
                    "unexpected {} after the shape; the input must be exactly one shape",
                    other.describe()
                ),
            };
            return Err(Error::new(ErrorKind::TrailingInput, Some(t.span), msg));
        }
        Ok(shape)
    }

    /// The error for a `{` (the next token) that does not start a layout, because XLA's
    /// lookahead wants an integer or `:` after it; `kind` says whether the `{` ends the input's
    /// shape (trailing text) or stands where the grammar wants something else.
    fn not_a_layout(&mut self, kind: ErrorKind) -> Result<Error, Error> {
        let open = self.next()?.span;
        let next = self.peek()?.clone();
        Ok(if next.tok == Tok::RBrace {
            Error::new(
                kind,
                Some(open.start..next.span.end),
                "`{}` is not a layout: XLA never writes an empty layout after a shape; drop it \
                 (a scalar is `f32[]`) or write minor_to_major such as `{1,0}`",
            )
        } else if starts_layout(next.tok) {
            Error::new(
                kind,
                Some(open),
                "a second layout: an array has one layout `{...}`, written right after its `]`",
            )
        } else {
            Error::new(
                kind,
                Some(open),
                format!(
                    "`{{` followed by {} is not a layout: a layout starts with minor_to_major \
                     numbers or `:`, such as `{{1,0:T(8,128)}}` or `{{:S(1)}}` for a scalar",
                    next.tok.describe()
                ),
            )
        })
    }

    /// One shape at nesting level `depth`. Iterative: each open tuple or buffer is a frame on
    /// a heap stack, so the nesting depth costs no native stack.
    fn parse_shape(&mut self, depth: usize) -> Result<Shape, Error> {
        let mut open: Vec<Frame> = Vec::new();
        loop {
            // The start of a shape: an array is read whole, a tuple or buffer opens a frame.
            let t = self.peek()?.clone();
            let mut done = match t.tok {
                Tok::LParen => {
                    self.check_depth(depth + open.len(), &t.span)?;
                    self.next()?;
                    if self.eat(Tok::RParen)?.is_none() {
                        open.push(Frame::Tuple(Vec::new()));
                        continue;
                    }
                    Shape::Tuple(Vec::new())
                }
                Tok::Ident("b") if self.peek2()? == Tok::LParen => {
                    self.check_depth(depth + open.len(), &t.span)?;
                    self.next()?;
                    self.next()?;
                    let inner_start = self.peek()?.span.start;
                    open.push(Frame::Buffer { inner_start });
                    continue;
                }
                Tok::Ident(name) => self.parse_array(name, t.span)?,
                _ => {
                    return Err(unexpected(
                        &t,
                        "a shape (an element type such as `f32`, a tuple `(...)`, `token[]` or \
                         `opaque[]`)",
                    ));
                }
            };
            // A finished shape closes the frames it completes, up to a tuple that goes on.
            loop {
                let Some(frame) = open.last_mut() else {
                    return Ok(done);
                };
                if self.peek()?.tok == Tok::LBrace {
                    return Err(self.not_a_layout(ErrorKind::UnexpectedToken)?);
                }
                match frame {
                    Frame::Buffer { inner_start } => {
                        let inner_start = *inner_start;
                        let inner_end =
                            self.expect(Tok::RParen, "`)` to close the buffer `b(...)`")?;
                        open.pop();
                        done = match done.into_array() {
                            Ok(a) => Shape::Buffer(Box::new(a)),
                            Err(other) => {
                                return Err(Error::new(
                                    ErrorKind::InvalidBuffer,
                                    Some(inner_start..inner_end.start),
                                    format!(
                                        "a buffer `b(...)` holds one array shape, not {}",
                                        other.kind_name()
                                    ),
                                ));
                            }
                        };
                    }
                    Frame::Tuple(elements) => {
                        elements.push(done);
                        let t = self.next()?;
                        match t.tok {
                            Tok::Comma => {
                                let next = self.peek()?;
                                if next.tok == Tok::RParen {
                                    return Err(Error::new(
                                        ErrorKind::UnexpectedToken,
                                        Some(next.span.clone()),
                                        "expected a shape after `,`; a tuple has no trailing comma",
                                    ));
                                }
                                break;
                            }
                            Tok::RParen => {
                                done = Shape::Tuple(core::mem::take(elements));
                                open.pop();
                            }
                            _ => return Err(unexpected(&t, "`,` or `)` in a tuple")),
                        }
                    }
                }
            }
        }
    }

    fn check_depth(&self, depth: usize, span: &Range<usize>) -> Result<(), Error> {
        if depth >= MAX_NESTING {
            return Err(Error::new(
                ErrorKind::NestingTooDeep,
                Some(span.clone()),
                format!("tuples and buffers nest more than {MAX_NESTING} levels deep here"),
            ));
        }
        Ok(())
    }

    fn parse_array(&mut self, name: &'a str, name_span: Range<usize>) -> Result<Shape, Error> {
        self.next()?;
        let element_type = match name {
            "token" | "opaque" => None,
            _ => {
                Some(PrimitiveType::from_name(name).ok_or_else(|| unknown_type(name, &name_span))?)
            }
        };
        let mut spans = ArraySpans::default();
        let open = self.expect(Tok::LBracket, "`[` after the element type")?;
        let (dims, close) = self.parse_dims(&mut spans)?;
        spans.dims_list = open.start..close.end;
        let layout = self.parse_layout_if_present(&mut spans)?;
        spans.whole = name_span.start..spans.layout.as_ref().map_or(spans.dims_list.end, |l| l.end);
        let Some(element_type) = element_type else {
            if !dims.is_empty() {
                self.errors.push(Error::new(
                    ErrorKind::NotAnArray,
                    Some(spans.dims_list.clone()),
                    format!("`{name}` has no dimensions; write `{name}[]`"),
                ));
            }
            if let Some(span) = spans.layout {
                self.errors.push(Error::new(
                    ErrorKind::NotAnArray,
                    Some(span),
                    format!("`{name}[]` cannot have a layout; only arrays have layouts (XLA aborts on this)"),
                ));
            }
            return Ok(if name == "token" {
                Shape::Token
            } else {
                Shape::Opaque
            });
        };
        let layout = layout.unwrap_or_else(|| ArrayLayout::descending(dims.len()));
        self.map.arrays.push(spans);
        Ok(Shape::Array(ArrayShape {
            element_type,
            dims,
            layout,
        }))
    }

    /// Dimensions up to and including `]`, whose span is returned too.
    fn parse_dims(&mut self, spans: &mut ArraySpans) -> Result<(Vec<Dim>, Range<usize>), Error> {
        let mut dims = Vec::new();
        if let Some(close) = self.eat(Tok::RBracket)? {
            return Ok((dims, close));
        }
        loop {
            let t = self.next()?;
            let (dim, span) = match t.tok {
                Tok::Int(v) => (Dim::Static(v.unwrap_or(0)), t.span),
                Tok::Question => (Dim::Unbounded, t.span),
                Tok::Le => {
                    let (n, end) = self.int("an integer bound after `<=`")?;
                    (Dim::Bounded(n), t.span.start..end.end)
                }
                _ => {
                    return Err(unexpected(
                        &t,
                        "a dimension size (a whole number, `<=N` or `?`)",
                    ));
                }
            };
            dims.push(dim);
            spans.dims.push(span);
            let t = self.next()?;
            match t.tok {
                Tok::Comma => {}
                Tok::RBracket => return Ok((dims, t.span)),
                _ => return Err(unexpected(&t, "`,` or `]` after a dimension")),
            }
        }
    }
}

/// Whether a `{` followed by this token starts a layout: XLA's lookahead wants an integer or
/// `:`. A malformed number counts too, so that it is reported as a bad minor_to_major entry.
fn starts_layout(next: Tok<'_>) -> bool {
    matches!(next, Tok::Int(_) | Tok::BadNumber(_) | Tok::Colon)
}

fn unknown_type(name: &str, span: &Range<usize>) -> Error {
    let hint: String = match name {
        "opaque_type" => "; write `opaque[]`".into(),
        "tuple" => "; write a tuple as `(f32[2], s32[])`".into(),
        "buffer" => "; write a buffer as `b(f32[2])`".into(),
        _ => match crate::model::primitive::suggest(name) {
            Some(t) => format!("; did you mean `{t}`? XLA type names are lower case"),
            None => {
                "; expected pred, s1/s2/s4/s8/s16/s32/s64, u1/u2/u4/u8/u16/u32/u64, f16, bf16, \
                     f32, f64, an f8/f4 type such as f8e4m3fn, c64, c128, token or opaque"
                    .into()
            }
        },
    };
    Error::new(
        ErrorKind::UnknownElementType,
        Some(span.clone()),
        format!("`{name}` is not an XLA element type{hint}"),
    )
}

impl<'a> Parser<'a> {
    /// A layout follows `]` only when `{` is followed by an integer or `:` (XLA's lookahead).
    fn parse_layout_if_present(
        &mut self,
        spans: &mut ArraySpans,
    ) -> Result<Option<ArrayLayout>, Error> {
        if self.peek()?.tok != Tok::LBrace {
            return Ok(None);
        }
        if !starts_layout(self.peek2()?) {
            return Ok(None);
        }
        let open = self.next()?.span;
        let mut layout = ArrayLayout::default();
        if matches!(self.peek()?.tok, Tok::Int(_) | Tok::BadNumber(_)) {
            loop {
                let (v, span) = self.int("a dimension number")?;
                layout.minor_to_major.push(v);
                spans.minor_to_major.push(span);
                if self.eat(Tok::Comma)?.is_none() {
                    break;
                }
                if !matches!(self.peek()?.tok, Tok::Int(_)) {
                    let t = self.peek()?.clone();
                    return Err(unexpected(
                        &t,
                        "a dimension number after `,` in minor_to_major",
                    ));
                }
            }
        }
        if self.eat(Tok::Colon)?.is_some() {
            self.parse_attributes(&mut layout, spans)?;
        }
        let close = self.expect(Tok::RBrace, "`}` to end the layout")?;
        spans.layout = Some(open.start..close.end);
        Ok(Some(layout))
    }

    fn parse_attributes(
        &mut self,
        layout: &mut ArrayLayout,
        spans: &mut ArraySpans,
    ) -> Result<(), Error> {
        // Where each attribute was first written, and the latest in the order seen so far.
        let mut first: [Option<usize>; ATTRIBUTE_ORDER.len()] = [None; ATTRIBUTE_ORDER.len()];
        let mut latest: Option<usize> = None;
        loop {
            let t = self.peek()?.clone();
            let name = match t.tok {
                Tok::RBrace => return Ok(()),
                Tok::Ident(name) => name,
                Tok::Hash | Tok::Star => {
                    let what = if t.tok == Tok::Hash {
                        "#(...) (index type)"
                    } else {
                        "*(...) (pointer type)"
                    };
                    return Err(Error::new(
                        ErrorKind::SparseAttribute,
                        Some(t.span),
                        format!(
                            "`{what}` is a sparse-array attribute; XLA removed sparse arrays and rejects it on every array"
                        ),
                    ));
                }
                _ => {
                    return Err(unexpected(
                        &t,
                        "a layout attribute (T, L, E, S, SC, M) or `}`",
                    ));
                }
            };
            let Some(order) = ATTRIBUTE_ORDER.iter().position(|a| *a == name) else {
                return Err(unknown_attribute(name, &t.span));
            };
            if let Some(first_at) = first[order] {
                let hint = if name == "T" {
                    "; write every tile after one `T`, such as T(8,128)(2,1)"
                } else {
                    ""
                };
                self.errors.push(Error::new(
                    ErrorKind::DuplicateAttribute,
                    Some(t.span.clone()),
                    format!("`{name}` is given twice (first at byte {first_at}){hint}"),
                ));
            } else if let Some(later) = latest.filter(|&l| l > order) {
                self.errors.push(Error::new(
                    ErrorKind::AttributeOutOfOrder,
                    Some(t.span.clone()),
                    format!(
                        "`{name}` must come before `{}`; XLA accepts layout attributes only in the order D, T, L, E, S, SC, M",
                        ATTRIBUTE_ORDER[later]
                    ),
                ));
            }
            first[order].get_or_insert(t.span.start);
            latest = latest.max(Some(order));
            self.next()?;
            match name {
                "D" => self.parse_dim_level_types()?,
                "T" => self.parse_tiles(layout, spans, &t.span)?,
                "SC" => self.parse_split_configs(layout, spans, &t.span)?,
                _ => {
                    let (v, span) = self.parse_int_attribute(name)?;
                    match name {
                        "L" => {
                            layout.tail_padding_alignment_in_elements = v;
                            spans.tail_padding = Some(span);
                        }
                        "E" => {
                            layout.element_size_in_bits = v;
                            spans.element_size = Some(span);
                        }
                        "S" => {
                            layout.memory_space = v;
                            spans.memory_space = Some(span);
                        }
                        // M(n <= 0) means "no prefix" in XLA, and is printed as nothing.
                        _ => layout.dynamic_shape_metadata_prefix_bytes = v.max(0),
                    }
                }
            }
        }
    }

    /// `X(n)`; returns the value and the span of the integer `n`.
    fn parse_int_attribute(&mut self, name: &str) -> Result<(i64, Range<usize>), Error> {
        let example = match name {
            "L" => "L(1024)",
            "E" => "E(4)",
            "S" => "S(1)",
            _ => "M(1024)",
        };
        let needs = |t: &Token<'_>| {
            unexpected(
                t,
                &format!("one integer in parentheses after `{name}`, such as {example}"),
            )
        };
        let t = self.next()?;
        if t.tok != Tok::LParen {
            return Err(needs(&t));
        }
        let t = self.next()?;
        let Tok::Int(v) = t.tok else {
            return Err(needs(&t));
        };
        let close = self.next()?;
        if close.tok != Tok::RParen {
            return Err(needs(&close));
        }
        Ok((v.unwrap_or(0), t.span))
    }

    fn parse_tiles(
        &mut self,
        layout: &mut ArrayLayout,
        spans: &mut ArraySpans,
        t_span: &Range<usize>,
    ) -> Result<(), Error> {
        if self.peek()?.tok != Tok::LParen {
            return Err(Error::new(
                ErrorKind::UnexpectedToken,
                Some(t_span.clone()),
                "`T` needs at least one tile in parentheses, such as T(8,128)",
            ));
        }
        layout.tiles.clear();
        spans.tiles.clear();
        while let Some(open) = self.eat(Tok::LParen)? {
            let mut tile = Tile::default();
            let mut dim_spans = Vec::new();
            let close = if let Some(close) = self.eat(Tok::RParen)? {
                close
            } else {
                loop {
                    let t = self.next()?;
                    match t.tok {
                        Tok::Int(v) => tile.0.push(TileDim::Size(v.unwrap_or(1))),
                        Tok::Star => tile.0.push(TileDim::Combine),
                        _ => {
                            return Err(unexpected(
                                &t,
                                "a tile dimension (a positive integer or `*`)",
                            ));
                        }
                    }
                    dim_spans.push(t.span);
                    let t = self.next()?;
                    match t.tok {
                        Tok::Comma => {}
                        Tok::RParen => break t.span,
                        _ => return Err(unexpected(&t, "`,` or `)` in a tile")),
                    }
                }
            };
            layout.tiles.push(tile);
            spans.tiles.push((open.start..close.end, dim_spans));
        }
        Ok(())
    }

    fn parse_split_configs(
        &mut self,
        layout: &mut ArrayLayout,
        spans: &mut ArraySpans,
        sc_span: &Range<usize>,
    ) -> Result<(), Error> {
        if self.peek()?.tok != Tok::LParen {
            return Err(Error::new(
                ErrorKind::UnexpectedToken,
                Some(sc_span.clone()),
                "`SC` needs at least one split config in parentheses, such as SC(0:512)",
            ));
        }
        layout.split_configs.clear();
        spans.splits.clear();
        while let Some(open) = self.eat(Tok::LParen)? {
            let (dimension, dim_span) =
                self.int("a physical dimension number in a split config, such as (0:512)")?;
            self.expect(
                Tok::Colon,
                "`:` after the split config's dimension, such as (0:512)",
            )?;
            let mut config = SplitConfig::new(dimension, []);
            let mut index_spans = Vec::new();
            let close = if let Some(close) = self.eat(Tok::RParen)? {
                close
            } else {
                loop {
                    let (v, span) = self.int("a split index (an integer)")?;
                    config.split_indices.push(v);
                    index_spans.push(span);
                    let t = self.next()?;
                    match t.tok {
                        Tok::Comma => {}
                        Tok::RParen => break t.span,
                        _ => return Err(unexpected(&t, "`,` or `)` in a split config")),
                    }
                }
            };
            layout.split_configs.push(config);
            spans
                .splits
                .push((open.start..close.end, dim_span, index_spans));
        }
        Ok(())
    }

    /// `D(...)`: dimension level types, parsed and dropped as XLA does since 2025.
    fn parse_dim_level_types(&mut self) -> Result<(), Error> {
        self.expect(Tok::LParen, "`(` after `D`")?;
        if self.eat(Tok::RParen)?.is_some() {
            return Ok(());
        }
        loop {
            let t = self.next()?;
            match t.tok {
                Tok::Ident("D" | "C" | "S" | "H") => {}
                Tok::Ident(other) => {
                    return Err(Error::new(
                        ErrorKind::InvalidDimLevelType,
                        Some(t.span),
                        format!("`{other}` is not a dimension level type; expected D, C, S or H"),
                    ));
                }
                _ => return Err(unexpected(&t, "a dimension level type (D, C, S or H)")),
            }
            self.eat(Tok::Plus)?;
            self.eat(Tok::Tilde)?;
            let t = self.next()?;
            match t.tok {
                Tok::Comma => {}
                Tok::RParen => return Ok(()),
                _ => return Err(unexpected(&t, "`,` or `)` in `D(...)`")),
            }
        }
    }
}

fn unknown_attribute(name: &str, span: &Range<usize>) -> Error {
    let message = if name == "P" {
        return Error::new(
            ErrorKind::SparseAttribute,
            Some(span.clone()),
            "`P(...)` (physical shape) is a sparse-array attribute; XLA rejects it on every array",
        );
    } else if let Some(a) = ATTRIBUTE_ORDER
        .iter()
        .find(|a| a.eq_ignore_ascii_case(name))
    {
        format!(
            "unknown layout attribute `{name}`; did you mean `{a}`? attribute names are case-sensitive"
        )
    } else {
        format!(
            "unknown layout attribute `{name}`; expected T (tiles), L (tail padding), E (element bits), \
             S (memory space), SC (split configs) or M (metadata prefix bytes), each followed by `(`"
        )
    };
    Error::new(ErrorKind::UnknownAttribute, Some(span.clone()), message)
}

impl core::str::FromStr for Shape {
    type Err = Errors;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse(s)
    }
}

impl core::str::FromStr for ArrayShape {
    type Err = Errors;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_array(s)
    }
}
