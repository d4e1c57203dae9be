use xla_layout::layout;
use xla_layout::tensor::Tensor;

fn main() {
    let src = Tensor::<layout!(bf16[16,256])>::zeros();
    let mut dst = Tensor::<layout!(f32[16,256]{1,0:T(8,128)})>::zeros();
    dst.copy_from(&src);
}
