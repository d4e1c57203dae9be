type T = xla_layout::layout!(f32[2,3]{1,1}, padding = one);

fn main() {}
