//! Iteration cost: `Tensor::iter_physical` (memory order, with logical indices) and
//! `Tensor::iter` (logical order) against summing the raw storage slice, over 1024×1024 f32
//! arrays row-major and tiled `T(8,128)`.
//!
//! `cargo bench --bench iterate`; prints ns/element and ratios after criterion's report.

mod common;

use std::hint::black_box;
use std::time::{Duration, SystemTime};

use criterion::{Criterion, Throughput};
use xla_layout::tensor::Tensor;
use xla_layout::{StaticLayout, layout};

type RowsF32 = layout!(f32[1024,1024]{1,0});
type TilesF32 = layout!(f32[1024,1024]{1,0:T(8,128)});

/// The three ways to visit every element, measured in one criterion group.
const VARIANTS: [&str; 3] = ["slice", "iter_physical", "iter"];

/// The three ways to visit every element of an `L` tensor, in group `group`.
fn variants<L>(c: &mut Criterion, group: &str)
where
    L: StaticLayout<Index = [usize; 2], Elem = f32, Word = f32>,
{
    let values: Vec<f32> = (0..L::ELEMENTS).map(|k| k as f32).collect();
    let t = Tensor::<L>::from_logical(&values).expect("one value per element");
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(L::ELEMENTS as u64));
    g.bench_function(VARIANTS[0], |b| {
        b.iter(|| {
            black_box(&t)
                .as_slice()
                .iter()
                .fold(0u32, |acc, x| acc.wrapping_add(x.to_bits()))
        });
    });
    g.bench_function(VARIANTS[1], |b| {
        b.iter(|| {
            black_box(&t)
                .iter_physical()
                .fold(0u32, |acc, ([i, j], x)| {
                    acc.wrapping_add(x.to_bits()).wrapping_add((i ^ j) as u32)
                })
        });
    });
    g.bench_function(VARIANTS[2], |b| {
        b.iter(|| {
            black_box(&t)
                .iter()
                .fold(0u32, |acc, x| acc.wrapping_add(x.to_bits()))
        });
    });
    g.finish();
}

fn main() {
    let start = SystemTime::now();
    let mut c = common::criterion(Duration::from_secs(2));
    variants::<RowsF32>(&mut c, "iterate-f32-rows");
    variants::<TilesF32>(&mut c, "iterate-f32-T8x128");
    c.final_summary();
    println!("\n| layout | variant | ns/element | ÷ slice |");
    println!("|---|---|---|---|");
    for group in ["iterate-f32-rows", "iterate-f32-T8x128"] {
        let Some(slice) = common::median_ns(group, VARIANTS[0], start) else {
            continue;
        };
        for variant in VARIANTS {
            if let Some(ns) = common::median_ns(group, variant, start) {
                let per = ns / RowsF32::ELEMENTS as f64;
                println!("| {group} | {variant} | {per:.3} | {:.1} |", ns / slice);
            }
        }
    }
}
