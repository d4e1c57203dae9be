//! `explain --svg`: the layout as a picture, in the spirit of CuTe's `print_svg`.
//!
//! Top: a window of the logical grid (the last two dims of one slice), each cell filled with
//! its tile's colour and labelled with its offset. Below: the first memory slots in order,
//! one row per tile (or per 32 slots when tiles are larger), each labelled with the logical
//! index it holds and filled like its cell; padding slots are hatched grey. A legend gives
//! the tiling steps, the closed-form offset and the sizes. Everything is bounded: at most
//! [`ROWS`] x [`COLS`] cells and [`SLOT_ROWS`] x [`SLOT_COLS`] slots.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use xla_layout_core::{ArrayShape, Plan};

use super::Leaf;
use super::closed_form;
use super::geometry::{
    Sizes, Window, bytes_text, first_slices, first_slots, tile_elements, tile_of,
};
use super::text::path_text;

/// Grid rows and columns drawn at most.
const ROWS: usize = 16;
const COLS: usize = 16;
/// Memory rows drawn at most, and slots per row at most.
const SLOT_ROWS: usize = 16;
const SLOT_COLS: usize = 32;
const CELL_H: usize = 24;
const MARGIN: usize = 16;
const LINE: usize = 18;
/// Width of one monospace character at the font size used, in pixels (approximately).
const CHAR_W: usize = 7;
/// The fill of padding slots.
pub(crate) const PADDING_FILL: &str = "url(#hatch)";

/// `text` with XML's special characters escaped.
fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Colours by tile, distinct in order of first appearance (golden-angle hues).
#[derive(Default)]
struct Palette(BTreeMap<u128, usize>);

/// Well-separated fills for the first tiles (a qualitative palette with no grey).
const FILLS: [&str; 11] = [
    "#fb8072", "#8dd3c7", "#bebada", "#fdb462", "#80b1d3", "#b3de69", "#fccde5", "#ffffb3",
    "#bc80bd", "#ccebc5", "#ffed6f",
];

impl Palette {
    fn fill(&mut self, tile: u128) -> String {
        let next = self.0.len();
        let k = *self.0.entry(tile).or_insert(next);
        match FILLS.get(k) {
            Some(f) => (*f).to_string(),
            None => format!("hsl({:.1},65%,78%)", (k as f64 * 137.508) % 360.0),
        }
    }
}

