//! Spelling an array with dynamic dimensions (`?`, `<=N`) as a `xla_layout::typed::DynArray`
//! (`DynDims<AnySize, Fixed<1280>>`, `MinorToMajor<..>`, `Tiles<..>`, the attributes and
//! storage) through the `DynSpelledN`/`DynPackedN` aliases, after the checks that only the
//! macro can report with spans: the layout at its bounds, and no `*` merging a dynamic
//! dimension.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{format_ident, quote};
use xla_layout_core::typed::{DimKind, NONE, dim_code, marker_name};
use xla_layout_core::{ArrayShape, Dim, Expr, Plan};

use crate::limits::check_capacity;
use crate::source::spanned;
use crate::typelevel::{lemp, packed, slots, splits, tile_numbers};

/// The shape with every dimension static: dynamic ones at `dynamic(bound)` (`None` for `?`).
fn at(a: &ArrayShape, dynamic: impl Fn(Option<i64>) -> i64) -> ArrayShape {
    let mut a = a.clone();
    for d in &mut a.dims {
        *d = match *d {
            Dim::Static(n) => Dim::Static(n),
            Dim::Bounded(n) => Dim::Static(dynamic(Some(n))),
            Dim::Unbounded => Dim::Static(dynamic(None)),
        };
    }
    a
}

/// Whether an expression reads index entry `d` for some dynamic `d`.
fn reads_dynamic(e: &Expr, dynamic: &[bool]) -> bool {
    match e {
        Expr::Zero => false,
        Expr::Index(d) => dynamic[*d],
        Expr::MulAdd(a, _, b) => reads_dynamic(a, dynamic) || reads_dynamic(b, dynamic),
        Expr::Div(x, _) | Expr::Rem(x, _) => reads_dynamic(x, dynamic),
        Expr::Sum(terms) => terms.iter().any(|(x, _)| reads_dynamic(x, dynamic)),
    }
}

/// Whether a `*` merges a dimension that depends on a dynamic extent into another: its
/// multiplier would be that extent, which the closed form needs as a constant.
fn merges_dynamic(e: &Expr, dynamic: &[bool]) -> bool {
    match e {
        Expr::Zero | Expr::Index(_) => false,
        Expr::MulAdd(a, _, b) => {
            reads_dynamic(b, dynamic) || merges_dynamic(a, dynamic) || merges_dynamic(b, dynamic)
        }
        Expr::Div(x, _) | Expr::Rem(x, _) => merges_dynamic(x, dynamic),
        Expr::Sum(terms) => terms.iter().any(|(x, _)| merges_dynamic(x, dynamic)),
    }
}

/// The type of a valid array with dynamic dimensions; `spans` are those of the array and of
/// its tiles.
pub(crate) fn dyn_array_type(
    a: &ArrayShape,
    spans: ((Span, Span), (Span, Span)),
    padded: Option<(Span, Span)>,
) -> Result<TokenStream, Vec<syn::Error>> {
    let (array, tiles_span) = spans;
    let error = |span: (Span, Span), message: String| vec![spanned(span.0, span.1, message)];
    if let Some(option) = padded {
        return Err(error(
            option,
            "`padded` pads every dimension to a static size, so it needs static dimensions; \
             drop `?` and `<=N`, or drop `padded`"
                .into(),
        ));
    }
    let dynamic: Vec<bool> = a.dims.iter().map(|d| d.is_dynamic()).collect();
    // `?` accepts extents up to the largest power of two whose layout's size fits (the type
    // finds the same bound at compile time).
    let unbounded = (0..=40u32)
        .rev()
        .map(|k| 1i64 << k)
        .find(|&p| Plan::new(&at(a, |b| b.unwrap_or(p))).is_ok());
    let Some(unbounded) = unbounded else {
        let message = match Plan::new(&at(a, |b| b.unwrap_or(1))) {
            Err(e) => e.to_string(),
            Ok(_) => "no extent fits".into(),
        };
        return Err(error(array, message));
    };
    let plan =
        Plan::new(&at(a, |b| b.unwrap_or(unbounded))).map_err(|e| error(array, e.to_string()))?;
    if merges_dynamic(&plan.offset_expr(), &dynamic) {
        return Err(error(
            array,
            "a `*` in the tiles merges a dynamic dimension into the next one, so the offset \
             would multiply by its run-time extent inside a tile; layout! types support `*` \
             only on static dimensions: give that dimension a static size, or drop the `*`"
                .into(),
        ));
    }
    check_capacity(a, array, tiles_span, "dynamic")?;
    let layout = &a.layout;
    if layout
        .tiles
        .iter()
        .flat_map(tile_numbers)
        .any(|n| n == NONE)
    {
        return Err(error(
            tiles_span,
            format!(
                "layout! types use {NONE} to mark unused arguments, so no tile size can be \
                 exactly {NONE}: index this layout at run time with `xla_layout::Plan`, which \
                 has no such limit"
            ),
        ));
    }

    // Constants but for the element type and the split configs: see `typed::DynSpelled0`.
    let root = quote!(::xla_layout::typed);
    let elem = format_ident!("{}", marker_name(a.element_type));
    let rank = Literal::usize_unsuffixed(a.rank());
    // Ranks 9 to 16 take the `Wide` aliases, with 16 `minor_to_major` entries.
    let wide = a.rank() > 8;
    let mut consts = vec![quote!(#rank)];
    let m2m: Vec<usize> = plan.physical_order().iter().rev().copied().collect();
    consts.extend(slots(&m2m, if wide { 16 } else { 8 }));
    for tile in &layout.tiles {
        consts.extend(slots(&tile_numbers(tile), 8));
    }
    consts.extend(lemp(layout));
    let splits = splits(&root, layout);
    let dims = a.dims.iter().map(|d| {
        let (kind, size) = match *d {
            Dim::Unbounded => (DimKind::Unbounded, 0),
            Dim::Bounded(n) => (DimKind::Bounded, n),
            Dim::Static(n) => (DimKind::Static, n),
        };
        let kind = Literal::u8_unsuffixed(dim_code(kind));
        let size = Literal::usize_unsuffixed(usize::try_from(size).unwrap_or(0));
        quote!(#kind, #size)
    });
    let family = if packed(a, &plan) {
        "DynPacked"
    } else {
        "DynSpelled"
    };
    let prefix = if wide { "Wide" } else { "" };
    let alias = format_ident!("{prefix}{family}{}", layout.tiles.len());
    Ok(quote!(
        #root::#alias<#root::elem::#elem, #(#consts,)* #splits #(, #dims)*>
    ))
}
