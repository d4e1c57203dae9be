type T = xla_layout::layout!(, padded = [2]);

fn main() {}
