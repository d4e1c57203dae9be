//! XLA's `IndexUtil` (`xla/index_util.h`) under Rust names: logical index ↔ linear index
//! from minor_to_major **alone**.
//!
//! As in XLA, tiles, `E(n)`, `L(n)` and `M(n)` are ignored throughout: the linear index is the
//! position in a dense array laid out in minor_to_major order. For offsets that honour tiles
//! use [`Plan`](crate::Plan). Indices are `i64`, as in XLA.
//!
//! ```
//! use xla_layout::{index_util, parse_array};
//! let a = parse_array("f32[10,20]{0,1:T(8,128)}").unwrap(); // the tile is ignored
//! assert_eq!(index_util::multidimensional_index_to_linear_index(&a, &[3, 5]), Some(53));
//! ```

use alloc::vec;
use alloc::vec::Vec;

use crate::model::ArrayShape;
use crate::xla::layout_util::{as_permutation, dim_value, static_dims};

/// Static dimension sizes and minor_to_major as positions, if both are usable.
fn dims_and_order(shape: &ArrayShape) -> Option<(Vec<i64>, Vec<usize>)> {
    let dims = static_dims(shape)?;
    let m2m = as_permutation(&shape.layout.minor_to_major, dims.len())?;
    Some((dims, m2m))
}

/// The linear index of a logical index: `Σ idx[m2m[i]] · Π_{j<i} dims[m2m[j]]` (XLA's
/// `IndexUtil::MultidimensionalIndexToLinearIndex`). Rank 0 gives 0.
///
/// `None` when the index does not have one in-bounds entry per dimension (XLA only
/// DCHECKs this), minor_to_major is not a permutation of `0..rank`, a dimension is `?`, or
/// the result overflows `i64`.
///
/// ```
/// use xla_layout::{index_util::multidimensional_index_to_linear_index, parse_array};
/// let a = parse_array("f32[10,20,30]{1,2,0}").unwrap();
/// assert_eq!(multidimensional_index_to_linear_index(&a, &[3, 5, 7]), Some(1945));
/// assert_eq!(multidimensional_index_to_linear_index(&a, &[10, 0, 0]), None);
/// ```
pub fn multidimensional_index_to_linear_index(
    shape: &ArrayShape,
    multi_index: &[i64],
) -> Option<i64> {
    let (dims, m2m) = dims_and_order(shape)?;
    if multi_index.len() != dims.len()
        || multi_index
            .iter()
            .zip(&dims)
            .any(|(&i, &d)| i < 0 || i >= d)
    {
        return None;
    }
    let mut scale: i64 = 1;
    let mut linear: i64 = 0;
    for &d in &m2m {
        linear = linear.checked_add(scale.checked_mul(multi_index[d])?)?;
        scale = scale.checked_mul(dims[d])?;
    }
    Some(linear)
}

/// The logical index at a linear index, the inverse of
/// [`multidimensional_index_to_linear_index`] (XLA's
/// `IndexUtil::LinearIndexToMultidimensionalIndex`): for each dimension `d` in minor_to_major
/// order, `idx[d] = (linear / divisor) % dims[d]`, then `divisor *= dims[d]`.
///
/// `None` unless `0 <= linear_index < ElementsIn` (XLA only DCHECKs this), and as for
/// [`multidimensional_index_to_linear_index`].
///
/// ```
/// use xla_layout::{index_util::linear_index_to_multidimensional_index, parse_array};
/// let a = parse_array("f32[10,20]{0,1}").unwrap();
/// assert_eq!(linear_index_to_multidimensional_index(&a, 53), Some(vec![3, 5]));
/// assert_eq!(linear_index_to_multidimensional_index(&a, 200), None);
/// ```
pub fn linear_index_to_multidimensional_index(
    shape: &ArrayShape,
    linear_index: i64,
) -> Option<Vec<i64>> {
    let (dims, m2m) = dims_and_order(shape)?;
    let elements = dims.iter().try_fold(1i64, |acc, &d| acc.checked_mul(d))?;
    if !(0..elements).contains(&linear_index) {
        return None;
    }
    let mut multi_index = vec![0; dims.len()];
    let mut divisor: i64 = 1;
    for &d in &m2m {
        multi_index[d] = (linear_index / divisor) % dims[d];
        // Cannot overflow: the product of all dims fits in i64.
        divisor *= dims[d];
    }
    Some(multi_index)
}

