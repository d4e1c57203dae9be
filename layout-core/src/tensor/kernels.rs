//! The kernels of a relayout over storage of whole bytes per element: slots are `[u8; N]`
//! for `N` = 1, 2, 4, 8 or 16, any alignment. Runs are slice copies, those of up to 128 bytes
//! moves of a fixed size (streamed from the registers in large copies); interleaves, splits and
//! transposes of blocks of whole 16-byte vectors are rounds of one shuffle (`lanes`), with
//! whole destination lines streamed when the copy is large; narrower blocks load
//! `a` source rows of `b` slots into a fixed-size array, transpose it and store `b`
//! destination rows of `a` slots: fixed trip counts that LLVM unrolls; interleaves of 3 to 15
//! rows (`zip_any`, `unzip_any`) go 16 slots a row through fixed-size arrays or byte shuffles.
//! Interleaves and splits of runs whose rows are whole 32-byte chunks, streamed or staged
//! transposes (those of arrays past the cache in panels, `panels`; 4- to 16-byte slots there in
//! square blocks of 32-byte rows, `squares`, and bytes zipped four rows to a word first), and
//! in-place transposes (two groups a register) run in AVX2 registers when the CPU has it
//! (`avx2`). Blocks and runs that the array's edge cuts are copied slot by slot, in bounds.

use super::carry::{self, Carry};
use super::digits::Loop;
use super::nest::{ANY_ROWS_BYTES, Form, Kernel, Leaf, MAX_RUN, Nest, ONCE, Slice};
use super::stream::LINE;
use super::{lanes, stream};
use core::ops::Range;

/// Where a row of blocks starts, how the block's loops step, how many blocks follow each
/// other and how.
#[derive(Clone, Copy)]
struct Blocks {
    at: (usize, usize),
    /// Destination stride of the block's source-contiguous loop.
    db: usize,
    /// Source stride of the block's destination-contiguous loop.
    sa: usize,
    reps: usize,
    step: (usize, usize),
    /// Source slots from a block to the same block of the next leaf (the step of the loop
    /// around the leaf's), 0 if there is none: how far ahead a block prefetches.
    ahead: usize,
    stream: bool,
    /// Whether streamed destination rows that are not whole lines apart carry their partial
    /// lines from block to block, in the scratch past [`CARRY_AT`] (see [`copy`]).
    #[cfg(target_arch = "x86_64")]
    carried: bool,
    /// The long side of an interleaving block.
    len: usize,
    /// The sides of a block of whole vectors: `a` destination-contiguous slots by `b`
    /// source-contiguous ones.
    sides: (usize, usize),
    /// A block of whole vectors made of two loops a side: source row `x` at
    /// `(x % a_lo) · sa + (x / a_lo) · sa_hi`, destination row `y` at
    /// `(y % b_lo) · db + (y / b_lo) · db_hi`.
    wide: Wide,
}

/// See [`Blocks::wide`].
#[derive(Clone, Copy)]
struct Wide {
    a_lo: usize,
    sa_hi: usize,
    b_lo: usize,
    db_hi: usize,
}

/// Copies of at least this many source bytes make the scratch even when they do not stream,
/// so that their transposes stage each block's source rows: rows a power-of-two stride
/// apart share one L1 set, in cache as from memory. Measured in cache (4 MiB, hot): f32 2-D
/// transpose 2.3-3.0 -> 6.0-9.6 GB/s, u8 4.6-5.7 -> 5.3-8.5; below 1 MiB staging was slower
/// (f32 256×256: 13.4 -> 10.7 GB/s).
const STAGED_BYTES: usize = 1 << 20;

/// The bytes an in-place transpose reads and writes up to which it goes across all its
/// blocks group by group (see [`lanes_of`]): about the L1 data cache (32-48 KiB).
const L1_BYTES: usize = 64 << 10;

/// The blocks an in-place transpose past [`L1_BYTES`] goes across group by group. Blocks a
/// power-of-two stride apart share L1 sets: across every block of a leaf, each group's lines
/// were evicted before the next group read or wrote the rest of them. Measured in cache (hot,
/// medians of 30), runs of 1, 2, 4, 8 blocks against all of them: f32 256×256 transpose 5.8 ->
/// 27, 33, 26, 9.5 GB/s; f32 512×256 3.5 -> 19, 13.5, 5.0, 3.6; f64 256×256 3.5 -> 13, 12-19,
/// 18, 5.0; bf16 512×512 10 -> 21, 23, 18, 10; f32 `T(8,128)` -> `{0,1:T(8,128)}` 34 -> 26,
/// 34, 35, 21-35; u8 rows -> `{0,1:T(8,128)}` 16 -> 13, 15, 16, 16. Two is never far from the
/// best.
const RUN: usize = 2;

/// Where the carry of a panel's scratch starts, in lines (`stream::Staging::lines`): past a
/// page, the panel's stage and a second stage (a panel, and a line before each of the
/// `carry::ROWS` rows it holds at a time).
const CARRY_AT: usize = stream::PANEL_LINES + stream::PANEL_BYTES / LINE + carry::ROWS;

type BlockFn<const N: usize> = fn(&mut [[u8; N]], &[[u8; N]], Blocks, &mut Scratch);

/// A kernel's working memory: a block's source rows, and its whole destination lines
/// gathered before they are copied or streamed out (`stream::Staging`: two pages, or a page
/// and a panel). Made once per copy, not per block (zeroing it per call measured a quarter of
/// the time of a rank-4 transpose, whose innermost loop has 4 steps). Empty when the copy
/// neither streams, nor reaches [`STAGED_BYTES`], nor moves blocks of a panel.
pub(crate) type Scratch = [[u8; LINE]];

/// A slot as an integer of its width, so that LLVM moves and shuffles whole lanes.
pub(crate) trait Word<const N: usize>: Copy + Default {
    fn get(bytes: [u8; N]) -> Self;
    fn put(self) -> [u8; N];
}

macro_rules! word {
    ($($t:ty = $n:literal),*) => {$(
        impl Word<$n> for $t {
            #[inline(always)]
            fn get(bytes: [u8; $n]) -> $t {
                <$t>::from_ne_bytes(bytes)
            }
            #[inline(always)]
            fn put(self) -> [u8; $n] {
                self.to_ne_bytes()
            }
        }
    )*};
}

word!(u8 = 1, u16 = 2, u32 = 4, u64 = 8, u128 = 16);

/// `reps` blocks of `A` source rows of `B` slots each into `B` destination rows of `A`.
#[inline(never)]
fn block<W: Word<N>, const N: usize, const A: usize, const B: usize>(
    dst: &mut [[u8; N]],
    src: &[[u8; N]],
    at: Blocks,
    _: &mut Scratch,
) {
    for r in 0..at.reps {
        let (d0, s0) = (at.at.0 + r * at.step.0, at.at.1 + r * at.step.1);
        let mut rows = [[W::default(); B]; A];
        if at.sa == B {
            // The block's source rows follow each other: one run of `A · B` slots.
            let from = &src[s0..s0 + A * B];
            for (x, row) in rows.iter_mut().enumerate() {
                for y in 0..B {
                    row[y] = W::get(from[x * B + y]);
                }
            }
        } else {
            for (x, row) in rows.iter_mut().enumerate() {
                let from = &src[s0 + x * at.sa..][..B];
                for y in 0..B {
                    row[y] = W::get(from[y]);
                }
            }
        }
        if at.db == A {
            // The block's destination rows follow each other: one run of `A · B` slots.
            let mut buf = [[[0u8; N]; A]; B];
            for (y, o) in buf.iter_mut().enumerate() {
                for x in 0..A {
                    o[x] = rows[x][y].put();
                }
            }
            let out = &mut dst[d0..d0 + A * B];
            if at.stream && A * B * N >= 64 {
                stream::copy(out.as_flattened_mut(), buf.as_flattened().as_flattened());
            } else {
                out.copy_from_slice(buf.as_flattened());
            }
        } else {
            let mut buf = [[0u8; N]; A];
            for y in 0..B {
                for x in 0..A {
                    buf[x] = rows[x][y].put();
                }
                let out = &mut dst[d0 + y * at.db..][..A];
                if at.stream && A * N >= 64 {
                    stream::copy(out.as_flattened_mut(), buf.as_flattened());
                } else {
                    out.copy_from_slice(&buf);
                }
            }
        }
    }
}

/// `reps` blocks of `at.sides.1` destination rows of `at.sides.0` slots, from as many
/// source rows of as many slots: sub-blocks of `M × M` slots (`M · N` = 16 bytes, one
/// vector per row) transposed by `log2 M` rounds of [`lanes::shuffle`] (and each slot, a
/// `K × K` block of elements, transposed within by [`lanes::transpose_slots`] when `K` > 1),
/// then stored in place, or, when the copy streams and the destination rows are whole lines
/// (up to four a row), streamed.
#[inline(never)]
fn lanes<const N: usize, const M: usize, const K: usize>(
    dst: &mut [[u8; N]],
    src: &[[u8; N]],
    at: Blocks,
    scratch: &mut Scratch,
) {
    if at.wide.a_lo == at.sides.0 && at.wide.b_lo == at.sides.1 {
        lanes_of::<N, M, false, K>(dst, src, at, scratch);
    } else {
        lanes_of::<N, M, true, K>(dst, src, at, scratch);
    }
}

/// [`lanes()`] for blocks whose sides are widened (`WIDE`) or not: a row's offset is then one
/// multiplication, not two multiplications, a mask and a shift.
#[inline(always)]
#[allow(unsafe_code)]
fn lanes_of<const N: usize, const M: usize, const WIDE: bool, const K: usize>(
    dst: &mut [[u8; N]],
    src: &[[u8; N]],
    at: Blocks,
    scratch: &mut Scratch,
) {
    assert!(M * N == lanes::BYTES, "M slots a vector");
    let (dst, src) = (dst.as_flattened_mut(), src.as_flattened());
    let (a, b) = at.sides;
    let row = a * N;
    // Each row's offset from the block's corner, in bytes (block sides are powers of two:
    // shifts, not divisions, which measured 2× the whole copy of a 4 KiB tensor).
    let w = at.wide;
    let (src_row, out_row) = (at.sa * N, at.db * N);
    let (src_rows, dst_rows) = (
        Rows::new(w.a_lo, src_row, w.sa_hi * N),
        Rows::new(w.b_lo, out_row, w.db_hi * N),
    );
    let from = |x: usize| if WIDE { src_rows.at(x) } else { x * src_row };
    let to = |y: usize| if WIDE { dst_rows.at(y) } else { y * out_row };
    // Rows `M` apart are a step of `a_lo` (or `b_lo`) apart, which `M` divides: the `M` rows
    // of a group are one stride apart, `from(gx·M + i) = from(gx·M) + i·sa·N` and
    // `to(gy·M + i) = to(gy·M) + i·db·N`. Except on a side of fewer than `M` rows a step
    // (`split`, of the source rows, and `scatter`, of the destination rows: the 8 rows of a
    // tile of bytes), whose groups span steps of its widening loop: their rows are found one
    // by one (`Rows::group`). The sides are whole multiples of `a_lo` and `b_lo` (times the
    // widening loops' steps), so the largest offsets are those of the last rows, `from(a - 1)`
    // and `to(b - 1)`: both their parts are at their largest.
    let (split, scatter) = (w.a_lo < M, w.b_lo < M);
    let whole = |lo: usize| lo.is_multiple_of(M) || M.is_multiple_of(lo);
    assert!(
        whole(w.a_lo)
            && whole(w.b_lo)
            && a.is_multiple_of(w.a_lo)
            && b.is_multiple_of(w.b_lo)
            && a.is_multiple_of(M)
            && b.is_multiple_of(M),
        "a group's rows in one loop, or a whole number of steps of the widening loop"
    );
    // The bytes a block reads from its corner and writes from its corner: every row's
    // offset plus its length. Checked once per block, so that the vectors inside need no
    // check.
    let src_span = from(a - 1) + b * N;
    let dst_span = to(b - 1) + row;
    if at.reps == 0 {
        return;
    }
    let (ds, ss) = (at.step.0 * N, at.step.1 * N);
    let (d0, s0) = (at.at.0 * N, at.at.1 * N);
    let last = at.reps - 1;
    let s = &src[s0..s0 + last * ss + src_span];
    let out = &mut dst[d0..d0 + last * ds + dst_span];
    // When the copy streams and the destination rows are whole lines, they are streamed:
    // straight from the registers when a group writes at most four lines at once and every
    // row starts on a line (each line is finished by the next few groups, within its
    // write-combining buffer; measured f64 rows -> `{0,1:T(8,128)}` 0.66 -> 0.85 of memcpy,
    // f32 0.60 -> 0.79); otherwise staged (below).
    let whole_lines = row.is_multiple_of(LINE);
    let on_lines = at.stream
        && whole_lines
        && out.as_ptr().align_offset(LINE) == 0
        && [out_row, w.db_hi * N, ds]
            .iter()
            .all(|k| k.is_multiple_of(LINE));
    let straight = on_lines && M <= 4 && !split && !scatter;
    // Destination lines straight from AVX2 registers (`Unstaged::direct`), or through the
    // first page of the scratch (`Unstaged::buffered`).
    #[cfg(target_arch = "x86_64")]
    let (direct, cached) = (
        on_lines && super::avx2::available(),
        !at.stream && whole_lines && super::avx2::available(),
    );
    #[cfg(not(target_arch = "x86_64"))]
    let direct = false;
    // Panels: streamed where their destination rows start on lines, else (in cache, or rows
    // an odd number of slots apart) with plain stores. Measured (64 MiB, against memcpy),
    // in panels with plain stores against in place: `f32[4099,4093]` transposed 0.24 -> 0.41,
    // `bf16[50257,768]` 0.32 -> 0.50, `u8[8191,8193]` 0.11 -> 0.19.
    #[cfg(target_arch = "x86_64")]
    if whole_lines
        && super::avx2::available()
        && b * row > stream::PAGE
        && b * row + stream::PAGE <= size_of_val(scratch)
    {
        let (from, reps) = ((src, s0, s0 + at.ahead * N), (at.reps, ds, ss));
        let sides = (src_rows, dst_rows);
        // (The scratch is a plain panel's where the carry's could not be allocated.)
        if at.carried && !on_lines && scratch.len() > CARRY_AT {
            let (panels_of, rest) = scratch.split_at_mut(CARRY_AT);
            let stages =
                panels_of.as_flattened_mut()[stream::PAGE..].split_at_mut(stream::PANEL_BYTES);
            if let Some(carry) = Carry::new(rest) {
                let carried = Carried {
                    stage: stages.1,
                    carry,
                    origin: d0,
                    pitch: out_row,
                };
                // SAFETY: the CPU has AVX2; block `r`'s destination rows are whole lines
                // (`whole_lines`), transposed into the second stage, not `dst`; the stage is
                // `a·b·N` bytes.
                unsafe {
                    panels::<N, M, K, false>(
                        (dst, s),
                        from,
                        &mut stages.0[..b * row],
                        reps,
                        (a, b),
                        sides,
                        Some(carried),
                    );
                }
                return;
            }
        }
        let stage = &mut scratch.as_flattened_mut()[stream::PAGE..][..b * row];
        // SAFETY: the CPU has AVX2; block `r`'s destination rows are whole lines
        // (`whole_lines`), and streamed (`direct`: `on_lines`) they start on lines of `out`,
        // which starts on a line; the stage is `a·b·N` bytes.
        unsafe {
            if direct {
                panels::<N, M, K, true>((out, s), from, stage, reps, (a, b), sides, None);
            } else {
                panels::<N, M, K, false>((out, s), from, stage, reps, (a, b), sides, None);
            }
        }
        return;
    }
    let fits = b * row <= stream::PAGE.min(size_of_val(scratch));
    if whole_lines
        && (direct || fits)
        && at.stream
        && at.ahead > 0
        && !src_row.is_multiple_of(stream::PAGE)
    {
        let scratch = scratch.as_flattened_mut();
        let len = (b * row).min(scratch.len());
        let mut t = Unstaged {
            src: (src, s0),
            s,
            buf: &mut scratch[..len],
            sides: (a, b),
            from: src_rows,
            to: dst_rows,
            ahead: at.ahead * N,
            #[cfg(target_arch = "x86_64")]
            fetch: None,
        };
        for r in 0..at.reps {
            #[cfg(target_arch = "x86_64")]
            if direct {
                // SAFETY: the CPU has AVX2; `out` starts on a line, and block `r`'s
                // destination rows start `r·ds + to(y)` bytes into it, a multiple of the line
                // (`on_lines`), and are whole lines (`whole_lines`).
                unsafe { t.direct::<N, M, K, true>((r * ds, r * ss), out) };
                continue;
            }
            t.buffered::<N, M, K>((r * ds, r * ss), out);
        }
        return;
    }
    if straight && w.a_lo == a {
        // Block by block, so that the lines of one block are finished before the next.
        let mut each = |r: usize, gy: usize, gx: usize| {
            let (f, o) = (
                r * ss + from(gx * M) + gy * lanes::BYTES,
                r * ds + to(gy * M) + gx * lanes::BYTES,
            );
            // SAFETY: the bounds as in the in-place loop below, for the same block `r` and
            // group. `out` starts on a line and destination row `y` of block `r` starts
            // `r·ds + to(y) = r·ds + (y % b_lo)·out_row + (y / b_lo)·db_hi·N` bytes into it,
            // a multiple of the line (checked above); plus `gx·16`: every store is 16-byte
            // aligned.
            unsafe { group::<N, M, true, K>(s, (f, src_row), out, (o, out_row)) }
        };
        // A block of a line a side in loops of fixed trip counts (measured f32 2-D transpose
        // 0.56 -> 0.70 of memcpy against the same loops over `b / M` and `a / M`, whose
        // offsets spill to the stack; f32 rows -> `{0,1:T(8,128)}`, whose source rows are
        // widened, 0.77 -> 0.84 on average over 8 runs).
        const V: usize = LINE / lanes::BYTES;
        // (A line a side: `a / M = b / M = LINE / (M·N) = V`.)
        if a * N == LINE && b * N == LINE {
            groups::<V>(at.reps, (V, V), &mut each);
        } else {
            groups::<0>(at.reps, (b / M, a / M), &mut each);
        }
        return;
    }
    // Staged: each block's `a` source rows of `b` slots are copied whole into `stage`, one
    // after the other, and transposed from there: straight into the destination, or into
    // `buf`, whose whole lines are then copied or streamed out (see below). A block's source
    // rows are a power-of-two stride apart, so they share one set of the L1 cache, which holds
    // eight: read a vector at a time in place, each of them was evicted and read again for
    // every vector. The next block's rows are fetched meanwhile.
    // Measured against transposing in place into `buf`: u8 2-D transpose 0.36 -> 0.46 of
    // memcpy, bf16 4-D reversal 0.22 -> 0.39, `T(8,128)` -> `{0,1:T(8,128)}` 0.50 -> 0.65.
    let scratch = scratch.as_flattened_mut();
    let (buf, stage) = scratch.split_at_mut(stream::PAGE.min(scratch.len()));
    if whole_lines && b * row <= buf.len().min(stage.len()) {
        let (buf, stage) = (&mut buf[..b * row], &mut stage[..b * row]);
        let src_len = b * N;
        for r in 0..at.reps {
            if src_len == LINE {
                // A line a row, the common case: moves of a fixed size, not calls.
                let (rows, _) = stage.as_chunks_mut::<LINE>();
                for (x, into) in rows.iter_mut().enumerate() {
                    let from = r * ss + from(x);
                    *into = s[from..from + LINE].try_into().expect("a line");
                    stream::prefetch(s, from + ss);
                }
            } else {
                for (x, into) in stage.chunks_exact_mut(src_len).enumerate() {
                    let from = r * ss + from(x);
                    into.copy_from_slice(&s[from..from + src_len]);
                    stream::prefetch(s, from + ss);
                }
            }
            #[cfg(target_arch = "x86_64")]
            if (direct || cached) && N != 2 {
                // Lines straight from AVX2 registers, each one's two stores back to back (as
                // `Unstaged::direct`, the stage for a source): u8 2-D transpose 0.52-0.64 ->
                // 0.64-0.71 of memcpy, f32 blocks widened to four destination lines (see
                // `nest::widen`) 0.76-0.84 -> 0.79-0.90. Not bf16: no faster, and at half speed
                // in about one run in four (4-D reversal 0.22-0.36). (Unwidened blocks of
                // 4-byte slots or wider go straight from the source, above: this way measured
                // slower, f32 rows -> `{0,1:T(8,128)}` 0.80 -> 0.62.) In cache, with plain
                // stores, not through `buf` in 16-byte vectors: (8 MiB) f32 2-D transpose
                // 0.23-0.25 -> 0.30 of memcpy, u8 rows -> `{0,1:T(8,128)}` 0.17-0.18 -> 0.21-0.22.
                let mut t = Unstaged::staged(stage, (a, b), src_len, dst_rows);
                // SAFETY: the CPU has AVX2 (`direct` or `cached`); block `r`'s destination rows
                // are whole lines (`whole_lines`); streamed (`direct`), `out` starts on a line
                // and they start `r·ds + to(y)` bytes into it, a multiple of the line
                // (`on_lines`). The block's source rows are the stage's `a` rows of `b·N` bytes.
                unsafe {
                    if direct {
                        t.direct::<N, M, K, true>((r * ds, 0), out);
                    } else {
                        t.direct::<N, M, K, false>((r * ds, 0), out);
                    }
                }
                continue;
            }
            if straight && out_row < stream::PAGE {
                // Widened destination rows less than a page apart (a tile's rows) are
                // streamed straight from the registers too (measured `T(8,128)` ->
                // `{0,1:T(8,128)}` 0.60-0.69 -> 0.67-0.81 of memcpy); rows a page or more apart
                // measured twice as slow that way, and are gathered below.
                for gy in 0..b / M {
                    for gx in 0..a / M {
                        // SAFETY: the stage as below. In `out`, destination row `gy·M + i` of
                        // block `r` starts at `r·ds + to(gy·M + i) <= r·ds + to(b - 1)`, and
                        // `gx·16 + 16 <= (a / M)·M·N = row`: its 16 bytes end within `last·ds
                        // + dst_span = out.len()`; `out` starts on a line, `r·ds + to(y)` is a
                        // multiple of the line (checked for `straight`) and `gx·16` of 16.
                        unsafe {
                            group::<N, M, true, K>(
                                stage,
                                (gx * M * src_len + gy * lanes::BYTES, src_len),
                                out,
                                (r * ds + to(gy * M) + gx * lanes::BYTES, out_row),
                            );
                        }
                    }
                }
                continue;
            }
            for gy in 0..b / M {
                for gx in 0..a / M {
                    // SAFETY: in `stage`, row `gx·M + i < a` starts at `(gx·M + i)·b·N`, and
                    // `gy·16 + 16 <= (b / M)·M·N = b·N`: its 16 bytes end within `a·b·N =
                    // stage.len()`. In `buf`, row `gy·M + i < b` starts at `(gy·M + i)·row`,
                    // and `gx·16 + 16 <= (a / M)·M·N = row`: its 16 bytes end within `b·row =
                    // buf.len()`.
                    unsafe {
                        group::<N, M, false, K>(
                            stage,
                            (gx * M * src_len + gy * lanes::BYTES, src_len),
                            buf,
                            (gy * M * row + gx * lanes::BYTES, row),
                        );
                    }
                }
            }
            for (y, o) in buf.chunks_exact(row).enumerate() {
                let (lines, _) = out[r * ds + to(y)..][..row].as_chunks_mut::<LINE>();
                for (line, o) in lines.iter_mut().zip(o.as_chunks::<LINE>().0) {
                    if at.stream {
                        stream::line(line, o);
                    } else {
                        *line = *o;
                    }
                }
            }
        }
        return;
    }
    // In place, all within one span checked once, the groups at one place of a run of blocks
    // in turn, the blocks `step` apart: of every block where both spans fit in L1 (measured
    // 180-230 -> 150-170 ns for a 4 KiB transposed copy of 8 blocks, and no longer dependent
    // on where the buffers lie), else of [`RUN`] blocks.
    let run = if s.len() + out.len() <= L1_BYTES {
        at.reps
    } else {
        RUN
    };
    #[cfg(target_arch = "x86_64")]
    if !split && !scatter && (a / M).is_multiple_of(2) && super::avx2::available() {
        // SAFETY: the CPU has AVX2; `a / M` is even, and each group's rows lie within `s`
        // and `out` as in the loop below (neither `split` nor `scatter`: a group's rows are
        // one stride apart).
        unsafe {
            in_place_pairs::<N, M, K>(
                (s, out),
                (a, b, at.reps),
                (ss, ds),
                (src_row, out_row),
                (&from, &to),
                run,
            );
        }
        return;
    }
    visit(run, at.reps, (b / M, a / M), &mut |gy, gx, rs| {
        let (f, o) = (
            from(gx * M) + gy * lanes::BYTES,
            to(gy * M) + gx * lanes::BYTES,
        );
        for r in rs {
            // SAFETY: block `r`'s row `gx·M + i < a` starts at `r·ss + from(gx·M + i)`
            // (`= r·ss + from(gx·M) + i·sa·N` unless `split`, asserted above), at most
            // `r·ss + from(a - 1)`, and `gy·16 + 16 <= (b / M)·M·N <= b·N` (`M·N = 16`):
            // its 16 bytes end within `last·ss + src_span = s.len()`. Its destination row
            // `gy·M + i < b` starts at `r·ds + to(gy·M + i)` (`= r·ds + to(gy·M) + i·db·N`
            // unless `scatter`) `<= r·ds + to(b - 1)`, and `gx·16 + 16 <= (a / M)·M·N <=
            // a·N = row`: its 16 bytes end within `last·ds + dst_span = out.len()`.
            unsafe {
                if split || scatter {
                    let rows = src_rows.group::<M>(r * ss + gy * lanes::BYTES, gx * M);
                    let outs = dst_rows.group::<M>(r * ds + gx * lanes::BYTES, gy * M);
                    group_at::<N, M, false, K>(s, rows, out, outs);
                } else {
                    group::<N, M, false, K>(s, (r * ss + f, src_row), out, (r * ds + o, out_row));
                }
            }
        }
    });
}

