type T = xla_layout::layout!(f32[2,3]{1,0:t(2,128)});

fn main() {}
