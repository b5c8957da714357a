//! The compiled evaluator (script functions lowered into a tree the runtime walks itself) must
//! give exactly what Rhai's interpreter gives. Every shipped script is loaded twice, one copy
//! running everything through Rhai's interpreter, and random games are played on both side by
//! side: at every ply the legal moves, their notation, the outcome, the rendering, the player to
//! move, the evaluation, the warnings and the state read back from its rendering must be the
//! same, and so must what bad input gives (garbage move text, a move that is no longer legal,
//! values that are not moves at all): the same errors, worded and placed the same. Random
//! playouts through the script play the same games on both.

use std::fmt::Debug;

use boardrules::{
    runtime::{Game, GameError},
    script::{Library, ScriptedGame},
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rhai::{Dynamic, INT};

/// The games to check: how to load them, option sets, games per option set, a ply cap.
struct Case<'a> {
    game: &'a str,
    options: &'static [&'static [(&'static str, &'static str)]],
    games: usize,
    max_plies: usize,
}

/// `name` from `rules/`, or an example (`examples/games/NAME.rhai`) by path.
fn load(game: &str, options: &[(&str, &str)], seed: u64, compiled: bool) -> ScriptedGame {
    let library = Library::with_rules_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
    let mut loaded =
        ScriptedGame::load(&library, game).unwrap_or_else(|d| panic!("{game}: {}", d[0]));
    for (k, v) in options {
        loaded
            .set_option(k, v)
            .unwrap_or_else(|e| panic!("{game} -o {k}={v}: {e}"));
    }
    loaded.set_seed(seed);
    loaded.set_compiled(compiled);
    loaded
}

fn example(name: &str) -> String {
    format!("{}/examples/games/{name}.rhai", env!("CARGO_MANIFEST_DIR"))
}

/// The two copies of one game: `fast` compiled, `slow` all through Rhai's interpreter.
struct Pair {
    fast: ScriptedGame,
    slow: ScriptedGame,
    what: String,
}

impl Pair {
    /// A result as text: the value's `Debug`, or the error with its `Debug` (kind and spot) and
    /// the report pointing into the script.
    fn show<T: Debug>(game: &ScriptedGame, result: &Result<T, GameError>) -> String {
        match result {
            Ok(value) => format!("Ok({value:?})"),
            Err(err) => format!("Err({err:?})\n{err}\n{}", game.describe(err)),
        }
    }

    /// Runs `op` on both copies and asserts the same result; gives the compiled copy's.
    fn same<T: Debug>(
        &self,
        label: &str,
        op: impl Fn(&ScriptedGame) -> Result<T, GameError>,
    ) -> Result<T, GameError> {
        let fast = op(&self.fast);
        let slow = op(&self.slow);
        let (f, s) = (Self::show(&self.fast, &fast), Self::show(&self.slow, &slow));
        assert!(
            f == s,
            "{}: {label} differs\n--- compiled:\n{f}\n--- interpreted:\n{s}",
            self.what
        );
        fast
    }

    /// Runs `op` on both copies and asserts the same result.
    fn agree<T: Debug>(&self, label: &str, op: impl Fn(&ScriptedGame) -> Result<T, GameError>) {
        let _ = self.same(label, op);
    }
}

/// Texts that are no moves in any of the games.
const GARBAGE: &[&str] = &[
    "",
    " ",
    "zz",
    "99z",
    "a0",
    "0",
    "-1",
    "z99-a0",
    "1 2 3",
    "#",
    "é",
    "🙂",
    "A1-A1-A1",
    "pass",
    "999999999999999999999999",
    "r",
    "L7",
    "7 7 7 7 7",
];

fn check(case: &Case) {
    for (set, options) in case.options.iter().enumerate() {
        for g in 0..case.games {
            let seed = 1000 * set as u64 + g as u64 + 7;
            let pair = Pair {
                fast: load(case.game, options, seed, true),
                slow: load(case.game, options, seed, false),
                what: format!("{} {options:?} game {g}", case.game),
            };
            if set == 0 && g == 0 {
                let (lowered, total) = pair.fast.compiled_coverage();
                eprintln!("{}: {lowered} of {total} functions lowered", case.game);
                assert!(
                    lowered > 0 && 2 * lowered > total,
                    "{}: only {lowered} of {total} functions lowered",
                    case.game
                );
                assert_eq!(pair.slow.compiled_coverage(), (lowered, total));
            }
            play_one(&pair, seed, case.max_plies);
            if g == 0 {
                playouts_agree(&pair, seed);
            }
        }
    }
}