/// The in-place loop of [`lanes_of`], two groups side by side in AVX2 registers
/// ([`group_pair`]): groups `gx` and `gx + 1` of a row of groups go out as one 32-byte store
/// a destination row. Measured in cache (512 KiB): u8 2-D transpose 8.9 -> 16.4 GB/s, u8
/// `{0,1:T(8,128)}` -> rows 5.9 -> 9.9, bf16 2-D 10.9 -> 13.2; hot, ns a copy: `f32[512,256]`
/// 16045-16671 -> 14688-14727, `f64[128,512]` 25136-26173 -> 12858-12908, `c128[128,128]`
/// 15617-15691 -> 11333-11432 (small transposes, whose few groups lost as much as f32 gained
/// here, are listed: see `schedule`).
///
/// # Safety
/// The CPU has AVX2; `a / M` is even; for every block `r < reps` and group, the group's
/// rows (`from(gx·M) + i·src_row`, `to(gy·M) + i·out_row` from the block's corner `(r·ds,
/// r·ss)`) lie within `s` and `out` as `lanes_of` checks.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn in_place_pairs<const N: usize, const M: usize, const K: usize>(
    (s, out): (&[u8], &mut [u8]),
    (a, b, reps): (usize, usize, usize),
    (ss, ds): (usize, usize),
    (src_row, out_row): (usize, usize),
    (from, to): (&impl Fn(usize) -> usize, &impl Fn(usize) -> usize),
    run: usize,
) {
    visit(run, reps, (b / M, a / M / 2), &mut |gy, gx, rs| {
        let gx = 2 * gx;
        let (f0, f1) = (
            from(gx * M) + gy * lanes::BYTES,
            from(gx * M + M) + gy * lanes::BYTES,
        );
        let o = to(gy * M) + gx * lanes::BYTES;
        for r in rs {
            let lo = |i: usize| r * ss + f0 + i * src_row;
            let hi = |i: usize| r * ss + f1 + i * src_row;
            // SAFETY: the rows of groups `gx` and `gx + 1 < a / M` lie within `s` (the
            // caller's contract); the CPU has AVX2.
            let v = unsafe { group_pair::<N, M, K>(s, (lo, hi)) };
            for (i, v) in v.iter().enumerate() {
                let at = r * ds + o + i * out_row;
                debug_assert!(at + 2 * lanes::BYTES <= out.len());
                // SAFETY: bytes `at ..` are destination row `gy·M + i`'s 16 bytes of group
                // `gx` and then of group `gx + 1`, within `out` (the caller's contract); a
                // plain store needs no alignment.
                unsafe { super::avx2::store::<false>(*v, out.as_mut_ptr().add(at)) };
            }
        }
    });
}

/// The blocks of a transpose in panels (see `stream::PANEL_BYTES`): each block's `a`
/// source rows of `b` slots copied whole into `stage` (in L2), then transposed from there
/// into whole destination lines straight from AVX2 registers ([`Unstaged::direct`];
/// streamed if `STREAM`, else plain stores for copies in cache, see
/// `stream::PANEL_CACHED_BYTES`), while every line of a block two ahead is prefetched, a few per
/// line stored ([`Fetch`]): block `r + 2`, or past the leaf's last, the blocks from byte
/// `next` of `src`, those of the next leaf (`s` is `src` from byte `base`). Measured (64
/// MiB, against memcpy): a prototype of this loop ran the u8 2-D transpose at 0.69 with
/// prefetches spread so, 0.58 with the next block's rows prefetched as each row was staged;
/// two blocks ahead, not one, f32 2-D transpose 0.67 -> 0.74, u8 0.49 -> 0.55 (medians of
/// four alternating runs; 4-D reversals within the noise, four blocks ahead slower).
///
/// # Safety
/// The CPU has AVX2; every block's destination rows are whole lines, and if `STREAM` they
/// start on lines of `out`, which starts on one; `stage` is `a · b · N` bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn panels<const N: usize, const M: usize, const K: usize, const STREAM: bool>(
    (out, s): (&mut [u8], &[u8]),
    (src, base, next): (&[u8], usize, usize),
    stage: &mut [u8],
    (reps, ds, ss): (usize, usize, usize),
    (a, b): (usize, usize),
    (from, to): (Rows, Rows),
    mut carried: Option<Carried<'_>>,
) {
    let len = b * N;
    // Bytes: every 4 source rows zipped into a stage row of 4-byte words (`zipped`), whose
    // square blocks are then the destination rows' lines. Measured (64 MiB, medians of three
    // alternating runs, against memcpy, with panels of 2-line rows against 16-byte groups in
    // panels of 1-line rows): u8 2-D transpose 0.50 -> 0.62-0.65, rows -> `{0,1:T(8,128)}`
    // 0.50 -> 0.65, back 0.54 -> 0.69, 4-D reversal 0.42 -> 0.50; in cache (4 MiB, hot) 0.23
    // -> 0.33-0.39. Destination rows that do not start on lines too, stored normally (where
    // this had lost, an older `squares` a block at a time): eight alternating runs,
    // `u8[8191,8193]` transposed 0.27-0.33 -> 0.35-0.44, `u8[8192,8192]` into a destination
    // 16 bytes past a line 0.34-0.40 -> 0.45-0.54; in cache, `u8[4095,4097]` 0.19-0.27 ->
    // 0.31-0.32.
    let zipped = N == 1
        && to.mask >= 7
        && a.is_multiple_of(64)
        && b.is_multiple_of(8)
        && len.is_multiple_of(32);
    for r in 0..reps {
        if zipped {
            for (i, into) in stage.chunks_exact_mut(4 * len).enumerate() {
                for k in (0..len).step_by(32) {
                    let row = |j: usize| {
                        let at = r * ss + from.at(4 * i + j) + k;
                        s[at..at + 32].as_ptr()
                    };
                    let out = into[4 * k..4 * k + 128].as_mut_ptr();
                    // SAFETY: the four rows' 32 bytes and the 128 of `out` are in bounds
                    // (indexed above); the CPU has AVX2.
                    unsafe { super::avx2::zip_words([row(0), row(1), row(2), row(3)], out) };
                }
            }
        } else {
            for (x, into) in stage.chunks_exact_mut(len).enumerate() {
                let at = r * ss + from.at(x);
                into.copy_from_slice(&s[at..at + len]);
            }
        }
        let ahead = if r + 2 < reps {
            base + (r + 2) * ss
        } else {
            next + (r + 2 - reps) * ss
        };
        let fetch = Fetch::new(src, ahead, from, (a, len));
        if let Some(c) = &mut carried {
            // A few destination rows at a time, so that their lines stream out while the next
            // rows are transposed.
            let (row, rows) = (a * N, b.min(carry::ROWS));
            let per = fetch.as_ref().map_or(0, |f| f.lines.div_ceil(b));
            for y in (0..b).step_by(rows) {
                // Each row's place, number and whether its slot held its last line.
                let mut each = [(0, 0, false); carry::ROWS];
                let places = c.rows(r * ds, to, (y, rows));
                let lines = c.stage.chunks_exact_mut(row + LINE);
                for ((at, key), (each, ext)) in places.zip(each.iter_mut().zip(lines)) {
                    let gap = (&mut ext[..LINE]).try_into().expect("a line");
                    *each = (at, key, c.carry.lead(out, (at, key), gap));
                }
                let into = &mut c.stage[LINE..];
                // SAFETY: the CPU has AVX2; `rows` (32, or all `b`) divides `b` and is a
                // multiple of `M`; the second stage holds `rows` rows of `a·N` bytes, whole
                // lines (the caller's contract), a line apart, not streamed.
                unsafe {
                    let even = (0, Rows::even(row + LINE));
                    transpose_panel::<N, M, K, false>(
                        stage,
                        zipped,
                        (a, b),
                        (y, rows),
                        into,
                        even,
                        None,
                    );
                }
                for (k, (&(at, key, held), ext)) in each[..rows]
                    .iter()
                    .zip(c.stage.chunks_exact(row + LINE))
                    .enumerate()
                {
                    if let Some(f) = &fetch {
                        f.lines((y + k) * per..(y + k + 1) * per);
                    }
                    c.carry.stream(out, (at, key), ext, held);
                }
            }
            continue;
        }
        // SAFETY: the CPU has AVX2; block `r`'s destination rows are whole lines, `r·ds +
        // to(y)` bytes into `out`, starting on its lines if `STREAM` (the caller's contract).
        unsafe {
            transpose_panel::<N, M, K, STREAM>(
                stage,
                zipped,
                (a, b),
                (0, b),
                out,
                (r * ds, to),
                fetch,
            )
        };
    }
}

/// The destination of a panel whose rows do not start on lines (see `carry`): each block
/// transposed into `stage` a few rows at a time, each row a line past the one before, the
/// line before each row holding what the row's slot of `carry` held
/// ([`Carry::lead`](super::carry::Carry::lead)), then streamed into the whole destination
/// from byte `origin` ([`Carry::stream`](super::carry::Carry::stream)).
#[cfg(target_arch = "x86_64")]
struct Carried<'a> {
    stage: &'a mut [u8],
    carry: Carry<'a>,
    origin: usize,
    /// Bytes from a destination row to the next: row `k` holds bytes `k · pitch ..`.
    pitch: usize,
}

#[cfg(target_arch = "x86_64")]
impl Carried<'_> {
    /// Where destination rows `y0 .. y0 + rows` of a block start in the destination (the
    /// block's rows at `at + to.at(y)` past `origin`), with each row's number: row `k` holds
    /// bytes `k · pitch ..`, one division a block where the rows are whole pitches apart, as
    /// a transpose's are.
    fn rows(
        &self,
        at: usize,
        to: Rows,
        (y0, rows): (usize, usize),
    ) -> impl Iterator<Item = (usize, usize)> + use<> {
        let (at, pitch) = (self.origin + at, self.pitch);
        let (first, per_run) = (at / pitch, to.hi / pitch);
        let keyed = to.lo == pitch && to.hi.is_multiple_of(pitch);
        (y0..y0 + rows).map(move |y| {
            let o = at + to.at(y);
            let key = if keyed {
                first + (y & to.mask) + (y >> to.shift) * per_run
            } else {
                o / pitch
            };
            (o, key)
        })
    }
}

/// Destination rows `y .. y + rows` of a panel's stage (`a` rows of `b` slots, zipped into
/// words if `zipped`) transposed, row `y + k` at `at + to.at(k)` bytes into `out` (`panels`),
/// the lines of `fetch` prefetched meanwhile.
///
/// # Safety
/// The CPU has AVX2; the destination rows are whole lines, and if `STREAM` they start on
/// lines of `out`, which starts on one; `rows` divides `b` and `M` divides it; `stage` is
/// `a · b · N` bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn transpose_panel<const N: usize, const M: usize, const K: usize, const STREAM: bool>(
    stage: &[u8],
    zipped: bool,
    (a, b): (usize, usize),
    (y, rows): (usize, usize),
    out: &mut [u8],
    (at, to): (usize, Rows),
    fetch: Option<Fetch<'_>>,
) {
    if zipped {
        // SAFETY: the CPU has AVX2; the stage is `a / 4` rows of `b` 4-byte words, of which
        // words `y .. y + rows` are taken: `R = 8` divides `rows` and `to`'s runs, `16`
        // divides `a / 4`; destination rows are as the caller said, each `a` bytes: `a / 4`
        // words.
        let words = (a / 4, rows, b * 4);
        unsafe { squares::<4, 1, STREAM>(&stage[y * 4..], words, out, (at, to), fetch) };
        return;
    }
    // Square blocks of 32-byte rows where they fit (`squares`), else 16-byte groups.
    if N >= 4 && to.mask >= 32 / N - 1 && a.is_multiple_of(64 / N) && rows.is_multiple_of(32 / N) {
        // SAFETY: the CPU has AVX2, `N` is 4, 8 or 16 (16 at most: `M·N = 16`) and `K` one
        // of `for_group`'s, `R = 32 / N` divides `rows` and `to`'s runs, `2R` divides `a`;
        // slots `y .. y + rows` of each stage row; destination rows are as the caller said.
        let slots = (a, rows, b * N);
        unsafe { squares::<N, K, STREAM>(&stage[y * N..], slots, out, (at, to), fetch) };
        return;
    }
    let mut t = Unstaged::staged(&stage[y * N..], (a, rows), b * N, to);
    t.fetch = fetch;
    // SAFETY: the CPU has AVX2; the destination rows are whole lines, `at + to(k)` bytes
    // into `out`, starting on its lines if `STREAM` (the caller's contract); slots `y .. y +
    // rows` of each stage row, `M` dividing `rows`.
    unsafe { t.direct::<N, M, K, STREAM>((at, 0), out) };
}

