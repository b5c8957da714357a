//! Five-step: the rules file's facts, and the walk primitive and the script's moves checked
//! against brute-force searches written from the rules' definitions.

use std::collections::BTreeSet;

use boardrules::{
    runtime::{walks, Cell, Game, Grid, WalkRule},
    script::{Library, ScriptedGame},
    search::{best_move, Limits},
};
use proptest::prelude::*;

fn game() -> ScriptedGame {
    let library = Library::with_rules_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
    ScriptedGame::load(&library, "five_step").unwrap_or_else(|d| panic!("{}", d[0]))
}

const START: &str = "1 0 0 0 2\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n2 0 0 0 1";

fn danger_cells() -> BTreeSet<(i64, i64)> {
    [
        (3, 2),
        (3, 4),
        (2, 3),
        (3, 0),
        (2, 1),
        (4, 3),
        (1, 2),
        (1, 0),
        (0, 1),
        (4, 1),
        (1, 4),
        (0, 3),
    ]
    .into_iter()
    .collect()
}

fn grid_of(text: &str) -> Grid {
    let values: Vec<i64> = text
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    let n = (values.len() as f64).sqrt() as i64;
    let mut g = Grid::new(n, n, 0);
    for (i, v) in values.into_iter().enumerate() {
        g.set(Cell::new(i as i64 % n, i as i64 / n), v);
    }
    g
}

#[test]
fn player_2_reaches_the_twelve_danger_cells_in_exactly_five_steps() {
    // As a fact about reachability: the runtime primitive, on the start board.
    let g = grid_of(START);
    let rule = WalkRule::new(5, 5, &[0], &[0, 1]);
    let cells: BTreeSet<(i64, i64)> = g
        .cells_with(2)
        .flat_map(|p| walks::reachable(&g, p, &rule))
        .map(|c| (c.x, c.y))
        .collect();
    assert_eq!(cells, danger_cells());
    // And through the script: the ends of player 2's 5-step moves.
    let game = game();
    let state = game.parse_state(START, Some(1)).unwrap();
    let ends: BTreeSet<(i64, i64)> = game
        .legal_moves(&state)
        .unwrap()
        .into_iter()
        .map(|mv| mv.into_typed_array::<Cell>().unwrap())
        .filter(|p| p.len() == 6)
        .map(|p| (p[5].x, p[5].y))
        .collect();
    assert_eq!(ends, danger_cells());
}

#[test]
fn search_avoids_the_seed_bots_trap() {
    let game = game();
    game.record_events(false);
    let trap = "1 2 0 0 0\n0 2 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 1";
    let state = game.parse_state(trap, Some(0)).unwrap();
    let eval = |s: &rhai::Dynamic, p: usize| game.evaluate(s, p).map(Option::unwrap_or_default);
    for seed in 0..4 {
        let limits = Limits {
            time: std::time::Duration::from_secs(20),
            max_depth: 2,
            seed,
        };
        let choice = best_move(&game, &state, Some(&eval), limits)
            .unwrap()
            .unwrap();
        assert_eq!(choice.depth, 2);
        let after = game.play(&state, &choice.mv).unwrap().state;
        for reply in game.legal_moves(&after).unwrap() {
            let next = game.play(&after, &reply).unwrap().state;
            let text = game.render(&next).unwrap();
            // the cells: each row after its y, under the header of x
            let cells: Vec<&str> = text
                .lines()
                .skip(1)
                .flat_map(|row| row.split_whitespace().skip(1))
                .collect();
            assert_eq!(
                cells.iter().filter(|c| **c == "1").count(),
                2,
                "seed {seed}: {} loses a piece to {}",
                game.format_move(&state, &choice.mv).unwrap(),
                game.format_move(&after, &reply).unwrap()
            );
        }
    }
}

