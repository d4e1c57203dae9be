//! A transpose as a relayout: copying an array from `{1,0}` (row-major) to `{0,1}`
//! (column-major) leaves in memory the row-major transpose, which is then read as the
//! `[cols, rows]` array with no further copy. Done directly and through a tiled
//! intermediate, and checked against a plain loop.
//!
//! ```sh
//! cargo run --example transpose
//! ```

use std::time::{Duration, Instant};

use xla_layout::tensor::Tensor;
use xla_layout::{Layout, StaticLayout, layout};

type Rows = layout!(f32[256,384]{1,0});
type Cols = layout!(f32[256,384]{0,1});
type TiledCols = layout!(f32[256,384]{0,1:T(8,128)});
/// The transpose, row-major: the storage of `Cols` exactly. Not a bitcast of `Cols` in
/// XLA's sense (that keeps the logical row-major order), so the buffer is re-read with
/// `from_storage`.
type Transposed = layout!(f32[384,256]{1,0});

const R: usize = Rows::DIMS[0];
const C: usize = Rows::DIMS[1];

fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed())
}

/// Runs the example; panics if any check fails.
pub fn main() {
    let data: Vec<f32> = (0..R * C).map(|k| k as f32).collect();
    let x = Tensor::<Rows>::from_logical(&data).expect("R*C values");

    // The reference: a plain loop on slices.
    let (expected, loop_time) = timed(|| {
        let mut t = vec![0.0f32; R * C];
        for i in 0..R {
            for j in 0..C {
                t[j * R + i] = data[i * C + j];
            }
        }
        t
    });

    // 1. One relayout {1,0} -> {0,1}.
    let (cols, direct_time) = timed(|| {
        let mut cols = Tensor::<Cols>::zeros();
        cols.copy_from(&x);
        cols
    });
    assert_eq!(cols.as_slice(), &expected[..], "direct relayout");

    // 2. Through 8x128 tiles of the column-major layout: {1,0} -> {0,1:T(8,128)} -> {0,1}.
    let (via_tiles, tiled_time) = timed(|| {
        let mut tiled = Tensor::<TiledCols>::zeros();
        tiled.copy_from(&x);
        let mut cols = Tensor::<Cols>::zeros();
        cols.copy_from(&tiled);
        cols
    });
    assert_eq!(via_tiles.as_slice(), &expected[..], "relayout via tiles");

    // The column-major storage read as the transposed array.
    let t = Tensor::<Transposed>::from_storage(cols.as_slice()).expect("same storage size");
    for i in 0..R {
        for j in 0..C {
            assert_eq!(t[[j, i]], x[[i, j]], "t[{j},{i}]");
        }
    }

    println!("transpose of {} as a relayout", Rows::CANONICAL);
    for (name, time) in [
        ("plain loop                ", loop_time),
        ("{1,0} -> {0,1}            ", direct_time),
        ("{1,0} -> T(8,128) -> {0,1}", tiled_time),
    ] {
        println!("  {name} {:8.3} ms", time.as_secs_f64() * 1e3);
    }
    println!(
        "verified  both relayouts equal the plain loop's transpose ({} elements), and {} \
         read from the {{0,1}} storage holds x[i,j] at [j,i]",
        R * C,
        Transposed::CANONICAL
    );
}
