//! The runtime entry points, one function each, run on every input under `catch_unwind`.

use std::panic::{self, AssertUnwindSafe};

use xla_layout::{ArrayShape, Plan, Shape, layout_util, parse, shape_util};

/// How many items of each traversal are taken, and how many indices are offset.
const TAKE: usize = 64;
/// The largest closed form that is printed and evaluated.
const EXPR_NODES: usize = 20_000;

/// Runs `f`, turning a panic into its message.
fn guarded(f: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
    match panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => Err(format!(
            "panic: {}",
            p.downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default()
        )),
    }
}

/// Every entry point on one input, with its result.
pub(crate) fn run_all(input: &str) -> Vec<(&'static str, Result<(), String>)> {
    let mut out = vec![("hlo", guarded(|| hlo(input)))];
    let parsed = panic::catch_unwind(|| parse(input));
    let parsed = match parsed {
        Ok(p) => p,
        Err(_) => {
            out.push(("parse", Err("panic in parse".into())));
            return out;
        }
    };
    match parsed {
        Err(errors) => out.push(("render", guarded(|| render(input, &errors)))),
        Ok(shape) => {
            out.push(("print/reparse", guarded(|| fixed_point(&shape))));
            out.push(("validate", guarded(|| validate(&shape))));
            out.push(("shape_util", guarded(|| shape_helpers(&shape))));
            for a in arrays(&shape).into_iter().take(8) {
                out.push(("array helpers", guarded(|| array_helpers(a))));
                out.push(("plan", guarded(|| plan(a))));
            }
        }
    }
    out
}

/// The arrays of a shape, in pre-order (tuples nest at most `MAX_NESTING` once parsed).
fn arrays(shape: &Shape) -> Vec<&ArrayShape> {
    let mut out = Vec::new();
    let mut stack = vec![shape];
    while let Some(s) = stack.pop() {
        match s {
            Shape::Array(a) => out.push(a),
            Shape::Buffer(a) => out.push(a),
            Shape::Tuple(e) => stack.extend(e.iter().rev()),
            Shape::Token | Shape::Opaque => {}
        }
    }
    out
}

/// `Errors::render` and `render`, which must stay short for any input.
fn render(input: &str, errors: &xla_layout::Errors) -> Result<(), String> {
    let out = errors.render(input, "<fuzz>");
    let one = xla_layout::render(input, "<fuzz>", &errors[0]);
    let bound = (xla_layout::MAX_RENDERED_ERRORS + 1) * 2_000;
    if out.len() > bound || one.len() > 2_000 + errors[0].message().len() {
        return Err(format!("rendering is {} bytes", out.len()));
    }
    Ok(())
}

/// The canonical text reparses to an equal shape and prints identically.
fn fixed_point(shape: &Shape) -> Result<(), String> {
    let text = shape.to_string();
    let again = parse(&text).map_err(|e| format!("canonical text {text:?} fails: {e}"))?;
    if &again != shape || again.to_string() != text {
        return Err(format!("canonical text {text:?} is not a fixed point"));
    }
    Ok(())
}

fn validate(shape: &Shape) -> Result<(), String> {
    shape
        .validate()
        .map_err(|e| format!("a parsed shape fails validation: {e}"))
}

/// `shape_util` and `layout_util` helpers that take whole shapes.
fn shape_helpers(shape: &Shape) -> Result<(), String> {
    let _ = shape_util::byte_size_of(shape, 8);
    let _ = shape_util::byte_size_of_elements_recursive(shape);
    let _ = shape_util::device_shape_is_host_shape(shape);
    let _ = shape_util::device_shape_to_host_shape(shape.clone());
    let _ = layout_util::memory_space(shape);
    let _ = layout_util::default_layout_for_shape(shape);
    let _ = layout_util::has_custom_element_size_in_bits(shape);
    let mut s = shape.clone();
    shape_util::update_element_size_in_bits(&mut s, true);
    layout_util::clear_tiles(&mut s);
    Ok(())
}

