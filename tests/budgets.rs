//! Every command keeps its time, however slow the script: each case of issue #29 with a
//! generous bound (the budget's 1.5 times and 0.3 s is the aim; these allow for a loaded
//! machine). Before the fix they took 13 to 75 seconds. The state nested 500 deep is measured
//! in processor time (the machine's load does not change it).

mod common;

use std::time::{Duration, Instant};

use boardrules::{
    runtime::Game,
    script::{game::HookReferee, Library, ScriptedGame},
};
use common::{boardrules, stdout};

/// Runs an isolated `boardrules ARGS…`, which must succeed, and returns how long it took.
fn timed(args: &[&str]) -> Duration {
    let begun = Instant::now();
    boardrules().args(args).assert().success();
    begun.elapsed()
}

#[test]
fn a_hint_keeps_its_time_when_native_takes_0_4_s() {
    let game = "tests/fixtures/budget/slow_native.rhai";
    let took = timed(&["hint", game, "--level", "hard", "--time-ms", "300", "9h"]);
    assert!(took < Duration::from_secs(3), "{took:?} (37 s before)");
}

#[test]
fn a_hint_renders_no_snapshot() {
    // Five moves given, each emitting 30 events whose snapshots render a megabyte each.
    let game = "tests/fixtures/budget/big_snapshots.rhai";
    let args = [
        "hint",
        game,
        "--time-ms",
        "300",
        "9h",
        "9i",
        "9j",
        "9k",
        "9l",
    ];
    let took = timed(&args);
    assert!(took < Duration::from_secs(3), "{took:?}");
}

#[test]
fn check_keeps_its_seconds_when_play_is_slow() {
    let game = "tests/fixtures/budget/slow_play.rhai";
    let took = timed(&["check", game, "--seconds", "1"]);
    assert!(took < Duration::from_secs(4), "{took:?}");
}

#[test]
fn bench_keeps_its_seconds_when_play_is_slow() {
    let game = "tests/fixtures/budget/slow_play.rhai";
    let took = timed(&["bench", game, "--seconds", "1"]);
    assert!(took < Duration::from_secs(4), "{took:?} (13 s before)");
}

#[test]
fn a_native_form_stopped_by_the_time_is_no_verdict() {
    // Verifying the slow native() is cut short by the hint's time: that is no disagreement.
    let home = tempfile::tempdir().unwrap();
    let game = "tests/fixtures/budget/slow_native.rhai";
    let args = ["hint", game, "--level", "hard", "--time-ms", "300", "9h"];
    let ran = common::run(&home, &args, "");
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        !ran.stderr.contains("does not describe the same game"),
        "{}",
        ran.stderr
    );
    // The moves are screened through the script first: when that leaves no time (two such
    // commands at once on two cores do it about one run in five), the hint says so and
    // verification is never begun, so there is no verdict to report.
    let never_begun = ran.stdout.contains("no time to think");
    assert!(
        never_begun || ran.stderr.contains("no verdict"),
        "{}\n{}",
        ran.stdout,
        ran.stderr
    );
}

/// The processor time (user and system) an isolated `boardrules ARGS…` takes; it must succeed.
#[cfg(unix)]
#[allow(clippy::zombie_processes)] // the child is waited for by `wait4`, which clippy does not see
fn cpu_time(args: &[&str]) -> Duration {
    let home = tempfile::tempdir().unwrap();
    let mut cmd = std::process::Command::new(common::BIN);
    common::isolate(&mut cmd, home.path())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let child = cmd.spawn().unwrap();
    let (mut status, mut usage) = (0, unsafe { std::mem::zeroed::<libc::rusage>() });
    // SAFETY: waits for our own child, writing into the two locals (wait4 rather than
    // `Child::wait` for this child's own usage: other tests' children run meanwhile).
    let waited = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(waited, child.id() as libc::pid_t);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{args:?} failed"
    );
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

#[cfg(unix)]
#[test]
fn a_hint_keeps_its_time_when_the_state_is_nested_500_deep() {
    // Each play() copies the 95 500-value state 720 times (1.1 s) in fewer operations than a
    // call runs before it first looks at its clocks: copying is charged too. `run` with no move
    // loads the game (and shows it: 0.50 s); the hint may take 1.5 × 0.3 s more (it takes 0.27 s
    // in all). Before, the play() the search began ran on (1.25 s, and no hint: "the game is
    // over").
    let (searching, loading) = hint_beyond_loading("tests/fixtures/budget/deep_state.rhai");
    assert!(
        searching < Duration::from_millis(450),
        "{searching:?} beyond loading ({loading:?})"
    );
}

