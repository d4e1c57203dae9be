//! `--rust`: `layout!` type aliases for the entry computation's parameters and outputs, so a
//! dump becomes typed host code. Each alias's `SIZE_BYTES` is the `bytes` the report gives.

use std::collections::HashSet;
use std::fmt::Write as _;

use xla_layout_core::hlo::memory;
use xla_layout_core::{ArrayShape, Dim};

use super::{LABEL_CHARS, View, entry_parameters, truncate};
use crate::explain::{Leaf, leaves};

/// The Rust source: a header, then one alias (or a comment saying why there is none) per
/// parameter and per output leaf.
pub(crate) fn aliases(v: &View<'_, '_, '_>) -> String {
    let entry = v.module.entry();
    let module_name = v
        .module
        .name()
        .map_or_else(|| format!("module_{}", entry.name), str::to_string);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "//! `layout!` types of the entry computation `{}` of HLO module `{module_name}`,\n\
         //! written by `xla-layout hlo --rust`.\n\nuse xla_layout::layout;",
        entry.name
    );
    let mut names = Names::default();
    for p in entry_parameters(v.module) {
        let number = p.parameter_number.unwrap_or(0);
        let shape = memory::entry_parameter_shape(v.module, p);
        let source = &v.text[p.span.clone()];
        for (index, leaf) in leaves(shape) {
            let base = camel(p.name, "Param");
            let name = names.unique(&with_index(&base, &index));
            let what = format!("Parameter {number}{} (`{}`)", index_text(&index), p.name);
            alias(&mut s, &name, &what, source, leaf);
        }
    }
    let root = entry.root();
    let source = &v.text[root.span.clone()];
    for (index, leaf) in leaves(memory::entry_result_shape(v.module)) {
        let name = names.unique(&with_index("Output", &index));
        let what = format!("Output{} (root `{}`)", index_text(&index), root.name);
        alias(&mut s, &name, &what, source, leaf);
    }
    s
}

/// Writes one alias with its doc comment, or a comment saying why `layout!` cannot type it.
fn alias(s: &mut String, name: &str, what: &str, source: &str, leaf: Leaf<'_>) {
    let _ = writeln!(s);
    let array = match leaf {
        Leaf::Array(a) | Leaf::Buffer(a) => a,
        Leaf::Token | Leaf::Opaque => {
            let _ = writeln!(
                s,
                "// {what}: `{leaf}` skipped: it holds no data (`layout!` types arrays)."
            );
            return;
        }
    };
    if let Some(reason) = inexpressible(array) {
        let _ = writeln!(s, "// {what}: `{array}` skipped: {reason}.");
        return;
    }
    let _ = writeln!(s, "/// {what}, from:\n///\n/// ```text");
    for line in truncate(source, LABEL_CHARS).lines() {
        let _ = writeln!(s, "/// {}", line.trim_end());
    }
    let _ = writeln!(s, "/// ```\npub type {name} = layout!({array});");
}

/// Why `layout!` cannot express an array, if it cannot.
fn inexpressible(a: &ArrayShape) -> Option<&'static str> {
    a.dims
        .iter()
        .any(|d| matches!(d, Dim::Unbounded))
        .then_some("an unbounded `?` dimension has no static size")
}

/// `{1,0}` or nothing for the whole shape.
fn index_text(index: &[usize]) -> String {
    if index.is_empty() {
        String::new()
    } else {
        let parts: Vec<String> = index.iter().map(ToString::to_string).collect();
        format!(" {{{}}}", parts.join(","))
    }
}

/// `Output` + `1_0` for index `{1,0}`.
fn with_index(base: &str, index: &[usize]) -> String {
    let parts: Vec<String> = index.iter().map(ToString::to_string).collect();
    format!("{base}{}", parts.join("_"))
}

/// An HLO name in upper camel case: `param_0.1` -> `Param01`; `fallback` prefixes a name that
/// would not start with a letter.
fn camel(name: &str, fallback: &str) -> String {
    let mut out = String::new();
    for part in name.split(|c: char| !c.is_ascii_alphanumeric()) {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    if !out.starts_with(|c: char| c.is_ascii_alphabetic()) {
        out.insert_str(0, fallback);
    }
    out
}

/// The names given so far, to keep each alias unique.
#[derive(Default)]
struct Names(HashSet<String>);

impl Names {
    /// `name`, or `name` + the first free number from 2, never `Self`.
    fn unique(&mut self, name: &str) -> String {
        let mut candidate = name.to_string();
        let mut n = 2;
        while candidate == "Self" || self.0.contains(&candidate) {
            candidate = format!("{name}{n}");
            n += 1;
        }
        self.0.insert(candidate.clone());
        candidate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_camel_case_and_unique() {
        assert_eq!(camel("param_0.1", "Param"), "Param01");
        assert_eq!(camel("get-tuple-element.5", "Param"), "GetTupleElement5");
        assert_eq!(camel("0x", "Param"), "Param0x");
        assert_eq!(camel("_", "Param"), "Param");
        let mut names = Names::default();
        assert_eq!(names.unique("P"), "P");
        assert_eq!(names.unique("P"), "P2");
        assert_eq!(names.unique("P"), "P3");
        assert_eq!(names.unique("Self"), "Self2");
        assert_eq!(with_index("Output", &[1, 0]), "Output1_0");
    }
}
