//! The command line, end to end: what users and tests rely on (see design.md).

mod common;
use common::boardrules;
use predicates::prelude::*;

const HISTORY_22: &str = "13n10n12n8e7k9f9h7f9d8f6f7d6c7e7g8c8d6e5e5f4g9b";

#[test]
fn run_replays_a_concatenated_history_to_its_result() {
    let out = boardrules()
        .args(["run", "caro", HISTORY_22])
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(stdout.matches("\n> ").count(), 22);
    assert!(stdout.contains("> 13n\n"));
    assert!(stdout.trim_end().ends_with("result: O wins"), "{stdout}");
    assert!(stdout.contains("O wins: 9b 8c 7d 6e 5f"));
}

#[test]
fn run_rejects_a_move_after_the_win_after_printing_the_states_before_it() {
    boardrules()
        .args(["run", "caro", HISTORY_22, "1a"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("> 9b").and(predicate::str::contains("result:").not()))
        .stderr(
            predicate::str::contains("the game is over (O wins)")
                .and(predicate::str::contains("╰──")),
        );
}

#[test]
fn run_json_has_one_object_per_state() {
    let out = boardrules()
        .args(["run", "caro", "--json", "9h", "10h"])
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["ply"], 0);
    assert_eq!(lines[0]["move"], serde_json::Value::Null);
    assert_eq!(lines[1]["move"], "9h");
    assert_eq!(lines[1]["to_move"], "O");
    assert_eq!(lines[2]["to_move"], "X");
    assert!(lines[2]["state"].as_str().unwrap().contains("[O]"));
    assert!(lines[2]["events"].as_array().unwrap().is_empty());
    assert_eq!(lines[2]["result"], serde_json::Value::Null);
}

#[test]
fn moves_lists_the_225_cells_of_the_empty_board() {
    let out = boardrules().args(["moves", "caro"]).assert().success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let moves: Vec<&str> = stdout.lines().collect();
    assert_eq!(moves.len(), 225);
    assert_eq!(moves[0], "15a");
    assert_eq!(moves[224], "1o");
    let after = boardrules()
        .args(["moves", "caro", "9h"])
        .assert()
        .success();
    assert_eq!(
        String::from_utf8_lossy(&after.get_output().stdout)
            .lines()
            .count(),
        224
    );
}

#[test]
fn malformed_and_occupied_moves_exit_1_with_a_caret() {
    for (args, message, label) in [
        (
            vec!["run", "caro", "9h", "32x"],
            "cannot read move '32x'",
            "off the 15×15 board",
        ),
        (
            vec!["run", "caro", "t3"],
            "cannot read move 't3'",
            "is not a cell",
        ),
        (
            vec!["run", "caro", "9h", "9h"],
            "illegal move '9h'",
            "already taken",
        ),
        (
            vec!["moves", "caro", "32x"],
            "cannot read move '32x'",
            "off the",
        ),
    ] {
        let out = boardrules().args(&args).assert().code(1);
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(stderr.contains(message), "{stderr}");
        assert!(stderr.contains(label), "{stderr}");
        assert!(stderr.contains("╰──"), "no caret in {stderr}");
    }
}

