//! Property and hostile-input tests of the HLO reader: random modules round-trip through
//! `Display`; arbitrary, truncated and mutated module text never panics and every error points
//! inside the input; deep nesting, huge lines and unterminated strings or comments are errors
//! found in bounded time; errors render rustc-style with line:column.

use std::fmt::Write as _;
use std::fs;

use proptest::collection::vec;
use proptest::prelude::*;
use xla_layout::ErrorKind;
use xla_layout::hlo::{Module, parse_module};

const SHAPES: [&str; 8] = [
    "f32[]",
    "f32[8,128]{1,0}",
    "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
    "s32[]{:T(128)}",
    "(f32[2]{0}, s32[], token[])",
    "pred[<=4,?]{1,0}",
    "u8[1024]{0:T(1024)(128)(4,1)}",
    "f32[10,32,512]{2,1,0:T(8,128)S(5)}",
];

const OPCODES: [&str; 5] = ["add", "negate", "custom-call", "fusion", "copy"];

const ATTRIBUTES: [&str; 6] = [
    "metadata={op_type=\"dot\" op_name=\"jit(f)/a{b}(c)\" source_file=\"x.py\" source_line=3}",
    "backend_config={\"k\":\"}\",\"n\":[1,{\"m\":2}]}",
    "custom_call_target=\"__cublas$gemm\\\"x\"",
    "dimensions={0,1}",
    "sharding={devices=[2,1]<=[2]}",
    "frontend_attributes={a=\"x,y\",b={c=\"d\"}}",
];

/// One random instruction: (shape index, opcode index, operand picks, attribute picks,
/// operand shapes written).
type Line = (usize, usize, Vec<usize>, Vec<usize>, bool);

fn module_text(lines: &[Line], percent: bool, comments: bool) -> String {
    let p = if percent { "%" } else { "" };
    let mut t = String::from("HloModule m, is_scheduled=true\n\n");
    let _ = writeln!(t, "ENTRY {p}main {{");
    let _ = writeln!(t, "  {p}p0 = {} parameter(0)", SHAPES[0]);
    for (n, (shape, opcode, operands, attributes, with_shapes)) in lines.iter().enumerate() {
        let root = if n + 1 == lines.len() { "ROOT " } else { "" };
        let ops: Vec<String> = operands
            .iter()
            .enumerate()
            .map(|(k, &pick)| {
                let target = pick % (n + 1);
                let (name, shape) = if target == 0 {
                    ("p0".to_string(), SHAPES[0])
                } else {
                    (format!("i{}", target - 1), SHAPES[lines[target - 1].0])
                };
                let index = if comments && k > 0 {
                    format!("/*index={k}*/")
                } else {
                    String::new()
                };
                if *with_shapes {
                    format!("{index}{shape} {p}{name}")
                } else {
                    format!("{index}{p}{name}")
                }
            })
            .collect();
        let mut attrs = String::new();
        for &a in attributes {
            let _ = write!(attrs, ", {}", ATTRIBUTES[a]);
        }
        let _ = writeln!(
            t,
            "  {root}{p}i{n} = {} {}({}){attrs}",
            SHAPES[*shape],
            OPCODES[*opcode],
            ops.join(", ")
        );
    }
    t.push_str("}\n");
    t
}

fn line() -> impl Strategy<Value = Line> {
    (
        0..SHAPES.len(),
        0..OPCODES.len(),
        vec(0usize..64, 0..4),
        proptest::sample::subsequence((0..ATTRIBUTES.len()).collect::<Vec<_>>(), 0..3),
        any::<bool>(),
    )
}

