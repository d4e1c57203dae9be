//! Operands (`%x`, `f32[2]{0} %x`, or a nested `f32[] constant(1)`) and the lists of them,
//! scanned again on demand rather than stored.

use core::ops::Range;

use crate::hlo::scan::Cursor;
use crate::model::Shape;
use crate::text::parse_embedded;

/// The operands of an instruction, in order. They are checked when the module is read (each
/// name is defined earlier in the computation, each written shape is valid) and scanned
/// again, cheaply, each time they are iterated. Empty for `parameter(N)` and `constant(...)`.
///
/// ```
/// let text = "e {\n  a = f32[2] parameter(0)\n  b = f32[2] parameter(1)\n  ROOT s = f32[2] add(%a, /*index=1*/b)\n}";
/// let m = xla_layout::hlo::parse_module(text).unwrap();
/// let operands = m.entry().root().operands;
/// let names: Vec<_> = operands.iter().map(|o| o.name).collect();
/// assert_eq!(names, ["a", "b"]);
/// assert_eq!(operands.len(), 2);
/// assert_eq!(operands.get(1).unwrap().name, "b");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operands<'a> {
    /// The module text.
    src: &'a str,
    /// The byte range between the parentheses.
    range: (usize, usize),
}

impl<'a> Operands<'a> {
    /// The list written in `range` of `src` (checked by the reader).
    pub(crate) fn new(src: &'a str, range: Range<usize>) -> Self {
        Operands {
            src,
            range: (range.start, range.end),
        }
    }

    /// The operands, in order.
    ///
    /// ```
    /// let m = xla_layout::hlo::parse_module("e {\n  p = f32[] parameter(0)\n  ROOT n = f32[] negate(p)\n}").unwrap();
    /// for operand in m.entry().root().operands.iter() {
    ///     assert_eq!(operand.name, "p");
    /// }
    /// ```
    pub fn iter(&self) -> OperandIter<'a> {
        OperandIter {
            cursor: Cursor::at(self.src, self.range.0),
            end: self.range.1,
        }
    }

    /// The number of operands (a scan).
    ///
    /// ```
    /// let m = xla_layout::hlo::parse_module("e {\n  ROOT t = () tuple()\n}").unwrap();
    /// assert_eq!(m.entry().root().operands.len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// True when there are no operands.
    ///
    /// ```
    /// let m = xla_layout::hlo::parse_module("e {\n  ROOT p = f32[] parameter(0)\n}").unwrap();
    /// assert!(m.entry().root().operands.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }

    /// Operand `index` (a scan).
    ///
    /// ```
    /// let m = xla_layout::hlo::parse_module("e {\n  p = f32[] parameter(0)\n  ROOT s = f32[] add(p, p)\n}").unwrap();
    /// assert!(m.entry().root().operands.get(2).is_none());
    /// ```
    pub fn get(&self, index: usize) -> Option<Operand<'a>> {
        self.iter().nth(index)
    }
}

impl<'a> IntoIterator for Operands<'a> {
    type Item = Operand<'a>;
    type IntoIter = OperandIter<'a>;
    fn into_iter(self) -> OperandIter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &Operands<'a> {
    type Item = Operand<'a>;
    type IntoIter = OperandIter<'a>;
    fn into_iter(self) -> OperandIter<'a> {
        self.iter()
    }
}

/// One operand: a name defined earlier in the computation, maybe with its shape written
/// before it (older dumps: `f32[2]{0} %x`), or an unnamed nested instruction such as
/// `f32[] constant(1)`, which XLA adds to the computation under a name of its own (read as an
/// [`Instruction`](crate::hlo::Instruction) of
/// [`Computation::nested`](crate::hlo::Computation::nested)).
///
/// ```
/// let text = "e {\n  p = f32[] parameter(0)\n  ROOT s = f32[] add(f32[] %p, f32[] constant(1))\n}";
/// let m = xla_layout::hlo::parse_module(text).unwrap();
/// let ops: Vec<_> = m.entry().root().operands.iter().collect();
/// assert_eq!((ops[0].name, ops[0].shape_text()), ("p", Some("f32[]")));
/// assert_eq!(ops[0].shape().unwrap().to_string(), "f32[]");
/// assert!(ops[1].is_nested());
/// assert_eq!((ops[1].name, ops[1].text()), ("", "f32[] constant(1)"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operand<'a> {
    /// The name, without `%`; empty for a nested instruction.
    pub name: &'a str,
    /// The byte range of the operand as written (shape, name, or nested instruction).
    pub span: Range<usize>,
    src: &'a str,
    /// Where the written shape ends.
    shape_end: Option<usize>,
    nested: bool,
}