/// Advances `indices` to the next logical index in **row-major order** (the last dimension
/// varies fastest), whatever the layout (XLA's `IndexUtil::BumpIndices`).
///
/// Like an odometer: the last position that can still grow is incremented and every position
/// after it is reset to 0, and `true` is returned. When no position can grow (the last index,
/// or a `?` dimension, which has no extent), `indices` is left unchanged and `false` is
/// returned. `false` too when `indices` does not have one entry per dimension.
///
/// ```
/// use xla_layout::{index_util::bump_indices, parse_array};
/// let a = parse_array("s32[2,2]").unwrap();
/// let mut i = [0, 1];
/// assert!(bump_indices(&a, &mut i));
/// assert_eq!(i, [1, 0]);
/// let mut last = [1, 1];
/// assert!(!bump_indices(&a, &mut last));
/// assert_eq!(last, [1, 1]);
/// ```
pub fn bump_indices(shape: &ArrayShape, indices: &mut [i64]) -> bool {
    if indices.len() != shape.rank() {
        return false;
    }
    for d in (0..indices.len()).rev() {
        let limit = dim_value(shape.dims[d]);
        if indices[d].checked_add(1).is_some_and(|next| next < limit) {
            indices[d] += 1;
            indices[d + 1..].fill(0);
            return true;
        }
    }
    false
}

/// The stride of logical dimension `dimension` in elements: the product of the sizes of the
/// dimensions before it in minor_to_major (XLA's `IndexUtil::GetDimensionStride`). Tiles are
/// ignored.
///
/// `None` when `dimension` is out of range, minor_to_major is not a permutation, a dimension
/// is `?`, or the product overflows.
///
/// ```
/// use xla_layout::{index_util::get_dimension_stride, parse_array};
/// let a = parse_array("f32[5,8,10,4]{3,2,1,0}").unwrap();
/// assert_eq!(get_dimension_stride(&a, 1), Some(40));
/// assert_eq!(get_dimension_stride(&a, 3), Some(1));
/// ```
pub fn get_dimension_stride(shape: &ArrayShape, dimension: usize) -> Option<i64> {
    let (dims, m2m) = dims_and_order(shape)?;
    if dimension >= dims.len() {
        return None;
    }
    m2m.iter()
        .take_while(|&&d| d != dimension)
        .try_fold(1i64, |acc, &d| acc.checked_mul(dims[d]))
}

/// True when `index` has one entry per dimension and every entry is below its dimension's
/// size (XLA's `IndexUtil::IndexInBounds`).
///
/// XLA's quirk is kept on purpose, which is why the index is `&[i64]`: **negative entries are
/// not rejected**, so `(-1, 0)` is "in bounds" of `f32[2,3]`. A `?` dimension has no extent
/// and nothing is in bounds of it. Use [`Plan::in_bounds`](crate::Plan::in_bounds) for a
/// check that cannot be negative.
///
/// ```
/// use xla_layout::{index_util::index_in_bounds, parse_array};
/// let a = parse_array("f32[2,3]").unwrap();
/// assert!(index_in_bounds(&a, &[1, 2]));
/// assert!(!index_in_bounds(&a, &[2, 0]));
/// assert!(!index_in_bounds(&a, &[0, 0, 0]));
/// assert!(index_in_bounds(&a, &[-1, 0])); // XLA does not check the lower bound
/// ```
pub fn index_in_bounds(shape: &ArrayShape, index: &[i64]) -> bool {
    index.len() == shape.rank()
        && index
            .iter()
            .zip(&shape.dims)
            .all(|(&i, &d)| i < dim_value(d))
}

/// Lexicographic comparison of two indices, dimension 0 first (XLA's
/// `IndexUtil::CompareIndices`): **-1 if `lhs < rhs`**, 1 if `lhs > rhs`, 0 if equal.
///
/// The sign follows XLA's code; the comment in `index_util.h` states the opposite
/// ("If lhs is larger, then -1 is returned").
///
/// # Panics
///
/// When the lengths differ (XLA CHECK-fails too).
///
/// ```
/// use xla_layout::index_util::compare_indices;
/// assert_eq!(compare_indices(&[1, 2], &[1, 3]), -1);
/// assert_eq!(compare_indices(&[2, 0], &[1, 9]), 1);
/// assert_eq!(compare_indices(&[4, 4], &[4, 4]), 0);
/// ```
pub fn compare_indices(lhs: &[i64], rhs: &[i64]) -> i32 {
    assert_eq!(
        lhs.len(),
        rhs.len(),
        "compare_indices: indices of different ranks"
    );
    match lhs.cmp(rhs) {
        core::cmp::Ordering::Less => -1,
        core::cmp::Ordering::Equal => 0,
        core::cmp::Ordering::Greater => 1,
    }
}
