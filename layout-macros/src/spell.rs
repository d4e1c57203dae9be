//! Spelling a validated shape as its `xla_layout::typed` type.

use proc_macro2::{Literal, Span, TokenStream, TokenTree};
use quote::{format_ident, quote};
use xla_layout_core::typed::{NONE, marker_name, padding_code};
use xla_layout_core::{ArrayShape, ErrorKind, Errors, PaddingValue, Plan, Shape};

use crate::limits::check_capacity;
use crate::skeleton::{Node, not_an_array_message};
use crate::source::{Source, spanned};
use crate::typelevel::{lemp, packed, signature_type, slots, splits, tile_numbers};

/// The options after the literal: `padded = [..]` and `padding = zero|one|lowest|highest`.
#[derive(Default)]
pub(crate) struct Options {
    padded: Option<Padded>,
    padding: Option<(PaddingValue, Span, Span)>,
}

/// `padded = [N, ...]`: the sizes with the span of each, and the spans of the whole option
/// and of the `[...]` list.
struct Padded {
    sizes: Vec<(i64, Span)>,
    option: (Span, Span),
    list: Span,
}

const OPTIONS_HELP: &str =
    "expected `padded = [N, ...]` or `padding = zero|one|lowest|highest` after the literal";

fn first_last(tokens: &[TokenTree]) -> (Span, Span) {
    let first = tokens.first().map_or_else(Span::call_site, TokenTree::span);
    let last = tokens.last().map_or(first, TokenTree::span);
    (first, last)
}

impl Options {
    pub(crate) fn parse(tokens: TokenStream) -> Result<Options, Vec<syn::Error>> {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let mut options = Options::default();
        let mut errors = Vec::new();
        for option in tokens.split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ',')) {
            if option.is_empty() {
                continue;
            }
            let (first, last) = first_last(option);
            let (name, value) = match option {
                [TokenTree::Ident(name), TokenTree::Punct(eq), value @ ..]
                    if eq.as_char() == '=' && !value.is_empty() =>
                {
                    (name.to_string(), value)
                }
                _ => {
                    errors.push(spanned(first, last, OPTIONS_HELP));
                    continue;
                }
            };
            let duplicate = || spanned(first, last, format!("`{name}` is given twice"));
            match name.as_str() {
                "padded" => {
                    let parsed = parse_padded(value);
                    match (parsed, &options.padded) {
                        (_, Some(_)) => errors.push(duplicate()),
                        (Ok((sizes, list)), None) => {
                            options.padded = Some(Padded {
                                sizes,
                                option: (first, last),
                                list,
                            });
                        }
                        (Err(e), None) => errors.push(e),
                    }
                }
                "padding" => {
                    let value_text: Vec<String> = value.iter().map(ToString::to_string).collect();
                    let v = match value_text.join(" ").as_str() {
                        "zero" => Some(PaddingValue::Zero),
                        "one" => Some(PaddingValue::One),
                        "lowest" => Some(PaddingValue::Lowest),
                        "highest" => Some(PaddingValue::Highest),
                        _ => None,
                    };
                    let (vf, vl) = first_last(value);
                    match (v, &options.padding) {
                        (_, Some(_)) => errors.push(duplicate()),
                        (Some(v), None) => options.padding = Some((v, first, last)),
                        (None, None) => errors.push(spanned(
                            vf,
                            vl,
                            "the padding value is one of `zero`, `one`, `lowest`, `highest`",
                        )),
                    }
                }
                other => errors.push(spanned(
                    first,
                    first,
                    format!("unknown option `{other}`; {OPTIONS_HELP}"),
                )),
            }
        }
        if let (Some((_, first, last)), None) = (&options.padding, &options.padded) {
            errors.push(spanned(
                *first,
                *last,
                "`padding` sets the value of padded slots, so it needs `padded = [..]` too",
            ));
        }
        if errors.is_empty() {
            Ok(options)
        } else {
            Err(errors)
        }
    }
}

