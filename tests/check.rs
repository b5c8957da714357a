//! `boardrules check` property-tests a rules script: random games, every property after every
//! move, and on a failure the shortest move sequence found, printed as a trace file that
//! `boardrules test` replays.

mod common;

use std::time::{Duration, Instant};

use common::{boardrules_in, run};
use predicates::prelude::*;

/// Runs `check` with `args`; returns its exit code, stdout and stderr.
fn check(home: &tempfile::TempDir, args: &[&str]) -> (i32, String, String) {
    let ran = run(home, &[&["check"], args].concat(), "");
    (ran.code, ran.stdout, ran.stderr)
}

#[test]
fn every_shipped_script_passes() {
    let home = tempfile::tempdir().unwrap();
    for game in [
        "caro",
        "gomoku",
        "o_an_quan",
        "oware",
        "lines98",
        "color_lines",
        "five_step",
        "renju",
    ] {
        let (code, out, err) = check(&home, &[game, "--seconds", "0.5"]);
        assert_eq!(code, 0, "{game}: {err}");
        assert!(out.contains("every property holds"), "{game}: {out}");
        // No progress bar when stderr is not a terminal, and nothing else either.
        assert!(err.is_empty(), "{game}: {err}");
    }
}

#[test]
fn every_example_game_passes() {
    let home = tempfile::tempdir().unwrap();
    for game in ["connect_four", "othello", "breakthrough", "kalah", "hex"] {
        let script = format!("examples/games/{game}.rhai");
        let (code, out, err) = check(&home, &[&script, "--seconds", "0.5"]);
        assert_eq!(code, 0, "{game}: {err}");
        assert!(out.contains("every property holds"), "{game}: {out}");
    }
}

/// The newcomer-style benchmark scripts (`benches/newcomer/`, and those with profile's advice
/// taken, `benches/newcomer/hinted/`) play legal games.
#[test]
fn every_newcomer_script_passes() {
    let home = tempfile::tempdir().unwrap();
    for game in [
        "connect_four",
        "othello",
        "breakthrough",
        "kalah",
        "tic_tac_toe",
        "checkers",
        "hex",
        "dots_and_boxes",
        "tic_tac_toe_closures",
        "connect_four_closures",
        "connect_four_pointers",
        "hinted/checkers",
        "hinted/hex",
        "hinted/dots_and_boxes",
        "hinted/tic_tac_toe",
    ] {
        let script = format!("benches/newcomer/{game}.rhai");
        let (code, out, err) = check(&home, &[&script, "--seconds", "0.5"]);
        assert_eq!(code, 0, "{game}: {err}");
        assert!(out.contains("every property holds"), "{game}: {out}");
    }
}

#[test]
fn a_listed_move_that_play_refuses_later_is_found_and_shrunk_to_a_trace() {
    let home = tempfile::tempdir().unwrap();
    let (code, trace, err) = check(&home, &["tests/fixtures/refuses_later.rhai"]);
    assert_eq!(code, 1, "{trace}{err}");
    assert!(
        err.contains("moves() lists 1a, but play() refuses it"),
        "{err}"
    );
    // The report points at `fn play`, not at `fn players` or elsewhere.
    assert!(err.contains("refuses_later.rhai:12:1"), "{err}");
    // The shortest game: 4d, then the refused 1a (found after a longer random game).
    let moves: Vec<&str> = trace.lines().filter(|l| l.starts_with("> ")).collect();
    assert_eq!(moves, ["> 4d", "> 1a"], "{trace}");
    assert!(trace.contains("# (shrunk from "), "{trace}");
    assert!(trace.contains("game: tests/fixtures/refuses_later.rhai"));
    // Ready to paste: `boardrules test` replays it and fails the same way until play is fixed.
    let file = home.path().join("found.trace");
    std::fs::write(&file, &trace).unwrap();
    boardrules_in(&home)
        .args(["test", file.to_str().unwrap()])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("play() refuses it"));
}