/// Random playouts through the script (where `moves` may hand the host a primitive's compact
/// list) play the same games on both copies.
fn playouts_agree(pair: &Pair, seed: u64) {
    for k in 0..3 {
        pair.agree("a random playout", |g| {
            let start = g.start()?;
            let mut rng = ChaCha8Rng::seed_from_u64(seed + k);
            g.random_playout_through_script(&start, &mut rng, None)
        });
    }
}

/// One random game on both copies, compared at every ply.
fn play_one(pair: &Pair, seed: u64, max_plies: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = pair.same("start", |g| g.start()).unwrap();
    let players = pair.fast.player_names().len();
    assert_eq!(players, pair.slow.player_names().len());
    // Every move played so far (a move of an earlier position, likely illegal now).
    let mut played: Vec<Dynamic> = Vec::new();
    for ply in 0..max_plies {
        let outcome = pair.same("outcome", |g| g.outcome(&state));
        pair.agree("render", |g| g.render(&state));
        pair.agree("render_marked", |g| g.render_marked(&state));
        pair.agree("to_move", |g| g.to_move(&state));
        pair.agree("warnings", |g| g.warnings(&state));
        pair.agree("picture", |g| g.picture_hints(&state, played.last()));
        for p in 0..players {
            pair.agree(&format!("evaluate {p}"), |g| g.evaluate(&state, p));
        }
        let moves = pair.same("moves", |g| g.legal_moves(&state)).unwrap();
        // The notation of the moves (every one when there are few), and reading it back.
        let step = moves.len().div_ceil(60).max(1);
        let texts: Vec<String> = moves
            .iter()
            .step_by(step)
            .map(|mv| {
                pair.same("format_move", |g| g.format_move(&state, mv))
                    .unwrap()
            })
            .collect();
        for text in &texts {
            pair.agree(&format!("parse_move {text:?}"), |g| {
                g.parse_move(&state, text)
            });
        }
        if ply % 3 == 0 {
            bad_input(pair, &state, &played, &mut rng);
            let shown = pair.fast.render(&state).unwrap();
            let turn = pair.fast.to_move(&state).ok();
            pair.agree("parse_state", |g| g.parse_state(&shown, turn));
            pair.agree("parse_state of garbage", |g| g.parse_state("x\n!!\n", None));
            pair.agree("split_moves", |g| g.split_moves(&texts.join(" ")));
        }
        if outcome.unwrap().is_some() || moves.is_empty() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())].clone();
        pair.agree("why_illegal of a legal move", |g| {
            g.why_illegal(&state, &mv)
        });
        state = pair.same("play", |g| g.play(&state, &mv)).unwrap().state;
        played.push(mv);
    }
}

/// What bad input gives on both copies.
fn bad_input(pair: &Pair, state: &Dynamic, played: &[Dynamic], rng: &mut ChaCha8Rng) {
    for _ in 0..3 {
        let text = GARBAGE[rng.random_range(0..GARBAGE.len())];
        pair.agree(&format!("parse_move {text:?}"), |g| {
            g.parse_move(state, text)
        });
    }
    // A move played earlier: in most games no longer legal.
    if !played.is_empty() {
        let old = &played[rng.random_range(0..played.len())];
        pair.agree("play an earlier move", |g| g.play(state, old));
        pair.agree("why_illegal of an earlier move", |g| {
            g.why_illegal(state, old)
        });
    }
    // Values that are no moves at all: the script fails in its own way.
    let odd: [Dynamic; 5] = [
        Dynamic::UNIT,
        Dynamic::from("not a move"),
        Dynamic::from(-3 as INT),
        Dynamic::from(1.5_f64),
        Dynamic::from_array(vec![Dynamic::from(99 as INT), Dynamic::UNIT]),
    ];
    let value = &odd[rng.random_range(0..odd.len())];
    pair.agree(&format!("play {value:?}"), |g| g.play(state, value));
    pair.agree(&format!("format_move {value:?}"), |g| {
        g.format_move(state, value)
    });
    pair.agree(&format!("why_illegal {value:?}"), |g| {
        g.why_illegal(state, value)
    });
    // A state that is not the game's.
    let junk = Dynamic::from_map(rhai::Map::new());
    pair.agree("moves of an empty map", |g| g.legal_moves(&junk));
    pair.agree("render of ()", |g| g.render(&Dynamic::UNIT));
}

