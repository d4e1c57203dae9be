use xla_layout::layout;
use xla_layout::tensor::Tensor;

type Bounded = layout!(f32[<=4096,128]{1,0:T(8,128)});
type Unbounded = layout!(f32[?,128]{1,0:T(8,128)});

fn kernel(_: &Tensor<Bounded>) {}

fn main() {
    let t = Tensor::<Unbounded>::zeros([8, 128]).unwrap();
    kernel(&t);
}