/// The sizes of `padded = [N, ...]`, each with its span, and the span of the list.
fn parse_padded(value: &[TokenTree]) -> Result<(Vec<(i64, Span)>, Span), syn::Error> {
    let (first, last) = first_last(value);
    let not_a_list = || {
        spanned(
            first,
            last,
            "`padded` takes one padded size per dimension, such as `padded = [3, 5]`",
        )
    };
    let [TokenTree::Group(g)] = value else {
        return Err(not_a_list());
    };
    if g.delimiter() != proc_macro2::Delimiter::Bracket {
        return Err(not_a_list());
    }
    let items: Vec<TokenTree> = g.stream().into_iter().collect();
    let items: Vec<&[TokenTree]> = items
        .split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
        .collect();
    let mut sizes = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match item {
            [TokenTree::Literal(l)] => match l.to_string().parse::<i64>() {
                Ok(n) => sizes.push((n, l.span())),
                Err(_) => {
                    return Err(spanned(l.span(), l.span(), PADDED_SIZE));
                }
            },
            // `[]`, or the end after a trailing comma.
            [] if i + 1 == items.len() => {}
            [] => return Err(spanned(g.span(), g.span(), PADDED_SIZE)),
            other => {
                let (f, l) = first_last(other);
                return Err(spanned(f, l, PADDED_SIZE));
            }
        }
    }
    Ok((sizes, g.span()))
}

const PADDED_SIZE: &str =
    "expected a padded size: a whole number from 0 to 9223372036854775807, such as `5`";

