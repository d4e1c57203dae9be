//! XLA's IndexUtil, LayoutUtil and ShapeUtil helpers against corpus sections F (sizes),
//! G (IndexUtil) and H (LayoutUtil/ShapeUtil), plus the conventions of the shapes
//! documentation. Every expected value is taken from the corpus, the spec or XLA's docs, never
//! computed by the code under test.

use xla_layout::index_util::{
    bump_indices, compare_indices, get_dimension_stride, index_in_bounds,
    linear_index_to_multidimensional_index, multidimensional_index_to_linear_index,
};
use xla_layout::layout_util::{
    self, LayoutEq, byte_strides_is_major_to_minor, default_layout_for_rank,
    default_layout_for_shape, is_untiled_layout, linear_index, max_elements_in_per_split,
    max_split_size, move_dim_to_minor,
};
use xla_layout::shape_util::{
    self, array_data_size, array_size, byte_size_of, byte_size_of_elements_recursive,
    byte_size_of_primitive_type, byte_strides, change_element_type, delete_dimensions,
    dimension_letter, dimensions_unmodified_by_reshape, elements_in,
    make_shape_with_descending_layout_and_same_physical_layout,
    packed_factor_for_1d_interleaved_array, reshape_is_bitcast, resolve_dimension,
    transpose_is_bitcast, true_num_dimensions, unpacked_byte_strides,
};
use xla_layout::{ArrayLayout, ArrayShape, PrimitiveType, Shape, SplitConfig, Tile, parse_array};

/// The tests' pointer size for tuple index tables (any positive value does for arrays).
const POINTER_SIZE: i64 = 8;

fn array(text: &str) -> ArrayShape {
    parse_array(text).unwrap_or_else(|e| panic!("`{text}` should parse: {e}"))
}

fn shape(text: &str) -> Shape {
    text.parse()
        .unwrap_or_else(|e| panic!("`{text}` should parse: {e}"))
}

// ---------------------------------------------------------------------------------------
// F. Sizes (bytes)
// ---------------------------------------------------------------------------------------

#[test]
fn f1_byte_size_of_without_padding() {
    for (text, bytes) in [
        ("f32[]", 4),
        ("f32[10,20]", 800),
        ("f64[10,20]", 1600),
        ("c64[10,20]", 1600),
    ] {
        assert_eq!(
            byte_size_of(&shape(text), POINTER_SIZE),
            Some(bytes),
            "{text}"
        );
    }
    assert_eq!(byte_size_of_primitive_type(PrimitiveType::F32), 4);
    assert_eq!(byte_size_of_primitive_type(PrimitiveType::F64), 8);
    assert_eq!(byte_size_of_primitive_type(PrimitiveType::C64), 8);
}

#[test]
fn f2_byte_size_of_elements_recursive() {
    assert_eq!(
        byte_size_of_elements_recursive(&shape("(s32[], s32[])")),
        Some(8)
    );
    assert_eq!(
        byte_size_of_elements_recursive(&shape("(s32[16,32,64], s8[16,32,64])")),
        Some(163840)
    );
}

#[test]
fn f3_int4_array_size_and_data_size() {
    let a = array("s4[64,128]{1,0:E(4)}");
    assert_eq!(array_size(&a), Some(4096));
    assert_eq!(array_data_size(&a), Some(4096));
}

#[test]
fn f4_int4_tiled_array_size_and_data_size() {
    let a = array("s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}");
    assert_eq!(array_size(&a), Some(28311552));
    assert_eq!(array_data_size(&a), Some(28311552));
}

#[test]
fn f5_zero_dimension_sizes_are_zero() {
    for text in [
        "s4[0,64,128]{2,1,0:E(4)}",
        "s4[128,0,64]{2,1,0:E(4)}",
        "s4[64,128,0]{2,1,0:E(4)}",
    ] {
        let a = array(text);
        assert_eq!(array_size(&a), Some(0), "{text}");
        assert_eq!(array_data_size(&a), Some(0), "{text}");
    }
}

#[test]
fn f6_tail_padding_matches_full_tile() {
    // 25601024 elements of 4 bytes each.
    for text in [
        "f32[200001,128]{1,0:T(8,128)}",
        "f32[200001,128]{1,0:T(8)L(1024)}",
    ] {
        assert_eq!(array_size(&array(text)), Some(102404096), "{text}");
    }
}

#[test]
fn f7_doc_example_sizes() {
    let a = array("f32[3,5]{1,0:T(2,2)}");
    assert_eq!(array_size(&a), Some(96));
    assert_eq!(linear_index(&a, &[2, 4]), Some(20));
    assert_eq!(array_data_size(&a), Some(84));
}

#[test]
fn f8_scalar_with_tile() {
    let a = array("f32[]{:T(256)}");
    assert_eq!(array_size(&a), Some(1024));
    assert_eq!(array_data_size(&a), Some(4));
}

