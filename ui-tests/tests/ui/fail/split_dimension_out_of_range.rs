type T = xla_layout::layout!(pred[123,456]{1,0:SC(2:10)});

fn main() {}
