//! Layout types with dynamic dimensions (`?`, `<=N`): the rank, element type,
//! `minor_to_major` and tiles are constants, the extents are values ([`DynExtents`]).
//!
//! The macro spells the offset with the dynamic extents at their bounds; every term whose
//! stride depends on a dynamic extent becomes a [`Slot`](super::Slot) that reads its stride
//! from the extents, computed once (from the runtime [`Plan`]) when the extents are given.
//! The closed form stays valid for every extent up to the bound, because the simplifications
//! made at the bound (a remainder dropped where the value is below the tile, a term that is
//! always 0) hold for smaller extents too.

use super::error::DimsError;
use super::expr::EvalWith;
use super::list::{List, Str};
use super::storage::StorageKind;
use super::{ElementType, Layout, Marker, Sizes, check_dims, in_bounds};
use crate::index::Plan;
use crate::model::{ArrayShape, Dim, PrimitiveType};

/// The extents of an array in a dynamic layout, with the strides and sizes that follow from
/// them. Made by [`Layout::extents`], which checks them.
///
/// ```
/// use xla_layout::{layout, typed::Layout};
/// type Cols = layout!(f32[16,?]{1,0:T(8,128)});
/// let e = Cols::extents([16, 300]).unwrap();
/// assert_eq!(e.dims(), [16, 300]);
/// assert_eq!(e.strides(), &[3 * 1024]); // a row of tiles: ceil(300 / 128) tiles of 8x128
/// assert_eq!(e.sizes().size_bytes, 2 * 3 * 1024 * 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DynExtents<const RANK: usize, const K: usize> {
    dims: [usize; RANK],
    strides: [usize; K],
    sizes: Sizes,
}

impl<const RANK: usize, const K: usize> DynExtents<RANK, K> {
    /// The dimensions.
    ///
    /// ```
    /// use xla_layout::{layout, Layout};
    /// let e = <layout!(bf16[?,1280]{1,0:T(8,128)(2,1)})>::extents([24, 1280]).unwrap();
    /// assert_eq!(e.dims(), [24, 1280]);
    /// ```
    pub fn dims(&self) -> [usize; RANK] {
        self.dims
    }

    /// The strides of the offset's terms that depend on dynamic extents, in the order the
    /// offset uses them.
    ///
    /// ```
    /// use xla_layout::{layout, Layout};
    /// // Row-major f32[?,3]: the offset is i0*3 + i1; no stride depends on the extent.
    /// let e = <layout!(f32[?,3])>::extents([5, 3]).unwrap();
    /// assert!(e.strides().is_empty());
    /// // Column-major f32[?,3]: i1 * extent + i0, one stride from the extent.
    /// let e = <layout!(f32[?,3]{0,1})>::extents([5, 3]).unwrap();
    /// assert_eq!(e.strides(), &[5]);
    /// ```
    pub fn strides(&self) -> &[usize; K] {
        &self.strides
    }

    /// The sizes.
    ///
    /// ```
    /// use xla_layout::{layout, Layout};
    /// let e = <layout!(f32[<=4096,128]{1,0:T(8,128)})>::extents([10, 128]).unwrap();
    /// assert_eq!(e.sizes().elements, 1280);
    /// ```
    pub fn sizes(&self) -> Sizes {
        self.sizes
    }
}

/// Constants of a [`DynArray`] that do not depend on the extents: storage bits per element,
/// memory space and `M(n)` prefix bytes.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DynMeta<const BITS: usize, const SPACE: u8, const PREFIX: usize>;

/// A layout type with dynamic dimensions. Spelled by the `layout!` macro; its arguments are,
/// first, the layout as it reads: the element type marker, the rank, [`Dims`](super::Dims)
/// (static sizes, `N` for `<=N`, 0 for `?`), [`MinorToMajor`](super::MinorToMajor) and
/// [`Tiles`](super::Tiles); then the storage kind, the [`DynCompiled`] constants and closed
/// form, and the count of run-time strides. These arguments are macro support, not API: name
/// a `DynArray` with `layout!`.
///
/// ```
/// use xla_layout::{layout, typed::Layout};
/// type Batch = layout!(bf16[?,1280]{1,0:T(8,128)(2,1)});
/// assert_eq!(Batch::CANONICAL, "bf16[?,1280]{1,0:T(8,128)(2,1)}");
/// let e = Batch::extents([3, 1280]).unwrap();
/// assert_eq!(Batch::offset_in(&e, [1, 0]), 1); // (2,1) pairs rows 0 and 1
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DynArray<E, const RANK: usize, Dims, M2m, Tiles, S, C, const K: usize>(
    Marker<E, Dims, M2m, Tiles, S, C>,
);

/// What the macro computed for a [`DynArray`]: which dims are dynamic, the largest extent of
/// each, [`DynMeta`], the canonical text, the offset sum and the expanded positions of its
/// run-time strides. Macro support, not API.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DynCompiled<Dynamic, Bounds, M, Canon, Offset, Positions>(
    Marker<Dynamic, Bounds, M, Canon, Offset, Positions>,
);

