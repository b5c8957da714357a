//! One source of legality: a move from a person or a file (command line, REPL, saves, traces)
//! must be among the script's `moves()`; a listed move that `play()` refuses is a bug in the
//! script, reported at `fn play`.

mod common;

use common::{boardrules_in, run};
use predicates::prelude::*;

const NO_H: &str = "tests/fixtures/caro_no_h.rhai";

#[test]
fn run_refuses_a_move_play_accepts_but_moves_does_not_list() {
    let home = tempfile::tempdir().unwrap();
    boardrules_in(&home)
        .args(["run", NO_H, "9g", "9h"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("> 9g\n").and(predicate::str::contains("> 9h").not()))
        .stderr(predicate::str::contains(
            "9h is not among the legal moves (nearest: 9i, 9f, 9j)",
        ));
    // The same move is fine in the base game.
    boardrules_in(&home)
        .args(["run", "caro", "9g", "9h"])
        .assert()
        .success();
}

#[test]
fn moves_and_hint_arguments_are_checked_too() {
    let home = tempfile::tempdir().unwrap();
    let out = boardrules_in(&home)
        .args(["moves", NO_H])
        .assert()
        .success();
    let listed = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(listed.lines().count(), 210);
    assert!(!listed.lines().any(|m| m.ends_with('h')));
    for cmd in ["moves", "hint"] {
        boardrules_in(&home)
            .args([cmd, NO_H, "1h"])
            .assert()
            .code(1)
            .stderr(predicate::str::contains("1h is not among the legal moves"));
    }
}

#[test]
fn play_keeps_its_own_message_for_a_move_it_refuses() {
    let home = tempfile::tempdir().unwrap();
    boardrules_in(&home)
        .args(["run", "caro", "9h", "9h"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("9h is already taken"));
}

#[test]
fn a_listed_move_that_play_refuses_is_a_bug_at_fn_play() {
    let home = tempfile::tempdir().unwrap();
    boardrules_in(&home)
        .args(["run", "tests/fixtures/refuses_later.rhai", "4d", "1a"])
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("moves() lists 1a, but play() refuses it")
                .and(predicate::str::contains("refuses_later.rhai:12:1"))
                .and(predicate::str::contains("fn play(state, mv)")),
        );
}

#[test]
fn the_repl_refuses_an_unlisted_move_and_keeps_the_game() {
    let home = tempfile::tempdir().unwrap();
    let ran = run(&home, &["play", NO_H], "9g\n9h\n9i\nhistory\n");
    assert!(
        ran.stderr.contains("9h is not among the legal moves"),
        "{}",
        ran.stderr
    );
    assert!(ran.stdout.contains("moves: 9g 9i"), "{}", ran.stdout);
}

#[test]
fn a_trace_with_an_unlisted_move_expects_the_error() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("no_h.trace");
    std::fs::write(
        &file,
        format!(
            "game: {}/{NO_H}\n> 9g\n> 9h\nerror: not among the legal moves\n",
            env!("CARGO_MANIFEST_DIR")
        ),
    )
    .unwrap();
    boardrules_in(&home)
        .args(["test", file.to_str().unwrap()])
        .assert()
        .success();
}

#[test]
fn a_save_whose_move_the_rules_no_longer_list_is_refused() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("game.toml");
    boardrules_in(&home)
        .args(["play", "caro"])
        .write_stdin(format!("9g 9h\nsave {}\n", file.display()))
        .assert()
        .success();
    // The same game, loaded under the rules that forbid column h.
    let saved = std::fs::read_to_string(&file).unwrap();
    let no_h = format!("{}/{NO_H}", env!("CARGO_MANIFEST_DIR"));
    std::fs::write(
        &file,
        saved.replace("game = \"caro\"", &format!("game = \"{no_h}\"")),
    )
    .unwrap();
    boardrules_in(&home)
        .args(["play", "--load", file.to_str().unwrap()])
        .write_stdin("history\n")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("9h is not among the legal moves"));
}

#[test]
fn the_referee_refuses_an_unlisted_move_from_a_bot() {
    let home = tempfile::tempdir().unwrap();
    let ran = run(
        &home,
        &[
            "referee",
            NO_H,
            "--p1",
            "echo 9h > play.txt; true",
            "--p2",
            "builtin:easy",
            "--games",
            "1",
        ],
        "",
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        ran.stdout
            .contains("X played '9h': 9h is not among the legal moves"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains("p2 (builtin:easy) 1 win,"),
        "{}",
        ran.stdout
    );
}

#[test]
fn why_illegal_gives_the_reason_and_play_never_sees_an_unlisted_move() {
    let home = tempfile::tempdir().unwrap();
    let why = "tests/fixtures/caro_no_h_why.rhai";
    boardrules_in(&home)
        .args(["run", why, "9g", "9h"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("> 9g\n").and(predicate::str::contains("> 9h").not()))
        .stderr(predicate::str::contains(
            "column h is closed in this variant",
        ));
    // `()` from why_illegal: the runtime's own reason, not play's ("9g is already taken").
    boardrules_in(&home)
        .args(["run", why, "9g", "9g"])
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("9g is not among the legal moves")
                .and(predicate::str::contains("already taken").not()),
        );
}
