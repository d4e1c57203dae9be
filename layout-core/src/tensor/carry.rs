//! Destination rows that do not start on cache lines, still streamed a whole line at a time.
//! A transpose whose destination rows are not a whole number of lines apart
//! (`bf16[50257,768]{1,0}` -> `{0,1}`), or whose destination does not start on a line, writes
//! each row in pieces, a block at a time, and the first and last lines of a piece are shared
//! with the row's pieces before and after it. Stored normally, such a line is first read from
//! memory (a read-for-ownership) and written back later; streamed in two parts, it leaves the
//! write-combining buffer as two partial writes.
//!
//! So each destination row keeps a slot ([`Carry`]): the last partial line of a piece is held
//! back there, and the row's next piece, which starts where it ended, completes it and
//! streams it whole ([`Carry::put`]). A line no later piece completes (a row's last, shared
//! with the next row; one a row sharing the slot displaces) is stored normally, when it is
//! displaced or at the end of the copy ([`Carry::flush`]).

#[cfg(target_arch = "x86_64")]
use super::stream;
use super::stream::LINE;

/// Bytes of scratch a slot takes: its line, and its tag.
const SLOT_BYTES: usize = LINE + 8;

/// The most slots a carry has (1 MiB of lines): rows past it share slots, each displacing the
/// other's line into memory with normal stores (correct, only slower).
pub(crate) const MAX_SLOTS: usize = 1 << 14;

/// The lines of scratch that hold `slots` slots.
pub(crate) const fn lines_for(slots: usize) -> usize {
    (slots * SLOT_BYTES).div_ceil(LINE)
}

/// The partial lines held back, one slot per destination row (row `key` in slot `key` modulo
/// the slots, a power of two), in a kernel's scratch. A slot's tag is 0 where it is empty,
/// else `(line + 1) · 64 + held`: it holds the first `held` bytes (1 to 63) of the line that
/// starts `line` bytes into the destination.
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

    /// Stores what slot `slot` holds where its line lies in `dst` (normally), and empties it.
    fn spill(&mut self, slot: usize, dst: &mut [u8]) {
        let tag = self.tag(slot);
        if tag == 0 {
            return;
        }
        let (line, held) = (
            (tag / LINE as u64 - 1) as usize,
            (tag % LINE as u64) as usize,
        );
        dst[line..line + held].copy_from_slice(&self.lines[slot][..held]);
        self.set(slot, 0);
    }

    /// `dst[at..][..row.len()] = row`, a piece of destination row `key`: its whole lines
    /// streamed, its first partial line completed from the row's slot and streamed if the
    /// slot holds the rest of it (else stored normally), its last partial line held back in
    /// the slot (displacing what the slot held).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(crate) fn put(&mut self, dst: &mut [u8], at: usize, row: &[u8], key: usize) {
        let slot = key & (self.tags.len() - 1);
        let skew = (dst.as_ptr() as usize + at) % LINE;
        let mut done = 0;
        if skew != 0 {
            let head = (LINE - skew).min(row.len());
            let held = self.tag(slot);
            let line = at.wrapping_sub(skew);
            if at >= skew && held == ((line + 1) * LINE + skew) as u64 {
                let data = &mut self.lines[slot];
                data[skew..skew + head].copy_from_slice(&row[..head]);
                if skew + head == LINE {
                    let to: &mut [u8; LINE] =
                        (&mut dst[line..line + LINE]).try_into().expect("a line");
                    stream::line(to, data);
                    self.set(slot, 0);
                } else {
                    self.set(slot, held + head as u64);
                }
            } else {
                dst[at..at + head].copy_from_slice(&row[..head]);
            }
            done = head;
        }
        let body = (row.len() - done) / LINE * LINE;
        stream::copy(&mut dst[at + done..][..body], &row[done..done + body]);
        done += body;
        if done < row.len() {
            let tail = row.len() - done;
            self.spill(slot, dst);
            self.lines[slot][..tail].copy_from_slice(&row[done..]);
            self.set(slot, ((at + done + 1) * LINE + tail) as u64);
        }
    }

    /// Stores every line still held into `dst` (normally), emptying the carry.
    pub(crate) fn flush(&mut self, dst: &mut [u8]) {
        for slot in 0..self.tags.len() {
            self.spill(slot, dst);
        }
    }
}