#[test]
fn f9_array_size_uses_only_the_first_tile() {
    assert_eq!(array_size(&array("bf16[3]{0:T(128)(2,1)}")), Some(256));
}

#[test]
fn f10_unpacked_byte_strides() {
    assert_eq!(
        unpacked_byte_strides(&array("f32[3,5,7]")),
        Some(vec![140, 28, 4])
    );
    assert_eq!(
        unpacked_byte_strides(&array("f16[5,7,9]")),
        Some(vec![126, 18, 2])
    );
    assert_eq!(
        unpacked_byte_strides(&array("s4[2,4]{1,0:E(4)}")),
        Some(vec![4, 1])
    );
}

#[test]
fn f11_byte_strides_fail_on_fractional_element_size() {
    assert_eq!(byte_strides(&array("s4[10,20]{1,0:E(4)}")), None);
}

#[test]
fn f12_byte_strides_is_major_to_minor() {
    let dims = [8, 9, 10, 11];
    let f32 = PrimitiveType::F32;
    assert!(byte_strides_is_major_to_minor(
        &[3960, 440, 44, 4],
        &dims,
        f32
    ));
    assert!(!byte_strides_is_major_to_minor(
        &[1880, 220, 22, 2],
        &dims,
        f32
    ));
    assert!(!byte_strides_is_major_to_minor(
        &[1880, 440, 44, 4],
        &dims,
        f32
    ));
}

// ---------------------------------------------------------------------------------------
// G. IndexUtil (tiles ignored)
// ---------------------------------------------------------------------------------------

/// Checks `index ↦ linear` both ways.
fn assert_round_trip(a: &ArrayShape, index: &[i64], linear: i64) {
    assert_eq!(
        multidimensional_index_to_linear_index(a, index),
        Some(linear),
        "{a} {index:?}"
    );
    assert_eq!(
        linear_index_to_multidimensional_index(a, linear).as_deref(),
        Some(index),
        "{a} {linear}"
    );
}

#[test]
fn g1_vector_indexing() {
    assert_round_trip(&array("f32[100]{0}"), &[42], 42);
}

#[test]
fn g2_matrix_dim0_minor() {
    let a = array("f32[10,20]{0,1}");
    assert_round_trip(&a, &[0, 0], 0);
    assert_round_trip(&a, &[9, 19], 199);
    assert_round_trip(&a, &[3, 5], 53);
}

#[test]
fn g3_matrix_dim0_major() {
    let a = array("f32[10,20]{1,0}");
    assert_round_trip(&a, &[0, 0], 0);
    assert_round_trip(&a, &[9, 19], 199);
    assert_round_trip(&a, &[3, 5], 65);
}

#[test]
fn g4_three_d_210() {
    let a = array("f32[10,20,30]{2,1,0}");
    assert_round_trip(&a, &[3, 5, 7], 1957);
    assert_round_trip(&a, &[8, 15, 27], 5277);
}

#[test]
fn g5_three_d_120() {
    let a = array("f32[10,20,30]{1,2,0}");
    assert_round_trip(&a, &[3, 5, 7], 1945);
    assert_round_trip(&a, &[8, 15, 27], 5355);
}

#[test]
fn g6_four_d_3210() {
    let a = array("f32[10,20,30,40]{3,2,1,0}");
    assert_round_trip(&a, &[3, 5, 7, 9], 78289);
    assert_round_trip(&a, &[8, 15, 27, 33], 211113);
}

#[test]
fn g7_linear_to_multi_to_linear() {
    for layout in ["{6,5,4,3,2,1,0}", "{0,1,2,3,4,5,6}", "{4,5,1,2,6,0,3}"] {
        let a = array(&format!("f32[10,20,30,40,30,20,10]{layout}"));
        for linear in [0, 1439999999, 1145567336, 43883404, 617295214, 1117613654] {
            let multi = linear_index_to_multidimensional_index(&a, linear)
                .unwrap_or_else(|| panic!("{a}: {linear} is in range"));
            assert!(index_in_bounds(&a, &multi), "{a} {multi:?}");
            assert_eq!(
                multidimensional_index_to_linear_index(&a, &multi),
                Some(linear),
                "{a} {multi:?}"
            );
        }
    }
}

#[test]
fn g8_bump_indices_2x2() {
    let a = array("s32[2,2]");
    let mut index = [0, 0];
    for expected in [[0, 1], [1, 0], [1, 1]] {
        assert!(bump_indices(&a, &mut index));
        assert_eq!(index, expected);
    }
    assert!(!bump_indices(&a, &mut index));
}

#[test]
fn g9_get_dimension_stride() {
    assert_eq!(
        get_dimension_stride(&array("f32[5,8,10,4]{3,2,1,0}"), 1),
        Some(40)
    );
}

