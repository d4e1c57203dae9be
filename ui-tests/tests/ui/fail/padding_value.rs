type T = xla_layout::layout!(f32[2,3], padded = [2,3], padding = nan);

fn main() {}
