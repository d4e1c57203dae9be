//! Relayout bandwidth: copies between two layouts of one 64 MiB array, for every kind of
//! layout pair (tile rows, `(2,1)` `(4,1)` `(8,1)` sub-tiles, transposed tiles, `*` tiles,
//! `E(4)` `E(2)` `E(1)` packing and unpacking, untiled permutations; 1-bit to 16-byte
//! elements), each side by side with the memcpy bound: `copy_from_slice` of the larger
//! side's bytes.
//!
//! Each case runs `ROUNDS` rounds of (evict, memcpy, evict, relayout): every copy starts from
//! DRAM after 128 MiB of unrelated reads, and the ratio is the median of the rounds' ratios, so
//! both sides of every ratio ran a few milliseconds apart (the machine is shared: absolute
//! figures drift, ratios much less). The runtime API (`CopyPlan::copy` over bytes) and the
//! typed `Tensor::copy_from` run the same engine; a few cases run through both.
//!
//! Then a baseline for the transposes: the blocked loop a user would write by hand for the
//! 2-D f32 transpose, against memcpy the same way.
//!
//! Then small tensors: `copy_from` of one 8×128 f32 tile (4 KiB) against `copy_from_slice`,
//! hot in L1, the median of `ROUNDS` timings of 20 000 copies each; and arrays of 256 KiB to
//! 4 MiB in cache, hot, each against a hot `copy_from_slice` of the same bytes (`-- cache`).
//!
//! `cargo bench --bench relayout` (add `-- NAME` to run the cases whose name contains NAME);
//! prints a markdown table. `-- --sweep` times every ordered pair of a set of layouts per
//! element type instead (3 rounds each, lowest ratio first, about 5 minutes): the check for
//! layout pairs that no case covers.

use std::hint::black_box;
use std::time::Instant;

use xla_layout::parse_array;
use xla_layout::tensor::{AlignedBuf, CopyPlan, Tensor};
use xla_layout::{StaticLayout, layout};

/// Bytes read before each copy: four times the L3 of the machine measured.
const FLUSH_BYTES: usize = 128 << 20;

/// Rounds of each case (one when cargo runs the bench as a test, without `--bench`).
const ROUNDS: usize = 11;

/// One relayout: a name, the source and destination layouts, the goal (share of memcpy).
struct Case {
    name: &'static str,
    src: &'static str,
    dst: &'static str,
    goal: f64,
}

const fn case(name: &'static str, src: &'static str, dst: &'static str, goal: f64) -> Case {
    Case {
        name,
        src,
        dst,
        goal,
    }
}

/// Goal of tiled relayouts and of untiled permutations (issue 13).
const TILED: f64 = 0.8;
const PERMUTED: f64 = 0.5;

