type T = xla_layout::layout!(f32[<=?]);

fn main() {}
