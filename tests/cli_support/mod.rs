//! Running the `boardrules` binary hermetically in the tests of rules checking: its own config
//! folder and history in a temporary home, no colour, from the crate's folder.

#![allow(dead_code)] // each test binary uses its own part

use assert_cmd::Command;

/// A `boardrules` command whose config and history live in `home`.
pub fn boardrules(home: &tempfile::TempDir) -> Command {
    let mut cmd = Command::cargo_bin("boardrules").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("BOARDRULES_CONFIG_DIR", home.path())
        .env("BOARDRULES_HISTORY", home.path().join("history"))
        .env("NO_COLOR", "1");
    cmd
}

/// What a run printed.
pub struct Ran {
    /// The exit code (-1 if killed).
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

/// Runs `boardrules ARGS…` in `home`, with `input` on stdin.
pub fn run(home: &tempfile::TempDir, args: &[&str], input: &str) -> Ran {
    let out = boardrules(home)
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    Ran {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// The path of fixture `name` (`tests/fixtures/NAME.rhai`).
pub fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}.rhai", env!("CARGO_MANIFEST_DIR"))
}
