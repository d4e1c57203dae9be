//! Spelling an array with dynamic dimensions (`?`, `<=N`) as a `xla_layout::typed::DynArray`:
//! the offset's closed form at the bounds, with each term whose stride depends on a dynamic
//! extent read from the run-time strides (a `Slot`).

use proc_macro2::{Literal, Span, TokenStream};
use quote::{format_ident, quote};
use xla_layout_core::typed::{marker_name, text_chunks};
use xla_layout_core::{ArrayShape, Dim, Expr, Plan, TileDim};

use crate::source::spanned;
use crate::typelevel::{expr, list, readable, tiles as tile_types};

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

pub(crate) fn dyn_array_type(
    a: &ArrayShape,
    array: (Span, Span),
    padded: Option<(Span, Span)>,
) -> Result<TokenStream, Vec<syn::Error>> {
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
    // `?` accepts extents up to the largest power of two whose layout's size fits.
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
    let bounds: Vec<i64> = a
        .dims
        .iter()
        .map(|d| d.extent().unwrap_or(unbounded))
        .collect();
    let at_bounds = at(a, |b| b.unwrap_or(unbounded));
    let plan = Plan::new(&at_bounds).map_err(|e| error(array, e.to_string()))?;
    let offset = plan.offset_expr();
    if merges_dynamic(&offset, &dynamic) {
        return Err(error(
            array,
            "a `*` in the tiles merges a dynamic dimension into the next one, so the offset \
             would multiply by its run-time extent inside a tile; layout! types support `*` \
             only on static dimensions: give that dimension a static size, or drop the `*`"
                .into(),
        ));
    }
    // Which strides depend on the dynamic extents: compare the plans at two multiples of all
    // tile sizes, where every tiled extent derived from a dynamic dimension doubles.
    let tiles: i64 = a
        .layout
        .tiles
        .iter()
        .flat_map(|t| t.dims().iter())
        .filter_map(|d| match d {
            TileDim::Size(n) => Some(*n),
            TileDim::Combine => None,
        })
        .fold(1i64, |p, n| p.saturating_mul(n).min(1 << 20));
    let probe = |k: i64| Plan::new(&at(a, |_| k * tiles));
    let (Ok(p1), Ok(p2)) = (probe(1), probe(2)) else {
        return Err(error(
            array,
            "this layout is too large to give its dynamic dimensions run-time extents".into(),
        ));
    };
    let varies: Vec<bool> = p1
        .expanded_strides()
        .iter()
        .zip(p2.expanded_strides())
        .map(|(x, y)| x != y)
        .collect();
    let Expr::Sum(terms) = offset else {
        unreachable!("offset_expr is a sum")
    };
    let root = quote!(::xla_layout::typed);
    // Each term's position among the expanded dims: the first not yet used with its stride
    // (terms come in that order; a skipped position is a dimension of extent 1).
    let strides = plan.expanded_strides();
    let mut next = 0;
    let mut slots = Vec::new();
    let mut spelled = Vec::new();
    for (x, stride) in &terms {
        let k = (next..strides.len())
            .find(|&k| strides[k] == *stride)
            .unwrap_or(next);
        next = k + 1;
        let x = expr(&root, x);
        if varies.get(k).copied().unwrap_or(false) {
            let slot = Literal::usize_unsuffixed(slots.len());
            slots.push(k);
            spelled.push(quote!(#root::Slot<#x, #slot,));
        } else {
            let s = Literal::usize_unsuffixed(*stride);
            spelled.push(quote!(#root::Term<#x, #s,));
        }
    }
    let closing = core::iter::repeat_n(quote!(>), spelled.len());
    let offset = quote!(#(#spelled)* #root::Nil #(#closing)*);

    let canonical = a.to_string();
    let Some(chunks) = text_chunks(&canonical) else {
        return Err(error(
            array,
            format!(
                "the canonical text of this layout is {} bytes; layout! types hold at most {}",
                canonical.len(),
                xla_layout_core::typed::TEXT_CAPACITY
            ),
        ));
    };
    let text_len = Literal::usize_unsuffixed(canonical.len());
    let text = chunks.iter().rev().fold(quote!(#root::Nil), |rest, &c| {
        let c = Literal::u128_unsuffixed(c);
        quote!(#root::Chunk<#c, #rest>)
    });
    let elem = format_ident!("{}", marker_name(a.element_type));
    let rank = Literal::usize_unsuffixed(a.rank());
    let dims: Vec<usize> = a
        .dims
        .iter()
        .map(|d| d.extent().unwrap_or(0) as usize)
        .collect();
    let dims = readable(&root, "Dims", &dims);
    let flags: Vec<usize> = dynamic.iter().map(|&d| usize::from(d)).collect();
    let flags = list(&root, &flags);
    let bounds: Vec<usize> = bounds.iter().map(|&b| b as usize).collect();
    let bounds = list(&root, &bounds);
    let m2m: Vec<usize> = plan.physical_order().iter().rev().copied().collect();
    let m2m = readable(&root, "MinorToMajor", &m2m);
    let tiles = tile_types(&root, &a.layout);
    let positions = list(&root, &slots);
    let k = Literal::usize_unsuffixed(slots.len());
    let natural = plan.element_bits() == a.element_type.storage_bits() as usize;
    let storage = if natural && plan.prefix_bytes() == 0 {
        quote!(#root::Direct)
    } else {
        quote!(#root::Packed)
    };
    let bits = Literal::usize_unsuffixed(plan.element_bits());
    let space = Literal::u8_unsuffixed(a.layout.memory_space as u8);
    let prefix = Literal::usize_unsuffixed(plan.prefix_bytes());
    Ok(quote! {
        #root::DynArray<
            #root::elem::#elem,
            #rank,
            #dims,
            #m2m,
            #tiles,
            #storage,
            #root::DynCompiled<
                #flags,
                #bounds,
                #root::DynMeta<#bits, #space, #prefix>,
                #root::Text<#text_len, #text>,
                #offset,
                #positions,
            >,
            #k,
        >
    })
}
