use xla_layout::layout;
use xla_layout::tensor::Tensor;
use xla_layout::typed::FirstTile;

fn tile_sums<L: FirstTile<8, 128>>(_: &Tensor<L>) {}

fn main() {
    let rows = Tensor::<layout!(f32[16,256]{1,0:T(2,128)})>::zeros();
    tile_sums(&rows);
}
