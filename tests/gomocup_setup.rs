//! Stones from outside the rules (a Gomocup `BOARD` set up stone by stone, an opponent's `TURN`)
//! played as the verified native form allows them (`ScriptedGame::play_allowed`) rather than by
//! listing the script's moves, which renju's `moves()` does by judging every empty cell: the
//! states reached are exactly those of listing them, and a stone the rules refuse is refused
//! with the same message.

use boardrules::{
    runtime::{Cell, Game, GameError, History},
    script::{Library, ScriptedGame},
};
use rhai::Dynamic;

fn game(name: &str) -> ScriptedGame {
    let library = Library::with_rules_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
    ScriptedGame::load(&library, name).unwrap_or_else(|d| panic!("{}", d[0]))
}

/// The midgame positions the depth benchmark searches (moves from the start, Black first).
fn midgames() -> Vec<Vec<Cell>> {
    let text = include_str!("../benches/gomocup/midgame15.txt");
    text.lines()
        .map(|line| line.split('#').next().unwrap_or_default().trim())
        .filter(|line| !line.is_empty())
        .map(|line| {
            line.split_whitespace()
                .map(|xy| {
                    let (x, y) = xy.split_once(',').expect("x,y");
                    Cell::new(x.parse().unwrap(), y.parse().unwrap())
                })
                .collect()
        })
        .collect()
}

/// Plays `mv` both ways; the two results, with errors as their messages.
fn both_ways(
    game: &ScriptedGame,
    listed: &mut History<ScriptedGame>,
    allowed: &mut History<ScriptedGame>,
    mv: &Dynamic,
) -> (Result<(), String>, Result<(), String>) {
    let text = |e: GameError| e.to_string();
    let by_list = listed.play(game, mv).map(|_| ()).map_err(text);
    let by_form = allowed
        .play_checked(game, mv, |s, m, t| game.play_allowed(s, m, t))
        .map(|_| ())
        .map_err(text);
    (by_list, by_form)
}

#[test]
fn the_midgame_positions_set_up_both_ways_are_the_same_states() {
    let renju = game("renju");
    let mut freestyle = game("caro");
    freestyle.set_option("exact", "false").unwrap();
    let positions = midgames();
    assert!(positions.len() >= 20, "{} positions", positions.len());
    for g in [&renju, &freestyle] {
        assert!(g.moves_are_cells());
        for moves in &positions {
            let mut listed = History::new(g.start().unwrap());
            let mut allowed = History::new(g.start().unwrap());
            for &cell in moves {
                let (a, b) = both_ways(g, &mut listed, &mut allowed, &Dynamic::from(cell));
                assert_eq!(a, Ok(()), "{} at {cell:?}", g.name());
                assert_eq!(b, Ok(()), "{} at {cell:?}", g.name());
                assert_eq!(
                    g.state_hash(listed.current()),
                    g.state_hash(allowed.current()),
                    "{} after {} stones",
                    g.name(),
                    listed.ply()
                );
            }
            assert_eq!(
                g.render(listed.current()).unwrap(),
                g.render(allowed.current()).unwrap()
            );
        }
    }
}

/// Black to move with `black` and `white` on the board (as many of each, played in turn).
fn position(game: &ScriptedGame, black: &[(i64, i64)], white: &[(i64, i64)]) -> Dynamic {
    let mut history = History::new(game.start().unwrap());
    for (b, w) in black.iter().zip(white) {
        for &(x, y) in [b, w] {
            history.play(game, &Dynamic::from(Cell::new(x, y))).unwrap();
        }
    }
    history.current().clone()
}

#[test]
fn every_cell_is_accepted_or_refused_as_listing_the_moves_does() {
    let renju = game("renju");
    let far_white = [(0, 0), (2, 0), (4, 0), (0, 2), (14, 14)];
    let positions = [
        // 7,7 is a double three for Black.
        position(&renju, &[(7, 5), (7, 6), (5, 7), (6, 7)], &far_white[..4]),
        // 6,7 is an overline.
        position(
            &renju,
            &[(3, 7), (4, 7), (5, 7), (7, 7), (8, 7)],
            &far_white,
        ),
        // 6,7 is a double four.
        position(&renju, &[(3, 7), (5, 7), (7, 7), (9, 7)], &far_white[..4]),
    ];
    let mut refused = 0;
    for state in &positions {
        assert!(
            renju.native(state).unwrap().is_some(),
            "a verified native form"
        );
        for y in -1..16 {
            for x in -1..16 {
                let mv = Dynamic::from(Cell::new(x, y));
                let mut listed = History::new(state.clone());
                let mut allowed = History::new(state.clone());
                let (a, b) = both_ways(&renju, &mut listed, &mut allowed, &mv);
                assert_eq!(a, b, "at {x},{y}");
                if a.is_ok() {
                    assert_eq!(
                        renju.state_hash(listed.current()),
                        renju.state_hash(allowed.current())
                    );
                } else {
                    refused += 1;
                }
            }
        }
    }
    // The three forbidden points, the stones on the board, the cells off it.
    assert_eq!(refused, 3 + (8 + 10 + 8) + 3 * (17 * 17 - 15 * 15));
}

