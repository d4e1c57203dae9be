//! Hostile input (issue 10): exact sizes at the integer limits, XLA's rules for split configs
//! and element types, and bounded work for traversal, closed forms, error rendering and shapes
//! built in code. Expected values come from arithmetic stated next to each, or from XLA's
//! rules.
//!
//! No clocks: work that must not depend on padding (or blow up) is checked either with a
//! hostile quantity so large that a wrong implementation could not finish in any CI run
//! (over 2^37 padding slots to step through, 2^40 table entries, 10^12 merge steps, 2^60
//! copied arrays), so it shows as a hang that CI's timeout reports, or with a size that
//! measures the work (a closed form's tree size, the errors and bytes rendered, the errors a
//! budget allows, the state a traversal holds). Each case says which ("hang guard" or "size
//! guard"), and why the bug it guards would fail it.

use xla_layout::{
    ArrayLayout, ArrayShape, ErrorKind, MAX_NESTING, MAX_RENDERED_ERRORS, Plan, PrimitiveType,
    Shape, StaticLayout, Tile, TileDim, layout, parse, parse_array,
};

fn plan(text: &str) -> Plan {
    Plan::new(&parse_array(text).unwrap_or_else(|e| panic!("{text}: {e}")))
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn size_bytes_is_exact_at_2_pow_61() {
    // 2^61 one-byte elements: 2^61 bytes, 2^64 bits (the product that used to overflow).
    let p = plan("s8[2305843009213693952]");
    assert_eq!(p.size_bytes(), 1 << 61);
    assert_eq!(p.bit_offset(&[(1 << 61) - 1]), ((1u128 << 61) - 1) * 8);
    type Huge = layout!(s8[2305843009213693952]);
    assert_eq!(<Huge as StaticLayout>::SIZE_BYTES, 1 << 61);
    assert_eq!(<Huge as StaticLayout>::ELEMENTS, 1 << 61);
}

#[test]
fn size_bytes_is_exact_up_to_i64_max() {
    // i64::MAX one-byte elements, no prefix: exactly XLA's limit.
    assert_eq!(
        plan("s8[9223372036854775807]").size_bytes() as u64,
        i64::MAX as u64
    );
    // 2^62 - 1 elements of 2 bytes, plus M(1): 2^63 - 2 + 1 = i64::MAX.
    assert_eq!(
        plan("s16[4611686018427387903]{0:M(1)}").size_bytes() as u64,
        i64::MAX as u64
    );
}

#[test]
fn sizes_past_i64_max_name_the_limit() {
    // i64::MAX bytes of data plus a one-byte prefix: 2^63 bytes.
    let errs = parse("s8[9223372036854775807]{0:M(1)}").unwrap_err();
    assert_eq!(errs[0].kind(), ErrorKind::SizeOverflow);
    let m = errs[0].message();
    assert!(m.contains("2^63 bytes"), "{m}");
    assert!(
        m.contains("exceeds i64::MAX = 9223372036854775807, XLA's limit"),
        "{m}"
    );
    // 2^62 four-byte elements: 2^64 bytes (XLA's ValidateShapeSize: elements × byte width).
    let errs = parse("f32[4611686018427387904]").unwrap_err();
    assert!(
        errs[0].message().contains("2^64 bytes"),
        "{}",
        errs[0].message()
    );
    // 2^62 × 4 elements: 2^64 elements.
    let errs = parse("f32[4611686018427387904,4]").unwrap_err();
    assert!(
        errs[0].message().contains("2^64 elements"),
        "{}",
        errs[0].message()
    );
    // 2 elements tiled by 2^62 each way: 2^124 slots of 4 bytes = 2^126 bytes.
    let errs = parse("f32[1,2]{1,0:T(4611686018427387904,4611686018427387904)}").unwrap_err();
    assert!(
        errs[0].message().contains("2^126 bytes"),
        "{}",
        errs[0].message()
    );
}

#[test]
fn bit_offset_with_a_huge_prefix() {
    // M(2^62): the prefix alone is 2^65 bits; element 3 of s8 starts 24 bits later.
    let p = plan("s8[4]{0:M(4611686018427387904)}");
    assert_eq!(p.size_bytes() as u64, (1u64 << 62) + 4);
    assert_eq!(p.bit_offset(&[3]), (1u128 << 65) + 24);
}

#[test]
fn huge_alignment_is_not_allocated() {
    // L(2^60) pads 4 elements to 2^60 slots of 4 bytes: 2^62 bytes, none of them allocated.
    // Hang guard: walking (or allocating) the 2^60 - 4 padding slots after the last element
    // cannot finish (or aborts), so the traversals must stop after 4 elements without them.
    let p = plan("f32[2,2]{1,0:L(1152921504606846976)}");
    assert_eq!(p.size_bytes(), 1 << 62);
    assert_eq!(p.logical_offsets().collect::<Vec<_>>(), [0, 1, 2, 3]);
    let order: Vec<_> = p.memory_order().collect();
    assert_eq!(order, [(0, 0), (1, 1), (2, 2), (3, 3)]);
}

#[test]
fn traversals_cost_elements_not_padding() {
    // One element in a tile of 2^60 slots: slot 0 holds it, the rest is padding (2^62 bytes).
    // Hang guard: a walk through the 2^60 - 1 padding slots after it cannot finish.
    let p = plan("f32[1,1]{1,0:T(1,1152921504606846976)}");
    assert_eq!(p.size_bytes(), 1 << 62);
    assert_eq!(p.logical_offsets().collect::<Vec<_>>(), [0]);
    assert_eq!(p.memory_order().collect::<Vec<_>>(), [(0, 0)]);
    // 512 elements, the second tile's outer extent 2^40. T(8,128) covers the minor dims
    // [1,64], so [i,0,j] is in first-level tile i, at row 0, column j; the second tile
    // (2^40,1) makes each of the tile's 128 columns 2^40 slots, so a first-level tile spans
    // 128 * 2^40 = 2^47 slots and [i,0,j] is at i * 2^47 + j * 2^40 (8 tiles: 2^50 slots,
    // 2^51 bytes). Memory order is the logical order.
    // Hang guard: the 512 elements are spread over 2^50 slots, which no padding walk gets
    // through.
    let p = plan("bf16[8,1,64]{2,1,0:T(8,128)(1099511627776,1)S(5)}");
    assert_eq!(p.size_bytes(), 1 << 51);
    let expected: Vec<(usize, usize)> = (0..512)
        .map(|l| ((l / 64) * (1 << 47) + (l % 64) * (1 << 40), l))
        .collect();
    let logical: Vec<usize> = expected.iter().map(|&(o, _)| o).collect();
    assert_eq!(p.logical_offsets().collect::<Vec<_>>(), logical);
    assert_eq!(p.memory_order().collect::<Vec<_>>(), expected);
    // 6 elements under the tile (2, X, 2), X = 2^58 - 1: bf16[6] is [1,1,6] to the tile, so
    // element i is in tile i / 2 (each 2 * X * 2 = 4X slots) at slot i % 2: offsets 0, 1, 4X,
    // 4X + 1, 8X, 8X + 1; 3 tiles of 4X slots of 2 bytes = 24X bytes.
    // Hang guard: each pair is 4X - 1 (about 2^60) padding slots after the previous one.
    let x: usize = (1 << 58) - 1;
    let p = plan("bf16[6]{0:T(2,288230376151711743,2)}");
    assert_eq!(p.size_bytes(), 24 * x);
    let expected: Vec<(usize, usize)> = (0..6).map(|i| (i / 2 * 4 * x + i % 2, i)).collect();
    assert_eq!(p.memory_order().collect::<Vec<_>>(), expected);
    let logical: Vec<usize> = expected.iter().map(|&(o, _)| o).collect();
    assert_eq!(p.logical_offsets().collect::<Vec<_>>(), logical);
    let mut index = [0];
    let mut walk = p.memory_order();
    for &(offset, i) in &expected {
        assert_eq!(walk.next_with_index(&mut index), Some(offset));
        assert_eq!(index, [i]);
    }
    assert_eq!(walk.next_with_index(&mut index), None);
}

#[test]
fn traversals_of_groups_too_large_for_tables() {
    // `*` merges (2^30 + 1) × 2^10 = 2^40 + 2^10 elements into one group, tiled by 3: element
    // k (row-major) is at slot k, and only the very end is padding (2^40 + 2^10 = 2 mod 3,
    // so one slot): 2^40 + 2^10 + 1 slots of 4 bytes.
    // Hang guard: tables for this group (the walk for small groups) would hold 2^40 entries,
    // which no CI machine builds or allocates, so the walks must compute offsets directly.
    let p = plan("f32[1073741825,1024]{1,0:T(*,3)}");
    assert_eq!(p.size_bytes(), 4 * ((1 << 40) + (1 << 10) + 1));
    let first: Vec<usize> = p.logical_offsets().take(2000).collect();
    assert_eq!(first, (0..2000).collect::<Vec<_>>());
    let order: Vec<(usize, usize)> = p.memory_order().take(2000).collect();
    assert_eq!(order, (0..2000).map(|k| (k, k)).collect::<Vec<_>>());
    for k in [0, 1023, 1024, 1999] {
        assert_eq!(p.index_of(k), Some(vec![k / 1024, k % 1024]));
    }
}

/// The first `n` elements in memory order, checked against `index_of`: each is the element
/// `index_of` finds at its offset, offsets increase, and for the first 64 of them the slots
/// between two (up to `gap` after each) hold nothing.
fn check_memory_order_start(p: &Plan, n: usize, gap: usize) -> Vec<(usize, usize)> {
    let order: Vec<(usize, usize)> = p.memory_order().take(n).collect();
    assert_eq!(order.len(), n.min(p.elements()));
    let dims = p.dims();
    let mut from = 0;
    for (k, &(offset, linear)) in order.iter().enumerate() {
        assert!(offset >= from, "offset {offset} after {}", from - 1);
        let index = p.index_of(offset).expect("an element's slot");
        let row_major = index.iter().zip(dims).fold(0, |acc, (&i, &d)| acc * d + i);
        assert_eq!(row_major, linear);
        assert_eq!(p.offset(&index), offset);
        if k < 64 {
            for o in from..offset.min(from + gap) {
                assert_eq!(
                    p.index_of(o),
                    None,
                    "slot {o} holds an element but was skipped"
                );
            }
        }
        from = offset + 1;
    }
    order
}

#[test]
fn memory_order_jumps_over_padding_in_groups_too_large_for_tables() {
    // Fuzz finding (673 s): a `*` group of 3 × 268435455 elements, far too many for tables,
    // whose tiles leave long runs of padding between elements (608252541 slots after every
    // 8th element).
    // Hang guard: the first 2048 elements span more than 2^37 slots; the bug (`index_of` on
    // every slot, tens of ns each in release) cannot step through them in any CI run.
    let p =
        plan("f8e3m4[3,268435455,8]{1,0,2:T(2,128,128,*,1)(4,2,2,128)(*,3,128,3)L(34359738369)}");
    let order = check_memory_order_start(&p, 2048, 20_000);
    assert!(order[2047].0 > 1 << 37, "{:?}", order[2047]);
    // One element per 2^39-slot tile of a dimension of 2^21 elements (too many for tables):
    // element k at k * 2^39, 2^60 slots of 4 bytes in all.
    // Hang guard: 63 runs of 2^39 - 1 padding slots lie between the first 64 elements.
    let p = plan("f32[2097152,1]{1,0:T(1,549755813888)}");
    assert_eq!(p.size_bytes(), 1 << 62);
    let order = check_memory_order_start(&p, 64, 20_000);
    assert_eq!(order, (0..64).map(|k| (k << 39, k)).collect::<Vec<_>>());
}

/// Checks that the closed forms of `p` (offset and inverse) written out as trees have at most
/// `limit` nodes, and that they are exact on every element.
fn check_closed_forms(p: &Plan, limit: usize) {
    let e = p.offset_expr();
    let inverse = p.index_exprs();
    assert!(
        e.tree_size(limit).is_some(),
        "offset_expr over {limit} nodes"
    );
    for x in &inverse {
        assert!(
            x.tree_size(limit).is_some(),
            "index_exprs over {limit} nodes"
        );
    }
    let dims = p.dims();
    for i in 0..dims[0] {
        for j in 0..dims[1] {
            let o = p.offset(&[i, j]);
            assert_eq!(e.eval(&[i, j]), o, "[{i},{j}]");
            let back: Vec<usize> = inverse.iter().map(|x| x.eval(&[o])).collect();
            assert_eq!(back, [i, j]);
        }
    }
}

#[test]
fn closed_form_is_linear_in_repeated_star_tiles() {
    // 38 tiles (2,*,128) on f32[8,128]: each merges and splits the same value again.
    // Size guard: each tile uses the merged value twice, so a closed form that is not kept
    // linear (not simplified, or built by copying) has about 2^38 nodes, far over 8 per tile;
    // building it by copying would not finish either.
    let tiles = 38;
    let text = format!("f32[8,128]{{1,0:T{}}}", "(2,*,128)".repeat(tiles));
    check_closed_forms(&plan(&text), 8 * tiles);
}

#[test]
fn closed_forms_of_unsimplifiable_merges_share_subexpressions() {
    // (3,*,5) never divides the merged extent evenly; the closed form still stays small, and
    // is exact.
    // Size guard: as above, a form doubling at each of the 30 tiles has about 2^30 nodes, far
    // over 8 per tile.
    let tiles = 30;
    let text = format!("f32[7,11]{{1,0:T{}}}", "(3,*,5)".repeat(tiles));
    check_closed_forms(&plan(&text), 8 * tiles);
}

#[test]
fn too_many_tiling_steps_for_a_plan() {
    let text = format!(
        "f32[4]{{0:T{}}}",
        "(1)".repeat(xla_layout::MAX_PLAN_STEPS + 1)
    );
    let a = parse_array(&text).unwrap();
    let errs = Plan::new(&a).unwrap_err();
    assert!(errs[0].message().contains("tiling steps"), "{}", errs[0]);
}

#[test]
fn a_padding_tile_counts_toward_the_working_width() {
    // f32[4] with a tile of sixteen `*` then 1: the tile pads the index to 17 entries before
    // merging them back into one, so offsets need a working index 17 wide though the expanded
    // shape is [4, 1] (it was planned as 2 wide and panicked writing the 17th entry). Merging
    // zeros into i leaves i, tiled by 1: offset i.
    let p = plan(&format!("f32[4]{{0:T({}1)}}", "*,".repeat(16)));
    assert_eq!(p.expanded_dims(), &[4, 1]);
    for i in 0..4 {
        assert_eq!(p.offset(&[i]), i);
    }
    // Sixty-four `*`: 65 entries, past MAX_EXPANDED_RANK, an error rather than a panic.
    let a = parse_array(&format!("f32[4]{{0:T({}1)}}", "*,".repeat(64))).unwrap();
    let errs = Plan::new(&a).unwrap_err();
    assert!(
        errs[0].message().contains("65 dimensions once tiled"),
        "{}",
        errs[0]
    );
}

#[test]
fn wide_tiles_validate_in_linear_time() {
    // A tile of rank 10^6 + 1, all `*` but the last: one element, merged 10^6 times (built in
    // code: parsing megabyte lines is checked below and in the CLI tests).
    // Hang guard: validation or planning quadratic in the tile's rank would take about 10^12
    // steps (5 × 10^11 merges, each moving the rest of the tile), which no CI run finishes.
    let n = 1_000_000;
    let mut dims = vec![TileDim::Combine; n];
    dims.push(TileDim::Size(1));
    let a = ArrayShape::new(PrimitiveType::F32, [4])
        .with_layout(ArrayLayout::new([0]).with_tiles([Tile(dims)]));
    assert!(a.validate().is_ok());
    let errs = Plan::new(&a).unwrap_err();
    let m = errs[0].message();
    assert!(
        m.contains("takes 1000002 tiling steps"),
        "{}",
        &m[m.len() - 100..]
    );
}

#[test]
fn rendering_many_errors_on_a_long_line_is_bounded() {
    // 80,000 arrays with minor_to_major {1} on one rank-1 array each: 80,000 errors on one
    // line of about 1 MB.
    // Size guards: parsing finds exactly one error per array (no cascade of recovery errors),
    // and rendering shows MAX_RENDERED_ERRORS of them in a bounded number of bytes: rendering
    // every error, or the whole 880 KB line for each, fails the counts and the byte bound.
    // Hang guard: work quadratic in the line (about 10^11 steps) would not finish.
    let text = format!("({})", vec!["f32[2]{1}"; 80_000].join(", "));
    assert!(text.len() > 800_000);
    let errs = parse(&text).unwrap_err();
    assert_eq!(errs.len(), 80_000);
    let out = errs.render(&text, "<stdin>");
    let shown = out.lines().filter(|l| l.starts_with("error: ")).count();
    assert_eq!(shown, MAX_RENDERED_ERRORS);
    assert!(out.lines().all(|l| l.len() < 200), "a line over 200 bytes");
    let more = 80_000 - MAX_RENDERED_ERRORS;
    assert!(
        out.ends_with(&format!("... and {more} more errors\n")),
        "{}",
        &out[out.len() - 200..]
    );
    // Each shown error is a few short lines: the source line is cut to a window.
    assert!(out.len() < MAX_RENDERED_ERRORS * 600, "{} bytes", out.len());
    // The 100th error is at column 1 + 2 + 99 * 11 + 7 ("(" then 99 "f32[2]{1}, " then
    // "f32[2]{").
    assert!(
        out.contains(&format!("<stdin>:1:{}\n", 1 + 1 + 99 * 11 + 7)),
        "{out}"
    );
}

#[test]
fn a_long_line_renders_as_a_window_around_the_error() {
    let text = format!("({}, f32[2]{{1}})", vec!["f32[2]{0}"; 1000].join(", "));
    let errs = parse(&text).unwrap_err();
    assert_eq!(errs.len(), 1);
    let out = xla_layout::render(&text, "x", &errs[0]);
    let caret_line = out.lines().last().unwrap();
    let source_line = out.lines().nth(3).unwrap();
    // The caret sits under the `1`, in the window shown.
    let caret = caret_line.find('^').unwrap();
    assert_eq!(&source_line[caret..caret + 1], "1", "{out}");
    assert!(source_line.starts_with("1 | ..."), "{out}");
}

#[test]
fn split_config_on_an_unbounded_dimension_is_rejected() {
    // XLA stores `?` as the size i64::MIN, so the split index 1 is out of bounds.
    let errs = parse("f32[?]{0:SC(0:1)}").unwrap_err();
    assert_eq!(errs[0].kind(), ErrorKind::SplitIndexOutOfRange);
    assert_eq!(errs[0].span(), Some(14..15)); // the `1`
    assert!(errs[0].message().contains("unbounded"), "{}", errs[0]);
    // A bounded dimension splits within its bound, as a static one does.
    assert!(parse("f32[<=4]{0:SC(0:1)}").is_ok());
    // No indices: nothing to check, as in XLA.
    assert!(parse("f32[?]{0:SC(0:)}").is_ok());
}

#[test]
fn six_bit_floats() {
    // XLA's 6-bit MX floats: BitWidth 6, one byte each unless E(6) packs them.
    for name in ["f6e2m3fn", "f6e3m2fn"] {
        let t: PrimitiveType = name.parse().unwrap();
        assert_eq!((t.bit_width(), t.byte_width()), (6, 1));
        assert!(t.is_sub_byte());
        assert_eq!(plan(&format!("{name}[4]")).size_bytes(), 4);
        // 4 packed elements: 24 bits, 3 bytes; element 3 starts at bit 18.
        let p = plan(&format!("{name}[4]{{0:E(6)}}"));
        assert_eq!((p.size_bytes(), p.bit_offset(&[3])), (3, 18));
    }
    type Packed6 = layout!(f6e2m3fn[4]{0:E(6)});
    assert_eq!(<Packed6 as StaticLayout>::SIZE_BYTES, 3);
}

/// A tuple nested `depth` levels around `f32[]`, built without recursion.
fn deep_tuple(depth: usize) -> Shape {
    let mut s = Shape::Array(ArrayShape::new(PrimitiveType::F32, []));
    for _ in 0..depth {
        s = Shape::Tuple(vec![s]);
    }
    s
}

#[test]
fn deep_shapes_built_in_code_print_validate_and_drop() {
    // The test thread's stack (2 MiB) could not hold a million recursive frames.
    let s = deep_tuple(1_000_000);
    let text = s.to_string();
    assert_eq!(text.len(), 2_000_000 + "f32[]".len());
    assert!(text.starts_with("((((") && text.ends_with("))))"));
    assert_eq!(&text[999_998..1_000_007], "((f32[]))");
    let debug = format!("{s:?}");
    assert_eq!(debug.len(), "Shape()".len() + text.len());
    assert!(debug.starts_with("Shape(((((") && debug.ends_with(")))))"));
    let errs = s.validate().unwrap_err();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].kind(), ErrorKind::NestingTooDeep);
    drop(s);
    // At the limit it is valid, one deeper it is not, as for parsed text (the parser stops
    // at the same depth).
    assert!(deep_tuple(MAX_NESTING).validate().is_ok());
    assert!(deep_tuple(MAX_NESTING + 1).validate().is_err());
}

