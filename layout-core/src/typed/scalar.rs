//! Element value types that no common crate provides: packed sub-byte integers and floats,
//! and the 8-bit float formats missing from `float8`.

macro_rules! bits_type {
    ($( $(#[$doc:meta])* $name:ident; )*) => {$(
        $(#[$doc])*
        ///
        /// Holds the raw bits; conversions to and from numbers are the user's.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(transparent)]
        pub struct $name(u8);

        impl $name {
            /// The element with these raw bits (only the type's low bits are kept).
            ///
            /// ```
            #[doc = concat!("use xla_layout::typed::", stringify!($name), ";")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::from_bits(0xff).to_bits(), ", stringify!($name), "::MASK);")]
            /// ```
            pub const fn from_bits(bits: u8) -> Self {
                $name(bits & Self::MASK)
            }
            /// The raw bits.
            ///
            /// ```
            #[doc = concat!("use xla_layout::typed::", stringify!($name), ";")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::from_bits(0x01).to_bits(), 0x01);")]
            /// ```
            pub const fn to_bits(self) -> u8 {
                self.0
            }
        }
    )*};
}

bits_type! {
    /// `f8e4m3`: IEEE-style 8-bit float with 4 exponent and 3 mantissa bits.
    #[cfg_attr(feature = "bytemuck", derive(bytemuck::Zeroable, bytemuck::Pod))]
    F8e4m3;
    /// `f8e4m3b11fnuz`: 8-bit float e4m3, exponent bias 11, finite, unsigned zero.
    #[cfg_attr(feature = "bytemuck", derive(bytemuck::Zeroable, bytemuck::Pod))]
    F8e4m3b11fnuz;
    /// `f8e3m4`: 8-bit float with 3 exponent and 4 mantissa bits.
    #[cfg_attr(feature = "bytemuck", derive(bytemuck::Zeroable, bytemuck::Pod))]
    F8e3m4;
    /// `f8e5m2fnuz`: 8-bit float e5m2, finite, unsigned zero.
    #[cfg_attr(feature = "bytemuck", derive(bytemuck::Zeroable, bytemuck::Pod))]
    F8e5m2fnuz;
    /// `f8e4m3fnuz`: 8-bit float e4m3, finite, unsigned zero.
    #[cfg_attr(feature = "bytemuck", derive(bytemuck::Zeroable, bytemuck::Pod))]
    F8e4m3fnuz;
    /// `f8e8m0fnu`: 8-bit MX scale, exponent only.
    #[cfg_attr(feature = "bytemuck", derive(bytemuck::Zeroable, bytemuck::Pod))]
    F8e8m0fnu;
    /// `f4e2m1fn`: 4-bit MX float (sign, 2 exponent bits, 1 mantissa bit), packed by `E(4)`.
    #[cfg_attr(feature = "bytemuck", derive(bytemuck::Zeroable, bytemuck::NoUninit))]
    F4e2m1fn;
    /// `f6e2m3fn`: 6-bit MX float (sign, 2 exponent bits, 3 mantissa bits), one per byte
    /// unless `E(6)` packs it.
    #[cfg_attr(feature = "bytemuck", derive(bytemuck::Zeroable, bytemuck::NoUninit))]
    F6e2m3fn;
    /// `f6e3m2fn`: 6-bit MX float (sign, 3 exponent bits, 2 mantissa bits), one per byte
    /// unless `E(6)` packs it.
    #[cfg_attr(feature = "bytemuck", derive(bytemuck::Zeroable, bytemuck::NoUninit))]
    F6e3m2fn;
}

macro_rules! mask {
    ($($name:ident = $mask:literal;)*) => {$(
        impl $name {
            /// The bits of the storage byte that the element uses.
            ///
            /// ```
            #[doc = concat!("use xla_layout::typed::", stringify!($name), ";")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::MASK.count_ones() % 2, 0); // 4, 6 or 8 bits")]
            /// ```
            pub const MASK: u8 = $mask;
        }
    )*};
}

mask! {
    F8e4m3 = 0xff;
    F8e4m3b11fnuz = 0xff;
    F8e3m4 = 0xff;
    F8e5m2fnuz = 0xff;
    F8e4m3fnuz = 0xff;
    F8e8m0fnu = 0xff;
    F4e2m1fn = 0x0f;
    F6e2m3fn = 0x3f;
    F6e3m2fn = 0x3f;
}

macro_rules! packed_int {
    ($( $(#[$doc:meta])* $name:ident($repr:ty, $bits:literal, $signed:literal); )*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "bytemuck", derive(bytemuck::Zeroable, bytemuck::NoUninit))]
        #[repr(transparent)]
        pub struct $name($repr);

        impl $name {
            /// Width in bits.
            ///
            /// ```
            #[doc = concat!("use xla_layout::typed::", stringify!($name), ";")]
            #[doc = concat!("let max = ", stringify!($name), "::new(", stringify!($name), "::MAX).unwrap();")]
            #[doc = concat!("assert_eq!(max.get(), ", stringify!($name), "::MAX);")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::from_bits(max.to_bits()), max);")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::new(", stringify!($name), "::MIN).unwrap().get(), ", stringify!($name), "::MIN);")]
            #[doc = concat!("assert!(", stringify!($name), "::BITS <= 4);")]
            /// ```
            pub const BITS: u32 = $bits;
            /// The smallest value.
            ///
            /// ```
            #[doc = concat!("use xla_layout::typed::", stringify!($name), ";")]
            #[doc = concat!("let max = ", stringify!($name), "::new(", stringify!($name), "::MAX).unwrap();")]
            #[doc = concat!("assert_eq!(max.get(), ", stringify!($name), "::MAX);")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::from_bits(max.to_bits()), max);")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::new(", stringify!($name), "::MIN).unwrap().get(), ", stringify!($name), "::MIN);")]
            #[doc = concat!("assert!(", stringify!($name), "::BITS <= 4);")]
            /// ```
            pub const MIN: $repr = if $signed { -(1 << ($bits - 1)) } else { 0 } as $repr;
            /// The largest value.
            ///
            /// ```
            #[doc = concat!("use xla_layout::typed::", stringify!($name), ";")]
            #[doc = concat!("let max = ", stringify!($name), "::new(", stringify!($name), "::MAX).unwrap();")]
            #[doc = concat!("assert_eq!(max.get(), ", stringify!($name), "::MAX);")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::from_bits(max.to_bits()), max);")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::new(", stringify!($name), "::MIN).unwrap().get(), ", stringify!($name), "::MIN);")]
            #[doc = concat!("assert!(", stringify!($name), "::BITS <= 4);")]
            /// ```
            pub const MAX: $repr = if $signed { (1 << ($bits - 1)) - 1 } else { (1 << $bits) - 1 } as $repr;

            /// The value, or `None` if it does not fit in the type's bits.
            ///
            /// ```
            #[doc = concat!("use xla_layout::typed::", stringify!($name), ";")]
            #[doc = concat!("let max = ", stringify!($name), "::new(", stringify!($name), "::MAX).unwrap();")]
            #[doc = concat!("assert_eq!(max.get(), ", stringify!($name), "::MAX);")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::from_bits(max.to_bits()), max);")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::new(", stringify!($name), "::MIN).unwrap().get(), ", stringify!($name), "::MIN);")]
            #[doc = concat!("assert!(", stringify!($name), "::BITS <= 4);")]
            /// ```
            pub const fn new(v: $repr) -> Option<Self> {
                if v >= Self::MIN && v <= Self::MAX { Some($name(v)) } else { None }
            }
            /// The value.
            ///
            /// ```
            #[doc = concat!("use xla_layout::typed::", stringify!($name), ";")]
            #[doc = concat!("let max = ", stringify!($name), "::new(", stringify!($name), "::MAX).unwrap();")]
            #[doc = concat!("assert_eq!(max.get(), ", stringify!($name), "::MAX);")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::from_bits(max.to_bits()), max);")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::new(", stringify!($name), "::MIN).unwrap().get(), ", stringify!($name), "::MIN);")]
            #[doc = concat!("assert!(", stringify!($name), "::BITS <= 4);")]
            /// ```
            pub const fn get(self) -> $repr {
                self.0
            }
            /// The value's low `BITS` bits, as packed in memory.
            ///
            /// ```
            #[doc = concat!("use xla_layout::typed::", stringify!($name), ";")]
            #[doc = concat!("let max = ", stringify!($name), "::new(", stringify!($name), "::MAX).unwrap();")]
            #[doc = concat!("assert_eq!(max.get(), ", stringify!($name), "::MAX);")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::from_bits(max.to_bits()), max);")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::new(", stringify!($name), "::MIN).unwrap().get(), ", stringify!($name), "::MIN);")]
            #[doc = concat!("assert!(", stringify!($name), "::BITS <= 4);")]
            /// ```
            pub const fn to_bits(self) -> u8 {
                (self.0 as u8) & ((1u16 << $bits) - 1) as u8
            }
            /// The value stored in the low `BITS` bits (sign-extended for signed types).
            ///
            /// ```
            #[doc = concat!("use xla_layout::typed::", stringify!($name), ";")]
            #[doc = concat!("let max = ", stringify!($name), "::new(", stringify!($name), "::MAX).unwrap();")]
            #[doc = concat!("assert_eq!(max.get(), ", stringify!($name), "::MAX);")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::from_bits(max.to_bits()), max);")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::new(", stringify!($name), "::MIN).unwrap().get(), ", stringify!($name), "::MIN);")]
            #[doc = concat!("assert!(", stringify!($name), "::BITS <= 4);")]
            /// ```
            pub const fn from_bits(bits: u8) -> Self {
                let shift = 8 - $bits;
                if $signed {
                    $name((((bits << shift) as i8) >> shift) as $repr)
                } else {
                    $name(((bits << shift) >> shift) as $repr)
                }
            }
        }
    )*};
}

packed_int! {
    /// `s4`: a 4-bit signed integer (-8..=7), packed two per byte by `E(4)`.
    ///
    /// ```
    /// use xla_layout::typed::I4;
    /// assert_eq!(I4::new(-3).unwrap().to_bits(), 0b1101);
    /// assert_eq!(I4::from_bits(0b1101).get(), -3);
    /// assert!(I4::new(8).is_none());
    /// ```
    I4(i8, 4, true);
    /// `s2`: a 2-bit signed integer (-2..=1).
    ///
    /// ```
    /// assert_eq!(xla_layout::typed::I2::from_bits(0b10).get(), -2);
    /// ```
    I2(i8, 2, true);
    /// `s1`: a 1-bit signed integer (-1..=0).
    ///
    /// ```
    /// assert_eq!(xla_layout::typed::I1::from_bits(1).get(), -1);
    /// ```
    I1(i8, 1, true);
    /// `u4`: a 4-bit unsigned integer (0..=15).
    ///
    /// ```
    /// assert_eq!(xla_layout::typed::U4::new(15).unwrap().to_bits(), 15);
    /// ```
    U4(u8, 4, false);
    /// `u2`: a 2-bit unsigned integer (0..=3).
    ///
    /// ```
    /// assert_eq!(xla_layout::typed::U2::from_bits(0b111).get(), 3);
    /// ```
    U2(u8, 2, false);
    /// `u1`: a 1-bit unsigned integer (0..=1).
    ///
    /// ```
    /// assert!(xla_layout::typed::U1::new(2).is_none());
    /// ```
    U1(u8, 1, false);
}

// With the `bytemuck` feature, the sub-byte types take from bytes only the values they can
// hold (checked casts: `I4` takes 0xfd as -3 but refuses 0x08), while the 8-bit float types
// above are `Pod`.
#[cfg(feature = "bytemuck")]
macro_rules! checked_bits {
    ($($name:ident($repr:ty);)*) => {$(
        // SAFETY: `$name` is `#[repr(transparent)]` over `$repr`, so `Bits = $repr` has its
        // size, alignment and layout, and every `$repr` is initialised; a bit pattern is
        // accepted only when `from_bits` keeps it unchanged, that is when it is a value the
        // type can hold, so a checked cast never makes a value outside the type's range.
        #[allow(unsafe_code)]
        unsafe impl bytemuck::CheckedBitPattern for $name {
            type Bits = $repr;
            fn is_valid_bit_pattern(bits: &$repr) -> bool {
                $name::from_bits(u8::from_ne_bytes(bits.to_ne_bytes())).0 == *bits
            }
        }
    )*};
}

#[cfg(feature = "bytemuck")]
checked_bits! {
    F4e2m1fn(u8);
    F6e2m3fn(u8);
    F6e3m2fn(u8);
    I4(i8);
    I2(i8);
    I1(i8);
    U4(u8);
    U2(u8);
    U1(u8);
}
