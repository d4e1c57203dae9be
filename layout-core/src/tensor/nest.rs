//! A relayout's loops ordered into a nest around a kernel.
//!
//! The kernel is what the innermost loops do at once: copy a run of slots consecutive on both
//! sides, interleave 2, 4 or 8 source rows into one run (or split one), transpose a block
//! whose rows are consecutive in the source and whose columns are consecutive in the
//! destination (a vector at a time, up to a cache line a side, so that both sides read and
//! write whole lines; slot by slot in registers for blocks narrower than a vector), or move
//! one element. The loops around the kernel are ordered so that both sides stream through
//! memory: when the kernel writes (or reads) whole lines on one side, by the other side's
//! strides, largest outermost, so that it is read (or written) in order; otherwise by their
//! smaller stride, so that the lines a kernel touches in part are finished by the next few
//! kernels while they are still in the L1 cache. A transpose's innermost sweep is cut short
//! so that the pages it touches on the other side stay in the TLB.

use alloc::vec::Vec;
use core::ops::Range;

use super::digits::{Loop, split};
use super::lanes;
use super::stream::{LINE, PAGE, PANEL_BYTES};
use crate::index::MAX_EXPANDED_RANK;

/// The largest block side of the transpose kernel, in slots.
pub(crate) const MAX_BLOCK: usize = 16;

/// The largest destination-contiguous side of a block: 32 one-byte slots.
pub(crate) const MAX_WIDE: usize = 32;

/// The longest run of the interleaving kernels (2, 4 or 8 rows into one run, or back).
pub(crate) const MAX_RUN: usize = 128;

/// The largest copy, in bytes of either side, whose vector transpose is listed when planned
/// (`schedule`). Measured hot against the nest's in-place loop (ns a copy, best of 5): 4 KiB
/// f32 2-D transpose 106 -> 60, 16 KiB u8 934 -> 291, 32 KiB f32 889 -> 605, f64 1123 -> 635,
/// 64 KiB f32 1580 -> 1306, u8 2529 -> 1471, f32 4-D reversal 2710 -> 2061.
pub(crate) const SMALL_BYTES: usize = 64 << 10;

/// The most bytes across the rows of an interleave of a number of rows that is not a power
/// of two (3 to 15: `kernels::zip_any`), a group of one slot of each row.
pub(crate) const ANY_ROWS_BYTES: usize = 64;

/// What the innermost loops of a nest do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// One element.
    Element,
    /// A run of `size` slots, consecutive on both sides.
    Run(Loop),
    /// A block of `a.size × b.size` slots: `a` steps the destination by one slot, `b` the
    /// source. Both sides powers of two (`a` up to [`MAX_WIDE`], `b` up to [`MAX_BLOCK`]), or
    /// 2, 4 or 8 rows interleaved
    /// into (or split from) runs of up to [`MAX_RUN`].
    Block { a: Loop, b: Loop, form: Form },
}

impl Kernel {
    /// Slots consecutive in the source and in the destination that one step of the kernel
    /// moves (its rows' lengths).
    pub(crate) fn rows(&self) -> (usize, usize) {
        match *self {
            Kernel::Element => (1, 1),
            Kernel::Run(l) => (l.size, l.size),
            Kernel::Block { a, b, form } => match form {
                Form::Zip => (b.size, a.size * b.size),
                Form::Unzip => (a.size * b.size, a.size),
                Form::Square => (b.size, a.size),
                Form::Lanes { wide, .. } => (b.size * wide[1].size, a.size * wide[0].size),
            },
        }
    }
}

/// How a block kernel moves its block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// `a.size` (2, 4 or 8) source rows interleaved into one destination run.
    Zip,
    /// One source run split into `b.size` (2, 4 or 8) destination rows.
    Unzip,
    /// A transpose in registers, slot by slot (blocks narrower than a vector).
    Square,
    /// A transpose of whole 16-byte vectors, up to a cache line a side, or a panel when the
    /// array is too large for the cache ([`PANEL_BYTES`]; see `kernels::lanes`). A side
    /// shorter than a line may be widened by a second loop that continues it on its
    /// contiguous side (`wide`, for `a` and `b`; one step if not): a
    /// transposed `T(8,128)` tile's 8-slot rows become destination rows of four lines, from
    /// eight tiles (measured: `{0,1:T(8,128)}` to rows 0.35-0.42 -> 0.47-0.51 of memcpy
    /// against rows of one line; widening sides that already fill a line was slower).
    /// `inner` > 1: each slot a block of `inner × inner` elements, transposed too
    /// (`lanes::transpose_slots`; see `digits::folded`).
    Lanes { wide: [Loop; 2], inner: usize },
}

/// A loop whose steps a block kernel's side would take `p` at a time to make vector blocks,
/// and the fewest that make one (`least`, a power of two): see [`Nest::widening`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Widening {
    pub(crate) at: Loop,
    pub(crate) p: usize,
    pub(crate) least: usize,
}

/// The loops of a copy around a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Nest {
    /// Outermost first.
    pub(crate) outer: Vec<Loop>,
    pub(crate) kernel: Kernel,
    /// Each dimension's size: clipped loops stop below it.
    pub(crate) bounds: Vec<usize>,
    /// Whether its transposes go in panels ([`panel_sides`]).
    pub(crate) panels: bool,
}

/// Which steps of a nest a walk takes: steps `steps` of the loop at `depth` (outermost 0),
/// all steps of the others; offsets counted from slots `origin` (destination, source).
#[derive(Clone, Debug)]
pub(crate) struct Slice {
    pub(crate) depth: usize,
    pub(crate) steps: Range<usize>,
    pub(crate) origin: (usize, usize),
}

impl Slice {
    /// Steps `steps` of the outermost loop, offsets counted from the buffers' starts.
    pub(crate) fn outer(steps: Range<usize>) -> Slice {
        Slice {
            depth: 0,
            steps,
            origin: (0, 0),
        }
    }
}

/// One call of the kernel loop: `n` steps of `step` from the offsets `at` (destination,
/// source), with `base` the index value each dimension has reached in the outer loops.
pub(crate) struct Leaf<'a> {
    pub(crate) base: &'a [usize],
    pub(crate) at: (usize, usize),
    pub(crate) step: Loop,
    pub(crate) n: usize,
}

impl Leaf<'_> {
    /// The offsets (destination, source) of step `k` of the leaf's loop.
    #[inline(always)]
    pub(crate) fn offsets(&self, k: usize) -> (usize, usize) {
        (self.at.0 + k * self.step.dst, self.at.1 + k * self.step.src)
    }
}

/// A loop of one step.
pub(crate) const ONCE: Loop = Loop {
    size: 1,
    dst: 0,
    src: 0,
    dim: 0,
    mult: 0,
    top: false,
    clip: false,
};

