//! XLA's `ShapeUtil` (`xla/shape_util.h`) under Rust names, plus the dimension conventions of
//! XLA's shapes documentation (negative dimension numbers, dimension letters, true rank).
//!
//! Sizes and counts are `i64`, as in XLA. Where XLA would CHECK-fail or overflow, these
//! functions return `None` (or `false`), as each item's documentation says; a `?` (unbounded)
//! dimension has no size, so size functions give `None` for it. `<=N` dimensions use their
//! bound N, as XLA does.
//!
//! ```
//! use xla_layout::{parse_array, shape_util};
//! let a = parse_array("s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}").unwrap();
//! assert_eq!(shape_util::array_size(&a), Some(28311552));
//! assert_eq!(shape_util::byte_size_of_elements(&a), Some(28311552));
//! ```

use alloc::vec;
use alloc::vec::Vec;

use crate::model::{ArrayLayout, ArrayShape, PrimitiveType, Shape, TileDim};
use crate::xla::index_util::{
    linear_index_to_multidimensional_index, multidimensional_index_to_linear_index,
};
use crate::xla::layout_util::{
    as_permutation, ceil_div, dim_value, linear_index, max_split_size, static_dims,
};

/// Resolves a dimension number that may count from the end, Python style: `-1` is the last
/// dimension (`rank-1`), `-2` the one before, and so on (XLA's `ShapeUtil::GetDimensionNumber`,
/// from the "negative indexing" convention of XLA's shapes documentation).
///
/// `None` when the dimension is out of range either way. (XLA only CHECKs that the result is
/// non-negative; a number past the end is then out of bounds where it is used.)
///
/// ```
/// use xla_layout::shape_util::resolve_dimension;
/// assert_eq!(resolve_dimension(3, -1), Some(2));
/// assert_eq!(resolve_dimension(3, -3), Some(0));
/// assert_eq!(resolve_dimension(3, 1), Some(1));
/// assert_eq!(resolve_dimension(3, -4), None);
/// assert_eq!(resolve_dimension(3, 3), None);
/// ```
pub fn resolve_dimension(rank: usize, dimension: i64) -> Option<usize> {
    let rank_i = i64::try_from(rank).ok()?;
    let d = if dimension < 0 {
        dimension.checked_add(rank_i)?
    } else {
        dimension
    };
    usize::try_from(d).ok().filter(|&d| d < rank)
}

/// The conventional letter of a dimension of a 2-, 3- or 4-dimensional array, from XLA's
/// shapes documentation: 2-D `y x`, 3-D `z y x`, 4-D `p z y x` (dimension 0 first). `None`
/// for other ranks or an out-of-range dimension.
///
/// ```
/// use xla_layout::shape_util::dimension_letter;
/// assert_eq!(dimension_letter(2, 0), Some('y'));
/// assert_eq!(dimension_letter(2, 1), Some('x'));
/// assert_eq!(dimension_letter(4, 0), Some('p'));
/// assert_eq!(dimension_letter(3, 0), Some('z'));
/// assert_eq!(dimension_letter(5, 0), None);
/// ```
pub fn dimension_letter(rank: usize, dimension: usize) -> Option<char> {
    const LETTERS: [char; 4] = ['p', 'z', 'y', 'x'];
    if !(2..=4).contains(&rank) || dimension >= rank {
        return None;
    }
    Some(LETTERS[4 - rank + dimension])
}

/// The number of elements: the product of the dimensions (bounds for `<=N`), 1 for a scalar
/// (XLA's `ShapeUtil::ElementsIn`). `None` for a `?` or negative dimension, or on overflow.
///
/// ```
/// use xla_layout::{parse_array, shape_util::elements_in};
/// assert_eq!(elements_in(&parse_array("s32[]").unwrap()), Some(1));
/// assert_eq!(elements_in(&parse_array("s32[3,0,5]").unwrap()), Some(0));
/// assert_eq!(elements_in(&parse_array("s32[13,<=17]").unwrap()), Some(221));
/// assert_eq!(elements_in(&parse_array("s32[?]").unwrap()), None);
/// ```
pub fn elements_in(shape: &ArrayShape) -> Option<i64> {
    static_dims(shape)?
        .iter()
        .try_fold(1i64, |acc, &d| acc.checked_mul(d))
}

/// The number of dimensions whose size is **not 1** (XLA's `ShapeUtil::TrueNumDimensions`;
/// the "true rank" of the older shapes documentation).
///
/// This is what XLA's code counts. The documentation says "greater than 1", which would skip
/// size-0 dimensions; the code counts them, so `f32[3,0,1]` gives 2.
///
/// ```
/// use xla_layout::{parse_array, shape_util::true_num_dimensions};
/// assert_eq!(true_num_dimensions(&parse_array("f32[3,0,1]").unwrap()), 2);
/// assert_eq!(true_num_dimensions(&parse_array("f32[1,1]").unwrap()), 0);
/// ```
pub fn true_num_dimensions(shape: &ArrayShape) -> usize {
    shape.dims.iter().filter(|&&d| dim_value(d) != 1).count()
}

