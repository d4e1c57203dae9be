//! `xla-layout convert` end to end: `.npy` files written by numpy itself into tiled layouts
//! and back, byte for byte; tiled bytes against numpy's pad-reshape-transpose of the same
//! array and against positions computed by hand from XLA's tiling doc; raw input and output
//! through stdin and stdout; files; the JSON summary; and every refusal, snapshotted.
//!
//! The fixtures in `tests/data/convert/` were written by `make.py` beside them with numpy
//! 2.4 and ml_dtypes 0.6: `np.save` of small arrays of each dtype (bfloat16 from ml_dtypes),
//! a Fortran-order copy, and the expected tiled buffers of three layouts, computed with
//! numpy's pad, reshape and transpose, independently of this repository.

mod common;

use std::path::{Path, PathBuf};

use common::{cmd, run};
use serde_json::Value;

/// The fixtures' folder.
fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/convert")
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(data().join(name)).unwrap()
}

/// What a conversion run printed, as bytes on stdout.
struct Out {
    code: i32,
    stdout: Vec<u8>,
    stderr: String,
}

/// Runs `convert` in the fixtures' folder (so messages name files relatively) with `stdin`.
fn convert(args: &[&str], stdin: &[u8]) -> Out {
    let out = cmd()
        .current_dir(data())
        .arg("convert")
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    Out {
        code: out.status.code().unwrap(),
        stdout: out.stdout,
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// Converts and expects success; returns stdout's bytes.
fn ok(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let r = convert(args, stdin);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r.stdout
}

/// Converts and expects exit status `code`; returns stderr.
fn fails(args: &[&str], code: i32) -> String {
    let r = convert(args, b"");
    assert_eq!(r.code, code, "{args:?}: {}", r.stderr);
    assert!(r.stdout.is_empty(), "{args:?}");
    r.stderr
}

/// A row-major layout of `dims` (XLA's default `{rank-1,...,0}`).
fn row_major(element_type: &str, dims: &str) -> String {
    format!("{element_type}[{dims}]")
}

// ---- round trips: numpy's files -> tiled raw -> .npy, byte-identical ----

/// (fixture, element type, dims, tiled layout, bytes of the tiled layout computed by hand:
/// each dim in minor-to-major order rounded up to the tile, times the element bytes).
const ROUND_TRIPS: &[(&str, &str, &str, &str, usize)] = &[
    // 16x300 -> 16x384 by (8,128); (2,1) only reorders within the tile.
    (
        "bf16_16x300.npy",
        "bf16",
        "16,300",
        "{1,0:T(8,128)(2,1)}",
        16 * 384 * 2,
    ),
    (
        "s8_40x200.npy",
        "s8",
        "40,200",
        "{1,0:T(32,128)(4,1)}",
        64 * 256,
    ),
    // Dim 0 minor: physical [20,13] -> [24,128].
    (
        "f32_13x20.npy",
        "f32",
        "13,20",
        "{0,1:T(8,128)}",
        24 * 128 * 4,
    ),
    // minor_to_major {2,0,1}: physical [5,3,7] major to minor; (2,4) pads 3x7 to 4x8.
    (
        "f64_3x5x7.npy",
        "f64",
        "3,5,7",
        "{2,0,1:T(2,4)}",
        5 * 4 * 8 * 8,
    ),
    (
        "pred_9x17.npy",
        "pred",
        "9,17",
        "{1,0:T(8,128)(4,1)}",
        16 * 128,
    ),
    (
        "u16_5x130.npy",
        "u16",
        "5,130",
        "{1,0:T(8,128)(2,1)}",
        8 * 256 * 2,
    ),
    ("s16_3x3.npy", "s16", "3,3", "{0,1:T(2,2)}", 4 * 4 * 2),
    ("u32_2x9.npy", "u32", "2,9", "{1,0:T(8,128)}", 8 * 128 * 4),
    ("s64_7x3.npy", "s64", "7,3", "{0,1:T(4)}", 3 * 8 * 8),
    ("u64_4.npy", "u64", "4", "{0:T(3)}", 6 * 8),
    ("c64_6x10.npy", "c64", "6,10", "{1,0:T(4,8)}", 8 * 16 * 8),
    ("c128_3x4.npy", "c128", "3,4", "{0,1:T(2,2)}", 4 * 4 * 16),
    (
        "f16_9x129.npy",
        "f16",
        "9,129",
        "{1,0:T(8,128)(2,1)}",
        16 * 256 * 2,
    ),
    ("u8_1000.npy", "u8", "1000", "{0:T(1024)}", 1024),
    ("s32_scalar.npy", "s32", "", "", 4),
    ("f32_0x3.npy", "f32", "0,3", "{1,0:T(8,128)}", 0),
];

#[test]
fn npy_to_tiled_and_back_is_byte_identical_for_every_dtype() {
    for &(file, ty, dims, layout, bytes) in ROUND_TRIPS {
        let tiled = format!("{ty}[{dims}]{layout}");
        let raw = ok(&[file, "--to", &tiled, "-o", "-"], b"");
        assert_eq!(raw.len(), bytes, "{tiled}");
        // Back through stdin to a .npy on stdout: numpy's own file, byte for byte.
        let back = ok(
            &[
                "-",
                "--from",
                &tiled,
                "--to",
                &row_major(ty, dims),
                "--npy",
                "-o",
                "-",
            ],
            &raw,
        );
        assert!(back == fixture(file), "{file} through {tiled}");
    }
}

#[test]
fn tiled_bytes_match_numpys_pad_reshape_transpose() {
    for (file, to, expected) in [
        (
            "bf16_16x300.npy",
            "bf16[16,300]{1,0:T(8,128)(2,1)}",
            "bf16_16x300.T8_128_2_1.bin",
        ),
        (
            "s8_40x200.npy",
            "s8[40,200]{1,0:T(32,128)(4,1)}",
            "s8_40x200.T32_128_4_1.bin",
        ),
        (
            "f32_13x20.npy",
            "f32[13,20]{0,1:T(8,128)}",
            "f32_13x20.m2m01_T8_128.bin",
        ),
        // The same array saved in Fortran order gives the same device bytes.
        (
            "f32_13x20_fortran.npy",
            "f32[13,20]{0,1:T(8,128)}",
            "f32_13x20.m2m01_T8_128.bin",
        ),
    ] {
        let raw = ok(&[file, "--to", to, "-o", "-"], b"");
        assert!(raw == fixture(expected), "{file} -> {to}");
    }
}

#[test]
fn fortran_order_files_are_column_major_both_ways() {
    // Row-major file -> {0,1} .npy is what np.save writes for np.asfortranarray(a) ...
    let f = ok(
        &[
            "f32_13x20.npy",
            "--to",
            "f32[13,20]{0,1}",
            "--npy",
            "-o",
            "-",
        ],
        b"",
    );
    assert!(f == fixture("f32_13x20_fortran.npy"));
    // ... and the Fortran file -> {1,0} is the row-major file.
    let c = ok(
        &[
            "f32_13x20_fortran.npy",
            "--to",
            "f32[13,20]{1,0}",
            "--npy",
            "-o",
            "-",
        ],
        b"",
    );
    assert!(c == fixture("f32_13x20.npy"));
}

// ---- tiled bytes computed by hand ----

fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

#[test]
fn a_small_tiling_against_positions_computed_by_hand() {
    // f32[2,3]{1,0:T(2,2)} (XLA's docs/tiled_layout.md): dim 1 (3) is padded to 4, giving
    // two 2x2 tiles in row-major order, each tile row-major inside:
    //   tile 0: a00 a01 a10 a11     tile 1: a02 pad a12 pad
    let a = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]; // a00 a01 a02 / a10 a11 a12
    let raw = ok(
        &[
            "-",
            "--from",
            "f32[2,3]{1,0}",
            "--to",
            "f32[2,3]{1,0:T(2,2)}",
            "-o",
            "-",
        ],
        &f32_bytes(&a),
    );
    assert_eq!(raw, f32_bytes(&[1.0, 2.0, 4.0, 5.0, 3.0, 0.0, 6.0, 0.0]));

    // f32[3,5]{1,0:T(2,2)}, the doc's example: 3x5 padded to 4x6 is 2x3 tiles, 24 slots;
    // element [2,3] is in tile (1,1), the fifth (slots 16..19), at [0,1] inside: slot 17.
    let values: Vec<f32> = (0..15).map(|k| k as f32 + 100.0).collect();
    let raw = ok(
        &[
            "-",
            "--from",
            "f32[3,5]",
            "--to",
            "f32[3,5]{1,0:T(2,2)}",
            "-o",
            "-",
        ],
        &f32_bytes(&values),
    );
    assert_eq!(raw.len(), 24 * 4);
    let slot = |k: usize| f32::from_le_bytes(raw[4 * k..4 * k + 4].try_into().unwrap());
    assert_eq!(slot(17), values[2 * 5 + 3]);
    // Slots 18 and 19 are [3,2] and [3,3]: row 3 is padding, zeroed.
    assert_eq!((slot(18), slot(19)), (0.0, 0.0));
}

// ---- files, stdin, stdout, summaries ----

#[test]
fn files_in_and_out_with_a_summary_on_stderr() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("convert_files");
    std::fs::create_dir_all(&dir).unwrap();
    let (tiled, back) = (dir.join("w.tpu.bin"), dir.join("back.npy"));
    let layout = "bf16[16,300]{1,0:T(8,128)(2,1)}";
    let r = convert(
        &[
            "bf16_16x300.npy",
            "--to",
            layout,
            "-o",
            tiled.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.is_empty());
    assert!(
        r.stderr
            .starts_with("converted bf16_16x300.npy (bf16[16,300]{1,0}) to ")
    );
    assert!(
        r.stderr.ends_with(
            "(bf16[16,300]{1,0:T(8,128)(2,1)}): 4800 elements, 9600 bytes in, 12288 bytes out \
         (2688 of them padding)\n"
        ),
        "{}",
        r.stderr
    );
    assert!(std::fs::read(&tiled).unwrap() == fixture("bf16_16x300.T8_128_2_1.bin"));
    // OUT ending in .npy writes a .npy file; --quiet prints nothing.
    let r = convert(
        &[
            tiled.to_str().unwrap(),
            "--from",
            layout,
            "--to",
            "bf16[16,300]{1,0}",
            "-o",
            back.to_str().unwrap(),
            "--quiet",
        ],
        b"",
    );
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    assert!(std::fs::read(&back).unwrap() == fixture("bf16_16x300.npy"));
}

#[test]
fn json_summary() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("convert_json");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("s8.bin");
    let stdout = ok(
        &[
            "s8_40x200.npy",
            "--to",
            "s8[40,200]{1,0:T(32,128)(4,1)}",
            "-o",
            out.to_str().unwrap(),
            "--json",
        ],
        b"",
    );
    let v: Value = serde_json::from_slice(&stdout).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["input"], "s8_40x200.npy");
    assert_eq!(v["from"], "s8[40,200]{1,0}");
    assert_eq!(v["to"], "s8[40,200]{1,0:T(32,128)(4,1)}");
    assert_eq!(
        (v["npy_in"].clone(), v["npy_out"].clone()),
        (true.into(), false.into())
    );
    assert_eq!(v["elements"], 8000);
    assert_eq!(v["bytes_in"], 8000);
    // 40x200 -> 64x256 by (32,128).
    assert_eq!(v["bytes_out"], 64 * 256);
    assert_eq!(v["padding_bytes"], 64 * 256 - 8000);

    // Errors as JSON: layout text errors carry their argument and byte range.
    let r = convert(
        &[
            "s8_40x200.npy",
            "--to",
            "s8[40,200]{1,1}",
            "-o",
            "x",
            "--json",
        ],
        b"",
    );
    assert_eq!(r.code, 1);
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["ok"], false);
    let e = &v["errors"][0];
    assert_eq!(
        (e["argument"].as_str(), e["start"].as_u64()),
        (Some("--to"), Some(13))
    );
    let r = convert(
        &["s8_40x200.npy", "--to", "s8[40,201]", "-o", "x", "--json"],
        b"",
    );
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    assert!(
        v["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("dims differ")
    );
    assert_eq!(v["errors"][0]["notes"].as_array().unwrap().len(), 3);
}

