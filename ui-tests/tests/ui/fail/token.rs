type T = xla_layout::layout!(token[]);

fn main() {}