/// True when every dimension has size 1, i.e. [`true_num_dimensions`] is 0 (XLA's
/// `ShapeUtil::IsEffectiveScalar`). Scalars are effective scalars.
///
/// ```
/// use xla_layout::{parse_array, shape_util::is_effective_scalar};
/// assert!(is_effective_scalar(&parse_array("f32[1,1,1]").unwrap()));
/// assert!(is_effective_scalar(&parse_array("f32[]").unwrap()));
/// assert!(!is_effective_scalar(&parse_array("f32[1,0]").unwrap()));
/// ```
pub fn is_effective_scalar(shape: &ArrayShape) -> bool {
    true_num_dimensions(shape) == 0
}

/// True for rank 0 (XLA's `ShapeUtil::IsScalar`).
///
/// ```
/// use xla_layout::{parse_array, shape_util::is_scalar};
/// assert!(is_scalar(&parse_array("f32[]{:T(256)}").unwrap()));
/// assert!(!is_scalar(&parse_array("f32[1]").unwrap()));
/// ```
pub fn is_scalar(shape: &ArrayShape) -> bool {
    shape.dims.is_empty()
}

/// True if any dimension has size 1 (XLA's `ShapeUtil::HasDegenerateDimensions`).
///
/// ```
/// use xla_layout::{parse_array, shape_util::has_degenerate_dimensions};
/// assert!(has_degenerate_dimensions(&parse_array("f32[8,1,64]").unwrap()));
/// assert!(!has_degenerate_dimensions(&parse_array("f32[8,64]").unwrap()));
/// ```
pub fn has_degenerate_dimensions(shape: &ArrayShape) -> bool {
    shape.dims.iter().any(|&d| dim_value(d) == 1)
}

/// True if any dimension has size 0 (XLA's `ShapeUtil::IsZeroElementArray`).
///
/// ```
/// use xla_layout::{parse_array, shape_util::is_zero_element_array};
/// assert!(is_zero_element_array(&parse_array("f32[0,3]{1,0:T(8,128)}").unwrap()));
/// assert!(!is_zero_element_array(&parse_array("f32[]").unwrap()));
/// ```
pub fn is_zero_element_array(shape: &ArrayShape) -> bool {
    shape.dims.iter().any(|&d| dim_value(d) == 0)
}

/// Removes logical dimensions `dims` (in any order) from the shape and its layout (XLA's
/// `ShapeUtil::DeleteDimensions(dims, shape)`; the shape comes first here).
///
/// Each deleted dimension is removed from minor_to_major and the higher dimension numbers are
/// lowered by one (XLA's `Layout::DeleteDimension`). Like XLA, the other attributes,
/// **tiles included**, are kept unchanged. Legacy `padded_dimensions` entries of the deleted
/// dimensions are removed too. `None` when a dimension is out of range or listed twice.
///
/// ```
/// use xla_layout::{parse_array, shape_util::delete_dimensions};
/// let a = parse_array("f32[5,3,2]{2,0,1}").unwrap();
/// assert_eq!(delete_dimensions(&a, &[1]).unwrap().to_string(), "f32[5,2]{1,0}");
/// assert_eq!(delete_dimensions(&a, &[3]), None);
/// ```
pub fn delete_dimensions(shape: &ArrayShape, dims: &[usize]) -> Option<ArrayShape> {
    let mut sorted = dims.to_vec();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) || sorted.last().is_some_and(|&d| d >= shape.rank())
    {
        return None;
    }
    Some(remove_dimensions(shape, &sorted))
}

/// Deletes dimensions given as sorted, distinct, in-range numbers.
fn remove_dimensions(shape: &ArrayShape, sorted: &[usize]) -> ArrayShape {
    let mut out = shape.clone();
    let padded = out.layout.padded_dimensions.len() == out.rank();
    for &d in sorted.iter().rev() {
        out.dims.remove(d);
        if padded {
            out.layout.padded_dimensions.remove(d);
        }
        // `d` is below the rank, a `Vec` length, so it fits in i64.
        let d = d as i64;
        out.layout.minor_to_major.retain(|&x| x != d);
        for x in &mut out.layout.minor_to_major {
            if *x > d {
                *x -= 1;
            }
        }
    }
    out
}

/// Removes every dimension of size 1 (XLA's `ShapeUtil::DropDegenerateDimensions`), as
/// [`delete_dimensions`] does: the layout follows, other attributes are kept.
///
/// ```
/// use xla_layout::{parse_array, shape_util::drop_degenerate_dimensions};
/// let a = parse_array("f32[8,1,4,1]{1,3,0,2}").unwrap();
/// assert_eq!(drop_degenerate_dimensions(&a).to_string(), "f32[8,4]{0,1}");
/// ```
pub fn drop_degenerate_dimensions(shape: &ArrayShape) -> ArrayShape {
    let ones: Vec<usize> = (0..shape.rank())
        .filter(|&d| dim_value(shape.dims[d]) == 1)
        .collect();
    remove_dimensions(shape, &ones)
}

