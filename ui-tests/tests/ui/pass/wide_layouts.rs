//! Static layouts past the capacity of the aliases `layout!` usually writes (rank above 8,
//! more than 4 tiles, a tile of more than 4 dims, split configs) are written as their `Array`
//! and agree with the runtime plan on every element.

use xla_layout::{Layout, StaticLayout, layout};

fn agrees<L: StaticLayout>() {
    let plan = L::plan();
    assert_eq!(L::SIZE_BYTES, plan.size_bytes());
    let dims = L::DIMS;
    let mut index = L::Index::default();
    for n in 0..L::ELEMENTS {
        let mut rest = n;
        for (i, &d) in index.as_mut().iter_mut().zip(dims).rev() {
            *i = rest % d;
            rest /= d;
        }
        let offset = L::offset(index);
        assert_eq!(
            offset,
            plan.offset(index.as_ref()),
            "{} {index:?}",
            L::CANONICAL
        );
        assert_eq!(L::index_of(offset), Some(index));
    }
}

fn main() {
    agrees::<layout!(f32[2,1,2,1,2,1,2,1,3]{0,1,2,3,4,5,6,7,8:T(2,2)})>();
    agrees::<layout!(f32[1024]{0:T(512)(256)(128)(64)(2)})>();
    agrees::<layout!(f32[1024]{0:T(512)(256)(128)(64)(32)(16)(8)(4)})>();
    agrees::<layout!(f32[2,3,4,5,6]{4,3,2,1,0:T(1,2,2,2,2)})>();
    agrees::<layout!(f32[15,20,10]{0,1,2:SC(0:3)(1:4,13)})>();
    assert_eq!(
        <layout!(f32[15,20,10]{0,1,2:SC(0:3)(1:4,13)})>::CANONICAL,
        "f32[15,20,10]{0,1,2:SC(0:3)(1:4,13)}"
    );
}
