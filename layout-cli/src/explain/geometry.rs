//! What `explain` computes about one array, each piece bounded: sizes in exact 128-bit
//! arithmetic, a window of the logical grid (offsets from [`Plan::offset`] per shown cell),
//! the first memory slots (from [`Plan::index_of`] per shown slot), and which tile holds an
//! offset. Nothing here walks the whole array or its padding.

use xla_layout_core::{ArrayShape, Plan, TileDim};

/// XLA's limit on a buffer's size in bytes.
pub(crate) const I64_MAX: u128 = i64::MAX as u128;

/// Element and byte counts of a plan, exact (no overflow even past `usize`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sizes {
    pub(crate) elements: u128,
    pub(crate) logical_bytes: u128,
    pub(crate) physical_elements: u128,
    pub(crate) physical_bytes: u128,
}

impl Sizes {
    pub(crate) fn of(plan: &Plan) -> Sizes {
        let elements = plan
            .dims()
            .iter()
            .try_fold(1u128, |acc, &d| acc.checked_mul(d as u128))
            .unwrap_or(u128::MAX);
        let bits = plan.element_bits() as u128;
        let physical_elements = plan.physical_elements() as u128;
        Sizes {
            elements,
            logical_bytes: elements.saturating_mul(bits).div_ceil(8),
            physical_elements,
            physical_bytes: (physical_elements * bits).div_ceil(8) + plan.prefix_bytes() as u128,
        }
    }

    pub(crate) fn padding_elements(&self) -> u128 {
        self.physical_elements.saturating_sub(self.elements)
    }
}

/// A byte count in words, or that it exceeds XLA's limit.
pub(crate) fn bytes_text(n: u128) -> String {
    if n > I64_MAX {
        "exceeds i64::MAX".to_string()
    } else {
        n.to_string()
    }
}

/// Elements of the first tile (the block each tile occupies in memory), or `None` without
/// tiles. Cells and slots are coloured by `offset / tile_elements`.
pub(crate) fn tile_elements(a: &ArrayShape) -> Option<u128> {
    let first = a.layout.tiles.first()?;
    Some(
        first
            .dims()
            .iter()
            .map(|d| match d {
                TileDim::Size(n) => u128::try_from(*n).unwrap_or(1),
                TileDim::Combine => 1,
            })
            .fold(1u128, u128::saturating_mul),
    )
}

/// The tile of an offset: its index among the blocks of [`tile_elements`] slots.
pub(crate) fn tile_of(offset: usize, tile: Option<u128>) -> u128 {
    tile.map_or(0, |t| offset as u128 / t.max(1))
}

/// The extent of the first tile along each logical dimension (1 where it does not reach).
fn tile_extents(a: &ArrayShape, plan: &Plan) -> Vec<usize> {
    let rank = plan.dims().len();
    let mut out = vec![1; rank];
    if let Some(first) = a.layout.tiles.first() {
        let k = first.dims().len();
        for (j, d) in first.dims().iter().enumerate() {
            if let (Some(p), TileDim::Size(n)) = ((rank + j).checked_sub(k), d) {
                out[plan.physical_order()[p]] = usize::try_from(*n).unwrap_or(usize::MAX);
            }
        }
    }
    out
}

/// How many of `size` indices to show, at most `cap`: whole tiles when they fit twice.
fn shown(size: usize, tile: usize, cap: usize) -> usize {
    if size <= cap {
        size
    } else if tile >= 2 && tile <= cap / 2 {
        cap / tile * tile
    } else {
        cap
    }
}

/// A 2-D window of the logical grid: the last two dims of one slice (the last dim alone
/// for rank 1, one cell for rank 0), from index 0.
#[derive(Clone, Debug)]
pub(crate) struct Window {
    /// The fixed leading indices (rank - 2 of them).
    pub(crate) lead: Vec<usize>,
    /// Logical dims of the rows and columns (`None` when the rank has no such dim).
    pub(crate) row_dim: Option<usize>,
    pub(crate) col_dim: Option<usize>,
    /// Sizes of those dims, and how many indices are shown.
    pub(crate) total_rows: usize,
    pub(crate) total_cols: usize,
    pub(crate) rows: usize,
    pub(crate) cols: usize,
}

impl Window {
    /// The window on the slice `lead`, at most `max_rows` x `max_cols`.
    pub(crate) fn new(
        a: &ArrayShape,
        plan: &Plan,
        lead: Vec<usize>,
        max_rows: usize,
        max_cols: usize,
    ) -> Window {
        let dims = plan.dims();
        let rank = dims.len();
        let tiles = tile_extents(a, plan);
        let col_dim = rank.checked_sub(1);
        let row_dim = rank.checked_sub(2);
        let total_rows = row_dim.map_or(1, |d| dims[d]);
        let total_cols = col_dim.map_or(1, |d| dims[d]);
        Window {
            lead,
            row_dim,
            col_dim,
            total_rows,
            total_cols,
            rows: row_dim.map_or(1, |d| shown(dims[d], tiles[d], max_rows)),
            cols: col_dim.map_or(1, |d| shown(dims[d], tiles[d], max_cols)),
        }
    }

    /// The logical index of a cell.
    pub(crate) fn index(&self, row: usize, col: usize) -> Vec<usize> {
        let mut index = self.lead.clone();
        index.extend(self.row_dim.map(|_| row));
        index.extend(self.col_dim.map(|_| col));
        index
    }

