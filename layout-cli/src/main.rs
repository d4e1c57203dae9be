//! The `xla-layout` command: check and explain XLA shape-and-layout strings, inspect the
//! memory of HLO modules, and convert arrays between layouts.
//!
//! One module per subcommand (`check`, `explain`, `hlo`, `convert`, `completions`), each with
//! its clap arguments and a `run`; `input` reads arguments, files and stdin; `style`,
//! `diagnostics` and `progress` hold the colours, the rustc-style error rendering and the
//! progress bar they share.

#![forbid(unsafe_code)]

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

mod check;
mod completions;
mod convert;
mod diagnostics;
mod explain;
mod hlo;
mod input;
mod progress;
mod style;

/// Check and explain XLA shape-and-layout strings such as
/// `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}`, inspect the memory and padding of HLO
/// modules, and convert arrays between layouts.
#[derive(Debug, Parser)]
#[command(
    name = "xla-layout",
    version,
    subcommand_required = true,
    arg_required_else_help = true,
    after_help = "Exit status: 0 when every input is valid, 1 when any is invalid, 2 on a usage error."
)]
struct Cli {
    /// When to colour the output (`auto` follows NO_COLOR, CLICOLOR_FORCE and whether the
    /// stream is a terminal).
    #[arg(long, value_enum, global = true, default_value_t = ColorWhen::Auto)]
    color: ColorWhen,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Check(check::Args),
    Explain(explain::Args),
    Hlo(hlo::Args),
    Convert(convert::Args),
    Completions(completions::Args),
}

/// The `--color` choices.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum ColorWhen {
    Auto,
    Always,
    Never,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version exit 0, usage errors 2 (clap's convention, and ours).
        Err(e) => e.exit(),
    };
    let choice = match cli.color {
        ColorWhen::Auto => anstream::ColorChoice::Auto,
        ColorWhen::Always => anstream::ColorChoice::Always,
        ColorWhen::Never => anstream::ColorChoice::Never,
    };
    style::init(choice);
    let mut out = BufWriter::new(io::stdout().lock());
    // Not locked for the whole run: `hlo`'s progress bar draws on stderr from its own thread.
    let mut err = BufWriter::new(io::stderr());
    let code = match cli.command {
        Command::Check(args) => check::run(&args, &mut out, &mut err),
        Command::Explain(args) => explain::run(&args, &mut out, &mut err),
        Command::Hlo(args) => hlo::run(&args, &mut out, &mut err),
        Command::Convert(args) => convert::run(&args, &mut out, &mut err),
        Command::Completions(args) => completions::run(&args, &mut out),
    };
    let _ = out.flush();
    let _ = err.flush();
    code
}

/// A command-line problem found after parsing (a bad `--slice`, an unreadable file): the
/// message on stderr, exit status 2.
pub(crate) fn usage_error(err: &mut dyn Write, message: &str) -> ExitCode {
    let _ = writeln!(err, "{}: {message}", style::err(style::ERROR, "error"));
    ExitCode::from(2)
}

/// Writes a line, ignoring a closed pipe (`xla-layout check | head`).
pub(crate) fn emit(out: &mut dyn Write, line: &str) {
    let _ = writeln!(out, "{line}");
}
