//! `copy_from` between every ordered pair of a broad, fixed set of layouts of the same
//! array: untiled and tiled, tiled to tiled, `*`, tiles overhanging the array, legacy
//! `padded = [..]`, `L(n)`, packed `E(4)`, `M(n)`, bf16 `(2,1)` sub-tiles, ranks 0 to 4 and
//! zero-size arrays. Random data, distinct per element where the type allows, must come back
//! unchanged from `to_logical()` of the destination (layouts cannot be random: `layout!`
//! types exist only at compile time).

use half::bf16;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use xla_layout::tensor::Tensor;
use xla_layout::typed::I4;
use xla_layout::{StaticLayout, layout};

/// Element values from a seed and the logical linear index.
trait Sample: Copy + PartialEq + core::fmt::Debug {
    fn sample(seed: u32, k: usize) -> Self;
}

impl Sample for f32 {
    /// Distinct for the first 2^24 elements.
    fn sample(seed: u32, k: usize) -> f32 {
        ((seed as usize).wrapping_add(k.wrapping_mul(2_654_435_761)) % (1 << 24)) as f32
    }
}

impl Sample for bf16 {
    /// Distinct for the first 2^14 elements; never NaN.
    fn sample(seed: u32, k: usize) -> bf16 {
        bf16::from_bits(((seed as usize).wrapping_add(k.wrapping_mul(40_503)) & 0x3fff) as u16)
    }
}

impl Sample for I4 {
    fn sample(seed: u32, k: usize) -> I4 {
        I4::new(((seed as usize).wrapping_add(k.wrapping_mul(7)) % 16) as i8 - 8).unwrap()
    }
}

impl Sample for u8 {
    fn sample(seed: u32, k: usize) -> u8 {
        (seed as usize).wrapping_add(k.wrapping_mul(151)) as u8
    }
}

/// Copies logical data laid out as `A` into a `B` tensor (first filled with other values) and
/// reads it back.
fn check<A, B>(seed: u32) -> Result<(), TestCaseError>
where
    A: StaticLayout,
    B: StaticLayout<Elem = A::Elem, Dims = A::Dims>,
    A::Elem: Sample,
{
    let data: Vec<A::Elem> = (0..A::ELEMENTS).map(|k| A::Elem::sample(seed, k)).collect();
    let stale: Vec<A::Elem> = (0..A::ELEMENTS)
        .map(|k| A::Elem::sample(seed ^ 0x5555, k + 3))
        .collect();
    let src = Tensor::<A>::from_logical(&data).unwrap();
    let mut dst = Tensor::<B>::from_logical(&stale).unwrap();
    dst.copy_from(&src);
    prop_assert_eq!(
        dst.to_logical(),
        data,
        "{} -> {}",
        A::CANONICAL,
        B::CANONICAL
    );
    Ok(())
}

