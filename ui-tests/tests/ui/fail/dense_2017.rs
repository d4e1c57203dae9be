type T = xla_layout::layout!(f32[2,3] dense {1,0});

fn main() {}