/// Runs `f` on a thread with a 256 KiB stack (an eighth of a test thread's), so that any
/// recursion that grows with the nesting depth overflows it.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .expect("a thread")
        .join()
        .expect("no panic or overflow on a small stack");
}

#[test]
fn deepest_shapes_parse_on_a_small_stack() {
    on_small_stack(|| {
        let n = MAX_NESTING;
        for inner in ["f32[]", "b(f32[2]{0:T(2)})", "(f32[], token[])"] {
            // A buffer and a tuple each take a level.
            let extra = usize::from(inner != "f32[]");
            let text = format!("{}{inner}{}", "(".repeat(n - extra), ")".repeat(n - extra));
            let shape = parse(&text).unwrap_or_else(|e| panic!("{inner}: {e}"));
            assert_eq!(parse(&shape.to_string()).unwrap(), shape);
            assert!(shape.validate().is_ok());
            assert_eq!(shape.clone(), shape);
            // One level deeper: the error, with its span on the opening bracket.
            let text = format!("({text})");
            let errs = parse(&text).unwrap_err();
            assert_eq!(errs[0].kind(), ErrorKind::NestingTooDeep);
            assert_eq!(errs[0].span(), Some(n..n + 1));
        }
        // Far deeper: still one error, found without going all the way down.
        let text = format!("{}f32[]{}", "(".repeat(1 << 20), ")".repeat(1 << 20));
        assert_eq!(parse(&text).unwrap_err().len(), 1);
    });
}

