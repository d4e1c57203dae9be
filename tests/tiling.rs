//! Offsets and sizes of tiled layouts: every value of corpus section E, the seed documents'
//! examples, and the literal pad -> reshape -> transpose reference on each.

mod common;

use common::reference::{self, unravel};
use xla_layout::{ArrayLayout, PaddingValue, Plan, parse_array};

fn plan(text: &str) -> Plan {
    Plan::new(&parse_array(text).unwrap()).unwrap()
}

/// Every element's offset in logical row-major order, from the plan's direct path.
fn grid(p: &Plan) -> Vec<usize> {
    (0..p.elements())
        .map(|l| p.offset(&unravel(l, p.dims())))
        .collect()
}

/// Asserts the plan agrees with the reference on every element, both traversals, the
/// inverse on every slot, and the slot count.
fn agrees_with_reference(text: &str) {
    let a = parse_array(text).unwrap();
    let p = Plan::new(&a).unwrap();
    let expected = reference::offsets(&a);
    let image = reference::memory_image(&a);
    assert_eq!(grid(&p), expected, "{text}: offsets");
    assert_eq!(
        p.logical_offsets().collect::<Vec<_>>(),
        expected,
        "{text}: logical_offsets"
    );
    assert_eq!(
        p.physical_elements(),
        image.len(),
        "{text}: physical elements"
    );
    let in_memory: Vec<(usize, usize)> = image
        .iter()
        .enumerate()
        .filter_map(|(slot, l)| l.map(|l| (slot, l)))
        .collect();
    assert_eq!(
        p.memory_order().collect::<Vec<_>>(),
        in_memory,
        "{text}: memory_order"
    );
    for (slot, label) in image.iter().enumerate() {
        let got = p.index_of(slot).map(|idx| {
            idx.iter()
                .zip(p.dims())
                .fold(0, |acc, (&i, &d)| acc * d + i)
        });
        assert_eq!(got, *label, "{text}: index_of({slot})");
    }
}

#[test]
fn e1_doc_figure_1() {
    let p = plan("f32[3,5]{1,0:T(2,2)}");
    assert_eq!(p.offset(&[2, 3]), 17);
    assert_eq!(
        grid(&p),
        [0, 1, 4, 5, 8, 2, 3, 6, 7, 10, 12, 13, 16, 17, 20]
    );
    assert_eq!(p.physical_elements(), 24);
    agrees_with_reference("f32[3,5]{1,0:T(2,2)}");
}

#[test]
fn e2_doc_figure_2() {
    let p = plan("f32[4,8]{1,0:T(2,4)(2,1)}");
    assert_eq!(
        grid(&p),
        [
            0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15, 16, 18, 20, 22, 24, 26, 28, 30,
            17, 19, 21, 23, 25, 27, 29, 31
        ]
    );
    assert_eq!(p.expanded_dims(), [2, 2, 1, 4, 2, 1]);
    agrees_with_reference("f32[4,8]{1,0:T(2,4)(2,1)}");
}

#[test]
fn e3_tiles_change_the_offset() {
    assert_eq!(plan("f32[8,4]{1,0:T(2,2)}").offset(&[3, 1]), 11);
    assert_eq!(plan("f32[8,4]{1,0}").offset(&[3, 1]), 13);
}

#[test]
fn e4_nested_1d() {
    let p = plan("bf16[2048]{0:T(1024)(128)(2,1)}");
    for (i, o) in [
        (0, 0),
        (128, 1),
        (1, 2),
        (127, 254),
        (129, 3),
        (255, 255),
        (256, 256),
        (2047, 2047),
    ] {
        assert_eq!(p.offset(&[i]), o, "index {i}");
    }
    assert_eq!(p.index_of(1), Some(vec![128]));
    assert_eq!(p.index_of(2), Some(vec![1]));
    assert_eq!(p.expanded_dims(), [2, 4, 128, 2, 1]);
    assert_eq!(p.physical_elements(), 2048);
    agrees_with_reference("bf16[2048]{0:T(1024)(128)(2,1)}");
}

#[test]
fn e5_nested_2d() {
    let p = plan("bf16[2,8,128]{2,1,0:T(8,128)(2,1)}");
    for (idx, o) in [
        ([0, 0, 0], 0),
        ([0, 2, 0], 256),
        ([0, 1, 0], 1),
        ([0, 0, 1], 2),
        ([0, 7, 127], 1023),
        ([1, 0, 0], 1024),
    ] {
        assert_eq!(p.offset(&idx), o, "{idx:?}");
    }
    assert_eq!(p.index_of(256), Some(vec![0, 2, 0]));
    agrees_with_reference("bf16[2,8,128]{2,1,0:T(8,128)(2,1)}");
}

