//! Property tests of the runtime relayout (`CopyPlan`, `relayout`) against the brute-force
//! reference model: random pairs of layouts of one random array (ranks 0-4, odd extents that
//! tiles overhang, nested TPU-like tiles and sub-tiles `(2,1)` `(4,1)` `(8,1)`, transposed
//! tiles, `*`, non-nesting tiles, legacy padding, `L(n)`, `M(n)`, `E(n)` packing), every
//! storage width from 1 to 128 bits. Each element of the destination must hold the bits of the
//! same element of the source (truncated or extended when the widths differ), read at the
//! offsets of the reference model (docs/tiled_layout.md applied literally), and the `M(n)`
//! prefix must be left alone.

mod common;

use common::reference;
use proptest::prelude::*;
use xla_layout::tensor::{CopyPlan, RelayoutError, relayout};
use xla_layout::{ArrayLayout, ArrayShape, PaddingValue, Plan, PrimitiveType, Tile, TileDim};

/// Element types of every storage width, with the `E(n)` values each may take (0: natural).
const TYPES: &[(PrimitiveType, &[i64])] = &[
    (PrimitiveType::Pred, &[0]),
    (PrimitiveType::S1, &[0, 1]),
    (PrimitiveType::U2, &[0, 2]),
    (PrimitiveType::S4, &[0, 4]),
    (PrimitiveType::U4, &[0, 4]),
    (PrimitiveType::S8, &[0]),
    (PrimitiveType::F8e4m3fn, &[0]),
    (PrimitiveType::Bf16, &[0]),
    (PrimitiveType::S16, &[0]),
    (PrimitiveType::F32, &[0]),
    (PrimitiveType::S32, &[0]),
    (PrimitiveType::F64, &[0]),
    (PrimitiveType::C64, &[0]),
    (PrimitiveType::C128, &[0]),
];

/// A tile dim: mostly powers of two (tiles that nest), sometimes any size or `*`.
fn arb_tile_dim() -> impl Strategy<Value = TileDim> {
    prop_oneof![
        6 => prop::sample::select(vec![1i64, 2, 4, 8, 16]).prop_map(TileDim::Size),
        2 => (1i64..9).prop_map(TileDim::Size),
        1 => Just(TileDim::Combine),
    ]
}

/// Up to three tiles: random ones, or a TPU-like tile with a sub-tile `(2,1)`, `(4,1)`,
/// `(8,1)` or `(1,k)`.
fn arb_tiles(rank: usize) -> impl Strategy<Value = Vec<Tile>> {
    let random = prop::collection::vec(
        prop::collection::vec(arb_tile_dim(), 1..=rank + 1).prop_map(|mut dims| {
            if let Some(last) = dims.last_mut()
                && *last == TileDim::Combine
            {
                *last = TileDim::Size(2);
            }
            Tile(dims)
        }),
        0..=3,
    );
    let tpu = (
        prop::sample::select(vec![2i64, 4, 8, 16, 32]),
        prop::sample::select(vec![4i64, 8, 16, 128]),
        prop::sample::select(vec![(2i64, 1i64), (4, 1), (8, 1), (1, 2), (2, 2)]),
    )
        .prop_map(|(r, c, (sr, sc))| {
            vec![
                Tile(vec![TileDim::Size(r), TileDim::Size(c)]),
                Tile(vec![TileDim::Size(sr), TileDim::Size(sc)]),
            ]
        });
    prop_oneof![2 => random, 1 => tpu, 1 => Just(Vec::new())]
}

/// A random layout of an array of `rank` dims of sizes `dims`, elements `e_bits` options.
fn arb_layout(dims: Vec<i64>, bits: &'static [i64]) -> impl Strategy<Value = ArrayLayout> {
    let rank = dims.len();
    (
        Just((0..rank as i64).collect::<Vec<_>>()).prop_shuffle(),
        arb_tiles(rank),
        prop_oneof![4 => Just(1i64), 1 => 2i64..10],
        prop::sample::select(bits),
        prop_oneof![4 => Just(0i64), 1 => 1i64..9],
        prop::option::weighted(0.15, prop::collection::vec(0i64..3, rank)),
    )
        .prop_map(move |(m2m, tiles, l, e, prefix, extra)| {
            let mut layout = ArrayLayout::new(m2m)
                .with_tiles(tiles)
                .with_tail_padding_alignment(l)
                .with_element_size_in_bits(e)
                .with_metadata_prefix_bytes(prefix);
            if let Some(extra) = extra {
                let padded = dims.iter().zip(extra).map(|(d, x)| d + x);
                layout = layout.with_padding(padded, PaddingValue::Zero);
            }
            layout
        })
}

