//! Type-level lists of numbers, read back as constants.

/// How many entries a type-level list can hold (dimensions, minor_to_major, signatures).
pub const LIST_CAPACITY: usize = 256;
/// How many bytes the canonical text of a layout type can hold.
pub const TEXT_CAPACITY: usize = 1024;

/// The end of a type-level list: the default of the readable lists' `More`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Nil;

/// A type-level list of `usize`, readable in `const` contexts.
///
/// ```
/// use xla_layout::typed::{Dims, List};
/// const DIMS: &[usize] = <Dims<8, 128> as List>::SLICE;
/// assert_eq!(DIMS, &[8, 128]);
/// ```
pub trait List {
    /// Number of entries.
    const LEN: usize;
    /// The entries, padded with zeros to [`LIST_CAPACITY`].
    const ITEMS: [usize; LIST_CAPACITY];
    /// The entries.
    const SLICE: &'static [usize] = Self::ITEMS.split_at(Self::LEN).0;
}

impl List for Nil {
    const LEN: usize = 0;
    const ITEMS: [usize; LIST_CAPACITY] = [0; LIST_CAPACITY];
}
