//! The `xla-layout` command end to end: help, version, completions, `check` and `explain`
//! (text, JSON, stdin with line numbers, tuples, huge shapes, SVG), exit statuses and colour.
//! Outputs worth reading whole are snapshot files under `tests/snapshots/`.
//!
//! Expected numbers come from XLA's docs (docs/tiled_layout.md: `f32[3,5]{1,0:T(2,2)}` puts
//! element [2,3] at offset 17 in 24 slots) and from the seed document's examples.

mod common;

use common::{cmd, run};

use serde_json::{Value, json};

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

// ---- help, version, usage errors, completions ----

#[test]
fn help_for_the_command_and_each_subcommand() {
    let top = run(&["--help"], "");
    assert_eq!(top.code, 0);
    insta::assert_snapshot!("help", top.stdout);
    for sub in ["check", "explain", "completions"] {
        let r = run(&[sub, "--help"], "");
        assert_eq!(r.code, 0, "{sub} --help");
        insta::assert_snapshot!(format!("help_{sub}"), r.stdout);
    }
    // `help check` is the same as `check --help`.
    assert_eq!(
        run(&["help", "check"], "").stdout,
        run(&["check", "--help"], "").stdout
    );
}

#[test]
fn version() {
    let r = run(&["--version"], "");
    assert_eq!(r.code, 0);
    assert_eq!(
        r.stdout,
        format!("xla-layout {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn usage_errors_exit_two() {
    for args in [
        &[][..],
        &["frobnicate"],
        &["check", "--yaml"],
        &["explain", "f32[2]", "f32[3]"],
        &["completions", "cmd.exe"],
        &["explain", "--slice", "0", "f32[2,3,4,5]"],
        &["explain", "--slice", "0,5", "f32[2,3,4,5]"],
    ] {
        let r = run(args, "");
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("error") || r.stderr.contains("Usage"),
            "{args:?}"
        );
    }
    // `explain` with nothing on stdin (not a terminal) has nothing to explain.
    assert_eq!(run(&["explain"], "\n\n").code, 2);
}

#[test]
fn completions_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let r = run(&["completions", shell], "");
        assert_eq!(r.code, 0, "{shell}");
        assert!(r.stdout.contains("xla-layout"), "{shell}");
        assert!(r.stdout.contains("explain"), "{shell}");
        assert!(r.stdout.contains("--json"), "{shell}");
    }
}

// ---- check ----

#[test]
fn check_arguments_exit_zero_when_all_valid() {
    let r = run(&["check", "f32[ 2, 3 ]{1,0:S(0)}", "s4[2]{0:E(4)}"], "");
    assert_eq!(r.code, 0);
    assert_eq!(r.stdout, "f32[2,3]{1,0}\ns4[2]{0:E(4)}\n");
}

#[test]
fn check_human_errors_have_a_caret_under_the_token() {
    let r = run(&["check", "f32[2,3]{1,0:S(1)T(2,128)}"], "");
    assert_eq!(r.code, 1);
    insta::assert_snapshot!("check_caret", r.stderr);
}

#[test]
fn check_stdin_errors_name_their_line() {
    let stdin = "f32[2]\n\n# not a shape\nf32[2,3]{1,1}\r\nbf16[8,128]{1,0:T(8,128)}\n";
    for args in [&["check"][..], &["check", "-"]] {
        let r = run(args, stdin);
        assert_eq!(r.code, 1);
        assert_eq!(r.stdout, "f32[2]{0}\nbf16[8,128]{1,0:T(8,128)}\n");
        insta::assert_snapshot!("check_stdin_lines", r.stderr);
    }
}

#[test]
fn check_mixes_arguments_and_stdin_in_order() {
    let r = run(&["check", "f32[1]", "-", "f32[3]"], "f32[2]\n");
    assert_eq!(r.code, 0);
    assert_eq!(r.stdout, "f32[1]{0}\nf32[2]{0}\nf32[3]{0}\n");
}

