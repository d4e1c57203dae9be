//! XLA element types (`PrimitiveType` in `xla_data.proto`).

use core::fmt;

macro_rules! primitive_types {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal, $enum_value:literal, $bits:literal; )*) => {
        /// An XLA array element type, spelled in text as its lower-case name (`f32`, `bf16`, ...).
        ///
        /// These are the 32 element types an array shape can have. `token` and `opaque` are
        /// shapes of their own ([`Shape::Token`](crate::Shape::Token),
        /// [`Shape::Opaque`](crate::Shape::Opaque)), and tuples and buffers are written with
        /// `( ... )` and `b( ... )`, so none of them is a `PrimitiveType`.
        ///
        /// ```
        /// use xla_layout::PrimitiveType;
        /// let t: PrimitiveType = "bf16".parse().unwrap();
        /// assert_eq!(t, PrimitiveType::Bf16);
        /// assert_eq!((t.bit_width(), t.byte_width()), (16, 2));
        /// assert_eq!(t.to_string(), "bf16");
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum PrimitiveType {
            $( $(#[$doc])* $variant, )*
        }

        impl PrimitiveType {
            /// Every element type, in the order of this enum.
            ///
            /// ```
            /// use xla_layout::PrimitiveType;
            /// assert!(PrimitiveType::ALL.contains(&PrimitiveType::Bf16));
            /// assert!(PrimitiveType::ALL.iter().all(|t| t.name().parse::<PrimitiveType>().ok() == Some(*t)));
            /// ```
            pub const ALL: [PrimitiveType; 32] = [$(PrimitiveType::$variant),*];

            /// The text spelling, as XLA prints it (`"f8e4m3fn"`).
            ///
            /// ```
            /// assert_eq!(xla_layout::PrimitiveType::Pred.name(), "pred");
            /// ```
            pub const fn name(self) -> &'static str {
                match self { $(PrimitiveType::$variant => $name,)* }
            }

            /// The value of the enum in `xla_data.proto` (`F32` is 11).
            ///
            /// ```
            /// assert_eq!(xla_layout::PrimitiveType::F32.proto_number(), 11);
            /// ```
            pub const fn proto_number(self) -> u8 {
                match self { $(PrimitiveType::$variant => $enum_value,)* }
            }

            /// XLA's `primitive_util::BitWidth`: the number of value bits (1 for `pred`).
            ///
            /// ```
            /// use xla_layout::PrimitiveType;
            /// assert_eq!(PrimitiveType::S4.bit_width(), 4);
            /// assert_eq!(PrimitiveType::C128.bit_width(), 128);
            /// ```
            pub const fn bit_width(self) -> u32 {
                match self { $(PrimitiveType::$variant => $bits,)* }
            }

            /// Looks a type up by its exact (case-sensitive) text name.
            ///
            /// ```
            /// use xla_layout::PrimitiveType;
            /// assert_eq!(PrimitiveType::from_name("u2"), Some(PrimitiveType::U2));
            /// assert_eq!(PrimitiveType::from_name("F32"), None);
            /// ```
            pub fn from_name(name: &str) -> Option<PrimitiveType> {
                match name { $($name => Some(PrimitiveType::$variant),)* _ => None }
            }
        }
    };
}

primitive_types! {
    /// `pred`: a boolean, stored as one byte unless the layout packs it with `E(n)`.
    Pred = "pred", 1, 1;
    /// `s1`: 1-bit signed integer.
    S1 = "s1", 30, 1;
    /// `s2`: 2-bit signed integer.
    S2 = "s2", 26, 2;
    /// `s4`: 4-bit signed integer.
    S4 = "s4", 21, 4;
    /// `s8`: 8-bit signed integer.
    S8 = "s8", 2, 8;
    /// `s16`: 16-bit signed integer.
    S16 = "s16", 3, 16;
    /// `s32`: 32-bit signed integer.
    S32 = "s32", 4, 32;
    /// `s64`: 64-bit signed integer.
    S64 = "s64", 5, 64;
    /// `u1`: 1-bit unsigned integer.
    U1 = "u1", 31, 1;
    /// `u2`: 2-bit unsigned integer.
    U2 = "u2", 27, 2;
    /// `u4`: 4-bit unsigned integer.
    U4 = "u4", 22, 4;
    /// `u8`: 8-bit unsigned integer.
    U8 = "u8", 6, 8;
    /// `u16`: 16-bit unsigned integer.
    U16 = "u16", 7, 16;
    /// `u32`: 32-bit unsigned integer.
    U32 = "u32", 8, 32;
    /// `u64`: 64-bit unsigned integer.
    U64 = "u64", 9, 64;
    /// `f16`: IEEE half precision.
    F16 = "f16", 10, 16;
    /// `bf16`: bfloat16.
    Bf16 = "bf16", 16, 16;
    /// `f32`: IEEE single precision.
    F32 = "f32", 11, 32;
    /// `f64`: IEEE double precision.
    F64 = "f64", 12, 64;
    /// `f8e5m2`: 8-bit float, 5 exponent and 2 mantissa bits.
    F8e5m2 = "f8e5m2", 19, 8;
    /// `f8e4m3`: 8-bit float, IEEE-style e4m3.
    F8e4m3 = "f8e4m3", 28, 8;
    /// `f8e4m3fn`: 8-bit float e4m3, finite only.
    F8e4m3fn = "f8e4m3fn", 20, 8;
    /// `f8e4m3b11fnuz`: 8-bit float e4m3, bias 11, finite, unsigned zero.
    F8e4m3b11fnuz = "f8e4m3b11fnuz", 23, 8;
    /// `f8e3m4`: 8-bit float, 3 exponent and 4 mantissa bits.
    F8e3m4 = "f8e3m4", 29, 8;
    /// `f8e5m2fnuz`: 8-bit float e5m2, finite, unsigned zero.
    F8e5m2fnuz = "f8e5m2fnuz", 24, 8;
    /// `f8e4m3fnuz`: 8-bit float e4m3, finite, unsigned zero.
    F8e4m3fnuz = "f8e4m3fnuz", 25, 8;
    /// `f4e2m1fn`: 4-bit MX float.
    F4e2m1fn = "f4e2m1fn", 32, 4;
    /// `f8e8m0fnu`: 8-bit MX scale (exponent only).
    F8e8m0fnu = "f8e8m0fnu", 33, 8;
    /// `f6e2m3fn`: 6-bit MX float (sign, 2 exponent and 3 mantissa bits), finite only;
    /// stored in a byte unless `E(6)` packs it.
    F6e2m3fn = "f6e2m3fn", 35, 6;
    /// `f6e3m2fn`: 6-bit MX float (sign, 3 exponent and 2 mantissa bits), finite only;
    /// stored in a byte unless `E(6)` packs it.
    F6e3m2fn = "f6e3m2fn", 36, 6;
    /// `c64`: complex of two `f32`.
    C64 = "c64", 15, 64;
    /// `c128`: complex of two `f64`.
    C128 = "c128", 18, 128;
}

