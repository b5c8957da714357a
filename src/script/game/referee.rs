//! The script's side of a placement game's hooks: asks the judge the native form names whether
//! the player to move may put a stone on a cell (see [`crate::native_games::placement::judge`]),
//! and the move filter of a `moves()` that keeps some of its base's moves whether it keeps a
//! cell (see [`crate::script::move_filter`]).

use rhai::{Dynamic, INT};

use super::ScriptedGame;
use crate::{
    native_games::placement::{Placement, Referee},
    runtime::{Cell, Game, GameError},
    script::move_filter::{FilterArg, MoveFilter},
};

/// Asks `hook(board, cell, player)` of a script, and its move filter with the state `root`; a
/// failure refuses the move and is kept for [`HookReferee::finish`]. The filter's answers are
/// kept, for this referee and the next one asked from the same state.
pub struct HookReferee<'g> {
    game: &'g ScriptedGame,
    root: &'g Dynamic,
    /// A key of `root` for the game's kept answers (0 when the filter does not read it;
    /// `None` when the command's time ran out while `root` was hashed: none are kept then).
    key: Option<u64>,
    /// The filter's answer for each cell: 0 not asked yet, 1 kept, 2 dropped.
    answers: Vec<u8>,
    /// The board the answers are for: its width and number of cells (a position read from a
    /// text may have another size than the options say).
    board: (usize, usize),
    failure: Option<GameError>,
}

impl<'g> HookReferee<'g> {
    /// A referee asking `game`'s hooks, its move filter from the script state `root`.
    pub fn new(game: &'g ScriptedGame, root: &'g Dynamic) -> Self {
        let key = game.filter_answers_key(root);
        let (board, answers) = {
            let mut kept = game.filter_answers.borrow_mut();
            if Some(kept.0) == key {
                (kept.1, std::mem::take(&mut kept.2))
            } else {
                ((0, 0), Vec::new())
            }
        };
        HookReferee {
            game,
            root,
            key,
            answers,
            board,
            failure: None,
        }
    }

    /// The first failure of a hook, if one failed.
    pub fn finish(mut self) -> Result<(), GameError> {
        self.failure.take().map_or(Ok(()), Err)
    }

    fn rules(message: String) -> GameError {
        GameError::Rules {
            message,
            spot: None,
        }
    }
}

impl ScriptedGame {
    /// The key of the move filter's answers asked from the script state `root`: 0 for a
    /// filter that does not read the state (its answers hold for any), else `root`'s hash
    /// (odd), or `None` when the command's time ran out while `root` was hashed (answers
    /// asked then are neither looked up nor kept).
    pub(super) fn filter_answers_key(&self, root: &Dynamic) -> Option<u64> {
        match self.move_filter() {
            Some(filter) if filter.reads_state => self.state_hash_in_time(root).map(|h| h | 1),
            _ => Some(0),
        }
    }

    /// Whether the move filter `filter` keeps the move `mv`, asked from the script state `root`.
    pub(super) fn ask_filter(
        &self,
        filter: &MoveFilter,
        root: &Dynamic,
        mv: Dynamic,
    ) -> Result<bool, GameError> {
        let args = filter
            .args
            .iter()
            .map(|arg| match arg {
                FilterArg::State => self.copied(root),
                FilterArg::EmptyList => Ok(Dynamic::from_array(Vec::new())),
                FilterArg::Move => Ok(mv.clone()),
            })
            .collect::<Result<Vec<Dynamic>, GameError>>()?;
        self.call_as::<bool>(&filter.function, args, HookReferee::rules, "true or false")
    }
}

impl Drop for HookReferee<'_> {
    /// Keeps the filter's answers for the next referee asked from the same state.
    fn drop(&mut self) {
        let Some(key) = self.key else {
            return;
        };
        if self.failure.is_none() && !self.answers.is_empty() {
            *self.game.filter_answers.borrow_mut() =
                (key, self.board, std::mem::take(&mut self.answers));
        }
    }
}

impl Referee for HookReferee<'_> {
    fn allows(&mut self, position: &Placement, index: usize) -> bool {
        let Some(judge) = position.judge() else {
            return true;
        };
        if self.failure.is_some() {
            return false;
        }
        let width = position.width();
        let cell = Cell::new((index % width) as i64, (index / width) as i64);
        let args = (
            Dynamic::from(position.grid()),
            Dynamic::from(cell),
            position.to_move() as INT,
        );
        match self
            .game
            .call_as::<bool>(&judge.hook, args, Self::rules, "true or false")
        {
            Ok(allowed) => allowed,
            Err(e) => {
                self.failure = Some(e);
                false
            }
        }
    }

    /// The script texts and options: the same, the same answers.
    fn answers_key(&self) -> u64 {
        self.game.verdict_key()
    }

    fn failed(&self) -> bool {
        self.failure.is_some()
    }

    fn keeps(&mut self, position: &Placement, index: usize) -> bool {
        let Some(filter) = self.game.move_filter() else {
            return true;
        };
        if self.failure.is_some() {
            return false;
        }
        let board = (position.width(), position.cell_count());
        if board != self.board {
            self.answers.clear();
            self.board = board;
        }
        match self.answers.get(index) {
            Some(1) => return true,
            Some(2) => return false,
            _ => {}
        }
        let width = position.width();
        let cell = Cell::new((index % width) as i64, (index / width) as i64);
        match self.game.ask_filter(filter, self.root, Dynamic::from(cell)) {
            Ok(kept) => {
                if self.answers.len() <= index {
                    self.answers.resize(board.1.max(index + 1), 0);
                }
                self.answers[index] = if kept { 1 } else { 2 };
                kept
            }
            Err(e) => {
                self.failure = Some(e);
                false
            }
        }
    }
}
