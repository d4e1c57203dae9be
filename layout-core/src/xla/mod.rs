//! XLA's own helpers over the model and the plan, with XLA's behaviour and its documented
//! quirks: `IndexUtil`, `LayoutUtil` and `ShapeUtil`.

pub mod index_util;
pub mod layout_util;
pub mod shape_util;
