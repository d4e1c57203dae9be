//! Layouts as types: what the `layout!` macro expands to.
//!
//! `layout!(bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)})` is an [`Array`] whose generic
//! arguments spell the canonical shape: element type marker, rank, storage kind, dims,
//! minor_to_major, legacy padding, sizes, the canonical text, the offset function and its
//! inverse in closed form (from [`Plan::offset_expr`](crate::Plan::offset_expr) and
//! [`Plan::index_exprs`](crate::Plan::index_exprs)), and the bitcast signature (from
//! [`Plan::bitcast_signature`](crate::Plan::bitcast_signature)). Canonically equal literals
//! therefore give the same type, and [`Layout::offset`] compiles to straight-line arithmetic.
//!
//! ```
//! use xla_layout::{layout, typed::Layout};
//!
//! type Act = layout!(bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)});
//! const BYTES: usize = Act::SIZE_BYTES;
//! assert_eq!(BYTES, 8 * 1280 * 16384 * 2);
//! assert_eq!(Act::offset([0, 0, 8, 0]), 131072);
//! assert_eq!(Act::CANONICAL, "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}");
//! ```
//!
//! # Macro support is not API
//!
//! The building blocks the macro spells types with (the type-level lists `Cons`/`Nil`, the
//! canonical text as `Text`/`Chunk`, the closed-form expression types `Term`, `Coords`, `Idx`,
//! `Div`, `Rem`, `MulAdd`, the constants block `Meta`, and helpers such as `text_chunks`) are
//! public only because the macro's expansion names them from the user's crate. They are
//! hidden from these docs and may change in any release: name layouts with `layout!`, and
//! write generic code against [`Layout`].

pub mod elem;
mod expr;
mod list;
mod scalar;
mod storage;

use core::marker::PhantomData;

pub use elem::ElementType;
#[doc(hidden)]
pub use elem::marker_name;
#[doc(hidden)]
pub use expr::{Coords, Div, Eval, EvalAll, Idx, MulAdd, Rem, Term, Zero};
#[doc(hidden)]
pub use list::{
    Chunk, Chunks, Cons, LIST_CAPACITY, List, Nil, Str, TEXT_CAPACITY, Text, text_chunks,
};
pub use scalar::{
    F4e2m1fn, F6e2m3fn, F6e3m2fn, F8e3m4, F8e4m3, F8e4m3b11fnuz, F8e4m3fnuz, F8e5m2fnuz, F8e8m0fnu,
    I1, I2, I4, U1, U2, U4,
};
pub use storage::{Bits, Direct, Packed, StorageKind};

use crate::index::Plan;
use crate::model::{ArrayShape, PaddingValue, PrimitiveType};

/// An array layout known at compile time. Implemented by every `layout!(...)` type.
///
/// Every constant is usable in `const` items; [`offset`](Layout::offset) is
/// `#[inline(always)]` straight-line arithmetic with bounds checked only by `debug_assert!`.
///
/// ```
/// use xla_layout::{layout, typed::Layout};
/// fn describe<L: Layout>() -> String {
///     format!("{} has {} elements in {} bytes", L::CANONICAL, L::ELEMENTS, L::SIZE_BYTES)
/// }
/// assert_eq!(
///     describe::<layout!(f32[3,5]{1,0:T(2,2)})>(),
///     "f32[3,5]{1,0:T(2,2)} has 15 elements in 96 bytes",
/// );
/// ```
pub trait Layout: 'static {
    /// Number of dimensions.
    const RANK: usize;
    /// Dimension sizes (bounds for `<=N`), logical dimension 0 first.
    const DIMS: &'static [usize];
    /// Logical dimensions from most minor to most major.
    const MINOR_TO_MAJOR: &'static [usize];
    /// The element type.
    const ELEMENT_TYPE: PrimitiveType;
    /// Storage bits per element: `E(n)` if set, else 8 × the type's byte width.
    const ELEMENT_BITS: usize;
    /// `S(n)`: the memory space.
    const MEMORY_SPACE: u8;
    /// Logical elements (product of the dims).
    const ELEMENTS: usize;
    /// Element slots in memory: the fully tiled shape rounded up to `L(n)`.
    const PHYSICAL_ELEMENTS: usize;
    /// Bytes in memory, including any `M(n)` prefix.
    const SIZE_BYTES: usize;
    /// The canonical text, as XLA prints it.
    const CANONICAL: &'static str;
    /// The dimensions as a type-level list, so that "same dimensions" is a type equality
    /// (`L2: Layout<Dims = L::Dims>`).
    type Dims: List;
    /// [`Plan::bitcast_signature`](crate::Plan::bitcast_signature) as a type-level list:
    /// equal for two layouts of one element type exactly when they put every element at the
    /// same offset of equally long storage.
    type BitcastSignature: List;
    /// The Rust type of one element (`f32`, `half::bf16`, [`I4`], ...).
    type Elem: Copy + Default + PartialEq + core::fmt::Debug + 'static;
    /// The unit of a buffer of this layout: `Elem` for [`Direct`] storage, `u8` for
    /// [`Packed`] (when `E(n)` differs from the natural width, or with an `M(n)` prefix).
    type Word: Copy + Default + PartialEq + core::fmt::Debug + 'static;
    /// True when elements are packed as bits in a byte buffer.
    const PACKED: bool;
    /// Length of a buffer of this layout, in [`Word`](Layout::Word)s.
    const STORAGE_WORDS: usize;
    /// A logical index: `[usize; RANK]`.
    type Index: Copy + AsRef<[usize]> + AsMut<[usize]> + core::fmt::Debug + PartialEq + Default;

    /// The element offset (in elements) of a logical index. In-bounds indices are checked
    /// only by `debug_assert!`; release builds compile this to the closed form.
    fn offset(index: Self::Index) -> usize;

    /// The element in slot `offset` of a buffer.
    fn load(words: &[Self::Word], offset: usize) -> Self::Elem;

    /// Writes the element in slot `offset` of a buffer.
    fn store(words: &mut [Self::Word], offset: usize, value: Self::Elem);

    /// [`offset`](Layout::offset) for an in-bounds index, else `None`.
    fn checked_offset(index: Self::Index) -> Option<usize>;

    /// The logical index stored at an element offset, or `None` for a padding slot or an
    /// offset past the end.
    fn index_of(offset: usize) -> Option<Self::Index>;

    /// The runtime shape (layout-core's model) of this type.
    fn array_shape() -> ArrayShape;

    /// The runtime index plan of this type.
    fn plan() -> Plan {
        match Plan::new(&Self::array_shape()) {
            Ok(plan) => plan,
            Err(e) => unreachable!("layout! only makes types of valid layouts: {e}"),
        }
    }
}

