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

#[test]
fn messages_say_what_a_command_needs_and_suggest_what_was_meant() {
    let dir = tempfile::tempdir().unwrap();
    let input = format!(
        "save\nhint impossible\nhlep\nhelp hlep\ntheme stone\nlang vv\nset sise=9\n\
         variant cara\nundo x\n1a\nundo\n1a\nsave {}\n",
        dir.path().join("one.toml").display()
    );
    let (out, err, ok) = session(dir.path(), &["caro", "-o", "size=5"], &input);
    assert!(!ok);
    for expected in [
        "`save` needs more: it is written `save FILE`",
        "for example: `save game.txt`",
        "'impossible' is not easy, hard or medium",
        "for example: `hint hard`",
        "'x' is not a count",
    ] {
        assert!(err.contains(expected), "{expected}\n{err}");
    }
    assert!(!err.contains("end of input") && !err.contains("expected any"), "{err}");
    for (typed, meant) in [
        ("hlep", "help"), // a move that is no move, and `help hlep`
        ("stone", "stones"),
        ("vv", "vi"),
        ("sise", "size"),
        ("cara", "caro"),
    ] {
        assert!(err.contains(&format!("did you mean `{meant}`?")), "{typed}\n{err}");
    }
    assert_eq!(err.matches("did you mean `help`?").count(), 2, "{err}");
    // plurals
    assert!(out.contains("undid 1 move\n") && out.contains("saved 1 move to "), "{out}");
    assert!(!out.contains("(s)") && !err.contains("(s)"), "{out}{err}");

    // a game named on the command line, mistyped or in capitals
    for typed in ["cara", "Caro"] {
        let (_, err, ok) = session(dir.path(), &[typed], "");
        assert!(!ok);
        assert!(err.contains("did you mean `caro`?"), "{err}");
    }
}

/// The English text of every message the REPL has: its catalogue and the computer's reasons.
fn english_texts() -> Vec<String> {
    let catalog = boardrules::repl::i18n::Catalog::english();
    let mut texts: Vec<String> = catalog
        .english_messages()
        .map(|(_, v)| v.to_string())
        .collect();
    texts.extend(boardrules::ai::REASONS.iter().map(|(_, v)| v.to_string()));
    texts
}

/// The pieces of `template` between its `{placeholders}` and `code`, that have three words or
/// more: long enough that finding one in the output means an English message leaked.
fn phrases(template: &str) -> Vec<String> {
    let mut plain = String::new();
    let (mut in_code, mut in_name) = (false, false);
    for c in template.chars() {
        match c {
            '`' => {
                in_code = !in_code;
                plain.push('|');
            }
            '{' => {
                in_name = true;
                plain.push('|');
            }
            '}' => in_name = false,
            _ if in_code || in_name => {}
            _ => plain.push(c),
        }
    }
    plain
        .split(|c: char| c == '|' || c == '(' || c == ')' || c == ':' || c == ';')
        .map(str::trim)
        .filter(|p| {
            let words = p.split_whitespace();
            words
                .filter(|w| w.chars().filter(|c| c.is_alphabetic()).count() > 2)
                .count()
                >= 3
        })
        .map(String::from)
        .collect()
}

#[test]
fn in_vietnamese_no_english_message_leaks() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.toml");
    let file = file.display();
    let input = format!(
        "lang vi\nhelp\nhelp undo\nhelp hlep\noptions\nmoves\n9h 10h\nhistory\nundo\nredo\n\
         hint easy\nhint medium\nsave\nsave {file}\nhint impossible\nhlep\n10h\n9h 10h 10h\n\
         set size=9\nundo\nreplay\nn\np\ngoto 9\nfirst\nlast\ns\nreplay\nn\n1a\nundo\nundo\n\
         draft\n1b\ndraft end\ndraft end\nexplain\nclock 5m\nclock off\nvs easy\n1a\nundo\n\
         vs off\ngo easy\nnew\nundo\nload {file}\nreload\ntheme stone\nlang vv\nset sise=9\n\
         variant cara\nundo x\nreplay @{file}\ns\nnext\nquit\n"
    );
    let (out, err, _) = session(dir.path(), &["caro"], &input);
    let said = format!("{out}{err}");
    assert!(said.contains("ngôn ngữ") || said.contains("vi"), "{said}");
    let leaks: Vec<String> = english_texts()
        .iter()
        .flat_map(|t| phrases(t))
        .filter(|p| said.contains(p.as_str()))
        .collect();
    assert!(leaks.is_empty(), "English left in:\n{leaks:#?}\n{said}");
    assert!(!err.contains("Error") && !err.contains("Note:"), "{err}");
    // the check finds English when it is there
    let (out, err, _) = session(dir.path(), &["caro"], "lang en\nhint easy\nsave\n");
    let english = format!("{out}{err}");
    assert!(
        english_texts()
            .iter()
            .flat_map(|t| phrases(t))
            .any(|p| english.contains(p.as_str())),
        "{english}"
    );
}

#[test]
#[cfg(unix)]
fn ctrl_c_cancels_a_line_or_a_search_and_the_game_is_kept_for_the_next_session() {
    use expectrl::{ControlCode, Eof, Expect};
    let dir = tempfile::tempdir().unwrap();
    let spawn = || {
        let bin = assert_cmd::cargo::cargo_bin("boardrules");
        let mut cmd = std::process::Command::new(bin);
        cmd.args(["play", "caro"])
            .env("NO_COLOR", "1")
            .env("TERM", "xterm")
            .env("BOARDRULES_CONFIG_DIR", dir.path())
            .env("BOARDRULES_HISTORY", dir.path().join("history.txt"))
            .env("BOARDRULES_DATA_DIR", dir.path().join("data"));
        let mut p = expectrl::session::Session::spawn(cmd).unwrap();
        p.set_expect_timeout(Some(std::time::Duration::from_secs(30)));
        p
    };
    let mut p = spawn();
    p.expect("caro (X to move)> ").unwrap();
    p.send("9h\r").unwrap();
    p.expect("caro (O to move)> ").unwrap();
    // Ctrl-C on a half-typed line drops the line, not the game
    p.send("10").unwrap();
    p.send(ControlCode::EndOfText).unwrap();
    p.expect("Ctrl-C: line dropped").unwrap();
    p.send("10h\r").unwrap();
    p.expect("caro (X to move)> ").unwrap();
    // Ctrl-C while the computer thinks cancels the search: nothing is played
    p.send("hint hard\r").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(150));
    p.send(ControlCode::EndOfText).unwrap();
    p.expect("search cancelled (Ctrl-C)").unwrap();
    p.expect("caro (X to move)> ").unwrap();
    // Ctrl-D leaves; the game is kept
    p.send(ControlCode::EndOfTransmission).unwrap();
    p.expect("the game in progress is kept").unwrap();
    p.expect(Eof).unwrap();
    let kept = std::fs::read_to_string(dir.path().join("data").join("autosave.toml")).unwrap();
    assert!(kept.contains("moves = [\"9h\", \"10h\"]"), "{kept}");

    // the next session offers to resume it
    let mut p = spawn();
    p.expect("A game of caro with 2 moves was in progress. Resume it? [Y/n] ")
        .unwrap();
    p.send("\r").unwrap();
    p.expect("loaded 2 moves of caro").unwrap();
    p.send("history\r").unwrap();
    p.expect("moves: 9h 10h").unwrap();
    p.send("quit\r").unwrap();
    p.expect(Eof).unwrap();
}
