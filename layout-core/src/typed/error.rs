//! Why extents or data do not fit a layout type.

use alloc::string::String;
use core::fmt;

/// Extents that a layout type does not accept, or data of the wrong length.
///
/// ```
/// use xla_layout::{layout, typed::{DimsError, Layout}};
/// type Batch = layout!(f32[<=4096,128]{1,0:T(8,128)});
/// let e = Batch::extents([5000, 128]).unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "dimension 0 of f32[<=4096,128]{1,0:T(8,128)} is 5000, past its bound 4096: give an \
///      extent of at most 4096",
/// );
/// assert!(matches!(Batch::extents([8, 64]), Err(DimsError::Static { dim: 1, .. })));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DimsError {
    /// A static dimension given another extent.
    Static {
        /// The layout's canonical text.
        layout: &'static str,
        /// The logical dimension.
        dim: usize,
        /// Its size in the layout.
        size: usize,
        /// The extent given.
        found: usize,
    },
    /// A dynamic dimension given an extent past its bound.
    PastBound {
        /// The layout's canonical text.
        layout: &'static str,
        /// The logical dimension.
        dim: usize,
        /// The largest extent accepted ([`Layout::BOUNDS`](super::Layout::BOUNDS)).
        bound: usize,
        /// The extent given.
        found: usize,
    },
    /// Extents whose size overflows (more than `i64::MAX` bytes or `usize` slots).
    TooLarge {
        /// The layout's canonical text.
        layout: &'static str,
        /// Why, from the runtime plan.
        reason: String,
    },
    /// Data whose length does not fit the layout and extents.
    Length(LengthError),
}

impl fmt::Display for DimsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DimsError::Static {
                layout,
                dim,
                size,
                found,
            } => write!(
                f,
                "dimension {dim} of {layout} is static with size {size}, but {found} was given"
            ),
            DimsError::PastBound {
                layout,
                dim,
                bound,
                found,
            } => write!(
                f,
                "dimension {dim} of {layout} is {found}, past its bound {bound}: give an extent \
                 of at most {bound}"
            ),
            DimsError::TooLarge { layout, reason } => {
                write!(f, "these extents of {layout} are too large: {reason}")
            }
            DimsError::Length(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for DimsError {}

impl From<LengthError> for DimsError {
    fn from(e: LengthError) -> Self {
        DimsError::Length(e)
    }
}

/// A slice or list whose length does not fit the layout.
///
/// ```
/// use xla_layout::tensor::LengthError;
/// let e = LengthError { expected: 24, found: 15, what: "physical storage" };
/// assert_eq!(e.to_string(), "physical storage has 15 entries, but the layout needs 24");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LengthError {
    /// The length the layout needs.
    pub expected: usize,
    /// The length given.
    pub found: usize,
    /// What was measured.
    pub what: &'static str,
}

impl fmt::Display for LengthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} has {} entries, but the layout needs {}",
            self.what, self.found, self.expected
        )
    }
}

impl core::error::Error for LengthError {}
