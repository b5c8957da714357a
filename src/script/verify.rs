//! Verifying a script's native form against the script. Before `native(state)` is first used
//! (playouts, search, `bench`, hints, bots), seeded random games are played through the script
//! and, side by side, through the native family: after every move both must agree on the
//! outcome, the player to move, the legal moves, and the position the move leads to (the
//! stones, or the seeds and scores); and every move `moves()` lists must play (each one at the
//! position verified from, a few at random at each later position), since the native form
//! takes the listed moves as legal. One disagreement and the native form is not used for that
//! script text and options for the rest of the process; the user gets one warning with the
//! shortest move sequence found that shows the difference.
//!
//! Before a search starts from a position, the native form is verified again from there (once
//! per position): a game can reach positions that games from the start never do. The first
//! game from a position is played on to its end, or for [`FIRST_GAME_TIMES`] its time, only
//! from the first [`FULL_POSITIONS`] positions of a script text and options; from later ones
//! it stops at the effort's time like the other games. Every later position is still checked
//! where it can differ from the earlier ones — its outcome, player to move and legal moves, every
//! listed move played on trial, the positions its moves reach — and along random games for the
//! effort's time. What is given up, there only: a difference that random play from that
//! position meets only after more than the effort's time (for a slow script, far into the
//! game), which the games from the start and from the first positions, played to their end, did
//! not meet. A script whose random games end within the time loses nothing.

use std::{
    collections::{HashMap, HashSet},
    sync::{LazyLock, Mutex},
    time::{Duration, Instant},
};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rhai::Dynamic;

use super::{native_form::NativeGame, ScriptedGame};
use crate::{
    native_games::{placement::Placement, sowing::Sowing},
    runtime::{Cell, Game},
};

/// How much verifying may do: at most `games` random games (each at most `plies` moves), and
/// nothing more once `time` has passed (but the first game is played on to its end, or until
/// [`FIRST_GAME_TIMES`] times `time` has passed, for a slow script; from a position, only from
/// the first [`FULL_POSITIONS`] ones).
#[derive(Debug, Clone, Copy)]
pub struct Effort {
    /// The most random games.
    pub games: usize,
    /// The longest game, in moves.
    pub plies: usize,
    /// No game starts after this.
    pub time: Duration,
}

/// How many times its budget's time the first game may take.
pub const FIRST_GAME_TIMES: u32 = 4;

/// From how many positions of one script text and options (besides the start) the first
/// game is played on for up to [`FIRST_GAME_TIMES`] its time; from later positions it gets the
/// effort's time, as the other games do (the module's doc says what that gives up).
pub const FULL_POSITIONS: usize = 3;

/// How many times the effort's time the first game from a position may take, once `verified`
/// positions of the same script text and options have been verified.
fn first_game_times(verified: usize) -> u32 {
    if verified < FULL_POSITIONS {
        FIRST_GAME_TIMES
    } else {
        1
    }
}

/// Verifying from the start of a game, once per script text and options.
pub const FROM_START: Effort = Effort {
    games: 24,
    plies: 400,
    time: Duration::from_millis(90),
};

/// Verifying again from a position of the current game, before a search starts there.
pub const FROM_POSITION: Effort = Effort {
    games: 4,
    plies: 400,
    time: Duration::from_millis(25),
};

/// [`FROM_POSITION`] within `limit`, its first game's longer time included, but never less
/// than a quarter of it (the first game then gets [`FROM_POSITION`]'s own time): for a search
/// with little time (a move of a fast game), which would otherwise spend most of it verifying a
/// slow script (renju's first game from a position takes the whole 100 ms).
pub fn from_position_within(limit: Duration) -> Effort {
    let least = FROM_POSITION.time / FIRST_GAME_TIMES;
    Effort {
        time: FROM_POSITION
            .time
            .min((limit / FIRST_GAME_TIMES).max(least)),
        ..FROM_POSITION
    }
}