    /// The offset of every shown cell, row by row.
    pub(crate) fn offsets(&self, plan: &Plan) -> Vec<Vec<usize>> {
        (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| plan.offset(&self.index(r, c)))
                    .collect()
            })
            .collect()
    }

    /// `[0, 3, :, :]`: the slice shown.
    pub(crate) fn slice_text(&self) -> String {
        let mut parts: Vec<String> = self.lead.iter().map(usize::to_string).collect();
        parts.extend(self.row_dim.map(|_| ":".to_string()));
        parts.extend(self.col_dim.map(|_| ":".to_string()));
        format!("[{}]", parts.join(", "))
    }
}

/// Number of 2-D slices (product of the leading dims), saturating.
pub(crate) fn slice_count(plan: &Plan) -> u128 {
    let dims = plan.dims();
    dims[..dims.len().saturating_sub(2)]
        .iter()
        .fold(1u128, |acc, &d| acc.saturating_mul(d as u128))
}

/// The leading indices of the first `n` slices in row-major order.
pub(crate) fn first_slices(plan: &Plan, n: usize) -> Vec<Vec<usize>> {
    let dims = plan.dims();
    let lead_dims = &dims[..dims.len().saturating_sub(2)];
    let mut out = Vec::new();
    if lead_dims.contains(&0) {
        return out;
    }
    let mut index = vec![0; lead_dims.len()];
    while out.len() < n {
        out.push(index.clone());
        // Odometer step; stop after the last slice.
        let mut k = lead_dims.len();
        loop {
            if k == 0 {
                return out;
            }
            k -= 1;
            index[k] += 1;
            if index[k] < lead_dims[k] {
                break;
            }
            index[k] = 0;
        }
    }
    out
}

/// The offsets of the first `n` elements in logical row-major order, one
/// [`Plan::offset`] each.
pub(crate) fn first_offsets(plan: &Plan, n: usize) -> Vec<usize> {
    let dims = plan.dims();
    let mut out = Vec::new();
    if dims.contains(&0) {
        return out;
    }
    let mut index = vec![0; dims.len()];
    while out.len() < n {
        out.push(plan.offset(&index));
        let mut k = dims.len();
        loop {
            if k == 0 {
                return out;
            }
            k -= 1;
            index[k] += 1;
            if index[k] < dims[k] {
                break;
            }
            index[k] = 0;
        }
    }
    out
}

/// The logical index held by each of the first `n` memory slots (`None` for padding), one
/// [`Plan::index_of`] each.
pub(crate) fn first_slots(plan: &Plan, n: usize) -> Vec<Option<Vec<usize>>> {
    (0..plan.physical_elements().min(n))
        .map(|offset| plan.index_of(offset))
        .collect()
}

/// `(1,2)`: a logical index.
pub(crate) fn index_text(index: &[usize]) -> String {
    let items: Vec<String> = index.iter().map(usize::to_string).collect();
    format!("({})", items.join(","))
}

/// The row-major linear number of a logical index.
pub(crate) fn linear(index: &[usize], dims: &[usize]) -> usize {
    index.iter().zip(dims).fold(0, |acc, (&i, &d)| acc * d + i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use xla_layout_core::parse_array;

    fn plan(text: &str) -> (ArrayShape, Plan) {
        let a = parse_array(text).unwrap();
        let p = Plan::new(&a).unwrap();
        (a, p)
    }

    #[test]
    fn window_offsets_match_the_docs_figure() {
        // docs/tiled_layout.md Figure 1: f32[3,5] with 2x2 tiles.
        let (a, p) = plan("f32[3,5]{1,0:T(2,2)}");
        let w = Window::new(&a, &p, vec![], 16, 16);
        assert_eq!(
            w.offsets(&p),
            [[0, 1, 4, 5, 8], [2, 3, 6, 7, 10], [12, 13, 16, 17, 20]]
        );
        assert_eq!(tile_of(17, tile_elements(&a)), 4);
    }

    #[test]
    fn windows_keep_whole_tiles_and_stay_small() {
        let (a, p) = plan("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}");
        let w = Window::new(&a, &p, vec![0, 0], 16, 16);
        assert_eq!(
            (w.rows, w.cols, w.total_rows, w.total_cols),
            (16, 16, 1280, 16384)
        );
        let (a, p) = plan("f32[100,100]{1,0:T(3,3)}");
        let w = Window::new(&a, &p, vec![], 16, 16);
        assert_eq!((w.rows, w.cols), (15, 15));
    }

    #[test]
    fn sizes_are_exact_past_usize() {
        let (_, p) = plan("s8[2305843009213693952]");
        let s = Sizes::of(&p);
        assert_eq!(s.physical_bytes, 1 << 61);
        assert_eq!(s.logical_bytes, 1 << 61);
    }

    #[test]
    fn first_elements_and_slots_are_bounded() {
        let (_, p) = plan("f32[2,2]{1,0:L(1099511627776)}");
        assert_eq!(first_offsets(&p, 10), [0, 1, 2, 3]);
        let slots = first_slots(&p, 6);
        assert_eq!(slots.len(), 6);
        assert_eq!(slots[3], Some(vec![1, 1]));
        assert_eq!(slots[4], None);
        let (_, p) = plan("f32[2,3,4,5]");
        assert_eq!(first_slices(&p, 4), [[0, 0], [0, 1], [0, 2], [1, 0]]);
        assert_eq!(slice_count(&p), 6);
    }
}
