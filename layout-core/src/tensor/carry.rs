//! Destination rows that are not a whole number of lines apart, still streamed a whole line
//! at a time. A transpose into such rows (`bf16[50257,768]{1,0}` -> `{0,1}`) writes each row
//! in pieces, a block at a time, and the first and last lines of memory a piece touches are
//! shared with the row's pieces before and after it. Stored normally, such a line is first
//! read from memory (a read-for-ownership) and written back later; streamed in two parts, it
//! leaves the write-combining buffer as two partial writes.
//!
//! So each destination row keeps a slot ([`Carry`]) holding the last line of its last piece.
//! A block is transposed into a stage a few rows at a time, each row after a line of its own
//! into which [`Carry::lead`] copies the slot's line; [`Carry::stream`] then streams every line
//! of memory the piece fills, the first made of the held bytes and the piece's, and keeps the
//! piece's last line for the row's next piece, which starts where this one ends. Bytes no
//! later piece takes (a row's last, shared with the next row; a slot another row displaces)
//! are stored normally, when displaced or at the end of the copy ([`Carry::flush`]).
//!
//! Measured (64 MiB, three alternating runs, GB/s, against the plain stores before):
//! `bf16[50257,768]` transposed 5.1-5.4 -> 6.0-6.4 with each row's partial lines completed
//! in place, 6.4-7.1 in this form; `f32[4099,4093]` 6.3-6.4 -> 6.6-7.0. Still short of the
//! transposes whose rows start on lines (`bf16[50176,768]` 10-11 GB/s, straight from the
//! registers): forced onto rows that start on lines, this path ran 7.0-7.3 GB/s there, the
//! pass through the stage its cost. Carrying inside the kernels instead (each 64 bytes of a
//! row shifted into its slot and the slot's line streamed from there, a store then an
//! overlapping load) ran 4.3 GB/s; putting the stage's rows a line of each of eight rows at a
//! time, 4.5; each line of memory made in AVX2 registers from the row's previous 64 bytes
//! (kept in its slot) and its new ones (byte shifts by `vpshufb`, no overlapping load) and
//! streamed straight from there, 5.8 against 6.8-7.1 this way (`f32[4099,4093]` 4.7 against
//! 6.8).

#[cfg(target_arch = "x86_64")]
use super::stream;
use super::stream::LINE;

/// Bytes of scratch a slot takes: its line, and its tag.
const SLOT_BYTES: usize = LINE + 8;

/// The destination rows of a panel transposed into the stage at a time, so that their lines
/// stream out while the next rows are transposed, each after a line of its own (see
/// [`Carry::lead`]).
pub(crate) const ROWS: usize = 32;

/// The most slots a carry has (1 MiB of lines): rows past it share slots, each displacing the
/// other's line into memory with normal stores (correct, only slower).
const MAX_SLOTS: usize = 1 << 14;

/// The lines of scratch a carry for `rows` destination rows takes: a slot a row, rounded up to
/// a power of two, at most [`MAX_SLOTS`] ([`Carry::new`] finds as many in them).
pub(crate) const fn lines_for(rows: usize) -> usize {
    let slots = if rows < MAX_SLOTS { rows } else { MAX_SLOTS };
    (slots.next_power_of_two() * SLOT_BYTES).div_ceil(LINE)
}

/// The last lines held back, one slot per destination row (row `key` in slot `key` modulo
/// the slots, a power of two), in a kernel's scratch. A slot's tag is 0 where it is empty,
/// else `end + 1`: it holds the last line of a piece that ends `end` bytes into the
/// destination, whose bytes past the last line of memory the piece filled are still to be
/// written.
pub(crate) struct Carry<'a> {
    tags: &'a mut [[u8; 8]],
    lines: &'a mut [[u8; LINE]],
}

