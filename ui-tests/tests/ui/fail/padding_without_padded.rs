type T = xla_layout::layout!(f32[2,3], padding = zero);

fn main() {}
