//! The Hex example script (`examples/games/hex.rhai`) through `boardrules run --json`: its chains
//! follow the six sides of a hexagonal grid (`hex_grid`), not a square grid's neighbours (the
//! OpenSpiel cross-check is `tests/openspiel_games.py … hex`).

mod common;

use common::run;

/// Plays `moves` on a 3×3 board and returns the JSON line of the last position.
fn last(moves: &[&str]) -> serde_json::Value {
    let home = tempfile::tempdir().unwrap();
    let args = [
        &["run", "examples/games/hex.rhai", "-o", "size=3", "--json"],
        moves,
    ]
    .concat();
    let ran = run(&home, &args, "");
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let line = ran.stdout.lines().last().unwrap();
    serde_json::from_str(line).unwrap()
}

#[test]
fn a_rising_diagonal_is_a_chain_of_touching_hexagons() {
    // x: c1, b2, a3 — each touches the next across a side — joins top and bottom.
    let end = last(&["c1", "a1", "b2", "b1", "a3"]);
    assert_eq!(end["result"], "x wins");
    assert_eq!(end["state"], "o o x \n . x . \n  x . . ");
}

#[test]
fn a_falling_diagonal_touches_only_at_corners() {
    // x: a1, b2, c3 would join on a square grid with its diagonals; hexagons do not touch so.
    let end = last(&["a1", "c1", "b2", "a3", "c3"]);
    assert!(end["result"].is_null(), "{end}");
    assert_eq!(end["to_move"], "o");
}
