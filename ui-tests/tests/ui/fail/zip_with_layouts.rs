use xla_layout::layout;
use xla_layout::tensor::Tensor;

fn main() {
    let mut a = Tensor::<layout!(f32[2,2]{0,1})>::zeros();
    let b = Tensor::<layout!(f32[2,2]{1,0})>::zeros();
    a.zip_with(&b, |x, y| x + y);
}
