//! Hostile inputs and bots (issue 17): files that are devices, FIFOs or symlinks, lines that are
//! not UTF-8, absurd protocol numbers, saves over things that are not files, scripts and bots
//! that try to take over the terminal, and bots that try to outlive their move, hang the referee
//! or write outside their folder. Every case must end within seconds with a clear error, never a
//! panic. The scripts and bots are in `tests/hostile/`.

mod common;

use std::{
    path::{Path, PathBuf},
    process::Output,
    time::{Duration, Instant},
};

use assert_cmd::Command;

/// The most any case may take; a hang fails the test instead of stalling the suite.
const LIMIT: Duration = Duration::from_secs(20);

/// A boardrules process with its own config folder and history file, and no colour.
fn boardrules(home: &Path) -> Command {
    let mut cmd = std::process::Command::new(common::BIN);
    common::isolate(&mut cmd, home).current_dir(env!("CARGO_MANIFEST_DIR"));
    let mut cmd = Command::from_std(cmd);
    cmd.timeout(LIMIT);
    cmd
}

/// Runs `args` with `input` on stdin; returns stdout, stderr and the exit code, checking that
/// it ended in time and did not panic.
fn run(home: &Path, args: &[&str], input: &[u8]) -> (String, String, Option<i32>) {
    let started = Instant::now();
    let out: Output = boardrules(home)
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        started.elapsed() < LIMIT,
        "{args:?} took {:?}",
        started.elapsed()
    );
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    (stdout, stderr, out.status.code())
}

fn hostile(path: &str) -> String {
    format!("{}/tests/hostile/{path}", env!("CARGO_MANIFEST_DIR"))
}

#[cfg(unix)]
fn fifo(dir: &Path) -> PathBuf {
    let path = dir.join("fifo");
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) with a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    path
}

// ---- reading paths: regular files only, with a size cap ----

#[cfg(unix)]
#[test]
fn positions_scripts_and_traces_that_are_devices_or_fifos_are_refused_at_once() {
    let home = tempfile::tempdir().unwrap();
    let fifo = fifo(home.path());
    let fifo = fifo.to_str().unwrap();
    let at_fifo = format!("@{fifo}");
    for (args, expect) in [
        (
            vec!["run", "caro", "--position", "@/dev/zero"],
            "/dev/zero: is a character device, not a regular file",
        ),
        (
            vec!["run", "caro", "--position", &at_fifo],
            "is a FIFO, not a regular file",
        ),
        (
            vec!["run", "/dev/zero"],
            "cannot read rules script /dev/zero: is a character device",
        ),
        (vec!["test", fifo], "is a FIFO, not a regular file"),
    ] {
        let (_, err, code) = run(home.path(), &args, b"");
        assert_eq!(code, Some(1), "{args:?}: {err}");
        assert!(err.contains(expect), "{args:?}: {err}");
    }
}