#[test]
fn check_json_contract_with_lines() {
    let r = run(
        &["check", "--json"],
        "f32[123,456]\n\n  \nf32[2,3]{0,0}\r\n(f32[], f32[], f32[], f32[], f32[], f32[])\n",
    );
    assert_eq!(r.code, 1);
    let lines = json_lines(&r.stdout);
    assert_eq!(lines.len(), 3);
    assert_eq!(
        lines[0],
        json!({"input": "f32[123,456]", "ok": true, "canonical": "f32[123,456]{1,0}", "line": 1})
    );
    assert_eq!(lines[1]["input"], "f32[2,3]{0,0}");
    assert_eq!(lines[1]["ok"], false);
    assert_eq!(lines[1]["line"], 4);
    let e = &lines[1]["errors"][0];
    assert_eq!((&e["start"], &e["end"]), (&json!(11), &json!(12)));
    assert_eq!((&e["line"], &e["column"]), (&json!(4), &json!(12)));
    assert!(e["message"].as_str().unwrap().contains("twice"));
    assert_eq!(
        lines[2]["canonical"],
        "(f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[])"
    );
    // Arguments carry no `line` at the top.
    let v = &json_lines(&run(&["check", "--json", "f32[2]"], "").stdout)[0];
    assert_eq!(
        v,
        &json!({"input": "f32[2]", "ok": true, "canonical": "f32[2]{0}"})
    );
}

#[test]
fn long_lines_with_many_errors_check_with_short_windows() {
    // 33,000 errors on one 99 KB line: every error shows a bounded window of its line.
    // Size guard: printing the whole line for each error (3.3 GB) fails the line lengths.
    let line = format!("f32[2]{{0:T{}}}\n", "(0)".repeat(33_000));
    let r = run(&["check"], &line);
    assert_eq!(r.code, 1);
    assert_eq!(r.stderr.matches("error: tile dimension 0").count(), 33_000);
    // A window of at most 120 characters, `...` on both sides and the gutter.
    assert!(
        r.stderr
            .lines()
            .all(|l| l.len() <= 120 + 6 + "99009 | ".len())
    );
    assert!(r.stderr.contains(" --> <stdin>:1:99009\n"));
}

// ---- colour ----

#[test]
fn colour_follows_clicolor_force_no_color_and_the_flag() {
    let bad = ["check", "f32[2]{1}"];
    let plain = run(&bad, "").stderr;
    assert!(!plain.contains('\x1b'), "a pipe gets no colour");
    let forced = cmd().args(bad).env("CLICOLOR_FORCE", "1").output().unwrap();
    let forced = String::from_utf8(forced.stderr).unwrap();
    assert!(forced.contains("\x1b[1m\x1b[31merror"), "{forced:?}");
    let no_color = cmd()
        .args(bad)
        .env("CLICOLOR_FORCE", "1")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!String::from_utf8(no_color.stderr).unwrap().contains('\x1b'));
    let always = run(&["--color", "always", "check", "f32[2]{1}"], "").stderr;
    assert!(always.contains('\x1b'));
    let never = cmd()
        .args(["--color", "never", "check", "f32[2]{1}"])
        .env("CLICOLOR_FORCE", "1")
        .output()
        .unwrap();
    assert!(!String::from_utf8(never.stderr).unwrap().contains('\x1b'));
}

// ---- explain: text ----

