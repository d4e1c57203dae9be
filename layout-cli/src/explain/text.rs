//! `explain`'s human-readable text: dims, tiling steps, the offset in closed form, sizes,
//! a bounded grid of offsets with axis headers and the first memory slots.

use std::fmt::Write as _;

use xla_layout_core::{ArrayShape, Dim, Errors, Plan};

use super::geometry::{
    Sizes, Window, bytes_text, first_slices, first_slots, index_text, linear, slice_count,
};
use super::{Leaf, closed_form, memory_space_name, no_plan};
use crate::style::{self, DIM, HEADING, SHAPE, WARNING};

/// Rows and columns of a grid drawn at most.
const GRID_ROWS: usize = 16;
const GRID_COLS: usize = 16;
/// 2-D slices drawn at most (without `--slice`).
const GRID_SLICES: usize = 2;
/// Memory slots listed at most.
const MEMORY_SLOTS: usize = 64;
/// Tuple elements explained in full; the next ones get one line each, up to [`TUPLE_LINES`].
const TUPLE_DETAILS: usize = 16;
const TUPLE_LINES: usize = 256;
/// Padding above this factor (physical / logical elements) is flagged.
const WASTE_WARNING_FACTOR: f64 = 2.0;

/// A heading line.
fn heading(s: &mut String, text: &str) {
    let _ = writeln!(s, "\n{}", style::out(HEADING, text));
}

