//! 16-byte vectors of slots and the one shuffle the block kernels are made of: the perfect
//! shuffle of `M` vectors at a slot width of `W` bytes (`lo`/`hi` interleaves, SSE2's
//! `punpckl*`/`punpckh*` on x86_64, a plain byte loop elsewhere).
//!
//! One round takes vectors `i` and `i + M/2` and interleaves their slots into vectors `2i`
//! and `2i + 1`: as the bits of a slot's position in the `M · 16/W` slots, a rotation by one.
//! So `log2 M` rounds interleave `M` rows into one run (and a transpose of an `n × n` block,
//! `n = 16/W`, is the `n`-way interleave of its rows), and `log2 n` rounds split a run into
//! `M` rows: one primitive for transposes, interleaves and their inverses, at every width.
//!
//! LLVM turns the plain loop into shuffles only for 4- and 8-byte slots (measured: bytes
//! stayed scalar, 8× slower), hence the intrinsics on x86_64.
#![allow(unsafe_code)]

/// Bytes of a vector.
pub(crate) const BYTES: usize = 16;

#[cfg(target_arch = "x86_64")]
mod imp {
    use core::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_packs_epi32,
        _mm_packus_epi16, _mm_set_epi64x, _mm_set1_epi8, _mm_set1_epi16, _mm_set1_epi32,
        _mm_slli_epi16, _mm_srli_epi16, _mm_srli_epi32, _mm_storeu_si128, _mm_stream_si128,
        _mm_sub_epi8, _mm_unpackhi_epi8, _mm_unpackhi_epi16, _mm_unpackhi_epi32,
        _mm_unpackhi_epi64, _mm_unpacklo_epi8, _mm_unpacklo_epi16, _mm_unpacklo_epi32,
        _mm_unpacklo_epi64, _mm_xor_si128,
    };

    /// 16 bytes in an SSE2 register.
    #[derive(Clone, Copy)]
    pub(crate) struct V(__m128i);

    /// Each 64-bit lane of `v` shifted down by `shift` (below 8) bits, its top `shift` bits
    /// the low ones of the top byte of the same lane of `next` (`v`'s bytes one byte on).
    #[inline(always)]
    pub(crate) fn funnel(v: V, next: V, shift: u32) -> V {
        use core::arch::x86_64::{_mm_cvtsi32_si128, _mm_sll_epi64, _mm_srl_epi64, _mm_srli_epi64};
        // SAFETY: SSE2 is part of the x86_64 baseline; the intrinsics read only registers
        // (counts of 64 and more shift every bit out, as the lane formula wants for 0).
        unsafe {
            let high = _mm_srli_epi64::<56>(next.0);
            let up = _mm_sll_epi64(high, _mm_cvtsi32_si128(64 - shift as i32));
            V(_mm_or_si128(
                _mm_srl_epi64(v.0, _mm_cvtsi32_si128(shift as i32)),
                up,
            ))
        }
    }

    #[inline(always)]
    pub(crate) fn load(b: &[u8; 16]) -> V {
        // SAFETY: `b` is 16 readable bytes and `_mm_loadu_si128` takes any alignment; SSE2 is
        // part of the x86_64 baseline.
        V(unsafe { _mm_loadu_si128(b.as_ptr().cast::<__m128i>()) })
    }

    #[inline(always)]
    pub(crate) fn store(v: V, b: &mut [u8; 16]) {
        // SAFETY: `b` is 16 writable bytes, borrowed mutably; `_mm_storeu_si128` takes any
        // alignment; SSE2 is part of the x86_64 baseline.
        unsafe { _mm_storeu_si128(b.as_mut_ptr().cast::<__m128i>(), v.0) }
    }

    #[inline(always)]
    pub(crate) fn halves(lo: &[u8; 8], hi: &[u8; 8]) -> V {
        let (lo, hi) = (u64::from_le_bytes(*lo), u64::from_le_bytes(*hi));
        // SAFETY: SSE2 is part of the x86_64 baseline.
        V(unsafe { _mm_set_epi64x(hi as i64, lo as i64) })
    }

    /// # Safety
    /// `p` is valid for reads of 16 bytes.
    #[inline(always)]
    pub(crate) unsafe fn load_ptr(p: *const u8) -> V {
        // SAFETY: `p` is readable for 16 bytes (the caller's contract); `_mm_loadu_si128`
        // takes any alignment; SSE2 is part of the x86_64 baseline.
        V(unsafe { _mm_loadu_si128(p.cast::<__m128i>()) })
    }

    /// # Safety
    /// `p` is valid for writes of 16 bytes.
    #[inline(always)]
    pub(crate) unsafe fn store_ptr(v: V, p: *mut u8) {
        // SAFETY: `p` is writable for 16 bytes (the caller's contract); `_mm_storeu_si128`
        // takes any alignment; SSE2 is part of the x86_64 baseline.
        unsafe { _mm_storeu_si128(p.cast::<__m128i>(), v.0) }
    }

    /// A non-temporal store (`movntdq`): the line goes to memory through a write-combining
    /// buffer, not into the cache.
    ///
    /// # Safety
    /// `p` is valid for writes of 16 bytes and 16-byte aligned.
    #[inline(always)]
    pub(crate) unsafe fn stream_ptr(v: V, p: *mut u8) {
        // SAFETY: `p` is writable for 16 bytes and 16-byte aligned, as `_mm_stream_si128`
        // needs (the caller's contract); SSE2 is part of the x86_64 baseline.
        unsafe { _mm_stream_si128(p.cast::<__m128i>(), v.0) }
    }

    /// The low halves of `a` and `b`, slots of `W` bytes interleaved.
    #[inline(always)]
    pub(crate) fn lo<const W: usize>(a: V, b: V) -> V {
        // SAFETY: register-only SSE2 instructions, part of the x86_64 baseline.
        V(unsafe {
            match W {
                1 => _mm_unpacklo_epi8(a.0, b.0),
                2 => _mm_unpacklo_epi16(a.0, b.0),
                4 => _mm_unpacklo_epi32(a.0, b.0),
                _ => _mm_unpacklo_epi64(a.0, b.0),
            }
        })
    }

    /// The 32 nibbles of `v`, low nibble of each byte first, as 32 bytes.
    #[inline(always)]
    pub(crate) fn nibbles_apart(v: V) -> [V; 2] {
        // SAFETY: register-only SSE2 instructions, part of the x86_64 baseline.
        unsafe {
            let m = _mm_set1_epi8(0x0f);
            let lo = _mm_and_si128(v.0, m);
            let hi = _mm_and_si128(_mm_srli_epi16::<4>(v.0), m);
            [V(_mm_unpacklo_epi8(lo, hi)), V(_mm_unpackhi_epi8(lo, hi))]
        }
    }

    /// The 64 two-bit fields of `v`, the lowest of each byte first, as 64 bytes.
    #[inline(always)]
    pub(crate) fn crumbs_apart(v: V) -> [V; 4] {
        // SAFETY: register-only SSE2 instructions, part of the x86_64 baseline.
        unsafe {
            let m = _mm_set1_epi8(3);
            let c0 = _mm_and_si128(v.0, m);
            let c1 = _mm_and_si128(_mm_srli_epi16::<2>(v.0), m);
            let c2 = _mm_and_si128(_mm_srli_epi16::<4>(v.0), m);
            let c3 = _mm_and_si128(_mm_srli_epi16::<6>(v.0), m);
            let (lo01, hi01) = (_mm_unpacklo_epi8(c0, c1), _mm_unpackhi_epi8(c0, c1));
            let (lo23, hi23) = (_mm_unpacklo_epi8(c2, c3), _mm_unpackhi_epi8(c2, c3));
            [
                V(_mm_unpacklo_epi16(lo01, lo23)),
                V(_mm_unpackhi_epi16(lo01, lo23)),
                V(_mm_unpacklo_epi16(hi01, hi23)),
                V(_mm_unpackhi_epi16(hi01, hi23)),
            ]
        }
    }

    /// Each byte of `v` (0 to 3) sign-extended from its bit 1: `(x ^ 2) - 2`.
    #[inline(always)]
    pub(crate) fn sign_crumbs(v: V) -> V {
        // SAFETY: register-only SSE2 instructions, part of the x86_64 baseline.
        unsafe {
            let two = _mm_set1_epi8(2);
            V(_mm_sub_epi8(_mm_xor_si128(v.0, two), two))
        }
    }

    /// Each byte of `v` (a nibble, 0 to 15) sign-extended from its bit 3: `(x ^ 8) - 8`.
    #[inline(always)]
    pub(crate) fn sign_nibbles(v: V) -> V {
        // SAFETY: register-only SSE2 instructions, part of the x86_64 baseline.
        unsafe {
            let eight = _mm_set1_epi8(8);
            V(_mm_sub_epi8(_mm_xor_si128(v.0, eight), eight))
        }
    }

    /// The low nibbles of the 32 bytes `a`, `b`, two to a byte (the first in the low
    /// nibble): the inverse of [`nibbles_apart`].
    #[inline(always)]
    pub(crate) fn nibbles_together(a: V, b: V) -> V {
        // SAFETY: register-only SSE2 instructions, part of the x86_64 baseline.
        unsafe {
            // Each 16-bit lane `lo | hi << 8` to `lo & 0xf | (hi & 0xf) << 4` in its low byte.
            let pair = |x: __m128i| {
                let lo = _mm_and_si128(x, _mm_set1_epi16(0x000f));
                let hi = _mm_and_si128(_mm_srli_epi16::<4>(x), _mm_set1_epi16(0x00f0));
                _mm_or_si128(lo, hi)
            };
            V(_mm_packus_epi16(pair(a.0), pair(b.0)))
        }
    }

    /// Bit 0 of each of the 16 bytes of `v`, byte `k`'s at bit `k`.
    #[inline(always)]
    pub(crate) fn low_bits(v: V) -> u16 {
        // SAFETY: register-only SSE2 instructions, part of the x86_64 baseline. Shifting each
        // 16-bit lane left by 7 moves bit 0 of both its bytes to their bit 7, which
        // `movemask` gathers.
        unsafe { _mm_movemask_epi8(_mm_slli_epi16::<7>(v.0)) as u16 }
    }

    /// Bits 0-1 of each of the 64 bytes of `v`, four to a byte (the first in the low bits).
    #[inline(always)]
    pub(crate) fn crumbs_together(v: [V; 4]) -> V {
        // SAFETY: register-only SSE2 instructions, part of the x86_64 baseline.
        unsafe {
            // Per 32-bit lane of bytes `b0 b1 b2 b3`: `b0 | b1 << 2 | b2 << 4 | b3 << 6` in its
            // low byte, zeros above; then the lanes' low bytes packed, in order.
            let lane = |x: __m128i| {
                let t = _mm_and_si128(x, _mm_set1_epi8(0x03));
                let t = _mm_and_si128(
                    _mm_or_si128(t, _mm_srli_epi32::<6>(t)),
                    _mm_set1_epi32(0x000f_000f),
                );
                _mm_and_si128(
                    _mm_or_si128(t, _mm_srli_epi32::<12>(t)),
                    _mm_set1_epi32(0xff),
                )
            };
            let low = _mm_packs_epi32(lane(v[0].0), lane(v[1].0));
            let high = _mm_packs_epi32(lane(v[2].0), lane(v[3].0));
            V(_mm_packus_epi16(low, high))
        }
    }

    /// Per byte: the low nibbles of `a` and `b` together, and the high ones.
    #[inline(always)]
    pub(crate) fn swap_nibbles(a: V, b: V) -> [V; 2] {
        // SAFETY: register-only SSE2 instructions, part of the x86_64 baseline.
        unsafe {
            let (lo, hi) = (_mm_set1_epi8(0x0f), _mm_set1_epi8(0xf0u8 as i8));
            let low = _mm_or_si128(
                _mm_and_si128(a.0, lo),
                _mm_and_si128(_mm_slli_epi16::<4>(b.0), hi),
            );
            let high = _mm_or_si128(
                _mm_and_si128(_mm_srli_epi16::<4>(a.0), lo),
                _mm_and_si128(b.0, hi),
            );
            [V(low), V(high)]
        }
    }

    /// Each slot of `N` bytes as a `K × K` block of elements, transposed (see
    /// [`super::transpose_slots`]).
    #[inline(always)]
    pub(crate) fn transpose_slots<const N: usize, const K: usize>(v: V) -> V {
        use core::arch::x86_64::{
            _mm_shuffle_epi32, _mm_shufflehi_epi16, _mm_shufflelo_epi16, _mm_srli_si128,
        };
        // SAFETY: register-only SSE2 instructions, part of the x86_64 baseline.
        unsafe {
            match (N, K) {
                // Nibbles 1 and 2 of each 16-bit slot swapped.
                (2, 2) => {
                    let keep = _mm_and_si128(v.0, _mm_set1_epi16(0xf00fu16 as i16));
                    let down = _mm_and_si128(_mm_srli_epi16::<4>(v.0), _mm_set1_epi16(0x00f0));
                    let up = _mm_and_si128(_mm_slli_epi16::<4>(v.0), _mm_set1_epi16(0x0f00));
                    V(_mm_or_si128(keep, _mm_or_si128(down, up)))
                }
                // Elements 1 and 2 of each 4 swapped: 0b11_01_10_00.
                (8, 2) => V(_mm_shufflehi_epi16::<0xd8>(_mm_shufflelo_epi16::<0xd8>(
                    v.0,
                ))),
                (16, 2) => V(_mm_shuffle_epi32::<0xd8>(v.0)),
                // 2 × 2 fields of 2 bits in each byte: one exchange
                // ([`CRUMB_PAIRS`](super::CRUMB_PAIRS)).
                (1, 2) => V(exchange::<2>(v.0, super::CRUMB_PAIRS)),
                // 4 × 4 fields of 4, 2 or 1 bits in each 8, 4 or 2 bytes: two exchanges
                // ([`FIELD_SQUARES`](super::FIELD_SQUARES)).
                (8, 4) => V(square::<24, 12>(v.0, super::FIELD_SQUARES[0])),
                (4, 4) => V(square::<12, 6>(v.0, super::FIELD_SQUARES[1])),
                (2, 4) => V(square::<6, 3>(v.0, super::FIELD_SQUARES[2])),
                (16, 4) => {
                    // Rows a b c d of 4 bytes: a0 c0 a1 c1 .. b3 d3, then a0 b0 c0 d0 ..
                    let x = _mm_unpacklo_epi8(v.0, _mm_srli_si128::<8>(v.0));
                    V(_mm_unpacklo_epi8(x, _mm_srli_si128::<8>(x)))
                }
                _ => v,
            }
        }
    }

    /// The two exchanges of a square of fields ([`FIELD_SQUARES`](super::FIELD_SQUARES)), by
    /// `S0` then `S1` bits under `masks`, in each 64-bit lane.
    #[inline(always)]
    fn square<const S0: i32, const S1: i32>(x: __m128i, masks: [u64; 2]) -> __m128i {
        exchange::<S1>(exchange::<S0>(x, masks[0]), masks[1])
    }

    /// In each 64-bit lane, the bits under `mask` exchanged with those `S` bits above them.
    #[inline(always)]
    fn exchange<const S: i32>(x: __m128i, mask: u64) -> __m128i {
        use core::arch::x86_64::{_mm_set1_epi64x, _mm_slli_epi64, _mm_srli_epi64};
        // SAFETY: register-only SSE2 instructions, part of the x86_64 baseline.
        unsafe {
            let m = _mm_set1_epi64x(mask as i64);
            let t = _mm_and_si128(_mm_xor_si128(_mm_srli_epi64::<S>(x), x), m);
            _mm_xor_si128(x, _mm_xor_si128(t, _mm_slli_epi64::<S>(t)))
        }
    }

    /// The high halves of `a` and `b`, slots of `W` bytes interleaved.
    #[inline(always)]
    pub(crate) fn hi<const W: usize>(a: V, b: V) -> V {
        // SAFETY: register-only SSE2 instructions, part of the x86_64 baseline.
        V(unsafe {
            match W {
                1 => _mm_unpackhi_epi8(a.0, b.0),
                2 => _mm_unpackhi_epi16(a.0, b.0),
                4 => _mm_unpackhi_epi32(a.0, b.0),
                _ => _mm_unpackhi_epi64(a.0, b.0),
            }
        })
    }
}

