//! The computer player: a move for the side to move, at a level, for any game — used by
//! `boardrules hint`, the REPL's `hint` and `vs`, and the Gomocup brain. It picks the best search
//! the game allows: the native search of a game with a native form (`native(state)`), else
//! alpha-beta through the script when it gives an `evaluate(state, player)`, else Monte Carlo
//! tree search (UCT) through the script.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rhai::Dynamic;

use crate::{
    cancel,
    native_games::{
        placement::{search::SearchLimits, Placement},
        sowing::{
            search::{SearchLimits as SowingLimits, WIN as SOWING_WIN},
            Sowing,
        },
    },
    runtime::{Cell, Game, GameError},
    script::{game::HookReferee, native_form::NativeGame, ScriptedGame},
    search::{
        self,
        tactics::{self, Screened},
        why::Why,
    },
};

/// How strong (and how slow) the computer is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Quick and fallible.
    Easy,
    /// A fraction of a second.
    Medium,
    /// Up to about a second a move.
    Hard,
}

impl Level {
    /// Reads `easy`, `medium` or `hard`.
    pub fn parse(text: &str) -> Option<Level> {
        match text.trim().to_ascii_lowercase().as_str() {
            "easy" => Some(Level::Easy),
            "medium" => Some(Level::Medium),
            "hard" => Some(Level::Hard),
            _ => None,
        }
    }

    /// The level's name.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    /// The time a move may take at this level.
    pub fn budget(self) -> Duration {
        Duration::from_millis(match self {
            Level::Easy => 50,
            Level::Medium => 250,
            Level::Hard => 900,
        })
    }
}

/// A chosen move and why.
#[derive(Debug, Clone)]
pub struct Hint {
    /// The move.
    pub mv: Dynamic,
    /// The move in canonical notation.
    pub text: String,
    /// One line on why, in English.
    pub reason: String,
    /// Why, for saying it in another language.
    pub why: Why,
    /// How good the move is for the player to move, where the search says (positive is good,
    /// ±[`search::WIN`] a win or loss at once; a native search's own scale otherwise).
    pub score: Option<i64>,
}

impl Hint {
    /// A hint for `mv` (`text` in canonical notation), chosen for `why`.
    fn new(mv: Dynamic, text: String, why: Why) -> Hint {
        Hint {
            mv,
            text,
            reason: why.english(),
            why,
            score: None,
        }
    }

    /// This hint, its move scored `score`.
    fn scored(mut self, score: i64) -> Hint {
        self.score = Some(score);
        self
    }
}

/// The weights the native search uses when a script gives none: each stone in a window of the
/// line length is worth about ten times the one before.
fn default_weights(length: usize) -> Vec<i64> {
    (0..=length)
        .map(|n| {
            if n == 0 {
                0
            } else {
                10i64.saturating_pow(n as u32 - 1) * if n == length { 100 } else { 1 }
            }
        })
        .collect()
}

/// A move for the side to move in `state` at `level` (within `time` if given), or `None` if the
/// game is over.
pub fn choose(
    game: &ScriptedGame,
    state: &Dynamic,
    level: Level,
    time: Option<Duration>,
    seed: u64,
) -> Result<Option<Hint>, GameError> {
    let overrides = Tuning {
        time,
        ..Tuning::default()
    };
    choose_tuned(game, state, level, overrides, seed)
}

/// [`choose`], with the time and depth of `overrides` (where given) in place of what the level
/// and the script's `levels()` say, and its budget of positions (for the native placement
/// search).
pub fn choose_tuned(
    game: &ScriptedGame,
    state: &Dynamic,
    level: Level,
    overrides: Tuning,
    seed: u64,
) -> Result<Option<Hint>, GameError> {
    let start = Instant::now();
    if game.outcome(state)?.is_some() {
        return Ok(None);
    }
    let me = game.to_move(state)?; // a script's answer is checked even where a native search decides
    let tuning = Tuning::of(game, level)?;
    let time = overrides
        .time
        .or(tuning.time)
        .unwrap_or_else(|| level.budget());
    let reach = Tuning {
        time: Some(time),
        depth: overrides.depth.or(tuning.depth),
        nodes: overrides.nodes.or(tuning.nodes),
    };
    // No search reads the events of the moves it tries (nor renders their snapshots).
    let recording = game.recording_events();
    game.record_events(false);
    let chosen = {
        // However slow the script, no call of it runs past the command's time (or Ctrl-C).
        let _calls = cancel::calls_until(Some(start + time + time / GUARD_SHARE + CALL_GRACE));
        from_root_moves(game, state, me, level, (start, time), reach, seed)
    };
    game.record_events(recording);
    chosen
}