#[test]
fn explain_the_docs_tiled_example() {
    let r = run(&["explain", "f32[3,5]{1,0:T(2,2)}"], "");
    assert_eq!(r.code, 0);
    // docs/tiled_layout.md: element [2,3] at offset 17, 24 slots for 15 elements.
    assert!(
        r.stdout.contains("      2  12 13 16 17 20\n"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("physical   24 element slots, 96 bytes"));
    insta::assert_snapshot!("explain_docs_example", r.stdout);
}

#[test]
fn explain_reads_stdin_with_or_without_dash() {
    let seed = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}\n";
    let piped = run(&["explain"], seed);
    assert_eq!(piped.code, 0);
    assert_eq!(piped.stdout, run(&["explain", "-"], seed).stdout);
    let text = piped.stdout;
    assert!(text.starts_with("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}\n"));
    assert!(text.contains("[1,8,1280,16384] -> [1,8,160,128,8,128] -> [1,8,160,128,4,128,2,1]"));
    assert!(text.contains(
        "i0*20971520 + (i2>>3)*131072 + (i3>>7)*1024 + ((i2&7)>>1)*256 + (i3&127)*2 + (i2&1)"
    ));
    assert!(text.contains("S(1): fast memory"));
    insta::assert_snapshot!("explain_seed", text);
}

#[test]
fn explain_spells_out_the_seed_memory_order_and_warns_on_padding() {
    let text = run(&["explain", "f32[2,3]{0,1}"], "").stdout;
    assert!(text.contains("  0  a d b e c f\n"), "{text}");
    let text = run(&["explain", "f32[2,3]{1,0:T(8,128)}"], "").stdout;
    assert!(text.contains("WARNING"), "{text}");
    assert!(text.contains("1018 slots"), "{text}");
}

#[test]
fn explain_stdin_errors_name_their_line() {
    let r = run(&["explain"], "f32[2]\n\nf32[2,3]{1,1}\n");
    assert_eq!(r.code, 1);
    assert!(r.stdout.starts_with("f32[2]{0}\n"));
    assert!(r.stderr.contains(" --> <stdin>:3:12\n"), "{}", r.stderr);
    assert!(r.stderr.contains("3 | f32[2,3]{1,1}\n"), "{}", r.stderr);
}