/// What a module says, without positions: per computation, each instruction's name, shape,
/// opcode, operand names, root flag and attributes.
fn summary(m: &Module<'_>) -> Vec<(String, Vec<String>)> {
    m.computations()
        .iter()
        .map(|c| {
            let lines = c
                .instructions
                .iter()
                .map(|i| {
                    let ops: Vec<&str> = i.operands.iter().map(|o| o.name).collect();
                    let attrs: Vec<String> = i
                        .attributes
                        .iter()
                        .map(|a| format!("{}={}", a.name, a.value))
                        .collect();
                    format!(
                        "{} {} {} {:?} {} {:?}",
                        i.name, i.shape, i.opcode, ops, i.is_root, attrs
                    )
                })
                .collect();
            (c.name.to_string(), lines)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_modules_read_and_round_trip(
        lines in vec(line(), 1..12),
        percent in any::<bool>(),
        comments in any::<bool>(),
    ) {
        let text = module_text(&lines, percent, comments);
        let m = parse_module(&text).unwrap_or_else(|e| panic!("{}\n{text}", e.render(&text, "m")));
        prop_assert_eq!(m.entry().instructions.len(), lines.len() + 1);
        for (i, (shape, opcode, operands, attributes, _)) in m.entry().instructions[1..].iter().zip(&lines) {
            prop_assert_eq!(i.shape.to_string(), xla_layout::parse(SHAPES[*shape]).unwrap().to_string());
            prop_assert_eq!(i.opcode, OPCODES[*opcode]);
            prop_assert_eq!(i.operands.len(), operands.len());
            prop_assert_eq!(i.attributes.iter().count(), attributes.len());
        }
        let printed = m.to_string();
        let again = parse_module(&printed).unwrap_or_else(|e| panic!("{}\n{printed}", e.render(&printed, "p")));
        prop_assert_eq!(summary(&again), summary(&m));
        prop_assert_eq!(again.to_string(), printed);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        check_errors(&text);
    }

    #[test]
    fn hlo_like_text_never_panics(
        parts in vec(prop_oneof![
            Just("HloModule m"), Just("ENTRY"), Just("ROOT"), Just("%a"), Just("b.1"),
            Just(" = "), Just("f32[2]{0}"), Just("(s32[], f32[])"), Just("add"), Just("("),
            Just(")"), Just("{"), Just("}"), Just(", "), Just("x="), Just("\""), Just("\\"),
            Just("/*"), Just("*/"), Just("//"), Just("\n"), Just("["), Just("]"), Just("->"),
            Just(":"), Just("parameter(0)"), Just("constant({1,2})"), Just("calls=%a, %b"),
        ], 0..40)
    ) {
        check_errors(&parts.concat());
    }

    #[test]
    fn mutated_real_modules_never_panic(id in 0usize..102, at in any::<prop::sample::Index>(), byte in 0u8..128, cut in any::<bool>()) {
        let mut files: Vec<_> = fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hlo/modules"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        let text = fs::read_to_string(&files[id % files.len()]).unwrap();
        if text.len() > 30_000 {
            return Ok(());
        }
        let mut bytes = text.into_bytes();
        let i = at.index(bytes.len() + 1);
        if cut {
            bytes.truncate(i);
        } else {
            bytes.insert(i, byte);
        }
        check_errors(&String::from_utf8(bytes).unwrap());
    }
}

/// Reads `text`; if it is rejected, every error has a span inside it and renders.
fn check_errors(text: &str) {
    if let Err(errors) = parse_module(text) {
        assert!(!errors.is_empty());
        for e in &errors {
            let span = e.span().expect("module errors have spans");
            assert!(
                span.start <= span.end && span.end <= text.len(),
                "{e} in {text:?}"
            );
            assert!(xla_layout::render(text, "m.hlo", e).starts_with("error: "));
        }
    }
}

fn kinds(text: &str) -> Vec<ErrorKind> {
    parse_module(text)
        .unwrap_err()
        .iter()
        .map(|e| e.kind())
        .collect()
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let n = 200_000;
    let tuple = format!(
        "e {{\n  ROOT p = {}f32[]{} parameter(0)\n}}",
        "(".repeat(n),
        ")".repeat(n)
    );
    assert_eq!(kinds(&tuple), [ErrorKind::NestingTooDeep]);
    let nested = format!(
        "e {{\n  p = f32[] parameter(0)\n  ROOT n = f32[] {}p{}\n}}",
        "negate(".repeat(n),
        ")".repeat(n)
    );
    assert_eq!(kinds(&nested), [ErrorKind::NestingTooDeep]);
    let braces = format!(
        "e {{\n  ROOT c = f32[] constant(1), sharding={}\n}}",
        "{".repeat(n)
    );
    assert_eq!(kinds(&braces), [ErrorKind::UnclosedBracket]);
    // Balanced braces ten times deeper: read once, in linear time.
    // Hang guard: work quadratic in the 4 MB value (about 10^13 steps) would not finish.
    let n = 2_000_000;
    let balanced = format!(
        "e {{\n  ROOT c = f32[] constant(1), x={}{}\n}}",
        "{".repeat(n),
        "}".repeat(n)
    );
    let m = parse_module(&balanced).unwrap();
    assert_eq!(m.entry().root().attribute("x").unwrap().len(), 2 * n);
}

#[test]
fn megabyte_constants_and_lines_are_read_fast() {
    let literal = vec!["1.5"; 2_000_000].join(", ");
    let text = format!(
        "HloModule big\n\nENTRY e {{\n  ROOT c = f32[2000000]{{0}} constant({{{literal}}}), metadata={{op_name=\"{}\"}}\n}}\n",
        "x".repeat(1 << 20)
    );
    // Hang guard: work quadratic in the 11 MB of text (about 10^14 steps) would not finish.
    let m = parse_module(&text).unwrap();
    let root = m.entry().root();
    assert_eq!(root.literal.unwrap().len(), literal.len() + 2);
    assert_eq!(root.attribute("metadata").unwrap().len(), (1 << 20) + 12);
    // Many operands on one line: linear, not quadratic.
    let mut wide = String::from("e {\n  p = f32[] parameter(0)\n  ROOT t = (");
    wide.push_str(&vec!["f32[]"; 100_000].join(", "));
    wide.push_str(") tuple(");
    wide.push_str(&vec!["p"; 100_000].join(", "));
    wide.push_str(")\n}");
    // Hang guard: work quadratic in the 1 MB line (about 10^12 steps) would not finish.
    let m = parse_module(&wide).unwrap();
    assert_eq!(m.entry().root().operands.len(), 100_000);
}

#[test]
fn unterminated_strings_comments_and_bodies_are_errors() {
    let cases = [
        (
            "e {\n  ROOT c = f32[] constant(1), metadata={op_name=\"abc}\n}",
            ErrorKind::UnterminatedString,
        ),
        (
            "e {\n  ROOT c = f32[] constant(1) /* never closed\n}",
            ErrorKind::UnterminatedComment,
        ),
        (
            "e {\n  ROOT c = f32[] constant(1)\n",
            ErrorKind::UnclosedBracket,
        ),
        (
            "e {\n  ROOT c = f32[] constant({1, 2\n}",
            ErrorKind::UnclosedBracket,
        ),
        (
            "e {\n  ROOT c = f32[] custom-call(), custom_call_target=\"a\\",
            ErrorKind::UnterminatedString,
        ),
        (
            "e {\n  ROOT % = f32[] constant(1)\n}",
            ErrorKind::InvalidCharacter,
        ),
        ("e {\n}", ErrorKind::UnexpectedToken),
        ("", ErrorKind::UnexpectedEnd),
    ];
    for (text, kind) in cases {
        assert_eq!(kinds(text), [kind], "{text:?}");
        check_errors(text);
    }
}

#[test]
fn names_are_checked_like_xla() {
    let undefined = "e {\n  ROOT n = f32[] negate(%x)\n}";
    assert_eq!(kinds(undefined), [ErrorKind::UndefinedName]);
    let forward = "e {\n  n = f32[] negate(p)\n  ROOT p = f32[] parameter(0)\n}";
    assert_eq!(kinds(forward), [ErrorKind::UndefinedName]);
    let twice = "e {\n  p = f32[] parameter(0)\n  p = f32[] parameter(1)\n}";
    assert_eq!(kinds(twice), [ErrorKind::DuplicateName]);
    let two_roots = "e {\n  ROOT p = f32[] parameter(0)\n  ROOT q = f32[] parameter(1)\n}";
    assert_eq!(kinds(two_roots), [ErrorKind::DuplicateName]);
    let uncalled =
        "ENTRY e {\n  p = f32[] parameter(0)\n  ROOT f = f32[] fusion(p), kind=kLoop, calls=%g\n}";
    assert_eq!(kinds(uncalled), [ErrorKind::UndefinedName]);
    let same_attribute = "e {\n  ROOT c = f32[] constant(1), a=1, a=2\n}";
    assert_eq!(kinds(same_attribute), [ErrorKind::DuplicateAttribute]);
    // A computation may be called `HloModule_x` (or `%HloModule`); only `HloModule` starts a
    // header.
    let m = parse_module("HloModule_x {\n  ROOT c = f32[] constant(1)\n}").unwrap();
    assert_eq!((m.name(), m.entry().name), (None, "HloModule_x"));
    let m = parse_module("%HloModule {\n  ROOT c = f32[] constant(1)\n}").unwrap();
    assert_eq!((m.name(), m.entry().name), (None, "HloModule"));
    // The same name in two computations is fine; `%` is optional.
    let ok = "a {\n  %p = f32[] parameter(0)\n}\nENTRY b {\n  p = f32[] parameter(0)\n  ROOT c = f32[] call(%p), to_apply=a\n}";
    assert!(parse_module(ok).is_ok());
}

#[test]
fn every_error_is_reported_and_rendered_with_line_and_column() {
    let text = "HloModule m\n\nENTRY e {\n  p = f32[2,3]{0,0} parameter(0)\n  q = bf16[8]{0:T(0)} parameter(1)\n  ROOT r = f32[] negate(zz)\n}\n";
    let errors = parse_module(text).unwrap_err();
    let kinds: Vec<_> = errors.iter().map(|e| e.kind()).collect();
    assert_eq!(
        kinds,
        [
            ErrorKind::MinorToMajorDuplicate,
            ErrorKind::NonPositiveTileDimension,
            ErrorKind::UndefinedName
        ]
    );
    let out = errors.render(text, "m.hlo");
    assert!(out.contains(" --> m.hlo:4:18\n"), "{out}");
    assert!(
        out.contains("4 |   p = f32[2,3]{0,0} parameter(0)\n"),
        "{out}"
    );
    assert!(out.contains(" --> m.hlo:5:19\n"), "{out}");
    assert!(out.contains(" --> m.hlo:6:25\n"), "{out}");
}
