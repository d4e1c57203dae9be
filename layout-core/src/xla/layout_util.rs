//! XLA's `LayoutUtil` (`xla/layout_util.h`) and `Layout::Equal` (`xla/layout.h`) under Rust
//! names. Each item names the C++ function it mirrors and the XLA quirks it keeps.
//!
//! Where XLA would CHECK-fail or read out of bounds, these functions return `None` or `false`
//! instead, as each item's documentation says. `LayoutUtil::MakeLayout`,
//! `MakeLayoutFromMajorToMinor`, `MakeDescendingLayout` and `MakeAscendingLayout` are
//! [`ArrayLayout::new`], [`ArrayLayout::from_major_to_minor`], [`ArrayLayout::descending`] and
//! [`ArrayLayout::ascending`].
//!
//! ```
//! use xla_layout::{layout_util, parse_array};
//! let a = parse_array("f32[8,4]{1,0:T(2,2)}").unwrap();
//! assert_eq!(layout_util::linear_index(&a, &[3, 1]), Some(11));
//! ```

use alloc::vec;
use alloc::vec::Vec;

use crate::model::{ArrayLayout, ArrayShape, Dim, PrimitiveType, Shape, Tile, TileDim};

/// `minor_to_major` as positions, if it is a permutation of `0..rank`.
pub(crate) fn as_permutation(minor_to_major: &[i64], rank: usize) -> Option<Vec<usize>> {
    if minor_to_major.len() != rank {
        return None;
    }
    let mut seen = vec![false; rank];
    minor_to_major
        .iter()
        .map(|&d| {
            let d = usize::try_from(d).ok().filter(|&d| d < rank)?;
            (!core::mem::replace(&mut seen[d], true)).then_some(d)
        })
        .collect()
}

/// The default layout for an array of `rank` dimensions: descending, `{rank-1,…,1,0}`
/// (XLA's `LayoutUtil::GetDefaultLayoutForRank`; `GetDefaultLayoutForR2()`, `R3()` and
/// `R4()` are ranks 2, 3 and 4).
///
/// ```
/// use xla_layout::layout_util::default_layout_for_rank;
/// assert_eq!(default_layout_for_rank(2).to_string(), "{1,0}");
/// assert_eq!(default_layout_for_rank(4).to_string(), "{3,2,1,0}");
/// ```
pub fn default_layout_for_rank(rank: usize) -> ArrayLayout {
    ArrayLayout::descending(rank)
}

/// The default layout of a shape (XLA's `LayoutUtil::GetDefaultLayoutForShape`): descending
/// for an array or buffer, the empty layout for `token[]` and `opaque[]`, and `None` for a
/// tuple (XLA CHECK-fails: one layout cannot describe a tuple).
///
/// ```
/// use xla_layout::{layout_util::default_layout_for_shape, ArrayLayout, Shape};
/// let s: Shape = "f32[10,20,30]{0,1,2}".parse().unwrap();
/// assert_eq!(default_layout_for_shape(&s), Some(ArrayLayout::new([2, 1, 0])));
/// assert_eq!(default_layout_for_shape(&Shape::Token), Some(ArrayLayout::default()));
/// assert_eq!(default_layout_for_shape(&Shape::Tuple(vec![])), None);
/// ```
pub fn default_layout_for_shape(shape: &Shape) -> Option<ArrayLayout> {
    match shape {
        Shape::Array(a) => Some(default_layout_for_rank(a.rank())),
        Shape::Buffer(a) => Some(default_layout_for_rank(a.rank())),
        Shape::Token | Shape::Opaque => Some(ArrayLayout::default()),
        Shape::Tuple(_) => None,
    }
}

