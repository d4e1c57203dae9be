//! The reader: module header, computations and instruction lines (`hlo_parser.cc`'s
//! `ParseHloModule` grammar), with shapes read by the shape parser and attribute values kept
//! raw.
//!
//! Syntax errors end the read; undefined or duplicate names and invalid shapes are collected
//! and reading goes on, so one call reports every problem it can.

use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::ops::Range;

use hashbrown::HashTable;

use crate::hlo::attribute::{Attribute, Attributes, is_call_attribute, split_names};
use crate::hlo::module::{Alias, Computation, ComputationLayout, Instruction, Module, Signature};
use crate::hlo::names::{NameTable, hash};
use crate::hlo::operand::Operands;
use crate::hlo::scan::Cursor;
use crate::model::{Error, ErrorKind, Errors, MAX_NESTING, Shape};
use crate::text::parse_embedded;

/// The deepest nesting of unnamed instructions in operand lists (`add(f32[] constant(1), ...)`).
///
/// The reader reads a nested instruction by recursion, and a level takes several KiB of
/// stack in a debug build; 16 levels stay well inside a 256 KiB thread stack, and real modules
/// nest a few levels at most (XLA prints every instruction on its own line).
///
/// ```
/// use xla_layout::hlo::{MAX_NESTED_INSTRUCTIONS, parse_module};
/// let nested = |n: usize| {
///     let ops = "f32[] negate(".repeat(n);
///     format!("e {{\n  p = f32[] parameter(0)\n  ROOT r = {ops}p{}\n}}", ")".repeat(n))
/// };
/// assert!(parse_module(&nested(MAX_NESTED_INSTRUCTIONS)).is_ok());
/// assert!(parse_module(&nested(MAX_NESTED_INSTRUCTIONS + 1)).is_err());
/// ```
pub const MAX_NESTED_INSTRUCTIONS: usize = 16;

/// Reads a whole HLO module (`HloModule name, attr=...` then computations), as XLA's parser
/// accepts it: every computation, instruction, shape (validated, with layouts), opcode,
/// operand and attribute. Errors carry byte ranges into `text`; render them with
/// [`Errors::render`](crate::model::Errors::render).
///
/// ```
/// let text = "HloModule m\n\nENTRY %main {\n  %p = f32[8,128]{1,0:T(8,128)} parameter(0)\n  \
///             ROOT %n = f32[8,128]{1,0:T(8,128)} negate(%p)\n}\n";
/// let module = xla_layout::hlo::parse_module(text).unwrap();
/// let root = module.entry().root();
/// assert_eq!((root.name, root.opcode), ("n", "negate"));
/// assert_eq!(root.shape.to_string(), "f32[8,128]{1,0:T(8,128)}");
///
/// let bad = "ENTRY e {\n  ROOT p = f32[2]{0:T(0)} parameter(0)\n}";
/// let errs = xla_layout::hlo::parse_module(bad).unwrap_err();
/// assert!(errs.render(bad, "m.hlo").contains("--> m.hlo:2:23"));
/// ```
pub fn parse_module(text: &str) -> Result<Module<'_>, Errors> {
    let mut r = Reader {
        c: Cursor::new(text),
        errors: Vec::new(),
        computations: Vec::new(),
        computation_names: NameTable::default(),
        names: NameTable::default(),
        shapes: HashTable::new(),
        attributes: Vec::new(),
        instructions: Vec::new(),
        nested: Vec::new(),
        operand_shapes: Vec::new(),
        copy_budget: text.len().saturating_add(COPY_ALLOWANCE),
    };
    match r.module() {
        Ok(module) if r.errors.is_empty() => Ok(module),
        Ok(_) => Err(Errors::new(r.errors)),
        Err(fatal) => {
            r.errors.push(fatal);
            Err(Errors::new(r.errors))
        }
    }
}

