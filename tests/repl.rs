//! The REPL, driven as a user drives it: piped sessions with expected output, one process per
//! session, settings kept in a temporary config folder. Error reports are insta snapshots.

use std::path::Path;

mod common;

use assert_cmd::Command;

/// A REPL process with its own config folder and no colour.
fn repl(config: &Path, args: &[&str]) -> Command {
    let mut cmd = std::process::Command::new(common::BIN);
    common::isolate(&mut cmd, config)
        .env("BOARDRULES_CONFIG_DIR", config)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("play")
        .args(args);
    Command::from_std(cmd)
}

/// Runs `input` through a REPL of `args`; returns stdout, stderr and whether it succeeded.
fn session(config: &Path, args: &[&str], input: &str) -> (String, String, bool) {
    let out = repl(config, args).write_stdin(input).output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

/// The last board printed: from the last column-letter header to the status line after its
/// footer.
fn last_board(stdout: &str) -> String {
    let footer = stdout.rfind("   a b c").expect("a board was printed");
    let header = stdout[..footer].rfind("   a b c").expect("a header");
    let after = footer + stdout[footer..].find('\n').unwrap() + 1;
    let end = after + stdout[after..].find('\n').unwrap_or(stdout.len() - after);
    stdout[header..end].to_string()
}

const HISTORY_25: &str = "13n10n12n8e7k9e12m7e6e8n12l12o10k14o12j12k11l9j10l9l9k8k11m13o8j";

#[test]
fn moves_undo_redo_save_and_load_in_a_new_process_show_the_same_board() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.toml");
    let input = format!(
        "9h 10h 9i\nundo 2\nredo\nhistory\nsave {}\n",
        file.display()
    );
    let (out, err, ok) = session(dir.path(), &["caro"], &input);
    assert!(ok, "{err}");
    assert!(
        out.contains("undid 2 moves\n") && out.contains("redid 1 move\n"),
        "{out}"
    );
    assert!(
        out.contains("  1. X 9h\n  2. O 10h\nmoves: 9h 10h\n"),
        "{out}"
    );
    assert!(out.contains("saved 2 moves to"));
    let saved_board = last_board(&out);
    assert!(
        saved_board.ends_with("X to move, last move O 10h"),
        "{saved_board}"
    );

    let (out, err, ok) = session(
        dir.path(),
        &["caro", "--load", file.to_str().unwrap()],
        "board\n",
    );
    assert!(ok, "{err}");
    assert!(out.starts_with("loaded 2 moves of caro from"), "{out}");
    assert_eq!(last_board(&out), saved_board);
    let (out, _, ok) = session(
        dir.path(),
        &["caro"],
        &format!("load {}\nhistory\n", file.display()),
    );
    assert!(ok && out.contains("moves: 9h 10h\n"), "{out}");
}

#[test]
fn a_corrupted_save_file_is_reported_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.toml");
    std::fs::write(&file, "game = \"caro\"\nmoves = [\"9h\", 10h]\n").unwrap();
    let (out, err, ok) = session(
        dir.path(),
        &["caro"],
        &format!("9h\nload {}\nhistory\n", file.display()),
    );
    assert!(!ok);
    assert!(out.ends_with("  1. X 9h\nmoves: 9h\n"), "{out}");
    insta::assert_snapshot!(err.replace(&file.display().to_string(), "game.toml"));

    std::fs::write(&file, "game = \"caro\"\nmoves = [\"9h\", \"9h\"]\n").unwrap();
    let (_, err, ok) = session(dir.path(), &["caro"], &format!("load {}\n", file.display()));
    assert!(!ok);
    insta::assert_snapshot!(
        "illegal_saved_move",
        err.replace(&file.display().to_string(), "game.toml")
    );
}

#[test]
fn a_save_file_from_other_rules_says_where_it_diverges() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.toml");
    let text = "game = \"caro\"\nmoves = [\"9h\", \"10h\"]\nchecksums = [\"0000000000000000\", \"0000000000000000\"]\n";
    std::fs::write(&file, text).unwrap();
    let (out, _, ok) = session(dir.path(), &["caro"], &format!("load {}\n", file.display()));
    assert!(ok);
    assert!(
        out.contains("note: from move 1 the position differs from the one saved"),
        "{out}"
    );
}

