//! Reading a ~20 MB HLO module with `xla_layout::hlo::parse_module`. The module is built from
//! the real modules of `tests/data/hlo` that XLA accepts: each copy of each module keeps its
//! computations, renamed `NAME_ID_COPY` (with every reference to them), its ENTRY becomes an
//! ordinary computation, and one small ENTRY closes the file. It is written to
//! `target/hlo-bench/module.hlo`, so that `benches/hlo-vs-xla.sh` can time XLA's own parser on
//! the very same text.
//!
//! `cargo bench --bench hlo_parse` runs criterion. With `HLO_PARSE_TIMES=N` in the
//! environment it instead times N reads and prints one line, `reader MB/s: median min max`,
//! which is what `benches/hlo-vs-xla.sh` reads.

use std::fs;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use criterion::{Criterion, Throughput};
use xla_layout::hlo::parse_module;

const TARGET_BYTES: usize = 20 << 20;
const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/hlo");

/// The attributes that name computations (`%a`, `{%a, %b}`).
const CALLS: [&str; 10] = [
    "calls",
    "to_apply",
    "condition",
    "body",
    "select",
    "scatter",
    "true_computation",
    "false_computation",
    "branch_computations",
    "called_computations",
];

/// One copy of `text` with every computation renamed `NAME_suffix` and no ENTRY.
fn renamed(text: &str, suffix: &str, out: &mut String) {
    let module = parse_module(text).expect("the corpus modules read");
    // (start, end, replacement), in text order.
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for c in module.computations() {
        let mut p = c.span.start;
        if text[p..].starts_with("ENTRY") {
            edits.push((p, p + 5, String::new()));
            p += 5;
        }
        let at = p + text[p..].find(c.name).unwrap();
        edits.push((at, at + c.name.len(), format!("{}{suffix}", c.name)));
        for i in &c.instructions {
            for a in i.attributes.iter().filter(|a| CALLS.contains(&a.name)) {
                let start = a.span.end - a.value.len();
                let names: Vec<String> = a
                    .value
                    .trim_start_matches('{')
                    .trim_end_matches('}')
                    .split(',')
                    .map(|n| n.trim().trim_start_matches('%'))
                    .filter(|n| !n.is_empty())
                    .map(|n| format!("%{n}{suffix}"))
                    .collect();
                let value = if a.value.starts_with('{') {
                    format!("{{{}}}", names.join(", "))
                } else {
                    names.join(", ")
                };
                edits.push((start, a.span.end, value));
            }
        }
    }
    edits.sort_by_key(|e| e.0);
    let first = module.computations()[0].span.start;
    let mut last = first;
    for (start, end, replacement) in edits {
        out.push_str(&text[last..start]);
        out.push_str(&replacement);
        last = end;
    }
    out.push_str(&text[last..module.computations().last().unwrap().span.end]);
    out.push_str("\n\n");
}

/// The large module (see the file's doc comment).
fn big_module() -> String {
    let verdicts = fs::read_to_string(format!("{DATA}/verdicts.tsv")).unwrap();
    let sources: Vec<(String, String)> = verdicts
        .lines()
        .skip(1)
        .filter(|l| l.split('\t').nth(1) == Some("accept"))
        .map(|l| {
            let id = l.split('\t').next().unwrap().to_string();
            let text = fs::read_to_string(format!("{DATA}/modules/{id}.hlo")).unwrap();
            (id, text)
        })
        .collect();
    let mut out = String::from("HloModule big\n\n");
    let mut copy = 0;
    while out.len() < TARGET_BYTES {
        for (id, text) in &sources {
            renamed(text, &format!("_{id}_{copy}"), &mut out);
        }
        copy += 1;
    }
    out.push_str("ENTRY %main {\n  ROOT %c = f32[] constant(0)\n}\n");
    out
}

fn write_module(text: &str) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/hlo-bench");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("module.hlo"), text).unwrap();
}

/// CPU time of this thread (Linux `/proc/thread-self/schedstat`, nanoseconds on a CPU), so
/// that other jobs on a shared machine count less; 0 where unavailable.
fn cpu_seconds() -> f64 {
    fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

fn mb_per_s(bytes: usize, seconds: f64) -> f64 {
    bytes as f64 / seconds / 1e6
}

fn main() {
    let text = big_module();
    let module = parse_module(&text).unwrap_or_else(|e| panic!("{}", e.render(&text, "big")));
    let instructions: usize = module
        .computations()
        .iter()
        .map(|c| c.instructions.len())
        .sum();
    drop(module);
    write_module(&text);
    if let Ok(n) = std::env::var("HLO_PARSE_TIMES") {
        let n: usize = n.parse().expect("HLO_PARSE_TIMES is a number");
        let (mut wall, mut cpu): (Vec<f64>, Vec<f64>) = (0..n.max(1))
            .map(|_| {
                let (t, c) = (Instant::now(), cpu_seconds());
                black_box(parse_module(black_box(&text)).unwrap());
                (
                    mb_per_s(text.len(), t.elapsed().as_secs_f64()),
                    mb_per_s(text.len(), cpu_seconds() - c),
                )
            })
            .unzip();
        wall.sort_by(f64::total_cmp);
        cpu.sort_by(f64::total_cmp);
        println!(
            "reader MB/s: wall median {:.1} max {:.1}, cpu median {:.1} max {:.1} ({} bytes, {instructions} instructions)",
            wall[wall.len() / 2],
            wall[wall.len() - 1],
            cpu[cpu.len() / 2],
            cpu[cpu.len() - 1],
            text.len()
        );
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("hlo_parse");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(20);
    group.bench_function("parse_module_20MB", |b| {
        b.iter(|| parse_module(black_box(&text)).unwrap())
    });
    group.finish();
    c.final_summary();
}