#[test]
fn g10_index_in_bounds() {
    let a = array("f32[2,3]");
    assert!(index_in_bounds(&a, &[1, 2]));
    assert!(!index_in_bounds(&a, &[2, 0]));
    assert!(!index_in_bounds(&a, &[0, 0, 0])); // rank mismatch
    assert!(index_in_bounds(&a, &[-1, 0])); // negative indices are not checked
}

#[test]
fn g11_compare_indices() {
    assert_eq!(compare_indices(&[1, 2], &[1, 3]), -1);
    assert_eq!(compare_indices(&[2, 0], &[1, 9]), 1);
    assert_eq!(compare_indices(&[1, 2], &[1, 2]), 0);
}

// ---------------------------------------------------------------------------------------
// H. LayoutUtil and ShapeUtil helpers
// ---------------------------------------------------------------------------------------

#[test]
fn h1_default_layouts() {
    assert_eq!(default_layout_for_rank(2).to_string(), "{1,0}");
    assert_eq!(default_layout_for_rank(3).to_string(), "{2,1,0}");
    assert_eq!(default_layout_for_rank(4).to_string(), "{3,2,1,0}");
    let s = shape("f32[10,20,30,15,25]");
    assert_eq!(
        default_layout_for_shape(&s)
            .map(|l| l.to_string())
            .as_deref(),
        Some("{4,3,2,1,0}")
    );
}

#[test]
fn h2_make_descending() {
    assert_eq!(ArrayLayout::descending(5).to_string(), "{4,3,2,1,0}");
    assert_eq!(ArrayLayout::descending(1).to_string(), "{0}");
    assert_eq!(ArrayLayout::descending(0).to_string(), "{}");
}

#[test]
fn h3_make_ascending() {
    assert_eq!(ArrayLayout::ascending(5).to_string(), "{0,1,2,3,4}");
    assert_eq!(ArrayLayout::ascending(1).to_string(), "{0}");
    assert_eq!(ArrayLayout::ascending(0).to_string(), "{}");
}

#[test]
fn h4_layout_move_dim_to_major() {
    let l = ArrayLayout::new([2, 1, 0]);
    assert_eq!(layout_util::move_dim_to_major(&l, 0), l);
    assert_eq!(layout_util::move_dim_to_major(&l, 1).to_string(), "{2,0,1}");
}

#[test]
fn h5_layout_move_dim_to_minor() {
    let l = ArrayLayout::new([2, 0, 3, 1]);
    assert_eq!(move_dim_to_minor(&l, 2), l);
    assert_eq!(move_dim_to_minor(&l, 3).to_string(), "{3,2,0,1}");
}

#[test]
fn h6_max_split_size() {
    let a = array("f32[150,200,100]{0,1,2:SC(0:30)(1:40,130)}");
    assert_eq!(max_split_size(&a, 0), Some(150));
    assert_eq!(max_split_size(&a, 1), Some(90));
    assert_eq!(max_split_size(&a, 2), Some(70));
    assert_eq!(max_elements_in_per_split(&a), Some(150 * 90 * 70));
}

#[test]
fn h7_is_untiled_layout() {
    assert!(is_untiled_layout(&[Tile::new([8, 128])], &[24, 128]));
    assert!(is_untiled_layout(&[Tile::new([1, 128])], &[4, 256]));
    assert!(!is_untiled_layout(&[Tile::new([8, 128])], &[2, 3, 4]));
}

#[test]
fn h8_shape_move_dim_to_major() {
    assert_eq!(
        shape_util::move_dim_to_major(&array("f32[10,10,10]"), 1).to_string(),
        "f32[10,10,10]{2,0,1}"
    );
    assert_eq!(
        shape_util::move_dim_to_major(&array("f32[10,10,10]{0,2,1}"), 0).to_string(),
        "f32[10,10,10]{2,1,0}"
    );
}

#[test]
fn h9_elements_in() {
    for (text, n) in [
        ("s32[]", 1),
        ("s32[0]", 0),
        ("s32[1]", 1),
        ("s32[1,1]", 1),
        ("s32[2]", 2),
        ("s32[2,1]", 2),
        ("s32[3,5]", 15),
        ("s32[3,0,5]", 0),
        ("s32[0,3,0]", 0),
        ("s32[1,3,5]", 15),
        ("s32[13,17]", 221),
    ] {
        assert_eq!(elements_in(&array(text)), Some(n), "{text}");
    }
}

#[test]
fn h10_dimensions_unmodified_by_reshape() {
    assert_eq!(
        dimensions_unmodified_by_reshape(&array("f32[1,1,1,1]"), &array("f32[1,1,1]")),
        Some(vec![(0, 0), (1, 1), (2, 2)])
    );
    assert_eq!(
        dimensions_unmodified_by_reshape(&array("f32[4,1,3,5,6,7]"), &array("f32[2,6,1,5,1,42]")),
        Some(vec![(3, 3)])
    );
}

