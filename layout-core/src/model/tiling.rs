//! The physical shape a layout gives an array: the tiles' expansion of the physical dims
//! (spec §8.2, with `*` and tiles of higher rank than the array), and the exact byte size that
//! follows from it with `L`, `E` and `M`. The validator checks sizes with it; the index plan
//! compiles offsets from it.

use alloc::vec;
use alloc::vec::Vec;

use crate::model::{ArrayShape, Tile, TileDim};

/// One step of the expansion of the physical shape by the tiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Prepend `by` zero indices (size-1 dims): a tile of higher rank than the shape.
    Pad { by: usize },
    /// `I[at+1] = I[at] * mult + I[at+1]`, then entry `at` is removed.
    Combine { at: usize, mult: u64 },
    /// Entries `start..` (of sizes `extents`) become `(i / t)` for each, then `(i % t)` for
    /// each.
    Tile {
        start: usize,
        sizes: Vec<u64>,
        extents: Vec<u64>,
    },
}

/// Expands physical sizes (major to minor) by `tiles`, returning the steps, the final sizes
/// and the widest the sizes got; `None` on arithmetic overflow. Tiles must be valid
/// (non-empty, positive or `*`, no trailing `*`). Linear in the total tile rank.
pub(crate) fn expand(mut sizes: Vec<u64>, tiles: &[Tile]) -> Option<(Vec<Step>, Vec<u64>, usize)> {
    let mut steps = Vec::new();
    let mut widest = sizes.len();
    for tile in tiles {
        let k = tile.0.len();
        if k > sizes.len() {
            let by = k - sizes.len();
            let mut padded = vec![1; by];
            padded.extend_from_slice(&sizes);
            sizes = padded;
            steps.push(Step::Pad { by });
        }
        let base = sizes.len() - k;
        // The tile's region, with each run of `*` merged into the entry after it.
        let region = sizes.split_off(base);
        let mut tile_sizes = Vec::with_capacity(k);
        let mut carry: Option<u64> = None;
        for (i, td) in tile.0.iter().enumerate() {
            let value = match carry.take() {
                Some(c) => c.checked_mul(region[i])?,
                None => region[i],
            };
            match *td {
                TileDim::Combine => {
                    let mult = *region.get(i + 1)?;
                    steps.push(Step::Combine {
                        at: base + tile_sizes.len(),
                        mult,
                    });
                    carry = Some(value);
                }
                TileDim::Size(t) => {
                    sizes.push(value);
                    tile_sizes.push(u64::try_from(t).ok().filter(|&t| t > 0)?);
                }
            }
        }
        let start = base;
        let extents = sizes[start..].to_vec();
        for (j, &t) in tile_sizes.iter().enumerate() {
            sizes[start + j] = sizes[start + j].div_ceil(t);
        }
        sizes.extend_from_slice(&tile_sizes);
        widest = widest.max(sizes.len());
        steps.push(Step::Tile {
            start,
            sizes: tile_sizes,
            extents,
        });
    }
    Some((steps, sizes, widest))
}

/// Static extents of the array as the layout sees them (bounds for `<=N`, legacy padded
/// sizes where given), or `None` if a dimension is unbounded.
pub(crate) fn layout_extents(a: &ArrayShape) -> Option<Vec<u64>> {
    a.dims
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let e = u64::try_from(d.extent()?).ok()?;
            let padded = a
                .layout
                .padded_dimensions
                .get(i)
                .and_then(|&p| u64::try_from(p).ok());
            Some(padded.map_or(e, |p| p.max(e)))
        })
        .collect()
}

/// The byte size of a valid array, tiles, padding, `L`, `E` and `M` included; `None` when it
/// exceeds `i64::MAX`. Unbounded arrays have no size and give `Some(0)`.
pub(crate) fn checked_byte_size(a: &ArrayShape) -> Option<u64> {
    let bytes = wide_byte_size(a)?;
    u64::try_from(bytes)
        .ok()
        .filter(|&b| i64::try_from(b).is_ok())
}

/// The byte size of a valid array computed in 128 bits, for checks and messages; `None` when
/// even that overflows. Unbounded arrays give `Some(0)`.
pub(crate) fn wide_byte_size(a: &ArrayShape) -> Option<u128> {
    let Some(extents) = layout_extents(a) else {
        return Some(0);
    };
    let physical: Vec<u64> = physical_order(a).iter().map(|&d| extents[d]).collect();
    let sizes = expanded_sizes(physical, &a.layout.tiles)?;
    let elements = sizes.iter().try_fold(1u128, |acc, &s| acc.checked_mul(s))?;
    let alignment = u128::try_from(a.layout.tail_padding_alignment_in_elements)
        .ok()
        .filter(|&m| m > 0)?;
    let elements = elements.div_ceil(alignment).checked_mul(alignment)?;
    let bits = u128::from(element_bits(a));
    let prefix = u128::from(
        a.layout
            .dynamic_shape_metadata_prefix_bytes
            .max(0)
            .unsigned_abs(),
    );
    let data = if bits % 8 == 0 {
        elements.checked_mul(bits / 8)?
    } else {
        elements.checked_mul(bits)?.div_ceil(8)
    };
    data.checked_add(prefix)
}

/// The sizes after every tile, in 128 bits (no steps recorded): what the byte size needs.
fn expanded_sizes(sizes: Vec<u64>, tiles: &[Tile]) -> Option<Vec<u128>> {
    let mut sizes: Vec<u128> = sizes.into_iter().map(u128::from).collect();
    for tile in tiles {
        let k = tile.0.len();
        if k > sizes.len() {
            let mut padded = vec![1; k - sizes.len()];
            padded.extend_from_slice(&sizes);
            sizes = padded;
        }
        let region = sizes.split_off(sizes.len() - k);
        let start = sizes.len();
        let mut tile_sizes = Vec::with_capacity(k);
        let mut carry: Option<u128> = None;
        for (i, td) in tile.0.iter().enumerate() {
            let value = match carry.take() {
                Some(c) => c.checked_mul(region[i])?,
                None => region[i],
            };
            match *td {
                TileDim::Combine => carry = Some(value),
                TileDim::Size(t) => {
                    sizes.push(value);
                    tile_sizes.push(u128::try_from(t).ok().filter(|&t| t > 0)?);
                }
            }
        }
        for (j, &t) in tile_sizes.iter().enumerate() {
            sizes[start + j] = sizes[start + j].div_ceil(t);
        }
        sizes.extend_from_slice(&tile_sizes);
    }
    Some(sizes)
}

pub(crate) fn round_up(n: u64, multiple: i64) -> Option<u64> {
    let m = u64::try_from(multiple).ok().filter(|&m| m > 0)?;
    n.div_ceil(m).checked_mul(m)
}

/// Storage bits per element: `E(n)` when `n > 0`, else 8 × the byte width.
pub(crate) fn element_bits(a: &ArrayShape) -> u64 {
    match u64::try_from(a.layout.element_size_in_bits) {
        Ok(e) if e > 0 => e,
        _ => u64::from(a.element_type.storage_bits()),
    }
}

/// Logical dimension at each physical position, major to minor. The layout must be valid.
pub(crate) fn physical_order(a: &ArrayShape) -> Vec<usize> {
    a.layout
        .minor_to_major
        .iter()
        .rev()
        .map(|&d| usize::try_from(d).unwrap_or(0))
        .collect()
}