/// How long after a move's time (and the check of its choice) the script's calls are stopped:
/// the searches stop themselves at their time; this only ends a call that overruns it.
const CALL_GRACE: Duration = Duration::from_millis(50);

/// `mv`'s canonical text, even once the command's time is up (naming the move chosen is no
/// search).
fn name_move(game: &ScriptedGame, state: &Dynamic, mv: &Dynamic) -> Result<String, GameError> {
    let _free = cancel::calls_until(None);
    game.format_move(state, mv)
}

/// The share of a move's time the check of the search's choice ([`tactics::guard`]) may take
/// after the search.
const GUARD_SHARE: u32 = 5;

/// [`tactical`] among the root's moves: the verified native form's where it gives them
/// ([`ScriptedGame::root_moves`]: the cells it allows, as the search below the root takes
/// them), the move chosen among those then checked against the script's `moves()` — and chosen
/// again among the script's moves should the script not list it.
fn from_root_moves(
    game: &ScriptedGame,
    state: &Dynamic,
    me: usize,
    level: Level,
    (start, time): (Instant, Duration),
    reach: Tuning,
    seed: u64,
) -> Result<Option<Hint>, GameError> {
    let (moves, native) = game.root_moves(state)?;
    let timing = (start, time);
    let hint = tactical(game, state, moves, me, level, timing, reach, seed)?;
    let listed = |mv: &Dynamic| {
        let _free = cancel::calls_until(None); // one listing, however late
        game.lists(state, mv)
    };
    match hint {
        Some(h) if native && !listed(&h.mv)? => {
            let moves = game.legal_moves(state)?;
            tactical(game, state, moves, me, level, timing, reach, seed)
        }
        hint => Ok(hint),
    }
}

/// [`choose_tuned`] with events off, among the root's `moves`: the tactics of [`tactics`] around the best search the game
/// allows, all within `time` from `start` (and a fifth more for checking the search's choice).
#[allow(clippy::too_many_arguments)]
fn tactical(
    game: &ScriptedGame,
    state: &Dynamic,
    moves: Vec<Dynamic>,
    me: usize,
    level: Level,
    (start, time): (Instant, Duration),
    reach: Tuning,
    seed: u64,
) -> Result<Option<Hint>, GameError> {
    // A state holding chance is never played as it is to look for a win: that would read the
    // future its generator holds.
    let certain = !game.has_chance(state);
    // Half the time at most: a slow script leaves the moves not screened to the search.
    let screened = tactics::screen(game, state, moves, (me, certain), start + time / 2)?;
    if let Some(i) = screened.win {
        let mv = screened.playable[i].0.clone();
        let text = name_move(game, state, &mv)?;
        let args = [("player", game.player_name(me)), ("move", text.clone())];
        return Ok(Some(
            Hint::new(mv, text, Why::new("wins-now", 0, &args)).scored(search::WIN),
        ));
    }
    if screened.searchable().is_empty() {
        return Err(GameError::Rules {
            message: "play() refuses every move moves() lists (a bug in the rules script: \
                      moves and play disagree)"
                .into(),
            spot: game.definition("play"),
        });
    }
    let until = start + time - time / GUARD_SHARE;
    let stopped = || {
        let mv = screened.searchable().swap_remove(0);
        let text = name_move(game, state, &mv)?;
        Ok(Some(Hint::new(mv, text, Why::new("stopped", 0, &[]))))
    };
    let hint = match search(game, state, &screened, level, until, reach, seed) {
        Ok(Some(hint)) => hint,
        // Out of time in a slow script call (or Ctrl-C), or before the search had looked at a
        // single move (the game is not over: that was checked first): a move the rules accept.
        Ok(None) => return stopped(),
        Err(_) if cancel::calls_stopped() => return stopped(),
        Err(e) => return Err(e),
    };
    game.record_events(false); // (a search may have said what a move does in its events)
    if !certain {
        return Ok(Some(hint));
    }
    let deadline = Instant::now() + time / GUARD_SHARE;
    let guarded = tactics::guard(game, state, &screened, (&hint.mv, me), deadline);
    match guarded {
        Err(_) if cancel::calls_stopped() => Ok(Some(hint)),
        Err(e) => Err(e),
        Ok(None) => Ok(Some(hint)),
        Ok(Some(block)) => {
            let text = name_move(game, state, &block.mv)?;
            let args = [
                ("player", game.player_name(block.them)),
                ("move", block.threat),
            ];
            Ok(Some(Hint::new(
                block.mv,
                text,
                Why::new("blocks-win", 0, &args),
            )))
        }
    }
}

