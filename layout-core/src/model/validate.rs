//! The validator: XLA's `ValidateLayoutForShape` and `ValidateShape` rules plus the strict
//! rules of this crate, reporting every problem with the span of the part at fault.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::ops::Range;

use crate::model::spans::{ArraySpans, SourceMap, SplitSpans};
use crate::model::{ArrayShape, Dim, Error, ErrorKind, Errors, MAX_NESTING, Shape, TileDim};

/// Validates every array in `shape`; with a source map, errors point at the text.
pub(crate) fn validate_shape(shape: &Shape, map: Option<&SourceMap>) -> Result<(), Errors> {
    let mut errors = Vec::new();
    let mut ordinal = 0;
    walk(shape, map, &mut ordinal, &mut errors);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Errors::new(errors))
    }
}

pub(crate) fn validate_array(array: &ArrayShape) -> Result<(), Errors> {
    let mut errors = Vec::new();
    check_array(array, None, &mut errors);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Errors::new(errors))
    }
}

/// Checks every array of `shape` in pre-order, with a heap stack rather than recursion, and
/// reports nesting deeper than [`MAX_NESTING`] (possible only for shapes built in code: the
/// parser stops there).
fn walk(shape: &Shape, map: Option<&SourceMap>, ordinal: &mut usize, errors: &mut Vec<Error>) {
    let mut too_deep = false;
    let mut stack: Vec<(&Shape, usize)> = vec![(shape, 0)];
    while let Some((shape, depth)) = stack.pop() {
        let mut array = |a: &ArrayShape| {
            let spans = map.and_then(|m| m.arrays.get(*ordinal));
            *ordinal += 1;
            check_array(a, spans, errors);
        };
        match shape {
            Shape::Array(a) => array(a),
            Shape::Buffer(a) => array(a),
            Shape::Tuple(_) if depth >= MAX_NESTING => {
                if !too_deep {
                    too_deep = true;
                    errors.push(Error::new(
                        ErrorKind::NestingTooDeep,
                        None,
                        format!(
                            "tuples nest more than {MAX_NESTING} levels deep; flatten the shape \
                             (XLA's parser allows 32768 levels, this crate {MAX_NESTING})"
                        ),
                    ));
                }
            }
            Shape::Tuple(elements) => {
                stack.extend(elements.iter().rev().map(|e| (e, depth + 1)));
            }
            Shape::Token | Shape::Opaque => {}
        }
    }
}

/// Finds the span of a part of the array, falling back to larger enclosing parts.
struct At<'a>(Option<&'a ArraySpans>);

impl At<'_> {
    fn layout(&self) -> Option<Range<usize>> {
        self.0
            .and_then(|s| s.layout.clone().or_else(|| Some(s.whole.clone())))
    }
    fn get(&self, f: impl Fn(&ArraySpans) -> Option<Range<usize>>) -> Option<Range<usize>> {
        self.0.and_then(|s| {
            f(s).or_else(|| s.layout.clone())
                .or_else(|| Some(s.whole.clone()))
        })
    }
}

fn list(values: &[i64]) -> String {
    let items: Vec<String> = values.iter().map(|v| format!("{v}")).collect();
    format!("{{{}}}", items.join(","))
}

/// The dimensions not marked present, for messages: at most a few, then how many more.
fn missing_dimensions(present: &[bool]) -> String {
    const SHOWN: usize = 8;
    let mut missing = present
        .iter()
        .enumerate()
        .filter(|(_, p)| !**p)
        .map(|(k, _)| k);
    let shown: Vec<String> = missing
        .by_ref()
        .take(SHOWN)
        .map(|k| format!("{k}"))
        .collect();
    let more = missing.count();
    let mut text = shown.join(", ");
    if more > 0 {
        text.push_str(&format!(" and {more} more"));
    }
    text
}

