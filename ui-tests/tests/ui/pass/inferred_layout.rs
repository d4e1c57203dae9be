//! A tensor whose layout is only inferred from its annotation, and layouts named in generic
//! code by their first tile.

use xla_layout::layout;
use xla_layout::tensor::Tensor;
use xla_layout::typed::FirstTile;

type Rows = layout!(f32[16,256]);
type Tpu = layout!(bf16[16,256]{1,0:T(8,128)(2,1)});

/// Only layouts tiled `T(8,128)` first, whatever follows.
fn first_tile_rows<L: FirstTile<8, 128>>(t: &Tensor<L>) -> usize {
    t.dims()[0]
}

fn main() {
    // `Tensor::zeros()` is also the name of the dynamic layouts' constructor, so with the
    // layout only inferred it is ambiguous; `default()` and a named layout are not.
    let rows: Tensor<Rows> = Tensor::default();
    let tpu = Tensor::<Tpu>::zeros();
    assert_eq!(rows.dims(), [16, 256]);
    assert_eq!(first_tile_rows(&tpu), 16);
    let batch = Tensor::<layout!(bf16[?,1280]{1,0:T(8,128)(2,1)})>::zeros([3, 1280]).unwrap();
    assert_eq!(first_tile_rows(&batch), 3);
}
