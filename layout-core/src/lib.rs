//! The runtime side of `xla-layout`: XLA's shape-and-layout text as a Rust model.
//!
//! One parser, one validator, one canonical printer and one index model for strings such as
//! `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}`, following XLA's own behaviour and
//! stricter where XLA is lax or aborts. `no_std` with `alloc`.
//!
//! ```
//! use xla_layout_core::{parse_array, Plan};
//!
//! let a = parse_array("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").unwrap();
//! assert_eq!(a.layout.memory_space, 1);
//! let plan = Plan::new(&a).unwrap();
//! assert_eq!(plan.offset(&[0, 0, 8, 0]), 131072);
//! assert_eq!(plan.size_bytes(), 8 * 1280 * 16384 * 2);
//!
//! let errs = xla_layout_core::parse("f32[2,3]{0,0:S(300)}").unwrap_err();
//! assert_eq!(errs.len(), 2);
//! ```
#![no_std]
#![deny(unsafe_code)]

extern crate alloc;

mod error;
mod expr;
pub mod index_util;
mod layout;
pub mod layout_util;
mod lex;
mod parse;
mod primitive;
mod print;
mod render;
mod shape;
pub mod shape_util;
pub mod tensor;
mod tiling;
mod traverse;
pub mod typed;
mod validate;

pub use error::{Error, ErrorKind, Errors};
pub use expr::Expr;
pub use layout::{ArrayLayout, PaddingValue, SplitConfig, Tile, TileDim};
pub use parse::{MAX_NESTING, parse, parse_array};
pub use primitive::{PrimitiveType, UnknownPrimitiveType};
pub use render::render;
pub use shape::{ArrayShape, Dim, Shape};
pub use tiling::{MAX_EXPANDED_RANK, Plan};
pub use traverse::{LogicalOffsets, MemoryOrder};
