type T = xla_layout::layout!(f32[2,3]{1,0:S(1)T(2,128)});

fn main() {}