impl<'a> Operand<'a> {
    /// The operand as written.
    ///
    /// ```
    /// let m = xla_layout::hlo::parse_module("e {\n  p = f32[] parameter(0)\n  ROOT n = f32[] negate(f32[] %p)\n}").unwrap();
    /// assert_eq!(m.entry().root().operands.get(0).unwrap().text(), "f32[] %p");
    /// ```
    pub fn text(&self) -> &'a str {
        &self.src[self.span.clone()]
    }

    /// The shape written before the name (or opening a nested instruction), as written.
    ///
    /// ```
    /// let m = xla_layout::hlo::parse_module("e {\n  p = f32[] parameter(0)\n  ROOT n = f32[] negate(p)\n}").unwrap();
    /// assert_eq!(m.entry().root().operands.get(0).unwrap().shape_text(), None);
    /// ```
    pub fn shape_text(&self) -> Option<&'a str> {
        self.shape_end.map(|end| &self.src[self.span.start..end])
    }

    /// The written shape, parsed (the reader checked it).
    ///
    /// ```
    /// let m = xla_layout::hlo::parse_module("e {\n  p = f32[2] parameter(0)\n  ROOT n = f32[2] negate(f32[2]{0} p)\n}").unwrap();
    /// let shape = m.entry().root().operands.get(0).unwrap().shape().unwrap();
    /// assert_eq!(shape.to_string(), "f32[2]{0}");
    /// ```
    pub fn shape(&self) -> Option<Shape> {
        self.shape_end?;
        parse_embedded(self.src, self.span.start)
            .ok()
            .map(|(shape, _)| shape)
    }

    /// True for an unnamed nested instruction.
    ///
    /// ```
    /// let m = xla_layout::hlo::parse_module("e {\n  ROOT n = f32[] negate(f32[] constant(1))\n}").unwrap();
    /// assert!(m.entry().root().operands.get(0).unwrap().is_nested());
    /// ```
    pub fn is_nested(&self) -> bool {
        self.nested
    }
}

/// The iterator of [`Operands::iter`].
///
/// ```
/// let m = xla_layout::hlo::parse_module("e {\n  p = f32[] parameter(0)\n  ROOT n = f32[] negate(p)\n}").unwrap();
/// let mut it: xla_layout::hlo::OperandIter<'_> = m.entry().root().operands.iter();
/// assert_eq!(it.next().unwrap().name, "p");
/// assert!(it.next().is_none());
/// ```
#[derive(Clone)]
pub struct OperandIter<'a> {
    cursor: Cursor<'a>,
    end: usize,
}

impl<'a> Iterator for OperandIter<'a> {
    type Item = Operand<'a>;
    fn next(&mut self) -> Option<Operand<'a>> {
        let c = &mut self.cursor;
        c.skip_trivia().ok()?;
        if c.peek() == Some(b',') {
            c.pos += 1;
            c.skip_trivia().ok()?;
        }
        if c.pos >= self.end {
            return None;
        }
        let start = c.pos;
        let mut shape_end = None;
        if c.at_shape() {
            let end = match c.shape_extent() {
                Some(end) => end,
                None => parse_embedded(c.src, start).ok()?.1,
            };
            c.pos = end;
            shape_end = Some(end);
            c.skip_trivia().ok()?;
        }
        let (name, span) = c.ident().ok()??;
        let after = span.end;
        c.skip_trivia().ok()?;
        if c.peek() == Some(b'(') {
            // A nested instruction: its operands, to the matching `)`.
            c.skip_value().ok()?;
            return Some(Operand {
                name: "",
                span: start..c.pos,
                src: c.src,
                shape_end,
                nested: true,
            });
        }
        c.pos = after;
        Some(Operand {
            name,
            span: start..after,
            src: c.src,
            shape_end,
            nested: false,
        })
    }
}

impl core::fmt::Debug for OperandIter<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("OperandIter")
            .field("pos", &self.cursor.pos)
            .field("end", &self.end)
            .finish()
    }
}
