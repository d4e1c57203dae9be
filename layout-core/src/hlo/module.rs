//! What a read HLO module holds: computations of instructions, each with its name, shape,
//! opcode, operands and raw attributes, all borrowing from the module text.

use alloc::sync::Arc;
use alloc::vec::Vec;
use core::ops::Range;

use crate::hlo::attribute::{Attribute, Attributes, is_call_attribute, split_names, strip_percent};
use crate::hlo::operand::Operands;
use crate::model::Shape;

/// An HLO module: its header and its computations, in text order.
///
/// ```
/// let text = "HloModule m, is_scheduled=true\n\
///             ENTRY %main (p: f32[2]) -> f32[2] {\n  ROOT %p = f32[2]{0} parameter(0)\n}\n";
/// let module = xla_layout::hlo::parse_module(text).unwrap();
/// assert_eq!(module.name(), Some("m"));
/// assert!(module.is_scheduled());
/// assert_eq!(module.entry().name, "main");
/// assert_eq!(module.computations().len(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct Module<'a> {
    pub(crate) name: Option<&'a str>,
    pub(crate) attributes: Vec<Attribute<'a>>,
    pub(crate) is_scheduled: bool,
    pub(crate) entry_computation_layout: Option<ComputationLayout>,
    pub(crate) input_output_alias: Vec<Alias>,
    pub(crate) computations: Vec<Computation<'a>>,
    pub(crate) entry: usize,
}

