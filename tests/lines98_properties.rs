//! Properties of the lines98 script on random games, checked against a small independent model
//! written here from the rules file: the legal moves are every ball to every empty cell it can
//! reach, the ball travels through empty cells only, a move that clears removes exactly what the
//! three checks find, the ball count changes only by +spawned −cleared, and a seed plus moves
//! replays the game exactly (undo included).

use std::collections::{BTreeSet, VecDeque};

use boardrules::{
    runtime::{Game, History},
    script::{Library, ScriptedGame},
};
use proptest::prelude::*;

fn game(name: &str, seed: u64, options: &[(&str, &str)]) -> ScriptedGame {
    let library = Library::with_rules_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
    let mut g = ScriptedGame::load(&library, name).unwrap_or_else(|d| panic!("{}", d[0]));
    g.set_seed(seed);
    for (k, v) in options {
        g.set_option(k, v).unwrap();
    }
    g
}

/// A board read from the rendering: `b[y][x]`, row 0 at the top, 0 for empty.
type Board = Vec<Vec<i64>>;

fn board(g: &ScriptedGame, state: &rhai::Dynamic) -> Board {
    let text = g.render(state).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    // the rows between the column letters, each between its numbers
    rows[1..rows.len() - 2]
        .iter()
        .map(|l| {
            let cells: Vec<&str> = l.split_whitespace().collect();
            cells[1..cells.len() - 1]
                .iter()
                .map(|c| c.parse().unwrap_or(0))
                .collect()
        })
        .collect()
}

fn balls(b: &Board) -> usize {
    b.iter().flatten().filter(|&&v| v != 0).count()
}

/// `e5` → (x, y) with y from the top.
fn cell(b: &Board, name: &str) -> (usize, usize) {
    let x = (name.as_bytes()[0] - b'a') as usize;
    let row: usize = name[1..].parse().unwrap();
    (x, b.len() - row)
}

fn name(b: &Board, (x, y): (usize, usize)) -> String {
    format!("{}{}", (b'a' + x as u8) as char, b.len() - y)
}

fn neighbours(b: &Board, (x, y): (usize, usize)) -> Vec<(usize, usize)> {
    let n = b.len() as i64;
    [(0, -1), (1, 0), (0, 1), (-1, 0)]
        .iter()
        .map(|(dx, dy)| (x as i64 + dx, y as i64 + dy))
        .filter(|&(x, y)| x >= 0 && y >= 0 && x < n && y < n)
        .map(|(x, y)| (x as usize, y as usize))
        .collect()
}

/// The empty cells a ball at `from` can reach (model BFS).
fn reach(b: &Board, from: (usize, usize)) -> BTreeSet<(usize, usize)> {
    let mut seen = BTreeSet::new();
    let mut queue = VecDeque::from([from]);
    while let Some(c) = queue.pop_front() {
        for n in neighbours(b, c) {
            if b[n.1][n.0] == 0 && seen.insert(n) {
                queue.push_back(n);
            }
        }
    }
    seen
}

fn at(b: &Board, x: i64, y: i64) -> Option<i64> {
    let n = b.len() as i64;
    (x >= 0 && y >= 0 && x < n && y < n).then(|| b[y as usize][x as usize])
}

/// What the rules clear around the ball at `c` (default options, or `squares=any` with `any`):
/// lines of 5+, the original's first square (or every solid rectangle), a 4-connected block of 7+.
fn model_clear(b: &Board, c: (usize, usize), any: bool) -> BTreeSet<(usize, usize)> {
    let colour = b[c.1][c.0];
    let (cx, cy) = (c.0 as i64, c.1 as i64);
    let mut out = BTreeSet::new();
    for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        let mut run = vec![c];
        for sign in [1, -1] {
            let mut k = 1;
            while at(b, cx + sign * dx * k, cy + sign * dy * k) == Some(colour) {
                run.push(((cx + sign * dx * k) as usize, (cy + sign * dy * k) as usize));
                k += 1;
            }
        }
        if run.len() >= 5 {
            out.extend(run);
        }
    }
    // (row, col) offsets of the rules file, row +1 = down the screen.
    let around = [
        (-1, -1),
        (0, -1),
        (1, -1),
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
    ];
    let sets: [&[usize]; 8] = [
        &[1, 2, 3, 4, 5],
        &[3, 4, 5, 6, 7],
        &[5, 6, 7, 0, 1],
        &[7, 0, 1, 2, 3],
        &[1, 2, 3],
        &[3, 4, 5],
        &[5, 6, 7],
        &[7, 0, 1],
    ];
    let cell_of = |k: usize| (cx + around[k].1, cy + around[k].0);
    if any {
        // squares=any: every solid 2×2, 3×2 and 2×3 rectangle holding the ball.
        for (w, h) in [(2, 2), (3, 2), (2, 3)] {
            for left in cx - w + 1..=cx {
                for top in cy - h + 1..=cy {
                    let rect: Vec<(i64, i64)> = (left..left + w)
                        .flat_map(|x| (top..top + h).map(move |y| (x, y)))
                        .collect();
                    if rect.iter().all(|&(x, y)| at(b, x, y) == Some(colour)) {
                        out.extend(rect.iter().map(|&(x, y)| (x as usize, y as usize)));
                    }
                }
            }
        }
    }
    for set in sets.iter().filter(|_| !any) {
        if set.iter().all(|&k| {
            let (x, y) = cell_of(k);
            at(b, x, y) == Some(colour)
        }) {
            out.insert(c);
            out.extend(set.iter().map(|&k| {
                let (x, y) = cell_of(k);
                (x as usize, y as usize)
            }));
            break;
        }
    }
    let mut block = BTreeSet::from([c]);
    let mut queue = VecDeque::from([c]);
    while let Some(p) = queue.pop_front() {
        for n in neighbours(b, p) {
            if b[n.1][n.0] == colour && block.insert(n) {
                queue.push_back(n);
            }
        }
    }
    if block.len() >= 7 {
        out.extend(block);
    }
    out
}

