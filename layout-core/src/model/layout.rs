//! The layout model: `{minor_to_major : tiles, L, E, S, SC, M}`.
//!
//! Fields hold XLA's raw `int64` values, so a hand-built layout can be invalid just as an
//! XLA `Layout` can; [`ArrayShape::validate`](crate::ArrayShape::validate) says what is wrong.

use alloc::vec::Vec;

/// One dimension of a [`Tile`]: a size, or `*` (XLA's `kCombineDimension`), which merges
/// this physical dimension into the next more-minor one before tiling.
///
/// ```
/// use xla_layout::TileDim;
/// assert_eq!(TileDim::Size(128).to_string(), "128");
/// assert_eq!(TileDim::Combine.to_string(), "*");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TileDim {
    /// A tile extent; valid when positive.
    Size(i64),
    /// `*`: combine with the next dimension.
    Combine,
}

/// A tile such as `(8,128)`. Its dimensions apply to the most-minor physical dimensions of
/// the shape the previous tiles produced.
///
/// ```
/// use xla_layout::{Tile, TileDim};
/// let t = Tile::new([8, 128]);
/// assert_eq!(t.to_string(), "(8,128)");
/// assert_eq!(t.dims(), &[TileDim::Size(8), TileDim::Size(128)]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Tile(pub Vec<TileDim>);

impl Tile {
    /// A tile of plain sizes.
    ///
    /// ```
    /// assert_eq!(xla_layout::Tile::new([2, 1]).to_string(), "(2,1)");
    /// ```
    pub fn new(dims: impl IntoIterator<Item = i64>) -> Self {
        Tile(dims.into_iter().map(TileDim::Size).collect())
    }

    /// A tile from explicit [`TileDim`]s (to write `*`).
    ///
    /// ```
    /// use xla_layout::{Tile, TileDim::{Combine, Size}};
    /// assert_eq!(Tile::from_dims([Size(2), Combine, Size(128)]).to_string(), "(2,*,128)");
    /// ```
    pub fn from_dims(dims: impl IntoIterator<Item = TileDim>) -> Self {
        Tile(dims.into_iter().collect())
    }

    /// The tile's dimensions, major to minor.
    ///
    /// ```
    /// assert_eq!(xla_layout::Tile::new([4]).dims().len(), 1);
    /// ```
    pub fn dims(&self) -> &[TileDim] {
        &self.0
    }
}

/// A split config `(dimension:i1,i2,...)`: splits **physical** dimension `dimension`
/// (0 = most major) at the given element indices.
///
/// ```
/// let sc = xla_layout::SplitConfig::new(1, [512]);
/// assert_eq!(sc.to_string(), "(1:512)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct SplitConfig {
    /// Physical dimension, numbered major-first.
    pub dimension: i64,
    /// Indices at which the dimension is split; valid when positive, strictly increasing and
    /// below the dimension size.
    pub split_indices: Vec<i64>,
}

impl SplitConfig {
    /// Makes a split config.
    ///
    /// ```
    /// let sc = xla_layout::SplitConfig::new(2, [1024, 2048]);
    /// assert_eq!(sc.split_indices, vec![1024, 2048]);
    /// ```
    pub fn new(dimension: i64, split_indices: impl IntoIterator<Item = i64>) -> Self {
        SplitConfig {
            dimension,
            split_indices: split_indices.into_iter().collect(),
        }
    }
}

/// The value of padding slots in the legacy `padded_dimensions` layout field
/// (`PaddingValue` in the 2017 `xla_data.proto`). Never part of the text form.
///
/// ```
/// use xla_layout::PaddingValue;
/// assert_eq!(PaddingValue::default(), PaddingValue::Unknown);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PaddingValue {
    /// Unspecified contents (XLA's `UNKNOWN_PAD` / `INVALID_PAD`).
    #[default]
    Unknown,
    /// Zero.
    Zero,
    /// One.
    One,
    /// The lowest value of the type.
    Lowest,
    /// The highest value of the type.
    Highest,
}