/// The text for a whole shape: an array, or each leaf of a tuple with its index path.
pub(crate) fn shape(
    s: &mut String,
    canonical: &str,
    leaves: &[(Vec<usize>, Leaf<'_>)],
    slice: Option<&[usize]>,
) {
    let _ = writeln!(s, "{}", style::out(SHAPE, canonical));
    if let [(path, leaf)] = leaves
        && path.is_empty()
    {
        return leaf_details(s, leaf, slice);
    }
    let total: Option<u128> = leaves
        .iter()
        .try_fold(0u128, |acc, (_, l)| Some(acc.saturating_add(l.bytes()?)));
    let _ = writeln!(
        s,
        "\na tuple with {} leaves; {}",
        leaves.len(),
        match total {
            Some(b) => format!(
                "{} bytes in all (the leaves' buffers added up)",
                bytes_text(b)
            ),
            None => "no total size (a leaf has no fixed size)".to_string(),
        }
    );
    for (path, leaf) in leaves.iter().take(TUPLE_DETAILS) {
        let _ = writeln!(
            s,
            "\n{} {}",
            style::out(HEADING, &format!("── element {} ──", path_text(path))),
            style::out(SHAPE, &leaf.to_string())
        );
        leaf_details(s, leaf, slice);
    }
    if leaves.len() > TUPLE_DETAILS {
        heading(s, "further elements (index, shape, bytes)");
        for (path, leaf) in leaves.iter().skip(TUPLE_DETAILS).take(TUPLE_LINES) {
            let bytes = leaf.bytes().map_or("-".to_string(), bytes_text);
            let _ = writeln!(s, "  {:<12} {leaf}  {bytes}", path_text(path));
        }
        let rest = leaves.len().saturating_sub(TUPLE_DETAILS + TUPLE_LINES);
        if rest > 0 {
            let _ = writeln!(
                s,
                "  {}",
                style::out(DIM, &format!("... {rest} more elements"))
            );
        }
    }
}

/// `{1,0}`: XLA's spelling of a shape index.
pub(crate) fn path_text(path: &[usize]) -> String {
    let items: Vec<String> = path.iter().map(usize::to_string).collect();
    format!("{{{}}}", items.join(","))
}

fn leaf_details(s: &mut String, leaf: &Leaf<'_>, slice: Option<&[usize]>) {
    match leaf {
        Leaf::Array(a) => array(s, a, Plan::new(a).as_ref(), slice),
        Leaf::Buffer(a) => {
            let _ = writeln!(s, "\na buffer `b(...)` holding the array {a}");
            array(s, a, Plan::new(a).as_ref(), slice);
        }
        Leaf::Token => {
            let _ = writeln!(s, "\na token: orders side effects, holds no data");
        }
        Leaf::Opaque => {
            let _ = writeln!(s, "\nan opaque value: backend data with no layout");
        }
    }
}

/// The letter XLA's documents give a dimension (ranks 2-4), or `-`.
fn letter(rank: usize, d: usize) -> char {
    xla_layout_core::shape_util::dimension_letter(rank, d).unwrap_or('-')
}

fn list(v: &[usize]) -> String {
    let items: Vec<String> = v.iter().map(usize::to_string).collect();
    format!("[{}]", items.join(","))
}

/// Everything about one array after its canonical text.
fn array(s: &mut String, a: &ArrayShape, plan: Result<&Plan, &Errors>, slice: Option<&[usize]>) {
    let l = &a.layout;
    let rank = a.dims.len();
    let t = a.element_type;
    let _ = writeln!(
        s,
        "\nelement type   {t} ({} value bits, {} byte(s) per element by default)",
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

    heading(s, "dimensions (physical position 0 is the most major)");
    let size_w = a
        .dims
        .iter()
        .map(|d| d.to_string().len())
        .max()
        .unwrap_or(0)
        .max(11);
    let _ = writeln!(s, "  dim  {:<size_w$} letter  physical position", "size");
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
            "  {d:<4} {:<size_w$} {:<7} {}",
            Dim::to_string(dim),
            letter(rank, d),
            physical_of(d)
        );
    }
    let p = match plan {
        Ok(p) => p,
        Err(errors) => {
            let _ = writeln!(s, "\nNo sizes or offsets: {}", no_plan(errors));
            return;
        }
    };

    let stages: Vec<String> = p.tiling_stages().iter().map(|st| list(st)).collect();
    heading(
        s,
        "tiling (physical shape, major to minor, before and after each tile)",
    );
    if l.tiles.is_empty() {
        let _ = writeln!(s, "  {} (no tiles)", stages[0]);
    } else {
        let tiles: String = l.tiles.iter().map(ToString::to_string).collect();
        let _ = writeln!(s, "  T{tiles}: {}", stages.join(" -> "));
    }

    heading(s, "offset of element (i0, i1, ...) in elements");
    let _ = writeln!(s, "  {}", closed_form(a, p));
    if p.prefix_bytes() > 0 || p.element_bits() % 8 != 0 {
        let _ = writeln!(
            s,
            "  bit position = 8*{} + offset*{}",
            p.prefix_bytes(),
            p.element_bits()
        );
    }

    let sizes = Sizes::of(p);
    let (logical, physical) = (sizes.elements, sizes.physical_elements);
    heading(s, "size");
    let _ = writeln!(
        s,
        "  logical    {logical} elements, {} bytes",
        bytes_text(sizes.logical_bytes)
    );
    let _ = writeln!(
        s,
        "  physical   {physical} element slots, {} bytes{}",
        bytes_text(sizes.physical_bytes),
        if p.prefix_bytes() > 0 {
            format!(" (including a {}-byte metadata prefix)", p.prefix_bytes())
        } else {
            String::new()
        }
    );
    let waste = sizes.padding_elements();
    let percent = if physical == 0 {
        0.0
    } else {
        100.0 * waste as f64 / physical as f64
    };
    let _ = writeln!(s, "  padding    {waste} slots ({percent:.1}% of memory)");
    if logical > 0 && physical as f64 > WASTE_WARNING_FACTOR * logical as f64 {
        let _ = writeln!(
            s,
            "\n  {} this layout pads {:.1}x: {physical} slots hold {logical} elements. \
             Consider a tile that divides the dims, or another minor_to_major.",
            style::out(WARNING, "WARNING:"),
            physical as f64 / logical as f64
        );
    }
    if logical > 0 {
        grids(s, a, p, slice);
        memory_order(s, p);
    }
}

/// The offsets of a window of each shown slice.
fn grids(s: &mut String, a: &ArrayShape, p: &Plan, slice: Option<&[usize]>) {
    let rank = p.dims().len();
    if rank == 0 {
        heading(s, "offset");
        let _ = writeln!(s, "  the single element is at offset {}", p.offset(&[]));
        return;
    }
    let axes = match rank {
        1 => "i0 across".to_string(),
        r => format!("rows i{}, columns i{}", r - 2, r - 1),
    };
    heading(s, &format!("offsets ({axes})"));
    let slices = match slice {
        Some(lead) => vec![lead.to_vec()],
        None => first_slices(p, GRID_SLICES),
    };
    for lead in &slices {
        let w = Window::new(a, p, lead.clone(), GRID_ROWS, GRID_COLS);
        if rank > 2 {
            let _ = writeln!(s, "  slice {}", w.slice_text());
        }
        grid(s, p, &w);
    }
    let total = slice_count(p);
    if slice.is_none() && total > slices.len() as u128 {
        let _ = writeln!(
            s,
            "  {}",
            style::out(
                DIM,
                &format!(
                    "... {} more slices (pick one with --slice)",
                    total - slices.len() as u128
                )
            )
        );
    }
}

/// One window as a table: column indices across the top, row indices down the left.
fn grid(s: &mut String, p: &Plan, w: &Window) {
    let offsets = w.offsets(p);
    let max_offset = offsets.iter().flatten().max().copied().unwrap_or(0);
    let cell = max_offset
        .to_string()
        .len()
        .max((w.cols - 1).to_string().len());
    let corner = match (w.row_dim, w.col_dim) {
        (Some(r), Some(c)) => format!("i{r}\\i{c}"),
        (None, Some(c)) => format!("i{c}"),
        _ => String::new(),
    };
    let label = corner
        .len()
        .max((w.rows.saturating_sub(1)).to_string().len());
    let more_cols = w.total_cols - w.cols;
    let mut header = format!("  {corner:>label$} ");
    if w.col_dim.is_some() {
        for c in 0..w.cols {
            let _ = write!(header, " {c:>cell$}");
        }
        if more_cols > 0 {
            let _ = write!(header, "  ... {more_cols} more columns");
        }
    }
    let _ = writeln!(s, "{}", style::out(DIM, &header));
    for (r, row) in offsets.iter().enumerate() {
        let row_label = if w.row_dim.is_some() {
            r.to_string()
        } else {
            String::new()
        };
        let _ = write!(s, "  {} ", style::out(DIM, &format!("{row_label:>label$}")));
        for o in row {
            let _ = write!(s, " {o:>cell$}");
        }
        if more_cols > 0 {
            let _ = write!(s, "  ...");
        }
        s.push('\n');
    }
    let more_rows = w.total_rows - w.rows;
    if more_rows > 0 {
        let _ = writeln!(
            s,
            "  {}",
            style::out(DIM, &format!("... {more_rows} more rows"))
        );
    }
}

/// The first memory slots: letters for up to 26 elements (like the seed document's
/// `a d b e c f`), else logical indices; `.` marks padding.
fn memory_order(s: &mut String, p: &Plan) {
    let dims = p.dims();
    let slots = first_slots(p, MEMORY_SLOTS);
    heading(s, "memory order (slot offset at the left; '.' is padding)");
    let elements = Sizes::of(p).elements;
    let letters = elements <= 26;
    let name = |index: &[usize]| {
        if letters {
            char::from(b'a' + linear(index, dims) as u8).to_string()
        } else {
            index_text(index)
        }
    };
    let cells: Vec<String> = slots
        .iter()
        .map(|slot| slot.as_deref().map_or(".".to_string(), name))
        .collect();
    let per_line = if letters { 16 } else { 8 };
    let gutter = slots.len().to_string().len();
    for (k, line) in cells.chunks(per_line).enumerate() {
        let at = style::out(DIM, &format!("{:>gutter$}", k * per_line));
        let _ = writeln!(s, "  {at}  {}", line.join(" "));
    }
    let more = p.physical_elements() - slots.len();
    if more > 0 {
        let _ = writeln!(
            s,
            "  {}",
            style::out(DIM, &format!("... {more} more slots"))
        );
    }
    if letters {
        let mut legend = Vec::new();
        let mut index = vec![0; dims.len()];
        for _ in 0..elements {
            legend.push(format!("{}={}", name(&index), index_text(&index)));
            for k in (0..dims.len()).rev() {
                index[k] += 1;
                if index[k] < dims[k] {
                    break;
                }
                index[k] = 0;
            }
        }
        let _ = writeln!(s, "  where {}", legend.join(" "));
    }
}
