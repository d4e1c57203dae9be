//! Interop of typed tensors with ndarray (views and copies) and bytemuck (storage as bytes).
//! The root package's dev-dependency on `xla-layout-core` turns both features on, so
//! `cargo test --workspace` runs these. Expected strides and bytes follow from the layouts'
//! offsets (`Plan::offset_expr`), expected values from logical data.

use half::bf16;
use ndarray::{Array2, Array3, ArrayView, Ix2, IxDyn, ShapeBuilder, array};
use num_complex::Complex32;
use xla_layout::tensor::{BytesError, NdarrayError, Tensor, TensorMut, TensorRef};
use xla_layout::typed::{F8e4m3, I4, U4};
use xla_layout::{Layout, StaticLayout, layout};

type RowMajor = layout!(f32[2,3]{1,0});
type ColMajor = layout!(f32[2,3]{0,1});

fn ramp(n: usize) -> Vec<f32> {
    (0..n).map(|k| k as f32).collect()
}

#[test]
fn views_have_the_layouts_strides() {
    let a = array![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
    let row = Tensor::<RowMajor>::from_array_view(a.view()).unwrap();
    let v = row.as_array_view().unwrap();
    assert_eq!((v.shape(), v.strides()), (&[2, 3][..], &[3, 1][..]));
    assert_eq!(v.into_dimensionality::<Ix2>().unwrap(), a);

    let col = Tensor::<ColMajor>::from_array_view(a.view()).unwrap();
    assert_eq!(col.as_slice(), &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
    let v = col.as_array_view().unwrap();
    assert_eq!(v.strides(), &[1, 2]);
    assert_eq!(v, a.view().into_dyn());

    // A rank-3 permutation: dim 2 is the most minor, then dim 0, then dim 1.
    type Perm = layout!(f32[2,3,4]{2,0,1});
    let data = Array3::from_shape_vec((2, 3, 4), ramp(24)).unwrap();
    let t = Tensor::<Perm>::from_array_view(data.view()).unwrap();
    let v = t.as_array_view().unwrap();
    assert_eq!(v.strides(), &[4, 8, 1]);
    assert_eq!(v, data.view().into_dyn());
    for (index, x) in t.iter_physical() {
        assert_eq!(v[&index[..]], x);
    }
}

#[test]
fn padded_layouts_are_strided_views() {
    // 000_51cad06cf93ffc87.txt: `a d 0 b e 0 c f 0 0 0 0 0 0 0`.
    type Padded = layout!(f32[2,3]{0,1}, padded = [3,5], padding = zero);
    let t = Tensor::<Padded>::from_logical(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    let v = t.as_array_view().unwrap();
    assert_eq!(v.strides(), &[1, 3]);
    assert_eq!(v, array![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]].into_dyn());

    // A tile that splits no dimension only pads: rows 128 slots apart.
    type Wide = layout!(f32[2,3]{1,0:T(8,128)});
    let mut t = Tensor::<Wide>::from_logical(&ramp(6)).unwrap();
    assert_eq!(t.as_array_view().unwrap().strides(), &[128, 1]);
    t.as_array_view_mut().unwrap()[[1, 2]] = 50.0;
    assert_eq!(t.as_slice()[128 + 2], 50.0);

    // `L(8)` tail padding leaves the strides alone.
    type Tail = layout!(f32[3]{0:L(8)});
    let t = Tensor::<Tail>::from_logical(&[1.0, 2.0, 3.0]).unwrap();
    assert_eq!(t.as_slice().len(), 8);
    assert_eq!(
        t.as_array_view().unwrap(),
        array![1.0f32, 2.0, 3.0].into_dyn()
    );

    // A scalar and an empty array.
    let s = Tensor::<layout!(f32[])>::from_logical(&[7.0]).unwrap();
    assert_eq!(s.as_array_view().unwrap().first(), Some(&7.0));
    let e = Tensor::<layout!(f32[0,3]{0,1})>::zeros();
    assert_eq!(e.as_array_view().unwrap().shape(), &[0, 3]);
}

#[test]
fn mutable_views_write_through() {
    let mut words = vec![0.0f32; 6];
    let mut m = TensorMut::<ColMajor>::from_slice_mut(&mut words).unwrap();
    let mut v = m
        .as_array_view_mut()
        .unwrap()
        .into_dimensionality::<Ix2>()
        .unwrap();
    v.row_mut(1).fill(2.0);
    v[[0, 2]] = 9.0;
    assert_eq!(m.to_logical(), [0.0, 0.0, 9.0, 2.0, 2.0, 2.0]);
    assert_eq!(words, [0.0, 2.0, 0.0, 2.0, 9.0, 2.0]);
}

#[test]
fn tiled_and_packed_layouts_are_refused_with_the_reason() {
    type Tpu = layout!(bf16[16,256]{1,0:T(8,128)(2,1)});
    let t = Tensor::<Tpu>::zeros();
    let err = t.as_array_view().unwrap_err();
    assert_eq!(
        err,
        NdarrayError::Tiled {
            layout: Tpu::CANONICAL,
            offset: "(i0>>3)*2048 + (i1>>7)*1024 + ((i0&7)>>1)*256 + (i1&127)*2 + (i0&1)"
                .to_string(),
        }
    );
    assert_eq!(
        err.to_string(),
        "`bf16[16,256]{1,0:T(8,128)(2,1)}` is tiled: its offset `(i0>>3)*2048 + (i1>>7)*1024 + \
         ((i0&7)>>1)*256 + (i1&127)*2 + (i0&1)` divides the index, so no strides describe it; \
         copy it to an untiled layout with `copy_from`, or to an ndarray array with `to_array`"
    );

    type Prefixed = layout!(u8[4]{0:M(2)});
    let mut t = Tensor::<Prefixed>::from_logical(&[9, 8, 7, 6]).unwrap();
    assert_eq!(
        t.as_array_view_mut().unwrap_err(),
        NdarrayError::Packed {
            layout: "u8[4]{0:M(2)}"
        }
    );
    assert!(
        t.as_array_view()
            .unwrap_err()
            .to_string()
            .starts_with("`u8[4]{0:M(2)}` packs its elements as bits in bytes")
    );
}

#[test]
fn copies_work_for_every_layout() {
    type Tpu = layout!(bf16[16,256]{1,0:T(8,128)(2,1)});
    let data = Array2::from_shape_fn((16, 256), |(i, j)| bf16::from_f32((i * 256 + j) as f32));
    // From a column-major ndarray array: any strides.
    let mut fortran = Array2::from_elem((16, 256).f(), bf16::ZERO);
    fortran.assign(&data);
    let t = Tensor::<Tpu>::from_array_view(fortran.view()).unwrap();
    assert_eq!(t.as_slice()[1], data[[1, 0]]); // (1,0) is packed next to (0,0)
    assert_eq!(t.to_array(), data.clone().into_dyn());
    assert!(t.to_array().is_standard_layout());

    // A transposed view (negative-free, non-contiguous strides) into a column-major layout.
    let rows = Array2::from_shape_vec((3, 2), ramp(6)).unwrap();
    let col = Tensor::<ColMajor>::from_array_view(rows.t()).unwrap();
    assert_eq!(col.to_logical(), [0.0, 2.0, 4.0, 1.0, 3.0, 5.0]);
    assert_eq!(col.as_slice(), &ramp(6)[..]);

    // Packed sub-byte elements.
    type S4 = layout!(s4[2,3]{1,0:E(4)});
    let v = |x| I4::new(x).unwrap();
    let a = array![[v(1), v(-2), v(3)], [v(-4), v(5), v(-6)]];
    let t = Tensor::<S4>::from_array_view(a.view()).unwrap();
    assert_eq!(t.as_slice(), &[0xE1, 0xC3, 0xA5]);
    assert_eq!(t.to_array(), a.into_dyn());

    let wrong = ArrayView::from_shape(IxDyn(&[3, 2]), &[0.0f32; 6][..]).unwrap();
    let err = Tensor::<RowMajor>::from_array_view(wrong).unwrap_err();
    assert_eq!(
        err.to_string(),
        "an array of shape [3, 2] does not fit `f32[2,3]{1,0}`, whose dims are [2, 3]"
    );
}

#[test]
fn storage_as_bytes_round_trips() {
    type Tpu = layout!(bf16[16,256]{1,0:T(8,128)(2,1)});
    let data: Vec<bf16> = (0..16 * 256).map(|k| bf16::from_f32(k as f32)).collect();
    let t = Tensor::<Tpu>::from_logical(&data).unwrap();
    let bytes = t.as_bytes();
    assert_eq!(bytes.len(), Tpu::SIZE_BYTES);
    // Slot 1 holds (1,0), element 256.
    assert_eq!(&bytes[2..4], &bf16::from_f32(256.0).to_ne_bytes());

    // A copy from bytes at an odd address; a zero-copy view needs alignment.
    let mut backing = vec![0u16; bytes.len() / 2 + 1];
    let raw: &mut [u8] = bytemuck::cast_slice_mut(&mut backing);
    raw[1..=bytes.len()].copy_from_slice(bytes);
    let odd = &mut raw[1..=bytes.len()];
    let copy = Tensor::<Tpu>::from_bytes(odd).unwrap();
    assert_eq!(copy.to_logical(), data);
    assert_eq!(
        TensorRef::<Tpu>::from_bytes(odd).unwrap_err(),
        BytesError::Misaligned { align: 2 }
    );
    assert_eq!(
        TensorMut::<Tpu>::from_bytes_mut(odd).unwrap_err(),
        BytesError::Misaligned { align: 2 }
    );
    let aligned = TensorRef::<Tpu>::from_bytes(bytes).unwrap();
    assert_eq!(aligned.get([15, 255]), Some(data[16 * 256 - 1]));

    let err = Tensor::<Tpu>::from_bytes(&bytes[1..]).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "bytes has {} entries, but the layout needs {}",
            bytes.len() - 1,
            bytes.len()
        )
    );
}

