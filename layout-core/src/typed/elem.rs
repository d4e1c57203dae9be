//! Marker types, one per XLA element type (`elem::F32`, `elem::Bf16`, ...), naming the Rust type
//! that holds one element (`f32` for `f32`, `half::bf16` for `bf16`, [`I4`](super::I4) for `s4`, ...).

use super::scalar;
use crate::model::PrimitiveType;

/// A marker for an XLA element type, naming its Rust element type.
///
/// ```
/// use xla_layout::typed::{ElementType, elem};
/// use xla_layout::PrimitiveType;
/// assert_eq!(<elem::Bf16 as ElementType>::TYPE, PrimitiveType::Bf16);
/// let x: <elem::Bf16 as ElementType>::Elem = half::bf16::from_f32(1.5);
/// assert_eq!(x.to_f32(), 1.5);
/// ```
pub trait ElementType: 'static {
    /// The XLA element type.
    const TYPE: PrimitiveType;
    /// The Rust type holding one element.
    type Elem: Copy + Default + PartialEq + core::fmt::Debug + Send + Sync + 'static;
}

macro_rules! markers {
    ($( $marker:ident => $ptype:ident, $elem:ty; )*) => {
        $(
            #[doc = concat!("Marker for XLA's `", stringify!($ptype), "`; elements are `", stringify!($elem), "`.")]
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            pub struct $marker;

            impl ElementType for $marker {
                const TYPE: PrimitiveType = PrimitiveType::$ptype;
                type Elem = $elem;
            }
        )*

        /// The marker type's path for an element type, as the `layout!` macro spells it.
        ///
        /// ```
        /// use xla_layout::{PrimitiveType, typed::marker_name};
        /// assert_eq!(marker_name(PrimitiveType::F8e4m3fn), "F8e4m3fn");
        /// ```
        pub fn marker_name(t: PrimitiveType) -> &'static str {
            match t {
            $(PrimitiveType::$ptype => stringify!($marker),)*
            }
        }
    };
}

markers! {
    Pred => Pred, bool;
    S1 => S1, scalar::I1;
    S2 => S2, scalar::I2;
    S4 => S4, scalar::I4;
    S8 => S8, i8;
    S16 => S16, i16;
    S32 => S32, i32;
    S64 => S64, i64;
    U1 => U1, scalar::U1;
    U2 => U2, scalar::U2;
    U4 => U4, scalar::U4;
    U8 => U8, u8;
    U16 => U16, u16;
    U32 => U32, u32;
    U64 => U64, u64;
    F16 => F16, half::f16;
    Bf16 => Bf16, half::bf16;
    F32 => F32, f32;
    F64 => F64, f64;
    F8e5m2 => F8e5m2, float8::F8E5M2;
    F8e4m3 => F8e4m3, scalar::F8e4m3;
    F8e4m3fn => F8e4m3fn, float8::F8E4M3;
    F8e4m3b11fnuz => F8e4m3b11fnuz, scalar::F8e4m3b11fnuz;
    F8e3m4 => F8e3m4, scalar::F8e3m4;
    F8e5m2fnuz => F8e5m2fnuz, scalar::F8e5m2fnuz;
    F8e4m3fnuz => F8e4m3fnuz, scalar::F8e4m3fnuz;
    F4e2m1fn => F4e2m1fn, scalar::F4e2m1fn;
    F8e8m0fnu => F8e8m0fnu, scalar::F8e8m0fnu;
    F6e2m3fn => F6e2m3fn, scalar::F6e2m3fn;
    F6e3m2fn => F6e3m2fn, scalar::F6e3m2fn;
    C64 => C64, num_complex::Complex32;
    C128 => C128, num_complex::Complex64;
}