/// A panel's stage transposed in square blocks of `R = 32 / N` rows of 32 bytes, for slots of
/// `N` = 4, 8 or 16 bytes: each block loaded as `R` AVX2 registers, transposed in them
/// ([`avx2::transpose_square`](super::avx2::transpose_square); a slot that holds a `K × K`
/// block of elements, sub-tiles transposed, then transposed within) and stored as 32 bytes of
/// each of `R` destination rows, two neighbouring blocks at a time so that each row's line
/// is stored whole (non-temporal stores if `STREAM`: `R` lines open at a time, within the
/// write-combining buffers; the last block alone where `a` holds an odd count of them, not
/// streamed). The stage holds `a` rows of `b` slots, `len` bytes apart (at least `b · N`: a
/// row may be padded, see [`transpose_fields_into_lines`]); destination row `y` is
/// at `at + to.at(y)` bytes of `out`; `fetch`'s lines are prefetched meanwhile. Tighter than
/// [`Unstaged::direct`]'s 16-byte groups (two loads and an exchange a register, offsets of
/// every row): measured
/// (64 MiB, 2-core AMD EPYC VM, the middle two of four alternating runs, against memcpy)
/// f32 2-D transpose 0.79-0.80 -> 0.80-0.84, `T(8,128)` -> `{0,1:T(8,128)}` 0.81-0.83 ->
/// 0.91-0.94, `{0,1:T(8,128)}` -> rows 0.83-0.84 -> 0.94-0.97, f32 4-D reversal 0.57 ->
/// 0.75-0.77, f64 rows -> `{0,1:T(8,128)}` 0.69 -> 0.89-0.92, bf16 `T(8,128)(2,1)` ->
/// `{0,1}` (4-byte slots) 0.86-0.88 -> 0.95-0.98, c128 transpose 0.51 -> 0.72-0.73; with
/// plain stores (destination rows not on lines, or in cache) `c128[1025,4100]` 0.42 -> 0.60,
/// `f64[2050,4100]` 0.55 -> 0.63, `f32[4099,4093]` 0.46 -> 0.43; in cache, hot, 4 MiB: f64 rows
/// -> `{0,1:T(8,128)}` 0.35 -> 0.46-0.54, c128 0.24 -> 0.37-0.44, f32 1024² 0.34-0.39 ->
/// 0.39-0.47 (a block at a time, each line stored in two halves by two blocks, had lost
/// there: 0.25-0.30); sub-tiles transposed within, 64 MiB: s8 `T(32,128)(4,1)` ->
/// `{0,1:T(32,128)(4,1)}` 0.63 -> 1.03, bf16 `T(8,128)(2,1)` -> `{0,1:T(8,128)(2,1)}` 0.80
/// -> 0.93. Bytes come zipped into 4-byte words (`panels`); 2-byte slots keep the 16-byte
/// groups: a square of 16 rows a block at a time kept 16 lines open (bf16 2-D 0.59-0.66 ->
/// 0.45-0.52), blocks storing 16-byte halves more (0.7 -> 0.2), and two blocks at a time, or
/// pairs of rows zipped into words, measured even with them.
///
/// # Safety
/// The CPU has AVX2; `N` is 4, 8 or 16 and `K` a width `avx2::transpose_slots` takes; `R`
/// divides `b` and the runs of `to` (`to.mask + 1`), `R` divides `a` (`2R` if `STREAM`:
/// asserted); if `STREAM`, `out` starts on a line and so do the destination rows.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn squares<const N: usize, const K: usize, const STREAM: bool>(
    stage: &[u8],
    sides: (usize, usize, usize),
    out: &mut [u8],
    rows: (usize, Rows),
    fetch: Option<Fetch<'_>>,
) {
    // SAFETY: the caller's contract, with `H = R / 2` and `R = 32 / N`.
    unsafe {
        match N {
            4 => squares_of::<N, K, 4, 8, STREAM>(stage, sides, out, rows, fetch),
            8 => squares_of::<N, K, 2, 4, STREAM>(stage, sides, out, rows, fetch),
            _ => squares_of::<N, K, 1, 2, STREAM>(stage, sides, out, rows, fetch),
        }
    }
}

/// [`squares`] of `R = 2H` rows.
///
/// # Safety
/// As [`squares`], and `R · N = 32`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn squares_of<
    const N: usize,
    const K: usize,
    const H: usize,
    const R: usize,
    const STREAM: bool,
>(
    stage: &[u8],
    (a, b, len): (usize, usize, usize),
    out: &mut [u8],
    (at, to): (usize, Rows),
    fetch: Option<Fetch<'_>>,
) {
    use super::avx2;
    // The last rows are the farthest on both sides (`Rows::at` is largest at `b - 1`, a whole
    // number of runs).
    assert!(
        R * N == 32
            && len >= b * N
            && stage.len() >= (a - 1) * len + b * N
            && at + to.at(b - 1) + a * N <= out.len(),
        "the stage and the destination rows in bounds"
    );
    let per = fetch
        .as_ref()
        .map_or(0, |f| f.lines.div_ceil(b / R * (a / R)));
    let mut fetched = 0;
    let (s, o) = (stage.as_ptr(), out.as_mut_ptr());
    // Blocks in pairs, and the last alone where `a` is an odd count of them (not streamed).
    let blocks = a / R;
    assert!(
        a.is_multiple_of(R) && (blocks.is_multiple_of(2) || !STREAM),
        "whole blocks, in pairs where streamed"
    );
    for yb in 0..b / R {
        // Destination rows `yb·R + i` lie in one run of `to`: `i · to.lo` apart.
        let rows = at + to.at(yb * R);
        // Two blocks side by side: each destination row's 64 bytes (a line, if the rows
        // start on lines) stored one after the other.
        for xb in (0..blocks).step_by(2) {
            let two = xb + 1 < blocks;
            let n = 1 + usize::from(two);
            if let Some(f) = &fetch {
                f.lines(fetched..fetched + n * per);
                fetched += n * per;
            }
            // SAFETY: blocks `xb .. xb + n` (`n` 2, or 1 for the last of an odd count) read 32
            // bytes of stage rows `xb·R + i < a` from byte `yb·32 + 32 <= b·N` of each, within
            // the `a·len` bytes asserted; they write `32·n` bytes of destination rows `yb·R +
            // i < b` from byte `xb·32 + 32·n <= a·N`, at most `to.at(b - 1) + a·N` bytes from
            // `at` (asserted); those rows start on lines if `STREAM` (the caller's contract),
            // so each 32 bytes are 32-byte aligned. The CPU has AVX2.
            unsafe {
                let from = s.add(xb * R * len + yb * 32);
                let block = |k: usize| {
                    let v: [avx2::Y; R] =
                        core::array::from_fn(|i| avx2::load(from.add((k * R + i) * len)));
                    avx2::transpose_square::<N, H, R>(v).map(|v| avx2::transpose_slots::<N, K>(v))
                };
                let v = block(0);
                let d = o.add(rows + xb * 32);
                if two {
                    let w = block(1);
                    for i in 0..R {
                        avx2::store::<STREAM>(v[i], d.add(i * to.lo));
                        avx2::store::<STREAM>(w[i], d.add(i * to.lo + 32));
                    }
                } else {
                    for (i, v) in v.into_iter().enumerate() {
                        avx2::store::<STREAM>(v, d.add(i * to.lo));
                    }
                }
            }
        }
    }
}

/// The lines of the next block's source rows, prefetched a few at a time while a block is
/// transposed ([`Unstaged::direct`]): line `k` is line `k % 2^shift` of row `k >> shift`,
/// at `at + rows.at(row)` bytes into `src`.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(crate) struct Fetch<'a> {
    src: &'a [u8],
    at: usize,
    rows: Rows,
    shift: u32,
    /// The lines `first ..` of the block, `lines` of them.
    first: usize,
    lines: usize,
    /// Whether rows of whole lines may start inside a line, and so end in one line more,
    /// which is then prefetched with each row's last ([`Fetch::new`]).
    tail: bool,
}

#[cfg(target_arch = "x86_64")]
impl<'a> Fetch<'a> {
    /// The `count` rows of `len` bytes (whole lines, a power of two of them) at bytes `at +
    /// (x % lo_rows)·lo + (x / lo_rows)·hi` of `src` (`lo_rows` a power of two); `None` where
    /// the rows are not so.
    pub(crate) fn rows(
        src: &'a [u8],
        at: usize,
        (lo_rows, lo, hi): (usize, usize, usize),
        (count, len): (usize, usize),
    ) -> Option<Fetch<'a>> {
        if !lo_rows.is_power_of_two() {
            return None;
        }
        Fetch::new(src, at, Rows::new(lo_rows, lo, hi), (count, len))
    }

    /// One line a row: the line at byte `at + (x % lo_rows)·lo + (x / lo_rows)·hi` of `src`
    /// for each of `count` rows shorter than a line (`lo_rows` a power of two, else `None`).
    pub(crate) fn line_a_row(
        src: &'a [u8],
        at: usize,
        (lo_rows, lo, hi): (usize, usize, usize),
        count: usize,
    ) -> Option<Fetch<'a>> {
        lo_rows.is_power_of_two().then(|| Fetch {
            src,
            at,
            rows: Rows::new(lo_rows, lo, hi),
            shift: 0,
            first: 0,
            lines: count,
            tail: false,
        })
    }

    /// The `count` rows `rows` of `len` bytes (whole lines, a power of two of them) from byte
    /// `at` of `src`; `None` where the rows are not so. Rows that start inside a line (a
    /// transpose of `u8[8192,8193]`) end inside the line after their last whole one, which is
    /// fetched too: measured (64 MiB, three alternating runs) `u8[8192,8193]` transposed
    /// 8.2-9.2 -> 10.6-11.2 GB/s, `u8[8191,8193]` 5.4-5.9 -> 6.2-6.8 (`u8[8192,8192]`
    /// 10.2-11.7).
    fn new(
        src: &'a [u8],
        at: usize,
        rows: Rows,
        (count, len): (usize, usize),
    ) -> Option<Fetch<'a>> {
        let start = (src.as_ptr() as usize).wrapping_add(at);
        let tail = [start, rows.lo, rows.hi]
            .iter()
            .any(|x| !x.is_multiple_of(LINE));
        (len.is_multiple_of(LINE) && (len / LINE).is_power_of_two()).then(|| Fetch {
            src,
            at,
            rows,
            shift: (len / LINE).trailing_zeros(),
            first: 0,
            lines: count * len / LINE,
            tail,
        })
    }

    /// Part `k` of `n` of its lines, as lines `0 ..` of their own (a block transposed in `n`
    /// parts, each fetching its share).
    fn part(self, k: usize, n: usize) -> Fetch<'a> {
        let (start, end) = (k * self.lines / n, (k + 1) * self.lines / n);
        Fetch {
            first: self.first + start,
            lines: end - start,
            ..self
        }
    }

    /// Prefetches lines `k` of the next block.
    #[inline(always)]
    fn lines(&self, k: core::ops::Range<usize>) {
        let mask = (1 << self.shift) - 1;
        let k = self.first + k.start..self.first + k.end.min(self.lines);
        for k in k {
            let at = self.at + self.rows.at(k >> self.shift) + (k & mask) * LINE;
            stream::prefetch(self.src, at);
            if self.tail && k & mask == mask {
                stream::prefetch(self.src, at + LINE - 1);
            }
        }
    }
}

/// The byte offsets of a block's rows from its corner: a loop of `mask + 1` rows `lo` bytes
/// apart, widened by a loop of such runs of rows `hi` bytes apart. Unwidened, `mask + 1` is
/// the block's side and `hi` is never reached.
#[derive(Clone, Copy)]
struct Rows {
    mask: usize,
    shift: u32,
    lo: usize,
    hi: usize,
}

impl Rows {
    /// Runs of `run` rows (a power of two) `lo` bytes apart, the runs `hi` bytes apart.
    fn new(run: usize, lo: usize, hi: usize) -> Rows {
        Rows {
            mask: run - 1,
            shift: run.trailing_zeros(),
            lo,
            hi,
        }
    }

    /// Rows `stride` bytes apart.
    #[cfg(target_arch = "x86_64")]
    const fn even(stride: usize) -> Rows {
        Rows {
            mask: usize::MAX,
            shift: usize::BITS - 1,
            lo: stride,
            hi: 0,
        }
    }

    /// Row `x`'s offset.
    #[inline(always)]
    fn at(self, x: usize) -> usize {
        (x & self.mask) * self.lo + (x >> self.shift) * self.hi
    }

    /// The offsets of rows `x .. x + M`, plus `at`: one stride apart when the group lies in
    /// one step of the widening loop (`mask + 1` a multiple of `M`, `x` of `M`), else each
    /// its own.
    #[inline(always)]
    fn group<const M: usize>(self, at: usize, x: usize) -> [usize; M] {
        if self.mask >= M - 1 {
            let f = at + self.at(x);
            core::array::from_fn(|i| f + i * self.lo)
        } else {
            core::array::from_fn(|i| at + self.at(x + i))
        }
    }
}

/// The blocks of a streamed transpose whose source rows do not share one L1 set (they are
/// apart by anything but a multiple of a page: a tile's rows, a line of each, or several such
/// tiles): each block is transposed from the source in place, and the same block of the next
/// leaf is prefetched meanwhile (its rows are as many streams as the block has rows, more than
/// the hardware prefetcher follows). Measured against staging each block's source rows in a
/// scratch and prefetching the leaf's next block only, f32 `{0,1:T(8,128)}` -> rows: 0.62-0.72
/// -> 0.74-0.77 of memcpy transposed into a scratch whose lines are then streamed out
/// ([`buffered`](Self::buffered)), 0.83-0.94 straight from AVX2 registers
/// ([`direct`](Self::direct)), each line's two stores back to back (a hand-written loop that
/// interleaved the 16-byte stores of four lines measured 0.46-0.50); f32 `T(8,128)` -> `{0,1:T(8,128)}` 0.83-0.86 ->
/// 0.93-1.04, f64 `{0,1:T(8,128)}` -> rows 0.36-0.45 -> 0.64-0.67, bf16 0.26-0.33 ->
/// 0.76-0.78, bf16 `T(8,128)` -> `{0,1:T(8,128)}` 0.34-0.41 -> 0.75-0.82.
struct Unstaged<'a> {
    /// The whole source, and where the leaf's blocks start in it (the prefetches reach the
    /// next leaf, past `s`).
    src: (&'a [u8], usize),
    /// The leaf's blocks: every source row of every block lies within it.
    s: &'a [u8],
    /// A block's destination rows, one after the other (`b · a · N` bytes).
    buf: &'a mut [u8],
    /// The block's sides, `a` destination-contiguous slots by `b` source-contiguous ones.
    sides: (usize, usize),
    /// Source row `x` of a block, in bytes from its corner.
    from: Rows,
    /// Destination row `y` of a block, in bytes from its corner.
    to: Rows,
    /// Bytes from a block to the same block of the next leaf.
    ahead: usize,
    /// The next block's lines, prefetched as the block is transposed.
    #[cfg(target_arch = "x86_64")]
    fetch: Option<Fetch<'a>>,
}

impl<'a> Unstaged<'a> {
    /// A block whose source rows are the rows of `stage`, `pitch` bytes apart (`sides.0` rows,
    /// of which the first `sides.1` slots are taken), and whose destination rows are `to`: for
    /// [`direct`](Self::direct), with nothing to prefetch and no scratch.
    #[cfg(target_arch = "x86_64")]
    fn staged(stage: &'a [u8], sides: (usize, usize), pitch: usize, to: Rows) -> Unstaged<'a> {
        Unstaged {
            src: (stage, 0),
            s: stage,
            buf: &mut [],
            sides,
            from: Rows::even(pitch),
            to,
            ahead: 0,
            #[cfg(target_arch = "x86_64")]
            fetch: None,
        }
    }

    /// Prefetches the source rows of the next leaf's block at `at` (bytes into `s`).
    #[inline(always)]
    fn prefetch(&self, at: usize) {
        if self.ahead == 0 {
            return;
        }
        let (a, _) = self.sides;
        for x in 0..a {
            stream::prefetch(self.src.0, self.src.1 + at + self.from.at(x) + self.ahead);
        }
    }

    /// The block at bytes `(dst, src)` of `out` and `s`: its groups transposed into `buf`
    /// (16-byte vectors), whose lines are then streamed out.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn buffered<const N: usize, const M: usize, const K: usize>(
        &mut self,
        (dst, at): (usize, usize),
        out: &mut [u8],
    ) {
        let (a, b) = self.sides;
        let row = a * N;
        let (from, to) = (self.from, self.to);
        self.prefetch(at);
        for gx in 0..a / M {
            for gy in 0..b / M {
                // SAFETY: in `s`, row `gx·M + i < a` of the block starts at `at + from(gx·M +
                // i)` (`Rows::group`), at most `at + from(a - 1)`, and `gy·16 + 16 <= (b /
                // M)·M·N = b·N`: its 16 bytes end within the block's span in `s`. In `buf`, row `gy·M + i < b`
                // starts at `(gy·M + i)·row`, and `gx·16 + 16 <= (a / M)·16 = row`: its 16
                // bytes end within `b·row = buf.len()`.
                unsafe {
                    group_at::<N, M, false, K>(
                        self.s,
                        from.group::<M>(at + gy * lanes::BYTES, gx * M),
                        self.buf,
                        core::array::from_fn(|i| (gy * M + i) * row + gx * lanes::BYTES),
                    );
                }
            }
        }
        for (y, o) in self.buf.chunks_exact(row).enumerate() {
            let (lines, _) = out[dst + to.at(y)..][..row].as_chunks_mut::<LINE>();
            for (line, o) in lines.iter_mut().zip(o.as_chunks::<LINE>().0) {
                stream::line(line, o);
            }
        }
    }

    /// [`buffered`](Self::buffered) without the scratch: pairs of groups in AVX2 registers
    /// ([`group_pair`]), a line of each of `M` destination rows at a time, stored straight
    /// out (streamed if `STREAM`): each line's two stores one after the other.
    ///
    /// # Safety
    /// The CPU has AVX2; every destination row of the block at `dst` is whole lines, and if
    /// `STREAM`, `out` starts on a line and those rows start on lines of `out`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[allow(unsafe_code)]
    unsafe fn direct<const N: usize, const M: usize, const K: usize, const STREAM: bool>(
        &mut self,
        (dst, at): (usize, usize),
        out: &mut [u8],
    ) {
        use super::avx2;
        let (a, b) = self.sides;
        let (from, to) = (self.from, self.to);
        self.prefetch(at);
        let per = self
            .fetch
            .as_ref()
            .map_or(0, |f| f.lines.div_ceil(b / M * (a * N / LINE)));
        let mut fetched = 0;
        // Whether a group's source rows are one stride apart (`Rows::group`).
        let strided = from.mask >= M - 1;
        for gy in 0..b / M {
            let at = at + gy * lanes::BYTES;
            let outs = to.group::<M>(dst, gy * M);
            for line in 0..a * N / LINE {
                if let Some(f) = &self.fetch {
                    f.lines(fetched..fetched + per);
                    fetched += per;
                }
                // The line's halves: groups `4·line` and `4·line + 1`, then `4·line + 2` and
                // `4·line + 3` (`M` slots of 16 bytes a group, `LINE / 16 = 4` a line).
                let gx = 4 * line;
                // SAFETY: groups `gx .. gx + 4 <= a / M` (`line < a·N / 64`), their rows within
                // the block's span as in `buffered`; the CPU has AVX2.
                let (lo, hi) = unsafe {
                    if strided {
                        line_halves::<N, M, K, _>(self.s, gx, |gx| {
                            let f = at + from.at(gx * M);
                            move |i| f + i * from.lo
                        })
                    } else {
                        line_halves::<N, M, K, _>(self.s, gx, |gx| {
                            let rows = from.group::<M>(at, gx * M);
                            move |i| rows[i]
                        })
                    }
                };
                for i in 0..M {
                    let o = outs[i] + line * LINE;
                    let out: &mut [u8; LINE] = (&mut out[o..o + LINE]).try_into().expect("a line");
                    // SAFETY: `out` is line `line` of destination row `gy·M + i`: 64 bytes,
                    // which if `STREAM` start on a line (the caller's contract), so that both
                    // halves are 32 bytes from a 32-byte boundary. The CPU has AVX2.
                    unsafe {
                        avx2::store::<STREAM>(lo[i], out.as_mut_ptr());
                        avx2::store::<STREAM>(hi[i], out.as_mut_ptr().add(32));
                    }
                }
            }
        }
    }
}

