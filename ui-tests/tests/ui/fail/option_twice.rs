type T = xla_layout::layout!(f32[2,3], padded = [2,3], padded = [4,4]);

fn main() {}
