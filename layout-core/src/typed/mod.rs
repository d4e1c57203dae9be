//! Layouts as types: what the `layout!` macro expands to.
//!
//! `layout!(bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)})` is an [`Array`] whose generic
//! arguments are the layout as it reads: element type marker, rank, `Dims<8, 1, 1280, 16384>`,
//! `MinorToMajor<3, 2, 0, 1>`, `Tiles<Tile<8, 128>, Tile<2, 1>>`, the bitcast signature (from
//! [`Plan::bitcast_signature`](crate::Plan::bitcast_signature); `Bitcast<..>`, or nothing when
//! the layout is only bitcast-compatible with itself) and the attributes (`Attrs<1, 0, 1>`
//! for `L(1)E(0)S(1)`, nothing when they are the defaults). Sizes, the canonical text and the
//! offset are computed from these arguments at compile time, by the same tiling steps as the
//! runtime [`Plan`]; [`StaticLayout::offset`] runs those steps unrolled over
//! constants, which release builds fold to the closed form
//! ([`Plan::offset_expr`](crate::Plan::offset_expr)) in straight-line code. Canonically equal
//! literals give the same type.
//!
//! A layout with dynamic dimensions is a `DynArray` read the same way, its dims a
//! `DynDims<..>`: `layout!(bf16[?,1280]{1,0:T(8,128)(2,1)})` is `DynArray<Bf16, 2,
//! DynDims<AnySize, Fixed<1280>>, MinorToMajor<1, 0>, Tiles<Tile<8, 128>, Tile<2, 1>>>`, with
//! `AtMost<4096>` for `<=4096`.
//!
//! A layout passed where another is expected is reported at the first difference, in those
//! terms: ``expected `Tile<8, 128>`, found `NoTile` `` (an untiled layout where a tiled one
//! was expected), ``expected `1`, found `0` `` inside `MinorToMajor<..>`, or ``expected
//! `AtMost<4096>`, found `AnySize` `` (a `?` where `<=4096` was expected). Generic code
//! states what it needs with the bounds of this module ([`Rank`], [`SameArrayAs`],
//! [`BitcastCompatibleWith`], [`FirstTile`], [`FitsTiles`]), whose errors say in layout terms
//! what is wrong.
//!
//! ```
//! use xla_layout::{layout, typed::{Layout, StaticLayout}};
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
//! The building blocks the macro spells types with (the readable lists `Dims`, `MinorToMajor`,
//! `Tiles`, `Tile`, `NoTile`, `Bitcast`, `Same`, `Attrs`, `Padded`, `SC`, `Split`, for dynamic
//! layouts `DynDims`, `AnySize`, `AtMost`, `Fixed`, `NoDim`, the aliases `Spelled0`..`Spelled8`,
//! `DynSpelled0`..`DynSpelled8`, `DynPacked0`..`DynPacked8` and their `Wide` forms, `Splits`,
//! `LongSplit`, `LongBitcast`, `Tail` and `DynDim` it writes types through, and helpers such as
//! `padding_code`) are
//! public only because the macro's expansion names them from the user's crate. They are
//! hidden from these docs and may change in any release: name layouts with `layout!`, and
//! write generic code against [`Layout`].

mod canonical;
mod check;
mod dyn_dims;
mod dynamic;
pub mod elem;
mod error;
mod list;
mod matrix;
mod readable;
mod scalar;
mod spelled;
mod storage;
mod tiling;

use core::marker::PhantomData;

