type T = xla_layout::layout!(token[2]);

fn main() {}