/// True when minor_to_major never increases (XLA's `LayoutUtil::HasDescendingLayout`).
///
/// Like XLA, this only tests the order, so it is the same test as
/// [`is_monotonic_with_dim0_major`]: `{3,1}` and `{1,1}` pass although they are not
/// `{n-1,…,0}`.
///
/// ```
/// use xla_layout::{layout_util::has_descending_layout, ArrayLayout};
/// assert!(has_descending_layout(&ArrayLayout::new([2, 1, 0])));
/// assert!(!has_descending_layout(&ArrayLayout::new([0, 1])));
/// assert!(has_descending_layout(&ArrayLayout::new([3, 1]))); // order only
/// ```
pub fn has_descending_layout(layout: &ArrayLayout) -> bool {
    layout.minor_to_major.is_sorted_by(|a, b| a >= b)
}

/// True when minor_to_major never decreases (XLA's `LayoutUtil::HasAscendingLayout`).
///
/// Like XLA, this only tests the order: it is the same test as [`is_monotonic_with_dim0_minor`].
///
/// ```
/// use xla_layout::{layout_util::has_ascending_layout, ArrayLayout};
/// assert!(has_ascending_layout(&ArrayLayout::new([0, 1, 2])));
/// assert!(!has_ascending_layout(&ArrayLayout::new([1, 0])));
/// ```
pub fn has_ascending_layout(layout: &ArrayLayout) -> bool {
    layout.minor_to_major.is_sorted()
}

/// True when dimension 0 is the most major and the order is monotonic ("row-major", the
/// default; XLA's `LayoutUtil::IsMonotonicWithDim0Major`). True for rank 0 and 1.
///
/// ```
/// use xla_layout::{layout_util::is_monotonic_with_dim0_major, ArrayLayout};
/// assert!(is_monotonic_with_dim0_major(&ArrayLayout::new([1, 0])));
/// assert!(is_monotonic_with_dim0_major(&ArrayLayout::new([0])));
/// assert!(!is_monotonic_with_dim0_major(&ArrayLayout::new([1, 2, 0])));
/// ```
pub fn is_monotonic_with_dim0_major(layout: &ArrayLayout) -> bool {
    has_descending_layout(layout)
}

/// True when dimension 0 is the most minor and the order is monotonic ("column-major"; XLA's
/// `LayoutUtil::IsMonotonicWithDim0Minor`). True for rank 0 and 1.
///
/// ```
/// use xla_layout::{layout_util::is_monotonic_with_dim0_minor, ArrayLayout};
/// assert!(is_monotonic_with_dim0_minor(&ArrayLayout::new([0, 1])));
/// assert!(is_monotonic_with_dim0_minor(&ArrayLayout::new([])));
/// assert!(!is_monotonic_with_dim0_minor(&ArrayLayout::new([1, 0])));
/// ```
pub fn is_monotonic_with_dim0_minor(layout: &ArrayLayout) -> bool {
    has_ascending_layout(layout)
}

/// The logical dimension at minor position `i`: `minor_to_major[i]` (XLA's
/// `LayoutUtil::Minor`). `None` when `i` is out of range.
///
/// ```
/// use xla_layout::{layout_util::minor, ArrayLayout};
/// let l = ArrayLayout::new([3, 0, 2, 1]);
/// assert_eq!(minor(&l, 0), Some(3));
/// assert_eq!(minor(&l, 4), None);
/// ```
pub fn minor(layout: &ArrayLayout, i: usize) -> Option<i64> {
    layout.minor_to_major.get(i).copied()
}

/// The logical dimension at major position `i` (0 = most major): `minor_to_major[rank-1-i]`
/// (XLA's `LayoutUtil::Major`). `None` when `i` is out of range.
///
/// ```
/// use xla_layout::{layout_util::major, ArrayLayout};
/// let l = ArrayLayout::new([3, 0, 2, 1]);
/// assert_eq!(major(&l, 0), Some(1));
/// assert_eq!(major(&l, 3), Some(3));
/// ```
pub fn major(layout: &ArrayLayout, i: usize) -> Option<i64> {
    let n = layout.minor_to_major.len();
    i.checked_add(1)
        .and_then(|j| n.checked_sub(j))
        .and_then(|j| minor(layout, j))
}

