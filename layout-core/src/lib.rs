//! The runtime side of `xla-layout`: XLA's shape-and-layout text as a Rust model.
//!
//! One parser, one validator, one canonical printer and one index model for strings such as
//! `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}`, following XLA's own behaviour and
//! stricter where XLA is lax or aborts. `no_std` with `alloc`.
//!
//! ```
//! use xla_layout::{parse_array, Plan};
//!
//! let a = parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
//! assert_eq!(a.layout.memory_space, 1);
//! let plan = Plan::new(&a).unwrap();
//! assert_eq!(plan.offset(&[0, 0, 8, 0]), 131072);
//! assert_eq!(plan.size_bytes(), 8 * 1280 * 16384 * 2);
//!
//! let errs = xla_layout::parse("f32[2,3]{0,0:S(300)}").unwrap_err();
//! assert_eq!(errs.len(), 2);
//! ```
#![no_std]
#![deny(unsafe_code)]

extern crate alloc;

pub mod hlo;
pub mod index;
pub mod model;
pub mod tensor;
pub mod text;
pub mod typed;
pub mod xla;

pub use index::{Expr, LogicalOffsets, MAX_EXPANDED_RANK, MAX_PLAN_STEPS, MemoryOrder, Plan};
pub use model::{
    ArrayLayout, ArrayShape, Dim, Error, ErrorKind, Errors, MAX_NESTING, PaddingValue,
    PrimitiveType, Shape, SplitConfig, Tile, TileDim, UnknownPrimitiveType,
};
pub use text::{MAX_RENDERED_ERRORS, Snippet, Snippets, parse, parse_array, render};
pub use xla::{index_util, layout_util, shape_util};

/// The element crates whose types are [`typed::Layout::Elem`] (`half::bf16`, `num_complex::Complex`,
/// `float8::F8E4M3`, ...), re-exported so that their versions always match this crate's.
pub use {float8, half, num_complex};

/// Type-level numbers, re-exported: [`typed::Matrix`] gives a rank-2 layout's dims as
/// `typenum` types, for bounds such as `L::Rows: Rem<U8, Output = U0>`.
pub use typenum;

/// ndarray, re-exported for the `ndarray` interop of [`tensor`] (feature `ndarray`).
#[cfg(feature = "ndarray")]
pub use ndarray;

/// bytemuck, re-exported for the byte views of [`tensor`] (feature `bytemuck`).
#[cfg(feature = "bytemuck")]
pub use bytemuck;