/// An array layout: minor_to_major plus the optional attributes of XLA's text form, and the
/// legacy padding fields of the 2017 layout proto.
///
/// [`ArrayLayout::default()`] is XLA's empty layout (scalar layout, all attributes at their
/// defaults: `L(1)`, `E(0)`, `S(0)`, `M(0)`).
///
/// ```
/// use xla_layout::{ArrayLayout, Tile};
/// let l = ArrayLayout::new([1, 0]).with_tiles([Tile::new([8, 128])]).with_memory_space(1);
/// assert_eq!(l.to_string(), "{1,0:T(8,128)S(1)}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArrayLayout {
    /// Logical dimension numbers from most minor (fastest varying) to most major.
    pub minor_to_major: Vec<i64>,
    /// `T(...)(...)`: tiles, applied in order.
    pub tiles: Vec<Tile>,
    /// `L(n)`: the tiled element count is rounded up to a multiple of n. Default 1.
    pub tail_padding_alignment_in_elements: i64,
    /// `E(n)`: storage bits per element; 0 means the type's byte width.
    pub element_size_in_bits: i64,
    /// `S(n)`: memory space; 0 is device memory.
    pub memory_space: i64,
    /// `SC(...)`: split configs.
    pub split_configs: Vec<SplitConfig>,
    /// `M(n)`: bytes of dynamic-shape metadata before the data; 0 for none.
    pub dynamic_shape_metadata_prefix_bytes: i64,
    /// Legacy (pre-2018) padded size of every dimension, indexed by logical dimension; empty
    /// for none. Never part of the text form.
    pub padded_dimensions: Vec<i64>,
    /// Legacy value of the padding slots of `padded_dimensions`.
    pub padding_value: PaddingValue,
}

impl Default for ArrayLayout {
    fn default() -> Self {
        ArrayLayout {
            minor_to_major: Vec::new(),
            tiles: Vec::new(),
            tail_padding_alignment_in_elements: 1,
            element_size_in_bits: 0,
            memory_space: 0,
            split_configs: Vec::new(),
            dynamic_shape_metadata_prefix_bytes: 0,
            padded_dimensions: Vec::new(),
            padding_value: PaddingValue::Unknown,
        }
    }
}

impl ArrayLayout {
    /// A layout with the given minor_to_major and every attribute at its default
    /// (XLA's `LayoutUtil::MakeLayout(minor_to_major)`).
    ///
    /// ```
    /// assert_eq!(xla_layout::ArrayLayout::new([0, 1]).to_string(), "{0,1}");
    /// ```
    pub fn new(minor_to_major: impl IntoIterator<Item = i64>) -> Self {
        ArrayLayout {
            minor_to_major: minor_to_major.into_iter().collect(),
            ..ArrayLayout::default()
        }
    }

    /// The default (descending, "row-major") layout `{rank-1,...,1,0}`
    /// (XLA's `LayoutUtil::MakeDescendingLayout`).
    ///
    /// ```
    /// assert_eq!(xla_layout::ArrayLayout::descending(3).to_string(), "{2,1,0}");
    /// assert_eq!(xla_layout::ArrayLayout::descending(0).to_string(), "{}");
    /// ```
    pub fn descending(rank: usize) -> Self {
        ArrayLayout::new((0..rank as u64).rev().map(|d| d as i64))
    }

    /// The ascending ("column-major") layout `{0,1,...,rank-1}`
    /// (XLA's `LayoutUtil::MakeAscendingLayout`).
    ///
    /// ```
    /// assert_eq!(xla_layout::ArrayLayout::ascending(3).to_string(), "{0,1,2}");
    /// ```
    pub fn ascending(rank: usize) -> Self {
        ArrayLayout::new((0..rank as u64).map(|d| d as i64))
    }

    /// A layout from the major-to-minor order (JAX's convention), i.e. minor_to_major reversed
    /// (XLA's `LayoutUtil::MakeLayoutFromMajorToMinor`).
    ///
    /// ```
    /// assert_eq!(xla_layout::ArrayLayout::from_major_to_minor([0, 2, 1]).to_string(), "{1,2,0}");
    /// ```
    pub fn from_major_to_minor(major_to_minor: impl IntoIterator<Item = i64>) -> Self {
        let mut m2m: Vec<i64> = major_to_minor.into_iter().collect();
        m2m.reverse();
        ArrayLayout::new(m2m)
    }

