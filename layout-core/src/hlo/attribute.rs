//! Attributes (`name=value`, kept raw) and the lists of them after an instruction's operands,
//! scanned again on demand rather than stored.

use core::ops::Range;

use crate::hlo::scan::Cursor;

/// One `name=value` attribute, kept raw.
///
/// ```
/// let m = xla_layout::hlo::parse_module("e {\n  ROOT c = f32[2] constant({1, 2}), sharding={replicated}\n}").unwrap();
/// let a = m.entry().root().attributes.iter().next().unwrap();
/// assert_eq!((a.name, a.value), ("sharding", "{replicated}"));
/// assert_eq!(a.span, 40..61);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute<'a> {
    /// The name before `=`.
    pub name: &'a str,
    /// The value as written: `{...}`, `"..."` with its quotes and escapes, `%comp`, `kLoop`...
    pub value: &'a str,
    /// The byte range of `name=value` in the module text.
    pub span: Range<usize>,
}

/// The attributes after an instruction's operands, in text order. They are checked when the
/// module is read and scanned again, cheaply, each time they are iterated.
///
/// ```
/// let text = "e {\n  p = (f32[], s32[]) parameter(0)\n  ROOT g = s32[] get-tuple-element(p), index=1, metadata={op_name=\"x\"}\n}";
/// let m = xla_layout::hlo::parse_module(text).unwrap();
/// let attributes = m.entry().root().attributes;
/// assert_eq!(attributes.get("index"), Some("1"));
/// let names: Vec<_> = attributes.iter().map(|a| a.name).collect();
/// assert_eq!(names, ["index", "metadata"]);
/// assert!(!attributes.is_empty());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attributes<'a> {
    /// The module text.
    src: &'a str,
    /// The byte range of the list, from the first `,` to the end of the last value.
    range: (usize, usize),
}

impl<'a> Attributes<'a> {
    /// The list that spans `range` of `src` (checked by the reader).
    pub(crate) fn new(src: &'a str, range: Range<usize>) -> Self {
        Attributes {
            src,
            range: (range.start, range.end),
        }
    }

    /// The attributes, in text order.
    ///
    /// ```
    /// let m = xla_layout::hlo::parse_module("e {\n  ROOT c = f32[] constant(1), a=1, b=\"x, y\"\n}").unwrap();
    /// let values: Vec<_> = m.entry().root().attributes.iter().map(|a| a.value).collect();
    /// assert_eq!(values, ["1", "\"x, y\""]);
    /// ```
    pub fn iter(&self) -> AttributeIter<'a> {
        AttributeIter {
            cursor: Cursor::at(self.src, self.range.0),
            end: self.range.1,
        }
    }

    /// The raw value of attribute `name`, if given.
    ///
    /// ```
    /// let m = xla_layout::hlo::parse_module("e {\n  ROOT c = f32[] constant(1), sharding={replicated}\n}").unwrap();
    /// assert_eq!(m.entry().root().attributes.get("sharding"), Some("{replicated}"));
    /// assert_eq!(m.entry().root().attributes.get("metadata"), None);
    /// ```
    pub fn get(&self, name: &str) -> Option<&'a str> {
        self.iter().find(|a| a.name == name).map(|a| a.value)
    }

    /// True when the instruction has no attributes.
    ///
    /// ```
    /// let m = xla_layout::hlo::parse_module("e {\n  ROOT c = f32[] constant(1)\n}").unwrap();
    /// assert!(m.entry().root().attributes.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.range.0 == self.range.1
    }

    /// The byte range of the list in the module text, from the first `,` to the end of the
    /// last value (empty when there are none).
    ///
    /// ```
    /// let text = "e {\n  ROOT c = f32[] constant(1), a=1\n}";
    /// let m = xla_layout::hlo::parse_module(text).unwrap();
    /// assert_eq!(&text[m.entry().root().attributes.span()], ", a=1");
    /// ```
    pub fn span(&self) -> Range<usize> {
        self.range.0..self.range.1
    }
}

impl<'a> IntoIterator for Attributes<'a> {
    type Item = Attribute<'a>;
    type IntoIter = AttributeIter<'a>;
    fn into_iter(self) -> AttributeIter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &Attributes<'a> {
    type Item = Attribute<'a>;
    type IntoIter = AttributeIter<'a>;
    fn into_iter(self) -> AttributeIter<'a> {
        self.iter()
    }
}

/// The iterator of [`Attributes::iter`].
///
/// ```
/// let m = xla_layout::hlo::parse_module("e {\n  ROOT c = f32[] constant(1), a=1\n}").unwrap();
/// let mut it: xla_layout::hlo::AttributeIter<'_> = m.entry().root().attributes.iter();
/// assert_eq!(it.next().unwrap().name, "a");
/// assert!(it.next().is_none());
/// ```
#[derive(Clone)]
pub struct AttributeIter<'a> {
    cursor: Cursor<'a>,
    end: usize,
}

impl<'a> Iterator for AttributeIter<'a> {
    type Item = Attribute<'a>;
    fn next(&mut self) -> Option<Attribute<'a>> {
        if self.cursor.pos >= self.end || !self.cursor.eat(b',').ok()? {
            return None;
        }
        let (name, start, value) = self.cursor.attribute().ok()?;
        Some(Attribute {
            name,
            value: &self.cursor.src[value.clone()],
            span: start..value.end,
        })
    }
}

impl core::fmt::Debug for AttributeIter<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AttributeIter")
            .field("pos", &self.cursor.pos)
            .field("end", &self.end)
            .finish()
    }
}

/// Whether the attribute names called computations.
pub(crate) fn is_call_attribute(name: &str) -> bool {
    matches!(
        name,
        "calls"
            | "to_apply"
            | "condition"
            | "body"
            | "select"
            | "scatter"
            | "true_computation"
            | "false_computation"
            | "branch_computations"
            | "called_computations"
    )
}

/// The names of a call attribute's value: `%a`, `{%a, %b}` or `%a, %b`, without `%`.
pub(crate) fn split_names(value: &str) -> impl Iterator<Item = &str> {
    value
        .trim_start_matches('{')
        .trim_end_matches('}')
        .split(',')
        .map(|n| strip_percent(n.trim()))
        .filter(|n| !n.is_empty())
}

pub(crate) fn strip_percent(name: &str) -> &str {
    name.strip_prefix('%').unwrap_or(name)
}
