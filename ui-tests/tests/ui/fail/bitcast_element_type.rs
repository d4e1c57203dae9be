use xla_layout::layout;
use xla_layout::tensor::Tensor;

fn main() {
    let t = Tensor::<layout!(f32[2,3])>::zeros();
    let _ = t.bitcast::<layout!(s32[2,3])>();
}
