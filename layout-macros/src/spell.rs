//! Spelling a validated shape as its `xla_layout::typed` type.

use proc_macro2::{Literal, Span, TokenStream, TokenTree};
use quote::{format_ident, quote};
use xla_layout_core::typed::{marker_name, padding_code, text_chunks};
use xla_layout_core::{ArrayShape, Dim, Expr, PaddingValue, Plan, Shape};

use crate::source::{Source, spanned};

/// The options after the literal: `padded = [..]` and `padding = zero|one|lowest|highest`.
#[derive(Default)]
pub(crate) struct Options {
    padded: Option<(Vec<i64>, Span, Span)>,
    padding: Option<(PaddingValue, Span, Span)>,
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
                        (Ok(p), None) => options.padded = Some((p, first, last)),
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
                    last,
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

fn parse_padded(value: &[TokenTree]) -> Result<Vec<i64>, syn::Error> {
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
    let mut sizes = Vec::new();
    for item in items.split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ',')) {
        match item {
            [TokenTree::Literal(l)] => match l.to_string().parse::<i64>() {
                Ok(n) => sizes.push(n),
                Err(_) => {
                    return Err(spanned(l.span(), l.span(), "expected a whole number"));
                }
            },
            [] => {}
            other => {
                let (f, l) = first_last(other);
                return Err(spanned(f, l, "expected a whole number"));
            }
        }
    }
    Ok(sizes)
}

/// The type of a parsed, valid shape.
pub(crate) fn shape_type(
    shape: &Shape,
    source: &Source,
    options: &Options,
) -> Result<TokenStream, Vec<syn::Error>> {
    let whole = source.spans_of(0..source.text().len());
    if options.padded.is_some() && !matches!(shape, Shape::Array(_) | Shape::Buffer(_)) {
        let (_, f, l) = options
            .padded
            .as_ref()
            .map_or((Vec::new(), whole.0, whole.1), Clone::clone);
        return Err(vec![spanned(
            f,
            l,
            "`padded` applies to an array literal only",
        )]);
    }
    match shape {
        Shape::Array(a) => array_type(a, source, options),
        Shape::Buffer(a) => array_type(a, source, options),
        Shape::Tuple(elements) => {
            let mut types = Vec::new();
            let mut errors = Vec::new();
            for e in elements {
                match shape_type(e, source, &Options::default()) {
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
        Shape::Token | Shape::Opaque => {
            let name = if matches!(shape, Shape::Token) {
                "token"
            } else {
                "opaque"
            };
            let spans = source.tokens_with_text(name);
            let (f, l) = spans.first().map_or(whole, |&s| (s, s));
            Err(vec![spanned(
                f,
                l,
                format!(
                    "`{name}[]` is not an array, so it has no layout type; layout! makes array \
                     types and tuples of them (parse `{name}[]` at run time with \
                     `xla_layout::parse` if you need the shape)"
                ),
            )])
        }
    }
}

fn array_type(
    a: &ArrayShape,
    source: &Source,
    options: &Options,
) -> Result<TokenStream, Vec<syn::Error>> {
    if a.dims.contains(&Dim::Unbounded) {
        let spans = source.tokens_with_text("?");
        let message = "`?` is an unbounded dynamic dimension, but a layout! type needs a size: \
                       write a static size, or a bound `<=N` (the layout then uses N); parse the \
                       text at run time with `xla_layout::parse` to keep it unbounded";
        return Err(spans.iter().map(|&s| spanned(s, s, message)).collect());
    }
    let mut a = a.clone();
    if let Some((padded, f, l)) = &options.padded {
        let value = options
            .padding
            .as_ref()
            .map_or(PaddingValue::Unknown, |p| p.0);
        a.layout = a.layout.clone().with_padding(padded.iter().copied(), value);
        if let Err(errors) = a.validate() {
            return Err(errors
                .iter()
                .map(|e| spanned(*f, *l, e.message()))
                .collect());
        }
    }
    let whole = source.spans_of(0..source.text().len());
    let plan = Plan::new(&a).map_err(|errors| {
        errors
            .iter()
            .map(|e| spanned(whole.0, whole.1, e.message()))
            .collect::<Vec<_>>()
    })?;
    let canonical = a.to_string();
    let Some(chunks) = text_chunks(&canonical) else {
        return Err(vec![spanned(
            whole.0,
            whole.1,
            format!(
                "the canonical text of this layout is {} bytes; layout! types hold at most {}",
                canonical.len(),
                xla_layout_core::typed::TEXT_CAPACITY
            ),
        )]);
    };

    let root = quote!(::xla_layout::typed);
    let elem = format_ident!("{}", marker_name(a.element_type));
    let rank = Literal::usize_unsuffixed(a.rank());
    let dims = list(&root, plan.dims());
    let m2m: Vec<usize> = plan.physical_order().iter().rev().copied().collect();
    let m2m = list(&root, &m2m);
    let padded: Vec<usize> = a
        .layout
        .padded_dimensions
        .iter()
        .map(|&p| p as usize)
        .collect();
    let padded = list(&root, &padded);
    let [bits, elements, physical, bytes, tiled, prefix] = [
        plan.element_bits(),
        plan.elements(),
        plan.physical_elements(),
        plan.size_bytes(),
        plan.tiled_elements(),
        plan.prefix_bytes(),
    ]
    .map(Literal::usize_unsuffixed);
    // Elements are stored one per slot unless E(n) packs them or an M(n) prefix shifts them.
    let natural = plan.element_bits() == a.element_type.storage_bits() as usize;
    let storage = if natural && plan.prefix_bytes() == 0 {
        quote!(#root::Direct)
    } else {
        quote!(#root::Packed)
    };
    let space = Literal::u8_unsuffixed(a.layout.memory_space as u8);
    let padding = Literal::u8_unsuffixed(padding_code(a.layout.padding_value));
    let text_len = Literal::usize_unsuffixed(canonical.len());
    let text = chunks.iter().rev().fold(quote!(#root::Nil), |rest, &c| {
        let c = Literal::u128_unsuffixed(c);
        quote!(#root::Chunk<#c, #rest>)
    });
    let offset = expr(&root, &plan.offset_expr());
    let inverse = plan
        .index_exprs()
        .iter()
        .rev()
        .fold(quote!(#root::Nil), |rest, e| {
            let e = expr(&root, e);
            quote!(#root::Coords<#e, #rest>)
        });
    Ok(quote! {
        #root::Array<
            #root::elem::#elem,
            #rank,
            #storage,
            #dims,
            #m2m,
            #padded,
            #root::Meta<#bits, #space, #elements, #physical, #bytes, #padding, #tiled, #prefix>,
            #root::Text<#text_len, #text>,
            #offset,
            #inverse,
        >
    })
}

fn list(root: &TokenStream, items: &[usize]) -> TokenStream {
    items.iter().rev().fold(quote!(#root::Nil), |rest, &v| {
        let v = Literal::usize_unsuffixed(v);
        quote!(#root::Cons<#v, #rest>)
    })
}

fn expr(root: &TokenStream, e: &Expr) -> TokenStream {
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
