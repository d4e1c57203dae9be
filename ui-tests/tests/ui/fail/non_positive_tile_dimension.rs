type T = xla_layout::layout!(f32[2,3]{1,0:T(0,128)});

fn main() {}