/// Merges loops that step both sides contiguously into one (neither may clip).
fn coalesce(loops: &mut Vec<Loop>) {
    'again: loop {
        for x in 0..loops.len() {
            for y in 0..loops.len() {
                let (o, i) = (loops[x], loops[y]);
                if x != y
                    && !o.clip
                    && !i.clip
                    && Some(o.dst) == i.size.checked_mul(i.dst)
                    && Some(o.src) == i.size.checked_mul(i.src)
                {
                    loops[y] = Loop {
                        size: o.size * i.size,
                        top: false,
                        ..i
                    };
                    loops.remove(x);
                    continue 'again;
                }
            }
        }
        return;
    }
}

/// Bytes along each side of the tile of blocks that the innermost loops around a block
/// kernel cover: whole cache lines on both sides, all in the L1 cache together.
pub(crate) const TILE_BYTES: usize = 256;

/// The block side for `l`, at most `max`: the largest power of two that divides its size or,
/// for a clipped top digit, any that fits (the clip catches the overhang).
fn block_side(l: &Loop, max: usize) -> usize {
    let mut b = max;
    while b > 1 && (b > l.size || !(l.size.is_multiple_of(b) || (l.top && l.clip))) {
        b /= 2;
    }
    b
}

/// [`block_side`] for a vector block's side, which may also overhang a top digit where the
/// edge holds at most a 64th of the side (its loop then clips, [`split`], and the blocks the
/// array's edge cuts go slot by slot). A transpose of dims with few factors of two
/// (`f32[4100,4100]`, `u8[8191,8193]`) then moves whole lines a vector at a time but at the
/// edge, not 16-byte rows or single slots; measured (64 MiB, against memcpy): `f32[4099,4093]`
/// 0.12 -> 0.41, `u8[8191,8193]` 0.01 -> 0.20, `bf16[50257,768]` 0.14 -> 0.54,
/// `f32[4100,4100]` 0.23 -> 0.53; sides overhanging by more (`f32[16384,1000]`, 104 of 128
/// slots of the last block) lost 0.61 -> 0.25.
fn kernel_side(l: &Loop, max: usize) -> usize {
    let fits = |b: usize| {
        let edge = l.size % b;
        edge == 0 || (l.top && (l.clip || edge.saturating_mul(64) <= l.size))
    };
    let mut b = max;
    while b > 1 && (b > l.size || !fits(b)) {
        b /= 2;
    }
    b
}

/// The block sides of a transpose of whole vectors for the destination-contiguous loop `a`
/// and the source-contiguous loop `b` of slots of `bits` bits: each side a cache line, or
/// less where its loop is shorter, but at least a vector. A side may be shorter than a
/// vector (the 8 rows of a tile of bytes) where [`widen`] will continue it to a vector or
/// more from `loops` (the next tiles): a vector group's rows then span its steps. With
/// `panel` (a panel's sides, [`panel_sides`]), up to those sides instead of a line.
fn vector_block(
    a: Loop,
    b: Loop,
    bits: usize,
    loops: &[Loop],
    panel: Option<[usize; 2]>,
    overhang: bool,
) -> Option<[usize; 2]> {
    let (line, vector) = (8 * LINE / bits, (8 * lanes::BYTES / bits).max(1));
    let [ca, cb] = panel.unwrap_or([line, line]);
    // Each side as long as its loop allows with few slots at the edge; where that is shorter
    // than a vector (an odd dim of a few vectors), with `overhang`, a vector overhanging by
    // any amount (the least edge: measured u8[100,77] transposed in 18.6 us with sides of 64,
    // 1.4 with 16).
    let side = |l: &Loop, most: usize| match kernel_side(l, most) {
        k if overhang && k < vector && l.top && l.size > vector => vector,
        k => k,
    };
    let sides = [side(&a, ca.max(1)), side(&b, cb.max(1))];
    // (A side that overhangs its loop makes it clip, and a clipped nest is not widened.)
    let clean = !a.clip
        && !b.clip
        && !loops.iter().any(|l| l.clip)
        && a.size.is_multiple_of(sides[0])
        && b.size.is_multiple_of(sides[1]);
    // Side `k` (`a` if `dst`) is a vector or more, or `widen` continues its whole loop to one.
    let enough = |k: usize, side: &Loop, dst: bool| {
        let most = match panel {
            Some(_) if dst => ca,
            Some(_) => cb,
            None if dst => WIDE_ROWS * line,
            None => line,
        };
        k >= vector
            || (k >= 2
                && k == side.size
                && clean
                && continuation(loops, side, dst)
                    .is_some_and(|i| block_side(&loops[i], most / k) * k >= vector))
    };
    // One loop may continue both sides (it steps both by the sides' lengths): it widens `a`
    // only, so `b` may not count on it.
    let shared =
        continuation(loops, &a, true).is_some_and(|i| Some(i) == continuation(loops, &b, false));
    (bits <= 8 * lanes::BYTES
        && enough(sides[0], &a, true)
        && enough(sides[1], &b, false)
        && !(shared && sides[1] < vector))
        .then_some(sides)
}

/// The loop of `loops` that continues `side` on its contiguous side: the destination's if
/// `dst`, else the source's.
fn continuation(loops: &[Loop], side: &Loop, dst: bool) -> Option<usize> {
    loops.iter().position(|l| {
        if dst {
            l.dst == side.size * side.dst
        } else {
            l.src == side.size * side.src
        }
    })
}

/// Lines a destination row of a vector block shorter than a line is widened to.
const WIDE_ROWS: usize = 4;

/// For each side of a vector block shorter than `line` slots, the loop of `loops` that
/// continues it on its contiguous side (the destination's for `a`, the source's for `b`),
/// taken out of `loops` for as many steps as fill the line (for `a`, [`WIDE_ROWS`] lines);
/// one step where there is none. The destination side `a` is widened so even when it is a
/// whole line, if the destination rows are a page or more apart and the widened block's
/// source rows still fit a page (4- and 8-byte slots): each visit then writes
/// [`WIDE_ROWS`] lines of a destination row, not one. Measured f32 2-D transpose 0.58-0.65
/// -> 0.78-0.89 of memcpy, `{3,2,1,0}` -> `{1,0,3,2}` 0.60-0.68 -> 0.82-0.91, the 4-D
/// reversal 0.50-0.55 -> 0.53-0.63, f64 2-D transpose 0.68-0.74 -> 0.78-0.84; bf16 and u8
/// blocks so widened outgrow the page of the kernels' stage (u8 2-D transpose 0.62-0.69 ->
/// 0.18-0.20).
/// With `panel`, each side up to the panel's instead ([`panel_sides`]).
/// Only when no loop clips: the edge of a clipped block is copied over `a` and `b` alone.
fn widen(
    loops: &mut Vec<Loop>,
    sides: [Loop; 2],
    bits: usize,
    panel: Option<[usize; 2]>,
) -> [Loop; 2] {
    let mut wide = [ONCE; 2];
    if sides.iter().chain(loops.iter()).any(|l| l.clip) {
        return wide;
    }
    let line = 8 * LINE / bits;
    let scattered = sides[1].dst * bits / 8 >= PAGE && sides[1].size * WIDE_ROWS * LINE <= PAGE;
    for (k, (side, w)) in sides.iter().zip(&mut wide).enumerate() {
        let line = match panel {
            Some(sides) => sides[k],
            None if k == 0 && (side.size < line || scattered) => WIDE_ROWS * line,
            None => line,
        };
        if side.size < line
            && let Some(i) = continuation(loops, side, k == 0)
        {
            let c = loops.remove(i);
            let (o, inner) = split(c, block_side(&c, line / side.size));
            loops.extend(o);
            *w = inner;
        }
    }
    wide
}

