type T = xla_layout::layout!(f32[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]);

fn main() {}
