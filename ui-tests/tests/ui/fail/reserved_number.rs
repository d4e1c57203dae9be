type T = xla_layout::layout!(u8[4294967295]);

fn main() {}
