//! The parser, validator and canonical printer against every case of the corpus
//! (`xla-layout-corpus.md` sections A-D, the `layout_test.cc` strings) and the seed documents.
//!
//! Expected values are copied from the corpus and the spec, never from running the code.
//! Where this crate is deliberately stricter than XLA (the product rules), the row says so.

use xla_layout::{
    ArrayLayout, ArrayShape, Dim, ErrorKind, PrimitiveType, Shape, SplitConfig, Tile, TileDim,
    parse, parse_array,
};

use ErrorKind::*;

/// Input that parses and validates, and its canonical re-print.
struct Valid {
    id: &'static str,
    input: &'static str,
    canonical: &'static str,
}

const fn ok(id: &'static str, input: &'static str, canonical: &'static str) -> Valid {
    Valid {
        id,
        input,
        canonical,
    }
}

/// Input that must be rejected with exactly one error, of this kind.
struct Invalid {
    id: &'static str,
    input: &'static str,
    kind: ErrorKind,
}

const fn err(id: &'static str, input: &'static str, kind: ErrorKind) -> Invalid {
    Invalid { id, input, kind }
}

/// Corpus section A: XLA's own test strings, all accepted; and the seed documents.
const SECTION_A: &[Valid] = &[
    ok("A1", "f32[123,456]", "f32[123,456]{1,0}"),
    ok("A2", "f32[?,784]", "f32[?,784]{1,0}"),
    ok(
        "A3",
        "(f32[1572864],s8[5120,1024])",
        "(f32[1572864]{0}, s8[5120,1024]{1,0})",
    ),
    ok(
        "A4",
        "(f32[1],(f32[2], token[]), opaque[], f32[3])",
        "(f32[1]{0}, (f32[2]{0}, token[]), opaque[], f32[3]{0})",
    ),
    ok("A5", "f32[123,456]{0,1}", "f32[123,456]{0,1}"),
    ok(
        "A6",
        "f32[123,456]{0,1:T(2,128)}",
        "f32[123,456]{0,1:T(2,128)}",
    ),
    ok(
        "A7",
        "f32[123,456,789]{0,1,2:T(2, * , 128)}",
        "f32[123,456,789]{0,1,2:T(2,*,128)}",
    ),
    ok(
        "A8",
        "bf16[123,456,789]{2,1,0:T(2,*,128)(2,1)}",
        "bf16[123,456,789]{2,1,0:T(2,*,128)(2,1)}",
    ),
    ok(
        "A9",
        "s4[123,456]{1,0:T(2,128)E(4)}",
        "s4[123,456]{1,0:T(2,128)E(4)}",
    ),
    ok(
        "A10",
        "pred[123,456]{1,0:T(2,128)S(3)}",
        "pred[123,456]{1,0:T(2,128)S(3)}",
    ),
    ok("A11", "pred[123,456]{1,0:S(3)}", "pred[123,456]{1,0:S(3)}"),
    ok(
        "A12",
        "f32[123,456]{1,0:T(16,128)M(1024)}",
        "f32[123,456]{1,0:T(16,128)M(1024)}",
    ),
    ok(
        "A13",
        "pred[123,456]{1,0:T(2,128)S(3)SC(1:200)}",
        "pred[123,456]{1,0:T(2,128)S(3)SC(1:200)}",
    ),
    ok(
        "A14",
        "pred[123,456]{1,0:S(3)SC(0:10)(1:4,5)}",
        "pred[123,456]{1,0:S(3)SC(0:10)(1:4,5)}",
    ),
    ok(
        "A15",
        "pred[123,456]{1,0:SC(1:50,200)}",
        "pred[123,456]{1,0:SC(1:50,200)}",
    ),
    ok("A16", "opaque[]", "opaque[]"),
    ok("A17", "token[]", "token[]"),
    ok("A18", "f32[123,<=456]", "f32[123,<=456]{1,0}"),
    ok(
        "A19",
        "(f32[42], u32[<=123,<=456])",
        "(f32[42]{0}, u32[<=123,<=456]{1,0})",
    ),
    ok(
        "A20",
        "f32[ 1, 2,3, 4, 5]{0, 1, 2,3, 4 }",
        "f32[1,2,3,4,5]{0,1,2,3,4}",
    ),
    ok("A21", "u32[]{:T(128)}", "u32[]{:T(128)}"),
    ok("A22", "u32[]{:S(2)}", "u32[]{:S(2)}"),
    ok("A23a", "f32[2,3]{1,0:S(1)}", "f32[2,3]{1,0:S(1)}"),
    ok("A23b", "f32[2,3]{1,0:S(2)}", "f32[2,3]{1,0:S(2)}"),
    ok(
        "A24",
        "f32[8,4,1]{1,2,0:T(1,128)}",
        "f32[8,4,1]{1,2,0:T(1,128)}",
    ),
    ok(
        "A25",
        "u32[2,8,128]{2,1,0:T(2,128)}",
        "u32[2,8,128]{2,1,0:T(2,128)}",
    ),
    ok("A26", "b(s32[])", "b(s32[])"),
    ok("A27", "b(f32[8,16]{1,0})", "b(f32[8,16]{1,0})"),
    ok(
        "A28",
        "f32[2,3,4]{0,1,2:T(512,1024)}",
        "f32[2,3,4]{0,1,2:T(512,1024)}",
    ),
    ok(
        "A29",
        "f32[2,3,4]{0,1,2:T(512)}",
        "f32[2,3,4]{0,1,2:T(512)}",
    ),
    ok(
        "A30",
        "bf16[2,3,4]{1,2,0:T(16,256)(2,1)}",
        "bf16[2,3,4]{1,2,0:T(16,256)(2,1)}",
    ),
    ok(
        "A31",
        "pred[8,8,8]{0,2,1:T(8,128)}",
        "pred[8,8,8]{0,2,1:T(8,128)}",
    ),
    ok(
        "A32",
        "pred[8,8,8]{0,2,1:T(8,128)E(32)}",
        "pred[8,8,8]{0,2,1:T(8,128)E(32)}",
    ),
    ok(
        "A33",
        "pred[8,8,8]{0,2,1:E(32)}",
        "pred[8,8,8]{0,2,1:E(32)}",
    ),
    ok(
        "A34",
        "bf16[2,3,1004]{2,1,0:T(2,*,128)}",
        "bf16[2,3,1004]{2,1,0:T(2,*,128)}",
    ),
    ok(
        "A35",
        "bf16[8,2,3,1004]{3,2,1,0:T(2,*,*,128)}",
        "bf16[8,2,3,1004]{3,2,1,0:T(2,*,*,128)}",
    ),
    ok("A36", "f32[]", "f32[]"),
    ok("A37", "f32[]{:T(256)}", "f32[]{:T(256)}"),
    ok("A38", "s32[3,4]{0,1}", "s32[3,4]{0,1}"),
    ok(
        "A39",
        "((opaque[], f32[], u32[1,2]{1,0}, s32[3,4]{0,1}), u32[1,2]{1,0}, token[])",
        "((opaque[], f32[], u32[1,2]{1,0}, s32[3,4]{0,1}), u32[1,2]{1,0}, token[])",
    ),
    ok("A40", "f32[<=23,44,<=55]", "f32[<=23,44,<=55]{2,1,0}"),
    ok(
        "A41",
        "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}",
        "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}",
    ),
    ok(
        "A42",
        "bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}",
        "bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}",
    ),
    ok("A43", "f32[3,5]{1,0:T(2,2)}", "f32[3,5]{1,0:T(2,2)}"),
    ok("A44", "f32[4096]{0:S(0)}", "f32[4096]{0}"),
    ok(
        "A45",
        "f32[25769803776]{0:T(1024)S(5)}",
        "f32[25769803776]{0:T(1024)S(5)}",
    ),
    ok(
        "A46",
        "pred[8,1024]{1,0:T(8,128)(4,1)}",
        "pred[8,1024]{1,0:T(8,128)(4,1)}",
    ),
    ok(
        "A47",
        "f32[10,32,512]{2,1,0:T(8,128)S(5)}",
        "f32[10,32,512]{2,1,0:T(8,128)S(5)}",
    ),
    ok(
        "A48",
        "bf16[8,1,64]{2,1,0:S(5)}",
        "bf16[8,1,64]{2,1,0:S(5)}",
    ),
    ok("A49", "pred[]{:T(1024)S(6)}", "pred[]{:T(1024)S(6)}"),
    ok(
        "A50",
        "f32[200001,128]{1,0:T(8)L(1024)}",
        "f32[200001,128]{1,0:T(8)L(1024)}",
    ),
    ok("A51", "s4[5,2]{1,0:E(8)}", "s4[5,2]{1,0:E(8)}"),
    ok(
        "A52",
        "s32[6]{0:T(128)S(1)SC(0:3)}",
        "s32[6]{0:T(128)S(1)SC(0:3)}",
    ),
    ok(
        "A53",
        "s32[3,2]{0,1:T(128)S(1)SC(1:1)}",
        "s32[3,2]{0,1:T(128)S(1)SC(1:1)}",
    ),
    ok(
        "A54",
        "s4[8,32768,1,256]{3,1,0,2:T(64,128)(8,1)E(4)S(1)}",
        "s4[8,32768,1,256]{3,1,0,2:T(64,128)(8,1)E(4)S(1)}",
    ),
    ok(
        "A55",
        "f32[2,3]{1,0:S(1)SC(0:1)}",
        "f32[2,3]{1,0:S(1)SC(0:1)}",
    ),
    ok(
        "A56",
        "s32[<=4096]{0:T(8)M(1024)}",
        "s32[<=4096]{0:T(8)M(1024)}",
    ),
    ok("A57", "u32[]{:T(8)S(8)}", "u32[]{:T(8)S(8)}"),
    ok("A58", "s4[]{:E(4)}", "s4[]{:E(4)}"),
    ok("A59", "u2[5,9,8]{2,0,1:E(2)}", "u2[5,9,8]{2,0,1:E(2)}"),
    ok("A60", "s8[21]{0:E(4)}", "s8[21]{0:E(4)}"),
    ok(
        "A61",
        "f4e2m1fn[80,20]{1,0:E(4)}",
        "f4e2m1fn[80,20]{1,0:E(4)}",
    ),
    ok(
        "A62",
        "f32[<=4194304]{0:T(1024)}",
        "f32[<=4194304]{0:T(1024)}",
    ),
    ok(
        "A63",
        "f32[524,524,524]{2,1,0:T(2,2)}",
        "f32[524,524,524]{2,1,0:T(2,2)}",
    ),
    ok("A64", "f16[]{:T(256)}", "f16[]{:T(256)}"),
    ok("A65", "f32[1,2]{1,0:T(128)(2)}", "f32[1,2]{1,0:T(128)(2)}"),
    ok("A66", "f32[1,2]{0,1:T(2,1)}", "f32[1,2]{0,1:T(2,1)}"),
    ok(
        "A67",
        "bf16[2048]{0:T(1024)(128)(2,1)}",
        "bf16[2048]{0:T(1024)(128)(2,1)}",
    ),
    // A68 `f32[]{:T()}` is INVALID: see SECTION_C_INVALID.
    ok(
        "A69",
        "(f32[], f32[], f32[], f32[], f32[], f32[], f32[])",
        "(f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[], f32[])",
    ),
    ok("A70", "()", "()"),
    // Seed documents (shapes.md): the op and fusion examples.
    ok(
        "seed-add",
        "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}",
        "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}",
    ),
    ok(
        "seed-add-shape",
        "bf16[8,1,1280,16384]",
        "bf16[8,1,1280,16384]{3,2,1,0}",
    ),
    ok(
        "seed-fusion-out",
        "bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}",
        "bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}",
    ),
    ok(
        "seed-fusion-in",
        "bf16[32,32,8192]{2,1,0:T(8,128)(2,1)S(1)}",
        "bf16[32,32,8192]{2,1,0:T(8,128)(2,1)S(1)}",
    ),
    ok(
        "seed-vmem",
        "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
        "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
    ),
    // Spec §1: whitespace between any two tokens.
    ok(
        "spec1-ws",
        "f32 [ 1, 2 ] { 1, 0 : T (2,128) S(1) }",
        "f32[1,2]{1,0:T(2,128)S(1)}",
    ),
    ok("spec1-line-comment", "f32[2,3]// c\n{1,0}", "f32[2,3]{1,0}"),
    ok("spec3-scalar-S", "f32[]{:S(1)}", "f32[]{:S(1)}"),
    ok(
        "spec5-zero-dim",
        "f32[0,3]{1,0:T(8,128)}",
        "f32[0,3]{1,0:T(8,128)}",
    ),
];

