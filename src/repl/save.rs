//! Saved games: a readable TOML file with the game, its options and seed, the moves, a checksum
//! of the position after each move and of the final one, and the clock. Loading replays the moves
//! through the current rules and says where they diverge. Writes are atomic.

use std::{collections::BTreeMap, ops::Range, path::Path};

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::diag::Diagnostic;

/// The clock of a saved game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedClock {
    /// Each player's starting time, in milliseconds.
    pub budget_ms: u64,
    /// Each player's time left, in milliseconds.
    pub remaining_ms: Vec<u64>,
    /// The player (1, 2, …) who ran out of time, if one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost_on_time: Option<usize>,
}

/// The computer's part in a saved game: it plays `side` (1, 2, …) at `level`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedVs {
    /// The level: `easy`, `medium` or `hard`.
    pub level: String,
    /// The player it plays, from 1.
    pub side: usize,
}

/// A saved game, as written.
#[derive(Debug, Clone, Serialize)]
pub struct SaveFile {
    /// The game: a built-in name or a script path.
    pub game: String,
    /// The seed.
    pub seed: u64,
    /// The moves, in canonical notation.
    pub moves: Vec<String>,
    /// A checksum (16 hex digits) of the position after each move.
    pub checksums: Vec<String>,
    /// The checksum of the final position.
    pub final_checksum: String,
    /// The options that differ from the script's defaults, as text.
    pub options: BTreeMap<String, String>,
    /// The clock, when one ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<SavedClock>,
    /// The computer's side and level, when it plays.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vs: Option<SavedVs>,
}

/// A saved game as read back, with where each part stands in the file for error reports.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadedFile {
    /// The game.
    pub game: Spanned<String>,
    /// The seed.
    #[serde(default)]
    pub seed: u64,
    /// The moves.
    pub moves: Vec<Spanned<String>>,
    /// Per-move checksums (may be left out of a hand-written file).
    #[serde(default)]
    pub checksums: Vec<String>,
    /// The final checksum (may be left out).
    pub final_checksum: Option<Spanned<String>>,
    /// Options.
    #[serde(default)]
    pub options: BTreeMap<String, Spanned<toml::Value>>,
    /// The clock.
    pub clock: Option<SavedClock>,
    /// The computer's side and level.
    pub vs: Option<Spanned<SavedVs>>,
}

/// An option's value as `set` takes it: a string as itself, anything else as TOML writes it.
pub fn option_text(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Formats a state hash as a checksum.
pub fn checksum(hash: u64) -> String {
    format!("{hash:016x}")
}

const HEADER: &str =
    "# A boardrules saved game: `boardrules play --load FILE`, or `load FILE` in the REPL.\n";

impl SaveFile {
    /// The file's text.
    pub fn to_text(&self) -> String {
        let body = toml::to_string(self).expect("a save file always serialises");
        format!("{HEADER}{body}")
    }
}

/// The English words of a save file's errors, which the REPL says in its language.
pub const CANNOT_READ: &str = "cannot read saved game";
/// See [`CANNOT_READ`].
pub const NOT_A_SAVE: &str = "this is not a saved game I can read";
/// See [`CANNOT_READ`].
pub const NOTHING_CHANGED: &str = "nothing was changed";

/// The whole text of a file, and the file read as a saved game; errors point into the text.
pub fn read(path: &Path) -> Result<(String, LoadedFile), Diagnostic> {
    let name = path.display().to_string();
    let text = crate::fsio::read_text(path)
        .map_err(|e| Diagnostic::new(format!("{CANNOT_READ} {name}: {e}")))?;
    match toml::from_str::<LoadedFile>(&text) {
        Ok(file) => Ok((text, file)),
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            Err(error_at(&name, &text, span, e.message(), NOT_A_SAVE))
        }
    }
}

/// An error about a saved game, pointing at `span` of its text.
pub fn error_at(
    name: &str,
    text: &str,
    span: Range<usize>,
    label: &str,
    message: &str,
) -> Diagnostic {
    Diagnostic::new(format!("{message} ({name})"))
        .at(name, text, span, label)
        .note(NOTHING_CHANGED)
}

/// The start of the names of the temporary files saves are written to, before the pid of the
/// process writing them: `.boardrules-save-PID-XXXXXX.tmp`.
const TEMP_PREFIX: &str = ".boardrules-save-";

/// Writes `text` to `path` atomically: into a temporary file beside it, then renamed over it, so
/// a crash never leaves half a file. Only a regular file is ever replaced (not a symlink, a device
/// or a FIFO). Temporary files that a killed save left in that folder are removed first. The
/// file gets the permissions the user's umask gives new files.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), String> {
    write_bytes_atomically(path, text.as_bytes())
}

