use xla_layout::{Layout, layout};

type Bad = layout!(f32[2,3]{1,1:S(1)});
const BYTES: usize = Bad::SIZE_BYTES;

fn takes(_: Bad) {}

fn main() {
    let offset = Bad::offset([1, 2]);
    let elem: <Bad as Layout>::Elem = Default::default();
    let _ = (BYTES, offset, elem, takes);
}
