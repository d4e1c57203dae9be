//! Where an array's memory goes: its unpadded bytes against the bytes its layout occupies, and
//! which dimension's padding makes the difference, in the terms of XLA's TPU out-of-memory
//! report ("Unpadded size", "Extra memory due to padding", "(N.Nx expansion)").
//!
//! ```
//! use xla_layout::{parse_array, xla::padding::padding};
//!
//! // An XLA TPU out-of-memory report: Size 32.00G, Unpadded size 1.00G, 32.0x expansion.
//! let p = padding(&parse_array("s32[8388608,8,4]{2,1,0:T(8,128)}").unwrap()).unwrap();
//! assert_eq!(p.unpadded_bytes, 1 << 30);
//! assert_eq!(p.bytes, 32 << 30);
//! assert_eq!(p.causes[0].to_string(), "dim 2: 4 padded to 128 by T(8,128)");
//! ```

use alloc::vec::Vec;
use core::fmt;

use crate::model::tiling::{checked_byte_size, element_bits, layout_extents, physical_order};
use crate::model::{ArrayShape, Tile, TileDim};

/// The memory of one array: unpadded against occupied bytes, and why they differ.
///
/// ```
/// use xla_layout::{parse_array, xla::padding::padding};
/// let p = padding(&parse_array("f32[3,5]{1,0:T(2,2)}").unwrap()).unwrap();
/// assert_eq!((p.unpadded_bytes, p.bytes), (60, 96)); // 15 elements in 24 slots
/// assert_eq!(p.causes.len(), 2);                     // 3 -> 4 and 5 -> 6
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Padding {
    /// Elements × storage bits, rounded up to whole bytes (XLA's `ByteSizeOfElements`):
    /// what the data needs with no layout padding.
    pub unpadded_bytes: u64,
    /// The bytes the layout occupies: every tile level, `L(n)`, `E(n)` and the `M(n)` prefix
    /// (the same figure as [`Plan::size_bytes`](crate::Plan::size_bytes)).
    pub bytes: u64,
    /// What adds the difference, most minor tile dimension first within each tile level.
    pub causes: Vec<Cause>,
}

impl Padding {
    /// `bytes - unpadded_bytes`: XLA's "Extra memory due to padding".
    ///
    /// ```
    /// use xla_layout::{parse_array, xla::padding::padding};
    /// let p = padding(&parse_array("f32[1024,245,64]{1,2,0:T(8,128)}").unwrap()).unwrap();
    /// assert_eq!(p.extra_bytes(), 67_108_864 - 64_225_280);
    /// ```
    pub fn extra_bytes(&self) -> u64 {
        self.bytes.saturating_sub(self.unpadded_bytes)
    }

    /// `bytes / unpadded_bytes`, XLA's "expansion" (printed with one decimal, `32.0x`); `None`
    /// for an array with no elements.
    ///
    /// ```
    /// use xla_layout::{parse_array, xla::padding::padding};
    /// let p = padding(&parse_array("u32[12582912,1]{1,0:T(8,128)}").unwrap()).unwrap();
    /// assert_eq!(p.expansion(), Some(128.0));
    /// ```
    pub fn expansion(&self) -> Option<f64> {
        // Exact integers below 2^53 convert exactly; above, the ratio is still within one ulp.
        (self.unpadded_bytes > 0).then(|| self.bytes as f64 / self.unpadded_bytes as f64)
    }
}

/// One reason an array occupies more than its unpadded bytes.
///
/// ```
/// use xla_layout::{parse_array, xla::padding::{padding, Cause}};
/// let p = padding(&parse_array("f32[1000]{0:L(1024)}").unwrap()).unwrap();
/// assert_eq!(p.causes, [Cause::TailPadding { elements: 1000, padded: 1024, alignment: 1024 }]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cause {
    /// A tile rounds an extent up to a multiple of its size.
    Tile {
        /// Which tile of the layout (0 is the first, `T(8,128)` in `T(8,128)(2,1)`).
        level: usize,
        /// The logical dimension rounded, when the first tile covers one dimension exactly;
        /// `None` for a dimension that the tile adds above the array's rank, a `*`-combined
        /// dimension, or a dimension inside an earlier tile.
        dim: Option<usize>,
        /// The extent before rounding.
        extent: u64,
        /// The extent after rounding.
        padded: u64,
        /// The tile that rounds it.
        tile: Tile,
    },
    /// `L(n)` rounds the element count up to a multiple of `n`.
    TailPadding {
        /// Elements (slots) before rounding.
        elements: u64,
        /// Elements after rounding.
        padded: u64,
        /// The `n` of `L(n)`.
        alignment: u64,
    },
    /// `M(n)`: `n` bytes of dynamic-shape metadata before the data.
    Metadata {
        /// The `n` of `M(n)`.
        bytes: u64,
    },
    /// Legacy `padded_dimensions` pad a dimension at its end.
    PaddedDimension {
        /// The logical dimension.
        dim: usize,
        /// The extent before padding.
        extent: u64,
        /// The padded extent.
        padded: u64,
    },
}

