use xla_layout::layout;
use xla_layout::tensor::Tensor;

fn main() {
    let _ = Tensor::<layout!(bf16[?,1280]{1,0:T(8,128)(2,1)})>::zeros();
}
