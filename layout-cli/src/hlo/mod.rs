//! `xla-layout hlo`: where an HLO module's memory goes, before XLA's out-of-memory report says
//! so: buffers per computation, memory space and element type, entry parameters and outputs,
//! and the buffers that padding inflates most, in the words of XLA's TPU report.
//!
//! The analysis is `xla_layout_core::hlo::memory`; this module reads the input ([`read`],
//! with a progress bar for large files on a terminal) and writes it as text ([`text`]),
//! JSON ([`json`]) or `layout!` type aliases ([`rust`]).

use std::io::{self, Read, Write};
use std::process::ExitCode;

use xla_layout_core::hlo::memory::{self, Memory};
use xla_layout_core::hlo::{Computation, Instruction, Module, parse_module};
use xla_layout_core::xla::numbers::{Units, human_readable_bytes};

use crate::diagnostics;
use crate::input::{self, Input};
use crate::progress::{self, Progress};
use crate::{emit, usage_error};

mod json;
mod rust;
mod text;

/// The module inspected when no FILE is given and stdin is a terminal: a TPU module from
/// XLA's tests (`xla/hlo/analysis/hlo_ordering_test.cc`) with tiles, host memory `S(5)`, a
/// tuple parameter and an async dynamic-update-slice.
pub(crate) const BUILTIN_MODULE: &str = include_str!("builtin.hlo");
/// The origin shown for the built-in module.
const BUILTIN_ORIGIN: &str = "<built-in>";

/// Characters of an instruction kept in an `XLA label` or a doc comment.
pub(crate) const LABEL_CHARS: usize = 200;

/// Inspect an HLO module's memory: buffers and padding per computation, memory space and
/// element type.
///
/// Reads a module as XLA dumps it (`--xla_dump_to`, `HloModule::ToString()`). Buffers are
/// counted once, as XLA's dataflow analysis defines them: the entry and the computations it
/// runs in sequence (while, call, conditional, async) own buffers, fusion bodies and
/// reducers do not; bitcast, get-tuple-element, while and call alias their operand, a tuple
/// owns its pointer table (8 bytes per element). Entry parameters are arguments, constants
/// their own category, the entry's results outputs (unless `input_output_alias` places them
/// in an argument), the rest temporaries (summed without reuse: an upper bound; the peak of
/// live temporaries and outputs in instruction order is reported too). Memory spaces: no S or S(0) = device HBM, S(1) =
/// alternate (fast) memory, S(5) = host. Padding is XLA's: unpadded = elements x storage
/// bits rounded up to bytes; occupied = with every tile, L(n), E(n) and M(n).
#[derive(Debug, clap::Args)]
#[command(after_long_help = JSON_SCHEMA)]
pub(crate) struct Args {
    /// Print one JSON object (schema below) instead of the report; errors become
    /// `{"file", "ok": false, "errors": [...]}`.
    #[arg(long, conflicts_with = "rust")]
    json: bool,

    /// Print `layout!` type aliases for the entry computation's parameters and outputs
    /// (Rust source; shapes `layout!` cannot express are listed in comments).
    #[arg(long)]
    rust: bool,

    /// How many buffers to list by padding (wasted bytes), largest first.
    #[arg(long, value_name = "N", default_value_t = 10)]
    top: usize,

    /// Report only this computation (its name without `%`).
    #[arg(long, value_name = "NAME")]
    computation: Option<String>,

    /// The module file; `-` reads stdin. Without it, stdin is read, or a small built-in TPU
    /// module is inspected when stdin is a terminal.
    #[arg(value_name = "FILE")]
    file: Option<String>,
}