/// Plays random moves chosen by `picks`, checking every move against the model.
fn check_random_game(
    g: &ScriptedGame,
    picks: &[usize],
    any: bool,
) -> Result<History<ScriptedGame>, TestCaseError> {
    let mut h: History<ScriptedGame> = History::new(g.start().unwrap());
    for &pick in picks {
        let state: rhai::Dynamic = h.current().clone();
        if g.outcome(&state).unwrap().is_some() {
            prop_assert!(g.legal_moves(&state).unwrap().is_empty());
            break;
        }
        let before = board(g, &state);
        // The legal moves are exactly every ball to every empty cell it can reach.
        let texts: BTreeSet<String> = g
            .legal_moves(&state)
            .unwrap()
            .iter()
            .map(|m| g.format_move(&state, m).unwrap())
            .collect();
        let mut expected = BTreeSet::new();
        for y in 0..before.len() {
            for x in 0..before.len() {
                if before[y][x] != 0 {
                    for to in reach(&before, (x, y)) {
                        expected.insert(format!("{}-{}", name(&before, (x, y)), name(&before, to)));
                    }
                }
            }
        }
        prop_assert_eq!(&texts, &expected);
        // Every other move, take one that clears (by the model) if there is one.
        let clearing: Vec<&String> = texts
            .iter()
            .filter(|t| {
                let (f, to) = t.split_once('-').unwrap();
                !model_clear(
                    &moved(&before, cell(&before, f), cell(&before, to)),
                    cell(&before, to),
                    any,
                )
                .is_empty()
            })
            .collect();
        let text = if pick % 2 == 0 && !clearing.is_empty() {
            clearing[pick / 2 % clearing.len()].clone()
        } else {
            texts.iter().nth(pick % texts.len()).unwrap().clone()
        };
        let step = h.play_text(g, &text).unwrap().clone();
        let after = board(g, h.current());

        // The path event: from the ball to the destination through empty cells, by edge steps.
        let (from, to) = text.split_once('-').unwrap();
        let path_event = &step.events[0].text;
        let path: Vec<(usize, usize)> = path_event
            .split(" goes ")
            .nth(1)
            .unwrap()
            .split(' ')
            .map(|n| cell(&before, n))
            .collect();
        prop_assert_eq!(path[0], cell(&before, from));
        prop_assert_eq!(*path.last().unwrap(), cell(&before, to));
        for w in path.windows(2) {
            prop_assert!(neighbours(&before, w[0]).contains(&w[1]));
            prop_assert_eq!(before[w[1].1][w[1].0], 0, "the ball passed through a ball");
        }
        prop_assert_eq!(path.len(), shortest(&before, path[0], path[path.len() - 1]));

        // The ball count changes only by +spawned −cleared.
        let spawned = step
            .events
            .iter()
            .filter(|e| e.text.contains(" appears at "))
            .count();
        let cleared: usize = step
            .events
            .iter()
            .filter_map(|e| {
                e.text
                    .split_once(" balls clear")
                    .map(|(n, _)| n.parse::<usize>().unwrap())
            })
            .sum();
        prop_assert_eq!(balls(&after) + cleared, balls(&before) + spawned);

        // The move's own clear is exactly what the model finds; only then do no balls come.
        let t = cell(&before, to);
        let mut moved = moved(&before, cell(&before, from), t);
        let clear = model_clear(&moved, t, any);
        if clear.is_empty() || clear.len() == balls(&moved) {
            let free = moved.iter().flatten().filter(|&&v| v == 0).count() + clear.len();
            prop_assert_eq!(spawned, free.min(3));
        } else {
            prop_assert_eq!(spawned, 0);
            for &(x, y) in &clear {
                moved[y][x] = 0;
            }
            prop_assert_eq!(&after, &moved);
        }
    }
    Ok(h)
}

/// The board after the ball at `from` goes to `to`.
fn moved(b: &Board, from: (usize, usize), to: (usize, usize)) -> Board {
    let mut m = b.clone();
    m[to.1][to.0] = m[from.1][from.0];
    m[from.1][from.0] = 0;
    m
}