const CASES: &[Case] = &[
    case(
        "f32 rows -> T(8,128)",
        "f32[4096,4096]{1,0}",
        "f32[4096,4096]{1,0:T(8,128)}",
        TILED,
    ),
    case(
        "f32 T(8,128) -> rows",
        "f32[4096,4096]{1,0:T(8,128)}",
        "f32[4096,4096]{1,0}",
        TILED,
    ),
    case(
        "bf16 rows -> T(8,128)(2,1)",
        "bf16[4096,8192]{1,0}",
        "bf16[4096,8192]{1,0:T(8,128)(2,1)}",
        TILED,
    ),
    case(
        "bf16 rows of 768 -> T(8,128)(2,1)",
        "bf16[40960,768]{1,0}",
        "bf16[40960,768]{1,0:T(8,128)(2,1)}",
        TILED,
    ),
    case(
        "bf16 T(8,128)(2,1) -> rows",
        "bf16[4096,8192]{1,0:T(8,128)(2,1)}",
        "bf16[4096,8192]{1,0}",
        TILED,
    ),
    case(
        "s8 rows -> T(32,128)(4,1)",
        "s8[8192,8192]{1,0}",
        "s8[8192,8192]{1,0:T(32,128)(4,1)}",
        TILED,
    ),
    case(
        "s8 T(32,128)(4,1) -> rows",
        "s8[8192,8192]{1,0:T(32,128)(4,1)}",
        "s8[8192,8192]{1,0}",
        TILED,
    ),
    case(
        "u8 rows -> T(64,128)(8,1)",
        "u8[8192,8192]{1,0}",
        "u8[8192,8192]{1,0:T(64,128)(8,1)}",
        TILED,
    ),
    case(
        "u8 T(64,128)(8,1) -> rows",
        "u8[8192,8192]{1,0:T(64,128)(8,1)}",
        "u8[8192,8192]{1,0}",
        TILED,
    ),
    case(
        "s4 E(4) rows -> T(64,128)(8,1)E(4)",
        "s4[16384,8192]{1,0:E(4)}",
        "s4[16384,8192]{1,0:T(64,128)(8,1)E(4)}",
        TILED,
    ),
    case(
        "s4 E(4) rows -> T(8,128)(2,1)E(4)",
        "s4[16384,8192]{1,0:E(4)}",
        "s4[16384,8192]{1,0:T(8,128)(2,1)E(4)}",
        TILED,
    ),
    case(
        "s4 E(4) rows -> T(8,128)E(4)",
        "s4[16384,8192]{1,0:E(4)}",
        "s4[16384,8192]{1,0:T(8,128)E(4)}",
        TILED,
    ),
    case(
        "u8 rows -> T(8,32)",
        "u8[8192,8192]{1,0}",
        "u8[8192,8192]{1,0:T(8,32)}",
        TILED,
    ),
    case(
        "u8 T(8,32) -> rows",
        "u8[8192,8192]{1,0:T(8,32)}",
        "u8[8192,8192]{1,0}",
        TILED,
    ),
    case(
        "s4 T(64,128)(8,1)E(4) -> E(4) rows",
        "s4[16384,8192]{1,0:T(64,128)(8,1)E(4)}",
        "s4[16384,8192]{1,0:E(4)}",
        TILED,
    ),
    case(
        "s4 bytes -> E(4) packed",
        "s4[8192,8192]{1,0}",
        "s4[8192,8192]{1,0:E(4)}",
        TILED,
    ),
    case(
        "s4 E(4) packed -> bytes",
        "s4[8192,8192]{1,0:E(4)}",
        "s4[8192,8192]{1,0}",
        TILED,
    ),
    case(
        "s2 bytes -> E(2) packed",
        "s2[8192,8192]{1,0}",
        "s2[8192,8192]{1,0:E(2)}",
        TILED,
    ),
    case(
        "s2 E(2) packed -> bytes",
        "s2[8192,8192]{1,0:E(2)}",
        "s2[8192,8192]{1,0}",
        TILED,
    ),
    case(
        "u1 bytes -> E(1) packed",
        "u1[8192,8192]{1,0}",
        "u1[8192,8192]{1,0:E(1)}",
        TILED,
    ),
    case(
        "u1 E(1) packed -> bytes",
        "u1[8192,8192]{1,0:E(1)}",
        "u1[8192,8192]{1,0}",
        TILED,
    ),
    case(
        "f32 rows -> {0,1:T(8,128)}",
        "f32[4096,4096]{1,0}",
        "f32[4096,4096]{0,1:T(8,128)}",
        TILED,
    ),
    case(
        "f32 {0,1:T(8,128)} -> rows",
        "f32[4096,4096]{0,1:T(8,128)}",
        "f32[4096,4096]{1,0}",
        TILED,
    ),
    case(
        "u8 {0,1:T(8,128)} -> rows",
        "u8[8192,8192]{0,1:T(8,128)}",
        "u8[8192,8192]{1,0}",
        TILED,
    ),
    case(
        "u8 rows -> {0,1:T(8,128)}",
        "u8[8192,8192]{1,0}",
        "u8[8192,8192]{0,1:T(8,128)}",
        TILED,
    ),
    case(
        "bf16 T(8,128)(2,1) -> {0,1}",
        "bf16[4096,8192]{1,0:T(8,128)(2,1)}",
        "bf16[4096,8192]{0,1}",
        TILED,
    ),
    case(
        "bf16 T(8,128)(2,1) -> {0,1:T(8,128)(2,1)}",
        "bf16[4096,8192]{1,0:T(8,128)(2,1)}",
        "bf16[4096,8192]{0,1:T(8,128)(2,1)}",
        TILED,
    ),
    case(
        "s8 T(32,128)(4,1) -> {0,1:T(32,128)(4,1)}",
        "s8[8192,8192]{1,0:T(32,128)(4,1)}",
        "s8[8192,8192]{0,1:T(32,128)(4,1)}",
        TILED,
    ),
    case(
        "s4 E(4) {1,0} -> {0,1}",
        "s4[8192,8192]{1,0:E(4)}",
        "s4[8192,8192]{0,1:E(4)}",
        TILED,
    ),
    case(
        "f32 T(8,128) -> {0,1:T(8,128)}",
        "f32[4096,4096]{1,0:T(8,128)}",
        "f32[4096,4096]{0,1:T(8,128)}",
        TILED,
    ),
    case(
        "f32 rows -> T(8,*,128)",
        "f32[128,8,16384]{2,1,0}",
        "f32[128,8,16384]{2,1,0:T(8,*,128)}",
        TILED,
    ),
    case(
        "f64 rows -> {0,1:T(8,128)}",
        "f64[2048,4096]{1,0}",
        "f64[2048,4096]{0,1:T(8,128)}",
        TILED,
    ),
    case(
        "c128 rows -> T(8,128)",
        "c128[1024,4096]{1,0}",
        "c128[1024,4096]{1,0:T(8,128)}",
        TILED,
    ),
    case(
        "f32 2-D transpose {1,0} -> {0,1}",
        "f32[4096,4096]{1,0}",
        "f32[4096,4096]{0,1}",
        PERMUTED,
    ),
    case(
        "f32 4-D reversal {3,2,1,0} -> {0,1,2,3}",
        "f32[64,64,64,64]{3,2,1,0}",
        "f32[64,64,64,64]{0,1,2,3}",
        PERMUTED,
    ),
    case(
        "f32 4-D {3,2,1,0} -> {1,0,3,2}",
        "f32[64,64,64,64]{3,2,1,0}",
        "f32[64,64,64,64]{1,0,3,2}",
        PERMUTED,
    ),
    case(
        "bf16 4-D reversal {3,2,1,0} -> {0,1,2,3}",
        "bf16[64,64,64,128]{3,2,1,0}",
        "bf16[64,64,64,128]{0,1,2,3}",
        PERMUTED,
    ),
    case(
        "u8 2-D transpose {1,0} -> {0,1}",
        "u8[8192,8192]{1,0}",
        "u8[8192,8192]{0,1}",
        PERMUTED,
    ),
    // An image batch's channels to the minor dim and back.
    case(
        "f32 NCHW -> NHWC, 3 channels",
        "f32[112,3,224,224]{3,2,1,0}",
        "f32[112,3,224,224]{1,3,2,0}",
        PERMUTED,
    ),
    case(
        "f32 NHWC -> NCHW, 3 channels",
        "f32[112,224,224,3]{3,2,1,0}",
        "f32[112,224,224,3]{2,1,3,0}",
        PERMUTED,
    ),
    case(
        "u8 NCHW -> NHWC, 3 channels",
        "u8[256,3,256,256]{3,2,1,0}",
        "u8[256,3,256,256]{1,3,2,0}",
        PERMUTED,
    ),
    case(
        "u8 NHWC -> NCHW, 3 channels",
        "u8[256,256,256,3]{3,2,1,0}",
        "u8[256,256,256,3]{2,1,3,0}",
        PERMUTED,
    ),
    case(
        "f32 3x3 conv weights {3,2,1,0} -> {1,0,3,2}",
        "f32[3,3,1024,1024]{3,2,1,0}",
        "f32[3,3,1024,1024]{1,0,3,2}",
        PERMUTED,
    ),
    case(
        "f32 transpose of 7 rows",
        "f32[7,2396745]{1,0}",
        "f32[7,2396745]{0,1}",
        PERMUTED,
    ),
    // Dims with few factors of two: blocks that overhang the array's edge.
    case(
        "f32 2-D transpose, odd dims",
        "f32[4099,4093]{1,0}",
        "f32[4099,4093]{0,1}",
        PERMUTED,
    ),
    case(
        "f32 2-D transpose, dims of 4100",
        "f32[4100,4100]{1,0}",
        "f32[4100,4100]{0,1}",
        PERMUTED,
    ),
    case(
        "bf16 [50257,768] transpose (a vocabulary)",
        "bf16[50257,768]{1,0}",
        "bf16[50257,768]{0,1}",
        PERMUTED,
    ),
    case(
        "u8 2-D transpose, odd dims",
        "u8[8191,8193]{1,0}",
        "u8[8191,8193]{0,1}",
        PERMUTED,
    ),
    // Destination rows that do not fill whole lines (4000 bytes), of whole blocks.
    case(
        "u8 2-D transpose into rows of 4000 bytes",
        "u8[4000,16384]{1,0}",
        "u8[4000,16384]{0,1}",
        PERMUTED,
    ),
    // Packed rows that do not start on bytes (an odd minor extent).
    case(
        "s4 E(4) rows of 8191 -> T(8,128)E(4)",
        "s4[8191,8191]{1,0:E(4)}",
        "s4[8191,8191]{1,0:T(8,128)E(4)}",
        TILED,
    ),
    case(
        "s4 E(4) T(8,128)E(4) -> rows of 8191",
        "s4[8191,8191]{1,0:T(8,128)E(4)}",
        "s4[8191,8191]{1,0:E(4)}",
        TILED,
    ),
    case(
        "u2 E(2) T(8,128)E(2) -> rows of 16383",
        "u2[8191,16383]{1,0:T(8,128)E(2)}",
        "u2[8191,16383]{1,0:E(2)}",
        TILED,
    ),
    case(
        "s4 E(4) rows of 8191 -> T(8,128)(2,1)E(4)",
        "s4[8191,8191]{1,0:E(4)}",
        "s4[8191,8191]{1,0:T(8,128)(2,1)E(4)}",
        TILED,
    ),
    case(
        "u2 E(2) rows of 16383 -> T(8,128)(2,1)E(2)",
        "u2[8191,16383]{1,0:E(2)}",
        "u2[8191,16383]{1,0:T(8,128)(2,1)E(2)}",
        TILED,
    ),
    case(
        "s4 E(4) 2-D transpose, odd rows",
        "s4[8001,16384]{1,0:E(4)}",
        "s4[8001,16384]{0,1:E(4)}",
        PERMUTED,
    ),
    // Tiles that overhang the array (dims that are not multiples of the tile): an interior
    // of whole tiles, then the edges.
    case(
        "f32 {0,1:T(8,128)} -> rows, tiles overhang",
        "f32[4000,4000]{0,1:T(8,128)}",
        "f32[4000,4000]{1,0}",
        TILED,
    ),
    case(
        "u8 rows -> {0,1:T(8,128)}, tiles overhang",
        "u8[8000,8000]{1,0}",
        "u8[8000,8000]{0,1:T(8,128)}",
        TILED,
    ),
    case(
        "bf16 T(8,128)(2,1) -> {0,1}, tiles overhang",
        "bf16[32768,1000]{1,0:T(8,128)(2,1)}",
        "bf16[32768,1000]{0,1}",
        TILED,
    ),
    case(
        "s4 E(4) rows -> {0,1:T(8,128)E(4)}, tiles overhang",
        "s4[8000,8000]{1,0:E(4)}",
        "s4[8000,8000]{0,1:T(8,128)E(4)}",
        TILED,
    ),
    case(
        "s4 E(4) {0,1:T(8,128)E(4)} -> rows, tiles overhang",
        "s4[8000,8000]{0,1:T(8,128)E(4)}",
        "s4[8000,8000]{1,0:E(4)}",
        TILED,
    ),
    case(
        "s4 E(4) T(8,128)(4,1) transposed, tiles overhang",
        "s4[8000,8000]{1,0:T(8,128)(4,1)E(4)}",
        "s4[8000,8000]{0,1:T(8,128)(4,1)E(4)}",
        TILED,
    ),
    case(
        "u2 E(2) T(8,128)(4,1) transposed",
        "u2[8192,16384]{1,0:T(8,128)(4,1)E(2)}",
        "u2[8192,16384]{0,1:T(8,128)(4,1)E(2)}",
        TILED,
    ),
    case(
        "u1 E(1) T(8,128)(4,1) transposed",
        "u1[8192,32768]{1,0:T(8,128)(4,1)E(1)}",
        "u1[8192,32768]{0,1:T(8,128)(4,1)E(1)}",
        TILED,
    ),
];

