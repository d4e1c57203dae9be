//! `xla-layout hlo --rust` output compiles and its types occupy what the report says.
//!
//! `hlo_types/generated.rs` is the CLI's `--rust` output for `data/hlo/modules/0282.hlo` (a
//! TPU while loop from XLA's `while_loop_unroller_test.cc`); the CLI's own tests check that it
//! still writes exactly that file. The byte counts below are the `bytes` of `hlo --json`,
//! checked by hand with XLA's formula (ShapeUtil::ArraySize: round the minor dims up to the
//! first tile, multiply, times the element bytes):
//! - `s8[1,32,2048]{2,1,0:T(8,128)(4,1)}`: 2048 and 32 are multiples of 128 and 8, so
//!   1·32·2048·1 B = 65,536 B.
//! - `s8[1,2048,4096]...`: 1·2048·4096 = 8,388,608 B.
//! - `s32[1,32,256]{2,1,0:T(8,128)}`: 32·256·4 = 32,768 B.
//! - `u32[]{:T(128)}` and `s32[]{:T(128)}`: the scalar is one element padded to 128, so
//!   128·4 = 512 B (XLA:TPU's 512-byte scalars).
//! - `u32[256]{0:T(256)}`: 256·4 = 1,024 B.

// The aliases are `pub` for the crates that include them; here the module is private.
#[allow(unreachable_pub)]
#[path = "hlo_types/generated.rs"]
mod generated;

use generated::*;
use xla_layout::StaticLayout;

#[test]
fn every_alias_occupies_the_reported_bytes() {
    let sizes = [
        ("Fusion4456", Fusion4456::SIZE_BYTES, 65_536),
        ("Fusion4457", Fusion4457::SIZE_BYTES, 8_388_608),
        ("Broadcast26239", Broadcast26239::SIZE_BYTES, 32_768),
        (
            "Broadcast26239Clone",
            Broadcast26239Clone::SIZE_BYTES,
            32_768,
        ),
        ("Output0", Output0::SIZE_BYTES, 65_536),
        ("Output1", Output1::SIZE_BYTES, 8_388_608),
        ("Output2", Output2::SIZE_BYTES, 32_768),
        ("Output3", Output3::SIZE_BYTES, 32_768),
        ("Output4", Output4::SIZE_BYTES, 512),
        ("Output5", Output5::SIZE_BYTES, 512),
        ("Output6", Output6::SIZE_BYTES, 1_024),
        ("Output7", Output7::SIZE_BYTES, 512),
        ("Output8", Output8::SIZE_BYTES, 512),
        ("Output9", Output9::SIZE_BYTES, 512),
        ("Output10", Output10::SIZE_BYTES, 512),
        ("Output11", Output11::SIZE_BYTES, 512),
        ("Output12", Output12::SIZE_BYTES, 512),
    ];
    for (name, got, want) in sizes {
        assert_eq!(got as u64, want, "{name}");
    }
}

#[test]
fn parameters_and_outputs_of_the_while_loop_are_the_same_types() {
    use std::any::TypeId;
    assert_eq!(TypeId::of::<Fusion4457>(), TypeId::of::<Output1>());
    assert_eq!(
        TypeId::of::<Broadcast26239>(),
        TypeId::of::<Broadcast26239Clone>()
    );
}
