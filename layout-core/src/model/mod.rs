//! The model: what an XLA shape is, independent of any text. Element types, array and tuple
//! shapes, layouts with their tiles and attributes, the physical shape and byte size a layout
//! gives, the errors every stage reports, and the validator (XLA's `ValidateLayoutForShape`
//! and `ValidateShape` plus this crate's strict rules).

mod error;
mod layout;
pub(crate) mod primitive;
mod shape;
pub(crate) mod spans;
pub(crate) mod tiling;
pub(crate) mod validate;

pub use error::{Error, ErrorKind, Errors};
pub use layout::{ArrayLayout, PaddingValue, SplitConfig, Tile, TileDim};
pub use primitive::{PrimitiveType, UnknownPrimitiveType};
pub use shape::{ArrayShape, Dim, MAX_NESTING, Shape};