#[test]
fn sub_byte_types_convert_as_raw_bytes() {
    // s4 one element per byte (no E) into packed E(4) storage: two elements per byte, the
    // first in the low nibble (XLA's little-endian bit order).
    let packed = ok(
        &[
            "-",
            "--from",
            "s4[2,3]{1,0}",
            "--to",
            "s4[2,3]{1,0:E(4)}",
            "-o",
            "-",
        ],
        &[1, 2, 3, 4, 5, 6],
    );
    assert_eq!(packed, [0x21, 0x43, 0x65]);
}

// ---- refusals ----

#[test]
fn mismatched_arrays_name_both_shapes_and_what_differs() {
    let e = fails(
        &[
            "f32_13x20.npy",
            "--to",
            "s32[13,21]{1,0:T(8,128)}",
            "-o",
            "x",
        ],
        1,
    );
    insta::assert_snapshot!("convert_mismatch", e);
    let e = fails(
        &[
            "-",
            "--from",
            "bf16[8,128]",
            "--to",
            "bf16[128,8]",
            "-o",
            "x",
        ],
        1,
    );
    assert!(
        e.contains("the dims differ (input [8, 128], --to [128, 8])"),
        "{e}"
    );
    assert!(!e.contains("element types"), "{e}");
}

#[test]
fn raw_input_of_the_wrong_length() {
    // A file whose length is not the --from layout's size.
    let e = fails(
        &[
            "s8_40x200.T32_128_4_1.bin",
            "--from",
            "s8[40,200]{1,0:T(8,128)}",
            "--to",
            "s8[40,200]",
            "-o",
            "x",
        ],
        1,
    );
    insta::assert_snapshot!("convert_raw_length", e);
    // A .npy file read as raw bytes by mistake.
    let e = fails(
        &[
            "u8_1000.npy",
            "--from",
            "u8[1000]",
            "--to",
            "u8[1000]",
            "-o",
            "x",
        ],
        1,
    );
    assert!(
        e.contains("u8_1000.npy has 1128 bytes, but --from `u8[1000]{0}` needs 1000"),
        "{e}"
    );
    assert!(
        e.contains("without --from, u8_1000.npy is read as a .npy file"),
        "{e}"
    );
    // Stdin: too short, and too long.
    let r = convert(
        &["-", "--from", "u8[4]", "--to", "u8[4]{0:T(2)}", "-o", "-"],
        b"abc",
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("<stdin> has 3 bytes, but --from `u8[4]{0}` needs 4"),
        "{}",
        r.stderr
    );
    let r = convert(
        &["-", "--from", "u8[4]", "--to", "u8[4]{0:T(2)}", "-o", "-"],
        b"abcdef",
    );
    assert!(r.stderr.contains("<stdin> has 6 bytes"), "{}", r.stderr);
}

