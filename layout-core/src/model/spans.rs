//! Where each part of a parsed array was written: the side table the parser fills and the
//! validator reads, so that every error of the model points at its text.

use alloc::vec::Vec;
use core::ops::Range;

/// Byte ranges of the parts of one array, as written.
#[derive(Clone, Debug, Default)]
pub(crate) struct ArraySpans {
    pub(crate) whole: Range<usize>,
    pub(crate) dims_list: Range<usize>,
    pub(crate) dims: Vec<Range<usize>>,
    pub(crate) layout: Option<Range<usize>>,
    pub(crate) minor_to_major: Vec<Range<usize>>,
    pub(crate) tiles: Vec<(Range<usize>, Vec<Range<usize>>)>,
    /// The integer of `L(n)`.
    pub(crate) tail_padding: Option<Range<usize>>,
    /// The integer of `E(n)`.
    pub(crate) element_size: Option<Range<usize>>,
    /// The integer of `S(n)`.
    pub(crate) memory_space: Option<Range<usize>>,
    pub(crate) splits: Vec<SplitSpans>,
}

/// Byte ranges of one split config: the whole `(d:i,...)`, `d`, and each index.
pub(crate) type SplitSpans = (Range<usize>, Range<usize>, Vec<Range<usize>>);

/// Where every array of a parsed shape was written, in pre-order.
#[derive(Clone, Debug, Default)]
pub(crate) struct SourceMap {
    pub(crate) arrays: Vec<ArraySpans>,
}