/// The `layout_test.cc` strings, which are layout-only, written after an array of the
/// right rank. `#(...)`, `*(...)`, `P(...)` and `SC(1:0,4)` are errors (see
/// LAYOUT_TEST_INVALID).
const LAYOUT_TEST_VALID: &[Valid] = &[
    ok("LT-m2m", "f32[2,3,4]{1,2,0}", "f32[2,3,4]{1,2,0}"),
    ok(
        "LT-tiles",
        "f32[1,2,3,4]{3,2,1,0:T(42,123)(4,5)}",
        "f32[1,2,3,4]{3,2,1,0:T(42,123)(4,5)}",
    ),
    ok(
        "LT-combine",
        "f32[1,2,3,4]{3,2,1,0:T(*,*,42,123)}",
        "f32[1,2,3,4]{3,2,1,0:T(*,*,42,123)}",
    ),
    ok(
        "LT-L",
        "f32[1,2,3,4]{3,2,1,0:L(100)}",
        "f32[1,2,3,4]{3,2,1,0:L(100)}",
    ),
    ok(
        "LT-E",
        "f32[1,2,3,4]{3,2,1,0:E(42)}",
        "f32[1,2,3,4]{3,2,1,0:E(42)}",
    ),
    ok(
        "LT-S",
        "f32[1,2,3,4]{3,2,1,0:S(3)}",
        "f32[1,2,3,4]{3,2,1,0:S(3)}",
    ),
    ok("LT-M", "f32[2,3]{0,1:M(123)}", "f32[2,3]{0,1:M(123)}"),
    ok(
        "LT-all",
        "f32[1,2,3,4]{3,2,1,0:T(42,123)(4,5)L(100)E(42)}",
        "f32[1,2,3,4]{3,2,1,0:T(42,123)(4,5)L(100)E(42)}",
    ),
    ok(
        "LT-SC-valid",
        "f32[8,8]{0,1:SC(0:3)(1:4)}",
        "f32[8,8]{0,1:SC(0:3)(1:4)}",
    ),
];

