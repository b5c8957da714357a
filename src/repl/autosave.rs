//! The game in progress is kept: after every command of an interactive session it is written to
//! a file of its own game in `autosave/` in the data folder (`$BOARDRULES_DATA_DIR`, or the user's
//! data folder), so a stray key, a closed terminal or a crash loses nothing, and opening another
//! game does not drop it. The next `play` of that game on a terminal offers to resume it. A game
//! that is over, or has no move yet, is not kept.
//!
//! Each session holds a lock on the files it keeps games in: a second REPL on the same game and
//! data folder keeps its game in a file of its own (`GAME-2.toml`) and says so, so two sessions
//! never write over each other's game.

use std::{
    fs::File,
    path::{Path, PathBuf},
};

use super::{save, session::Session};
use crate::{runtime::History, script::library::is_name};

/// The folder the REPL keeps its data in: `$BOARDRULES_DATA_DIR`, or `boardrules` in the user's
/// data folder.
pub fn data_dir() -> Option<PathBuf> {
    std::env::var_os("BOARDRULES_DATA_DIR")
        .map(PathBuf::from)
        .or_else(|| dirs::data_dir().map(|d| d.join("boardrules")))
}

/// The one file every game was kept in before games were kept apart; still offered.
pub fn old_single_file() -> Option<PathBuf> {
    data_dir()
        .map(|d| d.join("autosave.toml"))
        .filter(|p| p.is_file())
}

/// How many sessions of one game may keep their games side by side.
const MAX_SLOTS: usize = 9;

/// The start of the file names a game is kept under: a built-in name as it is, a script as its
/// file name and a hash of its absolute path (two `rules.rhai` in two folders are two games).
fn file_stem(game: &str) -> String {
    if is_name(game) {
        return game.to_string();
    }
    let stem: String = Path::new(game)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .take(40)
        .collect();
    // FNV-1a: stable across versions and platforms, unlike the standard library's hasher.
    let hash = game.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{stem}-{:08x}", hash as u32)
}

/// A file a game is kept in, locked by this session while it lasts.
struct Slot {
    game: String,
    path: PathBuf,
    _lock: File,
}

/// What the session keeps: the files it holds, and what it last wrote.
#[derive(Default)]
pub struct Keeper {
    slots: Vec<Slot>,
    /// The file and text last written (no text: the file was removed, nothing to keep).
    last: Option<(PathBuf, Option<String>)>,
    /// Why the last write failed, while it has not succeeded since.
    failed: Option<String>,
}

impl Keeper {
    /// The file `game` is kept in by this session: the first of `GAME.toml`, `GAME-2.toml`, …
    /// that no other session holds. The second value says when another session holds the first.
    pub fn slot(&mut self, game: &str) -> Result<(PathBuf, bool), String> {
        if let Some(s) = self.slots.iter().find(|s| s.game == game) {
            return Ok((s.path.clone(), false));
        }
        let dir = data_dir()
            .ok_or("no data folder (set BOARDRULES_DATA_DIR)")?
            .join("autosave");
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let stem = file_stem(game);
        for n in 1..=MAX_SLOTS {
            let name = if n == 1 {
                stem.clone()
            } else {
                format!("{stem}-{n}")
            };
            let lock_path = dir.join(format!("{name}.lock"));
            let lock = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&lock_path)
                .map_err(|e| format!("{}: {e}", lock_path.display()))?;
            if try_lock(&lock) {
                let path = dir.join(format!("{name}.toml"));
                self.slots.push(Slot {
                    game: game.to_string(),
                    path: path.clone(),
                    _lock: lock,
                });
                return Ok((path, n > 1));
            }
        }
        Err(format!(
            "{MAX_SLOTS} sessions are already keeping games of {game}"
        ))
    }

    /// The games of `game` kept by sessions before that no session holds now, other than
    /// `except`: their files.
    pub fn others(&self, game: &str, except: &Path) -> Vec<PathBuf> {
        let Some(dir) = data_dir().map(|d| d.join("autosave")) else {
            return Vec::new();
        };
        let stem = file_stem(game);
        (2..=MAX_SLOTS)
            .map(|n| dir.join(format!("{stem}-{n}.toml")))
            .chain([dir.join(format!("{stem}.toml"))])
            .filter(|p| p != except && p.is_file())
            .filter(|p| {
                std::fs::OpenOptions::new()
                    .append(true)
                    .open(p.with_extension("lock"))
                    .map_or(true, |f| try_lock(&f))
            })
            .collect()
    }

    /// Why keeping the game failed last, if it has not succeeded since.
    pub fn failure(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    /// The file the game was last kept in, if it holds a game.
    pub fn kept(&self) -> Option<&Path> {
        match &self.last {
            Some((path, Some(_))) if self.failed.is_none() => Some(path),
            _ => None,
        }
    }
}

/// Takes the advisory lock on `file` without waiting; released when the file is closed (and
/// when the process ends, however it ends).
#[cfg(unix)]
fn try_lock(file: &File) -> bool {
    use std::os::unix::io::AsRawFd;
    // SAFETY: flock(2) on a file descriptor this process owns.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

#[cfg(not(unix))]
fn try_lock(_: &File) -> bool {
    true
}

/// The game kept in `path`, if any: its game name and number of moves.
pub fn kept_in(path: &Path) -> Option<(String, usize)> {
    let (_, file) = save::read(path).ok()?;
    Some((file.game.into_inner(), file.moves.len()))
}

impl Session {
    /// Keeps the game (the game itself, not a draft or a replay) if it changed since it was
    /// last kept. Returns notes to show: a failure to keep it, or where it is kept when another
    /// session holds the game's first file.
    pub fn autosave(&self, keeper: &mut Keeper) -> Vec<String> {
        let mut notes = Vec::new();
        let (path, shared) = match keeper.slot(&self.choice.game) {
            Ok(slot) => slot,
            Err(why) => {
                if keeper.failed.as_deref() != Some(why.as_str()) {
                    notes.push(self.ui.t("autosave-failed", &[("why", &why)]));
                }
                keeper.failed = Some(why);
                return notes;
            }
        };
        if shared {
            let shown = path.display();
            notes.push(self.ui.t("autosave-shared", &[("path", &shown)]));
        }
        let history: &History<_> = self.drafts.first().unwrap_or(&self.history);
        let over = !matches!(self.outcome_of(history.current()), Ok(None));
        let text = (history.ply() > 0 && !over).then(|| self.save_file(history).to_text());
        let now = Some((path.clone(), text.clone()));
        if keeper.last == now && keeper.failed.is_none() {
            return notes;
        }
        let done = match &text {
            Some(text) => save::write_atomically(&path, text),
            None if path.is_file() => std::fs::remove_file(&path).map_err(|e| e.to_string()),
            None => Ok(()),
        };
        keeper.last = now;
        match done {
            Ok(()) => keeper.failed = None,
            Err(why) => {
                notes.push(self.ui.t("autosave-failed", &[("why", &why)]));
                keeper.failed = Some(why);
            }
        }
        notes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_in_two_folders_are_kept_apart_and_names_as_they_are() {
        assert_eq!(file_stem("tic_tac_toe"), "tic_tac_toe");
        let a = file_stem("/home/t/class1/my rules.rhai");
        let b = file_stem("/home/t/class2/my rules.rhai");
        assert!(
            a.starts_with("my_rules-") && b.starts_with("my_rules-"),
            "{a}"
        );
        assert_ne!(a, b);
        assert_eq!(a, file_stem("/home/t/class1/my rules.rhai"));
    }
}
