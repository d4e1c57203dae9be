//! Pairs of 16-byte vectors in one 32-byte AVX2 register, for CPUs that have it (detected at
//! run time: the crate is built for the x86-64 baseline). The perfect shuffle of
//! [`lanes::shuffle`](super::lanes::shuffle) works within each 16-byte half (`vpunpckl*` and
//! `vpunpckh*` do not cross them), so one round of `M` registers is one round of two
//! independent sets of `M` vectors: the row interleaves and splits and the `E(4)` sub-tile
//! kernels put two neighbouring 16-byte chunks of their rows side by side, and get the
//! results of both chunks from half the loads and shuffles. Also `E(1)` packing's movemask,
//! 32 bytes at a time.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m256i, _mm_loadu_si128, _mm_storeu_si128, _mm_stream_si128, _mm256_and_si256,
    _mm256_castsi128_si256, _mm256_castsi256_si128, _mm256_extracti128_si256,
    _mm256_inserti128_si256, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256,
    _mm256_set1_epi8, _mm256_setzero_si256, _mm256_slli_epi16, _mm256_srli_epi16,
    _mm256_storeu_si256, _mm256_unpackhi_epi8, _mm256_unpackhi_epi16, _mm256_unpackhi_epi32,
    _mm256_unpackhi_epi64, _mm256_unpacklo_epi8, _mm256_unpacklo_epi16, _mm256_unpacklo_epi32,
    _mm256_unpacklo_epi64,
};

cpufeatures::new!(has_avx2, "avx2");

/// Whether this CPU runs AVX2 (and the OS saves its registers); detected once, then a load.
#[inline]
pub(crate) fn available() -> bool {
    #[cfg(test)]
    if OFF.load(core::sync::atomic::Ordering::Relaxed) {
        return false;
    }
    has_avx2::get()
}

/// Set by tests to run the kernels' 16-byte paths on a CPU that has AVX2.
#[cfg(test)]
pub(crate) static OFF: core::sync::atomic::AtomicBool = core::sync::atomic::AtomicBool::new(false);

/// Two 16-byte vectors side by side.
#[derive(Clone, Copy)]
pub(crate) struct Y(__m256i);

/// The 32 bytes at `p`.
///
/// # Safety
/// `p` is valid for reads of 32 bytes; the CPU has AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn load(p: *const u8) -> Y {
    // SAFETY: `p` is readable for 32 bytes (the caller's contract); `vmovdqu` takes any
    // alignment.
    Y(unsafe { _mm256_loadu_si256(p.cast::<__m256i>()) })
}

/// Stores the low half of `v` at `lo` and its high half at `hi`, with non-temporal stores if
/// `STREAM`.
///
/// # Safety
/// `lo` and `hi` are valid for writes of 16 bytes, 16-byte aligned if `STREAM`; the CPU has
/// AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn store_halves<const STREAM: bool>(v: Y, lo: *mut u8, hi: *mut u8) {
    let (a, b) = (
        _mm256_castsi256_si128(v.0),
        _mm256_extracti128_si256::<1>(v.0),
    );
    // SAFETY: both pointers are writable for 16 bytes, and 16-byte aligned when streamed (the
    // caller's contract).
    unsafe {
        if STREAM {
            _mm_stream_si128(lo.cast(), a);
            _mm_stream_si128(hi.cast(), b);
        } else {
            _mm_storeu_si128(lo.cast(), a);
            _mm_storeu_si128(hi.cast(), b);
        }
    }
}

