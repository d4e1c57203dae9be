//! Copies that bypass the cache on the way out (non-temporal stores), for relayouts larger
//! than the last-level cache: a normal store first reads the destination line into the cache
//! (a read-for-ownership), so a large copy moves half again as many bytes as it needs to.
#![allow(unsafe_code)]

/// Copies of at least this many bytes in total use non-temporal stores: past it the data
/// cannot stay in a 32 MiB last-level cache anyway.
pub(crate) const STREAM_BYTES: usize = 16 << 20;

/// `dst.copy_from_slice(src)`, with non-temporal stores where `dst` is 16-byte aligned and
/// the target has them (x86_64). Call [`fence`] after the last one.
///
/// # Panics
/// If the lengths differ.
#[inline(always)]
pub(crate) fn copy(dst: &mut [u8], src: &[u8]) {
    assert_eq!(dst.len(), src.len());
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
        let bytes = dst.len();
        let d = dst.as_mut_ptr();
        let s = src.as_ptr();
        if d.align_offset(16) == 0 && bytes.is_multiple_of(16) {
            for k in 0..bytes / 16 {
                // SAFETY: `k * 16 + 16 <= bytes`, the length of both slices, so both 16-byte
                // accesses are in bounds; `d` is 16-byte aligned, as `_mm_stream_si128` needs,
                // and `_mm_loadu_si128` takes any alignment. Bytes have no invalid values.
                // SSE2 is part of the x86_64 baseline. `dst` and `src` do not overlap (`&mut`).
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

/// Makes later loads see the streamed stores (`sfence`).
pub(crate) fn fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `sfence` has no preconditions; SSE is part of the x86_64 baseline.
    unsafe {
        core::arch::x86_64::_mm_sfence();
    }
}
