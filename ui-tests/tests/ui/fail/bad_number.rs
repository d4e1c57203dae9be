type T = xla_layout::layout!(f32[4.0]);

fn main() {}