/// `rounds` rounds of the perfect shuffle of the `M` registers `v` at slot width `W`, in
/// each half on its own.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn shuffle<const W: usize, const M: usize>(v: &mut [Y; M], rounds: usize) {
    for _ in 0..rounds {
        let old = *v;
        for i in 0..M / 2 {
            let (a, b) = (old[i].0, old[i + M / 2].0);
            let (lo, hi) = match W {
                1 => (_mm256_unpacklo_epi8(a, b), _mm256_unpackhi_epi8(a, b)),
                2 => (_mm256_unpacklo_epi16(a, b), _mm256_unpackhi_epi16(a, b)),
                4 => (_mm256_unpacklo_epi32(a, b), _mm256_unpackhi_epi32(a, b)),
                _ => (_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b)),
            };
            (v[2 * i], v[2 * i + 1]) = (Y(lo), Y(hi));
        }
    }
}

/// [`lanes::transpose_slots`](super::lanes::transpose_slots) in each 16-byte half.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn transpose_slots<const N: usize, const K: usize>(v: Y) -> Y {
    use core::arch::x86_64::{
        _mm256_shuffle_epi32, _mm256_shufflehi_epi16, _mm256_shufflelo_epi16, _mm256_srli_si256,
    };
    match (N, K) {
        (2, 2) => {
            use core::arch::x86_64::_mm256_set1_epi16;
            let keep = _mm256_and_si256(v.0, _mm256_set1_epi16(0xf00fu16 as i16));
            let down = _mm256_and_si256(_mm256_srli_epi16::<4>(v.0), _mm256_set1_epi16(0x00f0));
            let up = _mm256_and_si256(_mm256_slli_epi16::<4>(v.0), _mm256_set1_epi16(0x0f00));
            Y(_mm256_or_si256(keep, _mm256_or_si256(down, up)))
        }
        (8, 2) => Y(_mm256_shufflehi_epi16::<0xd8>(
            _mm256_shufflelo_epi16::<0xd8>(v.0),
        )),
        (16, 2) => Y(_mm256_shuffle_epi32::<0xd8>(v.0)),
        (1, 2) => Y(exchange_bits::<2>(v.0, super::lanes::CRUMB_PAIRS)),
        (8, 4) => Y(square::<24, 12>(v.0, super::lanes::FIELD_SQUARES[0])),
        (4, 4) => Y(square::<12, 6>(v.0, super::lanes::FIELD_SQUARES[1])),
        (2, 4) => Y(square::<6, 3>(v.0, super::lanes::FIELD_SQUARES[2])),
        (16, 4) => {
            let x = _mm256_unpacklo_epi8(v.0, _mm256_srli_si256::<8>(v.0));
            Y(_mm256_unpacklo_epi8(x, _mm256_srli_si256::<8>(x)))
        }
        _ => v,
    }
}

/// The two exchanges of a square of fields
/// ([`lanes::FIELD_SQUARES`](super::lanes::FIELD_SQUARES)), by `S0` then `S1` bits under
/// `masks`, in each 64-bit lane.
#[inline]
#[target_feature(enable = "avx2")]
fn square<const S0: i32, const S1: i32>(x: __m256i, masks: [u64; 2]) -> __m256i {
    exchange_bits::<S1>(exchange_bits::<S0>(x, masks[0]), masks[1])
}

/// In each 64-bit lane, the bits under `mask` exchanged with those `S` bits above them.
#[inline]
#[target_feature(enable = "avx2")]
fn exchange_bits<const S: i32>(x: __m256i, mask: u64) -> __m256i {
    use core::arch::x86_64::{
        _mm256_set1_epi64x, _mm256_slli_epi64, _mm256_srli_epi64, _mm256_xor_si256,
    };
    let m = _mm256_set1_epi64x(mask as i64);
    let t = _mm256_and_si256(_mm256_xor_si256(_mm256_srli_epi64::<S>(x), x), m);
    _mm256_xor_si256(x, _mm256_xor_si256(t, _mm256_slli_epi64::<S>(t)))
}

