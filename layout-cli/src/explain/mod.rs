//! `xla-layout explain`: where every element of a shape lives, for people learning layouts.
//!
//! Text ([`text`]), JSON ([`json`]) and a picture ([`svg`]) of the same facts
//! ([`geometry`]); every grid and list is bounded, so any valid shape explains in
//! milliseconds whatever its padding or tile sizes.

use std::fmt;
use std::io::Write;
use std::process::ExitCode;

use xla_layout_core::{ArrayShape, Errors, Plan, Shape, TileDim};

use crate::diagnostics;
use crate::input::{self, Input};
use crate::{emit, usage_error};

mod geometry;
mod json;
mod svg;
mod text;

/// The seed document's TPU activation, explained when no shape is given on a terminal.
pub(crate) const DEFAULT_SHAPE: &str = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";

/// Layouts with more `*` (combine) tile dims than this get no closed-form offset: the
/// expression grows with each one (the offsets themselves are still exact).
const MAX_COMBINES_FOR_EXPR: usize = 8;

/// Show where every element of a shape lives: dims, tiling steps, the offset in closed form,
/// sizes and padding, a grid of offsets and the first memory slots.
///
/// Tuples are explained element by element, with their index paths (`{1,0}`). Grids and
/// lists are drawn up to a bound, with "... N more".
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Print one JSON object per shape instead (invalid input gives `check --json`'s error
    /// object, exit status 1).
    #[arg(long)]
    json: bool,

    /// Also draw the layout as an SVG picture into FILE (`-`: the SVG alone on stdout): the
    /// logical grid coloured by tile and labelled with offsets, the memory slots with their
    /// padding, and the tiling steps.
    #[arg(long, value_name = "FILE")]
    svg: Option<String>,

    /// For arrays of rank above 2: the leading indices of the 2-D slice to draw
    /// (e.g. `--slice 0,3`); default: the first slices.
    #[arg(long, value_name = "I,J,...", value_delimiter = ',')]
    slice: Option<Vec<usize>>,

    /// The shape; `-` reads one per line from stdin. Without it, stdin is read, or the
    /// seed example `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}` is explained when stdin
    /// is a terminal.
    #[arg(value_name = "SHAPE")]
    shape: Option<String>,
}

/// One leaf of a shape: what `explain` describes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Leaf<'a> {
    Array(&'a ArrayShape),
    Buffer(&'a ArrayShape),
    Token,
    Opaque,
}

impl Leaf<'_> {
    /// The array, if the leaf holds one.
    pub(crate) fn array(&self) -> Option<&ArrayShape> {
        match self {
            Leaf::Array(a) | Leaf::Buffer(a) => Some(a),
            Leaf::Token | Leaf::Opaque => None,
        }
    }

    /// Bytes in memory (0 for tokens and opaque values), if fixed.
    pub(crate) fn bytes(&self) -> Option<u128> {
        match self.array() {
            Some(a) => Plan::new(a)
                .ok()
                .map(|p| geometry::Sizes::of(&p).physical_bytes),
            None => Some(0),
        }
    }
}

impl fmt::Display for Leaf<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Leaf::Array(a) => write!(f, "{a}"),
            Leaf::Buffer(a) => write!(f, "b({a})"),
            Leaf::Token => f.write_str("token[]"),
            Leaf::Opaque => f.write_str("opaque[]"),
        }
    }
}

/// Every leaf with its index path (`[]` for a shape that is not a tuple), depth first,
/// without recursion.
pub(crate) fn leaves(shape: &Shape) -> Vec<(Vec<usize>, Leaf<'_>)> {
    let mut out = Vec::new();
    let mut stack: Vec<(Vec<usize>, &Shape)> = vec![(Vec::new(), shape)];
    while let Some((path, s)) = stack.pop() {
        match s {
            Shape::Array(a) => out.push((path, Leaf::Array(a))),
            Shape::Buffer(a) => out.push((path, Leaf::Buffer(a))),
            Shape::Token => out.push((path, Leaf::Token)),
            Shape::Opaque => out.push((path, Leaf::Opaque)),
            Shape::Tuple(elements) => {
                for (i, e) in elements.iter().enumerate().rev() {
                    let mut p = path.clone();
                    p.push(i);
                    stack.push((p, e));
                }
            }
        }
    }
    out
}

