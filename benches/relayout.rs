//! Relayout bandwidth: `Tensor::copy_from` between row-major and TPU-tiled layouts of
//! 4096×4096 arrays, side by side with the memcpy bound (`copy_from_slice` of the same
//! bytes) and a naive per-element loop (`dst[Dst::offset(i)] = src[Src::offset(i)]`).
//!
//! Two measurements of each direction:
//! * *hot*: criterion's loop repeating one copy on the same buffers. A repeated 32 MiB
//!   memcpy keeps part of its source in a 32 MiB L3, so the bf16 bound is partly a cache
//!   bound;
//! * *cold, paired*: rounds of (evict, memcpy, evict, `copy_from`), each copy starting from
//!   DRAM after 128 MiB of unrelated reads; the ratio is the median of the rounds' ratios,
//!   so both sides of every ratio ran a few milliseconds apart.
//!
//! `cargo bench --bench relayout`; prints a table of GB/s (bytes of one buffer per second)
//! and ratios after criterion's own report.

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant, SystemTime};

use criterion::{Criterion, Throughput};
use half::bf16;
use xla_layout::tensor::Tensor;
use xla_layout::{StaticLayout, layout};

type RowsF32 = layout!(f32[4096,4096]{1,0});
type TilesF32 = layout!(f32[4096,4096]{1,0:T(8,128)});
type RowsBf16 = layout!(bf16[4096,4096]{1,0});
type TilesBf16 = layout!(bf16[4096,4096]{1,0:T(8,128)(2,1)});

/// The three ways to move `src` into `dst`, measured in one criterion group.
const VARIANTS: [&str; 3] = ["copy_from", "memcpy", "naive"];

/// Bytes read before each cold copy: four times the L3 of the machine measured.
const FLUSH_BYTES: usize = 128 << 20;

/// Rounds of the cold, paired measurement of each direction (one when criterion runs the
/// benches as tests, without `--bench`).
const ROUNDS: usize = 25;

/// Reads one word of every cache line of `flush`, evicting the copy's buffers.
fn evict(flush: &[u64]) {
    black_box(
        flush
            .iter()
            .step_by(8)
            .fold(0u64, |acc, &x| acc.wrapping_add(x)),
    );
}

/// Copies element by element through the two layouts' `offset`, in logical order.
fn naive<E: Copy, D, S>(dst: &mut [E], src: &[E])
where
    D: StaticLayout<Index = [usize; 2], Elem = E, Word = E>,
    S: StaticLayout<Index = [usize; 2], Elem = E, Word = E>,
{
    let [rows, cols] = [D::DIMS[0], D::DIMS[1]];
    for i in 0..rows {
        for j in 0..cols {
            dst[D::offset([i, j])] = src[S::offset([i, j])];
        }
    }
}

/// Medians of the cold, paired rounds: `copy_from` and memcpy seconds, and memcpy's time
/// over `copy_from`'s.
struct Cold {
    kernel: f64,
    memcpy: f64,
    ratio: f64,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// One direction: `copy_from`, memcpy and the naive loop into a `D` tensor from `src`, hot
/// under criterion, then cold and paired.
fn direction<E, D, S>(c: &mut Criterion, group: &str, src: &Tensor<S>, flush: &[u64]) -> Cold
where
    E: Copy + Default + PartialEq + std::fmt::Debug,
    D: StaticLayout<Index = [usize; 2], Elem = E, Word = E>,
    S: StaticLayout<Index = [usize; 2], Elem = E, Word = E, Dims = D::Dims>,
{
    let mut dst = Tensor::<D>::zeros();
    let mut reference = Tensor::<D>::zeros();
    dst.copy_from(src);
    naive::<E, D, S>(reference.as_mut_slice(), src.as_slice());
    assert!(
        dst.as_slice() == reference.as_slice(),
        "{group}: copy_from differs from the naive loop"
    );
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::BytesDecimal(D::SIZE_BYTES as u64));
    g.bench_function(VARIANTS[0], |b| {
        b.iter(|| dst.copy_from(black_box(src)));
    });
    g.bench_function(VARIANTS[1], |b| {
        b.iter(|| {
            dst.as_mut_slice()
                .copy_from_slice(black_box(src.as_slice()))
        });
    });
    g.bench_function(VARIANTS[2], |b| {
        b.iter(|| naive::<E, D, S>(dst.as_mut_slice(), black_box(src.as_slice())));
    });
    g.finish();

