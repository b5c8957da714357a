//! The game before a command that replaces it (`new`, `set`, `variant`, `load`, a move typed
//! during `replay`) is kept, one deep: `undo` at the point where the new game began brings it
//! back, rules, options and moves as they were.

use super::{
    kept::{OldRules, Previous},
    outcome::{Choice, Done},
    session::Session,
};
use crate::{diag::Diagnostic, runtime::History, script::ScriptedGame};

impl Session {
    /// Puts a game aside before a command replaces it: `rules` are its rules, `choice` how it
    /// was chosen, `lost_on_time` who ran out of time in it, `since` the move count the new game
    /// starts at. Says how to get it back.
    pub(super) fn put_aside(
        &mut self,
        rules: OldRules,
        choice: Choice,
        history: History<ScriptedGame>,
        lost_on_time: Option<usize>,
        since: usize,
    ) {
        if history.ply() == 0 && history.redo_depth() == 0 {
            return; // nothing to lose
        }
        let moves = history.ply() + history.redo_depth();
        self.previous = Some(Previous {
            rules,
            choice,
            history,
            lost_on_time,
            since,
        });
        // After `load`, `undo` first takes back the loaded moves: say so.
        let key = if self.history.ply() > since {
            "previous-kept-later"
        } else {
            "previous-kept"
        };
        println!("{}", self.ui.t_n(key, moves, &[]));
    }

    /// Whether `undo` now brings back the game put aside.
    pub(super) fn can_bring_back(&self) -> bool {
        self.previous
            .as_ref()
            .is_some_and(|p| self.history.ply() <= p.since)
    }

    /// Brings back the game put aside (see [`Session::can_bring_back`]).
    pub(super) fn bring_back(&mut self) -> Done {
        let Some(p) = self.previous.take() else {
            return Err(Diagnostic::new(self.ui.t("nothing-to-undo", &[])).into());
        };
        match p.rules {
            OldRules::Loaded(game) => self.game = *game,
            OldRules::Values(values) => {
                for (key, value) in &values {
                    self.game.set_option(key, value).map_err(Diagnostic::new)?;
                }
            }
        }
        self.game.set_seed(p.choice.seed);
        self.choice = p.choice;
        self.history = p.history;
        self.lost_on_time = p.lost_on_time;
        self.drafts.clear();
        self.restart_clock();
        println!("{}", self.ui.t_n("previous-back", self.history.ply(), &[]));
        self.show_board()
    }
}