/// The same operations in plain Rust: what targets other than x86_64 run, and what the tests
/// on x86_64 check the SSE2 forms against.
#[cfg(any(not(target_arch = "x86_64"), test))]
mod portable {
    /// 16 bytes.
    #[derive(Clone, Copy)]
    pub(crate) struct V([u8; 16]);

    /// Each 64-bit lane of `v` shifted down by `shift` (below 8) bits, its top `shift` bits
    /// the low ones of the top byte of the same lane of `next` (`v`'s bytes one byte on).
    #[inline(always)]
    pub(crate) fn funnel(v: V, next: V, shift: u32) -> V {
        let mut out = [0u8; 16];
        for k in 0..2 {
            let lane =
                |b: &[u8; 16]| u64::from_le_bytes(b[8 * k..8 * k + 8].try_into().expect("8"));
            let up = (lane(&next.0) >> 56) << (63 - shift) << 1;
            out[8 * k..8 * k + 8].copy_from_slice(&((lane(&v.0) >> shift) | up).to_le_bytes());
        }
        V(out)
    }

    #[inline(always)]
    pub(crate) fn load(b: &[u8; 16]) -> V {
        V(*b)
    }

    #[inline(always)]
    pub(crate) fn store(v: V, b: &mut [u8; 16]) {
        *b = v.0;
    }