struct Reader<'a> {
    c: Cursor<'a>,
    errors: Vec<Error>,
    computations: Vec<Computation<'a>>,
    computation_names: NameTable,
    /// The instructions of the computation being read, by name.
    names: NameTable,
    /// The instructions of the computation being read.
    instructions: Vec<Instruction<'a>>,
    /// The nested instructions of the computation being read, each after its operands.
    nested: Vec<Instruction<'a>>,
    /// The operand shapes of the instruction being read, when its shape is inferred.
    operand_shapes: Vec<Shape>,
    /// The attributes of the instruction being read.
    attributes: Vec<Attribute<'a>>,
    /// Every valid shape read so far, by its exact text: a module repeats few shapes many
    /// times, and the same text always reads as the same shape.
    shapes: HashTable<(u64, &'a str, Arc<Shape>)>,
    /// How many more shapes (arrays, tuples, ...) inferred shapes may copy from their
    /// operands: the module's length in bytes plus [`COPY_ALLOWANCE`] in all.
    copy_budget: usize,
}

/// Shapes that inferred shapes may copy beyond one per byte of the module.
const COPY_ALLOWANCE: usize = 1 << 16;

fn undefined(kind: &str, name: &str, span: Range<usize>) -> Error {
    Error::new(
        ErrorKind::UndefinedName,
        Some(span),
        format!(
            "{kind} `{name}` is not defined before this use; define it earlier (XLA allows no forward references)"
        ),
    )
}

