use xla_layout::layout;
use xla_layout::tensor::Tensor;

fn main() {
    let t = Tensor::<layout!(f32[?,4])>::zeros([2, 4]).unwrap();
    let _ = t.bitcast::<layout!(f32[?])>();
}
