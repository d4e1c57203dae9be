//! Property tests: the plan's offsets, traversals, inverse and sizes equal the literal
//! pad -> reshape -> transpose reference on random layouts (ranks 0-6, 1-3 tiles, `*`,
//! non-power-of-two tiles, tile rank above array rank, legacy padding, L, E).

mod common;

use common::reference::{self, unravel};
use proptest::prelude::*;
use xla_layout::{ArrayLayout, ArrayShape, PaddingValue, Plan, PrimitiveType, Tile, TileDim};

/// A random valid static array with a random layout.
fn arb_array() -> impl Strategy<Value = ArrayShape> {
    (0usize..=6)
        .prop_flat_map(|rank| {
            (
                prop::collection::vec(prop_oneof![9 => 1i64..6, 1 => Just(0i64)], rank),
                Just((0..rank as i64).collect::<Vec<_>>()).prop_shuffle(),
                prop::collection::vec(arb_tile(rank + 1), 0..=3),
                prop_oneof![3 => Just(1i64), 1 => 2i64..10],
                prop::sample::select(vec![0i64, 0, 1, 2, 4, 8, 16]),
                prop::option::weighted(0.2, prop::collection::vec(0i64..3, rank)),
            )
        })
        .prop_map(|(dims, m2m, tiles, l, e, extra)| {
            let mut layout = ArrayLayout::new(m2m)
                .with_tiles(tiles)
                .with_tail_padding_alignment(l)
                .with_element_size_in_bits(e);
            if let Some(extra) = extra {
                let padded = dims.iter().zip(extra).map(|(d, x)| d + x);
                layout = layout.with_padding(padded, PaddingValue::Zero);
            }
            ArrayShape::new(PrimitiveType::Bf16, dims).with_layout(layout)
        })
}

fn arb_tile(max_rank: usize) -> impl Strategy<Value = Tile> {
    prop::collection::vec(
        prop_oneof![4 => (1i64..9).prop_map(TileDim::Size), 1 => Just(TileDim::Combine)],
        1..=max_rank,
    )
    .prop_map(|mut dims| {
        if let Some(last) = dims.last_mut()
            && *last == TileDim::Combine
        {
            *last = TileDim::Size(2);
        }
        Tile(dims)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn plan_matches_reference(a in arb_array()) {
        let p = Plan::new(&a).unwrap();
        prop_assume!(p.physical_elements() <= 50_000);
        let image = reference::memory_image(&a);
        let expected = reference::offsets(&a);
        prop_assert_eq!(p.physical_elements(), image.len());
        let n = p.elements();
        let direct: Vec<usize> = (0..n).map(|l| p.offset(&unravel(l, p.dims()))).collect();
        prop_assert_eq!(&direct, &expected);
        let closed_form = p.offset_expr();
        let via_expr: Vec<usize> = (0..n).map(|l| closed_form.eval(&unravel(l, p.dims()))).collect();
        prop_assert_eq!(&via_expr, &expected);
        prop_assert_eq!(p.logical_offsets().collect::<Vec<_>>(), expected);
        let in_memory: Vec<(usize, usize)> = image
            .iter()
            .enumerate()
            .filter_map(|(slot, l)| l.map(|l| (slot, l)))
            .collect();
        prop_assert_eq!(p.memory_order().collect::<Vec<_>>(), in_memory.clone());
        let mut order = p.memory_order();
        let mut index = vec![0; p.dims().len()];
        for &(slot, label) in &in_memory {
            prop_assert_eq!(order.next_with_index(&mut index), Some(slot));
            prop_assert_eq!(&index, &unravel(label, p.dims()));
        }
        prop_assert_eq!(order.next_with_index(&mut index), None);
        let inverse = p.index_exprs();
        for (slot, label) in image.iter().enumerate() {
            if let Some(l) = label {
                let idx: Vec<usize> = inverse.iter().map(|e| e.eval(&[slot])).collect();
                prop_assert_eq!(idx, unravel(*l, p.dims()), "index_exprs at {}", slot);
            }
            let got = p.index_of(slot).map(|idx| {
                idx.iter().zip(p.dims()).fold(0, |acc, (&i, &d)| acc * d + i)
            });
            prop_assert_eq!(got, *label, "index_of({})", slot);
        }
        let bits = if a.layout.element_size_in_bits > 0 { a.layout.element_size_in_bits as usize } else { 16 };
        prop_assert_eq!(p.size_bytes(), (image.len() * bits).div_ceil(8));
    }
}