fn check_array(a: &ArrayShape, spans: Option<&ArraySpans>, errors: &mut Vec<Error>) {
    let at = At(spans);
    let rank = a.dims.len();
    let mut err = |kind, span, message: String| errors.push(Error::new(kind, span, message));

    for (i, d) in a.dims.iter().enumerate() {
        if let Dim::Static(n) | Dim::Bounded(n) = *d
            && n < 0
        {
            err(
                ErrorKind::NegativeDimension,
                at.get(|s| s.dims.get(i).cloned()),
                format!(
                    "dimension {i} has size {n}; sizes must be >= 0 (an unbounded dynamic \
                     dimension is written `?`)"
                ),
            );
        }
    }

    let l = &a.layout;
    let m2m = &l.minor_to_major;
    let mut permutation_ok = true;
    if m2m.len() != rank {
        permutation_ok = false;
        let descending: Vec<i64> = (0..rank as i64).rev().collect();
        err(
            ErrorKind::MinorToMajorLength,
            at.layout(),
            format!(
                "minor_to_major {} has {} entries but the shape has {rank} dimensions; expected \
                 a permutation of 0..{rank}, such as {}",
                list(m2m),
                m2m.len(),
                list(&descending)
            ),
        );
    } else {
        let in_range = |d: i64| usize::try_from(d).ok().filter(|&d| d < rank);
        let mut present = vec![false; rank];
        for &d in m2m {
            if let Some(d) = in_range(d) {
                present[d] = true;
            }
        }
        let missing = missing_dimensions(&present);
        let mut seen = vec![false; rank];
        for (i, &d) in m2m.iter().enumerate() {
            let span = at.get(|s| s.minor_to_major.get(i).cloned());
            match in_range(d) {
                None => {
                    permutation_ok = false;
                    err(
                        ErrorKind::MinorToMajorOutOfRange,
                        span,
                        format!(
                            "minor_to_major has {d}, which is not a dimension of this rank-{rank} \
                             array; expected a permutation of 0..{rank}"
                        ),
                    );
                }
                Some(d) if seen[d] => {
                    permutation_ok = false;
                    err(
                        ErrorKind::MinorToMajorDuplicate,
                        span,
                        format!(
                            "minor_to_major has {d} twice; expected a permutation of 0..{rank} \
                             (missing: {missing})"
                        ),
                    );
                }
                Some(d) => seen[d] = true,
            }
        }
    }

    let mut tiles_ok = true;
    for (ti, tile) in l.tiles.iter().enumerate() {
        let tile_span = at.get(|s| s.tiles.get(ti).map(|t| t.0.clone()));
        if tile.0.is_empty() {
            tiles_ok = false;
            err(
                ErrorKind::EmptyTile,
                tile_span.clone(),
                "empty tile `()`: a tile needs at least one dimension, such as (8,128)".into(),
            );
        }
        for (di, td) in tile.0.iter().enumerate() {
            let span = at.get(|s| s.tiles.get(ti).and_then(|t| t.1.get(di).cloned()));
            match *td {
                TileDim::Size(n) if n <= 0 => {
                    tiles_ok = false;
                    err(
                        ErrorKind::NonPositiveTileDimension,
                        span,
                        format!(
                            "tile dimension {n} must be positive (or `*` to combine this \
                             dimension with the next)"
                        ),
                    );
                }
                TileDim::Combine if di + 1 == tile.0.len() => {
                    tiles_ok = false;
                    err(
                        ErrorKind::CombineInMinorPosition,
                        span,
                        "`*` cannot be the most-minor tile dimension: it merges a dimension into \
                         the next more-minor one, and there is none"
                            .into(),
                    );
                }
                _ => {}
            }
        }
    }

    if l.tail_padding_alignment_in_elements < 1 {
        err(
            ErrorKind::InvalidTailPadding,
            at.get(|s| s.tail_padding.clone()),
            format!(
                "L({}): the tail padding alignment must be at least 1 element (L(1), the \
                 default, means no padding)",
                l.tail_padding_alignment_in_elements
            ),
        );
    }
    if l.element_size_in_bits < 0 {
        err(
            ErrorKind::NegativeElementSize,
            at.get(|s| s.element_size.clone()),
            format!(
                "E({}): the element size in bits must be >= 0 (0 means the type's own width)",
                l.element_size_in_bits
            ),
        );
    }
    if !(0..=127).contains(&l.memory_space) {
        let wrapped = l.memory_space as i8;
        err(
            ErrorKind::MemorySpaceOutOfRange,
            at.get(|s| s.memory_space.clone()),
            format!(
                "S({}) is out of range: memory spaces are 0..=127 (XLA keeps an int8 and would \
                 silently read this as S({wrapped}))",
                l.memory_space
            ),
        );
    }

    check_split_configs(a, &at, permutation_ok, errors);
    let mut err = |kind, span, message: String| errors.push(Error::new(kind, span, message));

    if !l.padded_dimensions.is_empty() {
        if l.padded_dimensions.len() != rank {
            err(
                ErrorKind::InvalidPaddedDimensions,
                at.layout(),
                format!(
                    "padded_dimensions has {} entries but the shape has {rank} dimensions; give \
                     one padded size per dimension",
                    l.padded_dimensions.len()
                ),
            );
        } else {
            for (i, (&p, d)) in l.padded_dimensions.iter().zip(&a.dims).enumerate() {
                if d.extent().is_some_and(|e| p < e) {
                    err(
                        ErrorKind::InvalidPaddedDimensions,
                        at.layout(),
                        format!(
                            "dimension {i} is padded to {p}, which is smaller than its size {}; \
                             a padded size must be >= the dimension",
                            d.extent().unwrap_or(0)
                        ),
                    );
                }
            }
        }
    }

    // XLA's ValidateShapeSize: the product of the dimensions (unbounded ones skipped), then
    // the product with the byte width, must fit in i64 (the overflow flag is sticky).
    let dims_ok = a.dims.iter().all(|d| d.extent().is_none_or(|n| n >= 0));
    if dims_ok {
        let mut product: i64 = 1;
        let mut elements_overflow = false;
        for n in a.dims.iter().filter_map(|d| d.extent()) {
            match product.checked_mul(n) {
                Some(p) => product = p,
                None => {
                    elements_overflow = true;
                    product = product.wrapping_mul(n);
                }
            }
        }
        let bytes_overflow = product
            .checked_mul(i64::from(a.element_type.byte_width()))
            .is_none();
        let overflow = elements_overflow || bytes_overflow;
        let physical_overflow = !overflow
            && permutation_ok
            && tiles_ok
            && l.tail_padding_alignment_in_elements >= 1
            && l.element_size_in_bits >= 0
            && crate::model::tiling::checked_byte_size(a).is_none();
        if overflow || physical_overflow {
            let what = if elements_overflow {
                let n = a.dims.iter().filter_map(|d| d.extent());
                format!(
                    "{} elements",
                    wide_product(n.map(|e| e.unsigned_abs().into()))
                )
            } else if bytes_overflow {
                let bytes =
                    u128::from(product.unsigned_abs()) * u128::from(a.element_type.byte_width());
                format!("a size of {} bytes", wide(Some(bytes)))
            } else {
                format!(
                    "a physical size of {} bytes once tiled and padded",
                    wide(crate::model::tiling::wide_byte_size(a))
                )
            };
            err(
                ErrorKind::SizeOverflow,
                at.get(|s| Some(s.dims_list.clone())),
                format!(
                    "the array `{a}` has {what}, which exceeds i64::MAX = {}, XLA's limit",
                    i64::MAX
                ),
            );
        }
    }
}

