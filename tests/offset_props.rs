//! Property tests of the compiled offset (`Plan::offset`, its batch forms `Plan::offsets` and
//! `Plan::offsets_along`) and
//! of `Plan: FromStr`: offsets equal the literal pad -> reshape -> transpose reference on
//! random layouts (power-of-two and other tile sizes, `*`, tile rank above array rank,
//! legacy padding, `L`), and the closed form (`Plan::offset_expr`, which divides plainly) on
//! large layouts whose indices reach far past what the reference can materialise.

mod common;

use common::reference::{self, unravel};
use proptest::prelude::*;
use xla_layout::{ArrayLayout, ArrayShape, PaddingValue, Plan, PrimitiveType, Tile, TileDim};

/// Tile sizes: powers of two (bit fields) and others (reciprocals), and 1.
fn arb_tile_size() -> impl Strategy<Value = i64> {
    prop_oneof![
        3 => prop::sample::select(vec![1i64, 2, 4, 8, 16]),
        3 => prop::sample::select(vec![3i64, 5, 6, 7, 9, 10, 12]),
    ]
}

fn arb_tile(max_rank: usize) -> impl Strategy<Value = Tile> {
    prop::collection::vec(
        prop_oneof![5 => arb_tile_size().prop_map(TileDim::Size), 1 => Just(TileDim::Combine)],
        1..=max_rank,
    )
    .prop_map(|mut dims| {
        if let Some(last) = dims.last_mut()
            && *last == TileDim::Combine
        {
            *last = TileDim::Size(3);
        }
        Tile(dims)
    })
}

/// A random valid static array with a random layout, small enough for the reference.
fn arb_array() -> impl Strategy<Value = ArrayShape> {
    (0usize..=4)
        .prop_flat_map(|rank| {
            (
                prop::collection::vec(1i64..14, rank),
                Just((0..rank as i64).collect::<Vec<_>>()).prop_shuffle(),
                prop::collection::vec(arb_tile(rank + 1), 0..=3),
                prop_oneof![3 => Just(1i64), 1 => 2i64..10],
                prop::option::weighted(0.2, prop::collection::vec(0i64..3, rank)),
            )
        })
        .prop_map(|(dims, m2m, tiles, l, extra)| {
            let mut layout = ArrayLayout::new(m2m)
                .with_tiles(tiles)
                .with_tail_padding_alignment(l);
            if let Some(extra) = extra {
                let padded = dims.iter().zip(extra).map(|(d, x)| d + x);
                layout = layout.with_padding(padded, PaddingValue::Zero);
            }
            ArrayShape::new(PrimitiveType::F32, dims).with_layout(layout)
        })
}