#[cfg(test)]
extern crate std;

#[cfg(test)]
std::thread_local! {
    /// The least bytes of an array whose transposes go in panels, and whether they are sized
    /// as a streamed copy's: set by a test, to take the panels' paths on small arrays (per
    /// thread: other tests, running beside it, check which plans their copies get).
    static PANELS_FROM: core::cell::Cell<Option<(usize, bool)>> =
        const { core::cell::Cell::new(None) };
}

/// Runs `f` with the transposes of arrays of any size in panels on this thread, sized as a
/// streamed copy's if `streamed` (see [`Nest::sized`]), then as before.
#[cfg(test)]
pub(crate) fn with_panels<R>(streamed: bool, f: impl FnOnce() -> R) -> R {
    PANELS_FROM.with(|p| p.set(Some((0, streamed))));
    let out = f();
    PANELS_FROM.with(|p| p.set(None));
    out
}

/// The sides of a panel of slots of `bits`: `a` destination-contiguous slots (a destination
/// row of a few lines) by `b` source-contiguous ones, to fill the panel's bytes (at most
/// [`PANEL_BYTES`]), for a copy that streams or not. Measured (64 MiB, medians of three or
/// four alternating runs, against memcpy), with 32 KiB panels of destination rows of 4
/// lines: u8 2-D transpose with destination rows of 4, 2 and 1 lines 0.43-0.45, 0.46-0.51,
/// 0.48; u8 rows -> `{0,1:T(8,128)}` 2 lines 0.41, 1 line 0.48; s4 `{1,0:E(4)}` ->
/// `{0,1:E(4)}` 2 lines 0.28-0.38, 1 line 0.36-0.39 (`E(4)` fields: 1 line; bytes: 2 lines
/// since they go in square blocks of 4-byte words, `kernels::panels`; `u8[8191,8193]`,
/// whose destination rows are not on lines and go in 16-byte groups, 0.26 -> 0.24). Since
/// the square blocks of 4- to 16-byte slots (`kernels::squares`): f32 in 64 KiB panels of
/// 8-line rows (512 bytes a row on both sides), against 32 KiB of 4 lines, 2-D transpose
/// 0.71 -> 0.81, rows -> `{0,1:T(8,128)}` 0.69 -> 0.75, 4-D reversal 0.60 -> 0.66,
/// `f32[4099,4093]` 0.40 -> 0.45 (32 KiB of 8 lines 0.64 on the 2-D transpose), but in cache
/// (`streamed` false; hot, 4 MiB) f32 1024² 0.40 -> 0.33; c128 in 32 KiB of 8 lines 0.73 ->
/// 0.81 (64 KiB 0.62; in cache 0.385 -> 0.438); f64 stays at 4 lines (8: 0.72 -> 0.70, rows
/// -> `{0,1:T(8,128)}` 0.73 -> 0.68), bf16 too (2 lines: 2-D 0.61 -> 0.64 but
/// `bf16[50257,768]` 0.49 -> 0.38). Since `E(4)` fields are zipped eight rows to a word
/// (`kernels::transpose_fields_into_lines`): 64 KiB of 2-line rows against 32 KiB of 1
/// line, s4 `{1,0:E(4)}` -> `{0,1:E(4)}` 0.47-0.50 -> 0.60-0.62, `T(8,128)E(4)` ->
/// `{0,1:T(8,128)E(4)}` 0.72-0.76 -> 0.80 (4 lines 0.43-0.69, 8 lines 0.52-0.55); in cache
/// within the noise. `E(2)` and `E(1)` fields since they are zipped into words too
/// (`kernels::transpose_fields_into_lines`), in panels against blocks of a line a side
/// (medians of four alternating runs): u2 `{1,0:E(2)}` -> `{0,1:E(2)}` 0.31 -> 0.38 in
/// 32 KiB of 1-line rows, 0.43 in 64 KiB (2 lines 0.35), u1 0.31 -> 0.33 in 32 KiB, 0.34 in
/// 64 KiB of 1 line, 0.41 of 2 lines (but u1 `{0,1:E(1)}` -> `T(8,128)E(1)` 0.26 -> 0.25).
/// Since the zipped planes' rows are padded off the L1 sets (`kernels::
/// transpose_fields_into_lines`), `E(4)` in 32 KiB of 2-line rows: s4 `{1,0:E(4)}` ->
/// `{0,1:E(4)}` 9.2-9.7 -> 9.8-10.5 GB/s (seven alternating runs, both orders), `T(8,128)E(4)`
/// -> `{0,1:T(8,128)E(4)}` and transposed tiles that overhang even; u1 lost so (5.6-6.2 ->
/// 4.9-5.4) and stays at 64 KiB.
fn panel_sides(bits: usize, streamed: bool) -> [usize; 2] {
    let (lines, bytes) = match bits {
        4 => (2, 32 << 10),
        1 => (2, PANEL_BYTES),
        ..=2 => (1, PANEL_BYTES),
        8 => (2, 32 << 10),
        32 if streamed => (8, PANEL_BYTES),
        128 => (8, 32 << 10),
        _ => (WIDE_ROWS, 32 << 10),
    };
    let a = 8 * lines * LINE / bits;
    [a, 8 * bytes / bits / a]
}

/// The most block rows one sweep of a transpose's innermost loop takes: each block touches
/// a page per row on the side the sweep does not follow, and those pages are touched again
/// by the next sweep only if they are still in the TLB (1024 pages: half the second-level TLB
/// of current x86 cores; measured 2-D f32 transposes 0.4 -> 0.55 of memcpy).
const SWEEP_ROWS: usize = 1024;

/// Runs `f` on a zeroed index of `n` dims on the stack: a plan's rank is at most its
/// expanded rank, and zeroing all of that for every walk measured a tenth of a 4 KiB
/// transposed copy, so ranks up to 8 zero only 8.
#[inline(always)]
fn with_index<R>(n: usize, f: impl FnOnce(&mut [usize]) -> R) -> R {
    let mut few = [0; 8];
    if n <= few.len() {
        return f(&mut few[..n]);
    }
    let mut many = [0; MAX_EXPANDED_RANK];
    f(&mut many[..n])
}

