//! Relayout of storage whose elements are not whole bytes (`E(n)` packing, sub-byte types) or
//! whose element widths differ between the two sides (`s4` in bytes against `s4` packed by
//! `E(4)`): elements are moved as bit fields, least-significant bits first, and runs that
//! start and end on byte boundaries on both sides as bytes.

use alloc::vec::Vec;
use core::ops::Range;

use super::digits::Loop;
use super::kernels::{Runs, edge, prefixes};
use super::lanes;
use super::nest::{Form, Kernel, Leaf, Nest, ONCE, Slice};
use super::stream::{self, LINE};

/// How both sides store elements: bits per element and the bit where element 0 starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BitFields {
    pub(crate) dst_bits: usize,
    pub(crate) src_bits: usize,
    pub(crate) dst_start: usize,
    pub(crate) src_start: usize,
    /// Widening copies fill the new high bits with the sign bit (signed integers), not zeros.
    pub(crate) sign_extend: bool,
}

/// `bits` bits (at most 128) of `bytes` from bit `start`.
#[inline]
fn read(bytes: &[u8], start: usize, bits: usize) -> u128 {
    if bits <= 8 && 8 % bits == 0 {
        // Within one byte: `start` is a multiple of `bits`.
        let mask = ((1u16 << bits) - 1) as u8;
        return u128::from((bytes[start / 8] >> (start % 8)) & mask);
    }
    if start.is_multiple_of(8) && bits.is_multiple_of(8) {
        let mut v = [0u8; 16];
        v[..bits / 8].copy_from_slice(&bytes[start / 8..start / 8 + bits / 8]);
        return u128::from_le_bytes(v);
    }
    let mut v = 0u128;
    for k in 0..bits {
        let bit = start + k;
        v |= u128::from((bytes[bit / 8] >> (bit % 8)) & 1) << k;
    }
    v
}

/// Writes the low `bits` bits (at most 128) of `v` into `bytes` from bit `start`.
#[inline]
fn write(bytes: &mut [u8], start: usize, bits: usize, v: u128) {
    if bits <= 8 && 8 % bits == 0 {
        let mask = ((1u16 << bits) - 1) as u8;
        let shift = start % 8;
        let byte = &mut bytes[start / 8];
        *byte = (*byte & !(mask << shift)) | (((v as u8) & mask) << shift);
        return;
    }
    if start.is_multiple_of(8) && bits.is_multiple_of(8) {
        bytes[start / 8..start / 8 + bits / 8].copy_from_slice(&v.to_le_bytes()[..bits / 8]);
        return;
    }
    for k in 0..bits {
        let bit = start + k;
        let b = u8::from((v >> k) & 1 == 1);
        bytes[bit / 8] = (bytes[bit / 8] & !(1 << (bit % 8))) | (b << (bit % 8));
    }
}

/// Whole blocks of a leaf, the first at slots `at` (destination, source), the others at its
/// offsets in `reps` (bytes), of sides `a` (destination-contiguous) and `b` and form `form`.
#[derive(Clone, Copy)]
struct Whole<'a> {
    at: (usize, usize),
    reps: Runs,
    a: &'a Loop,
    b: &'a Loop,
    form: &'a Form,
}

/// The working memory of the block kernels (a block's rows, and for transposes its
/// transposed rows), and whether they stream.
struct Scratch {
    lines: stream::Staging,
    out: stream::Staging,
    stream: bool,
    /// A clipped zip block's whole run (see [`BitFields::zip_prefix`]), made on first use.
    run: Vec<u8>,
}

impl BitFields {
    /// Copies the element in source slot `s` into destination slot `d`.
    #[inline]
    pub(crate) fn element(&self, dst: &mut [u8], src: &[u8], d: usize, s: usize) {
        let mut v = read(src, self.src_start + s * self.src_bits, self.src_bits);
        if self.sign_extend
            && self.dst_bits > self.src_bits
            && self.src_bits < 128
            && (v >> (self.src_bits - 1)) & 1 == 1
        {
            v |= u128::MAX << self.src_bits;
        }
        write(dst, self.dst_start + d * self.dst_bits, self.dst_bits, v);
    }

    /// Copies `len` consecutive slots, as bytes when both sides hold them in whole bytes,
    /// packing or unpacking whole bytes at once between bytes and `E(n)` fields (where a run
    /// starts inside a byte of its packed side, its first fields one at a time up to the
    /// byte). Fields of one width narrower than a byte go as bits ([`shifted`]), wherever
    /// they start (an odd extent of `E(4)` fields: `s4[8191,8191]{1,0:E(4)}`, every other
    /// row starts inside a byte). Measured (32 MiB, against memcpy, best of five)
    /// `s4[8191,8191]` rows -> `T(8,128)E(4)` 0.02 -> 0.31-0.40 (4.7-4.9 GB/s), back 0.02 ->
    /// 0.25 (3.4 GB/s), with the whole runs of [`copy`].
    fn run(&self, dst: &mut [u8], src: &[u8], d: usize, s: usize, len: usize) {
        let (db, sb) = (
            self.dst_start + d * self.dst_bits,
            self.src_start + s * self.src_bits,
        );
        if self.dst_bits == self.src_bits && self.dst_bits < 8 {
            return shifted(dst, db, src, sb, len * self.dst_bits, false);
        }
        // The side whose start must be on a byte: the packed one.
        let lead = match (self.src_bits, self.dst_bits) {
            (8, 4 | 2 | 1) => (8 - db % 8) % 8 / self.dst_bits,
            (4 | 2 | 1, 8) => (8 - sb % 8) % 8 / self.src_bits,
            _ => 0,
        }
        .min(len);
        for k in 0..lead {
            self.element(dst, src, d + k, s + k);
        }
        let (d, s, len) = (d + lead, s + lead, len - lead);
        let (db, sb) = (db + lead * self.dst_bits, sb + lead * self.src_bits);
        let whole =
            |start: usize, bits: usize| start.is_multiple_of(8) && (len * bits).is_multiple_of(8);
        if self.dst_bits == self.src_bits && whole(db, self.dst_bits) && whole(sb, self.src_bits) {
            let n = len * self.dst_bits / 8;
            dst[db / 8..db / 8 + n].copy_from_slice(&src[sb / 8..sb / 8 + n]);
            return;
        }
        let done = match (self.src_bits, self.dst_bits) {
            (8, 4) if db.is_multiple_of(8) => pack_nibbles(&mut dst[db / 8..], &src[sb / 8..], len),
            (8, 2) if db.is_multiple_of(8) => pack_crumbs(&mut dst[db / 8..], &src[sb / 8..], len),
            (8, 1) if db.is_multiple_of(8) => pack_bits(&mut dst[db / 8..], &src[sb / 8..], len),
            (4, 8) if sb.is_multiple_of(8) => {
                unpack_nibbles(&mut dst[db / 8..], &src[sb / 8..], len, self.sign_extend)
            }
            (2, 8) if sb.is_multiple_of(8) => {
                unpack_crumbs(&mut dst[db / 8..], &src[sb / 8..], len, self.sign_extend)
            }
            (1, 8) if sb.is_multiple_of(8) => {
                unpack_bits(&mut dst[db / 8..], &src[sb / 8..], len, self.sign_extend)
            }
            _ => 0,
        };
        for k in done..len {
            self.element(dst, src, d + k, s + k);
        }
    }
}

/// Copies the `bits` bits of `src` from bit `from` into `dst` from bit `to`, leaving the
/// other bits of `dst` as they are: the bits up to a byte of `dst` in one masked move, then 16
/// bytes at a time, each 64-bit lane a funnel shift of its source word and the next byte
/// ([`lanes::funnel`]; a copy where the two start at the same bit of a byte), the rest (and
/// where a vector would read past `src`) in masked moves of up to a word. With `stream`, the
/// vectors are stored non-temporally where they are 16-byte aligned (call [`stream::fence`]
/// after the last).
#[inline(always)]
fn shifted(dst: &mut [u8], to: usize, src: &[u8], from: usize, bits: usize, stream: bool) {
    let head = ((8 - to % 8) % 8).min(bits);
    if head > 0 {
        masked(dst, to, src, from, head);
    }
    let (to, from, bits) = (to + head, from + head, bits - head);
    let (at, shift) = (from / 8, from % 8);
    // Vector `k` reads source bytes `at + 16k ..= at + 16k + 16`, as two vectors a byte apart.
    let vectors = (bits / 128).min(src.len().saturating_sub(at + 1) / 16);
    // The vectors done 32 bytes at a time, with AVX2.
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    let first = if vectors >= 2 && super::avx2::available() {
        let n = 32 * (vectors / 2);
        let (out, run) = (&mut dst[to / 8..to / 8 + n], &src[at..at + n + 1]);
        // SAFETY: the CPU has AVX2 (checked above).
        unsafe { shifted_avx2(out, run, shift as u32, stream) };
        vectors / 2 * 2
    } else {
        0
    };
    #[cfg(not(target_arch = "x86_64"))]
    let first = 0;
    for k in first..vectors {
        let (v, next) = (lanes::at(src, at + 16 * k), lanes::at(src, at + 16 * k + 1));
        let v = lanes::funnel(v, next, shift as u32);
        if stream {
            lanes::stream(v, dst, to / 8 + 16 * k);
        } else {
            lanes::put(v, dst, to / 8 + 16 * k);
        }
    }
    let done = 128 * vectors;
    let (mut to, mut from, mut rest) = (to + done, from + done, bits - done);
    while rest > 0 {
        let n = rest.min(64 - (from % 8).max(to % 8));
        masked(dst, to, src, from, n);
        (to, from, rest) = (to + n, from + n, rest - n);
    }
}

/// [`shifted`]'s vectors 32 bytes at a time: `out` the bits of `run` from bit `shift` (0 to
/// 7) of its first byte (`run` a byte longer than `out`, a multiple of 32 bytes), streamed
/// if `stream` and `out` starts 16-byte aligned. Measured `s4[8191,8191]`
/// `{1,0:T(8,128)E(4)}` -> rows (32 MiB, best of five, three alternating runs) 0.26-0.30 ->
/// 0.33-0.34 of memcpy.
///
/// # Safety
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
#[target_feature(enable = "avx2")]
unsafe fn shifted_avx2(out: &mut [u8], run: &[u8], shift: u32, stream: bool) {
    assert!(out.len().is_multiple_of(32) && run.len() == out.len() + 1);
    let stream = stream && out.as_ptr().align_offset(16) == 0;
    // SAFETY: the CPU has AVX2 (the caller's contract); `out` is a multiple of 32 bytes and
    // `run` one longer (asserted); `out` starts 16-byte aligned where streamed (checked).
    unsafe { funnel_chunks(out, run, shift, stream) };
}

/// The loop of [`shifted_avx2`] and [`shifted_runs_avx2`]: each 32 bytes of `out` funnel-
/// shifted by `shift` bits from `run` and the byte after, streamed if `stream`.
///
/// # Safety
/// The CPU has AVX2; `out.len()` is a multiple of 32 and `run` at least a byte longer; if
/// `stream`, `out` starts 16-byte aligned.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn funnel_chunks(out: &mut [u8], run: &[u8], shift: u32, stream: bool) {
    use super::avx2;
    let (p, q) = (out.as_mut_ptr(), run.as_ptr());
    for j in (0..out.len()).step_by(32) {
        // SAFETY: bytes `j ..= j + 32 < run.len()` of `run` and `j .. j + 32 <= out.len()`
        // of `out` (the caller's contract); `out`'s are 16-byte aligned where streamed (its
        // start is, and `j` is a multiple of 32).
        unsafe {
            let v = avx2::funnel(avx2::load(q.add(j)), avx2::load(q.add(j + 1)), shift);
            if stream {
                avx2::store::<true>(v, p.add(j));
            } else {
                avx2::store::<false>(v, p.add(j));
            }
        }
    }
}

/// `n` runs of `len` bytes of `src` (from byte `from + k · step` each) that follow each other
/// in `dst` from bit `to` (a destination row of an odd number of `E(4)` fields, which starts
/// inside a byte, from the rows of its tiles): gathered into `stage` a page or two at a time,
/// each as one run into `dst` ([`shifted_lines`], its whole lines streamed if `stream`), the
/// same runs one step of `ahead` bytes on prefetched (a run longer than the stage goes on its
/// own). Runs of 16 bytes or more move in 16-byte pieces, not a call into `memcpy` each (nor
/// one for the bytes past the last piece: [`stream::short`], measured in cache `s4[999,1001]`
/// 5.2-5.3 -> 5.5-5.7 GB/s).
/// Measured against a [`shifted`] run each, in the destination's order (`nest`), and
/// the source's order before it: `s4[8191,8191]` `{1,0:T(8,128)E(4)}` -> rows (32 MiB, best
/// of five, alternating runs) 3.3 GB/s, 3.6 in the destination's order, 4.2 gathered, 6.0
/// with the next band's runs prefetched; in cache, `s4[999,1001]` 3.9 -> 5.1.
fn gathered(
    dst: &mut [u8],
    to: usize,
    src: &[u8],
    (from, step, ahead): (usize, usize, usize),
    (len, n): (usize, usize),
    stage: &mut stream::Lines,
    stream: bool,
) {
    let stage = stage.0.as_flattened_mut();
    let per = (stage.len() / len).max(1);
    let mut k = 0;
    while k < n {
        let m = per.min(n - k);
        if m * len > stage.len() {
            let at = 8 * (from + k * step);
            shifted_lines(dst, to + 8 * k * len, src, at, 8 * len, stream);
            k += 1;
            continue;
        }
        for (j, into) in stage[..m * len].chunks_exact_mut(len).enumerate() {
            let at = from + (k + j) * step;
            let run = &src[at..at + len];
            // Moves of 16 bytes, not a call into `memcpy` a run.
            let ((into16, into_rest), (run16, run_rest)) =
                (into.as_chunks_mut::<16>(), run.as_chunks::<16>());
            for (d, s) in into16.iter_mut().zip(run16) {
                *d = *s;
            }
            stream::short(into_rest, run_rest);
            if ahead > 0 {
                for line in (0..len).step_by(stream::LINE) {
                    stream::prefetch(src, at + ahead + line);
                }
            }
        }
        shifted_lines(dst, to + 8 * k * len, stage, 0, 8 * m * len, stream);
        k += m;
    }
}

/// The runs of a copy whose source rows start inside bytes and whose runs fill the rows of
/// tiles back to back (`u2[8191,16383]` rows -> `T(8,128)E(2)`, whose 32-byte runs fill a
/// tile's lines two at a time; see `Nest`'s order for them): the last two loops of `nest`,
/// a tile's rows innermost and the tiles along them around it, a leaf of tiles at a time
/// through [`scattered`]; the runs the array's edge clips as [`BitFields::run`]s. False, and
/// nothing copied, where the copy is not so. Measured against the source's order (a row's
/// runs one after the other, each half a line stored normally), 32 MiB, best of five: 5.6
/// GB/s, a tile's rows a leaf (the walk's cost a leaf of 8 runs) 4.0, a row of tiles a leaf
/// 5.3, and 11.2 with [`scattered_avx2`].
fn scattered_tiles(
    nest: &Nest,
    run: &Loop,
    fields: &BitFields,
    dst: &mut [u8],
    src: &[u8],
    slice: &Slice,
    stream: bool,
) -> bool {
    let bits = fields.dst_bits;
    let [.., tiles, rows] = nest.outer.as_slice() else {
        return false;
    };
    let length = run.size * bits;
    let fits = fields.src_bits == bits
        && rows.dst * bits == length
        && tiles.dst == rows.size * rows.dst
        && length.is_multiple_of(128)
        && !(rows.src * bits).is_multiple_of(8)
        && (tiles.src * bits).is_multiple_of(8)
        && tiles.dim == run.dim
        && rows.dim != run.dim;
    if !fits {
        return false;
    }
    nest.walk_around_from(slice, &mut |leaf: &Leaf<'_>, inner: &Loop| {
        let (d, s) = leaf.offsets(0);
        let (to, from) = (fields.dst_start + d * bits, fields.src_start + s * bits);
        let (tile_to, tile_from) = (leaf.step.dst * bits, leaf.step.src * bits);
        let (row_to, row_from) = (inner.dst * bits, inner.src * bits);
        let n = nest.count(inner, Nest::at_step(leaf, inner.dim, 0));
        // Runs clip only past the array's edge, so only the last tiles' may.
        let whole = nest.whole_steps(leaf, &[*run]);
        let done = if to.is_multiple_of(8) && tile_to.is_multiple_of(8) {
            let runs = ((whole, tile_to / 8, tile_from), (n, row_from));
            // A tile whose last rows lie past the array's edge is not written whole.
            scattered(
                dst,
                to / 8,
                src,
                from,
                runs,
                length / 8,
                stream && n == inner.size,
            )
        } else {
            0
        };
        for k in done..leaf.n {
            for r in 0..n {
                let (to, from) = (
                    to + k * tile_to + r * row_to,
                    from + k * tile_from + r * row_from,
                );
                if k < whole {
                    shifted(dst, to, src, from, length, false);
                } else {
                    let count = nest.count(run, Nest::at_step(leaf, run.dim, k));
                    let (d, s) = (
                        d + k * leaf.step.dst + r * inner.dst,
                        s + k * leaf.step.src + r * inner.src,
                    );
                    fields.run(dst, src, d, s, count);
                }
            }
        }
    })
}

/// Runs of `len` bytes (a multiple of 16) from the source rows of `tiles` tiles into the
/// tiles' rows, which follow each other in `dst`: tile `k`'s run `r` the bytes of `dst` from
/// `to + k · tile_to + r · len`, the bits of `src` from `from + k · tile_from + r ·
/// row_from` (rows that start inside bytes: each run funnel-shifted 16 bytes at a time, by
/// its own shift; 32 at a time where runs are multiples of 32 bytes, or of 16 in tiles of an
/// even count of rows, and the CPU has AVX2, [`scattered_avx2`]). With `stream`, the whole
/// lines of the tiles' span are streamed (their parts stored back to back), the partial
/// lines at its ends stored normally. Returns the tiles done: all but those whose source
/// vectors would read past `src` (the caller takes those).
fn scattered(
    dst: &mut [u8],
    to: usize,
    src: &[u8],
    from: usize,
    ((tiles, tile_to, tile_from), (rows, row_from)): ((usize, usize, usize), (usize, usize)),
    len: usize,
    stream: bool,
) -> usize {
    if tiles == 0 || rows == 0 {
        return tiles;
    }
    let Some(span) = dst.get_mut(to..to + (tiles - 1) * tile_to + rows * len) else {
        return 0;
    };
    let head = span.as_ptr().align_offset(stream::LINE).min(span.len());
    let body = head + (span.len() - head) / stream::LINE * stream::LINE;
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    if (len.is_multiple_of(32) || len == 16 && rows.is_multiple_of(2)) && super::avx2::available() {
        let runs = ((tiles, tile_to, tile_from), (rows, row_from));
        let lines = head..body;
        // SAFETY: the CPU has AVX2 (checked above).
        return unsafe { scattered_avx2(span, src, from, runs, len, stream.then_some(lines)) };
    }
    for k in 0..tiles {
        for r in 0..rows {
            let at = from + k * tile_from + r * row_from;
            let (a, shift) = (at / 8, (at % 8) as u32);
            let Some(run) = src.get(a..a + len + 1) else {
                return k;
            };
            for (j, w) in run.windows(17).step_by(16).enumerate() {
                let (w0, w1) = (w[..16].try_into(), w[1..].try_into());
                let (Ok(w0), Ok(w1)) = (w0, w1) else {
                    unreachable!("windows of 17 bytes")
                };
                let v = lanes::funnel(lanes::load(w0), lanes::load(w1), shift);
                let o = k * tile_to + r * len + 16 * j;
                if stream && o >= head && o + 16 <= body {
                    lanes::stream(v, span, o);
                } else {
                    lanes::put(v, span, o);
                }
            }
        }
    }
    tiles
}

