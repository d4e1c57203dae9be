type T = xla_layout::layout!(pred[123,456]{1,0:SC(1:200,100)});

fn main() {}
