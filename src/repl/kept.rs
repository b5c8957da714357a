//! What a session keeps beside the game it plays: the history a replay steps through, and the
//! game a command replaced (one deep), with the rules it was played under.

use super::outcome::Choice;
use crate::{runtime::History, script::ScriptedGame};

/// A history being stepped through: every move played, then undone back to the cursor.
pub struct Replay {
    pub(super) history: History<ScriptedGame>,
    /// Each move's player and text.
    pub(super) listing: Vec<(String, String)>,
}

impl Replay {
    /// The history, at the cursor.
    pub fn history(&self) -> &History<ScriptedGame> {
        &self.history
    }

    /// The cursor (moves shown) and the number of moves.
    pub fn position(&self) -> (usize, usize) {
        (self.history.ply(), self.listing.len())
    }

    /// Each move's player and text.
    pub fn listing(&self) -> &[(String, String)] {
        &self.listing
    }
}

/// The rules a game put aside was played under.
pub enum OldRules {
    /// Another script (or the same one, loaded before): kept as it was.
    Loaded(Box<ScriptedGame>),
    /// The script still loaded, with these option values (as `set` takes them).
    Values(Vec<(String, String)>),
}

impl OldRules {
    /// The option values of the rules loaded now in `game`, to put back later.
    pub fn values_of(game: &ScriptedGame) -> OldRules {
        let values = game.option_values();
        OldRules::Values(
            game.options()
                .iter()
                .filter_map(|o| Some((o.name.clone(), values.get(o.name.as_str())?.to_string())))
                .collect(),
        )
    }
}

/// A game put aside by a command that replaced it.
pub struct Previous {
    pub(super) rules: OldRules,
    pub(super) choice: Choice,
    pub(super) history: History<ScriptedGame>,
    pub(super) lost_on_time: Option<usize>,
    /// The move count of the new game when it replaced this one: `undo` from there brings this
    /// one back.
    pub(super) since: usize,
}
