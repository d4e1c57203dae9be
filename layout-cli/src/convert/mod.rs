//! `xla-layout convert`: an array from host order into a device buffer's layout, and back.
//!
//! The copy is layout-core's [`CopyPlan`]; this module reads the source (a `.npy` file
//! through [`npy`] and [`dtype`], or raw bytes in the `--from` layout), checks that both
//! sides are the same array, runs the copy in parts under a progress bar, and writes raw
//! bytes or a `.npy` file. Both buffers are held in memory, each allocated once at its exact
//! size after every check has passed (a failed allocation is an error, not an abort).

use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::process::ExitCode;

use serde_json::{Value, json};
use xla_layout_core::tensor::{AlignedBuf, CopyPlan, RelayoutError, Side};
use xla_layout_core::xla::padding::padding;
use xla_layout_core::{ArrayLayout, ArrayShape, Errors, PrimitiveType, parse_array};

use crate::diagnostics;
use crate::input::{self, Input};
use crate::progress::{self, Progress};
use crate::{emit, style};

mod dtype;
mod npy;

/// Convert an array between layouts: host data (.npy) into a device buffer's layout, and back.
///
/// The layouts are XLA's shape text, as XLA and PJRT print them
/// (`bf16[8,1280]{1,0:T(8,128)(2,1)}`). IN is a `.npy` file (its dtype, shape and order give
/// the source array: row-major, or `{0,1,..}` for Fortran order) or, with --from, raw bytes
/// in that layout. OUT gets the bytes of the --to layout (padding zeroed), or a `.npy` file
/// when OUT ends with `.npy` or --npy is given, which needs a --to layout numpy can hold:
/// row-major or column-major, no tiles or padding. Element types: numpy's bool,
/// int8..int64, uint8..uint64, float16/32/64, complex64/128 (pred, s8..s64, u8..u64, f16,
/// f32, f64, c64, c128) and ml_dtypes' bfloat16 (saved as `<V2`, read as bf16); other types
/// (s4, the f8 kinds...) only as raw bytes.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub(crate) struct Args {
    /// The target layout, XLA's shape text; same element type and dims as the input.
    #[arg(long, value_name = "LAYOUT")]
    to: String,

    /// Read IN as raw bytes in this layout (whatever its name); its length must be the
    /// layout's size in bytes.
    #[arg(long, value_name = "LAYOUT")]
    from: Option<String>,

    /// Where to write; `-` writes stdout.
    #[arg(short, long, value_name = "OUT")]
    output: String,

    /// Write a `.npy` file whatever OUT's name.
    #[arg(long)]
    npy: bool,

    /// Print a JSON summary on stdout: `{"ok": true, "input", "output", "from", "to",
    /// "npy_in", "npy_out", "elements", "bytes_in", "bytes_out", "padding_bytes"}` (byte
    /// counts of the array data, without `.npy` headers), or `{"ok": false, "errors":
    /// [{"message", ...}]}` (layout text errors also carry "argument", "start", "end",
    /// "line", "column").
    #[arg(long)]
    json: bool,

    /// No progress bar and no summary on stderr.
    #[arg(short, long)]
    quiet: bool,

    /// The input file; `-` reads stdin.
    #[arg(value_name = "IN")]
    input: String,
}

/// Examples, shown by `convert --help`.
const EXAMPLES: &str = "\
Examples:
  xla-layout convert w.npy --to 'bf16[8,1280]{1,0:T(8,128)(2,1)}' -o w.tpu.bin
  xla-layout convert w.tpu.bin --from 'bf16[8,1280]{1,0:T(8,128)(2,1)}' \\
      --to 'bf16[8,1280]{1,0}' -o back.npy

Exit status: 0 when converted, 1 when the layouts or the input are invalid or do not match, \
2 on a usage error, a file that cannot be read or written, or a buffer too large to allocate.";

/// Bytes read or written per step of the progress bar.
const CHUNK: usize = 1 << 20;
/// Steps the copy is cut into for the progress bar (at most).
const COPY_STEPS: usize = 256;

/// Runs one conversion; exit status 0, 1 (invalid input) or 2 (usage or I/O).
pub(crate) fn run(args: &Args, out: &mut dyn Write, err: &mut dyn Write) -> ExitCode {
    let result = if args.json && args.output == "-" {
        Err(Failure::Usage(
            "--json prints on stdout, which `-o -` already writes the array to".to_string(),
        ))
    } else {
        convert(args, out)
    };
    match result {
        Ok(summary) => {
            if args.json {
                emit(out, &summary.json().to_string());
            } else if !args.quiet {
                let _ = writeln!(err, "{}", summary.line());
            }
            ExitCode::SUCCESS
        }
        Err(failure) => failure.report(args.json, out, err),
    }
}