/// For each logical dimension, its physical position counted from the most major (XLA's
/// `LayoutUtil::MakeLogicalToPhysical`). `None` unless minor_to_major is a permutation of
/// `0..rank`.
///
/// ```
/// use xla_layout::{layout_util::make_logical_to_physical, ArrayLayout};
/// // f32[8,100,100,3]{3,0,2,1}: physical order, major to minor, is dims 1, 2, 0, 3.
/// assert_eq!(make_logical_to_physical(&ArrayLayout::new([3, 0, 2, 1])), Some(vec![2, 0, 1, 3]));
/// assert_eq!(make_logical_to_physical(&ArrayLayout::new([0, 0])), None);
/// ```
pub fn make_logical_to_physical(layout: &ArrayLayout) -> Option<Vec<usize>> {
    let m2m = as_permutation(&layout.minor_to_major, layout.minor_to_major.len())?;
    let n = m2m.len();
    let mut logical_to_physical = vec![0; n];
    for (physical, &logical) in m2m.iter().rev().enumerate() {
        logical_to_physical[logical] = physical;
    }
    Some(logical_to_physical)
}

/// Moves `dim` to the most-major end of minor_to_major, keeping every other attribute
/// (XLA's `LayoutUtil::MoveDimToMajor`).
///
/// As in XLA, a dimension that is not in minor_to_major is appended.
///
/// ```
/// use xla_layout::{layout_util::move_dim_to_major, ArrayLayout, Tile};
/// let l = ArrayLayout::new([2, 1, 0]).with_tiles([Tile::new([8, 128])]);
/// assert_eq!(move_dim_to_major(&l, 1).to_string(), "{2,0,1:T(8,128)}");
/// assert_eq!(move_dim_to_major(&l, 0), l);
/// ```
pub fn move_dim_to_major(layout: &ArrayLayout, dim: usize) -> ArrayLayout {
    let dim = i64::try_from(dim).unwrap_or(i64::MAX);
    if layout.minor_to_major.last() == Some(&dim) {
        return layout.clone();
    }
    let mut out = layout.clone();
    out.minor_to_major.retain(|&d| d != dim);
    out.minor_to_major.push(dim);
    out
}

/// Moves `dim` to the most-minor end of minor_to_major, keeping every other attribute
/// (XLA's `LayoutUtil::MoveDimToMinor`).
///
/// As in XLA, a dimension that is not in minor_to_major is prepended.
///
/// ```
/// use xla_layout::{layout_util::move_dim_to_minor, ArrayLayout};
/// let l = ArrayLayout::new([2, 0, 3, 1]);
/// assert_eq!(move_dim_to_minor(&l, 3), ArrayLayout::new([3, 2, 0, 1]));
/// assert_eq!(move_dim_to_minor(&l, 2), l);
/// ```
pub fn move_dim_to_minor(layout: &ArrayLayout, dim: usize) -> ArrayLayout {
    let dim = i64::try_from(dim).unwrap_or(i64::MAX);
    if layout.minor_to_major.first() == Some(&dim) {
        return layout.clone();
    }
    let mut out = layout.clone();
    out.minor_to_major.retain(|&d| d != dim);
    out.minor_to_major.insert(0, dim);
    out
}

/// True when `dims` sit next to each other in minor_to_major, in any order (XLA's
/// `LayoutUtil::AreDimensionsConsecutive`).
///
/// XLA's quirk is kept: a dimension missing from the layout counts as position `rank`, one
/// past the most major, so `{1,0}` with dims `[0, 7]` is "consecutive".
///
/// ```
/// use xla_layout::{layout_util::are_dimensions_consecutive, ArrayLayout};
/// let l = ArrayLayout::new([2, 0, 3, 1]);
/// assert!(are_dimensions_consecutive(&l, &[3, 0]));
/// assert!(!are_dimensions_consecutive(&l, &[2, 3]));
/// assert!(are_dimensions_consecutive(&ArrayLayout::new([1, 0]), &[0, 7]));
/// ```
pub fn are_dimensions_consecutive(layout: &ArrayLayout, dims: &[usize]) -> bool {
    let m2m = &layout.minor_to_major;
    let mut positions: Vec<usize> = dims
        .iter()
        .map(|&d| {
            m2m.iter()
                .position(|&x| i64::try_from(d) == Ok(x))
                .unwrap_or(m2m.len())
        })
        .collect();
    positions.sort_unstable();
    positions.windows(2).all(|w| w[1] - w[0] == 1)
}