/// The shape with dimensions permuted, `new.dims[i] = dims[permutation[i]]`, and a layout
/// chosen so that the transpose is a bitcast: `new.m2m[i] = inverse(permutation)[m2m[i]]`
/// (XLA's `ShapeUtil::PermuteDimensions(permutation, shape)`; the shape comes first here).
///
/// Other layout attributes are kept; legacy `padded_dimensions` are permuted with the dims.
/// `None` unless `permutation` and minor_to_major are permutations of `0..rank`.
///
/// ```
/// use xla_layout::{parse_array, shape_util::permute_dimensions};
/// let a = parse_array("f32[2,3,4]{2,1,0:T(2,128)}").unwrap();
/// let p = permute_dimensions(&a, &[2, 0, 1]).unwrap();
/// assert_eq!(p.to_string(), "f32[4,2,3]{0,2,1:T(2,128)}");
/// ```
pub fn permute_dimensions(shape: &ArrayShape, permutation: &[usize]) -> Option<ArrayShape> {
    let rank = shape.rank();
    let perm_i64: Vec<i64> = permutation
        .iter()
        .map(|&p| i64::try_from(p).ok())
        .collect::<Option<_>>()?;
    let perm = as_permutation(&perm_i64, rank)?;
    let m2m = as_permutation(&shape.layout.minor_to_major, rank)?;
    let mut inverse = vec![0i64; rank];
    for (i, &p) in perm.iter().enumerate() {
        inverse[p] = i64::try_from(i).ok()?;
    }
    let mut out = shape.clone();
    out.dims = perm.iter().map(|&p| shape.dims[p]).collect();
    out.layout.minor_to_major = m2m.iter().map(|&d| inverse[d]).collect();
    if shape.layout.padded_dimensions.len() == rank {
        out.layout.padded_dimensions = perm
            .iter()
            .map(|&p| shape.layout.padded_dimensions[p])
            .collect();
    }
    Some(out)
}

/// Moves logical dimension `dim` to the most-major position of the layout, **rebuilding the
/// layout from minor_to_major alone** (XLA's `ShapeUtil::MoveDimToMajor`).
///
/// Unlike [`layout_util::move_dim_to_major`](crate::xla::layout_util::move_dim_to_major), which
/// keeps the other attributes, XLA's `ShapeUtil` version drops tiles, `L`, `E`, `S`, split
/// configs and `M`. The dimensions themselves do not move. As in XLA, a dimension that is
/// not in minor_to_major is appended.
///
/// ```
/// use xla_layout::{parse_array, shape_util::move_dim_to_major};
/// let a = parse_array("f32[10,10,10]{2,1,0:T(8,128)S(1)}").unwrap();
/// assert_eq!(move_dim_to_major(&a, 1).to_string(), "f32[10,10,10]{2,0,1}");
/// ```
pub fn move_dim_to_major(shape: &ArrayShape, dim: usize) -> ArrayShape {
    let dim = i64::try_from(dim).unwrap_or(i64::MAX);
    let mut m2m: Vec<i64> = shape
        .layout
        .minor_to_major
        .iter()
        .copied()
        .filter(|&d| d != dim)
        .collect();
    m2m.push(dim);
    shape.clone().with_layout(ArrayLayout::new(m2m))
}

/// The same bytes seen as a row-major array: dimensions reordered from most major to most
/// minor, with the descending layout (XLA's
/// `ShapeUtil::MakeShapeWithDescendingLayoutAndSamePhysicalLayout`).
///
/// As in XLA, tiles, `E`, `L` and `S` are kept (the physical layout is the same), while split
/// configs and `M` are dropped. Dynamic dimensions move with their sizes, and so do legacy
/// `padded_dimensions`. `None` unless minor_to_major is a permutation of `0..rank`.
///
/// ```
/// use xla_layout::{parse_array, shape_util::make_shape_with_descending_layout_and_same_physical_layout as f};
/// let a = parse_array("f32[128,24,4,48,48]{2,4,3,1,0}").unwrap();
/// assert_eq!(f(&a).unwrap().to_string(), "f32[128,24,48,48,4]{4,3,2,1,0}");
/// ```
pub fn make_shape_with_descending_layout_and_same_physical_layout(
    shape: &ArrayShape,
) -> Option<ArrayShape> {
    let rank = shape.rank();
    let m2m = as_permutation(&shape.layout.minor_to_major, rank)?;
    let src = &shape.layout;
    let mut layout = ArrayLayout::descending(rank)
        .with_tiles(src.tiles.iter().cloned())
        .with_element_size_in_bits(src.element_size_in_bits)
        .with_tail_padding_alignment(src.tail_padding_alignment_in_elements)
        .with_memory_space(src.memory_space);
    if src.padded_dimensions.len() == rank {
        layout = layout.with_padding(
            m2m.iter().rev().map(|&d| src.padded_dimensions[d]),
            src.padding_value,
        );
    }
    Some(ArrayShape {
        element_type: shape.element_type,
        dims: m2m.iter().rev().map(|&d| shape.dims[d]).collect(),
        layout,
    })
}

