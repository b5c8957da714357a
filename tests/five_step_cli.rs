//! Five-step on the command line: `moves`, the class bot protocol, and the referee running
//! well-behaved and misbehaving bots.

mod common;
use common::BIN;
use predicates::prelude::*;

/// `boardrules`, isolated, with `$BOARDRULES` naming it for the example bots.
fn boardrules() -> common::Boardrules {
    let mut cmd = common::boardrules();
    cmd.env("BOARDRULES", BIN);
    cmd
}

const START_ARGS: [&str; 25] = [
    "1", "0", "0", "0", "2", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0",
    "0", "2", "0", "0", "0", "1",
];

fn legal_moves(position: &str, to_move: &str) -> Vec<String> {
    common::stdout([
        "moves",
        "five_step",
        "--to-move",
        to_move,
        "--position",
        position,
    ])
    .lines()
    .map(str::to_string)
    .collect()
}

#[test]
fn moves_lists_the_first_moves_in_the_referees_format() {
    let moves = legal_moves(&START_ARGS.join(" "), "1");
    assert!(moves.contains(&"0 0 0 1".to_string()));
    assert!(moves.contains(&"4 4 3 4 2 4 1 4 1 3 0 3".to_string()));
    assert!(moves
        .iter()
        .all(|m| m.starts_with("0 0 ") || m.starts_with("4 4 ")));
    let distinct: std::collections::BTreeSet<_> = moves.iter().collect();
    assert_eq!(distinct.len(), moves.len());
}

#[test]
fn the_bot_writes_a_legal_path_to_play_txt() {
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["bot", "five_step", "1102065", "1"];
    args.extend(START_ARGS);
    let start = std::time::Instant::now();
    boardrules()
        .current_dir(dir.path())
        .args(&args)
        .assert()
        .success();
    assert!(
        start.elapsed().as_millis() < 1000,
        "took {:?}",
        start.elapsed()
    );
    let text = std::fs::read_to_string(dir.path().join("play.txt")).unwrap();
    let line = text.strip_suffix('\n').expect("one line");
    let numbers: Vec<&str> = line.split(' ').collect();
    assert!(
        numbers.len().is_multiple_of(2) && (4..=12).contains(&numbers.len()),
        "{text:?}"
    );
    assert!(numbers
        .iter()
        .all(|n| n.len() == 1 && n.as_bytes()[0].is_ascii_digit()));
    assert!(legal_moves(&START_ARGS.join(" "), "1").contains(&line.to_string()));
}

#[test]
fn the_bot_reads_bad_boards_with_an_error() {
    let dir = tempfile::tempdir().unwrap();
    boardrules()
        .current_dir(dir.path())
        .args(["bot", "five_step", "x", "1", "1", "7", "0"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("'7' is not a cell"));
    assert!(!dir.path().join("play.txt").exists());
}

#[test]
fn the_referee_runs_the_bot_against_a_random_bot() {
    let out = boardrules()
        .args([
            "referee",
            "five_step",
            "--p1",
            "boardrules bot five_step --time-ms 50",
            "--p2",
            "examples/bots/random_bot.sh",
            "--games",
            "4",
        ])
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(stdout.matches("game ").count(), 4, "{stdout}");
    assert!(stdout.contains("game 2: p2 (examples/bots/random_bot.sh) starts"));
    let totals = stdout.lines().last().unwrap();
    assert!(totals.starts_with("totals over 4 games: p1"), "{totals}");
    assert!(
        !totals.contains(" 0 wins, p2"),
        "the bot never won: {stdout}"
    );
}

#[test]
fn a_bot_that_writes_garbage_loses() {
    boardrules()
        .args([
            "referee",
            "five_step",
            "--p1",
            "examples/bots/garbage_bot.sh",
            "--p2",
            "builtin:easy",
            "--games",
            "2",
        ])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("played 'hello referee'")
                .and(predicate::str::contains(
                    "p1 (examples/bots/garbage_bot.sh) 0 wins",
                ))
                .and(predicate::str::contains("p2 (builtin:easy) 2 wins")),
        );
}

#[test]
fn a_bot_that_is_too_slow_loses() {
    let start = std::time::Instant::now();
    boardrules()
        .args([
            "referee",
            "five_step",
            "--p1",
            "builtin:easy",
            "--p2",
            "examples/bots/slow_bot.sh",
            "--timeout-ms",
            "300",
            "--moves",
        ])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("player 2 took longer than 300 ms")
                .and(predicate::str::contains("p1 (builtin:easy) 1 win,")),
        );
    assert!(start.elapsed().as_secs() < 4, "the slow bot was not killed");
}

#[test]
fn the_bot_does_not_walk_into_the_seed_bots_trap() {
    let trap = "1 2 0 0 0 0 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1";
    let dir = tempfile::tempdir().unwrap();
    // Two plies (the bot's move and every reply) are enough to see the trap; deeper searches
    // may choose a trade instead.
    let mut args = vec!["bot", "five_step", "--max-depth", "2", "--time-ms", "20000"];
    args.extend(["1102065", "1"]);
    args.extend(trap.split(' '));
    boardrules()
        .current_dir(dir.path())
        .args(&args)
        .assert()
        .success();
    let text = std::fs::read_to_string(dir.path().join("play.txt")).unwrap();
    let path = text.trim();
    let end = &path[path.len() - 3..];
    // After the bot's move, no reply of player 2 captures the piece it moved.
    let out = boardrules()
        .args([
            "moves",
            "five_step",
            "--to-move",
            "1",
            "--position",
            trap,
            path,
        ])
        .assert()
        .success();
    let replies = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(!replies.is_empty());
    for reply in replies.lines() {
        assert!(
            !(reply.len() == 23 && reply.ends_with(end)),
            "{path} is captured by {reply}"
        );
    }
}