pub use check::{BitcastCompatibleWith, FirstTile, Rank, SameArrayAs};
#[doc(hidden)]
pub use dyn_dims::{AnySize, AtMost, DimKind, DimSet, DimSlot, DynDims, Fixed, NoDim};
#[doc(hidden)]
pub use dynamic::DynArray;
pub use dynamic::DynExtents;
pub use elem::ElementType;
#[doc(hidden)]
pub use elem::marker_name;
pub use error::{DimsError, LengthError};
#[doc(hidden)]
pub use list::{LIST_CAPACITY, List, Nil, TEXT_CAPACITY};
pub use matrix::{FitsTiles, Matrix, PaddedTo};
#[doc(hidden)]
pub use readable::{
    AttrSet, Attrs, BITCAST_SLOTS, Bitcast, Dims, MinorToMajor, NONE, NoTile, Padded, SC, Same,
    Signature, Split, Tile, TileSet, TileSlot, Tiles,
};
pub use scalar::{
    F4e2m1fn, F6e2m3fn, F6e3m2fn, F8e3m4, F8e4m3, F8e4m3b11fnuz, F8e4m3fnuz, F8e5m2fnuz, F8e8m0fnu,
    I1, I2, I4, U1, U2, U4,
};
#[doc(hidden)]
pub use spelled::{
    DimCode, DimOf, DynDim, DynPacked0, DynPacked1, DynPacked2, DynPacked3, DynPacked4, DynPacked5,
    DynPacked6, DynPacked7, DynPacked8, DynSpelled0, DynSpelled1, DynSpelled2, DynSpelled3,
    DynSpelled4, DynSpelled5, DynSpelled6, DynSpelled7, DynSpelled8, If, LongBitcast, LongSplit,
    Select, Spelled0, Spelled1, Spelled2, Spelled3, Spelled4, Spelled5, Spelled6, Spelled7,
    Spelled8, Splits, Tail, WideDynPacked0, WideDynPacked1, WideDynPacked2, WideDynPacked3,
    WideDynPacked4, WideDynPacked5, WideDynPacked6, WideDynPacked7, WideDynPacked8,
    WideDynSpelled0, WideDynSpelled1, WideDynSpelled2, WideDynSpelled3, WideDynSpelled4,
    WideDynSpelled5, WideDynSpelled6, WideDynSpelled7, WideDynSpelled8, WideSpelled0, WideSpelled1,
    WideSpelled2, WideSpelled3, WideSpelled4, WideSpelled5, WideSpelled6, WideSpelled7,
    WideSpelled8, dim_code,
};
pub use storage::{Bits, Direct, Packed, StorageKind};
pub use tiling::{MAX_TYPED_RANK, MAX_TYPED_TILES};

use self::canonical::{Parts, canonical};
use self::tiling::{Core, Spec, WIDTH};
use crate::index::Plan;
use crate::model::{ArrayShape, PaddingValue, PrimitiveType};

