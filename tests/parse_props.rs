//! Property tests of the parser and printer: random valid shapes round-trip through text
//! (also with whitespace and comments between tokens), arbitrary and mutated text never
//! panics and every error points inside the input, and deep or large inputs stay bounded.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{Index, subsequence};
use xla_layout::{
    ArrayLayout, ArrayShape, Dim, ErrorKind, Errors, PrimitiveType, Shape, SplitConfig, Tile,
    TileDim, parse, parse_array,
};

/// A dimension: mostly static, sometimes `<=N` or `?`. Sizes stay small so that tiled byte
/// sizes stay far below `i64::MAX`.
fn dim() -> impl Strategy<Value = Dim> {
    prop_oneof![
        6 => (0i64..=9).prop_map(Dim::Static),
        1 => (0i64..=9).prop_map(Dim::Bounded),
        1 => Just(Dim::Unbounded),
    ]
}

fn tile_size() -> impl Strategy<Value = i64> {
    prop_oneof![8 => 1i64..=4, 2 => Just(8i64), 1 => Just(128i64)]
}

/// A tile of 1-3 dimensions (any rank, also above the array's), `*` anywhere but last.
fn tile() -> impl Strategy<Value = Tile> {
    (
        vec(
            prop_oneof![4 => tile_size().prop_map(TileDim::Size), 1 => Just(TileDim::Combine)],
            0..=2,
        ),
        tile_size(),
    )
        .prop_map(|(mut dims, last)| {
            dims.push(TileDim::Size(last));
            Tile::from_dims(dims)
        })
}

/// Split indices for a physical dimension of this extent: positive, strictly increasing and
/// below the size. An unbounded dimension gets none (`SC(d:)`): XLA compares indices with
/// its stored size, i64::MIN, so no index is clearly valid there.
fn split_indices(extent: Option<i64>) -> BoxedStrategy<Vec<i64>> {
    let limit = extent.unwrap_or(0);
    if limit <= 1 {
        return Just(Vec::new()).boxed();
    }
    let candidates: Vec<i64> = (1..limit).collect();
    let most = candidates.len().min(3);
    subsequence(candidates, 0..=most).boxed()
}

/// Split configs for distinct physical dimensions, in random order.
fn split_configs(physical_extents: Vec<Option<i64>>) -> BoxedStrategy<Vec<SplitConfig>> {
    let per_dim: Vec<BoxedStrategy<Option<SplitConfig>>> = physical_extents
        .into_iter()
        .enumerate()
        .map(|(p, extent)| {
            prop_oneof![
                3 => Just(None),
                1 => split_indices(extent).prop_map(move |idx| Some(SplitConfig::new(p as i64, idx))),
            ]
            .boxed()
        })
        .collect();
    (per_dim, any::<u64>())
        .prop_map(|(configs, seed)| {
            let mut configs: Vec<SplitConfig> = configs.into_iter().flatten().collect();
            if !configs.is_empty() {
                let by = (seed % configs.len() as u64) as usize;
                configs.rotate_left(by);
                if seed & (1 << 40) != 0 {
                    configs.reverse();
                }
            }
            configs
        })
        .boxed()
}

/// A random permutation of `0..rank`.
fn permutation(rank: usize) -> impl Strategy<Value = Vec<i64>> {
    Just((0..rank as i64).collect::<Vec<i64>>()).prop_shuffle()
}

/// A valid array: rank 0-6, any permutation, 0-3 tiles, L, E, S in 0..=127, split configs
/// that obey the rules, and M.
fn array() -> impl Strategy<Value = ArrayShape> {
    (
        proptest::sample::select(PrimitiveType::ALL.to_vec()),
        vec(dim(), 0..=6),
    )
        .prop_flat_map(|(element_type, dims)| {
            let rank = dims.len();
            (Just(element_type), Just(dims), permutation(rank))
        })
        .prop_flat_map(|(element_type, dims, m2m)| {
            let rank = dims.len();
            let physical_extents: Vec<Option<i64>> = (0..rank)
                .map(|p| dims[m2m[rank - 1 - p] as usize].extent())
                .collect();
            let attrs = (
                vec(tile(), 0..=3),
                prop_oneof![4 => Just(1i64), 1 => 1i64..=1024],
                prop_oneof![3 => Just(0i64), 1 => 0i64..=64],
                prop_oneof![3 => Just(0i64), 1 => 0i64..=127],
                split_configs(physical_extents),
                prop_oneof![3 => Just(0i64), 1 => 0i64..=4096],
            );
            (Just(element_type), Just(dims), Just(m2m), attrs)
        })
        .prop_map(|(element_type, dims, m2m, (tiles, l, e, s, sc, m))| {
            ArrayShape::with_dims(element_type, dims).with_layout(
                ArrayLayout::new(m2m)
                    .with_tiles(tiles)
                    .with_tail_padding_alignment(l)
                    .with_element_size_in_bits(e)
                    .with_memory_space(s)
                    .with_split_configs(sc)
                    .with_metadata_prefix_bytes(m),
            )
        })
}