fn shortest(b: &Board, from: (usize, usize), to: (usize, usize)) -> usize {
    let mut dist = vec![vec![usize::MAX; b.len()]; b.len()];
    dist[from.1][from.0] = 1;
    let mut queue = VecDeque::from([from]);
    while let Some(c) = queue.pop_front() {
        for n in neighbours(b, c) {
            if b[n.1][n.0] == 0 && dist[n.1][n.0] == usize::MAX {
                dist[n.1][n.0] = dist[c.1][c.0] + 1;
                queue.push_back(n);
            }
        }
    }
    dist[to.1][to.0]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn random_games_follow_the_model(seed in 0u64..1000, picks in proptest::collection::vec(0usize..10_000, 1..40)) {
        let g = game("lines98", seed, &[]);
        check_random_game(&g, &picks, false)?;
    }

    #[test]
    fn squares_any_follows_the_model(seed in 0u64..1000, picks in proptest::collection::vec(0usize..10_000, 1..30)) {
        let g = game("lines98", seed, &[("size", "6"), ("colors", "3"), ("squares", "any")]);
        check_random_game(&g, &picks, true)?;
    }

    #[test]
    fn small_boards_fill_up_and_end(seed in 0u64..1000, picks in proptest::collection::vec(0usize..10_000, 30..31)) {
        let g = game("lines98", seed, &[("size", "5"), ("colors", "3")]);
        let h = check_random_game(&g, &picks, false)?;
        if g.outcome(h.current()).unwrap().is_some() {
            prop_assert_eq!(balls(&board(&g, h.current())), 25);
        }
    }

    #[test]
    fn seed_and_moves_replay_exactly(seed in 0u64..1000, picks in proptest::collection::vec(0usize..10_000, 1..25)) {
        let g = game("lines98", seed, &[]);
        let mut h: History<ScriptedGame> = History::new(g.start().unwrap());
        for &pick in &picks {
            if g.outcome(h.current()).unwrap().is_some() { break; }
            let moves = g.legal_moves(h.current()).unwrap();
            h.play(&g, &moves[pick % moves.len()]).unwrap();
        }
        let texts: Vec<&str> = h.steps().iter().map(|s| s.text.as_str()).collect();
        let again = game("lines98", seed, &[]);
        let (replayed, failed) = History::replay(&again, again.start().unwrap(), texts.iter().copied());
        prop_assert!(failed.is_none());
        for ply in 0..=h.ply() {
            let (a, b) = (h.state_at(ply).unwrap(), replayed.state_at(ply).unwrap());
            prop_assert_eq!(g.state_hash(a), again.state_hash(b));
            prop_assert_eq!(g.render(a).unwrap(), again.render(b).unwrap());
        }
        // Undo restores the generator too: the last move played again brings the same balls.
        if let Some(last) = h.steps().last().cloned() {
            let hash = g.state_hash(h.current());
            h.undo();
            h.play(&g, &last.mv).unwrap();
            prop_assert_eq!(g.state_hash(h.current()), hash);
        }
    }

    #[test]
    fn render_then_parse_keeps_the_position(seed in 0u64..1000, picks in proptest::collection::vec(0usize..10_000, 0..20)) {
        let g = game("lines98", seed, &[]);
        let mut h: History<ScriptedGame> = History::new(g.start().unwrap());
        for &pick in &picks {
            if g.outcome(h.current()).unwrap().is_some() { break; }
            let moves = g.legal_moves(h.current()).unwrap();
            h.play(&g, &moves[pick % moves.len()]).unwrap();
        }
        let text = g.render(h.current()).unwrap();
        let back = g.parse_state(&text, None).unwrap();
        prop_assert_eq!(g.render(&back).unwrap(), text);
    }
}

#[test]
fn color_lines_clears_lines_only() {
    let g = game("color_lines", 0, &[]);
    let values: Vec<String> = g
        .options()
        .iter()
        .map(|o| format!("{}={}", o.name, g.option_values()[o.name.as_str()]))
        .collect();
    assert!(values.contains(&"squares=off".to_string()), "{values:?}");
    assert!(values.contains(&"blocks=false".to_string()), "{values:?}");
}

#[test]
fn bad_positions_point_at_their_line() {
    let g = game("lines98", 0, &[]);
    let mut rows = vec![".........".to_string(); 9];
    rows[3] = "....x....".into();
    let err = g
        .parse_state(&rows.join("\n"), None)
        .unwrap_err()
        .to_string();
    assert!(err.contains("line 4"), "{err}");
    rows[3] = "....8....".into();
    let err = g
        .parse_state(&rows.join("\n"), None)
        .unwrap_err()
        .to_string();
    assert!(err.contains("line 4") && err.contains("colors=7"), "{err}");
    rows[3] = "....0....".into();
    rows[4] = "........".into();
    let err = g
        .parse_state(&rows.join("\n"), None)
        .unwrap_err()
        .to_string();
    assert!(err.contains("line 5"), "{err}");
}