/// True when applying `tiles` to physical dimensions `dims` (major to minor) does not change
/// the order of the elements in memory, i.e. the tiling is a no-op (XLA's
/// `LayoutUtil::IsUntiledLayout`).
///
/// A dimension must be a multiple of its tile dimension, and once a tile dimension other than
/// 1 has been seen, the more-minor dimensions of that tile must fit in one tile. Beyond XLA:
/// a tile of higher rank than the current shape sees the missing major dimensions as size 1
/// (XLA CHECK-fails), and a `*` or non-positive tile dimension gives `false` (XLA returns
/// `false` or crashes).
///
/// ```
/// use xla_layout::{layout_util::is_untiled_layout, Tile};
/// assert!(is_untiled_layout(&[Tile::new([8, 128])], &[24, 128]));
/// assert!(is_untiled_layout(&[Tile::new([1, 128])], &[4, 256]));
/// assert!(!is_untiled_layout(&[Tile::new([8, 128])], &[2, 3, 4]));
/// ```
pub fn is_untiled_layout(tiles: &[Tile], dims: &[i64]) -> bool {
    let mut current = dims.to_vec();
    for tile in tiles {
        let k = tile.0.len();
        if k > current.len() {
            let mut padded = vec![1; k - current.len()];
            padded.extend_from_slice(&current);
            current = padded;
        }
        let start = current.len() - k;
        let mut outer = Vec::with_capacity(k);
        let mut inner = Vec::with_capacity(k);
        let mut allow_multiple_tiles = true;
        for (&d, &td) in current[start..].iter().zip(&tile.0) {
            let TileDim::Size(t) = td else {
                return false;
            };
            if t <= 0 || d % t != 0 {
                return false;
            }
            if !allow_multiple_tiles && d / t != 1 {
                return false;
            }
            if t != 1 {
                allow_multiple_tiles = false;
            }
            outer.push(d / t);
            inner.push(t);
        }
        current.truncate(start);
        current.extend(outer);
        current.extend(inner);
    }
    true
}

/// XLA's stored value of a dimension: the size, the bound of `<=N`, or `i64::MIN`
/// (`Shape::kUnboundedSize`) for `?`.
pub(crate) fn dim_value(d: Dim) -> i64 {
    d.extent().unwrap_or(i64::MIN)
}

/// Static, non-negative dimension sizes (bounds for `<=N`); `None` for `?` or a negative size.
pub(crate) fn static_dims(a: &ArrayShape) -> Option<Vec<i64>> {
    a.dims
        .iter()
        .map(|d| d.extent().filter(|&n| n >= 0))
        .collect()
}

