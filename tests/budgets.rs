//! Every command keeps its time, however slow the script: each case of issue #29 with a
//! generous bound (the budget's 1.5 times and 0.3 s is the aim; these allow for a loaded
//! machine). Before the fix they took 13 to 75 seconds. (A state nested 500 deep is kept by
//! the same stops, but no script built here was slow enough before to make it a test.)

mod common;

use std::time::{Duration, Instant};

use common::boardrules;

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
    assert!(ran.stderr.contains("no verdict"), "{}", ran.stderr);
}