/// Why a conversion did not run.
enum Failure {
    /// Layout arguments that do not parse, each with its errors.
    Text(Vec<(Input, Errors)>),
    /// The input or the layouts are invalid or do not match (exit 1): a message and notes.
    Invalid(String, Vec<String>),
    /// A usage error, a file that cannot be read or written, or a buffer that cannot be
    /// allocated (exit 2).
    Usage(String),
}

impl Failure {
    fn invalid(message: impl Into<String>) -> Failure {
        Failure::Invalid(message.into(), Vec::new())
    }

    fn report(self, json: bool, out: &mut dyn Write, err: &mut dyn Write) -> ExitCode {
        let code = match &self {
            Failure::Usage(_) => ExitCode::from(2),
            _ => ExitCode::FAILURE,
        };
        if json {
            let errors: Vec<Value> = match self {
                Failure::Text(texts) => texts
                    .iter()
                    .flat_map(|(input, errors)| {
                        diagnostics::json_errors(input, errors)
                            .into_iter()
                            .map(|mut e| {
                                e["argument"] = json!(input.origin);
                                e
                            })
                    })
                    .collect(),
                Failure::Invalid(message, notes) => {
                    vec![json!({"message": message, "notes": notes})]
                }
                Failure::Usage(message) => vec![json!({"message": message})],
            };
            emit(out, &json!({"ok": false, "errors": errors}).to_string());
            return code;
        }
        match self {
            Failure::Text(texts) => {
                for (input, errors) in &texts {
                    let _ = write!(err, "{}", diagnostics::render(input, errors));
                }
            }
            Failure::Invalid(message, notes) => {
                let _ = writeln!(
                    err,
                    "{}{}",
                    style::err(style::ERROR, "error"),
                    style::err(style::HEADING, &format!(": {message}"))
                );
                for note in notes {
                    let _ = writeln!(err, "  {} {note}", style::err(style::GUTTER, "="));
                }
            }
            Failure::Usage(message) => {
                crate::usage_error(err, &message);
            }
        }
        code
    }
}

/// What a conversion did.
struct Summary {
    input: String,
    output: String,
    from: String,
    to: String,
    npy_in: bool,
    npy_out: bool,
    elements: u64,
    bytes_in: usize,
    bytes_out: usize,
    padding_bytes: u64,
}

impl Summary {
    fn json(&self) -> Value {
        json!({
            "ok": true, "input": self.input, "output": self.output,
            "from": self.from, "to": self.to, "npy_in": self.npy_in, "npy_out": self.npy_out,
            "elements": self.elements, "bytes_in": self.bytes_in, "bytes_out": self.bytes_out,
            "padding_bytes": self.padding_bytes,
        })
    }

    fn line(&self) -> String {
        format!(
            "converted {} ({}) to {} ({}): {} elements, {} bytes in, {} bytes out ({} of them padding)",
            self.input,
            self.from,
            self.output,
            self.to,
            self.elements,
            self.bytes_in,
            self.bytes_out,
            self.padding_bytes
        )
    }
}

/// Where the source comes from and what it holds.
struct Source {
    shape: ArrayShape,
    /// How the source array was given, for messages: `--from`, or the file and its header.
    told_by: String,
    reader: Box<dyn Read>,
    /// Bytes of data the input holds, when known before reading (a file's length).
    available: Option<u64>,
    npy: bool,
}

fn convert(args: &Args, stdout: &mut dyn Write) -> Result<Summary, Failure> {
    let to_text = Input {
        text: args.to.clone(),
        origin: "--to",
        line: 1,
    };
    let from_text = args.from.as_ref().map(|text| Input {
        text: text.clone(),
        origin: "--from",
        line: 1,
    });
    // Every layout error at once: --from's and --to's.
    let mut text_errors = Vec::new();
    let from = from_text.map(|input| match parse_array(&input.text) {
        Ok(shape) => Some(shape),
        Err(errors) => {
            text_errors.push((input, errors));
            None
        }
    });
    let to = match parse_array(&to_text.text) {
        Ok(shape) => Some(shape),
        Err(errors) => {
            text_errors.push((to_text, errors));
            None
        }
    };
    let (Some(to), true) = (to, text_errors.is_empty()) else {
        return Err(Failure::Text(text_errors));
    };
    let from = from.flatten();

    let npy_out = args.npy || args.output.ends_with(".npy");
    let npy_header = if npy_out {
        Some(npy_header_for(&to)?)
    } else {
        None
    };
    let mut source = open_source(&args.input, from)?;
    let plan = copy_plan(&source, &to)?;
    let largest = plan.src_bytes().max(plan.dst_bytes()) as u64;
    let show = !args.quiet && progress::wanted(largest);
    let src = read_data(&mut source, &args.input, plan.src_bytes(), show)?;
    let dst = copy(&plan, &src, show)?;
    drop(src);
    write_output(&args.output, npy_header.as_deref(), &dst, stdout, show)?;
    Ok(Summary {
        input: args.input.clone(),
        output: args.output.clone(),
        from: source.shape.to_string(),
        to: to.to_string(),
        npy_in: source.npy,
        npy_out,
        elements: elements(&source.shape),
        bytes_in: plan.src_bytes(),
        bytes_out: plan.dst_bytes(),
        padding_bytes: padding(&to).map_or(0, |p| p.extra_bytes()),
    })
}

