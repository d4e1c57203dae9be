//! `xla-layout completions <shell>`: a completion script for the shell, on stdout.

use std::io::Write;
use std::process::ExitCode;

use clap::CommandFactory;
use clap_complete::Shell;

use crate::Cli;

/// Print a shell completion script.
///
/// For example `xla-layout completions bash > ~/.local/share/bash-completion/completions/xla-layout`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The shell to write the script for.
    #[arg(value_enum)]
    shell: Shell,
}

/// Writes the script; always succeeds.
pub(crate) fn run(args: &Args, out: &mut dyn Write) -> ExitCode {
    clap_complete::generate(args.shell, &mut Cli::command(), "xla-layout", out);
    ExitCode::SUCCESS
}
