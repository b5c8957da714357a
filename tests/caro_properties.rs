//! Properties of the caro script on random games: undo restores the exact state, rendering and
//! parsing round-trip, illegal moves change nothing, and a game ends exactly when someone wins or
//! the board fills.

use boardrules::{
    runtime::{Game, GameError, History},
    script::{Library, ScriptedGame},
};
use proptest::prelude::*;

fn game(options: &[(&str, &str)]) -> ScriptedGame {
    let library = Library::with_rules_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
    let mut g = ScriptedGame::load(&library, "caro").unwrap_or_else(|d| panic!("{}", d[0]));
    for (k, v) in options {
        g.set_option(k, v).unwrap();
    }
    g
}

/// Plays up to `plies` moves chosen by `picks` (indices into the legal moves).
fn random_history(g: &ScriptedGame, picks: &[usize]) -> History<ScriptedGame> {
    let mut h = History::new(g.start().unwrap());
    for &pick in picks {
        if g.outcome(h.current()).unwrap().is_some() {
            break;
        }
        let moves = g.legal_moves(h.current()).unwrap();
        h.play(g, &moves[pick % moves.len()]).unwrap();
    }
    h
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn undo_restores_the_exact_state(picks in proptest::collection::vec(0usize..1000, 1..60)) {
        let g = game(&[("size", "9")]);
        let mut h = random_history(&g, &picks);
        let mut seen: Vec<(u64, String)> = (0..=h.ply())
            .map(|i| {
                let s = h.state_at(i).unwrap();
                (g.state_hash(s), g.render(s).unwrap())
            })
            .collect();
        while h.undo() {
            seen.pop();
            let s = h.current();
            prop_assert_eq!(&(g.state_hash(s), g.render(s).unwrap()), seen.last().unwrap());
        }
        prop_assert_eq!(h.ply(), 0);
    }

    #[test]
    fn render_then_parse_gives_the_same_state(picks in proptest::collection::vec(0usize..1000, 0..80)) {
        let g = game(&[("size", "9"), ("win", "4")]);
        let h = random_history(&g, &picks);
        let s = h.current();
        let text = g.render(s).unwrap();
        let back = g.parse_state(&text, None).unwrap();
        prop_assert_eq!(g.render(&back).unwrap(), text);
        prop_assert_eq!(g.state_hash(&back), g.state_hash(s));
        prop_assert_eq!(g.outcome(&back).unwrap(), g.outcome(s).unwrap());
    }

    #[test]
    fn illegal_moves_change_nothing(picks in proptest::collection::vec(0usize..1000, 1..40), bad in "[0-9]{0,3}[a-z~]{0,2}") {
        let g = game(&[]);
        let mut h = random_history(&g, &picks);
        let before = (h.ply(), g.state_hash(h.current()), h.redo_depth());
        // An occupied cell.
        let taken = h.steps()[0].text.clone();
        prop_assert!(h.play_text(&g, &taken).is_err());
        // Random text: either a legal move or an error that changes nothing.
        if h.play_text(&g, &bad).is_ok() {
            // It was a legal move after all: start again from the same game.
            h = random_history(&g, &picks);
        }
        prop_assert_eq!((h.ply(), g.state_hash(h.current()), h.redo_depth()), before);
    }

    #[test]
    fn a_game_ends_only_on_a_win_or_a_full_board(picks in proptest::collection::vec(0usize..1000, 49..50)) {
        let g = game(&[("size", "7"), ("win", "4")]);
        let h = random_history(&g, &picks);
        let s = h.current();
        match g.outcome(s).unwrap() {
            None => prop_assert!(h.ply() < 49 && !g.legal_moves(s).unwrap().is_empty()),
            Some(boardrules::runtime::Outcome::Draw) => prop_assert_eq!(h.ply(), 49),
            Some(boardrules::runtime::Outcome::Win(p)) => {
                // The winner moved last.
                prop_assert_eq!(p, (h.ply() + 1) % 2);
                prop_assert!(g.legal_moves(s).unwrap().is_empty());
            }
        }
    }
}

#[test]
fn a_move_after_the_end_is_refused() {
    let g = game(&[]);
    let mut h = History::new(g.start().unwrap());
    for m in "9h 10h 9i 10i 9j 10j 9k 10k 9l".split(' ') {
        h.play_text(&g, m).unwrap();
    }
    assert!(matches!(h.play_text(&g, "1a"), Err(GameError::GameOver(r)) if r == "X wins"));
    assert_eq!(h.ply(), 9);
}