/// The type of a parsed, valid shape whose tokens are `node` (`None` if they could not be
/// read, in which case errors point at the whole literal).
pub(crate) fn shape_type(
    shape: &Shape,
    node: Option<&Node>,
    source: &Source,
    options: &Options,
) -> Result<TokenStream, Vec<syn::Error>> {
    let whole = source.spans_of(0..source.text().len());
    match (shape, node) {
        (Shape::Array(a), _) => array_type(a, node, whole, options),
        (Shape::Buffer(a), Some(Node::Buffer(inner))) => array_type(a, Some(inner), whole, options),
        (Shape::Buffer(a), _) => array_type(a, None, whole, options),
        (Shape::Tuple(elements), _) => {
            if let Some(padded) = &options.padded {
                let (f, l) = padded.option;
                return Err(vec![spanned(
                    f,
                    l,
                    "`padded` applies to an array literal only, not to a tuple",
                )]);
            }
            let nodes = match node {
                Some(Node::Tuple(nodes)) if nodes.len() == elements.len() => {
                    nodes.iter().map(Some).collect()
                }
                _ => vec![None; elements.len()],
            };
            let mut types = Vec::new();
            let mut errors = Vec::new();
            for (e, n) in elements.iter().zip(nodes) {
                match shape_type(e, n, source, &Options::default()) {
                    Ok(t) => types.push(t),
                    Err(e) => errors.extend(e),
                }
            }
            if errors.is_empty() {
                Ok(quote!((#(#types,)*)))
            } else {
                Err(errors)
            }
        }
        // Reported with the spans of their own tokens (`skeleton::not_static`) when the
        // literal's tokens could be read; this is the fallback.
        (Shape::Token, _) => Err(vec![spanned(
            whole.0,
            whole.1,
            not_an_array_message("token"),
        )]),
        (Shape::Opaque, _) => Err(vec![spanned(
            whole.0,
            whole.1,
            not_an_array_message("opaque"),
        )]),
    }
}

fn array_type(
    a: &ArrayShape,
    node: Option<&Node>,
    whole: (Span, Span),
    options: &Options,
) -> Result<TokenStream, Vec<syn::Error>> {
    let array = node.and_then(Node::array_span).unwrap_or(whole);
    if a.dims.iter().any(|d| d.is_dynamic()) {
        let padded = options.padded.as_ref().map(|p| p.option);
        let tiles_span = node.and_then(Node::tiles_span).unwrap_or(array);
        return crate::dynamic::dyn_array_type(a, (array, tiles_span), padded);
    }
    let mut a = a.clone();
    if let Some(padded) = &options.padded {
        // With no padded dimensions (`padded = []` on a scalar) nothing is padded, and the
        // layout is the unpadded one: the padding value is dropped so the type is the same.
        let value = match &options.padding {
            Some((value, ..)) if !padded.sizes.is_empty() => *value,
            _ => PaddingValue::Unknown,
        };
        a.layout = a
            .layout
            .clone()
            .with_padding(padded.sizes.iter().map(|&(n, _)| n), value);
        a.validate()
            .map_err(|errors| padded_errors(&a, padded, &errors))?;
    }
    let plan = Plan::new(&a).map_err(|errors| {
        // Past validation, a plan fails only on a shape too wide to index: tiles that expand
        // it past `MAX_EXPANDED_RANK` dimensions, or too many dimensions to begin with.
        let (f, l) = node.and_then(Node::tiles_span).unwrap_or(array);
        errors
            .iter()
            .map(|e| spanned(f, l, e.message()))
            .collect::<Vec<_>>()
    })?;
    let tiles_span = node.and_then(Node::tiles_span).unwrap_or(array);
    check_capacity(&a, array, tiles_span, "static")?;

    let layout = &a.layout;
    let padded: Vec<usize> = layout
        .padded_dimensions
        .iter()
        .map(|&p| p as usize)
        .collect();
    let packed = packed(&a, &plan);
    let signature = plan.bitcast_signature();
    let opaque = signature.first() == Some(&usize::MAX);
    let tile_sizes = layout.tiles.iter().flat_map(tile_numbers);
    let reserved = plan
        .dims()
        .iter()
        .copied()
        .chain(padded.iter().copied())
        .chain(tile_sizes)
        .chain(
            if opaque { &[][..] } else { &signature[..] }
                .iter()
                .copied(),
        )
        .any(|n| n == NONE);
    if reserved {
        return Err(vec![spanned(
            array.0,
            array.1,
            format!(
                "static layout! types use {NONE} to mark unused arguments, so no size of the \
                 layout (a dimension, tile, padded size or stride) can be exactly {NONE}: index \
                 this layout at run time with `xla_layout::Plan`, which has no such limit"
            ),
        )]);
    }

    // Constants but for four arguments: see `typed::Spelled0`.
    let root = quote!(::xla_layout::typed);
    let elem = format_ident!("{}", marker_name(a.element_type));
    let rank = Literal::usize_unsuffixed(a.rank());
    // Ranks 9 to 16 take the `Wide` aliases, with 16 of each list.
    let wide = a.rank() > 8;
    let width = if wide { 16 } else { 8 };
    let mut consts = vec![quote!(#rank)];
    consts.extend(slots(plan.dims(), width));
    let m2m: Vec<usize> = plan.physical_order().iter().rev().copied().collect();
    consts.extend(slots(&m2m, width));
    for tile in &layout.tiles {
        consts.extend(slots(&tile_numbers(tile), 8));
    }
    consts.extend(lemp(layout));
    let signature = signature_type(&root, &signature);
    let storage = if packed {
        quote!(#root::Packed)
    } else {
        quote!(#root::Direct)
    };
    // The legacy padding and the split configs, left out when they are the defaults.
    let mut tail = Vec::new();
    let code = padding_code(layout.padding_value);
    if code != 0 || !padded.is_empty() || !layout.split_configs.is_empty() {
        let code = Literal::u8_unsuffixed(code);
        tail.push(quote!(#code));
        if wide {
            let more = padded.len() > 8;
            tail.push(quote!(#more));
        }
        tail.extend(slots(&padded, width));
    }
    if !layout.split_configs.is_empty() {
        tail.push(splits(&root, layout));
    }
    let family = if wide { "WideSpelled" } else { "Spelled" };
    let alias = format_ident!("{family}{}", layout.tiles.len());
    Ok(quote!(
        #root::#alias<#root::elem::#elem, #(#consts,)* #signature, #storage #(, #tail)*>
    ))
}

/// The errors that `padded = [..]` makes in a valid array, each on the padded size at fault
/// (a size smaller than its dimension), or on the list (the wrong count, an overflow).
fn padded_errors(a: &ArrayShape, padded: &Padded, errors: &Errors) -> Vec<syn::Error> {
    // The validator reports too-small sizes in dimension order.
    let mut too_small = padded
        .sizes
        .iter()
        .zip(&a.dims)
        .filter(|((n, _), d)| d.extent().is_some_and(|e| *n < e))
        .map(|(&(_, span), _)| span);
    let count_ok = padded.sizes.len() == a.dims.len();
    errors
        .iter()
        .map(|e| {
            let span = match e.kind() {
                ErrorKind::InvalidPaddedDimensions if count_ok => {
                    too_small.next().unwrap_or(padded.list)
                }
                _ => padded.list,
            };
            spanned(span, span, e.message())
        })
        .collect()
}