impl<'a> Module<'a> {
    /// The name after `HloModule`; `None` for text without a header (XLA then names the
    /// module `module_<entry computation>`).
    ///
    /// ```
    /// let m = xla_layout::hlo::parse_module("ENTRY e {\n  ROOT c = f32[] constant(1)\n}").unwrap();
    /// assert_eq!(m.name(), None);
    /// ```
    pub fn name(&self) -> Option<&'a str> {
        self.name
    }

    /// The header attributes (`is_scheduled=true`, `input_output_alias={...}`,
    /// `entry_computation_layout={...}`, ...), raw, in text order.
    ///
    /// ```
    /// let text = "HloModule m, replica_count=2\nENTRY e {\n  ROOT c = f32[] constant(1)\n}";
    /// let m = xla_layout::hlo::parse_module(text).unwrap();
    /// assert_eq!(m.attributes()[0].name, "replica_count");
    /// assert_eq!(m.attribute("replica_count"), Some("2"));
    /// ```
    pub fn attributes(&self) -> &[Attribute<'a>] {
        &self.attributes
    }

    /// The raw value of the header attribute `name`, if it is given.
    ///
    /// ```
    /// let text = "HloModule m, input_output_alias={ {}: (0, {}, may-alias) }\n\
    ///             ENTRY e {\n  ROOT p = f32[] parameter(0)\n}";
    /// let m = xla_layout::hlo::parse_module(text).unwrap();
    /// assert_eq!(m.attribute("input_output_alias"), Some("{ {}: (0, {}, may-alias) }"));
    /// ```
    pub fn attribute(&self, name: &str) -> Option<&'a str> {
        find_attribute(&self.attributes, name)
    }

    /// `is_scheduled=true`: the instruction order of every computation is its schedule.
    ///
    /// ```
    /// let m = xla_layout::hlo::parse_module("ENTRY e {\n  ROOT c = f32[] constant(1)\n}").unwrap();
    /// assert!(!m.is_scheduled());
    /// ```
    pub fn is_scheduled(&self) -> bool {
        self.is_scheduled
    }

    /// The header's `entry_computation_layout`: the entry's parameter and result shapes with
    /// their full layouts.
    ///
    /// ```
    /// let text = "HloModule m, entry_computation_layout={(f32[8,128]{0,1:T(8,128)})->f32[]}\n\
    ///             ENTRY e {\n  p = f32[8,128]{0,1} parameter(0)\n  ROOT c = f32[] constant(1)\n}";
    /// let m = xla_layout::hlo::parse_module(text).unwrap();
    /// let layout = m.entry_computation_layout().unwrap();
    /// assert_eq!(layout.parameters[0].to_string(), "f32[8,128]{0,1:T(8,128)}");
    /// assert_eq!(layout.result.to_string(), "f32[]");
    /// ```
    pub fn entry_computation_layout(&self) -> Option<&ComputationLayout> {
        self.entry_computation_layout.as_ref()
    }

    /// The header's `input_output_alias`: which outputs reuse a parameter's buffer.
    ///
    /// ```
    /// let text = "HloModule m, input_output_alias={ {0}: (1, {}, may-alias), {1}: (0, {2}, must-alias) }\n\
    ///             ENTRY e {\n  ROOT c = f32[] constant(1)\n}";
    /// let m = xla_layout::hlo::parse_module(text).unwrap();
    /// let a = &m.input_output_alias()[1];
    /// assert_eq!((a.output_index.as_slice(), a.parameter_number), (&[1][..], 0));
    /// assert_eq!(a.parameter_index, [2]);
    /// assert!(a.must_alias);
    /// ```
    pub fn input_output_alias(&self) -> &[Alias] {
        &self.input_output_alias
    }

    /// Every computation in text order: callees come before their callers.
    ///
    /// ```
    /// let text = "HloModule m\n\
    ///             add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n\
    ///             ENTRY e {\n  p = f32[4] parameter(0)\n  z = f32[] constant(0)\n  \
    ///             ROOT r = f32[] reduce(p, z), dimensions={0}, to_apply=add\n}";
    /// let m = xla_layout::hlo::parse_module(text).unwrap();
    /// let names: Vec<_> = m.computations().iter().map(|c| c.name).collect();
    /// assert_eq!(names, ["add", "e"]);
    /// ```
    pub fn computations(&self) -> &[Computation<'a>] {
        &self.computations
    }

    /// The entry computation: the one marked `ENTRY`, or else the last one.
    ///
    /// ```
    /// let text = "a {\n  ROOT x = f32[] constant(1)\n}\nb {\n  ROOT y = f32[] constant(2)\n}";
    /// let m = xla_layout::hlo::parse_module(text).unwrap();
    /// assert_eq!(m.entry().name, "b");
    /// ```
    pub fn entry(&self) -> &Computation<'a> {
        &self.computations[self.entry]
    }

    /// The computation called `name` (without `%`).
    ///
    /// ```
    /// let m = xla_layout::hlo::parse_module("ENTRY %e {\n  ROOT c = f32[] constant(1)\n}").unwrap();
    /// assert!(m.computation("e").unwrap().is_entry);
    /// assert!(m.computation("f").is_none());
    /// ```
    pub fn computation(&self, name: &str) -> Option<&Computation<'a>> {
        self.computations.iter().find(|c| c.name == name)
    }
}

/// `entry_computation_layout={(P0, P1, ...)->R}`: the entry's parameter and result shapes.
///
/// ```
/// let text = "HloModule m, entry_computation_layout={(f32[2]{0}, s32[])->(f32[2]{0}, s32[])}\n\
///             ENTRY e {\n  a = f32[2] parameter(0)\n  b = s32[] parameter(1)\n  ROOT t = (f32[2], s32[]) tuple(a, b)\n}";
/// let layout = xla_layout::hlo::parse_module(text).unwrap().entry_computation_layout().unwrap().clone();
/// assert_eq!(layout.parameters.len(), 2);
/// assert_eq!(layout.result.to_string(), "(f32[2]{0}, s32[])");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComputationLayout {
    /// The parameter shapes, parameter 0 first.
    pub parameters: Vec<Shape>,
    /// The result shape.
    pub result: Shape,
}