/// A layout type: what every `layout!(...)` type implements, with static dimensions or with
/// dynamic ones (`?`, `<=N`) whose extents are given at run time.
///
/// The rank, element type, `minor_to_major`, tiles and attributes are constants. The
/// extents live in a value of type [`Extents`](Layout::Extents): [`Static`] (no data) for a
/// static layout, [`DynExtents`] for a dynamic one, made by [`extents`](Layout::extents),
/// which checks them. Static layouts also implement [`StaticLayout`], whose sizes and offsets
/// are constants and functions of the index alone.
///
/// Generic code names the index type with a bound such as `L: Layout<Index = [usize; 2]>` or
/// [`Rank<2>`]:
///
/// ```
/// use xla_layout::{layout, tensor::Tensor, typed::{Layout, Rank}};
/// fn first<L: Rank<2>>(t: &Tensor<L>) -> L::Elem {
///     t.get([0, 0]).unwrap()
/// }
/// type Batch = layout!(f32[?,128]{1,0:T(8,128)});
/// let t = Tensor::<Batch>::from_logical([2, 128], &[1.5; 256]).unwrap();
/// assert_eq!(first(&t), 1.5);
/// assert_eq!(Batch::size_bytes([3, 128]).unwrap(), 8 * 128 * 4); // one 8x128 tile
/// ```
pub trait Layout: 'static {
    /// Number of dimensions.
    const RANK: usize;
    /// Logical dimensions from most minor to most major.
    const MINOR_TO_MAJOR: &'static [usize];
    /// The element type.
    const ELEMENT_TYPE: PrimitiveType;
    /// Storage bits per element: `E(n)` if set, else 8 × the type's byte width.
    const ELEMENT_BITS: usize;
    /// `S(n)`: the memory space.
    const MEMORY_SPACE: u8;
    /// The canonical text, as XLA prints it (`?` and `<=N` for dynamic dimensions).
    const CANONICAL: &'static str;
    /// True when elements are packed as bits in a byte buffer.
    const PACKED: bool;
    /// The largest extent of each dimension that [`extents`](Layout::extents) accepts: the
    /// size of a static dimension, `N` for `<=N`, and for `?` the largest power of two for
    /// which the layout's size fits in an `i64`.
    const BOUNDS: &'static [usize];
    /// The dimensions as a type, so that "same array" is a type equality: `Dims<..>` of the
    /// sizes for a static layout, `DynDims<..>` of `AnySize` (`?`), `AtMost<N>` (`<=N`) and
    /// `Fixed<N>` (a static size) for a dynamic one.
    type Dims: 'static;
    /// The Rust type of one element (`f32`, `half::bf16`, [`I4`], ...).
    type Elem: Copy + Default + PartialEq + core::fmt::Debug + Send + Sync + 'static;
    /// The unit of a buffer of this layout: `Elem` for [`Direct`] storage, `u8` for
    /// [`Packed`] (when `E(n)` differs from the natural width, or with an `M(n)` prefix).
    type Word: Copy + Default + PartialEq + core::fmt::Debug + Send + Sync + 'static;
    /// A logical index: `[usize; RANK]`.
    type Index: Copy
        + AsRef<[usize]>
        + AsMut<[usize]>
        + core::fmt::Debug
        + PartialEq
        + Eq
        + core::hash::Hash
        + Default
        + Send
        + Sync;
    /// The run-time part of the layout: [`Static`] for static layouts, [`DynExtents`] (the
    /// extents, the strides that depend on them, and the sizes) for dynamic ones.
    type Extents: Copy
        + core::fmt::Debug
        + PartialEq
        + Eq
        + core::hash::Hash
        + Send
        + Sync
        + 'static;

    /// The extents of an array of dimensions `dims`, checked: static dimensions must have
    /// their size, dynamic ones at most their bound, and the size in bytes must fit.
    ///
    /// # Errors
    /// A [`DimsError`] naming the layout, the dimension and what was expected.
    fn extents(dims: Self::Index) -> Result<Self::Extents, DimsError>;

    /// The dimensions of an array with these extents.
    fn dims(extents: &Self::Extents) -> Self::Index;

    /// The element offset of a logical index of an array with these extents: straight-line
    /// arithmetic, with one multiply by a run-time stride for each term whose stride depends
    /// on a dynamic extent. In-bounds indices are checked only by `debug_assert!`.
    fn offset_in(extents: &Self::Extents, index: Self::Index) -> usize;

    /// [`offset_in`](Layout::offset_in) for an in-bounds index, else `None`.
    #[inline(always)]
    fn checked_offset_in(extents: &Self::Extents, index: Self::Index) -> Option<usize> {
        in_bounds(index.as_ref(), Self::dims(extents).as_ref())
            .then(|| Self::offset_in(extents, index))
    }

    /// The sizes of an array with these extents.
    fn sizes(extents: &Self::Extents) -> Sizes;

    /// The bytes in memory of an array of dimensions `dims` (including any `M(n)` prefix).
    ///
    /// # Errors
    /// As [`extents`](Layout::extents).
    ///
    /// ```
    /// use xla_layout::{layout, typed::Layout};
    /// type Batch = layout!(bf16[?,1280]{1,0:T(8,128)(2,1)});
    /// assert_eq!(Batch::size_bytes([9, 1280]).unwrap(), 16 * 1280 * 2); // rows pad to 8
    /// assert!(Batch::size_bytes([9, 1000]).is_err()); // 1280 is static
    /// ```
    fn size_bytes(dims: Self::Index) -> Result<usize, DimsError> {
        Ok(Self::sizes(&Self::extents(dims)?).size_bytes)
    }

    /// The runtime shape (layout-core's model) with these extents.
    fn array_shape_in(extents: &Self::Extents) -> ArrayShape;

    /// The runtime index plan with these extents.
    ///
    /// ```
    /// use xla_layout::{layout, typed::Layout};
    /// type Batch = layout!(f32[?,128]{1,0:T(8,128)});
    /// let plan = Batch::plan_in(&Batch::extents([9, 128]).unwrap());
    /// assert_eq!(plan.size_bytes(), 16 * 128 * 4); // rows pad to 8
    /// ```
    fn plan_in(extents: &Self::Extents) -> Plan {
        Self::shape_and_plan_in(extents).1
    }

    /// The runtime shape and index plan with these extents, the plan made from the shape.
    ///
    /// ```
    /// use xla_layout::{layout, typed::Layout};
    /// type Batch = layout!(f32[?,128]{1,0:T(8,128)});
    /// let (shape, plan) = Batch::shape_and_plan_in(&Batch::extents([9, 128]).unwrap());
    /// assert_eq!(shape.to_string(), "f32[9,128]{1,0:T(8,128)}");
    /// assert_eq!(plan.size_bytes(), 16 * 128 * 4);
    /// ```
    fn shape_and_plan_in(extents: &Self::Extents) -> (ArrayShape, Plan) {
        let shape = Self::array_shape_in(extents);
        match Plan::new(&shape) {
            Ok(plan) => (shape, plan),
            Err(e) => unreachable!("extents are checked when they are made: {e}"),
        }
    }

    /// The element in slot `offset` of a buffer.
    fn load(words: &[Self::Word], offset: usize) -> Self::Elem;

    /// Writes the element in slot `offset` of a buffer.
    fn store(words: &mut [Self::Word], offset: usize, value: Self::Elem);
}

