//! Generator for scripts/compile-bench.sh. Built by the script as a one-file crate depending on
//! xla-layout-core; not part of the workspace.
//!
//! `gen N OUT` picks N canonically distinct, valid static layouts from a fixed pseudo-random
//! sequence (so every run generates the same ones) and writes four library sources:
//!
//! * `OUT/layouts/src/lib.rs`: `pub fn fK(i0: usize, ..) -> usize { <layout!(..)>::offset([..]) }`
//! * `OUT/hand/src/lib.rs`: the same functions with the closed form written out, as
//!   `Plan::offset_expr` prints it (what a careful person would write by hand)
//! * `OUT/aliases/src/lib.rs`: `type LK = layout!(..);` only, so the expansion is all there
//!   is to compile (private, so not even written to the crate's metadata)
//! * `OUT/baseline/src/lib.rs`: `type LK = [u8; K];`, the same crate without the macro
//!
//! It also writes `OUT/layouts.txt` (one canonical layout per line) and prints a one-line
//! summary of the mix of layouts on stdout.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use xla_layout_core::{Plan, parse_array};

/// splitmix64: a small, fixed, portable pseudo-random sequence.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

const TYPES: &[&str] = &["f32", "bf16", "f16", "s8", "u8", "s32", "u32", "f64", "s16"];
const DIMS: &[usize] = &[
    1, 2, 3, 4, 5, 7, 8, 12, 16, 24, 31, 37, 64, 100, 128, 129, 200, 256, 384, 1000, 1024, 1280,
];
const TILE: &[&str] = &["1", "2", "3", "4", "5", "8", "16", "32", "128", "256"];
const SUBTILE: &[&str] = &["(2,1)", "(4,1)", "(8,1)", "(2)", "(128)", "(1,128)"];

/// One candidate literal; may be invalid (the caller validates it).
fn candidate(rng: &mut Rng) -> String {
    let rank = rng.pick(&[1, 2, 2, 3, 3, 3, 4, 4, 5]);
    let (ty, packed) = match rng.below(12) {
        0 => (rng.pick(&["s4", "u4"]), true),
        _ => (rng.pick(TYPES), false),
    };
    let dims: Vec<String> = (0..rank)
        .map(|_| {
            if rng.below(4) == 0 {
                (1 + rng.below(300)).to_string()
            } else {
                rng.pick(DIMS).to_string()
            }
        })
        .collect();
    let mut m2m: Vec<usize> = (0..rank).rev().collect();
    if rng.below(3) > 0 {
        for i in (1..rank).rev() {
            let j = rng.below(i + 1);
            m2m.swap(i, j);
        }
    }
    let mut attrs = String::new();
    let levels = rng.pick(&[0, 1, 1, 1, 2, 2, 3]);
    if levels > 0 {
        // The first tile: rank 1..=3, sometimes above the array's rank, sometimes with `*`.
        let k = 1 + rng.below(3.min(rank + 1));
        let entries: Vec<&str> = (0..k)
            .map(|i| {
                if i + 1 < k && rng.below(4) == 0 {
                    "*"
                } else {
                    rng.pick(TILE)
                }
            })
            .collect();
        write!(attrs, "T({})", entries.join(",")).unwrap();
        for _ in 1..levels {
            attrs.push_str(rng.pick(SUBTILE));
        }
    }
    if rng.below(10) == 0 {
        write!(attrs, "L({})", rng.pick(&[2, 64, 1024])).unwrap();
    }
    if packed {
        attrs.push_str("E(4)");
    }
    if rng.below(8) == 0 {
        attrs.push_str("S(1)");
    }
    let m2m: Vec<String> = m2m.iter().map(usize::to_string).collect();
    let sep = if attrs.is_empty() { "" } else { ":" };
    format!("{ty}[{}]{{{}{sep}{attrs}}}", dims.join(","), m2m.join(","))
}

fn args(rank: usize) -> String {
    (0..rank)
        .map(|d| format!("i{d}: usize"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn index(rank: usize) -> String {
    (0..rank)
        .map(|d| format!("i{d}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    let [_, n, out] = argv.as_slice() else {
        eprintln!("usage: gen N OUT");
        std::process::exit(2);
    };
    let n: usize = n.parse().expect("N is a number");
    let out = Path::new(out);

    let mut rng = Rng(0x0c0f_fee0_1a70_u64);
    let mut seen = BTreeSet::new();
    let mut picked = Vec::new();
    let mut tries = 0usize;
    while picked.len() < n {
        tries += 1;
        assert!(tries < 1000 * n, "cannot find {n} distinct valid layouts");
        let text = candidate(&mut rng);
        let Ok(shape) = parse_array(&text) else {
            continue;
        };
        let Ok(plan) = Plan::new(&shape) else {
            continue;
        };
        if plan.physical_elements() > 1 << 40 {
            continue;
        }
        let canonical = shape.to_string();
        if seen.insert(canonical.clone()) {
            picked.push((canonical, shape.rank(), shape.layout.tiles.clone(), plan));
        }
    }

    let header = "// @generated by scripts/compile-bench/gen.rs\n";
    let mut layouts = format!("{header}use xla_layout::{{StaticLayout, layout}};\n");
    let mut hand = format!("{header}#![allow(unused_variables, unused_parens)]\n");
    let mut aliases = format!("{header}#![allow(dead_code)]\nuse xla_layout::layout;\n");
    let mut baseline = format!("{header}#![allow(dead_code)]\n");
    let mut list = String::new();
    let (mut tiled, mut multi, mut star, mut odd, mut up) = (0, 0, 0, 0, 0);
    for (k, (text, rank, tiles, plan)) in picked.iter().enumerate() {
        let (a, i) = (args(*rank), index(*rank));
        writeln!(
            layouts,
            "pub fn f{k}({a}) -> usize {{\n    <layout!({text})>::offset([{i}])\n}}"
        )
        .unwrap();
        let expr = plan.offset_expr().to_string();
        writeln!(hand, "pub fn f{k}({a}) -> usize {{\n    {expr}\n}}").unwrap();
        writeln!(aliases, "type L{k} = layout!({text});").unwrap();
        writeln!(baseline, "type L{k} = [u8; {k}];").unwrap();
        writeln!(list, "{text}").unwrap();
        tiled += usize::from(!tiles.is_empty());
        multi += usize::from(tiles.len() > 1);
        star += usize::from(text.contains('*'));
        odd += usize::from(expr.contains('/') || expr.contains('%'));
        up += usize::from(tiles.first().is_some_and(|t| t.dims().len() > *rank));
    }
    for (dir, src) in [
        ("layouts", &layouts),
        ("hand", &hand),
        ("aliases", &aliases),
        ("baseline", &baseline),
    ] {
        fs::create_dir_all(out.join(dir).join("src")).unwrap();
        fs::write(out.join(dir).join("src").join("lib.rs"), src).unwrap();
    }
    fs::write(out.join("layouts.txt"), list).unwrap();
    println!(
        "{n} distinct layouts: {tiled} tiled, {multi} with several tile levels, {star} with `*`, \
         {odd} with a non-power-of-two tile (`/`, `%`), {up} with a tile of higher rank than the \
         array; ranks 1-5"
    );
}
