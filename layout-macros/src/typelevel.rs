//! Spelling values as the type-level building blocks of `xla_layout::typed`: lists of
//! numbers (`Cons`/`Nil`) and closed-form expressions (`Term`, `Idx`, `Div`, `Rem`, `MulAdd`).
//! Shared by the static (`spell.rs`) and dynamic (`dynamic.rs`) spellings.

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use xla_layout_core::Expr;

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