#[test]
fn positions_round_trip_through_run() {
    let first = boardrules()
        .args(["run", "caro", "--json", "9h", "10h", "9i"])
        .assert()
        .success();
    let last: serde_json::Value = serde_json::from_str(
        String::from_utf8(first.get_output().stdout.clone())
            .unwrap()
            .lines()
            .last()
            .unwrap(),
    )
    .unwrap();
    let rendering = last["state"].as_str().unwrap();
    boardrules()
        .args(["run", "caro", "--position", rendering, "9j"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(format!("{rendering}\n> 9j")));
}

#[test]
fn examples_given_as_positions_report_their_winners() {
    let dir = tempfile::tempdir().unwrap();
    // Example 4: O's five 9j-13j blocked by X at 8j and 14j.
    let out = boardrules()
        .args([
            "run", "caro", "--json", "8j", "9j", "14j", "10j", "9a", "11j", "9b", "12j", "1o",
            "13j",
        ])
        .assert()
        .success();
    let last: serde_json::Value = serde_json::from_str(
        String::from_utf8(out.get_output().stdout.clone())
            .unwrap()
            .lines()
            .last()
            .unwrap(),
    )
    .unwrap();
    let file = dir.path().join("example4.txt");
    std::fs::write(&file, last["state"].as_str().unwrap()).unwrap();
    let at = format!("@{}", file.display());
    boardrules()
        .args(["run", "caro", "--position", &at])
        .assert()
        .success()
        .stdout(predicate::str::contains("result:").not());
    boardrules()
        .args([
            "run",
            "caro",
            "-o",
            "exact=false",
            "-o",
            "block_rule=false",
            "--position",
            &at,
        ])
        .assert()
        .success()
        .stdout(predicate::str::ends_with("result: O wins\n"));
}

#[test]
fn bad_positions_and_options_are_reported() {
    boardrules()
        .args(["run", "caro", "--position", " 2 . X\n 1 O Q"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("'Q' is not a cell"));
    boardrules()
        .args(["run", "caro", "-o", "size=big"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "'big' is not a value of option 'size' (integer)",
        ));
    boardrules()
        .args(["run", "caro", "-o", "colour=red"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no option 'colour'"));
    boardrules()
        .args(["run", "nosuchgame"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no game named 'nosuchgame'"));
}

#[test]
fn check_points_at_syntax_errors_and_missing_functions() {
    boardrules()
        .args(["check", "tests/fixtures/syntax_error.rhai"])
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("tests/fixtures/syntax_error.rhai:4:")
                .and(predicate::str::contains("does not compile")),
        );
    let out = boardrules()
        .args(["check", "tests/fixtures/missing_play.rhai"])
        .assert()
        .code(1);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("does not define `fn play(state, mv)`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("`render` takes 0 parameter(s) here; the contract is `fn render(state)`"),
        "{stderr}"
    );
    assert!(stderr.contains("missing_play.rhai:8:"), "{stderr}");
    boardrules()
        .args(["check", "caro"])
        .assert()
        .success()
        .stdout(predicate::str::contains("ok: caro"));
    boardrules()
        .args(["check", "rules/gomoku.rhai"])
        .assert()
        .success()
        .stdout(predicate::str::contains("exact=false"));
}

#[test]
fn the_sandbox_stops_endless_loops_and_refuses_escapes() {
    boardrules()
        .args(["run", "tests/fixtures/endless.rhai", "9h"])
        .timeout(std::time::Duration::from_secs(30))
        .assert()
        .code(1)
        .stderr(
            // The operations run out first, or the call's 2 s on a busy machine.
            predicate::str::contains("more than 5000000 operations")
                .or(predicate::str::contains(
                    "ran for more than 2 s in one call",
                ))
                .and(predicate::str::contains("endless.rhai:4:")),
        );
    boardrules()
        .args(["check", "tests/fixtures/escape.rhai"])
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("imports name a rules script")
                .and(predicate::str::contains("escape.rhai:2:")),
        );
    boardrules()
        .args(["check", "tests/fixtures/eval.rhai"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("'eval' is disabled"));
}

#[test]
fn a_variant_file_imports_its_base() {
    boardrules()
        .args([
            "run",
            "tests/fixtures/exact_four.rhai",
            "5a",
            "6a",
            "5b",
            "6b",
            "5c",
            "6c",
            "5d",
        ])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("   a b c d e f g h i\n")
                .and(predicate::str::ends_with("result: X wins\n")),
        );
}

#[test]
fn a_variant_gives_its_options_its_own_help_in_list_and_the_repl() {
    // gomoku.rhai sets `opts.exact.help` after taking Caro's options: its rule, not Caro's.
    let own = "false: six or more in a row win too (true: exactly five, as in Caro)";
    let out = boardrules().arg("list").assert().success();
    let listed = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let gomoku = listed.split("gomoku:").nth(1).unwrap_or_default();
    let exact = gomoku
        .lines()
        .find(|l| l.contains("-o exact="))
        .unwrap_or_default();
    assert!(
        exact.contains("exact=false") && exact.ends_with(own),
        "{listed}"
    );
    let caro = listed.split("caro:").nth(1).unwrap_or_default();
    assert!(
        caro.lines()
            .any(|l| l.ends_with("true: six or more in a row do not win")),
        "{listed}"
    );
    let out = boardrules()
        .args(["play", "gomoku"])
        .write_stdin("options\n")
        .assert()
        .success();
    let repl = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(repl.contains(own), "{repl}");
}

#[test]
fn list_shows_games_and_options() {
    boardrules().arg("list").assert().success().stdout(
        predicate::str::contains("caro: Caro")
            .and(predicate::str::contains("-o exact=true"))
            .and(predicate::str::contains("gomoku:"))
            .and(predicate::str::contains(
                "\nA script anywhere else runs by its path: boardrules play path/to/game.rhai\n",
            )),
    );
    // from a folder without rules/, it says that such a folder would be listed
    let dir = tempfile::tempdir().unwrap();
    boardrules()
        .current_dir(dir.path())
        .arg("list")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Games built in; the scripts of a ./rules/ folder here would be listed too.",
        ));
}

#[test]
fn test_subcommand_runs_the_traces() {
    boardrules()
        .args(["test", "tests/traces"])
        .assert()
        .success()
        .stdout(predicate::str::contains(" passed, 0 failed"));
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.trace");
    std::fs::write(&bad, "game: caro\n> 9h\nresult: O wins\n").unwrap();
    boardrules()
        .args(["test", bad.to_str().unwrap()])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("0 passed, 1 failed"))
        .stderr(predicate::str::contains("expected 'O wins', got 'none'"));
}

#[test]
fn a_piped_play_session_plays_undoes_and_redoes() {
    let out = boardrules()
        .args(["play", "caro"])
        .write_stdin("9h\n10h\nundo\nboard\nredo\nhistory\nmoves\nquit\n")
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        !stdout.contains("caro (X to move)>"),
        "no prompts when piped"
    );
    assert!(stdout.contains("undid 1 move\n"));
    assert!(stdout.contains("redid 1 move\n"));
    assert!(
        stdout.contains("  1. X 9h\n  2. O 10h\nmoves: 9h 10h"),
        "{stdout}"
    );
    assert!(stdout.contains("223 legal moves"));
}