/// The number of elements of a static array (saturating; a planned array has at most
/// `i64::MAX`).
fn elements(a: &ArrayShape) -> u64 {
    a.dims
        .iter()
        .map(|d| d.extent().and_then(|e| u64::try_from(e).ok()).unwrap_or(0))
        .fold(1, u64::saturating_mul)
}

/// The `.npy` header for an array in layout `to`, if numpy can hold it.
fn npy_header_for(to: &ArrayShape) -> Result<Vec<u8>, Failure> {
    let descr = dtype::descr(to.element_type).ok_or_else(|| {
        Failure::invalid(format!(
            "the element type {} has no numpy dtype, so it cannot be written to a .npy file; \
             write raw bytes (an OUT not ending in .npy, without --npy)",
            to.element_type
        ))
    })?;
    let fortran_order = numpy_order(to).map_err(|problems| {
        let plain = ArrayShape {
            layout: ArrayLayout::descending(to.dims.len()),
            ..to.clone()
        };
        Failure::Invalid(
            format!(
                "a .npy file holds row-major or column-major data without padding, but \
                 --to `{to}` has {}",
                problems.join(" and ")
            ),
            vec![format!(
                "convert to `{plain}` for a .npy file, or write raw bytes (an OUT not ending \
                 in .npy, without --npy)"
            )],
        )
    })?;
    let shape: Vec<u64> = to
        .dims
        .iter()
        .map(|d| d.extent().and_then(|e| u64::try_from(e).ok()).unwrap_or(0))
        .collect();
    Ok(npy::header_bytes(descr, fortran_order, &shape))
}

/// Whether numpy holds `a` in Fortran order (`{0,1,..}`) rather than C order (`{..,1,0}`),
/// or what keeps it from holding `a` at all. A memory space `S(n)` changes no byte.
fn numpy_order(a: &ArrayShape) -> Result<bool, Vec<String>> {
    let l = &a.layout;
    let rank = a.dims.len();
    let mut problems = Vec::new();
    if !l.tiles.is_empty() {
        problems.push("tiles".to_string());
    }
    if l.tail_padding_alignment_in_elements > 1 {
        problems.push(format!(
            "tail padding L({})",
            l.tail_padding_alignment_in_elements
        ));
    }
    let bits = i64::from(a.element_type.storage_bits());
    if l.element_size_in_bits != 0 && l.element_size_in_bits != bits {
        problems.push(format!(
            "{}-bit elements E({})",
            l.element_size_in_bits, l.element_size_in_bits
        ));
    }
    if l.dynamic_shape_metadata_prefix_bytes > 0 {
        problems.push(format!(
            "a metadata prefix M({})",
            l.dynamic_shape_metadata_prefix_bytes
        ));
    }
    if !l.split_configs.is_empty() {
        problems.push("split configs SC".to_string());
    }
    if !l.padded_dimensions.is_empty() {
        problems.push("padded dimensions".to_string());
    }
    let fortran = if l.minor_to_major == ArrayLayout::descending(rank).minor_to_major {
        Some(false)
    } else if l.minor_to_major == ArrayLayout::ascending(rank).minor_to_major {
        Some(true)
    } else {
        problems.push(format!(
            "the dim order {} (neither row-major {} nor column-major {})",
            ArrayLayout::new(l.minor_to_major.iter().copied()),
            ArrayLayout::descending(rank),
            ArrayLayout::ascending(rank)
        ));
        None
    };
    match fortran {
        Some(f) if problems.is_empty() => Ok(f),
        _ => Err(problems),
    }
}