#[test]
fn explain_tuples_element_by_element() {
    let r = run(
        &["explain", "(f32[2,3]{0,1}, (s32[], token[]), b(u8[3]))"],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    for heading in [
        "── element {0} ── f32[2,3]{0,1}",
        "── element {1,0} ── s32[]",
        "── element {1,1} ── token[]",
        "── element {2} ── b(u8[3]{0})",
    ] {
        assert!(r.stdout.contains(heading), "{heading}\n{}", r.stdout);
    }
    // 24 + 4 + 0 + 3 bytes.
    assert!(r.stdout.contains("a tuple with 4 leaves; 31 bytes in all"));
    insta::assert_snapshot!("explain_tuple", r.stdout);
}

#[test]
fn explain_slices_of_higher_ranks() {
    let r = run(&["explain", "--slice", "1,2", "f32[2,3,4,5]"], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Row-major: [1,2,i,j] is at 60*1 + 20*2 + 5*i + j.
    assert!(r.stdout.contains("  slice [1, 2, :, :]\n"), "{}", r.stdout);
    assert!(
        r.stdout.contains("      3  115 116 117 118 119\n"),
        "{}",
        r.stdout
    );
    let r = run(&["explain", "f32[2,3,4,5]"], "");
    assert!(
        r.stdout
            .contains("... 4 more slices (pick one with --slice)")
    );
}

// ---- explain: huge shapes stay bounded ----

/// Shapes whose padding, tiles or size are huge: each explains into a small output, with
/// exact sizes (from XLA's formula: slots x bits / 8).
///
/// Hang guard: every shape has 2^50 or more slots (padding or elements), which an `explain`
/// that walks them could not get through in any CI run; the output bound catches one that
/// prints them.
#[test]
fn explain_huge_shapes_is_bounded() {
    let cases = [
        // 4 elements aligned to 2^60 slots of 4 bytes: 2^62 bytes.
        (
            "f32[2,2]{1,0:L(1152921504606846976)}",
            "4611686018427387904 bytes",
        ),
        // One element in a tile of 2^60 slots of 4 bytes: 2^62 bytes.
        (
            "f32[1,1]{1,0:T(1,1152921504606846976)}",
            "4611686018427387904 bytes",
        ),
        // 8 first-level tiles of 8 x 128 slots, each slot a (2^40,1) tile: 2^50 slots of 2
        // bytes, 2^51 bytes.
        (
            "bf16[8,1,64]{2,1,0:T(8,128)(1099511627776,1)S(5)}",
            "2251799813685248 bytes",
        ),
        // 2^61 one-byte elements.
        ("s8[2305843009213693952]", "2305843009213693952 bytes"),
        // [1,1,6] to the tile (2, X, 2), X = 2^58 - 1: 3 tiles of 4X slots of 2 bytes, 24X.
        (
            "bf16[6]{0:T(2,288230376151711743,2)}",
            "6917529027641081832 bytes",
        ),
        // XLA's bf16[8,1,1280,16384] with 2^48 columns: 8 * 1280 * 2^48 elements (the tiles
        // divide the dims) of 2 bytes, 20480 * 2^48 bytes.
        (
            "bf16[8,1,1280,281474976710656]{3,2,0,1:T(8,128)(2,1)S(1)}",
            "5764607523034234880 bytes",
        ),
    ];
    for (shape, bytes) in cases {
        for mode in [
            &["explain"][..],
            &["explain", "--json"],
            &["explain", "--svg", "-"],
        ] {
            let mut args = mode.to_vec();
            args.push(shape);
            let r = run(&args, "");
            assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
            assert!(
                r.stdout.len() < 200_000,
                "{args:?}: {} bytes",
                r.stdout.len()
            );
        }
        let text = run(&["explain", shape], "").stdout;
        assert!(text.contains("physical   "), "{text}");
        assert!(text.contains(bytes), "{shape}: {text}");
        assert!(!text.contains(" 0 bytes"), "{shape}: {text}");
    }
    let v = &json_lines(&run(&["explain", "--json", "s8[2305843009213693952]"], "").stdout)[0];
    assert_eq!(v["size_bytes"], json!(2305843009213693952u64));
    assert!(v.get("offsets").is_none());
    insta::assert_snapshot!(
        "explain_huge_padding",
        run(&["explain", "f32[2,2]{1,0:L(1099511627776)}"], "").stdout
    );
}

// ---- explain: JSON ----

#[test]
fn explain_json_contract() {
    let r = run(&["explain", "--json", "f32[3,5]{1,0:T(2,2)}"], "");
    assert_eq!(r.code, 0);
    let v = &json_lines(&r.stdout)[0];
    assert_eq!(v["input"], "f32[3,5]{1,0:T(2,2)}");
    assert_eq!(v["ok"], true);
    assert_eq!(v["kind"], "array");
    assert_eq!(v["canonical"], "f32[3,5]{1,0:T(2,2)}");
    assert_eq!(v["element_type"], "f32");
    assert_eq!(v["dims"], json!([3, 5]));
    assert_eq!(v["minor_to_major"], json!([1, 0]));
    assert_eq!(v["element_bits"], 32);
    assert_eq!(v["elements"], 15);
    assert_eq!(v["physical_elements"], 24);
    assert_eq!(v["padding_elements"], 9);
    assert_eq!(v["size_bytes"], 96);
    assert_eq!(v["memory_space"], 0);
    // docs/tiled_layout.md Figure 1.
    assert_eq!(
        v["offsets"],
        json!([0, 1, 4, 5, 8, 2, 3, 6, 7, 10, 12, 13, 16, 17, 20])
    );
}

#[test]
fn explain_json_for_invalid_input_is_check_json() {
    let r = run(&["explain", "--json", "f32[2,3]{0,0}"], "");
    assert_eq!(r.code, 1);
    assert_eq!(r.stderr, "");
    let v = &json_lines(&r.stdout)[0];
    assert_eq!(
        v,
        &json_lines(&run(&["check", "--json", "f32[2,3]{0,0}"], "").stdout)[0]
    );
    assert_eq!(v["ok"], false);
    assert_eq!(v["errors"][0]["start"], 11);
    // From stdin, with the line.
    let v = &json_lines(&run(&["explain", "--json"], "f32[1]\nf32[2,3]{0,0}\n").stdout)[1];
    assert_eq!(v["line"], 2);
    assert_eq!(v["errors"][0]["line"], 2);
}

#[test]
fn explain_json_tuples_list_leaves_with_index_paths() {
    let r = run(&["explain", "--json", "(f32[2], (s32[], token[]))"], "");
    assert_eq!(r.code, 0);
    let v = &json_lines(&r.stdout)[0];
    assert_eq!(v["kind"], "tuple");
    assert_eq!(v["leaves"], 3);
    assert_eq!(v["size_bytes"], 12);
    let e = v["elements"].as_array().unwrap();
    let paths: Vec<&Value> = e.iter().map(|e| &e["index"]).collect();
    assert_eq!(paths, [&json!([0]), &json!([1, 0]), &json!([1, 1])]);
    assert_eq!(e[0]["canonical"], "f32[2]{0}");
    assert_eq!(e[0]["offsets"], json!([0, 1]));
    assert_eq!(e[2]["kind"], "token");
}

#[test]
fn explain_json_omits_offsets_for_large_or_unbounded_arrays() {
    let v = &json_lines(&run(&["explain", "--json", "f32[1024,1024]"], "").stdout)[0];
    assert!(v.get("offsets").is_none());
    assert_eq!(v["physical_elements"], 1048576);
    let v = &json_lines(&run(&["explain", "--json", "f32[?,784]"], "").stdout)[0];
    assert!(v.get("offsets").is_none());
    assert_eq!(v["dims"], json!([null, 784]));
}

#[test]
fn explain_rejects_invalid_input() {
    assert_eq!(run(&["explain", "f32[2,3]{0,0}"], "").code, 1);
}

// ---- explain --svg ----

/// The SVG of a shape, parsed back.
fn svg(args: &[&str]) -> String {
    let r = run(args, "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.stdout
}

fn by_class<'a>(doc: &'a roxmltree::Document<'a>, class: &str) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .collect()
}

#[test]
fn svg_of_the_docs_example_has_cells_by_tile_and_hatched_padding() {
    let text = svg(&["explain", "--svg", "-", "f32[3,5]{1,0:T(2,2)}"]);
    let doc = roxmltree::Document::parse(&text).unwrap();
    // 15 cells labelled with docs/tiled_layout.md's offsets, row by row.
    let labels: Vec<&str> = by_class(&doc, "offset")
        .iter()
        .map(|n| n.text().unwrap())
        .collect();
    assert_eq!(
        labels,
        [
            "0", "1", "4", "5", "8", "2", "3", "6", "7", "10", "12", "13", "16", "17", "20"
        ]
    );
    let cells = by_class(&doc, "cell");
    assert_eq!(cells.len(), 15);
    let fill = |k: usize| cells[k].attribute("fill").unwrap();
    // The 2x2 tile at [0..2, 0..2] shares a colour; its neighbours have others.
    assert_eq!(fill(0), fill(1));
    assert_eq!(fill(0), fill(5));
    assert_eq!(fill(0), fill(6));
    assert_ne!(fill(0), fill(2));
    assert_ne!(fill(0), fill(10));
    assert_ne!(fill(2), fill(4));
    // Row 2 (cells 10..15) holds tiles 3, 4, 5 (offsets 12.., 16.., 20..).
    assert_eq!(fill(10), fill(11));
    assert_eq!(fill(12), fill(13));
    assert_ne!(fill(11), fill(12));
    // Memory: 24 slots in rows of one tile (4 slots); 9 of them padding.
    assert_eq!(by_class(&doc, "slot").len(), 15);
    let pads = by_class(&doc, "pad");
    assert_eq!(pads.len(), 9);
    let pad_offsets: Vec<&str> = pads
        .iter()
        .map(|n| n.attribute("data-offset").unwrap())
        .collect();
    assert_eq!(
        pad_offsets,
        ["9", "11", "14", "15", "18", "19", "21", "22", "23"]
    );
    // Slot 17 holds element [2,3] (the docs' worked example), in its cell's colour.
    let slot17 = doc
        .descendants()
        .find(|n| {
            n.has_tag_name("g")
                && n.attribute("data-offset") == Some("17")
                && n.attribute("data-index").is_none()
        })
        .unwrap();
    let index = slot17
        .descendants()
        .find(|n| n.attribute("class") == Some("index"))
        .unwrap();
    assert_eq!(index.text(), Some("2,3"));
    let slot_rect = slot17
        .descendants()
        .find(|n| n.attribute("class") == Some("slot"))
        .unwrap();
    assert_eq!(slot_rect.attribute("fill"), Some(fill(13)));
    // The legend names the tiling steps.
    let legend: Vec<&str> = by_class(&doc, "legend")
        .iter()
        .map(|n| n.text().unwrap())
        .collect();
    assert!(
        legend.contains(&"tiling T(2,2): [3,5] -> [2,3,2,2]"),
        "{legend:?}"
    );
    insta::assert_snapshot!("svg_docs_example", text);
}

#[test]
fn svg_of_a_large_array_is_a_window_that_keeps_whole_tiles() {
    let text = svg(&[
        "explain",
        "--svg",
        "-",
        "--slice",
        "3,0",
        "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
    ]);
    let doc = roxmltree::Document::parse(&text).unwrap();
    assert_eq!(by_class(&doc, "cell").len(), 16 * 16);
    let captions: Vec<&str> = by_class(&doc, "caption")
        .iter()
        .map(|n| n.text().unwrap())
        .collect();
    assert!(
        captions
            .iter()
            .any(|c| c.contains("slice [3, 0, :, :]") && c.contains("rows i2 0..16 of 1280")),
        "{captions:?}"
    );
    let more: Vec<&str> = by_class(&doc, "more")
        .iter()
        .map(|n| n.text().unwrap())
        .collect();
    assert!(
        more.contains(&"... 16368 more columns, ... 1264 more rows"),
        "{more:?}"
    );
    // Rows 0..8 are one (8,128) tile, rows 8..16 the next one down.
    let cells = by_class(&doc, "cell");
    let fill = |r: usize, c: usize| cells[r * 16 + c].attribute("fill").unwrap();
    assert_eq!(fill(0, 0), fill(7, 15));
    assert_eq!(fill(8, 0), fill(15, 15));
    assert_ne!(fill(0, 0), fill(8, 0));
    // [3,0,0,0] = 3*20971520 (the seed's closed form).
    assert_eq!(
        cells[0].parent().unwrap().attribute("data-offset"),
        Some("62914560")
    );
    // Memory: a tile (1024 slots) spans rows of 32; no padding in the first 512 slots.
    assert_eq!(by_class(&doc, "slot").len(), 512);
    assert_eq!(by_class(&doc, "pad").len(), 0);
}

#[test]
fn svg_goes_to_a_file_next_to_the_text() {
    let dir = std::env::temp_dir().join(format!("xla-layout-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tuple.svg");
    let r = run(
        &[
            "explain",
            "--svg",
            path.to_str().unwrap(),
            "(token[], s4[5]{0:T(4)E(4)})",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("── element {1} ── s4[5]{0:T(4)E(4)}"));
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let captions: Vec<&str> = by_class(&doc, "caption")
        .iter()
        .map(|n| n.text().unwrap())
        .collect();
    assert_eq!(captions[0], "tuple element {1}: s4[5]{0:T(4)E(4)}");
    // 5 elements in tiles of 4: 8 slots, 3 of them padding.
    assert_eq!(by_class(&doc, "cell").len(), 5);
    assert_eq!(by_class(&doc, "pad").len(), 3);
}