#[test]
fn a_piped_session_with_errors_exits_1_and_keeps_the_game() {
    let out = boardrules()
        .args(["play", "caro"])
        .write_stdin("9h\n9h\nundo x\nfly\nhistory\n")
        .assert()
        .code(1);
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("already taken"));
    assert!(stderr.contains("'x' is not a count"), "{stderr}");
    assert!(
        stderr.contains("'fly' is not a command or a move"),
        "{stderr}"
    );
    assert!(stdout.ends_with("  1. X 9h\nmoves: 9h\n"), "{stdout}");
}

#[test]
fn hint_gives_a_move_and_a_reason_for_each_game_within_its_budget() {
    let start = std::time::Instant::now();
    boardrules()
        .args([
            "hint", "caro", "--level", "hard", "9h", "10a", "9i", "10b", "9j", "10c", "1o", "10d",
            "9k",
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("10e\n10e wins at once for O"));
    assert!(start.elapsed() < std::time::Duration::from_secs(3));
    // a game with no native form: Monte Carlo through the script finds the winning take
    boardrules()
        .args([
            "hint",
            "tests/fixtures/pile.rhai",
            "--level",
            "medium",
            "-o",
            "stones=3",
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("3\n"));
    boardrules()
        .args(["hint", "caro", "9h9i9j9k9l", "--position", "nonsense"])
        .assert()
        .code(1);
}

#[test]
fn gomocup_speaks_the_pbrain_protocol() {
    let input = "ABOUT\nSTART 15\nINFO timeout_turn 300\nINFO rule 9\nBEGIN\nTURN 8,8\nTAKEBACK 8,8\n\
                 BOARD\n7,7,1\n8,8,2\n7,8,1\n8,9,2\n7,9,1\n8,10,2\nDONE\nFOO\nTURN 99,1\nRESTART\nTURN 7,7\nEND\nBEGIN\n";
    let out = boardrules()
        .args(["gomocup", "caro"])
        .write_stdin(input)
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let answers: Vec<&str> = stdout
        .lines()
        .filter(|l| !l.starts_with("MESSAGE"))
        .collect();
    assert!(answers[0].starts_with("name=\"boardrules\""), "{stdout}");
    assert_eq!(answers[1], "OK");
    assert!(is_xy(answers[2]) && is_xy(answers[3]), "{stdout}");
    assert_eq!(answers[4], "ERROR 8,8 is not the last move");
    // three X stones in a column with O beside them: the brain makes the open four
    assert!(["7,10", "7,6"].contains(&answers[5]), "{stdout}");
    assert_eq!(answers[6], "UNKNOWN FOO");
    assert_eq!(answers[7], "ERROR 99,1 is not a legal move");
    assert_eq!(answers[8], "OK");
    assert!(is_xy(answers[9]) && answers[9] != "7,7");
    assert_eq!(answers.len(), 10, "nothing after END: {stdout}");
}

/// Whether `s` is a move `x,y` on a 15×15 board.
fn is_xy(s: &str) -> bool {
    let parts: Vec<&str> = s.split(',').collect();
    parts.len() == 2 && parts.iter().all(|p| p.parse::<u8>().is_ok_and(|n| n < 15))
}

#[test]
fn monte_carlo_hints_sample_chance_instead_of_reading_the_states_generator() {
    // In tests/fixtures/guess.rhai the die is rolled from the generator in the state: a search
    // that played moves with it would know the roll and score its call 100%.
    for seed in 1..=4 {
        let out = boardrules()
            .args(["hint", "tests/fixtures/guess.rhai", "--level", "medium"])
            .args(["-o", &format!("seed={seed}")])
            .assert()
            .success();
        let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        let percent: u32 = stdout
            .split("scored ")
            .nth(1)
            .and_then(|rest| rest.split('%').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no score in {stdout}"));
        assert!((30..=70).contains(&percent), "seed {seed}: {stdout}");
    }
}

/// A saved game of caro after 9h 10h, in `dir`.
fn caro_save(dir: &std::path::Path) -> std::path::PathBuf {
    let file = dir.join("caro.toml");
    std::fs::write(&file, "game = \"caro\"\nmoves = [\"9h\", \"10h\"]\n").unwrap();
    file
}

#[test]
fn play_load_takes_the_game_from_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = caro_save(dir.path());
    let file = file.to_str().unwrap();
    for args in [
        vec!["play", "--load", file],
        vec!["play", "caro", "--load", file],
        vec!["play", "rules/caro.rhai", "--load", file],
    ] {
        let out = boardrules()
            .args(&args)
            .write_stdin("history\n")
            .assert()
            .success();
        let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        assert!(stdout.contains("1. X 9h\n  2. O 10h"), "{args:?}: {stdout}");
    }
}

#[test]
fn play_load_with_another_game_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = caro_save(dir.path());
    let out = boardrules()
        .args(["play", "oware", "--load", file.to_str().unwrap()])
        .write_stdin("history\n")
        .assert()
        .code(1);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("is a saved game of caro, not oware"),
        "{stderr}"
    );
    assert!(
        stderr.contains("game = \"caro\""),
        "points at the file: {stderr}"
    );
    assert!(out.get_output().stdout.is_empty());
    // options and seeds come from the file too; and without a file a game is needed
    boardrules()
        .args(["play", "-o", "size=9", "--load", file.to_str().unwrap()])
        .assert()
        .code(2);
    boardrules().args(["play"]).assert().code(2);
}