#[test]
fn replaying_the_assignment_history_shows_its_boards_and_messages() {
    let dir = tempfile::tempdir().unwrap();
    let input = format!("replay {HISTORY_25}\np\nn\nn\nx\nlast\nn\ngoto 1\nfirst\ns\nhistory\n");
    let (out, err, ok) = session(dir.path(), &["caro"], &input);
    assert!(!ok, "the stray key is a failed command");
    assert!(out.contains("replaying 25 moves"));
    // `p` at the empty board, `n` past the last move
    let start = out.find("Start of the game.").expect("start message");
    let end = out.find("End of the history.").expect("end message");
    assert!(
        start < out.find("move 1 of 25: X 13n").unwrap()
            && end > out.find("move 25 of 25: X 8j").unwrap()
    );
    assert_eq!(
        err.matches("Illegal input, please try again:").count(),
        1,
        "{err}"
    );
    assert!(out.contains("move 2 of 25: O 10n\n"));
    // the board after the 25th move is the game's end
    let after_25 = &out[out.find("move 25 of 25").unwrap()..end];
    assert!(after_25.contains("X wins: 8j 9k 10l 11m 12n"), "{after_25}");
    assert!(
        after_25.contains(" 8 . . . . O . . . .[X]O . . O .   8"),
        "{after_25}"
    );
    assert!(out.contains("move 1 of 25: X 13n\n   a b c"));
    assert!(out.contains("the start, before move 1 of 25"));
    assert!(out.contains("replay stopped; back to the game"));
    assert!(
        out.ends_with("no moves yet\n"),
        "stopping leaves the game as it was: {out}"
    );
}

#[test]
fn a_move_in_the_middle_of_a_replay_starts_a_new_branch() {
    let dir = tempfile::tempdir().unwrap();
    let (out, err, ok) = session(
        dir.path(),
        &["caro"],
        "9h 10h 9i 10i\nreplay\nn\nn\n1a\nhistory\nnext\n",
    );
    assert!(!ok, "`next` after branching is not a replay any more");
    assert!(out.contains("new branch from move 2"), "{out}");
    assert!(out.contains("moves: 9h 10h 1a\n"), "{out}");
    assert!(err.contains("not replaying"), "{err}");
}

#[test]
fn reload_reports_the_first_move_that_diverges() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("mycaro.rhai");
    let caro =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/caro.rhai"))
            .unwrap();
    std::fs::write(&script, &caro).unwrap();
    let script_arg = script.to_str().unwrap();
    // One process: play, then the teacher edits the script (here: between two REPL lines, by a
    // rules file the session reloads), then reload.
    let four = caro.replace("win:         #{ value: 5,", "win:         #{ value: 4,");
    assert_ne!(four, caro, "the edit applies");
    let moves = "9h 1a 9i 1b 9j 1c 9k 1d";
    let (out, _, ok) = session(dir.path(), &[script_arg], &format!("{moves}\nreload\n"));
    assert!(ok);
    assert!(
        out.contains("all 8 moves replay to the same positions"),
        "{out}"
    );

    // The teacher edits the script between two lines of the session: win=4. Move 7 now wins,
    // so move 8 is no longer legal: the reload fails and the game goes on whole, under the
    // rules loaded before; `undo 1` and `reload` go on from before move 8 under the new ones.
    let (out, err, ok) = session_editing(
        dir.path(),
        script_arg,
        &format!("{moves}\nreload\nhistory\nundo 1\nreload\nhistory\n"),
        &script,
        &four,
    );
    assert!(!ok, "{out}{err}");
    assert!(
        err.contains("cannot reload: move 8 (1d) is no longer legal under the new rules"),
        "{err}"
    );
    assert!(
        err.contains("Note: move 7 (9k) now gives a different position\n"),
        "{err}"
    );
    assert!(err.contains("`undo 1`, then `reload`"), "{err}");
    assert!(out.contains("moves: 9h 1a 9i 1b 9j 1c 9k 1d\n"), "{out}");
    assert!(
        out.contains("move 7 (9k) now gives a different position:"),
        "{out}"
    );
    assert!(out.contains("X wins: 9h 9i 9j 9k"), "{out}");
    assert!(out.ends_with("moves: 9h 1a 9i 1b 9j 1c 9k\n"), "{out}");
}