    #[inline(always)]
    pub(crate) fn halves(lo: &[u8; 8], hi: &[u8; 8]) -> V {
        let mut v = [0u8; 16];
        v[..8].copy_from_slice(lo);
        v[8..].copy_from_slice(hi);
        V(v)
    }

    /// # Safety
    /// `p` is valid for reads of 16 bytes.
    #[inline(always)]
    pub(crate) unsafe fn load_ptr(p: *const u8) -> V {
        // SAFETY: `p` is readable for 16 bytes (the caller's contract) and `[u8; 16]` has
        // alignment 1 and no invalid values.
        V(unsafe { p.cast::<[u8; 16]>().read() })
    }

    /// # Safety
    /// `p` is valid for writes of 16 bytes.
    #[inline(always)]
    pub(crate) unsafe fn store_ptr(v: V, p: *mut u8) {
        // SAFETY: `p` is writable for 16 bytes (the caller's contract) and `[u8; 16]` has
        // alignment 1.
        unsafe { p.cast::<[u8; 16]>().write(v.0) }
    }

    /// A plain store: the target has no non-temporal one here.
    ///
    /// # Safety
    /// `p` is valid for writes of 16 bytes.
    #[inline(always)]
    pub(crate) unsafe fn stream_ptr(v: V, p: *mut u8) {
        // SAFETY: the caller's contract is `store_ptr`'s.
        unsafe { store_ptr(v, p) }
    }

