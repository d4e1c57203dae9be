//! The canonical printer: byte-for-byte what XLA's `ShapeUtil::HumanStringWithLayout` and
//! `Layout::Print` produce.

use alloc::vec::Vec;
use core::fmt::{self, Display, Formatter, Write};

use crate::model::{ArrayLayout, ArrayShape, Dim, Shape, SplitConfig, Tile, TileDim};

/// XLA prints `/*index=N*/` before every tuple element whose index is a positive multiple of
/// this (`kAnnotationPrintInterval`).
const TUPLE_ANNOTATION_INTERVAL: usize = 5;

fn join<T: Display>(f: &mut Formatter<'_>, items: &[T]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_char(',')?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

impl Display for Dim {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Dim::Static(n) => write!(f, "{n}"),
            Dim::Bounded(n) => write!(f, "<={n}"),
            Dim::Unbounded => f.write_char('?'),
        }
    }
}

impl Display for TileDim {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            TileDim::Size(n) => write!(f, "{n}"),
            TileDim::Combine => f.write_char('*'),
        }
    }
}

impl Display for Tile {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_char('(')?;
        join(f, &self.0)?;
        f.write_char(')')
    }
}

impl Display for SplitConfig {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "({}:", self.dimension)?;
        join(f, &self.split_indices)?;
        f.write_char(')')
    }
}

impl Display for ArrayLayout {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_char('{')?;
        join(f, &self.minor_to_major)?;
        if self.has_attributes() {
            f.write_char(':')?;
            if !self.tiles.is_empty() {
                f.write_char('T')?;
                for t in &self.tiles {
                    write!(f, "{t}")?;
                }
            }
            if self.tail_padding_alignment_in_elements != 1 {
                write!(f, "L({})", self.tail_padding_alignment_in_elements)?;
            }
            if self.element_size_in_bits != 0 {
                write!(f, "E({})", self.element_size_in_bits)?;
            }
            if self.memory_space != 0 {
                write!(f, "S({})", self.memory_space)?;
            }
            if !self.split_configs.is_empty() {
                f.write_str("SC")?;
                for sc in &self.split_configs {
                    write!(f, "{sc}")?;
                }
            }
            if self.dynamic_shape_metadata_prefix_bytes > 0 {
                write!(f, "M({})", self.dynamic_shape_metadata_prefix_bytes)?;
            }
        }
        f.write_char('}')
    }
}

impl Display for ArrayShape {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}[", self.element_type)?;
        join(f, &self.dims)?;
        f.write_char(']')?;
        // XLA prints a scalar's layout only when it is not `{}`.
        if !self.dims.is_empty()
            || !self.layout.minor_to_major.is_empty()
            || self.layout.has_attributes()
        {
            write!(f, "{}", self.layout)?;
        }
        Ok(())
    }
}

impl Display for Shape {
    /// Prints nested tuples with a heap stack rather than recursion, so that a shape built in
    /// code, however deep, never overflows the call stack.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        // Each frame: a tuple's elements and the index of the next one to print.
        let mut stack: Vec<(&[Shape], usize)> = Vec::new();
        let mut next = Some(self);
        loop {
            if let Some(shape) = next.take() {
                match shape {
                    Shape::Array(a) => write!(f, "{a}")?,
                    Shape::Buffer(a) => write!(f, "b({a})")?,
                    Shape::Token => f.write_str("token[]")?,
                    Shape::Opaque => f.write_str("opaque[]")?,
                    Shape::Tuple(elements) => {
                        f.write_char('(')?;
                        stack.push((elements, 0));
                    }
                }
            }
            let Some((elements, i)) = stack.last_mut() else {
                return Ok(());
            };
            match elements.get(*i) {
                Some(e) => {
                    if *i > 0 {
                        f.write_str(", ")?;
                        if *i % TUPLE_ANNOTATION_INTERVAL == 0 {
                            write!(f, "/*index={i}*/")?;
                        }
                    }
                    *i += 1;
                    next = Some(e);
                }
                None => {
                    f.write_char(')')?;
                    stack.pop();
                }
            }
        }
    }
}
