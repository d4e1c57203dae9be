type T = xla_layout::layout!(f32[2,3]{0,2});

fn main() {}
