type T = xla_layout::layout!(f32[2,?]{1,0:T(*,128)});

fn main() {}