/// [`scattered`] 32 bytes at a time (runs of 16 bytes two rows to a register, each half by
/// its own shift: measured `u1[8191,32767]` rows -> `T(8,128)E(1)`, 32 MiB, 0.22-0.30 ->
/// 0.52-0.73 of memcpy), into `span` (the tiles' bytes, which it must hold) from its start,
/// a tile's runs streamed where they lie in `lines` (if given) and start 32-byte aligned.
/// Each tile's source bytes checked once, not a run's. Measured `u2[8191,16383]`
/// rows -> `T(8,128)E(2)` (32 MiB, best of five): 16 bytes at a time with a check a run 5.3
/// GB/s, 32 bytes at a time with a check a run 6.9, with a check a tile 11.2; in cache,
/// `u2[64,16383]`, 9.8 -> 11.7 -> 16.0.
///
/// # Safety
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
#[target_feature(enable = "avx2")]
unsafe fn scattered_avx2(
    span: &mut [u8],
    src: &[u8],
    from: usize,
    ((tiles, tile_to, tile_from), (rows, row_from)): ((usize, usize, usize), (usize, usize)),
    len: usize,
    lines: Option<core::ops::Range<usize>>,
) -> usize {
    use super::avx2;
    let tile = rows * len;
    // Runs of 16 bytes go two rows to a register.
    let pairs = len == 16 && rows.is_multiple_of(2);
    assert!(
        (len.is_multiple_of(32) || pairs) && rows > 0 && (tiles - 1) * tile_to + tile <= span.len()
    );
    let out = span.as_mut_ptr();
    for k in 0..tiles {
        let first = from + k * tile_from;
        // The tile's last run ends at byte `last / 8 + len` and reads one byte past.
        let last = first + (rows - 1) * row_from;
        if last / 8 + len >= src.len() {
            return k;
        }
        let o = k * tile_to;
        let streamed = lines
            .as_ref()
            .is_some_and(|l| o >= l.start && o + tile <= l.end)
            && out.wrapping_add(o).align_offset(32) == 0;
        if pairs {
            for r in (0..rows).step_by(2) {
                let (a, b) = (first + r * row_from, first + (r + 1) * row_from);
                // SAFETY: source bytes `a / 8 ..= a / 8 + 16` and `b / 8 ..= b / 8 + 16 <=
                // last / 8 + len < src.len()` (checked above for the tile's last run, the
                // furthest); `span` bytes `o + r · 16 .. + 32 <= o + tile <= span.len()`
                // (asserted), 32-byte aligned where streamed (the tile's start is, and `r` is
                // even).
                unsafe {
                    let (p, q) = (src.as_ptr().add(a / 8), src.as_ptr().add(b / 8));
                    let v = avx2::funnel_halves(
                        avx2::load_halves(p, q),
                        avx2::load_halves(p.add(1), q.add(1)),
                        ((a % 8) as u32, (b % 8) as u32),
                    );
                    let to = out.add(o + r * len);
                    if streamed {
                        avx2::store::<true>(v, to);
                    } else {
                        avx2::store::<false>(v, to);
                    }
                }
            }
            continue;
        }
        for r in 0..rows {
            let at = first + r * row_from;
            let shift = (at % 8) as u32;
            for j in (0..len).step_by(32) {
                // SAFETY: source bytes `at / 8 + j ..= at / 8 + j + 32 <= last / 8 + len <
                // src.len()` (checked above for the tile's last run, the furthest); `span`
                // bytes `o + r · len + j .. + 32 <= o + tile <= span.len()` (asserted), and
                // 32-byte aligned where streamed (the tile's start is, and `r · len + j` is a
                // multiple of 32).
                unsafe {
                    let q = src.as_ptr().add(at / 8 + j);
                    let v = avx2::funnel(avx2::load(q), avx2::load(q.add(1)), shift);
                    let p = out.add(o + r * len + j);
                    if streamed {
                        avx2::store::<true>(v, p);
                    } else {
                        avx2::store::<false>(v, p);
                    }
                }
            }
        }
    }
    tiles
}

/// [`shifted`], the whole lines of `dst` it covers streamed if `stream` and the partial lines
/// at its ends stored normally: where the run keeps its place within bytes (`to % 8 ==
/// from % 8`), its whole bytes copied as bytes ([`stream::copy`]), the bits around them
/// [`masked`]; else shifted, in three parts.
fn shifted_lines(dst: &mut [u8], to: usize, src: &[u8], from: usize, bits: usize, stream: bool) {
    if !stream {
        return shifted(dst, to, src, from, bits, false);
    }
    if to % 8 == from % 8 {
        let head = ((8 - to % 8) % 8).min(bits);
        if head > 0 {
            masked(dst, to, src, from, head);
        }
        let body = (bits - head) / 8;
        let (a, b) = ((to + head) / 8, (from + head) / 8);
        stream::copy(&mut dst[a..a + body], &src[b..b + body]);
        let tail = bits - head - 8 * body;
        if tail > 0 {
            masked(dst, to + head + 8 * body, src, from + head + 8 * body, tail);
        }
        return;
    }
    // Bits up to the first line of `dst` at or after bit `to`.
    let start = dst
        .as_ptr()
        .wrapping_add(to.div_ceil(8))
        .align_offset(stream::LINE);
    let lined = (8 * (to.div_ceil(8) + start) - to).min(bits);
    let body = (bits - lined) / (8 * stream::LINE) * (8 * stream::LINE);
    shifted(dst, to, src, from, lined, false);
    if body > 0 {
        shifted(dst, to + lined, src, from + lined, body, true);
    }
    let tail = bits - lined - body;
    if tail > 0 {
        shifted(
            dst,
            to + lined + body,
            src,
            from + lined + body,
            tail,
            false,
        );
    }
}

/// [`shifted`] for `n` runs of `len` bytes (a multiple of 16) that start on bytes of `dst`
/// and at one bit of a byte of `src`: run `k` the bytes of `dst` from `to + k · steps.0`, the
/// bits of `src` from `from + 8 · k · steps.1`. Each run's bounds are checked once (its
/// vectors read as 17-byte windows of the source run), not a vector at a time, and no run
/// has a head or a tail: measured `s4[8191,8191]` rows -> `T(8,128)E(4)` (32 MiB, best of
/// five, three alternating runs) 4.7-4.8 -> 10.6-10.9 GB/s; `s4[64,8191]` (256 KiB, in cache)
/// 6.4 -> 9.1-13.5. Streamed (where `stream`) runs that start on a line. Returns the runs
/// done: all but those whose source vectors would read past `src` (the caller's
/// [`shifted`] takes those).
#[inline(always)]
#[allow(unsafe_code)]
fn shifted_runs(
    dst: &mut [u8],
    to: usize,
    src: &[u8],
    from: usize,
    steps: (usize, usize),
    (len, n): (usize, usize),
    stream: bool,
) -> usize {
    let shift = (from % 8) as u32;
    #[cfg(target_arch = "x86_64")]
    if len.is_multiple_of(32) && super::avx2::available() {
        // SAFETY: the CPU has AVX2 (checked); `len` is a multiple of 32 (checked).
        return unsafe { shifted_runs_avx2(dst, to, src, from, steps, (len, n), stream) };
    }
    for k in 0..n {
        let (b, a) = (to + k * steps.0, from / 8 + k * steps.1);
        let (Some(out), Some(run)) = (dst.get_mut(b..b + len), src.get(a..a + len + 1)) else {
            return k;
        };
        let lines = stream && out.as_ptr().align_offset(stream::LINE) == 0;
        for (j, w) in run.windows(17).step_by(16).enumerate() {
            let (w0, w1) = (w[..16].try_into(), w[1..].try_into());
            let (Ok(w0), Ok(w1)) = (w0, w1) else {
                unreachable!("windows of 17 bytes")
            };
            let v = lanes::funnel(lanes::load(w0), lanes::load(w1), shift);
            if lines {
                lanes::stream(v, out, 16 * j);
            } else {
                lanes::put(v, out, 16 * j);
            }
        }
    }
    n
}

/// [`shifted_runs`] of runs of whole 32-byte chunks, each through [`funnel_chunks`], all the
/// runs in one call (one function of AVX2 code, not a call a run). Measured `s4[8191,8191]` rows ->
/// `T(8,128)E(4)` (runs of a line; 32 MiB, best of five, four alternating runs) 10.9-11.4
/// -> 11.6-12.3 GB/s; in cache, `s4[64,8191]`, 13.5 -> 18.3.
///
/// # Safety
/// The CPU has AVX2; `len` is a multiple of 32.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
#[target_feature(enable = "avx2")]
unsafe fn shifted_runs_avx2(
    dst: &mut [u8],
    to: usize,
    src: &[u8],
    from: usize,
    steps: (usize, usize),
    (len, n): (usize, usize),
    stream: bool,
) -> usize {
    let shift = (from % 8) as u32;
    for k in 0..n {
        let (b, a) = (to + k * steps.0, from / 8 + k * steps.1);
        let (Some(out), Some(run)) = (dst.get_mut(b..b + len), src.get(a..a + len + 1)) else {
            return k;
        };
        let lines = stream && out.as_ptr().align_offset(stream::LINE) == 0;
        // SAFETY: the CPU has AVX2 (the caller's contract); `out` is `len` bytes, a multiple
        // of 32, and `run` one more (indexed above); streamed, `out` starts on a line.
        unsafe { funnel_chunks(out, run, shift, lines) };
    }
    n
}

/// [`shifted`] of `n` bits (1 to 64) that lie within one 64-bit word a side (`from % 8 + n`
/// and `to % 8 + n` at most 64): whole words read (and the destination's written back) where
/// the buffers have them, else the bytes the bits lie in.
#[inline]
fn masked(dst: &mut [u8], to: usize, src: &[u8], from: usize, n: usize) {
    let (a, s, b, t) = (from / 8, from % 8, to / 8, to % 8);
    debug_assert!(n >= 1 && s + n <= 64 && t + n <= 64);
    let word = |bytes: &[u8], at: usize, len: usize| match bytes[at..].first_chunk::<8>() {
        Some(w) => u64::from_le_bytes(*w),
        None => bytes[at..at + len]
            .iter()
            .rev()
            .fold(0, |w, &b| w << 8 | u64::from(b)),
    };
    let mask = u64::MAX >> (64 - n);
    let v = (word(src, a, (s + n).div_ceil(8)) >> s) & mask;
    let len = (t + n).div_ceil(8);
    let new = (word(dst, b, len) & !(mask << t)) | (v << t);
    match dst[b..].first_chunk_mut::<8>() {
        Some(w) => *w = new.to_le_bytes(),
        None => dst[b..b + len].copy_from_slice(&new.to_le_bytes()[..len]),
    }
}

/// Packs the low `8 / P` bits of each of the first `len` bytes of `src` into `dst`, `P` a
/// byte, least-significant first; returns the elements packed (whole bytes of `dst` only).
#[inline]
fn pack<const P: usize>(dst: &mut [u8], src: &[u8], len: usize) -> usize {
    let bits = 8 / P;
    let mask = ((1u16 << bits) - 1) as u8;
    let n = len / P;
    let (groups, _) = src[..n * P].as_chunks::<P>();
    for (o, g) in dst[..n].iter_mut().zip(groups) {
        let mut v = 0u8;
        for (e, &x) in g.iter().enumerate() {
            v |= (x & mask) << (e * bits);
        }
        *o = v;
    }
    n * P
}

const LOW_NIBBLES: u64 = 0x000f_000f_000f_000f;
const BYTES_OF_PAIRS: u64 = 0x00ff_00ff_00ff_00ff;

/// [`pack`] for `E(4)`, eight bytes into four at a time in a 64-bit word: each pair of
/// bytes as a 16-bit lane, `lo | hi << 4` in its low byte, the low bytes gathered by shifts
/// (several times faster than the generic loop, which LLVM vectorizes into byte gathers).
#[inline]
fn pack_nibbles(dst: &mut [u8], src: &[u8], len: usize) -> usize {
    // 32 at a time as vectors.
    let v = len / 32;
    for k in 0..v {
        let (a, b) = (lanes::at(src, 32 * k), lanes::at(src, 32 * k + 16));
        lanes::put(lanes::nibbles_together(a, b), dst, 16 * k);
    }
    let (dst, src, len) = (&mut dst[16 * v..], &src[32 * v..], len - 32 * v);
    let n = len / 8;
    let (from, _) = src[..8 * n].as_chunks::<8>();
    let (to, _) = dst[..4 * n].as_chunks_mut::<4>();
    for (o, i) in to.iter_mut().zip(from) {
        let y = u64::from_le_bytes(*i);
        let t = (y & LOW_NIBBLES) | ((y >> 4) & (LOW_NIBBLES << 4));
        let t = (t | t >> 8) & 0x0000_ffff_0000_ffff;
        let t = (t | t >> 16) & 0xffff_ffff;
        *o = (t as u32).to_le_bytes();
    }
    let done = 8 * n;
    32 * v + done + pack::<2>(&mut dst[4 * n..], &src[done..], len - done)
}

/// [`pack`] for `E(2)`: 64 bytes into 16 at a time as vectors.
#[inline]
fn pack_crumbs(dst: &mut [u8], src: &[u8], len: usize) -> usize {
    let v = len / 64;
    for k in 0..v {
        let from = core::array::from_fn(|j| lanes::at(src, 64 * k + 16 * j));
        lanes::put(lanes::crumbs_together(from), dst, 16 * k);
    }
    64 * v + pack::<4>(&mut dst[16 * v..], &src[64 * v..], len - 64 * v)
}

/// [`pack`] for `E(1)`: 64 bytes into 8 at a time, four vectors' low bits gathered.
#[inline]
#[allow(unsafe_code)]
fn pack_bits(dst: &mut [u8], src: &[u8], len: usize) -> usize {
    let v = len / 64;
    let (to, _) = dst[..8 * v].as_chunks_mut::<8>();
    let (from, _) = src[..64 * v].as_chunks::<64>();
    #[cfg(target_arch = "x86_64")]
    if super::avx2::available() {
        // SAFETY: the CPU has AVX2 (checked).
        unsafe { pack_bits_avx2(to, from) };
        return 64 * v + pack::<8>(&mut dst[8 * v..], &src[64 * v..], len - 64 * v);
    }
    for (o, f) in to.iter_mut().zip(from) {
        let mut bits = 0u64;
        for k in 0..4 {
            bits |= u64::from(lanes::low_bits(lanes::at(f, 16 * k))) << (16 * k);
        }
        *o = bits.to_le_bytes();
    }
    64 * v + pack::<8>(&mut dst[8 * v..], &src[64 * v..], len - 64 * v)
}

/// [`pack_bits`] 32 bytes at a time in AVX2 registers (measured in cache, 1 MiB: 36 -> 68
/// GB/s; from memory, 64 MiB, it reads as fast as it can either way).
///
/// # Safety
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn pack_bits_avx2(to: &mut [[u8; 8]], from: &[[u8; 64]]) {
    for (o, f) in to.iter_mut().zip(from) {
        // SAFETY: both halves of `f` are 32 readable bytes; the CPU has AVX2 (the caller's
        // contract).
        let (lo, hi) = unsafe {
            (
                super::avx2::low_bits(f.as_ptr()),
                super::avx2::low_bits(f.as_ptr().add(32)),
            )
        };
        *o = (u64::from(lo) | u64::from(hi) << 32).to_le_bytes();
    }
}

const LOW_BITS: u64 = 0x0101_0101_0101_0101;

/// [`unpack`] for `E(2)`, sixteen bytes into 64 at a time in vectors.
#[inline]
fn unpack_crumbs(dst: &mut [u8], src: &[u8], len: usize, sign: bool) -> usize {
    // 64 at a time as vectors (measured s2 `E(2)` -> bytes in cache 9.6 -> 20.8 GB/s against
    // the 64-bit words below).
    let v = len / 64;
    for k in 0..v {
        for (j, mut x) in lanes::crumbs_apart(lanes::at(src, 16 * k))
            .into_iter()
            .enumerate()
        {
            if sign {
                x = lanes::sign_crumbs(x);
            }
            lanes::put(x, dst, 64 * k + 16 * j);
        }
    }
    64 * v + unpack_crumb_words(&mut dst[64 * v..], &src[16 * v..], len - 64 * v, sign)
}

/// [`unpack_crumbs`] two bytes into eight at a time in a 64-bit word.
#[inline]
fn unpack_crumb_words(dst: &mut [u8], src: &[u8], len: usize, sign: bool) -> usize {
    let n = len / 8;
    let (from, _) = src[..2 * n].as_chunks::<2>();
    let (to, _) = dst[..8 * n].as_chunks_mut::<8>();
    for (o, i) in to.iter_mut().zip(from) {
        // Byte `j` of the input to bits 32j..; its nibbles to 16-bit lanes; their crumbs to
        // bytes.
        let x = u64::from(u16::from_le_bytes(*i));
        let t = (x | x << 24) & 0x0000_00ff_0000_00ff;
        let t = (t | t << 12) & 0x000f_000f_000f_000f;
        let mut v = (t | t << 6) & (3 * LOW_BITS);
        if sign {
            // Bit 1 of each byte, times 0xfc: the sign filled into the bits above.
            v |= ((v >> 1) & LOW_BITS) * 0xfc;
        }
        *o = v.to_le_bytes();
    }
    8 * n + unpack::<4>(&mut dst[8 * n..], &src[2 * n..], len - 8 * n, sign)
}

/// [`unpack`] for `E(1)`, one byte into eight at a time in a 64-bit word.
#[inline]
fn unpack_bits(dst: &mut [u8], src: &[u8], len: usize, sign: bool) -> usize {
    let n = len / 8;
    let (to, _) = dst[..8 * n].as_chunks_mut::<8>();
    for (o, &x) in to.iter_mut().zip(&src[..n]) {
        // Byte `k` keeps bit `k` of `x` (0 or a power of two up to 0x80); adding 0x7f sets bit
        // 7 exactly when it is not 0, and never carries into the next byte.
        let spread = (u64::from(x) * LOW_BITS) & 0x8040_2010_0804_0201;
        let v = ((spread + 0x7f * LOW_BITS) >> 7) & LOW_BITS;
        *o = (if sign { v * 0xff } else { v }).to_le_bytes();
    }
    8 * n + unpack::<8>(&mut dst[8 * n..], &src[n..], len - 8 * n, sign)
}

/// [`unpack`] for `E(4)`, sixteen bytes into 32 at a time in vectors.
#[inline]
fn unpack_nibbles(dst: &mut [u8], src: &[u8], len: usize, sign: bool) -> usize {
    // 32 at a time as vectors, sign-extended too (measured s4 `E(4)` -> bytes 0.39-0.46 ->
    // 0.71-0.78 of a memcpy of the packed bytes, against the 64-bit words below).
    let v = len / 32;
    for k in 0..v {
        let [mut a, mut b] = lanes::nibbles_apart(lanes::at(src, 16 * k));
        if sign {
            (a, b) = (lanes::sign_nibbles(a), lanes::sign_nibbles(b));
        }
        lanes::put(a, dst, 32 * k);
        lanes::put(b, dst, 32 * k + 16);
    }
    let (dst, src, len) = (&mut dst[32 * v..], &src[16 * v..], len - 32 * v);
    let n = len / 8;
    let (from, _) = src[..4 * n].as_chunks::<4>();
    let (to, _) = dst[..8 * n].as_chunks_mut::<8>();
    for (o, i) in to.iter_mut().zip(from) {
        let x = u64::from(u32::from_le_bytes(*i));
        let t = (x | x << 16) & 0x0000_ffff_0000_ffff;
        let y = (t | t << 8) & BYTES_OF_PAIRS;
        let mut v = (y & LOW_NIBBLES) | ((y << 4) & (LOW_NIBBLES << 8));
        if sign {
            // Bit 3 of each byte, times 0xf0: the sign filled into the high nibble.
            v |= ((v >> 3) & 0x0101_0101_0101_0101) * 0xf0;
        }
        *o = v.to_le_bytes();
    }
    let done = 8 * n;
    32 * v + done + unpack::<2>(&mut dst[done..], &src[4 * n..], len - done, sign)
}

/// Unpacks the first `len` fields of `8 / P` bits of `src` (`P` a byte, least-significant
/// first) into bytes, sign-extended if `sign`; returns the elements unpacked (whole bytes of
/// `src` only).
#[inline]
fn unpack<const P: usize>(dst: &mut [u8], src: &[u8], len: usize, sign: bool) -> usize {
    let bits = 8 / P;
    let n = len / P;
    let (groups, _) = dst[..n * P].as_chunks_mut::<P>();
    for (g, &x) in groups.iter_mut().zip(&src[..n]) {
        for (e, o) in g.iter_mut().enumerate() {
            // The field at the top of the byte, then shifted down: arithmetically for signed.
            let top = x << (8 - bits - e * bits);
            *o = if sign {
                ((top as i8) >> (8 - bits)) as u8
            } else {
                top >> (8 - bits)
            };
        }
    }
    n * P
}

/// The most square blocks of packed fields along a leaf that go as one ([`BitFields::blocks`]).
const SQUARE_GROUP: usize = 64;

/// Bytes of a band of destination rows staged whole ([`bands`]).
const BAND_BYTES: usize = 64 << 10;

/// Streamed runs of sub-byte fields shorter than this many bytes go a band of destination
/// rows at a time ([`bands`]).
const BAND_RUN: usize = 4 * LINE;

