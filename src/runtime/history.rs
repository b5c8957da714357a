//! A game in progress: the states so far, the moves between them, and what undo took back.

use super::game::{Event, Game, GameError, Outcome, Played};

/// One move of a history: the move, its canonical text and what it did.
#[derive(Debug, Clone)]
pub struct Step<M> {
    /// The move.
    pub mv: M,
    /// The move in canonical notation.
    pub text: String,
    /// The events the move produced.
    pub events: Vec<Event>,
}

/// A game's history: `states[i]` is the position after `i` moves. Undo pops the last move onto a
/// redo stack; playing a new move clears that stack.
#[derive(Debug)]
pub struct History<G: Game> {
    states: Vec<G::State>,
    steps: Vec<Step<G::Move>>,
    undone: Vec<(Step<G::Move>, G::State)>,
}

impl<G: Game> Clone for History<G> {
    fn clone(&self) -> Self {
        History {
            states: self.states.clone(),
            steps: self.steps.clone(),
            undone: self.undone.clone(),
        }
    }
}

impl<G: Game> History<G> {
    /// A history that starts at `start`.
    pub fn new(start: G::State) -> Self {
        History {
            states: vec![start],
            steps: Vec::new(),
            undone: Vec::new(),
        }
    }

    /// The current position.
    pub fn current(&self) -> &G::State {
        self.states
            .last()
            .expect("a history always has its start state")
    }

    /// The start position.
    pub fn start(&self) -> &G::State {
        &self.states[0]
    }

    /// The position after `ply` moves, if that many have been played.
    pub fn state_at(&self, ply: usize) -> Option<&G::State> {
        self.states.get(ply)
    }

    /// How many moves have been played.
    pub fn ply(&self) -> usize {
        self.steps.len()
    }

    /// The moves played, in order.
    pub fn steps(&self) -> &[Step<G::Move>] {
        &self.steps
    }

    /// How many undone moves `redo` can bring back.
    pub fn redo_depth(&self) -> usize {
        self.undone.len()
    }

    /// Plays `mv`, which must be among the game's legal moves (see
    /// [`super::legality::play_listed`]). On error nothing changes. A finished game accepts no
    /// move.
    pub fn play(&mut self, game: &G, mv: &G::Move) -> Result<&Step<G::Move>, GameError> {
        self.play_checked(game, mv, |state, mv, text| {
            super::legality::play_listed(game, state, mv, text)
        })
    }

    /// [`Self::play`], with `legal_play(state, mv, text)` playing the move (`text` its
    /// canonical notation) in place of [`super::legality::play_listed`]: for a caller that
    /// checks legality another way the rules vouch for.
    pub fn play_checked(
        &mut self,
        game: &G,
        mv: &G::Move,
        legal_play: impl FnOnce(&G::State, &G::Move, &str) -> Result<Played<G::State>, GameError>,
    ) -> Result<&Step<G::Move>, GameError> {
        let state = self.current();
        if let Some(outcome) = game.outcome(state)? {
            return Err(GameError::GameOver(game.describe_outcome(outcome)));
        }
        let text = game.format_move(state, mv)?;
        let played = legal_play(state, mv, &text)?;
        self.states.push(played.state);
        self.steps.push(Step {
            mv: mv.clone(),
            text,
            events: played.events,
        });
        self.undone.clear();
        Ok(self.steps.last().expect("just pushed"))
    }

    /// Reads `text` as a move and plays it. On error nothing changes.
    pub fn play_text(&mut self, game: &G, text: &str) -> Result<&Step<G::Move>, GameError> {
        let mv = game.parse_move(self.current(), text)?;
        self.play(game, &mv)
    }

    /// Takes back the last move; `false` at the start.
    pub fn undo(&mut self) -> bool {
        match (self.steps.pop(), self.states.len() > 1) {
            (Some(step), true) => {
                let state = self.states.pop().expect("checked above");
                self.undone.push((step, state));
                true
            }
            _ => false,
        }
    }

    /// Plays the last undone move again; `false` if there is none.
    pub fn redo(&mut self) -> bool {
        match self.undone.pop() {
            Some((step, state)) => {
                self.steps.push(step);
                self.states.push(state);
                true
            }
            None => false,
        }
    }

    /// The outcome of the current position, if the game is over.
    pub fn outcome(&self, game: &G) -> Result<Option<Outcome>, GameError> {
        game.outcome(self.current())
    }

    /// Replays `moves` (texts) from `start`. Stops at the first failing move and returns the
    /// history so far with the index of that move and its error.
    pub fn replay<'t>(
        game: &G,
        start: G::State,
        moves: impl IntoIterator<Item = &'t str>,
    ) -> (Self, Option<(usize, GameError)>) {
        let mut history = History::new(start);
        for (i, text) in moves.into_iter().enumerate() {
            if let Err(e) = history.play_text(game, text) {
                return (history, Some((i, e)));
            }
        }
        (history, None)
    }
}