/// Whether the destination rows at `at + (y % runs)·lo + (y / runs)·hi` bytes of `out` are
/// streamed (if `stream` and every row starts on a line), and the bytes of `out` before its
/// first line (0 when not streamed). A streamed copy whose rows do not start on lines is
/// stored normally, not sent to the slower kernels of bit fields (rows of bytes interleaved
/// and put a row at a time): measured (32-64 MiB, best of five, two alternating runs) s4
/// `{1,0:E(4)}` -> `{0,1:E(4)}` of `[8000,16384]`, rows 4000 bytes apart, 2.43 -> 3.03 GB/s,
/// u2 `[8000,16384]` 1.46-1.50 -> 2.35, u1 `[16000,16384]` 1.11 -> 1.66-1.71.
#[cfg(target_arch = "x86_64")]
fn lined(out: &[u8], at: usize, (lo, hi): (usize, usize), stream: bool) -> (bool, usize) {
    let lead = out.as_ptr().align_offset(LINE);
    if stream && at >= lead && [at - lead, lo, hi].iter().all(|k| k.is_multiple_of(LINE)) {
        (true, lead)
    } else {
        (false, 0)
    }
}

/// The `rows` rows of `len` bytes of `stage` transposed into whole destination lines, stored
/// straight from AVX2 registers (`Unstaged::direct`), streamed if `stream`: byte `y` of row
/// `x` to byte `x` of destination row `y`, which starts at byte `at + (y % lo_rows)·lo + (y /
/// lo_rows)·hi` of `out` (`lo_rows` a power of two), the lines of `fetch` prefetched
/// meanwhile; streamed only where every row starts on a line ([`lined`]). `false` (nothing
/// done) without AVX2, or where the destination rows are not whole lines.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub(crate) fn transpose_bytes_into_lines<'a>(
    stage: &'a [u8],
    (rows, len): (usize, usize),
    out: &mut [u8],
    at: usize,
    (lo_rows, lo, hi): (usize, usize, usize),
    (stream, fetch): (bool, Option<Fetch<'a>>),
) -> bool {
    const M: usize = lanes::BYTES;
    let (stream, lead) = lined(out, at, (lo, hi), stream);
    if !super::avx2::available()
        || !rows.is_multiple_of(LINE)
        || !len.is_multiple_of(M)
        || !lo_rows.is_power_of_two()
        || stage.len() < rows * len
    {
        return false;
    }
    let mut t = Unstaged::staged(
        &stage[..rows * len],
        (rows, len),
        len,
        Rows::new(lo_rows, lo, hi),
    );
    t.fetch = fetch;
    let (at, out) = (at - lead, &mut out[lead..]);
    // SAFETY: the CPU has AVX2 (checked); destination row `y` starts `at + to(y)` bytes into
    // `out` and is `rows` bytes, whole lines (checked); streamed, `out` starts on a line and
    // `at + to(y)` is a multiple of the line (checked). The source rows are the `rows` rows
    // of `len` bytes of `stage`, `len` a multiple of 16 (checked): every group's rows lie
    // within it.
    unsafe {
        if stream {
            t.direct::<1, M, 1, true>((at, 0), out);
        } else {
            t.direct::<1, M, 1, false>((at, 0), out);
        }
    }
    true
}

/// The transpose of `rows` source rows of fields of `bits` = 4, 2 or 1 (`E(4)`, `E(2)`,
/// `E(1)`), `row` bytes each, the row `x` at byte `at + (x % lo_rows)·lo + (x / lo_rows)·hi`
/// of `src` (`lo_rows` a power of two that divides `rows`), into whole destination lines (as
/// [`transpose_bytes_into_lines`], rows of `rows · bits / 8` bytes): every `32 / bits`
/// source rows zipped into rows of 4-byte words of fields, whose [`squares`] are then the
/// destination rows' lines, the lines of `fetch` prefetched meanwhile. `E(4)` fields go
/// eight rows to a word in field order
/// ([`avx2::zip_nibble_words`](super::avx2::zip_nibble_words)); `E(2)` and `E(1)` fields in
/// `G = 8 / bits` planes ([`avx2::zip_plane_words`](super::avx2::zip_plane_words): plane `k`
/// holds the fields `k`, `G + k`, `2G + k`, ... of each row, whose words are destination
/// rows `k`, `G + k`, ...). `false` (nothing done) without AVX2, or where the source rows
/// are not 16 words' worth of rows (8 where not streamed) or 32 bytes, or the destination
/// rows do not come in runs of 8 a plane or more. Streamed only where every row starts on a line ([`lined`]).
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub(crate) fn transpose_fields_into_lines<'a>(
    (src, from): (&[u8], (usize, usize, usize, usize)),
    (rows, row, bits): (usize, usize, usize),
    stage: &mut [u8],
    (out, at): (&mut [u8], usize),
    (lo_rows, lo, hi): (usize, usize, usize),
    (stream, fetch): (bool, Option<Fetch<'a>>),
) -> bool {
    // Planes of fields, and source rows a word.
    let (g, per) = match bits {
        4 => (1, 8),
        2 => (4, 16),
        1 => (8, 32),
        _ => return false,
    };
    let (stream, lead) = lined(out, at, (lo, hi), stream);
    let (s_at, from) = (from.0, (from.1, from.2, from.3));
    // Source rows of 16 bytes (a tile's rows: 128 `E(1)` or 64 `E(2)` fields) go two to a
    // row of 32 bytes, `x` beside `x + rows / 2` (a constant `half` bytes after it: the rows
    // are whole runs, or one), whose transposes are the first and second halves of the
    // destination rows (`rows / 2` fields each): the destination rows are then `2·lo_rows`,
    // the second `lo_rows` the halves `rows / 2` fields on. Measured u1 `T(8,128)E(1)` ->
    // `{0,1:E(1)}` against each source row staged on its own as a plane's bytes and the planes
    // transposed (`bits::transpose_planes`): in cache (512 KiB) 4.4 -> 13.5 GB/s, 64 MiB 0.17
    // -> 0.19 of memcpy (0.39 with the next block fetched: see `BitFields::transposed`).
    let halves = g > 1
        && row == 16
        && lo_rows == 128 / bits
        && rows.is_multiple_of(2)
        && ((rows / 2).is_multiple_of(from.0) || rows == from.0);
    let (count, width, hi) = if halves {
        (rows / 2, 32, rows / 2 * bits / 8)
    } else {
        (rows, row, hi)
    };
    // Square blocks in pairs, a line of each destination row; or, stored normally, an odd
    // count of blocks (`squares`), rows of half a line (64 rows of `E(4)` fields: the
    // blocks of transposed tiles that overhang, widened as far as the tiles divide), which
    // had gone through rows of bytes interleaved and put: measured (32-64 MiB, best of five,
    // two alternating runs) `s4[8000,8000]` `{0,1:T(8,128)E(4)}` -> rows 1.99-2.12 ->
    // 4.68-4.77 GB/s, `u1[8000,16000]` `{0,1:T(8,128)E(1)}` -> rows 0.62 -> 1.16.
    let words = if stream { 16 } else { 8 };
    if !super::avx2::available()
        || !count.is_multiple_of(words * per)
        || !width.is_multiple_of(32)
        || !from.0.is_power_of_two()
        || !rows.is_multiple_of(from.0)
        || !lo_rows.is_power_of_two()
        || lo_rows < 8 * g
        || stage.len() < rows * row
    {
        return false;
    }
    let from = Rows::new(from.0, from.1, from.2);
    // The last row is the farthest (`rows` is whole runs, or one), and within `src`.
    let src = &src[..s_at + from.at(rows - 1) + row];
    let (rows, row, half) = (count, width, from.at(count));
    // A plane's rows a line longer than their words where the stage has room: rows of
    // 2 KiB fell in two L1 sets, and the sixteen rows a pair of square blocks reads filled
    // both (measured s4 `{1,0:E(4)}` -> `{0,1:E(4)}`, 64 MiB, three alternating runs,
    // 8.3-8.6 -> 9.2-9.4 GB/s).
    let plane_row = row * per / g;
    let pitch = if stage.len() >= (rows / per) * (plane_row + LINE) * g {
        plane_row + LINE
    } else {
        plane_row
    };
    let stage = &mut stage[..rows / per * pitch * g];
    // SAFETY: the CPU has AVX2 (checked); `row` is a multiple of 32 and `rows` of the rows of
    // a word (checked), every source row ends within `src` (above: with halves, row `x`'s
    // second half is source row `x + rows`, `half` bytes after its first, for every `x <
    // rows`: `rows` is whole runs of `from`, or within its one run), and the stage is `rows ·
    // row` bytes.
    unsafe {
        match (g, halves) {
            (1, _) => zip_fields::<1, 8, false>(stage, (rows, row, pitch), src, (s_at, from, 0)),
            (4, false) => {
                zip_fields::<4, 16, false>(stage, (rows, row, pitch), src, (s_at, from, 0))
            }
            (4, true) => {
                zip_fields::<4, 16, true>(stage, (rows, row, pitch), src, (s_at, from, half))
            }
            (_, false) => {
                zip_fields::<8, 32, false>(stage, (rows, row, pitch), src, (s_at, from, 0))
            }
            (_, true) => {
                zip_fields::<8, 32, true>(stage, (rows, row, pitch), src, (s_at, from, half))
            }
        }
    }
    let (at, out) = (at - lead, &mut out[lead..]);
    // Plane `k`'s word `j` is destination row `G·j + k`, at `k·lo + to(G·j)`; `G` divides
    // the runs of `lo_rows` rows.
    let to = Rows::new(lo_rows / g, g * lo, hi);
    let (a, b) = (rows / per, row * 8 / bits / g);
    for (k, plane) in stage.chunks_exact(rows / per * pitch).enumerate() {
        let fetch = fetch.map(|f| f.part(k, g));
        // SAFETY: the CPU has AVX2; the plane is `a` rows of `b` 4-byte words `pitch` bytes
        // apart (`b·4 = row·per / G <= pitch`), `R = 8` divides `b` (`row` is a multiple of 32) and `to`'s
        // runs (`lo_rows / G`, a power of two of 8 or more), `R` divides `a` (`rows` a
        // multiple of 8 words' rows), and streamed `2R = 16` does (16 words' rows), `out`
        // and every row start on lines (checked: `k·lo` is whole lines too).
        unsafe {
            if stream {
                squares::<4, 1, true>(plane, (a, b, pitch), out, (at + k * lo, to), fetch);
            } else {
                squares::<4, 1, false>(plane, (a, b, pitch), out, (at + k * lo, to), fetch);
            }
        }
    }
    true
}

/// Every `PER` source rows (`x` at `at + from.at(x)` bytes into `src`, `row` bytes each)
/// zipped into a row of each of the `G` planes of `stage`, 32 bytes of each at a time: `E(4)`
/// fields (`G` = 1, eight rows a word,
/// [`avx2::zip_nibble_words`](super::avx2::zip_nibble_words)), `E(2)` and `E(1)` (`G` = 4 or
/// 8, `4G` rows a word, [`avx2::zip_plane_words`](super::avx2::zip_plane_words)). With
/// `HALVES`, `row` is 32 and each row's second 16 bytes are `halves` bytes after its first
/// (two source rows of 16 bytes side by side, `G` 4 or 8). A plane's rows are `pitch` bytes
/// apart, the planes `rows / PER · pitch`.
///
/// # Safety
/// The CPU has AVX2; `(G, PER)` is `(1, 8)`, `(4, 16)` or `(8, 32)`; `row` is a multiple of 32
/// and `rows` of `PER`, `pitch` is at least `row · PER / G`, `stage` is `G · rows / PER ·
/// pitch` bytes, and each of the `rows` source rows ends
/// within `src` (with `HALVES`, 16 bytes from `at + from.at(x)` and from `halves` after it).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn zip_fields<const G: usize, const PER: usize, const HALVES: bool>(
    stage: &mut [u8],
    (rows, row, pitch): (usize, usize, usize),
    src: &[u8],
    (at, from, halves): (usize, Rows, usize),
) {
    let masks = lanes::plane_masks::<G>().map(|m| super::avx2::splat64(m));
    // Bytes of a plane.
    let plane = rows / PER * pitch;
    let (s, o) = (src.as_ptr(), stage.as_mut_ptr());
    // A group's rows lie in one run of `from` (a stride apart), or span whole runs (tiles of
    // fewer rows: each found on its own).
    let strided = from.mask >= PER - 1;
    for q in 0..rows / PER {
        let (x0, f) = (PER * q, at + from.at(PER * q));
        for k in (0..row).step_by(32) {
            let row = |x: usize| {
                let at = if strided {
                    f + x * from.lo
                } else {
                    at + from.at(x0 + x)
                };
                // SAFETY: source row `PER·q + x < rows` ends within `src`, and `k + 32 <= row`
                // (the caller's contract).
                unsafe { s.add(at + k) }
            };
            // SAFETY: as `row`; with `HALVES`, both halves of a row lie in `src`.
            let load = |x: usize| unsafe {
                if HALVES {
                    super::avx2::load_halves(row(x), row(x).add(halves))
                } else {
                    super::avx2::load(row(x))
                }
            };
            // SAFETY: plane `p`'s row `q` is `pitch` bytes from `p·plane + q·pitch`, and the
            // words of these 32 bytes end `(k + 32)·PER / G <= row·PER / G <= pitch` bytes in.
            let out = |p: usize| unsafe { o.add(p * plane + q * pitch + k * PER / G) };
            // SAFETY: every row is readable for 32 bytes and every plane's `out` writable for
            // `32·PER / G` bytes (above); the CPU has AVX2.
            unsafe {
                if G == 1 {
                    super::avx2::zip_nibble_words(core::array::from_fn(row), out(0));
                } else {
                    super::avx2::zip_plane_words::<G>(load, out, &masks);
                }
            }
        }
    }
}

/// The two halves of `M` destination lines ([`Unstaged::direct`]): groups `gx` and `gx + 1`,
/// then `gx + 2` and `gx + 3` ([`group_pair`]), the source rows of group `g` at bytes
/// `rows(g)(i)` of `s`.
///
/// # Safety
/// As [`group_pair`], for each of the four groups; the CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn line_halves<const N: usize, const M: usize, const K: usize, F: Fn(usize) -> usize>(
    s: &[u8],
    gx: usize,
    rows: impl Fn(usize) -> F,
) -> ([super::avx2::Y; M], [super::avx2::Y; M]) {
    // SAFETY: every row of the four groups ends within `s` (the caller's contract).
    unsafe {
        (
            group_pair::<N, M, K>(s, (rows(gx), rows(gx + 1))),
            group_pair::<N, M, K>(s, (rows(gx + 2), rows(gx + 3))),
        )
    }
}

/// Two groups of the vector transpose side by side in AVX2 registers: the `M` source rows
/// at bytes `lo(i)` of `s` and the `M` at bytes `hi(i)`, transposed into `M` destination
/// rows of 32 bytes each (the first group's 16 then the second's), each slot transposed
/// within as a `K × K` block when `K` > 1. (Offsets as functions: where a group's rows are
/// one stride apart, LLVM folds them into the loads' addresses, not an array on the stack.)
///
/// # Safety
/// Every `lo(i) + 16` and `hi(i) + 16 <= s.len()` for `i < M`; the CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
pub(crate) unsafe fn group_pair<const N: usize, const M: usize, const K: usize>(
    s: &[u8],
    (lo, hi): (impl Fn(usize) -> usize, impl Fn(usize) -> usize),
) -> [super::avx2::Y; M] {
    use super::avx2;
    // SAFETY: rows `i < M` of both groups end within `s` (the caller's contract).
    let mut v: [avx2::Y; M] = core::array::from_fn(|i| unsafe {
        avx2::load_halves(s.as_ptr().add(lo(i)), s.as_ptr().add(hi(i)))
    });
    avx2::shuffle::<N, M>(&mut v, lanes::log2(M));
    if K > 1 {
        for v in &mut v {
            *v = avx2::transpose_slots::<N, K>(*v);
        }
    }
    v
}

/// `each(gy, gx, rs)` for every group `gy < ny`, `gx < nx` of the blocks `rs`: the blocks
/// `0..reps` in runs of `run`, each run's groups in turn.
#[inline(always)]
fn visit(
    run: usize,
    reps: usize,
    (ny, nx): (usize, usize),
    each: &mut impl FnMut(usize, usize, Range<usize>),
) {
    for r0 in (0..reps).step_by(run.max(1)) {
        let rs = r0..reps.min(r0 + run);
        for gy in 0..ny {
            for gx in 0..nx {
                each(gy, gx, rs.clone());
            }
        }
    }
}

/// `each(r, gy, gx)` for every block `r < reps` and group `gy < ny`, `gx < nx` in it, in
/// that order; with the trip counts `FIXED` (known to the compiler) if it is not 0.
#[inline(always)]
fn groups<const FIXED: usize>(
    reps: usize,
    (ny, nx): (usize, usize),
    each: &mut impl FnMut(usize, usize, usize),
) {
    let (ny, nx) = if FIXED > 0 { (FIXED, FIXED) } else { (ny, nx) };
    for r in 0..reps {
        for gy in 0..ny {
            for gx in 0..nx {
                each(r, gy, gx);
            }
        }
    }
}

/// One group of the vector transpose: `M` source rows of one vector each, from byte `f`
/// of `s` and `f_row` bytes apart, transposed by `log2 M` rounds of [`lanes::shuffle`] into
/// `M` destination rows of one vector each, from byte `o` of `out` and `o_row` apart (each
/// slot transposed within as a `K × K` block when `K` > 1); with non-temporal stores if
/// `STREAM`.
///
/// # Safety
/// `f + (M - 1)·f_row + 16 <= s.len()` and `o + (M - 1)·o_row + 16 <= out.len()`; if
/// `STREAM`, every `out` byte `o + i·o_row` is 16-byte aligned.
#[inline(always)]
#[allow(unsafe_code)]
pub(crate) unsafe fn group<const N: usize, const M: usize, const STREAM: bool, const K: usize>(
    s: &[u8],
    (f, f_row): (usize, usize),
    out: &mut [u8],
    (o, o_row): (usize, usize),
) {
    // SAFETY: the rows `f + i·f_row` end within `s` and `o + i·o_row` within `out` (the
    // caller's contract), 16-byte aligned if `STREAM`.
    unsafe {
        group_at::<N, M, STREAM, K>(
            s,
            core::array::from_fn(|i| f + i * f_row),
            out,
            core::array::from_fn(|i| o + i * o_row),
        )
    }
}

/// [`group`] with source row `i` at byte `rows[i]` of `s` and destination row `i` at byte
/// `outs[i]` of `out` (a group of a block side that is shorter than `M` rows a step of its
/// widening loop: a tile of 8 rows of bytes).
///
/// # Safety
/// Every `rows[i] + 16 <= s.len()` and `outs[i] + 16 <= out.len()`; if `STREAM`, every
/// `outs[i]` is 16-byte aligned.
#[inline(always)]
#[allow(unsafe_code)]
unsafe fn group_at<const N: usize, const M: usize, const STREAM: bool, const K: usize>(
    s: &[u8],
    rows: [usize; M],
    out: &mut [u8],
    outs: [usize; M],
) {
    // SAFETY: row `i < M` starts at `rows[i]`, and its 16 bytes end within `s` (the caller's
    // contract).
    let mut v: [lanes::V; M] = core::array::from_fn(|i| unsafe { lanes::at_unchecked(s, rows[i]) });
    lanes::shuffle::<N, M>(&mut v, lanes::log2(M));
    if K > 1 {
        for v in &mut v {
            *v = lanes::transpose_slots::<N, K>(*v);
        }
    }
    for (v, o) in v.iter().zip(outs) {
        // SAFETY: destination row `i < M` starts at `outs[i]`, and its 16 bytes end within
        // `out`, 16-byte aligned if `STREAM` (the caller's contract).
        unsafe {
            if STREAM {
                lanes::stream_unchecked(*v, out, o);
            } else {
                lanes::put_unchecked(*v, out, o);
            }
        }
    }
}

