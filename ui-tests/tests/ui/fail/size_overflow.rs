type T = xla_layout::layout!(f32[9223372036854775807]);

fn main() {}