    #[inline(always)]
    fn half<const W: usize>(a: V, b: V, from: usize) -> V {
        let mut o = [0u8; 16];
        for i in 0..8 / W {
            for k in 0..W {
                o[2 * i * W + k] = a.0[from + i * W + k];
                o[2 * i * W + W + k] = b.0[from + i * W + k];
            }
        }
        V(o)
    }

    /// Each slot of `N` bytes as a `K × K` block of elements, transposed.
    #[inline(always)]
    pub(crate) fn transpose_slots<const N: usize, const K: usize>(v: V) -> V {
        let mut o = v.0;
        for (to, from) in o.chunks_exact_mut(N).zip(v.0.chunks_exact(N)) {
            super::transpose_block(to, from, K);
        }
        V(o)
    }

    #[inline(always)]
    pub(crate) fn lo<const W: usize>(a: V, b: V) -> V {
        half::<W>(a, b, 0)
    }

    #[inline(always)]
    pub(crate) fn hi<const W: usize>(a: V, b: V) -> V {
        half::<W>(a, b, 8)
    }

    #[inline(always)]
    pub(crate) fn nibbles_apart(v: V) -> [V; 2] {
        let mut o = [[0u8; 16]; 2];
        for (k, &x) in v.0.iter().enumerate() {
            o[k / 8][2 * (k % 8)] = x & 0x0f;
            o[k / 8][2 * (k % 8) + 1] = x >> 4;
        }
        [V(o[0]), V(o[1])]
    }

    #[inline(always)]
    pub(crate) fn sign_nibbles(v: V) -> V {
        V(v.0.map(|x| (x ^ 8).wrapping_sub(8)))
    }

    #[inline(always)]
    pub(crate) fn crumbs_apart(v: V) -> [V; 4] {
        let mut o = [[0u8; 16]; 4];
        for (k, &x) in v.0.iter().enumerate() {
            for j in 0..4 {
                let at = 4 * k + j;
                o[at / 16][at % 16] = (x >> (2 * j)) & 3;
            }
        }
        o.map(V)
    }

    #[inline(always)]
    pub(crate) fn sign_crumbs(v: V) -> V {
        V(v.0.map(|x| (x ^ 2).wrapping_sub(2)))
    }

    #[inline(always)]
    pub(crate) fn low_bits(v: V) -> u16 {
        v.0.iter()
            .enumerate()
            .fold(0, |m, (k, &b)| m | (u16::from(b & 1) << k))
    }

    #[inline(always)]
    pub(crate) fn crumbs_together(v: [V; 4]) -> V {
        let mut o = [0u8; 16];
        for (k, x) in o.iter_mut().enumerate() {
            let from = &v[k / 4].0[4 * (k % 4)..][..4];
            *x = from
                .iter()
                .enumerate()
                .fold(0, |acc, (e, &b)| acc | ((b & 3) << (2 * e)));
        }
        V(o)
    }

    #[inline(always)]
    pub(crate) fn swap_nibbles(a: V, b: V) -> [V; 2] {
        let (mut low, mut high) = ([0u8; 16], [0u8; 16]);
        for k in 0..16 {
            low[k] = (a.0[k] & 0x0f) | (b.0[k] << 4);
            high[k] = (a.0[k] >> 4) | (b.0[k] & 0xf0);
        }
        [V(low), V(high)]
    }

    #[inline(always)]
    pub(crate) fn nibbles_together(a: V, b: V) -> V {
        let mut o = [0u8; 16];
        for (k, x) in o.iter_mut().enumerate() {
            let from = if k < 8 { &a.0 } else { &b.0 };
            let j = 2 * (k % 8);
            *x = (from[j] & 0x0f) | (from[j + 1] << 4);
        }
        V(o)
    }
}

#[cfg(not(target_arch = "x86_64"))]
use portable as imp;

pub(crate) use imp::{
    V, crumbs_apart, crumbs_together, funnel, halves, load, low_bits, nibbles_apart,
    nibbles_together, sign_crumbs, sign_nibbles, store, swap_nibbles,
};

/// The masks of the rounds of a transpose of `G × G` matrices of `8 / G`-bit fields across
/// `G` rows (`bits::transpose_planes`, `avx2::transpose_fields`): per round `r` (`s = G >>
/// (r + 1)` = G/2, .., 1; 0 past the last), the fields of each byte whose column has bit `s`
/// clear, in every byte of a word.
pub(crate) fn plane_masks<const G: usize>() -> [u64; 3] {
    let bits = 8 / G;
    core::array::from_fn(|r| {
        let s = G >> (r + 1);
        let byte = (0..G)
            .filter(|c| c & s == 0)
            .fold(0u64, |m, c| m | ((1 << bits) - 1) << (c * bits));
        byte * 0x0101_0101_0101_0101
    })
}

