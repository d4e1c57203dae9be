//! Layout types with dynamic dimensions (`?`, `<=N`): the rank, element type,
//! `minor_to_major`, tiles and attributes are constants, the extents are values
//! ([`DynExtents`]).
//!
//! A [`DynArray`]'s arguments are the layout as it reads; at compile time it compiles the
//! layout at its bounds (the largest extent of each dimension, `?` at the largest power of
//! two for which the size fits) with the static types' [`Core`], and finds which expanded
//! strides depend on a dynamic extent: those major to an expanded entry that comes from a
//! dynamic dimension. Those strides are read from the extents, computed once (from the
//! runtime [`Plan`]) when the extents are given; the others are constants. The tiling steps do
//! not depend on the extents (a `*` may merge only static dimensions), so the steps at the
//! bounds are the steps at every extent.

use super::canonical::{Parts, canonical};
use super::dyn_dims::{DimKind, DimSet};
use super::error::DimsError;
use super::list::{List, TEXT_CAPACITY};
use super::readable::{AttrSet, Attrs, TileSet};
use super::storage::{Direct, StorageKind};
use super::tiling::{Core, MAX_TYPED_RANK, Spec, Step, WIDTH};
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
pub struct DynExtents<const RANK: usize> {
    dims: [usize; RANK],
    /// The run-time strides in `..count`, zeros after.
    strides: [usize; RANK],
    count: usize,
    sizes: Sizes,
}

