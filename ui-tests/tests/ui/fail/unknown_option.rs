type T = xla_layout::layout!(f32[2,3], tiles = [8,128]);

fn main() {}