#[test]
fn deepest_hlo_nesting_reads_on_a_small_stack() {
    use xla_layout::hlo::{MAX_NESTED_INSTRUCTIONS, parse_module};
    on_small_stack(|| {
        let n = MAX_NESTED_INSTRUCTIONS;
        let nested = |n: usize| {
            format!(
                "HloModule m\n\nENTRY e {{\n  p = f32[] parameter(0)\n  ROOT r = {}p{}\n}}\n",
                "f32[] negate(".repeat(n),
                ")".repeat(n)
            )
        };
        parse_module(&nested(n)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            parse_module(&nested(n + 1)).unwrap_err()[0].kind(),
            ErrorKind::NestingTooDeep
        );
        // Tuple shapes at the nesting limit, written and as operands' shapes.
        let k = MAX_NESTING;
        let deep = format!("{}f32[]{}", "(".repeat(k), ")".repeat(k));
        let text = format!(
            "HloModule m\n\nENTRY e {{\n  p = {deep} parameter(0)\n  ROOT t = {deep} tuple({deep} p)\n}}\n"
        );
        let m = parse_module(&text).unwrap_or_else(|e| panic!("{e}"));
        let printed = m.to_string();
        assert_eq!(parse_module(&printed).unwrap().to_string(), printed);
    });
}

