//! Fuzz harness for xla-layout, on stable Rust.
//!
//! `cargo run --profile fuzz -p xla-layout-fuzz -- --inputs N --seed S` generates N inputs
//! from seed S (grammar-aware shapes biased to edge values, byte mutations of the real shapes
//! in `seeds.txt`, and HLO modules: the repository's real ones whole, mutated or spliced line
//! by line, and small ones around generated shapes), runs every runtime entry point on each
//! (shape parser, validator, printer, `Plan`, rendering, HLO reader) under `catch_unwind`, and
//! reports any panic, any input that allocates more than 1 GiB at once, and any input that
//! takes more than a second (`--time-limit-ms T` sets the limit; `0` turns it off, as CI
//! does: there wall time measures the loaded machine as much as the code, and an input that
//! hangs shows as the step's timeout instead). The `fuzz` profile is release with overflow
//! checks on. Each input is written to `target/fuzz-current-input.txt` before it runs, so
//! that an abort (the allocator refuses past 4 GiB) or a hang leaves it behind, and the input
//! of each finding is written whole to `target/fuzz-findings/`. Exits 1 if anything was
//! found.

mod alloc_count;
mod entry;
mod generate;

use std::io::{Seek, Write};
use std::panic;
use std::time::{Duration, Instant};

use alloc_count::Counting;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most live memory one input may use.
const MEMORY_LIMIT: usize = 1 << 30;
/// The most time one input may take, unless `--time-limit-ms` says otherwise.
const TIME_LIMIT_MS: u64 = 1000;

/// One problem found: the input, the entry point and what happened.
struct Finding {
    input: String,
    entry: &'static str,
    what: String,
}

fn main() {
    let mut inputs: u64 = 100_000;
    let mut seed: u64 = 1;
    let mut time_limit_ms: u64 = TIME_LIMIT_MS;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next().and_then(|v| v.parse().ok());
        match (a.as_str(), value) {
            ("--inputs", Some(v)) => inputs = v,
            ("--seed", Some(v)) => seed = v,
            ("--time-limit-ms", Some(v)) => time_limit_ms = v,
            _ => {
                eprintln!(
                    "usage: xla-layout-fuzz --inputs N --seed S [--time-limit-ms T (0: none)]"
                );
                std::process::exit(2);
            }
        }
    }
    let seeds: Vec<&str> = include_str!("../seeds.txt").lines().collect();
    let hlo = generate::Hlo::load();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../target/fuzz-current-input.txt"
    );
    let mut current = std::fs::File::create(path).expect("the input file can be written");
    panic::set_hook(Box::new(|_| {}));
    let mut rng = generate::Rng::new(seed);
    let mut findings: Vec<Finding> = Vec::new();
    let started = Instant::now();
    let mut slowest = (Duration::ZERO, String::new());
    for n in 0..inputs {
        let input = generate::input(&mut rng, &seeds, &hlo);
        current.rewind().and_then(|()| current.set_len(0)).ok();
        current.write_all(input.as_bytes()).ok();
        alloc_count::reset_peak();
        let t = Instant::now();
        for (entry, result) in entry::run_all(&input) {
            if let Err(what) = result {
                findings.push(Finding {
                    input: input.clone(),
                    entry,
                    what,
                });
            }
        }
        let took = t.elapsed();
        let peak = alloc_count::peak();
        let limit = Duration::from_millis(time_limit_ms);
        if time_limit_ms > 0 && took > limit {
            findings.push(Finding {
                input: input.clone(),
                entry: "all",
                what: format!("took {took:?}, over {limit:?}"),
            });
        }
        if peak > MEMORY_LIMIT {
            findings.push(Finding {
                input: input.clone(),
                entry: "all",
                what: format!("{peak} bytes live at once, over {MEMORY_LIMIT}"),
            });
        }
        if took > slowest.0 {
            slowest = (took, input);
        }
        if (n + 1) % 1_000_000 == 0 {
            eprintln!(
                "{} inputs, {} findings, {:.0?}",
                n + 1,
                findings.len(),
                started.elapsed()
            );
        }
    }
    let wall = started.elapsed();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../target/fuzz-findings");
    if !findings.is_empty() {
        std::fs::create_dir_all(dir).ok();
    }
    for (k, f) in findings.iter().enumerate() {
        std::fs::write(format!("{dir}/seed{seed}-{k}.txt"), &f.input).ok();
        println!(
            "FINDING [{}] {}\n  input: {:?}",
            f.entry,
            f.what,
            truncate(&f.input)
        );
    }
    println!(
        "inputs: {inputs}, seed: {seed}, findings: {}, wall time: {wall:.1?} ({:.0} inputs/s), \
         slowest input: {:.1?} ({:?})",
        findings.len(),
        inputs as f64 / wall.as_secs_f64(),
        slowest.0,
        truncate(&slowest.1)
    );
    if !findings.is_empty() {
        std::process::exit(1);
    }
}

/// The first 300 bytes of an input, for reports.
fn truncate(s: &str) -> String {
    match s.char_indices().nth(300) {
        Some((i, _)) => format!("{}... ({} bytes)", &s[..i], s.len()),
        None => s.to_string(),
    }
}
