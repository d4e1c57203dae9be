//! HLO module text: a fast reader of whole modules as XLA dumps them (`--xla_dump_to`,
//! `HloModule::ToString()`), borrowing from the text.
//!
//! [`parse_module`] reads the header (name, `is_scheduled`, `entry_computation_layout` as
//! shapes, `input_output_alias`, every attribute raw) and every computation: its instructions
//! with name, shape (through this crate's shape parser, so every layout error points at its
//! bytes in the module), opcode, operands and raw attributes. Names are checked as XLA checks
//! them: operands and control predecessors are defined earlier in their computation, called
//! computations earlier in the module, nothing is defined twice. `Display` of a [`Module`]
//! prints it back in XLA's format.
//!
//! It reads what XLA's parser reads (checked against XLA on real modules), with these
//! differences:
//! - attribute values and literals are kept raw, not checked: a literal with the wrong
//!   element count, a `replica_groups` or `custom_call` value XLA rejects are read;
//! - a shape may be left out only where it is read from the operands (`tuple`,
//!   `get-tuple-element`, `after-all`); XLA also infers it for other opcodes;
//! - names are kept as written. XLA renames an instruction whose name is already used in an
//!   earlier computation (`add.2` in two computations: the second becomes `add.0`), and gives
//!   nested instructions and the computations it wraps around async ops names of its own;
//! - opcodes are kept as written: XLA prints `async-start(...), calls=%c` under the wrapped
//!   op's name (`custom-call-start`).
//!
//! Memory: a [`Module`] holds one [`Instruction`] per instruction (the unnamed ones nested
//! in operand lists in [`Computation::nested`]); operands and attributes are views into the
//! text ([`Operands`], [`Attributes`]), scanned again when iterated, and each distinct shape
//! text is parsed once and shared ([`alloc::sync::Arc`]). Nothing recurses without a bound
//! ([`MAX_NESTING`](crate::MAX_NESTING), [`MAX_NESTED_INSTRUCTIONS`]) and megabyte literals
//! and strings are skipped with SIMD byte search.
//!
//! ```
//! use xla_layout::hlo::parse_module;
//!
//! let text = r#"HloModule jit_f, entry_computation_layout={(bf16[8,1280]{1,0:T(8,128)(2,1)})->bf16[8,1280]{1,0:T(8,128)(2,1)}}
//!
//! %fused_exp (p: bf16[8,1280]) -> bf16[8,1280] {
//!   %p = bf16[8,1280]{1,0:T(8,128)(2,1)} parameter(0)
//!   ROOT %e = bf16[8,1280]{1,0:T(8,128)(2,1)} exponential(%p)
//! }
//!
//! ENTRY %main (x: bf16[8,1280]) -> bf16[8,1280] {
//!   %x = bf16[8,1280]{1,0:T(8,128)(2,1)} parameter(0), metadata={op_name="jit(f)/x"}
//!   ROOT %f = bf16[8,1280]{1,0:T(8,128)(2,1)} fusion(%x), kind=kLoop, calls=%fused_exp
//! }
//! "#;
//! let module = parse_module(text).unwrap();
//! assert_eq!(module.name(), Some("jit_f"));
//! let main = module.entry();
//! for instruction in &main.instructions {
//!     println!("{} = {} {}", instruction.name, instruction.shape, instruction.opcode);
//! }
//! let fusion = main.root();
//! assert_eq!(fusion.calls(), Some("fused_exp"));
//! assert_eq!(module.computation("fused_exp").unwrap().root().opcode, "exponential");
//!
//! // Printing gives XLA's text back, which reads the same.
//! let again = module.to_string();
//! assert_eq!(parse_module(&again).unwrap().to_string(), again);
//! ```

mod attribute;
pub mod memory;
mod module;
mod names;
mod operand;
mod print;
mod read;
mod scan;

pub use attribute::{Attribute, AttributeIter, Attributes};
pub use module::{Alias, Computation, ComputationLayout, Instruction, Module, Signature};
pub use operand::{Operand, OperandIter, Operands};
pub use read::{MAX_NESTED_INSTRUCTIONS, parse_module};