/// The product of `values` as text, exactly when it fits in 128 bits.
fn wide_product(mut values: impl Iterator<Item = u128>) -> String {
    wide(values.try_fold(1u128, |acc, v| acc.checked_mul(v)))
}

/// A size as text: the number, or "more than 2^128" when it did not fit in 128 bits.
fn wide(n: Option<u128>) -> String {
    match n {
        Some(n) if n.is_power_of_two() && n > 1 << 20 => format!("2^{}", n.trailing_zeros()),
        Some(n) => format!("{n}"),
        None => String::from("more than 2^128"),
    }
}

fn check_split_configs(a: &ArrayShape, at: &At<'_>, permutation_ok: bool, errors: &mut Vec<Error>) {
    let rank = a.dims.len();
    let m2m = &a.layout.minor_to_major;
    let mut seen_dims = vec![false; rank];
    for (ci, config) in a.layout.split_configs.iter().enumerate() {
        let split_span = |f: &dyn Fn(&SplitSpans) -> Option<Range<usize>>| {
            at.get(|s| s.splits.get(ci).and_then(f))
        };
        let d = config.dimension;
        let dim_span = split_span(&|s| Some(s.1.clone()));
        let physical = usize::try_from(d).ok().filter(|&d| d < rank);
        match physical {
            None => errors.push(Error::new(
                ErrorKind::SplitDimensionOutOfRange,
                dim_span,
                format!(
                    "split config dimension {d} is out of range: split configs name physical \
                     dimensions 0..{rank}, numbered from the most major"
                ),
            )),
            Some(p) if seen_dims[p] => errors.push(Error::new(
                ErrorKind::SplitDimensionDuplicate,
                dim_span,
                format!("physical dimension {d} has two split configs; give it one, with all its split indices"),
            )),
            Some(p) => seen_dims[p] = true,
        }
        let idx = &config.split_indices;
        let increasing = idx.first().is_none_or(|&f| f > 0) && idx.windows(2).all(|w| w[0] < w[1]);
        if !increasing {
            errors.push(Error::new(
                ErrorKind::SplitIndicesNotIncreasing,
                split_span(&|s| Some(s.0.clone())),
                format!(
                    "split indices {} must be positive and strictly increasing",
                    list(idx)
                ),
            ));
        }
        let dim = physical
            .filter(|_| permutation_ok)
            .and_then(|p| usize::try_from(m2m[rank - 1 - p]).ok())
            .and_then(|logical| a.dims.get(logical));
        match dim.map(|d| d.extent()) {
            Some(Some(size)) => {
                for (k, &i) in idx.iter().enumerate() {
                    if i >= size {
                        errors.push(Error::new(
                            ErrorKind::SplitIndexOutOfRange,
                            split_span(&|s| s.2.get(k).cloned()),
                            format!(
                                "split index {i} is out of range for physical dimension {d} of \
                                 size {size}; split indices must be below the size"
                            ),
                        ));
                    }
                }
            }
            // XLA stores `?` as the size i64::MIN, so every split index is out of bounds.
            Some(None) => {
                for (k, index) in idx.iter().enumerate() {
                    errors.push(Error::new(
                        ErrorKind::SplitIndexOutOfRange,
                        split_span(&|s| s.2.get(k).cloned()),
                        format!(
                            "physical dimension {d} is unbounded (`?`), so it has no size to split \
                             at {}; give it a static size or a bound (`<=N`), or drop the split \
                             config",
                            index
                        ),
                    ));
                }
            }
            None => {}
        }
    }
}
