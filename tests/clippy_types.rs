//! `Tensor<layout!(..)>` in user code's signatures, fields and aliases: compiled by CI's
//! `cargo clippy --all-targets -- -D warnings`, so `clippy::type_complexity` must not fire on
//! the types `layout!` spells (they come from a macro expansion).

use xla_layout::layout;
use xla_layout::tensor::{Tensor, TensorRef};

/// A struct holding tensors of layout types, static and dynamic.
struct Activations {
    tpu: Tensor<layout!(bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)})>,
    batch: Tensor<layout!(bf16[?,1280]{1,0:T(8,128)(2,1)})>,
}

fn rows(t: TensorRef<'_, layout!(f32[<=4096,128]{1,0:T(8,128)})>) -> usize {
    t.dims()[0]
}

fn pair() -> (
    Tensor<layout!(s4[16,128]{1,0:T(8,128)(2,1)E(4)})>,
    Tensor<layout!(u8[?])>,
) {
    (
        Default::default(),
        Tensor::<layout!(u8[?])>::zeros([3]).unwrap(),
    )
}

#[test]
fn layout_types_in_signatures() {
    let a = Activations {
        tpu: Default::default(),
        batch: Tensor::<layout!(bf16[?,1280]{1,0:T(8,128)(2,1)})>::zeros([2, 1280]).unwrap(),
    };
    assert_eq!(a.batch.dims(), [2, 1280]);
    assert_eq!(a.tpu.sizes().size_bytes, 8 * 1280 * 16384 * 2);
    let t = Tensor::<layout!(f32[<=4096,128]{1,0:T(8,128)})>::zeros([9, 128]).unwrap();
    assert_eq!(rows(t.view()), 9);
    let (packed, bytes) = pair();
    assert_eq!(packed.as_slice().len(), 1024);
    assert_eq!(bytes.dims(), [3]);
}