/// Up to 8 bytes as a little-endian integer.
#[inline(always)]
fn lane(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(b)
}

/// The low `N` bytes of `v`, little-endian.
#[inline(always)]
fn slot<const N: usize>(v: u64) -> [u8; N] {
    let mut out = [0u8; N];
    out.copy_from_slice(&v.to_le_bytes()[..N]);
    out
}

/// `A` rows of `len` bytes, at `(at, stride, len)` bytes of `src`, interleaved into `out`
/// (slot `y` of row `x` to slot `y · A + x`, slots of `N` bytes) 32 bytes of each row at a
/// time, in AVX2 registers (each 16-byte half a chunk of `16 / N` slots), with non-temporal
/// stores if `STREAM`, each row's lines `ahead` bytes on fetched first.
///
/// # Safety
/// The CPU has AVX2; if `STREAM`, `out` starts 16-byte aligned.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn zip_avx2<const N: usize, const A: usize, const STREAM: bool>(
    out: &mut [u8],
    src: &[u8],
    (at, stride, len): (usize, usize, usize),
    ahead: usize,
) {
    use super::avx2;
    assert!(len.is_multiple_of(32) && out.len() == A * len);
    assert!(at + (A - 1) * stride + len <= src.len());
    // Each row fetched ahead: rows a page or more apart, a line or two of each in turn; and
    // rows in tiles, whose next ones lie further along (measured s4 `T(8,128)(2,1)E(4)` ->
    // `T(32,128)(4,1)E(4)`, as bytes, rows 128 bytes apart, 11.2 -> 16.3 GB/s, 0.55 -> 0.80
    // of memcpy). How far: see `zip`.
    if STREAM {
        for x in 0..A {
            for l in (0..len).step_by(LINE) {
                stream::prefetch(src, at + x * stride + l + ahead);
            }
        }
    }
    for c in (0..len).step_by(32) {
        // SAFETY: row `x < A`'s 32 bytes from `at + x·stride + c` end within `src` (asserted,
        // `c + 32 <= len`).
        let mut v: [avx2::Y; A] =
            core::array::from_fn(|x| unsafe { avx2::load(src.as_ptr().add(at + x * stride + c)) });
        avx2::shuffle::<N, A>(&mut v, lanes::log2(A));
        let run = A * c;
        for (k, v) in v.iter().enumerate() {
            // SAFETY: the low half goes to `run + 16k`, the high half (the next `m` slots of
            // each row) `16 A` bytes on; both end within `A·(c + 32) <= out.len()`
            // (asserted), 16-byte aligned if `STREAM` (the caller's contract).
            unsafe {
                let p = out.as_mut_ptr().add(run + 16 * k);
                avx2::store_halves::<STREAM>(*v, p, p.add(16 * A));
            }
        }
    }
}

/// `reps` times: `A` source rows of `at.len` slots interleaved into one destination run.
#[inline(never)]
#[allow(unsafe_code)]
fn zip<W: Word<N>, const N: usize, const A: usize>(
    dst: &mut [[u8; N]],
    src: &[[u8; N]],
    at: Blocks,
    scratch: &mut Scratch,
) {
    let len = at.len;
    #[cfg(target_arch = "x86_64")]
    if N <= 8 && (len * N).is_multiple_of(32) && super::avx2::available() {
        let (out, from) = (dst.as_flattened_mut(), src.as_flattened());
        // Streamed straight from the registers when the runs start on lines (each 32 bytes of
        // the rows fill `32 A` bytes of the run, whole lines, in order); else stored in place
        // or, when streaming, by the 16-byte kernel below (measured against it: u8 rows ->
        // `T(64,128)(8,1)` 1.05 -> 1.19 of memcpy, s8 `(4,1)` 0.94 -> 1.14, bf16 `(2,1)` 0.90
        // -> 1.06).
        let lines = |d0: usize| out.as_ptr().wrapping_add(d0 * N).align_offset(LINE) == 0;
        if !at.stream || (0..at.reps).all(|r| lines(at.at.0 + r * at.step.0)) {
            // The rows fetched where the same block of the next leaf reads them (the next rows
            // of tiles, rows a few tiles long one after another), else `FETCH_AHEAD` on:
            // measured (64 MiB, medians of two or three alternating runs) against
            // `FETCH_AHEAD`, bf16 rows -> `T(8,128)(2,1)` 512 wide 0.56 -> 0.97 of memcpy, 768
            // 0.57 -> 1.05, 1024 0.73 -> 1.10, 8192 0.95 -> 1.11; s8 `T(32,128)(4,1)` 768 wide
            // 0.60 -> 0.84, 8192 0.85 -> 1.10.
            let ahead = match at.ahead {
                0 => FETCH_AHEAD,
                leaf => leaf * N,
            };
            for r in 0..at.reps {
                let (d0, s0) = (at.at.0 + r * at.step.0, at.at.1 + r * at.step.1);
                let rows = (s0 * N, at.sa * N, len * N);
                let out = &mut out[d0 * N..(d0 + A * len) * N];
                // SAFETY: the CPU has AVX2 (checked); `out` starts on a line if streamed.
                unsafe {
                    if at.stream {
                        zip_avx2::<N, A, true>(out, from, rows, ahead);
                    } else {
                        zip_avx2::<N, A, false>(out, from, rows, ahead);
                    }
                }
            }
            return;
        }
    }
    // `MAX_RUN · A · N` bytes at most, `A · N <= 8`.
    let (buf, _) = scratch.as_flattened_mut().as_chunks_mut::<N>();
    let (buf, _) = buf.as_chunks_mut::<A>();
    for r in 0..at.reps {
        let (d0, s0) = (at.at.0 + r * at.step.0, at.at.1 + r * at.step.1);
        let rows: [&[[u8; N]]; A] = core::array::from_fn(|x| &src[s0 + x * at.sa..][..len]);
        let (out, _) = dst[d0..d0 + A * len].as_chunks_mut::<A>();
        // The run is written in order: streamed straight from the registers when it is all
        // whole vectors and whole lines, else gathered in `buf` and streamed.
        let whole = N <= 8 && len.is_multiple_of(lanes::BYTES / N);
        let direct = at.stream
            && whole
            && out.as_ptr().align_offset(LINE) == 0
            && (A * len * N).is_multiple_of(LINE);
        if at.stream && !direct {
            zip_rows::<W, N, A, false>(&mut buf[..len], rows);
            let out = &mut dst[d0..d0 + A * len];
            stream::copy(
                out.as_flattened_mut(),
                buf[..len].as_flattened().as_flattened(),
            );
        } else if direct {
            zip_rows::<W, N, A, true>(out, rows);
        } else {
            zip_rows::<W, N, A, false>(out, rows);
        }
    }
}

/// Interleaves the `A` rows `rows` into `out` (slot `y` of row `x` to `out[y][x]`) in
/// 16-byte vectors: `16 / N` slots of each row, `log2 A` rounds, `A` vectors out, each
/// streamed if `STREAM`; a tail shorter than a vector, and slots of 16 bytes, one group
/// at a time.
///
/// # Panics
/// If `STREAM` and `out` holds a tail (streamed runs are whole vectors).
#[inline(always)]
fn zip_rows<W: Word<N>, const N: usize, const A: usize, const STREAM: bool>(
    out: &mut [[[u8; N]; A]],
    rows: [&[[u8; N]]; A],
) {
    let len = out.len();
    let m = lanes::BYTES / N;
    let whole = if N <= 8 { len - len % m } else { 0 };
    for c in (0..whole).step_by(m) {
        let mut v: [lanes::V; A] =
            core::array::from_fn(|x| lanes::at(rows[x][..len].as_flattened(), c * N));
        lanes::shuffle::<N, A>(&mut v, lanes::log2(A));
        let to = out[c..c + m].as_flattened_mut().as_flattened_mut();
        for (k, v) in v.iter().enumerate() {
            if STREAM {
                lanes::stream(*v, to, k * lanes::BYTES);
            } else {
                lanes::put(*v, to, k * lanes::BYTES);
            }
        }
    }
    let out = &mut out[whole..];
    assert!(!STREAM || out.is_empty(), "streamed runs are whole vectors");
    let rows: [&[[u8; N]]; A] = core::array::from_fn(|x| &rows[x][whole..]);
    if A * N <= 4 {
        // The `A` slots of an output group as one integer, built with shifts: vector
        // shifts and ors, where byte shuffles would stay scalar.
        for (y, o) in out.iter_mut().enumerate() {
            let mut v = 0u32;
            for (x, row) in rows.iter().enumerate() {
                v |= (lane(&row[y]) as u32) << (8 * N * x);
            }
            o.as_flattened_mut()
                .copy_from_slice(&v.to_le_bytes()[..A * N]);
        }
    } else if A * N <= 8 {
        for (y, o) in out.iter_mut().enumerate() {
            let mut v = 0u64;
            for (x, row) in rows.iter().enumerate() {
                v |= lane(&row[y]) << (8 * N * x);
            }
            o.as_flattened_mut()
                .copy_from_slice(&v.to_le_bytes()[..A * N]);
        }
    } else {
        for (y, o) in out.iter_mut().enumerate() {
            for x in 0..A {
                o[x] = W::get(rows[x][y]).put();
            }
        }
    }
}

/// Splits groups of `B` slots (`from`) into the rows `to`, slot `y` of each group into row
/// `y`.
#[inline(always)]
fn split_groups<W: Word<N>, const N: usize, const B: usize>(
    from: &[[[u8; N]; B]],
    mut to: [&mut [[u8; N]]; B],
) {
    // Whole vectors: `M` groups (`B` vectors), `log2 M` rounds, one vector per row.
    let m = lanes::BYTES / N;
    let whole = if N <= 8 {
        from.len() - from.len() % m
    } else {
        0
    };
    for c in (0..whole).step_by(m) {
        let bytes = from[c..c + m].as_flattened().as_flattened();
        let mut v: [lanes::V; B] = core::array::from_fn(|k| lanes::at(bytes, k * lanes::BYTES));
        lanes::shuffle::<N, B>(&mut v, lanes::log2(m));
        for (row, v) in to.iter_mut().zip(&v) {
            lanes::put(*v, row[c..c + m].as_flattened_mut(), 0);
        }
    }
    let from = &from[whole..];
    let mut to = to.map(|row| &mut row[whole..]);
    if B * N <= 8 {
        // The `B` slots of an input group as one integer, split with shifts.
        for (x, f) in from.iter().enumerate() {
            let v = lane(f.as_flattened());
            for (y, row) in to.iter_mut().enumerate() {
                row[x] = slot(v >> (8 * N * y));
            }
        }
    } else {
        for (x, f) in from.iter().enumerate() {
            for y in 0..B {
                to[y][x] = W::get(f[y]).put();
            }
        }
    }
}

/// [`split_groups`] 32 bytes of each row at a time, in AVX2 registers (each 16-byte half a
/// chunk of `16 / N` groups), the rows at `(at, stride, len)` bytes of `out`, with
/// non-temporal stores if `STREAM`.
///
/// # Safety
/// The CPU has AVX2; if `STREAM`, every row starts 32-byte aligned.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn split_groups_avx2<const N: usize, const B: usize, const STREAM: bool>(
    from: &[u8],
    out: &mut [u8],
    (at, stride, len): (usize, usize, usize),
) {
    use super::avx2;
    assert!(len.is_multiple_of(32) && from.len() == B * len);
    assert!(at + (B - 1) * stride + len <= out.len());
    let m = lanes::BYTES / N;
    // The 32 bytes of each row from byte `c` of the rows: `2m` groups of `B` slots, `32 B`
    // bytes in.
    let chunk = |c: usize| {
        let chunk = B * c;
        // SAFETY: vector `k < B`'s halves are the 16 bytes from `chunk + 16k` and from
        // `chunk + 16k + 16B`, ending within `B·(c + 32) <= B·len = from.len()` (the caller's
        // `c + 32 <= len`, asserted above).
        let mut v: [avx2::Y; B] = core::array::from_fn(|k| unsafe {
            let p = from.as_ptr().add(chunk + 16 * k);
            avx2::load_halves(p, p.add(16 * B))
        });
        avx2::shuffle::<N, B>(&mut v, lanes::log2(m));
        v
    };
    // Streamed, a line of each row at a time, its two halves stored back to back: 32 bytes
    // of each of the `B` rows, then the other 32, kept `B` lines open at once (8 for bytes),
    // as many as the write-combining buffers. Measured (64 MiB, ten alternating runs of
    // both binaries, against memcpy) u8 `T(64,128)(8,1)` -> rows 0.86-1.19 -> 1.06-1.74; in
    // an earlier half hour the old way ran 0.22-0.40 in five runs of six, the new 1.05-1.74
    // in six of six.
    let on_line = out.as_ptr().wrapping_add(at).align_offset(LINE) == 0;
    let lines = if STREAM && stride.is_multiple_of(LINE) && on_line {
        len / LINE * LINE
    } else {
        0
    };
    for c in (0..lines).step_by(LINE) {
        let (v, w) = (chunk(c), chunk(c + 32));
        for (k, (v, w)) in v.iter().zip(&w).enumerate() {
            // SAFETY: row `k < B`'s 64 bytes from `at + k·stride + c` end within `out`
            // (asserted, `c + 64 <= len`), each half 32-byte aligned (the first row starts on a
            // line, `stride` and `c` are multiples of it).
            unsafe {
                let p = out.as_mut_ptr().add(at + k * stride + c);
                avx2::store::<STREAM>(*v, p);
                avx2::store::<STREAM>(*w, p.add(32));
            }
        }
    }
    for c in (lines..len).step_by(32) {
        for (k, v) in chunk(c).iter().enumerate() {
            // SAFETY: row `k < B`'s 32 bytes from `at + k·stride + c` end within `out`
            // (asserted, `c + 32 <= len`), 32-byte aligned if `STREAM` (the caller's
            // contract; `c` is a multiple of 32).
            unsafe { avx2::store::<STREAM>(*v, out.as_mut_ptr().add(at + k * stride + c)) };
        }
    }
}

/// `reps` times: one source run split into `B` destination rows of `at.len` slots.
#[inline(never)]
#[allow(unsafe_code)]
fn unzip<W: Word<N>, const N: usize, const B: usize>(
    dst: &mut [[u8; N]],
    src: &[[u8; N]],
    at: Blocks,
    scratch: &mut Scratch,
) {
    let len = at.len;
    // `B` rows of `MAX_RUN · N` bytes, `B · N <= 8` (when streaming).
    let (buf, _) = scratch.as_flattened_mut().as_chunks_mut::<N>();
    let (buf, _) = buf.as_chunks_mut::<MAX_RUN>();
    #[cfg(target_arch = "x86_64")]
    if N <= 8 && (len * N).is_multiple_of(32) && super::avx2::available() {
        let (db, whole) = (at.db * N, at.stream && (at.db * N).is_multiple_of(32));
        let (out, from) = (dst.as_flattened_mut(), src.as_flattened());
        for r in 0..at.reps {
            let (d0, s0) = (at.at.0 + r * at.step.0, at.at.1 + r * at.step.1);
            let from = &from[s0 * N..(s0 + B * len) * N];
            let rows = (d0 * N, db, len * N);
            // Streamed straight from the registers when every row starts 32-byte aligned
            // (measured against 16-byte vectors gathered per row: u8 `T(64,128)(8,1)` -> rows
            // 0.63 -> 0.84 of memcpy, s8 `(4,1)` 0.74 -> 1.08, bf16 `(2,1)` 0.85 -> 1.46).
            let direct = whole && out.as_ptr().wrapping_add(d0 * N).align_offset(32) == 0;
            // SAFETY: the CPU has AVX2 (checked); the rows start 32-byte aligned if streamed.
            unsafe {
                if direct {
                    split_groups_avx2::<N, B, true>(from, out, rows);
                } else {
                    split_groups_avx2::<N, B, false>(from, out, rows);
                }
            }
        }
        return;
    }
    for r in 0..at.reps {
        let (d0, s0) = (at.at.0 + r * at.step.0, at.at.1 + r * at.step.1);
        let (from, _) = src[s0..s0 + B * len].as_chunks::<B>();
        if at.stream {
            let buf = &mut buf[..B];
            let mut rest = &mut *buf;
            let rows: [&mut [[u8; N]]; B] = core::array::from_fn(|_| {
                let (row, tail) = core::mem::take(&mut rest).split_at_mut(1);
                rest = tail;
                &mut row[0][..len]
            });
            split_groups::<W, N, B>(from, rows);
            for (y, b) in buf.iter().enumerate() {
                let out = &mut dst[d0 + y * at.db..][..len];
                stream::copy(out.as_flattened_mut(), b[..len].as_flattened());
            }
        } else {
            // Rows `db >= len` apart (a layout never puts two elements in one slot).
            let mut rest = &mut dst[d0..];
            let rows: [&mut [[u8; N]]; B] = core::array::from_fn(|_| {
                let n = at.db.min(rest.len());
                let (row, tail) = core::mem::take(&mut rest).split_at_mut(n);
                rest = tail;
                &mut row[..len]
            });
            split_groups::<W, N, B>(from, rows);
        }
    }
}

/// Slots of each row an interleave of any number of rows ([`zip_any`], [`unzip_any`]) moves
/// at a time, through fixed-size arrays.
const ANY_CHUNK: usize = 16;

/// Bytes of the run an interleave of any number of rows gathers in its scratch when it
/// streams: `MAX_RUN` slots of each of the rows, at most `nest::ANY_ROWS_BYTES` across the
/// rows; the two pages of a streamed copy's scratch.
const ANY_RUN_BYTES: usize = MAX_RUN * ANY_ROWS_BYTES;
const _: () = assert!(ANY_RUN_BYTES <= 2 * stream::PAGE);

/// `reps` times: `A` source rows of `at.len` slots interleaved into one destination run, for
/// `A` from 3 to 15 but 4 and 8 (an image's channels, `NCHW` -> `NHWC`), which the vector
/// shuffle's `log2 A` rounds cannot do: [`ANY_CHUNK`] slots of each row at a time through
/// fixed-size arrays, stored in place or, when the copy streams, gathered and streamed out a
/// run at a time. Measured (64 MiB, against memcpy; slot by slot before): `f32[112,3,224,224]`
/// `{3,2,1,0}` -> `{1,3,2,0}` 0.20 -> 0.89, `u8[256,3,256,256]` 0.06 -> 0.73, bf16 with 7
/// channels 0.18 -> 0.53, `f32[3,3,1024,1024]` `{3,2,1,0}` -> `{1,0,3,2}` (9 rows) 0.19 -> 0.74.
#[inline(never)]
fn zip_any<W: Word<N>, const N: usize, const A: usize>(
    dst: &mut [[u8; N]],
    src: &[[u8; N]],
    at: Blocks,
    scratch: &mut Scratch,
) {
    let len = at.len;
    // (A streamed copy's scratch is two pages: `ANY_RUN_BYTES`.)
    let buf = scratch.as_flattened_mut();
    for r in 0..at.reps {
        let (d0, s0) = (at.at.0 + r * at.step.0, at.at.1 + r * at.step.1);
        let rows: [&[[u8; N]]; A] = core::array::from_fn(|x| &src[s0 + x * at.sa..][..len]);
        let out = &mut dst[d0..d0 + A * len];
        if at.stream {
            let (to, _) = buf[..A * len * N].as_chunks_mut::<N>();
            interleave_rows::<W, N, A>(to, rows);
            stream::copy(out.as_flattened_mut(), &buf[..A * len * N]);
        } else {
            interleave_rows::<W, N, A>(out, rows);
        }
    }
}

