//! Native forms that survive a variant: closed cells, `exact` per player and a judge hook are
//! verified with the native form against the script, a wrong one is caught, and a listed move
//! that `play` refuses drops the native form.

mod common;

use boardrules::{
    runtime::Game,
    script::{verify, Library, ScriptedGame},
};
use common::{fixture, run};

fn load(game: &str) -> ScriptedGame {
    let library = Library::with_rules_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
    ScriptedGame::load(&library, game).unwrap_or_else(|d| panic!("{}", d[0]))
}

/// The difference verification finds from the start of `game` (with `options`), if any; and
/// whether the native form is then used.
fn verified(game: &str, options: &[(&str, &str)]) -> (Option<verify::Difference>, bool) {
    let mut game = load(game);
    for (k, v) in options {
        game.set_option(k, v).unwrap();
    }
    let start = game.start().unwrap();
    let found = verify::compare(&game, &start, verify::FROM_START);
    let used = game.native(&start).unwrap().is_some();
    (found, used)
}

#[test]
fn closed_cells_keep_the_native_form() {
    let (found, used) = verified(&fixture("caro_closed_h"), &[]);
    assert_eq!(found, None);
    assert!(used);
}

#[test]
fn renju_is_native_with_its_judge_and_without_forbidden_moves() {
    for options in [&[][..], &[("forbidden", "false")][..]] {
        let (found, used) = verified("renju", options);
        assert_eq!(found, None, "{options:?}");
        assert!(used, "{options:?}");
    }
    // A forbidden move that loses is not modelled: no native form, nothing to disagree with.
    let (found, used) = verified("renju", &[("foul", "loses")]);
    assert_eq!((found, used), (None, false));
}

#[test]
fn a_screen_too_narrow_is_caught() {
    // Renju's script is slow: a few whole games, more than a command's verification plays.
    // A window screen that misses double threes, and shapes said refused that leave them out,
    // let the native form allow what moves() does not list; shapes said always refused that
    // the hook allows (a single four) let it refuse what moves() lists.
    for (script, found) in [
        ("renju_narrow_screen", "which moves() does not list"),
        ("renju_refuses_too_little", "which moves() does not list"),
        (
            "renju_always_refuses_too_much",
            "which the native form does not allow",
        ),
    ] {
        let game = load(&fixture(script));
        let start = game.start().unwrap();
        let effort = verify::Effort {
            games: 3,
            plies: 400,
            time: std::time::Duration::from_secs(60),
        };
        let d = verify::compare(&game, &start, effort).expect(script);
        assert!(d.what.contains(found), "{script}: {}", d.what);
    }
}

#[test]
fn a_shape_the_judge_refuses_must_be_one_the_runtime_counts() {
    let game = load(&fixture("renju_refuses_unknown"));
    let start = game.start().unwrap();
    let e = game.native_form(&start).unwrap_err().to_string();
    assert!(
        e.contains(
            "`judge.refuses.fives` is not known: it may say `overline`, `fours` and `threes`"
        ),
        "{e}"
    );
}

#[test]
fn a_judge_that_disagrees_with_moves_is_caught() {
    let (found, used) = verified(&fixture("judge_disagrees"), &[]);
    let d = found.expect("a difference");
    assert!(
        d.what
            .contains("moves() lists 15a, which the native form does not allow"),
        "{}",
        d.what
    );
    assert!(!used);
}

#[test]
fn a_judge_that_refuses_a_win_it_says_it_allows_is_caught() {
    // Three in a row wins on 7×7: X soon has a winning cell on the top row, which the native
    // form allows (`wins_allowed`) and moves() does not list.
    let (found, used) = verified(
        &fixture("judge_wins_unhonoured"),
        &[("size", "7"), ("win", "3")],
    );
    let d = found.expect("a difference");
    assert!(d.what.contains("which moves() does not list"), "{}", d.what);
    assert!(!used);
}

#[test]
fn a_judge_the_script_does_not_define_is_an_error() {
    let game = load(&fixture("judge_missing_hook"));
    let start = game.start().unwrap();
    let e = game.native_form(&start).unwrap_err().to_string();
    assert!(e.contains("`judge.hook` is \"nowhere\""), "{e}");
}

#[test]
fn a_listed_move_that_play_refuses_drops_the_native_form() {
    let game = load(&fixture("ttt_refuses_b2"));
    let start = game.start().unwrap();
    let d = verify::compare(&game, &start, verify::FROM_START).expect("a difference");
    assert!(d.refused);
    assert!(
        d.what.contains("moves() lists b2, but play() refuses it"),
        "{}",
        d.what
    );
    // Through the command line: one warning, worded as a disagreement, and no hint of b2.
    let home = tempfile::tempdir().unwrap();
    let args = ["hint", &fixture("ttt_refuses_b2"), "a2", "a1", "c2", "c3"];
    let ran = run(&home, &args, "");
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert_eq!(ran.stderr.matches("warning:").count(), 1, "{}", ran.stderr);
    assert!(ran.stderr.contains("play() refuses it"), "{}", ran.stderr);
    let hint = ran.stdout.lines().next().unwrap_or_default();
    assert!(!hint.is_empty() && hint != "b2", "{}", ran.stdout);
}

