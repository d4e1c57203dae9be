//! Copies that bypass the cache on the way out (non-temporal stores), for relayouts larger
//! than the last-level cache: a normal store first reads the destination line into the cache
//! (a read-for-ownership), so a large copy moves half again as many bytes as it needs to.
#![allow(unsafe_code)]

use core::any::TypeId;
use core::marker::PhantomData;

use num_complex::{Complex32, Complex64};

use crate::typed::{
    F4e2m1fn, F6e2m3fn, F6e3m2fn, F8e3m4, F8e4m3, F8e4m3b11fnuz, F8e4m3fnuz, F8e5m2fnuz, F8e8m0fnu,
    I1, I2, I4, U1, U2, U4,
};

/// Copies at least this many bytes in total use non-temporal stores: past it the data cannot
/// stay in a 32 MiB last-level cache anyway.
pub(crate) const STREAM_BYTES: usize = 16 << 20;

/// True for the element types of typed layouts: plain values whose every byte is initialised
/// (no padding), so copying them as bytes is copying them.
fn plain<T: 'static>() -> bool {
    let t = TypeId::of::<T>();
    [
        TypeId::of::<bool>(),
        TypeId::of::<u8>(),
        TypeId::of::<u16>(),
        TypeId::of::<u32>(),
        TypeId::of::<u64>(),
        TypeId::of::<i8>(),
        TypeId::of::<i16>(),
        TypeId::of::<i32>(),
        TypeId::of::<i64>(),
        TypeId::of::<f32>(),
        TypeId::of::<f64>(),
        TypeId::of::<half::f16>(),
        TypeId::of::<half::bf16>(),
        TypeId::of::<float8::F8E4M3>(),
        TypeId::of::<float8::F8E5M2>(),
        TypeId::of::<Complex32>(),
        TypeId::of::<Complex64>(),
        TypeId::of::<I1>(),
        TypeId::of::<I2>(),
        TypeId::of::<I4>(),
        TypeId::of::<U1>(),
        TypeId::of::<U2>(),
        TypeId::of::<U4>(),
        TypeId::of::<F4e2m1fn>(),
        TypeId::of::<F6e2m3fn>(),
        TypeId::of::<F6e3m2fn>(),
        TypeId::of::<F8e4m3>(),
        TypeId::of::<F8e4m3b11fnuz>(),
        TypeId::of::<F8e3m4>(),
        TypeId::of::<F8e5m2fnuz>(),
        TypeId::of::<F8e4m3fnuz>(),
        TypeId::of::<F8e8m0fnu>(),
    ]
    .contains(&t)
}

/// Proof that `&[B]` can be streamed into `&mut [A]`: one plain element type, on x86_64.
/// Only [`streamable`] makes one.
#[derive(Clone, Copy)]
pub(crate) struct Streamable<A, B>(PhantomData<fn(B) -> A>);

/// The proof that [`copy`] can stream from `&[B]` into `&mut [A]`, if it can.
pub(crate) fn streamable<A: 'static, B: 'static>() -> Option<Streamable<A, B>> {
    (cfg!(target_arch = "x86_64") && TypeId::of::<A>() == TypeId::of::<B>() && plain::<A>())
        .then_some(Streamable(PhantomData))
}

/// `dst.copy_from_slice(src)` with non-temporal stores where `dst` is 16-byte aligned.
/// Call [`fence`] after the last one.
///
/// # Panics
/// If the lengths differ.
#[inline(always)]
pub(crate) fn copy<A: Copy + 'static, B: Copy + 'static>(
    _: Streamable<A, B>,
    dst: &mut [A],
    src: &[B],
) {
    assert_eq!(dst.len(), src.len());
    #[cfg(target_arch = "x86_64")]
    {
        let bytes = size_of_val(dst);
        use core::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
        let d = dst.as_mut_ptr().cast::<u8>();
        let s = src.as_ptr().cast::<u8>();
        if d.align_offset(16) == 0 && bytes.is_multiple_of(16) {
            for k in 0..bytes / 16 {
                // SAFETY: `A` and `B` are one plain type (the `Streamable` proof), so both hold
                // `bytes` initialised bytes and copying bytes copies the values. `k * 16 + 16
                // <= bytes`, so both 16-byte accesses are in bounds; `d` is 16-byte aligned, as
                // `_mm_stream_si128` needs, and `_mm_loadu_si128` takes any alignment. SSE2 is
                // part of the x86_64 baseline. `dst` and `src` do not overlap (`&mut`).
                unsafe {
                    let v = _mm_loadu_si128(s.add(k * 16).cast::<__m128i>());
                    _mm_stream_si128(d.add(k * 16).cast::<__m128i>(), v);
                }
            }
            return;
        }
    }
    for (d, s) in dst.iter_mut().zip(src) {
        // Same type (the `Streamable` proof): a plain copy, which becomes a `memcpy`.
        *d = as_same(*s);
    }
}

/// Makes later loads see the streamed stores (`sfence`).
pub(crate) fn fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `sfence` has no preconditions; SSE is part of the x86_64 baseline.
    unsafe {
        core::arch::x86_64::_mm_sfence();
    }
}

/// A value of `B` as the identical type `A`.
fn as_same<A: Copy + 'static, B: Copy + 'static>(b: B) -> A {
    match (&b as &dyn core::any::Any).downcast_ref::<A>() {
        Some(&a) => a,
        None => unreachable!("a Streamable proof means the types are identical"),
    }
}
