//! The text report: module summary, totals, entry parameters and outputs, computations, and
//! the largest padding in the words of XLA's TPU out-of-memory report.

use std::fmt::Write as _;

use xla_layout_core::Shape;
use xla_layout_core::hlo::memory::{self, Buffer, Category, Sum, Totals};

use super::{View, entry_parameters, expansion, human, label, memory_space_name, utilization};
use crate::explain::leaves;
use crate::style::{self, DIM, HEADING, SHAPE, WARNING};

/// Expansion from which a buffer's padding is flagged.
const HEAVY_EXPANSION: f64 = 2.0;

/// The whole report.
pub(crate) fn report(v: &View<'_, '_, '_>) -> String {
    let mut s = String::new();
    header(&mut s, v);
    totals(&mut s, v.totals());
    peaks(&mut s, v);
    if v.computation.is_none() {
        entry(&mut s, v);
    }
    computations(&mut s, v);
    padding(&mut s, v);
    s
}

fn heading(s: &mut String, text: &str) {
    let _ = writeln!(s, "\n{}", style::out(HEADING, text));
}

fn header(s: &mut String, v: &View<'_, '_, '_>) {
    let name = v.module.name().map_or_else(
        || format!("module_{}", v.module.entry().name),
        str::to_string,
    );
    let scheduled = if v.module.is_scheduled() {
        ", scheduled"
    } else {
        ""
    };
    let instructions: usize = v.memory.computations.iter().map(|c| c.instructions).sum();
    let owning = v
        .memory
        .computations
        .iter()
        .filter(|c| c.owns_buffers)
        .count();
    let _ = writeln!(
        s,
        "{} {} ({}{scheduled})",
        style::out(HEADING, "HloModule"),
        name,
        v.origin
    );
    let _ = writeln!(
        s,
        "  {} computations ({owning} own buffers), {instructions} instructions",
        v.module.computations().len()
    );
    if let Some(c) = v.computation {
        let _ = writeln!(
            s,
            "  reporting computation {} only",
            v.module.computations()[c].name
        );
    }
}

/// `1.00G (unpadded 61.25M, 1.0x)` for a sum.
fn sizes(sum: &Sum) -> String {
    let mut t = human(sum.bytes);
    if sum.extra_bytes() > 0 {
        let _ = write!(t, " (unpadded {}", human(sum.unpadded_bytes));
        if let Some(x) = expansion(sum.unpadded_bytes, sum.bytes) {
            let _ = write!(t, ", {x}");
        }
        t.push(')');
    }
    t
}

fn row(s: &mut String, name: &str, sum: &Sum) {
    let _ = writeln!(
        s,
        "    {name:<16} {:>11}  {}",
        buffers(sum.buffers),
        sizes(sum)
    );
}

fn totals(s: &mut String, t: &Totals) {
    heading(s, "Memory (each buffer counted once)");
    let all = &t.all;
    let _ = writeln!(
        s,
        "  total {}: {}, unpadded {}, padding {}{}",
        human(all.bytes),
        buffers(all.buffers),
        human(all.unpadded_bytes),
        human(all.extra_bytes()),
        utilization(all.unpadded_bytes, all.bytes)
            .map(|u| format!(" ({u} utilization)"))
            .unwrap_or_default()
    );
    let _ = writeln!(s, "  by category:");
    for c in Category::ALL {
        let sum = t.category(c);
        let name = if c == Category::Temporary {
            "HLO temp"
        } else {
            c.name()
        };
        row(s, name, sum);
    }
    if t.shared_with_arguments.buffers > 0 {
        let _ = writeln!(
            s,
            "    outputs share {} with arguments (input_output_alias; counted as arguments)",
            human(t.shared_with_arguments.bytes)
        );
    }
    let _ = writeln!(s, "  by memory space:");
    for (space, sum) in &t.by_memory_space {
        row(s, &format!("{} S({space})", memory_space_name(*space)), sum);
    }
    let _ = writeln!(s, "  by element type:");
    for (ty, sum) in &t.by_element_type {
        let name = ty.map_or("tuple tables", |t| t.name());
        row(s, name, sum);
    }
    if t.in_place.buffers > 0 {
        let _ = writeln!(
            s,
            "  {}",
            style::out(
                DIM,
                &format!(
                    "{} of it in {} in-place results (dynamic-update-slice, \
                     output_to_operand_aliasing) that XLA usually writes into an operand",
                    human(t.in_place.bytes),
                    t.in_place.buffers
                )
            )
        );
    }
    if t.dynamic_buffers > 0 {
        let _ = writeln!(
            s,
            "  {}",
            style::out(
                WARNING,
                &format!(
                    "{} buffers with `?` dimensions have no static size (not counted)",
                    t.dynamic_buffers
                )
            )
        );
    }
}