#[test]
fn e6_tpu_activation_and_its_closed_form() {
    let text = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}";
    let p = plan(text);
    for (idx, o) in [
        ([0, 0, 1, 0], 1),
        ([0, 0, 0, 1], 2),
        ([0, 0, 2, 0], 256),
        ([0, 0, 8, 0], 131072),
        ([0, 0, 0, 128], 1024),
        ([1, 0, 0, 0], 20971520),
        ([7, 0, 1279, 16383], 167772159),
    ] {
        assert_eq!(p.offset(&idx), o, "{idx:?}");
    }
    assert_eq!(p.expanded_dims(), [1, 8, 160, 128, 4, 128, 2, 1]);
    let closed = |i0: usize, i2: usize, i3: usize| {
        i0 * 20971520
            + (i2 >> 3) * 131072
            + (i3 >> 7) * 1024
            + ((i2 & 7) >> 1) * 256
            + (i3 & 127) * 2
            + (i2 & 1)
    };
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..20_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let (i0, i2, i3) = (
            (state % 8) as usize,
            ((state >> 8) % 1280) as usize,
            ((state >> 24) % 16384) as usize,
        );
        assert_eq!(p.offset(&[i0, 0, i2, i3]), closed(i0, i2, i3));
    }
}

#[test]
fn e7_combined_dimensions() {
    let text = "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}";
    let p = plan(text);
    assert_eq!(p.expanded_dims(), [56, 37, 2, 3]);
    assert_eq!(p.physical_elements(), 12432);
    for (idx, o) in [
        ([0, 0, 0, 0, 1], 1),
        ([0, 0, 0, 0, 3], 6),
        ([0, 0, 1, 0, 0], 3),
        ([0, 0, 2, 0, 0], 222),
        ([0, 1, 0, 0, 0], 888),
        ([1, 6, 7, 10, 9], 12430),
    ] {
        assert_eq!(p.offset(&idx), o, "{idx:?}");
    }
    agrees_with_reference(text);
}

#[test]
fn e8_combined_real_test_string() {
    let text = "bf16[2,3,1004]{2,1,0:T(2,*,128)}";
    let p = plan(text);
    assert_eq!(p.expanded_dims(), [1, 24, 2, 128]);
    assert_eq!(p.physical_elements(), 6144);
    for (idx, o) in [
        ([0, 0, 1], 1),
        ([1, 0, 0], 128),
        ([0, 0, 128], 256),
        ([0, 1, 0], 1900),
        ([0, 2, 1003], 5955),
        ([1, 2, 1003], 6083),
    ] {
        assert_eq!(p.offset(&idx), o, "{idx:?}");
    }
    agrees_with_reference(text);
}

#[test]
fn e9_to_e12_small_tilings() {
    let p = plan("f32[123,456]{0,1:T(2,128)}");
    assert_eq!(p.offset(&[1, 1]), 129);
    assert_eq!(p.offset(&[122, 455]), 58362);
    assert_eq!(p.physical_elements(), 58368);

    let p = plan("f32[2,3]{1,0:T(8,128)}");
    assert_eq!(
        [[0, 0], [0, 2], [1, 0], [1, 2]].map(|i| p.offset(&i)),
        [0, 2, 128, 130]
    );
    assert_eq!(p.physical_elements(), 1024);

    let p = plan("pred[8,1024]{1,0:T(8,128)(4,1)}");
    for (idx, o) in [
        ([1, 0], 1),
        ([2, 0], 2),
        ([3, 0], 3),
        ([4, 0], 512),
        ([0, 1], 4),
        ([0, 128], 1024),
        ([7, 1023], 8191),
    ] {
        assert_eq!(p.offset(&idx), o, "{idx:?}");
    }

    let p = plan("f32[3,5]{0,1:T(2,2)}");
    assert_eq!(
        grid(&p),
        [0, 2, 8, 10, 16, 1, 3, 9, 11, 17, 4, 6, 12, 14, 20]
    );
    assert_eq!(p.physical_elements(), 24);
    for text in [
        "f32[2,3]{1,0:T(8,128)}",
        "pred[8,1024]{1,0:T(8,128)(4,1)}",
        "f32[3,5]{0,1:T(2,2)}",
    ] {
        agrees_with_reference(text);
    }
}

#[test]
fn e13_e14_tile_rank_above_array_rank() {
    let p = plan("u8[5]{0:T(2,1)}");
    assert_eq!(grid(&p), [0, 2, 4, 6, 8]);
    assert_eq!(p.physical_elements(), 10);
    agrees_with_reference("u8[5]{0:T(2,1)}");

    let p = plan("f32[]{:T(256)}");
    assert_eq!(p.offset(&[]), 0);
    assert_eq!(p.physical_elements(), 256);
    assert_eq!(p.size_bytes(), 1024);
    agrees_with_reference("f32[]{:T(256)}");
}

