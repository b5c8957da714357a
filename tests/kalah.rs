//! The Kalah example script (`examples/games/kalah.rhai`): sowing, the extra turn, the capture
//! and the end, through `boardrules run --json` (the OpenSpiel cross-check is
//! `tests/openspiel_games.py`).

mod common;

use common::run;

/// Plays `moves` and returns the JSON line of each position.
fn positions(moves: &[&str]) -> Vec<serde_json::Value> {
    let home = tempfile::tempdir().unwrap();
    let args = [&["run", "examples/games/kalah.rhai", "--json"], moves].concat();
    let ran = run(&home, &args, "");
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    ran.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn ending_in_the_store_gives_another_turn() {
    // Pit 3's four seeds reach 4, 5, 6 and the store 7.
    let after = &positions(&["3"])[1];
    assert_eq!(after["to_move"], "South");
    assert_eq!(
        after["state"],
        "-4-4-4-4-4-4-\n0-----------1\n-4-4-0-5-5-5-"
    );
}

#[test]
fn ending_in_an_empty_pit_of_ones_own_captures_the_seeds_opposite() {
    // South's 6 sows into its store and North's 8, 9, 10; North's 12 into 13, its store, 1, 2;
    // South's 1 (five seeds) ends in the emptied pit 6 and takes it and pit 8's five: 1 + 6.
    // (OpenSpiel gives the same position.)
    let all = positions(&["6", "12", "1"]);
    assert_eq!(all[3]["to_move"], "North");
    assert_eq!(
        all[3]["state"],
        "-5-0-4-5-5-0-\n1-----------7\n-0-6-5-5-5-0-"
    );
}

#[test]
fn the_bigger_store_with_the_seeds_left_on_its_side_wins() {
    // An empty South side ends the game: North adds its 1 seed to its 5 and wins, 6 to 4.
    let home = tempfile::tempdir().unwrap();
    let position = "-0-0-0-0-0-1-\n5-----------4\n-0-0-0-0-0-0-";
    let position = format!("--position={position}"); // (it starts with a dash)
    let ran = run(
        &home,
        &["run", "examples/games/kalah.rhai", "--json", &position],
        "",
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let first: serde_json::Value =
        serde_json::from_str(ran.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(first["result"], "North wins", "{first}");
    assert_eq!(first["moves"], serde_json::json!([]));
}