/// Per byte: the low nibbles of `a` and `b` together, and the high ones (as
/// [`lanes::swap_nibbles`](super::lanes::swap_nibbles), 32 bytes at a time).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn swap_nibbles(a: Y, b: Y) -> [Y; 2] {
    let (lo, hi) = (_mm256_set1_epi8(0x0f), _mm256_set1_epi8(0xf0u8 as i8));
    let low = _mm256_or_si256(
        _mm256_and_si256(a.0, lo),
        _mm256_and_si256(_mm256_slli_epi16::<4>(b.0), hi),
    );
    let high = _mm256_or_si256(
        _mm256_and_si256(_mm256_srli_epi16::<4>(a.0), lo),
        _mm256_and_si256(b.0, hi),
    );
    [Y(low), Y(high)]
}

/// The 32 bytes of `E(4)` fields from `p`, or if `half` from half a byte past `p` (byte `i`
/// the high nibble of byte `i` at `p` and the low nibble of byte `i + 1`).
///
/// # Safety
/// `p` is valid for reads of 32 bytes, or 33 if `half`; the CPU has AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn load_half(p: *const u8, half: bool) -> Y {
    // SAFETY: `p` is readable for 32 bytes, 33 if `half` (the caller's contract).
    let v = unsafe { load(p) };
    if !half {
        return v;
    }
    // SAFETY: as above.
    let next = unsafe { load(p.add(1)) };
    let (lo, hi) = (_mm256_set1_epi8(0x0f), _mm256_set1_epi8(0xf0u8 as i8));
    Y(_mm256_or_si256(
        _mm256_and_si256(_mm256_srli_epi16::<4>(v.0), lo),
        _mm256_and_si256(_mm256_slli_epi16::<4>(next.0), hi),
    ))
}

/// `v` in every 64-bit lane.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn splat64(v: u64) -> Y {
    Y(core::arch::x86_64::_mm256_set1_epi64x(v as i64))
}

/// In each 64-bit lane, the lane of `v` shifted down by `shift` (0 to 7) bits, the top
/// `shift` bits filled from the next byte, the top byte of the same lane of `next` (`v`
/// loaded a byte on): a run of bits moved onto bytes 32 bytes at a time, as
/// [`lanes::funnel`](super::lanes::funnel) 16.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn funnel(v: Y, next: Y, shift: u32) -> Y {
    use core::arch::x86_64::{
        _mm_cvtsi32_si128, _mm256_sll_epi64, _mm256_srl_epi64, _mm256_srli_epi64,
    };
    // Counts of 64 and more shift every bit out, as a shift of 0 wants of `next`.
    let up = _mm256_sll_epi64(
        _mm256_srli_epi64::<56>(next.0),
        _mm_cvtsi32_si128(64 - shift as i32),
    );
    Y(_mm256_or_si256(
        _mm256_srl_epi64(v.0, _mm_cvtsi32_si128(shift as i32)),
        up,
    ))
}

/// [`funnel`] of two 16-byte runs side by side, each by its own shift: the low half's lanes
/// by `shifts.0`, the high half's by `shifts.1` (0 to 7 each).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn funnel_halves(v: Y, next: Y, shifts: (u32, u32)) -> Y {
    use core::arch::x86_64::{
        _mm256_setr_epi64x, _mm256_sllv_epi64, _mm256_srli_epi64, _mm256_srlv_epi64,
    };
    let (a, b) = (i64::from(shifts.0), i64::from(shifts.1));
    // Variable counts of 64 shift every bit out, as a shift of 0 wants of `next`.
    let up = _mm256_sllv_epi64(
        _mm256_srli_epi64::<56>(next.0),
        _mm256_setr_epi64x(64 - a, 64 - a, 64 - b, 64 - b),
    );
    Y(_mm256_or_si256(
        _mm256_srlv_epi64(v.0, _mm256_setr_epi64x(a, a, b, b)),
        up,
    ))
}