impl fmt::Display for Cause {
    /// XLA-style wording: `dim 1: 3 padded to 128 by T(8,128)`.
    ///
    /// ```
    /// use xla_layout::{parse_array, xla::padding::padding};
    /// let p = padding(&parse_array("f32[128]{0:T(8,128)L(2048)M(64)}").unwrap()).unwrap();
    /// let causes: Vec<String> = p.causes.iter().map(ToString::to_string).collect();
    /// assert_eq!(causes, [
    ///     "tile dim above the array's rank: 1 padded to 8 by T(8,128)",
    ///     "L(2048): 1024 elements rounded to 2048",
    ///     "M(64): 64 bytes of metadata",
    /// ]);
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cause::Tile {
                level,
                dim,
                extent,
                padded,
                tile,
            } => {
                match (dim, level) {
                    (Some(d), _) => write!(f, "dim {d}")?,
                    (None, 0) => f.write_str("tile dim above the array's rank")?,
                    (None, _) => write!(f, "inside tile {level}")?,
                }
                write!(f, ": {extent} padded to {padded} by ")?;
                if *level == 0 {
                    write!(f, "T{tile}")
                } else {
                    write!(f, "sub-tile {tile}")
                }
            }
            Cause::TailPadding {
                elements,
                padded,
                alignment,
            } => write!(f, "L({alignment}): {elements} elements rounded to {padded}"),
            Cause::Metadata { bytes } => write!(f, "M({bytes}): {bytes} bytes of metadata"),
            Cause::PaddedDimension {
                dim,
                extent,
                padded,
            } => write!(
                f,
                "dim {dim}: {extent} padded to {padded} (padded_dimensions)"
            ),
        }
    }
}

/// The memory of a valid array: unpadded bytes, occupied bytes and the causes of the
/// difference. `None` for an array without a static size (a `?` dimension) or one whose size
/// exceeds `i64::MAX` bytes (XLA's limit; the validator rejects such shapes when parsing).
///
/// ```
/// use xla_layout::{parse_array, xla::padding::padding};
/// let p = padding(&parse_array("bf16[2048,1,2048,128]{0,1,3,2:T(4,128)(2,1)}").unwrap()).unwrap();
/// assert_eq!((p.unpadded_bytes, p.bytes), (1 << 30, 4 << 30));
/// assert_eq!(p.causes.len(), 1);
/// assert_eq!(p.causes[0].to_string(), "dim 1: 1 padded to 4 by T(4,128)");
/// assert!(padding(&parse_array("f32[?,3]").unwrap()).is_none());
/// ```
pub fn padding(shape: &ArrayShape) -> Option<Padding> {
    let extents = layout_extents(shape)?;
    let layout = &shape.layout;
    let mut causes = Vec::new();
    let mut logical_elements: u64 = 1;
    for (dim, d) in shape.dims.iter().enumerate() {
        let e = u64::try_from(d.extent()?).ok()?;
        logical_elements = logical_elements.checked_mul(e)?;
        if extents[dim] > e {
            causes.push(Cause::PaddedDimension {
                dim,
                extent: e,
                padded: extents[dim],
            });
        }
    }
    let bits = u128::from(element_bits(shape));
    let unpadded = u64::try_from((u128::from(logical_elements) * bits).div_ceil(8)).ok()?;
    let bytes = checked_byte_size(shape)?;

    // Walk the tiles as the model expands them, tracking which logical dimension each entry
    // of the working shape still is (None once tiles have combined or split it).
    let order = physical_order(shape);
    let mut sizes: Vec<u64> = order.iter().map(|&d| extents[d]).collect();
    let mut origin: Vec<Option<usize>> = order.iter().map(|&d| Some(d)).collect();
    for (level, tile) in layout.tiles.iter().enumerate() {
        let k = tile.0.len();
        if k > sizes.len() {
            let by = k - sizes.len();
            sizes.splice(0..0, core::iter::repeat_n(1, by));
            origin.splice(0..0, core::iter::repeat_n(None, by));
        }
        let base = sizes.len() - k;
        let mut tile_sizes = Vec::with_capacity(k);
        for td in &tile.0 {
            match *td {
                TileDim::Combine => {
                    let at = base + tile_sizes.len();
                    sizes[at + 1] = sizes[at].checked_mul(sizes[at + 1])?;
                    sizes.remove(at);
                    origin.remove(at);
                    origin[at] = None;
                }
                TileDim::Size(t) => tile_sizes.push(u64::try_from(t).ok()?),
            }
        }
        let start = sizes.len() - tile_sizes.len();
        for (j, &t) in tile_sizes.iter().enumerate().rev() {
            let extent = sizes[start + j];
            let padded = extent.div_ceil(t).checked_mul(t)?;
            if padded > extent {
                causes.push(Cause::Tile {
                    level,
                    dim: origin[start + j],
                    extent,
                    padded,
                    tile: tile.clone(),
                });
            }
            sizes[start + j] = extent.div_ceil(t);
            origin[start + j] = None;
        }
        sizes.extend_from_slice(&tile_sizes);
        origin.extend(core::iter::repeat_n(None, tile_sizes.len()));
    }
    let slots = sizes.iter().try_fold(1u64, |acc, &s| acc.checked_mul(s))?;
    let alignment = u64::try_from(layout.tail_padding_alignment_in_elements).ok()?;
    if alignment > 1 {
        let padded = slots.div_ceil(alignment).checked_mul(alignment)?;
        if padded > slots {
            causes.push(Cause::TailPadding {
                elements: slots,
                padded,
                alignment,
            });
        }
    }
    let prefix = u64::try_from(layout.dynamic_shape_metadata_prefix_bytes).unwrap_or(0);
    if prefix > 0 {
        causes.push(Cause::Metadata { bytes: prefix });
    }
    Some(Padding {
        unpadded_bytes: unpadded,
        bytes,
        causes,
    })
}