#[test]
fn mutable_bytes_write_through() {
    let mut t = Tensor::<ColMajor>::zeros();
    t.as_bytes_mut()[4..8].copy_from_slice(&7.0f32.to_ne_bytes());
    assert_eq!(t[[1, 0]], 7.0);

    let mut backing = ramp(6);
    let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut backing);
    let mut m = TensorMut::<ColMajor>::from_bytes_mut(bytes).unwrap();
    m[[0, 1]] = 10.0;
    assert_eq!(backing[2], 10.0); // (0,1) is slot 2 of a column-major [2,3]
}

#[test]
fn checked_words_refuse_values_the_type_cannot_hold() {
    // `pred`: one bool per byte; only 0 and 1 are values.
    type Mask = layout!(pred[4]);
    let t = Tensor::<Mask>::from_bytes(&[1, 0, 0, 1]).unwrap();
    assert_eq!(t.to_logical(), [true, false, false, true]);
    assert_eq!(t.as_bytes(), &[1, 0, 0, 1]);
    assert_eq!(
        Tensor::<Mask>::from_bytes(&[1, 0, 2, 1]).unwrap_err(),
        BytesError::InvalidWord { word: 2 }
    );
    assert_eq!(
        TensorRef::<Mask>::from_bytes(&[1, 0, 0, 7]).unwrap_err(),
        BytesError::InvalidWord { word: 3 }
    );

    // `s4` without `E(4)`: one value per byte, -8..=7.
    type Wide4 = layout!(s4[3]);
    const { assert!(!Wide4::PACKED) };
    let t = Tensor::<Wide4>::from_bytes(&[0xfd, 7, 0xf8]).unwrap();
    assert_eq!(t.to_logical(), [-3, 7, -8].map(|x| I4::new(x).unwrap()));
    assert_eq!(
        Tensor::<Wide4>::from_bytes(&[0, 8, 0]).unwrap_err(),
        BytesError::InvalidWord { word: 1 }
    );
    let mut raw = [1u8, 2, 0x10];
    assert_eq!(
        TensorMut::<layout!(u4[3])>::from_bytes_mut(&mut raw).unwrap_err(),
        BytesError::InvalidWord { word: 2 }
    );
    raw[2] = 15;
    let m = TensorMut::<layout!(u4[3])>::from_bytes_mut(&mut raw).unwrap();
    assert_eq!(m[[2]], U4::new(15).unwrap());

    // Packed layouts store bytes: every pattern is valid.
    type Packed4 = layout!(s4[2,3]{1,0:E(4)});
    let t = Tensor::<Packed4>::from_bytes(&[0xE1, 0xC3, 0xA5]).unwrap();
    assert_eq!(t.get([1, 2]), I4::new(-6));
}

#[test]
fn pod_element_types_of_other_crates() {
    type C = layout!(c64[2]);
    let t =
        Tensor::<C>::from_logical(&[Complex32::new(1.0, 2.0), Complex32::new(3.0, 4.0)]).unwrap();
    let expected: Vec<u8> = [1.0f32, 2.0, 3.0, 4.0]
        .iter()
        .flat_map(|x| x.to_ne_bytes())
        .collect();
    assert_eq!(t.as_bytes(), &expected[..]);

    type E4 = layout!(f8e4m3fn[2]);
    let t = Tensor::<E4>::from_bytes(&[0x38, 0xc0]).unwrap();
    let values: Vec<f32> = t.iter().map(|x| x.to_f32()).collect();
    assert_eq!(values, [1.0, -2.0]);

    type Own = layout!(f8e4m3[2]);
    let mut t = Tensor::<Own>::zeros();
    t.as_bytes_mut().copy_from_slice(&[0xff, 0x80]);
    assert_eq!(
        t.to_logical(),
        [F8e4m3::from_bits(0xff), F8e4m3::from_bits(0x80)]
    );
}
