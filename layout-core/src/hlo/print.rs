//! Printing a read module back in XLA's format (`HloModule::ToString` with `%` names and the
//! operand shapes that were written), attributes and literals as they were written.

use core::fmt::{self, Display, Formatter};

use crate::hlo::attribute::Attribute;
use crate::hlo::module::{Computation, Instruction, Module, Signature};
use crate::hlo::operand::Operand;

impl Display for Module<'_> {
    /// ```
    /// let text = "HloModule m, is_scheduled=true\nENTRY e {\n  p = f32[2] parameter(0)\n  ROOT n = f32[2] negate(p)\n}";
    /// let m = xla_layout::hlo::parse_module(text).unwrap();
    /// assert_eq!(m.to_string(), "HloModule m, is_scheduled=true\n\n\
    ///     ENTRY %e {\n  %p = f32[2]{0} parameter(0)\n  ROOT %n = f32[2]{0} negate(%p)\n}\n\n");
    /// ```
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(name) = self.name {
            write!(f, "HloModule {name}")?;
            for attribute in &self.attributes {
                write!(f, ", {attribute}")?;
            }
            f.write_str("\n\n")?;
        }
        for computation in &self.computations {
            writeln!(f, "{computation}")?;
        }
        Ok(())
    }
}

impl Display for Computation<'_> {
    /// ```
    /// let m = xla_layout::hlo::parse_module("c (x: f32[]) -> f32[] {\n  ROOT x = f32[] parameter(0)\n}").unwrap();
    /// assert_eq!(m.entry().to_string(), "ENTRY %c (x: f32[]) -> f32[] {\n  ROOT %x = f32[] parameter(0)\n}\n");
    /// ```
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if self.is_entry {
            f.write_str("ENTRY ")?;
        }
        write!(f, "%{} ", self.name)?;
        if let Some(signature) = &self.signature {
            write!(f, "{signature} ")?;
        }
        f.write_str("{\n")?;
        for instruction in &self.instructions {
            writeln!(f, "  {instruction}")?;
        }
        f.write_str("}")?;
        if let Some(thread) = self.execution_thread {
            write!(f, ", execution_thread=\"{thread}\"")?;
        }
        f.write_str("\n")
    }
}

impl Display for Signature<'_> {
    /// ```
    /// let m = xla_layout::hlo::parse_module("c (x: f32[2], y: s32[]) -> f32[2] {\n  ROOT x = f32[2] parameter(0)\n}").unwrap();
    /// let sig = m.entry().signature.as_ref().unwrap();
    /// assert_eq!(sig.to_string(), "(x: f32[2]{0}, y: s32[]) -> f32[2]{0}");
    /// ```
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for (i, (name, shape)) in self.parameters.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{name}: {shape}")?;
        }
        write!(f, ") -> {}", self.result)
    }
}

impl Display for Instruction<'_> {
    /// ```
    /// let m = xla_layout::hlo::parse_module("e {\n  ROOT c = s32[2] constant({1, 2}), sharding={replicated}\n}").unwrap();
    /// assert_eq!(m.entry().root().to_string(), "ROOT %c = s32[2]{0} constant({1, 2}), sharding={replicated}");
    /// ```
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if self.is_root {
            f.write_str("ROOT ")?;
        }
        write!(f, "%{} = ", self.name)?;
        self.fmt_rhs(f)?;
        for attribute in &self.attributes {
            write!(f, ", {attribute}")?;
        }
        Ok(())
    }
}

impl Instruction<'_> {
    /// `SHAPE opcode(operands)`.
    fn fmt_rhs(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}(", self.shape, self.opcode)?;
        if let Some(n) = self.parameter_number {
            write!(f, "{n}")?;
        } else if let Some(literal) = self.literal {
            f.write_str(literal)?;
        }
        for (i, operand) in self.operands.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{operand}")?;
        }
        f.write_str(")")
    }
}

impl Display for Operand<'_> {
    /// `SHAPE %name` or `%name`, the shape canonical; a nested instruction as written.
    ///
    /// ```
    /// let m = xla_layout::hlo::parse_module("e {\n  p = f32[] parameter(0)\n  ROOT n = f32[] add(f32[] p, p)\n}").unwrap();
    /// let ops: Vec<_> = m.entry().root().operands.iter().map(|o| o.to_string()).collect();
    /// assert_eq!(ops, ["f32[] %p", "%p"]);
    /// ```
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if self.is_nested() {
            return f.write_str(self.text());
        }
        match self.shape() {
            Some(shape) => write!(f, "{shape} %{}", self.name),
            None => write!(f, "%{}", self.name),
        }
    }
}

impl Display for Attribute<'_> {
    /// ```
    /// let m = xla_layout::hlo::parse_module("e {\n  ROOT c = f32[] constant(1), metadata={op_name=\"a b\"}\n}").unwrap();
    /// assert_eq!(m.entry().root().attributes.iter().next().unwrap().to_string(), "metadata={op_name=\"a b\"}");
    /// ```
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.name, self.value)
    }
}