/// Opens IN: raw bytes in the `--from` layout, or a `.npy` file whose header gives the array.
fn open_source(path: &str, from: Option<ArrayShape>) -> Result<Source, Failure> {
    let (mut reader, length): (Box<dyn Read>, Option<u64>) = if path == "-" {
        (Box::new(io::stdin().lock()), None)
    } else {
        let file =
            File::open(path).map_err(|e| Failure::Usage(format!("cannot read {path}: {e}")))?;
        let length = file
            .metadata()
            .map_err(|e| Failure::Usage(format!("cannot read {path}: {e}")))?
            .len();
        (
            Box::new(BufReader::with_capacity(1 << 16, file)),
            Some(length),
        )
    };
    let name = if path == "-" { input::STDIN } else { path };
    if let Some(shape) = from {
        return Ok(Source {
            shape,
            told_by: "--from".to_string(),
            reader,
            available: length,
            npy: false,
        });
    }
    let header = npy::read_header(&mut reader).map_err(|e| match e {
        npy::HeaderError::NotNpy => Failure::Invalid(
            format!("{name} is not a .npy file (it does not start with \\x93NUMPY)"),
            vec!["to read raw bytes, give their layout with --from".to_string()],
        ),
        npy::HeaderError::Invalid(message) => Failure::invalid(format!(
            "{name} has a .npy header this reader refuses: {message}"
        )),
        npy::HeaderError::Io(e) => Failure::Usage(format!("cannot read {name}: {e}")),
    })?;
    let told_by = format!(
        "{name}: dtype '{}', shape {}, {} order",
        header.descr,
        python_tuple(&header.shape),
        if header.fortran_order { "Fortran" } else { "C" }
    );
    let element_type = dtype::element_type(&header.descr)
        .map_err(|message| Failure::invalid(format!("{name}: {message}")))?;
    let shape = npy_shape(element_type, &header)
        .map_err(|message| Failure::invalid(format!("{told_by}: {message}")))?;
    Ok(Source {
        shape,
        told_by,
        reader,
        available: length.map(|l| l.saturating_sub(header.data_offset)),
        npy: true,
    })
}

/// The array a `.npy` header describes: its dims, row-major or (Fortran order) column-major.
fn npy_shape(element_type: PrimitiveType, header: &npy::Header) -> Result<ArrayShape, String> {
    let dims = header
        .shape
        .iter()
        .map(|&d| i64::try_from(d).map_err(|_| format!("the dim {d} is above XLA's int64 limit")))
        .collect::<Result<Vec<i64>, String>>()?;
    let rank = dims.len();
    let mut shape = ArrayShape::new(element_type, dims);
    if header.fortran_order {
        shape.layout = ArrayLayout::ascending(rank);
    }
    Ok(shape)
}

/// `(2, 3)`, `(5,)`, `()`: a shape as Python prints it.
fn python_tuple(dims: &[u64]) -> String {
    let inner: Vec<String> = dims.iter().map(u64::to_string).collect();
    match inner.len() {
        1 => format!("({},)", inner[0]),
        _ => format!("({})", inner.join(", ")),
    }
}

/// The copy from the source's layout into `to`, or why the two are not one array.
fn copy_plan(source: &Source, to: &ArrayShape) -> Result<CopyPlan, Failure> {
    CopyPlan::new(&source.shape, to).map_err(|e| match e {
        RelayoutError::Mismatch {
            element_types,
            dims,
            ..
        } => {
            let mut differences = Vec::new();
            if let Some([s, d]) = element_types {
                differences.push(format!("the element types differ (input {s}, --to {d})"));
            }
            if let Some([s, d]) = dims {
                differences.push(format!(
                    "the dims differ (input {}, --to {})",
                    dim_list(&s),
                    dim_list(&d)
                ));
            }
            Failure::Invalid(
                format!(
                    "the input and --to are not the same array: {}",
                    differences.join(" and ")
                ),
                vec![
                    format!("input: `{}` ({})", source.shape, source.told_by),
                    format!("--to:  `{to}`"),
                    "a conversion changes only the layout: element type and dims must be the same"
                        .to_string(),
                ],
            )
        }
        RelayoutError::Layout { side, errors } => {
            let (what, shape) = match side {
                Side::Src => (source.told_by.as_str(), &source.shape),
                Side::Dst => ("--to", to),
            };
            Failure::invalid(format!("`{shape}` ({what}) has no fixed offsets: {errors}"))
        }
        other => Failure::invalid(other.to_string()),
    })
}

/// `[2, 3]`, with `?` for an unbounded dim.
fn dim_list(dims: &[Option<i64>]) -> String {
    let inner: Vec<String> = dims
        .iter()
        .map(|d| d.map_or("?".to_string(), |n| n.to_string()))
        .collect();
    format!("[{}]", inner.join(", "))
}