/// A disagreement between a script and its native form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The moves (canonical text) from the position verified to the one where they differ.
    pub moves: Vec<String>,
    /// What differed, in words.
    pub what: String,
    /// Whether it is a listed move that `play()` refuses (the last position's).
    pub refused: bool,
}

impl Difference {
    /// The warning shown once when the native form is dropped.
    pub fn warning(&self, game: &str) -> String {
        let at = if self.moves.is_empty() {
            "at the start".to_string()
        } else {
            format!("after {}", self.moves.join(" "))
        };
        format!(
            "warning: {game}: native(state) does not describe the same game as the script, so it \
             is not used (everything runs through the script)\n  {at}: {}\n  \
             (a variant keeps the native form by redefining only the helpers its base names \
             for variants, which the native form follows too, or by narrowing `moves` in a \
             shape the book's native-forms chapter lists; to use no native form, define \
             `fn native(state) {{ () }}`)\n",
            self.what
        )
    }
}

/// What is known of one script text with one set of options.
#[derive(Default)]
struct Entry {
    /// `Some(true)` once verified from the start, `Some(false)` once a difference was found.
    trusted: Option<bool>,
    /// The positions (state hashes) verified since.
    positions: HashSet<u64>,
    /// Whether the note that a verification was cut short has been shown.
    noted: bool,
}

/// Verdicts, by a hash of the script texts and option values.
static VERDICTS: LazyLock<Mutex<HashMap<u64, Entry>>> = LazyLock::new(Mutex::default);

fn with_entry<T>(key: u64, f: impl FnOnce(&mut Entry) -> T) -> T {
    let mut verdicts = VERDICTS.lock().unwrap_or_else(|e| e.into_inner());
    f(verdicts.entry(key).or_default())
}

/// Whether the native form of `game` (whose script and options hash to `key`) may be used:
/// verified from the start (once per key), and — when `at` is given — from that position too,
/// with its effort (once per position; past the first [`FULL_POSITIONS`], its first game no
/// longer than the others). A difference found prints one warning and refuses the native form
/// for good.
pub fn trusted(game: &ScriptedGame, key: u64, at: Option<(&Dynamic, Effort)>) -> bool {
    let known = with_entry(key, |e| e.trusted);
    if known == Some(false) {
        return false;
    }
    if known.is_none() {
        let found = game
            .start()
            .ok()
            .and_then(|s| compare(game, &s, FROM_START));
        if found.is_some() && crate::cancel::calls_stopped() {
            return no_verdict(game, key);
        }
        if !settle(game, key, found) {
            return false;
        }
    }
    let Some((state, effort)) = at else {
        return true;
    };
    // A state too large to hash before the command's time is up is not verified either.
    let Some(hash) = game.state_hash_in_time(state) else {
        return no_verdict(game, key);
    };
    let (known, verified) = with_entry(key, |e| (e.positions.contains(&hash), e.positions.len()));
    if known {
        return true;
    }
    let found = compare_games(game, state, effort, first_game_times(verified));
    if found.is_some() && crate::cancel::calls_stopped() {
        return no_verdict(game, key);
    }
    with_entry(key, |e| e.positions.insert(hash));
    settle(game, key, found)
}

/// A verification cut short by the command's time or Ctrl-C (a `native()` or script call
/// stopped, which looks like a failure) says nothing about the native form: no verdict is
/// recorded, this command does without the native form, and one note (per script text and
/// options) says so.
fn no_verdict(game: &ScriptedGame, key: u64) -> bool {
    if with_entry(key, |e| !std::mem::replace(&mut e.noted, true)) {
        eprintln!(
            "note: {}: the time ran out while native(state) was being verified: no verdict, so \
             the script alone is used this time (the native form is verified again next time)",
            crate::terminal::clean(game.name())
        );
    }
    false
}

