//! Copies that bypass the cache on the way out (non-temporal stores), for relayouts larger
//! than the last-level cache: a normal store first reads the destination line into the cache
//! (a read-for-ownership), so a large copy moves half again as many bytes as it needs to.
//! And the other memory hints of large copies: a page-aligned scratch, and prefetches.
#![allow(unsafe_code)]

use super::AlignedBuf;
use alloc::boxed::Box;

/// Copies of at least this many bytes in total use non-temporal stores: past it the data
/// cannot stay in a 32 MiB last-level cache anyway.
pub(crate) const STREAM_BYTES: usize = 16 << 20;

/// Bytes of a cache line: non-temporal stores pay off only for whole lines (a partly
/// written line leaves the write-combining buffer as a partial write, several times slower
/// than a normal store).
pub(crate) const LINE: usize = 64;

/// Bytes of a page.
pub(crate) const PAGE: usize = 4096;

/// Bytes of a panel: the block of a transpose of an array too large for the L2 cache, staged
/// whole in L2 (see `kernels::panels`, and `bits` for `E(4)` fields), so that memory sees a
/// few lines of a row at a time on both sides, not one line of each of 64 rows. Measured on a
/// 2-core AMD EPYC VM (64 MiB): reading a line of each of 64 rows in turn ran 7-15 GB/s
/// (prefetched or not), 512 bytes of each of 128 rows 25-31; streaming out a line of each of
/// 64 rows 12 GB/s, 256 bytes of each 41 (a sequential read 41, memcpy 20). The library's
/// transposes against memcpy, one-line blocks -> panels, side by side: f32 2-D 0.56 -> 0.64,
/// `T(8,128)` -> `{0,1:T(8,128)}` 0.51 -> 0.64, bf16 `T(8,128)(2,1)` -> `{0,1}` 0.49 ->
/// 0.74, s8 `T(32,128)(4,1)` -> `{0,1:T(32,128)(4,1)}` 0.39 -> 0.61, 4-D reversals 0.43-0.49
/// -> 0.54-0.56 (medians of three alternating runs of the binaries before and after; a
/// 16 KiB or 64 KiB panel measured slower on most). The largest panel: `nest::panel_sides`
/// sizes each slot width's, 32 KiB but for the 4-byte slots of streamed copies.
pub(crate) const PANEL_BYTES: usize = 64 << 10;

/// Copies of whole-byte slots of at least this many bytes (past the L2 cache) transpose in
/// panels in cache too, with plain stores, rather than in blocks of a line a side: measured
/// hot (medians of three alternating runs, ratio to an in-cache memcpy) bf16 1024×2048 0.27
/// -> 0.35, s8 `T(32,128)(4,1)` -> `{0,1:T(32,128)(4,1)}` 0.25 -> 0.30, f64 rows ->
/// `{0,1:T(8,128)}` 0.28 -> 0.40-0.58; u8 and f32 2-D unchanged. Not `E(4)` fields: their
/// `(2,1)` sub-tile transposes lost (0.29 -> 0.24).
pub(crate) const PANEL_CACHED_BYTES: usize = 1 << 20;

/// Lines of a panel's scratch: a page of lines, then the panel.
pub(crate) const PANEL_LINES: usize = (PAGE + PANEL_BYTES) / LINE;

/// A kernel's scratch of two pages ([`Lines`]), of a page and a panel ([`PANEL_LINES`]), or
/// of as many lines as its kernel asks for ([`Staging::lines`]: a panel, a second one and a
/// carry, `kernels::CARRY_AT`).
pub(crate) enum Staging {
    Pages(Box<Lines>),
    Panel(Box<Lines<PANEL_LINES>>),
    Carried(AlignedBuf<u8>),
}

impl Staging {
    /// A zeroed scratch of two pages, or of a page and a panel if `panel`.
    pub(crate) fn new(panel: bool) -> Staging {
        if panel {
            Staging::Panel(Lines::zeroed())
        } else {
            Staging::Pages(Lines::boxed())
        }
    }

    /// A zeroed scratch of `lines` lines from a page boundary, or of a page and a panel where
    /// the allocator has no room for it.
    pub(crate) fn lines(lines: usize) -> Staging {
        match AlignedBuf::try_zeroed(PAGE + lines * LINE) {
            Some(buf) => Staging::Carried(buf),
            None => Staging::new(true),
        }
    }

