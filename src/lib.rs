//! `xla-layout`: XLA's shape-and-layout text as a Rust type system.
//!
//! This facade re-exports [`xla_layout_core`] (the runtime model, parser, canonical printer,
//! validator and index math) and the [`layout!`] macro, which turns a layout literal into a
//! type at compile time.
//!
//! ```
//! let s: xla_layout::Shape = "f32[2,3]".parse().unwrap();
//! assert_eq!(s.to_string(), "f32[2,3]{1,0}");
//! ```
#![no_std]
#![forbid(unsafe_code)]

pub use xla_layout_core::typed::Layout;
pub use xla_layout_core::*;
pub use xla_layout_macros::layout;

/// The README's examples, compiled and run as doc tests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