#[test]
fn bad_layout_text_gets_a_caret_under_the_argument() {
    let e = fails(
        &[
            "-",
            "--from",
            "f32[2,3]{1,1}",
            "--to",
            "f32[2,3]{1,0:T(2,2)S(1)T(4)}",
            "-o",
            "x",
        ],
        1,
    );
    insta::assert_snapshot!("convert_bad_layout", e);
    // An unbounded dim is not the file's dim, and has no offsets.
    let e = fails(&["f32_13x20.npy", "--to", "f32[?,20]", "-o", "x"], 1);
    assert!(
        e.contains("dims differ (input [13, 20], --to [?, 20])"),
        "{e}"
    );
    let e = fails(
        &[
            "-",
            "--from",
            "f32[?,20]",
            "--to",
            "f32[?,20]{0,1}",
            "-o",
            "x",
        ],
        1,
    );
    assert!(
        e.contains("`f32[?,20]{1,0}` (--from) has no fixed offsets"),
        "{e}"
    );
}

#[test]
fn unsupported_dtypes_are_named() {
    let mut all = String::new();
    for file in ["unicode_2.npy", "int4_4.npy", "f32_big_endian_2x2.npy"] {
        all.push_str(&fails(&[file, "--to", "f32[2,2]", "-o", "x"], 1));
    }
    insta::assert_snapshot!("convert_unsupported_dtype", all);
    // Element types numpy lacks cannot be written to a .npy file.
    let e = fails(&["-", "--from", "s4[4]", "--to", "s4[4]", "-o", "x.npy"], 1);
    assert!(e.contains("the element type s4 has no numpy dtype"), "{e}");
}