/// XLA's `CommonFactors` (`xla/util.cc`): the boundaries `(i, j)` at which prefixes of `a`
/// and `b` have equal products. `None` when the products differ or overflow.
fn common_factors(a: &[i64], b: &[i64]) -> Option<Vec<(usize, usize)>> {
    fn product(xs: &[i64]) -> Option<i64> {
        xs.iter().try_fold(1i64, |acc, &x| acc.checked_mul(x))
    }
    if product(a)? != product(b)? {
        return None;
    }
    if a == b {
        return Some((0..=a.len()).map(|i| (i, i)).collect());
    }
    let mut bounds = Vec::new();
    let (mut i, mut j) = (0, 0);
    let mut prior: Option<(usize, usize)> = None;
    while i < a.len() && j < b.len() && a[i] == b[j] {
        prior = Some((i, j));
        bounds.push((i, j));
        i += 1;
        j += 1;
    }
    let (rest_a, rest_b) = (product(&a[i..])?, product(&b[j..])?);
    if rest_a != rest_b {
        return Some(vec![(0, 0), (a.len(), b.len())]);
    }
    if rest_a == 0 {
        bounds.push((i, j));
        bounds.push((a.len(), b.len()));
        return Some(bounds);
    }
    let (mut partial_a, mut partial_b) = (1i64, 1i64);
    loop {
        let advanced = prior.is_none_or(|(pi, pj)| i > pi || j > pj);
        if partial_a == partial_b && advanced {
            prior = Some((i, j));
            bounds.push((i, j));
            continue;
        }
        let (in_i, in_j) = (i < a.len(), j < b.len());
        if !(in_i || in_j) {
            break;
        }
        let next_a =
            partial_a < partial_b || (in_i && (!in_j || (partial_a == partial_b && a[i] <= b[j])));
        let next_b =
            partial_b < partial_a || (in_j && (!in_i || (partial_b == partial_a && b[j] <= a[i])));
        // The suffixes have equal, non-zero products, so the partial products stay within
        // them and each step stays in bounds.
        if next_a {
            partial_a *= a[i];
            i += 1;
        }
        if next_b {
            partial_b *= b[j];
            j += 1;
        }
    }
    Some(bounds)
}

/// The `(input_dim, output_dim)` pairs that a reshape from `input` to `output` leaves
/// untouched (XLA's `ShapeUtil::DimensionsUnmodifiedByReshape`): the common factors of the
/// two dimension lists that span exactly one dimension on each side.
///
/// `None` when the element counts differ (XLA CHECK-fails), a dimension is `?` or negative,
/// or a product overflows.
///
/// ```
/// use xla_layout::{parse_array, shape_util::dimensions_unmodified_by_reshape};
/// let a = parse_array("f32[4,1,3,5,6,7]").unwrap();
/// let b = parse_array("f32[2,6,1,5,1,42]").unwrap();
/// assert_eq!(dimensions_unmodified_by_reshape(&a, &b), Some(vec![(3, 3)]));
/// ```
pub fn dimensions_unmodified_by_reshape(
    input: &ArrayShape,
    output: &ArrayShape,
) -> Option<Vec<(usize, usize)>> {
    let mut factors = common_factors(&static_dims(input)?, &static_dims(output)?)?;
    let mut i = 0;
    while i + 1 < factors.len() {
        let (a, b) = (factors[i], factors[i + 1]);
        if b.0 - a.0 != 1 || b.1 - a.1 != 1 {
            factors.remove(i);
        } else {
            i += 1;
        }
    }
    factors.pop();
    Some(factors)
}

/// True when a reshape from `input` to `output` moves no element in memory, judged from
/// minor_to_major **only** (XLA's `ShapeUtil::ReshapeIsBitcast`); tiles and other attributes
/// are ignored, as in XLA.
///
/// The element types must match unless `ignore_element_type`. Equal element counts are
/// required; zero-element arrays always qualify. Then every unit index of each side (one
/// coordinate 1, the rest 0, on dimensions larger than 1) must keep its linear position
/// through the reshape. `false` when the question cannot be evaluated (a `?` dimension, a
/// minor_to_major that is not a permutation).
///
/// ```
/// use xla_layout::{parse_array, shape_util::reshape_is_bitcast};
/// let a = parse_array("f32[3,4]{1,0}").unwrap();
/// assert!(reshape_is_bitcast(&a, &parse_array("f32[6,2]{1,0}").unwrap(), false));
/// assert!(!reshape_is_bitcast(&a, &parse_array("f32[6,2]{0,1}").unwrap(), false));
/// ```
pub fn reshape_is_bitcast(
    input: &ArrayShape,
    output: &ArrayShape,
    ignore_element_type: bool,
) -> bool {
    if !ignore_element_type && input.element_type != output.element_type {
        return false;
    }
    match (elements_in(input), elements_in(output)) {
        (Some(a), Some(b)) if a == b => {
            a == 0
                || (unit_indices_keep_position(input, output) == Some(true)
                    && unit_indices_keep_position(output, input) == Some(true))
        }
        _ => false,
    }
}

/// One direction of XLA's `check_input_unit_indices` in `ReshapeIsBitcast`.
fn unit_indices_keep_position(input: &ArrayShape, output: &ArrayShape) -> Option<bool> {
    let row_major_in = ArrayShape::with_dims(input.element_type, input.dims.iter().copied());
    let row_major_out = ArrayShape::with_dims(output.element_type, output.dims.iter().copied());
    for d in 0..input.rank() {
        if dim_value(input.dims[d]) <= 1 {
            continue;
        }
        let mut unit = vec![0; input.rank()];
        unit[d] = 1;
        let logical = multidimensional_index_to_linear_index(&row_major_in, &unit)?;
        let out_index = linear_index_to_multidimensional_index(&row_major_out, logical)?;
        if multidimensional_index_to_linear_index(input, &unit)?
            != multidimensional_index_to_linear_index(output, &out_index)?
        {
            return Some(false);
        }
    }
    Some(true)
}

