//! Name tables: instruction names per computation and computation names per module, mapping a
//! name to its index in the list that owns it.

use hashbrown::HashTable;

/// FxHash over the bytes of a name or shape text.
pub(crate) fn hash(text: &str) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = 0u64;
    let mut chunks = text.as_bytes().chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    for &b in chunks.remainder() {
        h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
    }
    h
}

/// Indices by name. The owner keeps the names; the table keeps each one's hash, so growing
/// it never reads them again.
#[derive(Default)]
pub(crate) struct NameTable {
    table: HashTable<(u64, usize)>,
}

impl NameTable {
    /// The index of `name`, where `name_of(index)` gives the name stored at an index.
    pub(crate) fn get<'s>(&self, name: &str, name_of: impl Fn(usize) -> &'s str) -> Option<usize> {
        let h = hash(name);
        self.table
            .find(h, |&(h2, i)| h2 == h && name_of(i) == name)
            .map(|&(_, i)| i)
    }

    /// Adds `name` at `index`; if the name is taken, returns the index that has it.
    pub(crate) fn insert<'s>(
        &mut self,
        name: &str,
        index: usize,
        name_of: impl Fn(usize) -> &'s str,
    ) -> Option<usize> {
        let h = hash(name);
        match self
            .table
            .entry(h, |&(h2, i)| h2 == h && name_of(i) == name, |&(h2, _)| h2)
        {
            hashbrown::hash_table::Entry::Occupied(o) => Some(o.get().1),
            hashbrown::hash_table::Entry::Vacant(v) => {
                v.insert((h, index));
                None
            }
        }
    }

    /// Empties the table. Clearing costs the table's capacity, so after a large computation
    /// the table starts afresh.
    pub(crate) fn reset(&mut self) {
        if self.table.capacity() > 256 {
            self.table = HashTable::new();
        } else {
            self.table.clear();
        }
    }
}
