//! The padding figures of XLA's TPU out-of-memory reports, recomputed: every expected value is
//! a published report's number or arithmetic written out in the test.

use proptest::prelude::*;
use xla_layout::xla::numbers::{Units, human_readable_bytes};
use xla_layout::xla::padding::{Cause, padding};
use xla_layout::{ArrayLayout, ArrayShape, PrimitiveType, Tile, TileDim, parse_array};

/// The figures a TPU report prints for one allocation: size, unpadded size, extra, expansion.
fn report(text: &str) -> (String, String, String, String) {
    let p = padding(&parse_array(text).unwrap()).unwrap();
    let tpu = |n: u64| human_readable_bytes(i64::try_from(n).unwrap(), Units::Tpu);
    (
        tpu(p.bytes),
        tpu(p.unpadded_bytes),
        tpu(p.extra_bytes()),
        format!("{:.1}x", p.expansion().unwrap()),
    )
}

fn strings(v: [&str; 4]) -> (String, String, String, String) {
    (v[0].into(), v[1].into(), v[2].into(), v[3].into())
}

#[test]
fn published_tpu_reports() {
    // Size: 32.00G, Unpadded size: 1.00G, Extra memory due to padding: 31.00G (32.0x expansion).
    assert_eq!(
        report("s32[8388608,8,4]{2,1,0:T(8,128)}"),
        strings(["32.00G", "1.00G", "31.00G", "32.0x"])
    );
    // Size: 4.00G, Unpadded size: 1.00G, Extra memory due to padding: 3.00G (4.0x expansion).
    assert_eq!(
        report("bf16[2048,1,2048,128]{0,1,3,2:T(4,128)(2,1)}"),
        strings(["4.00G", "1.00G", "3.00G", "4.0x"])
    );
    // 245 -> 256: 61.25M -> 64.00M, extra 2.75M, 1.0x.
    assert_eq!(
        report("f32[1024,245,64]{1,2,0:T(8,128)}"),
        strings(["64.00M", "61.25M", "2.75M", "1.0x"])
    );
    // 48.00M -> 6.00G, extra 5.95G, 128.0x.
    assert_eq!(
        report("u32[12582912,1]{1,0:T(8,128)}"),
        strings(["6.00G", "48.00M", "5.95G", "128.0x"])
    );
}

#[test]
fn causes_name_the_dimension_and_the_tile() {
    let p = padding(&parse_array("f32[1024,245,64]{1,2,0:T(8,128)}").unwrap()).unwrap();
    // minor_to_major {1,2,0}: dim 1 (245) is most minor, under the tile's 128; dim 2 (64) is
    // under its 8 and already a multiple.
    assert_eq!(
        p.causes,
        [Cause::Tile {
            level: 0,
            dim: Some(1),
            extent: 245,
            padded: 256,
            tile: Tile(vec![TileDim::Size(8), TileDim::Size(128)]),
        }]
    );
    let p = padding(&parse_array("bf16[3,5]{1,0:T(8,128)(2,1)}").unwrap()).unwrap();
    let text: Vec<String> = p.causes.iter().map(ToString::to_string).collect();
    assert_eq!(
        text,
        [
            "dim 1: 5 padded to 128 by T(8,128)",
            "dim 0: 3 padded to 8 by T(8,128)"
        ]
    );
    // 8 x 128 bf16 slots = 2048 bytes for 15 elements of 2 bytes.
    assert_eq!((p.unpadded_bytes, p.bytes), (30, 2048));
}

#[test]
fn no_layout_padding_means_no_causes() {
    let p = padding(&parse_array("f32[16,256]{1,0:T(8,128)}").unwrap()).unwrap();
    assert!(p.causes.is_empty());
    assert_eq!(
        (p.unpadded_bytes, p.bytes, p.extra_bytes()),
        (16384, 16384, 0)
    );
    // Packed sub-byte types: 4 bits each, no tiles.
    let p = padding(&parse_array("s4[3]{0:E(4)}").unwrap()).unwrap();
    assert_eq!((p.unpadded_bytes, p.bytes), (2, 2));
    // A zero-element array occupies nothing and has no expansion.
    let p = padding(&parse_array("f32[0,7]{1,0:T(8,128)}").unwrap()).unwrap();
    assert_eq!((p.unpadded_bytes, p.bytes, p.expansion()), (0, 0, None));
}

#[test]
fn units_follow_tsl_human_readable_num_bytes() {
    assert_eq!(human_readable_bytes(0, Units::Tpu), "0B");
    assert_eq!(human_readable_bytes(1024, Units::Tpu), "1.0K");
    assert_eq!(human_readable_bytes(530 << 20, Units::Tpu), "530.00M");
    // 1 MiB - 1 stays in K: 1048575 / 1024.0 = 1023.999 -> "1024.0K".
    assert_eq!(human_readable_bytes((1 << 20) - 1, Units::Gpu), "1024.0KiB");
    // Truncation to whole sub-units: 1 GiB + 1023 bytes is 1048576 KiB + 0 -> 1.00G.
    assert_eq!(human_readable_bytes((1 << 30) + 1023, Units::Tpu), "1.00G");
    assert_eq!(human_readable_bytes(i64::MAX, Units::Gpu), "8.00EiB");
}

fn arb_single_tile_array() -> impl Strategy<Value = ArrayShape> {
    (1usize..=4)
        .prop_flat_map(|rank| {
            (
                prop::collection::vec(1i64..40, rank),
                Just((0..rank as i64).collect::<Vec<_>>()).prop_shuffle(),
                prop::collection::vec(1i64..20, 1..=rank),
            )
        })
        .prop_map(|(dims, m2m, tile)| {
            let tile = Tile(tile.into_iter().map(TileDim::Size).collect());
            ArrayShape::new(PrimitiveType::F32, dims)
                .with_layout(ArrayLayout::new(m2m).with_tiles(vec![tile]))
        })
}

proptest! {
    /// With one tile, the occupied slots are the logical elements scaled by each cause's
    /// `padded / extent` over the rounded dims: brute force over the tile.
    #[test]
    fn one_tile_bytes_match_rounded_extents(a in arb_single_tile_array()) {
        let p = padding(&a).unwrap();
        let tile = &a.layout.tiles[0].0;
        let mut slots: u64 = 1;
        for (i, &d) in a.layout.minor_to_major.iter().enumerate() {
            let extent = a.dims[d as usize].extent().unwrap() as u64;
            let t = match tile.len().checked_sub(1 + i).map(|j| &tile[j]) {
                Some(TileDim::Size(t)) => *t as u64,
                _ => 1,
            };
            slots *= extent.div_ceil(t) * t;
        }
        prop_assert_eq!(p.bytes, slots * 4);
        let causes = p.causes.iter().filter(|c| matches!(c, Cause::Tile { .. })).count();
        let rounded = a.layout.minor_to_major.iter().enumerate().filter(|&(i, &d)| {
            let extent = a.dims[d as usize].extent().unwrap();
            match tile.len().checked_sub(1 + i).map(|j| &tile[j]) {
                Some(TileDim::Size(t)) => extent % t != 0,
                _ => false,
            }
        }).count();
        prop_assert_eq!(causes, rounded);
    }
}
