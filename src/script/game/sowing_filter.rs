//! The script's side of a sowing form's move filter: a variant's `moves()` that keeps some of
//! its base's moves (see [`crate::script::move_filter`]) narrows the base's sowing form, which
//! asks the filter once about each move a house could make, from the script state the form was
//! made from, as the placement form's referee does (see [`super::HookReferee`]). The filter is
//! given a move as the script writes it: the house's pit number for a form that sows one way,
//! else what the script's [`MOVE_WRITER`] (`native_move(state, pit, dir)`, asked from the same
//! state) writes. A form whose moves choose a direction, of a script that does not define it,
//! is left as it is (verification then finds that the script lists fewer moves, and the script
//! plays).

use rhai::{Dynamic, INT};

use super::ScriptedGame;
use crate::{native_games::sowing::Sowing, runtime::GameError};

/// The script function that writes the move sowing a pit one way round as `moves` does.
const MOVE_WRITER: &str = "native_move";

/// A failure of the function that writes a move.
fn rules(message: String) -> GameError {
    GameError::Rules {
        message,
        spot: None,
    }
}

impl ScriptedGame {
    /// The sowing `position` (the native form of the script state `root`, or of a position a
    /// game from `root` reached) with its moves narrowed by the script's move filter, asked
    /// from `root` as a playout from there asks it; as it is without a filter (see the module's
    /// documentation). The answers are kept for the next position narrowed from the same state
    /// (from any state, for a filter that does not read it).
    pub fn sowing_narrowed(&self, position: Sowing, root: &Dynamic) -> Result<Sowing, GameError> {
        let two_way = position.both_directions();
        let writable = !two_way || self.defines(MOVE_WRITER, 3);
        let Some(filter) = self.move_filter().filter(|_| writable) else {
            return Ok(position);
        };
        let key = self.filter_answers_key(root);
        let size = (position.seeds().len(), 0);
        let mut answers = {
            let mut kept = self.filter_answers.borrow_mut();
            if Some(kept.0) == key && kept.1 == size {
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
                let written = if two_way {
                    let args = (root.clone(), mv.pit as INT, mv.dir as INT);
                    self.call_as::<Dynamic>(MOVE_WRITER, args, rules, "a move")?
                } else {
                    Dynamic::from(mv.pit as INT)
                };
                let kept = self.ask_filter(filter, root, written)?;
                answers[mv.index()] = if kept { 1 } else { 2 };
                Ok(kept)
            }
        })?;
        if let Some(key) = key {
            *self.filter_answers.borrow_mut() = (key, size, answers);
        }
        Ok(narrowed)
    }
}
