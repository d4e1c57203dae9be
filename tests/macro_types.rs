//! `layout!` types: one type per canonical layout wherever it is written, constants usable in
//! `const` items, element types, tuples and buffers, and typed results equal to layout-core's
//! runtime results (`parse_array` + `Plan`) on every element and every slot of many layouts.

use std::any::TypeId;

use xla_layout::typed::{
    F4e2m1fn, F8e3m4, F8e4m3, F8e4m3b11fnuz, F8e4m3fnuz, F8e5m2fnuz, F8e8m0fnu, I1, I2, I4, U1, U2,
    U4,
};
use xla_layout::{
    ArrayShape, Layout, PaddingValue, Plan, PrimitiveType, StaticLayout, layout, parse_array,
};

/// Two modules naming the same layout, written differently.
mod producer {
    pub(crate) type Matrix = xla_layout::layout!(f32[2,3]);
}

mod consumer {
    use xla_layout::layout;

    pub(crate) type Matrix = layout!(f32[ 2, 3 ]{1,0:S(0)});
    pub(crate) type Explicit = layout!(f32[2,3]{1,0});
    pub(crate) type Legacy = layout!(f32[2,3]{1,0:D(D,D)L(1)E(0)M(0)});

    /// Takes the consumer's spelling.
    pub(crate) fn take(m: Matrix) -> Explicit {
        m
    }
}

#[test]
fn canonically_equal_literals_are_one_type_across_modules() {
    let made: producer::Matrix = Default::default();
    let taken: consumer::Explicit = consumer::take(made);
    let _: consumer::Legacy = taken;
    assert_eq!(
        TypeId::of::<producer::Matrix>(),
        TypeId::of::<consumer::Matrix>()
    );
    assert_eq!(
        TypeId::of::<layout!(f32[], padded = [], padding = zero)>(),
        TypeId::of::<layout!(f32[])>()
    );
    assert_eq!(
        TypeId::of::<layout!(s32[<=4])>(),
        TypeId::of::<layout!(s32[<=4]{0})>()
    );
    // A buffer is its array's type.
    assert_eq!(
        TypeId::of::<layout!(b(f32[2,3]{0,1}))>(),
        TypeId::of::<layout!(f32[2,3]{0,1})>()
    );
}

