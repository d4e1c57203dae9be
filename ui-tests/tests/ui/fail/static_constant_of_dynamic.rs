use xla_layout::{StaticLayout, layout};

fn main() {
    let _ = <layout!(f32[?,128]{1,0:T(8,128)}) as StaticLayout>::SIZE_BYTES;
}
