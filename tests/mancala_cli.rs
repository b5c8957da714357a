//! The mancala games from the command line: the report's golden lines, its test game, `moves`.

mod common;
use common::{boardrules, stdout};

#[test]
fn the_golden_lines_come_out_exactly() {
    let out = stdout(["run", "o_an_quan", "3P", "7P", "5P"]);
    // the ring lines, under which the legend follows
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with('[') || l.starts_with("> "))
        .collect();
    assert_eq!(
        lines,
        [
            "[5, 5, 5, 5, 5] <10> [5, 5, 5, 5, 5] <10> (0 || 0)",
            "> 3P",
            "[6, 6, 0, 0, 6] <11> [6, 6, 0, 6, 6] <11> (6 || 0)",
            "> 7P",
            "[6, 0, 0, 1, 7] <12> [7, 7, 1, 0, 6] <11> (6 || 6)",
            "> 5P",
            "[2, 3, 3, 4, 0] <0> [0, 0, 4, 3, 9] <14> (22 || 6)",
        ]
    );
}

#[test]
fn the_board_names_pits_quans_sides_and_scores_and_reads_back_with_or_without_them() {
    let out = stdout(["run", "o_an_quan", "3P"]);
    let after: Vec<&str> = out.lines().skip_while(|l| *l != "> 3P").collect();
    assert_eq!(
        after[1..4],
        [
            "[6, 6, 0, 0, 6] <11> [6, 6, 0, 6, 6] <11> (6 || 0)",
            " 1  2  3  4  5    A  10  9  8  7  6    B  p1   p2",
            "player 1: pits 1-5, quan A, score p1; player 2: pits 6-10, quan B, score p2",
        ]
    );
    // the new rendering and the report's one line are the same position
    let moves = |position: &str| stdout(["moves", "o_an_quan", "--position", position]);
    assert_eq!(moves(&after[1..4].join("\n")), moves(after[1]));
    assert_eq!(moves(after[1]), "1P\n1T\n2P\n2T\n5P\n5T\n");
}

#[test]
fn the_reports_test_game_ends_with_player_2_winning() {
    let moves = "3r 7r 1l 10l 1r 8l 2r 6r 1l 6l 2r 10l 3r 9r 2r 8l 3r 9l 1r 10r";
    let out = stdout(["run", "o_an_quan", "-o", "direction=ring", moves]);
    assert!(out.contains("[0, 0, 0, 0, 0] <0> [0, 1, 1, 1, 0] <0> (20 || 47)\n"));
    assert!(out.contains("* game over: 20 to 50\n"));
    assert!(out.trim_end().ends_with("result: player 2 wins"), "{out}");
    // Under the default convention the 7th move picks an empty pit.
    boardrules()
        .args(["run", "o_an_quan", moves])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("pit 2 is empty"));
}

#[test]
fn moves_lists_the_legal_moves_in_the_games_notation() {
    assert_eq!(
        stdout(["moves", "o_an_quan", "3P"])
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["6P", "6T", "7P", "7T", "9P", "9T", "10P", "10T"]
    );
    let refill = "[0, 0, 2, 1, 6] <20> [0, 0, 0, 0, 0] <19> (21 || 1)";
    let out = stdout(["moves", "o_an_quan", "--position", refill, "--to-move", "2"]);
    assert_eq!(
        out.lines().count(),
        10,
        "every pit, after the refill: {out}"
    );
    assert_eq!(
        stdout(["moves", "oware", "A"])
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["a", "b", "c", "d", "e", "f"]
    );
}

#[test]
fn hints_search_the_sowing_games_natively_at_the_scripts_levels() {
    // `levels()` makes easy look one move ahead
    let out = stdout(["hint", "oware", "--level", "easy"]);
    assert!(out.contains("1 move ahead"), "{out}");
    // after 3P 7P, 5P captures 16 at once (the report's trace): hard sees it and goes deeper
    let start = std::time::Instant::now();
    let out = stdout(["hint", "o_an_quan", "3P", "7P", "--level", "hard"]);
    assert!(start.elapsed() < std::time::Duration::from_millis(2500));
    let reason = out.lines().nth(1).unwrap();
    assert!(reason.contains("moves ahead"), "{out}");
    let played = stdout(["run", "o_an_quan", "3P", "7P", out.lines().next().unwrap()]);
    assert!(
        played.contains("(6 || 6)") && !played.ends_with("(6 || 6)\n"),
        "{played}"
    );
}

#[test]
fn a_bad_levels_function_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("pile.rhai");
    let pile = std::fs::read_to_string("tests/fixtures/pile.rhai").unwrap();
    std::fs::write(
        &script,
        format!("{pile}\nfn levels() {{ #{{ easy: #{{ depth: 0 }} }} }}\n"),
    )
    .unwrap();
    let out = boardrules()
        .args(["hint", script.to_str().unwrap(), "--level", "easy"])
        .assert()
        .code(1);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("levels(): `easy.depth` must be a whole number of at least 1"),
        "{stderr}"
    );
}