/// Runs a session that edits `script` to `edited` after its first line has been played.
fn session_editing(
    config: &Path,
    script_arg: &str,
    input: &str,
    script: &Path,
    edited: &str,
) -> (String, String, bool) {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let mut child = common::isolate(&mut std::process::Command::new(common::BIN), config)
        .env("BOARDRULES_CONFIG_DIR", config)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["play", script_arg])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut lines = input.lines();
    writeln!(stdin, "{}", lines.next().unwrap()).unwrap();
    // wait until the first line's last move is on screen, then edit the script
    let mut seen = String::new();
    while !seen.contains("> 1d") {
        let mut line = String::new();
        if stdout.read_line(&mut line).unwrap() == 0 {
            break;
        }
        seen += &line;
    }
    std::fs::write(script, edited).unwrap();
    for line in lines {
        writeln!(stdin, "{line}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    (
        seen + rest.as_str(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

#[test]
fn options_set_and_variant_start_new_games() {
    let dir = tempfile::tempdir().unwrap();
    let (out, err, ok) = session(
        dir.path(),
        &["caro"],
        "options\nset size=9\nset bogus=1\nset size=99\nvariant gomoku\noptions\n",
    );
    assert!(!ok);
    assert!(
        out.contains("exact          true     true: six or more in a row do not win"),
        "{out}"
    );
    assert!(
        out.contains("new game with size=9\n   a b c d e f g h i\n"),
        "{out}"
    );
    assert!(out.contains("switched to Gomoku (freestyle)"), "{out}");
    assert!(
        out.contains("exact          false    false: six or more in a row win too"),
        "{out}"
    );
    insta::assert_snapshot!(err);
}

#[test]
fn explain_shows_each_step_of_the_last_move_with_boards_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let (out, err, ok) = session(
        dir.path(),
        &["tests/fixtures/pile.rhai"],
        "explain\n2\nexplain\nexplain --boards\n",
    );
    assert!(!ok, "nothing to explain before a move");
    assert!(err.contains("no move to explain yet"));
    let explained = &out[out.find("move 1: 2").unwrap()..];
    assert_eq!(
        explained,
        "move 1: 2\n  1. take a stone: 6 left\n  2. take a stone: 5 left\n\
         move 1: 2\n  1. take a stone: 6 left\npile: |||||| (6)\n  2. take a stone: 5 left\npile: ||||| (5)\n\
         after the move:\npile: ||||| (5)\n"
    );
}

#[test]
fn a_draft_is_dropped_at_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let (out, err, ok) = session(
        dir.path(),
        &["caro"],
        "9h\ndraft\n10h 9i 10i\nhistory\ndraft end\nhistory\ndraft end\n",
    );
    assert!(!ok);
    assert!(out.contains("moves: 9h 10h 9i 10i\n"));
    assert!(out.contains("draft dropped; back to the game"));
    assert!(out.ends_with("  1. X 9h\nmoves: 9h\n"), "{out}");
    assert!(err.contains("not in a draft"));
}

#[test]
fn running_out_of_time_loses_and_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.toml");
    let (_, _, ok) = session(
        dir.path(),
        &["caro"],
        &format!("clock 5m\n9h\nsave {}\n", file.display()),
    );
    assert!(ok);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("[clock]\nbudget_ms = 300000\n"), "{text}");
    // O's time is up in the saved game: the next command flags it
    let flagged = text.replace(
        &text[text.find("remaining_ms").unwrap()..],
        "remaining_ms = [299000, 0]\n",
    );
    std::fs::write(&file, flagged).unwrap();
    let (out, err, ok) = session(
        dir.path(),
        &["caro", "--load", file.to_str().unwrap()],
        &format!("10h\nsave {}\n", file.display()),
    );
    assert!(!ok, "no move after the flag");
    assert!(out.contains("O ran out of time\nresult: X wins\n"), "{out}");
    assert!(err.contains("the game is over (X wins)"), "{err}");
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .contains("lost_on_time = 2"));
}

#[test]
fn language_theme_and_colour_persist_in_the_config_folder() {
    let dir = tempfile::tempdir().unwrap();
    let (out, _, ok) = session(
        dir.path(),
        &["caro", "-o", "size=5"],
        "lang vi\ntheme stones\n1a\n",
    );
    assert!(ok);
    assert!(out.contains("ngôn ngữ: vi") && out.contains("giao diện: stones"));
    assert!(out.contains(" 1[●]· · · ·   1"), "{out}");
    // a new process speaks Vietnamese with the same theme
    let (out, err, ok) = session(
        dir.path(),
        &["caro", "-o", "size=5"],
        "undo\nlang xx\n1a\ncolor on\nboard\n",
    );
    assert!(!ok);
    assert!(err.contains("không còn gì để đi lại"), "{err}");
    assert!(
        err.contains("không có ngôn ngữ 'xx'") || err.contains("no language 'xx'"),
        "{err}"
    );
    assert!(
        out.contains("\u{1b}["),
        "colour on gives ANSI colours: {out}"
    );
    // an unreadable settings file: a note, and the defaults
    std::fs::write(dir.path().join("config.toml"), "language = 3\n").unwrap();
    let (out, err, ok) = session(dir.path(), &["caro"], "undo\n");
    assert!(!ok && out.is_empty());
    assert!(
        err.contains("note: settings ignored, defaults used"),
        "{err}"
    );
    assert!(err.contains("nothing to undo"), "{err}");
}