/// The best search the game allows, among the moves `screened` found the rules accept: a native
/// search whose move the script refuses gives way to a search through the script.
fn search(
    game: &ScriptedGame,
    state: &Dynamic,
    screened: &Screened<ScriptedGame>,
    level: Level,
    until: Instant,
    reach: Tuning,
    seed: u64,
) -> Result<Option<Hint>, GameError> {
    let depth = reach.depth;
    let accepted =
        |hint: &Option<Hint>| hint.as_ref().is_none_or(|h| !screened.refuses(game, &h.mv));
    let left = until.saturating_duration_since(Instant::now());
    let verifying = crate::script::verify::from_position_within(left / VERIFY_SHARE);
    let native = game.native_with_weights_within(state, verifying)?;
    // What is left once the native form is checked (a slow `native()` takes its share).
    let time = until
        .saturating_duration_since(Instant::now())
        .max(Duration::from_millis(1));
    match native {
        Some((NativeGame::Placement(position), weights)) => {
            let found = placement_hint(
                game, state, screened, &position, weights, level, time, reach, seed,
            )?;
            if found.is_some() && accepted(&found) {
                return Ok(found);
            }
        }
        // A capture hook's position is searched through the script (the hook is the script's).
        Some((NativeGame::Sowing(position), weights))
            if position.players() == 2 && !position.capture_hooked() =>
        {
            let position = game.sowing_narrowed(position, state)?;
            let found = sowing_hint(
                game, state, screened, &position, weights, level, time, depth, seed,
            )?;
            if accepted(&found) {
                return Ok(found);
            }
        }
        _ => {}
    }
    let moves = screened.searchable();
    let time = until
        .saturating_duration_since(Instant::now())
        .max(Duration::from_millis(1));
    if game.defines("evaluate", 2) && game.has_chance(state) {
        return sampled(game, state, moves, level, time, seed);
    }
    if game.defines("evaluate", 2) {
        return alpha_beta(game, state, moves, level, time, depth, seed);
    }
    monte_carlo(game, state, moves, level, time, seed)
}

/// The share of a search's time that verifying the native form from its position may take at
/// most (with [`crate::script::verify::FROM_POSITION`]'s time as a ceiling).
const VERIFY_SHARE: u32 = 8;

/// The longest a script's `levels()` may let a move take, in milliseconds.
pub const MAX_TIME_MS: u64 = 60_000;
/// The deepest search a script's `levels()` may ask for, in moves.
pub const MAX_DEPTH: usize = 64;

/// What a rules script's `levels()` says a level means: how long a move may take and how many
/// moves ahead the search looks (each optional).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tuning {
    /// The time a move may take.
    pub time: Option<Duration>,
    /// The deepest search, in moves.
    pub depth: Option<usize>,
    /// The most positions the native placement search visits (the Gomocup brain's
    /// `INFO max_node`); scripts' `levels()` do not set it.
    pub nodes: Option<u64>,
}

impl Tuning {
    /// The tuning `game` gives `level` (none when the script has no `levels()` or no entry).
    pub fn of(game: &ScriptedGame, level: Level) -> Result<Tuning, GameError> {
        let Some(levels) = game.levels()? else {
            return Ok(Tuning::default());
        };
        let bad = |message: String| GameError::Rules {
            message: format!("levels(): {message}"),
            spot: None,
        };
        let Some(entry) = levels.get(level.name()) else {
            return Ok(Tuning::default());
        };
        let entry = entry
            .read_lock::<rhai::Map>()
            .ok_or_else(|| bad(format!("`{}` must be a map", level.name())))?;
        let number = |key: &str, most: u64| -> Result<Option<u64>, GameError> {
            entry
                .get(key)
                .map(|v| match v.as_int() {
                    Ok(n) if (1..=most as i64).contains(&n) => Ok(n as u64),
                    _ => Err(bad(format!(
                        "`{}.{key}` must be a whole number of at least 1 and at most {most}, not {v}",
                        level.name()
                    ))),
                })
                .transpose()
        };
        Ok(Tuning {
            time: number("time_ms", MAX_TIME_MS)?.map(Duration::from_millis),
            depth: number("depth", MAX_DEPTH as u64)?.map(|d| d as usize),
            nodes: None,
        })
    }
}

