//! The script's side of a placement game's judge: asks the hook the native form names whether
//! the player to move may put a stone on a cell (see [`crate::native_games::placement::judge`]).

use rhai::{Dynamic, INT};

use super::ScriptedGame;
use crate::{
    native_games::placement::{Placement, Referee},
    runtime::{Cell, GameError},
};

/// Asks `hook(board, cell, player)` of a script; a failure refuses the move and is kept for
/// [`HookReferee::finish`].
pub struct HookReferee<'g> {
    game: &'g ScriptedGame,
    failure: Option<GameError>,
}

impl<'g> HookReferee<'g> {
    /// A referee asking `game`'s hooks.
    pub fn new(game: &'g ScriptedGame) -> Self {
        HookReferee {
            game,
            failure: None,
        }
    }

    /// The first failure of a hook, if one failed.
    pub fn finish(self) -> Result<(), GameError> {
        self.failure.map_or(Ok(()), Err)
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
        let rules = |message| GameError::Rules {
            message,
            spot: None,
        };
        match self
            .game
            .call_as::<bool>(&judge.hook, args, rules, "true or false")
        {
            Ok(allowed) => allowed,
            Err(e) => {
                self.failure = Some(e);
                false
            }
        }
    }
}