/// The mask of the exchange that transposes a `2 × 2` block of 2-bit fields in each byte
/// (fields 1 and 2 swapped, by 2 bits): the `(2,1)` pairs of `E(2)` fields against those of
/// the transposed layout (`digits::folded`).
#[cfg(target_arch = "x86_64")]
pub(crate) const CRUMB_PAIRS: u64 = 0x0c0c_0c0c_0c0c_0c0c;

/// The masks of the two exchanges that transpose a `4 × 4` block of fields of 4, 2 or 1 bits
/// (a slot of 8, 4 or 2 bytes; field `(i, j)` at bits `b·(4i + j)` to `(j, i)`, little-endian),
/// in every slot of a `u64` at once: by `12b` bits then `3b`, `t = ((x >> shift) ^ x) & mask;
/// x ^= t ^ (t << shift)`. The first swaps the two off-diagonal `2 × 2` quarters, the second
/// the off-diagonal fields of each quarter: the `(4,1)` groups of `E(4)`, `E(2)` and `E(1)`
/// fields against those of the transposed layout (`digits::folded`).
#[cfg(target_arch = "x86_64")]
pub(crate) const FIELD_SQUARES: [[u64; 2]; 3] = [
    [0x0000_0000_ff00_ff00, 0x0000_f0f0_0000_f0f0],
    [0x0000_f0f0_0000_f0f0, 0x00cc_00cc_00cc_00cc],
    [0x00cc_00cc_00cc_00cc, 0x0a0a_0a0a_0a0a_0a0a],
];

/// `from` as a `k × k` block of elements of `from.len() / k²` bytes, transposed into `to`
/// (element `(i, j)`, at `i·k + j`, to `j·k + i`): one slot of [`transpose_slots`]. Elements
/// narrower than a byte (`E(4)` fields 2 × 2 in 2 bytes or 4 × 4 in 8, `E(2)` 2 × 2 in a byte
/// or 4 × 4 in 4, `E(1)` 4 × 4 in 2) are bit fields of `8 · from.len() / k²` bits, the first
/// in the low bits (little-endian).
#[inline(always)]
pub(crate) fn transpose_block(to: &mut [u8], from: &[u8], k: usize) {
    let e = from.len() / (k * k);
    if e == 0 {
        let bits = 8 * from.len() / (k * k);
        let x = from
            .iter()
            .rev()
            .fold(0u128, |x, &b| (x << 8) | u128::from(b));
        let mask = (1u128 << bits) - 1;
        let mut y = 0;
        for i in 0..k {
            for j in 0..k {
                y |= ((x >> ((i * k + j) * bits)) & mask) << ((j * k + i) * bits);
            }
        }
        for (n, t) in to.iter_mut().enumerate() {
            *t = (y >> (8 * n)) as u8;
        }
        return;
    }
    for i in 0..k {
        for j in 0..k {
            let (t, f) = ((j * k + i) * e, (i * k + j) * e);
            to[t..t + e].copy_from_slice(&from[f..f + e]);
        }
    }
}

/// Each slot of `N` bytes of `v` as a `K × K` block of elements of `N / K²` bytes (element
/// `(i, j)` at `i·K + j`), transposed (element `(i, j)` to `j·K + i`): the blocks of two
/// layouts that both interleave `K` elements, along different dims (`(2,1)` sub-tiles of
/// bf16, in 8-byte slots; of f32, and `(4,1)` of bytes, in 16-byte slots; of `E(4)` fields,
/// nibbles, in 2-byte slots, and of `E(2)` in bytes; `(4,1)` groups of `E(4)`, `E(2)` and
/// `E(1)` fields in 8-, 4- and 2-byte slots). `K` = 1: `v`.
#[inline(always)]
pub(crate) fn transpose_slots<const N: usize, const K: usize>(v: V) -> V {
    if K == 1 {
        v
    } else {
        imp::transpose_slots::<N, K>(v)
    }
}

/// `rounds` rounds of the perfect shuffle of the `M` vectors `v` (a power of two) at slot
/// width `W` (1, 2, 4 or 8 bytes).
#[inline(always)]
pub(crate) fn shuffle<const W: usize, const M: usize>(v: &mut [V; M], rounds: usize) {
    for _ in 0..rounds {
        let old = *v;
        for i in 0..M / 2 {
            v[2 * i] = imp::lo::<W>(old[i], old[i + M / 2]);
            v[2 * i + 1] = imp::hi::<W>(old[i], old[i + M / 2]);
        }
    }
}

/// A vector of zeros.
#[inline(always)]
pub(crate) fn zero() -> V {
    load(&[0; BYTES])
}

/// `log2 n` for a power of two.
#[inline(always)]
pub(crate) const fn log2(n: usize) -> usize {
    n.trailing_zeros() as usize
}

/// The 16 bytes of `s` from `at`.
#[inline(always)]
pub(crate) fn at(s: &[u8], at: usize) -> V {
    let b: &[u8; BYTES] = s[at..at + BYTES].try_into().expect("16 bytes");
    load(b)
}

/// The 16 bytes of `s` from `at`, without a bounds check (for kernels that check a whole
/// block's span once).
///
/// # Safety
/// `at + 16 <= s.len()`.
#[inline(always)]
pub(crate) unsafe fn at_unchecked(s: &[u8], at: usize) -> V {
    debug_assert!(at + BYTES <= s.len());
    // SAFETY: `at + 16 <= s.len()` (the caller's contract), so the 16 bytes from `at` are in
    // `s`, which is borrowed for reads.
    unsafe { imp::load_ptr(s.as_ptr().add(at)) }
}

/// Writes `v` into the 16 bytes of `d` from `at`, without a bounds check.
///
/// # Safety
/// `at + 16 <= d.len()`.
#[inline(always)]
pub(crate) unsafe fn put_unchecked(v: V, d: &mut [u8], at: usize) {
    debug_assert!(at + BYTES <= d.len());
    // SAFETY: `at + 16 <= d.len()` (the caller's contract), so the 16 bytes from `at` are in
    // `d`, which is borrowed mutably.
    unsafe { imp::store_ptr(v, d.as_mut_ptr().add(at)) }
}

