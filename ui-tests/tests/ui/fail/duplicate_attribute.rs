type T = xla_layout::layout!(f32[2,3]{1,0:T(8,128)T(2,1)});

fn main() {}