/// Cuts the innermost loop's sweep to `steps` steps, the rest of it outermost.
fn sweep(loops: &mut Vec<Loop>, steps: usize) {
    let Some(&last) = loops.last() else {
        return;
    };
    let k = block_side(&last, steps);
    if last.size > steps && k > 1 {
        let (out, inner) = split(last, k);
        *loops.last_mut().expect("not empty") = inner;
        loops.splice(0..0, out);
    }
}

/// How far `loops`, all of one dim, reach on one side (`side`) at index `x` of the dim: where
/// they are the digits of a mixed radix (each loop's `mult` the product of the sizes below
/// it) whose strides each pass the reach of the digits below, so that the reach grows with
/// the index and is largest at the dim's last index; `None` otherwise.
fn digits_reach(loops: &[&Loop], x: usize, side: &impl Fn(&Loop) -> usize) -> Option<usize> {
    let mut sorted = loops.to_vec();
    sorted.sort_by_key(|l| l.mult);
    let (mut mult, mut below, mut at) = (1usize, 0usize, 0usize);
    for l in sorted {
        if l.mult != mult || side(l) <= below {
            return None;
        }
        below = below.checked_add((l.size - 1).checked_mul(side(l))?)?;
        at = at.checked_add((x / l.mult % l.size).checked_mul(side(l))?)?;
        mult = mult.checked_mul(l.size)?;
    }
    Some(at)
}

impl Nest {
    /// Orders `loops` (of an array with dims `bounds`) around the fastest kernel they allow;
    /// `bits` is the bits of a slot (8 for a byte; 4 for `E(4)` fields, whose block kernels
    /// go through bytes), 0 when the storage has no block kernel (other packed elements).
    pub(crate) fn new(loops: Vec<Loop>, bounds: Vec<usize>, bits: usize) -> Nest {
        Nest::build(loops, bounds, bits, None, bits % 8)
    }

    /// [`new`](Self::new) for a copy of packed fields of `fields` bits (1, 2 or 4) on both
    /// sides that moves them as runs, not in block kernels.
    pub(crate) fn of_fields(loops: Vec<Loop>, bounds: Vec<usize>, fields: usize) -> Nest {
        Nest::build(loops, bounds, 0, None, fields)
    }

    /// [`new`](Self::new) for a copy of whole-byte slots or of `E(4)` fields on both sides
    /// (whose kernels stage whole blocks), whose transposes of arrays past
    /// [`PANEL_CACHED_BYTES`](super::stream::PANEL_CACHED_BYTES) (whole-byte slots) or
    /// [`STREAM_BYTES`](super::stream::STREAM_BYTES) (`E(4)` fields) go in panels
    /// ([`PANEL_BYTES`]) if `panels` (not the steps of a two-step copy, which move a slab in
    /// cache at a time).
    pub(crate) fn sized(loops: Vec<Loop>, bounds: Vec<usize>, bits: usize, panels: bool) -> Nest {
        let bytes = bounds.iter().fold(bits, |n, &b| n.saturating_mul(b)) / 8;
        let from = if bits.is_multiple_of(8) {
            super::stream::PANEL_CACHED_BYTES
        } else {
            super::stream::STREAM_BYTES
        };
        let streamed = bytes >= super::stream::STREAM_BYTES;
        #[cfg(test)]
        let (from, streamed) = PANELS_FROM
            .with(core::cell::Cell::get)
            .unwrap_or((from, streamed));
        Nest::build(
            loops,
            bounds,
            bits,
            (panels && bytes >= from).then_some(streamed),
            bits % 8,
        )
    }

