//! The JSON report; its schema is [`super::JSON_SCHEMA`] (shown by `hlo --help`).

use std::io::{self, Write};
use std::ops::Range;

use serde_json::{Map, Value, json};
use xla_layout_core::Shape;
use xla_layout_core::hlo::Instruction;
use xla_layout_core::hlo::memory::{self, Category, Contents, Sum, Totals};

use super::{View, entry_parameters, memory_space_name};
use crate::explain::leaves;

/// A byte count: a number, or a string above `u64::MAX`.
fn num(n: u128) -> Value {
    u64::try_from(n).map_or_else(|_| json!(n.to_string()), |n| json!(n))
}

fn sum(s: &Sum) -> Value {
    json!({"buffers": s.buffers, "unpadded_bytes": num(s.unpadded_bytes), "bytes": num(s.bytes)})
}

/// `sum` with the extra fields first.
fn sum_with(mut fields: Map<String, Value>, s: &Sum) -> Value {
    if let Value::Object(m) = sum(s) {
        fields.extend(m);
    }
    Value::Object(fields)
}

fn totals(t: &Totals) -> Value {
    let mut categories = Map::new();
    for c in Category::ALL {
        categories.insert(c.name().to_string(), sum(t.category(c)));
    }
    let spaces: Vec<Value> = t
        .by_memory_space
        .iter()
        .map(|(space, s)| {
            let mut m = Map::new();
            m.insert("memory_space".into(), json!(space));
            m.insert("name".into(), json!(memory_space_name(*space)));
            sum_with(m, s)
        })
        .collect();
    let types: Vec<Value> = t
        .by_element_type
        .iter()
        .map(|(ty, s)| {
            let mut m = Map::new();
            m.insert(
                "element_type".into(),
                json!(ty.map_or("tuple", |t| t.name())),
            );
            sum_with(m, s)
        })
        .collect();
    json!({
        "buffers": t.all.buffers,
        "unpadded_bytes": num(t.all.unpadded_bytes),
        "bytes": num(t.all.bytes),
        "extra_bytes": num(t.all.extra_bytes()),
        "dynamic_buffers": t.dynamic_buffers,
        "categories": categories,
        "shared_with_arguments": sum(&t.shared_with_arguments),
        "in_place": sum(&t.in_place),
        "memory_spaces": spaces,
        "element_types": types,
    })
}

/// `unpadded_bytes` and `bytes` of a shape (null without a static size).
fn shape_sizes(shape: &Shape) -> (Value, Value) {
    match memory::shape_bytes(shape) {
        Some((u, b)) => (num(u), num(b)),
        None => (Value::Null, Value::Null),
    }
}

/// One instruction's object.
fn instruction(v: &View<'_, '_, '_>, ins: &Instruction<'_>, range: Range<usize>) -> Value {
    let (unpadded, bytes) = shape_sizes(&ins.shape);
    let owned = &v.memory.buffers[range];
    let buffer_bytes: u128 = owned
        .iter()
        .filter(|b| b.is_counted())
        .filter_map(|b| b.padding.as_ref())
        .map(|p| u128::from(p.bytes))
        .sum();
    let category = owned
        .iter()
        .rev()
        .find(|b| std::ptr::eq(b.instruction, ins))
        .map(|b| b.category.name());
    let operands: Vec<Value> = ins
        .operands
        .iter()
        .map(|o| {
            if o.is_nested() {
                Value::Null
            } else {
                json!(o.name)
            }
        })
        .collect();
    json!({
        "name": ins.name,
        "opcode": ins.opcode,
        "shape": ins.shape.to_string(),
        "operands": operands,
        "is_root": ins.is_root,
        "unpadded_bytes": unpadded,
        "bytes": bytes,
        "buffer_bytes": num(buffer_bytes),
        "category": category,
    })
}

