//! `xla-layout hlo` end to end: the report, JSON and `--rust` on real modules (copied from
//! XLA's tests into `tests/data/hlo/modules/`, see its MANIFEST.tsv), padding figures checked
//! by hand with XLA's formula, buffers counted once through aliasing, `?` shapes, malformed
//! modules and a large module.
//!
//! XLA's formula (ShapeUtil::ArraySize): in minor-to-major order round the most-minor dims up
//! to the first tile, multiply, times the element bytes; unpadded = elements x element bytes.
//! Sizes print as XLA's HumanReadableNumBytes: binary units, truncated, K with one decimal,
//! M and G with two.

mod common;

use common::run;
use std::path::PathBuf;

use serde_json::Value;

fn json(args: &[&str], stdin: &str) -> Value {
    let mut all = vec!["hlo", "--json"];
    all.extend_from_slice(args);
    let r = run(&all, stdin);
    assert_eq!(r.code, 0, "{}", r.stderr);
    serde_json::from_str(&r.stdout).unwrap()
}

/// The repository's root (the facade's tests and data).
fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn module(id: &str) -> String {
    std::fs::read_to_string(repo().join(format!("tests/data/hlo/modules/{id}.hlo"))).unwrap()
}

/// Four arrays from published TPU out-of-memory reports, passed through a tuple.
const OOM_REPORTS: &str = "HloModule oom_reports

ENTRY %main {
  %a = s32[8388608,8,4]{2,1,0:T(8,128)} parameter(0)
  %b = bf16[2048,1,2048,128]{0,1,3,2:T(4,128)(2,1)} parameter(1)
  %c = f32[1024,245,64]{1,2,0:T(8,128)} parameter(2)
  %d = u32[12582912,1]{1,0:T(8,128)} parameter(3)
  ROOT %t = (s32[8388608,8,4]{2,1,0:T(8,128)}, bf16[2048,1,2048,128]{0,1,3,2:T(4,128)(2,1)}, f32[1024,245,64]{1,2,0:T(8,128)}, u32[12582912,1]{1,0:T(8,128)}) tuple(%a, %b, %c, %d)
}
";

