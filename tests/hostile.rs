//! Hostile input (issue 10): exact sizes at the integer limits, XLA's rules for split configs
//! and element types, and bounded work for traversal, closed forms, error rendering and shapes
//! built in code. Expected values come from arithmetic stated next to each, or from XLA's
//! rules; time limits are generous bounds on work that must not depend on padding.

use std::time::{Duration, Instant};

use xla_layout::{
    ArrayShape, ErrorKind, MAX_NESTING, MAX_RENDERED_ERRORS, Plan, PrimitiveType, Shape,
    StaticLayout, layout, parse, parse_array,
};

fn plan(text: &str) -> Plan {
    Plan::new(&parse_array(text).unwrap_or_else(|e| panic!("{text}: {e}")))
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Runs `f` and checks it took less than `limit`.
fn within<T>(limit: Duration, what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    let took = start.elapsed();
    assert!(took < limit, "{what} took {took:?}, over {limit:?}");
    out
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
    // L(2^40) pads 4 elements to 2^40 slots of 4 bytes: 2^42 bytes, none of them allocated.
    let p = plan("f32[2,2]{1,0:L(1099511627776)}");
    assert_eq!(p.size_bytes(), 1 << 42);
    within(Duration::from_secs(1), "traversals", || {
        assert_eq!(p.logical_offsets().collect::<Vec<_>>(), [0, 1, 2, 3]);
        let order: Vec<_> = p.memory_order().collect();
        assert_eq!(order, [(0, 0), (1, 1), (2, 2), (3, 3)]);
    });
}

#[test]
fn traversals_cost_elements_not_padding() {
    // One element in a tile of 2^31 slots: slot 0 holds it, the rest is padding.
    let p = plan("f32[1,1]{1,0:T(1,2147483648)}");
    within(Duration::from_secs(1), "f32[1,1] T(1,2^31)", || {
        assert_eq!(p.logical_offsets().collect::<Vec<_>>(), [0]);
        assert_eq!(p.memory_order().collect::<Vec<_>>(), [(0, 0)]);
    });
    // 512 elements, the second tile's outer extent 2^40: the memory order is the logical
    // offsets sorted (every offset is distinct), with each element's row-major number.
    let p = plan("bf16[8,1,64]{2,1,0:T(8,128)(1099511627776,1)S(5)}");
    within(Duration::from_secs(1), "T(8,128)(2^40,1)", || {
        let mut expected: Vec<(usize, usize)> = p
            .logical_offsets()
            .enumerate()
            .map(|(l, o)| (o, l))
            .collect();
        expected.sort_unstable();
        assert_eq!(expected.len(), 512);
        assert_eq!(p.memory_order().collect::<Vec<_>>(), expected);
    });
    // 6 elements whose tile (2, 33554431, 2) puts each next one ~2^25 slots further.
    let p = plan("bf16[6]{0:T(2,33554431,2)}");
    within(Duration::from_secs(1), "bf16[6] T(2,33554431,2)", || {
        let order: Vec<(usize, usize)> = p.memory_order().collect();
        let mut expected: Vec<(usize, usize)> = (0..6).map(|i| (p.offset(&[i]), i)).collect();
        expected.sort_unstable();
        assert_eq!(order, expected);
        let mut index = [0];
        let mut walk = p.memory_order();
        for &(offset, i) in &expected {
            assert_eq!(walk.next_with_index(&mut index), Some(offset));
            assert_eq!(index, [i]);
        }
        assert_eq!(walk.next_with_index(&mut index), None);
    });
}

#[test]
fn traversals_of_groups_too_large_for_tables() {
    // `*` merges 1025 × 1024 = 1049600 elements into one group (more than the tables hold),
    // tiled by 3: a slot is padding only at the very end (1049600 = 3 × 349866 + 2).
    let p = plan("f32[1025,1024]{1,0:T(*,3)}");
    within(Duration::from_secs(5), "large group", || {
        let first: Vec<usize> = p.logical_offsets().take(2000).collect();
        let direct: Vec<usize> = (0..2000).map(|k| p.offset(&[k / 1024, k % 1024])).collect();
        assert_eq!(first, direct);
        let order: Vec<(usize, usize)> = p.memory_order().take(2000).collect();
        let slots: Vec<(usize, usize)> = (0..2000)
            .map(|o| {
                let i = p.index_of(o).unwrap();
                (o, i[0] * 1024 + i[1])
            })
            .collect();
        assert_eq!(order, slots);
    });
}

/// The first `n` elements in memory order, timed, then checked slot by slot against
/// `index_of`: each is the element `index_of` finds there, offsets increase, and the slots
/// between two of them (up to `gap` after each) hold nothing.
fn check_memory_order_start(p: &Plan, n: usize, gap: usize) -> Vec<(usize, usize)> {
    let order: Vec<(usize, usize)> = within(Duration::from_secs(1), "memory order", || {
        p.memory_order().take(n).collect()
    });
    assert_eq!(order.len(), n.min(p.elements()));
    let dims = p.dims();
    let mut from = 0;
    for &(offset, linear) in &order {
        let index = p.index_of(offset).expect("an element's slot");
        let row_major = index.iter().zip(dims).fold(0, |acc, (&i, &d)| acc * d + i);
        assert_eq!(row_major, linear);
        assert_eq!(p.offset(&index), offset);
        for o in from..offset.min(from + gap) {
            assert_eq!(
                p.index_of(o),
                None,
                "slot {o} holds an element but was skipped"
            );
        }
        from = offset + 1;
    }
    order
}

#[test]
fn memory_order_jumps_over_padding_in_groups_too_large_for_tables() {
    // Fuzz finding (673 s): a `*` group of 3 × 268435455 elements, far too many for tables,
    // whose tiles leave long runs of padding between elements.
    let p =
        plan("f8e3m4[3,268435455,8]{1,0,2:T(2,128,128,*,1)(4,2,2,128)(*,3,128,3)L(34359738369)}");
    check_memory_order_start(&p, 64, 20_000);
    // One element per 2^31-slot tile of a dimension of 2^21 elements (too many for tables).
    let p = plan("f32[2097152,1]{1,0:T(1,2147483648)}");
    let order = check_memory_order_start(&p, 64, 20_000);
    assert_eq!(order[..3], [(0, 0), (1 << 31, 1), (2 << 31, 2)]);
}

#[test]
fn closed_form_is_linear_in_repeated_star_tiles() {
    // 38 tiles (2,*,128) on f32[8,128]: each merges and splits the same value again.
    let text = format!("f32[8,128]{{1,0:T{}}}", "(2,*,128)".repeat(38));
    let p = plan(&text);
    let e = within(Duration::from_secs(1), "offset_expr", || p.offset_expr());
    assert!(e.tree_size(10_000).is_some());
    for i in 0..8 {
        for j in (0..128).step_by(7) {
            assert_eq!(e.eval(&[i, j]), p.offset(&[i, j]), "[{i},{j}]");
        }
    }
    let inverse = within(Duration::from_secs(1), "index_exprs", || p.index_exprs());
    let o = p.offset(&[5, 77]);
    assert_eq!(
        inverse.iter().map(|x| x.eval(&[o])).collect::<Vec<_>>(),
        [5, 77]
    );
}

#[test]
fn closed_forms_of_unsimplifiable_merges_share_subexpressions() {
    // (3,*,5) never divides the merged extent evenly, so nothing simplifies; the closed form
    // still builds quickly, and is exact.
    let text = format!("f32[7,11]{{1,0:T{}}}", "(3,*,5)".repeat(30));
    let p = plan(&text);
    let e = within(Duration::from_secs(1), "offset_expr", || p.offset_expr());
    let idx = within(Duration::from_secs(1), "index_exprs", || p.index_exprs());
    let _ = (e.tree_size(100_000), idx.len());
    let o = p.offset(&[6, 10]);
    assert_eq!(p.index_of(o), Some(vec![6, 10]));
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
fn wide_tiles_validate_in_linear_time() {
    // A tile of rank 200001, all `*` but the last: one element, merged 200000 times.
    let text = format!("f32[4]{{0:T({}1)}}", "*,".repeat(200_000));
    within(Duration::from_secs(2), "validate", || {
        let a = parse_array(&text).unwrap();
        assert!(Plan::new(&a).is_err(), "wider than MAX_EXPANDED_RANK");
    });
}

#[test]
fn rendering_many_errors_on_a_long_line_is_bounded() {
    // 80,000 arrays with minor_to_major {1} on one rank-1 array each: 80,000 errors on one
    // line of about 1 MB.
    let text = format!("({})", vec!["f32[2]{1}"; 80_000].join(", "));
    assert!(text.len() > 800_000);
    let errs = within(Duration::from_secs(2), "parse", || {
        parse(&text).unwrap_err()
    });
    assert_eq!(errs.len(), 80_000);
    let out = within(Duration::from_secs(1), "render", || {
        errs.render(&text, "<stdin>")
    });
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
    let errs = within(Duration::from_secs(1), "doubling tuples", || {
        parse_module(&text).unwrap_err()
    });
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
        // Far longer: errors, in time linear in the text (each nesting error restarts the
        // chain from an empty tuple, and the copies stay within the budget).
        let text = chain(20_000);
        let errs = within(Duration::from_secs(5), "a long chain", || {
            parse_module(&text).unwrap_err()
        });
        assert_eq!(errs[0].kind(), ErrorKind::NestingTooDeep);
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
    let dims = p.dims().to_vec();
    let first: Vec<usize> = within(Duration::from_secs(1), "14 tiles, logical", || {
        p.logical_offsets().take(64).collect()
    });
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