/// An empty buffer with room for exactly `len` bytes, or an error naming what it was for.
fn allocate(len: usize, what: &str) -> Result<Vec<u8>, Failure> {
    let mut buf = Vec::new();
    buf.try_reserve_exact(len).map_err(|_| no_room(len, what))?;
    Ok(buf)
}

/// The failure of a buffer of `len` bytes for the `what` that the allocator cannot give.
fn no_room(len: usize, what: &str) -> Failure {
    Failure::Usage(format!("cannot allocate {len} bytes for the {what}"))
}

/// Reads exactly `len` bytes of data, after checking a file's length before allocating.
fn read_data(source: &mut Source, path: &str, len: usize, show: bool) -> Result<Vec<u8>, Failure> {
    let name = if path == "-" { input::STDIN } else { path };
    let wrong = |found: String| {
        if source.npy {
            Failure::invalid(format!(
                "{name} holds {found} bytes of data, but its header says {} ({len} bytes)",
                source.shape
            ))
        } else {
            let mut notes =
                vec!["raw input must be exactly the --from layout's size in bytes".to_string()];
            if name.ends_with(".npy") {
                notes.push(format!(
                    "without --from, {name} is read as a .npy file whose header gives the array"
                ));
            }
            Failure::Invalid(
                format!(
                    "{name} has {found} bytes, but --from `{}` needs {len}",
                    source.shape
                ),
                notes,
            )
        }
    };
    if let Some(available) = source.available
        && available != len as u64
    {
        return Err(wrong(available.to_string()));
    }
    let bar = Progress::bytes(show, len as u64, "reading");
    let mut data = allocate(len, "input")?;
    let io_error = |e: io::Error| Failure::Usage(format!("cannot read {name}: {e}"));
    // Appended chunk by chunk into the reserved room: never more than `len`, nothing zeroed.
    while data.len() < len {
        let want = (len - data.len()).min(CHUNK) as u64;
        let n = (&mut source.reader)
            .take(want)
            .read_to_end(&mut data)
            .map_err(io_error)?;
        if n == 0 {
            break;
        }
        bar.advance(n as u64);
    }
    bar.finish();
    if data.len() < len {
        return Err(wrong(data.len().to_string()));
    }
    let extra = io::copy(&mut source.reader, &mut io::sink()).map_err(io_error)?;
    if extra > 0 {
        return Err(wrong((len as u64).saturating_add(extra).to_string()));
    }
    Ok(data)
}

/// Runs the copy into a zeroed buffer, in steps for the progress bar.
fn copy(plan: &CopyPlan, src: &[u8], show: bool) -> Result<AlignedBuf<u8>, Failure> {
    let parts = plan.parts();
    let step = parts.div_ceil(COPY_STEPS).max(1);
    let bar = Progress::steps(show, parts as u64, "converting");
    // Zeroed: the copy leaves padding slots as they are. Aligned to a line, so that a large
    // copy streams whole lines (a `Vec`'s 16-byte alignment loses that), and on huge pages:
    // measured `convert` of 64 MiB raw f32 to `{0,1}`, 20 runs each, 75.8-79.1 -> 73.9-76.2
    // ms a run, reading and writing included.
    let len = plan.dst_bytes();
    let mut dst = AlignedBuf::try_zeroed(len).ok_or_else(|| no_room(len, "output"))?;
    let mut k = 0;
    while k < parts {
        let end = (k + step).min(parts);
        plan.copy_parts(src, &mut dst, k..end)
            .map_err(|e| Failure::invalid(e.to_string()))?;
        bar.advance((end - k) as u64);
        k = end;
    }
    bar.finish();
    Ok(dst)
}

/// Writes the `.npy` header (if any) and the data to OUT (`-`: stdout).
fn write_output(
    path: &str,
    header: Option<&[u8]>,
    data: &[u8],
    stdout: &mut dyn Write,
    show: bool,
) -> Result<(), Failure> {
    let name = if path == "-" { "stdout" } else { path };
    let io_error = |e: io::Error| Failure::Usage(format!("cannot write {name}: {e}"));
    let mut file;
    let out: &mut dyn Write = if path == "-" {
        stdout
    } else {
        file = File::create(path).map_err(io_error)?;
        &mut file
    };
    if let Some(header) = header {
        out.write_all(header).map_err(io_error)?;
    }
    let bar = Progress::bytes(show, data.len() as u64, "writing");
    for chunk in data.chunks(CHUNK) {
        out.write_all(chunk).map_err(io_error)?;
        bar.advance(chunk.len() as u64);
    }
    out.flush().map_err(io_error)?;
    bar.finish();
    Ok(())
}