/// Slot `y` of row `x` of `rows` to `out[y · A + x]`, [`ANY_CHUNK`] slots of each row at a
/// time (bytes with AVX2: [`zip_bytes_avx2`]).
#[inline(always)]
#[allow(unsafe_code)]
fn interleave_rows<W: Word<N>, const N: usize, const A: usize>(
    out: &mut [[u8; N]],
    rows: [&[[u8; N]]; A],
) {
    let len = rows[0].len();
    let whole = len / ANY_CHUNK * ANY_CHUNK;
    assert!(rows.iter().all(|r| r.len() == len) && out.len() >= A * len);
    #[cfg(target_arch = "x86_64")]
    if N == 1 && super::avx2::available() {
        let rows = rows.map(<[[u8; N]]>::as_flattened);
        let out = out.as_flattened_mut();
        for y in (0..whole).step_by(ANY_CHUNK) {
            // SAFETY: the CPU has AVX2; each row's 16 bytes from `y` end at `y + 16 <= whole
            // <= len`, its length; the chunk's `A` vectors of `out` from byte `y·A` end at
            // `(y + 16)·A <= A·len <= out.len()` (asserted above).
            unsafe { zip_bytes_avx2::<A>(out, rows, y) };
        }
    } else {
        interleave_chunks::<W, N, A>(out, rows, whole);
    }
    #[cfg(not(target_arch = "x86_64"))]
    interleave_chunks::<W, N, A>(out, rows, whole);
    for y in whole..len {
        for (x, row) in rows.iter().enumerate() {
            out[y * A + x] = row[y];
        }
    }
}

/// For each byte `q < 16` of vector `j` of [`zip_bytes_avx2`]'s chunk (slot `16·j + q` of the
/// run: slot `y` of row `x`, `16·j + q = y·A + x`), mask `x` of vector `j` picks byte `y` of row
/// `x`'s vector (`0x80`, zero, elsewhere).
#[cfg(target_arch = "x86_64")]
const fn zip_masks<const A: usize>() -> [[[u8; 16]; A]; A] {
    let mut m = [[[0x80u8; 16]; A]; A];
    let mut at = 0;
    while at < 16 * A {
        m[at / 16][at % A][at % 16] = (at / A) as u8;
        at += 1;
    }
    m
}

/// One chunk of [`interleave_rows`] over bytes: 16 bytes from byte `y` of each of the `A`
/// rows interleaved into the `A` vectors from byte `y · A` of `out`, each the OR of `A` byte
/// shuffles (`vpshufb`, masks made at compile time). Measured (64 MiB, against memcpy):
/// `u8[256,3,256,256]` `{3,2,1,0}` -> `{1,3,2,0}` 0.71-0.82 -> 0.81-0.84, 5 channels 0.32-0.47
/// -> 0.58-0.78.
///
/// # Safety
/// The CPU has AVX2; bytes `y .. y + 16` of every row and `y·A .. y·A + 16·A` of `out` are in
/// bounds.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn zip_bytes_avx2<const A: usize>(out: &mut [u8], rows: [&[u8]; A], y: usize) {
    use core::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_storeu_si128};
    let masks = const { zip_masks::<A>() };
    // SAFETY: each row's 16 bytes from `y` are in bounds (the caller's contract).
    let v: [__m128i; A] =
        core::array::from_fn(|x| unsafe { _mm_loadu_si128(rows[x].as_ptr().add(y).cast()) });
    for (j, masks) in masks.iter().enumerate() {
        let run = shuffled_or(&v, masks);
        // SAFETY: vector `j` of the chunk, bytes `y·A + 16·j ..+ 16`, is in bounds of `out`
        // (the caller's contract).
        unsafe { _mm_storeu_si128(out.as_mut_ptr().add(y * A + 16 * j).cast(), run) };
    }
}

/// The OR of each vector of `v` shuffled by its mask of `masks` (`vpshufb`: a mask byte of
/// `0x80` gives zero), the one vector of [`zip_bytes_avx2`] and [`split_bytes_avx2`] that
/// gathers bytes from many.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
fn shuffled_or<const K: usize>(
    v: &[core::arch::x86_64::__m128i; K],
    masks: &[[u8; 16]; K],
) -> core::arch::x86_64::__m128i {
    use core::arch::x86_64::{_mm_loadu_si128, _mm_or_si128, _mm_setzero_si128, _mm_shuffle_epi8};
    let mut out = _mm_setzero_si128();
    for (v, m) in v.iter().zip(masks) {
        // SAFETY: `m` is 16 readable bytes.
        let m = unsafe { _mm_loadu_si128(m.as_ptr().cast()) };
        out = _mm_or_si128(out, _mm_shuffle_epi8(*v, m));
    }
    out
}

/// [`interleave_rows`]'s chunks below `whole` through fixed-size arrays.
#[inline(always)]
fn interleave_chunks<W: Word<N>, const N: usize, const A: usize>(
    out: &mut [[u8; N]],
    rows: [&[[u8; N]]; A],
    whole: usize,
) {
    for y in (0..whole).step_by(ANY_CHUNK) {
        let mut group = [[W::default(); A]; ANY_CHUNK];
        for (x, row) in rows.iter().enumerate() {
            let row: &[[u8; N]; ANY_CHUNK] = row[y..y + ANY_CHUNK].try_into().expect("a chunk");
            for (g, slot) in group.iter_mut().zip(row) {
                g[x] = W::get(*slot);
            }
        }
        for (o, g) in out[y * A..(y + ANY_CHUNK) * A]
            .iter_mut()
            .zip(group.as_flattened())
        {
            *o = g.put();
        }
    }
}

/// `reps` times: one source run split into `B` destination rows of `at.len` slots, for `B`
/// from 3 to 15 but 4 and 8 (`NHWC` -> `NCHW`): the inverse of [`zip_any`], each row stored in
/// place or, when the copy streams, gathered and streamed out. Measured (64 MiB, against
/// memcpy): `f32[112,224,224,3]` `{3,2,1,0}` -> `{2,1,3,0}` 0.13 -> 0.61, u8 0.11 -> 0.23 (and
/// with [`split_bytes_avx2`] 0.77).
#[inline(never)]
fn unzip_any<W: Word<N>, const N: usize, const B: usize>(
    dst: &mut [[u8; N]],
    src: &[[u8; N]],
    at: Blocks,
    scratch: &mut Scratch,
) {
    let len = at.len;
    // (A streamed copy's scratch is two pages: `ANY_RUN_BYTES`.)
    let buf = scratch.as_flattened_mut();
    for r in 0..at.reps {
        let (d0, s0) = (at.at.0 + r * at.step.0, at.at.1 + r * at.step.1);
        let from = &src[s0..s0 + B * len];
        if at.stream {
            let (rows, _) = buf[..B * len * N].as_chunks_mut::<N>();
            split_run::<W, N, B>(rows, len, len, from);
            for (x, row) in buf[..B * len * N].chunks_exact(len * N).enumerate() {
                let out = &mut dst[d0 + x * at.db..][..len];
                stream::copy(out.as_flattened_mut(), row);
            }
        } else {
            let rows = &mut dst[d0..];
            split_run::<W, N, B>(rows, at.db, len, from);
        }
    }
}

/// Slot `y · B + x` of `from` to `out[x · stride + y]` for `y < len`, [`ANY_CHUNK`] slots of
/// each row at a time (up to 8 rows with AVX2: [`split_bytes_avx2`]).
#[inline(always)]
#[allow(unsafe_code)]
fn split_run<W: Word<N>, const N: usize, const B: usize>(
    out: &mut [[u8; N]],
    stride: usize,
    len: usize,
    from: &[[u8; N]],
) {
    let whole = len / ANY_CHUNK * ANY_CHUNK;
    assert!(from.len() >= B * len && (B - 1) * stride + len <= out.len());
    // (Each vector out is `B` shuffles: past 8 rows, slower than moving the slots: bf16 with
    // 12 channels 0.40 -> 0.30-0.33 of memcpy.)
    #[cfg(target_arch = "x86_64")]
    if B <= 8 && super::avx2::available() {
        let (out, from) = (out.as_flattened_mut(), from.as_flattened());
        for y in (0..whole).step_by(ANY_CHUNK) {
            // SAFETY: the CPU has AVX2; the chunk's `B·N` vectors of `from` start at byte
            // `y·B·N`, `y + 16 <= whole <= len`, so they end within `B·len·N <= from.len()`
            // bytes; its row `x` of `out` is bytes `(x·stride + y)·N ..+ 16·N`, within
            // `((B - 1)·stride + len)·N <= out.len()` (asserted above, in slots).
            unsafe { split_bytes_avx2::<N, B>(out, stride * N, from, y * N) };
        }
    } else {
        split_chunks::<W, N, B>(out, stride, whole, from);
    }
    #[cfg(not(target_arch = "x86_64"))]
    split_chunks::<W, N, B>(out, stride, whole, from);
    for y in whole..len {
        for x in 0..B {
            out[x * stride + y] = from[y * B + x];
        }
    }
}

/// The masks of [`split_bytes_avx2`] for slots of `N` bytes: vector `p` of row `x` of a chunk
/// reads the `B` source vectors from vector `p·B` (its 16 bytes are slots `16/N` a vector,
/// whose `B` rows span exactly `16·B` bytes from there), mask `k` picking its byte `q` from
/// vector `k` where `((q / N)·B + x)·N + q % N` lies (`0x80`, zero, elsewhere): the same
/// masks for every `p`.
#[cfg(target_arch = "x86_64")]
const fn split_masks<const N: usize, const B: usize>() -> [[[u8; 16]; B]; B] {
    let mut m = [[[0x80u8; 16]; B]; B];
    let mut x = 0;
    while x < B {
        let mut q = 0;
        while q < 16 {
            let at = ((q / N) * B + x) * N + q % N;
            m[x][at / 16][q] = (at % 16) as u8;
            q += 1;
        }
        x += 1;
    }
    m
}

/// One chunk of [`split_run`] by byte shuffles: the `B·N` vectors from byte `y · B` of `from`
/// (`y` in bytes of a row, `16·N` of them) split into `B` rows of `N` vectors, row `x` at byte
/// `x · stride + y` of `out`, each vector the OR of `B` byte shuffles (`vpshufb`, masks made
/// at compile time). Measured (64 MiB, against memcpy): `u8[256,256,256,3]` `{3,2,1,0}` ->
/// `{2,1,3,0}` 0.20 -> 0.74-0.77 (numpy 0.21); `f32[112,224,224,3]` (moved as 4-byte slots
/// before) 0.55 -> 1.02-1.05, `f32[2396745,7]` transposed 0.28 -> 0.37-0.42.
///
/// # Safety
/// The CPU has AVX2; bytes `y·B .. y·B + 16·B·N` of `from` and `x·stride + y .. + 16·N` of
/// `out` (`x < B`) are in bounds.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn split_bytes_avx2<const N: usize, const B: usize>(
    out: &mut [u8],
    stride: usize,
    from: &[u8],
    y: usize,
) {
    use core::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_storeu_si128};
    let masks = const { split_masks::<N, B>() };
    for p in 0..N {
        // SAFETY: the `B` vectors from vector `p·B` lie within `from` (the caller's contract).
        let v: [__m128i; B] = core::array::from_fn(|k| unsafe {
            _mm_loadu_si128(from.as_ptr().add(y * B + 16 * (p * B + k)).cast())
        });
        for (x, masks) in masks.iter().enumerate() {
            let row = shuffled_or(&v, masks);
            // SAFETY: vector `p` of row `x` lies within `out` (the caller's contract).
            unsafe {
                _mm_storeu_si128(out.as_mut_ptr().add(x * stride + y + 16 * p).cast(), row);
            }
        }
    }
}

/// [`split_run`]'s chunks below `whole` through fixed-size arrays.
#[inline(always)]
fn split_chunks<W: Word<N>, const N: usize, const B: usize>(
    out: &mut [[u8; N]],
    stride: usize,
    whole: usize,
    from: &[[u8; N]],
) {
    for y in (0..whole).step_by(ANY_CHUNK) {
        let mut group = [[W::default(); ANY_CHUNK]; B];
        for (i, slots) in from[y * B..(y + ANY_CHUNK) * B].chunks_exact(B).enumerate() {
            for (g, slot) in group.iter_mut().zip(slots) {
                g[i] = W::get(*slot);
            }
        }
        for (x, g) in group.iter().enumerate() {
            let row: &mut [[u8; N]; ANY_CHUNK] = (&mut out[x * stride + y..][..ANY_CHUNK])
                .try_into()
                .expect("a chunk");
            for (o, w) in row.iter_mut().zip(g) {
                *o = w.put();
            }
        }
    }
}

/// A choice made by the group shape of a vector transpose of slots of `N` bytes
/// ([`for_group`]).
pub(crate) trait GroupShape<const N: usize> {
    type Out;
    /// The choice for groups of `M` rows (`M · N` = 16 bytes) and slots of `K × K`
    /// elements.
    fn at<const M: usize, const K: usize>() -> Self::Out;
}

/// `S::at` for the group shape of a vector transpose of slots of `N` bytes, each a block of
/// `inner × inner` elements (see `Form::Lanes`): one vector a row, so `16 / N` rows a group.
pub(crate) fn for_group<const N: usize, S: GroupShape<N>>(inner: usize) -> S::Out {
    match (N, inner) {
        (1, 2) => S::at::<16, 2>(),
        (1, _) => S::at::<16, 1>(),
        (2, 2) => S::at::<8, 2>(),
        (2, 4) => S::at::<8, 4>(),
        (2, _) => S::at::<8, 1>(),
        (4, 4) => S::at::<4, 4>(),
        (4, _) => S::at::<4, 1>(),
        (8, 2) => S::at::<2, 2>(),
        (8, 4) => S::at::<2, 4>(),
        (8, _) => S::at::<2, 1>(),
        (_, 2) => S::at::<1, 2>(),
        (_, 4) => S::at::<1, 4>(),
        _ => S::at::<1, 1>(),
    }
}

/// Picks [`lanes()`] for a group shape.
struct LanesFn;

impl<const N: usize> GroupShape<N> for LanesFn {
    type Out = BlockFn<N>;
    fn at<const M: usize, const K: usize>() -> BlockFn<N> {
        lanes::<N, M, K>
    }
}

/// The block kernel for `a × b` blocks: interleaving ones, or squarer blocks (`a` a power of
/// two up to 32, `b` one up to 16 or 3, 5, 6 or 7, `a · b · N` at most 256 bytes).
fn block_fn<W: Word<N>, const N: usize>(a: usize, b: usize, form: Form) -> BlockFn<N> {
    macro_rules! pick {
        ($($a:literal),*; $bs:tt) => {
            match a {
                $( $a => pick!(@b $a; $bs), )*
                _ => unreachable!("block sides are powers of two up to 32"),
            }
        };
        (@b $a:literal; [$($b:literal),*]) => {
            match b {
                $( $b => block::<W, N, $a, $b>, )*
                _ => unreachable!("source sides up to 16, powers of two or 3, 5, 6, 7"),
            }
        };
    }
    // The interleaves of rows that are not a power of two (see `nest::ANY_ROWS_BYTES`).
    macro_rules! any_rows {
        ($rows:expr, $f:ident) => {
            match $rows {
                3 => $f::<W, N, 3>,
                5 => $f::<W, N, 5>,
                6 => $f::<W, N, 6>,
                7 => $f::<W, N, 7>,
                9 => $f::<W, N, 9>,
                10 => $f::<W, N, 10>,
                11 => $f::<W, N, 11>,
                12 => $f::<W, N, 12>,
                13 => $f::<W, N, 13>,
                14 => $f::<W, N, 14>,
                15 => $f::<W, N, 15>,
                _ => unreachable!("interleaves of 3 to 15 rows but 4 and 8"),
            }
        };
    }
    match (form, a, b) {
        (Form::Zip, 2, _) => zip::<W, N, 2>,
        (Form::Zip, 4, _) => zip::<W, N, 4>,
        (Form::Zip, 8, _) => zip::<W, N, 8>,
        (Form::Zip, _, _) => any_rows!(a, zip_any),
        (Form::Unzip, _, 2) => unzip::<W, N, 2>,
        (Form::Unzip, _, 4) => unzip::<W, N, 4>,
        (Form::Unzip, _, 8) => unzip::<W, N, 8>,
        (Form::Unzip, _, _) => any_rows!(b, unzip_any),
        (Form::Lanes { inner, .. }, _, _) => for_group::<N, LanesFn>(inner),
        _ => pick!(1, 2, 4, 8, 16, 32; [1, 2, 3, 4, 5, 6, 7, 8, 16]),
    }
}