/// In each 64-bit lane, the bits of `b` under `mask` exchanged with those of `a` `shift` bits
/// up: `t = ((a >> shift) ^ b) & mask`, then `(a ^ (t << shift), b ^ t)` (a round of
/// `bits::transpose_planes`).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn exchange(a: Y, b: Y, mask: Y, shift: u32) -> (Y, Y) {
    use core::arch::x86_64::{
        _mm_cvtsi32_si128, _mm256_sll_epi64, _mm256_srl_epi64, _mm256_xor_si256,
    };
    let count = _mm_cvtsi32_si128(shift as i32);
    let t = _mm256_and_si256(_mm256_xor_si256(_mm256_srl_epi64(a.0, count), b.0), mask.0);
    (
        Y(_mm256_xor_si256(a.0, _mm256_sll_epi64(t, count))),
        Y(_mm256_xor_si256(b.0, t)),
    )
}

/// Lookup tables for [`zip_units`] and [`unzip_units`], fields of 1 or 2 bits, each table
/// in both 16-byte halves (indexed by a nibble, `vpshufb`): `spread[x]` puts a nibble's
/// fields of row `x` at every other field, row 1's one field up; `gather[x][h]` takes the
/// fields of row `x` (the even or the odd ones) out of a nibble of a zipped byte, into the low
/// (`h` = 0) or high half of a nibble.
#[derive(Clone, Copy)]
pub(crate) struct UnitTables {
    spread: [Y; 2],
    gather: [[Y; 2]; 2],
}

impl UnitTables {
    /// The tables for fields of `bits` (1 or 2) bits.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn new(bits: usize) -> UnitTables {
        use core::arch::x86_64::_mm256_broadcastsi128_si256;
        let UnitBytes { spread, gather } = &UNIT_TABLES[bits - 1];
        // SAFETY: each table is 16 readable bytes.
        let load = |t: &[u8; 16]| {
            Y(_mm256_broadcastsi128_si256(unsafe {
                _mm_loadu_si128(t.as_ptr().cast())
            }))
        };
        UnitTables {
            spread: [load(&spread[0]), load(&spread[1])],
            gather: [
                [load(&gather[0]), load(&gather[1])],
                [load(&gather[2]), load(&gather[3])],
            ],
        }
    }
}

/// [`UnitTables`]' tables as bytes.
struct UnitBytes {
    /// Of rows 0 and 1.
    spread: [[u8; 16]; 2],
    /// Of row 0 low and high, then of row 1 low and high.
    gather: [[u8; 16]; 4],
}

/// [`UnitBytes`] for fields of 1 and 2 bits.
static UNIT_TABLES: [UnitBytes; 2] = [unit_tables(1), unit_tables(2)];

/// [`UNIT_TABLES`] for fields of `bits` bits.
const fn unit_tables(bits: u32) -> UnitBytes {
    let (mask, per) = ((1u8 << bits) - 1, 4 / bits);
    let mut t = UnitBytes {
        spread: [[0; 16]; 2],
        gather: [[0; 16]; 4],
    };
    let mut n = 0;
    while n < 16 {
        let (mut spread, mut i) = (0u8, 0);
        while i < per {
            spread |= ((n as u8 >> (i * bits)) & mask) << (2 * i * bits);
            i += 1;
        }
        t.spread[0][n] = spread;
        t.spread[1][n] = spread << bits;
        let mut x = 0;
        while x < 2 {
            let (mut gather, mut i) = (0u8, 0);
            while i < per / 2 {
                gather |= ((n as u8 >> ((2 * i + x) * bits)) & mask) << (i * bits);
                i += 1;
            }
            t.gather[2 * x as usize][n] = gather;
            t.gather[2 * x as usize + 1][n] = gather << 2;
            x += 1;
        }
        n += 1;
    }
    t
}

/// Each byte's low nibble and high nibble, as bytes.
#[inline]
#[target_feature(enable = "avx2")]
fn nibbles(v: __m256i) -> [__m256i; 2] {
    let low = _mm256_set1_epi8(0x0f);
    [
        _mm256_and_si256(v, low),
        _mm256_and_si256(_mm256_srli_epi16::<4>(v), low),
    ]
}

