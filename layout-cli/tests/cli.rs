//! The `xla-layout` command's contracts: `check` and `explain`, human and `--json` output,
//! stdin mode and exit statuses.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xla-layout"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn json_lines(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn check_json_reads_stdin_in_order_and_skips_blank_lines() {
    let out = run(
        &["check", "--json"],
        "f32[123,456]\n\n  \nf32[2,3]{0,0}\r\n(f32[], f32[], f32[], f32[], f32[], f32[])\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["input"], "f32[123,456]");
    assert_eq!(lines[0]["ok"], true);
    assert_eq!(lines[0]["canonical"], "f32[123,456]{1,0}");
    assert_eq!(lines[1]["input"], "f32[2,3]{0,0}");
    assert_eq!(lines[1]["ok"], false);
    let e = &lines[1]["errors"][0];
    assert_eq!(
        (e["start"].as_u64(), e["end"].as_u64()),
        (Some(11), Some(12))
    );
    assert!(e["message"].as_str().unwrap().contains("twice"));
    assert_eq!(
        lines[2]["canonical"],
        "(f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[])"
    );
}

#[test]
fn check_arguments_exit_zero_when_all_valid() {
    let out = run(&["check", "f32[ 2, 3 ]{1,0:S(0)}", "s4[2]{0:E(4)}"], "");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "f32[2,3]{1,0}\ns4[2]{0:E(4)}\n"
    );
}

#[test]
fn check_human_errors_have_a_caret_under_the_token() {
    let out = run(&["check", "f32[2,3]{1,0:S(1)T(2,128)}"], "");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("1 | f32[2,3]{1,0:S(1)T(2,128)}"), "{err}");
    assert!(err.contains("  |                  ^\n"), "{err}");
    assert!(err.contains("`T` must come before `S`"), "{err}");
}

#[test]
fn usage_errors_exit_two() {
    assert_eq!(run(&[], "").status.code(), Some(2));
    assert_eq!(run(&["frobnicate"], "").status.code(), Some(2));
    assert_eq!(run(&["check", "--yaml"], "").status.code(), Some(2));
    assert_eq!(
        run(&["explain", "f32[2]", "f32[3]"], "").status.code(),
        Some(2)
    );
}

#[test]
fn explain_defaults_to_the_seed_example() {
    let out = run(&["explain"], "");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}\n"));
    assert!(text.contains("[1,8,1280,16384] -> [1,8,160,128,8,128] -> [1,8,160,128,4,128,2,1]"));
    assert!(text.contains(
        "i0*20971520 + (i2>>3)*131072 + (i3>>7)*1024 + ((i2&7)>>1)*256 + (i3&127)*2 + (i2&1)"
    ));
    assert!(text.contains("S(1): fast memory"));
}

#[test]
fn explain_spells_out_the_seed_memory_order_and_warns_on_padding() {
    let text = String::from_utf8_lossy(&run(&["explain", "f32[2,3]{0,1}"], "").stdout).to_string();
    assert!(text.contains("  a d b e c f\n"), "{text}");
    let text = String::from_utf8_lossy(&run(&["explain", "f32[2,3]{1,0:T(8,128)}"], "").stdout)
        .to_string();
    assert!(text.contains("WARNING"), "{text}");
    assert!(text.contains("1018 slots"), "{text}");
}

#[test]
fn explain_json_contract() {
    let out = run(&["explain", "--json", "f32[3,5]{1,0:T(2,2)}"], "");
    assert_eq!(out.status.code(), Some(0));
    let v = &json_lines(&out)[0];
    assert_eq!(v["canonical"], "f32[3,5]{1,0:T(2,2)}");
    assert_eq!(v["element_type"], "f32");
    assert_eq!(v["dims"], serde_json::json!([3, 5]));
    assert_eq!(v["minor_to_major"], serde_json::json!([1, 0]));
    assert_eq!(v["element_bits"], 32);
    assert_eq!(v["elements"], 15);
    assert_eq!(v["physical_elements"], 24);
    assert_eq!(v["size_bytes"], 96);
    assert_eq!(v["memory_space"], 0);
    // docs/tiled_layout.md Figure 1.
    assert_eq!(
        v["offsets"],
        serde_json::json!([0, 1, 4, 5, 8, 2, 3, 6, 7, 10, 12, 13, 16, 17, 20])
    );
}

#[test]
fn explain_json_omits_offsets_for_large_or_unbounded_arrays() {
    let v = &json_lines(&run(&["explain", "--json", "f32[1024,1024]"], ""))[0];
    assert!(v.get("offsets").is_none());
    assert_eq!(v["physical_elements"], 1048576);
    let v = &json_lines(&run(&["explain", "--json", "f32[?,784]"], ""))[0];
    assert!(v.get("offsets").is_none());
    assert_eq!(v["dims"], serde_json::json!([null, 784]));
}

#[test]
fn explain_rejects_invalid_and_non_array_input() {
    assert_eq!(
        run(&["explain", "f32[2,3]{0,0}"], "").status.code(),
        Some(1)
    );
    assert_eq!(
        run(&["explain", "(f32[2], s32[])"], "").status.code(),
        Some(1)
    );
}
