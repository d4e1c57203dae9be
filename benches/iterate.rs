//! Iteration cost: each tensor traversal against the same loop over the raw storage slice,
//! side by side, over 1024×1024 f32 arrays row-major and tiled `T(8,128)`.
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
//! `cargo bench -p xla-layout-benches --bench iterate`; prints ns/element and each variant's
//! ratio to its raw-slice loop after criterion's report.

mod common;

use std::hint::black_box;
use std::time::{Duration, SystemTime};

use criterion::{Criterion, Throughput};
use xla_layout::tensor::Tensor;
use xla_layout::{StaticLayout, layout};

type RowsF32 = layout!(f32[1024,1024]{1,0});
type TilesF32 = layout!(f32[1024,1024]{1,0:T(8,128)});

/// Each variant and the raw-slice loop it is compared with.
const VARIANTS: [(&str, &str); 9] = [
    ("sum-slice", "sum-slice"),
    ("iter", "sum-slice"),
    ("values_physical", "sum-slice"),
    ("iter_physical", "sum-slice"),
    ("iter_physical-index", "sum-slice"),
    ("map-slice", "map-slice"),
    ("map_inplace", "map-slice"),
    ("zip-slice", "zip-slice"),
    ("zip_with", "zip-slice"),
];

/// `iter_mut` and its slice loop, measured in a group of their own.
const MUT_VARIANTS: [(&str, &str); 3] = [
    ("mut-slice", "mut-slice"),
    ("iter_mut", "mut-slice"),
    ("iter_mut-for_each", "mut-slice"),
];

/// Every variant for an `L` tensor, in group `group`.
fn variants<L>(c: &mut Criterion, group: &str)
where
    L: StaticLayout<Index = [usize; 2], Elem = f32, Word = f32>,
{
    let values: Vec<f32> = (0..L::ELEMENTS).map(|k| (k % 1000) as f32).collect();
    let mut t = Tensor::<L>::from_logical(&values).expect("one value per element");
    let other = t.clone();
    let mut raw = t.as_slice().to_vec();
    let raw_other = raw.clone();
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(L::ELEMENTS as u64));
    g.bench_function("sum-slice", |b| {
        b.iter(|| black_box(&raw).iter().map(|&x| f64::from(x)).sum::<f64>());
    });
    g.bench_function("iter", |b| {
        b.iter(|| black_box(&t).iter().map(f64::from).sum::<f64>());
    });
    g.bench_function("values_physical", |b| {
        b.iter(|| black_box(&t).values_physical().map(f64::from).sum::<f64>());
    });
    g.bench_function("iter_physical", |b| {
        b.iter(|| {
            black_box(&t)
                .iter_physical()
                .map(|(_, x)| f64::from(x))
                .sum::<f64>()
        });
    });
    g.bench_function("iter_physical-index", |b| {
        b.iter(|| {
            black_box(&t)
                .iter_physical()
                .map(|([i, j], x)| f64::from(x) + (i ^ j) as f64)
                .sum::<f64>()
        });
    });
    g.bench_function("map-slice", |b| {
        b.iter(|| {
            for x in black_box(&mut raw).iter_mut() {
                *x = *x * 0.5 + 1.0;
            }
        });
    });
    g.bench_function("map_inplace", |b| {
        b.iter(|| black_box(&mut t).map_inplace(|x| x * 0.5 + 1.0));
    });
    g.bench_function("zip-slice", |b| {
        b.iter(|| {
            for (x, y) in black_box(&mut raw).iter_mut().zip(black_box(&raw_other)) {
                *x = *x * 0.5 + *y;
            }
        });
    });
    g.bench_function("zip_with", |b| {
        b.iter(|| black_box(&mut t).zip_with(black_box(&other), |x, y| x * 0.5 + y));
    });
    g.finish();
    let mut g = c.benchmark_group(format!("{group}-mut"));
    g.throughput(Throughput::Elements(L::ELEMENTS as u64));
    g.bench_function("mut-slice", |b| {
        b.iter(|| {
            for x in black_box(&mut raw).iter_mut() {
                *x += 1.0;
            }
        });
    });
    g.bench_function("iter_mut", |b| {
        b.iter(|| {
            for x in black_box(&mut t).iter_mut() {
                *x += 1.0;
            }
        });
    });
    g.bench_function("iter_mut-for_each", |b| {
        b.iter(|| black_box(&mut t).iter_mut().for_each(|x| *x += 1.0));
    });
    g.finish();
}

fn main() {
    let start = SystemTime::now();
    let mut c = common::criterion(Duration::from_secs(2));
    variants::<RowsF32>(&mut c, "iterate-f32-rows");
    variants::<TilesF32>(&mut c, "iterate-f32-T8x128");
    c.final_summary();
    println!("\n| layout | variant | ns/element | ÷ slice loop |");
    println!("|---|---|---|---|");
    for group in ["iterate-f32-rows", "iterate-f32-T8x128"] {
        let mut rows = Vec::new();
        for (g, list) in [
            (group.to_string(), &VARIANTS[..]),
            (format!("{group}-mut"), &MUT_VARIANTS[..]),
        ] {
            for &(variant, base) in list {
                let (Some(ns), Some(slice)) = (
                    common::median_ns(&g, variant, start),
                    common::median_ns(&g, base, start),
                ) else {
                    continue;
                };
                let per = ns / RowsF32::ELEMENTS as f64;
                rows.push(format!(
                    "| {group} | {variant} | {per:.3} | {:.2} |",
                    ns / slice
                ));
            }
        }
        for row in rows {
            println!("{row}");
        }
    }
}