/// True when the transpose `output[i] = input[dimension_mapping[i]]` moves no element in
/// memory, judged from minor_to_major **only** (XLA's `ShapeUtil::TransposeIsBitcast`):
/// `dimension_mapping[output.m2m[i]] == input.m2m[i]` for every `i`. Tiles are ignored.
///
/// The element types must match unless `ignore_element_type`. `false` when the lengths
/// differ or a layout entry is out of range (XLA CHECK-fails).
///
/// ```
/// use xla_layout::{parse_array, shape_util::transpose_is_bitcast};
/// let a = parse_array("f32[10,5]{1,0}").unwrap();
/// let b = parse_array("f16[5,10]{0,1}").unwrap();
/// assert!(transpose_is_bitcast(&a, &b, &[1, 0], true));
/// assert!(!transpose_is_bitcast(&a, &b, &[1, 0], false));
/// ```
pub fn transpose_is_bitcast(
    input: &ArrayShape,
    output: &ArrayShape,
    dimension_mapping: &[usize],
    ignore_element_type: bool,
) -> bool {
    if !ignore_element_type && input.element_type != output.element_type {
        return false;
    }
    let (out_m2m, in_m2m) = (&output.layout.minor_to_major, &input.layout.minor_to_major);
    dimension_mapping.len() == out_m2m.len()
        && out_m2m.len() == in_m2m.len()
        && out_m2m.iter().zip(in_m2m).all(|(&o, &i)| {
            usize::try_from(o)
                .ok()
                .and_then(|o| dimension_mapping.get(o))
                .is_some_and(|&m| i64::try_from(m) == Ok(i))
        })
}

/// Storage bits per element: `E(n)` when it is not 0, else 8 × the type's byte width (XLA's
/// `ShapeUtil::ElementSizeInBits`).
///
/// ```
/// use xla_layout::{parse_array, shape_util::element_size_in_bits};
/// assert_eq!(element_size_in_bits(&parse_array("s4[8]{0:E(4)}").unwrap()), 4);
/// assert_eq!(element_size_in_bits(&parse_array("s4[8]").unwrap()), 8);
/// assert_eq!(element_size_in_bits(&parse_array("pred[8]").unwrap()), 8);
/// ```
pub fn element_size_in_bits(shape: &ArrayShape) -> i64 {
    match shape.layout.element_size_in_bits {
        0 => byte_size_of_primitive_type(shape.element_type) * 8,
        e => e,
    }
}

/// The byte width of an element type, `⌈bits/8⌉` (XLA's `ShapeUtil::ByteSizeOfPrimitiveType`;
/// also [`PrimitiveType::byte_width`]).
///
/// ```
/// use xla_layout::{shape_util::byte_size_of_primitive_type, PrimitiveType};
/// assert_eq!(byte_size_of_primitive_type(PrimitiveType::F32), 4);
/// assert_eq!(byte_size_of_primitive_type(PrimitiveType::C64), 8);
/// assert_eq!(byte_size_of_primitive_type(PrimitiveType::S4), 1);
/// ```
pub fn byte_size_of_primitive_type(element_type: PrimitiveType) -> i64 {
    i64::from(element_type.byte_width())
}

/// Bytes for `n` element slots: `⌈n·E/8⌉` when `E(n)` is set, else `n × byte width`.
fn bytes_for_elements(shape: &ArrayShape, n: i64) -> Option<i64> {
    match shape.layout.element_size_in_bits {
        0 => n.checked_mul(byte_size_of_primitive_type(shape.element_type)),
        e if e > 0 => Some(ceil_div(n.checked_mul(e)?, 8)),
        _ => None,
    }
}

/// The bytes of the elements, **ignoring tiles, `L` and `M`**: `ElementsIn × byte width`, or
/// `⌈ElementsIn·E/8⌉` with `E(n)` (XLA's `ShapeUtil::ByteSizeOfElements`). `None` for a `?`
/// dimension, a negative `E`, or on overflow.
///
/// ```
/// use xla_layout::{parse_array, shape_util::byte_size_of_elements};
/// assert_eq!(byte_size_of_elements(&parse_array("c64[10,20]").unwrap()), Some(1600));
/// assert_eq!(byte_size_of_elements(&parse_array("s4[3]{0:E(4)}").unwrap()), Some(2));
/// assert_eq!(byte_size_of_elements(&parse_array("f32[3,5]{1,0:T(2,2)}").unwrap()), Some(60));
/// ```
pub fn byte_size_of_elements(shape: &ArrayShape) -> Option<i64> {
    bytes_for_elements(shape, elements_in(shape)?)
}