/// Alpha-beta through the script, with its `evaluate(state, player)`.
fn alpha_beta(
    game: &ScriptedGame,
    state: &Dynamic,
    moves: Vec<Dynamic>,
    level: Level,
    time: Duration,
    depth: Option<usize>,
    seed: u64,
) -> Result<Option<Hint>, GameError> {
    let max_depth = depth.unwrap_or(match level {
        Level::Easy => 1,
        Level::Medium => 3,
        Level::Hard => 64,
    });
    let limits = search::Limits {
        time,
        max_depth,
        seed,
    };
    let eval = |s: &Dynamic, p: usize| game.evaluate(s, p).map(Option::unwrap_or_default);
    let Some(found) = search::best_move_among(game, state, moves, Some(&eval), limits)? else {
        return Ok(None);
    };
    let text = name_move(game, state, &found.mv)?;
    let why = if found.depth == 0 {
        let key = match found.slowest {
            Some(search::Slowest::Playing) => "no-time-play",
            Some(search::Slowest::Hashing) => "no-time-hash",
            _ => "no-time",
        };
        Why::new(key, 0, &[])
    } else if found.score >= search::WIN / 2 {
        Why::new("forced-win", found.depth, &[])
    } else if found.score <= -search::WIN / 2 {
        Why::new("holds-out", 0, &[("move", text.clone())])
    } else {
        Why::new(
            "best-evaluation",
            found.depth,
            &[("nodes", found.nodes.to_string())],
        )
    };
    Ok(Some(Hint::new(found.mv, text, why).scored(found.score)))
}

/// Sampled expectimax through the script's `evaluate` (`src/search/sampling.rs`), instead of
/// alpha-beta for a game whose state holds chance (a random generator): each move is valued
/// over sampled futures, never the one the state's generator holds. Higher levels refine more
/// moves in more futures, and `hard` looks one move further.
fn sampled(
    game: &ScriptedGame,
    state: &Dynamic,
    moves: Vec<Dynamic>,
    level: Level,
    time: Duration,
    seed: u64,
) -> Result<Option<Hint>, GameError> {
    let (width, samples, replies) = match level {
        Level::Easy => (4, 16, 0),
        Level::Medium => (8, 128, 0),
        Level::Hard => (16, 256, 4),
    };
    let limits = search::sampling::Limits {
        time,
        width,
        samples,
        replies,
        seed,
    };
    let eval = |s: &Dynamic, p: usize| game.evaluate(s, p).map(Option::unwrap_or_default);
    let reseed = |s: &Dynamic, seed: u64| game.reseed(s, seed);
    let found = search::sampling::best_move_among(game, state, moves, &eval, &reseed, limits);
    let Some(found) = found? else {
        return Ok(None);
    };
    let text = name_move(game, state, &found.mv)?;
    let gain = found.value - found.before as f64;
    let why = if found.certain {
        // No chance in it: say what it does, in the script's words.
        game.record_events(true);
        let _free = cancel::calls_until(None);
        let played = game.play(&game.reseed(state, seed), &found.mv)?;
        let gain = ("gain", format!("{gain:+.0}"));
        match played.events.last() {
            Some(event) => Why::new("certain-event", 0, &[("event", event.text.clone()), gain]),
            None => Why::new("certain", 0, &[gain]),
        }
    } else if found.moves == 1 {
        Why::new("only-move", 1, &[])
    } else if found.samples == 1 {
        let args = [
            ("gain", format!("{gain:+.0}")),
            ("moves", found.moves.to_string()),
        ];
        Why::new("one-future", found.moves, &args)
    } else {
        let args = [
            ("gain", format!("{gain:+.1}")),
            ("samples", found.samples.to_string()),
            ("refined", found.refined.to_string()),
            ("moves", found.moves.to_string()),
        ];
        Why::new("expected", found.depth, &args)
    };
    Ok(Some(Hint::new(found.mv, text, why)))
}