    let mut timed = |copy: &mut dyn FnMut(&mut Tensor<D>)| {
        evict(flush);
        let t = Instant::now();
        copy(&mut dst);
        t.elapsed().as_secs_f64()
    };
    let rounds = if std::env::args().any(|a| a == "--bench") {
        ROUNDS
    } else {
        1
    };
    let (mut kernel, mut memcpy, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        let m = timed(&mut |d| d.as_mut_slice().copy_from_slice(black_box(src.as_slice())));
        let k = timed(&mut |d| d.copy_from(black_box(src)));
        kernel.push(k);
        memcpy.push(m);
        ratio.push(m / k);
    }
    Cold {
        kernel: median(kernel),
        memcpy: median(memcpy),
        ratio: median(ratio),
    }
}

fn main() {
    let start = SystemTime::now();
    let mut c = common::criterion(Duration::from_secs(3));
    let n = RowsF32::ELEMENTS;
    let flush: Vec<u64> = (0..FLUSH_BYTES / 8).map(|k| k as u64).collect();
    let mut cold = Vec::new();

    let rows = Tensor::<RowsF32>::from_logical(&(0..n).map(|k| k as f32).collect::<Vec<_>>())
        .expect("4096×4096 values");
    let mut tiles = Tensor::<TilesF32>::zeros();
    tiles.copy_from(&rows);
    cold.push(direction::<f32, TilesF32, RowsF32>(
        &mut c,
        "f32-rows-to-T8x128",
        &rows,
        &flush,
    ));
    cold.push(direction::<f32, RowsF32, TilesF32>(
        &mut c,
        "f32-T8x128-to-rows",
        &tiles,
        &flush,
    ));
    drop((rows, tiles));

    let rows = Tensor::<RowsBf16>::from_logical(
        &(0..n)
            .map(|k| bf16::from_bits(k as u16 & 0x3fff))
            .collect::<Vec<_>>(),
    )
    .expect("4096×4096 values");
    let mut tiles = Tensor::<TilesBf16>::zeros();
    tiles.copy_from(&rows);
    cold.push(direction::<bf16, TilesBf16, RowsBf16>(
        &mut c,
        "bf16-rows-to-T8x128x2x1",
        &rows,
        &flush,
    ));
    cold.push(direction::<bf16, RowsBf16, TilesBf16>(
        &mut c,
        "bf16-T8x128x2x1-to-rows",
        &tiles,
        &flush,
    ));

    c.final_summary();
    report(start, &cold);
}

/// Prints GB/s of each variant and `copy_from`'s share of memcpy: criterion's medians from
/// this run (hot), then the paired rounds (cold).
fn report(start: SystemTime, cold: &[Cold]) {
    // Each direction with its bytes and the share of memcpy bandwidth it aims at.
    let groups = [
        ("f32-rows-to-T8x128", RowsF32::SIZE_BYTES, 0.9),
        ("f32-T8x128-to-rows", RowsF32::SIZE_BYTES, 0.9),
        ("bf16-rows-to-T8x128x2x1", RowsBf16::SIZE_BYTES, 0.7),
        ("bf16-T8x128x2x1-to-rows", RowsBf16::SIZE_BYTES, 0.7),
    ];
    println!(
        "\n| direction | hot copy_from GB/s | hot memcpy GB/s | hot copy_from / memcpy | \
         naive GB/s | copy_from / naive | cold copy_from GB/s | cold memcpy GB/s | \
         cold copy_from / memcpy | goal: hot, cold |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let verdict = |share: f64, goal: f64| if share >= goal { "met" } else { "missed" };
    for ((group, bytes, goal), cold) in groups.into_iter().zip(cold) {
        let gbps = |t: f64| bytes as f64 / t;
        let (hot, hot_verdict) = match VARIANTS.map(|v| common::median_ns(group, v, start)) {
            [Some(kernel), Some(memcpy), Some(naive)] => (
                format!(
                    "{:.2} | {:.2} | {:.0}% | {:.2} | {:.1}×",
                    gbps(kernel),
                    gbps(memcpy),
                    100.0 * memcpy / kernel,
                    gbps(naive),
                    naive / kernel
                ),
                verdict(memcpy / kernel, goal),
            ),
            _ => ("- | - | - | - | -".to_owned(), "-"),
        };
        println!(
            "| {group} | {hot} | {:.2} | {:.2} | {:.0}% | ≥ {:.0}%: {hot_verdict}, {} |",
            gbps(cold.kernel * 1e9),
            gbps(cold.memcpy * 1e9),
            100.0 * cold.ratio,
            100.0 * goal,
            verdict(cold.ratio, goal)
        );
    }
}
