type T = xla_layout::layout!((f32[2,3]{0,0}, s32[?], b(u8[4]{1})));

fn main() {}
