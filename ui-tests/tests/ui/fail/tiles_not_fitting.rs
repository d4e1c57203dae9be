use xla_layout::layout;
use xla_layout::typed::FitsTiles;
use xla_layout::typenum::{U8, U128};

fn tpu_kernel<L: FitsTiles<U8, U128>>() {}

fn main() {
    tpu_kernel::<layout!(f32[12,256]{1,0:T(8,128)})>();
}
