//! Running the `xla-layout` binary in the CLI tests.

use assert_cmd::Command;

/// The binary with a clean colour environment and a fixed help width.
pub(crate) fn cmd() -> Command {
    let mut c = Command::cargo_bin("xla-layout").unwrap();
    c.env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .env("COLUMNS", "100");
    c
}

/// What one run printed and its exit status.
pub(crate) struct Run {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

/// Runs the binary with `args` and `stdin`.
pub(crate) fn run(args: &[&str], stdin: &str) -> Run {
    let out = cmd().args(args).write_stdin(stdin).output().unwrap();
    Run {
        code: out.status.code().unwrap(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}
