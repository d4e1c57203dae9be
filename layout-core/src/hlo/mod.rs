//! HLO module text: a fast reader of whole modules as XLA dumps them (`--xla_dump_to`,
//! `HloModule::ToString()`), borrowing from the text.
//!
//! [`parse_module`] reads the header (name, `is_scheduled`, `entry_computation_layout` as
//! shapes, every attribute raw) and every computation: its instructions with name, shape
//! (through this crate's shape parser, so every layout error points at its bytes in the
//! module), opcode, operands and raw attributes. It accepts what XLA's parser accepts, except
//! that attribute values and literals are kept raw rather than checked. `Display` of a
//! [`Module`] prints it back in XLA's format.
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

pub mod memory;
mod module;
mod print;
mod read;
mod scan;

pub use module::{
    Alias, Attribute, Computation, ComputationLayout, Instruction, Module, Operand, Signature,
};
pub use read::{MAX_NESTED_INSTRUCTIONS, parse_module};