impl<'a> Carry<'a> {
    /// The carry in `scratch`, the most slots that fit (a power of two), or `None` if not one
    /// does.
    pub(crate) fn new(scratch: &'a mut [[u8; LINE]]) -> Option<Carry<'a>> {
        let fit = (scratch.len() * LINE / SLOT_BYTES).min(MAX_SLOTS);
        if fit == 0 {
            return None;
        }
        let slots = 1 << fit.ilog2();
        let (lines, rest) = scratch.split_at_mut(slots);
        let (tags, _) = rest.as_flattened_mut().as_chunks_mut::<8>();
        let tags = &mut tags[..slots];
        Some(Carry { tags, lines })
    }

    fn tag(&self, slot: usize) -> u64 {
        u64::from_ne_bytes(self.tags[slot])
    }

    fn set(&mut self, slot: usize, tag: u64) {
        self.tags[slot] = tag.to_ne_bytes();
    }

    /// Stores the bytes slot `slot` holds back into `dst` (normally), and empties it: the last
    /// of its line, those past the last line of memory its piece filled.
    fn spill(&mut self, slot: usize, dst: &mut [u8]) {
        let tag = self.tag(slot);
        if tag == 0 {
            return;
        }
        let end = (tag - 1) as usize;
        let skew = (dst.as_ptr() as usize + end) % LINE;
        dst[end - skew..end].copy_from_slice(&self.lines[slot][LINE - skew..]);
        self.set(slot, 0);
    }

    /// Before destination row `key`'s piece at byte `at` of `dst` is transposed: whether the
    /// row's slot holds its last piece's last line, which ends at `at`, now copied into `gap`
    /// (the line before the piece's bytes in the stage, see [`stream`](Self::stream)). Else
    /// what the slot held is stored into `dst` (normally).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(crate) fn lead(
        &mut self,
        dst: &mut [u8],
        (at, key): (usize, usize),
        gap: &mut [u8; LINE],
    ) -> bool {
        let slot = key & (self.tags.len() - 1);
        if self.tag(slot) == at as u64 + 1 {
            *gap = self.lines[slot];
            return true;
        }
        self.spill(slot, dst);
        false
    }

    /// Destination row `key`'s piece, `ext[LINE..]` (whole lines), into `dst` from byte
    /// `at`: every line of memory it fills streamed whole, from the stage (`ext`'s first line
    /// holds what [`lead`](Self::lead) copied there, the row's bytes before `at` in their line
    /// of memory, if `held`; else that line's bytes from `at` are stored normally); its last
    /// line held back in the row's slot, for the bytes past the last line of memory it fills.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(crate) fn stream(
        &mut self,
        dst: &mut [u8],
        (at, key): (usize, usize),
        ext: &[u8],
        held: bool,
    ) {
        let len = ext.len() - LINE;
        let skew = (dst.as_ptr() as usize + at) % LINE;
        let slot = key & (self.tags.len() - 1);
        // `ext[from..]` goes to `dst[to..]`, a line of memory at a time (`to` wraps below 0
        // where the piece's first line of memory starts before `dst`, never to be stored).
        let mut from = LINE - skew;
        let mut to = at.wrapping_sub(skew);
        if skew != 0 && !(held && at >= skew) {
            dst[at..to.wrapping_add(LINE)].copy_from_slice(&ext[LINE..LINE + from]);
            from += LINE;
            to = to.wrapping_add(LINE);
        }
        while to + LINE <= at + len {
            let line: &mut [u8; LINE] = (&mut dst[to..to + LINE]).try_into().expect("a line");
            stream::line(line, ext[from..from + LINE].try_into().expect("a line"));
            from += LINE;
            to += LINE;
        }
        if self.tag(slot) != at as u64 + 1 {
            // Another row's bytes, which no piece of that row took: stored normally.
            self.spill(slot, dst);
        }
        if skew == 0 {
            self.set(slot, 0);
        } else {
            self.lines[slot] = ext[len..].try_into().expect("a line");
            self.set(slot, (at + len) as u64 + 1);
        }
    }

    /// Stores every line still held into `dst` (normally), emptying the carry.
    pub(crate) fn flush(&mut self, dst: &mut [u8]) {
        for slot in 0..self.tags.len() {
            self.spill(slot, dst);
        }
    }
}