#[test]
fn a_native_form_of_another_game_fails_check_with_its_moves() {
    let home = tempfile::tempdir().unwrap();
    let (code, trace, err) = check(&home, &["tests/fixtures/kalah_sowing.rhai"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("the native form disagrees with the script: "),
        "{err}"
    );
    assert!(err.contains("no native move gives that"), "{err}");
    // The fix is printed as `hint` prints it.
    assert!(
        err.contains("to use no native form in a variant, define `fn native(state) { () }`"),
        "{err}"
    );
    assert!(trace.lines().filter(|l| l.starts_with("> ")).count() >= 1);
    let (code, _, err) = check(&home, &["tests/fixtures/connect_four_placement.rhai"]);
    assert_eq!(code, 1);
    assert!(err.contains("42 moves against 7"), "{err}");
}

#[test]
fn a_to_move_that_is_no_player_is_reported() {
    let home = tempfile::tempdir().unwrap();
    let script = home.path().join("third.rhai");
    std::fs::write(
        &script,
        "import \"caro\" as base;\nfn to_move(state) { if state.board.count(0) < 220 { 2 } else { state.turn } }\n",
    )
    .unwrap();
    let (code, trace, err) = check(&home, &[script.to_str().unwrap(), "--games", "1"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("to_move() is a player"), "{err}");
    assert!(err.contains("not a player index"), "{err}");
    // Fewer than 220 empty cells takes six moves: the shortest failing game.
    assert_eq!(
        trace.lines().filter(|l| l.starts_with("> ")).count(),
        6,
        "{trace}"
    );
}

#[test]
fn games_seconds_and_seed_are_honoured() {
    let home = tempfile::tempdir().unwrap();
    let (code, out, _) = check(&home, &["oware", "--games", "2", "--seed", "5"]);
    assert_eq!(code, 0);
    assert!(out.contains("random games: 2 games"), "{out}");
    assert!(out.contains("(seed 5)"), "{out}");
    let (code, _, err) = check(&home, &["oware", "--seconds", "0"]);
    assert_eq!(code, 1);
    assert!(err.contains("--seconds must be more than 0"), "{err}");
}

#[test]
fn options_are_checked_as_given() {
    let home = tempfile::tempdir().unwrap();
    let script = "tests/fixtures/refuses_when_small.rhai";
    let (code, out, err) = check(&home, &[script, "--games", "3"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("size=15"), "{out}");
    // On a 7×7 board the bug is found, and the trace sets the option too.
    let (code, trace, err) = check(&home, &[script, "-o", "size=7", "--games", "20"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("every move moves() lists plays"), "{err}");
    assert!(trace.contains("option: size=7\n"), "{trace}");
    // A bad option is an error pointing at it.
    let (code, _, err) = check(&home, &["caro", "-o", "sise=9"]);
    assert_eq!(code, 1);
    assert!(err.contains("bad option"), "{err}");
}

#[test]
fn every_option_is_checked_with_options_all() {
    let home = tempfile::tempdir().unwrap();
    let script = "tests/fixtures/option_bug.rhai";
    let (code, out, err) = check(&home, &[script, "--seconds", "0.3"]);
    assert_eq!(code, 0, "the defaults pass: {out}{err}");
    let (code, out, err) = check(&home, &[script, "--options", "all", "--seconds", "0.3"]);
    assert_eq!(code, 1, "{out}{err}");
    // A spread of sizes around 7 (3 refused by setup), and the booleans' other values.
    for setting in ["-o size=6", "-o size=14", "-o block_rule=false"] {
        assert!(out.contains(&format!("== {setting}\n")), "{setting}: {out}");
    }
    assert!(
        out.contains(
            "== -o size=3\n  not checked: the script refuses it at the start (size must be 5 to 26, not 3)"
        ),
        "{out}"
    );
    assert!(out.contains("== -o trap_1a=true\n"), "{out}");
    assert!(err.contains("every move moves() lists plays"), "{err}");
    assert!(out.contains("option: trap_1a=true\n"), "{out}");
}

#[test]
fn the_floor_of_games_stretches_the_time_five_times_at_most() {
    // A play() of 0.2 s: the floor of 20 games or 2 000 positions would take hours (it ran for
    // hours before). The check plays for 3 s of CPU time, goes on towards the floor until
    // 15 s, and stops a call still running at 30 s by the clock however busy the machine; the
    // report says that it fell short.
    let home = tempfile::tempdir().unwrap();
    let begun = Instant::now();
    let (code, out, err) = check(&home, &["tests/fixtures/budget/slow_play.rhai"]);
    let took = begun.elapsed();
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("(fewer than the 20 games or 2000 positions a check aims at: the script is too slow for them in 15 s of CPU time or 30 s by the clock; `--games 20`"),
        "{out}"
    );
    assert!(took < Duration::from_secs(45), "{took:?}");
}