/// A layout whose dimensions are all static: sizes are constants and the offset a function
/// of the index alone. Implemented by every `layout!` type without `?` or `<=N`.
///
/// Every constant is usable in `const` items; [`offset`](StaticLayout::offset) is
/// `#[inline(always)]` straight-line arithmetic with bounds checked only by `debug_assert!`.
///
/// ```
/// use xla_layout::{layout, typed::{Layout, StaticLayout}};
/// fn describe<L: StaticLayout>() -> String {
///     format!("{} has {} elements in {} bytes", L::CANONICAL, L::ELEMENTS, L::SIZE_BYTES)
/// }
/// assert_eq!(
///     describe::<layout!(f32[3,5]{1,0:T(2,2)})>(),
///     "f32[3,5]{1,0:T(2,2)} has 15 elements in 96 bytes",
/// );
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a static layout",
    label = "a layout with dynamic dimensions (a `DynArray`: `AnySize` is `?`, `AtMost<N>` is `<=N`)",
    note = "its sizes and offsets depend on the extents: give them with `Layout::extents(dims)` \
            and use `size_bytes(dims)`, `offset_in`, `zeros(dims)`, `from_logical(dims, ..)` or \
            `try_bitcast(dims)`"
)]
pub trait StaticLayout: Layout<Extents = Static> {
    /// Dimension sizes, logical dimension 0 first.
    const DIMS: &'static [usize];
    /// Logical elements (product of the dims).
    const ELEMENTS: usize;
    /// Element slots in memory: the fully tiled shape rounded up to `L(n)`.
    const PHYSICAL_ELEMENTS: usize;
    /// Bytes in memory, including any `M(n)` prefix.
    const SIZE_BYTES: usize;
    /// Length of a buffer of this layout, in [`Word`](Layout::Word)s.
    const STORAGE_WORDS: usize;
    /// [`Plan::bitcast_signature`](crate::Plan::bitcast_signature) as a type: equal for two
    /// layouts of one element type exactly when they put every element at the same offset of
    /// equally long storage (a layout whose signature is opaque, with `*` or padding slots,
    /// is its own signature, so it matches only itself).
    type BitcastSignature: 'static;

    /// The element offset (in elements) of a logical index. In-bounds indices are checked
    /// only by `debug_assert!`; release builds compile this to the closed form.
    fn offset(index: Self::Index) -> usize;

    /// [`offset`](StaticLayout::offset) for an in-bounds index, else `None`.
    fn checked_offset(index: Self::Index) -> Option<usize>;

    /// The logical index stored at an element offset, or `None` for a padding slot or an
    /// offset past the end.
    fn index_of(offset: usize) -> Option<Self::Index>;

    /// The runtime shape (layout-core's model) of this type.
    fn array_shape() -> ArrayShape {
        Self::array_shape_in(&Static)
    }

    /// The runtime index plan of this type.
    fn plan() -> Plan {
        Self::plan_in(&Static)
    }
}

