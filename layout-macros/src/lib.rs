//! The `layout!` proc macro. A thin layer over `xla-layout-core`: it turns the literal's tokens
//! into text, lets layout-core parse and validate it, maps every error's byte range back to
//! the tokens it covers, and spells the valid layout as a `xla_layout::typed::Array` type.
//!
//! Use it through the `xla-layout` facade, whose documentation of `layout!` has the grammar
//! and examples.

mod source;
mod spell;

use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// Expands an XLA shape-and-layout literal to its layout type. See the `xla-layout` crate's
/// documentation of `layout!` for the grammar, options, errors and examples.
#[proc_macro]
pub fn layout(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    match expand(input.into()) {
        Ok(ty) => ty,
        Err(errors) => {
            // One `compile_error!` per problem, as elements of a tuple type, so that every error
            // is reported at once and the expansion is still a type (no follow-on errors).
            let errors = errors.iter().map(syn::Error::to_compile_error);
            quote::quote!((#(#errors,)*))
        }
    }
    .into()
}

fn expand(input: TokenStream) -> Result<TokenStream, Vec<syn::Error>> {
    let mut tokens: Vec<TokenTree> = input.into_iter().collect();
    // The literal ends at the first top-level comma; options follow it.
    let split = tokens
        .iter()
        .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ',' ));
    let options: TokenStream = match split {
        Some(i) => tokens.split_off(i).into_iter().skip(1).collect(),
        None => TokenStream::new(),
    };
    if tokens.is_empty() {
        return Err(vec![syn::Error::new(
            proc_macro2::Span::call_site(),
            "expected a shape literal, such as `layout!(f32[2,3]{1,0})`",
        )]);
    }
    if let [TokenTree::Group(g)] = tokens.as_slice()
        && g.delimiter() == Delimiter::None
    {
        tokens = g.stream().into_iter().collect();
    }
    let source = source::Source::new(tokens);
    let options = spell::Options::parse(options)?;
    let shape = xla_layout_core::parse(source.text())
        .map_err(|errors| errors.iter().map(|e| source.error(e)).collect::<Vec<_>>())?;
    spell::shape_type(&shape, &source, &options)
}