/// Constants of an [`Array`] computed when the macro expanded: storage bits per element,
/// memory space, logical and physical element counts, bytes, legacy padding value
/// (0 unknown, 1 zero, 2 one, 3 lowest, 4 highest), the tiled slot count before `L`, and the
/// `M(n)` metadata prefix in bytes.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Meta<
    const BITS: usize,
    const SPACE: u8,
    const ELEMENTS: usize,
    const PHYSICAL: usize,
    const BYTES: usize,
    const PADDING: u8,
    const TILED: usize,
    const PREFIX: usize,
>;

/// Read access to a [`Meta`]'s constants.
#[doc(hidden)]
pub trait MetaInfo {
    /// Storage bits per element.
    const BITS: usize;
    /// Memory space.
    const SPACE: u8;
    /// Logical elements.
    const ELEMENTS: usize;
    /// Physical element slots.
    const PHYSICAL: usize;
    /// Bytes.
    const BYTES: usize;
    /// Legacy padding value code.
    const PADDING: u8;
    /// Tiled slots before `L` rounding.
    const TILED: usize;
    /// `M(n)` prefix bytes.
    const PREFIX: usize;
}

impl<
    const BITS: usize,
    const SPACE: u8,
    const ELEMENTS: usize,
    const PHYSICAL: usize,
    const BYTES: usize,
    const PADDING: u8,
    const TILED: usize,
    const PREFIX: usize,
> MetaInfo for Meta<BITS, SPACE, ELEMENTS, PHYSICAL, BYTES, PADDING, TILED, PREFIX>
{
    const BITS: usize = BITS;
    const SPACE: u8 = SPACE;
    const ELEMENTS: usize = ELEMENTS;
    const PHYSICAL: usize = PHYSICAL;
    const BYTES: usize = BYTES;
    const PADDING: u8 = PADDING;
    const TILED: usize = TILED;
    const PREFIX: usize = PREFIX;
}

/// The padding value of a [`Meta`] code.
const fn padding_value(code: u8) -> PaddingValue {
    match code {
        1 => PaddingValue::Zero,
        2 => PaddingValue::One,
        3 => PaddingValue::Lowest,
        4 => PaddingValue::Highest,
        _ => PaddingValue::Unknown,
    }
}

/// The code of a padding value in a [`Meta`]; the inverse of the macro's encoding.
///
/// ```
/// use xla_layout::{PaddingValue, typed::padding_code};
/// assert_eq!(padding_code(PaddingValue::Zero), 1);
/// ```
#[doc(hidden)]
pub const fn padding_code(value: PaddingValue) -> u8 {
    match value {
        PaddingValue::Unknown => 0,
        PaddingValue::Zero => 1,
        PaddingValue::One => 2,
        PaddingValue::Lowest => 3,
        PaddingValue::Highest => 4,
    }
}