/// Records a verdict; the first difference for `key` is shown as a warning on stderr.
fn settle(game: &ScriptedGame, key: u64, found: Option<Difference>) -> bool {
    let ok = found.is_none();
    let first = with_entry(key, |e| {
        let first = e.trusted != Some(false) && !ok;
        e.trusted = Some(e.trusted.unwrap_or(true) && ok);
        first
    });
    if let (true, Some(d)) = (first, found) {
        eprint!("{}", crate::terminal::clean(&d.warning(game.name())));
    }
    ok
}

/// Plays seeded random games from `from` through the script and its native form side by side;
/// returns the difference with the fewest moves found, if any. A script error ends a game
/// quietly (it is the script's fault, which `check` reports, not the native form's).
pub fn compare(game: &ScriptedGame, from: &Dynamic, effort: Effort) -> Option<Difference> {
    compare_games(game, from, effort, FIRST_GAME_TIMES)
}

/// [`compare`], the first game taking at most `first_times` times the effort's time.
fn compare_games(
    game: &ScriptedGame,
    from: &Dynamic,
    effort: Effort,
    first_times: u32,
) -> Option<Difference> {
    let recording = game.recording_events();
    game.record_events(false);
    let begun = Instant::now();
    let mut best: Option<Difference> = None;
    for g in 0..effort.games {
        if g > 0 && begun.elapsed() >= effort.time {
            break;
        }
        let plies = best.as_ref().map_or(effort.plies, |d| d.moves.len());
        let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_0000 + g as u64);
        let deadline = begun + effort.time * if g == 0 { first_times } else { 1 };
        if let Some(d) = compare_game(game, from, plies, deadline, g == 0, &mut rng) {
            if best.as_ref().is_none_or(|b| d.moves.len() < b.moves.len()) {
                best = Some(d);
            }
        }
    }
    game.record_events(recording);
    best
}

/// One random game (at most `plies` moves, and none after `deadline`); `None` when script and
/// native form agree. In the `first` game every move listed at `from` is played on trial.
fn compare_game(
    game: &ScriptedGame,
    from: &Dynamic,
    plies: usize,
    deadline: Instant,
    first: bool,
    rng: &mut ChaCha8Rng,
) -> Option<Difference> {
    let mut state = from.clone();
    let mut moves: Vec<String> = Vec::new();
    let mut before: Option<(NativeGame, Dynamic)> = None;
    loop {
        let differ = |what: String| Difference {
            moves: moves.clone(),
            what,
            refused: false,
        };
        let native = match game.native_form(&state) {
            // A sowing form's move filter is asked from `from`, as a playout from there asks it.
            Ok(Some((NativeGame::Sowing(s), _))) => match game.sowing_narrowed(s, from) {
                Ok(s) => NativeGame::Sowing(s),
                Err(e) => return Some(differ(format!("the native form's hook failed: {e}"))),
            },
            Ok(Some((n, _))) => n,
            Ok(None) => return None, // no native form from here on
            Err(e) => return Some(differ(format!("native(state) failed: {e}"))),
        };
        if let Some((prev, prev_state)) = &before {
            if let Some(what) = reached(game, prev, prev_state, &native) {
                return Some(differ(what));
            }
        }
        let outcome = game.outcome(&state).ok()?;
        let native_outcome = native_outcome(&native);
        if native_outcome != outcome {
            let say = |o| match o {
                Some(o) => game.describe_outcome(o),
                None => "the game goes on".to_string(),
            };
            return Some(differ(format!(
                "result() says {}, the native form says {}",
                say(outcome),
                say(native_outcome)
            )));
        }
        let late = Instant::now() >= deadline;
        if outcome.is_some() || moves.len() >= plies || late {
            return None;
        }
        let to_move = game.to_move(&state).ok()?;
        let native_to_move = match &native {
            NativeGame::Placement(p) => p.to_move(),
            NativeGame::Sowing(s) => s.to_move(),
        };
        if to_move != native_to_move {
            return Some(differ(format!(
                "to_move() says {} moves, the native form says {}",
                game.player_name(to_move),
                game.player_name(native_to_move)
            )));
        }
        let legal = game.legal_moves(&state).ok()?;
        if let Some(what) = same_moves(game, &state, from, &legal, &native) {
            return Some(differ(what));
        }
        if legal.is_empty() {
            return None;
        }
        let pick = rng.random_range(0..legal.len());
        let checked = if first && moves.is_empty() {
            legal.len()
        } else {
            OTHERS_PLAYED
        };
        if let Some(what) = refused_listed_move(game, &state, &legal, pick, checked, rng) {
            return Some(Difference {
                refused: true,
                ..differ(what)
            });
        }
        let mv = &legal[pick];
        let text = game.format_move(&state, mv).ok()?;
        let next = game.play(&state, mv).ok()?.state;
        moves.push(text);
        before = Some((native, std::mem::replace(&mut state, next)));
    }
}

