//! Lines98 from the command line: a move from a position with a seed, the legal moves, an
//! unreachable destination, a whole game played through the REPL, and hints.

mod common;
use common::boardrules;
use predicates::prelude::*;

/// c1..c4 hold colour 3 (a line of 4), a ball of colour 3 waits at i5; the empty a1 is walled
/// in by the balls on a2 and b1.
const POSITION: &str = "\
.........
.........
.........
.........
........3
..3......
2.3......
1.3......
023......
next: 4 5 6  score: 2
";

#[test]
fn run_json_shows_the_clear_and_why() {
    let out = boardrules()
        .args([
            "run",
            "lines98",
            "--seed",
            "7",
            "--position",
            POSITION,
            "i5-c5",
            "--json",
        ])
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    let state = lines[1]["state"].as_str().unwrap();
    assert_eq!(
        state,
        "  a b c d e f g h i\n\
         9 . . . . . . . . . 9\n\
         8 . . . . . . . . . 8\n\
         7 . . . . . . . . . 7\n\
         6 . . . . . . . . . 6\n\
         5 . . . . . . . . . 5\n\
         4 . . . . . . . . . 4\n\
         3 2 . . . . . . . . 3\n\
         2 1 . . . . . . . . 2\n\
         1 . 2 . . . . . . . 1\n  \
         a b c d e f g h i\n\
         next: 4 5 6  score: 12"
    );
    let events: Vec<&str> = lines[1]["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert_eq!(
        events,
        [
            "ball 3 goes i5 h5 g5 f5 e5 d5 c5",
            "line of 5 of colour 3: c5 c4 c3 c2 c1",
            "5 balls clear: +10, score 12"
        ]
    );
    assert_eq!(lines[1]["to_move"], "player");
}

#[test]
fn moves_lists_every_reachable_destination_and_refuses_others() {
    let out = boardrules()
        .args(["moves", "lines98", "--position", POSITION])
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let moves: Vec<&str> = stdout.lines().collect();
    // Only a2 and b1 reach a1; every ball reaches the 72 other empty cells.
    let into_a1: Vec<&&str> = moves.iter().filter(|m| m.ends_with("-a1")).collect();
    assert_eq!(into_a1, [&"a2-a1", &"b1-a1"]);
    assert_eq!(moves.len(), 8 * 72 + 2);
    assert!(moves.contains(&"i5-c5"));
    boardrules()
        .args(["run", "lines98", "--position", POSITION, "i5-a1"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no free path from i5 to a1"));
}

#[test]
fn a_whole_game_plays_through_the_repl() {
    let session = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/sessions/lines98.txt"
    ))
    .unwrap();
    boardrules()
        .args(["play", "lines98"])
        .write_stdin(session)
        .assert()
        .success()
        .stdout(
            predicate::str::contains("result: draw")
                .and(predicate::str::contains("game over"))
                .and(predicate::str::contains(
                    "* square of 4 of colour 5: a4 a3 b3 b4",
                ))
                .and(predicate::str::contains("score: 16")),
        );
}

#[test]
fn hint_takes_the_sure_clear_and_says_why() {
    boardrules()
        .args([
            "hint",
            "lines98",
            "--position",
            POSITION,
            "--level",
            "easy",
            "--time-ms",
            "20000",
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "i5-c5\n5 balls clear: +10, score 12 (no luck involved; score +",
        ));
    // From the start nothing is certain: the reason is an average over tries of what luck may bring.
    boardrules()
        .args(["hint", "lines98", "--seed", "3", "--time-ms", "20000"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "on average over 256 tries of what luck may bring, looking 2 moves ahead",
        ));
}

#[test]
fn the_repl_hints_and_the_computer_plays_a_game_to_the_end() {
    // One player: `vs` hands that player to the computer after the next move. A small board
    // where only lines clear fills up in a few moves.
    let out = boardrules()
        .args(["play", "lines98", "--seed", "4", "-o", "size=6"])
        .args(["-o", "squares=off", "-o", "blocks=false"])
        .write_stdin("hint easy\nvs easy\ne4-a1\n")
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.contains("hint: ") && stdout.contains(" tries of what luck may bring")
            || stdout.contains("one try of what luck may bring"),
        "{stdout}"
    );
    assert!(
        stdout.contains("the computer plays player (easy)"),
        "{stdout}"
    );
    assert!(stdout.contains("(computer, easy: "), "{stdout}");
    assert!(stdout.contains("result: draw"), "{stdout}");
}