/// The extents of a static layout: nothing to hold, the layout's constants say it all.
///
/// ```
/// use xla_layout::{layout, typed::{Layout, Static}};
/// assert_eq!(<layout!(f32[2,3])>::extents([2, 3]), Ok(Static));
/// assert!(<layout!(f32[2,3])>::extents([3, 2]).is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Static;

/// The sizes of an array in a layout, for given extents.
///
/// ```
/// use xla_layout::{layout, typed::Layout};
/// type Rows = layout!(f32[?,128]{1,0:T(8,128)});
/// let sizes = Rows::sizes(&Rows::extents([3, 128]).unwrap());
/// assert_eq!((sizes.elements, sizes.physical_elements, sizes.size_bytes), (384, 1024, 4096));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Sizes {
    /// Logical elements.
    pub elements: usize,
    /// Element slots in memory.
    pub physical_elements: usize,
    /// Bytes in memory, including any `M(n)` prefix.
    pub size_bytes: usize,
    /// Length of a buffer, in [`Word`](Layout::Word)s.
    pub storage_words: usize,
    /// Tiled slots before `L(n)` rounding (offsets at or past it hold no element).
    pub tiled_elements: usize,
}

/// The padding value of a padding code (`Attrs`).
const fn padding_value(code: u8) -> PaddingValue {
    match code {
        1 => PaddingValue::Zero,
        2 => PaddingValue::One,
        3 => PaddingValue::Lowest,
        4 => PaddingValue::Highest,
        _ => PaddingValue::Unknown,
    }
}

/// The code of a padding value in `Attrs`; the inverse of [`padding_value`].
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

/// A static array layout as a type, spelled by the `layout!` macro as the layout reads: the
/// element type marker, the rank, [`Dims`], [`MinorToMajor`], [`Tiles`], then, when they are
/// not the defaults, the bitcast signature ([`Bitcast`] or [`Same`]), the attributes
/// ([`Attrs`]: `L`, `E`, `S`, `M`, legacy padding, split configs) and the storage kind
/// ([`Direct`] or [`Packed`]). Everything else (sizes, the canonical text, the offset and its
/// inverse) is computed from these arguments at compile time, by the steps of the runtime
/// [`Plan`]. These arguments are macro support, not API (see the [module docs](self)): name an
/// `Array` with `layout!`.
///
/// ```
/// use xla_layout::{layout, typed::{Array, Layout}};
/// fn is_array<E, const R: usize, D, M, T, G, A, S>(_: Array<E, R, D, M, T, G, A, S>) {}
/// is_array(<layout!(f32[2,3])>::default());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Array<E, const RANK: usize, Dims, M2m, Tiles, G = Same, A = Attrs, S = Direct>(
    Marker<E, Dims, M2m, Tiles, G, (A, S)>,
);

/// The type arguments of a layout type, held only as a marker.
pub(crate) type Marker<A, B, C, D, E, F> = PhantomData<fn() -> (A, B, C, D, E, F)>;

