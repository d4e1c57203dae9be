//! Iteration cost: each tensor traversal against the same loop over the raw storage slice,
//! side by side, over 1024×1024 f32 arrays row-major and tiled `T(8,128)`, and one 8×128
//! tile (4 KiB: what a traversal costs before its first element).
//!
//! - sum `.map(f64::from).sum::<f64>()`: `slice` (the raw slice), `iter` (logical order),
//!   `values_physical` (memory order), `iter_physical` (memory order, index ignored);
//! - `map_inplace(|x| x * 0.5 + 1.0)` against `for x in slice { *x = *x * 0.5 + 1.0 }`;
//! - `zip_with(&b, |x, y| x * 0.5 + y)` against the same zip of two slices;
//! - `for x in iter_mut() { *x += 1.0 }` (logical order, `next`) and the same through
//!   `iter_mut().for_each` (`fold`, run by run) against `slice.iter_mut()`;
//! - `iter_physical-index`: the sum plus `i ^ j` of each element's index, so that the index is
//!   computed (more work than the slice loop, which has no index).
//!
//! `cargo bench -p xla-layout-benches --bench iterate`; prints ns/element (criterion's median)
//! and each variant's ratio to its raw-slice loop after criterion's report: the median of 31
//! rounds that time both back to back, the steadier figure on a shared machine.

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant, SystemTime};

use criterion::{Criterion, Throughput};
use xla_layout::tensor::Tensor;
use xla_layout::{StaticLayout, layout};

type RowsF32 = layout!(f32[1024,1024]{1,0});
type TilesF32 = layout!(f32[1024,1024]{1,0:T(8,128)});
type TileF32 = layout!(f32[8,128]{1,0:T(8,128)});

/// The tensors of one layout, and the raw slices of the same values they are compared with.
struct Data<L: StaticLayout> {
    t: Tensor<L>,
    other: Tensor<L>,
    raw: Vec<f32>,
    raw_other: Vec<f32>,
}

/// One traversal; a sum, or 0 for the loops that write.
type Run<L> = fn(&mut Data<L>) -> f64;

/// Every variant: its name, the raw-slice loop it is compared with, and what it runs.
fn variants<L>() -> [(&'static str, &'static str, Run<L>); 12]
where
    L: StaticLayout<Index = [usize; 2], Elem = f32, Word = f32>,
{
    [
        ("sum-slice", "sum-slice", |d| {
            d.raw.iter().map(|&x| f64::from(x)).sum()
        }),
        ("iter", "sum-slice", |d| d.t.iter().map(f64::from).sum()),
        ("values_physical", "sum-slice", |d| {
            d.t.values_physical().map(f64::from).sum()
        }),
        ("iter_physical", "sum-slice", |d| {
            d.t.iter_physical().map(|(_, x)| f64::from(x)).sum()
        }),
        ("iter_physical-index", "sum-slice", |d| {
            d.t.iter_physical()
                .map(|([i, j], x)| f64::from(x) + (i ^ j) as f64)
                .sum()
        }),
        ("map-slice", "map-slice", |d| {
            for x in &mut d.raw {
                *x = *x * 0.5 + 1.0;
            }
            0.0
        }),
        ("map_inplace", "map-slice", |d| {
            d.t.map_inplace(|x| x * 0.5 + 1.0);
            0.0
        }),
        ("zip-slice", "zip-slice", |d| {
            for (x, y) in d.raw.iter_mut().zip(&d.raw_other) {
                *x = *x * 0.5 + *y;
            }
            0.0
        }),
        ("zip_with", "zip-slice", |d| {
            d.t.zip_with(&d.other, |x, y| x * 0.5 + y);
            0.0
        }),
        ("mut-slice", "mut-slice", |d| {
            for x in &mut d.raw {
                *x += 1.0;
            }
            0.0
        }),
        ("iter_mut", "mut-slice", |d| {
            for x in d.t.iter_mut() {
                *x += 1.0;
            }
            0.0
        }),
        ("iter_mut-for_each", "mut-slice", |d| {
            d.t.iter_mut().for_each(|x| *x += 1.0);
            0.0
        }),
    ]
}

/// Rounds of the paired measurement, and traversals timed per side of a round (of a
/// 1024×1024 array; as many more as make the same number of elements for smaller ones).
const ROUNDS: usize = 31;
const REPS: usize = 4;

/// The median over [`ROUNDS`] of `variant`'s time over `base`'s, both timed back to back in
/// each round: memory bandwidth and the neighbours' load drift between criterion's
/// benchmarks, seconds apart, much more than within a round.
fn paired<L: StaticLayout>(d: &mut Data<L>, base: Run<L>, variant: Run<L>) -> f64 {
    let reps = REPS * (1 << 20) / L::ELEMENTS.min(1 << 20);
    let mut time = |f: Run<L>| {
        let t = Instant::now();
        for _ in 0..reps {
            black_box(f(black_box(&mut *d)));
        }
        t.elapsed().as_secs_f64()
    };
    let mut ratios: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let b = time(base);
            time(variant) / b
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    ratios[ROUNDS / 2]
}

/// Every variant for an `L` tensor in group `group`: criterion's measurement, then the
/// paired ratios, as `(variant, ratio)`.
fn measure<L>(c: &mut Criterion, group: &str) -> Vec<(&'static str, f64)>
where
    L: StaticLayout<Index = [usize; 2], Elem = f32, Word = f32>,
{
    let values: Vec<f32> = (0..L::ELEMENTS).map(|k| (k % 1000) as f32).collect();
    let t = Tensor::<L>::from_logical(&values).expect("one value per element");
    let raw = t.as_slice().to_vec();
    let mut d = Data {
        other: t.clone(),
        t,
        raw_other: raw.clone(),
        raw,
    };
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(L::ELEMENTS as u64));
    let all = variants::<L>();
    for &(name, _, run) in &all {
        g.bench_function(name, |b| b.iter(|| run(black_box(&mut d))));
    }
    g.finish();
    let run_of = |name: &str| all.iter().find(|v| v.0 == name).expect("a variant").2;
    all.iter()
        .map(|&(name, base, run)| (name, paired(&mut d, run_of(base), run)))
        .collect()
}

fn main() {
    let start = SystemTime::now();
    let mut c = common::criterion(Duration::from_secs(2));
    let groups = [
        (
            "iterate-f32-rows",
            measure::<RowsF32>(&mut c, "iterate-f32-rows"),
            RowsF32::ELEMENTS,
        ),
        (
            "iterate-f32-T8x128",
            measure::<TilesF32>(&mut c, "iterate-f32-T8x128"),
            TilesF32::ELEMENTS,
        ),
        (
            "iterate-f32-8x128-tile",
            measure::<TileF32>(&mut c, "iterate-f32-8x128-tile"),
            TileF32::ELEMENTS,
        ),
    ];
    c.final_summary();
    println!("\n| layout | variant | ns/element | ÷ slice loop |");
    println!("|---|---|---|---|");
    for (group, ratios, elements) in groups {
        for (variant, ratio) in ratios {
            let Some(ns) = common::median_ns(group, variant, start) else {
                continue;
            };
            let per = ns / elements as f64;
            println!("| {group} | {variant} | {per:.3} | {ratio:.2} |");
        }
    }
}
