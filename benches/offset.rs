//! Offset computation over a full traversal: every element of a 1024×1024 array visited in
//! logical row-major order and loaded through its offset, summing the bits so that nothing is
//! optimised away. Side by side: the `layout!` type's `offset`, a hand-written closed form,
//! layout-core's runtime `Plan::offset`, its batch forms `Plan::offsets` (one row of indices
//! at a time) and `Plan::offsets_along` (one row from its first index), and (for the untiled
//! layout) ndarray's indexing. The layouts: untiled,
//! `T(8,128)`, `T(8,128)(2,1)` (power-of-two tiles: bit fields) and `T(6,100)` (other sizes:
//! reciprocals).
//!
//! `cargo bench --bench offset`; prints ns/element and ratios after criterion's report.

mod common;

use std::hint::black_box;
use std::time::{Duration, SystemTime};

use criterion::{Criterion, Throughput};
use half::bf16;
use ndarray::Array2;
use xla_layout::tensor::Tensor;
use xla_layout::{Layout, Plan, StaticLayout, layout};

type RowsF32 = layout!(f32[1024,1024]{1,0});
type TilesF32 = layout!(f32[1024,1024]{1,0:T(8,128)});
type TpuBf16 = layout!(bf16[1024,1024]{1,0:T(8,128)(2,1)});
type OddF32 = layout!(f32[1024,1024]{1,0:T(6,100)});

const N: usize = 1024;

/// Row-major, written by hand.
fn rows_hand(i: usize, j: usize) -> usize {
    i * N + j
}

/// `{1,0:T(8,128)}`: tile row, tile column, row in the tile, column in the tile.
fn tiles_hand(i: usize, j: usize) -> usize {
    (i / 8) * (8 * N) + (j / 128) * 1024 + (i % 8) * 128 + j % 128
}

/// `{1,0:T(8,128)(2,1)}`: as `T(8,128)`, with rows paired inside the tile.
fn tpu_hand(i: usize, j: usize) -> usize {
    (i / 8) * (8 * N) + (j / 128) * 1024 + (i % 8 / 2) * 256 + (j % 128) * 2 + i % 2
}

/// `{1,0:T(6,100)}`: 171 tile rows of 11 tiles of 6×100.
fn odd_hand(i: usize, j: usize) -> usize {
    (i / 6) * (11 * 600) + (j / 100) * 600 + (i % 6) * 100 + j % 100
}

/// Element values made from their logical linear index, and read back as bits.
trait Sample: Copy {
    fn sample(k: usize) -> Self;
    fn bits(self) -> u32;
}

impl Sample for f32 {
    fn sample(k: usize) -> f32 {
        k as f32
    }
    fn bits(self) -> u32 {
        self.to_bits()
    }
}

impl Sample for bf16 {
    fn sample(k: usize) -> bf16 {
        bf16::from_bits(k as u16 & 0x3fff)
    }
    fn bits(self) -> u32 {
        u32::from(self.to_bits())
    }
}

/// Σ `load(i, j)` over every index in logical row-major order.
#[inline(always)]
fn traverse(load: impl Fn(usize, usize) -> u32) -> u32 {
    let mut acc = 0u32;
    for i in 0..N {
        for j in 0..N {
            acc = acc.wrapping_add(load(i, j));
        }
    }
    acc
}

/// Σ `data[plan.offset(&[i, j])]` over every index: a function of its inputs, as a user
/// writes one, whose `&Plan` argument tells the compiler that nothing in the loop writes the
/// plan, so that its terms stay in registers (a plan behind `black_box` inside the timed
/// closure is reloaded at every offset: measured untiled 0.56 ns an offset this way, 1.39
/// that way).
#[inline(never)]
fn by_plan<E: Sample>(plan: &Plan, data: &[E]) -> u32 {
    traverse(|i, j| data[plan.offset(&[i, j])].bits())
}