#[test]
fn padding_figures_match_xlas_tpu_reports() {
    let r = run(&["hlo", "-"], OOM_REPORTS);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let entries: Vec<&str> = r.stdout.split("==========================").collect();
    // DifferentiableUniverseInitiative/flowpm#27: 8388608·8·4·4 B = 1 GiB unpadded; dim 2:
    // 4 -> 128, so 8388608·8·128·4 B = 32 GiB; extra 31 GiB, 32.0x. The largest extra first.
    assert!(
        entries[0].contains(
            "1. Size: 32.00G\n     Shape: s32[8388608,8,4]{2,1,0:T(8,128)}\n     \
         Unpadded size: 1.00G\n     Extra memory due to padding: 31.00G (32.0x expansion)\n     \
         Padding: dim 2: 4 padded to 128 by T(8,128)\n     XLA label: a = parameter(0)\n"
        ),
        "{}",
        r.stdout
    );
    // pytorch/xla#1965: 12582912·4 B = 48 MiB; dim 1: 1 -> 128, so 6 GiB; extra 6144 - 48 =
    // 6096 MiB = 5.953 GiB, truncated to 5.95G; 128.0x.
    assert!(entries[1].contains(
        "2. Size: 6.00G\n     Shape: u32[12582912,1]{1,0:T(8,128)}\n     Unpadded size: 48.00M\n     \
         Extra memory due to padding: 5.95G (128.0x expansion)\n     Padding: dim 1: 1 padded to 128 by T(8,128)\n"
    ), "{}", r.stdout);
    // pytorch/xla#6674: 2048·2048·128·2 B = 1 GiB; minor-to-major {0,1,...}: dim 0 = 2048 fits
    // 128, dim 1: 1 -> 4; 4 GiB, extra 3 GiB, 4.0x (XLA's report: 4.00G / 1.00G / 3.00G).
    assert!(
        entries[2].contains(
            "3. Size: 4.00G\n     Shape: bf16[2048,1,2048,128]{0,1,3,2:T(4,128)(2,1)}\n     \
         Unpadded size: 1.00G\n     Extra memory due to padding: 3.00G (4.0x expansion)\n     \
         Padding: dim 1: 1 padded to 4 by T(4,128)\n"
        ),
        "{}",
        r.stdout
    );
    // sokrypton/ColabFold#62: 1024·245·64·4 = 64,225,280 B (61.25M); dim 1: 245 -> 256 gives
    // 67,108,864 B (64.00M); extra 2,883,584 B = 2.75M; 1.0x.
    assert!(entries[3].contains(
        "4. Size: 64.00M\n     Shape: f32[1024,245,64]{1,2,0:T(8,128)}\n     Unpadded size: 61.25M\n     \
         Extra memory due to padding: 2.75M (1.0x expansion)\n     Padding: dim 1: 245 padded to 256 by T(8,128)\n"
    ), "{}", r.stdout);

    let v = json(&["-"], OOM_REPORTS);
    let t = &v["totals"];
    // Arguments: the four arrays; the root tuple owns its table, 4 pointers = 32 B.
    let unpadded = (1u64 << 30) + (1 << 30) + 64_225_280 + (48 << 20);
    let padded = (32u64 << 30) + (4 << 30) + 67_108_864 + (6 << 30);
    assert_eq!(t["categories"]["arguments"]["unpadded_bytes"], unpadded);
    assert_eq!(t["categories"]["arguments"]["bytes"], padded);
    assert_eq!(t["categories"]["outputs"]["bytes"], 32);
    assert_eq!(t["bytes"], padded + 32);
    assert_eq!(t["extra_bytes"], padded - unpadded);
    let top = &v["largest_padding"][0];
    assert_eq!(top["expansion"], 32.0);
    assert_eq!(top["causes"][0], "dim 2: 4 padded to 128 by T(8,128)");
    // The tuple's shape size sums its leaves.
    let root = &v["computations"][0]["instructions"][4];
    assert_eq!(
        (root["name"].as_str(), root["bytes"].as_u64()),
        (Some("t"), Some(padded))
    );
    assert_eq!(root["buffer_bytes"], 32);
}

/// bitcast, get-tuple-element and tuple alias their operands: 73,728 B of result shapes,
/// but only three arrays and two tuple tables of memory.
const ALIASING: &str = "HloModule aliasing

ENTRY e {
  p = f32[16,128]{1,0} parameter(0)
  b = f32[2048]{0} bitcast(p)
  n = f32[2048]{0} negate(b)
  t = (f32[16,128]{1,0}, f32[2048]{0}) tuple(p, n)
  g = f32[2048]{0} get-tuple-element(t), index=1
  c = f32[2048]{0} copy(g)
  ROOT r = (f32[2048]{0}, f32[16,128]{1,0}) tuple(c, p)
}
";

#[test]
fn each_buffer_is_counted_once() {
    let v = json(&["-"], ALIASING);
    let t = &v["totals"];
    // p (8192 B, argument), n (8192 B, temp), t's table (2·8 B, temp), c (8192 B, output),
    // r's table (16 B, output).
    assert_eq!(t["buffers"], 5);
    assert_eq!(t["bytes"], 3 * 8192 + 2 * 16);
    let c = &t["categories"];
    assert_eq!(c["arguments"]["bytes"], 8192);
    assert_eq!(c["temporaries"]["bytes"], 8192 + 16);
    assert_eq!(c["outputs"]["bytes"], 8192 + 16);
    let owned: Vec<(String, u64)> = v["computations"][0]["instructions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["name"].as_str().unwrap().to_string(),
                i["buffer_bytes"].as_u64().unwrap(),
            )
        })
        .collect();
    let want = [
        ("p", 8192),
        ("b", 0),
        ("n", 8192),
        ("t", 16),
        ("g", 0),
        ("c", 8192),
        ("r", 16),
    ];
    assert_eq!(owned, want.map(|(n, b)| (n.to_string(), b)));
    // The shapes themselves still sum their leaves.
    let shapes: u64 = v["computations"][0]["instructions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["bytes"].as_u64().unwrap())
        .sum();
    assert_eq!(shapes, 73_728);
    // Live ranges in text order: n from 2 to its last use through t and g, the copy c at 5;
    // t's table from 3 to g at 4; c and r's table to the end. At c: n + c = 16,384 B.
    let peak = &v["peaks"][0];
    assert_eq!(
        (peak["bytes"].as_u64(), peak["instruction"].as_str()),
        (Some(16_384), Some("c"))
    );
}