/// `shape_util`, `layout_util` and `index_util` helpers that take arrays.
fn array_helpers(a: &ArrayShape) -> Result<(), String> {
    let _ = shape_util::elements_in(a);
    let _ = shape_util::array_size(a);
    let _ = shape_util::array_data_size(a);
    let _ = shape_util::byte_size_of_elements(a);
    let _ = shape_util::byte_strides(a);
    let _ = shape_util::unpacked_byte_strides(a);
    let _ = shape_util::packed_factor_for_1d_interleaved_array(a);
    let _ = shape_util::drop_degenerate_dimensions(a);
    let _ = shape_util::make_shape_with_descending_layout_and_same_physical_layout(a);
    let _ = shape_util::transpose_is_bitcast(a, a, &(0..a.rank()).collect::<Vec<_>>(), false);
    let _ = shape_util::reshape_is_bitcast(a, a, false);
    let _ = layout_util::max_elements_in_per_split(a);
    for d in 0..a.rank() {
        let _ = layout_util::max_split_size(a, d);
        let _ = xla_layout::index_util::get_dimension_stride(a, d);
        let _ = shape_util::move_dim_to_major(a, d);
    }
    let zeros = vec![0i64; a.rank()];
    let _ = layout_util::linear_index(a, &zeros);
    let _ = xla_layout::index_util::multidimensional_index_to_linear_index(a, &zeros);
    let _ = xla_layout::index_util::linear_index_to_multidimensional_index(a, 0);
    Ok(())
}

/// `Plan` and everything it computes, on a few indices and the first items of each walk.
fn plan(a: &ArrayShape) -> Result<(), String> {
    let Ok(p) = Plan::new(a) else {
        return Ok(());
    };
    let _ = (p.size_bytes(), p.physical_elements(), p.tiled_elements());
    let _ = p.tiling_stages();
    let _ = p.bitcast_signature();
    let dims = p.dims().to_vec();
    if p.elements() > 0 {
        let corners: Vec<Vec<usize>> = vec![
            vec![0; dims.len()],
            dims.iter().map(|d| d - 1).collect(),
            dims.iter().map(|d| d / 2).collect(),
        ];
        for idx in &corners {
            let o = p.offset(idx);
            let _ = p.bit_offset(idx);
            if p.index_of(o).as_ref() != Some(idx) {
                return Err(format!("index_of(offset({idx:?})) is not {idx:?}"));
            }
        }
    }
    let _ = p.index_of(0);
    let _ = p.index_of(p.tiled_elements().saturating_sub(1));
    let logical: Vec<usize> = p.logical_offsets().take(TAKE).collect();
    let memory: Vec<(usize, usize)> = p.memory_order().take(TAKE).collect();
    if memory.windows(2).any(|w| w[0].0 >= w[1].0) {
        return Err("memory order is not increasing".into());
    }
    let _ = logical;
    let e = p.offset_expr();
    if e.tree_size(EXPR_NODES).is_some() {
        let _ = e.to_string();
        if p.elements() > 0 {
            let last: Vec<usize> = dims.iter().map(|d| d - 1).collect();
            if e.eval(&last) != p.offset(&last) {
                return Err("offset_expr disagrees with offset".into());
            }
        }
    }
    for x in p.index_exprs() {
        if x.tree_size(EXPR_NODES).is_some() {
            let _ = x.to_string();
        }
    }
    Ok(())
}

/// The HLO reader: a module that reads prints to text that reads to the same printout, every
/// instruction's operands, attributes and shapes can be looked at, and errors render short.
fn hlo(input: &str) -> Result<(), String> {
    let module = match xla_layout::hlo::parse_module(input) {
        Ok(m) => m,
        Err(errors) => return render(input, &errors),
    };
    let text = module.to_string();
    let again = xla_layout::hlo::parse_module(&text)
        .map_err(|e| format!("the printed module fails to read: {e}\n{text}"))?;
    if again.to_string() != text {
        return Err(format!("the printed module is not a fixed point:\n{text}"));
    }
    let _ = (module.entry().root(), module.entry_computation_layout());
    for c in module.computations() {
        let _ = (c.root(), c.parameters().count());
        for i in &c.instructions {
            i.shape
                .validate()
                .map_err(|e| format!("the shape of `{}` fails validation: {e}", i.name))?;
            for o in i.operands.iter() {
                let _ = (o.name, o.shape(), o.text(), o.is_nested());
            }
            let _ = i.attributes.iter().count();
            let _ = i.called_computations().count();
        }
    }
    Ok(())
}