const LAYOUT_TEST_INVALID: &[Invalid] = &[
    err("LT-empty", "f32[]{}", TrailingInput),
    err(
        "LT-index-type",
        "f32[1,2,3,4]{3,2,1,0:#(u32)}",
        SparseAttribute,
    ),
    err(
        "LT-pointer-type",
        "f32[1,2,3,4]{3,2,1,0:*(u16)}",
        SparseAttribute,
    ),
    err(
        "LT-SC",
        "f32[8,8]{0,1:SC(0:3)(1:0,4)}",
        SplitIndicesNotIncreasing,
    ),
    err(
        "LT-P",
        "f32[10,20]{0,1:P(s32[10,20]{1,0})}",
        SparseAttribute,
    ),
];

/// Corpus section B: XLA's parse errors. For us each is an error too.
const SECTION_B: &[Invalid] = &[
    err(
        "B1",
        "f32[123,456,789]{1:T(2, * , 128)}",
        MinorToMajorLength,
    ),
    // Standalone, XLA says "Extra content after shape".
    err("B2", "f32[123,456]foobar{0,1}", TrailingInput),
    err("B3", "f32[123,456]{foo}", TrailingInput),
    err("B4", "f32[123,456]dense{foo}", TrailingInput),
    err("B5", "f32[10,10]{1,0:D(X,C)}", InvalidDimLevelType),
    err(
        "B6",
        "f32[10,10]{1,0:T(128,8)P(f32[10,10])}",
        SparseAttribute,
    ),
    err("B7", "b()", UnexpectedToken),
    err("B8", "b(s32[], f32[])", UnexpectedToken),
    err("B9", "g32[]{}", UnknownElementType),
    err("B10", "f32[]{}", TrailingInput),
    err("B11", "f32[2,3]{1,0:S(1)T(2,128)}", AttributeOutOfOrder),
    err("B12", "f32[2,3]{1,0:T(8,128)T(2,1)}", DuplicateAttribute),
    err("B13", "f32[2,3]{:T(8,128)}", MinorToMajorLength),
    err("B14", "f32[2,3]{1,0,}", UnexpectedToken),
    err("B15", "(f32[2],)", UnexpectedToken),
    err("B16", "F32[2,3]", UnknownElementType),
    err("B17", "opaque_type[]", UnknownElementType),
    err("B18", "f32[-1]", NegativeDimension),
    err("B19", "f32[2,3]{1,0:SC(1)}", UnexpectedToken),
    err("B20", "f32[2,3]{1,0:S(1,2)}", UnexpectedToken),
    // B21: "expects integer" for each.
    err("B21a", "f32[2,3]{1,0:E(4.0)}", UnexpectedToken),
    err("B21b", "f32[1e5]", UnexpectedToken),
    err("B21c", "f32[2x3]", UnexpectedToken),
    err("B21d", "f32[+3]", UnexpectedToken),
    // Spec §1/§7.1: more "expects integer" inputs.
    err("spec1-hex", "f32[0x10]", UnexpectedToken),
    err("spec5-le-question", "f32[<=?]", UnexpectedToken),
    err("spec1-lone-lt", "f32[<5]", InvalidCharacter),
    err("spec7-S-empty", "f32[2,3]{1,0:S()}", UnexpectedToken),
    err("spec7-T-no-paren", "f32[2,3]{1,0:T 2,128}", UnexpectedToken),
    err("spec7-tuple-open", "(f32[2], f32[3]", UnexpectedEnd),
    err("spec7-buffer-open", "b(f32[2]", UnexpectedEnd),
    err("spec7-layout-open", "f32[2,3]{1,0", UnexpectedEnd),
    err(
        "spec2-lowercase-attr",
        "f32[2,3]{1,0:t(2,128)}",
        UnknownAttribute,
    ),
    err(
        "spec1-greedy-ident",
        "f32[2,3]{1,0:TS(1)}",
        UnknownAttribute,
    ),
    err(
        "spec1-comment-open",
        "f32[2,3]{1,0 /* no end",
        UnterminatedComment,
    ),
    err("spec2-buffer-of-tuple", "b((f32[2]))", InvalidBuffer),
    err("empty-input", "", UnexpectedEnd),
    // `{` not followed by an integer or `:` is not a layout inside a tuple or buffer either.
    err("tuple-empty-braces", "(f32[]{}, f32[])", UnexpectedToken),
    err("buffer-empty-braces", "b(f32[2]{})", UnexpectedToken),
    err("tuple-brace-ident", "(f32[2]{foo})", UnexpectedToken),
    err("second-layout", "f32[2]{0}{0}", TrailingInput),
    err("m2m-decimal", "f32[2]{0.5}", UnexpectedToken),
];