/// The steps of `slice`'s outermost loop that are whole bands of the destination, staged: a
/// streamed copy of short runs of fields of one width (tile rows of `E(4)` fields to rows
/// that start anywhere in a line, or inside a byte) whose outermost loop alone moves the
/// destination ([`Nest::dominant`]) and whose other loops fill each of its steps (the band)
/// whole: the band's runs moved as bits into a scratch ([`copy`], in cache), then the band
/// into the destination as one run, its whole lines streamed. The runs stored one by one
/// each shared their first and last lines with others, read from memory first and written
/// in parts: measured (32 MiB, best of five, two alternating runs) `s4[8191,8191]`
/// `T(8,128)E(4)` -> rows 2.95-3.05 -> 3.60-3.64 GB/s; each row's runs into the scratch
/// then gathered into one run ([`gathered`]), 6.0; a band of whole tiles read in the source's
/// order ([`Tiles`]), 6.4-6.6 -> 7.8, its runs moved as arrays of their length 11.0-11.5
/// (three alternating runs; `u1[8191,32767]` 3.2-3.3 -> 3.5-3.8 -> 8.3-8.8, `u2[8191,16383]`
/// 4.8 -> 4.8 -> 8.0-8.3: a tile row of 16 bytes had ended in a call into `memcpy` of none).
/// Bands of whole tiles go so in cache too, not streamed (hot, alternating runs, GB/s: 2 MiB
/// `s4[512,8191]` 8.5-9.1 -> 12.6-18.5, 500 KiB `s4[999,1001]` 3.1-4.9 -> 8.7-13.8, 2 MiB
/// `u2[512,16383]` 3.9-5.0 -> 11.4-15.7), where their runs had gone through [`gathered`].
/// Returns the end of the steps done, from the slice's first: none where the copy is not so,
/// or past the last whole band (the array's edge), or, not streamed, at the first band that
/// is not whole tiles.
fn bands(
    nest: &Nest,
    fields: &BitFields,
    dst: &mut [u8],
    src: &[u8],
    slice: &Slice,
    stream: bool,
) -> usize {
    let start = slice.steps.start;
    let bits = fields.dst_bits;
    let (Kernel::Run(run), Some(&band)) = (&nest.kernel, nest.outer.first()) else {
        return start;
    };
    // Not streamed (in cache), only bands of whole tiles ([`Tiles`]) are staged.
    let tiles = Tiles::of(nest, bits);
    if !(stream || tiles.is_some()) || slice.depth != 0 || run.size * bits >= 8 * BAND_RUN {
        return start;
    }
    let Some((0, stride)) = nest.dominant(|l| l.dst) else {
        return start;
    };
    // The fields of a whole band: each dim's loops below it (and the run) as far as the dim
    // goes, the band's own dim as far as its loops go. As many as the band's slots: every
    // slot is written (each to its own, within the band: the loop alone moves the
    // destination), no padding between.
    let inner: Vec<&Loop> = nest.outer[1..].iter().chain([run]).collect();
    let mut count = 1usize;
    for (d, &bound) in nest.bounds.iter().enumerate() {
        let span =
            (inner.iter().filter(|l| l.dim == d)).try_fold(1usize, |n, l| n.checked_mul(l.size));
        let Some(span) = span else {
            return start;
        };
        let extent = if d == band.dim { span } else { span.min(bound) };
        let Some(c) = count.checked_mul(extent) else {
            return start;
        };
        count = c;
    }
    let bytes = (stride * bits).div_ceil(8) + 1;
    if count != stride || !(2 * BAND_RUN..=BAND_BYTES).contains(&bytes) {
        return start;
    }
    let whole = nest.bounds[band.dim] / band.mult;
    let end = slice.steps.end.min(whole).max(start);
    // Streamed rows that start on every 2-bit step of a byte (`E(2)` rows of an odd extent)
    // go into one run in `stage` (the band, from the bit of a byte it starts at), then out as
    // one run: a row at a time, the lines the rows share were each read from memory first
    // and written in parts. Measured (32 MiB, three or four alternating runs)
    // `u2[8191,16383]` 7.8-8.4 -> 9.1-9.4 GB/s; rows of `E(4)` lost so (`s4[8191,8191]`
    // 11.1-11.4 -> 9.8-10.1), of `E(1)` too (8.8 -> 8.4).
    let band_bits = stride * bits;
    let joined = tiles.is_some_and(|t| {
        stream && t.bits % 4 == 2 && t.apart == t.bits && t.rows * t.bits == band_bits
    });
    let (mut staged_rows, mut stage) = (alloc::vec::Vec::new(), alloc::vec::Vec::new());
    for k in start..end {
        // The band's first bit in `dst`, and its source's in `src`.
        let to = fields.dst_start + (k * stride - slice.origin.0) * bits;
        let from = fields.src_start + (k * band.src - slice.origin.1) * bits;
        if let Some(tiles) = tiles
            && from.is_multiple_of(8)
            && from / 8 + tiles.span() <= src.len()
        {
            staged_rows.resize(tiles.rows * tiles.row(), 0);
            let from = from / 8;
            if joined {
                stage.resize(bytes, 0);
            }
            let (out, at) = if joined {
                (&mut stage[..], to % 8)
            } else {
                (&mut *dst, to)
            };
            tiles.detile(
                out,
                at,
                src,
                (from, from + tiles.span()),
                &mut staged_rows,
                stream && !joined,
            );
            if joined {
                shifted_lines(dst, to, &stage, to % 8, band_bits, true);
            }
            continue;
        }
        if !stream {
            return k;
        }
        // The band in `stage` from that bit of a byte.
        stage.resize(bytes, 0);
        let phase = to % 8;
        let staged = BitFields {
            dst_start: phase,
            ..*fields
        };
        let one = Slice {
            depth: 0,
            steps: k..k + 1,
            origin: (k * stride, slice.origin.1),
        };
        copy(nest, &staged, &mut stage, src, &one, false);
        shifted_lines(dst, to, &stage, phase, stride * bits, true);
    }
    end
}

/// A band of [`bands`] whose source is whole tiles one after the other, each its rows' runs
/// in order (the `T(8,128)E(4)` tiles of a tile row), into destination rows that follow each
/// other from any bit (rows of 8191 `E(4)` fields): `rows` rows of `tiles` runs of `run`
/// bytes each, `bits` bits a destination row (its fields, the last run clipped at the
/// array's edge) and `apart` bits from one destination row to the next. The source is read
/// in order, a tile at a time, where a destination row at a time read a line of every tile
/// (512 bytes apart), each a load that waited on memory.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tiles {
    rows: usize,
    tiles: usize,
    run: usize,
    bits: usize,
    apart: usize,
}

impl Tiles {
    /// The band loop's steps of `nest` as [`Tiles`], for fields of `bits`: its loops the
    /// band, the rows of a tile, the tiles along a row, around runs of whole bytes that fill
    /// each tile's rows and each destination row back to back; `None` otherwise.
    pub(crate) fn of(nest: &Nest, bits: usize) -> Option<Tiles> {
        let (Kernel::Run(run), [_, rows, tiles]) = (&nest.kernel, nest.outer.as_slice()) else {
            return None;
        };
        let length = run.size.checked_mul(bits)?;
        let fields = tiles.size.checked_mul(run.size)?.min(nest.bounds[run.dim]);
        let fits = run.dst == 1
            && run.src == 1
            && length.is_multiple_of(8)
            && tiles.dst == run.size
            && rows.src == run.size
            && Some(tiles.src) == rows.size.checked_mul(run.size)
            && rows.dim != tiles.dim
            && tiles.dim == run.dim
            && rows.dst >= fields;
        fits.then_some(Tiles {
            rows: rows.size,
            tiles: tiles.size,
            run: length / 8,
            bits: fields.checked_mul(bits)?,
            apart: rows.dst.checked_mul(bits)?,
        })
    }

    /// Bytes of a staged row: its runs side by side.
    fn row(&self) -> usize {
        self.tiles * self.run
    }

    /// Bytes of the band's source: its tiles.
    fn span(&self) -> usize {
        self.tiles * self.rows * self.run
    }

    /// The band's tiles, from byte `from` of `src`, into the rows of `stage` (a run of every
    /// row a tile), the band `ahead` bytes on prefetched meanwhile; runs of `N` bytes (the
    /// run's length, known to the compiler: moved in registers, not a call into `memcpy` a
    /// run), or of the run's length if `N` is 0.
    #[inline(always)]
    fn stage_runs<const N: usize>(
        &self,
        src: &[u8],
        (from, ahead): (usize, usize),
        stage: &mut [u8],
    ) {
        let len = if N == 0 { self.run } else { N };
        let (row, tile) = (self.row(), self.rows * len);
        let band = &src[from..from + self.span()];
        for (t, runs) in band.chunks_exact(tile).enumerate() {
            for line in (0..tile).step_by(stream::LINE) {
                stream::prefetch(src, ahead + t * tile + line);
            }
            for (r, run) in runs.chunks_exact(len).enumerate() {
                stage[r * row + t * len..][..len].copy_from_slice(run);
            }
        }
    }

    /// The band whose source starts at byte `from` of `src` into `dst` from bit `to`: its
    /// tiles read in order into the rows of `stage` (a run of every row a tile), the band
    /// `ahead` bytes on prefetched meanwhile, then each staged row into its destination row
    /// ([`shifted_lines`], whole lines streamed if `stream`).
    fn detile(
        &self,
        dst: &mut [u8],
        to: usize,
        src: &[u8],
        (from, ahead): (usize, usize),
        stage: &mut [u8],
        stream: bool,
    ) {
        match self.run {
            16 => self.stage_runs::<16>(src, (from, ahead), stage),
            32 => self.stage_runs::<32>(src, (from, ahead), stage),
            64 => self.stage_runs::<64>(src, (from, ahead), stage),
            _ => self.stage_runs::<0>(src, (from, ahead), stage),
        }
        let row = self.row();
        for r in 0..self.rows {
            shifted_lines(
                dst,
                to + r * self.apart,
                stage,
                8 * r * row,
                self.bits,
                stream,
            );
        }
    }
}

/// Copies the steps `slice` of `nest` (see [`Nest::walk_from`]) from `src` into `dst`,
/// stored as `fields` says (offsets in fields, counted from `slice.origin`); the interleaving
/// kernels of `E(4)` fields with non-temporal stores if `stream`.
pub(crate) fn copy(
    nest: &Nest,
    fields: &BitFields,
    dst: &mut [u8],
    src: &[u8],
    slice: &Slice,
    stream: bool,
) {
    match &nest.kernel {
        Kernel::Element => nest.walk_from(slice, &mut |leaf: &Leaf<'_>| {
            for k in 0..leaf.n {
                let (d, s) = leaf.offsets(k);
                fields.element(dst, src, d, s);
            }
        }),
        Kernel::Run(run) if fields.src_bits == fields.dst_bits && fields.dst_bits < 8 => {
            let done = bands(nest, fields, dst, src, slice, stream);
            let slice = &Slice {
                steps: done..slice.steps.end.max(done),
                ..slice.clone()
            };
            if scattered_tiles(nest, run, fields, dst, src, slice, stream) {
                return;
            }
            // Sub-byte fields of one width: the whole runs of a leaf as bits
            // ([`shifted_runs`] where they start on bytes of the destination, else
            // [`shifted`]), their length and strides hoisted out of the loop, the clipped ones
            // as runs.
            let bits = fields.dst_bits;
            let mut stage = None;
            // Source bytes from a step of the outermost loop to the next (the band of
            // [`bands`]), where [`gathered`] prefetches.
            let ahead = match nest.outer.len() {
                n if n >= 2 => nest.outer[0].src * fields.src_bits / 8,
                _ => 0,
            };
            nest.walk_from(slice, &mut |leaf: &Leaf<'_>| {
                // Runs clip only past the array's edge, so only the last ones may: the whole
                // ones come first (found by a comparison, not `count`'s division).
                let reach = run.size.saturating_sub(1) * run.mult;
                let whole = (0..leaf.n)
                    .take_while(|&k| {
                        !run.clip
                            || nest.bounds[run.dim].saturating_sub(Nest::at_step(leaf, run.dim, k))
                                > reach
                    })
                    .count();
                let (d, s) = leaf.offsets(0);
                let (to, from) = (fields.dst_start + d * bits, fields.src_start + s * bits);
                let (dstep, sstep) = (leaf.step.dst * bits, leaf.step.src * bits);
                let length = run.size * bits;
                // Streamed where a run is whole lines of the destination: partial lines
                // streamed by two runs each cost more than the reads they save (measured
                // s4 `T(8,128)E(4)` -> rows of 8191, 32 MiB, 2.4 -> 1.7 GB/s streaming all).
                let lines = stream && length.is_multiple_of(8 * stream::LINE);
                let on_bytes = [to, dstep, sstep].iter().all(|b| b.is_multiple_of(8));
                let done = if dstep == length
                    && whole > 1
                    && [from, sstep, length].iter().all(|b| b.is_multiple_of(8))
                {
                    let stage = stage.get_or_insert_with(stream::Lines::boxed);
                    let runs = (from / 8, sstep / 8, ahead);
                    gathered(dst, to, src, runs, (length / 8, whole), stage, stream);
                    whole
                } else if on_bytes && length.is_multiple_of(128) {
                    let steps = (dstep / 8, sstep / 8);
                    shifted_runs(dst, to / 8, src, from, steps, (length / 8, whole), lines)
                } else {
                    0
                };
                for k in done..whole {
                    let to = to + k * dstep;
                    let on_line = to.is_multiple_of(8)
                        && dst.as_ptr().wrapping_add(to / 8).align_offset(stream::LINE) == 0;
                    shifted(dst, to, src, from + k * sstep, length, lines && on_line);
                }
                for k in whole..leaf.n {
                    let (d, s) = leaf.offsets(k);
                    fields.run(
                        dst,
                        src,
                        d,
                        s,
                        nest.count(run, Nest::at_step(leaf, run.dim, k)),
                    );
                }
            })
        }
        Kernel::Run(run) => nest.walk_from(slice, &mut |leaf: &Leaf<'_>| {
            for k in 0..leaf.n {
                let (d, s) = leaf.offsets(k);
                let len = nest.count(run, Nest::at_step(leaf, run.dim, k));
                fields.run(dst, src, d, s, len);
            }
        }),
        Kernel::Block { a, b, form } => {
            // Made (2 × 8 KiB zeroed) on the first block only; 2 × a page and
            // `stream::PANEL_BYTES` (68 KiB) where a block of fields is larger (a 32 KiB panel
            // of `E(4)` fields, see `nest::panel_sides`, and the `E(2)` and `E(1)` blocks of a
            // line of fields a side: staged whole, not in chunks whose destination rows were
            // pieces of 16 bytes; measured u1 `{1,0:E(1)}` -> `{0,1:E(1)}` 0.15 -> 0.18 of
            // memcpy, u2 0.18 -> 0.21).
            let wide = match form {
                Form::Lanes { wide, .. } => *wide,
                _ => [ONCE; 2],
            };
            let panel = matches!(fields.src_bits, 1 | 2 | 4)
                && a.size * wide[0].size * b.size * wide[1].size * fields.src_bits
                    > 8 * 2 * stream::PAGE;
            let mut scratch = None;
            let mut blocks = |leaf: &Leaf<'_>, inner: Option<&Loop>| {
                let scratch = scratch.get_or_insert_with(|| Scratch {
                    lines: stream::Staging::new(panel),
                    out: stream::Staging::new(panel),
                    stream,
                    run: Vec::new(),
                });
                // Where no loop clips, the blocks of a row of tiles at once (see
                // `Nest::walk_pairs_from`), if every block starts on a byte as the first does:
                // measured s4 rows -> `T(8,128)(2,1)E(4)`, four blocks of 128 bytes a tile, in
                // cache 14.9 -> 33.0 GB/s, back 13.9 -> 28.8; 64 MiB 0.73-0.84 -> 1.10-1.15 of
                // memcpy, back 0.85-0.91 -> 1.46-1.51.
                let bytes = |l: &Loop| {
                    (l.dst * fields.dst_bits).is_multiple_of(8)
                        && (l.src * fields.src_bits).is_multiple_of(8)
                };
                let step = |l: &Loop| (l.dst * fields.dst_bits / 8, l.src * fields.src_bits / 8);
                if let Some(i) = inner
                    && bytes(i)
                    && bytes(&leaf.step)
                    && leaf.n > 0
                {
                    let ((dst_step, src_step), (gd, gs)) = (step(i), step(&leaf.step));
                    let reps = Runs {
                        outer: (leaf.n, gd, gs),
                        ..Runs::row(i.size, dst_step, src_step)
                    };
                    let whole = Whole {
                        at: leaf.at,
                        reps,
                        a,
                        b,
                        form,
                    };
                    if fields.whole_blocks(scratch, dst, src, whole) {
                        return;
                    }
                }
                let mut one = |leaf: &Leaf<'_>| {
                    fields.blocks(nest, scratch, dst, src, leaf, (a, b, form));
                };
                match inner {
                    None => one(leaf),
                    // Nothing clips: the innermost loop's leaf at each step, `base` as it is.
                    Some(i) => (0..leaf.n).for_each(|j| {
                        one(&Leaf {
                            base: leaf.base,
                            at: leaf.offsets(j),
                            step: *i,
                            n: i.size,
                        });
                    }),
                }
            };
            let clips = nest.outer.iter().chain([a, b]).any(|l| l.clip);
            if clips {
                // The array's edge clips some loops: the leaves of the loops around the
                // innermost still go a row of tiles at a time as far as nothing clips inside
                // them, the rest a leaf of the innermost loop at a time: measured `u2[8191,
                // 16383]` rows -> `T(8,128)(2,1)E(2)` through `T(8,128)E(2)`, whose second
                // step is such (32 MiB, best of five), 2.4 -> 5.1 GB/s.
                let walked = nest.walk_pairs_clipped_from(slice, [*a, *b], &mut blocks);
                if !walked {
                    nest.walk_from(slice, &mut |leaf: &Leaf<'_>| blocks(leaf, None));
                }
            } else {
                nest.walk_pairs_from(slice, &mut blocks);
            }
        }
    }
}

impl BitFields {
    /// The blocks of one leaf of a block kernel: the whole ones through [`Self::whole_blocks`]
    /// where it takes them, the rest (and the parts of blocks past the array's edge) field by
    /// field.
    fn blocks(
        &self,
        nest: &Nest,
        scratch: &mut Scratch,
        dst: &mut [u8],
        src: &[u8],
        leaf: &Leaf<'_>,
        (a, b, form): (&Loop, &Loop, &Form),
    ) {
        let whole = nest.whole_steps(leaf, &[*a, *b]);
        // The whole blocks at once where every block starts on a byte as the first does,
        // else one by one (measured s4 rows -> `T(8,128)(2,1)E(4)`, four blocks of 128
        // bytes a leaf, in cache 10.6 -> 15.1 GB/s, and back 10.6 -> 13.6; 64 MiB 0.64-0.74
        // -> 0.75-0.77 of memcpy).
        let bytes = |step: usize, bits: usize| (step * bits).is_multiple_of(8);
        let together = if bytes(leaf.step.dst, self.dst_bits) && bytes(leaf.step.src, self.src_bits)
        {
            whole
        } else {
            1
        };
        let mut k = 0;
        // Square blocks (a tile's few rows) that follow each other along the destination
        // rows: a power of two of them at a time as one block, widened by the leaf's loop
        // (measured, 500 KiB, hot, best of 30: `s4[1000,1000]` `{0,1:T(8,128)E(4)}` -> rows
        // 0.27 -> 0.40-0.69 GB/s; rows -> `{0,1:T(8,128)E(4)}`, whose blocks do not follow
        // each other so, unchanged).
        if matches!(form, Form::Square)
            && leaf.step.dst == a.size * a.dst
            && together == whole
            && whole >= 2
        {
            while whole - k >= 2 {
                let n = (whole - k).min(SQUARE_GROUP);
                let n = 1 << n.ilog2();
                let wa = Loop {
                    size: n,
                    clip: false,
                    ..leaf.step
                };
                let one = Whole {
                    at: leaf.offsets(k),
                    reps: Runs::row(1, 0, 0),
                    a,
                    b,
                    form,
                };
                if !self.transposed(scratch, dst, src, one, &[wa, ONCE]) {
                    break;
                }
                k += n;
            }
        }
        while k < leaf.n {
            let n = together.min(whole.saturating_sub(k));
            let reps = Runs::row(
                n,
                leaf.step.dst * self.dst_bits / 8,
                leaf.step.src * self.src_bits / 8,
            );
            let whole = Whole {
                at: leaf.offsets(k),
                reps,
                a,
                b,
                form,
            };
            if n > 0 && self.whole_blocks(scratch, dst, src, whole) {
                k += n;
                continue;
            }
            if let (Form::Zip, Some((x, y))) = (form, prefixes(nest, leaf, k, [*a, *b]))
                && x == a.size
                && self.zip_prefix(scratch, (dst, src), leaf.offsets(k), (a, b), y)
            {
                k += 1;
                continue;
            }
            if let (Form::Lanes { wide, inner: 1 }, Some(cut)) =
                (form, prefixes(nest, leaf, k, [*a, *b]))
                && wide.iter().all(|w| w.size == 1)
            {
                self.cut_lanes(scratch, (dst, src), leaf.offsets(k), (a, b, form), cut);
                k += 1;
                continue;
            }
            let wide = match form {
                Form::Lanes { wide, .. } => *wide,
                _ => [ONCE; 2],
            };
            edge(nest, leaf, k, [*a, *b, wide[0], wide[1]], &mut |d, s| {
                self.element(dst, src, d, s);
            });
            k += 1;
        }
    }
}