#[test]
fn help_lists_every_command_and_explains_one() {
    let dir = tempfile::tempdir().unwrap();
    let (out, err, ok) = session(dir.path(), &["caro"], "help\nhelp clock\nhelp nonesuch\n");
    assert!(!ok);
    for word in [
        "undo", "redo", "replay", "save", "load", "reload", "set", "variant", "explain", "draft",
        "clock", "lang", "theme", "color",
    ] {
        assert!(out.contains(&format!("\n  {word} ")), "help lacks {word}");
    }
    assert!(out.contains("clock TIME|off\n  give each player this much time; running out loses\n  example: clock 5m\n"));
    assert!(err.contains("no command 'nonesuch'"));
}

#[test]
fn bad_commands_point_at_the_problem_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (out, err, ok) = session(
        dir.path(),
        &["caro"],
        "9h\nundo x\nclock soon\n9h\ngoto 3\nhistory\n",
    );
    assert!(!ok);
    assert!(out.ends_with("  1. X 9h\nmoves: 9h\n"), "{out}");
    insta::assert_snapshot!(err);
}

#[test]
fn the_moves_command_lists_the_legal_moves() {
    let dir = tempfile::tempdir().unwrap();
    let (out, _, ok) = session(dir.path(), &["caro", "-o", "size=5"], "moves\n1a\nmoves\n");
    assert!(ok);
    assert!(out.starts_with("25 legal moves: 5a 5b"));
    assert!(
        out.contains("24 legal moves: 5a")
            && !out.contains(
                "24 legal moves: 5a 5b 5c 5d 5e 4a 4b 4c 4d 4e 3a 3b 3c 3d 3e 2a 2b 2c 2d 2e 1a"
            )
    );
}

#[test]
#[cfg(unix)]
fn the_terminal_repl_completes_commands_and_plays_moves() {
    use expectrl::{Eof, Expect, Regex};
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = std::process::Command::new(common::BIN);
    common::isolate(&mut cmd, dir.path())
        .args(["play", "caro", "-o", "size=5"])
        .env("TERM", "xterm");
    let mut p = expectrl::session::Session::spawn(cmd).unwrap();
    p.set_expect_timeout(Some(std::time::Duration::from_secs(20)));
    p.expect("caro (X to move)> ").unwrap();
    p.send("1").unwrap();
    p.send("a\r").unwrap();
    p.expect(Regex(r"last move X 1a")).unwrap();
    // `hist` + TAB completes to `history`
    p.send("hist\t").unwrap();
    p.send("\r").unwrap();
    p.expect("moves: 1a").unwrap();
    // `cls` clears the screen and draws the board again
    p.send("cls\r").unwrap();
    p.expect("\x1b[H\x1b[2J").unwrap();
    p.expect(Regex(r"last move X 1a")).unwrap();
    p.send("quit\r").unwrap();
    p.expect(Eof).unwrap();
    assert!(std::fs::read_to_string(dir.path().join("history.txt"))
        .unwrap()
        .contains("history"));
}

#[test]
fn warnings_follow_the_move_that_makes_a_threat() {
    let dir = tempfile::tempdir().unwrap();
    let (out, _, ok) = session(dir.path(), &["caro"], "9h 1a 9i 1b 9j\n1c\n9k\n");
    assert!(ok);
    assert_eq!(out.matches("! ").count(), 1, "{out}");
    assert!(
        out.ends_with("! X threatens to win: 9g or 9l wins next\n"),
        "{out}"
    );
    // a four blocked at both ends is no threat under the block rule; the open end still is
    let (out, _, _) = session(dir.path(), &["caro"], "9h 9g 9i 1b 9j 1c 9k\n");
    assert!(
        out.ends_with("! X threatens to win: 9l wins next\n"),
        "{out}"
    );
}

