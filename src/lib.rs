//! `xla-layout`: XLA's shape-and-layout text as a Rust type system.
//!
//! This facade re-exports [`xla_layout_core`] (the runtime model, parser, canonical printer,
//! validator and index math), the [`layout!`] macro, which turns a layout literal into a type
//! at compile time, and [`Layout`], the trait of those types.
//!
//! ```
//! use xla_layout::{layout, Layout};
//!
//! type Act = layout!(bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)});
//! const BYTES: usize = Act::SIZE_BYTES;
//! assert_eq!(BYTES, 335_544_320);
//! assert_eq!(Act::offset([0, 0, 8, 0]), 131072);
//!
//! let s: xla_layout::Shape = "f32[2,3]".parse().unwrap();
//! assert_eq!(s.to_string(), "f32[2,3]{1,0}");
//! ```
#![no_std]
#![forbid(unsafe_code)]

pub use xla_layout_core::typed::Layout;
pub use xla_layout_core::*;

/// An XLA shape-and-layout literal as a type, checked at compile time.
///
/// `layout!(LITERAL)` parses and validates the literal with layout-core's parser and
/// validator (the same ones `xla_layout::parse` runs) and expands to a
/// [`typed::Array`] type implementing [`Layout`]. Canonically equal literals give the same
/// type wherever they are written, so `layout!(f32[2,3])`, `layout!(f32[2,3]{1,0})` and
/// `layout!(f32[ 2, 3 ]{1,0:S(0)})` are one type. Name one with `pub type X = layout!(...);`.
///
/// # Grammar
///
/// ```text
/// layout!( shape [, padded = [N, ...] [, padding = zero|one|lowest|highest]] )
///
/// shape   ::= type '[' [dim {',' dim}] ']' [layout]     an array (the layout defaults to {n-1,...,0})
///           | '(' [shape {',' shape}] ')'                a tuple: expands to a Rust tuple of types
///           | 'b' '(' array ')'                          a buffer: expands to the array's type
/// dim     ::= N | '<=' N                                 '<=N' is bounded: the layout uses N
/// layout  ::= '{' [d {',' d}] [':' attrs] '}'            minor_to_major, most minor first
/// attrs   ::= [D(...)] [T tile {tile}] [L(n)] [E(n)] [S(n)] [SC split {split}] [M(n)]
/// tile    ::= '(' (N | '*') {',' (N | '*')} ')'          '*' merges a dim into the next one
/// split   ::= '(' physical_dim ':' [i {',' i}] ')'
/// type    ::= pred | s1 | s2 | s4 | s8 | s16 | s32 | s64 | u1 | ... | u64 | f16 | bf16 | f32
///           | f64 | f8e5m2 | f8e4m3 | f8e4m3fn | f8e4m3b11fnuz | f8e3m4 | f8e5m2fnuz
///           | f8e4m3fnuz | f4e2m1fn | f8e8m0fnu | f6e2m3fn | f6e3m2fn | c64 | c128
/// ```
///
/// The attributes, in the only order XLA accepts: `T` tiles (applied to physical dims, each
/// to the result of the previous), `L(n)` tail padding alignment in elements, `E(n)` bits per
/// element (packs sub-byte types), `S(n)` memory space (0..=127), `SC` split configs, `M(n)`
/// bytes of dynamic-shape metadata before the data. `D(...)` is accepted and dropped, as XLA
/// does. `padded = [..]` is the 2017 layout's `padded_dimensions` (never part of XLA's text):
/// each dimension padded at its end to the given size.
///
/// # What a type offers
///
/// Constants usable in `const` items ([`Layout::RANK`], [`Layout::DIMS`],
/// [`Layout::MINOR_TO_MAJOR`], [`Layout::ELEMENT_TYPE`], [`Layout::ELEMENT_BITS`],
/// [`Layout::MEMORY_SPACE`], [`Layout::ELEMENTS`], [`Layout::PHYSICAL_ELEMENTS`],
/// [`Layout::SIZE_BYTES`], [`Layout::CANONICAL`]), the element type [`Layout::Elem`],
/// [`Layout::offset`] (straight-line shifts, masks, multiplies and adds in release builds;
/// bounds checked only by `debug_assert!`), [`Layout::checked_offset`],
/// [`Layout::index_of`], and the runtime [`ArrayShape`] and [`Plan`]. The associated types
/// [`Layout::Dims`] and [`Layout::BitcastSignature`] make "same dimensions" and "same
/// offsets" type equalities, which `Tensor::copy_from` and `Tensor::bitcast` require.
///
/// ```
/// use xla_layout::{layout, Layout, PrimitiveType};
///
/// type Tile = layout!(f32[3,5]{1,0:T(2,2)});           // docs/tiled_layout.md, Figure 1
/// assert_eq!(Tile::offset([2, 3]), 17);
/// assert_eq!(Tile::PHYSICAL_ELEMENTS, 24);
/// assert_eq!(Tile::index_of(17), Some([2, 3]));
/// assert_eq!(Tile::index_of(23), None);                  // a padding slot
/// assert_eq!(Tile::ELEMENT_TYPE, PrimitiveType::F32);
///
/// type Packed = layout!(s4[64,128]{1,0:E(4)});
/// assert_eq!((Packed::ELEMENT_BITS, Packed::SIZE_BYTES), (4, 4096));
///
/// type Seed = layout!(f32[2,3]{0,1}, padded = [3,5], padding = zero);
/// assert_eq!(Seed::PHYSICAL_ELEMENTS, 15);
/// assert_eq!(Seed::offset([1, 2]), 7);
///
/// type Pair = layout!((f32[2], s32[<=4]));             // a Rust tuple of layout types
/// fn second(pair: Pair) -> layout!(s32[<=4]) {
///     pair.1
/// }
/// let _ = second(Pair::default());
/// assert_eq!(<layout!(s32[<=4]) as Layout>::DIMS, &[4]); // a bound is the layout's size
/// ```
///
/// # Errors
///
/// Every rejection of layout-core's parser and validator is a compile error on the offending
/// tokens, all of a literal's errors at once, and the expansion stays a type so rustc adds
/// nothing else. For example `layout!(f32[2,3]{0,0:S(300)})` reports both
/// "minor_to_major has 0 twice; expected a permutation of 0..2 (missing: 1)" under the
/// second `0` and "S(300) is out of range: memory spaces are 0..=127 ..." under `300`.
/// Literals that XLA accepts but that have no static layout are errors too: an unbounded
/// `?` dimension (use a bound `<=N`, or parse at run time), `token[]` and `opaque[]`.
///
/// ```compile_fail
/// type Bad = xla_layout::layout!(f32[2,3]{1,1});
/// ```
///
/// ```compile_fail
/// type Unbounded = xla_layout::layout!(f32[?,784]);
/// ```
pub use xla_layout_macros::layout;

/// The README's examples, compiled and run as doc tests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