impl BitFields {
    /// A transpose block at slots `(d, s)` that the array's edge cuts to its first `x` source
    /// rows (steps of `a`) and `y` destination rows (steps of `b`): in whole blocks whose
    /// sides are the powers of two that sum to `x` and `y` (65 rows: 64, then 1), each
    /// through the block kernels ([`Self::whole_blocks`]) or, where they do not take it (a
    /// block that starts inside a byte, or too narrow), field by field. Such blocks had gone
    /// a field at a time whole: the last 65 of the 8001 destination fields of each row of
    /// `s4[8001,16384]` `{1,0:E(4)}` -> `{0,1:E(4)}`, a percent of the fields, took 14% of
    /// the copy's time.
    fn cut_lanes(
        &self,
        scratch: &mut Scratch,
        (dst, src): (&mut [u8], &[u8]),
        (d, s): (usize, usize),
        (a, b, form): (&Loop, &Loop, &Form),
        (x, y): (usize, usize),
    ) {
        for (oa, pa) in powers_of_two(x) {
            for (ob, pb) in powers_of_two(y) {
                let at = (d + oa * a.dst + ob * b.dst, s + oa * a.src + ob * b.src);
                let (pa, pb) = (
                    Loop {
                        size: pa,
                        clip: false,
                        ..*a
                    },
                    Loop {
                        size: pb,
                        clip: false,
                        ..*b
                    },
                );
                let whole = Whole {
                    at,
                    reps: Runs::row(1, 0, 0),
                    a: &pa,
                    b: &pb,
                    form,
                };
                if self.whole_blocks(scratch, dst, src, whole) {
                    continue;
                }
                for p in 0..pa.size {
                    for q in 0..pb.size {
                        let (d, s) = (at.0 + p * a.dst + q * b.dst, at.1 + p * a.src + q * b.src);
                        self.element(dst, src, d, s);
                    }
                }
            }
        }
    }

    /// A zip block at slots `(d, s)` whose columns `b` the array's edge cuts to `y` (its rows
    /// `a` whole), where the whole block's source lies in `src` (a tiled source's padding, or
    /// the next row of an untiled one): the whole block zipped into `scratch.run`, then the
    /// first `y` columns' fields (a prefix of the destination's run) moved as bits
    /// ([`shifted`]). `false` (nothing done) where the source does not hold the whole block,
    /// the block is larger than a page (zip blocks are a few lines), or no block kernel takes
    /// it. Such blocks had gone a field at a time: the edge column of the second step of
    /// `s4[8191,8191]` rows -> `T(8,128)(2,1)E(4)` through `T(8,128)E(4)` a slab at a time,
    /// measured (32 MiB, best of five, alternating runs) 2.13-2.18 -> 3.2-3.3 GB/s (1.8
    /// before [`shifted_runs`]; that copy has since gone in one step, whose edge's narrowest
    /// piece is such a block, see `relayout::FIELDS_PIECE`), `u2[8191,16383]` rows ->
    /// `T(8,128)(2,1)E(2)` 1.3-1.4 (both changes) -> 2.3.
    fn zip_prefix(
        &self,
        scratch: &mut Scratch,
        (dst, src): (&mut [u8], &[u8]),
        (d, s): (usize, usize),
        (a, b): (&Loop, &Loop),
        y: usize,
    ) -> bool {
        let last = s + (a.size - 1) * a.src + (b.size - 1) * b.src;
        let fields = a.size * b.size;
        if self.src_start + (last + 1) * self.src_bits > 8 * src.len()
            || fields * self.dst_bits > 8 * stream::PAGE
        {
            return false;
        }
        let mut run = core::mem::take(&mut scratch.run);
        run.resize((fields * self.dst_bits).div_ceil(8), 0);
        let stream = core::mem::replace(&mut scratch.stream, false);
        let whole = Whole {
            at: (0, s),
            reps: Runs::row(1, 0, 0),
            a,
            b,
            form: &Form::Zip,
        };
        let alone = BitFields {
            dst_start: 0,
            ..*self
        };
        let done = alone.whole_blocks(scratch, &mut run, src, whole);
        scratch.stream = stream;
        if done {
            let to = self.dst_start + d * self.dst_bits;
            shifted(dst, to, &run, 0, y * a.size * self.dst_bits, false);
        }
        scratch.run = run;
        done
    }
}

/// The powers of two that sum to `n`, largest first, each with the sum of those before it
/// (`13`: `(0, 8)`, `(8, 4)`, `(12, 1)`).
fn powers_of_two(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..usize::BITS).rev().filter_map(move |k| {
        let p = 1usize << k;
        (n & p != 0).then(|| (n & !(p | (p - 1)), p))
    })
}

/// `$kernel::<P, S>($args)` for the `$rows` rows of a nibble interleave (2, 4 or 8: `P =
/// $rows / 2` pairs of rows) and `S = $stream`.
#[cfg(target_arch = "x86_64")]
macro_rules! by_pairs {
    ($kernel:ident, $rows:expr, $stream:expr, ($($arg:expr),*)) => {
        match ($rows, $stream) {
            (2, false) => $kernel::<1, false>($($arg),*),
            (4, false) => $kernel::<2, false>($($arg),*),
            (_, false) => $kernel::<4, false>($($arg),*),
            (2, true) => $kernel::<1, true>($($arg),*),
            (4, true) => $kernel::<2, true>($($arg),*),
            (_, true) => $kernel::<4, true>($($arg),*),
        }
    };
}

impl BitFields {
    /// The whole blocks `reps`, the first at slots `(d, s)`, the others at its offsets in
    /// `reps` (bytes): transposing blocks of fields of 1, 2 or 4 bits through
    /// [`Self::transposed`]; interleaving blocks of `E(4)` fields on both sides in registers
    /// where the rows are whole vectors, the others through bytes ([`Self::interleaved`]).
    /// `false` (nothing done) for other fields, forms or blocks that do not start on a byte.
    #[allow(unsafe_code)]
    #[inline]
    fn whole_blocks(
        &self,
        scratch: &mut Scratch,
        dst: &mut [u8],
        src: &[u8],
        whole: Whole<'_>,
    ) -> bool {
        match whole.form {
            Form::Lanes { wide, inner: 1 } => {
                return self.transposed(scratch, dst, src, whole, wide);
            }
            // Blocks of fewer than a vector a side (a tile's 8 rows of `E(4)` fields, where
            // the tiles overhang and the array is too small for panels): the same transpose
            // through bytes, not a field at a time. Measured (500 KiB, hot, best of 20)
            // `s4[1000,1000]` `{0,1:T(8,128)E(4)}` -> rows 0.10 -> 0.26 GB/s, back 0.10 -> 0.30:
            // still far from memory speed, the blocks are 64 bytes.
            Form::Square => return self.transposed(scratch, dst, src, whole, &[ONCE; 2]),
            _ => {}
        }
        let Whole {
            at: (d, s),
            reps,
            a,
            b,
            form,
        } = whole;
        let (stream, lines) = (scratch.stream, scratch.lines.get());
        let (dst_at, src_at) = (self.dst_start + 4 * d, self.src_start + 4 * s);
        let even = |x: usize| x.is_multiple_of(2);
        // A zip's source rows may start half a byte in ([`Half`]).
        let zip = matches!(form, Form::Zip) && b.size.is_multiple_of(32);
        if (self.dst_bits, self.src_bits) != (4, 4)
            || !dst_at.is_multiple_of(8)
            || !(src_at.is_multiple_of(8) || zip)
        {
            return self.interleaved(scratch, dst, src, whole);
        }
        // Every block's bytes from `first` plus its offsets in `reps`; the last block's the
        // largest.
        let (first, last) = ((dst_at / 8, src_at / 8), reps.last());
        let block = a.size * b.size / 2;
        #[cfg(target_arch = "x86_64")]
        let avx2 = super::avx2::available();
        #[cfg(not(target_arch = "x86_64"))]
        let avx2 = false;
        match form {
            // `a.size` rows of `b.size` fields into one run: in registers, 32 fields of each
            // row at a time, where the rows are whole vectors.
            Form::Zip if zip => {
                let rows = Rows {
                    at: src_at / 8,
                    stride: 4 * a.src / 8,
                    len: b.size / 2,
                };
                let half = Half {
                    first: src_at % 8 / 4,
                    each: a.src % 2,
                };
                let out = &mut dst[first.0..first.0 + last.0 + block];
                let avx2 = avx2 && rows.len.is_multiple_of(32);
                // AVX2 measured s4 rows -> `T(64,128)(8,1)E(4)` 0.54 -> 0.75 of memcpy; streamed
                // straight from the registers when every block starts on a line (each 64
                // fields of the rows fill whole lines), 0.75 -> 0.90.
                #[cfg(target_arch = "x86_64")]
                {
                    let direct = avx2
                        && stream
                        && out.as_ptr().align_offset(LINE) == 0
                        && reps.dst_steps_multiple_of(LINE);
                    if avx2 && (direct || !stream) {
                        // SAFETY: the CPU has AVX2 (checked); every block starts on a line if
                        // streamed.
                        unsafe {
                            by_pairs!(
                                zip_nibbles_avx2,
                                a.size,
                                direct,
                                (out, src, (rows, half), reps)
                            );
                        }
                        return true;
                    }
                }
                // At most 8 rows of `MAX_RUN` fields: 512 bytes, gathered to be streamed.
                let buf = &mut lines.as_flattened_mut()[..block];
                reps.each(|d, s| {
                    let rows = Rows {
                        at: first.1 + s,
                        ..rows
                    };
                    let out = &mut out[d..][..block];
                    let to = if stream { &mut *buf } else { &mut *out };
                    #[cfg(target_arch = "x86_64")]
                    if avx2 {
                        // SAFETY: the CPU has AVX2 (checked); stored in place.
                        unsafe {
                            by_pairs!(
                                zip_nibbles_avx2,
                                a.size,
                                false,
                                (to, src, (rows, half), ONE)
                            );
                        }
                    }
                    if !avx2 {
                        match a.size {
                            2 => zip_nibbles::<1>(to, src, rows, half),
                            4 => zip_nibbles::<2>(to, src, rows, half),
                            _ => zip_nibbles::<4>(to, src, rows, half),
                        }
                    }
                    if stream {
                        stream::copy(out, buf);
                    }
                });
                true
            }
            // One run into `b.size` rows of `a.size` fields: in registers, 32 fields of each
            // row at a time, where the rows are whole vectors.
            Form::Unzip if even(b.dst) && a.size.is_multiple_of(32) => {
                let rows = Rows {
                    at: dst_at / 8,
                    stride: 4 * b.dst / 8,
                    len: a.size / 2,
                };
                let from = &src[first.1..first.1 + last.1 + block];
                #[cfg(target_arch = "x86_64")]
                if rows.len.is_multiple_of(32) && avx2 {
                    // Streamed straight from the registers when every row starts on a line
                    // (measured `T(64,128)(8,1)E(4)` -> rows 0.35 -> 0.64-0.70 of memcpy,
                    // `(4,1)` 0.28 -> 0.63-0.79, against 16-byte vectors gathered per row).
                    let start = dst.as_ptr().wrapping_add(rows.at);
                    let direct = stream
                        && start.align_offset(LINE) == 0
                        && rows.stride.is_multiple_of(LINE)
                        && reps.dst_steps_multiple_of(LINE);
                    let to = &mut dst[rows.at..last.0 + rows.range(b.size - 1).end];
                    let rows = Rows { at: 0, ..rows };
                    // SAFETY: the CPU has AVX2 (checked); every row starts on a line if
                    // streamed.
                    unsafe {
                        by_pairs!(unzip_nibbles_avx2, b.size, direct, (to, rows, from, reps));
                    }
                    return true;
                }
                reps.each(|d, s| {
                    let rows = Rows {
                        at: first.0 + d,
                        ..rows
                    };
                    let from = &from[s..][..block];
                    if stream {
                        // At most 8 rows of `MAX_RUN` fields: 512 bytes, gathered to be
                        // streamed.
                        let buf = &mut lines.as_flattened_mut()[..b.size * rows.len];
                        let packed = Rows {
                            at: 0,
                            stride: rows.len,
                            ..rows
                        };
                        unzip_rows(buf, packed, from, b.size);
                        for y in 0..b.size {
                            stream::copy(&mut dst[rows.range(y)], &buf[packed.range(y)]);
                        }
                    } else {
                        unzip_rows(dst, rows, from, b.size);
                    }
                });
                true
            }
            _ => self.interleaved(scratch, dst, src, whole),
        }
    }
}

impl BitFields {
    /// The whole transposing blocks `reps` of fields of 1, 2 or 4 bits on both sides (the
    /// first at slots `(d, s)`, the others at its offsets in `reps`, bytes), through a scratch
    /// of bytes (`stage`: a page, or a panel where the block needs one), as many source rows
    /// at a time as fit (`chunk`): a block's source rows
    /// (`a` continued by `wide[0]`) made into rows of bytes, transposed as bytes
    /// ([`interleave`]) and copied or packed into the destination rows (`b` continued by
    /// `wide[1]`). `E(4)` fields need no unpacking: two source rows, swapped nibble by nibble
    /// (`lanes::swap_nibbles`: the low nibbles of two bytes, then the high ones) and
    /// interleaved, are one row of bytes whose transpose is the destination's bytes; whole
    /// destination lines go straight from AVX2 registers where the CPU has it
    /// ([`kernels::transpose_bytes_into_lines`](super::kernels::transpose_bytes_into_lines):
    /// measured 0.29 -> 0.48-0.53 of memcpy streamed, against the 16-byte transpose and
    /// copy; in cache, 4 MiB, 3.6-4.0 -> 6.1-6.7 GB/s). Blocks of 128 rows or more of whole
    /// 32-byte chunks go further in AVX2: eight source rows zipped straight into 4-byte words
    /// of fields (no row of bytes in between), whose square blocks are the destination lines
    /// ([`kernels::transpose_fields_into_lines`](super::kernels::transpose_fields_into_lines);
    /// measured, 64 MiB, medians of three alternating runs, same panels: s4 `{1,0:E(4)}` ->
    /// `{0,1:E(4)}` 0.41 -> 0.47-0.50 of memcpy, `T(8,128)E(4)` -> `{0,1:T(8,128)E(4)}` 0.42
    /// -> 0.72-0.76; in cache, 4 MiB, 10-11 -> 18-20 GB/s). Blocks of `E(2)` and `E(1)`
    /// fields of `64 · 8 / bits` rows or more likewise, the planes transposed in registers as
    /// the rows are zipped (measured, blocks of a line a side: u2 `{1,0:E(2)}` -> `{0,1:E(2)}`
    /// 0.28 -> 0.32 of memcpy, u1 0.24 -> 0.31; in cache 8.1 -> 13.4 GB/s, u1 7.5 -> 11.5).
    /// `E(2)` and `E(1)` rows of whole words need no unpacking either: the source rows go
    /// into the stage in groups of `g = 8 / bits` planes, each position's `g × g` matrix of
    /// fields is transposed across the planes ([`transpose_planes`]), and the byte transpose
    /// of the stage is then the destination rows one after the other, that of each plane
    /// every `g`-th of them (measured, with blocks of a line of fields a side: u2 0.05 -> 0.20
    /// of memcpy, u1 0.03 -> 0.12, against unpacking to a byte each; whole lines a plane
    /// from AVX2 registers: see below). Others are unpacked to a byte each and packed again.
    /// `false` (nothing done) for other fields, sides that are not powers of two or rows that
    /// do not start on a byte. Measured, 64 MiB, against field by field: s4 `{1,0:E(4)}` ->
    /// `{0,1:E(4)}` 0.01 -> 0.48-0.53 of memcpy, `{1,0:T(8,128)E(4)}` -> `{0,1:T(8,128)E(4)}`
    /// 0.01 -> 0.44-0.48, u2 0.00 -> 0.20, u1 0.00 -> 0.12 (none yet at memory speed).
    #[allow(unsafe_code)]
    fn transposed(
        &self,
        scratch: &mut Scratch,
        dst: &mut [u8],
        src: &[u8],
        whole: Whole<'_>,
        &[wa, wb]: &[Loop; 2],
    ) -> bool {
        let Whole {
            at: (d, s),
            reps,
            a,
            b,
            ..
        } = whole;
        let bits = self.src_bits;
        let (dst_at, src_at) = (self.dst_start + bits * d, self.src_start + bits * s);
        let byte = |fields: usize| (fields * bits).is_multiple_of(8);
        // `rows` source rows of `len` fields; `pairs`: `E(4)` rows of whole vectors, two
        // to a row of bytes.
        let (rows, len) = (a.size * wa.size, b.size * wb.size);
        let pairs = bits == 4 && (len / 2).is_multiple_of(lanes::BYTES);
        // `E(2)` and `E(1)`: `g` source rows' bytes at each column are a `g × g` matrix of
        // fields (see `transpose_planes`), no unpacking.
        let g = 8 / bits;
        let planes = bits < 4 && (len * bits / 8).is_multiple_of(8);
        let per = if pairs { 2 } else { 1 };
        // Bytes of a source row in the stage.
        let width = if planes { len * bits / 8 } else { len };
        let stream = scratch.stream;
        let (stage, out) = (
            scratch.lines.get().as_flattened_mut(),
            scratch.out.get().as_flattened_mut(),
        );
        // Source rows a chunk: `chunk / per` rows of bytes, `width` bytes each.
        let mut chunk = rows;
        while chunk > per && chunk / per * width > stage.len() {
            chunk /= 2;
        }
        if self.dst_bits != bits
            || !matches!(bits, 1 | 2 | 4)
            || !dst_at.is_multiple_of(8)
            || !src_at.is_multiple_of(8)
            || ![a.size, b.size, rows].iter().all(|n| n.is_power_of_two())
            || chunk < per
            || chunk / per * width > stage.len()
            || (planes && chunk < g)
            || ![a.src, wa.src, b.dst, wb.dst, len, chunk]
                .into_iter()
                .all(byte)
        {
            return false;
        }
        // Bytes from a block's corner to its source row `x` and destination row `y` (sides
        // of powers of two: masks and shifts).
        let (sa, sb) = (a.size.trailing_zeros(), b.size.trailing_zeros());
        // (Closures of copies, not of references: they run once a row.)
        let (am, a_src, wa_src) = (a.size - 1, a.src * bits / 8, wa.src * bits / 8);
        let from = move |x: usize| (x & am) * a_src + (x >> sa) * wa_src;
        let (bm, b_dst, wb_dst) = (b.size - 1, b.dst * bits / 8, wb.dst * bits / 8);
        let to = move |y: usize| (y & bm) * b_dst + (y >> sb) * wb_dst;
        let (row, part) = (len * bits / 8, chunk * bits / 8);
        // Destination rows whose parts follow each other (the rows of a tile, whole) are one
        // run of `b` parts, put at once, not row by row: measured u1 `{0,1:E(1)}` ->
        // `{1,0:T(8,128)E(1)}`, rows of 16 bytes, in cache (512 KiB) 3.1 -> 5.4 GB/s, 64 MiB
        // 0.06 -> 0.22 of memcpy; u2 `T(8,128)E(2)` 0.11 -> 0.25; with `(2,1)` sub-tiles, u1
        // 0.11 -> 0.13, u2 0.16 -> 0.17 (medians of three alternating runs).
        let joined = if b.dst * bits / 8 == part { b.size } else { 1 };
        let cols = chunk / per;
        // (The stage's spare lines past the block are for `transpose_fields_into_lines`'s
        // padded rows.)
        let (staging, out) = (stage, &mut out[..cols * width]);
        let first = (dst_at / 8, src_at / 8);
        let mut blocks = reps.offsets().peekable();
        while let Some((dd, ss)) = blocks.next() {
            let (d0, s0) = (first.0 + dd, first.1 + ss);
            // The next block's rows are fetched meanwhile: a block's rows are as many streams
            // as it has rows, more than the hardware prefetcher follows (measured s4
            // `{1,0:E(4)}` -> `{0,1:E(4)}` 0.18-0.20 -> 0.27 of memcpy).
            let next = blocks.peek().map(|&(_, s)| first.1 + s);
            // A block staged whole (a panel: see `stream::PANEL_BYTES`) fetches the next as it
            // is transposed, a few lines per line stored (`kernels::Fetch`), not as its rows
            // are staged: measured (medians of four alternating runs) s4 `{1,0:E(4)}` ->
            // `{0,1:E(4)}` 0.35 -> 0.39 of memcpy, `T(8,128)E(4)` -> `{0,1:T(8,128)E(4)}`
            // 0.33 -> 0.38, but `{0,1:E(4)}` -> `T(8,128)E(4)` 0.36 -> 0.32.
            #[cfg(target_arch = "x86_64")]
            // Rows shorter than a line, one after another in runs (a tile's rows), are
            // fetched as runs: measured (medians of three alternating runs, 64 MiB) u1
            // `T(8,128)E(1)` -> `{0,1:E(1)}` 0.17 -> 0.39 of memcpy, u2 `T(8,128)E(2)` 0.43 ->
            // 0.52.
            let staged = next.filter(|_| chunk == rows).and_then(|n| {
                super::kernels::Fetch::rows(
                    src,
                    n,
                    (a.size, a.src * bits / 8, wa.src * bits / 8),
                    (rows, row),
                )
                .or_else(|| {
                    (a.src * bits / 8 == row).then(|| {
                        super::kernels::Fetch::rows(
                            src,
                            n,
                            (1, 0, wa.src * bits / 8),
                            (wa.size, a.size * row),
                        )
                    })?
                })
                .or_else(|| {
                    // Rows of part of a line that the next block continues (the blocks of
                    // transposed tiles that overhang, rows of 32 bytes), streamed: the lines
                    // after the next block's rows, which it does not read (in cache, the
                    // fetches measured slower: `s4[1000,1000]` 0.14 -> 0.11). Measured (64
                    // MiB, five alternating runs) `s4[8000,8000]` rows -> `{0,1:T(8,128)E(4)}`
                    // 0.31-0.40 -> 0.40-0.61 of memcpy.
                    (stream && row < LINE && n.checked_sub(s0) == Some(row)).then(|| {
                        super::kernels::Fetch::line_a_row(
                            src,
                            n + row,
                            (a.size, a.src * bits / 8, wa.src * bits / 8),
                            rows,
                        )
                    })?
                })
            });
            #[cfg(target_arch = "x86_64")]
            let spread = staged.filter(|_| pairs);
            #[cfg(target_arch = "x86_64")]
            let spread_next = spread.is_some();
            #[cfg(not(target_arch = "x86_64"))]
            let spread_next = false;
            // Source row `x` of the next block, fetched.
            // The source row at `at` bytes from a block's corner, in the next block. (By value,
            // as `from`: the planes' rows call it once each.)
            let ahead = next.filter(|_| !spread_next);
            let fetch_at = move |at: usize| {
                if let Some(n) = ahead {
                    for k in (0..row).step_by(LINE) {
                        stream::prefetch(src, n + at + k);
                    }
                }
            };
            let fetch = |x: usize| fetch_at(from(x));
            for x0 in (0..rows).step_by(chunk) {
                // A block staged whole: rows zipped into words of fields (eight of `E(4)`, a
                // plane of every 4th or 8th field of 16 or 32 of `E(2)` and `E(1)`), in
                // square blocks.
                #[cfg(target_arch = "x86_64")]
                if chunk == rows
                    && super::kernels::transpose_fields_into_lines(
                        (src, (s0, a.size, a.src * bits / 8, wa.src * bits / 8)),
                        (rows, row, bits),
                        staging,
                        (dst, d0),
                        (b.size, b.dst * bits / 8, wb.dst * bits / 8),
                        (stream, staged),
                    )
                {
                    continue;
                }
                let stage = &mut staging[..cols * width];
                if planes {
                    // Source row `x0 + g·j + k` to stage row `k·(chunk / g) + j`: plane `k`
                    // holds the `k`-th row of every group of `g`. Each plane's bytes
                    // transposed as fields across the planes, then the stage as bytes: row
                    // `q` of `out` is the fields `g·q ..` of every source row, `g` destination
                    // rows of `part` bytes one after the other. Staged and transposed in one
                    // pass, the stage's bytes interleaved two blocks at a time in AVX2
                    // registers (`transpose_blocks`), each row's address from copies, not
                    // references: measured (GB/s, best of 5-3000, two alternating runs)
                    // `{0,1:E(1)}` -> `{1,0:T(8,128)E(1)}` in cache (128 KiB) 4.4 -> 9.0,
                    // 64 MiB 3.3 -> 4.8-5.4; u2 4.9 -> 10.5, 4.3 -> 6.4; with `(2,1)` sub-tiles
                    // (through `T(8,128)`) u1 2.1-2.3 -> 3.0-3.7, u2 3.4 -> 5.4.
                    let n = chunk / g;
                    let source = move |x: usize| {
                        let at = from(x0 + x);
                        fetch_at(at);
                        &src[s0 + at..][..row]
                    };
                    stage_planes(stage, (n, width), bits, source);
                    // Each plane's byte transpose alone is every `g`-th destination row: plane
                    // `k`'s row `q` is destination row `g·q + k`, at `to(g·q + k) = k·b.dst +
                    // (q % (b / g))·g·b.dst + (q / (b / g))·wb.dst` (fields; `g` divides `b`).
                    // With whole lines a row, straight from AVX2 registers, not through `out`
                    // (measured, medians of three alternating runs: u1 `{1,0:E(1)}` ->
                    // `{0,1:E(1)}` 0.13 -> 0.18 of memcpy, u2 0.16 -> 0.20).
                    #[cfg(target_arch = "x86_64")]
                    if b.size.is_multiple_of(g)
                        && (0..g).all(|k| {
                            super::kernels::transpose_bytes_into_lines(
                                &stage[k * n * width..][..n * width],
                                (n, width),
                                dst,
                                d0 + (x0 + k * b.dst) * bits / 8,
                                (b.size / g, g * b.dst * bits / 8, wb.dst * bits / 8),
                                (stream, None),
                            )
                        })
                    {
                        continue;
                    }
                    interleave(out, stage, chunk, width);
                    for (y, from) in out.chunks_exact(part * joined).enumerate() {
                        let to = &mut dst[d0 + to(y * joined) + x0 * bits / 8..][..from.len()];
                        put(to, from, stream);
                    }
                    continue;
                }
                for (i, into) in stage.chunks_exact_mut(len).enumerate() {
                    let x = x0 + per * i;
                    (x..x + per).for_each(fetch);
                    if pairs {
                        let (r0, r1) =
                            (&src[s0 + from(x)..][..row], &src[s0 + from(x + 1)..][..row]);
                        #[cfg(target_arch = "x86_64")]
                        if super::avx2::available() && row.is_multiple_of(32) {
                            // SAFETY: the CPU has AVX2 (checked); `into` is `len = 2·row`
                            // bytes, `r0` and `r1` are `row` bytes, a multiple of 32.
                            unsafe { pair_nibbles_avx2(into, r0, r1) };
                            continue;
                        }
                        for k in (0..row).step_by(lanes::BYTES) {
                            let mut v = lanes::swap_nibbles(lanes::at(r0, k), lanes::at(r1, k));
                            // Byte `j` of the low nibbles, then of the high ones.
                            lanes::shuffle::<1, 2>(&mut v, 1);
                            lanes::put(v[0], into, 2 * k);
                            lanes::put(v[1], into, 2 * k + lanes::BYTES);
                        }
                    } else {
                        unpack_fields(bits, into, &src[s0 + from(x)..][..row]);
                    }
                }
                #[cfg(target_arch = "x86_64")]
                if pairs
                    && super::kernels::transpose_bytes_into_lines(
                        stage,
                        (cols, len),
                        dst,
                        d0 + x0 * bits / 8,
                        (b.size, b.dst * bits / 8, wb.dst * bits / 8),
                        (stream, spread),
                    )
                {
                    continue;
                }
                interleave(out, stage, cols, len);
                for (y, from) in out.chunks_exact(cols * joined).enumerate() {
                    let to = &mut dst[d0 + to(y * joined) + x0 * bits / 8..][..part * joined];
                    if pairs {
                        put(to, from, stream);
                    } else {
                        pack_fields(bits, to, from);
                    }
                }
            }
        }
        true
    }
}