/// One entry of `input_output_alias`: output `output_index` shares the buffer of parameter
/// `parameter_number` at `parameter_index`.
///
/// ```
/// let text = "HloModule m, input_output_alias={ {}: (0, {}) }\nENTRY e {\n  ROOT p = f32[] parameter(0)\n}";
/// let alias = xla_layout::hlo::parse_module(text).unwrap().input_output_alias()[0].clone();
/// assert!(alias.output_index.is_empty() && !alias.must_alias);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alias {
    /// The index into the entry's result shape (`{}` for the whole result).
    pub output_index: Vec<i64>,
    /// The entry parameter whose buffer is reused.
    pub parameter_number: i64,
    /// The index into that parameter's shape.
    pub parameter_index: Vec<i64>,
    /// `must-alias`; `may-alias` (the default when no kind is written) otherwise.
    pub must_alias: bool,
}

/// One computation: an entry, a fusion body, a reducer, a while condition or body, a branch...
/// Only the attributes that call it say which.
///
/// ```
/// let text = "ENTRY %main (a: f32[4]) -> f32[4] {\n  %a = f32[4]{0} parameter(0)\n  \
///             ROOT %n = f32[4]{0} negate(%a)\n}";
/// let m = xla_layout::hlo::parse_module(text).unwrap();
/// let main = m.entry();
/// assert_eq!(main.name, "main");
/// assert_eq!(main.root().name, "n");
/// assert_eq!(main.signature.as_ref().unwrap().parameters[0].0, "a");
/// ```
#[derive(Clone, Debug)]
pub struct Computation<'a> {
    /// The name, without `%`.
    pub name: &'a str,
    /// Marked `ENTRY`, or the last computation of a module with no `ENTRY`.
    pub is_entry: bool,
    /// The `(p: SHAPE, ...) -> SHAPE` signature if written (XLA prints it without layouts).
    pub signature: Option<Signature<'a>>,
    /// The instructions in text order (the schedule when the module `is_scheduled`).
    pub instructions: Vec<Instruction<'a>>,
    /// `execution_thread="..."` after the closing `}` (the string's raw contents).
    pub execution_thread: Option<&'a str>,
    /// The byte range from `ENTRY` or the name to the closing `}`.
    pub span: Range<usize>,
    pub(crate) root: usize,
}

impl<'a> Computation<'a> {
    /// The root: the instruction marked `ROOT`, or else the last one.
    ///
    /// ```
    /// let m = xla_layout::hlo::parse_module("e {\n  a = f32[] constant(1)\n  b = f32[] constant(2)\n}").unwrap();
    /// assert_eq!(m.entry().root().name, "b");
    /// ```
    pub fn root(&self) -> &Instruction<'a> {
        &self.instructions[self.root]
    }

    /// The instruction called `name` (without `%`). A linear search; build a map to look up
    /// many names.
    ///
    /// ```
    /// let m = xla_layout::hlo::parse_module("e {\n  ROOT %c = f32[] constant(1)\n}").unwrap();
    /// assert_eq!(m.entry().instruction("c").unwrap().opcode, "constant");
    /// ```
    pub fn instruction(&self, name: &str) -> Option<&Instruction<'a>> {
        self.instructions.iter().find(|i| i.name == name)
    }

    /// The `parameter(N)` instructions, in text order.
    ///
    /// ```
    /// let text = "e {\n  b = s32[] parameter(1)\n  a = f32[] parameter(0)\n  ROOT t = (f32[], s32[]) tuple(a, b)\n}";
    /// let m = xla_layout::hlo::parse_module(text).unwrap();
    /// let numbers: Vec<_> = m.entry().parameters().map(|p| p.parameter_number.unwrap()).collect();
    /// assert_eq!(numbers, [1, 0]);
    /// ```
    pub fn parameters(&self) -> impl Iterator<Item = &Instruction<'a>> {
        self.instructions
            .iter()
            .filter(|i| i.parameter_number.is_some())
    }
}

