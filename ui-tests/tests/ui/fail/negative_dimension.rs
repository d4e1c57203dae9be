type T = xla_layout::layout!(f32[-1,3]);

fn main() {}