/// `check` for every ordered pair of the layouts (the same one twice included).
macro_rules! all_pairs {
    ($seed:expr; [$($a:ty),+ $(,)?]) => {
        all_pairs!(@outer $seed; [$($a),+]; [$($a),+])
    };
    (@outer $seed:expr; [$($a:ty),+]; $all:tt) => {
        $( all_pairs!(@inner $seed; $a; $all); )+
    };
    (@inner $seed:expr; $a:ty; [$($b:ty),+]) => {
        $( check::<$a, $b>($seed)?; )+
    };
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    /// The benchmark pairs, smaller: 128-element tile rows, whole tiles.
    #[test]
    fn tpu_tiles_f32(seed in any::<u32>()) {
        all_pairs!(seed; [
            layout!(f32[16,256]{1,0}),
            layout!(f32[16,256]{0,1}),
            layout!(f32[16,256]{1,0:T(8,128)}),
            layout!(f32[16,256]{0,1:T(8,128)}),
            layout!(f32[16,256]{1,0:T(4,64)(2,1)}),
            layout!(f32[16,256]{1,0:T(8)}),
            layout!(f32[16,256]{1,0:T(*,128)}),
            layout!(f32[16,256]{0,1:T(*,64)}),
            layout!(f32[16,256]{1,0:T(2,128)(1,32)}),
        ]);
    }

    /// bf16 pairs packed by `(2,1)`, whole tiles.
    #[test]
    fn tpu_tiles_bf16(seed in any::<u32>()) {
        all_pairs!(seed; [
            layout!(bf16[32,384]{1,0}),
            layout!(bf16[32,384]{0,1}),
            layout!(bf16[32,384]{1,0:T(8,128)(2,1)}),
            layout!(bf16[32,384]{0,1:T(8,128)(2,1)}),
            layout!(bf16[32,384]{1,0:T(16,128)(2,1)}),
            layout!(bf16[32,384]{1,0:T(8,128)}),
        ]);
    }

    /// Tiles overhanging the array: an odd number of rows for `(2,1)`, partial tiles.
    #[test]
    fn overhanging_tiles(seed in any::<u32>()) {
        all_pairs!(seed; [
            layout!(bf16[9,130]{1,0}),
            layout!(bf16[9,130]{0,1}),
            layout!(bf16[9,130]{1,0:T(8,128)(2,1)}),
            layout!(bf16[9,130]{0,1:T(8,128)(2,1)}),
            layout!(bf16[9,130]{1,0:T(2,3)}),
            layout!(bf16[9,130]{1,0:T(8,128)}),
        ]);
        all_pairs!(seed; [
            layout!(f32[5,7]{1,0}),
            layout!(f32[5,7]{0,1}),
            layout!(f32[5,7]{1,0:T(8,128)}),
            layout!(f32[5,7]{0,1:T(2,3)}),
            layout!(f32[5,7]{1,0:T(2,2)(2,1)}),
            layout!(f32[5,7]{1,0:T(4)}),
            layout!(f32[5,7]{1,0:T(2,4)L(64)}),
        ]);
    }

    /// The 2017 layout's padded dims, alone and with tiles.
    #[test]
    fn legacy_padding(seed in any::<u32>()) {
        all_pairs!(seed; [
            layout!(f32[6,10]{1,0}),
            layout!(f32[6,10]{1,0}, padded = [8,16]),
            layout!(f32[6,10]{0,1}, padded = [7,12], padding = zero),
            layout!(f32[6,10]{1,0:T(4,8)}, padded = [8,16]),
            layout!(f32[6,10]{1,0:T(4,4)}),
            layout!(f32[6,10]{0,1}),
        ]);
    }

    /// Rank 1, including tiles of higher rank than the array.
    #[test]
    fn rank_one(seed in any::<u32>()) {
        all_pairs!(seed; [
            layout!(f32[1000]{0}),
            layout!(f32[1000]{0:T(128)}),
            layout!(f32[1000]{0:T(256)(8,1)}),
            layout!(f32[1000]{0:T(8,128)}),
            layout!(f32[1000]{0:T(1024)(128)(2,1)}),
            layout!(f32[1000]{0:L(1024)}),
        ]);
    }

    /// Rank 3 and 4: permutations, `*` merging dims, legacy padding.
    #[test]
    fn higher_ranks(seed in any::<u32>()) {
        all_pairs!(seed; [
            layout!(f32[3,5,8]{2,1,0}),
            layout!(f32[3,5,8]{0,1,2}),
            layout!(f32[3,5,8]{1,2,0}),
            layout!(f32[3,5,8]{2,1,0:T(2,*,4)}),
            layout!(f32[3,5,8]{2,1,0:T(*,4,8)}),
            layout!(f32[3,5,8]{0,2,1:T(2,2)}),
            layout!(f32[3,5,8]{2,0,1:T(*,2)}),
            layout!(f32[3,5,8]{2,1,0}, padded = [4,5,9]),
        ]);
        all_pairs!(seed; [
            layout!(f32[2,3,4,5]{3,2,1,0}),
            layout!(f32[2,3,4,5]{0,1,2,3}),
            layout!(f32[2,3,4,5]{1,3,0,2}),
            layout!(f32[2,3,4,5]{3,2,1,0:T(2,4)}),
            layout!(f32[2,3,4,5]{3,2,1,0:T(2,*,2)}),
            layout!(f32[2,3,4,5]{1,3,0,2:T(*,2,2)}),
        ]);
        all_pairs!(seed; [
            layout!(f32[3,1,8]{2,1,0}),
            layout!(f32[3,1,8]{0,1,2}),
            layout!(f32[3,1,8]{2,1,0:T(2,*,4)}),
            layout!(f32[3,1,8]{1,2,0:T(*,2)}),
        ]);
        all_pairs!(seed; [
            layout!(f32[1,3,1,5]{3,2,1,0}),
            layout!(f32[1,3,1,5]{0,2,1,3}),
            layout!(f32[1,3,1,5]{3,2,1,0:T(2,4)}),
        ]);
    }

    /// Packed `E(4)` and an `M(n)` metadata prefix, to and from direct storage.
    #[test]
    fn packed_and_prefixed(seed in any::<u32>()) {
        all_pairs!(seed; [
            layout!(s4[6,10]{1,0:E(4)}),
            layout!(s4[6,10]{0,1:E(4)}),
            layout!(s4[6,10]{1,0:T(2,4)E(4)}),
            layout!(s4[6,10]{1,0}),
            layout!(s4[6,10]{0,1:T(4,2)}),
        ]);
        all_pairs!(seed; [
            layout!(u8[5,6]{1,0:M(4)}),
            layout!(u8[5,6]{0,1:M(2)}),
            layout!(u8[5,6]{1,0}),
            layout!(u8[5,6]{1,0:T(2,4)}),
        ]);
    }

    /// Sub-tiles of two sizes, or along two dims, across a transpose: copies in two steps
    /// through an intermediate layout.
    #[test]
    fn sub_tiles_across_transposes(seed in any::<u32>()) {
        all_pairs!(seed; [
            layout!(u8[64,256]{1,0:T(8,128)(8,1)}),
            layout!(u8[64,256]{0,1:T(32,128)(4,1)}),
            layout!(u8[64,256]{1,0:T(32,128)(4,1)}),
            layout!(u8[64,256]{1,0}),
        ]);
    }

    /// Zero-size arrays and single elements.
    #[test]
    fn degenerate(seed in any::<u32>()) {
        all_pairs!(seed; [
            layout!(f32[0,5]{1,0}),
            layout!(f32[0,5]{0,1}),
            layout!(f32[0,5]{1,0:T(8,128)}),
        ]);
        all_pairs!(seed; [
            layout!(f32[]),
            layout!(f32[]{:T(2)}),
            layout!(f32[]{:T(8,128)(2,1)}),
        ]);
        all_pairs!(seed; [
            layout!(f32[1,1]{1,0}),
            layout!(f32[1,1]{0,1}),
            layout!(f32[1,1]{1,0:T(8,128)}),
            layout!(f32[1,1]{1,0:T(8,128)(2,1)}),
        ]);
    }
}
