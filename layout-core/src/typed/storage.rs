//! How a typed layout stores its elements: one Rust value per slot ([`Direct`]), or bits in a
//! byte buffer ([`Packed`]) when `E(n)` differs from the type's natural width or an `M(n)`
//! metadata prefix comes before the data.

use num_complex::{Complex32, Complex64};

use super::scalar::{
    F4e2m1fn, F6e2m3fn, F6e3m2fn, F8e3m4, F8e4m3, F8e4m3b11fnuz, F8e4m3fnuz, F8e5m2fnuz, F8e8m0fnu,
};
use super::scalar::{I1, I2, I4, U1, U2, U4};

/// An element's bit pattern, for packed storage (low bits first).
///
/// ```
/// use xla_layout::typed::{Bits, I4};
/// assert_eq!(I4::new(-1).unwrap().to_bits128(), 0xf);
/// assert_eq!(<I4 as Bits>::from_bits128(0xf).get(), -1);
/// assert_eq!(1.0f32.to_bits128(), 0x3f80_0000);
/// ```
pub trait Bits: Copy {
    /// The bit pattern, zero-extended.
    fn to_bits128(self) -> u128;
    /// The element with this bit pattern (bits above the type's width are ignored).
    fn from_bits128(bits: u128) -> Self;
}

macro_rules! bits_via {
    ($($t:ty => |$v:ident| $to:expr, |$b:ident| $from:expr;)*) => {$(
        impl Bits for $t {
            #[inline(always)]
            fn to_bits128(self) -> u128 {
                let $v = self;
                $to
            }
            #[inline(always)]
            #[allow(clippy::cast_possible_truncation)]
            fn from_bits128($b: u128) -> Self {
                $from
            }
        }
    )*};
}

bits_via! {
    bool => |v| u128::from(v), |b| b & 1 == 1;
    i8 => |v| u128::from(v as u8), |b| b as u8 as i8;
    i16 => |v| u128::from(v as u16), |b| b as u16 as i16;
    i32 => |v| u128::from(v as u32), |b| b as u32 as i32;
    i64 => |v| u128::from(v as u64), |b| b as u64 as i64;
    u8 => |v| u128::from(v), |b| b as u8;
    u16 => |v| u128::from(v), |b| b as u16;
    u32 => |v| u128::from(v), |b| b as u32;
    u64 => |v| u128::from(v), |b| b as u64;
    f32 => |v| u128::from(v.to_bits()), |b| f32::from_bits(b as u32);
    f64 => |v| u128::from(v.to_bits()), |b| f64::from_bits(b as u64);
    half::f16 => |v| u128::from(v.to_bits()), |b| half::f16::from_bits(b as u16);
    half::bf16 => |v| u128::from(v.to_bits()), |b| half::bf16::from_bits(b as u16);
    float8::F8E4M3 => |v| u128::from(v.to_bits()), |b| float8::F8E4M3::from_bits(b as u8);
    float8::F8E5M2 => |v| u128::from(v.to_bits()), |b| float8::F8E5M2::from_bits(b as u8);
    Complex32 => |v| u128::from(v.re.to_bits()) | u128::from(v.im.to_bits()) << 32,
        |b| Complex32::new(f32::from_bits(b as u32), f32::from_bits((b >> 32) as u32));
    Complex64 => |v| u128::from(v.re.to_bits()) | u128::from(v.im.to_bits()) << 64,
        |b| Complex64::new(f64::from_bits(b as u64), f64::from_bits((b >> 64) as u64));
    I1 => |v| u128::from(v.to_bits()), |b| I1::from_bits(b as u8);
    I2 => |v| u128::from(v.to_bits()), |b| I2::from_bits(b as u8);
    I4 => |v| u128::from(v.to_bits()), |b| I4::from_bits(b as u8);
    U1 => |v| u128::from(v.to_bits()), |b| U1::from_bits(b as u8);
    U2 => |v| u128::from(v.to_bits()), |b| U2::from_bits(b as u8);
    U4 => |v| u128::from(v.to_bits()), |b| U4::from_bits(b as u8);
    F4e2m1fn => |v| u128::from(v.to_bits()), |b| F4e2m1fn::from_bits(b as u8);
    F6e2m3fn => |v| u128::from(v.to_bits()), |b| F6e2m3fn::from_bits(b as u8);
    F6e3m2fn => |v| u128::from(v.to_bits()), |b| F6e3m2fn::from_bits(b as u8);
    F8e4m3 => |v| u128::from(v.to_bits()), |b| F8e4m3::from_bits(b as u8);
    F8e4m3b11fnuz => |v| u128::from(v.to_bits()), |b| F8e4m3b11fnuz::from_bits(b as u8);
    F8e3m4 => |v| u128::from(v.to_bits()), |b| F8e3m4::from_bits(b as u8);
    F8e5m2fnuz => |v| u128::from(v.to_bits()), |b| F8e5m2fnuz::from_bits(b as u8);
    F8e4m3fnuz => |v| u128::from(v.to_bits()), |b| F8e4m3fnuz::from_bits(b as u8);
    F8e8m0fnu => |v| u128::from(v.to_bits()), |b| F8e8m0fnu::from_bits(b as u8);
}