/// The name of a memory space (spec §11).
pub(crate) fn memory_space_name(s: i64) -> String {
    match s {
        0 => "device memory (HBM)".into(),
        1 => "fast memory (VMEM on TPU; alternate memory)".into(),
        5 => "pinned host memory".into(),
        6 => "unpinned host memory".into(),
        n => format!("device-specific memory space {n}"),
    }
}

/// Why a valid array has no plan (an unbounded `?` dimension, a tiling too wide), in words.
pub(crate) fn no_plan(errors: &Errors) -> String {
    let messages: Vec<&str> = errors.iter().map(|e| e.message()).collect();
    messages.join("; ")
}

/// The offset function in closed form, or why it is not shown.
pub(crate) fn closed_form(a: &ArrayShape, p: &Plan) -> String {
    let combines = a
        .layout
        .tiles
        .iter()
        .flat_map(|t| t.dims())
        .filter(|d| **d == TileDim::Combine)
        .count();
    if combines > MAX_COMBINES_FOR_EXPR {
        format!(
            "(not shown: {combines} `*` tile dims; the closed form grows with each, \
             the offsets below are exact)"
        )
    } else {
        p.offset_expr().to_string()
    }
}

/// Checks `--slice` against every array of rank above 2 in the shape.
fn check_slice(leaves: &[(Vec<usize>, Leaf<'_>)], slice: &[usize]) -> Result<(), String> {
    for (_, leaf) in leaves {
        let Some(a) = leaf.array() else { continue };
        let Ok(p) = Plan::new(a) else { continue };
        let dims = p.dims();
        if dims.len() <= 2 {
            continue;
        }
        let lead = &dims[..dims.len() - 2];
        if slice.len() != lead.len() || slice.iter().zip(lead).any(|(i, d)| i >= d) {
            return Err(format!(
                "--slice {} does not pick a 2-D slice of {a}: it takes {} indices below {}",
                geometry::index_text(slice),
                lead.len(),
                geometry::index_text(lead)
            ));
        }
    }
    Ok(())
}

/// Explains each input; exit status 1 when any is invalid, 2 on a usage error.
pub(crate) fn run(args: &Args, out: &mut dyn Write, err: &mut dyn Write) -> ExitCode {
    let inputs = match args.shape.as_deref() {
        Some("-") => input::stdin_lines(),
        Some(s) => Ok(vec![Input::argument(s)]),
        None if input::stdin_is_terminal() => Ok(vec![Input::argument(DEFAULT_SHAPE)]),
        None => input::stdin_lines(),
    };
    let inputs = match inputs {
        Ok(i) if i.is_empty() => return usage_error(err, "no SHAPE given and none on stdin"),
        Ok(i) => i,
        Err(e) => return usage_error(err, &format!("cannot read stdin: {e}")),
    };
    if args.svg.is_some() && inputs.len() > 1 {
        return usage_error(
            err,
            &format!("--svg draws one shape; stdin has {}", inputs.len()),
        );
    }
    let svg_only = args.svg.as_deref() == Some("-");
    let mut all_ok = true;
    for (n, input) in inputs.iter().enumerate() {
        let shape = match xla_layout_core::parse(&input.text) {
            Ok(shape) => shape,
            Err(errors) => {
                all_ok = false;
                if args.json {
                    emit(out, &diagnostics::json_invalid(input, &errors).to_string());
                } else {
                    let _ = write!(err, "{}", diagnostics::render(input, &errors));
                }
                continue;
            }
        };
        let leaves = leaves(&shape);
        if let Some(slice) = &args.slice
            && let Err(message) = check_slice(&leaves, slice)
        {
            return usage_error(err, &message);
        }
        let slice = args.slice.as_deref();
        if let Some(path) = &args.svg {
            let picture = svg::draw(&leaves, slice);
            let written = if svg_only {
                out.write_all(picture.as_bytes())
            } else {
                std::fs::write(path, picture)
            };
            if let Err(e) = written {
                return usage_error(err, &format!("cannot write {path}: {e}"));
            }
        }
        if svg_only {
            continue;
        }
        if args.json {
            emit(out, &json::shape(input, &shape, &leaves).to_string());
        } else {
            if n > 0 {
                emit(out, "");
            }
            let mut s = String::new();
            text::shape(&mut s, &shape.to_string(), &leaves, slice);
            let _ = out.write_all(s.as_bytes());
        }
    }
    if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
