use xla_layout::layout;
use xla_layout::tensor::Tensor;
use xla_layout::typed::Rank;

fn corner<L: Rank<2>>(t: &Tensor<L>) -> Option<L::Elem> {
    t.get([0, 0])
}

fn main() {
    let t = Tensor::<layout!(f32[2,3,4])>::zeros();
    let _ = corner(&t);
}
