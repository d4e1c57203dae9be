//! An owned, 64-byte-aligned buffer of `Copy` values: the storage of a `Tensor`.
#![allow(unsafe_code)]

use alloc::alloc::{Layout as AllocLayout, alloc, alloc_zeroed, dealloc, handle_alloc_error};
use core::ptr::NonNull;

/// The alignment of every tensor buffer, in bytes: a cache line and an AVX-512 vector.
///
/// ```
/// use xla_layout::{layout, tensor::{Tensor, BUFFER_ALIGN}};
/// let t = Tensor::<layout!(u8[3])>::zeros();
/// assert_eq!(t.as_slice().as_ptr() as usize % BUFFER_ALIGN, 0);
/// ```
pub const BUFFER_ALIGN: usize = 64;

/// An owned `[T]` whose first element is aligned to [`BUFFER_ALIGN`] bytes (or more, if `T`
/// needs it). On Linux, a buffer of 4 MiB or more asks for transparent huge pages (as numpy's
/// arrays do): large relayouts touch many pages at once (measured 10-20% faster).
///
/// ```
/// let b = xla_layout::tensor::AlignedBuf::filled(100, 1.5f32);
/// assert_eq!(b.len(), 100);
/// assert_eq!(b.as_ptr() as usize % 64, 0);
/// assert!(b.iter().all(|&x| x == 1.5));
/// ```
pub struct AlignedBuf<T: Copy> {
    ptr: NonNull<T>,
    len: usize,
}

// SAFETY: an `AlignedBuf<T>` owns its elements exactly like a `Box<[T]>` does, so it may move
// to and be shared across threads whenever `T` may.
unsafe impl<T: Copy + Send> Send for AlignedBuf<T> {}
// SAFETY: as above; `&AlignedBuf<T>` only gives out `&[T]`.
unsafe impl<T: Copy + Sync> Sync for AlignedBuf<T> {}

impl<T: Copy> AlignedBuf<T> {
    fn alloc_layout(len: usize) -> AllocLayout {
        AllocLayout::array::<T>(len)
            .and_then(|l| l.align_to(BUFFER_ALIGN.max(align_of::<T>())))
            .unwrap_or_else(|_| panic!("a buffer of {len} elements does not fit in memory"))
    }

    fn allocates(len: usize) -> bool {
        len > 0 && size_of::<T>() > 0
    }

    /// The buffer of `len` elements that allocates nothing (see [`allocates`](Self::allocates)).
    fn unallocated(len: usize) -> Self {
        AlignedBuf {
            ptr: NonNull::dangling(),
            len,
        }
    }

    /// A buffer of `len` copies of `value`.
    ///
    /// ```
    /// use xla_layout::tensor::AlignedBuf;
    /// let b = AlignedBuf::filled(3, 7u16);
    /// assert_eq!(&*b, &[7, 7, 7]);
    /// ```
    ///
    /// # Panics
    /// If `len` elements overflow `isize::MAX` bytes; aborts if allocation fails.
    pub fn filled(len: usize, value: T) -> Self {
        if !Self::allocates(len) {
            return Self::unallocated(len);
        }
        let layout = Self::alloc_layout(len);
        // SAFETY: `layout` has a non-zero size, since `len > 0` and `T` is not zero-sized.
        let raw = unsafe { alloc(layout) }.cast::<T>();
        let Some(ptr) = NonNull::new(raw) else {
            handle_alloc_error(layout)
        };
        huge_pages(raw.cast(), layout.size());
        for i in 0..len {
            // SAFETY: `i < len`, so `ptr + i` lies inside the allocation of `len` `T`s, which
            // is aligned for `T`; writing initialises it without reading the old bytes.
            unsafe { ptr.as_ptr().add(i).write(value) };
        }
        AlignedBuf { ptr, len }
    }

    /// A buffer holding a copy of `values`.
    ///
    /// ```
    /// let b = xla_layout::tensor::AlignedBuf::from_slice(&[1u8, 2, 3]);
    /// assert_eq!(&*b, &[1, 2, 3]);
    /// ```
    pub fn from_slice(values: &[T]) -> Self
    where
        T: Default,
    {
        let mut b = Self::filled(values.len(), T::default());
        b.copy_from_slice(values);
        b
    }
}