/// Two rows of 32 bytes of fields of 1 or 2 bits (`tables`'), `a` and `b`, zipped: field `c`
/// of row `x` to field `2c + x` of the 64 bytes returned (in two registers). Each byte of the
/// result is one nibble of each row spread apart (a table lookup each, `vpshufb`), the bytes
/// from the low nibbles interleaved with those from the high ones. The first register depends
/// on the rows' low halves only.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn zip_units(a: Y, b: Y, tables: &UnitTables) -> [Y; 2] {
    use core::arch::x86_64::{_mm256_permute2x128_si256, _mm256_shuffle_epi8};
    let ([al, ah], [bl, bh]) = (nibbles(a.0), nibbles(b.0));
    let [ta, tb] = tables.spread.map(|t| t.0);
    let lo = _mm256_or_si256(_mm256_shuffle_epi8(ta, al), _mm256_shuffle_epi8(tb, bl));
    let hi = _mm256_or_si256(_mm256_shuffle_epi8(ta, ah), _mm256_shuffle_epi8(tb, bh));
    // Bytes 0-7 | 16-23 of the rows, then 8-15 | 24-31: each a 2-byte unit of the result.
    let (x, y) = (_mm256_unpacklo_epi8(lo, hi), _mm256_unpackhi_epi8(lo, hi));
    [
        Y(_mm256_permute2x128_si256::<0x20>(x, y)),
        Y(_mm256_permute2x128_si256::<0x31>(x, y)),
    ]
}

/// The inverse of [`zip_units`]: 64 bytes of zipped fields, `x` then `y`, split into their two
/// rows of 32 bytes. Each byte's nibbles give a nibble of each row (two table lookups), and
/// each pair of bytes one byte of each row. The low half of each row depends on `x` only.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn unzip_units(x: Y, y: Y, tables: &UnitTables) -> [Y; 2] {
    use core::arch::x86_64::{
        _mm256_packus_epi16, _mm256_permute4x64_epi64, _mm256_set1_epi16, _mm256_shuffle_epi8,
    };
    let ([xl, xh], [yl, yh]) = (nibbles(x.0), nibbles(y.0));
    let mut rows = [zero(); 2];
    for (row, [lo, hi]) in rows.iter_mut().zip(tables.gather) {
        // Each byte's nibble of the row, then each pair's two nibbles in its low byte.
        let mut pairs = [(xl, xh), (yl, yh)];
        for (l, h) in &mut pairs {
            let g = _mm256_or_si256(_mm256_shuffle_epi8(lo.0, *l), _mm256_shuffle_epi8(hi.0, *h));
            let g = _mm256_or_si256(g, _mm256_srli_epi16::<4>(g));
            *l = _mm256_and_si256(g, _mm256_set1_epi16(0xff));
        }
        let packed = _mm256_packus_epi16(pairs[0].0, pairs[1].0);
        *row = Y(_mm256_permute4x64_epi64::<0xd8>(packed));
    }
    rows
}

/// Stores the low half of `v` at `p`, with a non-temporal store if `STREAM`.
///
/// # Safety
/// `p` is valid for writes of 16 bytes, 16-byte aligned if `STREAM`; the CPU has AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn store_low<const STREAM: bool>(v: Y, p: *mut u8) {
    let low = _mm256_castsi256_si128(v.0);
    // SAFETY: `p` is writable for 16 bytes, and 16-byte aligned when streamed (the caller's
    // contract).
    unsafe {
        if STREAM {
            _mm_stream_si128(p.cast(), low);
        } else {
            _mm_storeu_si128(p.cast(), low);
        }
    }
}

/// Zeros.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn zero() -> Y {
    Y(_mm256_setzero_si256())
}