/// The element offset of a logical index using **only the first tile** (XLA's
/// `LayoutUtil::LinearIndex`, the helper behind `ShapeUtil::ArrayDataSize`).
///
/// It agrees with [`Plan::offset`](crate::Plan::offset) when there is at most one tile. XLA's
/// quirks are kept: a rank-1 array returns the index itself whatever its tiles (so
/// `u8[5]{0:T(2,1)}` maps 3 to 3, where the full model gives 6), and a first tile of higher
/// rank than the array counts all of its dimensions in the tile size.
///
/// `None` when the index is not one in-bounds entry per dimension (XLA does not check
/// bounds), the layout's minor_to_major is not a permutation, the first tile has a `*` or a
/// non-positive dimension, a dimension is `?`, or the result overflows `i64`.
///
/// ```
/// use xla_layout::{layout_util::linear_index, parse_array};
/// let a = parse_array("f32[3,5]{1,0:T(2,2)}").unwrap();
/// assert_eq!(linear_index(&a, &[2, 3]), Some(17));
/// let b = parse_array("f32[4,8]{1,0:T(2,4)(2,1)}").unwrap();
/// assert_eq!(linear_index(&b, &[1, 0]), Some(4)); // the (2,1) sub-tile is ignored
/// assert_eq!(linear_index(&a, &[3, 0]), None);
/// ```
pub fn linear_index(shape: &ArrayShape, indices: &[i64]) -> Option<i64> {
    let dims = static_dims(shape)?;
    let rank = dims.len();
    if indices.len() != rank || indices.iter().zip(&dims).any(|(&i, &d)| i < 0 || i >= d) {
        return None;
    }
    let m2m = as_permutation(&shape.layout.minor_to_major, rank)?;
    match rank {
        0 => return Some(0),
        1 => return Some(indices[0]),
        _ => {}
    }
    let tile: Vec<i64> = match shape.layout.tiles.first() {
        None => Vec::new(),
        Some(t) => {
            t.0.iter()
                .map(|td| match *td {
                    TileDim::Size(n) if n > 0 => Some(n),
                    _ => None,
                })
                .collect::<Option<_>>()?
        }
    };
    let mut linear: i64 = 0;
    let mut tile_multiplier = tile.iter().try_fold(1i64, |acc, &t| acc.checked_mul(t))?;
    let mut within_tile_multiplier: i64 = 1;
    for (minor, &logical) in m2m.iter().enumerate() {
        let size = dims[logical];
        let index = indices[logical];
        if minor < tile.len() {
            let t = tile[tile.len() - 1 - minor];
            let term = tile_multiplier
                .checked_mul(index / t)?
                .checked_add(within_tile_multiplier.checked_mul(index % t)?)?;
            linear = linear.checked_add(term)?;
            tile_multiplier = tile_multiplier.checked_mul(ceil_div(size, t))?;
            within_tile_multiplier = within_tile_multiplier.checked_mul(t)?;
        } else {
            linear = linear.checked_add(index.checked_mul(tile_multiplier)?)?;
            tile_multiplier = tile_multiplier.checked_mul(size)?;
        }
    }
    Some(linear)
}

/// `⌈n / d⌉` for `n >= 0`, `d > 0`.
pub(crate) fn ceil_div(n: i64, d: i64) -> i64 {
    n / d + i64::from(n % d != 0)
}

/// The size of the largest piece of logical dimension `dim` after its split config (XLA's
/// `LayoutUtil::MaxSplitSize`); the dimension size when no split config names it.
///
/// Split configs name physical dimensions counted from the most major; the first config
/// whose physical dimension maps to `dim` is used. `None` when `dim` is out of range, the
/// dimension is `?`, or a split config's physical dimension is outside `0..rank`. (XLA reads
/// split indices through a 32-bit `int`; this keeps all 64 bits.)
///
/// ```
/// use xla_layout::{layout_util::max_split_size, parse_array};
/// let a = parse_array("f32[150,200,100]{0,1,2:SC(0:30)(1:40,130)}").unwrap();
/// assert_eq!(max_split_size(&a, 0), Some(150));
/// assert_eq!(max_split_size(&a, 1), Some(90));
/// assert_eq!(max_split_size(&a, 2), Some(70));
/// ```
pub fn max_split_size(shape: &ArrayShape, dim: usize) -> Option<i64> {
    let size = shape.dims.get(dim)?.extent()?;
    let logical = i64::try_from(dim).ok()?;
    for config in &shape.layout.split_configs {
        let physical = usize::try_from(config.dimension).ok()?;
        if major(&shape.layout, physical)? != logical {
            continue;
        }
        let mut max_split: i64 = 0;
        let mut last: i64 = 0;
        for &index in &config.split_indices {
            max_split = max_split.max(index.checked_sub(last)?);
            last = index;
        }
        return Some(max_split.max(size.checked_sub(last)?));
    }
    Some(size)
}