    /// `panels`: whether transposes go in panels, and if so whether the copy streams;
    /// `fields`: the bits of a packed field (1, 2 or 4), 0 for slots of whole bytes.
    fn build(
        mut loops: Vec<Loop>,
        bounds: Vec<usize>,
        bits: usize,
        panels: Option<bool>,
        fields: usize,
    ) -> Nest {
        let blocks = bits > 0;
        let panel = panels
            .filter(|_| blocks)
            .map(|streamed| panel_sides(bits, streamed));
        coalesce(&mut loops);
        let by_dst = (0..loops.len()).min_by_key(|&k| (loops[k].dst, loops[k].src));
        let by_src = (0..loops.len()).min_by_key(|&k| (loops[k].src, loops[k].dst));
        let kernel = match (by_dst, by_src) {
            (Some(i), Some(s)) if i == s && (loops[i].dst, loops[i].src) == (1, 1) => {
                Kernel::Run(loops.remove(i))
            }
            (Some(i), Some(s)) if blocks && i != s && loops[i].dst == 1 && loops[s].src == 1 => {
                let (a, b) = (loops[i], loops[s]);
                loops.remove(i.max(s));
                loops.remove(i.min(s));
                // Groups of 2, 4 or 8 slots that fit one 8-byte integer (the vector
                // kernels' interleaves), or else, where no vector block fits without a long
                // edge, of 3 to 15 slots of whole bytes, [`ANY_ROWS_BYTES`] at most (an image's
                // channels, a 3×3 kernel's taps: `kernels::zip_any`). Measured (64 MiB,
                // against memcpy): f32[12,1048576] transposed in vector blocks of 4 rows 0.54,
                // interleaved 12 rows at a time 0.30; bf16 0.18 in vector blocks of 8 rows
                // overhanging by 4, 0.24 interleaved; f32[6,2796202] 0.37 in blocks overhanging
                // by 2, 0.79-0.95 interleaved (in cache, f32[6,1024], 1.04 us and 1.50: kept
                // for the large).
                let few = |l: &Loop| matches!(l.size, 2 | 4 | 8) && l.size * bits <= 64;
                let any = |l: &Loop| {
                    l.size > 2
                        && l.size < 16
                        && !l.size.is_power_of_two()
                        && bits.is_multiple_of(8)
                        && l.size * bits <= 8 * ANY_ROWS_BYTES
                };
                // The vector block's sides, with a side shorter than a vector overhanging the
                // loop by any amount or not.
                let [overhung, exact] =
                    [true, false].map(|o| vector_block(a, b, bits, &loops, panel, o));
                // (A copy small enough to be listed prefers a vector block whose edge is at most
                // a quarter of each side: the list moves it with no fixed cost, f32[13,30]
                // transposed in 46 ns, interleaved 13 rows at a time in 216; with more edge,
                // bf16[12,1024], 7209 ns against 2616.)
                let listed = bounds.iter().fold(bits, |n, &b| n.saturating_mul(b)) / 8
                    <= SMALL_BYTES
                    && overhung.is_some_and(|[ka, kb]| {
                        4 * (a.size % ka) <= a.size && 4 * (b.size % kb) <= b.size
                    });
                let zip = |l: &Loop| few(l) || (any(l) && !listed && exact.is_none());
                // A source side of 3, 5, 6 or 7 slots (a short minor dim, such as the 7 of
                // bf16[1000,37,64,7] reversed) is a square block's side whole, not 1, nor a
                // vector overhanging it: measured (64 MiB, against memcpy) bf16 0.06 -> 0.19,
                // u8 0.04 -> 0.12, f32 0.09 (a vector overhanging by 3) -> 0.29-0.35.
                let odd = |l: &Loop| matches!(l.size, 3 | 5 | 6 | 7) && bits.is_multiple_of(8);
                let ([a, b], form) = if zip(&a) && b.dst == a.size {
                    // Interleave `a.size` source rows into one destination run (runs that
                    // may overhang the rows: an odd row length, `f32[7,2396745]` transposed,
                    // 0.29 -> 0.85 of memcpy, not runs of one slot).
                    let (out, b) = split(b, kernel_side(&b, MAX_RUN));
                    loops.extend(out);
                    ([a, b], Form::Zip)
                } else if zip(&b) && a.src == b.size {
                    // Split one source run into `b.size` destination rows (runs as above).
                    let (out, a) = split(a, kernel_side(&a, MAX_RUN));
                    loops.extend(out);
                    ([a, b], Form::Unzip)
                } else if let Some(sides) = if odd(&b) { exact } else { overhung } {
                    // Blocks of whole lines (or as much of a line as the loops give) on both
                    // sides, transposed a vector at a time.
                    let mut out = [a, b];
                    for (side, k) in out.iter_mut().zip(sides) {
                        let (o, l) = split(*side, k);
                        loops.extend(o);
                        *side = l;
                    }
                    let wide = widen(&mut loops, out, bits, panel);
                    (out, Form::Lanes { wide, inner: 1 })
                } else {
                    // Each side: tiles of whole lines, blocks within a tile. Blocks of at
                    // most 256 bytes (they stay in registers) with destination rows of 32
                    // bytes where the loops allow (8×8 f32: measured 4× faster than 16×4).
                    let tile = (8 * TILE_BYTES / bits).max(MAX_BLOCK);
                    let mut cap = (256 / bits).clamp(1, MAX_WIDE);
                    let mut sides = [a, b];
                    for (k, side) in sides.iter_mut().enumerate() {
                        // An odd source side kept whole (`split` of a loop by its own size
                        // leaves it so).
                        let whole = k == 1 && odd(side) && side.size <= cap;
                        let most =
                            |l: &Loop, most| if whole { l.size } else { block_side(l, most) };
                        let (out, t) = split(*side, most(side, tile));
                        let (mid, k) = split(t, most(&t, cap));
                        loops.extend(out);
                        loops.extend(mid);
                        *side = k;
                        cap = (2048 / (k.size * bits)).clamp(1, MAX_BLOCK);
                    }
                    (sides, Form::Square)
                };
                Kernel::Block { a, b, form }
            }
            _ => Kernel::Element,
        };
        // A kernel that writes whole lines on one side leaves nothing for its neighbours to
        // finish there: the loops then follow the other side's memory order (largest stride
        // outermost), so that it streams sequentially. The source's order when the destination
        // rows are whole lines, the transposes' too (reads in order, writes streamed; measured
        // 4-D reversals 0.39-0.44 -> 0.50-0.61 of memcpy against the order of the smaller
        // strides, which walked a block's rows 256 bytes at a time across many pages).
        // Otherwise the loops that move little
        // on either side stay inside, so that the lines a kernel touches in part are finished
        // by the next few kernels while they are still in the L1 cache.
        let (src_row, dst_row) = kernel.rows();
        let line = 8 * LINE / bits.max(1);
        let lanes = matches!(
            kernel,
            Kernel::Block {
                form: Form::Lanes { .. },
                ..
            }
        );
        let short_runs = blocks && matches!(kernel, Kernel::Run(_)) && dst_row < line;
        // Runs of fields narrower than a byte into destination rows that start inside bytes
        // (`s4` rows of an odd length) follow the destination, so that each row's runs come
        // one after the other and go out as one shifted run (`bits::gathered`; measured
        // `s4[8191,8191]` `T(8,128)E(4)` -> rows, 32 MiB, 3.3 -> 6.0 GB/s with it; `E(2)`
        // and `E(1)` fields too: `u2[8191,16383]` 0.12-0.14 -> 0.33-0.36 of memcpy, from
        // `T(8,128)(2,1)E(2)` 0.09-0.10 -> 0.16-0.17, u1 0.05 -> 0.10-0.13).
        let inside_bytes = fields > 0
            && matches!(kernel, Kernel::Run(_))
            && loops.iter().any(|l| !(l.dst * fields).is_multiple_of(8));
        // Runs of packed fields shorter than a destination line, from source rows that start
        // inside bytes (`u2` rows of an odd length into tiles), follow the destination too: a
        // tile's rows one after the other, its lines written whole by consecutive runs
        // (`bits::scattered`).
        let from_inside_bytes = fields > 0
            && matches!(kernel, Kernel::Run(r) if r.size * fields < 8 * LINE)
            && loops.iter().any(|l| !(l.src * fields).is_multiple_of(8));
        // Interleaves of two rows, but of 2-byte slots and `E(4)` fields (see below).
        let pairs = !matches!(bits, 4 | 16)
            && matches!(kernel, Kernel::Block { a, form: Form::Zip, .. } if a.size == 2);
        // Transposes not in panels (arrays in cache) whose destination rows are 2 KiB apart
        // follow the destination: in the source's order they ran at half speed (measured hot,
        // in the L2 cache, GB/s: f32[512,256] 17.6 -> 28.0, f32[512,128] 19 -> 36, f32[512,384]
        // 17 -> 32, bf16[1024,256] 17 -> 29, f64[256,256] 18 -> 26, u8[2048,128] 18 -> 26;
        // not rows 1, 1.5, 4, 6 or 10 KiB apart, nor 16-byte slots, which lost that way:
        // f32[256,512] 33 -> 22, c128[128,256] 21 -> 16).
        let rows_2k = lanes
            && panel.is_none()
            && bits <= 64
            && matches!(kernel, Kernel::Block { b, .. } if b.dst * bits == 8 * 2048);
        loops.sort_by_key(|l| {
            core::cmp::Reverse(
                if short_runs || pairs || inside_bytes || from_inside_bytes {
                    // Runs shorter than a line (tile rows of 16-32 bytes) follow the destination,
                    // so that consecutive runs fill its lines in order (measured u8 rows ->
                    // `T(8,32)` 0.48 -> 0.62-0.69 of memcpy, with `kernels`' gathered lines); so
                    // do interleaves of two rows (a tile's pairs one after the other, reading its
                    // rows side by side), but of 2-byte slots and `E(4)` fields, which follow the
                    // source (measured on a 2-core AMD EPYC VM, medians of 3-4 alternating runs:
                    // u8 rows -> `T(8,128)(2,1)`, pairs of bytes as 2-byte slots, 0.44 -> 0.62;
                    // bf16 rows -> `T(8,128)(2,1)` 0.79-0.87 -> 0.80-0.93, s4 `(2,1)E(4)` 0.53-0.61
                    // -> 0.56-0.64; the machine before measured bf16 1.01-1.09 -> 1.13-1.20 the
                    // other way; `E(2)` and `E(1)` pairs, moved as bytes, lost that way: u1 0.25
                    // -> 0.21, u2 0.29 -> 0.23; f32 within the noise).
                    (l.dst, l.src)
                } else if rows_2k {
                    (l.dst, l.src)
                } else if !blocks || (lanes && dst_row < line) {
                    (l.dst.min(l.src), l.src)
                } else if dst_row >= line {
                    (l.src, l.dst)
                } else if src_row >= line {
                    (l.dst, l.src)
                } else {
                    (l.dst.min(l.src), l.src)
                },
            )
        });
        if let Kernel::Block {
            a,
            b,
            form: Form::Lanes { wide, .. },
        } = kernel
        {
            let rows = (a.size * wide[0].size).max(b.size * wide[1].size);
            sweep(&mut loops, SWEEP_ROWS / rows);
        }
        Nest {
            outer: loops,
            kernel,
            bounds,
            panels: panel.is_some(),
        }
    }

