//! The physical shape a layout gives an array: the tiles' expansion of the physical dims
//! (spec §8.2, with `*` and tiles of higher rank than the array), and the exact byte size that
//! follows from it with `L`, `E` and `M`. The validator checks sizes with it; the index plan
//! compiles offsets from it. The expansion is generated once, by the `const fn` [`generate`],
//! which the plan ([`expand`]), the byte size and the `layout!` types (`typed::tiling`) all
//! call.

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

/// The tiles as [`generate`] reads them: every tile's dims concatenated (major to minor, `0`
/// for `*`), and each tile's rank.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TileDims<'a> {
    pub(crate) dims: &'a [u64],
    pub(crate) ranks: &'a [usize],
}

/// One step of the expansion as [`generate`] writes it (see [`Step`]); a tile step's sizes and
/// the extents it divides are in the buffers' `tile_sizes` and `extents` from `first`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FlatStep {
    Pad {
        by: usize,
    },
    Combine {
        at: usize,
        mult: u128,
    },
    Tile {
        start: usize,
        count: usize,
        first: usize,
    },
}

/// Where [`generate`] writes. Their lengths are its capacities.
#[derive(Debug)]
pub(crate) struct Buffers<'a> {
    /// The working sizes: the physical sizes (major to minor) in `..rank` on entry, the
    /// expanded sizes on exit.
    pub(crate) sizes: &'a mut [u128],
    pub(crate) steps: &'a mut [FlatStep],
    /// The tile steps' tile sizes.
    pub(crate) tile_sizes: &'a mut [u128],
    /// The tile steps' extents: the sizes each divides.
    pub(crate) extents: &'a mut [u128],
}

/// What [`generate`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Expansion {
    /// The number of expanded sizes.
    pub(crate) width: usize,
    /// The widest the working index gets while the steps run, paddings included.
    pub(crate) widest: usize,
    /// The number of steps.
    pub(crate) steps: usize,
    /// The number of tile sizes (and extents) written.
    pub(crate) tile_dims: usize,
}

/// The tiling expansion of spec §8.2, the one algorithm behind the runtime plan, the byte
/// size and the `layout!` types: expands the `rank` physical sizes in `out.sizes` by `tiles`,
/// writing the steps, in 128 bits. `None` on arithmetic overflow, when a buffer is too short,
/// or for tiles that are not valid (ranks that do not sum to the dims, a most-minor `*`).
/// Linear in the total tile rank.
pub(crate) const fn generate(
    rank: usize,
    tiles: TileDims<'_>,
    out: Buffers<'_>,
) -> Option<Expansion> {
    let Buffers {
        sizes,
        steps,
        tile_sizes,
        extents,
    } = out;
    if rank > sizes.len() {
        return None;
    }
    let mut width = rank;
    let mut widest = rank;
    let mut step_count = 0;
    let mut tile_dims = 0;
    let mut d = 0;
    let mut t = 0;
    while t < tiles.ranks.len() {
        let k = tiles.ranks[t];
        if k > tiles.dims.len() - d {
            return None;
        }
        if k > width {
            let by = k - width;
            if k > sizes.len() || step_count == steps.len() {
                return None;
            }
            let mut i = width;
            while i > 0 {
                i -= 1;
                sizes[i + by] = sizes[i];
            }
            let mut j = 0;
            while j < by {
                sizes[j] = 1;
                j += 1;
            }
            steps[step_count] = FlatStep::Pad { by };
            step_count += 1;
            width = k;
            if width > widest {
                widest = width;
            }
        }
        // The tile's region `base..width`, each run of `*` merged into the entry after it, in
        // place: entry `base + count` is written only after entry `base + i >= base + count`
        // was read.
        let base = width - k;
        let mut count = 0;
        let mut carry = 1u128;
        let mut i = 0;
        while i < k {
            let Some(value) = carry.checked_mul(sizes[base + i]) else {
                return None;
            };
            if tiles.dims[d + i] == 0 {
                if i + 1 == k || step_count == steps.len() {
                    return None;
                }
                steps[step_count] = FlatStep::Combine {
                    at: base + count,
                    mult: sizes[base + i + 1],
                };
                step_count += 1;
                carry = value;
            } else {
                sizes[base + count] = value;
                count += 1;
                carry = 1;
            }
            i += 1;
        }
        if base + 2 * count > sizes.len()
            || tile_dims + count > tile_sizes.len()
            || tile_dims + count > extents.len()
            || step_count == steps.len()
        {
            return None;
        }
        let first = tile_dims;
        let mut i = 0;
        while i < k {
            let size = tiles.dims[d + i];
            if size != 0 {
                let j = tile_dims - first;
                let extent = sizes[base + j];
                extents[tile_dims] = extent;
                tile_sizes[tile_dims] = size as u128;
                sizes[base + j] = extent.div_ceil(size as u128);
                sizes[base + count + j] = size as u128;
                tile_dims += 1;
            }
            i += 1;
        }
        steps[step_count] = FlatStep::Tile {
            start: base,
            count,
            first,
        };
        step_count += 1;
        width = base + 2 * count;
        if width > widest {
            widest = width;
        }
        d += k;
        t += 1;
    }
    if d != tiles.dims.len() {
        return None;
    }
    Some(Expansion {
        width,
        widest,
        steps: step_count,
        tile_dims,
    })
}