#[test]
fn a_hint_never_names_a_forbidden_point() {
    // White threatens five at 10h, which would be a double three for Black (8h 9h, 8f 9g).
    let home = tempfile::tempdir().unwrap();
    let moves = [
        "8h", "10d", "9h", "10e", "8f", "10f", "9g", "1a", "10c", "10g",
    ];
    let mut args = vec!["hint", "renju", "--level", "easy"];
    args.extend(moves);
    let ran = run(&home, &args, "");
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert_eq!(ran.stderr, "");
    let hint = ran.stdout.lines().next().unwrap_or_default();
    assert!(!hint.is_empty() && hint != "10h", "{}", ran.stdout);
}

/// Enough random games of Ô ăn quan to meet captures of lone dân, whatever the machine's load.
const SOWING_GAMES: verify::Effort = verify::Effort {
    games: 12,
    plies: 300,
    time: std::time::Duration::from_secs(60),
};

#[test]
fn a_capture_hook_keeps_a_sowing_variant_native() {
    // The variant redefines `capturable` and names it as the native form's capture hook: the
    // native form with its hook agrees with the script, and playouts run natively.
    let game = load(&fixture("o_an_quan_no_lone"));
    let start = game.start().unwrap();
    assert_eq!(verify::compare(&game, &start, SOWING_GAMES), None);
    assert!(game.native(&start).unwrap().is_some());
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(3);
    for _ in 0..20 {
        let (outcome, _) = game.random_playout(&start, &mut rng).unwrap();
        assert!(outcome.is_some());
    }
    // Without the hook, the native form takes lone dân that `play` leaves: caught.
    let game = load(&fixture("o_an_quan_no_lone_unhooked"));
    let start = game.start().unwrap();
    let d = verify::compare(&game, &start, SOWING_GAMES).expect("a difference");
    assert!(d.what.contains("no native move gives that"), "{}", d.what);
}

#[test]
fn a_capture_hook_the_script_does_not_define_is_an_error() {
    let game = load(&fixture("o_an_quan_hook_missing"));
    let start = game.start().unwrap();
    let e = game.native_form(&start).unwrap_err().to_string();
    assert!(e.contains("`capturable.hook` is \"nowhere\""), "{e}");
}

#[test]
fn the_search_below_the_root_asks_the_judge() {
    // h8 and l4 would each give Black two fours at once (e8 f8 g8 h8 with i8 to come, h5 h6 h7
    // h8 with h9; l4 m4 n4 o4 with k4, l1 l2 l3 l4 with l5): a double four, forbidden. Black's
    // four k4 forces White's l4, and then only h8 would make two threats, so k4 wins nothing.
    // A search that let Black play h8 below its root would say k4 wins. (Black does have a
    // win, by threes: f7 g6 h9 h8 i10 e6 j11, every move allowed; the search may find it.)
    let position = "   a b c d e f g h i j k l m n o\n\
                    15 O . . . . . . . O . . . . . O 15\n\
                    14 . . O . . . . . . . . . O . . 14\n\
                    13 O . . . O . . . . . O . . . . 13\n\
                    12 . . . . . . O . . . . . . . . 12\n\
                    11 . O . . . . . . . . . . . . . 11\n\
                    10 . . . . . . . . . . . . . . . 10\n \
                    9 . . . . . . . . . . . . . . .  9\n \
                    8 . . . O X X X . . . . . . . .  8\n \
                    7 . . . . . . . X . . . . . . .  7\n \
                    6 . . . . . . . X . . . . . . .  6\n \
                    5 . . . . . . . X . . . . . . .  5\n \
                    4 . . . . . . . O . . . . X X X  4\n \
                    3 . . . . . . . . . . . X . . .  3\n \
                    2 . . . . . . . . . . . X . . .  2\n \
                    1 . . . . . . . . . . . X . . .  1\n   \
                    a b c d e f g h i j k l m n o\nBlack to move\n";
    let home = tempfile::tempdir().unwrap();
    let args = [
        "hint",
        "renju",
        "--level",
        "easy",
        "--time-ms",
        "10000",
        "--position",
        position,
    ];
    let ran = run(&home, &args, "");
    assert_eq!((ran.code, ran.stderr.as_str()), (0, ""), "{}", ran.stdout);
    let hint = ran.stdout.lines().next().unwrap_or_default();
    assert!(!["8h", "4l"].contains(&hint), "{}", ran.stdout);
    assert!(
        !(hint == "4k" && ran.stdout.contains("wins whatever")),
        "{}",
        ran.stdout
    );
}
