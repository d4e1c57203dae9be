use xla_layout::layout;
use xla_layout::tensor::Tensor;

type Rows = layout!(f32[2,3]);
type Transposed = layout!(f32[3,2]);

fn main() {
    let src = Tensor::<Rows>::zeros();
    let mut dst = Tensor::<Transposed>::zeros();
    dst.copy_from(&src);
}