    /// Its lines.
    pub(crate) fn get(&mut self) -> &mut [[u8; LINE]] {
        match self {
            Staging::Pages(l) => &mut l.0,
            Staging::Panel(l) => &mut l.0,
            Staging::Carried(buf) => {
                // From its first page boundary (the buffer starts on a line, so that is a
                // whole number of lines in).
                let skip = buf.as_ptr().align_offset(PAGE).min(buf.len());
                buf[skip..].as_chunks_mut().0
            }
        }
    }
}

/// A kernel's scratch: `L` lines, two pages unless said, page-aligned (lines gathered
/// before they are streamed out, and the source rows they are gathered from).
///
/// On the stack it would lie at an offset within its page that changes from run to run
/// (the stack's start is randomised), and where that offset matched the source rows' offset
/// within their pages, every load after a store to the scratch waited on it (4 KiB aliasing:
/// the core compares only the low 12 address bits). Measured on the `(2,1)`, `(4,1)` and
/// `(8,1)` interleaves: 0.28-0.93 of memcpy from one run to the next, 0.7-1.3 aligned.
#[repr(C, align(4096))]
pub(crate) struct Lines<const L: usize = { 2 * PAGE / LINE }>(pub(crate) [[u8; LINE]; L]);

impl Lines {
    /// The scratch of two pages ([`zeroed`](Lines::zeroed)).
    pub(crate) fn boxed() -> Box<Lines> {
        Lines::zeroed()
    }
}

impl<const L: usize> Lines<L> {
    /// A zeroed scratch on the heap: on the stack, its 8 KiB made every caller's frame probe
    /// its pages on each call (measured: a fifth of a 4 KiB transposed copy that never used
    /// it).
    #[inline(never)]
    pub(crate) fn zeroed() -> Box<Lines<L>> {
        Box::new(Lines([[0; LINE]; L]))
    }
}

/// `dst.copy_from_slice(src)` for fewer than [`LINE`] bytes (a run's partial lines), in moves
/// of fixed sizes, the last overlapping the one before, not a call into `memcpy`: measured
/// (64 MiB, a destination 16 bytes past a line, five alternating runs of the bench) f32 rows
/// -> `T(8,128)`, runs of 512 bytes, 0.77-0.88 -> 0.89-1.03 of memcpy.
#[inline(always)]
pub(crate) fn short(dst: &mut [u8], src: &[u8]) {
    fn fixed<const N: usize>(dst: &mut [u8], src: &[u8], at: usize) {
        let d: &mut [u8; N] = (&mut dst[at..at + N]).try_into().expect("N bytes");
        *d = src[at..at + N].try_into().expect("N bytes");
    }
    let n = dst.len();
    debug_assert!(n < LINE && n == src.len());
    match n {
        16.. => {
            for at in (0..n - 16).step_by(16) {
                fixed::<16>(dst, src, at);
            }
            fixed::<16>(dst, src, n - 16);
        }
        8.. => {
            fixed::<8>(dst, src, 0);
            fixed::<8>(dst, src, n - 8);
        }
        4.. => {
            fixed::<4>(dst, src, 0);
            fixed::<4>(dst, src, n - 4);
        }
        1.. => {
            // Every byte of 1 to 3, some twice.
            for at in [0, n / 2, n - 1] {
                dst[at] = src[at];
            }
        }
        0 => {}
    }
}

/// `dst.copy_from_slice(src)`, with non-temporal stores for the whole cache lines of `dst`
/// where the target has them (x86_64); the partial lines at either end are copied normally.
/// Call [`fence`] after the last one.
///
/// # Panics
/// If the lengths differ.
#[inline(always)]
pub(crate) fn copy(dst: &mut [u8], src: &[u8]) {
    assert_eq!(dst.len(), src.len());
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
        let head = dst.as_ptr().align_offset(LINE).min(dst.len());
        let body = (dst.len() - head) / LINE * LINE;
        if body > 0 {
            let (dh, rest) = dst.split_at_mut(head);
            let (db, dt) = rest.split_at_mut(body);
            let (sh, rest) = src.split_at(head);
            let (sb, st) = rest.split_at(body);
            // Runs of whole lines (a tile's rows) have neither: no call into `memcpy` for
            // nothing (measured u8 rows -> `T(8,64)`, 64-byte runs, 0.59 -> 0.73-0.91 of
            // memcpy, when such runs still came this way; `kernels` now streams runs of up to
            // 128 bytes as fixed-size moves).
            short(dh, sh);
            short(dt, st);
            let d = db.as_mut_ptr();
            let s = sb.as_ptr();
            for k in 0..body / 16 {
                // SAFETY: `k * 16 + 16 <= body`, the length of both `db` and `sb`, so both
                // 16-byte accesses are in bounds; `d` is 64-byte aligned, so `d + 16k` is
                // 16-byte aligned as `_mm_stream_si128` needs, and `_mm_loadu_si128` takes any
                // alignment. Bytes have no invalid values. SSE2 is part of the x86_64
                // baseline. `db` and `sb` do not overlap (`&mut`).
                unsafe {
                    let v = _mm_loadu_si128(s.add(k * 16).cast::<__m128i>());
                    _mm_stream_si128(d.add(k * 16).cast::<__m128i>(), v);
                }
            }
            return;
        }
    }
    dst.copy_from_slice(src);
}