/// Corpus section C: parses in XLA but fails its validation, or crashes XLA.
const SECTION_C_INVALID: &[Invalid] = &[
    err("C1", "f32[2,3]{0,0}", MinorToMajorDuplicate),
    err("C2", "f32[2,3]{0,2}", MinorToMajorOutOfRange),
    err("C3", "f32[2,3]{-1,0}", MinorToMajorOutOfRange),
    err("C6", "f32[2,3]{1,0:T()}", EmptyTile),
    err("C7", "f32[2,3]{1,0:T(0,128)}", NonPositiveTileDimension),
    err("C7b", "f32[2,3]{1,0:T(2,0)}", NonPositiveTileDimension),
    err("C8", "f32[2,3]{1,0:E(-1)}", NegativeElementSize),
    err("C9", "f32[2,3]{1,0:#(u32)}", SparseAttribute),
    err("C10", "f32[2,3]{1,0:*(u16)}", SparseAttribute),
    err(
        "C11",
        "pred[123,456]{1,0:SC(2:10)}",
        SplitDimensionOutOfRange,
    ),
    err("C12", "pred[123,456]{1,0:SC(1:500)}", SplitIndexOutOfRange),
    err("C12b", "pred[123,456]{1,0:SC(0:123)}", SplitIndexOutOfRange),
    err(
        "C13",
        "pred[123,456]{1,0:SC(1:200,100)}",
        SplitIndicesNotIncreasing,
    ),
    err(
        "C14",
        "pred[123,456]{1,0:SC(1:200)(1:300)}",
        SplitDimensionDuplicate,
    ),
    err("C15", "f32[9223372036854775807]", SizeOverflow),
    err("C16", "f32[2,3]{1,0:T(-1,128)}", NonPositiveTileDimension),
    err("C17", "f32[2,3]{1,0:L(0)}", InvalidTailPadding),
    err("C17b", "f32[2,3]{1,0:L(-1)}", InvalidTailPadding),
    err("C18", "token[]{:S(1)}", NotAnArray),
    err("C18b", "opaque[]{:S(1)}", NotAnArray),
    err("A68", "f32[]{:T()}", EmptyTile),
];

/// Corpus section C inputs that XLA only fails to round-trip through its proto: valid for us.
const SECTION_C_VALID: &[Valid] = &[ok(
    "C19",
    "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
    "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
)];

/// Corpus section D: XLA's quirks. Accepted ones keep XLA's re-print.
const SECTION_D_VALID: &[Valid] = &[
    ok("D1", "f32[2,3]{1,0:L(1)}", "f32[2,3]{1,0}"),
    ok("D5", "f32[10,10]{1,0:D(D,C)}", "f32[10,10]{1,0}"),
    ok(
        "D5b",
        "f32[10,10]{1,0:D(D+~,C+,S~,H)T(2,2)}",
        "f32[10,10]{1,0:T(2,2)}",
    ),
    ok("D13", "f32[007]{00}", "f32[7]{0}"),
    ok("D14a", "f32[2,3]{1,0:}", "f32[2,3]{1,0}"),
    ok("D14b", "f32[]{:}", "f32[]"),
    ok("D15", "f32[2,3]{1,0:T(2,3,4)}", "f32[2,3]{1,0:T(2,3,4)}"),
    ok("D15b", "bf16[4]{0:T(2,1)}", "bf16[4]{0:T(2,1)}"),
    ok("D16a", "f32[3,4]{1,0:E(4)}", "f32[3,4]{1,0:E(4)}"),
    ok("D16b", "s4[2]{0:E(64)}", "s4[2]{0:E(64)}"),
    ok("D17", "f32[2,3]{1,0:M(-5)}", "f32[2,3]{1,0}"),
    ok("D17b", "f32[2,3]{1,0:M(0)}", "f32[2,3]{1,0}"),
    ok("D18", "f32[2,3]{1,0:E(32)}", "f32[2,3]{1,0:E(32)}"),
    ok("D18b", "f32[2,3]{1,0:E(0)}", "f32[2,3]{1,0}"),
    ok("D19a", "f32[<= 5]", "f32[<=5]{0}"),
    ok("D19b", "f32[2,3]{/*x*/1,0}", "f32[2,3]{1,0}"),
    ok("D19c", "f32 [2,3]", "f32[2,3]{1,0}"),
    ok("D20a", "f8e4m3b11fnuz[4]{0}", "f8e4m3b11fnuz[4]{0}"),
    ok("D20b", "f8e8m0fnu[4]{0}", "f8e8m0fnu[4]{0}"),
    ok("D20c", "s1[8]{0:E(1)}", "s1[8]{0:E(1)}"),
    ok("D20d", "u1[8]{0}", "u1[8]{0}"),
    ok("D20e", "c128[2]{0}", "c128[2]{0}"),
    ok("S-max", "f32[2,3]{1,0:S(127)}", "f32[2,3]{1,0:S(127)}"),
];

/// Corpus section D quirks that the product rules reject.
const SECTION_D_INVALID: &[Invalid] = &[
    // S(n) outside 0..=127 (XLA wraps it to an int8).
    err("D2", "f32[2,3]{1,0:S(300)}", MemorySpaceOutOfRange),
    err("D3", "f32[2,3]{1,0:S(128)}", MemorySpaceOutOfRange),
    err("D4", "f32[2,3]{1,0:S(256)}", MemorySpaceOutOfRange),
    err("S-negative", "f32[2,3]{1,0:S(-1)}", MemorySpaceOutOfRange),
    // Lenient sub-parsers (spec §2 rule 9).
    err("D6", "f32[2,3]{1,0:T(2,128}", UnexpectedToken),
    err("D7", "f32[2,3]{1,0:T}", UnexpectedToken),
    err("D8", "f32[2,3]{1,0:S}", UnexpectedToken),
    err("D8b", "f32[2,3]{1,0:SC}", UnexpectedToken),
    err("D9", "f32[2,3]{1,0:#(f32)}", SparseAttribute),
    err("D9b", "f32[2,3]{1,0:#(s32)}", SparseAttribute),
    // Integers above i64::MAX.
    err(
        "D10",
        "f32[2,3]{1,0:T(9223372036854775808)}",
        IntegerOverflow,
    ),
    err("D11", "f32[<=9223372036854775808]", IntegerOverflow),
    err(
        "D12",
        "f32[2,3]{1,0:S(18446744073709551615)}",
        IntegerOverflow,
    ),
    err("u64-overflow", "f32[18446744073709551616]", IntegerOverflow),
    // `*` as the most-minor tile dimension.
    err("star-only", "f32[2,3]{1,0:T(*)}", CombineInMinorPosition),
    err("star-last", "f32[2,3]{1,0:T(2,*)}", CombineInMinorPosition),
    err(
        "star-last-2nd-tile",
        "f32[2,3]{1,0:T(2,128)(*)}",
        CombineInMinorPosition,
    ),
    err(
        "neg-tile-last",
        "f32[2,3]{1,0:T(2,-128)}",
        NonPositiveTileDimension,
    ),
    // Unknown, out-of-order, repeated attributes.
    err("unknown-X", "f32[2,3]{1,0:X(1)}", UnknownAttribute),
    err("order-M-E", "f32[2,3]{1,0:M(8)E(4)}", AttributeOutOfOrder),
    err(
        "order-SC-S",
        "f32[2,3]{1,0:SC(0:1)S(1)}",
        AttributeOutOfOrder,
    ),
    err(
        "order-T-D",
        "f32[2,3]{1,0:T(2,2)D(D,D)}",
        AttributeOutOfOrder,
    ),
    err("repeat-S", "f32[2,3]{1,0:S(1)S(1)}", DuplicateAttribute),
    err("repeat-E", "f32[2,3]{1,0:E(4)E(4)}", DuplicateAttribute),
    err("non-scalar-empty", "f32[2,3]{}", TrailingInput),
];