/// A static array layout as a type. Spelled by the `layout!` macro; its arguments are the
/// element type marker, the rank, the storage kind ([`Direct`] or [`Packed`]), dims,
/// minor_to_major, legacy padded dims ([`Nil`] for none), [`Meta`], the canonical [`Text`],
/// the offset [`Term`] sum, the inverse [`Coords`] and the bitcast signature list. These
/// arguments are macro support, not API (see the [module docs](self)): name an `Array` with
/// `layout!`.
///
/// ```
/// use xla_layout::{layout, typed::{Array, Layout}};
/// fn is_array<E, const R: usize, S, D, M, P, X, C, O, I, B>(
///     _: Array<E, R, S, D, M, P, X, C, O, I, B>,
/// ) {}
/// is_array(<layout!(f32[2,3])>::default());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Array<E, const RANK: usize, S, Dims, M2m, Padded, M, Canon, Offset, Inverse, Sig>(
    ArrayMarker<E, S, Dims, M2m, Padded, M, Canon, Offset, Inverse, Sig>,
);

/// The type arguments of an [`Array`], held only as a marker.
type ArrayMarker<E, S, Dims, M2m, Padded, M, Canon, Offset, Inverse, Sig> =
    PhantomData<fn() -> (E, S, Dims, M2m, Padded, M, Canon, Offset, Inverse, Sig)>;

impl<E, const RANK: usize, S, Dims, M2m, Padded, M, Canon, Offset, Inverse, Sig> Layout
    for Array<E, RANK, S, Dims, M2m, Padded, M, Canon, Offset, Inverse, Sig>
where
    Sig: List + 'static,
    E: ElementType,
    S: StorageKind<E::Elem>,
    Dims: List + 'static,
    M2m: List + 'static,
    Padded: List + 'static,
    M: MetaInfo + 'static,
    Canon: Str + 'static,
    Offset: Eval + 'static,
    Inverse: EvalAll + 'static,
    [usize; RANK]: Default,
{
    const RANK: usize = RANK;
    const DIMS: &'static [usize] = Dims::SLICE;
    const MINOR_TO_MAJOR: &'static [usize] = M2m::SLICE;
    const ELEMENT_TYPE: PrimitiveType = E::TYPE;
    const ELEMENT_BITS: usize = M::BITS;
    const MEMORY_SPACE: u8 = M::SPACE;
    const ELEMENTS: usize = M::ELEMENTS;
    const PHYSICAL_ELEMENTS: usize = M::PHYSICAL;
    const SIZE_BYTES: usize = M::BYTES;
    const CANONICAL: &'static str = Canon::STR;
    type Dims = Dims;
    type BitcastSignature = Sig;
    type Elem = E::Elem;
    type Word = S::Word;
    const PACKED: bool = S::PACKED;
    const STORAGE_WORDS: usize = if S::PACKED { M::BYTES } else { M::PHYSICAL };
    type Index = [usize; RANK];

    #[inline(always)]
    fn load(words: &[S::Word], offset: usize) -> E::Elem {
        S::load(words, offset, M::BITS, M::PREFIX)
    }

    #[inline(always)]
    fn store(words: &mut [S::Word], offset: usize, value: E::Elem) {
        S::store(words, offset, M::BITS, M::PREFIX, value);
    }

    #[inline(always)]
    fn offset(index: [usize; RANK]) -> usize {
        debug_assert!(
            in_bounds(&index, Dims::SLICE),
            "index {index:?} out of bounds for {}",
            Canon::STR
        );
        Offset::eval(&index)
    }

    #[inline(always)]
    fn checked_offset(index: [usize; RANK]) -> Option<usize> {
        in_bounds(&index, Dims::SLICE).then(|| Offset::eval(&index))
    }

    #[inline]
    fn index_of(offset: usize) -> Option<[usize; RANK]> {
        if offset >= M::TILED || M::ELEMENTS == 0 {
            return None;
        }
        let mut index = [0; RANK];
        Inverse::eval_into(&[offset], &mut index);
        (in_bounds(&index, Dims::SLICE) && Offset::eval(&index) == offset).then_some(index)
    }

    fn array_shape() -> ArrayShape {
        let mut shape = match crate::text::parse_array(Canon::STR) {
            Ok(shape) => shape,
            Err(e) => unreachable!("layout! stores canonical text: {e}"),
        };
        if Padded::LEN > 0 {
            shape.layout.padded_dimensions = Padded::SLICE.iter().map(|&p| p as i64).collect();
            shape.layout.padding_value = padding_value(M::PADDING);
        }
        shape
    }
}

#[inline(always)]
fn in_bounds(index: &[usize], dims: &[usize]) -> bool {
    index.len() == dims.len() && index.iter().zip(dims).all(|(i, d)| i < d)
}