/// The aliases `layout!` writes types through (`typed::Spelled0`.., `DynSpelled0`..) stand for
/// the types written out as the layouts read, past 8 dimensions, with 8 tiles, a tile of 8
/// dims, split configs short and long, a bitcast signature past 32 entries, dynamic rank 16
/// and packed storage. (The written-out types are those the macro wrote before it wrote
/// aliases for every layout.)
#[test]
fn aliases_stand_for_the_layouts_as_they_read() {
    use xla_layout::typed::{
        AnySize, Array, AtMost, Attrs, Bitcast, Dims, DynArray, DynDims, Fixed, MinorToMajor,
        Packed, Padded, SC, Same, Split, Tile, Tiles, elem,
    };
    assert_eq!(
        TypeId::of::<
            layout!(bf16[2,3,4,5,6,7,8,9,10,16]{9,8,7,6,5,4,3,2,1,0:T(8,16)(4,8)(2,4)(2,1)(1,1)}),
        >(),
        TypeId::of::<
            Array<
                elem::Bf16,
                10,
                Dims<2, 3, 4, 5, 6, 7, 8, 9, Dims<10, 16>>,
                MinorToMajor<9, 8, 7, 6, 5, 4, 3, 2, MinorToMajor<1, 0>>,
                Tiles<Tile<8, 16>, Tile<4, 8>, Tile<2, 4>, Tile<2, 1>, Tile<1, 1>>,
            >,
        >()
    );
    assert_eq!(
        TypeId::of::<
            layout!(f32[2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2]{0,2,4,6,8,10,12,14,1,3,5,7,9,11,13,15}),
        >(),
        TypeId::of::<
            Array<
                elem::F32,
                16,
                Dims<2, 2, 2, 2, 2, 2, 2, 2, Dims<2, 2, 2, 2, 2, 2, 2, 2>>,
                MinorToMajor<0, 2, 4, 6, 8, 10, 12, 14, MinorToMajor<1, 3, 5, 7, 9, 11, 13, 15>>,
                Tiles,
                Bitcast<
                    2,
                    1,
                    2,
                    256,
                    2,
                    2,
                    2,
                    512,
                    2,
                    4,
                    2,
                    1024,
                    2,
                    8,
                    2,
                    2048,
                    2,
                    16,
                    2,
                    4096,
                    2,
                    32,
                    2,
                    8192,
                    2,
                    64,
                    2,
                    16384,
                    2,
                    128,
                    2,
                    32768,
                    Bitcast<65536>,
                >,
            >,
        >()
    );
    assert_eq!(
        TypeId::of::<layout!(f32[64,64]{1,0:T(32,32)(16,16)(8,8)(4,4)(2,2)(2,1)(1,1)(1)})>(),
        TypeId::of::<
            Array<
                elem::F32,
                2,
                Dims<64, 64>,
                MinorToMajor<1, 0>,
                Tiles<
                    Tile<32, 32>,
                    Tile<16, 16>,
                    Tile<8, 8>,
                    Tile<4, 4>,
                    Tile<2, 2>,
                    Tile<2, 1>,
                    Tile<1, 1>,
                    Tile<1>,
                >,
                Bitcast<
                    2,
                    2048,
                    2,
                    512,
                    2,
                    128,
                    2,
                    32,
                    2,
                    8,
                    2,
                    1,
                    2,
                    1024,
                    2,
                    256,
                    2,
                    64,
                    2,
                    16,
                    4,
                    2,
                    4096,
                >,
            >,
        >()
    );
    assert_eq!(
        TypeId::of::<layout!(f32[2,2,2,2,2,2,2,4]{7,6,5,4,3,2,1,0:T(1,1,1,1,2,2,2,4)})>(),
        TypeId::of::<
            Array<
                elem::F32,
                8,
                Dims<2, 2, 2, 2, 2, 2, 2, 4>,
                MinorToMajor<7, 6, 5, 4, 3, 2, 1, 0>,
                Tiles<Tile<1, 1, 1, 1, 2, 2, 2, 4>>,
                Bitcast<512, 1, 512>,
            >,
        >()
    );
    assert_eq!(
        TypeId::of::<layout!(f32[1024,256]{1,0:T(8,128)SC(0:256,512,768)(1:128)})>(),
        TypeId::of::<
            Array<
                elem::F32,
                2,
                Dims<1024, 256>,
                MinorToMajor<1, 0>,
                Tiles<Tile<8, 128>>,
                Bitcast<128, 2048, 8, 128, 2, 1024, 128, 1, 262144>,
                Attrs<1, 0, 0, 0, 0, Padded, SC<Split<0, 256, 512, 768>, Split<1, 128>>>,
            >,
        >()
    );
    assert_eq!(
        TypeId::of::<
            layout!(f32[1024,256]{1,0:T(8,128)SC(0:8,16,24,32,40,48,56,64,72,80,88,96,104,112,120)}),
        >(),
        TypeId::of::<
            Array<
                elem::F32,
                2,
                Dims<1024, 256>,
                MinorToMajor<1, 0>,
                Tiles<Tile<8, 128>>,
                Bitcast<128, 2048, 8, 128, 2, 1024, 128, 1, 262144>,
                Attrs<
                    1,
                    0,
                    0,
                    0,
                    0,
                    Padded,
                    SC<
                        Split<
                            0,
                            8,
                            16,
                            24,
                            32,
                            40,
                            48,
                            56,
                            Split<64, 72, 80, 88, 96, 104, 112, 120>,
                        >,
                    >,
                >,
            >,
        >()
    );
    assert_eq!(
        TypeId::of::<
            layout!(f32[1024,256]{1,0:T(8,128)SC(0:8,16,24,32,40,48,56,64,72,80,88,96,104,112,120,128,136,144,152,160)}),
        >(),
        TypeId::of::<
            Array<
                elem::F32,
                2,
                Dims<1024, 256>,
                MinorToMajor<1, 0>,
                Tiles<Tile<8, 128>>,
                Bitcast<128, 2048, 8, 128, 2, 1024, 128, 1, 262144>,
                Attrs<
                    1,
                    0,
                    0,
                    0,
                    0,
                    Padded,
                    SC<
                        Split<
                            0,
                            8,
                            16,
                            24,
                            32,
                            40,
                            48,
                            56,
                            Split<
                                64,
                                72,
                                80,
                                88,
                                96,
                                104,
                                112,
                                120,
                                Split<128, 136, 144, 152, 160>,
                            >,
                        >,
                    >,
                >,
            >,
        >()
    );
    assert_eq!(
        TypeId::of::<layout!(bf16[?,<=8,2,3,4,5,6,7,128]{8,7,6,5,4,3,2,1,0:T(8,128)(2,1)})>(),
        TypeId::of::<
            DynArray<
                elem::Bf16,
                9,
                DynDims<
                    AnySize,
                    AtMost<8>,
                    Fixed<2>,
                    Fixed<3>,
                    Fixed<4>,
                    Fixed<5>,
                    Fixed<6>,
                    Fixed<7>,
                    DynDims<Fixed<128>>,
                >,
                MinorToMajor<8, 7, 6, 5, 4, 3, 2, 1, MinorToMajor<0>>,
                Tiles<Tile<8, 128>, Tile<2, 1>>,
            >,
        >()
    );
    assert_eq!(
        TypeId::of::<
            layout!(f32[?,2,2,2,2,2,2,2,2,2,2,2,2,2,<=4,2]{15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0:T(2,2)}),
        >(),
        TypeId::of::<
            DynArray<
                elem::F32,
                16,
                DynDims<
                    AnySize,
                    Fixed<2>,
                    Fixed<2>,
                    Fixed<2>,
                    Fixed<2>,
                    Fixed<2>,
                    Fixed<2>,
                    Fixed<2>,
                    DynDims<
                        Fixed<2>,
                        Fixed<2>,
                        Fixed<2>,
                        Fixed<2>,
                        Fixed<2>,
                        Fixed<2>,
                        AtMost<4>,
                        Fixed<2>,
                    >,
                >,
                MinorToMajor<15, 14, 13, 12, 11, 10, 9, 8, MinorToMajor<7, 6, 5, 4, 3, 2, 1, 0>>,
                Tiles<Tile<2, 2>>,
            >,
        >()
    );
    assert_eq!(
        TypeId::of::<
            layout!(s4[?,2,2,2,2,2,2,2,2,2,2,128]{11,10,9,8,7,6,5,4,3,2,1,0:T(2,128)(8,1)E(4)}),
        >(),
        TypeId::of::<
            DynArray<
                elem::S4,
                12,
                DynDims<
                    AnySize,
                    Fixed<2>,
                    Fixed<2>,
                    Fixed<2>,
                    Fixed<2>,
                    Fixed<2>,
                    Fixed<2>,
                    Fixed<2>,
                    DynDims<Fixed<2>, Fixed<2>, Fixed<2>, Fixed<128>>,
                >,
                MinorToMajor<11, 10, 9, 8, 7, 6, 5, 4, MinorToMajor<3, 2, 1, 0>>,
                Tiles<Tile<2, 128>, Tile<8, 1>>,
                Attrs<1, 4>,
                Packed,
            >,
        >()
    );
    assert_eq!(
        TypeId::of::<layout!(f32[<=64,256]{1,0:T(8,128)SC(0:16,32)})>(),
        TypeId::of::<
            DynArray<
                elem::F32,
                2,
                DynDims<AtMost<64>, Fixed<256>>,
                MinorToMajor<1, 0>,
                Tiles<Tile<8, 128>>,
                Attrs<1, 0, 0, 0, 0, Padded, SC<Split<0, 16, 32>>>,
            >,
        >()
    );
    assert_eq!(
        TypeId::of::<layout!(s4[16,256]{1,0:T(8,128)(2,1)L(2)E(4)S(1)M(2)})>(),
        TypeId::of::<
            Array<
                elem::S4,
                2,
                Dims<16, 256>,
                MinorToMajor<1, 0>,
                Tiles<Tile<8, 128>, Tile<2, 1>>,
                Bitcast<2, 2048, 4, 256, 2, 1, 2, 1024, 128, 2, 4096>,
                Attrs<2, 4, 1, 2>,
                Packed,
            >,
        >()
    );
    assert_eq!(
        TypeId::of::<
            layout!(u8[1,1,1,1,1,1,1,1,1,2]{9,8,7,6,5,4,3,2,1,0}, padded = [1,1,1,1,1,1,1,1,2,3], padding = zero),
        >(),
        TypeId::of::<
            Array<
                elem::U8,
                10,
                Dims<1, 1, 1, 1, 1, 1, 1, 1, Dims<1, 2>>,
                MinorToMajor<9, 8, 7, 6, 5, 4, 3, 2, MinorToMajor<1, 0>>,
                Tiles,
                Same,
                Attrs<1, 0, 0, 0, 1, Padded<1, 1, 1, 1, 1, 1, 1, 1, Padded<2, 3>>>,
            >,
        >()
    );
    assert_eq!(
        TypeId::of::<
            layout!(f32[1024,256]{1,0:T(8,128)SC(0:8,16,24,32,40,48,56,64,72,80,88,96,104,112,120,128,136,144,152,160)(1:16,32,48)}),
        >(),
        TypeId::of::<
            Array<
                elem::F32,
                2,
                Dims<1024, 256>,
                MinorToMajor<1, 0>,
                Tiles<Tile<8, 128>>,
                Bitcast<128, 2048, 8, 128, 2, 1024, 128, 1, 262144>,
                Attrs<
                    1,
                    0,
                    0,
                    0,
                    0,
                    Padded,
                    SC<
                        Split<
                            0,
                            8,
                            16,
                            24,
                            32,
                            40,
                            48,
                            56,
                            Split<
                                64,
                                72,
                                80,
                                88,
                                96,
                                104,
                                112,
                                120,
                                Split<128, 136, 144, 152, 160>,
                            >,
                        >,
                        Split<1, 16, 32, 48>,
                    >,
                >,
            >,
        >()
    );
}

