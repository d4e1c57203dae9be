type T = xla_layout::layout!((f32[2], opaque[], token[]));

fn main() {}