/// The 16 bytes at `lo` and the 16 at `hi`, side by side.
///
/// # Safety
/// `lo` and `hi` are valid for reads of 16 bytes; the CPU has AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn load_halves(lo: *const u8, hi: *const u8) -> Y {
    // SAFETY: both pointers are readable for 16 bytes (the caller's contract); `vmovdqu` and
    // `vinserti128` take any alignment.
    unsafe {
        let lo = _mm_loadu_si128(lo.cast());
        Y(_mm256_inserti128_si256::<1>(
            _mm256_castsi128_si256(lo),
            _mm_loadu_si128(hi.cast()),
        ))
    }
}

/// Stores `v` at `p`, with non-temporal stores if `STREAM`: two of 16 bytes, not one of 32
/// (measured on a 2-core AMD EPYC VM, 64 MiB: bf16 rows -> `T(8,128)(2,1)`, whose
/// lines go out 32 bytes at a time, 0.83-0.90 -> 0.96-0.97 of memcpy; a loop of nothing but
/// 32-byte non-temporal stores ran 8 GB/s there, of 16-byte ones 38).
///
/// # Safety
/// `p` is valid for writes of 32 bytes, 16-byte aligned if `STREAM`; the CPU has AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn store<const STREAM: bool>(v: Y, p: *mut u8) {
    // SAFETY: `p` is writable for 32 bytes, and 16-byte aligned when streamed (the caller's
    // contract), as both halves' stores need.
    unsafe {
        if STREAM {
            _mm_stream_si128(p.cast(), _mm256_castsi256_si128(v.0));
            _mm_stream_si128(p.add(16).cast(), _mm256_extracti128_si256::<1>(v.0));
        } else {
            _mm256_storeu_si256(p.cast(), v.0);
        }
    }
}

/// Bit 0 of each of the 32 bytes at `p`, byte `k`'s at bit `k`.
///
/// # Safety
/// `p` is valid for reads of 32 bytes; the CPU has AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn low_bits(p: *const u8) -> u32 {
    // SAFETY: `p` is readable for 32 bytes (the caller's contract). Shifting each 16-bit lane
    // left by 7 moves bit 0 of both its bytes to their bit 7, which `movemask` gathers.
    unsafe { _mm256_movemask_epi8(_mm256_slli_epi16::<7>(load(p).0)) as u32 }
}

/// The `R × R` matrix of `N`-byte slots in `v` (row `i` in `v[i]`, `R = 32 / N` slots a
/// row, `H = R / 2` a half) transposed: each half's `H × H` blocks by the perfect shuffle,
/// then the halves exchanged.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn transpose_square<const N: usize, const H: usize, const R: usize>(
    v: [Y; R],
) -> [Y; R] {
    use core::arch::x86_64::_mm256_permute2x128_si256;
    let mut lo: [Y; H] = core::array::from_fn(|i| v[i]);
    let mut hi: [Y; H] = core::array::from_fn(|i| v[H + i]);
    shuffle::<N, H>(&mut lo, H.trailing_zeros() as usize);
    shuffle::<N, H>(&mut hi, H.trailing_zeros() as usize);
    core::array::from_fn(|i| {
        Y(if i < H {
            _mm256_permute2x128_si256::<0x20>(lo[i].0, hi[i].0)
        } else {
            _mm256_permute2x128_si256::<0x31>(lo[i - H].0, hi[i - H].0)
        })
    })
}

/// The 32 bytes at each of the four pointers `rows` interleaved into 4-byte words at `out`:
/// word `j` is byte `j` of every row in turn (128 bytes).
///
/// # Safety
/// Every row is valid for reads of 32 bytes and `out` for writes of 128; the CPU has AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn zip_words(rows: [*const u8; 4], out: *mut u8) {
    // SAFETY: each row is readable for 32 bytes (the caller's contract).
    let w = words(core::array::from_fn(|i| unsafe { load(rows[i]) }.0));
    for (k, w) in w.into_iter().enumerate() {
        // SAFETY: `out` is writable for 128 bytes (the caller's contract).
        unsafe { _mm256_storeu_si256(out.add(32 * k).cast(), w) };
    }
}

