//! The TPU's bf16 tiling `T(8,128)(2,1)`, end to end: fill a tiled buffer from row-major
//! data, show where elements live (index -> offset, and the closed form of the offset),
//! copy back with `copy_from`, and check every element against the runtime `Plan`.
//!
//! ```sh
//! cargo run --example tpu_tiles
//! ```

use half::bf16;
use xla_layout::tensor::Tensor;
use xla_layout::{Layout, Plan, StaticLayout, layout};

/// The seed's activation layout: too big to allocate here (320 MiB), but its offsets are
/// constants and straight-line arithmetic.
type Seed = layout!(bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)});
/// The same tiling scaled down: two 8×128 tiles down, two across.
type Tpu = layout!(bf16[16,256]{1,0:T(8,128)(2,1)});
type Rows = layout!(bf16[16,256]{1,0});

/// A value that bf16 holds exactly (8 significant bits), changing along both dimensions.
fn value(i: usize, j: usize) -> bf16 {
    bf16::from_f32(((i * 37 + j) % 256) as f32 - 128.0)
}

/// Runs the example; panics if any check fails.
pub fn main() {
    let (rows, cols) = (Tpu::DIMS[0], Tpu::DIMS[1]);
    let data: Vec<bf16> = (0..rows * cols)
        .map(|k| value(k / cols, k % cols))
        .collect();
    let plan = Plan::new(&Tpu::array_shape()).expect("a layout! type is a valid layout");
    let expr = plan.offset_expr();

    println!("layout    {}", Tpu::CANONICAL);
    println!(
        "elements  {} logical, {} slots, {} bytes",
        Tpu::ELEMENTS,
        Tpu::PHYSICAL_ELEMENTS,
        Tpu::SIZE_BYTES
    );
    let stages: Vec<String> = plan
        .tiling_stages()
        .iter()
        .map(|s| format!("{s:?}"))
        .collect();
    println!("tiling    {}", stages.join(" -> "));
    println!("offset    {expr}");

    // Fill the tiled buffer from row-major data with a relayout.
    let src = Tensor::<Rows>::from_logical(&data).expect("16*256 values");
    let mut tiled = Tensor::<Tpu>::zeros();
    tiled.copy_from(&src);

    println!("\nwhere elements live (index -> offset):");
    let probes = [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
        [2, 0],
        [0, 127],
        [0, 128],
        [8, 0],
    ];
    for index in probes {
        let offset = Tpu::offset(index);
        assert_eq!(offset, expr.eval(&index), "closed form at {index:?}");
        assert_eq!(offset, plan.offset(&index), "plan at {index:?}");
        assert_eq!(Tpu::index_of(offset), Some(index), "inverse at {offset}");
        assert_eq!(tiled.as_slice()[offset], data[index[0] * cols + index[1]]);
        println!("  {index:?} -> {offset}");
    }
    let first: Vec<String> = tiled
        .iter_physical()
        .take(6)
        .map(|(index, _)| format!("{index:?}"))
        .collect();
    println!(
        "memory order starts {} ...: the (2,1) sub-tile pairs rows 0 and 1",
        first.join(" ")
    );

    // Every element at the offset the runtime plan gives, then back to row-major.
    let mut checked = 0;
    for i in 0..rows {
        for j in 0..cols {
            assert_eq!(tiled.as_slice()[plan.offset(&[i, j])], data[i * cols + j]);
            checked += 1;
        }
    }
    let mut back = Tensor::<Rows>::zeros();
    back.copy_from(&tiled);
    assert_eq!(back.as_slice(), &data[..], "round trip through the tiles");
    assert_eq!(tiled.to_logical(), data);

    // The seed layout: constants and offsets only.
    assert_eq!(Seed::SIZE_BYTES, 8 * 1280 * 16384 * 2);
    assert_eq!(Seed::offset([0, 0, 8, 0]), 131_072);
    println!(
        "\nseed      {}: {} bytes in memory space {}, [0,0,8,0] -> {}",
        Seed::CANONICAL,
        Seed::SIZE_BYTES,
        Seed::MEMORY_SPACE,
        Seed::offset([0, 0, 8, 0])
    );
    println!(
        "verified  {checked} elements at the plan's offsets, {} probes against the closed form \
         and inverse, row-major -> tiled -> row-major identical",
        probes.len()
    );
}
