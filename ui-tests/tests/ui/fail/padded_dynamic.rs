type T = xla_layout::layout!(f32[?,4], padded = [8,4]);

fn main() {}