    /// Where a block kernel of slots of `bits` has a side shorter than a vector that a
    /// vector block continues by the loop of `all` (the copy's loops, before any was split)
    /// that continues it on its contiguous side ([`widen`]), a top loop whose size no power
    /// of two divides as far as `widen` would take it (the 125 tile columns of
    /// `s4[1000,1000]` `{0,1:T(8,128)E(4)}`: none above 1; the 500 of `s4[4000,4000]`: 4,
    /// blocks of 16 bytes a destination row): that loop and the power of two `p` of its
    /// steps that a block would take (as many as [`widen`] takes, at most the loop's size),
    /// with `least`, the fewest steps that still make a vector. A box of the array whose
    /// steps of that loop are a multiple of `p` goes in blocks that wide (see
    /// `relayout::Peeled`). Not in panels, which lost that way (`s4[8000,8000]`
    /// `{0,1:T(8,128)E(4)}` -> rows, 64 MiB, two alternating runs: 5.1 -> 4.0 GB/s with
    /// blocks 64 tile columns wide, capped at the panel's 32; no boxes, 8).
    pub(crate) fn widening(&self, bits: usize, all: &[Loop]) -> Option<Widening> {
        let Kernel::Block { a, b, .. } = self.kernel else {
            return None;
        };
        if self.panels {
            return None;
        }
        let (line, vector) = (8 * LINE / bits, (8 * lanes::BYTES / bits).max(1));
        [(a, true, WIDE_ROWS * line), (b, false, line)]
            .into_iter()
            .find_map(|(side, dst, most)| {
                let l = all[continuation(all, &side, dst)?];
                let least = vector.div_ceil(side.size);
                let p = 1 << (most / side.size).min(l.size).max(1).ilog2();
                let widens = side.size < vector && p >= least && !l.size.is_multiple_of(p);
                (widens && l.top && !l.clip).then_some(Widening {
                    at: l,
                    p,
                    least: least.next_power_of_two(),
                })
            })
    }

    /// Number of parts a walk ([`walk_from`](Self::walk_from)) can run separately: the steps
    /// of the outermost loop.
    pub(crate) fn parts(&self) -> usize {
        self.outer.first().map_or(1, |l| l.size)
    }

    /// Steps of `l` that stay inside the array, with `base` the value its dimension has
    /// reached.
    #[inline]
    pub(crate) fn count(&self, l: &Loop, base: usize) -> usize {
        if l.clip {
            l.size.min((self.bounds[l.dim] - base).div_ceil(l.mult))
        } else {
            l.size
        }
    }

    /// The loop whose steps parts of a copy can run side by side on disjoint slices of the
    /// destination, with its destination stride in slots: the loop that moves the
    /// destination most, if it moves it more than all other loops together (so that its
    /// step `k` writes only slots `k · stride ..= (k + 1) · stride - 1`).
    pub(crate) fn split_loop(&self) -> Option<(usize, usize)> {
        self.dominant(|l| l.dst)
    }

    /// The loop that moves one side (`side` gives a loop's stride there) most, if it moves
    /// it more than all other loops together, with that stride: its step `k` reaches only
    /// slots `k · stride ..= (k + 1) · stride - 1` of that side. The loops of a dim that
    /// clips reach only as far as the dim's last index ([`digits_reach`]): the transpose of
    /// `s4[8001,16384]` into rows padded to 8002 fields, whose dim 0 loops span 8192, had no
    /// such loop and went through a whole intermediate of 64 MiB, not in slabs (measured,
    /// best of five, two alternating runs, with `kernels::lined` stores: 1.9 -> 2.6
    /// GB/s).
    pub(crate) fn dominant(&self, side: impl Fn(&Loop) -> usize) -> Option<(usize, usize)> {
        let depth = (0..self.outer.len()).max_by_key(|&k| side(&self.outer[k]))?;
        let kernel = match self.kernel {
            Kernel::Element => [ONCE; 4],
            Kernel::Run(l) => [l, ONCE, ONCE, ONCE],
            Kernel::Block { a, b, form } => match form {
                Form::Lanes { wide, .. } => [a, b, wide[0], wide[1]],
                _ => [a, b, ONCE, ONCE],
            },
        };
        let others: Vec<&Loop> = (self.outer.iter().enumerate())
            .filter(|&(k, _)| k != depth)
            .map(|(_, l)| l)
            .chain(&kernel)
            .filter(|l| l.size > 1)
            .collect();
        let mut reach = 0usize;
        let mut dims: Vec<usize> = others.iter().map(|l| l.dim).collect();
        dims.sort_unstable();
        dims.dedup();
        for dim in dims {
            let loops: Vec<&Loop> = others.iter().copied().filter(|l| l.dim == dim).collect();
            let mut all = 0usize;
            for l in &loops {
                all = all.checked_add((l.size - 1).checked_mul(side(l))?)?;
            }
            // A dim whose loops clip reaches only as far as its last index (below the
            // candidate's own dim, whose other loops run whole under each of its steps).
            let last = self.bounds.get(dim).and_then(|b| b.checked_sub(1));
            let bounded = match last {
                Some(x) if dim != self.outer[depth].dim && loops.iter().any(|l| l.clip) => {
                    digits_reach(&loops, x, &side).map_or(all, |r| r.min(all))
                }
                _ => all,
            };
            reach = reach.checked_add(bounded)?;
        }
        let stride = side(&self.outer[depth]);
        (reach < stride).then_some((depth, stride))
    }