/// Writes `v` into the 16 bytes of `d` from `at` with a non-temporal store (call
/// `stream::fence` after the last one), without a bounds check.
///
/// # Safety
/// `at + 16 <= d.len()`, and `d`'s byte `at` is 16-byte aligned.
#[inline(always)]
pub(crate) unsafe fn stream_unchecked(v: V, d: &mut [u8], at: usize) {
    debug_assert!(at + BYTES <= d.len());
    debug_assert!(d.as_ptr().wrapping_add(at).align_offset(BYTES) == 0);
    // SAFETY: `at + 16 <= d.len()` (the caller's contract), so the 16 bytes from `at` are in
    // `d`, which is borrowed mutably, and they start 16-byte aligned (the caller's contract).
    unsafe { imp::stream_ptr(v, d.as_mut_ptr().add(at)) }
}

/// Writes `v` into the 16 bytes of `d` from `at`: with a non-temporal store if they are
/// 16-byte aligned (call `stream::fence` after the last one), else a plain one.
#[inline(always)]
pub(crate) fn stream(v: V, d: &mut [u8], at: usize) {
    let b: &mut [u8; BYTES] = (&mut d[at..at + BYTES]).try_into().expect("16 bytes");
    if b.as_ptr().align_offset(BYTES) == 0 {
        // SAFETY: `b` is 16 bytes borrowed mutably, and 16-byte aligned (checked).
        unsafe { imp::stream_ptr(v, b.as_mut_ptr()) }
    } else {
        store(v, b);
    }
}