/// The picture of the first array leaf that has a plan (or a note saying there is none).
pub(crate) fn draw(leaves: &[(Vec<usize>, Leaf<'_>)], slice: Option<&[usize]>) -> String {
    let found = leaves.iter().find_map(|(path, leaf)| {
        let a = leaf.array()?;
        Plan::new(a).ok().map(|p| (path, a, p))
    });
    match found {
        Some((path, a, p)) => {
            let which = (leaves.len() > 1 || !path.is_empty())
                .then(|| format!("tuple element {}: ", path_text(path)));
            picture(a, &p, slice, which.as_deref().unwrap_or(""))
        }
        None => {
            let mut s = header(480, 3 * LINE);
            let _ = writeln!(
                s,
                r#"<text class="caption" x="{MARGIN}" y="{LINE}">no array with fixed offsets to draw</text>"#
            );
            s.push_str("</svg>\n");
            s
        }
    }
}

fn header(width: usize, height: usize) -> String {
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace" font-size="11">
<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#e0e0e0"/><line x1="0" y1="0" x2="0" y2="6" stroke="#9e9e9e" stroke-width="2"/></pattern></defs>
<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>
"##
    )
}

fn picture(a: &ArrayShape, p: &Plan, slice: Option<&[usize]>, which: &str) -> String {
    let lead = slice
        .map(<[usize]>::to_vec)
        .or_else(|| first_slices(p, 1).into_iter().next())
        .unwrap_or_default();
    let w = Window::new(a, p, lead, ROWS, COLS);
    let empty = Sizes::of(p).elements == 0;
    let offsets = if empty { Vec::new() } else { w.offsets(p) };
    let tile = tile_elements(a);
    let rank = p.dims().len();

    // Memory rows: one per tile when a tile fits a row, else rows of SLOT_COLS slots.
    let per_row = match tile {
        Some(t) if (1..=SLOT_COLS as u128).contains(&t) => t as usize,
        _ => SLOT_COLS,
    };
    let slots = first_slots(p, per_row * SLOT_ROWS);

    let mut captions = vec![format!("{which}{a}")];
    captions.push(match (w.row_dim, w.col_dim) {
        (Some(r), Some(c)) => format!(
            "logical grid{}: rows i{r} 0..{} of {}, columns i{c} 0..{} of {}",
            if rank > 2 {
                format!(" of slice {} (the last two dims)", w.slice_text())
            } else {
                String::new()
            },
            w.rows,
            w.total_rows,
            w.cols,
            w.total_cols
        ),
        (None, Some(c)) => format!("logical grid: i{c} 0..{} of {}", w.cols, w.total_cols),
        _ => "logical grid: one element".to_string(),
    });
    captions.push("each cell: its offset in elements; fill: its tile".to_string());

    let widest_label = offsets
        .iter()
        .flatten()
        .map(|o| o.to_string().len())
        .chain(slots.iter().flatten().map(|i| index_label(i).len()))
        .max()
        .unwrap_or(1);
    let cell_w = (widest_label * CHAR_W + 10).max(28);
    let row_label_w = (p.physical_elements().to_string().len() * CHAR_W + 12).max(48);
    let x0 = MARGIN + row_label_w;

    let mut legend = Vec::new();
    let stages: Vec<String> = p
        .tiling_stages()
        .iter()
        .map(|st| {
            let items: Vec<String> = st.iter().map(usize::to_string).collect();
            format!("[{}]", items.join(","))
        })
        .collect();
    if a.layout.tiles.is_empty() {
        legend.push(format!("no tiles: physical shape {}", stages[0]));
    } else {
        let tiles: String = a.layout.tiles.iter().map(ToString::to_string).collect();
        legend.push(format!("tiling T{tiles}: {}", stages.join(" -> ")));
        if let Some(t) = tile {
            legend.push(format!(
                "one tile = {t} consecutive slots; colour = tile number = offset / {t}"
            ));
        }
    }
    legend.push(format!("offset = {}", closed_form(a, p)));
    let sizes = Sizes::of(p);
    legend.push(format!(
        "{} elements in {} slots ({} padding), {} bytes",
        sizes.elements,
        sizes.physical_elements,
        sizes.padding_elements(),
        bytes_text(sizes.physical_bytes)
    ));

    // Vertical layout.
    let grid_top = MARGIN + captions.len() * LINE + LINE;
    let grid_rows = if empty { 0 } else { w.rows };
    let grid_bottom = grid_top + grid_rows * CELL_H + LINE;
    let mem_title = grid_bottom + LINE;
    let mem_top = mem_title + LINE;
    let mem_rows = slots.len().div_ceil(per_row);
    let mem_bottom = mem_top + mem_rows * CELL_H + LINE;
    let legend_top = mem_bottom + LINE;
    let height = legend_top + (legend.len() + 1) * LINE + MARGIN;
    let row_note = match tile {
        Some(t) if t as usize == per_row && t > 0 => "one row per tile".to_string(),
        Some(t) => format!("{per_row} slots per row (a tile is {t})"),
        None => format!("{per_row} slots per row"),
    };
    let mem_caption = format!(
        "memory order: each slot holds the logical index shown; {row_note}; hatched: padding"
    );
    let text_w = captions
        .iter()
        .chain(&legend)
        .chain([&mem_caption])
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        * CHAR_W;
    let width = (x0 + w.cols.max(per_row) * cell_w + 160)
        .max(text_w + 2 * MARGIN)
        .max(480);

    let mut s = header(width, height);
    for (k, c) in captions.iter().enumerate() {
        let _ = writeln!(
            s,
            r#"<text class="caption" x="{MARGIN}" y="{}">{}</text>"#,
            MARGIN + (k + 1) * LINE - 4,
            esc(c)
        );
    }

    let mut palette = Palette::default();
    // Column headers and row labels.
    let corner = match (w.row_dim, w.col_dim) {
        (Some(r), Some(c)) => format!("i{r}\\i{c}"),
        (None, Some(c)) => format!("i{c}"),
        _ => String::new(),
    };
    if !empty {
        let _ = writeln!(
            s,
            r#"<text class="axis-name" x="{}" y="{}" text-anchor="end">{corner}</text>"#,
            x0 - 6,
            grid_top - 6
        );
    }
    if w.col_dim.is_some() && !empty {
        for c in 0..w.cols {
            let _ = writeln!(
                s,
                r#"<text class="axis" x="{}" y="{}" text-anchor="middle">{c}</text>"#,
                x0 + c * cell_w + cell_w / 2,
                grid_top - 6
            );
        }
    }
    for (r, row) in offsets.iter().enumerate() {
        let y = grid_top + r * CELL_H;
        if w.row_dim.is_some() {
            let _ = writeln!(
                s,
                r#"<text class="axis" x="{}" y="{}" text-anchor="end">{r}</text>"#,
                x0 - 6,
                y + CELL_H / 2 + 4
            );
        }
        for (c, &o) in row.iter().enumerate() {
            let t = tile_of(o, tile);
            let fill = palette.fill(t);
            let x = x0 + c * cell_w;
            let index: Vec<String> = w.index(r, c).iter().map(usize::to_string).collect();
            let _ = writeln!(
                s,
                r##"<g data-index="{}" data-offset="{o}" data-tile="{t}"><rect class="cell" x="{x}" y="{y}" width="{cell_w}" height="{CELL_H}" fill="{fill}" stroke="#555"/><text class="offset" x="{}" y="{}" text-anchor="middle">{o}</text></g>"##,
                index.join(","),
                x + cell_w / 2,
                y + CELL_H / 2 + 4
            );
        }
    }
    let mut notes = Vec::new();
    if w.total_cols > w.cols {
        notes.push(format!("... {} more columns", w.total_cols - w.cols));
    }
    if w.total_rows > w.rows {
        notes.push(format!("... {} more rows", w.total_rows - w.rows));
    }
    if !notes.is_empty() {
        let _ = writeln!(
            s,
            r#"<text class="more" x="{x0}" y="{}">{}</text>"#,
            grid_top + grid_rows * CELL_H + 14,
            notes.join(", ")
        );
    }

    // Memory order.
    let _ = writeln!(
        s,
        r#"<text class="caption" x="{MARGIN}" y="{mem_title}">{}</text>"#,
        esc(&mem_caption)
    );
    for (k, slot) in slots.iter().enumerate() {
        let (r, c) = (k / per_row, k % per_row);
        let (x, y) = (x0 + c * cell_w, mem_top + r * CELL_H);
        if c == 0 {
            let _ = writeln!(
                s,
                r#"<text class="axis" x="{}" y="{}" text-anchor="end">{k}</text>"#,
                x0 - 6,
                y + CELL_H / 2 + 4
            );
        }
        match slot {
            Some(index) => {
                let fill = palette.fill(tile_of(k, tile));
                let _ = writeln!(
                    s,
                    r##"<g data-offset="{k}"><rect class="slot" x="{x}" y="{y}" width="{cell_w}" height="{CELL_H}" fill="{fill}" stroke="#555"/><text class="index" x="{}" y="{}" text-anchor="middle">{}</text></g>"##,
                    x + cell_w / 2,
                    y + CELL_H / 2 + 4,
                    index_label(index)
                );
            }
            None => {
                let _ = writeln!(
                    s,
                    r##"<rect class="pad" data-offset="{k}" x="{x}" y="{y}" width="{cell_w}" height="{CELL_H}" fill="{PADDING_FILL}" stroke="#999"/>"##
                );
            }
        }
    }
    let more_slots = p.physical_elements() - slots.len();
    if more_slots > 0 {
        let _ = writeln!(
            s,
            r#"<text class="more" x="{x0}" y="{}">... {more_slots} more slots</text>"#,
            mem_top + mem_rows * CELL_H + 14
        );
    }

    for (k, l) in legend.iter().enumerate() {
        let _ = writeln!(
            s,
            r#"<text class="legend" x="{MARGIN}" y="{}">{}</text>"#,
            legend_top + k * LINE,
            esc(l)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// `2,3`: a logical index as a slot label.
fn index_label(index: &[usize]) -> String {
    let items: Vec<String> = index.iter().map(usize::to_string).collect();
    items.join(",")
}
