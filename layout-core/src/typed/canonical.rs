//! The canonical text of a layout type, written at compile time from its arguments as
//! `text/print.rs` writes it (`layout!` checks every type it spells against that printer).

use super::dyn_dims::DimKind;
use super::list::TEXT_CAPACITY;
use super::tiling::MAX_TYPED_TILES;

/// A text being written into a fixed buffer.
struct Out {
    bytes: [u8; TEXT_CAPACITY],
    len: usize,
}

impl Out {
    const fn byte(mut self, b: u8) -> Out {
        assert!(
            self.len < TEXT_CAPACITY,
            "the canonical text of this layout type is too long"
        );
        self.bytes[self.len] = b;
        self.len += 1;
        self
    }

    const fn str(mut self, s: &str) -> Out {
        let s = s.as_bytes();
        let mut i = 0;
        while i < s.len() {
            self = self.byte(s[i]);
            i += 1;
        }
        self
    }

    const fn number(mut self, mut n: usize) -> Out {
        let mut digits = [0u8; 20];
        let mut k = 0;
        loop {
            digits[k] = b'0' + (n % 10) as u8;
            k += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        while k > 0 {
            k -= 1;
            self = self.byte(digits[k]);
        }
        self
    }

    const fn list(mut self, items: &[usize]) -> Out {
        let mut i = 0;
        while i < items.len() {
            if i > 0 {
                self = self.byte(b',');
            }
            self = self.number(items[i]);
            i += 1;
        }
        self
    }

    /// The dims, each written as its kind says: `N`, `<=N` or `?` (static when `kinds` is
    /// empty).
    const fn dims(mut self, dims: &[usize], kinds: &[DimKind]) -> Out {
        let mut i = 0;
        while i < dims.len() {
            if i > 0 {
                self = self.byte(b',');
            }
            let kind = if kinds.is_empty() {
                DimKind::Static
            } else {
                kinds[i]
            };
            self = match kind {
                DimKind::Unbounded => self.byte(b'?'),
                DimKind::Bounded => self.str("<=").number(dims[i]),
                DimKind::Static | DimKind::Absent => self.number(dims[i]),
            };
            i += 1;
        }
        self
    }

    const fn attribute(self, name: &str, n: usize) -> Out {
        self.str(name).byte(b'(').number(n).byte(b')')
    }
}

/// The parts of a layout type that its text shows.
pub(crate) struct Parts<'a> {
    pub(crate) element: &'a str,
    pub(crate) dims: &'a [usize],
    /// Each dimension's kind, for a dynamic layout (empty for a static one).
    pub(crate) kinds: &'a [DimKind],
    pub(crate) minor_to_major: &'a [usize],
    pub(crate) tiles: &'a [[usize; MAX_TYPED_TILES]],
    pub(crate) tile_ranks: &'a [usize],
    pub(crate) tail_alignment: usize,
    pub(crate) element_size: usize,
    pub(crate) memory_space: usize,
    /// Each split config as its dimension, the count of its indices, its indices.
    pub(crate) splits: &'a [usize],
    pub(crate) prefix_bytes: usize,
}

/// The canonical text and its length.
pub(crate) const fn canonical(p: &Parts<'_>) -> ([u8; TEXT_CAPACITY], usize) {
    let mut out = Out {
        bytes: [0; TEXT_CAPACITY],
        len: 0,
    };
    out = out
        .str(p.element)
        .byte(b'[')
        .dims(p.dims, p.kinds)
        .byte(b']');
    let attributes = !p.tiles.is_empty()
        || p.tail_alignment != 1
        || p.element_size != 0
        || p.memory_space != 0
        || !p.splits.is_empty()
        || p.prefix_bytes > 0;
    if p.dims.is_empty() && p.minor_to_major.is_empty() && !attributes {
        return (out.bytes, out.len);
    }
    out = out.byte(b'{').list(p.minor_to_major);
    if attributes {
        out = out.byte(b':');
        if !p.tiles.is_empty() {
            out = out.byte(b'T');
        }
        let mut t = 0;
        while t < p.tiles.len() {
            out = out.byte(b'(');
            let mut i = 0;
            while i < p.tile_ranks[t] {
                if i > 0 {
                    out = out.byte(b',');
                }
                out = match p.tiles[t][i] {
                    0 => out.byte(b'*'),
                    n => out.number(n),
                };
                i += 1;
            }
            out = out.byte(b')');
            t += 1;
        }
        if p.tail_alignment != 1 {
            out = out.attribute("L", p.tail_alignment);
        }
        if p.element_size != 0 {
            out = out.attribute("E", p.element_size);
        }
        if p.memory_space != 0 {
            out = out.attribute("S", p.memory_space);
        }
        if !p.splits.is_empty() {
            out = out.str("SC");
            let mut at = 0;
            while at < p.splits.len() {
                let count = p.splits[at + 1];
                out = out.byte(b'(').number(p.splits[at]).byte(b':');
                out = out.list(p.splits.split_at(at + 2).1.split_at(count).0);
                out = out.byte(b')');
                at += 2 + count;
            }
        }
        if p.prefix_bytes > 0 {
            out = out.attribute("M", p.prefix_bytes);
        }
    }
    out = out.byte(b'}');
    (out.bytes, out.len)
}