#[test]
fn position_errors_point_at_the_line_of_the_file_for_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &str, usize); 8] = [
        // a typo in a cell, under the letter header
        ("caro", "   a b c d e\n 5 . . . . . 5\n 4 . . Z . . 4\n", 3),
        // a short bottom row: its own line, not the header's
        (
            "caro",
            "   a b c d e\n 5 . . . . . 5\n 4 . . . . . 4\n 3 . . . . . 3\n 2 . . . . . 2\n 1 . . . . 1\n   a b c d e\n",
            6,
        ),
        ("gomoku", "\n\n 5 . . . . .\n 4 . . . . .\n 3 . . . * .\n", 5),
        ("five_step", "1 0 0 0 2\n0 0 0 0 0\n0 0 3 0 0\n", 3),
        ("five_step", "y\\x 0 1 2 3 4\n  0 1 0 0 0 2\n  1 0 0 0 0 0\n  2 0 9 0 0 0\n", 4),
        (
            "lines98",
            "  a b c d e\n5 . . . . . 5\n4 . . . . . 4\n3 . . x . . 3\n2 . . . . . 2\n1 . . . . . 1\n",
            4,
        ),
        ("o_an_quan", "\n[5, 5, 5, 5, 5] <10> [5, 5, x, 5, 5] <10> (0 || 0)\n", 2),
        (
            "oware",
            "Player 1 score = 0\n  f  e  d  c  b  a\n  4  4  4  q  4  4\n  4  4  4  4  4  4\n",
            3,
        ),
    ];
    for (i, (game, text, line)) in cases.iter().enumerate() {
        let file = dir.path().join(format!("position{i}.txt"));
        std::fs::write(&file, text).unwrap();
        let out = boardrules()
            .args(["run", game, "--position", &format!("@{}", file.display())])
            .assert()
            .code(1);
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        let at = format!("{}:{line}:", file.display());
        assert!(stderr.contains(&at), "{game}: expected {at} in\n{stderr}");
        let shown = text.lines().nth(line - 1).unwrap().trim_end();
        assert!(
            stderr.contains(shown),
            "{game}: the line itself in\n{stderr}"
        );
    }
}