    /// Halves the sweep of a transpose's innermost loop (see [`sweep`]), the outermost loop
    /// taking the steps it gives up: `false` (the nest as it was) where the nest has no such
    /// split (the outermost and innermost loops one dim's digits, the first stepping the
    /// second's whole reach) or the sweep is one step.
    pub(crate) fn halve_sweep(&mut self) -> bool {
        let [out, .., inner] = self.outer[..] else {
            return false;
        };
        let whole =
            |side: fn(&Loop) -> usize| Some(side(&out)) == inner.size.checked_mul(side(&inner));
        if out.dim != inner.dim
            || inner.clip != out.clip
            || !inner.size.is_multiple_of(2)
            || !(whole(|l| l.dst) && whole(|l| l.src) && whole(|l| l.mult))
        {
            return false;
        }
        let Some(size) = out.size.checked_mul(2) else {
            return false;
        };
        let last = self.outer.len() - 1;
        self.outer[0] = Loop {
            size,
            dst: out.dst / 2,
            src: out.src / 2,
            mult: out.mult / 2,
            ..out
        };
        if inner.size == 2 {
            self.outer.pop();
        } else {
            self.outer[last].size /= 2;
        }
        true
    }

    /// The nest with its loop at `depth` moved outermost (the same slots, in another order).
    pub(crate) fn outermost(&mut self, depth: usize) {
        let l = self.outer.remove(depth);
        self.outer.insert(0, l);
    }