/// The most bytes live at once per memory space, and where.
fn peaks(s: &mut String, v: &View<'_, '_, '_>) {
    let order = if v.module.is_scheduled() {
        "the schedule"
    } else {
        "text order"
    };
    let _ = writeln!(
        s,
        "  peak of temporaries and outputs live at once ({order}; the sums above assume no reuse):"
    );
    if v.peaks().is_empty() {
        let _ = writeln!(s, "    none");
    }
    for (space, p) in v.peaks() {
        let c = &v.module.computations()[p.computation];
        let _ = writeln!(
            s,
            "    {:<16} {:>11}  at {} in {}",
            format!("{} S({space})", memory_space_name(*space)),
            human(p.bytes),
            c.instructions[p.instruction].name,
            c.name
        );
    }
}

/// `1 buffer`, `2 buffers`.
fn buffers(n: u64) -> String {
    if n == 1 {
        "1 buffer".to_string()
    } else {
        format!("{n} buffers")
    }
}

/// One shape's size line: `64.00M (unpadded 61.25M, 1.0x)` or why it has none.
fn shape_size(shape: &Shape) -> String {
    match memory::shape_bytes(shape) {
        Some((unpadded, bytes)) => sizes(&Sum {
            buffers: 1,
            unpadded_bytes: unpadded,
            bytes,
        }),
        None => "no static size (`?` dimension)".to_string(),
    }
}

fn entry(s: &mut String, v: &View<'_, '_, '_>) {
    let e = v.module.entry();
    heading(s, &format!("Entry computation {}", e.name));
    let params = entry_parameters(v.module);
    let _ = writeln!(s, "  parameters ({}):", params.len());
    for p in params {
        let shape = memory::entry_parameter_shape(v.module, p);
        let _ = writeln!(
            s,
            "    {:>3} {}: {}  {}",
            p.parameter_number.unwrap_or(0),
            p.name,
            style::out(SHAPE, &shape.to_string()),
            shape_size(shape)
        );
    }
    let result = memory::entry_result_shape(v.module);
    let outputs = leaves(result);
    let _ = writeln!(s, "  outputs ({}), root {}:", outputs.len(), e.root().name);
    for (index, leaf) in outputs {
        let idx = format!(
            "{{{}}}",
            index
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        );
        let size = match leaf.array() {
            Some(a) => shape_size(&Shape::Array(a.clone())),
            None => "0B".to_string(),
        };
        let _ = writeln!(
            s,
            "    {idx:>5} {}  {size}",
            style::out(SHAPE, &leaf.to_string())
        );
    }
}