/// One random array in two random layouts.
fn arb_pair() -> impl Strategy<Value = (ArrayShape, ArrayShape)> {
    (
        prop::sample::select(TYPES),
        prop::collection::vec(prop_oneof![12 => 1i64..20, 1 => Just(0i64)], 0..=4),
    )
        .prop_flat_map(|((ty, bits), dims)| {
            (
                Just(ty),
                arb_layout(dims.clone(), bits),
                arb_layout(dims.clone(), bits),
                Just(dims),
            )
        })
        .prop_map(|(ty, a, b, dims)| {
            (
                ArrayShape::new(ty, dims.clone()).with_layout(a),
                ArrayShape::new(ty, dims).with_layout(b),
            )
        })
}

/// `bits` bits of `bytes` from bit `start`, least-significant first (independent of the
/// library's own bit code).
fn read(bytes: &[u8], start: usize, bits: usize) -> u128 {
    if start.is_multiple_of(8) && bits.is_multiple_of(8) {
        // Whole bytes, little-endian: the same value as the bit loop below, 8x fewer steps.
        let first = start / 8;
        return bytes[first..first + bits / 8]
            .iter()
            .rev()
            .fold(0, |v, &b| v << 8 | u128::from(b));
    }
    (0..bits).fold(0, |v, k| {
        let bit = start + k;
        v | u128::from((bytes[bit / 8] >> (bit % 8)) & 1) << k
    })
}

fn signed(t: PrimitiveType) -> bool {
    use PrimitiveType::*;
    matches!(t, S1 | S2 | S4 | S8 | S16 | S32 | S64)
}

/// A source element's bits as the destination stores them: truncated, or extended with the
/// sign (signed integers) or zeros.
fn convert(v: u128, from: usize, to: usize, sign: bool) -> u128 {
    let mask = |bits: usize| {
        if bits >= 128 {
            u128::MAX
        } else {
            (1 << bits) - 1
        }
    };
    let v = v & mask(from);
    let extended = if sign && to > from && (v >> (from - 1)) & 1 == 1 {
        v | (u128::MAX << from)
    } else {
        v
    };
    extended & mask(to)
}

/// Bytes from a seed.
fn noise(seed: u64, n: usize) -> Vec<u8> {
    (0..n as u64)
        .map(|k| ((seed ^ k).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56) as u8)
        .collect()
}

/// Checks `dst` (after a copy from `src`) element by element against the reference model's
/// offsets.
fn check(
    a: &ArrayShape,
    b: &ArrayShape,
    src: &[u8],
    dst: &[u8],
    stale: &[u8],
) -> Result<(), TestCaseError> {
    let (oa, ob) = (reference::offsets(a), reference::offsets(b));
    check_at(a, b, &oa, &ob, src, dst, stale)
}

/// `check` with the offsets of every element in logical order given.
fn check_at(
    a: &ArrayShape,
    b: &ArrayShape,
    oa: &[usize],
    ob: &[usize],
    src: &[u8],
    dst: &[u8],
    stale: &[u8],
) -> Result<(), TestCaseError> {
    let (pa, pb) = (Plan::new(a).unwrap(), Plan::new(b).unwrap());
    let (ba, bb) = (pa.element_bits(), pb.element_bits());
    for (k, (&sa, &sb)) in oa.iter().zip(ob).enumerate() {
        let v = read(src, 8 * pa.prefix_bytes() + sa * ba, ba);
        let want = convert(v, ba, bb, signed(a.element_type));
        let got = read(dst, 8 * pb.prefix_bytes() + sb * bb, bb);
        prop_assert_eq!(got, want, "element {} of {} -> {}", k, a, b);
    }
    prop_assert_eq!(
        &dst[..pb.prefix_bytes()],
        &stale[..pb.prefix_bytes()],
        "the M prefix of {} changed",
        b
    );
    Ok(())
}

