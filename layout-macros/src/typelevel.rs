//! Spelling values as the arguments of the `SpelledN`/`DynSpelledN`/`DynPackedN` aliases of
//! `xla_layout::typed`: lists of numbers as constants, the bitcast signature, the split
//! configs, the storage kind. Shared by the static (`spell.rs`) and dynamic (`dynamic.rs`)
//! spellings.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;
use xla_layout_core::typed::{BITCAST_SLOTS, NONE};
use xla_layout_core::{ArrayLayout, ArrayShape, Plan, Tile, TileDim};

/// `items` as the readable list type `name` under `root` (`Bitcast<12, 1, 12>`), when they fit
/// its slots (32 for `Bitcast`, 8 for `Split`).
pub(crate) fn readable(root: &TokenStream, name: &str, items: &[usize]) -> TokenStream {
    let name = Ident::new(name, Span::call_site());
    let items = items.iter().map(|&v| Literal::usize_unsuffixed(v));
    quote!(#root::#name<#(#items),*>)
}

/// `items` as `n` constant arguments, [`NONE`] for each missing one.
pub(crate) fn slots(items: &[usize], n: usize) -> Vec<TokenStream> {
    (0..n)
        .map(|i| {
            let v = Literal::usize_unsuffixed(items.get(i).copied().unwrap_or(NONE));
            quote!(#v)
        })
        .collect()
}

/// A layout number as a constant argument.
fn number(v: i64) -> TokenStream {
    let v = Literal::usize_unsuffixed(usize::try_from(v.max(0)).unwrap_or(0));
    quote!(#v)
}

/// `L`, `E`, `S` and `M` of a layout as constant arguments.
pub(crate) fn lemp(layout: &ArrayLayout) -> [TokenStream; 4] {
    [
        number(layout.tail_padding_alignment_in_elements),
        number(layout.element_size_in_bits),
        number(layout.memory_space),
        number(layout.dynamic_shape_metadata_prefix_bytes),
    ]
}

/// A tile's dims as numbers, `*` as 0.
pub(crate) fn tile_numbers(tile: &Tile) -> Vec<usize> {
    tile.dims()
        .iter()
        .map(|d| match d {
            TileDim::Size(n) => usize::try_from(*n).unwrap_or(0),
            TileDim::Combine => 0,
        })
        .collect()
}

/// The split configs of a layout as the last argument of the aliases: `SC` for none,
/// `Splits<..>` (constants) when each has at most 15 indices, else `SC<..>` of each config as
/// `Split<..>` (up to 7 indices) or `LongSplit<..>` (constants).
pub(crate) fn splits(root: &TokenStream, layout: &ArrayLayout) -> TokenStream {
    let configs: Vec<Vec<usize>> = layout
        .split_configs
        .iter()
        .map(|sc| {
            let mut entries = vec![sc.dimension as usize];
            entries.extend(sc.split_indices.iter().map(|&i| i as usize));
            entries
        })
        .collect();
    if configs.is_empty() {
        return quote!(#root::SC);
    }
    if configs.iter().all(|c| c.len() <= 16) {
        let args = configs.iter().map(|c| {
            let more = c.len() > 8;
            let slots = slots(c, 16);
            quote!(true, #more, #(#slots),*)
        });
        return quote!(#root::Splits<#(#args),*>);
    }
    let configs = configs.iter().map(|c| {
        if c.len() <= 8 {
            return readable(root, "Split", c);
        }
        // Whether it goes on past 8, 16, .. 248 entries.
        let flags = (1..32).map(|k| c.len() > 8 * k);
        let entries = c.iter().map(|&v| Literal::usize_unsuffixed(v));
        quote!(#root::LongSplit<#(#flags,)* #(#entries),*>)
    });
    quote!(#root::SC<#(#configs),*>)
}

/// The bitcast signature argument: `Same` for a layout only bitcast-compatible with itself,
/// `Bitcast<..>` up to 32 entries, else `LongBitcast<..>`.
pub(crate) fn signature_type(root: &TokenStream, signature: &[usize]) -> TokenStream {
    if signature.first() == Some(&usize::MAX) {
        return quote!(#root::Same);
    }
    if signature.len() <= BITCAST_SLOTS {
        return readable(root, "Bitcast", signature);
    }
    let flags = [64, 96, 128].map(|n| signature.len() > n);
    let entries = signature.iter().map(|&v| Literal::usize_unsuffixed(v));
    quote!(#root::LongBitcast<#(#flags,)* #(#entries),*>)
}

/// Whether a layout stores its elements as bits in bytes: `E(n)` differs from the natural
/// width, or an `M(n)` prefix shifts them.
pub(crate) fn packed(a: &ArrayShape, plan: &Plan) -> bool {
    let natural = plan.element_bits() == a.element_type.storage_bits() as usize;
    !(natural && plan.prefix_bytes() == 0)
}
