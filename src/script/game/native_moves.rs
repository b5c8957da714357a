//! Moves from outside the rules (a position set up stone by stone, an opponent's stone) checked
//! by the verified native placement form instead of by listing the script's `moves()`, which
//! for a rule with forbidden points (renju's) judges every empty cell. The form is used only once
//! verified against the script (see [`crate::script::verify`]), with its judge's and move
//! filter's hooks asked as in playouts, for this one cell; the script's `play` still makes the
//! move. Where the form cannot say, refuses the move, or `play` refuses it, the move goes
//! through [`legality::play_listed`] as any other: a refused move gets the same message.

use rhai::Dynamic;

use super::{HookReferee, ScriptedGame};
use crate::{
    runtime::{legality, Cell, Game, GameError, Played},
    script::native_form::NativeGame,
};

impl ScriptedGame {
    /// Plays `mv` (written `text`) in `state` as [`legality::play_listed`] does, but without
    /// listing the script's moves when the verified native placement form allows the cell and
    /// the script's `play` accepts it.
    pub fn play_allowed(
        &self,
        state: &Dynamic,
        mv: &Dynamic,
        text: &str,
    ) -> Result<Played<Dynamic>, GameError> {
        if self.native_allows(state, mv) == Some(true) {
            if let Ok(played) = self.play(state, mv) {
                return Ok(played);
            }
        }
        legality::play_listed(self, state, mv, text)
    }

    /// The legal moves in `state` for a search's root, and whether the native form gave them:
    /// the cells the native placement form allows (its judge and move filter asked as in
    /// playouts), in the order of the board's rows, once the form is verified (this asks for
    /// no verification: a search's comes after its screen of the moves) for a script whose
    /// moves are cells; else the script's `moves()`. The caller has the script check the move
    /// it chooses among native ones ([`Self::lists`]).
    pub fn root_moves(&self, state: &Dynamic) -> Result<(Vec<Dynamic>, bool), GameError> {
        if self.native_trusted.get() == Some(true) && self.moves_are_cells() {
            if let Ok(Some((NativeGame::Placement(position), _))) = self.native_form(state) {
                if position.outcome().is_none() {
                    if let Ok(mut cells) = self.allowed_cells(&position, state) {
                        cells.sort_unstable();
                        let width = position.width().max(1) as u32;
                        let cell = |i: u32| Cell::new((i % width).into(), (i / width).into());
                        let moves = cells.into_iter().map(|i| Dynamic::from(cell(i)));
                        return Ok((moves.collect(), true));
                    }
                }
            }
        }
        self.legal_moves(state).map(|moves| (moves, false))
    }

    /// Whether the script's `moves()` lists `mv` in `state` (the same move value).
    pub fn lists(&self, state: &Dynamic, mv: &Dynamic) -> Result<bool, GameError> {
        let hash = self.move_hash(mv);
        let legal = self.legal_moves(state)?;
        Ok(hash.is_some() && legal.iter().any(|m| self.move_hash(m) == hash))
    }

    /// Whether the script's moves are cells: those it lists at the start are (and there are
    /// some). Asked once for the current options.
    pub fn moves_are_cells(&self) -> bool {
        if let Some(known) = self.cell_moves.get() {
            return known;
        }
        let cells = self
            .start()
            .and_then(|start| self.legal_moves(&start))
            .is_ok_and(|moves| !moves.is_empty() && moves.iter().all(|m| m.is::<Cell>()));
        // A listing the command's time stopped says nothing: ask again next time.
        if cells || !crate::cancel::calls_stopped() {
            self.cell_moves.set(Some(cells));
        }
        cells
    }

    /// How many moves `state` leaves room for, for a clock's share of time: the free cells of
    /// the verified native placement form, or else the number of legal moves.
    pub fn moves_left(&self, state: &Dynamic) -> Result<usize, GameError> {
        match self.native(state) {
            Ok(Some(NativeGame::Placement(position))) => Ok(position.empties().len()),
            _ => self.legal_moves(state).map(|moves| moves.len()),
        }
    }

    /// Whether the verified native placement form lets the player to move in `state` put a
    /// stone on the cell `mv`: `None` when it cannot say (no such form or not verified, moves
    /// that are not cells, a finished game, a hook that fails).
    fn native_allows(&self, state: &Dynamic, mv: &Dynamic) -> Option<bool> {
        let cell = mv.clone().try_cast::<Cell>()?;
        if !self.moves_are_cells() {
            return None;
        }
        let Ok(Some(NativeGame::Placement(position))) = self.native(state) else {
            return None;
        };
        if position.outcome().is_some() {
            return None;
        }
        let width = position.width() as i64;
        let height = position.cell_count() as i64 / width.max(1);
        if !(0..width).contains(&cell.x) || !(0..height).contains(&cell.y) {
            return Some(false);
        }
        let index = (cell.y * width + cell.x) as usize;
        if !position.empties().contains(&(index as u32)) {
            return Some(false);
        }
        let mut referee = HookReferee::new(self, state);
        let allowed = position.allows(index, &mut referee);
        referee.finish().ok().map(|()| allowed)
    }
}
