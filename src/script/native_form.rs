//! A script's native form. A rules script may define `native(state)` to describe a position as
//! one of the runtime's native game families; random playouts (and search) then run natively
//! from that position without entering the script once per move.
//!
//! The families:
//! - `placement` (see [`crate::native_games::placement`]):
//!   `#{ placement: #{ board, to_move, winner, line, exact, block_both_ends, edge_blocks, closed,
//!   judge, weights } }` (`line` and `exact` may be one value per player; `closed`, optional, is the value of
//!   closed cells; `judge`, optional, names a script hook that judges some players' moves (and
//!   says where it can matter): see
//!   [`crate::native_games::placement::judge`]; `weights`, optional, are the search's evaluation:
//!   see [`crate::native_games::placement::search`]);
//! - `sowing` (see [`crate::native_games::sowing`]): `#{ sowing: #{ track, scores, to_move, houses,
//!   pieces, piece_worth, protect_below, directions, skip_origin, relay, capture, counts,
//!   grand_slam, must_feed, refill, borrow, end, repetition, seen, collect, capturable,
//!   weights } }` (see the book's native-forms chapter for each key; `capturable`, optional, is a
//!   capture hook: see [`CaptureHook`]);
//! - `()`: no native form (for this position): everything runs through the script.
//!
//! The runtime uses a native form only once it is verified against the script
//! (see [`super::verify`]).

use rhai::{Dynamic, Map, INT};

use crate::{
    native_games::{
        placement::{Judge, LineGoal, Placement, Players, Refuses, Screen},
        sowing::{Capture, End, Setup, Sowing, SowingRules},
    },
    runtime::{Grid, Track},
};

/// Search weights: the worth of a line window holding n stones of one player only.
pub type Weights = Vec<i64>;

/// A position in a native game family.
#[derive(Debug, Clone)]
pub enum NativeGame {
    /// A placement game with a line goal.
    Placement(Placement),
    /// A sowing (mancala) game.
    Sowing(Sowing),
}

fn field<'a>(map: &'a Map, key: &str) -> Result<&'a Dynamic, String> {
    map.get(key).ok_or_else(|| format!("`{key}` is missing"))
}

fn int(map: &Map, key: &str) -> Result<INT, String> {
    field(map, key)?
        .as_int()
        .map_err(|t| format!("`{key}` must be an integer, not {t}"))
}

fn flag(map: &Map, key: &str) -> Result<bool, String> {
    map.get(key).map_or(Ok(false), |v| {
        v.as_bool()
            .map_err(|t| format!("`{key}` must be true or false, not {t}"))
    })
}

fn text(map: &Map, key: &str, default: &str) -> Result<String, String> {
    map.get(key).map_or(Ok(default.to_string()), |v| {
        v.clone()
            .into_string()
            .map_err(|t| format!("`{key}` must be a string, not {t}"))
    })
}

fn ints(value: &Dynamic, key: &str) -> Result<Vec<INT>, String> {
    value
        .read_lock::<rhai::Array>()
        .ok_or_else(|| format!("`{key}` must be an array of integers"))?
        .iter()
        .map(|v| {
            v.as_int()
                .map_err(|t| format!("`{key}` must hold integers, not {t}"))
        })
        .collect()
}

/// The most pits a native sowing ring may have.
pub const MAX_PITS: usize = 128;

/// `map[key]` as a player index: 0 to `players - 1`.
fn player(map: &Map, key: &str, players: usize) -> Result<usize, String> {
    let n = int(map, key)?;
    usize::try_from(n)
        .ok()
        .filter(|&p| p < players)
        .ok_or_else(|| format!("`{key}` is {n}, not a player (0 to {})", players.max(1) - 1))
}