/// The JSON schema, shown by `hlo --help`.
const JSON_SCHEMA: &str = "\
JSON output (--json), one object; byte counts are integers (strings above 2^64 - 1), null \
where a shape has no static size:
  {\"module\": name or null, \"file\", \"is_scheduled\",
   \"computations\": [{\"name\", \"is_entry\", \"role\", \"caller\", \"owns_buffers\",
       \"instruction_count\", \"totals\": TOTALS,
       \"instructions\": [{\"name\", \"opcode\", \"shape\" (XLA's canonical text, layout included),
           \"operands\": [names], \"is_root\",
           \"unpadded_bytes\", \"bytes\" (the shape: sums over its array leaves),
           \"buffer_bytes\" (what the instruction owns, tuple tables included, each buffer once),
           \"category\" (of its buffers, or null)}]}],
   \"entry\": {\"computation\",
       \"parameters\": [{\"number\", \"name\", \"shape\", \"unpadded_bytes\", \"bytes\"}],
       \"outputs\": [{\"index\": [..], \"shape\", \"unpadded_bytes\", \"bytes\"}]},
   \"peaks\": [{\"memory_space\", \"name\", \"bytes\", \"computation\", \"instruction\"}] (the most bytes of
       temporaries and outputs live at once in instruction order, callees' peaks included),
   \"largest_padding\": [{\"computation\", \"instruction\", \"index\", \"shape\", \"category\",
       \"memory_space\", \"unpadded_bytes\", \"bytes\", \"extra_bytes\", \"expansion\",
       \"causes\": [\"dim 1: 3 padded to 128 by T(8,128)\", ...]}],
   \"totals\": TOTALS}
  TOTALS = {\"buffers\", \"unpadded_bytes\", \"bytes\", \"extra_bytes\", \"dynamic_buffers\",
       \"categories\": {\"arguments\": SUM, \"constants\": SUM, \"outputs\": SUM, \"temporaries\": SUM},
       \"shared_with_arguments\": SUM, \"in_place\": SUM,
       \"memory_spaces\": [{\"memory_space\", \"name\", ...SUM}],
       \"element_types\": [{\"element_type\" (\"tuple\" for pointer tables), ...SUM}]}
  SUM = {\"buffers\", \"unpadded_bytes\", \"bytes\"}
With --computation, \"computations\", \"largest_padding\" and \"totals\" are that computation's.";

/// Inspects one module; exit status 1 when it does not parse, 2 on a usage error.
pub(crate) fn run(args: &Args, out: &mut dyn Write, err: &mut dyn Write) -> ExitCode {
    let input = match read(args.file.as_deref()) {
        Ok(input) => input,
        Err(message) => return usage_error(err, &message),
    };
    let progress = Progress::spinner(progress::wanted(input.text.len() as u64), "parsing");
    let parsed = parse_module(&input.text);
    let module = match parsed {
        Ok(module) => module,
        Err(errors) => {
            progress.finish();
            if args.json {
                let v = serde_json::json!({
                    "file": input.origin, "ok": false,
                    "errors": diagnostics::json_errors(&input, &errors),
                });
                emit(out, &v.to_string());
            } else {
                let _ = write!(err, "{}", diagnostics::render(&input, &errors));
            }
            return ExitCode::FAILURE;
        }
    };
    progress.message("analyzing");
    let analysis = memory::analyze(&module);
    progress.finish();
    let computation = match &args.computation {
        None => None,
        Some(name) => match module.computations().iter().position(|c| c.name == name) {
            Some(i) => Some(i),
            None => {
                let known: Vec<&str> = module.computations().iter().map(|c| c.name).collect();
                let shown = known.iter().take(8).copied().collect::<Vec<_>>().join(", ");
                let more = if known.len() > 8 { ", ..." } else { "" };
                return usage_error(
                    err,
                    &format!("no computation `{name}` in the module; it has {shown}{more}"),
                );
            }
        },
    };
    let view = View {
        origin: input.origin,
        text: &input.text,
        module: &module,
        memory: &analysis,
        computation,
        top: args.top,
    };
    let written = if args.json {
        json::write(&view, out)
    } else if args.rust {
        out.write_all(rust::aliases(&view).as_bytes())
    } else {
        out.write_all(text::report(&view).as_bytes())
    };
    // A closed pipe (`xla-layout hlo big.hlo | head`) is not an error.
    let _ = written;
    ExitCode::SUCCESS
}

/// What the writers need: the module, its analysis and the options.
pub(crate) struct View<'v, 'm, 'a> {
    pub(crate) origin: &'static str,
    pub(crate) text: &'a str,
    pub(crate) module: &'m Module<'a>,
    pub(crate) memory: &'v Memory<'m, 'a>,
    /// `--computation`: the index of the one computation to report.
    pub(crate) computation: Option<usize>,
    pub(crate) top: usize,
}

impl View<'_, '_, '_> {
    /// The indices of the computations to report.
    pub(crate) fn computations(&self) -> Vec<usize> {
        match self.computation {
            Some(c) => vec![c],
            None => (0..self.module.computations().len()).collect(),
        }
    }

    /// The peaks to report: the entry's or the chosen computation's.
    pub(crate) fn peaks(&self) -> &std::collections::BTreeMap<i64, memory::Peak> {
        match self.computation {
            Some(c) => &self.memory.computations[c].peaks,
            None => &self.memory.peaks,
        }
    }

    /// The totals to report: the module's or the chosen computation's.
    pub(crate) fn totals(&self) -> &memory::Totals {
        match self.computation {
            Some(c) => &self.memory.computations[c].totals,
            None => &self.memory.totals,
        }
    }
}

/// Reads the module text: a file, `-` for stdin, or (no FILE) stdin or the built-in module
/// when stdin is a terminal. Invalid UTF-8 is replaced.
fn read(file: Option<&str>) -> Result<Input, String> {
    let (origin, bytes) = match file {
        None if input::stdin_is_terminal() => (BUILTIN_ORIGIN, BUILTIN_MODULE.as_bytes().to_vec()),
        None | Some("-") => {
            let mut bytes = Vec::new();
            io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read stdin: {e}"))?;
            (input::STDIN, bytes)
        }
        Some(path) => {
            let bytes = read_file(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            // One name per run, kept for the error messages that point into the file.
            (&*Box::leak(path.to_string().into_boxed_str()), bytes)
        }
    };
    if bytes.is_empty() {
        return Err(format!("{origin} is empty"));
    }
    Ok(Input {
        text: String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        origin,
        line: 1,
    })
}

/// A file's bytes, with a progress bar for large files.
fn read_file(path: &str) -> io::Result<Vec<u8>> {
    let mut file = std::fs::File::open(path)?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let progress = Progress::bytes(progress::wanted(len), len, "reading");
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    let mut chunk = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut chunk)?;
        if n == 0 {
            break;
        }
        bytes.extend_from_slice(&chunk[..n]);
        progress.advance(n as u64);
    }
    progress.finish();
    Ok(bytes)
}