/// Writes `bytes` to `path` as [`write_atomically`] writes text (a PNG picture).
pub fn write_bytes_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let shown = path.display();
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if !meta.is_file() {
            return Err(format!(
                "{shown} is {}: a save only replaces a regular file",
                crate::fsio::kind(&meta)
            ));
        }
    }
    let dir = folder_of(path);
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    remove_stale_temp_files(dir);
    let prefix = format!("{TEMP_PREFIX}{}-", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // Created as any file the user makes (0666 less the umask), not private as temporary files
    // are: a picture or a save is for sharing.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut tmp = builder
        .tempfile_in(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    tmp.write_all(bytes)
        .and_then(|_| tmp.as_file().sync_all())
        .map_err(|e| format!("{shown}: {e}"))?;
    tmp.persist(path)
        .map_err(|e| format!("{shown}: {}", e.error))?;
    Ok(())
}

/// The folder a file is in (`.` for a bare name).
pub fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Removes the temporary files of saves in `dir` whose writing process is gone (killed in the
/// middle of a save). Files of running processes, and every other file, are left alone.
pub fn remove_stale_temp_files(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(TEMP_PREFIX))
            .filter(|n| n.ends_with(".tmp"))
            .and_then(|n| n.split('-').next())
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if is_file && !process_alive(pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(unix)]
fn process_alive(pid: u32) -> bool {
    let Ok(pid) = i32::try_from(pid) else {
        return false;
    };
    // SAFETY: kill(2) with signal 0 only checks whether the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

#[cfg(not(unix))]
fn process_alive(pid: u32) -> bool {
    pid == std::process::id()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_game_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.toml");
        let save = SaveFile {
            game: "some_game".into(),
            seed: 3,
            moves: vec!["9h".into(), "10h".into()],
            checksums: vec![checksum(1), checksum(2)],
            final_checksum: checksum(2),
            options: BTreeMap::from([("exact".into(), "false".into())]),
            clock: Some(SavedClock {
                budget_ms: 60_000,
                remaining_ms: vec![50_000, 60_000],
                lost_on_time: None,
            }),
            vs: Some(SavedVs {
                level: "hard".into(),
                side: 2,
            }),
        };
        write_atomically(&path, &save.to_text()).unwrap();
        let (_, file) = read(&path).unwrap();
        assert_eq!(file.game.get_ref(), "some_game");
        assert_eq!(
            file.moves
                .iter()
                .map(|m| m.get_ref().as_str())
                .collect::<Vec<_>>(),
            ["9h", "10h"]
        );
        assert_eq!(file.checksums, save.checksums);
        assert_eq!(file.clock, save.clock);
        assert_eq!(file.vs.map(Spanned::into_inner), save.vs);
        assert_eq!(file.options["exact"].get_ref().as_str(), Some("false"));
    }

    #[test]
    fn stale_temp_files_of_dead_saves_are_removed_and_others_kept() {
        let dir = tempfile::tempdir().unwrap();
        // No process has a pid above pid_max (at most 2^22).
        let dead = dir
            .path()
            .join(format!("{TEMP_PREFIX}4294967295-abc123.tmp"));
        let live = dir
            .path()
            .join(format!("{TEMP_PREFIX}{}-abc123.tmp", std::process::id()));
        let other = dir.path().join(".boardrules-saved.tmp");
        for f in [&dead, &live, &other] {
            std::fs::write(f, "x").unwrap();
        }
        write_atomically(&dir.path().join("g.toml"), "game = \"g\"\nmoves = []\n").unwrap();
        assert!(!dead.exists() && live.exists() && other.exists());
        // The save's own temporary file is gone too: the live one, the other and the save.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3);
    }

    #[cfg(unix)]
    #[test]
    fn a_saved_file_gets_the_umasks_permissions_and_a_symlink_or_fifo_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.toml");
        write_atomically(&path, "x").unwrap();
        // SAFETY: umask(2) only reads and sets this process's mask; it is set back at once.
        let mask = unsafe {
            let m = libc::umask(0o022);
            libc::umask(m);
            m
        };
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o666 & !(mask as u32), "{mode:o}");
        let link = dir.path().join("link.html");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        assert!(write_atomically(&link, "y")
            .unwrap_err()
            .contains("symbolic link"));
        let fifo = dir.path().join("index.html");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo(3) with a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(write_atomically(&fifo, "y").unwrap_err().contains("FIFO"));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "x");
    }

    #[test]
    fn a_corrupted_file_points_at_the_damage() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.toml");
        std::fs::write(&path, "game = \"some_game\"\nmoves = [\"9h\", 10h]\n").unwrap();
        let err = read(&path).unwrap_err();
        let p = err.pointer.unwrap();
        assert_eq!(p.text.lines().nth(1).unwrap(), "moves = [\"9h\", 10h]");
        assert!(p.span.start >= 14 + 15, "{:?}", p.span);
    }
}
