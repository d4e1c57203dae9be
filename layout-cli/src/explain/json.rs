//! `explain --json`: one object per shape. Arrays list their facts (and every offset when
//! small); tuples list their leaves with index paths.

use serde_json::{Value, json};
use xla_layout_core::{ArrayShape, Dim, Plan, Shape};

use super::geometry::{I64_MAX, Sizes, first_offsets};
use super::{Leaf, closed_form, memory_space_name, no_plan};
use crate::input::Input;

/// Offsets listed per input at most (over all of a tuple's arrays).
const OFFSETS_BUDGET: usize = 65536;

/// A byte or element count: a JSON number up to `i64::MAX`, else `null` (with a note).
fn count(n: u128) -> Value {
    if n <= I64_MAX {
        json!(n as u64)
    } else {
        Value::Null
    }
}

/// The object for a valid shape.
pub(crate) fn shape(input: &Input, shape: &Shape, leaves: &[(Vec<usize>, Leaf<'_>)]) -> Value {
    let mut budget = OFFSETS_BUDGET;
    let mut v = match (shape, leaves) {
        (Shape::Tuple(_), _) | (_, []) => {
            let total = leaves
                .iter()
                .try_fold(0u128, |acc, (_, l)| Some(acc.saturating_add(l.bytes()?)));
            let elements: Vec<Value> = leaves
                .iter()
                .map(|(path, leaf)| {
                    let mut e = leaf_json(leaf, &mut budget);
                    e["index"] = json!(path);
                    e
                })
                .collect();
            json!({
                "canonical": shape.to_string(),
                "kind": "tuple",
                "leaves": leaves.len(),
                "size_bytes": total.map_or(Value::Null, count),
                "elements": elements,
            })
        }
        (_, [(_, leaf)]) => leaf_json(leaf, &mut budget),
        _ => unreachable!("a shape that is not a tuple is its own single leaf"),
    };
    v["input"] = json!(input.text);
    v["ok"] = json!(true);
    if input.is_from_stream() {
        v["line"] = json!(input.line);
    }
    v
}

fn leaf_json(leaf: &Leaf<'_>, budget: &mut usize) -> Value {
    match leaf {
        Leaf::Array(a) => array(a, "array", budget),
        Leaf::Buffer(a) => array(a, "buffer", budget),
        Leaf::Token => json!({"canonical": "token[]", "kind": "token", "size_bytes": 0}),
        Leaf::Opaque => json!({"canonical": "opaque[]", "kind": "opaque", "size_bytes": 0}),
    }
}

fn array(a: &ArrayShape, kind: &str, budget: &mut usize) -> Value {
    let dims: Vec<Value> = a.dims.iter().map(|d| json!(d.extent())).collect();
    let dims_text: Vec<String> = a.dims.iter().map(Dim::to_string).collect();
    let bits = match a.layout.element_size_in_bits {
        e if e > 0 => e as u64,
        _ => u64::from(a.element_type.storage_bits()),
    };
    let mut v = json!({
        "canonical": a.to_string(),
        "kind": kind,
        "element_type": a.element_type.name(),
        "dims": dims,
        "dims_text": dims_text,
        "minor_to_major": a.layout.minor_to_major,
        "tiles": a.layout.tiles.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "element_bits": bits,
        "memory_space": a.layout.memory_space,
        "memory_space_name": memory_space_name(a.layout.memory_space),
    });
    match Plan::new(a) {
        Ok(p) => {
            let sizes = Sizes::of(&p);
            v["elements"] = count(sizes.elements);
            v["physical_elements"] = count(sizes.physical_elements);
            v["padding_elements"] = count(sizes.padding_elements());
            v["logical_bytes"] = count(sizes.logical_bytes);
            v["size_bytes"] = count(sizes.physical_bytes);
            if sizes.physical_bytes > I64_MAX {
                v["note"] = json!("the size exceeds i64::MAX bytes, XLA's limit");
            }
            v["expanded_dims"] = json!(p.expanded_dims());
            v["tiling_stages"] = json!(p.tiling_stages());
            v["offset_expr"] = json!(closed_form(a, &p));
            if sizes.elements <= *budget as u128 {
                let n = sizes.elements as usize;
                *budget -= n;
                v["offsets"] = json!(first_offsets(&p, n));
            }
        }
        Err(errors) => {
            v["elements"] = Value::Null;
            v["physical_elements"] = Value::Null;
            v["size_bytes"] = Value::Null;
            v["note"] = json!(no_plan(&errors));
        }
    }
    v
}