#[test]
fn donated_outputs_share_the_argument_buffer() {
    let text = "HloModule donate, input_output_alias={ {}: (0, {}, must-alias) }\n\
                ENTRY e {\n  p = f32[1024]{0} parameter(0)\n  ROOT n = f32[1024]{0} negate(p)\n}\n";
    let v = json(&["-"], text);
    assert_eq!(v["totals"]["bytes"], 4096);
    assert_eq!(v["totals"]["shared_with_arguments"]["bytes"], 4096);
    let r = run(&["hlo", "-"], text);
    assert!(
        r.stdout.contains("outputs share 4.0K with arguments"),
        "{}",
        r.stdout
    );
}

#[test]
fn fusion_bodies_own_nothing_and_while_bodies_do() {
    // 0282.hlo (XLA's while_loop_unroller_test.cc): a TPU while loop whose body runs fusions.
    let v = json(&["-"], &module("0282"));
    for c in v["computations"].as_array().unwrap() {
        let role = c["role"].as_str().unwrap();
        assert_eq!(
            c["owns_buffers"].as_bool().unwrap(),
            matches!(role, "entry" | "while body" | "while condition"),
            "{}",
            c["name"]
        );
    }
    let sum: u64 = v["computations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["totals"]["bytes"].as_u64().unwrap())
        .sum();
    assert_eq!(sum, v["totals"]["bytes"].as_u64().unwrap());
    // Entry parameters from entry_computation_layout, checked by hand: s8[1,32,2048] with
    // T(8,128)(4,1) fits exactly (65,536 B); s32[1,32,256] with T(8,128): 32·256·4 B.
    let params = &v["entry"]["parameters"];
    assert_eq!(params[0]["bytes"], 65_536);
    assert_eq!(params[2]["bytes"], 32_768);
    assert_eq!(params[2]["shape"], "s32[1,32,256]{2,1,0:T(8,128)S(1)}");
}

#[test]
fn report_of_an_async_tpu_module() {
    // 0006.hlo (XLA's hlo_ordering_test.cc), also the built-in module: host memory S(5), an
    // async dynamic-update-slice, 512-byte TPU scalars.
    let r = run(&["hlo", "-"], &module("0006"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!("hlo_async_tpu", r.stdout);
}

#[test]
fn computation_and_top_restrict_the_report() {
    let text = module("0282");
    let v = json(
        &[
            "--top",
            "2",
            "--computation",
            "wide.windowed_dot_general_body",
            "-",
        ],
        &text,
    );
    assert_eq!(v["computations"].as_array().unwrap().len(), 1);
    assert_eq!(
        v["computations"][0]["name"],
        "wide.windowed_dot_general_body"
    );
    assert_eq!(v["totals"], v["computations"][0]["totals"]);
    let top = v["largest_padding"].as_array().unwrap();
    assert!(
        top.len() <= 2
            && top
                .iter()
                .all(|b| b["computation"] == "wide.windowed_dot_general_body")
    );
    let r = run(&["hlo", "--computation", "nope", "-"], &text);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no computation `nope`"), "{}", r.stderr);
}

#[test]
fn unbounded_dimensions_have_no_static_size() {
    let text = "HloModule dynamic\nENTRY e {\n  p = f32[?,3]{1,0} parameter(0)\n  \
                q = s32[<=8]{0} parameter(1)\n  ROOT t = (f32[?,3]{1,0}, s32[<=8]{0}) tuple(p, q)\n}\n";
    let v = json(&["-"], text);
    assert_eq!(v["totals"]["dynamic_buffers"], 1);
    // q: the bound, 8·4 B; the table: 16 B.
    assert_eq!(v["totals"]["bytes"], 32 + 16);
    assert_eq!(
        v["computations"][0]["instructions"][0]["bytes"],
        Value::Null
    );
    let r = run(&["hlo", "-"], text);
    assert_eq!(r.code, 0);
    assert!(
        r.stdout
            .contains("1 buffers with `?` dimensions have no static size"),
        "{}",
        r.stdout
    );
    let rust = run(&["hlo", "--rust", "-"], text).stdout;
    assert!(
        rust.contains("// Parameter 0 (`p`): `f32[?,3]{1,0}` skipped: an unbounded `?` dimension"),
        "{rust}"
    );
    assert!(
        rust.contains("pub type Q = layout!(s32[<=8]{0});"),
        "{rust}"
    );
}

#[test]
fn malformed_modules_are_errors_with_line_and_column() {
    let bad = "HloModule bad\nENTRY e {\n  ROOT p = f32[2]{0:T(0)} parameter(0)\n}\n";
    let r = run(&["hlo", "-"], bad);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("--> <stdin>:3:23"), "{}", r.stderr);
    assert!(r.stdout.is_empty());
    let r = run(&["hlo", "--json", "-"], bad);
    assert_eq!(r.code, 1);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        (v["ok"].as_bool(), v["file"].as_str()),
        (Some(false), Some("<stdin>"))
    );
    assert_eq!(
        (
            v["errors"][0]["line"].as_u64(),
            v["errors"][0]["column"].as_u64()
        ),
        (Some(3), Some(23))
    );
    for bad in [
        "",
        "HloModule",
        "ENTRY e {\n  ROOT x = f32[] negate(y)\n}",
        "ENTRY e {",
        "\u{0}",
        "{{{{",
    ] {
        let r = run(&["hlo", "-"], bad);
        assert!(matches!(r.code, 1 | 2), "{bad:?}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{bad:?}: {}", r.stderr);
    }
}

#[test]
fn rust_aliases_are_the_committed_file() {
    // tests/hlo_types.rs compiles this file and checks every SIZE_BYTES.
    let want = std::fs::read_to_string(repo().join("tests/hlo_types/generated.rs")).unwrap();
    let r = run(&["hlo", "--rust", "-"], &module("0282"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, want);
}

#[test]
fn help_documents_the_json_schema() {
    let r = run(&["hlo", "--help"], "");
    assert_eq!(r.code, 0);
    insta::assert_snapshot!("help_hlo", r.stdout);
}

#[test]
fn a_large_module_is_reported_in_full() {
    let n = 100_000;
    let mut text = String::from(
        "HloModule large\n\nENTRY e {\n  a0 = f32[8,100]{1,0:T(8,128)} parameter(0)\n",
    );
    for i in 1..n {
        text.push_str(&format!(
            "  a{i} = f32[8,100]{{1,0:T(8,128)}} negate(a{})\n",
            i - 1
        ));
    }
    text.push_str(&format!(
        "  ROOT r = f32[8,100]{{1,0:T(8,128)}} negate(a{})\n}}\n",
        n - 1
    ));
    let v = json(&["--top", "3", "-"], &text);
    // Each buffer: 8·100·4 = 3,200 B unpadded, 8·128·4 = 4,096 B padded (100 -> 128).
    assert_eq!(v["totals"]["buffers"], n + 1);
    assert_eq!(v["totals"]["bytes"], (n + 1) * 4096);
    assert_eq!(v["totals"]["unpadded_bytes"], (n + 1) * 3200);
    assert_eq!(v["largest_padding"].as_array().unwrap().len(), 3);
    let r = run(&["hlo", "-"], &text);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("100001"), "{}", r.stdout);
}
