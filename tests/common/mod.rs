//! What every test that runs the binary shares: a command that never sees the user's settings,
//! history or saved games, and never colours.
#![allow(dead_code)] // each test file uses its part

pub mod server;

use std::{
    ops::{Deref, DerefMut},
    path::Path,
};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_boardrules");

/// Points a run of the binary at `home` for everything it remembers (config folder, line
/// history, autosaved game, the data and config folders of the platform) and turns colour off, so a test
/// passes whatever `lang`, `theme` or `color` the person running it chose.
pub fn isolate<'c>(
    cmd: &'c mut std::process::Command,
    home: &Path,
) -> &'c mut std::process::Command {
    cmd.env("BOARDRULES_CONFIG_DIR", home.join("config"))
        .env("BOARDRULES_HISTORY", home.join("history.txt"))
        .env("BOARDRULES_DATA_DIR", home.join("data"))
        .env("XDG_CONFIG_HOME", home.join("xdg-config"))
        .env("XDG_DATA_HOME", home.join("xdg-data"))
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
}

/// `boardrules`, isolated in its own temporary folder (kept as long as the command), run from
/// the crate's root.
pub struct Boardrules {
    cmd: assert_cmd::Command,
    home: tempfile::TempDir,
}

/// A new isolated `boardrules` command.
pub fn boardrules() -> Boardrules {
    let home = tempfile::tempdir().expect("a temporary folder");
    let mut cmd = std::process::Command::new(BIN);
    isolate(&mut cmd, home.path()).current_dir(env!("CARGO_MANIFEST_DIR"));
    Boardrules {
        cmd: assert_cmd::Command::from_std(cmd),
        home,
    }
}

/// Runs an isolated `boardrules ARGS…`, which must succeed, and returns its stdout.
pub fn stdout<S: AsRef<std::ffi::OsStr>>(args: impl IntoIterator<Item = S>) -> String {
    let out = boardrules().args(args).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).expect("UTF-8 output")
}

impl Boardrules {
    /// The command's own folder (its config folder is `config/` in it).
    pub fn home(&self) -> &Path {
        self.home.path()
    }
}

impl Deref for Boardrules {
    type Target = assert_cmd::Command;
    fn deref(&self) -> &Self::Target {
        &self.cmd
    }
}

impl DerefMut for Boardrules {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.cmd
    }
}

/// An isolated `boardrules` command whose remembered files live in `home`, run from the crate's
/// root (for tests that look into that folder afterwards).
pub fn boardrules_in(home: &tempfile::TempDir) -> assert_cmd::Command {
    let mut cmd = std::process::Command::new(BIN);
    isolate(&mut cmd, home.path()).current_dir(env!("CARGO_MANIFEST_DIR"));
    assert_cmd::Command::from_std(cmd)
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

/// Runs `boardrules ARGS…` isolated in `home`, with `input` on stdin.
pub fn run(home: &tempfile::TempDir, args: &[&str], input: &str) -> Ran {
    let out = boardrules_in(home)
        .args(args)
        .write_stdin(input)
        .output()
        .expect("the binary runs");
    Ran {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).expect("UTF-8 output"),
        stderr: String::from_utf8(out.stderr).expect("UTF-8 errors"),
    }
}

/// The path of fixture `name` (`tests/fixtures/NAME.rhai`).
pub fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}.rhai", env!("CARGO_MANIFEST_DIR"))
}