#[allow(clippy::too_many_arguments)]
fn placement_hint(
    game: &ScriptedGame,
    state: &Dynamic,
    screened: &Screened<ScriptedGame>,
    position: &Placement,
    weights: Option<Vec<i64>>,
    level: Level,
    time: Duration,
    reach: Tuning,
    seed: u64,
) -> Result<Option<Hint>, GameError> {
    let weights = weights.unwrap_or_else(|| default_weights(position.goal().length));
    let (max_depth, width) = match level {
        Level::Easy => (1, 6),
        Level::Medium => (4, 10),
        Level::Hard => (16, 12),
    };
    let max_depth = reach.depth.map_or(max_depth, |d| d as u32);
    let moves = screened.searchable();
    check_board(position, &moves)?;
    let mut referee = HookReferee::new(game, state);
    let found = position.best_move_refereed(
        &weights,
        SearchLimits {
            time,
            max_depth,
            width,
            seed,
            nodes: reach.nodes,
        },
        &mut referee,
    );
    referee.finish()?;
    let Some(found) = found else {
        return Ok(None);
    };
    let cell = Cell::new(
        (found.cell % position.width()) as i64,
        (found.cell / position.width()) as i64,
    );
    let Some(mv) = moves
        .into_iter()
        .find(|m| m.clone().try_cast::<Cell>() == Some(cell))
    else {
        return Ok(None); // the script's moves are not cells: search through the script instead
    };
    let text = name_move(game, state, &mv)?;
    let me = game.player_name(position.to_move());
    let them = game.player_name(1 - position.to_move().min(1));
    // No deeper than the moves left: a small board fills up before the search's depth.
    let depth = (found.depth as usize).min(position.empties().len());
    let why = if position.wins_with(found.cell, position.to_move()) {
        Why::new("wins-at", 0, &[("player", me), ("move", text.clone())])
    } else if position.wins_with(found.cell, 1 - position.to_move().min(1)) {
        Why::new("blocks-win", 0, &[("player", them), ("move", text.clone())])
    } else if found.score >= crate::native_games::placement::search::WIN / 2 {
        Why::new("forces-win", depth, &[("player", me)])
    } else if found.score <= -crate::native_games::placement::search::WIN / 2 {
        Why::new("they-force", 0, &[("player", them), ("move", text.clone())])
    } else {
        let (attack, defence) = position.gain_parts(found.cell, &weights);
        let nodes = ("nodes", found.nodes.to_string());
        if defence > attack {
            Why::new("blocks-lines", depth, &[("player", them), nodes])
        } else {
            Why::new("builds-lines", depth, &[("player", me), nodes])
        }
    };
    Ok(Some(Hint::new(mv, text, why).scored(found.score)))
}

/// Refuses a native placement board that is not the script's: a move of the script (when its
/// moves are cells) that is not an empty cell of the native board.
fn check_board(position: &Placement, moves: &[Dynamic]) -> Result<(), GameError> {
    let width = position.width() as i64;
    let empties: std::collections::HashSet<u32> = position.empties().iter().copied().collect();
    for mv in moves {
        let Some(c) = mv.clone().try_cast::<Cell>() else {
            return Ok(()); // the moves are not cells: the hint searches through the script
        };
        let on_board = (0..width).contains(&c.x) && c.y >= 0;
        if !(on_board && empties.contains(&((c.y * width + c.x) as u32))) {
            return Err(GameError::Rules {
                message: format!(
                    "native(): the script's move {c} is not an empty cell of the native board \
                     ({width} wide): the board is not the game's"
                ),
                spot: None,
            });
        }
    }
    Ok(())
}