/// Copies the steps `slice` of `nest` (see [`Nest::walk_from`]) from `src` into `dst`, whose
/// first slot is the destination's slot `slice.origin`, with non-temporal stores if `stream`.
#[allow(private_bounds)]
pub(crate) fn copy<W: Word<N>, const N: usize>(
    nest: &Nest,
    dst: &mut [[u8; N]],
    src: &[[u8; N]],
    slice: &Slice,
    stream: bool,
) {
    match nest.kernel {
        Kernel::Element => nest.walk_from(slice, &mut |leaf: &Leaf<'_>| {
            for k in 0..leaf.n {
                let (d, s) = leaf.offsets(k);
                dst[d] = src[s];
            }
        }),
        Kernel::Run(run) if stream && !run.clip && run.size * N <= MAX_FIXED_RUN => {
            // Runs of a few lines at most (tile rows of 8-128 bytes) whose destination starts
            // 16-byte aligned, as every step of the leaf does: moves of a fixed size, streamed
            // straight from the registers 16 bytes at a time. Measured against gathering runs
            // shorter than a line into whole lines and streaming from there: u8 rows ->
            // `T(8,32)` 0.62-0.69 -> 0.82-0.90 of memcpy; against `stream::copy` per run, whose
            // length is not known: u8 `T(8,64)` -> rows 0.65-0.73 -> 1.29-1.41, back 0.8-0.94
            // -> 1.33-1.40, s4 `T(8,128)E(4)` -> rows 0.70-0.83 -> 1.47-1.54, u8 `T(8,128)` ->
            // rows 0.97-1.22 -> 1.42-1.60). Where the runs are not aligned, those shorter than
            // a line that follow each other in the destination are gathered into whole lines
            // (each line was read before it was written where they were copied one by one: u8
            // rows -> `T(8,32)` 0.36-0.42 -> 0.50-0.55).
            let mut lines = stream::Lines::<RUN_STAGE_LINES>::zeroed();
            let buf = lines.0.as_flattened_mut();
            let bytes = run.size * N;
            let per = buf.len() / bytes;
            let (out, from) = (dst.as_flattened_mut(), src.as_flattened());
            nest.walk_pairs_from(slice, &mut |leaf: &Leaf<'_>, inner: Option<&Loop>| {
                let runs = Runs::new(leaf, inner, N);
                if runs.count() == 0 {
                    return;
                }
                let contiguous = runs.contiguous(bytes);
                let tiles = buf.len() / runs.inner.2.max(1);
                if bytes < LINE && runs.by_tiles(bytes, out) && tiles * bytes >= STAGED_ROW {
                    return stage_tiles(out, from, buf, &runs, bytes);
                }
                if bytes == 8 && contiguous && runs.pairs_aligned(out) {
                    // (A chunk holds at least one tile: `buf` a tile's rows or more.)
                    if runs.by_rows(bytes) && runs.inner.0 * bytes <= buf.len() {
                        return stage_rows(out, from, buf, &runs);
                    }
                    return stream_pairs(out, from, &runs);
                }
                // Runs that follow each other need only start on a vector (each line is
                // finished by the next stores); runs apart, on a line and of whole lines.
                let to = if contiguous { lanes::BYTES } else { LINE };
                if runs.aligned(out, to)
                    && (contiguous || bytes.is_multiple_of(LINE))
                    && stream_fixed(out, from, &runs, bytes)
                {
                    return;
                }
                if !contiguous || bytes >= LINE {
                    runs.each(|d, s| {
                        let (d, s) = (&mut out[d..][..bytes], &from[s..][..bytes]);
                        if bytes >= LINE {
                            stream::copy(d, s);
                        } else {
                            d.copy_from_slice(s);
                        }
                    });
                    return;
                }
                let out = &mut out[runs.at.0..][..runs.count() * bytes];
                let (mut filled, mut done) = (0, 0);
                runs.each(|_, s| {
                    buf[filled * bytes..][..bytes].copy_from_slice(&from[s..][..bytes]);
                    filled += 1;
                    if filled == per {
                        stream::copy(&mut out[done..][..filled * bytes], &buf[..filled * bytes]);
                        done += filled * bytes;
                        filled = 0;
                    }
                });
                stream::copy(&mut out[done..], &buf[..filled * bytes]);
            });
        }
        Kernel::Run(run) if !stream && !run.clip && run.size * N <= MAX_FIXED_RUN => {
            // Moves of a fixed size, not calls into `memcpy` (measured in cache, a leaf at a
            // time: s4 rows <-> `T(8,128)E(4)`, 128 KiB, 11.0 -> 25.5 GB/s; u8 rows ->
            // `T(8,32)` 6.3 -> 15.5; u8 rows -> `T(8,128)`, 2 MiB, 23 -> 40).
            let (out, from) = (dst.as_flattened_mut(), src.as_flattened());
            let bytes = run.size * N;
            nest.walk_pairs_from(slice, &mut |leaf: &Leaf<'_>, inner: Option<&Loop>| {
                let runs = Runs::new(leaf, inner, N);
                match bytes {
                    8 => copy_each::<8>(out, from, &runs),
                    16 => copy_each::<16>(out, from, &runs),
                    32 => copy_each::<32>(out, from, &runs),
                    64 => copy_each::<64>(out, from, &runs),
                    128 => copy_each::<128>(out, from, &runs),
                    _ => runs.each(|d, s| out[d..][..bytes].copy_from_slice(&from[s..][..bytes])),
                }
            });
        }
        Kernel::Run(run) => nest.walk_from(slice, &mut |leaf: &Leaf<'_>| {
            for k in 0..leaf.n {
                let len = nest.count(&run, Nest::at_step(leaf, run.dim, k));
                let (d, s) = leaf.offsets(k);
                let (d, s) = (&mut dst[d..d + len], &src[s..s + len]);
                if stream {
                    stream::copy(d.as_flattened_mut(), s.as_flattened());
                } else {
                    d.copy_from_slice(s);
                }
            }
        }),
        Kernel::Block { a, b, form } => {
            let kernel = block_fn::<W, N>(a.size, b.size, form);
            let ([wa, wb], inner_k) = match form {
                Form::Lanes { wide, inner } => (wide, inner),
                _ => ([ONCE; 2], 1),
            };
            let mut lines = [[0u8; LINE]; 0];
            let mut full;
            // A panel (see `stream::PANEL_BYTES`): a page of lines and the panel's stage.
            let panel = matches!(form, Form::Lanes { .. })
                && a.size * wa.size * b.size * wb.size * N > stream::PAGE;
            // Panels streamed into destination rows that are not whole lines apart carry their
            // partial lines from block to block (`carry`, which has the measurements), a slot
            // a destination row. Not where only the destination starts off a line (16 bytes
            // past one: f32 and u8 `[4096,4096]`/`[8192,8192]` transposed lost 2-5%).
            let pitch = b.dst * N;
            let carried = cfg!(target_arch = "x86_64")
                && panel
                && stream
                && pitch > 0
                && !(pitch.is_multiple_of(LINE) && (wb.dst * N).is_multiple_of(LINE));
            let scratch: &mut Scratch = if carried {
                full = stream::Staging::lines(
                    CARRY_AT + carry::lines_for(size_of_val(dst) / pitch + 1),
                );
                full.get()
            } else if panel || stream || size_of_val(src) >= STAGED_BYTES {
                full = stream::Staging::new(panel);
                full.get()
            } else {
                &mut lines
            };
            let ahead = match nest.outer.len() {
                n if n >= 2 => nest.outer[n - 2].src,
                _ => 0,
            };
            let blocks = |at: (usize, usize), reps: usize, step: (usize, usize)| Blocks {
                at,
                db: b.dst,
                sa: a.src,
                reps,
                step,
                ahead,
                stream,
                #[cfg(target_arch = "x86_64")]
                carried,
                len: match form {
                    Form::Zip => b.size,
                    Form::Unzip => a.size,
                    Form::Square | Form::Lanes { .. } => 0,
                },
                sides: (a.size * wa.size, b.size * wb.size),
                wide: Wide {
                    a_lo: a.size,
                    sa_hi: wa.src,
                    b_lo: b.size,
                    db_hi: wb.dst,
                },
            };
            let mut run = |leaf: &Leaf<'_>, inner: Option<&Loop>| match inner {
                // Each step of the leaf runs the innermost loop whole, and its blocks whole.
                Some(i) => {
                    for j in 0..leaf.n {
                        kernel(
                            dst,
                            src,
                            blocks(leaf.offsets(j), i.size, (i.dst, i.src)),
                            scratch,
                        );
                    }
                }
                None => {
                    let whole = nest.whole_steps(leaf, &[a, b, wa, wb]);
                    let step = (leaf.step.dst, leaf.step.src);
                    kernel(dst, src, blocks(leaf.at, whole, step), scratch);
                    for k in whole..leaf.n {
                        // Slots as they are in a closure of their own, which inlines into the
                        // loop (with the slot transpose it was a call per slot:
                        // `f32[4099,4093]` transposed, a third of the time of its whole blocks).
                        let (stage, _) = scratch.as_flattened_mut().as_chunks_mut::<N>();
                        let loops = [a, b, wa, wb];
                        if inner_k == 1 {
                            let tr = None::<fn([u8; N]) -> [u8; N]>;
                            edge_staged(nest, leaf, k, loops, (dst, src), stage, tr);
                        } else {
                            let tr = |s| transpose_slot(s, inner_k);
                            edge_staged(nest, leaf, k, loops, (dst, src), stage, Some(tr));
                        }
                    }
                }
            };
            // Interleaves whose blocks never clip take the leaves of the loops around the
            // innermost in one walk, each a row of leaves (the walk per leaf had cost as much
            // as a short leaf's copy: sub-tiles of rows a few tiles long). Measured in cache,
            // hot, against the walk per leaf: bf16[2048,256] rows -> `T(8,128)(2,1)` 33 -> 49
            // GB/s, s8[4096,256] `(4,1)` 37 -> 54, f32 `(2,1)` 47 -> 55; 64 MiB,
            // bf16[131072,256] 0.48 -> 0.80 of memcpy, bf16[65536,512] 0.54 -> 0.67 (transposes
            // measured even).
            let clips = [a, b, wa, wb].iter().any(|l| l.clip);
            if matches!(form, Form::Zip | Form::Unzip) && !clips {
                nest.walk_pairs_from(slice, &mut run);
            } else {
                nest.walk_from(slice, &mut |leaf: &Leaf<'_>| run(leaf, None));
            }
            if carried && let Some(mut carry) = scratch.get_mut(CARRY_AT..).and_then(Carry::new) {
                carry.flush(dst.as_flattened_mut());
            }
        }
    }
}

/// `slot` as a `k × k` block of elements, transposed ([`lanes::transpose_block`]).
pub(crate) fn transpose_slot<const N: usize>(slot: [u8; N], k: usize) -> [u8; N] {
    let mut out = slot;
    if k > 1 {
        lanes::transpose_block(&mut out, &slot, k);
    }
    out
}

/// Lines of the scratch of streamed copies of runs (tile rows), in which tiles are staged to
/// be written out as rows ([`stage_tiles`]) and runs gathered into whole lines: 32 KiB, so
/// that each destination row of a chunk of `T(8,32)` tiles of bytes gets 1 KiB, not 256 bytes
/// (measured, 64 MiB, against memcpy, medians of three alternating runs: u8 `T(8,32)` -> rows
/// 0.76 -> 0.86, bf16 `T(8,16)` -> rows 0.67 -> 1.03, u8 `T(8,64)` -> rows 1.29 -> 1.36).
const RUN_STAGE_LINES: usize = 512;

/// The least a row of tiles staged for [`Runs::by_tiles`] writes: a few lines, not the
/// line or two of a chunk of long source rows (rows to tiles, whose runs stream in order).
const STAGED_ROW: usize = 4 * LINE;

/// The longest run, in bytes, that copies move as a fixed-size array.
const MAX_FIXED_RUN: usize = 2 * LINE;

/// Runs of the run kernel, or blocks of the `E(4)` kernels (`bits`), by their offsets in
/// bytes: `outer.0` steps `(outer.1, outer.2)` apart (destination, source), each of
/// `inner.0` steps `(inner.1, inner.2)` apart, from `at`.
#[derive(Clone, Copy)]
pub(crate) struct Runs {
    pub(crate) at: (usize, usize),
    pub(crate) outer: (usize, usize, usize),
    pub(crate) inner: (usize, usize, usize),
}

impl Runs {
    /// `n` steps `dst` and `src` bytes apart, from `(0, 0)`.
    pub(crate) const fn row(n: usize, dst: usize, src: usize) -> Runs {
        Runs {
            at: (0, 0),
            outer: (1, 0, 0),
            inner: (n, dst, src),
        }
    }

    /// The runs of `leaf` (slots of `n` bytes), and of the innermost loop `inner` at each of
    /// its steps if there is one (see [`Nest::walk_pairs_from`]).
    fn new(leaf: &Leaf<'_>, inner: Option<&Loop>, n: usize) -> Runs {
        let step = |count: usize, l: &Loop| (count, l.dst * n, l.src * n);
        let (outer, inner) = match inner {
            Some(i) => (step(leaf.n, &leaf.step), step(i.size, i)),
            None => ((1, 0, 0), step(leaf.n, &leaf.step)),
        };
        Runs {
            at: (leaf.at.0 * n, leaf.at.1 * n),
            outer,
            inner,
        }
    }

    pub(crate) fn count(&self) -> usize {
        self.outer.0 * self.inner.0
    }

    /// The offsets of the last step, the largest on both sides (no step is negative); `at` if
    /// there is none.
    pub(crate) fn last(&self) -> (usize, usize) {
        let (j, k) = (
            self.outer.0.saturating_sub(1),
            self.inner.0.saturating_sub(1),
        );
        (
            self.at.0 + j * self.outer.1 + k * self.inner.1,
            self.at.1 + j * self.outer.2 + k * self.inner.2,
        )
    }

    /// Whether every step moves the destination by a multiple of `k` bytes.
    pub(crate) fn dst_steps_multiple_of(&self, k: usize) -> bool {
        self.inner.1.is_multiple_of(k) && (self.outer.0 <= 1 || self.outer.1.is_multiple_of(k))
    }

    /// Whether each run of `bytes` bytes starts where the one before ends in the destination.
    fn contiguous(&self, bytes: usize) -> bool {
        self.inner.1 == bytes && (self.outer.0 <= 1 || self.outer.1 == self.inner.0 * bytes)
    }

    /// Whether every run starts `to`-byte aligned in `dst`.
    fn aligned(&self, dst: &[u8], to: usize) -> bool {
        dst.as_ptr().wrapping_add(self.at.0).align_offset(to) == 0 && self.dst_steps_multiple_of(to)
    }

    /// Whether the runs are the rows of tiles, each tile whole in the source (the steps of
    /// the outer loop the rows of a tile, one after the other; the inner loop's the tiles)
    /// and its rows apart in the destination, where each row of tiles follows each other
    /// and starts 16-byte aligned, as every run does (or every pair of 8-byte runs).
    fn by_tiles(&self, bytes: usize, dst: &[u8]) -> bool {
        self.outer.0 > 1
            && self.outer.2 == bytes
            && self.inner.2 == self.outer.0 * bytes
            && self.inner.1 == bytes
            && (bytes == 8 || bytes.is_multiple_of(lanes::BYTES))
            && dst
                .as_ptr()
                .wrapping_add(self.at.0)
                .align_offset(lanes::BYTES)
                == 0
            && self.outer.1.is_multiple_of(lanes::BYTES)
    }

    /// Whether the runs are the rows of tiles taken from rows of the source: the outer loop's
    /// steps the tiles, one after the other along each source row, the inner loop's the rows
    /// of a tile.
    fn by_rows(&self, bytes: usize) -> bool {
        self.outer.0 > 1 && self.outer.2 == bytes && self.inner.1 == bytes && self.inner.0 > 1
    }

    /// Whether the runs are 8 bytes that follow each other along the inner loop and each
    /// inner loop starts 16-byte aligned in `dst` (for [`stream_pairs`]).
    fn pairs_aligned(&self, dst: &[u8]) -> bool {
        self.inner.1 == 8
            && dst
                .as_ptr()
                .wrapping_add(self.at.0)
                .align_offset(lanes::BYTES)
                == 0
            && (self.outer.0 <= 1 || self.outer.1.is_multiple_of(lanes::BYTES))
    }

    /// The offsets of every step, in order.
    pub(crate) fn offsets(&self) -> impl Iterator<Item = (usize, usize)> {
        let Runs { at, outer, inner } = *self;
        (0..outer.0).flat_map(move |j| {
            let (d, s) = (at.0 + j * outer.1, at.1 + j * outer.2);
            (0..inner.0).map(move |k| (d + k * inner.1, s + k * inner.2))
        })
    }

    /// `f(d, s)` for the offsets of every step, in order (a fold over [`Self::offsets`]: two
    /// plain loops).
    #[inline(always)]
    pub(crate) fn each(&self, mut f: impl FnMut(usize, usize)) {
        self.offsets().for_each(|(d, s)| f(d, s));
    }
}

/// Streams `runs` of `bytes` bytes as fixed-size moves ([`stream_each`], [`stream_pairs`]
/// for 8 bytes whose inner steps follow each other), if `bytes` is one of their sizes; `false`
/// (nothing done) otherwise.
#[inline(always)]
fn stream_fixed(dst: &mut [u8], src: &[u8], runs: &Runs, bytes: usize) -> bool {
    match bytes {
        8 if runs.inner.1 == 8 => stream_pairs(dst, src, runs),
        16 => stream_each::<16>(dst, src, runs),
        32 => stream_each::<32>(dst, src, runs),
        48 => stream_each::<48>(dst, src, runs),
        64 => stream_each::<64>(dst, src, runs),
        128 => stream_each::<128>(dst, src, runs),
        _ => return false,
    }
    true
}

/// Tile rows to rows ([`Runs::by_tiles`]): the tiles of a chunk copied whole into `buf` (the
/// source in order), the runs streamed from there, each row of the chunk whole lines, where
/// each of a tile's rows was read on its own pass over the tiles of a band (measured u8
/// `T(8,32)` -> rows 0.59-0.62 -> 0.80-1.02 of memcpy, `T(8,8)` -> rows 0.20-0.23 ->
/// 0.74-0.75, f32 `T(8,2)` -> rows 0.20-0.24 -> 0.74-0.78; `T(8,16)` unchanged, 0.6-0.7).
fn stage_tiles(out: &mut [u8], from: &[u8], buf: &mut [u8], runs: &Runs, bytes: usize) {
    let tiles = buf.len() / runs.inner.2;
    for k in (0..runs.inner.0).step_by(tiles) {
        let n = tiles.min(runs.inner.0 - k);
        let stage = &mut buf[..n * runs.inner.2];
        stage.copy_from_slice(&from[runs.at.1 + k * runs.inner.2..][..stage.len()]);
        let chunk = Runs {
            at: (runs.at.0 + k * runs.inner.1, 0),
            inner: (n, runs.inner.1, runs.inner.2),
            ..*runs
        };
        if !stream_fixed(out, stage, &chunk, bytes) {
            chunk.each(|d, s| out[d..][..bytes].copy_from_slice(&stage[s..][..bytes]));
        }
    }
}

/// Rows to tiles of 8-byte rows ([`Runs::by_rows`], a tile's rows fitting `buf`): a tile's
/// rows are a row stride apart in the source (often a multiple of 4 KiB: one L1 set, which
/// holds 8 of them), and each of their lines was read again for every 8 bytes; a chunk of
/// each row is copied into `buf` first (measured u8 rows -> `T(8,8)` 0.15-0.21 -> 0.48-0.51
/// of memcpy, f32 -> `T(8,2)` 0.16-0.21 -> 0.49-0.53).
fn stage_rows(out: &mut [u8], from: &[u8], buf: &mut [u8], runs: &Runs) {
    const BYTES: usize = 8;
    let rows = runs.inner.0;
    let tiles = buf.len() / (rows * BYTES);
    for j in (0..runs.outer.0).step_by(tiles) {
        let n = tiles.min(runs.outer.0 - j);
        let piece = n * BYTES;
        for k in 0..rows {
            let s = runs.at.1 + j * runs.outer.2 + k * runs.inner.2;
            buf[k * piece..][..piece].copy_from_slice(&from[s..][..piece]);
        }
        let chunk = Runs {
            at: (runs.at.0 + j * runs.outer.1, 0),
            outer: (n, runs.outer.1, runs.outer.2),
            inner: (rows, runs.inner.1, piece),
        };
        stream_pairs(out, &buf[..rows * piece], &chunk);
    }
}

/// How far ahead along each source row [`stream_each`] prefetches where its runs are shorter
/// than a line and come from rows a page or more apart (tile rows from rows: a few bytes of
/// each of 8 rows in turn). Measured reading 64 bytes of each of 8 rows 8 KiB apart in turn:
/// 11-14 GB/s, with each row prefetched 1 KiB ahead 18-21; the library's rows -> tiles, 64
/// MiB, against memcpy (medians of three or four alternating runs): u8 `T(8,32)` 0.55 -> 0.78,
/// `u8[4096,16384]` 0.71 -> 1.00, u8 `T(8,16)` 0.55 -> 0.77, bf16 `T(8,16)` 0.85 -> 1.33; runs of
/// a whole line (f32 `T(8,16)`) lost 0.98 -> 0.90 and are not prefetched. The streamed
/// sub-tile interleaves (`zip_avx2` and `bits::zip_nibbles_avx2` for `E(4)` fields, of any
/// rows) fetch each row as far ahead: s8 rows -> `T(32,128)(4,1)` 0.89 -> 0.94, bf16
/// `T(8,128)(2,1)` 0.83 -> 0.92, u8 `(8,1)` 0.91 -> 0.94, s4 `T(8,128)(2,1)E(4)` 0.63 -> 0.69,
/// `(4,1)E(4)` 0.92 -> 0.97 (2 and 4 KiB ahead measured no better).
pub(crate) const FETCH_AHEAD: usize = 1024;

/// Copies `runs` of `B` bytes, 16 bytes at a time, with non-temporal stores where they are
/// 16-byte aligned (call `stream::fence` after the last one); `B` a multiple of 16.
#[inline(always)]
fn stream_each<const B: usize>(dst: &mut [u8], src: &[u8], runs: &Runs) {
    let run = |to: &mut [u8; B], s: usize| {
        let (vs, _) = src[s..][..B].as_chunks::<{ lanes::BYTES }>();
        for (o, v) in to.as_chunks_mut::<{ lanes::BYTES }>().0.iter_mut().zip(vs) {
            lanes::stream(lanes::load(v), o, 0);
        }
    };
    let Runs { at, outer, inner } = *runs;
    if inner.1 == B {
        // One after the other along the inner loop: its destination as chunks, checked once
        // a step of the outer loop.
        let fetch = B < LINE && inner.2 >= stream::PAGE;
        for j in 0..outer.0 {
            let (d, s) = (at.0 + j * outer.1, at.1 + j * outer.2);
            let (out, _) = dst[d..][..inner.0 * B].as_chunks_mut::<B>();
            for (k, to) in out.iter_mut().enumerate() {
                if fetch {
                    stream::prefetch(src, s + k * inner.2 + FETCH_AHEAD);
                }
                run(to, s + k * inner.2);
            }
        }
        return;
    }
    runs.each(|d, s| run((&mut dst[d..][..B]).try_into().expect("B bytes"), s));
}