#[test]
fn inferred_tuple_shapes_are_bounded() {
    use xla_layout::hlo::parse_module;
    // Each line doubles the inferred shape: 2^60 arrays after 60 lines, unless bounded.
    let mut text = String::from("e {\n  t0 = f32[] parameter(0)\n");
    for k in 1..=60 {
        text.push_str(&format!("  t{k} = tuple(t{}, t{})\n", k - 1, k - 1));
    }
    text.push_str("  ROOT r = tuple(t60)\n}\n");
    // Hang guard: copying the inferred shapes without a bound means 2^60 arrays, which no CI
    // machine builds (or holds).
    let errs = parse_module(&text).unwrap_err();
    assert!(errs.iter().all(|e| e.kind() == ErrorKind::Unsupported));
    assert!(errs[0].message().contains("write the tuple's shape"));
    // A chain of one-element tuples nests one level per line: the limit is MAX_NESTING.
    let chain = |n: usize| {
        let mut text = String::from("e {\n  t0 = f32[] parameter(0)\n");
        for k in 1..=n {
            text.push_str(&format!("  t{k} = tuple(t{})\n", k - 1));
        }
        text.push_str("  ROOT r = f32[] parameter(1)\n}\n");
        text
    };
    on_small_stack(move || {
        let text = chain(MAX_NESTING);
        let m = parse_module(&text).unwrap_or_else(|e| panic!("{e}"));
        let printed = m.to_string();
        assert_eq!(parse_module(&printed).unwrap().to_string(), printed);
        let errs = parse_module(&chain(MAX_NESTING + 1)).unwrap_err();
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].kind(), ErrorKind::NestingTooDeep);
        // Far longer: errors, and work linear in the text. The reader copies at most one
        // shape per byte of text plus 2^16 in all. Line t_k copies t_(k-1): k shapes for
        // k <= 256 (256 · 257 / 2 = 32896 in all); t257 would nest 257 deep: an error, and
        // the chain restarts from an empty tuple, t257 = (()). After a restart, lines copy
        // 2, 3, ..., 255 shapes (32639 in all) and the next one, 255 lines on, is a nesting
        // error again (seen at its 256th shape). Once the budget is spent, every error is
        // `Unsupported`.
        // Size guard: without the restart every line after t257 is a nesting error; without
        // the budget the nesting errors go on to the end (and no `Unsupported`).
        let n = 4_000;
        let text = chain(n);
        let errs = parse_module(&text).unwrap_err();
        let budget = text.len() + (1 << 16);
        let restarts = (budget - 32896 - 256) / 32639;
        let line_of = |e: &xla_layout::Error| {
            let start = e.span().expect("a span").start;
            text[..start].matches('\n').count() - 1 // text line 2 + k defines t_k
        };
        let (nesting, rest) = errs.split_at(restarts + 1);
        let lines: Vec<usize> = nesting.iter().map(line_of).collect();
        let expected: Vec<usize> = (0..=restarts).map(|m| 257 + 255 * m).collect();
        assert_eq!(lines, expected);
        assert!(
            nesting
                .iter()
                .all(|e| e.kind() == ErrorKind::NestingTooDeep)
        );
        assert!(rest.iter().all(|e| e.kind() == ErrorKind::Unsupported));
        assert_eq!(rest.last().map(line_of), Some(n));
    });
}