#[test]
fn hint_and_vs_bring_in_the_computer() {
    let dir = tempfile::tempdir().unwrap();
    // O has four in a row; the hint for X is the one block, and the computer (O) then wins
    let (out, err, ok) = session(
        dir.path(),
        &["caro"],
        "9h 10a 9i 10b 9j 10c 1o 10d\nhint easy\nvs medium\n1n\nvs off\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("hint: 10e — blocks O's win at 10e"), "{out}");
    assert!(out.contains("the computer plays O (medium)"), "{out}");
    assert!(
        out.contains("> 10e\n") && out.contains("(computer, medium: 10e wins at once for O)"),
        "{out}"
    );
    assert!(out.contains("result: O wins"), "{out}");
    // `play --vs` gives the computer the second player from the start
    let (out, _, ok) = session(dir.path(), &["caro", "--vs", "easy"], "9h\nhistory\n");
    assert!(ok);
    assert!(out.contains("  1. X 9h\n  2. O "), "{out}");
}

#[test]
fn whole_mancala_games_against_the_computer() {
    let dir = tempfile::tempdir().unwrap();
    // `go` plays the computer's move for the side to move: here it stands in for the human, and
    // the computer (`vs`) answers each one, until the game is over.
    for (game, level, most) in [("o_an_quan", "hard", 60), ("oware", "easy", 200)] {
        let input = format!("vs {level}\n{}history\n", "go easy\n".repeat(most));
        // (the `go`s after the end are errors, so the session's exit status reports them)
        let (out, err, _) = session(dir.path(), &[game], &input);
        assert!(!err.contains("panicked"), "{err}");
        assert!(out.contains(&format!("(computer, {level}: ")), "{out}");
        assert!(
            out.contains("result: "),
            "{game}: the game did not end\n{out}"
        );
        assert!(err.contains("no hint: the game is over"), "{err}");
    }
}

#[test]
fn new_starts_over_and_a_theme_file_is_loaded() {
    let dir = tempfile::tempdir().unwrap();
    let theme = dir.path().join("mine.toml");
    std::fs::write(
        &theme,
        "[cells.caro]\nX = { glyph = \"x\" }\nO = { glyph = \"o\" }\n",
    )
    .unwrap();
    let input = format!(
        "9h 9i\nnew\nhistory\ntheme {}\n1a 1b\ntheme {}/nope.toml\n",
        theme.display(),
        dir.path().display()
    );
    let (out, err, ok) = session(dir.path(), &["caro", "-o", "size=5"], &input);
    assert!(!ok, "the missing theme file is an error");
    assert!(out.contains("new game\n   a b c d e\n"), "{out}");
    assert!(
        out.contains("new game") && out.contains("no moves yet\n"),
        "{out}"
    );
    assert!(out.contains(" 1 x[o]. . .   1"), "{out}");
    assert!(err.contains("no theme"), "{err}");
}

#[test]
fn a_setting_the_rules_refuse_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (out, err, ok) = session(
        dir.path(),
        &["caro"],
        "set size=9\n1a\nset size=99\noptions\nhistory\n",
    );
    assert!(!ok);
    assert!(err.contains("size must be 5 to 26, not 99"), "{err}");
    assert!(
        out.contains("\nsize           9        board side"),
        "{out}"
    );
    assert!(out.ends_with("  1. X 1a\nmoves: 1a\n"), "{out}");
}

