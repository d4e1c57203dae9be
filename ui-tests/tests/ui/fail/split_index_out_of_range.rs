type T = xla_layout::layout!(pred[123,456]{1,0:SC(1:500)});

fn main() {}
