use xla_layout::layout;
use xla_layout::typed::Matrix;

fn matmul<A: Matrix, B: Matrix<Rows = A::Cols>>() {}

fn main() {
    matmul::<layout!(f32[16,256]), layout!(f32[128,4])>();
}