fn check_valid(rows: &[Valid], failures: &mut Vec<String>) {
    for row in rows {
        let Valid {
            id,
            input,
            canonical,
        } = *row;
        let shape = match parse(input) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{id}: {input:?} was rejected: {e}"));
                continue;
            }
        };
        let printed = shape.to_string();
        if printed != canonical {
            failures.push(format!(
                "{id}: {input:?} printed {printed:?}, expected {canonical:?}"
            ));
            continue;
        }
        match parse(canonical) {
            Ok(again) if again == shape && again.to_string() == canonical => {}
            other => failures.push(format!(
                "{id}: canonical {canonical:?} does not re-parse to the same shape: {other:?}"
            )),
        }
        if let Err(e) = shape.validate() {
            failures.push(format!("{id}: the parsed shape fails validate(): {e}"));
        }
    }
}

fn check_spans_inside(
    id: &str,
    input: &str,
    errs: &xla_layout::Errors,
    failures: &mut Vec<String>,
) {
    for e in errs {
        match e.span() {
            Some(r)
                if r.start <= r.end
                    && r.end <= input.len()
                    && input.is_char_boundary(r.start)
                    && input.is_char_boundary(r.end) => {}
            other => failures.push(format!(
                "{id}: error {e:?} has span {other:?}, not inside the {} bytes of {input:?}",
                input.len()
            )),
        }
        if e.message().is_empty() {
            failures.push(format!("{id}: an error has an empty message"));
        }
    }
}

fn check_invalid(rows: &[Invalid], failures: &mut Vec<String>) {
    for row in rows {
        let Invalid { id, input, kind } = *row;
        match parse(input) {
            Ok(s) => failures.push(format!("{id}: {input:?} was accepted as {s}")),
            Err(errs) => {
                let kinds: Vec<ErrorKind> = errs.iter().map(|e| e.kind()).collect();
                if kinds != [kind] {
                    failures.push(format!(
                        "{id}: {input:?} gave {kinds:?}, expected [{kind:?}]: {errs}"
                    ));
                }
                check_spans_inside(id, input, &errs, failures);
            }
        }
    }
}

