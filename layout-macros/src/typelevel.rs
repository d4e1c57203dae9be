//! Spelling values as the readable building blocks of `xla_layout::typed`: lists of numbers
//! (`Dims<..>`, `MinorToMajor<..>`, `Tile<..>`, ..), the tiles, the attributes, the storage
//! kind, and the constant arguments of the `SpelledN`/`DynSpelledN` aliases. Shared by the static
//! (`spell.rs`) and dynamic (`dynamic.rs`) spellings.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;
use xla_layout_core::typed::{NONE, padding_code};
use xla_layout_core::{ArrayLayout, ArrayShape, PaddingValue, Plan, Tile, TileDim};

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
        .map(|t| readable(root, "Tile", &tile_numbers(t)))
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

/// The attributes of a layout as `Attrs<..>`, its trailing defaults left out, and whether
/// any is not the default.
pub(crate) fn attributes(root: &TokenStream, layout: &ArrayLayout) -> (TokenStream, bool) {
    let padded: Vec<usize> = layout
        .padded_dimensions
        .iter()
        .map(|&p| p as usize)
        .collect();
    let splits: Vec<TokenStream> = layout
        .split_configs
        .iter()
        .map(|sc| {
            let mut entries = vec![sc.dimension as usize];
            entries.extend(sc.split_indices.iter().map(|&i| i as usize));
            readable(root, "Split", &entries)
        })
        .collect();
    let code = Literal::u8_unsuffixed(padding_code(layout.padding_value));
    let [l, e, s, m] = lemp(layout);
    let args: Vec<TokenStream> = vec![
        l,
        e,
        s,
        m,
        quote!(#code),
        readable(root, "Padded", &padded),
        quote!(#root::SC<#(#splits),*>),
    ];
    let defaults = [
        layout.tail_padding_alignment_in_elements == 1,
        layout.element_size_in_bits == 0,
        layout.memory_space == 0,
        layout.dynamic_shape_metadata_prefix_bytes <= 0,
        layout.padding_value == PaddingValue::Unknown,
        padded.is_empty(),
        splits.is_empty(),
    ];
    let used = defaults.iter().rposition(|d| !d).map_or(0, |i| i + 1);
    let args = &args[..used];
    (quote!(#root::Attrs<#(#args),*>), used > 0)
}

/// Whether a layout stores its elements as bits in bytes: `E(n)` differs from the natural
/// width, or an `M(n)` prefix shifts them.
pub(crate) fn packed(a: &ArrayShape, plan: &Plan) -> bool {
    let natural = plan.element_bits() == a.element_type.storage_bits() as usize;
    !(natural && plan.prefix_bytes() == 0)
}