/// The bytes of all array elements in a shape, tuples summed recursively (XLA's
/// `ShapeUtil::ByteSizeOfElementsRecursive`): [`byte_size_of_elements`] for arrays and
/// buffers, 0 for `token[]`. `None` for `opaque[]` (XLA CHECK-fails) or as for
/// `byte_size_of_elements`.
///
/// ```
/// use xla_layout::{shape_util::byte_size_of_elements_recursive, Shape};
/// let s: Shape = "(s32[16,32,64], s8[16,32,64])".parse().unwrap();
/// assert_eq!(byte_size_of_elements_recursive(&s), Some(163840));
/// ```
pub fn byte_size_of_elements_recursive(shape: &Shape) -> Option<i64> {
    match shape {
        Shape::Array(a) => byte_size_of_elements(a),
        Shape::Buffer(a) => byte_size_of_elements(a),
        Shape::Token => Some(0),
        Shape::Opaque => None,
        Shape::Tuple(elements) => elements.iter().try_fold(0i64, |acc, e| {
            acc.checked_add(byte_size_of_elements_recursive(e)?)
        }),
    }
}

/// The byte size of a shape's top-level buffer (XLA's `ShapeUtil::ByteSizeOf(shape,
/// pointer_size)`): [`byte_size_of_elements`] for an array or buffer (tiles ignored), 0 for
/// `token[]`, `pointer_size` for `opaque[]`, and `pointer_size ×` the element count for a
/// tuple (its index table, not its elements).
///
/// `None` when `pointer_size` is not positive and is needed (XLA CHECK-fails), or as for
/// `byte_size_of_elements`.
///
/// ```
/// use xla_layout::{shape_util::byte_size_of, Shape};
/// assert_eq!(byte_size_of(&"f32[10,20]".parse().unwrap(), 8), Some(800));
/// assert_eq!(byte_size_of(&"(f32[10,20], token[])".parse().unwrap(), 8), Some(16));
/// assert_eq!(byte_size_of(&Shape::Token, 8), Some(0));
/// assert_eq!(byte_size_of(&Shape::Opaque, 0), None);
/// ```
pub fn byte_size_of(shape: &Shape, pointer_size: i64) -> Option<i64> {
    match shape {
        Shape::Array(a) => byte_size_of_elements(a),
        Shape::Buffer(a) => byte_size_of_elements(a),
        Shape::Token => Some(0),
        Shape::Opaque => (pointer_size > 0).then_some(pointer_size),
        Shape::Tuple(elements) => {
            let n = i64::try_from(elements.len()).ok()?;
            (pointer_size > 0).then(|| pointer_size.checked_mul(n))?
        }
    }
}

/// The allocated bytes of an array, as XLA computes them (XLA's `ShapeUtil::ArraySize`).
///
/// Without tiles it is [`byte_size_of_elements`], so `L(n)` and split configs are **ignored**
/// then. With tiles, **only the first tile** counts ("we assume the sub-tiles won't cause
/// additional padding"):
/// * each of the k most-minor physical dimensions is rounded up to its tile dimension, a
///   missing dimension (tile rank above array rank) counting as 1; the size of a dimension is
///   its [`max_split_size`] when split configs are present;
/// * a `*` in the first tile rounds to the second tile's matching dimension if there is one,
///   else to `max(1, 32 / element_size_in_bits)` (XLA's "default packing");
/// * the remaining dimensions multiply in;
/// * the count is rounded up to `L(n)`;
/// * bytes are `⌈count·E/8⌉` with `E(n)`, else `count × byte width`.
///
/// `M(n)` is **not** included; the dynamic-shape metadata prefix comes on top. Because
/// sub-tiles are ignored, this can be less than [`Plan::size_bytes`](crate::Plan::size_bytes):
/// `bf16[3]{0:T(128)(2,1)}` gives 256 where the full expansion needs 512.
///
/// `None` for a `?` dimension (XLA returns `kUnboundedSize` when tiled), a minor_to_major that
/// is not a permutation, a non-positive tile dimension or `L(n)`, a `*` standing for another
/// `*`, a negative `E`, or overflow.
///
/// ```
/// use xla_layout::{parse_array, shape_util::array_size};
/// assert_eq!(array_size(&parse_array("f32[3,5]{1,0:T(2,2)}").unwrap()), Some(96));
/// assert_eq!(array_size(&parse_array("f32[]{:T(256)}").unwrap()), Some(1024));
/// assert_eq!(array_size(&parse_array("f32[200001,128]{1,0:T(8)L(1024)}").unwrap()), Some(102404096));
/// ```
pub fn array_size(shape: &ArrayShape) -> Option<i64> {
    let layout = &shape.layout;
    let Some(first) = layout.tiles.first() else {
        return byte_size_of_elements(shape);
    };
    static_dims(shape)?;
    if layout.element_size_in_bits < 0 {
        return None;
    }
    let rank = shape.rank();
    let m2m = as_permutation(&layout.minor_to_major, rank)?;
    let k = first.0.len();
    let mut elements: i64 = 1;
    for dim in 0..k {
        let size = match m2m.get(dim) {
            Some(&logical) => max_split_size(shape, logical)?,
            None => 1,
        };
        let tile_dim = match first.0[k - 1 - dim] {
            TileDim::Size(t) => t,
            TileDim::Combine => match layout.tiles.get(1) {
                Some(second) if dim < second.0.len() => match second.0[second.0.len() - 1 - dim] {
                    TileDim::Size(t) => t,
                    TileDim::Combine => return None,
                },
                _ => (32 / element_size_in_bits(shape)).max(1),
            },
        };
        if tile_dim <= 0 {
            return None;
        }
        elements = elements.checked_mul(ceil_div(size, tile_dim).checked_mul(tile_dim)?)?;
    }
    for &logical in m2m.iter().skip(k) {
        elements = elements.checked_mul(max_split_size(shape, logical)?)?;
    }
    let alignment = layout.tail_padding_alignment_in_elements;
    if alignment != 1 {
        if alignment < 1 {
            return None;
        }
        elements = ceil_div(elements, alignment).checked_mul(alignment)?;
    }
    bytes_for_elements(shape, elements)
}

