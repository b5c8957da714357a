//! The tournament's journal: one JSON line per finished game, appended and synced to disk at
//! once, so that an interrupted tournament loses nothing. A last line cut short by a crash is
//! ignored (and cut off before appending again); any other bad line is an error that points at it.

use std::{
    fs::{File, OpenOptions},
    io::{self, Write},
    path::Path,
};

use serde::{Deserialize, Serialize};

use super::super::referee::FaultKind;
use crate::{
    diag::Diagnostic,
    fsio::{self, Limits},
};

/// The largest journal read (about a million games).
const MAX_BYTES: u64 = 1 << 30;

/// One finished game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The game's number in the tournament's schedule.
    pub game: usize,
    /// The rules played (the game's name).
    pub rules: String,
    /// The options the rules were played with, as `KEY=VALUE` settings (none: the defaults).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// The bots that played player 1 and player 2.
    pub players: [String; 2],
    /// The seed builtin sides were given.
    pub seed: u64,
    /// `1-0`, `0-1` or `1/2-1/2` (player 1's score first).
    pub result: String,
    /// Why the game ended.
    pub reason: String,
    /// The moves, in the game's notation.
    pub moves: Vec<String>,
    /// The fault that lost the game, if any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<FaultEntry>,
}

/// A bot's fault in a game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FaultEntry {
    /// The bot's name.
    pub bot: String,
    /// Timeout, illegal move or crash.
    pub kind: FaultKind,
    /// What happened, with the end of its stderr (control characters escaped).
    pub detail: String,
}

impl Entry {
    /// Player 1's score: 1, ½ or 0.
    pub fn first_score(&self) -> f64 {
        match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        }
    }
}

/// What a journal holds.
#[derive(Debug)]
pub struct Loaded {
    /// Its complete lines.
    pub entries: Vec<Entry>,
    /// The length of the complete lines, when a cut-short last line follows them.
    pub cut_at: Option<u64>,
}

/// Reads the journal at `path`.
pub fn read(path: &Path) -> Result<Loaded, Diagnostic> {
    let limits = Limits {
        max_bytes: MAX_BYTES,
        follow_symlinks: true,
        single_link: false,
    };
    let name = path.display().to_string();
    let text = fsio::read_text_with(path, limits)
        .map_err(|e| Diagnostic::new(format!("cannot read the journal {name}: {e}")))?;
    let complete = text.rfind('\n').map_or(0, |i| i + 1);
    let mut entries = Vec::new();
    let mut start = 0;
    for line in text[..complete].split_inclusive('\n') {
        let body = line.trim_end();
        if !body.is_empty() {
            let entry = serde_json::from_str::<Entry>(body).map_err(|e| {
                let at = offset(body, e.line(), e.column());
                let end = (start + at + 1).min(start + body.len());
                Diagnostic::new(format!("{name} has a line that is not a game"))
                    .at(name.as_str(), text.as_str(), start + at..end, e.to_string())
                    .note(
                        "each line is one game as the tournament wrote it; remove or fix this line",
                    )
            })?;
            entries.push(entry);
        }
        start += line.len();
    }
    let cut_at = (complete < text.len()).then_some(complete as u64);
    Ok(Loaded { entries, cut_at })
}

/// The byte offset in `text` of serde_json's 1-based line and column.
fn offset(text: &str, line: usize, column: usize) -> usize {
    let before: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (before + column.saturating_sub(1)).min(text.len().saturating_sub(1))
}

/// Opens the journal for appending, first cutting off a cut-short last line.
pub fn open(path: &Path, cut_at: Option<u64>) -> io::Result<File> {
    let file = OpenOptions::new().create(true).append(true).open(path)?;
    if let Some(len) = cut_at {
        file.set_len(len)?;
    }
    Ok(file)
}

/// Appends `entry` as one line and waits until it is on disk.
pub fn append(file: &mut File, entry: &Entry) -> io::Result<()> {
    let mut line = serde_json::to_string(entry).map_err(io::Error::other)?;
    line.push('\n');
    file.write_all(line.as_bytes())?;
    file.sync_data()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(game: usize) -> Entry {
        Entry {
            game,
            rules: "g".into(),
            options: Vec::new(),
            players: ["a".into(), "b".into()],
            seed: 1,
            result: "1-0".into(),
            reason: "r".into(),
            moves: vec!["x".into()],
            faults: Vec::new(),
        }
    }

    #[test]
    fn a_cut_short_last_line_is_ignored_and_cut_off() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let mut file = open(&path, None).unwrap();
        append(&mut file, &entry(0)).unwrap();
        file.write_all(b"{\"game\":1,\"ru").unwrap();
        let loaded = read(&path).unwrap();
        assert_eq!(loaded.entries, vec![entry(0)]);
        let mut file = open(&path, loaded.cut_at).unwrap();
        append(&mut file, &entry(1)).unwrap();
        let loaded = read(&path).unwrap();
        assert_eq!(loaded.entries, vec![entry(0), entry(1)]);
        assert_eq!(loaded.cut_at, None);
    }

    #[test]
    fn a_bad_line_is_pointed_at() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        std::fs::write(&path, "{\"game\":0}\n").unwrap();
        let e = read(&path).unwrap_err().render(false);
        assert!(e.contains("has a line that is not a game"), "{e}");
        assert!(e.contains("missing field"), "{e}");
    }
}