#[test]
fn npy_output_needs_a_plain_layout() {
    let e = fails(
        &[
            "f64_3x5x7.npy",
            "--to",
            "f64[3,5,7]{0,2,1:T(2,4)L(64)}",
            "-o",
            "x.npy",
        ],
        1,
    );
    insta::assert_snapshot!("convert_npy_not_plain", e);
    // A memory space changes no byte: the array still fits a .npy file.
    let f = ok(
        &[
            "f64_3x5x7.npy",
            "--to",
            "f64[3,5,7]{2,1,0:S(1)}",
            "--npy",
            "-o",
            "-",
        ],
        b"",
    );
    assert!(f == fixture("f64_3x5x7.npy"));
}

#[test]
fn inputs_that_are_not_npy_files() {
    let e = fails(&["make.py", "--to", "f32[2]", "-o", "x"], 1);
    assert_eq!(
        e,
        "error: make.py is not a .npy file (it does not start with \\x93NUMPY)\n  \
         = to read raw bytes, give their layout with --from\n"
    );
    let mut truncated = fixture("f32_13x20.npy");
    truncated.truncate(200);
    let r = convert(&["-", "--to", "f32[13,20]", "-o", "-"], &truncated);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains(
            "<stdin> holds 72 bytes of data, but its header says f32[13,20]{1,0} (1040 bytes)"
        ),
        "{}",
        r.stderr
    );
    // Missing files and --json with data on stdout are usage errors.
    assert!(
        fails(&["nothing.npy", "--to", "f32[2]", "-o", "x"], 2).contains("cannot read nothing.npy")
    );
    assert_eq!(
        convert(
            &["f32_13x20.npy", "--to", "f32[13,20]", "-o", "-", "--json"],
            b""
        )
        .code,
        2
    );
}

