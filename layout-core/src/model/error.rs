//! Errors with byte ranges into the parsed text.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::ops::Range;

/// What class of problem an [`Error`] reports. Every rejection the parser or validator knows
/// has its own kind, so tests and tools can match on it without parsing messages.
///
/// ```
/// use xla_layout::{parse, ErrorKind};
/// let errs = parse("f32[2,3]{0,0}").unwrap_err();
/// assert_eq!(errs[0].kind(), ErrorKind::MinorToMajorDuplicate);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A character that starts no token (`%`, a lone `<` or `-`, ...).
    InvalidCharacter,
    /// A `/*` comment without its `*/`.
    UnterminatedComment,
    /// A `"` string without its closing `"`.
    UnterminatedString,
    /// A bracket `(`, `[` or `{` that is never closed.
    UnclosedBracket,
    /// In an HLO module: an operand, control predecessor or called computation that is not
    /// defined before it is used.
    UndefinedName,
    /// In an HLO module: an instruction name defined twice in one computation, a computation
    /// name defined twice, two `ENTRY` computations or two `ROOT` instructions.
    DuplicateName,
    /// An integer literal outside the signed 64-bit range.
    IntegerOverflow,
    /// A token where the grammar wants something else.
    UnexpectedToken,
    /// The input ended where the grammar wants more.
    UnexpectedEnd,
    /// Text left over after a complete shape.
    TrailingInput,
    /// A name that is not an XLA element type (`F32`, `g32`, `opaque_type`).
    UnknownElementType,
    /// Tuples nested deeper than [`MAX_NESTING`](crate::MAX_NESTING).
    NestingTooDeep,
    /// `token`/`opaque` written with dimensions, or with a layout.
    NotAnArray,
    /// `b(...)` around something that is not an array shape.
    InvalidBuffer,
    /// A layout attribute name that XLA does not know (`t(...)`, `X(...)`).
    UnknownAttribute,
    /// A layout attribute written after one that must follow it.
    AttributeOutOfOrder,
    /// A layout attribute written twice.
    DuplicateAttribute,
    /// A sparse-array attribute (`#(...)`, `*(...)`, `P(...)`) that XLA no longer accepts.
    SparseAttribute,
    /// A letter in `D(...)` other than D, C, S, H.
    InvalidDimLevelType,
    /// A negative static or bounded dimension size.
    NegativeDimension,
    /// minor_to_major does not have one entry per dimension.
    MinorToMajorLength,
    /// A minor_to_major entry outside `0..rank`.
    MinorToMajorOutOfRange,
    /// A dimension listed twice in minor_to_major.
    MinorToMajorDuplicate,
    /// `T()`: a tile with no dimensions.
    EmptyTile,
    /// A tile dimension that is zero or negative.
    NonPositiveTileDimension,
    /// `*` as the most-minor entry of a tile, where it has nothing to combine with.
    CombineInMinorPosition,
    /// `L(n)` with `n < 1`.
    InvalidTailPadding,
    /// `E(n)` with `n < 0`.
    NegativeElementSize,
    /// `S(n)` outside `0..=127`.
    MemorySpaceOutOfRange,
    /// A split config naming a physical dimension outside `0..rank`.
    SplitDimensionOutOfRange,
    /// Two split configs for the same physical dimension.
    SplitDimensionDuplicate,
    /// Split indices that are not positive and strictly increasing.
    SplitIndicesNotIncreasing,
    /// A split index at or past the end of its dimension.
    SplitIndexOutOfRange,
    /// The element count or byte size of the array does not fit in `i64`.
    SizeOverflow,
    /// Legacy `padded_dimensions` with the wrong count or a size below its dimension.
    InvalidPaddedDimensions,
    /// A shape that is valid XLA but cannot be used where it was given (an unbounded `?`
    /// dimension where a static size is needed, a tuple where an array is needed, ...).
    Unsupported,
}

/// One problem found in a shape: its kind, a message that says what is wrong and what would
/// be right, and (for parsed text) the byte range of the offending token(s).
///
/// ```
/// let errs = xla_layout::parse("f32[2,3]{1,0:S(1)T(2,128)}").unwrap_err();
/// let e = &errs[0];
/// assert_eq!(e.span(), Some(17..18));
/// assert!(e.message().contains("must come before"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    span: Option<Range<usize>>,
    message: String,
}

impl Error {
    /// Makes an error; `span` is a byte range into the text it was found in, if any.
    ///
    /// ```
    /// use xla_layout::{Error, ErrorKind};
    /// let e = Error::new(ErrorKind::Unsupported, Some(0..3), "unbounded `?` dimension");
    /// assert_eq!(e.kind(), ErrorKind::Unsupported);
    /// ```
    pub fn new(kind: ErrorKind, span: Option<Range<usize>>, message: impl Into<String>) -> Self {
        Error {
            kind,
            span,
            message: message.into(),
        }
    }

    /// The class of problem.
    ///
    /// ```
    /// let e = &xla_layout::parse("f32[2]{0:L(0)}").unwrap_err()[0];
    /// assert_eq!(e.kind(), xla_layout::ErrorKind::InvalidTailPadding);
    /// ```
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The byte range of the offending text; `None` for shapes built in code.
    ///
    /// ```
    /// let e = &xla_layout::parse("f32[2]{0:L(0)}").unwrap_err()[0];
    /// assert_eq!(e.span(), Some(11..12));
    /// ```
    pub fn span(&self) -> Option<Range<usize>> {
        self.span.clone()
    }

    /// The human-readable message, without location.
    ///
    /// ```
    /// let e = &xla_layout::parse("f32[2]{0:E(-1)}").unwrap_err()[0];
    /// assert!(e.message().starts_with("E(-1)"));
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.span {
            Some(r) => write!(f, "{} (at bytes {}..{})", self.message, r.start, r.end),
            None => f.write_str(&self.message),
        }
    }
}

impl core::error::Error for Error {}

/// Every error found in one input, in source order. Never empty.
///
/// ```
/// let errs = xla_layout::parse("f32[2,3]{0,0:T(0)E(-1)}").unwrap_err();
/// assert_eq!(errs.len(), 3);
/// for e in &errs {
///     println!("{e}");
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Errors(Vec<Error>);

impl Errors {
    /// Wraps a non-empty list, sorting it by position in the source.
    pub(crate) fn new(mut errors: Vec<Error>) -> Self {
        debug_assert!(!errors.is_empty());
        errors.sort_by_key(|e| {
            e.span
                .as_ref()
                .map_or((usize::MAX, 0), |r| (r.start, r.end))
        });
        Errors(errors)
    }

    /// The errors as a slice.
    ///
    /// ```
    /// let errs = xla_layout::parse("f32[-1]").unwrap_err();
    /// assert_eq!(errs.as_slice().len(), 1);
    /// ```
    pub fn as_slice(&self) -> &[Error] {
        &self.0
    }
}

impl core::ops::Deref for Errors {
    type Target = [Error];
    fn deref(&self) -> &[Error] {
        &self.0
    }
}

impl<'a> IntoIterator for &'a Errors {
    type Item = &'a Error;
    type IntoIter = core::slice::Iter<'a, Error>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl IntoIterator for Errors {
    type Item = Error;
    type IntoIter = alloc::vec::IntoIter<Error>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl fmt::Display for Errors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl core::error::Error for Errors {}
