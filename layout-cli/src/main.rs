//! The `xla-layout` command: check and explain XLA shape-and-layout strings.

#![forbid(unsafe_code)]

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

mod check;
mod explain;

const USAGE: &str = "\
usage: xla-layout <command> [options]

commands:
  check [--json] [SHAPE...]   validate shapes and print their canonical text; with no SHAPE,
                              read one shape per line from stdin (blank lines skipped)
  explain [--json] [SHAPE]    show where every element of an array lives: dims, tiling
                              steps, closed-form offset, sizes and padding, and for small
                              arrays a grid of offsets and the memory order; with no SHAPE,
                              explains bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}
  help                        print this help

exit status: 0 when every input is valid, 1 when any is invalid, 2 on a usage error";

/// A command-line problem: printed with the usage text, exit status 2.
struct Usage(String);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(Usage(msg)) => {
            eprintln!("error: {msg}\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<ExitCode, Usage> {
    let Some((command, rest)) = args.split_first() else {
        return Err(Usage("no command given".into()));
    };
    match command.as_str() {
        "check" => {
            let (json, shapes) = split_flags(rest)?;
            let inputs = inputs(shapes).map_err(|e| Usage(format!("cannot read stdin: {e}")))?;
            Ok(check::run(
                &inputs,
                json,
                &mut io::stdout().lock(),
                &mut io::stderr().lock(),
            ))
        }
        "explain" => {
            let (json, shapes) = split_flags(rest)?;
            let shape = match shapes.as_slice() {
                [] => explain::DEFAULT_SHAPE,
                [one] => one.as_str(),
                _ => return Err(Usage("explain takes at most one SHAPE".into())),
            };
            Ok(explain::run(
                shape,
                json,
                &mut io::stdout().lock(),
                &mut io::stderr().lock(),
            ))
        }
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        other => Err(Usage(format!("unknown command `{other}`"))),
    }
}

/// Splits `--json` from the positional arguments; `--` ends the options.
fn split_flags(args: &[String]) -> Result<(bool, Vec<String>), Usage> {
    let mut json = false;
    let mut positional = Vec::new();
    let mut options_done = false;
    for a in args {
        match a.as_str() {
            "--" if !options_done => options_done = true,
            "--json" if !options_done => json = true,
            s if !options_done && s.starts_with("--") => {
                return Err(Usage(format!("unknown option `{s}`")));
            }
            _ => positional.push(a.clone()),
        }
    }
    Ok((json, positional))
}

/// The shapes given as arguments, or else the non-blank lines of stdin.
fn inputs(args: Vec<String>) -> io::Result<Vec<String>> {
    if !args.is_empty() {
        return Ok(args);
    }
    let mut lines = Vec::new();
    for line in io::stdin().lock().split(b'\n') {
        let line = line?;
        let text = String::from_utf8_lossy(&line);
        let text = text.strip_suffix('\r').unwrap_or(&text);
        if !text.trim().is_empty() {
            lines.push(text.to_string());
        }
    }
    Ok(lines)
}

/// Writes a line, ignoring a closed pipe (`xla-layout check | head`).
fn emit(out: &mut dyn Write, line: &str) {
    let _ = writeln!(out, "{line}");
}