impl<'a> Reader<'a> {
    fn module(&mut self) -> Result<Module<'a>, Error> {
        self.c.skip_trivia()?;
        let mut name = None;
        let mut attributes = Vec::new();
        let mut is_scheduled = false;
        let mut entry_computation_layout = None;
        let mut input_output_alias = Vec::new();
        let start = self.c.pos;
        let header = matches!(self.c.ident()?, Some(("HloModule", _)))
            && !self.c.src[start..].starts_with('%');
        if !header {
            self.c.pos = start;
        } else {
            name = Some(self.name("the module's name after `HloModule`")?.0);
            while self.c.eat(b',')? {
                let attribute = self.attribute()?;
                match attribute.name {
                    "is_scheduled" => is_scheduled = attribute.value == "true",
                    "entry_computation_layout" => {
                        entry_computation_layout = Some(self.computation_layout(&attribute)?);
                    }
                    "input_output_alias" => {
                        input_output_alias = self.input_output_alias(&attribute)?
                    }
                    _ => {}
                }
                attributes.push(attribute);
            }
        }
        let mut entry = None;
        loop {
            self.c.skip_trivia()?;
            if self.c.peek().is_none() {
                break;
            }
            let computation = self.computation()?;
            if computation.is_entry {
                if let Some(first) = entry {
                    let first: &Computation<'_> = &self.computations[first];
                    self.errors.push(Error::new(
                        ErrorKind::DuplicateName,
                        Some(computation.span.start..computation.span.start + 5),
                        format!(
                            "a second ENTRY computation; `{}` (byte {}) is already the entry",
                            first.name, first.span.start
                        ),
                    ));
                } else {
                    entry = Some(self.computations.len());
                }
            }
            let index = self.computations.len();
            let computations = &self.computations;
            self.computation_names
                .insert(computation.name, index, |i| computations[i].name);
            self.computations.push(computation);
        }
        let Some(last) = self.computations.len().checked_sub(1) else {
            return Err(self
                .c
                .expected("a computation such as `ENTRY %main { ... }`"));
        };
        let entry = entry.unwrap_or(last);
        self.computations[entry].is_entry = true;
        Ok(Module {
            name,
            attributes,
            is_scheduled,
            entry_computation_layout,
            input_output_alias,
            computations: core::mem::take(&mut self.computations),
            entry,
        })
    }

    /// A name (identifier, optional `%`) or an error saying `what` was expected.
    #[inline]
    fn name(&mut self, what: &str) -> Result<(&'a str, Range<usize>), Error> {
        self.c.skip_trivia()?;
        match self.c.ident()? {
            Some(name) => Ok(name),
            None => Err(self.c.expected(what)),
        }
    }

    /// A shape at the cursor, shared with every earlier occurrence of the same text.
    fn shared_shape(&mut self) -> Result<Arc<Shape>, Error> {
        self.c.skip_trivia()?;
        let start = self.c.pos;
        let Some(extent) = self.c.shape_extent() else {
            return self.shape().map(Arc::new);
        };
        let key = &self.c.src[start..extent];
        let h = hash(key);
        if let Some((_, _, shape)) = self.shapes.find(h, |(h2, k, _)| *h2 == h && *k == key) {
            self.c.pos = extent;
            return Ok(Arc::clone(shape));
        }
        let errors = self.errors.len();
        let shape = Arc::new(self.shape()?);
        if self.c.pos == extent && self.errors.len() == errors {
            self.shapes
                .insert_unique(h, (h, key, Arc::clone(&shape)), |(h2, _, _)| *h2);
        }
        Ok(shape)
    }

    /// A shape at the cursor, through the shape parser. Value errors (a bad layout) are kept
    /// and a placeholder returned; syntax errors end the read.
    fn shape(&mut self) -> Result<Shape, Error> {
        self.c.skip_trivia()?;
        match parse_embedded(self.c.src, self.c.pos) {
            Ok((shape, end)) => {
                self.c.pos = end;
                Ok(shape)
            }
            Err(e) => {
                let mut errors = e.errors.into_iter();
                let last = errors.next_back();
                self.errors.extend(errors);
                match (e.end, last) {
                    (Some(end), Some(last)) => {
                        self.errors.push(last);
                        self.c.pos = end;
                        Ok(Shape::Tuple(Vec::new()))
                    }
                    (_, Some(last)) => Err(last),
                    (_, None) => Err(self.c.expected("a shape")),
                }
            }
        }
    }

    /// `attr_name=value` after a `,`, value kept raw.
    fn attribute(&mut self) -> Result<Attribute<'a>, Error> {
        let (name, start, value) = self.c.attribute()?;
        Ok(Attribute {
            name,
            value: &self.c.src[value.clone()],
            span: start..value.end,
        })
    }

    /// `{(SHAPE, ...)->SHAPE}`, the value of `entry_computation_layout`.
    fn computation_layout(
        &mut self,
        attribute: &Attribute<'a>,
    ) -> Result<ComputationLayout, Error> {
        let save = self.c.pos;
        self.c.pos = attribute.span.end - attribute.value.len();
        self.c
            .expect(b'{', "`{` to open the entry computation layout")?;
        self.c.expect(b'(', "`(` to open the parameter shapes")?;
        let mut parameters = Vec::new();
        if !self.c.eat(b')')? {
            loop {
                parameters.push(self.shape()?);
                if !self.c.eat(b',')? {
                    self.c.expect(b')', "`,` or `)` after a parameter shape")?;
                    break;
                }
            }
        }
        self.c.expect(b'-', "`->` before the result shape")?;
        self.c.expect(b'>', "`->` before the result shape")?;
        let result = self.shape()?;
        self.c
            .expect(b'}', "`}` to close the entry computation layout")?;
        if self.c.pos != attribute.span.end {
            return Err(self
                .c
                .expected("`,` or the end of the entry computation layout"));
        }
        self.c.pos = save;
        Ok(ComputationLayout { parameters, result })
    }

    /// `{ {0}: (0, {}, may-alias), {1}: (2, {1}, must-alias) }`, the value of
    /// `input_output_alias`.
    fn input_output_alias(&mut self, attribute: &Attribute<'a>) -> Result<Vec<Alias>, Error> {
        let save = self.c.pos;
        self.c.pos = attribute.span.end - attribute.value.len();
        self.c.expect(b'{', "`{` to open the aliases")?;
        let mut aliases = Vec::new();
        while !self.c.eat(b'}')? {
            if !aliases.is_empty() {
                self.c.expect(b',', "`,` or `}` after an alias")?;
            }
            let output_index = self.shape_index()?;
            self.c.expect(
                b':',
                "`:` after the output index, such as `{0}: (0, {}, may-alias)`",
            )?;
            self.c
                .expect(b'(', "`(` to open `(parameter, index, kind)`")?;
            self.c.skip_trivia()?;
            let parameter_number = self.integer("a parameter number")?;
            self.c.expect(b',', "`,` after the parameter number")?;
            let parameter_index = self.shape_index()?;
            let mut must_alias = false;
            if self.c.eat(b',')? {
                self.c.skip_trivia()?;
                match self.c.ident()? {
                    Some(("must-alias", _)) => must_alias = true,
                    Some(("may-alias", _)) => {}
                    _ => return Err(self.c.expected("`may-alias` or `must-alias`")),
                }
            }
            self.c
                .expect(b')', "`)` to close `(parameter, index, kind)`")?;
            aliases.push(Alias {
                output_index,
                parameter_number,
                parameter_index,
                must_alias,
            });
        }
        if self.c.pos != attribute.span.end {
            return Err(self.c.expected("`,` or the end of the aliases"));
        }
        self.c.pos = save;
        Ok(aliases)
    }

    /// A shape index `{}`, `{1}`, `{0, 2}`.
    fn shape_index(&mut self) -> Result<Vec<i64>, Error> {
        self.c
            .expect(b'{', "a shape index such as `{}` or `{0, 1}`")?;
        let mut index = Vec::new();
        while !self.c.eat(b'}')? {
            if !index.is_empty() {
                self.c.expect(b',', "`,` or `}` in a shape index")?;
            }
            self.c.skip_trivia()?;
            index.push(self.integer("an index in a shape index")?);
        }
        Ok(index)
    }

    /// A non-negative decimal integer at the cursor.
    fn integer(&mut self, what: &str) -> Result<i64, Error> {
        let start = self.c.pos;
        let digits = self.c.src.as_bytes()[start..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        match self.c.src[start..start + digits].parse::<i64>() {
            Ok(n) => {
                self.c.pos += digits;
                Ok(n)
            }
            Err(_) => Err(self.c.expected(what)),
        }
    }

    fn computation(&mut self) -> Result<Computation<'a>, Error> {
        let start = self.c.pos;
        let (mut name, mut name_span) = self.name("a computation name")?;
        let is_entry = name == "ENTRY" && !self.c.src[start..].starts_with('%');
        if is_entry {
            (name, name_span) = self.name("the entry computation's name after `ENTRY`")?;
        }
        if self
            .computation_names
            .get(name, |i| self.computations[i].name)
            .is_some()
        {
            self.errors.push(Error::new(
                ErrorKind::DuplicateName,
                Some(name_span),
                format!("computation `{name}` is already defined; computation names are unique in a module"),
            ));
        }
        self.c.skip_trivia()?;
        let signature = if self.c.peek() == Some(b'(') {
            Some(self.signature()?)
        } else {
            None
        };
        let open = self.c.expect(b'{', "`{` to open the computation's body")?;
        self.names.reset();
        self.instructions = Vec::new();
        self.nested = Vec::new();
        let mut root: Option<usize> = None;
        loop {
            self.c.skip_trivia()?;
            match self.c.peek() {
                Some(b'}') => break,
                None => {
                    return Err(Error::new(
                        ErrorKind::UnclosedBracket,
                        Some(open..open + 1),
                        format!("the body of `{name}` is never closed; expected `}}`"),
                    ));
                }
                _ => {}
            }
            let index = self.instructions.len();
            let (name_span, infer) = self.instruction()?;
            self.resolve(index, infer);
            let instruction = &self.instructions[index];
            if instruction.is_root {
                if let Some(first) = root {
                    self.errors.push(Error::new(
                        ErrorKind::DuplicateName,
                        Some(instruction.span.start..instruction.span.start + 4),
                        format!(
                            "a second ROOT in `{name}`; `{}` is already its root",
                            self.instructions[first].name
                        ),
                    ));
                } else {
                    root = Some(index);
                }
            }
            let instructions = &self.instructions;
            if self
                .names
                .insert(instructions[index].name, index, |i| instructions[i].name)
                .is_some()
            {
                self.errors.push(Error::new(
                    ErrorKind::DuplicateName,
                    Some(name_span),
                    format!(
                        "instruction `{}` already exists in `{name}`; names are unique in a computation",
                        instructions[index].name
                    ),
                ));
            }
        }
        self.c.pos += 1;
        let end = self.c.pos;
        let mut instructions = core::mem::take(&mut self.instructions);
        let nested = core::mem::take(&mut self.nested);
        let Some(last) = instructions.len().checked_sub(1) else {
            return Err(Error::new(
                ErrorKind::UnexpectedToken,
                Some(open..end),
                format!("computation `{name}` has no instructions; a body needs at least a ROOT"),
            ));
        };
        let root = root.unwrap_or(last);
        instructions[root].is_root = true;
        let execution_thread = self.execution_thread()?;
        Ok(Computation {
            name,
            is_entry,
            signature,
            instructions,
            nested,
            execution_thread,
            span: start..end,
            root,
        })
    }

    /// `, execution_thread="..."` after a computation's `}`.
    fn execution_thread(&mut self) -> Result<Option<&'a str>, Error> {
        let save = self.c.pos;
        if !self.c.eat(b',')? {
            return Ok(None);
        }
        let attribute = self.attribute()?;
        if attribute.name != "execution_thread" {
            self.c.pos = save;
            return Err(self
                .c
                .expected("`execution_thread=\"...\"` or a computation"));
        }
        let v = attribute.value;
        if v.len() < 2 || !v.starts_with('"') || !v.ends_with('"') {
            return Err(Error::new(
                ErrorKind::UnexpectedToken,
                Some(attribute.span),
                "`execution_thread` takes a string such as \"main\"",
            ));
        }
        Ok(Some(&v[1..v.len() - 1]))
    }

    /// `(name: SHAPE, ...) -> SHAPE`.
    fn signature(&mut self) -> Result<Signature<'a>, Error> {
        self.c.pos += 1;
        let mut parameters = Vec::new();
        if !self.c.eat(b')')? {
            loop {
                let (name, _) = self.name("a parameter name such as `p0: f32[2]`")?;
                self.c.expect(b':', "`:` after the parameter name")?;
                parameters.push((name, self.shared_shape()?));
                if !self.c.eat(b',')? {
                    self.c.expect(b')', "`,` or `)` after a parameter")?;
                    break;
                }
            }
        }
        self.c.expect(b'-', "`->` before the result shape")?;
        self.c.expect(b'>', "`->` before the result shape")?;
        let result = self.shared_shape()?;
        Ok(Signature { parameters, result })
    }

    /// `[ROOT ]name = rhs`; also returns the name's span and whether the shape is to be
    /// inferred.
    #[inline(always)]
    fn instruction(&mut self) -> Result<(Range<usize>, bool), Error> {
        let start = self.c.pos;
        let (mut name, mut name_span) =
            self.name("an instruction such as `%x = f32[] parameter(0)` or `}`")?;
        let is_root = name == "ROOT" && !self.c.src[start..].starts_with('%');
        if is_root {
            (name, name_span) = self.name("the root instruction's name after `ROOT`")?;
        }
        self.c.expect(b'=', "`=` after the instruction name")?;
        let (written, _) = self.rhs(name, start, 0)?;
        let index = self.instructions.len() - 1;
        self.instructions[index].is_root = is_root;
        self.attributes(index)?;
        Ok((name_span, !written))
    }

    /// `[SHAPE] opcode(operands)`, without attributes; returns whether the shape was written.
    /// At depth 0 the instruction is added to `self.instructions`; a nested one to
    /// `self.nested` (after its own nested operands), and its shape is returned.
    fn rhs(
        &mut self,
        name: &'a str,
        start: usize,
        depth: usize,
    ) -> Result<(bool, Option<Arc<Shape>>), Error> {
        self.c.skip_trivia()?;
        let shape = if self.c.at_shape() {
            Some(self.shared_shape()?)
        } else {
            None
        };
        let (opcode, opcode_span) = self.name("an opcode such as `add`")?;
        let open = self.c.expect(b'(', "`(` after the opcode")?;
        let collect =
            depth == 0 && shape.is_none() && matches!(opcode, "tuple" | "get-tuple-element");
        if collect {
            self.operand_shapes.clear();
        }
        let mut close = open + 1;
        let mut parameter_number = None;
        let mut literal = None;
        match opcode {
            "constant" => {
                let inner = self.c.skip_parenthesized(open)?;
                literal = Some(self.c.src[inner].trim());
            }
            "parameter" => {
                self.c.skip_trivia()?;
                parameter_number = Some(self.integer("a parameter number such as `parameter(0)`")?);
                self.c.expect(b')', "`)` after the parameter number")?;
            }
            _ => {
                if !self.c.eat(b')')? {
                    loop {
                        self.operand(depth, collect)?;
                        if !self.c.eat(b',')? {
                            self.c.expect(b')', "`,` or `)` after an operand")?;
                            break;
                        }
                    }
                }
                close = self.c.pos - 1;
            }
        }
        let written = shape.is_some();
        let shape = match shape {
            Some(shape) => shape,
            None => match opcode {
                // Inferred once the operands are resolved.
                "tuple" | "get-tuple-element" | "after-all" => Arc::new(Shape::Tuple(Vec::new())),
                _ => {
                    self.errors.push(Error::new(
                        ErrorKind::Unsupported,
                        Some(opcode_span),
                        format!(
                            "`{opcode}` is written without its shape; write it before the opcode, \
                             such as `%x = f32[2]{{0}} {opcode}(...)` (only tuple, \
                             get-tuple-element and after-all may leave it out)"
                        ),
                    ));
                    Arc::new(Shape::Tuple(Vec::new()))
                }
            },
        };
        let nested_shape = (depth > 0).then(|| Arc::clone(&shape));
        let list = if depth > 0 {
            &mut self.nested
        } else {
            &mut self.instructions
        };
        list.push(Instruction {
            name,
            shape,
            opcode,
            operands: Operands::new(self.c.src, open + 1..close),
            parameter_number,
            literal,
            attributes: Attributes::new(self.c.src, 0..0),
            is_root: false,
            span: start..self.c.pos,
        });
        Ok((written, nested_shape))
    }

    /// `, name=value` attributes after the operands of instruction `index`, also kept in
    /// `self.attributes` (which the checks of [`Reader::resolve`] read).
    fn attributes(&mut self, index: usize) -> Result<(), Error> {
        self.attributes.clear();
        let start = self.c.pos;
        loop {
            let save = self.c.pos;
            if !self.c.eat(b',')? {
                self.c.pos = save;
                break;
            }
            let attribute = self.attribute()?;
            if let Some(first) = self.attributes.iter().find(|a| a.name == attribute.name) {
                self.errors.push(Error::new(
                    ErrorKind::DuplicateAttribute,
                    Some(attribute.span.start..attribute.span.start + attribute.name.len()),
                    format!(
                        "attribute `{}` is given twice (first at byte {})",
                        attribute.name, first.span.start
                    ),
                ));
            }
            self.instructions[index].span.end = attribute.span.end;
            self.attributes.push(attribute);
        }
        let end = self.attributes.last().map_or(start, |a| a.span.end);
        self.instructions[index].attributes = Attributes::new(self.c.src, start..end);
        Ok(())
    }

    /// `[SHAPE] name` or a nested `[SHAPE] opcode(operands)`: checks that the name is
    /// defined earlier, and with `collect` keeps the operand's shape in `self.operand_shapes`.
    fn operand(&mut self, depth: usize, collect: bool) -> Result<(), Error> {
        self.c.skip_trivia()?;
        let start = self.c.pos;
        let shape = if self.c.at_shape() {
            Some(self.shared_shape()?)
        } else {
            None
        };
        let name_start = {
            self.c.skip_trivia()?;
            self.c.pos
        };
        let (name, span) = self.name("an operand name such as `%x`")?;
        let after = self.c.pos;
        if self.c.eat(b'(')? {
            if depth + 1 >= MAX_NESTED_INSTRUCTIONS {
                return Err(Error::new(
                    ErrorKind::NestingTooDeep,
                    Some(span),
                    format!(
                        "nested instructions go more than {MAX_NESTED_INSTRUCTIONS} levels deep here"
                    ),
                ));
            }
            // A nested instruction: re-read it from its shape (or opcode).
            self.c.pos = if shape.is_some() { start } else { name_start };
            let (_, nested) = self.rhs("", start, depth + 1)?;
            if let (true, Some(shape)) = (collect, nested) {
                let copy = self.copy_operand_shape(&shape, start..self.c.pos);
                self.operand_shapes.push(copy);
            }
            return Ok(());
        }
        self.c.pos = after;
        let found = self.names.get(name, |i| self.instructions[i].name);
        if found.is_none() {
            self.errors
                .push(undefined("instruction", name, start..span.end));
        }
        if collect {
            let shape = match (shape, found) {
                (Some(s), _) => self.copy_operand_shape(&s, start..span.end),
                (None, Some(i)) => {
                    let s = Arc::clone(&self.instructions[i].shape);
                    self.copy_operand_shape(&s, start..span.end)
                }
                (None, None) => Shape::Tuple(Vec::new()),
            };
            self.operand_shapes.push(shape);
        }
        Ok(())
    }

    /// A copy of an operand's shape for an inferred shape, or an empty tuple and an error
    /// when the inferred shape would nest deeper than [`MAX_NESTING`] or the module's inferred
    /// shapes would copy more shapes than the budget allows (a chain of `t2 = tuple(t1, t1)`
    /// lines doubles the shape at each line).
    fn copy_operand_shape(&mut self, shape: &Shape, span: Range<usize>) -> Shape {
        let mut stack = alloc::vec![(shape, 0usize)];
        let mut count = 0usize;
        while let Some((s, depth)) = stack.pop() {
            count += 1;
            let error = if count > self.copy_budget {
                Some((
                    ErrorKind::Unsupported,
                    String::from(
                        "inferring the shapes of this module's tuples copies more shapes than \
                         the module has bytes; write the tuple's shape before `tuple`",
                    ),
                ))
            } else if matches!(s, Shape::Tuple(_)) && depth + 1 >= MAX_NESTING {
                Some((
                    ErrorKind::NestingTooDeep,
                    format!(
                        "the inferred tuple shape would nest more than {MAX_NESTING} levels \
                         deep; flatten it"
                    ),
                ))
            } else {
                None
            };
            if let Some((kind, message)) = error {
                self.errors.push(Error::new(kind, Some(span), message));
                return Shape::Tuple(Vec::new());
            }
            if let Shape::Tuple(elements) = s {
                stack.extend(elements.iter().map(|e| (e, depth + 1)));
            }
        }
        self.copy_budget -= count;
        shape.clone()
    }

    /// Infers the shape of `tuple`, `get-tuple-element` and `after-all` written without one,
    /// and checks that control predecessors and called computations are defined.
    fn resolve(&mut self, index: usize, infer: bool) {
        let instruction = &self.instructions[index];
        let inferred = match instruction.opcode {
            "after-all" if infer => Some(Shape::Token),
            "tuple" if infer => Some(Shape::Tuple(core::mem::take(&mut self.operand_shapes))),
            "get-tuple-element" if infer => {
                let index = instruction
                    .attribute("index")
                    .and_then(|v| v.parse::<usize>().ok());
                match (self.operand_shapes.first_mut(), index) {
                    (Some(Shape::Tuple(elements)), Some(i)) if i < elements.len() => {
                        Some(core::mem::replace(&mut elements[i], Shape::Token))
                    }
                    _ => {
                        self.errors.push(Error::new(
                            ErrorKind::Unsupported,
                            Some(instruction.span.clone()),
                            "the shape of this get-tuple-element cannot be inferred: its `index=` \
                             does not name an element of its operand's tuple; write the shape",
                        ));
                        None
                    }
                }
            }
            _ => None,
        };
        if let Some(shape) = inferred {
            self.instructions[index].shape = Arc::new(shape);
        }
        let attributes = core::mem::take(&mut self.attributes);
        for attribute in &attributes {
            if attribute.name == "control-predecessors" {
                for name in split_names(attribute.value) {
                    if self
                        .names
                        .get(name, |i| self.instructions[i].name)
                        .is_none()
                    {
                        self.errors
                            .push(undefined("instruction", name, attribute.span.clone()));
                    }
                }
            } else if is_call_attribute(attribute.name) {
                for name in split_names(attribute.value) {
                    let known = self
                        .computation_names
                        .get(name, |i| self.computations[i].name)
                        .is_some();
                    if !known {
                        self.errors
                            .push(undefined("computation", name, attribute.span.clone()));
                    }
                }
            }
        }
        self.attributes = attributes;
    }
}