#[test]
fn caro_and_gomoku_agree() {
    check(&Case {
        game: "caro",
        options: &[
            &[],
            &[("size", "9"), ("win", "4"), ("exact", "false")],
            &[
                ("size", "7"),
                ("edge_blocks", "true"),
                ("block_rule", "false"),
            ],
        ],
        games: 3,
        max_plies: 400,
    });
    check(&Case {
        game: "gomoku",
        options: &[&[], &[("size", "10")]],
        games: 2,
        max_plies: 400,
    });
}

#[test]
fn renju_agrees() {
    check(&Case {
        game: "renju",
        options: &[&[], &[("size", "9"), ("foul", "loses")]],
        games: 2,
        max_plies: 400,
    });
}

/// The teachers' variants of `benches/variants/` (closures, helpers, `retain`, loops, `base::`
/// calls whose base functions run in the walker), each by path.
#[test]
fn teachers_variants_agree() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/variants");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rhai"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 9, "{paths:?}");
    for path in paths {
        check(&Case {
            game: path.to_str().unwrap(),
            options: &[&[]],
            games: 2,
            max_plies: 200,
        });
    }
}

#[test]
fn lines98_and_color_lines_agree() {
    check(&Case {
        game: "lines98",
        options: &[
            &[],
            &[
                ("size", "7"),
                ("colors", "3"),
                ("squares", "any"),
                ("score", "five_or_more"),
            ],
        ],
        games: 2,
        max_plies: 60,
    });
    check(&Case {
        game: "color_lines",
        options: &[&[]],
        games: 2,
        max_plies: 60,
    });
}

#[test]
fn five_step_agrees() {
    check(&Case {
        game: "five_step",
        options: &[&[], &[("size", "4"), ("steps", "3"), ("max_plies", "30")]],
        games: 4,
        max_plies: 300,
    });
}

#[test]
fn sowing_games_agree() {
    check(&Case {
        game: "o_an_quan",
        options: &[
            &[],
            &[
                ("direction", "ring"),
                ("borrow", "false"),
                ("players", "3"),
                ("quan_non", "5"),
            ],
            &[("players", "4")],
        ],
        games: 3,
        max_plies: 300,
    });
    check(&Case {
        game: "oware",
        options: &[&[]],
        games: 5,
        max_plies: 300,
    });
    let kalah = example("kalah");
    check(&Case {
        game: &kalah,
        options: &[&[], &[("seeds", "2")]],
        games: 4,
        max_plies: 300,
    });
}

#[test]
fn example_games_agree() {
    check(&Case {
        game: &example("connect_four"),
        options: &[&[], &[("columns", "5"), ("rows", "4"), ("line", "3")]],
        games: 4,
        max_plies: 300,
    });
    for name in ["othello", "breakthrough"] {
        check(&Case {
            game: &example(name),
            options: &[&[]],
            games: 4,
            max_plies: 300,
        });
    }
}

/// The newcomer-style scripts of `benches/newcomer/` (loops over cells, a cell made for each
/// look-up: `state.board.get(cell(x, y))`, which the walker does without making the cell).
#[test]
fn newcomer_scripts_agree() {
    for name in [
        "tic_tac_toe",
        "connect_four",
        "othello",
        "checkers",
        "dots_and_boxes",
        "tic_tac_toe_closures",
        "connect_four_closures",
        "connect_four_pointers",
    ] {
        check(&Case {
            game: &format!(
                "{}/benches/newcomer/{name}.rhai",
                env!("CARGO_MANIFEST_DIR")
            ),
            options: &[&[]],
            games: 2,
            max_plies: 200,
        });
    }
}
