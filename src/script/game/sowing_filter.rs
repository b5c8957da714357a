//! The script's side of a sowing form's move filter: a variant's `moves()` that keeps some of
//! its base's moves (see [`crate::script::move_filter`]) narrows the base's sowing form, which
//! asks the filter once about each move a house could make, from the script state the form was
//! made from, as the placement form's referee does (see [`super::HookReferee`]). The filter is
//! given a move as the script writes it, the house's pit number, which only a form that sows
//! one way has: a form whose moves choose a direction is left as it is (verification then
//! finds that the script lists fewer moves, and the script plays).

use rhai::{Dynamic, INT};

use super::ScriptedGame;
use crate::{
    native_games::sowing::Sowing,
    runtime::{Game, GameError},
};

impl ScriptedGame {
    /// The sowing `position` (the native form of the script state `root`, or of a position a
    /// game from `root` reached) with its moves narrowed by the script's move filter, asked
    /// from `root` as a playout from there asks it; as it is without a filter (see
    /// the module's documentation). The answers are kept for the next position narrowed from the same
    /// state (from any state, for a filter that does not read it).
    pub fn sowing_narrowed(&self, position: Sowing, root: &Dynamic) -> Result<Sowing, GameError> {
        let Some(filter) = self.move_filter().filter(|_| !position.both_directions()) else {
            return Ok(position);
        };
        let key = if filter.reads_state {
            self.state_hash(root) | 1
        } else {
            0
        };
        let size = (position.seeds().len(), 0);
        let mut answers = {
            let mut kept = self.filter_answers.borrow_mut();
            if kept.0 == key && kept.1 == size {
                std::mem::take(&mut kept.2)
            } else {
                Vec::new()
            }
        };
        answers.resize(2 * size.0, 0);
        let narrowed = position.narrowed(|mv| match answers[mv.index()] {
            1 => Ok(true),
            2 => Ok(false),
            _ => {
                let kept = self.ask_filter(filter, root, Dynamic::from(mv.pit as INT))?;
                answers[mv.index()] = if kept { 1 } else { 2 };
                Ok(kept)
            }
        })?;
        *self.filter_answers.borrow_mut() = (key, size, answers);
        Ok(narrowed)
    }
}
