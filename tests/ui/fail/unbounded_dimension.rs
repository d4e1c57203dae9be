type T = xla_layout::layout!(f32[?,784]);

fn main() {}
