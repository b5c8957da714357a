//! The `Game` trait every game implements (scripted games through the script host, native
//! reference games directly), and the values it trades in.

use std::fmt;

/// How a finished game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The player with this index (0-based) won.
    Win(usize),
    /// Nobody won.
    Draw,
}

/// Where in a rules script something went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptSpot {
    /// The script's name (a file path or `builtin:NAME`).
    pub source: String,
    /// Line, 1-based.
    pub line: usize,
    /// Column, 1-based.
    pub column: usize,
}

/// Why a game operation failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GameError {
    /// The text of a move or position could not be read.
    #[error("{0}")]
    BadText(String),
    /// The move is not allowed by the rules.
    #[error("{0}")]
    Illegal(String),
    /// The game is over; no more moves can be played.
    #[error("the game is over: {0}")]
    GameOver(String),
    /// The rules implementation itself failed (a bug or limit in a script).
    #[error("{message}")]
    Rules {
        /// What went wrong.
        message: String,
        /// Where in which script, when known.
        spot: Option<ScriptSpot>,
    },
}

/// One step of what a move did, for explanations ("sow 5 from pit 3", "capture 6 at pit 4").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The step, in words.
    pub text: String,
    /// The board just after the step, rendered, when the rules gave it.
    pub board: Option<String>,
}

impl Event {
    /// An event with no board.
    pub fn new(text: impl Into<String>) -> Self {
        Event {
            text: text.into(),
            board: None,
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// The state after a move, with the events the move produced.
#[derive(Debug, Clone)]
pub struct Played<S> {
    /// The new state.
    pub state: S,
    /// What happened, step by step.
    pub events: Vec<Event>,
}

/// The largest evaluation a game may give a position (either way): beyond are won and lost
/// positions (the search scores a win at 1 000 000 000).
pub const MAX_EVALUATION: i64 = 499_999_999;

/// A game: its states, moves, rules and notations. States are values: `play` returns a new
/// state and never changes the one it is given, which makes undo and search simple.
pub trait Game {
    /// A position, with everything needed to continue from it.
    type State: Clone;
    /// A move.
    type Move: Clone;

    /// The players' names, in turn order.
    fn player_names(&self) -> &[String];
    /// The start position.
    fn start(&self) -> Result<Self::State, GameError>;
    /// The index of the player to move.
    fn to_move(&self, state: &Self::State) -> Result<usize, GameError>;
    /// Every legal move, in the game's canonical order.
    fn legal_moves(&self, state: &Self::State) -> Result<Vec<Self::Move>, GameError>;
    /// Plays `mv`, returning the new state; an illegal move is an error.
    fn play(&self, state: &Self::State, mv: &Self::Move) -> Result<Played<Self::State>, GameError>;
    /// `Some` once the game is over.
    fn outcome(&self, state: &Self::State) -> Result<Option<Outcome>, GameError>;
    /// Reads a move written in the game's notation.
    fn parse_move(&self, state: &Self::State, text: &str) -> Result<Self::Move, GameError>;
    /// Writes a move in the game's canonical notation.
    fn format_move(&self, state: &Self::State, mv: &Self::Move) -> Result<String, GameError>;
    /// The state as text.
    fn render(&self, state: &Self::State) -> Result<String, GameError>;
    /// Reads a rendering back; `to_move` says whose turn it is when the text does not.
    fn parse_state(&self, text: &str, to_move: Option<usize>) -> Result<Self::State, GameError>;
    /// A hash of the state: equal states hash equally.
    fn state_hash(&self, state: &Self::State) -> u64;
    /// [`Game::state_hash`] for a search, or `None` when the command's time
    /// ([`crate::cancel::calls_until`]) ran out (or Ctrl-C) while a large state was hashed: the
    /// search stops there, as at a script call the time stopped. By default the hash, whose
    /// work is bounded.
    fn state_hash_in_time(&self, state: &Self::State) -> Option<u64> {
        Some(self.state_hash(state))
    }
    /// Splits a move list into move texts (by default, the whole text is one move).
    fn split_moves(&self, text: &str) -> Result<Vec<String>, GameError> {
        Ok(vec![text.to_string()])
    }
    /// Why `mv`, which [`Game::legal_moves`] does not list, is illegal in `state`, when the rules
    /// say so themselves (a rules script's optional `why_illegal(state, mv)`): `Some(reason)`,
    /// an empty reason when they have none for this move. `None` when the game gives no such
    /// reasons: then [`Game::play`]'s refusal is the reason.
    fn why_illegal(
        &self,
        _state: &Self::State,
        _mv: &Self::Move,
    ) -> Result<Option<String>, GameError> {
        Ok(None)
    }
    /// A hash of a move, equal for equal moves in any position, so that search heuristics can
    /// recognise a move again (killer moves); `None` when the game gives none.
    fn move_hash(&self, _mv: &Self::Move) -> Option<u64> {
        None
    }
    /// Where the rules define `function`, for reports of a bug in the rules (`None` if unknown).
    fn definition(&self, _function: &str) -> Option<ScriptSpot> {
        None
    }
    /// Warnings about the state for the player to move ("X threatens five at 9k").
    fn warnings(&self, _state: &Self::State) -> Result<Vec<String>, GameError> {
        Ok(Vec::new())
    }

    /// The display name of player `index`.
    fn player_name(&self, index: usize) -> String {
        self.player_names()
            .get(index)
            .cloned()
            .unwrap_or_else(|| format!("player {}", index + 1))
    }

    /// The outcome in words: `X wins` or `draw`.
    fn describe_outcome(&self, outcome: Outcome) -> String {
        match outcome {
            Outcome::Win(p) => format!("{} wins", self.player_name(p)),
            Outcome::Draw => "draw".to_string(),
        }
    }
}

/// A 64-bit FNV-1a hasher: stable across runs and Rust releases, so hashes can be saved.
#[derive(Debug, Clone, Copy)]
pub struct StableHasher(u64);

impl Default for StableHasher {
    fn default() -> Self {
        StableHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for StableHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}