/// Implemented for layouts that must be pairwise different types: if any two were the same
/// type, these impls would conflict and the test would not compile.
trait Distinct {}
impl Distinct for layout!(f32[2,3]) {}
impl Distinct for layout!(f32[2,3]{0,1}) {}
impl Distinct for layout!(f32[2,3]{1,0:S(1)}) {}
impl Distinct for layout!(f32[2,3]{1,0:T(2)}) {}
impl Distinct for layout!(f32[3,2]) {}
impl Distinct for layout!(s32[2,3]) {}
impl Distinct for layout!(s32[4]) {}
impl Distinct for layout!(s32[<=4]) {}
impl Distinct for layout!(f32[2,3], padded = [2,4]) {}
impl Distinct for layout!(f32[2,3], padded = [2,4], padding = zero) {}

/// The `TypeId` of a layout that implements [`Distinct`].
fn distinct_id<T: Distinct + 'static>() -> TypeId {
    TypeId::of::<T>()
}

#[test]
fn different_layouts_are_different_types() {
    let ids = [
        distinct_id::<layout!(f32[2,3])>(),
        distinct_id::<layout!(f32[2,3]{0,1})>(),
        distinct_id::<layout!(f32[2,3]{1,0:S(1)})>(),
        distinct_id::<layout!(f32[2,3]{1,0:T(2)})>(),
        distinct_id::<layout!(f32[3,2])>(),
        distinct_id::<layout!(s32[2,3])>(),
        distinct_id::<layout!(s32[4])>(),
        distinct_id::<layout!(s32[<=4])>(),
        distinct_id::<layout!(f32[2,3], padded = [2,4])>(),
        distinct_id::<layout!(f32[2,3], padded = [2,4], padding = zero)>(),
    ];
    for (i, a) in ids.iter().enumerate() {
        for b in &ids[i + 1..] {
            assert_ne!(a, b);
        }
    }
}

