type T = xla_layout::layout!(f32[2,3], padded = 3);

fn main() {}