impl BitFields {
    /// The whole interleaving blocks `reps` of fields of 1, 2 or 4 bits on both sides (the
    /// first at slots `(d, s)`, the others at its offsets in `reps`, bytes), through bytes: the
    /// rows unpacked, interleaved or split as bytes, packed again (for `E(4)`, the blocks
    /// whose rows are not whole vectors); two rows of `E(2)` or `E(1)` fields are zipped and
    /// split a word at a time ([`zip_pairs`], [`unzip_pairs`]; four words in AVX2 registers,
    /// [`zip_pairs_each`], [`unzip_pairs_each`]). `false` (nothing done) for
    /// other forms or rows that do not start on a byte. Measured, 64 MiB, against field by
    /// field: u1 rows -> `T(8,128)(2,1)E(1)` 0.00 -> 0.06 of memcpy, u2 `T(32,128)(4,1)E(2)`
    /// -> rows 0.00 -> 0.11 (bound by the unpacking and packing of short rows).
    #[allow(unsafe_code)]
    fn interleaved(
        &self,
        scratch: &mut Scratch,
        dst: &mut [u8],
        src: &[u8],
        whole: Whole<'_>,
    ) -> bool {
        let Whole {
            at: (d, s),
            reps,
            a,
            b,
            form,
        } = whole;
        let bits = self.src_bits;
        let (dst_at, src_at) = (self.dst_start + bits * d, self.src_start + bits * s);
        let byte = |fields: usize| (fields * bits).is_multiple_of(8);
        let (bytes, out) = (
            scratch.lines.get().as_flattened_mut(),
            scratch.out.get().as_flattened_mut(),
        );
        let n = a.size * b.size;
        if self.dst_bits != bits
            || !matches!(bits, 1 | 2 | 4)
            || !dst_at.is_multiple_of(8)
            || !src_at.is_multiple_of(8)
            || n > bytes.len()
        {
            return false;
        }
        let (bytes, out) = (&mut bytes[..n], &mut out[..n]);
        let first = (dst_at / 8, src_at / 8);
        match form {
            // `a.size` source rows of `b.size` fields into one run.
            Form::Zip if byte(a.src) && byte(b.size) => {
                let (rows, len) = (a.size, b.size);
                if bits < 4 && rows == 2 && (len * bits / 8).is_multiple_of(4) {
                    // Two rows without unpacking: a word of the run from four bytes of each
                    // (measured u1 rows -> `T(8,128)(2,1)E(1)` 0.59 -> 1.32 GB/s, u2 1.38 ->
                    // 1.64; four or eight rows are faster through bytes).
                    let row = len * bits / 8;
                    let gap = a.src * bits / 8;
                    // By value: captured references would be reloaded after every store.
                    let pair = move |s: usize| (first.1 + s, first.1 + s + gap);
                    #[cfg(target_arch = "x86_64")]
                    if super::avx2::available() && row.is_multiple_of(16) {
                        // Every block in AVX2 registers, the tables loaded once, not a call per
                        // block through `zip_pairs` (measured u1 rows -> `T(8,128)(2,1)E(1)`,
                        // blocks of 16-byte rows, 0.19 -> 0.23 of memcpy, back 0.15 -> 0.17, u2
                        // 0.26 -> 0.29; in cache 4.1 -> 6.0 GB/s).
                        let target = move |d: usize| first.0 + d;
                        // Streamed where every block starts 16-byte aligned: the blocks of a
                        // tile follow each other (see `nest`), and so fill its lines in turn
                        // (measured, 64 MiB, medians of three alternating runs: u2 rows ->
                        // `T(8,128)(2,1)E(2)` 0.42 -> 0.49 of memcpy, u1 0.30 -> 0.38).
                        let stream = scratch.stream
                            && dst.as_ptr().wrapping_add(first.0).align_offset(16) == 0
                            && reps.dst_steps_multiple_of(16);
                        // SAFETY: the CPU has AVX2 (checked); `row` is whole 16-byte pieces;
                        // every block starts 16-byte aligned if streamed.
                        unsafe {
                            if stream {
                                zip_pairs_each::<true>(bits, (src, pair), (dst, target), reps, row);
                            } else {
                                zip_pairs_each::<false>(
                                    bits,
                                    (src, pair),
                                    (dst, target),
                                    reps,
                                    row,
                                );
                            }
                        }
                        return true;
                    }
                    reps.each(|d, s| {
                        let d = first.0 + d;
                        zip_pairs(bits, src, pair(s), &mut dst[d..][..2 * row]);
                    });
                    return true;
                }
                reps.each(|d, s| {
                    let (d, s) = (first.0 + d, first.1 + s);
                    for (x, row) in bytes.chunks_exact_mut(len).enumerate() {
                        unpack_fields(
                            bits,
                            row,
                            &src[s + x * a.src * bits / 8..][..len * bits / 8],
                        );
                    }
                    interleave(out, bytes, rows, len);
                    pack_fields(bits, &mut dst[d..][..n * bits / 8], out);
                });
                true
            }
            // One source run into `b.size` destination rows of `a.size` fields.
            Form::Unzip if byte(b.dst) && byte(a.size) => {
                let (rows, len) = (b.size, a.size);
                if bits < 4 && rows == 2 && (len * bits / 8).is_multiple_of(4) {
                    // Two rows without unpacking: four bytes of each from a word of the run.
                    let row = len * bits / 8;
                    let gap = b.dst * bits / 8;
                    let pair = move |d: usize| (first.0 + d, first.0 + d + gap);
                    #[cfg(target_arch = "x86_64")]
                    if super::avx2::available() && row.is_multiple_of(16) {
                        let from = move |s: usize| first.1 + s;
                        // Streamed where every row starts 16-byte aligned: measured (64 MiB,
                        // medians of three alternating runs) u2 `T(8,128)(2,1)E(2)` -> rows
                        // 0.37 -> 0.99 of memcpy, u1 0.30 -> 0.79.
                        let stream = scratch.stream
                            && dst.as_ptr().wrapping_add(first.0).align_offset(16) == 0
                            && gap.is_multiple_of(16)
                            && reps.dst_steps_multiple_of(16);
                        // SAFETY: the CPU has AVX2 (checked); `row` is whole 16-byte pieces;
                        // every row starts 16-byte aligned if streamed.
                        unsafe {
                            if stream {
                                unzip_pairs_each::<true>(bits, (src, from), (dst, pair), reps, row);
                            } else {
                                unzip_pairs_each::<false>(
                                    bits,
                                    (src, from),
                                    (dst, pair),
                                    reps,
                                    row,
                                );
                            }
                        }
                        return true;
                    }
                    reps.each(|d, s| {
                        let s = first.1 + s;
                        unzip_pairs(bits, &src[s..][..2 * row], dst, pair(d));
                    });
                    return true;
                }
                reps.each(|d, s| {
                    let (d, s) = (first.0 + d, first.1 + s);
                    unpack_fields(bits, bytes, &src[s..][..n * bits / 8]);
                    interleave(out, bytes, len, rows);
                    for (y, row) in out.chunks_exact(len).enumerate() {
                        pack_fields(
                            bits,
                            &mut dst[d + y * b.dst * bits / 8..][..len * bits / 8],
                            row,
                        );
                    }
                });
                true
            }
            _ => false,
        }
    }
}

/// The masks of the perfect shuffle of `u64` words: `SPREAD[k]` keeps the low `2^k` bits of
/// every `2^(k+1)`.
const SPREAD: [u64; 6] = [
    0x5555_5555_5555_5555,
    0x3333_3333_3333_3333,
    0x0f0f_0f0f_0f0f_0f0f,
    0x00ff_00ff_00ff_00ff,
    0x0000_ffff_0000_ffff,
    0x0000_0000_ffff_ffff,
];

/// The units of `unit` bits (a power of two up to 16) in the low 32 bits of `x`, unit `i` moved
/// to bits `2i·unit ..`: the others zero.
#[inline(always)]
fn spread(mut x: u64, unit: usize) -> u64 {
    for k in (unit.trailing_zeros() as usize..5).rev() {
        x = (x | (x << (1 << k))) & SPREAD[k];
    }
    x
}

/// The inverse of [`spread`]: the units of `unit` bits at bits `2i·unit ..` of `x`, packed
/// into its low 32 bits as unit `i` (the units between them dropped).
#[inline(always)]
fn gather(mut x: u64, unit: usize) -> u64 {
    let low = unit.trailing_zeros() as usize;
    x &= SPREAD[low];
    for k in low..5 {
        x = (x | (x >> (1 << k))) & SPREAD[k + 1];
    }
    x
}

/// Two rows of fields of `bits` (1 or 2) bits, from bytes `r0` and `r1` of `src`, zipped
/// into `out`: field `c` of row `x` to field `2c + x`. A word of `out` at a time, from four
/// bytes of each row spread apart. `out`'s length a multiple of 8.
#[allow(unsafe_code)]
fn zip_pairs(bits: usize, src: &[u8], (r0, r1): (usize, usize), out: &mut [u8]) {
    let half = |at: usize| {
        let b: [u8; 4] = src[at..at + 4].try_into().expect("four bytes");
        spread(u64::from(u32::from_le_bytes(b)), bits)
    };
    let words = out.len() / 8;
    assert!(r0.max(r1) + 4 * words <= src.len(), "both rows in `src`");
    #[cfg(target_arch = "x86_64")]
    let done = if super::avx2::available() {
        // SAFETY: the CPU has AVX2 (checked); both rows' `4·words` bytes lie in `src`
        // (asserted).
        unsafe { zip_pairs_avx2::<false>(src, (r0, r1), out, &super::avx2::UnitTables::new(bits)) }
    } else {
        0
    };
    #[cfg(not(target_arch = "x86_64"))]
    let done = 0;
    for (k, word) in out.chunks_exact_mut(8).enumerate().skip(done) {
        let w = half(r0 + 4 * k) | half(r1 + 4 * k) << bits;
        word.copy_from_slice(&w.to_le_bytes());
    }
}

/// The inverse of [`zip_pairs`]: the run `src` (a multiple of 8 bytes) split into two rows,
/// from bytes `r0` and `r1` of `dst`: field `2c + y` to field `c` of row `y`.
#[allow(unsafe_code)]
fn unzip_pairs(bits: usize, src: &[u8], dst: &mut [u8], (r0, r1): (usize, usize)) {
    let words = src.len() / 8;
    assert!(r0.max(r1) + 4 * words <= dst.len(), "both rows in `dst`");
    #[cfg(target_arch = "x86_64")]
    let done = if super::avx2::available() {
        // SAFETY: the CPU has AVX2 (checked); both rows' `4·words` bytes lie in `dst`
        // (asserted).
        unsafe {
            unzip_pairs_avx2::<false>(src, dst, (r0, r1), &super::avx2::UnitTables::new(bits))
        }
    } else {
        0
    };
    #[cfg(not(target_arch = "x86_64"))]
    let done = 0;
    for (k, word) in src.chunks_exact(8).enumerate().skip(done) {
        let w = u64::from_le_bytes(word.try_into().expect("a word"));
        for (at, v) in [(r0, w), (r1, w >> bits)] {
            let row = gather(v, bits) as u32;
            dst[at + 4 * k..][..4].copy_from_slice(&row.to_le_bytes());
        }
    }
}

/// [`zip_pairs`] 32 bytes of each row at a time in AVX2 registers, by table lookups
/// ([`avx2::zip_units`](super::avx2::zip_units)), with non-temporal stores if `STREAM`; the
/// words done, a multiple of 4 (the rest left for the words). Measured against four bytes of
/// each row spread into a 64-bit lane by shifts and masks (2.5 times the instructions), with
/// the pair loops' offsets captured by value (in cache, hot, 4 MiB): u2 rows ->
/// `T(8,128)(2,1)E(2)` 11.5 -> 18.3 GB/s, back 11.5 -> 21.2, u1 9.8 -> 15.0 and 8.7 -> 15.0
/// (the tables built on each call had cost a quarter of it); 64 MiB, plain stores, 0.34 ->
/// 0.44 of memcpy and 0.32 -> 0.36, u1 0.29 -> 0.31 and 0.26 -> 0.30 (then streamed: see
/// `BitFields::interleaved`). The spread of shifts and masks stays for the words left.
///
/// # Safety
/// The CPU has AVX2; both rows' `4 · (out.len() / 8)` bytes, from `r0` and `r1`, lie in
/// `src`; if `STREAM`, `out` starts 16-byte aligned.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn zip_pairs_avx2<const STREAM: bool>(
    src: &[u8],
    (r0, r1): (usize, usize),
    out: &mut [u8],
    tables: &super::avx2::UnitTables,
) -> usize {
    use super::avx2;
    let len = out.len() / 8 * 4;
    let (p0, p1, o) = (
        src.as_ptr().wrapping_add(r0),
        src.as_ptr().wrapping_add(r1),
        out.as_mut_ptr(),
    );
    let mut k = 0;
    while k + 32 <= len {
        // SAFETY: bytes `k .. k + 32 <= len` of both rows lie in `src` (the caller's contract);
        // bytes `2k .. 2k + 64 <= 2·len <= out.len()` of `out`, 16-byte aligned if streamed
        // (`out` is, the caller's contract, and `2k` is a multiple of 32).
        unsafe {
            let [lo, hi] = avx2::zip_units(avx2::load(p0.add(k)), avx2::load(p1.add(k)), tables);
            avx2::store::<STREAM>(lo, o.add(2 * k));
            avx2::store::<STREAM>(hi, o.add(2 * k + 32));
        }
        k += 32;
    }
    if k + 16 <= len {
        // SAFETY: as above, for 16 bytes of each row and 32 of `out`; the first register of
        // the zip is the zip of the rows' low halves.
        unsafe {
            let (a, b) = (
                avx2::load_halves(p0.add(k), p0.add(k)),
                avx2::load_halves(p1.add(k), p1.add(k)),
            );
            let [lo, _] = avx2::zip_units(a, b, tables);
            avx2::store::<STREAM>(lo, o.add(2 * k));
        }
        k += 16;
    }
    k / 4
}