type Act = layout!(bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)});
const ACT_BYTES: usize = Act::SIZE_BYTES;
const ACT_DIMS: &[usize] = Act::DIMS;
const ACT_M2M: &[usize] = <Act as Layout>::MINOR_TO_MAJOR;
const ACT_TEXT: &str = Act::CANONICAL;
const ACT_SUMMARY: (usize, usize, PrimitiveType, usize, u8, usize, usize) = (
    Act::RANK,
    Act::ELEMENTS,
    Act::ELEMENT_TYPE,
    Act::ELEMENT_BITS,
    Act::MEMORY_SPACE,
    Act::PHYSICAL_ELEMENTS,
    Act::SIZE_BYTES,
);
const _: () = assert!(ACT_BYTES == 8 * 1280 * 16384 * 2);
const _: () = assert!(ACT_DIMS.len() == 4 && ACT_DIMS[2] == 1280 && ACT_M2M[3] == 1);
/// A buffer sized by a layout's constant.
static PACKED_BUFFER: [u8; <layout!(s4[9,5]{1,0:E(4)}) as StaticLayout>::SIZE_BYTES] = [0; 23];

#[test]
fn constants_in_const_items() {
    assert_eq!(ACT_TEXT, "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}");
    assert_eq!(
        ACT_SUMMARY,
        (
            4,
            8 * 1280 * 16384,
            PrimitiveType::Bf16,
            16,
            1,
            8 * 1280 * 16384,
            335_544_320
        )
    );
    assert_eq!(PACKED_BUFFER.len(), 23);
}