/// The 32 `E(4)` bytes (64 fields) at each of the eight pointers `rows` interleaved into
/// 4-byte words at `out`: word `j` is field `j` of every row in turn, row 0's in its low
/// nibble (256 bytes). Pairs of rows are one row of bytes (field `j` of both, by
/// [`swap_nibbles`]: even fields, then odd ones, which a byte unpack puts back in order within
/// each 16-byte half), and four such rows are zipped as [`zip_words`] does.
///
/// # Safety
/// Every row is valid for reads of 32 bytes and `out` for writes of 256; the CPU has AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn zip_nibble_words(rows: [*const u8; 8], out: *mut u8) {
    // SAFETY: each row is readable for 32 bytes (the caller's contract).
    let pairs: [[Y; 2]; 4] =
        core::array::from_fn(|j| unsafe { swap_nibbles(load(rows[2 * j]), load(rows[2 * j + 1])) });
    // Fields 0-15 | 32-47 of each pair, then 16-31 | 48-63, a byte each.
    let even = words(pairs.map(|[lo, hi]| _mm256_unpacklo_epi8(lo.0, hi.0)));
    let odd = words(pairs.map(|[lo, hi]| _mm256_unpackhi_epi8(lo.0, hi.0)));
    // `words` gives the words of bytes 0-7, 8-15, 16-23, 24-31 of its rows: fields 0-15 and
    // 32-47 from `even`, 16-31 and 48-63 from `odd`.
    let order = [
        even[0], even[1], odd[0], odd[1], even[2], even[3], odd[2], odd[3],
    ];
    for (k, w) in order.into_iter().enumerate() {
        // SAFETY: `out` is writable for 256 bytes (the caller's contract).
        unsafe { _mm256_storeu_si256(out.add(32 * k).cast(), w) };
    }
}

/// The fields of `4G` rows of `8 / G`-bit fields (`E(2)`: `G` = 4, `E(1)`: 8; 32 bytes of row
/// `x` loaded by `row(x)`) zipped across the rows into 4-byte words, by plane: word `j` of
/// plane `k` (32 words from `out(k)`) is field `G·j + k` of every row in turn, row 0's in its
/// low bits.
/// Each group of `G` rows is first transposed as `G × G` matrices of fields
/// ([`transpose_fields`]: plane `k`'s byte `j` is field `k` of byte `j` of each row of the
/// group), then the four groups' bytes of each plane zipped as [`zip_words`] does.
///
/// # Safety
/// Every plane's `out` is valid for writes of 128 bytes; the CPU has AVX2; `masks` are
/// `transpose_fields`'.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn zip_plane_words<const G: usize>(
    row: impl Fn(usize) -> Y,
    out: impl Fn(usize) -> *mut u8,
    masks: &[Y; 3],
) {
    // Loops, not `array::from_fn`, whose closure here was not inlined (a call a group).
    let mut groups = [[zero(); G]; 4];
    for (q, w) in groups.iter_mut().enumerate() {
        for (k, v) in w.iter_mut().enumerate() {
            *v = row(q * G + k);
        }
        transpose_fields::<G>(w, masks);
    }
    let [g0, g1, g2, g3] = groups;
    let planes = g0.iter().zip(&g1).zip(&g2).zip(&g3);
    for (k, (((a, b), c), d)) in planes.enumerate() {
        for (i, w) in words([a.0, b.0, c.0, d.0]).into_iter().enumerate() {
            // SAFETY: plane `k`'s `out` is writable for 128 bytes (the caller's contract).
            unsafe { _mm256_storeu_si256(out(k).add(32 * i).cast(), w) };
        }
    }
}