#[test]
fn a_position_file_over_the_size_cap_is_refused_with_its_size() {
    let home = tempfile::tempdir().unwrap();
    let big = home.path().join("big.txt");
    let file = std::fs::File::create(&big).unwrap();
    file.set_len(5 << 20).unwrap();
    let position = format!("@{}", big.display());
    let (_, err, code) = run(home.path(), &["run", "caro", "--position", &position], b"");
    assert_eq!(code, Some(1));
    assert!(
        err.contains("holds 5.0 MiB, more than the 4.0 MiB allowed"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn repl_load_replay_and_variant_of_devices_and_fifos_fail_and_change_nothing() {
    let home = tempfile::tempdir().unwrap();
    let fifo = fifo(home.path());
    let input = format!(
        "9h\nload /dev/zero\nload {f}\nreplay @/dev/zero\nreplay @{f}\nvariant /dev/zero\nvariant {f}\nhistory\n",
        f = fifo.display()
    );
    let (out, err, code) = run(home.path(), &["play", "caro"], input.as_bytes());
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(err.matches("is a character device").count(), 3, "{err}");
    assert_eq!(err.matches("is a FIFO").count(), 3, "{err}");
    assert!(out.contains("  1. X 9h\nmoves: 9h\n"), "{out}");
}

// ---- input lines that must not end or change things ----

#[test]
fn an_invalid_utf8_line_is_reported_and_the_piped_repl_goes_on() {
    let home = tempfile::tempdir().unwrap();
    let (out, err, code) = run(
        home.path(),
        &["play", "caro"],
        b"9h\n\xff\xfe 10h\n10h\nhistory\n",
    );
    assert_eq!(code, Some(1), "a bad line is a failure of the session");
    assert!(
        err.contains("input line 2: the line is not UTF-8 text (byte 1 is not valid)"),
        "{err}"
    );
    assert!(
        out.contains("  1. X 9h\n  2. O 10h\nmoves: 9h 10h\n"),
        "{out}"
    );
}

#[test]
fn the_gomocup_brain_answers_an_invalid_line_with_an_error_and_goes_on() {
    let home = tempfile::tempdir().unwrap();
    let (out, _, code) = run(home.path(), &["gomocup", "caro"], b"\xc3\x28\nABOUT\nEND\n");
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("ERROR the line is not UTF-8"), "{out}");
    assert!(lines[1].starts_with("name=\"boardrules\""), "{out}");
}

#[test]
fn an_absurd_turn_time_is_refused_and_begin_still_answers() {
    let home = tempfile::tempdir().unwrap();
    let input = b"INFO timeout_turn 200\nINFO timeout_turn 18446744073709551615\nINFO timeout_turn 99999999999999999999\nSTART 15\nBEGIN\nEND\n";
    let started = Instant::now();
    let (out, _, code) = run(home.path(), &["gomocup", "caro"], input);
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "ERROR INFO timeout_turn 18446744073709551615: more than a day (86400000 ms); keeping 200 ms"
    );
    assert_eq!(
        lines[1],
        "ERROR INFO timeout_turn 99999999999999999999: more than a day (86400000 ms); keeping 200 ms"
    );
    assert_eq!(lines[2], "OK", "{out}");
    assert!(
        lines.last().unwrap().contains(','),
        "BEGIN answers a move: {out}"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

// ---- saves ----

#[cfg(unix)]
#[test]
fn a_save_never_replaces_a_device_or_a_symlink() {
    let home = tempfile::tempdir().unwrap();
    let target = home.path().join("precious.txt");
    std::fs::write(&target, "keep me").unwrap();
    let link = home.path().join("link.toml");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let input = format!("9h\nsave /dev/null\nsave {}\n", link.display());
    let (_, err, code) = run(home.path(), &["play", "caro"], input.as_bytes());
    assert_eq!(code, Some(1));
    assert!(
        err.contains("/dev/null is a character device: a save only replaces a regular file"),
        "{err}"
    );
    assert!(
        err.contains("link.toml is a symbolic link: a save only replaces a regular file"),
        "{err}"
    );
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
    let null = std::fs::metadata("/dev/null").unwrap().file_type();
    assert!(std::os::unix::fs::FileTypeExt::is_char_device(&null));
}

#[test]
fn temporary_files_left_by_a_killed_save_are_cleaned_on_the_next_save_and_load() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("saves");
    std::fs::create_dir(&dir).unwrap();
    // What `kill -9` in the middle of a save leaves: a temporary file of a process that is gone.
    let stale = |n: u32| dir.join(format!(".boardrules-save-4294967295-kill{n}.tmp"));
    std::fs::write(stale(1), "half a sa").unwrap();
    let mine = dir.join("notes.tmp");
    std::fs::write(&mine, "not ours").unwrap();
    let game = dir.join("g.toml");
    let input = format!("9h\nsave {}\n", game.display());
    let (_, err, code) = run(home.path(), &["play", "caro"], input.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    assert!(!stale(1).exists() && mine.exists());
    std::fs::write(stale(2), "half").unwrap();
    let input = format!("load {}\n", game.display());
    let (out, err, code) = run(home.path(), &["play", "caro"], input.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("loaded 1 move "), "{out}");
    assert!(!stale(2).exists() && mine.exists());
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".tmp") && n != "notes.tmp")
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn saves_killed_mid_write_leave_a_loadable_file_and_no_temporary_files() {
    use std::io::Write;
    let home = tempfile::tempdir().unwrap();
    let game = home.path().join("g.toml");
    let save = format!("save {}\n", game.display());
    let (_, err, code) = run(
        home.path(),
        &["play", "caro"],
        format!("9h\n{save}").as_bytes(),
    );
    assert_eq!(code, Some(0), "{err}");
    let saves = format!("9h\n{}", save.repeat(2000));
    for i in 0..12u64 {
        let mut cmd = std::process::Command::new(common::BIN);
        let mut child = common::isolate(&mut cmd, home.path())
            .args(["play", "caro"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let input = saves.clone();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        std::thread::sleep(Duration::from_millis(60 + 17 * i));
        child.kill().unwrap(); // SIGKILL, at some point of some save
        child.wait().unwrap();
        let _ = writer.join();
    }
    let input = format!("load {}\nsave {}\n", game.display(), game.display());
    let (out, err, code) = run(home.path(), &["play", "caro"], input.as_bytes());
    assert_eq!(code, Some(0), "the file stays loadable: {err}");
    assert!(out.contains("loaded 1 move "), "{out}");
    let others: Vec<_> = std::fs::read_dir(home.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !["g.toml", "config", "history.txt"].contains(&n.as_str()))
        .collect();
    assert!(others.is_empty(), "{others:?}");
}

// ---- the terminal stays ours ----

/// Whether `text` holds anything a terminal would obey: ESC, BEL, CR, a C1 control, or a bidi
/// override.
fn has_terminal_commands(text: &str) -> bool {
    text.chars().any(|c| {
        matches!(c, '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}')
            || ('\u{202a}'..='\u{202e}').contains(&c)
            || ('\u{2066}'..='\u{2069}').contains(&c)
    })
}

#[test]
fn script_text_is_escaped_in_run_json_check_and_errors() {
    let home = tempfile::tempdir().unwrap();
    let script = hostile("scripts/terminal_tricks.rhai");
    let (out, err, code) = run(home.path(), &["run", &script, "2", "9"], b"");
    assert_eq!(code, Some(1));
    assert!(!has_terminal_commands(&out) && !has_terminal_commands(&err));
    assert!(
        out.contains("\\u{1b}[2J\\u{1b}[Hpile: ||| (3)\\u{d}*\\u{1b}[7m"),
        "{out}"
    );
    assert!(out.contains("* took 2\\u{202e}\\u{1b}[31m"), "{out}");
    assert!(
        err.contains("\\u{1b}]8;;http://evil.example\\u{1b}\\\\click"),
        "{err}"
    );
    let (out, err, code) = run(home.path(), &["run", &script, "--json", "2"], b"");
    assert_eq!(code, Some(0), "{err}");
    assert!(!has_terminal_commands(&out), "{out:?}");
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v["state"].as_str().unwrap().contains("\\u{1b}[2J"));
    }
    let (out, err, code) = run(home.path(), &["check", &script], b"");
    assert_eq!(code, Some(0), "{err}");
    assert!(!has_terminal_commands(&out), "{out:?}");
    assert!(out.contains("players: A\\u{1b}]52;c;"), "{out}");
}

#[test]
fn script_text_is_escaped_in_the_repl_with_its_own_colours_kept() {
    let home = tempfile::tempdir().unwrap();
    let script = hostile("scripts/terminal_tricks.rhai");
    let (out, err, _) = run(
        home.path(),
        &["play", &script],
        b"2\nexplain\nx7\n9\nhistory\nhint\n",
    );
    assert!(!has_terminal_commands(&out), "{out:?}");
    assert!(!has_terminal_commands(&err), "{err:?}");
    assert!(out.contains("! \\u{1b}[5mblink\\u{9b}31m"), "{out}");
    assert!(out.contains("B\\u{202e}reversed"), "{out}");
    assert!(err.contains("\\u{1b}[2J'x7' is not a number"), "{err}");
    assert!(err.contains("\\u{1b}]8;;http://evil.example"), "{err}");
    // With colours on, the runtime's own styling still reaches the terminal.
    std::fs::create_dir_all(home.path().join("config")).unwrap();
    let (out, _, _) = run(home.path(), &["play", &script], b"color on\n2\n");
    assert!(
        out.contains("\u{1b}[33m*"),
        "the REPL's own colours: {out:?}"
    );
    assert!(out.contains("\\u{1b}"), "{out:?}");
    // The only escape sequences that reach the terminal are the REPL's colours (SGR: ESC [ … m).
    for (i, _) in out.match_indices('\u{1b}') {
        let sgr = out[i + 1..].strip_prefix('[').and_then(|rest| {
            let end = rest.find(|c: char| !c.is_ascii_digit() && c != ';')?;
            (rest.as_bytes()[end] == b'm').then_some(())
        });
        assert!(sgr.is_some(), "a raw escape at {i}: {out:?}");
    }
}

// ---- the referee and its bots ----

/// Runs one game of five_step between `bot` (player 1) and the computer.
fn referee(home: &Path, bot: &str, extra: &[(&str, &str)]) -> (String, String, Option<i32>) {
    let started = Instant::now();
    let mut cmd = boardrules(home);
    cmd.args([
        "referee",
        "five_step",
        "--p1",
        &hostile(bot),
        "--p2",
        "builtin:easy",
        "--games",
        "1",
        "--timeout-ms",
        "3000",
    ]);
    for (k, v) in extra {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(started.elapsed() < LIMIT);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
        out.status.code(),
    )
}

#[test]
fn the_referee_refuses_a_game_that_is_not_for_two_players() {
    let home = tempfile::tempdir().unwrap();
    let (_, err, code) = run(
        home.path(),
        &[
            "referee",
            "o_an_quan",
            "-o",
            "players=3",
            "--p1",
            "builtin:easy",
            "--p2",
            "builtin:easy",
        ],
        b"",
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(
            "the referee plays two-player games, and o_an_quan with these options has 3 players"
        ),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn a_play_txt_that_is_a_fifo_a_device_link_or_huge_loses_at_once() {
    for (bot, why) in [
        (
            "bots/fifo_play.sh",
            "wrote a play.txt that is a FIFO, not a regular file",
        ),
        (
            "bots/zero_link.sh",
            "wrote a play.txt that is a symbolic link",
        ),
        (
            "bots/sparse_play.sh",
            "wrote a play.txt that holds 6.0 GiB, more than the 64.0 KiB allowed",
        ),
    ] {
        let home = tempfile::tempdir().unwrap();
        let (out, err, code) = referee(home.path(), bot, &[]);
        assert_eq!(code, Some(0), "{bot}: {err}");
        assert!(
            out.contains(&format!("p2 (builtin:easy) wins: player 1 {why}")),
            "{bot}: {out}"
        );
    }
}

#[test]
fn a_bots_play_txt_is_echoed_escaped() {
    let home = tempfile::tempdir().unwrap();
    let (out, _, _) = referee(home.path(), "bots/terminal_play.sh", &[]);
    assert!(!has_terminal_commands(&out), "{out:?}");
    assert!(
        out.contains("played '\\u{1b}[2J\\u{1b}]0;owned\\u{7} 9z'"),
        "{out}"
    );
}

/// Whether a process whose command line contains `token` is running.
#[cfg(target_os = "linux")]
fn running(token: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().any(|e| {
        std::fs::read(e.path().join("cmdline")).is_ok_and(|c| {
            String::from_utf8_lossy(&c)
                .replace('\0', " ")
                .contains(token)
        })
    })
}

#[cfg(target_os = "linux")]
#[test]
fn processes_a_bot_leaves_behind_die_with_its_move_even_after_setsid() {
    let home = tempfile::tempdir().unwrap();
    let token = format!("31.{}", std::process::id());
    let (out, err, code) = referee(
        home.path(),
        "bots/escaped_child.sh",
        &[("HOSTILE_TOKEN", &token)],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("totals over 1 game:"), "{out}");
    assert!(
        !running(&format!("sleep {token}")),
        "a bot's process survived"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_bot_cannot_write_outside_its_folder_where_the_kernel_has_landlock() {
    let home = tempfile::tempdir().unwrap();
    let (out, err, _) = referee(home.path(), "bots/write_outside.sh", &[]);
    if err.contains("no Landlock") {
        eprintln!("skipped: this kernel has no Landlock");
        return;
    }
    assert!(
        !out.contains("played 'escaped'"),
        "the bot wrote outside: {out}"
    );
    // The bot ran and played its legal first move; its second, the same path, is illegal.
    assert!(
        out.contains("player 1 played '0 0 0 1': (0,0) is not a piece of player 1; 2 plies"),
        "{out}"
    );
}

#[cfg(unix)]
#[test]
fn a_history_file_that_is_a_fifo_does_not_hang_the_terminal_repl() {
    use expectrl::{Eof, Expect};
    let home = tempfile::tempdir().unwrap();
    let history = fifo(home.path());
    let mut cmd = std::process::Command::new(common::BIN);
    common::isolate(&mut cmd, home.path())
        .args(["play", "caro", "-o", "size=5"])
        .env("TERM", "xterm")
        .env("BOARDRULES_HISTORY", &history);
    let mut p = expectrl::session::Session::spawn(cmd).unwrap();
    p.set_expect_timeout(Some(LIMIT));
    p.expect("caro (X to move)> ").unwrap();
    p.send("quit\r").unwrap();
    p.expect(Eof).unwrap();
    let kind = std::fs::symlink_metadata(&history).unwrap().file_type();
    assert!(
        std::os::unix::fs::FileTypeExt::is_fifo(&kind),
        "still a FIFO"
    );
}