fn computations(s: &mut String, v: &View<'_, '_, '_>) {
    heading(s, "Computations");
    for ci in v.computations() {
        let c = &v.module.computations()[ci];
        let m = &v.memory.computations[ci];
        let role = match m.caller {
            Some(caller) => format!("{}, called by {caller}", m.role.name()),
            None => m.role.name().to_string(),
        };
        let _ = writeln!(
            s,
            "  {} ({role}): {} instructions",
            style::out(HEADING, c.name),
            m.instructions
        );
        if !m.owns_buffers {
            let _ = writeln!(
                s,
                "    {}",
                style::out(DIM, "no buffers of its own (its caller owns the result)")
            );
            continue;
        }
        let t = &m.totals;
        let mut parts: Vec<String> = t
            .by_memory_space
            .iter()
            .map(|(space, sum)| format!("{} {}", memory_space_name(*space), human(sum.bytes)))
            .collect();
        parts.extend(t.by_element_type.iter().map(|(ty, sum)| {
            format!(
                "{} {}",
                ty.map_or("tuple tables", |t| t.name()),
                human(sum.bytes)
            )
        }));
        let _ = writeln!(
            s,
            "    {}, {}{}",
            buffers(t.all.buffers),
            sizes(&t.all),
            if parts.is_empty() {
                String::new()
            } else {
                format!("; {}", parts.join(", "))
            }
        );
    }
}

/// `Allocation type` of a buffer.
fn allocation_type(b: &Buffer<'_, '_>) -> &'static str {
    match b.category {
        Category::Argument => "argument",
        Category::Constant => "constant",
        Category::Output => "output",
        Category::Temporary => "HLO temp",
    }
}

fn padding(s: &mut String, v: &View<'_, '_, '_>) {
    let top = v.memory.largest_padding(v.top, v.computation);
    let t = v.totals();
    heading(
        s,
        &format!(
            "Largest padding (top {} by extra bytes)",
            top.len().min(v.top)
        ),
    );
    if top.is_empty() {
        let _ = writeln!(s, "  no buffer is padded");
    }
    for (n, b) in top.iter().enumerate() {
        let Some(p) = &b.padding else { continue };
        let shape = match b.contents {
            memory::Contents::Array(a) => a.to_string(),
            memory::Contents::TupleTable { arity } => format!("tuple table of {arity}"),
        };
        let x = expansion(u128::from(p.unpadded_bytes), u128::from(p.bytes)).unwrap_or_default();
        let heavy = p.expansion().is_some_and(|e| e >= HEAVY_EXPANSION);
        let extra = format!(
            "Extra memory due to padding: {} ({x} expansion)",
            human(u128::from(p.extra_bytes()))
        );
        let computation = &v.module.computations()[b.computation];
        let index = if b.index.is_empty() {
            String::new()
        } else {
            format!(
                " at {{{}}}",
                b.index
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            )
        };
        let _ = writeln!(s);
        let _ = writeln!(s, "  {}. Size: {}", n + 1, human(u128::from(p.bytes)));
        let _ = writeln!(s, "     Shape: {}", style::out(SHAPE, &shape));
        let _ = writeln!(
            s,
            "     Unpadded size: {}",
            human(u128::from(p.unpadded_bytes))
        );
        if heavy {
            let _ = writeln!(s, "     {}", style::out(WARNING, &extra));
        } else {
            let _ = writeln!(s, "     {extra}");
        }
        for cause in &p.causes {
            let _ = writeln!(s, "     Padding: {cause}");
        }
        let _ = writeln!(s, "     XLA label: {}", label(computation, b.instruction));
        let _ = writeln!(s, "     Computation: {}{index}", computation.name);
        let _ = writeln!(s, "     Allocation type: {}", allocation_type(b));
        let _ = writeln!(s, "     ==========================");
    }
    let padded = v
        .memory
        .buffers
        .iter()
        .filter(|b| b.is_counted() && b.extra_bytes() > 0)
        .filter(|b| v.computation.is_none_or(|c| b.computation == c))
        .count();
    let _ = writeln!(
        s,
        "\n  Total: {} extra memory due to padding in {padded} of {}: \
         unpadded {}, padded {}{}",
        human(t.all.extra_bytes()),
        buffers(t.all.buffers),
        human(t.all.unpadded_bytes),
        human(t.all.bytes),
        expansion(t.all.unpadded_bytes, t.all.bytes)
            .map(|x| format!(" ({x} expansion)"))
            .unwrap_or_default()
    );
}
