//! Type-level lists of numbers and bytes, read back as constants.

use core::marker::PhantomData;

/// How many entries a type-level list can hold (dimensions, minor_to_major, signatures).
pub const LIST_CAPACITY: usize = 256;
/// How many bytes a type-level text can hold (the canonical shape string).
pub const TEXT_CAPACITY: usize = 1024;

/// The end of a type-level list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Nil;

/// A type-level list cell holding `V`, followed by `Rest`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cons<const V: usize, Rest>(PhantomData<Rest>);

/// A type-level list of `usize`, readable in `const` contexts.
///
/// ```
/// use xla_layout::typed::{Cons, List, Nil};
/// type Dims = Cons<8, Cons<128, Nil>>;
/// const DIMS: &[usize] = <Dims as List>::SLICE;
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

const fn prepend(v: usize, rest: [usize; LIST_CAPACITY]) -> [usize; LIST_CAPACITY] {
    let mut out = [0; LIST_CAPACITY];
    out[0] = v;
    let mut i = 1;
    while i < LIST_CAPACITY {
        out[i] = rest[i - 1];
        i += 1;
    }
    out
}

impl<const V: usize, Rest: List> List for Cons<V, Rest> {
    const LEN: usize = {
        assert!(Rest::LEN < LIST_CAPACITY, "type-level list too long");
        Rest::LEN + 1
    };
    const ITEMS: [usize; LIST_CAPACITY] = prepend(V, Rest::ITEMS);
}

/// A type-level text: `LEN` UTF-8 bytes stored big-endian in 16-byte chunks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Text<const LEN: usize, Chunks>(PhantomData<Chunks>);

/// A 16-byte chunk of a [`Text`], followed by `Rest`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Chunk<const BYTES: u128, Rest>(PhantomData<Rest>);

/// The chunks of a [`Text`], as bytes.
pub trait Chunks {
    /// The bytes, zero-padded to [`TEXT_CAPACITY`].
    const BYTES: [u8; TEXT_CAPACITY];
}

impl Chunks for Nil {
    const BYTES: [u8; TEXT_CAPACITY] = [0; TEXT_CAPACITY];
}

const fn prepend_chunk(chunk: u128, rest: [u8; TEXT_CAPACITY]) -> [u8; TEXT_CAPACITY] {
    let mut out = [0; TEXT_CAPACITY];
    let head = chunk.to_be_bytes();
    let mut i = 0;
    while i < 16 {
        out[i] = head[i];
        i += 1;
    }
    while i < TEXT_CAPACITY {
        out[i] = rest[i - 16];
        i += 1;
    }
    out
}

impl<const BYTES: u128, Rest: Chunks> Chunks for Chunk<BYTES, Rest> {
    const BYTES: [u8; TEXT_CAPACITY] = prepend_chunk(BYTES, Rest::BYTES);
}

/// A type-level string, readable in `const` contexts.
///
/// ```
/// use xla_layout::typed::{Chunk, Nil, Str, Text};
/// // "f32[]" is 0x66 0x33 0x32 0x5b 0x5d, then zero padding.
/// type T = Text<5, Chunk<0x6633325b5d0000000000000000000000, Nil>>;
/// assert_eq!(<T as Str>::STR, "f32[]");
/// ```
pub trait Str {
    /// The text.
    const STR: &'static str;
}

impl<const LEN: usize, C: Chunks> Str for Text<LEN, C> {
    const STR: &'static str = match core::str::from_utf8(C::BYTES.split_at(LEN).0) {
        Ok(s) => s,
        Err(_) => panic!("type-level text is not UTF-8"),
    };
}

/// Splits text into the big-endian 16-byte chunks of a [`Text`] type; `None` if it is longer
/// than [`TEXT_CAPACITY`]. Used by the `layout!` macro.
///
/// ```
/// let chunks = xla_layout::typed::text_chunks("f32[]").unwrap();
/// assert_eq!(chunks, [0x6633325b5d0000000000000000000000]);
/// ```
pub fn text_chunks(text: &str) -> Option<alloc::vec::Vec<u128>> {
    if text.len() > TEXT_CAPACITY {
        return None;
    }
    Some(
        text.as_bytes()
            .chunks(16)
            .map(|c| {
                let mut bytes = [0u8; 16];
                bytes[..c.len()].copy_from_slice(c);
                u128::from_be_bytes(bytes)
            })
            .collect(),
    )
}