/// The native search of a two-player sowing game; the move is found among the script's moves
/// as the one that leads to the same position.
#[allow(clippy::too_many_arguments)]
fn sowing_hint(
    game: &ScriptedGame,
    state: &Dynamic,
    screened: &Screened<ScriptedGame>,
    position: &Sowing,
    weights: Option<Vec<i64>>,
    level: Level,
    time: Duration,
    depth: Option<usize>,
    seed: u64,
) -> Result<Option<Hint>, GameError> {
    let weights = match weights.as_deref() {
        None => [1, 0],
        Some(&[score, houses]) => [score, houses],
        Some(_) => {
            return Err(GameError::Rules {
                message: "native(): sowing `weights` must be [score, houses]".into(),
                spot: None,
            })
        }
    };
    let max_depth = depth.unwrap_or(match level {
        Level::Easy => 2,
        Level::Medium => 6,
        Level::Hard => 64,
    }) as u32;
    let limits = SowingLimits {
        time,
        max_depth,
        seed,
    };
    let Some(found) = position.best_move(&weights, limits) else {
        return Ok(None);
    };
    let mut after = position.clone();
    after.play(found.mv).map_err(|message| GameError::Rules {
        message,
        spot: None,
    })?;
    let Some(mv) = script_move_to(game, state, screened, &after)? else {
        return Err(GameError::Rules {
            message:
                "native(): no move of the script leads to the position the native search chose"
                    .into(),
            spot: None,
        });
    };
    let text = name_move(game, state, &mv)?;
    let me = position.to_move();
    let gain = after.scores()[me] - position.scores()[me];
    let now = (gain > 0).then(|| Why::new("captures-now", 0, &[("gain", gain.to_string())]));
    let depth = found.depth as usize;
    let why = if found.score >= SOWING_WIN / 2 {
        Why::new("forced-win-seen", depth, &[])
    } else if found.score <= -SOWING_WIN / 2 {
        Why::new("holds-out", 0, &[("move", text.clone())])
    } else {
        Why::new("best-balance", depth, &[("nodes", found.nodes.to_string())])
    };
    Ok(Some(Hint::new(mv, text, why.after(now))))
}

/// The script's move in `state` that leads to the sowing position `target`, if one does (the
/// moves `screened` played first).
fn script_move_to(
    game: &ScriptedGame,
    state: &Dynamic,
    screened: &Screened<ScriptedGame>,
    target: &Sowing,
) -> Result<Option<Dynamic>, GameError> {
    let leads_there = |next: &Dynamic| -> Result<bool, GameError> {
        Ok(matches!(game.native(next)?, Some(NativeGame::Sowing(s)) if s.same_position(target)))
    };
    for (mv, next) in &screened.playable {
        if leads_there(next)? {
            return Ok(Some(mv.clone()));
        }
    }
    for mv in &screened.unscreened {
        if leads_there(&game.play(state, mv)?.state)? {
            return Ok(Some(mv.clone()));
        }
    }
    Ok(None)
}

/// Monte Carlo tree search (UCT) through the script, its playouts native when the script has a
/// native form.
fn monte_carlo(
    game: &ScriptedGame,
    state: &Dynamic,
    moves: Vec<Dynamic>,
    level: Level,
    time: Duration,
    seed: u64,
) -> Result<Option<Hint>, GameError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    if moves.is_empty() {
        return Ok(None);
    }
    if level == Level::Easy && moves.len() > 1 && rng.random_bool(0.3) {
        let mv = moves[rng.random_range(0..moves.len())].clone();
        let text = name_move(game, state, &mv)?;
        return Ok(Some(Hint::new(mv, text, Why::new("random", 0, &[]))));
    }
    let me = game.to_move(state)?;
    // However slow the script's moves, no playout runs past the search's time.
    let deadline = std::time::Instant::now() + time;
    let mut playout = |s: &Dynamic, rng: &mut ChaCha8Rng| {
        game.random_playout_until(s, rng, Some(deadline))
            .map(|(o, _)| o)
    };
    // A state holding chance is searched in sampled worlds, never the one its generator holds.
    let reseed = |s: &Dynamic, seed: u64| game.reseed(s, seed);
    let sample: Option<search::mcts::Sample<'_, ScriptedGame>> =
        game.has_chance(state).then_some(&reseed);
    let iterations = moves.len() as u32;
    let found = search::mcts::uct(
        game,
        state,
        moves,
        time,
        (iterations, seed),
        &mut playout,
        sample,
    );
    let Some(found) = found? else {
        return Ok(None);
    };
    let text = name_move(game, state, &found.mv)?;
    let args = [
        ("player", game.player_name(me)),
        ("percent", format!("{:.0}", found.reward * 100.0)),
        ("visits", found.visits.to_string()),
        ("iterations", found.iterations.to_string()),
    ];
    Ok(Some(Hint::new(
        found.mv,
        text,
        Why::new("simulated", 0, &args),
    )))
}
