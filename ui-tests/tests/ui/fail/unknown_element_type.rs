type T = xla_layout::layout!(F32[2,3]);

fn main() {}
