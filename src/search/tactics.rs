//! What every search is checked against, through the rules themselves, for every game and
//! variant: every listed move is played once ([`screen`]), so that a move that wins at once is
//! taken without searching and a move the rules' `play` refuses is never searched nor
//! recommended; and when the opponent could win with their next move, the move chosen must stop
//! that if any move can ([`guard`]).
//!
//! All of it is bounded by a deadline: what could not be looked at in time is left to the search.

use std::time::Instant;

use crate::runtime::{Game, GameError, Outcome};

/// The legal moves of a position, each played once through the rules.
pub struct Screened<G: Game> {
    /// The moves `play` accepts, with the positions they lead to, in the order listed.
    pub playable: Vec<(G::Move, G::State)>,
    /// The moves not played before the deadline (they may still be refused).
    pub unscreened: Vec<G::Move>,
    /// The moves listed but refused by `play` (a bug in the rules, which `check` reports).
    pub refused: Vec<G::Move>,
    /// The index in [`Self::playable`] of a move that wins at once for the player to move.
    pub win: Option<usize>,
}

impl<G: Game> Screened<G> {
    /// The moves a search may choose among: the playable ones, then those not screened.
    pub fn searchable(&self) -> Vec<G::Move> {
        let played = self.playable.iter().map(|(m, _)| m.clone());
        played.chain(self.unscreened.iter().cloned()).collect()
    }

    /// Whether the rules refused `mv` (compared by [`Game::move_hash`]).
    pub fn refuses(&self, game: &G, mv: &G::Move) -> bool {
        let key = game.move_hash(mv);
        key.is_some() && self.refused.iter().any(|r| game.move_hash(r) == key)
    }

    /// The position `mv` leads to, if it was screened.
    fn after(&self, game: &G, mv: &G::Move) -> Option<&G::State> {
        let key = game.move_hash(mv)?;
        self.playable
            .iter()
            .find(|(m, _)| game.move_hash(m) == Some(key))
            .map(|(_, s)| s)
    }
}

/// Plays each of `moves` (the legal moves of `state`) once, until one wins at once for `me`
/// (when `wins` is set: a state holding chance would read the future its generator holds) or
/// the deadline passes. A refusal by `play` ([`GameError::Illegal`]) is noted; any other error
/// of the rules is returned.
pub fn screen<G: Game>(
    game: &G,
    state: &G::State,
    moves: Vec<G::Move>,
    (me, wins): (usize, bool),
    deadline: Instant,
) -> Result<Screened<G>, GameError> {
    let mut screened = Screened {
        playable: Vec::with_capacity(moves.len()),
        unscreened: Vec::new(),
        refused: Vec::new(),
        win: None,
    };
    let mut moves = moves.into_iter();
    while let Some(mv) = moves.next() {
        if crate::cancel::past(deadline) {
            screened.unscreened.push(mv);
            screened.unscreened.extend(moves);
            break;
        }
        match game.play(state, &mv) {
            Ok(played) => {
                let won = wins && game.outcome(&played.state)? == Some(Outcome::Win(me));
                screened.playable.push((mv, played.state));
                if won {
                    screened.win = Some(screened.playable.len() - 1);
                    screened.unscreened.extend(moves);
                    break;
                }
            }
            // (Out of time mid-call: the move and the rest are left to the search.)
            Err(_) if crate::cancel::calls_stopped() => {
                screened.unscreened.push(mv);
                screened.unscreened.extend(moves);
                break;
            }
            Err(GameError::Illegal(_)) => screened.refused.push(mv),
            Err(e) => return Err(e),
        }
    }
    Ok(screened)
}

/// What the player to move after a move can do at once.
enum Reply<M> {
    /// This move wins at once for them (the player named).
    Wins(M, usize),
    /// No move of theirs wins at once (or it is not their move, or the game is over).
    Safe,
    /// The deadline passed before every move was tried.
    Unknown,
}

/// Whether the next player (someone other than `me`) can win at once in `after`.
fn reply<G: Game>(
    game: &G,
    after: &G::State,
    me: usize,
    deadline: Instant,
) -> Result<Reply<G::Move>, GameError> {
    if game.outcome(after)?.is_some() {
        return Ok(Reply::Safe);
    }
    let them = game.to_move(after)?;
    if them == me {
        return Ok(Reply::Safe);
    }
    for mv in game.legal_moves(after)? {
        if crate::cancel::past(deadline) {
            return Ok(Reply::Unknown);
        }
        let won = game
            .play(after, &mv)
            .and_then(|p| Ok(game.outcome(&p.state)? == Some(Outcome::Win(them))));
        match won {
            Ok(true) => return Ok(Reply::Wins(mv, them)),
            Ok(false) | Err(GameError::Illegal(_)) => {}
            Err(_) if crate::cancel::calls_stopped() => return Ok(Reply::Unknown),
            Err(e) => return Err(e),
        }
    }
    Ok(Reply::Safe)
}

/// A move that stops the opponent's win at once, chosen instead of the search's.
pub struct Block<M> {
    /// The move.
    pub mv: M,
    /// The opponent's winning move it stops, in the notation of the position it would be
    /// played in.
    pub threat: String,
    /// The opponent.
    pub them: usize,
}

/// Checks the search's choice `chosen` in `state` (for `me`): if it lets the next player win
/// at once while another screened move does not, that move (the one on the threat's own spot
/// tried first); `None` when `chosen` stands (no threat, no move stops it, or no time to tell).
pub fn guard<G: Game>(
    game: &G,
    state: &G::State,
    screened: &Screened<G>,
    (chosen, me): (&G::Move, usize),
    deadline: Instant,
) -> Result<Option<Block<G::Move>>, GameError> {
    let played;
    let after = match screened.after(game, chosen) {
        Some(after) => after,
        None => {
            played = game.play(state, chosen)?.state;
            &played
        }
    };
    let Reply::Wins(threat, them) = reply(game, after, me, deadline)? else {
        return Ok(None);
    };
    let text = {
        let _free = crate::cancel::calls_until(None); // naming a move is no search
        game.format_move(after, &threat)?
    };
    let key = game.move_hash(&threat);
    let same = |m: &G::Move| key.is_some() && game.move_hash(m) == key;
    let candidates = screened.playable.iter().filter(|(m, _)| same(m));
    let others = screened.playable.iter().filter(|(m, _)| !same(m));
    for (mv, after) in candidates.chain(others) {
        if game.move_hash(mv).is_some() && game.move_hash(mv) == game.move_hash(chosen) {
            continue;
        }
        match reply(game, after, me, deadline)? {
            Reply::Safe => {
                return Ok(Some(Block {
                    mv: mv.clone(),
                    threat: text,
                    them,
                }))
            }
            Reply::Wins(..) => {}
            Reply::Unknown => return Ok(None),
        }
    }
    Ok(None)
}