/// The element count of the largest split piece: the product of [`max_split_size`] over all
/// dimensions (XLA's `LayoutUtil::MaxElementsInPerSplit`). `None` as for `max_split_size`,
/// or on overflow.
///
/// ```
/// use xla_layout::{layout_util::max_elements_in_per_split, parse_array};
/// let a = parse_array("f32[150,200,100]{0,1,2:SC(0:30)(1:40,130)}").unwrap();
/// assert_eq!(max_elements_in_per_split(&a), Some(150 * 90 * 70));
/// ```
pub fn max_elements_in_per_split(shape: &ArrayShape) -> Option<i64> {
    (0..shape.rank()).try_fold(1i64, |acc, d| acc.checked_mul(max_split_size(shape, d)?))
}

/// The memory space `S(n)` of an array or buffer; 0 (`kDefaultMemorySpace`) for shapes
/// without a layout: tuples, `token[]` and `opaque[]` (XLA's `LayoutUtil::MemorySpace`).
///
/// ```
/// use xla_layout::{layout_util::memory_space, Shape};
/// let s: Shape = "bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}".parse().unwrap();
/// assert_eq!(memory_space(&s), 1);
/// assert_eq!(memory_space(&Shape::Token), 0);
/// ```
pub fn memory_space(shape: &Shape) -> i64 {
    match shape {
        Shape::Array(a) => a.layout.memory_space,
        Shape::Buffer(a) => a.layout.memory_space,
        Shape::Tuple(_) | Shape::Token | Shape::Opaque => 0,
    }
}

/// True when `byte_strides` are exactly the dense row-major strides of an array of `dims`
/// with elements of `element_type` (XLA's `LayoutUtil::ByteStridesIsMajorToMinor`).
///
/// The most-minor stride must be the type's byte width and each other stride the next one
/// times its dimension. `false` when the lengths differ (XLA CHECK-fails).
///
/// ```
/// use xla_layout::{layout_util::byte_strides_is_major_to_minor, PrimitiveType};
/// let dims = [8, 9, 10, 11];
/// assert!(byte_strides_is_major_to_minor(&[3960, 440, 44, 4], &dims, PrimitiveType::F32));
/// assert!(!byte_strides_is_major_to_minor(&[1880, 440, 44, 4], &dims, PrimitiveType::F32));
/// ```
pub fn byte_strides_is_major_to_minor(
    byte_strides: &[i64],
    dims: &[i64],
    element_type: PrimitiveType,
) -> bool {
    if byte_strides.len() != dims.len() {
        return false;
    }
    let mut stride = i64::from(element_type.byte_width());
    for (i, (&s, &d)) in byte_strides.iter().zip(dims).enumerate().rev() {
        if s != stride {
            return false;
        }
        if i > 0 {
            match stride.checked_mul(d) {
                Some(next) => stride = next,
                None => return false,
            }
        }
    }
    true
}

/// True if any array or buffer in the shape has an `E(n)` other than 0 (XLA's
/// `LayoutUtil::HasCustomElementSizeInBits`).
///
/// ```
/// use xla_layout::{layout_util::has_custom_element_size_in_bits, Shape};
/// let s: Shape = "(f32[2]{0}, s4[8]{0:E(4)})".parse().unwrap();
/// assert!(has_custom_element_size_in_bits(&s));
/// assert!(!has_custom_element_size_in_bits(&"f32[2]".parse().unwrap()));
/// ```
pub fn has_custom_element_size_in_bits(shape: &Shape) -> bool {
    match shape {
        Shape::Array(a) => a.layout.element_size_in_bits != 0,
        Shape::Buffer(a) => a.layout.element_size_in_bits != 0,
        Shape::Tuple(elements) => elements.iter().any(has_custom_element_size_in_bits),
        Shape::Token | Shape::Opaque => false,
    }
}