/// Bytes as XLA's TPU report prints them (`32.00G`), exact above `i64::MAX`.
pub(crate) fn human(bytes: u128) -> String {
    match i64::try_from(bytes) {
        Ok(b) => human_readable_bytes(b, Units::Tpu),
        Err(_) => format!("{bytes}B"),
    }
}

/// `occupied / unpadded` with one decimal, as XLA prints the expansion (`32.0x`).
pub(crate) fn expansion(unpadded: u128, bytes: u128) -> Option<String> {
    // Ratios of byte counts are shown with one decimal; f64 is exact enough for that.
    (unpadded > 0).then(|| format!("{:.1}x", bytes as f64 / unpadded as f64))
}

/// `unpadded / occupied` as a percentage with one decimal (XLA's "utilization").
pub(crate) fn utilization(unpadded: u128, bytes: u128) -> Option<String> {
    (bytes > 0).then(|| format!("{:.1}%", 100.0 * unpadded as f64 / bytes as f64))
}

/// The name of a memory space in reports: `hbm`, `alternate`, `host` or `space N`.
pub(crate) fn memory_space_name(space: i64) -> String {
    match space {
        0 => "hbm".to_string(),
        1 => "alternate".to_string(),
        5 => "host".to_string(),
        n => format!("space {n}"),
    }
}

/// An instruction of `computation` as XLA's report labels it: `name = opcode(operands),
/// attributes`, without the result shape, metadata and backend configuration, cut at
/// [`LABEL_CHARS`].
pub(crate) fn label(computation: &Computation<'_>, ins: &Instruction<'_>) -> String {
    let mut s = String::new();
    if !ins.name.is_empty() {
        s.push_str(ins.name);
        s.push_str(" = ");
    }
    s.push_str(ins.opcode);
    s.push('(');
    let operands: Vec<String> = ins
        .operands
        .iter()
        .map(|o| match computation.nested_instruction(&o) {
            Some(n) => format!("{}(...)", n.opcode),
            None => o.name.to_string(),
        })
        .collect();
    s.push_str(&operands.join(", "));
    if let Some(n) = ins.parameter_number {
        s.push_str(&n.to_string());
    }
    if let Some(literal) = ins.literal {
        // Literals can be megabytes: cut before copying.
        s.push_str(&truncate(literal, LABEL_CHARS));
    }
    s.push(')');
    for a in &ins.attributes {
        if !matches!(
            a.name,
            "metadata" | "backend_config" | "frontend_attributes" | "statistics" | "origin"
        ) {
            s.push_str(", ");
            s.push_str(a.name);
            s.push('=');
            s.push_str(a.value);
        }
    }
    truncate(&s, LABEL_CHARS)
}

/// The text cut to `chars` characters, with `...` when cut.
pub(crate) fn truncate(s: &str, chars: usize) -> String {
    match s.char_indices().nth(chars) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

/// The instructions of a computation that are entry parameters, ordered by number.
pub(crate) fn entry_parameters<'m, 'a>(module: &'m Module<'a>) -> Vec<&'m Instruction<'a>> {
    let mut params: Vec<&Instruction<'a>> = module.entry().parameters().collect();
    params.sort_by_key(|p| p.parameter_number);
    params
}
