//! Literals of every kind build, and their types work in type and `const` positions.

use xla_layout::{Layout, PrimitiveType, StaticLayout, layout};

type Act = layout!(bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)});
type Spaced = layout!(f32 [ 1, 2 ] { 1, 0 : T (2,128) S(1) });
type Scalar = layout!(f32[]);
type ScalarTiled = layout!(f32[]{:T(256)});
type Bounded = layout!(s32[<=4096]{0:T(8)M(1024)});
type Packed = layout!(s4[9216,6144]{1,0:T(64,128)(8,1)E(4)});
type Combined = layout!(f32[2,3,128]{2,1,0:T(2,*,128)});
type Split = layout!(f32[150,200,100]{0,1,2:SC(0:30)(1:40,130)});
type Legacy = layout!(f32[10,10]{1,0:D(D,C)});
type Empty = layout!(());
type Pair = layout!((f32[2], (s32[<=4], b(u8[16]{0}))));
type Seed = layout!(f32[2,3]{0,1}, padded = [3,5], padding = zero);
type SeedUnknown = layout!(f32[2,3]{0,1}, padded = [3,5]);

const BYTES: usize = Act::SIZE_BYTES;
const SPACE: u8 = <Spaced as Layout>::MEMORY_SPACE;
const DIMS: &[usize] = Bounded::BOUNDS;
const TEXT: &str = Combined::CANONICAL;
const _: () = assert!(BYTES == 335_544_320 && SPACE == 1 && DIMS[0] == 4096);
const _: () = assert!(Packed::ELEMENT_BITS == 4 && Scalar::RANK == 0);
const _: () = assert!(TEXT.len() == "f32[2,3,128]{2,1,0:T(2,*,128)}".len());
const _: () = assert!(matches!(Split::ELEMENT_TYPE, PrimitiveType::F32));
const _: () = assert!(Seed::PHYSICAL_ELEMENTS == 15 && SeedUnknown::ELEMENTS == 6);

/// A literal passed on by `macro_rules!` as token trees.
macro_rules! named {
    ($name:ident = $($literal:tt)*) => {
        type $name = layout!($($literal)*);
    };
}
named!(ViaMacro = f32[2,3]{0,1:T(2)});

/// A layout type in a struct field, a trait impl and a generic bound.
struct Buffer<L: Layout> {
    bytes: Vec<u8>,
    layout: L,
}

trait Named {
    const NAME: &'static str;
}

impl Named for layout!(u8[16]{0:T(8)}) {
    const NAME: &'static str = "bytes";
}

fn allocate<L: StaticLayout + Default>() -> Buffer<L> {
    Buffer {
        bytes: vec![0; L::SIZE_BYTES],
        layout: L::default(),
    }
}

static SEED_BYTES: [u8; <layout!(f32[2,3]{0,1}, padded = [3,5]) as StaticLayout>::SIZE_BYTES] =
    [0; 60];

fn main() {
    let buffer = allocate::<layout!(bf16[4,6]{0,1:T(2,2)})>();
    assert_eq!(buffer.bytes.len(), 48);
    let _: layout!(bf16[4,6]{0,1:T(2,2)}) = buffer.layout;
    assert_eq!(<layout!(u8[16]{0:T(8)}) as Named>::NAME, "bytes");
    assert_eq!(SEED_BYTES.len(), 60);
    let offsets: Vec<usize> = (0..3)
        .map(|i| <layout!(f32[3]{0:T(2)})>::offset([i]))
        .collect();
    assert_eq!(offsets, [0, 1, 2]);
    let _: (Empty, Pair) = Default::default();
    let _: Legacy = Default::default();
    assert_eq!(ScalarTiled::PHYSICAL_ELEMENTS, 256);
    assert_eq!(ViaMacro::MINOR_TO_MAJOR, &[0, 1]);
}