/// Removes the tiles of every array and buffer in the shape, recursively (XLA's
/// `LayoutUtil::ClearTiles`).
///
/// ```
/// use xla_layout::{layout_util::clear_tiles, Shape};
/// let mut s: Shape = "(f32[8,4]{1,0:T(2,2)S(1)}, token[])".parse().unwrap();
/// clear_tiles(&mut s);
/// assert_eq!(s.to_string(), "(f32[8,4]{1,0:S(1)}, token[])");
/// ```
pub fn clear_tiles(shape: &mut Shape) {
    match shape {
        Shape::Array(a) => a.layout.tiles.clear(),
        Shape::Buffer(a) => a.layout.tiles.clear(),
        Shape::Tuple(elements) => elements.iter_mut().for_each(clear_tiles),
        Shape::Token | Shape::Opaque => {}
    }
}

/// Configurable layout equality (XLA's `Layout::Equal` functor).
///
/// By default every attribute XLA compares must match: minor_to_major, tiles, `L`, `E`,
/// `S` and split configs. Like XLA's, it **never compares `M(n)`**
/// (`dynamic_shape_metadata_prefix_bytes`), and it does not compare the legacy padding
/// fields, which XLA's layout lost in 2018. minor_to_major is always compared.
///
/// ```
/// use xla_layout::{layout_util::LayoutEq, ArrayLayout, Tile};
/// let tiled = ArrayLayout::new([0, 1, 2]).with_tiles([Tile::new([42, 44])]);
/// let plain = ArrayLayout::new([0, 1, 2]);
/// assert!(!LayoutEq::new().equal(&tiled, &plain));
/// assert!(LayoutEq::new().ignore_tiles().equal(&tiled, &plain));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LayoutEq {
    ignore_tiles: bool,
    ignore_tail_padding: bool,
    ignore_element_size: bool,
    ignore_memory_space: bool,
    ignore_split_configs: bool,
}

impl LayoutEq {
    /// Full equality of everything XLA compares (`Layout::Equal()`).
    ///
    /// ```
    /// use xla_layout::{layout_util::LayoutEq, ArrayLayout};
    /// assert!(LayoutEq::new().equal(&ArrayLayout::new([1, 0]), &ArrayLayout::new([1, 0])));
    /// // M(n) is not compared, as in XLA.
    /// let m = ArrayLayout::new([1, 0]).with_metadata_prefix_bytes(1024);
    /// assert!(LayoutEq::new().equal(&m, &ArrayLayout::new([1, 0])));
    /// ```
    pub const fn new() -> Self {
        LayoutEq {
            ignore_tiles: false,
            ignore_tail_padding: false,
            ignore_element_size: false,
            ignore_memory_space: false,
            ignore_split_configs: false,
        }
    }

    /// Do not compare tiles (`.IgnoreTiles()`).
    ///
    /// ```
    /// use xla_layout::{layout_util::LayoutEq, ArrayLayout, Tile};
    /// let t = ArrayLayout::new([1, 0]).with_tiles([Tile::new([8, 128])]);
    /// assert!(LayoutEq::new().ignore_tiles().equal(&t, &ArrayLayout::new([1, 0])));
    /// ```
    pub const fn ignore_tiles(mut self) -> Self {
        self.ignore_tiles = true;
        self
    }

    /// Do not compare `L(n)` (`.IgnoreTailPaddingAlignmentInElements()`).
    ///
    /// ```
    /// use xla_layout::{layout_util::LayoutEq, ArrayLayout};
    /// let l = ArrayLayout::new([0]).with_tail_padding_alignment(1024);
    /// assert!(LayoutEq::new().ignore_tail_padding().equal(&l, &ArrayLayout::new([0])));
    /// ```
    pub const fn ignore_tail_padding(mut self) -> Self {
        self.ignore_tail_padding = true;
        self
    }