impl<E, const RANK: usize, Dims, M2m, Tiles, A, S, G> Array<E, RANK, Dims, M2m, Tiles, G, A, S>
where
    E: ElementType,
    S: StorageKind<E::Elem>,
    Dims: List,
    M2m: List,
    Tiles: TileSet,
    A: AttrSet,
{
    /// Whether elements are stored as bits in bytes.
    const PACKED_STORAGE: bool = S::PACKED;

    /// Storage bits per element.
    const BITS: usize = if A::E > 0 {
        A::E
    } else {
        E::TYPE.storage_bits() as usize
    };

    /// The layout compiled: steps, expanded shape, strides, sizes.
    const CORE: Core = Core::new(&Spec {
        dims: Dims::SLICE,
        minor_to_major: M2m::SLICE,
        tiles: Tiles::TILES.split_at(Tiles::COUNT).0,
        tile_ranks: Tiles::RANKS.split_at(Tiles::COUNT).0,
        padded: <A::Padded as List>::SLICE,
        tail_alignment: A::L,
        element_bits: Self::BITS,
        prefix_bytes: A::M,
    });

    /// The canonical text's bytes and length.
    const TEXT: ([u8; TEXT_CAPACITY], usize) = canonical(&Parts {
        element: E::TYPE.name(),
        dims: Dims::SLICE,
        kinds: &[],
        minor_to_major: M2m::SLICE,
        tiles: Tiles::TILES.split_at(Tiles::COUNT).0,
        tile_ranks: Tiles::RANKS.split_at(Tiles::COUNT).0,
        tail_alignment: A::L,
        element_size: A::E,
        memory_space: A::S,
        splits: A::SPLITS.split_at(A::SPLITS_LEN).0,
        prefix_bytes: A::M,
    });

    /// The length of a buffer in words: bytes if packed, else element slots.
    const WORDS: usize = if Self::PACKED_STORAGE {
        Self::CORE.bytes
    } else {
        Self::CORE.physical_elements
    };

    /// The canonical text.
    const TEXT_STR: &'static str = match core::str::from_utf8(Self::TEXT.0.split_at(Self::TEXT.1).0)
    {
        Ok(s) => s,
        Err(_) => panic!("layout type text is not UTF-8"),
    };

    /// The element offset of an index: the plan's steps, unrolled over the constant steps of
    /// this type, so that release builds fold it to the closed form. Index entries of size-1
    /// dimensions are taken as 0, and expanded entries of size 1 (always 0 in bounds) dropped.
    #[inline(always)]
    fn eval(index: &[usize; RANK]) -> usize {
        let mut work = [0usize; WIDTH];
        macro_rules! load {
            ($($n:literal)*) => {$(
                if const { $n < RANK } {
                    work[$n] = if const { Self::CORE.unit[Self::CORE.physical[$n]] } {
                        0
                    } else {
                        index[const { Self::CORE.physical[$n] }]
                    };
                }
            )*};
        }
        load!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
        let mut width = RANK;
        macro_rules! step {
            ($($n:literal)*) => {$(
                if const { $n < Self::CORE.step_count } {
                    width = Core::run(const { Self::CORE.steps[$n] }, &mut work, width);
                }
            )*};
        }
        step!(
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30
            31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58
            59 60 61 62 63 64 65 66 67 68 69 70 71
        );
        debug_assert_eq!(width, Self::CORE.width);
        let mut offset = 0usize;
        macro_rules! sum {
            ($($n:literal)*) => {$(
                if const { $n < Self::CORE.width && Self::CORE.expanded[$n] > 1 } {
                    offset = offset.wrapping_add(work[$n].wrapping_mul(const { Self::CORE.strides[$n] }));
                }
            )*};
        }
        sum!(
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30
            31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58
            59 60 61 62 63
        );
        offset
    }
}

impl<E, const RANK: usize, Dims, M2m, Tiles, A, S, G> Layout
    for Array<E, RANK, Dims, M2m, Tiles, G, A, S>