    /// Sets the tiles.
    ///
    /// ```
    /// use xla_layout::{ArrayLayout, Tile};
    /// let l = ArrayLayout::new([0]).with_tiles([Tile::new([1024]), Tile::new([128])]);
    /// assert_eq!(l.to_string(), "{0:T(1024)(128)}");
    /// ```
    pub fn with_tiles(mut self, tiles: impl IntoIterator<Item = Tile>) -> Self {
        self.tiles = tiles.into_iter().collect();
        self
    }

    /// Sets `L(n)`, the tail padding alignment in elements.
    ///
    /// ```
    /// let l = xla_layout::ArrayLayout::new([0]).with_tail_padding_alignment(1024);
    /// assert_eq!(l.to_string(), "{0:L(1024)}");
    /// ```
    pub fn with_tail_padding_alignment(mut self, elements: i64) -> Self {
        self.tail_padding_alignment_in_elements = elements;
        self
    }

    /// Sets `E(n)`, the element size in bits.
    ///
    /// ```
    /// assert_eq!(xla_layout::ArrayLayout::new([0]).with_element_size_in_bits(4).to_string(), "{0:E(4)}");
    /// ```
    pub fn with_element_size_in_bits(mut self, bits: i64) -> Self {
        self.element_size_in_bits = bits;
        self
    }

    /// Sets `S(n)`, the memory space.
    ///
    /// ```
    /// assert_eq!(xla_layout::ArrayLayout::new([0]).with_memory_space(5).to_string(), "{0:S(5)}");
    /// ```
    pub fn with_memory_space(mut self, memory_space: i64) -> Self {
        self.memory_space = memory_space;
        self
    }

    /// Sets the split configs.
    ///
    /// ```
    /// use xla_layout::{ArrayLayout, SplitConfig};
    /// let l = ArrayLayout::new([1, 0]).with_split_configs([SplitConfig::new(0, [10])]);
    /// assert_eq!(l.to_string(), "{1,0:SC(0:10)}");
    /// ```
    pub fn with_split_configs(mut self, configs: impl IntoIterator<Item = SplitConfig>) -> Self {
        self.split_configs = configs.into_iter().collect();
        self
    }

    /// Sets `M(n)`, the dynamic-shape metadata prefix in bytes.
    ///
    /// ```
    /// assert_eq!(xla_layout::ArrayLayout::new([0]).with_metadata_prefix_bytes(1024).to_string(), "{0:M(1024)}");
    /// ```
    pub fn with_metadata_prefix_bytes(mut self, bytes: i64) -> Self {
        self.dynamic_shape_metadata_prefix_bytes = bytes;
        self
    }

    /// Sets the legacy `padded_dimensions` (one padded size per logical dimension) and
    /// `padding_value`. These never appear in text.
    ///
    /// ```
    /// use xla_layout::{ArrayLayout, PaddingValue};
    /// let l = ArrayLayout::new([0, 1]).with_padding([3, 5], PaddingValue::Zero);
    /// assert_eq!(l.padded_dimensions, vec![3, 5]);
    /// ```
    pub fn with_padding(
        mut self,
        padded_dimensions: impl IntoIterator<Item = i64>,
        value: PaddingValue,
    ) -> Self {
        self.padded_dimensions = padded_dimensions.into_iter().collect();
        self.padding_value = value;
        self
    }

    /// True when any text attribute differs from its default, i.e. when the printed layout
    /// has a `:` part.
    ///
    /// ```
    /// use xla_layout::ArrayLayout;
    /// assert!(!ArrayLayout::new([1, 0]).has_attributes());
    /// assert!(ArrayLayout::default().with_memory_space(2).has_attributes());
    /// ```
    pub fn has_attributes(&self) -> bool {
        !self.tiles.is_empty()
            || self.tail_padding_alignment_in_elements != 1
            || self.element_size_in_bits != 0
            || self.memory_space != 0
            || !self.split_configs.is_empty()
            || self.dynamic_shape_metadata_prefix_bytes > 0
    }
}