/// Writes `v` into the 16 bytes of `d` from `at`.
#[inline(always)]
pub(crate) fn put(v: V, d: &mut [u8], at: usize) {
    let b: &mut [u8; BYTES] = (&mut d[at..at + BYTES]).try_into().expect("16 bytes");
    store(v, b);
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;

    /// The slots of `M` vectors after `rounds` rounds, by brute force: a round maps slot
    /// position `p` (vector-major) to the rotation of its bits by one.
    fn reference(w: usize, m: usize, rounds: usize) -> Vec<usize> {
        let n = 16 / w;
        let mut at: Vec<usize> = (0..m * n).collect(); // at[p] = original slot now at p
        for _ in 0..rounds {
            let mut next = vec![0; m * n];
            for (p, &orig) in at.iter().enumerate() {
                // Vector i (< m/2) and i + m/2: slot l of the pair goes to 2·(i·n + l) + half.
                let (vec, lane) = (p / n, p % n);
                let (i, side) = (vec % (m / 2), vec / (m / 2));
                let q = 2 * (i * n + lane) + side;
                next[q] = orig;
            }
            at = next;
        }
        at
    }

    fn run<const W: usize, const M: usize>(rounds: usize) -> Vec<usize> {
        let n = 16 / W;
        let mut bytes = vec![0u8; M * 16];
        for p in 0..M * n {
            bytes[p * W] = p as u8;
        }
        let mut v: [V; M] = core::array::from_fn(|k| at(&bytes, 16 * k));
        shuffle::<W, M>(&mut v, rounds);
        for (k, x) in v.iter().enumerate() {
            put(*x, &mut bytes, 16 * k);
        }
        (0..M * n).map(|p| usize::from(bytes[p * W])).collect()
    }

    #[test]
    fn slots_transpose_as_blocks() {
        let v = load(&core::array::from_fn(|i| i as u8));
        let mut out = [0u8; 16];
        // 2×2 blocks of 2-byte elements in 8-byte slots: elements 1 and 2 of each swapped.
        store(transpose_slots::<8, 2>(v), &mut out);
        assert_eq!(out, [0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15]);
        // 2×2 of 4-byte elements.
        store(transpose_slots::<16, 2>(v), &mut out);
        assert_eq!(out, [0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15]);
        // 4×4 bytes: byte `4i + j` to `4j + i`.
        store(transpose_slots::<16, 4>(v), &mut out);
        assert_eq!(out, [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15]);
        // 2×2 nibbles in 2-byte slots (`E(4)` fields, low nibble first): the low byte's
        // high nibble and the high byte's low one swapped; here and field by field.
        let bytes: [u8; 16] = core::array::from_fn(|i| (i as u8).wrapping_mul(0x9d) ^ 0x5a);
        let want: [u8; 16] = core::array::from_fn(|i| {
            let (b0, b1) = (bytes[i & !1], bytes[i | 1]);
            if i % 2 == 0 {
                (b0 & 0x0f) | (b1 << 4)
            } else {
                (b0 >> 4) | (b1 & 0xf0)
            }
        });
        store(transpose_slots::<2, 2>(load(&bytes)), &mut out);
        assert_eq!(out, want);
        for (to, from) in out.chunks_exact_mut(2).zip(bytes.chunks_exact(2)) {
            transpose_block(to, from, 2);
        }
        assert_eq!(out, want);
        // 4×4 nibbles in 8-byte slots (`(4,1)` groups of `E(4)` fields): nibble `4i + j` of
        // each slot to `4j + i`; here and field by field.
        let nibble = |b: &[u8], n: usize| (b[n / 2] >> (4 * (n % 2))) & 0x0f;
        let mut want = [0u8; 16];
        for slot in 0..2 {
            for (i, j) in (0..4).flat_map(|i| (0..4).map(move |j| (i, j))) {
                let (to, from) = (8 * slot + (4 * j + i) / 2, 16 * slot + 4 * i + j);
                want[to] |= nibble(&bytes, from) << (4 * ((4 * j + i) % 2));
            }
        }
        store(transpose_slots::<8, 4>(load(&bytes)), &mut out);
        assert_eq!(out, want);
        for (to, from) in out.chunks_exact_mut(8).zip(bytes.chunks_exact(8)) {
            transpose_block(to, from, 4);
        }
        assert_eq!(out, want);
        // 4×4 fields of 2 and 1 bits in 4- and 2-byte slots: against field-by-field moves.
        fn squared<const N: usize>(bytes: &[u8; 16]) -> [u8; 16] {
            let bits = 8 * N / 16;
            let field = |n: usize| (bytes[n * bits / 8] >> (n * bits % 8)) & ((1 << bits) - 1);
            let mut want = [0u8; 16];
            for slot in 0..16 / N {
                for (i, j) in (0..4).flat_map(|i| (0..4).map(move |j| (i, j))) {
                    let to = 16 * slot + 4 * j + i;
                    want[to * bits / 8] |= field(16 * slot + 4 * i + j) << (to * bits % 8);
                }
            }
            want
        }
        assert_eq!(
            squared::<8>(&bytes),
            want,
            "the reference agrees on nibbles"
        );
        store(transpose_slots::<4, 4>(load(&bytes)), &mut out);
        assert_eq!(out, squared::<4>(&bytes));
        store(transpose_slots::<2, 4>(load(&bytes)), &mut out);
        assert_eq!(out, squared::<2>(&bytes));
        // 2×2 fields of 2 bits in each byte: fields 1 and 2 swapped.
        let want: [u8; 16] = core::array::from_fn(|i| {
            (bytes[i] & 0xc3) | (bytes[i] & 0x0c) << 2 | (bytes[i] & 0x30) >> 2
        });
        store(transpose_slots::<1, 2>(load(&bytes)), &mut out);
        assert_eq!(out, want);
        for (to, from) in out.chunks_exact_mut(1).zip(bytes.chunks_exact(1)) {
            transpose_block(to, from, 2);
        }
        assert_eq!(out, want);
    }

    #[test]
    fn rounds_rotate_positions() {
        for rounds in 0..5 {
            assert_eq!(run::<1, 16>(rounds), reference(1, 16, rounds));
            assert_eq!(run::<1, 4>(rounds), reference(1, 4, rounds));
            assert_eq!(run::<2, 8>(rounds), reference(2, 8, rounds));
            assert_eq!(run::<2, 2>(rounds), reference(2, 2, rounds));
            assert_eq!(run::<4, 4>(rounds), reference(4, 4, rounds));
            assert_eq!(run::<8, 2>(rounds), reference(8, 2, rounds));
        }
    }

    #[test]
    fn interleave_transpose_and_split() {
        // 4 rows of bytes interleaved: slot y of row x at 4y + x.
        let r = run::<1, 4>(2);
        assert!((0..64).all(|p| r[p] == (p % 4) * 16 + p / 4));
        // A 4×4 transpose of u32.
        let r = run::<4, 4>(2);
        assert!((0..16).all(|p| r[p] == (p % 4) * 4 + p / 4));
        // A run of bf16 pairs split into 2 rows of 8: log2(8) rounds.
        let r = run::<2, 2>(3);
        assert!((0..16).all(|p| r[p] == (p % 8) * 2 + p / 8));
    }

    #[test]
    fn low_bits_and_crumbs_pack_fields() {
        let bytes: Vec<u8> = (0..64u8)
            .map(|k| k.wrapping_mul(97).wrapping_add(13))
            .collect();
        let bits = low_bits(at(&bytes, 0));
        for (k, &b) in bytes[..16].iter().enumerate() {
            assert_eq!((bits >> k) & 1, u16::from(b & 1), "bit {k}");
        }
        let v = core::array::from_fn(|k| at(&bytes, 16 * k));
        let mut out = [0u8; 16];
        put(crumbs_together(v), &mut out, 0);
        for (k, &o) in out.iter().enumerate() {
            let expected = (0..4).fold(0u8, |acc, e| acc | ((bytes[4 * k + e] & 3) << (2 * e)));
            assert_eq!(o, expected, "byte {k}");
        }
    }

    #[test]
    fn crumbs_apart_and_signed() {
        let bytes: Vec<u8> = (0..16u8)
            .map(|k| k.wrapping_mul(101).wrapping_add(7))
            .collect();
        let v = crumbs_apart(at(&bytes, 0));
        let mut out = [0u8; 64];
        for (j, v) in v.iter().enumerate() {
            put(*v, &mut out, 16 * j);
        }
        for (k, &x) in bytes.iter().enumerate() {
            for j in 0..4 {
                assert_eq!(out[4 * k + j], (x >> (2 * j)) & 3, "byte {k}, field {j}");
            }
        }
        let crumbs: Vec<u8> = (0..16u8).map(|k| k % 4).collect();
        put(sign_crumbs(at(&crumbs, 0)), &mut out, 0);
        for (k, &c) in crumbs.iter().enumerate() {
            let expected = if c < 2 { c as i8 } else { c as i8 - 4 };
            assert_eq!(out[k] as i8, expected, "crumb {c}");
        }
    }

    #[test]
    fn sign_nibbles_extends_bit_3() {
        let bytes: Vec<u8> = (0..16u8).collect();
        let mut out = [0u8; 16];
        put(sign_nibbles(at(&bytes, 0)), &mut out, 0);
        for (x, &o) in out.iter().enumerate() {
            let expected = if x < 8 { x as i8 } else { x as i8 - 16 };
            assert_eq!(o as i8, expected, "nibble {x}");
        }
    }

    #[test]
    fn swap_nibbles_pairs_fields() {
        let a: Vec<u8> = (0..16u8)
            .map(|k| k.wrapping_mul(29).wrapping_add(3))
            .collect();
        let b: Vec<u8> = (0..16u8)
            .map(|k| k.wrapping_mul(53).wrapping_add(200))
            .collect();
        let [low, high] = swap_nibbles(at(&a, 0), at(&b, 0));
        let mut out = [0u8; 32];
        put(low, &mut out, 0);
        put(high, &mut out, 16);
        for k in 0..16 {
            assert_eq!(out[k], (a[k] & 0x0f) | (b[k] & 0x0f) << 4);
            assert_eq!(out[16 + k], (a[k] >> 4) | (b[k] >> 4) << 4);
        }
        // Its own inverse.
        let [x, y] = swap_nibbles(low, high);
        put(x, &mut out, 0);
        put(y, &mut out, 16);
        assert_eq!((&out[..16], &out[16..]), (&a[..], &b[..]));
    }

    #[test]
    fn nibbles_apart_and_together() {
        let bytes: Vec<u8> = (0..16u8)
            .map(|k| k.wrapping_mul(37).wrapping_add(11))
            .collect();
        let [a, b] = nibbles_apart(at(&bytes, 0));
        let mut out = [0u8; 32];
        put(a, &mut out, 0);
        put(b, &mut out, 16);
        for (k, &x) in bytes.iter().enumerate() {
            assert_eq!((out[2 * k], out[2 * k + 1]), (x & 0x0f, x >> 4));
        }
        // High nibbles of the inputs are ignored.
        let wide: Vec<u8> = out.iter().map(|&x| x | 0xa0).collect();
        let mut back = [0u8; 16];
        put(nibbles_together(at(&wide, 0), at(&wide, 16)), &mut back, 0);
        assert_eq!(back[..], bytes[..]);
    }
}