proptest! {
    // 200 random pairs (2,000 before the kernel tests below; the debug build's run time of
    // this file is budgeted at about 3 s): `kernels_match_reference` covers each kernel's
    // whole blocks, which random small arrays seldom reach.
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn relayout_matches_reference((a, b) in arb_pair(), seed in any::<u64>()) {
        let (Ok(pa), Ok(pb)) = (Plan::new(&a), Plan::new(&b)) else {
            return Err(TestCaseError::reject("invalid layout"));
        };
        prop_assume!(pa.physical_elements() <= 40_000 && pb.physical_elements() <= 40_000);
        let src = noise(seed, pa.size_bytes());
        let stale = noise(!seed, pb.size_bytes());
        let mut dst = stale.clone();
        relayout(&src, &a, &mut dst, &b).unwrap();
        check(&a, &b, &src, &dst, &stale)?;

        // In parts, in reverse order: the same bytes.
        let plan = CopyPlan::new(&a, &b).unwrap();
        let mut parts = stale.clone();
        for k in (0..plan.parts()).rev() {
            plan.copy_parts(&src, &mut parts, k..k + 1).unwrap();
        }
        prop_assert_eq!(parts, dst);
    }
}

/// Every kernel on arrays large enough for its whole blocks, at every width, both ways, with
/// extents that leave partial blocks at the edges: vector transposes (whole lines, and
/// transposed `T(8,128)` tiles whose short sides are widened by the next tile), interleaves
/// `(2,1)` `(4,1)` `(8,1)` and their inverses, `*`, `E(n)` packing from and to bytes, ranks 3
/// and 4. Each element against the reference model.
#[test]
fn kernels_match_reference() {
    let pairs = [
        ("f32[48,80]{1,0}", "f32[48,80]{0,1}"),
        ("f32[40,72]{1,0}", "f32[40,72]{0,1}"),
        ("u8[96,128]{1,0}", "u8[96,128]{0,1}"),
        ("u8[70,66]{1,0}", "u8[70,66]{0,1}"),
        ("bf16[64,96]{1,0}", "bf16[64,96]{0,1}"),
        ("s16[33,40]{1,0}", "s16[33,40]{0,1}"),
        ("f64[24,40]{1,0}", "f64[24,40]{0,1}"),
        ("c128[12,20]{1,0}", "c128[12,20]{0,1}"),
        ("f32[32,256]{1,0}", "f32[32,256]{0,1:T(8,128)}"),
        ("f32[24,260]{1,0}", "f32[24,260]{0,1:T(8,128)}"),
        ("f32[16,256]{1,0:T(8,128)}", "f32[16,256]{0,1:T(8,128)}"),
        ("f64[16,256]{1,0}", "f64[16,256]{0,1:T(8,128)}"),
        ("bf16[32,256]{1,0}", "bf16[32,256]{0,1:T(8,128)(2,1)}"),
        ("bf16[16,256]{1,0}", "bf16[16,256]{1,0:T(8,128)(2,1)}"),
        ("bf16[9,130]{1,0}", "bf16[9,130]{1,0:T(8,128)(2,1)}"),
        ("s8[64,256]{1,0}", "s8[64,256]{1,0:T(32,128)(4,1)}"),
        ("s8[33,257]{1,0}", "s8[33,257]{1,0:T(32,128)(4,1)}"),
        ("u8[64,256]{1,0}", "u8[64,256]{1,0:T(64,128)(8,1)}"),
        ("f32[16,8,256]{2,1,0}", "f32[16,8,256]{2,1,0:T(8,*,128)}"),
        ("f32[8,16,16,8]{3,2,1,0}", "f32[8,16,16,8]{0,1,2,3}"),
        ("f32[8,16,16,8]{3,2,1,0}", "f32[8,16,16,8]{1,0,3,2}"),
        ("bf16[4,8,16,32]{3,2,1,0}", "bf16[4,8,16,32]{0,1,2,3}"),
        ("s4[24,70]{1,0}", "s4[24,70]{1,0:E(4)}"),
        ("u4[24,70]{1,0}", "u4[24,70]{1,0:E(4)}"),
        ("s2[12,37]{1,0}", "s2[12,37]{1,0:E(2)}"),
        ("u1[10,45]{1,0}", "u1[10,45]{1,0:E(1)}"),
        ("s1[10,45]{1,0}", "s1[10,45]{1,0:E(1)}"),
        ("u2[12,37]{1,0}", "u2[12,37]{1,0:E(2)}"),
        ("s2[40,100]{1,0}", "s2[40,100]{1,0:E(2)}"),
        ("s4[64,256]{1,0:E(4)}", "s4[64,256]{1,0:T(64,128)(8,1)E(4)}"),
        ("s4[72,130]{1,0:E(4)}", "s4[72,130]{1,0:T(64,128)(8,1)E(4)}"),
        ("u4[16,256]{1,0:E(4)}", "u4[16,256]{1,0:T(8,128)(2,1)E(4)}"),
        ("s4[32,256]{1,0:E(4)}", "s4[32,256]{1,0:T(32,128)(4,1)E(4)}"),
        ("s4[64,128]{1,0:E(4)}", "s4[64,128]{0,1:E(4)}"),
        ("s4[32,256]{1,0:E(4)}", "s4[32,256]{0,1:T(8,128)E(4)}"),
        // Re-tilings of packed fields, copied as bytes; odd extents stay field by field.
        ("s4[32,256]{1,0:E(4)}", "s4[32,256]{1,0:T(8,128)E(4)}"),
        ("s4[30,250]{1,0:E(4)}", "s4[30,250]{1,0:T(8,128)E(4)}"),
        ("s4[30,251]{1,0:E(4)}", "s4[30,251]{1,0:T(8,128)E(4)}"),
        ("u2[16,512]{1,0:E(2)}", "u2[16,512]{1,0:T(8,128)E(2)}"),
        ("u1[16,1024]{1,0:E(1)}", "u1[16,1024]{1,0:T(8,128)E(1)}"),
        ("s4[4,8,256]{2,1,0:E(4)}", "s4[4,8,256]{1,2,0:T(8,128)E(4)}"),
    ];
    for (a, b) in pairs {
        let (a, b) = (
            xla_layout::parse_array(a).unwrap(),
            xla_layout::parse_array(b).unwrap(),
        );
        for (a, b) in [(&a, &b), (&b, &a)] {
            let plan = CopyPlan::new(a, b).unwrap();
            let src = noise(3, plan.src_bytes());
            let stale = noise(4, plan.dst_bytes());
            let mut dst = stale.clone();
            plan.copy(&src, &mut dst).unwrap();
            check(a, b, &src, &dst, &stale).unwrap();
        }
    }
}

