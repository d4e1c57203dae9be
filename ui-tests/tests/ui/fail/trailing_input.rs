type T = xla_layout::layout!(f32[2] s32[3]);

fn main() {}