/// `L`'s element type is `E`.
fn elem_is<L: Layout<Elem = E>, E>() {}

#[test]
fn element_types() {
    type Bf16 = layout!(bf16[2]);
    type F16 = layout!(f16[2]);
    type C64 = layout!(c64[2]);
    type F8 = layout!(f8e4m3fn[2]);
    let _: <Bf16 as Layout>::Elem = half::bf16::ZERO;
    let _: <F16 as Layout>::Elem = half::f16::ONE;
    let _: <C64 as Layout>::Elem = num_complex::Complex32::new(1.0, 2.0);
    let _: <F8 as Layout>::Elem = float8::F8E4M3::from_f32(1.0);
    elem_is::<layout!(pred[2]), bool>();
    elem_is::<layout!(s1[8]{0:E(1)}), I1>();
    elem_is::<layout!(s2[8]{0:E(2)}), I2>();
    elem_is::<layout!(s4[8]{0:E(4)}), I4>();
    elem_is::<layout!(s8[2]), i8>();
    elem_is::<layout!(s16[2]), i16>();
    elem_is::<layout!(s32[2]), i32>();
    elem_is::<layout!(s64[2]), i64>();
    elem_is::<layout!(u1[8]{0:E(1)}), U1>();
    elem_is::<layout!(u2[8]), U2>();
    elem_is::<layout!(u4[8]{0:E(4)}), U4>();
    elem_is::<layout!(u8[2]), u8>();
    elem_is::<layout!(u16[2]), u16>();
    elem_is::<layout!(u32[2]), u32>();
    elem_is::<layout!(u64[2]), u64>();
    elem_is::<layout!(f16[2]), half::f16>();
    elem_is::<layout!(bf16[2]), half::bf16>();
    elem_is::<layout!(f32[2]), f32>();
    elem_is::<layout!(f64[2]), f64>();
    elem_is::<layout!(f8e5m2[2]), float8::F8E5M2>();
    elem_is::<layout!(f8e4m3[2]), F8e4m3>();
    elem_is::<layout!(f8e4m3fn[2]), float8::F8E4M3>();
    elem_is::<layout!(f8e4m3b11fnuz[2]), F8e4m3b11fnuz>();
    elem_is::<layout!(f8e3m4[2]), F8e3m4>();
    elem_is::<layout!(f8e5m2fnuz[2]), F8e5m2fnuz>();
    elem_is::<layout!(f8e4m3fnuz[2]), F8e4m3fnuz>();
    elem_is::<layout!(f4e2m1fn[8]{0:E(4)}), F4e2m1fn>();
    elem_is::<layout!(f8e8m0fnu[2]), F8e8m0fnu>();
    elem_is::<layout!(c64[2]), num_complex::Complex32>();
    elem_is::<layout!(c128[2]), num_complex::Complex64>();
}

