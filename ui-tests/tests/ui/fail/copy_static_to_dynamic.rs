use xla_layout::layout;
use xla_layout::tensor::Tensor;

fn main() {
    let src = Tensor::<layout!(f32[4,128])>::zeros();
    let mut dst = Tensor::<layout!(f32[?,128]{1,0:T(8,128)})>::zeros([4, 128]).unwrap();
    dst.copy_from(&src);
}
