//! `xla-layout explain`: where every element of an array lives, for people learning layouts.

use std::fmt::Write as _;
use std::io::Write;
use std::process::ExitCode;

use serde_json::{Value, json};
use xla_layout_core::{ArrayShape, Dim, Errors, Plan, parse_array};

use crate::emit;

/// The seed document's TPU activation, explained when no shape is given.
pub(crate) const DEFAULT_SHAPE: &str = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";

/// Arrays up to this many elements get a grid of offsets and their memory order.
const GRID_LIMIT: usize = 4096;
/// `--json` lists every offset for arrays up to this many elements.
const JSON_OFFSETS_LIMIT: usize = 65536;
/// The memory order lists at most this many slots.
const MEMORY_ORDER_SLOTS: usize = 64;
/// Padding above this factor (physical / logical elements) is flagged.
const WASTE_WARNING_FACTOR: f64 = 2.0;

/// Explains one shape; exit status 1 when it is invalid.
pub(crate) fn run(input: &str, json: bool, out: &mut dyn Write, err: &mut dyn Write) -> ExitCode {
    let array = match parse_array(input) {
        Ok(a) => a,
        Err(errors) => {
            let _ = write!(err, "{}", errors.render(input, "<input>"));
            return ExitCode::FAILURE;
        }
    };
    let plan = Plan::new(&array);
    if json {
        emit(out, &to_json(&array, plan.as_ref()).to_string());
    } else {
        let _ = out.write_all(human(&array, plan.as_ref()).as_bytes());
    }
    ExitCode::SUCCESS
}

/// The name of a memory space (spec §11).
fn memory_space_name(s: i64) -> String {
    match s {
        0 => "device memory (HBM)".into(),
        1 => "fast memory (VMEM on TPU; alternate memory)".into(),
        5 => "pinned host memory".into(),
        6 => "unpinned host memory".into(),
        n => format!("device-specific memory space {n}"),
    }
}

fn list(v: &[usize]) -> String {
    let items: Vec<String> = v.iter().map(usize::to_string).collect();
    format!("[{}]", items.join(","))
}

fn unravel(mut linear: usize, dims: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; dims.len()];
    for k in (0..dims.len()).rev() {
        idx[k] = linear % dims[k];
        linear /= dims[k];
    }
    idx
}

/// Why a valid array has no plan (an unbounded `?` dimension, a tiling too wide), in words.
fn no_plan(errors: &Errors) -> String {
    let messages: Vec<&str> = errors.iter().map(|e| e.message()).collect();
    messages.join("; ")
}

fn to_json(a: &ArrayShape, plan: Result<&Plan, &Errors>) -> Value {
    let dims: Vec<Value> = a.dims.iter().map(|d| json!(d.extent())).collect();
    let dims_text: Vec<String> = a.dims.iter().map(Dim::to_string).collect();
    let bits = match a.layout.element_size_in_bits {
        e if e > 0 => e as u64,
        _ => u64::from(a.element_type.storage_bits()),
    };
    let mut v = json!({
        "canonical": a.to_string(),
        "element_type": a.element_type.name(),
        "dims": dims,
        "dims_text": dims_text,
        "minor_to_major": a.layout.minor_to_major,
        "tiles": a.layout.tiles.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "element_bits": bits,
        "memory_space": a.layout.memory_space,
        "memory_space_name": memory_space_name(a.layout.memory_space),
    });
    match plan {
        Ok(p) => {
            v["elements"] = json!(p.elements());
            v["physical_elements"] = json!(p.physical_elements());
            v["size_bytes"] = json!(p.size_bytes());
            v["expanded_dims"] = json!(p.expanded_dims());
            v["tiling_stages"] = json!(p.tiling_stages());
            v["offset_expr"] = json!(p.offset_expr().to_string());
            if p.elements() <= JSON_OFFSETS_LIMIT {
                v["offsets"] = json!(p.logical_offsets().collect::<Vec<_>>());
            }
        }
        Err(errors) => {
            v["elements"] = Value::Null;
            v["physical_elements"] = Value::Null;
            v["size_bytes"] = Value::Null;
            v["note"] = json!(no_plan(errors));
        }
    }
    v
}

/// The letter XLA's documents give a dimension (ranks 2-4), or `-`.
fn letter(rank: usize, d: usize) -> char {
    xla_layout_core::shape_util::dimension_letter(rank, d).unwrap_or('-')
}