/// [`zip_pairs_avx2`] for every block of `reps`: the rows at `rows(s)` of `src` into the
/// `2 · row` bytes at `to(d)` of `dst`, for each block's offsets `(d, s)`.
///
/// # Safety
/// The CPU has AVX2; `row` is a multiple of 16; if `STREAM`, every block starts 16-byte
/// aligned.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn zip_pairs_each<const STREAM: bool>(
    bits: usize,
    (src, rows): (&[u8], impl Fn(usize) -> (usize, usize)),
    (dst, to): (&mut [u8], impl Fn(usize) -> usize),
    reps: Runs,
    row: usize,
) {
    // Loops, not `Runs::each`'s closure, so that the kernel inlines with AVX2 and its tables
    // are loaded once (measured: see `unzip_pairs_each`).
    let tables = super::avx2::UnitTables::new(bits);
    let Runs { at, outer, inner } = reps;
    // Rows of 16 bytes whose next outer step (the next tile) continues them: two steps at a
    // time, each row's 32 bytes in one register, the zip's halves to the two steps (measured
    // u1 rows -> `T(8,128)(2,1)E(1)`, tile rows of 16 bytes, in cache 12 -> 22 GB/s, 64 MiB
    // 0.43 -> 0.58 of memcpy, against a step at a time through half registers).
    // Where the next step's rows lie elsewhere (tiles of rows of 16 bytes), each register
    // holds a row of each step side by side, not one row in a half register (measured u1
    // `T(8,128)E(1)` -> `T(8,128)(2,1)E(1)`, 32 MiB, three alternating runs, 0.65-0.68 ->
    // 0.70-0.93 of memcpy; `u1[8191,32767]` rows -> `T(8,128)(2,1)E(1)`, whose second step
    // is such, 0.28-0.34 -> 0.39-0.48).
    let twos = if row == 16 { outer.0 / 2 } else { 0 };
    for j in 0..twos {
        let (d, s) = (at.0 + 2 * j * outer.1, at.1 + 2 * j * outer.2);
        for k in 0..inner.0 {
            let ((r0, r1), (n0, n1)) = (rows(s + k * inner.2), rows(s + outer.2 + k * inner.2));
            assert!(
                r0.max(r1).max(n0).max(n1) + 16 <= src.len(),
                "both steps' rows in `src`"
            );
            let lo = dst[to(d + k * inner.1)..][..32].as_mut_ptr();
            let hi = dst[to(d + outer.1 + k * inner.1)..][..32].as_mut_ptr();
            // SAFETY: the CPU has AVX2 (the caller's contract); the 16 bytes of each step's
            // two rows lie in `src` (asserted) and both outputs' 32 bytes in `dst` (indexed),
            // aligned if streamed (the caller's contract: every block starts aligned).
            unsafe {
                let p = src.as_ptr();
                let [a, b] = super::avx2::zip_units(
                    super::avx2::load_halves(p.add(r0), p.add(n0)),
                    super::avx2::load_halves(p.add(r1), p.add(n1)),
                    &tables,
                );
                super::avx2::store::<STREAM>(a, lo);
                super::avx2::store::<STREAM>(b, hi);
            }
        }
    }
    for j in 2 * twos..outer.0 {
        let (d, s) = (at.0 + j * outer.1, at.1 + j * outer.2);
        for k in 0..inner.0 {
            let (r0, r1) = rows(s + k * inner.2);
            assert!(r0.max(r1) + row <= src.len(), "both rows in `src`");
            let out = &mut dst[to(d + k * inner.1)..][..2 * row];
            // SAFETY: the CPU has AVX2 (the caller's contract); both rows' `row = 4 · (2·row
            // / 8)` bytes lie in `src` (asserted); `out` is aligned if streamed (the caller's
            // contract).
            let done = unsafe { zip_pairs_avx2::<STREAM>(src, (r0, r1), out, &tables) };
            debug_assert_eq!(done, row / 4, "every word: `row` is whole 16-byte pieces");
        }
    }
}

/// [`unzip_pairs_avx2`] for every block of `reps`: the `2 · row` bytes at `from(s)` of `src`
/// into the rows at `rows(d)` of `dst`, for each block's offsets `(d, s)`.
///
/// # Safety
/// The CPU has AVX2; `row` is a multiple of 16; if `STREAM`, every block's rows start
/// 16-byte aligned.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn unzip_pairs_each<const STREAM: bool>(
    bits: usize,
    (src, from): (&[u8], impl Fn(usize) -> usize),
    (dst, rows): (&mut [u8], impl Fn(usize) -> (usize, usize)),
    reps: Runs,
    row: usize,
) {
    // Loops, not `Runs::each`'s closure, so that the kernel inlines with AVX2 and its tables
    // are loaded once (measured with the shift-and-mask kernels this replaced, whose masks
    // were made per block: 32 MiB, medians of three alternating runs, u1 `T(8,128)(2,1)E(1)`
    // -> `{0,1:E(1)}`, in two steps whose first splits rows of 16 bytes, 0.089 -> 0.106 of
    // memcpy, u2 0.28 -> 0.35; the zips, u1 rows -> `T(8,128)(2,1)E(1)` 0.25 -> 0.32).
    let tables = super::avx2::UnitTables::new(bits);
    let Runs { at, outer, inner } = reps;
    // Rows of 16 bytes that the next outer step (the next tile) continues: two steps at a
    // time, as `zip_pairs_each` (measured u1 `T(8,128)(2,1)E(1)` -> rows, in cache 12-13 ->
    // 17-18 GB/s, 64 MiB 0.78 -> 1.11 of memcpy).
    let twos = if row == 16 && outer.1 == 16 {
        outer.0 / 2
    } else {
        0
    };
    for j in 0..twos {
        let (d, s) = (at.0 + 2 * j * outer.1, at.1 + 2 * j * outer.2);
        for k in 0..inner.0 {
            let (r0, r1) = rows(d + k * inner.1);
            assert!(r0.max(r1) + 32 <= dst.len(), "both rows in `dst`");
            let x = src[from(s + k * inner.2)..][..32].as_ptr();
            let y = src[from(s + outer.2 + k * inner.2)..][..32].as_ptr();
            // SAFETY: the CPU has AVX2 (the caller's contract); both steps' 32 bytes lie in
            // `src` (indexed) and both rows' 32 bytes in `dst` (asserted), aligned if
            // streamed (the caller's contract); the rows' low halves come from `x`.
            unsafe {
                let [a, b] =
                    super::avx2::unzip_units(super::avx2::load(x), super::avx2::load(y), &tables);
                let o = dst.as_mut_ptr();
                super::avx2::store::<STREAM>(a, o.add(r0));
                super::avx2::store::<STREAM>(b, o.add(r1));
            }
        }
    }
    for j in 2 * twos..outer.0 {
        let (d, s) = (at.0 + j * outer.1, at.1 + j * outer.2);
        for k in 0..inner.0 {
            let (r0, r1) = rows(d + k * inner.1);
            assert!(r0.max(r1) + row <= dst.len(), "both rows in `dst`");
            let from = &src[from(s + k * inner.2)..][..2 * row];
            // SAFETY: the CPU has AVX2 (the caller's contract); both rows' `row` bytes lie in
            // `dst` (asserted), aligned if streamed (the caller's contract).
            let done = unsafe { unzip_pairs_avx2::<STREAM>(from, dst, (r0, r1), &tables) };
            debug_assert_eq!(done, row / 4, "every word: `row` is whole 16-byte pieces");
        }
    }
}

/// [`unzip_pairs`] 32 bytes of each row at a time in AVX2 registers (the inverse of
/// [`zip_pairs_avx2`], by [`avx2::unzip_units`](super::avx2::unzip_units)), with
/// non-temporal stores if `STREAM`; the words done, a multiple of 4.
///
/// # Safety
/// The CPU has AVX2; both rows' `4 · (src.len() / 8)` bytes, from `r0` and `r1`, lie in
/// `dst`; if `STREAM`, both rows start 16-byte aligned.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn unzip_pairs_avx2<const STREAM: bool>(
    src: &[u8],
    dst: &mut [u8],
    (r0, r1): (usize, usize),
    tables: &super::avx2::UnitTables,
) -> usize {
    use super::avx2;
    let len = src.len() / 8 * 4;
    let (p0, p1, s) = (
        dst.as_mut_ptr().wrapping_add(r0),
        dst.as_mut_ptr().wrapping_add(r1),
        src.as_ptr(),
    );
    let mut k = 0;
    while k + 32 <= len {
        // SAFETY: bytes `2k .. 2k + 64 <= 2·len <= src.len()` of `src`; bytes `k .. k + 32 <=
        // len` of both rows lie in `dst` (the caller's contract), 16-byte aligned if streamed
        // (the rows are, the caller's contract, and `k` is a multiple of 16).
        unsafe {
            let [a, b] = avx2::unzip_units(
                avx2::load(s.add(2 * k)),
                avx2::load(s.add(2 * k + 32)),
                tables,
            );
            avx2::store::<STREAM>(a, p0.add(k));
            avx2::store::<STREAM>(b, p1.add(k));
        }
        k += 32;
    }
    if k + 16 <= len {
        // SAFETY: as above, for 32 bytes of `src` and 16 of each row; the low half of each row
        // depends on the first register only.
        unsafe {
            let x = avx2::load(s.add(2 * k));
            let [a, b] = avx2::unzip_units(x, x, tables);
            avx2::store_low::<STREAM>(a, p0.add(k));
            avx2::store_low::<STREAM>(b, p1.add(k));
        }
        k += 16;
    }
    k / 4
}

/// Unpacks all of `src` (fields of `bits` = 1, 2 or 4 bits) into the bytes of `dst`, one a
/// field.
fn unpack_fields(bits: usize, dst: &mut [u8], src: &[u8]) {
    let len = dst.len();
    let done = match bits {
        4 => unpack_nibbles(dst, src, len, false),
        2 => unpack_crumbs(dst, src, len, false),
        _ => unpack_bits(dst, src, len, false),
    };
    assert_eq!(done, len, "whole bytes of fields");
}

/// Packs the low `bits` (1, 2 or 4) bits of each byte of `src` into the fields of `dst`.
fn pack_fields(bits: usize, dst: &mut [u8], src: &[u8]) {
    let len = src.len();
    let done = match bits {
        4 => pack_nibbles(dst, src, len),
        2 => pack_crumbs(dst, src, len),
        _ => pack_bits(dst, src, len),
    };
    assert_eq!(done, len, "whole bytes of fields");
}

/// One block (for the AVX2 kernels).
#[cfg(target_arch = "x86_64")]
const ONE: Runs = Runs::row(1, 0, 0);

/// [`unzip_nibbles`] 64 fields of each row at a time, in AVX2 registers (the inverse of
/// [`zip_nibbles_avx2`]), with non-temporal stores if `STREAM`; for every block of `reps`,
/// from its source offset in `from` into the rows its destination offset after `rows`.
///
/// # Safety
/// The CPU has AVX2; if `STREAM`, every row of `dst` starts 32-byte aligned.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn unzip_nibbles_avx2<const P: usize, const STREAM: bool>(
    dst: &mut [u8],
    rows: Rows,
    from: &[u8],
    reps: Runs,
) {
    use super::avx2;
    if reps.count() == 0 {
        return;
    }
    let last = reps.last();
    assert!(rows.len.is_multiple_of(32));
    assert!(last.1 + 2 * P * rows.len <= from.len());
    assert!(last.0 + rows.range(2 * P - 1).end <= dst.len());
    // Rows `2k` and `2k + 1`'s 32 bytes from byte `c` of the block from byte `s0` of `from`.
    let chunk = |s0: usize, c: usize| -> [[avx2::Y; 2]; P] {
        let mut halves = [[avx2::zero(); P]; 2];
        for (h, half) in halves.iter_mut().enumerate() {
            for (k, v) in half.iter_mut().enumerate() {
                let at = s0 + 2 * P * c + h * 16 * P + k * lanes::BYTES;
                // SAFETY: `at + 32P + 16 <= s0 + 2P·(c + 32) <= last.1 + 2P·rows.len <=
                // from.len()` (asserted: no block's offsets exceed the last's; the callers'
                // `c + 32 <= rows.len`).
                *v = unsafe {
                    let p = from.as_ptr();
                    avx2::load_halves(p.add(at), p.add(at + 32 * P))
                };
            }
            avx2::shuffle::<1, P>(half, lanes::log2(lanes::BYTES));
        }
        core::array::from_fn(|k| {
            let mut v = [halves[0][k], halves[1][k]];
            avx2::shuffle::<1, 2>(&mut v, lanes::log2(2 * lanes::BYTES) - 1);
            avx2::swap_nibbles(v[0], v[1])
        })
    };
    // Streamed rows on lines go a line of each at a time, its halves stored back to back
    // (as `kernels::split_groups_avx2`: 32 bytes of each of 8 rows, then the other 32, kept
    // 8 lines open at once). Measured (64 MiB, ten alternating runs of both binaries,
    // against memcpy) s4 `T(64,128)(8,1)E(4)` -> rows 0.86-0.98 -> 1.14-1.37 (and 0.30 in
    // one run of ten on each side); in an earlier half hour the old way ran 0.26-0.46 in
    // four runs of ten.
    let lined = STREAM
        && rows.stride.is_multiple_of(LINE)
        && reps.dst_steps_multiple_of(LINE)
        && dst
            .as_ptr()
            .wrapping_add(reps.offsets().next().map_or(0, |(d, _)| d) + rows.at)
            .align_offset(LINE)
            == 0;
    let lines = if lined { rows.len / LINE * LINE } else { 0 };
    for (d0, s0) in reps.offsets() {
        let p = dst.as_mut_ptr().wrapping_add(d0);
        for c in (0..lines).step_by(LINE) {
            let (v, w) = (chunk(s0, c), chunk(s0, c + 32));
            for (k, (v, w)) in v.iter().zip(&w).enumerate() {
                for j in 0..2 {
                    // SAFETY: row `2k + j` of this block ends within `dst` (asserted: row
                    // `2P - 1` of the last block is the last) and `c + 64 <= rows.len`; it
                    // starts on a line (the first row does, and rows and blocks are whole
                    // lines apart), so both halves are 32-byte aligned.
                    unsafe {
                        let at = p.add(rows.range(2 * k + j).start + c);
                        avx2::store::<STREAM>(v[j], at);
                        avx2::store::<STREAM>(w[j], at.add(32));
                    }
                }
            }
        }
        for c in (lines..rows.len).step_by(32) {
            for (k, [x, y]) in chunk(s0, c).into_iter().enumerate() {
                // SAFETY: rows `2k` and `2k + 1` of this block end within `dst` (asserted: row
                // `2P - 1` of the last block is the last) and `c + 32 <= rows.len`; rows
                // start 32-byte aligned if `STREAM` (the caller's contract), and `c` is a
                // multiple of 32.
                unsafe {
                    avx2::store::<STREAM>(x, p.add(rows.range(2 * k).start + c));
                    avx2::store::<STREAM>(y, p.add(rows.range(2 * k + 1).start + c));
                }
            }
        }
    }
}

/// Rows of bytes in a buffer: row `x` is the `len` bytes from `at + x · stride`.
#[derive(Clone, Copy)]
struct Rows {
    at: usize,
    stride: usize,
    len: usize,
}

impl Rows {
    fn range(&self, x: usize) -> Range<usize> {
        let start = self.at + x * self.stride;
        start..start + self.len
    }
}

/// Where the source rows of a zip of `E(4)` fields start within their bytes: row `x` of
/// [`Rows`] starts `first + x · each` nibbles past byte `at + x · stride` (`first` and `each`
/// 0 or 1). Rows of an odd extent (`s4[8191,8191]{1,0:E(4)}`) start half a byte apart
/// (`each` 1), a block of them from either half of a byte (`first`).
#[derive(Clone, Copy, Debug, Default)]
struct Half {
    first: usize,
    each: usize,
}

impl Half {
    /// Row `x`'s first byte and whether it starts half a byte in.
    #[inline(always)]
    fn start(self, rows: &Rows, x: usize) -> (usize, bool) {
        let n = self.first + x * self.each;
        (rows.at + x * rows.stride + n / 2, n % 2 == 1)
    }
}

/// [`unzip_nibbles`] into `rows` (2, 4 or 8) rows.
fn unzip_rows(dst: &mut [u8], rows: Rows, from: &[u8], count: usize) {
    match count {
        2 => unzip_nibbles::<1>(dst, rows, from),
        4 => unzip_nibbles::<2>(dst, rows, from),
        _ => unzip_nibbles::<4>(dst, rows, from),
    }
}

/// `2P` rows of `E(4)` fields (`P` = 1, 2 or 4 pairs of rows of whole 16-byte vectors, each
/// starting on a byte or half a byte in, see [`Half`]) interleaved into `out`: field `y` of
/// row `x` to field `y · 2P + x`.
/// 32 fields of each row at a time, in registers: each pair of rows' bytes to bytes of one
/// field of each ([`lanes::swap_nibbles`], even and odd fields, interleaved into field order by
/// a round of [`lanes::shuffle`]), then those `P` rows of bytes interleaved by `log2 P`
/// rounds.
fn zip_nibbles<const P: usize>(out: &mut [u8], src: &[u8], rows: Rows, half: Half) {
    // Row `x`'s bytes `c..c + 16`, moved down half a byte where it starts half a byte in.
    let row = |x: usize, c: usize| match half.start(&rows, x) {
        (at, false) => lanes::at(src, at + c),
        (at, true) => lanes::funnel(lanes::at(src, at + c), lanes::at(src, at + c + 1), 4),
    };
    for c in (0..rows.len).step_by(lanes::BYTES) {
        // Fields `0..16` and `16..32` of the chunk: a byte per pair and field.
        let mut halves = [[lanes::zero(); P]; 2];
        let [lows, highs] = &mut halves;
        for (k, (low, high)) in lows.iter_mut().zip(highs).enumerate() {
            let mut v = lanes::swap_nibbles(row(2 * k, c), row(2 * k + 1, c));
            lanes::shuffle::<1, 2>(&mut v, 1);
            (*low, *high) = (v[0], v[1]);
        }
        for (h, half) in halves.iter_mut().enumerate() {
            lanes::shuffle::<1, P>(half, lanes::log2(P));
            for (k, v) in half.iter().enumerate() {
                lanes::put(*v, out, 2 * P * c + h * 16 * P + k * lanes::BYTES);
            }
        }
    }
}

/// [`zip_nibbles`] 64 fields of each row at a time, in AVX2 registers: the two 16-byte halves
/// of a register are two chunks of 32 fields, shuffled side by side. For every block of
/// `reps`, from the rows its source offset after `rows` into `out` from its destination
/// offset.
///
/// # Safety
/// The CPU has AVX2; if `STREAM`, every block of `out` starts 16-byte aligned.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn zip_nibbles_avx2<const P: usize, const STREAM: bool>(
    out: &mut [u8],
    src: &[u8],
    (rows, half): (Rows, Half),
    reps: Runs,
) {
    // Rows on bytes without a test a load: measured (64 MiB, three alternating runs)
    // s4[50257,1536] rows -> `T(8,128)(2,1)E(4)` 8.0 GB/s, 7.1-7.2 with the test.
    // SAFETY: the caller's contract.
    unsafe {
        if (half.first, half.each) == (0, 0) {
            zip_nibbles_in::<P, STREAM, false>(out, src, (rows, half), reps);
        } else {
            zip_nibbles_in::<P, STREAM, true>(out, src, (rows, half), reps);
        }
    }
}