/// A computation's written signature `(name: SHAPE, ...) -> SHAPE`.
///
/// ```
/// let m = xla_layout::hlo::parse_module("ENTRY e (x: f32[2]) -> f32[2] {\n  ROOT x = f32[2] parameter(0)\n}").unwrap();
/// let sig = m.entry().signature.as_ref().unwrap();
/// assert_eq!(sig.parameters[0].1.to_string(), "f32[2]{0}");
/// assert_eq!(sig.result.to_string(), "f32[2]{0}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature<'a> {
    /// Each parameter's name and shape.
    pub parameters: Vec<(&'a str, Arc<Shape>)>,
    /// The result shape.
    pub result: Arc<Shape>,
}

/// One instruction: `[ROOT ]%name = SHAPE opcode(operands), attribute=value, ...`.
///
/// ```
/// let text = "e {\n  %p = f32[8,128]{1,0:T(8,128)} parameter(0)\n  \
///             ROOT %b = bf16[8,128]{1,0:T(8,128)(2,1)} convert(f32[8,128]{1,0:T(8,128)} %p), metadata={op_name=\"cast\"}\n}";
/// let m = xla_layout::hlo::parse_module(text).unwrap();
/// let b = m.entry().root();
/// assert_eq!(b.name, "b");
/// assert_eq!(b.opcode, "convert");
/// assert_eq!(b.shape.to_string(), "bf16[8,128]{1,0:T(8,128)(2,1)}");
/// assert_eq!(b.operands.get(0).unwrap().name, "p");
/// assert_eq!(b.attribute("metadata"), Some("{op_name=\"cast\"}"));
/// assert!(b.is_root);
/// ```
#[derive(Clone, Debug)]
pub struct Instruction<'a> {
    /// The name, without `%`. Empty for a nested instruction (an operand such as
    /// `constant(1)`), which XLA names itself.
    pub name: &'a str,
    /// The result shape with its layout; for `tuple`, `get-tuple-element` and `after-all`
    /// written without one, the shape XLA infers. Shared by every instruction of the module
    /// whose shape is written the same.
    pub shape: Arc<Shape>,
    /// The opcode as written: `add`, `fusion`, `get-tuple-element`, `all-reduce-start`,
    /// `custom-call-start` (async sugar), `async-start`...
    pub opcode: &'a str,
    /// The operands, in order. Empty for `parameter(N)` and `constant(...)`.
    pub operands: Operands<'a>,
    /// `N` of `parameter(N)`.
    pub parameter_number: Option<i64>,
    /// The literal of `constant(...)`, raw: `1`, `{ {1, 2}, {3, 4} }`, `{...}`.
    pub literal: Option<&'a str>,
    /// The attributes after the operands, raw, in text order.
    pub attributes: Attributes<'a>,
    /// The root of its computation (marked `ROOT`, or the last instruction).
    pub is_root: bool,
    /// The byte range from `ROOT` or the name to the end of the last attribute.
    pub span: Range<usize>,
}