/// A valid shape: arrays, `token[]`, `opaque[]`, buffers, and tuples nested a little.
fn shape() -> impl Strategy<Value = Shape> {
    let leaf = prop_oneof![
        8 => array().prop_map(Shape::Array),
        1 => Just(Shape::Token),
        1 => Just(Shape::Opaque),
        2 => array().prop_map(|a| Shape::Buffer(Box::new(a))),
    ];
    leaf.prop_recursive(3, 24, 7, |inner| vec(inner, 0..=7).prop_map(Shape::Tuple))
}

/// The canonical text split into tokens (comments such as `/*index=5*/` are kept as one).
fn tokens(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let c = b[i];
        if c == b' ' {
            i += 1;
            continue;
        } else if text[i..].starts_with("/*") {
            i += text[i + 2..].find("*/").expect("closed comment") + 4;
        } else if text[i..].starts_with("<=") {
            i += 2;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len()
                && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'.' | b'-'))
            {
                i += 1;
            }
        } else if c == b'-' || c.is_ascii_digit() {
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        } else {
            i += 1;
        }
        out.push(&text[start..i]);
    }
    out
}

fn separator() -> impl Strategy<Value = &'static str> {
    proptest::sample::select(vec![
        "",
        "",
        "",
        " ",
        "  ",
        "\t",
        "\n",
        "\r\n",
        "/* c */",
        "/**/",
        "// line\n",
        "/* a\nb */",
        " /*x*/ ",
    ])
}

/// Every error of a failed parse has a span inside `input`, on character boundaries, and
/// displays and renders without panicking.
fn assert_spans_inside(input: &str, errs: &Errors) -> Result<(), TestCaseError> {
    prop_assert!(!errs.is_empty());
    for e in errs {
        let span = e.span();
        prop_assert!(span.is_some(), "parse error without a span: {e:?}");
        let r = span.unwrap();
        prop_assert!(
            r.start <= r.end && r.end <= input.len(),
            "span {r:?} outside the {} bytes of {input:?}: {e:?}",
            input.len()
        );
        prop_assert!(
            input.is_char_boundary(r.start) && input.is_char_boundary(r.end),
            "span {r:?} splits a character of {input:?}: {e:?}"
        );
        prop_assert!(!e.message().is_empty());
    }
    let _ = errs.to_string();
    let _ = errs.render(input, "<prop>");
    Ok(())
}

/// Parses `input`; an accepted input must re-print canonically and round-trip, a rejected
/// one must report errors inside the input.
fn check_any(input: &str) -> Result<(), TestCaseError> {
    match parse(input) {
        Ok(shape) => {
            let text = shape.to_string();
            let again = parse(&text);
            prop_assert_eq!(
                again.as_ref().ok(),
                Some(&shape),
                "{:?} -> {:?}",
                input,
                text
            );
            prop_assert_eq!(again.unwrap().to_string(), text);
        }
        Err(errs) => assert_spans_inside(input, &errs)?,
    }
    if let Err(errs) = parse_array(input) {
        for e in &errs {
            let r = e.span().unwrap_or(0..0);
            prop_assert!(r.start <= r.end && r.end <= input.len());
        }
    }
    Ok(())
}