    /// Calls `leaf` for every run of the kernel loop, over the steps `slice.steps` of the
    /// loop at `slice.depth` only, destination offsets counted from slot `slice.origin`.
    pub(crate) fn walk_from(&self, slice: &Slice, leaf: &mut impl FnMut(&Leaf<'_>)) {
        self.walk_loops(&self.outer, slice, leaf);
    }

    /// [`walk_from`](Self::walk_from), the innermost loop left to the caller where it does
    /// not clip and the slice does not cut it: `leaf(l, Some(inner))` for every leaf of the
    /// loops around it, each step of which runs `inner` whole; else `leaf(l, None)` for every
    /// leaf `walk_from` gives. A kernel whose leaves are short (a tile's 8 rows) then takes
    /// a row of tiles a call: measured u8 rows -> `T(8,16)` 0.57 -> 0.87-1.08 of memcpy,
    /// `T(8,32)` 0.82 -> 1.05-1.18, f32 -> `T(8,4)` 0.58 -> 1.04-1.15; in cache, s4 rows ->
    /// `T(8,128)E(4)` 25.6 -> 40.9 GB/s, u8 rows -> `T(8,32)` 15.5 -> 29.
    pub(crate) fn walk_pairs_from(
        &self,
        slice: &Slice,
        leaf: &mut impl FnMut(&Leaf<'_>, Option<&Loop>),
    ) {
        match self.outer.split_last() {
            Some((inner, around))
                if !inner.clip && !around.is_empty() && slice.depth < around.len() =>
            {
                self.walk_loops(around, slice, &mut |l| leaf(l, Some(inner)));
            }
            _ => self.walk_from(slice, &mut |l| leaf(l, None)),
        }
    }

    /// [`walk_from`](Self::walk_from), the innermost loop left to the caller, whether it clips
    /// or not: `leaf(l, inner)` for every leaf of the loops around it (the caller counts the
    /// steps of `inner` that stay inside the array, [`count`](Self::count)). False, and
    /// nothing walked, where no loop is around it or the slice cuts it.
    pub(crate) fn walk_around_from(
        &self,
        slice: &Slice,
        leaf: &mut impl FnMut(&Leaf<'_>, &Loop),
    ) -> bool {
        match self.outer.split_last() {
            Some((inner, around)) if !around.is_empty() && slice.depth < around.len() => {
                self.walk_loops(around, slice, &mut |l| leaf(l, inner));
                true
            }
            _ => false,
        }
    }

    /// [`walk_pairs_from`](Self::walk_pairs_from) for a nest whose loops may clip at the
    /// array's edge: `leaf(l, Some(inner))` for the leading steps of each leaf of the loops
    /// around the innermost at which the innermost loop and the kernel's loops `a`, `b` run
    /// whole ([`whole_steps`](Self::whole_steps)), then `leaf(l, None)` for each of its other
    /// steps, a leaf of the innermost loop (its steps counted, `base` at that step), as
    /// [`walk_from`](Self::walk_from) gives them. False, and nothing walked, where no loop is
    /// around the innermost or the slice cuts it.
    pub(crate) fn walk_pairs_clipped_from(
        &self,
        slice: &Slice,
        [a, b]: [Loop; 2],
        leaf: &mut impl FnMut(&Leaf<'_>, Option<&Loop>),
    ) -> bool {
        self.walk_around_from(slice, &mut |l: &Leaf<'_>, inner: &Loop| {
            let whole = if inner.dim == l.step.dim {
                0
            } else {
                self.whole_steps(l, &[*inner, a, b])
            };
            if whole > 0 {
                leaf(&Leaf { n: whole, ..*l }, Some(inner));
            }
            with_index(l.base.len(), |base| {
                base.copy_from_slice(l.base);
                let s = &l.step;
                for k in whole..l.n {
                    if s.clip {
                        base[s.dim] = l.base[s.dim] + k * s.mult;
                    }
                    let n = self.count(inner, base[inner.dim]);
                    let at = l.offsets(k);
                    leaf(
                        &Leaf {
                            base,
                            at,
                            step: *inner,
                            n,
                        },
                        None,
                    );
                }
            });
        })
    }

    /// [`walk_from`](Self::walk_from) over the loops `loops` (`self.outer` or its outer part).
    fn walk_loops(&self, loops: &[Loop], slice: &Slice, leaf: &mut impl FnMut(&Leaf<'_>)) {
        with_index(self.bounds.len(), |base| match loops.split_last() {
            None => {
                if slice.steps.contains(&0) {
                    leaf(&Leaf {
                        base,
                        at: (0, 0),
                        step: ONCE,
                        n: 1,
                    });
                }
            }
            Some((last, rest)) => self.descend(0, rest, last, base, (0, 0), slice, leaf),
        });
    }

    /// The steps of loop `l` at `depth` to walk: all that stay inside the array, or those of
    /// `slice`.
    fn steps(&self, depth: usize, l: &Loop, base: usize, slice: &Slice) -> Range<usize> {
        let n = self.count(l, base);
        if depth == slice.depth {
            slice.steps.start.min(n)..slice.steps.end.min(n)
        } else {
            0..n
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn descend(
        &self,
        depth: usize,
        rest: &[Loop],
        last: &Loop,
        base: &mut [usize],
        at: (usize, usize),
        slice: &Slice,
        leaf: &mut impl FnMut(&Leaf<'_>),
    ) {
        match rest.split_first() {
            None => {
                let steps = self.steps(depth, last, base[last.dim], slice);
                if last.clip {
                    base[last.dim] += steps.start * last.mult;
                }
                leaf(&Leaf {
                    base,
                    at: (
                        at.0 + steps.start * last.dst - slice.origin.0,
                        at.1 + steps.start * last.src - slice.origin.1,
                    ),
                    step: *last,
                    n: steps.len(),
                });
                if last.clip {
                    base[last.dim] -= steps.start * last.mult;
                }
            }
            Some((l, inner)) => {
                let steps = self.steps(depth, l, base[l.dim], slice);
                if l.clip {
                    base[l.dim] += steps.start * l.mult;
                }
                for k in steps.clone() {
                    let at = (at.0 + k * l.dst, at.1 + k * l.src);
                    self.descend(depth + 1, inner, last, base, at, slice, leaf);
                    if l.clip {
                        base[l.dim] += l.mult;
                    }
                }
                if l.clip {
                    base[l.dim] -= steps.end * l.mult;
                }
            }
        }
    }

    /// The index value dimension `dim` reaches at step `k` of a leaf's loop.
    #[inline]
    pub(crate) fn at_step(leaf: &Leaf<'_>, dim: usize, k: usize) -> usize {
        let s = &leaf.step;
        leaf.base[dim]
            + if s.clip && s.dim == dim {
                k * s.mult
            } else {
                0
            }
    }

    /// Number of leading steps of a leaf's loop at which the inner loops `inner` run whole.
    #[inline]
    pub(crate) fn whole_steps(&self, leaf: &Leaf<'_>, inner: &[Loop]) -> usize {
        let mut whole = leaf.n;
        for l in inner.iter().filter(|l| l.clip) {
            let top: usize = inner
                .iter()
                .filter(|m| m.clip && m.dim == l.dim)
                .map(|m| (m.size - 1) * m.mult)
                .sum();
            let room = (self.bounds[l.dim] - leaf.base[l.dim]).saturating_sub(top);
            let s = &leaf.step;
            whole = whole.min(if s.clip && s.dim == l.dim {
                room.div_ceil(s.mult)
            } else if room > 0 {
                leaf.n
            } else {
                0
            });
        }
        whole
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Plan;
    use crate::tensor::digits::loops;
    use crate::text::parse_array;

    fn nest(dst: &str, src: &str) -> Nest {
        nest_of(dst, src, 4)
    }

    /// The nest of a copy from `src` to `dst` in slots of `width` bytes.
    fn nest_of(dst: &str, src: &str, width: usize) -> Nest {
        let plan = |t: &str| Plan::new(&parse_array(t).unwrap()).unwrap();
        let (d, s) = (plan(dst), plan(src));
        Nest::new(loops(&d, &s).unwrap(), d.dims().to_vec(), 8 * width)
    }

    /// The sides of a nest's vector-block kernel and the loops that widen them.
    fn vector_block_of(n: &Nest) -> (Loop, Loop, [Loop; 2]) {
        match n.kernel {
            Kernel::Block {
                a,
                b,
                form: Form::Lanes { wide, .. },
            } => (a, b, wide),
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn tile_rows_are_runs() {
        let n = nest("f32[64,256]{1,0:T(8,128)}", "f32[64,256]{1,0}");
        assert!(matches!(n.kernel, Kernel::Run(l) if l.size == 128));
        // The source's order: tile rows, rows in a tile, tile columns.
        let strides: Vec<_> = n.outer.iter().map(|l| (l.dst, l.src)).collect();
        assert_eq!(strides, [(2048, 2048), (128, 256), (1024, 128)]);
    }

    #[test]
    fn whole_arrays_coalesce() {
        let n = nest("f32[64,128]{1,0:T(8,128)}", "f32[64,128]{1,0}");
        assert!(n.outer.is_empty());
        assert!(matches!(n.kernel, Kernel::Run(l) if l.size == 64 * 128));
    }

    #[test]
    fn pairs_are_blocks() {
        let n = nest("bf16[16,256]{1,0:T(8,128)(2,1)}", "bf16[16,256]{1,0}");
        let Kernel::Block { a, b, .. } = n.kernel else {
            panic!("{:?}", n.kernel)
        };
        // Two rows interleaved into runs of 128 pairs.
        assert_eq!((a.size, a.dst, a.src), (2, 1, 256));
        assert_eq!((b.size, b.dst, b.src), (128, 2, 1));
    }

    #[test]
    fn tiles_of_eight_byte_rows_are_widened_vector_blocks() {
        let n = nest_of("u8[8192,8192]{1,0}", "u8[8192,8192]{0,1:T(8,128)}", 1);
        let (a, b, [wa, wb]) = vector_block_of(&n);
        // A tile's 8 rows (128 bytes apart), half of a 16-row vector group, continued by the
        // next tiles along the destination rows (a row of 64 tiles, 64 KiB, further on) to
        // four destination lines, 256 bytes; a source line, 64 bytes, the other side.
        assert_eq!((a.size, a.dst, a.src), (8, 1, 128));
        assert_eq!((wa.size, wa.dst, wa.src), (32, 8, 8 * 8192));
        assert_eq!((b.size, b.dst, b.src), (64, 8192, 1));
        assert_eq!(wb, ONCE);
    }

    #[test]
    fn rows_into_transposed_tiles_of_bytes_widen_the_source_side() {
        let n = nest_of("u8[8192,4096]{0,1:T(8,128)}", "u8[8192,4096]{1,0}", 1);
        let (a, b, [wa, wb]) = vector_block_of(&n);
        // The mirror of the case above: 64 source rows (4096 bytes apart) give a destination
        // line, a tile row's half; the tile's 8 rows (128 bytes apart) read 8 bytes of each
        // source row, continued by the next 7 tiles along the source rows (64 tiles of 128
        // wide, 64 KiB, further on in the destination) to a source line.
        assert_eq!((a.size, a.dst, a.src), (64, 1, 4096));
        assert_eq!(wa, ONCE);
        assert_eq!((b.size, b.dst, b.src), (8, 128, 1));
        assert_eq!((wb.size, wb.dst, wb.src), (8, 64 * 1024, 8));
    }

    #[test]
    fn transposes_are_blocks() {
        let n = nest("f32[64,64,64,64]{0,1,2,3}", "f32[64,64,64,64]{3,2,1,0}");
        let (a, b, [wa, wb]) = vector_block_of(&n);
        // 16×16 f32 blocks: one 64-byte line a side, transposed a vector at a time; the
        // destination rows (1 MiB apart) widened to four lines, the whole of dim 0, by the
        // blocks that follow along it; the loop over blocks along the source's rows innermost.
        assert_eq!((a.size, b.size), (16, 16));
        assert_eq!((wa.size, wa.dst, wa.src), (4, 16, 16 * 64 * 64 * 64));
        assert_eq!(wb, ONCE);
        let last = n.outer.last().unwrap();
        assert_eq!((last.src, last.dst), (16, 16 * 64 * 64 * 64));
    }
}