    /// Do not compare `E(n)` (`.IgnoreElementSize()`).
    ///
    /// ```
    /// use xla_layout::{layout_util::LayoutEq, ArrayLayout};
    /// let a = ArrayLayout::new([0, 1, 2]).with_element_size_in_bits(32);
    /// let b = ArrayLayout::new([0, 1, 2]).with_element_size_in_bits(1);
    /// assert!(LayoutEq::new().ignore_element_size().equal(&a, &b));
    /// ```
    pub const fn ignore_element_size(mut self) -> Self {
        self.ignore_element_size = true;
        self
    }

    /// Do not compare `S(n)` (`.IgnoreMemorySpace()`).
    ///
    /// ```
    /// use xla_layout::{layout_util::LayoutEq, ArrayLayout};
    /// let a = ArrayLayout::new([0, 1, 2]).with_memory_space(1);
    /// let b = ArrayLayout::new([0, 1, 2]).with_memory_space(3);
    /// assert!(LayoutEq::new().ignore_memory_space().equal(&a, &b));
    /// ```
    pub const fn ignore_memory_space(mut self) -> Self {
        self.ignore_memory_space = true;
        self
    }

    /// Do not compare split configs (`.IgnoreSplitConfigs()`).
    ///
    /// ```
    /// use xla_layout::{layout_util::LayoutEq, ArrayLayout, SplitConfig};
    /// let a = ArrayLayout::new([0, 1, 2]).with_split_configs([SplitConfig::new(0, [2])]);
    /// let b = ArrayLayout::new([0, 1, 2]).with_split_configs([SplitConfig::new(0, [3])]);
    /// assert!(LayoutEq::new().ignore_split_configs().equal(&a, &b));
    /// ```
    pub const fn ignore_split_configs(mut self) -> Self {
        self.ignore_split_configs = true;
        self
    }

    /// Compare minor_to_major only (`.MinorToMajorOnly()`): ignores tiles, `L`, `E`, `S` and
    /// split configs.
    ///
    /// ```
    /// use xla_layout::{layout_util::LayoutEq, ArrayLayout, SplitConfig};
    /// let a = ArrayLayout::new([0, 1, 2]).with_split_configs([SplitConfig::new(0, [2])]);
    /// assert!(LayoutEq::new().minor_to_major_only().equal(&a, &ArrayLayout::new([0, 1, 2])));
    /// assert!(!LayoutEq::new().minor_to_major_only().equal(&a, &ArrayLayout::new([2, 1, 0])));
    /// ```
    pub const fn minor_to_major_only(self) -> Self {
        self.ignore_tiles()
            .ignore_tail_padding()
            .ignore_element_size()
            .ignore_memory_space()
            .ignore_split_configs()
    }

    /// Compares two layouts under this configuration (XLA's `Layout::Equal::operator()`).
    ///
    /// ```
    /// use xla_layout::{layout_util::LayoutEq, ArrayLayout};
    /// let eq = LayoutEq::new().ignore_memory_space();
    /// assert!(eq.equal(&ArrayLayout::new([1, 0]).with_memory_space(5), &ArrayLayout::new([1, 0])));
    /// assert!(!eq.equal(&ArrayLayout::new([1, 0]), &ArrayLayout::new([0, 1])));
    /// ```
    pub fn equal(&self, lhs: &ArrayLayout, rhs: &ArrayLayout) -> bool {
        lhs.minor_to_major == rhs.minor_to_major
            && (self.ignore_tiles || lhs.tiles == rhs.tiles)
            && (self.ignore_tail_padding
                || lhs.tail_padding_alignment_in_elements == rhs.tail_padding_alignment_in_elements)
            && (self.ignore_element_size || lhs.element_size_in_bits == rhs.element_size_in_bits)
            && (self.ignore_memory_space || lhs.memory_space == rhs.memory_space)
            && (self.ignore_split_configs || lhs.split_configs == rhs.split_configs)
    }
}
