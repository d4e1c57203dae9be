//! `xla-layout check`: validate shapes, print canonical text or rendered errors.

use std::io::Write;
use std::process::ExitCode;

use serde_json::json;

use crate::diagnostics;
use crate::input::{self, Input};
use crate::{emit, usage_error};

/// Validate shapes and print their canonical text, or every error rustc-style.
///
/// With no SHAPE (or `-`), reads one shape per line from stdin; blank lines are skipped and
/// errors name the line they are on.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// One JSON object per input on stdout: `{"input", "ok": true, "canonical"}` or
    /// `{"input", "ok": false, "errors": [{"start", "end", "message", "line", "column"}]}`
    /// (`start`/`end` are byte offsets into the input; `line` is added for stdin inputs).
    #[arg(long)]
    json: bool,

    /// Shapes to check; `-` reads one per line from stdin.
    #[arg(value_name = "SHAPE")]
    shapes: Vec<String>,
}

/// Checks every input; exit status 0 when all are valid, 1 when any is invalid.
pub(crate) fn run(args: &Args, out: &mut dyn Write, err: &mut dyn Write) -> ExitCode {
    let inputs = match input::gather(&args.shapes) {
        Ok(inputs) => inputs,
        Err(e) => return usage_error(err, &format!("cannot read stdin: {e}")),
    };
    let mut all_ok = true;
    for input in &inputs {
        all_ok &= check_one(input, args.json, out, err);
    }
    if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Checks one input and reports it; true when it is valid.
fn check_one(input: &Input, json: bool, out: &mut dyn Write, err: &mut dyn Write) -> bool {
    match (xla_layout_core::parse(&input.text), json) {
        (Ok(shape), true) => {
            let mut v = json!({"input": input.text, "ok": true, "canonical": shape.to_string()});
            if input.is_from_stream() {
                v["line"] = json!(input.line);
            }
            emit(out, &v.to_string());
            true
        }
        (Ok(shape), false) => {
            emit(out, &shape.to_string());
            true
        }
        (Err(errors), true) => {
            emit(out, &diagnostics::json_invalid(input, &errors).to_string());
            false
        }
        (Err(errors), false) => {
            let _ = write!(err, "{}", diagnostics::render(input, &errors));
            false
        }
    }
}
