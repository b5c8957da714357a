//! The game in progress is kept: after every command of an interactive session it is written to
//! `autosave.toml` in the data folder (`$BOARDRULES_DATA_DIR`, or the user's data folder), so a
//! stray key, a closed terminal or a crash loses nothing. The next `play` on a terminal offers
//! to resume it. A game that is over, or has no move yet, is not kept.

use std::path::PathBuf;

use super::{save, session::Session};
use crate::runtime::History;

/// The folder the REPL keeps its data in: `$BOARDRULES_DATA_DIR`, or `boardrules` in the user's
/// data folder.
pub fn data_dir() -> Option<PathBuf> {
    std::env::var_os("BOARDRULES_DATA_DIR")
        .map(PathBuf::from)
        .or_else(|| dirs::data_dir().map(|d| d.join("boardrules")))
}

/// Where the game in progress is kept.
pub fn path() -> Option<PathBuf> {
    data_dir().map(|d| d.join("autosave.toml"))
}

/// The game kept from a session before, if any: its file, game name and number of moves.
pub fn kept() -> Option<(PathBuf, String, usize)> {
    let path = path().filter(|p| p.is_file())?;
    let (_, file) = save::read(&path).ok()?;
    let game = file.game.into_inner();
    Some((path, game, file.moves.len()))
}

impl Session {
    /// Keeps the game (the game itself, not a draft or a replay) if it changed since `last`,
    /// the text written before. Returns a note if it could not be written.
    pub fn autosave(&self, last: &mut Option<String>) -> Option<String> {
        let path = path()?;
        let history: &History<_> = self.drafts.first().unwrap_or(&self.history);
        let over = !matches!(self.outcome_of(history.current()), Ok(None));
        let text = (history.ply() > 0 && !over).then(|| self.save_file(history).to_text());
        if text == *last {
            return None;
        }
        let done = match &text {
            Some(text) => save::write_atomically(&path, text),
            None if path.is_file() => std::fs::remove_file(&path).map_err(|e| e.to_string()),
            None => Ok(()),
        };
        *last = text;
        done.err()
            .map(|why| self.ui.t("autosave-failed", &[("why", &why)]))
    }
}
