//! Generic kernels over layout types.
//!
//! 1. A tiled matmul that accepts any layouts whose dims divide into 8x128 tiles (TPU's
//!    `T(8,128)` tile) and whose shapes agree, stated in its signature with type-level dims
//!    (`typenum`): a call with rows that are not a multiple of 8, or mismatched inner
//!    dimensions, does not compile, with a message naming the layout.
//! 2. A reduction over memory one tile at a time, for layouts whose first tile is `T(8,128)`
//!    (`FirstTile<8, 128>`) and whose dims fill whole tiles: each 1024 consecutive storage
//!    slots are then one tile.
//! 3. A dynamic batch of a real TPU activation layout, `bf16[?,1280]{1,0:T(8,128)(2,1)}`, end
//!    to end: row-major input of a batch size known only at run time, relayout into the TPU
//!    layout, a generic rank-2 kernel over it, and back.
//!
//! Run with `cargo run --example generic_kernels`.

use xla_layout::half::bf16;
use xla_layout::layout;
use xla_layout::tensor::Tensor;
use xla_layout::typed::{FirstTile, FitsTiles, Layout, Matrix, Rank};
use xla_layout::typenum::{U8, U128, Unsigned};

/// `c = a · b`, one 8x128 block of `a` at a time. The signature says what the layouts must
/// be: `a` fits 8x128 tiles, `b` has as many rows as `a` has columns, and `c` is `a`'s rows by
/// `b`'s columns; any `minor_to_major` and tiling of each is accepted.
fn tiled_matmul<A, B, C>(a: &Tensor<A>, b: &Tensor<B>, c: &mut Tensor<C>)
where
    A: FitsTiles<U8, U128> + Matrix<Elem = f32, Word = f32>,
    B: Matrix<Rows = A::Cols, Elem = f32, Word = f32>,
    C: Matrix<Rows = A::Rows, Cols = B::Cols, Elem = f32, Word = f32>,
{
    let (m, k, n) = (A::Rows::USIZE, A::Cols::USIZE, B::Cols::USIZE);
    c.fill(0.0);
    for i0 in (0..m).step_by(8) {
        for k0 in (0..k).step_by(128) {
            // One tile of `a`: no bounds to clip, the signature guarantees whole tiles.
            for i in i0..i0 + 8 {
                for j in 0..n {
                    let mut acc = c[[i, j]];
                    for kk in k0..k0 + 128 {
                        acc += a[[i, kk]] * b[[kk, j]];
                    }
                    c[[i, j]] = acc;
                }
            }
        }
    }
}

/// The sum of each 8x128 tile, in memory order: the first tile of `L` is `T(8,128)` and its
/// dims are whole tiles, so the storage is a sequence of tiles of 1024 slots, none of them
/// padding.
fn tile_sums<L>(t: &Tensor<L>) -> Vec<f32>
where
    L: FirstTile<8, 128> + FitsTiles<U8, U128> + Matrix<Elem = f32, Word = f32>,
{
    t.as_slice()
        .chunks(8 * 128)
        .map(|tile| tile.iter().sum())
        .collect()
}

/// The sum of each row of any rank-2 bf16 tensor, in f32: a kernel generic over the layout,
/// static or dynamic.
fn row_sums<L: Rank<2, Elem = bf16>>(t: &Tensor<L>) -> Vec<f32> {
    let [rows, cols] = t.dims();
    (0..rows)
        .map(|i| (0..cols).map(|j| t.get([i, j]).unwrap().to_f32()).sum())
        .collect()
}

/// The TPU activation layout with a dynamic batch.
type Activation = layout!(bf16[?,1280]{1,0:T(8,128)(2,1)});

/// Runs both kernels and checks their results.
pub fn main() {
    // 1. Generic tiled matmul over three different layouts of compatible shapes.
    type A = layout!(f32[16,256]{1,0:T(8,128)});
    type B = layout!(f32[256,4]{0,1});
    type C = layout!(f32[16,4]);
    let a = Tensor::<A>::from_fn(|[i, k]| ((i + 2 * k) % 7) as f32);
    let b = Tensor::<B>::from_fn(|[k, j]| ((3 * k + j) % 5) as f32);
    let mut c = Tensor::<C>::zeros();
    tiled_matmul(&a, &b, &mut c);
    for i in 0..16 {
        for j in 0..4 {
            let expected: f32 = (0..256).map(|k| a[[i, k]] * b[[k, j]]).sum();
            assert_eq!(c[[i, j]], expected);
        }
    }
    println!("tiled_matmul: {c:?}");

    // 2. Tile by tile: `a` is 2x2 tiles of 8x128, tile (1, 0) holds rows 8..16, columns 0..128.
    let sums = tile_sums(&a);
    assert_eq!(sums.len(), 4);
    let tile_10: f32 = (8..16)
        .flat_map(|i| (0..128).map(move |k| (i, k)))
        .map(|(i, k)| a[[i, k]])
        .sum();
    assert_eq!(sums[2], tile_10);
    println!("tile_sums: {sums:?}");

    // 3. A dynamic batch of TPU activations, end to end.
    let batch = 3; // known only at run time
    let input: Vec<bf16> = (0..batch * 1280)
        .map(|x| bf16::from_f32((x % 61) as f32))
        .collect();
    let rows = Tensor::<layout!(bf16[?,1280])>::from_logical([batch, 1280], &input).unwrap();
    let mut tpu = Tensor::<Activation>::zeros([batch, 1280]).unwrap();
    tpu.copy_from(&rows);
    assert_eq!(tpu.as_slice()[1], input[1280]); // (2,1): row 1 sits beside row 0
    assert_eq!(tpu.sizes().size_bytes, 8 * 1280 * 2); // the batch pads to the 8-row tile
    assert_eq!(Activation::size_bytes([batch, 1280]).unwrap(), 8 * 1280 * 2);
    assert_eq!(row_sums(&tpu), row_sums(&rows));
    let mut back = Tensor::<layout!(bf16[?,1280])>::zeros([batch, 1280]).unwrap();
    back.copy_from(&tpu);
    assert_eq!(back, rows);
    assert!(Tensor::<Activation>::zeros([batch, 1024]).is_err()); // 1280 is static
    println!("dynamic batch of {batch}: {tpu:?}");
}
