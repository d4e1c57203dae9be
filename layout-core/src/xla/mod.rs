//! XLA's own helpers over the model and the plan, with XLA's behaviour and its documented
//! quirks: `IndexUtil`, `LayoutUtil` and `ShapeUtil`, the padding figures of XLA's memory
//! reports, and XLA's byte-count formatting.

pub mod index_util;
pub mod layout_util;
pub mod numbers;
pub mod padding;
pub mod shape_util;
