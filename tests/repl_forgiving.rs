//! A REPL that forgives: a line of moves is all or nothing, commands that replace the game keep
//! the old one reachable, the computer's moves read like a person's. Piped sessions, each with
//! its own config folder, history file and data folder, and no colour.

use std::path::Path;

use assert_cmd::Command;

/// Runs `input` through `boardrules play ARGS` with everything kept in `dir`; returns stdout,
/// stderr and whether it succeeded.
fn session(dir: &Path, args: &[&str], input: &str) -> (String, String, bool) {
    let out = Command::cargo_bin("boardrules")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env("BOARDRULES_CONFIG_DIR", dir)
        .env("BOARDRULES_HISTORY", dir.join("history.txt"))
        .env("BOARDRULES_DATA_DIR", dir.join("data"))
        .arg("play")
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

#[test]
fn a_line_of_moves_is_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (out, err, ok) = session(
        dir.path(),
        &["caro"],
        "9h 10h 10h\nhistory\n9h 10h\nhistory\n",
    );
    assert!(!ok);
    assert!(err.contains("10h is already taken"), "{err}");
    assert!(
        !out.contains("> 9h\n") || out.find("> 9h\n") > out.find("no moves yet\n"),
        "nothing of the bad line was played: {out}"
    );
    assert!(out.contains("no moves yet\n"), "{out}");
    assert!(out.ends_with("moves: 9h 10h\n"), "{out}");
}

#[test]
fn against_the_computer_a_bad_line_changes_nothing_and_undo_gives_back_the_turn() {
    let dir = tempfile::tempdir().unwrap();
    let (out, err, ok) = session(
        dir.path(),
        &["caro", "--vs", "easy"],
        "9h 9h\nhistory\n9h\nhistory\nundo\nhistory\n",
    );
    assert!(!ok);
    assert!(err.contains("9h is already taken"), "{err}");
    let after_bad = &out[out.find("no moves yet\n").expect("nothing played") + 1..];
    // the good line: one move of X, one reply of O
    assert!(after_bad.contains("  1. X 9h\n  2. O "), "{after_bad}");
    // undo takes back the computer's reply and the move before it: X to move again
    assert!(out.contains("undid 2 moves\n"), "{out}");
    assert!(out.ends_with("no moves yet\n"), "{out}");
}

#[test]
fn the_computers_moves_show_their_events() {
    let dir = tempfile::tempdir().unwrap();
    let (out, err, ok) = session(dir.path(), &["oware", "--vs", "easy"], "go easy\n");
    assert!(ok, "{err}");
    // two computer moves (`go` for player 0, the reply for player 1), each with its sowing
    let sows = out.lines().filter(|l| l.starts_with("* sow ")).count();
    assert_eq!(sows, 2, "{out}");
    let first = out.find("> ").unwrap();
    let event = out.find("* sow ").unwrap();
    let said = out.find("(computer, easy: ").unwrap();
    assert!(first < event && event < said, "{out}");
}

#[test]
fn set_variant_new_and_a_replay_branch_can_be_undone() {
    let dir = tempfile::tempdir().unwrap();
    let input = "9h 10h\nset size=9\n1a\nundo\nundo\nhistory\n\
                 variant gomoku\nundo\nhistory\noptions\n\
                 new\nundo\nhistory\n\
                 replay\nn\n1a\nhistory\nundo\nundo\nhistory\n";
    let (out, err, ok) = session(dir.path(), &["caro"], input);
    assert!(ok, "{err}");
    assert_eq!(
        out.matches("(`undo` brings back the game before, with its 2 moves)")
            .count(),
        4,
        "{out}"
    );
    assert_eq!(out.matches("back to the game before: 2 moves\n").count(), 4);
    // each time the game is whole again, under its own rules and options
    assert_eq!(
        out.matches("  1. X 9h\n  2. O 10h\nmoves: 9h 10h\n")
            .count(),
        4
    );
    assert!(
        out.contains("  1. X 9h\n  2. O 1a\nmoves: 9h 1a\n"),
        "{out}"
    );
    assert!(out.contains("\nsize           15 "), "{out}");
    assert!(!out.contains("switched to Gomoku (freestyle)") || out.contains("exact          true"));
}

#[test]
fn clock_off_after_a_flag_fall_keeps_the_game_finished() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.toml");
    let (_, err, ok) = session(
        dir.path(),
        &["caro"],
        &format!("clock 5m\n9h\nsave {}\n", file.display()),
    );
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&file).unwrap();
    let flagged = text.replace(
        &text[text.find("remaining_ms").unwrap()..],
        "remaining_ms = [299000, 0]\n",
    );
    std::fs::write(&file, flagged).unwrap();
    let (out, err, ok) = session(
        dir.path(),
        &["caro", "--load", file.to_str().unwrap()],
        "board\nclock off\n10h\nclock 5m\n10h\nundo\n10h\n",
    );
    assert!(!ok);
    assert!(out.contains("clock off\nresult: X wins\n"), "{out}");
    assert_eq!(
        err.matches("the game is over (X wins)").count(),
        2,
        "neither `clock off` nor a new clock revives the game: {err}"
    );
    assert!(out.ends_with("last move X 10h\n"), "undo does: {out}");
}

#[test]
fn replay_reads_a_saved_game_or_says_to_load_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.toml");
    let (_, err, ok) = session(
        dir.path(),
        &["caro"],
        &format!("9h 10h 9i\nsave {}\n", file.display()),
    );
    assert!(ok, "{err}");
    let (out, err, ok) = session(
        dir.path(),
        &["caro"],
        &format!("replay @{}\nlast\n", file.display()),
    );
    assert!(ok, "{err}");
    assert!(out.contains("replaying 3 moves"), "{out}");
    assert!(out.contains("move 3 of 3: X 9i\n"), "{out}");

    for args in [&["oware"][..], &["caro", "-o", "size=9"]] {
        let (_, err, ok) = session(dir.path(), args, &format!("replay @{}\n", file.display()));
        assert!(!ok);
        assert!(err.contains("is a saved game of caro"), "{err}");
        assert!(err.contains(&format!("`load {}`", file.display())), "{err}");
        assert!(!err.contains("moves = ["), "the file is not dumped: {err}");
    }
}
