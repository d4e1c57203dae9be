//! Layout types written straight into signatures and struct fields, as a kernel library would:
//! `clippy::type_complexity` stays quiet on them (CI runs clippy on the examples with
//! `-D warnings`), and the functions below only compile for their exact layouts.
//!
//! Run with `cargo run --example typed_signatures`.

use xla_layout::layout;
use xla_layout::tensor::Tensor;
use xla_layout::typed::StaticLayout;

/// Activations in the TPU layout, two tile levels.
fn first_row_sum(t: &Tensor<layout!(bf16[16,256]{1,0:T(8,128)(2,1)})>) -> f32 {
    (0..256).map(|j| t[[0, j]].to_f32()).sum()
}

/// Three tile levels, a memory space and a tail alignment.
fn slots(_: &Tensor<layout!(bf16[2048]{0:T(1024)(128)(2,1)L(4096)S(1)})>) -> usize {
    <layout!(bf16[2048]{0:T(1024)(128)(2,1)L(4096)S(1)})>::PHYSICAL_ELEMENTS
}

/// Packed 4-bit weights and their scales, held together.
struct QuantizedWeights {
    values: Tensor<layout!(s4[256,512]{1,0:T(64,128)(8,1)E(4)})>,
    scales: Tensor<layout!(f32[256]{0:T(256)})>,
}

/// A layout with a `*` merge, a tile of higher rank than the array, and legacy padding.
fn odd_layouts(
    merged: &mut Tensor<layout!(f32[2,3,128]{2,1,0:T(2,*,128)})>,
    spread: &Tensor<layout!(u8[5]{0:T(2,1)})>,
    padded: &Tensor<layout!(f32[2,3]{0,1}, padded = [3,5], padding = zero)>,
) -> usize {
    merged[[1, 2, 127]] = 1.0;
    spread.as_slice().len() + padded.as_slice().len()
}

/// A batch of activations whose rows are known at run time, two tile levels.
fn batch_rows(t: &Tensor<layout!(bf16[?,1280]{1,0:T(8,128)(2,1)})>) -> usize {
    t.dims()[0]
}

/// A bounded batch, a dynamic minor dimension, packed 4-bit rows and a rank-6 layout with a
/// dynamic and a bounded dimension, held together.
struct DynamicBatch {
    weights: Tensor<layout!(s4[?,512]{1,0:T(64,128)(8,1)E(4)})>,
    bounded: Tensor<layout!(f32[<=4096,128]{1,0:T(8,128)})>,
    columns: Tensor<layout!(f32[16,?]{1,0:T(8,128)S(1)})>,
    deep: Tensor<layout!(f32[2,?,3,<=8,4,5]{5,4,3,2,1,0:T(4,8)(2,1)(1,2)L(16)})>,
}

/// Layouts at the limits of `layout!` types: rank 16 in an order that keeps every dimension
/// apart in memory (a bitcast signature past 32 entries), 8 tiles, a tile of 8 dims, split
/// configs, one of them with 20 indices.
fn at_the_limits(
    rank16: &Tensor<
        layout!(f32[2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2]{0,2,4,6,8,10,12,14,1,3,5,7,9,11,13,15}),
    >,
    tiles8: &Tensor<layout!(f32[64,64]{1,0:T(32,32)(16,16)(8,8)(4,4)(2,2)(2,1)(1,1)(1)})>,
    wide_tile: &Tensor<layout!(f32[2,2,2,2,2,2,2,4]{7,6,5,4,3,2,1,0:T(1,1,1,1,2,2,2,4)})>,
    split: &Tensor<layout!(f32[1024,256]{1,0:T(8,128)SC(0:256,512,768)(1:128)})>,
    long_split: &Tensor<
        layout!(f32[1024,256]{1,0:T(8,128)SC(0:8,16,24,32,40,48,56,64,72,80,88,96,104,112,120,128,136,144,152,160)(1:16,32,48)}),
    >,
) -> usize {
    rank16.as_slice().len()
        + tiles8.as_slice().len()
        + wide_tile.as_slice().len()
        + split.as_slice().len()
        + long_split.as_slice().len()
}

/// The same limits held in a struct, with legacy padding of 10 dims.
struct AtTheLimits {
    rank16: Tensor<
        layout!(f32[2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2]{0,2,4,6,8,10,12,14,1,3,5,7,9,11,13,15}),
    >,
    tiles8: Tensor<layout!(f32[64,64]{1,0:T(32,32)(16,16)(8,8)(4,4)(2,2)(2,1)(1,1)(1)})>,
    wide_tile: Tensor<layout!(f32[2,2,2,2,2,2,2,4]{7,6,5,4,3,2,1,0:T(1,1,1,1,2,2,2,4)})>,
    split: Tensor<layout!(f32[1024,256]{1,0:T(8,128)SC(0:256,512,768)(1:128)})>,
    long_split: Tensor<
        layout!(f32[1024,256]{1,0:T(8,128)SC(0:8,16,24,32,40,48,56,64,72,80,88,96,104,112,120,128,136,144,152,160)(1:16,32,48)}),
    >,
    padded: Tensor<
        layout!(u8[1,1,1,1,1,1,1,1,1,2]{9,8,7,6,5,4,3,2,1,0}, padded = [1,1,1,1,1,1,1,1,2,3], padding = zero),
    >,
}