/// The run-time buffers' length on the stack: enough for every layout of a few tiles.
const SMALL: usize = 32;

/// What [`generate`] wrote at run time, borrowed from its buffers.
struct Generated<'a> {
    sizes: &'a [u128],
    steps: &'a [FlatStep],
    tile_sizes: &'a [u128],
    extents: &'a [u128],
    widest: usize,
}

/// Runs [`generate`] on `physical` sizes (major to minor) and `tiles`, and hands what it wrote
/// to `then`. The buffers are as long as the expansion can need, so that only overflow (or
/// tiles that are not valid) fails: a tile pads the working index to at most its rank, and
/// adds at most two entries for each of its sizes (not `*`) to what is left; it takes a
/// padding, a merge for each `*` and the tile itself. They are on the stack when each fits in
/// [`SMALL`] entries (or a quarter of that), else on the heap.
fn with_generated<R>(
    physical: &[u64],
    tiles: &[Tile],
    then: impl FnOnce(Generated<'_>) -> Option<R>,
) -> Option<R> {
    let (mut dims, mut sized, mut widest_tile) = (0usize, 0usize, 0usize);
    for tile in tiles {
        dims = dims.checked_add(tile.0.len())?;
        widest_tile = widest_tile.max(tile.0.len());
        sized += tile
            .0
            .iter()
            .filter(|td| matches!(td, TileDim::Size(_)))
            .count();
    }
    let width = widest_tile.max(physical.len().checked_add(sized.checked_mul(2)?)?);
    let steps = (dims - sized).checked_add(tiles.len().checked_mul(2)?)?;
    let lengths = Lengths {
        dims,
        tiles: tiles.len(),
        sized,
        width,
        steps,
    };
    let most = dims.max(tiles.len()).max(width).max(steps);
    if most <= SMALL / 4 {
        on_stack::<{ SMALL / 4 }, R>(physical, tiles, lengths, then)
    } else if most <= SMALL {
        on_stack::<SMALL, R>(physical, tiles, lengths, then)
    } else {
        let (mut tile_dims, mut ranks) = (vec![0; dims], vec![0; tiles.len()]);
        let (mut sizes, mut flat) = (vec![0; width], vec![FlatStep::Pad { by: 0 }; steps]);
        let (mut tile_sizes, mut extents) = (vec![0; sized], vec![0; sized]);
        let out = Buffers {
            sizes: &mut sizes,
            steps: &mut flat,
            tile_sizes: &mut tile_sizes,
            extents: &mut extents,
        };
        run_generate(physical, tiles, &mut tile_dims, &mut ranks, out, then)
    }
}

/// The lengths of [`with_generated`]'s buffers.
#[derive(Clone, Copy)]
struct Lengths {
    dims: usize,
    tiles: usize,
    sized: usize,
    width: usize,
    steps: usize,
}

/// [`with_generated`] with buffers of `N` entries on the stack (few, so that a layout of one
/// or two small tiles does not clear kilobytes); every length must be at most `N`.
fn on_stack<const N: usize, R>(
    physical: &[u64],
    tiles: &[Tile],
    len: Lengths,
    then: impl FnOnce(Generated<'_>) -> Option<R>,
) -> Option<R> {
    let (mut tile_dims, mut ranks) = ([0; N], [0; N]);
    let (mut sizes, mut flat) = ([0; N], [FlatStep::Pad { by: 0 }; N]);
    let (mut tile_sizes, mut extents) = ([0; N], [0; N]);
    let out = Buffers {
        sizes: sizes.get_mut(..len.width)?,
        steps: flat.get_mut(..len.steps)?,
        tile_sizes: tile_sizes.get_mut(..len.sized)?,
        extents: extents.get_mut(..len.sized)?,
    };
    run_generate(
        physical,
        tiles,
        tile_dims.get_mut(..len.dims)?,
        ranks.get_mut(..len.tiles)?,
        out,
        then,
    )
}

/// [`with_generated`] once its buffers are given: `dims` and `ranks` as long as the tiles'
/// dims and the tiles.
fn run_generate<R>(
    physical: &[u64],
    tiles: &[Tile],
    dims: &mut [u64],
    ranks: &mut [usize],
    out: Buffers<'_>,
    then: impl FnOnce(Generated<'_>) -> Option<R>,
) -> Option<R> {
    let mut flat = dims.iter_mut();
    for (rank, tile) in ranks.iter_mut().zip(tiles) {
        *rank = tile.0.len();
        // The tile first: `zip` takes from `flat` only while the tile has dims.
        for (td, d) in tile.0.iter().zip(flat.by_ref()) {
            *d = match *td {
                TileDim::Combine => 0,
                TileDim::Size(t) => u64::try_from(t).ok().filter(|&t| t > 0)?,
            };
        }
    }
    let Buffers {
        sizes,
        steps,
        tile_sizes,
        extents,
    } = out;
    for (s, &p) in sizes.iter_mut().zip(physical) {
        *s = u128::from(p);
    }
    let tile_dims = TileDims { dims, ranks };
    let e = generate(
        physical.len(),
        tile_dims,
        Buffers {
            sizes: &mut *sizes,
            steps: &mut *steps,
            tile_sizes: &mut *tile_sizes,
            extents: &mut *extents,
        },
    )?;
    then(Generated {
        sizes: &sizes[..e.width],
        steps: &steps[..e.steps],
        tile_sizes: &tile_sizes[..e.tile_dims],
        extents: &extents[..e.tile_dims],
        widest: e.widest,
    })
}

/// Expands physical sizes (major to minor) by `tiles`, returning the steps, the final sizes
/// and the widest the working index gets; `None` on arithmetic overflow (of 64 bits). Tiles
/// must be valid (non-empty, positive or `*`, no trailing `*`). [`generate`]'s expansion,
/// converted to [`Step`]s.
pub(crate) fn expand(sizes: Vec<u64>, tiles: &[Tile]) -> Option<(Vec<Step>, Vec<u64>, usize)> {
    if tiles.is_empty() {
        // No step to generate: the sizes are the physical shape (what `generate` returns for
        // no tiles, without its buffers).
        let widest = sizes.len();
        return Some((Vec::new(), sizes, widest));
    }
    let narrow =
        |v: &[u128]| -> Option<Vec<u64>> { v.iter().map(|&x| u64::try_from(x).ok()).collect() };
    with_generated(&sizes, tiles, |g| {
        let steps = g
            .steps
            .iter()
            .map(|step| {
                Some(match *step {
                    FlatStep::Pad { by } => Step::Pad { by },
                    FlatStep::Combine { at, mult } => Step::Combine {
                        at,
                        mult: u64::try_from(mult).ok()?,
                    },
                    FlatStep::Tile {
                        start,
                        count,
                        first,
                    } => Step::Tile {
                        start,
                        sizes: narrow(g.tile_sizes.get(first..first + count)?)?,
                        extents: narrow(g.extents.get(first..first + count)?)?,
                    },
                })
            })
            .collect::<Option<_>>()?;
        Some((steps, narrow(g.sizes)?, g.widest))
    })
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
    let elements = expanded_elements(&physical, &a.layout.tiles)?;
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

/// The number of element slots after every tile, in 128 bits (so that a size past 64 bits
/// still gets its message): the product of [`generate`]'s sizes, its steps unused.
fn expanded_elements(physical: &[u64], tiles: &[Tile]) -> Option<u128> {
    with_generated(physical, tiles, |g| {
        g.sizes.iter().try_fold(1u128, |acc, &s| acc.checked_mul(s))
    })
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

#[cfg(test)]
mod tests {
    use alloc::vec;
    use alloc::vec::Vec;

    use super::{Buffers, FlatStep, Step, TileDims, expand, expanded_elements, generate};
    use crate::model::{Tile, TileDim};

    fn tile(dims: &[i64]) -> Tile {
        Tile(
            dims.iter()
                .map(|&d| {
                    if d == 0 {
                        TileDim::Combine
                    } else {
                        TileDim::Size(d)
                    }
                })
                .collect(),
        )
    }

    /// Steps worked out by hand from spec §8.2 (`0` is `*` in [`tile`]).
    #[test]
    fn expansions_worked_by_hand() {
        // docs/tiled_layout.md's f32[3,5] with T(2,2): [3,5] -> [2,3,2,2].
        assert_eq!(
            expand(vec![3, 5], &[tile(&[2, 2])]),
            Some((
                vec![Step::Tile {
                    start: 0,
                    sizes: vec![2, 2],
                    extents: vec![3, 5],
                }],
                vec![2, 3, 2, 2],
                4
            ))
        );
        // (2,*,128) on [2,3,1004]: 3 merges into 1004 (3012), then [1,24,2,128].
        assert_eq!(
            expand(vec![2, 3, 1004], &[tile(&[2, 0, 128])]),
            Some((
                vec![
                    Step::Combine { at: 1, mult: 1004 },
                    Step::Tile {
                        start: 0,
                        sizes: vec![2, 128],
                        extents: vec![2, 3012],
                    },
                ],
                vec![1, 24, 2, 128],
                4
            ))
        );
        // (8,128)(2,1) on [5,300]: [1,3,8,128], then the last two by (2,1): [1,3,4,128,2,1].
        let (steps, sizes, widest) =
            expand(vec![5, 300], &[tile(&[8, 128]), tile(&[2, 1])]).unwrap();
        assert_eq!(steps.len(), 2);
        assert_eq!(sizes, vec![1, 3, 4, 128, 2, 1]);
        assert_eq!(widest, 6);
    }

    /// A tile of higher rank pads the working index; the padding counts toward the widest it
    /// gets even when `*` merges it back: 16 `*` then 1 on `[4]` pads to 17 entries, ends `[4, 1]`.
    #[test]
    fn padding_counts_toward_the_widest() {
        let mut dims = vec![0; 16];
        dims.push(1);
        let (steps, sizes, widest) = expand(vec![4], &[tile(&dims)]).unwrap();
        assert_eq!(steps.first(), Some(&Step::Pad { by: 16 }));
        assert_eq!(steps.len(), 18);
        assert_eq!(sizes, vec![4, 1]);
        assert_eq!(widest, 17);
    }

    /// Sizes past 64 bits: the plan's expansion fails, the byte size's count gets them.
    #[test]
    fn sizes_past_64_bits() {
        let tiles = [tile(&[0, 1])];
        assert_eq!(expand(vec![1 << 40, 1 << 40], &tiles), None);
        assert_eq!(
            expanded_elements(&[1 << 40, 1 << 40], &tiles),
            Some(1 << 80)
        );
    }

    /// Buffers too short for the expansion give `None`, never a panic.
    #[test]
    fn short_buffers_fail() {
        let dims = [8, 128, 2, 1];
        let ranks = [2, 2];
        let run = |width: usize, steps: usize, tile_dims: usize| {
            let mut sizes: Vec<u128> = vec![0; width];
            sizes[..2.min(width)].copy_from_slice(&[5, 300][..2.min(width)]);
            generate(
                2,
                TileDims {
                    dims: &dims,
                    ranks: &ranks,
                },
                Buffers {
                    sizes: &mut sizes,
                    steps: &mut vec![FlatStep::Pad { by: 0 }; steps],
                    tile_sizes: &mut vec![0; tile_dims],
                    extents: &mut vec![0; tile_dims],
                },
            )
            .map(|e| (e.width, e.steps, e.tile_dims))
        };
        assert_eq!(run(6, 2, 4), Some((6, 2, 4)));
        assert_eq!(run(5, 2, 4), None);
        assert_eq!(run(1, 2, 4), None);
        assert_eq!(run(6, 1, 4), None);
        assert_eq!(run(6, 2, 3), None);
        // Ranks that do not add up to the dims.
        let mut sizes = [5u128, 300, 0, 0, 0, 0];
        let out = Buffers {
            sizes: &mut sizes,
            steps: &mut [FlatStep::Pad { by: 0 }; 2],
            tile_sizes: &mut [0; 4],
            extents: &mut [0; 4],
        };
        let tiles = TileDims {
            dims: &dims,
            ranks: &[2],
        };
        assert_eq!(generate(2, tiles, out), None);
    }
}
