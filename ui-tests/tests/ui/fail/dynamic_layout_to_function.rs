use xla_layout::layout;
use xla_layout::tensor::Tensor;

type Batch = layout!(bf16[?,1280]{1,0:T(8,128)(2,1)});
type Wide = layout!(bf16[?,2560]{1,0:T(8,128)(2,1)});

fn kernel(_: &Tensor<Batch>) {}

fn main() {
    let t = Tensor::<Wide>::zeros([8, 2560]).unwrap();
    kernel(&t);
}