#[test]
fn help() {
    let r = run(&["convert", "--help"], "");
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    insta::assert_snapshot!("help_convert", r.stdout);
}

// ---- round trips over generated shapes ----

/// (element type, bytes per element, a tiling valid for it).
const TILINGS: &[(&str, usize, &str)] = &[
    ("s8", 1, "T(32,128)(4,1)"),
    ("u8", 1, "T(3,5)"),
    ("bf16", 2, "T(8,128)(2,1)"),
    ("f32", 4, "T(8,128)"),
    ("f64", 8, "T(2,4)"),
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    #[test]
    fn raw_row_major_to_any_tiling_and_back_is_identity(
        tiling in proptest::sample::select(TILINGS),
        rows in 1usize..40,
        cols in 1usize..300,
        column_major: bool,
        seed: u64,
    ) {
        let (ty, bytes, tiles) = tiling;
        let m2m = if column_major { "0,1" } else { "1,0" };
        let plain = format!("{ty}[{rows},{cols}]");
        let tiled = format!("{ty}[{rows},{cols}]{{{m2m}:{tiles}}}");
        let data: Vec<u8> = (0..rows * cols * bytes)
            .map(|k| (seed.wrapping_mul(k as u64 + 1) >> 7) as u8)
            .collect();
        let device = ok(&["-", "--from", &plain, "--to", &tiled, "-o", "-"], &data);
        let back = ok(&["-", "--from", &tiled, "--to", &plain, "-o", "-"], &device);
        proptest::prop_assert!(back == data, "{plain} -> {tiled}");
    }
}