fn human(a: &ArrayShape, plan: Result<&Plan, &Errors>) -> String {
    let mut s = String::new();
    let l = &a.layout;
    let rank = a.dims.len();
    let _ = writeln!(s, "{a}\n");
    let t = a.element_type;
    let _ = writeln!(
        s,
        "element type   {t} ({} value bits, {} byte(s) per element by default)",
        t.bit_width(),
        t.byte_width()
    );
    if l.element_size_in_bits > 0 {
        let _ = writeln!(
            s,
            "element size   E({}): {} bits per element, packed least-significant bits first",
            l.element_size_in_bits, l.element_size_in_bits
        );
    }
    let _ = writeln!(
        s,
        "memory space   S({}): {}",
        l.memory_space,
        memory_space_name(l.memory_space)
    );

    let _ = writeln!(s, "\ndimensions (physical position 0 is the most major)");
    let _ = writeln!(s, "  dim  size        letter  physical position");
    let physical_of = |d: usize| {
        rank - 1
            - l.minor_to_major
                .iter()
                .position(|&m| m as usize == d)
                .unwrap_or(0)
    };
    for (d, dim) in a.dims.iter().enumerate() {
        let _ = writeln!(
            s,
            "  {d:<4} {:<11} {:<7} {}",
            dim.to_string(),
            letter(rank, d),
            physical_of(d)
        );
    }
    let p = match plan {
        Ok(p) => p,
        Err(errors) => {
            let _ = writeln!(s, "\nNo sizes or offsets: {}", no_plan(errors));
            return s;
        }
    };

    let stages: Vec<String> = p.tiling_stages().iter().map(|st| list(st)).collect();
    let _ = writeln!(
        s,
        "\ntiling (physical shape, major to minor, before and after each tile)"
    );
    if l.tiles.is_empty() {
        let _ = writeln!(s, "  {} (no tiles)", stages[0]);
    } else {
        let tiles: String = l.tiles.iter().map(ToString::to_string).collect();
        let _ = writeln!(s, "  T{tiles}: {}", stages.join(" -> "));
    }

    let _ = writeln!(s, "\noffset of element (i0, i1, ...) in elements");
    let _ = writeln!(s, "  {}", p.offset_expr());
    if p.prefix_bytes() > 0 || p.element_bits() % 8 != 0 {
        let _ = writeln!(
            s,
            "  bit position = 8*{} + offset*{}",
            p.prefix_bytes(),
            p.element_bits()
        );
    }

    let (logical, physical) = (p.elements(), p.physical_elements());
    let logical_bytes = (logical * p.element_bits()).div_ceil(8);
    let _ = writeln!(s, "\nsize");
    let _ = writeln!(s, "  logical    {logical} elements, {logical_bytes} bytes");
    let _ = writeln!(
        s,
        "  physical   {physical} element slots, {} bytes{}",
        p.size_bytes(),
        if p.prefix_bytes() > 0 {
            format!(" (including a {}-byte metadata prefix)", p.prefix_bytes())
        } else {
            String::new()
        }
    );
    let waste = physical - logical;
    let percent = if physical == 0 {
        0.0
    } else {
        100.0 * waste as f64 / physical as f64
    };
    let _ = writeln!(s, "  padding    {waste} slots ({percent:.1}% of memory)");
    if logical > 0 && physical as f64 > WASTE_WARNING_FACTOR * logical as f64 {
        let _ = writeln!(
            s,
            "\n  WARNING: this layout pads {:.1}x: {physical} slots hold {logical} elements. \
             Consider a tile that divides the dims, or another minor_to_major.",
            physical as f64 / logical as f64
        );
    }

    if logical <= GRID_LIMIT && logical > 0 {
        grid(&mut s, p);
        memory_order(&mut s, p);
    }
    s
}

/// Offsets of every element, as 2-D slices (rows = second-to-last dim).
fn grid(s: &mut String, p: &Plan) {
    let dims = p.dims();
    let offsets: Vec<usize> = p.logical_offsets().collect();
    let width = offsets.iter().max().map_or(1, |m| m.to_string().len());
    let _ = writeln!(
        s,
        "\noffsets (row-major over the logical index, last dim across)"
    );
    let cols = dims.last().copied().unwrap_or(1);
    let rows = if dims.len() >= 2 {
        dims[dims.len() - 2]
    } else {
        1
    };
    let per_slice = rows * cols;
    for (slice, chunk) in offsets.chunks(per_slice.max(1)).enumerate() {
        if dims.len() > 2 {
            let lead = unravel(slice, &dims[..dims.len() - 2]);
            let lead: Vec<String> = lead.iter().map(usize::to_string).collect();
            let _ = writeln!(s, "  [{}, :, :]", lead.join(", "));
        }
        for row in chunk.chunks(cols.max(1)) {
            let cells: Vec<String> = row.iter().map(|o| format!("{o:>width$}")).collect();
            let _ = writeln!(s, "    {}", cells.join(" "));
        }
    }
}

/// The memory image: letters for up to 26 elements (like the seed document's `a d b e c f`),
/// else logical indices; `.` marks padding.
fn memory_order(s: &mut String, p: &Plan) {
    let dims = p.dims();
    let mut image: Vec<Option<usize>> = vec![None; p.physical_elements()];
    for (offset, logical) in p.memory_order() {
        image[offset] = Some(logical);
    }
    let _ = writeln!(s, "\nmemory order ('.' is padding)");
    let letters = p.elements() <= 26;
    let name = |l: usize| {
        if letters {
            char::from(b'a' + l as u8).to_string()
        } else {
            tuple(&unravel(l, dims))
        }
    };
    let shown = image.len().min(MEMORY_ORDER_SLOTS);
    let cells: Vec<String> = image[..shown]
        .iter()
        .map(|l| l.map_or(".".into(), name))
        .collect();
    let more = if image.len() > shown {
        format!(" ... ({} more slots)", image.len() - shown)
    } else {
        String::new()
    };
    let _ = writeln!(s, "  {}{more}", cells.join(" "));
    if letters {
        let legend: Vec<String> = (0..p.elements())
            .map(|l| format!("{}={}", name(l), tuple(&unravel(l, dims))))
            .collect();
        let _ = writeln!(s, "  where {}", legend.join(" "));
    }
}

fn tuple(idx: &[usize]) -> String {
    let items: Vec<String> = idx.iter().map(usize::to_string).collect();
    format!("({})", items.join(","))
}