#[test]
fn sizes_from_the_corpus() {
    // F4: s4 packed two per byte under a two-level tiling.
    assert_eq!(
        plan("s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}").size_bytes(),
        28311552
    );
    // F3 and F5.
    assert_eq!(plan("s4[64,128]{1,0:E(4)}").size_bytes(), 4096);
    assert_eq!(plan("s4[0,64,128]{2,1,0:E(4)}").size_bytes(), 0);
    // F6: both layouts have 25601024 slots.
    assert_eq!(
        plan("f32[200001,128]{1,0:T(8,128)}").physical_elements(),
        25601024
    );
    assert_eq!(
        plan("f32[200001,128]{1,0:T(8)L(1024)}").physical_elements(),
        25601024
    );
    assert_eq!(
        plan("f32[200001,128]{1,0:T(8)L(1024)}").size_bytes(),
        102404096
    );
    // F9: the full nested expansion of bf16[3]{0:T(128)(2,1)} is [1,128,2,1].
    let p = plan("bf16[3]{0:T(128)(2,1)}");
    assert_eq!(p.expanded_dims(), [1, 128, 2, 1]);
    assert_eq!(p.size_bytes(), 512);
    // M: the prefix comes before the data.
    let p = plan("s32[<=4096]{0:T(8)M(1024)}");
    assert_eq!(p.size_bytes(), 4096 * 4 + 1024);
    assert_eq!(p.bit_offset(&[1]), 1024 * 8 + 32);
}

#[test]
fn sub_byte_packing_is_lsb_first() {
    // Spec 6.6: element j of a byte occupies bits [j*n, (j+1)*n).
    let p = plan("s4[2,3]{1,0:E(4)}");
    let bits: Vec<u128> = (0..2)
        .flat_map(|i| (0..3).map(move |j| [i, j]))
        .map(|idx| p.bit_offset(&idx))
        .collect();
    assert_eq!(bits, [0, 4, 8, 12, 16, 20]);
    let p = plan("u2[5]{0:E(2)}");
    assert_eq!(p.bit_offset(&[3]), 6);
    assert_eq!(p.size_bytes(), 2);
    // Without E a sub-byte type takes a whole byte.
    assert_eq!(plan("s4[4]{0}").bit_offset(&[3]), 24);
}

#[test]
fn seed_memory_orders() {
    // 002_493a1a17dc15ef5a.txt: [2 x 3] `a b c / d e f`.
    let letters = |text: &str| -> String {
        let p = plan(text);
        let mut memory = vec!["0"; p.physical_elements()];
        for (offset, logical) in p.memory_order() {
            memory[offset] = ["a", "b", "c", "d", "e", "f"][logical];
        }
        memory.join(" ")
    };
    assert_eq!(letters("f32[2,3]{0,1}"), "a d b e c f");
    assert_eq!(letters("f32[2,3]{1,0}"), "a b c d e f");
}

#[test]
fn seed_legacy_padded_dimensions() {
    // 000_51cad06cf93ffc87.txt: [2 x 3], {0,1}, padded to [3,5] gives
    // `a d 0 b e 0 c f 0 0 0 0 0 0 0`.
    let mut a = parse_array("f32[2,3]{0,1}").unwrap();
    a.layout = ArrayLayout::new([0, 1]).with_padding([3, 5], PaddingValue::Zero);
    let p = Plan::new(&a).unwrap();
    let mut memory = vec!["0".to_string(); p.physical_elements()];
    for (offset, logical) in p.memory_order() {
        memory[offset] = ((b'a' + logical as u8) as char).to_string();
    }
    assert_eq!(memory.join(" "), "a d 0 b e 0 c f 0 0 0 0 0 0 0");
    assert_eq!(reference::offsets(&a), grid(&p));
    assert_eq!(p.index_of(2), None);

    let mut bad = a.clone();
    bad.layout.padded_dimensions = vec![1, 5];
    assert!(Plan::new(&bad).is_err());
    bad.layout.padded_dimensions = vec![3];
    let errs = bad.validate().unwrap_err();
    assert!(errs[0].message().contains("one padded size per dimension"));
}

#[test]
fn unbounded_dimensions_have_no_plan() {
    let a = parse_array("f32[?,784]").unwrap();
    let errs = Plan::new(&a).unwrap_err();
    assert!(errs[0].message().contains("unbounded"));
}