#[test]
fn h11_reshape_is_bitcast_3x4_6x2() {
    for input in ["{1,0}", "{0,1}"] {
        for output in ["{1,0}", "{0,1}"] {
            let a = array(&format!("f32[3,4]{input}"));
            let b = array(&format!("f32[6,2]{output}"));
            let expected = input == "{1,0}" && output == "{1,0}";
            assert_eq!(reshape_is_bitcast(&a, &b, false), expected, "{a} -> {b}");
        }
    }
}

#[test]
fn h12_reshape_is_bitcast_dim1_most_minor() {
    let a = array("f32[3,2,2]{1,0,2}");
    assert!(reshape_is_bitcast(&a, &array("f32[6,2]{0,1}"), false));
    let f16 = array("f16[6,2]{0,1}");
    assert!(!reshape_is_bitcast(&a, &f16, false));
    assert!(reshape_is_bitcast(&a, &f16, true));
}

#[test]
fn h13_transpose_is_bitcast_ignore_element_type() {
    let a = array("f32[10,5]{1,0}");
    let b = array("f16[5,10]{0,1}");
    assert!(transpose_is_bitcast(&a, &b, &[1, 0], true));
    assert!(!transpose_is_bitcast(&a, &b, &[1, 0], false));
}

#[test]
fn h14_descending_layout_with_same_physical_layout() {
    let a = array("f32[128,24,4,48,48]{2,4,3,1,0}");
    assert_eq!(
        make_shape_with_descending_layout_and_same_physical_layout(&a)
            .map(|s| s.to_string())
            .as_deref(),
        Some("f32[128,24,48,48,4]{4,3,2,1,0}")
    );
}

#[test]
fn h15_delete_dimensions() {
    assert_eq!(
        delete_dimensions(&array("f32[5,3,2]{2,0,1}"), &[1])
            .map(|s| s.to_string())
            .as_deref(),
        Some("f32[5,2]{1,0}")
    );
}

#[test]
fn h16_change_element_type_keeps_e_for_sub_byte_only() {
    let a = array("s4[64,128]{1,0:E(4)}");
    for (t, e) in [
        (PrimitiveType::Pred, 0),
        (PrimitiveType::U8, 0),
        (PrimitiveType::U4, 4),
    ] {
        assert_eq!(
            change_element_type(&a, t).layout.element_size_in_bits,
            e,
            "{t}"
        );
    }
}

#[test]
fn h17_true_num_dimensions_counts_zero_dims() {
    assert_eq!(true_num_dimensions(&array("f32[3,0,1]")), 2);
}

#[test]
fn h18_packed_factor_for_1d_interleaved_array() {
    assert_eq!(
        packed_factor_for_1d_interleaved_array(&array("bf16[1024]{0:T(1024)(128)(2,1)}")),
        Some(2)
    );
}

#[test]
fn h19_layout_equality() {
    let plain = ArrayLayout::new([0, 1, 2]);

    let tiled = ArrayLayout::new([0, 1, 2]).with_tiles([Tile::new([42, 44])]);
    assert!(!LayoutEq::new().equal(&tiled, &plain));
    assert!(LayoutEq::new().ignore_tiles().equal(&tiled, &plain));

    let split = ArrayLayout::new([0, 1, 2]).with_split_configs([SplitConfig::new(0, [2])]);
    assert!(!LayoutEq::new().equal(&split, &plain));
    assert!(LayoutEq::new().minor_to_major_only().equal(&split, &plain));

    let e32 = ArrayLayout::new([0, 1, 2]).with_element_size_in_bits(32);
    let e1 = ArrayLayout::new([0, 1, 2]).with_element_size_in_bits(1);
    assert!(!LayoutEq::new().equal(&e32, &e1));
    assert!(LayoutEq::new().ignore_element_size().equal(&e32, &e1));
}

// ---------------------------------------------------------------------------------------
// Conventions of XLA's shapes documentation (docs/shapes.md)
// ---------------------------------------------------------------------------------------

#[test]
fn docs_negative_dimension_numbers() {
    // "dimension -1 has size C, dimension -2 has size B" for a 3-D [A x B x C] array.
    assert_eq!(resolve_dimension(3, -1), Some(2));
    assert_eq!(resolve_dimension(3, -2), Some(1));
    assert_eq!(resolve_dimension(3, -3), Some(0));
}

#[test]
fn docs_dimension_letters() {
    let letters = |rank| {
        (0..rank)
            .map(|d| dimension_letter(rank, d))
            .collect::<Option<String>>()
    };
    assert_eq!(letters(2).as_deref(), Some("yx"));
    assert_eq!(letters(3).as_deref(), Some("zyx"));
    assert_eq!(letters(4).as_deref(), Some("pzyx"));
}
