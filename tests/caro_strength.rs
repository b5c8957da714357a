//! Caro's `hard` search against an opponent built like the Caro game report's AI: minimax with
//! alpha-beta at depth 3, candidate moves limited to the stones' bounding box, and the report's
//! combo evaluation (open runs of 1/2/3/4 score 1/10/50/200, halved when blocked at one end, zero
//! when blocked at both). The openings vary by game; the searcher plays both colours.

use std::time::Duration;

use boardrules::{
    native_games::placement::{
        search::{SearchLimits, WIN},
        LineGoal, Placement, Players,
    },
    runtime::{Cell, Grid},
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const N: i32 = 15;
const CARO: LineGoal = LineGoal {
    length: 5,
    exact: Players::ALL,
    block_both_ends: true,
    edge_blocks: false,
};
/// The weights `rules/caro.rhai` gives the searcher.
const WEIGHTS: [i64; 6] = [0, 1, 12, 150, 2_000, 100_000];

/// The report's AI, written from its description.
struct ReportAi {
    board: [[u8; N as usize]; N as usize],
}

impl ReportAi {
    fn at(&self, x: i32, y: i32) -> Option<u8> {
        (x >= 0 && y >= 0 && x < N && y < N).then(|| self.board[y as usize][x as usize])
    }

    /// Exactly five, not blocked at both ends (the assignment's rule).
    fn wins(&self, x: i32, y: i32) -> bool {
        let me = self.board[y as usize][x as usize];
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
            let mut f = 1;
            while self.at(x + dx * f, y + dy * f) == Some(me) {
                f += 1;
            }
            let mut b = 1;
            while self.at(x - dx * b, y - dy * b) == Some(me) {
                b += 1;
            }
            let closed = |v: Option<u8>| v.is_some_and(|v| v != 0);
            f + b - 1 == 5
                && !(closed(self.at(x + dx * f, y + dy * f))
                    && closed(self.at(x - dx * b, y - dy * b)))
        })
    }

    fn combo(&self, me: u8) -> i64 {
        let mut score = 0;
        for y in 0..N {
            for x in 0..N {
                if self.board[y as usize][x as usize] != me {
                    continue;
                }
                for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    if self.at(x - dx, y - dy) == Some(me) {
                        continue; // not the start of the run
                    }
                    let mut len = 1;
                    while self.at(x + dx * len, y + dy * len) == Some(me) {
                        len += 1;
                    }
                    let open = |v: Option<u8>| v == Some(0);
                    let ends = open(self.at(x - dx, y - dy)) as i64
                        + open(self.at(x + dx * len, y + dy * len)) as i64;
                    let base = match len {
                        1 => 1,
                        2 => 10,
                        3 => 50,
                        4 => 200,
                        _ => 10_000,
                    };
                    score += match ends {
                        2 => base * 2,
                        1 => base,
                        _ => 0,
                    };
                }
            }
        }
        score
    }

    fn candidates(&self) -> Vec<(i32, i32)> {
        let (mut x0, mut y0, mut x1, mut y1) = (N, N, -1, -1);
        for y in 0..N {
            for x in 0..N {
                if self.board[y as usize][x as usize] != 0 {
                    (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
                }
            }
        }
        if x1 < 0 {
            return vec![(N / 2, N / 2)];
        }
        let mut out = Vec::new();
        for y in (y0 - 1).max(0)..=(y1 + 1).min(N - 1) {
            for x in (x0 - 1).max(0)..=(x1 + 1).min(N - 1) {
                if self.board[y as usize][x as usize] == 0 {
                    out.push((x, y));
                }
            }
        }
        out
    }

    fn minimax(&mut self, me: u8, to_move: u8, depth: u32, mut alpha: i64, mut beta: i64) -> i64 {
        if depth == 0 {
            return self.combo(me) - self.combo(3 - me);
        }
        let mut best = if to_move == me { i64::MIN } else { i64::MAX };
        let moves = self.candidates();
        if moves.is_empty() {
            return 0;
        }
        for (x, y) in moves {
            self.board[y as usize][x as usize] = to_move;
            let score = if self.wins(x, y) {
                if to_move == me {
                    1_000_000 + depth as i64
                } else {
                    -1_000_000 - depth as i64
                }
            } else {
                self.minimax(me, 3 - to_move, depth - 1, alpha, beta)
            };
            self.board[y as usize][x as usize] = 0;
            if to_move == me {
                best = best.max(score);
                alpha = alpha.max(score);
            } else {
                best = best.min(score);
                beta = beta.min(score);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    fn choose(&mut self, me: u8) -> (i32, i32) {
        let mut best = (i64::MIN, (N / 2, N / 2));
        for (x, y) in self.candidates() {
            self.board[y as usize][x as usize] = me;
            let score = if self.wins(x, y) {
                2_000_000
            } else {
                self.minimax(me, 3 - me, 2, i64::MIN, i64::MAX)
            };
            self.board[y as usize][x as usize] = 0;
            if score > best.0 {
                best = (score, (x, y));
            }
        }
        best.1
    }
}

/// How hard the searcher searches: a budget of positions, with a time that only guards against
/// a runaway search (the positions decide, so the games are the same however busy the machine).
#[derive(Clone, Copy)]
struct Budget {
    nodes: u64,
    time: Duration,
}

/// One game; returns the winner (1 = X, 2 = O) or 0 for a draw, and the moves as `x,y`.
fn game(searcher_plays: u8, opening: &[(i32, i32)], budget: Budget) -> (u8, String) {
    let mut ai = ReportAi {
        board: [[0; N as usize]; N as usize],
    };
    let mut to_move = 1u8;
    let mut ply = 0;
    let mut moves = String::new();
    loop {
        let (x, y) = if ply < opening.len() {
            opening[ply]
        } else if to_move == searcher_plays {
            let mut grid = Grid::new(N as i64, N as i64, 0);
            for y in 0..N {
                for x in 0..N {
                    grid.set(
                        Cell::new(x as i64, y as i64),
                        ai.board[y as usize][x as usize] as i64,
                    );
                }
            }
            let pos = Placement::new(&grid, 2, (to_move - 1) as usize, None, CARO).unwrap();
            let limits = SearchLimits {
                time: budget.time,
                max_depth: 12,
                width: 12,
                seed: ply as u64,
                nodes: Some(budget.nodes),
            };
            let found = pos.best_move(&WEIGHTS, limits).unwrap();
            assert!(found.score > -WIN * 2);
            (
                (found.cell % N as usize) as i32,
                (found.cell / N as usize) as i32,
            )
        } else {
            ai.choose(to_move)
        };
        assert_eq!(ai.board[y as usize][x as usize], 0, "a legal move");
        ai.board[y as usize][x as usize] = to_move;
        moves += &format!(" {x},{y}");
        ply += 1;
        if ai.wins(x, y) {
            return (to_move, moves);
        }
        if ply == (N * N) as usize {
            return (0, moves);
        }
        to_move = 3 - to_move;
    }
}

/// Each game's searcher colour, winner and moves.
fn match_of(games: usize, budget: Budget) -> Vec<(u8, u8, String)> {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    (0..games)
        .map(|g| {
            // a random two-stone opening near the centre
            let a = (rng.random_range(5..10), rng.random_range(5..10));
            let mut b = a;
            while b == a {
                b = (rng.random_range(4..11), rng.random_range(4..11));
            }
            let searcher = if g % 2 == 0 { 1 } else { 2 };
            let (winner, moves) = game(searcher, &[a, b], budget);
            (searcher, winner, moves)
        })
        .collect()
}

/// The searcher's budget: 300 000 positions a move, about what the `hard` level's 900 ms gives
/// on an idle machine (at 150 000 and at 300 000 the searcher lost one of these six games until
/// it checked the opponent's continuous threats after each of its moves); a minute a move
/// only stops a runaway search.
const HARD: Budget = Budget {
    nodes: 300_000,
    time: Duration::from_secs(60),
};

#[test]
fn hard_beats_the_report_ai_with_either_colour() {
    let results = match_of(6, HARD);
    let lost: Vec<_> = results
        .iter()
        .filter(|(me, winner, _)| winner != me)
        .collect();
    assert!(
        lost.is_empty(),
        "lost or drew (searcher, winner, moves): {lost:?}"
    );
}

/// The full 20-game match at the `hard` budget (`cargo test --release -- --ignored`).
#[test]
#[ignore]
fn hard_beats_the_report_ai_in_every_game_of_a_20_game_match() {
    let results = match_of(20, HARD);
    let lost: Vec<_> = results
        .iter()
        .filter(|(me, winner, _)| winner != me)
        .collect();
    assert!(
        lost.is_empty(),
        "lost or drew (searcher, winner, moves): {lost:?}"
    );
}
