//! Probes for `tests/straight_line.rs`: each `probe_*` function is one static layout's
//! `offset`, with the index entries as separate arguments so that nothing is known about them.
//! The test builds this crate in release with `--emit asm` and checks that every probe is
//! straight-line code: no jumps, calls, divisions or loops, and exactly one `ret` at the end.
//! `hand_tpu` is the TPU layout's closed form (spec §8.3) written by hand; `probe_tpu` must not
//! take more instructions than it.
//!
//! The probes are plain Rust with no `unsafe` code; `#[unsafe(no_mangle)]` only keeps the
//! symbol names readable in the assembly.

use xla_layout::{Layout, StaticLayout};
use xla_layout::layout;

/// Untiled row-major (the default layout).
#[unsafe(no_mangle)]
pub fn probe_row_major(i0: usize, i1: usize, i2: usize) -> usize {
    <layout!(f32[3,5,7])>::offset([i0, i1, i2])
}

/// Untiled column-major.
#[unsafe(no_mangle)]
pub fn probe_col_major(i0: usize, i1: usize, i2: usize) -> usize {
    <layout!(f32[3,5,7]{0,1,2})>::offset([i0, i1, i2])
}

/// Untiled, odd dims, neither row- nor column-major.
#[unsafe(no_mangle)]
pub fn probe_permuted(i0: usize, i1: usize, i2: usize) -> usize {
    <layout!(f32[3,7,11]{1,2,0})>::offset([i0, i1, i2])
}

/// The TPU activation: two tile levels and a memory space (spec §8.3).
#[unsafe(no_mangle)]
pub fn probe_tpu(i0: usize, i1: usize, i2: usize, i3: usize) -> usize {
    <layout!(bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)})>::offset([i0, i1, i2, i3])
}

/// The closed form of `probe_tpu`'s layout from spec §8.3, written by hand.
#[unsafe(no_mangle)]
pub fn hand_tpu(i0: usize, _i1: usize, i2: usize, i3: usize) -> usize {
    i0 * 20971520
        + (i2 >> 3) * 131072
        + (i3 >> 7) * 1024
        + ((i2 & 7) >> 1) * 256
        + (i3 & 127) * 2
        + (i2 & 1)
}

/// Figure 2 of docs/tiled_layout.md: a tile re-tiled by `(2,1)`.
#[unsafe(no_mangle)]
pub fn probe_figure2(i0: usize, i1: usize) -> usize {
    <layout!(f32[4,8]{1,0:T(2,4)(2,1)})>::offset([i0, i1])
}

/// Three tile levels on a 1-D array (layout_util_test.cc).
#[unsafe(no_mangle)]
pub fn probe_three_levels(i0: usize) -> usize {
    <layout!(bf16[2048]{0:T(1024)(128)(2,1)})>::offset([i0])
}

/// `*` combines: the doc's example (spec §8.5), with a non-power-of-two tile.
#[unsafe(no_mangle)]
pub fn probe_combine(i0: usize, i1: usize, i2: usize, i3: usize, i4: usize) -> usize {
    <layout!(f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)})>::offset([i0, i1, i2, i3, i4])
}

/// `*` merging a dim into a non-power-of-two one, then a power-of-two tile (spec §8.5).
#[unsafe(no_mangle)]
pub fn probe_combine_minor(i0: usize, i1: usize, i2: usize) -> usize {
    <layout!(bf16[2,3,1004]{2,1,0:T(2,*,128)})>::offset([i0, i1, i2])
}

/// Non-power-of-two tiles and dims: divisions by constants become multiplications.
#[unsafe(no_mangle)]
pub fn probe_odd_tiles(i0: usize, i1: usize) -> usize {
    <layout!(f32[100,37]{1,0:T(3,5)})>::offset([i0, i1])
}

/// Non-power-of-two tiles at two levels, column-major.
#[unsafe(no_mangle)]
pub fn probe_odd_two_levels(i0: usize, i1: usize) -> usize {
    <layout!(f32[100,37]{0,1:T(6,10)(3,5)})>::offset([i0, i1])
}

/// A tile of higher rank than the array (spec §8.4): i ↦ 2i.
#[unsafe(no_mangle)]
pub fn probe_tile_rank_up(i0: usize) -> usize {
    <layout!(u8[5]{0:T(2,1)})>::offset([i0])
}

