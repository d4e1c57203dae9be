//! The memory analysis (`xla_layout::hlo::memory`) on every real module XLA accepts
//! (`tests/data/hlo`): it never fails, each buffer belongs to a computation that owns
//! buffers, computation totals add up to the module's, every array buffer's occupied bytes
//! are the index plan's `Plan::size_bytes` (the same byte-size function, so this checks that
//! the analysis sizes the right shape, not the size itself: `tests/tiling_props.rs` checks the
//! sizes against the brute-force reference), and unpadded bytes equal elements × storage bits.

use std::fs;

use xla_layout::hlo::memory::{Contents, analyze, shape_bytes};
use xla_layout::hlo::parse_module;
use xla_layout::{Plan, Shape};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hlo");

fn accepted() -> Vec<String> {
    fs::read_to_string(format!("{DATA}/verdicts.tsv"))
        .unwrap()
        .lines()
        .skip(1)
        .filter(|l| l.split('\t').nth(1) == Some("accept"))
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect()
}

/// Elements × storage bits, rounded up to bytes, from the dims alone.
fn unpadded(a: &xla_layout::ArrayShape) -> Option<u128> {
    let elements = a
        .dims
        .iter()
        .try_fold(1u128, |n, d| Some(n * u128::try_from(d.extent()?).ok()?))?;
    let bits = match a.layout.element_size_in_bits {
        0 => u128::from(a.element_type.byte_width()) * 8,
        n => u128::try_from(n).unwrap(),
    };
    Some((elements * bits).div_ceil(8))
}

#[test]
fn every_accepted_module_analyzes_consistently() {
    let ids = accepted();
    assert!(ids.len() > 50, "{}", ids.len());
    let mut arrays = 0;
    for id in ids {
        let text = fs::read_to_string(format!("{DATA}/modules/{id}.hlo")).unwrap();
        let module = parse_module(&text).unwrap();
        let memory = analyze(&module);
        let mut sum = 0u128;
        for (i, c) in memory.computations.iter().enumerate() {
            if !c.owns_buffers {
                assert!(
                    c.buffers.is_empty(),
                    "{id}: {}",
                    module.computations()[i].name
                );
            }
            assert_eq!(
                c.instruction_buffers.len(),
                module.computations()[i].instructions.len()
            );
            sum += c.totals.all.bytes;
        }
        assert_eq!(sum, memory.totals.all.bytes, "{id}");
        let by_space: u128 = memory
            .totals
            .by_memory_space
            .values()
            .map(|s| s.bytes)
            .sum();
        let by_type: u128 = memory
            .totals
            .by_element_type
            .values()
            .map(|s| s.bytes)
            .sum();
        let by_category: u128 = memory.totals.by_category.iter().map(|s| s.bytes).sum();
        assert_eq!((by_space, by_type, by_category), (sum, sum, sum), "{id}");
        for b in &memory.buffers {
            let (Contents::Array(a), Some(p)) = (b.contents, &b.padding) else {
                continue;
            };
            let plan = Plan::new(a).unwrap();
            assert_eq!(p.bytes, plan.size_bytes() as u64, "{id}: {a}");
            assert_eq!(Some(u128::from(p.unpadded_bytes)), unpadded(a), "{id}: {a}");
            assert_eq!(
                shape_bytes(&Shape::Array(a.clone())),
                Some((u128::from(p.unpadded_bytes), u128::from(p.bytes)))
            );
            arrays += 1;
        }
    }
    assert!(arrays > 500, "{arrays}");
}