/// The `G × G` matrix of `8 / G`-bit fields at each byte position of the `G` registers `w`
/// (row `k` in `w[k]`) transposed across them: a round of [`exchange`]s per bit of `G`, round
/// `r` moving fields `G >> (r + 1)` columns under `masks[r]` (see `bits::transpose_planes`).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn transpose_fields<const G: usize>(w: &mut [Y; G], masks: &[Y; 3]) {
    let bits = 8 / G;
    let (mut s, mut r) = (G / 2, 0);
    while s > 0 {
        for k in 0..G {
            if k & s == 0 {
                (w[k], w[k + s]) = exchange(w[k], w[k + s], masks[r], (bits * s) as u32);
            }
        }
        (s, r) = (s / 2, r + 1);
    }
}

/// The 32 bytes of each of the four rows `v` interleaved into 4-byte words: the words of bytes
/// 0-7, 8-15, 16-23 and 24-31 (byte `j` of every row in turn).
#[inline]
#[target_feature(enable = "avx2")]
fn words(v: [__m256i; 4]) -> [__m256i; 4] {
    use core::arch::x86_64::_mm256_permute2x128_si256;
    // Pairs of rows a byte each, then both pairs a 2-byte unit each: in each half, words
    // 0-3 | 16-19, then 4-7 | 20-23, 8-11 | 24-27 and 12-15 | 28-31.
    let pairs = [
        [
            _mm256_unpacklo_epi8(v[0], v[1]),
            _mm256_unpackhi_epi8(v[0], v[1]),
        ],
        [
            _mm256_unpacklo_epi8(v[2], v[3]),
            _mm256_unpackhi_epi8(v[2], v[3]),
        ],
    ];
    let w: [__m256i; 4] = core::array::from_fn(|i| {
        let (a, b) = (pairs[0][i / 2], pairs[1][i / 2]);
        if i % 2 == 0 {
            _mm256_unpacklo_epi16(a, b)
        } else {
            _mm256_unpackhi_epi16(a, b)
        }
    });
    core::array::from_fn(|k| {
        // Words `8k ..`: the low halves of two neighbouring vectors, or their high halves.
        let (a, b) = (w[k % 2 * 2], w[k % 2 * 2 + 1]);
        if k < 2 {
            _mm256_permute2x128_si256::<0x20>(a, b)
        } else {
            _mm256_permute2x128_si256::<0x31>(a, b)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each 16-byte half of [`transpose_slots`] is `lanes::transpose_slots` of it, for every
    /// slot shape the kernels fold (`digits::folded`).
    #[test]
    #[allow(unsafe_code)]
    fn slots_transpose_as_the_vector_kernels_do() {
        use super::super::lanes;
        if !available() {
            return;
        }
        let bytes: [u8; 32] = core::array::from_fn(|i| (i as u8).wrapping_mul(0x9d) ^ 0x5a);
        fn check<const N: usize, const K: usize>(bytes: &[u8; 32]) {
            let mut out = [0u8; 32];
            // SAFETY: the CPU has AVX2 (checked by the caller); 32 readable and writable bytes.
            unsafe {
                let v = transpose_slots::<N, K>(load(bytes.as_ptr()));
                store::<false>(v, out.as_mut_ptr());
            }
            for half in 0..2 {
                let mut want = [0u8; 16];
                let from: &[u8; 16] = bytes[16 * half..][..16].try_into().expect("16 bytes");
                lanes::store(lanes::transpose_slots::<N, K>(lanes::load(from)), &mut want);
                assert_eq!(out[16 * half..][..16], want, "{N}-byte slots, {K} × {K}");
            }
        }
        check::<1, 2>(&bytes);
        check::<2, 2>(&bytes);
        check::<8, 2>(&bytes);
        check::<8, 4>(&bytes);
        check::<4, 4>(&bytes);
        check::<2, 4>(&bytes);
        check::<16, 2>(&bytes);
        check::<16, 4>(&bytes);
    }
}