#[test]
fn traversals_of_empty_arrays_with_huge_dimensions() {
    // Fuzz finding (multiply overflow): a `*` group with a zero dimension has no elements,
    // but the strides of its other dimensions overflowed.
    let p = plan(
        "u64[0,8,9223372036854775807,4398046511104]{3,2,1,0:T(*,*,*,1,2)(*,*,*,1,2)(*,*,*,1,2)L(262144)M(8)}",
    );
    assert_eq!(p.elements(), 0);
    assert_eq!(p.logical_offsets().count(), 0);
    assert_eq!(p.memory_order().count(), 0);
}

#[test]
fn traversal_tables_are_bounded_by_the_tiling_steps() {
    // Fuzz finding (1.8 s): 422,400 elements fit the tables, but with 14 tiles of three `*`
    // each, building them took an offset through ~56 steps per element before the first
    // element was visited.
    let text = format!(
        "u1[8,11,6,<=4,8,5,1,5]{{0,7,3,2,5,4,1,6:T{}}}",
        "(512,128,*,*,*,8,3)".repeat(14)
    );
    let p = plan(&text);
    // Size guard: tables for the 422,400 elements would be part of the traversals' state
    // (megabytes in its Debug text); without them the state is the plan, a few KB.
    let logical = format!("{:?}", p.logical_offsets());
    assert!(logical.len() < 100_000, "{} bytes", logical.len());
    let memory = format!("{:?}", p.memory_order());
    assert!(memory.len() < 100_000, "{} bytes", memory.len());
    let dims = p.dims().to_vec();
    let first: Vec<usize> = p.logical_offsets().take(64).collect();
    let mut index = vec![0; dims.len()];
    for &o in &first {
        assert_eq!(p.offset(&index), o);
        for d in (0..dims.len()).rev() {
            index[d] += 1;
            if index[d] < dims[d] {
                break;
            }
            index[d] = 0;
        }
    }
    check_memory_order_start(&p, 64, 10_000);
}