#[test]
fn boards_show_coordinates_and_the_old_forms_still_read() {
    let run = |args: &[&str]| common::stdout(args);
    let five = run(&["run", "five_step"]);
    assert!(
        five.starts_with("y\\x 0 1 2 3 4\n  0 1 0 0 0 2\n"),
        "{five}"
    );
    assert!(five.contains("\n  4 2 0 0 0 1"), "{five}");
    let old = "7........\n.........\n.........\n.........\n...55....\n...5....5\n\
               .........\n.........\n.........\nnext: 2 3 4  score: 0";
    let new = run(&["run", "lines98", "--position", old]);
    assert!(
        new.starts_with("  a b c d e f g h i\n9 7 . . . . . . . . 9\n"),
        "{new}"
    );
    assert!(new.contains("\n1 . . . . . . . . . 1\n  a b c d e f g h i\nnext: 2 3 4"));
    // both forms of each game's board are the same position
    for (game, old, to_move) in [
        ("lines98", old, "1"),
        (
            "five_step",
            "1 2 0 0 0\n0 2 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 1",
            "1",
        ),
        (
            "five_step",
            "1 2 0 0 0 0 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1",
            "2",
        ),
    ] {
        let rendered = run(&["run", game, "--to-move", to_move, "--position", old]);
        let moves =
            |position: &str| run(&["moves", game, "--to-move", to_move, "--position", position]);
        assert_eq!(moves(rendered.trim_end()), moves(old), "{game}");
        assert!(!moves(old).is_empty());
    }
}