/// Reads what `native(state)` returned, for a game of `players` players.
pub fn read(map: &Map, players: usize) -> Result<NativeGame, String> {
    if let Some(sowing) = map.get("sowing") {
        let s = sowing.read_lock::<Map>().ok_or("`sowing` must be a map")?;
        return read_sowing(&s).map(NativeGame::Sowing);
    }
    let Some(placement) = map.get("placement") else {
        return Err(
            "native(state) must return #{ placement: #{ … } }, #{ sowing: #{ … } }, or () for no native form"
                .into(),
        );
    };
    let p = placement
        .read_lock::<Map>()
        .ok_or("`placement` must be a map")?;
    let board = field(&p, "board")?
        .read_lock::<Grid>()
        .ok_or("`board` must be a grid")?
        .clone();
    let winner = match field(&p, "winner") {
        Ok(w) if !w.is_unit() => Some(player(&p, "winner", players)?),
        _ => None,
    };
    let lengths = line_lengths(&p, board.width().max(board.height()))?;
    let goal = LineGoal {
        length: lengths[0],
        exact: per_player(&p, "exact", players)?,
        block_both_ends: flag(&p, "block_both_ends")?,
        edge_blocks: flag(&p, "edge_blocks")?,
    };
    let to_move = player(&p, "to_move", players)?;
    let closed = p.get("closed").map(|_| int(&p, "closed")).transpose()?;
    let mut position = Placement::with_closed(&board, players, to_move, winner, goal, closed)?;
    if lengths.len() > 1 || p.get("line").is_some_and(|l| l.is_array()) {
        position = position.with_lengths(&lengths)?;
    }
    let judge = p.get("judge").map(|j| read_judge(j, players)).transpose()?;
    let counted = 2..=crate::runtime::threats::MAX_LENGTH;
    // The first map of shapes the judge names, if any: the runtime counts them.
    let shaped = judge
        .as_ref()
        .and_then(|j| match (&j.refuses, &j.always_refuses) {
            (Some(_), _) => Some("refuses"),
            (None, Some(_)) => Some("always_refuses"),
            (None, None) => None,
        });
    if let Some(key) = shaped.filter(|_| !lengths.iter().all(|n| counted.contains(n))) {
        return Err(format!(
            "`judge.{key}` counts lines of {} to {} stones, not {}",
            counted.start(),
            counted.end(),
            lengths
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(NativeGame::Placement(match judge {
        Some(judge) => position.judged_by(judge),
        None => position,
    }))
}

/// `line`: one length of a winning run for every player, or an array of them, one per player;
/// each from 1 to `longest` (the board's longer side).
fn line_lengths(map: &Map, longest: INT) -> Result<Vec<usize>, String> {
    let value = field(map, "line")?;
    let lengths = match value.as_int() {
        Ok(n) => vec![n],
        Err(_) if value.is_array() => ints(value, "line")?,
        Err(t) => {
            return Err(format!(
                "`line` must be an integer, or an array of them, one per player, not {t}"
            ))
        }
    };
    if lengths.is_empty() {
        return Err("`line` is an empty array: give one length per player".into());
    }
    lengths
        .into_iter()
        .map(|n| {
            if (1..=longest).contains(&n) {
                Ok(n as usize)
            } else {
                Err(format!(
                    "`line` is {n}; it must be from 1 to {longest} (the board's longer side)"
                ))
            }
        })
        .collect()
}

/// `map[key]`: `true`/`false` for every player, or an array of them, one per player
/// (absent: `false`).
fn per_player(map: &Map, key: &str, players: usize) -> Result<Players, String> {
    let Some(value) = map.get(key) else {
        return Ok(Players::NONE);
    };
    if let Ok(all) = value.as_bool() {
        return Ok(if all { Players::ALL } else { Players::NONE });
    }
    let bad = || format!("`{key}` must be true, false, or an array of them, one per player");
    let list = value.read_lock::<rhai::Array>().ok_or_else(bad)?;
    if list.len() != players {
        return Err(format!(
            "`{key}` has {} entries for {players} players",
            list.len()
        ));
    }
    list.iter()
        .enumerate()
        .try_fold(Players::NONE, |set, (p, v)| {
            let on = v.as_bool().map_err(|_| bad())?;
            Ok(if on { Players(set.0 | 1 << p) } else { set })
        })
}

/// The `judge` map: `#{ hook: "name", players: [0, …], screen: #{ window, one, two },
/// wins_allowed: true, refuses: #{ overline, fours, threes }, always_refuses: #{ … } }`
/// (`screen`, `wins_allowed`, `refuses` and `always_refuses` optional).
fn read_judge(value: &Dynamic, players: usize) -> Result<Judge, String> {
    let j = value.read_lock::<Map>().ok_or("`judge` must be a map")?;
    let hook = match field(&j, "hook")?.clone().into_string() {
        Ok(name) if !name.is_empty() => name,
        _ => return Err("`judge.hook` must be the name of a script function".into()),
    };
    let mut judged = Players::NONE;
    for p in ints(field(&j, "players")?, "judge.players")? {
        let p = usize::try_from(p)
            .ok()
            .filter(|&p| p < players && p < 64)
            .ok_or_else(|| format!("`judge.players`: {p} is not a player"))?;
        judged.0 |= 1 << p;
    }
    let screen = match j.get("screen") {
        None => None,
        Some(s) => {
            let s = s.read_lock::<Map>().ok_or("`judge.screen` must be a map")?;
            let count = |key: &str| -> Result<usize, String> {
                let n = int(&s, key).map_err(|e| format!("`judge.screen`: {e}"))?;
                usize::try_from(n)
                    .ok()
                    .filter(|&n| (1..=MAX_WINDOW).contains(&n))
                    .ok_or_else(|| {
                        format!("`judge.screen.{key}` is {n}; it must be from 1 to {MAX_WINDOW}")
                    })
            };
            Some(Screen {
                window: count("window")?,
                one: count("one")?,
                two: count("two")?,
            })
        }
    };
    Ok(Judge {
        hook,
        players: judged,
        screen,
        wins_allowed: flag(&j, "wins_allowed").map_err(|e| format!("`judge`: {e}"))?,
        refuses: j
            .get("refuses")
            .map(|r| read_refuses(r, "refuses"))
            .transpose()?,
        always_refuses: j
            .get("always_refuses")
            .map(|r| read_refuses(r, "always_refuses"))
            .transpose()?,
    })
}

/// The judge's `refuses` or `always_refuses` map (`name`): `#{ overline: true, fours: 2,
/// threes: 2 }` (each optional).
fn read_refuses(value: &Dynamic, name: &str) -> Result<Refuses, String> {
    let r = value
        .read_lock::<Map>()
        .ok_or_else(|| format!("`judge.{name}` must be a map"))?;
    if let Some(key) = r
        .keys()
        .find(|k| !["overline", "fours", "threes"].contains(&k.as_str()))
    {
        return Err(format!(
            "`judge.{name}.{key}` is not known: it may say `overline`, `fours` and `threes`"
        ));
    }
    let count = |key: &str| -> Result<usize, String> {
        if !r.contains_key(key) {
            return Ok(0);
        }
        let n = int(&r, key).map_err(|e| format!("`judge.{name}`: {e}"))?;
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= MAX_WINDOW)
            .ok_or_else(|| {
                format!("`judge.{name}.{key}` is {n}; it must be from 0 to {MAX_WINDOW}")
            })
    };
    Ok(Refuses {
        overline: flag(&r, "overline").map_err(|e| format!("`judge.{name}`: {e}"))?,
        fours: count("fours")?,
        threes: count("threes")?,
    })
}

/// The longest window a judge's screen may look at.
const MAX_WINDOW: usize = 32;

/// Reads the `sowing` family's map.
fn read_sowing(s: &Map) -> Result<Sowing, String> {
    let track = field(s, "track")?
        .read_lock::<Track>()
        .ok_or("`track` must be a track")?
        .clone();
    let len = track.len();
    if len > MAX_PITS {
        return Err(format!(
            "`track` has {len} pits; a native sowing ring has at most {MAX_PITS}"
        ));
    }
    let houses = match s.get("houses") {
        Some(_) => {
            let kind = text(s, "houses", "")?;
            (0..len).map(|p| track.kind(p) == kind).collect()
        }
        None => vec![true; len],
    };
    // `pieces`: for each store (a pit that is not a house), in pit order, whether it holds its
    // big piece.
    let mut pieces = vec![false; len];
    if let Some(list) = s.get("pieces") {
        let list = list
            .read_lock::<rhai::Array>()
            .ok_or("`pieces` must be an array of true/false, one per store")?;
        let stores: Vec<usize> = (0..len).filter(|&p| !houses[p]).collect();
        if list.len() != stores.len() {
            return Err(format!(
                "`pieces` has {} entries for {} stores",
                list.len(),
                stores.len()
            ));
        }
        for (&pit, holds) in stores.iter().zip(list.iter()) {
            pieces[pit] = holds
                .as_bool()
                .map_err(|t| format!("`pieces` must hold true or false, not {t}"))?;
        }
    }
    let piece_worth = s
        .get("piece_worth")
        .map_or(Ok(0), |_| int(s, "piece_worth"))?;
    let capture = match text(s, "capture", "none")?.as_str() {
        "none" => Capture::None,
        "empty_then_next" => Capture::EmptyThenNext,
        "counts" => {
            let mut counts = 0u64;
            for n in ints(field(s, "counts")?, "counts")? {
                if !(0..64).contains(&n) {
                    return Err(format!("`counts`: {n} is not a count from 0 to 63"));
                }
                counts |= 1 << n;
            }
            Capture::Counts {
                counts,
                grand_slam: flag(s, "grand_slam")?,
            }
        }
        other => {
            return Err(format!(
                "`capture` is \"{other}\": use \"none\", \"counts\" or \"empty_then_next\""
            ))
        }
    };
    let end = match text(s, "end", "majority")?.as_str() {
        "majority" => End::Majority,
        "stores_empty" => End::StoresEmpty,
        other => {
            return Err(format!(
                "`end` is \"{other}\": use \"majority\" or \"stores_empty\""
            ))
        }
    };
    let both_directions = match text(s, "directions", "one")?.as_str() {
        "one" => false,
        "both" => true,
        other => {
            return Err(format!(
                "`directions` is \"{other}\": use \"one\" or \"both\""
            ))
        }
    };
    let rules = SowingRules {
        both_directions,
        skip_origin: flag(s, "skip_origin")?,
        relay: flag(s, "relay")?,
        capture,
        protect_below: s
            .get("protect_below")
            .map_or(Ok(0), |_| int(s, "protect_below"))?,
        must_feed: flag(s, "must_feed")?,
        refill: flag(s, "refill")?,
        borrow: flag(s, "borrow")?,
        end,
        repetition: flag(s, "repetition")?,
        collect: flag(s, "collect")?,
    };
    let seen = match s.get("seen") {
        Some(list) => list
            .read_lock::<rhai::Array>()
            .ok_or("`seen` must be an array of arrays")?
            .iter()
            .map(|key| ints(key, "seen"))
            .collect::<Result<_, _>>()?,
        None => Vec::new(),
    };
    let setup = Setup {
        track: &track,
        houses,
        pieces: (pieces, piece_worth),
        scores: ints(field(s, "scores")?, "scores")?,
        to_move: int(s, "to_move")?.max(0) as usize,
        seen,
    };
    let sowing = Sowing::new(rules, setup)?;
    match s.get("capturable") {
        Some(hook) => {
            read_capture_hook(hook)?;
            sowing.with_capture_hook()
        }
        None => Ok(sowing),
    }
}

/// A sowing form's capture hook, `capturable: #{ hook, state, track, scores, to_move, pieces }`:
/// the script function `hook(state, pit)` says whether a capture may take the seeds in `pit`;
/// it is given `state` (the script's state when `native` was asked) with the fields named by
/// `track`, `scores`, `to_move` and `pieces` (each optional) holding the position's ring,
/// scores, player to move and stores' pieces at the time of the capture.
#[derive(Debug, Clone)]
pub struct CaptureHook {
    /// The script function.
    pub hook: String,
    /// The state it is given, before the position's fields are written into it.
    pub state: Map,
    /// The fields of `state` to write: (what, the field's name).
    pub fields: Vec<(HookField, String)>,
}

/// What the runtime writes into a capture hook's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookField {
    /// The ring (a track holding the position's seeds).
    Track,
    /// Each player's score.
    Scores,
    /// The player to move.
    ToMove,
    /// For each store, whether it holds its big piece.
    Pieces,
}

/// The `capturable` map of a sowing form.
pub fn read_capture_hook(value: &Dynamic) -> Result<CaptureHook, String> {
    let m = value
        .read_lock::<Map>()
        .ok_or("`capturable` must be a map: #{ hook: \"name\", state: state, … }")?;
    let hook = match m.get("hook").map(|h| h.clone().into_string()) {
        Some(Ok(name)) => name,
        _ => return Err("`capturable.hook` must be the name of a script function".into()),
    };
    let state = field(&m, "state")?
        .read_lock::<Map>()
        .ok_or("`capturable.state` must be the state (a map)")?
        .clone();
    let mut fields = Vec::new();
    for (key, what) in [
        ("track", HookField::Track),
        ("scores", HookField::Scores),
        ("to_move", HookField::ToMove),
        ("pieces", HookField::Pieces),
    ] {
        if m.contains_key(key) {
            let name = text(&m, key, "").map_err(|e| format!("`capturable`: {e}"))?;
            fields.push((what, name));
        }
    }
    Ok(CaptureHook {
        hook,
        state,
        fields,
    })
}

/// The search weights `native(state)` gives, if any: for `placement`, the worth of a line window
/// holding n stones of one player only (`[w0, w1, …]`); for `sowing`, the worth of a point of
/// score and of a seed in one's own houses (`[score, houses]`).
pub fn weights(map: &Map) -> Result<Option<Weights>, String> {
    let family = map.get("placement").or_else(|| map.get("sowing"));
    let Some(p) = family.and_then(|p| p.read_lock::<Map>()) else {
        return Ok(None);
    };
    let Some(w) = p.get("weights") else {
        return Ok(None);
    };
    let array = w
        .read_lock::<rhai::Array>()
        .ok_or("`weights` must be an array of integers")?;
    array
        .iter()
        .map(|v| {
            v.as_int()
                .map_err(|t| format!("`weights` must hold integers, not {t}"))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}