/// Copies `runs` of 8 bytes whose inner steps follow each other in `dst`, two runs a 16-byte
/// vector, with non-temporal stores where they are 16-byte aligned (call `stream::fence`
/// after the last one); an odd run out at the end of an inner loop is copied.
#[inline(always)]
fn stream_pairs(dst: &mut [u8], src: &[u8], runs: &Runs) {
    let Runs { at, outer, inner } = *runs;
    debug_assert!(inner.1 == 8);
    let run = |s: usize| -> &[u8; 8] { src[s..][..8].try_into().expect("8 bytes") };
    for j in 0..outer.0 {
        let (d, s) = (at.0 + j * outer.1, at.1 + j * outer.2);
        let (pairs, tail) = dst[d..][..8 * inner.0].as_chunks_mut::<{ lanes::BYTES }>();
        for (k, pair) in pairs.iter_mut().enumerate() {
            let s = s + 2 * k * inner.2;
            // Two halves in one register, not through memory (two 8-byte stores read back
            // as one 16-byte load stall their forwarding).
            lanes::stream(lanes::halves(run(s), run(s + inner.2)), pair, 0);
        }
        if !tail.is_empty() {
            tail.copy_from_slice(run(s + 2 * pairs.len() * inner.2));
        }
    }
}

/// Copies `runs` of `B` bytes.
#[inline(always)]
fn copy_each<const B: usize>(dst: &mut [u8], src: &[u8], runs: &Runs) {
    runs.each(|d, s| {
        let to: &mut [u8; B] = (&mut dst[d..][..B]).try_into().expect("B bytes");
        *to = src[s..][..B].try_into().expect("B bytes");
    });
}

/// The slots of the block at step `k` of a leaf's loop that lie inside the array, each as
/// `copy(destination, source)`; `wide` the loops that widen a vector block's sides (never
/// with a clipped loop: see `nest::widen`).
pub(crate) fn edge(
    nest: &Nest,
    leaf: &Leaf<'_>,
    k: usize,
    [a, b, wa, wb]: [Loop; 4],
    copy: &mut impl FnMut(usize, usize),
) {
    let (d, s) = leaf.offsets(k);
    for p in 0..wa.size {
        for q in 0..wb.size {
            let at = (d + p * wa.dst + q * wb.dst, s + p * wa.src + q * wb.src);
            edge_block(nest, leaf, k, at, [a, b], copy);
        }
    }
}

/// [`edge`] for slots of whole bytes, each slot passed through `tr` (the transpose of its
/// `k × k` block of elements, or nothing): a clipped block whose slots fit `stage` is read a
/// source row at a time into it, then written a destination row at a time from it; else slot
/// by slot in the destination's order ([`edge_block`]). A transpose's edge block in place
/// read a slot of each of its source rows in turn, rows whose lines an L1 set could not all
/// hold (rows a page apart, or a few bytes off one): measured (64 MiB, best of five, three alternating runs, 2-core AMD EPYC
/// VM) `u8[8191,8192]` rows -> `{0,1:T(8192)}`, whose edge blocks are 127 rows of 256, 7.6-7.9
/// -> 8.6-9.7 GB/s (`u8[8192,8192]`, no edge: 11.9-12.8), `u8[8192,8191]` `{1,0:T(8192)}` ->
/// `{0,1}` 6.8-7.2 -> 7.7-7.8, `u8[8191,8193]` transposed 3.38 -> 3.57; in cache (1 MiB)
/// unchanged.
pub(crate) fn edge_staged<const N: usize>(
    nest: &Nest,
    leaf: &Leaf<'_>,
    k: usize,
    [a, b, wa, wb]: [Loop; 4],
    (dst, src): (&mut [[u8; N]], &[[u8; N]]),
    stage: &mut [[u8; N]],
    tr: Option<impl Fn([u8; N]) -> [u8; N]>,
) {
    let (d, s) = leaf.offsets(k);
    // The same sides for every widened sub-block. (A block of `Form::Lanes` steps its source
    // rows along `a` and its destination rows along `b`.)
    let rows = a.src >= b.src && a.dst <= b.dst;
    let sides = prefixes(nest, leaf, k, [a, b]).filter(|&(x, y)| rows && x * y <= stage.len());
    for p in 0..wa.size {
        for q in 0..wb.size {
            let at = (d + p * wa.dst + q * wb.dst, s + p * wa.src + q * wb.src);
            match sides {
                Some((x, y)) => {
                    let stage = &mut stage[..x * y];
                    staged_block((dst, src), at, [a, b], (x, y), stage, tr.as_ref());
                }
                None => edge_block(nest, leaf, k, at, [a, b], &mut |d, s| {
                    dst[d] = tr.as_ref().map_or(src[s], |tr| tr(src[s]));
                }),
            }
        }
    }
}

/// The steps of loops `a` and `b` of the block at step `k` of a leaf's loop that lie inside
/// the array, where each is a prefix of its loop (not where both step the same dim, whose
/// slots inside are bounded by the sum of both steps).
pub(crate) fn prefixes(
    nest: &Nest,
    leaf: &Leaf<'_>,
    k: usize,
    [a, b]: [Loop; 2],
) -> Option<(usize, usize)> {
    if a.clip && b.clip && a.dim == b.dim {
        return None;
    }
    let inside = |l: &Loop| {
        if l.clip {
            let room = nest.bounds[l.dim].saturating_sub(Nest::at_step(leaf, l.dim, k));
            l.size.min(room.div_ceil(l.mult))
        } else {
            l.size
        }
    };
    Some((inside(&a), inside(&b)))
}

/// The `x × y` slots of steps `0..x` of `a` (the source's rows) and `0..y` of `b` (the
/// destination's) from `(d0, s0)`, read a source row at a time into `stage` (slot `(p, q)`
/// at `p · y + q`), then written a destination row at a time, each through `tr` if any.
/// Without `tr`, where the destination's rows are runs of slots (`a.dst` = 1) of 1 to 8
/// bytes, the squares of `M × M` slots (`M · N` = 16 bytes) that the block holds whole go
/// as vectors ([`staged_square`]), the rest a slot at a time (which had taken a tenth of
/// the time of `u8[8191,8193]` transposed, whose edges are 127 source rows of 256 slots and
/// 128 of one). Measured (64 MiB, best of 7, three alternating runs): that transpose
/// 6.6 -> 7.1-7.3 GB/s (edges not copied at all: 7.0-7.6), `bf16[50257,768]` 5.4-6.5 ->
/// 6.7-6.8, `f32[4099,4093]` 7.2-7.4 -> 7.1-7.9.
#[inline(always)]
fn staged_block<const N: usize>(
    (dst, src): (&mut [[u8; N]], &[[u8; N]]),
    (d0, s0): (usize, usize),
    [a, b]: [Loop; 2],
    (x, y): (usize, usize),
    stage: &mut [[u8; N]],
    tr: Option<&impl Fn([u8; N]) -> [u8; N]>,
) {
    if x * y == 0 {
        return;
    }
    for (p, row) in stage.chunks_exact_mut(y).enumerate() {
        let at = s0 + p * a.src;
        if b.src == 1 {
            row.copy_from_slice(&src[at..at + y]);
        } else {
            for (q, slot) in row.iter_mut().enumerate() {
                *slot = src[at + q * b.src];
            }
        }
    }
    let Some(tr) = tr else {
        let side = 16 / N;
        // The squares' rows and columns (none where they do not apply), the slots past them a
        // slot at a time below.
        let (xs, ys) = if a.dst == 1 && N <= 8 {
            (x / side * side, y / side * side)
        } else {
            (0, 0)
        };
        let (to, from) = (dst.as_flattened_mut(), stage.as_flattened());
        for p0 in (0..xs).step_by(side) {
            for q0 in (0..ys).step_by(side) {
                let out = ((d0 + p0 + q0 * b.dst) * N, b.dst * N);
                let at = ((p0 * y + q0) * N, y * N);
                match N {
                    1 => staged_square::<1, 16>(to, out, from, at),
                    2 => staged_square::<2, 8>(to, out, from, at),
                    4 => staged_square::<4, 4>(to, out, from, at),
                    _ => staged_square::<8, 2>(to, out, from, at),
                }
            }
        }
        for q in 0..y {
            let first = if q < ys { xs } else { 0 };
            for p in first..x {
                dst[d0 + p * a.dst + q * b.dst] = stage[p * y + q];
            }
        }
        return;
    };
    for q in 0..y {
        for p in 0..x {
            dst[d0 + p * a.dst + q * b.dst] = tr(stage[p * y + q]);
        }
    }
}

/// The `M × M` slots of `N` bytes (`M · N` = 16) of `stage` from byte `from`, rows `pitch`
/// bytes apart, transposed into `dst` from byte `at`, rows `stride` bytes apart: a vector a
/// row, `log2 M` rounds of [`lanes::shuffle`].
#[inline(always)]
fn staged_square<const N: usize, const M: usize>(
    dst: &mut [u8],
    (at, stride): (usize, usize),
    stage: &[u8],
    (from, pitch): (usize, usize),
) {
    let mut v: [lanes::V; M] = core::array::from_fn(|i| lanes::at(stage, from + i * pitch));
    lanes::shuffle::<N, M>(&mut v, lanes::log2(M));
    for (i, v) in v.into_iter().enumerate() {
        lanes::put(v, dst, at + i * stride);
    }
}

/// `copy(d, s)` for every slot inside the array of the block at step `k` of a leaf whose
/// loops `a` and `b` clip (from offsets `(d0, s0)`), a slot at a time.
fn edge_block(
    nest: &Nest,
    leaf: &Leaf<'_>,
    k: usize,
    (d0, s0): (usize, usize),
    [a, b]: [Loop; 2],
    copy: &mut impl FnMut(usize, usize),
) {
    let at = |l: &Loop| Nest::at_step(leaf, l.dim, k);
    if a.clip && b.clip && a.dim == b.dim {
        // Both sides step one dimension: a slot is inside by the sum of both steps.
        let end = nest.bounds[a.dim];
        for x in 0..a.size {
            for y in 0..b.size {
                if at(&a) + x * a.mult + y * b.mult < end {
                    copy(d0 + x * a.dst + y * b.dst, s0 + x * a.src + y * b.src);
                }
            }
        }
        return;
    }
    // Otherwise each side's steps inside are a prefix of its loop.
    let Some((xa, yb)) = prefixes(nest, leaf, k, [a, b]) else {
        unreachable!("`prefixes` is `None` only where both loops step one dim, handled above")
    };
    // The destination in order along the inner loop where it can be: stores to one row, not
    // a slot of each of `b` rows (measured, 64 MiB, medians of three alternating runs:
    // `u8[8191,8193]` transposed, whose edge blocks are 127 rows of 256, 0.24 -> 0.32 of
    // memcpy).
    let ((outer, n), (inner, m)) = if a.dst < b.dst {
        ((b, yb), (a, xa))
    } else {
        ((a, xa), (b, yb))
    };
    for x in 0..n {
        for y in 0..m {
            copy(
                d0 + x * outer.dst + y * inner.dst,
                s0 + x * outer.src + y * inner.src,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// Splits `B`-slot groups of `src` into `B` rows at `stride` bytes apart in a buffer that
    /// starts on a line: by brute force, then by each kernel; all must agree.
    #[allow(unsafe_code)]
    fn check_split<W: Word<N>, const N: usize, const B: usize>(
        src: &[u8],
        len: usize,
        gap: usize,
    ) -> Result<(), TestCaseError> {
        let from: Vec<[[u8; N]; B]> = src[..B * len * N]
            .as_chunks::<N>()
            .0
            .as_chunks::<B>()
            .0
            .to_vec();
        let stride = len * N + 32 * gap;
        let expected: Vec<Vec<[u8; N]>> = (0..B)
            .map(|y| from.iter().map(|group| group[y]).collect())
            .collect();
        let rows = |out: &[u8]| -> Vec<Vec<[u8; N]>> {
            (0..B)
                .map(|y| out[y * stride..][..len * N].as_chunks::<N>().0.to_vec())
                .collect()
        };
        let mut out = vec![[0u8; N]; B * stride / N];
        {
            let mut rest = out.as_mut_slice();
            let to: [&mut [[u8; N]]; B] = core::array::from_fn(|_| {
                let (row, tail) = core::mem::take(&mut rest).split_at_mut(stride / N);
                rest = tail;
                &mut row[..len]
            });
            split_groups::<W, N, B>(&from, to);
        }
        prop_assert_eq!(
            rows(out.as_flattened()),
            expected.clone(),
            "16-byte vectors"
        );
        #[cfg(target_arch = "x86_64")]
        if (len * N).is_multiple_of(32) && super::super::avx2::available() {
            let mut buf = vec![0u8; B * stride + LINE];
            let at = buf.as_ptr().align_offset(LINE);
            let out = &mut buf[at..at + B * stride];
            let from = from.as_flattened().as_flattened();
            // SAFETY: the CPU has AVX2 (checked); the rows start on lines (`stride` is a
            // multiple of 32).
            unsafe { split_groups_avx2::<N, B, false>(from, out, (0, stride, len * N)) };
            prop_assert_eq!(rows(out), expected.clone(), "AVX2");
            out.fill(0);
            // SAFETY: as above.
            unsafe { split_groups_avx2::<N, B, true>(from, out, (0, stride, len * N)) };
            stream::fence();
            prop_assert_eq!(rows(out), expected, "AVX2, streamed");
        }
        Ok(())
    }

    /// Interleaves `A` rows of `len` slots, `stride` bytes apart: by the slot-by-slot
    /// reference, then by the 16-byte kernel (plain stores, and streamed when the rows are
    /// whole vectors) and the AVX2 kernel where the CPU has it (plain and streamed stores,
    /// when the rows are whole 32-byte chunks), each into a run that starts on a line.
    #[allow(unsafe_code)]
    fn check_zip<W: Word<N>, const N: usize, const A: usize>(
        src: &[u8],
        len: usize,
        gap: usize,
    ) -> Result<(), TestCaseError> {
        let stride = len * N + gap;
        let mut expected = vec![0u8; A * len * N];
        for x in 0..A {
            for y in 0..len {
                let slot = &src[x * stride + y * N..][..N];
                expected[(y * A + x) * N..][..N].copy_from_slice(slot);
            }
        }
        let mut buf = vec![0u8; A * len * N + LINE];
        let at = buf.as_ptr().align_offset(LINE);
        let out = &mut buf[at..at + A * len * N];
        let rows: [&[[u8; N]]; A] =
            core::array::from_fn(|x| &src[x * stride..][..len * N].as_chunks::<N>().0[..len]);
        {
            let (groups, _) = out.as_chunks_mut::<N>().0.as_chunks_mut::<A>();
            zip_rows::<W, N, A, false>(groups, rows);
        }
        prop_assert_eq!(&out[..], &expected[..], "16-byte vectors");
        if N <= 8 && (len * N).is_multiple_of(lanes::BYTES) {
            out.fill(0);
            let (groups, _) = out.as_chunks_mut::<N>().0.as_chunks_mut::<A>();
            zip_rows::<W, N, A, true>(groups, rows);
            stream::fence();
            prop_assert_eq!(&out[..], &expected[..], "16-byte vectors, streamed");
        }
        #[cfg(target_arch = "x86_64")]
        if N <= 8 && (len * N).is_multiple_of(32) && super::super::avx2::available() {
            out.fill(0);
            // SAFETY: the CPU has AVX2 (checked); `out` starts on a line.
            unsafe { zip_avx2::<N, A, false>(out, src, (0, stride, len * N), FETCH_AHEAD) };
            prop_assert_eq!(&out[..], &expected[..], "AVX2");
            out.fill(0);
            // SAFETY: as above.
            unsafe { zip_avx2::<N, A, true>(out, src, (0, stride, len * N), FETCH_AHEAD) };
            stream::fence();
            prop_assert_eq!(&out[..], &expected[..], "AVX2, streamed");
        }
        Ok(())
    }

    /// Pairs of 8-byte runs, with an odd run out at the end of each inner loop, against a
    /// run-by-run copy.
    #[test]
    fn pairs_of_runs_stream_with_their_odd_run_out() {
        let src: Vec<u8> = (0..4096u32).map(|k| (k * 7 + k / 256) as u8).collect();
        for (rows, tiles) in [(2, 3), (3, 4), (1, 5)] {
            let runs = Runs {
                at: (64, 40),
                outer: (rows, 256, 8),
                inner: (tiles, 8, 8 * rows + 16),
            };
            // Run `k` of row `j`: from `40 + 8j + k·(8·rows + 16)` to `64 + 256j + 8k`.
            let mut expected = vec![0u8; 1024];
            for j in 0..rows {
                for k in 0..tiles {
                    let (d, s) = (64 + 256 * j + 8 * k, 40 + 8 * j + k * (8 * rows + 16));
                    expected[d..d + 8].copy_from_slice(&src[s..s + 8]);
                }
            }
            let mut buf = vec![0u8; 1024 + LINE];
            let at = buf.as_ptr().align_offset(LINE);
            let out = &mut buf[at..at + 1024];
            stream_pairs(out, &src, &runs);
            stream::fence();
            assert_eq!(out, &expected[..], "{rows} rows of {tiles} runs");
        }
    }

    /// `$check::<$w, $n, A>(src, len, gap)?` for rows of `len` slots of `$n` bytes (`32 ·
    /// chunks` bytes) and of one slot more (a tail), `A` = 2, 4 or 8 rows as `rows` is 0, 1
    /// or more.
    macro_rules! each_count {
        ($check:ident, $w:ty, $n:literal, ($src:expr, $len:expr, $rows:expr, $gap:expr)) => {{
            for len in [$len, $len + 1] {
                match $rows {
                    0 => $check::<$w, $n, 2>($src, len, $gap)?,
                    1 => $check::<$w, $n, 4>($src, len, $gap)?,
                    _ => $check::<$w, $n, 8>($src, len, $gap)?,
                }
            }
        }};
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// The interleave of rows into runs (rows to row sub-tiles `(2,1)` `(4,1)` `(8,1)`), at
        /// every slot width: 16-byte vectors, AVX2 where the CPU has it, and streamed stores,
        /// against the slot-by-slot reference.
        #[test]
        fn zip_kernels_match_the_reference(
            width in 0..5usize,
            rows in 0..3usize,
            chunks in 1..5usize,
            gap in 0..40usize,
            src in proptest::collection::vec(any::<u8>(), 8 * 8 * 128 + 8 * 40),
        ) {
            let rows_of = |n: usize| 32 * chunks / n;
            match width {
                0 => each_count!(check_zip, u8, 1, (&src, rows_of(1), rows, gap)),
                1 => each_count!(check_zip, u16, 2, (&src, rows_of(2), rows, gap)),
                2 => each_count!(check_zip, u32, 4, (&src, rows_of(4), rows, gap)),
                3 => each_count!(check_zip, u64, 8, (&src, rows_of(8), rows, gap)),
                _ => each_count!(check_zip, u128, 16, (&src, rows_of(16), rows, gap)),
            }
        }

        /// The split of runs of groups into rows (row sub-tiles `(2,1)` `(4,1)` `(8,1)` to
        /// rows), at every slot width: 16-byte vectors, AVX2 where the CPU has it, and streamed
        /// stores, against the slot-by-slot reference.
        #[test]
        fn split_kernels_match_the_reference(
            width in 0..4usize,
            rows in 0..3usize,
            chunks in 1..5usize,
            gap in 0..3usize,
            src in proptest::collection::vec(any::<u8>(), 8 * 8 * 128),
        ) {
            let rows_of = |n: usize| 32 * chunks / n;
            match width {
                0 => each_count!(check_split, u8, 1, (&src, rows_of(1), rows, gap)),
                1 => each_count!(check_split, u16, 2, (&src, rows_of(2), rows, gap)),
                2 => each_count!(check_split, u32, 4, (&src, rows_of(4), rows, gap)),
                _ => each_count!(check_split, u64, 8, (&src, rows_of(8), rows, gap)),
            }
        }
    }
}