/// A storage scheme for elements of type `T`.
///
/// ```
/// use xla_layout::typed::{Packed, StorageKind};
/// let mut bytes = [0u8; 2];
/// <Packed as StorageKind<u8>>::store(&mut bytes, 1, 4, 0, 0xb);
/// assert_eq!(bytes, [0xb0, 0]);
/// assert_eq!(<Packed as StorageKind<u8>>::load(&bytes, 1, 4, 0), 0xb);
/// ```
pub trait StorageKind<T>: 'static {
    /// The unit of the buffer: `T` itself, or `u8` for packed bits.
    type Word: Copy + Default + PartialEq + core::fmt::Debug + Send + Sync + 'static;
    /// True when the buffer is bytes of packed bits (its length is the byte size), false
    /// when it holds one `T` per element slot.
    const PACKED: bool;
    /// The element in `slot`.
    fn load(words: &[Self::Word], slot: usize, bits: usize, prefix_bytes: usize) -> T;
    /// Writes the element in `slot`.
    fn store(words: &mut [Self::Word], slot: usize, bits: usize, prefix_bytes: usize, value: T);
}

/// One `T` per element slot: the buffer is `[T]`, indexed by offset.
///
/// ```
/// use xla_layout::typed::{Direct, StorageKind};
/// let words = [1.5f32, 2.5];
/// assert_eq!(<Direct as StorageKind<f32>>::load(&words, 1, 32, 0), 2.5);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Direct;

/// Elements packed as `E(n)` bits each, least-significant bits first, after an `M(n)` prefix:
/// the buffer is bytes.
///
/// ```
/// use xla_layout::{layout, Layout};
/// assert!(<layout!(s4[64]{0:E(4)}) as Layout>::PACKED);
/// assert!(!<layout!(s4[64]) as Layout>::PACKED); // one byte per s4 without E(4)
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Packed;

impl<T: Copy + Default + PartialEq + core::fmt::Debug + Send + Sync + 'static> StorageKind<T>
    for Direct
{
    type Word = T;
    const PACKED: bool = false;
    #[inline(always)]
    fn load(words: &[T], slot: usize, _: usize, _: usize) -> T {
        words[slot]
    }
    #[inline(always)]
    fn store(words: &mut [T], slot: usize, _: usize, _: usize, value: T) {
        words[slot] = value;
    }
}

impl<T: Bits + Send + Sync + 'static> StorageKind<T> for Packed {
    type Word = u8;
    const PACKED: bool = true;
    #[inline]
    fn load(words: &[u8], slot: usize, bits: usize, prefix_bytes: usize) -> T {
        let start = 8 * prefix_bytes + slot * bits;
        if bits <= 8 && 8 % bits == 0 {
            // The element lies within one byte (start is a multiple of `bits`).
            let mask = ((1u16 << bits) - 1) as u8;
            return T::from_bits128(u128::from((words[start / 8] >> (start % 8)) & mask));
        }
        let mut value = 0u128;
        for k in 0..bits.min(128) {
            let bit = start + k;
            value |= u128::from((words[bit / 8] >> (bit % 8)) & 1) << k;
        }
        T::from_bits128(value)
    }
    #[inline]
    fn store(words: &mut [u8], slot: usize, bits: usize, prefix_bytes: usize, value: T) {
        let start = 8 * prefix_bytes + slot * bits;
        let v = value.to_bits128();
        if bits <= 8 && 8 % bits == 0 {
            let mask = ((1u16 << bits) - 1) as u8;
            let shift = start % 8;
            let byte = &mut words[start / 8];
            *byte = (*byte & !(mask << shift)) | (((v as u8) & mask) << shift);
            return;
        }
        for k in 0..bits {
            let bit = start + k;
            let b = u8::from(k < 128 && (v >> k) & 1 == 1);
            words[bit / 8] = (words[bit / 8] & !(1 << (bit % 8))) | (b << (bit % 8));
        }
    }
}
