//! The `layout!` proc macro. A thin layer over `xla-layout-core`: it turns the literal's tokens
//! into text, lets layout-core parse and validate it, maps every error's byte range back to
//! the tokens it covers, and spells the valid layout as a `xla_layout::typed::Array` type.
//!
//! Use it through the `xla-layout` facade, whose documentation of `layout!` has the grammar
//! and examples.

#![forbid(unsafe_code)]

mod dynamic;
mod limits;
mod skeleton;
mod source;
mod spell;
mod typelevel;

use proc_macro2::{Span, TokenStream, TokenTree};
use xla_layout_core::{Error, ErrorKind};

/// Expands an XLA shape-and-layout literal to its layout type. See the `xla-layout` crate's
/// documentation of `layout!` for the grammar, options, errors and examples.
#[proc_macro]
pub fn layout(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let input: TokenStream = input.into();
    let whole = {
        let mut tokens = input.clone().into_iter();
        let first = tokens.next().map_or_else(Span::call_site, |t| t.span());
        let last = tokens.last().map_or(first, |t| t.span());
        first.join(last).unwrap_or(first)
    };
    // Every failure is a compile error at the literal, never a panic of the compiler: a bug
    // in the expansion is caught here and reported as one.
    let expanded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| expand(input)))
        .unwrap_or_else(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(vec![syn::Error::new(
                whole,
                format!("internal error in layout! on this literal ({what}); please report it"),
            )])
        });
    match expanded {
        Ok(ty) => ty,
        Err(errors) => {
            // One `compile_error!` per problem, so that every error is reported at once. Each
            // stands as the length of an array in a tuple type: in expression position
            // `compile_error!` expands to rustc's error value (in type position it would be
            // `()`), so the expansion is a type that references an error, and rustc reports
            // nothing else about the code that uses it.
            let errors = errors.iter().map(syn::Error::to_compile_error);
            quote::quote!((#([(); #errors],)*))
        }
    }
    .into()
}

fn expand(input: TokenStream) -> Result<TokenStream, Vec<syn::Error>> {
    let mut tokens = skeleton::flatten(input);
    // The literal ends at the first top-level comma; options follow it.
    let split = tokens
        .iter()
        .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','));
    let options: Vec<TokenTree> = match split {
        Some(i) => tokens.split_off(i),
        None => Vec::new(),
    };
    if tokens.is_empty() {
        let span = options
            .first()
            .map_or_else(Span::call_site, TokenTree::span);
        return Err(vec![syn::Error::new(
            span,
            "expected a shape literal, such as `layout!(f32[2,3]{1,0})`",
        )]);
    }
    if let [TokenTree::Literal(l)] = tokens.as_slice()
        && let Ok(text) = syn::parse2::<syn::LitStr>(TokenTree::Literal(l.clone()).into())
    {
        return Err(vec![syn::Error::new(
            l.span(),
            format!(
                "layout! takes the shape as tokens, not as a string: write `layout!({})`; to \
                 parse a string at run time, use `xla_layout::parse`",
                text.value()
            ),
        )]);
    }
    let source = source::Source::new(&tokens);
    let node = skeleton::read(&tokens);
    let options = spell::Options::parse(options.into_iter().skip(1).collect());
    let mut errors = Vec::new();
    let (shape, complete) = match xla_layout_core::parse(source.text()) {
        Ok(shape) => (Some(shape), true),
        Err(parse_errors) => {
            errors.extend(parse_errors.iter().map(|e| source.error(e)));
            (None, parse_errors.iter().all(parser_went_on))
        }
    };
    // Once the parser has got through the whole literal, its tokens follow the grammar, and
    // every part that cannot be a static type is reported too.
    if let (true, Some(node)) = (complete, &node) {
        errors.extend(skeleton::not_static(node));
    }
    match (shape, options) {
        (Some(shape), Ok(options)) if errors.is_empty() => {
            spell::shape_type(&shape, node.as_ref(), &source, &options)
        }
        (_, options) => {
            errors.extend(options.err().into_iter().flatten());
            Err(errors)
        }
    }
}

/// Whether the parser goes on after an error of this kind (a bad value in a well-formed
/// literal), rather than stopping where the grammar broke.
fn parser_went_on(e: &Error) -> bool {
    matches!(
        e.kind(),
        ErrorKind::IntegerOverflow
            | ErrorKind::DuplicateAttribute
            | ErrorKind::AttributeOutOfOrder
            | ErrorKind::NotAnArray
            | ErrorKind::NegativeDimension
            | ErrorKind::MinorToMajorLength
            | ErrorKind::MinorToMajorOutOfRange
            | ErrorKind::MinorToMajorDuplicate
            | ErrorKind::EmptyTile
            | ErrorKind::NonPositiveTileDimension
            | ErrorKind::CombineInMinorPosition
            | ErrorKind::InvalidTailPadding
            | ErrorKind::NegativeElementSize
            | ErrorKind::MemorySpaceOutOfRange
            | ErrorKind::SplitDimensionOutOfRange
            | ErrorKind::SplitDimensionDuplicate
            | ErrorKind::SplitIndicesNotIncreasing
            | ErrorKind::SplitIndexOutOfRange
            | ErrorKind::SizeOverflow
    )
}