/// `*dst = *src` for one cache line: non-temporal stores when `dst` is a whole line (64-byte
/// aligned) and the target has them (x86_64).
#[inline(always)]
pub(crate) fn line(dst: &mut [u8; LINE], src: &[u8; LINE]) {
    #[cfg(target_arch = "x86_64")]
    if dst.as_ptr().align_offset(LINE) == 0 {
        use core::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
        let d = dst.as_mut_ptr();
        let s = src.as_ptr();
        for k in 0..LINE / 16 {
            // SAFETY: `k * 16 + 16 <= LINE`, the length of both arrays, so both 16-byte
            // accesses are in bounds; `d` is 64-byte aligned, so `d + 16k` is 16-byte aligned
            // as `_mm_stream_si128` needs, and `_mm_loadu_si128` takes any alignment. SSE2 is
            // part of the x86_64 baseline. `dst` and `src` do not overlap (`&mut`).
            unsafe {
                let v = _mm_loadu_si128(s.add(k * 16).cast::<__m128i>());
                _mm_stream_si128(d.add(k * 16).cast::<__m128i>(), v);
            }
        }
        return;
    }
    *dst = *src;
}

/// Asks for the line of `s` holding byte `at` to be brought into the L2 cache (`prefetcht1`),
/// if `at` is within `s`; it is not waited for. Not into L1: the next block's rows of a
/// transpose are a power-of-two stride apart, in one L1 set that holds eight of them (measured
/// u8 2-D transpose 0.45 -> 0.48 of memcpy against `prefetcht0`).
#[inline(always)]
pub(crate) fn prefetch(s: &[u8], at: usize) {
    #[cfg(target_arch = "x86_64")]
    if at < s.len() {
        use core::arch::x86_64::{_MM_HINT_T1, _mm_prefetch};
        // SAFETY: a prefetch reads nothing the program can see and never faults; the address
        // is within `s` anyway. SSE is part of the x86_64 baseline.
        unsafe { _mm_prefetch::<_MM_HINT_T1>(s.as_ptr().add(at).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (s, at);
}

/// [`prefetch`] of the `len` bytes (at least one) of `s` from `at`: a line every `LINE` bytes
/// from `at`, and the line of the last byte, which a run that starts inside a line ends in
/// (on lines, that last line is asked for twice).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn prefetch_bytes(s: &[u8], at: usize, len: usize) {
    for l in (0..len).step_by(LINE) {
        prefetch(s, at + l);
    }
    prefetch(s, at + len - 1);
}

/// Makes later loads see the streamed stores (`sfence`).
pub(crate) fn fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `sfence` has no preconditions; SSE is part of the x86_64 baseline.
    unsafe {
        core::arch::x86_64::_mm_sfence();
    }
}

#[cfg(test)]
mod tests {
    use super::{LINE, Lines, copy, fence};

    /// Every length from 0 to four lines, from every byte of a line: each byte copied, none
    /// outside the run touched (the partial lines' fixed-size moves overlap within the run
    /// only).
    #[test]
    fn copies_every_run_exactly() {
        let src: alloc::vec::Vec<u8> = (0..5 * LINE).map(|k| (k * 7 + 3) as u8).collect();
        let mut lines = Lines::<6>::zeroed();
        let buf = lines.0.as_flattened_mut();
        for at in 0..LINE {
            for len in 0..=4 * LINE {
                buf.fill(0xEE);
                copy(&mut buf[at..at + len], &src[..len]);
                fence();
                assert!(
                    buf[at..at + len] == src[..len],
                    "run of {len} from byte {at}"
                );
                assert!(
                    buf[..at].iter().chain(&buf[at + len..]).all(|&b| b == 0xEE),
                    "bytes outside the run of {len} from byte {at}"
                );
            }
        }
    }
}