/// [`zip_nibbles_avx2`], rows that may start half a byte in if `HALF`.
///
/// # Safety
/// As [`zip_nibbles_avx2`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn zip_nibbles_in<const P: usize, const STREAM: bool, const HALF: bool>(
    out: &mut [u8],
    src: &[u8],
    (rows, half): (Rows, Half),
    reps: Runs,
) {
    use super::avx2;
    if reps.count() == 0 {
        return;
    }
    let last = reps.last();
    assert!(rows.len.is_multiple_of(32) && last.0 + 2 * P * rows.len <= out.len());
    // Each row's first byte and whether it starts half a byte in (then its vectors read a
    // byte more).
    let mut starts = [(0, false); 8];
    for (x, start) in starts.iter_mut().enumerate().take(2 * P) {
        *start = half.start(&rows, x);
    }
    let starts = &starts[..2 * P];
    let first = starts[0].0;
    let end = starts
        .iter()
        .map(|&(at, h)| at + rows.len + usize::from(h))
        .fold(first, usize::max);
    assert!(starts.iter().all(|&(at, _)| at >= first) && last.1 + end <= src.len());
    // Each block fetches the rows of the block `FETCH_AHEAD` bytes of a row ahead of it in
    // `reps`, across the ends of rows (the next rows' starts, which the hardware prefetcher
    // does not foresee), and the last blocks those of the next call's first blocks, taken to be
    // these blocks' source right after theirs (the next rows of a source in order): measured
    // (64 MiB, medians of five alternating runs) s4 rows -> `T(8,128)(2,1)E(4)` 0.71 -> 0.82
    // of memcpy (rows of 4 KiB), 0.46 -> 0.78 (rows of 1 KiB, which were not fetched),
    // `(8,1)E(4)` 0.96 -> 1.01, against the last blocks fetching their own rows further on
    // (the first measure: 0.62 -> 0.76 against `FETCH_AHEAD` along each row).
    let span = last.1 + end - first;
    let mut ahead = reps
        .offsets()
        .chain(reps.offsets().map(|(d, s)| (d, s + span)))
        .skip(super::kernels::FETCH_AHEAD.div_ceil(rows.len));
    // Where the blocks' rows are at least `FETCH_AHEAD` long, each block fetches the same
    // block of the next rows (the next step of the outer loop; the last, the next call's):
    // measured (64 MiB, medians of three alternating runs) s4 rows -> `T(8,128)(2,1)E(4)`,
    // rows of 8 KiB 0.89 -> 1.24 of memcpy, 2 KiB 0.81 -> 1.07, 1 KiB 0.75 -> 0.82; rows of
    // 512 bytes lost (0.78 -> 0.67) and fetch as before.
    let next_rows = reps.outer.0 > 1 && reps.inner.0 * reps.inner.2 >= super::kernels::FETCH_AHEAD;
    for (d0, s0) in reps.offsets() {
        if STREAM {
            // Where the rows of the block to fetch lie: the same block of the next rows, or
            // the block `FETCH_AHEAD` bytes of a row on. Each row's lines fetched, and the line
            // its last byte is in (a row that starts inside a line ends in the line after its
            // last whole one; a row on lines has its last line fetched twice, which measured
            // faster than once: `s4[16384,8192]` rows -> `T(8,128)(2,1)E(4)` 14.2-14.6 GB/s
            // before, 12.1-13.0 fetching only rows off lines, 17.2-20.3 every row; rows of
            // 8191 fields 7.7-8.4 -> 8.5-9.7, four alternating runs).
            let base = if next_rows {
                s0 + reps.outer.2
            } else {
                ahead
                    .next()
                    .map_or(s0 + super::kernels::FETCH_AHEAD, |(_, s)| s)
            };
            for &(at, h) in starts {
                stream::prefetch_bytes(src, base + at, rows.len + usize::from(h));
            }
        }
        for c in (0..rows.len).step_by(32) {
            let mut halves = [[avx2::zero(); P]; 2];
            let [lows, highs] = &mut halves;
            for (k, (low, high)) in lows.iter_mut().zip(highs).enumerate() {
                // SAFETY: rows `2k` and `2k + 1` of a block, with the byte after each that
                // starts half a byte in, lie before `end`, `s0 <= last.1` after `rows`:
                // inside `src` (asserted); `c + 32 <= rows.len`.
                let (r0, r1) = unsafe {
                    let p = src.as_ptr().add(s0 + c);
                    let ((a0, h0), (a1, h1)) = (starts[2 * k], starts[2 * k + 1]);
                    (
                        avx2::load_half(p.add(a0), HALF && h0),
                        avx2::load_half(p.add(a1), HALF && h1),
                    )
                };
                let mut v = avx2::swap_nibbles(r0, r1);
                avx2::shuffle::<1, 2>(&mut v, 1);
                (*low, *high) = (v[0], v[1]);
            }
            for (h, half) in halves.iter_mut().enumerate() {
                avx2::shuffle::<1, P>(half, lanes::log2(P));
                for (k, v) in half.iter().enumerate() {
                    // The low halves are fields `c·2..c·2 + 32` of each row, whose `2P · 16`
                    // bytes go from `2P·c`; the high halves the next 32 fields, `32P` bytes on.
                    let at = d0 + 2 * P * c + h * 16 * P + k * lanes::BYTES;
                    // SAFETY: `at + 32P + 16 <= d0 + 2P·(c + 32) <= last.0 + 2P·rows.len <=
                    // out.len()` (asserted), as `h·16P + k·16 + 16 <= 32P`; 16-byte aligned if
                    // `STREAM` (the caller's contract: every block starts aligned).
                    unsafe {
                        let p = out.as_mut_ptr();
                        avx2::store_halves::<STREAM>(*v, p.add(at), p.add(at + 32 * P));
                    }
                }
            }
        }
    }
}

/// The inverse of [`zip_nibbles`]: one run of `E(4)` fields, `2P` to a group, split into
/// `P` pairs of rows `rows` of `dst` (whole 16-byte vectors): field `y · 2P + x` to field `y`
/// of row `x`.
fn unzip_nibbles<const P: usize>(dst: &mut [u8], rows: Rows, from: &[u8]) {
    for c in (0..rows.len).step_by(lanes::BYTES) {
        let mut halves: [[lanes::V; P]; 2] = [[lanes::zero(); P]; 2];
        for (h, half) in halves.iter_mut().enumerate() {
            for (k, v) in half.iter_mut().enumerate() {
                *v = lanes::at(from, 2 * P * c + h * 16 * P + k * lanes::BYTES);
            }
            lanes::shuffle::<1, P>(half, lanes::log2(lanes::BYTES));
        }
        for k in 0..P {
            // Bytes of fields in order to even and odd fields (the inverse of one round).
            let mut v = [halves[0][k], halves[1][k]];
            lanes::shuffle::<1, 2>(&mut v, lanes::log2(2 * lanes::BYTES) - 1);
            let [x, y] = lanes::swap_nibbles(v[0], v[1]);
            lanes::put(x, &mut dst[rows.range(2 * k)], c);
            lanes::put(y, &mut dst[rows.range(2 * k + 1)], c);
        }
    }
}

/// A destination row `from` into `to`: its whole lines streamed, each as it is finished,
/// if `stream`.
fn put(to: &mut [u8], from: &[u8], stream: bool) {
    if stream {
        stream::copy(to, from);
    } else {
        to.copy_from_slice(from);
    }
}

/// Source rows `x < g·n` (`source(x)`, `width` bytes each) into the `g = 8 / bits` planes of
/// `stage` (`bits` 1 or 2; row `x = g·j + k` to row `j` of plane `k`, `n` rows of `width`
/// bytes a plane), then the planes' fields transposed ([`transpose_planes`]). With AVX2 and
/// rows of whole 32-byte vectors, in one pass: each group of `g` rows loaded, transposed in
/// registers and stored ([`stage_group_avx2`]).
fn stage_planes<'s>(
    stage: &mut [u8],
    (n, width): (usize, usize),
    bits: usize,
    source: impl Fn(usize) -> &'s [u8],
) {
    #[cfg(target_arch = "x86_64")]
    if super::avx2::available() && width.is_multiple_of(32) {
        match bits {
            1 => stage_groups::<8>(stage, (n, width), source),
            _ => stage_groups::<4>(stage, (n, width), source),
        }
        return;
    }
    let g = 8 / bits;
    for (k, plane) in stage.chunks_exact_mut(n * width).take(g).enumerate() {
        for (j, into) in plane.chunks_exact_mut(width).enumerate() {
            into.copy_from_slice(&source(j * g + k)[..width]);
        }
    }
    transpose_planes(stage, n * width, bits);
}

/// [`stage_planes`] a group of `G` source rows at a time, in AVX2 registers; `width` a
/// multiple of 32 and the CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
fn stage_groups<'s, const G: usize>(
    stage: &mut [u8],
    (n, width): (usize, usize),
    source: impl Fn(usize) -> &'s [u8],
) {
    assert!(super::avx2::available() && width.is_multiple_of(32));
    let masks = lanes::plane_masks::<G>();
    for j in 0..n {
        let mut rows: [&[u8]; G] = [&[]; G];
        for (k, row) in rows.iter_mut().enumerate() {
            *row = &source(j * G + k)[..width];
        }
        // SAFETY: the CPU has AVX2 and `width` is a multiple of 32 (asserted); each row is
        // `width` bytes (sliced above).
        unsafe { stage_group_avx2::<G>(stage, (n, j, width), &rows, masks) };
    }
}

/// Rows `rows` (group `j` of [`stage_planes`]) into row `j` of each of the `G` planes of
/// `stage`, 32 bytes of each at a time transposed as [`planes_avx2`] does (masks `masks`).
///
/// # Safety
/// The CPU has AVX2; `width` is a multiple of 32 and each row at least `width` bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn stage_group_avx2<const G: usize>(
    stage: &mut [u8],
    (n, j, width): (usize, usize, usize),
    rows: &[&[u8]; G],
    masks: [u64; 3],
) {
    use super::avx2;
    assert!(j < n && stage.len() >= G * n * width);
    let masks = masks.map(|m| avx2::splat64(m));
    let out = stage.as_mut_ptr();
    let from = rows.map(|r| r.as_ptr());
    for h in (0..width).step_by(32) {
        let mut w = [avx2::zero(); G];
        for (w, from) in w.iter_mut().zip(from) {
            // SAFETY: each row is at least `width` bytes (the caller's contract: checking it
            // here, a call a group of rows, cost a fifth of the copy in cache), `h + 32 <=
            // width`.
            *w = unsafe { avx2::load(from.add(h)) };
        }
        avx2::transpose_fields::<G>(&mut w, &masks);
        for (k, w) in w.iter().enumerate() {
            // SAFETY: `(k·n + j)·width + h + 32 <= G·n·width <= stage.len()` (asserted, `j <
            // n`); a plain store needs no alignment.
            unsafe { avx2::store::<false>(*w, out.add((k * n + j) * width + h)) };
        }
    }
}

/// At every byte position `p < n` of the `g = 8 / bits` planes of `buf` (`bits` 1 or 2;
/// plane `k` is `buf[k·n..][..n]`), transposes the `g × g` matrix of `bits`-bit fields whose
/// row `k` is plane `k`'s byte `p` (its field `c` at bits `c·bits ..`): afterwards plane
/// `k`'s byte `p` holds, as field `c`, what was field `k` of plane `c`'s byte `p`. 32
/// positions at a time in AVX2 registers ([`planes_avx2`]) and eight at a time as one `u64` a
/// plane, by `log2 g` rounds of exchanges between planes `s` apart (the fields of columns
/// `c + s` of the lower plane with those of columns `c` of the upper, `c & s = 0`); `n` a
/// multiple of 8.
fn transpose_planes(buf: &mut [u8], n: usize, bits: usize) {
    match bits {
        1 => transpose_planes_of::<8>(buf, n),
        _ => transpose_planes_of::<4>(buf, n),
    }
}

#[allow(unsafe_code)]
fn transpose_planes_of<const G: usize>(buf: &mut [u8], n: usize) {
    assert!(
        n.is_multiple_of(8) && buf.len() >= G * n,
        "whole words of every plane"
    );
    let bits = 8 / G;
    let masks = lanes::plane_masks::<G>();
    let (planes, _) = buf.split_at_mut(G * n);
    #[cfg(target_arch = "x86_64")]
    let done = if super::avx2::available() {
        // SAFETY: the CPU has AVX2 (checked); `planes` is `G` planes of `n` bytes.
        unsafe { planes_avx2::<G>(planes, n, masks) }
    } else {
        0
    };
    #[cfg(not(target_arch = "x86_64"))]
    let done = 0;
    for p in (done..n).step_by(8) {
        let mut w: [u64; G] = core::array::from_fn(|k| {
            u64::from_le_bytes(planes[k * n + p..][..8].try_into().expect("a word"))
        });
        // Rounds `s` = G/2, .., 1: the shift from column `c + s` to column `c`.
        let (mut s, mut r) = (G / 2, 0);
        while s > 0 {
            let shift = bits * s;
            for k in (0..G).filter(|k| k & s == 0) {
                let t = ((w[k] >> shift) ^ w[k + s]) & masks[r];
                w[k + s] ^= t;
                w[k] ^= t << shift;
            }
            (s, r) = (s / 2, r + 1);
        }
        for (k, w) in w.iter().enumerate() {
            planes[k * n + p..][..8].copy_from_slice(&w.to_le_bytes());
        }
    }
}

/// Two rows of `E(4)` fields `r0` and `r1` as one row of bytes in `into` (as
/// [`BitFields::transposed`] stages them: per 16 bytes of the rows, byte `j` of the low
/// nibbles, then of the high ones, swapped by [`lanes::swap_nibbles`]), 32 bytes of each row
/// at a time in AVX2 registers, not 16 (measured in cache, 8 MiB: s4 `{1,0:E(4)}` ->
/// `{0,1:E(4)}` 7.0-7.4 -> 7.5-8.3 GB/s; at 64 MiB within the noise, 0.35-0.41 of memcpy).
///
/// # Safety
/// The CPU has AVX2; `r0` and `r1` are as long, a multiple of 32 bytes, and `into` twice.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn pair_nibbles_avx2(into: &mut [u8], r0: &[u8], r1: &[u8]) {
    use super::avx2;
    assert!(r0.len() == r1.len() && r0.len().is_multiple_of(32) && into.len() == 2 * r0.len());
    for k in (0..r0.len()).step_by(32) {
        // SAFETY: `k + 32 <= r0.len() = r1.len()` (asserted).
        let mut v = unsafe {
            avx2::swap_nibbles(
                avx2::load(r0.as_ptr().add(k)),
                avx2::load(r1.as_ptr().add(k)),
            )
        };
        // In each 16-byte half (chunks `k` and `k + 16` of the rows): byte `j` of the low
        // nibbles and of the high ones, bytes 0-7 in `v[0]`, 8-15 in `v[1]`.
        avx2::shuffle::<1, 2>(&mut v, 1);
        let p = into.as_mut_ptr();
        // SAFETY: `2k + 64 <= 2·r0.len() = into.len()`; plain stores need no alignment.
        unsafe {
            avx2::store_halves::<false>(v[0], p.add(2 * k), p.add(2 * k + 32));
            avx2::store_halves::<false>(v[1], p.add(2 * k + 16), p.add(2 * k + 48));
        }
    }
}

/// [`transpose_planes_of`] 32 bytes of every plane at a time in AVX2 registers, not a word
/// (measured, medians of three alternating runs: u1 `{1,0:E(1)}` -> `{0,1:E(1)}` 0.17 ->
/// 0.21 of memcpy, u2 0.20 -> 0.25; in cache, 4 MiB, 3.7-4.0 -> 5.5 GB/s, u2 5.1 -> 7.2);
/// the bytes done, a multiple of 32 (the rest left for the words). `masks[r]` is the mask of
/// round `r` (`s = G >> (r + 1)`).
///
/// # Safety
/// The CPU has AVX2; `planes` holds `G` planes of `n` bytes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn planes_avx2<const G: usize>(planes: &mut [u8], n: usize, masks: [u64; 3]) -> usize {
    use super::avx2;
    assert!(planes.len() >= G * n);
    let masks = masks.map(|m| avx2::splat64(m));
    let mut p = 0;
    while p + 32 <= n {
        // SAFETY: `k·n + p + 32 <= (k + 1)·n <= planes.len()` for `k < G`.
        let mut w: [avx2::Y; G] =
            core::array::from_fn(|k| unsafe { avx2::load(planes.as_ptr().add(k * n + p)) });
        avx2::transpose_fields::<G>(&mut w, &masks);
        for (k, w) in w.iter().enumerate() {
            // SAFETY: as the loads; a plain store needs no alignment.
            unsafe { avx2::store::<false>(*w, planes.as_mut_ptr().add(k * n + p)) };
        }
        p += 32;
    }
    p
}

/// `out[y · rows + x] = from[x · len + y]`: `rows` rows of `len` bytes interleaved (the
/// transpose of a `rows × len` matrix of bytes), 16 columns at a time by
/// [`lanes::shuffle`] where `rows` is 2, 4 or 8 (or `len` is: the inverse), by blocks of
/// 16 × 16 where both are multiples of 16.
fn interleave(out: &mut [u8], from: &[u8], rows: usize, len: usize) {
    let done = match (rows, len) {
        (2, _) => zip_bytes::<2>(out, from, len),
        (4, _) => zip_bytes::<4>(out, from, len),
        (8, _) => zip_bytes::<8>(out, from, len),
        (_, 2) => split_bytes::<2>(out, from, rows),
        (_, 4) => split_bytes::<4>(out, from, rows),
        (_, 8) => split_bytes::<8>(out, from, rows),
        _ => transpose_blocks(out, from, rows, len),
    };
    if !done {
        for (y, o) in out.chunks_exact_mut(rows).enumerate() {
            for (x, v) in o.iter_mut().enumerate() {
                *v = from[x * len + y];
            }
        }
    }
}