fn report(failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{} failing case(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn section_a_reprints_canonically() {
    let mut failures = Vec::new();
    check_valid(SECTION_A, &mut failures);
    report(failures);
}

#[test]
fn layout_test_strings() {
    let mut failures = Vec::new();
    check_valid(LAYOUT_TEST_VALID, &mut failures);
    check_invalid(LAYOUT_TEST_INVALID, &mut failures);
    report(failures);
}

#[test]
fn section_b_parse_errors() {
    let mut failures = Vec::new();
    check_invalid(SECTION_B, &mut failures);
    report(failures);
}

#[test]
fn section_c_validation_errors() {
    let mut failures = Vec::new();
    check_invalid(SECTION_C_INVALID, &mut failures);
    check_valid(SECTION_C_VALID, &mut failures);
    report(failures);
}

#[test]
fn section_d_quirks() {
    let mut failures = Vec::new();
    check_valid(SECTION_D_VALID, &mut failures);
    check_invalid(SECTION_D_INVALID, &mut failures);
    report(failures);
}

/// D20: all 32 element type names parse with `[4]{0}` and re-print unchanged (jaxlib 0.10
/// accepts the two 6-bit MX floats too; the spec's table predates them).
#[test]
fn d20_every_element_type() {
    assert_eq!(PrimitiveType::ALL.len(), 32);
    let names = [
        "pred",
        "s1",
        "s2",
        "s4",
        "s8",
        "s16",
        "s32",
        "s64",
        "u1",
        "u2",
        "u4",
        "u8",
        "u16",
        "u32",
        "u64",
        "f16",
        "bf16",
        "f32",
        "f64",
        "f8e5m2",
        "f8e4m3",
        "f8e4m3fn",
        "f8e4m3b11fnuz",
        "f8e3m4",
        "f8e5m2fnuz",
        "f8e4m3fnuz",
        "f4e2m1fn",
        "f8e8m0fnu",
        "f6e2m3fn",
        "f6e3m2fn",
        "c64",
        "c128",
    ];
    let mut all: Vec<&str> = PrimitiveType::ALL.iter().map(|t| t.name()).collect();
    all.sort_unstable();
    let mut expected = names.to_vec();
    expected.sort_unstable();
    assert_eq!(
        all, expected,
        "PrimitiveType::ALL is the spec §4 name table plus the f6 types"
    );
    for t in PrimitiveType::ALL {
        let text = format!("{}[4]{{0}}", t.name());
        let a = parse_array(&text).unwrap_or_else(|e| panic!("D20 {text}: {e}"));
        assert_eq!(a.element_type, t, "D20 {text}");
        assert_eq!(a.to_string(), text, "D20 {text}");
        // Upper case is rejected (B16) for every name.
        let upper = format!("{}[4]{{0}}", t.name().to_ascii_uppercase());
        let errs = parse(&upper).unwrap_err();
        assert_eq!(errs[0].kind(), UnknownElementType, "D20 {upper}");
    }
    // `tuple` and `buffer` are never type names.
    for name in [
        "tuple[]",
        "buffer[]",
        "opaque_type[]",
        "primitive_type_invalid[]",
    ] {
        assert_eq!(
            parse(name).unwrap_err()[0].kind(),
            UnknownElementType,
            "{name}"
        );
    }
}

/// Spec §4 bit and byte widths.
#[test]
fn element_type_widths() {
    use PrimitiveType as P;
    let table = [
        (P::Pred, 1, 1),
        (P::S1, 1, 1),
        (P::U2, 2, 1),
        (P::S4, 4, 1),
        (P::S8, 8, 1),
        (P::S16, 16, 2),
        (P::U32, 32, 4),
        (P::S64, 64, 8),
        (P::F16, 16, 2),
        (P::Bf16, 16, 2),
        (P::F32, 32, 4),
        (P::F64, 64, 8),
        (P::F8e4m3fn, 8, 1),
        (P::F4e2m1fn, 4, 1),
        (P::F8e8m0fnu, 8, 1),
        // 6-bit MX floats: BitWidth 6, one byte each (ceil(6 / 8)).
        (P::F6e2m3fn, 6, 1),
        (P::F6e3m2fn, 6, 1),
        (P::C64, 64, 8),
        (P::C128, 128, 16),
    ];
    for (t, bits, bytes) in table {
        assert_eq!((t.bit_width(), t.byte_width()), (bits, bytes), "{t}");
    }
    assert_eq!(P::F32.proto_number(), 11);
    assert_eq!(P::F4e2m1fn.proto_number(), 32);
    assert_eq!(P::F8e8m0fnu.proto_number(), 33);
}

/// Spans point at the offending token. Each row: id, input, the expected byte range and the
/// text it covers (so a miscounted range fails loudly on its own).
#[test]
fn error_spans_point_at_the_token() {
    let rows: &[(&str, &str, usize, usize, &str)] = &[
        ("C1", "f32[2,3]{0,0}", 11, 12, "0"),
        ("brief", "f32[2,3]{1,1}", 11, 12, "1"),
        ("C2", "f32[2,3]{0,2}", 11, 12, "2"),
        ("C3", "f32[2,3]{-1,0}", 9, 11, "-1"),
        ("B2", "f32[123,456]foobar{0,1}", 12, 18, "foobar"),
        ("B5", "f32[10,10]{1,0:D(X,C)}", 17, 18, "X"),
        ("B6", "f32[10,10]{1,0:T(128,8)P(f32[10,10])}", 23, 24, "P"),
        ("B9", "g32[]{}", 0, 3, "g32"),
        ("B10", "f32[]{}", 5, 7, "{}"),
        ("B11", "f32[2,3]{1,0:S(1)T(2,128)}", 17, 18, "T"),
        ("B12", "f32[2,3]{1,0:T(8,128)T(2,1)}", 21, 22, "T"),
        ("B13", "f32[2,3]{:T(8,128)}", 8, 19, "{:T(8,128)}"),
        ("B14", "f32[2,3]{1,0,}", 13, 14, "}"),
        ("B15", "(f32[2],)", 8, 9, ")"),
        ("B16", "F32[2,3]", 0, 3, "F32"),
        ("B17", "opaque_type[]", 0, 11, "opaque_type"),
        ("B18", "f32[-1]", 4, 6, "-1"),
        ("B21a", "f32[2,3]{1,0:E(4.0)}", 15, 18, "4.0"),
        ("B21b", "f32[1e5]", 4, 7, "1e5"),
        ("B21d", "f32[+3]", 4, 5, "+"),
        ("C6", "f32[2,3]{1,0:T()}", 14, 16, "()"),
        ("C7", "f32[2,3]{1,0:T(0,128)}", 15, 16, "0"),
        ("C7b", "f32[2,3]{1,0:T(2,0)}", 17, 18, "0"),
        ("C8", "f32[2,3]{1,0:E(-1)}", 15, 17, "-1"),
        ("C9", "f32[2,3]{1,0:#(u32)}", 13, 14, "#"),
        ("C11", "pred[123,456]{1,0:SC(2:10)}", 21, 22, "2"),
        ("C12", "pred[123,456]{1,0:SC(1:500)}", 23, 26, "500"),
        ("C14", "pred[123,456]{1,0:SC(1:200)(1:300)}", 28, 29, "1"),
        (
            "C15",
            "f32[9223372036854775807]",
            3,
            24,
            "[9223372036854775807]",
        ),
        ("C16", "f32[2,3]{1,0:T(-1,128)}", 15, 17, "-1"),
        ("C17", "f32[2,3]{1,0:L(0)}", 15, 16, "0"),
        ("C18", "token[]{:S(1)}", 7, 14, "{:S(1)}"),
        ("D2", "f32[2,3]{1,0:S(300)}", 15, 18, "300"),
        ("D6", "f32[2,3]{1,0:T(2,128}", 20, 21, "}"),
        ("D7", "f32[2,3]{1,0:T}", 13, 14, "T"),
        (
            "D10",
            "f32[2,3]{1,0:T(9223372036854775808)}",
            15,
            34,
            "9223372036854775808",
        ),
        (
            "D11",
            "f32[<=9223372036854775808]",
            6,
            25,
            "9223372036854775808",
        ),
        ("star-last", "f32[2,3]{1,0:T(2,*)}", 17, 18, "*"),
        ("unknown-X", "f32[2,3]{1,0:X(1)}", 13, 14, "X"),
        ("tuple-elem", "(f32[2], f32[2]{1})", 16, 17, "1"),
        ("buffer-elem", "b(f32[2,3]{0,0})", 13, 14, "0"),
        ("comment-open", "f32[2,3]{1,0 /* no end", 13, 15, "/*"),
        ("multibyte", "f32[2,\u{e9}]", 6, 8, "\u{e9}"),
        ("B3", "f32[123,456]{foo}", 12, 13, "{"),
        ("non-scalar-empty", "f32[2,3]{}", 8, 10, "{}"),
        ("tuple-empty-braces", "(f32[]{}, f32[])", 6, 8, "{}"),
        ("second-layout", "f32[2]{0}{0}", 9, 10, "{"),
        ("after-token", "(token[], opaque[], f32[2]{5})", 27, 28, "5"),
        (
            "after-buffer",
            "(b(f32[2]{0}), f32[2]{0:S(200)})",
            26,
            29,
            "200",
        ),
        ("m2m-decimal", "f32[2]{0.5}", 7, 10, "0.5"),
    ];
    let mut failures = Vec::new();
    for &(id, input, start, end, text) in rows {
        assert_eq!(
            &input[start..end],
            text,
            "{id}: the expected span is miscounted"
        );
        match parse(input) {
            Ok(s) => failures.push(format!("{id}: {input:?} was accepted as {s}")),
            Err(errs) => {
                check_spans_inside(id, input, &errs, &mut failures);
                let got = errs[0].span();
                if got != Some(start..end) {
                    let got_text = got.clone().and_then(|r| input.get(r));
                    failures.push(format!(
                        "{id}: {input:?}: first error at {got:?} ({got_text:?}), expected \
                         {start}..{end} ({text:?}): {errs}"
                    ));
                }
            }
        }
    }
    report(failures);
}

/// One literal with several problems reports all of them, in source order.
#[test]
fn several_errors_in_one_literal() {
    let input = "f32[2,3]{0,0:T(0)E(-1)S(300)}";
    let errs = parse(input).unwrap_err();
    let kinds: Vec<ErrorKind> = errs.iter().map(|e| e.kind()).collect();
    assert_eq!(
        kinds,
        [
            MinorToMajorDuplicate,
            NonPositiveTileDimension,
            NegativeElementSize,
            MemorySpaceOutOfRange
        ],
        "{errs}"
    );
    let texts: Vec<&str> = errs.iter().map(|e| &input[e.span().unwrap()]).collect();
    assert_eq!(texts, ["0", "0", "-1", "300"]);
    assert_eq!(errs[0].span(), Some(11..12));

    // Across the elements of a tuple, and mixed value and structure problems.
    let input = "(f32[2,3]{1,0:S(1)T(2,128)}, s4[-1]{0:E(-4)}, b(f32[2]{1}))";
    let errs = parse(input).unwrap_err();
    let kinds: Vec<ErrorKind> = errs.iter().map(|e| e.kind()).collect();
    assert_eq!(
        kinds,
        [
            AttributeOutOfOrder,
            NegativeDimension,
            NegativeElementSize,
            MinorToMajorOutOfRange
        ],
        "{errs}"
    );
    let texts: Vec<&str> = errs.iter().map(|e| &input[e.span().unwrap()]).collect();
    assert_eq!(texts, ["T", "-1", "-4", "1"]);

    // Every split config rule at once (C11-C14).
    let input = "pred[123,456]{1,0:SC(2:10)(1:500)(1:300,200)}";
    let errs = parse(input).unwrap_err();
    let kinds: Vec<ErrorKind> = errs.iter().map(|e| e.kind()).collect();
    assert!(kinds.contains(&SplitDimensionOutOfRange), "{errs}");
    assert!(kinds.contains(&SplitIndexOutOfRange), "{errs}");
    assert!(kinds.contains(&SplitDimensionDuplicate), "{errs}");
    assert!(kinds.contains(&SplitIndicesNotIncreasing), "{errs}");
    check_spans_inside("SC-all", input, &errs, &mut Vec::new());

    // Errors are sorted by position.
    let starts: Vec<usize> = errs.iter().map(|e| e.span().unwrap().start).collect();
    let mut sorted = starts.clone();
    sorted.sort_unstable();
    assert_eq!(starts, sorted);
}

fn first_message(input: &str) -> String {
    parse(input)
        .unwrap_err()
        .first()
        .map(|e| e.message().to_owned())
        .unwrap()
}

/// Messages say what is wrong and what would be right.
#[test]
fn messages_explain_the_fix() {
    let cases: &[(&str, &[&str])] = &[
        // What is wrong: the duplicate; what is right: a permutation, and what is missing.
        ("f32[2,3]{1,1}", &["1", "twice", "permutation", "0"]),
        ("f32[2,3]{0,2}", &["2", "0..2"]),
        ("f32[2,3]{0,1,2}", &["3", "2"]),
        ("F32[2,3]", &["F32", "f32"]),
        ("opaque_type[]", &["opaque[]"]),
        ("f32[2,3]{1,0:S(1)T(2,128)}", &["T", "before", "S"]),
        ("f32[2,3]{1,0:T(8,128)T(2,1)}", &["twice", "T(8,128)(2,1)"]),
        ("f32[2,3]{1,0:S(300)}", &["300", "0..=127"]),
        ("f32[2,3]{1,0:T(2,*)}", &["*", "most-minor"]),
        ("f32[2,3]{1,0:T(0,128)}", &["0", "positive"]),
        ("f32[2,3]{1,0:T()}", &["empty", "(8,128)"]),
        ("f32[2,3]{1,0:L(0)}", &["L(0)", "at least 1"]),
        ("f32[2,3]{1,0:E(-1)}", &["E(-1)", ">= 0"]),
        ("f32[-1]", &["-1", ">= 0"]),
        ("f32[]{}", &["{}", "f32[]"]),
        (
            "f32[2,3]{1,0:T(9223372036854775808)}",
            &["9223372036854775808", "9223372036854775807"],
        ),
        ("pred[123,456]{1,0:SC(1:500)}", &["500", "456"]),
        ("pred[123,456]{1,0:SC(2:10)}", &["2", "0..2"]),
        ("f32[2,3]{1,0:#(u32)}", &["sparse"]),
        ("token[]{:S(1)}", &["layout"]),
        ("f32[2,3]{1,0:t(2,128)}", &["`t`", "`T`"]),
        ("f32[2,3]{1,0:E(4.0)}", &["4.0", "integer"]),
        ("f32[123,456]dense{foo}", &["dense", "f32[2,3]{1,0}"]),
        ("(f32[2],)", &["trailing comma"]),
        ("f32[2]{0}{0}", &["second layout"]),
        ("f32[2]{0.5}", &["0.5", "integer"]),
        ("f32[123,456]{foo}", &["foo", "{1,0:T(8,128)}"]),
    ];
    let mut failures = Vec::new();
    for &(input, needles) in cases {
        let message = first_message(input);
        for needle in needles {
            if !message.contains(needle) {
                failures.push(format!(
                    "{input:?}: message {message:?} does not mention {needle:?}"
                ));
            }
        }
    }
    report(failures);
}

/// Tuple nesting: MAX_NESTING levels parse, one more is an error.
#[test]
fn nesting_limit() {
    let n = xla_layout::MAX_NESTING;
    let ok_text = format!("{}f32[]{}", "(".repeat(n), ")".repeat(n));
    let s = parse(&ok_text).expect("MAX_NESTING levels are accepted");
    assert_eq!(s.to_string(), ok_text);
    let deep = format!("{}f32[]{}", "(".repeat(n + 1), ")".repeat(n + 1));
    let errs = parse(&deep).unwrap_err();
    assert_eq!(errs[0].kind(), NestingTooDeep);
    let buffers = format!("{}b(f32[]){}", "(".repeat(n), ")".repeat(n));
    assert_eq!(parse(&buffers).unwrap_err()[0].kind(), NestingTooDeep);
}

/// Corpus C4/C5 and the API side of validation: shapes built in code.
#[test]
fn api_validation() {
    // C4: a layout with more entries than the shape has dimensions.
    let a = ArrayShape::new(PrimitiveType::F32, [2, 3]).with_layout(ArrayLayout::new([0, 1, 2]));
    let errs = a.validate().unwrap_err();
    assert_eq!(errs[0].kind(), MinorToMajorLength);
    assert_eq!(errs[0].span(), None);
    // C5: every ArrayShape has a layout; the closest is an empty one on a rank-2 array.
    let a = ArrayShape::new(PrimitiveType::F32, [2, 3]).with_layout(ArrayLayout::default());
    assert_eq!(a.validate().unwrap_err()[0].kind(), MinorToMajorLength);
    // A negative tile dim and `*` last, which XLA's MakeLayout aborts on.
    let a = ArrayShape::new(PrimitiveType::F32, [2, 3]).with_layout(
        ArrayLayout::new([1, 0])
            .with_tiles([Tile::from_dims([TileDim::Size(2), TileDim::Combine])]),
    );
    assert_eq!(a.validate().unwrap_err()[0].kind(), CombineInMinorPosition);
    // Tuples validate every element.
    let bad = ArrayShape::new(PrimitiveType::F32, [2])
        .with_layout(ArrayLayout::new([0]).with_memory_space(200));
    let s = Shape::Tuple(vec![Shape::Token, Shape::Buffer(Box::new(bad))]);
    assert_eq!(s.validate().unwrap_err()[0].kind(), MemorySpaceOutOfRange);
    // Valid shapes built in code print as XLA does.
    let a = ArrayShape::with_dims(PrimitiveType::F32, [Dim::Unbounded, Dim::Static(784)]);
    assert!(a.validate().is_ok());
    assert_eq!(a.to_string(), "f32[?,784]{1,0}");
}

/// The printer on models: `layout_test.cc` `ToString` outputs and spec §3 rules.
#[test]
fn printer_layout_test_strings() {
    let t = |d: &[i64]| Tile::new(d.iter().copied());
    assert_eq!(ArrayLayout::default().to_string(), "{}");
    assert_eq!(ArrayLayout::new([1, 2, 0]).to_string(), "{1,2,0}");
    assert_eq!(
        ArrayLayout::new([3, 2, 1, 0])
            .with_tiles([t(&[42, 123]), t(&[4, 5])])
            .to_string(),
        "{3,2,1,0:T(42,123)(4,5)}"
    );
    use TileDim::{Combine, Size};
    assert_eq!(
        ArrayLayout::new([3, 2, 1, 0])
            .with_tiles([Tile::from_dims([Combine, Combine, Size(42), Size(123)])])
            .to_string(),
        "{3,2,1,0:T(*,*,42,123)}"
    );
    assert_eq!(
        ArrayLayout::new([3, 2, 1, 0])
            .with_tail_padding_alignment(100)
            .to_string(),
        "{3,2,1,0:L(100)}"
    );
    assert_eq!(
        ArrayLayout::new([3, 2, 1, 0])
            .with_element_size_in_bits(42)
            .to_string(),
        "{3,2,1,0:E(42)}"
    );
    assert_eq!(
        ArrayLayout::new([3, 2, 1, 0])
            .with_memory_space(3)
            .to_string(),
        "{3,2,1,0:S(3)}"
    );
    assert_eq!(
        ArrayLayout::new([0, 1])
            .with_split_configs([SplitConfig::new(0, [3]), SplitConfig::new(1, [0, 4])])
            .to_string(),
        "{0,1:SC(0:3)(1:0,4)}"
    );
    assert_eq!(
        ArrayLayout::new([0, 1])
            .with_metadata_prefix_bytes(123)
            .to_string(),
        "{0,1:M(123)}"
    );
    assert_eq!(
        ArrayLayout::new([3, 2, 1, 0])
            .with_tiles([t(&[42, 123]), t(&[4, 5])])
            .with_tail_padding_alignment(100)
            .with_element_size_in_bits(42)
            .to_string(),
        "{3,2,1,0:T(42,123)(4,5)L(100)E(42)}"
    );
    assert_eq!(t(&[7, 8]).to_string(), "(7,8)");

    // Spec §3: defaults are not printed; M only when > 0; E printed even when negative.
    assert_eq!(
        ArrayLayout::new([1, 0])
            .with_tail_padding_alignment(1)
            .with_element_size_in_bits(0)
            .with_memory_space(0)
            .with_metadata_prefix_bytes(-5)
            .to_string(),
        "{1,0}"
    );
    assert_eq!(
        ArrayLayout::new([0])
            .with_element_size_in_bits(-1)
            .to_string(),
        "{0:E(-1)}"
    );
    // Every attribute, in the fixed order T L E S SC M.
    let all = ArrayLayout::new([1, 0])
        .with_metadata_prefix_bytes(8)
        .with_split_configs([SplitConfig::new(0, [1])])
        .with_memory_space(1)
        .with_element_size_in_bits(4)
        .with_tail_padding_alignment(1024)
        .with_tiles([t(&[8, 128])]);
    assert_eq!(all.to_string(), "{1,0:T(8,128)L(1024)E(4)S(1)SC(0:1)M(8)}");
    let text = "s4[2,256]{1,0:T(8,128)L(1024)E(4)S(1)SC(0:1)M(8)}";
    let a = parse_array(text).unwrap();
    assert_eq!(a.layout, all);
    assert_eq!(a.to_string(), text);
}

/// Spec §3: scalar, token, opaque, buffer and tuple printing.
#[test]
fn printer_shapes() {
    let scalar = ArrayShape::new(PrimitiveType::F32, []);
    assert_eq!(scalar.to_string(), "f32[]");
    assert_eq!(
        scalar
            .clone()
            .with_layout(ArrayLayout::default().with_tiles([Tile::new([256])]))
            .to_string(),
        "f32[]{:T(256)}"
    );
    assert_eq!(
        ArrayShape::new(PrimitiveType::U32, [])
            .with_layout(ArrayLayout::default().with_memory_space(2))
            .to_string(),
        "u32[]{:S(2)}"
    );
    assert_eq!(Shape::Token.to_string(), "token[]");
    assert_eq!(Shape::Opaque.to_string(), "opaque[]");
    assert_eq!(Shape::Tuple(vec![]).to_string(), "()");
    let b = ArrayShape::new(PrimitiveType::F32, [8, 16]);
    assert_eq!(Shape::Buffer(Box::new(b)).to_string(), "b(f32[8,16]{1,0})");
    assert_eq!(
        ArrayShape::with_dims(
            PrimitiveType::F32,
            [Dim::Bounded(23), Dim::Static(44), Dim::Unbounded]
        )
        .to_string(),
        "f32[<=23,44,?]{2,1,0}"
    );
    // `/*index=i*/` before every element whose index is a positive multiple of 5.
    let eleven = Shape::Tuple(vec![Shape::Token; 11]);
    assert_eq!(
        eleven.to_string(),
        "(token[], token[], token[], token[], token[], /*index=5*/token[], token[], token[], \
         token[], token[], /*index=10*/token[])"
    );
    assert_eq!(parse(&eleven.to_string()).unwrap(), eleven);
}