/// How many listed moves besides the one the random game plays are played on trial at each
/// position (at the position verified from, every listed move is, once).
const OTHERS_PLAYED: usize = 1;

/// Every listed move plays: the native form takes `moves()` as the legal moves, so a move the
/// script lists but `play()` refuses would be recommended and then rejected. Tries the move at
/// `pick` and `others` more (starting at a random one); the first refused, in words.
fn refused_listed_move(
    game: &ScriptedGame,
    state: &Dynamic,
    legal: &[Dynamic],
    pick: usize,
    others: usize,
    rng: &mut ChaCha8Rng,
) -> Option<String> {
    let from = rng.random_range(0..legal.len());
    let tried = (0..others.min(legal.len())).map(|k| (from + k) % legal.len());
    std::iter::once(pick).chain(tried).find_map(|i| {
        let mv = &legal[i];
        let refusal = game.play(state, mv).err()?;
        let text = game
            .format_move(state, mv)
            .unwrap_or_else(|_| mv.to_string());
        Some(format!(
            "moves() lists {text}, but play() refuses it ({})",
            refusal.to_string().lines().next().unwrap_or_default()
        ))
    })
}

fn native_outcome(native: &NativeGame) -> Option<crate::runtime::Outcome> {
    match native {
        NativeGame::Placement(p) => p.outcome(),
        NativeGame::Sowing(s) => s.outcome(),
    }
}

/// Whether the script's legal moves are the native form's: the same cells for a placement game
/// whose moves are cells, else the same number of moves. A move filter is asked from `root`,
/// the position verified from, as a playout from there asks it (a sowing form's was asked
/// when the form was narrowed).
fn same_moves(
    game: &ScriptedGame,
    state: &Dynamic,
    root: &Dynamic,
    legal: &[Dynamic],
    native: &NativeGame,
) -> Option<String> {
    let count = match native {
        NativeGame::Placement(p) => {
            if let Some(what) = same_cells(game, state, root, legal, p) {
                return Some(what);
            }
            game.allowed_cells(p, root).map_or(0, |cells| cells.len())
        }
        NativeGame::Sowing(s) => s.legal_moves().len(),
    };
    (count != legal.len()).then(|| {
        format!(
            "moves() lists {} moves, the native form allows {count}",
            legal.len()
        )
    })
}

/// For a placement game whose moves are cells: a cell one side allows and the other does not.
fn same_cells(
    game: &ScriptedGame,
    state: &Dynamic,
    root: &Dynamic,
    legal: &[Dynamic],
    native: &Placement,
) -> Option<String> {
    let width = native.width() as i64;
    let cells: Option<HashSet<i64>> = legal
        .iter()
        .map(|m| m.clone().try_cast::<Cell>().map(|c| c.y * width + c.x))
        .collect();
    let cells = cells?;
    let allowed = match game.allowed_cells(native, root) {
        Ok(cells) => cells,
        Err(e) => return Some(format!("the native form's hook failed: {e}")),
    };
    let empties: HashSet<i64> = allowed.iter().map(|&i| i as i64).collect();
    let name = |i: i64| {
        let cell = Cell::new(i % width, i / width);
        game.format_move(state, &Dynamic::from(cell))
            .unwrap_or_else(|_| format!("({}, {})", cell.x, cell.y))
    };
    if let Some(&i) = empties.difference(&cells).min() {
        return Some(format!(
            "the native form allows {}, which moves() does not list ({} moves against {})",
            name(i),
            empties.len(),
            cells.len()
        ));
    }
    cells.difference(&empties).min().map(|&i| {
        format!(
            "moves() lists {}, which the native form does not allow",
            name(i)
        )
    })
}