impl<const RANK: usize> DynExtents<RANK> {
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
    pub fn strides(&self) -> &[usize] {
        self.strides.split_at(self.count).0
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

/// A layout type with dynamic dimensions, spelled by the `layout!` macro as the layout reads:
/// the element type marker, the rank, [`DynDims`](super::DynDims) (each dimension
/// [`AnySize`](super::AnySize) for `?`, [`AtMost<N>`](super::AtMost) for `<=N`, [`Fixed<N>`](super::Fixed)
/// for a static size), [`MinorToMajor`](super::MinorToMajor), [`Tiles`](super::Tiles), then, when
/// they are not the defaults, the attributes ([`Attrs`]) and the storage kind ([`Direct`] or
/// [`Packed`](super::Packed)). Everything else (the bounds, the canonical text, the tiling
/// steps, which strides depend on the extents and the constant ones) is computed from these
/// arguments at compile time, by the static layouts' machinery; `offset_in` runs the tiling
/// steps over those constants, which release builds fold to straight-line code with one
/// multiply per run-time stride. These arguments are macro support, not API: name a `DynArray`
/// with `layout!`.
///
/// ```
/// use xla_layout::{layout, typed::Layout};
/// type Batch = layout!(bf16[?,1280]{1,0:T(8,128)(2,1)});
/// assert_eq!(Batch::CANONICAL, "bf16[?,1280]{1,0:T(8,128)(2,1)}");
/// let e = Batch::extents([3, 1280]).unwrap();
/// assert_eq!(Batch::offset_in(&e, [1, 0]), 1); // (2,1) pairs rows 0 and 1
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DynArray<E, const RANK: usize, Dims, M2m, Tiles, A = Attrs, S = Direct>(
    Marker<E, Dims, M2m, Tiles, A, S>,
);

/// The slot of an expanded entry whose stride is a constant.
const CONSTANT: usize = usize::MAX;

/// What a dynamic layout type computes from its arguments.
#[derive(Clone, Copy, Debug)]
struct Compiled {
    /// The layout at its bounds.
    core: Core,
    bounds: [usize; MAX_TYPED_RANK],
    dynamic: [bool; MAX_TYPED_RANK],
    /// For each expanded entry, [`CONSTANT`] or the run-time stride it is multiplied by.
    slots: [usize; WIDTH],
    /// The expanded entry of each run-time stride, `..count`.
    positions: [usize; MAX_TYPED_RANK],
    count: usize,
}

/// Whether the size of an array of `dims` in `core` fits, as XLA's `ValidateShapeSize`
/// checks it: the elements times the byte width, and the physical size, at most `i64::MAX`.
const fn fits(core: &Core, dims: &[usize], byte_width: usize) -> bool {
    let mut product: i64 = 1;
    let mut i = 0;
    while i < dims.len() {
        product = match product.checked_mul(dims[i] as i64) {
            Some(p) => p,
            None => return false,
        };
        i += 1;
    }
    product.checked_mul(byte_width as i64).is_some() && core.bytes <= i64::MAX as usize
}

/// Compiles a dynamic layout: `at` with each dimension of `kinds` at its bound, `?` at the
/// largest power of two up to 2^40 for which the size fits (as the macro checks with the
/// runtime plan), and the run-time strides.
const fn compile(kinds: &[DimKind], at: &Spec<'_>, byte_width: usize) -> Compiled {
    let rank = at.dims.len();
    assert!(
        rank <= MAX_TYPED_RANK && kinds.len() == rank,
        "dims of the wrong length"
    );
    let mut bounds = [0; MAX_TYPED_RANK];
    let mut dynamic = [false; MAX_TYPED_RANK];
    let mut unbounded = false;
    let mut d = 0;
    while d < rank {
        bounds[d] = at.dims[d];
        dynamic[d] = !matches!(kinds[d], DimKind::Static);
        unbounded |= matches!(kinds[d], DimKind::Unbounded);
        d += 1;
    }
    let mut k = 41;
    let core = loop {
        k -= 1;
        let mut d = 0;
        while d < rank {
            if matches!(kinds[d], DimKind::Unbounded) {
                bounds[d] = 1 << k;
            }
            d += 1;
        }
        let dims = bounds.split_at(rank).0;
        if let Some(core) = Core::try_new(&Spec { dims, ..*at })
            && fits(&core, dims, byte_width)
        {
            break core;
        }
        assert!(
            unbounded && k > 0,
            "the size of this layout type overflows at its bounds"
        );
    };
    // Which expanded entries come from a dynamic dimension, through the steps: a tile keeps
    // the mark on the quotients and appends constant remainders.
    let mut marks = [false; WIDTH];
    let mut p = 0;
    while p < rank {
        marks[p] = dynamic[core.physical[p]];
        p += 1;
    }
    let mut width = rank;
    let mut s = 0;
    while s < core.step_count {
        match core.steps[s] {
            Step::Nothing => {}
            Step::Pad { by } => {
                let mut i = width;
                while i > 0 {
                    i -= 1;
                    marks[i + by] = marks[i];
                }
                let mut j = 0;
                while j < by {
                    marks[j] = false;
                    j += 1;
                }
                width += by;
            }
            Step::Combine { at, .. } => {
                marks[at + 1] |= marks[at];
                let mut i = at;
                while i + 1 < width {
                    marks[i] = marks[i + 1];
                    i += 1;
                }
                width -= 1;
            }
            Step::Tile { count, .. } => {
                let mut j = 0;
                while j < count {
                    marks[width + j] = false;
                    j += 1;
                }
                width += count;
            }
        }
        s += 1;
    }
    // A stride depends on the extents when an entry minor to it comes from a dynamic
    // dimension; only entries of more than one slot at the bounds are ever multiplied.
    let mut varies = [false; WIDTH];
    let mut minor = false;
    let mut k = core.width;
    while k > 0 {
        k -= 1;
        varies[k] = minor;
        minor |= marks[k];
    }
    let mut slots = [CONSTANT; WIDTH];
    let mut positions = [0; MAX_TYPED_RANK];
    let mut count = 0;
    let mut k = 0;
    while k < core.width {
        if varies[k] && core.expanded[k] > 1 {
            // Only the entries a dimension keeps in place through the steps are marked, at
            // most one per dimension.
            assert!(count < rank, "more run-time strides than dimensions");
            slots[k] = count;
            positions[count] = k;
            count += 1;
        }
        k += 1;
    }
    Compiled {
        core,
        bounds,
        dynamic,
        slots,
        positions,
        count,
    }
}

impl Compiled {
    /// The element offset of `index` with the run-time `strides`: the tiling steps over the
    /// constant steps, then the sum over the expanded entries, each times its constant or
    /// run-time stride. With `self` a constant, release builds fold the loops to
    /// straight-line code.
    #[inline(always)]
    fn offset(&self, index: &[usize], strides: &[usize]) -> usize {
        let core = &self.core;
        let mut work = [0usize; WIDTH];
        let mut p = 0;
        while p < core.rank {
            let d = core.physical[p];
            work[p] = if core.unit[d] { 0 } else { index[d] };
            p += 1;
        }
        let mut width = core.rank;
        let mut s = 0;
        while s < core.step_count {
            width = Core::run(core.steps[s], &mut work, width);
            s += 1;
        }
        debug_assert!(width == core.width);
        let mut offset = 0usize;
        let mut k = 0;
        while k < core.width {
            if core.expanded[k] > 1 {
                let stride = match self.slots[k] {
                    CONSTANT => core.strides[k],
                    slot => strides[slot],
                };
                offset = offset.wrapping_add(work[k].wrapping_mul(stride));
            }
            k += 1;
        }
        offset
    }
}

/// The runtime shape of `canonical` with every dimension static at `dims`.
fn shape_at(canonical: &str, dims: &[usize]) -> ArrayShape {
    let mut shape = match crate::text::parse_array(canonical) {
        Ok(shape) => shape,
        Err(e) => unreachable!("layout types print canonical text: {e}"),
    };
    for (d, &n) in shape.dims.iter_mut().zip(dims) {
        // Extents are checked against the bounds, which fit an i64.
        *d = Dim::Static(i64::try_from(n).unwrap_or(i64::MAX));
    }
    shape
}

impl<E, const RANK: usize, Dims, M2m, Tiles, A, S> DynArray<E, RANK, Dims, M2m, Tiles, A, S>
where
    E: ElementType,
    Dims: DimSet,
    M2m: List,
    Tiles: TileSet,
    A: AttrSet,
{
    /// Storage bits per element.
    const BITS: usize = if A::E > 0 {
        A::E
    } else {
        E::TYPE.storage_bits() as usize
    };

    /// The layout compiled at its bounds, with its run-time strides.
    const COMPILED: Compiled = {
        assert!(Dims::LEN == RANK, "dims of the wrong length");
        compile(
            Dims::KINDS.split_at(Dims::LEN).0,
            &Spec {
                dims: Dims::SIZES.split_at(Dims::LEN).0,
                minor_to_major: M2m::SLICE,
                tiles: Tiles::TILES.split_at(Tiles::COUNT).0,
                tile_ranks: Tiles::RANKS.split_at(Tiles::COUNT).0,
                padded: &[],
                tail_alignment: A::L,
                element_bits: Self::BITS,
                prefix_bytes: A::M,
            },
            E::TYPE.byte_width() as usize,
        )
    };

    /// The canonical text's bytes and length.
    const TEXT: ([u8; TEXT_CAPACITY], usize) = canonical(&Parts {
        element: E::TYPE.name(),
        dims: Dims::SIZES.split_at(Dims::LEN).0,
        kinds: Dims::KINDS.split_at(Dims::LEN).0,
        minor_to_major: M2m::SLICE,
        tiles: Tiles::TILES.split_at(Tiles::COUNT).0,
        tile_ranks: Tiles::RANKS.split_at(Tiles::COUNT).0,
        tail_alignment: A::L,
        element_size: A::E,
        memory_space: A::S,
        splits: A::SPLITS.split_at(A::SPLITS_LEN).0,
        prefix_bytes: A::M,
    });

    /// The canonical text.
    const TEXT_STR: &'static str = match core::str::from_utf8(Self::TEXT.0.split_at(Self::TEXT.1).0)
    {
        Ok(s) => s,
        Err(_) => panic!("layout type text is not UTF-8"),
    };

    /// The largest extent of each dimension.
    const BOUNDS_SLICE: &'static [usize] = Self::COMPILED.bounds.split_at(RANK).0;

    /// Whether each dimension is dynamic.
    const DYNAMIC: &'static [bool] = Self::COMPILED.dynamic.split_at(RANK).0;
}

impl<E, const RANK: usize, Dims, M2m, Tiles, A, S> Layout
    for DynArray<E, RANK, Dims, M2m, Tiles, A, S>
where
    E: ElementType,
    S: StorageKind<E::Elem>,
    Dims: DimSet + 'static,
    M2m: List + 'static,
    Tiles: TileSet + 'static,
    A: AttrSet + 'static,
    [usize; RANK]: Default,
{
    const RANK: usize = RANK;
    const MINOR_TO_MAJOR: &'static [usize] = M2m::SLICE;
    const ELEMENT_TYPE: PrimitiveType = E::TYPE;
    const ELEMENT_BITS: usize = Self::BITS;
    const MEMORY_SPACE: u8 = A::S as u8;
    const CANONICAL: &'static str = Self::TEXT_STR;
    const PACKED: bool = S::PACKED;
    const BOUNDS: &'static [usize] = Self::BOUNDS_SLICE;
    type Dims = Dims;
    type Elem = E::Elem;
    type Word = S::Word;
    type Index = [usize; RANK];
    type Extents = DynExtents<RANK>;

    fn extents(dims: [usize; RANK]) -> Result<DynExtents<RANK>, DimsError> {
        check_dims(Self::TEXT_STR, &dims, Self::BOUNDS_SLICE, Self::DYNAMIC)?;
        let plan =
            Plan::new(&shape_at(Self::TEXT_STR, &dims)).map_err(|e| DimsError::TooLarge {
                layout: Self::TEXT_STR,
                reason: alloc::string::ToString::to_string(&e),
            })?;
        let compiled = const { &Self::COMPILED };
        let mut strides = [0; RANK];
        for (s, &p) in strides
            .iter_mut()
            .zip(&compiled.positions[..compiled.count])
        {
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
            count: compiled.count,
            sizes,
        })
    }

    #[inline(always)]
    fn dims(extents: &DynExtents<RANK>) -> [usize; RANK] {
        extents.dims
    }

    #[inline(always)]
    fn offset_in(extents: &DynExtents<RANK>, index: [usize; RANK]) -> usize {
        debug_assert!(
            in_bounds(&index, &extents.dims),
            "index {index:?} out of bounds for dims {:?} of {}",
            extents.dims,
            Self::TEXT_STR
        );
        const { &Self::COMPILED }.offset(&index, &extents.strides)
    }

    #[inline(always)]
    fn sizes(extents: &DynExtents<RANK>) -> Sizes {
        extents.sizes
    }

    fn array_shape_in(extents: &DynExtents<RANK>) -> ArrayShape {
        shape_at(Self::TEXT_STR, &extents.dims)
    }

    #[inline(always)]
    fn load(words: &[S::Word], offset: usize) -> E::Elem {
        S::load(words, offset, Self::BITS, A::M)
    }

    #[inline(always)]
    fn store(words: &mut [S::Word], offset: usize, value: E::Elem) {
        S::store(words, offset, Self::BITS, A::M, value);
    }
}
