//! Text in, model out, and back: the lexer, the parser of XLA's shape grammar, the canonical
//! printer (`Display` of the model types) and rustc-style rendering of errors.

pub(crate) mod lex;
mod parse;
mod print;
mod render;

pub(crate) use parse::parse_embedded;
pub use parse::{parse, parse_array};
pub use render::{MAX_RENDERED_ERRORS, Snippet, Snippets, render};