#[test]
fn a_variant_whose_play_takes_what_its_moves_leave_out_is_refused_there() {
    // `moves` leaves column h out; Caro's `play` would take it.
    let closed = game(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/variants/caro_column_h.rhai"
    ));
    let state = position(&closed, &[(6, 6), (8, 8)], &[(6, 8), (8, 6)]);
    assert!(
        closed.native(&state).unwrap().is_some(),
        "a verified native form"
    );
    let mut refused = Vec::new();
    for y in 0..15 {
        for x in 0..15 {
            let mv = Dynamic::from(Cell::new(x, y));
            let mut listed = History::new(state.clone());
            let mut allowed = History::new(state.clone());
            let (a, b) = both_ways(&closed, &mut listed, &mut allowed, &mv);
            assert_eq!(a, b, "at {x},{y}");
            if a.is_err() {
                refused.push((x, y));
            }
        }
    }
    let column_h: Vec<_> = refused.iter().filter(|(x, _)| *x == 7).collect();
    assert_eq!((column_h.len(), refused.len()), (15, 15 + 4), "{refused:?}");
}

#[test]
fn a_game_whose_moves_are_not_cells_lists_them() {
    let sowing = game("o_an_quan");
    assert!(!sowing.moves_are_cells());
    let start = sowing.start().unwrap();
    let mv = sowing.legal_moves(&start).unwrap().remove(0);
    let mut listed = History::new(start.clone());
    let mut allowed = History::new(start);
    let (a, b) = both_ways(&sowing, &mut listed, &mut allowed, &mv);
    assert_eq!((a.clone(), b), (Ok(()), Ok(())), "{a:?}");
    assert_eq!(
        sowing.state_hash(listed.current()),
        sowing.state_hash(allowed.current())
    );
}

/// The state after `black` and `white` played in turn (Black first), from `game`'s start.
fn played(game: &ScriptedGame, black: &[(i64, i64)], white: &[(i64, i64)]) -> Dynamic {
    let mut history = History::new(game.start().unwrap());
    for i in 0..black.len().max(white.len()) {
        for side in [black, white] {
            if let Some(&(x, y)) = side.get(i) {
                history.play(game, &Dynamic::from(Cell::new(x, y))).unwrap();
            }
        }
    }
    history.current().clone()
}

#[test]
fn the_roots_moves_come_from_the_verified_native_form_in_the_scripts_order() {
    let renju = game("renju");
    let closed = game(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/variants/caro_column_h.rhai"
    ));
    let sowing = game("o_an_quan");
    let far_white = [(0, 0), (2, 0), (4, 0), (0, 2)];
    // Renju's double three at 7,7; the variant's column h (x = 7) closed.
    let renju_black = [(7, 5), (7, 6), (5, 7), (6, 7)];
    let closed_black = [(6, 5), (6, 6), (4, 7), (5, 7)];
    for (g, black) in [(&renju, renju_black), (&closed, closed_black)] {
        let state = played(g, &black, &far_white);
        let (_, native) = g.root_moves(&state).unwrap();
        assert!(
            !native,
            "{}: not before the native form is verified",
            g.name()
        );
        assert!(g.native(&state).unwrap().is_some(), "{}", g.name());
        let (moves, native) = g.root_moves(&state).unwrap();
        assert!(native, "{}", g.name());
        let cells = |moves: Vec<Dynamic>| -> Vec<Option<Cell>> {
            moves.into_iter().map(|m| m.try_cast::<Cell>()).collect()
        };
        let listed = g.legal_moves(&state).unwrap();
        assert_eq!(cells(moves.clone()), cells(listed), "{}", g.name());
        assert!(moves.iter().all(|mv| g.lists(&state, mv).unwrap()));
    }
    let start = sowing.start().unwrap();
    let _ = sowing.native(&start).unwrap();
    let (moves, native) = sowing.root_moves(&start).unwrap();
    assert!(!native);
    assert_eq!(moves.len(), sowing.legal_moves(&start).unwrap().len());
}

#[test]
fn a_choice_among_the_native_roots_moves_the_script_does_not_list_is_made_again() {
    use boardrules::search::player::{choose, Level};
    let game = game(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/caro_corner_note.rhai"
    ));
    // X (Black) to move with four on the top row: 1a and 6a both win.
    let state = played(
        &game,
        &[(1, 0), (2, 0), (3, 0), (4, 0)],
        &[(7, 7), (8, 8), (9, 9), (10, 10)],
    );
    assert!(game.native(&state).unwrap().is_some(), "verified");
    let corner = Dynamic::from(Cell::new(0, 0));
    let time = Some(std::time::Duration::from_millis(300));
    let open = choose(&game, &state, Level::Easy, time, 1)
        .unwrap()
        .unwrap();
    assert_eq!(open.mv.clone().try_cast::<Cell>(), Some(Cell::new(0, 0)));
    // A state marked so that `moves()` leaves the corner out, which the native form allows.
    let mut marked = state.clone().try_cast::<rhai::Map>().unwrap();
    marked.insert("corner_closed".into(), Dynamic::TRUE);
    let marked = Dynamic::from_map(marked);
    let (moves, native) = game.root_moves(&marked).unwrap();
    assert!(
        native
            && moves
                .iter()
                .any(|m| m.clone().try_cast::<Cell>() == Some(Cell::new(0, 0)))
    );
    assert!(!game.lists(&marked, &corner).unwrap());
    let hint = choose(&game, &marked, Level::Easy, time, 1)
        .unwrap()
        .unwrap();
    assert_eq!(
        hint.mv.try_cast::<Cell>(),
        Some(Cell::new(5, 0)),
        "{}",
        hint.reason
    );
}