/// The bytes up to and including the last element, ignoring trailing padding (XLA's
/// `ShapeUtil::ArrayDataSize`): the [`layout_util::linear_index`](crate::xla::layout_util::linear_index)
/// of the last element (first tile only, so rank-1 arrays ignore tiles), plus one, in bytes
/// (`⌈n·E/8⌉` with `E(n)`).
///
/// A zero-element array gives 0, as XLA's tests assert. (XLA gets there by evaluating the
/// index `dims - 1`, which is -1 on the empty dimension; with tiles that arithmetic need not
/// give 0, and this function does not reproduce it.) `None` for a `?` dimension, or as for
/// `linear_index`.
///
/// ```
/// use xla_layout::{parse_array, shape_util::array_data_size};
/// assert_eq!(array_data_size(&parse_array("f32[3,5]{1,0:T(2,2)}").unwrap()), Some(84));
/// assert_eq!(array_data_size(&parse_array("f32[]{:T(256)}").unwrap()), Some(4));
/// assert_eq!(array_data_size(&parse_array("s4[0,64,128]{2,1,0:E(4)}").unwrap()), Some(0));
/// ```
pub fn array_data_size(shape: &ArrayShape) -> Option<i64> {
    let dims = static_dims(shape)?;
    if dims.contains(&0) {
        return Some(0);
    }
    let last: Vec<i64> = dims.iter().map(|&d| d - 1).collect();
    let n = linear_index(shape, &last)?.checked_add(1)?;
    bytes_for_elements(shape, n)
}

/// Byte strides per logical dimension from minor_to_major alone, **ignoring tiles and
/// `E(n)`** (XLA's `ShapeUtil::UnpackedByteStrides`): the most-minor dimension has the
/// type's byte width, each next one the previous stride times the previous dimension.
///
/// `None` unless minor_to_major is a permutation of `0..rank`, for a `?` dimension, or on
/// overflow.
///
/// ```
/// use xla_layout::{parse_array, shape_util::unpacked_byte_strides};
/// assert_eq!(unpacked_byte_strides(&parse_array("f32[3,5,7]").unwrap()), Some(vec![140, 28, 4]));
/// assert_eq!(unpacked_byte_strides(&parse_array("f32[3,5]{0,1}").unwrap()), Some(vec![4, 12]));
/// ```
pub fn unpacked_byte_strides(shape: &ArrayShape) -> Option<Vec<i64>> {
    let dims = static_dims(shape)?;
    let m2m = as_permutation(&shape.layout.minor_to_major, dims.len())?;
    let mut strides = vec![0; dims.len()];
    let mut stride = byte_size_of_primitive_type(shape.element_type);
    for &d in &m2m {
        strides[d] = stride;
        stride = stride.checked_mul(dims[d])?;
    }
    Some(strides)
}

/// [`unpacked_byte_strides`], or `None` when `E(n)` is not a multiple of 8 (XLA's
/// `ShapeUtil::ByteStrides`).
///
/// As in XLA, a byte-multiple `E(n)` is otherwise ignored: `f32[2]{0:E(16)}` still gets
/// stride 4.
///
/// ```
/// use xla_layout::{parse_array, shape_util::byte_strides};
/// assert_eq!(byte_strides(&parse_array("s4[10,20]{1,0:E(4)}").unwrap()), None);
/// assert_eq!(byte_strides(&parse_array("f32[2]{0:E(16)}").unwrap()), Some(vec![4]));
/// ```
pub fn byte_strides(shape: &ArrayShape) -> Option<Vec<i64>> {
    if shape.layout.element_size_in_bits % 8 != 0 {
        return None;
    }
    unpacked_byte_strides(shape)
}

/// For a 1-D array with exactly three tiles whose third has two dimensions, that tile's
/// first dimension, e.g. 2 for `bf16[1024]{0:T(1024)(128)(2,1)}` (XLA's
/// `ShapeUtil::PackedFactorFor1DInterleavedArray`). `None` otherwise (XLA returns an error),
/// and for `*` (XLA would return `i64::MIN`).
///
/// ```
/// use xla_layout::{parse_array, shape_util::packed_factor_for_1d_interleaved_array as f};
/// assert_eq!(f(&parse_array("bf16[1024]{0:T(1024)(128)(2,1)}").unwrap()), Some(2));
/// assert_eq!(f(&parse_array("bf16[1024]{0:T(1024)}").unwrap()), None);
/// ```
pub fn packed_factor_for_1d_interleaved_array(shape: &ArrayShape) -> Option<i64> {
    match (shape.rank(), shape.layout.tiles.as_slice()) {
        (1, [_, _, third]) => match third.0.as_slice() {
            [TileDim::Size(factor), _] => Some(*factor),
            _ => None,
        },
        _ => None,
    }
}