/// Read access to a [`DynMeta`]'s constants.
#[doc(hidden)]
pub trait DynMetaInfo {
    /// Storage bits per element.
    const BITS: usize;
    /// Memory space.
    const SPACE: u8;
    /// `M(n)` prefix bytes.
    const PREFIX: usize;
}

impl<const BITS: usize, const SPACE: u8, const PREFIX: usize> DynMetaInfo
    for DynMeta<BITS, SPACE, PREFIX>
{
    const BITS: usize = BITS;
    const SPACE: u8 = SPACE;
    const PREFIX: usize = PREFIX;
}

/// The runtime shape of `canonical` with every dimension static at `dims`.
fn shape_at(canonical: &str, dims: &[usize]) -> ArrayShape {
    let mut shape = match crate::text::parse_array(canonical) {
        Ok(shape) => shape,
        Err(e) => unreachable!("layout! stores canonical text: {e}"),
    };
    for (d, &n) in shape.dims.iter_mut().zip(dims) {
        // Extents are checked against the bounds, which fit an i64.
        *d = Dim::Static(i64::try_from(n).unwrap_or(i64::MAX));
    }
    shape
}

impl<
    E,
    const RANK: usize,
    Dims,
    M2m,
    Tiles,
    S,
    Dynamic,
    Bounds,
    M,
    Canon,
    Offset,
    Positions,
    const K: usize,
> Layout
    for DynArray<
        E,
        RANK,
        Dims,
        M2m,
        Tiles,
        S,
        DynCompiled<Dynamic, Bounds, M, Canon, Offset, Positions>,
        K,
    >
where
    Tiles: 'static,
    E: ElementType,
    S: StorageKind<E::Elem>,
    Dims: List + 'static,
    Dynamic: List + 'static,
    Bounds: List + 'static,
    M2m: List + 'static,
    M: DynMetaInfo + 'static,
    Canon: Str + 'static,
    Offset: EvalWith + 'static,
    Positions: List + 'static,
    [usize; RANK]: Default,
{
    const RANK: usize = RANK;
    const MINOR_TO_MAJOR: &'static [usize] = M2m::SLICE;
    const ELEMENT_TYPE: PrimitiveType = E::TYPE;
    const ELEMENT_BITS: usize = M::BITS;
    const MEMORY_SPACE: u8 = M::SPACE;
    const CANONICAL: &'static str = Canon::STR;
    const PACKED: bool = S::PACKED;
    const BOUNDS: &'static [usize] = Bounds::SLICE;
    type Dims = Dims;
    type Elem = E::Elem;
    type Word = S::Word;
    type Index = [usize; RANK];
    type Extents = DynExtents<RANK, K>;

    fn extents(dims: [usize; RANK]) -> Result<DynExtents<RANK, K>, DimsError> {
        check_dims(Canon::STR, &dims, Bounds::SLICE, Dynamic::SLICE)?;
        let plan = Plan::new(&shape_at(Canon::STR, &dims)).map_err(|e| DimsError::TooLarge {
            layout: Canon::STR,
            reason: alloc::string::ToString::to_string(&e),
        })?;
        let mut strides = [0; K];
        for (s, &p) in strides.iter_mut().zip(Positions::SLICE) {
            *s = plan.expanded_strides()[p];
        }
        let sizes = Sizes {
            elements: plan.elements(),
            physical_elements: plan.physical_elements(),
            size_bytes: plan.size_bytes(),
            storage_words: if S::PACKED {
                plan.size_bytes()
            } else {
                plan.physical_elements()
            },
            tiled_elements: plan.tiled_elements(),
        };
        Ok(DynExtents {
            dims,
            strides,
            sizes,
        })
    }

    #[inline(always)]
    fn dims(extents: &DynExtents<RANK, K>) -> [usize; RANK] {
        extents.dims
    }

    #[inline(always)]
    fn offset_in(extents: &DynExtents<RANK, K>, index: [usize; RANK]) -> usize {
        debug_assert!(
            in_bounds(&index, &extents.dims),
            "index {index:?} out of bounds for dims {:?} of {}",
            extents.dims,
            Canon::STR
        );
        Offset::eval_with(&index, &extents.strides)
    }

    #[inline(always)]
    fn sizes(extents: &DynExtents<RANK, K>) -> Sizes {
        extents.sizes
    }

    fn array_shape_in(extents: &DynExtents<RANK, K>) -> ArrayShape {
        shape_at(Canon::STR, &extents.dims)
    }

    #[inline(always)]
    fn load(words: &[S::Word], offset: usize) -> E::Elem {
        S::load(words, offset, M::BITS, M::PREFIX)
    }

    #[inline(always)]
    fn store(words: &mut [S::Word], offset: usize, value: E::Elem) {
        S::store(words, offset, M::BITS, M::PREFIX, value);
    }
}
