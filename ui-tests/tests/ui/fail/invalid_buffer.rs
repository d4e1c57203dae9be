type T = xla_layout::layout!(b((f32[2], s32[])));

fn main() {}