/// Reads one word of every cache line of `flush`, evicting the copy's buffers.
fn evict(flush: &[u64]) {
    black_box(
        flush
            .iter()
            .step_by(8)
            .fold(0u64, |acc, &x| acc.wrapping_add(x)),
    );
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Medians over the rounds: relayout and memcpy seconds, and memcpy's time over the
/// relayout's.
struct Paired {
    ours: f64,
    memcpy: f64,
    ratio: f64,
}

/// Rounds of (evict, memcpy of `bytes` bytes, evict, `copy`); with no `flush`, hot: each
/// side timed over as many back-to-back copies as move 64 MiB, nothing evicted, so that
/// both buffers stay in the caches they fit.
fn paired(rounds: usize, bytes: usize, flush: Option<&[u64]>, copy: &mut dyn FnMut()) -> Paired {
    let from: Vec<u8> = (0..bytes).map(|k| k as u8).collect();
    let from = AlignedBuf::from_slice(&from);
    let mut to = AlignedBuf::filled(bytes, 0u8);
    let reps = match flush {
        Some(_) => 1,
        None => {
            to.copy_from_slice(&from);
            copy();
            ((64 << 20) / bytes).max(1)
        }
    };
    let time = |f: &mut dyn FnMut()| {
        if let Some(flush) = flush {
            evict(flush);
        }
        let t = Instant::now();
        for _ in 0..reps {
            f();
        }
        t.elapsed().as_secs_f64() / reps as f64
    };
    let (mut ours, mut memcpy, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        let m = time(&mut || {
            to.copy_from_slice(black_box(&from));
            black_box(&to);
        });
        let k = time(copy);
        ours.push(k);
        memcpy.push(m);
        ratio.push(m / k);
    }
    Paired {
        ours: median(ours),
        memcpy: median(memcpy),
        ratio: median(ratio),
    }
}

/// A row of the table; `goal` `None` for a baseline, which has none.
fn row(name: &str, bytes: usize, p: &Paired, goal: Option<f64>) {
    let gbps = |t: f64| bytes as f64 / t / 1e9;
    let goal = match goal {
        Some(goal) if p.ratio >= goal => format!("≥ {goal}: met"),
        Some(goal) => format!("≥ {goal}: missed"),
        None => "baseline".to_string(),
    };
    println!(
        "| {name} | {} | {:.2} | {:.2} | {:.2} | {goal} |",
        bytes >> 20,
        gbps(p.ours),
        gbps(p.memcpy),
        p.ratio,
    );
}

/// Relayouts of arrays that fit the caches (256 KiB to 4 MiB), hot: what most tensors are.
const IN_CACHE: &[(&str, &str, &str)] = &[
    (
        "f32 256×256 transpose",
        "f32[256,256]{1,0}",
        "f32[256,256]{0,1}",
    ),
    (
        "f32 512×256 transpose",
        "f32[512,256]{1,0}",
        "f32[512,256]{0,1}",
    ),
    (
        "f64 256×256 transpose",
        "f64[256,256]{1,0}",
        "f64[256,256]{0,1}",
    ),
    (
        "bf16 512×512 transpose",
        "bf16[512,512]{1,0}",
        "bf16[512,512]{0,1}",
    ),
    (
        "u8 512×512 transpose",
        "u8[512,512]{1,0}",
        "u8[512,512]{0,1}",
    ),
    (
        "f32 16⁴ {3,2,1,0} -> {1,0,3,2}",
        "f32[16,16,16,16]{3,2,1,0}",
        "f32[16,16,16,16]{1,0,3,2}",
    ),
    (
        "s4 1024×1024 E(4) transpose",
        "s4[1024,1024]{1,0:E(4)}",
        "s4[1024,1024]{0,1:E(4)}",
    ),
    (
        "s4 T(8,128)E(4) -> rows of 1001",
        "s4[999,1001]{1,0:T(8,128)E(4)}",
        "s4[999,1001]{1,0:E(4)}",
    ),
    (
        "u1 {0,1:E(1)} -> T(8,128)E(1)",
        "u1[1024,4096]{0,1:E(1)}",
        "u1[1024,4096]{1,0:T(8,128)E(1)}",
    ),
    (
        "f32 1024² rows -> T(8,128)",
        "f32[1024,1024]{1,0}",
        "f32[1024,1024]{1,0:T(8,128)}",
    ),
    (
        "f32 1024² transpose",
        "f32[1024,1024]{1,0}",
        "f32[1024,1024]{0,1}",
    ),
    (
        "bf16 1024×2048 transpose",
        "bf16[1024,2048]{1,0}",
        "bf16[1024,2048]{0,1}",
    ),
    (
        "s8 2048² (4,1) transpose",
        "s8[2048,2048]{1,0:T(32,128)(4,1)}",
        "s8[2048,2048]{0,1:T(32,128)(4,1)}",
    ),
    (
        "f64 rows -> {0,1:T(8,128)} 4 MiB",
        "f64[1024,512]{1,0}",
        "f64[1024,512]{0,1:T(8,128)}",
    ),
    // Transposed tiles that overhang an array too small for panels, or whose count few
    // powers of two divide (125 tile columns): blocks of a tile's 8 rows until they went in
    // boxes along the tile columns, the slowest relayouts this table had found.
    (
        "s4 {0,1:T(8,128)E(4)} -> rows, tiles overhang",
        "s4[1000,1000]{0,1:T(8,128)E(4)}",
        "s4[1000,1000]{1,0:E(4)}",
    ),
    (
        "u8 {0,1:T(8,128)} -> rows, 125 tile columns",
        "u8[1024,1000]{0,1:T(8,128)}",
        "u8[1024,1000]{1,0}",
    ),
    (
        "u2 {0,1:T(8,128)E(2)} -> rows, 125 tile columns",
        "u2[1024,1000]{0,1:T(8,128)E(2)}",
        "u2[1024,1000]{1,0:E(2)}",
    ),
    (
        "s4 T(8,128)(4,1) transposed, tiles overhang",
        "s4[1000,1000]{1,0:T(8,128)(4,1)E(4)}",
        "s4[1000,1000]{0,1:T(8,128)(4,1)E(4)}",
    ),
];

/// [`IN_CACHE`], each against a hot `copy_from_slice` of the same bytes.
fn in_cache(rounds: usize) {
    println!("\n| relayout in cache, hot | KiB | ours GB/s | memcpy GB/s | ours / memcpy |");
    println!("|---|---|---|---|---|");
    for &(name, src, dst) in IN_CACHE {
        let (bytes, p) = measure(name, src, dst, |bytes, copy| {
            paired(rounds, bytes, None, copy)
        });
        let gbps = |t: f64| bytes as f64 / t / 1e9;
        println!(
            "| {name} | {} | {:.2} | {:.2} | {:.2} |",
            bytes >> 10,
            gbps(p.ours),
            gbps(p.memcpy),
            p.ratio
        );
    }
}

/// A runtime case: checks the round trip, then times the copy.
fn runtime(case: &Case, rounds: usize, flush: &[u64]) {
    let (bytes, p) = measure(case.name, case.src, case.dst, |bytes, copy| {
        paired(rounds, bytes, Some(flush), copy)
    });
    row(case.name, bytes, &p, Some(case.goal));
}

/// Checks the round trip of the copy from layout `src` to `dst` (but for sub-byte elements
/// unpacked into bytes, which keep only their low bits when packed back), then times it:
/// the bytes of the larger side (the memcpy's) and the medians.
fn measure(
    name: &str,
    src: &str,
    dst: &str,
    time: impl FnOnce(usize, &mut dyn FnMut()) -> Paired,
) -> (usize, Paired) {
    measure_into(name, (src, dst, 0), time)
}

/// [`measure`] into a destination `off` bytes past a line.
fn measure_into(
    name: &str,
    (src, dst, off): (&str, &str, usize),
    time: impl FnOnce(usize, &mut dyn FnMut()) -> Paired,
) -> (usize, Paired) {
    let (a, b) = (
        parse_array(src).expect("valid source"),
        parse_array(dst).expect("valid destination"),
    );
    let there = CopyPlan::new(&a, &b).expect("same array");
    let back = CopyPlan::new(&b, &a).expect("same array");
    let src: Vec<u8> = (0..there.src_bytes())
        .map(|k| (k.wrapping_mul(2_654_435_761) >> 7) as u8)
        .collect();
    let src = AlignedBuf::from_slice(&src);
    let mut dst = AlignedBuf::filled(there.dst_bytes() + off, 0u8);
    let dst = &mut dst[off..];
    let mut again = AlignedBuf::filled(there.src_bytes(), 0u8);
    there.copy(&src, dst).expect("lengths");
    back.copy(dst, &mut again).expect("lengths");
    let plan = xla_layout::Plan::new(&a).expect("a plan");
    let bits = plan.element_bits();
    if plan.physical_elements() > plan.elements() || !(plan.elements() * bits).is_multiple_of(8) {
        // A padded source (tiles that overhang the array, or sub-byte fields that end inside
        // a byte): its padding is no element's, and the copy back leaves it as it was; every
        // element comes back.
        let field = |buf: &[u8], o: usize| -> Vec<u8> {
            let at = 8 * plan.prefix_bytes() + o * bits;
            if bits >= 8 {
                buf[at / 8..at / 8 + bits / 8].to_vec()
            } else {
                vec![(buf[at / 8] >> (at % 8)) & ((1u8 << bits) - 1)]
            }
        };
        for o in plan.logical_offsets() {
            assert!(
                field(&again, o) == field(&src, o),
                "{name}: the round trip changed the element at slot {o}"
            );
        }
    } else if !name.contains("bytes ->") {
        // (Sub-byte elements in bytes keep only their low bits when packed: no round trip.)
        assert!(*again == *src, "{name}: the round trip changed the data");
    }
    // The memcpy of the larger side: unpacking writes more bytes than it reads.
    let larger = there.src_bytes().max(there.dst_bytes());
    let p = time(larger, &mut || {
        there.copy(black_box(&src), dst).expect("lengths");
    });
    (larger, p)
}

/// Layouts whose every ordered pair `--sweep` times, per element type and dims: plain and
/// transposed, tiled and transposed tiles, sub-tiles, packed.
const SWEEP: &[(&str, &str, &[&str])] = &[
    (
        "u8",
        "[8192,8192]",
        &[
            "{1,0}",
            "{0,1}",
            "{1,0:T(8,128)}",
            "{0,1:T(8,128)}",
            "{1,0:T(32,128)(4,1)}",
            "{0,1:T(32,128)(4,1)}",
            "{1,0:T(8,128)(8,1)}",
        ],
    ),
    (
        "bf16",
        "[4096,8192]",
        &[
            "{1,0}",
            "{0,1}",
            "{1,0:T(8,128)}",
            "{0,1:T(8,128)}",
            "{1,0:T(8,128)(2,1)}",
            "{0,1:T(8,128)(2,1)}",
            "{1,0:T(16,128)(2,1)}",
        ],
    ),
    (
        "f32",
        "[4096,4096]",
        &[
            "{1,0}",
            "{0,1}",
            "{1,0:T(8,128)}",
            "{0,1:T(8,128)}",
            "{1,0:T(8,128)(2,1)}",
        ],
    ),
    (
        "f64",
        "[2048,4096]",
        &["{1,0}", "{0,1}", "{1,0:T(8,128)}", "{0,1:T(8,128)}"],
    ),
    (
        "s4",
        "[8192,16384]",
        &[
            "{1,0:E(4)}",
            "{0,1:E(4)}",
            "{1,0:T(8,128)E(4)}",
            "{0,1:T(8,128)E(4)}",
            "{1,0:T(8,128)(2,1)E(4)}",
            "{0,1:T(8,128)(2,1)E(4)}",
            "{1,0:T(32,128)(4,1)E(4)}",
        ],
    ),
    (
        "u2",
        "[8192,16384]",
        &[
            "{1,0:E(2)}",
            "{0,1:E(2)}",
            "{1,0:T(8,128)E(2)}",
            "{1,0:T(8,128)(2,1)E(2)}",
        ],
    ),
    (
        "u1",
        "[8192,32768]",
        &[
            "{1,0:E(1)}",
            "{0,1:E(1)}",
            "{1,0:T(8,128)E(1)}",
            "{1,0:T(8,128)(2,1)E(1)}",
        ],
    ),
];

/// Relayouts into a destination 16 bytes past a line, where a large `Vec<u8>` from the
/// system allocator starts, each beside the same into one on a line.
const OFF_LINE: &[(&str, &str, &str)] = &[
    (
        "f32 rows -> T(8,128)",
        "f32[4096,4096]{1,0}",
        "f32[4096,4096]{1,0:T(8,128)}",
    ),
    (
        "f32 2-D transpose",
        "f32[4096,4096]{1,0}",
        "f32[4096,4096]{0,1}",
    ),
    (
        "bf16 T(8,128)(2,1) -> rows",
        "bf16[4096,8192]{1,0:T(8,128)(2,1)}",
        "bf16[4096,8192]{1,0}",
    ),
    (
        "u8 2-D transpose",
        "u8[8192,8192]{1,0}",
        "u8[8192,8192]{0,1}",
    ),
    (
        "s4 E(4) rows -> T(8,128)(2,1)E(4)",
        "s4[8192,16384]{1,0:E(4)}",
        "s4[8192,16384]{1,0:T(8,128)(2,1)E(4)}",
    ),
    (
        "s4 E(4) {1,0} -> {0,1}",
        "s4[8192,16384]{1,0:E(4)}",
        "s4[8192,16384]{0,1:E(4)}",
    ),
];

/// [`OFF_LINE`]: each relayout into a destination 16 bytes past a line, then on one.
fn off_line(rounds: usize, flush: &[u64]) {
    println!(
        "\n| relayout, destination 16 bytes past a line | MiB | ours GB/s | memcpy GB/s | ours / memcpy | on a line: ours / memcpy |"
    );
    println!("|---|---|---|---|---|---|");
    for &(name, src, dst) in OFF_LINE {
        let [(bytes, off), (_, on)] = [16, 0].map(|at| {
            measure_into(name, (src, dst, at), |bytes, copy| {
                paired(rounds, bytes, Some(flush), copy)
            })
        });
        let gbps = |t: f64| bytes as f64 / t / 1e9;
        println!(
            "| {name} | {} | {:.2} | {:.2} | {:.2} | {:.2} |",
            bytes >> 20,
            gbps(off.ours),
            gbps(off.memcpy),
            off.ratio,
            on.ratio
        );
    }
}

/// `--sweep`: every ordered pair of [`SWEEP`]'s layouts, lowest ratio first, the pairs below
/// 0.5 of memcpy marked: where the next relayout cliff would show.
fn sweep(rounds: usize, flush: &[u64]) {
    let mut rows = Vec::new();
    for (ty, dims, layouts) in SWEEP {
        for a in *layouts {
            for b in layouts.iter().filter(|b| *b != a) {
                let (src, dst) = (format!("{ty}{dims}{a}"), format!("{ty}{dims}{b}"));
                let (bytes, p) = measure(&src, &src, &dst, |bytes, copy| {
                    paired(rounds, bytes, Some(flush), copy)
                });
                rows.push((format!("{src} -> {b}"), bytes, p));
            }
        }
    }
    rows.sort_by(|x, y| x.2.ratio.total_cmp(&y.2.ratio));
    for (name, bytes, p) in &rows {
        row(name, *bytes, p, Some(0.5));
    }
}

/// The transpose a user would write by hand: 32×32 blocks of an `n × n` f32 matrix, row by
/// row within a block (the baseline of the transpose rows).
fn hand_transpose(src: &[f32], dst: &mut [f32], n: usize) {
    const B: usize = 32;
    for bi in (0..n).step_by(B) {
        for bj in (0..n).step_by(B) {
            for i in bi..bi + B {
                for j in bj..bj + B {
                    dst[j * n + i] = src[i * n + j];
                }
            }
        }
    }
}

/// [`hand_transpose`] of the 2-D f32 transpose case, checked against the engine's result.
fn hand(rounds: usize, flush: &[u64]) {
    const N: usize = 4096;
    let src: Vec<f32> = (0..N * N).map(|k| k as f32).collect();
    let mut dst = vec![0f32; N * N];
    hand_transpose(&src, &mut dst, N);
    let plan = CopyPlan::new(
        &parse_array("f32[4096,4096]{1,0}").expect("valid"),
        &parse_array("f32[4096,4096]{0,1}").expect("valid"),
    )
    .expect("same array");
    let bytes: Vec<u8> = src.iter().flat_map(|x| x.to_le_bytes()).collect();
    let mut ours = vec![0u8; bytes.len()];
    plan.copy(&bytes, &mut ours).expect("lengths");
    let theirs: Vec<u8> = dst.iter().flat_map(|x| x.to_le_bytes()).collect();
    assert!(
        ours == theirs,
        "the hand-written transpose differs from the engine's"
    );
    let p = paired(rounds, N * N * 4, Some(flush), &mut || {
        hand_transpose(black_box(&src), &mut dst, N);
        black_box(&dst);
    });
    row(
        "hand-written f32 2-D transpose (32×32 blocks)",
        N * N * 4,
        &p,
        None,
    );
}

type RowsF32 = layout!(f32[4096,4096]{1,0});
type TilesF32 = layout!(f32[4096,4096]{1,0:T(8,128)});
type ColTilesF32 = layout!(f32[4096,4096]{0,1:T(8,128)});
type RowsBf16 = layout!(bf16[4096,8192]{1,0});
type TilesBf16 = layout!(bf16[4096,8192]{1,0:T(8,128)(2,1)});

/// A typed case: `Tensor::copy_from` into `D` from `S`.
fn typed<D, S>(name: &str, rounds: usize, flush: &[u64])
where
    D: StaticLayout,
    S: StaticLayout<Elem = D::Elem, Dims = D::Dims>,
{
    let src = Tensor::<S>::zeros();
    let mut dst = Tensor::<D>::zeros();
    let p = paired(rounds, S::SIZE_BYTES, Some(flush), &mut || {
        dst.copy_from(black_box(&src));
    });
    row(name, S::SIZE_BYTES, &p, Some(TILED));
}

type TileRows = layout!(f32[8,128]{1,0});
type Tile = layout!(f32[8,128]{1,0:T(8,128)});
type TileCols = layout!(f32[8,128]{0,1});

/// Small tensors: ns per 4 KiB copy, hot.
fn small<D, S>(name: &str, rounds: usize)
where
    D: StaticLayout<Elem = f32, Word = f32>,
    S: StaticLayout<Elem = f32, Word = f32, Dims = D::Dims>,
{
    const COPIES: usize = 20_000;
    let values: Vec<f32> = (0..S::ELEMENTS).map(|k| k as f32).collect();
    let src = Tensor::<S>::from_logical(&values).expect("values");
    let mut dst = Tensor::<D>::zeros();
    let mut raw = vec![0f32; S::STORAGE_WORDS];
    let (mut ours, mut memcpy, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        let t = Instant::now();
        for _ in 0..COPIES {
            raw.copy_from_slice(black_box(src.as_slice()));
            black_box(&raw);
        }
        let m = t.elapsed().as_secs_f64() / COPIES as f64;
        let t = Instant::now();
        for _ in 0..COPIES {
            dst.copy_from(black_box(&src));
            black_box(&dst);
        }
        let k = t.elapsed().as_secs_f64() / COPIES as f64;
        ours.push(k);
        memcpy.push(m);
        ratio.push(k / m);
    }
    assert_eq!(dst.to_logical(), values);
    let (k, m, r) = (median(ours), median(memcpy), median(ratio));
    println!(
        "| {name} | {:.0} | {:.0} | {r:.2} | ≤ 3: {} |",
        k * 1e9,
        m * 1e9,
        if r <= 3.0 { "met" } else { "missed" }
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds = if args.iter().any(|a| a == "--bench") {
        ROUNDS
    } else {
        1
    };
    let filter: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    let flush: Vec<u64> = (0..FLUSH_BYTES / 8).map(|k| k as u64).collect();

    println!("\n| relayout | MiB | ours GB/s | memcpy GB/s | ours / memcpy | goal |");
    println!("|---|---|---|---|---|---|");
    if args.iter().any(|a| a == "--sweep") {
        return sweep(rounds.min(3), &flush);
    }
    for case in CASES.iter().filter(|c| wanted(c.name)) {
        runtime(case, rounds, &flush);
    }
    if wanted("hand") {
        hand(rounds, &flush);
    }
    if wanted("typed") {
        typed::<TilesF32, RowsF32>("typed f32 rows -> T(8,128)", rounds, &flush);
        typed::<RowsF32, TilesF32>("typed f32 T(8,128) -> rows", rounds, &flush);
        typed::<ColTilesF32, RowsF32>("typed f32 rows -> {0,1:T(8,128)}", rounds, &flush);
        typed::<TilesBf16, RowsBf16>("typed bf16 rows -> T(8,128)(2,1)", rounds, &flush);
        typed::<RowsBf16, TilesBf16>("typed bf16 T(8,128)(2,1) -> rows", rounds, &flush);
    }
    if wanted("off a line") {
        off_line(rounds, &flush);
    }
    if wanted("small") {
        println!("\n| 4 KiB copy_from, hot | ns | copy_from_slice ns | ratio | goal |");
        println!("|---|---|---|---|---|");
        small::<Tile, TileRows>("small f32[8,128] rows -> T(8,128)", rounds);
        small::<TileRows, TileCols>("small f32[8,128] {0,1} -> rows", rounds);
    }
    if wanted("cache") {
        in_cache(rounds);
    }
}
