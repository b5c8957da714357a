//! Variants of every shape keep their base's native form: a `moves()` that keeps some of its
//! base's moves becomes the base's native form plus a move filter, verified against the script
//! like every native form (a filter that disagrees is caught), and a variant that redefines one
//! helper its base names (`closed`, `line_length`) plays at native speed. The variant files are
//! the benchmark's (`benches/variants/`).

mod common;

use boardrules::{
    native_games::{placement::Placement, sowing::Sowing},
    runtime::{Cell, Game},
    script::{native_form::NativeGame, verify, Library, ScriptedGame},
};
use common::{fixture, run, stdout};

/// The path of `benches/variants/NAME.rhai`.
fn variant(name: &str) -> String {
    format!(
        "{}/benches/variants/{name}.rhai",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn load(game: &str) -> ScriptedGame {
    let library = Library::with_rules_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
    ScriptedGame::load(&library, game).unwrap_or_else(|d| panic!("{}", d[0]))
}

/// The native form `game` uses from its start (verified), as a placement game.
fn native_placement(game: &ScriptedGame) -> Option<Placement> {
    match game.native(&game.start().unwrap()).unwrap() {
        Some(NativeGame::Placement(p)) => Some(p),
        _ => None,
    }
}

/// The native form `game` uses from its start (verified), as a sowing game narrowed by its
/// move filter as a playout from the start narrows it.
fn native_sowing(game: &ScriptedGame) -> Option<Sowing> {
    let start = game.start().unwrap();
    match game.native(&start).unwrap() {
        Some(NativeGame::Sowing(s)) => Some(game.sowing_narrowed(s, &start).unwrap()),
        _ => None,
    }
}

/// The narrowing shapes the runtime recognises, each closing column h (the last closes the
/// middle column, h on Caro's board).
const SHAPES: [&str; 5] = [
    "caro_h_closure",
    "caro_h_helper",
    "caro_h_helper_state",
    "caro_h_retain",
    "caro_h_loop",
];

#[test]
fn every_recognised_narrowing_keeps_the_native_form_with_a_filter() {
    for name in SHAPES {
        let game = load(&variant(name));
        assert!(game.move_filter().is_some(), "{name}: no filter recognised");
        let start = game.start().unwrap();
        assert_eq!(
            verify::compare(&game, &start, verify::FROM_START),
            None,
            "{name}"
        );
        let p = native_placement(&game).unwrap_or_else(|| panic!("{name}: no native form"));
        assert!(p.is_filtered(), "{name}");
        let cells = game.allowed_cells(&p, &start).unwrap();
        assert_eq!(cells.len(), 210, "{name}");
        assert!(cells.iter().all(|&i| i % 15 != 7), "{name}");
    }
}

#[test]
fn a_shape_not_recognised_stays_as_it_was() {
    let game = load(&fixture("caro_no_h_continue"));
    assert!(game.move_filter().is_none());
    assert!(native_placement(&game).is_none(), "dropped: it disagrees");
}

#[test]
fn a_filter_that_reads_what_changes_is_caught() {
    // X may not play column a and O not column b: the filter is asked with the state a playout
    // starts from (X to move), so after X's first move it says column a where the script says b.
    let game = load(&fixture("caro_turn_column"));
    assert!(game.move_filter().is_some());
    let start = game.start().unwrap();
    let d = verify::compare(&game, &start, verify::FROM_START).expect("a difference");
    assert_eq!(d.moves.len(), 1, "{d:?}");
    assert!(d.what.contains("the native form allows"), "{}", d.what);
    assert!(native_placement(&game).is_none());
}

#[test]
fn random_playouts_of_a_filtered_form_never_play_a_filtered_cell() {
    let game = load(&variant("caro_h_loop"));
    let start = game.start().unwrap();
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(7);
    for _ in 0..30 {
        let mut state = start.clone();
        // Half the board at random through the script, then a native playout from there.
        for _ in 0..40 {
            let moves = game.legal_moves(&state).unwrap();
            let mv = &moves[rand::Rng::random_range(&mut rng, 0..moves.len())];
            state = game.play(&state, mv).unwrap().state;
        }
        let Some(NativeGame::Placement(mut p)) = game.native(&state).unwrap() else {
            panic!("no native form")
        };
        let before = p.grid();
        let mut referee = boardrules::script::game::HookReferee::new(&game, &state);
        p.random_playout_refereed(&mut rng, &mut referee);
        referee.finish().unwrap();
        let after = p.grid();
        for y in 0..15 {
            let c = Cell::new(7, y);
            assert_eq!(after.get(c), before.get(c), "a stone in column h");
        }
    }
}

#[test]
fn bench_says_the_variants_playouts_ran_natively() {
    let home = tempfile::tempdir().unwrap();
    for (script, native) in [
        (variant("caro_h_closure"), true),
        (variant("caro_x_four"), true),
        (fixture("caro_no_h_continue"), false),
    ] {
        let ran = run(&home, &["bench", &script, "--playouts", "20", "--json"], "");
        assert_eq!(ran.code, 0, "{}", ran.stderr);
        let json: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap();
        assert_eq!(json["scripted"]["native_form"], native, "{script}: {json}");
        assert_eq!(ran.stderr.is_empty(), native, "{script}: {}", ran.stderr);
    }
}

#[test]
fn the_computer_plays_a_variants_win_in_one() {
    // Issue #29's position: X has four in column g (rows 4 to 7); 8g wins.
    for name in ["caro_h_closure", "caro_h_helper", "caro_h_loop"] {
        let home = tempfile::tempdir().unwrap();
        let script = variant(name);
        let args = [
            "hint", &script, "7g", "8f", "6g", "9e", "5g", "10d", "4g", "1a",
        ];
        let ran = run(&home, &args, "");
        assert_eq!((ran.code, ran.stderr.as_str()), (0, ""), "{name}");
        assert!(ran.stdout.starts_with("8g\n"), "{name}: {}", ran.stdout);
        // No win at once: the native search answers (verified, so no warning), never in h.
        let ran = run(&home, &["hint", &script, "--level", "easy", "8g"], "");
        assert_eq!((ran.code, ran.stderr.as_str()), (0, ""), "{name}");
        let mv = ran.stdout.lines().next().unwrap_or_default();
        assert!(
            !mv.is_empty() && !mv.ends_with('h'),
            "{name}: {}",
            ran.stdout
        );
    }
}

#[test]
fn x_wins_with_four_in_the_variant_and_natively() {
    let game = load(&variant("caro_x_four"));
    let p = native_placement(&game).expect("the native form is kept");
    assert_eq!(p.length_for(0), 4);
    assert_eq!(p.length_for(1), 5);
    // X's four in row 1 (a1 b1 c1 d1) wins; O's four does not.
    let out = stdout([
        "run",
        &variant("caro_x_four"),
        "1a",
        "3a",
        "1b",
        "3b",
        "1c",
        "3c",
        "1d",
    ]);
    assert!(out.contains("X wins:"), "{out}");
    let out = stdout([
        "run",
        &variant("caro_x_four"),
        "5e",
        "3a",
        "1b",
        "3b",
        "1c",
        "3c",
        "15o",
        "3d",
    ]);
    assert!(
        out.contains("O to move") || out.contains("X to move"),
        "{out}"
    );
    assert!(!out.contains("wins"), "{out}");
}

#[test]
fn a_position_of_another_size_is_asked_afresh() {
    // The options say 15×15; the position is 9×9. The filter's answers kept from verifying the
    // start (a 15-wide board) are not taken for the 9-wide one: no disagreement, no warning.
    let position = "   a b c d e f g h i\n 9 . . . . . . . . .  9\n 8 . . . . . . . . .  8\n \
                    7 . . . . . . . . .  7\n 6 . . . . . . . . .  6\n 5 . . . X . . . . .  5\n \
                    4 . . . . . . . . .  4\n 3 . . . . . . . . .  3\n 2 . . . . . . . . .  2\n \
                    1 . . . . . . . . .  1\n   a b c d e f g h i\nO to move\n";
    let home = tempfile::tempdir().unwrap();
    let script = variant("caro_h_closure");
    let args = ["hint", &script, "--level", "easy", "--position", position];
    let ran = run(&home, &args, "");
    assert_eq!((ran.code, ran.stderr.as_str()), (0, ""), "{}", ran.stdout);
    let mv = ran.stdout.lines().next().unwrap_or_default();
    assert!(!mv.is_empty() && !mv.ends_with('h'), "{}", ran.stdout);
}

#[test]
fn the_search_never_counts_on_a_line_through_a_filtered_cell() {
    // X (to move) has an open three e8 f8 g8: in Caro, d8 or h8 makes an open four and wins. With
    // column h closed, d8 makes a four with one winning cell (c8), which O blocks: no forced
    // win. A search that played lines through h8 below the root would still see one.
    let moves = ["8e", "1a", "8f", "1c", "8g", "15o"];
    let home = tempfile::tempdir().unwrap();
    let hint = |script: &str| {
        let mut args = vec!["hint", script];
        args.extend(moves);
        let ran = run(&home, &args, "");
        assert_eq!((ran.code, ran.stderr.as_str()), (0, ""), "{script}");
        ran.stdout
    };
    let base = hint("caro");
    assert!(base.contains("wins whatever"), "caro: {base}");
    for name in SHAPES {
        let out = hint(&variant(name));
        let mv = out.lines().next().unwrap_or_default();
        assert!(!mv.is_empty() && !mv.ends_with('h'), "{name}: {out}");
        assert!(!out.contains("wins whatever"), "{name}: {out}");
    }
}

#[test]
fn a_sowing_variant_that_narrows_moves_keeps_the_native_form() {
    let game = load(&variant("oware_no_a"));
    assert!(game.move_filter().is_some());
    let start = game.start().unwrap();
    assert_eq!(verify::compare(&game, &start, verify::FROM_START), None);
    let s = native_sowing(&game).expect("the native form is kept");
    let pits: Vec<usize> = s.legal_moves().iter().map(|m| m.pit).collect();
    assert_eq!(pits, [1, 2, 3, 4, 5], "house A is not sown");
    // Random games through the script, each position's native form narrowed from there: the
    // same moves, and native playouts from there never sow from A or a.
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(11);
    for _ in 0..20 {
        let mut state = start.clone();
        for _ in 0..30 {
            let moves = game.legal_moves(&state).unwrap();
            if moves.is_empty() {
                break;
            }
            let Some(NativeGame::Sowing(s)) = game.native(&state).unwrap() else {
                panic!("no native form")
            };
            let s = game.sowing_narrowed(s, &state).unwrap();
            let native: Vec<rhai::INT> =
                s.legal_moves().iter().map(|m| m.pit as rhai::INT).collect();
            let listed: Vec<rhai::INT> = moves.iter().map(|m| m.as_int().unwrap()).collect();
            assert_eq!(native, listed);
            let mut playout = s.clone();
            let mut judge = boardrules::script::game::CaptureReferee::new(&game, &state);
            for _ in 0..200 {
                let moves = playout.legal_moves();
                assert!(moves.iter().all(|m| m.pit % 6 != 0), "{moves:?}");
                let Some(&mv) = moves.get(rand::Rng::random_range(&mut rng, 0..moves.len().max(1)))
                else {
                    break;
                };
                playout.play_judged(mv, &mut judge).unwrap();
            }
            let mv = &moves[rand::Rng::random_range(&mut rng, 0..moves.len())];
            state = game.play(&state, mv).unwrap().state;
        }
    }
    let home = tempfile::tempdir().unwrap();
    let script = variant("oware_no_a");
    let ran = run(&home, &["bench", &script, "--playouts", "20", "--json"], "");
    assert_eq!((ran.code, ran.stderr.as_str()), (0, ""));
    let json: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap();
    assert_eq!(json["scripted"]["native_form"], true, "{json}");
    // The native search heeds the filter: no hint sows from A.
    for level in ["easy", "medium"] {
        let ran = run(&home, &["hint", &script, "--level", level], "");
        assert_eq!((ran.code, ran.stderr.as_str()), (0, ""), "{}", ran.stdout);
        assert!(!ran.stdout.starts_with("A\n"), "{}", ran.stdout);
    }
}

#[test]
fn a_sowing_filter_that_reads_whose_turn_it_is_is_caught() {
    // Player 0 may not sow F, Player 1 not a: asked from the start (Player 0 to move), the
    // filter refuses F for both, so after Player 0's first move the script lists one move less.
    let game = load(&fixture("oware_turn_house"));
    assert!(game.move_filter().is_some());
    let start = game.start().unwrap();
    let d = verify::compare(&game, &start, verify::FROM_START).expect("a difference");
    assert_eq!(d.moves.len(), 1, "{d:?}");
    assert!(d.what.contains("moves() lists 5 moves"), "{}", d.what);
    assert!(native_sowing(&game).is_none());
}

#[test]
fn a_sowing_variant_whose_moves_choose_a_direction_keeps_the_native_form() {
    // Ô ăn quan's moves are `#{ pit, right }`: its native form names `native_move`, which
    // writes a native move so, and the filter is asked about that.
    let game = load(&variant("o_an_quan_right"));
    assert!(game.move_filter().is_some());
    let start = game.start().unwrap();
    assert_eq!(verify::compare(&game, &start, verify::FROM_START), None);
    let s = native_sowing(&game).expect("the native form is kept");
    assert_eq!(
        s.legal_moves().len(),
        5,
        "one direction for each of five pits"
    );
    for options in [[("direction", "ring")], [("direction", "own")]] {
        let mut game = load(&variant("o_an_quan_right"));
        for (k, v) in options {
            game.set_option(k, v).unwrap();
        }
        let start = game.start().unwrap();
        let effort = verify::Effort {
            games: 8,
            plies: 200,
            time: std::time::Duration::from_secs(60),
        };
        assert_eq!(verify::compare(&game, &start, effort), None, "{options:?}");
    }
    let home = tempfile::tempdir().unwrap();
    let script = variant("o_an_quan_right");
    let ran = run(&home, &["bench", &script, "--playouts", "20", "--json"], "");
    assert_eq!((ran.code, ran.stderr.as_str()), (0, ""));
    let json: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap();
    assert_eq!(json["scripted"]["native_form"], true, "{json}");
}
