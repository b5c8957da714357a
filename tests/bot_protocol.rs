//! The class bot protocol for every two-player game: `boardrules bot` reads the cells the
//! referee passes (`OPPONENT_ID ME C1 … CN`), and the referee runs `boardrules bot`, the
//! built-in computer and external bots (the examples, without boardrules on the PATH) both ways
//! round, on one-line and many-line boards.

mod common;
use common::boardrules;

/// `count` cells holding `value`.
fn cells(count: usize, value: &str) -> Vec<String> {
    vec![value.to_string(); count]
}

/// The legal moves of `game` in the position `cells` with player `me` (1-based) to move.
fn legal_moves(game: &str, cells: &[String], me: &str) -> Vec<String> {
    common::stdout(["moves", game, "--to-move", me, "--cells", &cells.join(" ")])
        .lines()
        .map(str::to_string)
        .collect()
}

/// Runs `boardrules bot GAME 1102065 ME CELLS…` in a fresh folder; the move it wrote.
fn bot_move(game: &str, me: &str, cells: &[String]) -> String {
    let dir = tempfile::tempdir().unwrap();
    boardrules()
        .current_dir(dir.path())
        .args(["bot", game, "--time-ms", "100", "1102065", me])
        .args(cells)
        .assert()
        .success();
    let text = std::fs::read_to_string(dir.path().join("play.txt")).unwrap();
    text.strip_suffix('\n').expect("one line").to_string()
}

#[test]
fn the_bot_reads_a_caro_board_of_225_cells() {
    let empty = cells(225, "0");
    let mv = bot_move("caro", "1", &empty);
    assert!(legal_moves("caro", &empty, "1").contains(&mv), "{mv}");
    // X (1) has four in a row on the bottom row, a1 to d1: O (2) must block at e1.
    let mut board = empty.clone();
    for x in 0..4 {
        board[14 * 15 + x] = "1".into();
    }
    board[..3].fill("2".into());
    assert_eq!(bot_move("caro", "2", &board), "1e");
}

#[test]
fn the_bot_reads_oware_and_o_an_quan_tracks() {
    // the houses (or the ring's nodes), then the scores
    let mut oware = cells(14, "4");
    oware[12] = "0".into();
    oware[13] = "0".into();
    let mv = bot_move("oware", "2", &oware);
    assert!(legal_moves("oware", &oware, "2").contains(&mv), "{mv}");
    let mut quan = cells(14, "5");
    quan[5] = "10".into();
    quan[11] = "10".into();
    quan[12] = "0".into();
    quan[13] = "0".into();
    let mv = bot_move("o_an_quan", "1", &quan);
    assert!(legal_moves("o_an_quan", &quan, "1").contains(&mv), "{mv}");
}

#[test]
fn the_mancala_cells_carry_the_scores() {
    let run =
        |game: &str, cells: &str| common::stdout(["run", game, "--to-move", "2", "--cells", cells]);
    let oware = run("oware", "0 4 4 4 4 4 4 4 4 4 4 4 3 1");
    assert!(oware.contains("Player 1 score = 1 [PLAYING]"), "{oware}");
    assert!(oware.contains("Player 0 score = 3"), "{oware}");
    let quan = run("o_an_quan", "0 5 5 5 5 10 5 5 5 5 5 10 5 -2");
    assert!(
        quan.starts_with("[0, 5, 5, 5, 5] <10> [5, 5, 5, 5, 5] <10> (5 || -2)"),
        "{quan}"
    );
}

#[test]
fn a_wrong_number_of_cells_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = boardrules()
        .current_dir(dir.path())
        .args(["bot", "caro", "7", "1"])
        .args(cells(224, "0"))
        .assert()
        .code(1);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("cannot read the position"), "{stderr}");
    assert!(!dir.path().join("play.txt").exists());
}

/// Runs a referee match and returns its stdout; it must succeed.
fn referee(game: &str, p1: &str, p2: &str, extra: &[&str]) -> String {
    let out = boardrules()
        .env_remove("BOARDRULES")
        .env("PATH", "/usr/bin:/bin")
        .args(["referee", game, "--p1", p1, "--p2", p2, "--games", "2"])
        .args(["--max-plies", "12", "--moves"])
        .args(extra)
        .assert()
        .success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

/// Every game ended by the rules (a win or a draw) or the ply limit, never by a bot failing.
fn assert_clean(out: &str) {
    assert!(out.contains("totals over 2 games"), "{out}");
    for line in out.lines().filter(|l| l.starts_with("game ")) {
        assert!(
            line.contains("plies played")
                || line.contains("by the rules")
                || line.contains("the rules say draw"),
            "{out}"
        );
    }
}

#[test]
fn the_referee_runs_boardrules_bots_and_the_builtin_on_caro_both_ways() {
    let bot = "boardrules bot caro --time-ms 30";
    let out = referee("caro", bot, "builtin:easy", &[]);
    assert_clean(&out);
    assert!(out.contains("game 2: p2 (builtin:easy) starts"), "{out}");
    // a relative script path works although the bot runs in its own folder
    let out = referee(
        "rules/caro.rhai",
        "boardrules bot rules/caro.rhai --time-ms 30",
        "examples/bots/random_bot.sh rules/caro.rhai",
        &[],
    );
    assert_clean(&out);
}

#[test]
fn the_referee_runs_the_example_bots_without_boardrules_on_the_path() {
    let out = referee(
        "oware",
        "examples/bots/random_bot.sh oware",
        "boardrules bot oware --time-ms 30",
        &[],
    );
    assert_clean(&out);
    let out = referee(
        "five_step",
        "examples/bots/boardrules_bot.sh --time-ms 30",
        "examples/bots/random_bot.sh",
        &[],
    );
    assert_clean(&out);
    let out = referee(
        "o_an_quan",
        "examples/bots/random_bot.sh o_an_quan",
        "builtin:easy",
        &[],
    );
    assert_clean(&out);
}

#[test]
fn a_failing_bot_shows_its_stderr_escaped_and_bounded() {
    let noisy = "sh -c 'seq 1 50 >&2; printf \"bad board\\033[31m\\n\" >&2; exit 3'";
    let out = referee("caro", noisy, "builtin:easy", &[]);
    assert!(
        out.contains("exited with exit status: 3; its stderr:"),
        "{out}"
    );
    assert!(out.contains("  | bad board\\u{1b}[31m"), "{out}");
    assert!(!out.contains('\u{1b}'), "raw escape in {out:?}");
    assert!(
        out.contains("  | 50\n") && !out.contains("  | 40\n"),
        "{out}"
    );
}