/// A tiled scalar: the offset is the constant 0.
#[unsafe(no_mangle)]
pub fn probe_scalar_tiled() -> usize {
    <layout!(f32[]{:T(256)})>::offset([])
}

/// Rank 8 with an interleaved minor_to_major and a 2-D tile.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub fn probe_rank8(
    i0: usize,
    i1: usize,
    i2: usize,
    i3: usize,
    i4: usize,
    i5: usize,
    i6: usize,
    i7: usize,
) -> usize {
    <layout!(f32[2,3,4,5,6,7,8,9]{0,2,4,6,1,3,5,7:T(4,8)})>::offset([
        i0, i1, i2, i3, i4, i5, i6, i7,
    ])
}

/// Packed 4-bit elements, `E(4)`, with two tile levels (shape_util_test.cc).
#[unsafe(no_mangle)]
pub fn probe_s4_packed(i0: usize, i1: usize) -> usize {
    <layout!(s4[9216,6144]{1,0:T(64,128)(8,1)E(4)})>::offset([i0, i1])
}

/// Everything at once: tile rank above array rank, `*`, a re-tile, `L` and `E(4)`.
#[unsafe(no_mangle)]
pub fn probe_u4_mixed(i0: usize, i1: usize) -> usize {
    <layout!(u4[6,10]{0,1:T(3,*,4)(2,1)L(64)E(4)})>::offset([i0, i1])
}

/// Legacy padded dimensions (the seed's example).
#[unsafe(no_mangle)]
pub fn probe_legacy_padded(i0: usize, i1: usize) -> usize {
    <layout!(f32[2,3]{0,1}, padded = [3,5], padding = zero)>::offset([i0, i1])
}

/// The TPU activation with a dynamic batch: the batch is the most major dimension, so no
/// stride depends on it and the offset needs no run-time multiply.
pub type DynBatch = layout!(bf16[?,1280]{1,0:T(8,128)(2,1)});

/// `DynBatch`'s offset at run-time extents.
#[unsafe(no_mangle)]
pub fn probe_dyn_batch(e: &<DynBatch as Layout>::Extents, i0: usize, i1: usize) -> usize {
    DynBatch::offset_in(e, [i0, i1])
}

/// A bounded batch, `<=N`: as `probe_dyn_batch`, no run-time multiply.
#[unsafe(no_mangle)]
pub fn probe_dyn_bounded(
    e: &<layout!(f32[<=4096,128]{1,0:T(8,128)}) as Layout>::Extents,
    i0: usize,
    i1: usize,
) -> usize {
    <layout!(f32[<=4096,128]{1,0:T(8,128)})>::offset_in(e, [i0, i1])
}

/// A dynamic minor dimension: the stride of a row of tiles is `ceil(n/128)·1024`, one
/// run-time multiply.
pub type DynMinor = layout!(f32[16,?]{1,0:T(8,128)});

/// `DynMinor`'s offset at run-time extents.
#[unsafe(no_mangle)]
pub fn probe_dyn_minor(e: &<DynMinor as Layout>::Extents, i0: usize, i1: usize) -> usize {
    DynMinor::offset_in(e, [i0, i1])
}

/// `probe_dyn_minor`'s closed form written by hand, the row-of-tiles stride given.
#[unsafe(no_mangle)]
pub fn hand_dyn_minor(stride: usize, i0: usize, i1: usize) -> usize {
    (i0 >> 3) * stride + (i1 >> 7) * 1024 + (i0 & 7) * 128 + (i1 & 127)
}

/// Two dynamic dimensions, untiled: `i0·(3·n2) + i1·n2 + i2`, two run-time multiplies.
pub type DynTwo = layout!(f32[?,3,?]{2,1,0});

/// `DynTwo`'s offset at run-time extents.
#[unsafe(no_mangle)]
pub fn probe_dyn_two(e: &<DynTwo as Layout>::Extents, i0: usize, i1: usize, i2: usize) -> usize {
    DynTwo::offset_in(e, [i0, i1, i2])
}

/// `probe_dyn_two`'s closed form written by hand, the two strides given.
#[unsafe(no_mangle)]
pub fn hand_dyn_two(s0: usize, s1: usize, i0: usize, i1: usize, i2: usize) -> usize {
    i0 * s0 + i1 * s1 + i2
}