impl AlignedBuf<u8> {
    /// A buffer of `len` zero bytes, or `None` where the allocator has no room (or `len`
    /// bytes overflow `isize::MAX`): a destination for [`CopyPlan::copy`](super::CopyPlan::copy)
    /// whose lines the copy can stream, or scratch space a copy can do without.
    ///
    /// ```
    /// use xla_layout::tensor::AlignedBuf;
    /// let b = AlignedBuf::try_zeroed(1 << 20).expect("a MiB");
    /// assert!(b.iter().all(|&x| x == 0));
    /// assert_eq!(b.as_ptr() as usize % 64, 0);
    /// assert!(AlignedBuf::try_zeroed(usize::MAX).is_none());
    /// ```
    pub fn try_zeroed(len: usize) -> Option<Self> {
        if !Self::allocates(len) {
            return Some(Self::unallocated(len));
        }
        let layout = AllocLayout::array::<u8>(len)
            .and_then(|l| l.align_to(BUFFER_ALIGN))
            .ok()?;
        // A large buffer is advised before its first touch, then zeroed: `alloc_zeroed` of
        // an alignment above the allocator's own zeroes what it allocates, so its pages were
        // all touched (4 KiB at a time) before the advice. Measured (a 62 MiB relayout
        // through 248 MiB of scratch, an odd `E(4)` transpose when it went through bytes)
        // 0.03 -> 0.06 of memcpy.
        let raw = if len >= HUGE_PAGES_FROM {
            // SAFETY: `layout` has a non-zero size (`len > 0` bytes).
            let raw = unsafe { alloc(layout) };
            if !raw.is_null() {
                huge_pages(raw, len);
                // SAFETY: `raw` is the start of the `len` bytes just allocated.
                unsafe { raw.write_bytes(0, len) };
            }
            raw
        } else {
            // SAFETY: `layout` has a non-zero size (`len > 0` bytes).
            unsafe { alloc_zeroed(layout) }
        };
        // (`alloc_layout(len)` is this layout again, for `dealloc` in `drop`; every byte is
        // initialised, to zero.)
        NonNull::new(raw).map(|ptr| AlignedBuf { ptr, len })
    }
}

/// Buffers of at least this many bytes ask for transparent huge pages ([`huge_pages`]), as
/// numpy does for its arrays of 4 MiB or more.
const HUGE_PAGES_FROM: usize = 4 << 20;

/// A transparent huge page: the span the advice covers is whole ones.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// Asks Linux to back the whole 2 MiB pages of the `bytes` new bytes at `ptr` (a buffer of at
/// least [`HUGE_PAGES_FROM`], not yet touched) with transparent huge pages: a relayout of a
/// large array reads and writes a few lines of many 4 KiB pages at a time, and one TLB entry
/// then covers 512 of them. Measured (64 MiB, the source and destination so advised, memcpy's
/// buffers not): f32 2-D transpose 0.63-0.75 -> 0.66-0.76 of memcpy, u8 rows -> `T(8,32)` 0.74
/// -> 0.94, f32 rows -> `T(8,128)` 1.22 -> 1.35; memcpy itself 17.3 -> 19.2 GB/s. Advice
/// only: contents are unchanged, and a kernel without transparent huge pages (or with them
/// off) refuses it, which is ignored. Elsewhere, nothing.
fn huge_pages(ptr: *mut u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    if bytes >= HUGE_PAGES_FROM {
        let (start, end) = (ptr as usize, ptr as usize + bytes);
        let (first, last) = (
            start.next_multiple_of(HUGE_PAGE),
            end / HUGE_PAGE * HUGE_PAGE,
        );
        if last > first {
            // SAFETY: `first..last` lies within the `bytes` bytes at `ptr`, which the caller
            // just allocated and owns, and starts on a page; `MADV_HUGEPAGE` changes how the
            // kernel backs the range, never its contents.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                )
            };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, bytes);
}

impl<T: Copy> core::ops::Deref for AlignedBuf<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` initialised `T`s owned by `self` (or is dangling and
        // well aligned with nothing to read when nothing was allocated).
        unsafe { core::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> core::ops::DerefMut for AlignedBuf<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes this the only live reference.
        unsafe { core::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> Drop for AlignedBuf<T> {
    fn drop(&mut self) {
        if Self::allocates(self.len) {
            // SAFETY: the buffer was allocated in `filled` with exactly this layout, and `T`
            // is `Copy`, so there is nothing to drop first.
            unsafe { dealloc(self.ptr.as_ptr().cast(), Self::alloc_layout(self.len)) };
        }
    }
}

impl<T: Copy> Clone for AlignedBuf<T> {
    fn clone(&self) -> Self {
        match self.first() {
            None => AlignedBuf {
                ptr: NonNull::dangling(),
                len: 0,
            },
            Some(&first) => {
                let mut b = Self::filled(self.len, first);
                b.copy_from_slice(self);
                b
            }
        }
    }
}

impl<T: Copy + core::fmt::Debug> core::fmt::Debug for AlignedBuf<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Copy> AsRef<[T]> for AlignedBuf<T> {
    fn as_ref(&self) -> &[T] {
        self
    }
}

impl<T: Copy> AsMut<[T]> for AlignedBuf<T> {
    fn as_mut(&mut self) -> &mut [T] {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Buffers past the size that asks for huge pages, starting anywhere in a 2 MiB page and
    /// ending anywhere: each holds what it was made with, written and zeroed.
    #[test]
    fn large_buffers_keep_their_contents() {
        for len in [(4 << 20) - 1, 4 << 20, (6 << 20) + 4095, 9 << 20] {
            let ones = AlignedBuf::filled(len, 1u8);
            assert!(ones.iter().all(|&x| x == 1), "{len} bytes filled");
            let words = AlignedBuf::filled(len / 4, 0x1234_5678u32);
            assert!(
                words.iter().all(|&x| x == 0x1234_5678),
                "{len} bytes of words"
            );
            let zeros = AlignedBuf::try_zeroed(len).expect("room for a few MiB");
            assert!(zeros.iter().all(|&x| x == 0), "{len} bytes zeroed");
            assert_eq!(zeros.as_ptr() as usize % BUFFER_ALIGN, 0);
        }
    }
}