/// Every logical index of `dims`, in row-major order.
fn indices(dims: &[usize]) -> Vec<Vec<usize>> {
    let n: usize = dims.iter().product();
    (0..n)
        .map(|mut l| {
            let mut idx = vec![0; dims.len()];
            for k in (0..dims.len()).rev() {
                idx[k] = l % dims[k];
                l /= dims[k];
            }
            idx
        })
        .collect()
}

/// Asserts that the type `L` agrees with layout-core's runtime model of `shape`: every
/// constant, the runtime shape and plan, `offset` and `checked_offset` of every element,
/// `checked_offset` just past each dimension, and `index_of` of every slot and past the end.
fn agrees<L: StaticLayout>(shape: &ArrayShape) {
    let plan = Plan::new(shape).unwrap();
    let text = shape.to_string();
    let m2m: Vec<usize> = shape
        .layout
        .minor_to_major
        .iter()
        .map(|&d| usize::try_from(d).unwrap())
        .collect();
    assert_eq!(L::RANK, shape.rank(), "{text}: RANK");
    assert_eq!(L::DIMS, plan.dims(), "{text}: DIMS");
    assert_eq!(L::MINOR_TO_MAJOR, m2m, "{text}: MINOR_TO_MAJOR");
    assert_eq!(L::ELEMENT_TYPE, shape.element_type, "{text}: ELEMENT_TYPE");
    assert_eq!(L::ELEMENT_BITS, plan.element_bits(), "{text}: ELEMENT_BITS");
    assert_eq!(
        i64::from(L::MEMORY_SPACE),
        shape.layout.memory_space,
        "{text}: MEMORY_SPACE"
    );
    assert_eq!(L::ELEMENTS, plan.elements(), "{text}: ELEMENTS");
    assert_eq!(
        L::PHYSICAL_ELEMENTS,
        plan.physical_elements(),
        "{text}: PHYSICAL_ELEMENTS"
    );
    assert_eq!(L::SIZE_BYTES, plan.size_bytes(), "{text}: SIZE_BYTES");
    assert_eq!(L::CANONICAL, text, "{text}: CANONICAL");
    assert_eq!(L::array_shape(), *shape, "{text}: array_shape");
    assert_eq!(L::plan(), plan, "{text}: plan");

    let typed = |index: &[usize]| {
        let mut i = L::Index::default();
        i.as_mut().copy_from_slice(index);
        i
    };
    for index in indices(plan.dims()) {
        let offset = plan.offset(&index);
        assert_eq!(L::offset(typed(&index)), offset, "{text}: offset {index:?}");
        assert_eq!(
            L::checked_offset(typed(&index)),
            Some(offset),
            "{text}: checked_offset {index:?}"
        );
    }
    if L::ELEMENTS > 0 {
        for d in 0..L::RANK {
            let mut past = vec![0; L::RANK];
            past[d] = L::DIMS[d];
            assert_eq!(
                L::checked_offset(typed(&past)),
                None,
                "{text}: checked_offset {past:?}"
            );
        }
    }
    for offset in 0..plan.physical_elements() + 3 {
        assert_eq!(
            L::index_of(offset).map(|i| i.as_ref().to_vec()),
            plan.index_of(offset),
            "{text}: index_of {offset}"
        );
    }
}

/// `agrees` for a literal, against `parse_array` of the same text.
macro_rules! agree {
    ($($literal:tt)*) => {
        agrees::<layout!($($literal)*)>(&parse_array(stringify!($($literal)*)).unwrap())
    };
}

#[test]
fn untiled_and_scalars() {
    agree!(f32[]);
    agree!(s8[]{:S(3)});
    agree!(f32[7]);
    agree!(f32[2,3]);
    agree!(f32[2,3]{0,1});
    agree!(f64[3,5]{0,1});
    agree!(u16[5,7,3]{0,1,2});
    agree!(f32[4,5,3,2]{3,0,2,1});
    agree!(c64[3,4]{1,0});
    agree!(c128[2]{0});
    agree!(pred[3,3]{0,1});
    agree!(f32[0,3]);
    agree!(f32[3,0,2]{0,2,1});
    agree!(f32[3,4]{1,0:D(D,C)});
}

