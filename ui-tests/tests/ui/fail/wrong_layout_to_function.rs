use xla_layout::layout;
use xla_layout::tensor::Tensor;

type Tpu = layout!(bf16[16,256]{1,0:T(8,128)(2,1)});
type Rows = layout!(bf16[16,256]);

fn kernel(_: &Tensor<Tpu>) {}

fn main() {
    let t = Tensor::<Rows>::zeros();
    kernel(&t);
}
