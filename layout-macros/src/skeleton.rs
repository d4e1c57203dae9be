//! The literal's token trees read as the structure of the shape grammar (tuples, buffers,
//! arrays), so that an error about one array can point at that array, its dimensions or its
//! layout. Read only once layout-core's parser has got through the whole literal, so the
//! tokens follow the grammar.

use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};

use crate::source::spanned;

/// One shape of the literal, as tokens.
pub(crate) enum Node {
    /// `( shape, ... )`.
    Tuple(Vec<Node>),
    /// `b( array )`.
    Buffer(Box<Node>),
    /// An array, `token[]` or `opaque[]`: the type name, the `[...]` group and the `{...}`
    /// layout group.
    Array {
        name: Ident,
        dims: Group,
        layout: Option<Group>,
    },
}

/// The tokens with every invisible group (from a `macro_rules!` fragment) replaced by its
/// contents; groups with delimiters are kept as they are, to be flattened when read.
pub(crate) fn flatten(tokens: TokenStream) -> Vec<TokenTree> {
    let mut out = Vec::new();
    for t in tokens {
        match t {
            TokenTree::Group(g) if g.delimiter() == Delimiter::None => {
                out.extend(flatten(g.stream()));
            }
            other => out.push(other),
        }
    }
    out
}

/// The tokens of a whole literal as one shape; `None` if they do not have a shape's structure.
pub(crate) fn read(tokens: &[TokenTree]) -> Option<Node> {
    match shape(tokens)? {
        (node, []) => Some(node),
        _ => None,
    }
}

fn is_comma(t: &TokenTree) -> bool {
    matches!(t, TokenTree::Punct(p) if p.as_char() == ',')
}

/// One shape from the start of `tokens`, and the tokens after it.
fn shape(tokens: &[TokenTree]) -> Option<(Node, &[TokenTree])> {
    match tokens {
        [TokenTree::Group(g), rest @ ..] if g.delimiter() == Delimiter::Parenthesis => {
            let inner = flatten(g.stream());
            let elements = if inner.is_empty() {
                Vec::new()
            } else {
                inner
                    .split(is_comma)
                    .map(read)
                    .collect::<Option<Vec<Node>>>()?
            };
            Some((Node::Tuple(elements), rest))
        }
        [TokenTree::Ident(b), TokenTree::Group(g), rest @ ..]
            if b == "b" && g.delimiter() == Delimiter::Parenthesis =>
        {
            let inner = read(&flatten(g.stream()))?;
            Some((Node::Buffer(Box::new(inner)), rest))
        }
        [TokenTree::Ident(name), TokenTree::Group(dims), rest @ ..]
            if dims.delimiter() == Delimiter::Bracket =>
        {
            let (layout, rest) = match rest {
                [TokenTree::Group(l), rest @ ..] if l.delimiter() == Delimiter::Brace => {
                    (Some(l.clone()), rest)
                }
                _ => (None, rest),
            };
            let node = Node::Array {
                name: name.clone(),
                dims: dims.clone(),
                layout,
            };
            Some((node, rest))
        }
        _ => None,
    }
}

impl Node {
    /// The spans of the first and last token of an array (its name, and its layout or
    /// dimensions); `None` for a tuple or buffer.
    pub(crate) fn array_span(&self) -> Option<(Span, Span)> {
        match self {
            Node::Array { name, dims, layout } => {
                Some((name.span(), layout.as_ref().unwrap_or(dims).span()))
            }
            Node::Tuple(_) | Node::Buffer(_) => None,
        }
    }

    /// The spans of an array's tiles, from the `T` to its last tile; `None` without tiles.
    pub(crate) fn tiles_span(&self) -> Option<(Span, Span)> {
        let Node::Array {
            layout: Some(layout),
            ..
        } = self
        else {
            return None;
        };
        let tokens = flatten(layout.stream());
        let start = tokens
            .iter()
            .position(|t| matches!(t, TokenTree::Ident(i) if i == "T"))?;
        let tiles = tokens[start + 1..]
            .iter()
            .take_while(
                |t| matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis),
            )
            .last()?;
        Some((tokens[start].span(), tiles.span()))
    }
}

/// The errors for the parts of a literal that XLA accepts but that have no layout type:
/// `token[]` and `opaque[]`. Each points at its own tokens.
pub(crate) fn not_static(node: &Node) -> Vec<syn::Error> {
    match node {
        Node::Tuple(elements) => elements.iter().flat_map(not_static).collect(),
        Node::Buffer(inner) => not_static(inner),
        Node::Array { name, dims, .. } if name == "token" || name == "opaque" => {
            vec![spanned(
                name.span(),
                dims.span(),
                not_an_array_message(&name.to_string()),
            )]
        }
        Node::Array { .. } => Vec::new(),
    }
}

/// The error message for `token[]` or `opaque[]` (`name`) in a literal.
pub(crate) fn not_an_array_message(name: &str) -> String {
    format!(
        "`{name}[]` is not an array, so it has no layout type; layout! makes array types and \
         tuples of them (parse `{name}[]` at run time with `xla_layout::parse` if you need the \
         shape)"
    )
}
