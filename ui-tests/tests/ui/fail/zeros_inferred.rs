use xla_layout::layout;
use xla_layout::tensor::Tensor;

type Rows = layout!(f32[16,256]);

fn main() {
    let _: Tensor<Rows> = Tensor::zeros();
}