/// Every SSE2 operation against its plain-Rust form (`portable`, what other targets run), on
/// random vectors: the two must agree byte for byte over each operation's documented inputs.
#[cfg(all(test, target_arch = "x86_64"))]
mod portable_tests {
    use super::{imp, portable};
    use proptest::prelude::*;

    type Bytes = [u8; 16];

    fn sse(b: Bytes) -> imp::V {
        imp::load(&b)
    }

    fn out(v: imp::V) -> Bytes {
        let mut b = [0; 16];
        imp::store(v, &mut b);
        b
    }

    fn plain(b: Bytes) -> portable::V {
        portable::load(&b)
    }

    fn bytes(v: portable::V) -> Bytes {
        let mut b = [0; 16];
        portable::store(v, &mut b);
        b
    }

    /// Bytes below `n`.
    fn below(b: Bytes, n: u8) -> Bytes {
        b.map(|x| x % n)
    }

    /// One operation of two vectors in both forms.
    macro_rules! both {
        ($f:ident $(::<$($g:literal),+>)?, $($arg:expr),+) => {
            prop_assert_eq!(
                out(imp::$f$(::<$($g),+>)?($(sse($arg)),+)),
                bytes(portable::$f$(::<$($g),+>)?($(plain($arg)),+)),
                "{}", stringify!($f$(::<$($g),+>)?)
            )
        };
    }

    proptest! {
        #[test]
        fn sse2_and_portable_agree(
            a in any::<Bytes>(),
            b in any::<Bytes>(),
            c in any::<Bytes>(),
            d in any::<Bytes>(),
            shift in 0u32..8,
        ) {
            prop_assert_eq!(
                out(imp::funnel(sse(a), sse(b), shift)),
                bytes(portable::funnel(plain(a), plain(b), shift))
            );
            let (lo, hi): ([u8; 8], [u8; 8]) =
                (a[..8].try_into().unwrap(), b[8..].try_into().unwrap());
            prop_assert_eq!(out(imp::halves(&lo, &hi)), bytes(portable::halves(&lo, &hi)));
            both!(lo::<1>, a, b);
            both!(lo::<2>, a, b);
            both!(lo::<4>, a, b);
            both!(lo::<8>, a, b);
            both!(hi::<1>, a, b);
            both!(hi::<2>, a, b);
            both!(hi::<4>, a, b);
            both!(hi::<8>, a, b);
            both!(transpose_slots::<2, 2>, a);
            both!(transpose_slots::<8, 2>, a);
            both!(transpose_slots::<16, 2>, a);
            both!(transpose_slots::<16, 4>, a);
            both!(sign_nibbles, below(a, 16));
            both!(sign_crumbs, below(a, 4));
            both!(nibbles_together, a, b);
            prop_assert_eq!(
                imp::nibbles_apart(sse(a)).map(out),
                portable::nibbles_apart(plain(a)).map(bytes)
            );
            prop_assert_eq!(
                imp::crumbs_apart(sse(a)).map(out),
                portable::crumbs_apart(plain(a)).map(bytes)
            );
            prop_assert_eq!(imp::low_bits(sse(a)), portable::low_bits(plain(a)));
            prop_assert_eq!(
                out(imp::crumbs_together([a, b, c, d].map(sse))),
                bytes(portable::crumbs_together([a, b, c, d].map(plain)))
            );
            prop_assert_eq!(
                imp::swap_nibbles(sse(a), sse(b)).map(out),
                portable::swap_nibbles(plain(a), plain(b)).map(bytes)
            );
        }

        /// The pointer forms: a load and a store at any offset, and the non-temporal store
        /// (a plain one in `portable`) on a 16-byte boundary.
        #[test]
        fn pointer_forms_agree(buf in any::<[u8; 48]>(), at in 0usize..32) {
            #[repr(align(16))]
            struct Aligned([u8; 48]);
            // SAFETY: `at + 16 <= 48`: 16 readable bytes.
            let (x, y) = unsafe {
                (imp::load_ptr(buf.as_ptr().add(at)), portable::load_ptr(buf.as_ptr().add(at)))
            };
            prop_assert_eq!(out(x), bytes(y));
            let (mut one, mut two) = (Aligned([0; 48]), Aligned([0; 48]));
            // SAFETY: 16 writable bytes at `at` and at 16 (a 16-byte boundary of a 16-byte
            // aligned buffer) in each.
            unsafe {
                imp::store_ptr(x, one.0.as_mut_ptr().add(at));
                portable::store_ptr(y, two.0.as_mut_ptr().add(at));
                imp::stream_ptr(x, one.0.as_mut_ptr().add(16));
                portable::stream_ptr(y, two.0.as_mut_ptr().add(16));
            }
            crate::tensor::stream::fence();
            prop_assert_eq!(one.0, two.0);
        }
    }
}
