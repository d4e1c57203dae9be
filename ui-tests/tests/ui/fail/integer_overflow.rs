type T = xla_layout::layout!(f32[2,3]{1,0:S(99999999999999999999)});

fn main() {}