impl<'a> Instruction<'a> {
    /// The raw value of attribute `name`, if given.
    ///
    /// ```
    /// let m = xla_layout::hlo::parse_module("e {\n  p = (f32[], s32[]) parameter(0)\n  ROOT g = s32[] get-tuple-element(p), index=1\n}").unwrap();
    /// assert_eq!(m.entry().root().attribute("index"), Some("1"));
    /// ```
    pub fn attribute(&self, name: &str) -> Option<&'a str> {
        self.attributes.get(name)
    }

    /// The computations this instruction calls, in attribute order, without `%`: `calls`,
    /// `to_apply`, `condition`, `body`, `select`, `scatter`, `true_computation`,
    /// `false_computation`, `branch_computations` and `called_computations`.
    ///
    /// ```
    /// let text = "c {\n  ROOT p = pred[] parameter(0)\n}\nb {\n  ROOT p = pred[] parameter(0)\n}\n\
    ///             ENTRY e {\n  p = pred[] parameter(0)\n  ROOT w = pred[] while(p), condition=%c, body=b\n}";
    /// let m = xla_layout::hlo::parse_module(text).unwrap();
    /// let called: Vec<_> = m.entry().root().called_computations().collect();
    /// assert_eq!(called, ["c", "b"]);
    /// ```
    pub fn called_computations(&self) -> impl Iterator<Item = &'a str> + use<'a> {
        self.attributes
            .iter()
            .filter(|a| is_call_attribute(a.name))
            .flat_map(|a| split_names(a.value))
    }

    /// `calls=`: the fused computation of a `fusion`, or the wrapped one of an `async-start`.
    ///
    /// ```
    /// let text = "f {\n  ROOT p = f32[] parameter(0)\n}\n\
    ///             ENTRY e {\n  p = f32[] parameter(0)\n  ROOT r = f32[] fusion(p), kind=kLoop, calls=%f\n}";
    /// let m = xla_layout::hlo::parse_module(text).unwrap();
    /// assert_eq!(m.entry().root().calls(), Some("f"));
    /// assert_eq!(m.entry().root().fusion_kind(), Some("kLoop"));
    /// ```
    pub fn calls(&self) -> Option<&'a str> {
        self.attribute("calls").and_then(|v| split_names(v).next())
    }

    /// `to_apply=`: the reducer, comparator or callee of reduce, sort, map, all-reduce, call...
    ///
    /// ```
    /// let text = "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n\
    ///             ENTRY e {\n  p = f32[4] parameter(0)\n  ROOT r = f32[4] all-reduce(p), to_apply=%add\n}";
    /// let m = xla_layout::hlo::parse_module(text).unwrap();
    /// assert_eq!(m.entry().root().to_apply(), Some("add"));
    /// ```
    pub fn to_apply(&self) -> Option<&'a str> {
        self.attribute("to_apply").map(strip_percent)
    }

    /// `condition=` of a `while`.
    ///
    /// ```
    /// let text = "c {\n  ROOT p = pred[] parameter(0)\n}\nENTRY e {\n  p = pred[] parameter(0)\n  \
    ///             ROOT w = pred[] while(p), condition=c, body=c\n}";
    /// assert_eq!(xla_layout::hlo::parse_module(text).unwrap().entry().root().condition(), Some("c"));
    /// ```
    pub fn condition(&self) -> Option<&'a str> {
        self.attribute("condition").map(strip_percent)
    }

    /// `body=` of a `while`.
    ///
    /// ```
    /// let text = "c {\n  ROOT p = pred[] parameter(0)\n}\nENTRY e {\n  p = pred[] parameter(0)\n  \
    ///             ROOT w = pred[] while(p), condition=c, body=%c\n}";
    /// assert_eq!(xla_layout::hlo::parse_module(text).unwrap().entry().root().body(), Some("c"));
    /// ```
    pub fn body(&self) -> Option<&'a str> {
        self.attribute("body").map(strip_percent)
    }

    /// `kind=` of a `fusion`: `kLoop`, `kInput`, `kOutput` or `kCustom`.
    ///
    /// ```
    /// let text = "f {\n  ROOT p = f32[] parameter(0)\n}\n\
    ///             ENTRY e {\n  p = f32[] parameter(0)\n  ROOT r = f32[] fusion(p), kind=kInput, calls=f\n}";
    /// assert_eq!(xla_layout::hlo::parse_module(text).unwrap().entry().root().fusion_kind(), Some("kInput"));
    /// ```
    pub fn fusion_kind(&self) -> Option<&'a str> {
        self.attribute("kind")
    }
}

fn find_attribute<'a>(attributes: &[Attribute<'a>], name: &str) -> Option<&'a str> {
    attributes.iter().find(|a| a.name == name).map(|a| a.value)
}