/// Σ of the bits of `data` at the offsets of every row `i`, which `row(i, offsets)` writes
/// into `offsets`: the batch forms, a row at a time.
#[inline(always)]
fn by_rows<E: Sample>(data: &[E], mut row: impl FnMut(usize, &mut [usize])) -> u32 {
    let mut offsets = [0usize; N];
    let mut acc = 0u32;
    for i in 0..N {
        row(i, &mut offsets);
        for &o in &offsets {
            acc = acc.wrapping_add(data[o].bits());
        }
    }
    acc
}

/// The `layout!`, hand-written and `Plan` variants for layout `L`, in group `group`.
fn variants<L>(
    c: &mut Criterion,
    group: &str,
    hand: impl Fn(usize, usize) -> usize + Copy,
    ndarray: Option<&Array2<L::Elem>>,
) where
    L: StaticLayout<Index = [usize; 2], Word = <L as Layout>::Elem>,
    L::Elem: Sample,
{
    let bits = Sample::bits;
    let plan = L::plan();
    for i in 0..N {
        for j in 0..N {
            assert_eq!(
                L::offset([i, j]),
                hand(i, j),
                "{group}: hand form at ({i},{j})"
            );
        }
    }
    let values: Vec<L::Elem> = (0..L::ELEMENTS).map(L::Elem::sample).collect();
    let t = Tensor::<L>::from_logical(&values).expect("one value per element");
    let data = t.as_slice();
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(L::ELEMENTS as u64));
    g.bench_function("layout", |b| {
        b.iter(|| {
            let data = black_box(data);
            traverse(|i, j| bits(data[L::offset([i, j])]))
        });
    });
    g.bench_function("hand", |b| {
        b.iter(|| {
            let data = black_box(data);
            traverse(|i, j| bits(data[hand(i, j)]))
        });
    });
    g.bench_function("plan", |b| {
        b.iter(|| by_plan(black_box(&plan), black_box(data)));
    });
    g.bench_function("plan-batch", |b| {
        let mut indices = vec![[0usize; 2]; N];
        b.iter(|| {
            let plan = black_box(&plan);
            by_rows(black_box(data), |i, offsets| {
                for (j, index) in indices.iter_mut().enumerate() {
                    *index = [i, j];
                }
                plan.offsets(&indices, offsets);
            })
        });
    });
    g.bench_function("plan-along", |b| {
        b.iter(|| {
            let plan = black_box(&plan);
            by_rows(black_box(data), |i, offsets| {
                plan.offsets_along(&[i, 0], 1, offsets)
            })
        });
    });
    if let Some(a) = ndarray {
        g.bench_function("ndarray", |b| {
            b.iter(|| {
                let a = black_box(a);
                traverse(|i, j| bits(a[[i, j]]))
            });
        });
    }
    g.finish();
}

fn main() {
    let start = SystemTime::now();
    let mut c = common::criterion(Duration::from_secs(2));
    let a = Array2::from_shape_fn((N, N), |(i, j)| (i * N + j) as f32);
    variants::<RowsF32>(&mut c, "offset-f32-rows", rows_hand, Some(&a));
    variants::<TilesF32>(&mut c, "offset-f32-T8x128", tiles_hand, None);
    variants::<TpuBf16>(&mut c, "offset-bf16-T8x128x2x1", tpu_hand, None);
    variants::<OddF32>(&mut c, "offset-f32-T6x100", odd_hand, None);
    c.final_summary();
    report(start);
}

/// Prints ns/element of each variant and its ratio to the hand-written closed form.
fn report(start: SystemTime) {
    println!("\n| layout | variant | ns/element | ÷ hand |");
    println!("|---|---|---|---|");
    for group in [
        "offset-f32-rows",
        "offset-f32-T8x128",
        "offset-bf16-T8x128x2x1",
        "offset-f32-T6x100",
    ] {
        let Some(hand) = common::median_ns(group, "hand", start) else {
            continue;
        };
        for variant in [
            "layout",
            "hand",
            "plan",
            "plan-batch",
            "plan-along",
            "ndarray",
        ] {
            if let Some(ns) = common::median_ns(group, variant, start) {
                let per = ns / (N * N) as f64;
                println!("| {group} | {variant} | {per:.3} | {:.2} |", ns / hand);
            }
        }
    }
}