/// The shape with another element type (XLA's `ShapeUtil::ChangeElementType`). `E(n)` is
/// kept only when the new type is a sub-byte non-pred type (s1, u1, s2, u2, s4, u4,
/// f4e2m1fn); otherwise it is reset to 0. Everything else is kept.
///
/// ```
/// use xla_layout::{parse_array, shape_util::change_element_type, PrimitiveType};
/// let a = parse_array("s4[64,128]{1,0:E(4)}").unwrap();
/// assert_eq!(change_element_type(&a, PrimitiveType::U4).to_string(), "u4[64,128]{1,0:E(4)}");
/// assert_eq!(change_element_type(&a, PrimitiveType::U8).to_string(), "u8[64,128]{1,0}");
/// ```
pub fn change_element_type(shape: &ArrayShape, element_type: PrimitiveType) -> ArrayShape {
    let mut out = shape.clone();
    out.element_type = element_type;
    if !element_type.is_sub_byte() {
        out.layout.element_size_in_bits = 0;
    }
    out
}

/// Sets `E(n)` of every array and buffer in the shape, recursively (XLA's
/// `ShapeUtil::UpdateElementSizeInBits`): the type's bit width for sub-byte non-pred types
/// when `pack_subbyte_types`, 0 otherwise.
///
/// ```
/// use xla_layout::{shape_util::update_element_size_in_bits, Shape};
/// let mut s: Shape = "(s4[8]{0}, f32[2]{0:E(32)})".parse().unwrap();
/// update_element_size_in_bits(&mut s, true);
/// assert_eq!(s.to_string(), "(s4[8]{0:E(4)}, f32[2]{0})");
/// update_element_size_in_bits(&mut s, false);
/// assert_eq!(s.to_string(), "(s4[8]{0}, f32[2]{0})");
/// ```
pub fn update_element_size_in_bits(shape: &mut Shape, pack_subbyte_types: bool) {
    let update = |a: &mut ArrayShape| {
        a.layout.element_size_in_bits = if pack_subbyte_types && a.element_type.is_sub_byte() {
            i64::from(a.element_type.bit_width())
        } else {
            0
        };
    };
    match shape {
        Shape::Array(a) => update(a),
        Shape::Buffer(a) => update(a),
        Shape::Tuple(elements) => elements
            .iter_mut()
            .for_each(|e| update_element_size_in_bits(e, pack_subbyte_types)),
        Shape::Token | Shape::Opaque => {}
    }
}

/// True when every array's layout has only host-compatible attributes: no tiles, `S(0)`,
/// `E(0)`, `L(1)` and `M(0)` (XLA's `ShapeUtil::DeviceShapeIsHostShape`). As in XLA, split
/// configs are not looked at.
///
/// ```
/// use xla_layout::{shape_util::device_shape_is_host_shape, Shape};
/// assert!(device_shape_is_host_shape(&"(f32[2,3]{0,1}, token[])".parse().unwrap()));
/// assert!(!device_shape_is_host_shape(&"f32[2,3]{1,0:S(5)}".parse().unwrap()));
/// ```
pub fn device_shape_is_host_shape(shape: &Shape) -> bool {
    let is_host = |l: &ArrayLayout| {
        l.tiles.is_empty()
            && l.memory_space == 0
            && l.element_size_in_bits == 0
            && l.tail_padding_alignment_in_elements == 1
            && l.dynamic_shape_metadata_prefix_bytes == 0
    };
    match shape {
        Shape::Array(a) => is_host(&a.layout),
        Shape::Buffer(a) => is_host(&a.layout),
        Shape::Tuple(elements) => elements.iter().all(device_shape_is_host_shape),
        Shape::Token | Shape::Opaque => true,
    }
}

/// The shape with every array's tiles cleared and `S`, `E`, `L` and `M` reset to their
/// defaults (XLA's `ShapeUtil::DeviceShapeToHostShape`); minor_to_major and split configs
/// stay.
///
/// ```
/// use xla_layout::{shape_util::device_shape_to_host_shape, Shape};
/// let s: Shape = "bf16[8,1,64]{2,1,0:T(8,128)(2,1)S(5)}".parse().unwrap();
/// assert_eq!(device_shape_to_host_shape(s).to_string(), "bf16[8,1,64]{2,1,0}");
/// ```
pub fn device_shape_to_host_shape(mut shape: Shape) -> Shape {
    fn clear(shape: &mut Shape) {
        let host = |l: &mut ArrayLayout| {
            l.tiles.clear();
            l.memory_space = 0;
            l.element_size_in_bits = 0;
            l.tail_padding_alignment_in_elements = 1;
            l.dynamic_shape_metadata_prefix_bytes = 0;
        };
        match shape {
            Shape::Array(a) => host(&mut a.layout),
            Shape::Buffer(a) => host(&mut a.layout),
            Shape::Tuple(elements) => elements.iter_mut().for_each(clear),
            Shape::Token | Shape::Opaque => {}
        }
    }
    clear(&mut shape);
    shape
}
