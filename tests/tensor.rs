//! Typed tensors: construction, indexing, packed elements, iteration, relayout and bitcast.
//! Expected values come from the seed documents, the spec's packing rule, or logical data
//! (a relayout must preserve every logical element).

use xla_layout::tensor::{Tensor, TensorMut, TensorRef};
use xla_layout::typed::{I4, U2};
use xla_layout::{StaticLayout, layout};

type RowMajor = layout!(f32[2,3]{1,0});
type ColMajor = layout!(f32[2,3]{0,1});

#[test]
fn seed_orders_and_indexing() {
    let data = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    let col = Tensor::<ColMajor>::from_logical(&data).unwrap();
    assert_eq!(col.as_slice(), &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]); // `a d b e c f`
    let row = Tensor::<RowMajor>::from_logical(&data).unwrap();
    assert_eq!(row.as_slice(), &data); // `a b c d e f`
    assert_eq!(col[[1, 0]], 4.0);
    assert_eq!(col.get([1, 2]), Some(6.0));
    assert_eq!(col.get([2, 0]), None);
    assert_eq!(col.get_ref([0, 1]), Some(&2.0));
    assert_eq!(col.to_logical(), data);
    assert_eq!(col.iter().collect::<Vec<_>>(), data);
    let physical: Vec<([usize; 2], f32)> = col.iter_physical().collect();
    assert_eq!(physical[1], ([1, 0], 4.0));
    assert_eq!(physical.len(), 6);
    assert!(Tensor::<ColMajor>::from_logical(&data[..5]).is_err());
}

#[test]
#[should_panic(expected = "index [2, 0] is out of bounds for dims [2, 3]")]
fn index_out_of_bounds_panics_with_index_and_dims() {
    let t = Tensor::<RowMajor>::zeros();
    let _ = t[[2, 0]];
}