#[test]
fn single_and_multi_level_tiles() {
    agree!(f32[3,5]{1,0:T(2,2)});
    agree!(f32[4,8]{1,0:T(2,4)(2,1)});
    agree!(f32[9,260]{1,0:T(8,128)});
    agree!(bf16[8,1,64,256]{3,2,0,1:T(8,128)(2,1)S(1)});
    agree!(bf16[2048]{0:T(1024)(128)(2,1)});
    agree!(f32[200,128]{1,0:T(8)L(1024)});
    agree!(f32[12,130]{0,1:T(8,128)});
    agree!(s4[64,256]{1,0:T(64,128)(8,1)E(4)});
    agree!(f8e4m3fn[16,16]{1,0:T(8,4)});
    agree!(f32[0,3]{1,0:T(8,128)});
    agree!(c64[3,4]{0,1:T(2,2)});
}

#[test]
fn non_power_of_two_tiles_and_dims() {
    agree!(f32[7,10]{1,0:T(3,5)});
    agree!(f32[11,13]{0,1:T(3,7)(2,1)});
    agree!(s32[5,6,7]{2,0,1:T(3,4)});
    agree!(u8[10,9]{1,0:T(6,6)(3,2)});
    agree!(f64[13]{0:T(5)(3)});
    agree!(s16[7,11,5]{0,2,1:T(3,3,3)});
}

#[test]
fn combined_dimensions() {
    agree!(f32[2,3,128]{2,1,0:T(2,*,128)});
    agree!(f32[3,5,7]{2,1,0:T(*,4)});
    agree!(f32[4,3,5]{0,1,2:T(2,*,6)});
    agree!(bf16[3,2,5,6]{3,2,1,0:T(*,*,4)(2,1)});
    agree!(s8[5,3,4]{1,2,0:T(*,3)(2,*,2)});
    agree!(f32[5]{0:T(*,2)});
    agree!(f32[2,3]{0,1:T(4,*,2)});
    agree!(f32[3,4]{1,0:T(*,*,2)(3,1)});
    agree!(u4[6,5]{0,1:T(*,4)(2,*,2)L(3)E(4)});
}

#[test]
fn tile_rank_above_array_rank() {
    agree!(bf16[4]{0:T(2,1)});
    agree!(f32[2,3]{1,0:T(2,3,4)});
    agree!(f32[]{:T(256)});
    agree!(pred[5]{0:T(2,2,2)});
    agree!(f32[3]{0:T(4,2)(2,1)});
}

/// Asserts that the dynamic type `L` agrees with layout-core's runtime plan of its shape at
/// `dims` (every dimension static): sizes, the plan, and the offset of every element.
fn dyn_agrees<L: Layout>(dims: &[usize]) {
    let mut d = L::Index::default();
    d.as_mut().copy_from_slice(dims);
    let extents = L::extents(d).unwrap();
    let mut shape = parse_array(L::CANONICAL).unwrap();
    for (dim, &n) in shape.dims.iter_mut().zip(dims) {
        *dim = xla_layout::Dim::Static(n as i64);
    }
    let plan = Plan::new(&shape).unwrap();
    let text = format!("{} at {dims:?}", L::CANONICAL);
    let sizes = L::sizes(&extents);
    assert_eq!(sizes.elements, plan.elements(), "{text}: elements");
    assert_eq!(sizes.physical_elements, plan.physical_elements(), "{text}");
    assert_eq!(sizes.size_bytes, plan.size_bytes(), "{text}: size_bytes");
    assert_eq!(
        L::size_bytes(d),
        Ok(plan.size_bytes()),
        "{text}: size_bytes(dims)"
    );
    assert_eq!(L::plan_in(&extents), plan, "{text}: plan");
    for index in indices(plan.dims()) {
        let mut i = L::Index::default();
        i.as_mut().copy_from_slice(&index);
        assert_eq!(
            L::offset_in(&extents, i),
            plan.offset(&index),
            "{text}: {index:?}"
        );
        assert_eq!(L::checked_offset_in(&extents, i), Some(plan.offset(&index)));
    }
}