#[test]
fn every_games_rendering_reads_back_as_itself() {
    for (game, moves) in [
        ("caro", vec!["9h", "10h"]),
        ("gomoku", vec!["9h"]),
        ("five_step", vec!["0 0 0 1"]),
        ("lines98", vec![]),
        ("o_an_quan", vec!["3P"]),
        ("oware", vec!["A"]),
    ] {
        let state = |args: Vec<&str>| {
            let stdout = common::stdout(args);
            let last: serde_json::Value =
                serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
            last["state"].as_str().unwrap().to_string()
        };
        let mut args = vec!["run", game, "--seed", "3", "--json"];
        args.extend(&moves);
        let shown = state(args);
        let again = state(vec![
            "run",
            game,
            "--seed",
            "3",
            "--json",
            "--position",
            &shown,
        ]);
        assert_eq!(again, shown, "{game}");
    }
}

#[test]
fn bench_plays_exactly_the_playouts_asked_for_the_same_games_every_run() {
    let moves = || -> (u64, u64) {
        let out = boardrules()
            .args([
                "bench",
                "examples/games/kalah.rhai",
                "--playouts",
                "3",
                "--json",
            ])
            .assert()
            .success();
        let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        let side = &json["scripted"];
        (
            side["playouts"].as_u64().unwrap(),
            side["moves"].as_u64().unwrap(),
        )
    };
    let (playouts, played) = moves();
    assert_eq!(playouts, 3);
    assert!(played >= 3, "{played}");
    assert_eq!(moves(), (playouts, played));
    boardrules()
        .args(["bench", "examples/games/kalah.rhai", "--playouts", "0"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("--playouts must be 1 to"));
    boardrules()
        .args([
            "bench",
            "examples/games/kalah.rhai",
            "--playouts",
            "3",
            "--seconds",
            "1",
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains("cannot be used with"));
}

/// The fields the book's table of `run --json` documents, in its order.
fn documented_json_fields() -> Vec<String> {
    let book = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/cli.md"),
    )
    .unwrap();
    let section = book
        .split("## `run --json`: one line a state")
        .nth(1)
        .expect("the book has a section on run --json");
    let table = section.split("\n## ").next().unwrap();
    table
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect()
}

#[test]
fn run_json_has_exactly_the_documented_fields() {
    let out = common::stdout(["run", "o_an_quan", "--json", "1P"]);
    let documented = documented_json_fields();
    assert_eq!(documented.len(), 7, "{documented:?}");
    for line in out.lines() {
        let object: serde_json::Value = serde_json::from_str(line).unwrap();
        let mut keys: Vec<String> = object.as_object().unwrap().keys().cloned().collect();
        let mut expected = documented.clone();
        keys.sort();
        expected.sort();
        assert_eq!(keys, expected, "{line}");
    }
    // the events of a move, and the legal moves, are there as documented
    let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(last["ply"], 1);
    assert_eq!(last["move"], "1P");
    assert_eq!(last["to_move"], "player 2");
    assert!(last["events"][0]
        .as_str()
        .unwrap()
        .starts_with("sow 5 from pit 1"));
    assert!(last["moves"].as_array().unwrap().contains(&"6P".into()));
}

#[test]
fn bench_seed_fixes_the_random_playouts() {
    let moves = |seed: &str| {
        let out = common::stdout([
            "bench",
            "docs/scripts/tic_tac_toe.rhai",
            "--playouts",
            "20",
            "--script-only",
            "--json",
            "--seed",
            seed,
        ]);
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        v["scripted"]["moves"].as_u64().unwrap()
    };
    // a game without chance: the seed still chooses the playouts' moves
    assert_eq!(moves("1"), moves("1"));
    assert_ne!(moves("1"), moves("2"));
}