#[test]
fn seed_legacy_padding_is_invisible() {
    type Padded = layout!(f32[2,3]{0,1}, padded = [3,5], padding = zero);
    let t = Tensor::<Padded>::from_logical(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    // 000_51cad06cf93ffc87.txt: `a d 0 b e 0 c f 0 0 0 0 0 0 0`.
    assert_eq!(
        t.as_slice(),
        &[
            1.0, 4.0, 0.0, 2.0, 5.0, 0.0, 3.0, 6.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
        ]
    );
    assert_eq!(t.iter().count(), 6);
}

#[test]
fn borrowed_views_check_the_physical_length() {
    type Tiled = layout!(f32[3,5]{1,0:T(2,2)});
    let mut words = vec![0.0f32; 24];
    let mut m = TensorMut::<Tiled>::from_slice_mut(&mut words).unwrap();
    m[[2, 3]] = 7.0;
    assert!(m.set([0, 1], 1.0));
    assert!(!m.set([3, 0], 1.0));
    assert_eq!(words[17], 7.0); // docs/tiled_layout.md: (2,3) lives at 17
    assert_eq!(words[1], 1.0);
    let r = TensorRef::<Tiled>::from_slice(&words).unwrap();
    assert_eq!(r.get([2, 3]), Some(7.0));
    let err = TensorRef::<Tiled>::from_slice(&words[..15]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "physical storage has 15 entries, but the layout needs 24"
    );
}

#[test]
fn packed_s4_is_lsb_first() {
    type S4 = layout!(s4[2,3]{1,0:E(4)});
    let mut t = Tensor::<S4>::zeros();
    assert_eq!(t.as_slice().len(), 3);
    let v = |x| I4::new(x).unwrap();
    for (i, x) in [1, -2, 3, -4, 5, -6].into_iter().enumerate() {
        assert!(t.set([i / 3, i % 3], v(x)));
    }
    // Element j of a byte occupies bits [4j, 4j+4): bytes (e1 e0), (e3 e2), (e5 e4).
    assert_eq!(t.as_slice(), &[0xE1, 0xC3, 0xA5]);
    assert_eq!(t.get([1, 2]), Some(v(-6)));
    let u2 = Tensor::<layout!(u2[5]{0:E(2)})>::from_logical(
        &[1, 2, 3, 0, 1].map(|x| U2::new(x).unwrap()),
    )
    .unwrap();
    assert_eq!(u2.as_slice(), &[0b00_11_10_01, 0b01]);
}

#[test]
fn metadata_prefix_comes_before_the_data() {
    type Prefixed = layout!(u8[4]{0:M(2)});
    let t = Tensor::<Prefixed>::from_logical(&[9, 8, 7, 6]).unwrap();
    assert_eq!(t.as_slice(), &[0, 0, 9, 8, 7, 6]);
}

#[test]
fn elementwise_kernels_skip_padding() {
    type Tiled = layout!(f32[3,5]{1,0:T(2,2)});
    let mut t = Tensor::<Tiled>::zeros();
    t.fill(1.0);
    assert_eq!(t.as_slice().iter().filter(|&&x| x == 1.0).count(), 15);
    t.map_inplace(|x| x * 3.0);
    let other = Tensor::<Tiled>::from_logical(&[1.0; 15]).unwrap();
    t.zip_with(&other, |a, b| a + b);
    assert!(t.iter().all(|x| x == 4.0));
    for (k, x) in t.iter_mut().enumerate() {
        *x = k as f32;
    }
    assert_eq!(t[[2, 3]], 13.0);
}

fn ramp(n: usize) -> Vec<f32> {
    (0..n).map(|k| k as f32).collect()
}

#[test]
fn relayout_round_trips() {
    type Rows = layout!(f32[64,256]{1,0});
    type Tiles = layout!(f32[64,256]{1,0:T(8,128)});
    type Cols = layout!(f32[64,256]{0,1});
    let data = ramp(64 * 256);
    let src = Tensor::<Rows>::from_logical(&data).unwrap();
    let mut tiled = Tensor::<Tiles>::zeros();
    tiled.copy_from(&src);
    assert_eq!(tiled.as_slice()[128], 128.0 * 0.0 + 256.0); // (1,0) is at offset 128
    assert_eq!(tiled.to_logical(), data);
    let mut cols = Tensor::<Cols>::zeros();
    cols.copy_from(&tiled);
    assert_eq!(cols.to_logical(), data);
    let mut back = Tensor::<Rows>::zeros();
    back.copy_from(&cols);
    assert_eq!(back.as_slice(), &data[..]);
}

#[test]
fn relayout_bf16_pairs_and_odd_shapes() {
    use half::bf16;
    type Rows = layout!(bf16[16,384]{1,0});
    type Tpu = layout!(bf16[16,384]{1,0:T(8,128)(2,1)});
    let data: Vec<bf16> = (0..16 * 384)
        .map(|k| bf16::from_f32((k % 251) as f32))
        .collect();
    let src = Tensor::<Rows>::from_logical(&data).unwrap();
    let mut tpu = Tensor::<Tpu>::zeros();
    tpu.copy_from(&src);
    assert_eq!(tpu.to_logical(), data);
    assert_eq!(tpu.as_slice()[1], data[384]); // (1,0) is packed next to (0,0)
    let mut back = Tensor::<Rows>::zeros();
    back.copy_from(&tpu);
    assert_eq!(back.as_slice(), &data[..]);

    type Odd = layout!(f32[5,7]{0,1:T(2,3)});
    type Combined = layout!(f32[2,3,7]{2,1,0:T(2,*,4)});
    type Rows3 = layout!(f32[2,3,7]);
    let data = ramp(42);
    let src = Tensor::<Rows3>::from_logical(&data).unwrap();
    let mut c = Tensor::<Combined>::zeros();
    c.copy_from(&src);
    assert_eq!(c.to_logical(), data);
    let odd = Tensor::<Odd>::from_logical(&data[..35]).unwrap();
    let mut rows = Tensor::<layout!(f32[5,7])>::zeros();
    rows.copy_from(&odd);
    assert_eq!(rows.as_slice(), &data[..35]);
}

#[test]
fn relayout_between_packed_and_unpacked() {
    type Packed = layout!(s4[4,4]{1,0:E(4)});
    type Unpacked = layout!(s4[4,4]{0,1});
    let data: Vec<I4> = (0..16).map(|k| I4::new(k % 16 - 8).unwrap()).collect();
    let src = Tensor::<Unpacked>::from_logical(&data).unwrap();
    let mut packed = Tensor::<Packed>::zeros();
    packed.copy_from(&src);
    assert_eq!(packed.as_slice().len(), 8);
    assert_eq!(packed.to_logical(), data);
}

#[test]
fn bitcast_reshape_keeps_every_offset() {
    type Rows6x2 = layout!(f32[6,2]{1,0});
    let t = Tensor::<layout!(f32[3,4]{1,0})>::from_logical(&ramp(12)).unwrap();
    let r = t.bitcast::<Rows6x2>();
    assert_eq!(r[[5, 1]], 11.0);
    // XLA's ReshapeIsBitcast test: f32[3,2,2]{1,0,2} -> f32[6,2]{0,1}.
    type Cols6x2 = layout!(f32[6,2]{0,1});
    let t = Tensor::<layout!(f32[3,2,2]{1,0,2})>::from_logical(&ramp(12)).unwrap();
    let r = t.bitcast::<Cols6x2>();
    assert_eq!(r.to_logical(), ramp(12));
}

#[test]
fn aligned_storage() {
    let t = Tensor::<layout!(u8[3])>::zeros();
    assert_eq!(t.as_slice().as_ptr() as usize % 64, 0);
    assert_eq!(<layout!(u8[3]) as StaticLayout>::STORAGE_WORDS, 3);
}

#[test]
fn large_relayouts_stream_and_stay_exact() {
    // 16 MiB each: past the size where tile rows are written with non-temporal stores.
    type Rows = layout!(f32[2048,2048]{1,0});
    type Tiles = layout!(f32[2048,2048]{1,0:T(8,128)});
    let data: Vec<f32> = (0..2048 * 2048).map(|k| k as f32).collect();
    let src = Tensor::<Rows>::from_storage(&data).unwrap();
    let mut tiled = Tensor::<Tiles>::zeros();
    tiled.copy_from(&src);
    // Tile (0,1) starts after tile (0,0): element (0,128) sits at slot 8*128.
    assert_eq!(tiled.as_slice()[1024], 128.0);
    assert_eq!(tiled.get([2047, 2047]), Some((2048 * 2048 - 1) as f32));
    let mut back = Tensor::<Rows>::zeros();
    back.copy_from(&tiled);
    assert!(back.as_slice() == &data[..]);
}

#[test]
fn large_pair_relayouts_stream_and_stay_exact() {
    use half::bf16;
    // 16 MiB each, with (2,1) pairs: the streamed zip and unzip kernels.
    type Rows = layout!(bf16[4096,2048]{1,0});
    type Tpu = layout!(bf16[4096,2048]{1,0:T(8,128)(2,1)});
    // Finite values only (every bit pattern below 0x7f80), so that == compares them all.
    let data: Vec<bf16> = (0..4096 * 2048)
        .map(|k| bf16::from_bits((k % 0x7f7f) as u16))
        .collect();
    let src = Tensor::<Rows>::from_storage(&data).unwrap();
    let mut tpu = Tensor::<Tpu>::zeros();
    tpu.copy_from(&src);
    // (1,0) is packed next to (0,0); (0,1) follows the pair.
    assert_eq!(&tpu.as_slice()[..3], &[data[0], data[2048], data[1]]);
    assert!(tpu.to_logical() == data);
    let mut back = Tensor::<Rows>::zeros();
    back.copy_from(&tpu);
    assert!(back.as_slice() == &data[..]);
}
