//! Typed storage seen as bytes, for the relayout engine: only for the crate's element types,
//! plain values whose every byte is initialised.
#![allow(unsafe_code)]

use core::any::TypeId;

use num_complex::{Complex32, Complex64};

use crate::typed::{
    F4e2m1fn, F8e3m4, F8e4m3, F8e4m3b11fnuz, F8e4m3fnuz, F8e5m2fnuz, F8e8m0fnu, I1, I2, I4, U1, U2,
    U4,
};

/// True for plain types (no padding bytes, every byte initialised) whose every bit pattern is
/// a valid value: any bytes may be written into them.
fn any_bits<T: 'static>() -> bool {
    let t = TypeId::of::<T>();
    [
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
        // `#[repr(transparent)]` over `u8` or `i8`.
        TypeId::of::<I1>(),
        TypeId::of::<I2>(),
        TypeId::of::<I4>(),
        TypeId::of::<U1>(),
        TypeId::of::<U2>(),
        TypeId::of::<U4>(),
        TypeId::of::<F4e2m1fn>(),
        TypeId::of::<F8e4m3>(),
        TypeId::of::<F8e4m3b11fnuz>(),
        TypeId::of::<F8e3m4>(),
        TypeId::of::<F8e5m2fnuz>(),
        TypeId::of::<F8e4m3fnuz>(),
        TypeId::of::<F8e8m0fnu>(),
    ]
    .contains(&t)
}

/// True for plain types: those of [`any_bits`] and `bool` (one initialised byte, 0 or 1).
fn plain<T: 'static>() -> bool {
    any_bits::<T>() || TypeId::of::<T>() == TypeId::of::<bool>()
}

/// The bytes of `words`, if `T` is plain.
pub(crate) fn bytes<T: 'static>(words: &[T]) -> Option<&[u8]> {
    plain::<T>().then(|| {
        // SAFETY: `T` is plain: no padding, every byte initialised, so the `size_of_val(words)`
        // bytes from `words.as_ptr()` are initialised `u8`s, borrowed for as long as `words`.
        unsafe { core::slice::from_raw_parts(words.as_ptr().cast::<u8>(), size_of_val(words)) }
    })
}

/// The bytes of `words`, mutably, if any bytes written into them make valid values: `T`
/// takes every bit pattern, or `copies` says that only whole slots copied from other `T`s
/// (plain) will be written.
pub(crate) fn bytes_mut<T: 'static>(words: &mut [T], copies: bool) -> Option<&mut [u8]> {
    (any_bits::<T>() || (copies && plain::<T>())).then(|| {
        // SAFETY: `T` is plain (no padding, every byte initialised), so the bytes are
        // initialised `u8`s, borrowed mutably for as long as `words` (no other access to them
        // meanwhile). Writes keep every `T` valid: either every bit pattern is a valid `T`,
        // or (`copies`) the writer copies whole slots of valid `T`s.
        unsafe {
            core::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u8>(), size_of_val(words))
        }
    })
}