/// Dynamic layouts at the limits: rank 16 with `?` and `<=N`, packed 4-bit rows of rank 12.
fn dynamic_limits(
    rank16: &Tensor<
        layout!(f32[?,2,2,2,2,2,2,2,2,2,2,2,2,2,<=4,2]{15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0:T(2,2)}),
    >,
    packed: &Tensor<
        layout!(s4[?,2,2,2,2,2,2,2,2,2,2,128]{11,10,9,8,7,6,5,4,3,2,1,0:T(2,128)(8,1)E(4)}),
    >,
) -> usize {
    rank16.dims()[0] + packed.dims()[0]
}

/// The dynamic limits held in a struct.
struct DynamicLimits {
    rank16: Tensor<
        layout!(f32[?,2,2,2,2,2,2,2,2,2,2,2,2,2,<=4,2]{15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0:T(2,2)}),
    >,
    packed:
        Tensor<layout!(s4[?,2,2,2,2,2,2,2,2,2,2,128]{11,10,9,8,7,6,5,4,3,2,1,0:T(2,128)(8,1)E(4)})>,
}

/// Builds one tensor of each layout and calls every function.
pub fn main() {
    let tpu = Tensor::<layout!(bf16[16,256]{1,0:T(8,128)(2,1)})>::from_fn(|[i, j]| {
        xla_layout::half::bf16::from_f32((i + j) as f32)
    });
    assert_eq!(first_row_sum(&tpu), (0..256).sum::<usize>() as f32);
    assert_eq!(slots(&Tensor::default()), 4096);
    let weights = QuantizedWeights {
        values: Tensor::default(),
        scales: Tensor::<layout!(f32[256]{0:T(256)})>::from_fn(|[i]| i as f32),
    };
    assert_eq!(weights.values.as_slice().len(), 256 * 512 / 2);
    assert_eq!(weights.scales[[3]], 3.0);
    let mut merged = Tensor::default();
    let n = odd_layouts(&mut merged, &Tensor::default(), &Tensor::default());
    assert_eq!(n, 10 + 15);
    assert_eq!(merged[[1, 2, 127]], 1.0);
    let batch = Tensor::<layout!(bf16[?,1280]{1,0:T(8,128)(2,1)})>::zeros([24, 1280]).unwrap();
    assert_eq!(batch_rows(&batch), 24);
    let dynamic = DynamicBatch {
        weights: Tensor::<layout!(s4[?,512]{1,0:T(64,128)(8,1)E(4)})>::zeros([64, 512]).unwrap(),
        bounded: Tensor::<layout!(f32[<=4096,128]{1,0:T(8,128)})>::zeros([10, 128]).unwrap(),
        columns: Tensor::<layout!(f32[16,?]{1,0:T(8,128)S(1)})>::zeros([16, 300]).unwrap(),
        deep: Tensor::<layout!(f32[2,?,3,<=8,4,5]{5,4,3,2,1,0:T(4,8)(2,1)(1,2)L(16)})>::zeros([
            2, 7, 3, 8, 4, 5,
        ])
        .unwrap(),
    };
    assert_eq!(dynamic.weights.as_slice().len(), 64 * 512 / 2);
    assert_eq!(dynamic.bounded.dims(), [10, 128]);
    assert_eq!(dynamic.columns.extents().strides(), &[3 * 1024]);
    assert_eq!(dynamic.deep.dims()[1], 7);
    let limits = AtTheLimits {
        rank16: Tensor::default(),
        tiles8: Tensor::default(),
        wide_tile: Tensor::default(),
        split: Tensor::default(),
        long_split: Tensor::default(),
        padded: Tensor::default(),
    };
    let n = at_the_limits(
        &limits.rank16,
        &limits.tiles8,
        &limits.wide_tile,
        &limits.split,
        &limits.long_split,
    );
    assert_eq!(n, (1 << 16) + 64 * 64 + (1 << 7) * 4 + 2 * 1024 * 256);
    assert_eq!(limits.padded.as_slice().len(), 2 * 3);
    let mut dims = [2; 16];
    dims[0] = 3;
    let dynamic = DynamicLimits {
        rank16: Tensor::<layout!(f32[?,2,2,2,2,2,2,2,2,2,2,2,2,2,<=4,2]{15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0:T(2,2)})>::zeros(dims).unwrap(),
        packed: Tensor::<layout!(s4[?,2,2,2,2,2,2,2,2,2,2,128]{11,10,9,8,7,6,5,4,3,2,1,0:T(2,128)(8,1)E(4)})>::zeros([5, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 128])
            .unwrap(),
    };
    assert_eq!(dynamic_limits(&dynamic.rank16, &dynamic.packed), 3 + 5);
    println!("typed signatures: ok");
}