/// [`interleave`] of a multiple of 16 rows whose length is one too: blocks of 16 × 16 bytes,
/// each transposed by four rounds of [`lanes::shuffle`] (two side by side in AVX2 registers
/// where the CPU has it, [`transpose_blocks_avx2`]); `false` (nothing done) otherwise.
#[allow(unsafe_code)]
fn transpose_blocks(out: &mut [u8], from: &[u8], rows: usize, len: usize) -> bool {
    const M: usize = lanes::BYTES;
    if !rows.is_multiple_of(M) || !len.is_multiple_of(M) {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    let done = if super::avx2::available() {
        // SAFETY: the CPU has AVX2 (checked); `rows` is a multiple of 16 (checked).
        unsafe { transpose_blocks_avx2(out, from, rows, len) }
    } else {
        0
    };
    #[cfg(not(target_arch = "x86_64"))]
    let done = 0;
    for gy in (done..len).step_by(M) {
        for gx in (0..rows).step_by(M) {
            let mut v: [lanes::V; M] =
                core::array::from_fn(|i| lanes::at(from, (gx + i) * len + gy));
            lanes::shuffle::<1, M>(&mut v, lanes::log2(M));
            for (i, v) in v.into_iter().enumerate() {
                lanes::put(v, out, (gy + i) * rows + gx);
            }
        }
    }
    true
}

/// [`transpose_blocks`] of two blocks side by side in AVX2 registers (columns `gy ..` and
/// `gy + 16 ..` of the same 16 rows, one in each half): the columns done, a multiple of 32
/// (the rest left for the 16-byte blocks).
///
/// # Safety
/// The CPU has AVX2; `rows` is a multiple of 16.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
unsafe fn transpose_blocks_avx2(out: &mut [u8], from: &[u8], rows: usize, len: usize) -> usize {
    use super::avx2;
    const M: usize = lanes::BYTES;
    assert!(rows.is_multiple_of(M) && from.len() >= rows * len && out.len() >= rows * len);
    let (o, f) = (out.as_mut_ptr(), from.as_ptr());
    let mut gy = 0;
    while gy + 2 * M <= len {
        for gx in (0..rows).step_by(M) {
            // SAFETY: row `gx + i < rows`, columns `gy .. gy + 32 <= len`: within
            // `rows·len <= from.len()` (asserted).
            let mut v: [avx2::Y; M] =
                core::array::from_fn(|i| unsafe { avx2::load(f.add((gx + i) * len + gy)) });
            avx2::shuffle::<1, M>(&mut v, lanes::log2(M));
            for (i, v) in v.into_iter().enumerate() {
                // SAFETY: destination rows `gy + i` and `gy + 16 + i` (below `len`), columns
                // `gx .. gx + 16 <= rows`: within `len·rows <= out.len()` (asserted); plain
                // stores need no alignment.
                unsafe {
                    avx2::store_halves::<false>(
                        v,
                        o.add((gy + i) * rows + gx),
                        o.add((gy + M + i) * rows + gx),
                    );
                }
            }
        }
        gy += 2 * M;
    }
    gy
}

/// [`interleave`] of `A` rows whose length is a multiple of 16.
fn zip_bytes<const A: usize>(out: &mut [u8], from: &[u8], len: usize) -> bool {
    if !len.is_multiple_of(lanes::BYTES) {
        return false;
    }
    for c in (0..len).step_by(lanes::BYTES) {
        let mut v: [lanes::V; A] = core::array::from_fn(|x| lanes::at(from, x * len + c));
        lanes::shuffle::<1, A>(&mut v, lanes::log2(A));
        for (k, v) in v.iter().enumerate() {
            lanes::put(*v, out, c * A + k * lanes::BYTES);
        }
    }
    true
}

/// [`interleave`] of `rows` rows of `B` bytes (runs of groups of `B` split into `B` rows),
/// `rows` a multiple of 16.
fn split_bytes<const B: usize>(out: &mut [u8], from: &[u8], rows: usize) -> bool {
    if !rows.is_multiple_of(lanes::BYTES) {
        return false;
    }
    for c in (0..rows).step_by(lanes::BYTES) {
        let mut v: [lanes::V; B] =
            core::array::from_fn(|k| lanes::at(from, c * B + k * lanes::BYTES));
        lanes::shuffle::<1, B>(&mut v, lanes::log2(lanes::BYTES));
        for (y, v) in v.iter().enumerate() {
            lanes::put(*v, out, y * rows + c);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// `n` bytes of noise from `seed`, different for each `salt`.
    fn noise(seed: u64, salt: u64, n: usize) -> Vec<u8> {
        (0..n)
            .map(|k| {
                let x = seed.wrapping_add(salt).wrapping_mul(k as u64 + 1);
                (x.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56) as u8
            })
            .collect()
    }

    /// The reference move: `n` bits of `src` from bit `from` to `want` from bit `to`, a bit at
    /// a time (fields low bits first).
    fn move_bits(want: &mut [u8], to: usize, src: &[u8], from: usize, n: usize) {
        for b in 0..n {
            let bit = (src[(from + b) / 8] >> ((from + b) % 8)) & 1;
            let (byte, at) = ((to + b) / 8, (to + b) % 8);
            want[byte] = (want[byte] & !(1 << at)) | (bit << at);
        }
    }

    proptest! {
        /// A run of fields from any slot to any slot (starts inside bytes, of one width at
        /// different bit positions, or packed from or unpacked into bytes), against the same
        /// fields moved one at a time, on CPUs with AVX2 or without; the destination's other
        /// bits untouched.
        #[test]
        fn runs_move_what_fields_one_at_a_time_move(
            (src_bits, dst_bits) in proptest::sample::select(vec![
                (4usize, 4usize), (2, 2), (1, 1), (8, 4), (4, 8), (8, 2), (2, 8), (8, 1), (1, 8),
            ]),
            (d, s, len) in (0usize..40, 0usize..40, 0usize..400),
            (dst_start, src_start) in (0usize..3, 0usize..3),
            (sign_extend, avx2) in (any::<bool>(), any::<bool>()),
            seed in any::<u64>(),
        ) {
            let fields = BitFields {
                dst_bits,
                src_bits,
                dst_start: 8 * dst_start,
                src_start: 8 * src_start,
                sign_extend,
            };
            let bytes = |bits: usize, start: usize, slots: usize| start + (slots * bits).div_ceil(8) + 1;
            let noise = |n: usize, salt: u64| noise(seed, salt, n);
            let src = noise(bytes(src_bits, src_start, s + len), 1);
            let dst = noise(bytes(dst_bits, dst_start, d + len), 2);
            let (mut fast, mut slow) = (dst.clone(), dst);
            crate::tensor::with_avx2(avx2, || fields.run(&mut fast, &src, d, s, len));
            for k in 0..len {
                fields.element(&mut slow, &src, d + k, s + k);
            }
            prop_assert_eq!(fast, slow);
        }

        /// Runs of whole vectors from any bit of a source byte ([`shifted_runs`]), streamed
        /// or not, strides on both sides, the last runs' source vectors possibly past the
        /// buffer (left to the caller): each run's bits where a bit-by-bit move puts them, the
        /// runs it reports done and no other byte written.
        #[test]
        fn shifted_runs_move_what_bits_move(
            (shift, vectors, n) in (0usize..8, 1usize..5, 1usize..6),
            (dstep, sstep) in (0usize..3, 0usize..3),
            (at, spare) in (0usize..80, 0usize..40),
            (stream, avx2) in (any::<bool>(), any::<bool>()),
            seed in any::<u64>(),
        ) {
            let len = 16 * vectors;
            let steps = (len + 16 * dstep, len + sstep);
            let noise = |n: usize, salt: u64| noise(seed, salt, n);
            let from = 8 * 3 + shift;
            let src = noise(3 + (n - 1) * steps.1 + len + spare.min(2), 1);
            let mut buf = crate::tensor::AlignedBuf::try_zeroed(at + n * steps.0).unwrap();
            let fill = noise(buf.len(), 2);
            buf.copy_from_slice(&fill);
            let before = buf.to_vec();
            let done = crate::tensor::with_avx2(avx2, || {
                shifted_runs(&mut buf, at, &src, from, steps, (len, n), stream)
            });
            if stream {
                stream::fence();
            }
            let fits = |k: usize| from / 8 + k * steps.1 + len < src.len();
            prop_assert_eq!(done, (0..n).take_while(|&k| fits(k)).count());
            let mut want = before;
            for k in 0..done {
                let (to, from) = (8 * (at + k * steps.0), from + 8 * k * steps.1);
                move_bits(&mut want, to, &src, from, 8 * len);
            }
            prop_assert_eq!(buf.to_vec(), want);
        }

        /// Runs of bytes gathered from strided places into one destination run from any bit
        /// of any byte of a line ([`gathered`]), streamed or not, runs of one byte to past the
        /// stage, prefetching past the source or not, with AVX2 or without: every bit where a
        /// bit-by-bit move puts it, no other byte written.
        #[test]
        fn gathered_runs_move_what_bits_move(
            (len, n, gap) in (proptest::sample::select(vec![1usize, 16, 48, 64, 100, 5000, 9000]), 1usize..20, 0usize..40),
            (at, phase) in (0usize..130, 0usize..8),
            (stream, ahead) in (any::<bool>(), proptest::sample::select(vec![0usize, 64, 4096])),
            (seed, avx2) in (any::<u64>(), any::<bool>()),
        ) {
            let noise = |n: usize, salt: u64| noise(seed, salt, n);
            let (from, step) = (3, len + gap);
            let src = noise(from + n * step, 1);
            let mut buf = crate::tensor::AlignedBuf::try_zeroed(at + n * len + 2).unwrap();
            let fill = noise(buf.len(), 2);
            buf.copy_from_slice(&fill);
            let to = 8 * at + phase;
            let mut stage = stream::Lines::boxed();
            let runs = (from, step, ahead);
            crate::tensor::with_avx2(avx2, || {
                gathered(&mut buf, to, &src, runs, (len, n), &mut stage, stream);
            });
            if stream {
                stream::fence();
            }
            let mut want = fill;
            for run in 0..n {
                move_bits(&mut want, to + 8 * run * len, &src, 8 * (from + run * step), 8 * len);
            }
            prop_assert_eq!(buf.to_vec(), want);
        }

        /// Runs from source rows that start at any bit into the rows of tiles that follow
        /// each other in the destination from any byte ([`scattered`]), 16 or 32 bytes at a
        /// time, streamed or not, sources that end inside the last tiles' runs or past them:
        /// the tiles it reports done hold every bit where a bit-by-bit move puts it, no byte
        /// outside the tiles is written.
        #[test]
        fn scattered_runs_move_what_bits_move(
            (len, rows, tiles) in (proptest::sample::select(vec![16usize, 32, 64, 96]), 1usize..9, 1usize..6),
            (row_gap, tile_pad, at) in (0usize..100, proptest::sample::select(vec![0usize, 16, 32]), 0usize..130),
            (from, short) in (0usize..40, 0usize..3),
            (stream, avx2) in (any::<bool>(), any::<bool>()),
            seed in any::<u64>(),
        ) {
            let noise = |n: usize, salt: u64| noise(seed, salt, n);
            let (row_from, tile_from) = (8 * len + row_gap, 8 * len);
            let tile_to = rows * len + tile_pad;
            let last = from + (tiles - 1) * tile_from + (rows - 1) * row_from;
            // Bytes up to the last run's end, and one past it that its vectors read, less
            // `short`.
            let src = noise(last / 8 + len + 1 - short.min(1), 1);
            let span = (tiles - 1) * tile_to + rows * len;
            let mut buf = crate::tensor::AlignedBuf::try_zeroed(at + span + 2).unwrap();
            let fill = noise(buf.len(), 2);
            buf.copy_from_slice(&fill);
            let runs = ((tiles, tile_to, tile_from), (rows, row_from));
            let done = crate::tensor::with_avx2(avx2, || {
                scattered(&mut buf, at, &src, from, runs, len, stream)
            });
            if stream {
                stream::fence();
            }
            let fits = |k: usize| (from + k * tile_from + (rows - 1) * row_from) / 8 + len < src.len();
            prop_assert_eq!(done, (0..tiles).take_while(|&k| fits(k)).count());
            let mut want = fill;
            for k in 0..done {
                for r in 0..rows {
                    let to = 8 * (at + k * tile_to + r * len);
                    move_bits(&mut want, to, &src, from + k * tile_from + r * row_from, 8 * len);
                }
            }
            // The tiles not done may hold some of their runs.
            let open = at + done * tile_to..at + span;
            for (b, (x, y)) in buf.iter().zip(&want).enumerate() {
                if !open.contains(&b) {
                    prop_assert_eq!(x, y, "byte {}", b);
                }
            }
        }

        /// Each position's `g × g` matrix of fields across the planes, transposed (32 bytes a
        /// plane at a time in AVX2 registers and the words left, or words only): against
        /// field-by-field moves.
        #[test]
        fn planes_transpose_their_fields(
            bits in proptest::sample::select(vec![1usize, 2]),
            words in 1usize..12,
            seed in any::<u64>(),
            avx2 in any::<bool>(),
        ) {
            let (g, n) = (8 / bits, 8 * words);
            let buf: Vec<u8> = (0..g * n)
                .map(|k| (seed.wrapping_mul(k as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56) as u8)
                .collect();
            let mut out = buf.clone();
            crate::tensor::with_avx2(avx2, || transpose_planes(&mut out, n, bits));
            let field = |b: &[u8], k: usize, p: usize, c: usize| (b[k * n + p] >> (c * bits)) & ((1 << bits) - 1);
            for p in 0..n {
                for k in 0..g {
                    for c in 0..g {
                        prop_assert_eq!(field(&out, k, p, c), field(&buf, c, p, k), "plane {} byte {} field {}", k, p, c);
                    }
                }
            }
        }
    }

    proptest! {
        /// Source rows staged into planes and their fields transposed (in one pass in AVX2
        /// registers where the rows are whole vectors, or copied then transposed): field `c`
        /// of plane `k`'s row `j` at byte `p` is field `k` of byte `p` of source row `g·j + c`.
        #[test]
        fn staged_planes_hold_their_rows_fields_transposed(
            bits in proptest::sample::select(vec![1usize, 2]),
            n in 1usize..6,
            width in proptest::sample::select(vec![8usize, 32, 64, 96]),
            seed in any::<u64>(),
            avx2 in any::<bool>(),
        ) {
            let g = 8 / bits;
            let src = noise(seed, 1, g * n * width + 40);
            let row = |x: usize| &src[3 + 37 * x % 40 + x * width..][..width];
            let mut stage = vec![0u8; g * n * width];
            crate::tensor::with_avx2(avx2, || stage_planes(&mut stage, (n, width), bits, row));
            let field = |b: u8, c: usize| (b >> (c * bits)) & ((1 << bits) - 1);
            for (k, j, p) in (0..g).flat_map(|k| (0..n).flat_map(move |j| (0..width).map(move |p| (k, j, p)))) {
                for c in 0..g {
                    prop_assert_eq!(
                        field(stage[(k * n + j) * width + p], c),
                        field(row(g * j + c)[p], k),
                        "plane {} row {} byte {} field {}", k, j, p, c
                    );
                }
            }
        }

        /// Rows of bytes interleaved in blocks of 16 × 16 (two side by side in AVX2
        /// registers, or one at a time), against byte-by-byte moves.
        #[test]
        fn byte_blocks_transpose(
            rows in (1usize..5).prop_map(|r| 16 * r),
            len in (1usize..6).prop_map(|l| 16 * l),
            seed in any::<u64>(),
            avx2 in any::<bool>(),
        ) {
            let from = noise(seed, 2, rows * len);
            let mut out = vec![0u8; rows * len];
            crate::tensor::with_avx2(avx2, || interleave(&mut out, &from, rows, len));
            for y in 0..len {
                for x in 0..rows {
                    prop_assert_eq!(out[y * rows + x], from[x * len + y], "column {} row {}", y, x);
                }
            }
        }
    }

    proptest! {
        /// Two rows zipped field by field and split again (four words at a time in AVX2
        /// registers and the words left, or words only), against field-by-field moves.
        #[test]
        fn pairs_zip_and_unzip_their_fields(
            bits in proptest::sample::select(vec![1usize, 2]),
            words in 1usize..13,
            gap in 0usize..9,
            seed in any::<u64>(),
            avx2 in any::<bool>(),
        ) {
            // Rows of `4·words` bytes, `gap` bytes apart.
            let row = 4 * words;
            let src: Vec<u8> = (0..2 * row + gap)
                .map(|k| (seed.wrapping_mul(k as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56) as u8)
                .collect();
            let field = |b: &[u8], i: usize| (b[i * bits / 8] >> (i * bits % 8)) & ((1 << bits) - 1);
            let mut run = vec![0u8; 2 * row];
            let mut back = vec![0u8; 2 * row + gap];
            crate::tensor::with_avx2(avx2, || {
                zip_pairs(bits, &src, (0, row + gap), &mut run);
                unzip_pairs(bits, &run, &mut back, (0, row + gap));
            });
            let fields = 8 * row / bits;
            for c in 0..fields {
                prop_assert_eq!(field(&run, 2 * c), field(&src, c), "row 0 field {}", c);
                prop_assert_eq!(field(&run, 2 * c + 1), field(&src[row + gap..], c), "row 1 field {}", c);
            }
            prop_assert_eq!(&back[..row], &src[..row]);
            prop_assert_eq!(&back[row + gap..], &src[row + gap..]);
        }
    }

    /// Field `i` of `E(4)` bytes, low nibble first.
    fn nibble(bytes: &[u8], i: usize) -> u8 {
        (bytes[i / 2] >> (4 * (i % 2))) & 0xf
    }

    /// `2P` rows of `len` bytes from `at`, `stride` apart (each starting as `half` says),
    /// interleaved field by field, by brute force: field `y` of row `x` to field `y · 2P + x`.
    fn zipped(src: &[u8], (rows, half): (Rows, Half), count: usize) -> Vec<u8> {
        let mut out = vec![0u8; count * rows.len];
        for x in 0..count {
            // Row `x`'s fields from nibble `first + x · (2 · stride + each)` of `rows.at`.
            let from = half.first + x * (2 * rows.stride + half.each);
            for y in 0..2 * rows.len {
                let i = y * count + x;
                out[i / 2] |= nibble(&src[rows.at..], from + y) << (4 * (i % 2));
            }
        }
        out
    }

    /// `n` bytes from a line boundary of a buffer of `n + LINE`.
    fn aligned(buf: &mut [u8], n: usize) -> &mut [u8] {
        let at = buf.as_ptr().align_offset(LINE);
        &mut buf[at..at + n]
    }

    /// Two blocks `(dst, src)` bytes apart: a row of two, or (for odd `src`) two groups of
    /// one.
    #[cfg(target_arch = "x86_64")]
    fn two_blocks(dst: usize, src: usize) -> Runs {
        if src.is_multiple_of(2) {
            Runs::row(2, dst, src)
        } else {
            Runs {
                outer: (2, dst, src),
                ..ONE
            }
        }
    }

    /// The interleave of `2P` rows by each kernel against the reference: one block, and (the
    /// AVX2 kernel) two blocks, the second from the rows `next` bytes after the first.
    #[allow(unsafe_code)]
    fn check_zip<const P: usize>(
        src: &[u8],
        (rows, half): (Rows, Half),
        next: usize,
    ) -> Result<(), TestCaseError> {
        let expected = zipped(src, (rows, half), 2 * P);
        let n = expected.len();
        let mut out = vec![0u8; n];
        zip_nibbles::<P>(&mut out, src, rows, half);
        prop_assert_eq!(&out, &expected, "zip, 16-byte vectors");
        #[cfg(target_arch = "x86_64")]
        if rows.len.is_multiple_of(32) && crate::tensor::avx2::available() {
            let mut buf = vec![0u8; n + LINE];
            let out = aligned(&mut buf, n);
            // SAFETY: the CPU has AVX2 (checked); `out` starts on a line.
            unsafe { zip_nibbles_avx2::<P, false>(out, src, (rows, half), ONE) };
            prop_assert_eq!(&out[..], &expected[..], "zip, AVX2");
            out.fill(0);
            // SAFETY: as above.
            unsafe { zip_nibbles_avx2::<P, true>(out, src, (rows, half), ONE) };
            stream::fence();
            prop_assert_eq!(&out[..], &expected[..], "zip, AVX2, streamed");
            // Two blocks, a line apart or more.
            let step = n.next_multiple_of(LINE);
            let second = Rows {
                at: rows.at + next,
                ..rows
            };
            let mut buf = vec![0u8; step + n + LINE];
            let out = aligned(&mut buf, step + n);
            let reps = two_blocks(step, next);
            // SAFETY: as above; both blocks start on lines.
            unsafe { zip_nibbles_avx2::<P, true>(out, src, (rows, half), reps) };
            stream::fence();
            prop_assert_eq!(&out[..n], &expected[..], "zip, AVX2, first of two blocks");
            let expected = zipped(src, (second, half), 2 * P);
            prop_assert_eq!(
                &out[step..],
                &expected[..],
                "zip, AVX2, second of two blocks"
            );
        }
        Ok(())
    }

    /// The inverse of [`check_zip`].
    #[allow(unsafe_code)]
    fn check_unzip<const P: usize>(
        src: &[u8],
        rows: Rows,
        next: usize,
    ) -> Result<(), TestCaseError> {
        // The rows back from their interleave, into rows on lines (for the streamed stores).
        let from = zipped(src, (rows, Half::default()), 2 * P);
        let into = Rows {
            at: 0,
            stride: rows.len.next_multiple_of(LINE),
            len: rows.len,
        };
        let n = into.range(2 * P - 1).end;
        let expected: Vec<Vec<u8>> = (0..2 * P).map(|x| src[rows.range(x)].to_vec()).collect();
        let got = |dst: &[u8], into: Rows| -> Vec<Vec<u8>> {
            (0..2 * P).map(|x| dst[into.range(x)].to_vec()).collect()
        };
        let mut dst = vec![0u8; n];
        unzip_nibbles::<P>(&mut dst, into, &from);
        prop_assert_eq!(got(&dst, into), expected.clone(), "unzip, 16-byte vectors");
        #[cfg(target_arch = "x86_64")]
        if rows.len.is_multiple_of(32) && crate::tensor::avx2::available() {
            let mut buf = vec![0u8; n + LINE];
            let dst = aligned(&mut buf, n);
            // SAFETY: the CPU has AVX2 (checked); every row starts on a line.
            unsafe { unzip_nibbles_avx2::<P, false>(dst, into, &from, ONE) };
            prop_assert_eq!(got(dst, into), expected.clone(), "unzip, AVX2");
            dst.fill(0);
            // SAFETY: as above.
            unsafe { unzip_nibbles_avx2::<P, true>(dst, into, &from, ONE) };
            stream::fence();
            prop_assert_eq!(got(dst, into), expected.clone(), "unzip, AVX2, streamed");
            // Two blocks: the second's run right after the first's, its rows a line or more
            // after the first's.
            let second = Rows {
                at: rows.at + next,
                ..rows
            };
            let from = [from, zipped(src, (second, Half::default()), 2 * P)].concat();
            let step = n.next_multiple_of(LINE);
            let mut buf = vec![0u8; step + n + LINE];
            let dst = aligned(&mut buf, step + n);
            let reps = two_blocks(step, from.len() / 2);
            // SAFETY: as above; the rows of both blocks start on lines.
            unsafe { unzip_nibbles_avx2::<P, true>(dst, into, &from, reps) };
            stream::fence();
            prop_assert_eq!(got(dst, into), expected, "unzip, AVX2, first of two blocks");
            let expected: Vec<Vec<u8>> =
                (0..2 * P).map(|x| src[second.range(x)].to_vec()).collect();
            let into = Rows { at: step, ..into };
            prop_assert_eq!(
                got(dst, into),
                expected,
                "unzip, AVX2, second of two blocks"
            );
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The register kernels of `E(4)` sub-tiles (16-byte vectors, and AVX2 where the CPU
        /// has it) interleave and split rows as the field-by-field reference does.
        #[test]
        fn nibble_kernels_match_the_reference(
            pairs in 0..3usize,
            chunks in 1..6usize,
            gap in 0..40usize,
            (first, each) in (0..2usize, 0..2usize),
            seed in any::<u64>(),
        ) {
            let len = 16 * chunks;
            let rows = Rows { at: gap % 7, stride: len + gap, len };
            // Zips read rows that start half a byte in (the unzips write rows on bytes).
            let half = Half { first, each };
            // Two blocks of rows, the second `next` bytes after the first (room for rows
            // half a byte on, and the byte after).
            let next = rows.range(7).end + 5;
            let mut state = seed | 1;
            let src: Vec<u8> = (0..2 * next)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state as u8
                })
                .collect();
            match pairs {
                0 => { check_zip::<1>(&src, (rows, half), next)?; check_unzip::<1>(&src, rows, next)?; }
                1 => { check_zip::<2>(&src, (rows, half), next)?; check_unzip::<2>(&src, rows, next)?; }
                _ => { check_zip::<4>(&src, (rows, half), next)?; check_unzip::<4>(&src, rows, next)?; }
            }
        }
    }
}