/// Large enough for the streamed (non-temporal) path, 64-byte aligned so that it streams
/// whole lines, and for the `rayon` feature's split: there and back again gives the source
/// back, and 4,096 elements spread over the array are where `Plan::offset` puts them
/// (checked against the reference model by `tests/tiling_props.rs`; a full check of millions
/// of elements takes seconds in a debug build).
#[test]
fn large_copies_match_reference() {
    use xla_layout::tensor::AlignedBuf;
    // 16 MiB: the zip and unzip kernels' streamed paths (of bytes and of `E(4)` fields), and
    // the vector transpose's streamed lines (the unit tests of `tensor::relayout` force every
    // streamed path on small arrays).
    for (a, b) in [
        ("bf16[1024,8192]{1,0}", "bf16[1024,8192]{1,0:T(8,128)(2,1)}"),
        ("f32[2048,2048]{1,0}", "f32[2048,2048]{0,1:T(8,128)}"),
        (
            "s4[4096,8192]{1,0:E(4)}",
            "s4[4096,8192]{1,0:T(64,128)(8,1)E(4)}",
        ),
        // Transposes into rows of 4000 and 4200 bytes, which go through rows padded to
        // whole lines a slab at a time (with the `rayon` feature, the slabs shared out among
        // the threads: `.ci/run` runs this test so too).
        ("u8[4000,4200]{1,0}", "u8[4000,4200]{0,1}"),
        // A transpose into rows 8204 bytes apart, in panels: each row's partial lines
        // carried from block to block and streamed whole.
        ("f32[2051,2048]{1,0}", "f32[2051,2048]{0,1}"),
        // Rows of an odd count of `E(4)` fields, which start inside bytes: into tiles and back
        // out of them a band of tiles at a time (the rows first: the tiles' padding does not
        // come back), and transposed through rows padded to whole bytes in slabs of 1 MiB.
        ("s4[4100,8191]{1,0:E(4)}", "s4[4100,8191]{1,0:T(8,128)E(4)}"),
        ("s4[4097,8192]{1,0:E(4)}", "s4[4097,8192]{0,1:E(4)}"),
    ] {
        let (a, b) = (
            xla_layout::parse_array(a).unwrap(),
            xla_layout::parse_array(b).unwrap(),
        );
        let (there, back) = (
            CopyPlan::new(&a, &b).unwrap(),
            CopyPlan::new(&b, &a).unwrap(),
        );
        let mut src = AlignedBuf::filled(there.src_bytes(), 0u8);
        for (k, chunk) in src.chunks_mut(8).enumerate() {
            let v = (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15).to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
        let mut dst = AlignedBuf::filled(there.dst_bytes(), 0u8);
        there.copy(&src, &mut dst).unwrap();
        let mut again = AlignedBuf::filled(there.src_bytes(), 0u8);
        back.copy(&dst, &mut again).unwrap();
        assert!(*again == *src, "{a} -> {b} -> {a} changed the data");
        let (pa, pb) = (Plan::new(&a).unwrap(), Plan::new(&b).unwrap());
        let dims = pa.dims().to_vec();
        let bits = pa.element_bits();
        // The element in slot `k`: whole bytes, or a field of a byte, low bits first.
        let element = |buf: &[u8], k: usize| -> Vec<u8> {
            if bits >= 8 {
                buf[k * bits / 8..][..bits / 8].to_vec()
            } else {
                let at = k * bits;
                vec![(buf[at / 8] >> (at % 8)) & ((1u8 << bits) - 1)]
            }
        };
        for k in 0..4096usize {
            let index: Vec<usize> = dims
                .iter()
                .enumerate()
                .map(|(j, &n)| (k * 7919 + j * 104_729 + k * k) % n)
                .collect();
            let (s, d) = (pa.offset(&index), pb.offset(&index));
            assert_eq!(
                element(&src, s),
                element(&dst, d),
                "{a} -> {b} at {index:?}"
            );
        }
    }
}

#[test]
fn mismatched_arrays_and_buffers_are_errors() {
    let a = xla_layout::parse_array("f32[4,6]{1,0:T(2,2)}").unwrap();
    let rows = xla_layout::parse_array("f32[4,6]").unwrap();
    let e = CopyPlan::new(&a, &xla_layout::parse_array("f32[4,5]").unwrap()).unwrap_err();
    assert!(matches!(
        e,
        RelayoutError::Mismatch {
            element_types: None,
            dims: Some(_),
            ..
        }
    ));
    let e = CopyPlan::new(&a, &xla_layout::parse_array("bf16[4,6]").unwrap()).unwrap_err();
    assert!(matches!(
        e,
        RelayoutError::Mismatch {
            element_types: Some(_),
            dims: None,
            ..
        }
    ));
    let e = relayout(&[0; 96], &a, &mut [0; 95], &rows).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the destination buffer has 95 bytes, but its layout needs 96"
    );
    let e = relayout(&[0; 95], &a, &mut [0; 96], &rows).unwrap_err();
    assert!(matches!(
        e,
        RelayoutError::Length {
            src: Some(_),
            dst: None
        }
    ));
    let e = CopyPlan::new(&xla_layout::parse_array("f32[?,6]").unwrap(), &rows).unwrap_err();
    assert!(e.to_string().contains("?"), "{e}");
}
