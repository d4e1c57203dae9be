type T = xla_layout::layout!(f32[10,10]{1,0:P(f32[10,10]{1,0})});

fn main() {}