/// The processor time `hint GAME --level hard --time-ms 300` takes beyond loading the game
/// (`run GAME`, which loads and shows it), and the loading's.
#[cfg(unix)]
fn hint_beyond_loading(game: &str) -> (Duration, Duration) {
    let loading = cpu_time(&["run", game]);
    let hint = cpu_time(&["hint", game, "--level", "hard", "--time-ms", "300"]);
    (hint.saturating_sub(loading), loading)
}

#[cfg(unix)]
#[test]
fn a_hint_searching_by_alpha_beta_keeps_its_time_when_the_state_is_nested_500_deep() {
    // deep_state.rhai with an evaluation: alpha-beta copies the state in every play() and
    // hashes every position it meets (each hash reads the 95 500 values whole).
    let game = "tests/fixtures/budget/deep_state_searched.rhai";
    let (searching, loading) = hint_beyond_loading(game);
    assert!(
        searching < Duration::from_millis(450),
        "{searching:?} beyond loading ({loading:?})"
    );
}

#[cfg(unix)]
#[test]
fn a_hint_keeps_its_time_when_hashing_the_state_is_slow() {
    // The state holds 100 copies of a 1000×1000 grid: copying it costs nothing (the copies
    // share their cells), hashing it reads 100 million cells (0.8 s). Verifying the native form
    // hashes the position, and alpha-beta (the script has an `evaluate`) every position it
    // meets. Before hashes looked at the command's time, 2.4 s of processor time (5 s by the
    // clock); the aim is the time's 1.5 times and 0.3 s.
    let (searching, loading) = hint_beyond_loading("tests/fixtures/budget/wide_state.rhai");
    assert!(
        searching < Duration::from_millis(750),
        "{searching:?} beyond loading ({loading:?})"
    );
}

#[test]
fn a_hint_with_no_time_to_look_ahead_says_what_took_the_time() {
    // Hashing each position (wide_state.rhai) or playing each move (slow_play_searched.rhai,
    // 0.15 s a play) takes the time, not the evaluation (0 at once). Before, both blamed "the
    // rules' score".
    let reason = |game: &str| {
        let out = stdout(["hint", game, "--level", "hard", "--time-ms", "300"]);
        out.lines().nth(1).unwrap_or_default().to_string()
    };
    let hashing = reason("tests/fixtures/budget/wide_state.rhai");
    assert!(
        hashing.starts_with("no time to look ahead (the state is too large to hash in the time)"),
        "{hashing}"
    );
    let playing = reason("tests/fixtures/budget/slow_play_searched.rhai");
    assert!(
        playing.starts_with("no time to look ahead (the rules' play is slow to work out)"),
        "{playing}"
    );
}

#[test]
fn a_move_filter_reading_the_state_keys_its_answers_within_the_time() {
    // The filter's answers are kept under the state's hash, which stops at the command's time
    // like the search's (100 million cells: 0.8 s of processor time to hash whole).
    let library = Library::with_rules_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
    let game = ScriptedGame::load(&library, "tests/fixtures/budget/wide_filtered.rhai")
        .unwrap_or_else(|d| panic!("{}", d[0]));
    assert!(game.move_filter().is_some_and(|f| f.reads_state));
    let state = game.start().unwrap();
    let _past = boardrules::cancel::calls_until(Some(Instant::now()));
    let begun = Instant::now();
    drop(HookReferee::new(&game, &state));
    let took = begun.elapsed();
    assert!(took < Duration::from_millis(400), "{took:?}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_during_a_hint_through_a_slow_native_is_back_at_the_prompt_at_once() {
    // `hard` thinks 5 s a move here, through a native() of 0.4 s a call (75 s with no prompt
    // before the command's calls looked at Ctrl-C). The aim is 0.5 s; the bound allows for a
    // loaded machine.
    use expectrl::{ControlCode, Eof, Expect};
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = std::process::Command::new(common::BIN);
    common::isolate(&mut cmd, dir.path())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["play", "tests/fixtures/budget/slow_native_long_hint.rhai"])
        .env("TERM", "xterm");
    let mut p = expectrl::session::Session::spawn(cmd).unwrap();
    p.set_expect_timeout(Some(Duration::from_secs(30)));
    p.expect("(X to move)> ").unwrap();
    p.send("9h\r").unwrap();
    p.expect("(O to move)> ").unwrap();
    p.send("hint hard\r").unwrap();
    std::thread::sleep(Duration::from_secs(1));
    let sent = Instant::now();
    p.send(ControlCode::EndOfText).unwrap();
    p.expect("search cancelled (Ctrl-C)").unwrap();
    p.expect("(O to move)> ").unwrap();
    let took = sent.elapsed();
    assert!(took < Duration::from_secs(2), "{took:?}");
    p.send("quit\r").unwrap();
    p.expect(Eof).unwrap();
}