/// Every walk by brute force: all sequences of up to `max` orthogonal steps, kept when they
/// satisfy the definition (on the board, no repeated cell, passing and ending where allowed).
fn brute_walks(g: &Grid, from: Cell, rule: &WalkRule) -> BTreeSet<Vec<Cell>> {
    const DIRS: [(i64, i64); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];
    let mut out = BTreeSet::new();
    for len in rule.min_len..=rule.max_len {
        for code in 0..4usize.pow(len as u32) {
            let mut path = vec![from];
            let mut c = code;
            for _ in 0..len {
                let (dx, dy) = DIRS[c % 4];
                c /= 4;
                let last = *path.last().unwrap();
                path.push(Cell::new(last.x + dx, last.y + dy));
            }
            let on_board = path.iter().all(|&c| g.contains(c));
            let distinct = path.iter().collect::<BTreeSet<_>>().len() == path.len();
            if !on_board || !distinct {
                continue;
            }
            let value = |c: &Cell| g.get(*c).unwrap();
            let passes = path[1..len]
                .iter()
                .all(|c| rule.through.contains(&value(c)));
            if passes && rule.end.contains(&value(&path[len])) {
                out.insert(path);
            }
        }
    }
    out
}

fn board() -> impl Strategy<Value = Grid> {
    (3i64..=6).prop_flat_map(|n| {
        proptest::collection::vec(
            prop_oneof![3 => Just(0i64), 1 => Just(1), 1 => Just(2)],
            (n * n) as usize,
        )
        .prop_map(move |values| {
            let mut g = Grid::new(n, n, 0);
            for (i, v) in values.into_iter().enumerate() {
                g.set(Cell::new(i as i64 % n, i as i64 / n), v);
            }
            g
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn walks_match_a_brute_force_search(
        g in board(),
        (x, y) in (0i64..6, 0i64..6),
        min in 1usize..=5,
        extra in 0usize..=1,
        through in proptest::sample::subsequence(vec![0i64, 1, 2], 1..=2),
        end in proptest::sample::subsequence(vec![0i64, 1, 2], 1..=3),
    ) {
        let from = Cell::new(x % g.width(), y % g.height());
        let rule = WalkRule::new(min, min + extra, &through, &end);
        let found: Vec<Vec<Cell>> = walks::walks(&g, from, &rule);
        let set: BTreeSet<Vec<Cell>> = found.iter().cloned().collect();
        prop_assert_eq!(set.len(), found.len(), "a walk was listed twice");
        prop_assert_eq!(&set, &brute_walks(&g, from, &rule));
        let ends: BTreeSet<Cell> = set.iter().map(|p| *p.last().unwrap()).collect();
        let reach: BTreeSet<Cell> = walks::reachable(&g, from, &rule).into_iter().collect();
        prop_assert_eq!(reach, ends);
    }

    #[test]
    fn the_scripts_moves_are_the_rules_moves(g in board(), turn in 0usize..2) {
        // Five-step on this board, by the rules file: walks of 1-5 steps over empty cells to
        // an empty cell, or of exactly 5 steps onto an opponent's piece.
        let game = game();
        let text: Vec<String> = g.values().iter().map(|v| v.to_string()).collect();
        let state = game.parse_state(&text.join(" "), Some(turn)).unwrap();
        let me = turn as i64 + 1;
        let mut expected = BTreeSet::new();
        for piece in g.cells_with(me) {
            expected.extend(brute_walks(&g, piece, &WalkRule::new(1, 5, &[0], &[0])));
            expected.extend(brute_walks(&g, piece, &WalkRule::new(5, 5, &[0], &[3 - me])));
        }
        let has_piece = g.count(me) > 0;
        let over = game.outcome(&state).unwrap().is_some();
        prop_assert_eq!(over, !has_piece || expected.is_empty());
        let moves: BTreeSet<Vec<Cell>> = game
            .legal_moves(&state)
            .unwrap()
            .into_iter()
            .map(|mv| mv.into_typed_array::<Cell>().unwrap())
            .collect();
        if over { expected.clear(); }
        prop_assert_eq!(moves, expected);
    }
}