impl PrimitiveType {
    /// The default storage size of one element in bytes, `ceil(bit_width / 8)`
    /// (XLA's `ByteSizeOfPrimitiveType`).
    ///
    /// ```
    /// use xla_layout::PrimitiveType;
    /// assert_eq!(PrimitiveType::Pred.byte_width(), 1);
    /// assert_eq!(PrimitiveType::U2.byte_width(), 1);
    /// assert_eq!(PrimitiveType::C64.byte_width(), 8);
    /// ```
    pub const fn byte_width(self) -> u32 {
        self.bit_width().div_ceil(8)
    }

    /// The default storage size in bits, `8 * byte_width` (XLA's `StorageBitWidth`
    /// when no `E(n)` packs the element).
    ///
    /// ```
    /// use xla_layout::PrimitiveType;
    /// assert_eq!(PrimitiveType::S4.storage_bits(), 8);
    /// assert_eq!(PrimitiveType::F32.storage_bits(), 32);
    /// ```
    pub const fn storage_bits(self) -> u32 {
        self.byte_width() * 8
    }

    /// True for the "sub-byte non-pred" types that `E(bits)` packs (XLA's
    /// `IsSubByteNonPredType`): s1, u1, s2, u2, s4, u4, f4e2m1fn, f6e2m3fn, f6e3m2fn.
    ///
    /// ```
    /// use xla_layout::PrimitiveType;
    /// assert!(PrimitiveType::S4.is_sub_byte());
    /// assert!(!PrimitiveType::Pred.is_sub_byte());
    /// ```
    pub const fn is_sub_byte(self) -> bool {
        !matches!(self, PrimitiveType::Pred) && self.bit_width() < 8
    }

    /// True for integer types (signed and unsigned, not `pred`).
    ///
    /// ```
    /// use xla_layout::PrimitiveType;
    /// assert!(PrimitiveType::U8.is_integral());
    /// assert!(!PrimitiveType::F32.is_integral());
    /// ```
    pub const fn is_integral(self) -> bool {
        use PrimitiveType::*;
        matches!(
            self,
            S1 | S2 | S4 | S8 | S16 | S32 | S64 | U1 | U2 | U4 | U8 | U16 | U32 | U64
        )
    }
}

impl fmt::Display for PrimitiveType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of `"F32".parse::<PrimitiveType>()`: the text is not a lower-case XLA type name.
///
/// ```
/// let err = "F32".parse::<xla_layout::PrimitiveType>().unwrap_err();
/// assert!(err.to_string().contains("did you mean `f32`"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPrimitiveType {
    suggestion: Option<PrimitiveType>,
}

impl UnknownPrimitiveType {
    /// A type whose name matches up to ASCII case, or with `_type` style suffixes removed.
    ///
    /// ```
    /// let err = "BF16".parse::<xla_layout::PrimitiveType>().unwrap_err();
    /// assert_eq!(err.suggestion(), Some(xla_layout::PrimitiveType::Bf16));
    /// ```
    pub fn suggestion(&self) -> Option<PrimitiveType> {
        self.suggestion
    }
}

impl fmt::Display for UnknownPrimitiveType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not an XLA element type")?;
        match self.suggestion {
            Some(t) => write!(f, "; did you mean `{t}`?"),
            None => f.write_str(" (expected one of pred, s1..s64, u1..u64, f16, bf16, f32, f64, the f8/f6/f4 types, c64, c128)"),
        }
    }
}

impl core::error::Error for UnknownPrimitiveType {}

/// Finds the type a mistyped name was probably meant to be (`F32` -> `f32`).
pub(crate) fn suggest(name: &str) -> Option<PrimitiveType> {
    PrimitiveType::ALL
        .into_iter()
        .find(|t| t.name().eq_ignore_ascii_case(name))
}

impl core::str::FromStr for PrimitiveType {
    type Err = UnknownPrimitiveType;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PrimitiveType::from_name(s).ok_or_else(|| UnknownPrimitiveType {
            suggestion: suggest(s),
        })
    }
}