/// Writes the report as one line of JSON, an instruction at a time, so memory stays
/// bounded by the module rather than by its JSON text.
pub(crate) fn write(v: &View<'_, '_, '_>, out: &mut dyn Write) -> io::Result<()> {
    let comps = v.module.computations();
    let head = json!({
        "module": v.module.name(),
        "file": v.origin,
        "is_scheduled": v.module.is_scheduled(),
    });
    let head = head.to_string();
    // `{"file":..,"is_scheduled":..,"module":..` without its closing brace.
    out.write_all(&head.as_bytes()[..head.len() - 1])?;
    out.write_all(b",\"computations\":[")?;
    for (n, ci) in v.computations().into_iter().enumerate() {
        let c = &comps[ci];
        let m = &v.memory.computations[ci];
        let fields = json!({
            "name": c.name,
            "is_entry": c.is_entry,
            "role": m.role.name(),
            "caller": m.caller,
            "owns_buffers": m.owns_buffers,
            "instruction_count": m.instructions,
            "totals": totals(&m.totals),
        })
        .to_string();
        if n > 0 {
            out.write_all(b",")?;
        }
        out.write_all(&fields.as_bytes()[..fields.len() - 1])?;
        out.write_all(b",\"instructions\":[")?;
        for (k, (ins, range)) in c
            .instructions
            .iter()
            .zip(&m.instruction_buffers)
            .enumerate()
        {
            if k > 0 {
                out.write_all(b",")?;
            }
            serde_json::to_writer(&mut *out, &instruction(v, ins, range.clone()))?;
        }
        out.write_all(b"]}")?;
    }
    out.write_all(b"],")?;
    let tail = tail(v).to_string();
    // The remaining keys, without the opening brace.
    out.write_all(&tail.as_bytes()[1..])?;
    out.write_all(b"\n")
}

/// `entry`, `largest_padding` and `totals`.
fn tail(v: &View<'_, '_, '_>) -> Value {
    let comps = v.module.computations();
    let parameters: Vec<Value> = entry_parameters(v.module)
        .into_iter()
        .map(|p| {
            let shape = memory::entry_parameter_shape(v.module, p);
            let (unpadded, bytes) = shape_sizes(shape);
            json!({
                "number": p.parameter_number,
                "name": p.name,
                "shape": shape.to_string(),
                "unpadded_bytes": unpadded,
                "bytes": bytes,
            })
        })
        .collect();
    let outputs: Vec<Value> = leaves(memory::entry_result_shape(v.module))
        .into_iter()
        .map(|(index, leaf)| {
            let (unpadded, bytes) = match leaf.array() {
                Some(a) => shape_sizes(&Shape::Array(a.clone())),
                None => (json!(0), json!(0)),
            };
            json!({"index": index, "shape": leaf.to_string(), "unpadded_bytes": unpadded, "bytes": bytes})
        })
        .collect();

    let largest: Vec<Value> = v
        .memory
        .largest_padding(v.top, v.computation)
        .into_iter()
        .filter_map(|b| {
            let p = b.padding.as_ref()?;
            let shape = match b.contents {
                Contents::Array(a) => a.to_string(),
                Contents::TupleTable { arity } => format!("tuple table of {arity}"),
            };
            let causes: Vec<String> = p.causes.iter().map(ToString::to_string).collect();
            Some(json!({
                "computation": comps[b.computation].name,
                "instruction": b.instruction.name,
                "index": b.index,
                "shape": shape,
                "category": b.category.name(),
                "memory_space": b.memory_space,
                "unpadded_bytes": p.unpadded_bytes,
                "bytes": p.bytes,
                "extra_bytes": p.extra_bytes(),
                "expansion": p.expansion(),
                "causes": causes,
            }))
        })
        .collect();

    let peaks: Vec<Value> = v
        .peaks()
        .iter()
        .map(|(space, p)| {
            let c = &comps[p.computation];
            json!({
                "memory_space": space,
                "name": memory_space_name(*space),
                "bytes": num(p.bytes),
                "computation": c.name,
                "instruction": c.instructions[p.instruction].name,
            })
        })
        .collect();
    json!({
        "peaks": peaks,
        "entry": {
            "computation": v.module.entry().name,
            "parameters": parameters,
            "outputs": outputs,
        },
        "largest_padding": largest,
        "totals": totals(v.totals()),
    })
}
