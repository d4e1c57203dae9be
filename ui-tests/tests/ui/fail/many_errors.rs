type T = xla_layout::layout!(f32[2,3]{0,0:T(0)(2,*)L(0)E(-1)S(300)});

fn main() {}