where
    E: ElementType,
    S: StorageKind<E::Elem>,
    Dims: List + 'static,
    M2m: List + 'static,
    Tiles: TileSet + 'static,
    A: AttrSet + 'static,
    G: 'static,
    [usize; RANK]: Default,
{
    const RANK: usize = RANK;
    const MINOR_TO_MAJOR: &'static [usize] = M2m::SLICE;
    const ELEMENT_TYPE: PrimitiveType = E::TYPE;
    const ELEMENT_BITS: usize = Self::BITS;
    const MEMORY_SPACE: u8 = A::S as u8;
    const CANONICAL: &'static str = Self::TEXT_STR;
    const PACKED: bool = S::PACKED;
    const BOUNDS: &'static [usize] = Dims::SLICE;
    type Dims = Dims;
    type Elem = E::Elem;
    type Word = S::Word;
    type Index = [usize; RANK];
    type Extents = Static;

    fn extents(dims: [usize; RANK]) -> Result<Static, DimsError> {
        check_dims(Self::TEXT_STR, &dims, Dims::SLICE, &[])?;
        Ok(Static)
    }

    #[inline(always)]
    fn dims(_: &Static) -> [usize; RANK] {
        let mut dims = [0; RANK];
        dims.copy_from_slice(Dims::SLICE);
        dims
    }

    #[inline(always)]
    fn offset_in(_: &Static, index: [usize; RANK]) -> usize {
        debug_assert!(
            in_bounds(&index, Dims::SLICE),
            "index {index:?} out of bounds for {}",
            Self::TEXT_STR
        );
        Self::eval(&index)
    }

    #[inline(always)]
    fn checked_offset_in(_: &Static, index: [usize; RANK]) -> Option<usize> {
        in_bounds(&index, Dims::SLICE).then(|| Self::eval(&index))
    }

    #[inline(always)]
    fn sizes(_: &Static) -> Sizes {
        Sizes {
            elements: Self::CORE.elements,
            physical_elements: Self::CORE.physical_elements,
            size_bytes: Self::CORE.bytes,
            storage_words: Self::WORDS,
            tiled_elements: Self::CORE.tiled,
        }
    }

    #[inline(always)]
    fn load(words: &[S::Word], offset: usize) -> E::Elem {
        S::load(words, offset, Self::BITS, A::M)
    }

    #[inline(always)]
    fn store(words: &mut [S::Word], offset: usize, value: E::Elem) {
        S::store(words, offset, Self::BITS, A::M, value);
    }

    fn array_shape_in(_: &Static) -> ArrayShape {
        let mut shape = match crate::text::parse_array(Self::TEXT_STR) {
            Ok(shape) => shape,
            Err(e) => unreachable!("layout types print canonical text: {e}"),
        };
        let padded = <A::Padded as List>::SLICE;
        if !padded.is_empty() {
            shape.layout.padded_dimensions = padded.iter().map(|&p| p as i64).collect();
            shape.layout.padding_value = padding_value(A::PADDING);
        }
        shape
    }
}

impl<E, const RANK: usize, Dims, M2m, Tiles, A, S, G> StaticLayout
    for Array<E, RANK, Dims, M2m, Tiles, G, A, S>
where
    E: ElementType,
    S: StorageKind<E::Elem>,
    Dims: List + 'static,
    M2m: List + 'static,
    Tiles: TileSet + 'static,
    A: AttrSet + 'static,
    G: Signature<Self> + 'static,
    [usize; RANK]: Default,
{
    const DIMS: &'static [usize] = Dims::SLICE;
    const ELEMENTS: usize = Self::CORE.elements;
    const PHYSICAL_ELEMENTS: usize = Self::CORE.physical_elements;
    const SIZE_BYTES: usize = Self::CORE.bytes;
    const STORAGE_WORDS: usize = Self::WORDS;
    type BitcastSignature = G::Sig;

    #[inline(always)]
    fn offset(index: [usize; RANK]) -> usize {
        debug_assert!(
            in_bounds(&index, Dims::SLICE),
            "index {index:?} out of bounds for {}",
            Self::TEXT_STR
        );
        Self::eval(&index)
    }

    #[inline(always)]
    fn checked_offset(index: [usize; RANK]) -> Option<usize> {
        in_bounds(&index, Dims::SLICE).then(|| Self::eval(&index))
    }

    #[inline]
    fn index_of(offset: usize) -> Option<[usize; RANK]> {
        let mut index = [0; RANK];
        (Self::CORE.index_of(offset, &mut index)
            && in_bounds(&index, Dims::SLICE)
            && Self::eval(&index) == offset)
            .then_some(index)
    }
}

#[inline(always)]
fn in_bounds(index: &[usize], dims: &[usize]) -> bool {
    index.len() == dims.len() && index.iter().zip(dims).all(|(i, d)| i < d)
}

/// Checks `dims` against a layout's: each static dimension (not in `dynamic`) must equal its
/// size in `bounds`, each dynamic one be at most its bound.
fn check_dims(
    layout: &'static str,
    dims: &[usize],
    bounds: &[usize],
    dynamic: &[bool],
) -> Result<(), DimsError> {
    for (dim, (&found, &bound)) in dims.iter().zip(bounds).enumerate() {
        let is_dynamic = dynamic.get(dim).copied().unwrap_or(false);
        if is_dynamic && found > bound {
            return Err(DimsError::PastBound {
                layout,
                dim,
                bound,
                found,
            });
        }
        if !is_dynamic && found != bound {
            return Err(DimsError::Static {
                layout,
                dim,
                size: bound,
                found,
            });
        }
    }
    Ok(())
}
