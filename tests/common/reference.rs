//! The reference tiling model used only by tests: docs/tiled_layout.md's definition applied
//! literally to a materialised array of element labels (pad -> reshape -> transpose), with no
//! code shared with the library's index plan.

use xla_layout::{ArrayShape, TileDim};

/// A row-major n-d array of labels: `Some(logical row-major index)` or `None` for padding.
struct Labels {
    dims: Vec<usize>,
    data: Vec<Option<usize>>,
}

fn row_major_strides(dims: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; dims.len()];
    for k in (0..dims.len().saturating_sub(1)).rev() {
        strides[k] = strides[k + 1] * dims[k + 1];
    }
    strides
}

/// The row-major multi-index of a linear index.
pub(crate) fn unravel(mut linear: usize, dims: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; dims.len()];
    for k in (0..dims.len()).rev() {
        idx[k] = linear % dims[k];
        linear /= dims[k];
    }
    idx
}

impl Labels {
    /// Pads the last `sizes.len()` dims up to multiples of `sizes`.
    fn pad_suffix(&self, sizes: &[usize]) -> Labels {
        let base = self.dims.len() - sizes.len();
        let mut dims = self.dims.clone();
        for (j, &t) in sizes.iter().enumerate() {
            dims[base + j] = self.dims[base + j].div_ceil(t) * t;
        }
        let total: usize = dims.iter().product();
        let mut data = vec![None; total];
        let new_strides = row_major_strides(&dims);
        for (i, label) in self.data.iter().enumerate() {
            let idx = unravel(i, &self.dims);
            let at: usize = idx.iter().zip(&new_strides).map(|(a, b)| a * b).sum();
            data[at] = *label;
        }
        Labels { dims, data }
    }

    /// Moves axes: result axis k is source axis `perm[k]`.
    fn transpose(&self, perm: &[usize]) -> Labels {
        let dims: Vec<usize> = perm.iter().map(|&p| self.dims[p]).collect();
        let src_strides = row_major_strides(&self.dims);
        let data = (0..self.data.len())
            .map(|i| {
                let idx = unravel(i, &dims);
                let at: usize = idx
                    .iter()
                    .zip(perm)
                    .map(|(&v, &p)| v * src_strides[p])
                    .sum();
                self.data[at]
            })
            .collect();
        Labels { dims, data }
    }
}

/// The memory image of `shape`: for every element slot (including `L` tail padding), the
/// logical row-major index of the element stored there, or `None` for padding.
pub(crate) fn memory_image(shape: &ArrayShape) -> Vec<Option<usize>> {
    let rank = shape.dims.len();
    let dims: Vec<usize> = shape
        .dims
        .iter()
        .map(|d| d.extent().expect("static") as usize)
        .collect();
    let padded: Vec<usize> = (0..rank)
        .map(|d| {
            shape
                .layout
                .padded_dimensions
                .get(d)
                .map_or(dims[d], |&p| p as usize)
        })
        .collect();
    let m2m: Vec<usize> = shape
        .layout
        .minor_to_major
        .iter()
        .map(|&d| d as usize)
        .collect();
    let physical: Vec<usize> = m2m.iter().rev().copied().collect();
    // Start: the (legacy-padded) array in physical order.
    let pdims: Vec<usize> = physical.iter().map(|&d| padded[d]).collect();
    let logical_strides = row_major_strides(&dims);
    let total: usize = pdims.iter().product();
    let data = (0..total)
        .map(|i| {
            let pidx = unravel(i, &pdims);
            let mut linear = 0;
            for (k, &d) in physical.iter().enumerate() {
                if pidx[k] >= dims[d] {
                    return None;
                }
                linear += pidx[k] * logical_strides[d];
            }
            Some(linear)
        })
        .collect();
    let mut a = Labels { dims: pdims, data };
    for tile in &shape.layout.tiles {
        let k = tile.0.len();
        // A tile of higher rank than the array: reshape to add leading size-1 dims.
        while a.dims.len() < k {
            a.dims.insert(0, 1);
        }
        let base = a.dims.len() - k;
        // `*`: reshape, merging a dim into the next one (row-major, no data moves).
        let mut sizes = Vec::new();
        let mut pos = base;
        for td in &tile.0 {
            match td {
                TileDim::Combine => {
                    let merged = a.dims[pos] * a.dims[pos + 1];
                    a.dims.remove(pos);
                    a.dims[pos] = merged;
                }
                TileDim::Size(t) => {
                    sizes.push(*t as usize);
                    pos += 1;
                }
            }
        }
        // Pad, reshape each tiled dim into (count, tile), then move the tile parts minor.
        a = a.pad_suffix(&sizes);
        let start = a.dims.len() - sizes.len();
        let mut split = a.dims[..start].to_vec();
        for (j, &t) in sizes.iter().enumerate() {
            split.push(a.dims[start + j] / t);
            split.push(t);
        }
        a.dims = split;
        let mut perm: Vec<usize> = (0..start).collect();
        perm.extend((0..sizes.len()).map(|j| start + 2 * j));
        perm.extend((0..sizes.len()).map(|j| start + 2 * j + 1));
        a = a.transpose(&perm);
    }
    let align = shape.layout.tail_padding_alignment_in_elements as usize;
    let mut image = a.data;
    let len = image.len().div_ceil(align) * align;
    image.resize(len, None);
    image
}

/// The offset of every element, in logical row-major order.
pub(crate) fn offsets(shape: &ArrayShape) -> Vec<usize> {
    let image = memory_image(shape);
    let n = shape
        .dims
        .iter()
        .map(|d| d.extent().expect("static") as usize)
        .product();
    let mut out = vec![usize::MAX; n];
    for (slot, label) in image.iter().enumerate() {
        if let Some(l) = label {
            out[*l] = slot;
        }
    }
    out
}