#[test]
fn bounded_dimensions() {
    for n in 0..=40 {
        dyn_agrees::<layout!(s32[<=40]{0:T(8)M(1024)})>(&[n]);
    }
    for (a, b) in [(0, 5), (1, 5), (3, 5)] {
        dyn_agrees::<layout!(f32[<=3,5]{1,0})>(&[a, b]);
    }
    for a in 0..=3 {
        for b in 0..=5 {
            dyn_agrees::<layout!(f32[<=3,<=5]{0,1:T(2,2)})>(&[a, b]);
        }
    }
    assert_eq!(<layout!(f32[<=3,<=5]{0,1:T(2,2)})>::BOUNDS, &[3, 5]);
}

#[test]
fn element_sizes_tail_padding_and_prefix() {
    agree!(s4[16,10]{1,0:E(4)});
    agree!(u2[7,5]{0,1:T(4)E(2)});
    agree!(s1[9]{0:E(1)});
    agree!(f4e2m1fn[8,10]{1,0:E(4)});
    agree!(pred[8,8,8]{0,2,1:T(8,128)E(32)});
    agree!(s8[21]{0:E(4)});
    agree!(s4[5,2]{1,0:E(8)});
    agree!(f32[10,3]{1,0:L(64)});
    agree!(f32[10,3]{1,0:T(4)L(7)});
    agree!(s8[5,3]{1,0:M(16)});
    agree!(u4[9,5]{0,1:T(2,4)L(16)E(4)S(2)M(8)});
    agree!(f32[15,20,10]{0,1,2:SC(0:3)(1:4,13)});
}

#[test]
fn ranks_five_to_eight() {
    agree!(f32[2,3,1,4,2]);
    agree!(f32[2,3,1,4,2]{0,1,2,3,4:T(2,2)});
    agree!(s16[2,1,3,2,2,3]{0,2,4,1,3,5:T(2,2)});
    agree!(u8[2,2,1,3,2,1,2]{6,5,4,3,2,1,0:T(4,*,2)});
    agree!(f32[2,1,3,1,2,2,1,2]{7,6,5,4,3,2,1,0:T(2,2,2)(1,2)});
    agree!(bf16[3,2,2,1,2,3,2,2]{1,0,3,2,5,4,7,6:T(*,4)(2,1)});
}

/// `shape` with the legacy padded dimensions.
fn padded(text: &str, sizes: &[i64], value: PaddingValue) -> ArrayShape {
    let mut shape = parse_array(text).unwrap();
    shape.layout = shape
        .layout
        .clone()
        .with_padding(sizes.iter().copied(), value);
    shape
}

#[test]
fn padded_option() {
    agrees::<layout!(f32[2,3]{0,1}, padded = [3,5], padding = zero)>(&padded(
        "f32[2,3]{0,1}",
        &[3, 5],
        PaddingValue::Zero,
    ));
    agrees::<layout!(f32[2,3]{0,1}, padded = [3,5])>(&padded(
        "f32[2,3]{0,1}",
        &[3, 5],
        PaddingValue::Unknown,
    ));
    agrees::<layout!(f32[5,7]{1,0:T(2,4)}, padded = [6,9], padding = lowest)>(&padded(
        "f32[5,7]{1,0:T(2,4)}",
        &[6, 9],
        PaddingValue::Lowest,
    ));
    agrees::<layout!(s32[3]{0}, padding = highest, padded = [3])>(&padded(
        "s32[3]{0}",
        &[3],
        PaddingValue::Highest,
    ));
    agrees::<layout!(b(u8[4,3]), padded = [5,4], padding = one)>(&padded(
        "u8[4,3]",
        &[5, 4],
        PaddingValue::One,
    ));
}

type Tuple = layout!((f32[2,3]{0,1}, (s32[<=4], b(u8[16]{0:T(8)})), ()));

#[test]
fn tuples_are_rust_tuples_of_layout_types() {
    let (matrix, (vector, buffer), empty): Tuple = Default::default();
    let _: layout!(f32[2,3]{0,1}) = matrix;
    let _: layout!(s32[<=4]) = vector;
    let _: layout!(u8[16]{0:T(8)}) = buffer;
    let _: layout!(()) = empty;
    let _: () = empty;
    dyn_agrees::<layout!(s32[<=4])>(&[3]);
    agrees::<layout!(u8[16]{0:T(8)})>(&parse_array("u8[16]{0:T(8)}").unwrap());
}