/// A random large rank-2 or rank-3 layout: extents up to 10^6, tiles of any size.
fn arb_large() -> impl Strategy<Value = (ArrayShape, Vec<Vec<usize>>)> {
    (2usize..=3)
        .prop_flat_map(|rank| {
            (
                prop::collection::vec(1i64..1_000_000, rank),
                Just((0..rank as i64).collect::<Vec<_>>()).prop_shuffle(),
                prop::collection::vec(
                    prop::collection::vec(
                        prop_oneof![
                            4 => (1i64..300).prop_map(TileDim::Size),
                            1 => Just(TileDim::Combine)
                        ],
                        1..=rank,
                    )
                    .prop_map(|mut dims| {
                        if let Some(last) = dims.last_mut()
                            && *last == TileDim::Combine
                        {
                            *last = TileDim::Size(128);
                        }
                        Tile(dims)
                    }),
                    0..=2,
                ),
                prop::collection::vec(prop::collection::vec(0.0f64..1.0, rank), 64),
            )
        })
        .prop_map(|(dims, m2m, tiles, fractions)| {
            let indices = fractions
                .iter()
                .enumerate()
                .map(|(n, f)| {
                    dims.iter()
                        .zip(f)
                        .map(|(&d, &x)| match n {
                            // The corners: the last index of every dimension, and 0.
                            0 => d as usize - 1,
                            1 => 0,
                            _ => ((d as f64 * x) as usize).min(d as usize - 1),
                        })
                        .collect()
                })
                .collect();
            let shape = ArrayShape::new(PrimitiveType::F32, dims)
                .with_layout(ArrayLayout::new(m2m).with_tiles(tiles));
            (shape, indices)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Every index: `offset`, and `offsets` over all indices at once, equal the reference.
    #[test]
    fn offset_matches_reference(a in arb_array()) {
        let p = Plan::new(&a).unwrap();
        prop_assume!(p.physical_elements() <= 50_000);
        let expected = reference::offsets(&a);
        let indices: Vec<Vec<usize>> = (0..p.elements()).map(|l| unravel(l, p.dims())).collect();
        let one_by_one: Vec<usize> = indices.iter().map(|i| p.offset(i)).collect();
        prop_assert_eq!(&one_by_one, &expected, "{}", a);
        let mut batch = vec![usize::MAX; indices.len()];
        p.offsets(&indices, &mut batch);
        prop_assert_eq!(&batch, &expected, "{}", a);
    }

    /// `offsets_along`: along every dimension, every whole line and the second half of every
    /// line equal the reference.
    #[test]
    fn offsets_along_match_reference(a in arb_array()) {
        let p = Plan::new(&a).unwrap();
        prop_assume!(p.physical_elements() <= 50_000);
        let expected = reference::offsets(&a);
        let dims = p.dims().to_vec();
        let logical = |i: &[usize]| i.iter().zip(&dims).fold(0, |acc, (x, d)| acc * d + x);
        for dim in 0..dims.len() {
            for l in 0..p.elements() {
                let mut start = unravel(l, &dims);
                if start[dim] != 0 {
                    continue;
                }
                for from in [0, dims[dim] / 2] {
                    start[dim] = from;
                    let mut out = vec![usize::MAX; dims[dim] - from];
                    p.offsets_along(&start, dim, &mut out);
                    for (k, &o) in out.iter().enumerate() {
                        let mut index = start.clone();
                        index[dim] += k;
                        prop_assert_eq!(o, expected[logical(&index)], "{} at {:?}", a, index);
                    }
                }
            }
        }
    }

    /// The canonical text parses back into the same plan (legacy padded dimensions have no
    /// text, like in XLA's printer).
    #[test]
    fn plan_from_text(mut a in arb_array()) {
        a.layout.padded_dimensions.clear();
        let parsed: Plan = a.to_string().parse().unwrap();
        prop_assert_eq!(parsed, Plan::new(&a).unwrap());
    }

    /// Large layouts: `offset` and `offsets` equal the closed form at the corners and at
    /// random indices.
    #[test]
    fn offset_matches_closed_form_on_large_layouts((a, indices) in arb_large()) {
        prop_assume!(a.validate().is_ok());
        let Ok(p) = Plan::new(&a) else { return Ok(()); };
        let closed = p.offset_expr();
        let expected: Vec<usize> = indices.iter().map(|i| closed.eval(i)).collect();
        let one_by_one: Vec<usize> = indices.iter().map(|i| p.offset(i)).collect();
        prop_assert_eq!(&one_by_one, &expected, "{}", a);
        let arrays: Vec<&[usize]> = indices.iter().map(Vec::as_slice).collect();
        let mut batch = vec![0; indices.len()];
        p.offsets(&arrays, &mut batch);
        prop_assert_eq!(&batch, &expected, "{}", a);
    }
}

/// The batch form takes fixed-size arrays, and checks that the output fits.
#[test]
fn offsets_of_arrays() {
    let p: Plan = "bf16[16,256]{1,0:T(8,128)(2,1)}".parse().unwrap();
    let indices: Vec<[usize; 2]> = (0..16)
        .flat_map(|i| (0..256).map(move |j| [i, j]))
        .collect();
    let mut out = vec![0; indices.len()];
    p.offsets(&indices, &mut out);
    for (i, o) in indices.iter().zip(&out) {
        assert_eq!(*o, p.offset(i));
    }
    let result = std::panic::catch_unwind(|| p.offsets(&indices, &mut [0; 3]));
    assert!(result.is_err());
}

/// Errors of `str::parse::<Plan>` keep their byte ranges.
#[test]
fn parse_errors_have_spans() {
    let text = "f32[2,3]{1,0:T(2,0)E(-1)}";
    let errors = text.parse::<Plan>().unwrap_err();
    assert_eq!(errors.len(), 2);
    assert!(errors.iter().all(|e| e.span().is_some()));
    let errors = "f32[?,4]".parse::<Plan>().unwrap_err();
    assert_eq!(errors[0].span(), Some(0..8));
    assert!(errors[0].message().contains("unbounded"));
}