#[test]
fn line_comments_inside_attribute_brackets() {
    use xla_layout::hlo::parse_module;
    // Fuzz finding: a `//` inside an attribute's brackets ended the value there, so the
    // printed module did not read back. The comment runs to the end of the line and the value
    // goes on after it, as XLA's lexer skips comments anywhere.
    let text = "e {\n  ROOT p = f32[] parameter(0), sharding={devices=[1,// 4,4]}\n  2]<=[2]}\n}\n";
    let m = parse_module(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        m.entry().root().attribute("sharding"),
        Some("{devices=[1,// 4,4]}\n  2]<=[2]}")
    );
    let printed = m.to_string();
    assert_eq!(parse_module(&printed).unwrap().to_string(), printed);
}

#[test]
fn buffer_shapes_of_instructions_print_and_read_back() {
    use xla_layout::hlo::parse_module;
    // Fuzz finding: a get-tuple-element's inferred shape was a buffer, printed `b(...)`
    // before the opcode, which the reader took for an opcode `b`.
    let text = "e {\n  p = (b(u8[2]{0}), f32[]) parameter(0)\n  ROOT r = get-tuple-element(p), index=0\n}\n";
    let m = parse_module(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.entry().root().shape.to_string(), "b(u8[2]{0})");
    let printed = m.to_string();
    assert!(printed.contains("ROOT %r = b(u8[2]{0}) get-tuple-element(%p), index=0"));
    assert_eq!(parse_module(&printed).unwrap().to_string(), printed);
}