/// Whether the only problems are byte sizes past `i64` (rare with the sizes generated).
fn overflows(shape: &Shape) -> bool {
    shape
        .validate()
        .err()
        .is_some_and(|errs| errs.iter().all(|e| e.kind() == ErrorKind::SizeOverflow))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// print -> parse gives the same shape back, and printing is stable.
    #[test]
    fn round_trip(shape in shape().prop_filter("byte size overflows i64", |s| !overflows(s))) {
        prop_assert!(shape.validate().is_ok(), "generated an invalid shape: {shape}: {}", shape.validate().unwrap_err());
        let text = shape.to_string();
        let parsed = parse(&text);
        prop_assert_eq!(parsed.as_ref(), Ok(&shape), "{}", text);
        prop_assert_eq!(parsed.unwrap().to_string(), text);
    }

    /// Whitespace and comments between any two tokens do not change the shape.
    #[test]
    fn whitespace_and_comments_between_tokens(
        (shape, seps) in shape()
            .prop_filter("byte size overflows i64", |s| !overflows(s))
            .prop_flat_map(|s| {
                let n = tokens(&s.to_string()).len();
                (Just(s), vec(separator(), n + 1))
            })
    ) {
        let text = shape.to_string();
        let toks = tokens(&text);
        let mut spaced = String::from(seps[0]);
        for (t, sep) in toks.iter().zip(&seps[1..]) {
            spaced.push_str(t);
            spaced.push_str(sep);
        }
        let parsed = parse(&spaced);
        prop_assert_eq!(parsed.as_ref(), Ok(&shape), "{:?}", spaced);
        prop_assert_eq!(parsed.unwrap().to_string(), text);
    }

    /// Arbitrary Unicode never panics.
    #[test]
    fn arbitrary_text_never_panics(input in any::<String>()) {
        check_any(&input)?;
    }

    /// Text made of shape characters (deeper into the grammar) never panics.
    #[test]
    fn shape_alphabet_never_panics(input in "[a-zA-Z0-9_\\[\\]{}(),:*#+~?<=/ \\-.\u{e9}\u{2211}\u{1f600}\n]{0,48}") {
        check_any(&input)?;
    }

    /// Valid text with random bytes deleted, inserted or replaced never panics.
    #[test]
    fn mutated_text_never_panics(
        shape in shape(),
        edits in vec((0u8..3, any::<Index>(), any::<Index>(), piece()), 1..=4),
    ) {
        let mut text = shape.to_string();
        for (op, at, len, piece) in edits {
            let pos = floor_boundary(&text, at.index(text.len() + 1));
            match op {
                0 => {
                    let end = floor_boundary(&text, (pos + len.index(4) + 1).min(text.len()));
                    text.replace_range(pos..end.max(pos), "");
                }
                1 => text.insert_str(pos, &piece),
                _ => {
                    let end = text[pos..].chars().next().map_or(pos, |c| pos + c.len_utf8());
                    text.replace_range(pos..end, &piece);
                }
            }
        }
        check_any(&text)?;
    }
}

/// Something to insert: a token of the grammar, a number at the edge of `i64`/`u64`, a
/// comment opener, or a multibyte character.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::sample::select(vec![
            "(",
            ")",
            "[",
            "]",
            "{",
            "}",
            ",",
            ":",
            "*",
            "?",
            "<=",
            "<",
            "#",
            "+",
            "~",
            "-",
            ".",
            "/*",
            "*/",
            "//",
            "\n",
            " ",
            "T",
            "S",
            "SC",
            "L",
            "E",
            "M",
            "D",
            "P",
            "b",
            "b(",
            "0",
            "-1",
            "128",
            "9223372036854775807",
            "9223372036854775808",
            "18446744073709551615",
            "18446744073709551616",
            "f32",
            "token",
            "opaque",
            "\u{e9}",
            "\u{2211}",
            "\u{1f600}",
            "\u{0}",
            "\u{feff}",
        ])
        .prop_map(String::from),
        any::<char>().prop_map(String::from),
    ]
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Deep nesting returns an error instead of overflowing the stack.
#[test]
fn deep_nesting_is_an_error() {
    for input in [
        "(".repeat(100_000),
        "b(".repeat(100_000),
        format!("{}f32[]{}", "(".repeat(100_000), ")".repeat(100_000)),
        format!("{}f32[]{}", "b(".repeat(100_000), ")".repeat(100_000)),
        "((b(".repeat(30_000),
    ] {
        let errs = parse(&input).unwrap_err();
        assert_eq!(errs[0].kind(), ErrorKind::NestingTooDeep);
        let r = errs[0].span().unwrap();
        assert!(r.end <= input.len());
    }
    for input in [
        "[".repeat(100_000),
        "{".repeat(100_000),
        ")".repeat(100_000),
    ] {
        let errs = parse(&input).unwrap_err();
        assert!(errs[0].span().unwrap().end <= input.len());
    }
}

/// Large inputs with an error per item take linear time, not quadratic.
#[test]
fn many_errors_in_large_input() {
    let n = 5_000;
    let dims = vec!["1"; n].join(",");
    let zeros = vec!["0"; n].join(",");
    let errs = parse(&format!("f32[{dims}]{{{zeros}}}")).unwrap_err();
    assert_eq!(errs.len(), n - 1);
    assert!(
        errs.iter()
            .all(|e| e.kind() == ErrorKind::MinorToMajorDuplicate)
    );

    let repeated = "S(1)".repeat(n);
    let errs = parse(&format!("f32[2]{{0:{repeated}}}")).unwrap_err();
    assert_eq!(errs.len(), n - 1);
    assert!(
        errs.iter()
            .all(|e| e.kind() == ErrorKind::DuplicateAttribute)
    );

    let splits = "(0:)".repeat(n);
    let errs = parse(&format!("f32[2]{{0:SC{splits}}}")).unwrap_err();
    assert_eq!(errs.len(), n - 1);
    assert!(
        errs.iter()
            .all(|e| e.kind() == ErrorKind::SplitDimensionDuplicate)
    );

    let stars = "*,".repeat(n);
    let a = parse_array(&format!("f32[2]{{0:T({stars}1)}}")).unwrap();
    assert_eq!(a.layout.tiles[0].dims().len(), n + 1);
}
