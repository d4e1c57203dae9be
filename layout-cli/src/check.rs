//! `xla-layout check`: validate shapes, print canonical text or rendered errors.

use std::io::Write;
use std::process::ExitCode;

use serde_json::json;

use crate::emit;

/// Checks every input; returns exit status 0 when all are valid, else 1.
pub(crate) fn run(
    inputs: &[String],
    json: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> ExitCode {
    let mut all_ok = true;
    for input in inputs {
        let result = xla_layout_core::parse(input);
        all_ok &= result.is_ok();
        match (result, json) {
            (Ok(shape), true) => emit(
                out,
                &json!({"input": input, "ok": true, "canonical": shape.to_string()}).to_string(),
            ),
            (Err(errors), true) => {
                let errors: Vec<_> = errors
                    .iter()
                    .map(|e| {
                        let span = e.span().unwrap_or(0..input.len());
                        json!({"start": span.start, "end": span.end, "message": e.message()})
                    })
                    .collect();
                emit(
                    out,
                    &json!({"input": input, "ok": false, "errors": errors}).to_string(),
                );
            }
            (Ok(shape), false) => emit(out, &shape.to_string()),
            (Err(errors), false) => {
                let _ = write!(err, "{}", errors.render(input, "<input>"));
            }
        }
    }
    if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
