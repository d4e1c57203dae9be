//! The limits of layout types that the macro reports with spans. Shared by the static
//! (`spell.rs`) and dynamic (`dynamic.rs`) spellings.

use proc_macro2::Span;
use xla_layout_core::ArrayShape;
use xla_layout_core::typed::{MAX_TYPED_RANK, MAX_TYPED_TILES, TEXT_CAPACITY};

use crate::source::spanned;

/// The limits of layout types (`kind` is "static" or "dynamic"): the canonical text's
/// length, the rank and the tiles.
pub(crate) fn check_capacity(
    a: &ArrayShape,
    array: (Span, Span),
    tiles_span: (Span, Span),
    kind: &str,
) -> Result<(), Vec<syn::Error>> {
    let canonical = a.to_string();
    if canonical.len() > TEXT_CAPACITY {
        return Err(vec![spanned(
            array.0,
            array.1,
            format!(
                "the canonical text of this layout is {} bytes; layout! types hold at most \
                 {TEXT_CAPACITY}",
                canonical.len(),
            ),
        )]);
    }
    if a.rank() > MAX_TYPED_RANK {
        return Err(vec![spanned(
            array.0,
            array.1,
            format!(
                "this array has {} dimensions; {kind} layout! types hold at most \
                 {MAX_TYPED_RANK}: merge dimensions that stay together (a reshape), or index it \
                 at run time with `xla_layout::Plan`, which has no such limit",
                a.rank()
            ),
        )]);
    }
    let widest_tile = a.layout.tiles.iter().map(|t| t.dims().len()).max();
    if a.layout.tiles.len() > MAX_TYPED_TILES || widest_tile > Some(MAX_TYPED_TILES) {
        return Err(vec![spanned(
            tiles_span.0,
            tiles_span.1,
            format!(
                "this layout has {} tiles, the widest of rank {}; {kind} layout! types hold at \
                 most {MAX_TYPED_TILES} tiles of at most {MAX_TYPED_TILES} dimensions each: \
                 index it at run time with `xla_layout::Plan`, which has no such limit",
                a.layout.tiles.len(),
                widest_tile.unwrap_or(0)
            ),
        )]);
    }
    Ok(())
}
