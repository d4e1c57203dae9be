type T = xla_layout::layout!();

fn main() {}
