//! The index plan: a valid static layout compiled for indexing. [`Plan`] maps logical indices
//! to element offsets and back and gives every size; [`Expr`] is the offset in closed form;
//! the traversals visit elements in logical or in memory order.

mod along;
mod divide;
mod expr;
mod plan;
mod program;
pub(crate) mod runs;
mod seek;
pub(crate) mod steps;
mod traverse;

pub use expr::Expr;
pub use plan::{MAX_EXPANDED_RANK, MAX_PLAN_STEPS, Plan};
pub use traverse::{LogicalOffsets, MemoryOrder};
