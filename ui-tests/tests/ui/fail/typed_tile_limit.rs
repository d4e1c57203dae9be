type T = xla_layout::layout!(f32[1024]{0:T(512)(256)(128)(64)(32)(16)(8)(4)(2)});

fn main() {}