// A REPL that forgives: a line of moves is all or nothing, commands that replace the game keep
// the old one reachable, messages say what a command needs, Ctrl-C loses nothing.

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
        3,
        "{out}"
    );
    // the branch has a move of its own: `undo` first takes it back
    assert!(out.contains("(`undo` takes back this game's moves; at its start, `undo` brings back the game before, with its 2 moves)"));
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
    // a hand-written save: O's time ran out after X's first move
    let file = dir.path().join("flagged.toml");
    std::fs::write(
        &file,
        "game = \"caro\"\nmoves = [\"9h\"]\n[clock]\nbudget_ms = 300000\nremaining_ms = [299000, 0]\n",
    )
    .unwrap();
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
    assert!(
        !err.contains("end of input") && !err.contains("expected any"),
        "{err}"
    );
    for (typed, meant) in [
        ("hlep", "help"), // a move that is no move, and `help hlep`
        ("stone", "stones"),
        ("vv", "vi"),
        ("sise", "size"),
        ("cara", "caro"),
    ] {
        assert!(
            err.contains(&format!("did you mean `{meant}`?")),
            "{typed}\n{err}"
        );
    }
    assert_eq!(err.matches("did you mean `help`?").count(), 2, "{err}");
    // plurals
    assert!(
        out.contains("undid 1 move\n") && out.contains("saved 1 move to "),
        "{out}"
    );
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
    texts.extend(
        boardrules::search::why::REASONS
            .iter()
            .map(|(_, v)| v.to_string()),
    );
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
        .split(['|', '(', ')', ':', ';'])
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
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "game = \"caro\"\nmoves = [9h\n").unwrap();
    let bad = bad.display();
    let file = dir.path().join("g.toml");
    let file = file.display();
    let input = format!(
        "lang vi\nhelp\nhelp undo\nhelp hlep\noptions\nmoves\n9h 10h\nhistory\nundo\nredo\n\
         hint easy\nhint medium\nsave\nsave {file}\nhint impossible\nhlep\n10h\n9h 10h 10h\nundo x\nclock soon\ngoto x\nset exact\n\
         set size=9\nundo\nreplay\nn\np\ngoto 9\nfirst\nlast\ns\nreplay\nn\n1a\nundo\nundo\n\
         draft\n1b\ndraft end\ndraft end\nexplain\nclock 5m\nclock off\nvs easy\n1a\nundo\n\
         vs off\ngo easy\nnew\nundo\nload {file}\nreload\ntheme stone\nlang vv\nset sise=9\n\
         variant cara\nundo x\nreplay @{file}\ns\nnext\nload {bad}\nload {bad}.none\nquit\n"
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
        let mut cmd = std::process::Command::new(common::BIN);
        common::isolate(&mut cmd, dir.path())
            .args(["play", "caro"])
            .env("TERM", "xterm");
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
    let kept = std::fs::read_to_string(dir.path().join("data/autosave/caro.toml")).unwrap();
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

#[test]
fn vs_names_its_side_and_a_saved_game_keeps_the_computer_playing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("vs.toml");
    // after X's move, `vs O easy` gives the computer O, which replies at once
    let input = format!("9h\nvs O easy\nsave {}\n", file.display());
    let (out, err, ok) = session(dir.path(), &["caro", "-o", "size=9"], &input);
    assert!(ok, "{err}");
    assert!(out.contains("the computer plays O (easy)"), "{out}");
    assert!(out.contains("(computer, easy:"), "{out}");
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(
        saved.contains("[vs]\nlevel = \"easy\"\nside = 2\n"),
        "{saved}"
    );
    // resumed in a new process, the computer still plays O
    let (out, err, ok) = session(
        dir.path(),
        &["caro", "--load", file.to_str().unwrap()],
        "1a\nhistory\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("the computer plays O (easy)"), "{out}");
    assert!(out.contains("  3. X 1a\n  4. O "), "{out}");
    // without a side, `vs` says how to name the other one; a side the game lacks is refused
    let (out, err, ok) = session(dir.path(), &["caro"], "9h\nvs easy\nvs Z easy\n");
    assert!(!ok);
    assert!(
        out.contains("the computer plays X (easy)\n(for it to play O instead: `vs O easy`)"),
        "{out}"
    );
    assert!(
        err.contains("'Z' is not a side of this game (sides: X, O, or their numbers from 1)"),
        "{err}"
    );
}

#[test]
fn moves_written_with_spaces_are_listed_one_a_line_and_separated_in_the_history() {
    let dir = tempfile::tempdir().unwrap();
    let (out, err, ok) = session(
        dir.path(),
        &["five_step"],
        "moves\n0 0 0 1\n4 0 4 1\nhistory\n",
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("legal moves:\n  0 0 1 0\n  0 0 1 0 2 0\n"),
        "{out}"
    );
    assert!(out.contains("moves: 0 0 0 1, 4 0 4 1\n"), "{out}");
    // the history line can be typed back as it is
    let (out, err, ok) = session(dir.path(), &["five_step"], "0 0 0 1, 4 0 4 1\nhistory\n");
    assert!(ok, "{err}");
    assert!(out.contains("moves: 0 0 0 1, 4 0 4 1\n"), "{out}");
}

#[test]
fn a_word_that_is_neither_command_nor_move_says_so_and_undo_after_load_says_what_it_does() {
    let dir = tempfile::tempdir().unwrap();
    let (_, err, ok) = session(dir.path(), &["caro"], "hlep\n");
    assert!(!ok);
    assert!(
        err.contains("'hlep' is not a command or a move") && err.contains("did you mean `help`?"),
        "{err}"
    );
    // a move that cannot be read is still a move
    let (_, err, _) = session(dir.path(), &["caro"], "32x\n");
    assert!(err.contains("cannot read move '32x'"), "{err}");
    let file = dir.path().join("g.toml");
    let input = format!(
        "9h\nsave {}\n1a 1b 1c\nload {}\nundo\n",
        file.display(),
        file.display()
    );
    let (out, err, ok) = session(dir.path(), &["caro"], &input);
    assert!(ok, "{err}");
    assert!(
        out.contains("(`undo` takes back this game's moves; at its start, `undo` brings back the game before, with its 4 moves)"),
        "{out}"
    );
    assert!(out.contains("undid 1 move"), "{out}");
}

/// An interactive REPL of `args` with `home`'s folders, run from `cwd`.
#[cfg(unix)]
fn terminal_repl(home: &Path, cwd: &Path, args: &[&str]) -> expectrl::session::OsSession {
    let mut cmd = std::process::Command::new(common::BIN);
    common::isolate(&mut cmd, home)
        .current_dir(cwd)
        .arg("play")
        .args(args)
        .env("TERM", "xterm");
    let mut p = expectrl::session::Session::spawn(cmd).unwrap();
    p.set_expect_timeout(Some(std::time::Duration::from_secs(30)));
    p
}

#[test]
#[cfg(unix)]
fn each_game_is_kept_apart_two_sessions_never_write_over_each_other_and_a_script_resumes_from_anywhere(
) {
    use expectrl::{Eof, Expect};
    let home = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // a game of caro in progress, then a session on gomoku: the caro game stays kept
    let mut caro = terminal_repl(home.path(), root, &["caro"]);
    caro.expect("caro (X to move)> ").unwrap();
    caro.send("9h\r").unwrap();
    caro.expect("caro (O to move)> ").unwrap();
    // a second session on caro while the first runs keeps its game in a file of its own
    let mut second = terminal_repl(home.path(), root, &["caro"]);
    second
        .expect("another `boardrules play` is keeping a game of this game")
        .unwrap();
    second.expect("caro (X to move)> ").unwrap();
    second.send("1a\r").unwrap();
    second.expect("caro (O to move)> ").unwrap();
    second.send("quit\r").unwrap();
    second.expect("caro-2.toml").unwrap();
    second.expect(Eof).unwrap();
    caro.send("quit\r").unwrap();
    caro.expect("caro.toml").unwrap();
    caro.expect(Eof).unwrap();
    let kept = home.path().join("data/autosave");
    let first = std::fs::read_to_string(kept.join("caro.toml")).unwrap();
    let other = std::fs::read_to_string(kept.join("caro-2.toml")).unwrap();
    assert!(first.contains("moves = [\"9h\"]"), "{first}");
    assert!(other.contains("moves = [\"1a\"]"), "{other}");
    let mut gomoku = terminal_repl(home.path(), root, &["gomoku"]);
    gomoku.expect("gomoku (X to move)> ").unwrap();
    gomoku.send("8h\r").unwrap();
    gomoku.expect("gomoku (O to move)> ").unwrap();
    gomoku.send("quit\r").unwrap();
    gomoku.expect(Eof).unwrap();
    // the next caro session offers its game and says where the other one is
    let mut caro = terminal_repl(home.path(), root, &["caro"]);
    caro.expect("another game of caro with 1 move is kept in")
        .unwrap();
    caro.expect("A game of caro with 1 move was in progress. Resume it? [Y/n] ")
        .unwrap();
    caro.send("\r").unwrap();
    caro.expect("loaded 1 move of caro").unwrap();
    caro.expect("caro (O to move)> ").unwrap();
    caro.send("history\r").unwrap();
    caro.expect("moves: 9h").unwrap();
    caro.send("quit\r").unwrap();
    caro.expect(Eof).unwrap();

    // a teacher's script, named by a relative path, resumes from another folder
    let class = tempfile::tempdir().unwrap();
    std::fs::copy(
        root.join("docs/scripts/tic_tac_toe.rhai"),
        class.path().join("ttt.rhai"),
    )
    .unwrap();
    let mut ttt = terminal_repl(home.path(), class.path(), &["ttt.rhai"]);
    ttt.expect("ttt (X to move)> ").unwrap();
    ttt.send("b2\r").unwrap();
    ttt.expect("ttt (O to move)> ").unwrap();
    ttt.send("quit\r").unwrap();
    ttt.expect(Eof).unwrap();
    let script = std::fs::canonicalize(class.path().join("ttt.rhai")).unwrap();
    let mut ttt = terminal_repl(home.path(), home.path(), &[script.to_str().unwrap()]);
    ttt.expect("A game of ").unwrap();
    ttt.expect("ttt.rhai with 1 move was in progress. Resume it? [Y/n] ")
        .unwrap();
    ttt.send("y\r").unwrap();
    ttt.expect("ttt (O to move)> ").unwrap();
    ttt.send("quit\r").unwrap();
    ttt.expect(Eof).unwrap();
}

#[test]
#[cfg(unix)]
fn a_game_that_cannot_be_kept_is_reported_and_never_said_to_be_kept() {
    use expectrl::{Eof, Expect};
    let home = tempfile::tempdir().unwrap();
    // the data folder is a file: nothing can be kept in it
    std::fs::write(home.path().join("data"), "").unwrap();
    let mut p = terminal_repl(
        home.path(),
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &["caro"],
    );
    p.expect("caro (X to move)> ").unwrap();
    p.send("9h\r").unwrap();
    p.expect("the game in progress could not be kept").unwrap();
    p.send("quit\r").unwrap();
    p.expect("it is not saved; `save FILE` before leaving keeps it")
        .unwrap();
    let (rest, _) = p.expect(Eof).map(|c| (c.before().to_vec(), ())).unwrap();
    assert!(!String::from_utf8_lossy(&rest).contains("is kept"));
}

#[test]
#[cfg(unix)]
fn the_line_history_is_not_written_through_a_symlink() {
    use expectrl::{Eof, Expect};
    let home = tempfile::tempdir().unwrap();
    let target = home.path().join("precious.txt");
    std::fs::write(&target, "keep me").unwrap();
    std::os::unix::fs::symlink(&target, home.path().join("history.txt")).unwrap();
    let mut p = terminal_repl(
        home.path(),
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &["caro"],
    );
    p.expect("caro (X to move)> ").unwrap();
    p.send("9h\r").unwrap();
    p.expect("caro (O to move)> ").unwrap();
    p.send("quit\r").unwrap();
    p.expect("could not save the line history").unwrap();
    p.expect(Eof).unwrap();
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
}

#[test]
#[cfg(unix)]
fn a_save_of_a_same_named_script_in_another_folder_is_loaded_only_when_the_user_says_so() {
    use expectrl::{Eof, Expect};
    let home = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (a, b) = (home.path().join("a"), home.path().join("b"));
    for dir in [&a, &b] {
        std::fs::create_dir(dir).unwrap();
        std::fs::copy(
            root.join("docs/scripts/tic_tac_toe.rhai"),
            dir.join("ttt.rhai"),
        )
        .unwrap();
    }
    let file = home.path().join("game.toml");
    let (script_a, script_b) = (a.join("ttt.rhai"), b.join("ttt.rhai"));
    let save = format!("b2\nsave {}\n", file.display());
    let (_, err, ok) = session(home.path(), &[script_a.to_str().unwrap()], &save);
    assert!(ok, "{err}");
    // the same script plays it at once
    let load = ["--load", file.to_str().unwrap()];
    let same = [&[script_a.to_str().unwrap()][..], &load].concat();
    let (out, err, ok) = session(home.path(), &same, "history\n");
    assert!(ok && out.contains("moves: b2"), "{out}{err}");
    // b's ttt.rhai, with no terminal to ask on: refused, saying which script the file names
    let other = [&[script_b.to_str().unwrap()][..], &load].concat();
    let (out, err, ok) = session(home.path(), &other, "history\n");
    assert!(!ok && !out.contains("moves: b2"), "{out}{err}");
    let canonical = std::fs::canonicalize(&script_a).unwrap();
    assert!(err.contains("not loaded"), "{err}");
    assert!(err.contains(canonical.to_str().unwrap()), "{err}");
    // on a terminal it asks: no leaves it unloaded, yes loads it with a's script
    for (answer, loaded) in [("n", false), ("y", true)] {
        let mut p = terminal_repl(home.path(), home.path(), &other);
        p.expect("(both are called").unwrap();
        p.expect("[y/N] ").unwrap();
        p.send(format!("{answer}\r")).unwrap();
        if loaded {
            p.expect("ttt (O to move)> ").unwrap();
            p.send("quit\r").unwrap();
        } else {
            p.expect("not loaded").unwrap();
        }
        p.expect(Eof).unwrap();
    }
}

#[test]
#[cfg(unix)]
fn ctrl_c_during_a_hint_through_a_slow_native_is_back_at_the_prompt_within_half_a_second() {
    use expectrl::{ControlCode, Expect};
    use std::time::{Duration, Instant};
    // native(state) takes about 0.4 s a call, and `hard` thinks 5 s: the hint spends its time
    // in native() calls, and a Ctrl-C that did not stop it would wait seconds (75 s before).
    let home = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let game = "tests/fixtures/budget/slow_native_long_hint.rhai";
    let prompt = |side: &str| format!("slow_native_long_hint ({side} to move)> ");
    let mut p = terminal_repl(home.path(), root, &[game]);
    p.expect(prompt("X")).unwrap();
    p.send("9h\r").unwrap();
    p.expect(prompt("O")).unwrap();
    let mut worst = Duration::ZERO;
    for wait in [300, 700, 1100] {
        p.send("hint hard\r").unwrap();
        std::thread::sleep(Duration::from_millis(wait));
        p.send(ControlCode::EndOfText).unwrap();
        let sent = Instant::now();
        // (the prompt is echoed with the command: wait for the answer first)
        p.expect(expectrl::Regex("hint: |search cancelled"))
            .unwrap();
        p.expect(prompt("O")).unwrap();
        worst = worst.max(sent.elapsed());
    }
    assert!(worst < Duration::from_millis(500), "{worst:?}");
    p.send("history\r").unwrap();
    p.expect("moves: 9h").unwrap();
    p.send("quit\r").unwrap();
    p.expect(expectrl::Eof).unwrap();
}
