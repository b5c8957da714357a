//! The computer player's tactics, checked through the rules for any game and variant: a win at
//! once is played, the opponent's win at once is blocked, and no move the script refuses is
//! recommended.

mod common;

use common::{boardrules, stdout};

/// The cookbook's Caro variant that closes column h: Caro's native form with a move filter
/// (`tests/move_filters.rs` checks the same position for each shape of narrowing).
const NO_H: &str = "tests/fixtures/caro_no_h.rhai";

#[test]
fn a_variant_plays_its_win_at_once_at_every_level() {
    for level in ["easy", "medium", "hard"] {
        let out = stdout([
            "hint", NO_H, "--level", level, "7g", "8f", "6g", "9e", "5g", "10d", "4g", "1a",
        ]);
        assert!(
            out.starts_with("8g\n8g wins at once for X\n"),
            "{level}: {out}"
        );
    }
}

#[test]
fn a_variant_blocks_the_opponents_win_at_once() {
    // X has four in column g, 3g taken by O: only 8g stops five.
    let out = stdout(["hint", NO_H, "7g", "3g", "6g", "9e", "5g", "10d", "4g"]);
    assert!(out.starts_with("8g\nblocks X's win at 8g\n"), "{out}");
}

#[test]
fn a_listed_move_the_script_refuses_is_never_recommended() {
    // X to move with a2 and c2: b2 would win, and the native search proposes it, but play()
    // refuses it with five cells empty. Another move is recommended, and `run` plays it.
    let game = "tests/fixtures/ttt_refuses_b2.rhai";
    let opening = ["a2", "a1", "c2", "c3"];
    for level in ["easy", "hard"] {
        let mut args = vec!["hint", game, "--level", level];
        args.extend(opening);
        let out = stdout(&args);
        let mv = out.lines().next().unwrap_or_default().to_string();
        assert_ne!(mv, "b2", "{level}: {out}");
        let mut run = vec!["run".to_string(), game.to_string()];
        run.extend(opening.iter().map(|m| m.to_string()));
        run.push(mv);
        boardrules().args(&run).assert().success();
    }
}

/// How many moves ahead a reason says the computer looked ("looked 7 moves ahead", "looking 1
/// move ahead"), if it says.
fn moves_ahead(reason: &str) -> Option<usize> {
    let words: Vec<&str> = reason.split_whitespace().collect();
    words.windows(3).find_map(|w| {
        let verb = w[0].trim_start_matches('(');
        let said = matches!(verb, "looked" | "looking") && w[2].starts_with("move");
        said.then(|| w[1].parse().ok()).flatten()
    })
}

#[test]
fn hints_say_in_plain_words_how_far_they_looked_and_never_beyond_the_games_end() {
    // Seven cells are left after b2 a1: no line of play is longer, however deep `hard` goes
    // (the script's search and the native placement search alike).
    for game in [
        "docs/scripts/ttt_evaluate.rhai",
        "docs/scripts/tic_tac_toe_native.rhai",
    ] {
        let out = stdout(["hint", game, "--level", "hard", "b2", "a1"]);
        let reason = out.lines().nth(1).unwrap_or_default();
        let n = moves_ahead(reason).unwrap_or_else(|| panic!("{game}: {out}"));
        assert!((1..=7).contains(&n), "{game}: {out}");
        for jargon in [
            "sampled",
            "evaluation",
            "simulated",
            "positions seen",
            "searched",
        ] {
            assert!(!reason.contains(jargon), "{game}: {jargon}: {out}");
        }
    }
}
