//! Spelling values as the type-level building blocks of `xla_layout::typed`: lists of
//! numbers (`Cons`/`Nil`) and closed-form expressions (`Term`, `Idx`, `Div`, `Rem`, `MulAdd`).
//! Shared by the static (`spell.rs`) and dynamic (`dynamic.rs`) spellings.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;
use xla_layout_core::{ArrayLayout, Expr, TileDim};

/// `items` as a `Cons<.., Cons<.., Nil>>` list under `root`.
pub(crate) fn list(root: &TokenStream, items: &[usize]) -> TokenStream {
    items.iter().rev().fold(quote!(#root::Nil), |rest, &v| {
        let v = Literal::usize_unsuffixed(v);
        quote!(#root::Cons<#v, #rest>)
    })
}

/// The closed form `e` as expression types under `root`.
pub(crate) fn expr(root: &TokenStream, e: &Expr) -> TokenStream {
    let n = |v: usize| Literal::usize_unsuffixed(v);
    match e {
        Expr::Zero => quote!(#root::Zero),
        Expr::Index(d) => {
            let d = n(*d);
            quote!(#root::Idx<#d>)
        }
        Expr::MulAdd(a, m, b) => {
            let (a, m, b) = (expr(root, a), n(*m), expr(root, b));
            quote!(#root::MulAdd<#a, #m, #b>)
        }
        Expr::Div(x, t) => {
            let (x, t) = (expr(root, x), n(*t));
            quote!(#root::Div<#x, #t>)
        }
        Expr::Rem(x, t) => {
            let (x, t) = (expr(root, x), n(*t));
            quote!(#root::Rem<#x, #t>)
        }
        Expr::Sum(terms) => terms.iter().rev().fold(quote!(#root::Nil), |rest, (x, s)| {
            let (x, s) = (expr(root, x), n(*s));
            quote!(#root::Term<#x, #s, #rest>)
        }),
    }
}

/// `items` as the readable list type `name` under `root` (`Dims<16, 256>`): up to 8 const
/// arguments (32 for `Bitcast`), then the rest as a list of the same kind in the next one.
pub(crate) fn readable(root: &TokenStream, name: &str, items: &[usize]) -> TokenStream {
    let slots = if name == "Bitcast" {
        xla_layout_core::typed::BITCAST_SLOTS
    } else {
        8
    };
    let name = Ident::new(name, Span::call_site());
    let head = items
        .iter()
        .take(slots)
        .map(|&v| Literal::usize_unsuffixed(v));
    if items.len() > slots {
        let more = readable(root, &name.to_string(), &items[slots..]);
        quote!(#root::#name<#(#head,)* #more>)
    } else {
        quote!(#root::#name<#(#head),*>)
    }
}

/// The tiles of a layout as `Tiles<Tile<8, 128>, Tile<2, 1>>` under `root`, `*` as 0; up to 8
/// tiles, then the rest in the ninth argument.
pub(crate) fn tiles(root: &TokenStream, layout: &ArrayLayout) -> TokenStream {
    let tiles: Vec<TokenStream> = layout
        .tiles
        .iter()
        .map(|t| {
            let dims: Vec<usize> = t
                .dims()
                .iter()
                .map(|d| match d {
                    TileDim::Size(n) => usize::try_from(*n).unwrap_or(0),
                    TileDim::Combine => 0,
                })
                .collect();
            readable(root, "Tile", &dims)
        })
        .collect();
    tile_list(root, &tiles)
}

fn tile_list(root: &TokenStream, tiles: &[TokenStream]) -> TokenStream {
    let head = tiles.iter().take(8);
    if tiles.len() > 8 {
        let more = tile_list(root, &tiles[8..]);
        quote!(#root::Tiles<#(#head,)* #more>)
    } else {
        quote!(#root::Tiles<#(#head),*>)
    }
}
