use xla_layout::layout;
use xla_layout::tensor::Tensor;

type Rows = layout!(f32[2,3]{1,0});
type Cols = layout!(f32[2,3]{0,1});

fn main() {
    let t = Tensor::<Rows>::zeros();
    let _ = t.bitcast::<Cols>();
}