/// Whether one native move from `prev` (the native form of the script's `prev_state`) gives
/// `next` (the native form of the script's next position); if none does, what the script
/// reached, in words. A sowing form's capture hook is asked as in play.
fn reached(
    game: &ScriptedGame,
    prev: &NativeGame,
    prev_state: &Dynamic,
    next: &NativeGame,
) -> Option<String> {
    match (prev, next) {
        (NativeGame::Placement(p), NativeGame::Placement(n)) => {
            let reaches = p.empties().iter().any(|&i| {
                let mut trial = p.clone();
                trial.play(i as usize).is_ok() && trial.same_position(n)
            });
            (!reaches).then(|| {
                "the position play() reached is not one the native form reaches with one move \
                 (a different board, winner or player to move)"
                    .to_string()
            })
        }
        (NativeGame::Sowing(p), NativeGame::Sowing(n)) => {
            let successors: Vec<Sowing> = p
                .legal_moves()
                .into_iter()
                .filter_map(|m| {
                    let mut trial = p.clone();
                    game.play_sowing_judged(prev_state, &mut trial, m)
                        .then_some(trial)
                })
                .collect();
            if successors.iter().any(|s| s.same_position(n)) {
                return None;
            }
            let nearest = successors.iter().min_by_key(|s| distance(s, n));
            Some(format!(
                "play() gives {}; no native move gives that{}",
                describe_sowing(game, n),
                nearest.map_or(String::new(), |s| format!(
                    " (the nearest: {})",
                    describe_sowing(game, s)
                ))
            ))
        }
        _ => Some("native(state) changed family between two moves".into()),
    }
}

fn distance(a: &Sowing, b: &Sowing) -> i64 {
    let seeds = a.seeds().iter().zip(b.seeds()).map(|(x, y)| (x - y).abs());
    let scores = a
        .scores()
        .iter()
        .zip(b.scores())
        .map(|(x, y)| (x - y).abs());
    seeds.chain(scores).sum::<i64>() + i64::from(a.to_move() != b.to_move())
}

fn describe_sowing(game: &ScriptedGame, s: &Sowing) -> String {
    format!(
        "seeds {:?}, scores {:?}, {} to move",
        s.seeds(),
        s.scores(),
        game.player_name(s.to_move())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verifying_from_a_position_keeps_within_its_share_and_its_bounds() {
        let ms = |limit| from_position_within(Duration::from_millis(limit)).time;
        assert_eq!(
            ms(800),
            FROM_POSITION.time,
            "a long move: no less than before"
        );
        assert_eq!(
            ms(36),
            Duration::from_millis(9),
            "the first game takes the 36 ms"
        );
        assert_eq!(
            ms(4),
            FROM_POSITION.time / FIRST_GAME_TIMES,
            "its first game 25 ms"
        );
        assert_eq!(
            from_position_within(Duration::ZERO).games,
            FROM_POSITION.games
        );
    }

    #[test]
    fn only_the_first_positions_play_their_first_game_on_past_the_time() {
        let times: Vec<u32> = (0..=FULL_POSITIONS).map(first_game_times).collect();
        assert_eq!(times[0], FIRST_GAME_TIMES, "the first position");
        assert_eq!(times[FULL_POSITIONS - 1], FIRST_GAME_TIMES);
        assert_eq!(
            times[FULL_POSITIONS], 1,
            "a later position: the effort's time"
        );
    }
}
