//! XLA's shape-and-layout text as a Rust type system.
//!
//! XLA describes every array as text such as `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}`:
//! an element type, dimensions, and a layout `{minor_to_major : tiles, tail padding, element
//! bits, memory space, ...}`. This crate reads that text the way XLA does, at compile time and
//! at run time:
//!
//! - [`layout!`] checks a literal at compile time (errors point at the offending token) and
//!   expands to a type implementing [`Layout`], whose [`offset`](StaticLayout::offset) compiles to
//!   straight-line shifts, masks, multiplies and adds;
//! - [`tensor::Tensor`] holds data in such a layout, and `copy_from` relayouts between any two
//!   layouts of the same array;
//! - [`parse`], [`Shape`] and [`Plan`] are the same model at run time: one strict parser, one
//!   validator and one canonical printer that agree with XLA's own, exact offsets and sizes.
//!
//! ```
//! use xla_layout::{layout, tensor::Tensor, Layout, StaticLayout};
//!
//! type RowMajor = layout!(f32[16,256]);                      // {1,0}, no tiles
//! type Tpu = layout!(f32[16,256]{1,0:T(8,128)});             // 8x128 tiles, checked by rustc
//! assert_eq!(Tpu::offset([1, 0]), 128);                      // the next row of the first tile
//! assert_eq!(Tpu::offset([0, 128]), 1024);                   // the first element of tile 2
//!
//! let logical: Vec<f32> = (0..16 * 256).map(|i| i as f32).collect();
//! let rows = Tensor::<RowMajor>::from_logical(&logical).unwrap();
//! let mut tiles = Tensor::<Tpu>::zeros();
//! tiles.copy_from(&rows);                                    // relayout, tile rows at a time
//! assert_eq!(tiles.as_slice()[1024], 128.0);
//! assert_eq!(tiles[[15, 255]], 4095.0);
//!
//! let shape: xla_layout::Shape = "f32[16,256]{1,0:T(8,128)}".parse().unwrap();
//! assert_eq!(shape.to_string(), Tpu::CANONICAL);             // one model at run time
//! let errs = xla_layout::parse("f32[2,3]{1,1}").unwrap_err(); // every error, with its span
//! assert_eq!(errs[0].span(), Some(11..12));
//! ```
//!
//! # Modules
//!
//! The crate follows the data's path: text, then the model, then the index plan, then types
//! and tensors.
//!
//! - [`text`]: [`parse`] and [`parse_array`] (XLA's grammar, strict where XLA is lax), the
//!   canonical printer (`Display`) and [`render`] (rustc-style diagnostics).
//! - [`model`]: [`Shape`], [`ArrayShape`], [`ArrayLayout`] with [`Tile`]s and its attributes,
//!   [`PrimitiveType`], [`Errors`], and validation ([`Shape::validate`]).
//! - [`index`]: [`Plan`] (offsets, inverse, sizes, traversals in logical and memory order) and
//!   [`Expr`] (the offset in closed form).
//! - [`xla`]: XLA's own helpers with XLA's behaviour: [`index_util`], [`layout_util`],
//!   [`shape_util`].
//! - [`typed`]: what `layout!` expands to, and the [`Layout`] trait.
//! - [`tensor`]: [`Tensor`](tensor::Tensor), [`TensorRef`](tensor::TensorRef),
//!   [`TensorMut`](tensor::TensorMut): typed buffers, relayout, bitcast, and interop
//!   (features `ndarray` and `bytemuck`).
//! - [`half`], [`num_complex`], [`float8`]: the element crates, re-exported.
//!
//! # Features
//!
//! | feature | what it adds |
//! |---|---|
//! | `ndarray` | zero-copy ndarray views of linear layouts, copies of any layout both ways |
//! | `bytemuck` | tensor storage as bytes, `from_bytes` with per-element checks |
//! | `rayon` | relayouts of 4 MiB or more on rayon's thread pool (needs std) |
//!
//! `ndarray` and `bytemuck` keep the crate `no_std` + `alloc`.
#![no_std]
#![forbid(unsafe_code)]

pub use xla_layout_core::typed::{Layout, StaticLayout};
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
/// dim     ::= N | '<=' N | '?'                           '<=N' and '?' are dynamic: extents at run time
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
/// Every type implements [`Layout`]: constants usable in `const` items ([`Layout::RANK`],
/// [`Layout::MINOR_TO_MAJOR`], [`Layout::ELEMENT_TYPE`], [`Layout::ELEMENT_BITS`],
/// [`Layout::MEMORY_SPACE`], [`Layout::CANONICAL`], [`Layout::BOUNDS`]), the element type
/// [`Layout::Elem`], and the extents-taking functions [`Layout::extents`],
/// [`Layout::offset_in`], [`Layout::sizes`], [`Layout::size_bytes`].
///
/// A literal with static dimensions also implements [`StaticLayout`]: [`StaticLayout::DIMS`],
/// [`StaticLayout::ELEMENTS`], [`StaticLayout::PHYSICAL_ELEMENTS`],
/// [`StaticLayout::SIZE_BYTES`], [`StaticLayout::offset`] (straight-line shifts, masks,
/// multiplies and adds in release builds; bounds checked only by `debug_assert!`),
/// [`StaticLayout::checked_offset`], [`StaticLayout::index_of`], and the runtime
/// [`ArrayShape`] and [`Plan`].
///
/// A literal with dynamic dimensions (`?`, `<=N`) keeps its rank, element type,
/// `minor_to_major` and tiles as constants; the extents are values
/// ([`typed::DynExtents`], checked against `<=N` when given), and `offset_in` is still
/// straight-line, with one multiply per stride that depends on a dynamic extent.
///
/// [`typed::SameArrayAs`], [`typed::BitcastCompatibleWith`] and [`typed::Rank`] name what
/// `Tensor::copy_from`, `Tensor::bitcast` and generic indexing require, with compile errors
/// that say so; [`typed::Matrix`] gives a rank-2 layout's dims as `typenum` types.
///
/// ```
/// use xla_layout::{layout, Layout, PrimitiveType, StaticLayout};
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
/// assert_eq!(<layout!(s32[<=4]) as Layout>::BOUNDS, &[4]); // extents up to 4
///
/// type Batch = layout!(bf16[?,1280]{1,0:T(8,128)(2,1)});   // a dynamic batch
/// let extents = Batch::extents([3, 1280]).unwrap();
/// assert_eq!(Batch::offset_in(&extents, [1, 0]), 1);
/// assert_eq!(Batch::size_bytes([3, 1280]).unwrap(), 8 * 1280 * 2);
/// ```
///
/// # Errors
///
/// Every rejection of layout-core's parser and validator is a compile error on the offending
/// tokens, all of a literal's errors at once, and the expansion stays a type so rustc adds
/// nothing else. For example `layout!(f32[2,3]{0,0:S(300)})` reports both
/// "minor_to_major has 0 twice; expected a permutation of 0..2 (missing: 1)" under the
/// second `0` and "S(300) is out of range: memory spaces are 0..=127 ..." under `300`.
/// Literals that XLA accepts but that have no layout type are errors too: `token[]`,
/// `opaque[]`, `padded = [..]` with dynamic dimensions, and a `*` that merges a dynamic
/// dimension.
///
/// ```compile_fail
/// type Bad = xla_layout::layout!(f32[2,3]{1,1});
/// ```
///
/// ```compile_fail
/// type Merged = xla_layout::layout!(f32[2,?]{1,0:T(*,128)});
/// ```
pub use xla_layout_macros::layout;

/// The README's examples, compiled and run as doc tests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
